"""The table's caches (the log's order, each viewer's told events, the saved record's text)
agree at every step with what a game restored from scratch makes of the same log."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")

from kowah.actions import Action, ActionKind
from kowah.cards import KOWAH_DECK, Card, parse_cards
from kowah.deal import Observation
from kowah.record import Record
from kowah.web.game import Game
from kowah.web.saved import restore, saved_data
from kowah.web.text import words


def _check(game: Game) -> None:
    saved = saved_data(game)
    record = dict(Record.from_deal(game.deal).to_dict())
    assert {key: value for key, value in saved.items() if key != "kowah-web"} == record
    fresh = restore(saved)
    t = words("en")
    for viewer in (None, 0, 1, 2):
        assert game.events(t, viewer) == fresh.events(t, viewer)
    assert saved_data(fresh) == saved and fresh.state(seat=0) == game.state(seat=0)


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
    assert "passed" not in saved_data(game)
    game.act(Action.pass_(0))
    assert saved_data(game)["passed"] is True and game.actor == 1
    _check(game)
    restored = restore(saved_data(game))
    assert restored.deal.to_move() == game.deal.to_move() and restored.legal(0) == game.legal(0)


def test_the_winning_hand_is_the_deals_winning_split() -> None:
    """The state's winning hand is Deal.winning_split (one home of that rule), whatever the win."""
    from kowah.players import make_player

    seen = set()
    for seed in range(40):
        game = Game.new(seed=seed, opponents="hard", humans=1)
        players = [make_player("hard", random.Random(seed)), None, None]
        while not game.is_over:
            seat = game.actor
            assert seat == 0 and players[0] is not None
            game.act(players[0].choose(game.deal.observation(0), game.deal.legal_actions(0)))
        outcome = game.deal.outcome
        assert outcome is not None
        shown = game.state(seat=0)["winning_hand"]
        if outcome.winner is None:
            assert shown is None
            continue
        split = game.deal.winning_split()
        assert split is not None and shown["seat"] == outcome.winner and shown["card"] == str(outcome.card)
        assert shown["groups"] == [[str(card) for card in group] for group in (*split.triples, split.pair)]
        seen.add(outcome.by)
        if len(seen) == 2:
            break
    assert len(seen) == 2  # two ways of winning, at least


def _seen(observation: Observation, viewer: int | None) -> dict[str, Any]:
    """The table's fields of a state, as *viewer*'s observation has them."""
    def codes(cards: tuple[Card, ...]) -> list[str]:
        return [str(card) for card in cards]

    return {"turn": observation.turn, "phase": observation.phase.value,
            "stock": observation.stock_count,
            "hand": None if viewer is None else codes(observation.hand),
            "hand_sizes": list(observation.hand_sizes),
            "latest_discard": None if observation.latest_discard is None
            else str(observation.latest_discard),
            "discards": [codes(pile) for pile in observation.discards],
            "declared": [None if wait is None else str(wait) for wait in observation.declared_waits],
            "public_draws": [[seat, str(card)] for seat, card in observation.public_draws]}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), opponents=st.sampled_from(["random", "hard"]))
def test_each_events_view_is_what_the_viewers_observation_shows(seed: int, opponents: str) -> None:
    """The states' table fields (the state's own and each event's view) are read from the deal
    directly: at every step they agree with the viewer's observation, for every seat and a
    spectator (who sees what seat 0 sees, without a hand)."""
    rng = random.Random(seed)
    game = Game.new(seed=seed, opponents=opponents, humans=3)
    game.join(1)
    game.join(2)
    while not game.is_over:
        actor = game.actor
        assert actor is not None
        after = game.version
        game.act(rng.choice(game.legal(actor)))
        viewer: int | None
        for viewer in (None, 0, 1, 2):
            state = json.loads(json.dumps(game.state(since=after, seat=viewer)))
            seen = _seen(game.deal.observation(0 if viewer is None else viewer), viewer)
            assert {key: state[key] for key in seen} == seen
        events = json.loads(json.dumps(game.state(since=after, seat=actor)))["events"]
        if events:  # (a pass tells nothing)
            assert {key: events[-1]["view"][key] for key in seen} == _seen(
                game.deal.observation(actor), actor)


def test_the_saved_form_is_written_by_its_own_module_and_the_old_methods_warn() -> None:
    """kowah.web.saved writes and reads the saved form; Game.saved_text()/saved() remain as
    deprecated aliases that warn and give the same text, also after a next deal (new deck)."""
    from kowah.web.saved import saved_text

    game = Game.new(seed=11, opponents="random")
    with pytest.warns(DeprecationWarning, match=r"kowah\.web\.saved\.saved_text"):
        assert game.saved_text() == saved_text(game)
    with pytest.warns(DeprecationWarning, match=r"kowah\.web\.saved\.saved_data"):
        assert game.saved() == saved_data(game) == json.loads(saved_text(game))
    while not game.is_over:
        game.act(game.legal(0)[0])
    first_deck = saved_data(game)["deck"]
    game.next_deal()
    assert saved_data(game)["deck"] != first_deck  # the cached head was made again
    assert restore(saved_data(game)).state(seat=0) == game.state(seat=0)


def test_the_clock_and_who_answers_are_composed_for_each_viewer() -> None:
    """The command box's clock and who answers come whole from the text layer (a {count} left
    for the time that runs on the page; each person's line in both presences)."""
    t = words("en")
    game = Game.new(seed=3, opponents="random", humans=2, names=["Ana", "Bo"], turn_seconds=60,
                    first=0)
    game.join(1)
    game.start()
    said = game.state(seat=1, connected=(1, 0, 0))["said"]
    assert said["clock"] == "Time left to play: {count} (Ana)."
    assert said["who"][0] == {"online": "Ana: online.", "offline": "Ana: offline."}
    assert said["who"][1]["online"] == t.sentence("web", "{name}: {status}.", name="You", status="online")
    assert said["who"][2] == {"now": "Seat 2: AI."}
    assert game.state(seat=0)["said"]["clock"] == "Time left for your turn: {count}."
    solo = Game.new(seed=3, opponents="random")
    assert solo.state(seat=0)["said"]["clock"] == "This table has no turn clock."
    while not game.is_over:
        game.act(game.legal(game.actor)[0])
    assert game.state(seat=0)["said"]["clock"] == "Turn clock: 60 seconds a turn; it is not running now."
