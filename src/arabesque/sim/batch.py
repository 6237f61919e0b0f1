"""Many games between agents, on one or several processes, and their summary.

Game ``i`` of a batch uses the seed ``seed + i``, and each agent's seed is derived from the game
seed and its seat only, so a batch gives the same results whatever the number of workers and
whatever order the games finish in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arabesque.agents.registry import make_agent
from arabesque.core.game import Params
from arabesque.core.registry import get_game
from arabesque.core.scoring import winners
from arabesque.sim.runner import play_game
from arabesque.sim.stats import mean, stdev, wilson_interval

#: How shared victories are counted, stated in every summary so nobody has to guess.
WIN_COUNTING = "a shared victory (several players ranked 1) counts as a win for each of them"


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in the game seeded ``game_seed``.

    String seeding goes through SHA-512 in ``random``, so seeds of neighbouring games and
    seats are unrelated, and the value is the same in every process (unlike ``hash``).
    """
    return random.Random(f"arabesque-agent:{game_seed}:{seat}").getrandbits(63)


def record_path(directory: str | Path, seed: int) -> Path:
    return Path(directory) / f"game-{seed}.json"


@dataclass(frozen=True)
class GameResult:
    """What a batch keeps of one finished game."""

    seed: int
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    actions: int
    #: The final "turn" of the spectator view, for games whose view has one.
    turns: int | None


def expand_agents(specs: Sequence[str], num_players: int) -> list[str]:
    """One agent spec per seat; a single spec is used for every seat."""
    cleaned = [s.strip() for s in specs if s.strip()]
    if not cleaned:
        raise ValueError("no agent given; e.g. --agents random or --agents heuristic,random")
    if len(cleaned) == 1:
        return cleaned * num_players
    if len(cleaned) != num_players:
        raise ValueError(
            f"{len(cleaned)} agents given for {num_players} players: give one spec per seat, "
            "or a single spec for every seat"
        )
    return cleaned


def play_one(
    game_id: str,
    params_json: Mapping[str, Any],
    agent_specs: Sequence[str],
    seed: int,
    record_dir: str | None = None,
) -> GameResult:
    """Play one game; a top-level function so worker processes can receive it by name."""
    spec = get_game(game_id)
    params = spec.make_params(**params_json)
    agents = [
        make_agent(a, game_id, seed=agent_seed(seed, seat)) for seat, a in enumerate(agent_specs)
    ]
    state = play_game(spec, params, agents, seed, log_events=False)
    if record_dir is not None:
        record = state.record(agents=list(agent_specs), source="arabesque simulate")
        record.save(record_path(record_dir, seed))
    turn = state.view(None, include_log=False).get("turn")
    return GameResult(
        seed=seed,
        totals=tuple(s.total for s in state.scores()),
        ranking=tuple(state.ranking()),
        actions=len(state.history),
        turns=turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
    )


def _play_many(
    game_id: str,
    params_json: Mapping[str, Any],
    agent_specs: Sequence[str],
    seeds: Sequence[int],
    record_dir: str | None,
) -> list[GameResult]:
    return [play_one(game_id, params_json, agent_specs, s, record_dir) for s in seeds]


def run_games(
    game_id: str,
    params: Params,
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    record_dir: str | Path | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games (game ``i`` seeded ``seed + i``); results in seed order.

    Bad game ids, params or agent specs raise before any game starts, in this process, so a
    worker never dies on an error the caller could have been told about plainly.
    """
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"the number of workers must be at least 1, got {workers}")
    spec = get_game(game_id)
    spec.validate_params(params)
    specs = list(agent_specs)
    if len(specs) != params.num_players:
        raise ValueError(f"{params.num_players} players need {params.num_players} agent specs")
    for seat, a in enumerate(specs):
        make_agent(a, game_id, seed=agent_seed(seed, seat))
    directory: str | None = None
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
        directory = str(record_dir)
    params_json = params.to_json()
    seeds = [seed + i for i in range(games)]
    results: list[GameResult] = []
    if workers == 1 or games == 1:
        for s in seeds:
            result = play_one(game_id, params_json, specs, s, directory)
            results.append(result)
            if on_result is not None:
                on_result(result)
        return results
    # Chunks amortise the inter-process round trip (one game takes milliseconds) while staying
    # small enough for the progress bar to move and the load to balance.
    size = max(1, min(50, games // (workers * 8)))
    chunks = [seeds[i : i + size] for i in range(0, games, size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(_play_many, game_id, params_json, specs, chunk, directory)
            for chunk in chunks
        ]
        for future in futures:
            for result in future.result():
                results.append(result)
                if on_result is not None:
                    on_result(result)
    return results


def summarize(
    game_id: str,
    params: Params,
    agent_specs: Sequence[str],
    seed: int,
    results: Sequence[GameResult],
) -> dict[str, Any]:
    """The JSON summary of a batch (fields documented in docs/records.md, "simulate")."""
    n = params.num_players
    games = len(results)
    seats: list[dict[str, Any]] = []
    for seat in range(n):
        won = [r for r in results if r.ranking[seat] == 1]
        shared = sum(1 for r in won if len(winners(r.ranking)) > 1)
        scores = [float(r.totals[seat]) for r in results]
        low, high = wilson_interval(len(won), games)
        seats.append(
            {
                "seat": seat,
                "agent": agent_specs[seat],
                "wins": len(won),
                "shared_wins": shared,
                "win_rate": len(won) / games if games else None,
                "win_rate_ci95": [low, high],
                "mean_score": mean(scores),
                "std_score": stdev(scores),
                "mean_rank": mean([float(r.ranking[seat]) for r in results]),
            }
        )
    lengths = [float(r.actions) for r in results]
    turns = [float(r.turns) for r in results if r.turns is not None]
    has_turns = games > 0 and len(turns) == games
    return {
        "game": game_id,
        "params": params.to_json(),
        "agents": list(agent_specs),
        "games": games,
        "seed": seed,
        "seeds": [seed, seed + games - 1] if games else [],
        "win_counting": WIN_COUNTING,
        "shared_victories": sum(1 for r in results if len(winners(r.ranking)) > 1),
        "mean_actions": mean(lengths),
        "std_actions": stdev(lengths),
        "mean_turns": mean(turns) if has_turns else None,
        "std_turns": stdev(turns) if has_turns else None,
        "seats": seats,
    }
