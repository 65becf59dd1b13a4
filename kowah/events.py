"""What happens in a deal, as values: events, phases and the outcome (R10–R17).

The kinds are string enums (like python-chess's ``Termination``): each member equals its
``kowah-record/1`` string, so JSON stays as it is, and mypy checks that a ``match`` on them
handles every case.

>>> Outcome.win(2, WinBy.SELF_DRAW, Card.C5).as_dict()
{'result': 'win', 'winner': 2, 'by': 'self-draw', 'multiplier': 3, 'card': '5c'}
>>> Outcome.drawn(DrawnBy.NO_PROGRESS).as_dict()
{'result': 'drawn', 'by': 'no-progress'}
>>> str(Event(EventKind.DISCARD, 1, Card.C5))
'seat 1 discard 5c'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import ClassVar, Final, NotRequired, TypedDict

import attrs

from kowah._value import Value
from kowah.actions import SEATS
from kowah.cards import Card
from kowah.errors import N_, KowahError, shorten

__all__ = ["DrawnBy", "Event", "EventDict", "EventKind", "Outcome", "OutcomeDict", "Phase", "Result", "WinBy"]


class Phase(enum.StrEnum):
    """Where the seat whose turn it is stands."""

    START = "start"  #: it must draw or take
    DISCARD = "discard"  #: it must discard
    OVER = "over"  #: the deal has ended


class EventKind(enum.StrEnum):
    """What an :class:`Event` tells."""

    DRAW = "draw"  #: a stock draw (its card hidden from the others before a declaration, R13)
    TAKE = "take"  #: the latest discard taken (R10)
    DISCARD = "discard"  #: a discard (R10)
    DECLARE = "declare"  #: a declaration; the card is the public wait (R11)
    WIN = "win"  #: the deal is won (R12, R14); the seat is the winner, the card the winning card
    DRAWN = "drawn"  #: the deal ends drawn (R16, R17); no seat, no card (the outcome says why)


class Result(enum.StrEnum):
    """How a deal ended."""

    WIN = "win"  #: a seat won (R12, R14)
    DRAWN = "drawn"  #: nobody won: the stock ran out (R16) or the deal made no progress (R17)


class DrawnBy(enum.StrEnum):
    """Why a deal ended drawn."""

    EXHAUSTION = "exhaustion"  #: the last stock card was drawn and brought no win (R16)
    NO_PROGRESS = "no-progress"  #: 30 turns in a row took the latest discard, none drew (R17)


class WinBy(enum.StrEnum):
    """How a deal was won, with its multiplier (R15)."""

    SELF_DRAW = "self-draw"  #: the winner drew its own wait (R12), ×3
    DISCARD = "discard"  #: the winner claimed a discard (R14), ×2
    DRAW_CLAIM = "draw-claim"  #: the winner claimed another seat's stock draw (R14), ×1

    @property
    def multiplier(self) -> int:
        """The multiplier of this way to win (R15)."""
        return _MULTIPLIERS[self]


_MULTIPLIERS: Final = {WinBy.SELF_DRAW: 3, WinBy.DISCARD: 2, WinBy.DRAW_CLAIM: 1}


class EventDict(TypedDict):
    """An event as JSON-ready data (:meth:`Event.to_dict`)."""

    kind: str  #: an EventKind's value
    seat: int | None  #: None for a drawn deal
    card: str | None  #: the card's code; None where it is hidden, and for a drawn deal
    public: bool  #: whether every seat sees the card


class OutcomeDict(TypedDict):
    """The outcome object of ``kowah-record/1`` (:meth:`Outcome.as_dict`), and of a replay
    (:func:`kowah.record.replay_outcome`: also ``"in-progress"`` and ``"invalid"``)."""

    result: str  #: "win", "drawn"; for a replay also "in-progress" or "invalid"
    winner: NotRequired[int]  #: a win's seat
    by: NotRequired[str]  #: a WinBy or a DrawnBy
    multiplier: NotRequired[int]  #: a win's (R15)
    card: NotRequired[str]  #: a win's card
    action: NotRequired[int]  #: invalid: the 0-based index of the first bad action
    error: NotRequired[str]  #: invalid: the English message
    template: NotRequired[str]  #: invalid: the message's template
    params: NotRequired[dict[str, str | int | None]]  #: invalid: the template's fields
    reason: NotRequired[str]  #: invalid: the Reason code of an illegal action
    reason_params: NotRequired[dict[str, str | int | None]]  #: invalid: the reason's fields


def _event_kind(value: EventKind | str) -> EventKind:
    try:
        return EventKind(value)
    except ValueError:
        raise KowahError(N_("error", "unknown event {value} (draw, take, discard, declare, win or drawn)"),
                         value=shorten(value)) from None


@attrs.frozen
class Event(Value):
    """Something that happened in the deal, as a UI would show it.

    ``card`` is ``None`` where the card is hidden: another seat's stock draw before any
    declaration (R13), as seen in an :class:`~kowah.deal.Observation`; and for a drawn deal.
    The constructor checks its fields (a kind's string converts: ``Event("discard", 1,
    Card.C5)``); :meth:`of` gives the shared value.

    >>> Event.of(EventKind.DISCARD, 1, Card.C5) is Event.of(EventKind.DISCARD, 1, Card.C5)
    True
    >>> Event(EventKind.DRAWN, 0)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: not an event: (<EventKind.DRAWN: 'drawn'>, 0, None, True)
    """

    #: What happened.
    kind: EventKind = attrs.field(converter=_event_kind)
    #: Who did it (the winner, for a win); ``None`` for a drawn deal.
    seat: int | None
    #: The card drawn, taken, discarded, declared as wait or won with.
    card: Card | None = None
    #: Whether every seat sees the card (always, but for stock draws before a declaration).
    public: bool = True

    def __attrs_post_init__(self) -> None:
        kind, seat, card, public = self.kind, self.seat, self.card, self.public
        if kind is EventKind.DRAWN:
            fits = seat is None and card is None and public is True
        else:
            fits = (type(seat) is int and 0 <= seat < SEATS and type(public) is bool
                    and (type(card) is Card or (card is None and kind is EventKind.DRAW and not public))
                    and (public or kind is EventKind.DRAW))
        if not fits:
            raise KowahError(N_("error", "not an event: {value}"),
                             value=shorten((kind, seat, card, public), limit=120))

    @classmethod
    def of(cls, kind: EventKind, seat: int | None, card: Card | None = None,
           public: bool = True) -> Event:
        """``Event(kind, seat, card, public)``, as the value the deals share (no allocation)."""
        if type(seat) is int and 0 <= seat < SEATS and type(card) is Card:
            table: tuple[tuple[Event, ...], ...] | None
            if public is True:
                table = _SHARED.get(kind)
            else:
                table = _PRIVATE_DRAWS if kind is EventKind.DRAW else None
            if table is not None:
                return table[seat][card]
        return _DRAWN_EVENT if kind is EventKind.DRAWN and seat is None else cls(kind, seat, card, public)

    def to_dict(self) -> EventDict:
        """The event as JSON-ready data: every key always there, a hidden card ``None``.

        >>> Event.of(EventKind.DISCARD, 1, Card.C5).to_dict()
        {'kind': 'discard', 'seat': 1, 'card': '5c', 'public': True}
        """
        return {"kind": self.kind.value, "seat": self.seat,
                "card": None if self.card is None else self.card.code, "public": self.public}

    def __str__(self) -> str:
        who = "" if self.seat is None else f"seat {self.seat} "
        card = "" if self.card is None else f" {self.card}"
        return f"{who}{self.kind.value}{card}"


def _result(value: Result | str) -> Result:
    try:
        return Result(value)
    except ValueError:
        raise KowahError(N_("error", "unknown result {value} (win or drawn)"), value=shorten(value)) from None


def _win_by(value: WinBy | str | None) -> WinBy | None:
    if value is None:
        return None
    try:
        return WinBy(value)
    except ValueError:
        raise KowahError(N_("error", "unknown way to win {by!r} (self-draw, discard or draw-claim)"),
                         by=value) from None


def _drawn_by(value: DrawnBy | str) -> DrawnBy:
    try:
        return DrawnBy(value)
    except ValueError:
        raise KowahError(N_("error", "unknown reason for a drawn deal {by!r} (exhaustion or no-progress)"),
                         by=value) from None


def _by(value: WinBy | DrawnBy | str | None) -> WinBy | DrawnBy | None:
    if value is None or type(value) is WinBy or type(value) is DrawnBy:
        return value
    if value in _DRAWN_BY:
        return DrawnBy(value)
    return _win_by(value)


_DRAWN_BY = frozenset(DrawnBy)


@attrs.frozen
class Outcome(Value):
    """How a deal ended: a win (who, how, the multiplier, the winning card) or a drawn deal
    (and why: :class:`DrawnBy`).

    Build it with :meth:`win` or :meth:`drawn`.

    >>> Outcome.drawn(DrawnBy.EXHAUSTION).as_dict()
    {'result': 'drawn', 'by': 'exhaustion'}
    """

    #: A win or a drawn deal.
    result: Result = attrs.field(converter=_result)
    #: The winning seat, for a win.
    winner: int | None = None
    #: How it was won (a :class:`WinBy`), or why it was drawn (a :class:`DrawnBy`).
    by: WinBy | DrawnBy | None = attrs.field(default=None, converter=_by)
    #: The multiplier (R15), for a win.
    multiplier: int | None = None
    #: The winning card, for a win.
    card: Card | None = None

    #: The multiplier of each way to win (R15).
    MULTIPLIERS: ClassVar[Mapping[WinBy, int]] = _MULTIPLIERS

    def __attrs_post_init__(self) -> None:
        result, winner, by, multiplier, card = self.result, self.winner, self.by, self.multiplier, self.card
        if result is Result.WIN:
            fits = (type(winner) is int and 0 <= winner < SEATS and type(by) is WinBy
                    and multiplier == by.multiplier and type(card) is Card)
        else:
            fits = type(by) is DrawnBy and (winner, multiplier, card) == (None, None, None)
        if not fits:
            raise KowahError(N_("error", "not an outcome: {value}"),
                             value=shorten((result, winner, by, multiplier, card), limit=120))

    @classmethod
    def win(cls, winner: int, by: WinBy | str, card: Card) -> Outcome:
        """A win by *winner*: *by* is a :class:`WinBy` (or its string, ``"self-draw"``, ...).

        >>> Outcome.win(0, "selfdraw", Card.C5)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahError: unknown way to win 'selfdraw' (self-draw, discard or draw-claim)
        """
        way = _win_by(by)
        if way is None or type(way) is not WinBy:
            raise KowahError(N_("error", "unknown way to win {by!r} (self-draw, discard or draw-claim)"),
                             by=by)
        if type(winner) is not int or not 0 <= winner < SEATS or type(card) is not Card:
            raise KowahError(N_("error", "a win needs a seat 0, 1 or 2 and a Card, not {seat} and {card}"),
                             seat=shorten(winner), card=shorten(card))
        return cls(Result.WIN, winner, way, way.multiplier, card)

    @classmethod
    def drawn(cls, by: DrawnBy | str) -> Outcome:
        """A deal that ended without a winner: *by* says why, the stock ran out (R16) or no
        progress (R17).

        >>> Outcome.drawn("no-progress") is Outcome.drawn(DrawnBy.NO_PROGRESS)
        True
        """
        return _DRAWN[_drawn_by(by)]

    def as_dict(self) -> OutcomeDict:
        """The outcome object of ``kowah-record/1`` replays."""
        if self.winner is None or self.multiplier is None or type(self.by) is not WinBy:
            return {"result": self.result.value, "by": str(self.by)}
        return {"result": "win", "winner": self.winner, "by": self.by.value,
                "multiplier": self.multiplier, "card": str(self.card)}


_DRAWN: Final = {by: Outcome(Result.DRAWN, by=by) for by in DrawnBy}
# Every event with a seat and a card is built once and shared, like the actions.
_SHARED: Final[dict[EventKind, tuple[tuple[Event, ...], ...]]] = {
    kind: tuple(tuple(Event(kind, seat, card) for card in Card) for seat in range(SEATS))
    for kind in EventKind if kind is not EventKind.DRAWN
}
_PRIVATE_DRAWS: Final = tuple(tuple(Event(EventKind.DRAW, seat, card, False) for card in Card)
                              for seat in range(SEATS))
_DRAWN_EVENT: Final = Event(EventKind.DRAWN, None)
