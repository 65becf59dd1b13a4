"""The :class:`~kowah.web.store.Store` over a SQL database, shared by its two dialects:
:class:`~kowah.web.store_sqlite.SQLiteStore` and :class:`~kowah.web.store_postgres.PostgresStore`
fill in the connection, the locks and the change notes (see :mod:`kowah.web.store` for what
a store does).
"""

from __future__ import annotations

import abc
import collections
import contextlib
import json
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from kowah.errors import N_
from kowah.web.game import ID_PATTERN, Game, Status
from kowah.web.saved import GameError, restore, saved_text
from kowah.web.store import (
    ENDED_CACHE,
    IN_PLAY,
    PRESENCE_TTL,
    NotSavedError,
    Outcome,
    Refused,
    Store,
    StoreError,
    StoreFullError,
    UnreadableGameError,
    log,
)

__all__ = ["SCHEMA", "SQLStore"]


def _whole(value: object) -> int | None:
    """A column's whole number, or ``None`` when the row is damaged."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value)) if str(value).lstrip("-").isdigit() else None
    except ValueError:  # pragma: no cover - isdigit allows only what int reads
        return None


def _stamps_of(game_ids: Sequence[str]) -> str:
    """The query of the stamps of *game_ids* (``?`` placeholders)."""
    return f"SELECT id, stamp FROM games WHERE id IN ({', '.join('?' * len(game_ids))})"


class _Batch:
    """What :meth:`SQLStore.update_many` has changed so far."""

    def __init__(self) -> None:
        #: The games read or changed.
        self.games: dict[str, Game] = {}
        #: The rows to write, by game.
        self.rows: dict[str, tuple[object, ...]] = {}
        #: The games whose locks the batch holds, by ``id`` (the game kept, so the id is its).
        self.held: dict[int, Game] = {}

    def hold(self, game: Game) -> None:
        """Hold *game*'s lock (once) until :meth:`release`: other threads read it once the
        batch is saved, never half way."""
        if id(game) not in self.held:
            game.lock.acquire()
            self.held[id(game)] = game

    def discard_all(self) -> None:
        """Nothing was saved: every copy changed is discarded."""
        for game in self.games.values():
            game.discarded = True

    def release(self) -> None:
        for game in self.held.values():
            game.lock.release()
        self.held.clear()

    def forget(self, game_ids: set[str]) -> None:
        """Forget what was made of these games: their copies are discarded."""
        for game_id in game_ids:
            game = self.games.pop(game_id, None)
            if game is not None:
                game.discarded = True
            self.rows.pop(game_id, None)


class SQLStore(Store):
    """The :class:`Store` over a SQL database; the dialects fill in the connection, the
    locks and the change notes."""

    #: Errors of the database driver that mean "not written".
    db_errors: tuple[type[BaseException], ...] = (OSError,)
    #: Whether the database notes each change of a game's row itself (a trigger), so that
    #: :meth:`_write` and :meth:`add` do not.
    notes_by_trigger = False

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
        self._wanted: list[Callable[[], bool] | None] = []
        #: The games whose rows cannot be read, and those of them taken out of play.
        self._broken: set[str] = set()
        self._set_aside: set[str] = set()
        # The database calls under way, so that close() waits for them: a connection closed
        # while another thread uses it crashes the process.
        self._calls = threading.Condition()
        self._active = 0
        self._closed = False
        # One connection per thread, each noted with its thread: a connection whose thread has
        # ended is closed when the next one is made (threads come and go in the pools).
        self._local = threading.local()
        self._connections: list[tuple[threading.Thread, Any]] = []
        self._connections_lock = threading.Lock()

    # -- the dialect ----------------------------------------------------------------------------

    @abc.abstractmethod
    def _cursor(self) -> Any:
        """A cursor of this thread's connection."""

    @abc.abstractmethod
    def _connect(self) -> Any:
        """A new connection to the database."""

    def _connection(self) -> Any:
        """This thread's connection (a new one when it has none, or its own was closed)."""
        connection = getattr(self._local, "connection", None)
        if connection is None or getattr(connection, "closed", False) is True:
            connection = self._connect()
            self._local.connection = connection
            with self._connections_lock:
                ended = [each for thread, each in self._connections if not thread.is_alive()]
                self._connections = [(thread, each) for thread, each in self._connections
                                     if thread.is_alive()]
                self._connections.append((threading.current_thread(), connection))
            for each in ended:
                with contextlib.suppress(Exception):
                    each.close()
        return connection

    def _close_connections(self) -> None:
        """Close every thread's connection (the last step of :meth:`close`)."""
        with self._connections_lock:
            connections, self._connections = self._connections, []
        for _, connection in connections:
            with contextlib.suppress(Exception):
                connection.close()
        self._local = threading.local()

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
            self._damaged(game_id, str(error))
            return None
        if game.id != game_id:
            self._damaged(game_id, f"it holds game {game.id[:64]}")
            return None
        return game

    def _damaged(self, game_id: str, reason: str) -> None:
        """Note that *game_id*'s row cannot be read (logged once)."""
        if game_id not in self._broken:
            self._broken.add(game_id)
            log.warning("kowah: game %s cannot be read (%s); it is skipped", game_id, reason[:200])
        self._drop(game_id)

    def _stamp(self, game_id: str, value: object) -> int | None:
        """A row's stamp, or ``None`` (and the game noted as damaged)."""
        stamp = _whole(value)
        if stamp is None:
            self._damaged(game_id, f"its stamp is {str(value)[:20]!r}")
        return stamp

    def get(self, game_id: str) -> Game | None:
        if not ID_PATTERN.match(game_id):
            return None
        if game_id in self._broken:
            raise UnreadableGameError(game_id)
        try:
            rows = self._query("SELECT stamp FROM games WHERE id = ?", (game_id,))
            stamp = self._stamp(game_id, rows[0][0]) if rows else None
            found = self._game(game_id, stamp, self._read) if stamp is not None else None
        except self.db_errors as error:
            raise StoreError(str(error)) from None
        if found is None and game_id in self._broken:
            raise UnreadableGameError(game_id)
        return None if found is None else found[1]

    def _game(self, game_id: str, stamp: int,
              read: Callable[[str], tuple[int, str] | None]) -> tuple[int, Game] | None:
        """The game at *stamp* from the cache, else as *read* finds it (its stamp and saved
        text), then kept in the cache: its stamp and itself; ``None`` when there is no such
        game or it cannot be read."""
        game = self._cached(game_id, stamp)
        if game is not None:
            return stamp, game
        found = read(game_id)
        if found is None:
            return None
        game = self._restore(game_id, found[1])
        if game is None:
            return None
        self._keep(game_id, found[0], game)
        return found[0], game

    def peek(self, game_id: str) -> tuple[int, str, float | None] | None:
        rows = self._query("SELECT version, status, deadline FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        version, status, deadline = rows[0]
        if _whole(version) is None or not (deadline is None or isinstance(deadline, (int, float))):
            self._damaged(game_id, "its version or deadline is not a number")
            raise UnreadableGameError(game_id)
        return _whole(version) or 0, str(status), deadline

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

    def waiting(self, before: float) -> list[str]:
        rows = self._query("SELECT id FROM games WHERE status = ? AND updated < ?",
                           (Status.WAITING.value, before))
        return [row[0] for row in rows]

    def set_aside_broken(self) -> int:
        pending = sorted(self._broken - self._set_aside)
        if not pending:
            return 0
        with self._changing() as cursor:
            for game_id in pending:
                cursor.execute(self._sql("UPDATE games SET status = 'broken' WHERE id = ? "
                                         "AND status IN (?, ?)"), (game_id, *IN_PLAY))
        self._set_aside.update(pending)
        return len(pending)

    def allow_new(self, owner: str, now: float, per_minute: int) -> int:
        with self._changing() as cursor:
            cursor.execute(self._sql("SELECT at FROM creations WHERE owner = ? AND at > ? "
                                     "ORDER BY at"), (owner, now - 60))
            times = [float(row[0]) for row in cursor.fetchall()]
            if len(times) >= per_minute:
                return max(1, math.ceil(times[len(times) - per_minute] + 60 - now))
            cursor.execute(self._sql("INSERT INTO creations (owner, at) VALUES (?, ?)"), (owner, now))
            return 0

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
        data = saved_text(game)
        return (game.version, game.status.value, game.owner, game.updated, game.wake, data)

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
                    self._make_room(cursor, game.owner)
                cursor.execute(self._sql(
                    "INSERT INTO games (id, stamp, version, status, owner, updated, deadline, data) "
                    "VALUES (?, 1, ?, ?, ?, ?, ?, ?)"), (game.id, *row))
                if not self.notes_by_trigger:
                    self._note(cursor, game.id)
        except self.db_errors as error:
            raise NotSavedError(str(error)) from None
        self._keep(game.id, 1, game)
        self._changed(game.id)
        return game

    def _make_room(self, cursor: Any, owner: str) -> None:
        """Close one game in play for a new game of *owner* (see the module's description)."""
        cursor.execute(self._sql("SELECT id, owner, status, updated FROM games WHERE status IN (?, ?)"),
                       IN_PLAY)
        rows = cursor.fetchall()
        counts = collections.Counter(str(row[1]) for row in rows)
        mine = counts.get(owner, 0)
        most = max(counts.values(), default=0)

        def gives_way(other: str) -> bool:
            return counts[other] > mine + 1 or (other == owner and mine >= most)

        candidates = [row for row in rows if gives_way(str(row[1]))]
        if not candidates:
            raise StoreFullError(
                N_("error", "the server is full: all {count} game slots hold games still in play"),
                count=self.max_games)
        game_id = min(candidates, key=lambda row: (
            row[2] != Status.WAITING.value, -counts[str(row[1])],
            row[3] if isinstance(row[3], (int, float)) else 0.0))[0]
        cursor.execute(self._sql("SELECT stamp, data FROM games WHERE id = ?"), (game_id,))
        stamp, data = cursor.fetchone()
        stamp = _whole(stamp)
        game = None if stamp is None else self._restore(game_id, str(data))
        if game is None or stamp is None:
            cursor.execute(self._sql("UPDATE games SET status = 'broken' WHERE id = ?"), (game_id,))
            self._set_aside.add(game_id)
        else:
            game.close()
            self._write(cursor, [(game_id, stamp, self._row(game))])
        self._drop(game_id)
        log.info("kowah: game %s closed to make room", game_id)

    def _write(self, cursor: Any, rows: Sequence[tuple[str, int, tuple[object, ...]]]) -> set[str]:
        """Write games' rows (each: the game's id, the stamp its change was made at,
        :meth:`_row`), each only where the row is still at that stamp, with the stamp after it;
        the changes written are noted. The ids of the rows not written (changed meanwhile, or
        gone)."""
        update = self._sql("UPDATE games SET stamp = ?, version = ?, status = ?, owner = ?, "
                           "updated = ?, deadline = ?, data = ? WHERE id = ? AND stamp = ?")
        missed = set()
        for game_id, stamp, row in rows:
            cursor.execute(update, (stamp + 1, *row, game_id, stamp))
            if cursor.rowcount != 1:
                missed.add(game_id)
        if not self.notes_by_trigger:
            self._notes(cursor, [game_id for game_id, _, _ in rows if game_id not in missed])
        return missed

    def _write_alone(self, game_id: str, stamp: int, row: tuple[object, ...]) -> bool | None:
        """Write one game's row as :meth:`_write` does, in a transaction of its own, where the
        dialect does it more cheaply than :meth:`_batch`: whether it was written, or ``None``
        where the dialect has no such way."""
        return None

    @contextmanager
    def _batch(self, game_ids: Sequence[str]) -> Iterator[Any]:
        """A write transaction locking the rows of *game_ids* (sorted); the dialects that lock
        more at once override it."""
        with self._transaction(game_ids[0] if len(game_ids) == 1 else None) as cursor:
            yield cursor

    def update_many(self, changes: Sequence[tuple[str, Callable[[Game], Any]]]) -> list[Outcome]:
        outcomes: list[Outcome] = [
            (None, UnreadableGameError(game_id)) if game_id in self._broken else (None, None)
            for game_id, _ in changes]
        wanted = sorted({game_id for game_id, _ in changes
                         if ID_PATTERN.match(game_id) and game_id not in self._broken})
        if not wanted:
            return outcomes
        batch = _Batch()
        # The games' own locks first, in one order (no other thread of this process changes
        # them meanwhile). The changes are made on the games as they are now (as this process
        # last saved or read them, without a read when they are in its cache), before the write
        # lock is taken, so that other processes write meanwhile. A row is written only where it
        # is still at the stamp its change was made at: under the lock, a game that another
        # process has changed since is read again and its changes made again, so the changes
        # that count always follow one another. A change refused (or failed) on a cached game
        # is checked the same way: made again if the game's row has changed.
        failures: tuple[type[BaseException], ...] = (StoreError, *self.db_errors)
        with contextlib.ExitStack() as held:
            for game_id in wanted:
                held.enter_context(self._lock_of(game_id))
            held.callback(batch.release)  # the games changed are read once they are saved
            try:
                stamps = self._cached_stamps(wanted)
                cached = set(stamps)
                unknown = [game_id for game_id in wanted if game_id not in cached]
                if unknown:
                    stamps.update(self._stamps(self._query(_stamps_of(unknown), unknown)))
                self._make(changes, range(len(changes)), stamps, batch, outcomes, self._read)
                doubted = sorted({game_id for (game_id, _), (_, error) in zip(changes, outcomes, strict=True)
                                  if error is not None and game_id in cached
                                  and game_id not in batch.rows})
                if doubted:  # the database unread fails them as it fails the others
                    refusals = [(index, outcomes[index]) for index, (game_id, _) in enumerate(changes)
                                if game_id in doubted]
                    for index, _ in refusals:
                        outcomes[index] = (None, None)
                    now = self._stamps(self._query(_stamps_of(doubted), doubted))
                    for index, outcome in refusals:
                        outcomes[index] = outcome
                    stale = {game_id for game_id in doubted if now.get(game_id) != stamps[game_id]}
                    self._again(changes, stale, now, stamps, batch, outcomes, self._read)
                if batch.rows:
                    self._save(changes, wanted, stamps, batch, outcomes)
            except failures as error:
                batch.discard_all()
                for game_id in wanted:
                    self._drop(game_id)
                failed: Outcome = (None, NotSavedError(str(error).strip()[:300]))
                return [failed if outcome[1] is None else outcome for outcome in outcomes]
            except BaseException:
                batch.discard_all()
                for game_id in wanted:
                    self._drop(game_id)
                raise
            for game_id, game in batch.games.items():
                if game_id in batch.rows:
                    self._keep(game_id, stamps[game_id] + 1, game)
        for game_id in batch.rows:
            self._changed(game_id)
        return outcomes

    def _save(self, changes: Sequence[tuple[str, Callable[[Game], Any]]], wanted: Sequence[str],
              stamps: dict[str, int], batch: _Batch, outcomes: list[Outcome]) -> None:
        """Write the batch's rows; those changed meanwhile are read again under the write lock,
        their changes made again and written."""
        written = None
        if len(batch.rows) == 1:
            (game_id, row), = batch.rows.items()
            written = self._write_alone(game_id, stamps[game_id], row)
            if written:
                return
        with self._batch(wanted) as cursor:
            # A row the lone write missed is not tried again before it is read again.
            missed = set(batch.rows) if written is False else self._write(
                cursor, [(game_id, stamps[game_id], row) for game_id, row in batch.rows.items()])
            if missed:
                ids = sorted(missed)
                cursor.execute(self._sql(_stamps_of(ids)), ids)
                now = self._stamps(cursor.fetchall())
                self._again(changes, missed, now, stamps, batch, outcomes,
                            lambda game_id: self._read_in(cursor, game_id))
                again = self._write(cursor, [(game_id, stamps[game_id], row)
                                             for game_id, row in batch.rows.items() if game_id in missed])
                if again:  # under the write lock: the rows cannot have changed
                    raise StoreError(f"game {min(again)[:64]} changed under the write lock")

    def _again(self, changes: Sequence[tuple[str, Callable[[Game], Any]]], stale: set[str],
               now: dict[str, int], stamps: dict[str, int], batch: _Batch, outcomes: list[Outcome],
               read: Callable[[str], tuple[int, str] | None]) -> None:
        """Make the changes to the *stale* games again, on the games as they are at the
        stamps *now* holds (read by *read*; a game not in *now* is gone)."""
        if not stale:
            return
        again = [index for index, (game_id, _) in enumerate(changes) if game_id in stale]
        for index in again:
            outcomes[index] = (None, None)
        batch.forget(stale)
        for game_id in stale:
            self._drop(game_id)
            stamps.pop(game_id, None)
        fresh = {game_id: stamp for game_id, stamp in now.items() if game_id in stale}
        self._make(changes, again, fresh, batch, outcomes, read)
        stamps.update(fresh)

    def _cached_stamps(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The stamps of the games of *game_ids* in the cache."""
        stamps = {}
        with self._cache_lock:
            for game_id in game_ids:
                entry = self._cache.get(game_id) or self._ended.get(game_id)
                if entry is not None:
                    stamps[game_id] = entry[0]
        return stamps

    def _stamps(self, rows: Iterable[Any]) -> dict[str, int]:
        """The stamps of ``(id, stamp)`` rows; a damaged one is left out (and noted)."""
        stamps = {}
        for game_id, value in rows:
            stamp = self._stamp(game_id, value)
            if stamp is not None:
                stamps[game_id] = stamp
        return stamps

    def _read(self, game_id: str) -> tuple[int, str] | None:
        """A game's stamp and saved text, or ``None`` (no such game, or a damaged one)."""
        rows = self._query("SELECT stamp, data FROM games WHERE id = ?", (game_id,))
        stamp = self._stamp(game_id, rows[0][0]) if rows else None
        return None if stamp is None else (stamp, str(rows[0][1]))

    def _read_in(self, cursor: Any, game_id: str) -> tuple[int, str] | None:
        """:meth:`_read` in a transaction."""
        cursor.execute(self._sql("SELECT stamp, data FROM games WHERE id = ?"), (game_id,))
        row = cursor.fetchone()
        stamp = None if row is None else self._stamp(game_id, row[0])
        return None if stamp is None else (stamp, str(row[1]))

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
                found = self._game(game_id, stamps[game_id], read) if game_id in stamps else None
                if found is None:  # no such game: (None, None); a damaged one fails alone
                    if game_id in self._broken:
                        outcomes[index] = (None, UnreadableGameError(game_id))
                    continue
                stamps[game_id], game = found
            batch.hold(game)
            try:
                result = change(game)
                row = self._row(game)
            except Refused as refused:  # nothing was changed: the game stays
                outcomes[index] = (None, refused)
                continue
            except Exception as error:  # the game may be half changed: read it again
                game.discarded = True
                self._drop(game_id)
                batch.games.pop(game_id, None)
                if game_id in batch.rows:  # as an earlier change of this batch left it
                    again = self._restore(game_id, str(batch.rows[game_id][-1]))
                    if again is not None:
                        batch.hold(again)
                        batch.games[game_id] = again
                outcomes[index] = (None, error)
                continue
            batch.games[game_id] = game
            batch.rows[game_id] = row
            outcomes[index] = (result, None)

    def tidy(self, before: float) -> None:
        with self._changing() as cursor:
            cursor.execute(self._sql("DELETE FROM games WHERE status NOT IN (?, ?) AND updated < ?"),
                           (*IN_PLAY, before))
            cursor.execute(self._sql("DELETE FROM presence WHERE seen < ?"),
                           (time.time() - 4 * PRESENCE_TTL,))
            cursor.execute(self._sql("DELETE FROM creations WHERE at < ?"), (time.time() - 120,))

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

    def watch(self, callback: Callable[[str], None], wanted: Callable[[], bool] | None = None) -> None:
        self._callbacks.append(callback)
        self._wanted.append(wanted)

    def _news_wanted(self) -> bool:
        """Whether a callback wants news now (see :meth:`watch`)."""
        return any(wanted is None or wanted() for wanted in list(self._wanted))

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


#: The tables, in the SQL both databases read (``{serial}`` is the dialect's). ``games_due``
#: finds the turn clocks that ran out (:meth:`SQLStore.due`, twice a second) among the games in
#: play without reading each of them; it replaces an index on the deadline alone, which that
#: query never used (SQLite chose ``games_by_status`` and read every game in play).
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
DROP INDEX IF EXISTS games_by_deadline;
CREATE INDEX IF NOT EXISTS games_due ON games (status, deadline);
CREATE TABLE IF NOT EXISTS presence (
    game_id TEXT NOT NULL,
    worker TEXT NOT NULL,
    seat INTEGER NOT NULL,
    sockets INTEGER NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, worker, seat)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS creations (owner TEXT NOT NULL, at DOUBLE PRECISION NOT NULL);
CREATE INDEX IF NOT EXISTS creations_by_owner ON creations (owner, at);
"""
