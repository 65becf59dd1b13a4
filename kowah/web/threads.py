"""The one way off the event loop: game work (reading and changing games, the store's calls,
the review's replay and coaching) runs in :func:`off_loop`, at most :data:`GAME_THREADS` at a
time per event loop. The changes themselves go to the writer's thread
(:class:`~kowah.web.writer.Writer`); everything else that must not block the loop comes here.

>>> import asyncio
>>> asyncio.run(off_loop(sum, [1, 2, 3]))
6
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

__all__ = ["GAME_THREADS", "off_loop"]

T = TypeVar("T")

#: Worker threads for game work, per event loop: a few suffice (the GIL runs one at a time, and
#: the store's writes take turns); many would only take turns with more switching.
GAME_THREADS = 6

# Each event loop's limiter, dropped with its loop (an application may run on several loops,
# one after another, as the tests' clients do).
_LIMITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary())


async def off_loop(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """*function*'s result, called in one of the :data:`GAME_THREADS` threads of this loop."""
    loop = asyncio.get_running_loop()
    limiter = _LIMITERS.get(loop)
    if limiter is None:
        limiter = _LIMITERS[loop] = anyio.CapacityLimiter(GAME_THREADS)
    call = functools.partial(function, *args, **kwargs) if kwargs else function
    return await anyio.to_thread.run_sync(call, *args if not kwargs else (), limiter=limiter)
