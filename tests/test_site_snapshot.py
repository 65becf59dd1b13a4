"""The static table's memory snapshot (``kowah site``, issue 27's second visit): the first
visit keeps Pyodide's memory, once the engine is imported, in Cache Storage under the build's
version; a later visit restores it instead of starting Python afresh, and answers exactly as a
fresh start does. A snapshot cut short, corrupted or made by another build is never used: the
table starts afresh and keeps a good one again. (A new build's snapshot: test_site.py's
``test_a_new_build_is_picked_up_whole_after_one_reload``.) Nothing here is timed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sitepage import START, StaticSite
from webpage import skip_without_browser

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402
from test_browser import click_a_move, idle  # noqa: E402
from test_site import Visit, new_game_in_page, open_site, page_state  # noqa: E402

from kowah.site.solo import Tables  # noqa: E402

#: The build's version, from the page.
VERSION = "() => JSON.parse(document.getElementById('kowah-data').textContent).site.version"
#: Whether this build's snapshot is kept (the Worker keeps it after its first answer).
KEPT = """async (version) => { const found = await caches.match(new URL('/static/js/kowah-snapshot',
  location.href).href, { cacheName: 'kowah-snapshot-' + version });
  return Boolean(found) && found.headers.get('x-kowah-version') === version; }"""
#: Puts *bytes* (a list of numbers, or null: the kept snapshot's own) under this build's
#: snapshot's key in the cache named for *cacheVersion*, saying *saysVersion* and *length*.
SPOIL = """async ([version, cacheVersion, saysVersion, bytes, length]) => {
  const key = new URL('/static/js/kowah-snapshot', location.href).href;
  const kept = await caches.match(key, { cacheName: 'kowah-snapshot-' + version });
  const body = bytes === null ? new Uint8Array(await kept.arrayBuffer()) : new Uint8Array(bytes);
  await caches.delete('kowah-snapshot-' + version);
  const cache = await caches.open('kowah-snapshot-' + cacheVersion);
  await cache.put(key, new Response(body, { headers: { 'x-kowah-version': saysVersion,
    'x-kowah-length': String(length ?? body.length) } })); }"""

#: Whether this build's snapshot is the only one kept.
ONLY = """async (version) => JSON.stringify((await caches.keys()).filter((name) => name.startsWith(
  'kowah-snapshot-'))) === JSON.stringify(['kowah-snapshot-' + version])"""


def started(page: Page) -> str:
    """How the page's Python started: "snapshot" (restored) or "fresh"."""
    page.wait_for_function("() => document.documentElement.dataset.engineStart", timeout=START)
    how: str = page.evaluate("document.documentElement.dataset.engineStart")
    return how


def snapshot_kept(page: Page) -> str:
    version: str = page.evaluate(VERSION)
    page.wait_for_function(KEPT, arg=version, timeout=START)
    return version


def same_as_cpython(page: Page, origin: str) -> None:
    """A seeded deal made in the page is the one CPython's Tables make (but its id and key)."""
    made = new_game_in_page(page, seed=20261204, opponents="hard")
    expected = json.loads(Tables(origin).handle("POST", "/api/games", "lang=en", None,
                                                '{"seed": 20261204, "opponents": "hard"}').body)

    def plain(state: dict[str, Any]) -> str:
        text = json.dumps(state, sort_keys=True)
        for secret in (state["id"], state["token"]):
            text = text.replace(secret, "SECRET")
        return text

    assert plain(made) == plain(expected)


def test_a_second_visit_restores_the_snapshot_and_answers_as_a_fresh_start(browser: Browser,
                                                                           site_url: StaticSite) -> None:
    visit = Visit(browser, site_url)
    page = visit.page
    open_site(page, site_url)
    assert started(page) == "fresh"
    snapshot_kept(page)
    click_a_move(page)
    before = page_state(page)
    page.reload()
    idle(page)
    assert started(page) == "snapshot"
    assert page_state(page) == before  # the deal in play, resumed on the restored Python
    click_a_move(page)
    assert page_state(page)["version"] > before["version"]
    same_as_cpython(page, site_url.rstrip("/"))
    visit.close()


@pytest.mark.parametrize("spoiled", ["corrupt", "cut short", "another build's, here",
                                     "another build's, in its own cache"])
def test_a_snapshot_that_is_not_this_builds_whole_one_is_never_used(browser: Browser, site_url: StaticSite,
                                                                   spoiled: str) -> None:
    visit = Visit(browser, site_url)
    page = visit.page
    open_site(page, site_url)
    version = snapshot_kept(page)
    other = "0123456789abcdef"
    spoil = {"corrupt": [version, version, version, list(range(256)) * 64, None],
             "cut short": [version, version, version, None, 1 << 30],
             "another build's, here": [version, version, other, None, None],
             "another build's, in its own cache": [version, other, other, None, None]}[spoiled]
    page.evaluate(SPOIL, spoil)
    page.reload()
    idle(page)
    assert started(page) == "fresh"
    click_a_move(page)  # the table plays
    same_as_cpython(page, site_url.rstrip("/"))
    snapshot_kept(page)  # a good one is kept again, and no other build's is left
    page.wait_for_function(ONLY, arg=version, timeout=START)
    page.reload()
    idle(page)
    assert started(page) == "snapshot"
    visit.close()
