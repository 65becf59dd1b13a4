"""The thread that changes games: the endpoints hand it their changes, it saves them.

A change (an action, a join, a closing …) is a function of the game that runs off the event
loop, in this one thread, and is committed before its answer is sent. The changes that arrive
while a transaction is being written wait for the next one, and are then applied and committed
together (a *group commit*, :meth:`Store.update_many <kowah.web.store.Store.update_many>`): under
load one commit, one wake-up of the thread and one of the event loop serve many players, and no
change waits on a lock that another thread of this process holds.

>>> import asyncio
>>> from kowah.web.game import Game
>>> from kowah.web.store import open_store
>>> store = open_store(None)
>>> game = store.add(Game.new(seed=1, opponents="random"))
>>> writer = Writer(store)
>>> asyncio.run(writer.update(game.id, lambda game: game.close()))
>>> store.get(game.id).closed
True
>>> writer.close(); store.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from kowah.web.game import Game
from kowah.web.store import Outcome, Store, StoreError

__all__ = ["Writer"]

T = TypeVar("T")
_Item = tuple[str, Callable[[Game], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class Writer:
    """The changes to *store*'s games, made in one thread, at most *batch* to a transaction.
    The thread starts with the first change and ends after *idle* seconds without one."""

    def __init__(self, store: Store, *, batch: int = 64, idle: float = 5.0) -> None:
        self.store = store
        self.batch = batch
        self.idle = idle
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (changes are refused)."""
        return self._closed

    @property
    def running(self) -> bool:
        """Whether the writer's thread is running now."""
        return self._thread is not None

    async def update(self, game_id: str, change: Callable[[Game], T]) -> T | None:
        """:meth:`Store.update <kowah.web.store.Store.update>` in the writer's thread: the
        change's result once it is saved, or ``None`` for no such game."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        with self._lock:
            if self._closed:
                raise StoreError("the store is closed")
            if self._thread is None:
                thread = threading.Thread(target=self._run, name="kowah-writer", daemon=True)
                thread.start()
                self._thread = thread
            self._queue.put((game_id, change, loop, future))
        result: T | None = await future
        return result

    def _run(self) -> None:
        try:
            self._serve()
        finally:  # also when something unforeseen ends the thread: the next change starts one
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None

    def _serve(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=self.idle)
            except queue.Empty:
                with self._lock:
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            items = [] if first is None else [first]
            stop = first is None
            while not stop and len(items) < self.batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                else:
                    items.append(item)
            if items:
                self._write(items)
            if stop:
                return

    def _write(self, items: list[_Item]) -> None:
        try:
            outcomes = self.store.update_many([(game_id, change) for game_id, change, _, _ in items])
        except BaseException as error:  # the store as a whole failed (it was closed …)
            outcomes = [(None, error)] * len(items)
        answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Outcome]]] = {}
        for (_, _, loop, future), outcome in zip(items, outcomes, strict=True):
            answers.setdefault(loop, []).append((future, outcome))
        for loop, answered in answers.items():  # one wake-up of each loop
            with contextlib.suppress(RuntimeError):  # a closed loop: no one waits
                loop.call_soon_threadsafe(_answer, answered)

    def close(self, timeout: float = 10.0) -> None:
        """Refuse new changes and wait for those handed in to be saved."""
        with self._lock:
            self._closed = True
            thread, self._thread = self._thread, None
            if thread is not None:
                self._queue.put(None)
        if thread is not None:
            thread.join(timeout)


def _answer(answered: list[tuple[asyncio.Future[Any], Outcome]]) -> None:
    for future, (result, error) in answered:
        if future.done():  # cancelled: no one waits
            continue
        if isinstance(error, StopIteration):  # a future cannot carry one
            error = RuntimeError(f"a change raised {error!r}")
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
