"""The built wheel ships the compiled catalogues and works outside the checkout (issue 3)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_and_uses_the_catalogues(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                    "--outdir", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (wheel,) = dist.glob("kowah-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for language in ("it", "cs", "ms", "es"):
        assert f"kowah/_locale/{language}/LC_MESSAGES/kowah.mo" in names
    assert not any(name.endswith(".po") for name in names)

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, text=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import kowah, kowah.i18n; print(kowah.__file__); "
            "print(kowah.i18n.render_rules('cs_CZ.UTF-8').splitlines()[0])")
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env,
                            check=True, capture_output=True, text=True)
    location, title = result.stdout.splitlines()
    assert Path(location).resolve().is_relative_to(site.resolve())
    assert title == "Pravidla hry Kowah"
