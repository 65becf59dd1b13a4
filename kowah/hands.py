"""Ready hands, waits, splits and distance to ready (R4–R8).

Eight cards are *ready* (checki) when they split into two triples and a pair that obey the
same-rank rule (R7). Every ready hand of the deck is computed from the rules when the package
is built, and loaded on first use in about a millisecond; the check then costs about one
dictionary lookup, with the cards in any order (see ``kowah._ready_index``):

>>> from kowah import parse_cards
>>> is_ready(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c"))
True
>>> sorted(waits(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")))
[Card.C5, Card.S5]
>>> is_ready(parse_cards("5c 5c 5c 5s 5s 8c 8s 8m"))
False
>>> distance(parse_cards("5c 5c 5s 5s 5m 8c 8s 9m"))
1
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence

import attrs

from kowah import _ready_index
from kowah._ready_index import CARDS as _CARDS
from kowah._ready_index import GROUP as _GROUP
from kowah._ready_index import kept as _kept
from kowah._ready_index import same_rank_ok as _same_rank_ok
from kowah._ready_index import triples as _triples
from kowah._value import FrozenMap, Value
from kowah.cards import KINDS, KOWAH_DECK, Card, Pack
from kowah.errors import N_, DeckError, HandError, HandTypeError, KowahTypeError, shorten

__all__ = [
    "HAND_SIZE",
    "DiscardOption",
    "Split",
    "discard_options",
    "distance",
    "improvements",
    "is_ready",
    "ready_hands",
    "splits",
    "waits",
]

#: Cards in a hand between turns.
HAND_SIZE = 8

Key = tuple[int, ...]

_KOWAH_WEIGHTS = _ready_index.KOWAH_WEIGHTS
# Filled in place once the Kowah deck's index is warm.
_KOWAH_KEYS, _KOWAH_SIEVE = _ready_index.KOWAH_KEYS, _ready_index.KOWAH_SIEVE
_LIMIT, _KEY_WEIGHT = _ready_index.LIMIT, _ready_index.KEY_WEIGHT
_SIEVE_MASK = (1 << _ready_index.SIEVE_BITS) - 1
# The types the quick path reads: unpacking another iterable could consume it.
_SEQUENCES = frozenset({tuple, list})
_NOT_CARDS = N_("error", "a hand must be a sequence of Card values, not {found} of type {type}")
_SEEN_NOT_CARDS = N_("error", "the seen cards must be a sequence of Card values, not {found} of type {type}")
_NOT_A_CARD = N_("error", "{found} is not a card (item {position} of the hand)")
_SEEN_NOT_A_CARD = N_("error", "{found} is not a card (item {position} of the seen cards)")


def _pack_of(pack: object) -> Pack:
    if not isinstance(pack, Pack):
        raise KowahTypeError(N_("error", "pack must be a Pack, such as KOWAH_DECK, not {value!r}"),
                             value=pack)
    return pack


def _items(cards: object, what: str = "hand") -> tuple[object, ...]:
    """*cards* as a tuple, or a HandTypeError when it is not a collection of cards."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        # Text is read with parse_cards, not taken letter by letter.
        raise HandTypeError(_NOT_CARDS if what == "hand" else _SEEN_NOT_CARDS, found=shorten(cards),
                            type=type(cards).__name__)
    return tuple(cards)


def _cards(cards: object, what: str = "hand") -> list[Card]:
    """*cards* as a list of Card values, or a HandTypeError naming the first item that is no
    Card; *what* is ``"hand"`` or ``"seen"``, for the message.

    One rule for every public function that takes cards: :class:`~kowah.cards.Card` values
    only. A plain int (a card's index, or a bool) is refused although Card is an IntEnum: an
    index says nothing of which card was meant, and code that mixes them up is caught at once.
    The engine's own callers that hold indices use the private index (``kowah._ready_index``)."""
    not_a_card = _NOT_A_CARD if what == "hand" else _SEEN_NOT_A_CARD
    found = list(_items(cards, what))
    for position, item in enumerate(found, start=1):
        if type(item) is not Card:
            raise HandTypeError(not_a_card, found=shorten(item), position=position)
    return found  # type: ignore[return-value]  # checked: every item is a Card


def _check(cards: object, pack: Pack, sizes: tuple[int, ...] = (HAND_SIZE,)) -> tuple[Card, ...]:
    """The hand sorted, as Card values, or a :class:`HandError` naming what is wrong with it.

    The one definition of a valid hand, for every function here: eight (or *sizes*) items
    that are Card values or card indices (ints), each card in *pack*, no card more often than
    the pack holds it. The quick path of :func:`is_ready` accepts exactly the hands this accepts.
    """
    pack = _pack_of(pack)
    hand = _cards(cards)
    if len(hand) not in sizes:
        raise HandError(
            N_("error", "a hand must hold {expected} cards, not {count}"),
            expected=" or ".join(map(str, sizes)),
            count=len(hand),
        )
    hand.sort()
    _check_copies(hand, pack, N_("error", "the hand holds {count} copies of '{card}', but the {pack} "
                                          "has {copies}"))
    return tuple(hand)


def _check_copies(cards: Sequence[Card], pack: Pack, too_many: str) -> None:
    """Every card of *cards* is in *pack*, none more often than the pack holds it."""
    for card in dict.fromkeys(cards):
        copies = pack.counts[card]
        if copies == 0:
            raise HandError(
                N_("error", "'{card}' is not in the {pack}"), card=str(card), pack=pack.name
            )
        if cards.count(card) > copies:
            raise HandError(too_many, card=str(card), pack=pack.name, count=cards.count(card),
                            copies=copies)


def _locate(cards: object, pack: Pack) -> tuple[_ready_index.ReadyIndex, int]:
    """The ready index of *pack* and the hand's place in it (-1: a valid hand, not ready).

    Raises :class:`HandError` for what :func:`_check` refuses.
    """
    index = _ready_index.ready_index(_pack_of(pack))
    return index, index.find(_ready_index.hand_key(_check(cards, pack)))


def ready_hands(pack: Pack = KOWAH_DECK) -> Mapping[tuple[Card, ...], frozenset[Card]]:
    """Every ready hand of *pack*, read-only: the hand as a sorted tuple of cards -> its waits.

    A hand may be looked up in any order; it is loaded from data shipped with the package,
    without building a dict of every hand.

    >>> from kowah import parse_cards
    >>> table = ready_hands()
    >>> len(table)
    100416
    >>> sorted(table[parse_cards("8c 5c 5s 5c 5s 5m 8c 8c")])
    [Card.C5, Card.S5]
    >>> parse_cards("5c 5c 5c 5s 5s 8c 8s 8m") in table
    False
    """
    return _ReadyHands(_pack_of(pack))


class _ReadyHands(Mapping[tuple[Card, ...], frozenset[Card]]):
    """The read-only view :func:`ready_hands` returns."""

    def __init__(self, pack: Pack) -> None:
        self._pack = pack

    def __getitem__(self, hand: tuple[Card, ...]) -> frozenset[Card]:
        try:
            index, position = _locate(hand, self._pack)
        except HandError:
            raise KeyError(hand) from None
        if position < 0:
            raise KeyError(hand)
        return index.waits(position)

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        index = _ready_index.ready_index(self._pack)
        return map(index.hand, range(index.count))

    def __len__(self) -> int:
        return _ready_index.ready_index(self._pack).count

    def __repr__(self) -> str:
        return f"<the {len(self):,} ready hands of the {self._pack.name}>"


def is_ready(cards: Iterable[Card], pack: Pack = KOWAH_DECK) -> bool:
    """Whether eight cards are ready: two triples and a pair that obey R7 (R6).

    The cards may come in any order. Raises :class:`~kowah.HandError` for a hand that is not
    eight cards of *pack*, and :class:`~kowah.HandTypeError` for an item that is not a
    :class:`~kowah.cards.Card` (a plain int is refused too: read codes with
    :func:`~kowah.cards.parse_cards`).

    >>> from kowah import parse_cards
    >>> is_ready(parse_cards("9c 9s 9m 9c 9s 9m 1c 1c"))
    True
    >>> is_ready(parse_cards("rf rf wf 2c 2c 2s 3c 3c"))
    False
    >>> is_ready(parse_cards("5c 5s"))
    Traceback (most recent call last):
    ...
    kowah.errors.HandError: a hand must hold 8 cards, not 2
    """
    if pack is KOWAH_DECK and _KOWAH_KEYS and type(cards) in _SEQUENCES:
        # The quick path of every check here: a list or tuple of eight Card values of the
        # Kowah deck, once its index is warm (anything else is read by _check, or refused).
        # Indexing the weights refuses anything but ints from -256 to 255, and a card the deck
        # lacks weighs LIMIT. A card held five times fills both places of one of the pairs
        # (a, e), (b, f), (c, g), (d, h), so a hand with four unequal pairs holds none.
        hand: Sequence[int] = cards  # type: ignore[assignment]  # a list or a tuple, of anything
        weights = _KOWAH_WEIGHTS
        try:
            a, b, c, d, e, f, g, h = hand
            total = (weights[a] + weights[b] + weights[c] + weights[d]
                     + weights[e] + weights[f] + weights[g] + weights[h])
        except (TypeError, ValueError, IndexError):
            pass
        else:
            # Card values only, as _check says (a plain int is refused there, with the reason).
            if total < _LIMIT and (
                    type(a) is type(b) is type(c) is type(d) is type(e) is type(f) is type(g) is type(h)
                    is Card) and (a != e or hand.count(a) < 5) and (b != f or hand.count(b) < 5) and (
                    c != g or hand.count(c) < 5) and (d != h or hand.count(d) < 5):
                # A valid hand: its bit of the sieve settles most (see kowah._ready_index).
                bit = total & _SIEVE_MASK
                if not _KOWAH_SIEVE[bit >> 3] >> (bit & 7) & 1:
                    return False
                key = _KEY_WEIGHT  # its key, as _ready_index.hand_key adds it
                return (key[a] + key[b] + key[c] + key[d] + key[e] + key[f] + key[g] + key[h]
                        in _KOWAH_KEYS)
    return _locate(cards, pack)[1] >= 0


def waits(cards: Iterable[Card], pack: Pack = KOWAH_DECK) -> frozenset[Card]:
    """Every wait the hand offers (R8): the card of each pair it can expose; empty if not ready.

    >>> from kowah import parse_cards
    >>> sorted(waits(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")))
    [Card.C5, Card.S5]
    >>> waits(parse_cards("1c 2c 3c 4c 5c 6c 7c 8c"))
    frozenset()
    """
    index, position = _locate(cards, pack)
    return index.waits(position) if position >= 0 else _NO_WAITS


_NO_WAITS: frozenset[Card] = frozenset()


@attrs.frozen
class Split(Value):
    """One way to split a ready hand: two triples and a pair (R6). The pair's card is the wait.

    An immutable value, equal to another with the same triples and pair.

    >>> from kowah import parse_cards
    >>> split = splits(parse_cards("9c 9s 9m 9c 9s 9m 1c 1c"))[-1]
    >>> str(split), split.wait
    ('9c 9s 9m | 9c 9s 9m | 1c 1c', Card.C1)
    >>> split
    Split(triples=((Card.C9, Card.S9, Card.M9), (Card.C9, Card.S9, Card.M9)), pair=(Card.C1, Card.C1))
    """

    #: The two triples (R4).
    triples: tuple[tuple[Card, Card, Card], tuple[Card, Card, Card]]
    #: The pair (R5): two copies of the wait.
    pair: tuple[Card, Card]

    @property
    def wait(self) -> Card:
        """The card that wins with this split exposed: a third copy of the pair card (R8)."""
        return self.pair[0]

    def __str__(self) -> str:
        return " | ".join(" ".join(map(str, group)) for group in (*self.triples, self.pair))


def splits(cards: Iterable[Card], pack: Pack = KOWAH_DECK) -> tuple[Split, ...]:
    """Every distinct split of the hand into two triples and a pair that obey R7.

    Empty when the hand is not ready.

    >>> from kowah import parse_cards
    >>> for split in splits(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")):
    ...     print(split)
    8c 8c 8c | 5s 5s 5m | 5c 5c
    8c 8c 8c | 5c 5c 5m | 5s 5s
    """
    key = _check(cards, pack)
    if not waits(key, pack):
        return ()
    counts = [0] * KINDS
    for card in key:
        counts[card] += 1
    found = []
    for pair_card in sorted(set(key)):
        if counts[pair_card] < 2:
            continue
        counts[pair_card] -= 2
        options = [t for t in _triples(counts) if _same_rank_ok(t, pair_card)]
        for first, second in itertools.combinations_with_replacement(options, 2):
            if sorted((*first, *second)) == [c for c in range(KINDS) for _ in range(counts[c])]:
                ordered = sorted((first, second), key=lambda t: (_GROUP[t[0]] == _GROUP[pair_card], t),
                                 reverse=False)
                triples = tuple(tuple(Card(c) for c in t) for t in ordered)
                found.append(Split(triples, (Card(pair_card), Card(pair_card))))  # type: ignore[arg-type]
        counts[pair_card] += 2
    return tuple(dict.fromkeys(found))


def distance(cards: Iterable[Card], pack: Pack = KOWAH_DECK) -> int:
    """How many cards must be exchanged, at the fewest, to make the hand ready (0 when ready).

    For eight cards. For nine (a hand that has drawn and not yet discarded) it is the
    distance after the best discard. Like shanten in mahjong, it ignores which cards remain.

    >>> from kowah import parse_cards
    >>> distance(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c"))
    0
    >>> distance(parse_cards("1c 2c 3c 4c 5c 6c 7c 8c"))
    5
    >>> distance(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c 9m"))
    0
    """
    if pack is KOWAH_DECK and type(cards) in _SEQUENCES and len(cards) == HAND_SIZE:  # type: ignore[arg-type]
        # The hot path: is_ready checks the eight cards (quickly), and a ready hand is 0 away.
        return 0 if is_ready(cards) else HAND_SIZE - _kept(cards)
    hand = _check(cards, pack, (HAND_SIZE, HAND_SIZE + 1))
    if len(hand) == HAND_SIZE:
        return HAND_SIZE - _kept_in(hand, pack)
    return min(HAND_SIZE - _kept_in(hand[:i] + hand[i + 1:], pack) for i in range(len(hand)))


def _kept_in(hand: Sequence[int], pack: Pack) -> int:
    """The most cards of *hand* some ready hand of *pack* contains (R6, R7); a DeckError for a
    pack with no ready hand."""
    found = _ready_index.kept_in(hand, pack)
    if found is None:
        raise DeckError(N_("error", "no hand of the {pack} can ever be ready"), pack=pack.name)
    return found


def _seen_cards(seen: object, hand: Sequence[Card], pack: Pack) -> tuple[Card, ...]:
    """*seen* as Card values: cards of *pack* that, with *hand*, it holds (text is refused, not
    read: use parse_cards)."""
    found = _cards(seen, "seen")
    _check_copies(sorted([*hand, *found]), pack,
                  N_("error", "the hand and the seen cards hold {count} copies of '{card}', but the "
                              "{pack} has {copies}"))
    return tuple(found)


def _unseen(card: int, key: Key, seen: Sequence[int], pack: Pack) -> int:
    return pack.counts[card] - key.count(card) - seen.count(card)


def improvements(
    cards: Iterable[Card], seen: Iterable[Card] = (), pack: Pack = KOWAH_DECK
) -> dict[Card, int]:
    """The cards that would bring an eight-card hand closer to ready, with their unseen copies.

    A card improves the hand when drawing it and discarding well lowers :func:`distance`.
    *seen* lists the cards visible elsewhere (discards, exposed pairs, public draws): their
    copies are not counted, and a card with no unseen copy left is not listed.

    >>> from kowah import parse_cards
    >>> hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 9m")
    >>> improvements(hand)
    {Card.C5: 2, Card.S5: 2, Card.M5: 3, Card.C8: 2, Card.S8: 4, Card.M8: 4}
    >>> improvements(hand, seen=parse_cards("8s 8s 8s 8s 5m 5m 5m"))
    {Card.C5: 2, Card.S5: 2, Card.C8: 2, Card.M8: 4}
    """
    key = _check(cards, pack)
    seen_key = _seen_cards(seen, key, pack)
    current = HAND_SIZE - _kept_in(key, pack)
    found: dict[Card, int] = {}
    if current == 0:
        return found
    for card in range(KINDS):
        unseen = _unseen(card, key, seen_key, pack)
        if unseen <= 0:
            continue
        grown = tuple(sorted((*key, card)))
        if any(HAND_SIZE - _kept_in(grown[:i] + grown[i + 1:], pack) < current
               for i in range(len(grown))):
            found[Card(card)] = unseen
    return found


def _frozen_improvements(improvements: Mapping[Card, int]) -> FrozenMap[Card, int]:
    return improvements if isinstance(improvements, FrozenMap) else FrozenMap(improvements)


@attrs.frozen
class DiscardOption(Value):
    """What discarding one card of a nine-card hand leaves: its distance and improvements.

    An immutable value; :attr:`improvements` is a read-only mapping.
    """

    #: The card discarded.
    discard: Card
    #: The distance to ready of the eight cards left (:func:`distance`).
    distance: int
    #: The cards that would improve them, with their unseen copies (:func:`improvements`).
    improvements: Mapping[Card, int] = attrs.field(converter=_frozen_improvements)

    @property
    def unseen(self) -> int:
        """Total unseen copies of the improving cards (the hand's acceptance)."""
        return sum(self.improvements.values())


def discard_options(
    cards: Iterable[Card], seen: Iterable[Card] = (), pack: Pack = KOWAH_DECK
) -> tuple[DiscardOption, ...]:
    """For a nine-card hand, each distinct discard with what it leaves, best first.

    Best means the lowest distance, then the most unseen improving copies.

    >>> from kowah import parse_cards
    >>> best = discard_options(parse_cards("5c 5c 5s 5s 5m 8c 8c 9m 1c"))[0]
    >>> best.discard in (Card.M9, Card.C1), best.distance, best.unseen
    (True, 1, 17)
    """
    key = _check(cards, pack, (HAND_SIZE + 1,))
    seen_key = _seen_cards(seen, key, pack)
    options = []
    for card in dict.fromkeys(key):
        index = key.index(card)
        rest = key[:index] + key[index + 1:]
        left = HAND_SIZE - _kept_in(rest, pack)
        found = improvements(map(_CARDS.__getitem__, rest), seen_key, pack) if left else {}
        options.append(DiscardOption(_CARDS[card], left, found))
    options.sort(key=lambda option: (option.distance, -option.unseen, option.discard))
    return tuple(options)


