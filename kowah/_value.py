"""The one mechanism behind the library's immutable values.

Private to the package; its names are public within it. Every public value of the library
(:class:`~kowah.cards.Pack`, :class:`~kowah.rules.Rules`, :class:`~kowah.actions.Action`,
:class:`~kowah.deal.Observation`, :class:`~kowah.record.Record`, ...) derives from
:class:`Value`, so all of them behave alike:

* **construction checks**: a value is built only through its ``__init__``, which checks (and
  converts) every field and raises the library's errors, so an invalid value cannot exist;
  :meth:`Value.replace`, unpickling and :func:`copy.replace` go through it too;
* **no assignment**: setting or deleting an attribute raises :class:`AttributeError` with one
  message for every value;
* **equality and hashing** by the fields (values of different classes are never equal), the
  hash cached;
* a ``repr`` that names the fields, ``__match_args__`` for ``match``;
* **copying** returns the value itself (it cannot change); **pickling** rebuilds it through
  ``__init__``.

A subclass declares its fields once, as annotations (with a ``#:`` comment for the docs), and
sets them once, at the end of its ``__init__``, with :meth:`Value._set`; the names of
``__init__``'s parameters must be the fields' (checked when the class is made). Why not attrs:
importing it costs about 20 ms, more than a whole ``kowah check``; this costs nothing to import
and builds a value as fast, so the package needs no attrs at all.

>>> class Point(Value):
...     x: int
...     y: int
...     def __init__(self, x: int, y: int = 0) -> None:
...         self._set(x=x, y=y)
>>> point = Point(1, 2)
>>> point, point == Point(1, 2), hash(point) == hash(Point(1, 2)), point.replace(y=5)
(Point(x=1, y=2), True, True, Point(x=1, y=5))
>>> point.x = 5
Traceback (most recent call last):
...
AttributeError: Point is immutable: cannot assign to 'x' (use replace)

:class:`FrozenMap` is the read-only, hashable, picklable mapping that values hold where a
field is a mapping (a refusal's fields, a record's tags).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ClassVar, TypeVar, dataclass_transform

from kowah.errors import N_, KowahTypeError, shorten

__all__ = ["FrozenMap", "Value"]

_V = TypeVar("_V", bound="Value")
_K = TypeVar("_K")
_T = TypeVar("_T")


def _rebuilt(cls: type[_V], fields: dict[str, object]) -> _V:
    """A value of *cls* built from its fields, through its checks (for pickling)."""
    return cls(**fields)


def _own_fields(namespace: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields a class body declares: its annotated names, but class variables."""
    annotations = namespace.get("__annotations__", {})
    return tuple(name for name, annotation in annotations.items()
                 if not str(annotation).startswith(("ClassVar", "typing.ClassVar", "Final")))


class ValueClass(type):
    """Gives each value class the slots of its fields, so that reading a field is as quick as
    reading any slot (and a value has no ``__dict__`` to change)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> ValueClass:
        namespace.setdefault("__slots__", _own_fields(namespace))
        return super().__new__(mcs, name, bases, namespace, **kwargs)


@dataclass_transform(frozen_default=True)  # for type checkers: the fields are read-only
class Value(metaclass=ValueClass):
    """Base class of the library's immutable values (see the module description)."""

    __slots__ = ("_hash",)
    #: The value's fields, in the order they are declared.
    __fields__: ClassVar[tuple[str, ...]] = ()
    _key: ClassVar[Callable[[Any], tuple[object, ...]]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        own = _own_fields(cls.__dict__)
        fields = (*cls.__fields__, *[name for name in own if name not in cls.__fields__])
        cls.__fields__ = fields
        cls.__match_args__ = fields  # type: ignore[attr-defined, misc]
        getter = operator.attrgetter(*fields)
        cls._key = staticmethod(getter if len(fields) > 1 else lambda value: (getter(value),))
        init = cls.__dict__.get("__init__")
        if init is None:
            raise TypeError(f"{cls.__name__} must define __init__, taking its fields {fields}")
        code = init.__code__
        names = code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]
        if set(names) != set(fields):
            raise TypeError(f"{cls.__name__}.__init__ takes {names}, but its fields are {fields}")

    def _set(self, **fields: object) -> None:
        """Set the fields (once, at the end of ``__init__``)."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _fields(self) -> dict[str, object]:
        """The fields by name, in order."""
        return dict(zip(self.__fields__, type(self)._key(self), strict=True))

    def replace(self: _V, **changes: object) -> _V:
        """A copy with some fields changed, checked as a new value is.

        >>> from kowah import KOWAH_RULES
        >>> KOWAH_RULES.replace(no_progress_turns=50)
        Rules(no_progress_turns=50)
        >>> KOWAH_RULES.replace(colour="red")
        Traceback (most recent call last):
        ...
        kowah.errors.KowahTypeError: Rules has no field 'colour' (its fields: pack, no_progress_turns)
        """
        fields = self._fields()
        for name in changes:
            if name not in fields:
                raise KowahTypeError(N_("error", "{type} has no field {name} (its fields: {fields})"),
                                     type=type(self).__name__, name=shorten(name),
                                     fields=", ".join(self.__fields__))
        return type(self)(**{**fields, **changes})

    __replace__ = replace  # copy.replace (Python 3.13)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot assign to {name!r} (use replace)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or type(self)._key(self) == type(self)._key(other)

    def __ne__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is not other and type(self)._key(self) != type(self)._key(other)

    def __hash__(self) -> int:
        try:
            return self._hash  # type: ignore[attr-defined, no-any-return]  # a slot, set below
        except AttributeError:
            found = hash((self.__class__.__name__, *type(self)._key(self)))
            object.__setattr__(self, "_hash", found)
            return found

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self._fields().items())
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuilt, (self.__class__, self._fields())

    def __copy__(self: _V) -> _V:
        return self

    def __deepcopy__(self: _V, memo: object) -> _V:
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
    """

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Mapping[_K, _T] | Iterable[tuple[_K, _T]] = ()) -> None:
        self._items: dict[_K, _T] = dict(items)

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
            self._hash: int = hash(frozenset(self._items.items()))
            return self._hash

    def __repr__(self) -> str:
        return repr(self._items)

    def __reduce__(self) -> tuple[object, ...]:
        return FrozenMap, (self._items,)
