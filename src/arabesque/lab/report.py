"""``arabesque report``: results folders as a page people look at.

The report is a list of blocks (headings, paragraphs, tables, figures) rendered either as one
self-contained HTML file (figures embedded as base64 PNG) or as Markdown with the PNGs written
next to it. Several runs of one game (e.g. one per components file or per option) are drawn
side by side. Every number says how many games or seats it rests on.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arabesque.core.registry import get_game
from arabesque.lab.analysis import (
    agent_summary,
    length_summary,
    metric_means,
    ratio_table,
    seat_summary,
    tournament_summary,
    turn_order_summary,
)
from arabesque.lab.metrics import game_metrics
from arabesque.lab.store import Run


@dataclass
class Figure:
    png: bytes
    caption: str
    name: str


@dataclass
class Block:
    kind: str  # "h2", "p", "table", "figure"
    text: str = ""
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    figure: Figure | None = None


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _num(v: float | None, digits: int = 2) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _interval(interval: Sequence[float | None], percent: bool) -> str:
    low, high = interval
    if low is None or high is None:
        return "-"
    if percent:
        return f"{100 * low:.1f}–{100 * high:.1f}%"
    return f"{low:.2f}–{high:.2f}"


def run_labels(runs: Sequence[Run]) -> list[str]:
    """Short labels: the folder names, or where they clash, the params that differ."""
    names = [r.label for r in runs]
    if len(set(names)) == len(names):
        return names
    keys = sorted({k for r in runs for k in r.manifest.params})
    differ = [k for k in keys if len({json.dumps(r.manifest.params.get(k)) for r in runs}) > 1]
    return [
        ", ".join(f"{k}={r.manifest.params.get(k)}" for k in differ) or f"run {i + 1}"
        for i, r in enumerate(runs)
    ]


def _figure(fig: Any, caption: str, name: str) -> Figure:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return Figure(buffer.getvalue(), caption, name)


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _grouped_bars(
    ax: Any,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None], Sequence[tuple[float, float] | None]]],
    scale: float = 1.0,
) -> None:
    """Bars per category, one per series, with error bars where intervals are given."""
    width = 0.8 / max(1, len(series))
    for si, (label, values, intervals) in enumerate(series):
        xs = [c + (si - (len(series) - 1) / 2) * width for c in range(len(categories))]
        ys = [scale * (v or 0.0) for v in values]
        low = [
            scale * ((v or 0.0) - iv[0]) if iv else 0.0
            for v, iv in zip(values, intervals, strict=True)
        ]
        high = [
            scale * (iv[1] - (v or 0.0)) if iv else 0.0
            for v, iv in zip(values, intervals, strict=True)
        ]
        ax.bar(xs, ys, width, yerr=[low, high], capsize=3, label=label)
    long_names = max((len(c) for c in categories), default=0) > 12
    if long_names or len(categories) > 6:
        ax.set_xticks(range(len(categories)), categories, rotation=30, ha="right", fontsize=7)
    else:
        ax.set_xticks(range(len(categories)), categories)
    if len(series) > 1:
        ax.legend(fontsize=8)


def build_report(runs: Sequence[Run]) -> tuple[str, list[Block]]:
    plt = _plt()
    game = runs[0].manifest.game
    spec = get_game(game)
    labels = run_labels(runs)
    title = f"{spec.name}: lab report"
    blocks: list[Block] = []

    # -- the runs
    rows = []
    for label, run in zip(labels, runs, strict=True):
        seeds = run.games.column("seed").to_pylist()
        # The components are named by their digest (next column), not in the params.
        params = {
            k: v
            for k, v in run.manifest.params.items()
            if k != "components_digest"
            and v is not None
            and not (isinstance(v, str) and v.startswith("sha256:"))
        }
        digest = run.manifest.params.get("components_digest")
        rows.append(
            [
                label,
                str(run.games.num_rows),
                f"{min(seeds)}..{max(seeds)}",
                ", ".join(run.manifest.agents),
                run.manifest.mode,
                json.dumps(params, sort_keys=True),
                (digest or "-")[:12],
                ", ".join(sorted(set(run.games.column("engine_version").to_pylist()))),
            ]
        )
    blocks.append(Block("h2", "The runs"))
    blocks.append(
        Block(
            "table",
            headers=["run", "games", "seeds", "agents", "seats", "params", "components", "engine"],
            rows=rows,
        )
    )

    # -- two runs: what changed (arabesque compare), first
    if len(runs) == 2:
        from arabesque.lab.compare import compare_runs

        result = compare_runs(runs[0], runs[1])
        changed = [x for x in result["lines"] if x["significant"]]
        how = (
            f"paired by seed ({result['paired']} seeds in both)"
            if result["paired"]
            else "as independent samples (no seed in common)"
        )
        blocks.append(Block("h2", f"What changed from {labels[0]} to {labels[1]}"))
        blocks.append(
            Block(
                "p",
                f"Every measure as a difference {labels[1]} − {labels[0]}, {how}; listed here "
                f"are the {len(changed)} of {len(result['lines'])} measures whose 95% interval "
                "excludes 0 (arabesque compare lists them all).",
            )
        )
        if changed:
            blocks.append(
                Block(
                    "table",
                    headers=["verdict", "games"],
                    rows=[[x["verdict"], str(x["games"])] for x in changed],
                )
            )
    # -- seats
    blocks.append(Block("h2", "Win rate per seat (the start player's edge)"))
    seat_rows = []
    series = []
    players = max(r.manifest.players for r in runs)
    for label, run in zip(labels, runs, strict=True):
        summary = seat_summary(run)
        series.append(
            (
                label,
                [s["win_rate"] for s in summary],
                [tuple(s["win_rate_ci95"]) for s in summary],
            )
        )
        for s in summary:
            seat_rows.append(
                [
                    label,
                    str(s["seat"]),
                    s["agent"],
                    str(s["games"]),
                    str(s["wins"]),
                    _pct(s["win_rate"]),
                    _interval(s["win_rate_ci95"], percent=True),
                    f"{_num(s['mean_score'], 1)} ± {_num(s['score_ci95_half'], 1)}",
                ]
            )
    if all(r.manifest.players == players for r in runs) and players > 1:
        fig, ax = plt.subplots(figsize=(7, 3.6))
        _grouped_bars(ax, [f"seat {s}" for s in range(players)], series, scale=100.0)
        ax.axhline(100 / players, color="black", linestyle="--", linewidth=1)
        ax.set_ylabel("win rate (%), 95% Wilson interval")
        ax.set_title("Win rate per seat (dashed: a fair share)")
        blocks.append(
            Block("figure", figure=_figure(fig, "Win rate per seat, 95% intervals", "seats"))
        )
    else:
        # Runs of different player counts (or solo runs, e.g. one per difficulty): one small
        # plot per run, side by side on one scale.
        fig, axes = plt.subplots(
            1, len(runs), figsize=(min(12, 1.2 + 2.2 * len(runs)), 3.4), sharey=True, squeeze=False
        )
        for ax, (label, values, intervals), run in zip(axes[0], series, runs, strict=True):
            n = run.manifest.players
            _grouped_bars(ax, [str(s) for s in range(n)], [(label, values, intervals)], 100.0)
            ax.set_xlabel("seat")
            if n > 1:
                ax.axhline(100 / n, color="black", linestyle="--", linewidth=1)
            ax.set_title(label, fontsize=9)
        axes[0][0].set_ylabel("win rate (%), 95% Wilson interval")
        blocks.append(
            Block(
                "figure", figure=_figure(fig, "Win rate per seat and run, 95% intervals", "seats")
            )
        )
    blocks.append(
        Block(
            "table",
            headers=["run", "seat", "agent", "games", "wins", "win rate", "95%", "score ± 95%"],
            rows=seat_rows,
        )
    )
    orders = [turn_order_summary(run) for run in runs]
    if any(o is not None for o in orders) and players > 1:
        blocks.append(
            Block(
                "p",
                "The start player is drawn at setup in this game, so seats are not places in "
                "the turn order; by place (1 = the start player):",
            )
        )
        order_rows = []
        for label, order in zip(labels, orders, strict=True):
            for o in order or []:
                order_rows.append(
                    [
                        label,
                        str(o["place"] + 1),
                        str(o["games"]),
                        str(o["wins"]),
                        _pct(o["win_rate"]),
                        _interval(o["win_rate_ci95"], percent=True),
                    ]
                )
        blocks.append(
            Block(
                "table",
                headers=["run", "place in turn order", "games", "wins", "win rate", "95%"],
                rows=order_rows,
            )
        )
    blocks.append(
        Block(
            "p",
            "A shared victory counts as a win for each winner; a solo game is won only by "
            "beating the game. Win-rate intervals are Wilson's; score intervals are the mean "
            "± 1.96 standard errors.",
        )
    )

    # -- agents
    blocks.append(Block("h2", "Agents: win rate, score and its breakdown"))
    agent_rows = []
    breakdown_rows = []
    keys: list[str] = []
    per_run_agents = []
    for label, run in zip(labels, runs, strict=True):
        summary = agent_summary(run)
        per_run_agents.append((label, summary))
        for a in summary:
            agent_rows.append(
                [
                    label,
                    a["agent"],
                    str(a["seat_games"]),
                    _pct(a["win_rate"]),
                    _interval(a["win_rate_ci95"], percent=True),
                    f"{_num(a['mean_score'], 1)} ± {_num(a['score_ci95_half'], 1)}",
                    _num(a["mean_rank"]),
                ]
            )
            for k in a["breakdown"]:
                if k not in keys:
                    keys.append(k)
    for label, summary in per_run_agents:
        for a in summary:
            breakdown_rows.append(
                [label, a["agent"], *(_num(a["breakdown"].get(k, 0.0), 1) for k in keys)]
            )
    blocks.append(
        Block(
            "table",
            headers=["run", "agent", "seat-games", "win rate", "95%", "score ± 95%", "rank"],
            rows=agent_rows,
        )
    )
    if keys:
        fig, ax = plt.subplots(figsize=(8, 0.5 + 0.45 * len(breakdown_rows) + 1.5))
        bar_names = [f"{r[1]} ({r[0]})" if len(runs) > 1 else r[1] for r in breakdown_rows]
        left = [0.0] * len(breakdown_rows)
        for ki, k in enumerate(keys):
            widths = [float(r[2 + ki]) if r[2 + ki] != "-" else 0.0 for r in breakdown_rows]
            ax.barh(bar_names, widths, left=left, label=k.replace("_", " "))
            left = [a + b for a, b in zip(left, widths, strict=True)]
        ax.invert_yaxis()
        ax.set_xlabel("mean points per seat-game")
        ax.legend(
            fontsize=7, ncols=min(5, len(keys)), loc="upper center", bbox_to_anchor=(0.5, -0.35)
        )
        ax.set_title("Mean score breakdown")
        blocks.append(
            Block("figure", figure=_figure(fig, "Where the points come from", "breakdown"))
        )
        blocks.append(
            Block(
                "table",
                headers=["run", "agent", *(k.replace("_", " ") for k in keys)],
                rows=breakdown_rows,
            )
        )

    # -- tournaments
    for label, run in zip(labels, runs, strict=True):
        if run.manifest.mode == "seats":
            continue
        t = tournament_summary(run, bootstrap=100)
        blocks.append(Block("h2", f"Ratings ({label}: {t['mode']}, {t['games']} games)"))
        blocks.append(
            Block(
                "table",
                headers=["agent", "mu", "95% (bootstrap)", "sigma", "games"],
                rows=[
                    [
                        r["agent"],
                        _num(r["mu"], 1),
                        _interval(r["mu_ci95"], percent=False),
                        _num(r["sigma"]),
                        str(r["games"]),
                    ]
                    for r in t["ratings"]
                ],
            )
        )
        blocks.append(
            Block(
                "table",
                headers=["row ahead of column", *t["agents"]],
                rows=[
                    [
                        a,
                        *(
                            ""
                            if i == j
                            else f"{_pct(t['win_matrix'][i][j])} of {t['meetings'][i][j]}"
                            for j in range(len(t["agents"]))
                        ),
                    ]
                    for i, a in enumerate(t["agents"])
                ],
            )
        )

    # -- length
    blocks.append(Block("h2", "Game length"))
    fig, ax = plt.subplots(figsize=(7, 3.4))
    length_rows = []
    for label, run in zip(labels, runs, strict=True):
        lengths = length_summary(run)
        use_turns = len(lengths["turns"]) == lengths["games"]
        data = lengths["turns"] if use_turns else lengths["actions"]
        low, high = (min(data), max(data)) if data else (0.0, 1.0)
        step = max(1, int((high - low) // 30) + 1)
        bins = [low - 0.5 + step * i for i in range(int((high - low) // step) + 2)]
        ax.hist(data, bins=bins, alpha=0.6, label=label)
        reasons = ", ".join(f"{k}: {v}" for k, v in sorted(lengths["end_reasons"].items()))
        length_rows.append(
            [
                label,
                str(lengths["games"]),
                f"{_num(lengths['mean_actions'], 1)} ± {_num(lengths['actions_ci95_half'], 1)}",
                f"{_num(lengths['mean_turns'], 1)} ± {_num(lengths['turns_ci95_half'], 1)}"
                if use_turns
                else "-",
                reasons,
            ]
        )
    unit = (
        "turns"
        if all(len(length_summary(r)["turns"]) == r.games.num_rows for r in runs)
        else "actions"
    )
    ax.set_xlabel(unit)
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({unit})")
    if len(runs) > 1:
        ax.legend(fontsize=8)
    blocks.append(Block("figure", figure=_figure(fig, "Distribution of game length", "length")))
    blocks.append(
        Block(
            "table",
            headers=["run", "games", "actions ± 95%", "turns ± 95%", "how the games ended"],
            rows=length_rows,
        )
    )

    # -- the game's own metrics
    tables = [ratio_table(run) for run in runs]
    groups: list[str] = []
    for table in tables:
        for r in table:
            if r["group"] not in groups:
                groups.append(r["group"])
    if groups:
        blocks.append(Block("h2", f"{spec.name}'s own measures"))
        blocks.append(
            Block(
                "p",
                "Rates over all games of a run (a sum over games divided by a sum over "
                "games), with bootstrap 95% intervals over games. Defined in the game's "
                "metrics module.",
            )
        )
    for group in groups:
        entries = [[r for r in table if r["group"] == group] for table in tables]
        labels_in_group: list[str] = []
        for entry in entries:
            for r in entry:
                if r["label"] not in labels_in_group:
                    labels_in_group.append(r["label"])
        percent = any(r["percent"] for entry in entries for r in entry)
        many = len(labels_in_group) > 6
        fig, ax = plt.subplots(
            figsize=(max(5.0, 0.7 * len(labels_in_group) + 2), 4.6 if many else 3.4)
        )
        group_series = []
        for label, entry in zip(labels, entries, strict=True):
            by = {r["label"]: r for r in entry}
            values = [by[k]["value"] if k in by else None for k in labels_in_group]
            bounds: list[tuple[float, float] | None] = [
                (by[k]["ci95"][0], by[k]["ci95"][1])
                if k in by and by[k]["ci95"][0] is not None
                else None
                for k in labels_in_group
            ]
            group_series.append((label, values, bounds))
        short = [k.split(":")[0] for k in labels_in_group]
        _grouped_bars(ax, short, group_series, scale=100.0 if percent else 1.0)
        ax.set_title(group + (" (%)" if percent else ""))
        slug = "".join(c if c.isalnum() else "-" for c in group.lower())
        blocks.append(Block("figure", figure=_figure(fig, group, f"metric-{slug}")))
    if groups:
        ratio_rows = []
        for label, table in zip(labels, tables, strict=True):
            for r in table:
                value = _pct(r["value"]) if r["percent"] else _num(r["value"])
                ratio_rows.append(
                    [
                        label,
                        r["label"],
                        value,
                        _interval(r["ci95"], percent=r["percent"]),
                        str(r["games"]),
                        _num(r["denominator"], 0),
                    ]
                )
        blocks.append(
            Block(
                "table",
                headers=["run", "measure", "value", "95%", "games", "out of"],
                rows=ratio_rows,
            )
        )
    means = [metric_means(run) for run in runs]
    # The game's groups of per-game counts (e.g. tiles taken by kind), drawn as means ± 95%.
    for prefix, group_title in game_metrics(game).groups.items():
        by_run = [{r["metric"]: r for r in m if r["metric"].startswith(prefix)} for m in means]
        names_in_group = sorted({k for b in by_run for k in b})
        if not names_in_group:
            continue
        fig, ax = plt.subplots(figsize=(max(5.0, 0.6 * len(names_in_group) + 2), 3.6))
        mean_series = []
        for label, b in zip(labels, by_run, strict=True):
            values = [b[k]["mean"] if k in b else None for k in names_in_group]
            spans: list[tuple[float, float] | None] = [
                (b[k]["mean"] - b[k]["ci95_half"], b[k]["mean"] + b[k]["ci95_half"])
                if k in b
                else None
                for k in names_in_group
            ]
            mean_series.append((label, values, spans))
        _grouped_bars(ax, [k[len(prefix) :] for k in names_in_group], mean_series)
        ax.set_title(group_title)
        slug = "".join(c if c.isalnum() else "-" for c in prefix.strip("."))
        blocks.append(
            Block("figure", figure=_figure(fig, f"{group_title} (mean ± 95%)", f"group-{slug}"))
        )
    if any(means):
        blocks.append(Block("h2", "Every metric, per game"))
        names: list[str] = []
        for m in means:
            for r in m:
                if r["metric"] not in names:
                    names.append(r["metric"])
        by_run = [{r["metric"]: r for r in m} for m in means]
        mean_rows = []
        for name in names:
            cells = []
            for b in by_run:
                found = b.get(name)
                cells.append(
                    "-" if found is None else f"{_num(found['mean'])} ± {_num(found['ci95_half'])}"
                )
            mean_rows.append([name, *cells])
        blocks.append(
            Block(
                "table",
                headers=[
                    "metric (mean per game ± 95%)",
                    *(
                        f"{lab} ({r.games.num_rows} games)"
                        for lab, r in zip(labels, runs, strict=True)
                    ),
                ],
                rows=mean_rows,
            )
        )
    return title, blocks


#: Figures drawn across the page rather than two to a row.
WIDE = ("breakdown", "seats")

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; }
th { background: #f3f0e8; } td:first-child, th:first-child { text-align: left; }
figure { margin: 0.6em 0.6em 0.6em 0; display: inline-block; vertical-align: top;
  max-width: 540px; } figure.wide { max-width: 100%; display: block; }
figcaption { font-size: 0.85em; color: #555; }
img { max-width: 100%; }
"""


def render_html(title: str, blocks: Sequence[Block]) -> str:
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    for b in blocks:
        if b.kind == "h2":
            parts.append(f"<h2>{html.escape(b.text)}</h2>")
        elif b.kind == "p":
            parts.append(f"<p>{html.escape(b.text)}</p>")
        elif b.kind == "table":
            head = "".join(f"<th>{html.escape(h)}</th>" for h in b.headers)
            body = "".join(
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                for row in b.rows
            )
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif b.kind == "figure" and b.figure is not None:
            data = base64.b64encode(b.figure.png).decode("ascii")
            caption = html.escape(b.figure.caption)
            wide = ' class="wide"' if b.figure.name in WIDE else ""
            parts.append(
                f'<figure{wide}><img alt="{caption}" src="data:image/png;base64,{data}">'
                f"<figcaption>{caption}</figcaption></figure>"
            )
    parts.append("</body></html>")
    return "\n".join(parts)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(title: str, blocks: Sequence[Block], out: Path) -> str:
    """Markdown; the figures are written as ``<stem>-<name>.png`` beside ``out``."""
    lines = [f"# {title}", ""]
    for b in blocks:
        if b.kind == "h2":
            lines += [f"## {b.text}", ""]
        elif b.kind == "p":
            lines += [b.text, ""]
        elif b.kind == "table":
            lines.append("| " + " | ".join(_md_cell(h) for h in b.headers) + " |")
            lines.append("|" + "|".join("---" for _ in b.headers) + "|")
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
            lines.append("")
        elif b.kind == "figure" and b.figure is not None:
            png = out.with_name(f"{out.stem}-{b.figure.name}.png")
            png.write_bytes(b.figure.png)
            lines += [f"![{b.figure.caption}]({png.name})", ""]
    return "\n".join(lines)


def write_report(runs: Sequence[Run], out: Path) -> None:
    title, blocks = build_report(runs)
    if out.suffix == ".md":
        text = render_markdown(title, blocks, out)
    else:
        text = render_html(title, blocks)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
