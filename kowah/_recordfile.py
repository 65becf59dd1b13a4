"""Where the terminal game saves its record: checked before the deal as it is written after.

Private to the package; its names are public within it.
"""

from __future__ import annotations

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


def write_record(path: Path, record: Record) -> None:
    """Write *record* to *path*, replacing what it holds (:func:`check_record_path` checked,
    before the deal, that it can be opened for writing)."""
    with path.open("w", encoding="utf-8") as handle:
        handle.write(record.dumps(indent=1) + "\n")
