"""The terminal game, end to end: scripted sessions, bad input, EOF, and colour in a terminal."""

from __future__ import annotations

import fcntl
import io
import itertools
import os
import pty
import random
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from transcripts import GOLDEN, SEED, script, transcript

from kowah import Deal, Outcome
from kowah.cards import Card
from kowah.errors import KowahError
from kowah.hands import splits
from kowah.i18n import CardForm, ListStyle, Translator, translator
from kowah.record import Record
from kowah.terminal import EXIT_INTERRUPTED, check_record_path, play_in_terminal

ESC = "\x1b["


class StubTranslator(Translator):
    """English text, with a few command words 'translated' to test localised input, and the
    cards and the outcome in forms a test can read."""

    WORDS: ClassVar[dict[str, str]] = {"draw": "tirar", "take": "tomar", "pass": "pasar",
                                       "quit": "salir"}

    def __init__(self, language: str = "en", codes: bool = False) -> None:
        super().__init__(language, codes)

    def gettext(self, context: str, message: str) -> str:
        assert context in ("cli", "player", "os", "rules", "event", "seat (subject)", "key")
        return self.WORDS.get(message, message)

    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str:
        assert context == "cli"
        return singular if n == 1 else plural

    def card_name(self, card: Card, short: bool = False) -> str:
        return f"name-of-{card}"

    def card(self, card: Card, form: CardForm = "name") -> str:
        return f"{form}-of-{card}"

    def outcome(self, outcome: Outcome, viewer: int | None = None,
                names: Sequence[str | None] | None = None) -> str:
        if outcome.result == "drawn":
            return "OUTCOME drawn"
        you = " (you)" if outcome.winner == viewer else ""
        return f"OUTCOME seat {outcome.winner}{you} by {outcome.by} x{outcome.multiplier}"

    def error(self, exc: KowahError) -> str:
        return f"ERROR {exc}"

    def format_list(self, items: Iterable[str], style: ListStyle = "standard") -> str:
        return f" {style} ".join(items)


@pytest.fixture(autouse=True)
def _width_80(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output that is not a terminal wraps at 80 columns, whatever the developer's COLUMNS."""
    monkeypatch.delenv("COLUMNS", raising=False)


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


def _winning_groups(out: str, who: str) -> tuple[list[list[str]], str]:
    line = next(line for line in out.splitlines() if line.startswith(who))
    shown, _, card = line.split(":", 1)[1].partition("  + ")
    return [group.split() for group in shown.split("|")], card.strip()


def test_the_winning_hand_is_split_as_it_won_with_the_claimed_card_marked(tmp_path: Path) -> None:
    record = tmp_path / "deal.json"
    for seed in range(60):
        _, out = _play("d\n1\np\n" * 400, seed=seed, record=record)
        outcome = Record.loads(record.read_text()).replay().outcome
        if outcome is None or outcome.winner in (None, 0) or outcome.by == "self-draw":
            continue
        # "1c 1c | 2c 2c 2m | 4c 4m 4m  + 1c": the pair, the triples, and the card that won.
        groups, card = _winning_groups(out, f"Seat {outcome.winner}'s winning hand:")
        assert [len(group) for group in groups] == [2, 3, 3]
        assert card == str(outcome.card) and groups[0] == [card, card]
        hand = [Card.parse(code) for group in groups for code in group]
        assert any(split.wait == outcome.card for split in splits(hand))
        return
    raise AssertionError("no deal of 60 was won by an AI's claim")


def test_a_claimed_stock_draw_is_not_shown_in_two_hands() -> None:
    text, deal = script(2)  # the person's stock draw is claimed by an AI (R14)
    outcome = deal.outcome
    assert outcome is not None and outcome.by == "draw-claim" and outcome.winner != 0
    _, out = _play(text, seed=2)
    groups, card = _winning_groups(out, f"Seat {outcome.winner}'s winning hand:")
    assert card == str(outcome.card) and groups[0] == [card, card]
    mine = out.splitlines()[-1]
    assert mine.startswith("Your hand:")
    shown = [item.split(":")[1] for item in mine.split(":", 1)[1].replace("|", " ").split()]
    assert len(deal.hand(0)) == 9  # the engine leaves the claimed draw in the drawer's hand
    assert outcome.card is not None
    assert shown == [str(held) for held in _without(deal.hand(0), outcome.card)]  # eight cards


def _without(hand: Iterable[Card], card: Card) -> list[Card]:
    cards = list(hand)
    cards.remove(card)
    return cards


def test_a_self_draw_win_shows_the_split_and_the_drawn_card() -> None:
    _, out = _play(script(SEED)[0], seed=SEED)
    groups, card = _winning_groups(out, "Your winning hand:")
    assert "OUTCOME seat 0 (you) by self-draw x3" in out  # the outcome said to the person
    assert [len(group) for group in groups] == [2, 3, 3] and groups[0] == [card, card]


# -- after a declaration ------------------------------------------------------------------------


def test_after_declaring_the_table_keeps_showing_and_the_turns_play_themselves() -> None:
    text, _ = script(SEED)
    code, out = _play(text, seed=SEED)
    assert code == 0
    after = out.split("Your hand is locked; your turns now play themselves.")
    assert len(after) == 2  # said once
    rest = after[1]
    locked_turns = rest.count("You draw ")
    assert locked_turns >= 2
    # The table (stock, declared seats, latest discard) after each locked turn but the last,
    # and when the other seat declares; the person's own wait is always on it.
    tables = rest.count("— Kowah — stock:")
    assert tables >= locked_turns
    assert rest.count("You have declared: you wait for") == tables
    assert rest.count("Latest discard: ") == tables  # also when a locked seat may not take it
    assert "DECLARED, waits for" in rest
    assert "Public draws: " in rest and "\xa0by\xa0you" in rest and "\xa0by\xa0seat\xa0" in rest
    assert not re.search(r"Public draws: .*\b\d:\w\w", out)  # "1:4s" reads as a hand position
    # No prompt after the declaration: the rest of the deal needs no input.
    assert "?" not in rest.replace("Type help or ?", "")


def test_the_person_who_plays_first_is_told_and_the_opening_draw_explained() -> None:
    code, out = _play("q\n", seed=_seed_where(0))
    assert code == 0
    lines = out.splitlines()
    assert "You play first." in lines and "Seat 0 plays first." not in out
    assert "On the opening turn, you must draw from the stock" in out
    assert out.index("On the opening turn, you must draw") < out.index("You draw")
    _, out = _play("q\n", seed=_seed_where(1))
    assert "Seat 1 plays first." in out and "You play first." not in out
    assert "On the opening turn, you must draw" not in out


def test_d_at_the_declare_prompt_explains_the_choice() -> None:
    text, _ = script(SEED)
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("c "))
    lines.insert(index, "d")
    _, out = _play("\n".join(lines) + "\n", seed=SEED)
    assert "You have just discarded and your hand is ready (checki)." in out
    assert "It is seat" not in out


def test_piped_input_is_not_offered_to_save() -> None:
    code, out = _play("d\n1\np\n" * 400 + "name.json\n", seed=_seed_where(1))
    assert code == 0 and "OUTCOME" in out
    assert "Save the game record?" not in out and "Record saved" not in out


def test_declare_when_it_is_not_possible_says_so_without_inventing_a_wait() -> None:
    _, out = _play("c\np\nq\n", seed=_seed_where(1))
    lines = [line for line in out.splitlines() if "You can declare checki, or pass" in line]
    assert len(lines) == 2 and all("1c" not in line for line in lines)


def _until_several_waits(seed: int) -> tuple[str, list[str]]:
    """What a person (choosing as a ``normal`` AI) types in the table's deal of *seed* up to the
    first time their hand offers several waits to declare (R8), and those waits."""
    from transcripts import script

    from kowah import ActionKind

    lines, deal = script(seed, until=lambda waits: len(waits) > 1)
    if deal.is_over:
        raise AssertionError(f"seed {seed}: the person's hand never offers several waits")
    return lines, [str(action.card) for action in deal.legal_actions(0) if action.kind is ActionKind.DECLARE]


def test_the_wait_prompt_takes_every_command_and_a_wait_or_a_pass() -> None:
    from kowah.i18n import translator

    t = translator("en", codes=True)  # as `kowah play` names cards: "the Six of Strings (6s)"
    seed = next(seed for seed in range(40) if _found_several_waits(seed))
    lines, waits = _until_several_waits(seed)
    question = f"Which pair will you expose: {waits[0]} or {waits[1]}? (p: pass)"
    for typed, expected in ((f"zz\nhint\nhelp\nrules\n{waits[1].upper()}\n",
                             f"You declare checki, waiting for {t.card(Card.parse(waits[1]), 'object')}."),
                            ("\np\n", "Your turn"), ("quit\n", "You leave the table.")):
        out = io.StringIO()
        code = play_in_terminal(t, seed=seed, opponents="normal", record_path=None,
                                stdin=io.StringIO(lines + "c\n" + typed + "q\n"), stdout=out,
                                color=False, pace=0)
        after = out.getvalue().split(question, 1)[1]
        assert code == 0 and expected in after
        if typed.startswith("zz"):
            assert after.count(f"Choose {waits[0]} or {waits[1]}, or type p to pass.") == 1  # zz
            assert "Hint: declare checki, waiting for" in after  # hint
            assert "Commands:" in after and "hint, i" in after  # help
            assert "The rules of Kowah" in after and "Back to the game." in after  # rules
            assert after.count(question) == 4  # asked again after each command
            assert "I did not understand" not in after


def _found_several_waits(seed: int) -> bool:
    try:
        _until_several_waits(seed)
    except AssertionError:
        return False
    return True


def test_a_card_the_kowah_deck_leaves_out_and_a_bare_discard() -> None:
    from kowah.i18n import translator

    seed = _seed_where(2)  # the person's first turn is not the opening one (R10)
    out = io.StringIO()
    play_in_terminal(translator("en"), seed=seed, opponents="normal", record_path=None,
                     stdin=io.StringIO("x\nWS\nd\ndiscard\ndiscard gs\nmk\nq\n"), stdout=out,
                     color=False, pace=0)
    text = out.getvalue()
    lines = text.splitlines()
    # Before drawing, a bare discard is told to draw first; after it, asked which card.
    first = lines.index(next(line for line in lines if line.endswith("? x")))
    assert "Draw (d) or take the latest discard (t) first, then discard." in lines[first + 1]
    bare = lines.index(next(line for line in lines if line.endswith("? discard")))
    assert "Which card? Type its code or its position in your hand" in lines[bare + 1]
    for code, name in (("ws", "White Snake"), ("gs", "Green Snake"), ("mk", "Monk")):
        assert f"{code} ({name}) is not in the Kowah deck" in text
    assert "I did not understand" not in text


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
    held = {str(card) for card in deal.deck[:8]} | {str(deal.deck[24])}
    absent = next(str(card) for card in Card if card < 30 and str(card) not in held)
    code, out = _play(f"zz\n14\ntake\nws\n{absent}\ndiscard\n\n?\n", seed=seed)
    assert code == 0
    assert out.count("I did not understand") == 1  # zz
    assert "ws (name-of-ws) is not in the Kowah deck" in out
    assert "Which card? Type its code or its position" in out  # "discard" alone
    assert "There is no position 14: your cards are numbered 1 to 9." in out
    assert "You have drawn or taken a card already: now discard one" in out  # take
    assert f"{absent} is not in your hand." in out
    assert "draw the top card of the stock" in out  # the help
    assert "You leave the table." in out  # EOF
    prompts = out.count("Discard which card (code or position 1–9)?")
    assert prompts == 9  # every line of input, the empty one too, is answered with the prompt again


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("²", "I did not understand “²”."),
        ("①", "I did not understand “①”."),
        ("٣", "I did not understand “٣”."),  # an Arabic-Indic three: a digit, not a position
        ("0", "There is no position 0: your cards are numbered 1 to 9."),
        ("10", "There is no position 10: your cards are numbered 1 to 9."),
        ("9" * 5000, "There is no position 99999...9999: your cards are numbered 1 to 9."),
        ("\x1b[2J\x1b[31mx", "I did not understand “\\x1b[2J\\x1b[31mx”."),
        ("x" * 100_000, "I did not understand “" + "x" * 24 + "..." + "x" * 13 + "”."),
    ],
)
def test_every_keystroke_is_safe(typed: str, expected: str) -> None:
    code, out = _play(typed + "\nq\n", seed=_seed_where(0))
    assert code == 0
    assert expected in out
    assert ESC not in out  # typed escapes are never written raw, not even in the echo
    assert max(map(len, out.splitlines())) <= 200


def test_invalid_utf8_on_stdin_is_a_typo_not_a_crash() -> None:
    result = subprocess.run([*_COMMAND[:3], "--lang", "en", "play", "--seed", str(_seed_where(0))],
                            input=b"\xff\xfe\x80\nq\n", capture_output=True, env=_ENV, timeout=60,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert b"I did not understand" in result.stdout and b"Traceback" not in result.stderr


def test_lines_are_wrapped_at_spaces_to_the_width_in_every_language() -> None:
    from kowah.i18n import LANGUAGES

    for language in LANGUAGES:
        t = translator(language)
        for width in (80, 40):
            out = io.StringIO()
            play_in_terminal(t, seed=3, opponents="normal", record_path=None,
                             stdin=io.StringIO("?\nq\n"), stdout=out, color=False, pace=0, width=width)
            lines = out.getvalue().splitlines()
            welcome = t.gettext("cli", "Kowah: you are seat 0, against two AI players (strength: {player}). "
                                       "Type help or ? for the commands.").format(
                                           player=t.gettext("player", "normal"))
            # Every line fits (but a prompt's echo, which is the person's), and no word is cut.
            assert all(len(line) <= width for line in lines if "?" not in line[-12:]), language
            first = " ".join(line.strip() for line in lines[:6])
            assert welcome in first, (language, width)


def test_rules_in_the_game_are_followed_by_the_table() -> None:
    _, out = _play("rules\nq\n", seed=_seed_where(1))
    after = out.split("Back to the game.", 1)[1]
    assert "— Kowah — stock:" in after and "Your hand:" in after
    assert out.index("R16") < out.index("Back to the game.")  # the rules came first


def test_ctrl_c_at_a_prompt_leaves_the_table_and_saves(tmp_path: Path) -> None:
    record = tmp_path / "left.json"

    class CtrlC(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    out = io.StringIO()
    code = play_in_terminal(StubTranslator(), seed=_seed_where(1), opponents="normal", record_path=record,
                            stdin=CtrlC(), stdout=out, color=False, pace=0)
    assert code == EXIT_INTERRUPTED == 130
    text = out.getvalue()
    assert "? \nYou leave the table.\n" in text  # a newline ends the prompt's line
    assert "Record saved to" in text
    assert not Record.loads(record.read_text()).replay().is_over


def test_the_save_prompt_asks_again_after_a_failed_save(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    answers = iter(["bad\x00name.json", str(tmp_path / "no" / "such" / "x.json"), str(tmp_path), str(good)])
    out = io.StringIO()

    class Person(io.StringIO):
        def isatty(self) -> bool:
            return True

        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            if out.getvalue().rstrip().endswith("press Enter to skip:"):
                return next(answers) + "\n"
            return "q\n"

    code = play_in_terminal(StubTranslator(), seed=_seed_where(1), opponents="normal", record_path=None,
                            stdin=Person(), stdout=out, color=False, pace=0)
    text = out.getvalue()
    assert code == 0
    assert text.count("Could not save the record to") == 0  # q leaves without the offer
    # At the end of a deal the offer is made, and made again after each failure.
    out = io.StringIO()
    answers = iter(["bad\x00name.json", str(tmp_path / "no" / "such" / "x.json"), str(tmp_path), str(good)])

    class Player(Person):
        count = 0

        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            if out.getvalue().rstrip().endswith("press Enter to skip:"):
                return next(answers) + "\n"
            self.count += 1
            return ["d", "1", "p"][self.count % 3] + "\n"

    code = play_in_terminal(StubTranslator(), seed=_seed_where(2), opponents="normal", record_path=None,
                            stdin=Player(), stdout=out, color=False, pace=0)
    text = " ".join(out.getvalue().split())  # unwrapped
    assert code == 0
    assert text.count("Save the game record?") == 4
    assert "the file name holds a NUL character" in text
    assert "no such file or folder" in text and "it is a folder" in text
    assert "Record saved to" in text and Record.loads(good.read_text()).replay().is_over


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
    assert f"You discard object-of-{hand[-1]}." in out


def test_colour_only_when_asked() -> None:
    _, plain = _play("d\n1\nq\n", seed=_seed_where(1))
    _, coloured = _play("d\n1\nq\n", seed=_seed_where(1), color=True)
    assert ESC not in plain and ESC in coloured


def test_unwritable_record_path_is_reported(tmp_path: Path) -> None:
    code, out = _play("d\n1\np\n" * 400, seed=_seed_where(1), record=tmp_path / "missing" / "x.json")
    assert code == 1 and "Could not save the record" in out and "no such file or folder" in out


def test_check_record_path_opens_as_the_save_does(tmp_path: Path) -> None:

    t = translator("en")
    fine = tmp_path / "fine.json"
    check_record_path(t, fine)
    assert not fine.exists()  # checked, and not left behind
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    check_record_path(t, kept)
    assert kept.read_text() == "old"
    for path, reason in ((Path("/proc/x.json"), "no such file or folder"),
                         (tmp_path, "it is a folder"),
                         (tmp_path / "a\x00b", "the file name holds a NUL character")):
        with pytest.raises(KowahError) as caught:
            check_record_path(t, path)
        assert t.error(caught.value).endswith(reason), t.error(caught.value)


def test_golden_transcripts() -> None:
    """One whole piped deal per language, as tests/golden/transcript-LANG.txt holds it.

    After a change of the game's text: ``python3 dev.py goldens``, and read the diff.
    """
    from kowah.i18n import LANGUAGES

    for language in LANGUAGES:
        golden = (GOLDEN / f"transcript-{language}.txt").read_text(encoding="utf-8")
        assert transcript(language) == golden, f"{language}: run python3 dev.py goldens and read the diff"
    english = (GOLDEN / "transcript-en.txt").read_text(encoding="utf-8")
    assert "Your hand is locked" in english and "You play first." in english


# -- through the command, in a pseudo-terminal -------------------------------------------------

_ENV = {key: value for key, value in os.environ.items()
        if key not in ("NO_COLOR", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "COLUMNS")}
_ENV["LC_ALL"] = "C.UTF-8"
_COMMAND = [sys.executable, "-m", "kowah", "play", "--seed", "5", "--pace", "0"]


def _controlling_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is the pty (so Ctrl-C,
    byte 3, is turned into SIGINT by the terminal, as in a real one)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


#: A program in a pseudo-terminal that neither writes nor exits for this long, after starting
#: or after the last thing it wrote or was typed to it, is taken to hang. Generous: on a loaded
#: machine Python alone can take many seconds to start, and each step may be as slow.
_SILENCE = 120.0
#: However busy the program stays, a test in a pseudo-terminal gives up after this long.
_OVERALL = 600.0

Respond = Callable[[str], bytes | None]


def _in_pty(argv: Sequence[str], respond: Respond, env: dict[str, str] = _ENV, rows: int = 24,
            columns: int = 80, modes: list[list[Any]] | None = None) -> tuple[int, str]:
    """Run *argv* with a pseudo-terminal of *rows* × *columns* as its controlling terminal (so
    that Ctrl-C, byte 3, is turned into SIGINT, as in a real one). Whenever it has written
    something, ``respond(everything so far)`` may return keys to type. Returns the exit code
    and the whole output once the program has exited; the terminal's modes as the program left
    them (``termios.tcgetattr``) are appended to *modes* when it is given.

    No fixed time counts from the start: the program fails the test only when it is silent for
    :data:`_SILENCE` seconds since its last output or the last keys typed (a hang), or runs past
    :data:`_OVERALL`; it is then killed and its output shown."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=env,
                               close_fds=True, preexec_fn=_controlling_terminal)
    os.close(slave)
    output = b""
    start = last = time.monotonic()
    try:
        while True:
            now = time.monotonic()
            if now > min(last + _SILENCE, start + _OVERALL):
                raise AssertionError(f"still running after {now - start:.0f} s, silent for "
                                     f"{now - last:.0f} s: {output.decode(errors='replace')[-500:]!r}")
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                if process.poll() is not None:  # exited, and everything it wrote has been read
                    break
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the program has exited and closed the terminal
                break
            if not chunk:
                break
            output += chunk
            last = time.monotonic()
            keys = respond(output.decode(errors="replace"))
            if keys:
                os.write(master, keys)
                last = time.monotonic()
        code = process.wait(timeout=_SILENCE)
        if modes is not None:
            modes.append(termios.tcgetattr(master))  # a pty's master reads its terminal's modes
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
    return code, output.decode(errors="replace")


def _plain(text: str) -> str:
    """*text* without colours and carriage returns."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text).replace("\r", "")


def _run_in_pty(env: dict[str, str], text: str, extra: Iterable[str] = (), code: int = 0,
                columns: int = 80) -> str:
    """``kowah play`` (seed 5, no pace) in a pseudo-terminal, typing *text* at the first prompt;
    its output, once it has exited with *code*."""
    typed = False

    def respond(output: str) -> bytes | None:
        nonlocal typed
        if not typed and _plain(output).rstrip(" ").endswith("?"):
            typed = True
            return text.encode()
        return None

    exit_code, output = _in_pty([*_COMMAND, *extra], respond, env=env, columns=columns)
    assert exit_code == code, output
    return output


def test_lines_wrap_to_the_width_of_the_terminal() -> None:
    env = {**_ENV, "LANGUAGE": "cs"}  # the Czech welcome broke mid-word at 80 columns
    env.pop("COLUMNS", None)
    out = _run_in_pty(env, "q\n", extra=["--lang", "cs"], columns=44)
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in out.replace("\r", "").splitlines()]
    assert all(len(line) <= 44 for line in lines), [line for line in lines if len(line) > 44]
    assert sum(1 for line in lines if line.startswith("Kowah")) == 1 and len(lines) > 10
    words = " ".join(line.strip() for line in lines[:4]).split()
    assert "příkazů." in words or "příkazy." in words or any(word.startswith("příkaz") for word in words)


def test_rules_in_a_terminal_come_a_screenful_at_a_time() -> None:
    out = _run_in_pty(_ENV, "rules\n\n\nq\nq\n", extra=["--lang", "en"])
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.replace("\r", ""))
    assert plain.count("Enter: more of the rules; q: back to the game") == 3  # Enter, Enter, then q
    assert "1. Objective" in plain  # the rules came, a screenful at a time
    assert "R16" not in plain  # q stopped the paging before the end of the rules
    after = plain.split("Back to the game.", 1)[1]
    assert "— Kowah — stock:" in after and "You leave the table." in after


def test_ctrl_c_in_a_terminal_leaves_the_table_and_saves_the_record(tmp_path: Path) -> None:
    record = tmp_path / "left.json"
    # The terminal turns Ctrl-C (byte 3) into SIGINT for the game's process group.
    out = _run_in_pty(_ENV, "\x03", extra=["--record", str(record)], code=130)
    assert "Traceback" not in out and "KeyboardInterrupt" not in out
    assert re.search(r"\?(\x1b\[0m)? (\^C)?\r?\n(\x1b\[[0-9;]*m)*You leave the table\.", out), out[-300:]
    assert "Record saved to" in out
    assert not Record.loads(record.read_text()).replay().is_over


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
    from kowah.terminal import YOUR_REFUSALS

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    from kowah.keys import ENGLISH_LETTERS

    keys = {f"{action}_key" for action in ENGLISH_LETTERS}  # the person's key letters
    assert YOUR_REFUSALS and all(type(reason) is Reason for reason in YOUR_REFUSALS)
    for reason, sentence in YOUR_REFUSALS.items():
        assert fields(sentence) - keys <= fields(reason.template), (reason, sentence)


def test_the_width_follows_a_resized_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import kowah._screen

    widths = iter([30, 60])
    monkeypatch.setattr(kowah._screen, "terminal_width", lambda stream: next(widths))
    out = io.StringIO()
    screen = kowah._screen.Screen(io.StringIO(), out, color=False)
    text = "the quick brown fox jumps over the lazy dog " * 2
    screen.write(text)  # 30 columns
    narrow = out.getvalue().splitlines()
    screen.write(text)  # the terminal was made wider: 60
    wide = out.getvalue().splitlines()[len(narrow):]
    assert max(map(len, narrow)) <= 30 < max(map(len, wide)) <= 60
    assert len(wide) < len(narrow)


def _converse(argv: list[str], steps: list[tuple[str, str]], env: dict[str, str] = _ENV) -> str:
    """Run ``kowah ARGV`` in a pseudo-terminal; each time the output (without colours) shows
    the next step's text, type that step's keys. Returns the whole output, without colours."""
    pending = list(steps)
    seen = 0  # how much of the output the steps done so far have used

    def respond(output: str) -> bytes | None:
        nonlocal seen
        shown = _plain(output)
        keys = ""
        while pending and pending[0][0] in shown[seen:]:
            seen = shown.index(pending[0][0], seen) + len(pending[0][0])
            keys += pending.pop(0)[1]
        return keys.encode() or None

    code, output = _in_pty([sys.executable, "-m", "kowah", *argv], respond, env=env)
    text = _plain(output)
    assert not pending and code == 0, text
    return text


def test_ctrl_c_during_the_ais_pause_leaves_at_once_and_saves_the_record(tmp_path: Path) -> None:
    """Ctrl-C while an AI's move is told (input held, a long pace) leaves the table at once,
    without waiting for the pace, gives the terminal its echo back and saves the record."""
    record = tmp_path / "left.json"
    seed = _seed_where(1)
    pressed = False

    def respond(output: str) -> bytes | None:
        nonlocal pressed
        if not pressed and "Seat 1 draws a card." in _plain(output):
            pressed = True
            return b"\x03"
        return None

    modes: list[list[Any]] = []
    code, output = _in_pty([sys.executable, "-m", "kowah", "--lang", "en", "play", "--seed", str(seed),
                            "--pace", "60", "--record", str(record)], respond, modes=modes)
    text = _plain(output)
    assert pressed and code == EXIT_INTERRUPTED, text
    assert modes[0][3] & termios.ECHO  # the local modes: typing is shown again
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert "You leave the table." in text.split("Seat 1 draws a card.", 1)[1]
    assert "Seat 2" not in text.split("Seat 1 draws a card.", 1)[1]  # the narration stopped there
    assert not Record.loads(record.read_text()).replay().is_over


def test_a_second_ctrl_c_does_not_leave_the_terminal_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C pressed again just as the held input is given back (the echo restored, what was
    typed dropped) waits until that is done: the terminal never stays without its echo."""
    import signal
    import threading

    import kowah._screen

    master, slave = pty.openpty()
    real = termios.tcsetattr

    def tcsetattr(fd: int, when: int, modes: list[Any]) -> None:
        if when == termios.TCSAFLUSH:
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # the second Ctrl-C
        real(fd, when, modes)

    monkeypatch.setattr(termios, "tcsetattr", tcsetattr)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with os.fdopen(slave, "r", closefd=False) as stdin:
            screen = kowah._screen.Screen(stdin, io.StringIO(), color=False)
            with pytest.raises(KeyboardInterrupt), screen.held_input():
                assert not termios.tcgetattr(slave)[3] & termios.ECHO  # held: no echo
                raise KeyboardInterrupt  # the first Ctrl-C, during the AIs' pause
            assert termios.tcgetattr(slave)[3] & termios.ECHO
    finally:
        signal.signal(signal.SIGINT, previous)
        os.close(slave)
        os.close(master)


def test_type_ahead_during_the_ais_moves_is_not_echoed_nor_taken_as_an_answer() -> None:
    """Keys typed while the AIs' moves are told (with a pace) neither appear in the middle of
    the narration nor answer the prompt that follows it."""
    seed = _seed_where(1)  # two AI turns are told before the person's first prompt
    out = _converse(["--lang", "en", "play", "--seed", str(seed), "--pace", "0.5"],
                    [("Seat 1 draws a card.", "q\n"), ("Your turn: draw (d)", ""),
                     ("? ", "d\n"), ("Discard which card", "q\n")])
    told, _, rest = out.partition("Your turn: draw (d)")
    assert "Seat 2 discards" in told  # the whole narration came before the prompt
    assert "\nq\n" not in told and not told.rstrip().endswith("q")  # not echoed
    assert "You draw" in rest and "You leave the table." in rest  # the early "q" did not quit


def _page_through_the_rules(language: str, rows: int) -> list[list[str]]:
    """The screens ``rules`` shows at the table in a terminal of *rows* lines (Enter each time)."""
    more = translator(language).gettext("cli", "Enter: more of the rules; q: back to the game")
    back = translator(language).gettext("cli", "Back to the game.")
    asked, answered, done = False, 0, False

    def respond(output: str) -> bytes | None:
        nonlocal asked, answered, done
        plain = _plain(output)
        if not asked and plain.rstrip(" ").endswith("?"):
            asked = True
            return b"rules\n"
        if asked and not done and back in plain:
            done = True
            return b"q\n"
        if asked and not done and plain.rstrip(" ").endswith(more) and plain.count(more) > answered:
            answered += 1
            return b"\n"
        return None

    code, output = _in_pty([sys.executable, "-m", "kowah", "--lang", language, "play", "--seed", "5",
                            "--pace", "0"], respond, rows=rows)
    plain = _plain(output)
    assert code == 0 and done, plain[-300:]
    shown = plain.split("rules\n", 1)[1].split(back, 1)[0]
    first, *rest = shown.split(more)
    # After each prompt: the space it ends with and the echo of Enter, then the next screen.
    return [chunk.rstrip("\n").split("\n") for chunk in (first, *(c.split("\n", 1)[1] for c in rest))]


@pytest.mark.parametrize(("language", "rows"), [("cs", 12), ("en", 17)])
def test_the_rules_pager_never_ends_a_screen_with_a_heading(language: str, rows: int) -> None:
    """A heading is never the last thing on a screen: it starts the next one, with its underline."""
    screens = _page_through_the_rules(language, rows)
    assert len(screens) > 10
    def underline(line: str) -> bool:
        return len(line.strip()) >= 3 and set(line.strip()) <= {"=", "-"}

    for screen, following in itertools.pairwise(screens):
        lines = [line for line in screen if line.strip()]
        assert not underline(following[0]), (screen[-3:], following[:2])  # not split from its heading
        assert not underline(lines[-1]), screen[-3:]  # nor a heading and its underline at the bottom
        assert 0 < len(screen) <= rows - 2


def test_golden_deal_transcripts() -> None:
    """Three whole deals per language as the terminal, the page and the review tell them, as
    tests/golden/deals-LANG.txt holds them (every sentence change shows in a diff).

    After a change of the game's text: ``python3 dev.py goldens``, and read the diff.
    """
    from deal_transcripts import deals

    from kowah.i18n import LANGUAGES

    for language in LANGUAGES:
        golden = (GOLDEN / f"deals-{language}.txt").read_text(encoding="utf-8")
        assert deals(language) == golden, f"{language}: run python3 dev.py goldens and read the diff"
    english = (GOLDEN / "deals-en.txt").read_text(encoding="utf-8")
    # The three front ends of each deal, the coach's lines and the deals' ends are all there.
    for part in ("terminal", "page, seat 0", "review, seat 0"):
        assert english.count(f"): {part}\n") == 3
    assert "[coach] Your choice:" in english and "[hint] Hint:" in english
    assert english.count("\n[end] ") == 6
