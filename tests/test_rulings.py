"""The rulings of a deal (R9–R17) on constructed decks, and property tests of the hand rules (R4–R8).

Decks are built so that each situation is forced: seat 0 gets the first eight cards, seat 1
the next eight, seat 2 the next eight, and the stock is drawn from the front (R9).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import (
    Triple,
    build_deck,
    built_splits,
    card,
    cards,
    deck_hands,
    ref_same_rank_ok,
    ref_splits,
    relabel,
    split_key,
)

from kowah import (
    KOWAH_DECK,
    MONEY_PACK,
    SEATS,
    Action,
    Card,
    Deal,
    DrawnBy,
    Event,
    EventKind,
    IllegalActionError,
    Outcome,
    Pack,
    Phase,
    Reason,
    Rules,
)
from kowah.hands import distance, is_ready, splits, waits
from kowah.record import Record

#: Ready, waiting for 5c or 5s (R8).
READY = "5c 5c 5s 5s 5m 8c 8c 8c"
#: Hands far from ready, sharing no card with READY.
LOOSE_1 = "1c 2s 3m 4c 6s 7m 9c ot"
LOOSE_2 = "1s 2m 3c 4s 6m 7c 9s rf"
#: Like LOOSE_1 but holding one 5s, to discard into a declared 5s wait.
LOOSE_1_5S = "1c 2s 3m 4c 5s 7m 9c ot"


def deal_of(
    hands: tuple[str, str, str], stock: str = "", last: str = "", first: int = 0,
    pack: Pack = KOWAH_DECK,
) -> Deal:
    return Deal(build_deck(hands, stock, last, pack), first, Rules(pack=pack))


def draw_discard(deal: Deal, seat: int, discard: str | None = None) -> Card:
    """Seat draws from the stock, then discards *discard* (the drawn card when None)."""
    deal.apply(Action.draw(seat))
    drawn = deal.events[-1].card
    assert drawn is not None
    if not deal.is_over:
        deal.apply(Action.discard(seat, drawn if discard is None else card(discard)))
    return drawn


def illegal(deal: Deal, action: Action, reason: Reason) -> None:
    """*action* is refused for *reason*: by why_illegal, and by apply, which changes nothing."""
    refusal = deal.why_illegal(action)
    assert refusal is not None and refusal.reason is reason, refusal
    assert not deal.is_legal(action) and action not in deal.legal_actions()
    before = deal.observation(action.seat)
    with pytest.raises(IllegalActionError) as caught:
        deal.apply(action)
    assert caught.value.seat == action.seat
    assert caught.value.action is action and caught.value.refusal == refusal
    assert caught.value.reason is reason
    assert str(refusal) in str(caught.value)
    assert deal.observation(action.seat) == before


# -- R9: setup ------------------------------------------------------------------------------------


def test_r9_explicit_deck_deals_eight_each_and_the_rest_is_the_stock() -> None:
    deck = list(KOWAH_DECK.cards)
    random.Random(9).shuffle(deck)
    deal = Deal(deck, 2)
    for seat in range(SEATS):
        assert deal.hand(seat) == tuple(sorted(deck[seat * 8:(seat + 1) * 8]))
    assert deal.stock == tuple(deck[24:])
    assert deal.stock_count == 96
    assert deal.turn == deal.first == 2
    assert deal.phase is Phase.START
    deal.apply(Action.draw(2))
    assert deal.events[-1] == Event(EventKind.DRAW, 2, deck[24], False)  # the stock is drawn from the front
    assert deck[24] in deal.hand(2) and deal.stock == tuple(deck[25:])


@given(st.integers(0, 2**32))
def test_r9_shuffled_setup(seed: int) -> None:
    deal = Deal.shuffled(seed)
    assert sorted(deal.deck) == list(KOWAH_DECK.cards)
    assert [len(deal.hand(seat)) for seat in range(SEATS)] == [8, 8, 8]
    assert deal.stock_count == 96 and len(deal.stock) == 96
    assert deal.first in (0, 1, 2) and deal.turn == deal.first
    assert deal.to_move() == (deal.first,)
    assert Deal.shuffled(seed).deck == deal.deck  # the seed fixes the deal


def test_r9_the_first_seat_is_chosen_at_random() -> None:
    firsts = {Deal.shuffled(seed).first for seed in range(60)}
    assert firsts == {0, 1, 2}
    assert len({Deal.shuffled(seed).deck for seed in range(5)}) == 5


@pytest.mark.parametrize("first", [0, 1, 2])
def test_r9_play_passes_seat_0_to_1_to_2_to_0(first: int) -> None:
    deal = deal_of((LOOSE_1, LOOSE_2, "1m 2c 3s 4m 6c 7s 9m wf"), first=first)
    seen = []
    for _ in range(7):
        seen.append(deal.turn)
        draw_discard(deal, deal.turn)
    assert seen == [(first + i) % 3 for i in range(7)]


# -- R10: a turn ----------------------------------------------------------------------------------


def test_r10_opening_turn_must_draw_from_the_stock() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m")
    assert deal.legal_actions(0) == (Action.draw(0),)
    assert deal.legal_actions(1) == () and deal.legal_actions(2) == ()
    illegal(deal, Action.take(0), Reason.OPENING_DRAW)
    illegal(deal, Action.discard(0, Card.C5), Reason.DRAW_FIRST)
    illegal(deal, Action.draw(1), Reason.NOT_YOUR_TURN)


def test_r10_take_the_latest_discard_not_again_in_the_same_turn() -> None:
    deal = deal_of((LOOSE_1, LOOSE_2, "1m 2c 3s 4m 6c 7s 9m wf"), stock="5m 5c 8s")
    draw_discard(deal, 0)  # seat 0 draws and discards 5m
    assert deal.latest_discard is Card.M5
    assert deal.legal_actions(1) == (Action.draw(1), Action.take(1))
    deal.apply(Action.take(1))
    assert Card.M5 in deal.hand(1) and len(deal.hand(1)) == 9
    assert deal.discards(0) == ()  # the taken card leaves the discards
    assert deal.latest_discard is None
    assert Action.discard(1, Card.M5) not in deal.legal_actions(1)
    illegal(deal, Action.discard(1, Card.M5), Reason.TAKEN_CARD)
    illegal(deal, Action.draw(1), Reason.MUST_DISCARD)
    deal.apply(Action.discard(1, Card.M2))
    # Seat 2 draws rather than takes: 2m may no longer be taken, so it is no latest discard
    # (in the deal and in every observation) while seat 2 discards; then only seat 2's may be.
    assert deal.latest_discard is Card.M2
    deal.apply(Action.draw(2))
    assert deal.latest_discard is None
    assert all(deal.observation(seat).latest_discard is None for seat in range(SEATS))
    deal.undo()
    assert deal.latest_discard is Card.M2 and deal.observation(0).latest_discard is Card.M2
    draw_discard(deal, 2)  # 5c
    deal.apply(Action.take(0))
    assert Card.C5 in deal.hand(0) and Card.M2 not in deal.hand(0)
    assert deal.discards(1) == (Card.M2,)
    deal.apply(Action.discard(0, Card.C1))
    # A taken card may be discarded on a later turn.
    draw_discard(deal, 1, "5m")
    assert deal.discards(1) == (Card.M2, Card.M5)


# -- R11: declaring -------------------------------------------------------------------------------


def test_r11_declare_right_after_own_discard_on_the_opening_turn() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m")
    deal.apply(Action.draw(0))
    assert all(action.kind.value == "discard" for action in deal.legal_actions(0))  # not yet
    deal.apply(Action.discard(0, Card.M9))
    assert deal.declaring_seat == 0
    assert deal.to_move() == (0, 1)
    # The wait is chosen from the hand's waits (R8); passing is allowed: never forced.
    assert deal.legal_actions(0) == (
        Action.declare(0, Card.C5), Action.declare(0, Card.S5), Action.pass_(0),
    )
    illegal(deal, Action.declare(0, Card.C8), Reason.NOT_A_WAIT)
    illegal(deal, Action.declare(1, Card.C5), Reason.NOT_DECLARING)
    deal.apply(Action.declare(0, Card.S5))
    assert deal.declared_wait(0) is Card.S5
    assert deal.declaring_seat is None and deal.to_move() == (1,)
    assert deal.events[-1] == Event(EventKind.DECLARE, 0, Card.S5)
    for seat in range(SEATS):
        observation = deal.observation(seat)
        assert observation.declared_waits == (Card.S5, None, None)
        assert observation.known[0] == (Card.S5, Card.S5)  # the exposed pair
    assert deal.history[-1] == Action.declare(0, Card.S5)
    illegal(deal, Action.declare(0, Card.C5), Reason.ALREADY_DECLARED)


def test_r11_declaring_is_never_forced() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m 1m")
    draw_discard(deal, 0)
    deal.apply(Action.pass_(0))
    assert deal.declaring_seat is None and deal.declared_wait(0) is None
    assert deal.history == (Action.draw(0), Action.discard(0, Card.M9))  # passes are not recorded
    illegal(deal, Action.declare(0, Card.C5), Reason.NOT_DECLARING)
    # The next seat acting also closes the window (an implicit pass).
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m 1m")
    draw_discard(deal, 0)
    deal.apply(Action.draw(1))
    assert deal.declaring_seat is None
    illegal(deal, Action.declare(0, Card.C5), Reason.NOT_DECLARING)


def test_r11_no_declaration_without_a_ready_hand_after_the_discard() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m")
    # Ready before drawing, but declaring comes only after a discard.
    assert Action.declare(0, Card.C5) not in deal.legal_actions(0)
    illegal(deal, Action.declare(0, Card.C5), Reason.NOT_DECLARING)
    draw_discard(deal, 0, "5m")  # 5c 5c 5s 5s 8c 8c 8c 9m: not ready
    assert deal.declaring_seat is None
    assert deal.legal_actions(0) == ()
    illegal(deal, Action.declare(0, Card.C5), Reason.NOT_DECLARING)


# -- R12: locked hands ----------------------------------------------------------------------------


def test_r12_locked_hand_draws_only_and_discards_the_drawn_card() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m 1m 2c 3s")
    draw_discard(deal, 0)
    deal.apply(Action.declare(0, Card.S5))
    draw_discard(deal, 1)  # 1m
    deal.apply(Action.take(2))  # seat 2 takes 1m, discards 2m
    deal.apply(Action.discard(2, Card.M2))
    # The discard lies on the table, but it is no latest discard for a seat that may not take it.
    assert deal.discards(2)[-1] is Card.M2 and deal.latest_discard is None
    assert deal.observation(1).latest_discard is None
    assert deal.legal_actions(0) == (Action.draw(0),)  # may not take discards
    illegal(deal, Action.take(0), Reason.LOCKED_TAKE)
    deal.apply(Action.draw(0))  # 2c
    assert deal.legal_actions(0) == (Action.discard(0, Card.C2),)
    illegal(deal, Action.discard(0, Card.C8), Reason.LOCKED_DISCARD)
    deal.apply(Action.discard(0, Card.C2))
    assert deal.hand(0) == cards(READY)  # still locked, unchanged
    assert deal.declaring_seat is None  # a declared seat does not declare again


def test_r12_self_draw_wins_times_three() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m 1m 2c 3s 4m 6c 5s")
    draw_discard(deal, 0)
    deal.apply(Action.declare(0, Card.S5))
    for seat in (1, 2, 0, 1, 2):
        draw_discard(deal, seat)
    assert not deal.is_over
    deal.apply(Action.draw(0))
    assert deal.outcome == Outcome.win(0, "self-draw", Card.S5)
    assert deal.outcome.as_dict() == {
        "result": "win", "winner": 0, "by": "self-draw", "multiplier": 3, "card": "5s",
    }
    assert deal.phase is Phase.OVER and deal.is_over
    assert deal.events[-1] == Event(EventKind.WIN, 0, Card.S5)
    assert all(deal.legal_actions(seat) == () for seat in range(SEATS))
    assert deal.to_move() == ()
    illegal(deal, Action.discard(0, Card.S5), Reason.DEAL_OVER)


# -- R13: public draws ----------------------------------------------------------------------------


def test_r13_stock_draws_are_public_once_a_seat_has_declared() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m 1m 2c")
    draw_discard(deal, 0)
    before = deal.observation(1)
    assert before.events[0] == Event(EventKind.DRAW, 0, None, False)  # seat 0's draw, hidden from seat 1
    assert deal.observation(0).events[0] == Event(EventKind.DRAW, 0, Card.M9, False)
    assert before.public_draws == ()
    deal.apply(Action.declare(0, Card.C5))
    draw_discard(deal, 1)
    draw_discard(deal, 2)
    for seat in range(SEATS):
        observation = deal.observation(seat)
        assert observation.public_draws == ((1, Card.M1), (2, Card.C2))
        assert Event(EventKind.DRAW, 1, Card.M1, True) in observation.events
        assert Event(EventKind.DRAW, 2, Card.C2, True) in observation.events
        assert observation.events[0].card is (Card.M9 if seat == 0 else None)  # still hidden


def test_r13_a_publicly_drawn_card_discarded_leaves_a_taken_copy_known() -> None:
    """R12, R13: a locked seat discards the card it drew, shown to all; a taken 8c stays known."""
    deal = deal_of(("5c 5c 5s 5s 5m 8c 8c 1m", LOOSE_1, "1s 2m 3c 4s 6m 7c 9s 8c"),
                   stock="9m 7s 6c 4m 8c", first=1)
    draw_discard(deal, 1)
    draw_discard(deal, 2, "8c")
    deal.apply(Action.take(0))
    deal.apply(Action.discard(0, Card.M1))
    deal.apply(Action.declare(0, Card.S5))
    assert deal.observation(1).known[0] == (Card.S5, Card.S5, Card.C8)
    draw_discard(deal, 1)
    draw_discard(deal, 2)
    assert draw_discard(deal, 0) is Card.C8  # the fourth 8c, drawn in public and discarded
    assert deal.hand(0).count(Card.C8) == 3
    for seat in range(SEATS):
        assert deal.observation(seat).known[0] == (Card.S5, Card.S5, Card.C8)
    # Before any declaration the draw is hidden, so a discard of that card may be the taken copy.
    deal = deal_of(("5c 5c 5s 1s 5m 8c 8c 1m", LOOSE_1, "1s 2m 3c 4s 6m 7c 9s 8c"),
                   stock="9m 7s 6c 4m 8c", first=1)
    draw_discard(deal, 1)
    draw_discard(deal, 2, "8c")
    deal.apply(Action.take(0))
    deal.apply(Action.discard(0, Card.M1))
    draw_discard(deal, 1)
    draw_discard(deal, 2)
    assert draw_discard(deal, 0) is Card.C8
    assert deal.observation(1).known[0] == ()


# -- R14: claims ----------------------------------------------------------------------------------


def test_r14_claim_of_a_discard_wins_times_two_out_of_turn() -> None:
    deal = deal_of((READY, LOOSE_1_5S, LOOSE_2), stock="9m 1m")
    draw_discard(deal, 0)
    deal.apply(Action.declare(0, Card.S5))
    deal.apply(Action.draw(1))
    deal.apply(Action.discard(1, Card.S5))  # no action by seat 0 is needed
    assert deal.outcome == Outcome("win", 0, "discard", 2, Card.S5)
    assert deal.phase is Phase.OVER
    assert deal.events[-2:] == (Event(EventKind.DISCARD, 1, Card.S5), Event(EventKind.WIN, 0, Card.S5))
    assert deal.legal_actions(2) == ()
    assert deal.history[-1] == Action.discard(1, Card.S5)  # the claim is not an action


def test_r14_claim_of_another_seats_stock_draw_wins_times_one() -> None:
    deal = deal_of((READY, LOOSE_1, LOOSE_2), stock="9m 5s")
    draw_discard(deal, 0)
    deal.apply(Action.declare(0, Card.S5))
    deal.apply(Action.draw(1))
    assert deal.outcome == Outcome("win", 0, "draw-claim", 1, Card.S5)
    assert deal.legal_actions(1) == ()  # at once: seat 1 does not discard
    assert len(deal.hand(1)) == 9


def test_r14_only_declared_seats_claim() -> None:
    deal = deal_of((READY, LOOSE_1_5S, LOOSE_2), stock="9m 1m 5s")
    draw_discard(deal, 0)
    deal.apply(Action.pass_(0))
    draw_discard(deal, 1, "5s")
    draw_discard(deal, 2)  # draws 5s
    assert not deal.is_over
    assert deal.turn == 0


#: A variant pack with eight 5c, so that two declared seats can wait for 5c (R14's last sentence).
EIGHT_5C = Pack("eight 5c", [8 if card is Card.C5 else 4 for card in KOWAH_DECK.kinds] + [0, 0, 0])
WAITS_5C_A = "5c 5c 1c 1s 1m 2c 2s 2m"
WAITS_5C_B = "5c 5c 3c 3s 3m 4c 4s 4m"
OTHER = "5c 6s 7m 9c 9s ot rf wf"


def variant_deal(seats: dict[int, str], stock: str, first: int) -> Deal:
    hands = (seats[0], seats[1], seats[2])
    return deal_of(hands, stock=stock, first=first, pack=EIGHT_5C)


@pytest.mark.parametrize("drawer", [0, 1, 2])
@pytest.mark.parametrize("by", ["draw-claim", "discard"])
def test_r14_first_in_rotation_from_the_drawer_or_discarder_wins(drawer: int, by: str) -> None:
    after, later = (drawer + 1) % 3, (drawer + 2) % 3
    assert waits(cards(WAITS_5C_A), EIGHT_5C) == {Card.C5} == waits(cards(WAITS_5C_B), EIGHT_5C)
    stock = "9m 8m 7c 6m " + ("5c" if by == "draw-claim" else "6c")
    deal = variant_deal({after: WAITS_5C_A, later: WAITS_5C_B, drawer: OTHER}, stock, first=later)
    draw_discard(deal, later)
    deal.apply(Action.declare(later, Card.C5))
    draw_discard(deal, drawer)
    draw_discard(deal, after)
    deal.apply(Action.declare(after, Card.C5))
    draw_discard(deal, later)  # locked
    assert not deal.is_over
    if by == "draw-claim":
        deal.apply(Action.draw(drawer))
    else:
        draw_discard(deal, drawer, "5c")
    # Both wait for 5c: the first after the drawer/discarder wins, not the first seat's neighbour.
    assert deal.outcome == Outcome.win(after, by, Card.C5)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_r14_own_stock_draw_of_own_wait_is_a_self_draw_before_any_claim(seat: int) -> None:
    other, third = (seat + 1) % 3, (seat + 2) % 3
    deal = variant_deal({seat: WAITS_5C_A, other: WAITS_5C_B, third: OTHER}, "9m 8m 7c 5c", first=seat)
    draw_discard(deal, seat)
    deal.apply(Action.declare(seat, Card.C5))
    draw_discard(deal, other)
    deal.apply(Action.declare(other, Card.C5))
    draw_discard(deal, third)
    deal.apply(Action.draw(seat))
    assert deal.outcome == Outcome.win(seat, "self-draw", Card.C5)


# -- R15: multipliers -----------------------------------------------------------------------------


def test_r15_multipliers() -> None:
    assert Outcome.MULTIPLIERS == {"self-draw": 3, "discard": 2, "draw-claim": 1}
    for by, multiplier in (("self-draw", 3), ("discard", 2), ("draw-claim", 1)):
        outcome = Outcome.win(1, by, Card.OT)
        assert outcome.multiplier == multiplier
        assert outcome.as_dict() == {
            "result": "win", "winner": 1, "by": by, "multiplier": multiplier, "card": "ot",
        }
    assert Outcome.drawn(DrawnBy.EXHAUSTION).as_dict() == {"result": "drawn", "by": "exhaustion"}


# -- R16: exhaustion ------------------------------------------------------------------------------


def test_r16_the_deal_ends_drawn_right_after_the_last_stock_draw() -> None:
    deal = deal_of((LOOSE_1, LOOSE_2, "1m 2c 3s 4m 6c 7s 9m wf"))
    for _ in range(95):
        draw_discard(deal, deal.turn)
    assert not deal.is_over and deal.stock_count == 1
    last_seat = deal.turn
    assert last_seat == 95 % 3
    deal.apply(Action.draw(last_seat))
    assert deal.outcome == Outcome.drawn(DrawnBy.EXHAUSTION)
    assert deal.phase is Phase.OVER and deal.stock_count == 0
    assert deal.events[-1] == Event(EventKind.DRAWN, None)
    assert len(deal.hand(last_seat)) == 9  # at once: no discard
    assert all(deal.legal_actions(seat) == () for seat in range(SEATS))


@pytest.mark.parametrize(("first", "by"), [(0, "draw-claim"), (1, "self-draw")])
def test_r16_a_last_card_that_wins_is_a_win_not_a_drawn_deal(first: int, by: str) -> None:
    # Seat 0 declares on its first turn, waiting for 5s; the last 5s is the last stock card.
    stock = "9m" if first == 0 else "1m 2c 9m"
    deal = deal_of((READY, LOOSE_1_5S, LOOSE_2), stock=stock, last="5s", first=first)
    while deal.turn != 0:
        draw_discard(deal, deal.turn)
    draw_discard(deal, 0)
    deal.apply(Action.declare(0, Card.S5))
    while not deal.is_over:
        draw_discard(deal, deal.turn)
    assert deal.stock_count == 0
    assert deal.outcome == Outcome.win(0, by, Card.S5)



# -- R17: no progress -----------------------------------------------------------------------------


def take_discard(deal: Deal, seat: int) -> None:
    """Seat takes the latest discard and discards the first other card of its hand."""
    deal.apply(Action.take(seat))
    taken = deal.events[-1].card
    deal.apply(Action.discard(seat, next(card for card in deal.hand(seat) if card is not taken)))


def test_r17_thirty_turns_of_takes_end_the_deal_drawn() -> None:
    """Three seats that always take: after the opening draw, the 30th turn in a row without a
    stock draw ends the deal drawn, by no progress (not exhaustion)."""
    deal = deal_of((LOOSE_1, LOOSE_2, "1m 2c 3s 4m 6c 7s 9m wf"))
    draw_discard(deal, 0)
    for turn in range(1, 30):
        take_discard(deal, deal.turn)
        assert not deal.is_over, turn
    seat = deal.turn
    take_discard(deal, seat)
    assert deal.outcome == Outcome.drawn(DrawnBy.NO_PROGRESS) != Outcome.drawn(DrawnBy.EXHAUSTION)
    assert deal.outcome.as_dict() == {"result": "drawn", "by": "no-progress"}
    assert deal.events[-1] == Event(EventKind.DRAWN, None) and deal.phase is Phase.OVER
    assert deal.declaring_seat is None and deal.legal_actions() == ()
    assert len(deal.history) == 2 + 30 * 2 and deal.stock_count == 95
    deal.undo()  # undo takes the end back
    assert not deal.is_over and deal.turn == seat


def test_r17_a_stock_draw_starts_the_count_again() -> None:
    deal = deal_of((LOOSE_1, LOOSE_2, "1m 2c 3s 4m 6c 7s 9m wf"))
    draw_discard(deal, 0)
    for _ in range(29):
        take_discard(deal, deal.turn)
    draw_discard(deal, deal.turn)
    for _ in range(29):
        take_discard(deal, deal.turn)
    assert not deal.is_over
    take_discard(deal, deal.turn)
    assert deal.outcome == Outcome.drawn(DrawnBy.NO_PROGRESS)


def test_r17_a_claim_of_the_last_discard_comes_first() -> None:
    """With a limit of one turn (a variant), the take turn that reaches the limit still
    hands a declared seat its wait: R14 wins before R17 draws."""
    rules = Rules(no_progress_turns=1)
    deck = build_deck((READY, LOOSE_1_5S, LOOSE_2), stock="9m 9m")
    deal = Deal(deck, 0, rules)
    draw_discard(deal, 0)  # draws and discards 9m: still ready
    deal.apply(Action.declare(0, Card.S5))
    deal.apply(Action.take(1))  # takes the 9m
    deal.apply(Action.discard(1, Card.S5))  # 0's wait
    assert deal.outcome == Outcome.win(0, "discard", Card.S5)
    other = Deal(deck, 0, rules)
    draw_discard(other, 0)
    other.apply(Action.pass_(0))
    take_discard(other, 1)
    assert other.outcome == Outcome.drawn(DrawnBy.NO_PROGRESS)


@pytest.mark.parametrize("rules", [Rules(), Rules(pack=MONEY_PACK), Rules(no_progress_turns=3)])
def test_r17_bounds_every_deal_and_the_longest_one_is_read_back(rules: Rules) -> None:
    """The longest deal: every stock draw but the last followed by as many takes as R17
    allows, then takes to the limit. It has just under Rules.max_actions actions (the bound
    adds the three declarations), and its record is read back and replayed."""
    deal = Deal.shuffled(7, rules)
    limit = rules.no_progress_turns
    idle = 0
    while not deal.is_over:
        seat = deal.actor
        legal = deal.legal_actions(seat)
        if Action.pass_(seat) in legal:
            deal.apply(Action.pass_(seat))
            continue
        take = Action.take(seat) in legal and (idle < limit - 1 or deal.stock_count == 1)
        deal.apply(Action.take(seat) if take else Action.draw(seat))
        idle = idle + 1 if take else 0
        if not deal.is_over:
            discards = deal.legal_actions(seat)
            deal.apply(discards[len(deal.history) % len(discards)])
    assert deal.outcome == Outcome.drawn(DrawnBy.NO_PROGRESS)
    assert len(deal.history) == rules.max_actions - 3
    if rules.no_progress_turns == 30:  # a record holds the rules of the rules pages
        text = Record.from_deal(deal).dumps(indent=2)
        assert Record.loads(text).replay() == deal


# -- R4–R8 as properties --------------------------------------------------------------------------


@given(built_splits())
def test_two_triples_and_a_pair_obeying_r7_are_ready(split: tuple[Triple, Triple, Card]) -> None:
    first, second, pair = split
    assume(ref_same_rank_ok(first, pair) and ref_same_rank_ok(second, pair))
    hand = [*first, *second, pair, pair]
    assert is_ready(hand)
    assert pair in waits(hand)
    assert split_key([first, second], pair) in {split_key(s.triples, s.wait) for s in splits(hand)}
    assert distance(hand) == 0


@given(built_splits())
def test_hands_whose_only_splits_break_r7_are_not_ready(split: tuple[Triple, Triple, Card]) -> None:
    first, second, pair = split
    assume(not (ref_same_rank_ok(first, pair) and ref_same_rank_ok(second, pair)))
    hand = [*first, *second, pair, pair]
    assume(not ref_splits(hand))  # no other split makes it ready
    assert not is_ready(hand)
    assert waits(hand) == frozenset()
    assert splits(hand) == ()
    assert distance(hand) >= 1


@given(deck_hands(), st.permutations([0, 1, 2]), st.randoms(use_true_random=False))
def test_readiness_and_waits_ignore_order_and_suit_names(
    hand: list[Card], order: list[int], rng: random.Random
) -> None:
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert is_ready(shuffled) == is_ready(hand)
    assert waits(shuffled) == waits(hand)
    assert splits(shuffled) == splits(hand)
    renamed = [relabel(c, order) for c in shuffled]
    assert is_ready(renamed) == is_ready(hand)
    assert waits(renamed) == {relabel(w, order) for w in waits(hand)}
    assert {split_key(s.triples, s.wait) for s in splits(renamed)} == {
        split_key([[relabel(c, order) for c in t] for t in s.triples], relabel(s.wait, order))
        for s in splits(hand)
    }
    assert distance(renamed) == distance(hand)


def test_r17_in_the_rules_state_and_the_random_playouts() -> None:
    """R17 is applied wherever the rules run: the bare State, and random playouts, which make
    the choices the checked deal makes and end as it does."""
    from kowah.simulation import random_playout

    deal = deal_of((LOOSE_1, LOOSE_2, "1m 2c 3s 4m 6c 7s 9m wf"))
    state = deal.state()
    state.step(Action.draw(0))
    state.step(Action.discard(0, state.drawn))  # type: ignore[arg-type]
    for _ in range(30):
        seat = state.turn
        state.step(Action.take(seat))
        state.step(next(action for action in state.legal_actions(seat)))
    assert state.outcome == Outcome.drawn(DrawnBy.NO_PROGRESS) and state.to_move() == ()
    ends = set()
    for seed in range(12):
        rules = Rules(no_progress_turns=2)
        start = Deal.shuffled(seed, rules)
        outcome, actions = random_playout(start, random.Random(seed))
        for action in actions:
            start.apply(action)
        assert start.outcome == outcome
        ends.add(outcome.by)
    assert DrawnBy.NO_PROGRESS in ends
