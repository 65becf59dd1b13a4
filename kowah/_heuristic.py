"""The players' fast evaluation of hands, shared by :mod:`kowah.players` and :mod:`kowah.coach`.

Private to the package; its names are public within it. How far a hand is from ready is
``kowah._ready_index``' one definition: the most cards of the hand that some ready hand contains
("kept", 8 minus :func:`kowah.hands.distance`). For the Kowah deck and the money pack a hand's
*shape* is one integer (``_ready_index.codes_of``, ``shape_of``) and adding or removing one card
changes one group, so the shape of every hand one card away is found by arithmetic and "does
this card improve the hand?" costs a dict lookup; for other packs the same questions go through
``_ready_index.kept_in``. tests/test_players.py checks these against ``hands.distance`` and
``hands.improvements``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kowah._ready_index import (
    CARDS,
    GROUP,
    GROUPS,
    SHAPE_DIGIT,
    WEIGHT,
    codes_of,
    group_cards,
    hand_key,
    kept_in,
    quick,
    ready_index,
)
from kowah._ready_index import kept as quick_kept
from kowah._ready_index import shape_kept as shape_kept
from kowah._ready_index import shape_of as shape_of
from kowah.actions import Action, ActionKind
from kowah.cards import KINDS, KOWAH_DECK, Card, Pack
from kowah.deal import Observation

DIGIT, WT = SHAPE_DIGIT, WEIGHT
GROUP_CARDS: tuple[tuple[int, ...], ...] = tuple(group_cards(group) for group in range(GROUPS))

DRAW, TAKE, DISCARD, DECLARE, PASS = (
    ActionKind.DRAW, ActionKind.TAKE, ActionKind.DISCARD, ActionKind.DECLARE, ActionKind.PASS,
)


def ready_waits(key: tuple[int, ...], pack: Pack = KOWAH_DECK) -> frozenset[Card]:
    """The waits of an eight-card hand (sorted key, a valid hand of *pack*) of card indices;
    empty when it is not ready. The index's own lookup: :func:`kowah.hands.waits` takes Card
    values only, and checks them."""
    index = ready_index(pack)
    position = index.find(hand_key(key))
    return index.waits(position) if position >= 0 else _NO_WAITS


_NO_WAITS: frozenset[Card] = frozenset()


def kept(key: Iterable[int], pack: Pack = KOWAH_DECK) -> int:
    """Most cards of an eight- (or nine-) card hand of *pack* that a ready hand contains
    (8 - distance)."""
    return quick_kept(key) if quick(pack) else (kept_in(key, pack) or 0)


def acceptance_of(codes: list[int], shape: int, held: int, counts: Sequence[int],
                  live: Sequence[int], pack: Pack = KOWAH_DECK) -> int:
    """Live copies of the cards that would bring an eight-card hand of a quick pack (its
    groups' *codes*, its *shape*, its *counts* by card) closer to ready. *held* is the hand's
    kept count.

    A card of a group the hand lacks can only help a hand of fewer than three groups: with
    three or more, whatever the card would do, a card already held does as well.
    """
    total = 0
    present = [group for group in range(GROUPS) if codes[group]]
    groups: Iterable[int] = present if len(present) >= 3 else range(GROUPS)
    copies = pack.counts
    for group in groups:
        old = codes[group]
        base = shape - DIGIT[old]
        for card in GROUP_CARDS[group]:
            if live[card] and counts[card] < copies[card] and shape_kept(base + DIGIT[old + WT[card]]) > held:
                total += live[card]
    return total


def _acceptance(key: tuple[int, ...], held: int, live: Sequence[int], pack: Pack) -> int:
    """:func:`acceptance_of` for any pack, through ``_ready_index.kept_in``."""
    if quick(pack):
        codes = codes_of(key)
        return acceptance_of(codes, shape_of(codes), held, [key.count(card) for card in range(KINDS)],
                             live, pack)
    return sum(live[card] for card in range(KINDS)
               if live[card] and key.count(card) < pack.counts[card]
               and (kept_in((*key, card), pack) or 0) > held)


def improving(key: tuple[int, ...], pack: Pack = KOWAH_DECK) -> tuple[int, ...]:
    """The kinds of card of *pack* that bring an eight-card hand (sorted key) closer to ready."""
    return tuple(card for card in range(KINDS) if pack.counts[card] and improves(key, card, pack))


def improves(key: tuple[int, ...], card: int, pack: Pack = KOWAH_DECK) -> bool:
    """Whether drawing or taking *card* brings the eight-card hand *key* of *pack* closer to ready."""
    if key.count(card) >= pack.counts[card]:
        return False
    if not quick(pack):
        return (kept_in((*key, card), pack) or 0) > kept(key, pack)
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
    """:meth:`Observation.unseen` as a list by card value (0 for a kind its pack lacks)."""
    copies = observation.unseen()
    return [copies.get(card, 0) for card in CARDS]


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
    fast = quick(pack)
    if fast:
        codes = codes_of(hand)
        shape9 = shape_of(codes)  # exact as an integer, even where a lookup of it would not be
        counts = [0] * KINDS
        for card in hand:
            counts[card] += 1
    firsts = []
    for card in dict.fromkeys(options):
        if fast:
            old = codes[GROUP[card]]
            shape = shape9 - DIGIT[old] + DIGIT[old - WT[card]]
            held = shape_kept(shape)
        else:
            shape, held = 0, kept(without(hand, card), pack)
        firsts.append((0 if card in avoided else 1, held, card, shape))
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
        if not fast:
            scored.append(((safe, held, _acceptance(without(hand, card), held, live, pack)), card))
            continue
        group = GROUP[card]
        codes[group] -= WT[card]
        counts[card] -= 1
        scored.append(((safe, held, acceptance_of(codes, shape, held, counts, live, pack)), card))
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
