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
``__init__``'s parameters must be the fields' (checked when the class is made). Why not attrs,
which the other layers use: importing it costs about 20 ms, more than a whole ``kowah check``;
this costs nothing to import and builds a value as fast.

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

from collections.abc import Iterable, Iterator, Mapping
from typing import ClassVar, TypeVar, dataclass_transform

from kowah.errors import N_, KowahTypeError, shorten

__all__ = ["FrozenMap", "Value"]

_V = TypeVar("_V", bound="Value")
_K = TypeVar("_K")
_T = TypeVar("_T")


def _rebuilt(cls: type[_V], fields: dict[str, object]) -> _V:
    """A value of *cls* built from its fields, through its checks (for pickling)."""
    return cls(**fields)


@dataclass_transform(frozen_default=True)  # for type checkers: the fields are read-only
class Value:
    """Base class of the library's immutable values (see the module description)."""

    __slots__ = ("__dict__", "_hash")
    #: The value's fields, in the order they are declared.
    __fields__: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063  # inspect costs an import
        own = [name for name, annotation in annotations.items()
               if not str(annotation).startswith(("ClassVar", "typing.ClassVar", "Final"))]
        fields = (*cls.__fields__, *[name for name in own if name not in cls.__fields__])
        cls.__fields__ = fields
        cls.__match_args__ = fields  # type: ignore[attr-defined, misc]
        init = cls.__dict__.get("__init__")
        if init is None:
            raise TypeError(f"{cls.__name__} must define __init__, taking its fields {fields}")
        code = init.__code__
        names = code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]
        if set(names) != set(fields):
            raise TypeError(f"{cls.__name__}.__init__ takes {names}, but its fields are {fields}")

    def _set(self, **fields: object) -> None:
        """Set the fields (once, at the end of ``__init__``)."""
        self.__dict__.update(fields)

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
        for name in changes:
            if name not in self.__dict__:
                raise KowahTypeError(N_("error", "{type} has no field {name} (its fields: {fields})"),
                                     type=type(self).__name__, name=shorten(name),
                                     fields=", ".join(self.__fields__))
        return type(self)(**{**self.__dict__, **changes})

    __replace__ = replace  # copy.replace (Python 3.13)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot assign to {name!r} (use replace)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self.__dict__ == other.__dict__

    def __ne__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is not other and self.__dict__ != other.__dict__

    def __hash__(self) -> int:
        try:
            return self._hash  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            found = hash((self.__class__.__name__, *map(self.__dict__.__getitem__, self.__fields__)))
            object.__setattr__(self, "_hash", found)
            return found

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self.__fields__)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuilt, (self.__class__, dict(self.__dict__))

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
