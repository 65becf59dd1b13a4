"""What the static site's tests share (tests/test_site.py, benchmarks/site.py): one build per
session, a plain static file server on 127.0.0.1, and a browser context that refuses (and
counts) every request to any other address.

The build takes Pyodide from npm (``kowah site``'s default; cached in ``build/cache``). Without
npm the static site's tests are skipped with the reason, unless ``KOWAH_BROWSER_TESTS=required``
(as in CI), which makes them fail instead.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webpage import REQUIRED, ROOT

from kowah.site.build import Site, build

CACHE = ROOT / "build" / "cache"
#: How long (ms) a test waits for a static page's first hand: each page starts Python afresh,
#: which takes seconds, and on a busy machine (two cores, several test workers) many more.
START = 180_000
#: A page can be waited on as usual: a served page, or a static page whose Python runs.
STARTED = """() => { const data = document.getElementById('kowah-data');
  return Boolean(data)
    && (!JSON.parse(data.textContent).site || document.documentElement.dataset.engine === 'ready'); }"""


class StaticSite(str):
    """The address (ending with ``/``) of a built site on a static file server: the browser
    tests' ``server`` when they run on the static transport."""

    def page(self, lang: str) -> str:
        """The address of *lang*'s page."""
        return f"{self}{'' if lang == 'en' else lang + '/'}"


def need_npm() -> None:
    """Skip (or, when required, fail) without npm."""
    if shutil.which("npm") is None:
        problem = "the static site's tests did not run: npm is missing (apt-get install nodejs npm)"
        if REQUIRED:
            raise RuntimeError(f"KOWAH_BROWSER_TESTS=required, but {problem}")
        pytest.skip(problem)


def build_site(out: Path, **options: Any) -> Site:
    need_npm()
    return build(out, cache=CACHE, **options)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that leaves mid-answer (a reload) is not an error of the server's."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class StaticServer:
    """``python -m http.server`` in a thread: *folder* on 127.0.0.1; ``url`` ends with ``/``."""

    def __init__(self, folder: Path) -> None:
        handler = functools.partial(_Quiet, directory=str(folder))
        self.httpd = _Server(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


def serve_folder(folder: Path) -> Iterator[str]:
    server = StaticServer(folder)
    try:
        yield server.url
    finally:
        server.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The static site, built once for the whole session (a plugin of conftest.py)."""
    return build_site(tmp_path_factory.mktemp("site") / "out")


@pytest.fixture(scope="session")
def site_url(site: Site) -> Iterator[StaticSite]:
    for url in serve_folder(site.out):
        yield StaticSite(url)


class Fence:
    """A route handler for a whole browser context: requests to *origin* go on, any other is
    refused and kept in ``refused`` (a test asserts it stays empty)."""

    def __init__(self, origin: str) -> None:
        self.origin = origin.rstrip("/")
        self.refused: list[str] = []

    def __call__(self, route: Any) -> None:
        url = route.request.url
        if url == self.origin or url.startswith(self.origin + "/") or url.startswith(("blob:", "data:")):
            route.continue_()
        else:
            self.refused.append(url)
            route.abort()
