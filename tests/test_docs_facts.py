"""The facts the documentation states about the project stay true: the number of languages and
of rulings, the rulings the flow chart covers, the files it names, how kowah is installed, and
no machine-dependent time in a transcript. A test here fails when the code changes and a page
does not (the pages that use the substitutions of ``docs/_ext/kowah_facts.py`` follow by
themselves)."""

from __future__ import annotations

import html
import re
import tomllib
from pathlib import Path

import pytest
from kowah_facts import NUMBER_WORDS, facts, rst_prolog

from kowah.i18n import LANGUAGES
from kowah.rulebook import RULEBOOK

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULINGS = sorted({ruling for section in RULEBOOK for ruling in section.rulings})


def texts() -> dict[str, str]:
    """Every text a reader of the project reads: the pages, the README, the contributing guide,
    the glossary and the package's docstrings (the reference shows them)."""
    paths = [*DOCS.rglob("*.rst"), ROOT / "README.md", ROOT / "CONTRIBUTING.md",
             ROOT / "locales" / "GLOSSARY.md", *(ROOT / "kowah").rglob("*.py")]
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for path in paths if "_build" not in path.parts}


def test_the_substitutions_come_from_the_package() -> None:
    found = facts()
    assert found["n-languages"] == NUMBER_WORDS[len(LANGUAGES)]
    assert found["rulings"] == f"R1–R{RULINGS[-1]}" and found["n-rulings"] == str(len(RULINGS))
    assert ".. |n-languages| replace:: six\n" in rst_prolog()  # six today; the package decides


def test_every_number_of_languages_a_page_states_is_right() -> None:
    stated = re.compile(rf"\b({'|'.join(NUMBER_WORDS)}|\d+)\s+languages\b", re.IGNORECASE)
    right = {NUMBER_WORDS[len(LANGUAGES)], str(len(LANGUAGES))}
    found = 0
    for name, text in texts().items():
        for match in stated.finditer(text):
            found += 1
            assert match[1].lower() in right, (name, match[0])
    assert found >= 3


def test_every_ruling_a_page_cites_exists_and_every_range_of_all_ends_at_the_last() -> None:
    cited = re.compile(r"(?<![\w/#.\-])R(\d{1,2})(?![\w])")
    whole = re.compile(r"\bR1\s*(?:to|–|-)\s*R(\d+)")
    for name, text in texts().items():
        for number in cited.findall(text):
            assert int(number) in RULINGS, (name, f"R{number}")
        for end in whole.findall(text):
            # R1–R3 are the cards' rulings; a range from R1 beyond the hands' (R8) is all of them.
            assert int(end) <= 8 or int(end) == RULINGS[-1], (name, f"R1–R{end}")


def test_the_flow_chart_covers_every_ruling_of_a_turn_and_is_drawn_from_its_source() -> None:
    """The diagram states R9 to the last ruling; its SVG was rendered from the DOT as it is
    (``dot -Tsvg docs/_static/turn-flow.dot -o docs/_static/turn-flow.svg``)."""
    dot = (DOCS / "_static" / "turn-flow.dot").read_text(encoding="utf-8")
    svg = (DOCS / "_static" / "turn-flow.svg").read_text(encoding="utf-8")
    for ruling in range(9, RULINGS[-1] + 1):
        assert re.search(rf"\bR{ruling}\b", dot), ruling
    drawn = {html.unescape(text).strip() for text in re.findall(r">([^<]*)</text>", svg)}
    for label in re.findall(r'label="([^"]+)"', dot):
        for line in label.split("\\n"):
            if line.strip():
                assert line.strip() in drawn, line
    for page in ("index.rst", "rules/index.rst"):
        captions = re.findall(r"\(R9–R(\d+)\)", (DOCS / page).read_text(encoding="utf-8"))
        assert captions and {int(end) for end in captions} == {RULINGS[-1]}, page


def test_no_page_names_a_file_the_reader_does_not_have() -> None:
    named = re.compile(r"(?<![\w/.:-])((?:docs|kowah|tests|benchmarks|locales)/[\w./-]*\.\w+|[A-Z]+\.md)\b")
    for name, text in texts().items():
        for path in named.findall(text):
            if any(mark in path for mark in ("LANG", "VERSION", "*")) or "_build" in path:
                continue
            assert (ROOT / path).exists() or path in ("kowah/_locale",), (name, path)
        assert "RULINGS" not in text, name


def test_pip_install_kowah_is_shown_only_as_what_a_release_will_give() -> None:
    """kowah is not on the index yet: ``pip install kowah`` (or an extra of it) is written only
    beside "once released" (or on the maintainers' release page)."""
    found = 0
    for name, text in texts().items():
        if name in ("docs/release.rst", "locales/GLOSSARY.md") or name.startswith("kowah/"):
            continue  # after a release; a quoting example; the command's messages (catalogues)
        for match in re.finditer(r"pip install '?kowah\b", text):
            found += 1
            before = " ".join(text[max(0, match.start() - 120):match.start()].split()).lower()
            assert any(word in before for word in ("once", "released", "published")), (name, before)
    assert found >= 2


def test_the_repository_address_is_written_once_in_pyproject_and_read_from_there() -> None:
    """The address lives in pyproject.toml's project URLs alone: the pages take it from there
    (``|repository|``, defined by ``docs/conf.py``; the footer's links), the README and the
    contributing guide name no address."""
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    assert set(urls) >= {"Documentation", "Repository", "Issues", "Changelog", "Contributing"}
    assert urls["Issues"].startswith(urls["Repository"] + "/")
    assert urls["Contributing"].startswith(urls["Repository"] + "/")
    install = (DOCS / "install.rst").read_text(encoding="utf-8")
    assert "git clone |repository|.git" in install
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert ".. |repository| replace:: {_URLS['Repository']}" in conf
    address = urls["Repository"].split("://", 1)[1]
    for name, text in texts().items():
        assert address not in text, name
    assert address not in conf


@pytest.mark.parametrize("page", ["rl.rst", "tutorial.rst", "terminal.rst", "howto/cluster.rst"])
def test_no_transcript_shows_a_time_that_depends_on_the_machine(page: str) -> None:
    """A wall-clock time printed by an example differs on every run: transcripts show none."""
    text = (DOCS / page).read_text(encoding="utf-8")
    for block in re.findall(r"\.\. code-block:: console\n\n((?:   .*\n|\n)+)", text):
        assert re.search(r"\bin \d[\d,.]* ?s\b|\d+ seconds", block) is None, (page, block)


def test_the_rl_example_prints_its_time_apart_from_its_figures() -> None:
    script = (DOCS / "examples" / "reinforce.py").read_text(encoding="utf-8")
    assert 'print(f"trained on {args.episodes:,} deals; "' in script
    assert "file=sys.stderr" in script
