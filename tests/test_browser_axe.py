"""axe-core finds no WCAG 2.2 A/AA violation on the page (nor the two best-practice rules the
issue names), in every language, at 1280×800 and 390×844: mid-deal, in the review and in the
friends panel (issue 26)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from axe import axe_source
from webpage import ARGS, LANGUAGES, chromium_path, serve, skip_without_browser

skip_without_browser()

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402
from test_browser import SLOW, create, idle, open_game, play_by_api  # noqa: E402

from kowah.web.app import create_app  # noqa: E402

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
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=ARGS)
        yield launched
        launched.close()


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
