"""Why a file could not be read or written, in the user's language.

Private to the package; its names are public within it. Python's :class:`OSError` messages
(``strerror``) are English (or the C library's locale); the common reasons are translated
in the catalogues (context ``"os"``), and any other falls back to ``strerror``.

>>> from kowah.i18n import translator
>>> reason(translator("es"), FileNotFoundError(2, "No such file or directory"))
'no existe ese archivo o carpeta'
>>> reason(translator("en"), OSError(0, "Something odd"))
'Something odd'
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING

from kowah.errors import N_

if TYPE_CHECKING:  # the text layer: a type, not an import at run time
    from kowah.i18n import Words

__all__ = ["NUL_IN_NAME", "REASONS", "reason"]


#: errno → the reason, English (context "os"); the catalogues translate them.
REASONS: dict[int, str] = {
    errno.ENOENT: N_("os", "no such file or folder"),
    errno.EACCES: N_("os", "permission denied"),
    errno.EPERM: N_("os", "operation not permitted"),
    errno.EISDIR: N_("os", "it is a folder"),
    errno.ENOTDIR: N_("os", "a part of the path is not a folder"),
    errno.ENOSPC: N_("os", "no space left on the device"),
    errno.EROFS: N_("os", "the file system is read-only"),
    errno.EEXIST: N_("os", "the file exists already"),
    errno.ENAMETOOLONG: N_("os", "the file name is too long"),
    errno.EIO: N_("os", "input/output error"),
    errno.EFBIG: N_("os", "the file is too large"),
    errno.ELOOP: N_("os", "too many levels of symbolic links"),
    errno.EPIPE: N_("os", "the other end of the pipe was closed"),
    errno.ENXIO: N_("os", "no such device"),
    errno.ENODEV: N_("os", "no such device"),
    errno.EINVAL: N_("os", "invalid argument"),
}
if hasattr(errno, "EDQUOT"):
    REASONS[errno.EDQUOT] = N_("os", "the disk quota is used up")

#: A path that the operating system cannot take at all (a NUL character in it).
NUL_IN_NAME = N_("os", "the file name holds a NUL character")


def reason(t: Words, error: OSError | ValueError) -> str:
    """The reason of *error* in *t*'s language: a translated phrase, else its ``strerror``.

    A :class:`ValueError` is what Python raises for a file name with a NUL character.
    """
    if not isinstance(error, OSError):
        return t.gettext("os", NUL_IN_NAME)
    code = error.errno
    if code is not None and code in REASONS:
        return t.gettext("os", REASONS[code])
    return error.strerror or type(error).__name__
