"""The one way off the event loop: game work (reading and changing games, the store's calls,
the review's replay and coaching) runs in :meth:`GameThreads.run`, at most :data:`GAME_THREADS`
calls at a time. The application's lifespan makes one :class:`GameThreads` and hands it to the
endpoints (``request.state.threads``) with the rest of the server's state; the changes
themselves go to the writer's thread (:class:`~kowah.web.writer.Writer`); everything else that
must not block the loop comes here.

>>> import asyncio
>>> async def main() -> int:
...     return await GameThreads().run(sum, [1, 2, 3])
>>> asyncio.run(main())
6
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

__all__ = ["GAME_THREADS", "GameThreads"]

T = TypeVar("T")

#: Worker threads for game work: a few suffice (the GIL runs one at a time, and the store's
#: writes take turns); many would only take turns with more switching.
GAME_THREADS = 6


class GameThreads:
    """At most *size* calls at a time in worker threads, for one running application (make it
    on the event loop that uses it: the lifespan does)."""

    def __init__(self, size: int = GAME_THREADS) -> None:
        self.size = size
        self._limiter = anyio.CapacityLimiter(size)

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """*function*'s result, called in one of the worker threads."""
        call = functools.partial(function, *args, **kwargs) if kwargs else function
        return await anyio.to_thread.run_sync(call, *args if not kwargs else (),
                                              limiter=self._limiter)
