"""Your own players at the library's tables: ``module:callable`` and installed packages.

``kowah play --opponents``, ``kowah simulate --seats`` and ``kowah serve --player`` take, besides
the built-in levels (:data:`~kowah.players.PLAYERS`), a player of your own, named in one of two
ways:

* ``package.module:attribute`` (the attribute may be dotted, ``module:Class.build``): the
  module is imported as ``python -c "import package.module"`` would import it (the current
  folder first), and the attribute is a *player factory*: a callable that takes a seeded
  :class:`random.Random` and returns a :class:`~kowah.players.Player` (a player class whose
  constructor takes *rng* will do, as for :func:`~kowah.simulation.simulate`);
* a name that an installed package declares in the :data:`ENTRY_POINT_GROUP` entry-point group,
  in its ``pyproject.toml``::

      [project.entry-points."kowah.players"]
      greedy = "my_package.players:Greedy"

:func:`load_player` finds the factory and checks it at once: a module that does not import, a
missing attribute, something that is not callable, or a factory whose player has no ``name``
or ``choose`` raise :class:`PlayerLoadError`, whose message says which. The player it returns
checks every choice too: an action that is not one of the legal actions, or an exception from
the player's own code, raise :class:`PlayerError` naming the player, never a bare traceback.

>>> import random
>>> factory = load_player("kowah.players:RandomPlayer")
>>> player = factory(random.Random(1))
>>> player.name, factory.name
('random', 'kowah.players:RandomPlayer')
>>> load_player("kowah.players:Nobody")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kowah.plugins.PlayerLoadError: cannot load the player 'kowah.players:Nobody': the module ... 'Nobody'
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from kowah.errors import N_, KowahError, printable, shorten
from kowah.players import PLAYERS, Player, make_player

if TYPE_CHECKING:
    from kowah.actions import Action
    from kowah.deal import Observation

__all__ = ["ENTRY_POINT_GROUP", "OwnPlayer", "PlayerError", "PlayerLoadError", "installed_players",
           "load_player", "make_seat", "seat_player"]

#: The entry-point group in which installed packages declare players.
ENTRY_POINT_GROUP: Final = "kowah.players"
_LOAD = N_("error", "cannot load the player {spec!r}: {reason}")


class PlayerLoadError(KowahError):
    """A player named by ``module:callable`` or an entry point could not be loaded;
    ``params["spec"]`` is the name as given."""

    #: Why, as an error of its own (its message is ``params["reason"]``, translated with it).
    cause: KowahError | None = None


class PlayerError(KowahError):
    """A player of your own broke the :class:`~kowah.players.Player` protocol while playing
    (an action that is not legal now, or an exception from its code); ``params["player"]``
    names it. The exception its code raised, if any, is the ``__cause__``."""


def installed_players() -> dict[str, str]:
    """The players installed packages declare (:data:`ENTRY_POINT_GROUP`): name -> its target,
    ``"module:attribute"``."""
    return {point.name: point.value for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _reason(spec: str, template: str, **params: object) -> PlayerLoadError:
    """The PlayerLoadError for *spec*, its reason the message *template* (translated as well)."""
    cause = KowahError(template, **params)
    error = PlayerLoadError(_LOAD, spec=spec, reason=str(cause))
    error.cause = cause
    return error


def _target(spec: str) -> str:
    """``module:attribute`` for *spec*: itself, or the entry point it names."""
    if ":" in spec:
        return spec
    installed = installed_players()
    if spec in installed:
        return installed[spec]
    choices = [*PLAYERS, *sorted(installed)]
    raise PlayerLoadError(N_("error", "unknown player {spec!r} (choose {names}, or name your own as "
                                      "module:callable)"), spec=spec, names=", ".join(choices))


def _resolve(spec: str, folder: str | None) -> Callable[[random.Random], object]:
    target = _target(spec)
    module_name, _, attributes = target.partition(":")
    module_name, attributes = module_name.strip(), attributes.strip()
    if not module_name or not attributes:
        raise _reason(spec, N_("error", "write it as module:callable, such as my_players:Greedy"))
    if folder is not None and folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        found: object = importlib.import_module(module_name)
    except Exception as error:  # any error of the module's own code
        raise _reason(spec, N_("error", "the module {module} cannot be imported ({type}: {message})"),
                      module=module_name, type=type(error).__name__, message=printable(str(error), 120),
                      ) from error
    place = module_name
    for name in attributes.split("."):
        try:
            found = getattr(found, name)
        except AttributeError:
            raise _reason(spec, N_("error", "the module {module} has no attribute {name!r}"),
                          module=place, name=name) from None
        place = f"{place}.{name}"
    if not callable(found):
        raise _reason(spec, N_("error", "{name} is {value} of type {type}, not a callable that makes a "
                                        "player from a random.Random"),
                      name=attributes, value=shorten(found, 60), type=type(found).__name__)
    return found


class OwnPlayer:
    """A player factory loaded from a name (:func:`load_player`): call it with a
    :class:`random.Random` for a player. It pickles as its name, so worker processes
    (``simulate(jobs=2)``) load it again themselves."""

    __slots__ = ("_factory", "_folder", "name")

    def __init__(self, spec: str, folder: str | None = None) -> None:
        #: The name it was loaded from, such as ``"my_players:Greedy"``.
        self.name = spec
        self._folder = folder  # where modules are looked for first, in every process
        self._factory = _resolve(spec, folder)

    def __call__(self, rng: random.Random) -> Player:
        try:
            player = self._factory(rng)
        except Exception as error:  # the factory is the author's code
            raise _reason(self.name, N_("error", "making the player raised {type}: {message}"),
                          type=type(error).__name__, message=printable(str(error), 120)) from error
        if not isinstance(getattr(player, "name", None), str) or not callable(getattr(player, "choose", 0)):
            raise _reason(self.name, N_("error", "it made {value}, which is not a player: a player has a "
                                                 "name (text) and a choose(observation, legal_actions) "
                                                 "method"),
                          value=shorten(player, 60))
        return _Checked(player, self.name)  # type: ignore[arg-type]

    def __reduce__(self) -> tuple[type[OwnPlayer], tuple[str, str | None]]:
        return OwnPlayer, (self.name, self._folder)

    def __repr__(self) -> str:
        return f"load_player({self.name!r})"


class _Checked:
    """A player of one's own, each choice checked: one of the legal actions, or a PlayerError."""

    __slots__ = ("_player", "_spec")

    def __init__(self, player: Player, spec: str) -> None:
        self._player, self._spec = player, spec

    @property
    def name(self) -> str:
        return self._player.name

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        try:
            action = self._player.choose(observation, legal_actions)
        except Exception as error:  # the player's own code (a KowahError too: its call, its fault)
            raise PlayerError(N_("error", "the player {player!r} raised {type}: {message}"),
                              player=self._spec, type=type(error).__name__,
                              message=printable(str(error), 120)) from error
        if action not in legal_actions:
            raise PlayerError(N_("error", "the player {player!r} chose {value}, which is not one of the "
                                          "legal actions ({actions})"),
                              player=self._spec, value=shorten(action, 60),
                              actions=", ".join(str(legal) for legal in legal_actions))
        return action


def load_player(spec: str, *, folder: str | None = None) -> OwnPlayer:
    """The player factory *spec* names (``module:callable`` or an installed player's name),
    checked: it is loaded, and one player is made with ``random.Random(0)`` to see that it
    has a name and a ``choose`` method. Raises :class:`PlayerLoadError` otherwise. Modules
    are looked for in *folder* first, if given (the command line gives the current folder,
    as ``python -m`` looks there)."""
    if not isinstance(spec, str):
        raise PlayerLoadError(N_("error", "a player's name must be text, such as 'hard', not {value} "
                                          "of type {type}"), spec=shorten(spec), value=shorten(spec),
                              type=type(spec).__name__)
    factory = OwnPlayer(spec.strip(), folder)
    factory(random.Random(0))
    return factory


def seat_player(spec: str) -> str | OwnPlayer:
    """What sits at a seat named *spec* on the command line: a built-in level's name (in lower
    case), or the player of your own it names (:func:`load_player`, looking in the current
    folder first).

    >>> seat_player(" Hard "), seat_player("kowah.players:EasyPlayer")
    ('hard', load_player('kowah.players:EasyPlayer'))
    """
    level = spec.strip().lower()
    return level if level in PLAYERS else load_player(spec, folder=os.getcwd())


def make_seat(seat: str | OwnPlayer, rng: random.Random) -> Player:
    """The player for *seat* (as :func:`seat_player` gives it), seeded by *rng*."""
    return make_player(seat, rng) if isinstance(seat, str) else seat(rng)
