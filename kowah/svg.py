"""Card pictures as SVG text: one design per card kind, a card back, and a hand.

Like ``chess.svg``, these are pure functions that return SVG source and touch nothing else:
the browser table, the documentation and notebooks use them alike. Every picture is
deterministic (the same arguments give the same text) and valid XML.

The suit is shown by shape as well as colour, so that the cards read without colour:
Coins are round cash coins with a square hole, Strings are strung bundles of cash, Myriads
are lozenges. The rank is a large numeral in two corners and as many symbols in the middle.
Each honour has a design of its own (R1, R2).

>>> from kowah.cards import Card
>>> picture = card(Card.C5)
>>> picture.startswith("<svg") and "<title>Five of Coins</title>" in picture
True
>>> "<title>pětka mincí</title>" in card(Card.C5, title="pětka mincí")
True
>>> len({card(kind) for kind in Card})
33

An honour's corners carry the initials of its title, so that a localised title gives
localised initials ("VM" for *Vecchio Mille*); without a title they are the English ones.
Bad arguments are the library's errors: ``card(b"5c")`` a :class:`~kowah.errors.KowahTypeError`,
``card(Card.C5, size=-5)`` a :class:`~kowah.errors.KowahError`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape

from kowah.cards import Card, Honour, Suit
from kowah.cards import checked_card as _check_card
from kowah.errors import N_, KowahError, KowahTypeError, shorten

__all__ = ["HEIGHT", "MAX_SIZE", "WIDTH", "back", "card", "english_name", "hand", "initials"]

#: The drawing's own size (``viewBox``); pictures scale to any *size*.
WIDTH = 60
HEIGHT = 84

_PAPER = "#fbf5e6"
_INK = "#2b2118"
_RANK_WORDS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
_SUIT_WORDS = {Suit.COINS: "Coins", Suit.STRINGS: "Strings", Suit.MYRIADS: "Myriads"}
_HONOUR_WORDS = {
    Honour.OLD_THOUSAND: "Old Thousand", Honour.RED_FLOWER: "Red Flower",
    Honour.WHITE_FLOWER: "White Flower", Honour.WHITE_SNAKE: "White Snake",
    Honour.GREEN_SNAKE: "Green Snake", Honour.MONK: "Monk",
}
# Each suit's colours: the symbol's fill and its outline.
_SUIT_COLOURS = {
    Suit.COINS: ("#d4a017", "#6b4c06"),
    Suit.STRINGS: ("#2f7d4a", "#143d22"),
    Suit.MYRIADS: ("#b8323a", "#5a1116"),
}
# Where the symbols of each rank sit, in units of the grid (columns −1…1, rows −1…1).
_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((0, -1), (0, 1)),
    3: ((0, -1), (0, 0), (0, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    7: ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    8: ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    9: tuple((x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)),
}
_CENTRE = (30.0, 44.0)
_STEP = (12.5, 17.0)
#: The largest size (in pixels) a picture may ask for.
MAX_SIZE = 10_000
_WORD = re.compile(r"[^\W\d_]+")
# The corner letters of the honours without a title: the English initials (R3's codes).
_INITIALS = {Honour.OLD_THOUSAND: "OT", Honour.RED_FLOWER: "RF", Honour.WHITE_FLOWER: "WF",
             Honour.WHITE_SNAKE: "WS", Honour.GREEN_SNAKE: "GS", Honour.MONK: "MK"}


def _check_size(size: object) -> float:
    if type(size) not in (int, float):
        raise KowahTypeError(N_("error", "a picture's size must be a number, not {value} of type {type}"),
                             value=shorten(size), type=type(size).__name__)
    assert isinstance(size, int | float)
    if not (math.isfinite(size) and 0 < size <= MAX_SIZE):
        raise KowahError(N_("error", "a picture's size must be more than 0 and at most {most}, not "
                                     "{value}"), most=MAX_SIZE, value=shorten(size))
    return size


def _check_title(title: object) -> str | None:
    if title is not None and not isinstance(title, str):
        raise KowahTypeError(N_("error", "a picture's title must be text, not {value} of type {type}"),
                             value=shorten(title), type=type(title).__name__)
    return title


def initials(title: str) -> str:
    """The corner letters of an honour called *title*: the initials of its first two words,
    or the first letter of a one-word name; codes in brackets are not words of the name.

    >>> initials("Vecchio Mille"), initials("Červený květ"), initials("Mnich"), initials("Red Flower (rf)")
    ('VM', 'ČK', 'M', 'RF')
    """
    words = _WORD.findall(title.split("(", 1)[0]) or _WORD.findall(title)
    return "".join(word[0] for word in words[:2]).upper()


def english_name(card: Card) -> str:
    """The card's English name, the default ``<title>`` of its picture.

    >>> english_name(Card.M9), english_name(Card.RF)
    ('Nine of Myriads', 'Red Flower')
    """
    card = _check_card(card)
    if card.honour is not None:
        return _HONOUR_WORDS[card.honour]
    assert card.suit is not None and card.rank is not None
    return f"{_RANK_WORDS[card.rank - 1]} of {_SUIT_WORDS[card.suit]}"


def _n(value: float) -> str:
    """A coordinate, written short and always the same way."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _coin(x: float, y: float, r: float, fill: str, line: str) -> str:
    hole = r * 0.36
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" stroke="{line}" '
            f'stroke-width="1.2"/>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.72)}" fill="none" stroke="{line}" '
            f'stroke-width="0.6"/>'
            f'<rect x="{_n(x - hole)}" y="{_n(y - hole)}" width="{_n(2 * hole)}" '
            f'height="{_n(2 * hole)}" fill="{_PAPER}" stroke="{line}" stroke-width="0.8"/>')


def _string(x: float, y: float, r: float, fill: str, line: str) -> str:
    width, height = r * 0.95, r * 2.5
    top = y - height / 2
    parts = [f'<line x1="{_n(x)}" y1="{_n(top - 1.6)}" x2="{_n(x)}" y2="{_n(top + height + 1.6)}" '
             f'stroke="{line}" stroke-width="1"/>',
             f'<rect x="{_n(x - width / 2)}" y="{_n(top)}" width="{_n(width)}" height="{_n(height)}" '
             f'rx="{_n(width / 2)}" fill="{fill}" stroke="{line}" stroke-width="1.1"/>']
    for step in (1, 2, 3):  # the strung coins' edges
        band = top + height * step / 4
        parts.append(f'<line x1="{_n(x - width / 2)}" y1="{_n(band)}" x2="{_n(x + width / 2)}" '
                     f'y2="{_n(band)}" stroke="{line}" stroke-width="0.7"/>')
    return "".join(parts)


def _lozenge(x: float, y: float, r: float, fill: str, line: str) -> str:
    outer = r * 1.15
    inner = r * 0.45
    return (f'<path d="M{_n(x)} {_n(y - outer * 1.2)}L{_n(x + outer)} {_n(y)}L{_n(x)} '
            f'{_n(y + outer * 1.2)}L{_n(x - outer)} {_n(y)}Z" fill="{fill}" stroke="{line}" '
            f'stroke-width="1.1"/>'
            f'<path d="M{_n(x)} {_n(y - inner * 1.2)}L{_n(x + inner)} {_n(y)}L{_n(x)} '
            f'{_n(y + inner * 1.2)}L{_n(x - inner)} {_n(y)}Z" fill="{_PAPER}"/>')


_SYMBOLS = {Suit.COINS: _coin, Suit.STRINGS: _string, Suit.MYRIADS: _lozenge}


def _corner(label: str, colour: str, small: str = "") -> str:
    """The index in the top-left corner and, turned round, in the bottom-right one."""
    size = 13 if len(label) == 1 else 8
    x = 8 if len(label) == 1 else 12
    index = (f'<text x="{x}" y="{_n(5 + size)}" font-family="Georgia, \'DejaVu Serif\', serif" '
             f'font-size="{_n(size)}" font-weight="bold" text-anchor="middle" fill="{colour}">'
             f'{escape(label)}</text>{small}')
    return f'<g>{index}</g><g transform="rotate(180 30 42)">{index}</g>'


def _suit_card(card: Card) -> str:
    suit, rank = card.suit, card.rank
    assert suit is not None and rank is not None
    fill, line = _SUIT_COLOURS[suit]
    draw = _SYMBOLS[suit]
    size = 12.0 if rank == 1 else 5.2
    parts = [f'<rect x="4.5" y="4.5" width="51" height="75" rx="3" fill="none" stroke="{line}" '
             f'stroke-width="0.6" stroke-opacity="0.6"/>']
    cx, cy = _CENTRE
    for column, row in _LAYOUTS[rank]:
        parts.append(draw(cx + column * _STEP[0], cy + row * _STEP[1], size, fill, line))
    parts.append(_corner(str(rank), line, draw(8, 25, 2.6, fill, line)))
    return "".join(parts)


def _old_thousand(label: str) -> str:
    # A dark medallion carrying the character 千 ("thousand") drawn in strokes.
    ink, gold = "#1f3a5f", "#e2c36b"
    return (f'<circle cx="30" cy="42" r="19" fill="{ink}" stroke="{gold}" stroke-width="2"/>'
            f'<circle cx="30" cy="42" r="15.5" fill="none" stroke="{gold}" stroke-width="0.7"/>'
            f'<g stroke="{gold}" stroke-width="3" stroke-linecap="round" fill="none">'
            f'<path d="M36 30 Q30 33 23 34"/><path d="M20 42 H40"/><path d="M30 33 V55"/></g>'
            f'<path d="M16 68 Q30 74 44 68" fill="none" stroke="{ink}" stroke-width="1.4"/>'
            + _corner(label, ink))


def _flower(petals: int, petal: str, centre: str, line: str, pointed: bool) -> str:
    parts = []
    for index in range(petals):
        angle = 360 * index / petals
        if pointed:
            shape = f'<path d="M30 42 Q35.5 33 30 21 Q24.5 33 30 42Z" fill="{petal}" stroke="{line}" ' \
                    f'stroke-width="1"'
        else:
            shape = f'<ellipse cx="30" cy="31" rx="7" ry="10" fill="{petal}" stroke="{line}" ' \
                    f'stroke-width="1.1"'
        parts.append(f'{shape} transform="rotate({_n(angle)} 30 42)"/>')
    parts.append(f'<circle cx="30" cy="42" r="5" fill="{centre}" stroke="{line}" stroke-width="1"/>')
    return "".join(parts)


def _red_flower(label: str) -> str:
    red = "#c62828"
    return (_flower(5, red, "#f2c94c", "#6d1111", pointed=False)
            + '<path d="M30 58 Q27 66 31 73" fill="none" stroke="#2f7d4a" stroke-width="2"/>'
            + _corner(label, red))


def _white_flower(label: str) -> str:
    line = "#4a5a6a"
    return ('<circle cx="30" cy="42" r="22" fill="#dfe8ee"/>'
            + _flower(8, "#ffffff", "#8fae5a", line, pointed=True)
            + _corner(label, line))


def _white_snake(label: str) -> str:
    # An S-shaped snake: a dark outline under a white body.
    body = "M20 66 C8 56 46 52 36 40 C28 30 14 34 22 22 C26 16 34 16 38 20"
    return (f'<path d="{body}" fill="none" stroke="{_INK}" stroke-width="9" stroke-linecap="round"/>'
            f'<path d="{body}" fill="none" stroke="#ffffff" stroke-width="6.2" stroke-linecap="round"/>'
            '<circle cx="38.5" cy="20.5" r="4.6" fill="#ffffff" stroke="#2b2118" stroke-width="1.4"/>'
            '<circle cx="40" cy="19.5" r="1" fill="#2b2118"/>'
            '<path d="M42.5 22 L46 24 M42.5 22 L46.5 21" stroke="#c62828" stroke-width="0.8"/>'
            + _corner(label, _INK))


def _green_snake(label: str) -> str:
    # A coiled snake: a spiral, head raised at the top.
    green, dark = "#3d9a52", "#143d22"
    body = "M30 52 C36 52 38 46 34 43 C29 40 23 45 25 51 C27 58 38 60 42 52 C47 42 38 32 28 34 " \
           "C20 36 16 46 19 56 C21 62 26 66 32 66"
    return (f'<path d="{body}" fill="none" stroke="{dark}" stroke-width="7.5" stroke-linecap="round"/>'
            f'<path d="{body}" fill="none" stroke="{green}" stroke-width="5" stroke-linecap="round"/>'
            f'<path d="M28 34 C30 28 32 24 30 18" fill="none" stroke="{dark}" stroke-width="7.5" '
            f'stroke-linecap="round"/>'
            f'<path d="M28 34 C30 28 32 24 30 18" fill="none" stroke="{green}" stroke-width="5" '
            f'stroke-linecap="round"/>'
            f'<ellipse cx="30" cy="16.5" rx="4.2" ry="3.4" fill="{green}" stroke="{dark}" '
            f'stroke-width="1.3"/><circle cx="31.5" cy="15.5" r="0.9" fill="{_INK}"/>'
            + _corner(label, dark))


def _monk(label: str) -> str:
    robe, dark = "#c9762b", "#5a3210"
    beads = "".join(f'<circle cx="{_n(30 + 9 * x)}" cy="{_n(47 + 5 * y)}" r="1.3" fill="{dark}"/>'
                    for x, y in ((-0.9, -0.4), (-0.6, 0.45), (0, 0.8), (0.6, 0.45), (0.9, -0.4)))
    return (f'<path d="M16 70 L22 42 Q30 36 38 42 L44 70 Z" fill="{robe}" stroke="{dark}" '
            f'stroke-width="1.3"/>'
            f'<path d="M22 42 L36 68" stroke="{dark}" stroke-width="1" fill="none"/>'
            f'<circle cx="30" cy="30" r="8" fill="#f0d2a8" stroke="{dark}" stroke-width="1.3"/>'
            f'<path d="M26.5 31 Q28 32.5 29.5 31 M30.5 31 Q32 32.5 33.5 31" fill="none" '
            f'stroke="{dark}" stroke-width="0.8"/>' + beads + _corner(label, dark))


_HONOUR_DESIGNS = {
    Honour.OLD_THOUSAND: _old_thousand, Honour.RED_FLOWER: _red_flower,
    Honour.WHITE_FLOWER: _white_flower, Honour.WHITE_SNAKE: _white_snake,
    Honour.GREEN_SNAKE: _green_snake, Honour.MONK: _monk,
}


def _frame(inner: str, title: str, size: float, label: str, extra: str = "") -> str:
    height = size * HEIGHT / WIDTH
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{_n(size)}" height="{_n(height)}" role="img" aria-label="{escape(title, _QUOTE)}"'
            f'{extra}><title>{escape(title)}</title>'
            f'<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="{_PAPER}" '
            f'stroke="{_INK}" stroke-width="1.5"/>{inner}</svg>')


_QUOTE = {'"': "&quot;"}


def _drawing(card: Card, title: str | None = None) -> str:
    """The face of *card*; an honour's corners carry the initials of *title* (or the English ones)."""
    honour = card.honour
    if honour is None:
        return _suit_card(card)
    label = (initials(title) if title else "") or _INITIALS[honour]
    return _HONOUR_DESIGNS[honour](label[:2])


def card(card: Card, *, title: str | None = None, size: float = WIDTH) -> str:
    """The picture of *card* as an SVG document, *size* pixels wide (height ×1.4).

    *title* is the ``<title>`` (and accessible name) of the picture: pass the localised name,
    e.g. ``translator("cs").card_name(card)``; the default is the English name.

    >>> print(card(Card.OT, size=120).split('><')[0].replace('" ', '"\\n'))
    <svg xmlns="http://www.w3.org/2000/svg"
    viewBox="0 0 60 84"
    width="120"
    height="168"
    role="img"
    aria-label="Old Thousand"
    data-card="ot"
    """
    kind = _check_card(card)
    size = _check_size(size)
    name = english_name(kind) if _check_title(title) is None else str(title)
    return _frame(_drawing(kind, title), name, size, kind.code, f' data-card="{kind.code}"')


def back(*, title: str = "Card back", size: float = WIDTH) -> str:
    """The back of a card (a face-down card), *size* pixels wide.

    >>> back().count("<title>Card back</title>")
    1
    """
    size = _check_size(size)
    if not isinstance(title, str):
        raise KowahTypeError(N_("error", "a picture's title must be text, not {value} of type {type}"),
                             value=shorten(title), type=type(title).__name__)
    red, gold = "#7b1e22", "#d9b45a"
    lattice = "".join(
        f'<path d="M{_n(x)} 6 L{_n(x + 48)} 78" stroke="{gold}" stroke-width="0.6" opacity="0.55"/>'
        f'<path d="M{_n(x + 48)} 6 L{_n(x)} 78" stroke="{gold}" stroke-width="0.6" opacity="0.55"/>'
        for x in range(-42, 55, 8))
    inner = (f'<rect x="4" y="4" width="52" height="76" rx="3" fill="{red}"/>'
             f'<svg x="4" y="4" width="52" height="76" viewBox="4 4 52 76">{lattice}</svg>'
             f'<rect x="4" y="4" width="52" height="76" rx="3" fill="none" stroke="{gold}" '
             f'stroke-width="1.2"/>' + _coin(30, 42, 10, gold, "#4a1012"))
    return _frame(inner, title, size, "back", ' data-card="back"')


def hand(cards: Iterable[Card], *, titles: Sequence[str] | None = None, size: float = WIDTH,
         overlap: float = 0.45) -> str:
    """Several cards in a row, each overlapping the last by *overlap* of its width, as one SVG.

    *titles* gives each card's ``<title>`` (default: the English names).

    >>> from kowah.cards import parse_cards
    >>> picture = hand(parse_cards("5c 5s 5m ot"))
    >>> picture.count("<title>"), "Five of Strings" in picture
    (5, True)
    """
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise KowahTypeError(N_("error", "a hand must be a sequence of Card values, not {value} of type "
                                         "{type}"), value=shorten(cards), type=type(cards).__name__)
    kinds = [_check_card(item) for item in cards]
    size = _check_size(size)
    if type(overlap) not in (int, float) or not 0 <= overlap < 1:
        raise (KowahError if type(overlap) in (int, float) else KowahTypeError)(
            N_("error", "overlap must be a number from 0 up to (not including) 1, not {value}"),
            value=shorten(overlap))
    if titles is not None and (isinstance(titles, str | bytes) or not isinstance(titles, Sequence)):
        raise KowahTypeError(N_("error", "titles must be a sequence of text, not {value} of type {type}"),
                             value=shorten(titles), type=type(titles).__name__)
    if titles is not None and len(titles) != len(kinds):
        raise KowahError(N_("error", "{titles} titles for {cards} cards"), titles=len(titles),
                         cards=len(kinds))
    if titles is not None:
        for title in titles:
            _check_title(title)
    names = [english_name(kind) for kind in kinds] if titles is None else list(titles)
    step = WIDTH * (1 - overlap)
    width = WIDTH + step * max(0, len(kinds) - 1) if kinds else 0
    parts = []
    for index, (kind, name) in enumerate(zip(kinds, names, strict=True)):
        parts.append(f'<g transform="translate({_n(index * step)} 0)">'
                     f'<title>{escape(name)}</title>'
                     f'<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="{_PAPER}" '
                     f'stroke="{_INK}" stroke-width="1.5"/>'
                     f'{_drawing(kind, None if titles is None else name)}</g>')
    label = ", ".join(names)
    scale = size / WIDTH
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {HEIGHT}" '
            f'width="{_n(width * scale)}" height="{_n(HEIGHT * scale)}" role="img" '
            f'aria-label="{escape(label, _QUOTE)}"><title>{escape(label)}</title>{"".join(parts)}</svg>')
