"""The ceiling benchmark's players: the honest ones play legally, the cheats see what they claim."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kowah import Action, Deal, Phase
from kowah.cards import Card
from kowah.hands import waits
from kowah.players import Player, play_deal

ROOT = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kowah_ceiling", ROOT / "benchmarks" / "ceiling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ceiling = _load()


@pytest.mark.parametrize("name", ["normal", "no-acceptance", "no-takes", "informed-stock", "informed-next"])
def test_every_fast_variant_finishes_legal_deals(name: str) -> None:
    # Deal.apply checks every action: an illegal choice would raise.
    assert {ceiling._play((name, index)) for index in range(6)} <= {0, 1}


def test_the_oracle_samples_the_actual_stock() -> None:
    deal = Deal.shuffled(seed=5)
    seat = deal.turn
    deal.apply(Action.draw(seat))
    player = ceiling._VARIANTS["oracle-order"](random.Random(0), deal)
    sampler = player._sampler(deal.observation(seat))
    for _ in range(3):
        _, stock = sampler.sample(random.Random(1))
        assert stock == [int(card) for card in deal.stock]


def test_informed_stock_counts_the_actual_stock() -> None:
    deal = Deal.shuffled(seed=6)
    counts = ceiling._stock_counts(deal)
    assert sum(counts) == len(deal.stock) == 96
    assert all(counts[card] == deal.stock.count(Card(card)) for card in range(30))


def test_no_takes_never_takes() -> None:
    takes = []
    for name in ("normal", "no-takes"):
        deal = Deal.shuffled(seed=8)
        normal = ceiling._VARIANTS["normal"](random.Random(0), deal)
        play_deal([ceiling._VARIANTS[name](random.Random(0), deal), normal, normal], deal)
        takes.append(sum(1 for event in deal.events if event.kind == "take" and event.seat == 0))
    assert takes[0] > 0 and takes[1] == 0  # the same seat, as normal, takes on this deal


@pytest.mark.parametrize("name", ["rollouts", "rollouts-informed", "rollouts-inferred"])
def test_the_rollout_variants_finish_legal_deals(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ceiling.Rollouts, "rollouts", 2)  # the real figure takes seconds a deal
    assert ceiling._play((name, 4)) in (0, 1)


def _midway(seed: int, steps: int) -> tuple[Deal, int]:
    """A deal of three normal players, stopped after *steps* actions (or a few before its end),
    and the seat to move."""
    players: list[Player] = [ceiling.NormalPlayer(random.Random(seat)) for seat in range(3)]
    actions = play_deal(players, Deal.shuffled(seed)).history
    deal = Deal.shuffled(seed)
    for action in actions[: min(steps, len(actions) - 3)]:
        deal.apply(action)
    return deal, deal.to_move()[0]


@pytest.mark.parametrize("seed", range(6))
def test_inferred_hands_fit_what_the_seat_has_seen(seed: int) -> None:
    deal, seat = _midway(seed, 40 + 7 * seed)
    view = deal.observation(seat)
    sampler = ceiling._InferredSampler(view, ceiling.HandInference(view, random.Random(seed)))
    unseen = view.unseen()
    rng = random.Random(1)
    for _ in range(20):
        hands, stock = sampler.sample(rng)
        assert hands[seat] == [int(card) for card in view.hand]
        hidden: list[int] = list(stock)
        for other in range(3):
            if other == seat:
                continue
            assert len(hands[other]) == view.hand_sizes[other]
            rest = list(hands[other])
            for card in view.known[other]:
                rest.remove(int(card))  # every known card is where it is known to be
            hidden += rest
        assert len(stock) == view.stock_count
        assert sorted(hidden) == sorted(int(card) for card, count in unseen.items() for _ in range(count))
    assert sampler.fallbacks == 0


def test_a_declared_seats_inferred_hand_is_ready_with_its_wait() -> None:
    checked = 0
    for seed in range(12):
        deal, seat = _midway(seed, 90)
        view = deal.observation(seat)
        sampler = ceiling._InferredSampler(view, ceiling.HandInference(view, random.Random(seed)))
        rng = random.Random(2)
        for other, wait in enumerate(view.declared_waits):
            if wait is not None and other != seat:
                for _ in range(10):
                    hand = sampler.sample(rng)[0][other]
                    assert wait in waits([Card(card) for card in hand])
                    checked += 1
    assert checked >= 50


def test_inference_knows_more_than_uniform_samples() -> None:
    """Over some positions, the inferred hands share more concealed cards with the actual ones."""
    inferred = uniform = 0
    for seed in range(10):
        deal, seat = _midway(100 + seed, 60)
        view = deal.observation(seat)
        inference = ceiling.HandInference(view, random.Random(seed))
        samplers = (ceiling._InferredSampler(view, inference), ceiling._Determiniser(view))
        for index, sampler in enumerate(samplers):
            rng = random.Random(seed)
            for _ in range(30):
                hands = sampler.sample(rng)[0]
                for other in range(3):
                    if other != seat:
                        actual = [int(card) for card in deal.hand(other)]
                        sampled = list(hands[other])
                        for card in view.known[other]:  # both samplers put these right
                            actual.remove(int(card))
                            sampled.remove(int(card))
                        shared = sum(min(sampled.count(card), actual.count(card)) for card in set(actual))
                        if index == 0:
                            inferred += shared
                        else:
                            uniform += shared
    assert inferred > uniform * 1.4


def test_inference_reads_only_new_events() -> None:
    deal, seat = _midway(7, 30)
    early = deal.observation(seat)
    later_deal, _ = _midway(7, 57)
    later = later_deal.observation(seat)
    assert later.seat == seat and later.events[: len(early.events)] == early.events
    step = ceiling.HandInference(early, random.Random(3))
    step.update(later)
    whole = ceiling.HandInference(later, random.Random(3))
    for other in step.particles:
        assert step.particles[other].hands == whole.particles[other].hands
        assert step.particles[other].weights == whole.particles[other].weights


def _playout_at(deal: Deal) -> Any:
    """The deal's state, at the start of a turn, in the playout's lists."""
    known = [[0] * 30 for _ in range(3)]
    piles = [0] * 30
    for seat in range(3):
        for card in deal.observation(seat).known[seat]:
            known[seat][card] += 1
        for card in deal.discards(seat):
            piles[card] += 1
    waits = [deal.declared_wait(seat) for seat in range(3)]
    return ceiling._Playout([[int(card) for card in deal.hand(seat)] for seat in range(3)],
                            [int(card) for card in deal.stock],
                            [-1 if wait is None else int(wait) for wait in waits],
                            known, piles, deal.turn,
                            None if deal.latest_discard is None else int(deal.latest_discard))


@pytest.mark.parametrize("steps", [0, 20, 45, 70])
def test_playouts_play_as_normal_players_do(steps: int) -> None:
    """From the start or mid-deal, a playout ends as normal players sharing its generator."""
    ended = {"win": 0, "drawn": 0}
    for seed in range(60):
        deal = Deal.shuffled(seed)
        players: list[Player] = [ceiling.NormalPlayer(random.Random(seed))] * 3
        while not deal.is_over and (len(deal.history) < steps or deal.phase is not Phase.START
                                    or deal.to_move()[0] != deal.turn):  # not in a declaring window
            seat = deal.to_move()[0]
            deal.apply(players[seat].choose(deal.observation(seat), deal.legal_actions(seat)))
        if deal.is_over:
            continue
        playout = _playout_at(deal)
        shared = random.Random(seed + 1)
        play_deal([ceiling.NormalPlayer(shared)] * 3, deal, ask_forced=False)
        outcome = deal.outcome
        assert outcome is not None
        winner = playout.play(random.Random(seed + 1).random)
        assert winner == (-1 if outcome.winner is None else outcome.winner), seed
        ended[outcome.result] += 1
    assert ended["win"] > 30
