"""The deal engine: bookkeeping, legal actions, illegal actions, observations, the fast playout."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from support import build_deck, choose, play, snapshot

from kowah import (
    KOWAH_DECK,
    KOWAH_RULES,
    MONEY_PACK,
    MONEY_RULES,
    SEATS,
    Action,
    ActionError,
    ActionKind,
    ActionTypeError,
    Card,
    Deal,
    DeckError,
    DrawnBy,
    Event,
    EventKind,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    Observation,
    Outcome,
    Pack,
    Phase,
    Reason,
    RecordError,
    Refusal,
    Rules,
)
from kowah.record import Record
from kowah.simulation import random_playout

SEEDS = st.integers(0, 2**32)
#: How a deal is driven in these tests: uniformly at random, or mostly towards ready hands (so
#: that declarations, locked hands, claims and self-draws happen in most deals).
GREEDINESS = st.sampled_from([0.0, 0.8, 0.95])


def hand_sizes(deal: Deal) -> list[int]:
    return [len(deal.hand(seat)) for seat in range(SEATS)]


# -- construction ---------------------------------------------------------------------------------


def test_deck_errors() -> None:
    deck = list(KOWAH_DECK.cards)
    for bad in (deck[:-1], [*deck, Card.C1], [*deck[:-1], Card.WS]):
        with pytest.raises(DeckError):
            Deal(bad, 0)
    for first, error in ((3, DeckError), (-1, DeckError), (True, KowahTypeError), ("0", KowahTypeError),
                         (None, KowahTypeError), (Card.S1, KowahTypeError), (1.0, KowahTypeError)):
        # One rule for a wrong type (a bool and an IntEnum included): KowahTypeError.
        makers: list[Callable[[], object]] = [lambda first=first: Deal(deck, first)]  # type: ignore[misc]
        if first is not None:  # shuffled(first=None) draws the first seat
            makers.append(lambda first=first: Deal.shuffled(1, first=first))  # type: ignore[misc]
        for make in makers:
            with pytest.raises(error) as caught:
                make()
            assert repr(first) in str(caught.value)
            assert error is KowahTypeError or not isinstance(caught.value, TypeError)
    assert issubclass(DeckError, KowahError)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (None, "a deck must be a sequence of Card values, not None of type NoneType"),
        (5, "a deck must be a sequence of Card values, not 5 of type int"),
        ("5c 5s", "a deck must be a sequence of Card values, not '5c 5s' of type str"),
        ([int(card) for card in KOWAH_DECK.cards], "card 1 of the deck is 0 of type int, not a Card"),
        ([*KOWAH_DECK.cards[:-1], "mk"], "card 120 of the deck is 'mk' of type str, not a Card"),
    ],
)
def test_a_deck_of_the_wrong_type_is_a_kowah_type_error(deck: object, message: str) -> None:
    with pytest.raises(KowahTypeError) as caught:
        Deal(deck, 0)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) and str(caught.value) == message


def test_rules_and_seeds_of_the_wrong_type_are_kowah_type_errors() -> None:
    deck = KOWAH_DECK.cards
    for bad in (MONEY_PACK, "money", None):
        with pytest.raises(KowahTypeError, match="rules must be a Rules value"):
            Deal(deck, 0, bad)  # type: ignore[arg-type]
        with pytest.raises(KowahTypeError, match="rules must be a Rules value") as caught:
            Deal.shuffled(rules=bad)  # type: ignore[arg-type]
        assert repr(bad)[:20] in str(caught.value)
    with pytest.raises(KowahTypeError, match=r"rules must be a Rules value.* not 0 of type int"):
        Deal.shuffled(7, 0)  # type: ignore[arg-type]  # 0.1's positional pack
    for seed in ("7", 2.5, True, [1]):
        with pytest.raises(KowahTypeError, match=r"a seed must be an int or a random\.Random"):
            Deal.shuffled(seed)  # type: ignore[arg-type]
    for first, error in ((3, DeckError), (True, KowahTypeError), ("1", KowahTypeError)):
        with pytest.raises(error, match="the first seat must be 0, 1 or 2"):
            Deal.shuffled(1, first=first)  # type: ignore[arg-type]


def test_a_pack_too_small_for_three_hands_and_a_stock_is_refused() -> None:
    tiny = Pack("tiny pack", [1] * 24 + [0] * 9)
    with pytest.raises(DeckError, match="the tiny pack has 24 cards: too few for three hands of 8 "
                                        "and a stock"):
        Rules(pack=tiny)
    with pytest.raises(KowahTypeError, match="a pack must be a Pack"):
        Rules(pack="money")  # type: ignore[arg-type]
    just = Rules(pack=Pack("small pack", [2] * 12 + [1] + [0] * 20))  # one card to draw: R16 at once
    deal = Deal.shuffled(1, just)
    deal.apply(Action.draw(deal.turn))
    assert deal.outcome == Outcome.drawn(DrawnBy.EXHAUSTION) and deal.rules is just


def test_rules_name_their_pack() -> None:
    assert Rules() == KOWAH_RULES and KOWAH_RULES.pack is KOWAH_DECK
    assert (KOWAH_RULES.pack_name, MONEY_RULES.pack_name) == ("kowah", "money")
    assert Rules.from_pack_name("kowah") is KOWAH_RULES and Rules.from_pack_name("money") is MONEY_RULES
    assert Rules(pack=Pack("other", [4] * 29 + [0] * 4)).pack_name is None  # no record name
    with pytest.raises(DeckError, match="unknown pack 'Money'"):
        Rules.from_pack_name("Money")
    with pytest.raises(KowahTypeError):
        Rules.from_pack_name(None)  # type: ignore[arg-type]
    assert eval(repr(MONEY_RULES), {"Rules": Rules, "MONEY_PACK": MONEY_PACK}) == MONEY_RULES
    with pytest.raises(AttributeError):
        KOWAH_RULES.pack = MONEY_PACK  # type: ignore[misc]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda deck: [*deck[:-1], Card.WS], "card 120 of the deck, ws, is not in the Kowah deck"),
        (lambda deck: [Card.MK, *deck], "card 1 of the deck, mk, is not in the Kowah deck"),
        (lambda deck: [*deck, Card.C5],
         "the deck holds 5 copies of 5c, but the Kowah deck has 4 (first extra copy: card 121)"),
        (lambda deck: [*deck[:-1], Card.C5],
         "the deck holds 5 copies of 5c, but the Kowah deck has 4 (first extra copy: card 120)"),
        (lambda deck: [*deck, Card.C5, Card.C5],
         "the deck holds 6 copies of 5c, but the Kowah deck has 4 (first extra copy: card 121)"),
        (lambda deck: deck[:104] + deck[105:],  # one 9m fewer
         "the deck has 119 cards, but the Kowah deck has 120: a copy of 9m is missing"),
        (lambda deck: deck[4:], "the deck has 116 cards, but the Kowah deck has 120: "
                                "a copy of 1c is missing"),
        (lambda deck: [], "the deck has 0 cards, but the Kowah deck has 120: a copy of 1c is missing"),
    ],
)
def test_deck_errors_say_what_is_wrong(change: Callable[[list[Card]], list[Card]], message: str) -> None:
    """A card the pack lacks, too many copies of a card, or too few cards: each said as such."""
    with pytest.raises(DeckError) as caught:
        Deal(change(list(KOWAH_DECK.cards)), 0)
    assert str(caught.value) == message
    assert "exactly once" not in str(caught.value)


def test_deck_errors_name_the_pack() -> None:
    deck = list(MONEY_PACK.cards)
    with pytest.raises(DeckError) as caught:
        Deal(deck[:-1], 0, MONEY_RULES)
    assert str(caught.value) == "the deck has 131 cards, but the money pack has 132: a copy of mk is missing"
    assert caught.value.params["pack"] == "money pack"
    Deal(deck, 0, MONEY_RULES)  # the whole money pack is a deck for it
    with pytest.raises(DeckError, match="card 121 of the deck, ws, is not in the Kowah deck"):
        Deal(deck, 0)


def test_actions_are_shared_values_with_text_forms() -> None:
    assert Action.draw(1) is Action.draw(1) == Action(1, ActionKind.DRAW)
    assert Action.discard(2, Card.C5) == Action(2, ActionKind.DISCARD, Card.C5)
    assert str(Action.discard(2, Card.C5)) == "discard 5c"
    assert str(Action.declare(0, Card.OT)) == "declare ot"
    assert str(Action.pass_(0)) == "pass"
    for action in (Action.draw(0), Action.take(1), Action.discard(2, Card.RF),
                   Action.declare(0, Card.S9), Action.pass_(2)):
        assert eval(repr(action), {"Action": Action, "Card": Card}) == action


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: Action.draw(-2), ActionError, "there is no seat -2"),
        (lambda: Action.take(3), ActionError, "there is no seat 3"),
        (lambda: Action.pass_(-1), ActionError, "there is no seat -1"),
        (lambda: Action.declare(-1, Card.C5), ActionError, "there is no seat -1"),
        (lambda: Action.draw(True), ActionTypeError,
         "a seat must be an int (0, 1 or 2), not True of type bool"),
        (lambda: Action.draw(1.0), ActionTypeError, "not 1.0 of type float"),  # type: ignore[arg-type]
        (lambda: Action.draw("0"), ActionTypeError, "not '0' of type str"),  # type: ignore[arg-type]
        (lambda: Action(True, ActionKind.DRAW), ActionTypeError, "not True of type bool"),
        (lambda: Action(1, "discard", Card.C5), ActionTypeError,  # type: ignore[arg-type]
         "an action's kind must be an ActionKind, not 'discard' of type str"),
        (lambda: Action(1, ActionKind.DRAW, Card.C5), ActionError,
         "a draw, take or pass names no card, not Card.C5"),
        (lambda: Action(1, ActionKind.PASS, Card.C5), ActionError, "names no card"),
        (lambda: Action(1, ActionKind.DISCARD), ActionError, "a discard must name a card"),
        (lambda: Action.discard(0, 26), ActionTypeError,  # type: ignore[arg-type]
         "26 is not a card: a discard or a wait is a Card, such as Card.parse('5c')"),
        (lambda: Action.discard(0, "5c"), ActionTypeError, "'5c' is not a card"),  # type: ignore[arg-type]
        (lambda: Action.declare(0, 3), ActionTypeError, "3 is not a card"),  # type: ignore[arg-type]
    ],
)
def test_no_invalid_action_can_be_built(build: Callable[[], object], error: type[Exception],
                                        message: str) -> None:
    """Today's bugs: Action(1, "discard", card) applied as a take, Action.draw(True) as seat 1,
    Action.discard(0, 26) as 9m. The constructor and the class methods agree."""
    with pytest.raises(error) as caught:
        build()
    assert message in str(caught.value)
    assert isinstance(caught.value, ActionError)
    assert isinstance(caught.value, TypeError) == (error is ActionTypeError)


def test_actions_are_frozen_and_shared() -> None:
    import copy
    import pickle

    action = Action.discard(0, Card.C5)
    with pytest.raises(AttributeError):
        action.card = Card.C6  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(action)) is action and copy.deepcopy(action) is action
    same = Action(0, ActionKind.DISCARD, Card.C5)
    assert same == action and hash(same) == hash(action)
    assert Action.declare(0, None) == Action(0, ActionKind.DECLARE)
    assert str(Action.declare(0, None)) == "declare"


ALL_ACTIONS = [Action.draw(s) for s in range(SEATS)] + [Action.take(s) for s in range(SEATS)] + [
    Action.pass_(s) for s in range(SEATS)] + [Action.declare(s, None) for s in range(SEATS)] + [
    f(s, card) for s in range(SEATS) for card in Card for f in (Action.discard, Action.declare)]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=repr)
def test_text_and_dict_forms_round_trip(action: Action) -> None:
    assert Action.parse(str(action), seat=action.seat) is action
    assert Action.parse(str(action).upper(), seat=action.seat) is action
    assert Action.from_dict(action.to_dict()) is action
    entry = {key: value for key, value in action.to_dict().items() if key != "seat"}
    assert Action.from_dict(entry, seat=action.seat) is action
    assert eval(repr(action), {"Action": Action, "Card": Card}) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty text is not an action"),
        ("   ", "empty text is not an action"),
        ("fly", "unknown action 'fly' in 'fly' (draw, take, discard, declare or pass)"),
        ("dr\u0131w", "unknown action"),  # a dotless i does not fold to "draw"
        ("discard", "a discard must name a card"),
        ("discard zz", "unknown card code 'zz' in the action 'discard zz'"),
        ("discard 5c 5s", "a discard or a declaration names one card, not '5c 5s'"),
        ("draw 5c", "a draw, take or pass names no card, not '5c'"),
        ("discard " + "x" * 100_000, "unknown card code 'xxxx"),
    ],
)
def test_bad_action_text_names_the_token(text: str, message: str) -> None:
    with pytest.raises(ActionError) as caught:
        Action.parse(text, seat=0)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 200  # what it quotes is shortened
    with pytest.raises(ActionTypeError):
        Action.parse(None, seat=0)  # type: ignore[arg-type]
    with pytest.raises(ActionError):
        Action.parse("draw", seat=3)


@pytest.mark.parametrize(
    ("entry", "seat", "message"),
    [
        ({"do": "draw"}, None, "missing key 'seat'"),
        ({"seat": 0}, None, "missing key 'do'"),
        ({"seat": 3, "do": "draw"}, None, "'seat' must be 0, 1 or 2, not 3"),
        ({"seat": True, "do": "draw"}, None, "'seat' must be 0, 1 or 2, not True"),
        ({"seat": 1, "do": "draw"}, 0, "the action belongs to seat 1, not seat 0"),
        ({"seat": 0, "do": "jump"}, None, "unknown action 'jump'"),
        ({"seat": 0, "do": ["draw"]}, None, "unknown action ['draw']"),
        ({"seat": 0, "do": "discard"}, None, "missing key 'card'"),
        ({"seat": 0, "do": "discard", "card": "zz"}, None, "'card' must be a card code, not 'zz'"),
        ({"seat": 0, "do": "discard", "card": 5}, None, "'card' must be a card code, not 5"),
        ({"seat": 0, "do": "declare", "wait": None}, None, "'wait' must be a card code, not None"),
    ],
)
def test_bad_action_dicts_name_the_key(entry: dict[str, object], seat: int | None, message: str) -> None:
    with pytest.raises(ActionError) as caught:
        Action.from_dict(entry, seat=seat)
    assert message in str(caught.value)
    with pytest.raises(ActionTypeError):
        Action.from_dict(["draw"])  # type: ignore[arg-type]


def test_is_legal_and_why_illegal_refuse_what_is_not_an_action() -> None:
    deal = Deal.shuffled(1)
    for check in (deal.is_legal, deal.why_illegal, deal.apply):
        with pytest.raises(ActionTypeError, match="expected an Action, not 'x' of type str"):
            check("x")  # type: ignore[arg-type]


def test_copy_is_independent() -> None:
    deal = Deal.shuffled(4)
    play(deal, random.Random(4), 20, greedy=0.8)
    copy = deal.copy()
    assert snapshot(copy) == snapshot(deal)
    before = snapshot(deal)
    play(copy, random.Random(5), None, greedy=0.8)
    assert snapshot(deal) == before


def test_apply_rejects_what_is_not_an_action() -> None:
    deal = Deal.shuffled(1)
    before = snapshot(deal)
    for thing, text in (("draw", "'draw' of type str"), (None, "None of type NoneType"),
                        (Action, "<class 'kowah.actions.Action'> of type type"),
                        (list(range(1000)), "of type list")):
        for check in (deal.apply, deal.is_legal):
            with pytest.raises(ActionTypeError) as caught:
                check(thing)  # type: ignore[arg-type]
            error = caught.value
            assert isinstance(error, KowahError) and isinstance(error, TypeError)
            assert str(error).startswith("expected an Action, not ") and text in str(error)
            assert "seat" not in str(error)  # no made-up seat
            assert len(str(error)) < 120  # a long value is abridged
            assert snapshot(deal) == before


NO_SEATS = [3, 7, -1, -3, True, False, 1.0, "0", None]


@pytest.mark.parametrize("seat", NO_SEATS)
def test_methods_taking_a_seat_reject_a_seat_that_does_not_exist(seat: object) -> None:
    deal = Deal.shuffled(1)
    over = Deal.shuffled(2)
    play(over, random.Random(2), None, 0.8)
    assert over.is_over
    for each in (deal, over):
        before = snapshot(each)
        for method in (each.legal_actions, each.hand, each.declared_wait, each.discards,
                       each.observation):
            if seat is None and method == each.legal_actions:
                continue  # legal_actions() without a seat: whoever may act
            with pytest.raises(KowahError) as caught:
                method(seat)  # type: ignore[arg-type]
            assert str(caught.value) == f"there is no seat {seat!r}"
            # A seat of the wrong type is a TypeError too; a wrong number is not.
            wrong_type = not isinstance(seat, int) or isinstance(seat, bool)
            assert isinstance(caught.value, KowahTypeError) == wrong_type
            assert caught.value.template == "there is no seat {seat}"
        assert snapshot(each) == before


def test_methods_taking_a_seat_accept_an_int_subclass() -> None:
    class Seat(int):
        pass

    deal = Deal.shuffled(3)  # seat 1 opens
    assert deal.legal_actions(Seat(1)) == (Action.draw(1),)
    assert deal.hand(Seat(2)) == deal.hand(2) and deal.declared_wait(Seat(0)) is None
    assert deal.discards(Seat(0)) == () and deal.observation(Seat(1)) == deal.observation(1)


# -- bookkeeping ----------------------------------------------------------------------------------


@settings(max_examples=25)
@given(SEEDS, GREEDINESS)
def test_every_card_is_in_exactly_one_place_and_hands_hold_eight_between_turns(
    seed: int, greedy: float
) -> None:
    deal = Deal.shuffled(seed)
    rng = random.Random(seed)
    whole = Counter(deal.deck)
    while True:
        places = deal.where()
        assert sum(len(cards) for cards in places.values()) == 120
        assert Counter(card for cards in places.values() for card in cards) == whole
        assert places["stock"] == list(deal.stock)
        sizes = hand_sizes(deal)
        if deal.phase is Phase.START:
            assert sizes == [8, 8, 8]
        elif deal.phase is Phase.DISCARD:
            assert sizes[deal.turn] == 9
            assert sorted(sizes) == [8, 8, 9]
        else:
            assert sorted(sizes) in ([8, 8, 8], [8, 8, 9])
        assert deal.stock_count + sum(sizes) + sum(len(deal.discards(s)) for s in range(SEATS)) == 120
        # Legal actions are exactly those of the seats to move, and every one is legal.
        for seat in range(SEATS):
            actions = deal.legal_actions(seat)
            assert bool(actions) == (seat in deal.to_move())
            assert all(deal.is_legal(action) and action.seat == seat for action in actions)
            assert len(set(actions)) == len(actions)
        if deal.is_over:
            break
        deal.apply(choose(deal, rng, greedy))
    assert deal.outcome is not None
    assert deal.to_move() == ()
    if deal.outcome.result == "drawn":
        assert deal.stock_count == 0


# -- illegal actions ------------------------------------------------------------------------------

ANY_ACTION = st.sampled_from(ALL_ACTIONS)


@settings(max_examples=60)
@given(SEEDS, st.integers(0, 220), GREEDINESS, st.lists(ANY_ACTION, min_size=1, max_size=8))
def test_illegal_actions_raise_and_change_nothing(
    seed: int, steps: int, greedy: float, tries: list[Action]
) -> None:
    deal = Deal.shuffled(seed)
    play(deal, random.Random(seed), steps, greedy)
    for action in tries:
        legal = action in deal.legal_actions(action.seat)
        if action.kind is ActionKind.DECLARE and action.card is None:  # the only wait (R8)
            legal = [a.kind for a in deal.legal_actions(action.seat)].count(ActionKind.DECLARE) == 1
        assert deal.is_legal(action) == legal, action
        assert (deal.why_illegal(action) is None) == legal
        # A declaration without its wait is legal, but the listed declarations name it.
        listed = legal and not (action.kind is ActionKind.DECLARE and action.card is None)
        assert (action in deal.legal_actions()) == listed
        if legal:
            continue
        before = snapshot(deal)
        refusal = deal.why_illegal(action)
        assert refusal is not None and refusal.action is action
        with pytest.raises(IllegalActionError) as caught:
            deal.apply(action)
        error = caught.value
        assert error.seat == action.seat and error.action is action
        assert error.refusal == refusal and error.reason is refusal.reason
        assert isinstance(error.reason, Reason)
        assert f"seat {action.seat}" in str(error) and str(action) in str(error)
        assert str(refusal) in str(error)
        assert snapshot(deal) == before


@settings(max_examples=30)
@given(SEEDS, st.integers(0, 220))
def test_other_seats_actions_are_illegal(seed: int, steps: int) -> None:
    deal = Deal.shuffled(seed)
    play(deal, random.Random(seed), steps, 0.8)
    movers = deal.to_move()
    for seat in range(SEATS):
        if seat in movers:
            continue
        for action in (*deal.legal_actions(deal.turn), Action.draw(seat), Action.take(seat)):
            probe = Action(seat, action.kind, action.card)
            assert not deal.is_legal(probe)
            before = snapshot(deal)
            with pytest.raises(IllegalActionError):
                deal.apply(probe)
            assert snapshot(deal) == before


# -- observations never leak ----------------------------------------------------------------------


def hidden_from(deal: Deal, seat: int) -> list[int]:
    """Deck positions whose cards *seat* has never seen.

    They are the stock not yet drawn, and the cards other undeclared seats hold that were never
    shown: dealt to them, or drawn before any declaration (R13), and not taken from the discards.
    """
    replay = Deal(deal.deck, deal.first, deal.rules)
    end = len(deal.deck)
    held: list[list[tuple[int, bool]]] = [
        [(position, False) for position in range(8 * s, 8 * s + 8)] for s in range(SEATS)
    ]  # each seat's cards as (deck position, shown to all)
    piles: list[list[int]] = [[] for _ in range(SEATS)]
    for action in deal.history:
        mover = action.seat
        if action.kind is ActionKind.DRAW:
            shown = any(replay.declared_wait(s) is not None for s in range(SEATS))
            held[mover].append((end - replay.stock_count, shown))
        elif action.kind is ActionKind.TAKE:
            held[mover].append((piles[(mover - 1) % SEATS].pop(), True))
        elif action.kind is ActionKind.DISCARD:
            # Copies are alike; leave a copy that was never shown in the hand when one is there.
            options = [entry for entry in held[mover] if deal.deck[entry[0]] is action.card]
            options.sort(key=lambda entry: not entry[1])
            held[mover].remove(options[0])
            piles[mover].append(options[0][0])
        replay.apply(action)
    assert replay.hand(seat) == deal.hand(seat)
    positions = list(range(end - deal.stock_count, end))
    for other in range(SEATS):
        if other != seat and deal.declared_wait(other) is None:
            positions += [position for position, shown in held[other] if not shown]
    return sorted(positions)


@settings(max_examples=40)
@given(SEEDS, st.integers(0, 200), st.sampled_from([0.0, 0.8]), st.integers(0, 2), SEEDS)
@example(16941, 112, 0.8, 0, 0)  # seat 0 passed after its discard: the record says so too
def test_observation_is_the_same_whatever_the_hidden_cards_are(
    seed: int, steps: int, greedy: float, seat: int, shuffle_seed: int
) -> None:
    deal = Deal.shuffled(seed)
    play(deal, random.Random(seed), steps, greedy)
    positions = hidden_from(deal, seat)
    moved = [deal.deck[position] for position in positions]
    random.Random(shuffle_seed).shuffle(moved)
    deck = list(deal.deck)
    for position, card in zip(positions, moved, strict=True):
        deck[position] = card
    try:  # the same record (a pass closing the window included) over the other deck
        other = Record.from_deal(deal).replace(deck=deck).replay()
    except RecordError:
        assume(False)
        raise
    assert other.observation(seat) == deal.observation(seat)


def test_other_seats_draws_before_a_declaration_are_hidden() -> None:
    deal = Deal.shuffled(12)
    play(deal, random.Random(12), 30)
    assert all(deal.declared_wait(seat) is None for seat in range(SEATS)), "no declaration expected here"
    for seat in range(SEATS):
        observation = deal.observation(seat)
        assert observation.hand == deal.hand(seat)
        assert observation.legal_actions == deal.legal_actions(seat)
        assert observation.hand_sizes == tuple(hand_sizes(deal))
        assert observation.public_draws == ()
        draws = [(mine, event) for mine, event in zip(observation.events, deal.events, strict=True)
                 if event.kind == "draw"]
        assert draws
        for mine, event in draws:
            assert not event.public
            assert mine.card == (event.card if event.seat == seat else None)
        # Nothing else is hidden: discards and takes show their cards to everyone.
        for mine, event in zip(observation.events, deal.events, strict=True):
            if event.kind != "draw":
                assert mine == event
    # An observation holds no stock and no other hand.
    assert not {"stock", "deck", "hands"} & set(Observation.__match_args__)


def test_observation_unseen_counts_what_the_seat_has_not_seen() -> None:
    deal = Deal.shuffled(3)
    play(deal, random.Random(3), 25, 0.8)
    observation = deal.observation(1)
    seen = Counter(observation.hand)
    for pile in observation.discards:
        seen.update(pile)
    for other, known in enumerate(observation.known):
        if other != 1:
            seen.update(known)
    expected = {card: 4 - seen[card] for card in KOWAH_DECK.kinds if 4 - seen[card] > 0}
    assert observation.unseen() == expected
    assert Counter(observation.seen()) == seen - Counter(observation.hand)
    assert observation.seen()  # 25 actions in, something has been discarded


# -- the fast playout -----------------------------------------------------------------------------


@settings(max_examples=40)
@given(SEEDS, st.integers(0, 200), GREEDINESS, SEEDS)
def test_random_playout_makes_the_same_choices_as_the_checked_engine(
    seed: int, steps: int, greedy: float, rng_seed: int
) -> None:
    deal = Deal.shuffled(seed)
    play(deal, random.Random(seed), steps, greedy)  # start anywhere: windows and locked hands too
    before = snapshot(deal)
    fast_rng = random.Random(rng_seed)
    outcome, actions = random_playout(deal, fast_rng)
    assert snapshot(deal) == before  # the deal itself is not changed
    slow = deal.copy()
    rng = random.Random(rng_seed)
    while not slow.is_over:
        acts = slow.legal_actions(slow.to_move()[0])
        slow.apply(acts[int(rng.random() * len(acts))])
    assert outcome == slow.outcome
    assert actions == list(slow.history[len(deal.history):])
    assert fast_rng.getstate() == rng.getstate()


def test_random_playout_from_a_declared_position() -> None:
    """A deal where seat 0 declares at once, so that the playout resolves claims and locked turns."""
    deck = build_deck(("5c 5c 5s 5s 5m 8c 8c 8c", "1c 2s 3m 4c 6s 7m 9c ot",
                       "1s 2m 3c 4s 6m 7c 9s rf"), stock="9m")
    results: Counter[str | None] = Counter()
    for rng_seed in range(30):
        deal = Deal(deck, 0)
        deal.apply(Action.draw(0))
        deal.apply(Action.discard(0, Card.M9))
        deal.apply(Action.declare(0, Card.S5))
        outcome, actions = random_playout(deal, random.Random(rng_seed))
        slow = deal.copy()
        for action in actions:
            slow.apply(action)
        assert slow.outcome == outcome
        results[outcome.by] += 1
    assert results["self-draw"] + results["draw-claim"] + results["discard"] > 0


def test_known_cards_are_always_in_the_hand() -> None:
    """Cards an observation calls known (exposed pairs, takes, public draws) are held, copies counted.

    Played by the hard AI, which takes and declares often, so a declared wait that was
    also taken from the discards comes up (that case once listed three known copies).
    """
    from collections import Counter

    from kowah.players import HardPlayer

    declared_after_take = public_draws = 0
    for seed in range(60):
        deal = Deal.shuffled(seed)
        players = [HardPlayer(random.Random(seed * 3 + k)) for k in range(3)]
        while not deal.is_over:
            seat = deal.to_move()[0]
            action = players[seat].choose(deal.observation(seat), deal.legal_actions(seat))
            was_known = deal.observation(seat).known[seat]
            deal.apply(action)
            if action.kind.value == "declare" and action.card in was_known:
                declared_after_take += 1
            last = deal.events[-1]
            if last.kind == "draw" and last.public and last.card is not None:
                # R13: a public draw is known to be in the drawer's hand until it is discarded.
                public_draws += 1
                assert last.card in deal.observation((seat + 2) % 3).known[seat]
            observation = deal.observation((seat + 1) % 3)
            assert deal.public_draws == observation.public_draws
            for other in range(3):
                known, held = Counter(observation.known[other]), Counter(deal.hand(other))
                assert not known - held, (seed, other, known, held)
    assert declared_after_take > 0
    assert public_draws > 0


def test_an_unknown_way_to_win_is_a_kowah_error() -> None:
    with pytest.raises(KowahError, match="unknown way to win 'selfdraw'"):
        Outcome.win(0, "selfdraw", Card.C5)
    assert Outcome.win(0, "discard", Card.C5).multiplier == 2


def test_shuffled_may_fix_the_first_seat() -> None:
    for first in range(SEATS):
        deal = Deal.shuffled(seed=4, first=first)
        assert deal.first == first == deal.turn and deal.deck == Deal.shuffled(seed=4).deck
    with pytest.raises(DeckError, match="the first seat must be 0, 1 or 2, not 3"):
        Deal.shuffled(seed=4, first=3)


# -- undo -----------------------------------------------------------------------------------------


@settings(max_examples=40)
@given(SEEDS, st.integers(0, 220), GREEDINESS)
def test_apply_then_undo_restores_the_state_exactly(seed: int, steps: int, greedy: float) -> None:
    """For every legal action of anyone who may act: apply it, undo it, and nothing has changed
    (every seat's observation, hands, stock, history, events, legal actions, the repr)."""
    deal = Deal.shuffled(seed)
    play(deal, random.Random(seed), steps, greedy)
    before = snapshot(deal)
    for action in deal.legal_actions():
        events = deal.apply(action)
        assert deal.events[len(deal.events) - len(events):] == events
        assert deal.undo() is action
        assert snapshot(deal) == before, action
    # A copy undoes the same way and leaves the original alone.
    if deal.history:
        copy = deal.copy()
        undone = copy.undo()
        assert snapshot(deal) == before
        # A pass is undone too, but histories leave passes out.
        assert copy.history == (deal.history if undone.kind is ActionKind.PASS else deal.history[:-1])


@settings(max_examples=15)
@given(SEEDS, GREEDINESS)
def test_undo_back_to_the_start_retraces_every_state(seed: int, greedy: float) -> None:
    deal = Deal.shuffled(seed)
    rng = random.Random(seed)
    states = [snapshot(deal)]
    applied = []
    while not deal.is_over:
        action = choose(deal, rng, greedy)
        deal.apply(action)
        applied.append(action)
        states.append(snapshot(deal))
    states.pop()
    while applied:
        assert deal.undo() is applied.pop()
        assert snapshot(deal) == states.pop()
    assert snapshot(deal) == snapshot(Deal.shuffled(seed))
    with pytest.raises(KowahError, match="there is no action to undo"):
        deal.undo()


def test_undo_takes_back_a_pass_and_a_declaration_of_the_only_wait() -> None:
    deck = build_deck(("9c 9s 9m 9c 9s 9m 1c 1c", "1s 2s 3m 4c 6s 7m 9m ot",
                       "1m 2m 3c 4s 6m 7c 8s rf"), stock="5m")
    deal = Deal(deck, 0)
    deal.apply(Action.draw(0))
    deal.apply(Action.discard(0, Card.M5))
    before = snapshot(deal)
    assert deal.apply(Action.pass_(0)) == ()
    assert deal.undo() is Action.pass_(0) and snapshot(deal) == before
    events = deal.apply(Action.declare(0, None))  # the only wait, 1c (R8)
    assert events == (Event(EventKind.DECLARE, 0, Card.C1),)
    assert deal.history[-1] is Action.declare(0, Card.C1)
    assert deal.undo() is Action.declare(0, Card.C1) and snapshot(deal) == before


def test_observations_are_kept_up_to_date_not_rebuilt() -> None:
    """The same observation object is returned until the deal changes, and equals a fresh one."""
    deal = Deal.shuffled(5)
    rng = random.Random(5)
    while not deal.is_over:
        seat = deal.to_move()[0]
        first = deal.observation(seat)
        assert deal.observation(seat) is first
        fresh = deal.copy().observation(seat)  # a copy has no cache
        assert fresh == first
        deal.apply(choose(deal, rng, 0.8))
        assert deal.observation(seat) is not first


# -- the rules' state: the unchecked step -------------------------------------------------------


@settings(max_examples=25)
@given(SEEDS, st.integers(0, 200), GREEDINESS, SEEDS)
def test_a_playout_steps_through_the_same_states_as_the_deal(
    seed: int, steps: int, greedy: float, rng_seed: int
) -> None:
    """Deal.apply is the State's step with checks on top: the same legal actions, the same
    refusals, the same state after each action, and undo restores it."""
    deal = Deal.shuffled(seed)
    play(deal, random.Random(seed), steps, greedy)
    playout = deal.state()
    assert random_playout(playout, random.Random(rng_seed)) == random_playout(deal, random.Random(rng_seed))
    rng = random.Random(rng_seed)
    while not deal.is_over:
        for action in ALL_ACTIONS[:30]:
            found = playout.refusal(action)
            refusal = deal.why_illegal(action)
            assert (found is None) == (refusal is None)
            assert found is None or refusal is None or found[0] is refusal.reason
        assert playout.to_move() == deal.to_move()
        assert playout.legal_actions(deal.turn) == deal.legal_actions(deal.turn)
        action = choose(deal, rng, greedy)
        before = playout.scalars()
        copy = playout.copy()
        deal.apply(action)
        playout.step(deal.history[-1] if action.kind is not ActionKind.PASS else action)
        assert (playout.hands, playout.piles, playout.declared) == (
            [list(deal.hand(s)) for s in range(SEATS)], [list(deal.discards(s)) for s in range(SEATS)],
            [deal.declared_wait(s) for s in range(SEATS)])
        assert (playout.turn, playout.phase, playout.latest, playout.outcome, playout.stock_count) == (
            deal.turn, deal.phase, deal.latest_discard, deal.outcome, deal.stock_count)
        undone = playout.copy()
        undone.undo(deal.history[-1] if action.kind is not ActionKind.PASS else action, before)
        assert (undone.hands, undone.piles, undone.declared, undone.scalars()) == (
            copy.hands, copy.piles, copy.declared, copy.scalars())


# -- no plain Python error, for any input ---------------------------------------------------------

BAD_VALUES = [None, True, 1.5, "x", -1, 3, 10**5000, [], {}, object(), Card.C5, KOWAH_DECK, b"x",
              float("nan"), "\x1b[2J" * 10_000]


def _entry_points() -> dict[str, Callable[[object], object]]:
    from kowah import Event, EventKind, Record, replay_outcome

    deal = Deal.shuffled(1)
    deck = KOWAH_DECK.cards
    return {
        "Deal(deck)": lambda v: Deal(v, 0),  # type: ignore[arg-type]
        "Deal(first)": lambda v: Deal(deck, v),  # type: ignore[arg-type]
        "Deal(rules)": lambda v: Deal(deck, 0, v),  # type: ignore[arg-type]
        "shuffled(seed)": lambda v: Deal.shuffled(v),  # type: ignore[arg-type]
        "shuffled(rules)": lambda v: Deal.shuffled(1, v),  # type: ignore[arg-type]
        "shuffled(first)": lambda v: Deal.shuffled(1, first=v),  # type: ignore[arg-type]
        "apply": deal.apply, "is_legal": deal.is_legal, "why_illegal": deal.why_illegal,  # type: ignore[dict-item]
        "legal_actions": deal.legal_actions, "hand": deal.hand, "discards": deal.discards,  # type: ignore[dict-item]
        "declared_wait": deal.declared_wait, "observation": deal.observation,  # type: ignore[dict-item]
        "Action(seat)": lambda v: Action(v, ActionKind.DRAW),  # type: ignore[arg-type]
        "Action(kind)": lambda v: Action(0, v),  # type: ignore[arg-type]
        "Action(card)": lambda v: Action(0, ActionKind.DISCARD, v),  # type: ignore[arg-type]
        "Action.parse": lambda v: Action.parse(v, seat=0),  # type: ignore[arg-type]
        "Action.parse(seat)": lambda v: Action.parse("draw", seat=v),  # type: ignore[arg-type]
        "Action.from_dict": Action.from_dict,  # type: ignore[dict-item]
        "Action.from_dict(seat)": lambda v: Action.from_dict({"do": "draw"}, seat=v),  # type: ignore[arg-type]
        "Rules": lambda v: Rules(pack=v),  # type: ignore[arg-type]
        "Rules.from_pack_name": Rules.from_pack_name,  # type: ignore[dict-item]
        "Outcome.win(by)": lambda v: Outcome.win(0, v, Card.C5),  # type: ignore[arg-type]
        "Outcome.win(seat)": lambda v: Outcome.win(v, "discard", Card.C5),  # type: ignore[arg-type]
        "Outcome": lambda v: Outcome(v),  # type: ignore[arg-type]
        "Event": lambda v: Event(v, 0, Card.C5),  # type: ignore[arg-type]
        "Event(seat)": lambda v: Event(EventKind.DRAW, v, Card.C5),  # type: ignore[arg-type]
        "Record(deck)": lambda v: Record(v, 0),  # type: ignore[arg-type]
        "Record(first)": lambda v: Record(deck, v),  # type: ignore[arg-type]
        "Record(actions)": lambda v: Record(deck, 0, v),  # type: ignore[arg-type]
        "Record(rules)": lambda v: Record(deck, 0, rules=v),  # type: ignore[arg-type]
        "Record.from_dict": Record.from_dict,
        "replay(upto)": lambda v: Record(deck, 0).replay(v),  # type: ignore[arg-type]
        "replay_outcome": replay_outcome,  # type: ignore[dict-item]
        "random_playout": lambda v: random_playout(v, random.Random(1)),  # type: ignore[arg-type]
        "random_playout(rng)": lambda v: random_playout(deal, v),  # type: ignore[arg-type]
        "Refusal(reason)": lambda v: Refusal(v, Action.draw(0)),  # type: ignore[arg-type]
        "Refusal(action)": lambda v: Refusal(Reason.DEAL_OVER, v),  # type: ignore[arg-type]
        "Refusal(params)": lambda v: Refusal(Reason.DEAL_OVER, Action.draw(0), v),  # type: ignore[arg-type]
        "Record(passed)": lambda v: Record(deck, 0, passed=v),  # type: ignore[arg-type]
    }


@pytest.mark.parametrize("name", sorted(_entry_points()))
def test_no_plain_python_error_for_any_input(name: str) -> None:
    """Each public function and constructor of the engine, given wrong types or values, raises
    one of the library's errors with a short message; never AttributeError, IndexError, ..."""
    call = _entry_points()[name]
    for value in BAD_VALUES:
        try:
            call(value)
        except KowahError as error:
            assert len(str(error)) < 400 and str(error).isprintable(), (name, str(error)[:80])
            if isinstance(error, TypeError):
                assert isinstance(error, KowahTypeError)
        except Exception as error:  # pragma: no cover - the failure this test exists for
            pytest.fail(f"{name}({type(value).__name__}) raised {type(error).__name__}: {error!s:.200}")


@pytest.mark.parametrize("language", ["it", "cs", "ms", "es", "id"])
def test_every_reason_is_said_in_every_language(language: str) -> None:
    """The text layer turns a Reason (with its fields) into a sentence; none is left in English."""
    import string

    from kowah.i18n import translator

    t = translator(language)
    for reason in Reason:
        fields = {name for _, name, _, _ in string.Formatter().parse(reason.template) if name}
        params = {name: {"card": Card.C5, "drawn": Card.M9, "turn": 2, "waits": "5c 5s"}[name]
                  for name in fields}
        refusal = Refusal(reason, Action.discard(1, Card.C5), params)
        said = t.refusal(refusal)  # said to a player: cards by their names
        assert said != str(refusal), reason
        named = [t.card(value) if isinstance(value, Card) else str(value) for value in params.values()]
        assert all(value in said for value in named), (reason, said)
        error = t.error(IllegalActionError(refusal))  # a library error: cards by their codes
        coded = t.gettext("error", reason.template).format(**{k: str(v) for k, v in params.items()})
        assert error.endswith(coded) and "5c" in error


def test_the_deals_public_state_is_read_only() -> None:
    deal = Deal.shuffled(2)
    for name, value in (("deck", ()), ("first", 0), ("rules", MONEY_RULES), ("events", ()),
                        ("history", ()), ("turn", 0), ("latest_discard", None)):
        with pytest.raises(AttributeError):
            setattr(deal, name, value)
    with pytest.raises(AttributeError):
        deal.colour = "red"  # type: ignore[attr-defined]  # no new attributes either (slots)
    assert isinstance(deal.events, tuple) and isinstance(deal.history, tuple)
    observation = deal.observation(deal.turn)
    with pytest.raises(AttributeError):
        observation.hand = ()  # type: ignore[misc]
