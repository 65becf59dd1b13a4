"""Frozen value classes without attrs, for the few values ``kowah check`` needs.

Private to the package; its names are public within it. ``attrs`` is what the library uses for
its values (STYLE.md), but importing it costs about 20 ms, more than the whole rest of a
``kowah check``: so the values on that path (:class:`~kowah.cards.Pack`,
:class:`~kowah.hands.Split`, :class:`~kowah.hands.DiscardOption`, the translator) derive from
:class:`Frozen`, which gives what ``@attrs.frozen`` gives them: slots, no assignment, equality
and hashing by fields, a ``repr`` that names the fields, pickling and copying.

>>> class Point(Frozen):
...     __slots__ = ("x", "y")
...     _fields = ("x", "y")
...     def __init__(self, x: int, y: int) -> None:
...         self._set(x=x, y=y)
>>> point = Point(1, 2)
>>> point, point == Point(1, 2), hash(point) == hash(Point(1, 2))
(Point(x=1, y=2), True, True)
>>> point.x = 5
Traceback (most recent call last):
...
AttributeError: Point is frozen: cannot assign to 'x'
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Frozen"]


class Frozen:
    """Base of a frozen value: subclasses list their fields in ``__slots__`` and, in the order
    ``__init__`` takes them, in ``_fields``, and set them once, in ``__init__``, with
    :meth:`_set`. ``_compared`` lists the fields equality and hashing use (all of them unless a
    subclass says otherwise)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...] | None] = None

    def _set(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in (self._compared or self._fields))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot assign to {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, *self._key()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, tuple(getattr(self, name) for name in self._fields))
