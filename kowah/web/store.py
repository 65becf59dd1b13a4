"""Where the browser table keeps its games: in memory, and as record files in a directory.

Each game is saved after each change as ``<id>.json``: a ``kowah-record/1`` object with the
extra keys that restore it (its seed, opponents, language; see :meth:`Game.saved
<kowah.web.game.Game.saved>`). The file is written to a temporary name and renamed over the
old one (see :meth:`Store.save`), so a crash leaves either the old file or the new one, never half.
A store opened on the directory again restores every game exactly.

The store is bounded: at most *max_games* games live at once. A new game first makes room by
dropping the games that ended longest ago; when every game is still being played,
:class:`StoreFullError` is raised (the server answers 503).

>>> import tempfile
>>> from kowah.web.game import Game
>>> folder = tempfile.mkdtemp()
>>> store = Store(folder)
>>> game = store.add(Game.new(seed=1, opponents="random"))
>>> store.flush()  # the writer thread has put it on disk
>>> Store(folder).get(game.id).state() == game.state()
True
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
import threading
from pathlib import Path

from kowah.errors import N_, KowahError
from kowah.web.game import Game

__all__ = ["ID_PATTERN", "Store", "StoreFullError", "default_data_dir"]

log = logging.getLogger("kowah.web")


class StoreFullError(KowahError):
    """The store has no place for a new game: every place is taken by a game still in play
    (the server answers 503)."""

#: What a game id looks like (``secrets.token_urlsafe(16)``); anything else is unknown.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def default_data_dir() -> Path:
    """The per-user folder for saved games (``$XDG_DATA_HOME/kowah/games`` and the like)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "kowah" / "games"


class Store:
    """The games of one server: *directory* ``None`` keeps them in memory only.

    With *background* (the default), :meth:`save` only notes the game, and a writer thread
    writes its text a moment later (taking the game's lock, so the text is whole): a request
    never waits for the disk, and a game saved again before the writer reaches it is written
    once. :meth:`flush` waits
    until everything is written and :meth:`close` also stops the writer (``kowah serve`` does
    both when it stops). Without *background* every save is written before it returns.
    """

    def __init__(self, directory: str | os.PathLike[str] | None, *, max_games: int = 1000,
                 fsync: bool = False, background: bool = True) -> None:
        self.directory = None if directory is None else Path(directory)
        self.max_games = max_games
        self.fsync = fsync
        self._games: dict[str, Game] = {}
        self._lock = threading.Lock()
        # The writer: games waiting to be written, by id, and the id being written.
        self._pending: dict[str, Game] = {}
        self._writing: str | None = None
        self._changed = threading.Condition()
        self._writer: threading.Thread | None = None
        self._closed = False
        self.background = background
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._restore()

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def _restore(self) -> None:
        assert self.directory is not None
        for path in sorted(self.directory.glob("*.json")):
            try:
                game = Game.restore(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError, KowahError) as error:
                log.warning("kowah: cannot restore %s (%s); left as it is", path, error)
                continue
            if game.id != path.stem or not ID_PATTERN.match(game.id):
                log.warning("kowah: %s holds game %r; left as it is", path, game.id)
                continue
            self._games[game.id] = game

    def get(self, game_id: str) -> Game | None:
        """The game with this id, or ``None``."""
        if not ID_PATTERN.match(game_id):
            return None
        return self._games.get(game_id)

    def add(self, game: Game) -> Game:
        """Keep and save a new *game*; make room first (see the module's description)."""
        with self._lock:
            if len(self._games) >= self.max_games:
                self._make_room()
            self._games[game.id] = game
        self.save(game)
        return game

    def _make_room(self) -> None:
        finished = sorted((game for game in self._games.values() if game.is_over),
                          key=lambda game: game.updated)
        if not finished:
            raise StoreFullError(
                N_("error", "the table is full: all {count} places hold games still in play"),
                count=self.max_games,
            )
        excess = len(self._games) - self.max_games + 1
        for game in finished[:max(1, excess)]:
            self.forget(game.id)

    def forget(self, game_id: str) -> None:
        """Drop a game and its file."""
        self._games.pop(game_id, None)
        if self.directory is None:
            return
        with self._changed:
            self._pending.pop(game_id, None)
            while self._writing == game_id:
                self._changed.wait()
            with contextlib.suppress(FileNotFoundError):
                (self.directory / f"{game_id}.json").unlink()

    def save(self, game: Game) -> None:
        """Save *game* (see the class description). Nothing happens without a directory.

        Without *background*, callers hold the game's lock, so that its text is taken whole.
        """
        if self.directory is None:
            return
        if not self.background:
            self._write(game.id, _text(game))
            return
        with self._changed:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._pending[game.id] = game
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, name="kowah-store",
                                                daemon=True)
                self._writer.start()
            self._changed.notify_all()

    def flush(self) -> None:
        """Wait until every save so far is on disk."""
        with self._changed:
            while self._pending or self._writing is not None:
                self._changed.wait()

    def close(self) -> None:
        """Write what is pending, then stop the writer."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        if self._writer is not None:
            self._writer.join()

    def _write_loop(self) -> None:
        while True:
            with self._changed:
                while not self._pending and not self._closed:
                    self._changed.wait()
                if not self._pending:
                    return
                game_id = next(iter(self._pending))
                game = self._pending.pop(game_id)
                self._writing = game_id
            try:
                with game.lock:
                    data = _text(game)
                self._write(game_id, data)
            except OSError as error:  # a full disk must not stop the table; say so
                log.error("kowah: cannot save game %s: %s", game_id, error)
            finally:
                with self._changed:
                    self._writing = None
                    self._changed.notify_all()

    def _write(self, game_id: str, data: bytes) -> None:
        """Write a game's file atomically: to ``.<id>.tmp``, then renamed over ``<id>.json``.

        A crash leaves the old file or the new one, never half of one. With ``fsync=True`` the
        file is also forced to the disk before the rename, which survives a power cut too.
        """
        assert self.directory is not None
        target = self.directory / f"{game_id}.json"
        temporary = self.directory / f".{game_id}.tmp"
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(handle, view):]
                if self.fsync:
                    os.fsync(handle)
            finally:
                os.close(handle)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


def _text(game: Game) -> bytes:
    """The file of *game* (:meth:`Game.saved <kowah.web.game.Game.saved>` as compact JSON)."""
    return json.dumps(game.saved(), separators=(",", ":")).encode()
