"""``kowah serve --player``: a player of one's own at the browser table's AI seats (issue 29)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from webtools import client, key, new_game, play_out

from kowah.plugins import PlayerLoadError
from kowah.record import Record
from kowah.web import ai_players

SPEC = "kowah.players:EasyPlayer"  # a module:callable that any install has


@pytest.fixture
def offering() -> Iterator[None]:
    ai_players.offer([SPEC])
    yield
    ai_players.offer([])


def test_a_player_of_ones_own_plays_the_ai_seats(offering: None) -> None:
    with client() as c:
        page = c.get("/").text
        assert f'<option value="{SPEC}">{SPEC}</option>' in page
        state = new_game(c, seed=4, opponents=SPEC, lang="en", names=["Ana"])
        final = play_out(c, state, key(state))
        assert final["outcome"] is not None
        record = Record.loads(c.get(f"/api/games/{state['id']}/record").text)
    assert record.tags["seat1"] == f"Seat 1 · AI ({SPEC})"
    # The AI seats chose as the loaded player does, seeded as the table seeds its levels.
    with client() as c:
        easy = new_game(c, seed=4, opponents="easy", lang="en", names=["Ana"])
        same = play_out(c, easy, key(easy))
        assert json.dumps(same["events"]) == json.dumps(final["events"])


def test_an_unoffered_player_is_refused_and_a_bad_one_is_said_at_start() -> None:
    with client() as c:
        response = c.post("/api/games", json={"opponents": SPEC})
        assert response.status_code == 400 and "opponents" in response.text
    with pytest.raises(PlayerLoadError):
        ai_players.offer(["kowah.players:PLAYERS"])  # a tuple: not callable
    assert ai_players.offered() == ("random", "easy", "normal", "hard")


def test_kowah_serve_refuses_a_player_that_cannot_be_loaded(capsys: pytest.CaptureFixture[str]) -> None:
    from kowah.cli import main

    assert main(["--lang", "en", "serve", "--no-save", "--player", "no_such_module_here:X"]) == 2
    assert "cannot load the player 'no_such_module_here:X'" in capsys.readouterr().err
    assert ai_players.offered() == ("random", "easy", "normal", "hard")
