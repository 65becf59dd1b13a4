"""The rules in words: the rulebook rendered as plain text, Markdown or HTML, in any language.

:mod:`kowah.rulebook` holds the rules as structured English source text; this module walks it
once (:func:`_walk`) and hands every translated heading, paragraph and list to a writer, one
per format, that only lays the words out. The same walk, with a translator that records what
it is asked, lists every message the rules show (:func:`rulebook_messages`).

Two editions (:data:`~kowah.rulebook.EDITIONS`): the ``"full"`` rules, for the command line
and the documentation, cite their rulings (``12. Claims (R14)``) and speak of the library and
the command line where it matters; the ``"players"`` edition, for a table's rules tab, speaks to
players only and shows the rulings only when asked (*rulings*).

>>> print(render_rules("it", "text").splitlines()[0])
Le regole del Kowah
>>> print(render_rules("en", "markdown").splitlines()[6])
## Rulings that may surprise players of the traditional game
>>> print(render_rules("en", "markdown", edition="players").splitlines()[6])
## If you know the traditional game
>>> page = render_rules_document("cs")
>>> print(page.splitlines()[0]); print(page.splitlines()[1])
<!DOCTYPE html>
<html lang="cs">
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from kowah.cards import Card, format_cards
from kowah.errors import N_, KowahError, KowahTypeError, printable, shorten
from kowah.i18n import LANGUAGE_NAMES, CardForm, ListStyle, Words, translator
from kowah.rulebook import (
    EDITIONS,
    ORIGIN,
    RULEBOOK,
    TAGLINE,
    TITLE,
    Bullets,
    Edition,
    Example,
    Examples,
    Legend,
    Paragraph,
    Section,
)

__all__ = [
    "FORMATS",
    "RulesFormatError",
    "render_language_links",
    "render_rules",
    "render_rules_document",
    "rulebook_messages",
]

#: The formats :func:`render_rules` can produce.
FORMATS = ("text", "markdown", "html")

_WIDTH = 78
_NBSP = "\xa0"
_PLUS = re.compile(r"(?<=\d) \+ (?=\d)")
_ID_PREFIX = re.compile(r"^([A-Za-z][A-Za-z0-9_-]{0,39})?$")


class RulesFormatError(KowahError):
    """:func:`render_rules` was asked for a format, an edition or a layout it does not know."""


class _Writer(Protocol):
    """Lays out what the walk hands it; every string it receives is already translated."""

    def title(self, text: str) -> None: ...
    def intro(self, tagline: str, origin: str) -> None: ...
    def section(self, section: Section, heading: str, label: str) -> None: ...
    def paragraph(self, text: str) -> None: ...
    def bullets(self, items: Sequence[str]) -> None: ...
    def examples(self, items: Sequence[tuple[str, str, str]]) -> None: ...
    def legend(self, items: Sequence[tuple[str, str]]) -> None: ...
    def end_section(self) -> None: ...
    def result(self) -> str: ...


def _example(t: Words, example: Example, codes: bool) -> tuple[str, str, str]:
    """The codes (or ``""``), the short names and the verdict of a card example."""
    # Non-breaking spaces keep "5 Coins" and "2 + 2 + 1" on one line when wrapped.
    names = ", ".join(t.card_name(card, short=True).replace(" ", _NBSP) for card in example.cards)
    waits = t.format_list([t.card_name(card) for card in example.waits])
    verdict = t.gettext("rules", example.verdict).format(waits=waits)
    return format_cards(example.cards) if codes else "", names, _PLUS.sub(f"{_NBSP}+{_NBSP}", verdict)


def _heading(t: Words, number: int | None, section: Section, edition: Edition) -> str:
    """``"12. Claims"``: the number and the title."""
    title = t.gettext("rules", section.title_in(edition))
    return title if number is None else f"{t.format_number(number)}. {title}"


def _walk(t: Words, writer: _Writer, edition: Edition = "full", rulings: bool = True) -> str:
    """Hand the whole rulebook in *edition*, translated by *t*, to *writer*; its result.

    With *rulings*, each heading ends with the rulings its section states (``(R14)``).
    """
    writer.title(t.gettext("rules", TITLE))
    writer.intro(t.gettext("rules", TAGLINE), t.gettext("rules", ORIGIN))
    number = 0
    for section in RULEBOOK:
        if not section.note:
            number += 1
        heading = _heading(t, None if section.note else number, section, edition)
        writer.section(section, heading, f"({section.label})" if rulings and section.rulings else "")
        for block in section.blocks_in(edition):
            match block:
                case Paragraph(text=text):
                    writer.paragraph(t.gettext("rules", text))
                case Bullets(items=items):
                    writer.bullets([t.gettext("rules", item) for item in items])
                case Examples(items=examples):
                    writer.examples([_example(t, example, edition == "full") for example in examples])
                case Legend(cards=cards):
                    writer.legend([(card.code, t.card_name(card)) for card in cards])
        writer.end_section()
    return writer.result()


def _example_text(codes: str, names: str, verdict: str) -> str:
    return f"{codes} ({names}) – {verdict}" if codes else f"{names} – {verdict}"


# --- plain text ----------------------------------------------------------------------------


class _Text:
    """Wrapped at 78 columns, headings underlined, lists indented."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def _wrap(self, text: str, first: str = "", rest: str = "") -> None:
        wrapped = textwrap.wrap(text, _WIDTH, initial_indent=first, subsequent_indent=rest,
                                break_on_hyphens=False, break_long_words=False)
        self.lines.extend(line.replace(_NBSP, " ") for line in wrapped)

    def title(self, text: str) -> None:
        text = text.replace(_NBSP, " ")
        self.lines += [text, "=" * len(text)]

    def intro(self, tagline: str, origin: str) -> None:
        self.paragraph(tagline)
        self.paragraph(origin)

    def section(self, section: Section, heading: str, label: str) -> None:
        heading = f"{heading} {label}".replace(_NBSP, " ") if label else heading.replace(_NBSP, " ")
        self.lines += ["", heading, "-" * len(heading)]

    def paragraph(self, text: str) -> None:
        self.lines.append("")
        self._wrap(text)

    def bullets(self, items: Sequence[str]) -> None:
        self.lines.append("")
        for item in items:
            self._wrap(item, "  * ", "    ")

    def examples(self, items: Sequence[tuple[str, str, str]]) -> None:
        self.bullets([_example_text(*item) for item in items])

    def legend(self, items: Sequence[tuple[str, str]]) -> None:
        self.lines.append("")
        for code, name in items:
            self._wrap(f"{code}  {name}", "  ", "      ")

    def end_section(self) -> None:
        pass

    def result(self) -> str:
        return "\n".join(self.lines) + "\n"


# --- Markdown ------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")

#: Ends a list in CommonMark (and so on GitHub and in MyST), so that the next list is a
#: list of its own rather than more items of this one; it shows nothing.
_MD_END_LIST = "<!-- -->"


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


class _Markdown:
    """CommonMark: the title a level above the sections (``#`` and ``##`` by default), ``-``
    lists, codes as inline code."""

    def __init__(self, level: int = 2) -> None:
        self.out: list[str] = []
        self.in_list = False
        self.level = level

    def _block(self, lines: list[str], is_list: bool) -> None:
        self.out.append("")
        if is_list and self.in_list:  # two lists in a row must not merge into one
            self.out += [_MD_END_LIST, ""]
        self.in_list = is_list
        self.out += lines

    def title(self, text: str) -> None:
        self.out.append(f"{'#' * max(1, self.level - 1)} {_md(text)}")

    def intro(self, tagline: str, origin: str) -> None:
        self.paragraph(tagline)
        self.paragraph(origin)

    def section(self, section: Section, heading: str, label: str) -> None:
        self.out += ["", f"{'#' * self.level} {_md(heading)}" + (f" {_md(label)}" if label else "")]
        self.in_list = False

    def paragraph(self, text: str) -> None:
        self._block([_md(text)], is_list=False)

    def bullets(self, items: Sequence[str]) -> None:
        self._block([f"- {_md(item)}" for item in items], is_list=True)

    def examples(self, items: Sequence[tuple[str, str, str]]) -> None:
        self._block([f"- `{codes}` ({_md(names)}) – {_md(verdict)}" if codes
                     else f"- {_md(names)} – {_md(verdict)}" for codes, names, verdict in items],
                    is_list=True)

    def legend(self, items: Sequence[tuple[str, str]]) -> None:
        self._block([f"- `{code}`: {_md(name)}" for code, name in items], is_list=True)

    def end_section(self) -> None:
        pass

    def result(self) -> str:
        return "\n".join(self.out) + "\n"


# --- HTML ----------------------------------------------------------------------------------


class _Html:
    """A fragment: one ``<div class="kowah-rules" lang="…">`` holding the tagline, the pack's
    origin and the ``<section>`` elements; the title is left to the page around it."""

    def __init__(self, language: str = "en", id_prefix: str = "", level: int = 2) -> None:
        self.out: list[str] = []
        self.language = language
        self.prefix = id_prefix
        self.level = level

    def title(self, text: str) -> None:
        pass

    def intro(self, tagline: str, origin: str) -> None:
        self.out.append(f'<p class="tagline">{html.escape(tagline)}</p>')
        self.out.append(f'<p class="origin">{html.escape(origin)}</p>')

    def section(self, section: Section, heading: str, label: str) -> None:
        esc = html.escape
        note = ' class="note"' if section.note else ""
        self.out.append(f'<section id="{self.prefix}{esc(section.key)}"{note}>')
        # One anchor per ruling (rules/en.html#r14), and the label the other pages cite.
        anchors = "".join(f'<span id="{self.prefix}r{ruling}"></span>' for ruling in section.rulings)
        rulings = f' <span class="rulings">{esc(label)}</span>' if label else ""
        self.out.append(f"<h{self.level}>{anchors}{esc(heading)}{rulings}</h{self.level}>")

    def paragraph(self, text: str) -> None:
        self.out.append(f"<p>{html.escape(text)}</p>")

    def _list(self, css: str, items: list[str]) -> None:
        self.out.append(f'<ul class="{css}">' if css else "<ul>")
        self.out += [f"<li>{item}</li>" for item in items]
        self.out.append("</ul>")

    def bullets(self, items: Sequence[str]) -> None:
        self._list("", [html.escape(item) for item in items])

    def examples(self, items: Sequence[tuple[str, str, str]]) -> None:
        esc = html.escape
        self._list("examples", [f"<code>{esc(codes)}</code> ({esc(names)}) – {esc(verdict)}" if codes
                                else f"{esc(names)} – {esc(verdict)}" for codes, names, verdict in items])

    def legend(self, items: Sequence[tuple[str, str]]) -> None:
        esc = html.escape
        self._list("legend", [f"<code>{esc(code)}</code>: {esc(name)}" for code, name in items])

    def end_section(self) -> None:
        self.out.append("</section>")

    def result(self) -> str:
        opening = f'<div class="kowah-rules" lang="{html.escape(self.language)}">'
        return "\n".join([opening, *self.out, "</div>"]) + "\n"


def _translator(language: str | Words) -> Words:
    if isinstance(language, str):
        return translator(language)
    if not callable(getattr(language, "gettext", None)):
        raise KowahTypeError(N_("error", "the rules need a language, such as 'cs', or a translator, not "
                                         "{value} of type {type}"),
                             value=shorten(language), type=type(language).__name__)
    return language


def _bad(template: str, value: object, **params: object) -> RulesFormatError:
    return RulesFormatError(template, value=shorten(value), **params)


def render_rules(language: str | Words = "en", format: str = "text", *, edition: Edition = "full",
                 rulings: bool | None = None, id_prefix: str = "", heading_level: int = 2) -> str:
    """The complete rules (R1–R17) in *language*, as ``text``, ``markdown`` or ``html``.

    Text is wrapped at 78 columns with numbered sections; HTML is a fragment to embed in a
    page: one ``<div class="kowah-rules" lang="…">`` (the language of its words) holding the
    game's tagline and the pack's origin, then a ``<section>`` for each section with a
    heading, ``<p>`` and ``<ul>`` (for a whole document, see :func:`render_rules_document`).

    * *edition*: ``"full"`` (the default) or ``"players"``, for a table's rules tab: no notes
      on the library or the command line, examples by the cards' names.
    * *rulings*: whether each section's heading ends with the rulings it states, as the rest
      of the project cites them (``R14``, ``R4–R6``); by default in the full edition only. In
      HTML each ruling has an anchor, ``id="r14"``, and each section keeps its key as id.
    * *id_prefix* (HTML): put before every id, so that the rules can share a page with other
      content (``id_prefix="rules-"`` gives ``id="rules-claims"``, ``id="rules-r14"``).
    * *heading_level* (HTML and Markdown): the level of the sections' headings, 1–6
      (default 2: ``<h2>``, ``##``); Markdown puts the title one level above.

    The opening note on surprising rulings has no number (``class="note"`` in HTML).

    >>> print(next(line for line in render_rules("en").splitlines() if line.startswith("12.")))
    12. Claims (R14)
    >>> print(render_rules(translator("es"), "html").splitlines()[0])
    <div class="kowah-rules" lang="es">
    >>> page = render_rules("en", "html").splitlines()
    >>> start = page.index('<section id="claims">')
    >>> for line in page[start:start + 2]:
    ...     print(line)
    <section id="claims">
    <h2><span id="r14"></span>12. Claims <span class="rulings">(R14)</span></h2>
    >>> tab = render_rules("en", "html", edition="players", id_prefix="rules-", heading_level=3)
    >>> print(next(line for line in tab.splitlines() if "12. Claims" in line))
    <h3><span id="rules-r14"></span>12. Claims</h3>
    >>> render_rules("en", "pdf")
    Traceback (most recent call last):
    ...
    kowah.rendering.RulesFormatError: unknown rules format 'pdf' (the formats are text, markdown, html)
    """
    if not isinstance(format, str):
        raise KowahTypeError(N_("error", "a rules format must be text, such as 'html', not {value} of "
                                         "type {type}"), value=shorten(format), type=type(format).__name__)
    if format not in FORMATS:
        raise RulesFormatError(N_("error", "unknown rules format '{format}' (the formats are {formats})"),
                               format=printable(format, 40), formats=", ".join(FORMATS))
    if edition not in EDITIONS:
        raise _bad(N_("error", "unknown edition of the rules {value} (full or players)"), edition)
    if rulings is not None and type(rulings) is not bool:
        raise KowahTypeError(N_("error", "rulings must be True, False or None, not {value} of type {type}"),
                             value=shorten(rulings), type=type(rulings).__name__)
    if not isinstance(id_prefix, str):
        raise KowahTypeError(N_("error", "an id prefix must be text, such as 'rules-', not {value} of type "
                                         "{type}"), value=shorten(id_prefix), type=type(id_prefix).__name__)
    if not _ID_PREFIX.match(id_prefix):
        raise _bad(N_("error", "an id prefix must start with a letter and hold only letters, digits, - "
                               "and _ (at most 40), not {value}"), id_prefix)
    if type(heading_level) is not int:
        raise KowahTypeError(N_("error", "a heading level must be an int from 1 to 6, not {value} of type "
                                         "{type}"), value=shorten(heading_level),
                             type=type(heading_level).__name__)
    if not 1 <= heading_level <= 6:
        raise _bad(N_("error", "a heading level must be from 1 to 6, not {value}"), heading_level)
    t = _translator(language)
    writer: _Writer
    if format == "html":
        writer = _Html(t.language, id_prefix, heading_level)
    elif format == "markdown":
        writer = _Markdown(heading_level)
    else:
        writer = _Text()
    return _walk(t, writer, edition, edition == "full" if rulings is None else rulings)


# Light and dark, readable on a phone; no fonts or scripts from elsewhere.
_STYLE = """\
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fdfdfb; --muted: #555; --note: #f1efe6; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e6e3; --bg: #181a1b; --muted: #aaa; --note: #26282a; }
}
body { margin: 0 auto; padding: 1em; max-width: 42em; line-height: 1.5;
       font-family: system-ui, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.6em; }
h2 { font-size: 1.2em; margin-top: 1.6em; }
h2 .rulings { font-weight: normal; color: var(--muted); }
p.tagline { font-size: 1.1em; }
p.origin { color: var(--muted); }
section.note { background: var(--note); padding: 0.2em 1em; border-radius: 0.4em; }
ul.examples, ul.legend { list-style: none; padding-left: 1em; }
code { font-size: 0.95em; }
"""


def render_rules_document(language: str | Words = "en", *, edition: Edition = "full") -> str:
    """The complete rules in *language* (and *edition*) as a standalone HTML document.

    The document declares its language (``<html lang>``) and encoding, has the localised
    title, carries its own small style sheet (light and dark, narrow screens) and loads
    nothing from elsewhere; its ``<main>`` holds the title and :func:`render_rules`' fragment.

    >>> page = render_rules_document("it")
    >>> "<title>Le regole del Kowah</title>" in page, '<meta charset="utf-8">' in page
    (True, True)
    >>> render_rules("it", "html") in page
    True
    """
    t = _translator(language)
    title = html.escape(t.gettext("rules", TITLE))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(t.language)}">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n"
        f"<style>\n{_STYLE}</style>\n"
        "</head>\n"
        "<body>\n"
        "<main>\n"
        f"<h1>{title}</h1>\n"
        f"{render_rules(t, 'html', edition=edition)}"
        "</main>\n"
        "</body>\n"
        "</html>\n"
    )


#: The label of the links between the languages of the rules (for screen readers).
_LANGUAGES_LABEL = N_("rules", "The rules in other languages")


def render_language_links(language: str | Words, href: Callable[[str], str]) -> str:
    """Links from the rules in *language* to the same rules in each other language.

    Each language is named in itself and marked with its ``lang``; *href* gives the address
    of the rules in a language. The current language is shown, not linked.

    >>> print(render_language_links("ms", lambda other: f"{other}.html"))
    <nav class="languages" aria-label="Peraturan dalam bahasa lain"><ul>
    <li><a href="en.html" hreflang="en" lang="en">English</a></li>
    <li><a href="it.html" hreflang="it" lang="it">Italiano</a></li>
    <li><a href="cs.html" hreflang="cs" lang="cs">Čeština</a></li>
    <li><span aria-current="page">Bahasa Melayu</span></li>
    <li><a href="es.html" hreflang="es" lang="es">Español</a></li>
    <li><a href="id.html" hreflang="id" lang="id">Bahasa Indonesia</a></li>
    </ul></nav>
    """
    t = _translator(language)
    esc = html.escape
    items = []
    for other, name in LANGUAGE_NAMES.items():
        if other == t.language:
            items.append(f'<li><span aria-current="page">{esc(name)}</span></li>')
        else:
            items.append(f'<li><a href="{esc(href(other))}" hreflang="{other}" lang="{other}">'
                         f"{esc(name)}</a></li>")
    label = esc(t.gettext("rules", _LANGUAGES_LABEL))
    return f'<nav class="languages" aria-label="{label}"><ul>\n' + "\n".join(items) + "\n</ul></nav>\n"


class _Recorder:
    """A translator that translates nothing and remembers every message it was asked for."""

    language = "en"

    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []

    def gettext(self, context: str, message: str) -> str:
        self.messages.append((context, message))
        return message

    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str:
        self.messages.append((context, singular))
        return singular if n == 1 else plural

    def card_name(self, card: Card, short: bool = False) -> str:
        return card.code

    def card(self, card: Card, form: CardForm = "name") -> str:
        return card.code

    def format_list(self, items: Iterable[str], style: ListStyle = "standard") -> str:
        return " ".join(items)

    def format_number(self, n: float) -> str:
        return str(n)


def rulebook_messages() -> list[tuple[str, str]]:
    """Every (context, message) the rendered rules show, in order, each once: the full
    edition's, then those only the players' edition shows.

    Card names are the translator's own (:func:`kowah.i18n.messages`), so they are not
    listed here.

    >>> rulebook_messages()[0], rulebook_messages()[3]
    (('rules', 'The rules of Kowah'), ('rules', 'Rulings that may surprise players of the traditional game'))
    """
    recorder = _Recorder()
    for edition in EDITIONS:
        _walk(recorder, _Text(), edition)
    return [*dict.fromkeys(recorder.messages), ("rules", _LANGUAGES_LABEL)]
