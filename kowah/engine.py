"""The engine: the :class:`Rules` value that describes a variant, and :class:`State`, the
deal's state machine with the one implementation of R9–R17 (the rules' prose is
:mod:`kowah.rulebook`; this module was ``kowah.rules`` before, a name that still imports, with
a ``DeprecationWarning``).

:class:`Rules` is the one place a variant is described (the pack, R2 or V1; the no-progress
limit, R17); :class:`State` holds a deal's state on plain lists, says whether an action is
legal (:meth:`State.refusal`, :meth:`State.legal_actions`) and applies one *without checking
it* (:meth:`State.step`). :class:`~kowah.deal.Deal` is a State with the checks, the events, the
observations and undo on top; fast rollouts (:func:`kowah.simulation.random_playout`, an AI's
search) use a State directly, from :meth:`Deal.state() <kowah.deal.Deal.state>`, and must only
make legal steps.

>>> KOWAH_RULES.pack is KOWAH_DECK, KOWAH_RULES.pack_name, len(KOWAH_RULES.pack)
(True, 'kowah', 120)
>>> MONEY_RULES.pack_name, MONEY_RULES.stock_size, KOWAH_RULES.no_progress_turns
('money', 108, 30)
>>> Rules.from_pack_name("money") == MONEY_RULES
True
>>> Rules(pack=Pack("tiny pack", [2] * 12 + [0] * 21))
Traceback (most recent call last):
...
kowah.errors.DeckError: the tiny pack has 24 cards: too few for three hands of 8 and a stock

>>> from kowah import Deal
>>> deal = Deal.shuffled(seed=4)
>>> state = deal.state()
>>> seat = state.turn
>>> state.legal_actions(seat)
(Action.draw(1),)
>>> state.step(Action.draw(seat))  # unchecked: the caller knows it is legal
>>> state.step(Action.discard(seat, state.drawn))
>>> state.turn == (seat + 1) % 3, deal.stock_count - state.stock_count
(True, 1)

Adding a variant
----------------
A variant is a field of :class:`Rules` with a default that keeps R1–R17 as they are, never a
fork of the engine. To add one, say a game where a declared seat may
still take discards:

1. add the field, with its default, to :class:`Rules` (its ``__init__`` checks the value) and
   say what it changes in the docstring;
2. read it (``self.rules.locked_take``) where the ruling is applied, in :class:`State`: its
   legality check (:meth:`~State.refusal`, :meth:`~State.legal_actions`) and its steps;
   :meth:`Deal.apply <kowah.deal.Deal.apply>`, the legal actions and the fast playouts then all
   follow it;
3. write it in records only when it differs from its default (so that every existing record
   still means what it meant), as ``"pack"`` is written only for the money pack; if it can make
   deals longer, :attr:`Rules.max_actions` must say so;
4. test the default (the existing suite) and the variant, citing the ruling it changes.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import Final, Protocol, cast

import attrs

from kowah._ready_index import kept_in, ready_table
from kowah._value import Value
from kowah.actions import DECLARES, DISCARDS, DRAWS, PASSES, SEATS, TAKES, Action, ActionKind, Reason
from kowah.cards import KINDS, KOWAH_DECK, MONEY_PACK, Card, Pack
from kowah.errors import N_, DeckError, KowahError, KowahTypeError, shorten
from kowah.events import DrawnBy, Outcome, Phase, WinBy
from kowah.hands import (
    HAND_SIZE,
    DiscardOption,
    Split,
    discard_options,
    distance,
    improvements,
    is_ready,
    splits,
    waits,
)

__all__ = ["KOWAH_RULES", "MONEY_RULES", "PACK_NAMES", "SEATS", "ReadyHands", "Rules", "Scalars", "State",
           "deck_error"]

#: The record name of each pack a record may name (``"pack"`` in ``kowah-record/1``):
#: ``"kowah"`` is :data:`~kowah.cards.KOWAH_DECK`, ``"money"`` :data:`~kowah.cards.MONEY_PACK`.
#:
#: :meta hide-value:
PACK_NAMES: Final = {"kowah": KOWAH_DECK, "money": MONEY_PACK}
_NO_PROGRESS = 30  # R17


def _check_pack(rules: object, field: object, pack: Pack) -> None:
    if not isinstance(pack, Pack):
        raise KowahTypeError(N_("error", "a pack must be a Pack, not {value} of type {type}"),
                             value=shorten(pack), type=type(pack).__name__)
    if len(pack) <= SEATS * HAND_SIZE:  # R9: three hands, and at least one card to draw
        raise DeckError(
            N_("error", "the {pack} has {count} cards: too few for three hands of {size} and a stock"),
            pack=pack.name, count=len(pack), size=HAND_SIZE,
        )
    if kept_in((), pack) is None:  # R6: two triples and a pair, of cards the pack holds
        raise DeckError(N_("error", "no hand of the {pack} can ever be ready"), pack=pack.name)


def _check_no_progress_turns(rules: object, field: object, no_progress_turns: int) -> None:
    if type(no_progress_turns) is not int:
        raise KowahTypeError(N_("error", "no_progress_turns must be an int, not {value} of type {type}"),
                             value=shorten(no_progress_turns), type=type(no_progress_turns).__name__)
    if no_progress_turns < 1:
        raise KowahError(N_("error", "no_progress_turns must be at least 1, not {value}"),
                         value=no_progress_turns)


@attrs.frozen
class Rules(Value):
    """The rules of a deal: the rulings R3–R17 played with :attr:`pack`, and the R17 limit.

    ``Rules()`` is the game of the rules pages, with the 120-card Kowah deck (R2);
    :data:`MONEY_RULES` plays with the 132-card money pack of the rules' source page (V1).
    Deals, observations, players and records carry their rules. A pack too small for three
    hands and a stock, or in which no hand can ever be ready, is refused
    (:class:`~kowah.errors.DeckError`); a pack may hold any number of copies of a card (R14 then
    resolves two seats waiting for one).

    >>> Rules(pack=Pack("singles", [1] * 33))
    Traceback (most recent call last):
    ...
    kowah.errors.DeckError: no hand of the singles can ever be ready
    >>> Rules(no_progress_turns=12).max_actions
    2285
    >>> Rules(no_progress_turns=0)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: no_progress_turns must be at least 1, not 0
    """

    #: The cards dealt (R1, R2): :data:`~kowah.cards.KOWAH_DECK` unless a variant says otherwise.
    pack: Pack = attrs.field(default=KOWAH_DECK, validator=_check_pack)
    #: Turns in a row without a stock draw after which the deal ends drawn (R17).
    no_progress_turns: int = attrs.field(default=_NO_PROGRESS, validator=_check_no_progress_turns)

    @property
    def pack_name(self) -> str | None:
        """The record name of :attr:`pack`: ``"kowah"`` or ``"money"``, ``None`` for another pack."""
        for name, pack in PACK_NAMES.items():
            if pack == self.pack:
                return name
        return None

    @property
    def stock_size(self) -> int:
        """Cards in the stock once the hands are dealt (R9: 96 for the Kowah deck)."""
        return len(self.pack) - SEATS * HAND_SIZE

    @property
    def max_actions(self) -> int:
        """The most actions (passes left out) a legal deal can have: no deal goes longer.

        Every turn is two actions, a draw or a take and a discard (R10), and each seat may
        declare once (R11). The opening turn draws, the last stock draw ends the deal (R16),
        and at most :attr:`no_progress_turns` takes follow one another (R17), the last of
        them ending the deal: so at most ``stock_size - 1`` draw turns, each followed by
        ``no_progress_turns - 1`` take turns but the last, followed by ``no_progress_turns``.
        That is 5,705 actions for the Kowah deck, 6,425 for the money pack.

        >>> KOWAH_RULES.max_actions, MONEY_RULES.max_actions
        (5705, 6425)
        """
        draws = self.stock_size - 1
        takes = draws * (self.no_progress_turns - 1) + 1
        return 2 * (draws + takes) + SEATS

    @classmethod
    def from_pack_name(cls, name: str) -> Rules:
        """The rules with the pack a record names (``"kowah"`` or ``"money"``).

        >>> Rules.from_pack_name("kowah") is KOWAH_RULES
        True
        >>> Rules.from_pack_name("bridge")
        Traceback (most recent call last):
        ...
        kowah.errors.DeckError: unknown pack 'bridge' (kowah or money)
        """
        if name == "kowah":
            return KOWAH_RULES
        if name == "money":
            return MONEY_RULES
        if not isinstance(name, str):
            raise KowahTypeError(N_("error", "a pack name must be a string, not {value} of type {type}"),
                                 value=shorten(name), type=type(name).__name__)
        raise DeckError(N_("error", "unknown pack {name!r} (kowah or money)"), name=name)

    # -- the hand functions with this pack: code written against an observation calls
    # -- ``observation.rules.waits(hand)``, and works for any pack (issue 29)

    def is_ready(self, cards: Iterable[Card]) -> bool:
        """:func:`kowah.hands.is_ready` with :attr:`pack`: whether eight cards are ready (R6, R7).

        >>> from kowah.cards import parse_cards
        >>> snakes = parse_cards("ws ws ws gs gs gs mk mk", MONEY_PACK)
        >>> MONEY_RULES.is_ready(snakes), MONEY_RULES.waits(snakes)
        (True, frozenset({Card.MK}))
        >>> KOWAH_RULES.is_ready(snakes)
        Traceback (most recent call last):
        ...
        kowah.errors.HandError: 'ws' is not in the Kowah deck
        """
        return is_ready(cards, self.pack)

    def waits(self, cards: Iterable[Card]) -> frozenset[Card]:
        """:func:`kowah.hands.waits` with :attr:`pack`: the cards a ready hand waits for (R8)."""
        return waits(cards, self.pack)

    def splits(self, cards: Iterable[Card]) -> tuple[Split, ...]:
        """:func:`kowah.hands.splits` with :attr:`pack`: every way a ready hand splits."""
        return splits(cards, self.pack)

    def distance(self, cards: Iterable[Card]) -> int:
        """:func:`kowah.hands.distance` with :attr:`pack`: the fewest cards to exchange to be ready."""
        return distance(cards, self.pack)

    def improvements(self, cards: Iterable[Card], seen: Iterable[Card] = ()) -> dict[Card, int]:
        """:func:`kowah.hands.improvements` with :attr:`pack`: cards that bring eight closer."""
        return improvements(cards, seen, self.pack)

    def discard_options(self, cards: Iterable[Card], seen: Iterable[Card] = ()) -> tuple[DiscardOption, ...]:
        """:func:`kowah.hands.discard_options` with :attr:`pack`: nine cards' discards, best first."""
        return discard_options(cards, seen, self.pack)

    def __repr__(self) -> str:
        name = self.pack_name
        fields = [] if name == "kowah" else ["pack=MONEY_PACK" if name == "money" else f"pack={self.pack!r}"]
        if self.no_progress_turns != _NO_PROGRESS:
            fields.append(f"no_progress_turns={self.no_progress_turns}")
        return f"Rules({', '.join(fields)})"


def deck_error(deck: Sequence[Card], pack: Pack) -> DeckError | None:
    """What keeps *deck* (Cards) from being an order of *pack*, as a DeckError naming the first
    problem in deck order; ``None`` if it is one. A record that holds such a deck raises a
    :class:`~kowah.errors.RecordError` with the same message.

    >>> print(deck_error(KOWAH_DECK.cards[1:], KOWAH_DECK))
    the deck has 119 cards, but the Kowah deck has 120: a copy of 1c is missing
    >>> deck_error(KOWAH_DECK.cards, KOWAH_DECK) is None
    True
    """
    allowed = pack.counts
    seen = [0] * KINDS
    for position, card in enumerate(deck, start=1):
        seen[card] += 1
        if seen[card] > allowed[card]:
            if not allowed[card]:
                return DeckError(N_("error", "card {position} of the deck, {card}, is not in the {pack}"),
                                 position=position, card=card, pack=pack.name)
            return DeckError(
                N_("error", "the deck holds {count} copies of {card}, but the {pack} has {copies} "
                            "(first extra copy: card {position})"),
                count=deck.count(card), card=card, pack=pack.name, copies=allowed[card], position=position,
            )
    for card in pack.kinds:
        if seen[card] < allowed[card]:
            return DeckError(
                N_("error", "the deck has {count} cards, but the {pack} has {expected}: a copy of {card} "
                            "is missing"),
                count=len(deck), pack=pack.name, expected=len(pack), card=card,
            )
    return None


#: The default rules: the Kowah deck (R2) and rulings R3–R17.
KOWAH_RULES: Final = Rules()
#: The money-pack game (V1): all 132 cards, the same rulings.
MONEY_RULES: Final = Rules(pack=MONEY_PACK)


# -- the state machine --------------------------------------------------------------------------

_AFTER = (1, 2, 0)  # the next seat in rotation (R9)
_BEFORE = (2, 0, 1)  # the previous seat
_CLAIMANTS = ((1, 2), (2, 0), (0, 1))  # the other seats in rotation order from each seat (R14)
_STARTING, _DISCARDING, _OVER = Phase.START, Phase.DISCARD, Phase.OVER
_DRAW, _TAKE, _DISCARD, _DECLARE = ActionKind.DRAW, ActionKind.TAKE, ActionKind.DISCARD, ActionKind.DECLARE
_START_ACTIONS = tuple(((DRAWS[seat],), (DRAWS[seat], TAKES[seat])) for seat in range(SEATS))
_insort = bisect.insort
_EXHAUSTED, _STUCK = Outcome.drawn(DrawnBy.EXHAUSTION), Outcome.drawn(DrawnBy.NO_PROGRESS)
#: A :meth:`State.scalars`: claims, stock, turn, phase, window, latest, drawn, taken, idle, outcome.
Scalars = tuple[bool, int, int, Phase, int | None, Card | None, Card | None, Card | None, int, Outcome | None]
_Waits = frozenset[Card] | tuple[()]


class ReadyHands(Protocol):
    """What :attr:`State.table` offers: ``hand in table`` and ``table.get(hand, default)``."""

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


class State:
    """The state of one deal on plain lists, with the rules' legality check and steps.

    Build it with :meth:`Deal.state() <kowah.deal.Deal.state>` (or :meth:`start`). Its
    attributes are the state itself, for fast readers: change them only through the steps.
    A step assumes its action is legal (check with :meth:`refusal`, or take it from
    :meth:`legal_actions`); an illegal step leaves a state no deal can reach.
    """

    __slots__ = (
        "claims", "deck", "declared", "drawn", "hands", "idle", "latest", "outcome", "phase",
        "piles", "rules", "stock", "table", "taken", "turn", "window",
    )

    #: The rules played by.
    rules: Rules
    #: The ready hands of the rules' pack (R6), looked up by the hand as a sorted tuple: ``in``
    #: tells a ready hand, ``get`` gives its waits (R8). By default
    #: :func:`kowah.hands.is_ready` and :func:`~kowah.hands.waits`, which cost nothing to start;
    #: where many deals are played, the dict of them all (:func:`kowah.hands.ready_hands`).
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
    #: Turns in a row played without a stock draw (R17).
    idle: int
    #: How the deal ended, or ``None``.
    outcome: Outcome | None

    @classmethod
    def start(cls, deck: tuple[Card, ...], first: int, rules: Rules) -> State:
        """The state before the first action: *deck* must be an order of ``rules.pack``."""
        self = cls.__new__(cls)
        self.rules, self.deck = rules, deck
        self.table = _Checker(rules.pack)
        self.hands = [sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(SEATS)]
        self.piles = [[] for _ in range(SEATS)]
        self.declared = [None] * SEATS
        self.claims = False
        self.stock = SEATS * HAND_SIZE
        self.turn, self.phase, self.window = first, _STARTING, None
        self.latest = self.drawn = self.taken = None
        self.idle = 0
        self.outcome = None
        return self

    def copy(self) -> State:
        """An independent copy (it shares no list)."""
        other = State.__new__(State)
        other.rules, other.deck, other.table = self.rules, self.deck, self.table
        other.hands = [list(hand) for hand in self.hands]
        other.piles = [list(pile) for pile in self.piles]
        other.declared = list(self.declared)
        (other.claims, other.stock, other.turn, other.phase, other.window, other.latest,
         other.drawn, other.taken, other.idle, other.outcome) = self.scalars()
        return other

    def use_ready_dict(self) -> None:
        """Look ready hands up in the dict of them all from now on (as its copies will): built
        once per process and pack in tens of milliseconds, then quicker than
        :func:`~kowah.hands.is_ready`, for code that plays deals by the thousand."""
        self.table = ready_table(self.rules.pack)

    def scalars(self) -> Scalars:
        """The state but the lists, as one value (for :meth:`undo`)."""
        return (self.claims, self.stock, self.turn, self.phase, self.window, self.latest,
                self.drawn, self.taken, self.idle, self.outcome)

    def undo(self, action: Action, before: Scalars) -> None:
        """Take back the step of *action* (a declaration naming its wait), which was made from
        a state with the :meth:`scalars` *before*: the lists and the scalars are as they were.

        >>> from kowah import Action, Deal
        >>> state = Deal.shuffled(seed=2).state()
        >>> seat, before, hand = state.turn, state.scalars(), list(state.hands[state.turn])
        >>> state.step(Action.draw(seat))
        >>> state.undo(Action.draw(seat), before)
        >>> state.scalars() == before and state.hands[seat] == hand
        True
        """
        seat, kind = action.seat, action.kind
        if kind is _DRAW:
            self.hands[seat].remove(self.deck[before[1]])  # the card it drew
        elif kind is _TAKE:
            card: Card = before[5]  # type: ignore[assignment]  # the latest discard it took
            self.hands[seat].remove(card)
            self.piles[_BEFORE[seat]].append(card)
        elif kind is _DISCARD:
            self.piles[seat].pop()
            _insort(self.hands[seat], cast(Card, action.card))
        elif kind is _DECLARE:
            self.declared[seat] = None
        (self.claims, self.stock, self.turn, self.phase, self.window, self.latest,
         self.drawn, self.taken, self.idle, self.outcome) = before

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
        """Every legal action of *seat* (an int 0–2, unchecked) now, in a fixed order: the
        declarations by wait and the pass (R11); then the draw and the take (R10), or the
        discards by card."""
        window = self.window
        if window is not None and seat == window:  # R11: the discarder may declare (the deal is not over)
            options = [DECLARES[seat][wait] for wait in self.waits(seat)]
            options.append(PASSES[seat])
            return tuple(options)  # the window's seat is never the turn's
        if seat != self.turn or self.outcome is not None:
            return ()
        if self.phase is _STARTING:  # R10 (a declared seat's latest discard is None, R12)
            return _START_ACTIONS[seat][self.latest is not None]
        if self.declared[seat] is not None:  # R12: a locked hand discards what it drew
            return (DISCARDS[seat][self.drawn],)  # type: ignore[index]
        kinds = dict.fromkeys(self.hands[seat])
        if self.taken is not None:
            del kinds[self.taken]  # R10: not the card just taken
        discards = DISCARDS[seat]
        return tuple([discards[card] for card in kinds])

    def refusal(self, action: Action) -> tuple[Reason, dict[str, object]] | None:
        """Why *action* (a valid :class:`~kowah.actions.Action`) is illegal now, with the
        reason's fields; ``None`` if it is legal."""
        seat, kind, card = action.seat, action.kind, action.card
        if self.outcome is not None:
            return Reason.DEAL_OVER, {}
        if kind is _DECLARE or kind is ActionKind.PASS:
            if self.declared[seat] is not None:
                return Reason.ALREADY_DECLARED, {}
            if seat != self.window:
                return Reason.NOT_DECLARING, {}
            if kind is _DECLARE:
                options = self.waits(seat)
                if card is None and len(options) > 1:  # R8: the wait must be named
                    return Reason.SEVERAL_WAITS, {"waits": options}
                if card is not None and card not in options:
                    return Reason.NOT_A_WAIT, {"card": card, "waits": options}
            return None
        if seat != self.turn:
            return Reason.NOT_YOUR_TURN, {"turn": self.turn}
        if kind is _DRAW or kind is _TAKE:
            if self.phase is not _STARTING:
                return Reason.MUST_DISCARD, {}
            if kind is _TAKE:
                if self.declared[seat] is not None:
                    return Reason.LOCKED_TAKE, {}  # R12
                if self.opening:
                    return Reason.OPENING_DRAW, {}  # R10
                if self.latest is None:
                    return Reason.NO_DISCARD, {}
            return None
        # DISCARD
        if self.phase is not _DISCARDING:
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
        if kind is _DISCARD:
            self.discard(seat, action.card)  # type: ignore[arg-type]
        elif kind is _DRAW:
            self.draw(seat)
        elif kind is _TAKE:
            self.take(seat)
        elif kind is _DECLARE:
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
        self.idle = 0
        self.phase = _DISCARDING
        if self.claims:
            declared = self.declared
            if declared[seat] is card:  # R12: a self-draw comes before any claim
                return self._end(Outcome.win(seat, WinBy.SELF_DRAW, card))
            for other in _CLAIMANTS[seat]:
                if declared[other] is card:  # R14
                    return self._end(Outcome.win(other, WinBy.DRAW_CLAIM, card))
        if self.stock == len(self.deck):
            return self._end(_EXHAUSTED)  # R16
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
        """*seat* discards *card*: a claim may end the deal (R14), or R17, or the turn passes."""
        hand = self.hands[seat]
        hand.remove(card)
        self.piles[seat].append(card)
        if self.taken is not None:  # a turn without a stock draw (R17)
            self.taken = None
            self.idle += 1
        self.drawn = None
        after = _AFTER[seat]
        if self.claims:
            declared = self.declared
            for other in _CLAIMANTS[seat]:
                if declared[other] is card:
                    return self._end(Outcome.win(other, WinBy.DISCARD, card))
            if self.idle >= self.rules.no_progress_turns:
                return self._end(_STUCK)
            self.latest = card if declared[after] is None else None  # R12: a locked seat never takes
            if declared[seat] is None and tuple(hand) in self.table:
                self.window = seat  # R11: it may declare now
        else:  # nobody has declared: the next seat may take, a ready hand may declare
            if self.idle >= self.rules.no_progress_turns:
                return self._end(_STUCK)  # R17
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
        self.phase = _OVER
        self.window = self.latest = None
        return outcome
