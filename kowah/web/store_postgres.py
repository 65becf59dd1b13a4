"""The shared store: PostgreSQL through psycopg 3 (the ``postgres`` extra).

For several server processes, on one machine or several, sharing one database. One connection
per thread. A change locks its game's row (``SELECT … FOR UPDATE``) and commits before the
answer; new games and presence notes take a transaction-level advisory lock, so that the count
of games in play is checked by one process at a time. Each commit sends ``NOTIFY kowah`` with
the game's id; a listening thread in every process hears the other processes' changes, and
listens again when the database comes back after it was lost (telling its watchers that any
game may have changed meanwhile).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from kowah.web.store import ANY_GAME, StoreError
from kowah.web.store_sql import SCHEMA, SQLStore

__all__ = ["PostgresStore"]

_CHANNEL = "kowah"
_LOCK = 7_001_772  # the advisory lock of new games


def _driver() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("PostgreSQL needs psycopg 3: pip install 'kowah[web,postgres]'") from None
    return psycopg


class PostgresStore(SQLStore):
    """The :class:`~kowah.web.store.Store` in the PostgreSQL database at *url*."""

    def __init__(self, url: str, *, max_games: int = 1000) -> None:
        super().__init__(max_games=max_games)
        psycopg = _driver()
        self.db_errors = (psycopg.Error, OSError)
        self.url = url
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        self._listen_connection: Any = None
        try:
            with self._transaction(None) as cursor:
                cursor.execute(SCHEMA)
        except psycopg.Error as error:
            self.close()
            raise StoreError(str(error).strip()) from None

    def _connect(self) -> Any:
        return _driver().connect(self.url)

    def _in_transaction(self) -> bool:
        """Whether this thread is inside one of :meth:`_transaction`'s (a read made by a change,
        such as who is connected, must not end it and its row locks)."""
        return bool(getattr(self._local, "writing", False))

    def _cursor(self) -> Any:
        connection = self._connection()
        if not self._in_transaction():
            connection.rollback()  # a fresh snapshot for every read
        return connection.cursor()

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s")

    def _lost(self) -> bool:
        """Whether this thread's connection was lost (the database restarted since its last
        use): the next call connects again."""
        connection = getattr(self._local, "connection", None)
        return connection is not None and bool(connection.closed)

    def _query(self, text: str, params: Any = ()) -> list[Any]:
        try:
            rows = super()._query(text, params)
        except StoreError:
            if not self._lost():
                raise
            rows = super()._query(text, params)  # once more, on a new connection
        if self._in_transaction():
            return rows
        with self._calling():
            try:
                self._connection().rollback()
            except self.db_errors as error:
                raise StoreError(str(error).strip()[:300]) from None
        return rows

    @contextmanager
    def _transaction(self, game_id: str | None) -> Iterator[Any]:
        with self._calling():
            yield from self._transaction_body(None if game_id is None else [game_id])

    @contextmanager
    def _batch(self, game_ids: Sequence[str]) -> Iterator[Any]:
        with self._calling():
            yield from self._transaction_body(list(game_ids))

    def _lock(self, game_ids: list[str] | None) -> tuple[Any, Any]:
        """A new transaction holding the rows of the sorted *game_ids* (``None``: the new
        games' lock): its connection and cursor. A connection lost since its last use (the
        database restarted) is replaced, once, before anything is changed."""
        for attempt in (0, 1):
            connection = self._connection()
            connection.rollback()
            cursor = connection.cursor()
            try:
                if game_ids is None:
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
                else:  # sorted: processes lock rows in one order
                    cursor.execute("SELECT 1 FROM games WHERE id = ANY(%s) ORDER BY id COLLATE \"C\" "
                                   "FOR UPDATE", (game_ids,))
                break
            except self.db_errors:
                if attempt or not self._lost():
                    raise
        return connection, cursor

    def _transaction_body(self, game_ids: list[str] | None) -> Iterator[Any]:
        connection, cursor = self._lock(game_ids)
        self._local.writing = True
        try:
            yield cursor
            connection.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                connection.rollback()
            raise
        finally:
            self._local.writing = False

    def _note(self, cursor: Any, game_id: str) -> None:
        cursor.execute("SELECT pg_notify(%s, %s)", (_CHANNEL, game_id))

    def watch(self, callback: Callable[[str], None], wanted: Callable[[], bool] | None = None) -> None:
        super().watch(callback, wanted)  # told at once (NOTIFY), wanted or not
        if self._listener is None:
            connection = _driver().connect(self.url, autocommit=True)
            connection.execute(f"LISTEN {_CHANNEL}")
            self._listen_connection = connection
            self._listener = threading.Thread(target=self._listen, name="kowah-pg-listen", daemon=True)
            self._listener.start()

    def _listen(self) -> None:
        connection = self._listen_connection
        while not self._stop.is_set():
            try:
                if connection is None:  # the database is back: listen again
                    connection = _driver().connect(self.url, autocommit=True)
                    connection.execute(f"LISTEN {_CHANNEL}")
                    self._listen_connection = connection
                    self._changed(ANY_GAME)  # what changed meanwhile is not known
                for notice in connection.notifies(timeout=0.5):
                    self._changed(notice.payload)
            except Exception:  # the connection was lost (or closed by close())
                if connection is not None:
                    with contextlib.suppress(Exception):
                        connection.close()
                connection = None
                self._stop.wait(0.5)

    def close(self) -> None:
        self._quiesce()
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
        if self._listen_connection is not None:
            with contextlib.suppress(Exception):
                self._listen_connection.close()
        self._close_connections()
