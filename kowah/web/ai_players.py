"""The AI players a browser table offers: the built-in levels and the players of one's own
that ``kowah serve --player`` adds (:func:`kowah.plugins.load_player`).

The list is set once, as the server starts (:func:`offer`), before any request is served, and
only read afterwards; a table stores the name it was given and makes its player from it for
each move (:func:`make`), seeded from the game.

>>> import random
>>> from kowah.i18n import translator
>>> offer(["kowah.players:RandomPlayer"])
>>> offered()
('random', 'easy', 'normal', 'hard', 'kowah.players:RandomPlayer')
>>> make("kowah.players:RandomPlayer", random.Random(1)).name, label(translator("cs"), "hard")
('random', 'silná')
>>> offer([])
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from kowah.errors import printable
from kowah.players import PLAYERS, Player, make_player
from kowah.plugins import OwnPlayer, load_player

if TYPE_CHECKING:
    from kowah.i18n import Translator

__all__ = ["label", "make", "offer", "offered"]

_OWN: dict[str, OwnPlayer] = {}


def offer(specs: Iterable[str], folder: str | None = None) -> None:
    """Offer the players *specs* name besides the levels (loaded and checked now, their modules
    looked for in *folder* first: a :class:`~kowah.plugins.PlayerLoadError` for one that
    cannot be)."""
    loaded = {spec: load_player(spec, folder=folder) for spec in specs}
    _OWN.clear()
    _OWN.update(loaded)


def offered() -> tuple[str, ...]:
    """The names a table's ``opponents`` may be: the levels, weakest first, then one's own."""
    return (*PLAYERS, *_OWN)


def make(name: str, rng: random.Random) -> Player:
    """The player *name* (one of :func:`offered`), seeded by *rng*."""
    own = _OWN.get(name)
    return make_player(name, rng) if own is None else own(rng)


def label(t: Translator, name: str) -> str:
    """*name* as a person reads it: a level in *t*'s language, one's own player as it is named."""
    return t.level_name(name) if name in PLAYERS else printable(name, 60)
