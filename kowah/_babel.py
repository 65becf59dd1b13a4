"""Babel, imported once and under a lock, the first time the text layer needs it.

The library imports Babel lazily, so that the rules and a bare ``kowah check`` never pay for it.
Several threads making their first calls into the text layer at once would then import Babel's
modules at the same moment, and CPython 3.11's import machinery is not safe for that: while one
thread finishes importing ``babel`` (which briefly takes the module out of ``sys.modules`` to
move it to the end), another importing ``babel.numbers`` can look for its parent and fail with
``KeyError: 'babel'`` (seen here: one thread in about three hundred fresh processes of four
racing threads). So every lazy import of Babel in the library goes through :func:`load` first:
the first caller imports every Babel module the library uses, the others wait for it, and later
``from babel… import …`` statements only read ``sys.modules``.

>>> load()
>>> import sys
>>> all(name in sys.modules for name in MODULES)
True
"""

from __future__ import annotations

import importlib
import threading

__all__ = ["MODULES", "load"]

#: Every Babel module the library imports (and what they import that is not yet loaded).
MODULES = ("decimal", "babel", "babel.core", "babel.lists", "babel.numbers", "babel.support")

_LOCK = threading.Lock()
_loaded = False


def load() -> None:
    """Import :data:`MODULES`, once, in whichever thread comes first; the others wait."""
    global _loaded
    if _loaded:
        return
    with _LOCK:
        if not _loaded:
            for name in MODULES:
                importlib.import_module(name)
            _loaded = True
