"""Deprecated: this module is now :mod:`kowah.engine` (the :class:`~kowah.engine.Rules` value
and the deal's state machine, :class:`~kowah.engine.State`); the rules' prose is
:mod:`kowah.rulebook`.

Importing ``kowah.rules`` still works for one release and warns (``DeprecationWarning``); its
names are those of :mod:`kowah.engine`, the same objects.
"""

from __future__ import annotations

from kowah._moved import warn_moved
from kowah.engine import (
    KOWAH_RULES,
    MONEY_RULES,
    PACK_NAMES,
    SEATS,
    ReadyHands,
    Rules,
    Scalars,
    State,
    deck_error,
)

__all__ = ["KOWAH_RULES", "MONEY_RULES", "PACK_NAMES", "SEATS", "ReadyHands", "Rules", "Scalars", "State",
           "deck_error"]

warn_moved("kowah.rules", "kowah.engine")
