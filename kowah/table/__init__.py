"""Deprecated: this module is now :mod:`kowah.terminal` (the terminal game).

Importing ``kowah.table`` still works for one release and warns (``DeprecationWarning``); its
names are those of :mod:`kowah.terminal`, the same objects.
"""

from __future__ import annotations

from kowah._moved import warn_moved
from kowah.terminal import (
    COMMANDS,
    EXIT_INTERRUPTED,
    YOUR_REFUSALS,
    check_record_path,
    play_in_terminal,
    render_table,
)

__all__ = ["COMMANDS", "EXIT_INTERRUPTED", "YOUR_REFUSALS", "check_record_path", "play_in_terminal",
           "render_table"]

warn_moved("kowah.table", "kowah.terminal")
