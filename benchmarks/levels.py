"""The built-in levels on the deals the learning examples are measured on, for comparison.

    python benchmarks/levels.py            # print the figures (about 20,000 deals, a few minutes)
    python benchmarks/levels.py --write    # and save them in benchmarks/results/levels.json

``docs/examples/reinforce.py`` measures its agent on the 1,500 deals of seed 1 and
``docs/examples/maskable_ppo.py`` on the 2,000 deals of seed 1, one seat against two ``easy``
and against two ``normal`` players. This script plays each built-in level in that seat on the
same deals (``simulate`` gives the same deals for the same seed), so that the reinforcement
learning page can say how strong a learnt agent is. ``--write`` also saves each row's wins in
its first ``CHECK_DEALS`` deals, which ``tests/test_docs_figures.py`` plays again.
"""

from __future__ import annotations

import argparse
from typing import Any

from kowah.simulation import simulate

SEED = 1
DEALS = (1500, 2000)
LEVELS = ("easy", "normal", "hard")
OPPONENTS = ("easy", "normal")
CHECK_DEALS = 40


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/levels.json")
    args = parser.parse_args()
    figures: dict[str, str] = {}
    check: dict[str, Any] = {"deals": CHECK_DEALS, "seed": SEED, "rows": []}
    for deals in DEALS:
        for level in LEVELS:
            for opponent in OPPONENTS:
                seats = [level, opponent, opponent]
                result = simulate(deals, seats, seed=SEED)
                low, high = result.win_rate_interval(0)
                key = f"{deals}.{level}-vs-{opponent}"
                figures[f"{key}.share"] = f"{result.wins[0] / deals:.1%}"
                figures[f"{key}.interval"] = f"{low:.1%}–{high:.1%}"
                print(f"{deals:>5} deals, seed {SEED}: {level:>6} vs two {opponent:<6} "
                      f"{figures[key + '.share']:>6} (95% {figures[key + '.interval']})", flush=True)
                if deals == DEALS[0]:
                    check["rows"].append({"seats": seats, "wins": simulate(
                        CHECK_DEALS, seats, seed=SEED).wins[0]})
    if args.write:
        from results import write  # benchmarks/results.py, beside this script

        write("levels", figures, check)


if __name__ == "__main__":
    main()
