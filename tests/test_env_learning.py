"""kowah.env as learning tools meet it: the Gymnasium id, vector environments, action_masks()
for MaskablePPO, the declare plane, the one-hot encoding, the outcome in the last info, and
the documentation's MaskablePPO recipe."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from pettingzoo.test import api_test
from support import load_file

from kowah import Card, KowahError
from kowah.env import (
    AGENTS,
    ENCODINGS,
    N_ACTIONS,
    ONE_HOT_PLANES,
    ONE_HOT_SIZE,
    PLANES,
    SingleSeatEnv,
    encode,
    env,
    kowah_v0,
    mask,
    one_hot,
    outcome_info,
    raw_env,
    register,
    rewards_of,
    single,
)
from kowah.env.ids import DRAW, PASS, action_to_id
from kowah.env.onehot import RECENT
from kowah.env.single import ENV_ID
from kowah.hands import distance
from kowah.players import make_player

ROOT = Path(__file__).resolve().parent.parent
_DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _episodes(environment: SingleSeatEnv, seeds: range, rng: random.Random, level: str | None = None
              ) -> Iterator[list[tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]]]:
    """Play one deal per seed, the learner choosing a random legal id (or as the built-in
    *level* would); yield every step's result, the reset's first, at the end of each deal."""
    for seed in seeds:
        observation, info = environment.reset(seed=seed)
        player = None if level is None else make_player(level, random.Random(seed))
        steps = [(observation, 0.0, False, False, info)]
        while not (steps[-1][2] or steps[-1][3]):
            if player is None:
                legal = np.flatnonzero(environment.action_masks())
                chosen = int(legal[int(rng.random() * len(legal))])
            else:
                view = environment.deal.observation(environment.seat)
                chosen = action_to_id(player.choose(view, view.legal_actions))
            steps.append(environment.step(chosen))
        yield steps


# -- the Gymnasium id and PettingZoo's module name --------------------------------------------


def test_importing_kowah_env_registers_the_gymnasium_id() -> None:
    assert ENV_ID == "kowah/Kowah-v0" and ENV_ID in gymnasium.registry
    register()  # a second registration changes nothing and says nothing
    made = gymnasium.make(ENV_ID, opponents="easy", seat=1, reward="win", encoding="one-hot")
    inner = made.unwrapped
    assert isinstance(inner, SingleSeatEnv)
    options = (inner.opponents, inner.seat, inner.reward, inner.encoding)
    assert options == (("easy", "easy"), 1, "win", "one-hot")
    assert made.spec is not None and made.spec.id == ENV_ID
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(inner)
    # The module-prefixed id imports kowah.env first, as Gymnasium 1.x asks of plugins.
    assert isinstance(gymnasium.make("kowah.env:kowah/Kowah-v0").unwrapped, SingleSeatEnv)


def test_the_package_declares_gymnasium_s_entry_point() -> None:
    points = importlib.metadata.entry_points(group="gymnasium.envs")
    (point,) = [point for point in points if point.name == "kowah"]
    assert point.value == "kowah.env.single:register" and point.load() is register


def test_make_vec_steps_every_environment_with_a_legal_id() -> None:
    vector = gymnasium.make_vec(ENV_ID, 3, vectorization_mode="sync", opponents="easy", reward="win")
    observations, _ = vector.reset(seed=2)
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(400):
        masks = observations["action_mask"]
        assert (masks.sum(axis=1) >= 1).all()  # something to choose, at every step, deal over or not
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, rewards, terminated, _truncated, infos = vector.step(actions)
        for index in np.flatnonzero(terminated):
            finished += 1
            assert infos["_winner"][index]
            winner = infos["winner"][index]
            assert rewards[index] == (1.0 if winner == 0 else -0.5 if winner >= 0 else 0.0)
    assert finished >= 3
    vector.close()


def test_a_same_step_autoreset_hands_the_new_deal_and_keeps_the_final_observation() -> None:
    vector = gymnasium.make_vec(ENV_ID, 2, vectorization_mode="sync", opponents="easy",
                                vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    observations, _ = vector.reset(seed=4)
    rng = np.random.default_rng(4)
    ended = 0
    while ended < 2:
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in observations["action_mask"]])
        observations, _, terminated, truncated, infos = vector.step(actions)
        for index in np.flatnonzero(terminated | truncated):
            ended += 1
            final = infos["final_obs"][index]
            assert list(final["observation"][PLANES["phase"]]) == [0, 0, 1]  # the deal is over
            assert list(np.flatnonzero(final["action_mask"])) == [DRAW]
            fresh = observations["observation"][index]
            assert int(fresh[PLANES["phase"]][2]) == 0 and observations["action_mask"][index].any()
    vector.close()


def test_pettingzoo_s_module_name_is_the_metadata_s() -> None:
    assert kowah_v0.env is env and kowah_v0.raw_env is raw_env
    assert kowah_v0.env().metadata["name"] == "kowah_v0"


# -- masks: action_masks(), and never nothing to choose ---------------------------------------


def test_action_masks_are_the_legal_ids_and_a_finished_deal_offers_one_placeholder() -> None:
    environment = single(["easy", "normal"], seat=1)
    assert list(np.flatnonzero(environment.action_masks())) == [DRAW]  # before the first reset
    for steps in _episodes(environment, range(8), random.Random(3)):
        for observation, _, terminated, _, _ in steps:
            assert observation["action_mask"].any()
            if not terminated:
                deal_mask = observation["action_mask"]
                assert deal_mask.dtype == np.int8
        deal = environment.deal
        assert deal.is_over
        assert list(np.flatnonzero(steps[-1][0]["action_mask"])) == [DRAW]
        assert environment.action_masks().dtype == np.bool_
        assert list(np.flatnonzero(environment.action_masks())) == [DRAW]
        with pytest.raises(KowahError, match="episode is over"):
            environment.step(DRAW)  # the placeholder is never played


def test_action_masks_follow_the_deal_at_every_learner_step() -> None:
    environment = single("easy", seat=2)
    rng = random.Random(8)
    for seed in range(6):
        environment.reset(seed=seed)
        deal = environment.deal
        while not deal.is_over:
            masks = environment.action_masks()
            assert (masks == mask(deal.legal_actions(2)).astype(bool)).all()
            legal = np.flatnonzero(masks)
            environment.step(int(legal[int(rng.random() * len(legal))]))


# -- the declare plane -----------------------------------------------------------------------


def test_the_declare_plane_says_when_the_seat_must_declare_or_pass() -> None:
    seen = 0
    for encoding in ENCODINGS:
        environment = single("easy", encoding=encoding)
        planes = ONE_HOT_PLANES if encoding == "one-hot" else PLANES
        for steps in _episodes(environment, range(30), random.Random(1), level="hard"):
            for observation, *_ in steps[:-1] if steps[-1][2] else steps:
                must = bool(observation["action_mask"][PASS])
                assert observation["observation"][planes["declare"]][0] == must
                seen += must
    assert seen >= 4  # the random policy reached the choice in some deals


def test_the_declare_plane_is_each_agent_s_own_in_the_aec_environment() -> None:
    environment = raw_env()
    rng = random.Random(2)
    seen = 0
    for seed in range(40):
        environment.reset(seed=seed)
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            flags = [int(environment.observe(other)["observation"][PLANES["declare"]][0]) for other in AGENTS]
            declaring = environment.deal.declaring_seat
            assert flags == [int(seat == declaring) for seat in range(3)]
            seen += declaring is not None
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[int(rng.random() * len(legal))]))
    assert seen >= 4


# -- the one-hot encoding --------------------------------------------------------------------


def test_the_one_hot_planes_hold_what_their_table_says() -> None:
    assert ONE_HOT_SIZE == sum(plane.stop - plane.start for plane in ONE_HOT_PLANES.values()) == 1269
    environment = raw_env(encoding="one-hot", pack="money")
    space = environment.observation_space("seat_0")
    rng = random.Random(6)
    for seed in range(4):
        environment.reset(seed=seed)
        deal = environment.deal
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            seat = AGENTS.index(agent)
            vector = observation["observation"]
            assert vector.dtype == np.float32 and space.contains(observation)
            view = deal.observation(seat)
            compact = encode(view)
            hand = vector[ONE_HOT_PLANES["hand"]].reshape(4, 33)
            assert (hand.sum(axis=0) == compact[PLANES["hand"]]).all()
            assert (hand[1:] <= hand[:-1]).all()  # at least 2 copies implies at least 1
            recent = vector[ONE_HOT_PLANES["recent"]].reshape(3, RECENT, 33)
            for r in range(3):
                pile = view.discards[(seat + r) % 3]
                expected = list(reversed(pile))[:RECENT]
                rows = recent[r]
                assert [int(np.argmax(row)) for row in rows[:len(expected)]] == expected
                assert (rows[:len(expected)].sum(axis=1) == 1).all() and not rows[len(expected):].any()
            for name, scale in (("known", 4), ("discards", 4), ("stock", 108), ("hand_sizes", 9)):
                assert np.allclose(vector[ONE_HOT_PLANES[name]] * scale, compact[PLANES[name]])
            for name in ("declared", "latest", "turn", "phase", "first", "declare"):
                assert (vector[ONE_HOT_PLANES[name]] == compact[PLANES[name]]).all()
            assert vector[ONE_HOT_PLANES["takes"]][0] == min(int(compact[PLANES["takes"]][0]), 30) / 30
            assert (vector == one_hot(compact)).all()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[int(rng.random() * len(legal))]))


def test_the_one_hot_environments_pass_their_own_checkers() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(single("easy", encoding="one-hot"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(encoding="one-hot"), num_cycles=200)
    assert {str(warning.message) for warning in caught} <= _DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("make", [single, raw_env], ids=["single", "raw_env"])
def test_an_unknown_encoding_is_a_clear_error(make: Any) -> None:
    with pytest.raises(KowahError, match="unknown encoding 'onehot' \\(choose compact or one-hot\\)"):
        make(encoding="onehot")


# -- the outcome in the last info ------------------------------------------------------------


def test_the_last_info_tells_the_outcome() -> None:
    environment = single("easy", seat=0, reward="win")
    kinds = set()
    for steps in _episodes(environment, range(40), random.Random(4)):
        *middle, (_, reward, terminated, _, info) = steps
        assert all(step[4] == {} for step in middle)
        outcome = environment.deal.outcome
        assert terminated and outcome is not None
        assert info == outcome_info(outcome)
        assert info["kind"] == outcome.by.value if outcome.by is not None else False
        assert info["winner"] == (-1 if outcome.winner is None else outcome.winner)
        assert info["multiplier"] == (outcome.multiplier or 0)
        assert reward == rewards_of(outcome, "win")[0]
        kinds.add(info["kind"])
    assert "exhaustion" in kinds and kinds & {"self-draw", "discard", "draw-claim"}


def test_every_agent_s_last_info_tells_the_outcome_in_the_aec_environment() -> None:
    environment = env()
    rng = random.Random(9)
    environment.reset(seed=9)
    for _agent in environment.agent_iter():
        observation, _, terminated, truncated, info = environment.last()
        if terminated or truncated:
            assert info == outcome_info(environment.unwrapped.deal.outcome) != {}
            environment.step(None)
            continue
        assert info == {}
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(legal[int(rng.random() * len(legal))]))


# -- the documentation's MaskablePPO recipe ---------------------------------------------------


def _recipe() -> Any:
    if importlib.util.find_spec("sb3_contrib") is None or importlib.util.find_spec("torch") is None:
        pytest.skip("the MaskablePPO recipe needs sb3-contrib and torch (pip install 'kowah[rl-train]')")
    return load_file(ROOT / "docs" / "examples" / "maskable_ppo.py", "kowah_maskable_ppo_example")


def test_the_maskable_ppo_recipe_hints_are_what_the_hand_functions_say() -> None:
    recipe = _recipe()
    environment = recipe.Hints(single("easy", seat=1, encoding="one-hot"))
    assert environment.observation_space["hints"].shape == (recipe.HINTS_SIZE,)
    rng = random.Random(5)
    checked = {"discard": 0, "take": 0, "declare": 0}
    for deal_number in range(12):
        observation, _ = environment.reset(seed=deal_number)
        terminated = truncated = False
        while not (terminated or truncated):
            deal = environment.unwrapped.deal
            seen = deal.observation(1)
            given = observation["hints"]
            assert environment.observation_space.contains(observation)
            planes = given[:3 * 33].reshape(3, 33)
            unseen = seen.unseen()
            assert [round(float(value) * 4) for value in planes[0]] == [unseen.get(card, 0) for card in Card]
            legal = np.flatnonzero(observation["action_mask"])
            hand = list(deal.hand(1))
            if len(legal) > 1 and len(hand) == 9:
                options = {int(action.card) for action in seen.legal_actions}
                kept = {card: 8 - distance(hand[:i] + hand[i + 1:])
                        for i, card in enumerate(hand) if int(card) in options}
                assert {card: round(float(planes[1, card]) * 8) for card in kept} == kept
                assert {Card(int(card)) for card in np.flatnonzero(planes[2])} == {
                    card for card, held in kept.items() if held == max(kept.values())}
                assert round(float(given[-2]) * 8) == 8 - max(kept.values())
                checked["discard"] += 1
            elif len(legal) > 1 and observation["action_mask"][1]:
                latest = seen.latest_discard
                assert latest is not None
                assert bool(given[-1]) is (distance([*hand, latest]) < distance(hand))
                assert round(float(given[-2]) * 8) == distance(hand)
                checked["take"] += 1
            else:  # no choice, or to declare or pass: the unseen copies alone
                assert not planes[1:].any() and not given[-2:].any()
                checked["declare"] += bool(observation["action_mask"][2])
            action = int(legal[int(rng.random() * len(legal))])
            observation, _, terminated, truncated, _ = environment.step(action)
    assert min(checked.values()) > 0, checked


def test_the_maskable_ppo_recipe_trains_and_measures_an_agent() -> None:
    recipe = _recipe()
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    model, curve = recipe.train(steps=256, seed=3, envs=2, shaping=0.2, cpu_minutes=5.0, curve_path=None)
    vector_env = model.get_env()
    assert is_masking_supported(vector_env)  # MaskablePPO's own check: no ActionMasker needed
    masks = get_action_masks(vector_env)
    assert masks.shape == (2, N_ACTIONS) and masks.any(axis=1).all()
    assert model.num_timesteps >= 256
    assert all(level in ("easy", "normal") and won in (True, False) for _, level, won in curve.deals)
    results = recipe.measure(model, deals=2)
    assert [result.seats[0] for result in results.values()] == ["maskable-ppo", "maskable-ppo"]
    assert all(result.deals == 2 for result in results.values())
