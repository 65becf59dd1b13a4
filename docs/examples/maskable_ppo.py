"""Train a Kowah agent with sb3-contrib's MaskablePPO on the CPU, and measure it.

    pip install 'kowah[rl]'
    pip install torch --index-url https://download.pytorch.org/whl/cpu   # the CPU build first
    pip install sb3-contrib
    python docs/examples/maskable_ppo.py                     # about 15 minutes of CPU time
    python docs/examples/maskable_ppo.py --steps 4096 --deals 30    # a quick look

The learner holds a seat of ``gymnasium.make("kowah/Kowah-v0")`` (:func:`kowah.env.single`)
against two ``easy`` or two ``normal`` players, with the one-hot observation
(``encoding="one-hot"``) that a generic network learns from. ``MaskablePPO`` reads the legal
ids from the environment's ``action_masks()``, so no wrapper is needed for the mask. The
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
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import kowah.env  # registers "kowah/Kowah-v0"
from kowah.env.onehot import one_hot
from kowah.hands import distance
from kowah.simulation import simulate


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
    """Records each training deal's result (``info["winner"]``) and stops at a CPU budget."""

    def __init__(self, seats: list[int], levels: list[str], cpu_budget: float, path: Path | None) -> None:
        super().__init__()
        self.seats, self.levels, self.cpu_budget, self.path = seats, levels, cpu_budget, path
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
    environment = gymnasium.make("kowah/Kowah-v0", opponents=level, seat=seat, reward="win",
                                 encoding="one-hot")
    return HandProgress(environment, shaping, gamma) if shaping else environment


def greedy(model: MaskablePPO) -> Any:
    """The trained policy as :func:`kowah.env.policy_player` takes it: the compact vector and
    the mask in, the most likely legal id out."""
    def policy(vector: np.ndarray, action_mask: np.ndarray) -> int:
        observation = {"observation": one_hot(vector), "action_mask": action_mask}
        action, _ = model.predict(observation, action_masks=action_mask.astype(bool), deterministic=True)
        return int(action)
    return policy


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
    parser.add_argument("--curve", type=Path, default=None, help="write the learning curve here (CSV)")
    parser.add_argument("--save", type=Path, default=None, help="save the trained model here")
    args = parser.parse_args()
    torch.set_num_threads(1)
    gamma = 0.99
    levels = ["easy" if index % 2 == 0 else "normal" for index in range(args.envs)]
    seats = [index % 3 for index in range(args.envs)]
    vector_env = DummyVecEnv([
        (lambda level=level, seat=seat: make_env(level, seat, args.shaping, gamma))
        for level, seat in zip(levels, seats, strict=True)])
    vector_env.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy", vector_env, n_steps=256, batch_size=512, n_epochs=4, learning_rate=3e-4,
        gamma=gamma, gae_lambda=0.95, ent_coef=0.01, seed=args.seed, device="cpu",
        policy_kwargs={"net_arch": [256, 256], "activation_fn": torch.nn.ReLU})
    curve = Curve(seats, levels, args.cpu_minutes * 60, args.curve)
    start = time.process_time()
    model.learn(args.steps, callback=curve)
    cpu = time.process_time() - start
    curve.report()
    print(f"trained on {model.num_timesteps:,} steps ({len(curve.deals):,} deals) "
          f"in {cpu:.0f} s of CPU time", flush=True)
    if args.save is not None:
        model.save(args.save)
    for level in ("easy", "normal"):
        result = simulate(args.deals, [kowah.env.policy_player(greedy(model), name="maskable-ppo"),
                                       level, level], seed=1)
        low, high = result.win_rate_interval(0)
        print(f"against two {level}: won {result.wins[0]:,} of {result.deals:,} deals = "
              f"{result.wins[0] / result.deals:.1%} (95% {low:.1%}–{high:.1%}); par is 33.3%", flush=True)


if __name__ == "__main__":
    main()
