"""The static table (``kowah site``, issue 27) end to end: the built folder served by a plain
static file server on 127.0.0.1, in headless Chromium, every request to any other address
refused (and failing the test). The site is built once for the session.

Whole deals by clicking in two languages; the review; a record downloaded and loaded back; a
reload mid-deal; offline play after the first visit; a new build picked up whole; and the same
deal through the served page and the static page, answer for answer.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sitepage import CACHE, START, STARTED, Fence, build_site, serve_folder
from test_site_icons import read_png
from webpage import ROOT, serve, skip_without_browser

skip_without_browser()

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402
from test_browser import Console, click_a_move, idle, over, play_until_over  # noqa: E402

from kowah import Deal, Record  # noqa: E402
from kowah.i18n import translator  # noqa: E402
from kowah.players import make_player  # noqa: E402
from kowah.rendering import render_rules  # noqa: E402
from kowah.simulation import play_deal  # noqa: E402
from kowah.site.build import APPLE_ICON, CSP, PYODIDE, Site  # noqa: E402
from kowah.site.solo import Tables  # noqa: E402
from kowah.web.app import create_app  # noqa: E402

SITE_JS = Path(__file__).resolve().parent.parent / "kowah" / "site" / "js"
#: The page's own API object (api.js), through whichever transport the page set.
PAGE_API = ("const { Api } = await import('/static/js/api.js');"
            " const api = new Api(document.documentElement.lang);")



class Visit:
    """A browser context on one origin, fenced (:class:`~sitepage.Fence`), with its page."""

    def __init__(self, browser: Browser, origin: str) -> None:
        self.fence = Fence(origin)
        self.context: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 800},
                                                           accept_downloads=True)
        self.context.route("**/*", self.fence)
        self.page = self.context.new_page()
        self.console = Console(self.page)

    def close(self) -> None:
        self.context.close()
        assert self.fence.refused == [], self.fence.refused  # nothing from any other host
        assert self.console.errors == [], self.console.errors


@pytest.fixture
def visit(browser: Browser, site_url: str) -> Iterator[Visit]:
    opened = Visit(browser, site_url)
    yield opened
    opened.close()


def open_site(page: Page, url: str, lang: str = "en") -> None:
    page.goto(f"{url}{'' if lang == 'en' else lang + '/'}?pace=0")
    idle(page)
    expect(page.locator("[data-hand=you] [data-card]")).to_have_count(8)


def page_state(page: Page) -> dict[str, Any]:
    """The state of the page's game, asked through the page's own transport."""
    result: dict[str, Any] = page.evaluate(f"""async () => {{ {PAGE_API}
        const id = localStorage.getItem('kowah-game'); return api.state(id); }}""")
    return result


def new_game_in_page(page: Page, **fields: Any) -> dict[str, Any]:
    """A game made through the page's transport and made this browser's solo game."""
    made: dict[str, Any] = page.evaluate(f"""async (fields) => {{ {PAGE_API}
        const made = await api.newGame(fields); api.setToken(made.id, made.token);
        localStorage.setItem('kowah-game', made.id); return made; }}""", fields)
    return made


def wait_for_service_worker(page: Page) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


# -- the folder ------------------------------------------------------------------------------------


def test_the_folder_holds_the_page_the_runtime_and_trimmed_wheels(site: Site, tmp_path: Path) -> None:
    out = site.out
    for lang in ("it", "cs", "ms", "es", "id"):
        assert f'<html lang="{lang}">' in (out / lang / "index.html").read_text()
    index = (out / "index.html").read_text()
    assert f'content="{CSP}"' in index.replace("&#x27;", "'") and "'wasm-unsafe-eval'" in CSP
    assert "unsafe-inline" not in CSP and "http" not in CSP
    assert 'src="static/js/site.js"' in index and 'href="manifest.webmanifest"' in index
    # the classic first script (it starts the Worker) before the entry module; the rules'
    # pictures of the pack wait until the rules are shown
    assert index.index('<script src="static/js/start.js"></script>') < index.index('src="static/js/site.js"')
    assert len(re.findall(r'<li class="pack-card[^"]*"[^>]*><img loading="lazy" ', index)) == 33
    assert not re.search(r'(src|href)="(https?:)?//', index)  # nothing from another host
    assert (out / "pyodide" / PYODIDE / "pyodide.asm.wasm").is_file()
    assert not list(out.rglob("*.map")) and not (out / "pyodide" / PYODIDE / "console.html").exists()
    manifest = json.loads((out / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and (out / manifest["icons"][0]["src"]).is_file()
    assert "<svg" in (out / "icon.svg").read_text()
    # PNG icons beside the SVG: valid PNGs of the sizes the manifest states; Apple's in each page.
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert sorted(icon["sizes"] for icon in pngs) == ["192x192", "512x512"]
    for icon in pngs:
        width, height, _ = read_png((out / icon["src"]).read_bytes())
        assert f"{width}x{height}" == icon["sizes"]
    assert read_png((out / APPLE_ICON).read_bytes())[:2] == (180, 180)
    assert f'rel="apple-touch-icon" href="{APPLE_ICON}"' in index
    assert f'rel="apple-touch-icon" href="../{APPLE_ICON}"' in (out / "es" / "index.html").read_text()
    sw = (out / "sw.js").read_text()
    assert f'const VERSION = "{site.version}"' in sw and '"cs/"' in sw and '"wheels/' in sw
    # Babel's locale data: the six languages (and the root they inherit from) only.
    babel = next(out.glob("wheels/babel-*.whl"))
    with zipfile.ZipFile(babel) as wheel:
        data = sorted(name.split("/")[-1] for name in wheel.namelist() if "/locale-data/" in name)
    assert data == sorted(f"{name}.dat" for name in ("root", "en", "it", "cs", "ms", "es", "id"))
    # The wheels alone (no checkout, no other package) run the engine in all six languages.
    for path in out.glob("wheels/*.whl"):
        zipfile.ZipFile(path).extractall(tmp_path / "lib")
    script = (f"import sys; sys.path[:0] = [{str(tmp_path / 'lib')!r}];"
              "import json; from kowah.site.solo import Tables; t = Tables('http://x');"
              "r = t.handle('POST', '/api/games', '', None, '{\"seed\": 3}');"
              "g = json.loads(r.body); print(r.status, *(json.loads(t.handle('GET', '/api/games/'"
              " + g['id'], 'lang=' + l, 'Bearer ' + g['token'], '').body)['lang']"
              " for l in ('en','it','cs','ms','es','id')))")
    result = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["201", "en", "it", "cs", "ms", "es", "id"]


def test_the_runtime_ships_only_the_standard_modules_it_loads_and_all_as_bytecode(site: Site) -> None:
    runtime = site.out / "pyodide" / PYODIDE
    pyodides = CACHE / f"pyodide-{PYODIDE}" / "node_modules" / "pyodide" / "python_stdlib.zip"
    with zipfile.ZipFile(runtime / "python_stdlib.zip") as trimmed, zipfile.ZipFile(pyodides) as whole:
        kept, every = set(trimmed.namelist()), set(whole.namelist())
        magic = {trimmed.read(name)[:4] for name in kept if name.endswith(".pyc")}
        flags = {trimmed.read(name)[4:8] for name in kept if name.endswith(".pyc")}
    assert not any(name.endswith(".py") for name in kept)  # compiled: nothing to compile at a start
    modules = {name.removesuffix("c") for name in kept if name.endswith(".pyc")}
    assert modules < every and len(modules) < len([name for name in every if name.endswith(".py")]) / 2
    # what the engine, Babel, attrs and Pyodide's start load is there; what none of them uses is not
    for needed in ("json/decoder.py", "gettext.py", "decimal.py", "datetime.py", "pickle.py", "random.py",
                   "encodings/utf_8.py", "traceback.py", "pyodide/ffi/__init__.py", "_pyodide/_base.py"):
        assert needed in modules, needed
    for unused in ("unittest/__init__.py", "xmlrpc/client.py", "pydoc.py", "tkinter/__init__.py",
                   "imaplib.py", "multiprocessing/pool.py", "sqlite3/__init__.py", "turtle.py"):
        assert unused not in modules, unused
    assert len(magic) == 1 and flags == {(1).to_bytes(4, "little")}  # unchecked hash-based pycs (PEP 552)
    assert site.sizes[f"pyodide/{PYODIDE}/python_stdlib.zip"] < pyodides.stat().st_size
    # the wheels carry the loaded modules' bytecode for the same Python, beside their sources
    with zipfile.ZipFile(next(site.out.glob("wheels/kowah-*.whl"))) as wheel:
        names = set(wheel.namelist())
        # (Pyodide's major version names its Python: 314 runs CPython 3.14)
        deal = wheel.read(f"kowah/__pycache__/deal.cpython-{PYODIDE.split('.')[0]}.pyc")
    assert deal[:4] in magic and deal[4:8] == (1).to_bytes(4, "little") and "kowah/deal.py" in names
    assert "kowah/site/solo.py" in names and not any(name.startswith("kowah/site/trim") for name in names)
    assert not any("/__pycache__/cli." in name for name in names)  # not loaded in the browser


def test_the_site_scripts_are_small_modules() -> None:
    sizes = {path.name: len(path.read_text().splitlines()) for path in SITE_JS.glob("*.js")}
    assert {"start.js", "site.js", "worker.js", "sw.js", "engine.js", "keep.js", "offline.js", "snapshot.js",
            "wheels.js"} <= set(sizes)
    assert max(sizes.values()) <= 250, sizes


def test_kowah_site_refuses_a_friends_address_that_is_not_a_web_address(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "kowah", "site", str(tmp_path / "out"),
                             "--pyodide", str(tmp_path), "--friends-url", "javascript:alert(1)"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2 and "http://" in result.stderr and not (tmp_path / "out").exists()


# -- playing ---------------------------------------------------------------------------------------


def test_whole_deals_by_clicking_in_two_languages_with_the_review_and_the_record(
        visit: Visit, site_url: str, tmp_path: Path) -> None:
    page = visit.page
    open_site(page, site_url)
    assert page.locator("[data-action=friends]").is_hidden()  # no --friends-url
    page.locator("[data-action=hint]").click()
    page.wait_for_selector("[data-hint]:not([hidden])")
    play_until_over(page)
    final = page_state(page)
    assert page.locator("[data-outcome]").get_attribute("data-outcome") == final["outcome"]["result"]
    # The review of the deal just played, step by step.
    page.locator("[data-action=review]").click()
    review = page.locator("[data-review]")
    expect(review).to_be_visible()
    count = int(review.get_attribute("data-count") or 0)
    assert count >= 10
    page.keyboard.press("End")
    expect(review).to_have_attribute("data-step", str(count))
    page.locator("[data-action=review-close]").click()
    # The record: the server's file, byte for byte; loaded back, it opens in the review.
    with page.expect_download() as download:
        page.locator("[data-action=download-record]").click()
    saved = tmp_path / "deal.json"
    download.value.save_as(saved)
    assert download.value.suggested_filename == f"kowah-{final['id'][:8]}.json"
    record = json.loads(saved.read_text())
    assert saved.read_text() == json.dumps(record, indent=1) + "\n" and record["format"] == "kowah-record/1"
    replayed = subprocess.run([sys.executable, "-m", "kowah", "replay", "--json", str(saved)],
                              capture_output=True, text=True, cwd=ROOT)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["result"] == final["outcome"]["result"]
    page.locator("[data-record-file]").set_input_files(str(saved))
    expect(review).to_be_visible()
    expect(review).to_have_attribute("data-count", str(count))
    page.locator("[data-action=review-close]").click()
    # The language switch opens the Czech page: the same game, in Czech; then a new deal there.
    page.locator("select[name=lang]").select_option("cs")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    idle(page)
    assert page.url.startswith(f"{site_url}cs/") and over(page)
    cs = translator("cs")
    assert cs.gettext("web", "Full rules") in page.locator("[data-tab=rules]").inner_text()
    page.locator(".outcome [data-action=new-deal]").click()
    idle(page)
    assert page_state(page)["lang"] == "cs" and not over(page)
    play_until_over(page)
    assert page_state(page)["outcome_text"] in page.locator(".outcome-text").inner_text()
    # The choice is kept: the site's address opens the Czech page.
    page.goto(site_url)
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    idle(page)


#: Asks the page's transport, in each of the six languages: the state of this browser's game,
#: the rules as text, the review of *record*.
IN_EACH_LANGUAGE = """async (record) => { const { Api } = await import('/static/js/api.js');
  const id = localStorage.getItem('kowah-game'); const answers = {};
  for (const lang of ['en', 'it', 'cs', 'ms', 'es', 'id']) { const api = new Api(lang);
    answers[lang] = [(await api.state(id)).lang,
      (await api.call('GET', '/api/rules', { params: { format: 'text' } })).rules,
      await api.review(record, 1)]; }
  return answers; }"""


def test_the_trimmed_runtime_answers_in_all_six_languages_as_cpython_does(visit: Visit,
                                                                            site_url: str) -> None:
    """The Worker's trimmed, compiled Python gives, in each language, the rules and a review
    byte for byte as the same code in CPython (Babel, gettext and the text layer all there)."""
    page = visit.page
    open_site(page, site_url)
    players = [make_player("normal", random.Random(seat)) for seat in range(3)]
    record = Record.from_deal(play_deal(players, Deal.shuffled(5))).to_dict()
    answers = page.evaluate(IN_EACH_LANGUAGE, record)
    tables = Tables("http://127.0.0.1")
    for lang in ("en", "it", "cs", "ms", "es", "id"):
        state_lang, rules, review = answers[lang]
        assert state_lang == lang
        assert rules == render_rules(translator(lang), "text")
        expected = tables.handle("POST", "/api/review", f"lang={lang}", None,
                                 json.dumps({"record": record, "seat": 1}))
        assert review == json.loads(expected.body) and review["steps"]


def test_a_reload_mid_deal_resumes_exactly_and_offline_it_plays_to_the_end(visit: Visit,
                                                                          site_url: str) -> None:
    page = visit.page
    open_site(page, site_url)
    for _ in range(3):
        click_a_move(page)
    before = page_state(page)
    cards = "cs => cs.map(c => c.dataset.card)"
    hand = page.locator("[data-hand=you] [data-card]").evaluate_all(cards)
    page.reload()
    idle(page)
    assert page_state(page) == before
    assert page.locator("[data-hand=you] [data-card]").evaluate_all(cards) == hand
    assert page.locator("[data-stock]").inner_text() == str(before["stock"])
    # Once the service worker holds the site, the network can go.
    wait_for_service_worker(page)
    visit.context.set_offline(True)
    page.reload()
    idle(page)
    assert page_state(page) == before
    play_until_over(page)
    assert page_state(page)["outcome"] is not None
    visit.context.set_offline(False)


#: Takes the site's database first, at a version the site cannot open: storage refused.
TAKEN = """indexedDB.open('kowah-site', 99)
  .onupgradeneeded = (event) => event.target.result.createObjectStore('x');"""


def test_storage_that_refuses_the_game_is_said_and_nothing_is_played(browser: Browser, site_url: str) -> None:
    visit = Visit(browser, site_url)
    visit.page.add_init_script(TAKEN)
    visit.page.goto(f"{site_url}?pace=0")
    visit.page.wait_for_function(STARTED, timeout=START)
    said = translator("en").gettext("web", "The game could not be saved, so nothing was changed; "
                                           "try again later.")
    expect(visit.page.locator("[data-alert]")).to_contain_text(said)
    assert visit.page.locator("[data-hand=you] [data-card]").count() == 0
    visit.close()


def test_a_new_build_is_picked_up_whole_after_one_reload(browser: Browser, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = build_site(out)
    for url in serve_folder(out):
        visit = Visit(browser, url)
        page = visit.page
        open_site(page, url)
        wait_for_service_worker(page)
        click_a_move(page)
        playing = page_state(page)
        prepared = {path.name: path.read_bytes() for path in (*out.glob("wheels/*.whl"),
                                                              *out.glob("pyodide/*/python_stdlib.zip"))}
        second = build_site(out, friends_url="https://friends.example/")
        assert second.version != first.version
        # the runtime's Python prepared again from the same sources: the same bytes
        assert {name: (out / "wheels" / name if name.endswith(".whl") else out / "pyodide" / PYODIDE / name)
                .read_bytes() for name in prepared} == prepared
        page.reload()
        # The new build's link, with every file from the new build's cache (the old one is gone).
        expect(page.locator("[data-friends-link]")).to_have_attribute("href", "https://friends.example/",
                                                                       timeout=START)
        idle(page)
        found = page.evaluate("""async () => [JSON.parse(document.getElementById('kowah-data').textContent)
            .site.version, (await caches.keys()).filter((name) => name.startsWith('kowah-site-'))]""")
        assert found == [second.version, [f"kowah-site-{second.version}"]]
        assert page_state(page) == playing  # the deal in play goes on
        # Python started afresh (never from the old build's snapshot), and keeps the new build's
        # snapshot, the only one left.
        assert page.evaluate("document.documentElement.dataset.engineStart") == "fresh"
        page.wait_for_function("""async (version) => JSON.stringify((await caches.keys()).filter((name) =>
            name.startsWith('kowah-snapshot-'))) === JSON.stringify(['kowah-snapshot-' + version])""",
                               arg=second.version, timeout=START)
        visit.close()


# -- one engine, two transports ------------------------------------------------------------------

#: Records every change the page asks for and the JSON it gets back (api.js's call(), patched
#: in the page's own module): the socket's news on the served page adds reads, not changes.
RECORDER = """async () => { const { Api } = await import('/static/js/api.js'); window.answers = [];
  const call = Api.prototype.call;
  Api.prototype.call = async function (method, path, options) {
    const answer = await call.call(this, method, path, options);
    if (method === 'POST') window.answers.push([path, JSON.stringify(options.body), JSON.stringify(answer)]);
    return answer; }; }"""


def _played(page: Page, url: str, origin: str) -> list[str]:
    """Every change the page asked for while it played a seeded game by clicking, with the
    JSON it received, and the final state."""
    page.goto(f"{url}?pace=0")
    idle(page)
    made = new_game_in_page(page, seed=20261204, opponents="hard")
    page.reload()
    idle(page)
    page.evaluate(RECORDER)
    play_until_over(page)
    answers = [json.dumps(answer) for answer in page.evaluate("window.answers")]
    answers.append(json.dumps(page_state(page)))
    for secret in (made["id"], made["token"]):
        answers = [answer.replace(secret, "SECRET") for answer in answers]
    return [answer.replace(origin, "ORIGIN").replace('\\"connected\\":false', '\\"connected\\":true')
            .replace('"connected": false', '"connected": true') for answer in answers]


def test_the_same_deal_gives_the_same_answers_served_and_static(browser: Browser, site_url: str) -> None:
    for served_url in serve(create_app(max_new_per_minute=100_000)):
        served = Visit(browser, served_url)
        static = Visit(browser, site_url)
        through_server = _played(served.page, served_url + "/", served_url)
        through_worker = _played(static.page, site_url, site_url.rstrip("/"))
        assert len(through_server) >= 10
        assert through_worker == through_server
        served.close()
        static.close()
