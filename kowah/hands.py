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
from collections.abc import Callable, Iterable, Sequence

import attrs

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
    "splits",
    "waits",
]

#: Cards in a hand between turns.
HAND_SIZE = 8

Key = tuple[int, ...]

# Cards of one group make triples together: suit cards by rank, each honour on its own (R4).
_CARDS: tuple[Card, ...] = tuple(Card)
_GROUP: tuple[int, ...] = tuple(card.group for card in _CARDS)
_GROUPS = 15
# The suit of a suit card (0, 1, 2); honours count as a "suit" of their own.
_SUIT: tuple[int, ...] = tuple(i % 3 if i < 27 else 0 for i in range(KINDS))


def _group_cards(group: int) -> tuple[int, ...]:
    return (group * 3, group * 3 + 1, group * 3 + 2) if group < 9 else (group + 18,)


def _triples(counts: Sequence[int]) -> list[Key]:
    """Every triple (R4) the counts allow, as sorted card indices."""
    found: list[Key] = []
    for group in range(_GROUPS):
        for triple in itertools.combinations_with_replacement(_group_cards(group), 3):
            if all(triple.count(card) <= counts[card] for card in set(triple)):
                found.append(triple)
    return found


def _same_rank_ok(triple: Key, pair_card: int) -> bool:
    """R7: a triple sharing the pair's rank makes, with the pair, two + two + one by suit."""
    if _GROUP[triple[0]] != _GROUP[pair_card]:
        return True
    if pair_card >= 27:  # five honours of one kind are never two + two + one
        return False
    suits = [0, 0, 0]
    for card in (*triple, pair_card, pair_card):
        suits[_SUIT[card]] += 1
    return sorted(suits) == [1, 2, 2]


def _fits(cards: Iterable[int], counts: Sequence[int]) -> bool:
    held = [0] * KINDS
    for card in cards:
        held[card] += 1
        if held[card] > counts[card]:
            return False
    return True


def _build_table(pack: Pack) -> dict[Key, frozenset[Card]]:
    """Every ready hand of *pack* (R6, R7), mapped to the waits it offers (R8)."""
    counts = pack.counts
    triples = _triples(counts)
    pairs = [card for card in range(KINDS) if counts[card] >= 2]
    allowed = {(t, p): _same_rank_ok(t, p) for t in triples for p in pairs}
    found: dict[Key, int] = {}  # hand -> bit set of its waits
    get = found.get
    for first, second in itertools.combinations_with_replacement(triples, 2):
        base = first + second
        if _GROUP[first[0]] == _GROUP[second[0]] and not _fits(base, counts):
            continue
        groups = (_GROUP[first[0]], _GROUP[second[0]])
        for pair_card in pairs:
            if _GROUP[pair_card] in groups and not (
                allowed[first, pair_card]
                and allowed[second, pair_card]
                and base.count(pair_card) + 2 <= counts[pair_card]
            ):
                continue
            hand = tuple(sorted((*base, pair_card, pair_card)))
            found[hand] = get(hand, 0) | 1 << pair_card
    by_bits = {
        bits: frozenset(card for card in _CARDS if bits >> card & 1) for bits in set(found.values())
    }
    # Keys of Card values, not ints: a lookup that finds its key then compares by identity.
    card = _CARDS.__getitem__
    return {tuple(map(card, key)): by_bits[bits] for key, bits in found.items()}


# Filled on first use, so that importing the package stays fast.
_KOWAH_TABLE: dict[Key, frozenset[Card]] = {}
_TABLES: dict[Pack, dict[Key, frozenset[Card]]] = {KOWAH_DECK: _KOWAH_TABLE}


def _table(pack: Pack) -> dict[Key, frozenset[Card]]:
    table = _TABLES.get(pack)
    if table is None:
        table = _TABLES[pack] = _build_table(pack)
    elif not table:
        table.update(_build_table(pack))
    return table


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


# Distance to ready -------------------------------------------------------------------------
#
# A ready hand is three structures (triple, triple, pair) placed in groups. Groups never
# constrain each other, so the most cards a hand can keep is the best way to place the three
# structures, each group contributing the overlap of its own cards with what is placed there.
# Within a rank the suits are interchangeable (R4, R5 and R7 treat them alike), so a group is
# described by its sorted suit counts, and a hand by the sorted list of its groups: a few
# thousand shapes, each solved once and cached.

_DEMANDS = ("T", "TT", "P", "TP", "TTP")


def _group_best(profile: tuple[int, ...], demand: str) -> int:
    """Most cards of a group with *profile* that a placement of *demand* can keep."""
    honour = len(profile) == 1
    kinds = (0,) if honour else (0, 1, 2)
    triples: list[Key] = (
        [(0, 0, 0)] if honour else list(itertools.combinations_with_replacement(kinds, 3))
    )
    n_triples = demand.count("T")
    best = 0
    pair_kinds: tuple[int | None, ...] = kinds if "P" in demand else (None,)
    for pair in pair_kinds:
        for chosen in itertools.combinations_with_replacement(triples, n_triples):
            placed = [0] * len(kinds)
            ok = True
            for triple in chosen:
                for kind in triple:
                    placed[kind] += 1
                if pair is not None:
                    if honour:
                        ok = False
                    else:
                        five = [triple.count(k) + (2 if k == pair else 0) for k in kinds]
                        ok = ok and sorted(five) == [1, 2, 2]
            if pair is not None:
                placed[pair] += 2
            if not ok or max(placed) > 4:
                continue
            best = max(best, sum(min(have, want) for have, want in zip(profile, placed, strict=True)))
    return best


def _solve(shape: tuple[tuple[int, ...], ...]) -> int:
    """The most cards a hand of this shape can keep on its way to ready."""
    values = [{demand: _group_best(profile, demand) for demand in _DEMANDS} for profile in shape]
    empty = {demand: 0 for demand in _DEMANDS}
    # Enough empty groups always remain (at least four of the twelve are unused).
    values += [empty, empty, empty]
    best = 0
    n = len(values)
    for i in range(n):
        best = max(best, values[i]["TTP"])
        for j in range(n):
            if i == j:
                continue
            best = max(best, values[i]["TT"] + values[j]["P"], values[i]["TP"] + values[j]["T"])
            for k in range(j + 1, n):
                if k != i:
                    best = max(best, values[i]["P"] + values[j]["T"] + values[k]["T"])
    return best


def _profiles() -> tuple[list[int], list[tuple[int, ...]]]:
    """Number every group profile: code (see ``_WEIGHT``) -> profile id, and id -> profile."""
    by_profile: dict[tuple[int, ...], int] = {(): 0}
    ids = [0] * (_HONOUR_WEIGHT * 5)
    for c, s, m in itertools.product(range(5), repeat=3):
        if c + s + m:
            profile = tuple(sorted((c, s, m), reverse=True))
            ids[c + 9 * s + 81 * m] = by_profile.setdefault(profile, len(by_profile))
    for n in range(1, 5):
        ids[n * _HONOUR_WEIGHT] = by_profile.setdefault((n,), len(by_profile))
    return ids, list(by_profile)


# A group's cards sum to a code: suits weigh 1, 9 and 81, an honour 729. A hand's shape, the
# multiset of its groups' profiles, is encoded exactly as the sum of 9 ** profile id over its
# groups (a hand has at most eight groups, so no digit overflows).
_HONOUR_WEIGHT = 729
_WEIGHT: tuple[int, ...] = tuple((1, 9, 81)[i % 3] if i < 27 else _HONOUR_WEIGHT for i in range(KINDS))
_PROFILE_ID, _PROFILE = _profiles()
_SHAPE_DIGIT: tuple[int, ...] = tuple(9 ** i if i else 0 for i in _PROFILE_ID)
_SHAPES: dict[int, int] = {}


def _decode_shape(shape: int) -> tuple[tuple[int, ...], ...]:
    profiles = []
    for profile_id in range(1, len(_PROFILE)):
        profiles += [_PROFILE[profile_id]] * (shape // 9 ** profile_id % 9)
    return tuple(profiles)


def _kept(
    key: Key,
    groups: tuple[int, ...] = _GROUP,
    weights: tuple[int, ...] = _WEIGHT,
    digit: Callable[[int], int] = _SHAPE_DIGIT.__getitem__,
) -> int:
    """The most cards of an eight-card hand (sorted key) that some ready hand contains."""
    codes = [0] * _GROUPS
    for card in key:
        codes[groups[card]] += weights[card]
    shape = sum(map(digit, codes))
    kept = _SHAPES.get(shape)
    if kept is None:
        kept = _SHAPES[shape] = _solve(_decode_shape(shape))
    return kept


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


