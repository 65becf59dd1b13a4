"""The browser table's HTTP layer, through Starlette's test client (issues 12 and 17).

Friends' tables, the socket and the trust rules have their own files (``test_web_friends``,
``test_web_trust``); the stores ``test_web_store``; the server process ``test_web_serve``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from webtools import Json, TestClient, act, choose, client, from_address, key, new_game, play_out

from kowah.cards import KOWAH_DECK, Card
from kowah.i18n import translator
from kowah.record import replay_outcome
from kowah.rendering import render_rules
from kowah.web.app import SECURITY_HEADERS
from kowah.web.game import Game
from kowah.web.language import accept_language
from kowah.web.saved import restore, saved_data
from kowah.web.store import open_store


@pytest.fixture
def c() -> Iterator[TestClient]:
    with client() as test_client:
        yield test_client


def test_the_page_is_served_with_security_headers(c: TestClient) -> None:
    response = c.get("/", headers={"accept-language": "cs-CZ,cs;q=0.9,en;q=0.5"})
    assert response.status_code == 200
    assert '<html lang="cs">' in response.text
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    for tag in response.text.split("<script")[1:]:
        head = tag.split(">", 1)[0]
        assert 'src="' in head or 'type="application/json"' in head, head
    # The API and the pictures carry the headers too, and so does a 404; the API never caches.
    missing = c.get("/api/games/nope")
    assert missing.headers["x-frame-options"] == "DENY" and missing.headers["cache-control"] == "no-store"
    assert "content-security-policy" in c.get("/cards/5c.svg").headers
    assert c.get("/cards/5c.svg").headers["cache-control"] == "public, max-age=3600"
    # A friend's link serves the same page.
    assert '<html lang="en">' in c.get("/games/AAAAAAAAAAAAAAAAAAAAAA").text


def test_the_language_follows_the_query_then_the_cookie_then_accept_language(c: TestClient) -> None:
    assert '<html lang="es">' in c.get("/", params={"lang": "es"}).text
    assert c.cookies.get("kowah-lang") == "es"
    assert '<html lang="es">' in c.get("/", headers={"accept-language": "it"}).text
    c.cookies.clear()
    assert '<html lang="it">' in c.get("/", headers={"accept-language": "it-IT"}).text
    assert '<html lang="en">' in c.get("/", headers={"accept-language": "de, fr;q=0.5"}).text
    assert accept_language("de, ms;q=0.3, es;q=0.7") == "es"


@pytest.mark.parametrize("lang", ["en", "it", "cs", "ms", "es", "id"])
def test_the_page_is_in_the_language(c: TestClient, lang: str) -> None:
    page = c.get("/", params={"lang": lang}).text
    t = translator(lang)
    assert f'<html lang="{lang}">' in page
    assert t.gettext("web", "Full rules") in page
    assert t.card_name(Card.WS) in page  # the pack
    assert render_rules(t, "html").splitlines()[1] in page  # the rules tab
    data = page.split('id="kowah-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data)["strings"]["tab.table"] == t.gettext("web", "Table")


def test_a_whole_deal_through_http_and_its_record_replays_to_the_outcome(c: TestClient) -> None:
    state = new_game(c, seed=11, opponents="normal", lang="en", names=["Ana"])
    assert state["outcome"] is None and state["legal"] and state["status"] == "playing"
    assert state["seat"] == 0 and state["hand"] and len(state["token"]) >= 32
    assert state["invites"] == [] and state["watch"].endswith(f"/games/{state['id']}")
    assert c.get(f"/api/games/{state['id']}/record").status_code == 409  # would reveal the deck
    final = play_out(c, state, key(state))
    assert final["outcome"] is not None and final["legal"] == [] and final["status"] == "over"
    response = c.get(f"/api/games/{state['id']}/record")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    assert replay_outcome(response.text) == final["outcome"]
    assert final["version"] == len(final["events"])
    record = json.loads(response.text)  # the library's record tags: who sat where
    assert record["tags"] == {"seat0": "Ana", "seat1": "Seat 1 · AI (normal)",
                              "seat2": "Seat 2 · AI (normal)"}
    friends = Game.new(seed=1, opponents="hard", humans=3, names=["Ana", "Bo"])
    friends.join(1)
    friends.leave(2)  # the deal starts; an AI plays seat 2
    assert friends.record()["tags"] == {"seat0": "Ana", "seat1": "Bo", "seat2": "Seat 2 · AI (hard)"}


def test_a_stale_or_repeated_action_is_409_and_changes_nothing(c: TestClient) -> None:
    state = new_game(c, seed=3, opponents="random")
    assert act(c, state, choose(state), key(state)).status_code == 200
    before = c.get(f"/api/games/{state['id']}", headers=key(state)).json()
    again = act(c, state, choose(state), key(state))  # the same request: a double click
    assert again.status_code == 409
    assert again.json()["error"] == "stale" and again.json()["version"] == before["version"]
    assert c.get(f"/api/games/{state['id']}", headers=key(state)).json() == before


def test_an_illegal_action_is_422_with_the_reason_in_the_language(c: TestClient) -> None:
    state = new_game(c, seed=5, opponents="random", first=0)  # seat 0 opens: it must draw
    before = c.get(f"/api/games/{state['id']}", headers=key(state)).json()
    english = act(c, state, {"do": "take"}, key(state))
    czech = act(c, state, {"do": "take"}, key(state), lang="cs")
    assert english.status_code == czech.status_code == 422
    assert english.json()["error"] == "illegal"
    assert english.json()["reason"] == czech.json()["reason"] and english.json()["reason"]
    assert english.json()["message"] != czech.json()["message"]
    opening = translator("cs").gettext("web", "That is not possible now: {reason}").split("{")[0]
    assert czech.json()["message"].startswith(opening)
    missing = next(card for card in Card if card.code not in state["hand"] and card in KOWAH_DECK)
    assert act(c, state, {"do": "discard", "card": missing.code}, key(state)).status_code == 422
    assert c.get(f"/api/games/{state['id']}", headers=key(state)).json() == before


@pytest.mark.parametrize(("body", "status", "error"), [
    (b"{not json", 400, "bad-json"),
    (b"[1, 2]", 400, "not-an-object"),
    (b'{"do": "draw"}', 400, "bad-field"),  # no "after"
    (b'{"do": "draw", "after": "2"}', 400, "bad-field"),
    (b'{"do": "draw", "after": true}', 400, "bad-field"),
    (b'{"do": "fly", "after": 0}', 400, "bad-request"),
    (b'{"do": "discard", "card": "zz", "after": 0}', 400, "bad-request"),
    (b'{"do": "draw", "after": 0, "seat": 1}', 400, "bad-request"),
    (b'{"do": "draw", "after": 0, "x": 1}', 400, "unknown-field"),
    (b'{"do": "draw", "after": 0, "pad": "' + b"x" * 9000 + b'"}', 413, "too-large"),
])
def test_bad_action_requests(c: TestClient, body: bytes, status: int, error: str) -> None:
    state = new_game(c, seed=1, opponents="random")
    response = c.post(f"/api/games/{state['id']}/actions", content=body,
                      headers={"content-type": "application/json", **key(state)})
    assert response.status_code == status, response.text
    assert response.json()["error"] == error and response.json()["message"]
    assert c.get(f"/api/games/{state['id']}").json()["version"] == state["version"]


@pytest.mark.parametrize(("body", "field"), [
    ({"lang": "de"}, "lang"), ({"opponents": "expert"}, "opponents"), ({"seed": "1"}, "seed"),
    ({"seed": 2**70}, "seed"), ({"first": 3}, "first"), ({"deck": "5c"}, "deck"),
    ({"deck": ["5c"] * 120}, "deck"), ({"deck": ["zz"]}, "deck"), ({"colour": "red"}, "colour"),
    ({"humans": 4}, "humans"), ({"humans": True}, "humans"), ({"names": ["a", "b"]}, "names"),
    ({"humans": 2, "names": ["\n"]}, "names"), ({"humans": 2, "names": ["x" * 25]}, "names"),
    ({"turn_seconds": 4}, "turn_seconds"), ({"turn_seconds": 3601}, "turn_seconds"),
    ({"turn_seconds": 5.5}, "turn_seconds"), ({"start": "later"}, "start"),
])
def test_bad_new_games(c: TestClient, body: Json, field: str) -> None:
    response = c.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["field"] == field


def test_unknown_games_and_paths_are_json_404_and_405(c: TestClient) -> None:
    for path in ("/api/games/AAAAAAAAAAAAAAAAAAAAAA", "/api/games/..%2F..%2Fetc",
                 "/api/games/AAAAAAAAAAAAAAAAAAAAAA/record", "/api/nothing/here"):
        response = c.get(path)
        assert response.status_code == 404 and response.json()["error"] == "not-found", path
        if "AAAA" in path:
            assert response.json()["message"] == "There is no such game."
    assert c.get("/api/nothing/here").json()["message"] == "There is nothing at this address."
    unknown = "/api/games/AAAAAAAAAAAAAAAAAAAAAA/actions"
    assert c.post(unknown, json={"do": "draw", "after": 0}).status_code == 404
    wrong = c.put("/api/games", json={})
    assert wrong.status_code == 405 and wrong.json()["error"] == "method-not-allowed"
    assert "POST" in wrong.headers["allow"]
    assert c.delete("/api/games/AAAAAAAAAAAAAAAAAAAAAA").json()["error"] == "method-not-allowed"
    assert c.get("/cards/zz.svg").status_code == 404


def test_since_must_be_ascii_digits(c: TestClient) -> None:
    state = new_game(c, seed=6, opponents="random", first=1)
    full = c.get(f"/api/games/{state['id']}").json()
    assert full["events_from"] == 0 and len(full["events"]) == full["version"] >= 2
    later = c.get(f"/api/games/{state['id']}", params={"since": "1"}).json()
    assert later["events_from"] == 1
    assert [{k: v for k, v in e.items() if k != "view"} for e in later["events"]] == full["events"][1:]
    for bad in ("²", "x", "-1", "١", "1e3"):
        response = c.get(f"/api/games/{state['id']}", params={"since": bad})
        assert response.status_code == 400 and response.json()["field"] == "since", bad


def test_game_ids_and_keys_are_unguessable_and_separate(c: TestClient) -> None:
    states = [new_game(c, opponents="random") for _ in range(5)]
    assert len({s["id"] for s in states}) == 5 and all(len(s["id"]) >= 22 for s in states)
    assert all(len(s["token"]) >= 32 and s["token"] != s["id"] for s in states)  # ≥ 192 bits


def test_actions_per_game_are_bounded() -> None:
    with client(max_actions=3) as c:
        state = new_game(c, seed=1, opponents="random")
        statuses = [act(c, state, {"do": "pass"}, key(state)).status_code for _ in range(4)]
    assert statuses == [422, 422, 422, 429]


def test_rules_and_card_pictures(c: TestClient) -> None:
    response = c.get("/api/rules", params={"lang": "it", "format": "text"})
    assert response.json()["rules"] == render_rules("it", "text")
    assert c.get("/api/rules", params={"format": "pdf"}).status_code == 400
    picture = c.get("/cards/rf.svg", params={"lang": "es"})
    assert picture.headers["content-type"].startswith("image/svg+xml")
    assert "<title>Flor Roja</title>" in picture.text
    assert "<title>" in c.get("/cards/back.svg").text


def test_games_are_restored_exactly_by_a_new_server(tmp_path: Any) -> None:
    """A server restarted on the database resumes every game, and the AIs play on exactly as
    they would have without the restart."""
    with client() as straight:
        reference = new_game(straight, seed=21, opponents="normal")
        reference = play_out(straight, reference, key(reference))
    store = open_store(tmp_path)
    with client(store) as c:
        state = new_game(c, seed=21, opponents="normal")
        headers = key(state)
        for _ in range(6):
            state = act(c, state, choose(state), headers).json()
        before = c.get(f"/api/games/{state['id']}", headers=headers).json()
    store.close()
    again = open_store(tmp_path)
    with client(again) as restarted:  # a new server process, as after a crash
        assert restarted.get(f"/api/games/{state['id']}", headers=headers).json() == before
        final = play_out(restarted, before, headers)
    again.close()
    strip = ("id",)
    assert {k: v for k, v in final.items() if k not in strip} == {
        k: v for k, v in reference.items() if k not in strip}


def test_ai_choices_depend_on_the_seed_and_move_only() -> None:
    one, two = Game.new(seed=5, opponents="normal"), Game.new(seed=5, opponents="normal")
    random.seed(1)  # a process-wide stream must not matter
    one.act(one.deal.legal_actions(0)[0])
    random.seed(2)
    two.act(two.deal.legal_actions(0)[0])
    assert one.deal.history == two.deal.history


def test_import_kowah_does_not_import_the_web_stack() -> None:
    code = ("import sys, kowah, kowah.cli, kowah.svg, kowah.terminal, kowah.i18n; "
            "kowah.cli.build_parser(kowah.i18n.translator('en')); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'kowah.web') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_hint_is_the_coachs_advice_for_the_keys_seat(c: TestClient) -> None:
    state = new_game(c, seed=4, opponents="random", first=0, lang="cs")
    assert c.get(f"/api/games/{state['id']}/hint").status_code == 401  # it reads the hand
    hint = c.get(f"/api/games/{state['id']}/hint", headers=key(state)).json()
    assert hint["action"] == {"seat": 0, "do": "draw"}  # the opening turn must draw
    assert hint["version"] == state["version"]
    assert hint["lines"][0] == translator("cs").gettext("coach", "Hint: draw from the stock.")
    headers = key(state)
    state = act(c, state, {"do": "draw"}, headers).json()
    hint = c.get(f"/api/games/{state['id']}/hint", params={"lang": "en"}, headers=headers).json()
    assert hint["action"] in state["legal"]
    assert hint["lines"][0].startswith("Hint: discard")
    assert c.get("/api/games/AAAAAAAAAAAAAAAAAAAAAA/hint").status_code == 404


def test_the_page_loads_nothing_from_elsewhere(c: TestClient) -> None:
    import re

    page = c.get("/").text
    urls = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert urls and all(url.startswith(("/", "#")) for url in urls), urls
    for url in {url.split("?")[0] for url in urls if url.startswith("/")}:
        assert c.get(url).status_code == 200, url
    css = c.get("/static/kowah.css").text
    assert "http" not in css and "@import" not in css


def test_hard_opponents_answer_through_the_worker_threads(c: TestClient) -> None:
    state = new_game(c, seed=3, opponents="hard", first=0)
    after = act(c, state, choose(state), key(state))
    assert after.status_code == 200 and after.json()["version"] > state["version"]


def test_closing_a_game_frees_its_place_and_stops_it() -> None:
    store = open_store(None, max_games=2)
    with client(store) as c:
        one = new_game(c, seed=1, opponents="random")
        new_game(c, seed=2, opponents="random")
        closed = c.post(f"/api/games/{one['id']}/close", json={}, headers=key(one))
        assert closed.status_code == 200 and closed.json()["status"] == "closed"
        assert closed.json()["events"][-1]["kind"] == "close" and closed.json()["legal"] == []
        assert store.playing() == 1
        response = act(c, one, choose(one), key(one))
        assert response.status_code == 409 and response.json()["error"] == "closed"
    store.close()


def test_the_store_full_path_is_503_in_the_players_language() -> None:
    store = open_store(None, max_games=2)
    with client(store) as c:
        for n, address in enumerate(("10.0.0.1", "10.0.0.2")):
            c.post("/api/games", json={"seed": n}, headers=from_address(address)).raise_for_status()
        response = c.post("/api/games", json={"lang": "cs"}, params={"lang": "cs"})
        assert response.status_code == 503 and response.json()["error"] == "full"
        assert response.json()["message"] == translator("cs").gettext(
            "web", "Too many games are in play; try again later.")
    store.close()


def _hidden_shuffle(deck: list[Card], rng: random.Random, keep: int) -> list[Card]:
    """*deck* with the cards seat 0 cannot see shuffled: the other hands and the stock
    (*keep* < 0), or only the stock beyond *keep* cards."""
    if keep < 0:
        hidden = deck[8:]
        rng.shuffle(hidden)
        return deck[:8] + hidden
    start = 24 + keep
    hidden = deck[start:]
    rng.shuffle(hidden)
    return deck[:start] + hidden


def strip(response: Any) -> Any:
    """A response without what differs between two games anyway (ids, keys, links)."""
    body = response.json()
    if isinstance(body, dict):
        for name in ("id", "token", "invites", "watch"):
            body.pop(name, None)
    return response.status_code, body, {name: value for name, value in response.headers.items()
                                         if name not in ("content-length", "location", "date")}


def test_responses_to_one_person_do_not_leak_what_seat_0_cannot_see(c: TestClient) -> None:
    """Two deals that differ only in cards seat 0 cannot see give identical responses."""
    for seed in range(6):
        deck = list(KOWAH_DECK.cards)
        random.Random(seed).shuffle(deck)
        other = _hidden_shuffle(deck, random.Random(seed + 100), keep=-1)
        a, b = (c.post("/api/games", json={"deck": [str(x) for x in cards], "first": 0, "seed": seed})
                for cards in (deck, other))
        assert strip(a) == strip(b)
        keys = [key(a.json()), key(b.json())]
        for path in ("", "/record", "/hint"):
            one, two = (c.get(f"/api/games/{game.json()['id']}{path}", headers=k)
                        for game, k in zip((a, b), keys, strict=True))
            assert strip(one) == strip(two)
        take = [act(c, game.json(), {"do": "take"}, k) for game, k in zip((a, b), keys, strict=True)]
        assert strip(take[0]) == strip(take[1])


def test_each_event_of_an_answer_carries_the_view_after_it(c: TestClient) -> None:
    """A client plays an answer's events back from their views, never working out the rules."""
    state = new_game(c, seed=12, opponents="random", first=1)
    headers = key(state)
    for _ in range(25):
        if state["outcome"] is not None:
            break
        answer = act(c, state, choose(state), headers).json()
        events = answer["events"]
        assert events and all("view" in event for event in events)
        last = events[-1]["view"]
        for field in ("turn", "phase", "to_move", "stock", "hand", "hand_sizes", "latest_discard",
                      "discards", "declared", "public_draws"):
            assert last[field] == answer[field], field
        stocks = [event["view"]["stock"] for event in events]
        assert stocks == sorted(stocks, reverse=True)
        for event in events:
            if event["kind"] == "discard":
                assert event["view"]["discards"][event["seat"]][-1] == event["card"]
            if event["kind"] == "draw" and event["seat"] == 0:
                assert event["card"] in event["view"]["hand"]
        state = answer
    spectator = c.get(f"/api/games/{state['id']}", params={"since": "1"}).json()
    assert all(event["view"]["hand"] is None for event in spectator["events"])


def test_the_views_kept_while_acting_are_those_a_replay_gives() -> None:
    game = Game.new(seed=14, opponents="normal", first=2)
    for _ in range(20):
        if game.is_over:
            break
        after = game.version
        game.act(game.legal(0)[0])
        kept = game.views_since(0, after)
        replayed = restore(saved_data(game)).views_since(0, after)
        assert kept == replayed and len(kept) == game.version - after


def test_the_saved_record_is_the_librarys_record_at_every_step() -> None:
    from kowah.record import Record

    game = Game.new(seed=15, opponents="normal")
    while not game.is_over:
        saved = saved_data(game)
        assert {k: v for k, v in saved.items() if k != "kowah-web"} == Record.from_deal(game.deal).to_dict()
        game.act(game.legal(0)[0])


def test_a_hint_to_take_names_the_card() -> None:
    # With seat 2 first, seat 0 may take its discard; find a deal where the coach says to.
    for seed in range(40):
        game = Game.new(seed=seed, opponents="random", first=2)
        hint = game.hint(0, "en")
        if hint["action"] == {"seat": 0, "do": "take"}:
            latest = game.state(seat=0)["latest_discard"]
            name = translator("en").card(Card.parse(latest), "object")
            assert hint["lines"][0] == f"Hint: take {name}: it brings your hand closer to ready."
            coded = game.hint(0, "en", codes=True)["lines"][0]
            assert f"({latest})" in coded
            return
    pytest.fail("no deal where the coach says to take")


def test_codes_on_request_name_cards_with_their_codes(c: TestClient) -> None:
    state = new_game(c, seed=6, opponents="random", first=1)
    plain = c.get(f"/api/games/{state['id']}", headers=key(state)).json()
    coded = c.get(f"/api/games/{state['id']}", headers=key(state), params={"codes": "1"}).json()
    discard = next(i for i, e in enumerate(plain["events"]) if e["kind"] == "discard")
    card = plain["events"][discard]["card"]
    assert f"({card})" not in plain["events"][discard]["text"]
    assert f"({card})" in coded["events"][discard]["text"]
