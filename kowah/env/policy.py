"""A learnt policy as a :class:`kowah.players.Player`, to measure it with :func:`kowah.simulation.simulate`.

A *policy* is a function from an observation vector and an action mask
(:mod:`kowah.env.encoding`) to an action id (:mod:`kowah.env.ids`), as an agent trained on
:mod:`kowah.env` plays. :func:`policy_player` makes a player factory of it, which
``simulate`` (and so the AI ladder) seats like a built-in level:

>>> from kowah.simulation import simulate
>>> def first_legal(observation, action_mask):
...     return int(action_mask.nonzero()[0][0])
>>> result = simulate(6, [policy_player(first_legal, name="first"), "easy", "easy"], seed=1)
>>> result.seats[0], result.deals
('first', 6)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from kowah.actions import Action
from kowah.env.encoding import encode, mask
from kowah.env.ids import id_to_action
from kowah.errors import N_, KowahTypeError, shorten

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from kowah.deal import Observation

__all__ = ["Policy", "PolicyFactory", "PolicyPlayer", "policy_player"]

#: A policy: the observation vector and the action mask in, an action id out.
Policy = Callable[["NDArray[np.int8]", "NDArray[np.int8]"], int]


def _check_policy(policy: object) -> Policy:
    if not callable(policy):
        raise KowahTypeError(N_("error", "a policy must be a function of an observation and an action "
                                         "mask, not {value}"), value=shorten(policy))
    return policy


class PolicyPlayer:
    """A :class:`~kowah.players.Player` that plays what *policy* chooses.

    Each step it encodes its seat's :class:`~kowah.Observation` (:func:`~kowah.env.encoding.encode`)
    and the legal actions' mask, asks the policy for an id and plays that id's action. An id
    that is not legal is refused by the deal (:class:`~kowah.IllegalActionError`), as any
    player's illegal action is. *rng* is kept for policies that want one (:attr:`rng`).
    """

    def __init__(self, policy: Policy, rng: random.Random | None = None, name: str = "policy") -> None:
        self.policy = _check_policy(policy)
        self.rng = rng if rng is not None else random.Random()
        self.name = name

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """The action of the id the policy chooses."""
        chosen = self.policy(encode(observation), mask(legal_actions))
        return id_to_action(chosen, observation.seat)


class PolicyFactory:
    """Makes a :class:`PolicyPlayer` of one policy from a seeded :class:`random.Random`: what
    :func:`kowah.simulation.simulate` takes for a seat (its :attr:`name` names the seat)."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = _check_policy(policy)
        self.name = name

    def __call__(self, rng: random.Random) -> PolicyPlayer:
        return PolicyPlayer(self.policy, rng, self.name)


def policy_player(policy: Policy, name: str = "policy") -> PolicyFactory:
    """A seat for :func:`~kowah.simulation.simulate` that plays *policy* (see the module)."""
    return PolicyFactory(policy, name)
