"""Measure the AI players against the targets of issue 4, and print the figures.

    python benchmarks/players.py                 # everything (the hard run takes a while)
    python benchmarks/players.py --hard-deals 300 --jobs 2
    python benchmarks/players.py --skip-hard

Targets: normal wins >= 90% of the decided deals against two random players; hard wins
>= 40% of the deals against two normal players over >= 3,000 deals (a third is par); normal
decides in < 1 ms median, hard in < 200 ms median; normal self-play >= 300 deals/s on one
core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from kowah import Action, Deal, Observation
from kowah.players import Player, make_player, play_deal, simulate


class _Timed:
    """A player wrapper that records how long each decision takes."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.times = times

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        start = time.perf_counter()
        action = self.player.choose(observation, legal_actions)
        self.times.append(time.perf_counter() - start)
        return action


def decision_times(name: str, deals: int) -> list[float]:
    """Seconds per decision of *name* (seat 0) against two normal players, forced moves excluded."""
    times: list[float] = []
    for index in range(deals):
        rng = random.Random(index)
        players: list[Player] = [make_player("normal", random.Random(rng.random())) for _ in range(3)]
        players[index % 3] = _Timed(make_player(name, random.Random(index)), times)
        play_deal(players, Deal.shuffled(10_000 + index), ask_forced=False)
    return times


def _progress(total: int, label: str) -> Callable[[int], None]:
    step = max(1, total // 20)

    def show(done: int) -> None:
        if done % step == 0 or done == total:
            print(f"  {label}: {done}/{total}", flush=True)

    return show


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000, help="deals for the normal runs")
    parser.add_argument("--hard-deals", type=int, default=3000, help="deals for hard vs two normal")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the hard run")
    parser.add_argument("--skip-hard", action="store_true")
    args = parser.parse_args()

    simulate(200, ["normal"] * 3, seed=99)  # warm the shape cache of kowah.hands

    result = simulate(args.deals, ["normal", "random", "random"], seed=1)
    share = result.wins[0] / max(1, result.decided)
    print(f"normal vs 2 random: {result.wins[0]}/{result.decided} decided deals won = {share:.1%} "
          f"(target >= 90%); {result.drawn} drawn of {result.deals}")

    start = time.perf_counter()
    result = simulate(args.deals, ["normal"] * 3, seed=2)
    elapsed = time.perf_counter() - start
    print(f"normal self-play: {args.deals / elapsed:.0f} deals/s on one core (target >= 300); "
          f"wins {list(result.wins)}, drawn {result.drawn}")

    times = decision_times("normal", 300)
    print(f"normal decision: median {statistics.median(times) * 1e3:.3f} ms, "
          f"mean {statistics.mean(times) * 1e3:.3f} ms, p99 "
          f"{sorted(times)[int(len(times) * 0.99)] * 1e3:.2f} ms (target median < 1 ms)")

    if args.skip_hard:
        return
    times = decision_times("hard", 30)
    print(f"hard decision: median {statistics.median(times) * 1e3:.1f} ms, "
          f"mean {statistics.mean(times) * 1e3:.1f} ms, max {max(times) * 1e3:.0f} ms "
          f"(target median < 200 ms)")

    deals = args.hard_deals
    start = time.perf_counter()
    # The hard seat rotates with the first seat: simulate seats it at 0 and rotates who starts.
    result = simulate(deals, ["hard", "normal", "normal"], seed=3, jobs=args.jobs,
                      progress=_progress(deals, "hard vs 2 normal"))
    elapsed = time.perf_counter() - start
    low, high = result.win_rate_interval(0)
    print(f"hard vs 2 normal: {result.wins[0]}/{deals} = {result.wins[0] / deals:.1%} of deals "
          f"(95% CI {low:.1%}-{high:.1%}; target >= 40%, par 33.3%); normal seats "
          f"{list(result.wins[1:])}, drawn {result.drawn}; {elapsed:.0f} s with {args.jobs} jobs")


if __name__ == "__main__":
    main()
