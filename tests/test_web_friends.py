"""Friends at one table (issue 17): invites, seats taken, the live socket, presence, the turn
clock, leaving; and the limits on new games."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from webtools import BASE, Json, TestClient, act, client, from_address, key, new_game

from kowah.i18n import LANGUAGES, translator
from kowah.web import live
from kowah.web.game import Game
from kowah.web.store import open_store

LIVE = "ws://127.0.0.1:8000/api/games/{}/live"


@pytest.fixture
def c() -> Iterator[TestClient]:
    with client() as test_client:
        yield test_client


def view(c: TestClient, game: Json, seat: int | None, **query: str) -> Json:
    headers = {} if seat is None else key(game, seat)
    response = c.get(f"/api/games/{game['id']}", headers=headers, params=query)
    assert response.status_code == 200, response.text
    state: Json = response.json()
    return state


def join(c: TestClient, game: Json, seat: int, name: str | None = None) -> Any:
    return c.post(f"/api/games/{game['id']}/join", json={} if name is None else {"name": name},
                  headers=key(game, seat))


def test_three_people_take_their_seats_and_each_sees_their_own_hand(c: TestClient) -> None:
    game = new_game(c, humans=3, names=["Ana"], seed=8)
    assert game["status"] == "waiting" and game["to_move"] == [] and game["legal"] == []
    assert [invite["seat"] for invite in game["invites"]] == [1, 2]
    for invite in game["invites"]:
        assert invite["url"] == f"{BASE}/games/{game['id']}#key={invite['token']}"
        assert invite["token"] not in invite["url"].split("#")[0]  # the key is in the fragment
    assert view(c, game, 0)["invites"] == game["invites"]  # a reloaded page shows them again
    early = act(c, game, {"do": "draw"}, key(game))
    assert early.status_code == 409 and early.json()["error"] == "not-started"
    assert join(c, game, 1, "Bo").json()["status"] == "waiting"
    assert [invite["seat"] for invite in view(c, game, 0)["invites"]] == [2]
    started = join(c, game, 2).json()
    assert started["status"] == "playing" and started["seat"] == 2
    views = [view(c, game, seat) for seat in range(3)]
    assert len({tuple(v["hand"]) for v in views}) == 3  # three different hands
    assert views[1]["players"] == ["Ana", "You", "Seat 2"]
    assert views[0]["players"] == ["You", "Bo", "Seat 2"]
    assert [s["kind"] for s in views[0]["seats"]] == ["person"] * 3
    kinds = [event["kind"] for event in views[0]["events"]]
    assert kinds[:3] == ["join", "join", "start"] and views[0]["invites"] == []
    mover = views[0]["to_move"][0]
    assert views[mover]["legal"] and all(not views[s]["legal"] for s in range(3) if s != mover)
    # Another seat's action is refused; the mover's goes through.
    other = (mover + 1) % 3
    refused = act(c, views[other], {"do": "draw"}, key(game, other))
    assert refused.status_code == 422 and refused.json()["reason"] == "not-your-turn"
    assert act(c, views[mover], views[mover]["legal"][0], key(game, mover)).status_code == 200


def test_start_now_puts_ais_in_the_empty_seats_and_a_late_friend_takes_over(c: TestClient) -> None:
    game = new_game(c, humans=3, start="now", seed=3, opponents="random")
    state = view(c, game, 0)
    assert state["status"] == "playing" and [s["kind"] for s in state["seats"]] == ["person", "ai", "ai"]
    assert state["players"][1].endswith("AI (random)")
    join(c, game, 1, "Bo").raise_for_status()
    assert view(c, game, 0)["seats"][1]["kind"] == "person"


def test_only_the_creator_starts_or_closes(c: TestClient) -> None:
    game = new_game(c, humans=2, seed=3)
    for path in ("start", "close"):
        response = c.post(f"/api/games/{game['id']}/{path}", json={}, headers=key(game, 1))
        assert response.status_code == 403 and response.json()["error"] == "creator-only"
    started = c.post(f"/api/games/{game['id']}/start", json={}, headers=key(game))
    assert started.json()["status"] == "playing" and started.json()["seats"][1]["kind"] == "ai"
    again = c.post(f"/api/games/{game['id']}/start", json={}, headers=key(game))
    assert again.status_code == 409 and again.json()["error"] == "already-started"


def test_a_person_who_leaves_is_played_by_an_ai(c: TestClient) -> None:
    game = new_game(c, humans=2, names=["Ana", "Bo"], seed=5, start="now", opponents="random")
    join(c, game, 1).raise_for_status()
    left = c.post(f"/api/games/{game['id']}/leave", json={}, headers=key(game, 1)).json()
    assert left["seats"][1]["kind"] == "ai" and left["legal"] == [] and left["hand"]
    leave = next(e for e in view(c, game, 0)["events"] if e["kind"] == "leave")
    assert leave["text"] == "Bo leaves the table: an AI plays on for them."
    state = view(c, game, 0)
    if state["legal"]:
        state = act(c, state, state["legal"][0], key(game)).json()
    assert state["to_move"] and state["to_move"][0] != 1  # the AI played seat 1's turn at once
    response = act(c, view(c, game, 1), {"do": "draw"}, key(game, 1))
    assert response.status_code == 409 and response.json()["error"] == "left"


def _next(socket: Any, kind: str) -> Json:
    """The next message of *kind* on *socket* (others are skipped)."""
    for _ in range(20):
        message: Json = socket.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def test_the_socket_tells_every_seat_and_the_spectator_of_each_change(c: TestClient) -> None:
    game = new_game(c, humans=2, seed=4, start="now")
    join(c, game, 1).raise_for_status()
    url = LIVE.format(game["id"])
    with c.websocket_connect(url) as zero, c.websocket_connect(url) as one, \
            c.websocket_connect(url) as watcher:
        zero.send_json({"token": game["token"]})
        one.send_json({"token": key(game, 1)["authorization"][7:]})
        watcher.send_json({})
        hellos = [_next(s, "hello") for s in (zero, one, watcher)]
        assert [h["seat"] for h in hellos] == [0, 1, None]
        # The hello says who was connected when it was sent; who connects later is told next.
        connected = hellos[2]["connected"]
        while connected != [True, True, None]:
            connected = _next(watcher, "presence")["connected"]
        state = view(c, game, 0)
        mover = state["to_move"][0]
        mine = view(c, game, mover)
        answer = act(c, mine, mine["legal"][0], key(game, mover)).json()
        for socket in (zero, one, watcher):
            message = _next(socket, "version")
            while message["version"] < answer["version"]:
                message = _next(socket, "version")
            assert message["version"] == answer["version"]
        zero.send_json({"type": "ping"})
        assert _next(zero, "pong") == {"type": "pong"}
        one.close()
        while _next(zero, "presence")["connected"] != [True, False, None]:
            pass


def test_a_reconnecting_client_resumes_exactly(c: TestClient) -> None:
    game = new_game(c, seed=9, opponents="random")
    had = view(c, game, 0)
    state = had
    for _ in range(3):
        if state["legal"]:
            state = act(c, state, state["legal"][0], key(game)).json()
    with c.websocket_connect(LIVE.format(game["id"])) as socket:
        socket.send_json({"token": game["token"]})
        hello = _next(socket, "hello")
    assert hello["version"] == view(c, game, 0)["version"]
    missed = view(c, game, 0, since=str(had["version"]))
    assert missed["events_from"] == had["version"]
    resumed = had["events"] + [{k: v for k, v in e.items() if k != "view"} for e in missed["events"]]
    assert resumed == view(c, game, 0)["events"]


@pytest.mark.parametrize(("first", "code"), [("not json", 4400), ('{"token": 5}', 4400),
                                             ('{"key": "x"}', 4400), ('{"token": "wrong"}', 4401)])
def test_a_bad_first_message_closes_the_socket(c: TestClient, first: str, code: int) -> None:
    from starlette.websockets import WebSocketDisconnect

    game = new_game(c, seed=1)
    with c.websocket_connect(LIVE.format(game["id"])) as socket:
        socket.send_text(first)
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == code
    with c.websocket_connect(LIVE.format("AAAAAAAAAAAAAAAAAAAAAA")) as socket:
        socket.send_json({})
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4404


def test_the_turn_clock_lets_the_hard_ai_play_and_says_so_in_every_language(
        c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(c, humans=2, seed=2, start="now", turn_seconds=5, first=0, names=["Ana"])
    state = view(c, game, 0)
    assert state["turn_seconds"] == 5 and state["to_move"] == [0]
    assert state["deadline"] is not None and 0 < state["seconds_left"] <= 5
    with c.websocket_connect(LIVE.format(game["id"])) as socket:
        socket.send_json({})
        _next(socket, "hello")
        monkeypatch.setattr(live, "clock", lambda: time.time() + 6)  # the clock runs out
        while _next(socket, "version")["version"] == state["version"]:
            pass
    after = view(c, game, 1)
    timeout = next(e for e in after["events"] if e["kind"] == "timeout")
    assert timeout["seat"] == 0 and timeout["text"] == "Ana's time ran out: the AI played for them."
    mine = next(e for e in view(c, game, 0)["events"] if e["kind"] == "timeout")
    assert mine["text"] == "Your time ran out: the AI played for you."
    for lang in LANGUAGES:
        text = next(e for e in view(c, game, 0, lang=lang)["events"] if e["kind"] == "timeout")["text"]
        assert text == translator(lang).gettext("web", "Your time ran out: the AI played for you.")
        assert lang == "en" or text != mine["text"]


def test_idle_games_are_closed(c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(c, seed=1)
    with c.websocket_connect(LIVE.format(game["id"])) as socket:
        socket.send_json({})
        _next(socket, "hello")
        monkeypatch.setattr(live, "clock", lambda: time.time() + 86401)
        while _next(socket, "version")["status"] != "closed":
            pass
    assert view(c, game, 0)["status"] == "closed"


def test_new_games_are_limited_per_client_address() -> None:
    with client(max_new_per_minute=3) as c:
        assert [c.post("/api/games", json={}).status_code for _ in range(3)] == [201] * 3
        refused = c.post("/api/games", json={}, params={"lang": "it"})
        assert refused.status_code == 429 and refused.json()["error"] == "too-many-new"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert refused.json()["message"] == translator("it").gettext(
            "web", "Too many new games from this address; try again in {seconds} s.").format(
            seconds=refused.headers["retry-after"])
        other = from_address("192.0.2.9")
        assert c.post("/api/games", json={}, headers=other).status_code == 201


def test_1100_games_by_one_client_never_lock_out_another() -> None:
    """One address fills every place (the store's own path, without the HTTP round trips);
    another address still gets a game, and the greedy one loses its oldest."""
    store = open_store(None, max_games=1000)
    first = store.add(Game.new(seed=0, opponents="random", owner="testclient"))
    for seed in range(1, 1100):
        store.add(Game.new(seed=seed, opponents="random", owner="testclient"))
    assert store.playing() == 1000 and store.peek(first.id)[1] == "closed"  # type: ignore[index]
    with client(store) as c:
        other = from_address("192.0.2.9")
        assert c.post("/api/games", json={}, headers=other).status_code == 201
        assert c.post("/api/games", json={}).status_code == 201  # the greedy client too
        assert store.playing() == 1000
    store.close()
