"""How much room is there above the ``hard`` player? Variants of it, and players that cheat.

    python benchmarks/ceiling.py                       # every variant (a few minutes, 1 job)
    python benchmarks/ceiling.py --only hard,no-takes --deals 2000
    python benchmarks/ceiling.py --write               # every variant, figures saved for the docs

``--write`` saves the figures the players page shows in ``benchmarks/results/ceiling.json``
(see ``benchmarks/results.py``), with each variant's wins in its first ``CHECK_DEALS`` deals,
which ``tests/test_docs_figures.py`` plays again.

Each variant plays one seat against two ``hard`` players, on the same decks as every other
variant (deal *i* is ``Deal.shuffled(20_000 + i)`` with the variant at seat ``i % 3``), and the
script prints its share of the deals with a 95% interval. A third is par.

The variants use only the public API (:mod:`kowah.players`, :mod:`kowah.coach`,
:mod:`kowah.hands`, :class:`~kowah.deal.Observation`):

* ``hard`` is the control; ``no-acceptance`` and ``no-takes`` are hard with one skill
  removed (its :meth:`~kowah.players.HardPlayer.discards` or
  :meth:`~kowah.players.HardPlayer.takes` replaced), to show which skills matter.
* ``informed-stock`` and ``informed-next`` cheat, to bound what information is worth: hard
  told the other seats' hands, so that its live counts are exactly the stock; and hard that
  never feeds the next seat a card that improves its actual hand when an equally near
  discard exists (chosen in the coach's order, :func:`kowah.coach.advise`).

The cheats read the deal's hidden state, which no real player may do: they exist only here.
Earlier sessions also measured searches (hard's former rollouts, full-deal rollouts with
hidden cards sampled, inferred by a particle filter, or told): they needed the package's
private evaluators and are no longer kept; their figures are on the players page.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from kowah import Action, ActionKind, Deal, Observation
from kowah.cards import Card
from kowah.coach import advise
from kowah.hands import improvements
from kowah.players import HardPlayer, NormalPlayer, Player
from kowah.simulation import play_deal

CHECK_DEALS = 12  # deals of each variant that the docs' test plays again


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * (p * (1 - p) / trials + z * z / (4 * trials * trials)) ** 0.5 / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class NoAcceptance(HardPlayer):
    """Hard, but any discard that keeps the hand nearest to ready will do (normal's discards)."""

    discards = NormalPlayer.discards


class NoTakes(HardPlayer):
    """Hard, but it always draws from the stock."""

    def takes(self, hand: tuple[int, ...], latest: Card) -> bool:
        return False


class InformedStock(HardPlayer):
    """Hard told the other seats' hands: its unseen cards are exactly the stock (cheats)."""

    deal: Deal

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        hands = tuple(tuple(self.deal.hand(seat)) for seat in range(3))
        told = observation.replace(known=hands)
        return super().choose(told, legal_actions)


class InformedNext(HardPlayer):
    """Hard that never feeds the next seat's actual hand when it can avoid it (cheats)."""

    deal: Deal

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        after = (observation.seat + 1) % 3
        if (len(legal_actions) == 1 or legal_actions[0].kind is not ActionKind.DISCARD
                or self.deal.declared_wait(after) is not None or len(self.deal.hand(after)) != 8):
            return super().choose(observation, legal_actions)
        options = advise(observation).discards  # hard's order of preference
        nearest = [option for option in options
                   if (option.feeds, option.distance) == (options[0].feeds, options[0].distance)]
        helps = improvements(self.deal.hand(after))
        safe = [option for option in nearest if option.card not in helps] or nearest
        return Action.discard(observation.seat, safe[0].card)


def _cheat(kind: type[InformedStock | InformedNext]) -> Callable[[random.Random, Deal], Player]:
    def make(rng: random.Random, deal: Deal) -> Player:
        player = kind(rng)
        player.deal = deal
        return player
    return make


VARIANTS: dict[str, Callable[[random.Random, Deal], Player]] = {
    "hard": lambda rng, deal: HardPlayer(rng),
    "no-acceptance": lambda rng, deal: NoAcceptance(rng),
    "no-takes": lambda rng, deal: NoTakes(rng),
    "informed-stock": _cheat(InformedStock),
    "informed-next": _cheat(InformedNext),
}


def play(name: str, index: int) -> int:
    """1 if the variant wins deal *index*, else 0."""
    deal = Deal.shuffled(20_000 + index)
    seat = index % 3
    players: list[Player] = [HardPlayer(random.Random(f"{index}/{other}")) for other in range(3)]
    players[seat] = VARIANTS[name](random.Random(f"{index}/{name}"), deal)
    play_deal(players, deal, ask_forced=False)
    outcome = deal.outcome
    return int(outcome is not None and outcome.winner == seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=3000, help="deals per variant")
    parser.add_argument("--only", default=",".join(VARIANTS),
                        help="comma-separated variants: " + ", ".join(VARIANTS))
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/ceiling.json (every variant)")
    args = parser.parse_args()
    names = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in names if name not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r} (choose from {', '.join(VARIANTS)})")
    if args.write and names != list(VARIANTS):
        parser.error("--write measures every variant (leave out --only)")
    figures = {"deals": f"{args.deals:,}"}
    print(f"{'variant':<16}{'deals':>7}{'wins':>7}{'share':>8}   95% interval   seconds")
    for name in names:
        start = time.perf_counter()
        wins = sum(play(name, index) for index in range(args.deals))
        elapsed = time.perf_counter() - start
        low, high = wilson(wins, args.deals)
        print(f"{name:<16}{args.deals:>7}{wins:>7}{wins / args.deals:>8.1%}   {low:.1%}-{high:.1%}"
              f"{elapsed:>10.0f}", flush=True)
        figures |= {f"{name}.share": f"{wins / args.deals:.1%}",
                    f"{name}.interval": f"{low:.1%}–{high:.1%}".replace("%–", "–")}
    if args.write:
        from results import write  # benchmarks/results.py, beside this script

        write("ceiling", figures, {"deals": CHECK_DEALS, "wins": {
            name: sum(play(name, index) for index in range(CHECK_DEALS)) for name in VARIANTS}})


if __name__ == "__main__":
    main()
