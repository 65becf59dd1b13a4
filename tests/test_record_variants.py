"""Variants are first-class (issue 29): a deal under any valid Rules is recorded, read back,
replayed and simulated, from Python and from the command line (V1, R17, "Adding a variant")."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from support import play
from test_schema import SCHEMA

from kowah import KOWAH_RULES, MONEY_RULES, Deal, Pack, RecordError, Rules
from kowah.cli import main
from kowah.i18n import translator
from kowah.record import Record, replay_outcome
from kowah.simulation import simulate

VALIDATOR = Draft202012Validator(SCHEMA)
SHORT = Pack("short pack", [3] * 30 + [0] * 3)  # three copies of each kind of the Kowah deck
SNAKES = Pack("snakes pack", [4] * 27 + [0] * 3 + [4] * 3)  # suit cards and the money pack's snakes
PACKS = [KOWAH_RULES.pack, MONEY_RULES.pack, SHORT, SNAKES]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PACKS), st.integers(1, 60) | st.integers(2**62, 2**80), st.integers(0, 2**32),
       st.integers(0, 400))
def test_a_deal_under_any_rules_is_recorded_read_and_replayed(pack: Pack, turns: int, seed: int,
                                                              steps: int) -> None:
    rules = Rules(pack=pack, no_progress_turns=turns)
    deal = Deal.shuffled(seed, rules)
    play(deal, random.Random(seed), steps, 0.5)
    record = Record.from_deal(deal, tags={"seat0": "Jiří"})
    text = record.dumps()
    data = json.loads(text)
    VALIDATOR.validate(data)
    assert ("rules" in data) == (turns != 30) and ("pack" in data) == (pack != KOWAH_RULES.pack)
    again = Record.loads(text)
    assert again == record and again.rules == rules
    replayed = again.replay()
    assert replayed.history == deal.history and replayed.outcome == deal.outcome
    assert replayed.rules == rules and replayed.to_move() == deal.to_move()


def test_rules_with_a_limit_past_sys_maxsize_are_recorded_too() -> None:
    """Found by benchmarks/fuzz.py: Record.from_deal raised a bare ValueError (from islice) for
    rules whose longest deal has more actions than sys.maxsize."""
    rules = Rules(no_progress_turns=2**70)
    assert rules.max_actions > sys.maxsize
    deal = Deal.shuffled(5, rules)
    play(deal, random.Random(5), 40)
    again = Record.loads(Record.from_deal(deal).dumps())
    assert again.rules == rules and again.replay() == deal


def test_an_older_record_still_reads_as_the_default_rules() -> None:
    deal = Deal.shuffled(8)
    play(deal, random.Random(8))
    data = Record.from_deal(deal).to_dict()
    assert "rules" not in data and "pack" not in data
    assert Record.from_dict(data).rules is KOWAH_RULES
    assert Record.from_dict({**data, "rules": {}}).rules is KOWAH_RULES
    assert Record.from_dict({**data, "rules": {"no_progress_turns": 30}}).rules is KOWAH_RULES


def test_a_record_names_the_no_progress_limit_that_ended_its_deal() -> None:
    """R17 with 3 turns: the deal ends drawn sooner; read without "rules" it would not be over."""
    rules = KOWAH_RULES.replace(no_progress_turns=3)
    deal = Deal.shuffled(2, rules, first=0)
    while not deal.is_over:  # take whenever one may: the no-progress rule ends it
        legal = deal.legal_actions(deal.to_move()[0])
        deal.apply(next((action for action in legal if action.kind == "take"), legal[0]))
    assert deal.outcome is not None and deal.outcome.as_dict() == {"result": "drawn", "by": "no-progress"}
    text = Record.from_deal(deal).dumps()
    assert replay_outcome(text) == {"result": "drawn", "by": "no-progress"}
    without = json.loads(text)
    del without["rules"]
    assert replay_outcome(json.dumps(without)) == {"result": "in-progress"}  # another game: not over


def _base(rules: Rules = MONEY_RULES) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Record.from_deal(Deal.shuffled(5, rules)).dumps())
    return data


@pytest.mark.parametrize(("change", "key", "said"), [
    ({"rules": {"no_progress_turns": 40, "locked_take": True}}, "rules",
     "'rules': unknown setting 'locked_take' (a record's rules may set no_progress_turns)"),
    ({"rules": {"no_progress_turns": 0}}, "rules", "'rules': no_progress_turns must be at least 1, not 0"),
    ({"rules": {"no_progress_turns": "40"}}, "rules",
     "'rules': no_progress_turns must be a whole number, not '40'"),
    ({"rules": {"no_progress_turns": True}}, "rules",
     "'rules': no_progress_turns must be a whole number, not True"),
    ({"rules": [40]}, "rules", "'rules' must be an object of settings, not [40]"),
    ({"pack": "bridge"}, "pack", "'pack' must be \"kowah\", \"money\" or an object with a name and counts, "
                                 "not 'bridge'"),
    ({"pack": {"name": "x", "counts": {"1c": 4}, "wild": True}}, "pack",
     "'pack': unknown key 'wild' (a pack has a name and counts)"),
    ({"pack": {"name": "", "counts": {"1c": 4}}}, "pack",
     "'pack': a pack's name in a record must be 1 to 60"),
    ({"pack": {"name": "x\u202e", "counts": {"1c": 4}}}, "pack", "no control or bidirectional formatting"),
    ({"pack": {"name": "x", "counts": {"1C": 4}}}, "pack", "'pack': unknown card code '1C' in 'counts'"),
    ({"pack": {"name": "x", "counts": {"1c": 0}}}, "pack", "'pack': the count of 1c must be a whole number "
                                                           "from 1 to 64, not 0"),
    ({"pack": {"name": "x", "counts": {}}}, "pack", "'pack': 'counts' must be an object of card codes"),
    ({"pack": {"name": "tiny", "counts": {"1c": 24}}}, "pack", "'pack': the tiny has 24 cards: too few"),
    ({"pack": {"name": "singles", "counts": {code: 1 for code in ("1c", "2c", "3c", "4c", "5c", "6c", "7c",
                                                                  "8c", "9c", "1s", "2s", "3s", "4s", "5s",
                                                                  "6s", "7s", "8s", "9s", "1m", "2m", "3m",
                                                                  "4m", "5m", "6m", "7m")}}},
     "pack", "'pack': no hand of the singles can ever be ready"),
    ({"pack": "kowah"}, None, "of the deck, gs, is not in the Kowah deck"),
    ({"pack": {"name": "short pack", "counts": {str(card): 3 for card in SHORT.kinds}}}, None,
     "the short pack"),  # a valid pack, but the deck is not an order of it
])
def test_the_reader_refuses_unknown_or_inconsistent_settings(change: dict[str, Any], key: str | None,
                                                             said: str) -> None:
    data = {**_base(), **change}
    with pytest.raises(RecordError) as caught:
        Record.from_dict(data)
    assert said in str(caught.value)
    assert caught.value.params.get("key") == key
    assert "Traceback" not in translator("cs").error(caught.value)
    if key == "rules" or change.get("pack") == "bridge":  # what the schema can say, it says too
        assert not VALIDATOR.is_valid(data)


def test_a_refused_setting_is_said_in_the_readers_language() -> None:
    data = {**_base(), "rules": {"no_progress_turns": 0}}
    with pytest.raises(RecordError) as caught:
        Record.from_dict(data)
    czech = translator("cs").error(caught.value)
    assert czech.startswith("'rules': no_progress_turns musí být alespoň 1")


def test_a_pack_whose_name_a_record_cannot_hold_is_refused_when_written() -> None:
    rules = Rules(pack=Pack("x" * 61, SHORT.counts))
    with pytest.raises(RecordError, match="a pack's name in a record must be 1 to 60 characters"):
        Record.from_deal(Deal.shuffled(1, rules))


def test_simulate_plays_every_deal_under_its_rules() -> None:
    rules = MONEY_RULES.replace(no_progress_turns=8)
    result = simulate(12, ["hard", "normal", "easy"], seed=3, rules=rules)
    assert result.deals == 12 and sum(result.wins) + result.drawn == 12
    assert simulate(12, ["hard", "normal", "easy"], seed=3, rules=rules, jobs=2) == result
    assert simulate(12, ["hard", "normal", "easy"], seed=3) != result  # the rules change the deals
    with pytest.raises(Exception, match="rules must be a Rules value, not 'money'"):
        simulate(1, ["hard", "hard", "hard"], rules="money")  # type: ignore[arg-type]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_kowah_simulate_takes_the_pack_and_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--lang", "en", "simulate", "--deals", "9", "--seats", "hard,easy,easy",
                          "--pack", "money", "--no-progress-turns", "8", "--json", "--quiet", "--seed", "2")
    assert code == 0, err
    expected = simulate(9, ["hard", "easy", "easy"], seed=2, rules=MONEY_RULES.replace(no_progress_turns=8))
    assert json.loads(out)["wins"] == list(expected.wins)
    code, _, err = _run(capsys, "--lang", "en", "simulate", "--deals", "1", "--seats", "hard,easy,easy",
                        "--no-progress-turns", "0")
    assert code == 2 and err == "kowah: error: --no-progress-turns must be at least 1, not 0\n"
    code, _, err = _run(capsys, "--lang", "en", "simulate", "--deals", "1", "--seats", "hard,easy,easy",
                        "--pack", "bridge")
    assert code == 2 and "--pack" in err


def test_kowah_check_takes_the_pack(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--lang", "en", "check", "--pack", "money", "--json",
                        "ws ws ws gs gs gs mk mk")
    assert code == 0 and json.loads(out)["waits"] == ["mk"]
    code, out, _ = _run(capsys, "--lang", "en", "check", "--pack", "money", "--json",
                        "ws ws ws gs gs gs mk 1c")
    assert code == 1 and json.loads(out)["distance"] == 1
    code, out, _ = _run(capsys, "--lang", "en", "check", "--json", "ws ws ws gs gs gs mk mk")
    assert code == 2 and json.loads(out) == {"error": "'ws' (card 1) is not in the Kowah deck",
                                             "token": "ws", "position": 1}


def test_kowah_play_records_the_rules_it_played(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deal.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("d\n1\np\n" * 400))
    code, _, err = _run(capsys, "--lang", "en", "play", "--seed", "4", "--pace", "0", "--pack", "money",
                          "--no-progress-turns", "12", "--record", str(path))
    assert code == 0, err
    record = Record.loads(path.read_text(encoding="utf-8"))
    assert record.rules == MONEY_RULES.replace(no_progress_turns=12) and record.replay().is_over


def test_kowah_replay_reads_standard_input(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    deal = Deal.shuffled(6, Rules(pack=SHORT, no_progress_turns=9))
    play(deal, random.Random(6))
    text = Record.from_deal(deal).dumps()

    class Stdin(io.StringIO):
        buffer = io.BytesIO(text.encode("utf-8"))

    monkeypatch.setattr(sys, "stdin", Stdin())
    code, out, _ = _run(capsys, "--lang", "en", "replay", "--json", "-")
    assert code == 0
    assert json.loads(out) == {"file": "-", **replay_outcome(text)}
    monkeypatch.setattr(sys, "stdin", io.StringIO("{not json"))  # a text stream without bytes
    code, out, _ = _run(capsys, "--lang", "en", "replay", "-")
    assert code == 1 and out.startswith("-: invalid: not a JSON document")
