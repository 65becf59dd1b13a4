"""The AI players: they see only observations, play legally, are reproducible, and simulate."""

from __future__ import annotations

import random

import pytest

from kowah import Action, ActionKind, Deal, KowahError, Observation, parse_cards
from kowah.cards import Card
from kowah.hands import distance, improvements
from kowah.players import (
    HardPlayer,
    NormalPlayer,
    Player,
    RandomPlayer,
    SimulationResult,
    UnknownPlayerError,
    _improving,
    _kept,
    _Observer,
    make_player,
    play_deal,
    simulate,
)
from kowah.record import Record


def _players(names: list[str], seed: int) -> list[Player]:
    rng = random.Random(seed)
    return [_small(name, random.Random(rng.random())) for name in names]


def _small(name: str, rng: random.Random) -> Player:
    """A player; the hard one with few rollouts, to keep the tests quick."""
    return HardPlayer(rng, rollouts=12) if name == "hard" else make_player(name, rng)


class _Checked:
    """Wraps a player: asserts it returns one of the legal actions, and records its choices."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.calls = 0

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        action = self.player.choose(observation, legal_actions)
        assert action in legal_actions, (action, legal_actions)
        assert observation.legal_actions == legal_actions
        self.calls += 1
        return action


# -- the fast paths agree with the rules modules --------------------------------------------


def test_fast_evaluators_agree_with_hands() -> None:
    rng = random.Random(5)
    deck = list(range(30)) * 4
    for _ in range(400):
        rng.shuffle(deck)
        key = tuple(sorted(deck[:8]))
        cards = [Card(card) for card in key]
        assert _kept(key) == 8 - distance(cards)
        assert set(_improving(key)) == set(improvements(cards))


def test_fast_evaluators_on_hands_near_ready() -> None:
    hand = tuple(sorted(parse_cards("5c 5c 5s 5s 5m 8c 8c 9m")))
    assert _kept(hand) == 7
    assert set(_improving(hand)) == set(improvements(hand))
    ready = tuple(sorted(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")))
    assert _kept(ready) == 8 and _improving(ready) == ()


def test_observer_gives_the_deals_observations() -> None:
    for seed in range(12):
        deal = Deal.shuffled(seed)
        observer = _Observer(deal)
        players = _players(["normal", "random", "normal"], seed)
        while not deal.is_over:
            for seat in range(3):
                assert observer.observation(seat) == deal.observation(seat)
            seat = deal.to_move()[0]
            deal.apply(players[seat].choose(deal.observation(seat), deal.legal_actions(seat)))
        for seat in range(3):
            assert observer.observation(seat) == deal.observation(seat)


# -- legality and hidden information --------------------------------------------------------


@pytest.mark.parametrize("names", [["random", "normal", "hard"], ["normal", "normal", "normal"],
                                   ["hard", "random", "random"]])
def test_players_only_return_legal_actions(names: list[str]) -> None:
    deals = 4 if "hard" in names else 25
    for seed in range(deals):
        players = [_Checked(player) for player in _players(names, seed)]
        deal = play_deal(players, Deal.shuffled(1000 + seed))
        assert deal.is_over
        assert all(player.calls for player in players)


def _hidden_swapped(deal: Deal, rng: random.Random) -> Deal | None:
    """The same deal replayed from a deck whose two not-yet-drawn stock cards are swapped."""
    drawn = 24 + sum(1 for action in deal.history if action.kind is ActionKind.DRAW)
    stock = list(range(drawn, len(deal.deck)))
    pairs = [(i, j) for i in stock for j in stock if deal.deck[i] != deal.deck[j]]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    deck = list(deal.deck)
    deck[i], deck[j] = deck[j], deck[i]
    return Record(deck, deal.first, deal.history).replay()


def _concealed_swapped(deal: Deal, seat: int, rng: random.Random) -> Deal | None:
    """The deal replayed with a card another seat was dealt, and still holds unseen, swapped
    with a stock card; ``None`` when no such swap keeps the deal's history legal."""
    drawn = 24 + sum(1 for action in deal.history if action.kind is ActionKind.DRAW)
    for other in range(3):
        if other == seat:
            continue
        known = deal.observation(seat).known[other]
        for index in range(other * 8, other * 8 + 8):
            card = deal.deck[index]
            if card not in deal.hand(other) or card in known:
                continue
            for stock_index in range(drawn, len(deal.deck)):
                if deal.deck[stock_index] == card:
                    continue
                deck = list(deal.deck)
                deck[index], deck[stock_index] = deck[stock_index], deck[index]
                try:
                    copy = Record(deck, deal.first, deal.history).replay()
                except KowahError:
                    continue
                if copy.to_move() == deal.to_move():
                    return copy
    return None


@pytest.mark.parametrize("name", ["random", "normal", "hard"])
def test_players_see_only_their_observation(name: str) -> None:
    rng = random.Random(11)
    checked = 0
    for seed in range(8 if name == "hard" else 30):
        deal = Deal.shuffled(2000 + seed)
        players = _players(["normal"] * 3, seed)
        steps = rng.randrange(5, 60)
        for _ in range(steps):
            if deal.is_over:
                break
            seat = deal.to_move()[0]
            deal.apply(players[seat].choose(deal.observation(seat), deal.legal_actions(seat)))
        if deal.is_over:
            continue
        seat = deal.to_move()[0]
        for altered in (_hidden_swapped(deal, rng), _concealed_swapped(deal, seat, rng)):
            if altered is None:
                continue
            assert altered.stock != deal.stock or any(
                altered.hand(other) != deal.hand(other) for other in range(3))
            observation = deal.observation(seat)
            assert altered.observation(seat) == observation
            first = _small(name, random.Random(seed)).choose(observation, deal.legal_actions(seat))
            again = _small(name, random.Random(seed)).choose(altered.observation(seat),
                                                              altered.legal_actions(seat))
            assert first == again
            checked += 1
    assert checked >= 10


def test_normal_never_feeds_a_declared_wait_when_it_has_a_choice() -> None:
    checked = 0

    class Watch(NormalPlayer):
        def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
            nonlocal checked
            action = super().choose(observation, legal_actions)
            waits = {wait for seat, wait in enumerate(observation.declared_waits)
                     if wait is not None and seat != observation.seat}
            if action.kind is ActionKind.DISCARD and waits and len(legal_actions) > 1:
                checked += 1
                safe = [option for option in legal_actions if option.card not in waits]
                if safe:
                    assert action.card not in waits
            return action

    wins_by_discard = 0
    for seed in range(60):
        players = [Watch(random.Random(seed * 3 + seat)) for seat in range(3)]
        outcome = play_deal(players, Deal.shuffled(3000 + seed)).outcome
        assert outcome is not None
        wins_by_discard += outcome.by == "discard"
    assert checked > 100
    assert wins_by_discard == 0


def test_normal_discards_towards_ready_and_declares() -> None:
    # Seat 0 holds a ready hand plus one stray card: it must throw the stray and declare.
    hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c 1m")
    rest = [card for card in Deal.shuffled(0).deck]
    for card in hand:
        rest.remove(card)
    deck = list(hand[:8]) + rest[:16] + [hand[8]] + rest[16:]
    deal = Deal(deck, 0)
    deal.apply(Action.draw(0))
    player = NormalPlayer(random.Random(0))
    action = player.choose(deal.observation(0), deal.legal_actions(0))
    assert action == Action.discard(0, Card.M1)
    deal.apply(action)
    action = player.choose(deal.observation(0), deal.legal_actions(0))
    assert action.kind is ActionKind.DECLARE and action.card in (Card.C5, Card.S5)


def test_normal_beats_random() -> None:
    result = simulate(60, ["normal", "random", "random"], seed=4)
    assert result.wins[0] >= 0.8 * result.decided


# -- reproducibility and the simulator --------------------------------------------------------


def test_same_seed_same_choices() -> None:
    for name in ("random", "normal", "hard"):
        histories = []
        for _ in range(2):
            players = [_small(name, random.Random(7 + seat)) for seat in range(3)]
            histories.append(play_deal(players, Deal.shuffled(77)).history)
        assert histories[0] == histories[1]


def test_simulate_is_reproducible_and_independent_of_jobs() -> None:
    seats = ["normal", "random", "normal"]
    one = simulate(12, seats, seed=3)
    assert simulate(12, seats, seed=3) == one
    assert simulate(12, seats, seed=3, jobs=2) == one
    assert simulate(12, seats, seed=4) != one or simulate(12, seats, seed=5) != one
    hard = ["hard", "normal", "normal"]
    assert simulate(2, hard, seed=1) == simulate(2, hard, seed=1, jobs=2)


def test_simulate_reports_progress() -> None:
    seen: list[int] = []
    simulate(5, ["random", "normal", "normal"], seed=1, progress=seen.append)
    assert seen == [1, 2, 3, 4, 5]
    seen.clear()
    simulate(6, ["random", "normal", "normal"], seed=1, jobs=2, progress=seen.append)
    assert seen[-1] == 6 and seen == sorted(seen)


def test_simulate_dict_shape() -> None:
    result = simulate(9, ["normal", "random", "random"], seed=6)
    data = result.as_dict()
    assert data["deals"] == 9
    assert data["seats"] == ["normal", "random", "random"]
    assert isinstance(data["wins"], list) and len(data["wins"]) == 3
    assert all(isinstance(wins, int) for wins in data["wins"])
    assert sum(data["wins"]) + data["drawn"] == 9
    assert set(data["by"]) == {"self-draw", "discard", "draw-claim"}
    assert sum(data["by"].values()) == sum(data["wins"])
    assert data["decided"] == 9 - data["drawn"]
    for low, high in data["win_rate_intervals"]:
        assert 0 <= low <= high <= 1


def test_wilson_interval() -> None:
    result = SimulationResult(100, ("a", "b", "c"), (50, 30, 20), 0,
                              {"self-draw": 40, "discard": 30, "draw-claim": 30})
    low, high = result.win_rate_interval(0)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    low, high = result.win_rate_interval(2)
    assert low < 0.2 < high


def test_unknown_player_names() -> None:
    with pytest.raises(UnknownPlayerError, match="'expert'"):
        make_player("expert", random.Random(0))
    with pytest.raises(KowahError, match="'grandmaster'"):
        simulate(1, ["normal", "grandmaster", "random"])
    with pytest.raises(KowahError):
        simulate(1, ["normal", "random"])


def test_make_player_kinds() -> None:
    rng = random.Random(0)
    assert isinstance(make_player("random", rng), RandomPlayer)
    assert isinstance(make_player("Normal", rng), NormalPlayer)
    assert isinstance(make_player("hard", rng), HardPlayer)
    assert isinstance(make_player("hard", rng), Player)


class _Drawer:
    """A custom player for simulate: always the first legal action (draw, first discard, declare)."""

    name = "drawer"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        return legal_actions[0]


def test_simulate_takes_custom_players_and_stays_reproducible() -> None:
    one = simulate(12, [_Drawer, "normal", "normal"], seed=5)
    two = simulate(12, [_Drawer, "normal", "normal"], seed=5, jobs=2)
    assert one == two and one.seats == ("drawer", "normal", "normal")
    assert sum(one.wins) + one.drawn == 12
    # A factory without a name is named after itself; one that cannot be pickled runs in-process.
    def factory(rng: random.Random) -> Player:
        return NormalPlayer(rng)

    assert simulate(3, [factory, "normal", "normal"], seed=1).seats[0] == "factory"
    with pytest.raises(KowahError, match="must be importable"):
        simulate(3, [factory, "normal", "normal"], seed=1, jobs=2)
    with pytest.raises(UnknownPlayerError):
        simulate(3, [42, "normal", "normal"])  # type: ignore[list-item]
