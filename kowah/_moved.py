"""The warning a renamed module gives when it is imported by its old name.

Private to the package; its names are public within it. It imports only the standard library,
so that an old name costs no more than the new one.
"""

from __future__ import annotations

import warnings

__all__ = ["warn_moved"]


def warn_moved(old: str, new: str) -> None:
    """Warn (``DeprecationWarning``) that module *old* is now *new*, pointing at the line that
    imported it, past the import machinery's own frames, so that Python shows the warning
    where it shows deprecations: in the importing program's code.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_moved("kowah.old", "kowah.new")
    >>> print(caught[0].message)
    kowah.old is deprecated and will be removed in the next release: import kowah.new instead
    """
    # 1: this function, 2: the old module, 3: its importer (warnings skips the frames of
    # importlib's bootstrap when it counts levels).
    warnings.warn(f"{old} is deprecated and will be removed in the next release: import {new} instead",
                  DeprecationWarning, stacklevel=3)
