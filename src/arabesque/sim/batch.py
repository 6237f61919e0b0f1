"""Many games between agents, on one or several processes, and their summary.

Game ``i`` of a batch uses the seed ``seed + i``, and each agent's seed is derived from the game
seed and its seat only, so a batch gives the same results whatever the number of workers and
whatever order the games finish in.

A batch stopped by Ctrl-C raises ``BatchInterrupted`` holding the games finished so far, always
the first ones in seed order: their statistics are exactly those of a batch of that many games.
Records are written under ``game-<seed>.json`` and never replace an earlier file unless asked.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

from arabesque.agents.registry import make_agent
from arabesque.core.game import Params
from arabesque.core.registry import get_game
from arabesque.core.scoring import winners
from arabesque.sim.runner import play_game
from arabesque.sim.stats import mean, median, stdev, wilson_interval

#: How shared victories are counted, stated in every summary so nobody has to guess.
WIN_COUNTING = (
    "a seat wins when the game's result (returns()) gives it the top outcome; a shared "
    "victory counts as a win for each winner, and a solo game is won only by beating the game"
)


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in the game seeded ``game_seed``.

    String seeding goes through SHA-512 in ``random``, so seeds of neighbouring games and
    seats are unrelated, and the value is the same in every process (unlike ``hash``).
    """
    return random.Random(f"arabesque-agent:{game_seed}:{seat}").getrandbits(63)


def record_path(directory: str | Path, seed: int) -> Path:
    return Path(directory) / f"game-{seed}.json"


class RecordsExistError(ValueError):
    """Recording a batch would replace record files an earlier run left in the folder."""

    def __init__(self, directory: str | Path, existing: Sequence[Path], planned: int) -> None:
        self.existing = list(existing)
        shown = ", ".join(p.name for p in self.existing[:3])
        more = f" and {len(self.existing) - 3} more" if len(self.existing) > 3 else ""
        super().__init__(
            f"{len(self.existing)} of the {planned} record files this run would write already "
            f"exist in {directory} ({shown}{more}), probably from an earlier run; nothing was "
            "played. Record into a new or empty folder, choose other seeds with --seed, or pass "
            "--overwrite to replace them (overwrite=True in Python)"
        )


def check_record_dir(directory: str | Path, seeds: range, overwrite: bool) -> None:
    """Create the folder; unless ``overwrite``, refuse (before any game is played) when a
    record file the batch would write is already there. The folder is listed once, so a
    batch of a million games costs no million file look-ups."""
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--record {directory}: this is a file, not a folder; name a folder")
    folder.mkdir(parents=True, exist_ok=True)
    if overwrite:
        return
    existing: list[tuple[int, Path]] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if not (name.startswith("game-") and name.endswith(".json")):
                continue
            try:
                s = int(name[len("game-") : -len(".json")])
            except ValueError:
                continue
            path = record_path(folder, s)
            if s in seeds and path.name == name:
                existing.append((s, path))
    if existing:
        raise RecordsExistError(directory, [p for _, p in sorted(existing)], len(seeds))


def _save_record(text: str, path: Path) -> None:
    """Write through a temporary file and rename it, so an interrupted run (Ctrl-C) never
    leaves a half-written record under the final name."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a batch. ``results`` are the games finished by then: the first ones in
    seed order (seeds ``seed`` .. ``seed + len(results) - 1``), so that their statistics are
    those of a batch of ``len(results)`` games. A game still being played is dropped, and
    with several workers so is a game finished after an unfinished one."""

    def __init__(self, results: Sequence[GameResult], requested: int) -> None:
        super().__init__(f"interrupted after {len(results)} of {requested} games")
        self.results = list(results)
        self.requested = requested


@dataclass(frozen=True)
class GameResult:
    """What a batch keeps of one finished game."""

    seed: int
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    actions: int
    #: The final "turn" of the spectator view, for games whose view has one.
    turns: int | None
    #: Per seat: whether it won. Taken from the game's own result (``returns()``: the top
    #: outcome, 1.0), not from the ranking, because a solo player always ranks first but wins
    #: only by beating the game. Empty in results made before this field (then rank 1 counts).
    won: tuple[bool, ...] = ()

    def winner_seats(self) -> list[int]:
        if self.won:
            return [p for p, w in enumerate(self.won) if w]
        return winners(self.ranking)


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
        _save_record(record.dumps() + "\n", record_path(record_dir, seed))
    turn = state.view(None, include_log=False).get("turn")
    return GameResult(
        seed=seed,
        totals=tuple(s.total for s in state.scores()),
        ranking=tuple(state.ranking()),
        actions=len(state.history),
        turns=turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
        won=tuple(r >= 1.0 for r in state.returns()),
    )


#: Set in worker processes: the main process sets it on Ctrl-C, and workers stop their chunk.
_STOP: EventType | None = None


def _init_worker(stop: EventType) -> None:
    """Workers ignore SIGINT: Ctrl-C reaches the whole process group, and the main process
    alone decides what happens (it sets ``stop``, so each worker ends its chunk after the game
    it is playing, and keeps the games it finished)."""
    global _STOP
    _STOP = stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_requested() -> bool:
    """In a worker process: whether the main process asked the batch to stop (Ctrl-C)."""
    return _STOP is not None and _STOP.is_set()


def _play_many(
    game_id: str,
    params_json: Mapping[str, Any],
    agent_specs: Sequence[str],
    seeds: Sequence[int],
    record_dir: str | None,
) -> list[GameResult]:
    """The games of one chunk in seed order; fewer (a prefix) if the batch was stopped."""
    results: list[GameResult] = []
    for s in seeds:
        if _STOP is not None and _STOP.is_set():
            break
        results.append(play_one(game_id, params_json, agent_specs, s, record_dir))
    return results


def _finished_prefix(
    futures: Sequence[Future[list[GameResult]]], chunks: Sequence[Sequence[int]]
) -> list[GameResult]:
    """The results of the first games in seed order, up to the first game not finished."""
    results: list[GameResult] = []
    for future, chunk in zip(futures, chunks, strict=False):
        if future.cancelled() or not future.done() or future.exception() is not None:
            break
        part = future.result()
        results.extend(part)
        if len(part) < len(chunk):
            break
    return results


def run_games(
    game_id: str,
    params: Params,
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    record_dir: str | Path | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    overwrite: bool = False,
) -> list[GameResult]:
    """Play ``games`` games (game ``i`` seeded ``seed + i``); results in seed order.

    Bad game ids, params or agent specs raise before any game starts, in this process, so a
    worker never dies on an error the caller could have been told about plainly; so do record
    files already in ``record_dir`` (``RecordsExistError``), unless ``overwrite``.
    ``on_result`` sees each result in seed order. Ctrl-C raises ``BatchInterrupted`` with the
    games finished so far.
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
    seeds = [seed + i for i in range(games)]
    directory: str | None = None
    if record_dir is not None:
        check_record_dir(record_dir, range(seed, seed + games), overwrite)
        directory = str(record_dir)
    params_json = params.to_json()
    results: list[GameResult] = []
    if workers == 1 or games == 1:
        try:
            for s in seeds:
                result = play_one(game_id, params_json, specs, s, directory)
                results.append(result)
                if on_result is not None:
                    on_result(result)
        except KeyboardInterrupt:
            raise BatchInterrupted(results, games) from None
        return results
    # Chunks amortise the inter-process round trip (one game takes milliseconds) while staying
    # small enough for the progress bar to move and the load to balance.
    size = max(1, min(50, games // (workers * 8)))
    chunks = [seeds[i : i + size] for i in range(0, games, size)]
    context = multiprocessing.get_context()
    stop = context.Event()
    futures: list[Future[list[GameResult]]] = []
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(stop,)
    ) as pool:
        try:
            for chunk in chunks:
                futures.append(
                    pool.submit(_play_many, game_id, params_json, specs, chunk, directory)
                )
            for future in futures:
                for result in future.result():
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
        except KeyboardInterrupt:
            # Queued chunks are cancelled and running ones end after their current game, so
            # the wait below is one game long at most.
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise BatchInterrupted(_finished_prefix(futures, chunks), games) from None
    return results


def summarize(
    game_id: str,
    params: Params,
    agent_specs: Sequence[str],
    seed: int,
    results: Sequence[GameResult],
    requested: int | None = None,
) -> dict[str, Any]:
    """The JSON summary of a batch (fields documented in docs/records.md, "simulate").

    ``results`` are the first games of the batch in seed order; ``requested`` is how many
    were asked for (default: all of them finished). Fewer results than requested (Ctrl-C)
    make the summary ``partial``.
    """
    n = params.num_players
    games = len(results)
    if requested is None:
        requested = games
    if requested < games:
        raise ValueError(f"{games} results for a batch of {requested} games")
    seats: list[dict[str, Any]] = []
    for seat in range(n):
        won = [r for r in results if seat in r.winner_seats()]
        shared = sum(1 for r in won if len(r.winner_seats()) > 1)
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
        "partial": games < requested,
        "games_finished": games,
        "games_requested": requested,
        "seed": seed,
        "seeds": [seed, seed + games - 1] if games else [],
        "win_counting": WIN_COUNTING,
        "shared_victories": sum(1 for r in results if len(r.winner_seats()) > 1),
        "mean_actions": mean(lengths),
        "std_actions": stdev(lengths),
        "mean_turns": mean(turns) if has_turns else None,
        "std_turns": stdev(turns) if has_turns else None,
        "median_turns": median(turns) if has_turns else None,
        "min_turns": int(min(turns)) if has_turns else None,
        "max_turns": int(max(turns)) if has_turns else None,
        "seats": seats,
    }
