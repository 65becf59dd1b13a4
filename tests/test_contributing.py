"""CONTRIBUTING.md's commands work as written: each is run exactly as the guide shows it, from
the root of the repository, except the two that this suite cannot run inside itself."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "CONTRIBUTING.md"

#: Set for the commands this test runs.
NESTED = "KOWAH_CONTRIBUTING_COMMAND"

#: The commands not run here, and why; each is still checked to be a job of dev.py.
NOT_RUN = {
    "python3 dev.py test": "the whole suite, which runs this test",
    "python3 dev.py bench": "the benchmarks take minutes and extras of their own",
}


def commands(text: str) -> list[str]:
    """The commands of the guide's ``sh`` blocks, in order, without their comments."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        for line in block.splitlines():
            command = line.split("  #", 1)[0].strip()
            if command:
                found.append(command)
    return found


def test_the_guide_has_the_readmes_two_commands_and_says_what_it_must() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = commands(readme.split("## Quick start", 1)[1].split("\n## ", 1)[0])
    assert quick_start == ["python3 dev.py play", "python3 dev.py test"]  # exactly two, as ever
    assert commands(guide)[:2] == quick_start
    for heading in ("## The two commands", "## Tests and benchmarks",
                    "## Adding a message, and having it read", "## The layering rule"):
        assert heading in guide
    assert "native reader" in guide and "python3 dev.py catalogues" in guide


def test_the_commands_not_run_here_are_jobs_of_dev_py() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    listed = commands(GUIDE.read_text(encoding="utf-8"))
    for command in NOT_RUN:
        assert command in listed
        assert command.split()[2] in dev.EXTRAS


@pytest.mark.parametrize("command", [command for command in commands(GUIDE.read_text(encoding="utf-8"))
                                     if command not in NOT_RUN])
def test_each_command_of_the_guide_runs_as_written(command: str) -> None:
    if os.environ.get(NESTED):  # a command of the guide that runs tests must not run these again
        pytest.skip("run by a command of CONTRIBUTING.md, from its own test")
    result = subprocess.run(shlex.split(command), cwd=ROOT, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=900, env={**os.environ, NESTED: "1"})
    assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-2000:])
    if "--lang id" in command:
        assert "Aturan Main Kowah" in result.stdout
