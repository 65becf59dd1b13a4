"""Ready hands, waits, splits, distance and improvements (R4–R8)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import cards, deck_hands, ref_splits, split_key

from kowah import KOWAH_DECK, MONEY_PACK, Card, HandError, KowahError, Pack, format_cards
from kowah.hands import (
    Split,
    discard_options,
    distance,
    improvements,
    is_ready,
    ready_hands,
    splits,
    waits,
)

#: Two triples of ranks no example pair uses, to complete a hand around a triple or a pair.
FILLER_TRIPLE = "8c 8s 8m"
FILLER_PAIR = "2c 2c"


def split_keys(hand: tuple[Card, ...]) -> set[object]:
    return {split_key(split.triples, split.wait) for split in splits(hand)}


# -- R4: triples -----------------------------------------------------------------------------------


@pytest.mark.parametrize("triple", ["5c 5s 5m", "5c 5c 5s", "5c 5c 5c", "rf rf rf"])
def test_r4_triples(triple: str) -> None:
    """R4: `5c 5s 5m`, `5c 5c 5s`, `5c 5c 5c` and `rf rf rf` are triples."""
    hand = cards(f"{triple} {FILLER_TRIPLE} {FILLER_PAIR}")
    assert is_ready(hand)
    assert waits(hand) == {Card.C2}
    assert split_key([cards(triple), cards(FILLER_TRIPLE)], Card.C2) in split_keys(hand)


@pytest.mark.parametrize("not_triple", ["rf rf wf", "ot rf wf", "5c 6c 7c", "5c 5s ot", "1c 2s 3m"])
def test_r4_not_triples(not_triple: str) -> None:
    """R4: `rf rf wf` is not a triple: honours are distinct kinds, never wild; nor are runs."""
    hand = cards(f"{not_triple} {FILLER_TRIPLE} {FILLER_PAIR}")
    assert not is_ready(hand)
    assert waits(hand) == frozenset()
    assert splits(hand) == ()


# -- R5: pairs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("pair", "wait"), [("2c 2c", Card.C2), ("ot ot", Card.OT)])
def test_r5_pairs(pair: str, wait: Card) -> None:
    """R5: `2c 2c` and `ot ot` are pairs."""
    hand = cards(f"5c 5s 5m {FILLER_TRIPLE} {pair}")
    assert is_ready(hand)
    assert waits(hand) == {wait}


@pytest.mark.parametrize("not_pair", ["2c 2s", "ot rf", "2c 3c"])
def test_r5_not_pairs(not_pair: str) -> None:
    """R5: `2c 2s` is not a pair (same rank, different suits)."""
    hand = cards(f"5c 5s 5m {FILLER_TRIPLE} {not_pair}")
    assert not is_ready(hand)
    assert waits(hand) == frozenset()


# -- R6: ready hands ------------------------------------------------------------------------------


def test_r6_two_triples_may_share_a_rank() -> None:
    """R6: `9c 9s 9m 9c 9s 9m 1c 1c` is ready."""
    hand = cards("9c 9s 9m 9c 9s 9m 1c 1c")
    assert is_ready(hand)
    assert waits(hand) == {Card.C1}
    assert split_key([cards("9c 9s 9m"), cards("9c 9s 9m")], Card.C1) in split_keys(hand)
    # R4 lets the six nines split other ways too (`9c 9c 9s | 9s 9m 9m`); the wait stays 1c.
    assert {split.wait for split in splits(hand)} == {Card.C1}
    assert distance(hand) == 0


def test_r6_needs_eight_cards_in_two_triples_and_a_pair() -> None:
    assert not is_ready(cards("1c 2c 3c 4c 5c 6c 7c 8c"))
    assert not is_ready(cards("5c 5s 5m 8c 8s 8m 9c 9s"))  # two triples, no pair
    assert not is_ready(cards("5c 5c 8c 8c 9c 9c 1c 1c"))  # four pairs


# -- R7: the same-rank pair ----------------------------------------------------------------------


def test_r7_three_plus_two_is_not_ready() -> None:
    """R7: `5c 5c 5c 5s 5s 8c 8s 8m` is not ready (3+2)."""
    hand = cards("5c 5c 5c 5s 5s 8c 8s 8m")
    assert not is_ready(hand)
    assert waits(hand) == frozenset()
    assert splits(hand) == ()


def test_r7_three_plus_one_plus_one_is_not_ready() -> None:
    """R7: `5c 5c 5c 5s 5m 8c 8s 8m` is not ready (3+1+1)."""
    hand = cards("5c 5c 5c 5s 5m 8c 8s 8m")
    assert not is_ready(hand)
    assert waits(hand) == frozenset()


def test_r7_two_plus_two_plus_one_is_ready() -> None:
    """R7: `5c 5c 5s 5s 5m 8c 8c 8c` is ready."""
    hand = cards("5c 5c 5s 5s 5m 8c 8c 8c")
    assert is_ready(hand)
    assert distance(hand) == 0


def test_r7_applies_to_each_triple_that_shares_the_pair_rank() -> None:
    """R7: with pair 5c, `5s 5s 5m` obeys but `5c 5c 5s` does not; no other split works."""
    hand = cards("5c 5c 5c 5c 5s 5s 5s 5m")
    assert not is_ready(hand)
    # Both triples obey: ready, and only the Coins pair can be exposed.
    both = cards("5c 5c 5s 5s 5s 5m 5m 5m")
    assert is_ready(both)
    assert waits(both) == {Card.C5}
    assert split_keys(both) == {split_key([cards("5s 5s 5m"), cards("5s 5m 5m")], Card.C5)}


def test_r7_honour_pair_with_a_triple_of_its_kind_is_not_ready() -> None:
    """R7 for honours: five of one honour are never two + two + one (in a pack with eight rf)."""
    pack = Pack("eight red flowers", [4] * 28 + [8, 4, 0, 0, 0])
    assert not is_ready(cards("rf rf rf rf rf 5c 5s 5m"), pack=pack)
    assert is_ready(cards("rf rf rf rf rf 5c 5s 5m"), pack=pack) is False
    assert is_ready(cards("rf rf rf wf wf 5c 5s 5m"), pack=pack)


# -- R8: waits --------------------------------------------------------------------------------------


def test_r8_a_hand_can_offer_several_waits() -> None:
    """R8: in `5c 5c 5s 5s 5m …` the Coins or the Strings pair may be exposed: waits 5c and 5s."""
    hand = cards("5c 5c 5s 5s 5m 8c 8c 8c")
    assert waits(hand) == {Card.C5, Card.S5}
    assert split_keys(hand) == {
        split_key([cards("5s 5s 5m"), cards("8c 8c 8c")], Card.C5),
        split_key([cards("5c 5c 5m"), cards("8c 8c 8c")], Card.S5),
    }
    assert {split.wait for split in splits(hand)} == waits(hand)


def test_split_value() -> None:
    split = splits(cards("9c 9s 9m 9c 9s 9m 1c 1c"))[-1]
    assert isinstance(split, Split)
    assert split.pair == (Card.C1, Card.C1)
    assert split.wait is Card.C1
    assert str(split) == "9c 9s 9m | 9c 9s 9m | 1c 1c"


# -- hand errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("function", [is_ready, waits, splits, distance, improvements])
def test_wrong_size_is_a_hand_error(function: object) -> None:
    for hand in (cards("5c 5s 5m"), cards("5c 5s 5m 8c 8s 8m 2c"), ()):
        with pytest.raises(HandError) as caught:
            function(hand)  # type: ignore[operator]
        assert str(len(hand)) in str(caught.value)


@pytest.mark.parametrize("function", [is_ready, waits, splits, distance, improvements])
def test_ws_in_a_kowah_hand_is_a_hand_error(function: object) -> None:
    """R3: a card the deck lacks (`ws` in a Kowah hand) is an error naming the card."""
    with pytest.raises(HandError) as caught:
        function(cards("ws 5s 5m 8c 8s 8m 2c 2c"))  # type: ignore[operator]
    assert caught.value.card == "ws"
    assert "'ws'" in str(caught.value)
    assert "Kowah deck" in str(caught.value)


@pytest.mark.parametrize("function", [is_ready, waits, splits, distance, improvements])
def test_more_than_four_copies_is_a_hand_error(function: object) -> None:
    """R3: a hand holding more copies of a card than the deck has (4) is an error naming it."""
    with pytest.raises(HandError) as caught:
        function(cards("5c 5c 5c 5c 5c 8c 8s 8m"))  # type: ignore[operator]
    assert caught.value.card == "5c"
    assert "5 copies" in str(caught.value)
    assert "'5c'" in str(caught.value)


def test_non_cards_are_a_hand_error() -> None:
    for hand in (["5c"] * 8, [None] * 8, [-1] * 8, [40] * 8):
        with pytest.raises(HandError):
            is_ready(hand)  # type: ignore[arg-type]
        with pytest.raises(HandError):
            distance(hand)  # type: ignore[arg-type]


def test_the_money_pack_accepts_its_honours() -> None:
    hand = cards("ws ws ws mk mk mk gs gs")
    assert is_ready(hand, pack=MONEY_PACK)
    assert waits(hand, pack=MONEY_PACK) == {Card.GS}
    assert distance(hand, pack=MONEY_PACK) == 0
    assert issubclass(HandError, KowahError)


# -- distance, improvements, discard options: examples ------------------------------------------


def test_distance_examples() -> None:
    assert distance(cards("5c 5c 5s 5s 5m 8c 8c 8c")) == 0
    assert distance(cards("5c 5c 5s 5s 5m 8c 8s 9m")) == 1
    assert distance(cards("5c 5c 5c 5s 5s 8c 8s 8m")) == 1  # R7 breaks it: one exchange mends it
    assert distance(cards("1c 2c 3c 4c 5c 6c 7c 8c")) == 5
    assert distance(cards("5c 5c 5s 5s 5m 8c 8c 8c 9m")) == 0  # nine cards: after the best discard


def test_improvements_example_counts_unseen_copies() -> None:
    hand = cards("5c 5c 5s 5s 5m 8c 8c 9m")
    assert improvements(hand) == {
        Card.C5: 2, Card.S5: 2, Card.M5: 3, Card.C8: 2, Card.S8: 4, Card.M8: 4,
    }
    assert improvements(hand, seen=cards("8s 8s 8s 8s 5m 5m 5m")) == {
        Card.C5: 2, Card.S5: 2, Card.C8: 2, Card.M8: 4,
    }
    assert improvements(cards("5c 5c 5s 5s 5m 8c 8c 8c")) == {}  # ready: nothing improves it


# -- properties ------------------------------------------------------------------------------------


@functools.cache
def ready_bitsets() -> tuple[int, ...]:
    """Every ready hand of the deck as a bit set of (card, copy) pairs."""
    return tuple(bitset(key) for key in ready_hands(KOWAH_DECK))


def bitset(hand: object) -> int:
    counts = Counter(hand)  # type: ignore[call-overload]
    bits = 0
    for card, count in counts.items():
        bits |= ((1 << count) - 1) << (4 * int(card))
    return bits


def brute_distance(hand: list[Card]) -> int:
    """8 minus the largest multiset overlap with any ready hand of the deck."""
    mine = bitset(hand)
    return 8 - max(map(int.bit_count, map(mine.__and__, ready_bitsets())))


@settings(max_examples=100)
@given(deck_hands())
def test_distance_agrees_with_brute_force(hand: list[Card]) -> None:
    expected = brute_distance(hand)
    assert distance(hand) == expected
    assert (expected == 0) == is_ready(hand)


@given(deck_hands())
def test_distance_is_zero_exactly_for_ready_hands(hand: list[Card]) -> None:
    assert (distance(hand) == 0) == is_ready(hand)
    assert 0 <= distance(hand) <= 6


@given(deck_hands(9))
def test_distance_of_nine_cards_is_after_the_best_discard(hand: list[Card]) -> None:
    best = min(distance(hand[:i] + hand[i + 1:]) for i in range(9))
    assert distance(hand) == best


@given(deck_hands(), st.lists(st.sampled_from(KOWAH_DECK.kinds), max_size=12))
def test_improvements_agree_with_their_definition(hand: list[Card], seen: list[Card]) -> None:
    now = distance(hand)
    expected: dict[Card, int] = {}
    if now:
        for card in KOWAH_DECK.kinds:
            unseen = 4 - hand.count(card) - seen.count(card)
            if unseen <= 0:
                continue
            grown = [*hand, card]
            if min(distance(grown[:i] + grown[i + 1:]) for i in range(9)) < now:
                expected[card] = unseen
    assert improvements(hand, seen) == expected


@given(deck_hands(9))
def test_discard_options_agree_with_distance(hand: list[Card]) -> None:
    options = discard_options(hand)
    assert sorted(option.discard for option in options) == sorted(set(hand))
    for option in options:
        rest = list(hand)
        rest.remove(option.discard)
        assert option.distance == distance(rest)
        assert option.improvements == (improvements(rest) if option.distance else {})
        assert option.unseen == sum(option.improvements.values())
    keys = [(o.distance, -o.unseen, o.discard) for o in options]
    assert keys == sorted(keys)
    assert options[0].distance == distance(hand)


@settings(max_examples=150)
@given(deck_hands())
def test_ready_waits_and_splits_agree_with_a_reference_reading_of_the_rules(hand: list[Card]) -> None:
    reference = ref_splits(hand)
    assert is_ready(hand) == bool(reference), format_cards(sorted(hand))
    assert waits(hand) == {pair for _, pair in reference}
    assert {split_key(s.triples, s.wait) for s in splits(hand)} == reference
    assert len(set(splits(hand))) == len(splits(hand))


ANY_CARDS = st.lists(st.sampled_from(tuple(Card)), max_size=11)


def valid_kowah_hand(hand: list[Card], sizes: tuple[int, ...]) -> bool:
    return (
        len(hand) in sizes
        and all(card in KOWAH_DECK for card in hand)
        and max(Counter(hand).values()) <= 4
    )


@given(st.one_of(ANY_CARDS, deck_hands(), deck_hands(9)))
def test_hand_functions_raise_only_hand_error(hand: list[Card]) -> None:
    checks: tuple[tuple[Callable[[list[Card]], object], tuple[int, ...]], ...] = (
        (is_ready, (8,)), (waits, (8,)), (splits, (8,)), (distance, (8, 9)), (improvements, (8,)),
    )
    for function, sizes in checks:
        try:
            function(hand)
        except HandError as error:
            assert not valid_kowah_hand(hand, sizes), f"{function.__name__}: {error}"
        else:
            assert valid_kowah_hand(hand, sizes), function.__name__
