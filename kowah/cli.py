"""The ``kowah`` command: play, check a hand, replay records, render the rules, simulate.

Every message is localised (``--lang``, or ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``).
Exit codes: 0 success, 1 a negative answer (a hand not ready, an invalid record), 2 bad input.
No user input produces a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from kowah.errors import N_, KowahError

if TYPE_CHECKING:
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

_PLAYERS = ("random", "normal", "hard")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one localised usage line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        translate = argparse._  # type: ignore[attr-defined]  # routed by _argparse_in
        self.exit(2, translate("%(prog)s: error: %(message)s\n") % {"prog": self.prog,
                                                                    "message": message})


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
    """The ``--lang`` value in *argv*, read before the parser (whose help it localises) exists."""
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def build_parser(t: Translator) -> argparse.ArgumentParser:
    """The ``kowah`` argument parser, with help text in *t*'s language."""
    _ = t.gettext
    lang = _Parser(add_help=False)
    lang.add_argument("--lang", metavar=_("cli", "TAG"),
                      help=_("cli", "language of all output: en, it, cs, ms or es "
                                    "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"))
    parser = _Parser(prog="kowah", parents=[lang],
                     description=_("cli", "Kowah (Cheki), the Chinese money-card game: play a deal "
                                          "against two AIs, check hands, replay records, read "
                                          "the rules."))
    from kowah import __version__

    parser.add_argument("--version", action="version", version=f"kowah {__version__}",
                        help=_("argparse", "show program's version number and exit"))
    commands = parser.add_subparsers(dest="command", metavar=_("cli", "COMMAND"),
                                     parser_class=_Parser)
    commands.required = True

    play = commands.add_parser("play", parents=[lang], help=_("cli", "play a deal against two AIs"),
                               description=_("cli", "Play one deal in the terminal: you are seat 0, "
                                                    "two AI players hold the other seats."))
    play.add_argument("--seed", type=int, metavar="N",
                      help=_("cli", "seed for the shuffle and the AIs (default: random)"))
    play.add_argument("--opponents", choices=_PLAYERS, default="normal",
                      help=_("cli", "strength of the two AI players (default: normal)"))
    play.add_argument("--record", type=Path, metavar=_("cli", "FILE"),
                      help=_("cli", "save the game record to FILE when the deal ends"))
    play.add_argument("--pace", type=float, metavar=_("cli", "SECONDS"),
                      help=_("cli", "pause after each AI move (default: 0.8 in a terminal, "
                                    "0 with piped input)"))

    check = commands.add_parser("check", parents=[lang], help=_("cli", "check whether a hand is ready"),
                                description=_("cli", "Check eight cards: if they are ready, show "
                                                     "their waits and splits; if not, how far they "
                                                     "are from ready and which cards would help."))
    check.add_argument("cards", nargs="+", metavar=_("cli", "CARD"),
                       help=_("cli", "card codes such as 5c 5s 9m ot, separated by spaces or commas"))
    check.add_argument("--json", action="store_true", help=_("cli", "print one JSON object"))

    replay = commands.add_parser("replay", parents=[lang], help=_("cli", "replay game records"),
                                 description=_("cli", "Replay kowah-record/1 files and print one "
                                                      "line per file, in order. Exit 0 when every "
                                                      "file is valid, 1 otherwise."))
    replay.add_argument("files", nargs="+", metavar=_("cli", "FILE"),
                        help=_("cli", "a game record"))
    replay.add_argument("--json", action="store_true",
                        help=_("cli", "print each result as a JSON object that names its file"))

    rules = commands.add_parser("rules", parents=[lang], help=_("cli", "print the rules"),
                                description=_("cli", "Print the complete rules of Kowah."))
    rules.add_argument("--format", choices=("text", "markdown", "html"), default="text",
                       help=_("cli", "output format (default: text)"))
    rules.add_argument("--fragment", action="store_true",
                       help=_("cli", "with --format html, print only the rules' sections, to "
                                     "embed in a page, instead of a whole HTML document"))

    simulate = commands.add_parser("simulate", parents=[lang],
                                   help=_("cli", "pit AI players against each other"),
                                   description=_("cli", "Play many deals between AI players, rotating "
                                                        "the first seat, and report the results."))
    simulate.add_argument("--deals", type=int, required=True, metavar="N",
                          help=_("cli", "number of deals"))
    simulate.add_argument("--seats", required=True, metavar="A,B,C",
                          help=_("cli", "the three players, e.g. hard,normal,normal "
                                        "(random, normal or hard)"))
    simulate.add_argument("--seed", type=int, default=0, metavar="S",
                          help=_("cli", "seed (default: 0)"))
    simulate.add_argument("--jobs", type=int, default=1, metavar="J",
                          help=_("cli", "worker processes (default: 1)"))
    simulate.add_argument("--json", action="store_true", help=_("cli", "print one JSON object"))
    serve = commands.add_parser("serve", parents=[lang], help=_("cli", "play in the browser"),
                                description=_("cli", "Start the browser table: you against two AIs, "
                                                     "in any of the five languages."))
    serve.add_argument("--host", default="127.0.0.1",
                       help=_("cli", "address to listen on (default: 127.0.0.1, this computer only)"))
    serve.add_argument("--port", type=int, default=8000, help=_("cli", "port (default: 8000)"))
    saving = serve.add_mutually_exclusive_group()
    saving.add_argument("--data", type=Path, metavar=_("cli", "DIR"),
                        help=_("cli", "folder for the saved games (default: a per-user folder)"))
    saving.add_argument("--no-save", action="store_true",
                        help=_("cli", "keep the games in memory only"))
    serve.add_argument("--open", action="store_true", help=_("cli", "open the table in a web browser"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``kowah`` command; return its exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
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
        try:
            t = translator(lang, strict=True)
        except KowahError as error:
            print(_("cli", "kowah: error: {message}", t).format(message=t.error(error)), file=sys.stderr)
            return 2
    try:
        with _argparse_in(t):
            args = build_parser(t).parse_args(argv)
            return int(_COMMANDS[args.command](args, t))
    except KowahError as error:
        print(_("cli", "kowah: error: {message}", t).format(message=t.error(error)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            sys.stderr.close()
        return 1


def _(context: str, message: str, t: Translator) -> str:
    return t.gettext(context, message)


# -- the commands -----------------------------------------------------------------------------


def _check(args: argparse.Namespace, t: Translator) -> int:
    from kowah.cards import format_cards, parse_cards
    from kowah.hands import distance, improvements, splits, waits

    cards = parse_cards(" ".join(args.cards))
    found = waits(cards)
    if args.json:
        report: dict[str, Any] = {"cards": format_cards(sorted(cards)), "ready": bool(found),
                                  "waits": [str(card) for card in sorted(found)],
                                  "splits": [str(split) for split in splits(cards)],
                                  "distance": distance(cards)}
        if not found:
            report["improvements"] = {str(card): n for card, n in improvements(cards).items()}
        print(json.dumps(report))
        return 0 if found else 1
    print(format_cards(sorted(cards)))
    if found:
        names = t.format_list(f"{card} ({t.card_name(card)})" for card in sorted(found))
        print(t.ngettext("cli", "Ready (checki). Wait: {waits}", "Ready (checki). Waits: {waits}",
                         len(found)).format(waits=names))
        print(_("cli", "Splits:", t))
        for split in splits(cards):
            print("  " + _("cli", "{split}  (wait {card})", t).format(split=split, card=split.wait))
        return 0
    away = distance(cards)
    print(t.ngettext("cli", "Not ready: {n} card to exchange, at the fewest.",
                     "Not ready: {n} cards to exchange, at the fewest.", away).format(n=away))
    helping = improvements(cards)
    if helping:
        listed = t.format_list(f"{card} ({n})" for card, n in helping.items())
        print(_("cli", "Cards that bring it closer (unseen copies): {cards}", t).format(cards=listed))
    return 1


def _replay(args: argparse.Namespace, t: Translator) -> int:
    from kowah.errors import RecordError
    from kowah.record import Record

    all_valid = True
    for name in args.files:
        path = Path(name)
        result: dict[str, object]
        message: str
        try:
            deal = Record.loads(path.read_bytes()).replay()
        except OSError as error:
            all_valid = False
            message = _unreadable(error, t)
            result = {"result": "invalid", "error": message}
        except RecordError as error:
            all_valid = False
            message = t.error(error)
            result = {"result": "invalid"}
            if error.action is not None:
                result["action"] = error.action
            result["error"] = message
        else:
            outcome = deal.outcome
            result = dict(outcome.as_dict()) if outcome else {"result": "in-progress"}
            message = (t.outcome(outcome) if outcome else
                       t.ngettext("cli", "in progress after {n} action",
                                  "in progress after {n} actions", len(deal.history)).format(
                                      n=len(deal.history)))
        if args.json:
            print(json.dumps({"file": name, **result}, ensure_ascii=False))
        elif result["result"] == "invalid":
            print(_("cli", "{file}: invalid: {message}", t).format(file=path, message=message))
        else:
            print(_("cli", "{file}: {message}", t).format(file=path, message=message))
    return 0 if all_valid else 1


def _unreadable(error: OSError, t: Translator) -> str:
    """Why a file cannot be read, in our own words (Python's are English only)."""
    if isinstance(error, IsADirectoryError):
        return _("cli", "cannot read the file: it is a folder", t)
    if isinstance(error, FileNotFoundError):
        return _("cli", "cannot read the file: no such file", t)
    if isinstance(error, PermissionError):
        return _("cli", "cannot read the file: permission denied", t)
    return _("cli", "cannot read the file", t)


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
    from kowah.table import play_in_terminal

    color = _interactive(sys.stdout) and not os.environ.get("NO_COLOR")
    pace = args.pace if args.pace is not None else (0.8 if _interactive(sys.stdin) else 0.0)
    if not 0 <= pace <= 60:  # also refuses nan and inf
        raise KowahError(N_("error", "--pace must be a number of seconds from 0 to 60, not {value}"),
                         value=args.pace)
    if args.record is not None:
        _check_writable(args.record)
    return play_in_terminal(t, seed=args.seed, opponents=args.opponents, record_path=args.record,
                            stdin=sys.stdin, stdout=sys.stdout, color=color, pace=pace)


def _check_writable(path: Path) -> None:
    """Refuse a record path that cannot be written, before the deal is played."""
    if path.is_dir():
        raise KowahError(N_("error", "cannot save the record to {path}: it is a folder"), path=str(path))
    folder = path.parent
    if not folder.is_dir():
        raise KowahError(N_("error", "cannot save the record to {path}: there is no folder {folder}"),
                         path=str(path), folder=str(folder))
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise KowahError(N_("error", "cannot save the record to {path}: permission denied"),
                         path=str(path))


def _simulate(args: argparse.Namespace, t: Translator) -> int:
    seats = [name.strip().lower() for name in args.seats.split(",")]
    if len(seats) != 3:
        raise KowahError(N_("error", "--seats needs three players separated by commas, not {value!r}"),
                         value=args.seats)
    for name in seats:
        if name not in _PLAYERS:
            raise KowahError(N_("error", "unknown player {value!r} (choose random, normal or hard)"),
                             value=name)
    if args.deals < 1:
        raise KowahError(N_("error", "--deals must be at least 1, not {value}"), value=args.deals)
    if args.jobs < 1:
        raise KowahError(N_("error", "--jobs must be at least 1, not {value}"), value=args.jobs)
    from kowah.players import simulate

    progress = _progress_bar(args.deals) if _interactive(sys.stderr) else None
    result = simulate(args.deals, seats, seed=args.seed, jobs=args.jobs, progress=progress)
    if progress is not None:
        sys.stderr.write("\r\033[K")
    if args.json:
        print(json.dumps(result.as_dict()))
        return 0
    print(t.ngettext("cli", "{n} deal", "{n} deals", result.deals).format(
        n=t.format_number(result.deals)))
    for seat, name in enumerate(seats):
        low, high = result.win_rate_interval(seat)
        wins = t.ngettext("cli", "seat {seat} ({player}): {wins} win, {rate}% (95% CI {low}–{high}%)",
                          "seat {seat} ({player}): {wins} wins, {rate}% (95% CI {low}–{high}%)",
                          result.wins[seat])
        print("  " + wins.format(seat=seat, player=t.gettext("player", name),
                                 wins=t.format_number(result.wins[seat]),
                      rate=t.format_number(round(100 * result.wins[seat] / result.deals, 1)),
                      low=t.format_number(round(100 * low, 1)),
                      high=t.format_number(round(100 * high, 1))))
    print("  " + _("cli", "drawn: {n}", t).format(n=t.format_number(result.drawn)))
    print("  " + _("cli", "wins by self-draw: {a}, by discard: {b}, by draw claim: {c}", t).format(
        a=t.format_number(result.by["self-draw"]), b=t.format_number(result.by["discard"]),
        c=t.format_number(result.by["draw-claim"])))
    return 0


def _progress_bar(total: int) -> Any:
    def show(done: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()

    return show


def _serve(args: argparse.Namespace, t: Translator) -> int:
    from kowah.web.server import serve

    return serve(t, host=args.host, port=args.port, data=None if args.no_save else args.data,
                 save=not args.no_save, open_browser=args.open)


_COMMANDS = {"play": _play, "check": _check, "replay": _replay, "rules": _rules,
             "simulate": _simulate, "serve": _serve}
