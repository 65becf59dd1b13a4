"""kowah.env: PettingZoo's and Gymnasium's own checks, the mask, the ids, rewards, replays, leaks."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from support import load_file

from kowah import (
    MONEY_RULES,
    Action,
    ActionKind,
    Card,
    Deal,
    DeckError,
    DrawnBy,
    Event,
    EventKind,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    Outcome,
    Record,
    Rules,
)
from kowah.actions import DECLARES, DISCARDS, DRAWS, PASSES, TAKES
from kowah.cards import Pack
from kowah.env import (
    AGENTS,
    HIGH,
    N_ACTIONS,
    PLANES,
    SIZE,
    Encoder,
    KowahEnv,
    action_names,
    action_to_id,
    encode,
    env,
    id_to_action,
    mask,
    policy_player,
    raw_env,
    rewards_of,
    single,
)
from kowah.players import UnknownPlayerError
from kowah.record import replay_outcome
from kowah.simulation import simulate

# What api_test says of every environment whose observations are dicts and that is not one of
# PettingZoo's own (it names those it lets off): ours are dicts, as its classic games' are.
_DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _random_id(observation: dict[str, np.ndarray], rng: random.Random) -> int:
    legal = np.flatnonzero(observation["action_mask"])
    return int(legal[int(rng.random() * len(legal))])


def _play(environment: KowahEnv, rng: random.Random) -> Iterator[tuple[str, int]]:
    """Play the environment's deal to its end with random legal ids; yield each (agent, id)."""
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        action = _random_id(observation, rng)
        yield agent, action
        environment.step(action)


# -- the peer suites ------------------------------------------------------------------------


@pytest.mark.parametrize("make", [env, raw_env], ids=["env", "raw_env"])
def test_pettingzoo_api_test_passes(make: Callable[[], KowahEnv]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=400)
    assert {str(warning.message) for warning in caught} <= _DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("make", [env, raw_env], ids=["env", "raw_env"])
def test_pettingzoo_seed_test_passes(make: Callable[[], KowahEnv]) -> None:
    seed_test(make, num_cycles=200)


def test_gymnasium_check_env_passes_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        check_env(single("easy", seat=1))


# -- the action table -----------------------------------------------------------------------


def test_the_action_table_is_the_documented_one() -> None:
    names = action_names()
    assert N_ACTIONS == len(names) == 69
    assert names[:3] == ("draw", "take", "pass")
    assert names[3:36] == tuple(f"discard {card}" for card in Card)
    assert names[36:] == tuple(f"declare {card}" for card in Card)
    assert names[3 + Card.C5] == "discard 5c" and names[36 + Card.MK] == "declare mk"


def test_ids_and_actions_round_trip() -> None:
    for seat in range(3):
        for action_id in range(N_ACTIONS):
            action = id_to_action(action_id, seat)
            assert action.seat == seat and action_to_id(action) == action_id
        shared = [DRAWS[seat], TAKES[seat], PASSES[seat], *DISCARDS[seat], *DECLARES[seat]]
        assert sorted(action_to_id(action) for action in shared) == list(range(N_ACTIONS))
        for action in shared:
            assert id_to_action(action_to_id(action), seat) is action
    assert id_to_action(np.int64(15), 2) is Action.discard(2, Card.C5)  # numpy ids, as learners give


@pytest.mark.parametrize(("bad", "error"), [
    (-1, KowahError), (N_ACTIONS, KowahError), (10 ** 30, KowahError),
    (True, KowahTypeError), ("draw", KowahTypeError), (1.0, KowahTypeError), (None, KowahTypeError),
])
def test_a_bad_id_is_a_clear_error(bad: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="action id"):
        id_to_action(bad, 0)  # type: ignore[arg-type]


def test_an_id_needs_a_named_wait_and_an_action() -> None:
    with pytest.raises(KowahError, match="needs its wait"):
        action_to_id(Action.declare(0, None))
    with pytest.raises(KowahTypeError):
        action_to_id("draw")  # type: ignore[arg-type]
    with pytest.raises(KowahError, match="no seat"):
        id_to_action(0, 3)


# -- the mask and the observation -------------------------------------------------------------


def _expected_id(action: Action) -> int:
    """The id the documentation gives *action*, from its fields (not from the module's tables)."""
    base = {ActionKind.DRAW: 0, ActionKind.TAKE: 1, ActionKind.PASS: 2}
    if action.kind in base:
        return base[action.kind]
    assert action.card is not None
    return (3 if action.kind is ActionKind.DISCARD else 36) + int(action.card)


@pytest.mark.parametrize("chunk", range(4))
def test_the_mask_is_exactly_the_legal_actions_in_1000_random_deals(chunk: int) -> None:
    # 4 x 250 random deals, played on the rules' fast state: at every step, the mask of each
    # seat's legal actions has a 1 exactly at the documented id of each (none for a seat that
    # may not act). The environment's masks are these masks (next test).
    expected: dict[tuple[Action, ...], bytes] = {}
    random_ = random.Random(chunk).random
    steps = 0
    for number in range(250):
        state = Deal.shuffled(seed=1000 * chunk + number).state()
        while state.outcome is None:
            movers = state.to_move()
            for seat in range(3):
                legal = state.legal_actions(seat)
                known = expected.get(legal)
                if known is None:
                    row = bytearray(N_ACTIONS)
                    for action in legal:
                        row[_expected_id(action)] = 1
                    known = expected[legal] = bytes(row)
                assert mask(legal).tobytes() == known
                assert (seat in movers) == bool(legal)
            legal = state.legal_actions(movers[0])
            state.step(legal[int(random_() * len(legal))])
            steps += 1
    assert steps > 250 * 100 and len(expected) > 1000


def test_the_environment_masks_every_agent_at_every_step() -> None:
    environment = raw_env()
    environment.reset(seed=7)
    random_ = random.Random(7).random
    for deal_number in range(40):
        if deal_number:
            environment.reset()
        deal = environment.deal
        while not deal.is_over:
            movers = deal.to_move()
            assert environment.agent_selection == AGENTS[movers[0]]
            masks = [environment.observe(name)["action_mask"] for name in AGENTS]
            for seat, action_mask in enumerate(masks):
                ids = np.flatnonzero(action_mask).tolist()
                assert ids == sorted(_expected_id(action) for action in deal.legal_actions(seat))
            legal = np.flatnonzero(masks[movers[0]])
            environment.step(legal[int(random_() * len(legal))])


def test_the_observation_follows_the_deal_and_its_encoding_from_scratch() -> None:
    # The environment's vectors, kept up to date from the events, are the encoding of each
    # seat's Observation at every step; the encoding reads back as the observation.
    rng = random.Random(5)
    for seed in range(6):
        environment = raw_env(pack="money" if seed % 3 == 0 else None)
        environment.reset(seed=seed)
        deal = environment.deal
        for _ in _play(environment, rng):
            for seat, agent in enumerate(AGENTS):
                vector = environment.observe(agent)["observation"]
                observation = deal.observation(seat)
                assert (vector == encode(observation)).all()
                assert vector.dtype == np.int8 and vector.shape == (SIZE,)
                assert ((vector >= 0) & (vector <= HIGH)).all()
        view = deal.observation(0)
        vector = encode(view)
        hand = vector[PLANES["hand"]]
        assert sorted(Card(int(i)) for i in np.flatnonzero(hand) for _ in range(hand[i])) == list(view.hand)
        pile = vector[PLANES["pile"]].reshape(3, -1)
        for r in range(3):
            seat = r  # seat 0 observes: its rows are in seat order
            assert [Card(x - 1) for x in pile[r] if x] == list(view.discards[seat])
        assert int(vector[PLANES["stock"]][0]) == view.stock_count
        assert list(vector[PLANES["phase"]]) == [0, 0, 1]  # the deal is over


def test_the_observation_is_counted_from_the_observing_seat() -> None:
    deal = Deal.shuffled(seed=9, first=1)
    for seat in range(3):
        vector = encode(deal.observation(seat))
        # Seat 1 opens: for seat 1 that is itself (0), for seat 0 the next seat (1), for seat
        # 2 the previous one (2).
        assert list(vector[PLANES["first"]]).index(1) == (1 - seat) % 3
        assert list(vector[PLANES["turn"]]).index(1) == (1 - seat) % 3


def _as_seen(events: tuple[Event, ...], seat: int) -> list[Event]:
    """*events* as *seat* sees them: another seat's hidden draw without its card (R13)."""
    return [event if event.public or event.seat == seat else Event(EventKind.DRAW, event.seat, None, False)
            for event in events]


def test_no_leak_deals_that_differ_only_in_hidden_cards_look_the_same() -> None:
    # Deal B is deal A with two cards swapped that the observing seat does not see at the start
    # (another seat's concealed cards, the stock). The same actions are played in both for as
    # long as they stay legal and every event the seat sees stays the same: the deals then
    # differ only in what it cannot see, and its observation vector and mask must be equal at
    # each of those steps, while the other seats' vectors are not.
    rng = random.Random(20)
    hidden_steps = swaps = 0
    for seed in range(6):
        environment = raw_env()
        environment.reset(seed=seed)
        deal_a = environment.deal
        seat = seed % 3
        played = [id_to_action(action, AGENTS.index(agent)) for agent, action in _play(environment, rng)]
        hidden = [p for p in range(len(deal_a.deck)) if not seat * 8 <= p < seat * 8 + 8]
        for _ in range(12):
            p, q = rng.sample(hidden, 2)
            deck = list(deal_a.deck)
            deck[p], deck[q] = deck[q], deck[p]
            if deck[p] == deck[q]:
                continue
            swaps += 1
            original, twin = Deal(deal_a.deck, deal_a.first), Deal(deck, deal_a.first)
            encoders = (Encoder(original), Encoder(twin))
            for action in played:
                if not twin.is_legal(action):
                    break
                events = original.apply(action), twin.apply(action)
                if _as_seen(events[0], seat) != _as_seen(events[1], seat):
                    break  # the seat can tell them apart from here on
                for deal, encoder, caused in zip((original, twin), encoders, events, strict=True):
                    encoder.update(deal, caused)
                assert (encoders[0].vector(seat) == encoders[1].vector(seat)).all()
                assert original.legal_actions(seat) == twin.legal_actions(seat)
                hidden_steps += any((encoders[0].vector(s) != encoders[1].vector(s)).any()
                                    for s in range(3) if s != seat)
    assert swaps >= 60 and hidden_steps >= 1000


# -- rewards, endings, replays ----------------------------------------------------------------


@pytest.mark.parametrize("reward", ["multiplier", "win"])
def test_returns_are_zero_sum_and_follow_the_outcome(reward: str) -> None:
    rng = random.Random(3)
    environment = raw_env(reward=reward)
    environment.reset(seed=3)
    seen = set()
    for deal_number in range(16):
        if deal_number:
            environment.reset()
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent in environment.agent_iter():
            _, reward_now, terminated, truncated, _ = environment.last()
            totals[agent] += reward_now
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(_random_id(environment.observe(agent), rng))
        outcome = environment.deal.outcome
        assert outcome is not None
        assert sum(totals.values()) == 0.0 == sum(environment.returns.values())
        assert totals == environment.returns
        if outcome.winner is None:
            assert set(totals.values()) == {0.0}
            seen.add("drawn")
        else:
            stake = outcome.multiplier if reward == "multiplier" else 1
            assert totals[AGENTS[outcome.winner]] == stake
            assert sorted(totals.values())[:2] == [-stake / 2, -stake / 2]
            seen.add(str(outcome.by))
    assert "drawn" in seen and len(seen) >= 2  # drawn deals and wins


def test_rewards_of_every_way_to_end() -> None:
    assert rewards_of(Outcome.win(1, "self-draw", Card.C5), "multiplier") == (-1.5, 3.0, -1.5)
    assert rewards_of(Outcome.win(0, "draw-claim", Card.C5), "multiplier") == (1.0, -0.5, -0.5)
    assert rewards_of(Outcome.win(2, "discard", Card.C5), "win") == (-0.5, -0.5, 1.0)
    assert rewards_of(None, "win") == (0.0, 0.0, 0.0)


def test_replaying_an_episode_through_a_record_gives_its_outcome() -> None:
    rng = random.Random(8)
    for seed in range(10):
        environment = raw_env(pack="money" if seed % 2 else "kowah")
        environment.reset(seed=100 + seed)
        played = [id_to_action(action, AGENTS.index(agent)) for agent, action in _play(environment, rng)]
        deal = environment.deal
        record = Record(deal.deck, deal.first, [a for a in played if a.kind is not ActionKind.PASS],
                        rules=deal.rules)
        assert deal.outcome is not None and record.replay().outcome == deal.outcome
        assert replay_outcome(record.dumps()) == dict(deal.outcome.as_dict())


def _exhausted_seed() -> int:
    """A seed whose random play (random.Random(seed)) ends with the stock exhausted (R16)."""
    for seed in range(200):
        environment = raw_env()
        environment.reset(seed=seed)
        for _ in _play(environment, random.Random(seed)):
            pass
        outcome = environment.deal.outcome
        if outcome is not None and outcome.winner is None:
            return seed
    raise AssertionError("no drawn deal in 200 seeds")


def test_exhaustion_is_a_termination_for_every_agent() -> None:
    seed = _exhausted_seed()
    environment = raw_env()
    environment.reset(seed=seed)
    rng = random.Random(seed)
    finished = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated:
            assert not truncated and reward == 0.0
            finished.append(agent)
            environment.step(None)
        else:
            environment.step(_random_id(observation, rng))
    assert sorted(finished) == list(AGENTS) and environment.agents == []
    assert environment.deal.stock_count == 0 and environment.deal.outcome == Outcome.drawn(DrawnBy.EXHAUSTION)


def test_max_cycles_truncates_after_that_many_turns() -> None:
    environment = raw_env(max_cycles=4)
    environment.reset(seed=2)
    rng = random.Random(2)
    steps = 0
    for _agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if truncated:
            assert not terminated and reward == 0.0
            environment.step(None)
            continue
        environment.step(_random_id(observation, rng))
        steps += 1
    deal = environment.deal
    assert not deal.is_over and len([a for a in deal.history if a.kind is ActionKind.DISCARD]) == 4
    assert environment.agents == [] and steps >= 8


# -- seeding and variants -----------------------------------------------------------------------


def test_reset_with_a_seed_fixes_that_deal_and_every_one_after_it() -> None:
    def decks(seed: int) -> list[tuple[Card, ...]]:
        environment = raw_env()
        environment.reset(seed=seed)
        found = [environment.deal.deck]
        for _ in range(3):
            environment.reset()
            found.append(environment.deal.deck)
        return found

    assert decks(11) == decks(11)
    assert len(set(decks(11))) == 4 and decks(11) != decks(12)


def test_rules_and_pack_choose_the_variant() -> None:
    for environment in (raw_env(pack="money"), raw_env(rules=MONEY_RULES),
                        raw_env(pack=MONEY_RULES.pack)):
        environment.reset(seed=1)
        assert environment.deal.rules == MONEY_RULES and environment.deal.stock_count == 108
        vector = environment.observe(environment.agent_selection)["observation"]
        assert vector[PLANES["stock"]][0] == 108
    with pytest.raises(KowahError, match="not both"):
        raw_env(rules=MONEY_RULES, pack="money")
    with pytest.raises(DeckError, match="unknown pack"):
        raw_env(pack="tarot")
    with pytest.raises(KowahTypeError, match="Rules value"):
        raw_env(rules="money")
    with pytest.raises(DeckError, match="at most 4 copies"):
        raw_env(rules=Rules(pack=Pack("big", [5] * 27 + [0] * 6)))


@pytest.mark.parametrize(("options", "error"), [
    ({"reward": "money"}, KowahError), ({"max_cycles": 0}, KowahError),
    ({"max_cycles": 2.5}, KowahTypeError), ({"render_mode": "rgb_array"}, KowahError),
])
def test_bad_options_are_clear_errors(options: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        raw_env(**options)
    with pytest.raises(error):
        single("easy", **options)


# -- illegal actions --------------------------------------------------------------------------


def test_the_raw_environment_refuses_an_illegal_action_and_changes_nothing() -> None:
    environment = raw_env()
    environment.reset(seed=4)
    agent = environment.agent_selection
    before = environment.observe(agent)
    with pytest.raises(IllegalActionError, match="on the opening turn, a player must draw"):
        environment.step(1)  # take, on the opening turn
    after = environment.observe(agent)
    assert (before["observation"] == after["observation"]).all()
    assert environment.agent_selection == agent and environment.deal.history == ()
    with pytest.raises(KowahError, match="no action id 69"):
        environment.step(69)


def test_the_raw_environment_says_when_it_has_no_deal_to_play() -> None:
    environment = raw_env()
    with pytest.raises(KowahError, match="call reset"):
        environment.step(0)
    with pytest.raises(KowahError, match="call reset"):
        environment.observe("seat_0")
    environment.reset(seed=1)
    for _ in _play(environment, random.Random(1)):
        pass
    assert environment.agents == []
    with pytest.raises(KowahError, match="episode is over"):
        environment.step(0)


def test_the_wrapped_environment_ends_the_deal_on_an_illegal_action() -> None:
    environment = env()
    environment.reset(seed=4)
    agent = environment.agent_selection
    environment.step(1)  # take, on the opening turn
    assert all(environment.terminations.values())
    assert environment.rewards[agent] == -1.0 and sum(environment.rewards.values()) == -1.0
    assert environment.infos[agent] == {"illegal": True}
    assert environment.unwrapped.deal.history == ()


# -- the single-agent view and the adapter ------------------------------------------------------


def test_single_plays_the_opponents_and_pays_the_learner_at_the_end() -> None:
    environment = single(["easy", "normal"], seat=2)
    rng = random.Random(1)
    for seed in range(6):
        observation, info = environment.reset(seed=seed)
        deal = environment.deal
        assert deal.actor == 2 and info == {}
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            assert (observation["action_mask"] == mask(deal.legal_actions(2))).all()
            observation, reward, terminated, truncated, info = environment.step(_random_id(observation, rng))
            total += reward
            assert terminated or deal.actor == 2
        assert total == rewards_of(deal.outcome, "multiplier")[2]
        with pytest.raises(KowahError, match="episode is over"):
            environment.step(0)


def test_single_is_reproducible_from_its_seed() -> None:
    def episode(seed: int) -> list[int]:
        environment = single("hard", seat=0)
        observation, _ = environment.reset(seed=seed)
        rng, chosen, done = random.Random(0), [], False
        while not done:
            chosen.append(_random_id(observation, rng))
            observation, _, terminated, truncated, _ = environment.step(chosen[-1])
            done = terminated or truncated
        return [*chosen, *environment.deal.deck]

    assert episode(5) == episode(5) != episode(6)


def test_single_truncates_after_max_cycles_turns() -> None:
    environment = single("easy", seat=2, max_cycles=1)
    for seed in range(3):
        observation, _ = environment.reset(seed=seed)
        assert environment.deal.actor == 2  # the learner's first action, whatever the limit
        legal = np.flatnonzero(observation["action_mask"])
        done, steps = False, 0
        while not done:
            observation, reward, terminated, truncated, _ = environment.step(int(legal[0]))
            legal = np.flatnonzero(observation["action_mask"])
            done, steps = terminated or truncated, steps + 1
        assert truncated and not terminated and reward == 0.0 and steps <= 3


def test_single_ends_the_episode_on_an_illegal_action() -> None:
    environment = single("easy", illegal_reward=-2)
    observation, _ = environment.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info) == (-2.0, True, False, {"illegal": True})


@pytest.mark.parametrize(("opponents", "seat", "error"), [
    ("expert", 0, UnknownPlayerError), (["easy"], 0, KowahTypeError), (3, 0, KowahTypeError),
    ("easy", 3, KowahError), ("easy", "0", KowahTypeError),
])
def test_single_refuses_bad_opponents_and_seats(opponents: object, seat: object,
                                                error: type[Exception]) -> None:
    with pytest.raises(error):
        single(opponents, seat=seat)  # type: ignore[arg-type]


def test_a_policy_plays_in_simulate_as_a_player() -> None:
    def cautious(observation: np.ndarray, action_mask: np.ndarray) -> int:
        # Never takes; declares when it may; else the first legal id.
        legal = np.flatnonzero(action_mask)
        declares = [i for i in legal if i >= 36]
        return int(declares[0] if declares else legal[0] if legal[0] != 1 else 0)

    result = simulate(30, [policy_player(cautious, name="cautious"), "easy", "easy"], seed=4)
    assert result.seats[0] == "cautious" and result.deals == 30
    assert sum(result.wins) + result.drawn == 30
    low, high = result.win_rate_interval(0)
    assert 0.0 <= low <= result.wins[0] / 30 <= high <= 1.0


def test_a_policy_that_chooses_an_illegal_id_is_refused() -> None:
    with pytest.raises(IllegalActionError):
        simulate(1, [policy_player(lambda observation, action_mask: 1), "easy", "easy"], seed=0)
    with pytest.raises(KowahTypeError, match="policy"):
        policy_player("random")  # type: ignore[arg-type]


# -- the documentation's example and the benchmark ------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_the_documentations_example_trains_and_measures_an_agent() -> None:
    example = load_file(ROOT / "docs" / "examples" / "reinforce.py", "kowah_reinforce_example")
    theta, rewards = example.train(12, seed=3, rate=0.05)
    assert theta.shape == (example.FEATURES,) and len(rewards) == 12 and theta.any()
    assert set(rewards) <= {1.0, -0.5, 0.0}
    result = simulate(3, [policy_player(example.greedy(theta), name="reinforce"), "easy", "easy"], seed=1)
    assert result.seats[0] == "reinforce" and sum(result.wins) + result.drawn == 3
    svg = example.curve_svg([1.0, -0.5, 0.0, 1.0] * 10, window=8)
    assert svg.startswith("<svg") and "<polyline" in svg


def test_the_benchmark_loop_plays_legal_steps() -> None:
    benchmark = load_file(ROOT / "benchmarks" / "env.py", "kowah_env_benchmark")
    assert benchmark.steps_per_second(env, 600, seed=1) > 0  # env() would end a deal on an illegal id
    assert benchmark.steps_per_second(raw_env, 600, seed=2) > 0  # raw_env would raise


# -- rendering ---------------------------------------------------------------------------------


def test_render_shows_the_table_as_the_terminal_does_in_the_chosen_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    from kowah.i18n import translator
    from kowah.terminal import render_table

    environment = raw_env(render_mode="ansi", lang="it")
    environment.reset(seed=3)
    seat = AGENTS.index(environment.agent_selection)
    text = environment.render()
    assert text == render_table(environment.deal.observation(seat), translator("it"))
    assert translator("it").gettext("cli", "Your hand: {cards}").split("{")[0] in text
    shown = single("easy", seat=2, render_mode="human", lang="cs")
    shown.reset(seed=1)
    printed = capsys.readouterr().out
    assert render_table(shown.deal.observation(2), translator("cs")) in printed
    with pytest.warns(UserWarning, match="render mode"):
        assert raw_env().render() is None  # no render mode: nothing to render


def _take_whenever_possible(environment: KowahEnv) -> None:
    """Play the deal: take whenever a take is legal, else pass, draw or the first discard."""
    for _agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            assert terminated and not truncated and reward == 0.0
            environment.step(None)
            continue
        ids = np.flatnonzero(observation["action_mask"]).tolist()
        environment.step(1 if 1 in ids else 2 if 2 in ids else ids[0])


@pytest.mark.parametrize("turns", [30, 4])
def test_turns_in_a_row_without_a_draw_end_the_deal_drawn_as_a_termination(turns: int) -> None:
    # R17: after the opening draw, every seat takes the latest discard: the deal ends drawn
    # after the 30th take (Rules.no_progress_turns), a termination with no reward.
    rules = Rules() if turns == 30 else Rules(no_progress_turns=turns)
    environment = raw_env(rules=rules)
    environment.reset(seed=12)
    deal = environment.deal
    _take_whenever_possible(environment)
    assert deal.outcome == Outcome.drawn(DrawnBy.NO_PROGRESS)
    assert sum(action.kind is ActionKind.TAKE for action in deal.history) == turns
    assert deal.stock_count == rules.stock_size - 1  # the opening draw only
    assert environment.agents == [] and set(environment.returns.values()) == {0.0}
    assert encode(deal.observation(0))[PLANES["takes"]][0] == turns
