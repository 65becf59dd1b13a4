"""axe-core for the accessibility tests: the npm package, pinned, fetched once with npm into a
cache folder (``.cache/axe``, or ``KOWAH_AXE_CACHE``) and injected into pages by Playwright.

``python3 dev.py test`` fetches it before the tests run (:func:`axe_source` does the same on
first use). Without npm or the registry the axe tests are skipped with the reason, unless
``KOWAH_BROWSER_TESTS=required`` (as in CI), which makes them fail instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["AXE_VERSION", "axe_source", "fetch_axe"]

#: The axe-core release the tests run (its rules change between releases).
AXE_VERSION = "4.11.0"
ROOT = Path(__file__).resolve().parent.parent


def _cache() -> Path:
    return Path(os.environ.get("KOWAH_AXE_CACHE", ROOT / ".cache" / "axe"))


def _script(cache: Path) -> Path:
    return cache / AXE_VERSION / "node_modules" / "axe-core" / "axe.min.js"


def fetch_axe() -> Path:
    """axe-core's script, fetched with npm (pinned to :data:`AXE_VERSION`) when not cached.

    Raises :class:`RuntimeError` with the reason when npm is missing or fails."""
    cache = _cache()
    script = _script(cache)
    if script.exists():
        return script
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is missing: install Debian's nodejs and npm to run the axe-core tests")
    # npm installs into a private folder, renamed into place whole: racing workers each see
    # the whole package or none.
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".axe-{AXE_VERSION}-", dir=cache))
    try:
        done = subprocess.run([npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(work),
                               f"axe-core@{AXE_VERSION}"], capture_output=True, text=True, timeout=600)
        fetched = work / "node_modules" / "axe-core" / "axe.min.js"
        if done.returncode or not fetched.exists():
            raise RuntimeError(f"npm could not fetch axe-core@{AXE_VERSION}: {done.stderr.strip()[-500:]}")
        if (cache / AXE_VERSION).exists() and not script.exists():
            shutil.rmtree(cache / AXE_VERSION)  # left half-written by an older, non-atomic fetch
        try:
            os.rename(work, cache / AXE_VERSION)
        except OSError:
            if not script.exists():  # not a racing worker that finished first
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return script


def axe_source() -> str:
    """axe-core's script as text, to add to a page (``page.add_script_tag(content=…)``)."""
    return fetch_axe().read_text(encoding="utf-8")
