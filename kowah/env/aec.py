"""The PettingZoo environment: one deal of Kowah for three agents, ``seat_0`` to ``seat_2``.

It follows PettingZoo's classic games (``chess_v6``, ``texas_holdem_v4``): agents take turns
(AEC), each observation is ``{"observation": vector, "action_mask": mask}``
(:mod:`kowah.env.encoding`), actions are the ids of :mod:`kowah.env.ids`. Who acts is who
the rules say acts (R9–R11): after a discard that leaves a hand ready, that seat first
declares or passes. The deal's end is a termination for every agent; ``max_cycles`` turns
without an end are a truncation. Rewards come at the end, zero-sum
(:func:`kowah.env.options.rewards_of`).

>>> import random
>>> environment = raw_env()
>>> environment.reset(seed=7)
>>> rng = random.Random(7)
>>> for agent in environment.agent_iter():
...     observation, reward, terminated, truncated, info = environment.last()
...     if terminated or truncated:
...         action = None
...     else:
...         legal = observation["action_mask"].nonzero()[0]
...         action = int(legal[int(rng.random() * len(legal))])
...     environment.step(action)
>>> environment.deal.is_over, sum(environment.returns.values())
(True, 0.0)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from kowah.actions import SEATS, Action
from kowah.cards import Pack
from kowah.deal import Deal
from kowah.engine import Rules
from kowah.env.encoding import HIGH, SIZE, Encoder, mask
from kowah.env.ids import N_ACTIONS, id_to_action
from kowah.env.onehot import ONE_HOT_SIZE, one_hot
from kowah.env.options import (
    RENDER_MODES,
    check_encoding,
    check_max_cycles,
    check_render_mode,
    check_reward,
    choose_rules,
    outcome_info,
    rewards_of,
)
from kowah.env.render import render_table
from kowah.errors import N_, KowahError
from kowah.events import EventKind

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["AGENTS", "KowahEnv", "env", "observation_space", "raw_env"]

#: The agents, by seat.
AGENTS: Final = tuple(f"seat_{seat}" for seat in range(SEATS))
_SEAT: Final = {agent: seat for seat, agent in enumerate(AGENTS)}
_DISCARD = EventKind.DISCARD


def observation_space(encoding: str = "compact") -> gymnasium.spaces.Dict:
    """The space of one agent's observations in *encoding* (``"compact"`` or ``"one-hot"``):
    the vector and the action mask.

    >>> observation_space("one-hot")["observation"]
    Box(0.0, 1.0, (1269,), float32)
    """
    vector: gymnasium.spaces.Space[Any]
    if check_encoding(encoding) == "one-hot":
        vector = gymnasium.spaces.Box(low=0.0, high=1.0, shape=(ONE_HOT_SIZE,), dtype=np.float32)
    else:
        vector = gymnasium.spaces.Box(low=0, high=HIGH, shape=(SIZE,), dtype=np.int8)
    return gymnasium.spaces.Dict({
        "observation": vector,
        "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
    })


class KowahEnv(AECEnv):  # type: ignore[misc]  # PettingZoo has no type information
    """One deal of Kowah as a PettingZoo AEC environment (see the module's description).

    Options: *rules* (a :class:`~kowah.Rules`) or *pack* (``"kowah"``, ``"money"`` or a
    :class:`~kowah.cards.Pack`) choose the variant; *reward* is ``"multiplier"`` or ``"win"``
    (:data:`~kowah.env.options.REWARDS`); *max_cycles* is the most turns (a draw or take and
    its discard) a deal may last before it is truncated, ``None`` for no limit (every deal
    ends: R16, R17); *encoding* is ``"compact"`` (:mod:`~kowah.env.encoding`) or ``"one-hot"``
    (:mod:`~kowah.env.onehot`); *render_mode* is ``"ansi"`` or ``"human"``, in the language
    *lang*. At the deal's end every agent's ``info`` tells the outcome
    (:func:`~kowah.env.options.outcome_info`: ``"winner"``, ``"kind"``, ``"multiplier"``).

    An id out of range raises :class:`~kowah.KowahError`. An illegal action raises
    :class:`~kowah.IllegalActionError` and changes nothing, unless *illegal_reward* is a
    number: then it ends the deal, as PettingZoo's classic games do, that agent getting
    *illegal_reward* and the others 0 (``infos[agent]["illegal"]`` is true); :func:`env` sets −1.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it from the class)
        "name": "kowah_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, *, rules: Rules | None = None, pack: str | Pack | None = None,
                 reward: str = "multiplier", max_cycles: int | None = None,
                 render_mode: str | None = None, lang: str = "en",
                 illegal_reward: float | None = None, encoding: str = "compact") -> None:
        super().__init__()
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.rules = choose_rules(rules, pack)
        self.reward = check_reward(reward)
        self.max_cycles = check_max_cycles(max_cycles)
        self.render_mode = check_render_mode(render_mode)
        self.encoding = check_encoding(encoding)
        self._one_hot = self.encoding == "one-hot"
        self.lang = lang
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        space = observation_space(self.encoding)
        self.observation_spaces = dict.fromkeys(AGENTS, space)
        self.action_spaces = {agent: gymnasium.spaces.Discrete(N_ACTIONS) for agent in AGENTS}
        self._rng = random.Random()
        self._deal: Deal | None = None
        self._encoder: Encoder | None = None
        self._turns = 0
        #: Each agent's total reward over the deal.
        self.returns: dict[str, float] = dict.fromkeys(AGENTS, 0.0)

    # -- the spaces -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of *agent* (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of *agent*: ``Discrete(69)`` (:mod:`kowah.env.ids`)."""
        return self.action_spaces[agent]

    # -- the deal -------------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The deal being played (after :meth:`reset`)."""
        if self._deal is None:
            raise KowahError(N_("error", "call reset() first: there is no deal yet"))
        return self._deal

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal: shuffled from *seed* if given, else from the environment's own
        generator (seeded by the last seed given), so that a seed fixes every deal after it."""
        if seed is not None:
            self._rng = random.Random(seed)
        deal = Deal.shuffled(self._rng, self.rules)
        self._deal = deal
        self._encoder = Encoder(deal)
        self._turns = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.returns = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[deal.actor]

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """*agent*'s observation now: new arrays, the vector and the action mask."""
        seat = _SEAT[agent]
        deal = self.deal
        encoder = self._encoder
        assert encoder is not None
        vector = encoder.vector(seat)
        return {"observation": one_hot(vector) if self._one_hot else vector,
                "action_mask": mask(deal.legal_actions(seat))}

    def step(self, action: int | None) -> None:
        """The selected agent plays the action of id *action* (``None`` once it is done)."""
        if not self.agents:  # before the first reset, or after every agent's last step
            deal = self.deal  # raises before the first reset
            raise KowahError(N_("error", "the episode is over: call reset() for a new deal"))
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self.deal
        seat = _SEAT[agent]
        chosen: Action = id_to_action(action, seat)  # type: ignore[arg-type]
        if self.illegal_reward is not None and not deal.is_legal(chosen):
            self._end_illegal(agent)
            return
        events = deal.apply(chosen)  # an illegal action raises, and changes nothing
        encoder = self._encoder
        assert encoder is not None
        encoder.update(deal, events)
        self._cumulative_rewards[agent] = 0.0
        if deal.is_over:
            rewards = rewards_of(deal.outcome, self.reward)
            for other, value in zip(AGENTS, rewards, strict=True):
                self.rewards[other] = value
                self.returns[other] += value
                self.terminations[other] = True
                self.infos[other] = outcome_info(deal.outcome)
        else:
            self._turns += sum(1 for event in events if event.kind is _DISCARD)
            if self.max_cycles is not None and self._turns >= self.max_cycles:
                for other in AGENTS:
                    self.truncations[other] = True
        if not deal.is_over and not self.truncations[agent]:
            self.agent_selection = AGENTS[deal.actor]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str) -> None:
        """End the episode after *agent*'s illegal action (the deal stays as it was)."""
        self._cumulative_rewards[agent] = 0.0
        for other in AGENTS:
            value = self.illegal_reward if other == agent else 0.0
            assert value is not None
            self.rewards[other] = value
            self.returns[other] += value
            self.terminations[other] = True
        self.infos[agent] = {"illegal": True}
        self._accumulate_rewards()

    # -- rendering ------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as the terminal game shows it to the seat that acts now (after the deal,
        to the last seat that acted), in :attr:`lang`: returned (``"ansi"``) or printed
        (``"human"``). Without a render mode, nothing."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_table(self.deal.observation(_SEAT[self.agent_selection]), self.lang)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**options: Any) -> KowahEnv:
    """The environment without PettingZoo's wrappers (see :class:`KowahEnv` for *options*)."""
    return KowahEnv(**options)


def _forward(name: str) -> property:
    def get(self: _Checked) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    return property(get)


class _Checked(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the attributes every step reads forwarded
    directly rather than through ``__getattr__`` (which costs more than the step itself)."""

    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")


def env(**options: Any) -> AECEnv:
    """The environment as PettingZoo's classic games wrap it: an illegal action ends the deal
    with −1 for the agent that made it (*illegal_reward*), an id out of range is an error, and
    the API's order of calls is checked (PettingZoo's ``OrderEnforcingWrapper``)."""
    options.setdefault("illegal_reward", -1.0)
    return _Checked(raw_env(**options))
