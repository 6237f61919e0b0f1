#!/usr/bin/env python3
"""docs/rl.md's example: sb3-contrib's MaskablePPO learns Magic Lamp (2 players) against the
``random`` agent, then plays 400 evaluation games against ``random`` and 400 against
``heuristic``. A manual run, not CI (torch is large):

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -e '.[rl-example]'
    python3 scripts/rl_maskable_ppo.py --minutes 15 --out docs/rl
    # the heuristic bots are slow: fewer games against them with --heuristic-games N

Writes ``<out>/maskable_ppo.json`` (the settings, the win rates with their Wilson 95%
intervals, the throughput) and ``<out>/learning_curve.png`` (the mean episode reward of the
training games, 100-game rolling mean).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from arabesque.rl.gym import SingleAgentEnv


class ObservationOnly(gymnasium.ObservationWrapper[Any, int, Any]):
    """The float32 vector alone (MlpPolicy); the mask reaches MaskablePPO through
    ``action_masks()``."""

    def __init__(self, env: SingleAgentEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> Any:
        return observation["observation"]

    def action_masks(self) -> Any:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = p + z * z / (2 * games)
    margin = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    # Clamped: floating-point rounding can put a bound a hair outside [0, 1].
    return (max(0.0, (centre - margin) / scale), min(1.0, (centre + margin) / scale))


def evaluate(model: Any, opponents: str, games: int, seed: int) -> dict[str, Any]:
    """``games`` games from seat 0 against ``opponents``; a win is first place (a shared
    first place counts)."""
    env = ObservationOnly(SingleAgentEnv("magic-lamp", opponents=opponents, players=2))
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, step_reward, terminated, truncated, _ = env.step(int(action))
            reward = float(step_reward)
            done = terminated or truncated
        wins += reward == 1.0
    low, high = wilson(wins, games)
    return {
        "opponents": opponents,
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "wilson_95": [low, high],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="training time budget")
    parser.add_argument("--games", type=int, default=400, help="evaluation games per opponent")
    parser.add_argument(
        "--heuristic-games",
        type=int,
        default=None,
        help="evaluation games against heuristic (default: --games); its bots are slow",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("docs/rl"))
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor

    torch.set_num_threads(2)
    env = Monitor(ObservationOnly(SingleAgentEnv("magic-lamp", opponents="random", players=2)))
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048)
    deadline: float = time.monotonic() + args.minutes * 60

    class Budget(BaseCallback):
        def _on_step(self) -> bool:
            return time.monotonic() < deadline

    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=Budget())
    trained_s = time.monotonic() - start
    rewards = np.array(env.get_episode_rewards(), dtype=float)
    heuristic_games = args.games if args.heuristic_games is None else args.heuristic_games

    results = {
        "game": "magic-lamp",
        "players": 2,
        "training_opponents": "random",
        "training_seconds": trained_s,
        "training_steps": int(model.num_timesteps),
        "training_episodes": len(rewards),
        "steps_per_s": model.num_timesteps / trained_s,
        "torch_threads": torch.get_num_threads(),
        "evaluation": [
            evaluate(model, "random", args.games, 10_000),
            evaluate(model, "heuristic", heuristic_games, 20_000),
        ],
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "maskable_ppo.json").write_text(json.dumps(results, indent=2) + "\n")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # A short budget may finish fewer than 100 training games: shrink the window to keep a curve.
    window = min(100, max(1, len(rewards) // 5))
    if len(rewards) > 0:
        rolling = np.convolve(rewards, np.ones(window) / window, mode="valid")
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot(np.arange(window, len(rewards) + 1), rolling)
        ax.set_xlabel("training game")
        ax.set_ylabel(f"mean reward, last {window} games (1 win, -1 loss)")
        ax.set_title("MaskablePPO, Magic Lamp 2 players, against random")
        ax.axhline(0, color="grey", linewidth=0.5)
        fig.tight_layout()
        fig.savefig(args.out / "learning_curve.png", dpi=100)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
