"""The names of the AI levels, weakest first: their one home (:data:`kowah.players.PLAYERS`).

Private to the package; its names are public within it. It imports nothing, so that the
command line can offer the levels without loading a player (about 35 ms).
"""

from __future__ import annotations

__all__ = ["NAMES"]

NAMES: tuple[str, ...] = ("random", "easy", "normal", "hard")
