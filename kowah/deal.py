"""A complete three-seat deal: the one state object, its actions, events and outcome (R9–R16).

>>> from kowah.deal import Deal, Action
>>> deal = Deal.shuffled(seed=7)
>>> deal.turn == deal.first, deal.stock_count
(True, 96)
>>> seat = deal.turn
>>> [str(action) for action in deal.legal_actions(seat)]
['draw']
>>> deal.apply(Action.draw(seat))
>>> len(deal.hand(seat))
9
>>> deal.apply(Action.draw(seat))
Traceback (most recent call last):
...
kowah.errors.IllegalActionError: seat ... cannot draw: it has drawn or taken already and must discard
"""

from __future__ import annotations

import bisect
import enum
import random
import reprlib
from collections.abc import Sequence
from typing import NoReturn

import attrs

from kowah._tables import ready_table as _table
from kowah.cards import KINDS, KOWAH_DECK, Card, Pack, format_cards
from kowah.errors import N_, IllegalActionError, KowahError
from kowah.hands import HAND_SIZE, waits

__all__ = [
    "SEATS",
    "Action",
    "ActionKind",
    "ActionTypeError",
    "Deal",
    "DeckError",
    "Event",
    "Observation",
    "Outcome",
    "Phase",
    "random_playout",
]

#: Seats at the table (R9).
SEATS = 3

_CARDS: tuple[Card, ...] = tuple(Card)


class DeckError(KowahError):
    """A deck order or first seat given to :class:`Deal` does not fit the pack.

    >>> deck = list(KOWAH_DECK.cards)
    >>> Deal([*deck[:-1], Card.WS], 0)
    Traceback (most recent call last):
    ...
    kowah.deal.DeckError: card 120 of the deck, ws, is not in the Kowah deck
    >>> Deal([*deck, Card.C5], 0)
    Traceback (most recent call last):
    ...
    kowah.deal.DeckError: the deck holds 5 copies of 5c, but the Kowah deck has 4 (first extra copy: card 121)
    >>> Deal(deck[1:], 0)
    Traceback (most recent call last):
    ...
    kowah.deal.DeckError: the deck has 119 cards, but the Kowah deck has 120: a copy of 1c is missing
    """


class ActionTypeError(KowahError, TypeError):
    """Something other than an :class:`Action` was given where an action is expected.

    It is a :class:`TypeError` as well as a :class:`~kowah.KowahError`.

    >>> Deal.shuffled(seed=1).apply("draw")
    Traceback (most recent call last):
    ...
    kowah.deal.ActionTypeError: expected an Action, not 'draw' of type str
    """


class ActionKind(enum.Enum):
    """What an action does. ``PASS`` declines to declare; it is never written in records."""

    DRAW = "draw"
    TAKE = "take"
    DISCARD = "discard"
    DECLARE = "declare"
    PASS = "pass"


@attrs.frozen(repr=False)
class Action:
    """One seat's action. Build actions with the class methods; they are shared values.

    >>> Action.discard(1, Card.C5)
    Action.discard(1, Card.C5)
    >>> str(Action.declare(0, Card.S5)), Action.draw(2).kind
    ('declare 5s', <ActionKind.DRAW: 'draw'>)
    """

    seat: int
    kind: ActionKind
    card: Card | None = None

    @classmethod
    def draw(cls, seat: int) -> Action:
        """Draw the top card of the stock (R10)."""
        # Only real seats index the shared actions: a negative seat would wrap to another seat.
        return _DRAW[seat] if seat in _SEAT_RANGE else cls(seat, ActionKind.DRAW)

    @classmethod
    def take(cls, seat: int) -> Action:
        """Take the latest discard (R10)."""
        return _TAKE[seat] if seat in _SEAT_RANGE else cls(seat, ActionKind.TAKE)

    @classmethod
    def discard(cls, seat: int, card: Card) -> Action:
        """Discard *card* (R10)."""
        if seat in _SEAT_RANGE and _is_card(card):
            return _DISCARD[seat][card]
        return cls(seat, ActionKind.DISCARD, card)

    @classmethod
    def declare(cls, seat: int, wait: Card) -> Action:
        """Declare checki, exposing the pair of *wait* (R11)."""
        if seat in _SEAT_RANGE and _is_card(wait):
            return _DECLARE[seat][wait]
        return cls(seat, ActionKind.DECLARE, wait)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        """Decline to declare after one's own discard (R11: declaring is never forced)."""
        return _PASS[seat] if seat in _SEAT_RANGE else cls(seat, ActionKind.PASS)

    def __str__(self) -> str:
        return self.kind.value if self.card is None else f"{self.kind.value} {self.card}"

    def __repr__(self) -> str:
        name = "pass_" if self.kind is ActionKind.PASS else self.kind.value
        card = "" if self.card is None else f", {self.card!r}"
        return f"Action.{name}({self.seat}{card})"


_SEAT_RANGE = range(SEATS)


def _seat(seat: object) -> int:
    """*seat* as a seat number; anything but an int 0–2 (a bool is no seat) raises KowahError."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < SEATS:
        return int(seat)
    raise KowahError(N_("error", "there is no seat {seat}"), seat=seat)


def _check_action(action: object) -> None:
    if not isinstance(action, Action):
        raise ActionTypeError(N_("error", "expected an Action, not {value} of type {type}"),
                              value=reprlib.repr(action), type=type(action).__name__)


def _deck_problem(deck: Sequence[Card], pack: Pack) -> tuple[str, int, Card, int] | None:
    """What keeps *deck* (Cards) from being an order of *pack*, the first problem in deck order.

    ``("absent", position, card, 0)``: a card the pack lacks, at its 1-based position;
    ``("extra", position, card, count)``: *count* copies of a card, more than the pack holds,
    the first extra copy at *position*; ``("short", 0, card, count)``: only *count* copies of a
    card (the deck is short); ``None``: no problem.
    """
    allowed = pack.counts
    seen = [0] * KINDS
    for position, card in enumerate(deck, start=1):
        seen[card] += 1
        if seen[card] > allowed[card]:
            if not allowed[card]:
                return "absent", position, card, 0
            return "extra", position, card, deck.count(card)
    for card in pack.kinds:
        if seen[card] < allowed[card]:
            return "short", 0, card, seen[card]
    return None


def _raise_deck_error(deck: Sequence[Card], pack: Pack) -> NoReturn:
    """Raise the DeckError that says what keeps *deck* from being an order of *pack*."""
    problem = _deck_problem(deck, pack)
    assert problem is not None
    kind, position, card, count = problem
    if kind == "absent":
        raise DeckError(N_("error", "card {position} of the deck, {card}, is not in the {pack}"),
                        position=position, card=card, pack=pack.name)
    if kind == "extra":
        raise DeckError(
            N_("error", "the deck holds {count} copies of {card}, but the {pack} has {copies} "
                        "(first extra copy: card {position})"),
            count=count, card=card, pack=pack.name, copies=pack.copies(card), position=position,
        )
    raise DeckError(
        N_("error", "the deck has {count} cards, but the {pack} has {expected}: a copy of {card} "
                    "is missing"),
        count=len(deck), pack=pack.name, expected=len(pack), card=card,
    )


def _is_card(card: object) -> bool:
    """A Card, or a card's index (0–32), which the shared actions turn into the Card."""
    return type(card) is Card or (type(card) is int and 0 <= card < len(_CARDS))

# Every action is built once and shared, so legal-action lists cost no allocation and
# membership tests compare by identity first.
_DRAW = tuple(Action(seat, ActionKind.DRAW) for seat in range(SEATS))
_TAKE = tuple(Action(seat, ActionKind.TAKE) for seat in range(SEATS))
_PASS = tuple(Action(seat, ActionKind.PASS) for seat in range(SEATS))
_DISCARD = tuple(tuple(Action(seat, ActionKind.DISCARD, card) for card in Card) for seat in range(SEATS))
_DECLARE = tuple(tuple(Action(seat, ActionKind.DECLARE, card) for card in Card) for seat in range(SEATS))


_CARDLESS = (ActionKind.DRAW, ActionKind.TAKE, ActionKind.PASS)


class Phase(enum.Enum):
    """Where the seat whose turn it is stands."""

    START = "start"  #: it must draw or take
    DISCARD = "discard"  #: it must discard
    OVER = "over"  #: the deal has ended


@attrs.frozen
class Outcome:
    """How a deal ended: a win (who, how, the multiplier, the winning card) or a drawn deal.

    >>> Outcome.win(2, "self-draw", Card.C5).as_dict()
    {'result': 'win', 'winner': 2, 'by': 'self-draw', 'multiplier': 3, 'card': '5c'}
    >>> Outcome.drawn().as_dict()
    {'result': 'drawn'}
    """

    result: str
    winner: int | None = None
    by: str | None = None
    multiplier: int | None = None
    card: Card | None = None

    #: The multiplier of each way to win (R15).
    MULTIPLIERS = {"self-draw": 3, "discard": 2, "draw-claim": 1}  # noqa: RUF012

    @classmethod
    def win(cls, winner: int, by: str, card: Card) -> Outcome:
        """A win by *winner*: ``by`` is ``"self-draw"``, ``"discard"`` or ``"draw-claim"``.

        >>> Outcome.win(0, "selfdraw", Card.C5)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahError: unknown way to win 'selfdraw' (self-draw, discard or draw-claim)
        """
        multiplier = cls.MULTIPLIERS.get(by)
        if multiplier is None:
            raise KowahError(N_("error", "unknown way to win {by!r} (self-draw, discard or draw-claim)"),
                             by=by)
        return cls("win", winner, by, multiplier, card)

    @classmethod
    def drawn(cls) -> Outcome:
        """A deal that ended with the stock exhausted and no winner (R16)."""
        return cls("drawn")

    def as_dict(self) -> dict[str, object]:
        """The outcome object of ``kowah-record/1`` replays."""
        if self.result != "win":
            return {"result": self.result}
        return {"result": "win", "winner": self.winner, "by": self.by,
                "multiplier": self.multiplier, "card": str(self.card)}


@attrs.frozen
class Event:
    """Something that happened in the deal, as a UI would show it.

    ``kind`` is ``"draw"``, ``"take"``, ``"discard"``, ``"declare"``, ``"win"`` or ``"drawn"``.
    ``card`` is ``None`` where the card is hidden: another seat's stock draw before any
    declaration (R13), as seen in an :class:`Observation`.
    """

    kind: str
    seat: int | None
    card: Card | None = None
    #: Whether every seat sees the card (always, but for stock draws before a declaration).
    public: bool = True

    def __str__(self) -> str:
        who = "" if self.seat is None else f"seat {self.seat} "
        card = "" if self.card is None else f" {self.card}"
        return f"{who}{self.kind}{card}"


@attrs.frozen
class Observation:
    """Everything one seat may know at a moment of the deal, and nothing it may not.

    The other seats' concealed cards and the order of the stock are never in it; another
    seat's stock draw shows its card only once a seat has declared (R13).
    """

    seat: int
    hand: tuple[Card, ...]
    turn: int
    phase: Phase
    first: int
    legal_actions: tuple[Action, ...]
    stock_count: int
    hand_sizes: tuple[int, ...]
    #: The latest discard that may be taken, if any.
    latest_discard: Card | None
    #: The cards lying in each seat's discards, oldest first.
    discards: tuple[tuple[Card, ...], ...]
    #: Each seat's public wait once it has declared (its exposed pair is two of this card).
    waits: tuple[Card | None, ...]
    #: Cards known to be in each seat's hand: exposed pairs, cards taken from the discards and
    #: public stock draws (R13) not discarded since.
    known: tuple[tuple[Card, ...], ...]
    #: Stock draws shown to all seats after a declaration (R13), as (seat, card).
    public_draws: tuple[tuple[int, Card], ...]
    events: tuple[Event, ...]
    outcome: Outcome | None

    def seen(self) -> tuple[Card, ...]:
        """The cards this seat sees outside its hand: every discard and the other seats' known
        cards. This is the *seen* argument of :func:`~kowah.hands.improvements` and
        :func:`~kowah.hands.discard_options`.

        >>> from kowah.hands import discard_options
        >>> deal = Deal.shuffled(seed=0)
        >>> seat = deal.turn
        >>> deal.apply(Action.draw(seat))
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

    def unseen(self, pack: Pack = KOWAH_DECK) -> dict[Card, int]:
        """Copies of each card that this seat has not seen anywhere (hand, discards, known)."""
        counts = {card: pack.copies(card) for card in pack.kinds}
        for card in (*self.hand, *self.seen()):
            counts[card] -= 1
        return {card: count for card, count in counts.items() if count > 0}


class Deal:
    """The state of one deal, changed only by :meth:`apply`, which checks every action.

    Create it with :meth:`shuffled` (from a seed) or from an explicit deck order and first
    seat, as a game record does. ``deck`` lists the cards in the order they leave the pack:
    seat 0 gets the first eight, seat 1 the next, seat 2 the next, the rest is the stock.
    """

    __slots__ = (
        "_declared",
        "_discards",
        "_drawn",
        "_hands",
        "_history",
        "_known",
        "_latest",
        "_outcome",
        "_phase",
        "_public_draws",
        "_stock",
        "_taken",
        "_turn",
        "_window",
        "deck",
        "events",
        "first",
        "pack",
    )

    def __init__(self, deck: Sequence[Card], first: int, pack: Pack = KOWAH_DECK) -> None:
        deck = tuple(deck)
        if not all(type(card) is Card for card in deck):
            raise DeckError(N_("error", "a deck must be a sequence of Card values"))
        if tuple(sorted(deck)) != pack.cards:
            _raise_deck_error(deck, pack)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < SEATS:
            raise DeckError(N_("error", "the first seat must be 0, 1 or 2, not {first!r}"), first=first)
        self.pack = pack
        self.deck: tuple[Card, ...] = deck
        self.first = first
        self._hands = [sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(SEATS)]
        self._stock = SEATS * HAND_SIZE  # index of the next stock card in the deck
        self._turn = first
        self._phase = Phase.START
        self._window: int | None = None  # a seat that may still declare after its discard
        self._latest: Card | None = None  # the latest discard, while it may be taken
        self._drawn: Card | None = None  # the card the seat to move drew this turn
        self._taken: Card | None = None  # the card the seat to move took this turn
        self._discards: list[list[Card]] = [[] for _ in range(SEATS)]
        self._declared: list[Card | None] = [None] * SEATS
        self._known: list[list[Card]] = [[] for _ in range(SEATS)]
        self._public_draws: list[tuple[int, Card]] = []
        self._outcome: Outcome | None = None
        self._history: list[Action] = []
        self.events: list[Event] = []

    @classmethod
    def shuffled(cls, seed: int | random.Random | None = None, pack: Pack = KOWAH_DECK,
                 first: int | None = None) -> Deal:
        """A deal from a shuffled pack and a random first seat, using ``random.Random(seed)`` (R9).

        *first*, if given, fixes the first seat instead (the deck is the same either way), e.g.
        to rotate it through a series of deals.

        >>> Deal.shuffled(seed=1).deck == Deal.shuffled(seed=1, first=2).deck
        True
        >>> Deal.shuffled(seed=1, first=2).first
        2
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(pack.cards)
        rng.shuffle(deck)
        drawn = rng.randrange(SEATS)
        return cls(deck, drawn if first is None else first, pack)

    # -- what the state is ------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The seat whose turn it is (the seat to draw or take, or to discard)."""
        return self._turn

    @property
    def phase(self) -> Phase:
        """Whether the seat whose turn it is must draw or take, or discard; or the deal is over."""
        return self._phase

    @property
    def declaring_seat(self) -> int | None:
        """A seat that has just discarded with a ready hand and may still declare (R11)."""
        return self._window

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.deck) - self._stock

    @property
    def latest_discard(self) -> Card | None:
        """The latest discard, while it may still be taken."""
        return self._latest

    @property
    def outcome(self) -> Outcome | None:
        """How the deal ended, or ``None`` while it goes on."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self._outcome is not None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, passes left out: what a game record lists."""
        return tuple(self._history)

    # Every method that takes a seat checks it: an int 0–2 passes the first, cheap test;
    # anything else (another seat number, a bool, a float) raises KowahError in _seat.

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards, sorted. (Hidden information: see :meth:`observation`.)"""
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        return tuple(self._hands[seat])

    def wait(self, seat: int) -> Card | None:
        """The seat's public wait if it has declared, else ``None``."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        return self._declared[seat]

    def discards(self, seat: int) -> tuple[Card, ...]:
        """The cards lying in the seat's discards (a taken card leaves them), oldest first."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        return tuple(self._discards[seat])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, next card first. (Hidden information.)"""
        return self.deck[self._stock:]

    def to_move(self) -> tuple[int, ...]:
        """The seats that have a legal action now: a seat that may declare comes first.

        Two seats are listed right after a discard that leaves the discarding seat ready
        (R11): it may declare (or pass), and the next seat may already draw or take. That
        action closes the declaring window for good, so a front end that lets the next seat
        act should first ask the first seat, or apply its pass.

        >>> Deal.shuffled(seed=3).to_move()
        (1,)
        """
        if self._outcome is not None:
            return ()
        if self._window is not None:
            return (self._window, self._turn)
        return (self._turn,)

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every legal action of *seat* now; empty for a seat that cannot act.

        A *seat* other than 0, 1 or 2 raises :class:`~kowah.KowahError`.

        >>> deal = Deal.shuffled(seed=3)
        >>> deal.legal_actions(1), deal.legal_actions(0)
        ((Action.draw(1),), ())
        >>> deal.legal_actions(3)
        Traceback (most recent call last):
        ...
        kowah.errors.KowahError: there is no seat 3
        """
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        if self._outcome is not None:
            return ()
        actions: list[Action] = []
        if seat == self._window:
            actions += [_DECLARE[seat][wait] for wait in sorted(self._waits(seat))]
            actions.append(_PASS[seat])
        if seat != self._turn:
            return tuple(actions)
        if self._phase is Phase.START:
            actions.append(_DRAW[seat])
            if self._latest is not None and self._declared[seat] is None:
                actions.append(_TAKE[seat])
        elif self._declared[seat] is not None:
            actions.append(_DISCARD[seat][self._drawn])  # type: ignore[index]
        else:
            discards = _DISCARD[seat]
            taken = self._taken
            actions += [discards[card] for card in dict.fromkeys(self._hands[seat]) if card is not taken]
        return tuple(actions)

    def is_legal(self, action: Action) -> bool:
        """Whether *action* is legal now (an object that is no Action raises ActionTypeError)."""
        _check_action(action)
        return self._illegal(action) is None

    def _waits(self, seat: int) -> frozenset[Card]:
        return waits(self._hands[seat], self.pack)

    def _illegal(self, action: Action) -> tuple[str, dict[str, object]] | None:
        """Why *action* is illegal (a reason template and its fields), or ``None``."""
        seat, kind, card = action.seat, action.kind, action.card
        if self._outcome is not None:
            return N_("error", "the deal is over"), {}
        if type(seat) is not int or not 0 <= seat < SEATS:  # a bool or a float is no seat either
            return N_("error", "there is no seat {seat}"), {}
        if kind in _CARDLESS:
            if card is not None:
                return N_("error", "a draw, take or pass names no card, not {value!r}"), {"value": card}
        elif card is not None and type(card) is not Card:
            # A discard or a wait is a Card, not its code or index.
            return (N_("error", "{value!r} is not a card: a discard or a wait is a Card, such as "
                                "Card.parse('5c')"), {"value": card})
        if kind is ActionKind.DECLARE or kind is ActionKind.PASS:
            if self._declared[seat] is not None:
                return N_("error", "the seat has already declared"), {}
            if seat != self._window:
                return N_("error", "a seat may declare only right after its own discard, "
                                   "with a ready hand"), {}
            if kind is ActionKind.DECLARE:
                options = self._waits(seat)
                if card not in options:
                    return (N_("error", "{card} is not a wait of this hand (waits: {waits})"),
                            {"card": card, "waits": format_cards(sorted(options))})
            return None
        if seat != self._turn:
            return N_("error", "it is seat {turn}'s turn"), {"turn": self._turn}
        if kind is ActionKind.DRAW or kind is ActionKind.TAKE:
            if self._phase is not Phase.START:
                return N_("error", "it has drawn or taken already and must discard"), {}
            if kind is ActionKind.TAKE:
                if self._declared[seat] is not None:
                    return N_("error", "a declared seat draws from the stock; it may not take "
                                       "discards"), {}
                if not self._history:
                    return N_("error", "the opening turn must draw from the stock"), {}
                if self._latest is None:
                    return N_("error", "there is no discard to take"), {}
            return None
        # DISCARD
        if self._phase is not Phase.DISCARD:
            return N_("error", "draw from the stock or take the latest discard first"), {}
        if self._declared[seat] is not None and card is not self._drawn:
            return (N_("error", "a locked hand must discard the card it drew, {drawn}"),
                    {"drawn": self._drawn})
        if card not in self._hands[seat]:
            return N_("error", "{card} is not in the hand"), {"card": card}
        if card is self._taken:
            return N_("error", "a card taken from the discards may not be discarded in the "
                               "same turn"), {}
        return None

    # -- changing the state -----------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply *action*, with any claim it triggers (R14) and the end of the deal it brings.

        An illegal action raises :class:`~kowah.IllegalActionError` naming the seat, the
        action and the reason, and leaves the deal exactly as it was. An object that is not an
        :class:`Action` raises :class:`ActionTypeError`.
        """
        _check_action(action)
        problem = self._illegal(action)
        if problem is not None:
            template, params = problem
            raise IllegalActionError(template, seat=action.seat, action=str(action), **params)
        kind, seat = action.kind, action.seat
        if kind is ActionKind.PASS:
            self._window = None
            return
        self._history.append(action)
        if kind is ActionKind.DECLARE:
            self._declare(seat, action.card)  # type: ignore[arg-type]
        elif kind is ActionKind.DISCARD:
            self._discard(seat, action.card)  # type: ignore[arg-type]
        elif kind is ActionKind.DRAW:
            self._window = None
            self._draw(seat)
        else:
            self._window = None
            self._take(seat)

    def _draw(self, seat: int) -> None:
        card = self.deck[self._stock]
        self._stock += 1
        bisect.insort(self._hands[seat], card)
        public = any(wait is not None for wait in self._declared)
        if public:  # R13: every seat sees the card, so it is known to be in this hand
            self._public_draws.append((seat, card))
            self._known[seat].append(card)
        self.events.append(Event("draw", seat, card, public))
        self._drawn = card
        self._taken = None
        self._phase = Phase.DISCARD
        if self._declared[seat] is card:  # R12: a self-draw comes before any claim
            self._end(Outcome.win(seat, "self-draw", card))
        elif not self._claim(seat, card, "draw-claim") and self._stock == len(self.deck):
            self._end(Outcome.drawn())  # R16

    def _take(self, seat: int) -> None:
        card = self._latest
        assert card is not None
        self._latest = None
        self._discards[(seat - 1) % SEATS].pop()  # the latest discard is the previous seat's
        bisect.insort(self._hands[seat], card)
        self._known[seat].append(card)
        self.events.append(Event("take", seat, card))
        self._drawn = None
        self._taken = card
        self._phase = Phase.DISCARD

    def _discard(self, seat: int, card: Card) -> None:
        self._hands[seat].remove(card)
        if card in self._known[seat]:
            self._known[seat].remove(card)
        self._discards[seat].append(card)
        self._latest = card
        self.events.append(Event("discard", seat, card))
        self._drawn = self._taken = None
        if self._claim(seat, card, "discard"):
            return
        self._turn = (seat + 1) % SEATS
        self._phase = Phase.START
        hand = self._hands[seat]
        if self._declared[seat] is None and tuple(hand) in _table(self.pack):
            self._window = seat  # R11: it may declare now

    def _declare(self, seat: int, wait: Card) -> None:
        self._declared[seat] = wait
        # The exposed pair: two copies are known, counting a copy already known from a take.
        self._known[seat] += [wait] * max(0, 2 - self._known[seat].count(wait))
        self._window = None
        self.events.append(Event("declare", seat, wait))

    def _claim(self, seat: int, card: Card, by: str) -> bool:
        """R14: a declared seat waiting for *card* wins at once, first in rotation from *seat*."""
        for offset in (1, 2):
            other = (seat + offset) % SEATS
            if self._declared[other] is card:
                self._end(Outcome.win(other, by, card))
                return True
        return False

    def _end(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._phase = Phase.OVER
        self._window = None
        if outcome.result == "win":
            self.events.append(Event("win", outcome.winner, outcome.card))
        else:
            self.events.append(Event("drawn", None))

    # -- views ------------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What *seat* may know now (see :class:`Observation`).

        >>> deal = Deal.shuffled(seed=3)
        >>> obs = deal.observation(0)
        >>> obs.hand == deal.hand(0), obs.stock_count, obs.hand_sizes
        (True, 96, (8, 8, 8))
        """
        if type(seat) is not int or not 0 <= seat < SEATS:
            seat = _seat(seat)
        events = tuple(
            event if event.public or event.seat == seat else attrs.evolve(event, card=None)
            for event in self.events
        )
        return Observation(
            seat=seat,
            hand=tuple(self._hands[seat]),
            turn=self._turn,
            phase=self._phase,
            first=self.first,
            legal_actions=self.legal_actions(seat),
            stock_count=self.stock_count,
            hand_sizes=tuple(len(hand) for hand in self._hands),
            latest_discard=self._latest,
            discards=tuple(tuple(pile) for pile in self._discards),
            waits=tuple(self._declared),
            known=tuple(tuple(sorted(cards)) for cards in self._known),
            public_draws=tuple(self._public_draws),
            events=events,
            outcome=self._outcome,
        )

    def copy(self) -> Deal:
        """An independent copy of the deal (for search: it shares no mutable state)."""
        other = Deal.__new__(Deal)
        other.pack, other.deck, other.first = self.pack, self.deck, self.first
        other._hands = [list(hand) for hand in self._hands]
        other._stock, other._turn, other._phase = self._stock, self._turn, self._phase
        other._window, other._latest = self._window, self._latest
        other._drawn, other._taken = self._drawn, self._taken
        other._discards = [list(pile) for pile in self._discards]
        other._declared = list(self._declared)
        other._known = [list(cards) for cards in self._known]
        other._public_draws = list(self._public_draws)
        other._outcome = self._outcome
        other._history = list(self._history)
        other.events = list(self.events)
        return other

    def where(self) -> dict[str, list[Card]]:
        """Every card of the deck by place: each seat's hand, each seat's discards, the stock.

        A check of the deal's bookkeeping: every card is in exactly one place.
        """
        places: dict[str, list[Card]] = {}
        for seat in range(SEATS):
            places[f"hand {seat}"] = list(self._hands[seat])
            places[f"discards {seat}"] = list(self._discards[seat])
        places["stock"] = list(self.stock)
        return places

    def __repr__(self) -> str:
        state = "over" if self._outcome else f"turn {self._turn} {self._phase.value}"
        return f"<Deal first={self.first} stock={self.stock_count} {state}>"



def random_playout(deal: Deal, rng: random.Random) -> tuple[Outcome, list[Action]]:
    """Finish a copy of *deal* with uniformly random legal actions; return the outcome and actions.

    The fast path for rollouts and simulations: it follows the rules exactly as :meth:`Deal.apply`
    does and makes the choices ``Deal.legal_actions(deal.to_move()[0])[int(rng.random() * n)]``
    would, on plain lists, without checks, events or observations. *deal* itself is not changed.

    >>> deal = Deal.shuffled(seed=11)
    >>> outcome, actions = random_playout(deal, random.Random(11))
    >>> replayed = deal.copy()
    >>> for action in actions:
    ...     replayed.apply(action)
    >>> replayed.outcome == outcome
    True
    """
    if deal._outcome is not None:
        return deal._outcome, []
    random_ = rng.random
    insort = bisect.insort
    after = (1, 2, 0)  # the next seat in rotation
    deck, end = deal.deck, len(deal.deck)
    hands = [list(hand) for hand in deal._hands]
    piles = [list(pile) for pile in deal._discards]
    declared = list(deal._declared)
    table = _table(deal.pack)
    stock, turn, window = deal._stock, deal._turn, deal._window
    latest, drawn, taken = deal._latest, deal._drawn, deal._taken
    opening = not deal._history
    discarding = deal._phase is Phase.DISCARD
    claims = any(wait is not None for wait in declared)  # only declared seats claim (R14)
    actions: list[Action] = []
    record = actions.append
    while True:
        if window is not None:  # R11: the discarder may declare first
            options = sorted(waits(hands[window], deal.pack))
            choice = int(random_() * (len(options) + 1))
            if choice < len(options):
                wait = options[choice]
                record(_DECLARE[window][wait])
                declared[window] = wait
                claims = True
            window = None
        seat = turn
        hand = hands[seat]
        locked = declared[seat] is not None
        if not discarding:
            if latest is not None and not locked and not opening and random_() >= 0.5:
                record(_TAKE[seat])
                taken, drawn = latest, None
                piles[(seat + 2) % SEATS].pop()  # the latest discard is the previous seat's
                insort(hand, latest)
                latest = None
            else:
                if latest is None or locked or opening:
                    random_()  # the choice among one legal action
                record(_DRAW[seat])
                opening = False
                card = deck[stock]
                stock += 1
                insort(hand, card)
                drawn, taken = card, None
                if claims:
                    if declared[seat] is card:
                        return Outcome.win(seat, "self-draw", card), actions
                    for other in (after[seat], after[after[seat]]):
                        if declared[other] is card:
                            return Outcome.win(other, "draw-claim", card), actions
                if stock == end:
                    return Outcome.drawn(), actions
        discarding = False
        if locked:
            random_()
            card = drawn  # type: ignore[assignment]
        else:
            options = list(dict.fromkeys(hand))
            if taken is not None:
                options.remove(taken)
            card = options[int(random_() * len(options))]
        record(_DISCARD[seat][card])
        hand.remove(card)
        piles[seat].append(card)
        latest = card
        drawn = taken = None
        if claims:
            for other in (after[seat], after[after[seat]]):
                if declared[other] is card:
                    return Outcome.win(other, "discard", card), actions
        turn = after[seat]
        if not locked and tuple(hand) in table:
            window = seat
