"""The ceiling benchmark's players: the honest ones play legally, the cheats see what they claim."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kowah import Action, ActionKind, Deal, Observation
from kowah.cards import Card
from kowah.hands import improvements
from kowah.players import HardPlayer
from kowah.simulation import play_deal

ROOT = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kowah_ceiling", ROOT / "benchmarks" / "ceiling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ceiling = _load()


def test_the_benchmark_uses_only_public_names() -> None:
    source = (ROOT / "benchmarks" / "ceiling.py").read_text()
    imports = [line for line in source.splitlines() if line.startswith(("from kowah", "import kowah"))]
    assert imports and not any(" _" in line or "._" in line for line in imports)


@pytest.mark.parametrize("name", list(ceiling.VARIANTS))
def test_every_variant_finishes_legal_deals(name: str) -> None:
    # play_deal checks every action: an illegal choice would raise.
    assert {ceiling.play(name, index) for index in range(6)} <= {0, 1}


def test_informed_stock_counts_the_actual_stock() -> None:
    checked = 0

    class Spy(ceiling.InformedStock):  # type: ignore[misc, name-defined]
        def discards(self, hand: tuple[int, ...], options: list[int], observation: Observation) -> list[int]:
            nonlocal checked
            stock = self.deal.stock
            assert observation.unseen() == {card: stock.count(card) for card in set(stock)}
            checked += 1
            result: list[int] = super().discards(hand, options, observation)
            return result

    for seed in range(6, 10):
        deal = Deal.shuffled(seed)
        spy = Spy(random.Random(0))
        spy.deal = deal
        play_deal([spy, HardPlayer(random.Random(1)), HardPlayer(random.Random(2))], deal)
    assert checked > 10


def test_informed_next_does_not_feed_the_next_hand_when_it_can_help_it() -> None:
    avoidable = 0
    for seed in range(10):
        deal = Deal.shuffled(seed)
        player = ceiling.InformedNext(random.Random(seed))
        player.deal = deal
        others = [HardPlayer(random.Random(seed + k)) for k in (1, 2)]
        while not deal.is_over:
            seat = deal.to_move()[0]
            observation = deal.observation(seat)
            legal = observation.legal_actions
            if seat != 0:
                deal.apply(others[seat - 1].choose(observation, legal))
                continue
            action = player.choose(observation, legal)
            after_hand = deal.hand(1)
            if (action.kind is ActionKind.DISCARD and len(legal) > 1 and deal.declared_wait(1) is None
                    and deal.declared_wait(0) is None):
                helps = improvements(after_hand)
                hard = HardPlayer(random.Random(0)).choose(observation, legal)
                if hard.card in helps and action.card not in helps:
                    avoidable += 1
            deal.apply(action)
    assert avoidable > 0


def test_no_takes_never_takes() -> None:
    takes = []
    for name in ("hard", "no-takes"):
        deal = Deal.shuffled(seed=8)
        hard = HardPlayer(random.Random(0))
        play_deal([ceiling.VARIANTS[name](random.Random(0), deal), hard, hard], deal)
        takes.append(sum(1 for event in deal.events if event.kind == "take" and event.seat == 0))
    assert takes[0] > 0 and takes[1] == 0  # the same seat, as hard, takes on this deal


def test_wilson_matches_the_simulations() -> None:
    from kowah.simulation import wilson

    assert ceiling.wilson(50, 100) == pytest.approx(wilson(50, 100))
    assert Card.C5 in {Card.C5} and Action.draw(0).seat == 0


# -- start-up (issue 10): what a fresh process loads -----------------------------------------------


def _modules_after(code: str) -> set[str]:
    import subprocess

    script = code + "\nimport sys; print(' '.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(result.stdout.split()[-1000:])


def test_import_kowah_loads_none_of_its_modules() -> None:
    loaded = _modules_after("import kowah")
    assert not {name for name in loaded if name.startswith("kowah.")}
    assert not {"attr", "attrs", "babel", "json", "re"} & loaded


def test_kowah_check_does_not_load_babel() -> None:
    """Babel is loaded only to render text: not on the way of ``kowah check`` in English (attrs
    is: every value is an attrs class)."""
    loaded = _modules_after("from kowah.cli import main\n"
                            "main(['--lang', 'en', 'check', *'5c 5c 5s 5s 5m 8c 8c 8c'.split()])")
    assert "kowah.hands" in loaded
    assert "attrs" in loaded and not {name for name in loaded if name.split(".")[0] == "babel"}


def test_the_start_up_benchmark_measures_each_process() -> None:
    spec = importlib.util.spec_from_file_location("kowah_bench_run", ROOT / "benchmarks" / "run.py")
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    before = sorted((ROOT / "kowah").rglob("__pycache__"))
    figures = run.startup(1)
    assert set(figures) == {"python -c pass", "import kowah", "kowah check (a ready hand)", "first is_ready"}
    assert all(0 < seconds < 60 for seconds in figures.values())
    # It times compiled bytecode of a copy: nothing is written into the checkout (which the
    # sdist would then hold).
    assert sorted((ROOT / "kowah").rglob("__pycache__")) == before


def test_every_public_name_of_kowah_is_found_where_it_lives() -> None:
    """The lazy ``kowah/__init__`` (PEP 562) knows every name of ``__all__``, and each is the
    module's own object."""
    import kowah

    modules = [importlib.import_module(f"kowah.{name}") for name in (
        "cards", "hands", "engine", "actions", "events", "deal", "record", "errors", "i18n", "players",
        "rendering", "plugins", "web.store")]
    for name in kowah.__all__:
        homes = [module for module in modules if name in getattr(module, "__all__", ())]
        assert homes and all(getattr(kowah, name) is getattr(home, name) for home in homes), name
    assert kowah.deal.Deal is kowah.Deal  # submodules stay reachable as attributes
    with pytest.raises(AttributeError):
        kowah.no_such_name  # type: ignore[attr-defined]  # noqa: B018
