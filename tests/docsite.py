"""The documentation site, built once for the tests that read it (tests/test_docs_site.py and
tests/test_docs_browser.py, one xdist group, so one worker builds it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

__all__ = ["DOCS", "ROOT", "build_site"]

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def build_site(folder: Path) -> Path:
    """Build the whole documentation as HTML into *folder*, as ``python3 dev.py test`` does
    (warnings are errors, so the link check of the built site holds); its output folder."""
    out = folder / "html"
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(folder / "doctrees"), str(DOCS), str(out)],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    return out
