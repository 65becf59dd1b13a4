"""benchmarks/fuzz.py, the API fuzzer (issue 29), runs a few hundred operations on every test
run and finds nothing wrong; and it does find what it is there to find (a bare exception, an
impossible state, an undo or a replay that does not give back the deal), so it cannot rot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import load_file

from kowah import Deal, Record
from kowah import hands as kowah_hands

ROOT = Path(__file__).resolve().parent.parent
fuzz: Any = load_file(ROOT / "benchmarks" / "fuzz.py", "kowah_fuzz_benchmark")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_few_hundred_random_operations_find_nothing_wrong(seed: int) -> None:
    report = fuzz.run(seed, operations=400)
    assert report.failures == [] and report.clean
    assert report.operations == 400 and report.calls > report.operations
    assert report.deal_steps > 50 and report.undos > 0 and report.replays > 0
    # It feeds bad input: the library refuses it with its own errors, of many kinds.
    assert len(report.errors) >= 6 and report.errors["IllegalActionError"] > 0


def test_the_same_seed_gives_the_same_run() -> None:
    first, second = fuzz.run(5, operations=150), fuzz.run(5, operations=150)
    assert first.as_dict() | {"seconds": 0} == second.as_dict() | {"seconds": 0}


def test_the_command_prints_its_figures_and_exits_0_when_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert fuzz.main(["--seed", "3", "--operations", "100"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fuzz, seed 3: 100 operations") and "bad exceptions 0, impossible states 0" in out


def test_a_bare_exception_is_counted_as_bad(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> object:
        raise IndexError("tuple index out of range")

    monkeypatch.setattr(fuzz, "distance", broken)
    monkeypatch.setattr(kowah_hands, "distance", broken)
    report = fuzz.run(0, operations=400)
    assert report.bad_exceptions > 0 and not report.clean
    assert "IndexError: tuple index out of range" in report.failures[0]
    assert fuzz.main(["--seed", "0", "--operations", "400"]) == 1


def test_an_impossible_state_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Deal.stock.fget  # type: ignore[attr-defined]
    monkeypatch.setattr(Deal, "stock", property(lambda deal: real(deal)[1:]))  # a card lost
    report = fuzz.run(0, operations=200)
    assert report.impossible_states > 0 and "the cards in play are not the pack" in report.failures[0]


def test_an_undo_that_does_not_restore_the_deal_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Deal.undo

    def undo_too_much(deal: Deal) -> object:
        action = real(deal)
        if deal.history:
            real(deal)  # one more than asked
        return action

    monkeypatch.setattr(Deal, "undo", undo_too_much)
    assert fuzz.run(0, operations=300).undo_mismatches > 0


def test_a_replay_that_differs_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Record.replay

    def replay_one_short(record: Record, upto: int | None = None) -> Deal:
        return real(record, max(len(record.actions) - 1, 0))

    monkeypatch.setattr(Record, "replay", replay_one_short)
    assert fuzz.run(0, operations=300).replay_mismatches > 0
