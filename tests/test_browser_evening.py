"""An evening at one table in real browsers (issue 28), three people in three browser contexts:
deal after deal, a seat handed to the AI and taken back, an invite opened in the creator's own
browser, quick phrases in two languages at one table, and a half-open socket."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from friendstable import MOVES, QUICK, create, idle
from webpage import serve, skip_without_browser

skip_without_browser()

from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402

from kowah.i18n import translator  # noqa: E402
from kowah.web import api  # noqa: E402
from kowah.web.app import create_app  # noqa: E402
from kowah.web.phrases import phrase_text  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from serve(create_app(max_new_per_minute=100_000))


def link(server: str, created: dict[str, Any], seat: int, lang: str = "en") -> str:
    token = created["token"] if seat == 0 else next(
        invite["token"] for invite in created["invites"] if invite["seat"] == seat)
    return f"{server}/games/{created['id']}?pace=0&lang={lang}#key={token}"


def seated(contexts: list[BrowserContext], server: str, created: dict[str, Any],
           langs: tuple[str, ...] = ("en", "en", "en")) -> list[Page]:
    pages = []
    for seat, context in enumerate(contexts[:created["humans"]]):
        page = context.new_page()
        page.goto(link(server, created, seat, langs[seat]))
        idle(page)
        pages.append(page)
    return pages


def play_to_the_end(pages: list[Page]) -> None:
    for _ in range(80):
        if all(page.locator("[data-outcome]").count() for page in pages):
            return
        moved = False
        for page in pages:
            for selector in MOVES:
                target = page.locator(selector)
                if target.count():
                    target.first.click()
                    idle(page)
                    moved = True
                    break
        if not moved:
            pages[0].wait_for_timeout(100)
    raise AssertionError("the deal did not end")


def test_deal_after_deal_with_three_people(contexts: list[BrowserContext], server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=3, names=["Ana", "Bo", "Cy"], deck=QUICK, first=0)
    creator.close()
    pages = seated(contexts, server, created)
    play_to_the_end(pages)
    buttons = [page.locator(".outcome [data-action=new-deal]") for page in pages]
    for button in buttons:
        expect(button).to_have_text("Next deal")
    buttons[0].click()
    idle(pages[0])
    expect(pages[0].locator("[data-next] p")).to_have_text(
        "You asked for the next deal: it starts once every person at the table has.")
    expect(pages[1].locator("[data-log]")).to_contain_text("Ana asks for another deal.")
    buttons[1].click()
    buttons[2].click()
    for seat, page in enumerate(pages):  # the same table, a new deal: a new hand; deal 1 listed
        expect(page.locator("[data-outcome]")).to_have_count(0)
        expect(page.locator("[data-deal='1']")).to_contain_text("You win" if seat == 0 else "Ana wins")
        expect(page.locator("[data-hand=you] [data-card]")).to_have_count(8)
        assert f"/games/{created['id']}" in page.url
    record = pages[1].locator("[data-deal='1'] a")
    href = record.get_attribute("href", timeout=5000)
    assert href is not None and href.endswith(f"/api/games/{created['id']}/record?deal=1")


def test_a_guests_new_deal_asks_to_leave_the_table(contexts: list[BrowserContext], server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=2, names=["Ana", "Bo"], opponents="random", seed=9)
    creator.close()
    pages = seated(contexts, server, created)
    guest = pages[1]
    guest.locator("[data-action=new-deal]").first.click()
    dialog = guest.locator("[data-confirm]")
    expect(dialog).to_contain_text("Leave this table? The AI plays your seat from now on")
    guest.locator("[data-confirm-yes]").click()
    expect(pages[0].locator("[data-person='1']")).to_contain_text("left the table")
    assert f"/games/{created['id']}" in guest.url  # not sent off to a solo game


def test_the_creator_hands_an_absent_seat_to_the_ai_and_it_is_taken_back(
        contexts: list[BrowserContext], server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "OFFLINE_SECONDS", 0.0)
    creator = contexts[0].new_page()
    created = create(creator, server, humans=2, names=["Ana", "Bo"], opponents="random", seed=11,
                     first=1)
    creator.close()
    ana, bo = seated(contexts, server, created)
    bo.close()  # Bo's browser goes away on his turn
    expect(ana.locator("[data-person='1']")).to_contain_text("offline")
    ana.locator("[data-hand-over='1']").click()
    expect(ana.locator("[data-confirm]")).to_contain_text("Hand this seat to the AI?")
    ana.locator("[data-confirm-yes]").click()
    expect(ana.locator("[data-person='1']")).to_contain_text("AI for now")
    expect(ana.locator("[data-log]")).to_contain_text("Bo: the AI plays this seat until they come back.")
    back = contexts[1].new_page()
    back.goto(link(server, created, 1))
    idle(back)
    expect(ana.locator("[data-log]")).to_contain_text("Bo is back and plays again.")
    expect(ana.locator("[data-person='1']")).to_contain_text("online")


def test_an_invite_opened_in_the_creators_browser_keeps_the_creators_seat(
        contexts: list[BrowserContext], server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=3, names=["Ana", "Bo", "Cy"], opponents="random", seed=3)
    creator.goto(link(server, created, 0))
    idle(creator)
    checking = contexts[0].new_page()  # Ana opens Bo's link to check it, in her own browser
    checking.goto(link(server, created, 1))
    idle(checking)
    expect(checking.locator("[data-person='1']")).to_contain_text("(you)")
    again = contexts[0].new_page()  # and later comes back to the table without a link
    again.goto(f"{server}/games/{created['id']}?pace=0")
    idle(again)
    expect(again.locator("[data-person='0']")).to_contain_text("(you)")
    expect(again.locator("[data-invite]")).to_have_count(1)  # Cy's: the creator's view


def test_quick_phrases_in_two_languages_at_one_table(contexts: list[BrowserContext], server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=2, names=["Ana", "Bo"], opponents="random", seed=5)
    creator.close()
    ana, bo = seated(contexts, server, created, ("cs", "id"))
    bo.locator("[data-phrase=good-game]").click()
    czech = translator("cs").gettext("web", "{name}: {phrase}").format(
        name="Bo", phrase=phrase_text(translator("cs"), "good-game"))
    indonesian = translator("id").gettext("web", "You: {phrase}").format(
        phrase=phrase_text(translator("id"), "good-game"))
    expect(ana.locator("[data-log]")).to_contain_text(czech)
    expect(ana.locator("[data-live]")).to_contain_text(czech)  # told to screen readers
    expect(bo.locator("[data-log]")).to_contain_text(indonesian)
    expect(bo.locator("[data-phrase=thanks]")).to_have_text(phrase_text(translator("id"), "thanks"))


def test_a_half_open_socket_is_noticed_within_ten_seconds(contexts: list[BrowserContext],
                                                         server: str) -> None:
    creator = contexts[0].new_page()
    created = create(creator, server, humans=2, names=["Ana", "Bo"], opponents="random", seed=7)
    creator.close()
    ana, _bo = seated(contexts, server, created)
    connection = ana.locator("[data-connection]")
    expect(connection).to_have_attribute("data-connection", "live")
    contexts[0].set_offline(True)
    expect(connection).to_have_attribute("data-connection", "polling", timeout=10_500)
    contexts[0].set_offline(False)
    expect(connection).to_have_attribute("data-connection", re.compile("live|polling"))
