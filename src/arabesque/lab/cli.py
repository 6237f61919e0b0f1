"""The lab's commands: ``simulate --out``, ``tournament``, ``report``, ``compare``.

``arabesque.cli`` builds the parsers with ``add_lab_parsers`` and hands ``simulate --out`` to
``simulate_to_folder``; every error is a ``ValueError`` that the main command line prints as
one line with exit status 2, raised before anything is written.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arabesque.core.game import Params


def _need_lab() -> None:
    try:
        import pyarrow  # noqa: F401
    except ModuleNotFoundError:
        raise ValueError(
            "the lab needs its extra: pip install 'arabesque[lab]' (pyarrow, openskill, matplotlib)"
        ) from None


def _progress(show: bool) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        "eta",
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not show,
        transient=True,
    )


def _run_with_progress(
    plan: Any, out: Path, seeds: Sequence[int], args: argparse.Namespace, what: str
) -> Any:
    from arabesque.lab.run import run_plan

    progress = _progress(sys.stderr.isatty())
    with progress:
        task = progress.add_task(what, total=None)

        def on_start(todo: int, already: int) -> None:
            progress.update(task, total=todo)
            if already:
                print(
                    f"{out}: {already} of the {len(seeds)} seeds are already there; playing "
                    f"the {todo} others",
                    file=sys.stderr,
                )

        outcome = run_plan(
            plan,
            out,
            seeds,
            resume=args.resume,
            workers=args.workers,
            backend=args.backend,
            ray_address=args.ray_address,
            on_start=on_start,
            on_game=lambda: progress.advance(task),
        )
    if outcome.interrupted:
        print(
            f"arabesque: interrupted; {outcome.already + outcome.played} of {outcome.requested} "
            f"games are in {out} (--resume plays the rest)",
            file=sys.stderr,
        )
    return outcome


# -- simulate --out ----------------------------------------------------------------------------


def simulate_to_folder(
    args: argparse.Namespace, game_id: str, params: Params, agents: Sequence[str]
) -> int:
    """``simulate --out DIR``: the games as Parquet rows, then the usual summary of the
    games in the folder."""
    _need_lab()
    from arabesque.lab.run import Plan
    from arabesque.lab.store import load_run

    if args.record is not None:
        raise ValueError("--record and --out are separate runs: give one of them")
    if args.backend == "ray" and args.workers != 1:
        raise ValueError("--workers is for the local backend; Ray uses the cluster's CPUs")
    plan = Plan(game_id, params, tuple(agents), "seats", (tuple(agents),))
    out = Path(args.out)
    seeds = range(args.seed, args.seed + args.games)
    start = time.perf_counter()
    outcome = _run_with_progress(plan, out, seeds, args, "simulating")
    elapsed = time.perf_counter() - start
    run = load_run(out) if (outcome.played or outcome.already) else None
    if run is None:
        print(f"no game finished; {out} holds none", file=sys.stderr)
        return 130 if outcome.interrupted else 0
    from arabesque.lab.analysis import seat_summary

    rows = seat_summary(run)
    if args.json:
        print(json.dumps({"folder": str(out), "games": run.games.num_rows, "seats": rows}))
    else:
        out_console = Console(markup=False, highlight=False)
        out_console.print(
            f"{run.games.num_rows} games in {out} ({outcome.played} played now, {elapsed:.1f} s)"
        )
        _print_seat_table(out_console, rows)
    return 130 if outcome.interrupted else 0


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _print_seat_table(out: Console, rows: Sequence[dict[str, Any]]) -> None:
    table = Table(show_edge=False)
    for name in ("seat", "agent", "games", "win rate", "95% interval", "score", "±95%"):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for r in rows:
        low, high = r["win_rate_ci95"]
        table.add_row(
            str(r["seat"]),
            Text(r["agent"]),
            str(r["games"]),
            _pct(r["win_rate"]),
            f"{_pct(low)}–{_pct(high)}",
            f"{r['mean_score']:.1f}",
            f"{r['score_ci95_half']:.1f}",
        )
    out.print(table)


# -- tournament --------------------------------------------------------------------------------


def cmd_tournament(
    args: argparse.Namespace, make_params: Callable[[argparse.Namespace], tuple[str, Params]]
) -> int:
    _need_lab()
    from arabesque.lab.analysis import tournament_summary
    from arabesque.lab.run import Plan
    from arabesque.lab.store import load_run
    from arabesque.lab.tournament import tournament_lineups

    game_id, params = make_params(args)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    mode = "one-vs-all" if args.one_vs_all else "round-robin"
    cycle = tournament_lineups(agents, params.num_players, mode)
    games = math.ceil(args.games / len(cycle)) * len(cycle)
    if games != args.games:
        print(
            f"--games {args.games} rounded up to {games}: whole cycles of {len(cycle)} "
            f"line-ups, so every agent sits in every seat equally often",
            file=sys.stderr,
        )
    plan = Plan(game_id, params, tuple(agents), mode, tuple(cycle))
    temporary = None
    if args.out is None:
        if args.resume:
            raise ValueError("--resume needs the --out folder of the run to go on with")
        temporary = tempfile.TemporaryDirectory(prefix="arabesque-tournament-")
        out = Path(temporary.name) / "run"
    else:
        out = Path(args.out)
    try:
        seeds = range(args.seed, args.seed + games)
        outcome = _run_with_progress(plan, out, seeds, args, "tournament")
        if not (outcome.played or outcome.already):
            print("no game finished", file=sys.stderr)
            return 130 if outcome.interrupted else 0
        run = load_run(out)
        summary = tournament_summary(run, bootstrap=args.bootstrap)
    finally:
        if temporary is not None:
            temporary.cleanup()
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        _print_tournament(summary)
        if args.out is not None:
            print(f"results in {out} (arabesque report {out} --out report.html)")
    return 130 if outcome.interrupted else 0


def _print_tournament(summary: dict[str, Any]) -> None:
    out = Console(markup=False, highlight=False)
    out.print(
        f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
        f"{summary['mode']}"
    )
    table = Table(title="ratings (openskill Plackett–Luce)", show_edge=False)
    for name in ("agent", "mu", "95% interval", "sigma", "games", "win rate"):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for r in summary["ratings"]:
        low, high = r["mu_ci95"]
        interval = "-" if low is None else f"{low:.1f}–{high:.1f}"
        table.add_row(
            Text(r["agent"]),
            f"{r['mu']:.1f}",
            interval,
            f"{r['sigma']:.2f}",
            str(r["games"]),
            _pct(r["win_rate"]),
        )
    out.print(table)
    agents = summary["agents"]
    matrix = Table(title="row finished ahead of column (share of meetings)", show_edge=False)
    matrix.add_column("")
    for a in agents:
        matrix.add_column(Text(a), justify="right")
    for i, a in enumerate(agents):
        cells = [
            "" if i == j else f"{_pct(v)} of {summary['meetings'][i][j]}"
            for j, v in enumerate(summary["win_matrix"][i])
        ]
        matrix.add_row(Text(a), *cells)
    out.print(matrix)


# -- report and compare ------------------------------------------------------------------------


def cmd_report(args: argparse.Namespace) -> int:
    _need_lab()
    from arabesque.lab.report import write_report
    from arabesque.lab.store import load_run

    out = Path(args.out)
    if out.suffix not in (".html", ".md"):
        raise ValueError(f"--out {args.out}: name a .html or .md file")
    runs = [load_run(folder) for folder in args.runs]
    games = {r.manifest.game for r in runs}
    if len(games) > 1:
        raise ValueError(f"the runs are of different games ({', '.join(sorted(games))})")
    write_report(runs, out)
    print(f"wrote {out}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    _need_lab()
    from arabesque.lab.compare import compare_runs
    from arabesque.lab.store import load_run

    a, b = load_run(args.run_a), load_run(args.run_b)
    result = compare_runs(a, b)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    out = Console(markup=False, highlight=False)
    out.print(
        f"{result['game']}: {result['a']['label']} ({result['a']['games']} games) → "
        f"{result['b']['label']} ({result['b']['games']} games); "
        f"{result['paired']} seeds paired",
        soft_wrap=True,
    )
    changed = [x for x in result["lines"] if x["significant"]]
    rest = [x for x in result["lines"] if not x["significant"]]
    if result["params_changed"]:
        what = "; ".join(
            f"{k}: {_short(a)} → {_short(b)}" for k, (a, b) in result["params_changed"].items()
        )
        out.print(f"params changed: {what}", soft_wrap=True)
    if not result["same_agents"]:
        out.print("note: the two runs were played by different agents", soft_wrap=True)
    out.print(f"Changed (the 95% interval of B − A excludes 0): {len(changed)}")
    for line in changed:
        out.print(f"  {line['verdict']}  [{line['games']} games]", soft_wrap=True)
    # Per-game metric lines without a change are many (every scoring card ...): shown on
    # demand, so the changes stand out.
    shown = rest if args.all else [x for x in rest if not x["measure"].endswith("(per game)")]
    out.print(f"No clear change: {len(rest)}")
    for line in shown:
        out.print(f"  {line['verdict']}  [{line['games']} games]", soft_wrap=True)
    if len(shown) < len(rest):
        out.print(f"  ... and {len(rest) - len(shown)} per-game metrics (--all shows them)")
    return 0


def _short(value: Any) -> str:
    """A digest cut to 12 characters (enough to tell two files apart on screen)."""
    text = str(value)
    return text[:19] if text.startswith("sha256:") else text[:12] if len(text) == 64 else text


def add_backend_options(p: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--ray-address`` (simulate --out and tournament)."""
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where the games are played: local processes (--workers) or a Ray cluster "
        "(needs --out for simulate; pip install 'arabesque[ray]')",
    )
    p.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help="the Ray cluster to use (default: $RAY_ADDRESS, else a local Ray)",
    )


def add_lab_parsers(
    sub: Any,
    positive_int: Callable[[str], Any],
    non_negative_int: Callable[[str], Any],
    integer: Callable[[str], Any],
    add_game_options: Callable[[argparse.ArgumentParser], None],
    make_params: Callable[[argparse.Namespace], tuple[str, Params]],
) -> None:
    p = sub.add_parser(
        "tournament",
        help="agents against each other over seat assignments; win matrix and ratings",
        description="Play a tournament: round robin over seat assignments (every agent in "
        "every seat equally often) or one-vs-all (the first agent is the field). Prints "
        "openskill (Plackett–Luce) ratings with bootstrap 95% intervals and the pairwise "
        "win matrix. With --out the games are kept as Parquet (see docs/designers.md).",
    )
    p.add_argument("game")
    p.add_argument("--agents", required=True, help="comma-separated agent specs (2 or more)")
    p.add_argument("--players", type=positive_int, help="players per game")
    p.add_argument(
        "--games", type=positive_int, default=60, help="games (rounded up to whole cycles)"
    )
    p.add_argument("--seed", type=integer, default=0, help="game i uses seed SEED + i")
    p.add_argument(
        "--one-vs-all",
        action="store_true",
        help="the first agent fills the other seats against each other agent in turn",
    )
    p.add_argument("--out", metavar="DIR", help="write the games as Parquet into DIR")
    p.add_argument(
        "--resume", action="store_true", help="play only the seeds DIR does not hold yet"
    )
    p.add_argument(
        "--bootstrap",
        type=non_negative_int,
        default=100,
        help="bootstrap resamples for the ratings' intervals (default 100)",
    )
    p.add_argument("--workers", type=positive_int, default=1, help="processes (default 1)")
    add_backend_options(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_game_options(p)
    p.set_defaults(handler=lambda a: cmd_tournament(a, make_params))

    p = sub.add_parser(
        "report",
        help="an HTML (or Markdown) report with plots of results folders",
        description="Write a self-contained report of one or more results folders of one "
        "game: seats, agents, scores, game length, the game's own metrics.",
    )
    p.add_argument("runs", nargs="+", metavar="RUN", help="results folders (--out of a run)")
    p.add_argument("--out", required=True, metavar="FILE", help="report.html or report.md")
    p.set_defaults(handler=cmd_report)

    p = sub.add_parser(
        "compare",
        help="what changed between two results folders (paired by seed), with verdicts",
        description="Compare two results folders of one game (e.g. two components files, "
        "same agents and seeds): every measure as a difference with its 95% interval, "
        "paired by seed where the seeds match.",
    )
    p.add_argument("run_a", metavar="RUN_A")
    p.add_argument("run_b", metavar="RUN_B")
    p.add_argument(
        "--all", action="store_true", help="also list every per-game metric that did not change"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_compare)
