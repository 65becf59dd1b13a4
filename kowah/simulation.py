"""Playing deals between players: one deal (:func:`play_deal`) or many (:func:`simulate`).

:func:`simulate` seeds every deal from ``(seed, index)``, so its result is the same on one
core, on a process pool, or on any :class:`concurrent.futures.Executor`, such as a Dask
cluster's (``kowah simulate --scheduler ADDRESS``), whatever the number of workers and the
size of the chunks of deals sent to each.

>>> import random
>>> from kowah import Deal
>>> from kowah.players import make_player
>>> players = [make_player(name, random.Random(seat))
...            for seat, name in enumerate(("hard", "random", "random"))]
>>> play_deal(players, Deal.shuffled(seed=4)).is_over
True
>>> result = simulate(6, ["hard", "random", "random"], seed=1)
>>> result.deals, sum(result.wins) + result.drawn
(6, 6)
"""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import pickle
import random
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TypedDict

import attrs

from kowah._value import FrozenMap, Value
from kowah.actions import Action, ActionKind, Reason, Refusal
from kowah.deal import Deal
from kowah.engine import KOWAH_RULES, SEATS, Rules, State
from kowah.errors import N_, IllegalActionError, KowahError, KowahTypeError, shorten
from kowah.events import Outcome
from kowah.players import PLAYERS, Player, UnknownPlayerError, make_player

__all__ = ["PlayerFactory", "SimulationDict", "SimulationResult", "play_deal", "random_playout", "simulate"]


def random_playout(deal: Deal | State, rng: random.Random) -> tuple[Outcome, list[Action]]:
    """Finish a copy of *deal* (a :class:`~kowah.deal.Deal` or a :class:`~kowah.engine.State`)
    with uniformly random legal actions; return the outcome and the actions (passes left out).

    Each step takes ``legal_actions(seat)[int(rng.random() * n)]`` for the seat that acts,
    with the legal actions and the steps of :class:`~kowah.engine.State`, the rules' one
    implementation, without the checks, events or observations of
    :meth:`Deal.apply <kowah.deal.Deal.apply>`. *deal* itself is not changed.

    >>> deal = Deal.shuffled(seed=11)
    >>> outcome, actions = random_playout(deal, random.Random(11))
    >>> replayed = deal.copy()
    >>> for action in actions:
    ...     _ = replayed.apply(action)
    >>> replayed.outcome == outcome
    True
    """
    if isinstance(deal, State):
        state = deal.copy()
    elif isinstance(deal, Deal):
        state = deal.state()
    else:
        raise KowahTypeError(N_("error", "expected a Deal or a State, not {value} of type {type}"),
                             value=shorten(deal), type=type(deal).__name__)
    if not isinstance(rng, random.Random):
        raise KowahTypeError(N_("error", "expected a random.Random, not {value} of type {type}"),
                             value=shorten(rng), type=type(rng).__name__)
    state.use_ready_dict()  # playouts run by the thousand
    random_, legal, floor = rng.random, state.legal_actions, math.floor
    draw, take, discard, declare = state.draw, state.take, state.discard, state.declare
    actions: list[Action] = []
    record = actions.append
    ended = state.outcome
    while ended is None:
        window = state.window
        seat = state.turn if window is None else window
        choices = legal(seat)
        action = choices[floor(random_() * len(choices))]  # int() would be slower
        kind = action.kind  # State.step, without its call: a few hundred steps a deal
        if kind is _DISCARD:
            ended = discard(seat, action.card)  # type: ignore[arg-type]
        elif kind is _DRAW:
            ended = draw(seat)
        elif kind is _TAKE:
            take(seat)
        elif kind is _DECLARE:
            declare(seat, action.card)  # type: ignore[arg-type]
        else:  # a pass: never recorded
            state.pass_(seat)
            continue
        record(action)
    return ended, actions


_DRAW, _TAKE, _DISCARD, _DECLARE = ActionKind.DRAW, ActionKind.TAKE, ActionKind.DISCARD, ActionKind.DECLARE

def _check_players(players: Sequence[Player]) -> None:
    if len(players) != SEATS:
        raise KowahError(N_("error", "a deal needs {seats} players, not {count}"), seats=SEATS,
                         count=len(players))


def _player_name(player: object) -> str:
    name = getattr(player, "name", None)
    return name if isinstance(name, str) else type(player).__name__


def _apply(deal: Deal, seat: int, player: Player, action: Action) -> None:
    """Apply *action*, which *player* chose for *seat*; an illegal one (another seat's too: a
    player may act only for its own seat) raises IllegalActionError naming the player."""
    if isinstance(action, Action) and action.seat != seat:
        # It is *seat* who must act now, whatever the deal would let another seat do.
        raise IllegalActionError(Refusal(Reason.NOT_YOUR_TURN, action, {"turn": seat}),
                                 player=_player_name(player), at=seat)
    try:
        deal.apply(action)  # it refuses what is not an Action, too
    except IllegalActionError as error:
        raise IllegalActionError(error.refusal, player=_player_name(player), at=seat) from None


def play_deal(players: Sequence[Player], deal: Deal, *, ask_forced: bool = True) -> Deal:
    """Play *deal* to its end: each step, the first seat that may act chooses; returns *deal*.

    Each player sees only its own seat's observation and legal actions, and must return one
    of those actions: an action of another seat, or one that is not legal now, raises
    :class:`~kowah.IllegalActionError` (naming the player, its seat, the action and why: for
    another seat's action, :attr:`~kowah.Reason.NOT_YOUR_TURN`), and something that is not an
    :class:`~kowah.Action` raises :class:`~kowah.ActionTypeError`. With *ask_forced* false, a
    seat with a single legal action (a locked hand's draw and discard, the opening draw) is
    not asked: its action is applied directly, which saves time in simulations of
    stateless players.

    >>> import random
    >>> from kowah import Deal
    >>> from kowah.players import HardPlayer
    >>> players = [HardPlayer(random.Random(seat)) for seat in range(3)]
    >>> play_deal(players, Deal.shuffled(seed=9)).outcome.result in ("win", "drawn")
    True
    """
    _check_players(players)
    while not deal.is_over:
        seat = deal.actor
        if not ask_forced:
            legal = deal.legal_actions(seat)
            if len(legal) == 1:
                deal.apply(legal[0])
                continue
        observation = deal.observation(seat)
        player = players[seat]
        _apply(deal, seat, player, player.choose(observation, observation.legal_actions))
    return deal


# -- simulations -----------------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    >>> wilson(0, 3)[0], wilson(3, 3)[1]
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # No success (or no failure) puts that end at 0 (or 1) exactly, not a rounding error away.
    return (0.0 if successes == 0 else max(0.0, centre - half),
            1.0 if successes == trials else min(1.0, centre + half))


def _whole_count(name: str, value: object) -> int:
    if type(value) is not int:
        raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                             name=name, expected="int", value=shorten(value), type=type(value).__name__)
    if value < 0:
        raise KowahError(N_("error", "{name} must be 0 or more, not {value}"), name=name, value=value)
    return value


class SimulationDict(TypedDict):
    """The JSON form of a :class:`SimulationResult` (:meth:`SimulationResult.as_dict`)."""

    deals: int
    seats: list[str]
    wins: list[int]
    drawn: int
    by: dict[str, int]
    decided: int
    win_rates: list[float]
    win_rate_intervals: list[list[float]]


@attrs.frozen(init=False)
class SimulationResult(Value):
    """The totals of :func:`simulate`: wins per seat, drawn deals, and wins by kind (R14, R15).

    >>> result = SimulationResult(10, ("hard", "random", "random"), (7, 1, 0), 2,
    ...                           {"self-draw": 3, "discard": 4, "draw-claim": 1})
    >>> result.decided, [round(x, 2) for x in result.win_rate_interval(0)]
    (8, [0.4, 0.89])
    >>> SimulationResult(10, ("hard",) * 3, (7, 1, 0), 5, {})
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: a simulation of 10 deals cannot have 8 wins and 5 drawn deals
    """

    #: The number of deals played.
    deals: int
    #: Each seat's player, by name.
    seats: tuple[str, ...]
    #: Each seat's wins.
    wins: tuple[int, ...]
    #: Deals that nobody won (R16, R17).
    drawn: int
    #: Wins by kind: ``"self-draw"``, ``"discard"``, ``"draw-claim"`` (R14, R15).
    by: FrozenMap[str, int]

    def __init__(self, deals: int, seats: Iterable[str], wins: Iterable[int], drawn: int,
                 by: Mapping[str, int]) -> None:
        deals = _whole_count("SimulationResult.deals", deals)
        drawn = _whole_count("SimulationResult.drawn", drawn)
        names = tuple(seats)
        for name in names:
            if not isinstance(name, str):
                raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type "
                                                 "{type}"), name="SimulationResult.seats",
                                     expected="str", value=shorten(name), type=type(name).__name__)
        counts = tuple(_whole_count("SimulationResult.wins", win) for win in wins)
        if not isinstance(by, Mapping):
            raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                                 name="SimulationResult.by", expected="Mapping[str, int]",
                                 value=shorten(by), type=type(by).__name__)
        kinds = FrozenMap({str(kind): _whole_count("SimulationResult.by", count)
                           for kind, count in by.items()})
        if len(counts) != len(names):
            raise KowahError(N_("error", "a simulation has a count of wins for each seat: {seats} seats, "
                                         "{counts} counts"), seats=len(names), counts=len(counts))
        if sum(counts) + drawn != deals:
            raise KowahError(N_("error", "a simulation of {deals} deals cannot have {wins} wins and {drawn} "
                                         "drawn deals"), deals=deals, wins=sum(counts), drawn=drawn)
        self.__attrs_init__(deals=deals, seats=names, wins=counts, drawn=drawn, by=kinds)

    @property
    def decided(self) -> int:
        """Deals that someone won."""
        return self.deals - self.drawn

    def win_rate_interval(self, seat: int) -> tuple[float, float]:
        """The 95% Wilson interval of *seat*'s share of all deals."""
        return wilson(self.wins[seat], self.deals)

    def as_dict(self) -> SimulationDict:
        """A JSON-ready summary: deals, seats, wins, drawn, by, and a few derived figures."""
        return {
            "deals": self.deals,
            "seats": list(self.seats),
            "wins": list(self.wins),
            "drawn": self.drawn,
            "by": dict(self.by),
            "decided": self.decided,
            "win_rates": [wins / self.deals if self.deals else 0.0 for wins in self.wins],
            "win_rate_intervals": [list(self.win_rate_interval(seat)) for seat in range(len(self.seats))],
        }


def _deal_rng(seed: int, index: int) -> random.Random:
    # A string seed is hashed with SHA-512 by ``random``: the same in every process.
    return random.Random(f"kowah-simulate/{seed}/{index}")


#: What :func:`simulate` accepts for a seat: a built-in player's name, or a callable that makes
#: a player from a seeded :class:`random.Random` (a player class taking *rng* will do).
PlayerFactory = Callable[[random.Random], Player]
_Seat = str | PlayerFactory
#: A chunk's totals: wins per seat, drawn deals, wins by kind (self-draw, discard, draw-claim).
_Totals = tuple[tuple[int, int, int], int, tuple[int, int, int]]
_BY = ("self-draw", "discard", "draw-claim")


def _make(seat: _Seat, rng: random.Random) -> Player:
    return make_player(seat, rng) if isinstance(seat, str) else seat(rng)


def _play_chunk(job: tuple[tuple[_Seat, ...], int, int, int, Rules]) -> _Totals:
    """Deals *start* to *stop* of a simulation, counted: deal *i* is shuffled and its players
    seeded from ``(seed, i)``, and it starts at seat ``i % 3`` (R9)."""
    seats, seed, start, stop, rules = job
    wins, by, drawn = [0, 0, 0], [0, 0, 0], 0
    for index in range(start, stop):
        rng = _deal_rng(seed, index)
        deck = list(rules.pack.cards)
        rng.shuffle(deck)
        players = [_make(seat, random.Random(rng.getrandbits(64))) for seat in seats]
        outcome = play_deal(players, Deal(deck, index % SEATS, rules), ask_forced=False).outcome
        assert outcome is not None
        if outcome.winner is None:
            drawn += 1
        else:
            wins[outcome.winner] += 1
            by[_BY.index(str(outcome.by))] += 1
    return (wins[0], wins[1], wins[2]), drawn, (by[0], by[1], by[2])


def _seat_name(seat: _Seat) -> str:
    if isinstance(seat, str):
        return seat
    name = getattr(seat, "name", None)
    return name if isinstance(name, str) else getattr(seat, "__name__", type(seat).__name__)


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool (no worker tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_order(futures: Sequence[concurrent.futures.Future[_Totals]]) -> Iterator[_Totals]:
    """The chunks' totals in order. Each wait is short and repeated: Ctrl-C may reach another
    thread of this process (the pool's), and a wait without a timeout would only end, and let
    the main thread see it, when the chunk is done."""
    for future in futures:
        while True:
            try:
                totals = future.result(timeout=0.1)
            except TimeoutError:
                if future.done():  # the chunk itself raised a TimeoutError
                    raise
                continue
            break
        yield totals


def _cancel(futures: Sequence[concurrent.futures.Future[_Totals]],
            pool: concurrent.futures.ProcessPoolExecutor | None, others: Sequence[object]) -> None:
    """Stop at once (Ctrl-C, or a player's error): end our own pool's workers in the middle of
    their chunks rather than wait for them (a chunk of hard deals on a busy machine takes a
    while), or cancel the chunks that wait on another executor. *others* are the processes
    that ran before the pool."""
    if pool is None:
        for future in futures:
            future.cancel()
        return
    # The pool's own futures are left to the pool: it fails them all once its workers are gone
    # (a future cancelled under it would make its thread fail on Python 3.11).
    workers = [process for process in multiprocessing.active_children() if process not in others]
    for process in workers:
        process.terminate()
    for process in workers:
        process.join()
    # Its thread winds down at once; wait for it, or it may still be closing its pipe when the
    # interpreter exits (an "Exception ignored" at exit).
    pool.shutdown(cancel_futures=True)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def simulate(deals: int, seats: Sequence[str | PlayerFactory], seed: int = 0, jobs: int = 1,
             progress: Callable[[int], None] | None = None, *,
             executor: concurrent.futures.Executor | None = None,
             chunk: int | None = None, rules: Rules = KOWAH_RULES) -> SimulationResult:
    """Play *deals* deals between the players of *seats* and count the results.

    A seat is a built-in player's name (:data:`~kowah.players.PLAYERS`) or a
    :data:`PlayerFactory`, such as your own player class whose constructor takes a
    :class:`random.Random`. Deal *i* starts at seat ``i % 3`` and is shuffled from a seed
    derived from ``(seed, i)``, with the players seeded from it too, so the result is the
    same however the deals are shared out:

    * ``jobs=1`` and no *executor*: one after the other, in this process;
    * ``jobs=J``: on a pool of *J* worker processes;
    * *executor*: on any :class:`concurrent.futures.Executor` (a thread pool, a process
      pool, or a Dask cluster's ``distributed.Client(address).get_executor()``); *jobs*
      is then ignored.

    Deals go out in chunks of *chunk* deals (by default about eight chunks per worker, at
    most 50 deals each). With workers, a custom player must be importable (e.g. a class at
    module level). *progress*, if given, is called with the number of deals done. Every deal
    is played under *rules* (the Kowah deck and R17's 30 turns unless you pass others, such
    as :data:`~kowah.engine.MONEY_RULES`).

    >>> simulate(3, ["random", "random", "hard"], seed=2).as_dict()["deals"]
    3
    >>> from kowah.players import RandomPlayer
    >>> simulate(3, [RandomPlayer, "normal", "easy"], seed=2).seats
    ('random', 'normal', 'easy')
    >>> from kowah.engine import MONEY_RULES
    >>> simulate(3, ["hard", "hard", "hard"], rules=MONEY_RULES.replace(no_progress_turns=10)).deals
    3
    """
    try:
        entries = tuple(seat.strip().lower() if isinstance(seat, str) else seat for seat in seats)
    except TypeError:
        raise KowahTypeError(N_("error", "the seats must be a sequence of three players, not {value!r}"),
                             value=seats) from None
    if not isinstance(rules, Rules):
        raise KowahTypeError(N_("error", "rules must be a Rules value, not {value} of type {type}"),
                             value=shorten(rules), type=type(rules).__name__)
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise KowahTypeError(N_("error", "the executor must be a concurrent.futures.Executor, not {value!r}"),
                             value=executor)
    if len(entries) != SEATS:
        raise KowahError(N_("error", "a deal needs {seats} players, not {count}"), seats=SEATS,
                         count=len(entries))
    for entry in entries:
        if entry not in PLAYERS if isinstance(entry, str) else not callable(entry):
            raise UnknownPlayerError.naming(entry)
    names = tuple(_seat_name(entry) for entry in entries)
    if not _whole(seed):  # any int, negative too: each seed its own deals
        raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                             name="seed", expected="int", value=shorten(seed), type=type(seed).__name__)
    if not _whole(deals):
        raise KowahTypeError(N_("error", "the number of deals must be a whole number, not {value!r}"),
                             value=deals)
    if deals < 0:
        raise KowahError(N_("error", "the number of deals must not be negative, not {value}"),
                         value=deals)
    if not _whole(jobs) or jobs < 1:
        raise (KowahError if _whole(jobs) else KowahTypeError)(
            N_("error", "the number of jobs must be a whole number of at least 1, not {value!r}"), value=jobs)
    workers = jobs if executor is None else int(getattr(executor, "_max_workers", 0) or 8)
    size = chunk if chunk is not None else max(1, min(50, deals // (workers * 8)))
    if not _whole(size) or size < 1:
        raise (KowahError if _whole(size) else KowahTypeError)(
            N_("error", "the chunk size must be a whole number of at least 1, not {value!r}"), value=size)
    chunks = [(entries, seed, start, min(deals, start + size), rules) for start in range(0, deals, size)]
    results: Iterator[_Totals]
    futures: list[concurrent.futures.Future[_Totals]] = []
    pool: concurrent.futures.ProcessPoolExecutor | None = None
    others: list[multiprocessing.process.BaseProcess] = []
    if executor is None and (jobs <= 1 or deals < 2):
        results = map(_play_chunk, chunks)
    else:
        if executor is None:
            try:
                pickle.dumps(entries)
            except (pickle.PicklingError, AttributeError, TypeError):
                raise KowahError(N_("error", "a player for jobs > 1 must be importable (a class or "
                                             "function at module level)")) from None
            others = multiprocessing.active_children()
            executor = pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=_ignore_interrupts)
        try:
            for job in chunks:
                futures.append(executor.submit(_play_chunk, job))
        except BaseException:  # Ctrl-C while the chunks are sent: the pool must not outlive us
            _cancel(futures, pool, others)
            raise
        results = _in_order(futures)
    wins, by, drawn, done = [0, 0, 0], [0, 0, 0], 0, 0
    try:
        for (chunk_wins, chunk_drawn, chunk_by), (_, _, start, stop, _) in zip(results, chunks, strict=True):
            for seat in range(SEATS):
                wins[seat] += chunk_wins[seat]
                by[seat] += chunk_by[seat]
            drawn += chunk_drawn
            done += stop - start
            if progress is not None:
                progress(done)
    except BaseException:
        _cancel(futures, pool, others)
        raise
    if pool is not None:
        pool.shutdown()
    return SimulationResult(deals, names, tuple(wins), drawn, dict(zip(_BY, by, strict=True)))
