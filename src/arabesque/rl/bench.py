"""Throughput of the research environments (``arabesque bench GAME --rl``).

Each figure is a rate in the same run as the engine's ``steps_per_s`` and is reported as a
ratio to it (and to the observation rate), so machines compare by ratio:

- ``aec_steps_per_s``: PettingZoo AEC steps of live agents (``env()``, its wrappers
  included), each choosing uniformly among its masked actions; every step reads the acting
  seat's observation and mask, as a learner does. ``aec_raw_steps_per_s``: the same without
  PettingZoo's wrappers (``raw_env``).
- ``parallel_steps_per_s``: Parallel ``step`` calls (one per node, every acting seat at once).
- ``single_agent_steps_per_s``: Gymnasium ``SingleAgentEnv`` steps of the learner against
  ``heuristic`` opponents (their decisions read a view each), and against ``random`` ones.
- ``vector_speedup``: ``AsyncVectorEnv`` over two single-agent envs (random opponents) on two
  processes, its env steps per second as a ratio to one env's in this process.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

#: Look at the clock every this many steps.
_CLOCK_EVERY = 32


def _pick(rng: random.Random, mask: Any) -> int:
    """A uniformly random action among those ``mask`` allows (the benchmark's agent; it
    draws with Python's ``random``, as the engine's playouts do, since NumPy's
    ``Generator.integers`` costs a few microseconds a call)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def _timed(run: Callable[[float], int], seconds: float) -> float:
    start = time.perf_counter()
    count = run(start + seconds)
    return count / (time.perf_counter() - start)


def aec_rate(
    game: str, players: int, seed: int, seconds: float, raw: bool = False, **options: Any
) -> float:
    from arabesque.rl.pettingzoo import env, raw_env

    aec = (raw_env if raw else env)(game, players=players, **options)
    rng = random.Random(seed)

    def run(deadline: float) -> int:
        steps = 0
        episode = seed
        while True:
            aec.reset(seed=episode)
            episode += 1
            for _agent in aec.agent_iter():
                obs, _, terminated, truncated, _ = aec.last()
                if terminated or truncated:
                    aec.step(None)
                    continue
                aec.step(_pick(rng, obs["action_mask"]))
                steps += 1
                if steps % _CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
                    return steps

    return _timed(run, seconds)


def parallel_rate(game: str, players: int, seed: int, seconds: float, **options: Any) -> float:
    from arabesque.rl.pettingzoo import parallel_env

    par = parallel_env(game, players=players, **options)
    rng = random.Random(seed)

    def run(deadline: float) -> int:
        steps = 0
        episode = seed
        while True:
            obs, _ = par.reset(seed=episode)
            episode += 1
            while par.agents:
                actions = {}
                for agent in par.agents:
                    mask = obs[agent]["action_mask"]
                    actions[agent] = _pick(rng, mask) if mask.any() else 0
                obs = par.step(actions)[0]
                steps += 1
                if steps % _CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
                    return steps

    return _timed(run, seconds)


def single_agent_rate(
    game: str, players: int, seed: int, seconds: float, opponents: str, **options: Any
) -> float:
    from arabesque.rl.gym import SingleAgentEnv

    env = SingleAgentEnv(game, opponents=opponents, players=players, **options)
    rng = random.Random(seed)

    def run(deadline: float) -> int:
        steps = 0
        episode = seed
        while True:
            env.reset(seed=episode)
            episode += 1
            done = False
            while not done:
                action = _pick(rng, env.action_masks())
                _, _, terminated, truncated, _ = env.step(action)
                done = terminated or truncated
                steps += 1
                if steps % _CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
                    return steps

    return _timed(run, seconds)


def vector_speedup(game: str, players: int, seed: int, seconds: float) -> dict[str, float]:
    """Env steps per second of ``AsyncVectorEnv`` with two envs on two processes, and of one
    env in this process (random opponents), and their ratio."""
    import gymnasium

    from arabesque.rl.gym import ENV_ID

    def make() -> Any:
        return gymnasium.make(ENV_ID, game=game, players=players, opponents="random")

    one = single_agent_rate(game, players, seed, seconds, "random")
    vec = gymnasium.vector.AsyncVectorEnv([make, make])
    try:
        obs, _ = vec.reset(seed=seed)
        rng = random.Random(seed)
        vec_steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(_CLOCK_EVERY // 4):
                masks = obs["action_mask"]
                # A finished env's mask is all zero; its next action is ignored (autoreset).
                actions = np.array([_pick(rng, m) if m.any() else 0 for m in masks])
                obs = vec.step(actions)[0]
                vec_steps += 2
        two = vec_steps / (time.perf_counter() - start)
    finally:
        vec.close()
    return {"one_env_steps_per_s": one, "two_process_steps_per_s": two, "ratio": two / one}


def rl_rates(
    game: str,
    players: int,
    seed: int,
    seconds: float,
    steps_per_s: float,
    observation_per_s: float | None,
    vector: bool = True,
    **options: Any,
) -> dict[str, Any]:
    """Every rate above, each timed for about ``seconds``, with its ratios."""
    rates: dict[str, float] = {
        "aec_steps_per_s": aec_rate(game, players, seed, seconds, **options),
        "aec_raw_steps_per_s": aec_rate(game, players, seed, seconds, raw=True, **options),
        "parallel_steps_per_s": parallel_rate(game, players, seed, seconds, **options),
    }
    if players > 1:
        for opponents in ("heuristic", "random"):
            rates[f"single_agent_steps_per_s_{opponents}"] = single_agent_rate(
                game, players, seed, seconds, opponents, **options
            )
    out: dict[str, Any] = {
        **rates,
        "ratios_to_steps": {k: v / steps_per_s for k, v in rates.items()},
    }
    if observation_per_s:
        out["ratios_to_observations"] = {k: v / observation_per_s for k, v in rates.items()}
    if vector and players > 1:
        out["vector"] = vector_speedup(game, players, seed, seconds)
    return out
