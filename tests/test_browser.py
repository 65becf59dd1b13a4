"""The browser table end to end, in a real headless Chromium driven by Playwright (issue 18).

Whole deals by mouse, by keyboard alone and by the command box alone, in every language; no
card code in what a player reads or hears unless the setting asks for codes; the status line;
playback that never locks the table; the layout at 1280×800 and on a 390×844 phone; the visual
settings and the focus ring measured in pixels; the review of a deal. Short deals come from
chosen decks (a hand ready from the start), so that the whole file stays fast; one deal per
test is played as dealt by a seed. Screenshots go to ``build/screenshots`` (``KOWAH_SCREENSHOTS``
names another folder).
"""

from __future__ import annotations

import functools
import html
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sitepage import START, STARTED, StaticSite
from support import build_deck
from webpage import (
    LANGUAGES,
    ROOT,
    SHOTS,
    contrast,
    read_png,
    serve,
    skip_without_browser,
)

skip_without_browser()

from playwright.sync_api import (  # noqa: E402
    Browser,
    ConsoleMessage,
    FloatRect,
    Page,
    Route,
    ViewportSize,
    expect,
)

from kowah.cards import Card  # noqa: E402
from kowah.i18n import translator  # noqa: E402
from kowah.rendering import render_rules  # noqa: E402
from kowah.svg import initials  # noqa: E402
from kowah.web.app import create_app  # noqa: E402
from kowah.web.text import key_letters, page_strings  # noqa: E402

#: A card code in a sentence (R3): what players must not read unless they ask for codes.
CODE = re.compile(r"(?<![\w/])([1-9][csm]|ot|rf|wf|ws|gs|mk)(?!\w)")
#: Your hand is ready from the start; the White Flower you draw goes back; a Five of Coins
#: comes next, so that the deal ends a few moves after you declare.
QUICK_WIN = [str(card) for card in build_deck(
    ("5c 5c 5s 5s 5m 8c 8c 8c", "1c 1c 2s 3m 4c 6s 7m 9c", "1s 2m 3c 4s 6m 7c 9s 9m"), "wf 3s 5c")]
#: Seat 1 is ready from the start and wins a few moves later.
QUICK_LOSE = [str(card) for card in build_deck(
    ("1c 3s 4m 6c 8s 9m ot rf", "2c 2c 2s 2s 2m 7c 7c 7c", "1s 3m 4c 6s 8m 9c wf ot"), "3c 9s 2c 2s")]

#: No hand is near ready: you get a second turn, with a discard to take.
SLOW = [str(card) for card in build_deck(
    ("1c 3s 4m 6c 8s 9m ot rf", "1s 2m 3c 4s 6m 7c 9s 5c", "2c 4c 5m 6s 7m 8c wf 1m"), "2s 4s 9c")]


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[str]:
    """The table on uvicorn, in a thread (games in a temporary database); or, for the tests
    that play with ``indirect`` ``"static"``, the static site (kowah site), whose Worker answers
    the same requests (one suite, both transports)."""
    if getattr(request, "param", "served") == "static":
        yield request.getfixturevalue("site_url")
        return
    yield from serve(create_app(max_new_per_minute=100_000))


#: The languages of the tests that play, on both transports (the static site's in two, since
#: each of its pages starts Python afresh).
BOTH = [*[("served", lang) for lang in LANGUAGES], ("static", "en"), ("static", "cs")]


class Console:
    """The page's console errors and uncaught exceptions (but answers a test expects: a
    refused action logs "Failed to load resource: … 409")."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.expected: list[int] = []
        page.on("console", self.console)
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))

    def console(self, message: ConsoleMessage) -> None:
        expected = any(f"status of {status} " in message.text for status in self.expected)
        if message.type in ("error", "warning") and not expected:
            self.errors.append(f"{message.type}: {message.text}")


def context_page(browser: Browser, phone: bool = False, **options: Any) -> tuple[Any, Page, Console]:
    size: ViewportSize = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone, accept_downloads=True,
                                  **options)
    opened = context.new_page()
    return context, opened, Console(opened)


@pytest.fixture
def console_and_page(browser: Browser) -> Iterator[tuple[Console, Page]]:
    context, opened, console = context_page(browser)
    yield console, opened
    context.close()
    assert console.errors == [], console.errors  # no console errors, in every test


@pytest.fixture
def page(console_and_page: tuple[Console, Page]) -> Page:
    return console_and_page[1]


@pytest.fixture
def console(console_and_page: tuple[Console, Page]) -> Console:
    return console_and_page[0]


# -- opening games and reading the page -----------------------------------------------------


def create(page: Page, server: str, lang: str = "en", **fields: Any) -> dict[str, Any]:
    """A new game made through the API (a chosen deck, seed, AIs…): its creation answer. On
    the static site, the page makes it through its own transport."""
    if isinstance(server, StaticSite):
        page.goto(f"{server.page(lang)}?pace=0&lang={lang}")
        idle(page)  # its own first deal is made and kept first: then it cannot overwrite ours
        made: dict[str, Any] = page.evaluate("""async (fields) => {
            const { Api } = await import('/static/js/api.js');
            return new Api(document.documentElement.lang).newGame(fields); }""", {"lang": lang, **fields})
        return made
    answer = page.request.post(f"{server}/api/games?lang={lang}", data={"lang": lang, **fields})
    assert answer.status == 201, answer.text()
    created: dict[str, Any] = answer.json()
    return created


def open_game(page: Page, server: str, created: dict[str, Any], lang: str = "en", pace: float = 0) -> None:
    """Show *created* in *page*, from the creator's seat (its key in the link's fragment)."""
    token = created.get("token")
    if isinstance(server, StaticSite):  # this browser's solo game, as the page keeps it
        page.evaluate("""([id, token]) => { localStorage.setItem('kowah-game', id);
            localStorage.setItem('kowah-token:' + id, token); }""", [created["id"], token])
        page.goto(f"{server.page(lang)}?pace={pace}&lang={lang}")
        idle(page)
        return
    page.goto(f"{server}/games/{created['id']}?pace={pace}&lang={lang}" + (f"#key={token}" if token else ""))
    idle(page)


def play_deck(page: Page, server: str, deck: list[str], lang: str = "en", pace: float = 0,
              **fields: Any) -> dict[str, Any]:
    """A game of *deck*, seat 0 first, against two normal AIs whose choices a seed fixes (a
    deck alone would leave them to chance, and the quick deals less quick)."""
    created = create(page, server, lang, deck=deck, first=0, opponents="normal", **{"seed": 1, **fields})
    open_game(page, server, created, lang, pace)
    return created


def idle(page: Page) -> None:
    page.wait_for_function(STARTED, timeout=START)  # a static page's Python has started
    page.wait_for_function("() => { const t = document.querySelector('.table-panel');"
                           " return t.dataset.busy === 'false' && t.dataset.playing === 'false'; }")


def state(page: Page) -> dict[str, Any]:
    """The current state, fetched by the page itself with its seat's key."""
    result: dict[str, Any] = page.evaluate("""async () => {
        const id = location.pathname.startsWith('/games/') ? location.pathname.split('/')[2]
                                                           : localStorage.getItem('kowah-game');
        const token = localStorage.getItem('kowah-token:' + id);
        const headers = token ? {authorization: 'Bearer ' + token} : {};
        if (JSON.parse(document.getElementById('kowah-data').textContent).site) {  // the Worker's
          const { Api } = await import('/static/js/api.js');
          return new Api(document.documentElement.lang).state(id); }
        return (await fetch('/api/games/' + id, {headers})).json(); }""")
    return result


def over(page: Page) -> bool:
    return bool(page.locator("[data-outcome]").count())


MOVES = ("[data-action=declare]:not([disabled])", "[data-hand=you] .card.new:not([aria-disabled=true])",
         "[data-hand=you] [data-card]:not([aria-disabled=true])",
         "[data-action=stock]:not([aria-disabled=true])")


def click_a_move(page: Page) -> None:
    """One move by mouse: declare when offered, else discard the card just drawn (or the first
    card), else draw by clicking the stock."""
    for selector in MOVES:
        target = page.locator(selector)
        if target.count():
            target.first.click()
            idle(page)
            return
    raise AssertionError("no move offered: " + page.locator("[data-status]").inner_text())


def play_until_over(page: Page, move: Callable[[Page], None] = click_a_move, limit: int = 200) -> None:
    for _ in range(limit):
        if over(page):
            return
        move(page)
    raise AssertionError("the deal did not end")


def sentences(page: Page) -> list[str]:
    """Every sentence a player reads or hears: the log, the status, the hint, the live region
    and the end panel."""
    found: list[str] = page.evaluate("""() => [
        ...[...document.querySelectorAll('[data-log] li, [data-live] p, .hint p')].map(e => e.textContent),
        document.querySelector('[data-status]').textContent,
        document.querySelector('.outcome').innerText]""")
    return [text for text in found if text.strip()]


def shot(page: Page, name: str, capsys: pytest.CaptureFixture[str]) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    page.screenshot(path=str(path), full_page=False)
    return path


# -- whole deals ------------------------------------------------------------------------------


@pytest.mark.parametrize(("server", "lang"), BOTH, indirect=["server"])
def test_a_whole_deal_by_mouse_names_cards_not_codes(page: Page, server: str, lang: str) -> None:
    play_deck(page, server, QUICK_LOSE, lang)
    t = translator(lang)
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("[data-tab=table]").inner_text() == t.gettext("web", "Table")
    assert page.locator("[data-hand=you] [data-card]").count() == 8
    page.locator("[data-action=hint]").click()
    page.wait_for_selector("[data-hint]:not([hidden])")
    play_until_over(page)
    final = state(page)
    outcome = page.locator("[data-outcome]")
    assert outcome.get_attribute("data-outcome") == final["outcome"]["result"] == "win"
    assert final["outcome_text"] in outcome.inner_text()
    assert f"×{final['outcome']['multiplier']}" in outcome.inner_text()
    assert page.locator(f'[data-winning-card="{final["outcome"]["card"]}"]').count() == 1
    said = sentences(page)
    assert len(said) >= 8
    assert [text for text in said if CODE.search(text)] == []
    visible = page.locator("[data-table]").inner_text() + page.locator(".log").inner_text()
    assert CODE.search(visible) is None, CODE.search(visible)
    # Your losing deal ends with the card's name, in the language (in the form the sentence needs).
    card = Card.parse(final["outcome"]["card"])
    assert any(t.card(card, form) in outcome.inner_text() for form in ("name", "object", "with"))
    # The Full rules tab: the players' edition, under the tagline and the pack's origin.
    page.locator("[data-tab=rules]").click()
    edition = render_rules(t, "html", edition="players")
    for part in ("tagline", "origin"):
        line = edition.split(f'<p class="{part}">', 1)[1].split("</p>", 1)[0]
        assert page.locator(f"#panel-rules .{part}").inner_text() == html.unescape(line)
    rules = page.locator("#panel-rules").inner_text()
    assert "kowah play" not in rules and "(R1" not in rules and "R14" not in rules


@pytest.mark.parametrize("server", ["served", "static"], indirect=True)
def test_the_codes_setting_adds_codes_to_every_sentence(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_WIN)
    page.locator("[data-menu]").click()
    page.locator("input[name=codes]").check()
    idle(page)
    click_a_move(page)  # draw: "You draw White Flower (wf)."
    assert "(wf)" in page.locator("[data-log]").inner_text()
    page.locator("[data-command]").fill("hand")
    page.locator("[data-command]").press("Enter")
    expect(page.locator("[data-command-answer]")).to_contain_text("(5c)")
    page.reload()
    idle(page)
    assert page.locator("input[name=codes]").is_checked()


@pytest.mark.parametrize(("server", "lang"), BOTH, indirect=["server"])
def test_a_whole_deal_by_keyboard_alone(page: Page, server: str, lang: str) -> None:
    play_deck(page, server, QUICK_WIN, lang)
    keys = key_letters(translator(lang))
    assert len(set(keys.values())) == len(keys) and all(len(key) == 1 for key in keys.values())
    assert page.locator("[data-action=draw] kbd").inner_text() == keys["draw"]
    page.keyboard.press(keys["draw"].lower())
    idle(page)
    cards = page.locator("[data-hand=you] [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.keyboard.press(str(cards.index("wf") + 1))  # the White Flower just drawn goes back
    idle(page)
    assert page.locator("[data-action=declare]").count() == 2  # waits 5c and 5s
    page.keyboard.press(keys["declare"].lower())  # two waits: the first gets the focus
    assert page.evaluate("document.activeElement.dataset.wait") == "5c"
    page.keyboard.press("Enter")
    idle(page)
    assert over(page)
    assert state(page)["outcome"]["winner"] == 0
    # Keyboard focus is visible, and N starts a new deal.
    page.locator(".outcome [data-action=new-deal]").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") not in ("none", "")
    page.keyboard.press(keys["new"].lower())
    idle(page)
    assert not over(page)


def ask_box(page: Page, text: str) -> str:
    """What the page tells screen readers after *text* is typed in the command box and sent."""
    box = page.locator("[data-command]")
    box.fill(text)
    box.press("Enter")
    idle(page)
    return str(page.locator("[data-live] p").last.text_content())


@pytest.mark.parametrize(("server", "lang"), BOTH, indirect=["server"])
def test_a_whole_deal_by_the_command_box_alone(page: Page, server: str, lang: str) -> None:
    play_deck(page, server, QUICK_WIN, lang)
    strings = page_strings(translator(lang))
    word = {key: words[0] for key, words in strings["commands"].items()}
    box = page.locator("[data-command]")
    page.locator("body").press("/")
    expect(box).to_be_focused()
    answer = page.locator("[data-command-answer]")
    ask = functools.partial(ask_box, page)
    hand = ask(word["hand"])
    assert strings["cards"]["5c"] in hand and CODE.search(hand) is None
    assert "96" in ask(word["stock"])
    ask(word["draw"])
    assert page.locator("[data-hand=you] [data-card]").count() == 9
    ask(f"{word['discard']} {strings['cards']['wf']}")  # the card by its name, in the language
    assert page.locator("[data-hand=you] [data-card]").count() == 8
    assert strings["cards"]["wf"] in ask(word["discards"])
    yours = ask(f"{word['discards']} 0")  # one seat's pile: yours
    assert strings["cards"]["wf"] in yours and state(page)["players"][1] not in yours
    assert page_strings(translator(lang))["keys.letters"]["draw"] in ask(word["help"])
    assert strings["cards"]["5s"] in ask(word["waits"])  # your hand is ready: waits 5c or 5s
    said = ask(word["declare"])  # two waits: which? (named as the catalogue asks: cs "pětku mincí")
    t = translator(lang)
    assert t.card(Card.C5, "object") in said or t.card(Card.C5) in said
    assert not over(page)
    ask(f"{word['declare']} 5c")  # …the code works in every language
    page.wait_for_selector("[data-outcome]")
    assert state(page)["outcome"]["winner"] == 0
    assert ask(word["last"]) == page.locator("[data-log] li").last.inner_text()
    assert ask("xyzzy") and "xyzzy" in answer.inner_text()


def test_a_deal_as_dealt_shows_the_status_of_the_right_seat(page: Page, server: str) -> None:
    created = create(page, server, seed=20261201, opponents="easy")
    open_game(page, server, created)
    for _ in range(12):
        if over(page):
            break
        now = state(page)
        status = page.locator("[data-status]").inner_text()
        mover = now["to_move"][0] if now["to_move"] else None
        others = [name for seat, name in enumerate(now["players"]) if seat != now["seat"]]
        if mover is not None and mover != now["seat"]:  # the text layer's sentence, as it is
            assert status == now["said"]["waiting"][mover]
        else:
            assert not any(name in status for name in others), status
        click_a_move(page)
    said = sentences(page)
    assert len(said) > 12 and [text for text in said if CODE.search(text)] == []


#: Everything the live region says, collected as it is said (it keeps its last lines only).
HEAR = """() => { window.said = [...document.querySelectorAll('[data-live] p')].map(p => p.textContent);
  new MutationObserver((changes) => { for (const change of changes) for (const node of change.addedNodes)
    window.said.push(node.textContent); })
    .observe(document.querySelector('[data-live]'), {childList: true}); }"""


def test_the_live_region_says_what_matters(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_WIN)
    page.evaluate(HEAR)
    t = translator("en")
    live = page.locator("[data-live]")
    strings = page_strings(t)
    expect(live).to_contain_text(state(page)["said"]["deal"])
    expect(live).to_contain_text(strings["said"]["name"]["8c"])
    expect(live).to_contain_text(strings["status.draw"])
    click_a_move(page)
    click_a_move(page)  # the White Flower back
    expect(live).to_contain_text(strings["status.declare"])
    page.locator("[data-action=declare]").first.click()
    idle(page)
    final = state(page)
    expect(live).to_contain_text(final["outcome_text"])
    assert "×" in final["outcome_text"]
    # Every move of the others was said, each in the words of the log.
    said = page.evaluate("window.said")
    theirs = page.locator("[data-log] li:not(.mine):not(.win)").all_inner_texts()
    assert len(theirs) >= 3 and [line for line in theirs if line not in said] == []
    # The hint is said once, in the live region only (its box is no live region).
    assert page.locator("[data-hint]").get_attribute("role") is None


#: Everything the live region says from the page's first moment (installed before it loads).
HEAR_FROM_THE_START = """window.said = [];
new MutationObserver((changes) => { for (const change of changes) for (const node of change.addedNodes)
  if (node.nodeName === 'P' && node.parentElement && node.parentElement.matches('[data-live]'))
    window.said.push(node.textContent); }).observe(document, {childList: true, subtree: true});"""


def test_the_moves_before_your_first_turn_are_announced(page: Page, server: str) -> None:
    page.add_init_script(HEAR_FROM_THE_START)
    created = create(page, server, seed=5, first=1, opponents="random")
    open_game(page, server, created)
    now = state(page)
    theirs = page.locator("[data-log] li:not(.mine):not(.win)").all_inner_texts()
    assert now["to_move"] == [0] and len(theirs) >= 4  # two AIs drew and discarded (at least)
    said = page.evaluate("window.said")
    assert said.index(now["said"]["deal"]) < said.index(theirs[0])
    assert [line for line in theirs if line not in said] == []
    page.reload()  # a fresh look at the same moment tells the same
    idle(page)
    assert [line for line in theirs if line not in page.evaluate("window.said")] == []


def test_the_command_box_answers_clock_and_who(page: Page, server: str) -> None:
    strings = page_strings(translator("cs"))
    word = {key: words[0] for key, words in strings["commands"].items()}
    ask = functools.partial(ask_box, page)
    play_deck(page, server, QUICK_WIN, "cs")
    t = translator("cs")
    assert ask(word["clock"]) == t.gettext("web", "This table has no turn clock.")
    assert ask(word["who"]) == " ".join([
        t.gettext("web", "{name}: {status}.").format(name=t.seat_name(0, viewer=0),
                                                      status=t.gettext("web", "online")),
        *[t.gettext("web", "{name}: {status}.").format(name=name, status=t.gettext("web", "AI"))
          for name in (t.seat_name(1, viewer=0), t.seat_name(2, viewer=0))]])
    assert ask("clock") == ask(word["clock"])  # the English word works in every language
    play_deck(page, server, QUICK_WIN, "cs", turn_seconds=600)
    answer = ask(word["clock"])
    left = re.fullmatch(t.gettext("web", "Time left for your turn: {count}.").replace(".", r"\.").format(
        count=r"(\d+)\s\w+"), answer)
    assert left is not None and 590 <= int(left.group(1)) <= 600, answer
    assert word["turn"] != word["who"] and "who" not in strings["commands"]["turn"]


def my_discards_late_in_a_deal(page: Page, server: str, at_least: int = 24) -> dict[str, Any]:
    """A game in which seat 0 has made *at_least* discards and the deal goes on (played by the
    API: draw, then discard the card drawn; never declare)."""
    for seed in range(1, 20):
        created = create(page, server, seed=seed, opponents="random")
        headers = {"authorization": f"Bearer {created['token']}"}
        now = created
        while now["outcome"] is None and len(now["discards"][0]) < at_least:
            legal = now["legal"]
            action = next((a for kind in ("draw", "discard", "pass") for a in reversed(legal)
                           if a["do"] == kind), legal[0])
            fields = {key: value for key, value in action.items() if key != "seat"}
            answer = page.request.post(f"{server}/api/games/{now['id']}/actions", headers=headers,
                                       data={**fields, "after": now["version"]})
            assert answer.ok, answer.text()
            now = answer.json()
        if now["outcome"] is None:
            return {**now, "token": created["token"]}
    raise AssertionError("every deal ended early")


#: Each of your discards: inside the viewport's width, and its own at a point of its visible part
#: (the page scrolled up or down to it; nothing scrolled sideways, as a finger would not).
REACHABLE = """() => { const found = [];
  for (const item of document.querySelectorAll('[data-pile="0"] li')) {
    scrollTo(0, Math.max(0, item.getBoundingClientRect().top + scrollY - innerHeight / 2));
    const box = item.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
    found.push({left: box.left, right: box.right, width: innerWidth, own: !!hit && item.contains(hit)});
  }
  return found; }"""


def test_your_own_discards_stay_reachable_on_a_phone_late_in_a_deal(browser: Browser, server: str) -> None:
    context, view, console = context_page(browser, phone=True)
    created = my_discards_late_in_a_deal(view, server)
    open_game(view, server, created)
    found = view.evaluate(REACHABLE)
    assert len(found) == len(created["discards"][0]) >= 24
    assert [item for item in found if not (item["left"] >= 0 and item["right"] <= item["width"]
                                           and item["own"])] == []
    context.close()
    assert console.errors == []


# -- playback never locks the table -----------------------------------------------------------


#: Skip, then a look one task later: whatever the table does in between runs at once (no timer,
#: no request), so that a busy machine cannot make it late and the test needs no clock.
SKIP_AT_ONCE = """async () => {
  document.querySelector('[data-action=skip]').click();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return {playing: document.querySelector('.table-panel').dataset.playing,
          outcome: document.querySelectorAll('[data-outcome]').length,
          lines: document.querySelectorAll('[data-log] li').length};
}"""


@pytest.mark.parametrize("ending", ["skip", "skip after declaring", "new deal"])
def test_skip_and_new_deal_answer_during_a_slow_playback(page: Page, server: str, ending: str) -> None:
    if ending == "skip after declaring":
        play_deck(page, server, QUICK_WIN, pace=5)
        click_a_move(page)  # draw the White Flower…
        click_a_move(page)  # …and discard it: your hand is ready
        page.locator("[data-action=declare]").first.click()  # locked: the rest plays itself
        mover = 1
    else:
        play_deck(page, server, QUICK_LOSE, pace=5)
        page.locator("[data-action=stock]").click()
        idle(page)
        page.locator("[data-hand=you] [data-card]:not([aria-disabled=true])").first.click()
        mover = 1
    # The others play at 5 s a move: the table says so, names who plays, and offers Skip.
    expect(page.locator(".table-panel")).to_have_attribute("data-playing", "true")
    expect(page.locator("[data-action=skip]")).to_be_visible()
    expect(page.locator("[data-status]")).to_have_text(state(page)["said"]["waiting"][mover])
    if ending.startswith("skip"):
        # The present at once: the outcome and the whole log, without waiting for the pace.
        jumped = page.evaluate(SKIP_AT_ONCE)
        final = state(page)
        assert jumped == {"playing": "false", "outcome": 1, "lines": final["version"]}, jumped
        assert final["outcome"]["winner"] == (0 if ending == "skip after declaring" else 1)
    else:
        # New deal asks first at once (the playback stops), then starts after a server's answer.
        old = state(page)["id"]
        page.keyboard.press("n")
        asked = page.evaluate("[document.querySelector('[data-confirm]').open,"
                              " document.querySelector('.table-panel').dataset.playing]")
        assert asked == [True, "false"], asked
        page.locator("[data-confirm-yes]").click()
        # The table shows another game (the old one's end stays on screen until it comes).
        page.wait_for_function("old => ![undefined, old].includes("
                               "document.querySelector('.table-panel').dataset.game)", arg=old)
        idle(page)
        fresh = state(page)
        assert fresh["id"] != old and fresh["id"] == page.evaluate("localStorage.getItem('kowah-game')")
        assert over(page) == (fresh["outcome"] is not None)  # as the new deal stands


def test_an_action_while_news_is_being_fetched_shows_the_table_busy_at_once(page: Page, server: str) -> None:
    page.route_web_socket("**/live", lambda socket: socket.close())  # no socket: the page polls
    play_deck(page, server, QUICK_WIN)
    held: list[Route] = []
    news = re.compile(r"/api/games/[\w-]+(\?[^/]*)?$")
    # The next poll's answer is late (the later ones are not).
    page.route(news, lambda route: route.continue_() if held else held.append(route))
    with page.expect_request(news):
        pass
    page.locator("[data-action=stock]").click()  # you draw meanwhile: the table is busy at once…
    assert page.locator(".table-panel").get_attribute("data-busy") == "true"
    held[0].continue_()
    idle(page)  # …and the draw goes through once the news is shown
    assert page.locator("[data-hand=you] [data-card]").count() == 9


# -- the page on a desk and on a phone --------------------------------------------------------


VISIBLE = """() => {
  const fits = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };
  const cards = [...document.querySelectorAll('[data-hand=you] [data-card]')];
  const buttons = [...document.querySelectorAll('.actions button')].filter(b => !b.hidden);
  return {scroll: scrollY, cards: cards.length, cardsIn: cards.filter(fits).length,
          buttons: buttons.length, buttonsIn: buttons.filter(fits).length,
          widths: cards.map(c => c.getBoundingClientRect().width),
          row: document.querySelector('[data-hand=you]').getBoundingClientRect().width,
          kbd: [...document.querySelectorAll('.actions kbd, .hand .pos')]
                 .filter(k => k.offsetParent !== null).length,
          keys: document.querySelector('[data-keys]').offsetParent !== null,
          settings: document.querySelector('.settings').offsetParent !== null};
}"""


@pytest.mark.parametrize("phone", [False, True], ids=["1280x800", "390x844"])
def test_the_hand_and_the_buttons_are_always_in_view(browser: Browser, server: str, phone: bool,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    context, view, console = context_page(browser, phone)
    play_deck(view, server, QUICK_WIN)
    seen = []
    for moment in range(4):  # the start, nine cards, declaring, the end
        measured = view.evaluate(VISIBLE)
        seen.append(measured)
        assert measured["scroll"] == 0
        assert measured["cardsIn"] == measured["cards"] >= 8, measured
        assert measured["buttonsIn"] == measured["buttons"], measured
        widths = measured["widths"]
        # At least 44 px a card (WCAG's target size) when they fit, else the row used to the full.
        if 44 * len(widths) <= measured["row"]:
            assert min(widths) >= 44, measured
        else:
            assert sum(widths) >= 0.95 * measured["row"], measured
        if moment < 3:
            click_a_move(view)
    assert over(view)
    if phone:
        play_deck(view, server, SLOW)  # eight cards of eight ranks: the most breaks in the row
        seen.append(view.evaluate(VISIBLE))
        assert min(seen[-1]["widths"]) >= 44, seen[-1]
        assert all(not (measured["settings"] or measured["kbd"] or measured["keys"]) for measured in seen)
        view.locator("[data-menu]").click()
        expect(view.locator("select[name=lang]")).to_be_visible()
    else:
        assert all(measured["kbd"] >= 4 and measured["keys"] for measured in seen)
    context.close()
    assert console.errors == []


@pytest.mark.parametrize("phone", [False, True], ids=["1280x800", "390x844"])
def test_screenshots_of_every_language(browser: Browser, server: str, phone: bool,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Mid-deal in every language, and the end of a deal in one, on a desk and on a phone."""
    paths = []
    size = "390x844" if phone else "1280x800"
    context, view, console = context_page(browser, phone)
    for lang in LANGUAGES:
        play_deck(view, server, QUICK_WIN, lang)
        click_a_move(view)
        paths.append(shot(view, f"table-{lang}-{size}.png", capsys))
    play_until_over(view)
    paths.append(shot(view, f"end-{LANGUAGES[-1]}-{size}.png", capsys))
    context.close()
    assert console.errors == []
    assert all(path.stat().st_size > 10_000 for path in paths)


# -- visual settings and focus, measured ------------------------------------------------------


def felt_pixels(page: Page) -> list[tuple[int, int, int]]:
    box = page.locator(".middle").bounding_box()
    assert box is not None
    _, _, pixels = read_png(page.screenshot(clip=box, animations="disabled"))
    return pixels


def set_slider(page: Page, name: str, value: int) -> None:
    page.evaluate("([name, value]) => { const input = document.querySelector(`input[name=${name}]`);"
                  " input.value = value; input.dispatchEvent(new Event('input', {bubbles: true})); }",
                  [name, value])


def test_the_sliders_change_the_whole_page_and_are_remembered(page: Page, server: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    play_deck(page, server, QUICK_WIN, "cs")
    assert page.locator("output[data-for=grain]").inner_text() == "50\xa0%"  # Czech percent format
    set_slider(page, "grain", 0)
    plain = felt_pixels(page)
    set_slider(page, "grain", 100)
    grainy = felt_pixels(page)
    grain = sum(abs(a - b) for one, other in zip(plain, grainy, strict=True)
                for a, b in zip(one, other, strict=True)) / (3 * len(plain))
    assert grain >= 6, grain
    # Contrast and temperature change the page outside the felt too (the log's paper).
    def log_colour() -> tuple[int, int, int]:
        box = page.locator(".log").bounding_box()
        assert box is not None
        _, _, pixels = read_png(page.screenshot(clip={**box, "height": 8, "y": box["y"] + 2}))
        return pixels[len(pixels) // 2]
    set_slider(page, "grain", 0)
    before = log_colour()
    set_slider(page, "temperature", 0)
    warm = log_colour()
    set_slider(page, "contrast", 100)
    strong = log_colour()
    assert warm != before and strong != warm, (before, warm, strong)
    page.reload()
    idle(page)
    sliders = ("contrast", "grain", "temperature")
    assert [page.locator(f"input[name={name}]").input_value() for name in sliders] == ["100", "0", "0"]
    assert page.locator("output[data-for=contrast]").inner_text() == "100\xa0%"


FOCUSABLE = {
    "a card of your hand, on the felt": "[data-hand=you] [data-card]",
    "a button on the felt": "[data-action=new-deal]",
    "the stock, on the felt": "[data-action=stock]",
    "a pile, on the felt": "[data-pile='1']",
    "the command box, on paper": "[data-command]",
    "the log, on paper": "[data-log]",
    "a tab, on the page's cream": "[data-tab=rules]",
    "a setting, on the dark header": "select[name=lang]",
}


def test_focus_rings_reach_three_to_one_on_every_background(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_WIN)
    set_slider(page, "grain", 0)  # the noise would count as a change
    for what, selector in FOCUSABLE.items():
        target = page.locator(selector).first
        box = target.bounding_box()
        assert box is not None, what
        clip: FloatRect = {"x": max(0, box["x"] - 12), "y": max(0, box["y"] - 12),
                           "width": box["width"] + 24, "height": box["height"] + 24}
        page.evaluate("document.activeElement && document.activeElement.blur()")
        _, _, before = read_png(page.screenshot(clip=clip, animations="disabled"))
        page.keyboard.press("Shift")  # the keyboard was used last: :focus-visible applies
        target.focus()
        _, _, after = read_png(page.screenshot(clip=clip, animations="disabled"))
        ratios = [contrast(one, other) for one, other in zip(before, after, strict=True) if one != other]
        strong = [ratio for ratio in ratios if ratio >= 3]
        perimeter = 2 * (box["width"] + box["height"])
        # A ring at least two pixels thick all round reaches 3:1 against what it covers.
        assert len(strong) >= 2 * perimeter, (what, len(strong), perimeter)


def test_new_card_suggestion_and_focus_look_different(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_WIN)
    click_a_move(page)  # the White Flower: a new card
    page.locator("[data-action=hint]").click()
    page.wait_for_selector(".suggested")
    styles = page.evaluate("""() => {
        const look = (e) => { const s = getComputedStyle(e);
                              return [s.outlineStyle, s.outlineColor, s.boxShadow].join('|'); };
        const fresh = document.querySelector('[data-hand=you] .card.new');
        const suggested = document.querySelector('.suggested');
        const other = [...document.querySelectorAll('[data-hand=you] .card')]
            .find(c => c !== fresh && c !== suggested);
        other.focus();
        return {fresh: look(fresh) + getComputedStyle(fresh.querySelector('.tag.new')).backgroundColor,
                suggested: look(suggested), focus: look(other)}; }""")
    assert len(set(styles.values())) == 3, styles


# -- keyboard reach, sounds, honours, rules ---------------------------------------------------


def test_every_card_pile_and_badge_is_reached_by_keyboard_with_its_name(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_LOSE)
    click_a_move(page)
    click_a_move(page)
    names = []
    for _ in range(80):
        page.keyboard.press("Tab")
        names.append(page.evaluate("""() => { const e = document.activeElement;
            return [e.tagName, e.getAttribute('aria-label') || e.textContent.trim()].join(' '); }"""))
    joined = "\n".join(names)
    assert "Discards of Seat 1" in joined and "Stock" in joined
    assert "Turn" in joined or "Declared checki" in joined
    # Along a pile with the arrow keys: each card by its name.
    page.locator("[data-pile='0']").focus()
    page.keyboard.press("ArrowRight")
    names = page_strings(translator("en"))["cards"].values()
    assert page.evaluate("document.activeElement.querySelector('img').alt") in names


def test_clicking_the_piles_draws_and_takes_and_your_wait_has_a_badge(page: Page, server: str) -> None:
    words = page_strings(translator("en"))
    play_deck(page, server, SLOW)
    page.locator("[data-action=stock]").click()  # the stock draws
    idle(page)
    assert page.locator("[data-hand=you] [data-card]").count() == 9
    page.locator("[data-hand=you] .card.new").click()
    idle(page)
    latest = page.locator("[data-action=latest]")  # the others have played: the latest discard
    expect(latest).to_have_attribute("aria-disabled", "false")
    card = latest.get_attribute("data-card")
    assert card is not None
    latest.click()  # …takes it
    idle(page)
    assert page.locator("[data-hand=you] [data-card]").count() == 9
    assert page.locator("[data-hand=you] .card.new").get_attribute("data-card") == card
    assert words["cards"][card] in page.locator("[data-log] li.mine").last.inner_text()
    # Your own declared wait has its badge, as the others' have.
    play_deck(page, server, QUICK_WIN, pace=5)
    click_a_move(page)
    click_a_move(page)
    page.locator("[data-action=declare]").first.click()
    badge = page.locator("[data-place=bottom] [data-declared='5c']")
    expect(badge).to_contain_text(words["your-wait"])
    expect(badge).to_contain_text(words["cards"]["5c"])
    assert badge.get_attribute("tabindex") == "0"


def test_move_sounds_are_off_by_default_and_play_when_asked(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_WIN)
    assert not page.locator("input[name=sounds]").is_checked()
    page.locator("[data-menu]").click()
    page.locator("input[name=sounds]").check()
    page.locator("[data-menu]").click()
    for _ in range(3):
        click_a_move(page)
    played = (page.locator("body").get_attribute("data-sounds") or "").split()
    assert {"turn", "claim", "end"} <= set(played), played


def test_honours_show_the_initials_of_their_names_in_the_language(page: Page, server: str) -> None:
    for lang in LANGUAGES:
        t = translator(lang)
        for code in ("ot", "rf", "wf"):
            picture = page.request.get(f"{server}/cards/{code}.svg?lang={lang}").text()
            mark = initials(t.card_name(Card.parse(code)))
            assert f">{mark}<" in picture, (lang, code, mark)
            if lang != "en":
                assert f">{code.upper()}<" not in picture, (code, lang)
    # The page asks for the pictures of its language.
    play_deck(page, server, QUICK_LOSE, "cs")
    source = page.locator("[data-hand=you] [data-card=ot] img").get_attribute("src")
    assert source is not None and source.endswith("/cards/ot.svg?lang=cs")


# -- the review of a deal -----------------------------------------------------------------------


def play_by_api(page: Page, server: str, created: dict[str, Any]) -> dict[str, Any]:
    """Play *created* to its end through the API (declare when offered, else the first legal
    action): a deal as dealt, without the page."""
    headers = {"authorization": f"Bearer {created['token']}"}
    now = created
    for _ in range(400):
        if now["outcome"]:
            return now
        legal = now["legal"]
        action = next((a for a in legal if a["do"] == "declare"), legal[0])
        fields = {key: value for key, value in action.items() if key != "seat"}
        answer = page.request.post(f"{server}/api/games/{now['id']}/actions", headers=headers,
                                   data={**fields, "after": now["version"]})
        assert answer.ok, answer.text()
        now = answer.json()
    raise AssertionError("the deal did not end")


STEPS = """async (where) => {
  const review = document.querySelector('[data-review]');
  const seen = [];
  const count = Number(review.dataset.count);
  for (let i = 0; i < count; i += 1) {
    const right = new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true});
    if (where === 'next') document.dispatchEvent(right);
    else document.querySelector('[data-review-step=prev]').click();
    seen.push({step: Number(review.dataset.step),
               stock: Number(review.querySelector('[data-review-stock]').dataset.reviewStock),
               faceUp: review.querySelectorAll('.review-hand:not(.pile) img').length,
               coach: review.querySelectorAll('[data-review-advice] [data-choice]').length,
               text: review.querySelector('[data-review-event]').textContent});
  }
  return seen;
}"""


def test_the_review_steps_through_a_whole_deal_and_back(page: Page, server: str) -> None:
    created = create(page, server, seed=7, opponents="easy")
    final = play_by_api(page, server, created)
    open_game(page, server, created)
    assert over(page)
    page.locator("[data-action=review]").click()
    review = page.locator("[data-review]")
    expect(review).to_be_visible()
    expect(review).to_have_attribute("data-step", "0")
    count = int(review.get_attribute("data-count") or 0)
    assert count >= 10
    forward: list[dict[str, Any]] = page.evaluate(STEPS, "next")
    assert [step["step"] for step in forward] == list(range(1, count + 1))
    stocks = [step["stock"] for step in forward]
    assert stocks == sorted(stocks, reverse=True) and stocks[-1] == final["stock"]
    assert all(step["faceUp"] >= 24 for step in forward)  # every hand face up
    assert sum(step["coach"] > 0 for step in forward) >= 3  # the coach at your decisions
    assert [step["text"] for step in forward if CODE.search(step["text"])] == []
    assert forward[-1]["text"] and forward[0]["text"] != forward[-1]["text"]
    page.keyboard.press("ArrowRight")  # the end stays the end
    expect(review).to_have_attribute("data-step", str(count))
    back: list[dict[str, Any]] = page.evaluate(STEPS, "prev")
    assert [step["step"] for step in back] == list(range(count - 1, -1, -1))
    assert [step["stock"] for step in back] == [96, *stocks[:-1]][::-1]
    page.keyboard.press("End")
    expect(review).to_have_attribute("data-step", str(count))
    page.keyboard.press("Home")
    expect(review).to_have_attribute("data-step", "0")
    page.locator("[data-action=review-close]").click()
    expect(page.locator("#panel-table")).to_be_visible()


@pytest.mark.parametrize("server", ["served", "static"], indirect=True)
def test_a_downloaded_record_replays_and_opens_in_the_review(page: Page, console: Console, server: str,
                                                             tmp_path: Path) -> None:
    play_deck(page, server, QUICK_LOSE)
    play_until_over(page)
    shown = state(page)["outcome"]
    with page.expect_download() as download:
        page.locator("[data-action=download-record]").click()
    saved = tmp_path / "deal.json"
    download.value.save_as(saved)
    result = subprocess.run([sys.executable, "-m", "kowah", "replay", "--json", str(saved)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    replayed = json.loads(result.stdout)
    assert replayed.pop("file") == str(saved)
    assert replayed == shown
    page.locator("[data-record-file]").set_input_files(str(saved))
    expect(page.locator("[data-review]")).to_be_visible()
    page.keyboard.press("End")
    assert page.locator("[data-review-event]").inner_text()
    page.locator("[data-action=review-close]").click()
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "kowah-record/1", "deck": ["5c"], "first": 0}')
    console.expected.append(400)  # the server refuses the record, and the page says why
    page.locator("[data-record-file]").set_input_files(str(broken))
    expect(page.locator("[data-alert]")).not_to_be_empty()


# -- the rest of the table ------------------------------------------------------------------------


@pytest.mark.parametrize("server", ["served", "static"], indirect=True)
def test_the_language_switch_changes_every_visible_text(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_WIN)
    click_a_move(page)
    page.locator("select[name=lang]").select_option("cs")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    idle(page)
    cs = translator("cs")
    assert cs.gettext("web", "Full rules") in page.locator("[data-tab=rules]").inner_text()
    assert "Seat" not in page.locator("[data-log]").inner_text()
    assert page.locator("[data-log] li").count() >= 1


@pytest.mark.parametrize("server", ["served", "static"], indirect=True)
def test_a_reload_mid_deal_resumes_the_game(page: Page, server: str) -> None:
    play_deck(page, server, QUICK_LOSE)
    click_a_move(page)
    before = state(page)
    hand = page.locator("[data-hand=you] [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    log = page.locator("[data-log] li").count()
    page.reload()
    idle(page)
    assert state(page)["version"] == before["version"]
    assert page.locator("[data-hand=you] [data-card]").evaluate_all(
        "cs => cs.map(c => c.dataset.card)") == hand
    assert page.locator("[data-stock]").inner_text() == str(before["stock"])
    assert page.locator("[data-log] li").count() == log


def test_reduced_motion_is_honoured(browser: Browser, server: str) -> None:
    animations = []
    for motion in ("no-preference", "reduce"):
        context, view, _ = context_page(browser, reduced_motion=motion)
        play_deck(view, server, QUICK_WIN)
        animations.append(view.evaluate("""() => { const img = document.createElement('img');
            document.querySelector('.latest-card').append(img);
            return getComputedStyle(img).animationName; }"""))
        context.close()
    assert animations == ["land", "none"]


def test_a_second_tab_that_acts_on_an_old_state_is_told_and_catches_up(browser: Browser, server: str) -> None:
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    console = Console(second)
    console.expected.append(409)
    created = play_deck(first, server, QUICK_LOSE)
    second.route_web_socket("**/live", lambda socket: None)  # no live news: the tab stays behind
    second.goto(f"{server}/games/{created['id']}?pace=0&lang=cs")  # the same seat (one localStorage)
    idle(second)
    first.locator("[data-action=stock]").click()
    idle(first)
    second.locator("[data-action=stock]").click()  # acts on the old state: 409, nothing changes
    expect(second.locator("[data-alert]")).to_have_text(translator("cs").gettext(
        "web", "The table has moved on (another tab or a double click): here is the current state."))
    idle(second)
    assert second.locator("[data-stock]").inner_text() == str(state(first)["stock"])
    context.close()
    assert console.errors == []


