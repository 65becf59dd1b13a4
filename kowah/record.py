"""Game records in the ``kowah-record/1`` format: save, read and replay a deal.

A record fixes the deck order, the first seat and the actions taken; the engine applies
claims itself, so they are never listed. It is plain JSON, never a pickle.

>>> from kowah.deal import Deal, Action
>>> deal = Deal.shuffled(seed=5)
>>> deal.apply(Action.draw(deal.turn))
>>> record = Record.from_deal(deal)
>>> text = record.dumps()
>>> Record.loads(text) == record
True
>>> Record.loads(text).replay().history == deal.history
True
>>> Record.loads('{"format": "kowah-record/2"}')
Traceback (most recent call last):
...
kowah.errors.RecordError: unknown format 'kowah-record/2' (expected 'kowah-record/1')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from kowah._tables import ready_table as _table
from kowah.cards import KOWAH_DECK, Card
from kowah.deal import SEATS, Action, ActionKind, Deal, DeckError, Outcome, _deck_problem
from kowah.errors import N_, CardParseError, IllegalActionError, RecordError

__all__ = ["FORMAT", "Record", "replay_outcome"]

#: The format name written in every record.
FORMAT = "kowah-record/1"

_KINDS = {kind.value: kind for kind in ActionKind if kind is not ActionKind.PASS}

_MISSING = N_("error", "missing key {key!r}")
_MISSING_IN_ACTION = N_("error", "action {action}: missing key {key!r}")


def _cards(value: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(value)


def _actions(value: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(value)


@attrs.frozen
class Record:
    """A deal's deck order, first seat and actions (without passes or claims).

    *passed* says that the seat which discarded last declined to declare (R11): a pass is
    written only there, because any later action would close the declaring window anyway.
    """

    deck: tuple[Card, ...] = attrs.field(converter=_cards)
    first: int
    actions: tuple[Action, ...] = attrs.field(converter=_actions, default=())
    passed: bool = False

    @classmethod
    def from_deal(cls, deal: Deal) -> Record:
        """The record of *deal* as it stands: it replays to the same state.

        >>> from kowah.cards import KOWAH_DECK, parse_cards
        >>> hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")  # ready from the start
        >>> rest = list(KOWAH_DECK.cards)
        >>> for card in hand:
        ...     rest.remove(card)
        >>> deal = Deal([*hand, *rest], 0)
        >>> deal.apply(Action.draw(0))
        >>> deal.apply(Action.discard(0, deal.deck[24]))  # the drawn card: still ready
        >>> deal.to_move()  # seat 0 may declare before seat 1 acts (R11)
        (0, 1)
        >>> deal.apply(Action.pass_(0))
        >>> saved = Record.from_deal(deal)
        >>> saved.passed, saved.replay().to_move()
        (True, (1,))
        """
        history = deal.history
        passed = False
        if deal.outcome is None and deal.declaring_seat is None and history:
            last = history[-1]
            hand = tuple(deal.hand(last.seat))
            # A ready, undeclared seat that has just discarded could declare: it passed.
            passed = (last.kind is ActionKind.DISCARD and deal.wait(last.seat) is None
                      and hand in _table(deal.pack))
        return cls(deal.deck, deal.first, history, passed)

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready ``dict``.

        >>> Record([], 0, [Action.draw(0), Action.discard(0, Card.M9)]).to_dict()["actions"]
        [{'seat': 0, 'do': 'draw'}, {'seat': 0, 'do': 'discard', 'card': '9m'}]
        """
        actions: list[dict[str, Any]] = []
        for action in self.actions:
            entry: dict[str, Any] = {"seat": action.seat, "do": action.kind.value}
            if action.kind is ActionKind.DISCARD:
                entry["card"] = str(action.card)
            elif action.kind is ActionKind.DECLARE and action.card is not None:
                entry["wait"] = str(action.card)  # a wait left out stays out
            actions.append(entry)
        record: dict[str, Any] = {"format": FORMAT, "deck": [str(card) for card in self.deck],
                                  "first": self.first, "actions": actions}
        if self.passed:
            record["passed"] = True
        return record

    def dumps(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Read a record from JSON text.

        Raises :class:`~kowah.RecordError`: with ``action=None`` when the record cannot be
        read at all, with the 0-based index of a malformed action otherwise. Legality of the
        actions is checked by :meth:`replay`.

        >>> Record.loads('{"format": "kowah-record/1", "deck": [], "first": }')
        Traceback (most recent call last):
        ...
        kowah.errors.RecordError: not a JSON document (line 1, column 51)
        >>> Record.loads('{"format": "kowah-record/1", "deck": []}')
        Traceback (most recent call last):
        ...
        kowah.errors.RecordError: missing key 'first'
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(N_("error", "not a JSON document (line {line}, column {column})"),
                              line=error.lineno, column=error.colno) from None
        except UnicodeDecodeError as error:  # bytes that are not UTF-8, -16 or -32 text
            raise RecordError(
                N_("error", "not a JSON document (invalid {encoding} text at byte {offset})"),
                encoding=error.encoding.upper(), offset=error.start,
            ) from None
        except RecursionError:
            raise RecordError(N_("error", "the JSON document is nested too deeply to read")) from None
        except TypeError:
            raise RecordError(N_("error", "a record must be JSON text, not {type}"),
                              type=type(text).__name__) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """Read a record from a decoded JSON value (see :meth:`loads`). Unknown keys are ignored."""
        if not isinstance(data, Mapping):
            raise RecordError(N_("error", "a record must be a JSON object"))
        if "format" not in data:
            raise RecordError(_MISSING, key="format")
        if data["format"] != FORMAT:
            raise RecordError(
                N_("error", "unknown format {found!r} (expected {expected!r})"),
                found=data["format"], expected=FORMAT,
            )
        for key in ("deck", "first"):
            if key not in data:
                raise RecordError(_MISSING, key=key)
        deck = _read_deck(data["deck"])
        first = data["first"]
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < SEATS:
            raise RecordError(N_("error", "'first' must be 0, 1 or 2, not {found!r}"), found=first)
        entries = data.get("actions", [])
        if not isinstance(entries, list):
            raise RecordError(N_("error", "'actions' must be a list"))
        actions = [_read_action(index, entry) for index, entry in enumerate(entries)]
        passed = data.get("passed", False)
        if not isinstance(passed, bool):
            raise RecordError(N_("error", "'passed' must be true or false, not {found!r}"), found=passed)
        return cls(deck, first, actions, passed)

    def replay(self, upto: int | None = None) -> Deal:
        """Apply the actions (the first *upto* of them) to a new deal and return it.

        A ``declare`` without a wait takes the hand's only wait, and :attr:`passed` closes
        the last declaring window when every action is replayed. Raises
        :class:`~kowah.RecordError` naming the 0-based index of the first illegal action.
        """
        try:
            deal = Deal(self.deck, self.first)
        except DeckError as error:
            raise RecordError(error.template, **error.params) from None
        for index, action in enumerate(self.actions[:upto]):
            if action.kind is ActionKind.DECLARE and action.card is None:
                action = _only_wait(deal, index, action)
            try:
                deal.apply(action)
            except IllegalActionError as error:
                failure = RecordError(
                    N_("error", "action {action}: {reason}"), action=index, reason=str(error)
                )
                failure.cause = error
                raise failure from None
        if self.passed and (upto is None or upto >= len(self.actions)):
            seat = deal.declaring_seat
            if seat is None:
                raise RecordError(N_("error", "'passed' is true, but no seat may declare after the "
                                              "last action"))
            deal.apply(Action.pass_(seat))
        return deal


def replay_outcome(text: str | bytes) -> dict[str, object]:
    """Replay a JSON record: the outcome object of ``kowah-record/1``, or the error it raises.

    >>> replay_outcome('{"format": "kowah-record/1", "deck": [], "first": 0}')["result"]
    'invalid'
    """
    try:
        outcome: Outcome | None = Record.loads(text).replay().outcome
    except RecordError as error:
        result: dict[str, object] = {"result": "invalid"}
        if error.action is not None:
            result["action"] = error.action
        result["error"] = str(error)
        return result
    return outcome.as_dict() if outcome else {"result": "in-progress"}


def _read_deck(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise RecordError(N_("error", "'deck' must be a list of card codes"))
    cards = []
    for position, code in enumerate(value, start=1):
        try:
            cards.append(Card.parse(code))
        except CardParseError:
            raise RecordError(
                N_("error", "'deck': unknown card code {code!r} (card {position})"),
                code=code, position=position,
            ) from None
    problem = _deck_problem(cards, KOWAH_DECK)
    if problem is None:
        return tuple(cards)
    kind, position, card, count = problem
    if kind == "absent":
        raise RecordError(N_("error", "'deck': {card} is not in the Kowah deck (card {position})"),
                          card=card, position=position)
    if kind == "extra":
        raise RecordError(
            N_("error", "'deck': {count} copies of {card}, but the Kowah deck has {copies} "
                        "(first extra copy: card {position})"),
            count=count, card=card, copies=KOWAH_DECK.copies(card), position=position,
        )
    raise RecordError(
        N_("error", "'deck' has {count} cards, but the Kowah deck has {expected}: a copy of {card} "
                    "is missing"),
        count=len(cards), expected=len(KOWAH_DECK), card=card,
    )


def _read_action(index: int, entry: object) -> Action:
    def bad(template: str, **params: object) -> RecordError:
        return RecordError(template, action=index, **params)

    if not isinstance(entry, Mapping):
        raise bad(N_("error", "action {action}: an action must be a JSON object"))
    for required in ("seat", "do"):
        if required not in entry:
            raise bad(_MISSING_IN_ACTION, key=required)
    seat = entry["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
        raise bad(N_("error", "action {action}: 'seat' must be 0, 1 or 2, not {found!r}"), found=seat)
    do = entry["do"]
    kind = _KINDS.get(do) if isinstance(do, str) else None  # a list or an object is no action name
    if kind is None:
        raise bad(
            N_("error", "action {action}: unknown action {found!r} (expected draw, take, discard "
                        "or declare)"),
            found=do,
        )
    if kind is ActionKind.DRAW:
        return Action.draw(seat)
    if kind is ActionKind.TAKE:
        return Action.take(seat)
    key = "card" if kind is ActionKind.DISCARD else "wait"
    code = entry.get(key)
    if code is None and kind is ActionKind.DECLARE:
        return Action(seat, kind)  # the wait is found at replay
    if key not in entry:
        raise bad(_MISSING_IN_ACTION, key=key)
    try:
        card = Card.parse(code)  # type: ignore[arg-type]
    except CardParseError:
        raise bad(N_("error", "action {action}: {key!r} must be a card code, not {found!r}"),
                  key=key, found=code) from None
    return Action.discard(seat, card) if kind is ActionKind.DISCARD else Action.declare(seat, card)


def _only_wait(deal: Deal, index: int, action: Action) -> Action:
    seat = action.seat  # a Record built in Python may hold any seat: apply() rejects the others
    options = (
        deal.legal_actions(seat) if type(seat) is int and deal.declaring_seat == seat else ()
    )
    declares = [option for option in options if option.kind is ActionKind.DECLARE]
    if len(declares) == 1:
        return declares[0]
    if not declares:
        return action  # apply() explains why declaring is illegal here
    raise RecordError(
        N_("error", "action {action}: the hand offers several waits ({waits}); name one"),
        action=index, waits=" ".join(str(option.card) for option in declares),
    )



