"""Cards, packs and the card-code notation (R1–R3).

A :class:`Card` is one of 33 kinds: the 27 suit cards (ranks 1–9 of Coins, Strings and
Myriads) and six honours. Cards are integers under the hood (an :class:`~enum.IntEnum`,
ordered rank first, then suit), so hands sort and hash at C speed, but they print as
their codes:

>>> Card.parse("5C")
Card.C5
>>> str(Card.RF), Card.C5.rank, Card.C5.suit
('rf', 5, <Suit.COINS: 'c'>)
>>> parse_cards("5c 5s, 5m ot")
(Card.C5, Card.S5, Card.M5, Card.OT)
>>> format_cards(sorted(parse_cards("ot 9m 1c 5s")))
'1c 5s 9m ot'
>>> len(KOWAH_DECK), len(MONEY_PACK)
(120, 132)
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable, Iterator

import attrs

from kowah._value import Value
from kowah.errors import N_, CardParseError, DeckError, KowahTypeError, printable, shorten

__all__ = [
    "KOWAH_DECK",
    "MAX_COPIES",
    "MONEY_PACK",
    "Card",
    "Honour",
    "Pack",
    "Suit",
    "format_cards",
    "parse_cards",
]


class Suit(enum.Enum):
    """The three suits; the value is the suit letter of the card code (R3)."""

    COINS = "c"
    STRINGS = "s"
    MYRIADS = "m"


class Honour(enum.Enum):
    """The six honours of the money pack; the value is the card code (R3).

    The Kowah deck uses only the first three (R2).
    """

    OLD_THOUSAND = "ot"
    RED_FLOWER = "rf"
    WHITE_FLOWER = "wf"
    WHITE_SNAKE = "ws"
    GREEN_SNAKE = "gs"
    MONK = "mk"


_SUITS = (Suit.COINS, Suit.STRINGS, Suit.MYRIADS)
_HONOURS = tuple(Honour)


class Card(enum.IntEnum):
    """One of the 33 kinds of card. Its value is its index (0–32) in counts vectors.

    Suit cards come first, rank-major (``1c 1s 1m 2c … 9m`` are 0–26), then the honours
    ``ot rf wf ws gs mk`` (27–32). The Kowah deck uses indices 0–29.

    >>> Card.M9.value, Card.OT.value, Card.MK.value
    (26, 27, 32)
    >>> Card.from_suit(Suit.STRINGS, 7)
    Card.S7
    >>> Card.from_honour(Honour.MONK).code
    'mk'
    """

    C1 = 0
    S1 = 1
    M1 = 2
    C2 = 3
    S2 = 4
    M2 = 5
    C3 = 6
    S3 = 7
    M3 = 8
    C4 = 9
    S4 = 10
    M4 = 11
    C5 = 12
    S5 = 13
    M5 = 14
    C6 = 15
    S6 = 16
    M6 = 17
    C7 = 18
    S7 = 19
    M7 = 20
    C8 = 21
    S8 = 22
    M8 = 23
    C9 = 24
    S9 = 25
    M9 = 26
    OT = 27
    RF = 28
    WF = 29
    WS = 30
    GS = 31
    MK = 32

    @property
    def code(self) -> str:
        """The card code (R3): ``"5c"``, ``"rf"``."""
        return _CODES[self]

    @property
    def suit(self) -> Suit | None:
        """The suit of a suit card, ``None`` for an honour."""
        return _SUITS[self % 3] if self < 27 else None

    @property
    def rank(self) -> int | None:
        """The rank (1–9) of a suit card, ``None`` for an honour."""
        return self // 3 + 1 if self < 27 else None

    @property
    def honour(self) -> Honour | None:
        """The honour of an honour card, ``None`` for a suit card."""
        return _HONOURS[self - 27] if self >= 27 else None

    @property
    def is_honour(self) -> bool:
        """Whether the card is one of the six honours."""
        return self >= 27

    @property
    def group(self) -> int:
        """The card's matching group: cards of one group form triples together (R4).

        Suit cards group by rank (0–8); each honour is a group of its own (9–14).

        >>> Card.C5.group == Card.M5.group, Card.RF.group == Card.WF.group
        (True, False)
        """
        return self // 3 if self < 27 else self - 18

    @classmethod
    def parse(cls, code: str | Card) -> Card:
        """The card with this code, case-insensitive (R3); a Card is taken as it is (a card is
        accepted wherever its code is), a plain int is refused.

        >>> Card.parse("Wf"), Card.parse(Card.C5)
        (Card.WF, Card.C5)
        >>> Card.parse("0c")
        Traceback (most recent call last):
        ...
        kowah.errors.CardParseError: unknown card code '0c'
        >>> Card.parse(12)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahTypeError: a card code must be text, not 12 of type int
        """
        if type(code) is Card:
            return code
        if not isinstance(code, str):
            raise KowahTypeError(N_("error", "a card code must be text, not {value} of type {type}"),
                                 value=shorten(code), type=type(code).__name__)
        card = _BY_ANY_CASE.get(code.strip())  # ASCII only: "m\u212a" (Kelvin sign) is no Monk
        if card is None:
            raise CardParseError(N_("error", "unknown card code '{token}'"), token=_shorten(code))
        return card

    @classmethod
    def from_suit(cls, suit: Suit, rank: int) -> Card:
        """The suit card of *suit* and *rank* (1–9).

        >>> Card.from_suit(Suit.COINS, 5.5)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahTypeError: a rank must be an int from 1 to 9, not 5.5
        """
        if not isinstance(suit, Suit):
            raise KowahTypeError(N_("error", "a suit must be a Suit, such as Suit.COINS, not {value!r}"),
                                 value=suit)
        if not isinstance(rank, int) or isinstance(rank, bool):
            raise KowahTypeError(N_("error", "a rank must be an int from 1 to 9, not {value!r}"), value=rank)
        if not 1 <= rank <= 9:
            raise CardParseError(
                N_("error", "rank {token} is not between 1 and 9"), token=_show(rank)
            )
        return _ALL[(rank - 1) * 3 + _SUITS.index(suit)]

    @classmethod
    def from_honour(cls, honour: Honour) -> Card:
        """The honour card of *honour*."""
        if not isinstance(honour, Honour):
            raise KowahTypeError(
                N_("error", "an honour must be an Honour, such as Honour.MONK, not {value!r}"), value=honour
            )
        return _ALL[27 + _HONOURS.index(honour)]

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(_CODES[self], spec)


_CODES: tuple[str, ...] = tuple(
    [f"{rank}{suit.value}" for rank in range(1, 10) for suit in _SUITS]
    + [honour.value for honour in _HONOURS]
)
_ALL: tuple[Card, ...] = tuple(Card)
_BY_CODE: dict[str, Card] = {code: _ALL[index] for index, code in enumerate(_CODES)}
# Every way of writing each code in ASCII letters of either case (R3): "5c", "5C", "Ot", ...
_BY_ANY_CASE: dict[str, Card] = {
    "".join(letters): card
    for code, card in _BY_CODE.items()
    for letters in itertools.product(*({char, char.upper()} for char in code))
}
#: The most copies of one kind a :class:`Pack` may hold.
MAX_COPIES = 64
#: The longest token an error message quotes in full (longer ones are shortened).
_TOKEN_LIMIT = 80


def _shorten(token: str) -> str:
    """A token as an error keeps and shows it: shortened (a 10 MB token must not make a 10 MB
    message) and printable (control characters and escape sequences written as escapes)."""
    return printable(token, _TOKEN_LIMIT)


def _show(value: object) -> str:
    """Something that is not text, for a message: its type, or its value when short."""
    if isinstance(value, int) and not isinstance(value, bool) and -10 ** 20 < value < 10 ** 20:
        return str(value)
    return type(value).__name__
_PACK_CARDS: dict[tuple[int, ...], tuple[Card, ...]] = {}

#: Number of card kinds (the length of a counts vector).
KINDS = 33


def _counts_converter(value: Iterable[int]) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise KowahTypeError(N_("error", "a pack's counts must be a sequence of {kinds} ints, not {value!r}"),
                             kinds=KINDS, value=value)
    counts = tuple(itertools.islice(value, KINDS + 1))  # a longer sequence is wrong anyway
    for kind, count in enumerate(counts[:KINDS]):
        if not isinstance(count, int) or isinstance(count, bool):
            raise KowahTypeError(N_("error", "a pack's count of {card} must be an int, not {value!r}"),
                                 card=_CODES[kind], value=count)
    return counts


def _check_counts(pack: object, field: object, value: tuple[int, ...]) -> None:
    if len(value) > KINDS:
        raise DeckError(N_("error", "a pack needs a count for each of the {kinds} kinds of card, "
                                    "and no more"), kinds=KINDS)
    if len(value) < KINDS:
        raise DeckError(N_("error", "a pack needs a count for each of the {kinds} kinds of card, not "
                                    "{count}"), kinds=KINDS, count=len(value))
    for kind, count in enumerate(value):
        if not 0 <= count <= MAX_COPIES:
            raise DeckError(N_("error", "a pack holds 0 to {most} copies of {card}, not {value!r}"),
                            most=MAX_COPIES, card=_CODES[kind], value=count)


def _check_name(pack: object, field: object, value: str) -> None:
    if not isinstance(value, str):
        raise KowahTypeError(N_("error", "a pack's name must be text, not {value!r}"), value=value)


@attrs.frozen
class Pack(Value):
    """A pack of cards: how many copies of each of the 33 kinds it holds (R1, R2).

    An immutable value (equal, and hashed alike, when its name and counts are).

    >>> KOWAH_DECK.name, KOWAH_DECK.copies(Card.C5), KOWAH_DECK.copies(Card.WS)
    ('Kowah deck', 4, 0)
    >>> Card.MK in KOWAH_DECK, Card.MK in MONEY_PACK
    (False, True)
    >>> Pack("tiny", [1] * 24 + [0] * 9) == Pack("tiny", (1,) * 24 + (0,) * 9)
    True
    >>> Pack("one", [1] + [0] * 32)
    Pack(name='one', counts=(1, 0, 0, ..., 0))
    """

    #: What the pack is called in messages (``"Kowah deck"``).
    name: str = attrs.field(validator=_check_name)
    #: Copies of each kind, by card index (33 counts).
    counts: tuple[int, ...] = attrs.field(converter=_counts_converter, validator=_check_counts)

    @property
    def kinds(self) -> tuple[Card, ...]:
        """The kinds of card in the pack, in card order."""
        return tuple(card for card in _ALL if self.counts[card])

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the pack, copies included, in card order."""
        cards = _PACK_CARDS.get(self.counts)
        if cards is None:
            cards = _PACK_CARDS[self.counts] = tuple(
                card for card in _ALL for _ in range(self.counts[card])
            )
        return cards

    def copies(self, card: Card) -> int:
        """How many copies of *card* the pack holds."""
        return self.counts[card]

    def __len__(self) -> int:
        return sum(self.counts)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self.counts[card] > 0

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)


#: The full Chinese money pack: 108 suit cards and four each of six honours (R1).
MONEY_PACK = Pack("money pack", [4] * KINDS)
#: The 120-card Kowah deck: the suit cards and the first three honours (R2).
KOWAH_DECK = Pack("Kowah deck", [4] * 30 + [0] * 3)


def checked_card(value: object) -> Card:
    """*value* if it is a :class:`Card`, else a :class:`~kowah.errors.KowahTypeError` (a plain
    int, a card's index, is no card): the one check of a card argument, for the library's own
    modules (the text layer's names and pictures of a card).

    >>> checked_card(Card.C5)
    Card.C5
    >>> checked_card(12)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahTypeError: a card must be a Card (such as Card.C5), not 12 of type int
    """
    if type(value) is not Card:
        raise KowahTypeError(
            N_("error", "a card must be a Card (such as Card.C5), not {value} of type {type}"),
            value=shorten(value), type=type(value).__name__)
    return value



def parse_cards(text: str | Iterable[str | Card], pack: Pack | None = KOWAH_DECK) -> tuple[Card, ...]:
    """Read cards written as codes separated by spaces and/or commas (R3), or given as a
    sequence of codes, one a card (an item may be a :class:`Card` already; a plain int, a
    card's index, is refused).

    Each card must be in *pack*, and no card may appear more often than *pack* holds it;
    pass ``pack=None`` to read any of the 33 codes without these checks.

    >>> parse_cards("1C,1s  9m")
    (Card.C1, Card.S1, Card.M9)
    >>> parse_cards(["5c", "RF"]), parse_cards([Card.C5, "5s"])
    ((Card.C5, Card.RF), (Card.C5, Card.S5))
    >>> parse_cards(None)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahTypeError: cards must be text or a sequence of card codes, not None of type NoneType
    >>> parse_cards("5c ws")
    Traceback (most recent call last):
    ...
    kowah.errors.CardParseError: 'ws' (card 2) is not in the Kowah deck
    >>> parse_cards("5c 5c 5c 5c 5c")
    Traceback (most recent call last):
    ...
    kowah.errors.CardParseError: the hand holds 5 copies of '5c' (card 5), but the Kowah deck has 4
    """
    tokens: Iterable[str | Card]
    if isinstance(text, str):
        # Tokens are read one at a time, so a bad first token of a 10 MB text stops at once.
        tokens = map(re.Match.group, _TOKENS.finditer(text))
    elif isinstance(text, (list, tuple)):
        tokens = text
        for position, token in enumerate(text, start=1):
            if not isinstance(token, str) and type(token) is not Card:
                raise KowahTypeError(N_("error", "item {position} of the cards is {value} of type {type}, "
                                                 "not a card code"),
                                     position=position, value=shorten(token), type=type(token).__name__)
    else:
        raise KowahTypeError(N_("error", "cards must be text or a sequence of card codes, not {value} of "
                                         "type {type}"), value=shorten(text), type=type(text).__name__)
    if pack is not None and not isinstance(pack, Pack):
        raise KowahTypeError(N_("error", "pack must be a Pack, such as KOWAH_DECK, not {value!r}"),
                             value=pack)
    cards: list[Card] = []
    seen = [0] * KINDS
    for position, item in enumerate(tokens, start=1):
        if type(item) is Card:
            card: Card | None = item
            token = item.code
        else:
            token = item  # checked above: a str
            card = _BY_ANY_CASE.get(token)  # ASCII codes only (R3)
        if card is None:
            raise CardParseError(
                N_("error", "unknown card code '{token}' (card {position})"),
                token=_shorten(token),
                position=position,
            )
        if pack is not None:
            seen[card] += 1
            if seen[card] > pack.counts[card]:
                if pack.counts[card] == 0:
                    raise CardParseError(
                        N_("error", "'{token}' (card {position}) is not in the {pack}"),
                        token=_shorten(token), position=position, pack=_shorten(pack.name),
                    )
                raise CardParseError(
                    N_("error", "the hand holds {count} copies of '{token}' (card {position}), "
                       "but the {pack} has {copies}"),
                    token=_shorten(token), position=position, pack=_shorten(pack.name),
                    count=seen[card], copies=pack.counts[card],
                )
        cards.append(card)
    return tuple(cards)


_TOKENS = re.compile(r"[^\s,]+")  # one token: text between spaces and commas (R3)


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards as lower-case codes separated by single spaces (R3).

    Anything else is a :class:`~kowah.errors.KowahTypeError` naming it, as
    :func:`checked_card` refuses it (a plain int, a card's index, too).

    >>> format_cards([Card.C5, Card.RF])
    '5c rf'
    >>> format_cards(["5c"])
    Traceback (most recent call last):
    ...
    kowah.errors.KowahTypeError: a card must be a Card (such as Card.C5), not '5c' of type str
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise KowahTypeError(N_("error", "a hand must be a sequence of Card values, not {value} of type "
                                         "{type}"), value=shorten(cards), type=type(cards).__name__)
    codes = []
    for card in cards:
        codes.append(_CODES[card if type(card) is Card else checked_card(card)])
    return " ".join(codes)
