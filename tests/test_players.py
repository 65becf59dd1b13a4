"""The AI levels: they see only observations, play legally, are reproducible, and differ as documented."""

from __future__ import annotations

import random

import pytest

from kowah import Action, ActionKind, Deal, KowahError, Observation, parse_cards
from kowah._heuristic import improving, kept
from kowah.cards import Card
from kowah.errors import KowahTypeError, shorten
from kowah.hands import distance, improvements
from kowah.players import (
    PLAYERS,
    EasyPlayer,
    HardPlayer,
    NormalPlayer,
    Player,
    RandomPlayer,
    UnknownPlayerError,
    make_player,
)
from kowah.record import Record
from kowah.simulation import play_deal, simulate


def _players(names: list[str], seed: int) -> list[Player]:
    rng = random.Random(seed)
    return [make_player(name, random.Random(rng.random())) for name in names]


class _Checked:
    """Wraps a player: asserts it returns one of the legal actions, and records its choices."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
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
        assert kept(key) == 8 - distance(cards)
        assert set(improving(key)) == set(improvements(cards))


def test_fast_evaluators_on_hands_near_ready() -> None:
    hand = tuple(sorted(parse_cards("5c 5c 5s 5s 5m 8c 8c 9m")))
    assert kept(hand) == 7
    assert set(improving(hand)) == set(improvements(hand))
    ready = tuple(sorted(parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")))
    assert kept(ready) == 8 and improving(ready) == ()


# -- legality and hidden information --------------------------------------------------------


@pytest.mark.parametrize("names", [["random", "normal", "hard"], ["easy", "easy", "hard"],
                                   ["hard", "random", "easy"], ["normal", "normal", "normal"]])
def test_players_only_return_legal_actions(names: list[str]) -> None:
    for seed in range(20):
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


@pytest.mark.parametrize("name", PLAYERS)
def test_players_see_only_their_observation(name: str) -> None:
    rng = random.Random(11)
    checked = 0
    for seed in range(30):
        deal = Deal.shuffled(2000 + seed)
        players = _players(["hard"] * 3, seed)
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
            first = make_player(name, random.Random(seed)).choose(observation, deal.legal_actions(seat))
            again = make_player(name, random.Random(seed)).choose(altered.observation(seat),
                                                                  altered.legal_actions(seat))
            assert first == again
            checked += 1
    assert checked >= 10


# -- how the levels play ----------------------------------------------------------------------


def _watched(level: type[HardPlayer], deals: int) -> tuple[int, int, int]:
    """Discards made with a declared wait among the options (and a safe choice), those that
    fed the wait, and wins by discard, in *deals* deals of three players of *level*."""
    choices = fed = 0

    class Watch(level):  # type: ignore[valid-type, misc]
        def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
            nonlocal choices, fed
            action: Action = super().choose(observation, legal_actions)
            waits = {wait for seat, wait in enumerate(observation.declared_waits)
                     if wait is not None and seat != observation.seat}
            if (action.kind is ActionKind.DISCARD and any(a.card in waits for a in legal_actions)
                    and any(a.card not in waits for a in legal_actions)):
                choices += 1
                fed += action.card in waits
            return action

    wins_by_discard = 0
    for seed in range(deals):
        players = [Watch(random.Random(seed * 3 + seat)) for seat in range(3)]
        outcome = play_deal(players, Deal.shuffled(3000 + seed)).outcome
        assert outcome is not None
        wins_by_discard += outcome.by == "discard"
    return choices, fed, wins_by_discard


@pytest.mark.parametrize("level", [HardPlayer, NormalPlayer])
def test_hard_and_normal_never_feed_a_declared_wait_when_they_have_a_choice(level: type[HardPlayer]) -> None:
    choices, fed, wins_by_discard = _watched(level, 60)
    assert choices > 20
    assert fed == 0 and wins_by_discard == 0


def test_easy_does_not_mind_the_declared_waits() -> None:
    choices, fed, wins_by_discard = _watched(EasyPlayer, 60)
    assert choices > 20 and fed > 0 and wins_by_discard > 0


def _ready_plus(stray: str) -> Deal:
    """Seat 0 holds a ready hand (waits 5c, 5s) and draws *stray*."""
    hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c " + stray)
    rest = list(Deal.shuffled(0).deck)
    for card in hand:
        rest.remove(card)
    deal = Deal(list(hand[:8]) + rest[:16] + [hand[8]] + rest[16:], 0)
    deal.apply(Action.draw(0))
    return deal


@pytest.mark.parametrize("name", ["easy", "normal", "hard"])
def test_levels_discard_towards_ready_and_declare(name: str) -> None:
    deal = _ready_plus("1m")
    player = make_player(name, random.Random(0))
    action = player.choose(deal.observation(0), deal.legal_actions(0))
    assert action == Action.discard(0, Card.M1)
    deal.apply(action)
    action = player.choose(deal.observation(0), deal.legal_actions(0))
    assert action.kind is ActionKind.DECLARE and action.card in (Card.C5, Card.S5)


def _decisions(seeds: range) -> list[tuple[Observation, tuple[Action, ...]]]:
    """Observations of the seats that must choose, in deals played by three hard players."""
    found = []
    for seed in seeds:
        deal = Deal.shuffled(4000 + seed)
        players = _players(["hard"] * 3, seed)
        while not deal.is_over:
            seat = deal.to_move()[0]
            observation = deal.observation(seat)
            if len(observation.legal_actions) > 1:
                found.append((observation, observation.legal_actions))
            deal.apply(players[seat].choose(observation, observation.legal_actions))
    return found


def test_the_levels_differ_as_documented() -> None:
    hard, normal, easy = (level(random.Random(1)) for level in (HardPlayer, NormalPlayer, EasyPlayer))
    takes = {"hard": 0, "normal": 0, "easy": 0, "hard only": 0}
    discards_differ = 0
    for observation, legal in _decisions(range(25)):
        kind = legal[0].kind
        choices = {"hard": hard.choose(observation, legal), "normal": normal.choose(observation, legal),
                   "easy": easy.choose(observation, legal)}
        for name, action in choices.items():
            takes[name] += action.kind is ActionKind.TAKE
        if choices["normal"].kind is ActionKind.TAKE:  # only when hard would, and only a match or
            latest = observation.latest_discard  # a card that makes the hand ready
            assert choices["hard"].kind is ActionKind.TAKE and latest is not None
            grown = [*observation.hand, latest]
            assert latest in observation.hand or min(
                distance(grown[:i] + grown[i + 1:]) for i in range(8)) == 0
        if choices["hard"].kind is ActionKind.TAKE and choices["normal"].kind is ActionKind.DRAW:
            takes["hard only"] += 1
        if kind is ActionKind.DISCARD:
            hand = [card for card in observation.hand]
            rests = {}
            for action in legal:
                assert action.card is not None
                rest = list(hand)
                rest.remove(action.card)
                rests[action] = distance(rest)
            nearest = min(rests.values())
            # Hard and normal always keep the hand nearest to ready (with a live wait when ready);
            # normal does not always pick hard's discard among those.
            for name in ("hard", "normal"):  # a ready hand with only dead waits counts as one short
                assert rests[choices[name]] == nearest or (nearest == 0 and rests[choices[name]] == 1)
            options = [int(action.card) for action in legal if action.card is not None]
            hand_key = tuple(observation.hand)
            discards_differ += (hard.discards(hand_key, options, observation)
                                != normal.discards(hand_key, options, observation))
    assert takes["easy"] == 0 < takes["normal"] and takes["hard only"] > 0
    assert discards_differ > 50


def test_hard_declares_the_most_live_copies_and_the_others_any_wait() -> None:
    deal = _ready_plus("1m")
    deal.apply(Action.discard(0, Card.M1))
    legal = deal.legal_actions(0)
    dead = [0] * 30  # every wait dead: hard passes, normal and easy declare all the same
    live = [2] * 30
    assert HardPlayer(random.Random(0)).declaration(legal, dead) is None
    both = {Action.declare(0, Card.C5), Action.declare(0, Card.S5)}
    for level in (NormalPlayer, EasyPlayer):
        assert {level(random.Random(seed)).declaration(legal, dead) for seed in range(20)} == both
        assert {level(random.Random(seed)).declaration(legal, live) for seed in range(20)} == both
    live[Card.S5] = 3
    assert {HardPlayer(random.Random(seed)).declaration(legal, live) for seed in range(5)} == {
        Action.declare(0, Card.S5)}  # the most live copies


def test_the_ladder_in_small() -> None:
    """A quick check of the order; the measured ladder is in benchmarks/players.py."""
    hard = simulate(300, ["hard", "easy", "easy"], seed=4)
    assert hard.wins[0] > hard.wins[1] and hard.wins[0] > hard.wins[2]
    normal = simulate(300, ["normal", "random", "random"], seed=4)
    assert normal.wins[0] >= 0.9 * normal.decided


# -- names and reproducibility ----------------------------------------------------------------


def test_same_seed_same_choices() -> None:
    for name in PLAYERS:
        histories = []
        for _ in range(2):
            players = [make_player(name, random.Random(7 + seat)) for seat in range(3)]
            histories.append(play_deal(players, Deal.shuffled(77)).history)
        assert histories[0] == histories[1]


def test_unknown_player_names() -> None:
    with pytest.raises(UnknownPlayerError, match="'expert'") as caught:
        make_player("expert", random.Random(0))
    assert caught.value.params == {"value": "expert"}
    assert str(UnknownPlayerError.naming("x" * 200)).count("x") < 80  # the name, shortened


@pytest.mark.parametrize(("name", "rng"), [
    (3, random.Random(0)), (None, random.Random(0)), ("random", None), ("hard", 7), ("easy", random),
])
def test_make_player_refuses_wrong_types_at_once(name: object, rng: object) -> None:
    """A wrong rng fails at make_player, not later in choose() (issue 19)."""
    with pytest.raises(KowahTypeError) as caught:
        make_player(name, rng)  # type: ignore[arg-type]
    wrong = name if not isinstance(name, str) else rng
    assert f"not {shorten(wrong)} of type {type(wrong).__name__}" in str(caught.value)


def test_every_built_in_player_is_a_named_player() -> None:
    """The Player protocol has a name (the docs use player.name; simulate reports it)."""
    for name in PLAYERS:
        player = make_player(name, random.Random(0))
        assert isinstance(player, Player) and player.name == name


def test_the_command_line_offers_the_same_players(capsys: pytest.CaptureFixture[str]) -> None:
    from kowah.cli import main

    assert main(["--lang", "en", "play", "--opponents", "expert"]) == 2
    said = capsys.readouterr().err.split("(choose ", 1)[1].split(", or name your own", 1)[0]
    assert tuple(said.split(", ")) == PLAYERS


def test_make_player_kinds() -> None:
    rng = random.Random(0)
    assert PLAYERS == ("random", "easy", "normal", "hard")
    assert type(make_player("random", rng)) is RandomPlayer
    assert type(make_player(" Easy", rng)) is EasyPlayer
    assert type(make_player("Normal", rng)) is NormalPlayer
    assert type(make_player("hard", rng)) is HardPlayer
    for name in PLAYERS:
        player = make_player(name, rng)
        assert isinstance(player, Player) and getattr(player, "name", None) == name


@pytest.mark.parametrize("name", PLAYERS)
def test_every_level_plays_the_money_pack(name: str) -> None:
    from kowah import MONEY_RULES

    for seed in range(4):
        players = [_Checked(player) for player in _players([name, "hard", "easy"], seed)]
        deal = play_deal(players, Deal.shuffled(seed, rules=MONEY_RULES))
        assert deal.is_over and deal.rules == MONEY_RULES
