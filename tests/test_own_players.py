"""Players of one's own: the tutorial's player on any pack, and players loaded by name
(``module:callable``, the ``kowah.players`` entry points) at every table (issue 29)."""

from __future__ import annotations

import doctest
import json
import pickle
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kowah import MONEY_PACK, MONEY_RULES, Action, Card, Deal, HandError, parse_cards
from kowah.cli import main
from kowah.hands import distance, improvements
from kowah.i18n import translator
from kowah.players import Player, make_player
from kowah.plugins import OwnPlayer, PlayerError, PlayerLoadError, installed_players, load_player
from kowah.simulation import play_deal, simulate

ROOT = Path(__file__).resolve().parent.parent


def _tutorial_greedy() -> type:
    """The Greedy class exactly as docs/tutorial.rst writes it."""
    text = (ROOT / "docs" / "tutorial.rst").read_text(encoding="utf-8")
    examples = doctest.DocTestParser().get_examples(text)
    (source,) = [example.source for example in examples if example.source.startswith("class Greedy")]
    namespace: dict[str, Any] = {}
    exec("from kowah import *\nfrom kowah.actions import Action, ActionKind\n" + source, namespace)
    greedy: type = namespace["Greedy"]
    return greedy


def test_the_tutorials_player_plays_money_pack_deals() -> None:
    """It crashed in 17 of 20 money-pack deals when it judged hands with the Kowah deck."""
    greedy = _tutorial_greedy()
    ends = set()
    for seed in range(20):
        players = [greedy(), make_player("easy", random.Random(seed)),
                   make_player("easy", random.Random(-seed))]
        deal = play_deal(players, Deal.shuffled(seed, MONEY_RULES))
        assert deal.is_over
        ends.add(deal.outcome.result if deal.outcome else None)
    assert ends <= {"win", "drawn"}


def test_the_rules_judge_hands_with_their_own_pack() -> None:
    snakes = {Card.WS, Card.GS, Card.MK}
    deal = next(deal for deal in (Deal.shuffled(seed, MONEY_RULES) for seed in range(50))
                if any(snakes & set(deal.hand(seat)) for seat in range(3)))
    for seat in range(3):
        observation = deal.observation(seat)
        hand = observation.hand
        assert observation.rules.distance(hand) == distance(hand, MONEY_PACK)
        assert observation.rules.is_ready(hand) == bool(observation.rules.waits(hand))
        assert observation.rules.improvements(hand) == improvements(hand, pack=MONEY_PACK)
    snake_hand = next(deal.hand(seat) for seat in range(3) if snakes & set(deal.hand(seat)))
    with pytest.raises(HandError):  # the plain function judges the Kowah deck unless told
        distance(snake_hand)
    assert MONEY_RULES.is_ready(parse_cards("ws ws ws gs gs gs mk mk", MONEY_PACK))


# -- loading players by name -------------------------------------------------------------------

PLAYERS_MODULE = '''
import random
from kowah.actions import ActionKind


class Drawer:
    """Draws, and throws the first card it may."""
    name = "drawer"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation, legal_actions):
        return legal_actions[0]


def make(rng):
    return Drawer(rng)


class Cheat(Drawer):
    name = "cheat"

    def choose(self, observation, legal_actions):
        return "draw"


class Broken(Drawer):
    name = "broken"

    def choose(self, observation, legal_actions):
        raise ZeroDivisionError("oops")


class Nameless:
    def __init__(self, rng):
        pass


NOT_CALLABLE = 42
'''


@pytest.fixture
def own_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "my_kowah_players.py").write_text(PLAYERS_MODULE, encoding="utf-8")
    (tmp_path / "my_broken_module.py").write_text("raise RuntimeError('not today')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_kowah_players"


def test_a_player_from_a_module_plays_and_pickles(own_module: str) -> None:
    factory = load_player(f"{own_module}:Drawer")
    player = factory(random.Random(1))
    assert isinstance(player, Player) and player.name == "drawer"
    assert load_player(f"{own_module}:make")(random.Random(1)).name == "drawer"
    again = pickle.loads(pickle.dumps(factory))
    assert isinstance(again, OwnPlayer) and again.name == factory.name
    deal = play_deal([factory(random.Random(0)), make_player("easy", random.Random(1)),
                      make_player("easy", random.Random(2))], Deal.shuffled(4))
    assert deal.is_over


@pytest.mark.parametrize(("spec", "reason"), [
    ("my_missing_module:Drawer", "the module my_missing_module cannot be imported (ModuleNotFoundError: "),
    ("my_broken_module:Drawer", "the module my_broken_module cannot be imported (RuntimeError: not today)"),
    ("my_kowah_players:Nobody", "the module my_kowah_players has no attribute 'Nobody'"),
    ("my_kowah_players:Drawer.nope", "the module my_kowah_players.Drawer has no attribute 'nope'"),
    ("my_kowah_players:NOT_CALLABLE", "NOT_CALLABLE is 42 of type int, not a callable that makes a player"),
    ("my_kowah_players:Nameless", "which is not a player: a player has a name (text) and a choose("),
    ("my_kowah_players:", "write it as module:callable, such as my_players:Greedy"),
    ("nobody-installed-this", "unknown player 'nobody-installed-this' (choose random, easy, normal, hard"),
])
def test_a_player_that_cannot_be_loaded_is_said_clearly(own_module: str, spec: str, reason: str) -> None:
    with pytest.raises(PlayerLoadError) as caught:
        load_player(spec)
    assert reason in str(caught.value)
    assert caught.value.params["spec"] == spec
    spanish = translator("es").error(caught.value)  # the reason is translated with the message
    assert spanish.startswith(("no se puede cargar el jugador", "jugador desconocido")), spanish
    assert "the module" not in spanish and "no attribute" not in spanish and "which is no" not in spanish
    copy = pickle.loads(pickle.dumps(caught.value))
    assert str(copy) == str(caught.value) and copy.params == caught.value.params


@pytest.mark.parametrize(("spec", "said"), [
    ("my_kowah_players:Cheat", "the player 'my_kowah_players:Cheat' chose 'draw', which is not one of the "
                               "legal actions"),
    ("my_kowah_players:Broken", "the player 'my_kowah_players:Broken' raised ZeroDivisionError: oops"),
])
def test_a_player_that_breaks_the_protocol_is_named(own_module: str, spec: str, said: str) -> None:
    player = load_player(spec)(random.Random(0))
    deal = Deal.shuffled(2, first=0)
    observation = deal.observation(0)
    with pytest.raises(PlayerError) as caught:
        player.choose(observation, observation.legal_actions)
    assert str(caught.value).startswith(said) and caught.value.params["player"] == spec


def test_kowah_simulate_seats_a_player_of_ones_own(own_module: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--lang", "en", "simulate", "--deals", "6", "--seats", f"hard,{own_module}:Drawer,easy",
                 "--pack", "money", "--no-progress-turns", "12", "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["seats"] == ["hard", f"{own_module}:Drawer", "easy"]
    expected = simulate(6, ["hard", load_player(f"{own_module}:Drawer"), "easy"],
                        rules=MONEY_RULES.replace(no_progress_turns=12))
    assert result["wins"] == list(expected.wins) and result["drawn"] == expected.drawn
    code = main(["--lang", "en", "simulate", "--deals", "2", "--seats", "hard,my_kowah_players:Cheat,easy",
                 "--quiet"])
    assert code == 2
    assert "kowah: error: the player 'my_kowah_players:Cheat' chose 'draw'" in capsys.readouterr().err


def test_kowah_simulate_with_workers_loads_the_player_in_each(own_module: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--lang", "en", "simulate", "--deals", "4", "--seats", f"{own_module}:Drawer,easy,easy",
                 "--jobs", "2", "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["deals"] == 4


def test_kowah_play_against_players_of_ones_own(own_module: str, tmp_path: Path) -> None:
    record = tmp_path / "deal.json"
    script = "d\n1\np\n" * 400
    done = subprocess.run([sys.executable, "-m", "kowah", "--lang", "en", "play", "--seed", "3",
                           "--pace", "0", "--opponents", f"{own_module}:Drawer", "--pack", "money",
                           "--record", str(record)],
                          input=script, capture_output=True, text=True, timeout=120, check=False,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"strength: {own_module}:Drawer" in " ".join(done.stdout.split())
    from kowah.record import Record

    saved = Record.loads(record.read_text(encoding="utf-8"))
    assert saved.rules == MONEY_RULES and {1, 2} <= {action.seat for action in saved.actions}
    assert saved.replay().is_over
    done = subprocess.run([sys.executable, "-m", "kowah", "--lang", "en", "play", "--opponents",
                           "my_kowah_players:NOT_CALLABLE"], capture_output=True, text=True, timeout=120,
                          check=False, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("kowah: error: cannot load the player 'my_kowah_players:NOT_CALLABLE': ")


def test_an_installed_player_is_found_by_its_entry_point(tmp_path: Path) -> None:
    """A package that declares ``[project.entry-points."kowah.players"]`` is found by name."""
    site = tmp_path / "site"
    (site / "kowah_greedy_dist-1.0.dist-info").mkdir(parents=True)
    (site / "kowah_greedy_dist-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: kowah-greedy-dist\nVersion: 1.0\n", encoding="utf-8")
    (site / "kowah_greedy_dist-1.0.dist-info" / "entry_points.txt").write_text(
        "[kowah.players]\nfirst-legal = kowah_greedy_pkg:First\n", encoding="utf-8")
    (site / "kowah_greedy_pkg.py").write_text(textwrap.dedent("""
        class First:
            name = "first-legal"
            def __init__(self, rng):
                pass
            def choose(self, observation, legal_actions):
                return legal_actions[0]
    """), encoding="utf-8")
    script = textwrap.dedent("""
        import json, sys
        from kowah.cli import main
        from kowah.plugins import installed_players
        print(json.dumps(installed_players()))
        sys.exit(main(["--lang", "en", "simulate", "--deals", "3", "--seats", "first-legal,easy,easy",
                       "--json", "--quiet"]))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          check=False, env={**_environment(), "PYTHONPATH": str(site)})
    assert done.returncode == 0, done.stderr
    found, result = (json.loads(line) for line in done.stdout.splitlines())
    assert found == {"first-legal": "kowah_greedy_pkg:First"}
    assert result["seats"] == ["first-legal", "easy", "easy"] and result["deals"] == 3
    assert "first-legal" not in installed_players()  # only where the package is installed


def _environment() -> dict[str, str]:
    import os

    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def test_a_player_must_return_a_legal_action_of_its_seat(own_module: str) -> None:
    """What a loaded player returns is checked against the legal actions, never applied blindly."""
    player = load_player(f"{own_module}:Drawer")(random.Random(0))
    deal = Deal.shuffled(1, first=0)
    observation = deal.observation(0)
    assert player.choose(observation, observation.legal_actions) == Action.draw(0)
    with pytest.raises(PlayerError):
        player.choose(observation, ())  # its code fails (IndexError): named, not bare
