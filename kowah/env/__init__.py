"""Kowah for reinforcement learning: a PettingZoo environment and a Gymnasium one.

Install the ``rl`` extra (``pip install 'kowah[rl]'``: PettingZoo, Gymnasium, numpy). Laid out
like PettingZoo's classic games:

* :func:`env` and :func:`raw_env`: one deal for three agents, ``seat_0`` to ``seat_2``, who
  take turns (AEC); ``metadata["name"]`` is ``"kowah_v0"``, and :mod:`kowah.env.kowah_v0`
  gives them under that name, as PettingZoo's games are imported;
* :func:`single`: a :class:`gymnasium.Env` for one learner against two AI players, registered
  with Gymnasium as ``kowah/Kowah-v0`` on import (``gymnasium.make("kowah/Kowah-v0",
  opponents="easy")``, ``gymnasium.make_vec``), with :meth:`~SingleSeatEnv.action_masks` for
  sb3-contrib's ``MaskablePPO``;
* the action table (:mod:`kowah.env.ids`): ``Discrete(69)``, :func:`action_to_id`,
  :func:`id_to_action`;
* the observation (:mod:`kowah.env.encoding`): ``{"observation": Box(0, HIGH, (1026,), int8),
  "action_mask": Box(0, 1, (69,), int8)}``, documented plane by plane; with
  ``encoding="one-hot"``, a ``float32`` vector of 0–1 for a generic network
  (:mod:`kowah.env.onehot`);
* :func:`policy_player`: a learnt policy as a player for :func:`kowah.simulation.simulate`.

>>> from kowah import env as kowah_env
>>> environment = kowah_env.env()
>>> environment.reset(seed=1)
>>> environment.agent_selection in environment.possible_agents
True
>>> observation, reward, terminated, truncated, info = environment.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((1026,), (69,))

The page "Kowah for reinforcement learning" of the documentation trains an agent with it.
"""

from __future__ import annotations

from kowah.errors import N_, format_message

_MISSING: ImportError | None = None
try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:
    # kowah.env.ids (the action table) is pure Python and stays importable without the rl
    # extra; everything else here says what is missing when it is asked for.
    _MISSING = ImportError(format_message(N_("error", "kowah.env needs numpy, gymnasium and pettingzoo: "
                                                      "pip install 'kowah[rl]' ({reason})"),
                                          {"reason": str(error)}))

if _MISSING is not None:
    _NEEDED: ImportError = _MISSING

    def __getattr__(name: str) -> object:
        if name == "ids":  # from kowah.env import ids
            import importlib

            return importlib.import_module("kowah.env.ids")
        raise _NEEDED

else:
    from kowah.env import kowah_v0
    from kowah.env.aec import AGENTS, KowahEnv, env, observation_space, raw_env
    from kowah.env.encoding import HIGH, PLANES, SIZE, Encoder, encode, mask
    from kowah.env.ids import N_ACTIONS, action_names, action_to_id, id_to_action
    from kowah.env.onehot import ONE_HOT_PLANES, ONE_HOT_SIZE, one_hot
    from kowah.env.options import ENCODINGS, REWARDS, outcome_info, rewards_of
    from kowah.env.policy import Policy, PolicyPlayer, policy_player
    from kowah.env.single import SingleSeatEnv, register, single

    register()  # gymnasium.make("kowah/Kowah-v0") once kowah.env is imported

__all__ = [
    "AGENTS",
    "ENCODINGS",
    "HIGH",
    "N_ACTIONS",
    "ONE_HOT_PLANES",
    "ONE_HOT_SIZE",
    "PLANES",
    "REWARDS",
    "SIZE",
    "Encoder",
    "KowahEnv",
    "Policy",
    "PolicyPlayer",
    "SingleSeatEnv",
    "action_names",
    "action_to_id",
    "encode",
    "env",
    "id_to_action",
    "kowah_v0",
    "mask",
    "observation_space",
    "one_hot",
    "outcome_info",
    "policy_player",
    "raw_env",
    "register",
    "rewards_of",
    "single",
]
