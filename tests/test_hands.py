"""Ready hands, waits, splits, distance and improvements (R4–R8)."""

from __future__ import annotations

import functools
import itertools
import random
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support import cards, deck_hands, ref_splits, split_key

from kowah import (
    KOWAH_DECK,
    MONEY_PACK,
    Card,
    HandError,
    HandTypeError,
    KowahError,
    KowahTypeError,
    Pack,
    _ready_index,
    format_cards,
)
from kowah.hands import (
    DiscardOption,
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


@functools.cache
def _built(pack: Pack) -> dict[tuple[int, ...], frozenset[Card]]:
    """The rules' definition of the ready hands of *pack* (built once per test session)."""
    return _ready_index.build_table(pack)


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
def test_improvements_agree_with_their_definition(hand: list[Card], drawn: list[Card]) -> None:
    seen: list[Card] = []
    for card in drawn:  # cards seen elsewhere: with the hand, at most the pack's four copies
        if hand.count(card) + seen.count(card) < 4:
            seen.append(card)
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


# -- the shipped ready index (kowah/_ready, built by hatch_build.py) -----------------------------


@pytest.mark.parametrize("pack", [KOWAH_DECK, MONEY_PACK], ids=["kowah", "money"])
def test_the_shipped_index_equals_the_rules_definition(pack: Pack) -> None:
    """The data the package loads is exactly what the rules (build_table, R4–R8) give today.

    A stale file (made from other sources) would not be loaded; this also fails then, so the
    development install is rebuilt (``python3 dev.py test`` reinstalls when _ready_index.py changes).
    """
    data = _ready_index.read_data(pack)
    assert data is not None, "kowah/_ready is missing or stale: reinstall (pip install -e .)"
    rebuilt = _ready_index.encode(pack, _built(pack))
    assert data == rebuilt
    index = _ready_index.ReadyIndex(data)
    table = _built(pack)
    assert index.count == len(table)
    assert {index.hand(i): index.waits(i) for i in range(index.count)} == table


def test_an_index_built_without_the_data_answers_alike() -> None:
    """Without the shipped file the index is built from the rules: same answers (in a fresh
    process, whose first index is built after the file is taken away)."""
    import subprocess
    import sys

    code = ("import kowah._ready_index as tables\n"
            "from kowah import MONEY_PACK, is_ready, parse_cards, waits\n"
            "tables.read_data = lambda pack: None\n"
            "hand = parse_cards('ws ws ws mk mk mk gs gs', pack=MONEY_PACK)\n"
            "print(tables.ready_index(MONEY_PACK).count, is_ready(hand, MONEY_PACK),\n"
            "      ' '.join(map(str, waits(hand, MONEY_PACK))))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == [str(len(_built(MONEY_PACK))), "True", "gs"]


def test_a_pack_of_its_own_gets_its_own_index() -> None:
    small = Pack("two-copy pack", [2] * 30 + [0] * 3)
    assert is_ready(cards("1c 1c 1s 1s 1m 2c 2c 2s"), small)  # R7's 2+2+1 needs two copies only
    assert not is_ready(cards("1c 1c 1s 1s 1m 2c 2s 3m"), small)
    with pytest.raises(HandError, match="3 copies of '1c'"):
        is_ready(cards("1c 1c 1c 1s 1m 2c 2s 2m"), small)
    assert len(ready_hands(small)) == len(_built(small))


def test_ready_hands_is_a_read_only_view_of_every_ready_hand() -> None:
    table = ready_hands()
    assert len(table) == 100_416
    reference = _built(KOWAH_DECK)
    assert set(table) == set(reference)
    hand = cards("8c 5c 5s 5c 5s 5m 8c 8c")
    assert table[hand] == {Card.C5, Card.S5} == table[tuple(sorted(hand))]
    assert hand in table and cards("5c 5c 5c 5s 5s 8c 8s 8m") not in table
    odd: Any = ("5c",) * 8
    assert odd not in table and (odd, 1) not in table
    with pytest.raises(KeyError):
        table[cards("1c 2c 3c 4c 5c 6c 7c 8c")]
    assert not hasattr(table, "__setitem__")


# -- one validation for every path (answers never depend on warm-up) -----------------------------

ANY_HAND_FUNCTION: list[Callable[..., Any]] = [is_ready, waits, splits, distance, improvements]


def _outcome(function: Callable[..., object], hand: object) -> object:
    try:
        return function(hand)
    except HandError as error:
        return ("error", error.template)


def _reference(hand: list[object]) -> object:
    """What every function must say of *hand*: the check written from R3, then the rules (Card
    values only: a plain int, a bool or a float is no card)."""
    if not all(type(item) is Card for item in hand):
        return "bad"
    if len(hand) != 8:
        return "size"
    counts = Counter(hand)
    for item in sorted(counts):  # type: ignore[type-var]  # the first card in card order is named
        if not KOWAH_DECK.counts[item]:  # type: ignore[call-overload]
            return "absent"
        if counts[item] > 4:
            return "copies"
    return tuple(sorted(Card(item) for item in hand)) in _built(KOWAH_DECK)  # type: ignore[arg-type]


def _kind(result: object) -> object:
    if isinstance(result, tuple) and result[0] == "error":
        template = result[1]
        for word, kind in (("not a card", "bad"), ("must hold", "size"), ("is not in", "absent"),
                           ("copies", "copies")):
            if word in template:
                return kind
    return result


NOT_CARDS = st.one_of(st.integers(-70, 40), st.booleans(), st.floats(allow_nan=False), st.none())


@settings(max_examples=400)
@given(st.lists(st.sampled_from(list(Card)) | st.sampled_from([Card(i) for i in (0, 3, 6, 12, 28, 29)]),
                min_size=6, max_size=10),
       st.none() | st.tuples(st.integers(0, 9), NOT_CARDS))
def test_the_fast_paths_validate_exactly_as_the_rules_say(cards_: list[Card],
                                                          stray: tuple[int, object] | None) -> None:
    hand: list[object] = list(cards_)
    if stray is not None:  # one item that is no Card (a plain int, a card's index, is none)
        hand[stray[0] % len(hand)] = stray[1]
    expected = _reference(list(hand))
    for form in (list(hand), tuple(hand), iter(hand)):
        assert _kind(_outcome(is_ready, form)) == expected
    for form in (list(hand), tuple(hand)):
        found = _kind(_outcome(waits, form))
        assert found == expected if not isinstance(expected, bool) else (bool(found) == expected)
        result = _kind(_outcome(distance, form))
        if isinstance(expected, bool):
            assert (result == 0) == expected
        elif len(hand) != 9:
            assert result == expected


@given(deck_hands())
def test_is_ready_takes_the_hand_in_any_order_and_form(hand: list[Card]) -> None:
    expected = tuple(sorted(hand)) in _built(KOWAH_DECK)
    assert is_ready(hand) is expected
    assert is_ready(tuple(reversed(hand))) is expected
    assert is_ready(iter(hand)) is expected
    indices: Any = [int(card) for card in hand]
    with pytest.raises(HandTypeError, match=r"is not a card \(item 1 of the hand\)"):
        is_ready(indices)  # a card's index is no card: one rule for every function
    assert is_ready(hand, MONEY_PACK) is (tuple(sorted(hand)) in _built(MONEY_PACK))


def test_a_fresh_process_answers_as_a_warm_one() -> None:
    """is_ready([-1, 0, 0, 3, 3, 3, 6, 6]) raised when cold and said False when warm (issue 10)."""
    import subprocess
    import sys

    code = ("from kowah import Card, is_ready, HandError\n"
            "for _ in range(2):\n"
            "    try:\n"
            "        is_ready([-1, Card(0), Card(0), Card(3), Card(3), Card(3), Card(6), Card(6)])\n"
            "        print('answered')\n"
            "    except HandError:\n"
            "        print('refused')\n"
            "    is_ready([Card(i) for i in (0, 0, 0, 3, 3, 3, 6, 6)])\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["refused", "refused"]


@pytest.mark.parametrize("bad", [None, 5, "5c 5c", b"\x00\x00", 2.5])
def test_a_hand_that_is_no_collection_of_cards_is_a_hand_error(bad: object) -> None:
    """A hand error, and a type error like Deal(None, 0)'s (issue 19)."""
    for function in ANY_HAND_FUNCTION:
        with pytest.raises(HandError) as caught:
            function(bad)
        assert "sequence of Card values" in str(caught.value)
        assert isinstance(caught.value, KowahTypeError) and isinstance(caught.value, TypeError)


def test_items_that_are_not_cards_are_named() -> None:
    hand = [Card(i) for i in (0, 0, 0, 3, 3, 3, 6)]
    for stray, shown in ((6.0, "6.0"), (6, "6"), (True, "True"), (99, "99")):
        for function in ANY_HAND_FUNCTION:
            with pytest.raises(HandTypeError) as caught:
                function([*hand, stray])
            assert str(caught.value) == f"{shown} is not a card (item 8 of the hand)"
            assert isinstance(caught.value, KowahTypeError)
    with pytest.raises(HandTypeError) as caught:
        waits(["x" * 10_000] + [0] * 7)  # type: ignore[arg-type, list-item]
    assert len(str(caught.value)) < 120


def test_the_pack_must_be_a_pack() -> None:
    hand = cards("5c 5c 5s 5s 5m 8c 8c 8c")
    for function in ANY_HAND_FUNCTION:
        with pytest.raises(KowahTypeError, match="pack must be a Pack, such as KOWAH_DECK, not 'money'"):
            function(hand, pack="money")
    with pytest.raises(KowahTypeError, match="pack must be a Pack"):
        ready_hands("money")  # type: ignore[arg-type]


@pytest.mark.parametrize("seen", [None, 5, "8m 8m", b"8m"])
def test_seen_must_be_cards_not_text(seen: object) -> None:
    """improvements(hand, seen=None) raised a TypeError, and seen="8m 8m" was ignored: both refused."""
    hand = cards("5c 5c 5s 5s 5m 8c 8c 9m")
    for call in (lambda: improvements(hand, seen),  # type: ignore[arg-type]
                 lambda: discard_options([*hand, Card.C1], seen)):  # type: ignore[arg-type]
        with pytest.raises(HandError, match="the seen cards must be a sequence of Card values"):
            call()
    with pytest.raises(HandError, match=r"'8m' is not a card \(item 2 of the seen cards\)"):
        improvements(hand, [Card.M8, "8m"])  # type: ignore[list-item]


def test_five_copies_are_refused_wherever_they_sit() -> None:
    """The quick test finds a fifth copy in any of the 56 placements of five among eight."""
    for places in itertools.combinations(range(8), 5):
        others = iter([Card.C9, Card.S9, Card.RF])
        hand = [Card.C5 if place in places else next(others) for place in range(8)]
        for function in (is_ready, waits, distance):
            with pytest.raises(HandError, match="5 copies of '5c'"):
                function(hand)


def test_a_cold_index_and_a_warm_one_find_the_same_hands() -> None:
    """Lookups bisect the sorted keys; after WARM of them the keys, their positions and the sieve that
    is_ready reads are built: they agree with the bisection, and the sieve misses no ready hand."""
    data = _ready_index.read_data(KOWAH_DECK)
    assert data is not None
    cold, warm = _ready_index.ReadyIndex(data), _ready_index.ReadyIndex(data)
    warm.warm()
    assert not cold.keys and not cold.sieve and len(warm.keys) == warm.count > 100_000
    table = _built(KOWAH_DECK)
    ready = list(table)[::997]
    rng = random.Random(4)
    unready = [tuple(sorted(rng.sample(KOWAH_DECK.cards, 8))) for _ in range(200)]
    mask = (1 << _ready_index.SIEVE_BITS) - 1
    for hand in ready + unready:
        key = _ready_index.hand_key(hand)
        position = cold.find(key)
        assert position == warm.find(key) and (position >= 0) == (key in warm.keys) == (hand in table)
        assert position < 0 or warm.hand(position) == hand
        total = sum(_ready_index.KOWAH_WEIGHTS[card] for card in hand)  # what is_ready adds
        bit = total & mask
        assert warm.sieve[bit >> 3] >> (bit & 7) & 1 or hand not in table
    assert cold.keys  # it has warmed itself on the way (WARM lookups)


def test_splits_and_discard_options_are_frozen_values() -> None:
    import pickle

    split = splits(cards("9c 9s 9m 9c 9s 9m 1c 1c"))[-1]
    assert pickle.loads(pickle.dumps(split)) == split
    assert hash(split) == hash(Split(split.triples, split.pair))
    with pytest.raises(AttributeError):
        split.pair = (Card.C2, Card.C2)  # type: ignore[misc]
    option = discard_options(cards("5c 5c 5s 5s 5m 8c 8c 9m 1c"))[0]
    same = DiscardOption(option.discard, option.distance, dict(option.improvements))
    assert option == same and hash(option) == hash(same) and pickle.loads(pickle.dumps(option)) == option
    assert option != DiscardOption(option.discard, option.distance, {})
    with pytest.raises(TypeError):
        option.improvements[Card.C5] = 9  # type: ignore[index]  # read-only
    assert repr(option).startswith(f"DiscardOption(discard={option.discard!r}, distance=1, improvements={{")


def test_the_build_hook_needs_nothing_but_the_standard_library_and_attrs(tmp_path: Path) -> None:
    """hatch_build.py imports kowah._ready_index in the build environment (hatchling, Babel and attrs,
    the build-system requirements): it loads attrs, and no other package (Babel only to render)."""
    import subprocess
    import sys

    import attr
    import attrs

    for package in (attr, attrs):  # a folder holding attrs alone
        assert package.__file__ is not None
        (tmp_path / package.__name__).symlink_to(Path(package.__file__).parent)
    root = Path(__file__).resolve().parent.parent
    code = ("import sys; sys.path[:0] = sys.argv[1:]; import kowah._ready_index; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'attr', 'attrs', 'babel'}))")
    result = subprocess.run([sys.executable, "-S", "-c", code, str(root), str(tmp_path)], capture_output=True,
                            text=True, check=True, cwd=root.parent)
    assert result.stdout.strip() == "['attr', 'attrs']"
    build = tomllib.loads((root / "pyproject.toml").read_text())["build-system"]["requires"]
    assert any(requirement.startswith("attrs") for requirement in build)


# -- packs with any number of copies (R14's variants) ------------------------------------------------


@st.composite
def packs_and_hands(draw: st.DrawFn, size: int = 8) -> tuple[Pack, list[Card]]:
    """A pack of 4 to 9 kinds, 1 to 8 copies each, with a ready hand, and a hand of it."""
    kinds = draw(st.lists(st.sampled_from(list(Card)), min_size=4, max_size=9, unique=True))
    counts = [0] * 33
    for kind in kinds:
        counts[kind] = draw(st.integers(1, 8))
    pack = Pack("test pack", counts)
    assume(len(pack) >= size and _built(pack))  # a pack with a ready hand
    hand = draw(st.permutations(pack.cards))[:size]
    return pack, list(hand)


def _overlap(hand: list[Card], ready: tuple[int, ...]) -> int:
    held: Counter[int] = Counter(hand)
    return sum((held & Counter(ready)).values())


@settings(max_examples=60, deadline=None)
@given(packs_and_hands())
def test_distance_in_packs_of_one_to_eight_copies_agrees_with_brute_force(
        case: tuple[Pack, list[Card]]) -> None:
    """The shape solver for any pack: 8 minus the largest overlap with a ready hand of it."""
    pack, hand = case
    expected = 8 - max(_overlap(hand, ready) for ready in _built(pack))
    assert distance(hand, pack) == expected
    assert (expected == 0) == is_ready(hand, pack) == bool(waits(hand, pack))
    grown = [*hand, *[card for card in pack.kinds if hand.count(card) < pack.copies(card)][:1]]
    if len(grown) == 9:
        options = discard_options(grown, (), pack)
        assert options[0].distance == distance(grown, pack) == min(
            distance(grown[:i] + grown[i + 1:], pack) for i in range(9))
        better = improvements(hand, (), pack)
        assert all(pack.copies(card) - hand.count(card) == copies for card, copies in better.items())


def test_an_honours_only_pack_is_played_without_index_errors() -> None:
    """Honours only, eight of each: the solver, the coach and every player cope (they raised
    IndexError)."""
    import random

    from kowah import Deal, Rules
    from kowah.coach import advise
    from kowah.players import make_player
    from kowah.simulation import play_deal

    pack = Pack("honours", [0] * 27 + [8] * 6)
    hand = cards("ot ot ot ot ot rf rf rf")
    assert distance(hand, pack) == 1 and not is_ready(hand, pack)
    assert is_ready(cards("ot ot ot rf rf rf wf wf"), pack)
    rules = Rules(pack=pack)
    for name in ("random", "easy", "normal", "hard"):
        players = [make_player(name, random.Random(seat)) for seat in range(3)]
        deal = Deal.shuffled(4, rules)
        while not deal.is_over:
            seat = deal.actor
            advise(deal.observation(seat))
            deal.apply(players[seat].choose(deal.observation(seat), deal.legal_actions(seat)))
        assert play_deal(players, Deal.shuffled(5, rules)).is_over


def test_a_pack_in_which_no_hand_is_ever_ready_is_refused() -> None:
    from kowah import DeckError, Rules

    for counts in ([1] * 33, [1] * 27 + [0] * 6):  # no pair (R5)
        pack = Pack("odd", counts)
        assert not _built(pack)
        with pytest.raises(DeckError, match="no hand of the odd can ever be ready"):
            Rules(pack=pack)
        with pytest.raises(DeckError, match="no hand of the odd can ever be ready"):
            distance(pack.cards[:8], pack)
    pack = Pack("one pair", [1] * 27 + [2] + [0] * 5)  # two triples of mixed suits, ot ot
    assert Rules(pack=pack).pack is pack and len(_built(pack)) > 0


def test_seen_cards_must_be_cards_the_pack_still_holds() -> None:
    hand = cards("5c 5c 5s 5s 5m 8c 8s 9m")
    with pytest.raises(HandError, match="the hand and the seen cards hold 9 copies of '8m'"):
        improvements(hand, seen=[Card.M8] * 9)
    with pytest.raises(HandError, match="'ws' is not in the Kowah deck"):
        improvements(hand, seen=[Card.WS])
    with pytest.raises(KowahTypeError, match="the seen cards must be a sequence of Card values"):
        improvements(hand, seen=None)  # type: ignore[arg-type]
