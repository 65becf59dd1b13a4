"""The ``kowah simulate`` command: deals between AI players on this machine or a Dask cluster.

Private to the package (:mod:`kowah.cli` runs it); its names are public within it. Dask is
imported only for ``--scheduler``; its errors, in its English, are said inside a sentence of
the catalogues, and its log lines are kept off the terminal.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import importlib
import json
import logging
import os
import re
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kowah import _babel, simulation  # simulation.simulate: tests replace it
from kowah._cli_options import rules_from
from kowah.errors import N_, KowahError, printable
from kowah.plugins import seat_player

if TYPE_CHECKING:
    from kowah.i18n import Translator

__all__ = ["CONNECT_TIMEOUT", "simulate_command"]


def simulate_command(args: argparse.Namespace, t: Translator, interactive: bool) -> int:
    """Run ``kowah simulate`` (*args* parsed); a progress bar on stderr when *interactive*."""
    names = args.seats.split(",")
    if len(names) != 3:
        raise KowahError(N_("error", "--seats needs three players separated by commas, not {value!r}"),
                         value=args.seats)
    rules = rules_from(args)
    seats = [seat_player(name) for name in names]  # a level, or a player of one's own, loaded
    if args.deals < 1:
        raise KowahError(N_("error", "--deals must be at least 1, not {value}"), value=args.deals)
    if args.jobs < 1:
        raise KowahError(N_("error", "--jobs must be at least 1, not {value}"), value=args.jobs)

    bar = None if args.quiet or not interactive else _ProgressBar(t, args.deals)
    try:
        if args.scheduler is None:
            result = simulation.simulate(args.deals, seats, seed=args.seed,
                                         jobs=_jobs(args.jobs, args.deals), progress=bar, rules=rules)
        else:
            with _cluster(args.scheduler) as executor:
                result = simulation.simulate(args.deals, seats, seed=args.seed, progress=bar,
                                             executor=executor, rules=rules)
    finally:
        if bar is not None:
            bar.clear()
    if args.json:
        print(json.dumps(_rounded(result.as_dict())))
        return 0
    print(t.ngettext("cli", "{n} deal", "{n} deals", result.deals).format(
        n=t.format_number(result.deals)))
    for seat, name in enumerate(seats):
        player = t.gettext("player", name) if isinstance(name, str) else printable(name.name, 60)
        low, high = result.win_rate_interval(seat)
        wins = t.ngettext("cli", "seat {seat} ({player}): {wins} win, {rate} (95% CI {low}–{high})",
                          "seat {seat} ({player}): {wins} wins, {rate} (95% CI {low}–{high})",
                          result.wins[seat])
        print("  " + wins.format(seat=seat, player=player,
                                 wins=t.format_number(result.wins[seat]),
                                 rate=_percent(t, result.wins[seat] / result.deals),
                                 low=_percent(t, low, sign=False), high=_percent(t, high)))
    print("  " + t.gettext("cli", "drawn deals: {n}").format(n=t.format_number(result.drawn)))
    print("  " + t.gettext("cli", "wins by self-draw: {a}, by claim of a discard: {b}, "
                                  "by claim of another player's stock draw: {c}").format(
        a=t.format_number(result.by["self-draw"]), b=t.format_number(result.by["discard"]),
        c=t.format_number(result.by["draw-claim"])))
    return 0


def _percent(t: Translator, fraction: float, sign: bool = True) -> str:
    """*fraction* as a percentage with one decimal, as *t*'s language writes it (CLDR's
    pattern, from Babel): ``48.0%`` in English, ``48,0 %`` in Czech; without the sign, the
    number alone, for the first bound of a range (``43,6–48,0 %``).

    >>> from kowah.i18n import translator
    >>> _percent(translator("en"), 0.48), _percent(translator("cs"), 0.4358, sign=False)
    ('48.0%', '43,6')
    >>> _percent(translator("cs"), 0.48) == "48,0\xa0%"
    True
    """
    _babel.load()
    from babel import Locale
    from babel.numbers import format_decimal, format_percent

    if not sign:
        return str(format_decimal(round(100 * fraction, 1), format="#,##0.0", locale=t.language))
    pattern = Locale.parse(t.language).percent_formats[None].pattern
    one_decimal = re.sub(r"0(?=[^0]*$)", "0.0", pattern, count=1)  # after the last digit
    return str(format_percent(fraction, format=one_decimal, locale=t.language))


#: Seconds to wait for a Dask scheduler to answer: a wrong or dead address fails soon.
CONNECT_TIMEOUT = 5


def _dask_problem(error: BaseException) -> str:
    """Dask's own (English) account of *error*, on one line, shortened and printable."""
    return printable(" ".join(str(error).split()) or type(error).__name__, 200)


@contextlib.contextmanager
def _cluster(address: str) -> Iterator[concurrent.futures.Executor]:
    """An executor on the Dask cluster whose scheduler is at *address* (Dask is imported only here).

    Dask's errors, in its English, are said inside a sentence of ours: connecting (refused,
    timed out after :data:`CONNECT_TIMEOUT` seconds, a bad address) and while the deals run
    (the scheduler lost, a worker killed).
    """
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise KowahError(N_("error", "--scheduler needs Dask: pip install 'kowah[cluster]'")) from None
    shown = printable(address, 200)
    with _quiet_logs("distributed", "tornado"):
        try:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
        except Exception as error:  # any of Dask's errors; not Ctrl-C
            raise KowahError(N_("error", "cannot reach the Dask scheduler at {address}: {problem}"),
                             address=shown, problem=_dask_problem(error)) from None
        try:
            yield client.get_executor()
        except KowahError:
            raise
        except Exception as error:
            raise KowahError(N_("error", "the Dask cluster at {address} failed during the simulation: "
                                         "{problem}"), address=shown, problem=_dask_problem(error)) from None
        finally:
            with contextlib.suppress(Exception):
                client.close(timeout=CONNECT_TIMEOUT)


@contextlib.contextmanager
def _quiet_logs(*packages: str) -> Iterator[None]:
    """Keep the log lines of *packages* (Dask's, in English, on stderr) off the terminal while
    the block runs: what goes wrong is said once, in the user's language."""
    loggers = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)
               if name.split(".")[0] in packages]
    saved = [logger.disabled for logger in loggers]
    for logger in loggers:
        logger.disabled = True
    try:
        yield
    finally:
        for logger, disabled in zip(loggers, saved, strict=True):
            logger.disabled = disabled


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on every system
        return os.cpu_count() or 1


def _jobs(asked: int, deals: int) -> int:
    """Worker processes: as asked, but no more than the CPUs and the chunks of work.

    A simulation's chunks are never fewer than its deals or eight per worker, whichever is
    less, so at most *deals* workers can be busy.

    >>> _jobs(1000, 3) <= 3, _jobs(1, 1000)
    (True, 1)
    """
    return max(1, min(asked, _cpus(), deals))


def _rounded(value: Any) -> Any:
    """Floats rounded to 12 decimal places: a bound of ``6.9e-18`` is ``0.0``."""
    if isinstance(value, float):
        return round(value, 12) + 0.0  # + 0.0 turns -0.0 into 0.0
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(item) for item in value]
    return value


class _ProgressBar:
    """A bar of the deals done, redrawn on one line of stderr (a terminal)."""

    WIDTH = 30

    def __init__(self, t: Translator, total: int) -> None:
        self.t = t
        self.total = total
        self(0)  # at once: connecting to a cluster may take a moment

    def __call__(self, done: int) -> None:
        filled = self.WIDTH * done // self.total
        count = f"{self.t.format_number(done)}/{self.t.format_number(self.total)}"
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {count}")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
