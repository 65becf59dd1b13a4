"""The single-agent view: a Gymnasium environment in which the two other seats are AI players.

:func:`single` makes it: the learner holds one seat, the built-in levels
(:data:`kowah.players.PLAYERS`) or players of your own hold the other two and play whenever
the rules give them the turn. Observations, actions and rewards are those of
:mod:`kowah.env.aec`; an episode is one deal.

>>> environment = single(opponents="easy", seat=1)
>>> observation, info = environment.reset(seed=3)
>>> sorted(observation), int(observation["action_mask"].sum()) >= 1
(['action_mask', 'observation'], True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import gymnasium
import numpy as np
from gymnasium.envs.registration import EnvSpec

from kowah.actions import SEATS
from kowah.cards import Pack
from kowah.deal import Deal
from kowah.engine import Rules
from kowah.env.aec import observation_space
from kowah.env.encoding import Encoder, mask
from kowah.env.ids import DRAW, N_ACTIONS, id_to_action
from kowah.env.onehot import one_hot
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
from kowah.errors import N_, KowahError, KowahTypeError, shorten
from kowah.events import EventKind
from kowah.players import PLAYERS, Player, UnknownPlayerError, make_player

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["ENTRY_POINT", "ENV_ID", "Opponent", "SingleSeatEnv", "register", "single"]

#: An opponent: a built-in level's name, or a function that makes a player from a seeded
#: :class:`random.Random` (as :func:`kowah.simulation.simulate` takes).
Opponent = str | Callable[[random.Random], Player]
#: The Gymnasium id of the single-agent environment and where Gymnasium finds it.
ENV_ID: Final = "kowah/Kowah-v0"
ENTRY_POINT: Final = "kowah.env.single:SingleSeatEnv"
_Observation = dict[str, "NDArray[Any]"]
_DISCARD = EventKind.DISCARD
#: The action mask of a finished deal: no action is legal, but a policy that must still act
#: on it (a vector environment's next-step autoreset ignores that action) finds one id marked.
_OVER_MASK: Final = np.zeros(N_ACTIONS, dtype=np.int8)
_OVER_MASK[DRAW] = 1


def _opponents(opponents: Opponent | Sequence[Opponent]) -> tuple[Opponent, Opponent]:
    if isinstance(opponents, str) or callable(opponents):
        chosen: Sequence[Opponent] = (opponents, opponents)
    elif isinstance(opponents, Sequence) and len(opponents) == 2:
        chosen = opponents
    else:
        raise KowahTypeError(N_("error", "opponents must be one player or two, not {value}"),
                             value=shorten(opponents))
    for opponent in chosen:
        if isinstance(opponent, str):
            if opponent.strip().lower() not in PLAYERS:
                raise UnknownPlayerError.naming(opponent)
        elif not callable(opponent):
            raise KowahTypeError(N_("error", "opponents must be one player or two, not {value}"),
                                 value=shorten(opponents))
    return chosen[0], chosen[1]


def _seat(seat: int) -> int:
    if type(seat) is not int or not 0 <= seat < SEATS:
        error = KowahError if type(seat) is int else KowahTypeError
        raise error(N_("error", "there is no seat {seat}"), seat=shorten(seat))
    return seat


class SingleSeatEnv(gymnasium.Env[_Observation, np.int64]):
    """One deal of Kowah for one learner against two AI players (see :func:`single`).

    :meth:`action_masks` gives the legal ids as sb3-contrib's ``MaskablePPO`` asks for them.
    Once the deal is over no id is legal, yet the mask of the last observation (and
    :meth:`action_masks`) marks id 0: a vector environment that resets on the next step
    (Gymnasium's default) asks the policy for an action on that observation and ignores it,
    and a masked sampler must never be handed a mask with nothing to choose. The last step's
    ``info`` tells the outcome (:func:`~kowah.env.options.outcome_info`).

    >>> environment = single("easy", reward="win")
    >>> observation, info = environment.reset(seed=1)
    >>> terminated = truncated = False
    >>> while not (terminated or truncated):
    ...     action = int(environment.action_masks().nonzero()[0][0])
    ...     observation, reward, terminated, truncated, info = environment.step(action)
    >>> sorted(info), [int(i) for i in environment.action_masks().nonzero()[0]]
    (['kind', 'multiplier', 'winner'], [0])
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(self, opponents: Opponent | Sequence[Opponent] = "hard", seat: int = 0, *,
                 rules: Rules | None = None, pack: str | Pack | None = None,
                 reward: str = "multiplier", max_cycles: int | None = None,
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 lang: str = "en", encoding: str = "compact") -> None:
        self.opponents = _opponents(opponents)
        self.seat = _seat(seat)
        self.rules = choose_rules(rules, pack)
        self.reward = check_reward(reward)
        self.max_cycles = check_max_cycles(max_cycles)
        self.render_mode = check_render_mode(render_mode)
        self.encoding = check_encoding(encoding)
        self.illegal_reward = float(illegal_reward)
        self.lang = lang
        self.observation_space: gymnasium.spaces.Dict = observation_space(self.encoding)  # type: ignore[assignment]
        self.action_space: gymnasium.spaces.Discrete = gymnasium.spaces.Discrete(N_ACTIONS)
        self._deal: Deal | None = None
        self._encoder: Encoder | None = None
        self._players: list[Player | None] = [None] * SEATS
        self._turns = 0
        self._done = True
        self._mask = _OVER_MASK

    @property
    def deal(self) -> Deal:
        """The deal being played (after :meth:`reset`)."""
        if self._deal is None:
            raise KowahError(N_("error", "call reset() first: there is no deal yet"))
        return self._deal

    def _observation(self) -> _Observation:
        encoder = self._encoder
        assert encoder is not None
        deal = self.deal
        self._mask = _OVER_MASK.copy() if deal.is_over else mask(deal.legal_actions(self.seat))
        vector = encoder.vector(self.seat)
        return {"observation": one_hot(vector) if self.encoding == "one-hot" else vector,
                "action_mask": self._mask.copy()}

    def action_masks(self) -> NDArray[np.bool_]:
        """The ids the learner may choose now, as booleans (sb3-contrib's ``MaskablePPO``
        calls it): the last observation's ``action_mask``."""
        return self._mask.astype(bool)

    def _play_others(self, limited: bool = True) -> None:
        """Let the AI players act until the learner may act or the deal ends (or, if
        *limited*, until :attr:`max_cycles` turns have been played)."""
        deal, encoder, players = self.deal, self._encoder, self._players
        assert encoder is not None
        while not deal.is_over:
            seat = deal.actor
            if seat == self.seat:
                return
            player = players[seat]
            assert player is not None
            observation = deal.observation(seat)
            events = deal.apply(player.choose(observation, observation.legal_actions))
            encoder.update(deal, events)
            self._count(events)
            if limited and self._truncated():
                return

    def _count(self, events: Sequence[Any]) -> None:
        self._turns += sum(1 for event in events if event.kind is _DISCARD)

    def _truncated(self) -> bool:
        return self.max_cycles is not None and self._turns >= self.max_cycles and not self.deal.is_over

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[_Observation, dict[str, Any]]:
        """Deal a new deal (from *seed*, if given) and let the AI players act until the
        learner's first action. A deal that ends before it (a claim of an opening draw) is
        dealt again: it has nothing to learn."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2 ** 62)))
        while True:
            deal = Deal.shuffled(rng, self.rules)
            self._deal, self._encoder, self._turns = deal, Encoder(deal), 0
            self._players = [None if seat == self.seat else self._make(seat, rng) for seat in range(SEATS)]
            self._play_others(limited=False)  # the learner always has a first action
            if not deal.is_over:
                break
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def _make(self, seat: int, rng: random.Random) -> Player:
        opponent = self.opponents[(seat - self.seat) % SEATS - 1]
        seeded = random.Random(rng.getrandbits(64))
        return make_player(opponent, seeded) if isinstance(opponent, str) else opponent(seeded)

    def step(self, action: np.int64 | int) -> tuple[_Observation, float, bool, bool, dict[str, Any]]:
        """Play the action of id *action*, then the AI players until the learner's next
        action or the end. An illegal action ends the episode with :attr:`illegal_reward`
        (``info["illegal"]`` is then true); the deal stays as it was."""
        if self._done:
            raise KowahError(N_("error", "the episode is over: call reset() for a new deal"))
        deal, encoder = self.deal, self._encoder
        assert encoder is not None
        chosen = id_to_action(action, self.seat)
        if not deal.is_legal(chosen):
            self._done = True
            return self._observation(), self.illegal_reward, True, False, {"illegal": True}
        events = deal.apply(chosen)
        encoder.update(deal, events)
        self._count(events)
        if not self._truncated():
            self._play_others()
        terminated, truncated = deal.is_over, self._truncated()
        self._done = terminated or truncated
        reward = rewards_of(deal.outcome, self.reward)[self.seat] if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, outcome_info(deal.outcome)

    def render(self) -> str | None:
        """The table as the terminal game shows it to the learner's seat, in :attr:`lang`."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_table(self.deal.observation(self.seat), self.lang)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def single(opponents: Opponent | Sequence[Opponent] = "hard", seat: int = 0, **options: Any) -> SingleSeatEnv:
    """A Gymnasium environment: the learner at *seat* (0–2) against *opponents*: one for both
    other seats, or two (the first plays the seat after the learner's, the second the seat
    before it), each a name of :data:`kowah.players.PLAYERS` or a function that makes a player
    from a seeded :class:`random.Random`.

    *options* are those of :class:`~kowah.env.aec.KowahEnv` (*rules*, *pack*, *reward*,
    *max_cycles*, *encoding*, *render_mode*, *lang*), and *illegal_reward* (−1 by default). The
    environment carries a Gymnasium spec (``kowah/Kowah-v0``), so ``env.spec.make()`` makes
    another like it.
    """
    environment = SingleSeatEnv(opponents, seat, **options)
    kwargs = {"opponents": opponents, "seat": seat, **options}
    kwargs.pop("render_mode", None)
    environment.spec = EnvSpec(
        ENV_ID, entry_point=ENTRY_POINT, kwargs=kwargs, nondeterministic=False)
    return environment



def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (once; :mod:`kowah.env` calls it on import), so
    that ``gymnasium.make("kowah/Kowah-v0", opponents="easy")`` and ``gymnasium.make_vec``
    make :class:`SingleSeatEnv`. It is also the package's ``gymnasium.envs`` entry point.

    >>> import gymnasium
    >>> register()
    >>> gymnasium.make("kowah/Kowah-v0", opponents="easy").unwrapped.opponents
    ('easy', 'easy')
    """
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point=ENTRY_POINT, nondeterministic=False)
