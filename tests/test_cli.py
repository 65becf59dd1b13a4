"""The ``kowah`` command: check, replay, rules and bad input (issue 2's command line)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kowah import Action, Deal
from kowah.cli import main
from kowah.record import Record


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``kowah ARGV``; a SystemExit from argparse counts as its exit code."""
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def played(seed: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal.shuffled(rng)
    while not deal.is_over:
        actions = deal.legal_actions(deal.to_move()[0])
        deal.apply(actions[int(rng.random() * len(actions))])
    return deal


# -- check ------------------------------------------------------------------------------------


def test_check_ready_prints_waits_and_splits(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--lang", "en", "check", "5c", "5c", "5s", "5s", "5m", "8c", "8c", "8c")
    assert code == 0, err
    assert "Waits: 5c (Five of Coins) and 5s (Five of Strings)" in out
    assert "8c 8c 8c | 5s 5s 5m | 5c 5c  (wait 5c)" in out
    assert "8c 8c 8c | 5c 5c 5m | 5s 5s  (wait 5s)" in out


def test_check_accepts_commas_and_upper_case(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--lang", "en", "check", "9C,9S,9M", "9c,9s,9m", "1C", "1c")
    assert code == 0
    assert "Wait: 1c (One of Coins)" in out


def test_check_not_ready_says_how_far(capsys: pytest.CaptureFixture[str]) -> None:
    # R7: three Coins and two Strings of one rank cannot pair with that triple.
    code, out, _ = run(capsys, "--lang", "en", "check", "5c 5c 5c 5s 5s 8c 8s 8m")
    assert code == 1
    assert "Not ready: at least 1 card must be exchanged." in out
    assert "Cards that would bring the hand closer to ready" in out
    assert "5m (4)" in out


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--json", "5c 5c 5s 5s 5m 8c 8c 8c")
    assert code == 0
    report = json.loads(out)
    assert report["ready"] is True
    assert report["waits"] == ["5c", "5s"]
    assert report["distance"] == 0
    assert len(report["splits"]) == 2
    code, out, _ = run(capsys, "check", "--json", "1c 2c 3c 4c 5c 6c 7c 8c")
    assert code == 1
    assert json.loads(out)["distance"] == 5


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("5c zz 5s", "'zz' (card 2)"),
        ("5c 5s ws", "'ws' (card 3) is not in the Kowah deck"),
        ("5c 5c 5c 5c 5c 1s 1s 1s", "5 copies of '5c' (card 5)"),
        ("5c 5s", "a hand must hold 8 cards, not 2"),
    ],
)
def test_check_bad_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], cards: str, expected: str
) -> None:
    code, out, err = run(capsys, "--lang", "en", "check", *cards.split())
    assert code == 2
    assert out == ""
    assert expected in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_check_errors_are_localised(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--lang", "es", "check", "5c", "zz")
    assert code == 2
    assert "'zz'" in err
    assert "unknown card code" not in err  # the Spanish catalogue's message, not the English one


# -- replay -----------------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_replay_json_lines_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finished = played(1)
    record = Record.from_deal(finished)
    progress = Deal(finished.deck, finished.first)
    progress.apply(Action.draw(progress.turn))
    bad_action = record.to_dict()
    bad_action["actions"][1] = {"seat": bad_action["actions"][1]["seat"], "do": "discard", "card": "mk"}
    files = [
        write(tmp_path / "a.json", record.dumps()),
        write(tmp_path / "b.json", Record.from_deal(progress).dumps()),
        write(tmp_path / "c.json", json.dumps(bad_action)),
        write(tmp_path / "d.json", "{not json"),
        tmp_path / "missing.json",
    ]
    code, out, _ = run(capsys, "replay", "--json", *map(str, files))
    assert code == 2  # a file that cannot be read (issue 29); without it, 1 for the invalid ones
    assert run(capsys, "replay", "--json", *map(str, files[:4]))[0] == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 5
    assert [line.pop("file") for line in lines] == [str(path) for path in files]
    assert lines[0] == finished.outcome.as_dict() if finished.outcome else False
    assert lines[1] == {"result": "in-progress"}
    assert lines[2]["result"] == "invalid" and lines[2]["action"] == 1
    assert lines[3]["result"] == "invalid" and "action" not in lines[3]
    assert lines[4]["result"] == "invalid" and "action" not in lines[4]


def test_replay_json_names_each_file_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.json", Record.from_deal(played(1)).dumps())
    write(tmp_path / "b.json", "{}")
    code, out, _ = run(capsys, "replay", "--json", "a.json", "./b.json", "a.json")
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["file"] for line in lines] == ["a.json", "./b.json", "a.json"]
    assert lines[0]["result"] in ("win", "drawn") and lines[0] == lines[2]
    assert lines[1] == {"file": "./b.json", "result": "invalid", "error": "missing key 'format'"}
    # The human-readable lines name the files as before.
    code, out, _ = run(capsys, "--lang", "en", "replay", "a.json", "b.json")
    assert out.startswith("a.json: ")
    assert out.splitlines()[1] == "b.json: invalid: missing key 'format'"


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_replay_errors_hold_no_python_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """A JSON or file error is said in the package's own templates, never Python's English."""
    bad = write(tmp_path / "bad.json", '{"format": "kowah-record/1", "deck": [], "first": }')
    (tmp_path / "dir").mkdir()
    files = [bad, tmp_path / "dir", tmp_path / "missing.json"]
    code, out, _ = run(capsys, "--lang", lang, "replay", "--json", *map(str, files))
    assert code == 2
    errors = [json.loads(line)["error"] for line in out.splitlines()]
    for python in ("Expecting", "char 50", "Is a directory", "No such file", "Errno",
                   "Permission", "Input/output"):
        assert python not in out
    if lang == "en":
        assert errors == ["not a JSON document (line 1, column 51)",
                          "cannot read the file: it is a folder",
                          "cannot read the file: no such file or folder"]
    else:  # the Czech catalogue's words (or English until it has them), with the place
        assert "51" in errors[0]

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        if self.name == "locked.json":
            raise PermissionError(13, "Permission denied")
        if self.name == "odd.json":
            raise OSError(1234, "Something odd")
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(Path, "open", refuse)
    code, out, _ = run(capsys, "--lang", "en", "replay", "locked.json", "other.json", "odd.json")
    assert code == 2
    assert "Permission" not in out and "Input/output" not in out
    assert out.splitlines() == ["locked.json: invalid: cannot read the file: permission denied",
                                "other.json: invalid: cannot read the file: input/output error",
                                # an errno without a translation: the system's own words
                                "odd.json: invalid: cannot read the file: Something odd"]


def test_replay_exit_0_when_all_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path / f"{seed}.json", Record.from_deal(played(seed)).dumps()) for seed in range(3)]
    code, out, _ = run(capsys, "--lang", "en", "replay", *map(str, files))
    assert code == 0
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == [str(path) for path in files]
    for line, seed in zip(lines, range(3), strict=True):
        outcome = played(seed).outcome
        assert outcome is not None
        if outcome.result == "drawn":
            assert "drawn" in line
        else:
            assert f"Seat {outcome.winner} wins" in line and f"×{outcome.multiplier}" in line


def test_replay_readable_invalid_names_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Record.from_deal(played(2)).to_dict()
    record["actions"].insert(0, {"seat": (record["first"] + 1) % 3, "do": "draw"})
    path = write(tmp_path / "x.json", json.dumps(record))
    code, out, _ = run(capsys, "--lang", "en", "replay", str(path))
    assert code == 1
    assert "invalid" in out and "action 0" in out


# -- rules and languages ----------------------------------------------------------------------


def test_rules_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run(capsys, "rules", "--lang", "en")
    assert code == 0 and "Old Thousand" in text
    code, html, _ = run(capsys, "rules", "--lang", "cs", "--format", "html")
    assert code == 0 and "<h2" in html
    code, _, err = run(capsys, "rules", "--format", "pdf")
    assert code == 2 and "pdf" in err


def test_an_unknown_language_asked_for_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    code, out, err = run(capsys, "--lang", "xx", "check", "9c 9s 9m 9c 9s 9m 1c 1c")
    assert code == 2 and out == ""
    assert err == "kowah: error: no catalogue for locale 'xx' (the languages are en, it, cs, ms, es, id)\n"
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")  # the error itself follows the environment
    code, _, err = run(capsys, "rules", "--lang=pt")
    assert code == 2 and "„pt“" in err and "katalog" in err


def test_an_unknown_language_in_the_environment_falls_back_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, out, err = run(capsys, "check", "9c 9s 9m 9c 9s 9m 1c 1c")
    assert code == 0 and "Wait: 1c (One of Coins)" in out and err == ""


@pytest.mark.parametrize("pace", ["inf", "nan", "-1", "61", "1e300", "", "fast"])
def test_play_refuses_a_pace_out_of_range(capsys: pytest.CaptureFixture[str], pace: str) -> None:
    code, out, err = run(capsys, "--lang", "en", "play", "--pace", pace)
    assert code == 2 and out == ""
    assert err.startswith("kowah: error: --pace must be a number of seconds from 0 to 60, not ")


def test_play_refuses_a_record_path_it_cannot_write_before_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--lang", "en", "play", "--record", str(tmp_path))
    assert code == 2 and out == "" and err.endswith(": it is a folder\n")
    missing = tmp_path / "no" / "deal.json"
    code, out, err = run(capsys, "--lang", "en", "play", "--record", str(missing))
    assert code == 2 and out == ""
    assert err == f"kowah: error: cannot save the record to {missing}: no such file or folder\n"
    # /proc is a folder that root may write to, but no file can be made in it: the check
    # opens the file as the save does, so it fails now, not after the whole deal.
    code, out, err = run(capsys, "--lang", "en", "play", "--record", "/proc/x.json")
    assert code == 2 and out == ""
    assert err.startswith("kowah: error: cannot save the record to /proc/x.json: ")
    code, out, err = run(capsys, "--lang", "es", "play", "--record", str(missing))
    assert code == 2 and "no such file" not in err  # the reason in the user's language


def test_ctrl_c_stops_a_parallel_simulation_without_tracebacks() -> None:
    import pty
    import select

    # stderr is a terminal, so the progress bar shows when the workers have played deals.
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "kowah", "--lang", "en", "simulate", "--deals", "1000000", "--seats",
         "hard,hard,hard", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=slave, text=True, start_new_session=True,
    )
    os.close(slave)
    shown = b""
    try:
        while not re.search(rb"\] [1-9]", shown):  # some deals are done: the workers are busy
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, shown
            shown += os.read(master, 4096)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
        process.wait(timeout=60)
        while select.select([master], [], [], 0)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the process has gone and closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert b"Traceback" not in shown and b"KeyboardInterrupt" not in shown


def test_language_from_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    _, it_text, _ = run(capsys, "rules")
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    _, en_text, _ = run(capsys, "rules")
    assert it_text != en_text
    monkeypatch.setenv("LC_ALL", "it_IT.UTF-8")  # LC_ALL outranks LANG
    _, again, _ = run(capsys, "rules")
    assert again == it_text


def test_help_is_localised(capsys: pytest.CaptureFixture[str]) -> None:
    _, english, _ = run(capsys, "--lang", "en", "check", "--help")
    _, czech, _ = run(capsys, "--lang", "cs", "check", "--help")
    assert "usage:" in english
    assert "usage:" not in czech
    assert english != czech


@pytest.mark.parametrize("lang", ["en", "it", "cs", "ms", "es", "id"])
def test_the_top_level_help_names_every_command(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``kowah --help`` lists each command with its one-line help, in the asked language."""
    from kowah.i18n import translator

    t = translator(lang)
    code, shown, _ = run(capsys, "--lang", lang, "--help")
    assert code == 0
    commands = ("play", "check", "replay", "rules", "simulate", "serve", "site")
    helps = ("play a deal against two AIs", "check whether a hand is ready", "replay game records",
             "print the rules", "pit AI players against each other", "play in the browser",
             "write the table as a static web site")
    listed = re.findall(r"^    (\w+) +(.+)$", shown, re.MULTILINE)
    assert [name for name, _ in listed] == list(commands)
    for (name, said), english in zip(listed, helps, strict=True):
        assert said == t.gettext("cli", english), name
    code, _, err = run(capsys, "--lang", lang, "frobnicate")
    assert code == 2 and all(f"'{name}'" in err for name in commands)  # the choices, all of them


# -- no tracebacks, ever ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["check"],
        ["replay"],
        ["simulate", "--deals", "x", "--seats", "a,b,c"],
        ["simulate", "--deals", "3", "--seats", "normal,normal"],
        ["simulate", "--deals", "3", "--seats", "normal,normal,wizard"],
        ["simulate", "--deals", "0", "--seats", "normal,normal,normal"],
        ["play", "--opponents", "godlike"],
        ["play", "--seed", "abc"],
        ["--lang"],
    ],
)
def test_bad_arguments_exit_2_without_traceback(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err
    assert err.strip()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=9))
def test_arbitrary_check_arguments_never_crash(words: list[str]) -> None:
    try:
        code = main(["check", *words])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    assert code in (0, 1, 2)


def test_python_dash_m_entry_point(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kowah", "--lang", "en", "check", "rf rf rf wf wf wf ot ot"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Wait: ot (Old Thousand)" in result.stdout


# -- streams, files and odd arguments ----------------------------------------------------------------

_KOWAH = [sys.executable, "-m", "kowah"]


def _kowah(*argv: str | bytes, **options: object) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    env.pop("LANGUAGE", None)
    streams: dict[str, object] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **options}
    result: subprocess.CompletedProcess[bytes] = subprocess.run(
        [*_KOWAH, *argv], env=env, timeout=60, check=False, **streams)  # type: ignore[call-overload]
    return result


def test_a_full_disk_is_an_error_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        result = _kowah("--lang", "en", "rules", stdout=full)
    assert result.returncode == 1
    assert result.stderr == b"kowah: error: cannot write the output: no space left on the device\n"
    for argv in (["--help"], ["--version"], ["check", "--json", "1c 1c 1c 2c 2c 2c 3c 3c"]):
        with open("/dev/full", "w") as full:
            result = _kowah("--lang", "en", *argv, stdout=full)
        assert result.returncode == 1, argv
        assert result.stderr.endswith(b"cannot write the output: no space left on the device\n"), argv


def test_closed_standard_streams_are_no_traceback() -> None:
    result = _kowah("--lang", "en", "rules", stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    assert result.returncode == 0
    closed = subprocess.run(f"{sys.executable} -m kowah --lang en play --seed 1 <&- >&-", shell=True,
                            capture_output=True, timeout=60, check=False)
    assert b"Traceback" not in closed.stderr and closed.returncode in (0, 1)


def test_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/\xff\x1b[2J.json"
    result = _kowah("--lang", "en", "replay", name)
    assert result.returncode == 2 and result.stderr == b""
    assert result.stdout.endswith(
        b"/\\xff\\x1b[2J.json: invalid: cannot read the file: no such file or folder\n")
    result = _kowah("--lang", "en", "replay", "--json", name)
    line = json.loads(result.stdout)
    assert line["file"].endswith("/\\xff\\x1b[2J.json") and line["result"] == "invalid"
    result = _kowah("--lang", "en", "check", b"5c \xff")
    assert result.returncode == 2 and b"Traceback" not in result.stderr and b"\\xff" in result.stderr


def test_replay_reads_a_bounded_amount() -> None:
    result = _kowah("--lang", "en", "replay", "/dev/zero")  # endless: it stops at the bound
    assert result.returncode == 1
    assert result.stdout == (b"/dev/zero: invalid: the file holds more than 2000000 bytes: too large "
                             b"for a game record\n")


def test_quoted_input_is_shortened_and_printable(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--lang", "en", "check", "x" * 10_000_000)
    assert code == 2 and len(err) < 500 and ("…" in err or "..." in err)
    code, _, err = run(capsys, "--lang", "en", "check", "5c", "\x1b[31mred")
    assert code == 2 and "\x1b" not in err and "\\x1b[31mred" in err
    code, _, err = run(capsys, "--lang", "en", "simulate", "--deals", "1", "--seats", "\x1b[2J" * 1000)
    assert code == 2 and "\x1b" not in err and len(err) < 500


def test_jobs_are_capped_at_the_cpus_and_the_work(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import kowah.simulation

    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every system
        cpus = os.cpu_count() or 1
    asked: list[int] = []
    real = kowah.simulation.simulate

    def spy(deals: int, seats: list[str], **options: Any) -> Any:
        asked.append(options["jobs"])
        return real(deals, seats, **{**options, "jobs": 1})

    monkeypatch.setattr(kowah.simulation, "simulate", spy)
    code, _, _ = run(capsys, "simulate", "--deals", "3", "--seats", "random,random,random", "--jobs", "1000")
    assert code == 0 and asked == [min(3, cpus)]
    code, _, _ = run(capsys, "simulate", "--deals", "40", "--seats", "random,random,random",
                     "--jobs", "1000")
    assert asked[-1] == cpus


def test_the_last_lang_wins_and_an_empty_one_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    _, czech, _ = run(capsys, "--lang", "it", "rules", "--lang", "cs")
    _, expected, _ = run(capsys, "--lang", "cs", "rules")
    assert czech == expected
    code, out, err = run(capsys, "--lang", "", "rules")
    assert code == 2 and out == "" and err == "kowah: error: '' is not a locale tag\n"


def test_an_unknown_option_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--lang", "en", "--bogus")
    assert code == 2 and err.endswith("kowah: error: unrecognized arguments: --bogus\n")
    code, _, err = run(capsys, "--lang", "en", "rules", "--bogus")
    assert code == 2 and "--bogus" in err
    code, _, err = run(capsys, "--lang", "en")
    assert code == 2 and "COMMAND" in err


def test_check_json_reports_errors_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--lang", "en", "check", "--json", "5c", "zz")
    assert code == 2 and err == ""
    report = json.loads(out)
    assert list(report) == ["error", "token", "position"] and "'zz'" in report["error"]
    assert "card 2" in report["error"]
    assert (report["token"], report["position"]) == ("zz", 2)  # a script needs not read the message
    code, out, _ = run(capsys, "--lang", "cs", "check", "--json", "5c", "5s", "ws")
    assert code == 2 and json.loads(out)["token"] == "ws" and json.loads(out)["position"] == 3
    code, out, err = run(capsys, "--lang", "en", "check", "--json", "5c", "5s")
    assert code == 2 and err == "" and json.loads(out) == {"error": "a hand must hold 8 cards, not 2"}


def test_numbers_in_errors_are_written_as_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--lang", "en", "play", "--pace", "-5")
    assert code == 2 and err.endswith("not -5\n")
    record = Record.from_deal(played(1)).to_dict()
    record["first"] = True
    path = write(tmp_path / "x.json", json.dumps(record))
    code, out, _ = run(capsys, "--lang", "en", "replay", str(path))
    assert code == 1 and out.endswith(" true\n") and "True" not in out


def test_confidence_bounds_are_plain_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--deals", "7", "--seats", "random,random,random", "--json")
    assert code == 0 and "e-" not in out
    bounds = json.loads(out)["win_rate_intervals"]
    assert all(0.0 <= low <= high <= 1.0 for low, high in bounds)
    assert any(low == 0.0 for low, _ in bounds)


# -- every error message, in every language: the user's input escaped, never our words -------------

#: Representative values for the fields of the error templates (anything else: a short word).
_SAMPLES: dict[str, object] = {
    "seat": 1, "turn": 2, "first": 3, "position": 9, "count": 5, "copies": 4, "expected": 8,
    "kinds": 33, "most": 4, "limit": 2_000_000, "size": 8, "line": 1, "column": 51, "offset": 7,
    "seats": 3, "titles": 2, "cards": 3, "action": 4, "card": "5c", "drawn": "5c",
    "waits": "5c, 5s", "pack": "Kowah deck", "type": "str", "value": "x", "found": "'x'",
    "token": "zz", "tag": "xx", "languages": "en, it, cs, ms, es", "encoding": "UTF-8",
}


def _templates(context: str) -> list[str]:
    from babel.messages.pofile import read_po

    with (Path(__file__).resolve().parent.parent / "locales" / "kowah.pot").open("rb") as handle:
        template = read_po(handle)
    return [str(message.id) for message in template
            if message.context == context and isinstance(message.id, str)]


def _fields(template: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _errors() -> list[Exception]:
    """Every error template with representative values, and real errors whose fields are
    themselves translated sentences (a refusal, a record's illegal action)."""
    from kowah import Card
    from kowah.errors import IllegalActionError, KowahError, RecordError
    from kowah.record import Record

    found: list[Exception] = [KowahError(template, **{name: _SAMPLES.get(name, "x")
                                                      for name in _fields(template)})
                              for template in _templates("error")]
    deal = Deal.shuffled(seed=3)
    seat = deal.to_move()[0]
    for action in (Action.take(seat), Action.discard(seat, Card.C5), Action.draw((seat + 1) % 3)):
        try:
            deal.apply(action)
        except IllegalActionError as error:
            found.append(error)
    record = Record.from_deal(played(2)).to_dict()
    record["actions"].insert(0, {"seat": (record["first"] + 1) % 3, "do": "draw"})
    try:
        Record.loads(json.dumps(record)).replay()
    except RecordError as error:
        found.append(error)
    return found


@pytest.mark.parametrize("lang", ["en", "it", "cs", "ms", "es", "id"])
def test_no_error_message_escapes_our_own_words(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each error, said through the command (also as --json), holds no escape that the
    catalogue's own text does not hold: a Czech no-break space stays a no-break space."""
    import kowah.cards
    from kowah.i18n import translator

    t = translator(lang)
    errors = _errors()
    assert len(errors) > 130
    raised: list[Exception] = []

    def fail(*args: object, **kwargs: object) -> object:
        raise raised[-1]

    monkeypatch.setattr(kowah.cards, "parse_cards", fail)
    for error in errors:
        raised.append(error)
        message = t.error(error)  # type: ignore[arg-type]
        ours = t.gettext("error", error.template).count("\\")  # type: ignore[attr-defined]
        code, out, err = run(capsys, "--lang", lang, "check", "5c")
        assert code == 2 and out == ""
        assert err == t.gettext("cli", "kowah: error: {message}").format(message=message) + "\n"
        assert err.count("\\") == ours, (lang, err)
        code, out, err = run(capsys, "--lang", lang, "check", "--json", "5c")
        assert code == 2 and err == ""
        assert json.loads(out) == {"error": message}
    if lang == "cs":  # the case that was broken: Czech text is full of no-break spaces
        assert sum("\xa0" in t.error(error) for error in errors) > 40  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "it", "cs", "ms", "es", "id"])
@pytest.mark.parametrize("argv", [
    ["simulate", "--deals", "x", "--seats", "a,b,c"],
    ["play", "--opponents", "godlike"],
    ["frobnicate"],
    ["check"],
    ["simulate", "--deals"],
    ["simulate", "--s", "1"],
    ["serve", "--data", "d", "--no-save"],
    ["rules", "--bogus"],
    [],
])
def test_no_usage_error_escapes_our_own_words(
    lang: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--lang", lang, *argv)
    assert code == 2 and out == "" and err
    assert "\\" not in err, err


def test_what_the_user_typed_is_still_escaped_and_shortened(capsys: pytest.CaptureFixture[str]) -> None:
    for lang in ("cs", "en"):
        code, _, err = run(capsys, "--lang", lang, "check", "5c", "\x1b[31mred")
        assert code == 2 and "\x1b" not in err and "\\x1b[31mred" in err
        code, _, err = run(capsys, "--lang", lang, "play", "--opponents", "\x1b[2J" + "x" * 10_000)
        assert code == 2 and "\x1b" not in err and "\\x1b[2J" in err and len(err) < 1000
        code, _, err = run(capsys, "--lang", lang, "simulate", "--s=\x1b[2J", "1")
        assert code == 2 and "\x1b" not in err and "--s=\\x1b[2J" in err
        code, _, err = run(capsys, "--lang", lang, "play", "--seed", "5" * 5000)
        assert code == 2 and "..." in err and len(err) < 1000
        code, _, err = run(capsys, "--lang", lang, "check", "5c", "x" * 10_000, "\x1b\n")
        assert code == 2 and "\x1b" not in err and err.count("\n") == 1 and len(err) < 500
    code, _, err = run(capsys, "--lang", "\x1b[2J", "rules")
    assert code == 2 and err == "kowah: error: '\\x1b[2J' is not a locale tag\n"


# -- simulate: the progress bar, percentages, a Dask cluster ----------------------------------------


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_simulate_shows_a_progress_bar_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--lang", "en", "simulate", "--deals", "12", "--seats", "random,random,hard"]
    code, report, err = run(capsys, *argv)
    assert code == 0 and err == ""  # stderr is not a terminal: no bar
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out == report  # the report is the same, on stdout
    bar = terminal.getvalue()
    assert bar.startswith("\r[" + "." * 30 + "] 0/12")  # shown at once
    assert "\r[" + "#" * 30 + "] 12/12" in bar and bar.endswith("\r\x1b[K")  # and cleared
    terminal.seek(0)
    terminal.truncate()
    code, out, _ = run(capsys, *argv, "--quiet")
    assert code == 0 and out == report and terminal.getvalue() == ""


def test_simulate_writes_rates_and_bounds_as_the_language_writes_percentages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One decimal always (48.0, not 48), and the language's own percent sign and spacing."""
    argv = ["simulate", "--deals", "10", "--seats", "random,random,hard", "--seed", "3"]
    _, english, _ = run(capsys, "--lang", "en", *argv)
    _, czech, _ = run(capsys, "--lang", "cs", *argv)
    en_lines = [line for line in english.splitlines() if line.startswith("  seat ")]
    cs_lines = [line for line in czech.splitlines() if line.startswith("  místo")]
    assert len(en_lines) == len(cs_lines) == 3
    for en, cs in zip(en_lines, cs_lines, strict=True):
        assert re.search(r"wins?, \d+\.0% \(95% CI \d+\.\d–\d+\.\d%\)$", en), en  # 10 deals: x0.0%
        assert re.search(r", \d+,0\xa0% \(95% interval spolehlivosti: \d+,\d–\d+,\d\xa0%\)$", cs), cs


class _FakeDask:
    """Stands in for the ``distributed`` module: a client that runs the deals on threads, or
    fails as Dask does (its English text, its log lines)."""

    def __init__(self, connect: Exception | None = None, run: Exception | None = None) -> None:
        import concurrent.futures
        import logging

        self.timeouts: list[float] = []
        self.closed = False
        fake = self

        class Client:
            def __init__(self, address: str, timeout: float) -> None:
                fake.timeouts.append(timeout)
                if connect is not None:
                    raise connect

            def get_executor(self) -> concurrent.futures.Executor:
                if run is None:
                    return concurrent.futures.ThreadPoolExecutor(2)
                failure: Exception = run

                class Failing(concurrent.futures.ThreadPoolExecutor):
                    def submit(self, *args: Any, **kwargs: Any) -> Any:
                        logging.getLogger("distributed.client").error("Failed to reconnect")
                        raise failure

                    map = submit

                return Failing(1)

            def close(self, timeout: float) -> None:
                fake.closed = True

        self.Client = Client
        logging.getLogger("distributed.client")  # exists once Dask is imported


def test_simulate_on_a_cluster_shows_progress_and_the_same_result(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--lang", "en", "simulate", "--deals", "30", "--seats", "random,normal,hard"]
    _, here, _ = run(capsys, *argv)
    dask = _FakeDask()
    monkeypatch.setitem(sys.modules, "distributed", dask)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, there, _ = run(capsys, *argv, "--scheduler", "tcp://10.0.0.5:8786")
    assert code == 0 and there == here and dask.closed
    assert "] 30/30" in terminal.getvalue()
    assert len(dask.timeouts) == 1 and 0 < dask.timeouts[0] <= 5  # a dead address fails soon, not in 30 s


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_dask_errors_are_said_inside_our_sentence(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kowah.i18n import translator

    t = translator(lang)
    argv = ["--lang", lang, "simulate", "--deals", "30", "--seats", "random,normal,hard",
            "--scheduler", "tcp://10.0.0.5:8786"]
    monkeypatch.setitem(sys.modules, "distributed", _FakeDask(connect=OSError(
        "Timed out trying to connect to tcp://10.0.0.5:8786 after 5 s")))
    code, out, err = run(capsys, *argv)
    sentence = t.gettext("error", "cannot reach the Dask scheduler at {address}: {problem}")
    assert code == 2 and out == ""
    assert err == t.gettext("cli", "kowah: error: {message}").format(message=sentence.format(
        address="tcp://10.0.0.5:8786",
        problem="Timed out trying to connect to tcp://10.0.0.5:8786 after 5 s")) + "\n"
    lost = _FakeDask(run=RuntimeError("_play_chunk-88e5 cancelled for reason: scheduler-connection-lost.\n"
                                      "Client lost the connection to the scheduler."))
    monkeypatch.setitem(sys.modules, "distributed", lost)
    code, out, err = run(capsys, *argv)
    sentence = t.gettext("error", "the Dask cluster at {address} failed during the simulation: {problem}")
    assert code == 2 and out == "" and lost.closed
    assert err == t.gettext("cli", "kowah: error: {message}").format(message=sentence.format(
        address="tcp://10.0.0.5:8786", problem="_play_chunk-88e5 cancelled for reason: "
        "scheduler-connection-lost. Client lost the connection to the scheduler.")) + "\n"
    assert "Failed to reconnect" not in err and "Traceback" not in err  # Dask's log is kept quiet


def test_the_opponents_are_the_libraries_players(capsys: pytest.CaptureFixture[str]) -> None:
    """``--opponents`` offers exactly the AI levels of :data:`kowah.players.PLAYERS`."""
    from kowah.players import PLAYERS

    _, out, _ = run(capsys, "--lang", "en", "play", "--help")
    assert ", ".join(PLAYERS) + " (default: normal)" in " ".join(out.split())
