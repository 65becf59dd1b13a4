"""The ceiling benchmark's players: the honest ones play legally, the cheats see what they claim."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kowah.cards import Card
from kowah.deal import Action, Deal
from kowah.players import play_deal

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


@pytest.mark.parametrize("name", ["rollouts", "rollouts-informed"])
def test_the_rollout_variants_finish_legal_deals(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ceiling.Rollouts, "rollouts", 2)  # the real figure takes seconds a deal
    assert ceiling._play((name, 4)) in (0, 1)
