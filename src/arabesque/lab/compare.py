"""``arabesque compare A B``: every measure of two runs of one game as a difference, B − A,
with its 95% interval and a plain verdict.

Where the seeds match (the same agents and seeds on two components files or options), the
difference is taken seed by seed: the same deal played both ways, so the luck of the deal
cancels out and the interval is much narrower than between two independent samples. Seeds
in one run only are then left out (and counted). With no seed in common, the runs are
compared as independent samples.

Rates of sums (a bust rate over all searches) get a bootstrap interval over seeds (paired
seeds drawn together); means get mean ± 1.96 standard errors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from arabesque.lab.analysis import metric_matrix
from arabesque.lab.metrics import expand_ratios, game_metrics
from arabesque.lab.store import LabError, Run
from arabesque.sim.stats import Z95

BOOTSTRAP = 500


def _per_seed(run: Run) -> dict[str, dict[int, float]]:
    """Per measure, its value in each game (seed). Measures of a seat or an agent are only
    there in games that have that seat or agent."""
    out: dict[str, dict[int, float]] = {}

    def put(name: str, seed: int, value: float) -> None:
        out.setdefault(name, {})[seed] = value

    per_agent: dict[tuple[str, int], list[tuple[bool, float]]] = {}
    for r in run.seats.select(["seed", "seat", "agent", "won", "score"]).to_pylist():
        put(f"seat {r['seat']}: win rate", r["seed"], float(r["won"]))
        put(f"seat {r['seat']}: mean score", r["seed"], float(r["score"]))
        per_agent.setdefault((r["agent"], r["seed"]), []).append((r["won"], float(r["score"])))
    if len({a for a, _ in per_agent}) > 1:
        for (agent, seed), rows in per_agent.items():
            put(f"{agent}: win rate", seed, sum(w for w, _ in rows) / len(rows))
            put(f"{agent}: mean score", seed, sum(s for _, s in rows) / len(rows))
    for r in run.games.select(["seed", "actions", "turns"]).to_pylist():
        put("game length (actions)", r["seed"], float(r["actions"]))
        if r["turns"] is not None:
            put("game length (turns)", r["seed"], float(r["turns"]))
    names, data = metric_matrix(run)
    seeds = run.games.column("seed").to_pylist()
    for i, name in enumerate(names):
        for g, seed in enumerate(seeds):
            put(f"{name} (per game)", seed, float(data[g, i]))
    return out


def _mean_sd(values: list[float]) -> tuple[float, float]:
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, 0.0
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def _difference(
    a: Mapping[int, float], b: Mapping[int, float], paired: bool
) -> tuple[float, float, float, float, int] | None:
    """(mean A, mean B, B − A, half width of its 95% interval, games it rests on)."""
    if paired:
        seeds = sorted(set(a) & set(b))
        if not seeds:
            return None
        ma, _ = _mean_sd([a[s] for s in seeds])
        mb, _ = _mean_sd([b[s] for s in seeds])
        md, sd = _mean_sd([b[s] - a[s] for s in seeds])
        return ma, mb, md, Z95 * sd / math.sqrt(len(seeds)), len(seeds)
    if not a or not b:
        return None
    ma, sa = _mean_sd(list(a.values()))
    mb, sb = _mean_sd(list(b.values()))
    half = Z95 * math.sqrt(sa**2 / len(a) + sb**2 / len(b))
    return ma, mb, mb - ma, half, min(len(a), len(b))


def _fmt(value: float, percent: bool) -> str:
    return f"{100 * value:.1f}%" if percent else f"{value:.2f}"


def _diff_text(value: float, half: float, percent: bool) -> str:
    if percent:
        return f"{100 * value:+.1f} points ± {100 * half:.1f}"
    return f"{value:+.2f} ± {half:.2f}"


def verdict(label: str, a: float, b: float, low: float, high: float, percent: bool) -> str:
    """One line in words: the change when its 95% interval [low, high] of B − A excludes 0,
    else that these games show no clear change. An interval that is not symmetric (a
    bootstrap's) is quoted by its larger side."""
    diff = b - a
    half = max(diff - low, high - diff)
    span = f"{_fmt(a, percent)} to {_fmt(b, percent)} ({_diff_text(diff, half, percent)})"
    if low > 0:
        return f"{label} rose from {span}"
    if high < 0:
        return f"{label} fell from {span}"
    return f"{label}: no clear change, from {span}"


def _ratio_lines(a: Run, b: Run, paired: bool, rng: np.random.Generator) -> list[dict[str, Any]]:
    names_a, data_a = metric_matrix(a)
    names_b, data_b = metric_matrix(b)
    seeds_a = a.games.column("seed").to_pylist()
    seeds_b = b.games.column("seed").to_pylist()
    if paired:
        common = sorted(set(seeds_a) & set(seeds_b))
        rows_a = [seeds_a.index(s) for s in common]
        rows_b = [seeds_b.index(s) for s in common]
        data_a, data_b = data_a[rows_a], data_b[rows_b]
    index_a = {k: i for i, k in enumerate(names_a)}
    index_b = {k: i for i, k in enumerate(names_b)}

    def column(data: np.ndarray, index: dict[str, int], names: tuple[str, ...]) -> np.ndarray:
        cols = [index[k] for k in names if k in index]
        return data[:, cols].sum(axis=1) if cols else np.zeros(data.shape[0])

    metrics = game_metrics(a.manifest.game)
    lines = []
    for ratio in expand_ratios(metrics.ratios, set(names_a) & set(names_b)):
        na, da = (
            column(data_a, index_a, ratio.numerator),
            column(data_a, index_a, ratio.denominator),
        )
        nb, db = (
            column(data_b, index_b, ratio.numerator),
            column(data_b, index_b, ratio.denominator),
        )
        if da.sum() == 0 or db.sum() == 0:
            continue
        va, vb = float(na.sum() / da.sum()), float(nb.sum() / db.sum())
        if paired:
            draws = rng.integers(0, len(na), size=(BOOTSTRAP, len(na)))
            draws_b = draws
        else:
            draws = rng.integers(0, len(na), size=(BOOTSTRAP, len(na)))
            draws_b = rng.integers(0, len(nb), size=(BOOTSTRAP, len(nb)))
        sa, sb = da[draws].sum(axis=1), db[draws_b].sum(axis=1)
        ok = (sa > 0) & (sb > 0)
        diffs = nb[draws_b].sum(axis=1)[ok] / sb[ok] - na[draws].sum(axis=1)[ok] / sa[ok]
        low, high = np.quantile(diffs, [0.025, 0.975]) if diffs.size else (0.0, 0.0)
        diff = vb - va
        low, high = float(min(low, diff)), float(max(high, diff))
        significant = bool(low > 0 or high < 0)
        text = verdict(ratio.label, va, vb, low, high, ratio.percent)
        lines.append(
            {
                "measure": ratio.label,
                "a": va,
                "b": vb,
                "difference": diff,
                "ci95": [float(low), float(high)],
                "games": len(na) if paired else min(len(na), len(nb)),
                "significant": significant,
                "verdict": text,
            }
        )
    return lines


def compare_runs(a: Run, b: Run, seed: int = 0) -> dict[str, Any]:
    if a.manifest.game != b.manifest.game:
        raise LabError(
            f"{a.folder} holds {a.manifest.game} and {b.folder} holds {b.manifest.game}: "
            "compare runs of one game"
        )
    seeds_a = set(a.games.column("seed").to_pylist())
    seeds_b = set(b.games.column("seed").to_pylist())
    common = seeds_a & seeds_b
    paired = len(common) >= 2
    per_a, per_b = _per_seed(a), _per_seed(b)
    lines = []
    for name in [n for n in per_a if n in per_b]:
        found = _difference(per_a[name], per_b[name], paired)
        if found is None:
            continue
        ma, mb, diff, half, games = found
        percent = name.endswith("win rate")
        lines.append(
            {
                "measure": name,
                "a": ma,
                "b": mb,
                "difference": diff,
                "ci95": [diff - half, diff + half],
                "games": games,
                "significant": bool(abs(diff) > half),
                "verdict": verdict(name, ma, mb, diff - half, diff + half, percent),
            }
        )
    lines += _ratio_lines(a, b, paired, np.random.default_rng(seed))
    changed = {
        k
        for k in set(a.manifest.params) | set(b.manifest.params)
        if a.manifest.params.get(k) != b.manifest.params.get(k)
    }
    return {
        "game": a.manifest.game,
        "a": {"label": a.label, "games": len(seeds_a), "agents": list(a.manifest.agents)},
        "b": {"label": b.label, "games": len(seeds_b), "agents": list(b.manifest.agents)},
        "params_changed": {
            k: [a.manifest.params.get(k), b.manifest.params.get(k)] for k in sorted(changed)
        },
        "same_agents": a.manifest.agents == b.manifest.agents,
        "paired": len(common) if paired else 0,
        "lines": lines,
    }
