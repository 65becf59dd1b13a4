"""The ``kowah`` command: play, check a hand, replay records, render the rules, simulate.

Every message is localised (``--lang``, or ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``).
Exit codes: 0 success, 1 a negative answer (a hand not ready, an invalid record) or output
that could not be written, 2 bad input, 130 interrupted (Ctrl-C; in ``kowah play`` it leaves
the table and saves the record first when ``--record`` was given). No argument, file or
stream produces a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import os
import sys
import unicodedata
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from kowah._cli_options import add_rules_options, rules_from
from kowah._levels import NAMES as LEVELS  # kowah.players.PLAYERS, without loading a player
from kowah._oserrors import reason as os_reason
from kowah.errors import N_, KowahError, printable, shorten

if TYPE_CHECKING:
    from pathlib import Path

    from kowah.i18n import Translator

__all__ = ["build_parser", "main"]

# argparse's own messages, translated through the catalogue (context "argparse").
_ARGPARSE_MESSAGES = (
    N_("argparse", "usage: "),
    N_("argparse", "positional arguments"),
    N_("argparse", "options"),
    N_("argparse", "show this help message and exit"),
    N_("argparse", "show program's version number and exit"),
    N_("argparse", "argument %(argument_name)s: %(message)s"),
    N_("argparse", "unrecognized arguments: %s"),
    N_("argparse", "the following arguments are required: %s"),
    N_("argparse", "expected one argument"),
    N_("argparse", "expected at most one argument"),
    N_("argparse", "expected at least one argument"),
    N_("argparse", "invalid %(type)s value: %(value)r"),
    N_("argparse", "invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argparse", "ambiguous option: %(option)s could match %(matches)s"),
    N_("argparse", "%(prog)s: error: %(message)s\n"),
    N_("argparse", "not allowed with argument %s"),
    N_("argparse", "ignored explicit argument %r"),
    N_("argparse", "unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("argparse", "can't open '%(filename)s': %(error)s"),
    N_("argparse", "one of the arguments %s is required"),
)



class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one localised usage line and exit code 2, and whose
    help is formatted without importing shutil (see :class:`_Formatter`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse drops write errors; here --help > /dev/full is reported like any output.
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        translate = argparse._  # type: ignore[attr-defined]  # routed by _argparse_in
        self.exit(2, translate("%(prog)s: error: %(message)s\n") % {
            "prog": self.prog, "message": _typed_shown(message, _TYPED.get())})


#: How much of a typed argument an argparse message repeats.
_ECHO_LIMIT = 60

#: The arguments being parsed, as typed: argparse quotes them in its messages.
_TYPED: contextvars.ContextVar[Sequence[str] | None] = contextvars.ContextVar("typed", default=None)


def _typed_shown(message: str, typed: Sequence[str] | None) -> str:
    """An argparse *message* with what the user typed in it shortened and printable.

    argparse quotes an argument whole (``repr``, or as it is in "ambiguous option"): a
    5,000-digit ``--seed`` or an escape sequence must not reach the terminal as it is. Only
    the typed arguments are rewritten, never the message's own words (a Czech message holds
    no-break spaces, which :func:`~kowah.errors.printable` would escape). Without *typed*
    (a parser used outside :func:`main`), characters that do not print are escaped.

    >>> _typed_shown("invalid choice: '" + "x" * 100 + "' (choose from a, b)", ["x" * 100])
    "invalid choice: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxx' (choose from a, b)"
    >>> print(_typed_shown("ambiguous option: --s=\x1b[2J could match --seed, --seats", ["--s=\x1b[2J"]))
    ambiguous option: --s=\\x1b[2J could match --seed, --seats
    """
    if typed is None:
        return printable(message, _MESSAGE_LIMIT)
    parts = {part for arg in typed for part in (arg, arg.partition("=")[2]) if part}
    for part in sorted(parts, key=len, reverse=True):
        quoted, shown = repr(part), shorten(part)
        if quoted != shown and quoted in message:
            message = message.replace(quoted, shown)
        if _unsafe(part) and part in message:
            message = message.replace(part, printable(part, _ECHO_LIMIT))
    return message


def _unsafe(text: str) -> bool:
    """Whether *text* is too long to repeat, or holds a character that is neither printable
    nor a space (an escape sequence, a line break, a byte that was not UTF-8)."""
    return len(text) > _ECHO_LIMIT or any(
        not char.isprintable() and unicodedata.category(char) != "Zs" for char in text)


@contextlib.contextmanager
def _argparse_in(t: Translator) -> Iterator[None]:
    """Route argparse's messages through the translator while the command runs."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = lambda message: t.gettext("argparse", message)  # type: ignore[attr-defined]
    argparse.ngettext = lambda one, many, n: t.ngettext(  # type: ignore[attr-defined]
        "argparse", one, many, n)
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def _lang_from(argv: Sequence[str]) -> str | None:
    """The ``--lang`` value in *argv*, read before the parser (whose help it localises) exists.

    The last one wins, as for every other option; nothing after ``--`` is an option.

    >>> _lang_from(["--lang", "it", "rules", "--lang=cs"]), _lang_from(["check", "--", "--lang", "x"])
    ('cs', None)
    """
    found = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            found = argv[index + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def _path(text: str) -> Path:
    """A file or folder argument. pathlib and json are imported when a command uses them, not
    with this module: together they would cost ``kowah check`` half as much again as starting
    Python does."""
    from pathlib import Path

    return Path(text)


def _json(value: object, ensure_ascii: bool = True) -> str:
    """*value* as JSON text (see :func:`_path`)."""
    import json

    return json.dumps(value, ensure_ascii=ensure_ascii)


def _terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it (``COLUMNS``, then the
    terminal of standard output, else 80), without importing shutil: argparse imports it for
    every option added, and it loads zlib, bz2 and lzma, a good part of ``kowah check``'s
    start-up."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, its width found without shutil (see :func:`_terminal_columns`)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_columns() - 2 if width is None else width)


def _command_from(argv: Sequence[str]) -> str | None:
    """The command *argv* names, as the parser will read it: the first argument that is no
    option (``--lang``, or a beginning of it as argparse accepts one, takes the next one);
    ``None`` when there is none, or it is no command.

    >>> _command_from(["--lang", "check", "rules"]), _command_from(["--lang=it", "check", "5c"])
    ('rules', 'check')
    >>> _command_from(["--la", "check", "rules"])
    'rules'
    >>> _command_from(["--help"]), _command_from(["chekc"])
    (None, None)
    """
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--":
            return None
        elif len(arg) > 2 and "--lang".startswith(arg):
            skip = True
        elif not arg.startswith("-"):
            return arg if arg in _COMMANDS else None
    return None


def build_parser(t: Translator, command: str | None = None) -> argparse.ArgumentParser:
    """The ``kowah`` argument parser, with help text in *t*'s language.

    Every command is listed (``kowah --help`` and a wrong command's message name them all),
    but with *command* given only that command's options are added: ``kowah check`` starts
    without building the options of the six others (issue 29). Without it, every command has
    its options.
    """
    _ = t.gettext

    def wanted(name: str) -> bool:
        return command is None or command == name

    lang = _Parser(add_help=False)
    from kowah.i18n import LANGUAGES

    lang.add_argument("--lang", metavar=_("cli", "TAG"),
                      help=_("cli", "language of all output: {languages} (default: from LANGUAGE, "
                                    "LC_ALL, LC_MESSAGES or LANG)").format(
                          languages=t.format_list(LANGUAGES, style="or")))
    parser = _Parser(prog="kowah", parents=[lang],
                     description=_("cli", "Kowah (Cheki), the Chinese money-card game: play a deal "
                                          "against two AIs in the terminal or in the browser, "
                                          "check hands, replay records, read the rules, and pit "
                                          "AI players against each other."))
    from kowah import __version__

    parser.add_argument("--version", action="version", version=f"kowah {__version__}",
                        help=_("argparse", "show program's version number and exit"))
    commands = parser.add_subparsers(dest="command", metavar=_("cli", "COMMAND"),
                                     parser_class=_Parser)
    commands.required = False  # _parse() names an unknown option before a missing command

    play = commands.add_parser("play", parents=[lang], help=_("cli", "play a deal against two AIs"),
                               description=_("cli", "Play one deal in the terminal: you are seat 0 "
                                                    "and two AI players hold the other seats."))
    if wanted("play"):
        play.add_argument("--seed", type=int, metavar="N",
                          help=_("cli", "seed for the shuffle and the AIs (default: random)"))
        play.add_argument("--opponents", default="normal", metavar=_("cli", "PLAYER"),
                          help=_("cli", "the two AI players: {levels} (default: normal), or a player of "
                                        "your own, module:callable or an installed player's name").format(
                              levels=", ".join(LEVELS)))
        add_rules_options(play, _)
        play.add_argument("--record", type=_path, metavar=_("cli", "FILE"),
                          help=_("cli", "save the game record to FILE when the deal ends"))
        play.add_argument("--pace", metavar=_("cli", "SECONDS"),
                          help=_("cli", "pause after each AI move (default: 0.8 in a terminal, "
                                        "0 with piped input)"))

    check = commands.add_parser("check", parents=[lang], help=_("cli", "check whether a hand is ready"),
                                description=_("cli", "Check eight cards: if they are ready, show "
                                                     "their waits and splits; if not, how far they "
                                                     "are from ready and which cards would help."))
    if wanted("check"):
        check.add_argument("cards", nargs="+", metavar=_("cli", "CARD"),
                           help=_("cli", "card codes such as 5c 5s 9m ot, separated by spaces or commas"))
        check.add_argument("--json", action="store_true", help=_("cli", "print one JSON object"))
        add_rules_options(check, _, deals=False)

    replay = commands.add_parser("replay", parents=[lang], help=_("cli", "replay game records"),
                                 description=_("cli", "Replay kowah-record/1 files and print one "
                                                      "line per file, in order. Exit 0 when every "
                                                      "file is valid, 1 when one is not, 2 when one "
                                                      "cannot be read."))
    if wanted("replay"):
        replay.add_argument("files", nargs="+", metavar=_("cli", "FILE"),
                            help=_("cli", "a game record; - reads one from standard input"))
        replay.add_argument("--json", action="store_true",
                            help=_("cli", "print each result as a JSON object that names its file"))

    rules = commands.add_parser("rules", parents=[lang], help=_("cli", "print the rules"),
                                description=_("cli", "Print the complete rules of Kowah."))
    if wanted("rules"):
        rules.add_argument("--format", choices=("text", "markdown", "html"), default="text",
                           help=_("cli", "output format (default: text)"))
        rules.add_argument("--fragment", action="store_true",
                           help=_("cli", "with --format html, print only the rules' sections, to "
                                         "embed in a page, instead of a whole HTML document"))

    simulate = commands.add_parser("simulate", parents=[lang],
                                   help=_("cli", "pit AI players against each other"),
                                   description=_("cli", "Play many deals between AI players, rotating "
                                                        "the first seat, and report the results."))
    if wanted("simulate"):
        simulate.add_argument("--deals", type=int, required=True, metavar="N",
                              help=_("cli", "number of deals"))
        simulate.add_argument("--seats", required=True, metavar="A,B,C",
                              help=_("cli", "the three players, e.g. hard,normal,normal "
                                            "(random, easy, normal or hard, or a player of your own: "
                                            "module:callable or an installed player's name)"))
        add_rules_options(simulate, _)
        simulate.add_argument("--seed", type=int, default=0, metavar="S",
                              help=_("cli", "seed for the shuffles and the AIs (default: 0)"))
        simulate.add_argument("--jobs", type=int, default=1, metavar="J",
                              help=_("cli", "worker processes (default: 1)"))
        simulate.add_argument("--scheduler", metavar=_("cli", "ADDRESS"),
                              help=_("cli", "run the deals on the Dask cluster whose scheduler is at "
                                            "ADDRESS, e.g. tcp://10.0.0.5:8786 (needs kowah[cluster])"))
        simulate.add_argument("--json", action="store_true", help=_("cli", "print one JSON object"))
        simulate.add_argument("--quiet", action="store_true",
                              help=_("cli", "hide the progress bar (shown on stderr when it is a "
                                            "terminal)"))
    serve = commands.add_parser("serve", parents=[lang], help=_("cli", "play in the browser"),
                                description=_("cli", "Start the browser table: you against two AIs, "
                                                     "in any of the library's languages."))
    if wanted("serve"):
        _serve_options(serve, _)
    site = commands.add_parser("site", parents=[lang], help=_("cli", "write the table as a static web site"),
                               description=_("cli", "Write the browser table, with its Python engine, "
                                                    "as a folder of static files that any web host "
                                                    "can serve and that plays offline."))
    if wanted("site"):
        site.add_argument("out", metavar=_("cli", "OUT"), help=_("cli", "the folder to write (replaced)"))
        site.add_argument("--pyodide", metavar=_("cli", "DIR"),
                          help=_("cli", "an unpacked Pyodide release to use instead of npm's package"))
        site.add_argument("--friends-url", metavar=_("cli", "URL"),
                          help=_("cli", "the kowah serve table that “Play with friends” opens"))
    return parser


def _serve_options(serve: argparse.ArgumentParser, _: Any) -> None:
    """``kowah serve``'s options; a bad value is an argument error naming its option."""

    def whole(low: int, high: int) -> Any:
        def check(text: str) -> int:
            if not (text.isascii() and text.strip().isdigit() and low <= int(text) <= high):
                raise argparse.ArgumentTypeError(_("cli", "must be a whole number from {low} to "
                                                          "{high}, not {value}").format(
                    low=low, high=high, value=printable(text[:20])))
            return int(text)
        return check

    def host(text: str) -> str:
        import ipaddress
        import re

        try:
            ipaddress.ip_address(text.strip("[]"))
            return text.strip("[]")
        except ValueError:
            if re.fullmatch(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9-]{1,63})*", text):
                return text
        raise argparse.ArgumentTypeError(_("cli", "not an address or a host name: {value}").format(
            value=printable(text[:40])))

    def _proxy(text: str) -> str:
        import ipaddress

        try:
            return str(ipaddress.ip_address(text.strip("[]")))
        except ValueError:
            raise argparse.ArgumentTypeError(_("cli", "not an IP address: {value}").format(
                value=printable(text[:40]))) from None

    serve.add_argument("--host", default="127.0.0.1", type=host,
                       help=_("cli", "address to listen on (default: 127.0.0.1, this computer only)"))
    serve.add_argument("--port", type=whole(1, 65535), default=8000,
                       help=_("cli", "port to listen on (default: 8000)"))
    saving = serve.add_mutually_exclusive_group()
    saving.add_argument("--data", type=_path, metavar=_("cli", "DIR"),
                        help=_("cli", "folder for the saved games (default: a per-user folder)"))
    saving.add_argument("--no-save", action="store_true",
                        help=_("cli", "keep the games in memory only"))
    saving.add_argument("--database", metavar="URL",
                        help=_("cli", "the games' database: sqlite:///PATH or postgresql://… "
                                      "(default: kowah.sqlite3 in the data folder)"))
    serve.add_argument("--workers", type=whole(1, 64), default=1, metavar="N",
                       help=_("cli", "number of server processes on the same port (default: 1)"))
    serve.add_argument("--allow-host", action="append", default=[], metavar=_("cli", "NAME"),
                       help=_("cli", "another name by which the server can be reached (repeatable)"))
    serve.add_argument("--allow-origin", action="append", default=[], metavar=_("cli", "ORIGIN"),
                       help=_("cli", "another web origin that may send changes, e.g. "
                                     "https://example.org (repeatable)"))
    serve.add_argument("--idle-timeout", type=whole(60, 10**8), default=86400,
                       metavar=_("cli", "SECONDS"),
                       help=_("cli", "close a game left untouched for this many seconds (default: 86400)"))
    serve.add_argument("--max-new-per-minute", type=whole(1, 10**6), default=60, metavar="N",
                       help=_("cli", "at most N new games per client address per minute (default: 60)"))
    serve.add_argument("--unjoined-timeout", type=whole(60, 10**8), default=1800,
                       metavar=_("cli", "SECONDS"),
                       help=_("cli", "close a table still waiting for its people after this many seconds "
                                     "untouched (default: 1800)"))
    serve.add_argument("--trust-proxy", action="append", default=[], type=_proxy,
                       metavar=_("cli", "ADDRESS"),
                       help=_("cli", "a reverse proxy whose X-Forwarded-For header names the "
                                     "client (repeatable; default: none)"))
    serve.add_argument("--open", action="store_true", help=_("cli", "open the table in a web browser"))
    serve.add_argument("--player", action="append", default=[], metavar=_("cli", "PLAYER"),
                       help=_("cli", "offer a player of your own for the AI seats, besides the "
                                     "AI strengths: module:callable or an installed player's name "
                                     "(repeatable)"))


#: The longest error message printed, in characters (a 10 MB token must not make a 10 MB line).
_MESSAGE_LIMIT = 400


def _say_error(t: Translator, message: str) -> None:
    """Print an error message (its quoted input is shortened and printable already)."""
    print(_("cli", "kowah: error: {message}", t).format(message=message), file=sys.stderr)


def _safe_streams() -> None:
    """Make the standard streams unable to raise on odd text: a file name that is not UTF-8,
    a byte on stdin that is not UTF-8. A missing stream (closed by the shell) becomes
    the null device."""
    for name in ("stdin", "stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "r" if name == "stdin" else "w"))  # noqa: SIM115
            continue
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="replace" if name == "stdin" else "backslashreplace")


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kowah`` command; return its exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    _safe_streams()
    from kowah.i18n import LocaleWarning, translator

    # A language asked for with --lang must exist; one that only the environment asks for
    # falls back to English silently, as gettext programs do.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LocaleWarning)
        try:
            t = translator(None)
        except KowahError as error:  # a catalogue missing from a broken install
            print(f"kowah: {error}", file=sys.stderr)
            return 2
    lang = _lang_from(argv)
    if lang is not None:
        lang = printable(lang, _ECHO_LIMIT)  # quoted in the error when it names no language
        try:
            if not lang.strip():  # "" would mean "no preference" to negotiate(): not here
                from kowah.i18n import LocaleError

                raise LocaleError(N_("error", "'{tag}' is not a locale tag"), tag=lang,
                                  languages="")
            t = translator(lang, strict=True)
        except KowahError as error:
            _say_error(t, t.error(error))
            return 2
    try:
        with _argparse_in(t):
            try:
                typed = _TYPED.set(argv)
                try:
                    args = _parse(build_parser(t, _command_from(argv)), argv, t)
                finally:
                    _TYPED.reset(typed)
            except SystemExit as stop:  # --help, --version, or a usage error (said already)
                code = stop.code if isinstance(stop.code, int) else 2
            else:
                code = int(_COMMANDS[args.command](args, t))
        sys.stdout.flush()  # a full disk shows here, not at the interpreter's exit
        return code
    except KowahError as error:
        _say_error(t, t.error(_typed_as_json(error)))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (e.g. piped into head): stop quietly
        _silence_stdout()
        return 1
    except OSError as error:  # the output cannot be written (a full disk, /dev/full)
        _silence_stdout()
        _say_error(t, _("cli", "cannot write the output: {reason}", t).format(reason=os_reason(t, error)))
        return 1


def _parse(parser: argparse.ArgumentParser, argv: list[str], t: Translator) -> argparse.Namespace:
    """Parse *argv*; an unknown option is named before a missing command is reported."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        parser.error(argparse._("unrecognized arguments: %s") % " ".join(  # type: ignore[attr-defined]
            printable(arg, 60) for arg in extra))
    if args.command is None:
        parser.error(argparse._("the following arguments are required: %s") % (  # type: ignore[attr-defined]
            _("cli", "COMMAND", t)))
    return args


class _JSONValue:
    """A value quoted in an error as JSON writes it: ``true``, ``null``, ``1.5``."""

    def __init__(self, value: object) -> None:
        self.text = _json(value)

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _typed_as_json(error: KowahError) -> KowahError:
    """A record error's found value written as JSON writes it (``true``, not ``True``)."""
    from kowah.errors import RecordError

    if isinstance(error, RecordError):
        found = error.params.get("found")
        if isinstance(found, (bool, float)) or (found is None and "found" in error.params):
            error.params = {**error.params, "found": _JSONValue(found)}
    return error


def _(context: str, message: str, t: Translator) -> str:
    return t.gettext(context, message)


# -- the commands -----------------------------------------------------------------------------


def _check(args: argparse.Namespace, t: Translator) -> int:
    from kowah._check_command import check_command

    return check_command(args, t)


class _Unreadable(KowahError):
    """A record file that cannot be read at all (exit status 2, as for other bad input)."""


def _read_record(name: str, t: Translator) -> bytes:
    """The bytes of a record file (``-``: standard input), read with a bound (a record is a
    few kilobytes, and /dev/zero is endless); a file too large is a RecordError, one that
    cannot be read an _Unreadable, in our words."""
    from kowah.errors import RecordError
    from kowah.record import MAX_SIZE

    try:
        if name == "-":
            stream = getattr(sys.stdin, "buffer", None)  # a text stream without bytes: its text
            data = (stream.read(MAX_SIZE + 1) if stream is not None else
                    sys.stdin.read(MAX_SIZE + 1).encode("utf-8", "surrogateescape"))
        else:
            with _path(name).open("rb") as handle:
                data = handle.read(MAX_SIZE + 1)
    except (OSError, ValueError) as error:
        raise _Unreadable(N_("error", "cannot read the file: {reason}"),
                          reason=os_reason(t, error)) from None
    if len(data) > MAX_SIZE:
        raise RecordError(N_("error", "the file holds more than {limit} bytes: too large for a game "
                                      "record"), limit=MAX_SIZE)
    return data


def _tag_names(tags: Mapping[str, str]) -> list[str | None]:
    """Who sat where, from a record's tags ``seat0`` … ``seat2`` (the browser table writes
    them): the name, without an AI's label; ``None`` for a seat without one.

    >>> _tag_names({"seat0": "Ana", "seat1": "Seat 1 · AI (normal)", "seat2": "Bo · AI (hard)"})
    ['Ana', None, 'Bo']
    """
    names: list[str | None] = []
    for seat in range(3):
        name = str(tags.get(f"seat{seat}", "")).partition(" · AI (")[0].strip()
        names.append(None if not name or name == f"Seat {seat}" else name)
    return names


def _replay(args: argparse.Namespace, t: Translator) -> int:
    from kowah.errors import RecordError
    from kowah.record import Record

    code = 0
    for name in args.files:
        shown = printable(name)  # a name that is not UTF-8 is written with \\x escapes
        result: dict[str, object]
        message: str
        try:
            record = Record.loads(_read_record(name, t))
            deal = record.replay()
        except _Unreadable as error:  # still "invalid" in JSON; the exit status says it
            code = 2
            message = t.error(error)
            result = {"result": "invalid", "error": message}
        except RecordError as error:
            code = max(code, 1)
            message = t.error(_typed_as_json(error))
            result = {"result": "invalid"}
            if error.action is not None:
                result["action"] = error.action
            result["error"] = message
        else:
            outcome = deal.outcome
            result = dict(outcome.as_dict()) if outcome else {"result": "in-progress"}
            message = (t.outcome(outcome, names=_tag_names(record.tags)) if outcome else
                       t.ngettext("cli", "in progress after {n} action",
                                  "in progress after {n} actions", len(deal.history)).format(
                                      n=len(deal.history)))
        if args.json:
            print(_json({"file": shown, **result}, ensure_ascii=False))
        elif result["result"] == "invalid":
            print(_("cli", "{file}: invalid: {message}", t).format(file=shown, message=message))
        else:
            print(_("cli", "{file}: {message}", t).format(file=shown, message=message))
    return code


def _rules(args: argparse.Namespace, t: Translator) -> int:
    from kowah.rendering import render_rules, render_rules_document

    if args.fragment and args.format != "html":
        raise KowahError(N_("error", "--fragment needs --format html"))
    if args.format == "html" and not args.fragment:
        text = render_rules_document(t)
    else:
        text = render_rules(t, args.format)
    sys.stdout.write(text.rstrip("\n") + "\n")
    return 0


def _interactive(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _play(args: argparse.Namespace, t: Translator) -> int:
    from kowah.terminal import check_record_path, play_in_terminal

    color = _interactive(sys.stdout) and not os.environ.get("NO_COLOR")
    if args.pace is None:
        pace = 0.8 if _interactive(sys.stdin) else 0.0
    else:
        try:
            pace = float(args.pace)
        except ValueError:
            pace = -1.0
        if not 0 <= pace <= 60:  # also refuses nan and inf
            # The value as it was typed: "-5", not "-5.0".
            raise KowahError(N_("error", "--pace must be a number of seconds from 0 to 60, not {value}"),
                             value=printable(args.pace, 40) or "''")
    rules = rules_from(args)
    from kowah.plugins import seat_player

    opponents = seat_player(args.opponents)  # a player of one's own is loaded before the deal
    if args.record is not None:
        check_record_path(t, args.record)  # the same open as the save at the end
    from kowah.i18n import translator

    # The person types card codes: the narration names each card with its code too.
    return play_in_terminal(translator(t.language, codes=True), seed=args.seed, rules=rules,
                            opponents=opponents, record_path=args.record,
                            stdin=sys.stdin, stdout=sys.stdout, color=color, pace=pace)


def _simulate(args: argparse.Namespace, t: Translator) -> int:
    from kowah._simulating import simulate_command

    return simulate_command(args, t, interactive=_interactive(sys.stderr))


def _serve(args: argparse.Namespace, t: Translator) -> int:
    from kowah.web.server import serve

    return serve(t, host=args.host, port=args.port, data=args.data, save=not args.no_save,
                 open_browser=args.open, database=args.database, workers=args.workers,
                 allow_hosts=tuple(args.allow_host), allow_origins=tuple(args.allow_origin),
                 idle_timeout=args.idle_timeout, max_new_per_minute=args.max_new_per_minute,
                 players=tuple(args.player), unjoined_timeout=args.unjoined_timeout,
                 trust_proxies=tuple(args.trust_proxy))


def _site(args: argparse.Namespace, t: Translator) -> int:
    from pathlib import Path

    from kowah.site.build import build

    site = build(Path(args.out), pyodide=None if args.pyodide is None else Path(args.pyodide),
                 friends_url=args.friends_url)
    width = max(map(len, site.sizes))
    for name, size in sorted(site.sizes.items()):
        print(f"{name:<{width}}  {t.format_number(size):>12}")
    print(t.gettext("cli", "{out}: {count} files, {size} bytes (build {version})").format(
        out=args.out, count=len(site.sizes), size=t.format_number(site.total), version=site.version))
    return 0


_COMMANDS = {"play": _play, "check": _check, "replay": _replay, "rules": _rules,
             "simulate": _simulate, "serve": _serve, "site": _site}
