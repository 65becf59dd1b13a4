"""Observations check themselves (as every value does) and have a JSON form; actions sort."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import play

from kowah import (
    MONEY_RULES,
    SEATS,
    Action,
    ActionKind,
    Card,
    Deal,
    KowahError,
    KowahTypeError,
    Observation,
    Pack,
    Rules,
)
from kowah.errors import CardParseError

SEEDS = st.integers(0, 2**32)
GREEDINESS = st.sampled_from([0.0, 0.8, 0.95])
RULES = st.sampled_from([Rules(), MONEY_RULES, Rules(Pack("singles and pairs", [2] * 27 + [1] * 6), 5)])


def _observation(seed: int, steps: int, greedy: float, rules: Rules, seat: int) -> Observation:
    deal = Deal.shuffled(seed, rules)
    play(deal, random.Random(seed), steps, greedy)
    return deal.observation(seat)


OBSERVATIONS = st.builds(_observation, SEEDS, st.integers(0, 250), GREEDINESS, RULES, st.integers(0, 2))


@settings(max_examples=150, deadline=None)
@given(OBSERVATIONS)
def test_every_observation_of_a_deal_passes_the_checks_and_round_trips_through_json(
        view: Observation) -> None:
    fields = attrs.asdict(view, recurse=False)
    assert Observation(**fields) == view  # the checked constructor accepts what the deal made
    data = view.to_dict()
    text = json.dumps(data)  # JSON-ready: nothing but dicts, lists, strings, ints, bools, None
    assert json.loads(text) == data
    assert Observation.from_dict(json.loads(text)) == view
    assert data["hand"] == [str(card) for card in view.hand]
    assert data["legal_actions"] == [action.to_dict() for action in view.legal_actions]


def _impossible(view: Observation) -> list[tuple[dict[str, object], type[KowahError], str]]:
    """Changes that make *view* impossible, with the error each must raise."""
    other = (view.seat + 1) % SEATS
    foreign = next((card for card in Card if card not in view.rules.pack), None)  # outside the pack
    sizes = list(view.hand_sizes)
    sizes[other] += 1 if sizes[other] < 9 else -1  # one card too many (or too few) on the table
    outside: list[tuple[dict[str, object], type[KowahError], str]] = [] if foreign is None else [
        ({"latest_discard": foreign}, KowahError, f"'{foreign}' is not in the"),
        ({"declared_waits": (foreign, None, None)}, KowahError, f"'{foreign}' is not in the"),
    ]
    return [*outside,
        ({"hand": "abc"}, KowahTypeError, "Observation.hand must be of type tuple of Card"),
        ({"hand": tuple(int(card) for card in view.hand)}, KowahTypeError, "Observation.hand"),
        ({"seat": 7}, KowahError, "Observation.seat must be a seat, 0, 1 or 2, not 7"),
        ({"seat": True}, KowahTypeError, "Observation.seat must be of type int"),
        ({"turn": -1}, KowahError, "Observation.turn must be a seat"),
        ({"first": "0"}, KowahTypeError, "Observation.first must be of type int"),
        ({"stock_count": "many"}, KowahTypeError, "Observation.stock_count must be of type int"),
        ({"stock_count": -1}, KowahError, "Observation.stock_count must be from 0 to"),
        ({"hand_sizes": (1, 2)}, KowahTypeError, "Observation.hand_sizes must be of type tuple of 3 ints"),
        ({"hand_sizes": (8, 8, 8, 8)}, KowahTypeError, "Observation.hand_sizes"),
        ({"hand_sizes": (8, 8, 80)}, KowahError, "Observation.hand_sizes[2] must be from 0 to 9"),
        ({"hand_sizes": tuple(sizes)}, KowahError, "the observation's hands, discards and stock hold"),
        ({"hand": (*view.hand, view.hand[0]) if view.hand else (Card.C1,)}, KowahError,
         "the length of Observation.hand is"),
        ({"legal_actions": [1, 2]}, KowahTypeError,
         "Observation.legal_actions must be of type tuple of Action"),
        ({"legal_actions": (1, 2)}, KowahTypeError, "Observation.legal_actions"),
        ({"legal_actions": (Action.draw(other),)}, KowahError, f"an action of seat {other}, not of seat"),
        ({"latest_discard": "5c"}, KowahTypeError, "Observation.latest_discard must be of type Card or None"),
        ({"discards": ((), ())}, KowahTypeError, "Observation.discards"),
        ({"known": ((), (), (0,))}, KowahTypeError, "Observation.known"),
        ({"public_draws": ((3, Card.C5),)}, KowahTypeError, "Observation.public_draws"),
        ({"events": ("draw",)}, KowahTypeError, "Observation.events must be of type tuple of Event"),
        ({"phase": "start"}, KowahTypeError, "Observation.phase must be of type Phase"),
        ({"outcome": "drawn"}, KowahTypeError, "Observation.outcome"),
        ({"rules": None}, KowahTypeError, "Observation.rules must be of type Rules"),
    ]


@settings(max_examples=40, deadline=None)
@given(OBSERVATIONS, st.data())
def test_impossible_fields_are_refused_by_the_constructor_and_by_replace(view: Observation,
                                                                        data: st.DataObject) -> None:
    changes, error, message = data.draw(st.sampled_from(_impossible(view)))
    fields = {**attrs.asdict(view, recurse=False), **changes}
    builders: list[Callable[[], object]] = [lambda: view.replace(**changes), lambda: Observation(**fields)]
    for build in builders:
        with pytest.raises(error) as caught:
            build()
        assert message in str(caught.value)


def test_the_cases_of_the_report_are_refused() -> None:
    view = Deal.shuffled(seed=3).observation(1)
    for changes in ({"hand": "abc"}, {"seat": 7}, {"stock_count": "many"}, {"hand": (Card.WS,) * 9},
                    {"hand": (Card.C1,) * 9}, {"hand_sizes": (1, 2)}, {"legal_actions": [1, 2]}):
        with pytest.raises(KowahError):
            view.replace(**changes)
    with pytest.raises(KowahError, match="copies of 1c, but the Kowah deck has 4"):
        view.replace(hand=(Card.C1,) * 8 + view.hand[8:])


def test_from_dict_says_what_is_wrong() -> None:
    data = Deal.shuffled(seed=3).observation(1).to_dict()
    with pytest.raises(KowahError, match="missing key 'stock_count'"):
        Observation.from_dict({key: value for key, value in data.items() if key != "stock_count"})
    with pytest.raises(CardParseError):
        Observation.from_dict({**data, "hand": ["zz", *data["hand"][1:]]})
    with pytest.raises(KowahTypeError):
        Observation.from_dict({**data, "events": [{"kind": "draw"}]})
    with pytest.raises(KowahTypeError):
        Observation.from_dict([])  # type: ignore[arg-type]
    custom = Deal.shuffled(2, Rules(Pack("singles and pairs", [2] * 27 + [1] * 6))).observation(0)
    assert custom.to_dict()["rules"]["pack"] == {"name": "singles and pairs", "counts": [2] * 27 + [1] * 6}
    assert Observation.from_dict(json.loads(json.dumps(custom.to_dict()))) == custom


# -- actions sort -----------------------------------------------------------------------------------

ACTIONS = st.one_of(
    st.builds(Action, st.integers(0, 2),
              st.sampled_from([ActionKind.DRAW, ActionKind.TAKE, ActionKind.PASS])),
    st.builds(Action.discard, st.integers(0, 2), st.sampled_from(Card)),
    st.builds(Action.declare, st.integers(0, 2), st.none() | st.sampled_from(Card)),
)


@given(ACTIONS, ACTIONS, ACTIONS)
def test_actions_have_a_total_order(a: Action, b: Action, c: Action) -> None:
    assert [a < b, a == b, a > b].count(True) == 1
    assert (a <= b) == (a < b or a == b) and (a >= b) == (a > b or a == b)
    if a <= b and b <= c:
        assert a <= c
    assert sorted([a, b, c]) == sorted([c, b, a])


def test_actions_sort_by_seat_then_kind_then_card() -> None:
    actions = [Action.pass_(0), Action.discard(0, Card.RF), Action.declare(0, Card.C5), Action.draw(1),
               Action.declare(0, None), Action.discard(0, Card.C1), Action.take(0), Action.draw(0)]
    assert sorted(actions) == [Action.draw(0), Action.take(0), Action.discard(0, Card.C1),
                               Action.discard(0, Card.RF), Action.declare(0, None),
                               Action.declare(0, Card.C5), Action.pass_(0), Action.draw(1)]
    assert sorted(Deal.shuffled(5).legal_actions()) == list(Deal.shuffled(5).legal_actions())
    with pytest.raises(TypeError):
        _ = Action.draw(0) < "draw"  # type: ignore[operator]
