"""Write a benchmark's figures where the documentation reads them: ``benchmarks/results/NAME.json``.

A benchmark run with ``--write`` saves the figures it printed, with the command that gave them,
the date and how loaded the machine was; ``docs/_ext/kowah_figures.py`` puts each figure into
the pages at build time (the ``:measured:`` role), so no page writes a measured number by hand.
A file holds::

    {"format": "kowah-figures/1", "command": "...", "date": "YYYY-MM-DD",
     "machine": "2 cores, load average 3.1 2.9 2.7", "figures": {"key": "32.8%", ...},
     "check": {...}}

``figures`` are the texts the pages show, as the benchmark printed them; ``check`` (optional)
holds a small, fast part of a deterministic measurement that ``tests/test_docs_figures.py``
recomputes with the code as it is now.
"""

from __future__ import annotations

import datetime
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

__all__ = ["RESULTS", "machine", "write"]

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> str:
    """The cores and the load average now, as a results file records them."""
    try:
        load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:  # no load average on this system
        load = "unknown"
    return f"{os.cpu_count()} cores, load average {load}"


def write(name: str, figures: dict[str, str], check: dict[str, Any] | None = None) -> Path:
    """Save *figures* (and *check*) as ``benchmarks/results/NAME.json``; return the path."""
    script = Path(sys.argv[0]).resolve()
    here = Path(__file__).resolve().parent
    shown = f"benchmarks/{script.name}" if script.parent == here else str(sys.argv[0])
    command = " ".join(["python", shown, *(shlex.quote(arg) for arg in sys.argv[1:])])
    record: dict[str, Any] = {
        "format": "kowah-figures/1",
        "command": command,
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "figures": figures,
    }
    if check is not None:
        record["check"] = check
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"figures written to {path}", file=sys.stderr)
    return path
