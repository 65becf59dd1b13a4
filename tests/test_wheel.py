"""The built wheel and sdist: catalogues, licence, metadata, and what the README tells people to run."""

from __future__ import annotations

import email
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import kowah

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An sdist and a wheel built from this checkout."""
    outdir = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--no-isolation",
                    "--outdir", str(outdir), str(ROOT)],
                   check=True, capture_output=True, text=True)
    return outdir


def test_wheel_ships_and_uses_the_catalogues(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("kowah-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for language in ("it", "cs", "ms", "es", "id"):
        assert f"kowah/_locale/{language}/LC_MESSAGES/kowah.mo" in names
    assert not any(name.endswith(".po") for name in names)
    assert {"kowah/_ready/kowah.bin", "kowah/_ready/money.bin"} <= names  # the ready index (issue 10)

    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, text=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import kowah, kowah.rendering, kowah._ready_index; print(kowah.__file__); "
            "print(kowah.rendering.render_rules('cs_CZ.UTF-8').splitlines()[0]); "
            "print(kowah._ready_index.read_data(kowah.KOWAH_DECK) is not None)")
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env,
                            check=True, capture_output=True, text=True)
    location, title, shipped = result.stdout.splitlines()
    assert Path(location).resolve().is_relative_to(site.resolve())
    assert title == "Pravidla hry Kowah"
    assert shipped == "True"  # the installed index is used, not rebuilt


def _wheel_metadata(dist: Path) -> email.message.Message:
    (wheel,) = dist.glob("kowah-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(archive.read(name))


def test_the_licence_is_in_the_repository_the_sdist_and_the_wheel(dist: Path) -> None:
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License")
    (wheel,) = dist.glob("kowah-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith("/LICENSE")]
        assert archive.read(name).decode() == licence
    (sdist,) = dist.glob("kowah-*.tar.gz")
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(f"{sdist.name.removesuffix('.tar.gz')}/LICENSE")
        assert member is not None and member.read().decode() == licence
    assert _wheel_metadata(dist)["License-Expression"] == "MIT"


def test_the_sdist_holds_what_its_readme_tells_people_to_run(dist: Path) -> None:
    (sdist,) = dist.glob("kowah-*.tar.gz")
    top = sdist.name.removesuffix(".tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.removeprefix(top + "/") for name in archive.getnames()}
        readme = archive.extractfile(f"{top}/README.md")
        assert readme is not None
        text = readme.read().decode()
    # The quick start's two commands, and what each of them runs.
    commands = re.findall(r"^python3 dev\.py (\w+)", text, flags=re.MULTILINE)
    assert commands == ["play", "test"]
    for needed in ("dev.py", "pyproject.toml", "hatch_build.py", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md",
                   ".ci/run", "kowah/__init__.py", "locales/kowah.pot", "locales/cs/LC_MESSAGES/kowah.po",
                   "tests/conftest.py", "tests/test_terminal.py", "docs/conf.py", "docs/release.rst",
                   "benchmarks/run.py"):
        assert needed in names, needed
    assert not any("__pycache__" in name or name.startswith(("kowah/_locale/", "kowah/_ready/"))
                   for name in names)


def test_the_version_is_written_once_and_the_metadata_is_complete(dist: Path) -> None:
    metadata = _wheel_metadata(dist)
    assert metadata["Version"] == kowah.__version__
    assert not re.search(r"^version\s*=", (ROOT / "pyproject.toml").read_text(), flags=re.MULTILINE)
    assert metadata["Requires-Python"] == ">=3.11"
    classifiers = set(metadata.get_all("Classifier") or [])
    for language in ("English", "Italian", "Czech", "Malay", "Spanish", "Indonesian"):
        assert f"Natural Language :: {language}" in classifiers
    assert "Operating System :: OS Independent" in classifiers
    assert {"Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.12"} <= classifiers
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL") or [])
    assert set(urls) >= {"Documentation", "Changelog"}
    assert metadata["Description-Content-Type"] == "text/markdown"


def test_twine_check_passes(dist: Path) -> None:
    built = sorted(map(str, dist.iterdir()))
    assert len(built) == 2
    result = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *built],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
