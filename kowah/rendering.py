"""The rules in words: the rulebook rendered as plain text, Markdown or HTML, in any language.

:mod:`kowah.rulebook` holds the rules as structured English source text; this module walks it
once (:func:`_walk`) and hands every translated heading, paragraph and list to a writer, one
per format, that only lays the words out. The same walk, with a translator that records what
it is asked, lists every message the rules show (:func:`rulebook_messages`).

>>> print(render_rules("it", "text").splitlines()[0])
Le regole del Kowah
>>> print(render_rules("en", "markdown").splitlines()[2])
## Rulings that may surprise players of the traditional game
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
from kowah.errors import N_, KowahError
from kowah.i18n import LANGUAGE_NAMES, CardForm, ListStyle, Words, translator
from kowah.rulebook import RULEBOOK, TITLE, Bullets, Example, Examples, Legend, Paragraph, Section

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


class RulesFormatError(KowahError):
    """:func:`render_rules` was asked for a format it does not know."""


class _Writer(Protocol):
    """Lays out what the walk hands it; every string it receives is already translated."""

    def title(self, text: str) -> None: ...
    def section(self, section: Section, heading: str) -> None: ...
    def paragraph(self, text: str) -> None: ...
    def bullets(self, items: Sequence[str]) -> None: ...
    def examples(self, items: Sequence[tuple[str, str, str]]) -> None: ...
    def legend(self, items: Sequence[tuple[str, str]]) -> None: ...
    def end_section(self) -> None: ...
    def result(self) -> str: ...


def _example(t: Words, example: Example) -> tuple[str, str, str]:
    """The codes, the short names and the verdict of a card example."""
    # Non-breaking spaces keep "5 Coins" and "2 + 2 + 1" on one line when wrapped.
    names = ", ".join(t.card_name(card, short=True).replace(" ", _NBSP) for card in example.cards)
    waits = t.format_list([t.card_name(card) for card in example.waits], style="or")
    verdict = t.gettext("rules", example.verdict).format(waits=waits)
    return format_cards(example.cards), names, _PLUS.sub(f"{_NBSP}+{_NBSP}", verdict)


def _heading(t: Words, number: int | None, section: Section) -> str:
    """``"12. Claims (R14)"``: the number, the title and the rulings the section states."""
    title = t.gettext("rules", section.title)
    heading = title if number is None else f"{t.format_number(number)}. {title}"
    return f"{heading} ({section.label})" if section.rulings else heading


def _walk(t: Words, writer: _Writer) -> str:
    """Hand the whole rulebook, translated by *t*, to *writer*; its result."""
    writer.title(t.gettext("rules", TITLE))
    number = 0
    for section in RULEBOOK:
        if not section.note:
            number += 1
        writer.section(section, _heading(t, None if section.note else number, section))
        for block in section.blocks:
            match block:
                case Paragraph(text=text):
                    writer.paragraph(t.gettext("rules", text))
                case Bullets(items=items):
                    writer.bullets([t.gettext("rules", item) for item in items])
                case Examples(items=examples):
                    writer.examples([_example(t, example) for example in examples])
                case Legend(cards=cards):
                    writer.legend([(card.code, t.card_name(card)) for card in cards])
        writer.end_section()
    return writer.result()


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

    def section(self, section: Section, heading: str) -> None:
        heading = heading.replace(_NBSP, " ")
        self.lines += ["", heading, "-" * len(heading)]

    def paragraph(self, text: str) -> None:
        self.lines.append("")
        self._wrap(text)

    def bullets(self, items: Sequence[str]) -> None:
        self.lines.append("")
        for item in items:
            self._wrap(item, "  * ", "    ")

    def examples(self, items: Sequence[tuple[str, str, str]]) -> None:
        self.bullets([f"{codes} ({names}) – {verdict}" for codes, names, verdict in items])

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
    """CommonMark: ``#`` title, ``##`` sections, ``-`` lists, codes as inline code."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.in_list = False

    def _block(self, lines: list[str], is_list: bool) -> None:
        self.out.append("")
        if is_list and self.in_list:  # two lists in a row must not merge into one
            self.out += [_MD_END_LIST, ""]
        self.in_list = is_list
        self.out += lines

    def title(self, text: str) -> None:
        self.out.append(f"# {_md(text)}")

    def section(self, section: Section, heading: str) -> None:
        self.out += ["", f"## {_md(heading)}"]
        self.in_list = False

    def paragraph(self, text: str) -> None:
        self._block([_md(text)], is_list=False)

    def bullets(self, items: Sequence[str]) -> None:
        self._block([f"- {_md(item)}" for item in items], is_list=True)

    def examples(self, items: Sequence[tuple[str, str, str]]) -> None:
        self._block([f"- `{codes}` ({_md(names)}) – {_md(verdict)}"
                     for codes, names, verdict in items], is_list=True)

    def legend(self, items: Sequence[tuple[str, str]]) -> None:
        self._block([f"- `{code}`: {_md(name)}" for code, name in items], is_list=True)

    def end_section(self) -> None:
        pass

    def result(self) -> str:
        return "\n".join(self.out) + "\n"


# --- HTML ----------------------------------------------------------------------------------


class _Html:
    """A fragment of ``<section>`` elements; the title is left to the page around it."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def title(self, text: str) -> None:
        pass

    def section(self, section: Section, heading: str) -> None:
        esc = html.escape
        note = ' class="note"' if section.note else ""
        self.out.append(f'<section id="{esc(section.key)}"{note}>')
        # One anchor per ruling (rules/en.html#r14), and the label the other pages cite.
        anchors = "".join(f'<span id="r{ruling}"></span>' for ruling in section.rulings)
        if section.rulings:
            label = f" ({section.label})"
            heading = (f"{esc(heading.removesuffix(label))} "
                       f'<span class="rulings">{esc(label.strip())}</span>')
        else:
            heading = esc(heading)
        self.out.append(f"<h2>{anchors}{heading}</h2>")

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
        self._list("examples", [f"<code>{esc(codes)}</code> ({esc(names)}) – {esc(verdict)}"
                                for codes, names, verdict in items])

    def legend(self, items: Sequence[tuple[str, str]]) -> None:
        esc = html.escape
        self._list("legend", [f"<code>{esc(code)}</code>: {esc(name)}" for code, name in items])

    def end_section(self) -> None:
        self.out.append("</section>")

    def result(self) -> str:
        return "\n".join(self.out) + "\n"


_WRITERS: dict[str, type[_Text] | type[_Markdown] | type[_Html]] = {
    "text": _Text, "markdown": _Markdown, "html": _Html}


def _translator(language: str | Words) -> Words:
    return translator(language) if isinstance(language, str) else language


def render_rules(language: str | Words = "en", format: str = "text") -> str:
    """The complete rules (R1–R16) in *language*, as ``text``, ``markdown`` or ``html``.

    Text is wrapped at 78 columns with numbered sections; HTML is a fragment of
    ``<section>`` elements with ``<h2>``, ``<p>`` and ``<ul>``, to embed in a page (for a
    whole document, see :func:`render_rules_document`). Each section's heading ends with
    the rulings it states, as the rest of the project cites them (``R14``, ``R4–R6``); in
    HTML each ruling also has an anchor, ``id="r14"``, and each section keeps its key as id.
    The opening note on surprising rulings has no number (``class="note"`` in HTML).

    >>> print(next(line for line in render_rules("en").splitlines() if line.startswith("12.")))
    12. Claims (R14)
    >>> print(render_rules(translator("es"), "html").splitlines()[1])
    <h2>Reglas que pueden sorprender a quien conoce el juego tradicional</h2>
    >>> page = render_rules("en", "html").splitlines()
    >>> start = page.index('<section id="claims">')
    >>> for line in page[start:start + 2]:
    ...     print(line)
    <section id="claims">
    <h2><span id="r14"></span>12. Claims <span class="rulings">(R14)</span></h2>
    >>> render_rules("en", "pdf")
    Traceback (most recent call last):
    ...
    kowah.rendering.RulesFormatError: unknown rules format 'pdf' (the formats are text, markdown, html)
    """
    if format not in _WRITERS:
        raise RulesFormatError(
            N_("error", "unknown rules format '{format}' (the formats are {formats})"),
            format=format,
            formats=", ".join(FORMATS),
        )
    return _walk(_translator(language), _WRITERS[format]())


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
section.note { background: var(--note); padding: 0.2em 1em; border-radius: 0.4em; }
ul.examples, ul.legend { list-style: none; padding-left: 1em; }
code { font-size: 0.95em; }
"""


def render_rules_document(language: str | Words = "en") -> str:
    """The complete rules in *language* as a standalone HTML document.

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
        f"{render_rules(t, 'html')}"
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
    """Every (context, message) the rendered rules show, in order, each once.

    Card names are the translator's own (:func:`kowah.i18n.translator`), so they are not
    listed here.

    >>> rulebook_messages()[:2]
    [('rules', 'The rules of Kowah'), ('rules', 'Rulings that may surprise players of the traditional game')]
    """
    recorder = _Recorder()
    _walk(recorder, _Text())
    return [*dict.fromkeys(recorder.messages), ("rules", _LANGUAGES_LABEL)]
