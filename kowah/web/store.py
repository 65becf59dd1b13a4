"""Where the browser table keeps its games: one interface, a SQL database behind it.

:class:`Store` is the interface the application uses; :class:`SQLStore` implements it over a
database connection, with two dialects: :class:`~kowah.web.store_sqlite.SQLiteStore` (the
standard library's ``sqlite3``, the embedded default, in WAL mode) and
:class:`~kowah.web.store_postgres.PostgresStore` (psycopg 3, the ``postgres`` extra), chosen by
:func:`open_store` from a URL. Both keep the same tables and pass the same test suite.

A change is made on the game as it is (from this process's cache of games in play when its
row has not changed since), then written and committed — before the caller answers. Changes
that arrive together are written in one transaction (:meth:`Store.update_many`). The changes
are made before the write lock is taken (across processes: ``BEGIN IMMEDIATE`` in SQLite,
``SELECT … FOR UPDATE`` in PostgreSQL), so that the processes on one database make theirs at
the same time; under the lock, a game that another process wrote meanwhile is read again and
its changes made again on it, so the changes that count always follow one another. A change
that cannot be written raises :class:`NotSavedError` and leaves the game as it was (the cached
copy is dropped). A change raising :class:`Refused` leaves the game untouched.

The store is bounded: at most *max_games* games are in play (waiting or playing). A new game
first makes room by closing a game of the client address that holds the most games in play,
when it holds more than a tenth of the places (its game touched longest ago); otherwise
:class:`StoreFullError` is raised (the server answers 503). Finished and closed
games do not count; :meth:`Store.tidy` deletes them after a while.

>>> from kowah.web.game import Game
>>> store = open_store(None)  # a temporary SQLite database
>>> game = store.add(Game.new(seed=1, opponents="random"))
>>> store.get(game.id).state(seat=0) == game.state(seat=0)
True
>>> store.close()
"""

from __future__ import annotations

import abc
import collections
import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from kowah.errors import N_, KowahError
from kowah.web.game import ID_PATTERN, Game, Status
from kowah.web.saved import GameError, restore

__all__ = ["ANY_GAME", "ENDED_CACHE", "ID_PATTERN", "NotSavedError", "Refused", "SQLStore", "Store",
           "StoreError", "StoreFullError", "default_data_dir", "import_files", "open_store"]

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


class StoreError(Exception):
    """The store cannot do what was asked (its database is unusable)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason,))


class NotSavedError(StoreError):
    """A change could not be written (a full or read-only disk, the database gone); the game
    is as it was before it."""


class StoreFullError(KowahError):
    """The store has no place for a new game: every place is taken by a game still in play
    (the server answers 503)."""


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
    def watch(self, callback: Callable[[str], None]) -> None:
        """Call *callback* with a game's id (from another thread) whenever it changes, through
        this process or another one on the same database; at most once a second late. With
        :data:`ANY_GAME` when any game may have changed."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop watching and close the database."""

    def __len__(self) -> int:
        return self.playing()


class _Batch:
    """What :meth:`SQLStore.update_many` has changed so far."""

    def __init__(self) -> None:
        #: The games read or changed.
        self.games: dict[str, Game] = {}
        #: The rows to write, by game.
        self.rows: dict[str, tuple[object, ...]] = {}
        #: The changes that were made, by their place in the batch.
        self.indices: list[int] = []
        #: How many changes were looked at.
        self.done = 0

    def forget(self, game_ids: set[str], indices: list[int]) -> None:
        """Forget what was made of these games, by the changes at *indices*."""
        for game_id in game_ids:
            self.games.pop(game_id, None)
            self.rows.pop(game_id, None)
        self.indices = [index for index in self.indices if index not in indices]


class SQLStore(Store):
    """The :class:`Store` over a SQL database; the dialects fill in the connection, the
    locks and the change notes."""

    #: Errors of the database driver that mean "not written".
    db_errors: tuple[type[BaseException], ...] = (OSError,)

    def __init__(self, *, max_games: int = 1000, cache: int = 2000) -> None:
        self.max_games = max_games
        self._cache: collections.OrderedDict[str, tuple[int, Game]] = collections.OrderedDict()
        self._cache_size = cache
        # The games that ended lately, in a small cache of their own: their last reads (the
        # record, a closing) are cheap, and they do not fill the process with objects that the
        # garbage collector's full passes look at.
        self._ended: collections.OrderedDict[str, tuple[int, Game]] = collections.OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._callbacks: list[Callable[[str], None]] = []
        self._broken: set[str] = set()
        # The database calls under way, so that close() waits for them: a connection closed
        # while another thread uses it crashes the process.
        self._calls = threading.Condition()
        self._active = 0
        self._closed = False

    # -- the dialect ----------------------------------------------------------------------------

    @abc.abstractmethod
    def _cursor(self) -> Any:
        """A cursor of this thread's connection."""

    @abc.abstractmethod
    @contextmanager
    def _transaction(self, game_id: str | None) -> Iterator[Any]:
        """A write transaction (locking *game_id*'s row, or the table for ``None``); commits
        at the end, rolls back on an exception."""

    @abc.abstractmethod
    def _note(self, cursor: Any, game_id: str) -> None:
        """Tell the other processes, at commit, that the game changed."""

    def _notes(self, cursor: Any, game_ids: Sequence[str]) -> None:
        """:meth:`_note` for several games."""
        for game_id in game_ids:
            self._note(cursor, game_id)

    @abc.abstractmethod
    def _sql(self, text: str) -> str:
        """*text* (``?`` placeholders) in the dialect."""

    @contextmanager
    def _calling(self) -> Iterator[None]:
        """Around every use of a connection: refused once the store is closed, and waited for
        by :meth:`_quiesce`."""
        with self._calls:
            if self._closed:
                raise StoreError("the store is closed")
            self._active += 1
        try:
            yield
        finally:
            with self._calls:
                self._active -= 1
                if not self._active:
                    self._calls.notify_all()

    def _quiesce(self, timeout: float = 10.0) -> None:
        """Refuse new database calls and wait for those under way (the first step of
        :meth:`close`)."""
        with self._calls:
            self._closed = True
            self._calls.wait_for(lambda: not self._active, timeout)

    def _query(self, text: str, params: Sequence[object] = ()) -> list[Any]:
        """The rows of a read; :class:`StoreError` when the database cannot be read."""
        with self._calling():
            try:
                cursor = self._cursor()
                cursor.execute(self._sql(text), tuple(params))
                return list(cursor.fetchall())
            except self.db_errors as error:
                raise StoreError(str(error).strip()[:300]) from None

    @contextmanager
    def _changing(self) -> Iterator[Any]:
        """A write transaction of the whole table; :class:`NotSavedError` when it fails."""
        try:
            with self._transaction(None) as cursor:
                yield cursor
        except self.db_errors as error:
            raise NotSavedError(str(error).strip()[:300]) from None

    # -- reading --------------------------------------------------------------------------------

    def _lock_of(self, game_id: str) -> threading.Lock:
        with self._locks_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                if len(self._locks) > 4 * self._cache_size:
                    self._locks = {key: value for key, value in self._locks.items() if value.locked()}
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def _cached(self, game_id: str, stamp: int) -> Game | None:
        with self._cache_lock:
            for cache in (self._cache, self._ended):
                entry = cache.get(game_id)
                if entry is not None and entry[0] == stamp:
                    cache.move_to_end(game_id)
                    return entry[1]
            return None

    def _keep(self, game_id: str, stamp: int, game: Game) -> None:
        ended = game.status in (Status.OVER, Status.CLOSED)
        cache, other = (self._ended, self._cache) if ended else (self._cache, self._ended)
        size = ENDED_CACHE if ended else self._cache_size
        with self._cache_lock:
            other.pop(game_id, None)
            cache[game_id] = (stamp, game)
            cache.move_to_end(game_id)
            while len(cache) > size:
                cache.popitem(last=False)

    def _drop(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)
            self._ended.pop(game_id, None)

    def _restore(self, game_id: str, data: str) -> Game | None:
        try:
            game = restore(json.loads(data))
        except (ValueError, RecursionError, GameError) as error:
            if game_id not in self._broken:
                self._broken.add(game_id)
                log.warning("kowah: game %s cannot be read (%s); it is skipped", game_id,
                            str(error)[:200])
            return None
        if game.id != game_id:
            log.warning("kowah: game %s holds game %s; it is skipped", game_id, game.id[:64])
            return None
        return game

    def get(self, game_id: str) -> Game | None:
        if not ID_PATTERN.match(game_id) or game_id in self._broken:
            return None
        try:
            rows = self._query("SELECT stamp FROM games WHERE id = ?", (game_id,))
            if not rows:
                return None
            game = self._cached(game_id, rows[0][0])
            if game is not None:
                return game
            rows = self._query("SELECT stamp, data FROM games WHERE id = ?", (game_id,))
        except self.db_errors as error:
            raise StoreError(str(error)) from None
        if not rows:
            return None
        game = self._restore(game_id, rows[0][1])
        if game is not None:
            self._keep(game_id, rows[0][0], game)
        return game

    def peek(self, game_id: str) -> tuple[int, str, float | None] | None:
        rows = self._query("SELECT version, status, deadline FROM games WHERE id = ?", (game_id,))
        return None if not rows else (int(rows[0][0]), str(rows[0][1]), rows[0][2])

    def playing(self) -> int:
        rows = self._query("SELECT COUNT(*) FROM games WHERE status IN (?, ?)", IN_PLAY)
        return int(rows[0][0])

    def due(self, now: float) -> list[str]:
        rows = self._query("SELECT id FROM games WHERE status = ? AND deadline IS NOT NULL "
                           "AND deadline <= ?", (Status.PLAYING.value, now))
        return [row[0] for row in rows]

    def idle(self, before: float) -> list[str]:
        rows = self._query("SELECT id FROM games WHERE status IN (?, ?) AND updated < ?",
                           (*IN_PLAY, before))
        return [row[0] for row in rows]

    def presence(self, game_id: str) -> list[int]:
        counts = [0, 0, 0]
        for seat, sockets in self._query(
                "SELECT seat, SUM(sockets) FROM presence WHERE game_id = ? AND seen > ? GROUP BY seat",
                (game_id, time.time() - PRESENCE_TTL)):
            if 0 <= seat < 3:
                counts[seat] = int(sockets)
        return counts

    # -- writing --------------------------------------------------------------------------------

    @staticmethod
    def _row(game: Game) -> tuple[object, ...]:
        data = game.saved_text()
        return (game.version, game.status.value, game.owner, game.updated, game.deadline, data)

    def _changed(self, game_id: str) -> None:
        for callback in list(self._callbacks):
            callback(game_id)

    def add(self, game: Game) -> Game:
        with game.lock:
            row = self._row(game)
        try:
            with self._transaction(None) as cursor:
                cursor.execute(self._sql("SELECT COUNT(*) FROM games WHERE status IN (?, ?)"), IN_PLAY)
                if cursor.fetchone()[0] >= self.max_games:
                    self._make_room(cursor)
                cursor.execute(self._sql(
                    "INSERT INTO games (id, stamp, version, status, owner, updated, deadline, data) "
                    "VALUES (?, 1, ?, ?, ?, ?, ?, ?)"), (game.id, *row))
                self._note(cursor, game.id)
        except self.db_errors as error:
            raise NotSavedError(str(error)) from None
        self._keep(game.id, 1, game)
        self._changed(game.id)
        return game

    def _make_room(self, cursor: Any) -> None:
        cursor.execute(self._sql(
            "SELECT owner, COUNT(*) AS n FROM games WHERE status IN (?, ?) GROUP BY owner "
            "ORDER BY n DESC LIMIT 1"), IN_PLAY)
        owner, count = cursor.fetchone()
        if count <= max(1, self.max_games // 10):
            raise StoreFullError(
                N_("error", "the table is full: all {count} places hold games still in play"),
                count=self.max_games)
        cursor.execute(self._sql(
            "SELECT id, stamp, data FROM games WHERE status IN (?, ?) AND owner = ? "
            "ORDER BY updated LIMIT 1"), (*IN_PLAY, owner))
        game_id, stamp, data = cursor.fetchone()
        game = self._restore(game_id, data)
        if game is None:
            cursor.execute(self._sql("UPDATE games SET status = 'broken' WHERE id = ?"), (game_id,))
        else:
            game.close()
            self._write(cursor, [(game_id, stamp + 1, self._row(game))])
        self._drop(game_id)
        log.info("kowah: game %s closed to make room", game_id)

    def _write(self, cursor: Any, rows: Sequence[tuple[str, int, tuple[object, ...]]]) -> None:
        """Write games' rows (each: the game's id, its new stamp, :meth:`_row`) and note the
        changes, in one statement each."""
        cursor.executemany(self._sql(
            "UPDATE games SET stamp = ?, version = ?, status = ?, owner = ?, updated = ?, "
            "deadline = ?, data = ? WHERE id = ?"), [(stamp, *row, game_id) for game_id, stamp, row in rows])
        self._notes(cursor, [game_id for game_id, _, _ in rows])

    @contextmanager
    def _batch(self, game_ids: Sequence[str]) -> Iterator[Any]:
        """A write transaction locking the rows of *game_ids* (sorted); the dialects that lock
        more at once override it."""
        with self._transaction(game_ids[0] if len(game_ids) == 1 else None) as cursor:
            yield cursor

    def update_many(self, changes: Sequence[tuple[str, Callable[[Game], Any]]]) -> list[Outcome]:
        outcomes: list[Outcome] = [(None, None)] * len(changes)
        wanted = sorted({game_id for game_id, _ in changes
                         if ID_PATTERN.match(game_id) and game_id not in self._broken})
        if not wanted:
            return outcomes
        batch = _Batch()
        marks = ", ".join("?" * len(wanted))
        stamps_of = f"SELECT id, stamp FROM games WHERE id IN ({marks})"
        # The games' own locks first, in one order (no other thread of this process changes
        # them meanwhile). The changes are made on the games as they are now, before the write
        # lock is taken, so that other processes write meanwhile; under the lock, a game that
        # another process has changed since is read again and its changes made again.
        failures: tuple[type[BaseException], ...] = (StoreError, *self.db_errors)
        with contextlib.ExitStack() as held:
            for game_id in wanted:
                held.enter_context(self._lock_of(game_id))
            try:
                stamps = {row[0]: int(row[1]) for row in self._query(stamps_of, wanted)}
                self._make(changes, range(len(changes)), stamps, batch, outcomes, self._read)
                batch.done = len(changes)
                if batch.rows:
                    with self._batch(wanted) as cursor:
                        cursor.execute(self._sql(stamps_of), wanted)
                        now = {row[0]: int(row[1]) for row in cursor.fetchall()}
                        stale = {game_id for game_id in batch.rows if now.get(game_id) != stamps[game_id]}
                        if stale:
                            again = [index for index, (game_id, _) in enumerate(changes) if game_id in stale]
                            batch.forget(stale, again)
                            for game_id in stale:
                                self._drop(game_id)
                            self._make(changes, again, now, batch, outcomes,
                                       lambda game_id: self._read_in(cursor, game_id))
                            stamps.update(now)
                        self._write(cursor, [(game_id, stamps[game_id] + 1, row)
                                             for game_id, row in batch.rows.items()])
            except failures as error:
                for game_id in wanted:
                    self._drop(game_id)
                failed: Outcome = (None, NotSavedError(str(error).strip()[:300]))
                for index in [*batch.indices, *range(batch.done, len(changes))]:
                    outcomes[index] = failed
                return outcomes
            except BaseException:
                for game_id in wanted:
                    self._drop(game_id)
                raise
            for game_id, game in batch.games.items():
                if game_id in batch.rows:
                    self._keep(game_id, stamps[game_id] + 1, game)
        for game_id in batch.rows:
            self._changed(game_id)
        return outcomes

    def _read(self, game_id: str) -> tuple[int, str] | None:
        """A game's stamp and saved text, or ``None`` (no such game)."""
        rows = self._query("SELECT stamp, data FROM games WHERE id = ?", (game_id,))
        return None if not rows else (int(rows[0][0]), str(rows[0][1]))

    def _read_in(self, cursor: Any, game_id: str) -> tuple[int, str] | None:
        """:meth:`_read` in a transaction."""
        cursor.execute(self._sql("SELECT stamp, data FROM games WHERE id = ?"), (game_id,))
        row = cursor.fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def _make(self, changes: Sequence[tuple[str, Callable[[Game], Any]]], indices: Iterable[int],
              stamps: dict[str, int], batch: _Batch, outcomes: list[Outcome],
              read: Callable[[str], tuple[int, str] | None]) -> None:
        """Make the changes at *indices* (of :meth:`update_many`) on the games as *stamps* has
        them, each game's row made to be written with the others'. *stamps* is brought up to
        date with the games read."""
        for index in indices:
            game_id, change = changes[index]
            game = batch.games.get(game_id)
            if game is None:
                if game_id not in stamps:
                    continue  # no such game: (None, None)
                game = self._cached(game_id, stamps[game_id])
                if game is None:
                    found = read(game_id)
                    if found is None:
                        continue
                    stamps[game_id] = found[0]
                    game = self._restore(game_id, found[1])
                    if game is None:
                        continue
                    self._keep(game_id, found[0], game)
            with game.lock:
                try:
                    result = change(game)
                    row = self._row(game)
                except Refused as refused:  # nothing was changed: the game stays
                    outcomes[index] = (None, refused)
                    continue
                except Exception as error:  # the game may be half changed: read it again
                    self._drop(game_id)
                    batch.games.pop(game_id, None)
                    if game_id in batch.rows:  # as an earlier change of this batch left it
                        again = self._restore(game_id, str(batch.rows[game_id][-1]))
                        if again is not None:
                            batch.games[game_id] = again
                    outcomes[index] = (None, error)
                    continue
            batch.games[game_id] = game
            batch.rows[game_id] = row
            batch.indices.append(index)
            outcomes[index] = (result, None)

    def tidy(self, before: float) -> None:
        with self._changing() as cursor:
            cursor.execute(self._sql("DELETE FROM games WHERE status NOT IN (?, ?) AND updated < ?"),
                           (*IN_PLAY, before))
            cursor.execute(self._sql("DELETE FROM presence WHERE seen < ?"),
                           (time.time() - 4 * PRESENCE_TTL,))

    def set_presence(self, game_id: str, worker: str, seat: int, sockets: int) -> None:
        with self._changing() as cursor:
            cursor.execute(self._sql(
                "INSERT INTO presence (game_id, worker, seat, sockets, seen) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, worker, seat) DO UPDATE SET sockets = excluded.sockets, "
                "seen = excluded.seen"), (game_id, worker, seat, sockets, time.time()))
            self._note(cursor, game_id)
        self._changed(game_id)

    def heartbeat(self, worker: str, *, gone: bool = False) -> None:
        with self._changing() as cursor:
            if gone:
                cursor.execute(self._sql("DELETE FROM presence WHERE worker = ?"), (worker,))
            else:
                cursor.execute(self._sql("UPDATE presence SET seen = ? WHERE worker = ?"),
                               (time.time(), worker))

    def watch(self, callback: Callable[[str], None]) -> None:
        self._callbacks.append(callback)

    def unwatch(self, callback: Callable[[str], None]) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    # -- bringing games in ----------------------------------------------------------------------

    def insert_restored(self, game: Game) -> bool:
        """Keep a game read from elsewhere (an import), unless its id is taken; whether it was."""
        with self._changing() as cursor:
            cursor.execute(self._sql("SELECT 1 FROM games WHERE id = ?"), (game.id,))
            if cursor.fetchone() is not None:
                return False
            cursor.execute(self._sql(
                "INSERT INTO games (id, stamp, version, status, owner, updated, deadline, data) "
                "VALUES (?, 1, ?, ?, ?, ?, ?, ?)"), (game.id, *self._row(game)))
        return True

    def meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return None if not rows else str(rows[0][0])

    def set_meta(self, key: str, value: str) -> None:
        with self._changing() as cursor:
            cursor.execute(self._sql("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) "
                                     "DO UPDATE SET value = excluded.value"), (key, value))


#: The tables, in the SQL both databases read (``{serial}`` is the dialect's).
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    stamp BIGINT NOT NULL,
    version BIGINT NOT NULL,
    status TEXT NOT NULL,
    owner TEXT NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    deadline DOUBLE PRECISION,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status, updated);
CREATE INDEX IF NOT EXISTS games_by_deadline ON games (deadline);
CREATE TABLE IF NOT EXISTS presence (
    game_id TEXT NOT NULL,
    worker TEXT NOT NULL,
    seat INTEGER NOT NULL,
    sockets INTEGER NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, worker, seat)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


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
