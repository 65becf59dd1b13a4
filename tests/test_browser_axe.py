"""axe-core finds no WCAG 2.2 A/AA violation on the page (nor a best-practice one), in every
language, at 1280×800 and 390×844: mid-deal, in the review and in the friends panel; and every
accessible name and the status line of a whole deal, in every language, is a string the text
layer gave the page for that state (issue 26)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from axe import axe_source
from webpage import LANGUAGES, serve, skip_without_browser

skip_without_browser()

from playwright.sync_api import Browser, Page, expect  # noqa: E402
from test_browser import QUICK_WIN, SLOW, click_a_move, create, idle, open_game, over, play_by_api, state  # noqa: E402

from kowah.i18n import translator  # noqa: E402
from kowah.web.app import create_app  # noqa: E402
from kowah.web.text import count_text, page_strings  # noqa: E402

#: The WCAG 2.0–2.2 A and AA rules, the two rules issue 26 names (WCAG 2.5.3's check is
#: experimental in axe, so it is asked for by name) and the best-practice rules.
RUN = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                               "best-practice"]},
       "rules": {"label-content-name-mismatch": {"enabled": True}}}
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from serve(create_app(max_new_per_minute=100_000))



@pytest.fixture(scope="module")
def axe() -> str:
    try:
        return axe_source()
    except RuntimeError as error:
        if os.environ.get("KOWAH_BROWSER_TESTS", "").lower() == "required":
            raise
        pytest.skip(str(error))


def violations(page: Page, axe: str) -> list[dict[str, Any]]:
    """axe's violations on *page* now: rule, impact and the first elements (trimmed)."""
    page.add_script_tag(content=axe)
    found: list[dict[str, Any]] = page.evaluate(
        "async (options) => (await axe.run(document, options)).violations.map(v => ({id: v.id,"
        " impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 160))}))", RUN)
    return found


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_axe_violation_mid_deal_in_the_review_and_with_friends(browser: Browser, server: str, axe: str,
                                                                  lang: str, size: str) -> None:
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        created = create(page, server, lang, deck=SLOW, first=0, opponents="normal", seed=1)
        open_game(page, server, created, lang)
        page.locator("[data-action=stock]").click()  # mid-deal: a card just drawn, discards to make
        idle(page)
        assert violations(page, axe) == [], ("mid-deal", lang, size)

        over = create(page, server, lang, seed=7, opponents="easy")
        play_by_api(page, server, over)
        open_game(page, server, over, lang)
        page.locator("[data-action=review]").click()
        expect(page.locator("[data-review]")).to_be_visible()
        page.keyboard.press("ArrowRight")
        assert violations(page, axe) == [], ("review", lang, size)

        friends = create(page, server, lang, humans=3, names=["Jana", "Petr", "Eva"], seed=2)
        open_game(page, server, friends, lang)
        expect(page.locator("[data-people] li")).to_have_count(3)
        assert violations(page, axe) == [], ("friends", lang, size)
    finally:
        context.close()


# -- every accessible name and the status line: the text layer's words for that state ---------

LABELS = """() => [...document.querySelectorAll('#panel-table [aria-label]')]
  .filter((e) => e.offsetParent !== null || e.getClientRects().length)
  .map((e) => e.getAttribute('aria-label'))"""


def _flat(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_flat(item) for item in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_flat(item) for item in value)) if value else set()
    return set()


def _known(lang: str, now: dict[str, Any]) -> set[str]:
    """Every string the text layer gives the page for the state *now*: the page's words, the
    state's sentences (numbers filled in as the page fills them) and the seats' labels."""
    strings = page_strings(translator(lang))
    said = now["said"]
    known = _flat(strings) | _flat(said) | set(now["players"])
    for template in said["pile"]:
        known |= {template.replace("{count}", count_text(strings, "count.cards", n)) for n in range(40)}
    known |= {text.replace("{position}", str(n)) for text in _flat(strings["said"]) for n in range(1, 10)}
    known |= {count_text(strings, "count.stock", n) for n in range(120)}
    for key in ("stock.draw.count", "stock.count"):
        known |= {strings[key].replace("{count}", count_text(strings, "count.cards", n)) for n in range(120)}
    return known


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_accessible_name_of_a_whole_deal_is_the_text_layers(browser: Browser, server: str,
                                                                   lang: str) -> None:
    context = browser.new_context(viewport=SIZES["desktop"])  # type: ignore[arg-type]
    try:
        page = context.new_page()
        created = create(page, server, lang, deck=QUICK_WIN, first=0, opponents="normal", seed=1)
        open_game(page, server, created, lang)
        steps = 0
        while True:
            now = state(page)
            known = _known(lang, now)
            strange = [label for label in page.evaluate(LABELS) if label not in known]
            assert strange == [], (lang, steps, strange)
            status = page.locator("[data-status]").inner_text().strip()
            assert status in known, (lang, steps, status)
            for button in page.locator("[data-hand=you] [data-card]").all():
                code = button.get_attribute("data-card")
                assert button.get_attribute("aria-label") in {
                    now_said[code] for now_said in page_strings(translator(lang))["said"].values()
                    if code in now_said}
            if over(page) or steps > 40:
                break
            click_a_move(page)
            steps += 1
        assert over(page) and steps >= 2
    finally:
        context.close()
