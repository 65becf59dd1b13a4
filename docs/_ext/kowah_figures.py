"""Measured figures in the pages, taken from the benchmarks' results files at build time.

A page writes ``:measured:`players/hard.share``` where a measured number goes: the role reads
``benchmarks/results/players.json`` (written by ``python benchmarks/players.py --write``, see
``benchmarks/results.py``) and puts its figure ``hard.share`` into the text, so a page never
states a measured figure by hand. A missing file or key is an error of the build (``sphinx
-W``). ``:measured-source:`players``` writes the command, date and machine load of a file, for
the sentence that says where the figures come from. The build runs no benchmark: it only reads
the committed files, so it stays offline and fast.

>>> figure("players", "deals") == load("players")["figures"]["deals"]
True
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from sphinx.application import Sphinx

__all__ = ["RESULTS", "FigureError", "figure", "load", "setup", "source"]

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
_NAME = re.compile(r"[a-z][a-z0-9-]*")


class FigureError(LookupError):
    """A page asked for a results file or a figure that does not exist."""


@functools.cache
def load(name: str) -> dict[str, Any]:
    """The results file ``benchmarks/results/NAME.json``, read once.

    >>> load("players")["format"]
    'kowah-figures/1'
    """
    if not _NAME.fullmatch(name):
        raise FigureError(f"results file name {name!r}: lower-case letters, digits and '-' only")
    path = RESULTS / f"{name}.json"
    if not path.is_file():
        raise FigureError(f"no results file {path.name} in benchmarks/results")
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if record.get("format") != "kowah-figures/1" or not isinstance(record.get("figures"), dict):
        raise FigureError(f"{path.name} is not a kowah-figures/1 results file")
    return record


def figure(name: str, key: str) -> str:
    """The text of figure *key* in results file *name*.

    >>> figure("players", "no-such-figure")
    Traceback (most recent call last):
    ...
    kowah_figures.FigureError: players.json has no figure 'no-such-figure'
    """
    figures = load(name)["figures"]
    if key not in figures:
        raise FigureError(f"{name}.json has no figure {key!r}")
    return str(figures[key])


def source(name: str) -> str:
    """Where the figures of results file *name* come from: its command, date and machine.

    >>> source("players").startswith("python benchmarks/players.py")
    True
    """
    record = load(name)
    by_hand = "; copied by hand from its output" if "recorded" in record else ""
    return f"{record['command']} ({record['date']}; {record['machine']}{by_hand})"


def _depends(inliner: Inliner, name: str) -> None:
    """Rebuild the page when the results file changes."""
    env = getattr(inliner.document.settings, "env", None)
    if env is not None:
        env.note_dependency(str(RESULTS / f"{name}.json"))


def _measured(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
              options: dict[str, Any] | None = None,
              content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    file, _, key = text.partition("/")
    try:
        value = figure(file, key)
    except FigureError as error:
        message = inliner.reporter.error(f":measured:`{text}`: {error}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    _depends(inliner, file)
    return [nodes.inline(rawtext, value, classes=["measured"])], []


def _measured_source(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                     options: dict[str, Any] | None = None,
                     content: list[str] | None = None
                     ) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    try:
        value = source(text)
    except FigureError as error:
        message = inliner.reporter.error(f":measured-source:`{text}`: {error}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    _depends(inliner, text)
    return [nodes.literal(rawtext, value)], []


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``measured`` and ``measured-source`` roles."""
    app.add_role("measured", _measured)
    app.add_role("measured-source", _measured_source)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
