"""AI players for Kowah: a small protocol, three strengths, and a simulator.

A :class:`Player` sees only what its seat may know, an :class:`~kowah.deal.Observation`,
and the legal actions, and returns one of them. Every player takes an injected
:class:`random.Random`; none touches the global random state.

>>> import random
>>> from kowah import Deal
>>> players = [make_player(name, random.Random(seat))
...            for seat, name in enumerate(("normal", "random", "random"))]
>>> deal = play_deal(players, Deal.shuffled(seed=4))
>>> deal.is_over
True
>>> result = simulate(6, ["normal", "random", "random"], seed=1)
>>> result.deals, sum(result.wins) + result.drawn
(6, 6)
"""

from __future__ import annotations

import bisect
import math
import multiprocessing
import pickle
import random
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from kowah import SEATS, Action, ActionKind, Deal, Observation
from kowah._tables import SHAPE_DIGIT as _SHAPE_DIGIT
from kowah._tables import SHAPES as _SHAPES
from kowah._tables import WEIGHT as _WEIGHT
from kowah._tables import decode_shape as _decode_shape
from kowah._tables import ready_table as _table
from kowah._tables import solve as _solve
from kowah.cards import KOWAH_DECK, Card
from kowah.errors import N_, KowahError, UnknownPlayerError

__all__ = [
    "PLAYERS",
    "HardPlayer",
    "NormalPlayer",
    "Player",
    "PlayerFactory",
    "RandomPlayer",
    "SimulationResult",
    "UnknownPlayerError",
    "make_player",
    "play_deal",
    "simulate",
]

#: The names :func:`make_player` knows, weakest first.
PLAYERS = ("random", "normal", "hard")

# The Kowah deck has 30 kinds (Card values 0–29), four copies of each (R2).
_KINDS = 30
_COPIES = 4
_CARDS: tuple[Card, ...] = tuple(Card)
_GROUP: tuple[int, ...] = tuple(card.group for card in _CARDS)
_AFTER = (1, 2, 0)  # the next seat in rotation (R9)

_DRAW, _TAKE, _DISCARD, _DECLARE, _PASS = (
    ActionKind.DRAW, ActionKind.TAKE, ActionKind.DISCARD, ActionKind.DECLARE, ActionKind.PASS,
)


@runtime_checkable
class Player(Protocol):
    """What an AI (or a person at a terminal) must do: pick one of the legal actions.

    A player sees only *observation* (what its seat may know) and *legal_actions*; it never
    sees the :class:`~kowah.deal.Deal`.
    """

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """One action out of *legal_actions*."""
        ...


# -- fast hand evaluation --------------------------------------------------------------------
#
# The players lean on the hands module's distance machinery (see ``kowah.hands``): a hand's
# *shape* is one integer, the sum over its groups of a digit per group profile, and the most
# cards of the hand that some ready hand contains ("kept", 8 minus the distance) is cached per
# shape. Adding or removing one card changes one group, so the shape of every hand one card
# away is found by arithmetic, and "does this card improve the hand?" costs a dict lookup.
# tests/test_players.py checks these shortcuts against ``hands.distance`` and
# ``hands.improvements``.

_READY: dict[tuple[int, ...], frozenset[Card]] = {}


def _ready() -> dict[tuple[int, ...], frozenset[Card]]:
    """The table of ready Kowah hands and their waits (built by :mod:`kowah.hands` on first use)."""
    if not _READY:
        _READY.update(_table(KOWAH_DECK))
    return _READY


_DIGIT: tuple[int, ...] = _SHAPE_DIGIT
_WT: tuple[int, ...] = _WEIGHT[:_KINDS]
_GROUP_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(card for card in range(_KINDS) if _GROUP[card] == group) for group in range(15)
)


def _shape_kept(shape: int) -> int:
    """Most cards a hand of this shape can keep on its way to ready (cached in kowah.hands)."""
    kept = _SHAPES.get(shape)
    if kept is None:
        kept = _SHAPES[shape] = _solve(_decode_shape(shape))
    return kept


def _codes(key: Iterable[int]) -> list[int]:
    codes = [0] * 15
    for card in key:
        codes[_GROUP[card]] += _WT[card]
    return codes


def _shape(codes: Sequence[int]) -> int:
    return sum(map(_DIGIT.__getitem__, codes))


def _kept(key: Iterable[int]) -> int:
    """Most cards of an eight-card hand that a ready hand contains (8 - distance)."""
    return _shape_kept(_shape(_codes(key)))


def _acceptance(codes: list[int], shape: int, kept: int, counts: Sequence[int],
                live: Sequence[int]) -> int:
    """Live copies of the cards that would bring an eight-card hand closer to ready.

    A card of a group the hand lacks can only help a hand of fewer than three groups: with
    three or more, whatever the card would do, a card already held does as well.
    """
    total = 0
    present = [group for group in range(15) if codes[group]]
    groups: Iterable[int] = present if len(present) >= 3 else range(15)
    for group in groups:
        old = codes[group]
        base = shape - _DIGIT[old]
        for card in _GROUP_CARDS[group]:
            if live[card] and counts[card] < _COPIES and _shape_kept(base + _DIGIT[old + _WT[card]]) > kept:
                total += live[card]
    return total


def _improving(key: tuple[int, ...]) -> tuple[int, ...]:
    """The kinds of card that bring an eight-card hand (sorted key) closer to ready."""
    codes = _codes(key)
    shape = _shape(codes)
    kept = _shape_kept(shape)
    counts = [key.count(card) for card in range(_KINDS)]
    return tuple(
        card for card in range(_KINDS)
        if _acceptance(codes, shape, kept, counts, [int(c == card) for c in range(_KINDS)])
    )


def _improves(key: tuple[int, ...], card: int) -> bool:
    """Whether drawing or taking *card* brings the eight-card hand *key* closer to ready."""
    if key.count(card) >= _COPIES:
        return False
    codes = _codes(key)
    group = _GROUP[card]
    if not codes[group] and sum(1 for code in codes if code) >= 3:
        return False  # see _acceptance
    shape = _shape(codes)
    old = codes[group]
    return _shape_kept(shape - _DIGIT[old] + _DIGIT[old + _WT[card]]) > _shape_kept(shape)


def _without(key: tuple[int, ...], card: int) -> tuple[int, ...]:
    index = key.index(card)
    return key[:index] + key[index + 1:]


def _unseen(observation: Observation) -> list[int]:
    """Copies of each of the 30 kinds this seat has not seen (hand, discards, known cards).

    The list form of :meth:`Observation.unseen`.
    """
    counts = [_COPIES] * _KINDS
    for card in (*observation.hand, *observation.seen()):
        counts[card] -= 1
    return [count if count > 0 else 0 for count in counts]


def _avoid(observation: Observation) -> frozenset[int]:
    """The public waits of the other declared seats: discarding one hands them a ×2 win (R14)."""
    return frozenset(
        wait for seat, wait in enumerate(observation.declared_waits)
        if wait is not None and seat != observation.seat
    )


def _discard_scores(
    hand: tuple[int, ...], options: Sequence[int], live: Sequence[int], avoid: frozenset[int]
) -> list[tuple[tuple[int, int, int], int]]:
    """Score each discard of a nine-card hand: (safe, kept, acceptance), higher is better.

    *safe* is 0 for a declared seat's wait (R14: it would win at once), *kept* is 8 minus
    the distance left, *acceptance* the live copies of the improving cards, or for a ready
    hand the live copies of its best wait. A ready hand whose waits are all dead counts as
    one step short of ready. Acceptance is worked out only for the discards that keep most.
    """
    table = _ready()
    codes = _codes(hand)
    shape9 = _shape(codes)  # exact as an integer, even where a lookup of it would not be
    counts = [0] * _KINDS
    for card in hand:
        counts[card] += 1
    firsts = []
    for card in dict.fromkeys(options):
        group = _GROUP[card]
        old = codes[group]
        shape = shape9 - _DIGIT[old] + _DIGIT[old - _WT[card]]
        firsts.append((0 if card in avoid else 1, _shape_kept(shape), card, shape))
    top = max((safe, kept) for safe, kept, _, _ in firsts)
    scored = []
    for safe, kept, card, shape in firsts:
        if (safe, kept) != top:
            scored.append(((safe, kept, -1), card))
            continue
        if kept == 8:
            rest = _without(hand, card)
            best = max(live[wait] for wait in table[rest])
            scored.append(((safe, 8, best) if best > 0 else (safe, 7, 0), card))
            continue
        group = _GROUP[card]
        codes[group] -= _WT[card]
        counts[card] -= 1
        scored.append(((safe, kept, _acceptance(codes, shape, kept, counts, live)), card))
        codes[group] += _WT[card]
        counts[card] += 1
    return scored


def _best_discards(hand: tuple[int, ...], options: Sequence[int], live: Sequence[int],
                   avoid: frozenset[int]) -> list[int]:
    """The discards of *options* that :func:`_discard_scores` rates best (exact ties)."""
    scored = _discard_scores(hand, options, live, avoid)
    best = max(score for score, _ in scored)
    return [card for score, card in scored if score == best]


def _normal_discard(hand: tuple[int, ...], options: Sequence[int], live: Sequence[int],
                    avoid: frozenset[int], rnd: Callable[[], float]) -> int:
    """The normal player's discard: one of :func:`_best_discards`, ties broken by *rnd*."""
    ties = _best_discards(hand, options, live, avoid)
    return ties[0] if len(ties) == 1 else ties[int(rnd() * len(ties))]


def _declare_choice(
    options: Sequence[Action], live: Sequence[int], minimum: int = 1
) -> Action | None:
    """The declaration with the most live copies of its wait, or ``None`` (pass) when it has
    fewer than *minimum*: a locked hand with a dead wait can never win (R11, R12)."""
    best: tuple[int, Action | None] = (-1, None)
    for action in options:
        if action.kind is _DECLARE and live[action.card] > best[0]:  # type: ignore[index]
            best = (live[action.card], action)  # type: ignore[index]
    return best[1] if best[0] >= minimum else None


# -- the players ------------------------------------------------------------------------------


class RandomPlayer:
    """Picks uniformly among the legal actions.

    >>> import random
    >>> from kowah import Deal
    >>> deal = Deal.shuffled(seed=2)
    >>> seat = deal.to_move()[0]
    >>> RandomPlayer(random.Random(0)).choose(deal.observation(seat), deal.legal_actions(seat))
    Action.draw(2)
    """

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """A uniformly random legal action."""
        return legal_actions[int(self.rng.random() * len(legal_actions))]


class NormalPlayer:
    """A fast heuristic player: distance to ready first, then the live copies that help.

    * Discards: never a declared seat's wait when there is another choice (that would hand
      it a ×2 win, R14); then the discard that leaves the hand nearest to ready; then the one
      whose improving cards have the most unseen copies, or for a ready hand the wait with
      the most live copies. Exact ties are broken by the injected random generator.
    * Takes the latest discard only when it brings the hand closer to ready.
    * Declares whenever it may, with the wait that has the most live copies, unless every
      wait is dead: declaring locks the hand (R12), but no hand wins without it.

    >>> import random
    >>> from kowah import Deal, Action
    >>> deal = Deal.shuffled(seed=0)
    >>> seat = deal.turn
    >>> _ = deal.apply(Action.draw(seat))
    >>> action = NormalPlayer(random.Random(0)).choose(deal.observation(seat), deal.legal_actions(seat))
    >>> action.kind.value, action in deal.legal_actions(seat)
    ('discard', True)
    """

    name = "normal"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """The heuristic's action (see the class description)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        first = legal_actions[0]
        kind = first.kind
        if kind is _DECLARE or kind is _PASS:
            live = _unseen(observation)
            choice = _declare_choice(legal_actions, live)
            return choice if choice is not None else Action.pass_(observation.seat)
        hand = tuple(observation.hand)
        if kind is _DRAW:
            latest = observation.latest_discard
            if (latest is not None and any(action.kind is _TAKE for action in legal_actions)
                    and _improves(hand, latest)):
                return Action.take(observation.seat)
            return first
        # Discard: the options are the legal discards (never the card just taken, R10).
        options = [action.card for action in legal_actions if action.kind is _DISCARD]
        card = _normal_discard(hand, options, _unseen(observation), _avoid(observation),  # type: ignore[arg-type]
                               self.rng.random)
        return Action.discard(observation.seat, Card(card))


# -- the search player ------------------------------------------------------------------------


def _knowledge(observation: Observation) -> list[list[int]]:
    """For each other seat, the counts of the cards this seat knows to be in its hand.

    Cards taken from the discards, exposed pairs and public stock draws (R13), less the cards
    that seat has discarded since: :attr:`Observation.known` as counts.
    """
    known = [[0] * _KINDS for _ in range(SEATS)]
    for seat, cards in enumerate(observation.known):
        if seat != observation.seat:
            for card in cards:
                known[seat][card] += 1
    return known


class _Determiniser:
    """Samples the hidden cards consistent with an observation: the other seats' concealed
    cards and the stock order, uniformly, with every known card in its known place."""

    def __init__(self, observation: Observation) -> None:
        me = observation.seat
        self.me = me
        known = _knowledge(observation)
        pool = _unseen(observation)
        self.pool = [kind for kind in range(_KINDS) for _ in range(pool[kind])]
        self.known = [[card for card in range(_KINDS) for _ in range(known[seat][card])]
                      for seat in range(SEATS)]
        self.concealed = [
            0 if seat == me else observation.hand_sizes[seat] - len(self.known[seat])
            for seat in range(SEATS)
        ]
        self.stock_count = observation.stock_count
        self.consistent = (
            min(self.concealed) >= 0  # a clamped negative count makes the pool too large
            and len(self.pool) == sum(self.concealed) + self.stock_count
        )
        self.hand = list(observation.hand)

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Every seat's hand (sorted) and the stock, next card first."""
        pool = list(self.pool)
        rng.shuffle(pool)
        hands: list[list[int]] = []
        start = 0
        for seat in range(SEATS):
            if seat == self.me:
                hands.append(list(self.hand))
                continue
            count = self.concealed[seat]
            hands.append(sorted(self.known[seat] + pool[start:start + count]))
            start += count
        return hands, pool[start:]


def _greedy_discard(key: Sequence[int], taken: int | None, avoid: Sequence[int],
                    live: Sequence[int], rnd: Callable[[], float]) -> tuple[int, int]:
    """The fast policy's discard from a nine-card hand, and the cards it keeps towards ready.

    Keep most cards towards ready (a ready hand with a live wait first, the wait with the
    most live copies); among equals, drop the loneliest card; never a declared seat's wait
    (R14) while there is another choice.
    """
    codes = [0] * 15
    sizes = [0] * 15
    for card in key:
        group = _GROUP[card]
        codes[group] += _WT[card]
        sizes[group] += 1
    shape9 = sum(map(_DIGIT.__getitem__, codes))
    best, choice, choice_kept, previous = -1.0e9, key[0], 0, -1
    for card in key:
        if card in (previous, taken):
            previous = card
            continue
        previous = card
        group = _GROUP[card]
        old = codes[group]
        kept = _shape_kept(shape9 - _DIGIT[old] + _DIGIT[old - _WT[card]])
        if kept == 8:
            rest = list(key)
            rest.remove(card)
            most = max(live[wait] for wait in _READY[tuple(rest)])
            score = 800.0 + 10 * most if most > 0 else 700.0
        else:
            score = 100.0 * kept + 8 * (12 - sizes[group]) + 5 * rnd()
        if card in avoid:
            score -= 10000.0
        if score > best:
            best, choice, choice_kept = score, card, kept
    return choice, choice_kept


def _first(stock: list[int], card: int, start: int) -> int:
    """The index of the first copy of *card* in *stock* from *start*, or ``len(stock)``."""
    try:
        return stock.index(card, start)
    except ValueError:
        return len(stock)


class _Race:
    """One sampled future, seen from one seat: the stock order and the other seats' waits.

    The seat draws every third stock card (the others draw in between), plays the fast
    policy until its hand is ready with a live wait, and declares (R11). From then on the
    first copy of its wait to leave the stock wins for it, by self-draw or by claim (R12,
    R14), unless a declared opponent's wait comes out first; an undeclared opponent may
    win meanwhile, which the value discounts by ``exp(-cards * rate)``.
    """

    __slots__ = ("avoid", "deadline", "live", "rate", "stock")

    def __init__(self, stock: list[int], declared: Sequence[int | None], me: int,
                 live: Sequence[int], rate: float) -> None:
        self.stock = stock
        self.live = live
        self.rate = rate
        self.avoid = [wait for seat, wait in enumerate(declared) if wait is not None and seat != me]
        # The first stock card that wins for a declared opponent ends the race.
        self.deadline = min((_first(stock, wait, 0) for wait in self.avoid), default=len(stock))

    def value(self, index: int) -> float:
        """The worth of holding a wait whose first copy leaves the stock at *index*."""
        if index >= self.deadline:
            return 0.0
        return math.exp(-index * self.rate)

    def declared(self, wait: int, start: int) -> float:
        return self.value(_first(self.stock, wait, start))

    def ready(self, hand: Sequence[int], start: int, live: Sequence[int]) -> float:
        """Value of a ready eight-card hand that declares now: its best wait."""
        best = 0.0
        for wait in _READY[tuple(hand)]:
            if live[wait] > 0:
                best = max(best, self.declared(wait, start))
        return best

    def play(self, hand: list[int], start: int, rnd: Callable[[], float],
             taken: int | None = None) -> float:
        """Value of an eight-card hand (nine with *taken*: discard first) drawing at *start*."""
        stock, avoid = self.stock, self.avoid
        live = list(self.live)
        if taken is not None:
            card, kept = _greedy_discard(hand, taken, avoid, live, rnd)
            hand.remove(card)
            if kept == 8 and max(live[w] for w in _READY[tuple(hand)]) > 0:
                return self.ready(hand, start, live)
        end = min(len(stock), self.deadline)
        index = start
        while index < end:
            card = stock[index]
            live[card] -= 1
            bisect.insort(hand, card)
            card, kept = _greedy_discard(hand, None, avoid, live, rnd)
            hand.remove(card)
            if kept == 8 and max(live[w] for w in _READY[tuple(hand)]) > 0:
                return self.ready(hand, index + 1, live)
            index += 3
        return 0.0


class HardPlayer:
    """A search player: determinised Monte Carlo over the normal player's best candidates.

    For each decision with more than one sensible choice (which card to discard among the
    best few by the normal heuristic, whether to take an improving discard, whether to
    declare a wait with a single live copy or wait for a better one), it samples the hidden
    cards many times, consistently with everything its seat has seen (the other seats'
    concealed cards and the stock order; known cards stay where they are known to be). On
    each sample it plays every candidate forward (:class:`_Race`): its own future draws, every
    third stock card, with a fast greedy policy until it is ready and declares, then the
    first copy of its wait to leave the stock, which wins for it unless a declared
    opponent's wait comes out first (R12, R14), discounted for the chance that an undeclared
    opponent wins meanwhile. The same samples serve every candidate, to compare like with
    like, and the candidate with the best total wins; ties go to the heuristic's favourite.

    It stops after *rollouts* samples, or after *budget* seconds if one is given (then the
    choice depends on the machine's speed; simulations leave it out, to be reproducible).

    >>> import random
    >>> from kowah import Deal, Action
    >>> deal = Deal.shuffled(seed=0)
    >>> seat = deal.turn
    >>> _ = deal.apply(Action.draw(seat))
    >>> player = HardPlayer(random.Random(0), rollouts=20)
    >>> player.choose(deal.observation(seat), deal.legal_actions(seat)) in deal.legal_actions(seat)
    True
    """

    name = "hard"

    def __init__(self, rng: random.Random, *, rollouts: int = 120, budget: float | None = None,
                 candidates: int = 4, horizon: float = 80.0) -> None:
        self.rng = rng
        self.horizon = horizon
        self.budget = budget
        self.rollouts = rollouts
        self.candidates = candidates

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """The candidate that won most rollouts (see the class description)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        candidates = self._candidates(observation, legal_actions)
        if len(candidates) == 1:
            return candidates[0]
        determiniser = self._sampler(observation)
        if not determiniser.consistent:  # cannot happen with a Deal's observations
            return candidates[0]
        return self._search(observation, determiniser, candidates)

    def _sampler(self, observation: Observation) -> _Determiniser:
        """What draws the hidden cards for the search (benchmarks/ceiling.py swaps in the truth)."""
        return _Determiniser(observation)

    def _candidates(self, observation: Observation, legal_actions: tuple[Action, ...]) -> list[Action]:
        """The actions worth searching, the heuristic's favourite first."""
        seat = observation.seat
        kind = legal_actions[0].kind
        live = _unseen(observation)
        if kind is _DECLARE or kind is _PASS:
            choice = _declare_choice(legal_actions, live)
            if choice is None:
                return [Action.pass_(seat)]
            return [choice, Action.pass_(seat)] if live[choice.card] < 2 else [choice]  # type: ignore[index]
        hand = tuple(observation.hand)
        if kind is _DRAW:
            latest = observation.latest_discard
            if (latest is not None and any(action.kind is _TAKE for action in legal_actions)
                    and _improves(hand, latest)):
                return [Action.take(seat), Action.draw(seat)]
            return [Action.draw(seat)]
        options = [action.card for action in legal_actions if action.kind is _DISCARD]
        scored = _discard_scores(hand, options, live, _avoid(observation))  # type: ignore[arg-type]
        scored.sort(key=lambda item: item[0], reverse=True)
        top = scored[0][0]
        chosen = [card for score, card in scored if score[:2] == top[:2]][: self.candidates]
        return [Action.discard(seat, Card(card)) for card in chosen]

    def _search(self, observation: Observation, determiniser: _Determiniser,
                candidates: list[Action]) -> Action:
        me = observation.seat
        rng = self.rng
        rnd = rng.random
        live = _unseen(observation)
        undeclared = sum(1 for seat, wait in enumerate(observation.declared_waits)
                         if seat != me and wait is None)
        rate = undeclared / self.horizon
        hand = [int(card) for card in observation.hand]
        latest = -1 if observation.latest_discard is None else int(observation.latest_discard)
        totals = [0.0] * len(candidates)
        deadline = math.inf if self.budget is None else time.perf_counter() + self.budget
        rounds = 0
        while rounds < self.rollouts and (rounds < 8 or time.perf_counter() < deadline):
            rounds += 1
            stock = determiniser.sample(rng)[1]
            race = _Race(stock, observation.declared_waits, me, live, rate)
            for index, action in enumerate(candidates):
                kind = action.kind
                if kind is _DECLARE:
                    value = race.declared(action.card, 0)  # type: ignore[arg-type]
                elif kind is _PASS:
                    value = race.play(list(hand), 2, rnd)
                elif kind is _TAKE:
                    value = race.play(sorted((*hand, latest)), 2, rnd, taken=latest)
                elif kind is _DRAW:
                    value = race.play(list(hand), 0, rnd)
                else:
                    rest = list(hand)
                    rest.remove(action.card)  # type: ignore[arg-type]
                    if rest and tuple(rest) in _READY and max(live[w] for w in _READY[tuple(rest)]) > 0:
                        value = race.ready(rest, 0, live)
                    else:
                        value = race.play(rest, 2, rnd)
                totals[index] += value
        best = max(totals)
        return candidates[totals.index(best)]  # ties go to the heuristic's favourite


# -- making players and playing deals ---------------------------------------------------------


def make_player(name: str, rng: random.Random) -> Player:
    """The player called *name* (``"random"``, ``"normal"`` or ``"hard"``), seeded by *rng*.

    >>> import random
    >>> make_player("normal", random.Random(1)).name
    'normal'
    >>> make_player("expert", random.Random(1))
    Traceback (most recent call last):
    ...
    kowah.errors.UnknownPlayerError: unknown player 'expert' (choose random, normal or hard)
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "random":
        return RandomPlayer(rng)
    if key == "normal":
        return NormalPlayer(rng)
    if key == "hard":
        return HardPlayer(rng)
    raise UnknownPlayerError(
        N_("error", "unknown player {value!r} (choose random, normal or hard)"), value=name
    )




class _Observer:
    """Observations of one deal (the deal keeps them up to date itself now)."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def observation(self, seat: int) -> Observation:
        """What *seat* may know now: ``deal.observation(seat)``."""
        return self.deal.observation(seat)


def play_deal(players: Sequence[Player], deal: Deal, *, ask_forced: bool = True) -> Deal:
    """Play *deal* to its end: each step, the first seat that may act chooses; returns *deal*.

    Each player sees only its own seat's observation and legal actions. An illegal choice
    raises :class:`~kowah.IllegalActionError` (the deal checks every action). With
    *ask_forced* false, a seat with a single legal action (a locked hand's draw and discard,
    the opening draw) is not asked: its action is applied directly, which saves time in
    simulations of stateless players.

    >>> import random
    >>> from kowah import Deal
    >>> players = [NormalPlayer(random.Random(seat)) for seat in range(3)]
    >>> play_deal(players, Deal.shuffled(seed=9)).outcome.result in ("win", "drawn")
    True
    """
    if len(players) != SEATS:
        raise KowahError(N_("error", "a deal needs {seats} players, not {count}"), seats=SEATS,
                         count=len(players))
    observer = _Observer(deal)
    while not deal.is_over:
        seat = deal.to_move()[0]
        if not ask_forced:
            legal = deal.legal_actions(seat)
            if len(legal) == 1:
                deal.apply(legal[0])
                continue
        observation = observer.observation(seat)
        deal.apply(players[seat].choose(observation, observation.legal_actions))
    return deal


# -- simulations -----------------------------------------------------------------------------


def _wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> [round(x, 3) for x in _wilson(50, 100)]
    [0.404, 0.596]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _by_converter(value: Any) -> dict[str, int]:
    return dict(value)


def _names_converter(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _wins_converter(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(value)


@attrs.frozen
class SimulationResult:
    """The totals of :func:`simulate`: wins per seat, drawn deals, and wins by kind (R14, R15).

    >>> result = SimulationResult(10, ("normal", "random", "random"), (7, 1, 0), 2,
    ...                           {"self-draw": 3, "discard": 4, "draw-claim": 1})
    >>> result.decided, [round(x, 2) for x in result.win_rate_interval(0)]
    (8, [0.4, 0.89])
    """

    deals: int
    seats: tuple[str, ...] = attrs.field(converter=_names_converter)
    wins: tuple[int, ...] = attrs.field(converter=_wins_converter)
    drawn: int
    by: dict[str, int] = attrs.field(converter=_by_converter, hash=False)

    @property
    def decided(self) -> int:
        """Deals that someone won."""
        return self.deals - self.drawn

    def win_rate_interval(self, seat: int) -> tuple[float, float]:
        """The 95% Wilson interval of *seat*'s share of all deals."""
        return _wilson(self.wins[seat], self.deals)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: deals, seats, wins, drawn, by, and a few derived figures."""
        return {
            "deals": self.deals,
            "seats": list(self.seats),
            "wins": list(self.wins),
            "drawn": self.drawn,
            "by": dict(self.by),
            "decided": self.decided,
            "win_rates": [wins / self.deals if self.deals else 0.0 for wins in self.wins],
            "win_rate_intervals": [list(self.win_rate_interval(seat)) for seat in range(len(self.seats))],
        }


def _deal_rng(seed: int, index: int) -> random.Random:
    # A string seed is hashed with SHA-512 by ``random``: the same in every process.
    return random.Random(f"kowah-simulate/{seed}/{index}")


#: What :func:`simulate` accepts for a seat: a built-in player's name, or a callable that makes
#: a player from a seeded :class:`random.Random` (a player class taking *rng* will do).
PlayerFactory = Callable[[random.Random], Player]
_Seat = str | PlayerFactory


def _make(seat: _Seat, rng: random.Random) -> Player:
    return make_player(seat, rng) if isinstance(seat, str) else seat(rng)


def _play_one(seats: tuple[_Seat, ...], seed: int, index: int) -> tuple[int | None, str | None]:
    """Deal *index* of a simulation: its winner and how, or ``(None, None)`` when drawn."""
    rng = _deal_rng(seed, index)
    deck = list(KOWAH_DECK.cards)
    rng.shuffle(deck)
    players = [_make(seat, random.Random(rng.getrandbits(64))) for seat in seats]
    deal = play_deal(players, Deal(deck, index % SEATS), ask_forced=False)
    outcome = deal.outcome
    assert outcome is not None
    return outcome.winner, outcome.by


def _play_chunk(job: tuple[tuple[_Seat, ...], int, int, int]) -> list[tuple[int | None, str | None]]:
    seats, seed, start, stop = job
    return [_play_one(seats, seed, index) for index in range(start, stop)]


def _seat_name(seat: _Seat) -> str:
    if isinstance(seat, str):
        return seat
    name = getattr(seat, "name", None)
    return name if isinstance(name, str) else getattr(seat, "__name__", type(seat).__name__)


def _ignore_interrupts() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool (no worker tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def simulate(deals: int, seats: Sequence[str | PlayerFactory], seed: int = 0, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> SimulationResult:
    """Play *deals* deals between the players of *seats* and count the results.

    A seat is a built-in player's name (:data:`PLAYERS`) or a :data:`PlayerFactory`, such
    as your own player class whose constructor takes a :class:`random.Random`. Deal *i*
    starts at seat ``i % 3`` and is shuffled from a seed derived from ``(seed, i)``, with the
    players seeded from it too, so the result is the same for any number of *jobs* (worker
    processes; a custom player must then be importable, e.g. a class at module level).
    *progress*, if given, is called with the number of deals done.

    >>> simulate(3, ["random", "random", "normal"], seed=2).as_dict()["deals"]
    3
    >>> simulate(3, [RandomPlayer, "normal", "normal"], seed=2).seats
    ('random', 'normal', 'normal')
    """
    entries = tuple(seat.strip().lower() if isinstance(seat, str) else seat for seat in seats)
    if len(entries) != SEATS:
        raise KowahError(N_("error", "a deal needs {seats} players, not {count}"), seats=SEATS,
                         count=len(entries))
    for entry in entries:
        if entry not in PLAYERS if isinstance(entry, str) else not callable(entry):
            raise UnknownPlayerError(
                N_("error", "unknown player {value!r} (choose random, normal or hard)"), value=entry
            )
    names = tuple(_seat_name(entry) for entry in entries)
    if deals < 0:
        raise KowahError(N_("error", "the number of deals must not be negative, not {value}"),
                         value=deals)
    results: list[tuple[int | None, str | None]] = []
    if jobs <= 1 or deals < 2:
        for index in range(deals):
            results.append(_play_one(entries, seed, index))
            if progress is not None:
                progress(len(results))
    else:
        size = max(1, min(50, deals // (jobs * 8)))
        try:
            pickle.dumps(entries)
        except (pickle.PicklingError, AttributeError, TypeError):
            raise KowahError(N_("error", "a player for jobs > 1 must be importable (a class or function "
                                         "at module level)")) from None
        chunks = [(entries, seed, start, min(deals, start + size)) for start in range(0, deals, size)]
        with multiprocessing.get_context().Pool(jobs, initializer=_ignore_interrupts) as pool:
            for chunk in pool.imap(_play_chunk, chunks):
                results += chunk
                if progress is not None:
                    progress(len(results))
    wins = [0] * SEATS
    by = {"self-draw": 0, "discard": 0, "draw-claim": 0}
    drawn = 0
    for winner, how in results:
        if winner is None:
            drawn += 1
        else:
            wins[winner] += 1
            by[how] += 1  # type: ignore[index]
    return SimulationResult(deals, names, tuple(wins), drawn, by)
