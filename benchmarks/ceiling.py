"""How much room is there above the normal player? Variants of it, and players that cheat.

    python benchmarks/ceiling.py                       # every variant (about 6 minutes, 2 jobs)
    python benchmarks/ceiling.py --only normal,no-takes --deals 2000
    python benchmarks/ceiling.py --only rollouts --slow-deals 300   # about 20 minutes

Each variant plays one seat against two normal players, on the same decks as every other
variant (deal *i* is ``Deal.shuffled(20_000 + i)`` with the variant at seat ``i % 3``), and the
script prints its share of the deals with a 95% interval. A third is par.

The variants, in three kinds:

* ``normal`` is the control; ``no-acceptance`` and ``no-takes`` are normal with one skill
  removed, to show which skills matter.
* ``hard`` is the search player; ``rollouts`` is a much slower search that plays every
  candidate discard to the end of the deal many times.
* ``informed-stock``, ``informed-next`` and ``oracle-order`` cheat, to bound what
  information is worth: normal told which unseen cards are in the stock (its live counts are
  exact); normal that never feeds the next seat a card that improves its actual hand when an
  equally good discard exists; hard's search given the actual order of the stock; and
  ``rollouts`` with the other seats' actual hands (``rollouts-informed``).

These players read the deal's hidden state, which no real player may do (issue 4): they exist
only here, to measure the ceiling of the ``hard`` target.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence

from kowah.cards import Card
from kowah.deal import Action, ActionKind, Deal, Observation
from kowah.players import (
    HardPlayer,
    NormalPlayer,
    Player,
    _avoid,
    _declare_choice,
    _Determiniser,
    _discard_scores,
    _improves,
    _unseen,
    _wilson,
    play_deal,
)

_KINDS = 30


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
                or self.deal.wait(after) is not None):
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
    what this seat has seen), every candidate is applied to a copy of the deal, which is then
    played to its end by three normal players; the candidate that wins most often is chosen.
    The same samples and seeds serve every candidate. About 8 s per deal, far over the time
    budget of ``hard``: it measures whether full-deal rollouts help at all, with the hidden
    cards sampled uniformly and with the other seats' actual hands. The deal copies are
    changed through private attributes; the library has no public way to resample hidden cards.
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
        others = [Action.discard(observation.seat, Card(card)) for _, card in scored
                  if card != favourite.card]
        candidates = [favourite, *others[: self.candidates - 1]]
        if len(candidates) == 1:
            return favourite
        sampler = _Determiniser(observation)
        seeds = [self.rng.getrandbits(40) for _ in range(self.rollouts)]
        wins = [sum(self._rollout(observation.seat, action, seed, sampler) for seed in seeds)
                for action in candidates]
        return candidates[wins.index(max(wins))]  # ties go to normal's choice

    def _rollout(self, seat: int, action: Action, seed: int, sampler: _Determiniser) -> int:
        rng = random.Random(seed)
        deal = self.deal.copy()
        start = deal._stock
        if self.informed:
            stock = [int(card) for card in deal.deck[start:]]
            rng.shuffle(stock)
        else:
            hands, stock = sampler.sample(rng)
            for other in range(3):
                if other != seat:
                    deal._hands[other] = [Card(card) for card in hands[other]]
        deal.deck = deal.deck[:start] + tuple(Card(card) for card in stock)
        deal.apply(action)
        play_deal([NormalPlayer(random.Random(seed * 3 + other)) for other in range(3)], deal,
                  ask_forced=False)
        return int(deal.outcome is not None and deal.outcome.winner == seat)


class InformedRollouts(Rollouts):
    """:class:`Rollouts` that keeps the other seats' actual hands in every sample (cheats)."""

    informed = True


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
}
_SLOW = ("hard", "oracle-order", "rollouts", "rollouts-informed")
#: Left out unless asked for with --only: several seconds per deal.
_SLOWEST = ("rollouts", "rollouts-informed")


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
