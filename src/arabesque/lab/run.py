"""Play the seeds a results folder lacks, in chunks, on one process or a local pool.

A plan says which line-up (agent spec per seat) plays each seed: simulate's one line-up, or
a tournament's cycle (``tournament.py``). Chunks are written as they finish, in any order;
Ctrl-C stops the run: queued chunks are cancelled, running ones end after their current game
and what they finished is written, so the folder holds every game finished and nothing else.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arabesque.agents.registry import make_agent
from arabesque.core.game import Params
from arabesque.core.registry import get_game
from arabesque.lab.results import params_record, params_text, play_lab_game
from arabesque.lab.store import Manifest, open_for_writing, write_chunk
from arabesque.sim import batch

Rows = tuple[list[dict[str, Any]], list[dict[str, Any]]]
BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class Plan:
    """Who plays which seed: ``lineups[seed % len(lineups)]`` (Python's ``%``, never
    negative), so any run of ``len(lineups)`` consecutive seeds plays every line-up once."""

    game: str
    params: Params
    agents: tuple[str, ...]
    mode: str
    lineups: tuple[tuple[str, ...], ...]

    def lineup(self, seed: int) -> tuple[str, ...]:
        return self.lineups[seed % len(self.lineups)]

    def manifest(self) -> Manifest:
        return Manifest(
            game=self.game,
            params=params_record(self.game, self.params),
            agents=self.agents,
            mode=self.mode,
            players=self.params.num_players,
        )


@dataclass
class RunOutcome:
    requested: int
    already: int
    played: int
    interrupted: bool


def _play_chunk(
    game_id: str,
    params_json: Mapping[str, Any],
    params_stored: str,
    jobs: Sequence[tuple[int, tuple[str, ...]]],
) -> Rows:
    """The games of one chunk; fewer (those finished) if the run was stopped."""
    games: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    for seed, lineup in jobs:
        if batch.stop_requested():
            break
        game_row, seat_rows = play_lab_game(game_id, params_json, params_stored, lineup, seed)
        games.append(game_row)
        seats.extend(seat_rows)
    return games, seats


def run_plan(
    plan: Plan,
    out: Path,
    seeds: Sequence[int],
    resume: bool = False,
    workers: int = 1,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[], None] | None = None,
    chunk_size: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> RunOutcome:
    """Play the ``seeds`` not yet in ``out`` and write them there. Every refusal (bad agent,
    params, folder) is raised before any game. ``on_start(to_play, already)`` is told the
    work once the folder is checked; ``on_game`` after each game written. ``backend="ray"``
    plays the chunks as Ray tasks (``ray_backend.py``) instead of on ``workers`` processes."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if backend == "ray":
        from arabesque.lab.ray_backend import _need_ray

        _need_ray()
    if workers < 1:
        raise ValueError(f"the number of workers must be at least 1, got {workers}")
    spec = get_game(plan.game)
    spec.validate_params(plan.params)
    for lineup in plan.lineups:
        if len(lineup) != plan.params.num_players:
            raise ValueError(f"a line-up of {len(lineup)} for {plan.params.num_players} players")
        for a in set(lineup):
            make_agent(a, plan.game, seed=0)
    manifest = plan.manifest()
    done = open_for_writing(out, manifest, resume)
    todo = [s for s in seeds if s not in done]
    if on_start is not None:
        on_start(len(todo), len(seeds) - len(todo))
    params_json = plan.params.to_json()
    stored = params_text(manifest.params)
    jobs = [(s, plan.lineup(s)) for s in todo]
    # One process writes a chunk every 50 games (Ctrl-C writes the games of the chunk under
    # way); a pool's chunks are smaller, so that the load balances and the bar moves.
    spread = 16 if backend == "ray" else workers * 8
    size = chunk_size or (
        50 if workers == 1 and backend == "local" else max(1, min(50, len(jobs) // spread))
    )
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    played = 0

    def write(rows: Rows, told: bool = False) -> None:
        """Write a chunk; tell ``on_game`` of its games unless ``told`` already."""
        nonlocal played
        write_chunk(out, rows[0], rows[1])
        played += len(rows[0])
        if on_game is not None and not told:
            for _ in rows[0]:
                on_game()

    if backend == "ray":
        from arabesque.lab.ray_backend import play_chunks_on_ray

        stopped = play_chunks_on_ray(
            _play_chunk, plan.game, params_json, stored, chunks, write, ray_address
        )
        return RunOutcome(len(seeds), len(done), played, stopped)
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            games: list[dict[str, Any]] = []
            seats: list[dict[str, Any]] = []
            try:
                for seed, lineup in chunk:
                    g, s = play_lab_game(plan.game, params_json, stored, lineup, seed)
                    games.append(g)
                    seats.extend(s)
                    # The bar moves with every game; the chunk is written at its end.
                    if on_game is not None:
                        on_game()
            except KeyboardInterrupt:
                write((games, seats), told=True)
                return RunOutcome(len(seeds), len(done), played, True)
            write((games, seats), told=True)
        return RunOutcome(len(seeds), len(done), played, False)

    context = multiprocessing.get_context()
    stop = context.Event()
    futures: list[Future[Rows]] = []
    written: set[int] = set()  # ids of the futures whose chunk is in the folder
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=batch._init_worker,
        initargs=(stop,),
    ) as pool:
        try:
            for chunk in chunks:
                futures.append(pool.submit(_play_chunk, plan.game, params_json, stored, chunk))
            for future in as_completed(futures):
                write(future.result())
                written.add(id(future))
        except KeyboardInterrupt:
            stop.set()
            for future in futures:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            for future in futures:
                finished = future.done() and not future.cancelled()
                if finished and future.exception() is None and id(future) not in written:
                    write(future.result())
            return RunOutcome(len(seeds), len(done), played, True)
    return RunOutcome(len(seeds), len(done), played, False)
