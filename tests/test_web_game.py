"""The table's caches (the log's order, each viewer's told events, the saved record's text)
agree at every step with what a game restored from scratch makes of the same log."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("starlette")

from kowah.actions import Action, ActionKind
from kowah.cards import KOWAH_DECK, parse_cards
from kowah.record import Record
from kowah.web.game import Game
from kowah.web.saved import restore
from kowah.web.text import words


def _check(game: Game) -> None:
    saved = game.saved()
    record = dict(Record.from_deal(game.deal).to_dict())
    assert {key: value for key, value in saved.items() if key != "kowah-web"} == record
    fresh = restore(saved)
    t = words("en")
    for viewer in (None, 0, 1, 2):
        assert game.events(t, viewer) == fresh.events(t, viewer)
    assert fresh.saved() == saved and fresh.state(seat=0) == game.state(seat=0)


@pytest.mark.parametrize("seed", range(6))
def test_the_cached_log_and_record_match_a_restored_game_at_every_step(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(seed=seed, opponents="random", humans=3, names=["Ana", None, "Cy"])
    game.join(1)
    _check(game)  # waiting for Cy
    game.join(2)
    kinds = set()
    for step in range(400):
        if game.is_over:
            break
        seat = game.actor
        assert seat is not None
        if step == 9 and seed % 2:
            game.leave(2)  # a table event in the middle of the deal
            _check(game)
            continue
        legal = game.legal(seat)
        # A person passes when they can (so that records end in a pass), else plays at random.
        action = next((a for a in legal if a.kind is ActionKind.PASS and rng.random() < 0.7),
                      rng.choice(legal))
        kinds.add(action.kind)
        game.act(action)
        if step % 3 == 0 or action.kind is ActionKind.PASS:
            _check(game)
    _check(game)
    assert game.is_over and ActionKind.DISCARD in kinds


def test_a_pass_is_saved_and_restored() -> None:
    hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")  # seat 0 is ready from the start
    rest = list(KOWAH_DECK.cards)
    for card in hand:
        rest.remove(card)
    game = Game.new(seed=1, opponents="random", deck=[*hand, *rest], first=0, humans=2)
    game.join(1)  # a person plays seat 1: after seat 0's pass, the table waits for them
    game.act(Action.draw(0))
    game.act(Action.discard(0, game.deal.deck[24]))  # the drawn card: still ready
    assert Action.pass_(0) in game.legal(0)
    _check(game)  # in the declaring window: not passed
    assert "passed" not in game.saved()
    game.act(Action.pass_(0))
    assert game.saved()["passed"] is True and game.actor == 1
    _check(game)
    restored = restore(game.saved())
    assert restored.deal.to_move() == game.deal.to_move() and restored.legal(0) == game.legal(0)
