"""Game records in the kowah-record/1 format: shape, reading, writing, replaying, errors."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import build_deck, play, snapshot

from kowah import (
    KOWAH_DECK,
    KOWAH_RULES,
    MONEY_PACK,
    MONEY_RULES,
    Action,
    Card,
    Deal,
    DeckError,
    IllegalActionError,
    KowahError,
    RecordError,
)
from kowah.actions import shown
from kowah.record import FORMAT, Record, replay_outcome

READY = "5c 5c 5s 5s 5m 8c 8c 8c"  # waits 5c and 5s
ONE_WAIT = "9c 9s 9m 9c 9s 9m 1c 1c"  # waits 1c only
LOOSE_1 = "1c 2s 3m 4c 6s 7m 9c ot"
LOOSE_2 = "1s 2m 3c 4s 6m 7c 2c rf"

#: The kowah-record/1 shape, written from the format's description.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "deck", "first", "actions"],
    "properties": {
        "format": {"const": "kowah-record/1"},
        "deck": {
            "type": "array", "minItems": 120, "maxItems": 120,
            "items": {"type": "string", "pattern": "^([1-9][csm]|ot|rf|wf)$"},
        },
        "first": {"enum": [0, 1, 2]},
        "passed": {"const": True},  # written only when true
        "actions": {
            "type": "array",
            "items": {
                "oneOf": [
                    {"type": "object", "additionalProperties": False, "required": ["seat", "do"],
                     "properties": {"seat": {"enum": [0, 1, 2]}, "do": {"enum": ["draw", "take"]}}},
                    {"type": "object", "additionalProperties": False,
                     "required": ["seat", "do", "card"],
                     "properties": {"seat": {"enum": [0, 1, 2]}, "do": {"const": "discard"},
                                    "card": {"type": "string"}}},
                    {"type": "object", "additionalProperties": False,
                     "required": ["seat", "do", "wait"],
                     "properties": {"seat": {"enum": [0, 1, 2]}, "do": {"const": "declare"},
                                    "wait": {"type": "string"}}},
                ]
            },
        },
    },
}


def codes(deck: list[Card] | tuple[Card, ...]) -> list[str]:
    return [str(card) for card in deck]


def record_text(deck: list[Card], actions: list[dict[str, Any]], first: int = 0, **extra: Any) -> str:
    return json.dumps({"format": FORMAT, "deck": codes(deck), "first": first, "actions": actions,
                       **extra})


#: Seat 0 draws 9m, discards it and may declare 5c or 5s.
DECK = build_deck((READY, LOOSE_1, LOOSE_2), stock="9m 1m 2m 3s 4m 6c 5s")
OPENING = [{"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "9m"}]


# -- the format -----------------------------------------------------------------------------------


def test_the_example_of_the_format() -> None:
    """The example record of the rulings: draw, discard 9m, declare 5c, the next seat takes."""
    text = record_text(DECK, [*OPENING, {"seat": 0, "do": "declare", "wait": "5c"},
                              {"seat": 1, "do": "take"}])
    deal = Record.loads(text).replay()
    assert deal.history == (Action.draw(0), Action.discard(0, Card.M9), Action.declare(0, Card.C5),
                            Action.take(1))
    assert deal.declared_wait(0) is Card.C5 and Card.M9 in deal.hand(1)
    assert replay_outcome(text) == {"result": "in-progress"}


def test_the_exact_shape_of_a_written_record() -> None:
    deal = Deal(DECK, 0)
    for action in (Action.draw(0), Action.discard(0, Card.M9), Action.declare(0, Card.S5),
                   Action.take(1), Action.discard(1, Card.OT)):
        deal.apply(action)
    data = json.loads(Record.from_deal(deal).dumps())
    jsonschema.validate(data, SCHEMA)
    assert data == {
        "format": "kowah-record/1",
        "deck": codes(DECK),
        "first": 0,
        "actions": [
            {"seat": 0, "do": "draw"},
            {"seat": 0, "do": "discard", "card": "9m"},
            {"seat": 0, "do": "declare", "wait": "5s"},
            {"seat": 1, "do": "take"},
            {"seat": 1, "do": "discard", "card": "ot"},
        ],
    }
    assert list(data) == ["format", "deck", "first", "actions"]
    assert json.loads(Record.from_deal(deal).dumps(indent=2)) == data


def test_unknown_keys_are_ignored() -> None:
    actions = [{"seat": 0, "do": "draw", "time": 3.5}, {"seat": 0, "do": "discard", "card": "9m",
                                                        "note": {"why": "far from ready"}}]
    text = record_text(DECK, actions, players=["a", "b", "c"], version=2)
    assert Record.loads(text).actions == (Action.draw(0), Action.discard(0, Card.M9))


def test_codes_are_read_in_any_case() -> None:
    data = json.loads(record_text(DECK, [{"seat": 0, "do": "draw"},
                                         {"seat": 0, "do": "discard", "card": "9M"}]))
    data["deck"] = [code.upper() for code in data["deck"]]
    record = Record.from_dict(data)
    assert record.deck == tuple(DECK)
    assert record.actions[1] == Action.discard(0, Card.M9)


def test_actions_may_be_left_out() -> None:
    data = {"format": FORMAT, "deck": codes(DECK), "first": 2}
    assert Record.from_dict(data).actions == ()
    assert replay_outcome(json.dumps(data)) == {"result": "in-progress"}


# -- declare without a wait -----------------------------------------------------------------------


def test_declare_without_wait_takes_the_only_wait() -> None:
    deck = build_deck((ONE_WAIT, LOOSE_1, LOOSE_2), stock="5m")
    text = record_text(deck, [{"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "5m"},
                              {"seat": 0, "do": "declare"}])
    deal = Record.loads(text).replay()
    assert deal.declared_wait(0) is Card.C1
    assert deal.history[-1] == Action.declare(0, Card.C1)
    # Written back, the record is read again the same (no made-up wait).
    again = Record.loads(Record.loads(text).dumps())
    assert again == Record.loads(text)
    assert again.replay().declared_wait(0) is Card.C1
    assert Record.from_deal(deal).to_dict()["actions"][-1] == {"seat": 0, "do": "declare", "wait": "1c"}


def test_declare_without_wait_is_an_error_naming_the_action_when_there_are_several() -> None:
    text = record_text(DECK, [*OPENING, {"seat": 0, "do": "declare"}])
    with pytest.raises(RecordError) as caught:
        Record.loads(text).replay()
    assert caught.value.action == 2
    assert "action 2" in str(caught.value)
    assert "5c 5s" in str(caught.value)
    assert replay_outcome(text)["action"] == 2


def test_declare_without_wait_when_no_declaration_is_possible() -> None:
    text = record_text(DECK, [{"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "5m"},
                              {"seat": 0, "do": "declare"}])
    with pytest.raises(RecordError) as caught:
        Record.loads(text).replay()
    assert caught.value.action == 2


# -- unreadable records ---------------------------------------------------------------------------

GOOD: dict[str, Any] = {"format": FORMAT, "deck": codes(DECK), "first": 0, "actions": OPENING}


def changed(**changes: Any) -> str:
    data = dict(GOOD)
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


UNREADABLE = [
    "", "{", "nope", "[1, 2", "[]", "3", "null", '"kowah-record/1"',
    changed(format=KeyError), changed(format="kowah-record/2"), changed(format=1),
    changed(deck=KeyError), changed(deck="5c 5s"), changed(deck=codes(DECK)[:-1]),
    changed(deck=[*codes(DECK), "5c"]), changed(deck=[*codes(DECK)[:-1], "ws"]),
    changed(deck=[*codes(DECK)[:-1], "zz"]), changed(deck=[*codes(DECK)[:-1], codes(DECK)[0]]),
    changed(deck=[int(card) for card in DECK]),
    changed(first=KeyError), changed(first=3), changed(first=-1), changed(first=True),
    changed(first="0"), changed(first=None), changed(first=1.5),  # 1.0 is 1: see test_schema.py
    changed(actions="draw"), changed(actions={"seat": 0}),
]


@pytest.mark.parametrize("text", UNREADABLE)
def test_unreadable_records_raise_record_error_without_an_action(text: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.loads(text)
    assert caught.value.action is None
    outcome = replay_outcome(text)
    assert outcome["result"] == "invalid" and "action" not in outcome
    assert outcome["error"] == str(caught.value)


def test_unreadable_records_name_what_is_wrong() -> None:
    with pytest.raises(RecordError) as caught:
        Record.loads(changed(format="kowah-record/2"))
    assert "'kowah-record/2'" in str(caught.value)
    with pytest.raises(RecordError) as caught:
        Record.loads(changed(deck=[*codes(DECK)[:-1], "zz"]))
    assert "'zz'" in str(caught.value) and "120" in str(caught.value)
    with pytest.raises(RecordError) as caught:
        Record.loads(changed(first=3))
    assert "3" in str(caught.value)


MISSING = [
    (changed(format=KeyError), "missing key 'format'"),
    (changed(deck=KeyError), "missing key 'deck'"),
    (changed(first=KeyError), "missing key 'first'"),
    (json.dumps({}), "missing key 'format'"),
    (json.dumps({"format": FORMAT}), "missing key 'deck'"),
]


@pytest.mark.parametrize(("text", "message"), MISSING)
def test_a_missing_key_is_called_missing(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.loads(text)
    assert str(caught.value) == message
    assert caught.value.template == "missing key {key!r}" and caught.value.action is None
    outcome = replay_outcome(text)
    assert (outcome["result"], outcome["error"], outcome.get("action")) == ("invalid", message, None)
    assert (outcome["template"], outcome["params"]) == ("missing key {key!r}",
                                                        {"action": None, **caught.value.params})


def test_a_key_present_with_a_wrong_value_is_not_called_missing() -> None:
    for text, message in ((changed(first=None), "'first' must be 0, 1 or 2, not None"),
                          (changed(first=3), "'first' must be 0, 1 or 2, not 3"),
                          (changed(format=None), "unknown format None"),
                          (changed(deck=None), "'deck' must be a list of card codes")):
        with pytest.raises(RecordError) as caught:
            Record.loads(text)
        assert str(caught.value).startswith(message)
        assert "missing" not in str(caught.value)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"do": "draw"}, "action 2: missing key 'seat'"),
        ({"seat": 0}, "action 2: missing key 'do'"),
        ({}, "action 2: missing key 'seat'"),
        ({"seat": 0, "do": "discard"}, "action 2: missing key 'card'"),
        ({"seat": 0, "do": "discard", "wait": "5c"}, "action 2: missing key 'card'"),
        ({"seat": 0, "do": "discard", "card": None}, "action 2: 'card' must be a card code, not None"),
        ({"seat": None, "do": "draw"}, "action 2: 'seat' must be 0, 1 or 2, not None"),
        ({"seat": 0, "do": None}, "action 2: unknown action None"),
    ],
)
def test_a_missing_action_key_is_called_missing(entry: dict[str, Any], message: str) -> None:
    text = record_text(DECK, [*OPENING, entry])
    with pytest.raises(RecordError) as caught:
        Record.loads(text)
    assert str(caught.value).startswith(message)
    assert caught.value.action == 2
    outcome = replay_outcome(text)
    assert (outcome["result"], outcome["action"], outcome["error"]) == ("invalid", 2, str(caught.value))
    assert outcome["template"] == caught.value.template


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ([*codes(DECK)[:-1], "ws"], "card 120 of the deck, ws, is not in the Kowah deck"),
        (["MK", *codes(DECK)], "card 1 of the deck, mk, is not in the Kowah deck"),
        ([*codes(DECK), "5c"],
         "the deck holds 5 copies of 5c, but the Kowah deck has 4 (first extra copy: card 121)"),
        ([*codes(DECK)[:-1], codes(DECK)[0]],
         f"the deck holds 5 copies of {DECK[0]}, but the Kowah deck has 4 (first extra copy: card 120)"),
        (codes(DECK)[:-1],
         f"the deck has 119 cards, but the Kowah deck has 120: a copy of {DECK[-1]} is missing"),
        ([], "the deck has 0 cards, but the Kowah deck has 120: a copy of 1c is missing"),
    ],
)
def test_a_wrong_deck_is_described(deck: list[str], message: str) -> None:
    """A card the deck lacks, too many copies, too few cards: each named (not 'exactly once'),
    in the words Deal uses for the same deck (one set of messages)."""
    with pytest.raises(RecordError) as caught:
        Record.loads(changed(deck=deck))
    assert str(caught.value) == message
    assert caught.value.action is None
    cards = [Card.parse(code) for code in deck]
    with pytest.raises(DeckError) as refused:
        Deal(cards, 0)
    assert refused.value.template == caught.value.template
    assert caught.value.params == {**refused.value.params, "action": None}
    assert str(refused.value) == message
    with pytest.raises(RecordError, match=re.escape(message)):
        Record(cards, 0)


def test_json_errors_are_our_own_words() -> None:
    """Python's English (``Expecting value: ...``) never reaches the message: it is not translated."""
    for text, message in (
        ("", "not a JSON document (line 1, column 1)"),
        ('{"format": "kowah-record/1",\n "deck": [], "first": }', "not a JSON document (line 2, column 23)"),
        (b"\x80{}", "not a JSON document (invalid UTF-8 text at byte 0)"),
        ("[" * 100_000 + "]" * 100_000, "the JSON document is nested too deeply to read"),
        (3, "a record must be JSON text, not int"),
        (None, "a record must be JSON text, not NoneType"),
    ):
        with pytest.raises(RecordError) as caught:
            Record.loads(text)  # type: ignore[arg-type]
        assert str(caught.value) == message
        assert "detail" not in caught.value.params


def test_bytes_and_other_inputs() -> None:
    assert Record.loads(changed().encode()).actions == (Action.draw(0), Action.discard(0, Card.M9))
    for bad in (b"\xff\xfe", 3, None):
        with pytest.raises(RecordError) as caught:
            Record.loads(bad)  # type: ignore[arg-type]
        assert caught.value.action is None
    with pytest.raises(RecordError):
        Record.loads("[" * 100_000 + "]" * 100_000)  # nested too deep to read


def test_a_record_with_a_bad_deck_does_not_replay() -> None:
    with pytest.raises(RecordError) as caught:
        Record(DECK[:-1], 0).replay()
    assert caught.value.action is None
    assert str(caught.value) == (f"the deck has 119 cards, but the Kowah deck has 120: "
                                 f"a copy of {DECK[-1]} is missing")
    with pytest.raises(RecordError) as caught:
        Record([*DECK[:-1], Card.WS], 0).replay()
    assert str(caught.value) == "card 120 of the deck, ws, is not in the Kowah deck"


def test_a_record_built_in_python_from_bad_values_is_a_record_error() -> None:
    """No AttributeError from replay() or to_dict(): a Record of wrong values cannot be built."""
    deck = build_deck((LOOSE_1, READY, LOOSE_2), stock="9m")
    for actions, message in (
        (["draw"], "action 0: not an Action but 'draw' of type str"),
        ([Action.draw(1), None], "action 1: not an Action but None of type NoneType"),
        ([Action.draw(1), Action.discard(1, Card.M9), Action.pass_(1)],
         "action 2: a record lists no passes (see 'passed')"),
        (5, "a record's actions must be a sequence of Actions, not 5"),
    ):
        with pytest.raises(RecordError) as caught:
            Record(deck, 1, actions)  # type: ignore[arg-type]
        assert str(caught.value) == message
    for bad_deck in (None, "5c", [*deck[:-1], "5c"]):
        with pytest.raises(RecordError, match="deck"):
            Record(bad_deck, 1)  # type: ignore[arg-type]
    for first in (3, True, "0", None):
        with pytest.raises(RecordError, match="'first' must be 0, 1 or 2"):
            Record(deck, first)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="rules must be a Rules value"):
        Record(deck, 1, rules=MONEY_PACK)  # type: ignore[arg-type]
    # A declaration without a wait is an Action (the only wait), as in records.
    record = Record(deck, 1, [Action.draw(1), Action.discard(1, Card.M9), Action.declare(1, None)])
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.action == 2 and "the hand offers several waits (5c 5s); name one" in str(caught.value)


BAD_ENTRIES = [
    "draw", 3, None, [], {"do": "draw"}, {"seat": 3, "do": "draw"}, {"seat": -1, "do": "draw"},
    {"seat": True, "do": "draw"}, {"seat": "0", "do": "draw"}, {"seat": 0}, {"seat": 0, "do": "pass"},
    {"seat": 0, "do": "jump"}, {"seat": 0, "do": ["draw"]}, {"seat": 0, "do": {"x": 1}},
    {"seat": 0, "do": "discard"}, {"seat": 0, "do": "discard", "card": "zz"},
    {"seat": 0, "do": "discard", "card": 12}, {"seat": 0, "do": "discard", "card": ["5c"]},
    {"seat": 0, "do": "declare", "wait": "5c 5s"},
]


@pytest.mark.parametrize("entry", BAD_ENTRIES)
def test_malformed_actions_raise_record_error_naming_their_index(entry: object) -> None:
    text = record_text(DECK, [*OPENING, entry])  # type: ignore[list-item]
    with pytest.raises(RecordError) as caught:
        Record.loads(text)
    assert caught.value.action == 2
    assert "action 2" in str(caught.value)
    assert replay_outcome(text)["action"] == 2


# -- illegal actions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actions", "index"),
    [
        ([{"seat": 1, "do": "draw"}], 0),  # not seat 1's turn
        ([{"seat": 0, "do": "take"}], 0),  # R10: the opening turn draws
        ([{"seat": 0, "do": "draw"}, {"seat": 0, "do": "draw"}], 1),
        ([*OPENING, {"seat": 0, "do": "declare", "wait": "8c"}], 2),  # not a wait
        ([*OPENING, {"seat": 1, "do": "take"}, {"seat": 1, "do": "discard", "card": "9m"}], 3),
        ([{"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "ot"}], 1),  # not held
    ],
)
def test_an_illegal_action_is_a_record_error_with_its_index(
    actions: list[dict[str, Any]], index: int
) -> None:
    text = record_text(DECK, actions)
    record = Record.loads(text)  # well formed: legality is checked by replaying
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert caught.value.action == index
    assert f"action {index}" in str(caught.value)
    assert isinstance(caught.value.cause, IllegalActionError)
    assert str(caught.value.cause) in str(caught.value)
    outcome = replay_outcome(text)
    assert outcome["result"] == "invalid"
    assert outcome["action"] == index
    assert outcome["error"] == str(caught.value)
    # What a translation needs: the reason's code and fields, the message's template and fields.
    refusal = caught.value.cause.refusal
    assert outcome["reason"] == refusal.reason.value
    assert outcome["reason_params"] == {name: value if type(value) is int else str(value)
                                        for name, value in shown(refusal.params).items()}
    assert (outcome["template"], outcome["params"]["action"]) == ("action {action}: {reason}", index)
    # Replaying only the legal prefix works.
    assert record.replay(upto=index).history == record.actions[:index]


# -- outcomes ---------------------------------------------------------------------------------------


def test_replay_outcome_of_a_win() -> None:
    actions = [*OPENING, {"seat": 0, "do": "declare", "wait": "5s"}]
    for seat in (1, 2, 0, 1, 2):  # each draws and discards the drawn card
        card = str(DECK[24 + sum(1 for a in actions if a["do"] == "draw")])
        actions += [{"seat": seat, "do": "draw"}, {"seat": seat, "do": "discard", "card": card}]
    actions.append({"seat": 0, "do": "draw"})  # 5s: a self-draw
    assert replay_outcome(record_text(DECK, actions)) == {
        "result": "win", "winner": 0, "by": "self-draw", "multiplier": 3, "card": "5s",
    }
    # Actions after the end of the deal are illegal.
    text = record_text(DECK, [*actions, {"seat": 0, "do": "discard", "card": "5s"}])
    assert replay_outcome(text)["action"] == len(actions)


def test_replay_outcome_of_a_drawn_deal() -> None:
    deal = Deal(build_deck((LOOSE_1, LOOSE_2, "1m 2c 3s 4m 6c 7s 9m wf")), 1)
    while not deal.is_over:
        deal.apply(Action.draw(deal.turn))
        if not deal.is_over:
            drawn = deal.events[-1].card
            assert drawn is not None
            deal.apply(Action.discard(deal.turn, drawn))
    assert replay_outcome(Record.from_deal(deal).dumps()) == {"result": "drawn", "by": "exhaustion"}


# -- properties ------------------------------------------------------------------------------------


@settings(max_examples=25)
@given(st.integers(0, 2**32), st.one_of(st.none(), st.integers(0, 250)), st.sampled_from([0.0, 0.9]),
       st.booleans())
def test_write_read_replay_reproduces_the_deal(seed: int, steps: int | None, greedy: float,
                                               then_pass: bool) -> None:
    deal = Deal.shuffled(seed)
    rng = random.Random(seed)
    play(deal, rng, steps, greedy)
    while then_pass and not deal.is_over and deal.declaring_seat is None:
        play(deal, rng, 1, greedy)  # on to a declaring window, if the deal has one
    if then_pass and deal.declaring_seat is not None:
        deal.apply(Action.pass_(deal.declaring_seat))
    record = Record.from_deal(deal)
    text = record.dumps()
    jsonschema.validate(json.loads(text), SCHEMA)
    read = Record.loads(text)
    assert read == record
    replayed = read.replay()
    assert replayed.outcome == deal.outcome
    assert replayed.history == deal.history
    assert [replayed.hand(s) for s in range(3)] == [deal.hand(s) for s in range(3)]
    assert replayed.events == deal.events
    assert snapshot(replayed) == snapshot(deal)  # the same state: who may act, and how
    expected = deal.outcome.as_dict() if deal.outcome else {"result": "in-progress"}
    assert replay_outcome(text) == expected


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
FIELD = st.one_of(JSON, st.sampled_from(["draw", "take", "discard", "declare", "5c", "9m", "ot"]))
ENTRY = st.one_of(
    JSON,
    st.fixed_dictionaries({"seat": st.one_of(st.integers(-1, 3), JSON), "do": FIELD},
                          optional={"card": FIELD, "wait": FIELD}),
)


@given(
    st.one_of(st.just(FORMAT), JSON),
    st.one_of(st.just(codes(DECK)), JSON),
    st.one_of(st.integers(-1, 3), JSON),
    st.one_of(st.lists(ENTRY, max_size=5), JSON),
)
def test_arbitrary_records_raise_only_record_error(
    format_: object, deck: object, first: object, actions: object
) -> None:
    data = {"format": format_, "deck": deck, "first": first, "actions": actions}
    try:
        record = Record.from_dict(data)
        record.replay()
    except RecordError as error:
        assert isinstance(error, KowahError)
        if error.action is not None:
            assert isinstance(actions, list) and 0 <= error.action < len(actions)
    outcome = replay_outcome(json.dumps(data))
    assert outcome["result"] in ("invalid", "in-progress", "win", "drawn")


def test_record_errors_are_kowah_errors() -> None:
    assert issubclass(RecordError, KowahError)
    assert len(KOWAH_DECK) == len(DECK)


# -- a pass at the end ------------------------------------------------------------------------------


def test_a_pass_after_the_last_discard_is_saved_and_replayed() -> None:
    deal = Record.loads(record_text(DECK, OPENING)).replay()
    assert deal.to_move() == (0, 1)  # seat 0 may still declare
    deal.apply(Action.pass_(0))
    text = Record.from_deal(deal).dumps()
    assert json.loads(text)["passed"] is True
    replayed = Record.loads(text).replay()
    assert snapshot(replayed) == snapshot(deal)
    assert replayed.to_move() == (1,) and replayed.legal_actions(0) == ()
    assert Record.loads(text).replay(upto=1).declaring_seat is None  # passed applies at the end only
    # Without the pass the window stays open, and nothing is written.
    open_window = Record.loads(record_text(DECK, OPENING))
    assert not open_window.passed and "passed" not in open_window.to_dict()
    assert open_window.replay().to_move() == (0, 1)


def test_passed_must_be_a_boolean_and_must_close_a_window() -> None:
    with pytest.raises(RecordError, match="'passed' must be true or false, not 'yes'"):
        Record.loads(record_text(DECK, OPENING, passed="yes"))
    record = Record.loads(record_text(DECK, OPENING[:1], passed=True))
    with pytest.raises(RecordError, match="'passed' is true, but no seat may declare"):
        record.replay()
    assert Record.loads(record_text(DECK, OPENING, passed=False)).replay().to_move() == (0, 1)


# -- the rules in records: "pack" ------------------------------------------------------------------


@settings(max_examples=20)
@given(st.integers(0, 2**32), st.integers(0, 250))
def test_a_money_pack_deal_records_its_pack_and_replays(seed: int, steps: int) -> None:
    """V1: a money-pack deal's record says "pack": "money" and replays to the same state."""
    deal = Deal.shuffled(seed, rules=MONEY_RULES)
    play(deal, random.Random(seed), steps, 0.8)
    record = Record.from_deal(deal)
    assert record.rules is MONEY_RULES
    data = json.loads(record.dumps())
    assert data["pack"] == "money" and len(data["deck"]) == 132
    again = Record.loads(json.dumps(data))
    assert again == record and again.rules is MONEY_RULES
    assert snapshot(again.replay()) == snapshot(deal)
    assert again.replay().rules is MONEY_RULES


def test_a_record_without_pack_is_the_kowah_deck() -> None:
    deal = Deal.shuffled(3)
    play(deal, random.Random(3), 40)
    data = Record.from_deal(deal).to_dict()
    assert "pack" not in data  # every record written before the key still means the same
    assert Record.from_dict(data).rules is KOWAH_RULES
    assert Record.from_dict({**data, "pack": "kowah"}) == Record.from_dict(data)
    # A Kowah deck is no money-pack deck, and the other way round.
    with pytest.raises(RecordError, match=r"the deck has 120 cards, but the money pack has 132"):
        Record.from_dict({**data, "pack": "money"})
    money = Record.from_deal(Deal.shuffled(3, rules=MONEY_RULES)).to_dict()
    with pytest.raises(RecordError, match="is not in the Kowah deck"):
        Record.from_dict({**money, "pack": "kowah"})
    for bad in ("Money", "bridge", None, 1, ["money"]):
        with pytest.raises(RecordError) as caught:
            Record.from_dict({**data, "pack": bad})
        assert str(caught.value) == (f"'pack' must be \"kowah\", \"money\" or an object with a name and "
                                     f"counts, not {bad!r}")
        assert caught.value.params["key"] == "pack"


def test_record_actions_use_the_actions_own_dict_form() -> None:
    deal = Deal.shuffled(8)
    play(deal, random.Random(8), 60, 0.8)
    record = Record.from_deal(deal)
    assert record.to_dict()["actions"] == [action.to_dict() for action in deal.history]
    assert Record.from_dict(record.to_dict()).actions == deal.history


# -- tags, and a record that cannot be built invalid ---------------------------------------------


def test_tags_are_kept_through_loads_and_dumps() -> None:
    deal = Deal.shuffled(3)
    deal.apply(Action.draw(deal.actor))
    tags = {"seat0": "Ana", "seat1": "hard", "date": "2026-12-01", "event": "Friday table", "site": "Brno"}
    record = Record.from_deal(deal, tags=tags)
    text = record.dumps()
    assert json.loads(text)["tags"] == tags
    again = Record.loads(text)
    assert again == record and dict(again.tags) == tags and again.dumps() == text
    assert "tags" not in Record.from_deal(deal).to_dict()  # written only when there are some
    with pytest.raises(TypeError):
        record.tags["seat0"] = "Bo"  # type: ignore[index]  # read-only


@pytest.mark.parametrize(("tags", "message"), [
    ({f"t{n}": "x" for n in range(33)}, "'tags' holds 33 tags, more than the 32 a record keeps"),
    ({"": "x"}, "a tag's name must be 1 to 32 characters"),
    ({"x" * 33: "x"}, "a tag's name must be 1 to 32 characters"),
    ({"seat0": "x" * 201}, "tag 'seat0': a tag's value must be a string of at most 200 characters"),
    ({"seat0": "a\nb"}, "no control or bidirectional formatting character"),
    # A right-to-left override or isolate would make a tag show what it does not hold (issue 29).
    ({"seat0": "evil\u202egnp.exe"}, "no control or bidirectional formatting character"),
    ({"seat0": "a\u2066b"}, "no control or bidirectional formatting character"),
    ({"seat\u202e0": "x"}, "no control or bidirectional formatting character"),
    ({"seat0": "a\ud800b"}, "no control or bidirectional formatting character"),
    ({"seat0": 5}, "a tag's value must be a string"),
    (["seat0"], "'tags' must be an object of strings"),
])
def test_bad_tags_are_refused_with_what_is_wrong(tags: object, message: str) -> None:
    deal = Deal.shuffled(3)
    with pytest.raises(RecordError, match=re.escape(message)):
        Record.from_deal(deal, tags=tags)  # type: ignore[arg-type]
    data = Record.from_deal(deal).to_dict()
    with pytest.raises(RecordError, match=re.escape(message)):
        Record.from_dict({**data, "tags": tags})


def test_replaying_past_the_last_action_is_an_error() -> None:
    deal = Deal.shuffled(3)
    deal.apply(Action.draw(deal.actor))
    record = Record.from_deal(deal)
    assert record.replay(upto=1) == deal and record.replay(upto=0) == Deal.shuffled(3)
    past = "'upto' must be at most 1 (the record's number of actions), not 99"
    with pytest.raises(KowahError, match=re.escape(past)):
        record.replay(upto=99)
