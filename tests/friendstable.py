"""What the browser tests of a friends' table share (tests/test_browser_friends.py and
tests/test_browser_evening.py): a quick deck, creating a table through the API, waiting for the
page to be idle, and the moves a person can click."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from support import build_deck

if TYPE_CHECKING:
    from playwright.sync_api import Page

#: Ana (seat 0) is ready at once and waits for a Five of Coins that Cy (seat 2) draws soon.
QUICK = [str(card) for card in build_deck(
    ("5c 5c 5s 5s 5m 8c 8c 8c", "1c 1c 2s 3m 4c 6s 7m 9c", "1s 2m 3c 4s 6m 7c 9s 9m"), "wf 3s 5c")]
IDLE = ("() => { const t = document.querySelector('.table-panel');"
        " return t.dataset.busy === 'false' && t.dataset.playing === 'false'; }")
MOVES = ("[data-action=declare]:not([disabled])", "[data-hand=you] .card.new:not([aria-disabled=true])",
         "[data-hand=you] [data-card]:not([aria-disabled=true])",
         "[data-action=stock]:not([aria-disabled=true])")


def create(page: Page, server: str, **fields: Any) -> dict[str, Any]:
    """A friends' table made through the API (201), as its creator's page would."""
    answer = page.request.post(f"{server}/api/games?lang=en", data={"lang": "en", **fields})
    assert answer.status == 201, answer.text()
    created: dict[str, Any] = answer.json()
    return created


def idle(page: Page) -> None:
    """Wait until the page is neither busy nor playing an animation."""
    page.wait_for_function(IDLE)
