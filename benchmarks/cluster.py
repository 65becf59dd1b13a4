"""Deals per second of ``simulate`` on a local Dask cluster of 1 and 2 workers, and without Dask.

    python benchmarks/cluster.py                 # 2,000 deals per run (needs kowah[cluster])
    python benchmarks/cluster.py --write         # and save the figures for the docs

Each worker is a process with one thread, on 127.0.0.1. The figures include Dask's overhead
(sending chunks of deals and their totals back); the results must equal the local run's.
A real cluster is used the same way: ``kowah simulate --scheduler tcp://HOST:8786 ...``.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any

from kowah.simulation import simulate

SEATS = ["hard", "normal", "easy"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/cluster.json")
    args = parser.parse_args()
    distributed: Any = importlib.import_module("distributed")
    simulate(100, SEATS, seed=99)  # warm the shape cache
    start = time.perf_counter()
    local = simulate(args.deals, SEATS, seed=1)
    rate = args.deals / (time.perf_counter() - start)
    print(f"no Dask, one process: {rate:.0f} deals/s")
    figures = {"deals": f"{args.deals:,}", "local": f"{rate:,.0f}",
               "chunk-500-seconds": f"{500 / rate:.1f}"}
    for workers in (1, 2):
        with distributed.LocalCluster(host="127.0.0.1", n_workers=workers, threads_per_worker=1,
                                      processes=True, dashboard_address=None,
                                      scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}) as cluster, \
                distributed.Client(cluster) as client:
            executor = client.get_executor()
            simulate(100 * workers, SEATS, seed=99, executor=executor)  # warm every worker
            start = time.perf_counter()
            result = simulate(args.deals, SEATS, seed=1, executor=executor)
            elapsed = time.perf_counter() - start
        assert result == local, (result, local)
        print(f"Dask, {workers} local worker{'s' if workers > 1 else ''}: {args.deals / elapsed:.0f} deals/s "
              f"(same result as the local run)")
        figures[f"workers-{workers}"] = f"{args.deals / elapsed:,.0f}"
    if args.write:
        from results import write  # benchmarks/results.py, beside this script

        write("cluster", figures)


if __name__ == "__main__":
    main()
