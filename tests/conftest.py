"""Hypothesis profiles for the test suite, Ctrl-C as a terminal gives it, and the browser tests'
shared fixtures (one Chromium per module, three people's browser contexts).

``ci`` (the default) keeps the whole suite fast and free of timing flakiness; ``thorough`` runs
many more examples. Choose one with ``HYPOTHESIS_PROFILE=thorough pytest``.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

#: The static site's session fixtures (site, site_url), built once for all the browser tests.
pytest_plugins = ["sitepage"]

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A test run started in the background of a non-interactive shell inherits SIGINT ignored, and
# so would every program the tests start (Python then installs no KeyboardInterrupt): the tests
# that press Ctrl-C need it as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole documentation, built as HTML (once per test worker that asks for it)."""
    from docsite import build_site

    return build_site(tmp_path_factory.mktemp("docs-site"))


# -- the browser tests' shared fixtures (Playwright is imported only when they run) ------------

@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a module's pages."""
    from playwright.sync_api import sync_playwright
    from webpage import ARGS, chromium_path

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Three people's browsers (separate storage, as on three computers); no console error may
    appear in any."""
    opened = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    errors: list[str] = []
    for context in opened:
        context.on("console", lambda message: errors.append(message.text) if message.type == "error"
                   else None)
    yield opened
    for context in opened:
        context.close()
    assert errors == [], errors
