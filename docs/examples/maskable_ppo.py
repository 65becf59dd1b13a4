"""Train a Kowah agent with sb3-contrib's MaskablePPO on the CPU, and measure it.

    pip install 'kowah[rl]'
    pip install torch --index-url https://download.pytorch.org/whl/cpu   # the CPU build first
    pip install sb3-contrib
    python docs/examples/maskable_ppo.py                     # about 15 minutes of CPU time
    python docs/examples/maskable_ppo.py --steps 4096 --deals 30    # a quick look

The learner holds a seat of ``gymnasium.make("kowah/Kowah-v0")`` (:func:`kowah.env.single`)
against two ``easy`` or two ``normal`` players, with the one-hot observation
(``encoding="one-hot"``) that a generic network learns from, and beside it a few *hints*
that the hand functions give from that observation alone (:func:`hints`: each card's unseen
copies, what each discard leaves of the hand, whether the latest discard helps).
``MaskablePPO`` reads the legal ids from the environment's ``action_masks()``, so no wrapper
is needed for the mask. The
reward is +1 for a win and −½ for a loss (``reward="win"``), plus a potential-based shaping
term (Ng, Harada and Russell, 1999) for each step that brings the learner's hand closer to
ready (:func:`kowah.hands.distance`), which leaves the best policy unchanged but gives the
learner something to learn from long before its first win.

At the end it plays the greedy policy against two ``easy`` and two ``normal`` players on the
deals of :func:`kowah.simulation.simulate` with seed 1, as the documentation measures the
built-in levels, prints its share of wins with a 95% interval and writes the learning curve
(the share of training deals won) as CSV.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

import kowah.env  # registers "kowah/Kowah-v0"
from kowah.cards import KOWAH_DECK, Card
from kowah.env import N_ACTIONS, ONE_HOT_PLANES, ONE_HOT_SIZE
from kowah.env.onehot import RECENT, one_hot
from kowah.hands import distance
from kowah.simulation import SimulationResult, simulate

KINDS = 33
CARDS = tuple(Card(kind) for kind in range(KINDS))
COPIES = np.array(KOWAH_DECK.counts, dtype=np.float32)
HINT_PLANES = 3  # per card: unseen copies, what a discard keeps, whether that is the most
HINTS_SIZE = HINT_PLANES * KINDS + 2  # and the hand's distance, whether the latest discard helps
# The rank of each card kind: suit cards 1c 1s 1m 2c ... share a rank three by three; each
# honour is a rank of its own (R4).
RANK = torch.tensor([k // 3 if k < 27 else 9 + (k - 27) for k in range(KINDS)])
SAME_RANK = (RANK.reshape(-1, 1) == RANK.reshape(1, -1)).float()  # 33 x 33
CARD_INPUTS = 4 + 3 + 3 + 3 + 1 + 3 * RECENT + 2 + 2 + HINT_PLANES + KINDS  # per card, see CardNet.encode
GLOBAL_INPUTS = 1 + 3 + 3 + 3 + 3 + 1 + 1 + 3 + 2


def hints(x: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
    """What the hand functions say of the learner's hand, from the one-hot vector *x* alone (so
    that :func:`kowah.env.policy_player` can give it too): for each card, its unseen copies ÷ 4
    (not in the hand, the discards or what the others' hands are known to hold) and, when the
    learner must discard, how many cards a ready hand would keep of the eight left by
    discarding it (8 − :func:`kowah.hands.distance`, ÷ 8) and 1 if no legal discard keeps more; then
    the hand's distance ÷ 8 and, when it may take the latest discard, 1 if that card brings
    the hand closer to ready. Worked out only when the learner has a choice to make."""
    planes = np.zeros((HINT_PLANES, KINDS), dtype=np.float32)
    table = np.zeros(2, dtype=np.float32)
    counts = np.rint(x[ONE_HOT_PLANES["hand"]].reshape(4, KINDS).sum(axis=0)).astype(int)
    known = x[ONE_HOT_PLANES["known"]].reshape(3, KINDS)[1:].sum(axis=0) * 4  # the others' hands
    discards = x[ONE_HOT_PLANES["discards"]].reshape(3, KINDS).sum(axis=0) * 4
    planes[0] = np.maximum(COPIES - counts - known - discards, 0) / 4
    if action_mask.sum() > 1 and not action_mask[2]:  # a choice, and not to declare or pass
        hand = [CARDS[kind] for kind in np.flatnonzero(counts) for _ in range(counts[kind])]
        if len(hand) == 9:  # to discard
            kept = {}
            for card in dict.fromkeys(card for card in hand if action_mask[3 + card]):
                index = hand.index(card)
                kept[card] = 8 - distance(hand[:index] + hand[index + 1:])
            most = max(kept.values())
            table[0] = (8 - most) / 8
            for card, held in kept.items():
                planes[1, card] = held / 8
                planes[2, card] = held == most
        elif len(hand) == 8:  # to draw or take
            now = distance(hand)
            table[0] = now / 8
            latest = CARDS[int(np.argmax(x[ONE_HOT_PLANES["latest"]]))]
            table[1] = action_mask[1] and distance([*hand, latest]) < now
    return np.concatenate([planes.ravel(), table])


class Hints(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """Adds :func:`hints` to the observation, as ``"hints"``."""

    def __init__(self, env: gymnasium.Env) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        spaces = dict(env.observation_space.spaces)  # type: ignore[attr-defined]
        spaces["hints"] = gymnasium.spaces.Box(0.0, 1.0, (HINTS_SIZE,), np.float32)
        self.observation_space = gymnasium.spaces.Dict(spaces)

    def observation(self, observation: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {**observation, "hints": hints(observation["observation"], observation["action_mask"])}


class Observation(BaseFeaturesExtractor):
    """The observation's arrays side by side: the one-hot vector, the hints, the action mask."""

    def __init__(self, observation_space: gymnasium.spaces.Dict) -> None:
        super().__init__(observation_space, features_dim=ONE_HOT_SIZE + HINTS_SIZE + N_ACTIONS)

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        return torch.cat([observations["observation"], observations["hints"],
                          observations["action_mask"].float()], dim=1)


class CardNet(nn.Module):
    """Scores every card with the same small network (as a card's discard and its declaration),
    from what is known of that card, with the table's state beside it; scores draw, take and
    pass, and values the state, from a summary of all the cards."""

    def __init__(self, width: int = 64) -> None:
        super().__init__()
        self.latent_dim_pi, self.latent_dim_vf = N_ACTIONS, width
        self.card = nn.Sequential(nn.Linear(CARD_INPUTS + GLOBAL_INPUTS, width), nn.ReLU(),
                                  nn.Linear(width, width), nn.ReLU())
        self.trunk = nn.Sequential(nn.Linear(2 * width + GLOBAL_INPUTS, width), nn.ReLU())
        self.card_head = nn.Linear(2 * width, 2)  # discard the card, declare with it as the wait
        self.other_head = nn.Linear(width, 3)  # draw, take, pass

    def encode(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Each card's embedding (batch x 33 x width) and the state's (batch x width)."""
        x, action_mask = features[:, :ONE_HOT_SIZE], features[:, ONE_HOT_SIZE + HINTS_SIZE:]
        given = features[:, ONE_HOT_SIZE:ONE_HOT_SIZE + HINTS_SIZE]
        batch = x.shape[0]
        hinted = given[:, :HINT_PLANES * KINDS].reshape(batch, HINT_PLANES, KINDS).transpose(1, 2)

        def plane(name: str, rows: int) -> torch.Tensor:  # batch x 33 x rows
            return x[:, ONE_HOT_PLANES[name]].reshape(batch, rows, KINDS).transpose(1, 2)

        hand = plane("hand", 4)
        counts = hand.sum(dim=2, keepdim=True) / 4
        mates = counts.squeeze(2) @ SAME_RANK  # copies held of the card's rank, the card's own too
        recent = x[:, ONE_HOT_PLANES["recent"]].reshape(batch, 3 * RECENT, KINDS).transpose(1, 2)
        legal = torch.stack([action_mask[:, 3:3 + KINDS], action_mask[:, 3 + KINDS:]], dim=2)
        cards = torch.cat([
            hand, plane("known", 3), plane("discards", 3), plane("declared", 3), plane("latest", 1),
            recent, counts, mates.unsqueeze(2), legal, hinted,
            torch.eye(KINDS).expand(batch, KINDS, KINDS)], dim=2)
        table = torch.cat([x[:, ONE_HOT_PLANES[name]] for name in
                           ("stock", "turn", "phase", "first", "hand_sizes", "takes", "declare")]
                          + [action_mask[:, :3], given[:, HINT_PLANES * KINDS:]], dim=1)
        each = self.card(torch.cat([cards, table.unsqueeze(1).expand(batch, KINDS, GLOBAL_INPUTS)], dim=2))
        state = self.trunk(torch.cat([each.mean(dim=1), each.amax(dim=1), table], dim=1))
        return each, state

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        each, state = self.encode(features)
        scores = self.card_head(torch.cat([each, state.unsqueeze(1).expand_as(each)], dim=2))
        logits = torch.cat([self.other_head(state), scores[:, :, 0], scores[:, :, 1]], dim=1)
        return logits, state

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return self.forward(features)[0]

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.encode(features)[1]


class CardPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO's policy with :class:`CardNet`, whose scores are the 69 logits."""

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = CardNet()

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()  # CardNet's scores are the logits already
        for head in (self.mlp_extractor.card_head, self.mlp_extractor.other_head):
            nn.init.orthogonal_(head.weight, gain=0.01)
            nn.init.zeros_(head.bias)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


class HandProgress(gymnasium.Wrapper):  # type: ignore[type-arg]
    """Potential-based reward shaping: the potential is −*scale* × the distance of the
    learner's eight cards to a ready hand, 0 once the deal is over; each step adds
    ``gamma × potential(after) − potential(before)`` to the reward."""

    def __init__(self, env: gymnasium.Env, scale: float, gamma: float) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        self.scale, self.gamma, self.potential = scale, gamma, 0.0

    def _potential(self) -> float:
        single = self.env.unwrapped
        hand = single.deal.hand(single.seat)
        if len(hand) != 8:  # between drawing and discarding: keep the last eight cards'
            return self.potential
        return -self.scale * distance(hand, single.rules.pack)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self.potential = self._potential()
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        after = 0.0 if terminated or truncated else self._potential()
        shaped = float(reward) + self.gamma * after - self.potential
        self.potential = after
        return observation, shaped, terminated, truncated, info


class Curve(BaseCallback):
    """Records each training deal's result (``info["winner"]``), saves the model every 100,000
    steps if given a *checkpoint* path, and stops at a CPU budget."""

    def __init__(self, seats: list[int], levels: list[str], cpu_budget: float, path: Path | None,
                 checkpoint: Path | None = None) -> None:
        super().__init__()
        self.seats, self.levels, self.cpu_budget, self.path = seats, levels, cpu_budget, path
        self.checkpoint = checkpoint
        self.deals: list[tuple[int, str, bool]] = []  # (timestep, level, won)
        self.start = time.process_time()
        self.next_report = 0

    def _on_step(self) -> bool:
        infos = self.locals["infos"]
        for index, (done, info) in enumerate(zip(self.locals["dones"], infos, strict=True)):
            if done and "winner" in info:
                won = info["winner"] == self.seats[index]
                self.deals.append((self.num_timesteps, self.levels[index], won))
        if self.num_timesteps >= self.next_report:
            self.next_report += 50_000
            self.report()
            if self.checkpoint is not None and self.num_timesteps % 100_000 < 50_000:
                self.model.save(self.checkpoint)
        return time.process_time() - self.start < self.cpu_budget

    def share(self, level: str, last: int = 500) -> float:
        wins = [won for _, played, won in self.deals if played == level][-last:]
        return float(np.mean(wins)) if wins else 0.0

    def report(self) -> None:
        print(f"{self.num_timesteps:>9,} steps {len(self.deals):>7,} deals "
              f"{time.process_time() - self.start:6.0f} s CPU; won of the last 500: "
              + ", ".join(f"{level} {self.share(level):.1%}" for level in dict.fromkeys(self.levels)),
              flush=True)
        if self.path is not None:
            with self.path.open("w", newline="") as file:
                writer = csv.writer(file)
                writer.writerow(["timestep", "opponents", "won"])
                writer.writerows((step, level, int(won)) for step, level, won in self.deals)


def make_env(level: str, seat: int, shaping: float, gamma: float) -> gymnasium.Env:  # type: ignore[type-arg]
    environment = Hints(gymnasium.make("kowah/Kowah-v0", opponents=level, seat=seat, reward="win",
                                       encoding="one-hot"))
    return HandProgress(environment, shaping, gamma) if shaping else environment


def greedy(model: MaskablePPO) -> Any:
    """The trained policy as :func:`kowah.env.policy_player` takes it: the compact vector and
    the mask in, the most likely legal id out."""
    network = model.policy
    network.set_training_mode(False)

    def policy(vector: np.ndarray, action_mask: np.ndarray) -> int:
        # The policy's network itself, one observation at a time: model.predict gives the same
        # action, with several times the overhead per call.
        x = one_hot(vector)
        observation = {"observation": torch.from_numpy(x).unsqueeze(0),
                       "hints": torch.from_numpy(hints(x, action_mask)).unsqueeze(0),
                       "action_mask": torch.from_numpy(action_mask.astype(np.float32)).unsqueeze(0)}
        with torch.no_grad():
            latent = network.mlp_extractor.forward_actor(network.extract_features(observation))
            logits = network.action_net(latent)[0].numpy()
        return int(np.flatnonzero(action_mask)[np.argmax(logits[action_mask == 1])])
    return policy


def train(steps: int, seed: int = 1, envs: int = 8, shaping: float = 0.2, cpu_minutes: float = 14.0,
          curve_path: Path | None = None, network: str = "cards",
          checkpoint: Path | None = None) -> tuple[MaskablePPO, Curve]:
    """Train for *steps* learner steps (or *cpu_minutes* of CPU time) on *envs* environments,
    half against two ``easy`` players and half against two ``normal``, at every seat."""
    torch.set_num_threads(1)
    gamma = 0.99
    levels = ["easy" if index % 2 == 0 else "normal" for index in range(envs)]
    seats = [index % 3 for index in range(envs)]
    vector_env = DummyVecEnv([
        (lambda level=level, seat=seat: make_env(level, seat, shaping, gamma))
        for level, seat in zip(levels, seats, strict=True)])
    vector_env.seed(seed)
    if network == "cards":
        policy: Any = CardPolicy
        policy_kwargs: dict[str, Any] = {"features_extractor_class": Observation}
    else:  # SB3's default network, two layers of 256
        policy, policy_kwargs = "MultiInputPolicy", {"net_arch": [256, 256], "activation_fn": nn.ReLU}
    budget, start = cpu_minutes * 60, time.process_time()

    def learning_rate(_: float) -> float:  # from 3e-4 down to 3e-5 as the CPU budget is spent
        return 3e-4 * max(0.1, 1 - (time.process_time() - start) / budget)

    model = MaskablePPO(
        policy, vector_env, n_steps=256, batch_size=512, n_epochs=4, learning_rate=learning_rate,
        gamma=gamma, gae_lambda=0.95, ent_coef=0.01, seed=seed, device="cpu", policy_kwargs=policy_kwargs)
    curve = Curve(seats, levels, cpu_minutes * 60, curve_path, checkpoint)
    model.learn(steps, callback=curve)
    return model, curve


def measure(model: MaskablePPO, deals: int) -> dict[str, SimulationResult]:
    """The greedy policy at seat 0 against two ``easy`` and two ``normal`` players, on the deals
    that ``simulate`` deals from seed 1 (as the documentation measures the built-in levels)."""
    player = kowah.env.policy_player(greedy(model), name="maskable-ppo")
    return {level: simulate(deals, [player, level, level], seed=1) for level in ("easy", "normal")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=2_000_000, help="learner steps to train on")
    parser.add_argument("--cpu-minutes", type=float, default=14.0,
                        help="stop training after this much CPU time (default 14)")
    parser.add_argument("--deals", type=int, default=2000, help="deals to measure against each level")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shaping", type=float, default=0.2, help="the shaping scale (0: none)")
    parser.add_argument("--network", choices=("cards", "mlp"), default="cards",
                        help="the card-wise network (default) or SB3's default MLP")
    parser.add_argument("--curve", type=Path, default=None, help="write the learning curve here (CSV)")
    parser.add_argument("--save", type=Path, default=None,
                        help="save the model here (every 100,000 steps, and at the end)")
    parser.add_argument("--load", type=Path, default=None, help="measure this saved model; no training")
    args = parser.parse_args()
    torch.set_num_threads(1)  # small batches: more threads cost more than they give
    if args.load is not None:
        model = MaskablePPO.load(args.load, device="cpu")
    else:
        start = time.process_time()
        model, curve = train(args.steps, args.seed, args.envs, args.shaping, args.cpu_minutes, args.curve,
                             args.network, args.save)
        cpu = time.process_time() - start
        curve.report()
        print(f"trained on {model.num_timesteps:,} steps ({len(curve.deals):,} deals) "
              f"in {cpu:.0f} s of CPU time", flush=True)
        if args.save is not None:
            model.save(args.save)
    for level, result in measure(model, args.deals).items():
        low, high = result.win_rate_interval(0)
        print(f"against two {level}: won {result.wins[0]:,} of {result.deals:,} deals = "
              f"{result.wins[0] / result.deals:.1%} (95% {low:.1%}–{high:.1%}); par is 33.3%", flush=True)


if __name__ == "__main__":
    main()
