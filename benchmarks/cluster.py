"""Deals per second of ``simulate`` on a local Dask cluster of 1 and 2 workers, and without Dask.

    python benchmarks/cluster.py                 # 2,000 deals per run (needs kowah[cluster])

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
    args = parser.parse_args()
    distributed: Any = importlib.import_module("distributed")
    simulate(100, SEATS, seed=99)  # warm the shape cache
    start = time.perf_counter()
    local = simulate(args.deals, SEATS, seed=1)
    print(f"no Dask, one process: {args.deals / (time.perf_counter() - start):.0f} deals/s")
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


if __name__ == "__main__":
    main()
