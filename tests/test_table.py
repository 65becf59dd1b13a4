"""The terminal game, end to end: scripted sessions, bad input, EOF, and colour in a terminal."""

from __future__ import annotations

import io
import os
import pty
import random
import select
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from kowah import Action, Deal
from kowah.cards import Card
from kowah.errors import KowahError
from kowah.record import Record
from kowah.table import _Table, play_in_terminal

ESC = "\x1b["


class StubTranslator:
    """English text, with a few command words 'translated' to test localised input."""

    WORDS: ClassVar[dict[str, str]] = {"draw": "tirar", "take": "tomar", "pass": "pasar",
                                       "quit": "salir"}

    def gettext(self, context: str, message: str) -> str:
        assert context in ("cli", "player")
        return self.WORDS.get(message, message)

    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str:
        assert context == "cli"
        return singular if n == 1 else plural

    def card_name(self, card: Card, short: bool = False) -> str:
        return f"name-of-{card}"

    def outcome(self, outcome: Any) -> str:
        if outcome.result == "drawn":
            return "OUTCOME drawn"
        return f"OUTCOME seat {outcome.winner} by {outcome.by} x{outcome.multiplier}"

    def error(self, exc: KowahError) -> str:
        return f"ERROR {exc}"

    def format_list(self, items: Iterable[str], style: str = "standard") -> str:
        return f" {style} ".join(items)


def _seed_where(first: int) -> int:
    """A seed whose deal starts at *first* (the table shuffles with random.Random(seed))."""
    return next(seed for seed in range(100) if Deal.shuffled(random.Random(seed)).first == first)


def _play(text: str, seed: int, record: Path | None = None, color: bool = False,
          opponents: str = "normal") -> tuple[int, str]:
    out = io.StringIO()
    code = play_in_terminal(StubTranslator(), seed=seed, opponents=opponents, record_path=record,
                            stdin=io.StringIO(text), stdout=out, color=color, pace=0)
    return code, out.getvalue()


def test_a_scripted_deal_reaches_the_end_and_saves_its_record(tmp_path: Path) -> None:
    record = tmp_path / "deal.json"
    # Draw, discard the first card, pass when asked to declare; the odd command that is
    # illegal at the moment is answered with an error and the prompt comes back.
    code, out = _play("d\n1\np\n" * 400, seed=_seed_where(1), record=record)
    assert code == 0
    assert "OUTCOME" in out
    replayed = Record.loads(record.read_text()).replay()
    assert replayed.is_over
    outcome = replayed.outcome
    assert outcome is not None
    if outcome.result == "win" and outcome.winner == 0:
        assert "You win by claiming" in out or "You win by self-draw" in out
        assert "Your winning hand:" in out
    elif outcome.result == "win":
        assert f"OUTCOME seat {outcome.winner} by {outcome.by} x{outcome.multiplier}" in out
        assert f"Seat {outcome.winner}'s winning hand:" in out and "You lose this deal." in out
    else:
        assert "OUTCOME drawn" in out
    assert "Record saved to" in out
    assert "Your hand:" in out and "Seat 1 (normal)" in out
    # "pass" at the start of a turn is refused, in words meant for the person.
    assert "You can declare checki, or pass, only right after your own discard" in out
    assert "ERROR" not in out and "seat 0 cannot" not in out
    assert ESC not in out


def test_the_winning_hand_holds_the_claimed_card(tmp_path: Path) -> None:
    record = tmp_path / "deal.json"
    for seed in range(60):
        _, out = _play("d\n1\np\n" * 400, seed=seed, record=record)
        outcome = Record.loads(record.read_text()).replay().outcome
        if outcome is None or outcome.winner in (None, 0) or outcome.by == "self-draw":
            continue
        # A claimed card is not in the winner's hand: the table shows it with the eight.
        line = next(line for line in out.splitlines() if f"Seat {outcome.winner}'s winning hand:" in line)
        shown = line.split(":", 1)[1].split()
        assert len(shown) == 9 and str(outcome.card) in shown
        return
    raise AssertionError("no deal of 60 was won by an AI's claim")


def test_piped_input_is_not_offered_to_save() -> None:
    code, out = _play("d\n1\np\n" * 400 + "name.json\n", seed=_seed_where(1))
    assert code == 0 and "OUTCOME" in out
    assert "Save the game record?" not in out and "Record saved" not in out


def test_declare_when_it_is_not_possible_says_so_without_inventing_a_wait() -> None:
    _, out = _play("c\np\nq\n", seed=_seed_where(1))
    lines = [line for line in out.splitlines() if "You can declare checki, or pass" in line]
    assert len(lines) == 2 and all("1c" not in line for line in lines)


def test_choosing_among_several_waits_or_not_declaring() -> None:
    declares = [Action.declare(0, Card.C1), Action.declare(0, Card.M1)]
    for text, expected in (("zz\n1M\n", declares[1]), ("help\np\n", Action.pass_(0))):
        out = io.StringIO()
        table = _Table(StubTranslator(), Deal.shuffled(1), [None, None, None], ["", "", ""],
                       io.StringIO(text), out, False, 0)
        assert table.choose_wait(declares) == expected
        assert "Which wait will you expose: 1c or 1m? (p: do not declare)" in out.getvalue()
        assert "Choose 1c or 1m, or p not to declare." in out.getvalue()


def test_the_end_offers_to_save_when_no_path_is_given(tmp_path: Path) -> None:
    path = tmp_path / "offered.json"
    out = io.StringIO()

    class Script(io.StringIO):
        """Draw, discard the first card, pass; answer the offer to save with a file name."""

        lines: ClassVar[list[str]] = ["d", "1", "p"]
        count = 0

        def isatty(self) -> bool:  # the offer is made to a person at a terminal only
            return True

        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            if "Save the game record?" in out.getvalue():
                return f"{path}\n"
            self.count += 1
            return self.lines[self.count % 3] + "\n"

    code = play_in_terminal(StubTranslator(), seed=_seed_where(2), opponents="normal", record_path=None,
                            stdin=Script(), stdout=out, color=False, pace=0)
    assert code == 0 and "Record saved to" in out.getvalue()
    assert Record.loads(path.read_text()).replay().is_over


def test_bad_input_reprompts_and_eof_quits(tmp_path: Path) -> None:
    seed = _seed_where(0)  # seat 0 opens: its draw is forced, then it must discard
    deal = Deal.shuffled(random.Random(seed))
    hand_size = 9
    held = {str(card) for card in deal.deck[:8]} | {str(deal.deck[24])}
    absent = next(str(card) for card in Card if card < 30 and str(card) not in held)
    code, out = _play(f"zz\n{hand_size + 5}\ntake\nws\n{absent}\ndiscard\n\n?\n", seed=seed)
    assert code == 0
    assert out.count("I did not understand") == 4  # zz, 14, ws, "discard" alone
    assert "You have drawn or taken a card already: now discard one" in out  # take
    assert f"{absent} is not in your hand." in out
    assert "draw the top card of the stock" in out  # the help
    assert "You leave the table." in out  # EOF
    prompts = out.count("Discard which card (code or position 1–9)?")
    assert prompts == 9  # every line of input, the empty one too, is answered with the prompt again


def test_eof_at_once_quits_cleanly() -> None:
    code, out = _play("", seed=_seed_where(1))
    assert code == 0 and "You leave the table." in out


def test_quit_and_localised_commands() -> None:
    # "tirar" is the stub's translation of "draw", "salir" of "quit"; a position discards.
    code, out = _play("tirar\n2\nsalir\n", seed=_seed_where(1))
    assert code == 0
    assert "You draw" in out and "You discard" in out and "You leave the table." in out
    assert "I did not understand" not in out


def test_positions_and_codes_discard() -> None:
    seed = _seed_where(0)
    deal = Deal.shuffled(random.Random(seed))
    hand = sorted([*deal.deck[:8], deal.deck[24]])
    code, out = _play(f"{hand[-1]}\nq\n", seed=seed)
    assert code == 0
    assert f"You discard {hand[-1]} (name-of-{hand[-1]})." in out


def test_colour_only_when_asked() -> None:
    _, plain = _play("d\n1\nq\n", seed=_seed_where(1))
    _, coloured = _play("d\n1\nq\n", seed=_seed_where(1), color=True)
    assert ESC not in plain and ESC in coloured


def test_unwritable_record_path_is_reported(tmp_path: Path) -> None:
    code, out = _play("d\n1\np\n" * 400, seed=_seed_where(1), record=tmp_path / "missing" / "x.json")
    assert code == 1 and "Could not save the record" in out


# -- through the command, in a pseudo-terminal -------------------------------------------------

_ENV = {key: value for key, value in os.environ.items()
        if key not in ("NO_COLOR", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
_ENV["LC_ALL"] = "C.UTF-8"
_COMMAND = [sys.executable, "-m", "kowah", "play", "--seed", "5", "--pace", "0"]


def _run_in_pty(env: dict[str, str], text: str) -> str:
    master, slave = pty.openpty()
    process = subprocess.Popen(_COMMAND, stdin=slave, stdout=slave, stderr=slave, env=env,
                               close_fds=True)
    os.close(slave)
    output = b""
    written = False
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child has exited and closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
                if not written and b"?" in output:
                    os.write(master, text.encode())
                    written = True
            elif process.poll() is not None:
                break
    finally:
        os.close(master)
        process.wait(timeout=30)
    assert process.returncode == 0, output.decode(errors="replace")
    return output.decode(errors="replace")


def test_colour_in_a_terminal_unless_no_color() -> None:
    out = _run_in_pty(_ENV, "q\n")
    assert "Your hand" in out and ESC in out
    out = _run_in_pty({**_ENV, "NO_COLOR": "1"}, "q\n")
    assert "Your hand" in out and ESC not in out


def test_no_colour_when_piped() -> None:
    result = subprocess.run(_COMMAND, input="q\n", capture_output=True, text=True, env=_ENV,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert "Your hand" in result.stdout and ESC not in result.stdout


def test_commands_in_the_real_catalogues_ignore_case_and_accents() -> None:
    """Czech 'líznout' (draw) typed as 'LIZNOUT' is understood; so is the Czech quit word."""
    from kowah.i18n import translator

    out = io.StringIO()
    code = play_in_terminal(translator("cs"), seed=3, opponents="normal", record_path=None,
                            stdin=io.StringIO("LIZNOUT\n1\nkonec\n"), stdout=out, color=False,
                            pace=0.0)
    text = out.getvalue()
    assert code == 0
    assert "Lížete si" in text  # the draw happened
    assert "Odcházíte od stolu." in text  # and 'konec' quit
    assert "Nerozumím" not in text


def test_every_reason_said_to_the_person_is_one_the_engine_gives() -> None:
    # The table rewords the engine's reasons for the person; a reason the engine no longer
    # gives would silently fall back to the engine's words.
    # It is keyed by the Reason members, and says each with the fields the reason gives.
    import string

    from kowah import Reason
    from kowah.table import _TO_YOU

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    assert _TO_YOU and all(type(reason) is Reason for reason in _TO_YOU)
    for reason, sentence in _TO_YOU.items():
        assert fields(sentence) <= fields(reason.template), (reason, sentence)
