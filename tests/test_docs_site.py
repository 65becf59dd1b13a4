"""The built documentation site: every internal link and anchor holds, every ruling citation is a
link to the reader's language's rules page, the translated pages mark their English parts, the
project links are in every page's footer, and the navigation is arranged by reader.

The whole site is built once (the ``docs_site`` fixture, one xdist group); the link check and
the ruling links are also tested on small projects, to show that they catch what they must.
"""

from __future__ import annotations

import html.parser
import re
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from docsite import DOCS, ROOT
from kowah_links import RULINGS, broken_links

from kowah.i18n import LANGUAGES

pytestmark = pytest.mark.xdist_group("docs-site")

#: A ruling cited in text, as the pages write it: R7, or each end of R9–R17.
CITATION = re.compile(r"(?<![\w/#.\-])R(\d{1,2})(?![\w])")


def _conf(source: Path, extensions: str = "'kowah_docs', 'kowah_links'") -> None:
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(DOCS / '_ext')!r})\nextensions = [{extensions}]\n"
        "html_theme = 'basic'\n", encoding="utf-8")


def _build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(source), str(out)], capture_output=True, text=True)


# --- the link check ---------------------------------------------------------------------------


def test_the_link_check_finds_a_missing_page_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "en.html").write_text('<h2 id="r7">Waits</h2>', encoding="utf-8")
    (tmp_path / "index.html").write_text(
        '<a href="rules/en.html#r7">R7</a> <a href="rules/en.html#r99">R99</a> '
        '<a href="rules/xx.html">gone</a> <a href="https://example.org/x.html#y">out</a> '
        '<a href="#top">top</a><span id="top"></span> <img src="_static/none.svg">',
        encoding="utf-8")
    assert broken_links(tmp_path) == ["index.html: rules/en.html#r99", "index.html: rules/xx.html",
                                      "index.html: _static/none.svg"]


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    _conf(source)
    (source / "index.rst").write_text(
        "Index\n=====\n\n.. toctree::\n\n   other\n\nSee `the other page <other.html#nowhere>`_.\n",
        encoding="utf-8")
    (source / "other.rst").write_text("Other\n=====\n\nText.\n", encoding="utf-8")
    result = _build(source, tmp_path / "html")
    assert result.returncode != 0
    assert "broken link: index.html: other.html#nowhere" in result.stderr


def test_every_link_and_anchor_of_the_built_site_holds(docs_site: Path) -> None:
    assert broken_links(docs_site) == []
    pages = list(docs_site.rglob("*.html"))
    links = sum(page.read_text(encoding="utf-8").count("href=") for page in pages)
    assert len(pages) > 60 and links > 5000  # the whole site, not a few pages


# --- ruling citations are links ---------------------------------------------------------------


def test_ruling_citations_link_to_the_rules_page_of_the_pages_language(tmp_path: Path) -> None:
    source = tmp_path / "source"
    (source / "rules").mkdir(parents=True)
    _conf(source)
    for language in LANGUAGES:  # each rules page links to the others
        (source / "rules" / f"{language}.rst").write_text(
            f"Rules\n=====\n\n.. kowah-rules:: {language}\n", encoding="utf-8")
    (source / "index.rst").write_text(
        "Index\n=====\n\n.. toctree::\n\n" + "".join(f"   rules/{language}\n" for language in LANGUAGES)
        + "   page\n   halaman\n", encoding="utf-8")
    (source / "page.rst").write_text(
        "Page\n====\n\nWaits (R7, R8), the flow (R9–R17), not R99, not ``R7`` in code.\n",
        encoding="utf-8")
    (source / "halaman.rst").write_text(
        ":kowah-language: id\n\nHalaman\n=======\n\nKartu tunggu (R8).\n", encoding="utf-8")
    out = tmp_path / "html"
    result = _build(source, out)
    assert result.returncode == 0, result.stderr
    page = (out / "page.html").read_text(encoding="utf-8")
    linked = re.findall(r'<a class="kowah-ruling reference internal" href="([^"]+)">R(\d+)</a>', page)
    assert linked == [("rules/en.html#r7", "7"), ("rules/en.html#r8", "8"), ("rules/en.html#r9", "9"),
                      ("rules/en.html#r17", "17")]
    assert "not R99" in page and "<span class=\"pre\">R7</span>" in page  # left alone
    halaman = (out / "halaman.html").read_text(encoding="utf-8")
    assert 'href="rules/id.html#r8">R8</a>' in halaman


class _PlainText(html.parser.HTMLParser):
    """The text of a page outside links, code, headings and the rules' own ruling labels."""

    SKIP: ClassVar = {"a", "code", "pre", "script", "style", "title", "head", "h1", "h2", "h3", "h4",
                      "h5", "h6"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("meta", "link", "br", "img", "hr", "input", "source", "use", "path", "circle", "rect"):
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append(tag in self.SKIP or "rulings" in classes or (bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("meta", "link", "br", "img", "hr", "input", "source", "use", "path", "circle", "rect"):
            return
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.text.append(data)


def test_every_ruling_citation_of_the_built_site_is_a_link(docs_site: Path) -> None:
    linked = 0
    for path in sorted(docs_site.rglob("*.html")):
        if path.parent.name == "_modules":
            continue
        page = path.read_text(encoding="utf-8")
        parser = _PlainText()
        parser.feed(page)
        plain = " ".join(parser.text)
        bare = [f"R{number}" for number in CITATION.findall(plain) if int(number) in RULINGS]
        assert bare == [], (path.relative_to(docs_site).as_posix(), bare)
        linked += page.count('class="kowah-ruling')
    assert linked > 150
    tutorial = (docs_site / "tutorial.html").read_text(encoding="utf-8")
    assert 'href="rules/en.html#r8">R8</a>' in tutorial
    sources = (docs_site / "sources" / "id.html").read_text(encoding="utf-8")
    assert 'href="../rules/id.html#r14">R14</a>' in sources


# --- arranged by reader ------------------------------------------------------------------------


def _captions(page: str) -> list[str]:
    return re.findall(r'<span class="caption-text"[^>]*>([^<]+)</span>', page)


def test_the_navigation_has_the_four_kinds_of_page_and_no_maintainers_page(docs_site: Path) -> None:
    start = (docs_site / "index.html").read_text(encoding="utf-8")
    assert _captions(start) == ["Tutorials", "How-to guides", "Reference", "Explanation"]
    sidebar = start.split('class="sidebar-tree"', 1)[1].split("</aside>", 1)[0]
    for page in ("terminal", "tutorial", "browser", "rl", "install", "howto/friends", "howto/player",
                 "howto/record", "howto/cluster", "howto/translate", "reference/index", "rules/index",
                 "sources/index", "cards/index", "design"):
        assert f'href="{page}.html"' in sidebar, page
    for page in ("release", "changelog", "contributing"):  # not the players' navigation
        assert f'href="{page}.html"' not in sidebar, page
        assert (docs_site / f"{page}.html").is_file()
    # The glossary is the translators': under their guide, not at the top of the navigation.
    top = re.findall(r'<li class="toctree-l1[^"]*"><a class="reference internal" href="([^"]+)"', sidebar)
    assert "glossary.html" not in top and "howto/translate.html" in top
    assert re.search(r'href="howto/translate.html".*?<li class="toctree-l2[^"]*"><a class="reference '
                     r'internal" href="glossary.html"', sidebar, re.DOTALL)


@pytest.mark.parametrize("page", ["index.html", "rules/id.html", "howto/cluster.html"])
def test_every_page_links_to_the_repository_tracker_changelog_and_guide(docs_site: Path, page: str) -> None:
    import tomllib

    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    built = (docs_site / page).read_text(encoding="utf-8")
    footer = built.split('<nav class="kowah-project-links"', 1)[1].split("</nav>", 1)[0]
    hrefs = re.findall(r'href="([^"]+)"', footer)
    prefix = "../" * page.count("/")
    assert hrefs == [urls["Repository"], urls["Issues"], f"{prefix}changelog.html",
                     f"{prefix}contributing.html"]
    contributing = (docs_site / "contributing.html").read_text(encoding="utf-8")
    assert "The layering rule" in contributing  # CONTRIBUTING.md itself, as a page
    install = (docs_site / "install.html").read_text(encoding="utf-8")
    assert f"git clone {urls['Repository']}.git" in html.unescape(re.sub(r"<[^>]+>", "", install))


def test_the_measured_figures_are_the_results_files(docs_site: Path) -> None:
    """The pages show the benchmarks' figures as their results files hold them."""
    from kowah_figures import figure, source

    players = html.unescape(re.sub(r"<[^>]+>", "", (docs_site / "reference" / "players.html")
                                   .read_text(encoding="utf-8")))
    for key in ("hard.share", "normal.interval", "seed-1.easy.share", "decision-median"):
        assert figure("players", key) in players, key
    assert source("players") in players
    server = html.unescape(re.sub(r"<[^>]+>", "", (docs_site / "server.html").read_text(encoding="utf-8")))
    assert f"a p99 of {figure('web', 'people-50.p99')}" in server
    assert ":measured:" not in players + server


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_rules_page_links_to_where_its_rules_come_from(docs_site: Path, language: str) -> None:
    built = (docs_site / "rules" / f"{language}.html").read_text(encoding="utf-8")
    sources = (docs_site / "sources" / f"{language}.html").read_text(encoding="utf-8")
    title = re.search(r"<h1>(.*?)<a", sources, re.DOTALL)
    assert title is not None
    link = re.search(r'<p class="kowah-sources"><a class="reference internal" href="([^"]+)">'
                     r'<span class="doc">([^<]+)</span>', built)
    assert link is not None and link[1] == f"../sources/{language}.html"
    assert link[2] == title[1].strip()
    assert re.search(rf'<div class="kowah-page" lang="{language}">', sources)


def test_the_flow_chart_opens_full_size(docs_site: Path) -> None:
    """At 390 px the chart is too small to read: tapping it opens the picture itself."""
    for page, prefix in (("index.html", ""), ("rules/index.html", "../")):
        built = (docs_site / page).read_text(encoding="utf-8")
        assert re.search(rf'<a class="reference external image-reference" href="{prefix}_static/'
                         rf'turn-flow.svg"><img[^>]*src="{prefix}_images/turn-flow.svg', built), page


def test_translated_pages_mark_the_english_navigation(docs_site: Path) -> None:
    built = (docs_site / "rules" / "id.html").read_text(encoding="utf-8")
    theme = re.sub(r'<div class="kowah-page".*?</article>', "", built, flags=re.DOTALL)
    assert '<a lang="en" class="reference internal" href="../tutorial.html">' in theme
    assert '<a lang="it" class="reference internal" href="it.html">' in theme
    assert '<span class="caption-text" lang="en">Tutorials</span>' in theme
    assert '<div class="copyright" lang="en">' in theme
    assert re.search(r'<a class="next-page" href="[^"]+">.*?<div class="title" lang="en">', theme, re.DOTALL)
    english = (docs_site / "rules" / "en.html").read_text(encoding="utf-8")
    assert '<a lang="en"' not in english
    assert '<a lang="id" class="reference internal" href="id.html">' in english
