"""dev.py, the project's two commands: the interpreter check, the .venv and its stamps, test ARGS."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, list[list[str]]]:
    """dev.py loaded afresh, with its .venv in *tmp_path* and commands recorded, not run."""
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    venv = tmp_path / ".venv"
    monkeypatch.setattr(dev, "VENV", venv)
    monkeypatch.setattr(dev, "BIN", venv / "bin")
    monkeypatch.setattr(dev, "PYTHON", venv / "bin" / "python")
    commands: list[list[str]] = []
    monkeypatch.setattr(dev, "run", commands.append)

    def spawn(command: list[str], out: Any = None) -> int:  # the test command's steps
        commands.append(command)
        return 0

    monkeypatch.setattr(dev, "_spawn", spawn)

    def create(self: Any, target: Path) -> None:  # a stand-in for venv.EnvBuilder.create
        (Path(target) / "bin").mkdir(parents=True)
        (Path(target) / "bin" / "python").write_text("")
        version = f"{sys.version_info[0]}.{sys.version_info[1]}.{sys.version_info[2]}"
        (Path(target) / "pyvenv.cfg").write_text(f"home = /usr/bin\nversion = {version}\n")

    monkeypatch.setattr(dev.venv.EnvBuilder, "create", create)
    return dev, commands


def _installs(commands: list[list[str]]) -> list[str]:
    return [command[-1] for command in commands if "install" in command]


def test_an_old_interpreter_is_refused_with_a_clear_message(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    dev, commands = _dev(tmp_path, monkeypatch)
    monkeypatch.setattr(dev.sys, "version_info", (3, 9, 7, "final", 0))
    with pytest.raises(SystemExit) as stop:
        dev.main(["test"])
    assert "kowah needs Python 3.11 or newer; this is Python 3.9.7" in str(stop.value.code)
    assert commands == [] and not (tmp_path / ".venv").exists()  # checked before .venv is made


def test_switching_between_play_and_test_does_not_reinstall(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    dev, commands = _dev(tmp_path, monkeypatch)
    dev.setup(dev.EXTRAS["play"])
    dev.setup(dev.EXTRAS["test"])
    both = [".", f".[{dev.EXTRAS['test']}]"]
    assert _installs(commands) == both
    for _ in range(3):
        dev.setup(dev.EXTRAS["play"])
        dev.setup(dev.EXTRAS["test"])
    assert _installs(commands) == both  # each set keeps its own stamp


def test_a_job_whose_extras_are_installed_by_another_does_not_install(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dev, commands = _dev(tmp_path, monkeypatch)
    dev.setup(dev.EXTRAS["test"])
    dev.setup(dev.EXTRAS["play"])  # the base package is part of the test job's install
    dev.setup(dev.EXTRAS["catalogues"])
    assert _installs(commands) == [f".[{dev.EXTRAS['test']}]"]
    dev.setup(dev.EXTRAS["bench"])  # bench needs extras the test job does not install
    assert _installs(commands) == [f".[{dev.EXTRAS['test']}]", f".[{dev.EXTRAS['bench']}]"]


def test_a_venv_made_by_another_interpreter_is_recreated(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    dev, commands = _dev(tmp_path, monkeypatch)
    dev.setup("")
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /opt/old\nversion = 3.8.10\n")
    (tmp_path / ".venv" / "leftover").write_text("")
    dev.setup("")
    assert not (tmp_path / ".venv" / "leftover").exists()
    assert _installs(commands) == [".", "."]


def test_test_arguments_go_to_pytest(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dev, commands = _dev(tmp_path, monkeypatch)
    dev.main(["test", "-x", "-k", "table"])
    assert commands[-1][-5:] == ["-m", "pytest", "-x", "-k", "table"]
    assert not any("mypy" in " ".join(command) for command in commands)


def test_the_whole_test_command_builds_and_checks_the_package(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    dev, commands = _dev(tmp_path, monkeypatch)
    dev.main(["test"])
    steps = [" ".join(command) for command in commands if "install" not in command]
    assert any("-m pytest -q -n 2" in step for step in steps) and any("mypy" in step for step in steps)
    wheel = (ROOT / "tests" / "test_wheel.py").read_text()  # pytest builds and checks the package
    assert '"-m", "build", "--sdist", "--wheel"' in wheel and '"twine", "check", "--strict"' in wheel
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith("exec python3 dev.py test")


def test_ctrl_c_is_left_to_the_command(tmp_path: Path) -> None:
    """dev.py waits for a command that takes its time over Ctrl-C (kowah play saving its record)."""
    import os
    import signal
    import subprocess
    import time

    child = ("import signal, sys, time\n"
             "def bye(*_):\n"
             "    time.sleep(1)  # longer than subprocess.run would wait before killing it\n"
             "    print('saved', flush=True)\n"
             "    sys.exit(7)\n"
             "signal.signal(signal.SIGINT, bye)\n"
             "print('ready', flush=True)\n"
             "time.sleep(30)\n")
    driver = (f"import importlib.util, sys\n"
              f"spec = importlib.util.spec_from_file_location('dev', {str(ROOT / 'dev.py')!r})\n"
              f"dev = importlib.util.module_from_spec(spec); spec.loader.exec_module(dev)\n"
              f"dev.run([sys.executable, '-c', {child!r}])\n")
    process = subprocess.Popen([sys.executable, "-c", driver], stdout=subprocess.PIPE, text=True,
                               start_new_session=True)
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    # dev.py must be waiting for the command (not still starting it) when Ctrl-C comes.
    wchan = Path("/proc", str(process.pid), "wchan")
    for _ in range(3000):
        if not wchan.exists() or wchan.read_text() == "do_wait":
            break
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole foreground group
    out, _ = process.communicate(timeout=30)
    assert out == "saved\n" and process.returncode == 7


def test_pytest_q_ends_with_one_summary_line(tmp_path: Path) -> None:
    """-q once, in dev.py's whole run or by hand, keeps pytest's summary line: the project's
    options add no second -q (which drops it)."""
    import subprocess
    import sys
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-q" not in options["addopts"].split()
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    assert 1 + 1 == 2\n")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
                             str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(tmp_path)],
                            capture_output=True, text=True, cwd=tmp_path)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 0 and re.fullmatch(r"1 passed in [\d.]+s", lines[-1]), result.stdout
    assert sum("passed" in line for line in lines) == 1


def test_ruff_lints_the_docstrings() -> None:
    """The docstring lint (pydocstyle's rules in ruff) is on; `ruff check` in the whole run keeps
    the code clean."""
    import tomllib

    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "D" in lint["select"] and lint["pydocstyle"]["convention"] == "pep257"
    assert not {"D100", "D101", "D103", "D1"} & set(lint["ignore"])  # modules, classes, functions


def test_no_test_prints_past_the_capture() -> None:
    """Tests print nothing: their figures are assertions, and pytest's own output is the
    report (nothing printed past the output capture)."""
    needle = "capsys" + ".disabled("
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        assert needle not in path.read_text(encoding="utf-8"), path.name
