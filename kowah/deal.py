"""A complete three-seat deal: the one state object, checked, with events and observations (R9–R16).

>>> from kowah import Action, Deal
>>> deal = Deal.shuffled(seed=7)
>>> deal.turn == deal.first, deal.stock_count
(True, 96)
>>> seat = deal.turn
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
from collections.abc import Iterable, Sequence

import attrs

from kowah.actions import SEATS, Action, ActionKind, Refusal
from kowah.cards import Card, Pack
from kowah.errors import (
    N_,
    ActionTypeError,
    DeckError,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    shorten,
)
from kowah.events import Event, EventKind, Outcome, Phase, Result
from kowah.playout import Playout, Scalars
from kowah.rules import KOWAH_RULES, Rules, deck_problem

__all__ = ["SEATS", "Deal", "Observation"]

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


def _deck_error(deck: Sequence[Card], pack: Pack) -> DeckError:
    """The DeckError that says what keeps *deck* from being an order of *pack*."""
    problem = deck_problem(deck, pack)
    kind, position, card, count = problem or ("short", 0, pack.kinds[0], 0)
    if kind == "absent":
        return DeckError(N_("error", "card {position} of the deck, {card}, is not in the {pack}"),
                         position=position, card=card, pack=pack.name)
    if kind == "extra":
        return DeckError(
            N_("error", "the deck holds {count} copies of {card}, but the {pack} has {copies} "
                        "(first extra copy: card {position})"),
            count=count, card=card, pack=pack.name, copies=pack.copies(card), position=position,
        )
    return DeckError(
        N_("error", "the deck has {count} cards, but the {pack} has {expected}: a copy of {card} "
                    "is missing"),
        count=len(deck), pack=pack.name, expected=len(pack), card=card,
    )


def _check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise KowahTypeError(N_("error", "rules must be a Rules value, such as Rules(pack=MONEY_PACK), "
                                            "not {value} of type {type}"),
                             value=shorten(rules), type=type(rules).__name__)
    return rules


@attrs.frozen
class Observation:
    """Everything one seat may know at a moment of the deal, and nothing it may not.

    The other seats' concealed cards and the order of the stock are never in it; another
    seat's stock draw shows its card only once a seat has declared (R13). Per-seat fields are
    tuples indexed by seat.
    """

    #: The seat observing.
    seat: int
    #: Its cards, sorted.
    hand: tuple[Card, ...]
    #: The seat to draw or take, or to discard (see :attr:`Deal.turn`).
    turn: int
    #: Where that seat stands.
    phase: Phase
    #: The seat that opened the deal.
    first: int
    #: This seat's legal actions now (:meth:`Deal.legal_actions`).
    legal_actions: tuple[Action, ...]
    #: Cards left in the stock.
    stock_count: int
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    #: The latest discard while it may be taken, else ``None`` (:attr:`Deal.latest_discard`).
    latest_discard: Card | None
    #: The cards lying in each seat's discards, oldest first.
    discards: tuple[tuple[Card, ...], ...]
    #: Each seat's public wait once it has declared (its exposed pair is two of this card).
    declared_waits: tuple[Card | None, ...]
    #: Cards known to be in each seat's hand: exposed pairs, cards taken from the discards and
    #: public stock draws (R13) not discarded since.
    known: tuple[tuple[Card, ...], ...]
    #: Stock draws shown to all seats after a declaration (R13), as (seat, card).
    public_draws: tuple[tuple[int, Card], ...]
    #: The deal's events as this seat saw them (others' hidden draws without their card).
    events: tuple[Event, ...]
    #: How the deal ended, or ``None``.
    outcome: Outcome | None
    #: The rules played by.
    rules: Rules = KOWAH_RULES

    def seen(self) -> tuple[Card, ...]:
        """The cards this seat sees outside its hand: every discard and the other seats' known
        cards. This is the *seen* argument of :func:`~kowah.hands.improvements` and
        :func:`~kowah.hands.discard_options`.

        >>> from kowah.hands import discard_options
        >>> deal = Deal.shuffled(seed=0)
        >>> seat = deal.turn
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


class Deal:
    """The state of one deal, changed only by :meth:`apply` (which checks every action) and
    :meth:`undo`.

    Create it with :meth:`shuffled` (from a seed) or from an explicit deck order and first
    seat, as a game record does. ``deck`` lists the cards in the order they leave the pack:
    seat 0 gets the first eight, seat 1 the next, seat 2 the next, the rest is the stock.

    Who acts: :attr:`turn` is the seat whose turn it is (to draw or take, then discard);
    :meth:`to_move` adds, first, a seat that has just discarded into a ready hand and may
    still declare (R11). :meth:`legal_actions` without a seat gives all their actions.
    """

    __slots__ = ("_cache", "_deck", "_events", "_first", "_history", "_known", "_public_draws",
                 "_rules", "_state", "_undo", "_version", "_views")

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
            raise _deck_error(deck, pack)
        if type(first) is not int or not 0 <= first < SEATS:
            raise DeckError(N_("error", "the first seat must be 0, 1 or 2, not {first!r}"), first=first)
        self._rules = rules
        self._deck: tuple[Card, ...] = deck
        self._first = first
        self._state = Playout.start(deck, first, rules)
        self._history: list[Action] = []
        self._events: list[Event] = []
        self._views: list[list[Event]] = [[] for _ in range(SEATS)]  # the events as each seat saw them
        self._known: list[list[Card]] = [[] for _ in range(SEATS)]
        self._public_draws: list[tuple[int, Card]] = []
        # Per action applied: the action, the Playout's scalars before it, the number of events
        # it logged, and what restores the known cards (see undo).
        self._undo: list[tuple[Action, Scalars, int, int]] = []
        self._version = 0  # counts changes, for the observation cache
        self._cache: list[tuple[int, Observation] | None] = [None] * SEATS

    @classmethod
    def shuffled(cls, seed: int | random.Random | None = None, rules: Rules = KOWAH_RULES, *,
                 first: int | None = None) -> Deal:
        """A deal from a shuffled pack and a random first seat, using ``random.Random(seed)`` (R9).

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
        elif seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
            rng = random.Random(seed)
        else:
            raise KowahTypeError(N_("error", "a seed must be an int or a random.Random, not {value} of "
                                             "type {type}"), value=shorten(seed), type=type(seed).__name__)
        if first is not None and (type(first) is not int or not 0 <= first < SEATS):
            raise DeckError(N_("error", "the first seat must be 0, 1 or 2, not {first!r}"), first=first)
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
        """The rules played by (:class:`~kowah.rules.Rules`)."""
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
        """The seat's cards, sorted. (Hidden information: see :meth:`observation`.)"""
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
    def stock(self) -> tuple[Card, ...]:
        """The stock, next card first. (Hidden information.)"""
        return self._deck[self._state.stock:]

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
        (<Reason.OPENING_DRAW: 'opening-draw'>, 'the opening turn must draw from the stock')
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
        self._version += 1
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
        self._version += 1
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
        if cached is not None and cached[0] == self._version:
            return cached[1]
        state = self._state
        hands, piles, known = state.hands, state.piles, self._known
        observation = Observation(
            seat=seat,
            hand=tuple(hands[seat]),
            turn=state.turn,
            phase=state.phase,
            first=self._first,
            legal_actions=state.legal_actions(seat),
            stock_count=len(self._deck) - state.stock,
            hand_sizes=(len(hands[0]), len(hands[1]), len(hands[2])),
            latest_discard=state.latest,
            discards=(tuple(piles[0]), tuple(piles[1]), tuple(piles[2])),
            declared_waits=tuple(state.declared),
            known=(tuple(sorted(known[0])), tuple(sorted(known[1])), tuple(sorted(known[2]))),
            public_draws=tuple(self._public_draws),
            events=tuple(self._views[seat]),
            outcome=state.outcome,
            rules=self._rules,
        )
        self._cache[seat] = (self._version, observation)
        return observation

    def playout(self) -> Playout:
        """The deal's state as a :class:`~kowah.playout.Playout`, a copy for fast unchecked play."""
        return self._state.copy()

    def copy(self) -> Deal:
        """An independent copy of the deal, undo included (for search: it shares no mutable state)."""
        other = Deal.__new__(Deal)
        other._rules, other._deck, other._first = self._rules, self._deck, self._first
        other._state = self._state.copy()
        other._history = list(self._history)
        other._events = list(self._events)
        other._views = [list(view) for view in self._views]
        other._known = [list(cards) for cards in self._known]
        other._public_draws = list(self._public_draws)
        other._undo = list(self._undo)
        other._version = 0
        other._cache = [None] * SEATS
        return other

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
        state = "over" if self.is_over else f"turn {self.turn} {self.phase.value}"
        return f"<Deal first={self._first} stock={self.stock_count} {state}>"

