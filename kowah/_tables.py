"""Shared internals of the hand evaluators: the ready-hand tables and the distance machinery.

Private to the package: :mod:`kowah.hands` gives the public face (``is_ready``, ``waits``,
``distance``, ``ready_hands``); the engine, the records and the players import what they need
from here. Names are public within this module.

A ready hand is two triples and a pair that obey R7 (R4–R8). The ready hands of a pack, each
mapped to the waits it offers, are computed once per pack (:func:`ready_table`).
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence

from kowah.cards import KINDS, KOWAH_DECK, MONEY_PACK, Card, Pack

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


# The ready index ----------------------------------------------------------------------------
#
# What the fast checks look up. Each card weighs a pseudo-random 27-bit number (``HASH``); a
# hand's *key* is the sum of its cards' weights, so it needs no sorting and stays a one-digit
# int (eight weights are below 2 ** 30). A card the pack lacks, or any byte value that is no
# card, weighs ``LIMIT``, so a key of ``LIMIT`` or more means "not every card is in the pack".
# Keys are not unique: a key found among the ready keys is confirmed against the ready hands
# that have it (their sorted card indices), so no answer depends on a collision.
#
# The index of the Kowah deck and of the money pack is generated at build time by the hatch
# hook (hatch_build.py, :func:`write_data`) into ``kowah/_ready/`` and loaded on first use in
# a few milliseconds; other packs, or data that is missing or was made from other sources
# (see :func:`source_digest`), are built from the rules instead (:func:`build_table`).

#: Lookups after which an index builds its dict of keys (see :class:`ReadyIndex`).
WARM = 64
#: The data format, written at the start of every index file.
MAGIC = b"kowah-ready/2\n"
LIMIT = 1 << 30


def _mix(value: int) -> int:
    """splitmix64's output function: a well-spread 64-bit number for each *value*."""
    value = (value + 1) * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF
    value = (value ^ value >> 30) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
    value = (value ^ value >> 27) * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
    return value ^ value >> 31


HASH: tuple[int, ...] = tuple(_mix(card) >> 37 for card in range(KINDS))
_NO_WAIT = 255
_PRIME = (1 << 61) - 1
_HERE = os.path.dirname(os.path.abspath(__file__))
#: The shipped index files, by pack name.
DATA_FILES = {"Kowah deck": "kowah.bin", "money pack": "money.bin"}


def pack_weights(pack: Pack) -> tuple[int, ...]:
    """Each byte value's weight in a hand's key: ``HASH`` for the pack's cards, ``LIMIT`` otherwise."""
    return tuple(HASH[value] if value < KINDS and pack.counts[value] else LIMIT for value in range(256))


KOWAH_WEIGHTS = pack_weights(KOWAH_DECK)


def hand_key(cards: Iterable[int]) -> int:
    """The key of a hand of valid card indices: the sum of their weights."""
    return sum(HASH[card] for card in cards)


class ReadyIndex:
    """The ready hands of one pack, compact, sorted by key (see the comment above).

    Loading it costs a copy of the file: the first lookups bisect the sorted keys, and the
    dict of keys that the hot path reads (:attr:`keys`) is built only once the index has
    been asked :data:`WARM` times, so a short process (``kowah check``) never pays for it.
    """

    __slots__ = ("_lookups", "_shared", "_waits", "count", "hands", "key_array", "keys", "pairs",
                 "quick", "weights")

    def __init__(self, pack: Pack, data: bytes, keys: dict[int, int] | None = None) -> None:
        count = int.from_bytes(data[len(MAGIC) + 8:len(MAGIC) + 12], "little")
        start = len(MAGIC) + 12
        self.count = count
        #: The keys, in order.
        self.key_array = self._words(data[start:start + 4 * count])
        #: Each ready hand's card indices, sorted, eight bytes a hand, in key order.
        self.hands = data[start + 4 * count:start + 12 * count]
        #: Each ready hand's waits, two bytes a hand (255: none).
        self.pairs = data[start + 12 * count:start + 14 * count]
        self._shared = self._words(data[start + 14 * count:])
        #: key -> the position of the ready hand with that key, or -1 for a key that several
        #: ready hands share; empty until warm (filled in place, so callers may hold it).
        self.keys: dict[int, int] = {} if keys is None else keys
        self.keys.clear()
        self._lookups = 0
        #: Whether the pack holds four copies of each of its kinds (see :func:`kowah.hands.is_ready`).
        self.quick = all(copies in (0, 4) for copies in pack.counts)
        self.weights = pack_weights(pack)
        self._waits: dict[bytes, frozenset[Card]] = {}

    @staticmethod
    def _words(data: bytes) -> Sequence[int]:
        """Little-endian 32-bit words (a view of *data*: no copy, no module to load)."""
        if sys.byteorder == "little":
            return memoryview(data).cast("I")
        return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]

    def warm(self) -> None:
        """Build :attr:`keys` (tens of milliseconds; done after :data:`WARM` lookups)."""
        if not self.keys:
            self.keys.update(zip(self.key_array, range(self.count), strict=True))
            for key in self._shared:
                self.keys[key] = -1
            if self.keys is KOWAH_KEYS:
                KOWAH_HANDS[:] = self.hands

    def find(self, key: int, hand: bytes) -> int:
        """The position of *hand* (its eight card indices, sorted) with this key, or -1."""
        hands = self.hands
        if self.keys:
            index = self.keys.get(key)
            if index is None:
                return -1
            if index >= 0:
                return index if hands[8 * index:8 * index + 8] == hand else -1
        else:
            self._lookups += 1
            if self._lookups >= WARM:
                self.warm()
        keys = self.key_array
        index, high = 0, self.count  # bisect (the _bisect module would cost a load to import)
        while index < high:
            middle = (index + high) // 2
            if keys[middle] < key:
                index = middle + 1
            else:
                high = middle
        while index < self.count and keys[index] == key:
            if hands[8 * index:8 * index + 8] == hand:
                return index
            index += 1
        return -1

    def hand(self, index: int) -> tuple[Card, ...]:
        """The ready hand at *index*, sorted."""
        return tuple(map(CARDS.__getitem__, self.hands[8 * index:8 * index + 8]))

    def waits(self, index: int) -> frozenset[Card]:
        """The waits of the ready hand at *index* (R8)."""
        pair = self.pairs[2 * index:2 * index + 2]
        found = self._waits.get(pair)
        if found is None:
            found = self._waits[pair] = frozenset(CARDS[value] for value in pair if value != _NO_WAIT)
        return found


def encode(pack: Pack, table: Mapping[Key, frozenset[Card]]) -> bytes:
    """The index file of *pack* for its ready *table* (as :func:`build_table` gives it)."""
    rows = sorted(
        (hand_key(hand), bytes(hand), bytes(sorted(waits)).ljust(2, bytes([_NO_WAIT])))
        for hand, waits in table.items()
    )
    keys = [row[0] for row in rows]
    shared = sorted({a for a, b in itertools.pairwise(keys) if a == b})
    return b"".join([
        MAGIC, source_digest().to_bytes(8, "little"), len(rows).to_bytes(4, "little"),
        *(key.to_bytes(4, "little") for key in keys), *(row[1] for row in rows),
        *(row[2] for row in rows), *(key.to_bytes(4, "little") for key in shared),
    ])


def source_digest(folder: str = _HERE) -> int:
    """A checksum of the sources that define the ready hands (this module and ``cards.py``).

    An index file made from other sources is not used.
    """
    digest = 0
    for name in ("cards.py", "_tables.py"):
        with open(os.path.join(folder, name), "rb") as handle:
            # A polynomial hash of the bytes modulo a Mersenne prime (zlib would cost a load).
            digest = (digest * 1_000_003 + int.from_bytes(handle.read() + b"\x01", "little")) % _PRIME
    return digest


def write_data(folder: str) -> list[str]:
    """Build the index files of the Kowah deck and the money pack into *folder*/_ready (the
    hatch hook calls it); return their paths."""
    target = os.path.join(folder, "_ready")
    os.makedirs(target, exist_ok=True)
    written = []
    for pack in (KOWAH_DECK, MONEY_PACK):
        path = os.path.join(target, DATA_FILES[pack.name])
        data = encode(pack, build_table(pack))
        with open(path, "wb") as handle:
            handle.write(data)
        written.append(path)
    return written


def read_data(pack: Pack) -> bytes | None:
    """The shipped index file of *pack*, if there is one made from these sources."""
    name = DATA_FILES.get(pack.name)
    if name is None or pack.counts != SHIPPED_COUNTS.get(pack.name):
        return None
    try:
        with open(os.path.join(_HERE, "_ready", name), "rb") as handle:
            data = handle.read()
        digest = source_digest()
    except OSError:
        return None
    if not data.startswith(MAGIC) or data[len(MAGIC):len(MAGIC) + 8] != digest.to_bytes(8, "little"):
        return None
    return data


#: The counts of the packs whose index is shipped, by name.
SHIPPED_COUNTS: dict[str, tuple[int, ...]] = {pack.name: pack.counts for pack in (KOWAH_DECK, MONEY_PACK)}
# The Kowah deck's ReadyIndex.keys and .hands, filled in place on first use (see ready_index),
# for the hot path of kowah.hands.is_ready.
KOWAH_KEYS: dict[int, int] = {}
KOWAH_HANDS = bytearray()
_INDEXES: dict[Pack, ReadyIndex] = {}
_BY_ID: dict[int, tuple[Pack, ReadyIndex]] = {}


def ready_index(pack: Pack) -> ReadyIndex:
    """The ready index of *pack*: loaded from the shipped data, or built from the rules."""
    known = _BY_ID.get(id(pack))  # quicker than hashing the pack
    if known is not None and known[0] is pack:
        return known[1]
    index = _INDEXES.get(pack)
    if index is None:
        data = read_data(pack)
        if data is None:
            data = encode(pack, build_table(pack))
        index = _INDEXES[pack] = ReadyIndex(pack, data, KOWAH_KEYS if pack == KOWAH_DECK else None)
    _BY_ID[id(pack)] = (pack, index)  # the pack is kept, so its id is not reused
    return index


_TABLES: dict[Pack, dict[Key, frozenset[Card]]] = {}


def ready_table(pack: Pack) -> dict[Key, frozenset[Card]]:
    """The ready hands of *pack* as a dict: sorted tuple of Card values -> the waits (once per pack).

    Callers must not change it. Building it takes tens of milliseconds: a check of one hand
    is faster through :func:`kowah.hands.is_ready` or :func:`ready_index`.
    """
    table = _TABLES.get(pack)
    if table is None:
        index = ready_index(pack)
        cards = map(CARDS.__getitem__, index.hands)
        hands = zip(*[cards] * 8, strict=True)  # eight at a time
        table = _TABLES[pack] = dict(zip(hands, map(index.waits, range(index.count)), strict=True))
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
