"""One store test suite, run against both stores: SQLite (embedded) and PostgreSQL (a private
server that the suite starts; see ``webtools``). Then what only the embedded store has: the
first edition's files imported, a bad row, a full and a read-only disk."""

from __future__ import annotations

import json
import logging
import queue
import resource
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from webtools import (  # noqa: F401 - postgres_url: the fixture
    act,
    client,
    empty_postgres,
    key,
    need_postgres,
    postgres_cluster,
    postgres_url,
    start_postgres,
    stop_postgres,
)

from kowah.i18n import translator
from kowah.web.game import Game
from kowah.web.problems import MORE_ERRORS
from kowah.web.saved import GameError, restore, saved_data
from kowah.web.store import (
    ANY_GAME,
    ENDED_CACHE,
    NotSavedError,
    Refused,
    StoreError,
    StoreFullError,
    UnreadableGameError,
    import_files,
    open_store,
)
from kowah.web.store_sql import SQLStore
from kowah.web.store_sqlite import SQLiteStore

Opener = Callable[..., SQLStore]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens stores on one fresh database (each call a new store, as another process would)."""
    if request.param == "sqlite":
        url = f"sqlite://{tmp_path / 'games.sqlite3'}"
    else:
        url = empty_postgres(request.getfixturevalue("postgres_url"))
    opened: list[SQLStore] = []

    def open_one(max_games: int = 1000) -> SQLStore:
        store = open_store(url, max_games=max_games)
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


def test_a_skipped_store_test_says_why_in_the_summary(tmp_path: Path) -> None:
    """Without PostgreSQL the suite says so at its end (the project's pytest options)."""
    import sys

    root = Path(__file__).resolve().parent.parent
    (tmp_path / "test_x.py").write_text(
        "import pytest\n\ndef test_x():\n    pytest.skip('PostgreSQL store tests did not run: no "
        "PostgreSQL server binaries')\n")
    result = subprocess.run([sys.executable, "-m", "pytest", "-c", str(root / "pyproject.toml"),
                             "--rootdir", str(tmp_path), "-p", "no:cacheprovider",
                             "-p", "no:xdist", str(tmp_path / "test_x.py")],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    summary = result.stdout.split("short test summary info")[-1]
    assert "SKIPPED" in summary and "PostgreSQL store tests did not run" in summary, result.stdout


def a_game(seed: int = 1, owner: str = "a", **options: object) -> Game:
    return Game.new(seed=seed, opponents="random", owner=owner, **options)  # type: ignore[arg-type]


def first_move(game: Game) -> int:
    """The acting seat's first legal action; the new version."""
    actor = game.actor
    assert actor is not None
    game.act(game.legal(actor)[0])
    return game.version


def test_a_game_is_kept_and_read_back_by_another_process(opener: Opener) -> None:
    store = opener()
    game = store.add(a_game())
    other = opener()
    assert other.get(game.id) is not None
    assert other.get(game.id).state(seat=0) == game.state(seat=0)  # type: ignore[union-attr]
    assert other.get("AAAAAAAAAAAAAAAAAAAAAA") is None and other.get("../x") is None
    assert len(other) == 1 and other.peek(game.id) == (game.version, "playing", None)


def test_a_change_is_committed_before_update_returns(opener: Opener) -> None:
    store = opener()
    game = store.add(a_game())
    version = store.update(game.id, first_move)
    assert version is not None and version > game.state(seat=0)["version"] - 1
    fresh = opener().get(game.id)
    assert fresh is not None and fresh.version == version
    assert store.update("AAAAAAAAAAAAAAAAAAAAAA", lambda g: 1) is None


def test_only_a_few_ended_games_are_kept_in_the_process(opener: Opener) -> None:
    """Games in play are shared by the process's requests; of the games that ended, only the
    latest :data:`~kowah.web.store.ENDED_CACHE` are (fewer objects for the collector), the
    others are read back from the database when asked for."""
    store = opener()
    games = [store.add(a_game(seed=seed, owner=str(seed))) for seed in range(ENDED_CACHE + 1)]
    shared = [store.get(game.id) for game in games]
    assert [store.get(game.id) for game in games] == shared and None not in shared
    for game in games:
        store.update(game.id, lambda g: g.close())
    kept = [store.get(game.id) for game in games[1:]]
    assert all(a is b for a, b in zip(kept, shared[1:], strict=True))
    oldest = store.get(games[0].id)  # read back from the database
    assert oldest is not shared[0] and oldest is not None and oldest.closed


def test_a_refused_change_leaves_the_game_as_it_was(opener: Opener) -> None:
    store = opener()
    game = store.add(a_game())
    before = game.state(seat=0)

    def refuse(g: Game) -> None:
        raise Refused("no")

    with pytest.raises(Refused):
        store.update(game.id, refuse)
    assert opener().get(game.id).state(seat=0) == before  # type: ignore[union-attr]


def test_a_failed_write_is_not_saved_and_the_game_is_as_it_was(opener: Opener,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store = opener()
    game = store.add(a_game())
    before = game.state(seat=0)

    def broken(*args: object) -> None:
        raise store.db_errors[0]("disk I/O error")

    monkeypatch.setattr(store, "_write", broken)
    with pytest.raises(NotSavedError):
        store.update(game.id, first_move)
    monkeypatch.undo()
    assert store.get(game.id).state(seat=0) == before  # type: ignore[union-attr]
    assert opener().get(game.id).state(seat=0) == before  # type: ignore[union-attr]


def test_a_batch_of_changes_is_one_transaction_each_change_answered_in_order(opener: Opener) -> None:
    """update_many: each change as update() would make it, in order (a second change of a game
    sees the first), the refused and the failing ones leaving only their own game untouched;
    another process reads every saved change."""
    store = opener()
    games = [store.add(a_game(seed=seed)) for seed in range(3)]
    before = games[1].state(seat=0)

    def refuse(game: Game) -> int:
        raise Refused("no")

    def fail(game: Game) -> int:
        first_move(game)
        raise ZeroDivisionError("a bug")

    outcomes = store.update_many([(games[0].id, first_move), (games[1].id, refuse),
                                  (games[0].id, first_move), (games[2].id, fail),
                                  ("no-such-game-id-00000", first_move), (games[2].id, first_move)])
    assert [error.__class__.__name__ if error else None for _, error in outcomes] == [
        None, "Refused", None, "ZeroDivisionError", None, None]
    version = outcomes[0][0]
    assert outcomes[2][0] > version  # the second change saw the first
    other = opener()
    assert other.get(games[0].id).version == outcomes[2][0]  # type: ignore[union-attr]
    assert other.get(games[1].id).state(seat=0) == before  # type: ignore[union-attr]
    assert store.get(games[2].id).version == outcomes[5][0]  # type: ignore[union-attr]
    assert other.get(games[2].id).version == outcomes[5][0]  # type: ignore[union-attr]
    assert outcomes[4] == (None, None)  # no such game


def test_a_failed_batch_saves_nothing_and_every_change_made_fails(opener: Opener,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    store = opener()
    games = [store.add(a_game(seed=seed)) for seed in range(2)]
    before = [game.state(seat=0) for game in games]

    def refuse(game: Game) -> int:
        raise Refused("no")

    def broken(*args: object) -> None:
        raise store.db_errors[0]("disk I/O error")

    monkeypatch.setattr(store, "_write", broken)
    outcomes = store.update_many([(games[0].id, first_move), (games[1].id, refuse),
                                  (games[1].id, first_move)])
    monkeypatch.undo()
    assert [type(error) for _, error in outcomes] == [NotSavedError, Refused, NotSavedError]
    for game, state in zip(games, before, strict=True):
        assert store.get(game.id).state(seat=0) == state  # type: ignore[union-attr]
        assert opener().get(game.id).state(seat=0) == state  # type: ignore[union-attr]


def test_other_threads_read_a_change_only_once_it_is_saved(opener: Opener,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A game being changed is read by other threads once its change is committed, never half
    way (its lock is held until then)."""
    store = opener()
    game = store.add(a_game())
    before = game.version
    writing, go = threading.Event(), threading.Event()
    write = store._write

    def slow_write(cursor: Any, rows: Any) -> None:
        writing.set()
        assert go.wait(10)
        write(cursor, rows)

    monkeypatch.setattr(store, "_write", slow_write)
    changing = threading.Thread(target=store.update, args=(game.id, first_move))
    changing.start()
    assert writing.wait(10)
    seen: list[int] = []

    def read() -> None:
        found = store.get(game.id)
        assert found is not None
        with found.lock:
            seen.append(found.version)

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(0.3)
    assert seen == []  # waiting for the commit
    go.set()
    changing.join(10)
    reader.join(10)
    assert seen == [opener().get(game.id).version] and seen[0] > before  # type: ignore[union-attr]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts open files in /proc")
def test_threads_that_end_leave_no_connection_open(opener: Opener) -> None:
    """Threads come and go (the writer after a quiet while, the pools' workers): the connection
    each opened is closed once another is made, so a long-running server does not run out of
    files."""
    store = opener()
    game = store.add(a_game())

    def use() -> None:
        store.update(game.id, first_move)

    def files() -> int:
        return len(list(Path("/proc/self/fd").iterdir()))

    for _ in range(3):
        thread = threading.Thread(target=use)
        thread.start()
        thread.join()
    before = files()
    for _ in range(30):
        thread = threading.Thread(target=use)
        thread.start()
        thread.join()
    assert files() <= before + 3


def test_a_change_redone_on_a_game_gone_meanwhile_is_not_reported_saved(opener: Opener) -> None:
    import time

    one, two = opener(), opener()
    game = one.add(a_game(seed=6))
    assert two.get(game.id) is not None

    def meanwhile(g: Game) -> int:  # the other process closes the game, and it is tidied away
        two.update(game.id, lambda other: other.close())
        two.tidy(time.time() + 60)
        return first_move(g)

    assert one.update(game.id, meanwhile) is None
    assert opener().get(game.id) is None


def test_a_reader_waiting_for_a_change_that_fails_reads_the_game_as_saved(opener: Opener) -> None:
    """A change that fails half way leaves its copy of the game changed; whoever waited for
    that copy's lock reads the game again, as it is saved."""
    store = opener()
    game = store.add(a_game())
    before = game.version
    inside, go = threading.Event(), threading.Event()

    def failing(g: Game) -> None:
        first_move(g)
        inside.set()
        assert go.wait(10)
        raise ZeroDivisionError("a bug")

    def change() -> None:
        with pytest.raises(ZeroDivisionError):
            store.update(game.id, failing)

    changing = threading.Thread(target=change)
    changing.start()
    assert inside.wait(10)
    seen: list[int | None] = []
    reader = threading.Thread(target=lambda: seen.append(store.read(game.id, lambda g: g.version)))
    reader.start()
    reader.join(0.2)
    go.set()
    changing.join(10)
    reader.join(10)
    assert seen == [before]


def test_a_read_inside_a_redone_change_keeps_the_game_locked(opener: Opener) -> None:
    """A change made again under the write lock may read (who is connected): the read does not
    end the transaction, so the other process still waits for it and nothing is overwritten."""
    one, two = opener(), opener()
    game = one.add(a_game(seed=7))
    assert two.get(game.id) is not None
    tries: list[int] = []
    done = threading.Event()

    def other_moves() -> None:
        two.update(game.id, first_move)
        done.set()

    def change(g: Game) -> int:
        tries.append(g.version)
        if len(tries) == 1:
            two.update(game.id, first_move)  # the first try is stale: made again, locked
        else:
            one.presence(game.id)
            threading.Thread(target=other_moves, daemon=True).start()
            assert not done.wait(0.3)  # the other process waits for this transaction
        return first_move(g)

    one.update(game.id, change)
    assert done.wait(30)
    alone = a_game(seed=7)
    for _ in range(3):
        first_move(alone)
    assert opener().get(game.id).deal.history == alone.deal.history  # type: ignore[union-attr]


def behind_a_slow_change(store: SQLStore, first: str,
                         rest: list[tuple[str, Callable[[Game], Any]]]) -> list[Any]:
    """Through a writer: the first move on game *first*, held until the *rest* of the changes
    are queued behind it; every result (or error), in order."""
    import asyncio

    from kowah.web.writer import Writer

    writer = Writer(store)
    gate, started = threading.Event(), threading.Event()

    def slow(game: Game) -> int:
        started.set()
        assert gate.wait(10)
        return first_move(game)

    async def main() -> list[Any]:
        held = asyncio.ensure_future(writer.update(first, slow))
        assert await asyncio.to_thread(started.wait, 10)  # the writer is in the first change now
        queued = [asyncio.ensure_future(writer.update(game_id, change)) for game_id, change in rest]
        await asyncio.sleep(0)  # each queued change's first step: it is handed to the writer
        gate.set()
        return await asyncio.wait_for(asyncio.gather(held, *queued, return_exceptions=True), 10)

    try:
        return asyncio.run(main())
    finally:
        writer.close()


def test_a_change_raising_stopiteration_fails_alone(opener: Opener) -> None:
    """A future cannot carry StopIteration: its caller gets a RuntimeError, and the other
    changes of the batch are answered."""
    store = opener()
    games = [store.add(a_game(seed=seed)) for seed in range(3)]

    def stop(game: Game) -> None:
        raise StopIteration

    results = behind_a_slow_change(store, games[0].id, [(games[1].id, stop), (games[2].id, first_move)])
    assert isinstance(results[1], RuntimeError) and "StopIteration" in str(results[1])
    assert results[2] == opener().get(games[2].id).version  # type: ignore[union-attr]


def test_the_writer_commits_changes_that_arrive_together_in_one_transaction(opener: Opener) -> None:
    """While one change is being written, the others wait and then go in one transaction
    (a group commit); each caller gets its own result or error."""
    store = opener()
    games = [store.add(a_game(seed=seed)) for seed in range(12)]
    batches: list[int] = []
    update_many = store.update_many

    def counted(changes: Any) -> Any:
        batches.append(len(changes))
        return update_many(changes)

    store.update_many = counted  # type: ignore[method-assign]

    def refuse(game: Game) -> int:
        raise Refused(game.id)

    results = behind_a_slow_change(store, games[0].id, [
        (game.id, refuse if index == 3 else first_move) for index, game in enumerate(games[1:], 1)])
    assert batches == [1, 11]
    assert isinstance(results[3], Refused) and str(results[3]) == games[3].id
    other = opener()
    for index, (game, result) in enumerate(zip(games, results, strict=True)):
        if index != 3:
            assert result == game.version == other.get(game.id).version > 0  # type: ignore[union-attr]


def test_a_closed_writer_refuses_changes_after_saving_those_handed_in(opener: Opener) -> None:
    import asyncio

    from kowah.web.writer import Writer

    store = opener()
    game = store.add(a_game())
    writer = Writer(store, idle=0.05)

    async def main() -> int | None:
        return await writer.update(game.id, first_move)

    assert asyncio.run(main()) == opener().get(game.id).version  # type: ignore[union-attr]
    for _ in range(100):  # the idle thread ends, and starts again when needed
        if not writer.running:
            break
        threading.Event().wait(0.02)
    assert not writer.running
    assert asyncio.run(main()) == opener().get(game.id).version  # type: ignore[union-attr]
    writer.close()
    with pytest.raises(StoreError, match="closed"):
        asyncio.run(main())


def test_changes_through_two_processes_are_serialised(opener: Opener) -> None:
    """The version check of an action (409) holds across processes: each change that counts
    saw the other's, however the two interleave. A change made on a game that the other
    process changed meanwhile is made again on what it wrote (the first try does not count)."""
    one, two = opener(), opener()
    game = one.add(a_game(seed=4))
    counted: list[int | None] = []
    tries: list[int] = []

    def step(g: Game) -> int:
        tries.append(g.version)
        seen = g.version
        if g.actor is not None:
            first_move(g)
        return seen

    def play(store: SQLStore) -> None:
        for _ in range(5):
            counted.append(store.update(game.id, step))

    threads = [threading.Thread(target=play, args=(store,)) for store in (one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(counted) == 10 and len(set(counted)) == 10  # no two changes saw the same version
    alone = a_game(seed=4)  # the same ten moves, one after the other
    for _ in range(10):
        if alone.actor is not None:
            first_move(alone)
    for store in (one, two, opener()):
        assert store.get(game.id).deal.history == alone.deal.history  # type: ignore[union-attr]
    assert len(tries) >= 10


def test_a_change_made_on_a_game_another_process_changed_is_made_again(opener: Opener) -> None:
    """The changes of a batch are made before the write lock is taken; a game that another
    process wrote meanwhile is read again and its changes made again, in order, on it."""
    one, two = opener(), opener()
    game = one.add(a_game(seed=5))
    assert one.get(game.id) is not None and two.get(game.id) is not None  # both cache it
    tries: list[int] = []

    def meanwhile(g: Game) -> int:
        tries.append(g.version)
        if len(tries) == 1:  # the other process writes between this try and the lock
            two.update(game.id, first_move)
        return first_move(g)

    version = one.update(game.id, meanwhile)
    alone = a_game(seed=5)
    first_move(alone)
    first_move(alone)
    assert len(tries) == 2 and tries[1] > tries[0]  # the second try saw the other's move
    assert version == alone.version == opener().get(game.id).version  # type: ignore[union-attr]
    for store in (one, two):
        assert store.get(game.id).deal.history == alone.deal.history  # type: ignore[union-attr]


def test_a_change_made_on_a_cached_game_another_process_changed_before_is_made_again(
        opener: Opener) -> None:
    """A game in the cache is changed as the cache holds it, without reading its row; when
    another process wrote the game since, the write finds the row at another stamp, and the
    change is made again on what the other process wrote (the first try does not count)."""
    one, two = opener(), opener()
    game = one.add(a_game(seed=5))
    assert two.get(game.id) is not None
    two.update(game.id, first_move)  # one's cached copy is now a move behind
    tries: list[int] = []

    def step(g: Game) -> int:
        tries.append(g.version)
        return first_move(g)

    version = one.update(game.id, step)
    alone = a_game(seed=5)
    first_move(alone)
    first_move(alone)
    assert len(tries) == 2 and tries[1] > tries[0]
    assert version == alone.version
    for store in (one, two, opener()):
        assert store.get(game.id).deal.history == alone.deal.history  # type: ignore[union-attr]


def test_a_change_refused_on_a_cached_game_another_process_changed_is_made_again(
        opener: Opener) -> None:
    """A refusal is not written, so no write checks it: when the change was refused on a cached
    copy whose row another process has changed since, it is made again on the row as it is."""
    one, two = opener(), opener()
    game = one.add(a_game(seed=5))
    assert two.get(game.id) is not None
    after = two.update(game.id, first_move)  # the version a person sees now, through two
    assert after is not None and after > game.version

    def act_after(g: Game) -> int:
        if g.version != after:  # as an action's stale-version check does (409)
            raise Refused(f"the game is at version {g.version}, not {after}")
        return first_move(g)

    alone = a_game(seed=5)
    first_move(alone)
    first_move(alone)
    assert one.update(game.id, act_after) == alone.version
    assert opener().get(game.id).deal.history == alone.deal.history  # type: ignore[union-attr]
    with pytest.raises(Refused):  # and one that is really stale is still refused
        one.update(game.id, act_after)


def test_sqlite_a_change_of_a_cached_game_is_one_statement(tmp_path: Path) -> None:
    """The common case costs one statement: a change of a game in this process's cache reads
    nothing first and is written by one ``UPDATE`` that checks the stamp, in a transaction of
    its own, the note for the other processes added by the database (a trigger)."""
    store = open_store(f"sqlite://{tmp_path / 'games.sqlite3'}")
    assert isinstance(store, SQLiteStore)
    game = store.add(a_game())
    store.update(game.id, first_move)  # the writing thread's connection is made
    said: list[str] = []
    store._connection().set_trace_callback(said.append)
    store.update(game.id, first_move)
    store._connection().set_trace_callback(None)
    # (Python traces a statement again at the start of each trigger it runs.)
    assert len(set(said)) == 1, said
    assert said[0].startswith("UPDATE games SET stamp") and "AND stamp = " in said[0]
    other = open_store(f"sqlite://{tmp_path / 'games.sqlite3'}")
    assert other._query("SELECT game_id FROM changes ORDER BY seq DESC LIMIT 1") == [(game.id,)]
    assert other.get(game.id).version == store.get(game.id).version  # type: ignore[union-attr]
    other.close()
    store.close()


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX's")
def test_sqlite_writers_of_every_process_wait_in_one_file_lock(tmp_path: Path) -> None:
    """Across processes the writers queue in a file lock (woken at once when it is free),
    not in SQLite's own wait (sleeps of up to 100 ms): while another process holds it, a change
    waits; once it is free, the change is made."""
    import fcntl

    store = open_store(f"sqlite://{tmp_path / 'games.sqlite3'}")
    game = store.add(a_game())
    done = threading.Event()
    with open(tmp_path / "games.sqlite3-writer", "ab") as other:
        fcntl.flock(other, fcntl.LOCK_EX)
        def change() -> None:
            store.update(game.id, first_move)
            done.set()

        thread = threading.Thread(target=change)
        thread.start()
        assert not done.wait(0.3)
        fcntl.flock(other, fcntl.LOCK_UN)
    assert done.wait(10)
    thread.join()
    assert store.get(game.id).version > 0  # type: ignore[union-attr]
    store.close()


def test_the_other_process_is_told_of_a_change(opener: Opener) -> None:
    one, two = opener(), opener()
    game = one.add(a_game())
    told = threading.Event()
    two.watch(lambda game_id: told.set() if game_id == game.id else None)
    one.update(game.id, first_move)
    assert told.wait(5)


def test_sqlite_looks_for_the_others_changes_seldom_while_no_one_wants_news(tmp_path: Path) -> None:
    """Each look costs a wake-up of the watcher's thread: while no callback wants news (a server
    with no socket open), the watcher looks once per quiet interval, not at every poll; once
    one wants news, at every poll."""
    path = tmp_path / "games.sqlite3"
    one = SQLiteStore(path)
    two = SQLiteStore(path, poll=0.01, quiet_poll=0.6)
    game = one.add(a_game())
    wanted = threading.Event()
    heard: queue.SimpleQueue[str] = queue.SimpleQueue()
    two.watch(heard.put, wanted=wanted.is_set)
    time.sleep(0.05)  # the watcher's first quiet wait has begun
    start = time.monotonic()
    one.update(game.id, first_move)
    assert heard.get(timeout=5) == game.id
    assert time.monotonic() - start > 0.4  # not at the next poll: at the end of the quiet wait
    wanted.set()
    time.sleep(0.9)  # the last quiet wait is over
    start = time.monotonic()
    one.update(game.id, first_move)
    assert heard.get(timeout=5) == game.id
    assert time.monotonic() - start < 0.4
    one.close()
    two.close()


def test_capacity_the_heaviest_client_makes_room_else_full(opener: Opener) -> None:
    store = opener(max_games=20)
    games = [store.add(a_game(seed=n, owner="greedy")) for n in range(20)]
    newcomer = store.add(a_game(seed=99, owner="newcomer"))  # the greedy client's oldest goes
    assert store.peek(games[0].id)[1] == "closed"  # type: ignore[index]
    assert store.peek(newcomer.id)[1] == "playing"  # type: ignore[index]
    assert store.playing() == 20


def test_full_when_no_client_holds_more_than_its_share(tmp_path: Path) -> None:
    store = open_store(f"sqlite://{tmp_path / 'x.sqlite3'}", max_games=3)
    for n, owner in enumerate("abc"):
        store.add(a_game(seed=n, owner=owner))
    with pytest.raises(StoreFullError):
        store.add(a_game(seed=9, owner="d"))
    store.close()


def test_the_clocks_due_are_found_through_their_index_not_by_reading_every_game(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)  # a database made before games_due: its index on the deadline
    old.executescript("CREATE TABLE games (id TEXT PRIMARY KEY, stamp BIGINT NOT NULL, "
                      "version BIGINT NOT NULL, status TEXT NOT NULL, owner TEXT NOT NULL, "
                      "updated DOUBLE PRECISION NOT NULL, deadline DOUBLE PRECISION, data TEXT NOT NULL);"
                      "CREATE INDEX games_by_deadline ON games (deadline);")
    old.close()
    store = open_store(f"sqlite://{path}")
    clocked = store.add(Game.new(seed=2, opponents="random", humans=2, start_now=True,
                                 turn_seconds=5, now=1000.0, first=0))
    assert store.due(2000.0) == [clocked.id]
    store.close()
    with sqlite3.connect(path) as connection:
        indexes = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'")}
        plan = " ".join(str(row[-1]) for row in connection.execute(  # SQLStore.due's query
            "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = ? AND deadline IS NOT NULL "
            "AND deadline <= ?", ("playing", 2000.0)))
    assert "games_due" in indexes and "games_by_deadline" not in indexes
    assert "USING INDEX games_due (status=? AND deadline" in plan


def test_clocks_idle_games_and_tidying(opener: Opener) -> None:
    store = opener()
    clocked = store.add(Game.new(seed=2, opponents="random", humans=2, start_now=True,
                                 turn_seconds=5, now=1000.0, first=0))
    plain = store.add(a_game(seed=3))
    assert store.due(1004.0) == [] and store.due(2000.0) == [clocked.id]
    assert store.idle(1500.0) == [clocked.id]
    store.update(plain.id, lambda g: g.close())
    store.tidy(10**12)
    assert store.get(plain.id) is None and store.get(clocked.id) is not None


def test_presence_over_processes(opener: Opener) -> None:
    one, two = opener(), opener()
    game = one.add(a_game())
    one.set_presence(game.id, "w1", 0, 1)
    two.set_presence(game.id, "w2", 0, 2)
    two.set_presence(game.id, "w2", 1, 1)
    assert one.presence(game.id) == [3, 1, 0]
    two.heartbeat("w2", gone=True)
    assert one.presence(game.id) == [1, 0, 0]


def test_a_row_that_cannot_be_read_is_reported_and_skipped(opener: Opener,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    store = opener()
    good = store.add(a_game())
    bad = store.add(a_game(seed=5))
    _raw(store, "UPDATE games SET data = ? WHERE id = ?", ('[1,2,3]', bad.id))
    deep = store.add(a_game(seed=6))
    _raw(store, "UPDATE games SET data = ? WHERE id = ?", ("[" * 100_000 + "]" * 100_000, deep.id))
    other = opener()
    with caplog.at_level(logging.WARNING, logger="kowah.web"):
        for damaged in (bad, deep):
            with pytest.raises(UnreadableGameError):
                other.get(damaged.id)
    assert bad.id in caplog.text and "not a JSON object" in caplog.text and deep.id in caplog.text
    assert other.get(good.id) is not None
    assert other.playing() == 3 and other.set_aside_broken() == 2 and other.playing() == 1


def _raw(store: SQLStore, sql: str, params: tuple[object, ...]) -> None:
    """Write a row behind the store's back (as a broken disk or another program would)."""
    if isinstance(store, SQLiteStore):
        with sqlite3.connect(store.path) as connection:
            connection.execute(sql, params)
    else:
        import psycopg

        with psycopg.connect(store.url, autocommit=True) as connection:  # type: ignore[attr-defined]
            connection.execute(sql.replace("?", "%s"), params)


def test_restored_values_are_checked_like_new_ones() -> None:
    game = a_game()
    for field, value in (("opponents", "god"), ("lang", "xx"), ("turn_seconds", 1), ("seed", "1")):
        saved = saved_data(game)
        saved["kowah-web"][field] = value
        with pytest.raises(ValueError, match=field.split("_")[0]):
            restore(saved)
    saved = saved_data(game)
    saved["kowah-web"]["seats"][1]["token"] = "short"
    with pytest.raises(ValueError, match="seat"):
        restore(saved)


def test_a_database_gone_is_a_503_and_no_traceback() -> None:
    """PostgreSQL stops under a running server: reads and changes answer 503 not-saved."""
    need_postgres()
    with postgres_cluster() as url:
        store = open_store(url)
        with client(store) as c:
            game = c.post("/api/games", json={"humans": 2, "seed": 1}).json()
            stop_postgres(url)
            calls: tuple[Callable[[], Any], ...] = (
                lambda: c.get(f"/api/games/{game['id']}", headers=key(game)),
                lambda: act(c, game, {"do": "draw"}, key(game)),
                lambda: c.post("/api/games", json={}))
            for call in calls:
                answer = call()
                assert answer.status_code == 503 and answer.json()["error"] == "not-saved"
            for failing in (lambda: store.presence(game["id"]), lambda: store.tidy(0),
                            lambda: store.set_presence(game["id"], "w", 0, 1)):
                with pytest.raises(StoreError):
                    failing()
        store.close()


def test_a_listener_hears_again_once_the_database_is_back() -> None:
    need_postgres()
    with postgres_cluster() as url:
        writer, watcher = open_store(url), open_store(url)
        heard: queue.Queue[str] = queue.Queue()
        watcher.watch(heard.put)
        game = writer.add(a_game())
        assert heard.get(timeout=10) == game.id
        stop_postgres(url)
        start_postgres(url)
        assert heard.get(timeout=30) == ANY_GAME  # it listens again: anything may have changed
        # Reads and changes connect again at once (the connections of before are lost).
        assert watcher.peek(game.id) is not None
        assert writer.update(game.id, first_move) is not None
        assert heard.get(timeout=10) == game.id
        writer.close()
        watcher.close()


# -- the embedded store only ----------------------------------------------------------------------

def _first_edition_file(folder: Path, seed: int) -> str:
    game = a_game(seed=seed)
    first_move(game)
    data = saved_data(game)
    extra = data["kowah-web"]
    data["kowah-web"] = {key: extra[key] for key in ("id", "seed", "opponents", "lang", "created",
                                                      "updated", "requests")}
    (folder / f"{game.id}.json").write_text(json.dumps(data))
    return game.id


def test_the_first_editions_files_are_imported_once(tmp_path: Path) -> None:
    ids = [_first_edition_file(tmp_path, seed) for seed in (1, 2)]
    (tmp_path / "AAAAAAAAAAAAAAAAAAAAAA.json").write_text("[1, 2, 3]")
    store = open_store(tmp_path)
    assert sorted(g for g in ids if store.get(g) is not None) == sorted(ids)
    game = store.get(ids[0])
    assert game is not None and game.seat_of(ids[0]) == 0  # the id was the first edition's key
    assert game.version >= 2
    store.update(ids[0], lambda g: g.close())
    store.close()
    again = SQLiteStore(tmp_path / "kowah.sqlite3")
    assert import_files(again, tmp_path) == (0, [])  # once: a closed game is not brought back
    assert again.peek(ids[0])[1] == "closed"  # type: ignore[index]
    again.close()
    fresh = SQLiteStore(tmp_path / "other.sqlite3")
    count, skipped = import_files(fresh, tmp_path)
    assert count == 2 and skipped == [("AAAAAAAAAAAAAAAAAAAAAA", "not a JSON object but list")]
    fresh.close()


def test_a_file_the_first_edition_wrote_is_imported_and_plays_on(tmp_path: Path) -> None:
    """tests/golden/web-first-edition.json: a game the first edition's server saved (seed 3,
    five actions of seat 0), whose id was its player's only key."""
    game_id = "WP92TLw8q2Xf3zUcm4LhSQ"
    golden = Path(__file__).parent / "golden" / "web-first-edition.json"
    (tmp_path / f"{game_id}.json").write_bytes(golden.read_bytes())
    store = open_store(tmp_path)
    game = store.get(game_id)
    assert game is not None and game.seat_of(game_id) == 0 and game.version == 17
    state = game.state(seat=0)
    assert state["hand"] == ["5c", "5s", "6c", "6s", "6m", "7m", "8s", "8m", "wf"]
    version = store.update(game_id, first_move)  # it plays on, and is saved in the database
    assert version is not None and version > 17
    store.close()
    again = SQLiteStore(tmp_path / "kowah.sqlite3")
    assert again.peek(game_id) == (version, "playing", None)
    again.close()


def test_sqlite_urls_name_a_path_from_the_root_or_from_here(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    here = open_store("sqlite:here.sqlite3")
    there = open_store(f"sqlite://{tmp_path}/there.sqlite3?synchronous=full")
    assert isinstance(here, SQLiteStore) and isinstance(there, SQLiteStore)
    assert there.pragma("synchronous") == 2
    here.close()
    there.close()
    assert (tmp_path / "here.sqlite3").exists() and (tmp_path / "there.sqlite3").exists()
    for bad in ("sqlite://", "sqlite:///x?synchronous=off", "mysql://db.example/games"):
        with pytest.raises(StoreError):
            open_store(bad)


def test_sqlite_runs_in_wal_mode_with_the_chosen_synchronous(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "a.sqlite3", synchronous="full")
    assert store.pragma("journal_mode") == "wal" and store.pragma("synchronous") == 2
    store.close()


_CLOSE_WHILE_READ = """
import sys, threading, time
from kowah.web.store import StoreError
from kowah.web.store_sql import SQLStore
from kowah.web.store_sqlite import SQLiteStore
for trial in range(25):
    store = SQLiteStore(None)
    started = threading.Barrier(5)
    def read():
        started.wait()
        while True:
            try:
                store.idle(time.time())
            except StoreError:
                return
    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    started.wait()
    store.close()  # as the server's shutdown does, with the sweeper's query in flight
    for thread in threads:
        thread.join()
print("closed", trial + 1)
"""


def test_closing_while_other_threads_read_waits_for_them_then_refuses() -> None:
    # Closing a connection another thread is using crashed the process (a segmentation fault
    # at the server's shutdown); a closed store answers StoreError instead.
    done = subprocess.run([sys.executable, "-c", _CLOSE_WHILE_READ], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["closed", "25"], done.stderr[-2000:]


def _mount(folder: Path, options: str) -> bool:
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                            capture_output=True)
    return result.returncode == 0


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KiB tmpfs (root can mount one), else a file-size limit on this process."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if _mount(folder, "size=512k"):
        try:
            yield folder
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=False)
        return
    old = resource.getrlimit(resource.RLIMIT_FSIZE)
    import signal

    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (512 * 1024, old[1]))
    try:
        yield folder
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, previous)


def test_a_full_disk_refuses_changes_and_keeps_every_saved_one(tiny_disk: Path) -> None:
    store = open_store(tiny_disk)
    kept: dict[str, int] = {}
    refused = 0
    for seed in range(400):
        try:
            game = store.add(a_game(seed=seed, owner=str(seed)))
        except NotSavedError:
            refused += 1
            break
        kept[game.id] = game.version
        try:
            kept[game.id] = store.update(game.id, first_move) or 0
        except NotSavedError:
            refused += 1
            assert store.get(game.id).version == kept[game.id]  # type: ignore[union-attr]
            break
    assert refused == 1, "the disk never filled"
    store.close()
    again = open_store(tiny_disk)
    assert {game_id: again.get(game_id).version for game_id in kept} == kept  # type: ignore[union-attr]
    again.close()


def test_a_full_disk_is_a_503_in_the_players_language_and_the_game_is_unchanged(
        tiny_disk: Path) -> None:
    store = open_store(tiny_disk)
    refused = None
    with client(store, max_new_per_minute=10_000) as c:
        for seed in range(1000):
            created = c.post("/api/games", json={"seed": seed, "opponents": "random"},
                             params={"lang": "es"})
            if created.status_code == 201:
                state = created.json()
                headers = key(state)
            else:  # no new game on a full disk: play on in the last one
                assert created.json()["error"] == "not-saved", created.text
            if state["outcome"] is not None:
                continue
            answer = act(c, state, state["legal"][0], headers, lang="es")
            if answer.status_code == 503:
                refused = answer
                break
            assert answer.status_code == 200, answer.text
            state = answer.json()
        assert refused is not None, "the disk never filled"
        assert refused.json() == {"error": "not-saved", "message": translator("es").gettext(
            "web", MORE_ERRORS["not-saved"])}
        again = c.get(f"/api/games/{state['id']}", headers=headers).json()
        assert again["version"] == state["version"] and again["hand"] == state["hand"]
    store.close()


def test_a_read_only_disk_refuses_every_change(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    if not _mount(folder, "size=1m"):
        pytest.skip("cannot mount a tmpfs here (not root)")
    try:
        store = open_store(folder)
        game = store.add(a_game())
        store.close()
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        with pytest.raises(StoreError):
            open_store(folder).add(a_game(seed=2))
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
    assert game.version > 0


def test_the_stores_errors_are_one_hierarchy_under_the_librarys_and_not_in_the_facade() -> None:
    import pickle

    import kowah
    from kowah.errors import KowahError

    assert issubclass(StoreError, KowahError)
    for kind in (NotSavedError, StoreFullError, UnreadableGameError):
        assert issubclass(kind, StoreError)
    for error in (NotSavedError("disk full"), UnreadableGameError("abc"),
                  StoreFullError("the table is full: all {count} places hold games still in play", count=3)):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error) and copy.reason == error.reason
    assert issubclass(GameError, KowahError) and not issubclass(GameError, StoreError)
    copy = pickle.loads(pickle.dumps(GameError("bad seed")))
    assert type(copy) is GameError and str(copy) == copy.reason == "bad seed"
    assert translator("cs").error(copy).startswith("uloženou hru nelze")
    assert "StoreFullError" not in kowah.__all__ and "StoreFullError" not in dir(kowah)
    with pytest.warns(DeprecationWarning, match="import it from kowah.web.store"):
        assert getattr(kowah, "StoreFullError") is StoreFullError  # noqa: B009
