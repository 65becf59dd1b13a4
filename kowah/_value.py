"""What the library's immutable values share beyond attrs: one base class and a read-only map.

Private to the package; its names are public within it. Every public value of the library
(:class:`~kowah.cards.Pack`, :class:`~kowah.engine.Rules`, :class:`~kowah.actions.Action`,
:class:`~kowah.deal.Observation`, :class:`~kowah.record.Record`, ...) is an ``@attrs.frozen``
class: attrs makes its slots, its ``__init__`` (converters and validators raising the
library's errors, so an invalid value cannot exist), equality and hashing by the fields (values
of different classes are never equal), its ``repr`` and ``__match_args__``. Each also derives
from :class:`Value`, which adds what attrs leaves to the class:

* :meth:`Value.replace`: :func:`attrs.evolve`, so the copy is checked as a new value is, after
  a library error for a field the class does not have (also ``copy.replace``, Python 3.13);
* one message for every value on assignment or deletion (an :class:`AttributeError`, attrs'
  :class:`~attrs.exceptions.FrozenInstanceError`);
* **copying** returns the value itself (it cannot change); **pickling** rebuilds it through
  ``__init__``, so a tampered pickle is checked too.

>>> import attrs
>>> @attrs.frozen
... class Point(Value):
...     x: int
...     y: int = 0
>>> point = Point(1, 2)
>>> point, point == Point(1, 2), hash(point) == hash(Point(1, 2)), point.replace(y=5)
(Point(x=1, y=2), True, True, Point(x=1, y=5))
>>> point.x = 5
Traceback (most recent call last):
...
attr.exceptions.FrozenInstanceError: Point is immutable: cannot assign to 'x' (use replace)

What attrs costs and gives, measured when it replaced a hand-written base class (December
2026; CPU time on a shared two-core machine, so only the ratios travel): importing it adds
about 14 ms to the modules ``kowah check`` loads anyway, which keeps that command within the
start-up budget of ``benchmarks/run.py`` (6x ``python -c pass``, from compiled bytecode); a
two-field value builds in 274 ns instead of 505 ns.

:class:`FrozenMap` is the read-only, hashable, picklable mapping that values hold where a
field is a mapping (a refusal's fields, a record's tags).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NoReturn, Self, TypeVar, cast

import attrs

from kowah.errors import N_, KowahTypeError, shorten

__all__ = ["FrozenMap", "Value"]

_K = TypeVar("_K")
_T = TypeVar("_T")


def _rebuilt(cls: type[Value], fields: dict[str, object]) -> Value:
    """A value of *cls* built from its fields, through its checks (for pickling)."""
    return cls(**fields)


def _frozen(message: str) -> attrs.exceptions.FrozenInstanceError:
    error = attrs.exceptions.FrozenInstanceError()  # it takes no message: set its own
    error.args = (message,)
    return error


def _refuse_assignment(self: object, name: str, value: object) -> NoReturn:
    raise _frozen(f"{type(self).__name__} is immutable: cannot assign to {name!r} (use replace)")


def _refuse_deletion(self: object, name: str) -> NoReturn:
    raise _frozen(f"{type(self).__name__} is immutable: cannot delete {name!r}")


class Value:
    """Base class of the library's ``@attrs.frozen`` values (see the module description)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__attrs_attrs__" in cls.__dict__:  # the class attrs made: its own messages
            cls.__setattr__ = _refuse_assignment  # type: ignore[method-assign]
            cls.__delattr__ = _refuse_deletion  # type: ignore[method-assign]

    def replace(self, **changes: object) -> Self:
        """A copy with some fields changed, checked as a new value is.

        >>> from kowah import KOWAH_RULES
        >>> KOWAH_RULES.replace(no_progress_turns=50)
        Rules(no_progress_turns=50)
        >>> KOWAH_RULES.replace(colour="red")
        Traceback (most recent call last):
        ...
        kowah.errors.KowahTypeError: Rules has no field 'colour' (its fields: pack, no_progress_turns)
        """
        value: Any = self  # an attrs class (each subclass is one)
        names = attrs.fields_dict(type(value))
        for name in changes:
            if name not in names:
                raise KowahTypeError(N_("error", "{type} has no field {name} (its fields: {fields})"),
                                     type=type(self).__name__, name=shorten(name), fields=", ".join(names))
        return cast(Self, attrs.evolve(value, **changes))

    __replace__ = replace  # copy.replace (Python 3.13)

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuilt, (self.__class__, attrs.asdict(self, recurse=False))  # type: ignore[arg-type]

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self


class FrozenMap(Mapping[_K, _T]):
    """A read-only mapping that hashes, compares and pickles by its items, and prints like a
    dict.

    >>> import pickle
    >>> fields = FrozenMap({"card": 5})
    >>> fields, fields == {"card": 5}, pickle.loads(pickle.dumps(fields)) == fields
    ({'card': 5}, True, True)
    >>> fields["card"] = 6
    Traceback (most recent call last):
    ...
    TypeError: 'FrozenMap' object does not support item assignment
    >>> fields._items = {}
    Traceback (most recent call last):
    ...
    AttributeError: FrozenMap is read-only
    """

    __slots__ = ("_hash", "_items")
    _items: dict[_K, _T]
    _hash: int

    def __init__(self, items: Mapping[_K, _T] | Iterable[tuple[_K, _T]] = ()) -> None:
        object.__setattr__(self, "_items", dict(items))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("FrozenMap is read-only")

    def __getitem__(self, key: _K) -> _T:
        return self._items[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            found = hash(frozenset(self._items.items()))
            object.__setattr__(self, "_hash", found)
            return found

    def __repr__(self) -> str:
        return repr(self._items)

    def __reduce__(self) -> tuple[object, ...]:
        return FrozenMap, (self._items,)
