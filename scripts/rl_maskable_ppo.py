#!/usr/bin/env python3
"""docs/rl.md's example: sb3-contrib's MaskablePPO learns Magic Lamp (2 players) against the
``random`` agent (``--opponents`` for another), for a fixed number of timesteps, and is
measured against baselines from the same run. A manual run, not CI (torch is large):

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install -e '.[rl-example]'
    python3 scripts/rl_maskable_ppo.py --timesteps 196608 --eval-every 32768 \
        --curve-games 30 --out docs/rl --image docs/images/rl-maskable-ppo-learning-curve.png

Every policy plays the same games (the same seeds, seat 0) against ``random``,
``heuristic`` and the heuristic with a fast hand (``FAST_HEURISTIC``): a uniformly random
masked policy, the untrained model (as built, no ``learn``) playing its argmax, and the
trained model played deterministically (argmax of the masked logits) and stochastically
(sampled). Beating ``random`` is easy: it picks every legal action with equal odds, so in
the lamp race it almost always rubs (a mistaken rub angers the Genie) and it wastes every
other choice too; any consistent policy beats it most of the time, the untrained model's
argmax included. Beating ``heuristic`` is easy for a learner in the race alone: the bot rubs
at human speed, the learner may rub at the env's 300 ms floor every time. The baselines and
the fast-handed opponent are in the table so that this shows, and the learning curve
(evaluation win rates every ``--eval-every`` timesteps on fixed seeds) shows what training
adds.

Writes ``<out>/maskable_ppo.json`` (settings, every win rate with its Wilson 95% interval,
the curve, the timings) and the learning-curve PNG; prints the table as Markdown.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from arabesque.rl.gym import SingleAgentEnv

GAME = "magic-lamp"
PLAYERS = 2
#: The heuristic bot with a fast hand: it rubs at 300 ms every time (no spread), the env's
#: fastest allowed rub (``race_floor_ms``), rather than around a human's 600 ms. A learner
#: may rub at 300 ms every time, so against the plain ``heuristic`` much of what it can
#: gain is the race; against this one a tied rub is a coin toss, and it must gain elsewhere.
FAST_HEURISTIC = "heuristic:median_ms=300+sigma=0"
#: Evaluation games start from these seeds, one block per opponent, the same for every
#: policy (so their win rates compare game for game).
EVAL_SEEDS = {"random": 10_000, "heuristic": 20_000, FAST_HEURISTIC: 50_000}
#: The curve's games start elsewhere, so the final figures are not the curve's own games.
CURVE_SEEDS = {"random": 30_000, "heuristic": 40_000, FAST_HEURISTIC: 60_000}

#: A policy: (observation vector, boolean mask) -> action.
Policy = Callable[[Any, Any], int]


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


def make_env(opponents: str, reward: str = "returns") -> ObservationOnly:
    return ObservationOnly(
        SingleAgentEnv(GAME, opponents=opponents, players=PLAYERS, reward=reward)
    )


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


def evaluate(policy: Policy, opponents: str, games: int, first_seed: int) -> dict[str, Any]:
    """``games`` games from seat 0 against ``opponents``, game ``g`` seeded ``first_seed +
    g``; a win is first place (a shared first place counts)."""
    env = make_env(opponents)
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=first_seed + g)
        done = False
        reward = 0.0
        while not done:
            action = policy(obs, env.action_masks())
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


def uniform_policy(seed: int) -> Policy:
    """Each legal action with equal odds (what the ``random`` agent does)."""
    rng = random.Random(seed)

    def act(_obs: Any, mask: Any) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return act


def model_policy(model: Any, deterministic: bool) -> Policy:
    def act(obs: Any, mask: Any) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=deterministic)
        return int(action)

    return act


def markdown_table(rows: dict[str, dict[str, dict[str, Any]]]) -> str:
    """One row per policy, one column per opponent: wins / games, rate, Wilson 95%."""
    opponents = list(next(iter(rows.values())))
    lines = [
        "| policy | " + " | ".join(f"vs `{o}`" for o in opponents) + " |",
        "|---|" + "---:|" * len(opponents),
    ]
    for name, results in rows.items():
        cells = []
        for o in opponents:
            r = results[o]
            low, high = r["wilson_95"]
            cells.append(
                f"{r['wins']}/{r['games']} **{r['win_rate']:.3f}** [{low:.3f}, {high:.3f}]"
            )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: Short names for the curve's legend.
LABELS = {"random": "random", "heuristic": "heuristic", FAST_HEURISTIC: "fast heuristic"}


def draw_curve(
    curve: list[dict[str, Any]], uniform: dict[str, Any], trained_against: str, path: Path
) -> None:
    """Evaluation win rates against timesteps, with the uniform random policy's rates (the
    same games' seeds in the final table) as dotted lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    steps = [c["timesteps"] for c in curve]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    colours = {"random": "tab:blue", "heuristic": "tab:red", FAST_HEURISTIC: "tab:green"}
    for opponents, colour in colours.items():
        if opponents not in curve[0]["deterministic"]:
            continue  # a run from before this opponent was evaluated
        name = LABELS[opponents]
        for mode, line in (("deterministic", "-"), ("stochastic", "--")):
            rates = [c[mode][opponents]["win_rate"] for c in curve]
            ax.plot(steps, rates, line, color=colour, marker="o", ms=3)
            ax.lines[-1].set_label(f"vs {name}, {mode}")
        ax.axhline(uniform[opponents]["win_rate"], color=colour, linestyle=":", linewidth=1)
        ax.lines[-1].set_label(f"uniform random policy vs {name}")
    games = curve[0]["deterministic"]["random"]["games"]
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x / 1000:.0f}k"))
    ax.set_xticks(steps)
    ax.set_xlabel("training timesteps (the learner's decisions)")
    ax.set_ylabel(f"win rate, {games} games per point on fixed seeds")
    ax.set_ylim(-0.02, 1.02)
    against = LABELS.get(trained_against, trained_against)
    ax.set_title(f"MaskablePPO, Magic Lamp 2 players, trained against {against}")
    ax.grid(alpha=0.3)
    fig.legend(loc="lower center", ncol=3, fontsize=8)
    fig.tight_layout(rect=(0, 0.16, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000, help="training timesteps")
    parser.add_argument("--eval-every", type=int, default=20_000, help="curve point spacing")
    parser.add_argument("--curve-games", type=int, default=100, help="games per curve point")
    parser.add_argument("--games", type=int, default=400, help="final games per opponent")
    parser.add_argument("--envs", type=int, default=8, help="training envs (one process)")
    parser.add_argument("--opponents", default="random", help="the training opponents' agent spec")
    parser.add_argument(
        "--reward", default="returns", choices=["returns", "score_diff"], help="training reward"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("docs/rl"))
    parser.add_argument("--save", type=Path, default=None, help="save the trained model here")
    parser.add_argument(
        "--image", type=Path, default=Path("docs/images/rl-maskable-ppo-learning-curve.png")
    )
    args = parser.parse_args()
    if args.timesteps % args.eval_every:
        parser.error("--timesteps must be a multiple of --eval-every")

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed
    from stable_baselines3.common.vec_env import DummyVecEnv

    # One thread: the network is small, and torch's thread pool on a shared 2-core machine
    # spends more time waiting for a core than computing (13x slower with 2 threads here).
    torch.set_num_threads(1)
    started = time.monotonic()
    set_random_seed(args.seed)
    vec = DummyVecEnv(
        [lambda: make_env(args.opponents, reward=args.reward) for _ in range(args.envs)]
    )
    vec.seed(args.seed)
    # n_steps per env so that a rollout is 2,048 steps, MaskablePPO's default; the rest
    # of the hyperparameters are its defaults.
    model = MaskablePPO(
        "MlpPolicy", vec, seed=args.seed, verbose=0, n_steps=max(1, 2048 // args.envs)
    )

    def both(policy_of: Callable[[bool], Policy], games: int, seeds: dict[str, int]) -> Any:
        return {
            mode: {o: evaluate(policy_of(det), o, games, seeds[o]) for o in seeds}
            for mode, det in (("deterministic", True), ("stochastic", False))
        }

    def evaluate_all(policy: Policy, games: int) -> dict[str, Any]:
        return {o: evaluate(policy, o, games, EVAL_SEEDS[o]) for o in EVAL_SEEDS}

    table: dict[str, dict[str, Any]] = {}
    t0 = time.monotonic()
    table["uniform random masked policy"] = evaluate_all(uniform_policy(args.seed), args.games)
    # The untrained model played stochastically is the uniform policy in all but name (its
    # logits start near equal); it is on the curve, at 0 timesteps.
    untrained = evaluate_all(model_policy(model, deterministic=True), args.games)
    table["untrained model, deterministic"] = untrained
    baseline_s = time.monotonic() - t0

    def curve_point() -> dict[str, Any]:
        point = both(lambda det: model_policy(model, det), args.curve_games, CURVE_SEEDS)
        return {"timesteps": int(model.num_timesteps), **point}

    curve: list[dict[str, Any]] = [curve_point()]
    train_s = 0.0
    curve_s = 0.0
    while model.num_timesteps < args.timesteps:
        t0 = time.monotonic()
        model.learn(total_timesteps=args.eval_every, reset_num_timesteps=False)
        train_s += time.monotonic() - t0
        t0 = time.monotonic()
        point = curve_point()
        curve.append(point)
        curve_s += time.monotonic() - t0
        print(
            f"{model.num_timesteps:>8} steps, {train_s:.0f} s training: "
            + ", ".join(
                f"{mode[:3]} vs {o} {point[mode][o]['win_rate']:.2f}"
                for mode in ("deterministic", "stochastic")
                for o in CURVE_SEEDS
            ),
            flush=True,
        )

    t0 = time.monotonic()
    trained = both(lambda det: model_policy(model, det), args.games, EVAL_SEEDS)
    table["trained model, deterministic"] = trained["deterministic"]
    table["trained model, stochastic"] = trained["stochastic"]
    final_s = time.monotonic() - t0

    results = {
        "game": GAME,
        "players": PLAYERS,
        "training_opponents": args.opponents,
        "training_reward": args.reward,
        "timesteps": int(model.num_timesteps),
        "envs": args.envs,
        "seed": args.seed,
        "hyperparameters": {
            "n_steps_per_env": model.n_steps,
            "batch_size": model.batch_size,
            "n_epochs": model.n_epochs,
            "learning_rate": model.learning_rate,
            "gamma": model.gamma,
            "net_arch": "MlpPolicy default (64, 64)",
        },
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "seconds": {
            "training": train_s,
            "baselines": baseline_s,
            "curve": curve_s,
            "final_evaluation": final_s,
            "total": time.monotonic() - started,
        },
        "training_steps_per_s": model.num_timesteps / train_s,
        "evaluation_seeds": EVAL_SEEDS,
        "table": table,
        "curve": curve,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "maskable_ppo.json").write_text(json.dumps(results, indent=2) + "\n")
    if args.save is not None:
        model.save(args.save)
    draw_curve(curve, table["uniform random masked policy"], args.opponents, args.image)
    print(markdown_table(table))
    print(json.dumps(results["seconds"], indent=2))


if __name__ == "__main__":
    main()
