"""Live updates over a WebSocket, and the server's housekeeping.

``GET /api/games/{id}/live`` (:func:`socket`): the client's first message is ``{"token": KEY}``
or ``{}``; the server answers ``hello`` with the seat and the version, then sends ``version``
whenever the game changes and ``presence`` whenever a person's connection comes or goes (see
the API page). The :class:`Hub` learns of changes from the store's :meth:`watch
<kowah.web.store.Store.watch>` (this process's commits at once; other processes' through the
database) and tells each open socket of that game.

The housekeeping task (one per running application, started by its lifespan with
:meth:`Hub.start`, ended by :meth:`Hub.stop`) plays the turn of a person whose clock ran out,
closes the games untouched for the idle timeout and the tables still waiting for their people
after the unjoined timeout, takes the games whose rows cannot be read out of play, and deletes
old finished games; a game that fails is logged and the others go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from kowah.web.game import Game
from kowah.web.store import ANY_GAME, Refused, Store, StoreError, UnreadableGameError
from kowah.web.threads import GameThreads
from kowah.web.writer import Writer

if TYPE_CHECKING:  # the application's layer: its settings are handed in, never imported
    from kowah.web.app import Settings

__all__ = ["Hub", "socket"]

log = logging.getLogger("kowah.web")

#: The housekeeping's clock (seconds since 1970); tests move it.
clock = time.time
#: How long the first message may take (seconds).
FIRST_MESSAGE = 10.0
#: How often the housekeeping looks at the clocks (seconds).
TICK = 0.5
#: How often the housekeeping closes idle and waiting tables and tidies (seconds).
SWEEP = 30.0
#: A socket silent this long (seconds; the page pings every 5) is closed as half open (4408),
#: so that its seat is no longer counted as present.
SILENCE = 30.0
#: The socket's close code for a game whose saved form cannot be read.
UNREADABLE = 4500


#: A state read by the hub: its number (see :meth:`Hub._read`), the game's version, status and
#: deadline, and who is connected.
Found = tuple[int, tuple[int, str, "float | None"], "list[bool | None] | None"]


class Hub:
    """This application's open sockets, by game, and what each was last told; *store*'s
    calls run in *threads*."""

    def __init__(self, store: Store, threads: GameThreads) -> None:
        self.store = store
        self.threads = threads
        self.worker = secrets.token_hex(8)
        self.sockets: dict[str, dict[WebSocket, int | None]] = {}
        #: The newest state read of each game with open sockets.
        self.told: dict[str, Found] = {}
        #: What each socket has been told (the same form): it is told only what is newer.
        self.known: dict[WebSocket, Found] = {}
        self._reading = threading.Lock()
        self._reads = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self._running: set[str] = set()
        self._dirty: set[str] = set()
        self._watching = False
        #: The sockets that have had their hello (only they are told of changes).
        self.greeted: set[WebSocket] = set()

    def local(self, game_id: str) -> list[int]:
        """Open sockets per seat in this process."""
        counts = [0, 0, 0]
        for seat in self.sockets.get(game_id, {}).values():
            if seat is not None:
                counts[seat] += 1
        return counts

    # -- being told of changes ------------------------------------------------------------------

    def start(self, writer: Writer, settings: Settings) -> None:
        """Start watching the store and the housekeeping (its changes go to *writer*) on the
        running loop."""
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.tasks = [loop.create_task(_housekeeping(self, writer, settings))]
        if not self._watching:
            self._watching = True
            # Only sockets want news of the others' changes (see Store.watch).
            self.store.watch(self._changed, wanted=lambda: bool(self.sockets))

    async def stop(self) -> None:
        """End the housekeeping; this process's sockets no longer count as present."""
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks = []
        self.loop = None
        with contextlib.suppress(StoreError, Exception):
            await self.threads.run(self.store.heartbeat, self.worker, gone=True)

    def _changed(self, game_id: str) -> None:
        loop = self.loop
        if loop is not None and (game_id in self.sockets or game_id == ANY_GAME) \
                and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(self._schedule, game_id)

    def _schedule(self, game_id: str) -> None:
        if game_id == ANY_GAME:
            for each in list(self.sockets):
                self._schedule(each)
            return
        if game_id in self._running:
            self._dirty.add(game_id)
            return
        self._running.add(game_id)
        asyncio.get_running_loop().create_task(self._refresh(game_id))

    async def _refresh(self, game_id: str) -> None:
        try:
            while True:
                self._dirty.discard(game_id)
                await self.tell(game_id)
                if game_id not in self._dirty:
                    return
        finally:
            self._running.discard(game_id)

    def _read(self, game_id: str) -> Found | None:
        """The game's version, status and deadline, and who is connected (a worker thread),
        numbered: one read at a time, so that a higher number is never older news."""
        with self._reading:
            self._reads += 1
            found = self.store.read(game_id, lambda game: (
                (game.version, game.status.value, game.deadline),
                [game.is_person(seat) for seat in range(3)]))
            if found is None:
                return None
            peek, people = found
            counts = self.store.presence(game_id)
            return self._reads, peek, [bool(count) if person else None
                                       for count, person in zip(counts, people, strict=True)]

    async def tell(self, game_id: str) -> None:
        """Send the game's sockets what changed since they were last told."""
        if game_id not in self.sockets:
            return
        try:
            found = await self.threads.run(self._read, game_id)
        except StoreError:
            return
        if found is None:
            return
        if found[0] > self.told.get(game_id, (0,))[0]:
            self.told[game_id] = found
        for websocket in list(self.sockets.get(game_id, {})):
            if websocket in self.greeted:
                await self._catch_up(websocket, found)

    async def _catch_up(self, websocket: WebSocket, found: Found) -> None:
        """Tell *websocket* what differs in *found*, unless it knows newer news."""
        known = self.known.get(websocket)
        if known is None or found[0] <= known[0]:
            return
        self.known[websocket] = found
        messages = []
        if found[1] != known[1]:
            peek = found[1]
            messages.append({"type": "version", "version": peek[0], "status": peek[1],
                             "deadline": peek[2]})
        if found[2] != known[2]:
            messages.append({"type": "presence", "connected": found[2]})
        for message in messages:
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps(message))

    # -- sockets --------------------------------------------------------------------------------

    async def _presence(self, game_id: str, seat: int | None) -> None:
        if seat is None:
            return
        count = self.local(game_id)[seat]
        with contextlib.suppress(StoreError):
            await self.threads.run(self.store.set_presence, game_id, self.worker, seat, count)

    async def serve(self, websocket: WebSocket) -> None:
        game_id = websocket.path_params["game"]
        await websocket.accept()
        try:
            text = await asyncio.wait_for(websocket.receive_text(), FIRST_MESSAGE)
            first = json.loads(text)
        except (TimeoutError, ValueError, RecursionError, KeyError):
            await websocket.close(4400)
            return
        except WebSocketDisconnect:
            return
        if not (isinstance(first, dict) and set(first) <= {"token"}
                and isinstance(first.get("token", ""), str)):
            await websocket.close(4400)
            return

        def hello_of(game: Game) -> tuple[Game | None, int | None, dict[str, Any]]:
            seat = game.seat_of(first["token"]) if "token" in first else None
            return game, seat, {"type": "hello", "seat": seat, "version": game.version,
                                "status": game.status.value, "deadline": game.deadline}

        def look() -> tuple[Game | None, int | None, dict[str, Any]]:
            return self.store.read(game_id, hello_of) or (None, None, {})

        try:
            game, seat, hello = await self.threads.run(look)
        except UnreadableGameError:
            await websocket.close(UNREADABLE)
            return
        except StoreError:
            await websocket.close(1011)
            return
        if game is None:
            await websocket.close(4404)
            return
        if "token" in first and seat is None:
            await websocket.close(4401)
            return
        self.sockets.setdefault(game_id, {})[websocket] = seat
        try:
            await self._presence(game_id, seat)
            found = await self.threads.run(self._read, game_id)
            if found is not None:
                hello.update(version=found[1][0], status=found[1][1], deadline=found[1][2],
                             connected=found[2])
            await websocket.send_text(json.dumps(hello))
            self.known[websocket] = found or (0, (hello["version"], hello["status"],
                                                  hello["deadline"]), None)
            self.greeted.add(websocket)
            told = self.told.get(game_id)
            if told is not None:  # what the others were told meanwhile
                await self._catch_up(websocket, told)
            while True:
                try:
                    received = await asyncio.wait_for(websocket.receive(), SILENCE)
                except TimeoutError:  # a half-open socket: its seat is no longer present
                    await websocket.close(4408)
                    break
                if received["type"] == "websocket.disconnect":
                    break
                message = received.get("text")
                if message is None:  # a binary frame: not this API's
                    await websocket.close(4400)
                    break
                with contextlib.suppress(ValueError, RecursionError):
                    if json.loads(message) == {"type": "ping"}:
                        await websocket.send_text('{"type": "pong"}')
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.greeted.discard(websocket)
            self.known.pop(websocket, None)
            sockets = self.sockets.get(game_id, {})
            sockets.pop(websocket, None)
            if not sockets:
                self.sockets.pop(game_id, None)
                self.told.pop(game_id, None)
            await self._presence(game_id, seat)


async def socket(websocket: WebSocket) -> None:
    """``GET /api/games/{id}/live``: see the module's description."""
    hub: Hub = websocket.state.live
    await hub.serve(websocket)


def _expire(store: Store) -> Callable[[Game], bool]:
    """The turn clock's move, or, with no clock, the absent person's seat to the AI."""
    def change(game: Game) -> bool:
        now = clock()
        if game.expire(now):
            return True
        if not game.check_absent(now, store.presence(game.id)):
            raise Refused("nothing to do")  # nothing is written
        return True
    return change


def _close_idle(game: Game) -> bool:
    if game.closed or game.is_over:
        return False
    game.close(clock())
    return True


def _close_waiting(before: float) -> Callable[[Game], bool]:
    """Close a table still waiting for its people, untouched since *before*."""
    def change(game: Game) -> bool:
        if game.started or game.closed or game.updated >= before:
            return False
        game.close(clock())
        return True
    return change


async def _each(writer: Writer, game_ids: list[str], change: Callable[[Game], bool]) -> None:
    """*change* on each game; one that fails (a damaged row …) is logged and the others go on."""
    for game_id in game_ids:
        try:
            await writer.update(game_id, change)
        except Refused:  # nothing to do after all (another process did it)
            continue
        except Exception as error:  # one game's failure must not stop the sweep
            log.warning("kowah: housekeeping, game %s: %s", game_id[:64], str(error)[:200])


async def _housekeeping(hub: Hub, writer: Writer, settings: Settings) -> None:
    """Turn clocks every :data:`TICK`; idle and waiting tables, old games and presence every
    :data:`SWEEP` seconds. A game that fails does not stop the others."""
    store, off_loop = hub.store, hub.threads.run
    last_sweep = 0.0
    while True:
        try:
            now = clock()
            await _each(writer, await off_loop(store.due, now), _expire(store))
            if now - last_sweep >= SWEEP:
                last_sweep = now
                await _each(writer, await off_loop(store.idle, now - settings.idle_timeout),
                            _close_idle)
                before = now - settings.unjoined_timeout
                await _each(writer, await off_loop(store.waiting, before),
                            _close_waiting(before))
                await off_loop(store.set_aside_broken)
                await off_loop(store.tidy, now - max(settings.idle_timeout, 3600))
                await off_loop(store.heartbeat, hub.worker)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a database hiccup: try again on the next tick
            log.warning("kowah: housekeeping: %s", str(error)[:200])
        await asyncio.sleep(TICK)
