#!/usr/bin/env python3
"""Set up the project and run its jobs; needs only Python 3.11+.

    python3 dev.py play [ARGS...]   set up, then play a deal against two AIs (``kowah play``)
    python3 dev.py serve [ARGS...]  set up, then start the browser table (``kowah serve``)
    python3 dev.py site [ARGS...]   set up, build the static table into build/site (``kowah site``;
                                    npm fetches Pyodide once) and serve it on http://127.0.0.1:8080/
    python3 dev.py test [ARGS...]   set up, then run the whole test suite (pytest with doctests,
                                    catalogue checks, mypy --strict, ruff, the docs build, the
                                    sdist and wheel build with twine check); with ARGS, only
                                    pytest runs, with ARGS (e.g. -x -k terminal)
    python3 dev.py bench            set up, then run the benchmarks
    python3 dev.py docs             set up, then build the HTML documentation in docs/_build/html
    python3 dev.py catalogues       extract messages and update the catalogues (for translators)
    python3 dev.py goldens          rewrite the golden transcripts after a change of the game's
                                    text: the terminal game (tests/golden/transcript-*.txt) and
                                    three whole deals as the terminal, the page and the review
                                    tell them (tests/golden/deals-*.txt), and the command's
                                    help (tests/golden/cli-help.txt)
    python3 dev.py kowah [ARGS...]  set up, then run any ``kowah`` command

The first run creates ``.venv`` and installs the package (editable) with the extras the job
needs; it needs access to the package index. Later runs reinstall only when
``pyproject.toml``, the build hook or a catalogue changed. Each set of extras keeps its own
stamp, so switching between jobs does not reinstall.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import BinaryIO

MINIMUM = (3, 11)
ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
EXTRAS = {"play": "", "kowah": "", "serve": "web,postgres", "site": "",
          "test": "dev,docs,cluster,web,browser,rl,postgres",
          "bench": "dev,bench,web,rl,rl-bench,postgres", "docs": "docs,web,rl", "catalogues": "dev",
          "goldens": "dev"}


def check_interpreter() -> None:
    """Stop with a clear message on a Python older than :data:`MINIMUM`."""
    if sys.version_info < MINIMUM:
        found = ".".join(map(str, sys.version_info[:3]))
        needed = ".".join(map(str, MINIMUM))
        raise SystemExit(f"dev.py: kowah needs Python {needed} or newer; this is Python {found} "
                         f"({sys.executable}). Run it with a newer one, e.g. python{needed} dev.py ...")


def _venv_python_version() -> str | None:
    """The Python version that made ``.venv`` (from its ``pyvenv.cfg``), or ``None``."""
    config = VENV / "pyvenv.cfg"
    if not config.is_file():
        return None
    for line in config.read_text(errors="replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() in ("version", "version_info"):
            return ".".join(value.strip().split(".")[:2])
    return None


def _fingerprint(extras: str) -> str:
    digest = hashlib.sha256(extras.encode())
    digest.update(sys.version.encode())
    catalogues = sorted(ROOT.glob("locales/*/LC_MESSAGES/*.po"))
    # The build hook compiles the catalogues and builds the ready-hand index from these.
    sources = [ROOT / "kowah" / "_ready_index.py", ROOT / "kowah" / "cards.py"]
    inputs = [ROOT / "pyproject.toml", ROOT / "hatch_build.py", *sources, *catalogues]
    for path in inputs:
        if path.exists():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _stamp(extras: str) -> Path:
    return VENV / f".kowah-installed-{extras.replace(',', '-') or 'base'}"


def _installed(extras: str) -> bool:
    """Whether *extras* are installed and current: by their own stamp, or by that of a job whose
    extras hold them all (the test job's environment can play a deal without a new install)."""
    needed = set(filter(None, extras.split(",")))
    for other in dict.fromkeys([extras, *EXTRAS.values()]):
        if needed <= set(filter(None, other.split(","))):
            stamp = _stamp(other)
            if stamp.exists() and stamp.read_text() == _fingerprint(other):
                return True
    return False


def setup(extras: str) -> None:
    """Create the virtual environment and install the package with *extras*, when needed."""
    check_interpreter()
    this = f"{sys.version_info[0]}.{sys.version_info[1]}"
    made_by = _venv_python_version()
    if PYTHON.exists() and made_by not in (None, this):
        print(f"Recreating .venv: it was made by Python {made_by}, this is Python {this} ...",
              file=sys.stderr)
        shutil.rmtree(VENV)
    elif VENV.exists() and not PYTHON.exists():
        shutil.rmtree(VENV)  # a half-made or broken environment
    # One stamp per set of extras: installing one set never uninstalls another's packages,
    # so every stamp stays true until an input of the fingerprint changes.
    if _installed(extras):
        return
    stamp = _stamp(extras)
    fingerprint = _fingerprint(extras)
    if not PYTHON.exists():
        print("Creating .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"Installing kowah{'[' + extras + ']' if extras else ''} into .venv "
          "(this needs the package index) ...", file=sys.stderr)
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--editable", target])
    stamp.write_text(fingerprint)


def _spawn(command: list[str], out: BinaryIO | None = None) -> int:
    """Run *command* in the project folder, its output to *out* (default: ours); its status.

    Ctrl-C reaches the command too (it is in the terminal's foreground group): dev.py waits
    for it to finish (``kowah play`` saves its record and says goodbye) instead of killing it.
    """
    with subprocess.Popen(command, cwd=ROOT, stdout=out,
                          stderr=None if out is None else subprocess.STDOUT) as process:
        while True:
            try:
                code = process.wait()
                break
            except KeyboardInterrupt:
                continue
    return code if code >= 0 else 128 - code


def run(command: list[str]) -> None:
    """Run *command* in the project folder; stop with its exit code if it fails."""
    code = _spawn(command)
    if code:
        raise SystemExit(code)


def tool(name: str) -> str:
    """The path of the virtual environment's command *name*."""
    return str(BIN / name)


#: A check besides pytest: its label and the commands it runs in turn.
Check = tuple[str, list[list[str]]]


def _static_checks() -> list[Check]:
    """The checks besides pytest (tests/test_wheel.py builds the sdist and the wheel and runs
    ``twine check --strict`` on them)."""
    checks: list[Check] = [("mypy --strict", [[tool("mypy")]]),
                           ("ruff check", [[tool("ruff"), "check", "."]])]
    if (ROOT / "docs" / "conf.py").exists():
        # Both builders share one doctree cache, so the pages are read once. The doctest
        # builder runs the examples of the pages (the tutorial), so a broken one fails here.
        sphinx = [tool("sphinx-build"), "-W", "--keep-going", "-q", "-d", "docs/_build/doctrees"]
        checks.append(("sphinx -W (html, doctest)", [
            [*sphinx, "-b", "html", "docs", "docs/_build/html"],
            [*sphinx, "-b", "doctest", "docs", "docs/_build/doctest"],
        ]))
    return checks


def _run_checks(checks: list[Check], log: Path) -> list[tuple[str, int, str]]:
    """Run *checks* one after the other, their output captured; return (label, status, output)."""
    results = []
    for label, commands in checks:
        code = 0
        with log.open("w+b") as out:
            for command in commands:
                code = _spawn(command, out)
                if code:
                    break
            out.seek(0)
            text = out.read().decode(errors="replace")
        results.append((label, code, text))
    return results


def test(args: list[str]) -> None:
    """Run pytest on two workers (pytest-xdist; its tests build the sdist and the wheel and check
    them with twine) while the other checks run beside it: mypy, ruff and the docs (sphinx -W,
    html and doctest), whose output is shown once pytest is done. With *args*, pytest alone
    runs, with them."""
    if args:  # a focused run: pytest alone, with the caller's arguments
        run([str(PYTHON), "-m", "pytest", *args])
        return
    import threading

    _fetch_npm_packages()
    results: list[tuple[str, int, str]] = []
    with tempfile.TemporaryDirectory(prefix="kowah-checks-") as folder:
        checks = _static_checks()
        thread = threading.Thread(target=lambda: results.extend(_run_checks(checks, Path(folder) / "log")),
                                  daemon=True)
        thread.start()
        print("== pytest (and, beside it, " + ", ".join(label for label, _ in checks) + ")",
              file=sys.stderr, flush=True)
        # loadgroup: the tests of one xdist_group (the built documentation site) share a worker,
        # so that what they share is made once.
        code = _spawn([str(PYTHON), "-m", "pytest", "-q", "-n", os.environ.get("KOWAH_TEST_JOBS", "2"),
                       "--dist", "loadgroup"])
        failed = {"pytest": code} if code else {}
        while thread.is_alive():
            try:
                thread.join()
            except KeyboardInterrupt:
                continue
    for label, code, text in results:
        print(f"== {label}", file=sys.stderr, flush=True)
        sys.stderr.write(text)
        if code:
            failed[label] = code
    if failed:
        print("== FAILED: " + ", ".join(failed), file=sys.stderr)
        raise SystemExit(next(iter(failed.values())))
    print("== all checks passed", file=sys.stderr)
    if not _chromium():
        print("== NOTE: the browser tests (tests/test_browser.py) did NOT run: Chromium was not found.\n"
              "   Install it (apt-get install chromium) or set KOWAH_CHROMIUM=/path/to/chromium,\n"
              "   then run python3 dev.py test again.", file=sys.stderr)


def _fetch_npm_packages() -> None:
    """Fetch, with npm and before the test workers start, what the browser tests take from it:
    axe-core (pinned, into .cache/axe) for the accessibility tests and Pyodide (pinned, into
    build/cache) for the static site's. Both fetches are atomic, so workers that fetch on first
    use race harmlessly; fetching here keeps them from downloading the same package twice.
    Without npm the tests say why (and fail when KOWAH_BROWSER_TESTS=required)."""
    import shutil

    if shutil.which("npm") is None:
        return
    fetches = {"axe-core": "import sys; sys.path.insert(0, 'tests'); from axe import fetch_axe; fetch_axe()",
               "Pyodide": "from pathlib import Path; from kowah.site.build import pyodide_from_npm; "
                          "pyodide_from_npm(Path('build/cache'))"}
    for name, code in fetches.items():
        if _spawn([str(PYTHON), "-c", code]):
            print(f"== NOTE: {name} could not be fetched with npm: the tests that need it will say why.",
                  file=sys.stderr)


def _chromium() -> bool:
    """Whether the browser tests find Chromium (as tests/test_browser.py looks for it)."""
    import shutil

    named = os.environ.get("KOWAH_CHROMIUM")
    if named:
        return Path(named).exists()
    return bool(shutil.which("chromium") or shutil.which("chromium-browser")
                or Path("/usr/bin/chromium").exists())


def main(argv: list[str]) -> None:
    """Run the job *argv* names (see the module description)."""
    check_interpreter()
    job, args = (argv[0], argv[1:]) if argv else ("", [])
    if job not in EXTRAS:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    setup(EXTRAS[job])
    if job == "play":
        run([tool("kowah"), "play", *args])
    elif job == "serve":
        run([tool("kowah"), "serve", *args])
    elif job == "site":
        run([tool("kowah"), "site", str(ROOT / "build" / "site"), *args])
        print("== the static table: http://127.0.0.1:8080/ (Ctrl-C stops)", file=sys.stderr)
        run([str(PYTHON), "-m", "http.server", "--bind", "127.0.0.1", "--directory",
             str(ROOT / "build" / "site"), "8080"])
    elif job == "kowah":
        run([tool("kowah"), *args])
    elif job == "test":
        test(args)
    elif job == "bench":
        run([str(PYTHON), str(ROOT / "benchmarks" / "run.py"), *args])
    elif job == "docs":
        run([tool("sphinx-build"), "-W", "-b", "html", "docs", "docs/_build/html"])
    elif job == "catalogues":
        run([str(PYTHON), str(ROOT / "locales" / "update.py"), *args])
    elif job == "goldens":
        run([str(PYTHON), str(ROOT / "tests" / "transcripts.py"), *args])
        run([str(PYTHON), str(ROOT / "tests" / "deal_transcripts.py"), *args])
        run([str(PYTHON), str(ROOT / "tests" / "cli_help.py"), *args])


if __name__ == "__main__":
    main(sys.argv[1:])
