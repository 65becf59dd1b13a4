"""The checks of the web's values: private to the package, its names public within it.

Each raises the library's errors (:class:`~kowah.errors.KowahTypeError` for a wrong type, else
:class:`~kowah.errors.KowahError`), naming the field.

>>> check_int("port", 70000, 1, 65535)
Traceback (most recent call last):
...
kowah.errors.KowahError: port must be from 1 to 65535, not 70000
>>> check_texts("allow_hosts", "cards.example")
Traceback (most recent call last):
...
kowah.errors.KowahTypeError: allow_hosts must be a sequence of text, not 'cards.example' of type str
"""

from __future__ import annotations

from collections.abc import Sequence

from kowah.errors import N_, KowahError, KowahTypeError, shorten

__all__ = ["check_bool", "check_int", "check_text", "check_texts"]


def check_bool(field: str, value: object) -> None:
    if not isinstance(value, bool):
        raise KowahTypeError(N_("error", "{field} must be True or False, not {value} of type {type}"),
                             field=field, value=shorten(value), type=type(value).__name__)


def check_int(field: str, value: object, low: int, high: int | None = None) -> None:
    """Refuse *value* unless it is an int from *low* to *high* (no upper bound: ``None``)."""
    if type(value) is not int:
        raise KowahTypeError(N_("error", "{field} must be an int, not {value} of type {type}"),
                             field=field, value=shorten(value), type=type(value).__name__)
    if high is None and value < low:
        raise KowahError(N_("error", "{field} must be at least {low}, not {value}"),
                         field=field, low=low, value=value)
    if high is not None and not low <= value <= high:
        raise KowahError(N_("error", "{field} must be from {low} to {high}, not {value}"),
                         field=field, low=low, high=high, value=value)


def check_text(field: str, value: object) -> None:
    if not isinstance(value, str):
        raise KowahTypeError(N_("error", "{field} must be text, not {value} of type {type}"),
                             field=field, value=shorten(value), type=type(value).__name__)


def check_texts(field: str, value: object) -> tuple[str, ...]:
    """*value*, a sequence of texts (not one text), as a tuple."""
    if isinstance(value, str) or not isinstance(value, Sequence) or not all(
            isinstance(item, str) for item in value):
        raise KowahTypeError(N_("error", "{field} must be a sequence of text, not {value} of type {type}"),
                             field=field, value=shorten(value), type=type(value).__name__)
    return tuple(value)
