"""Trust (issue 17): seat keys, the spectator's view, one origin, the Host check, and the leak
property for every seat and the spectator, over HTTP and over the socket."""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest
from webtools import Json, TestClient, act, client, key, new_game

from kowah.cards import KOWAH_DECK, Card
from kowah.web.app import Settings


@pytest.fixture
def c() -> Iterator[TestClient]:
    with client() as test_client:
        yield test_client


def test_the_spectator_sees_public_information_only(c: TestClient) -> None:
    state = new_game(c, seed=2, opponents="random")
    seen = c.get(f"/api/games/{state['id']}").json()
    assert seen["seat"] is None and seen["hand"] is None and seen["legal"] == []
    assert seen["hand_sizes"] == state["hand_sizes"] and seen["version"] == state["version"]
    assert not any(event["card"] for event in seen["events"] if event["kind"] == "draw")
    assert "token" not in seen and seen["invites"] == []


@pytest.mark.parametrize("header", ["Bearer nope", "Bearer ", "Basic abc", "bearer x y"])
def test_a_wrong_key_is_401_never_a_spectator(c: TestClient, header: str) -> None:
    state = new_game(c, seed=2, opponents="random")
    for response in (c.get(f"/api/games/{state['id']}", headers={"authorization": header}),
                     act(c, state, {"do": "pass"}, {"authorization": header}),
                     c.get(f"/api/games/{state['id']}/hint", headers={"authorization": header})):
        assert response.status_code == 401 and response.json()["error"] == "bad-key"
        assert response.headers["www-authenticate"] == "Bearer"


def test_changes_without_a_key_are_401(c: TestClient) -> None:
    state = new_game(c, seed=2, opponents="random")
    for path in ("actions", "join", "leave", "close", "start"):
        body = {"do": "draw", "after": 0} if path == "actions" else {}
        response = c.post(f"/api/games/{state['id']}/{path}", json=body)
        assert response.status_code == 401 and response.json()["error"] == "key-required", path
    assert c.get(f"/api/games/{state['id']}", headers=key(state)).json()["version"] == state["version"]


def test_another_games_key_does_not_open_this_one(c: TestClient) -> None:
    one, two = new_game(c, seed=1), new_game(c, seed=2)
    assert c.get(f"/api/games/{one['id']}", headers=key(two)).status_code == 401
    # the id is not a key either
    assert c.get(f"/api/games/{one['id']}",
                 headers={"authorization": f"Bearer {one['id']}"}).status_code == 401


def test_keys_are_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG), client() as c:
        state = new_game(c, seed=3, humans=2)
        c.post(f"/api/games/{state['id']}/join", json={}, headers=key(state, 1))
        c.get(f"/api/games/{state['id']}", headers={"authorization": "Bearer wrong-key-123"})
    for secret in (state["token"], state["invites"][0]["token"], "wrong-key-123"):
        assert secret not in caplog.text


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", None])
def test_changes_need_a_json_content_type(c: TestClient, kind: str | None) -> None:
    headers = {} if kind is None else {"content-type": kind}
    response = c.post("/api/games", content=b"{}", headers=headers)
    assert response.status_code == 415 and response.json()["error"] == "json-required"
    assert c.post("/api/games", content=b"{}",
                  headers={"content-type": "application/json; charset=utf-8"}).status_code == 201


@pytest.mark.parametrize(("origin", "status"), [
    ("http://evil.example", 403), ("null", 403), ("http://127.0.0.1:8001", 403),
    ("https://127.0.0.1:8000", 403), ("http://127.0.0.1:8000", 201), (None, 201),
])
def test_changes_from_another_origin_are_403(c: TestClient, origin: str | None, status: int) -> None:
    headers = {} if origin is None else {"origin": origin}
    response = c.post("/api/games", json={}, headers=headers)
    assert response.status_code == status
    if status == 403:
        assert response.json()["error"] == "bad-origin"


def test_an_allowed_origin_may_send_changes() -> None:
    with client(allow_origins=("https://cards.example",)) as c:
        assert c.post("/api/games", json={}, headers={"origin": "https://cards.example"}).status_code == 201


@pytest.mark.parametrize(("host", "ok"), [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("[::1]:8000", True),
    ("evil.example:8000", False), ("evil.example", False), ("127.0.0.1:8001", False),
    ("127.0.0.1:8000@evil", False), ("", False),
])
def test_the_host_must_be_ours(host: str, ok: bool) -> None:
    with client(port=8000) as c:
        response = c.get("/", headers={"host": host})
        assert (response.status_code == 200) == ok, host
        api = c.get("/api/rules", headers={"host": host})
        if not ok:
            assert api.status_code == 400 and api.json()["error"] == "bad-host"


def test_allowed_hosts_and_a_server_on_every_address() -> None:
    assert Settings(host="127.0.0.1", allow_hosts=("cards.example",)).host_ok("cards.example")
    assert not Settings(host="127.0.0.1").host_ok("cards.example")
    everywhere = Settings(host="0.0.0.0", port=80)
    assert everywhere.host_ok("192.0.2.7") and everywhere.host_ok("localhost:80")
    assert not everywhere.host_ok("rebound.example")


def test_the_socket_checks_origin_and_host(c: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    state = new_game(c, seed=1)
    url = f"ws://127.0.0.1:8000/api/games/{state['id']}/live"
    for headers, code in (({"origin": "http://evil.example"}, 4403), ({"host": "evil.example"}, 4400)):
        with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect(url, headers=headers):
            pass
        assert closed.value.code == code


def test_every_api_answer_is_no_store_and_every_api_error_is_json() -> None:
    with client(max_new_per_minute=2) as c:
        game = new_game(c, seed=4, humans=2)
        path = f"/api/games/{game['id']}"
        answers = [
            c.get(path, headers=key(game)), c.get(path), c.get(f"{path}/hint", headers=key(game)),
            c.get(f"{path}/record"), c.get("/api/rules"), c.get(f"{path}?since=²"),
            c.post(f"{path}/join", json={}, headers=key(game, 1)),
            c.post(f"{path}/start", json={}, headers=key(game)),
            act(c, game, {"do": "draw"}, {"authorization": "Bearer nope-nope-nope-nope"}),
            act(c, game, {"do": "draw"}),
            c.post(f"{path}/actions", content=b"{}", headers={"content-type": "text/plain"}),
            c.post("/api/games", json={}, headers={"origin": "https://evil.example"}),
            c.get(path, headers={"host": "evil.example"}), c.delete(path), c.get("/api/nothing"),
            c.post("/api/review", json={}), c.post("/api/games", json={}),
            c.post("/api/games", json={}),  # over the limit: 429
            c.post(f"{path}/close", json={}, headers=key(game)),
        ]
        statuses = {answer.status_code for answer in answers}
        assert {200, 201, 400, 401, 403, 404, 405, 409, 415, 429} <= statuses, statuses
        for answer in answers:
            assert answer.headers["cache-control"] == "no-store", answer.request.url
            if answer.status_code >= 400:
                assert answer.headers["content-type"] == "application/json", answer.request.url
                assert set(answer.json()) >= {"error", "message"}


# -- the leak property: every seat and the spectator, HTTP and the socket ------------------------------

def _shuffle_hidden(deck: list[Card], viewer: int | None, rng: random.Random, keep: int | None) -> list[Card]:
    """*deck* with what *viewer* (``None``: the spectator) cannot see shuffled: the other
    hands and the stock, or (*keep*) only the stock beyond its first *keep* cards."""
    if keep is not None:
        positions = list(range(24 + keep, len(deck)))
    else:
        positions = [index for index in range(len(deck))
                     if viewer is None or not 8 * viewer <= index < 8 * viewer + 8]
    cards = [deck[index] for index in positions]
    rng.shuffle(cards)
    shuffled = list(deck)
    for index, card in zip(positions, cards, strict=True):
        shuffled[index] = card
    return shuffled


def _views(c: TestClient, game: Json, viewer: int | None) -> list[Any]:
    """Everything *viewer* can ask for: the state, the hint, the record, the socket's hello."""
    headers = {} if viewer is None else key(game, viewer)
    answers: list[Any] = []
    for path in ("", "?since=1", "/hint", "/record"):
        response = c.get(f"/api/games/{game['id']}{path}", headers=headers)
        body = response.json()
        if isinstance(body, dict):
            for name in ("id", "invites"):
                body.pop(name, None)
        answers.append((response.status_code, body))
    with c.websocket_connect(f"ws://127.0.0.1:8000/api/games/{game['id']}/live") as socket:
        socket.send_json({} if viewer is None else {"token": headers["authorization"][7:]})
        answers.append(socket.receive_json())
    return answers


def _friends(c: TestClient, deck: list[Card], first: int) -> Json:
    game = new_game(c, deck=[str(card) for card in deck], first=first, seed=1, humans=3,
                    names=["Ana", "Bo", "Cy"])
    for seat in (1, 2):
        c.post(f"/api/games/{game['id']}/join", json={}, headers=key(game, seat)).raise_for_status()
    return game


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_no_view_leaks_what_its_viewer_cannot_see(c: TestClient, viewer: int | None) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        deck = list(KOWAH_DECK.cards)
        rng.shuffle(deck)
        # 1. At the start: everything the viewer cannot see differs.
        games = [_friends(c, cards, seed % 3) for cards in (deck, _shuffle_hidden(deck, viewer, rng, None))]
        assert _views(c, games[0], viewer) == _views(c, games[1], viewer)
        # 2. Moves into the deal: the stock differs beyond the cards drawn so far. The viewer's
        # socket stays open: what it is pushed after each move is the same too.
        games = [_friends(c, cards, seed % 3) for cards in (deck, _shuffle_hidden(deck, viewer, rng, 30))]
        with _socket(c, games[0], viewer) as first, _socket(c, games[1], viewer) as second:
            sockets = (first, second)
            assert first.receive_json() == second.receive_json()  # the hellos
            for _ in range(8):
                states = [c.get(f"/api/games/{g['id']}", headers=key(g, 0)).json() for g in games]
                mover = states[0]["to_move"][0]
                mine = [c.get(f"/api/games/{g['id']}", headers=key(g, mover)).json() for g in games]
                if states[0]["stock"] < 96 - 30 + 2:
                    break
                action = next(a for a in mine[0]["legal"] if a["do"] != "declare")
                answers = [act(c, state, action, key(g, mover)) for g, state in zip(games, mine, strict=True)]
                assert [answer.status_code for answer in answers] == [200, 200]
                pushed = [_pushed(socket, answers[0].json()["version"]) for socket in sockets]
                assert pushed[0] == pushed[1] and pushed[0][-1]["type"] == "version"
                assert _views(c, games[0], viewer) == _views(c, games[1], viewer)


@contextlib.contextmanager
def _socket(c: TestClient, game: Json, viewer: int | None) -> Iterator[Any]:
    """*viewer*'s live socket on *game*, its first message sent."""
    with c.websocket_connect(f"ws://127.0.0.1:8000/api/games/{game['id']}/live") as socket:
        socket.send_json({} if viewer is None else {"token": key(game, viewer)["authorization"][7:]})
        yield socket


def _pushed(socket: Any, version: int) -> list[Json]:
    """The messages *socket* is pushed up to the one that tells it of *version*."""
    messages: list[Json] = []
    while not messages or messages[-1].get("version") != version:
        messages.append(socket.receive_json())
        assert len(messages) < 10, messages
    return messages
