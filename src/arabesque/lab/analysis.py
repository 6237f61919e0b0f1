"""Numbers from a results folder: per seat, per agent, scores, lengths, the game's metrics.

Every number comes with how many games (or seats) it rests on and a 95% interval: Wilson's
for win rates (``sim.stats``), mean ± 1.96 standard errors for means, a bootstrap over games
for ratios of sums (a bust rate over all searches).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from arabesque.lab.metrics import START_SEAT, expand_ratios, game_metrics
from arabesque.lab.store import Run
from arabesque.lab.tournament import outcomes_from_seats, ratings, win_matrix
from arabesque.sim.stats import Z95, wilson_interval

BOOTSTRAP = 200


def mean_ci(values: Sequence[float]) -> tuple[float | None, float]:
    """(mean, half width of its 95% interval); the half width is 0 below two values."""
    n = len(values)
    if n == 0:
        return None, 0.0
    m = float(sum(values) / n)
    if n < 2:
        return m, 0.0
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return m, Z95 * sd / math.sqrt(n)


def _column(table: Any, name: str) -> list[Any]:
    return list(table.column(name).to_pylist())


def seat_summary(run: Run) -> list[dict[str, Any]]:
    """Per seat: its agent (or "mixed" in a tournament), win rate with Wilson interval,
    mean score ± 95%, and how many games."""
    seats = run.seats
    out = []
    for seat in range(run.manifest.players):
        rows = [
            r
            for r in seats.select(["seat", "agent", "won", "score"]).to_pylist()
            if r["seat"] == seat
        ]
        agents = {r["agent"] for r in rows}
        wins = sum(1 for r in rows if r["won"])
        score, half = mean_ci([float(r["score"]) for r in rows])
        out.append(
            {
                "seat": seat,
                "agent": agents.pop() if len(agents) == 1 else "mixed",
                "games": len(rows),
                "wins": wins,
                "win_rate": wins / len(rows) if rows else None,
                "win_rate_ci95": list(wilson_interval(wins, len(rows))),
                "mean_score": score,
                "score_ci95_half": half,
            }
        )
    return out


def turn_order_summary(run: Run) -> list[dict[str, Any]] | None:
    """Win rate by place in the turn order (0 = the start player), for games whose metrics
    say who started (``START_SEAT``); None when they do not."""
    starts: dict[int, int] = {}
    for seed, metrics in zip(
        _column(run.games, "seed"), _column(run.games, "metrics"), strict=True
    ):
        found = dict(metrics).get(START_SEAT)
        if found is None:
            return None
        starts[seed] = int(found)
    n = run.manifest.players
    wins = [0] * n
    games = [0] * n
    for r in run.seats.select(["seed", "seat", "won"]).to_pylist():
        place = (r["seat"] - starts[r["seed"]]) % n
        games[place] += 1
        wins[place] += bool(r["won"])
    return [
        {
            "place": place,
            "games": games[place],
            "wins": wins[place],
            "win_rate": wins[place] / games[place] if games[place] else None,
            "win_rate_ci95": list(wilson_interval(wins[place], games[place])),
        }
        for place in range(n)
    ]


def agent_summary(run: Run) -> list[dict[str, Any]]:
    """Per agent over every seat it held: win rate, score, rank, mean score breakdown."""
    rows = run.seats.select(["agent", "won", "score", "rank", "breakdown"]).to_pylist()
    out = []
    for agent in sorted({r["agent"] for r in rows}):
        mine = [r for r in rows if r["agent"] == agent]
        wins = sum(1 for r in mine if r["won"])
        score, half = mean_ci([float(r["score"]) for r in mine])
        breakdown: dict[str, float] = {}
        for r in mine:
            for k, v in r["breakdown"]:
                breakdown[k] = breakdown.get(k, 0.0) + v / len(mine)
        out.append(
            {
                "agent": agent,
                "seat_games": len(mine),
                "wins": wins,
                "win_rate": wins / len(mine),
                "win_rate_ci95": list(wilson_interval(wins, len(mine))),
                "mean_score": score,
                "score_ci95_half": half,
                "mean_rank": sum(r["rank"] for r in mine) / len(mine),
                "breakdown": breakdown,
            }
        )
    return out


def length_summary(run: Run) -> dict[str, Any]:
    actions = [float(x) for x in _column(run.games, "actions")]
    turns = [float(x) for x in _column(run.games, "turns") if x is not None]
    reasons: dict[str, int] = {}
    for r in _column(run.games, "end_reason"):
        reasons[r] = reasons.get(r, 0) + 1
    m, half = mean_ci(actions)
    tm, thalf = mean_ci(turns)
    return {
        "games": len(actions),
        "actions": actions,
        "turns": turns,
        "mean_actions": m,
        "actions_ci95_half": half,
        "mean_turns": tm,
        "turns_ci95_half": thalf,
        "end_reasons": reasons,
    }


def metric_matrix(run: Run) -> tuple[list[str], np.ndarray]:
    """Metric names and a games × metrics array (0 where a game lacks a metric)."""
    maps = [dict(m) for m in _column(run.games, "metrics")]
    names = sorted({k for m in maps for k in m})
    data = np.zeros((len(maps), len(names)))
    index = {k: i for i, k in enumerate(names)}
    for g, m in enumerate(maps):
        for k, v in m.items():
            data[g, index[k]] = v
    return names, data


def metric_means(run: Run) -> list[dict[str, Any]]:
    names, data = metric_matrix(run)
    out = []
    for i, name in enumerate(names):
        m, half = mean_ci([float(x) for x in data[:, i]])
        out.append({"metric": name, "mean": m, "ci95_half": half, "games": data.shape[0]})
    return out


def ratio_table(run: Run, bootstrap: int = BOOTSTRAP, seed: int = 0) -> list[dict[str, Any]]:
    """The game's ratios (``GameMetrics.ratios``) over the run, with bootstrap intervals."""
    names, data = metric_matrix(run)
    index = {k: i for i, k in enumerate(names)}
    metrics = game_metrics(run.manifest.game)
    rng = np.random.default_rng(seed)
    n = data.shape[0]
    draws = rng.integers(0, n, size=(bootstrap, n)) if n else np.zeros((0, 0), dtype=int)
    out = []
    for ratio in expand_ratios(metrics.ratios, names):
        num = _sum_columns(data, index, ratio.numerator)
        den = _sum_columns(data, index, ratio.denominator)
        value = float(num.sum() / den.sum()) if den.sum() else None
        low = high = None
        if value is not None and n > 1:
            sums_n = num[draws].sum(axis=1)
            sums_d = den[draws].sum(axis=1)
            ok = sums_d > 0
            if ok.any():
                values = sums_n[ok] / sums_d[ok]
                low, high = float(np.quantile(values, 0.025)), float(np.quantile(values, 0.975))
        out.append(
            {
                "label": ratio.label,
                "group": ratio.group,
                "percent": ratio.percent,
                "value": value,
                "ci95": [low, high],
                "games": n,
                "denominator": float(den.sum()),
            }
        )
    return out


def _sum_columns(data: np.ndarray, index: dict[str, int], names: Sequence[str]) -> np.ndarray:
    cols = [index[k] for k in names if k in index]
    if not cols:
        return np.zeros(data.shape[0])
    return np.asarray(data[:, cols].sum(axis=1))


def tournament_summary(run: Run, bootstrap: int = 100) -> dict[str, Any]:
    agents = list(run.manifest.agents)
    outcomes = outcomes_from_seats(run.seats)
    share, meetings = win_matrix(outcomes, agents)
    rated = ratings(outcomes, agents, bootstrap=bootstrap)
    per_agent = {r["agent"]: r for r in agent_summary(run)}
    for r in rated:
        summary = per_agent.get(r["agent"])
        r["win_rate"] = summary["win_rate"] if summary else None
        r["win_rate_ci95"] = summary["win_rate_ci95"] if summary else None
    return {
        "game": run.manifest.game,
        "params": run.manifest.params,
        "mode": run.manifest.mode,
        "players": run.manifest.players,
        "games": len(outcomes),
        "agents": agents,
        "ratings": rated,
        "win_matrix": share,
        "meetings": meetings,
        "bootstrap": bootstrap,
    }
