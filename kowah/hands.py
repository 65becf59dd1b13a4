"""Ready hands, waits, splits and distance to ready (R4–R8).

Eight cards are *ready* (checki) when they split into two triples and a pair that obey the
same-rank rule (R7). Every ready hand of the deck is computed once, when the module is first
imported, so the check costs one sort and one dictionary lookup:

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
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import cast

import attrs

from kowah._tables import CARDS as _CARDS
from kowah._tables import GROUP as _GROUP
from kowah._tables import KOWAH_TABLE as _KOWAH_TABLE
from kowah._tables import kept as _kept
from kowah._tables import ready_table as _table
from kowah._tables import same_rank_ok as _same_rank_ok
from kowah._tables import triples as _triples
from kowah.cards import KINDS, KOWAH_DECK, Card, Pack
from kowah.errors import N_, HandError

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


def ready_hands(pack: Pack = KOWAH_DECK) -> Mapping[tuple[Card, ...], frozenset[Card]]:
    """Every ready hand of *pack*, read-only: the hand as a sorted tuple of cards -> its waits.

    >>> from kowah import parse_cards
    >>> table = ready_hands()
    >>> len(table)
    100416
    >>> sorted(table[tuple(sorted(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")))])
    [Card.C5, Card.S5]
    """
    table = cast(dict[tuple[Card, ...], frozenset[Card]], _table(pack))  # keys are Card values
    return MappingProxyType(table)


def _check(cards: Iterable[int], pack: Pack, sizes: tuple[int, ...] = (HAND_SIZE,)) -> Key:
    """The hand as a sorted key, or a :class:`HandError` naming what is wrong with it."""
    try:
        key: Key = tuple(sorted(cards))
        valid = all(isinstance(card, int) and 0 <= card < KINDS for card in key)
    except TypeError:
        valid = False
    if not valid:  # Card values are ints, so card indices are accepted too
        raise HandError(N_("error", "a hand must be a sequence of Card values"))
    if len(key) not in sizes:
        raise HandError(
            N_("error", "a hand must hold {expected} cards, not {count}"),
            expected=" or ".join(map(str, sizes)),
            count=len(key),
        )
    for card in dict.fromkeys(key):
        copies = pack.counts[card]
        if copies == 0:
            raise HandError(
                N_("error", "'{card}' is not in the {pack}"), card=str(card), pack=pack.name
            )
        if key.count(card) > copies:
            raise HandError(
                N_("error", "the hand holds {count} copies of '{card}', but the {pack} has {copies}"),
                card=str(card), pack=pack.name, count=key.count(card), copies=copies,
            )
    return key


def is_ready(cards: Iterable[Card], pack: Pack = KOWAH_DECK) -> bool:
    """Whether eight cards are ready: two triples and a pair that obey R7 (R6).

    Raises :class:`~kowah.HandError` for a hand that is not eight cards of *pack*.

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
    try:  # unorderable items (not cards) are a HandError, like other bad cards
        key = tuple(sorted(cards))
    except TypeError:
        raise HandError(N_("error", "a hand must be a sequence of Card values")) from None
    if pack is KOWAH_DECK:
        if key in _KOWAH_TABLE:
            return True
        try:  # the hot path for hands that are not ready: is this a valid Kowah hand?
            # Five copies of a card would fill positions 3 and 4 of the sorted key.
            if (len(key) == 8 and key[7] <= 29 and _KOWAH_TABLE
                    and (key[3] != key[4] or (key[0] != key[4] and key[1] != key[5]
                                              and key[2] != key[6] and key[3] != key[7]))):
                return False
        except TypeError:
            pass
    _check(key, pack)
    return key in _table(pack)  # the first call builds the table


def waits(cards: Iterable[Card], pack: Pack = KOWAH_DECK) -> frozenset[Card]:
    """Every wait the hand offers (R8): the card of each pair it can expose; empty if not ready.

    >>> from kowah import parse_cards
    >>> sorted(waits(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")))
    [Card.C5, Card.S5]
    >>> waits(parse_cards("1c 2c 3c 4c 5c 6c 7c 8c"))
    frozenset()
    """
    try:  # unorderable items (not cards) are a HandError, like other bad cards
        key = tuple(sorted(cards))
    except TypeError:
        raise HandError(N_("error", "a hand must be a sequence of Card values")) from None
    found = (_KOWAH_TABLE if pack is KOWAH_DECK else _table(pack)).get(key)
    if found is not None:
        return found
    _check(key, pack)
    return _table(pack).get(key, frozenset())  # the first call builds the table


@attrs.frozen
class Split:
    """One way to split a ready hand: two triples and a pair (R6). The pair's card is the wait.

    >>> from kowah import parse_cards
    >>> split = splits(parse_cards("9c 9s 9m 9c 9s 9m 1c 1c"))[-1]
    >>> str(split), split.wait
    ('9c 9s 9m | 9c 9s 9m | 1c 1c', Card.C1)
    """

    triples: tuple[tuple[Card, Card, Card], tuple[Card, Card, Card]]
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
    try:  # unorderable items (not cards) are a HandError, like other bad cards
        key = tuple(sorted(cards))
    except TypeError:
        raise HandError(N_("error", "a hand must be a sequence of Card values")) from None
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
    try:  # unorderable items (not cards) are a HandError, like other bad cards
        key: Key = tuple(sorted(cards))
    except TypeError:
        raise HandError(N_("error", "a hand must be a sequence of Card values")) from None
    if pack is KOWAH_DECK:
        try:  # the hot path: a valid Kowah hand (see is_ready)
            if (len(key) == 8 and key[7] <= 29 and key[0] >= 0
                    and (key[3] != key[4] or (key[0] != key[4] and key[1] != key[5]
                                              and key[2] != key[6] and key[3] != key[7]))):
                return 0 if key in _KOWAH_TABLE else HAND_SIZE - _kept(key)
        except TypeError:
            pass
    if len(key) == HAND_SIZE and key in _table(pack):
        return 0
    key = _check(key, pack, (HAND_SIZE, HAND_SIZE + 1))
    if len(key) == HAND_SIZE:
        return HAND_SIZE - _kept(key)
    return min(HAND_SIZE - _kept(key[:i] + key[i + 1:]) for i in range(len(key)))


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
    seen_key = tuple(seen)
    current = HAND_SIZE - _kept(key)
    found: dict[Card, int] = {}
    if current == 0:
        return found
    for card in range(KINDS):
        unseen = _unseen(card, key, seen_key, pack)
        if unseen <= 0:
            continue
        grown = tuple(sorted((*key, card)))
        if any(HAND_SIZE - _kept(grown[:i] + grown[i + 1:]) < current for i in range(len(grown))):
            found[Card(card)] = unseen
    return found


@attrs.frozen
class DiscardOption:
    """What discarding one card of a nine-card hand leaves: its distance and improvements."""

    discard: Card
    distance: int
    improvements: dict[Card, int] = attrs.field(eq=False)

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
    seen_key = tuple(seen)
    options = []
    for card in dict.fromkeys(key):
        index = key.index(card)
        rest = key[:index] + key[index + 1:]
        left = HAND_SIZE - _kept(rest)
        found = improvements(map(_CARDS.__getitem__, rest), seen_key, pack) if left else {}
        options.append(DiscardOption(_CARDS[card], left, found))
    options.sort(key=lambda option: (option.distance, -option.unseen, option.discard))
    return tuple(options)


