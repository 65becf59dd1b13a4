"""A complete three-seat deal: the one state object, checked, with events and observations (R9–R17).

>>> from kowah import Action, Deal
>>> deal = Deal.shuffled(seed=7)
>>> deal.actor == deal.first, deal.stock_count
(True, 96)
>>> seat = deal.actor
>>> [str(action) for action in deal.legal_actions()]
['draw']
>>> [event.kind for event in deal.apply(Action.draw(seat))]
[<EventKind.DRAW: 'draw'>]
>>> len(deal.hand(seat))
9
>>> deal.why_illegal(Action.draw(seat)).reason
<Reason.MUST_DISCARD: 'must-discard'>
>>> deal.apply(Action.draw(seat))
Traceback (most recent call last):
...
kowah.errors.IllegalActionError: seat ... cannot draw: it has drawn or taken already and must discard

Naming: a method of :class:`Deal` that is about one seat takes the seat
(``deal.hand(seat)``, ``deal.discards(seat)``, ``deal.declared_wait(seat)``); an
:class:`Observation` is one seat's snapshot, whose per-seat fields are tuples indexed by seat
(``observation.discards[seat]``, ``observation.declared_waits[seat]``). The waits a *hand*
offers (R8) are :func:`kowah.hands.waits`; a seat's *declared* wait is its public one (R11).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypedDict

import attrs

from kowah._value import Value
from kowah.actions import SEATS, Action, ActionDict, ActionKind, Refusal
from kowah.cards import Card, Pack, format_cards
from kowah.engine import KOWAH_RULES, PACK_NAMES, Rules, Scalars, State, deck_error
from kowah.errors import (
    N_,
    ActionTypeError,
    DeckError,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    shorten,
)
from kowah.events import Event, EventDict, EventKind, Outcome, OutcomeDict, Phase, Result
from kowah.hands import HAND_SIZE, Split, splits

__all__ = ["SEATS", "Deal", "Observation", "ObservationDict"]

_NO_OBSERVATIONS = (None,) * SEATS
_HIDDEN_DRAW = tuple(Event(EventKind.DRAW, seat, None, public=False) for seat in range(SEATS))


def _seat(seat: object) -> int:
    """*seat* as a seat number; anything but an int 0–2 (a bool is no seat) raises KowahError."""
    if type(seat) is int and 0 <= seat < SEATS:
        return seat
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < SEATS:
        return int(seat)  # an int subclass (an IntEnum of seats, say)
    # A bool, a float or a str is a value of the wrong type: a TypeError too.
    error = KowahError if isinstance(seat, int) and not isinstance(seat, bool) else KowahTypeError
    raise error(N_("error", "there is no seat {seat}"), seat=shorten(seat))


def _check_action(action: object) -> None:
    if not isinstance(action, Action):
        raise ActionTypeError(N_("error", "expected an Action, not {value} of type {type}"),
                              value=shorten(action), type=type(action).__name__)


def _check_first(first: object) -> None:
    """A first seat: an int 0–2 (DeckError for another int; KowahTypeError for another type, a
    bool included, as every seat is checked)."""
    if type(first) is not int:
        raise KowahTypeError(N_("error", "the first seat must be 0, 1 or 2, not {first!r}"), first=first)
    if not 0 <= first < SEATS:
        raise DeckError(N_("error", "the first seat must be 0, 1 or 2, not {first!r}"), first=first)


def _check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise KowahTypeError(N_("error", "rules must be a Rules value, such as Rules(pack=MONEY_PACK), "
                                            "not {value} of type {type}"),
                             value=shorten(rules), type=type(rules).__name__)
    return rules


def _typed(name: str, value: object, expected: str) -> KowahTypeError:
    return KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                          name=name, expected=expected, value=shorten(value), type=type(value).__name__)


def _observed_seat(observation: object, field: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int:
        raise _typed(f"Observation.{field.name}", value, "int")
    if not 0 <= value < SEATS:
        raise KowahError(N_("error", "{name} must be a seat, 0, 1 or 2, not {value}"),
                         name=f"Observation.{field.name}", value=value)


_Validator = Callable[[object, "attrs.Attribute[Any]", object], None]


def _observed(kind: type, label: str, optional: bool = False) -> _Validator:
    """A validator: the field holds a *kind* (or ``None``)."""
    def check(observation: object, field: attrs.Attribute[Any], value: object) -> None:
        if not (isinstance(value, kind) or (optional and value is None)) or type(value) is bool:
            raise _typed(f"Observation.{field.name}", value, label)
    return check


def _observed_items(kind: type, label: str, length: int | None = None,
                    optional: bool = False) -> _Validator:
    """A validator: the field is a tuple of *kind* (items may be ``None`` if *optional*), of
    *length* items if given."""
    def check(observation: object, field: attrs.Attribute[Any], value: object) -> None:
        if (type(value) is not tuple or (length is not None and len(value) != length)
                or not all(type(item) is kind or (optional and item is None) for item in value)):
            raise _typed(f"Observation.{field.name}", value, label)
    return check


def _observed_piles(observation: object, field: attrs.Attribute[Any], value: object) -> None:
    if (type(value) is not tuple or len(value) != SEATS
            or not all(type(pile) is tuple and all(type(card) is Card for card in pile) for pile in value)):
        raise _typed(f"Observation.{field.name}", value, "tuple of 3 tuples of Card")


def _observed_draws(observation: object, field: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not tuple or not all(
            type(draw) is tuple and len(draw) == 2 and type(draw[0]) is int and 0 <= draw[0] < SEATS
            and type(draw[1]) is Card for draw in value):
        raise _typed(f"Observation.{field.name}", value, "tuple of (seat, Card) pairs")


def _in_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise KowahError(N_("error", "{name} must be from {low} to {high}, not {value}"),
                         name=f"Observation.{name}", low=low, high=high, value=value)


@attrs.frozen
class Observation(Value):
    """Everything one seat may know at a moment of the deal, and nothing it may not.

    The other seats' concealed cards and the order of the stock are never in it; another
    seat's stock draw shows its card only once a seat has declared (R13). Per-seat fields are
    tuples indexed by seat.

    Like every value it checks itself: a field of the wrong type raises
    :class:`~kowah.errors.KowahTypeError`; a seat that is not 0, 1 or 2, a count out of range,
    a card outside the rules' pack, more copies of a card in sight than the pack holds, a
    legal action of another seat, or hand sizes, discards and stock that do not add up to the
    pack raise :class:`~kowah.errors.KowahError`. :meth:`to_dict` gives its JSON form.

    >>> view = Deal.shuffled(seed=3).observation(1)
    >>> view.replace(hand_sizes=(8, 9))
    Traceback (most recent call last):
    ...
    kowah.errors.KowahTypeError: Observation.hand_sizes must be of type tuple of 3 ints, not (8, 9) ...
    >>> view.replace(seat=7)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: Observation.seat must be a seat, 0, 1 or 2, not 7
    """

    #: The seat observing.
    seat: int = attrs.field(validator=_observed_seat)
    #: Its cards, sorted.
    hand: tuple[Card, ...] = attrs.field(validator=_observed_items(Card, "tuple of Card"))
    #: The seat to draw or take, or to discard (see :attr:`Deal.turn`).
    turn: int = attrs.field(validator=_observed_seat)
    #: Where that seat stands.
    phase: Phase = attrs.field(validator=_observed(Phase, "Phase"))
    #: The seat that opened the deal.
    first: int = attrs.field(validator=_observed_seat)
    #: This seat's legal actions now (:meth:`Deal.legal_actions`).
    legal_actions: tuple[Action, ...] = attrs.field(validator=_observed_items(Action, "tuple of Action"))
    #: Cards left in the stock.
    stock_count: int = attrs.field(validator=_observed(int, "int"))
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...] = attrs.field(validator=_observed_items(int, "tuple of 3 ints", SEATS))
    #: The latest discard while it may be taken, else ``None`` (:attr:`Deal.latest_discard`).
    latest_discard: Card | None = attrs.field(validator=_observed(Card, "Card or None", optional=True))
    #: The cards lying in each seat's discards, oldest first.
    discards: tuple[tuple[Card, ...], ...] = attrs.field(validator=_observed_piles)
    #: Each seat's public wait once it has declared (its exposed pair is two of this card).
    declared_waits: tuple[Card | None, ...] = attrs.field(
        validator=_observed_items(Card, "tuple of 3 Cards or None", SEATS, optional=True))
    #: Cards known to be in each seat's hand: exposed pairs, cards taken from the discards and
    #: public stock draws (R13) not discarded since.
    known: tuple[tuple[Card, ...], ...] = attrs.field(validator=_observed_piles)
    #: Stock draws shown to all seats after a declaration (R13), as (seat, card).
    public_draws: tuple[tuple[int, Card], ...] = attrs.field(validator=_observed_draws)
    #: The deal's events as this seat saw them (others' hidden draws without their card).
    events: tuple[Event, ...] = attrs.field(validator=_observed_items(Event, "tuple of Event"))
    #: How the deal ended, or ``None``.
    outcome: Outcome | None = attrs.field(validator=_observed(Outcome, "Outcome or None", optional=True))
    #: The rules played by.
    rules: Rules = attrs.field(default=KOWAH_RULES, validator=_observed(Rules, "Rules"))

    def __attrs_post_init__(self) -> None:
        """The checks across fields: counts in range, cards of the pack, actions of this seat."""
        pack = self.rules.pack
        seat, hand, sizes = self.seat, self.hand, self.hand_sizes
        for index, size in enumerate(sizes):
            _in_range(f"hand_sizes[{index}]", size, 0, HAND_SIZE + 1)
        if len(hand) != sizes[seat]:
            raise KowahError(N_("error", "the length of Observation.hand is {count}, but "
                                         "hand_sizes[{seat}] is {size}"),
                             count=len(hand), seat=seat, size=sizes[seat])
        _in_range("stock_count", self.stock_count, 0, self.rules.stock_size)
        placed = sum(sizes) + sum(map(len, self.discards)) + self.stock_count
        if placed != len(pack):
            raise KowahError(N_("error", "the observation's hands, discards and stock hold {count} cards, "
                                         "but the {pack} has {size}"),
                             count=placed, pack=pack.name, size=len(pack))
        # Every card in sight is of the pack, and no more copies of it than the pack holds.
        seen = list(hand)
        for pile in self.discards:
            seen += pile
        for other, cards in enumerate(self.known):
            if other != seat:
                seen += cards
        counts = [0] * len(pack.counts)
        for card in seen:
            counts[card] += 1
        for named in (self.latest_discard, *self.declared_waits, *(draw[1] for draw in self.public_draws)):
            if named is not None and not counts[named]:
                counts[named] = 1  # a card named, though not in sight now: of the pack too
        for kind, count in enumerate(counts):
            if count and not pack.counts[kind]:
                raise KowahError(N_("error", "'{card}' is not in the {pack}"), card=Card(kind).code,
                                 pack=pack.name)
            if count > pack.counts[kind]:  # then two copies or more
                raise KowahError(N_("error", "the observation shows {count} copies of {card}, but the "
                                             "{pack} has {copies}"),
                                 count=count, card=Card(kind).code, pack=pack.name, copies=pack.counts[kind])
        for action in self.legal_actions:
            if action.seat != seat:
                raise KowahError(N_("error", "Observation.legal_actions holds {action}, an action of seat "
                                             "{found}, not of seat {seat}"),
                                 action=repr(action), found=action.seat, seat=seat)

    @classmethod
    def _trusted(cls, *fields: object) -> Observation:
        """An observation of *fields* (in order) that :class:`Deal` made: not checked again."""
        observation = object.__new__(cls)
        for setter, value in zip(_SETTERS, fields, strict=True):
            setter(observation, value)
        return observation

    def to_dict(self) -> ObservationDict:
        """The observation as JSON-ready data: cards as codes, actions as :meth:`Action.to_dict
        <kowah.actions.Action.to_dict>` writes them, events as :meth:`Event.to_dict
        <kowah.events.Event.to_dict>`, the outcome as :meth:`Outcome.as_dict
        <kowah.events.Outcome.as_dict>`; ``"rules"`` names the pack (``"kowah"``, ``"money"``,
        or ``{"name": ..., "counts": [...]}`` for another) and the R17 limit. Every key is
        always there; :meth:`from_dict` reads it back.

        >>> import json
        >>> view = Deal.shuffled(seed=3).observation(1)
        >>> data = view.to_dict()
        >>> data["hand"][:3], data["legal_actions"], data["hand_sizes"]
        (['2c', '2m', '3s'], [{'seat': 1, 'do': 'draw'}], [8, 8, 8])
        >>> data["rules"]
        {'pack': 'kowah', 'no_progress_turns': 30}
        >>> Observation.from_dict(json.loads(json.dumps(data))) == view
        True
        """
        rules = self.rules
        pack: str | PackDict = rules.pack_name or {"name": rules.pack.name, "counts": list(rules.pack.counts)}
        return {
            "seat": self.seat,
            "hand": [card.code for card in self.hand],
            "turn": self.turn,
            "phase": self.phase.value,
            "first": self.first,
            "legal_actions": [action.to_dict() for action in self.legal_actions],
            "stock_count": self.stock_count,
            "hand_sizes": list(self.hand_sizes),
            "latest_discard": None if self.latest_discard is None else self.latest_discard.code,
            "discards": [[card.code for card in pile] for pile in self.discards],
            "declared_waits": [None if card is None else card.code for card in self.declared_waits],
            "known": [[card.code for card in cards] for cards in self.known],
            "public_draws": [{"seat": seat, "card": card.code} for seat, card in self.public_draws],
            "events": [event.to_dict() for event in self.events],
            "outcome": None if self.outcome is None else self.outcome.as_dict(),
            "rules": {"pack": pack, "no_progress_turns": rules.no_progress_turns},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Observation:
        """The observation :meth:`to_dict` wrote, checked as a new one is. A missing key raises
        :class:`~kowah.errors.KowahError`, a card code that is not one
        :class:`~kowah.errors.CardParseError`, data of the wrong shape
        :class:`~kowah.errors.KowahTypeError`.

        >>> Observation.from_dict({"seat": 0})
        Traceback (most recent call last):
        ...
        kowah.errors.KowahError: missing key 'rules'
        """
        if not isinstance(data, Mapping):
            raise _typed("an observation", data, "dict")
        try:
            rules_data = _item(data, "rules")
            pack_data = _item(rules_data, "pack")
            pack = (PACK_NAMES[pack_data] if isinstance(pack_data, str) and pack_data in PACK_NAMES
                    else Pack(_item(pack_data, "name"), _item(pack_data, "counts")))
            rules = Rules(pack, _item(rules_data, "no_progress_turns"))
            actions = tuple(Action.from_dict(entry) for entry in _item(data, "legal_actions"))
            events = tuple(Event(entry["kind"], entry["seat"], _card(entry["card"]), entry["public"])
                           for entry in _item(data, "events"))
            outcome_data = _item(data, "outcome")
            outcome = None if outcome_data is None else Outcome(
                outcome_data["result"], outcome_data.get("winner"), outcome_data["by"],
                outcome_data.get("multiplier"), _card(outcome_data.get("card")))
            return cls(
                seat=_item(data, "seat"), hand=_cards(_item(data, "hand")), turn=_item(data, "turn"),
                phase=Phase(_item(data, "phase")), first=_item(data, "first"), legal_actions=actions,
                stock_count=_item(data, "stock_count"), hand_sizes=tuple(_item(data, "hand_sizes")),
                latest_discard=_card(_item(data, "latest_discard")),
                discards=tuple(_cards(pile) for pile in _item(data, "discards")),
                declared_waits=tuple(_card(card) for card in _item(data, "declared_waits")),
                known=tuple(_cards(cards) for cards in _item(data, "known")),
                public_draws=tuple((entry["seat"], Card.parse(entry["card"]))
                                   for entry in _item(data, "public_draws")),
                events=events, outcome=outcome, rules=rules)
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            if isinstance(error, KowahError):
                raise
            raise KowahTypeError(N_("error", "not an observation's data: {value}"),
                                 value=shorten(error)) from None

    def seen(self) -> tuple[Card, ...]:
        """The cards this seat sees outside its hand: every discard and the other seats' known
        cards. This is the *seen* argument of :func:`~kowah.hands.improvements` and
        :func:`~kowah.hands.discard_options`.

        >>> from kowah.hands import discard_options
        >>> deal = Deal.shuffled(seed=0)
        >>> seat = deal.actor
        >>> _ = deal.apply(Action.draw(seat))
        >>> view = deal.observation(seat)
        >>> view.seen()
        ()
        >>> best = discard_options(view.hand, view.seen())[0]
        >>> Action.discard(seat, best.discard) in view.legal_actions
        True
        """
        seen: list[Card] = []
        for pile in self.discards:
            seen += pile
        for seat, cards in enumerate(self.known):
            if seat != self.seat:
                seen += cards
        return tuple(seen)

    def unseen(self) -> dict[Card, int]:
        """Copies of each card of the rules' pack this seat has not seen (hand, discards, known)."""
        pack = self.rules.pack
        counts = {card: pack.copies(card) for card in pack.kinds}
        for card in (*self.hand, *self.seen()):
            counts[card] -= 1
        return {card: count for card, count in counts.items() if count > 0}


def _item(data: object, key: str) -> Any:
    """``data[key]`` of an observation's data; a missing key raises KowahError."""
    if not isinstance(data, Mapping):
        raise _typed(key, data, "dict")
    if key not in data:
        raise KowahError(N_("error", "missing key {key!r}"), key=key)
    return data[key]


def _card(code: object) -> Card | None:
    return None if code is None else Card.parse(code)  # type: ignore[arg-type]  # Card.parse checks


def _cards(codes: object) -> tuple[Card, ...]:
    if isinstance(codes, (str, bytes)) or not isinstance(codes, Iterable):
        raise _typed("cards", codes, "list of card codes")
    return tuple(Card.parse(code) for code in codes)


class PackDict(TypedDict):
    """A pack other than the two of the records, in :meth:`Observation.to_dict`."""

    name: str
    counts: list[int]  #: copies of each of the 33 kinds, by card index


class RulesDict(TypedDict):
    """The rules in :meth:`Observation.to_dict`."""

    pack: str | PackDict  #: "kowah", "money", or another pack
    no_progress_turns: int  #: R17


class PublicDrawDict(TypedDict):
    """A public stock draw (R13) in :meth:`Observation.to_dict`."""

    seat: int
    card: str


class ObservationDict(TypedDict):
    """An observation as JSON-ready data (:meth:`Observation.to_dict`); the keys are its fields."""

    seat: int
    hand: list[str]
    turn: int
    phase: str
    first: int
    legal_actions: list[ActionDict]
    stock_count: int
    hand_sizes: list[int]
    latest_discard: str | None
    discards: list[list[str]]
    declared_waits: list[str | None]
    known: list[list[str]]
    public_draws: list[PublicDrawDict]
    events: list[EventDict]
    outcome: OutcomeDict | None
    rules: RulesDict


_SETTERS = tuple(getattr(Observation, field.name).__set__ for field in attrs.fields(Observation))


class Deal:
    """The state of one deal, changed only by :meth:`apply` (which checks every action) and
    :meth:`undo`.

    Create it with :meth:`shuffled` (from a seed) or from an explicit deck order and first
    seat, as a game record does. ``deck`` lists the cards in the order they leave the pack:
    seat 0 gets the first eight, seat 1 the next, seat 2 the next, the rest is the stock.

    Who acts: :attr:`actor` is the seat to ask now, the one way a loop should pick a seat::

        while not deal.is_over:
            seat = deal.actor
            deal.apply(players[seat].choose(deal.observation(seat), deal.legal_actions(seat)))

    :attr:`turn` is only the seat whose turn it is (to draw or take, then discard); right
    after a discard into a ready hand the discarding seat acts first, to declare or pass
    (R11), and :meth:`to_move` lists both. Deals are equal when their rules, deck, first
    seat and actions are; copies (:meth:`copy`, :func:`copy.copy`, :func:`copy.deepcopy`,
    pickling) are independent and equal.
    """

    __slots__ = ("_cache", "_deck", "_events", "_first", "_history", "_known", "_public_draws",
                 "_rules", "_state", "_undo", "_views")

    def __init__(self, deck: Sequence[Card], first: int, rules: Rules = KOWAH_RULES) -> None:
        rules = _check_rules(rules)
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise KowahTypeError(N_("error", "a deck must be a sequence of Card values, not {value} of "
                                             "type {type}"), value=shorten(deck), type=type(deck).__name__)
        deck = tuple(deck)
        for position, card in enumerate(deck, start=1):
            if type(card) is not Card:
                raise KowahTypeError(
                    N_("error", "card {position} of the deck is {value} of type {type}, not a Card"),
                    position=position, value=shorten(card), type=type(card).__name__)
        pack = rules.pack
        if len(deck) != len(pack) or tuple(sorted(deck)) != pack.cards:
            raise deck_error(deck, pack) or DeckError(N_("error", "the deck is not an order of the {pack}"),
                                                      pack=pack.name)
        _check_first(first)
        self._rules = rules
        self._deck: tuple[Card, ...] = deck
        self._first = first
        self._state = State.start(deck, first, rules)
        self._history: list[Action] = []
        self._events: list[Event] = []
        self._views: list[list[Event]] = [[] for _ in range(SEATS)]  # the events as each seat saw them
        self._known: list[list[Card]] = [[] for _ in range(SEATS)]
        self._public_draws: list[tuple[int, Card]] = []
        # Per action applied: the action, the State's scalars before it, the number of events
        # it logged, and what restores the known cards (see undo).
        self._undo: list[tuple[Action, Scalars, int, int]] = []
        # Each seat's observation until the next change (then dropped at once, not kept alive).
        self._cache: list[Observation | None] = [None] * SEATS

    @classmethod
    def shuffled(cls, seed: int | random.Random | None = None, rules: Rules = KOWAH_RULES, *,
                 first: int | None = None) -> Deal:
        """A deal from a shuffled pack and a random first seat, using ``random.Random(seed)`` (R9).

        A seed is an int 0 or more (``random.Random`` gives a negative seed the deck of its
        absolute value, so negative seeds are refused), ``None`` (fresh randomness) or a
        :class:`random.Random`, which is used, and advanced, as it is.

        *first*, if given, fixes the first seat instead (the deck is the same either way), e.g.
        to rotate it through a series of deals.

        >>> Deal.shuffled(seed=1).deck == Deal.shuffled(seed=1, first=2).deck
        True
        >>> from kowah import MONEY_RULES
        >>> Deal.shuffled(seed=1, first=2).first, Deal.shuffled(1, rules=MONEY_RULES).stock_count
        (2, 108)
        >>> Deal.shuffled(7, 0)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahTypeError: rules must be a Rules value, such as Rules(pack=MONEY_PACK), not 0 ...
        """
        rules = _check_rules(rules)
        if isinstance(seed, random.Random):
            rng = seed
        elif seed is None or (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0):
            rng = random.Random(seed)
        elif isinstance(seed, int) and not isinstance(seed, bool):
            # random.Random(-5) is random.Random(5): a negative seed would repeat another's deck.
            raise KowahError(N_("error", "a seed must be 0 or more, not {value}"), value=shorten(seed))
        else:
            raise KowahTypeError(N_("error", "a seed must be an int or a random.Random, not {value} of "
                                             "type {type}"), value=shorten(seed), type=type(seed).__name__)
        if first is not None:
            _check_first(first)
        deck = list(rules.pack.cards)
        rng.shuffle(deck)
        drawn = rng.randrange(SEATS)
        return cls(deck, drawn if first is None else first, rules)

    # -- what the state is ------------------------------------------------------------------

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck order the deal was dealt from (R9): hands of eight, then the stock."""
        return self._deck

    @property
    def first(self) -> int:
        """The seat that opened the deal (R9)."""
        return self._first

    @property
    def rules(self) -> Rules:
        """The rules played by (:class:`~kowah.engine.Rules`)."""
        return self._rules

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that has happened, with every card shown (see :meth:`observation`)."""
        return tuple(self._events)

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, passes left out: what a game record lists."""
        return tuple(self._history)

    @property
    def turn(self) -> int:
        """The seat whose turn it is: to draw or take (:attr:`phase` START), or to discard."""
        return self._state.turn

    @property
    def phase(self) -> Phase:
        """Whether the seat whose turn it is must draw or take, or discard; or the deal is over."""
        return self._state.phase

    @property
    def declaring_seat(self) -> int | None:
        """A seat that has just discarded with a ready hand and may still declare (R11)."""
        return self._state.window

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return self._state.stock_count

    @property
    def latest_discard(self) -> Card | None:
        """The latest discard while it may still be taken: ``None`` once the next seat has
        drawn or taken, when that seat has declared (R12) and when the deal is over."""
        return self._state.latest

    @property
    def outcome(self) -> Outcome | None:
        """How the deal ended, or ``None`` while it goes on."""
        return self._state.outcome

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self._state.outcome is not None

    # Every method that takes a seat checks it: an int 0–2 passes the first, cheap test;
    # anything else (another seat number, a bool, a float) raises KowahError in _seat.

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards, sorted (hidden information: see :meth:`observation`)."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        return tuple(self._state.hands[seat])

    def declared_wait(self, seat: int) -> Card | None:
        """The seat's public wait if it has declared (R11), else ``None``."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        return self._state.declared[seat]

    def discards(self, seat: int) -> tuple[Card, ...]:
        """The cards lying in the seat's discards (a taken card leaves them), oldest first."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        return tuple(self._state.piles[seat])

    @property
    def public_draws(self) -> tuple[tuple[int, Card], ...]:
        """Stock draws shown to all seats after a declaration (R13), as (seat, card)."""
        return tuple(self._public_draws)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, next card first (hidden information)."""
        return self._deck[self._state.stock:]

    @property
    def actor(self) -> int:
        """The seat that acts now: the one to ask for an action, whose
        :meth:`legal_actions` are the choices. Right after a discard into a ready hand it is
        the discarding seat, which may declare or pass (R11), and only then the seat whose
        :attr:`turn` it is; so a loop over ``deal.actor`` lets every seat declare. Raises
        :class:`~kowah.errors.KowahError` once the deal is over.

        >>> deal = Deal.shuffled(seed=3)
        >>> deal.actor, deal.legal_actions(deal.actor)
        (1, (Action.draw(1),))
        """
        state = self._state
        if state.outcome is not None:
            raise KowahError(N_("error", "the deal is over: no seat acts"))
        return state.turn if state.window is None else state.window

    def to_move(self) -> tuple[int, ...]:
        """The seats that have a legal action now: a seat that may declare comes first.

        Two seats are listed right after a discard that leaves the discarding seat ready
        (R11): it may declare (or pass), and the next seat may already draw or take. That
        action closes the declaring window for good, so a front end that lets the next seat
        act should first ask the first seat, or apply its pass.

        >>> Deal.shuffled(seed=3).to_move()
        (1,)
        """
        return self._state.to_move()

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every legal action of *seat* now (empty for a seat that cannot act); without a
        seat, those of every seat in :meth:`to_move`, the declaring window first.

        A *seat* other than 0, 1 or 2 raises :class:`~kowah.errors.KowahError`.

        >>> deal = Deal.shuffled(seed=3)
        >>> deal.legal_actions(1), deal.legal_actions(0), deal.legal_actions()
        ((Action.draw(1),), (), (Action.draw(1),))
        >>> deal.legal_actions(3)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahError: there is no seat 3
        """
        state = self._state
        if seat is None:
            return tuple(action for mover in state.to_move() for action in state.legal_actions(mover))
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        return state.legal_actions(seat)

    def why_illegal(self, action: Action) -> Refusal | None:
        """Why *action* is illegal now, as a :class:`~kowah.actions.Refusal`; ``None`` if it is
        legal. It raises nothing for an Action and copies nothing.

        >>> deal = Deal.shuffled(seed=3)
        >>> deal.why_illegal(Action.draw(1)) is None
        True
        >>> refusal = deal.why_illegal(Action.take(1))
        >>> refusal.reason, str(refusal)
        (<Reason.OPENING_DRAW: 'opening-draw'>, 'on the opening turn, a player must draw from the stock')
        """
        _check_action(action)
        found = self._state.refusal(action)
        return None if found is None else Refusal(found[0], action, found[1])

    def is_legal(self, action: Action) -> bool:
        """Whether *action* is legal now (an object that is no Action raises ActionTypeError).

        >>> Deal.shuffled(seed=3).is_legal(Action.draw(1))
        True
        """
        _check_action(action)
        return self._state.refusal(action) is None

    # -- changing the state -----------------------------------------------------------------

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply *action*, with any claim it triggers (R14) and the end of the deal it brings;
        return the events it caused (none for a pass).

        An illegal action raises :class:`~kowah.errors.IllegalActionError` (with its
        :class:`~kowah.actions.Refusal`) and leaves the deal exactly as it was. An object that
        is not an :class:`~kowah.actions.Action` raises
        :class:`~kowah.errors.ActionTypeError`. A declaration without a wait takes the hand's
        only wait (R8), as records allow.
        """
        _check_action(action)
        state = self._state
        found = state.refusal(action)
        if found is not None:
            raise IllegalActionError(Refusal(found[0], action, found[1]))
        kind, seat = action.kind, action.seat
        if kind is ActionKind.DECLARE and action.card is None:
            action = Action.declare(seat, state.waits(seat)[0])
        before = state.scalars()
        self._cache[:] = _NO_OBSERVATIONS
        if kind is ActionKind.PASS:
            state.pass_(seat)
            self._undo.append((action, before, 0, 0))
            return ()
        known = self._known[seat]
        self._history.append(action)
        start = len(self._events)
        extra = 0  # what undo needs to restore the known cards
        if kind is ActionKind.DRAW:
            public = state.claims  # R13: once a seat has declared, every draw is shown
            state.draw(seat)
            drawn: Card = state.drawn  # type: ignore[assignment]
            if public:
                extra = 1
                self._public_draws.append((seat, drawn))
                known.append(drawn)  # every seat sees it, so it is known to be in this hand
            self._log(Event.of(EventKind.DRAW, seat, drawn, public))
        elif kind is ActionKind.DISCARD:
            card: Card = action.card  # type: ignore[assignment]
            state.discard(seat, card)
            if card in known:
                extra = known.index(card) + 1
                del known[extra - 1]
            self._log(Event.of(EventKind.DISCARD, seat, card))
        elif kind is ActionKind.TAKE:
            state.take(seat)
            taken: Card = state.taken  # type: ignore[assignment]
            known.append(taken)
            self._log(Event.of(EventKind.TAKE, seat, taken))
        else:
            wait: Card = action.card  # type: ignore[assignment]
            state.declare(seat, wait)
            # The exposed pair: two copies are known, counting a copy already known from a take.
            extra = max(0, 2 - known.count(wait))
            known += [wait] * extra
            self._log(Event.of(EventKind.DECLARE, seat, wait))
        outcome = state.outcome
        if outcome is not None:
            if outcome.result is Result.WIN:
                self._log(Event.of(EventKind.WIN, outcome.winner, outcome.card))
            else:
                self._log(Event.of(EventKind.DRAWN, None))
        self._undo.append((action, before, len(self._events) - start, extra))
        return tuple(self._events[start:])

    def _log(self, event: Event) -> None:
        self._events.append(event)
        if event.public:
            for view in self._views:
                view.append(event)
        else:
            hidden = _HIDDEN_DRAW[event.seat]  # type: ignore[index]
            for other, view in enumerate(self._views):
                view.append(event if other == event.seat else hidden)

    def undo(self) -> Action:
        """Take back the last action applied (a pass included) and return it; the deal is then
        exactly as it was before it. With nothing to undo, raise :class:`~kowah.errors.KowahError`.

        >>> deal = Deal.shuffled(seed=3)
        >>> before = deal.observation(1)
        >>> _ = deal.apply(Action.draw(1))
        >>> deal.undo(), deal.observation(1) == before, deal.history
        (Action.draw(1), True, ())
        """
        if not self._undo:
            raise KowahError(N_("error", "there is no action to undo"))
        action, before, events, extra = self._undo.pop()
        state = self._state
        kind, seat = action.kind, action.seat
        if kind is not ActionKind.PASS:
            self._history.pop()
            if events:
                del self._events[-events:]
                for view in self._views:
                    del view[-events:]
            known = self._known[seat]
            if kind is ActionKind.DRAW:
                if extra:  # a public draw (R13)
                    self._public_draws.pop()
                    known.pop()
            elif kind is ActionKind.TAKE:
                known.pop()
            elif kind is ActionKind.DISCARD:
                if extra:  # the card was known: back where it was
                    known.insert(extra - 1, action.card)  # type: ignore[arg-type]
            elif extra:
                del known[-extra:]
        state.undo(action, before)
        self._cache[:] = _NO_OBSERVATIONS
        return action

    # -- views ------------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What *seat* may know now (see :class:`Observation`); kept up to date as the deal
        goes, so it costs the same at every step.

        >>> deal = Deal.shuffled(seed=3)
        >>> obs = deal.observation(0)
        >>> obs.hand == deal.hand(0), obs.stock_count, obs.hand_sizes
        (True, 96, (8, 8, 8))
        """
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        cached = self._cache[seat]
        if cached is not None:
            return cached
        state = self._state
        hands, piles, known = state.hands, state.piles, self._known
        # Made from the deal's own state, which apply() checked: not checked again.
        observation = Observation._trusted(
            seat,
            tuple(hands[seat]),
            state.turn,
            state.phase,
            self._first,
            state.legal_actions(seat),
            len(self._deck) - state.stock,
            (len(hands[0]), len(hands[1]), len(hands[2])),
            state.latest,
            (tuple(piles[0]), tuple(piles[1]), tuple(piles[2])),
            tuple(state.declared),
            (tuple(sorted(known[0])), tuple(sorted(known[1])), tuple(sorted(known[2]))),
            tuple(self._public_draws),
            tuple(self._views[seat]),
            state.outcome,
            self._rules,
        )
        self._cache[seat] = observation
        return observation

    def state(self) -> State:
        """The deal's state as a :class:`~kowah.engine.State`, a copy for fast unchecked play."""
        return self._state.copy()

    def copy(self) -> Deal:
        """An independent copy of the deal, undo included (for search: it shares no mutable
        state). ``copy.copy``, ``copy.deepcopy`` and pickling give the same.

        >>> import copy, pickle
        >>> deal = Deal.shuffled(seed=3)
        >>> _ = deal.apply(Action.draw(deal.actor))
        >>> clone = copy.copy(deal)
        >>> clone == deal == pickle.loads(pickle.dumps(deal)) == copy.deepcopy(deal)
        True
        >>> _ = clone.apply(clone.legal_actions()[0])
        >>> clone == deal, deal.stock_count, deal.observation(1).legal_actions[0]
        (False, 95, Action.discard(1, Card.C1))
        """
        other = Deal.__new__(Deal)
        other._rules, other._deck, other._first = self._rules, self._deck, self._first
        other._state = self._state.copy()
        other._history = list(self._history)
        other._events = list(self._events)
        other._views = [list(view) for view in self._views]
        other._known = [list(cards) for cards in self._known]
        other._public_draws = list(self._public_draws)
        other._undo = list(self._undo)
        other._cache = [None] * SEATS
        return other

    def __copy__(self) -> Deal:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Deal:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:
        # A deal is its rules, deck, first seat and the actions applied (passes too): rebuilt
        # by replaying them, it is equal, undo included.
        return _replayed, (self._deck, self._first, self._rules, self._applied())

    def _applied(self) -> tuple[Action, ...]:
        """Every action applied and not undone, passes included, in order."""
        return tuple(entry[0] for entry in self._undo)

    def __eq__(self, other: object) -> bool:
        """Deals are equal when their rules, deck order, first seat and :attr:`history` are
        (and a seat may declare in both or in neither, R11): then they are in the same state.
        Passes do not count, as records do not list them (a later action closes the window)."""
        if not isinstance(other, Deal):
            return NotImplemented
        return (self._deck == other._deck and self._first == other._first and self._rules == other._rules
                and self._history == other._history and self._state.window == other._state.window)

    __hash__ = None  # type: ignore[assignment]  # a deal changes

    def winning_split(self) -> Split | None:
        """How the winner's hand won: its eight cards (a self-drawn winning card left out) as
        the two triples and the pair of the wait (R6, R8) it declared; ``None`` unless the deal
        is won. The winning card is ``deal.outcome.card``, a third copy of the pair's card.

        >>> from kowah.cards import parse_cards
        >>> ready = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")
        >>> rest = list(Deal.shuffled(0).deck)
        >>> for card in (*ready, Card.M9, Card.C5):
        ...     rest.remove(card)
        >>> deal = Deal([*ready, *rest[:16], Card.M9, Card.C5, *rest[16:]], 0)
        >>> for action in (Action.draw(0), Action.discard(0, Card.M9), Action.declare(0, Card.C5),
        ...                Action.draw(1)):  # seat 1 draws the 5c: seat 0 claims it (R14)
        ...     _ = deal.apply(action)
        >>> deal.outcome.by, str(deal.winning_split())
        (<WinBy.DRAW_CLAIM: 'draw-claim'>, '8c 8c 8c | 5s 5s 5m | 5c 5c')
        """
        outcome = self._state.outcome
        if outcome is None or outcome.winner is None or outcome.card is None:
            return None
        hand = list(self._state.hands[outcome.winner])
        if len(hand) > HAND_SIZE:  # a self-draw: the winning card is in the hand (R12)
            hand.remove(outcome.card)
        for split in splits(hand, self._rules.pack):
            if split.wait is outcome.card:
                return split
        return None  # pragma: no cover - a declared hand always splits with its wait

    def where(self) -> dict[str, list[Card]]:
        """Every card of the deck by place: each seat's hand, each seat's discards, the stock.

        A check of the deal's bookkeeping: every card is in exactly one place.
        """
        places: dict[str, list[Card]] = {}
        for seat in range(SEATS):
            places[f"hand {seat}"] = list(self._state.hands[seat])
            places[f"discards {seat}"] = list(self._state.piles[seat])
        places["stock"] = list(self.stock)
        return places

    def __repr__(self) -> str:
        """What makes the deal (and its equality): the rules, the deck, the first seat and the
        actions applied; then where it stands.

        >>> Deal.shuffled(seed=3)
        <Deal Rules() deck=[4c 7m 6m 8m ... 3s] first=1 history=0 actions: turn 1 start>
        """
        state = "over" if self.is_over else f"turn {self.turn} {self.phase.value}"
        deck = f"{format_cards(self._deck[:4])} ... {self._deck[-1]}"
        return (f"<Deal {self._rules!r} deck=[{deck}] first={self._first} history={len(self._history)} "
                f"actions: {state}>")


def _replayed(deck: tuple[Card, ...], first: int, rules: Rules, actions: tuple[Action, ...]) -> Deal:
    """A deal from *deck*, *first* and *rules*, with *actions* applied (for unpickling)."""
    deal = Deal(deck, first, rules)
    for action in actions:
        deal.apply(action)
    return deal

