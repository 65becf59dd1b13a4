"""A table's seats and its own happenings: the values a :class:`~kowah.web.game.Game` is made of.

A :class:`Seat` is a person's (with its secret key and the name they gave) or an AI's; a
:class:`TableEvent` is something that happens at the table outside the deal's rules (a person
joins or leaves, the deal starts, a turn clock runs out, the game is closed), with its sentences
in :data:`TABLE_TEXT`.
"""

from __future__ import annotations

import enum
import re
import secrets
from typing import Any

import attrs

from kowah._value import Value
from kowah.actions import SEATS
from kowah.errors import N_, KowahError, KowahTypeError, shorten
from kowah.web._checks import check_bool, check_int
from kowah.web.phrases import PHRASE_IDS

__all__ = ["TABLE_TEXT", "Seat", "TableEvent", "TableEventKind", "name_ok", "new_key"]

_KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_NAME_LENGTH = 24


def new_key() -> str:
    """A seat's secret key: 192 random bits, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def name_ok(name: object) -> bool:
    """Whether *name* may name a person: 1–24 printable characters, not only spaces.

    >>> name_ok("Ana"), name_ok(""), name_ok("a\\nb"), name_ok("x" * 25), name_ok(3)
    (True, False, False, False, False)
    """
    return (isinstance(name, str) and 0 < len(name) <= _NAME_LENGTH and name.isprintable()
            and bool(name.strip()))


class TableEventKind(enum.StrEnum):
    """What happened at the table, outside the deal's rules."""

    JOIN = "join"  #: a person took their seat
    START = "start"  #: the deal starts (friends' tables)
    LEAVE = "leave"  #: a person left; an AI plays on
    TIMEOUT = "timeout"  #: a person's clock ran out; the hard AI acted for them
    CLOSE = "close"  #: the game was closed
    READY = "ready"  #: a person asked for the next deal
    HAND_OVER = "hand-over"  #: an AI plays an absent person's seat until they come back
    TAKE_BACK = "take-back"  #: the person came back and plays their seat again
    PHRASE = "phrase"  #: a person said one of the quick phrases (:mod:`kowah.web.phrases`)


@attrs.frozen(init=False)
class TableEvent(Value):
    """A :class:`TableEventKind` at *seat* (``None``: the whole table), logged after the deal's
    first *at* events.

    >>> TableEvent(TableEventKind.JOIN, 1, 4) == TableEvent("join", 1, 4)
    True
    >>> TableEvent("sit", 1, 4)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: kind must be one of join, start, leave, timeout, close, ready, \
hand-over, take-back, phrase, not 'sit'
    """

    #: What happened.
    kind: TableEventKind
    #: The seat it happened to, or ``None`` for the whole table.
    seat: int | None
    #: The number of the deal's events before it.
    at: int
    #: The phrase's id, for a ``phrase`` (else ``None``).
    phrase: str | None

    def __init__(self, kind: TableEventKind | str, seat: int | None, at: int,
                 phrase: str | None = None) -> None:
        if kind not in _KINDS:
            raise KowahError(N_("error", "{field} must be one of {choices}, not {value}"),
                             field="kind", choices=", ".join(_KINDS), value=shorten(kind))
        if seat is not None:
            check_int("seat", seat, 0, SEATS - 1)
        check_int("at", at, 0)
        if (phrase is not None) != (kind == TableEventKind.PHRASE) or (
                phrase is not None and phrase not in PHRASE_IDS):
            raise KowahError(N_("error", "{field} must be one of {choices}, not {value}"),
                             field="phrase", choices=", ".join(PHRASE_IDS), value=shorten(phrase))
        self.__attrs_init__(kind=TableEventKind(kind), seat=seat, at=at, phrase=phrase)


@attrs.frozen(init=False)
class Seat(Value):
    """One seat: a person's (with its key, and the name they gave) or an AI's.

    >>> seat = Seat(person=True, token=new_key(), name="Ana")
    >>> seat.replace(joined=True)
    Seat(person=True, token=<key>, name='Ana', joined=True, left=False)
    >>> Seat(person=True, token="short")
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: a seat's key must be 16 to 64 letters, digits, '-' or '_'
    >>> Seat(person=False, token=new_key())
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: a person's seat has a key and an AI's seat has none
    >>> Seat(person=False, name="Ana\\n")
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: a person's name must be 1 to 24 printable characters, not 'Ana\\n'
    """

    #: Whether a person's (else an AI plays it).
    person: bool
    #: The seat's secret key (a person's seat only): whoever sends it plays the seat.
    token: str | None
    #: The name the person gave, or ``None``.
    name: str | None
    #: Whether the person has taken the seat.
    joined: bool
    #: Whether the person left the table (an AI plays on for them).
    left: bool

    def __init__(self, person: bool, token: str | None = None, name: str | None = None,
                 joined: bool = False, left: bool = False) -> None:
        for field, flag in (("person", person), ("joined", joined), ("left", left)):
            check_bool(field, flag)
        if token is not None:
            if not isinstance(token, str):
                raise KowahTypeError(N_("error", "{field} must be text, not {value} of type {type}"),
                                     field="token", value="…", type=type(token).__name__)
            if not _KEY_PATTERN.match(token):  # the key itself is never shown
                raise KowahError(N_("error", "a seat's key must be 16 to 64 letters, digits, '-' or '_'"))
        if person != (token is not None):
            raise KowahError(N_("error", "a person's seat has a key and an AI's seat has none"))
        if name is not None and not name_ok(name):
            raise KowahError(N_("error", "a person's name must be 1 to {limit} printable characters, "
                                         "not {value}"), limit=_NAME_LENGTH, value=shorten(name))
        self.__attrs_init__(person=person, token=token, name=name, joined=joined, left=left)

    def __repr__(self) -> str:  # the key is a secret: it is never printed, nor logged
        key = None if self.token is None else "<key>"
        return (f"Seat(person={self.person!r}, token={key}, name={self.name!r}, "
                f"joined={self.joined!r}, left={self.left!r})")

    def as_dict(self) -> dict[str, Any]:
        """The seat as a JSON object (the saved game's form)."""
        return {"person": self.person, "token": self.token, "name": self.name,
                "joined": self.joined, "left": self.left}


_KINDS = tuple(kind.value for kind in TableEventKind)


# The table's log lines (context "web"), said to the seat concerned and to the others; {name}
# is a seat or person (a kowah.i18n.Named): {name:subject} where it is a sentence's subject.
TABLE_TEXT: dict[TableEventKind, tuple[str, str]] = {
    TableEventKind.JOIN: (N_("web", "You take your seat."), N_("web", "{name:subject} joins the table.")),
    TableEventKind.START: (N_("web", "The deal starts."), N_("web", "The deal starts.")),
    TableEventKind.LEAVE: (N_("web", "You leave the table: an AI plays on for you."),
                           N_("web", "{name:subject} leaves the table: an AI plays on for them.")),
    TableEventKind.TIMEOUT: (N_("web", "Your time ran out: the AI played for you."),
                             N_("web", "{name:subject}'s time ran out: the AI played for them.")),
    TableEventKind.CLOSE: (N_("web", "The table is closed."), N_("web", "The table is closed.")),
    TableEventKind.READY: (N_("web", "You ask for another deal."),
                           N_("web", "{name:subject} asks for another deal.")),
    TableEventKind.HAND_OVER: (N_("web", "The AI plays your seat until you come back."),
                               # TRANSLATORS: {name} is the seat's label, before a colon.
                               N_("web", "{name}: the AI plays this seat until they come back.")),
    TableEventKind.TAKE_BACK: (N_("web", "You are back: you play your seat again."),
                               N_("web", "{name:subject} is back and plays again.")),
    # A phrase's sentence is made in kowah.web.phrases (the phrase in the viewer's language).
    TableEventKind.PHRASE: (N_("web", "You: {phrase}"), N_("web", "{name}: {phrase}")),
}
