"""The golden help of the ``kowah`` command: ``kowah --help``, ``kowah CMD --help`` for every
command, and the usage errors, as they are printed in three languages.

``tests/golden/cli-help.txt`` was first written by the command as it was before its parsers
were built lazily (issue 29), so the test shows that building only the command given changes
nothing a person sees. After a change of the help's text, rewrite it with::

    python3 dev.py goldens

and read the diff before committing it.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from kowah.cli import main as kowah

GOLDEN = Path(__file__).resolve().parent / "golden" / "cli-help.txt"
LANGUAGES = ("en", "it", "cs")
COMMANDS = ("play", "check", "replay", "rules", "simulate", "serve", "site")
#: Usage errors: no command, an unknown one, a command without its arguments, a bad value.
ERRORS: tuple[tuple[str, ...], ...] = (
    (), ("bogus",), ("check",), ("simulate", "--deals", "x", "--seats", "a"), ("--lang",),
    ("rules", "--format", "pdf"), ("replay", "--bogus", "f"))
WIDTH = "100"


@contextlib.contextmanager
def _columns(width: str) -> Iterator[None]:
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = width  # argparse wraps the help to the terminal's width
    try:
        yield
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def run(argv: Sequence[str]) -> str:
    """What ``kowah ARGV`` prints (standard output, then standard error) and its exit code."""
    out, err = io.StringIO(), io.StringIO()
    with _columns(WIDTH), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = kowah(list(argv))
        except SystemExit as stop:  # pragma: no cover - main() returns its code
            code = stop.code  # type: ignore[assignment]
    return f"== kowah {' '.join(argv)} (exit {code})\n{out.getvalue()}-- stderr\n{err.getvalue()}"


def render() -> str:
    """The whole golden text."""
    parts = []
    for language in LANGUAGES:
        parts.append(run(["--lang", language, "--help"]))
        parts += [run(["--lang", language, command, "--help"]) for command in COMMANDS]
        parts += [run(["--lang", language, *argv]) for argv in ERRORS]
    return "".join(parts)


def main(argv: list[str]) -> int:
    GOLDEN.write_text(render(), encoding="utf-8")
    print(f"wrote {GOLDEN.relative_to(GOLDEN.parent.parent.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
