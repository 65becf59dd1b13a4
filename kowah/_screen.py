"""Writing to a terminal: colours, the width, and wrapping that never breaks a word.

Private to the package (the terminal game, :mod:`kowah.terminal`, uses it); its names are
public within it. Wrapping counts what a terminal shows: colour escapes take no room, a wide
character (CJK) takes two columns, a combining accent none.

>>> wrap("Vítejte u stolu: hrajete na místě 0 proti dvěma hráčům", 24)
['Vítejte u stolu: hrajete', 'na místě 0 proti dvěma', 'hráčům']
>>> wrap("  Seat 1 discards 5c (Five of Coins).", 20, indent=6)
['  Seat 1 discards 5c', '      (Five of', '      Coins).']
>>> columns("\\033[33m5c\\033[0m")
2
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

try:
    import termios
except ImportError:  # pragma: no cover - Windows has no terminal modes to hold input with
    termios = None  # type: ignore[assignment]

from kowah.cards import Card
from kowah.errors import printable

__all__ = ["ALERT", "BOLD", "DIM", "HONOUR_COLOUR", "LINE_LIMIT", "RESET", "SUIT_COLOURS", "Interrupted",
           "Quit", "Screen", "columns", "indent", "screens", "terminal_width", "wrap"]

# ANSI colours (only when the table is told to use them): suits and honours, and emphasis.
RESET = "\033[0m"
BOLD = "\033[1m"
DIM = "\033[2m"
SUIT_COLOURS = ("\033[33m", "\033[32m", "\033[36m")  # coins yellow, strings green, myriads cyan
HONOUR_COLOUR = "\033[35m"
ALERT = "\033[1;31m"

_ESCAPE = re.compile(r"\033\[[0-9;]*m")
#: The narrowest width wrapped to; a narrower terminal gets lines of this width.
MINIMUM_WIDTH = 20
#: The width when the output is not a terminal (a pipe, a file, a golden transcript).
DEFAULT_WIDTH = 80


def columns(text: str) -> int:
    """How many terminal columns *text* takes (colour escapes take none)."""
    text = _ESCAPE.sub("", text)
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def terminal_width(stream: TextIO) -> int:
    """The width to wrap to: the terminal's, else ``COLUMNS``, else :data:`DEFAULT_WIDTH`."""
    width = 0
    try:
        if stream.isatty():
            width = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        width = 0
    if width <= 0:
        width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns if "COLUMNS" in os.environ \
            else DEFAULT_WIDTH
    return max(MINIMUM_WIDTH, width)


def wrap(text: str, width: int, indent: int | None = None) -> list[str]:
    """*text* as lines of at most *width* columns, broken at spaces only.

    A word longer than the width stays whole on its own line. Continuation lines are
    indented by *indent* columns (default: the text's own indentation). Non-breaking spaces
    (U+00A0) hold words together.
    """
    stripped = text.lstrip(" ")
    lead = len(text) - len(stripped)
    rest = " " * (lead if indent is None else indent)
    words = stripped.split(" ")
    lines: list[str] = []
    line = " " * lead
    used = lead
    start = True
    for word in words:
        if not word:
            if not start:
                line += " "
                used += 1
            continue
        size = columns(word)
        if start:
            line += word
            used += size
            start = False
        elif used + 1 + size <= width:
            line += " " + word
            used += 1 + size
        else:
            lines.append(line.rstrip(" "))
            line = rest + word
            used = len(rest) + size
    lines.append(line.rstrip(" ") if not start else line)
    return lines


class Quit(Exception):
    """The person asked to stop, or the input ended."""


class Interrupted(Quit):
    """The person pressed Ctrl-C."""


#: The longest typed line read (a longer one is read on and dropped, so memory stays small).
LINE_LIMIT = 4096
class Screen:
    """Lines and prompts on one output stream (wrapped to *width*, coloured when *color*),
    and typed lines from *stdin*."""

    def __init__(self, stdin: TextIO, stdout: TextIO, color: bool, width: int | None = None) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.color = color
        self.fixed_width = width
        try:
            self.echo_free = stdin.isatty()  # a terminal echoes what is typed itself
        except (AttributeError, ValueError):
            self.echo_free = False

    @property
    def width(self) -> int:
        """The width to wrap to: as given, or the terminal's now (it may have been resized)."""
        return self.fixed_width if self.fixed_width is not None else terminal_width(self.stdout)

    def write(self, text: str = "") -> None:
        width = self.width
        for line in text.split("\n"):
            for part in wrap(line, width, indent=indent(line)):
                self.stdout.write(part + "\n")
        self.stdout.flush()

    def style(self, text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if self.color else text

    def card(self, card: Card) -> str:
        code = str(card)
        if not self.color:
            return code
        colour = HONOUR_COLOUR if card.is_honour else SUIT_COLOURS[card % 3]
        return f"{colour}{code}{RESET}"

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(card) for card in cards)

    def hand_line(self, hand: Sequence[Card]) -> str:
        """The hand sorted and grouped by rank (each honour its own group), with positions."""
        parts: list[str] = []
        group = None
        for position, card in enumerate(hand, start=1):
            if group is not None and card.group != group:
                parts.append(self.style("|", DIM))
            group = card.group
            parts.append(f"{self.style(str(position), DIM)}:{self.card(card)}")
        return " ".join(parts)

    def prompt(self, prompt: str) -> None:
        """Write *prompt*, wrapped, leaving the cursor after its last line."""
        lines = wrap(self.style(prompt, BOLD), self.width - 1)
        for line in lines[:-1]:
            self.stdout.write(line + "\n")
        self.stdout.write(lines[-1] + " ")
        self.stdout.flush()

    def read_line(self) -> str | None:
        """One typed line, at most :data:`LINE_LIMIT` characters kept; ``None`` at the end."""
        try:
            line = self.stdin.readline(LINE_LIMIT)
            if not line:
                return None
            if not line.endswith("\n"):  # an over-long line: drop the rest of it
                more = line
                while more and not more.endswith("\n"):
                    more = self.stdin.readline(LINE_LIMIT)
        except KeyboardInterrupt:
            raise Interrupted from None
        except UnicodeDecodeError:  # a stream that is not UTF-8 (the command reads with errors=replace)
            return "\ufffd"
        except (OSError, ValueError):  # the input was closed under us
            return None
        return line

    def ask(self, prompt: str) -> str:
        try:
            self.prompt(prompt)
            line = self.read_line()
        except Interrupted:
            self.stdout.write("\n")  # the shell's prompt must not follow ours on one line
            raise
        if line is None:
            self.write()
            raise Quit
        text = line.strip()
        if not self.echo_free:
            self.write(printable(text, 60))  # piped input: show it, so the transcript reads well
        return text

    def height(self) -> int:
        """The terminal's height in lines, or 0 when the output is not a terminal."""
        try:
            if self.stdout.isatty():
                return os.get_terminal_size(self.stdout.fileno()).lines
        except (AttributeError, ValueError, OSError):
            pass
        return 0

    def page(self, text: str, more: str, stop: Callable[[str], bool]) -> None:
        """Write *text*; to a person at a terminal, a screenful at a time, asking *more*
        between screens until *stop* says so of the answer. Piped, all at once.

        A screen never ends with a heading (a line over an underline of ``=`` or ``-``): the
        heading starts the next screen, with its underline.
        """
        height = self.height()
        if not (self.echo_free and height > 4):
            self.write(text)
            return
        width = self.width
        lines = [part for line in text.split("\n") for part in wrap(line, width, indent=indent(line))]
        for start, stop_at in screens(lines, height - 2):
            if start and stop(self.ask(more)):
                return
            for line in lines[start:stop_at]:
                self.stdout.write(line + "\n")
            self.stdout.flush()

    @contextlib.contextmanager
    def held_input(self) -> Iterator[None]:
        """While the block runs, what the person types at a terminal is neither echoed nor
        kept: type-ahead during the AIs' moves would land in the middle of their narration
        and answer a prompt not yet shown. Nothing changes for piped input."""
        fd = _terminal(self.stdin) if self.echo_free else None
        if fd is None:
            yield
            return
        saved = termios.tcgetattr(fd)
        quiet = list(saved)
        quiet[3] &= ~(termios.ECHO | termios.ECHONL)  # the local modes
        try:
            termios.tcsetattr(fd, termios.TCSANOW, quiet)
            yield
        finally:
            # Restore the echo and drop what was typed meanwhile, in one step. A second Ctrl-C
            # must not cut it short (the terminal would stay silent): it waits until after.
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                with contextlib.suppress(termios.error, OSError):
                    termios.tcsetattr(fd, termios.TCSAFLUSH, saved)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def problem(self, message: str) -> None:
        self.write("  " + self.style(message, ALERT))


def _terminal(stream: TextIO) -> int | None:
    """The file descriptor of *stream* if it is a terminal whose modes can be set, else ``None``."""
    if termios is None:  # pragma: no cover - not on Windows
        return None
    try:
        fd = stream.fileno()
        termios.tcgetattr(fd)
    except (AttributeError, ValueError, OSError, termios.error):
        return None
    return fd


def _underline(line: str) -> bool:
    return len(line) >= 3 and set(line) <= {"=", "-"}


def screens(lines: Sequence[str], size: int) -> Iterator[tuple[int, int]]:
    """The screens of a pager: ``(start, stop)`` slices of *lines* of at most *size* lines,
    none ending with a heading, its underline, or the blank line after them.

    >>> text = ["a", "b", "Title", "=====", "", "c", "d"]
    >>> list(screens(text, 3)), list(screens(text, 4)), list(screens(text, 5))
    ([(0, 2), (2, 5), (5, 7)], [(0, 2), (2, 6), (6, 7)], [(0, 2), (2, 7)])
    """
    size = max(1, size)
    start = 0
    while start < len(lines):
        stop = min(start + size, len(lines))
        if stop < len(lines):
            for heading in range(stop - 1, max(start, stop - 3) - 1, -1):
                if heading > start and heading + 1 < len(lines) and _underline(lines[heading + 1]):
                    stop = heading  # the heading, its underline and blank line go together
                    break
        yield start, stop
        start = stop


def indent(line: str) -> int:
    """How far a wrapped line's continuation lines are indented: two columns past the line's own."""
    stripped = line.lstrip(" ")
    return len(line) - len(stripped) + 2


