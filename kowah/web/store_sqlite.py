"""The embedded store: SQLite (the standard library's ``sqlite3``) in WAL mode.

One database file (``kowah.sqlite3`` in the data folder by default), one connection per
thread. A change is ``BEGIN IMMEDIATE`` … ``COMMIT`` (a change of one game alone: one ``UPDATE``,
a transaction of its own): the write lock serialises changes across every process on the
file, and the commit is in the write-ahead log before the answer is sent.
With ``synchronous=NORMAL`` (the default) a committed change survives the server being killed
at any moment; ``synchronous=FULL`` (``?synchronous=full`` in the URL) also survives a power
cut, at the cost of a disk flush per change.

Other processes learn of changes from the ``changes`` table: each change of a game's row adds
a row there (a trigger, in the same transaction), and a watcher thread polls for new rows (a
cheap read of an index) twenty times a second (once a second while no one wants news).

>>> store = SQLiteStore(None)
>>> store.pragma("journal_mode"), store.pragma("synchronous")
('wal', 1)
>>> store.close()
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

try:
    import fcntl
except ImportError:  # Windows: SQLite's own wait
    fcntl = None  # type: ignore[assignment]

from kowah.web.store import StoreError
from kowah.web.store_sql import SCHEMA, SQLStore

__all__ = ["SQLiteStore"]

#: How often the watcher looks for other processes' changes (seconds), and how often while no
#: one wants news of them (see :meth:`Store.watch <kowah.web.store.Store.watch>`).
POLL = 0.05
QUIET_POLL = 1.0
#: The notes of changes for the other processes: a row for each change of a game's row, added by
#: the database itself in the change's own transaction, and for each change of who is connected.
#: (Databases made before 2026-12 number the notes with ``AUTOINCREMENT``: the same numbers, one
#: more page written at each commit.)
_CHANGES = """
CREATE TABLE IF NOT EXISTS changes (seq INTEGER PRIMARY KEY, game_id TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS games_inserted AFTER INSERT ON games
    BEGIN INSERT INTO changes (game_id) VALUES (NEW.id); END;
CREATE TRIGGER IF NOT EXISTS games_updated AFTER UPDATE ON games
    BEGIN INSERT INTO changes (game_id) VALUES (NEW.id); END;
"""
_SYNC = {"normal": "NORMAL", "full": "FULL"}


class SQLiteStore(SQLStore):
    """The :class:`~kowah.web.store.Store` in the SQLite database at *path* (``None``: a
    temporary one, removed at :meth:`close`)."""

    db_errors = (sqlite3.Error, OSError)
    notes_by_trigger = True

    def __init__(self, path: Path | None, *, max_games: int = 1000, synchronous: str = "normal",
                 poll: float = POLL, quiet_poll: float = QUIET_POLL) -> None:
        super().__init__(max_games=max_games)
        self._temporary = None if path is not None else tempfile.mkdtemp(prefix="kowah-games-")
        self.path = path if path is not None else Path(self._temporary or "") / "kowah.sqlite3"
        self.synchronous = _SYNC[synchronous]
        self._poll = poll
        self._quiet = quiet_poll
        self._writer = threading.Lock()
        self._file_lock: BinaryIO | None = None
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if fcntl is not None:
                self._file_lock = open(f"{self.path}-writer", "ab")  # noqa: SIM115 - held open
            connection = self._connection()
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(SCHEMA + _CHANGES)
        except (sqlite3.Error, OSError) as error:
            self.close()
            raise StoreError(f"{self.path}: {error}") from None

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                     timeout=30)
        connection.execute(f"PRAGMA synchronous={self.synchronous}")
        connection.execute("PRAGMA busy_timeout=30000")
        return connection

    def pragma(self, name: str) -> Any:
        """A pragma's value on this thread's connection."""
        with self._calling():
            return self._connection().execute(f"PRAGMA {name}").fetchone()[0]

    def _cursor(self) -> Any:
        return self._connection().cursor()

    def _sql(self, text: str) -> str:
        return text

    @contextmanager
    def _transaction(self, game_id: str | None) -> Iterator[Any]:
        # The writers wait for each other in locks that let the next go soon: a Python lock in
        # this process (at once), a file lock (flock, where there is one) across the processes
        # on the database (steps of at most 2 ms). SQLite's own wait for its write lock sleeps
        # and retries, up to 100 ms a time.
        with self._calling(), self._writer, self._across_processes():
            connection = self._connection()
            cursor = connection.cursor()
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
                cursor.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    cursor.execute("ROLLBACK")
                raise

    def _write_alone(self, game_id: str, stamp: int, row: tuple[object, ...]) -> bool | None:
        # One statement, its own transaction (the connection is in autocommit mode), the note
        # added by the trigger: no BEGIN and COMMIT of their own.
        with self._calling(), self._writer, self._across_processes():
            return not self._write(self._connection().cursor(), [(game_id, stamp, row)])

    @contextmanager
    def _across_processes(self) -> Iterator[None]:
        """The writers' file lock, waited for in short steps for as long as SQLite would
        (``busy_timeout``, 30 s): a process stopped while holding it fails the change, it does
        not hang it."""
        if self._file_lock is None or fcntl is None:
            yield
            return
        deadline, pause = time.monotonic() + 30, 0.0002
        while True:
            try:
                fcntl.flock(self._file_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise sqlite3.OperationalError("database is locked (by another process's "
                                                   "writer)") from None
                time.sleep(pause)
                pause = min(2 * pause, 0.002)
        try:
            yield
        finally:
            with contextlib.suppress(OSError, ValueError):  # closed meanwhile by close()
                fcntl.flock(self._file_lock, fcntl.LOCK_UN)

    def _note(self, cursor: Any, game_id: str) -> None:
        cursor.execute("INSERT INTO changes (game_id) VALUES (?)", (game_id,))

    def _notes(self, cursor: Any, game_ids: Sequence[str]) -> None:
        cursor.executemany("INSERT INTO changes (game_id) VALUES (?)", [(game_id,) for game_id in game_ids])

    def tidy(self, before: float) -> None:
        super().tidy(before)
        with self._changing() as cursor:
            cursor.execute("DELETE FROM changes WHERE seq < (SELECT MAX(seq) FROM changes) - 10000")

    def watch(self, callback: Callable[[str], None], wanted: Callable[[], bool] | None = None) -> None:
        super().watch(callback, wanted)
        if self._watcher is None:
            rows = self._query("SELECT MAX(seq) FROM changes")
            self._watcher = threading.Thread(target=self._watch, args=(rows[0][0] or 0,),
                                             name="kowah-sqlite-watch", daemon=True)
            self._watcher.start()

    def _watch(self, seen: int) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            # Each look costs a wake-up of this thread: while no one wants news (a server
            # with no socket open), once a second is enough.
            while not self._stop.wait(self._poll if self._news_wanted() else self._quiet):
                try:
                    rows = connection.execute("SELECT seq, game_id FROM changes WHERE seq > ? "
                                              "ORDER BY seq", (seen,)).fetchall()
                except sqlite3.Error:
                    continue
                if rows:
                    seen = rows[-1][0]
                    for game_id in dict.fromkeys(row[1] for row in rows):
                        self._changed(game_id)
        finally:
            connection.close()

    def close(self) -> None:
        self._quiesce()
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=5)
        self._close_connections()
        if self._file_lock is not None:
            self._file_lock.close()
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
