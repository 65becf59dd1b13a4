"""Wrong use is said clearly: one rule for wrong types across the hand functions, parse_cards,
Card.parse, Deal and Action (Card values accepted wherever codes are; plain ints and bools
refused with HandTypeError or KowahTypeError); built-in players asked to act with no legal
action; play_deal naming the player that chose an illegal action."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kowah import (
    KOWAH_DECK,
    Action,
    ActionTypeError,
    Card,
    Deal,
    HandTypeError,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    Observation,
    Reason,
    parse_cards,
)
from kowah.hands import discard_options, distance, improvements, is_ready, splits, waits
from kowah.players import PLAYERS, Player, make_player
from kowah.simulation import play_deal

READY = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")
HAND_FUNCTIONS: list[Callable[[list[object]], object]] = [
    is_ready, waits, splits, distance, improvements,  # type: ignore[list-item]
    lambda hand: discard_options([*hand, Card.M9]),  # type: ignore[list-item]
]


@given(st.integers(0, 7), st.one_of(st.integers(-5, 40), st.booleans()),
       st.sampled_from(range(len(HAND_FUNCTIONS))))
def test_a_plain_int_or_a_bool_is_no_card_for_any_hand_function(position: int, stray: int,
                                                               which: int) -> None:
    hand: list[object] = list(READY)
    hand[position] = stray
    with pytest.raises(HandTypeError) as caught:
        HAND_FUNCTIONS[which](hand)
    assert str(caught.value) == f"{stray} is not a card (item {position + 1} of the hand)"
    assert isinstance(caught.value, KowahTypeError) and isinstance(caught.value, TypeError)


def test_the_same_hand_as_card_values_is_answered() -> None:
    assert is_ready(READY) and sorted(waits(READY)) == [Card.C5, Card.S5] and distance(READY) == 0
    assert is_ready(list(READY), KOWAH_DECK) and splits(tuple(READY))


def test_cards_are_accepted_wherever_codes_are() -> None:
    assert parse_cards([Card.C5, "5s", Card.RF]) == (Card.C5, Card.S5, Card.RF)
    assert parse_cards((Card.C5,) * 4) == (Card.C5,) * 4
    with pytest.raises(KowahError, match="5 copies of '5c' \\(card 5\\)"):
        parse_cards([Card.C5] * 5)  # the pack's checks hold for Card items too
    with pytest.raises(KowahError, match="'ws' \\(card 1\\) is not in the Kowah deck"):
        parse_cards([Card.WS])
    assert Card.parse(Card.M9) is Card.M9
    assert Action.from_dict({"seat": 0, "do": "discard", "card": Card.C5}) == Action.discard(0, Card.C5)


@pytest.mark.parametrize("item", [12, True, 1.0, None])
def test_parse_cards_and_card_parse_refuse_what_is_neither_a_code_nor_a_card(item: object) -> None:
    with pytest.raises(KowahTypeError, match="item 2 of the cards is"):
        parse_cards(["5c", item])  # type: ignore[list-item]
    with pytest.raises(KowahTypeError, match="a card code must be text"):
        Card.parse(item)  # type: ignore[arg-type]


@pytest.mark.parametrize("card", [12, True, "5c"])
def test_deal_and_action_refuse_what_is_no_card(card: object) -> None:
    deck: list[object] = list(Deal.shuffled(1).deck)
    deck[3] = card
    with pytest.raises(KowahTypeError, match="card 4 of the deck is"):
        Deal(deck, 0)  # type: ignore[arg-type]
    with pytest.raises(ActionTypeError, match="is not a card"):
        Action.discard(0, card)  # type: ignore[arg-type]
    with pytest.raises(KowahTypeError):
        Action(True, Action.draw(0).kind)  # a bool is no seat


# -- players asked to act with no legal action ------------------------------------------------------


@pytest.mark.parametrize("level", PLAYERS)
def test_a_built_in_player_with_no_legal_action_says_so(level: str) -> None:
    deal = Deal.shuffled(3)
    idle = next(seat for seat in range(3) if seat != deal.actor)
    view = deal.observation(idle)
    assert view.legal_actions == ()
    player = make_player(level, random.Random(0))
    with pytest.raises(KowahError, match=f"seat {idle} has no legal action now") as caught:
        player.choose(view, view.legal_actions)
    assert type(caught.value) is KowahError  # a library error, not a bare IndexError
    with pytest.raises(KowahError, match="has no legal action now"):
        player.choose(deal.observation(deal.actor), ())


# -- play_deal names the player ---------------------------------------------------------------------


class _OtherSeat:
    name = "sly"

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        return Action.draw((observation.seat + 1) % 3)


class _Illegal:
    name = "taker"

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        return Action.take(observation.seat)  # the opening turn must draw


@pytest.mark.parametrize(("player", "reason", "said"), [
    (_OtherSeat(), Reason.NOT_YOUR_TURN, "the player 'sly' at seat {seat} chose an illegal action: seat "
                                         "{other} cannot draw: it is seat {seat}'s turn"),
    (_Illegal(), Reason.OPENING_DRAW, "the player 'taker' at seat {seat} chose an illegal action: seat "
                                      "{seat} cannot take: on the opening turn, a player must draw from "
                                      "the stock"),
])
def test_play_deal_names_the_player_that_chose_an_illegal_action(player: Player, reason: Reason,
                                                                 said: str) -> None:
    deal = Deal.shuffled(5)
    seat = deal.first
    players: list[Player] = [make_player("easy", random.Random(k)) for k in range(3)]
    players[seat] = player
    with pytest.raises(IllegalActionError) as caught:
        play_deal(players, deal)
    assert str(caught.value) == said.format(seat=seat, other=(seat + 1) % 3)
    assert caught.value.reason is reason and deal.history == ()  # nothing applied
