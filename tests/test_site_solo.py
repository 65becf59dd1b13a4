"""The static site's game server (kowah.site.solo): the same answers as kowah serve's API.

Every request goes to both, the served application (Starlette's test client) and the Worker's
:class:`~kowah.site.solo.Tables`; the answers must be the same bytes but for the game's id and
keys (random on each side) and seat 0's ``connected`` (the served page says so through its
live socket, which the test client never opens).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest
from webtools import BASE, TestClient, choose, client

from kowah.site.solo import MAX_ACTIONS, Tables

Json = dict[str, Any]


class Both:
    """One game played through both transports, request for request."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.tables = Tables(BASE)
        self.ids: list[tuple[str, str]] = []  # (served, static) ids and keys

    def _static_text(self, reply_body: str) -> str:
        text = reply_body
        for served, static in self.ids:
            text = text.replace(static, served)
        return text.replace('"connected":true', '"connected":false')

    def call(self, method: str, path: str, query: str = "lang=en", body: Any = None,
             key: tuple[str, str] | None = None, raw: str | None = None) -> tuple[int, Any]:
        """The answer of both (asserted equal): status and JSON."""
        text = raw if raw is not None else ("" if body is None else json.dumps(body))
        served_path, static_path = path, path  # the paths name the static side's game
        for served, static in self.ids:
            served_path = served_path.replace(static, served)
        headers = {"content-type": "application/json"}
        if key is not None:
            headers["authorization"] = f"Bearer {key[0]}"
        response = self.c.request(method, f"{served_path}?{query}", content=text.encode() or None,
                                  headers=headers)
        reply = self.tables.handle(method, static_path, query,
                                   None if key is None else f"Bearer {key[1]}", text)
        if response.status_code == 201:
            served_state, static_state = response.json(), json.loads(reply.body)
            self.ids += [(served_state["id"], static_state["id"]),
                         (served_state["token"], static_state["token"])]
        assert reply.status == response.status_code, (path, reply.body, response.text)
        assert self._static_text(reply.body) == response.text.replace('"connected":true', '"connected":false')
        return reply.status, json.loads(reply.body)

    def key(self) -> tuple[str, str]:
        return self.ids[1]


@pytest.fixture
def both() -> Iterator[Both]:
    with client() as c:
        yield Both(c)


@pytest.mark.parametrize(("seed", "opponents", "lang"), [(7, "random", "en"), (11, "hard", "cs"),
                                                           (3, "normal", "id")])
def test_a_whole_deal_answers_as_the_server_does(both: Both, seed: int, opponents: str, lang: str) -> None:
    status, state = both.call("POST", "/api/games", f"lang={lang}", {"seed": seed, "opponents": opponents})
    assert status == 201
    game = f"/api/games/{state['id']}"
    both.call("GET", f"{game}/record", key=both.key())  # 409: still in progress
    for _ in range(400):
        if state["outcome"] is not None:
            break
        both.call("GET", f"{game}/hint", f"lang={lang}&codes=1", key=both.key())
        action = {k: v for k, v in choose(state).items() if k != "seat"}
        status, state = both.call("POST", f"{game}/actions", f"lang={lang}",
                                  {**action, "after": state["version"]}, key=both.key())
        assert status == 200
    assert state["outcome"] is not None
    both.call("GET", game, "lang=es&since=3", key=both.key())
    status, record = both.call("GET", f"{game}/record")
    assert status == 200 and record["format"] == "kowah-record/1"
    status, review = both.call("POST", "/api/review", "lang=it", {"record": record, "seat": 0})
    assert status == 200 and review["steps"]
    assert both.call("POST", f"{game}/close", key=both.key())[1]["status"] == "closed"


def test_refusals_answer_as_the_server_does(both: Both) -> None:
    _, state = both.call("POST", "/api/games", "lang=cs", {"seed": 5})
    game = f"/api/games/{state['id']}"
    after = state["version"]
    for query, body, raw, key in [
        ("lang=cs", None, "{not json", both.key()),
        ("lang=cs", {"do": "draw", "after": after, "extra": 1}, None, both.key()),
        ("lang=es", {"do": "draw"}, None, both.key()),
        ("lang=es", {"do": "draw", "after": after + 5}, None, both.key()),
        ("lang=it", {"do": "discard", "card": "zz", "after": after}, None, both.key()),
        ("lang=it", {"do": "declare", "after": after}, None, both.key()),
        ("lang=en", {"do": "draw", "after": after}, None, None),
        ("lang=en", {"do": "draw", "after": after}, None, ("nobody", "nobody")),
    ]:
        status, _ = both.call("POST", f"{game}/actions", query, body, key=key, raw=raw)
        assert status >= 400
    bodies: list[Any] = [{"opponents": "gods"}, {"seed": "x"}, {"lang": "de"}, {"deck": ["5c", "xx"]},
                         {"colour": 1}, [1]]
    for new in bodies:
        assert both.call("POST", "/api/games", "lang=ms", new)[0] == 400
    assert both.call("GET", "/api/games/nothing")[0] == 404
    assert both.call("GET", "/api/nowhere")[0] == 404
    assert both.call("GET", f"{game}?since=x", "since=x")[0] == 400
    assert both.call("POST", "/api/review", "lang=cs", {"record": {"format": "nope"}})[0] == 400
    assert both.call("POST", "/api/review", "lang=cs", {"record": {}, "seat": 5})[0] == 400
    assert both.call("GET", "/api/rules", "lang=id&format=markdown")[0] == 200


def test_a_change_the_browser_cannot_keep_is_taken_back() -> None:
    tables = Tables(BASE)
    made = tables.handle("POST", "/api/games", "lang=en", None, '{"seed": 9, "opponents": "random"}')
    state = json.loads(made.body)
    key = f"Bearer {state['token']}"
    action = {k: v for k, v in choose(state).items() if k != "seat"}
    acted = tables.handle("POST", f"/api/games/{state['id']}/actions", "lang=en", key,
                          json.dumps({**action, "after": state["version"]}))
    assert acted.status == 200 and acted.saved is not None and acted.saved[0] == state["id"]
    refused = tables.not_saved(state["id"], "es")
    assert refused.status == 503 and json.loads(refused.body)["error"] == "not-saved"
    assert "nada" in json.loads(refused.body)["message"]  # "… no se ha cambiado nada …"
    again = json.loads(tables.handle("GET", f"/api/games/{state['id']}", "lang=en", key, "").body)
    assert again["version"] == state["version"] and again["legal"] == state["legal"]
    # The kept text restores the game exactly (a reload of the page).
    assert acted.saved is not None
    other = Tables(BASE)
    assert other.load(acted.saved[1]) == state["id"]
    assert other.load("not a game") is None
    after = json.loads(other.handle("GET", f"/api/games/{state['id']}", "lang=en", key, "").body)
    assert after["version"] > state["version"]
    # A new game the browser cannot keep is gone.
    made = tables.handle("POST", "/api/games", "lang=en", None, "{}")
    tables.not_saved(json.loads(made.body)["id"], None)
    assert tables.handle("GET", f"/api/games/{json.loads(made.body)['id']}", "", None, "").status == 404


def test_friends_play_at_a_served_table() -> None:
    reply = Tables(BASE).handle("POST", "/api/games", "lang=en", None, '{"humans": 2}')
    assert reply.status == 400 and json.loads(reply.body)["field"] == "humans"
    assert MAX_ACTIONS == 2000


def test_what_went_wrong_is_answered_as_the_server_answers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = Tables(BASE)
    state = json.loads(tables.handle("POST", "/api/games", "lang=cs", None, "{}").body)

    def broken(*args: Any, **kwargs: Any) -> Json:
        raise RuntimeError("a bug")

    monkeypatch.setattr("kowah.web.game.Game.hint", broken)
    reply = tables.handle("GET", f"/api/games/{state['id']}/hint", "lang=cs", f"Bearer {state['token']}", "")
    assert reply.status == 500 and json.loads(reply.body)["error"] == "server-error"
    assert "a bug" not in reply.body


def test_the_worker_answers_without_starlette_or_anyio() -> None:
    """The Worker's Python has neither (Pyodide does not ship them): a game, an action and the
    review of its record are answered all the same."""
    script = textwrap.dedent("""
        import json, random, sys
        sys.modules["starlette"] = sys.modules["anyio"] = None  # as in the browser
        from kowah import Deal, Record
        from kowah.players import make_player
        from kowah.simulation import play_deal
        from kowah.site.solo import Tables
        tables = Tables("http://127.0.0.1")
        created = json.loads(tables.handle("POST", "/api/games", "lang=cs", None, "{}").body)
        key, game = created["token"], created["id"]
        moved = tables.handle("POST", f"/api/games/{game}/actions", "lang=cs", f"Bearer {key}",
                              json.dumps({"do": "draw", "after": created["version"]}))
        assert moved.status == 200, moved.body
        players = [make_player("normal", random.Random(seat)) for seat in range(3)]
        record = Record.from_deal(play_deal(players, Deal.shuffled(5))).to_dict()
        review = tables.handle("POST", "/api/review", "lang=cs", None, json.dumps({"record": record}))
        assert review.status == 200, review.body
        assert "starlette" not in [name.split(".")[0] for name in sys.modules if sys.modules[name]]
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_worker_and_the_api_make_their_checks_in_one_core(both: Both,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Both transports hand an action to kowah.web.table_requests.act (a stand-in here refuses
    every action alike), and the Worker's module repeats none of its refusals."""
    import ast
    import inspect

    import kowah.site.solo
    from kowah.web import table_requests
    from kowah.web.problems import Problem

    _, state = both.call("POST", "/api/games", "lang=en", {"seed": 5})
    calls: list[int] = []

    def refuse(game: Any, seat: int, data: Json, t: Any, limit: int, now: float | None = None) -> bool:
        calls.append(seat)
        raise Problem(418, "core", "refused by the core")

    monkeypatch.setattr(table_requests, "act", refuse)
    status, answer = both.call("POST", f"/api/games/{state['id']}/actions", "lang=en",
                               {"do": "draw", "after": state["version"]}, key=both.key())
    assert (status, answer["error"], calls) == (418, "core", [0, 0])
    literals = {node.value for node in ast.walk(ast.parse(inspect.getsource(kowah.site.solo)))
                if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    core = {"too-many-actions", "stale", "not-started", "left", "illegal", "closed", "creator-only",
            "bad-key", "key-required", "unknown-field", "declaring-first", "turn_seconds", "names"}
    assert not literals & core
