"""Nobody stalls or locks out the others (issue 28): places shared fairly between client
addresses, tables nobody joined closed, X-Forwarded-For only from a trusted proxy, a request
budget per seat, the new-game limit kept in the store, and a damaged row failing only its own
game. The HTTP tests call from several client addresses (127.0.0.x)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from webtools import Json, TestClient, act, client, from_address, key, new_game, store_of

from kowah.web import live
from kowah.web.app import Settings, create_app
from kowah.web.game import Game
from kowah.web.saved import GameError, restore, saved_data
from kowah.web.store import open_store
from kowah.web.store_sqlite import SQLiteStore

LIVE = "ws://127.0.0.1:8000/api/games/{}/live"


class at:  # (reads as a phrase: at(c, address).post(...))
    """*c*'s requests, from the client *address* (one running application)."""

    def __init__(self, c: TestClient, address: str, **headers: str) -> None:
        self.c, self.headers = c, from_address(address, **headers)

    def post(self, url: str, **options: Any) -> Any:
        return self.c.post(url, headers=self.headers, **options)


def _damage(store: SQLiteStore, sql: str, *params: object) -> None:
    """Change rows behind the store's back, as a broken disk or another program would."""
    with sqlite3.connect(store.path) as connection:
        connection.execute(sql, params)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    opened = open_store(f"sqlite://{tmp_path / 'games.sqlite3'}")
    assert isinstance(opened, SQLiteStore)
    yield opened
    opened.close()


# -- fair places ------------------------------------------------------------------------------

def test_1200_unjoined_tables_from_20_addresses_leave_a_place_for_a_21st_at_once() -> None:
    with client() as c:
        answers: dict[int, int] = {}
        for _ in range(60):  # the addresses take turns, as people at once would
            for address in range(10, 30):
                status = at(c, f"127.0.0.{address}").post("/api/games", json={"humans": 3}).status_code
                answers[status] = answers.get(status, 0) + 1
        store = store_of(c)
        assert answers == {201: 1200} and store.playing() == 1000
        for newcomer in ("127.0.0.99", "127.0.0.3"):
            answer = at(c, newcomer).post("/api/games", json={})
            assert answer.status_code == 201, answer.text
        assert store.playing() == 1000  # each took the place of a table nobody joined


def test_a_table_nobody_joined_gives_way_before_a_game_in_play(store: SQLiteStore) -> None:
    small = open_store(f"sqlite://{store.path}", max_games=4)
    playing = [small.add(Game.new(seed=n, opponents="random", owner="a")) for n in range(3)]
    waiting = small.add(Game.new(seed=9, opponents="random", owner="a", humans=2))
    small.add(Game.new(seed=10, opponents="random", owner="b"))
    assert small.peek(waiting.id)[1] == "closed"  # type: ignore[index]
    assert [small.peek(game.id)[1] for game in playing] == ["playing"] * 3  # type: ignore[index]
    small.close()


def test_places_are_shared_evenly_then_full(store: SQLiteStore) -> None:
    small = open_store(f"sqlite://{store.path}", max_games=6)
    for n in range(6):
        small.add(Game.new(seed=n, opponents="random", owner="abc"[n % 3]))
    from kowah.web.store import StoreFullError

    small.add(Game.new(seed=7, opponents="random", owner="d"))  # "a" held 2, now 1
    with pytest.raises(StoreFullError):  # d holds 1, a, b and c at most 2: no one gives way
        small.add(Game.new(seed=8, opponents="random", owner="d"))
    small.close()


def test_a_table_still_waiting_is_closed_after_the_unjoined_timeout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with client(unjoined_timeout=600) as c:
        waiting = new_game(c, humans=2)
        solo = new_game(c, seed=1)
        with c.websocket_connect(LIVE.format(waiting["id"])) as socket:
            socket.send_json({})
            assert socket.receive_json()["type"] == "hello"
            monkeypatch.setattr(live, "clock", lambda: time.time() + 601)
            while socket.receive_json().get("status") != "closed":
                pass
        assert c.get(f"/api/games/{solo['id']}").json()["status"] == "playing"


# -- client addresses -------------------------------------------------------------------------

def test_x_forwarded_for_counts_only_from_a_trusted_proxy() -> None:
    with client(max_new_per_minute=2) as c:
        direct = [at(c, "127.0.0.5", **{"x-forwarded-for": f"198.51.100.{n}"}).post(
            "/api/games", json={}).status_code for n in range(3)]
        assert direct == [201, 201, 429]  # the header is the client's own: ignored
    with client(max_new_per_minute=2, trust_proxies=["127.0.0.5"]) as c:
        behind = [at(c, "127.0.0.5", **{"x-forwarded-for": f"203.0.113.9, 198.51.100.{n}"}).post(
            "/api/games", json={}) for n in range(3)]
        assert [answer.status_code for answer in behind] == [201, 201, 201]
        store = store_of(c)
        assert [getattr(store.get(answer.json()["id"]), "owner", None) for answer in behind] == [
            "198.51.100.0", "198.51.100.1", "198.51.100.2"]


def test_trusted_proxies_must_be_addresses() -> None:
    with pytest.raises(ValueError, match="trust_proxies must be an IP address"):
        Settings(trust_proxies=["proxy.example"])
    assert Settings(trust_proxies=["::0001"]).trust_proxies == ("::1",)


# -- request budgets --------------------------------------------------------------------------

def test_one_seats_stale_requests_do_not_spend_another_seats_budget() -> None:
    with client(max_actions=5) as c:
        game = new_game(c, humans=2, start="now", first=0, seed=3, opponents="random")
        assert c.post(f"/api/games/{game['id']}/join", json={}, headers=key(game, 1)).status_code == 200
        state = c.get(f"/api/games/{game['id']}", headers=key(game, 0)).json()
        stale = {"do": "draw", "after": 0}
        answers = [c.post(f"/api/games/{game['id']}/actions", json=stale, headers=key(game, 1))
                   for _ in range(6)]
        assert [answer.status_code for answer in answers] == [409] * 5 + [429]
        assert answers[-1].json()["error"] == "too-many-actions"
        moved = act(c, state, state["legal"][0], key(game, 0))
        assert moved.status_code == 200, moved.text


# -- the new-game limit -----------------------------------------------------------------------

def test_the_new_game_limit_holds_across_processes_on_one_database(store: SQLiteStore) -> None:
    second = open_store(f"sqlite://{store.path}")  # as another --workers process has it
    with client(store, max_new_per_minute=3) as one, client(second, max_new_per_minute=3) as two:
        statuses = [one.post("/api/games", json={}).status_code,
                    two.post("/api/games", json={}).status_code,
                    one.post("/api/games", json={}).status_code,
                    two.post("/api/games", json={}).status_code]
        assert statuses == [201, 201, 201, 429]
        assert at(two, "127.0.0.7").post("/api/games", json={}).status_code == 201
    second.close()


def test_refused_creations_do_not_count_against_the_limit() -> None:
    with client(max_new_per_minute=3) as c:
        assert {c.post("/api/games", json={"humans": 9}).status_code for _ in range(10)} == {400}
        assert [c.post("/api/games", json={}).status_code for _ in range(4)] == [201, 201, 201, 429]


# -- damaged rows -----------------------------------------------------------------------------

def _first_move(c: TestClient, state: Json) -> tuple[int, Json]:
    answer = act(c, state, state["legal"][0], key(state))
    return answer.status_code, answer.json()


def test_a_damaged_row_fails_only_its_own_game_among_40_others_at_once(store: SQLiteStore) -> None:
    with client(store, max_new_per_minute=1000) as c:
        games = [new_game(c, seed=n, opponents="random") for n in range(41)]
        damaged, others = games[0], games[1:]
        _damage(store, "UPDATE games SET stamp = 'x' WHERE id = ?", damaged["id"])
        with ThreadPoolExecutor(max_workers=41) as pool:
            for _ in range(3):
                results = list(pool.map(lambda state: _first_move(c, state), games))
                assert all(status == 500 and body["error"] == "unreadable" for status, body in results[:1])
                assert [status for status, _ in results[1:]] == [200] * 40, results[1:]
                games = [damaged] + [{**body, "token": game["token"]}
                                     for (_, body), game in zip(results[1:], games[1:], strict=True)]
        answer = c.get(f"/api/games/{damaged['id']}", params={"lang": "it"})
        assert answer.status_code == 500 and answer.json()["error"] == "unreadable"
        assert all(c.get(f"/api/games/{game['id']}").status_code == 200 for game in others)


def test_housekeeping_goes_on_past_a_damaged_row(store: SQLiteStore,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    with client(store, max_new_per_minute=1000) as c:
        games = [new_game(c, seed=n, opponents="random") for n in range(12)]
        for game in games[3:5]:
            _damage(store, "UPDATE games SET stamp = 'x' WHERE id = ?", game["id"])
        _damage(store, "UPDATE games SET data = '[1]' WHERE id = ?", games[7]["id"])
        last = games[-1]
        with c.websocket_connect(LIVE.format(last["id"])) as socket:
            socket.send_json({})
            assert socket.receive_json()["type"] == "hello"
            monkeypatch.setattr(live, "clock", lambda: time.time() + 86401)
            while socket.receive_json().get("status") != "closed":
                pass
        good = [game for n, game in enumerate(games) if n not in (3, 4, 7)]
        for game in good:  # the sweep went on to the end, the last game included
            assert c.get(f"/api/games/{game['id']}").json()["status"] == "closed"
        deadline = time.monotonic() + 10
        while store.playing() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.playing() == 0  # the damaged rows hold no places


def test_a_restored_game_whose_keys_are_not_unique_is_refused() -> None:
    game = Game.new(seed=1, opponents="random", humans=2)
    saved = saved_data(game)
    saved["kowah-web"]["seats"][1]["token"] = saved["kowah-web"]["seats"][0]["token"]
    with pytest.raises(GameError, match="two seats share a key"):
        restore(saved)


# -- connections that end badly -------------------------------------------------------------

def test_a_client_leaving_mid_body_is_one_short_log_line(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app()
    sent: list[dict[str, Any]] = []
    messages: Iterator[dict[str, Any]] = iter([{"type": "http.request", "body": b'{"hum', "more_body": True},
                     {"type": "http.disconnect"}])

    async def receive() -> dict[str, Any]:
        return next(messages)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games", "raw_path": b"/api/games",
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "server": ("127.0.0.1", 8000), "client": ("127.0.0.4", 5000), "app": app,
             "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"),
                         (b"content-length", b"100")]}

    async def run() -> None:  # the application's lifespan runs around the request, as in a server
        async with app.router.lifespan_context(app) as state:
            await app({**scope, "state": dict(state or {})}, receive, send)  # type: ignore[arg-type]

    with caplog.at_level(logging.INFO):
        asyncio.run(run())
    lines = [record for record in caplog.records if record.name.startswith(("kowah", "uvicorn"))]
    assert len(lines) == 1 and lines[0].levelno == logging.INFO and lines[0].exc_info is None
    assert "left before sending the whole request" in lines[0].getMessage()
    assert len(lines[0].getMessage().splitlines()) == 1


def test_a_binary_frame_after_the_first_message_closes_the_socket_with_4400() -> None:
    from starlette.websockets import WebSocketDisconnect

    with client() as c:
        game = new_game(c, seed=1)
        with c.websocket_connect(LIVE.format(game["id"])) as socket:
            socket.send_json({})
            assert socket.receive_json()["type"] == "hello"
            socket.send_bytes(b"\x00\x01")
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    socket.receive_json()
            assert closed.value.code == 4400
