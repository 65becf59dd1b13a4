"""The web benchmark's account of the game's own work inside the server (benchmarks/game_work)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh interpreter started as the benchmark starts the server: the folder on
# PYTHONPATH makes Python import the accounting at start-up.
CHILD = r"""
import json, os, signal, sys
from pathlib import Path
from kowah.web import answers, api, game, saved, store_sql
folder = Path(os.environ["KOWAH_GAME_WORK"])
account = folder / f"{os.getpid()}.json"
first = json.loads(account.read_text())
wrapped = [hasattr(game.Game.new, "__wrapped__"), hasattr(game.Game.act, "__wrapped__"),
           hasattr(game.Game.state, "__wrapped__"),
           store_sql.saved_text is saved.saved_text, api.encode is answers.encode,
           hasattr(saved.saved_text, "__wrapped__"), hasattr(answers.encode, "__wrapped__")]
os.kill(os.getpid(), signal.SIGRTMIN)
idle = json.loads(account.read_text())
table = game.Game.new(seed=1, opponents="random")
while not table.is_over:
    after = table.version
    table.act(table.legal(0)[0])
    saved.saved_text(table)
    answers.encode(table.state(None, after, seat=0))
os.kill(os.getpid(), signal.SIGRTMIN)
played = json.loads(account.read_text())
print(json.dumps({"first": first, "wrapped": wrapped, "idle": idle, "played": played}))
"""


def _child(tmp_path: Path, folder: Path | None, code: str = CHILD) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "benchmarks" / "game_work"), os.environ.get("PYTHONPATH")]))}
    env.pop("KOWAH_GAME_WORK", None)
    if folder is not None:
        env["KOWAH_GAME_WORK"] = str(folder)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="the benchmark asks its server with a signal")
def test_the_server_accounts_for_the_game_work_when_asked(tmp_path: Path) -> None:
    folder = tmp_path / "accounts"
    folder.mkdir()
    done = _child(tmp_path, folder)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["first"] == {"asked": 0, "seconds": 0.0}  # written at start-up: it may be asked
    assert found["wrapped"] == [True] * 7
    assert found["idle"] == {"asked": 1, "seconds": 0.0}  # nothing played yet
    assert found["played"]["asked"] == 2 and found["played"]["seconds"] > 0


def test_without_its_folder_the_accounting_stays_out(tmp_path: Path) -> None:
    done = _child(tmp_path, None, "from kowah.web import game\n"
                                  "print(hasattr(game.Game.act, '__wrapped__'))")
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr
