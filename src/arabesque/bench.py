"""Engine throughput: uniformly random playouts for a fixed time on one process, then the
rates of what a server, a bot and a learner ask of a position.

Every action goes through the real, checked ``GameState.apply`` (turn, legality and range
checks included), so the figure is what a simulation or a bot search actually gets. The
other rates are measured on mid-game states (the middle step of seeded random playouts),
each for every seat in turn: a view without its log, a view delta (the log events of the last
step, what a client fetches after each move), the observation tensor, a search copy and a
determinization.
"""

from __future__ import annotations

import dataclasses
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from arabesque import __version__
from arabesque.core.game import GameSpec, GameState
from arabesque.core.registry import get_game

#: What the figures count; quoted in the JSON because other engines count differently.
STEP_DEFINITION = (
    "one step = one applied player action (one GameState.apply call); a simultaneous phase "
    "counts one step per acting seat, and setup and automatic resolutions are not steps"
)

#: How many steps run between two looks at the clock (reading it costs as much as a step
#: of a simple game, so looking every step would distort the figure).
_CLOCK_EVERY = 64

#: How many seeded playouts give the mid-game states the per-position rates are taken on.
_MID_GAMES = 16

#: What each per-position rate times, for one seat of one mid-game state.
RATES: dict[str, str] = {
    "view_per_s": "state.view(seat, include_log=False)",
    "view_delta_per_s": "state.log_since(seat, index): the log events of the last step",
    "observation_per_s": "state.observation(seat): the float32 observation tensor",
    "search_copy_per_s": "state.search_copy(): no history, no log, no RNG state copy",
    "determinize_per_s": "state.determinize(seat, rng)",
}


def mid_game_states(
    spec: GameSpec, params: Any, seed: int, count: int = _MID_GAMES
) -> list[tuple[GameState, int]]:
    """(state, event index before its last step) at the middle step of ``count`` seeded
    random playouts."""
    out = []
    for g in range(count):
        rng = random.Random(seed * 1_000_003 + g)
        state = spec.new_game(params, seed=seed + g)
        marks: list[int] = []
        while not state.is_over:
            marks.append(len(state.events))
            player = rng.choice(sorted(state.to_act()))
            state.apply(player, rng.choice(state.legal_actions(player)))
        middle = len(marks) // 2
        replay = spec.new_game(params, seed=seed + g)
        for player, action in state.history[:middle]:
            replay.apply(player, action)
        out.append((replay, marks[middle - 1] if middle else 0))
    return out


def _rate(
    states: list[tuple[GameState, int]], op: Callable[[GameState, int, int], object], seconds: float
) -> float:
    """Calls of ``op(state, seat, log index)`` per second over every seat of every state,
    for about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for state, index in states:
            for seat in range(state.num_players):
                op(state, seat, index)
            calls += state.num_players
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


#: The share of ``bench``'s time given to the playouts when the per-position rates follow;
#: the rest goes to the mid-game states and the rates (each an equal part of it).
PLAYOUT_SHARE = 0.5

#: The least time one per-position rate is timed for, however short the run asked for.
_MIN_RATE_SECONDS = 0.05


def position_rates(spec: GameSpec, params: Any, seed: int, seconds: float) -> dict[str, float]:
    """The per-position rates of ``RATES``, all of them (the mid-game states they are taken
    on included) in about ``seconds``: each rate is timed for an equal part of what is left
    once the states are made."""
    start = time.perf_counter()
    states = mid_game_states(spec, params, seed)
    left = seconds - (time.perf_counter() - start)
    each = max(_MIN_RATE_SECONDS, left / len(RATES))
    rng = random.Random(seed)
    ops: dict[str, Callable[[GameState, int, int], object]] = {
        "view_per_s": lambda s, seat, i: s.view(seat, include_log=False),
        "view_delta_per_s": lambda s, seat, i: s.log_since(seat, i),
        "observation_per_s": lambda s, seat, i: s.observation(seat),
        "search_copy_per_s": lambda s, seat, i: s.search_copy(),
        "determinize_per_s": lambda s, seat, i: s.determinize(seat, rng),
    }
    return {name: _rate(states, op, each) for name, op in ops.items()}


#: What ``--search`` measures (agents/ismcts.py), on the acting seat of each mid-game state.
SEARCH_RATES: dict[str, str] = {
    "search_iterations_per_s": (
        "IS-MCTS iterations (determinize, tree, random rollout cut at the default horizon, "
        "evaluation) per second on one core"
    ),
    "full_rollout_iterations_per_s": "the same with random rollouts played to the game's end",
}


def search_rates(spec: GameSpec, params: Any, seed: int, seconds: float) -> dict[str, Any]:
    """IS-MCTS iterations per second on the mid-game states, at the default horizon and with
    full rollouts, each for about ``seconds``: each state's acting seat searches in slices of
    a few iterations until the time is up."""
    from arabesque.agents.base import Observation
    from arabesque.agents.ismcts import Budget, SearchConfig, search

    observations = []
    for state, _ in mid_game_states(spec, params, seed):
        if state.is_over:
            continue
        seat = min(state.to_act())
        observations.append(Observation(state, seat))
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    for name, config, chunk in (
        ("search_iterations_per_s", SearchConfig(), 20),
        ("full_rollout_iterations_per_s", SearchConfig(rollout="full"), 2),
    ):
        iterations = 0
        applies = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for obs in observations:
                result = search(obs, Budget(iters=chunk), rng, config)
                iterations += result.iterations
                applies += result.applies
        elapsed = time.perf_counter() - start
        out[name] = iterations / elapsed
        out[name.replace("iterations_per_s", "applies_per_iteration")] = applies / iterations
    out["search_horizon"] = SearchConfig().horizon
    return out


def played_positions(
    spec: GameSpec, params: Any, seed: int, games: int = 2, per_game: int = 10
) -> list[tuple[GameState, int]]:
    """(state, seat) at ``per_game`` decisions with a choice spread evenly over each of
    ``games`` games of ``heuristic`` bots: positions like those a level meets in play
    (random playouts reach positions no player would, with far more options)."""
    from arabesque.agents.base import Observation
    from arabesque.agents.registry import make_agent

    out = []
    for g in range(games):
        game_seed = seed + g
        agents = [
            make_agent("heuristic", spec.id, seed=game_seed * 10 + p)
            for p in range(params.num_players)
        ]
        state = spec.new_game(params, seed=game_seed)
        choices: list[int] = []  # history lengths where the first acting seat had a choice
        while not state.is_over:
            seat = min(state.to_act())
            if len(state.legal_actions(seat)) > 1:
                choices.append(len(state.history))
            # Every acting seat decides before any move is applied (a simultaneous phase).
            moves = [(a, agents[a].act(Observation(state, a))) for a in sorted(state.to_act())]
            for acting, action in moves:
                state.apply(acting, action)
        picked = sorted({choices[i * len(choices) // per_game] for i in range(per_game)})
        for length in picked:
            replay = spec.new_game(params, seed=game_seed)
            for player, action in state.history[:length]:
                replay.apply(player, action)
            out.append((replay, min(replay.to_act())))
    return out


#: The agents ``--decisions`` times by default: the search levels and the heuristic they start from.
DECISION_AGENTS = ("heuristic", "easy", "medium", "hard")


def decision_times(
    spec: GameSpec, params: Any, seed: int, agents: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Each agent's wall-clock time per decision, median and 95th percentile in ms, over
    the positions of ``played_positions`` (a fresh agent per position, seeded from its index,
    so the figures are of the same decisions for every agent)."""
    from arabesque.agents.base import Observation
    from arabesque.agents.registry import make_agent

    positions = played_positions(spec, params, seed)
    out: dict[str, dict[str, float]] = {}
    for name in agents:
        times = []
        for i, (state, seat) in enumerate(positions):
            agent = make_agent(name, spec.id, seed=seed + i)
            obs = Observation(state, seat)
            start = time.perf_counter()
            agent.act(obs)
            times.append(1000.0 * (time.perf_counter() - start))
        times.sort()
        out[name] = {
            "median_ms": statistics.median(times) if times else float("nan"),
            "p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))] if times else float("nan"),
            "decisions": float(len(times)),
        }
    return out


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
    rates: bool = True,
    rl: bool = False,
    search: bool = False,
    decisions: Sequence[str] = (),
    **options: Any,
) -> dict[str, Any]:
    """A benchmark of about ``seconds`` in all: random playouts, then (with ``rates``) the
    per-position rates. The playouts take the whole time, or ``PLAYOUT_SHARE`` of it when
    the rates follow; the rates share the rest (``position_rates``) and each is also given
    as a ratio to steps_per_s. games_per_s counts finished games only, while steps_per_s
    counts every step taken, including those of the game cut off at the end; ``seconds``
    in the result is the playouts' time, ``total_seconds`` the whole run's. Asked for, two
    measures follow, and take time of their own: with ``rl``, the research environments'
    rates under ``"rl"`` (arabesque.rl.bench; needs the rl extra), as ratios to steps_per_s
    and to observation_per_s; with ``search``, the IS-MCTS rates (``SEARCH_RATES``), each
    timed for about ``seconds`` and also given as a ratio to steps_per_s. ``decisions``
    (agent specs) adds each one's time per decision (``decision_times``), also in steps:
    how many random-playout steps its median decision costs."""
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
    deadline = start + (seconds * PLAYOUT_SHARE if rates else seconds)
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
    steps_per_s = steps / elapsed
    extra: dict[str, Any] = {}
    if rates:
        measured = position_rates(spec, params, seed, start + seconds - time.perf_counter())
        extra = {
            **measured,
            "ratios_to_steps": {k: v / steps_per_s for k, v in measured.items()},
            "rates": dict(RATES),
        }
    if rl:
        from arabesque.rl.bench import rl_rates

        extra["rl"] = rl_rates(
            game_id,
            players,
            seed,
            min(4.0, max(0.5, seconds / 4)),
            steps_per_s,
            extra.get("observation_per_s"),
            **options,
        )
    if search:
        found = search_rates(spec, params, seed, seconds)
        extra = {
            **extra,
            **found,
            "search_ratios_to_steps": {k: found[k] / steps_per_s for k in SEARCH_RATES},
            "search_rates": dict(SEARCH_RATES),
        }
    if decisions:
        timed = decision_times(spec, params, seed, decisions)
        for figures in timed.values():
            figures["median_in_steps"] = figures["median_ms"] / 1000.0 * steps_per_s
        extra["decision_times"] = timed
    return {
        "game": game_id,
        "players": players,
        "params": params.to_json(),
        "seed": seed,
        "seconds": elapsed,
        "total_seconds": time.perf_counter() - start,
        "games": finished,
        "steps": steps,
        "games_per_s": finished / elapsed,
        "steps_per_s": steps_per_s,
        "mean_game_length": finished_steps / finished if finished else None,
        "step": STEP_DEFINITION,
        "agent": "uniform random: a random acting seat, then a random legal action",
        "engine_version": __version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        **extra,
    }
