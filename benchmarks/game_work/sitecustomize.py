"""The game's own work inside a benchmarked ``kowah serve`` (``benchmarks/web.py`` only).

``benchmarks/web.py`` starts the server with this folder on ``PYTHONPATH`` and
``KOWAH_GAME_WORK`` naming a folder: Python then imports this module at start-up in the server
and in each of its ``--workers`` processes. It adds up the CPU time (each thread's own) that the
process spends in the game's own work, the parts the benchmark's baseline times in its own
process: the action and the AIs' replies (:meth:`Game.act <kowah.web.game.Game.act>`), the
state the answer holds (:meth:`Game.state <kowah.web.game.Game.state>`), the saved text
(:func:`~kowah.web.saved.saved_text`) and the answer's JSON (:func:`~kowah.web.answers.encode`);
and, as the run makes new games too, the deal and the AIs' moves before the person's first
turn (:meth:`Game.new <kowah.web.game.Game.new>`). A call inside another of them counts once.
The process writes its account, ``{"asked": N, "seconds": S}``, to ``PID.json`` in that folder
at start-up and on each ``SIGRTMIN`` (*N*: how many times it was asked; not ``SIGUSR1``, which
uvicorn's supervisor of ``--workers`` takes for itself). Nothing in the package reads or knows
of this.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_FOLDER = os.environ.get("KOWAH_GAME_WORK")


class _Account:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lock = threading.Lock()
        self.seconds = 0.0
        self.asked = 0
        self.local = threading.local()

    def timed(self, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            depth = getattr(self.local, "depth", 0)
            if depth:
                return function(*args, **kwargs)
            self.local.depth = 1
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.thread_time() - start
                self.local.depth = 0
                with self.lock:
                    self.seconds += spent

        return wrapper

    def report(self, signum: int = 0, frame: object = None) -> None:
        with self.lock:
            self.asked += 1 if signum else 0
            text = json.dumps({"asked": self.asked, "seconds": self.seconds})
        path = self.folder / f"{os.getpid()}.json"
        partial = path.with_suffix(".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)


def _install(folder: Path) -> None:
    from kowah.web import answers, api, game, saved, store_sql

    account = _Account(folder)
    timed_saved, timed_encode = account.timed(saved.saved_text), account.timed(answers.encode)
    patches: list[tuple[object, str, object]] = [
        (game.Game, "new", classmethod(account.timed(vars(game.Game)["new"].__func__))),
        (game.Game, "act", account.timed(game.Game.act)),
        (game.Game, "state", account.timed(game.Game.state)),
        # The modules that imported these functions by name get the timed ones too.
        (saved, "saved_text", timed_saved), (store_sql, "saved_text", timed_saved),
        (answers, "encode", timed_encode), (api, "encode", timed_encode)]
    for owner, name, timed in patches:
        setattr(owner, name, timed)
    signal.signal(signal.SIGRTMIN, account.report)
    account.report()  # the account's first file says that this process may be asked


if _FOLDER:
    _install(Path(_FOLDER))
