"""AEC steps per second under a random masked policy: kowah.env against PettingZoo's Texas hold'em.

    python3 dev.py bench                       # sets up .venv with the benchmarks' extras, then
    .venv/bin/python benchmarks/env.py         # about a minute
    .venv/bin/python benchmarks/env.py --steps 20000 --rounds 3

Both environments run the same loop, the one PettingZoo's documentation shows: for each agent
of ``agent_iter()``, ``last()`` (which encodes the observation and the mask), then a uniformly
random legal action (or ``None`` once the agent is done), then ``step``; a new deal or hand
on ``reset`` whenever one ends. The environments are the wrapped ones (``env()``, with
PettingZoo's illegal-action, bounds and order wrappers), as a user gets them. The two take
turns in each round and the best round of each counts, so the machine's load touches both
alike; the ratio is of the same run. Each figure is per second of wall-clock time, and in
brackets per second of the process's CPU time, which a busy machine changes less.

Targets (issue 20): at least 20,000 steps/s for ``kowah.env`` here, and at least three times
the baseline, PettingZoo's ``texas_holdem_v4`` (an RLCard game; it needs the ``rl-bench``
extra: ``rlcard`` and ``pygame``). The same loop with ``encoding="one-hot"`` shows what the
one-hot encoding costs, as a share of the compact encoding's rate in the same run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from kowah.env import env as kowah_env

TARGET_STEPS = 20_000
TARGET_RATIO = 3.0


def steps_per_second(make: Callable[[], Any], steps: int, seed: int) -> float:
    """AEC steps per second of *steps* steps of the environment *make* makes, each agent's
    action chosen uniformly among the legal ones (an illegal id is never chosen)."""
    return rates(make, steps, seed)[0]


def rates(make: Callable[[], Any], steps: int, seed: int) -> tuple[float, float]:
    """Steps per second of wall-clock time and per second of this process's CPU time (which a
    busy machine changes less)."""
    environment = make()
    rng = random.Random(seed)
    random_ = rng.random
    environment.reset(seed=seed)
    done = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        for _agent in environment.agent_iter():
            observation, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                action = None
            else:
                legal = observation["action_mask"].nonzero()[0]
                action = int(legal[int(random_() * len(legal))])
            environment.step(action)
            done += 1
            if done >= steps:
                break
        else:
            environment.reset()
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    environment.close()
    return done / elapsed, done / used


def texas_holdem() -> Any:
    """PettingZoo's ``texas_holdem_v4`` environment (an ImportError without ``rl-bench``)."""
    from pettingzoo.classic import texas_holdem_v4

    return texas_holdem_v4.env()


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=50_000, help="steps per round (default 50,000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best of each counts (default 3)")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args(argv)
    cases: dict[str, Callable[[], Any]] = {"kowah_v0": kowah_env, "texas_holdem_v4": texas_holdem,
                                           "kowah_v0_one_hot": partial(kowah_env, encoding="one-hot")}
    wall, cpu = dict.fromkeys(cases, 0.0), dict.fromkeys(cases, 0.0)
    for round_ in range(args.rounds):
        for name, make in cases.items():
            by_wall, by_cpu = rates(make, args.steps, args.seed + round_)
            wall[name], cpu[name] = max(wall[name], by_wall), max(cpu[name], by_cpu)
    kowah, texas = wall["kowah_v0"], wall["texas_holdem_v4"]
    ratio = kowah / texas
    print("AEC steps per second, random masked policy, observation encoding included (best of "
          f"{args.rounds} rounds of {args.steps:,} steps; per second of CPU time in brackets):")
    print(f"  kowah.env (kowah_v0)                  {kowah:>9,.0f} steps/s ({cpu['kowah_v0']:,.0f})  "
          f"target >= {TARGET_STEPS:,}: {'met' if kowah >= TARGET_STEPS else 'NOT met'}")
    print(f"  pettingzoo texas_holdem_v4 (baseline) {texas:>9,.0f} steps/s ({cpu['texas_holdem_v4']:,.0f})")
    one_hot, one_hot_cpu = wall["kowah_v0_one_hot"], cpu["kowah_v0_one_hot"]
    print(f"  kowah.env, encoding='one-hot'         {one_hot:>9,.0f} steps/s ({one_hot_cpu:,.0f})  "
          f"{one_hot / kowah:.2f}x the compact encoding's")
    by_cpu = cpu["kowah_v0"] / cpu["texas_holdem_v4"]
    print(f"  ratio                                 {ratio:>9.2f}x ({by_cpu:.2f}x)  "
          f"target >= {TARGET_RATIO:.0f}x: {'met' if ratio >= TARGET_RATIO else 'NOT met'}")
    return {"kowah_v0": kowah, "texas_holdem_v4": texas, "ratio": ratio,
            "kowah_v0_cpu": cpu["kowah_v0"], "texas_holdem_v4_cpu": cpu["texas_holdem_v4"],
            "kowah_v0_one_hot": one_hot, "kowah_v0_one_hot_cpu": cpu["kowah_v0_one_hot"]}


if __name__ == "__main__":
    main()
