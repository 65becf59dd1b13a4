"""The rules rendered as text, Markdown and HTML (kowah.rendering), in every language.

The rulebook is walked once for all three formats; these tests check each format's layout,
the golden files in tests/golden (``KOWAH_UPDATE_GOLDEN=1`` rewrites them), the standalone
HTML document and the links between the languages.
"""

from __future__ import annotations

import html.parser
import itertools
import os
import re
from collections.abc import Iterable
from pathlib import Path

import markdown_it  # installed with the docs extra (myst-parser), which the test command uses
import pytest

from kowah import Card, KowahError
from kowah.errors import KowahTypeError
from kowah.i18n import LANGUAGE_NAMES, LANGUAGES, CardForm, ListStyle, translator
from kowah.rendering import (
    FORMATS,
    RulesFormatError,
    render_language_links,
    render_rules,
    render_rules_document,
    rulebook_messages,
)
from kowah.rulebook import EDITIONS, ORIGIN, RULEBOOK, Bullets, Edition, Example, Examples, Legend, Paragraph
from kowah.rulebook import section as rulebook_section

GOLDEN = Path(__file__).resolve().parent / "golden"
EXTENSIONS = {"text": "txt", "markdown": "md", "html": "html"}
UPDATE_GOLDEN = os.environ.get("KOWAH_UPDATE_GOLDEN") == "1"


def test_every_ruling_is_stated() -> None:
    stated = [ruling for section in RULEBOOK for ruling in section.rulings]
    assert sorted(set(stated)) == list(range(1, 18))
    assert len({section.key for section in RULEBOOK}) == len(RULEBOOK)


def test_rules_examples_are_what_they_say() -> None:
    from kowah.hands import waits

    verdicts = {}
    for section in RULEBOOK:
        for block in section.blocks:
            if isinstance(block, Examples):
                for example in block.items:
                    assert isinstance(example, Example)
                    verdicts[example.cards] = example
    for cards, example in verdicts.items():
        if len(cards) == 8:  # R6, R7, R8: ready or not, and the waits
            found = waits(cards)
            assert bool(found) == example.verdict.startswith(("ready", "either")), example
            if example.waits:
                assert set(example.waits) == set(found)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("format", FORMATS)
def test_golden_rules(language: str, format: str) -> None:
    """The rendered rules match tests/golden; KOWAH_UPDATE_GOLDEN=1 rewrites them."""
    rendered = render_rules(language, format)
    path = GOLDEN / f"rules.{language}.{EXTENSIONS[format]}"
    if UPDATE_GOLDEN:
        path.write_text(rendered, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == rendered


@pytest.mark.parametrize("language", LANGUAGES)
def test_golden_players_rules(language: str) -> None:
    """The players' edition (a table's rules tab) matches tests/golden/rules.LANG.players.html."""
    rendered = render_rules(language, "html", edition="players")
    path = GOLDEN / f"rules.{language}.players.html"
    if UPDATE_GOLDEN:
        path.write_text(rendered, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == rendered


@pytest.mark.parametrize("language", LANGUAGES)
def test_text_rules_are_wrapped_and_numbered(language: str) -> None:
    text = render_rules(language)
    assert max(len(line) for line in text.splitlines()) <= 78
    t = translator(language)
    numbered = [section for section in RULEBOOK if not section.note]
    for number, section in enumerate(numbered, start=1):
        label = f" ({section.label})" if section.rulings else ""
        title = t.gettext("rules", section.title).replace("\xa0", " ")
        assert f"\n{number}. {title}{label}\n" in text
    for section in RULEBOOK:
        if section.note:  # unnumbered, right after the title, the tagline and the origin
            after = text.split(t.gettext("rules", ORIGIN).split()[-1] + "\n", 1)[1]
            assert after.split("\n")[1] == t.gettext("rules", section.title).replace("\xa0", " ")
    assert "\xa0" not in text


def _labelled_rulings(heading: str) -> list[int]:
    """The rulings a heading's label names: "6. Ready hands (R4–R6)" gives [4, 5, 6]."""
    match = re.search(r" \((R\d+(?:–R\d+)?(?:, R\d+(?:–R\d+)?)*)\)$", heading)
    if match is None:
        return []
    rulings: list[int] = []
    for part in match[1].split(", "):
        first, _, last = part.partition("–")
        rulings += range(int(first[1:]), int((last or first)[1:]) + 1)
    return rulings


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("format", ["text", "markdown"])
def test_every_ruling_is_labelled_once_on_its_section(language: str, format: str) -> None:
    """A reader who meets "(R14)" elsewhere finds R14 on exactly one heading: the claims."""
    rendered = render_rules(language, format)
    if format == "text":
        lines = rendered.splitlines()
        headings = [line for line, under in itertools.pairwise(lines)
                    if under and set(under) == {"-"}]
    else:
        headings = [line[3:] for line in rendered.splitlines() if line.startswith("## ")]
    assert len(headings) == len(RULEBOOK)
    labelled = [_labelled_rulings(heading) for heading in headings]
    assert sorted(ruling for rulings in labelled for ruling in rulings) == list(range(1, 18))
    claims = translator(language).gettext("rules", "Claims")
    assert [heading for heading in headings if 14 in _labelled_rulings(heading)] == [
        f"12. {claims} (R14)"]
    assert labelled == [list(section.rulings) for section in RULEBOOK]
    for section in RULEBOOK:  # each label once, and no other ruling number in the text
        if section.rulings:
            assert rendered.count(f" ({section.label})\n") == 1
            rendered = rendered.replace(f" ({section.label})\n", "\n")
    assert re.search(r"\bR\d", rendered) is None


def test_ruling_labels() -> None:
    assert [section.label for section in RULEBOOK] == [
        "", "", "R1–R2", "R3", "R9", "R10", "R4–R6", "R7", "R8", "R11", "R12", "R13", "R14", "R15",
        "R16", "R17"]
    lines = render_rules("en").splitlines()
    assert "6. Ready hands (R4–R6)" in lines and "1. Objective" in lines
    assert "## 12. Claims (R14)" in render_rules("en", "markdown").splitlines()


@pytest.mark.parametrize("language", LANGUAGES)
def test_html_has_an_anchor_for_every_ruling(language: str) -> None:
    page = render_rules(language, "html")
    assert page.startswith(f'<div class="kowah-rules" lang="{language}">\n') and page.endswith("</div>\n")
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    assert [i for i in ids if re.fullmatch(r"r\d+", i)] == [
        f"r{n}" for s in RULEBOOK for n in s.rulings]
    assert [i for i in ids if not re.fullmatch(r"r\d+", i)] == [s.key for s in RULEBOOK]
    claims = page[page.index('<section id="claims">'):].split("</h2>")[0]
    assert '<span id="r14"></span>' in claims and '<span class="rulings">(R14)</span>' in claims


@pytest.mark.parametrize("language", LANGUAGES)
def test_markdown_keeps_adjacent_lists_apart(language: str) -> None:
    """A list right after another must not continue it (CommonMark merges them otherwise)."""
    lists = sum(isinstance(block, Bullets | Examples | Legend)
                for section in RULEBOOK for block in section.blocks_in("full"))
    page = markdown_it.MarkdownIt("commonmark").render(render_rules(language, "markdown"))
    assert page.count("<ul>") == lists
    codes = render_rules(language, "markdown").split("\n## 3. ")[1].split("\n## ")[0]
    assert "\n\n<!-- -->\n\n- `5c`: " in codes


def test_rules_use_localised_card_names() -> None:
    assert "pětka mincí a pětka šňůr" in render_rules("cs")
    markdown = render_rules("es", "markdown").replace("\xa0", " ")
    assert "(5 monedas, 5 sartas, 5 miríadas)" in markdown
    assert "Five of Coins and Five of Strings" in render_rules("en", "html")


def test_rules_accept_a_translator_or_a_tag() -> None:
    assert render_rules(translator("it"), "markdown") == render_rules("it_IT.UTF-8", "markdown")


class _Checker(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag not in ("meta", "link", "br", "img"):  # void elements have no end tag
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack.pop() == tag


@pytest.mark.parametrize("language", LANGUAGES)
def test_html_is_a_balanced_fragment(language: str) -> None:
    checker = _Checker()
    checker.feed(render_rules(language, "html"))
    checker.close()
    assert checker.stack == []
    assert checker.tags == {"div", "section", "h2", "span", "p", "ul", "li", "code"}


def test_html_and_markdown_escape_the_text() -> None:
    t = _Hostile()
    page = render_rules(t, "html")
    assert "<b>" not in page and "&lt;b&gt;&amp;" in page
    markdown = render_rules(t, "markdown")
    assert "<b>&\\*" not in markdown and "\\<b\\>&\\*\\_\\[x\\]\\#" in markdown


def test_unknown_format_is_an_error_naming_it() -> None:
    with pytest.raises(RulesFormatError, match="'pdf'") as raised:
        render_rules("en", "pdf")
    assert isinstance(raised.value, KowahError) and isinstance(raised.value, ValueError)
    assert translator("cs").error(raised.value).startswith("neznámý formát pravidel „pdf“")


# --- the note, the opening, the one walk ---------------------------------------------------


def test_the_note_on_surprising_rulings_opens_the_rules_unnumbered() -> None:
    note = RULEBOOK[0]
    assert note.note and note.key == "surprises" and note.rulings == ()
    assert [s.key for s in RULEBOOK if s.note] == ["surprises"]
    for edition in EDITIONS:
        (intro, items, source) = note.blocks_in(edition)
        assert isinstance(intro, Paragraph) and isinstance(items, Bullets)
        assert len(items.items) == 6  # exact-copy wait, honours, two triples, same rank, claims, money
        # Where the rules follow their source page rather than tradition, they say so.
        assert isinstance(source, Paragraph) and "come from that page alone" in source.text
    text = render_rules("en")
    assert text.index("Rulings that may surprise") < text.index("1. Objective")
    assert "Rulings that may surprise" not in text.split("1. Objective")[1]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("format", FORMATS)
def test_the_note_is_in_every_format_and_translated(language: str, format: str) -> None:
    t = translator(language)
    rendered = render_rules(language, format).replace("\n", " ").replace("\xa0", " ")
    rendered = re.sub(r" +", " ", html.unescape(rendered) if format == "html" else rendered)
    rendered = rendered.replace("\\", "")  # Markdown escapes
    note = RULEBOOK[0]
    for message in (note.title, *note.blocks_in("full")[1].items):  # type: ignore[union-attr]
        words = t.gettext("rules", message).replace("\xa0", " ")
        if language != "en":
            assert words != message, (language, message)
        if format == "text":  # wrapped: compare word by word
            assert " ".join(words.split()) in rendered
        else:
            assert words in rendered


def test_the_opening_tells_cheki_from_checki_and_where_the_letters_come_from() -> None:
    objective = " ".join(b.text for b in rulebook_section("objective").blocks if isinstance(b, Paragraph))
    # One word, not two (every source derives both from the Hokkien chít ki, "one card").
    assert "are the same word, from the Hokkien chít ki" in objective
    assert "two different words" not in objective
    codes = rulebook_section("codes").blocks_in("full")[1]
    assert isinstance(codes, Bullets)
    assert any("English names of the suits" in item for item in codes.items)
    # Where m or s reads as another suit, the translation says which suit it is not.
    letters = "The letters come from the English names of the suits, Coins, Strings and Myriads, " \
              "and are the same in every language."
    for language, clash in (("it", "non le monete"), ("es", "no de monedas"), ("cs", "nikoli mince"),
                            ("ms", "bukan syiling")):
        assert clash in translator(language).gettext("rules", letters), language


def test_one_walk_lists_every_message_the_rules_show() -> None:
    """rulebook_messages() and the renderers share one walk: what one lists, the other shows."""
    messages = rulebook_messages()
    assert messages[0] == ("rules", "The rules of Kowah")
    assert len(messages) == len(set(messages))
    assert {context for context, _ in messages} == {"rules"}
    shown = {edition: " ".join(render_rules(_Marking(), "text", edition=edition).split())
             for edition in EDITIONS}
    for _context, message in messages:
        if message == "The rules in other languages":  # the label of the links, not the rules
            continue
        head = " ".join(message.split("{")[0].split())
        assert any(f"⟦{head}" in text for text in shown.values()), message
    for edition in EDITIONS:
        assert shown[edition].count("⟦") == len(_shown_messages(edition))


def _shown_messages(edition: Edition) -> list[str]:
    """Every translatable string of the rulebook's *edition*, counted once per place it is shown."""
    found = ["title", "tagline", "origin"]
    for part in RULEBOOK:
        found.append(part.title_in(edition))
        for block in part.blocks_in(edition):
            if isinstance(block, Paragraph):
                found.append(block.text)
            elif isinstance(block, Bullets):
                found += block.items
            elif isinstance(block, Examples):
                found += [example.verdict for example in block.items]
    return found


class _English:
    """English words (any :class:`kowah.i18n.Words` will do for the rules) with its messages
    changed by :meth:`change`."""

    language = "en"

    def __init__(self) -> None:
        self.t = translator("en")

    def change(self, context: str, message: str) -> str:
        return message

    def gettext(self, context: str, message: str) -> str:
        return self.change(context, message)

    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.t.ngettext(context, singular, plural, n)

    def card_name(self, card: Card, short: bool = False) -> str:
        return self.t.card_name(card, short)

    def card(self, card: Card, form: CardForm = "name") -> str:
        return self.t.card(card, form)

    def format_list(self, items: Iterable[str], style: ListStyle = "standard") -> str:
        return self.t.format_list(items, style)

    def format_number(self, n: float) -> str:
        return self.t.format_number(n)


class _Hostile(_English):
    def change(self, context: str, message: str) -> str:
        return message + " <b>&*_[x]#"


class _Marking(_English):
    def change(self, context: str, message: str) -> str:
        return f"⟦{message}⟧" if context == "rules" else message


# --- the standalone document and the links between languages -------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standalone_document(language: str) -> None:
    page = render_rules_document(language)
    lines = page.splitlines()
    assert lines[:4] == ["<!DOCTYPE html>", f'<html lang="{language}">', "<head>",
                         '<meta charset="utf-8">']
    title = translator(language).gettext("rules", "The rules of Kowah")
    assert f"<title>{html.escape(title)}</title>" in page
    assert f"<h1>{html.escape(title)}</h1>" in page
    assert render_rules(language, "html") in page
    assert "prefers-color-scheme: dark" in page and 'name="viewport"' in page
    assert re.search(r"(src|href)=|https?://|@import|url\(", page) is None  # nothing from elsewhere
    checker = _Checker()
    checker.feed(page.split("\n", 1)[1])
    checker.close()
    assert checker.stack == []


def test_the_document_escapes_its_title() -> None:
    page = render_rules_document(_Hostile())
    assert "<title>The rules of Kowah &lt;b&gt;&amp;*_[x]#</title>" in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_language_links_name_each_language_in_itself(language: str) -> None:
    links = render_language_links(language, lambda other: f"../{other}/")
    assert LANGUAGE_NAMES == {"en": "English", "it": "Italiano", "cs": "Čeština",
                              "ms": "Bahasa Melayu", "es": "Español",
                              "id": "Bahasa Indonesia"}
    for other, name in LANGUAGE_NAMES.items():
        if other == language:
            assert f'<span aria-current="page">{name}</span>' in links
            assert f'href="../{other}/"' not in links
        else:
            assert f'<a href="../{other}/" hreflang="{other}" lang="{other}">{name}</a>' in links
    label = translator(language).gettext("rules", "The rules in other languages")
    assert f'aria-label="{label}"' in links
    assert language == "en" or label != "The rules in other languages"


# --- kowah rules --------------------------------------------------------------------------


def _kowah(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from kowah.cli import main

    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("language", LANGUAGES)
def test_kowah_rules_html_is_a_whole_document_and_fragment_the_section(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _kowah(["rules", "--lang", language, "--format", "html"], capsys)
    assert code == 0 and out == render_rules_document(language)
    assert out.startswith("<!DOCTYPE html>\n") and f'<html lang="{language}">' in out
    code, out, _ = _kowah(["rules", "--lang", language, "--format", "html", "--fragment"], capsys)
    assert code == 0 and out == render_rules(language, "html")
    code, out, _ = _kowah(["rules", "--lang", language, "--format", "markdown"], capsys)
    assert code == 0 and out == render_rules(language, "markdown")


def test_fragment_needs_html(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _kowah(["rules", "--fragment"], capsys)
    assert (code, out) == (2, "") and err == "kowah: error: --fragment needs --format html\n"
    code, out, err = _kowah(["rules", "--lang", "es", "--format", "text", "--fragment"], capsys)
    assert (code, out) == (2, "") and err == "kowah: error: --fragment requiere --format html\n"


# --- the players' edition and the options for embedding (issues 18, 19) --------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_players_edition_speaks_to_players(language: str) -> None:
    """No library or command-line notes, no ruling tags, examples by name; the same sections."""
    t = translator(language)
    full, players = render_rules(language, "html"), render_rules(language, "html", edition="players")
    for message in ("Kowah is played in many ways. These rules settle on one way, in numbered "
                    "rulings; on these points a player of the traditional game may expect "
                    "something else:",
                    "Game records, the command line and the examples in these rules write each card "
                    "as a short code. Codes may be typed in upper or lower case and are always "
                    "shown in lower case. The cards of a list are separated by spaces, commas or "
                    "both.",
                    "A hand can offer several waits when it splits in more than one way; the "
                    "declaring player chooses which pair to expose."):
        words = html.escape(t.gettext("rules", message), quote=False)
        assert words in full and words not in players
    assert re.search(r"\bR\d", players) is None and 'class="rulings"' not in players
    assert "<code>5c 5s 5m</code>" in full and "<code>5c 5s 5m</code>" not in players
    assert re.findall(r'<section id="([^"]+)"', full) == re.findall(r'<section id="([^"]+)"', players)
    opening = render_rules(language, "text", edition="players").replace("\n", " ").split(" 1. ")[0]
    assert not re.search(r"\b(9c|5c 5c|1c 1c)\b", opening)  # the opening note without codes
    assert t.gettext("rules", "If you know the traditional game") in players
    assert render_rules(language, "text", edition="players", rulings=True).count("(R14)") == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_open_with_the_tagline_and_the_packs_origin(language: str) -> None:
    t = translator(language)
    page = render_rules(language, "html", edition="players")
    lines = page.splitlines()
    tagline = t.gettext("rules", "A traditional money-card game of Indonesia, Malaysia and "
                                 "Singapore: form two triples and a pair, declare checki, then wait "
                                 "for a third copy of the pair card.")
    assert lines[1] == f'<p class="tagline">{html.escape(tagline)}</p>'
    assert lines[2] == f'<p class="origin">{html.escape(t.gettext("rules", ORIGIN))}</p>'
    assert "132" in lines[2] and (language == "en" or tagline.split()[0] != "A")


def test_embedding_options_prefix_every_id_and_set_the_heading_level() -> None:
    page = render_rules("cs", "html", id_prefix="rules-", heading_level=3)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert ids and all(i.startswith("rules-") for i in ids)
    assert "rules-r17" in ids and "rules-no-progress" in ids
    assert "<h2" not in page and page.count("<h3>") == len(RULEBOOK)
    markdown = render_rules("en", "markdown", heading_level=3)
    assert markdown.startswith("## The rules of Kowah\n") and "\n### 12. Claims (R14)\n" in markdown
    assert render_rules("en", "html", heading_level=2) == render_rules("en", "html")


@pytest.mark.parametrize(("options", "error"), [
    ({"edition": "kids"}, RulesFormatError), ({"heading_level": 7}, RulesFormatError),
    ({"heading_level": 0}, RulesFormatError), ({"heading_level": "3"}, KowahTypeError),
    ({"heading_level": True}, KowahTypeError), ({"id_prefix": "9x"}, RulesFormatError),
    ({"id_prefix": 'a"><script>'}, RulesFormatError), ({"id_prefix": 5}, KowahTypeError),
    ({"rulings": "yes"}, KowahTypeError),
])
def test_bad_options_are_library_errors(options: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        render_rules("en", "html", **options)  # type: ignore[arg-type]


def test_bad_language_or_format_types() -> None:
    with pytest.raises(KowahTypeError, match="not None"):
        render_rules(None)  # type: ignore[arg-type]
    with pytest.raises(KowahTypeError, match="not 5 of type int"):
        render_rules("en", 5)  # type: ignore[arg-type]
