"""An evening at one table (issue 28): deal after deal at the same id with the same keys, a
seat handed to the AI and taken back, quick phrases each read in the viewer's language, and the
record's tags naming who sat where."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webtools import Json, TestClient, choose, client, key, new_game

from kowah.i18n import translator
from kowah.record import Record
from kowah.web import api
from kowah.web.game import Game
from kowah.web.phrases import PHRASE_IDS, phrase_text
from kowah.web.saved import restore, saved_text


@pytest.fixture
def c() -> Iterator[TestClient]:
    with client(max_new_per_minute=1000) as test_client:
        yield test_client


def friends(c: TestClient, **body: Any) -> Json:
    """A two-person table (Ana, Bo), both seated, the deal under way."""
    game = new_game(c, humans=2, names=["Ana"], seed=body.pop("seed", 4), opponents="random", **body)
    joined = c.post(f"/api/games/{game['id']}/join", json={"name": "Bo"}, headers=key(game, 1))
    assert joined.status_code == 200, joined.text
    return game


def state_of(c: TestClient, game: Json, seat: int, **query: str) -> Json:
    answer = c.get(f"/api/games/{game['id']}", headers=key(game, seat), params=query)
    assert answer.status_code == 200, answer.text
    state: Json = answer.json()
    return state


def play_deal(c: TestClient, game: Json, seats: tuple[int, ...] = (0, 1)) -> Json:
    """Both people play with a fixed policy until the deal ends; seat 0's last state."""
    for _ in range(600):
        states = {seat: state_of(c, game, seat) for seat in seats}
        if states[seats[0]]["outcome"] is not None:
            return states[seats[0]]
        mover = next((seat for seat in seats if states[seat]["legal"]), None)
        assert mover is not None, states[seats[0]]["events"][-3:]
        state = states[mover]
        body = {**{k: v for k, v in choose(state).items() if k != "seat"}, "after": state["version"]}
        answer = c.post(f"/api/games/{game['id']}/actions", json=body, headers=key(game, mover))
        assert answer.status_code == 200, answer.text
    raise AssertionError("the deal did not end")


def post(c: TestClient, game: Json, what: str, seat: int, body: Json | None = None, **query: str) -> Any:
    return c.post(f"/api/games/{game['id']}/{what}", json=body or {}, headers=key(game, seat),
                  params=query)


def test_the_next_deal_starts_at_the_same_id_once_every_person_present_asks(c: TestClient) -> None:
    game = friends(c)
    early = post(c, game, "next", 1)
    assert early.status_code == 409 and early.json()["error"] == "not-over"
    ended = play_deal(c, game)
    assert ended["deal"] == 1 and ended["deals"] == []
    first = post(c, game, "next", 0).json()
    assert first["deal"] == 1 and first["ready"] == [0] and first["status"] == "over"
    assert first["events"][-1]["kind"] == "ready"
    started = post(c, game, "next", 1).json()
    assert started["id"] == game["id"] and started["deal"] == 2 and started["status"] == "playing"
    assert started["version"] > first["version"] and started["ready"] == []
    outcome = ended["outcome"]
    assert started["deals"] == [{
        "number": 1, "winner": outcome.get("winner"), "kind": outcome["by"],
        "multiplier": outcome.get("multiplier"), "text": ended["outcome_text"],
        "record": f"http://127.0.0.1:8000/api/games/{game['id']}/record?deal=1"}]
    czech = state_of(c, game, 1, lang="cs")["deals"][0]["text"]
    assert czech == state_of(c, game, 1, lang="cs")["deals"][0]["text"] != started["deals"][0]["text"]
    record = Record.from_dict(c.get(f"/api/games/{game['id']}/record", params={"deal": "1"}).json())
    assert record.replay().outcome.as_dict() == outcome  # type: ignore[union-attr]
    assert record.tags["seat0"] == "Ana" and record.tags["seat1"] == "Bo"
    # The same keys play the new deal; a client that asks since its old version gets it all.
    since = state_of(c, game, 1, since=str(first["version"]))
    assert since["deal"] == 2 and since["events_from"] == first["version"] + 1
    assert since["events"][0]["kind"] == "start" and len(since["hand"]) >= 8
    assert c.get(f"/api/games/{game['id']}/record").status_code == 409  # deal 2 is in play
    for bad in ("0", "3", "x"):
        answer = c.get(f"/api/games/{game['id']}/record", params={"deal": bad})
        assert answer.status_code == 400 and answer.json()["field"] == "deal"
    again = play_deal(c, game)
    assert again["deal"] == 2 and again["outcome"] is not None


def test_only_the_creator_starts_the_next_deal_at_once(c: TestClient) -> None:
    game = friends(c)
    play_deal(c, game)
    refused = post(c, game, "next", 1, {"now": True})
    assert refused.status_code == 403 and refused.json()["error"] == "creator-only"
    assert post(c, game, "next", 0, {"now": "yes"}).status_code == 400
    started = post(c, game, "next", 0, {"now": True}).json()
    assert started["deal"] == 2 and started["status"] == "playing"


def test_the_creator_hands_an_absent_seat_to_the_ai_and_its_person_takes_it_back(
        c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = friends(c, first=1)
    here = post(c, game, "hand-over", 0, {"seat": 1})
    assert here.status_code == 409 and here.json()["error"] == "still-here"  # Bo just joined
    assert post(c, game, "hand-over", 1, {"seat": 1}).status_code == 403
    assert post(c, game, "hand-over", 0, {"seat": 2}).json()["error"] == "not-a-person"
    assert post(c, game, "hand-over", 0, {"seat": 0}).json()["field"] == "seat"
    monkeypatch.setattr(api, "OFFLINE_SECONDS", 0.0)
    handed = post(c, game, "hand-over", 0, {"seat": 1}, lang="cs")
    assert handed.status_code == 200, handed.text
    state = handed.json()
    assert state["seats"][1]["handed_over"] is True and state["legal"]  # the AI played Bo's turn
    said = [event for event in state["events"] if event["kind"] == "hand-over"]
    assert said[-1]["seat"] == 1 and said[-1]["text"] == translator("cs").gettext(
        "web", "{name}: the AI plays this seat until they come back.").format(name="Bo")
    bo = state_of(c, game, 1)
    told = [event["text"] for event in bo["events"] if event["kind"] == "hand-over"]
    assert bo["legal"] == [] and told[-1] == "The AI plays your seat until you come back."
    # Bo comes back with an action: the seat is Bo's again, the stale action is not made.
    body = {"do": "draw", "after": bo["version"]}
    back = c.post(f"/api/games/{game['id']}/actions", json=body, headers=key(game, 1)).json()
    assert back["taken_back"] is True and back["seats"][1]["handed_over"] is False
    assert back["events"][-1]["kind"] == "take-back" and back["version"] == bo["version"] + 1


def test_a_person_who_never_came_can_be_handed_over_at_once_and_joins_later(c: TestClient) -> None:
    game = new_game(c, humans=3, seed=2, opponents="random")
    assert post(c, game, "join", 1).status_code == 200
    handed = post(c, game, "hand-over", 0, {"seat": 2}).json()
    assert handed["status"] == "playing" and handed["seats"][2]["handed_over"] is True
    late = post(c, game, "join", 2, {"name": "Cid"}).json()
    assert late["seats"][2]["handed_over"] is False and late["events"][-1]["kind"] == "take-back"


def test_two_clock_timeouts_in_a_row_hand_the_seat_to_the_ai() -> None:
    game = Game.new(seed=3, opponents="random", humans=2, turn_seconds=5, now=1000.0)
    game.join(1, now=1000.0)  # the deal starts

    def run_out_on_seat_1() -> None:
        while game.actor == 0:  # seat 0 plays its turns
            game.act(game.legal(0)[0], now=1000.0)
        assert game.actor == 1 and game.deadline is not None
        assert game.expire(game.deadline + 1)

    run_out_on_seat_1()
    assert 1 not in game.handed and game.log[-1].kind == "timeout"
    run_out_on_seat_1()
    assert 1 in game.handed and game.log[-1].kind == "hand-over"
    assert game.actor != 1  # the AI played on for seat 1 at once


def test_quick_phrases_each_in_the_viewers_language(c: TestClient) -> None:
    game = friends(c)
    listed = c.get("/api/phrases", params={"lang": "es"}).json()
    assert listed["lang"] == "es" and [item["id"] for item in listed["phrases"]] == list(PHRASE_IDS)
    assert listed["phrases"][0]["text"] == phrase_text(translator("es"), "hello")
    said = post(c, game, "say", 1, {"phrase": "good-game"})
    assert said.status_code == 200, said.text
    czech = state_of(c, game, 0, lang="cs")["events"][-1]
    indonesian = state_of(c, game, 1, lang="id")["events"][-1]
    spectator = c.get(f"/api/games/{game['id']}", params={"lang": "it"}).json()["events"][-1]
    assert czech["kind"] == indonesian["kind"] == "phrase" and czech["phrase"] == "good-game"
    assert czech["text"] == translator("cs").gettext("web", "{name}: {phrase}").format(
        name="Bo", phrase=phrase_text(translator("cs"), "good-game"))
    assert indonesian["text"] == translator("id").gettext("web", "You: {phrase}").format(
        phrase=phrase_text(translator("id"), "good-game"))
    assert phrase_text(translator("it"), "good-game") in spectator["text"]
    assert len({czech["text"], indonesian["text"], spectator["text"]}) == 3
    unknown = post(c, game, "say", 1, {"phrase": "you are bad"})
    assert unknown.status_code == 400 and unknown.json()["field"] == "phrase"
    statuses = [post(c, game, "say", 1, {"phrase": "thanks"}).status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    assert post(c, game, "say", 0, {"phrase": "thanks"}).status_code == 200  # Ana's own limit
    assert post(c, game, "say", 0, {"phrase": "thanks", "loud": True}).status_code == 400


def test_a_table_after_deals_and_phrases_is_restored_exactly() -> None:
    game = Game.new(seed=5, opponents="random", humans=2, names=["Ana"], start_now=True)
    game.join(1, "Bo")
    game.say(1, "hello", 1000.0)
    while not game.is_over:
        seat = game.actor
        assert seat is not None
        game.act(game.legal(seat)[0])
    game.ask_next(0)
    game.ask_next(1)
    game.hand_over(1)
    copy = restore(json.loads(saved_text(game)))
    for seat in (None, 0, 1):
        assert copy.state("cs", seat=seat, now=1.0) == game.state("cs", seat=seat, now=1.0)
    assert copy.deal_number == 2 and copy.past == game.past and copy.handed == {1}


def test_kowah_replay_names_the_people_of_the_records_tags(tmp_path: Path) -> None:
    game = Game.new(seed=5, opponents="random", humans=2, names=["Ana"], start_now=True)
    game.join(1, "Bo")
    while not game.is_over:
        seat = game.actor
        assert seat is not None
        game.act(game.legal(seat)[0])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(game.record()))
    winner = game.deal.outcome.winner  # type: ignore[union-attr]
    said = subprocess.run([sys.executable, "-m", "kowah", "replay", str(path)], capture_output=True,
                          text=True, check=True).stdout
    expected = {0: "Ana", 1: "Bo", 2: "Seat 2", None: "drawn"}[winner]
    assert expected in said or (winner is None and "Seat" not in said), said


def test_a_silent_socket_is_closed_and_its_seat_shows_offline(c: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.websockets import WebSocketDisconnect

    from kowah.web import live

    game = friends(c)
    monkeypatch.setattr(live, "SILENCE", 0.3)
    with c.websocket_connect(f"ws://127.0.0.1:8000/api/games/{game['id']}/live") as socket:
        socket.send_json({"token": game["invites"][0]["token"]})
        assert socket.receive_json()["connected"] == [False, True, None]
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == 4408
    assert state_of(c, game, 0)["seats"][1]["connected"] is False


def test_with_no_clock_the_table_never_waits_forever_on_someone_gone(
        c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from kowah.web import live
    from kowah.web.game import ABSENT_SECONDS

    game = friends(c, first=1)  # Bo is to move, and has no socket open
    ana = state_of(c, game, 0)
    assert ana["turn_seconds"] is None and ana["deadline"] is None and ana["to_move"] == [1]
    with c.websocket_connect(f"ws://127.0.0.1:8000/api/games/{game['id']}/live") as socket:
        socket.send_json({"token": game["token"]})
        assert socket.receive_json()["type"] == "hello"
        monkeypatch.setattr(live, "clock", lambda: time.time() + ABSENT_SECONDS + 1)
        while socket.receive_json().get("type") != "version":
            pass
    handed = state_of(c, game, 0)
    assert handed["seats"][1]["handed_over"] is True and handed["to_move"] != [1]
    assert any(event["kind"] == "hand-over" and event["seat"] == 1 for event in handed["events"])


def test_with_no_clock_a_connected_person_is_left_to_think() -> None:
    from kowah.web.game import ABSENT_SECONDS

    game = Game.new(seed=3, opponents="random", humans=2, first=1, now=1000.0)
    game.join(1, now=1000.0)
    assert game.actor == 1 and game.deadline is None and game.wake == 1000.0 + ABSENT_SECONDS
    assert not game.check_absent(1000.0 + ABSENT_SECONDS - 1, [1, 0, 0])
    assert game.check_absent(1000.0 + ABSENT_SECONDS, [1, 1, 0]) and 1 not in game.handed
    assert game.wake == 1000.0 + 2 * ABSENT_SECONDS  # looked at again later
    assert game.check_absent(1000.0 + 2 * ABSENT_SECONDS, [1, 0, 0]) and 1 in game.handed
