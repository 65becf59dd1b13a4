"""The players' fast evaluation of hands, shared by :mod:`kowah.players` and :mod:`kowah.coach`.

Private to the package; its names are public within it. A hand's *shape* is one integer, the
sum over its groups of a digit per group profile (see ``kowah._tables``), and the most cards of
the hand that some ready hand contains ("kept", 8 minus the distance) is cached per shape.
Adding or removing one card changes one group, so the shape of every hand one card away is
found by arithmetic, and "does this card improve the hand?" costs a dict lookup.
tests/test_players.py checks these shortcuts against ``hands.distance`` and
``hands.improvements``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from kowah import Action, ActionKind, Observation
from kowah._tables import SHAPE_DIGIT, SHAPES, WEIGHT, decode_shape, solve
from kowah.cards import KINDS, KOWAH_DECK, Card, Pack
from kowah.hands import waits

# Every kind of card (33 in the money pack, the Kowah deck uses the first 30), at most four
# copies of each in either pack (R1, R2).
COPIES = 4
CARDS: tuple[Card, ...] = tuple(Card)
GROUP: tuple[int, ...] = tuple(card.group for card in CARDS)
DIGIT: tuple[int, ...] = SHAPE_DIGIT
WT: tuple[int, ...] = WEIGHT
GROUP_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(card for card in range(KINDS) if GROUP[card] == group) for group in range(15)
)

DRAW, TAKE, DISCARD, DECLARE, PASS = (
    ActionKind.DRAW, ActionKind.TAKE, ActionKind.DISCARD, ActionKind.DECLARE, ActionKind.PASS,
)

def ready_waits(key: tuple[int, ...], pack: Pack = KOWAH_DECK) -> frozenset[Card]:
    """The waits of an eight-card hand (sorted key) of *pack*; empty when it is not ready."""
    return waits(cast("tuple[Card, ...]", key), pack)  # card values are ints; waits takes them


def shape_kept(shape: int) -> int:
    """Most cards a hand of this shape can keep on its way to ready (cached in kowah._tables)."""
    kept = SHAPES.get(shape)
    if kept is None:
        kept = SHAPES[shape] = solve(decode_shape(shape))
    return kept


def codes_of(key: Iterable[int]) -> list[int]:
    """The code of each of the 15 groups: the sum of its cards' weights."""
    codes = [0] * 15
    for card in key:
        codes[GROUP[card]] += WT[card]
    return codes


def shape_of(codes: Sequence[int]) -> int:
    return sum(map(DIGIT.__getitem__, codes))


def kept(key: Iterable[int]) -> int:
    """Most cards of an eight-card hand that a ready hand contains (8 - distance)."""
    return shape_kept(shape_of(codes_of(key)))


def acceptance_of(codes: list[int], shape: int, held: int, counts: Sequence[int],
                  live: Sequence[int]) -> int:
    """Live copies of the cards that would bring an eight-card hand closer to ready.

    *held* is the hand's kept count. A card of a group the hand lacks can only help a hand
    of fewer than three groups: with three or more, whatever the card would do, a card
    already held does as well.
    """
    total = 0
    present = [group for group in range(15) if codes[group]]
    groups: Iterable[int] = present if len(present) >= 3 else range(15)
    for group in groups:
        old = codes[group]
        base = shape - DIGIT[old]
        for card in GROUP_CARDS[group]:
            if live[card] and counts[card] < COPIES and shape_kept(base + DIGIT[old + WT[card]]) > held:
                total += live[card]
    return total


def improving(key: tuple[int, ...], pack: Pack = KOWAH_DECK) -> tuple[int, ...]:
    """The kinds of card of *pack* that bring an eight-card hand (sorted key) closer to ready."""
    codes = codes_of(key)
    shape = shape_of(codes)
    held = shape_kept(shape)
    counts = [key.count(card) for card in range(KINDS)]
    return tuple(
        card for card in range(KINDS)
        if pack.copies(Card(card))
        and acceptance_of(codes, shape, held, counts, [int(c == card) for c in range(KINDS)])
    )


def improves(key: tuple[int, ...], card: int) -> bool:
    """Whether drawing or taking *card* brings the eight-card hand *key* closer to ready."""
    if key.count(card) >= COPIES:
        return False
    codes = codes_of(key)
    group = GROUP[card]
    if not codes[group] and sum(1 for code in codes if code) >= 3:
        return False  # see acceptance_of
    shape = shape_of(codes)
    old = codes[group]
    return shape_kept(shape - DIGIT[old] + DIGIT[old + WT[card]]) > shape_kept(shape)


def without(key: tuple[int, ...], card: int) -> tuple[int, ...]:
    index = key.index(card)
    return key[:index] + key[index + 1:]


def unseen(observation: Observation) -> list[int]:
    """Copies of each kind this seat has not seen (hand, discards, known cards), by card value.

    The list form of :meth:`Observation.unseen`: the live copies (0 for a kind its pack lacks).
    """
    pack = observation.rules.pack
    counts = [pack.copies(card) for card in CARDS]
    for card in (*observation.hand, *observation.seen()):
        counts[card] -= 1
    return [count if count > 0 else 0 for count in counts]


def avoid(observation: Observation) -> frozenset[int]:
    """The public waits of the other declared seats: discarding one hands them a ×2 win (R14)."""
    return frozenset(
        wait for seat, wait in enumerate(observation.declared_waits)
        if wait is not None and seat != observation.seat
    )


Score = tuple[int, int, int]


def discard_scores(hand: tuple[int, ...], options: Sequence[int], live: Sequence[int],
                   avoided: frozenset[int], every: bool = False,
                   pack: Pack = KOWAH_DECK) -> list[tuple[Score, int]]:
    """Score each discard of a nine-card hand: (safe, kept, acceptance), higher is better.

    *safe* is 0 for a declared seat's wait (R14: it would win at once), *kept* is 8 minus
    the distance left, *acceptance* the live copies of the improving cards, or for a ready
    hand the live copies of its best wait. A ready hand whose waits are all dead counts as
    one step short of ready. Acceptance is worked out only for the discards that keep most
    (the others score -1), unless *every*. *hand* is a sorted key of *pack*'s cards.
    """
    codes = codes_of(hand)
    shape9 = shape_of(codes)  # exact as an integer, even where a lookup of it would not be
    counts = [0] * KINDS
    for card in hand:
        counts[card] += 1
    firsts = []
    for card in dict.fromkeys(options):
        group = GROUP[card]
        old = codes[group]
        shape = shape9 - DIGIT[old] + DIGIT[old - WT[card]]
        firsts.append((0 if card in avoided else 1, shape_kept(shape), card, shape))
    top = max((safe, held) for safe, held, _, _ in firsts)
    scored = []
    for safe, held, card, shape in firsts:
        if (safe, held) != top and not every:
            scored.append(((safe, held, -1), card))
            continue
        if held == 8:
            best = max(live[wait] for wait in ready_waits(without(hand, card), pack))
            scored.append(((safe, 8, best) if best > 0 else (safe, 7, 0), card))
            continue
        group = GROUP[card]
        codes[group] -= WT[card]
        counts[card] -= 1
        scored.append(((safe, held, acceptance_of(codes, shape, held, counts, live)), card))
        codes[group] += WT[card]
        counts[card] += 1
    return scored


def best_discards(hand: tuple[int, ...], options: Sequence[int], live: Sequence[int],
                  avoided: frozenset[int], pack: Pack = KOWAH_DECK) -> list[int]:
    """The discards of *options* that :func:`discard_scores` rates best (exact ties)."""
    scored = discard_scores(hand, options, live, avoided, pack=pack)
    best = max(score for score, _ in scored)
    return [card for score, card in scored if score == best]


def declare_choice(options: Sequence[Action], live: Sequence[int], minimum: int = 1) -> Action | None:
    """The declaration with the most live copies of its wait, or ``None`` (pass) when it has
    fewer than *minimum*: a locked hand with a dead wait can never win (R11, R12)."""
    best: tuple[int, Action | None] = (-1, None)
    for action in options:
        if action.kind is DECLARE and action.card is not None and live[action.card] > best[0]:
            best = (live[action.card], action)
    return best[1] if best[0] >= minimum else None
