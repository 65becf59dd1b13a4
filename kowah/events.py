"""What happens in a deal, as values: events, phases and the outcome (R10–R16).

The kinds are string enums (like python-chess's ``Termination``): each member equals its
``kowah-record/1`` string, so JSON stays as it is, and mypy checks that a ``match`` on them
handles every case.

>>> Outcome.win(2, WinBy.SELF_DRAW, Card.C5).as_dict()
{'result': 'win', 'winner': 2, 'by': 'self-draw', 'multiplier': 3, 'card': '5c'}
>>> Outcome.drawn().result == "drawn", str(Event(EventKind.DISCARD, 1, Card.C5))
(True, 'seat 1 discard 5c')
"""

from __future__ import annotations

import enum
from typing import Final, NotRequired, TypedDict

import attrs

from kowah.cards import Card
from kowah.errors import N_, KowahError, shorten
from kowah.rules import SEATS

__all__ = ["Event", "EventKind", "Outcome", "OutcomeDict", "Phase", "Result", "WinBy"]


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
    DRAWN = "drawn"  #: the deal ends drawn (R16); no seat, no card


class Result(enum.StrEnum):
    """How a deal ended."""

    WIN = "win"  #: a seat won (R12, R14)
    DRAWN = "drawn"  #: the stock ran out (R16)


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


class OutcomeDict(TypedDict):
    """The outcome object of ``kowah-record/1`` (:meth:`Outcome.as_dict`)."""

    result: str
    winner: NotRequired[int]
    by: NotRequired[str]
    multiplier: NotRequired[int]
    card: NotRequired[str]


def _event_kind(value: EventKind | str) -> EventKind:
    try:
        return EventKind(value)
    except ValueError:
        raise KowahError(N_("error", "unknown event {value} (draw, take, discard, declare, win or drawn)"),
                         value=shorten(value)) from None


@attrs.frozen(cache_hash=True)
class Event:
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


@attrs.frozen
class Outcome:
    """How a deal ended: a win (who, how, the multiplier, the winning card) or a drawn deal.

    Build it with :meth:`win` or :meth:`drawn`.

    >>> Outcome.drawn().as_dict()
    {'result': 'drawn'}
    """

    #: A win or a drawn deal.
    result: Result = attrs.field(converter=_result)
    #: The winning seat, for a win.
    winner: int | None = None
    #: How it was won, for a win.
    by: WinBy | None = attrs.field(default=None, converter=_win_by)
    #: The multiplier (R15), for a win.
    multiplier: int | None = None
    #: The winning card, for a win.
    card: Card | None = None

    #: The multiplier of each way to win (R15).
    MULTIPLIERS = _MULTIPLIERS

    def __attrs_post_init__(self) -> None:
        if self.result is Result.WIN:
            fits = (type(self.winner) is int and 0 <= self.winner < SEATS and type(self.by) is WinBy
                    and self.multiplier == self.by.multiplier and type(self.card) is Card)
        else:
            fits = self.result is Result.DRAWN and (self.winner, self.by, self.multiplier,
                                                    self.card) == (None, None, None, None)
        if not fits:
            raise KowahError(N_("error", "not an outcome: {value}"),
                             value=shorten((self.result, self.winner, self.by, self.multiplier,
                                            self.card), limit=120))

    @classmethod
    def win(cls, winner: int, by: WinBy | str, card: Card) -> Outcome:
        """A win by *winner*: *by* is a :class:`WinBy` (or its string, ``"self-draw"``, ...).

        >>> Outcome.win(0, "selfdraw", Card.C5)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahError: unknown way to win 'selfdraw' (self-draw, discard or draw-claim)
        """
        way = _win_by(by)
        if way is None:
            raise KowahError(N_("error", "unknown way to win {by!r} (self-draw, discard or draw-claim)"),
                             by=by)
        if type(winner) is not int or not 0 <= winner < SEATS or type(card) is not Card:
            raise KowahError(N_("error", "a win needs a seat 0, 1 or 2 and a Card, not {seat} and {card}"),
                             seat=shorten(winner), card=shorten(card))
        return cls(Result.WIN, winner, way, way.multiplier, card)

    @classmethod
    def drawn(cls) -> Outcome:
        """A deal that ended with the stock exhausted and no winner (R16)."""
        return _DRAWN

    def as_dict(self) -> OutcomeDict:
        """The outcome object of ``kowah-record/1`` replays."""
        if self.winner is None or self.by is None or self.multiplier is None:
            return {"result": self.result.value}
        return {"result": "win", "winner": self.winner, "by": self.by.value,
                "multiplier": self.multiplier, "card": str(self.card)}


_DRAWN: Final = Outcome(Result.DRAWN)
# Every event with a seat and a card is built once and shared, like the actions.
_SHARED: Final[dict[EventKind, tuple[tuple[Event, ...], ...]]] = {
    kind: tuple(tuple(Event(kind, seat, card) for card in Card) for seat in range(SEATS))
    for kind in EventKind if kind is not EventKind.DRAWN
}
_PRIVATE_DRAWS: Final = tuple(tuple(Event(EventKind.DRAW, seat, card, False) for card in Card)
                              for seat in range(SEATS))
_DRAWN_EVENT: Final = Event(EventKind.DRAWN, None)
