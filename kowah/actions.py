"""Actions, their text and record forms, and the reasons an action is refused (R10–R12).

An :class:`Action` is a value that cannot be built invalid: a seat 0–2, an :class:`ActionKind`
and, for a discard, the card (for a declaration, the wait, which may be left out when the hand
offers only one, as records allow). It has one text form and one dict form, both round-trip:

>>> action = Action.parse("discard 5c", seat=1)
>>> action, str(action), action.to_dict()
(Action.discard(1, Card.C5), 'discard 5c', {'seat': 1, 'do': 'discard', 'card': '5c'})
>>> Action.from_dict({"do": "declare", "wait": "5s"}, seat=0)
Action.declare(0, Card.S5)
>>> Action.parse(str(Action.pass_(2)), seat=2) is Action.pass_(2)
True
>>> Action(1, "discard", Card.C5)
Traceback (most recent call last):
...
kowah.errors.ActionTypeError: an action's kind must be an ActionKind, not 'discard' of type str
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final, NotRequired, TypedDict

import attrs

from kowah._value import FrozenMap, Value
from kowah.cards import Card, format_cards
from kowah.errors import N_, ActionError, ActionTypeError, CardParseError, format_message, shorten

__all__ = [
    "DECLARES",
    "DISCARDS",
    "DRAWS",
    "PASSES",
    "SEATS",
    "TAKES",
    "Action",
    "ActionDict",
    "ActionKind",
    "Reason",
    "Refusal",
    "shown",
]


#: Seats at the table, numbered 0, 1, 2 (R9); an action's seat is one of them.
SEATS: Final = 3


class ActionDict(TypedDict):
    """An action in the form of ``kowah-record/1`` (:meth:`Action.to_dict`)."""

    seat: int
    do: str
    card: NotRequired[str]  #: a discard's card
    wait: NotRequired[str]  #: a declaration's wait, left out for the hand's only wait


class ActionKind(enum.StrEnum):
    """What an action does. ``PASS`` declines to declare (R11); it is never written in records."""

    DRAW = "draw"  #: draw the top card of the stock (R10)
    TAKE = "take"  #: take the latest discard (R10)
    DISCARD = "discard"  #: discard a card (R10)
    DECLARE = "declare"  #: declare checki, exposing the pair of a wait (R11)
    PASS = "pass"  #: decline to declare (R11: declaring is never forced)


_WITH_CARD = frozenset({ActionKind.DISCARD, ActionKind.DECLARE})


def _check_seat(action: object, field: object, seat: int) -> None:
    if type(seat) is not int:  # a bool, a float or a str is no seat
        raise ActionTypeError(N_("error", "a seat must be an int (0, 1 or 2), not {value} of type {type}"),
                              value=shorten(seat), type=type(seat).__name__)
    if not 0 <= seat < SEATS:
        raise ActionError(N_("error", "there is no seat {seat}"), seat=seat)


def _check_kind(action: object, field: object, kind: ActionKind) -> None:
    if type(kind) is not ActionKind:
        raise ActionTypeError(
            N_("error", "an action's kind must be an ActionKind, not {value} of type {type}"),
            value=shorten(kind), type=type(kind).__name__,
        )


def _check_card(action: Action, field: object, card: Card | None) -> None:
    kind = action.kind
    if card is None:
        if kind is ActionKind.DISCARD:
            raise ActionError(N_("error", "a discard must name a card"))
        return
    if kind not in _WITH_CARD:
        raise ActionError(N_("error", "a draw, take or pass names no card, not {value!r}"), value=card)
    if type(card) is not Card:  # a card's code or index is not a Card
        raise ActionTypeError(
            N_("error", "{value!r} is not a card: a discard or a wait is a Card, such as "
                        "Card.parse('5c')"),
            value=card,
        )


@attrs.frozen
class Action(Value):
    """One seat's action; build it with the class methods, :meth:`parse` or :meth:`from_dict`.

    The constructor checks every field, so no invalid action exists: *seat* is an ``int``
    0–2, *kind* an :class:`ActionKind`, *card* a :class:`~kowah.cards.Card` for a discard and
    ``None`` for a draw, take or pass. A declaration's card is its wait; ``None`` means "the
    hand's only wait" (as in the game-record format), which :meth:`Deal.apply
    <kowah.deal.Deal.apply>` resolves, or refuses when the hand offers several.

    >>> Action.discard(1, Card.C5)
    Action.discard(1, Card.C5)
    >>> str(Action.declare(0, Card.S5)), Action.draw(2).kind
    ('declare 5s', <ActionKind.DRAW: 'draw'>)
    >>> Action.draw(True)
    Traceback (most recent call last):
    ...
    kowah.errors.ActionTypeError: a seat must be an int (0, 1 or 2), not True of type bool
    """

    #: The seat that acts, 0–2.
    seat: int = attrs.field(validator=_check_seat)
    #: What it does.
    kind: ActionKind = attrs.field(validator=_check_kind)
    #: The card discarded, or the wait declared; ``None`` for the other kinds.
    card: Card | None = attrs.field(default=None, validator=_check_card)

    # Typed accessors: card is Card | None for every kind, so a typed bot that knows it holds
    # a discard reads discarded (a Card), and a declaration's wait with wait.

    @property
    def discarded(self) -> Card:
        """The card of a discard, as a :class:`~kowah.cards.Card` (never ``None``, so typed code
        needs no check); for another kind, :class:`~kowah.errors.ActionError`.

        >>> Action.discard(0, Card.C5).discarded
        Card.C5
        >>> Action.draw(0).discarded
        Traceback (most recent call last):
        ...
        kowah.errors.ActionError: draw is not a discard: it has no discarded card
        """
        if self.kind is not ActionKind.DISCARD or self.card is None:
            raise ActionError(N_("error", "{action} is not a discard: it has no discarded card"),
                              action=str(self))
        return self.card

    @property
    def wait(self) -> Card | None:
        """The wait a declaration exposes (``None``: the hand's only wait, R8); for another kind,
        :class:`~kowah.errors.ActionError`.

        >>> Action.declare(1, Card.S5).wait, Action.declare(1, None).wait
        (Card.S5, None)
        """
        if self.kind is not ActionKind.DECLARE:
            raise ActionError(N_("error", "{action} is not a declaration: it has no wait"), action=str(self))
        return self.card

    @classmethod
    def draw(cls, seat: int) -> Action:
        """Draw the top card of the stock (R10)."""
        return DRAWS[seat] if type(seat) is int and 0 <= seat < SEATS else cls(seat, ActionKind.DRAW)

    @classmethod
    def take(cls, seat: int) -> Action:
        """Take the latest discard (R10)."""
        return TAKES[seat] if type(seat) is int and 0 <= seat < SEATS else cls(seat, ActionKind.TAKE)

    @classmethod
    def discard(cls, seat: int, card: Card) -> Action:
        """Discard *card* (R10)."""
        if type(seat) is int and 0 <= seat < SEATS and type(card) is Card:
            return DISCARDS[seat][card]
        return cls(seat, ActionKind.DISCARD, card)

    @classmethod
    def declare(cls, seat: int, wait: Card | None) -> Action:
        """Declare checki, exposing the pair of *wait* (R11); ``None``: the hand's only wait."""
        return _shared(seat, ActionKind.DECLARE, wait)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        """Decline to declare after one's own discard (R11: declaring is never forced)."""
        return PASSES[seat] if type(seat) is int and 0 <= seat < SEATS else cls(seat, ActionKind.PASS)

    @classmethod
    def parse(cls, text: str, *, seat: int) -> Action:
        """The action of *seat* written as :func:`str` writes it: ``"draw"``, ``"take"``,
        ``"discard 5c"``, ``"declare 5s"`` (or ``"declare"``: the only wait), ``"pass"``.

        Words and card codes are case-insensitive (R3); bad text raises
        :class:`~kowah.errors.ActionError` naming it.

        >>> Action.parse("DISCARD 9m", seat=0)
        Action.discard(0, Card.M9)
        >>> Action.parse("declare", seat=2)
        Action.declare(2, None)
        >>> Action.parse("fly 5c", seat=0)
        Traceback (most recent call last):
        ...
        kowah.errors.ActionError: unknown action 'fly' in 'fly 5c' (draw, take, discard, declare or pass)
        >>> Action.parse("draw 5c", seat=0)
        Traceback (most recent call last):
        ...
        kowah.errors.ActionError: a draw, take or pass names no card, not '5c'
        >>> Action.parse("discard 5c 5s", seat=0)
        Traceback (most recent call last):
        ...
        kowah.errors.ActionError: a discard or a declaration names one card, not '5c 5s' (in 'discard 5c 5s')
        """
        if not isinstance(text, str):
            raise ActionTypeError(N_("error", "an action's text must be a string, not {value} of type "
                                              "{type}"), value=shorten(text), type=type(text).__name__)
        words = text.split()
        if not words:
            raise ActionError(N_("error", "empty text is not an action"))
        kind = _KINDS.get(words[0].lower()) if words[0].isascii() else None
        if kind is None:
            raise ActionError(
                N_("error", "unknown action {word!r} in {text!r} (draw, take, discard, declare or pass)"),
                word=words[0], text=text,
            )
        if len(words) > 1 and kind not in _WITH_CARD:
            raise ActionError(N_("error", "a draw, take or pass names no card, not {value!r}"),
                              value=" ".join(words[1:]))
        if len(words) > 2:
            raise ActionError(N_("error", "a discard or a declaration names one card, not {value!r} "
                                          "(in {text!r})"), value=" ".join(words[1:]), text=text)
        if len(words) == 1:
            return _shared(seat, kind, None)
        try:
            card = Card.parse(words[1])
        except CardParseError:
            raise ActionError(N_("error", "unknown card code {token!r} in the action {text!r}"),
                              token=words[1], text=text) from None
        return _shared(seat, kind, card)

    def to_dict(self) -> ActionDict:
        """The action as ``kowah-record/1`` writes it: ``{"seat": 0, "do": "discard", "card": "5c"}``.

        A declaration names its ``"wait"`` (left out for ``None``, the only wait); a pass is
        ``{"seat": s, "do": "pass"}``, which records never hold.

        >>> Action.declare(0, Card.S5).to_dict(), Action.draw(2).to_dict()
        ({'seat': 0, 'do': 'declare', 'wait': '5s'}, {'seat': 2, 'do': 'draw'})
        """
        entry: ActionDict = {"seat": self.seat, "do": self.kind.value}
        if self.kind is ActionKind.DISCARD:
            entry["card"] = str(self.card)
        elif self.card is not None:
            entry["wait"] = str(self.card)
        return entry

    @classmethod
    def from_dict(cls, data: Mapping[str, object], seat: int | None = None) -> Action:
        """The action of a ``kowah-record/1`` entry (:meth:`to_dict`); unknown keys are ignored.

        With *seat* given, *data* may leave out ``"seat"`` (a client names only what it
        does); if it has one, the two must agree.

        >>> Action.from_dict({"seat": 2, "do": "draw"})
        Action.draw(2)
        >>> Action.from_dict({"seat": 1, "do": "take"}, seat=0)
        Traceback (most recent call last):
        ...
        kowah.errors.ActionError: the action belongs to seat 1, not seat 0
        >>> Action.from_dict({"seat": 0, "do": "discard"})
        Traceback (most recent call last):
        ...
        kowah.errors.ActionError: missing key 'card'
        """
        if not isinstance(data, Mapping):
            raise ActionTypeError(N_("error", "an action must be a JSON object, not {value} of type {type}"),
                                  value=shorten(data), type=type(data).__name__)
        if "seat" in data:
            found = data["seat"]
            if type(found) is not int or not 0 <= found < SEATS:
                raise ActionError(N_("error", "'seat' must be 0, 1 or 2, not {found!r}"), found=found)
            if seat is not None and found != seat:
                raise ActionError(N_("error", "the action belongs to seat {found}, not seat {seat}"),
                                  found=found, seat=seat)
            seat = found
        elif seat is None:
            raise ActionError(_MISSING, key="seat")
        if "do" not in data:
            raise ActionError(_MISSING, key="do")
        do = data["do"]
        kind = _KINDS.get(do) if isinstance(do, str) else None  # a list or an object is no action name
        if kind is None:
            raise ActionError(
                N_("error", "unknown action {found!r} (expected draw, take, discard or declare)"),
                found=do,
            )
        if kind not in _WITH_CARD:
            return _shared(seat, kind, None)
        key = "card" if kind is ActionKind.DISCARD else "wait"
        if key not in data:
            if kind is ActionKind.DECLARE:
                return _shared(seat, kind, None)  # the hand's only wait (the record format allows it)
            raise ActionError(_MISSING, key=key)
        code = data[key]
        try:
            card = Card.parse(code) if isinstance(code, str) or type(code) is Card else None
        except CardParseError:
            card = None
        if card is None:
            raise ActionError(N_("error", "{key!r} must be a card code, not {found!r}"), key=key, found=code)
        return _shared(seat, kind, card)

    def __str__(self) -> str:
        return self.kind.value if self.card is None else f"{self.kind.value} {self.card}"

    def __reduce__(self) -> tuple[object, ...]:
        # Unpickled (e.g. from a worker process), an action is the shared value again.
        return _shared, (self.seat, self.kind, self.card)

    def __repr__(self) -> str:
        name = "pass_" if self.kind is ActionKind.PASS else self.kind.value
        if self.kind in _WITH_CARD:
            return f"Action.{name}({self.seat}, {self.card!r})"
        return f"Action.{name}({self.seat})"

    # A total order, so lists of actions sort (and menus list them alike everywhere): by
    # seat, then kind in ActionKind's order (draw, take, discard, declare, pass), then card,
    # a declaration of the only wait (card None) before those naming one.

    def _order(self) -> tuple[int, int, int]:
        return self.seat, _KIND_ORDER[self.kind], -1 if self.card is None else self.card.value

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._order() < other._order()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._order() <= other._order()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._order() > other._order()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._order() >= other._order()


_MISSING = N_("error", "missing key {key!r}")
_KINDS = {kind.value: kind for kind in ActionKind}
_KIND_ORDER = {kind: index for index, kind in enumerate(ActionKind)}

# Every action is built once and shared, so legal-action lists cost no allocation and
# membership tests compare by identity first. Fast players may index these tables directly.

#: The shared draw of each seat: ``DRAWS[seat] is Action.draw(seat)``.
DRAWS: Final = tuple(Action(seat, ActionKind.DRAW) for seat in range(SEATS))
#: The shared take of each seat.
TAKES: Final = tuple(Action(seat, ActionKind.TAKE) for seat in range(SEATS))
#: The shared pass of each seat.
PASSES: Final = tuple(Action(seat, ActionKind.PASS) for seat in range(SEATS))
#: The shared discards: ``DISCARDS[seat][card] is Action.discard(seat, card)``.
DISCARDS: Final = tuple(tuple(Action(seat, ActionKind.DISCARD, card) for card in Card)
                        for seat in range(SEATS))
#: The shared declarations: ``DECLARES[seat][wait] is Action.declare(seat, wait)``.
DECLARES: Final = tuple(tuple(Action(seat, ActionKind.DECLARE, card) for card in Card)
                        for seat in range(SEATS))
_ONLY_WAIT = tuple(Action(seat, ActionKind.DECLARE) for seat in range(SEATS))
_CARDLESS = {ActionKind.DRAW: DRAWS, ActionKind.TAKE: TAKES, ActionKind.PASS: PASSES,
             ActionKind.DECLARE: _ONLY_WAIT}
_CARDED = {ActionKind.DISCARD: DISCARDS, ActionKind.DECLARE: DECLARES}


def _shared(seat: int, kind: ActionKind, card: Card | None) -> Action:
    """``Action(seat, kind, card)``, as the shared value where there is one."""
    if type(seat) is int and 0 <= seat < SEATS:
        if card is None and kind in _CARDLESS:
            return _CARDLESS[kind][seat]
        if type(card) is Card and kind in _CARDED:
            return _CARDED[kind][seat][card]
    return Action(seat, kind, card)


class Reason(enum.StrEnum):
    """Why an action is illegal: a stable kebab-case code, with its English message template.

    The template's fields are in :attr:`Refusal.params`; :mod:`kowah.i18n` translates it.

    >>> Reason.NOT_YOUR_TURN, Reason.NOT_YOUR_TURN.template
    (<Reason.NOT_YOUR_TURN: 'not-your-turn'>, "it is seat {turn}'s turn")
    """

    template: str

    def __new__(cls, code: str, template: str) -> Reason:
        member = str.__new__(cls, code)
        member._value_ = code
        member.template = template
        return member

    #: The deal has ended: nobody acts any more.
    DEAL_OVER = "deal-over", N_("error", "the deal is over")
    #: A declaration or pass by a seat that has declared already (R11).
    ALREADY_DECLARED = "already-declared", N_("error", "the seat has already declared")
    #: A declaration or pass other than right after one's own discard with a ready hand (R11).
    NOT_DECLARING = "not-declaring", N_(
        "error", "a seat may declare only right after its own discard, with a ready hand")
    #: A declaration of a card that is not a wait of the hand (R8, R11); fields card, waits.
    NOT_A_WAIT = "not-a-wait", N_("error", "{card} is not a wait of this hand (waits: {waits})")
    #: A declaration without a wait, by a hand that offers several (R8); field waits.
    SEVERAL_WAITS = "several-waits", N_("error", "the hand offers several waits ({waits}); name one")
    #: A draw, take or discard by a seat whose turn it is not (R9); field turn.
    NOT_YOUR_TURN = "not-your-turn", N_("error", "it is seat {turn}'s turn")
    #: A second draw or take in one turn (R10).
    MUST_DISCARD = "must-discard", N_("error", "it has drawn or taken already and must discard")
    #: A take by a declared seat (R12).
    LOCKED_TAKE = "locked-take", N_(
        "error", "a declared seat draws from the stock; it may not take discards")
    #: A take on the opening turn (R10).
    OPENING_DRAW = "opening-draw", N_("error", "on the opening turn, a player must draw from the stock")
    #: A take with no discard that may be taken (R10).
    NO_DISCARD = "no-discard", N_("error", "there is no discard to take")
    #: A discard before drawing or taking (R10).
    DRAW_FIRST = "draw-first", N_("error", "draw from the stock or take the latest discard first")
    #: A locked hand's discard of another card than the one it drew (R12); field drawn.
    LOCKED_DISCARD = "locked-discard", N_(
        "error", "a locked hand must discard the card it drew, {drawn}")
    #: A discard of a card the hand does not hold; field card.
    NOT_IN_HAND = "not-in-hand", N_("error", "{card} is not in the hand")
    #: A discard of the card taken from the discards this turn (R10).
    TAKEN_CARD = "taken-card", N_(
        "error", "a card taken from the discards may not be discarded in the same turn")


def _params(value: Mapping[str, object] | None) -> FrozenMap[str, object]:
    if value is None:
        return _NO_PARAMS
    if isinstance(value, FrozenMap):
        return value
    if not isinstance(value, Mapping):
        raise ActionTypeError(N_("error", "a refusal's fields must be a mapping, not {value} of type {type}"),
                              value=shorten(value), type=type(value).__name__)
    return FrozenMap(value)


_NO_PARAMS: FrozenMap[str, object] = FrozenMap()
_NO_REASON = N_("error", "a refusal's reason must be a Reason, not {value} of type {type}")
_NO_ACTION = N_("error", "a refusal's action must be an Action, not {value} of type {type}")


def _check_reason(refusal: object, field: object, value: Reason) -> None:
    if not isinstance(value, Reason):
        raise ActionTypeError(_NO_REASON, value=shorten(value), type=type(value).__name__)


def _check_action(refusal: object, field: object, value: Action) -> None:
    if not isinstance(value, Action):
        raise ActionTypeError(_NO_ACTION, value=shorten(value), type=type(value).__name__)


@attrs.frozen
class Refusal(Value):
    """Why an action is illegal now, as a value: the :class:`Reason`, the action, the fields.

    ``str(refusal)`` is the English message; :meth:`kowah.i18n.Translator.refusal` says it in
    another language.

    >>> from kowah import Deal
    >>> deal = Deal.shuffled(seed=3)
    >>> refusal = deal.why_illegal(Action.draw(0))
    >>> refusal.reason, dict(refusal.params), str(refusal)
    (<Reason.NOT_YOUR_TURN: 'not-your-turn'>, {'turn': 1}, "it is seat 1's turn")
    """

    #: Why.
    reason: Reason = attrs.field(validator=_check_reason)
    #: The action refused.
    action: Action = attrs.field(validator=_check_action)
    #: The fields of the reason's template, read-only: cards as :class:`~kowah.cards.Card`,
    #: several cards (``"waits"``) as a tuple of them.
    params: Mapping[str, object] = attrs.field(default=None, converter=_params)

    def __str__(self) -> str:
        """The English message, cards written as codes."""
        return format_message(self.reason.template, shown(self.params))


def shown(params: Mapping[str, object]) -> dict[str, object]:
    """*params* with every tuple of cards written as codes (``"5c 5s"``), for an English message.

    >>> shown({"waits": (Card.C5, Card.S5), "turn": 2})
    {'waits': '5c 5s', 'turn': 2}
    """
    return {name: _codes(value) for name, value in params.items()}


def _codes(value: object) -> object:
    """*value*, or its codes if it is a tuple of cards."""
    if isinstance(value, tuple) and all(type(card) is Card for card in value):
        return format_cards(value)
    return value
