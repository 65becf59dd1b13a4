"""The rules in one place: a deal's bare state, its legality check and its unchecked step.

:class:`Playout` is the state of a deal on plain lists, with the one implementation of the
rules R9–R16: :meth:`Playout.refusal` says whether an action is legal, and the steps
(:meth:`~Playout.draw`, :meth:`~Playout.take`, :meth:`~Playout.discard`,
:meth:`~Playout.declare`, :meth:`~Playout.pass_`) apply one *without checking it*.
:class:`~kowah.deal.Deal` is a Playout with the checks, the events, the observations and undo
on top; fast rollouts (:func:`random_playout`, an AI's search) use a Playout directly, from
:meth:`Deal.playout() <kowah.deal.Deal.playout>`, and must only make legal steps.

>>> import random
>>> from kowah import Deal
>>> deal = Deal.shuffled(seed=4)
>>> playout = deal.playout()
>>> seat = playout.turn
>>> playout.draw(seat)  # unchecked: the caller knows it is legal
>>> playout.discard(seat, playout.drawn)
>>> playout.turn == (seat + 1) % 3, deal.stock_count - playout.stock_count
(True, 1)
>>> outcome, actions = random_playout(deal, random.Random(4))
>>> outcome.result in ("win", "drawn")
True
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from kowah._tables import ready_table
from kowah.actions import DECLARES, DISCARDS, DRAWS, PASSES, TAKES, Action, ActionKind, Reason
from kowah.cards import Card, Pack, format_cards
from kowah.errors import N_, KowahTypeError, shorten
from kowah.events import Outcome, Phase, WinBy
from kowah.hands import HAND_SIZE, is_ready, waits
from kowah.rules import SEATS, Rules

if TYPE_CHECKING:
    from kowah.deal import Deal

__all__ = ["Playout", "ReadyHands", "random_playout"]

_AFTER = (1, 2, 0)  # the next seat in rotation (R9)
_BEFORE = (2, 0, 1)  # the previous seat
_insort = bisect.insort
_STARTING, _DISCARDING = Phase.START, Phase.DISCARD
_CLAIMANTS = ((1, 2), (2, 0), (0, 1))  # the other seats in rotation order from each seat (R14)
#: A :meth:`Playout.scalars`: claims, stock, turn, phase, window, latest, drawn, taken, outcome.
Scalars = tuple[bool, int, int, Phase, int | None, Card | None, Card | None, Card | None, Outcome | None]


_Waits = frozenset[Card] | tuple[()]


class ReadyHands(Protocol):
    """What :attr:`Playout.table` offers: ``hand in table`` and ``table.get(hand, default)``."""

    def __contains__(self, hand: object, /) -> bool: ...
    def get(self, hand: tuple[Card, ...], default: _Waits, /) -> _Waits: ...


class _Checker:
    """The ready hands of a pack through :func:`kowah.hands.is_ready` and
    :func:`~kowah.hands.waits`: nothing to build before the first deal."""

    __slots__ = ("pack",)

    def __init__(self, pack: Pack) -> None:
        self.pack = pack

    def __contains__(self, hand: object) -> bool:
        return is_ready(hand, self.pack)  # type: ignore[arg-type]  # a hand the deal holds

    def get(self, hand: tuple[Card, ...], default: _Waits) -> _Waits:
        return waits(hand, self.pack) or default


class Playout:
    """The state of one deal on plain lists, and the rules' steps, unchecked.

    Build it with :meth:`Deal.playout() <kowah.deal.Deal.playout>` (or :meth:`start`). Its
    attributes are the state itself, for fast readers: change them only through the steps.
    A step assumes its action is legal (check with :meth:`refusal` or take it from
    :meth:`legal_actions`); an illegal step leaves a state no deal can reach.
    """

    __slots__ = (
        "claims", "deck", "declared", "drawn", "hands", "latest", "outcome", "phase",
        "piles", "rules", "stock", "table", "taken", "turn", "window",
    )

    #: The rules played by.
    rules: Rules
    #: The ready hands of the rules' pack (R6), looked up by the hand as a sorted tuple: ``in``
    #: tells a ready hand, ``get`` gives its waits (R8). For a Deal, :func:`kowah.hands.is_ready`
    #: and :func:`~kowah.hands.waits`, which cost nothing to start; where many deals are played
    #: (:func:`random_playout`), the dict of them all.
    table: ReadyHands
    #: The deck order (R9): three hands of eight, then the stock.
    deck: tuple[Card, ...]
    #: Each seat's cards, sorted.
    hands: list[list[Card]]
    #: The cards lying in each seat's discards, oldest first (a taken card leaves them).
    piles: list[list[Card]]
    #: Each seat's public wait once it has declared (R11).
    declared: list[Card | None]
    #: Whether a seat has declared: stock draws are public and claims possible (R13, R14).
    claims: bool
    #: The index in :attr:`deck` of the next stock card.
    stock: int
    #: The seat to draw or take, or to discard.
    turn: int
    #: Whether that seat must draw or take, or discard; or the deal is over.
    phase: Phase
    #: The seat that has just discarded with a ready hand and may still declare (R11).
    window: int | None
    #: The latest discard while it may be taken (R10): never by a declared seat (R12).
    latest: Card | None
    #: The card drawn this turn, if the seat to move has drawn.
    drawn: Card | None
    #: The card taken from the discards this turn, if the seat to move has taken (R10).
    taken: Card | None
    #: How the deal ended, or ``None``.
    outcome: Outcome | None

    @classmethod
    def start(cls, deck: tuple[Card, ...], first: int, rules: Rules) -> Playout:
        """The state before the first action: *deck* must be an order of ``rules.pack``."""
        self = cls.__new__(cls)
        self.rules, self.deck = rules, deck
        self.table = _Checker(rules.pack)
        self.hands = [sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(SEATS)]
        self.piles = [[] for _ in range(SEATS)]
        self.declared = [None] * SEATS
        self.claims = False
        self.stock = SEATS * HAND_SIZE
        self.turn, self.phase, self.window = first, Phase.START, None
        self.latest = self.drawn = self.taken = None
        self.outcome = None
        return self

    def copy(self) -> Playout:
        """An independent copy (it shares no list)."""
        other = Playout.__new__(Playout)
        other.rules, other.deck, other.table = self.rules, self.deck, self.table
        other.hands = [list(hand) for hand in self.hands]
        other.piles = [list(pile) for pile in self.piles]
        other.declared = list(self.declared)
        other.claims, other.stock, other.turn, other.phase = self.claims, self.stock, self.turn, self.phase
        other.window, other.latest = self.window, self.latest
        other.drawn, other.taken = self.drawn, self.taken
        other.outcome = self.outcome
        return other

    def scalars(self) -> Scalars:
        """The state but the lists, as one value (for :meth:`undo`)."""
        return (self.claims, self.stock, self.turn, self.phase, self.window, self.latest,
                self.drawn, self.taken, self.outcome)

    def undo(self, action: Action, before: Scalars) -> None:
        """Take back the step of *action* (a declaration naming its wait), which was made from
        a state with the :meth:`scalars` *before*: the lists and the scalars are as they were.

        >>> from kowah import Action, Deal
        >>> playout = Deal.shuffled(seed=2).playout()
        >>> seat, before, hand = playout.turn, playout.scalars(), list(playout.hands[playout.turn])
        >>> playout.step(Action.draw(seat))
        >>> playout.undo(Action.draw(seat), before)
        >>> playout.scalars() == before and playout.hands[seat] == hand
        True
        """
        seat, kind = action.seat, action.kind
        if kind is ActionKind.DRAW:
            self.hands[seat].remove(self.deck[before[1]])  # the card it drew
        elif kind is ActionKind.TAKE:
            card: Card = before[5]  # type: ignore[assignment]  # the latest discard it took
            self.hands[seat].remove(card)
            self.piles[_BEFORE[seat]].append(card)
        elif kind is ActionKind.DISCARD:
            self.piles[seat].pop()
            _insort(self.hands[seat], action.card)  # type: ignore[misc]
        elif kind is ActionKind.DECLARE:
            self.declared[seat] = None
        (self.claims, self.stock, self.turn, self.phase, self.window, self.latest,
         self.drawn, self.taken, self.outcome) = before

    @property
    def opening(self) -> bool:
        """Whether no action has been taken yet: the opening turn must draw (R10), so the stock
        is whole exactly until then."""
        return self.stock == SEATS * HAND_SIZE

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self.deck) - self.stock

    def waits(self, seat: int) -> tuple[Card, ...]:
        """The waits *seat*'s hand offers (R8), sorted; empty if it is not ready."""
        return tuple(sorted(self.table.get(tuple(self.hands[seat]), ())))

    def to_move(self) -> tuple[int, ...]:
        """The seats with a legal action: the seat that may declare first, then :attr:`turn`."""
        if self.outcome is not None:
            return ()
        if self.window is not None:
            return (self.window, self.turn)
        return (self.turn,)

    # -- the legality check ---------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every legal action of *seat* (an int 0–2, unchecked) now."""
        if self.outcome is not None:
            return ()
        actions: list[Action] = []
        if seat == self.window:
            actions += [DECLARES[seat][wait] for wait in self.waits(seat)]
            actions.append(PASSES[seat])
        if seat != self.turn:
            return tuple(actions)
        if self.phase is Phase.START:
            actions.append(DRAWS[seat])
            if self.latest is not None:
                actions.append(TAKES[seat])
        elif self.declared[seat] is not None:
            actions.append(DISCARDS[seat][self.drawn])  # type: ignore[index]
        else:
            discards = DISCARDS[seat]
            taken = self.taken
            actions += [discards[card] for card in dict.fromkeys(self.hands[seat]) if card is not taken]
        return tuple(actions)

    def refusal(self, action: Action) -> tuple[Reason, dict[str, object]] | None:
        """Why *action* (a valid :class:`~kowah.actions.Action`) is illegal now, with the
        reason's fields; ``None`` if it is legal."""
        seat, kind, card = action.seat, action.kind, action.card
        if self.outcome is not None:
            return Reason.DEAL_OVER, {}
        if kind is ActionKind.DECLARE or kind is ActionKind.PASS:
            if self.declared[seat] is not None:
                return Reason.ALREADY_DECLARED, {}
            if seat != self.window:
                return Reason.NOT_DECLARING, {}
            if kind is ActionKind.DECLARE:
                options = self.waits(seat)
                if card is None and len(options) > 1:  # R8: the wait must be named
                    return Reason.SEVERAL_WAITS, {"waits": format_cards(options)}
                if card is not None and card not in options:
                    return Reason.NOT_A_WAIT, {"card": card, "waits": format_cards(options)}
            return None
        if seat != self.turn:
            return Reason.NOT_YOUR_TURN, {"turn": self.turn}
        if kind is ActionKind.DRAW or kind is ActionKind.TAKE:
            if self.phase is not Phase.START:
                return Reason.MUST_DISCARD, {}
            if kind is ActionKind.TAKE:
                if self.declared[seat] is not None:
                    return Reason.LOCKED_TAKE, {}  # R12
                if self.opening:
                    return Reason.OPENING_DRAW, {}  # R10
                if self.latest is None:
                    return Reason.NO_DISCARD, {}
            return None
        # DISCARD
        if self.phase is not Phase.DISCARD:
            return Reason.DRAW_FIRST, {}
        if self.declared[seat] is not None and card is not self.drawn:
            return Reason.LOCKED_DISCARD, {"drawn": self.drawn}  # R12
        if card not in self.hands[seat]:
            return Reason.NOT_IN_HAND, {"card": card}
        if card is self.taken:
            return Reason.TAKEN_CARD, {}  # R10
        return None

    # -- the unchecked steps --------------------------------------------------------------

    def step(self, action: Action) -> None:
        """Apply a legal *action* (a declaration naming its wait), unchecked."""
        kind, seat = action.kind, action.seat
        if kind is ActionKind.DRAW:
            self.draw(seat)
        elif kind is ActionKind.DISCARD:
            self.discard(seat, action.card)  # type: ignore[arg-type]
        elif kind is ActionKind.TAKE:
            self.take(seat)
        elif kind is ActionKind.DECLARE:
            self.declare(seat, action.card)  # type: ignore[arg-type]
        else:
            self.window = None

    # The steps keep to few attribute writes: fast playouts run them a few hundred times a deal.
    # Each returns the outcome when it ends the deal, else None.

    def draw(self, seat: int) -> Outcome | None:
        """*seat* draws the top stock card (then :attr:`drawn`); a win or the end may follow."""
        card = self.deck[self.stock]
        self.stock += 1
        _insort(self.hands[seat], card)
        self.window = self.latest = None  # taken is None at the start of a turn
        self.drawn = card
        self.phase = _DISCARDING
        if self.claims:
            declared = self.declared
            if declared[seat] is card:  # R12: a self-draw comes before any claim
                return self._end(Outcome.win(seat, WinBy.SELF_DRAW, card))
            for other in _CLAIMANTS[seat]:
                if declared[other] is card:  # R14
                    return self._end(Outcome.win(other, WinBy.DRAW_CLAIM, card))
        if self.stock == len(self.deck):
            return self._end(Outcome.drawn())  # R16
        return None

    def take(self, seat: int) -> None:
        """*seat* takes the latest discard (then :attr:`taken`)."""
        card: Card = self.latest  # type: ignore[assignment]  # a legal take has one
        self.piles[_BEFORE[seat]].pop()  # the latest discard is the previous seat's
        _insort(self.hands[seat], card)
        self.window = self.latest = None  # drawn is None at the start of a turn
        self.taken = card
        self.phase = _DISCARDING

    def discard(self, seat: int, card: Card) -> Outcome | None:
        """*seat* discards *card*: a claim may end the deal (R14), or the turn passes."""
        hand = self.hands[seat]
        hand.remove(card)
        self.piles[seat].append(card)
        self.drawn = self.taken = None
        if self.claims:
            declared = self.declared
            for other in _CLAIMANTS[seat]:
                if declared[other] is card:
                    return self._end(Outcome.win(other, WinBy.DISCARD, card))
            after = _AFTER[seat]
            self.latest = card if declared[after] is None else None  # R12: a locked seat never takes
            if declared[seat] is None and tuple(hand) in self.table:
                self.window = seat  # R11: it may declare now
        else:  # nobody has declared: the next seat may take, a ready hand may declare
            after = _AFTER[seat]
            self.latest = card
            if tuple(hand) in self.table:
                self.window = seat  # R11
        self.turn = after
        self.phase = _STARTING
        return None

    def declare(self, seat: int, wait: Card) -> None:
        """*seat* declares checki with *wait* (one of :meth:`waits`)."""
        self.declared[seat] = wait
        self.claims = True
        self.window = None

    def pass_(self, seat: int) -> None:
        """*seat* declines to declare (R11)."""
        self.window = None

    def _end(self, outcome: Outcome) -> Outcome:
        self.outcome = outcome
        self.phase = Phase.OVER
        self.window = self.latest = None
        return outcome


def random_playout(deal: Deal | Playout, rng: random.Random) -> tuple[Outcome, list[Action]]:
    """Finish a copy of *deal* (a :class:`~kowah.deal.Deal` or a :class:`Playout`) with uniformly
    random legal actions; return the outcome and the actions.

    It makes the choices ``legal_actions(to_move()[0])[int(rng.random() * n)]`` would, through
    the same rules as :meth:`Deal.apply <kowah.deal.Deal.apply>` (the :class:`Playout` steps),
    without checks, events or observations. *deal* itself is not changed.

    >>> from kowah import Deal
    >>> deal = Deal.shuffled(seed=11)
    >>> outcome, actions = random_playout(deal, random.Random(11))
    >>> replayed = deal.copy()
    >>> for action in actions:
    ...     _ = replayed.apply(action)
    >>> replayed.outcome == outcome
    True
    """
    from kowah.deal import Deal  # the deal module builds on this one

    if isinstance(deal, Playout):
        state = deal.copy()
    elif isinstance(deal, Deal):
        state = deal.playout()
    else:
        raise KowahTypeError(N_("error", "expected a Deal or a Playout, not {value} of type {type}"),
                             value=shorten(deal), type=type(deal).__name__)
    if not isinstance(rng, random.Random):
        raise KowahTypeError(N_("error", "expected a random.Random, not {value} of type {type}"),
                             value=shorten(rng), type=type(rng).__name__)
    if state.outcome is not None:
        return state.outcome, []
    # Many playouts run one after the other: look ready hands up in the dict of them all (built
    # once per process), rather than in the index that Deal starts with.
    state.table = _ready_dict(state.rules.pack)
    random_ = rng.random
    hands, declared = state.hands, state.declared
    draw, take, discard = state.draw, state.take, state.discard
    draws, takes, discards, fromkeys = DRAWS, TAKES, DISCARDS, dict.fromkeys
    actions: list[Action] = []
    record = actions.append
    ended: Outcome | None
    if state.phase is _DISCARDING:  # the seat to move has drawn or taken already
        seat = state.turn
        card = _random_discard(state, seat, random_)
        record(DISCARDS[seat][card])
        ended = discard(seat, card)
        if ended is not None:
            return ended, actions
    while True:
        window = state.window
        if window is not None:  # R11: the discarder may declare first
            options: Sequence[Card] = state.waits(window)
            choice = int(random_() * (len(options) + 1))
            if choice < len(options):
                record(DECLARES[window][options[choice]])
                state.declare(window, options[choice])
            # else a pass: records leave it out, and the next action closes the window
        seat = state.turn
        hand = hands[seat]
        if declared[seat] is not None:  # R12: draw, and discard what was drawn
            random_()  # the choice among one legal action
            record(draws[seat])
            ended = draw(seat)
            if ended is not None:
                return ended, actions
            random_()
            card = state.drawn  # type: ignore[assignment]
        else:
            latest = state.latest
            if latest is not None and random_() >= 0.5:
                record(takes[seat])
                take(seat)
                options = list(fromkeys(hand))
                options.remove(latest)  # R10: not the card just taken
            else:
                if latest is None:
                    random_()  # the choice among one legal action
                record(draws[seat])
                ended = draw(seat)
                if ended is not None:
                    return ended, actions
                options = list(fromkeys(hand))
            card = options[int(random_() * len(options))]
        record(discards[seat][card])
        ended = discard(seat, card)
        if ended is not None:
            return ended, actions


def _ready_dict(pack: Pack) -> ReadyHands:
    return ready_table(pack)  # its keys are the cards' indices, equal to the Cards


def _random_discard(state: Playout, seat: int, random_: Callable[[], float]) -> Card:
    """The discard ``legal_actions(seat)[int(random_() * n)]`` would choose."""
    if state.declared[seat] is not None:
        random_()
        return state.drawn  # type: ignore[return-value]
    options = [card for card in dict.fromkeys(state.hands[seat]) if card is not state.taken]
    return options[int(random_() * len(options))]
