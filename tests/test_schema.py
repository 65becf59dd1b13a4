"""The JSON Schema of kowah-record/1 (kowah/record.schema.json) agrees with the engine.

Records the engine writes, finished and unfinished, validate; malformed records are rejected by
both the schema and the engine.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kowah import ActionKind, Deal
from kowah.cards import KOWAH_DECK, Card
from kowah.errors import RecordError
from kowah.players import make_player
from kowah.record import FORMAT, Record, replay_outcome
from kowah.simulation import play_deal

Json = dict[str, Any]


def load_schema() -> Json:
    text = resources.files("kowah").joinpath("record.schema.json").read_text(encoding="utf-8")
    schema: Json = json.loads(text)
    return schema


SCHEMA = load_schema()
VALIDATOR = Draft202012Validator(SCHEMA)
OUTCOME_VALIDATOR = Draft202012Validator(
    {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": "#/$defs/outcome"}
)


def random_deal(seed: int, stop: int | None = None) -> Deal:
    """A deal played with random legal actions, to its end or for *stop* actions."""
    rng = random.Random(seed)
    deal = Deal.shuffled(seed=seed)
    while not deal.is_over and (stop is None or len(deal.history) < stop):
        deal.apply(rng.choice(deal.legal_actions(deal.to_move()[0])))
    return deal


def record_json(deal: Deal) -> Json:
    data: Json = json.loads(Record.from_deal(deal).dumps())
    return data


def played_deal(seed: int) -> Deal:
    """A deal played to its end by the built-in hard players (they win more often)."""
    players = [make_player("hard", random.Random(seed * 3 + seat)) for seat in range(3)]
    return play_deal(players, Deal.shuffled(seed=seed))


FINISHED = [random_deal(seed) for seed in range(5)] + [played_deal(seed) for seed in range(5)]
IN_PROGRESS = random_deal(100, stop=7)


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["format"]["const"] == FORMAT


def test_the_schema_counts_every_kind_of_the_kowah_deck() -> None:
    deck = SCHEMA["properties"]["deck"]
    assert deck["minItems"] == deck["maxItems"] == len(KOWAH_DECK)
    counted = {}
    for rule in deck["allOf"]:
        pattern = rule["contains"]["pattern"]
        (card,) = [card for card in Card if re.fullmatch(pattern, str(card))]
        assert re.fullmatch(pattern, str(card).upper())
        counted[card] = (rule["minContains"], rule["maxContains"])
    assert counted == {card: (4, 4) for card in KOWAH_DECK.kinds}
    card_pattern = SCHEMA["$defs"]["card"]["pattern"]
    assert [card for card in Card if re.fullmatch(card_pattern, str(card))] == list(KOWAH_DECK.kinds)


def test_finished_records_of_random_deals_validate() -> None:
    seen_kinds: set[str] = set()
    for deal in FINISHED:
        assert deal.is_over
        data = record_json(deal)
        VALIDATOR.validate(data)
        seen_kinds |= {action["do"] for action in data["actions"]}
        OUTCOME_VALIDATOR.validate(replay_outcome(json.dumps(data)))
    # The sample exercises every kind of action a record can hold.
    assert seen_kinds == {"draw", "take", "discard", "declare"}
    assert {deal.outcome.result for deal in FINISHED if deal.outcome} >= {"win"}


def test_an_in_progress_record_and_an_unplayed_one_validate() -> None:
    data = record_json(IN_PROGRESS)
    assert not IN_PROGRESS.is_over and data["actions"]
    VALIDATOR.validate(data)
    assert replay_outcome(json.dumps(data)) == {"result": "in-progress"}
    OUTCOME_VALIDATOR.validate({"result": "in-progress"})
    unplayed = record_json(Deal.shuffled(seed=1))
    VALIDATOR.validate(unplayed)
    del unplayed["actions"]  # "actions" may be left out
    VALIDATOR.validate(unplayed)
    assert Record.from_dict(unplayed).actions == ()


def test_outcomes_of_every_kind_validate() -> None:
    for outcome in ({"result": "drawn"},
                    {"result": "win", "winner": 1, "by": "self-draw", "multiplier": 3, "card": "rf"},
                    {"result": "win", "winner": 0, "by": "discard", "multiplier": 2, "card": "5c"},
                    {"result": "win", "winner": 2, "by": "draw-claim", "multiplier": 1, "card": "9m"}):
        OUTCOME_VALIDATOR.validate(outcome)
    assert not OUTCOME_VALIDATOR.is_valid(
        {"result": "win", "winner": 0, "by": "discard", "multiplier": 3, "card": "5c"})
    assert not OUTCOME_VALIDATOR.is_valid({"result": "lost"})


def test_what_readers_accept_validates_too() -> None:
    """Upper-case codes, a declare without its wait and unknown keys (R3; the format's rules)."""
    deal = next(deal for deal in FINISHED
                if any(action.kind is ActionKind.DECLARE for action in deal.history))
    data = record_json(deal)
    data["deck"] = [code.upper() for code in data["deck"]]
    data["comment"] = "a key from a later version"
    for action in data["actions"]:
        action["time"] = 1.5
    VALIDATOR.validate(data)
    assert Record.from_dict(data).replay().outcome == deal.outcome
    for action in data["actions"]:
        if action["do"] == "declare":
            del action["wait"]
    VALIDATOR.validate(data)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Json], None]:
    def change(data: Json) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _delete(path: tuple[Any, ...]) -> Callable[[Json], None]:
    def change(data: Json) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


def _fifth_copy(data: Json) -> None:
    deck = data["deck"]
    code = deck[0]
    deck[deck.index(next(other for other in deck if other != code))] = code


MALFORMED: dict[str, Callable[[Json], None]] = {
    "no format": _delete(("format",)),
    "another format": _set(("format",), "kowah-record/2"),
    "no deck": _delete(("deck",)),
    "a short deck": lambda data: data["deck"].pop(),
    "a long deck": lambda data: data["deck"].append("5c"),
    "five copies of a card": _fifth_copy,
    "a card the deck lacks": _set(("deck", 10), "ws"),
    "an unknown code": _set(("deck", 0), "zz"),
    "a deck of numbers": _set(("deck",), list(range(120))),
    "no first seat": _delete(("first",)),
    "first seat 3": _set(("first",), 3),
    "first seat as text": _set(("first",), "0"),
    "first seat true": _set(("first",), True),
    "actions not a list": _set(("actions",), {"seat": 0, "do": "draw"}),
    "an action that is not an object": _set(("actions", 0), "draw"),
    "an action without a seat": _delete(("actions", 0, "seat")),
    "seat 3": _set(("actions", 0, "seat"), 3),
    "an unknown action": _set(("actions", 0, "do"), "claim"),
    "a discard without its card": _delete(("actions", 1, "card")),
    "a discard of an unknown code": _set(("actions", 1, "card"), "10c"),
    "a declared wait the deck lacks": lambda data: data["actions"].insert(
        2, {"seat": data["actions"][1]["seat"], "do": "declare", "wait": "mk"}),
}


def _engine_rejects(data: Json) -> bool:
    try:
        Record.loads(json.dumps(data)).replay()
    except RecordError:
        return True
    return False


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_records_are_rejected_by_the_schema_and_the_engine(name: str) -> None:
    data = record_json(IN_PROGRESS)
    assert data["actions"][0]["do"] == "draw" and data["actions"][1]["do"] == "discard"
    VALIDATOR.validate(data)
    broken = copy.deepcopy(data)
    MALFORMED[name](broken)
    assert not VALIDATOR.is_valid(broken), name
    assert _engine_rejects(broken), name
