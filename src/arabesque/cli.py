"""The ``arabesque`` command line: play, simulate, replay, bench, games, agents, cards,
observation.

Every user error (unknown game, bad agent spec, bad params or components, unreadable or
malformed file, a record that does not replay) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arabesque import __version__
from arabesque.core.errors import ArabesqueError
from arabesque.core.game import GameSpec, Params
from arabesque.core.records import GameRecord
from arabesque.core.registry import game_ids, get_game

EXIT_ERROR = 2


class CliError(ValueError):
    """A usage error found by the command line itself (reported like an engine error)."""


def _out() -> Console:
    # Markup off: card names, action texts and record contents may hold square brackets.
    return Console(markup=False, highlight=False)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=1))


def _default_players(spec: GameSpec) -> int:
    from arabesque.bench import default_players

    return default_players(spec)


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options the user asked for (players aside). Only those given are passed, so
    a game without an option refuses it by name (``ParamsError``) instead of ignoring it."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CliError(f"--option {item!r} is not KEY=VALUE")
        options[key.strip().replace("-", "_")] = _option_value(value.strip())
    if getattr(args, "my_precious", False):
        options["my_precious"] = True
    if getattr(args, "components", None) is not None:
        options["components"] = args.components
    if getattr(args, "variant", None) is not None:
        options["variant"] = args.variant
    return options


def _option_value(text: str) -> Any:
    """A JSON value if it parses as one (true, 3, null), else the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _make_params(spec: GameSpec, players: int | None, options: dict[str, Any]) -> Params:
    num_players = _default_players(spec) if players is None else players
    return spec.make_params(num_players=num_players, **options)


# -- play ------------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    players = _default_players(spec) if args.players is None else args.players
    bots = players - 1 if args.bots is None else args.bots
    if not 0 <= bots <= players:
        raise CliError(f"--bots must be between 0 and the {players} players, got {bots}")
    # Validate here so a bad option fails before the terminal UI takes over the screen.
    options = _game_options(args)
    _make_params(spec, players, options)
    try:
        from arabesque.tui.play import main as play_main
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("arabesque"):
            raise
        raise CliError("terminal play is not available in this installation yet") from exc
    return int(
        play_main(
            game_id=args.game,
            num_players=players,
            bots=bots,
            agent=args.agent,
            seed=args.seed,
            options=options,
            window_s=args.window,
            bot_delay=args.bot_delay,
        )
    )


# -- simulate --------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _simulation_table(summary: dict[str, Any], spec: GameSpec, elapsed: float) -> None:
    out = _out()
    games = summary["games"]
    partial = (
        f"PARTIAL RESULTS: interrupted after {games} of {summary['games_requested']} games"
        if summary["partial"]
        else ""
    )
    if not games:
        out.print(f"{partial}: no game had finished, so there are no statistics.")
        return
    first, last = summary["seeds"]
    if partial:
        out.print(f"{partial}; the statistics below cover only these games.", soft_wrap=True)
    out.print(
        f"{spec.name}: {games} games, {summary['params']['num_players']} players, "
        f"seeds {first}..{last}, {elapsed:.1f} s"
    )
    table = Table(show_edge=False)
    for name in ("seat", "agent", "wins", "win rate", "95% interval", "score (mean ± std)", "rank"):
        table.add_column(name, justify="left" if name == "agent" else "right")
    for seat in summary["seats"]:
        low, high = seat["win_rate_ci95"]
        table.add_row(
            Text(str(seat["seat"])),
            Text(seat["agent"]),
            Text(str(seat["wins"])),
            Text(f"{100 * seat['win_rate']:.1f}%"),
            Text(f"{100 * low:.1f}–{100 * high:.1f}%"),
            Text(f"{_fmt(seat['mean_score'])} ± {_fmt(seat['std_score'])}"),
            Text(_fmt(seat["mean_rank"])),
        )
    out.print(table)
    length = f"{_fmt(summary['mean_actions'], 1)} ± {_fmt(summary['std_actions'], 1)} actions"
    if summary["mean_turns"] is not None:
        length += (
            f", {_fmt(summary['mean_turns'], 1)} ± {_fmt(summary['std_turns'], 1)} turns "
            f"(median {summary['median_turns']:g}, "
            f"range {summary['min_turns']}–{summary['max_turns']})"
        )
    out.print(f"Game length: {length}")
    out.print(
        f"Shared victories: {summary['shared_victories']} of {games} games; "
        f"{summary['win_counting']}, so the wins may add up to more than the games.",
        soft_wrap=True,
    )
    if partial:
        out.print(f"{partial} (the first {games} seeds).", soft_wrap=True)


def _show_progress(stderr: TextIO) -> bool:
    """Whether ``simulate`` draws its progress bar. The bar goes to stderr and vanishes when
    the run ends, so it never mixes with what stdout carries (the table, or the JSON: --json
    keeps the bar). It is drawn only when stderr is a terminal, where someone is watching;
    a pipe or a log file gets no bar."""
    return stderr.isatty()


def cmd_simulate(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from arabesque.sim.batch import BatchInterrupted, expand_agents, run_games, summarize

    if args.overwrite and args.record is None:
        raise CliError("--overwrite applies to record files: add --record DIR, or drop it")
    spec = get_game(args.game)
    params = _make_params(spec, args.players, _game_options(args))
    agents = expand_agents(args.agents.split(","), params.num_players)
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not _show_progress(sys.stderr),
        transient=True,
    )
    start = time.perf_counter()
    interrupted = False
    with progress:
        task = progress.add_task("simulating", total=args.games)
        try:
            results = run_games(
                args.game,
                params,
                agents,
                games=args.games,
                seed=args.seed,
                workers=args.workers,
                record_dir=args.record,
                on_result=lambda _result: progress.advance(task),
                overwrite=args.overwrite,
            )
        except BatchInterrupted as stop:
            # Ctrl-C: report the games finished so far (the first seeds, in order), marked
            # partial, and exit as an interrupted program does (128 + SIGINT).
            results = stop.results
            interrupted = True
    elapsed = time.perf_counter() - start
    summary = summarize(args.game, params, agents, args.seed, results, requested=args.games)
    if interrupted:
        rerun = f" (--games {len(results)} --seed {args.seed} gives them again)" if results else ""
        print(
            f"arabesque simulate: interrupted after {len(results)} of {args.games} games; "
            f"the statistics are partial{rerun}",
            file=sys.stderr,
        )
    if args.json:
        _print_json(summary)
    else:
        _simulation_table(summary, spec, elapsed)
        if args.record is not None and results:
            _out().print(f"Records written to {args.record}/game-<seed>.json")
    return 130 if interrupted else 0


# -- replay ----------------------------------------------------------------------------------


def _pause(step: int) -> str:
    """Wait for Enter before the next step: "next", "quit", or "eof" when input has ended
    (nobody is there to press Enter, so the replay runs on to the end)."""
    print(f"-- step {step}: Enter for the next step, q to quit --", end="", file=sys.stderr)
    sys.stderr.flush()
    line = sys.stdin.readline()
    if not line:
        print(file=sys.stderr)
        return "eof"
    return "quit" if line.strip().lower() in ("q", "quit") else "next"


def _final_table(summary: dict[str, Any]) -> None:
    out = _out()
    state_word = "final" if summary["is_over"] else "so far (the game is not finished)"
    out.print(f"Scores {state_word}:")
    table = Table(show_edge=False)
    for name in ("seat", "rank", "score", "breakdown"):
        table.add_column(name, justify="left" if name == "breakdown" else "right")
    for seat, (score, rank) in enumerate(zip(summary["scores"], summary["ranking"], strict=True)):
        parts = ", ".join(f"{k} {v}" for k, v in score["breakdown"].items() if v)
        table.add_row(Text(str(seat)), Text(str(rank)), Text(str(score["total"])), Text(parts))
    out.print(table)
    if summary["holdings"] is not None:
        out.print("Holdings:")
        for seat, cards in enumerate(summary["holdings"]):
            names = ", ".join(f"{c.get('name')} #{c.get('id')}" for c in cards) or "nothing"
            out.print(f"  player {seat}: {names}", soft_wrap=True)


def cmd_replay(args: argparse.Namespace) -> int:
    from arabesque.sim.replay import describe_event, final_summary, replay_steps

    # Bounded and checked (size, nesting, embedded data, compatibility) before any output.
    record = GameRecord.load(args.file)
    record.check_compatible()
    if record.engine_version != __version__:
        print(
            f"note: recorded with engine {record.engine_version}, replaying with {__version__} "
            f"(the same record compatibility, {record.record_compat}: the replay is exact)",
            file=sys.stderr,
        )
    if args.json:
        _print_json({"file": str(args.file), **final_summary(record.replay())})
        return 0
    out = _out()
    spec = get_game(record.game)
    steps = replay_steps(record)
    # The setup is built, and so checked, before the header: the header then quotes the
    # game's own player count, never a value of an unchecked record.
    setup = next(steps)
    out.print(
        f"{spec.name}, {setup[1].num_players} players, seed {record.seed}, "
        f"{len(record.actions)} recorded actions"
    )
    pausing = args.step
    state = None
    for entry, after in itertools.chain([setup], steps):
        state = after
        if entry.step == 0:
            out.print("setup")
        else:
            out.print(f"{entry.step:>5}  player {entry.player}  {entry.action}", soft_wrap=True)
        for event in entry.events:
            out.print(f"         {describe_event(event)}", soft_wrap=True)
        if pausing and entry.step < len(record.actions):
            answer = _pause(entry.step)
            if answer == "quit":
                out.print(f"stopped after step {entry.step}")
                return 0
            pausing = answer == "next"
    assert state is not None
    _final_table(final_summary(state))
    return 0


# -- bench -----------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    from arabesque.bench import RATES, bench

    if not args.json:
        print(f"benchmarking {args.game} for {args.seconds:g} s ...", file=sys.stderr)
    result = bench(
        args.game, args.seconds, num_players=args.players, seed=args.seed, **_game_options(args)
    )
    if args.json:
        _print_json(result)
        return 0
    out = _out()
    length = result["mean_game_length"]
    out.print(
        f"{args.game}, {result['players']} players, random playouts on one process, "
        f"{result['seconds']:.2f} s"
    )
    out.print(f"  games_per_s       {result['games_per_s']:.1f}  ({result['games']} games)")
    out.print(f"  steps_per_s       {result['steps_per_s']:.0f}  ({result['steps']} steps)")
    out.print(f"  mean_game_length  {_fmt(length, 1)} steps")
    for name in RATES:
        if name in result:
            ratio = result["ratios_to_steps"][name]
            out.print(f"  {name:<18}{result[name]:.0f}  ({ratio:.2f}x steps_per_s)")
    out.print(f"  {result['step']}", soft_wrap=True)
    return 0


# -- games, agents, cards --------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for gid in game_ids():
        spec = get_game(gid)
        rows.append(
            {
                "id": spec.id,
                "name": spec.name,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "simultaneous": spec.simultaneous,
                "hidden_information": spec.hidden_information,
                "chance": spec.chance,
                "real_time": spec.real_time,
            }
        )
    if args.json:
        _print_json(rows)
        return 0
    table = Table(show_edge=False)
    for name in ("id", "name", "players", "traits"):
        table.add_column(name)
    traits = ("simultaneous", "hidden_information", "chance", "real_time")
    for row in rows:
        table.add_row(
            Text(row["id"]),
            Text(row["name"]),
            Text(f"{row['min_players']}-{row['max_players']}"),
            Text(", ".join(t.replace("_", " ") for t in traits if row[t])),
        )
    _out().print(table)
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    from arabesque.agents.registry import agent_names

    get_game(args.game)
    names = agent_names(args.game)
    if args.json:
        _print_json(names)
    else:
        for name in names:
            print(name)
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    if spec.catalog is None:
        raise CliError(f"{args.game} has no component table")
    data = spec.catalog(args.components)
    if args.json:
        _print_json(data)
        return 0
    out = _out()
    out.print(f"{data['components']} ({data['source']})")
    # Every list of records in the catalog is a table (cards, lamp cards, tiles ...).
    for title, rows in data.items():
        if not (isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows)):
            continue
        columns = list(rows[0])
        table = Table(title=title.replace("_", " "), show_edge=False)
        for name in columns:
            numeric = all(isinstance(r.get(name), int) for r in rows)
            table.add_column(name, justify="right" if numeric else "left")
        for row in rows:
            table.add_row(*(Text("-" if row.get(k) is None else str(row.get(k))) for k in columns))
        out.print(table)
    return 0


def cmd_observation(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    params = _make_params(spec, args.players, _game_options(args))
    layout = spec.observer(params).layout.describe()
    shape = spec.observation_shape(params)
    if args.json:
        _print_json({"game": spec.id, "params": params.to_json(), "shape": shape, "fields": layout})
        return 0
    out = _out()
    out.print(f"{spec.name}, {params.num_players} players: observation shape {shape} (float32)")
    table = Table(show_edge=False)
    for name in ("name", "start", "size", "doc"):
        table.add_column(name, justify="right" if name in ("start", "size") else "left")
    for field in layout:
        table.add_row(field["name"], str(field["start"]), str(field["size"]), field["doc"])
    out.print(table)
    return 0


# -- parser ----------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, like every other error of the command line."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--my-precious", action="store_true", help='magic-lamp: the "My Precious" variant'
    )
    p.add_argument("--components", metavar="FILE", help="magic-lamp: a components TOML file")
    p.add_argument(
        "--variant",
        metavar="NAME",
        help="ali-baba: standard, aladdins-lamp, equal-treasures or smaller-cave (2 players)",
    )
    p.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="KEY=VALUE",
        help="any game option (repeatable), e.g. -o max_turns=50",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="arabesque", description="Arabian Nights board games: play, simulate, replay."
    )
    parser.add_argument("--version", action="version", version=f"arabesque {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("play", help="play in the terminal against bots")
    p.add_argument("game")
    p.add_argument("--players", type=_positive_int, help="number of players (default 4)")
    p.add_argument("--bots", type=int, help="how many seats bots take (default players - 1)")
    p.add_argument("--agent", default="heuristic", help="agent spec of the bots")
    p.add_argument("--seed", type=int, help="game seed (default: random)")
    _add_game_options(p)
    p.add_argument(
        "--window",
        type=_positive_float,
        default=3.0,
        metavar="SECONDS",
        help="how long the lamp race waits for your key press (default 3.0)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause between bot moves so you can follow them (default 0.6)",
    )
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser(
        "simulate",
        help="play many games between agents and report statistics",
        description="Play many games between agents and report statistics. Ctrl-C stops the "
        "run and prints the statistics of the games finished so far, marked partial (exit "
        "status 130).",
    )
    p.add_argument("game")
    p.add_argument("--players", type=_positive_int, help="number of players")
    p.add_argument(
        "--agents",
        default="random",
        help="comma-separated agent specs, one per seat, or one for every seat",
    )
    p.add_argument("--games", type=_positive_int, default=100)
    p.add_argument("--seed", type=int, default=0, help="game i uses seed SEED + i")
    _add_game_options(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object on stdout (the progress bar, if any, goes to stderr)",
    )
    p.add_argument(
        "--record",
        metavar="DIR",
        help="write each game to DIR/game-<seed>.json; refuses, before playing, if any of "
        "those files already exists (see --overwrite)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="with --record: replace record files of the same seeds left by an earlier run",
    )
    p.add_argument("--workers", type=_positive_int, default=1, help="processes (default 1)")
    p.set_defaults(handler=cmd_simulate)

    p = sub.add_parser("replay", help="show a game record step by step")
    p.add_argument("file", type=Path)
    p.add_argument("--json", action="store_true", help="print final scores and holdings")
    p.add_argument("--step", action="store_true", help="pause after each step")
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser("bench", help="random playouts per second on one process")
    p.add_argument("game")
    p.add_argument("--seconds", type=_positive_float, default=5.0)
    p.add_argument("--players", type=_positive_int)
    p.add_argument("--seed", type=int, default=0)
    _add_game_options(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_bench)

    p = sub.add_parser(
        "observation", help="the layout of a game's observation tensor (named slices)"
    )
    p.add_argument("game")
    p.add_argument("--players", type=_positive_int)
    _add_game_options(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_observation)

    p = sub.add_parser("games", help="list the games")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_games)

    p = sub.add_parser("agents", help="list the agents of a game")
    p.add_argument("game")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_agents)

    p = sub.add_parser("cards", help="the id table of a game's components")
    p.add_argument("game")
    p.add_argument("--components", metavar="FILE", help="a components TOML file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_cards)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except (ArabesqueError, ValueError) as exc:
        print(f"arabesque {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(f"arabesque {args.command}: error:{where} {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"arabesque {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
