"""Saving a record to a file (kowah play --record): atomic, as text, the old file whole on failure."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kowah import Action, Deal
from kowah._recordfile import write_record
from kowah.record import Record


def _record(name: str = "Jiří") -> Record:
    deal = Deal.shuffled(seed=11)
    deal.apply(Action.draw(deal.actor))
    return Record.from_deal(deal, tags={"seat0": name})


def _leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


def test_a_saved_record_holds_non_ascii_as_text(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    write_record(path, _record("Jiří Čáp"))
    text = path.read_bytes().decode("utf-8")
    assert '"seat0": "Jiří Čáp"' in text and "\\u" not in text
    assert Record.loads(text).tags["seat0"] == "Jiří Čáp"


def test_a_size_limit_leaves_the_old_record_whole(tmp_path: Path) -> None:
    """RLIMIT_FSIZE below the record's size: the write fails (EFBIG), the old file is as it was."""
    path = tmp_path / "deal.json"
    old = Record.from_deal(Deal.shuffled(seed=2)).dumps(indent=1) + "\n"
    path.write_text(old, encoding="utf-8")
    longer = Deal.shuffled(seed=11)
    for _ in range(40):
        longer.apply(longer.legal_actions(longer.to_move()[0])[0])
    assert len(old.encode()) < 2000 < len(Record.from_deal(longer).dumps(indent=1))
    script = textwrap.dedent(f"""
        import resource, signal, sys
        from pathlib import Path
        from kowah import Action, Deal
        from kowah._recordfile import write_record
        from kowah.record import Record
        deal = Deal.shuffled(seed=11)
        for _ in range(40):
            deal.apply(deal.legal_actions(deal.to_move()[0])[0])
        record = Record.from_deal(deal)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an OSError (EFBIG) rather than the signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
        try:
            write_record(Path({str(path)!r}), record)
        except OSError as error:
            print("refused", error.errno)
            sys.exit(0)
        print("written")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["refused", str(errno.EFBIG)]
    assert path.read_text(encoding="utf-8") == old
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_a_full_disk_mid_write_leaves_the_old_record_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          failing: str) -> None:
    path = tmp_path / "deal.json"
    path.write_text("the old record\n", encoding="utf-8")

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    if failing == "write":
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, handle: object) -> None:
                self.handle = handle

            def __enter__(self) -> Full:
                return self

            def __exit__(self, *exc: object) -> None:
                self.handle.close()  # type: ignore[attr-defined]

            def write(self, data: bytes) -> int:
                self.handle.write(data[: len(data) // 2])  # type: ignore[attr-defined]
                raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(os, failing, full)
    with pytest.raises(OSError) as caught:
        write_record(path, _record())
    assert caught.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "the old record\n"
    assert _leftovers(tmp_path) == []


def test_saving_keeps_the_files_permissions_and_follows_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_record(link, _record())
    assert link.is_symlink() and Record.loads(target.read_text(encoding="utf-8")) == _record()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "new.json"
    write_record(fresh, _record())
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask
    assert _leftovers(tmp_path) == []
