"""Friends at one table in real browsers (issue 17, the page's side): the "Play with friends"
form and its invite links, three people playing one deal by clicking, each seeing only their own
hand; a reload and a lost connection mid-deal; a turn clock running out; a spectator."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from friendstable import MOVES, QUICK, create, idle
from webpage import serve, skip_without_browser

skip_without_browser()

from playwright.sync_api import (  # noqa: E402
    BrowserContext,
    Page,
    Route,
    WebSocketRoute,
    expect,
)

from kowah.web import live  # noqa: E402
from kowah.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from serve(create_app(max_new_per_minute=100_000))


def hand(page: Page) -> list[str]:
    cards: list[str] = page.locator("[data-hand=you] [data-card]").evaluate_all(
        "cs => cs.map(c => c.dataset.card)")
    return cards


def a_move(page: Page) -> bool:
    for selector in MOVES:
        target = page.locator(selector)
        if target.count():
            target.first.click()
            idle(page)
            return True
    return False


def seen_by_all(page: Page, server: str, created: dict[str, Any]) -> dict[str, Any]:
    """The game as a spectator sees it (who is to move, the outcome)."""
    view: dict[str, Any] = page.request.get(f"{server}/api/games/{created['id']}").json()
    return view


def with_pace(link: str) -> str:
    """*link* (an invite: its key in the fragment) with the playback pause turned off."""
    base, _, fragment = link.partition("#")
    return f"{base}?pace=0#{fragment}"


def seated(contexts: list[BrowserContext], server: str, created: dict[str, Any]) -> list[Page]:
    """The creator at seat 0 and a friend at each invite, each at their own link."""
    pages = []
    links = [f"{server}/games/{created['id']}#key={created['token']}",
             *[invite["url"] for invite in created["invites"]]]
    for context, link in zip(contexts, links, strict=False):
        page = context.new_page()
        page.goto(with_pace(link))
        idle(page)
        pages.append(page)
    return pages


def test_the_friends_form_makes_a_table_with_invite_links(contexts: list[BrowserContext],
                                                          server: str) -> None:
    page = contexts[0].new_page()
    page.goto(f"{server}/?pace=0&lang=en")
    idle(page)
    page.locator("[data-action=friends]").click()
    form = page.locator("[data-friends-form]")
    expect(form).to_be_visible()
    form.locator("input[name=humans][value='3']").check()
    form.locator("input[name=name0]").fill("Ana")
    form.locator("input[name=name1]").fill("Bo")
    form.locator("input[name=name2]").fill("Cy")
    form.locator("select[name=turn_seconds]").select_option("60")
    form.locator("button[value=create]").click()
    # The table's own address, without the key (the page is busy only once the form is sent).
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+(\?[^#]*)?$"))
    idle(page)
    assert "/games/" in page.url and "#" not in page.url
    invites = page.locator("[data-invite]")
    expect(invites).to_have_count(2)
    link = invites.first.locator("input").input_value()
    assert "#key=" in link
    invites.first.locator("[data-copy]").click()
    expect(invites.first.locator("[data-copy]")).to_have_text("Link copied.")
    expect(page.locator("[data-status]")).to_contain_text("Waiting")
    expect(page.locator("[data-people]")).to_contain_text("Bo")
    # Bo follows the link: he is named, joins, and the creator sees him arrive.
    friend = contexts[1].new_page()
    friend.goto(with_pace(link))
    idle(friend)
    assert "#" not in friend.url
    expect(page.locator("[data-person='1']")).to_contain_text("online")
    expect(page.locator("[data-invite]")).to_have_count(1)
    # The creator starts at once: an AI takes Cy's seat.
    page.locator("[data-action=start-now]").click()
    idle(page)
    expect(friend.locator("[data-log]")).not_to_be_empty()
    assert page.locator("[data-hand=you] [data-card]").count() >= 8


def test_a_copied_link_keeps_its_focus_and_its_word_while_the_table_changes(
        contexts: list[BrowserContext], server: str) -> None:
    page = contexts[0].new_page()
    created = create(page, server, humans=3, names=["Ana", "Bo", "Cy"])
    page.goto(f"{server}/games/{created['id']}?pace=0&lang=en#key={created['token']}")
    idle(page)
    copy = page.locator("[data-watch] [data-copy]")
    copy.focus()
    page.keyboard.press("Enter")
    expect(copy).to_have_text("Link copied.")
    page.evaluate("document.activeElement.dataset.focusedBefore = ''")  # the link, selected
    # A change that leaves the links as they are (the creator's quick phrase, said elsewhere):
    # the page shows it, and the links are not made again under the person's keyboard.
    said = page.request.post(f"{server}/api/games/{created['id']}/say?lang=en",
                             data={"phrase": "one-moment"},
                             headers={"authorization": f"Bearer {created['token']}"})
    assert said.status == 200, said.text()
    expect(page.locator("[data-log]")).to_contain_text("One moment")
    expect(copy).to_have_text("Link copied.")
    assert page.evaluate("'focusedBefore' in document.activeElement.dataset")


def test_three_people_play_one_table_to_the_end_by_clicking(contexts: list[BrowserContext],
                                                            server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=3, names=["Ana", "Bo", "Cy"], deck=QUICK, first=0)
    creator.close()
    pages = seated(contexts, server, created)
    for page in pages:
        expect(page.locator("[data-status]")).not_to_contain_text("Waiting")
    hands = [hand(page) for page in pages]
    assert all(len(cards) == 8 for cards in hands) and len({tuple(cards) for cards in hands}) == 3
    # Each sees the others by name, their hands as backs only.
    for me, page in enumerate(pages):
        for other, name in enumerate(["Ana", "Bo", "Cy"]):
            if other != me:
                expect(page.locator(f".seat[data-seat='{other}']")).to_contain_text(name)
                assert page.locator(f".seat[data-seat='{other}'] .hand").count() == 0
    for _ in range(60):
        if all(page.locator("[data-outcome]").count() for page in pages):
            break
        moved = False
        for page in pages:
            moved = a_move(page) or moved
        now = seen_by_all(pages[0], server, created)
        if not moved and not now["outcome"]:  # the mover's page learns the last move by its socket
            pages[now["to_move"][0]].locator(", ".join(MOVES)).first.wait_for()
    for page in pages:
        expect(page.locator("[data-outcome]")).to_have_count(1)
    texts = [page.locator(".outcome-text").inner_text() for page in pages]
    assert texts[0].startswith("You win") and "Ana" in texts[1] and "Ana" in texts[2]


def test_a_reload_and_a_lost_connection_mid_deal(contexts: list[BrowserContext], server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=2, names=["Ana", "Bo"], deck=QUICK, first=0)
    creator.close()
    sockets: list[WebSocketRoute] = []

    def relay(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        sockets.append(socket)

    contexts[1].route_web_socket("**/live", relay)
    ana, bo = seated(contexts, server, created)
    expect(bo.locator("[data-connection]")).to_have_attribute("data-connection", "live")
    sockets[-1].close(code=4000)  # the connection drops
    expect(bo.locator("[data-connection]")).to_have_attribute("data-connection", "polling")
    a_move(ana)  # Ana draws; Bo's page learns it by polling
    expect(bo.locator("[data-stock]")).to_have_text(ana.locator("[data-stock]").inner_text())
    expect(bo.locator("[data-connection]")).to_have_attribute("data-connection", "live")
    a_move(ana)  # and now by the socket again
    lines = ana.locator("[data-log] li").count()
    expect(bo.locator("[data-log] li")).to_have_count(lines)
    before = hand(bo)
    bo.reload()
    idle(bo)
    assert hand(bo) == before and bo.locator("[data-log] li").count() == lines
    # Bo leaves (asked first): an AI plays his seat, and Ana sees it.
    bo.locator("[data-action=leave]").click()
    bo.locator("[data-confirm-yes]").click()
    expect(bo.locator("[data-status]")).to_contain_text("You left this table")
    expect(ana.locator("[data-person='1']")).to_contain_text("left the table")


def test_a_turn_clock_runs_out_and_the_log_says_so(contexts: list[BrowserContext], server: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=2, names=["Ana", "Bo"], deck=QUICK, first=0,
                     turn_seconds=30)
    creator.close()
    ana, bo = seated(contexts, server, created)
    clock = ana.locator("[data-place=bottom] [data-clock]")
    expect(clock).to_be_visible()
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)  # it counts down
    expect(bo.locator("[data-clock='0']")).to_be_visible()  # Bo sees Ana's clock too
    monkeypatch.setattr(live, "clock", lambda: time.time() + 60)  # …and Ana's time runs out
    expect(bo.locator("[data-log] li").last).to_contain_text("Ana")
    expect(ana.locator("[data-log]")).to_contain_text("time")


def test_the_clock_shows_as_soon_as_the_deal_starts_with_nothing_else_drawn(
        contexts: list[BrowserContext], server: str) -> None:
    """The state that starts the clock draws it: no later news (a friend's socket, a move) is
    needed. Bo takes his seat through the API, with no page and so no socket of his own."""
    page = contexts[0].new_page()
    created = create(page, server, humans=2, names=["Ana", "Bo"], deck=QUICK, first=0,
                     turn_seconds=600)
    page.goto(with_pace(f"{server}/games/{created['id']}#key={created['token']}"))
    idle(page)
    expect(page.locator("[data-connection]")).to_have_attribute("data-connection", "live")
    answer = page.request.post(f"{server}/api/games/{created['id']}/join", data={},
                               headers={"authorization": f"Bearer {created['invites'][0]['token']}"})
    assert answer.status == 200, answer.text()
    expect(page.locator("[data-log]")).to_contain_text("The deal starts")
    expect(page.locator("[data-place=bottom] [data-clock]")).to_be_visible()


def test_who_is_connected_stays_as_the_socket_said_when_an_older_state_arrives_later(
        contexts: list[BrowserContext], server: str) -> None:
    """Bo joins; the news of it makes Ana's page ask for the state, and the answer is late:
    it was read before Bo's socket opened, and it arrives after the socket said "Bo is
    connected". Bo stays online on Ana's page (the state was older news)."""
    from websockets.sync.client import connect

    page = contexts[0].new_page()
    frames: list[Any] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(frame)))
    created = create(page, server, humans=3, names=["Ana", "Bo", "Cy"])
    page.goto(with_pace(f"{server}/games/{created['id']}#key={created['token']}"))
    idle(page)
    expect(page.locator("[data-connection]")).to_have_attribute("data-connection", "live")
    held: list[Route] = []
    news = re.compile(r"/api/games/[\w-]+(\?[^/]*)?$")
    page.route(news, lambda route: route.continue_() if held else held.append(route))
    bo = created["invites"][0]["token"]
    answer = page.request.post(f"{server}/api/games/{created['id']}/join", data={},
                               headers={"authorization": f"Bearer {bo}"})
    assert answer.status == 200, answer.text()

    def until(found: Callable[[], bool]) -> None:
        for _ in range(1000):  # Playwright runs the handlers while it is waited on
            if found():
                return
            page.wait_for_timeout(20)
        raise AssertionError("not seen in 20 s")

    until(lambda: bool(held))
    late = held[0].fetch()  # read now, before Bo's socket is open
    assert late.json()["seats"][1]["connected"] is False
    address = server.replace("http://", "ws://") + f"/api/games/{created['id']}/live"
    with connect(address) as socket:
        socket.send(json.dumps({"token": bo}))
        assert json.loads(socket.recv(timeout=10))["type"] == "hello"
        until(lambda: any('"presence"' in str(frame) and json.loads(frame)["connected"][1]
                          for frame in frames))
        held[0].fulfill(response=late)
        expect(page.locator("[data-invite]")).to_have_count(1)  # the late state is shown
        idle(page)
        expect(page.locator("[data-person='1']")).to_contain_text("online")
        expect(page.locator("[data-presence='1']")).to_contain_text("online")


def test_a_spectator_sees_the_table_but_no_hand(contexts: list[BrowserContext], server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, deck=QUICK, first=0)
    player = seated(contexts, server, created)[0]
    watcher = contexts[2].new_page()
    watcher.goto(f"{server}/games/{created['id']}?pace=0")
    idle(watcher)
    assert watcher.locator("[data-hand=you] [data-card]").count() == 0
    expect(watcher.locator("[data-status]")).to_contain_text("Seat 0")  # who is to move
    assert not watcher.locator("[data-action=draw]").is_visible()
    expect(watcher.locator("[data-friends-panel]")).to_be_visible()
    a_move(player)
    lines = player.locator("[data-log] li").count()
    expect(watcher.locator("[data-log] li")).to_have_count(lines)
    assert "White Flower" not in watcher.locator("[data-log]").inner_text()  # your draw is hidden from others
    watcher.locator("[data-command]").fill("hand")
    watcher.locator("[data-command]").press("Enter")
    expect(watcher.locator("[data-command-answer]")).to_contain_text("watching")
