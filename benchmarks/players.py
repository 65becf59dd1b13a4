"""Measure the AI levels against the targets of issue 13, and print the figures.

    python benchmarks/players.py                 # the ladder over 6,000 deals a row (~2 minutes)
    python benchmarks/players.py --deals 1000    # quicker, wider intervals
    python benchmarks/players.py --write         # and save the figures for the docs

``--write`` saves the figures the players page shows in ``benchmarks/results/players.json``
(see ``benchmarks/results.py``), with the wins of each row's first ``CHECK_DEALS`` deals, which
``tests/test_docs_figures.py`` recomputes.

Each row is one ``kowah simulate`` run; the script prints the command that gives the same
figures (the same seed gives the same deals and the same result). One seat of the level
plays two ``hard`` players; ``simulate`` rotates the first seat over the deals (deal *i*
starts at seat ``i % 3``), so the tested seat starts a third of the deals. Targets:

* against two ``hard`` (par 33.3%): ``hard`` at par, ``normal`` 26–31%, ``easy`` at most
  24%, ``random`` under 5%, each level's 95% interval clear of its neighbours';
* ``hard`` against two ``normal`` above a third (its interval above 33.3%);
* ``normal`` wins at least 90% of the decided deals against two ``random``;
* every level decides in under 1 ms median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from kowah import Action, ActionKind, Deal, Observation
from kowah.players import PLAYERS, Player, make_player
from kowah.simulation import SimulationResult, play_deal, simulate

SEED = 13
OTHER_SEED = 1
CHECK_DEALS = 60  # deals of each row that the docs' test plays again


class _Timed:
    """A player wrapper that records how long each decision takes."""

    def __init__(self, player: Player, times: list[tuple[ActionKind, float]]) -> None:
        self.player = player
        self.times = times

    @property
    def name(self) -> str:
        return self.player.name

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        start = time.perf_counter()
        action = self.player.choose(observation, legal_actions)
        self.times.append((legal_actions[0].kind, time.perf_counter() - start))
        return action


def decision_times(name: str, deals: int) -> list[tuple[ActionKind, float]]:
    """The kind and seconds of each decision of *name* against two hard players, forced moves
    excluded."""
    times: list[tuple[ActionKind, float]] = []
    for index in range(deals):
        rng = random.Random(index)
        players: list[Player] = [make_player("hard", random.Random(rng.random())) for _ in range(3)]
        players[index % 3] = _Timed(make_player(name, random.Random(index)), times)
        play_deal(players, Deal.shuffled(10_000 + index), ask_forced=False)
    return times


def _row(seats: list[str], deals: int, seed: int = SEED) -> SimulationResult:
    start = time.perf_counter()
    result = simulate(deals, seats, seed=seed)
    elapsed = time.perf_counter() - start
    low, high = result.win_rate_interval(0)
    print(f"  {seats[0]:>6} vs {seats[1]},{seats[2]}: {result.wins[0]:>5}/{deals} = "
          f"{result.wins[0] / deals:6.1%} (95% {low:.1%}–{high:.1%}); decided {result.decided}; "
          f"{deals / elapsed:.0f} deals/s")
    print(f"         kowah simulate --deals {deals} --seats {','.join(seats)} --seed {seed} --jobs 1")
    return result


def figures_of(key: str, result: SimulationResult) -> dict[str, str]:
    """The texts the players page shows for one row: seat 0's share, wins and interval."""
    low, high = result.win_rate_interval(0)
    return {f"{key}.share": f"{result.wins[0] / result.deals:.1%}",
            f"{key}.wins": f"{result.wins[0]:,}",
            f"{key}.interval": f"{low:.1%}–{high:.1%}".replace("%–", "–")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=6000, help="deals per row (default 6,000)")
    parser.add_argument("--decision-deals", type=int, default=200, help="deals timed per level")
    parser.add_argument("--decisions-only", action="store_true", help="only time the decisions")
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/players.json")
    args = parser.parse_args()
    if args.write and args.decisions_only:
        parser.error("--write needs the whole run (not --decisions-only)")
    simulate(100, ["hard"] * 3, seed=99)  # warm the shape cache of kowah._ready_index
    figures: dict[str, str] = {}
    if not args.decisions_only:
        figures |= ladder(args.deals)
    figures |= decisions(args.decision_deals)
    if args.write:
        from results import write  # benchmarks/results.py, beside this script

        write("players", figures, check_rows())


def ladder(deals: int) -> dict[str, str]:
    """The ladder's rows, and the other checks; return their figures."""
    figures = {"deals": f"{deals:,}", "seed": str(SEED), "other-seed": str(OTHER_SEED)}
    print("the ladder: one seat of each level against two hard (par 33.3%)")
    rows = {name: _row([name, "hard", "hard"], deals) for name in reversed(PLAYERS)}
    intervals = {name: result.win_rate_interval(0) for name, result in rows.items()}
    for name, result in rows.items():
        figures |= figures_of(name, result)
    for stronger, weaker in zip(reversed(PLAYERS), list(reversed(PLAYERS))[1:], strict=False):
        clear = intervals[weaker][1] < intervals[stronger][0]
        print(f"  {weaker} below {stronger}, intervals clear: {clear}")
    print("hard against two normal (target: interval above 33.3%)")
    figures |= figures_of("hard-vs-normal", _row(["hard", "normal", "normal"], deals))
    print("normal against two random (target: >= 90% of the decided deals)")
    result = _row(["normal", "random", "random"], deals)
    print(f"  normal won {result.wins[0] / max(1, result.decided):.1%} of the decided deals")
    figures |= {"normal-vs-random.wins": f"{result.wins[0]:,}",
                "normal-vs-random.decided": f"{result.decided:,}",
                "normal-vs-random.share-decided": f"{result.wins[0] / max(1, result.decided):.1%}"}
    print(f"the ladder again with seed {OTHER_SEED}")
    for name in ("hard", "normal", "easy"):
        figures |= figures_of(f"seed-{OTHER_SEED}.{name}",
                              _row([name, "hard", "hard"], deals, seed=OTHER_SEED))
    return figures


def check_rows() -> dict[str, Any]:
    """The wins of seat 0 in the first ``CHECK_DEALS`` deals of each row, for the docs' test."""
    rows = [([name, "hard", "hard"], SEED) for name in reversed(PLAYERS)]
    rows += [(["hard", "normal", "normal"], SEED), (["normal", "random", "random"], SEED)]
    rows += [([name, "hard", "hard"], OTHER_SEED) for name in ("hard", "normal", "easy")]
    return {"deals": CHECK_DEALS,
            "rows": [{"seats": seats, "seed": seed,
                      "wins": simulate(CHECK_DEALS, seats, seed=seed).wins[0]}
                     for seats, seed in rows]}


def decisions(deals: int) -> dict[str, str]:
    """The median time of each level's decisions, and of its discards alone; return the
    slowest level's medians (in whole µs) as figures."""
    medians: list[float] = []
    discard_medians: list[float] = []
    for name in PLAYERS:
        timed = decision_times(name, deals)
        times = [seconds for _, seconds in timed]
        discards = [seconds for kind, seconds in timed if kind is ActionKind.DISCARD]
        print(f"{name} decision: median {statistics.median(times) * 1e3:.3f} ms, "
              f"mean {statistics.mean(times) * 1e3:.3f} ms, p99 "
              f"{sorted(times)[int(len(times) * 0.99)] * 1e3:.2f} ms over {len(times)} decisions; "
              f"discards alone: median {statistics.median(discards) * 1e3:.3f} ms "
              f"(target median < 1 ms)")
        medians.append(statistics.median(times))
        discard_medians.append(statistics.median(discards))
    return {"decision-median": f"{max(medians) * 1e6:.0f} µs",
            "discard-median": f"{max(discard_medians) * 1e6:.0f} µs"}


if __name__ == "__main__":
    main()
