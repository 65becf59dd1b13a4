"""Types: the tutorial's code as written passes ``mypy --strict``, and a misspelt name imported
from ``kowah`` is an error (the facade's lazy ``__getattr__`` is hidden from type checkers)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tutorial_code() -> str:
    """The examples of docs/tutorial.rst (their ``>>>`` and ``...`` lines), as one program."""
    lines = []
    for line in (ROOT / "docs" / "tutorial.rst").read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith((">>> ", "... ")) or stripped in (">>>", "..."):
            lines.append(line.lstrip()[4:])
    return "\n".join(lines) + "\n"


def test_the_tutorial_and_a_misspelt_import_under_mypy_strict(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    code = tutorial_code()
    assert "class Greedy" in code and "def choose(self, observation: Observation" in code
    (tmp_path / "tutorial.py").write_text(code)
    (tmp_path / "misspelt.py").write_text("from kowah import Dael\nimport kowah\n\nkowah.Deel\n")
    out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"),
                                str(tmp_path / "tutorial.py"), str(tmp_path / "misspelt.py")])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert [line for line in errors if "tutorial.py" in line] == [], out
    assert any('misspelt.py:1: error: Module "kowah" has no attribute "Dael"' in line for line in errors), out
    assert any("misspelt.py:4: error:" in line and '"Deel"' in line for line in errors), out
    assert status == 1, err
