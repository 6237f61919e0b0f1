"""Engine throughput: uniformly random playouts for a fixed time on one process.

Every action goes through the real, checked ``GameState.apply`` (turn, legality and range
checks included), so the figure is what a simulation or a bot search actually gets.
"""

from __future__ import annotations

import dataclasses
import platform
import random
import time
from typing import Any

from arabesque import __version__
from arabesque.core.game import GameSpec
from arabesque.core.registry import get_game

#: What the figures count; quoted in the JSON because other engines count differently.
STEP_DEFINITION = (
    "one step = one applied player action (one GameState.apply call); a simultaneous phase "
    "counts one step per acting seat, and setup and automatic resolutions are not steps"
)

#: How many steps run between two looks at the clock (reading it costs as much as a step
#: of a simple game, so looking every step would distort the figure).
_CLOCK_EVERY = 64


def default_players(spec: GameSpec) -> int:
    """The player count a game's params default to, else its minimum."""
    for f in dataclasses.fields(spec.params_type):
        if f.name == "num_players" and isinstance(f.default, int):
            return f.default
    return spec.min_players


def bench(
    game_id: str,
    seconds: float,
    num_players: int | None = None,
    seed: int = 0,
    **options: Any,
) -> dict[str, Any]:
    """Random playouts for about ``seconds``; games_per_s counts finished games only, while
    steps_per_s counts every step taken, including those of the game cut off at the end."""
    if not seconds > 0:
        raise ValueError(f"--seconds must be positive, got {seconds}")
    spec = get_game(game_id)
    players = default_players(spec) if num_players is None else num_players
    params = spec.make_params(num_players=players, **options)
    rng = random.Random(seed)
    steps = 0
    finished = 0
    finished_steps = 0
    game_seed = seed
    start = time.perf_counter()
    deadline = start + seconds
    out_of_time = False
    while not out_of_time:
        state = spec.new_game(params, seed=game_seed)
        game_seed += 1
        game_steps = 0
        while not state.is_over:
            player = rng.choice(sorted(state.to_act()))
            state.apply(player, rng.choice(state.legal_actions(player)))
            game_steps += 1
            if game_steps % _CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
                out_of_time = True
                break
        steps += game_steps
        if state.is_over:
            finished += 1
            finished_steps += game_steps
            out_of_time = out_of_time or time.perf_counter() >= deadline
    elapsed = time.perf_counter() - start
    return {
        "game": game_id,
        "players": players,
        "params": params.to_json(),
        "seed": seed,
        "seconds": elapsed,
        "games": finished,
        "steps": steps,
        "games_per_s": finished / elapsed,
        "steps_per_s": steps / elapsed,
        "mean_game_length": finished_steps / finished if finished else None,
        "step": STEP_DEFINITION,
        "agent": "uniform random: a random acting seat, then a random legal action",
        "engine_version": __version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }
