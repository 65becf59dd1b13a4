"""How much room is there above the normal player? Variants of it, and players that cheat.

    python benchmarks/ceiling.py                       # every variant (about 6 minutes, 2 jobs)
    python benchmarks/ceiling.py --only normal,no-takes --deals 2000
    python benchmarks/ceiling.py --only rollouts --slow-deals 300   # about 8 minutes
    python benchmarks/ceiling.py --only rollouts-inferred --slow-deals 300   # about 9 minutes

Each variant plays one seat against two normal players, on the same decks as every other
variant (deal *i* is ``Deal.shuffled(20_000 + i)`` with the variant at seat ``i % 3``), and the
script prints its share of the deals with a 95% interval. A third is par.

The variants, in three kinds:

* ``normal`` is the control; ``no-acceptance`` and ``no-takes`` are normal with one skill
  removed, to show which skills matter.
* ``hard`` is the search player; ``rollouts`` is a much slower search that plays every
  candidate discard to the end of the deal many times, with the hidden cards sampled
  uniformly; ``rollouts-inferred`` is the same search with the other hands sampled from
  :class:`HandInference`, which infers them from how those seats have played.
* ``informed-stock``, ``informed-next`` and ``oracle-order`` cheat, to bound what
  information is worth: normal told which unseen cards are in the stock (its live counts are
  exact); normal that never feeds the next seat a card that improves its actual hand when an
  equally good discard exists; hard's search given the actual order of the stock; and
  ``rollouts`` with the other seats' actual hands (``rollouts-informed``).

The cheats read the deal's hidden state, which no real player may do (issue 4): they exist
only here, to measure the ceiling of the ``hard`` target.
"""

from __future__ import annotations

import argparse
import bisect
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence

from kowah import Action, ActionKind, Deal, Event, Observation
from kowah.cards import Card
from kowah.players import (
    _DIGIT,
    _GROUP,
    _WT,
    HardPlayer,
    NormalPlayer,
    Player,
    _avoid,
    _best_discards,
    _declare_choice,
    _Determiniser,
    _discard_scores,
    _improves,
    _normal_discard,
    _ready,
    _shape_kept,
    _unseen,
    _wilson,
    play_deal,
)

_KINDS = 30
_AFTER = (1, 2, 0)  # the next seat in rotation (R9)
_AFTER_BOTH = ((1, 2), (2, 0), (0, 1))  # the other seats in rotation order from a seat (R14)


def _stock_counts(deal: Deal) -> list[int]:
    counts = [0] * _KINDS
    for card in deal.stock:
        counts[card] += 1
    return counts


def _nearest(observation: Observation, legal: tuple[Action, ...],
             live: Sequence[int]) -> list[tuple[tuple[int, int, int], int]]:
    """Normal's scored discards, and only those that keep the hand nearest to ready."""
    options = [int(action.card) for action in legal if action.card is not None]
    scored = _discard_scores(tuple(observation.hand), options, live, _avoid(observation))
    top = max(score[:2] for score, _ in scored)
    return [(score, card) for score, card in scored if score[:2] == top]


# -- fast playouts ----------------------------------------------------------------------------


def _normal_wait(hand: list[int], live: list[int]) -> int:
    """Normal's wait for a ready eight-card hand: the most live copies, or -1 if all are dead."""
    wait, most = -1, 0
    for card in sorted(_ready()[tuple(hand)]):
        if live[card] > most:
            wait, most = int(card), live[card]
    return wait


class _Playout:
    """A deal in lists, from the start of any turn, played to its end by normal's policy.

    It gives the same result as :func:`play_deal` with three :class:`NormalPlayer` sharing one
    random generator (tests/test_benchmarks.py checks it), several times faster. *known* holds,
    per seat, the counts of its cards the other seats know of; *piles* the counts of the
    discards still on the table; *declared* each seat's wait or -1.
    """

    __slots__ = ("declared", "hands", "known", "latest", "piles", "stock", "turn")

    def __init__(self, hands: list[list[int]], stock: list[int], declared: list[int],
                 known: list[list[int]], piles: list[int], turn: int, latest: int | None) -> None:
        self.hands, self.stock, self.declared = hands, stock, declared
        self.known, self.piles, self.turn, self.latest = known, piles, turn, latest

    def _live(self, seat: int) -> list[int]:
        """The copies of each kind *seat* has not seen (its normal live counts)."""
        known, piles = self.known, self.piles
        own = known[seat]
        live = [4 - piles[card] - known[0][card] - known[1][card] - known[2][card] + own[card]
                for card in range(_KINDS)]
        for card in self.hands[seat]:
            live[card] -= 1
        return [count if count > 0 else 0 for count in live]

    def _claimant(self, seat: int, card: int) -> int:
        """The declared seat that wins *card* drawn or discarded by *seat* (R14), or -1."""
        declared = self.declared
        for other in _AFTER_BOTH[seat]:
            if declared[other] == card:
                return other
        return -1

    def discarded(self, seat: int, card: int) -> int:
        """*seat* has just discarded *card* from its hand: claims, then normal's declaration.
        The winner, or -1 when play goes on."""
        known, hand = self.known[seat], self.hands[seat]
        self.piles[card] += 1
        if known[card]:
            known[card] -= 1
        winner = self._claimant(seat, card)
        if winner >= 0:
            return winner
        if self.declared[seat] < 0 and tuple(hand) in _ready():
            wait = _normal_wait(hand, self._live(seat))
            if wait >= 0:
                self.declared[seat] = wait
                known[wait] = max(known[wait], 2)
        self.latest = card
        self.turn = _AFTER[seat]
        return -1

    def play(self, rnd: Callable[[], float]) -> int:
        """Play to the end: the winner, or -1 for a drawn deal."""
        stock, declared, hands, known = self.stock, self.declared, self.hands, self.known
        index, end = 0, len(stock)
        while True:
            seat = self.turn
            hand = hands[seat]
            wait = declared[seat]
            latest = self.latest
            if wait < 0 and latest is not None and _improves(tuple(hand), latest):
                self.piles[latest] -= 1
                known[seat][latest] += 1
                bisect.insort(hand, latest)
                taken = latest
            else:
                card = stock[index]
                index += 1
                if card == wait:
                    return seat  # R12: a self-draw
                public = declared[0] >= 0 or declared[1] >= 0 or declared[2] >= 0
                winner = self._claimant(seat, card)
                if winner >= 0:
                    return winner
                if index == end:
                    return -1  # R16
                if wait >= 0:  # a locked hand discards what it drew
                    self.piles[card] += 1
                    self.latest = card
                    self.turn = _AFTER[seat]
                    continue
                if public:
                    known[seat][card] += 1
                bisect.insort(hand, card)
                taken = -1
            avoid = frozenset(other for other in declared if other >= 0)  # this seat is undeclared
            options = [card for card in dict.fromkeys(hand) if card != taken]
            card = _normal_discard(tuple(hand), options, self._live(seat), avoid, rnd)
            hand.remove(card)
            winner = self.discarded(seat, card)
            if winner >= 0:
                return winner


class NoAcceptance(NormalPlayer):
    """Normal, but any discard that keeps the hand nearest to ready will do."""

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        if len(legal_actions) > 1 and legal_actions[0].kind is ActionKind.DISCARD:
            cards = [card for _, card in _nearest(observation, legal_actions, _unseen(observation))]
            card = cards[int(self.rng.random() * len(cards))]
            return Action.discard(observation.seat, Card(card))
        return super().choose(observation, legal_actions)


class NoTakes(NormalPlayer):
    """Normal, but it always draws from the stock."""

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        if legal_actions[0].kind is ActionKind.DRAW:
            return legal_actions[0]
        return super().choose(observation, legal_actions)


class InformedStock(NormalPlayer):
    """Normal, with exact live counts: the cards actually left in the stock (cheats)."""

    deal: Deal

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        live = _stock_counts(self.deal)
        seat = observation.seat
        kind = legal_actions[0].kind
        if kind is ActionKind.DECLARE or kind is ActionKind.PASS:
            choice = _declare_choice(legal_actions, live)
            return choice if choice is not None else Action.pass_(seat)
        if kind is ActionKind.DRAW:
            return super().choose(observation, legal_actions)
        scored = _nearest(observation, legal_actions, live)
        best = max(score for score, _ in scored)
        cards = [card for score, card in scored if score == best]
        return Action.discard(seat, Card(cards[int(self.rng.random() * len(cards))]))


class InformedNext(NormalPlayer):
    """Normal that never feeds the next seat's actual hand when it can avoid it (cheats)."""

    deal: Deal

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        after = (observation.seat + 1) % 3
        if (len(legal_actions) == 1 or legal_actions[0].kind is not ActionKind.DISCARD
                or self.deal.declared_wait(after) is not None):
            return super().choose(observation, legal_actions)
        scored = _nearest(observation, legal_actions, _unseen(observation))
        following = tuple(int(card) for card in self.deal.hand(after))
        safe = [item for item in scored if not _improves(following, item[1])] or scored
        best = max(score for score, _ in safe)
        cards = [card for score, card in safe if score == best]
        return Action.discard(observation.seat, Card(cards[int(self.rng.random() * len(cards))]))


class _TrueStock(_Determiniser):
    """A 'sampler' that always returns the deal's actual stock order (cheats)."""

    def __init__(self, observation: Observation, deal: Deal) -> None:
        super().__init__(observation)
        self.deal = deal

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        return [], [int(card) for card in self.deal.stock]


class OracleOrder(HardPlayer):
    """Hard's search, with every sample replaced by the actual stock order (cheats)."""

    deal: Deal

    def _sampler(self, observation: Observation) -> _Determiniser:
        return _TrueStock(observation, self.deal)


class Rollouts(NormalPlayer):
    """Normal, but each discard with several sensible options is chosen by full-deal rollouts.

    The candidates are normal's choice and its next best three. For each of 100 samples of
    the hidden cards (the other seats' concealed cards and the stock order, consistent with
    what this seat has seen), every candidate is played to the end of the deal by three normal
    players (:class:`_Playout`); the candidate that wins most often is chosen. The same samples
    and seeds serve every candidate. Seconds per deal, far over the time budget of ``hard``:
    it measures whether full-deal rollouts help at all, with the hidden cards sampled
    uniformly, inferred from play, or the other seats' actual hands.
    """

    deal: Deal
    rollouts = 100
    candidates = 4
    informed = False  # True: keep the other seats' actual hands (cheats)

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        favourite = super().choose(observation, legal_actions)
        if len(legal_actions) == 1 or legal_actions[0].kind is not ActionKind.DISCARD:
            return favourite
        scored = sorted(_discard_scores(tuple(observation.hand),
                                        [int(action.card) for action in legal_actions if action.card],
                                        _unseen(observation), _avoid(observation)), reverse=True)
        assert favourite.card is not None
        candidates = [int(favourite.card)]
        candidates += [card for _, card in scored if card != favourite.card][: self.candidates - 1]
        if len(candidates) == 1:
            return favourite
        sampler = self._sampler(observation)
        me = observation.seat
        declared = [-1 if wait is None else int(wait) for wait in observation.declared_waits]
        known = [[0] * _KINDS for _ in range(3)]
        piles = [0] * _KINDS
        for seat in range(3):
            for card in observation.known[seat]:
                known[seat][card] += 1
            for card in observation.discards[seat]:
                piles[card] += 1
        wins = [0] * len(candidates)
        for _ in range(self.rollouts):
            seed = self.rng.getrandbits(40)
            hands, stock = self._sample(sampler, random.Random(seed))
            for index, choice in enumerate(candidates):
                mine = list(hands[me])
                mine.remove(choice)
                playout = _Playout([mine if seat == me else list(hands[seat]) for seat in range(3)],
                                   stock, list(declared), [list(counts) for counts in known],
                                   list(piles), me, None)
                winner = playout.discarded(me, choice)
                if winner < 0:
                    winner = playout.play(random.Random(seed).random)
                wins[index] += winner == me
        return Action.discard(me, Card(candidates[wins.index(max(wins))]))  # ties: normal's choice

    def _sampler(self, observation: Observation) -> _Determiniser:
        return _Determiniser(observation)

    def _sample(self, sampler: _Determiniser, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        if not self.informed:
            return sampler.sample(rng)
        stock = [int(card) for card in self.deal.stock]
        rng.shuffle(stock)
        return [[int(card) for card in self.deal.hand(seat)] for seat in range(3)], stock


class InformedRollouts(Rollouts):
    """:class:`Rollouts` that keeps the other seats' actual hands in every sample (cheats)."""

    informed = True


# -- inferring the other hands ----------------------------------------------------------------
#
# A particle filter per other seat, on the assumption that it plays like ``normal``. Each
# particle is one whole hand (counts of the 30 kinds). The seat's events are replayed from the
# start of the deal (later calls read only the new ones):
#
# * a discard weighs the particle by the chance that normal, holding it, makes that discard:
#   normal's own scores with that seat's live counts (all it sees outside its hand is public),
#   ties shared, and _SLIP left for any other discard;
# * a hidden stock draw is proposed at the discard that follows it, in proportion to the unseen
#   copies of each kind times a cheap version of that chance (uniform among the discards that
#   keep the hand nearest to ready), and reweighted to the exact one;
# * a take, or a draw where a take was possible, weighs it by whether normal would have taken;
# * a ready hand with a live wait that did not declare is nearly impossible (_STAY); a declared
#   wait must be a wait of the hand.
#
# Particles are resampled when few carry the weight; when none is left, they start again from
# the known cards (for a declared seat, from the ready hands with its wait). The other seats'
# particles are drawn independently, and a pair is kept when their concealed cards fit the
# unseen cards together.

_SLIP = 0.03  # the chance that an opponent's action is not what the model predicts
_STAY = 0.002  # the chance that a ready hand with a live wait does not declare
_STRAY = 0.05  # the weight of a particle mended to hold a card it is seen to discard


def _hand_key(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(card for card in range(_KINDS) for _ in range(counts[card]))


def _discard_chance(counts: list[int], card: int, forbidden: int, avoid: frozenset[int]) -> float:
    """The chance that normal discards *card* from the nine-card hand *counts*, softened: the
    proposal for a hidden draw (:meth:`_Particles._exact` is the chance itself)."""
    if counts[card] == 0 or card == forbidden or max(counts) > 4 or sum(counts) != 9:
        return 0.0
    codes = [0] * 15
    for kind in range(_KINDS):
        if counts[kind]:
            codes[_GROUP[kind]] += _WT[kind] * counts[kind]
    shape9 = sum(map(_DIGIT.__getitem__, codes))
    best, top, options = (-1, -1), 0, 0
    mine = best
    for kind in range(_KINDS):
        if not counts[kind] or kind == forbidden:
            continue
        options += 1
        old = codes[_GROUP[kind]]
        score = (0 if kind in avoid else 1,
                 _shape_kept(shape9 - _DIGIT[old] + _DIGIT[old - _WT[kind]]))
        if kind == card:
            mine = score
        if score > best:
            best, top = score, 1
        elif score == best:
            top += 1
    if mine == best:
        return (1 - _SLIP) / top
    return _SLIP / max(1, options - top)


class _Particles:
    """The particles of one other seat's hand."""

    def __init__(self, size: int, rng: random.Random, free: Sequence[int]) -> None:
        self.size = size
        self.rng = rng
        flat = [card for card in range(_KINDS) for _ in range(free[card])]
        self.hands: list[list[int]] = []
        for _ in range(size):
            counts = [0] * _KINDS
            for card in rng.sample(flat, 8):
                counts[card] += 1
            self.hands.append(counts)
        self.weights = [1.0] * size
        self.known = [0] * _KINDS  # cards known to be in the hand: taken, drawn in public, exposed
        self.hidden_draw = False
        self.taken = -1
        self.wait = -1  # its declared wait, once it has declared
        self.held = 8  # cards in the particles' hands: 9 between a take or public draw and a discard
        self.restarts = 0

    def weigh_take(self, offered: int, took: bool) -> None:
        """Normal takes the latest discard exactly when it brings the hand nearer to ready."""
        for index, counts in enumerate(self.hands):
            if self.weights[index]:
                helps = _improves(_hand_key(counts), offered)
                self.weights[index] *= 1 - _SLIP if helps == took else _SLIP

    def add(self, card: int | None, taken: bool) -> None:
        """A stock draw (*card* None when hidden) or a take."""
        self.taken = card if taken and card is not None else -1
        self.hidden_draw = card is None
        if card is None:
            return  # proposed at the discard, which tells much about it
        self.held = 9
        self.known[card] += 1
        for index, counts in enumerate(self.hands):
            if counts[card] >= 4:
                self.weights[index] = 0.0
            else:
                counts[card] += 1

    def discard(self, card: int, free: Sequence[int], avoid: frozenset[int],
                public: Sequence[int]) -> None:
        """*free*: the copies of each kind the inferring seat has not seen, this card included;
        *public*: the cards this seat sees outside its hand (its live counts are 4 less these
        and its own cards)."""
        if self.wait >= 0:  # a locked hand discards what it drew (R12): nothing to learn
            for counts in self.hands:
                counts[card] -= 1
            self.known[card] -= 1
            self.held = 8
            return
        rng, known = self.rng, self.known
        for index, counts in enumerate(self.hands):
            if not self.weights[index]:
                continue
            if self.hidden_draw:
                proposals: list[tuple[float, int]] = []
                total, unseen = 0.0, 0
                for kind in range(_KINDS):
                    copies = free[kind] - (counts[kind] - known[kind])
                    if copies <= 0 or counts[kind] >= 4:
                        continue
                    unseen += copies
                    counts[kind] += 1
                    chance = _discard_chance(counts, card, self.taken, avoid)
                    counts[kind] -= 1
                    if chance:
                        proposals.append((copies * chance, kind))
                        total += copies * chance
                if not total:
                    self.weights[index] = 0.0
                    continue
                pick = rng.random() * total
                drawn = proposals[-1][1]
                for mass, kind in proposals:
                    pick -= mass
                    if pick <= 0:
                        drawn = kind
                        break
                counts[drawn] += 1
                self.weights[index] *= total / unseen * self._exact(counts, card, avoid, public) / (
                    _discard_chance(counts, card, self.taken, avoid))
            else:
                if not counts[card] and free[card] > 0:
                    # The particle cannot have made this discard: mend it (one concealed card
                    # becomes this one) at a cost, rather than lose every particle.
                    concealed = [kind for kind in range(_KINDS)
                                 for _ in range(counts[kind] - known[kind])]
                    if concealed:
                        counts[rng.choice(concealed)] -= 1
                        counts[card] += 1
                        self.weights[index] *= _STRAY
                self.weights[index] *= self._exact(counts, card, avoid, public)
            if counts[card]:
                counts[card] -= 1
        if known[card]:
            known[card] -= 1
        self.hidden_draw, self.taken, self.held = False, -1, 8

    def _exact(self, counts: list[int], card: int, avoid: frozenset[int],
               public: Sequence[int]) -> float:
        """The chance that normal, holding the nine cards *counts*, discards *card*: its own
        scores, ties shared, with _SLIP left for anything else."""
        if not counts[card] or card == self.taken or max(counts) > 4 or sum(counts) != 9:
            return 0.0
        live = [max(0, 4 - counts[kind] - public[kind]) for kind in range(_KINDS)]
        options = [kind for kind in range(_KINDS) if counts[kind] and kind != self.taken]
        ties = _best_discards(_hand_key(counts), options, live, avoid)
        if card in ties:
            return (1 - _SLIP) / len(ties)
        return _SLIP / max(1, len(options) - len(ties))

    def weigh_declaring(self, wait: int | None, live: Sequence[int]) -> None:
        """Normal declares a ready hand unless all its waits are dead; *wait* is what it did."""
        table = _ready()
        for index, counts in enumerate(self.hands):
            waits = table.get(_hand_key(counts))
            if wait is None:
                if waits and any(live[other] > 0 for other in waits):
                    self.weights[index] *= _STAY
            elif not waits or wait not in waits:
                self.weights[index] = 0.0
        if wait is not None:
            self.wait = wait
            self.known[wait] = max(self.known[wait], 2)

    def settle(self, free: Sequence[int]) -> None:
        """Drop particles that hold more of a card than is unseen, and resample when few
        particles carry the weight (or restart from the known cards when none is left)."""
        known = self.known
        for index, counts in enumerate(self.hands):
            if self.weights[index] and any(counts[kind] - known[kind] > free[kind]
                                           for kind in range(_KINDS)):
                self.weights[index] = 0.0
        total = sum(self.weights)
        size = self.size
        if not total:
            self.restart(free)
            return
        if total * total < sum(weight * weight for weight in self.weights) * size / 2:
            step = total / size
            point = self.rng.random() * step
            chosen: list[list[int]] = []
            reach = 0.0
            for counts, weight in zip(self.hands, self.weights, strict=True):
                reach += weight
                while point < reach and len(chosen) < size:
                    chosen.append(list(counts))
                    point += step
            chosen += [list(self.hands[-1]) for _ in range(size - len(chosen))]
            self.hands, self.weights = chosen, [1.0] * size

    def restart(self, free: Sequence[int]) -> None:
        """No particle explains the play: start again from the known cards, uniformly, or for
        a declared seat from the ready hands with its wait."""
        self.restarts += 1
        known = self.known
        if self.wait >= 0:
            hands = []
            for key, waits in _ready().items():
                if self.wait in waits:
                    counts = [0] * _KINDS
                    for card in key:
                        counts[card] += 1
                    if all(known[kind] <= counts[kind] <= known[kind] + free[kind]
                           for kind in range(_KINDS)):
                        hands.append(counts)
            if hands:
                self.hands = [list(self.rng.choice(hands)) for _ in range(self.size)]
                self.weights = [1.0] * self.size
                return
        flat = [kind for kind in range(_KINDS) for _ in range(max(0, free[kind]))]
        self.hands = []
        for _ in range(self.size):
            counts = list(known)
            for kind in self.rng.sample(flat, max(0, self.held - sum(known))):
                counts[kind] += 1
            self.hands.append(counts)
        self.weights = [1.0] * self.size

    def pick(self, rng: random.Random) -> list[int]:
        point = rng.random() * sum(self.weights)
        for counts, weight in zip(self.hands, self.weights, strict=True):
            point -= weight
            if point <= 0:
                return counts
        return self.hands[-1]


class HandInference:
    """Particles for the other seats' hands, from one seat's observation of the deal.

    Honest: it reads only the observation. Its model of the other seats is ``normal``.
    :meth:`update` with a later observation of the same seat in the same deal reads only the
    events that are new.
    """

    def __init__(self, observation: Observation, rng: random.Random, size: int = 200) -> None:
        me = self.me = observation.seat
        # The seat's own opening hand: its hand now, less what it drew or took, plus its discards.
        seen = [0] * _KINDS
        for own in observation.hand:
            seen[own] += 1
        for event in observation.events:
            if event.seat == me and event.card is not None:
                if event.kind in ("draw", "take"):
                    seen[event.card] -= 1
                elif event.kind == "discard":
                    seen[event.card] += 1
        self.seen = seen  # the copies of each kind the inferring seat has seen, as it goes
        free = [4 - count for count in seen]
        self.particles = {seat: _Particles(size, rng, free) for seat in range(3) if seat != me}
        self.piles = [0] * _KINDS  # the discards still in the piles
        self.mine = [0] * _KINDS  # the inferring seat's cards that the others know of
        self.waits: list[int | None] = [None, None, None]
        self.latest: int | None = None
        self.deciding: int | None = None  # a seat that discarded and may declare next
        self.done = 0
        self.update(observation)

    def _free(self) -> list[int]:
        return [4 - count for count in self.seen]

    def update(self, observation: Observation) -> None:
        """Read the events of *observation* that this inference has not read yet."""
        events = observation.events
        for event in events[self.done:]:
            self._read(event)
        self.done = len(events)

    def _read(self, event: Event) -> None:
        kind, seat = event.kind, event.seat
        card = None if event.card is None else int(event.card)
        me, seen, piles, mine, waits = self.me, self.seen, self.piles, self.mine, self.waits
        if self.deciding is not None:
            # Did the seat that discarded last declare? Normal declares a ready hand.
            hand = self.particles[self.deciding]
            if kind != "win":
                wait = card if kind == "declare" and seat == self.deciding else None
                if wait is not None:
                    seen[wait] += max(0, 2 - hand.known[wait])  # the exposed pair
                hand.weigh_declaring(wait, self._free())
                hand.settle(self._free())
            self.deciding = None
        if seat is None or kind in ("win", "drawn"):
            return
        if kind == "declare":
            waits[seat] = card
            if seat == me and card is not None:
                mine[card] = max(mine[card], 2)
            return
        if kind == "take" and card is not None:
            piles[card] -= 1
        if kind in ("draw", "take"):
            if seat == me:
                if kind == "draw" and card is not None:
                    seen[card] += 1
                if card is not None and (kind == "take" or event.public):
                    mine[card] += 1
            else:
                hand = self.particles[seat]
                if self.latest is not None and waits[seat] is None:
                    hand.weigh_take(self.latest, kind == "take")
                if kind == "draw" and card is not None:
                    seen[card] += 1
                hand.add(card, kind == "take")
                hand.settle(self._free())
            self.latest = None
            return
        # a discard
        assert card is not None
        if seat != me:
            hand = self.particles[seat]
            was_known = hand.known[card] > 0
            avoid = frozenset(wait for other, wait in enumerate(waits)
                              if wait is not None and other != seat)
            third = self.particles[3 - me - seat].known
            public = [piles[kind] + mine[kind] + third[kind] for kind in range(_KINDS)]
            hand.discard(card, self._free(), avoid, public)
            if not was_known:
                seen[card] += 1
            if waits[seat] is None:
                self.deciding = seat
            hand.settle(self._free())
        elif mine[card]:
            mine[card] -= 1
        piles[card] += 1
        self.latest = card


class _InferredSampler(_Determiniser):
    """Samples the hidden cards from :class:`HandInference`'s particles; the stock uniformly."""

    def __init__(self, observation: Observation, inference: HandInference) -> None:
        super().__init__(observation)
        inference.update(observation)
        self.inference = inference
        self.unseen = _unseen(observation)
        self.fallbacks = 0

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        for _ in range(30):
            pool = list(self.unseen)
            hands: list[list[int]] = []
            for seat in range(3):
                if seat == self.me:
                    hands.append(list(self.hand))
                    continue
                particles = self.inference.particles[seat]
                counts = particles.pick(rng)
                concealed = [counts[kind] - particles.known[kind] for kind in range(_KINDS)]
                if min(concealed) < 0 or sum(concealed) != self.concealed[seat]:
                    break
                for kind in range(_KINDS):
                    pool[kind] -= concealed[kind]
                if min(pool) < 0:
                    break
                hands.append(sorted(self.known[seat] + list(_hand_key(concealed))))
            else:
                stock = list(_hand_key(pool))
                rng.shuffle(stock)
                return hands, stock
        self.fallbacks += 1  # no pair of particles fits: sample uniformly
        return super().sample(rng)


class InferredRollouts(Rollouts):
    """:class:`Rollouts` whose samples of the other hands come from :class:`HandInference`:
    hands that explain how those seats have played, if they play like ``normal``. Honest."""

    inference: HandInference | None = None

    def _sampler(self, observation: Observation) -> _Determiniser:
        if self.inference is None:
            self.inference = HandInference(observation, random.Random(self.rng.getrandbits(40)))
        return _InferredSampler(observation, self.inference)


def _cheat(kind: type[InformedStock | InformedNext | OracleOrder | Rollouts]
           ) -> Callable[[random.Random, Deal], Player]:
    def make(rng: random.Random, deal: Deal) -> Player:
        player = kind(rng)
        player.deal = deal
        return player
    return make


_VARIANTS: dict[str, Callable[[random.Random, Deal], Player]] = {
    "normal": lambda rng, deal: NormalPlayer(rng),
    "no-acceptance": lambda rng, deal: NoAcceptance(rng),
    "no-takes": lambda rng, deal: NoTakes(rng),
    "hard": lambda rng, deal: HardPlayer(rng),
    "informed-stock": _cheat(InformedStock),
    "informed-next": _cheat(InformedNext),
    "oracle-order": _cheat(OracleOrder),
    "rollouts": _cheat(Rollouts),
    "rollouts-informed": _cheat(InformedRollouts),
    "rollouts-inferred": _cheat(InferredRollouts),
}
_SLOW = ("hard", "oracle-order", "rollouts", "rollouts-informed", "rollouts-inferred")
#: Left out unless asked for with --only: several seconds per deal.
_SLOWEST = ("rollouts", "rollouts-informed", "rollouts-inferred")


def _play(job: tuple[str, int]) -> int:
    """1 if the variant wins deal *index*, else 0."""
    name, index = job
    deal = Deal.shuffled(20_000 + index)
    seat = index % 3
    players: list[Player] = [NormalPlayer(random.Random(f"{index}/{other}")) for other in range(3)]
    players[seat] = _VARIANTS[name](random.Random(f"{index}/{name}"), deal)
    play_deal(players, deal, ask_forced=False)
    outcome = deal.outcome
    return int(outcome is not None and outcome.winner == seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=4000, help="deals per fast variant")
    parser.add_argument("--slow-deals", type=int, default=600, help="deals for hard and oracle-order")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--only", default=",".join(name for name in _VARIANTS if name not in _SLOWEST),
                        help="comma-separated variants (default: all but " + ", ".join(_SLOWEST)
                        + "): " + ", ".join(_VARIANTS))
    args = parser.parse_args()
    names = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in names if name not in _VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r} (choose from {', '.join(_VARIANTS)})")
    print(f"{'variant':<16}{'deals':>7}{'wins':>7}{'share':>8}   95% interval   seconds")
    with multiprocessing.get_context().Pool(args.jobs) as pool:
        for name in names:
            deals = args.slow_deals if name in _SLOW else args.deals
            start = time.perf_counter()
            wins = sum(pool.imap_unordered(_play, ((name, index) for index in range(deals)),
                                           chunksize=10))
            elapsed = time.perf_counter() - start
            low, high = _wilson(wins, deals)
            print(f"{name:<16}{deals:>7}{wins:>7}{wins / deals:>8.1%}   {low:.1%}-{high:.1%}"
                  f"{elapsed:>10.0f}", flush=True)


if __name__ == "__main__":
    main()
