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
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from kowah import ActionKind, Deal
from kowah.cards import KOWAH_DECK, MONEY_PACK, Card, Pack
from kowah.engine import KOWAH_RULES, MONEY_RULES
from kowah.errors import RecordError
from kowah.players import make_player
from kowah.record import FORMAT, MAX_ACTIONS, MAX_SIZE, Record, replay_outcome
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


@pytest.mark.parametrize(("name", "pack", "card"), [("kowahDeck", KOWAH_DECK, "card"),
                                                     ("moneyDeck", MONEY_PACK, "moneyCard")])
def test_the_schema_counts_every_kind_of_each_pack(name: str, pack: Pack, card: str) -> None:
    deck = SCHEMA["$defs"][name]
    assert deck["minItems"] == deck["maxItems"] == len(pack)
    counted = {}
    for rule in deck["allOf"]:
        pattern = rule["contains"]["pattern"]
        (found,) = [kind for kind in Card if re.fullmatch(pattern, str(kind))]
        assert re.fullmatch(pattern, str(found).upper())
        counted[found] = (rule["minContains"], rule["maxContains"])
    assert counted == {kind: (4, 4) for kind in pack.kinds}
    card_pattern = SCHEMA["$defs"][card]["pattern"]
    assert [kind for kind in Card if re.fullmatch(card_pattern, str(kind))] == list(pack.kinds)
    bounds = SCHEMA["allOf"][-1]["then"]  # records without "rules": each pack's longest deal
    assert bounds["if"]["properties"]["pack"]["const"] == "money"
    branch = bounds["then" if pack == MONEY_PACK else "else"]["properties"]["actions"]
    assert branch["maxItems"] == (MONEY_RULES if pack == MONEY_PACK else KOWAH_RULES).max_actions
    assert max(bounds[key]["properties"]["actions"]["maxItems"] for key in ("then", "else")) == MAX_ACTIONS


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
    for outcome in ({"result": "drawn", "by": "exhaustion"}, {"result": "drawn", "by": "no-progress"},
                    {"result": "win", "winner": 1, "by": "self-draw", "multiplier": 3, "card": "rf"},
                    {"result": "win", "winner": 0, "by": "discard", "multiplier": 2, "card": "5c"},
                    {"result": "win", "winner": 2, "by": "draw-claim", "multiplier": 1, "card": "9m"}):
        OUTCOME_VALIDATOR.validate(outcome)
    assert not OUTCOME_VALIDATOR.is_valid(
        {"result": "win", "winner": 0, "by": "discard", "multiplier": 3, "card": "5c"})
    assert not OUTCOME_VALIDATOR.is_valid({"result": "drawn"})  # a drawn deal says why
    assert not OUTCOME_VALIDATOR.is_valid({"result": "drawn", "by": "discard"})
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


# -- the schema and the reader agree (issue 10): a property test over mutated records --------------


def _reads(text: str) -> bool:
    """Whether the reader takes the document (reading only: legality is the replay's)."""
    try:
        Record.loads(text)
    except RecordError:
        return False
    return True


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:12]):  # the first cards and actions are enough
            found += _paths(item, (*path, index))
    return found


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 140), st.sampled_from([0.0, 1.0, 2.5, -1.0, 1e300]),
              st.sampled_from(["5c", "5C", " 5c", "5c ", "ws", "mk", "zz", "", "draw", "take", "discard",
                               "declare", "pass", "kowah", "money", FORMAT, "kowah-record/2"])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["seat", "do", "card", "wait", "x"]), inner, max_size=3),
    max_leaves=6,
)
BASES = [record_json(IN_PROGRESS), record_json(FINISHED[0]),
         record_json(Deal.shuffled(seed=3, rules=MONEY_RULES)),
         record_json(Deal.shuffled(seed=4, rules=MONEY_RULES.replace(no_progress_turns=12)))]


def _near(value: Any) -> list[Any]:
    if isinstance(value, str):
        return [value.upper(), f" {value}", f"{value} ", value.capitalize(), value[:-1] or "x"]
    if isinstance(value, bool):
        return [int(value), not value, None]
    if isinstance(value, int):
        return [float(value), value + 3, -value - 1, str(value), value == 1, value + 0.5]
    if isinstance(value, float):
        return [int(value), value + 0.5]
    if isinstance(value, list):
        return [value[:-1], [*value, value[-1]] if value else [None], value[::-1], {}]
    if isinstance(value, dict):
        return [[value], {**value, "extra": 1}, {key: item for key, item in list(value.items())[1:]}]
    return [0, "x"]


@st.composite
def mutated_records(draw: st.DrawFn) -> Json:
    data = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(data)))
        kind = draw(st.sampled_from(["set", "delete", "add", "swap", "perturb", "perturb"]))
        if not path:
            if kind == "set":
                data = draw(JSON_VALUES)  # type: ignore[arg-type]  # not an object: refused
            continue
        target: Any = data
        try:
            for key in path[:-1]:
                target = target[key]
            last = path[-1]
            if kind == "set":
                target[last] = draw(JSON_VALUES)
            elif kind == "delete":
                del target[last]
            elif kind == "add" and isinstance(target, dict):
                target[draw(st.sampled_from(["pack", "passed", "actions", "extra", "card", "wait"]))] = (
                    draw(JSON_VALUES))
            elif kind == "perturb":  # a near miss: the same value written slightly otherwise
                target[last] = draw(st.sampled_from(_near(target[last])))
            elif kind == "swap" and isinstance(target, list) and target:
                other = draw(st.integers(0, len(target) - 1))
                target[last], target[other] = target[other], target[last]
        except (KeyError, IndexError, TypeError):
            continue
    return data


# 150 examples keep this under 10 s on a busy two-core machine; the "thorough" profile runs more.
@settings(max_examples=max(150, settings().max_examples), deadline=None)
@given(mutated_records())
def test_the_schema_and_the_reader_agree_on_mutated_records(data: Json) -> None:
    """Whatever the schema accepts the reader reads, and whatever it refuses the reader refuses."""
    assert VALIDATOR.is_valid(data) == _reads(json.dumps(data)), data


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "nope", "deck": [], "first": 0, "format": "kowah-record/1"}',
         "the key 'format' appears twice in one JSON object"),
        ('{"format": "kowah-record/1", "x": NaN}', "NaN is not a JSON number"),
        ('{"format": "kowah-record/1", "x": [-Infinity]}', "-Infinity is not a JSON number"),
    ],
)
def test_the_reader_refuses_what_json_leaves_open(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.loads(text)
    assert str(caught.value) == message
    outcome = replay_outcome(text)
    assert (outcome["result"], outcome["error"], outcome["template"]) == (
        "invalid", message, caught.value.template)


def test_a_long_integer_anywhere_is_a_record_error_not_a_value_error() -> None:
    """The ``json`` module raised a bare ValueError for integers of more than 4,300 digits (issue 10)."""
    data = record_json(IN_PROGRESS)
    text = json.dumps(data)
    for place in ('"first": ' + str(data["first"]), '"seat": 0'):
        broken = text.replace(place, place.split(":")[0] + ": " + "7" * 5000, 1)
        assert broken != text
        with pytest.raises(RecordError) as caught:
            Record.loads(broken)
        assert "<an integer of 5000 digits>" in str(caught.value) and len(str(caught.value)) < 200
        assert replay_outcome(broken)["result"] == "invalid"
    extra = json.dumps({**data, "comment": 0}).replace('"comment": 0', '"comment": ' + "7" * 5000)
    assert Record.loads(extra) == Record.loads(text)  # an unknown key's value is ignored


def test_one_point_zero_is_the_integer_one() -> None:
    data = record_json(IN_PROGRESS)
    data["first"] = float(data["first"])
    assert VALIDATOR.is_valid(data)
    assert Record.loads(json.dumps(data)) == Record.from_deal(IN_PROGRESS)


def test_work_is_bounded_by_the_size_and_the_number_of_actions() -> None:
    """A 54 MB record invalid at action 0 took 2 s and 640 MB (issue 10): refused unread. The
    most actions a record lists are those of the longest legal deal (R16, R17)."""
    data = record_json(IN_PROGRESS)
    data["actions"] = [{"seat": 9, "do": "draw"}] * 2_000_000
    text = json.dumps(data)
    with pytest.raises(RecordError, match="more than the 2000000 a record may be") as caught:
        Record.loads(text)
    assert caught.value.params["size"] == len(text)  # refused on its length, before parsing
    assert MAX_ACTIONS == max(KOWAH_RULES.max_actions, MONEY_RULES.max_actions) == 6425
    data["actions"] = [{"seat": 0, "do": "draw"}] * (MAX_ACTIONS + 1)
    text = json.dumps(data)
    assert len(text) < MAX_SIZE
    with pytest.raises(RecordError, match="lists 6426 actions, more than the 6425"):
        Record.loads(text)
    assert not VALIDATOR.is_valid(data)
    data["actions"] = [{"seat": 0, "do": "draw"}] * (KOWAH_RULES.max_actions + 1)
    with pytest.raises(RecordError, match="at most 5705 actions, the most a deal can have"):
        Record.loads(json.dumps(data))  # more than a Kowah-deck deal can have
