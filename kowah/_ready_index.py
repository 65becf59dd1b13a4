"""Shared internals of the hand evaluators: the ready-hand tables and the distance machinery.

Private to the package: :mod:`kowah.hands` gives the public face (``is_ready``, ``waits``,
``distance``, ``ready_hands``); the engine, the records and the players import what they need
from here. Names are public within this module.

A ready hand is two triples and a pair that obey R7 (R4–R8). The ready hands of a pack, each
mapped to the waits it offers, are defined by :func:`build_table`; what the checks read is the
pack's compact :class:`ReadyIndex` (:func:`ready_index`), shipped for the Kowah deck and the
money pack. :func:`ready_table` gives them as a dict of sorted hands, slower to build but
quicker to look up, for code that plays deals by the thousand.

How far a hand is from ready is :func:`kept_in` (the most of its cards some ready hand
contains), for any pack; :func:`kept` is its quick form for the Kowah deck and the money pack.

Every function here gives the same answer from any thread, from the first call. The ready
indexes, their warm parts and the ready tables are built once, under :data:`BUILD_LOCK`, and
published whole. The other caches (``SHAPES``, the group and shape solutions, :func:`quick`'s)
memoise a pure function one entry at a time: two threads may both work out a missing entry,
and each stores the same value with one dict assignment, so a reader sees it whole or not at
all. ``tests/test_threads.py`` runs the race in fresh processes.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import os
import threading
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from kowah.cards import KINDS, KOWAH_DECK, MONEY_PACK, Card, Pack

__all__ = [
    "BUILD_LOCK",
    "CARDS",
    "DATA_FILES",
    "GROUP",
    "GROUPS",
    "HONOUR_WEIGHT",
    "KEY_WEIGHT",
    "KOWAH_KEYS",
    "KOWAH_SIEVE",
    "KOWAH_WEIGHTS",
    "LIMIT",
    "MAGIC",
    "QUICK_WEIGHT",
    "SHAPES",
    "SHAPE_DIGIT",
    "SHIPPED_COUNTS",
    "SIEVE_BITS",
    "SUIT",
    "WARM",
    "WEIGHT",
    "Key",
    "Profile",
    "ReadyIndex",
    "build_table",
    "codes_of",
    "decode_shape",
    "encode",
    "group_cards",
    "hand_key",
    "kept",
    "kept_in",
    "pack_weights",
    "quick",
    "read_data",
    "ready_index",
    "ready_table",
    "same_rank_ok",
    "shape_kept",
    "shape_of",
    "solve",
    "source_digest",
    "triples",
    "write_data",
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
# What the fast checks look up. A hand's *key* is the sum of its cards' weights, ``9 ** card``:
# its digits in base 9 are how many copies of each card it holds (never more than eight), so
# the key needs no sorting and names exactly one hand: a key found among the ready keys is a
# ready hand, with nothing to confirm.
#
# The key is a number of several machine words, slower to add than one; the quick path of the
# checks (kowah.hands) first adds *quick weights*, one word each (``QUICK_WEIGHT``, a card's
# weight modulo a prime; a card the pack lacks, or any int that is no card, weighs ``LIMIT``,
# so that a sum of ``LIMIT`` or more means "not every card is in the pack"). The *sieve* has
# one bit for each value of the low ``SIEVE_BITS`` bits of such a sum, set for the ready
# hands' sums, and is small enough to stay in the processor's cache: a hand whose bit is
# clear is no ready hand, which settles nearly every hand that is not ready; the others are
# looked up by their key.
#
# The index of the Kowah deck and of the money pack is generated at build time by the hatch
# hook (hatch_build.py, :func:`write_data`) into ``kowah/_ready/`` and loaded on first use in
# about a millisecond; other packs, or data that is missing or was made from other sources
# (see :func:`source_digest`), are built from the rules instead (:func:`build_table`).

#: Lookups after which an index builds its keys, their positions and its sieve (see
#: :class:`ReadyIndex`).
WARM = 64
#: The data format, written at the start of every index file.
MAGIC = b"kowah-ready/3\n"
#: The weight of each card in a hand's key: one base-9 digit a card.
KEY_WEIGHT: tuple[int, ...] = tuple(9 ** card for card in range(KINDS))
#: The quick path's weight of each card: its key weight modulo a prime below ``2 ** 27``, so
#: that the weights are well spread and eight of them add up to less than :data:`LIMIT`.
QUICK_WEIGHT: tuple[int, ...] = tuple(weight % 134_217_689 for weight in KEY_WEIGHT)
#: The quick path's weight of a card the pack lacks: more than eight quick weights.
LIMIT = 1 << 30
#: The bits of a quick sum that pick its bit of the sieve (a sieve of 256 kB: it stays in the
#: processor's cache even when other work shares it).
SIEVE_BITS = 21
_SIEVE_MASK = (1 << SIEVE_BITS) - 1
_NO_WAIT = 255
_HERE = os.path.dirname(os.path.abspath(__file__))
#: The shipped index files, by pack name.
DATA_FILES = {"Kowah deck": "kowah.bin", "money pack": "money.bin"}


def pack_weights(pack: Pack) -> tuple[int, ...]:
    """The quick path's weight of each int from -256 to 255 (a negative index counts from the
    end): ``QUICK_WEIGHT`` for the pack's cards, ``LIMIT`` otherwise."""
    return tuple(QUICK_WEIGHT[value] if value < KINDS and pack.counts[value] else LIMIT
                 for value in range(512))


KOWAH_WEIGHTS = pack_weights(KOWAH_DECK)


def hand_key(cards: Iterable[int]) -> int:
    """The key of a hand of valid card indices: the sum of their weights."""
    return sum(map(KEY_WEIGHT.__getitem__, cards))


class ReadyIndex:
    """The ready hands of one pack, compact, sorted by key (see the comment above).

    Loading it costs reading the file (a megabyte): lookups bisect the hands by their keys,
    and the keys, their positions and the sieve that the hot paths read (:attr:`keys`,
    :attr:`positions`, :attr:`sieve`) are built only once the index has been asked
    :data:`WARM` times, so a short process (``kowah check``) never pays for them.
    """

    __slots__ = ("_lookups", "_waits", "count", "hands", "keys", "pairs", "positions", "sieve")

    def __init__(self, data: bytes, keys: set[int] | None = None,
                 sieve: bytearray | None = None) -> None:
        count = int.from_bytes(data[len(MAGIC) + 8:len(MAGIC) + 12], "little")
        start = len(MAGIC) + 12
        view = memoryview(data)  # parts of the file, not copies of them
        self.count = count
        #: Each ready hand's card indices, sorted, eight bytes a hand, in key order.
        self.hands = view[start:start + 8 * count]
        #: Each ready hand's waits, two bytes a hand (255: none).
        self.pairs = view[start + 8 * count:start + 10 * count]
        #: The ready keys, and the sieve of the ready hands' quick sums: empty until warm (filled
        #: in place, so callers may hold them). A set tells a ready key with fewer trips to
        #: memory than :attr:`positions`, which gives its hand's position.
        self.keys: set[int] = set() if keys is None else keys
        self.sieve = bytearray() if sieve is None else sieve
        self.positions: dict[int, int] = {}
        self._lookups = 0
        self._waits: dict[bytes, frozenset[Card]] = {}

    def key(self, index: int) -> int:
        """The key of the ready hand at *index*."""
        return hand_key(self.hands[8 * index:8 * index + 8])

    def warm(self) -> None:
        """Build :attr:`keys`, :attr:`positions` and :attr:`sieve` (tens of milliseconds; done
        after :data:`WARM` lookups). Safe from any thread: built once, under the build lock."""
        if self.keys:
            return
        with BUILD_LOCK:
            if self.keys:
                return  # another thread built them while this one waited
            keys, sums = self._sums(KEY_WEIGHT), self._sums(QUICK_WEIGHT)
            sieve = bytearray(1 << SIEVE_BITS - 3)
            for total in sums:
                bit = total & _SIEVE_MASK
                sieve[bit >> 3] |= 1 << (bit & 7)
            self.sieve[:] = sieve  # before the keys: readers test the sieve first
            self.positions = dict(zip(keys, range(self.count), strict=True))
            # One update, in C: another thread sees no keys or all of them, never some.
            self.keys.update(keys)

    def _sums(self, weights: Sequence[int]) -> list[int]:
        """The sum of the *weights* of each hand's cards, in order. All hands at once, a column
        of cards at a time (a hand at a time is slower): the weights of every hand's first
        card, plus those of its second, ..."""
        weight = list(weights).__getitem__  # a list's is the quicker to call
        sums = list(map(weight, self.hands[0::8]))
        for column in range(1, 8):
            sums = list(map(operator.add, sums, map(weight, self.hands[column::8])))
        return sums

    def find(self, key: int) -> int:
        """The position of the ready hand with this key, or -1."""
        if self.keys:
            return self.positions.get(key, -1)
        self._lookups += 1  # may miss a count when threads race: harmless, it only times warm()
        if self._lookups >= WARM:
            self.warm()
        index = bisect.bisect_left(range(self.count), key, key=self.key)
        return index if index < self.count and self.key(index) == key else -1

    def hand(self, index: int) -> tuple[Card, ...]:
        """The ready hand at *index*, sorted."""
        return tuple(map(CARDS.__getitem__, self.hands[8 * index:8 * index + 8]))

    def waits(self, index: int) -> frozenset[Card]:
        """The waits of the ready hand at *index* (R8)."""
        pair = bytes(self.pairs[2 * index:2 * index + 2])
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
    return b"".join([
        MAGIC, source_digest().to_bytes(8, "little"), len(rows).to_bytes(4, "little"),
        *(row[1] for row in rows), *(row[2] for row in rows),
    ])


def source_digest(folder: str = _HERE) -> int:
    """A checksum of the sources that define the ready hands (this module and ``cards.py``).

    An index file made from other sources is not used.
    """
    digest = 0
    for name in ("cards.py", os.path.basename(__file__)):
        with open(os.path.join(folder, name), "rb") as handle:
            digest = zlib.crc32(handle.read(), digest)
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
# The Kowah deck's ReadyIndex.keys and .sieve, filled in place once warm (see ready_index), for
# the hot path of kowah.hands.is_ready.
KOWAH_KEYS: set[int] = set()
KOWAH_SIEVE = bytearray()
_INDEXES: dict[Pack, ReadyIndex] = {}
_BY_ID: dict[int, tuple[Pack, ReadyIndex]] = {}
#: Held while a ready index, its warm parts or a ready table is built, so that each is built
#: once, whatever the number of threads making their first calls at the same time. Readers
#: never take it: what they read is published whole (a dict entry, or the keys after the
#: sieve and the positions). Reentrant: building a table builds its index.
BUILD_LOCK = threading.RLock()


def ready_index(pack: Pack) -> ReadyIndex:
    """The ready index of *pack*: loaded from the shipped data, or built from the rules (once,
    from any thread)."""
    known = _BY_ID.get(id(pack))  # quicker than hashing the pack
    if known is not None and known[0] is pack:
        return known[1]
    with BUILD_LOCK:
        index = _INDEXES.get(pack)
        if index is None:
            data = read_data(pack)
            if data is None:
                data = encode(pack, build_table(pack))
            kowah = pack == KOWAH_DECK
            # Only this index fills the Kowah deck's shared keys and sieve (see is_ready).
            index = ReadyIndex(data, KOWAH_KEYS if kowah else None, KOWAH_SIEVE if kowah else None)
            _INDEXES[pack] = index
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
        with BUILD_LOCK:
            table = _TABLES.get(pack)
            if table is None:
                index = ready_index(pack)
                cards = map(CARDS.__getitem__, index.hands)
                hands = zip(*[cards] * 8, strict=True)  # eight at a time
                table = _TABLES[pack] = dict(zip(hands, map(index.waits, range(index.count)),
                                                 strict=True))
    return table


# Distance to ready -------------------------------------------------------------------------
#
# A ready hand is three structures (triple, triple, pair) placed in groups. Groups never
# constrain each other, so the most cards a hand can keep is the best way to place the three
# structures, each group contributing the overlap of its own cards with what is placed there,
# as far as the pack holds the cards placed (R4, R5, R7). A group is described by its
# *profile*, the pairs (cards of a kind held, copies of it in the pack) of its kinds, sorted:
# within a rank the suits are interchangeable (R4, R5 and R7 treat them alike) as long as the
# pack holds as many of each. A hand is then the sorted list of its groups' profiles, with
# those of up to three empty groups of each profile (the structures are three): each such
# shape is solved once and cached. That is :func:`kept_in`, for any pack.
#
# For the Kowah deck and the money pack (four copies of every kind of whole groups, and at
# least four empty groups whatever the hand) the shape is encoded as one integer, summed from
# a digit per group, so that :func:`kept` and the players' heuristics (kowah._heuristic) find a
# hand's shape, and that of every hand one card away, by arithmetic.

_DEMANDS = ("T", "TT", "P", "TP", "TTP")
#: A group's profile: (cards of a kind held, copies of it in the pack) for each of its kinds.
Profile = tuple[tuple[int, int], ...]
_GROUP_BEST: dict[tuple[Profile, str], int | None] = {}
_SUIT_TRIPLES = tuple(itertools.combinations_with_replacement(range(3), 3))


def _group_best(profile: Profile, demand: str) -> int | None:
    """Most cards of a group with *profile* that a placement of *demand* (``"T"``, ``"TP"``,
    ...) keeps, or ``None`` when the pack cannot place it there (cached per profile)."""
    key = (profile, demand)
    if key not in _GROUP_BEST:
        _GROUP_BEST[key] = _solve_group(profile, demand)
    return _GROUP_BEST[key]


def _solve_group(profile: Profile, demand: str) -> int | None:
    honour = len(profile) == 1  # an honour is a group of its own (R4)
    options = ((0, 0, 0),) if honour else _SUIT_TRIPLES
    best: int | None = None
    for pair in (range(len(profile)) if "P" in demand else (None,)):
        for chosen in itertools.combinations_with_replacement(options, demand.count("T")):
            placed = [0] * len(profile)
            for triple in chosen:
                for kind in triple:
                    placed[kind] += 1
            if pair is not None:
                if chosen and not all(_same_rank_ok_counts(triple, pair, honour) for triple in chosen):
                    continue  # R7
                placed[pair] += 2
            if any(count > copies for count, (_, copies) in zip(placed, profile, strict=True)):
                continue  # the pack does not hold these cards
            value = sum(min(held, count) for count, (held, _) in zip(placed, profile, strict=True))
            best = value if best is None else max(best, value)
    return best


def _same_rank_ok_counts(triple: tuple[int, ...], pair: int, honour: bool) -> bool:
    """R7 (:func:`same_rank_ok`) for a triple and a pair of one group's kinds (0-2 by suit)."""
    first = 27 if honour else 0  # the group's first card: 1c, or an honour
    return same_rank_ok(tuple(first + kind for kind in triple), first + pair)


def _solve(groups: Sequence[Profile]) -> int | None:
    """The most cards kept by the best placement of two triples and a pair in *groups*, or
    ``None`` when the pack allows none (no hand of it is ever ready)."""
    values = [[_group_best(profile, demand) for demand in _DEMANDS] for profile in groups]
    best: int | None = None

    def offer(*parts: int | None) -> None:
        nonlocal best
        if None not in parts:
            total = sum(parts)  # type: ignore[arg-type]
            best = total if best is None else max(best, total)

    n = len(values)
    for i in range(n):
        _, tt_i, p_i, tp_i, ttp_i = values[i]
        offer(ttp_i)
        for j in range(n):
            if i != j:
                t_j, _, p_j, _, _ = values[j]
                offer(tt_i, p_j)
                offer(tp_i, t_j)
                for k in range(j + 1, n):
                    if k != i:
                        offer(p_i, t_j, values[k][0])
    return best


_KEPT: dict[tuple[tuple[Profile, ...], tuple[Profile, ...]], int | None] = {}


def kept_in(key: Iterable[int], pack: Pack) -> int | None:
    """The most cards of an eight-card hand (card indices of *pack*, any order) that some ready
    hand of *pack* contains; ``None`` when no hand of *pack* is ever ready. For any pack."""
    key = tuple(key)
    if quick(pack):
        return kept(key)
    held = [0] * KINDS
    for card in key:
        held[card] += 1
    counts = pack.counts
    used: list[Profile] = []
    empty: Counter[Profile] = Counter()
    for group in range(GROUPS):
        cards = group_cards(group)
        if not any(counts[card] for card in cards):
            continue  # the pack has no card of this group
        profile = tuple(sorted(((held[card], counts[card]) for card in cards), reverse=True))
        if any(held[card] for card in cards):
            used.append(profile)
        else:
            empty[profile] += 1
    spare = tuple(profile for profile, number in sorted(empty.items()) for _ in range(min(number, 3)))
    shape = (tuple(sorted(used)), spare)
    if shape not in _KEPT:
        _KEPT[shape] = _solve((*shape[0], *shape[1]))
    return _KEPT[shape]


_QUICK: dict[tuple[int, ...], bool] = {}


def quick(pack: Pack) -> bool:
    """Whether :func:`kept` (the integer shapes) serves *pack*: four copies of each kind of
    whole groups and at least eleven groups, so that a hand leaves four empty (the Kowah deck
    and the money pack)."""
    found = _QUICK.get(pack.counts)
    if found is None:
        groups = [{pack.counts[card] for card in group_cards(group)} for group in range(GROUPS)]
        found = _QUICK[pack.counts] = (all(copies in ({0}, {4}) for copies in groups)
                                       and sum(copies == {4} for copies in groups) >= 11)
    return found


def _profiles() -> tuple[list[int], list[tuple[int, ...]]]:
    """Number every group profile of a quick pack: code (see ``WEIGHT``) -> profile id, and
    id -> the cards held of each kind, sorted."""
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
_SPARE: tuple[Profile, ...] = (((0, 4), (0, 4), (0, 4)),) * 3  # empty groups of a quick pack


def decode_shape(shape: int) -> tuple[tuple[int, ...], ...]:
    """The group profiles (cards held of each kind) of a shape number."""
    profiles = []
    for profile_id in range(1, len(PROFILE)):
        profiles += [PROFILE[profile_id]] * (shape // 9 ** profile_id % 9)
    return tuple(profiles)


def solve(shape: tuple[tuple[int, ...], ...]) -> int:
    """The most cards a hand of this shape (as :func:`decode_shape` gives it) of a quick pack
    can keep on its way to ready."""
    groups = [tuple((held, 4) for held in profile) for profile in shape]
    return _solve((*groups, *_SPARE)) or 0  # a quick pack always has ready hands


def shape_kept(shape: int) -> int:
    """:func:`solve` of a shape number, cached: the most cards a hand of it keeps."""
    found = SHAPES.get(shape)
    if found is None:
        found = SHAPES[shape] = solve(decode_shape(shape))
    return found


def codes_of(key: Iterable[int]) -> list[int]:
    """The code of each of the groups of a hand of a quick pack: the sum of its cards' weights."""
    codes = [0] * GROUPS
    for card in key:
        codes[GROUP[card]] += WEIGHT[card]
    return codes


def shape_of(codes: Iterable[int]) -> int:
    """The shape number of a hand from its groups' :func:`codes_of`."""
    return sum(map(SHAPE_DIGIT.__getitem__, codes))


def kept(
    key: Iterable[int],
    groups: tuple[int, ...] = GROUP,
    weights: tuple[int, ...] = WEIGHT,
    digit: Callable[[int], int] = SHAPE_DIGIT.__getitem__,
) -> int:
    """The most cards of an eight-card hand of a quick pack (card indices, any order) that some
    ready hand contains (see :func:`kept_in` for other packs)."""
    codes = [0] * GROUPS
    for card in key:
        codes[groups[card]] += weights[card]
    shape = sum(map(digit, codes))
    found = SHAPES.get(shape)
    if found is None:
        found = SHAPES[shape] = solve(decode_shape(shape))
    return found
