"""Helpers shared by the engine tests: deck building, random play, snapshots, a reference ready check.

Everything here is written from the rules (R4–R7, R9) without using the engine's own ready
table, so that the tests compare the engine with an independent reading of the rules.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

from hypothesis import strategies as st

from kowah import SEATS, Action, ActionKind, Deal
from kowah.cards import KOWAH_DECK, Card, Pack, parse_cards

#: The 120 cards of the Kowah deck in card order, and its 30 kinds.
DECK: tuple[Card, ...] = KOWAH_DECK.cards
KINDS: tuple[Card, ...] = KOWAH_DECK.kinds
#: The twelve groups of the Kowah deck (nine ranks, three honours), as lists of positions in DECK.
GROUP_POSITIONS: dict[int, list[int]] = {}
for _position, _card in enumerate(DECK):
    GROUP_POSITIONS.setdefault(_card.group, []).append(_position)
GROUPS: tuple[int, ...] = tuple(GROUP_POSITIONS)

Triple = tuple[Card, Card, Card]
SplitKey = tuple[tuple[Triple, Triple], Card]


# -- building decks ------------------------------------------------------------------------------


def build_deck(
    hands: tuple[str, str, str], stock: str = "", last: str = "", pack: Pack = KOWAH_DECK
) -> list[Card]:
    """A full deck order: the three hands, then *stock* (drawn first), the rest, then *last*.

    The cards not named are put in card order between *stock* and *last*.
    """
    named = [parse_cards(text, pack=None) for text in (*hands, stock, last)]
    assert all(len(hand) == 8 for hand in named[:3]), "each hand needs eight cards"
    used = Counter(card for part in named for card in part)
    remaining = Counter(pack.cards) - used
    assert not used - Counter(pack.cards), f"too many copies: {used - Counter(pack.cards)}"
    middle = [card for card in pack.kinds for _ in range(remaining[card])]
    deck = [*named[0], *named[1], *named[2], *named[3], *middle, *named[4]]
    assert sorted(deck) == list(pack.cards)
    return deck


def cards(text: str) -> tuple[Card, ...]:
    """Cards from codes, without the deck's checks (test shorthand)."""
    return parse_cards(text, pack=None)


def card(code: str) -> Card:
    return Card.parse(code)


# -- playing -------------------------------------------------------------------------------------


def choose(deal: Deal, rng: random.Random, greedy: float = 0.0) -> Action:
    """A legal action for some seat that may act now.

    With probability *greedy* a seat declares when it may and discards so as to get closer to
    ready, so that declarations, claims and self-draws happen often; otherwise the action is
    uniform over the legal actions of a seat chosen among those that may act (so that the seat
    to move sometimes acts while another seat could still declare: an implicit pass).
    """
    from kowah.hands import distance

    seats = deal.to_move()
    seat = seats[0] if len(seats) == 1 or rng.random() < 0.7 else seats[1]
    actions = deal.legal_actions(seat)
    assert actions, f"seat {seat} is to move but has no legal action"
    if rng.random() < greedy:
        declares = [a for a in actions if a.kind is ActionKind.DECLARE]
        if declares:
            return rng.choice(declares)
        discards = [a for a in actions if a.kind is ActionKind.DISCARD]
        if len(discards) > 1:
            hand = list(deal.hand(seat))

            def left(action: Action) -> int:
                rest = list(hand)
                assert action.card is not None
                rest.remove(action.card)
                return distance(rest, deal.rules.pack)

            best = min(map(left, discards))
            return rng.choice([a for a in discards if left(a) == best])
        if any(a.kind is ActionKind.TAKE for a in actions) and rng.random() < 0.3:
            return Action.take(seat)
        if any(a.kind is ActionKind.DRAW for a in actions):
            return Action.draw(seat)
    return actions[int(rng.random() * len(actions))]


def play(deal: Deal, rng: random.Random, steps: int | None = None, greedy: float = 0.0) -> int:
    """Apply up to *steps* chosen actions (all, until the deal ends, when None); return how many."""
    done = 0
    while not deal.is_over and (steps is None or done < steps):
        deal.apply(choose(deal, rng, greedy))
        done += 1
    return done


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal, to check that a failed action changed nothing."""
    return (
        tuple(deal.hand(seat) for seat in range(SEATS)),
        tuple(deal.discards(seat) for seat in range(SEATS)),
        tuple(deal.declared_wait(seat) for seat in range(SEATS)),
        deal.stock,
        deal.stock_count,
        deal.turn,
        deal.phase,
        deal.outcome,
        deal.latest_discard,
        deal.declaring_seat,
        deal.to_move(),
        tuple(deal.events),
        deal.history,
        tuple(deal.legal_actions(seat) for seat in range(SEATS)),
        tuple(deal.observation(seat) for seat in range(SEATS)),
        repr(deal),
    )


# -- a reference reading of R4–R7 ----------------------------------------------------------------


def ref_is_triple(three: Sequence[Card]) -> bool:
    """R4: three suit cards of one rank, any suits; or three honours of one kind."""
    first = three[0]
    if first.is_honour:
        return all(other == first for other in three)
    return all(not other.is_honour and other.rank == first.rank for other in three)


def ref_same_rank_ok(triple: Triple, pair: Card) -> bool:
    """R7 for one triple: sharing the pair's rank, the five cards go two + two + one by suit."""
    if pair.is_honour or triple[0].is_honour:
        return pair != triple[0]  # honours: a triple of the pair's own kind would be five of a kind
    if triple[0].rank != pair.rank:
        return True
    suits = Counter(c.suit for c in (*triple, pair, pair))
    return sorted(suits.values()) == [1, 2, 2]


def ref_raw_splits(hand: Iterable[Card]) -> set[SplitKey]:
    """Every split of eight cards into two R4 triples and an R5 pair, R7 not yet applied."""
    hand = sorted(hand)
    found: set[SplitKey] = set()
    if len(hand) != 8:
        return found
    for i, j in itertools.combinations(range(8), 2):
        if hand[i] != hand[j]:
            continue  # R5: a pair is two identical cards
        rest = [c for k, c in enumerate(hand) if k not in (i, j)]
        for chosen in itertools.combinations(range(1, 6), 2):
            first = (rest[0], rest[chosen[0]], rest[chosen[1]])
            second = tuple(c for k, c in enumerate(rest) if k not in (0, *chosen))
            assert len(second) == 3
            if ref_is_triple(first) and ref_is_triple(second):
                triples = tuple(sorted((first, tuple(sorted(second)))))
                found.add((triples, hand[i]))  # type: ignore[arg-type]
    return found


def ref_splits(hand: Iterable[Card]) -> set[SplitKey]:
    """Every split that makes the hand ready (R6, R7)."""
    return {
        split for split in ref_raw_splits(hand)
        if all(ref_same_rank_ok(triple, split[1]) for triple in split[0])
    }


def ref_waits(hand: Iterable[Card]) -> set[Card]:
    """R8: the pair card of every ready split."""
    return {pair for _, pair in ref_splits(hand)}


def split_key(triples: Iterable[Sequence[Card]], pair: Card) -> SplitKey:
    ordered = sorted(tuple(sorted(triple)) for triple in triples)
    return (tuple(ordered), pair)  # type: ignore[return-value]


# -- strategies ----------------------------------------------------------------------------------


def deck_hands(size: int = 8) -> st.SearchStrategy[list[Card]]:
    """Hands of *size* cards of the Kowah deck (at most four copies), often from few groups."""
    anywhere = st.lists(
        st.integers(0, len(DECK) - 1), min_size=size, max_size=size, unique=True
    )
    few_groups = (
        st.lists(st.sampled_from(GROUPS), min_size=2, max_size=4, unique=True)
        .map(lambda groups: [p for g in groups for p in GROUP_POSITIONS[g]])
        .filter(lambda pool: len(pool) >= size)
        .flatmap(lambda pool: st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    )
    return st.one_of(anywhere, few_groups).map(lambda positions: [DECK[p] for p in positions])


@st.composite
def built_splits(draw: st.DrawFn) -> tuple[Triple, Triple, Card]:
    """Two R4 triples and an R5 pair from the Kowah deck, within its four copies (R7 not applied)."""
    pair = draw(st.sampled_from(KINDS))

    def triple() -> Triple:
        group = draw(st.one_of(st.just(pair.group), st.sampled_from(GROUPS)))
        options = sorted({DECK[p] for p in GROUP_POSITIONS[group]})
        picked = draw(st.lists(st.sampled_from(options), min_size=3, max_size=3))
        if options[0].is_honour:
            picked = [options[0]] * 3
        return tuple(sorted(picked))  # type: ignore[return-value]

    first, second = triple(), triple()
    counts = Counter((*first, *second, pair, pair))
    from hypothesis import assume

    assume(max(counts.values()) <= 4)
    return first, second, pair


def relabel(card: Card, order: Sequence[int]) -> Card:
    """The card with its suit moved by a permutation of the three suits (honours stay)."""
    if card.is_honour:
        return card
    return Card(card - card % 3 + order[card % 3])


def load_file(path: Path, name: str) -> ModuleType:
    """The Python file at *path* (a docs example, a benchmark), imported as module *name*."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
