#!/usr/bin/env python3
"""Set up the project and run its jobs; needs only Python 3.11+.

    python3 dev.py play [ARGS...]   set up, then play a deal against two AIs (``kowah play``)
    python3 dev.py serve [ARGS...]  set up, then start the browser table (``kowah serve``)
    python3 dev.py test             set up, then run the whole test suite (pytest with doctests,
                                    catalogue checks, mypy --strict, ruff, the docs build)
    python3 dev.py bench            set up, then run the benchmarks
    python3 dev.py docs             set up, then build the HTML documentation in docs/_build/html
    python3 dev.py catalogues       extract messages and update the catalogues (for translators)
    python3 dev.py kowah [ARGS...]  set up, then run any ``kowah`` command

The first run creates ``.venv`` and installs the package (editable) with the extras the job
needs; later runs reinstall only when ``pyproject.toml``, the build hook or a catalogue changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
EXTRAS = {"play": "", "serve": "web", "kowah": "", "test": "dev,docs,web,browser", "bench": "dev,bench,web",
          "docs": "docs,web",
          "catalogues": "dev"}


def _fingerprint(extras: str) -> str:
    digest = hashlib.sha256(extras.encode())
    catalogues = sorted(ROOT.glob("locales/*/LC_MESSAGES/*.po"))
    inputs = [ROOT / "pyproject.toml", ROOT / "hatch_build.py", *catalogues]
    for path in inputs:
        if path.exists():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def setup(extras: str) -> None:
    """Create the virtual environment and install the package with *extras*, when needed."""
    stamp = VENV / f".kowah-installed-{extras.replace(',', '-') or 'base'}"
    fingerprint = _fingerprint(extras)
    if stamp.exists() and stamp.read_text() == fingerprint:
        return
    if not PYTHON.exists():
        print("Creating .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"Installing kowah{'[' + extras + ']' if extras else ''} into .venv ...", file=sys.stderr)
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--editable", target])
    for old in VENV.glob(".kowah-installed-*"):
        old.unlink()
    stamp.write_text(fingerprint)


def run(command: list[str]) -> None:
    """Run *command* in the project folder; stop with its exit code if it fails."""
    result = subprocess.run(command, cwd=ROOT)
    if result.returncode:
        raise SystemExit(result.returncode)


def tool(name: str) -> str:
    return str(BIN / name)


def test() -> None:
    steps = [
        ("pytest", [str(PYTHON), "-m", "pytest"]),
        ("mypy --strict", [tool("mypy")]),
        ("ruff check", [tool("ruff"), "check", "."]),
    ]
    if (ROOT / "docs" / "conf.py").exists():
        # Both builders share one doctree cache, so the pages are read once. The doctest
        # builder runs the examples of the pages (the tutorial), so a broken one fails here.
        sphinx = [tool("sphinx-build"), "-W", "--keep-going", "-q", "-d", "docs/_build/doctrees"]
        steps.append(("sphinx -W (html)", [*sphinx, "-b", "html", "docs", "docs/_build/html"]))
        steps.append(("sphinx -W (doctest)", [*sphinx, "-b", "doctest", "docs", "docs/_build/doctest"]))
    for label, command in steps:
        print(f"== {label}", file=sys.stderr, flush=True)
        run(command)
    print("== all checks passed", file=sys.stderr)
    if not _chromium():
        print("== NOTE: the browser tests (tests/test_browser.py) did NOT run: Chromium was not found.\n"
              "   Install it (apt-get install chromium) or set KOWAH_CHROMIUM=/path/to/chromium,\n"
              "   then run python3 dev.py test again.", file=sys.stderr)


def _chromium() -> bool:
    """Whether the browser tests find Chromium (as tests/test_browser.py looks for it)."""
    import shutil

    named = os.environ.get("KOWAH_CHROMIUM")
    if named:
        return Path(named).exists()
    return bool(shutil.which("chromium") or shutil.which("chromium-browser")
                or Path("/usr/bin/chromium").exists())


def main(argv: list[str]) -> None:
    job, args = (argv[0], argv[1:]) if argv else ("", [])
    if job not in EXTRAS:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    setup(EXTRAS[job])
    if job == "play":
        run([tool("kowah"), "play", *args])
    elif job == "serve":
        run([tool("kowah"), "serve", *args])
    elif job == "kowah":
        run([tool("kowah"), *args])
    elif job == "test":
        test()
    elif job == "bench":
        run([str(PYTHON), str(ROOT / "benchmarks" / "run.py"), *args])
    elif job == "docs":
        run([tool("sphinx-build"), "-W", "-b", "html", "docs", "docs/_build/html"])
    elif job == "catalogues":
        run([str(PYTHON), str(ROOT / "locales" / "update.py"), *args])


if __name__ == "__main__":
    main(sys.argv[1:])
