"""Train a small Kowah agent with plain numpy: a linear softmax policy and REINFORCE.

    .venv/bin/python docs/examples/reinforce.py             # ~3 minutes on two cores
    .venv/bin/python docs/examples/reinforce.py --episodes 2000 --deals 300   # a quick look

The agent holds seat 0 of :func:`kowah.env.single` against two ``easy`` players. Its policy is
linear in a few features of each legal action, read from the observation's planes (how many
copies of the card the hand holds, how many cards of its rank, how many copies are already
in sight, whether another seat waits for it, ...): the probability of an action is the
softmax of ``theta · features(action)`` over the legal actions. REINFORCE follows the
gradient of the expected reward of each deal (+1 for a win, −½ for a loss, 0 for a drawn
deal: ``reward="win"``), with the mean reward so far as a baseline.

At the end it plays the greedy policy (the most likely action) against ``easy`` and
``normal`` with :func:`kowah.env.policy_player` and :func:`kowah.simulation.simulate`, prints
its share of wins with a 95% interval, and draws the learning curve
(``docs/_static/rl-learning-curve.svg``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from kowah.env import N_ACTIONS, PLANES, policy_player, single
from kowah.simulation import simulate

KINDS = 33
HONOURS = np.arange(KINDS) >= 27
# The rank of each card kind: suit cards 1c 1s 1m 2c ... share a rank three by three; each
# honour is a rank of its own (R4: a triple is three suit cards of one rank, or three honours
# of one kind).
RANK = np.array([k // 3 if k < 27 else 9 + (k - 27) for k in range(KINDS)])
DISCARD, DECLARE = 3, 36
FEATURES = 16  # the length of theta


def features(vector: np.ndarray) -> np.ndarray:
    """The features of every action id (a 69 x FEATURES array) in the state *vector*."""
    hand = vector[PLANES["hand"]].astype(np.float64)
    discards = vector[PLANES["discards"]].reshape(3, KINDS).sum(axis=0)
    known = vector[PLANES["known"]].reshape(3, KINDS)
    seen = (discards + known[1] + known[2]) / 4.0  # copies in sight outside the hand
    declared = vector[PLANES["declared"]].reshape(3, KINDS)[1:].sum(axis=0) > 0
    same_rank = np.bincount(RANK, weights=hand, minlength=15)[RANK]
    latest = vector[PLANES["latest"]].nonzero()[0]
    phi = np.zeros((N_ACTIONS, FEATURES))
    # Discarding card k: its copies held, cards of its rank held, copies in sight, danger.
    rows = phi[DISCARD:DISCARD + KINDS]
    rows[:, 0] = hand == 1
    rows[:, 1] = hand == 2
    rows[:, 2] = hand >= 3
    rows[:, 3] = same_rank == 1
    rows[:, 4] = same_rank == 2
    rows[:, 5] = same_rank >= 3
    rows[:, 6] = seen
    rows[:, 7] = declared  # another seat waits for it: a discard claim (R14)
    rows[:, 8] = HONOURS
    phi[0, 9] = 1.0  # draw
    if latest.size:  # take the latest discard: how well it fits the hand
        card = latest[0]
        phi[1, 10] = 1.0
        phi[1, 11] = hand[card]
        phi[1, 12] = same_rank[card]
    phi[2, 13] = 1.0  # pass
    phi[DECLARE:, 14] = 1.0  # declare, with a wait whose copies are in sight or not
    phi[DECLARE:, 15] = seen
    return phi


def probabilities(theta: np.ndarray, phi: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The policy's probabilities of the *legal* ids."""
    logits = phi[legal] @ theta
    logits -= logits.max()
    weights = np.exp(logits)
    return weights / weights.sum()


def train(episodes: int, seed: int, rate: float) -> tuple[np.ndarray, list[float]]:
    """Train theta for *episodes* deals; return it and the reward of each deal."""
    rng = np.random.default_rng(seed)
    environment = single("easy", seat=0, reward="win")
    theta = np.zeros(FEATURES)
    baseline, rewards = 0.0, []
    for episode in range(episodes):
        observation, _ = environment.reset(seed=seed * 1_000_003 + episode)
        gradient = np.zeros(FEATURES)
        done, reward = False, 0.0
        while not done:
            phi = features(observation["observation"])
            legal = np.flatnonzero(observation["action_mask"])
            p = probabilities(theta, phi, legal)
            choice = rng.choice(len(legal), p=p)
            gradient += phi[legal[choice]] - p @ phi[legal]  # the score of the choice
            observation, reward, terminated, truncated, _ = environment.step(int(legal[choice]))
            done = terminated or truncated
        theta += rate * (reward - baseline) * gradient
        baseline += (reward - baseline) / (episode + 1)
        rewards.append(float(reward))
    return theta, rewards


def greedy(theta: np.ndarray) -> Callable[[np.ndarray, np.ndarray], int]:
    """The trained policy, playing its most likely action: a function for policy_player."""
    def policy(vector: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[np.argmax(features(vector)[legal] @ theta)])
    return policy


def curve_svg(rewards: list[float], window: int) -> str:
    """The learning curve as a small SVG: the share of deals won over the last *window* deals."""
    wins = np.array(rewards) > 0
    shares = np.convolve(wins, np.ones(window) / window, mode="valid")
    width, height, left, bottom = 640, 300, 56, 40
    top = max(0.4, float(shares.max()) * 1.1)
    xs = left + (np.arange(len(shares)) + window) / len(rewards) * (width - left - 16)
    ys = height - bottom - shares / top * (height - bottom - 16)
    step = max(1, len(xs) // 400)
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs[::step], ys[::step], strict=True))
    lines = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="Learning curve: share of deals won against two easy players">',
             '<rect width="100%" height="100%" fill="white"/>',
             '<g font-family="sans-serif" font-size="12" fill="#333">']
    for share in np.arange(0, top + 1e-9, 0.1):
        y = height - bottom - share / top * (height - bottom - 16)
        lines.append(f'<line x1="{left}" x2="{width - 16}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        lines.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{share:.0%}</text>')
    for fraction in (0, 0.25, 0.5, 0.75, 1):
        x = left + fraction * (width - left - 16)
        lines.append(f'<text x="{x:.1f}" y="{height - bottom + 18}" text-anchor="middle">'
                     f'{int(fraction * len(rewards)):,}</text>')
    lines += [f'<text x="{(width + left) / 2}" y="{height - 6}" text-anchor="middle">deals played</text>',
              f'<text x="14" y="{(height - bottom) / 2}" text-anchor="middle" '
              f'transform="rotate(-90 14 {(height - bottom) / 2})">deals won (last {window})</text>',
              '</g>',
              f'<polyline fill="none" stroke="#1f5fa8" stroke-width="2" points="{points}"/>',
              '</svg>']
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=6000, help="deals to train on (default 6,000)")
    parser.add_argument("--deals", type=int, default=1500, help="deals to measure against each level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.05, help="the learning rate")
    parser.add_argument("--figure", type=Path, default=Path("rl-learning-curve.svg"),
                        help="where to draw the curve (default: rl-learning-curve.svg, here)")
    args = parser.parse_args()
    start = time.perf_counter()
    theta, rewards = train(args.episodes, args.seed, args.rate)
    print(f"trained on {args.episodes:,} deals; "
          f"won {np.mean(np.array(rewards[-500:]) > 0):.1%} of the last 500")
    # The time depends on the machine, so it goes to stderr, apart from the figures the docs show.
    print(f"(training took {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    print("theta =", np.round(theta, 2).tolist())
    args.figure.write_text(curve_svg(rewards, window=min(500, args.episodes // 4)))
    for level in ("easy", "normal"):
        result = simulate(args.deals, [policy_player(greedy(theta), name="reinforce"), level, level],
                          seed=args.seed)
        low, high = result.win_rate_interval(0)
        print(f"against two {level}: won {result.wins[0]:,} of {result.deals:,} deals = "
              f"{result.wins[0] / result.deals:.1%} (95% {low:.1%}–{high:.1%}); par is 33.3%")


if __name__ == "__main__":
    main()
