"""play_deal and simulate: they check every choice, and simulate gives one result however it runs."""

from __future__ import annotations

import concurrent.futures
import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kowah import Action, ActionKind, Deal, KowahError, Observation, Reason, parse_cards
from kowah.errors import ActionTypeError, IllegalActionError, KowahTypeError
from kowah.players import HardPlayer, Player, RandomPlayer, UnknownPlayerError
from kowah.simulation import SimulationResult, play_deal, simulate

ROOT = Path(__file__).resolve().parent.parent


# -- play_deal checks each choice --------------------------------------------------------------


class _OtherSeat:
    """Answers with the action of the next seat (the draw), which is not its own to take."""

    name = "other-seat"

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        return Action.draw((observation.seat + 1) % 3)


class _Illegal:
    """Answers with its own seat's take on the opening turn, or a discard it does not hold."""

    name = "illegal"

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        return Action.take(observation.seat)


class _NotAnAction:
    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> object:
        return "draw"


@pytest.mark.parametrize("ask_forced", [True, False])
def test_play_deal_refuses_another_seats_action(ask_forced: bool) -> None:
    deal = Deal.shuffled(5)
    seat = deal.first
    players: list[Player] = [HardPlayer(random.Random(k)) for k in range(3)]
    players[seat] = _OtherSeat()
    message = f"seat {(seat + 1) % 3} cannot draw: it is seat {seat}'s turn"
    with pytest.raises(IllegalActionError, match=message) as caught:
        play_deal(players, deal, ask_forced=ask_forced)
    assert caught.value.reason is Reason.NOT_YOUR_TURN and caught.value.refusal.params == {"turn": seat}
    assert caught.value.action == Action.draw((seat + 1) % 3)
    # The second decision of the deal, by the first seat, also refuses (it discards next).
    deal = Deal.shuffled(5)
    players[seat] = HardPlayer(random.Random(0))
    later = deal.first
    deal.apply(Action.draw(later))
    players[later] = _OtherSeat()
    with pytest.raises(IllegalActionError) as caught:
        play_deal(players, deal, ask_forced=ask_forced)
    assert caught.value.reason is Reason.NOT_YOUR_TURN and caught.value.seat == (later + 1) % 3


class _SpeaksForTheNext(HardPlayer):
    """Plays as hard, but when it may declare it answers with the next seat's draw instead, which
    the deal itself would accept now (R11: the next seat may draw, and so end the window)."""

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        if any(action.kind is ActionKind.DECLARE for action in legal_actions):
            return Action.draw((observation.seat + 1) % 3)
        return super().choose(observation, legal_actions)


def test_play_deal_refuses_another_seats_action_that_the_deal_would_accept() -> None:
    hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c 1m")  # seat 0: ready, and draws a stray 1m
    rest = list(Deal.shuffled(0).deck)
    for card in hand:
        rest.remove(card)
    deal = Deal([*hand[:8], *rest[:16], hand[8], *rest[16:]], 0)
    players: list[Player] = [_SpeaksForTheNext(random.Random(0)), HardPlayer(random.Random(1)),
                             HardPlayer(random.Random(2))]
    with pytest.raises(IllegalActionError) as caught:
        play_deal(players, deal)
    assert deal.is_legal(Action.draw(1))  # the deal would have taken it
    assert caught.value.reason is Reason.NOT_YOUR_TURN and caught.value.action == Action.draw(1)
    assert str(caught.value) == ("the player 'hard' at seat 0 chose an illegal action: seat 1 cannot draw: "
                                 "it is seat 0's turn")
    assert len(deal.history) == 2  # the draw and the discard of 1m; nothing else applied


def test_play_deal_refuses_illegal_actions_and_non_actions() -> None:
    deal = Deal.shuffled(6)
    players: list[Player] = [HardPlayer(random.Random(k)) for k in range(3)]
    players[deal.first] = _Illegal()
    with pytest.raises(IllegalActionError) as caught:
        play_deal(players, deal)
    assert caught.value.reason is Reason.OPENING_DRAW and caught.value.action == Action.take(deal.first)
    assert deal.history == ()  # nothing was applied
    players[deal.first] = _NotAnAction()  # type: ignore[call-overload]
    with pytest.raises(ActionTypeError, match="'draw'"):
        play_deal(players, deal)
    with pytest.raises(KowahError, match="needs 3 players"):
        play_deal(players[:2], deal)


# -- simulate ---------------------------------------------------------------------------------


_SEATS = ["hard", "easy", "normal"]


def test_simulate_is_reproducible_whatever_runs_it() -> None:
    one = simulate(24, _SEATS, seed=3)
    assert sum(one.wins) + one.drawn == 24 and min(one.wins) < max(one.wins)
    assert simulate(24, _SEATS, seed=3) == one
    assert simulate(24, _SEATS, seed=3, jobs=2) == one
    for chunk in (1, 5, 24, 100):
        assert simulate(24, _SEATS, seed=3, chunk=chunk) == one
    with concurrent.futures.ThreadPoolExecutor(3) as threads:
        assert simulate(24, _SEATS, seed=3, executor=threads) == one
        assert simulate(24, _SEATS, seed=3, executor=threads, chunk=7) == one
    with concurrent.futures.ProcessPoolExecutor(2) as processes:
        assert simulate(24, _SEATS, seed=3, executor=processes, chunk=2) == one
    assert simulate(24, _SEATS, seed=4) != one or simulate(24, _SEATS, seed=5) != one


def test_simulate_reports_progress() -> None:
    seen: list[int] = []
    simulate(5, ["random", "hard", "hard"], seed=1, progress=seen.append)
    assert seen == [1, 2, 3, 4, 5]
    seen.clear()
    simulate(6, ["random", "hard", "hard"], seed=1, jobs=2, progress=seen.append)
    assert seen[-1] == 6 and seen == sorted(seen)
    seen.clear()
    simulate(7, ["random", "hard", "hard"], seed=1, chunk=3, progress=seen.append)
    assert seen == [3, 6, 7]


def test_simulate_dict_shape() -> None:
    result = simulate(9, ["hard", "random", "random"], seed=6)
    data = result.as_dict()
    assert data["deals"] == 9
    assert data["seats"] == ["hard", "random", "random"]
    assert isinstance(data["wins"], list) and len(data["wins"]) == 3
    assert all(isinstance(wins, int) for wins in data["wins"])
    assert sum(data["wins"]) + data["drawn"] == 9
    assert set(data["by"]) == {"self-draw", "discard", "draw-claim"}
    assert sum(data["by"].values()) == sum(data["wins"])
    assert data["decided"] == 9 - data["drawn"]
    for low, high in data["win_rate_intervals"]:
        assert 0 <= low <= high <= 1
    json.dumps(data)


def test_wilson_interval() -> None:
    result = SimulationResult(100, ("a", "b", "c"), (50, 30, 20), 0,
                              {"self-draw": 40, "discard": 30, "draw-claim": 30})
    low, high = result.win_rate_interval(0)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    low, high = result.win_rate_interval(2)
    assert low < 0.2 < high
    none = SimulationResult(3, ("a", "b", "c"), (0, 0, 3), 0, {"self-draw": 3})
    assert none.win_rate_interval(0)[0] == 0.0 and none.win_rate_interval(2)[1] == 1.0
    assert none.as_dict()["win_rate_intervals"][1][0] == 0.0


@pytest.mark.parametrize("deals", [2.5, "3", None, True])
def test_simulate_refuses_a_bad_number_of_deals(deals: object) -> None:
    with pytest.raises(KowahTypeError, match="whole number"):
        simulate(deals, _SEATS)  # type: ignore[arg-type]


def test_simulate_refuses_bad_arguments() -> None:
    with pytest.raises(KowahError, match="must not be negative, not -1"):
        simulate(-1, _SEATS)
    with pytest.raises(KowahError, match="jobs must be a whole number of at least 1, not 0"):
        simulate(3, _SEATS, jobs=0)
    with pytest.raises(KowahError, match="chunk size must be a whole number of at least 1, not 0"):
        simulate(3, _SEATS, chunk=0)
    with pytest.raises(KowahError, match="'grandmaster'"):
        simulate(1, ["hard", "grandmaster", "random"])
    with pytest.raises(KowahError, match="needs 3 players"):
        simulate(1, ["hard", "random"])
    with pytest.raises(UnknownPlayerError):
        simulate(3, [42, "hard", "hard"])  # type: ignore[list-item]
    with pytest.raises(KowahTypeError, match="sequence of three players, not None"):
        simulate(3, None)  # type: ignore[arg-type]
    with pytest.raises(KowahTypeError, match=r"concurrent\.futures\.Executor, not 'pool'"):
        simulate(3, _SEATS, executor="pool")  # type: ignore[arg-type]


class _Drawer:
    """A custom player for simulate: always the first legal action (draw, first discard, declare)."""

    name = "drawer"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        return legal_actions[0]


def test_simulate_takes_custom_players_and_stays_reproducible() -> None:
    one = simulate(12, [_Drawer, "hard", "hard"], seed=5)
    two = simulate(12, [_Drawer, "hard", "hard"], seed=5, jobs=2)
    assert one == two and one.seats == ("drawer", "hard", "hard")
    assert sum(one.wins) + one.drawn == 12
    assert simulate(3, [RandomPlayer, "hard", "hard"], seed=1).seats[0] == "random"

    # A factory without a name is named after itself; one that cannot be pickled runs in-process
    # or on threads, not on a process pool.
    def factory(rng: random.Random) -> Player:
        return HardPlayer(rng)

    assert simulate(3, [factory, "hard", "hard"], seed=1).seats[0] == "factory"
    with concurrent.futures.ThreadPoolExecutor(2) as threads:
        assert simulate(3, [factory, "hard", "hard"], seed=1, executor=threads) == simulate(
            3, [factory, "hard", "hard"], seed=1)
    with pytest.raises(KowahError, match="must be importable"):
        simulate(3, [factory, "hard", "hard"], seed=1, jobs=2)


# -- a Dask cluster ---------------------------------------------------------------------------


def _local_cluster(distributed: Any, processes: bool) -> Any:
    """Two one-thread workers and their scheduler, every socket on 127.0.0.1: no dashboard, and
    the scheduler's small HTTP server on a free loopback port (not 8787, which may be taken)."""
    return distributed.LocalCluster(host="127.0.0.1", n_workers=2, threads_per_worker=1, processes=processes,
                                    protocol="tcp://", dashboard_address=None,
                                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})


@pytest.mark.parametrize("processes", [False, True])
def test_simulate_on_a_dask_cluster_equals_a_local_run(processes: bool) -> None:
    distributed: Any = importlib.import_module("distributed")  # the `cluster` extra (dev.py test)

    with _local_cluster(distributed, processes) as cluster, distributed.Client(cluster) as client:
        executor = client.get_executor()
        assert simulate(30, _SEATS, seed=8, executor=executor) == simulate(30, _SEATS, seed=8)
        assert simulate(30, _SEATS, seed=8, executor=executor, chunk=4) == simulate(30, _SEATS, seed=8)


def test_kowah_simulate_scheduler_runs_on_the_cluster() -> None:
    distributed: Any = importlib.import_module("distributed")
    command = [sys.executable, "-m", "kowah", "--lang", "en", "simulate", "--deals", "40", "--seats",
               "hard,normal,easy", "--seed", "2", "--json"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    local = subprocess.run(command, capture_output=True, text=True, check=True, env=env, cwd=ROOT)
    with _local_cluster(distributed, processes=False) as cluster:
        remote = subprocess.run([*command, "--scheduler", cluster.scheduler_address], capture_output=True,
                                text=True, check=True, env=env, cwd=ROOT)
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    assert json.loads(local.stdout)["deals"] == 40


def test_kowah_does_not_import_dask_without_scheduler() -> None:
    code = ("import sys; from kowah.cli import main; "
            "main(['--lang', 'en', 'simulate', '--deals', '3', '--seats', 'hard,hard,hard', '--json']); "
            "sys.stdout.flush(); "
            "assert not any(name == 'dask' or name.startswith(('dask.', 'distributed')) "
            "for name in sys.modules), 'dask imported'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["deals"] == 3


def test_kowah_simulate_scheduler_names_a_bad_address() -> None:
    result = subprocess.run([sys.executable, "-m", "kowah", "--lang", "en", "simulate", "--deals", "3",
                             "--seats", "hard,hard,hard", "--scheduler", "no-port-here"],
                            capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 2
    assert "cannot reach the Dask scheduler at no-port-here" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_result_is_a_value_that_cannot_be_built_invalid() -> None:
    import copy
    import pickle

    result = simulate(6, ["hard", "random", "random"], seed=1)
    assert pickle.loads(pickle.dumps(result)) == result and hash(result) == hash(copy.deepcopy(result))
    with pytest.raises(AttributeError, match="immutable"):
        result.deals = 7  # type: ignore[misc]
    assert result.replace(seats=("a", "b", "c")).seats == ("a", "b", "c")
    bad: list[tuple[int, tuple[str, ...], tuple[int, ...], int]] = [
        (6, ("a", "b", "c"), (1, 1, 1), 2), (6, ("a", "b"), (1, 1, 1), 3),
        (-1, ("a", "b", "c"), (0, 0, 0), 0)]
    for deals, seats, wins, drawn in bad:
        with pytest.raises(KowahError):
            SimulationResult(deals, seats, wins, drawn, {})
    with pytest.raises(KowahTypeError):
        SimulationResult(6, ("a", "b", "c"), (1, 1, 1), 3, [("self-draw", 3)])  # type: ignore[arg-type]


# -- Ctrl-C stops a pool at once -----------------------------------------------------------------

_STUCK = """
import os, time
from kowah.simulation import simulate

class Stuck:
    name = "stuck"

    def __init__(self, rng):
        pass

    def choose(self, observation, legal_actions):
        os.write(1, b"busy %d\\n" % os.getpid())  # a worker plays a deal that does not end
        while True:
            time.sleep(1)

try:
    simulate(40, [Stuck, Stuck, Stuck], jobs=2, chunk=1)
except KeyboardInterrupt:
    print("interrupted")
"""


def test_ctrl_c_stops_a_pool_whose_workers_are_busy() -> None:
    """Ctrl-C does not wait for the deals in flight (a chunk of hard deals under load, or here
    a deal that never ends): the workers are stopped and the exception comes back at once."""
    import signal

    process = subprocess.Popen([sys.executable, "-c", _STUCK], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert process.stdout is not None
        busy = [process.stdout.readline(), process.stdout.readline()]  # both workers are busy
        assert all(line.startswith("busy ") for line in busy), busy
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert (out, err, process.returncode) == ("interrupted\n", "", 0)
    for line in busy:  # the workers are gone, not left running
        status = Path("/proc", line.split()[1], "status")
        assert not status.exists() or "State:\tZ" in status.read_text()


class _TimesOut:
    """A player whose every choice raises TimeoutError (for the test below)."""

    name = "times-out"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        raise TimeoutError("the player's own time ran out")


def test_a_players_timeout_error_comes_back_from_a_pool() -> None:
    """The function ``simulate`` waits for each chunk a little at a time; a TimeoutError the chunk raised is
    its error, not a wait to repeat."""
    with pytest.raises(TimeoutError, match="the player's own time ran out"):
        simulate(4, [_TimesOut, "random", "random"], jobs=2, chunk=1)


def test_the_seed_is_an_int_and_each_one_deals_its_own() -> None:
    """A seed that is no int would be read as its text (None, "1", 1.0 and True all accepted);
    a negative one deals its own deals, not those of its absolute value (issue 19)."""
    for bad in (None, "1", 1.0, True):
        with pytest.raises(KowahTypeError, match="seed must be of type int"):
            simulate(1, _SEATS, seed=bad)  # type: ignore[arg-type]
    assert simulate(30, ["hard"] * 3, seed=-5) != simulate(30, ["hard"] * 3, seed=5)
