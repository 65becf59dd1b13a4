"""``kowah site`` takes Pyodide from npm once per cache, whole: builds racing for one cache
(two test workers, two terminals) never see a package another npm has half written. Then node
prepares the runtime's Python; without node the runtime goes as it is, and node failing is a
clear error that leaves nothing behind.

npm is stood in for by a script that writes the package slowly, file by file, as npm does, and
node by one that fails.
"""

from __future__ import annotations

import stat
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from kowah.errors import KowahError
from kowah.site.build import PYODIDE, PYODIDE_FILES, build, pyodide_from_npm

SLOW_NPM = """#!{python}
import sys, time, pathlib, shutil
prefix = pathlib.Path(sys.argv[sys.argv.index("--prefix") + 1])
package = prefix / "node_modules" / "pyodide"
shutil.rmtree(package, ignore_errors=True)  # npm replaces what it finds
package.mkdir(parents=True, exist_ok=True)
(package / "package.json").write_text('{{"version": "{version}"}}')
(pathlib.Path({calls!r}) / str(time.monotonic_ns())).touch()
for name in {files!r}:
    time.sleep(0.05)
    (package / name).write_text(name)
"""

FAILING_NPM = """#!{python}
import sys
sys.stderr.write("npm ERR! 404 Not Found - GET https://registry.npmjs.org/pyodide\\n")
sys.exit(1)
"""


def _script(path: Path, text: str) -> str:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _slow_npm(tmp_path: Path) -> tuple[str, Path]:
    calls = tmp_path / "calls"
    calls.mkdir()
    npm = _script(tmp_path / "npm", SLOW_NPM.format(python=sys.executable, version=PYODIDE,
                                                     calls=str(calls), files=PYODIDE_FILES))
    return npm, calls


def test_racing_builds_each_get_the_whole_package(tmp_path: Path) -> None:
    npm, calls = _slow_npm(tmp_path)
    cache = tmp_path / "cache"
    barrier = threading.Barrier(4)
    seen: list[list[str]] = []
    errors: list[BaseException] = []

    def fetch(turn: int) -> None:
        try:
            barrier.wait()
            time.sleep(0.1 * turn)  # staggered: later builds find an earlier one's npm at work
            package = pyodide_from_npm(cache, npm=npm)
            seen.append(sorted(name for name in PYODIDE_FILES if (package / name).is_file()))
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=fetch, args=(turn,)) for turn in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert seen == [sorted(PYODIDE_FILES)] * 4
    # one package in the cache, no private folder left behind
    assert sorted(path.name for path in cache.iterdir()) == [f"pyodide-{PYODIDE}"]
    # once there, it is not fetched again
    before = len(list(calls.iterdir()))
    pyodide_from_npm(cache, npm=npm)
    assert len(list(calls.iterdir())) == before


def test_a_half_written_package_left_by_an_older_fetch_is_fetched_again(tmp_path: Path) -> None:
    npm, calls = _slow_npm(tmp_path)
    cache = tmp_path / "cache"
    broken = cache / f"pyodide-{PYODIDE}" / "node_modules" / "pyodide"
    broken.mkdir(parents=True)
    (broken / "package.json").write_text('{"version": "0"}')
    package = pyodide_from_npm(cache, npm=npm)
    assert all((package / name).is_file() for name in PYODIDE_FILES)
    assert len(list(calls.iterdir())) == 1


def test_npm_failing_is_a_clear_error_and_leaves_nothing(tmp_path: Path) -> None:
    npm = _script(tmp_path / "npm", FAILING_NPM.format(python=sys.executable))
    cache = tmp_path / "cache"
    with pytest.raises(KowahError, match=rf"npm could not install pyodide@{PYODIDE}: npm ERR! 404"):
        pyodide_from_npm(cache, npm=npm)
    assert list(cache.iterdir()) == []


FAILING_NODE = """#!{python}
import sys
sys.stderr.write("Error: Cannot find module 'pyodide.mjs'\\n")
sys.exit(1)
"""


def _fake_pyodide(folder: Path) -> Path:
    folder.mkdir()
    for name in PYODIDE_FILES:
        (folder / name).write_text(f"Pyodide's own {name}")
    (folder / "package.json").write_text(f'{{"version": "{PYODIDE}"}}')
    return folder


def test_node_failing_to_prepare_the_runtime_is_a_clear_error_and_leaves_nothing(tmp_path: Path) -> None:
    node = _script(tmp_path / "node", FAILING_NODE.format(python=sys.executable))
    pyodide = _fake_pyodide(tmp_path / "pyodide")
    (tmp_path / "site").mkdir()
    with pytest.raises(KowahError, match=r"node could not prepare the site's Python: Error: Cannot find"):
        build(tmp_path / "site" / "out", pyodide=pyodide, node=node)
    assert list((tmp_path / "site").iterdir()) == []  # no half-built folder, no scratch left


def test_without_node_the_runtime_and_the_sources_go_as_they_are(tmp_path: Path) -> None:
    pyodide = _fake_pyodide(tmp_path / "pyodide")
    site = build(tmp_path / "deep" / "out", pyodide=pyodide, node=str(tmp_path / "no-node"))
    for name in PYODIDE_FILES:
        assert (site.out / "pyodide" / PYODIDE / name).read_text() == f"Pyodide's own {name}"
    with zipfile.ZipFile(next(site.out.glob("wheels/kowah-*.whl"))) as wheel:
        names = wheel.namelist()
    assert "kowah/deal.py" in names and not any(name.endswith(".pyc") for name in names)
    assert not any("site/trim" in name or "site/build" in name or "site/icons" in name for name in names)
    assert sorted(path.name for path in (tmp_path / "deep").iterdir()) == ["out"]
