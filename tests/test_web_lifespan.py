"""The server's state (store, settings, game threads, writer, live hub) belongs to the
application's lifespan, which hands it to the endpoints as ``request.state``: nothing is kept on
the application or at module level, and an application whose lifespan has not run answers
nothing but its refusal."""

from __future__ import annotations

import ast
from pathlib import Path

from webtools import BASE, TestClient, act, choose, client, key, new_game, store_of

from kowah.web import threads
from kowah.web.app import create_app
from kowah.web.store import open_store

WEB = Path(__file__).resolve().parent.parent / "kowah" / "web"
STATE = ("store", "settings", "threads", "writer", "live")
LIVE = "ws://127.0.0.1:8000/api/games/{}/live"


def test_the_lifespan_hands_the_endpoints_its_state_and_the_application_keeps_none() -> None:
    store = open_store(None)
    with client(store) as c:
        assert set(c.app_state) == set(STATE) and store_of(c) is store
        game = new_game(c, seed=4, opponents="random")
        assert act(c, game, choose(game), key(game)).status_code == 200
        with c.websocket_connect(LIVE.format(game["id"])) as socket:
            socket.send_json({"token": game["token"]})
            assert socket.receive_json()["type"] == "hello"
        assert c.get("/api/rules", params={"format": "text"}).status_code == 200
        assert store.get(game["id"]) is not None  # the lifespan's store is the one given
        writer = c.app_state["writer"]
        app = c.app.app  # type: ignore[attr-defined]  # (inside the tests' address wrapper)
        assert not any(hasattr(app.state, name) for name in STATE)
    assert writer.closed  # the lifespan ended what it began
    with client(store) as again:  # a second run has state of its own
        assert again.app_state["writer"] is not writer and not again.app_state["writer"].closed
        assert again.get(f"/api/games/{game['id']}").status_code == 200
    store.close()


def test_an_application_whose_lifespan_has_not_run_has_no_state_to_reach() -> None:
    """No fallback: without its lifespan the endpoints find no store, so they refuse (500)."""
    bare = TestClient(create_app(), base_url=BASE, raise_server_exceptions=False)
    answer = bare.post("/api/games", json={})
    assert answer.status_code == 500 and answer.json()["error"] == "server-error"


def test_no_web_module_keeps_server_state_on_the_application_or_at_module_level() -> None:
    """No ``app.state`` anywhere in kowah.web, and the game threads' limiter belongs to a
    running application, not to the module."""
    for path in sorted(WEB.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "state":
                assert not (isinstance(node.value, ast.Attribute) and node.value.attr == "app"), (
                    f"{path.name}:{node.lineno} reads app.state")
                assert not (isinstance(node.value, ast.Name) and node.value.id == "app"), (
                    f"{path.name}:{node.lineno} reads app.state")
    assert not [name for name, value in vars(threads).items()
                if not name.startswith("__") and isinstance(value, dict | set | list)]


def test_the_language_choice_moved_and_its_old_names_warn() -> None:
    import pytest

    import kowah.web.app
    import kowah.web.language
    import kowah.web.problems

    for module, names in ((kowah.web.problems, ("LANG_COOKIE", "accept_language", "language",
                                                "translator_for")),
                          (kowah.web.app, ("LANG_COOKIE", "accept_language"))):
        for name in names:
            with pytest.warns(DeprecationWarning, match="import it from kowah.web.language"):
                assert getattr(module, name) is getattr(kowah.web.language, name)
        with pytest.raises(AttributeError):
            module.nothing_of_the_kind  # noqa: B018
