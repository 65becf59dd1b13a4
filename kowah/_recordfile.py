"""Where the terminal game saves its record: checked before the deal as it is written after.

Private to the package; its names are public within it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from kowah._oserrors import reason as os_reason
from kowah.errors import N_, KowahError, printable
from kowah.record import Record

if TYPE_CHECKING:
    from kowah.i18n import Words

__all__ = ["check_record_path", "write_record"]


def check_record_path(t: Words, path: Path) -> None:
    """Refuse a record path that cannot be written, before the deal is played.

    The check opens the file for writing as the save at the end does (creating it, and
    removing it again, if it was not there), so a path that passes here can be saved to
    (``/proc/x.json`` does not pass). The error names the reason in *t*'s language.
    """
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except (OSError, ValueError) as error:
        raise KowahError(N_("error", "cannot save the record to {path}: {reason}"),
                         path=printable(str(path)), reason=os_reason(t, error)) from None
    if not existed:
        path.unlink(missing_ok=True)
    target = path.resolve() if path.is_symlink() else path
    if target.is_file() or not existed:  # the save writes a new file beside it (write_record)
        try:
            descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                                     dir=target.parent)
        except (OSError, ValueError) as error:
            raise KowahError(N_("error", "cannot save the record to {path}: {reason}"),
                             path=printable(str(path)), reason=os_reason(t, error)) from None
        os.close(descriptor)
        os.unlink(temporary)


def write_record(path: Path, record: Record) -> None:
    """Write *record* to *path*, replacing what it holds, atomically.

    The record goes to a new file beside it, which then takes its name, so a full disk, a size
    limit or a crash halfway leaves the old file whole (and no new file behind). A path that is
    not a regular file (``/dev/stdout``, a pipe) is written directly; a symbolic link's target is
    replaced.
    (:func:`check_record_path` checked, before the deal, that it can be opened for writing.)
    """
    text = (record.dumps(indent=1) + "\n").encode("utf-8")
    target = path.resolve() if path.is_symlink() else path
    if target.exists() and not target.is_file():
        with target.open("wb") as handle:
            handle.write(text)
        return
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else _new_file_mode()
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _new_file_mode() -> int:
    """The permissions open() gives a new file: 0o666 less the process's umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
