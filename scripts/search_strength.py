"""A bot's strength against another agent, cell by cell: win rates with Wilson 95% intervals
against a fair share, mean score against the best rival, and the time per decision.

A *cell* is a game at a player count (and, solo, a setting such as Tom's deck), the agent
measured (``medium``) and the agent in every other seat (``heuristic``, or ``medium`` for
``hard`` head to head). Game ``i`` of a cell is seeded ``seed + i`` and seats the measured
agent at seat ``i mod players`` (seats rotated); the agents' seeds follow the game's, as in
``arabesque simulate``. Solo, a win is beating the game.

    # medium against heuristic at 2 players in every game, 40 games a cell
    PYTHONPATH=src python3 scripts/search_strength.py all medium --players 2 --games 40
    # the issue's table: every game and player count (solo at Tom's decks 15 and 12),
    # resumable: finished games are appended to the file and skipped when run again
    PYTHONPATH=src python3 scripts/search_strength.py all medium --games 100 \\
        --resume strength.jsonl --workers 2
    PYTHONPATH=src python3 scripts/search_strength.py all hard --players 2,4 --games 100 \\
        --opponent medium --resume strength.jsonl --workers 2      # head to head
    PYTHONPATH=src python3 scripts/search_strength.py all medium --report strength.jsonl

The table is printed in Markdown; ``--report FILE`` prints it from a file without playing
(the cells the file holds of the games, agent, opponent and player counts named). Times per
decision are wall-clock milliseconds of the measured agent at decisions with more than one
option, so they depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.agents.registry import make_agent
from arabesque.core import get_game
from arabesque.core.registry import game_ids
from arabesque.lab.metrics import START_SEAT, game_metrics
from arabesque.sim.batch import agent_seed
from arabesque.sim.runner import play_game
from arabesque.sim.stats import wilson_interval


@dataclass(frozen=True)
class Cell:
    """One row of the table: a game at a player count with its settings, the agent measured
    and the agent in the other seats."""

    game: str
    players: int
    settings: tuple[tuple[str, Any], ...]
    agent: str
    opponent: str

    def label(self) -> str:
        extra = "".join(f", {k}={v}" for k, v in self.settings)
        return f"{self.game} {self.players}p{extra}"

    def key(self) -> tuple[Any, ...]:
        return (self.game, self.players, self.settings, self.agent, self.opponent)


class _Timed(Agent):
    """The measured agent, timing its decisions that had a choice."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(None)
        self.inner = inner
        self.spec = inner.spec
        self.seconds: list[float] = []

    def act(self, obs: Observation) -> int:
        start = time.perf_counter()
        action = self.inner.act(obs)
        if len(obs.legal) > 1:
            self.seconds.append(time.perf_counter() - start)
        return action


def play_cell_game(cell: Cell, seed: int, seat: int) -> dict[str, Any]:
    """One game of ``cell`` with the measured agent at ``seat``: a JSON-ready record."""
    spec = get_game(cell.game)
    params = spec.make_params(num_players=cell.players, **dict(cell.settings))
    specs = [cell.opponent] * cell.players
    specs[seat] = cell.agent
    agents: list[Agent] = [
        make_agent(s, cell.game, seed=agent_seed(seed, p)) for p, s in enumerate(specs)
    ]
    timed = _Timed(agents[seat])
    agents[seat] = timed
    start = time.perf_counter()
    state = play_game(spec, params, agents, seed, log_events=True)
    seconds = time.perf_counter() - start
    totals = [s.total for s in state.scores()]
    # The seat that played first, where the game draws it (Djinn): the start player's edge.
    start_seat = game_metrics(cell.game).measure(state).get(START_SEAT)
    won = [r >= 1.0 for r in state.returns()]
    return {
        "game": cell.game,
        "players": cell.players,
        "settings": dict(cell.settings),
        "agent": cell.agent,
        "opponent": cell.opponent,
        "seed": seed,
        "seat": seat,
        "totals": totals,
        "won": won[seat],
        "decision_ms": [round(s * 1000.0, 2) for s in timed.seconds],
        "start_seat": None if start_seat is None else int(start_seat),
        "seconds": round(seconds, 2),
    }


def _record_key(record: dict[str, Any]) -> tuple[Any, ...]:
    settings = tuple(sorted(record.get("settings", {}).items()))
    return (
        record["game"],
        record["players"],
        settings,
        record["agent"],
        record["opponent"],
        record["seed"],
    )


def load_records(path: Path) -> list[dict[str, Any]]:
    """The finished games in a results file (a line cut short by a kill is skipped)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def cells_for(
    games: Sequence[str], players: str, agent: str, opponent: str, solo: dict[str, list[Any]]
) -> list[Cell]:
    """The cells of the run: every game and player count asked for; solo (a game for one
    player) once per value of each solo setting the game's params have."""
    cells = []
    for game in games:
        spec = get_game(game)
        counts = list(range(spec.min_players, spec.max_players + 1))
        if players != "all":
            wanted = {int(p) for p in players.split(",")}
            counts = [p for p in counts if p in wanted]
        names = {f.name for f in fields(spec.params_type)}
        for n in counts:
            settings_list: list[tuple[tuple[str, Any], ...]] = [()]
            if n == 1:
                settings_list = [
                    ((name, value),)
                    for name, values in solo.items()
                    if name in names
                    for value in values
                ] or [()]
            for settings in settings_list:
                cells.append(Cell(game, n, settings, agent, opponent))
    return cells


def _tasks(
    cells: Sequence[Cell], games: int, seed: int, done: set[tuple[Any, ...]]
) -> Iterator[tuple[Cell, int, int]]:
    # Game by game across the cells (game 0 of every cell, then game 1 ...), so a run cut
    # short leaves every cell with about the same number of games.
    for i in range(games):
        for cell in cells:
            key = (*cell.key(), seed + i)
            if key not in done:
                yield cell, seed + i, i % cell.players


def run(
    cells: Sequence[Cell],
    games: int,
    seed: int,
    workers: int,
    out: Path | None,
    records: list[dict[str, Any]],
) -> None:
    done = {_record_key(r) for r in records}
    tasks = list(_tasks(cells, games, seed, done))
    skipped = len(cells) * games - len(tasks)
    print(f"{len(tasks)} games to play ({skipped} done already)", file=sys.stderr)
    sink = out.open("a") if out is not None else None
    start = time.perf_counter()
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: set[Future[dict[str, Any]]] = set()
            queue = iter(tasks)
            finished = 0
            while True:
                while len(pending) < workers * 2:
                    task = next(queue, None)
                    if task is None:
                        break
                    pending.add(pool.submit(play_cell_game, *task))
                if not pending:
                    break
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    record = future.result()
                    records.append(record)
                    finished += 1
                    if sink is not None:
                        sink.write(json.dumps(record, sort_keys=True) + "\n")
                        sink.flush()
                if finished % 10 == 0:
                    elapsed = time.perf_counter() - start
                    print(f"  {finished}/{len(tasks)} games, {elapsed:.0f} s", file=sys.stderr)
    finally:
        if sink is not None:
            sink.close()


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def table(records: Sequence[dict[str, Any]], cells: Sequence[Cell] | None = None) -> str:
    """The Markdown table of the records' cells (``cells``: these only, in this order)."""
    by_cell: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    order: list[tuple[Any, ...]] = []
    for r in records:
        key = _record_key(r)[:5]
        if key not in by_cell:
            by_cell[key] = []
            order.append(key)
        by_cell[key].append(r)
    if cells is not None:
        order = [c.key() for c in cells if c.key() in by_cell]
    else:
        # By game and player count; settings (solo decks) as first played.
        order.sort(key=lambda key: (key[0], key[1]))
    lines = [
        "| game | players | agent | vs | games | wins (rate, 95% CI) | fair share | "
        "lower bound > fair | mean score vs best rival | ms/decision median, p95 |",
        "|---|---:|---|---|---:|---|---:|:-:|---|---|",
    ]
    for key in order:
        game, players, settings, agent, opponent = key
        rows = by_cell[key]
        n = len(rows)
        wins = sum(1 for r in rows if r["won"])
        low, high = wilson_interval(wins, n)
        fair = 1.0 / players if players > 1 else None
        mine = statistics.fmean(r["totals"][r["seat"]] for r in rows)
        rival = (
            statistics.fmean(
                max(t for q, t in enumerate(r["totals"]) if q != r["seat"]) for r in rows
            )
            if players > 1
            else None
        )
        times = [ms for r in rows for ms in r["decision_ms"]]
        label = str(players) + "".join(f" ({k}={v})" for k, v in settings)
        fair_text = f"{fair:.0%}" if fair is not None else "-"
        beats = "-" if fair is None else ("yes" if low > fair else "no")
        score = f"{mine:.1f} vs {rival:.1f}" if rival is not None else f"{mine:.1f}"
        vs = f"`{opponent}`" if players > 1 else "(solo)"
        lines.append(
            f"| {game} | {label} | `{agent}` | {vs} | {n} | {wins} ({wins / n:.0%}, "
            f"{low:.0%}-{high:.0%}) | {fair_text} | {beats} | {score} | "
            f"{_ms(_percentile(times, 0.5))}, {_ms(_percentile(times, 0.95))} |"
        )
    return "\n".join(lines)


def start_table(records: Sequence[dict[str, Any]]) -> str:
    """Where the game draws its start player (Djinn): the measured agent's wins when it
    started and when another seat did, per cell of more than one player ("" if none)."""
    by_cell: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in records:
        if r.get("start_seat") is not None and r["players"] > 1:
            by_cell.setdefault(_record_key(r)[:5], []).append(r)
    if not by_cell:
        return ""
    lines = [
        "| game | players | agent | vs | started: wins / games (rate) | "
        "did not start: wins / games (rate) |",
        "|---|---:|---|---|---|---|",
    ]
    for (game, players, _settings, agent, opponent), rows in by_cell.items():
        parts = []
        for started in (True, False):
            chosen = [r for r in rows if (r["start_seat"] == r["seat"]) is started]
            wins = sum(1 for r in chosen if r["won"])
            rate = f" ({wins / len(chosen):.0%})" if chosen else ""
            parts.append(f"{wins} / {len(chosen)}{rate}")
        lines.append(f"| {game} | {players} | `{agent}` | `{opponent}` | {parts[0]} | {parts[1]} |")
    return "\n".join(lines)


def _solo(values: Sequence[str]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for item in values:
        name, eq, rest = item.partition("=")
        if not eq:
            raise SystemExit(f"--solo {item!r}: give name=value,value (e.g. tom_deck=15,12)")
        out[name] = [int(v) if v.lstrip("-").isdigit() else v for v in rest.split(",")]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game id, several joined with commas, or all")
    parser.add_argument("agent", help="the agent spec measured, e.g. medium")
    parser.add_argument(
        "--players", default="all", help="player counts, e.g. 2 or 2,4 (default: all the game has)"
    )
    parser.add_argument("--games", type=int, default=20, help="games per cell (seats rotated)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--opponent", default="heuristic", help="the agent in the other seats")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--solo",
        action="append",
        default=None,
        help="solo settings, one cell per value (default tom_deck=15,12, where the game has it)",
    )
    parser.add_argument("--resume", type=Path, help="results file (JSONL): append, skip done")
    parser.add_argument("--report", type=Path, help="print the table of this file; play nothing")
    args = parser.parse_args()
    if args.report is not None:
        # The cells of these games, agent and opponent (and player counts, if given).
        records = [
            r
            for r in load_records(args.report)
            if r["agent"] == args.agent
            and r["opponent"] == args.opponent
            and (args.game == "all" or r["game"] in args.game.split(","))
            and (args.players == "all" or str(r["players"]) in args.players.split(","))
        ]
        print(table(records))
        starts = start_table(records)
        if starts:
            print("\nBy start player (drawn at setup):\n\n" + starts)
        return
    games = list(game_ids()) if args.game == "all" else args.game.split(",")
    solo = _solo(args.solo or ["tom_deck=15,12"])
    cells = cells_for(games, args.players, args.agent, args.opponent, solo)
    if not cells:
        raise SystemExit("no cell to play: check --players against the games' player counts")
    for cell in cells:  # a bad spec fails here, before any game
        make_agent(cell.agent, cell.game, seed=0)
        make_agent(cell.opponent, cell.game, seed=0)
    records = load_records(args.resume) if args.resume is not None else []
    run(cells, args.games, args.seed, args.workers, args.resume, records)
    wanted = {(*c.key(), args.seed + i) for c in cells for i in range(args.games)}
    print(table([r for r in records if _record_key(r) in wanted], cells))


if __name__ == "__main__":
    main()
