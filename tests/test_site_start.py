"""The static table's start (``kowah site``, issue 27's second visit): the memory snapshot and
the wheels unpacked by the browser.

The snapshot: the first
visit keeps Pyodide's memory, once the engine is imported, in Cache Storage under the build's
version; a later visit restores it instead of starting Python afresh, and answers exactly as a
fresh start does. A snapshot cut short, corrupted or made by another build is never used: the
table starts afresh and keeps a good one again. (A new build's snapshot: test_site.py's
``test_a_new_build_is_picked_up_whole_after_one_reload``.) The wheels: unpacked by the
browser's own decompression (wheels.js) into the very files zipfile reads; any other zip is
refused with a clear error. Nothing here is timed.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from typing import Any

import pytest
from sitepage import START, StaticSite
from webpage import skip_without_browser

skip_without_browser()

from playwright.sync_api import Browser, Page  # noqa: E402
from test_browser import click_a_move, idle  # noqa: E402
from test_site import Visit, new_game_in_page, open_site, page_state  # noqa: E402

from kowah.site.build import Site  # noqa: E402
from kowah.site.solo import Tables  # noqa: E402

#: The build's version, from the page.
VERSION = "() => JSON.parse(document.getElementById('kowah-data').textContent).site.version"
#: Whether this build's snapshot is kept (the Worker keeps it after its first answer).
KEPT = """async (version) => { const found = await caches.match(new URL('/static/js/kowah-snapshot',
  location.href).href, { cacheName: 'kowah-snapshot-' + version });
  return Boolean(found) && found.headers.get('x-kowah-version') === version; }"""
#: Once this build's snapshot is kept, at once, in the same call (the first visit's service
#: worker may still be filling the site's cache meanwhile: a Playwright context then once lost
#: the kept entry between two calls), puts *bytes* (a list of numbers, or null: the kept
#: snapshot's own) under this build's snapshot's key in the cache named for *cacheVersion*,
#: saying *saysVersion* and *length*.
SPOIL = """async ([version, cacheVersion, saysVersion, bytes, length]) => {
  const key = new URL('/static/js/kowah-snapshot', location.href).href;
  let kept;
  for (const end = Date.now() + START_MS; !(kept = await caches.match(key, { cacheName: 'kowah-snapshot-'
      + version })); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() > end) throw new Error('no snapshot kept');
  }
  const body = bytes === null ? new Uint8Array(await kept.arrayBuffer()) : new Uint8Array(bytes);
  await caches.delete('kowah-snapshot-' + version);
  const cache = await caches.open('kowah-snapshot-' + cacheVersion);
  await cache.put(key, new Response(body, { headers: { 'x-kowah-version': saysVersion,
    'x-kowah-length': String(length ?? body.length) } })); }""".replace("START_MS", str(START))

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
    version: str = page.evaluate(VERSION)
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


# -- the wheels, unpacked by the browser (wheels.js) ---------------------------------------------

#: wheels.js's files of a zip given in base64: [[name, sha256 hex], ...], or the error's message.
UNZIP = """async (data) => { const { wheelFiles } = await import('/static/js/wheels.js');
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  try {
    const files = await wheelFiles(bytes.buffer, 'test.whl');
    return await Promise.all(files.map(async ({ name, bytes }) => [name, [...new Uint8Array(
      await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('')]));
  } catch (error) { return error.message; } }"""


def _zip(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return base64.b64encode(buffer.getvalue()).decode()


def test_the_browser_unpacks_the_sites_wheels_as_zipfile_does_and_refuses_other_zips(
        browser: Browser, site: Site, site_url: StaticSite) -> None:
    visit = Visit(browser, site_url)
    page = visit.page
    page.goto(f"{site_url}?pace=0")
    for wheel in sorted((site.out / "wheels").glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            expected = sorted([info.filename, hashlib.sha256(archive.read(info)).hexdigest()]
                              for info in archive.infolist() if not info.is_dir())
        assert sorted(page.evaluate(UNZIP, base64.b64encode(wheel.read_bytes()).decode())) == expected
    stored = {"a/b.py": b"x = 1\n", "a/c.dat": bytes(range(256))}
    assert sorted(page.evaluate(UNZIP, _zip(stored, zipfile.ZIP_STORED))) == sorted(
        [name, hashlib.sha256(data).hexdigest()] for name, data in stored.items())
    refused = page.evaluate(UNZIP, _zip(stored, zipfile.ZIP_BZIP2))
    assert refused == "test.whl: a/b.py is compressed in a way this site does not read (12)"
    assert page.evaluate(UNZIP, _zip({"../evil.py": b""})) == "test.whl: a file outside the wheel"
    assert page.evaluate(UNZIP, base64.b64encode(b"not a zip at all").decode()) == "test.whl: not a zip file"
    visit.close()
