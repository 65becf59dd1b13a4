"""The rules of Kowah as structured English source text (R1–R17).

The rulebook is data: a tuple of :class:`Section` values, each holding the rulings it
implements and a sequence of blocks (paragraphs, bullet lists, card examples and card
legends). Every string is English source text marked for translation in the ``"rules"``
context; card examples are card values, so that :func:`kowah.rendering.render_rules` can
show them with localised card names in any of the supported languages.

The first section is a note, unnumbered, on the rulings a player of the traditional game
may not expect; the numbered sections follow. The rules come in two editions
(:data:`EDITIONS`): the ``"full"`` one, for the command line and the documentation, and the
``"players"`` one, for the table's own rules tab, which speaks to players only: a block or a
title marked for one edition is left out of the other.

>>> from kowah.cards import format_cards
>>> [section.key for section in RULEBOOK][:4]
['surprises', 'objective', 'cards', 'codes']
>>> [section.key for section in RULEBOOK if section.note]
['surprises']
>>> sorted({ruling for section in RULEBOOK for ruling in section.rulings}) == list(range(1, 18))
True
>>> example = section("ready").blocks[2].items[0]
>>> format_cards(example.cards), example.verdict
('5c 5s 5m', 'a triple: the suits may differ')
"""

from __future__ import annotations

from typing import Literal

import attrs

from kowah._value import Value
from kowah.cards import Card, parse_cards
from kowah.errors import N_, KowahError, KowahTypeError, shorten

__all__ = [
    "EDITIONS",
    "ORIGIN",
    "RULEBOOK",
    "TAGLINE",
    "TITLE",
    "Block",
    "Bullets",
    "Edition",
    "Example",
    "Examples",
    "Legend",
    "Paragraph",
    "Section",
    "section",
]


#: The editions of the rules: ``"full"`` (everything, with the notes on the library and the
#: command line) and ``"players"`` (what a player at a table needs, in a player's words).
Edition = Literal["full", "players"]
EDITIONS: tuple[Edition, ...] = ("full", "players")


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text, pack=None)


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                             name=name, expected="str", value=shorten(value), type=type(value).__name__)
    return value


def _edition(value: object) -> Edition | None:
    if value is not None and value not in EDITIONS:
        raise KowahError(N_("error", "unknown edition of the rules {value} (full or players)"),
                         value=shorten(value))
    return value  # checked: None or one of EDITIONS


def _tuple(name: str, value: object, kind: type, label: str) -> tuple[object, ...]:
    if not isinstance(value, tuple) or not all(isinstance(item, kind) for item in value):
        raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                             name=name, expected=f"tuple of {label}", value=shorten(value),
                             type=type(value).__name__)
    return value


@attrs.frozen(init=False)
class Paragraph(Value):
    """A paragraph of running text; with *edition*, shown in that edition only."""

    text: str
    edition: Edition | None

    def __init__(self, text: str, edition: Edition | None = None) -> None:
        self.__attrs_init__(text=_text("Paragraph.text", text), edition=_edition(edition))


@attrs.frozen(init=False)
class Bullets(Value):
    """A bullet list; each item is one sentence or a few. With *edition*, shown in that
    edition only."""

    items: tuple[str, ...]
    edition: Edition | None

    def __init__(self, items: tuple[str, ...], edition: Edition | None = None) -> None:
        _tuple("Bullets.items", items, str, "str")
        self.__attrs_init__(items=items, edition=_edition(edition))


@attrs.frozen(init=False)
class Example(Value):
    """Cards and what they show, e.g. ``5c 5s 5m``: "a triple".

    *verdict* may hold the field ``{waits}``, filled with the localised names of
    :attr:`waits` joined by "or".

    >>> Example(_cards("2c 2s"), "not a pair").cards
    (Card.C2, Card.S2)
    """

    cards: tuple[Card, ...]
    verdict: str
    waits: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...], verdict: str, waits: tuple[Card, ...] = ()) -> None:
        _tuple("Example.cards", cards, Card, "Card")
        _tuple("Example.waits", waits, Card, "Card")
        self.__attrs_init__(cards=cards, verdict=_text("Example.verdict", verdict), waits=waits)


@attrs.frozen(init=False)
class Examples(Value):
    """A list of card examples."""

    items: tuple[Example, ...]
    edition: Edition | None

    def __init__(self, items: tuple[Example, ...], edition: Edition | None = None) -> None:
        _tuple("Examples.items", items, Example, "Example")
        self.__attrs_init__(items=items, edition=_edition(edition))


@attrs.frozen(init=False)
class Legend(Value):
    """A list of cards shown with their codes and full names."""

    cards: tuple[Card, ...]
    edition: Edition | None

    def __init__(self, cards: tuple[Card, ...], edition: Edition | None = None) -> None:
        _tuple("Legend.cards", cards, Card, "Card")
        self.__attrs_init__(cards=cards, edition=_edition(edition))


Block = Paragraph | Bullets | Examples | Legend


@attrs.frozen(init=False)
class Section(Value):
    """A section of the rules: a stable *key*, a title, the rulings it states, its blocks.

    Sections are numbered in the order of :data:`RULEBOOK`, except a *note*: a remark about
    the rules as a whole, shown without a number and stating no ruling of its own. The
    players' edition shows *players_title*, when there is one, instead of *title*.
    """

    key: str
    title: str
    rulings: tuple[int, ...]
    blocks: tuple[Block, ...]
    note: bool
    players_title: str | None

    def __init__(self, key: str, title: str, rulings: tuple[int, ...], blocks: tuple[Block, ...],
                 note: bool = False, players_title: str | None = None) -> None:
        _tuple("Section.rulings", rulings, int, "int")
        _tuple("Section.blocks", blocks, Paragraph | Bullets | Examples | Legend,  # type: ignore[arg-type]
               "Paragraph, Bullets, Examples or Legend")
        if type(note) is not bool:
            raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                                 name="Section.note", expected="bool", value=shorten(note),
                                 type=type(note).__name__)
        self.__attrs_init__(key=_text("Section.key", key), title=_text("Section.title", title),
                            rulings=rulings, blocks=blocks, note=note,
                            players_title=None if players_title is None else _text("Section.players_title",
                                                                                   players_title))

    def title_in(self, edition: Edition) -> str:
        """The section's title (English source text) in *edition*.

        >>> section("surprises").title_in("players")
        'If you know the traditional game'
        """
        return self.players_title if edition == "players" and self.players_title else self.title

    def blocks_in(self, edition: Edition) -> tuple[Block, ...]:
        """The section's blocks shown in *edition*.

        >>> len(section("codes").blocks_in("full")), len(section("codes").blocks_in("players"))
        (4, 3)
        """
        return tuple(block for block in self.blocks if block.edition in (None, edition))

    @property
    def label(self) -> str:
        """The rulings of the section as the project cites them, e.g. ``"R14"`` or ``"R4–R6"``.

        Consecutive rulings make a range, others a comma list; the label is the same in every
        language (it is a citation, not text). A section that states no ruling has ``""``.

        >>> section("claims").label, section("ready").label, section("objective").label
        ('R14', 'R4–R6', '')
        >>> Section("x", "X", (1, 2, 5, 7, 8, 9), ()).label
        'R1–R2, R5, R7–R9'
        """
        runs: list[list[int]] = []
        for ruling in sorted(self.rulings):
            if runs and ruling == runs[-1][-1] + 1:
                runs[-1].append(ruling)
            else:
                runs.append([ruling])
        return ", ".join(f"R{run[0]}" if len(run) == 1 else f"R{run[0]}–R{run[-1]}"
                         for run in runs)


#: The title of the rules document.
TITLE = N_("rules", "The rules of Kowah")

#: The game in one sentence, shown under the title.
TAGLINE = N_("rules", "A traditional money-card game of Indonesia, Malaysia and Singapore: form two "
                      "triples and a pair, declare checki, then wait for a third copy of the pair "
                      "card.")

# TRANSLATORS: the pack the game is played with: where it comes from, its size, its suits.
#: The pack's origin, shown under the tagline.
ORIGIN = N_("rules", "Chinese money cards · the 132-card pack of the rules' source page: Coins, "
                     "Strings and Myriads, with six honours")

# Points of the opening note that both editions make.
_WAIT_NOTE = N_("rules", "The wait is a third exact copy of the pair card: a pair of Fives of Coins "
                         "waits for the Five of Coins, not for any Five.")
_HONOURS_NOTE = N_("rules", "Honours are never wild, and they do not count as Ones, as they do at "
                            "some traditional tables: Old Thousand, Red Flower and White Flower are "
                            "three different kinds, and an honour matches only its own kind.")
_CLAIMS_NOTE = N_("rules", "Claims are automatic and out of turn: nobody calls for the card, and the "
                           "declared player whose wait appears wins at once.")
_MONEY_NOTE = N_("rules", "Only multipliers, no money: self-draw ×3, claim of a discard ×2, claim of "
                          "another player's stock draw ×1; no stakes and no running totals.")
# What the rules take from their source page rather than from tradition (both editions).
_SOURCE_NOTE = N_("rules", "These rules follow one web page about the game, read in machine "
                           "translations, and settle what it leaves open. Accounts of Ceki players "
                           "attest the 120-card deck, triples of mixed suits, declaring right after "
                           "one's own discard and public stock draws after a declaration; waiting "
                           "only for an identical card is one traditional kind of wait, alongside "
                           "waiting for any card of the rank. Claims of a discard, the multipliers, "
                           "three seats and the 132-card pack with its Snakes and Monk come from "
                           "that page alone.")
_SAME_RANK_NOTE = N_("rules", "The two triples may have the same rank: two triples of Nines and a "
                              "pair are ready.")
_SPLIT_NOTE = N_("rules",
                 "A pair and a triple of the same rank must hold two cards of one suit, two "
                 "of another and one of the third: two Fives of Coins, two Fives of Strings "
                 "and a Five of Myriads are allowed; three Fives of Coins and two Fives of "
                 "Strings are not.")

RULEBOOK: tuple[Section, ...] = (
    Section(
        "surprises",
        N_("rules", "Rulings that may surprise players of the traditional game"),
        (),
        (
            Paragraph(N_("rules",
                "Kowah is played in many ways. These rules settle on one way, in numbered "
                "rulings; on these points a player of the traditional game may expect "
                "something else:"), "full"),
            Paragraph(N_("rules",
                "Kowah is played in many ways, and at this table it is played one way. If you "
                "have played it before, note these points:"), "players"),
            Bullets((
                _WAIT_NOTE,
                _HONOURS_NOTE,
                _SAME_RANK_NOTE,
                _SPLIT_NOTE,
                _CLAIMS_NOTE,
                _MONEY_NOTE,
            )),
            Paragraph(_SOURCE_NOTE),
        ),
        note=True,
        players_title=N_("rules", "If you know the traditional game"),
    ),
    Section(
        "objective",
        N_("rules", "Objective"),
        (),
        (
            Paragraph(N_("rules",
                "Kowah, also called Cheki, is a card game of Indonesia, Malaysia and Singapore, "
                "played with Chinese money cards. Three players play one deal, each for "
                "themselves.")),
            # TRANSLATORS: Cheki (the game) and checki (the call) are the same word; write both as
            # your language's players do (Indonesian and Malay: Ceki, ceki), and keep the
            # spellings of other places as they are.
            Paragraph(N_("rules",
                "Cheki, the game's other name, and checki, what a player declares when their "
                "hand is ready, are the same word, from the Hokkien chít ki, “one card”. It is "
                "also written Ceki, Cherki or Tjeki. These rules give the game's name a capital "
                "letter and write the declaration in lower case.")),
            Paragraph(N_("rules",
                "The aim is to hold eight cards that form two triples and a pair, to declare "
                "checki, and then to win with a third exact copy of the pair card. If the stock "
                "runs out and nobody has won, the deal is drawn.")),
        ),
    ),
    Section(
        "cards",
        N_("rules", "The cards"),
        (1, 2),
        (
            Paragraph(N_("rules",
                "Kowah uses part of the Chinese money pack. The full money pack, as the rules' "
                "source page describes it, has 132 cards:")),
            Bullets((
                N_("rules",
                   "three suits, Coins, Strings and Myriads, each with the ranks 1 to 9, in four "
                   "copies of every card: 108 suit cards;"),
                N_("rules",
                   "six honours in four copies each, 24 cards: Old Thousand, Red Flower, White "
                   "Flower, White Snake, Green Snake and Monk."),
            )),
            Paragraph(N_("rules",
                "The Kowah deck has 120 cards: the 108 suit cards and four copies each of Old "
                "Thousand, Red Flower and White Flower. The twelve White Snakes, Green Snakes and "
                "Monks are left out.")),
            Paragraph(N_("rules",
                "The honours are not a suit: each honour is a kind of its own, and an honour "
                "matches only another honour of the same kind. Honours are never wild.")),
        ),
    ),
    Section(
        "codes",
        N_("rules", "Card codes"),
        (3,),
        (
            Paragraph(N_("rules",
                "Game records, the command line and the examples in these rules write each card "
                "as a short code. Codes may be typed in upper or lower case and are always "
                "shown in lower case. The cards of a list are separated by spaces, commas or "
                "both."), "full"),
            Paragraph(N_("rules",
                "Each card also has a short code, which game records use and which you may type "
                "instead of the card's name, in upper or lower case."), "players"),
            Bullets((
                N_("rules",
                   "A suit card is its rank followed by the letter of its suit: 1c to 9c for "
                   "Coins, 1s to 9s for Strings and 1m to 9m for Myriads."),
                # TRANSLATORS: where a letter is also the initial of another suit in your
                # language (m for Coins, s for Coins...), say which suit it is not.
                N_("rules",
                   "The letters come from the English names of the suits, Coins, Strings and "
                   "Myriads, and are the same in every language."),
                N_("rules", "Each honour has a two-letter code."),
            )),
            Legend(_cards("5c 5s 5m ot rf wf ws gs mk")),
            Paragraph(N_("rules",
                "An unknown code is an error. So are a card that the deck in use does not hold, "
                "such as ws in a Kowah hand, and a hand that holds more copies of a card than the "
                "deck has."), "full"),
        ),
    ),
    Section(
        "setup",
        N_("rules", "Setup"),
        (9,),
        (
            Paragraph(N_("rules",
                "Three players sit at seats numbered 0, 1 and 2 and play a single deal. Shuffle "
                "the 120 cards and deal eight to each seat. The remaining 96 cards form the "
                "stock, face down.")),
            Paragraph(N_("rules",
                "The seat that plays first is chosen at random. Play then passes from seat 0 to "
                "seat 1, from seat 1 to seat 2 and from seat 2 back to seat 0. This is the "
                "rotation order: after seat 2 come seat 0 and then seat 1.")),
        ),
    ),
    Section(
        "turn",
        N_("rules", "A turn"),
        (10,),
        (
            Bullets((
                N_("rules",
                   "First draw the top card of the stock, or take the latest discard: the card "
                   "discarded on the previous turn, if nobody claimed it."),
                N_("rules", "Then discard one card face up, to hold eight cards again."),
                N_("rules", "On the opening turn of the deal, the player must draw from the stock."),
                N_("rules",
                   "A card taken from the discards may not be discarded again in the same turn."),
            )),
        ),
    ),
    Section(
        "ready",
        N_("rules", "Ready hands"),
        (4, 5, 6),
        (
            Paragraph(N_("rules",
                "Eight cards are ready (checki) when they split into two triples and a pair.")),
            Bullets((
                N_("rules",
                   "A triple is three suit cards of one rank, whatever their suits, or three "
                   "honours of one kind."),
                N_("rules",
                   "A pair is two identical cards: two suit cards of the same rank and the same "
                   "suit, or two honours of one kind."),
                N_("rules", "The two triples may have the same rank."),
            )),
            Examples((
                Example(_cards("5c 5s 5m"), N_("rules", "a triple: the suits may differ")),
                Example(_cards("5c 5c 5s"), N_("rules", "a triple")),
                Example(_cards("5c 5c 5c"), N_("rules", "a triple")),
                Example(_cards("rf rf rf"), N_("rules", "a triple of honours of one kind")),
                Example(_cards("rf rf wf"),
                        N_("rules", "not a triple: Red Flower and White Flower are different "
                                    "kinds")),
                Example(_cards("2c 2c"), N_("rules", "a pair")),
                Example(_cards("ot ot"), N_("rules", "a pair")),
                Example(_cards("2c 2s"), N_("rules", "not a pair: the suits differ")),
                Example(_cards("9c 9s 9m 9c 9s 9m 1c 1c"),
                        N_("rules", "ready: two triples of the same rank and a pair")),
            )),
        ),
    ),
    Section(
        "same-rank",
        N_("rules", "A pair and a triple of the same rank"),
        (7,),
        (
            Paragraph(N_("rules",
                "When the pair has the same rank as a triple, those five cards must hold two "
                "cards of one suit, two of a second suit and one of the third. This applies to "
                "each triple that has the rank of the pair.")),
            Examples((
                Example(_cards("5c 5c 5s 5s 5m 8c 8c 8c"),
                        N_("rules", "ready: the Fives split 2 + 2 + 1 by suit")),
                Example(_cards("5c 5c 5c 5s 5s 8c 8s 8m"),
                        N_("rules", "not ready: the Fives split 3 + 2 by suit")),
                Example(_cards("5c 5c 5c 5s 5m 8c 8s 8m"),
                        N_("rules", "not ready: the Fives split 3 + 1 + 1 by suit")),
            )),
        ),
    ),
    Section(
        "waits",
        N_("rules", "Waits"),
        (8,),
        (
            Paragraph(N_("rules",
                "The wait of a ready hand is the card of its pair. The deal is won with a third "
                "exact copy of that card, of the same rank and the same suit; another card of "
                "the same rank does not win.")),
            Paragraph(N_("rules",
                "A hand can offer several waits when it splits in more than one way; the "
                "declaring player chooses which pair to expose."), "full"),
            Paragraph(N_("rules",
                "A hand can offer several waits when it splits in more than one way; when you "
                "declare, you choose which pair to expose."), "players"),
            Examples((
                # TRANSLATORS: {waits} is a list of full card names joined by "and".
                Example(_cards("5c 5c 5s 5s 5m 8c 8c 8c"),
                        N_("rules", "either the pair of Coins or the pair of Strings can be "
                                    "exposed, so the hand has two waits: {waits}"),
                        _cards("5c 5s")),
            )),
        ),
    ),
    Section(
        "declaring",
        N_("rules", "Declaring checki"),
        (11,),
        (
            Bullets((
                N_("rules",
                   "Right after their own discard, a player whose eight cards are ready may "
                   "declare checki. Nobody is ever forced to declare."),
                N_("rules",
                   "The player declares by exposing one pair whose card is one of the hand's "
                   "waits. That card becomes the player's public wait: every player knows which "
                   "card will win."),
                N_("rules", "From then on, the eight cards of the declared player are locked."),
                N_("rules", "A player may declare on any turn, the opening turn included."),
            )),
        ),
    ),
    Section(
        "locked",
        N_("rules", "Locked hands"),
        (12,),
        (
            Paragraph(N_("rules",
                "On each of their later turns, a declared player draws from the stock and may "
                "not take the latest discard. If the drawn card is the player's wait, the "
                "player wins by self-draw; otherwise the player discards that same card, and "
                "the locked hand stays as it was.")),
        ),
    ),
    Section(
        "public-draws",
        N_("rules", "Public draws"),
        (13,),
        (
            Paragraph(N_("rules",
                "Once any player has declared, every card drawn from the stock is shown to all "
                "players.")),
        ),
    ),
    Section(
        "claims",
        N_("rules", "Claims"),
        (14,),
        (
            Bullets((
                N_("rules",
                   "When another player draws a declared player's wait from the stock, or "
                   "discards it, the declared player claims it and wins at once, even out of "
                   "turn. The claim is automatic: nobody has to ask for it."),
                N_("rules",
                   "If more than one declared player waits for that card, the first of them in "
                   "rotation order from the player who drew or discarded it wins."),
                N_("rules",
                   "A player who draws their own wait from the stock wins by self-draw, and "
                   "this comes before any claim."),
                N_("rules",
                   "In the Kowah deck, priority between two declared players never decides a win: "
                   "two players waiting for the "
                   "same card would hold all four copies between them, so no copy is left to "
                   "claim. The priority rule matters for other decks and variants."),
            )),
        ),
    ),
    Section(
        "multipliers",
        N_("rules", "Multipliers"),
        (15,),
        (
            Paragraph(N_("rules", "A win is worth a multiplier that depends on how it was made:")),
            Bullets((
                N_("rules", "self-draw: ×3;"),
                N_("rules", "claim of a discard: ×2;"),
                N_("rules", "claim of another player's stock draw: ×1."),
            )),
            Paragraph(N_("rules",
                "Only the multiplier is shown: no money changes hands and no running totals are "
                "kept.")),
        ),
    ),
    Section(
        "exhaustion",
        N_("rules", "A drawn deal"),
        (16,),
        (
            Paragraph(N_("rules",
                "When the last card of the stock has been drawn and has brought no win, neither "
                "a self-draw nor a claim, the deal ends at once as a drawn deal: nobody wins.")),
        ),
    ),
    Section(
        "no-progress",
        N_("rules", "Stalemate"),
        (17,),
        (
            Paragraph(N_("rules",
                "When 30 turns in a row have been played without a draw from the stock, each of "
                "them taking the latest discard, the deal ends as a drawn deal after the 30th turn. Real "
                "players never play like this; the rule only makes sure that every deal ends.")),
        ),
    ),
)


def section(key: str) -> Section:
    """The section of the rulebook with this *key*.

    >>> from kowah.cards import format_cards
    >>> section("multipliers").rulings
    (15,)
    >>> format_cards(section("codes").blocks_in("full")[2].cards)
    '5c 5s 5m ot rf wf ws gs mk'
    """
    for candidate in RULEBOOK:
        if candidate.key == key:
            return candidate
    raise KeyError(key)
