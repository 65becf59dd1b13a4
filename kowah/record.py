"""Game records in the ``kowah-record/1`` format: save, read and replay a deal.

A record fixes the deck order, the first seat and the actions taken; the engine applies
claims itself, so they are never listed. It is plain JSON, never a pickle.

>>> from kowah import Action, Deal
>>> deal = Deal.shuffled(seed=5)
>>> _ = deal.apply(Action.draw(deal.actor))
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

import itertools
import json
import sys
from collections.abc import Iterable, Mapping
from typing import Any, Final, NoReturn, NotRequired, TypedDict

import attrs

from kowah._record_rules import PackDict, RulesDict, plain, rules_from_dict, rules_to_dict
from kowah._value import FrozenMap, Value
from kowah.actions import Action, ActionDict, ActionKind, shown
from kowah.cards import Card
from kowah.deal import Deal
from kowah.engine import KOWAH_RULES, MONEY_RULES, SEATS, Rules, deck_error
from kowah.errors import (
    N_,
    ActionError,
    CardParseError,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    RecordError,
    shorten,
)
from kowah.events import Outcome, OutcomeDict
from kowah.hands import is_ready

__all__ = ["FORMAT", "MAX_ACTIONS", "MAX_SIZE", "MAX_TAGS", "Record", "RecordDict", "replay_outcome"]

#: The format name written in every record.
FORMAT = "kowah-record/1"

_MISSING = N_("error", "missing key {key!r}")
_MISSING_IN_ACTION = N_("error", "action {action}: missing key {key!r}")


def _cards(value: Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise RecordError(N_("error", "a record's deck must be a sequence of Cards, not {value}"),
                          value=shorten(value))
    cards = tuple(value)
    for position, card in enumerate(cards, start=1):
        if type(card) is not Card:
            raise RecordError(N_("error", "card {position} of the deck is {value} of type {type}, "
                                          "not a Card"),
                              position=position, value=shorten(card), type=type(card).__name__)
    return cards


def _actions(value: Iterable[Action], rules: Rules) -> tuple[Action, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise RecordError(N_("error", "a record's actions must be a sequence of Actions, not {value}"),
                          value=shorten(value))
    # Read one more than the limit, to see it passed; a limit past sys.maxsize (rules with a
    # huge R17 limit) bounds nothing that islice can count.
    actions = tuple(itertools.islice(value, min(rules.max_actions, sys.maxsize - 1) + 1))
    if len(actions) > rules.max_actions:  # R17 bounds every deal
        raise RecordError(N_("error", "a record lists at most {limit} actions, the most a deal can have"),
                          limit=rules.max_actions)
    for index, action in enumerate(actions):
        if not isinstance(action, Action):
            raise RecordError(N_("error", "action {action}: not an Action but {value} of type {type}"),
                              action=index, value=shorten(action), type=type(action).__name__)
        if action.kind is ActionKind.PASS:
            raise RecordError(N_("error", "action {action}: a record lists no passes (see 'passed')"),
                              action=index)
    return actions

#: The most tags a record keeps, the longest tag name and the longest tag value.
MAX_TAGS, TAG_NAME_LIMIT, TAG_VALUE_LIMIT = 32, 32, 200


def _tags(value: Mapping[str, str]) -> FrozenMap[str, str]:
    """*value* checked as a record's tags: at most MAX_TAGS short, printable strings."""
    if not isinstance(value, Mapping):
        raise RecordError(N_("error", "'tags' must be an object of strings, not {value}"),
                          value=shorten(value))
    if len(value) > MAX_TAGS:
        raise RecordError(N_("error", "'tags' holds {count} tags, more than the {limit} a record keeps"),
                          count=len(value), limit=MAX_TAGS)
    for name, text in value.items():
        if not isinstance(name, str) or not 0 < len(name) <= TAG_NAME_LIMIT or not plain(name):
            raise RecordError(N_("error", "a tag's name must be 1 to {limit} characters, with no control "
                                          "or bidirectional formatting character, not {value}"),
                              limit=TAG_NAME_LIMIT, value=shorten(name))
        if not isinstance(text, str) or len(text) > TAG_VALUE_LIMIT or not plain(text):
            raise RecordError(N_("error", "tag {name}: a tag's value must be a string of at most {limit} "
                                          "characters, with no control or bidirectional formatting "
                                          "character, not {value}"),
                              name=shorten(name), limit=TAG_VALUE_LIMIT, value=shorten(text))
    return FrozenMap(value)


class RecordDict(TypedDict):
    """A ``kowah-record/1`` object, as :meth:`Record.to_dict` writes it."""

    format: str
    pack: NotRequired[str | PackDict]  #: "money", or another pack's name and counts; no key: Kowah deck
    rules: NotRequired[RulesDict]  #: the settings that differ from their defaults, if any
    tags: NotRequired[dict[str, str]]  #: written only when there are some
    deck: list[str]
    first: int
    actions: list[ActionDict]
    passed: NotRequired[bool]  #: written only when true


@attrs.frozen(init=False)
class Record(Value):
    """A deal's deck order, first seat and actions (without passes or claims), with its tags.

    It cannot be built invalid: the deck is an order of the rules' pack, the first seat 0–2,
    the actions :class:`~kowah.actions.Action` values (no passes) and no more than the longest
    deal has (:attr:`Rules.max_actions <kowah.engine.Rules.max_actions>`); whether they are
    legal is what :meth:`replay` finds out. *passed* says that the seat which discarded last
    declined to declare (R11): a pass is written only there, because any later action would
    close the declaring window anyway. *tags* are a record's headers, like a PGN file's: who
    sat where, the date, the event (at most 32; names of 1–32 characters, values of at most
    200, no control characters).

    >>> Record([], 0)
    Traceback (most recent call last):
    ...
    kowah.errors.RecordError: the deck has 0 cards, but the Kowah deck has 120: a copy of 1c is missing
    """

    #: The deck order (R9), as in :attr:`Deal.deck <kowah.deal.Deal.deck>`.
    deck: tuple[Card, ...]
    #: The seat that opened the deal.
    first: int
    #: The actions taken, passes and claims left out; a declaration may leave out its wait.
    actions: tuple[Action, ...]
    #: The rules, any valid :class:`~kowah.engine.Rules` (written as ``"pack"`` and ``"rules"``
    #: when they are not the default, :data:`~kowah.engine.KOWAH_RULES`).
    rules: Rules
    #: Whether the seat that discarded last declined to declare (R11).
    passed: bool
    #: The record's tags (read-only): ``{"seat0": "Ana", "date": "2026-12-01", ...}``.
    tags: Mapping[str, str]

    def __init__(self, deck: Iterable[Card], first: int, actions: Iterable[Action] = (), *,
                 rules: Rules = KOWAH_RULES, passed: bool = False, tags: Mapping[str, str] | None = None,
                 ) -> None:
        if not isinstance(rules, Rules):
            raise RecordError(N_("error", "a record's rules must be a Rules value, not {value}"),
                              value=shorten(rules))
        rules_to_dict(rules)  # a pack whose name a record cannot hold is refused here
        cards = _cards(deck)
        problem = deck_error(cards, rules.pack)
        if problem is not None:
            raise RecordError.saying(problem)
        if type(first) is not int or not 0 <= first < SEATS:
            raise RecordError(N_("error", "'first' must be 0, 1 or 2, not {found!r}"), found=first)
        if not isinstance(passed, bool):
            raise RecordError(N_("error", "'passed' must be true or false, not {found!r}"), found=passed)
        self.__attrs_init__(deck=cards, first=first, actions=_actions(actions, rules), rules=rules,
                            passed=passed, tags=_tags({} if tags is None else tags))

    @classmethod
    def from_deal(cls, deal: Deal, *, tags: Mapping[str, str] | None = None) -> Record:
        """The record of *deal* as it stands, with *tags*: it replays to the same state.

        >>> from kowah.cards import KOWAH_DECK, parse_cards
        >>> hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")  # ready from the start
        >>> rest = list(KOWAH_DECK.cards)
        >>> for card in hand:
        ...     rest.remove(card)
        >>> deal = Deal([*hand, *rest], 0)
        >>> _ = deal.apply(Action.draw(0))
        >>> _ = deal.apply(Action.discard(0, deal.deck[24]))  # the drawn card: still ready
        >>> deal.to_move()  # seat 0 may declare before seat 1 acts (R11)
        (0, 1)
        >>> deal.apply(Action.pass_(0))
        ()
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
            passed = (last.kind is ActionKind.DISCARD and deal.declared_wait(last.seat) is None
                      and is_ready(hand, deal.rules.pack))
        return cls(deal.deck, deal.first, history, rules=deal.rules, passed=passed, tags=tags)

    def to_dict(self) -> RecordDict:
        """The record as a JSON-ready ``dict``.

        >>> deal = Deal.shuffled(seed=1, first=0)
        >>> _ = deal.apply(Action.draw(0)), deal.apply(Action.discard(0, deal.hand(0)[0]))
        >>> written = Record.from_deal(deal, tags={"seat0": "Ana"}).to_dict()
        >>> written["actions"], written["tags"]
        ([{'seat': 0, 'do': 'draw'}, {'seat': 0, 'do': 'discard', 'card': '1s'}], {'seat0': 'Ana'})
        """
        deck = [str(card) for card in self.deck]
        actions = [action.to_dict() for action in self.actions]  # a wait left out stays out
        # A record without "pack" or "rules" is the Kowah deck (R2) and the default rules.
        record: RecordDict = {"format": FORMAT, **rules_to_dict(self.rules), "deck": deck,  # type: ignore[typeddict-item]
                              "first": self.first, "actions": actions}
        if self.passed:
            record["passed"] = True
        if self.tags:
            record["tags"] = dict(self.tags)
        return record

    def dumps(self, indent: int | None = None) -> str:
        """The record as JSON text; characters outside ASCII are written as they are (UTF-8).

        >>> text = Record.from_deal(Deal.shuffled(seed=1), tags={"seat0": "Jiří"}).dumps()
        >>> '"seat0": "Jiří"' in text
        True
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Read a record from JSON text.

        Raises :class:`~kowah.errors.RecordError`: with ``action=None`` when the record cannot be
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
        if isinstance(text, (str, bytes, bytearray)) and len(text) > MAX_SIZE:
            raise RecordError(N_("error", "the record is {size} characters long, more than the {limit} a "
                                          "record may be"), size=len(text), limit=MAX_SIZE)
        try:
            data = json.loads(text, object_pairs_hook=_object, parse_constant=_constant,
                              parse_int=_integer, parse_float=_number)
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
        _check_codes(data)
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
        rules = rules_from_dict(data)
        deck = _read_deck(data["deck"], rules)
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
        return cls(deck, first, actions, rules=rules, passed=passed, tags=data.get("tags", {}))

    def replay(self, upto: int | None = None) -> Deal:
        """Apply the actions (the first *upto* of them) to a new deal and return it.

        A ``declare`` without a wait takes the hand's only wait, and :attr:`passed` closes
        the last declaring window when every action is replayed. Raises
        :class:`~kowah.errors.RecordError` naming the 0-based index of the first illegal action.
        """
        if upto is not None and (type(upto) is not int or upto < 0):
            error = KowahTypeError if type(upto) is not int else KowahError
            raise error(N_("error", "'upto' must be None or an int >= 0, not {value}"), value=shorten(upto))
        if upto is not None and upto > len(self.actions):
            raise KowahError(N_("error", "'upto' must be at most {count} (the record's number of actions), "
                                         "not {value}"), value=upto, count=len(self.actions))
        deal = Deal(self.deck, self.first, self.rules)  # the record's deck fits its rules
        for index, action in enumerate(self.actions[:upto]):
            try:
                deal.apply(action)  # a declaration without a wait takes the only one (R8)
            except IllegalActionError as error:
                raise _wrapped(index, error) from None
        if self.passed and (upto is None or upto >= len(self.actions)):
            seat = deal.declaring_seat
            if seat is None:
                raise RecordError(N_("error", "'passed' is true, but no seat may declare after the "
                                              "last action"))
            deal.apply(Action.pass_(seat))
        return deal


def replay_outcome(text: str | bytes) -> OutcomeDict:
    """Replay a JSON record: the outcome object of ``kowah-record/1``, ``{"result":
    "in-progress"}`` when its actions stop before the end, or ``{"result": "invalid"}`` with the
    error it raises.

    An invalid result has the English message (``"error"``), the message's template and
    fields (``"template"``, ``"params"``, JSON values: the text layer translates them as it
    translates the error), the 0-based index of the first bad action (``"action"``) when
    there is one, and for an illegal action, the :class:`~kowah.actions.Reason` code and its
    fields (``"reason"``, ``"reason_params"``).

    >>> replay_outcome('{"format": "kowah-record/1", "deck": [], "first": 0}')["template"]
    'the deck has {count} cards, but the {pack} has {expected}: a copy of {card} is missing'
    """
    try:
        outcome: Outcome | None = Record.loads(text).replay().outcome
    except RecordError as error:
        result: OutcomeDict = {"result": "invalid"}
        if error.action is not None:
            result["action"] = error.action
        result["error"] = str(error)
        result["template"] = error.template
        result["params"] = _json_params(error.params)
        if isinstance(error.cause, IllegalActionError):
            refusal = error.cause.refusal
            result["reason"] = refusal.reason.value
            result["reason_params"] = _json_params(refusal.params)
        return result
    return outcome.as_dict() if outcome else {"result": "in-progress"}


def _json_params(params: Mapping[str, object]) -> dict[str, str | int | None]:
    """An error's fields as JSON values: ints and None as they are, cards as codes, anything
    else as text."""
    return {name: value if value is None or type(value) is int else str(value)
            for name, value in shown(params).items()}


# -- reading JSON: what the schema (record.schema.json) says, before actions are interpreted ----

#: The most actions a record may list: those of the longest legal deal of any pack a record
#: may name (:attr:`Rules.max_actions <kowah.engine.Rules.max_actions>`, bounded by R16 and R17),
#: so that every legal deal's record is read; record.schema.json says it too (maxItems).
MAX_ACTIONS: Final = max(KOWAH_RULES.max_actions, MONEY_RULES.max_actions)
#: The longest record text read, in characters (or bytes): a deck and MAX_ACTIONS actions
#: written with ``indent=2`` fit in less than half of it.
MAX_SIZE = 2_000_000


class _LongInteger:
    """A JSON integer with more digits than Python reads into an int (4,300): no valid value."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<an integer of {self.digits} digits>"


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when a key comes twice (which one would count is unclear)."""
    found = dict(pairs)
    if len(found) < len(pairs):
        seen: set[str] = set()
        key = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise RecordError(N_("error", "the key {key!r} appears twice in one JSON object"), key=key)
    return found


def _constant(name: str) -> NoReturn:
    raise RecordError(N_("error", "{name} is not a JSON number"), name=name)


def _integer(text: str) -> int | _LongInteger:
    try:
        return int(text)
    except ValueError:  # more digits than int() reads (sys.get_int_max_str_digits)
        return _LongInteger(len(text.lstrip("-")))


def _number(text: str) -> int | float:
    """A JSON number with a fraction or an exponent: ``1.0`` is the integer 1, as JSON (and the
    schema's "integer") see it; others stay floats."""
    value = float(text)
    return int(value) if value.is_integer() else value


def _check_codes(data: Mapping[str, Any]) -> None:
    """Card codes are written exactly (no spaces around them, R3), actions' cards are in the
    record's pack, and there are at most MAX_ACTIONS actions: as the schema says."""
    deck = data.get("deck")
    if isinstance(deck, list):
        for position, code in enumerate(deck, start=1):
            if isinstance(code, str) and code != code.strip():
                raise RecordError(N_("error", "'deck': unknown card code {code!r} (card {position})"),
                                  code=code, position=position)
    entries = data.get("actions")
    if not isinstance(entries, list):
        return
    if len(entries) > MAX_ACTIONS and "rules" not in data:  # other rules: Record checks their bound
        raise RecordError(N_("error", "the record lists {count} actions, more than the {limit} a record "
                                      "may list"), count=len(entries), limit=MAX_ACTIONS)
    if isinstance(data.get("pack"), Mapping):  # another pack: its cards are checked by the replay
        return
    pack = Rules.from_pack_name(data["pack"]).pack if data.get("pack") in ("kowah", "money") else None
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            continue
        do = entry.get("do")
        key = {"discard": "card", "declare": "wait"}.get(do) if isinstance(do, str) else None
        code = entry.get(key) if key else None
        if not isinstance(code, str):
            continue
        try:
            card = Card.parse(code) if code == code.strip() else None
        except CardParseError:
            card = None
        if card is None or card not in (pack or KOWAH_RULES.pack):
            raise RecordError(N_("error", "action {action}: {key!r} must be a card code of the {pack}, not "
                                          "{found!r}"), action=index, key=key, found=code,
                              pack=(pack or KOWAH_RULES.pack).name)


def _wrapped(index: int, error: KowahError) -> RecordError:
    """The RecordError for action *index*, whose reason is *error* (kept as its cause)."""
    failure = RecordError(N_("error", "action {action}: {reason}"), action=index, reason=str(error))
    failure.cause = error
    return failure


def _read_deck(value: object, rules: Rules) -> tuple[Card, ...]:
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
    return tuple(cards)  # Record checks that it is an order of the rules' pack


def _read_action(index: int, entry: object) -> Action:
    if not isinstance(entry, Mapping):
        raise RecordError(N_("error", "action {action}: an action must be a JSON object"), action=index)
    if "seat" not in entry:  # a record names every action's seat
        raise RecordError(_MISSING_IN_ACTION, action=index, key="seat")
    if entry.get("do") == "pass":  # passes are never listed ('passed' says the last one)
        raise RecordError(
            N_("error", "action {action}: unknown action {found!r} (expected draw, take, discard "
                        "or declare)"), action=index, found="pass")
    try:
        return Action.from_dict(entry)
    except ActionError as error:
        raise _wrapped(index, error) from None
