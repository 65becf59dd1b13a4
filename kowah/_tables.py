"""Shared internals of the hand evaluators: the ready-hand tables and the distance machinery.

Private to the package: :mod:`kowah.hands` gives the public face (``is_ready``, ``waits``,
``distance``, ``ready_hands``); the engine, the records and the players import what they need
from here. Names are public within this module.

A ready hand is two triples and a pair that obey R7 (R4–R8). The ready hands of a pack, each
mapped to the waits it offers, are computed once per pack (:func:`ready_table`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

from kowah.cards import KINDS, KOWAH_DECK, Card, Pack

__all__ = [
    "CARDS",
    "GROUP",
    "GROUPS",
    "HONOUR_WEIGHT",
    "SHAPES",
    "SHAPE_DIGIT",
    "SUIT",
    "WEIGHT",
    "Key",
    "build_table",
    "decode_shape",
    "kept",
    "ready_table",
    "same_rank_ok",
    "solve",
    "triples",
]

Key = tuple[int, ...]

# Cards of one group make triples together: suit cards by rank, each honour on its own (R4).
CARDS: tuple[Card, ...] = tuple(Card)
GROUP: tuple[int, ...] = tuple(card.group for card in CARDS)
GROUPS = 15
# The suit of a suit card (0, 1, 2); honours count as a "suit" of their own.
SUIT: tuple[int, ...] = tuple(i % 3 if i < 27 else 0 for i in range(KINDS))


def group_cards(group: int) -> tuple[int, ...]:
    """The card indices of one group: the three suits of a rank, or one honour."""
    return (group * 3, group * 3 + 1, group * 3 + 2) if group < 9 else (group + 18,)


def triples(counts: Sequence[int]) -> list[Key]:
    """Every triple (R4) the counts allow, as sorted card indices."""
    found: list[Key] = []
    for group in range(GROUPS):
        for triple in itertools.combinations_with_replacement(group_cards(group), 3):
            if all(triple.count(card) <= counts[card] for card in set(triple)):
                found.append(triple)
    return found


def same_rank_ok(triple: Key, pair_card: int) -> bool:
    """R7: a triple sharing the pair's rank makes, with the pair, two + two + one by suit."""
    if GROUP[triple[0]] != GROUP[pair_card]:
        return True
    if pair_card >= 27:  # five honours of one kind are never two + two + one
        return False
    suits = [0, 0, 0]
    for card in (*triple, pair_card, pair_card):
        suits[SUIT[card]] += 1
    return sorted(suits) == [1, 2, 2]


def _fits(cards: Iterable[int], counts: Sequence[int]) -> bool:
    held = [0] * KINDS
    for card in cards:
        held[card] += 1
        if held[card] > counts[card]:
            return False
    return True


def build_table(pack: Pack) -> dict[Key, frozenset[Card]]:
    """Every ready hand of *pack* (R6, R7) as a sorted key, mapped to the waits it offers (R8)."""
    counts = pack.counts
    found_triples = triples(counts)
    pairs = [card for card in range(KINDS) if counts[card] >= 2]
    allowed = {(t, p): same_rank_ok(t, p) for t in found_triples for p in pairs}
    found: dict[Key, int] = {}  # hand -> bit set of its waits
    get = found.get
    for first, second in itertools.combinations_with_replacement(found_triples, 2):
        base = first + second
        if GROUP[first[0]] == GROUP[second[0]] and not _fits(base, counts):
            continue
        groups = (GROUP[first[0]], GROUP[second[0]])
        for pair_card in pairs:
            if GROUP[pair_card] in groups and not (
                allowed[first, pair_card]
                and allowed[second, pair_card]
                and base.count(pair_card) + 2 <= counts[pair_card]
            ):
                continue
            hand = tuple(sorted((*base, pair_card, pair_card)))
            found[hand] = get(hand, 0) | 1 << pair_card
    by_bits = {
        bits: frozenset(card for card in CARDS if bits >> card & 1) for bits in set(found.values())
    }
    # Keys of Card values, not ints: a lookup that finds its key then compares by identity.
    card = CARDS.__getitem__
    return {tuple(map(card, key)): by_bits[bits] for key, bits in found.items()}


# Filled on first use, so that importing the package stays fast.
KOWAH_TABLE: dict[Key, frozenset[Card]] = {}
_TABLES: dict[Pack, dict[Key, frozenset[Card]]] = {KOWAH_DECK: KOWAH_TABLE}


def ready_table(pack: Pack) -> dict[Key, frozenset[Card]]:
    """The ready hands of *pack*: sorted tuple of Card values -> the waits (built once per pack).

    Callers must not change it.
    """
    table = _TABLES.get(pack)
    if table is None:
        table = _TABLES[pack] = build_table(pack)
    elif not table:
        table.update(build_table(pack))
    return table


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
    options: list[Key] = (
        [(0, 0, 0)] if honour else list(itertools.combinations_with_replacement(kinds, 3))
    )
    n_triples = demand.count("T")
    best = 0
    pair_kinds: tuple[int | None, ...] = kinds if "P" in demand else (None,)
    for pair in pair_kinds:
        for chosen in itertools.combinations_with_replacement(options, n_triples):
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


def solve(shape: tuple[tuple[int, ...], ...]) -> int:
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
    """Number every group profile: code (see ``WEIGHT``) -> profile id, and id -> profile."""
    by_profile: dict[tuple[int, ...], int] = {(): 0}
    ids = [0] * (HONOUR_WEIGHT * 5)
    for c, s, m in itertools.product(range(5), repeat=3):
        if c + s + m:
            profile = tuple(sorted((c, s, m), reverse=True))
            ids[c + 9 * s + 81 * m] = by_profile.setdefault(profile, len(by_profile))
    for n in range(1, 5):
        ids[n * HONOUR_WEIGHT] = by_profile.setdefault((n,), len(by_profile))
    return ids, list(by_profile)


# A group's cards sum to a code: suits weigh 1, 9 and 81, an honour 729. A hand's shape, the
# multiset of its groups' profiles, is encoded exactly as the sum of 9 ** profile id over its
# groups (a hand has at most eight groups, so no digit overflows).
HONOUR_WEIGHT = 729
WEIGHT: tuple[int, ...] = tuple((1, 9, 81)[i % 3] if i < 27 else HONOUR_WEIGHT for i in range(KINDS))
PROFILE_ID, PROFILE = _profiles()
SHAPE_DIGIT: tuple[int, ...] = tuple(9 ** i if i else 0 for i in PROFILE_ID)
#: shape -> the most cards a hand of that shape can keep (filled as shapes are met).
SHAPES: dict[int, int] = {}


def decode_shape(shape: int) -> tuple[tuple[int, ...], ...]:
    """The group profiles of a shape number."""
    profiles = []
    for profile_id in range(1, len(PROFILE)):
        profiles += [PROFILE[profile_id]] * (shape // 9 ** profile_id % 9)
    return tuple(profiles)


def kept(
    key: Iterable[int],
    groups: tuple[int, ...] = GROUP,
    weights: tuple[int, ...] = WEIGHT,
    digit: Callable[[int], int] = SHAPE_DIGIT.__getitem__,
) -> int:
    """The most cards of an eight-card hand (card indices, any order) that some ready hand contains."""
    codes = [0] * GROUPS
    for card in key:
        codes[groups[card]] += weights[card]
    shape = sum(map(digit, codes))
    found = SHAPES.get(shape)
    if found is None:
        found = SHAPES[shape] = solve(decode_shape(shape))
    return found
