"""Where the browser table keeps its games: one interface, a SQL database behind it.

:class:`Store` is the interface the application uses; :class:`~kowah.web.store_sql.SQLStore`
implements it over a database connection, with two dialects:
:class:`~kowah.web.store_sqlite.SQLiteStore` (the standard library's ``sqlite3``, the embedded
default, in WAL mode) and
:class:`~kowah.web.store_postgres.PostgresStore` (psycopg 3, the ``postgres`` extra), chosen by
:func:`open_store` from a URL. Both keep the same tables and pass the same test suite.

A change is made on the game as it is (from this process's cache of games in play, without
reading its row first), then written and committed — before the caller answers. Changes
that arrive together are written in one transaction (:meth:`Store.update_many`). The changes
are made before the write lock is taken (across processes: SQLite's write lock, waited for in
a file lock; ``SELECT … FOR UPDATE`` in PostgreSQL), so that the processes on one database
make theirs at the same time. Each row is written only where it is still at the stamp its
change was made at: a game that another process wrote meanwhile is read again under the lock
and its changes made again on it (a change refused on a cached copy is checked too, and made
again when the row has changed), so the changes that count always follow one another. A change
that cannot be written raises :class:`NotSavedError` and leaves the game as it was (the cached
copy is dropped). A change raising :class:`Refused` leaves the game untouched.

The store is bounded: at most *max_games* games are in play (waiting or playing), shared
fairly between client addresses whatever their number. When every place is taken, a new game
makes room by closing a game of an address that holds at least two more games than the new
game's address does (or of the new game's own address, when no address holds more): a table
still waiting for its people first, else a game of the address holding the most, the one
touched longest ago. Otherwise :class:`StoreFullError` is raised (the server answers 503): the
places are then spread evenly. Finished and closed games do not count; :meth:`Store.tidy`
deletes them after a while.

A row that cannot be read (damaged JSON, a stamp that is not a number, keys that are not
unique) fails only its own game, with :class:`UnreadableGameError`: the other games of a
batch are saved, and :meth:`Store.set_aside_broken` takes it out of play.

>>> from kowah.web.game import Game
>>> store = open_store(None)  # a temporary SQLite database
>>> game = store.add(Game.new(seed=1, opponents="random"))
>>> store.get(game.id).state(seat=0) == game.state(seat=0)
True
>>> store.close()
"""

from __future__ import annotations

import abc
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kowah.errors import N_, KowahError
from kowah.web.game import ID_PATTERN, Game, Status
from kowah.web.saved import GameError, restore

if TYPE_CHECKING:
    from kowah.web.store_sql import SQLStore

__all__ = ["ANY_GAME", "ENDED_CACHE", "ID_PATTERN", "NotSavedError", "Refused", "Store",
           "StoreError", "StoreFullError", "UnreadableGameError", "default_data_dir", "import_files",
           "open_store"]

log = logging.getLogger("kowah.web")
T = TypeVar("T")
#: What a change of :meth:`Store.update_many` came to: its result, or the error it raised.
Outcome = tuple[Any, BaseException | None]

#: Statuses of the games that hold a place.
IN_PLAY = (Status.WAITING.value, Status.PLAYING.value)
#: How many of the games that ended lately a process keeps at hand.
ENDED_CACHE = 64
#: Presence rows not refreshed for this long (seconds) are a dead process's.
PRESENCE_TTL = 90.0
#: What :meth:`Store.watch`'s callback is given when any game may have changed (the store
#: lost its database for a while and does not know which).
ANY_GAME = ""
#: The file name of the embedded database in the data folder.
SQLITE_NAME = "kowah.sqlite3"


class StoreError(KowahError):
    """The store cannot do what was asked (its database is unusable, a row damaged …): the base
    of the store's errors, a :class:`~kowah.errors.KowahError` like every error of the library.
    *reason* says why, in English (for the log).

    >>> import pickle
    >>> error = pickle.loads(pickle.dumps(NotSavedError("disk full")))
    >>> type(error).__name__, error.reason, isinstance(error, KowahError)
    ('NotSavedError', 'disk full', True)
    """

    def __init__(self, reason: str) -> None:
        super().__init__(N_("error", "the games cannot be kept: {reason}"), reason=reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason,))


class NotSavedError(StoreError):
    """A change could not be written (a full or read-only disk, the database gone); the game
    is as it was before it."""


class UnreadableGameError(StoreError):
    """One game's row cannot be read (damaged): that game alone fails; the others go on."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} cannot be read")
        self.game_id = game_id

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.game_id,))


class StoreFullError(StoreError):
    """The store has no place for a new game: every place is taken by a game still in play
    (the server answers 503); ``params["count"]`` is the number of places."""

    def __init__(self, template: str, **params: object) -> None:
        KowahError.__init__(self, template, **params)
        self.reason = KowahError.__str__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return KowahError.__reduce__(self)


class Refused(Exception):
    """Raised by a change to refuse it: the store rolls back, the game is untouched."""


def default_data_dir() -> Path:
    """The per-user folder for saved games (``$XDG_DATA_HOME/kowah/games`` and the like)."""
    import sys

    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "kowah" / "games"


class Store(abc.ABC):
    """The games of a server (see the module's description). Thread-safe."""

    max_games: int

    @abc.abstractmethod
    def get(self, game_id: str) -> Game | None:
        """The game with this id (a copy shared by this process: hold its lock to read it),
        or ``None``."""

    @abc.abstractmethod
    def add(self, game: Game) -> Game:
        """Keep a new *game*; make room first (see the module's description)."""

    def read(self, game_id: str, read: Callable[[Game], T]) -> T | None:
        """*read*'s result on the game as last saved, holding its lock (never a copy that a
        change is making and might not save); ``None`` when there is no such game."""
        for _ in range(100):
            game = self.get(game_id)
            if game is None:
                return None
            with game.lock:
                if not game.discarded:
                    return read(game)
        raise StoreError(f"game {game_id} keeps being changed")  # pragma: no cover

    def update(self, game_id: str, change: Callable[[Game], T]) -> T | None:
        """Apply *change* to the game and save it in one transaction; its result, or ``None``
        when there is no such game."""
        result, error = self.update_many([(game_id, change)])[0]
        if error is not None:
            raise error
        return result  # type: ignore[no-any-return]

    @abc.abstractmethod
    def update_many(self, changes: Sequence[tuple[str, Callable[[Game], Any]]]) -> list[Outcome]:
        """Apply several changes, in order, each as :meth:`update` does, and save them in one
        transaction (a group commit): for each, ``(result, None)`` or ``(None, error)``. A
        change that fails (:class:`Refused` or another error) leaves its game as it was and
        the others go on; when the transaction cannot be written, every change made fails with
        :class:`NotSavedError`. A change may be made twice, the second time on a fresh copy
        of the game that another process changed meanwhile (see the module's description):
        a change touches nothing but its game."""

    @abc.abstractmethod
    def peek(self, game_id: str) -> tuple[int, str, float | None] | None:
        """The game's version, status and deadline, read cheaply; ``None`` for no such game."""

    @abc.abstractmethod
    def due(self, now: float) -> list[str]:
        """The games in play whose turn clock ran out by *now*."""

    @abc.abstractmethod
    def idle(self, before: float) -> list[str]:
        """The games in play untouched since *before*."""

    @abc.abstractmethod
    def waiting(self, before: float) -> list[str]:
        """The tables still waiting for their people (the deal not started), untouched since
        *before*."""

    @abc.abstractmethod
    def set_aside_broken(self) -> int:
        """Take the games found unreadable out of play (their places freed); how many."""

    @abc.abstractmethod
    def allow_new(self, owner: str, now: float, per_minute: int) -> int:
        """0 when the client address *owner* may make a new game at *now* (seconds since
        1970), and it is counted; else the seconds to wait. Counted in the database, so the
        limit holds across every process on it."""

    @abc.abstractmethod
    def tidy(self, before: float) -> None:
        """Delete the finished and closed games untouched since *before*, and old change notes."""

    @abc.abstractmethod
    def playing(self) -> int:
        """The number of games in play."""

    @abc.abstractmethod
    def set_presence(self, game_id: str, worker: str, seat: int, sockets: int) -> None:
        """Note that this process (*worker*) holds *sockets* open sockets of *seat*."""

    @abc.abstractmethod
    def presence(self, game_id: str) -> list[int]:
        """Open sockets per seat, over every live process."""

    @abc.abstractmethod
    def heartbeat(self, worker: str, *, gone: bool = False) -> None:
        """Keep this process's presence rows alive (or, *gone*, delete them)."""

    @abc.abstractmethod
    def watch(self, callback: Callable[[str], None], wanted: Callable[[], bool] | None = None) -> None:
        """Call *callback* with a game's id (from another thread) whenever it changes, through
        this process or another one on the same database; at most once a second late. With
        :data:`ANY_GAME` when any game may have changed. *wanted*, when given, says whether the
        callback wants news now (the server: whether it has sockets open); while no callback
        does, the store may look for the other processes' changes less often, never later than
        that second."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop watching and close the database."""

    def __len__(self) -> int:
        return self.playing()


def import_files(store: SQLStore, directory: Path) -> tuple[int, list[tuple[str, str]]]:
    """Bring the games of the first edition's data folder (one ``<id>.json`` file each) into
    *store*, once: the number imported, and the files skipped with the reason. The files are
    left where they are."""
    if store.meta("imported-files") is not None:
        return 0, []
    imported, skipped = 0, []
    for path in sorted(directory.glob("*.json")):
        try:
            if path.stat().st_size > 2_000_000:
                raise GameError("larger than 2 MB")
            game = restore(json.loads(path.read_text(encoding="utf-8")))
            if game.id != path.stem:
                raise GameError(f"the file holds game {game.id}")
        except (OSError, ValueError, RecursionError, GameError) as error:
            skipped.append((path.stem[:64], str(error)[:200]))
            log.warning("kowah: %s is not imported: %s", path.name[:80], str(error)[:200])
            continue
        imported += store.insert_restored(game)
    store.set_meta("imported-files", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    return imported, skipped


def open_store(url: str | os.PathLike[str] | None, *, max_games: int = 1000,
               data: Path | None = None) -> SQLStore:
    """The store a URL names: ``sqlite:///PATH`` (the URL's path; ``?synchronous=full`` forces
    each commit to the disk), ``postgresql://…``, a
    folder (its ``kowah.sqlite3``), or ``None`` for a temporary database removed at
    :meth:`~Store.close`. With *data* (a first edition's folder), its files are imported once.
    """
    from kowah.web.store_sqlite import SQLiteStore

    text = None if url is None else os.fspath(url)
    if text is not None and text.startswith(("postgresql://", "postgres://")):
        from kowah.web.store_postgres import PostgresStore

        store: SQLStore = PostgresStore(text, max_games=max_games)
    elif text is not None and text.startswith("sqlite:"):
        from urllib.parse import parse_qs, unquote, urlsplit

        parts = urlsplit(text)
        path = unquote(parts.path)
        synchronous = parse_qs(parts.query).get("synchronous", ["normal"])[-1].lower()
        if not path or synchronous not in ("normal", "full"):
            raise StoreError(f"not a SQLite URL: {text[:80]!r} (sqlite:///PATH[?synchronous=full])")
        store = SQLiteStore(Path(path), max_games=max_games, synchronous=synchronous)
    elif text is None:
        store = SQLiteStore(None, max_games=max_games)
    elif "://" in text:
        raise StoreError(f"not a database URL: {text[:80]!r} (sqlite:///PATH or postgresql://…)")
    else:
        folder = Path(text)
        folder.mkdir(parents=True, exist_ok=True)
        store = SQLiteStore(folder / SQLITE_NAME, max_games=max_games)
        data = data or folder
    if data is not None and data.is_dir():
        import_files(store, data)
    return store
