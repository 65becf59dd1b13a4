"""Sphinx extension: ruling citations as links, every page's links checked, languages marked.

Ruling links
    Every citation of a ruling in a page's text, ``R7`` in "(R7, R8)" or in "R9–R17", becomes a
    link to that ruling's anchor on the rules page of the page's language (``rules/en.html#r7``
    on English pages, ``rules/id.html#r7`` on a page marked ``:kowah-language: id``). Code,
    literal blocks, titles and existing links are left alone. Only numbers that are rulings of
    :data:`kowah.rulebook.RULEBOOK` are linked, so the links cannot point at a missing anchor.

Link check
    When the HTML build has finished, every ``href`` and ``src`` of every page that points
    inside the site must name a file that exists and, after ``#``, an ``id`` on that page;
    each broken one is a warning, so ``sphinx-build -W`` fails on it (:func:`broken_links`).

Languages around a translated page
    The theme writes the site's navigation, the next and previous pages' titles and the
    copyright line in English. On a page written in another language each of these carries
    the ``lang`` of its own text: a link to a page written in one language gets that language,
    every other title ``lang="en"`` (:func:`mark_languages`).
"""

from __future__ import annotations

import html.parser
import posixpath
import re
from collections.abc import Iterable, Mapping
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from docutils import nodes, utils
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from kowah.rulebook import RULEBOOK

__all__ = ["RULINGS", "broken_links", "mark_languages", "ruling_pieces", "setup"]

logger = logging.getLogger(__name__)

#: The metadata key that marks a page as written in one language (as in ``kowah_docs``).
LANGUAGE_KEY = "kowah-language"

#: Every ruling the rules state (1 to 17): the numbers a citation may link to.
RULINGS = frozenset(ruling for section in RULEBOOK for ruling in section.rulings)

_CITATION = re.compile(r"(?<![\w/#.\-])R(\d{1,2})(?![\w])")

#: Elements whose text is never turned into links.
_SKIPPED = (nodes.FixedTextElement, nodes.literal, nodes.reference, nodes.title, nodes.raw,
            nodes.target, nodes.option_string, nodes.subtitle)


def ruling_pieces(text: str) -> list[str | int]:
    """*text* cut into plain text and ruling numbers, in order.

    >>> ruling_pieces("(R7, R8) and R9–R17, not R99 or PR7")
    ['(', 7, ', ', 8, ') and ', 9, '–', 17, ', not R99 or PR7']
    """
    pieces: list[str | int] = []
    start = 0
    for match in _CITATION.finditer(text):
        number = int(match[1])
        if number not in RULINGS:
            continue
        if match.start() > start:
            pieces.append(text[start:match.start()])
        pieces.append(number)
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def _skipped(node: nodes.Node) -> bool:
    parent: nodes.Node | None = node.parent
    while parent is not None:
        if isinstance(parent, _SKIPPED):
            return True
        parent = parent.parent
    return False


class RulingLinks(SphinxPostTransform):
    """Turn the ruling citations of a page's text into links to the rules page's anchors."""

    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        docname = self.env.docname
        language = self.env.metadata.get(docname, {}).get(LANGUAGE_KEY, "en")
        target = self.app.builder.get_relative_uri(docname, f"rules/{language}")
        for text in list(self.document.findall(nodes.Text)):
            if _skipped(text):
                continue
            pieces = ruling_pieces(text.astext())
            if all(isinstance(piece, str) for piece in pieces):
                continue
            replacement: list[nodes.Node] = []
            for piece in pieces:
                if isinstance(piece, str):
                    replacement.append(nodes.Text(piece))
                else:
                    link = nodes.reference("", f"R{piece}", internal=True,
                                           refuri=f"{target}#r{piece}", classes=["kowah-ruling"])
                    replacement.append(link)
            text.parent.replace(text, replacement)


# --- the link check --------------------------------------------------------------------------


class _Links(html.parser.HTMLParser):
    """The ids and the links (href, src) of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.ids.add(value)
            elif (name == "href" and tag in ("a", "link", "area")) or (
                    name == "src" and tag in ("img", "script", "iframe", "source")):
                self.links.append(value)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


def broken_links(folder: Path, pages: Iterable[str] | None = None) -> list[str]:
    """Every link of the HTML pages under *folder* (or of *pages* only, paths relative to it)
    to a file that is not there or to an anchor that its page does not have, as
    ``"page: link"`` (empty when all hold).

    Links to other hosts (``https:``, ``mailto:`` …) are not followed.
    """
    parsed: dict[str, _Links] = {}

    def page(name: str) -> _Links:
        if name not in parsed:
            parsed[name] = _parse(folder / name)
        return parsed[name]

    names = sorted(pages) if pages is not None else sorted(
        path.relative_to(folder).as_posix() for path in folder.rglob("*.html"))
    broken: list[str] = []
    for name in names:
        for link in page(name).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("//"):
                continue
            path = unquote(parts.path)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), path)) if path else name
            if path.endswith("/") or (path and (folder / target).is_dir()):
                target = posixpath.join(target, "index.html")
            if target.startswith("../") or not (folder / target).is_file():
                broken.append(f"{name}: {link}")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.endswith(".html") and anchor not in page(target).ids:
                broken.append(f"{name}: {link}")
    return broken


def _check_links(app: Sphinx, exception: Exception | None) -> None:
    builder = app.builder
    if exception is not None or not isinstance(builder, StandaloneHTMLBuilder):
        return
    # The pages of this build (an incremental build leaves the files of removed pages behind).
    outdir = Path(builder.outdir)
    names = [builder.get_target_uri(docname) for docname in app.env.found_docs]
    names += ["genindex.html", "search.html", "py-modindex.html"]
    for problem in broken_links(outdir, [name for name in names if (outdir / name).is_file()]):
        logger.warning("broken link: %s", problem, type="kowah", subtype="link")


# --- the languages around a translated page ---------------------------------------------------

_ANCHOR = re.compile(r'<a (?P<attrs>[^>]*?)href="(?P<href>[^"#]*)(?P<anchor>#[^"]*)?"(?P<rest>[^>]*)>')
_RELATED_TITLE = re.compile(
    r'(<a class="(?:next|prev)-page" href="(?P<href>[^"#]*)[^"]*">.*?<div class="title")>', re.DOTALL)
_CAPTION = re.compile(r'<span class="caption-text">')
_ENGLISH_BLOCKS = re.compile(r'<(div class="copyright"|span class="sidebar-brand-text"|div class="brand")>')
_CONTENT = re.compile(r'<div class="kowah-page" lang="[^"]*">.*?</article>', re.DOTALL)


def mark_languages(html: str, page: str, languages: Mapping[str, str], language: str) -> str:
    """*html*, the built page *page* (``"rules/id.html"``) written in *language*, with a ``lang``
    on each link and title of the theme's text that is not in that language.

    *languages* maps a built page's path to the language it is written in; every other page
    is English. The page's own content is left as it is.

    >>> marked = mark_languages('<a class="reference internal" href="../tutorial.html">Tutorial</a>'
    ...                         '<a class="reference internal" href="id.html">Aturan</a>',
    ...                         "rules/cs.html", {"rules/id.html": "id"}, "cs")
    >>> marked.replace("><", ">\\n<").splitlines()
    ['<a lang="en" class="reference internal" href="../tutorial.html">Tutorial</a>', \
'<a lang="id" class="reference internal" href="id.html">Aturan</a>']
    """

    def language_of(href: str) -> str:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), href)) if href else page
        return languages.get(target, "en")

    def anchor(match: re.Match[str]) -> str:
        if (re.search(r"\s(?:hreflang|lang)=", match[0]) or urlsplit(match["href"]).scheme
                or re.search(r'class="(?:next|prev)-page"', match[0])):
            return match[0]  # marked already, another site, or "Next"/"Previous" (their titles are)
        other = language_of(match["href"])
        return match[0] if other == language else f'<a lang="{other}" {match[0][3:]}'

    def related(match: re.Match[str]) -> str:
        other = language_of(match["href"])
        return match[0] if other == language else f'{match[1]} lang="{other}">'

    def theme(part: str) -> str:
        part = _ANCHOR.sub(anchor, part)
        part = _RELATED_TITLE.sub(related, part)
        if language != "en":
            part = _CAPTION.sub('<span class="caption-text" lang="en">', part)
            part = _ENGLISH_BLOCKS.sub(lambda m: f'<{m[1]} lang="en">', part)
        return part

    pieces: list[str] = []
    start = 0
    for match in _CONTENT.finditer(html):
        pieces += [theme(html[start:match.start()]), match[0]]
        start = match.end()
    pieces.append(theme(html[start:]))
    return "".join(pieces)


def page_languages(app: Sphinx) -> dict[str, str]:
    """The built pages written in another language than English, with their language."""
    builder = app.builder
    found: dict[str, str] = {}
    for docname, metadata in app.env.metadata.items():
        language = metadata.get(LANGUAGE_KEY)
        if language and language != "en":
            found[builder.get_target_uri(docname)] = language
    return found


def _mark(app: Sphinx, exception: Exception | None) -> None:
    builder = app.builder
    if exception is not None or not isinstance(builder, StandaloneHTMLBuilder):
        return
    languages = page_languages(app)
    outdir = Path(builder.outdir)
    for docname in app.env.found_docs:
        path = Path(builder.get_outfilename(docname))
        if not path.is_file():
            continue
        language = app.env.metadata.get(docname, {}).get(LANGUAGE_KEY, "en")
        text = path.read_text(encoding="utf-8")
        marked = mark_languages(text, path.relative_to(outdir).as_posix(), languages, language)
        if marked != text:
            path.write_text(marked, encoding="utf-8")


def language_role(code: str) -> Any:
    """A role that marks its text as written in the language *code*: ``:en:`Ways to Play```
    on a page in another language is ``<span lang="en">Ways to Play</span>``."""

    def role(name: str, rawtext: str, text: str, lineno: int, inliner: object,
             options: dict[str, Any] | None = None,
             content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        marked = f'<span lang="{code}">{escape(utils.unescape(text))}</span>'
        return [nodes.raw(rawtext, marked, format="html")], []

    return role


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ruling links, the language marks and the link check (in that order), and
    a role per language of the pages' quotations (``:en:``, ``:nl:``)."""
    for code in ("en", "nl"):
        app.add_role(code, language_role(code))
    app.add_post_transform(RulingLinks)
    app.connect("build-finished", _mark, priority=600)
    app.connect("build-finished", _check_links, priority=900)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
