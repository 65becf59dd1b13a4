"""Renamed public modules (issue 29, the code review's "names that say what a module holds"):
``kowah.rules`` is now :mod:`kowah.engine` and ``kowah.table`` is now :mod:`kowah.terminal`.
The old names still import for one release, give the same objects and warn, naming the new
module; nothing in the project imports them any more."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import kowah

ROOT = Path(__file__).resolve().parent.parent
RENAMES = {"kowah.rules": "kowah.engine", "kowah.table": "kowah.terminal"}
#: The old modules: packages, so that git follows each module's history (and a change merged
#: into the old file) to its new name.
OLD_MODULES = {"kowah/rules/__init__.py", "kowah/table/__init__.py"}


def _fresh_import(old: str) -> tuple[object, list[warnings.WarningMessage]]:
    """Import *old* afresh (as a program's first import would), recording its warnings."""
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        __import__(old)  # a built-in: the importing frame is this function's
    return sys.modules[old], caught


@pytest.mark.parametrize(("old", "new"), RENAMES.items())
def test_the_old_name_imports_the_same_objects_and_warns_naming_the_new_one(old: str, new: str) -> None:
    module, caught = _fresh_import(old)
    deprecations = [item for item in caught if issubclass(item.category, DeprecationWarning)]
    assert [str(item.message) for item in deprecations] == [
        f"{old} is deprecated and will be removed in the next release: import {new} instead"]
    assert deprecations[0].filename == __file__  # the importing line, not the import machinery
    target = importlib.import_module(new)
    names = list(module.__all__)  # type: ignore[attr-defined]
    assert names == list(target.__all__)
    for name in names:
        assert getattr(module, name) is getattr(target, name), name


@pytest.mark.parametrize(("old", "new"), RENAMES.items())
def test_a_program_sees_the_warning_by_default_and_an_error_with_W_error(old: str, new: str) -> None:
    """Python shows a DeprecationWarning only when it is attributed to ``__main__``'s code: the
    warning points at the program's import line, so a plain ``python -c`` shows it."""
    shown = subprocess.run([sys.executable, "-c", f"import {old}"], capture_output=True, text=True,
                           timeout=120, check=False)
    assert shown.returncode == 0 and "DeprecationWarning" in shown.stderr and new in shown.stderr
    refused = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c",
                              f"from {old} import *"], capture_output=True, text=True, timeout=120,
                             check=False)
    assert refused.returncode == 1 and f"DeprecationWarning: {old} is deprecated" in refused.stderr


def test_the_facade_reaches_the_old_names_too() -> None:
    for old, new in RENAMES.items():
        sys.modules.pop(old, None)
        vars(kowah).pop(old.split(".")[1], None)
        with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
            module = getattr(kowah, old.split(".")[1])
        assert module.__name__ == old
    assert importlib.import_module("kowah.engine").Rules is kowah.Rules  # the new names: no warning


def test_the_new_modules_import_without_any_warning() -> None:
    script = textwrap.dedent("""
        import kowah, kowah.engine, kowah.terminal, kowah.cli, kowah.simulation, kowah.record
        kowah.Rules, kowah.State, kowah.KOWAH_RULES
    """)
    done = subprocess.run([sys.executable, "-W", "error", "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "kowah.rules" not in done.stderr


def _old_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [f"{path}:{node.lineno}" for alias in node.names if alias.name in RENAMES]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module in RENAMES or (node.module == "kowah" and
                                           {a.name for a in node.names} & {"rules", "table"})):
            found.append(f"{path}:{node.lineno}")
    return found


def test_nothing_in_the_project_imports_an_old_name() -> None:
    paths = [path for folder in ("kowah", "tests", "benchmarks", "docs")
             for path in sorted((ROOT / folder).rglob("*.py"))
             if ".venv" not in path.parts and path.name != Path(__file__).name
             and path.relative_to(ROOT).as_posix() not in OLD_MODULES]
    assert len(paths) > 100
    assert [where for path in paths for where in _old_imports(path)] == []
    texts = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.rst"))]
    assert [str(path) for path in texts
            if "kowah.rules" in path.read_text() or "kowah.table" in path.read_text()] == []
