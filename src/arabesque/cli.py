"""The ``arabesque`` command line: play, simulate, replay, bench, games, agents, cards,
observation.

Every user error (unknown game, bad agent spec, bad params or components, unreadable or
malformed file, a record that does not replay) is one line on stderr and exit status 2.
Output into a pipe whose reader has gone (``| head``) ends the command quietly, status 1.
"""

from __future__ import annotations

import argparse
import errno
import itertools
import json
import math
import os
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
from arabesque.lab.cli import add_backend_options, add_lab_parsers
from arabesque.server.cli import add_serve_parser
from arabesque.sim.verify import add_verify_parser

EXIT_ERROR = 2


class CliError(ValueError):
    """A usage error found by the command line itself (reported like an engine error)."""


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # Rich would exit by itself; ``main`` ends every command on a closed stdout the same
        # way, whether the output came through rich or through print.
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "the reader of the output has gone")


def _out() -> Console:
    # Markup off: card names, action texts and record contents may hold square brackets.
    return _Console(markup=False, highlight=False)


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


def _lab_params(args: argparse.Namespace) -> tuple[str, Params]:
    spec = get_game(args.game)
    return spec.id, _make_params(spec, args.players, _game_options(args))


# -- play ------------------------------------------------------------------------------------


#: The agent ``play`` gives the bots when --agent is not given.
DEFAULT_PLAY_AGENT = "heuristic"
#: ``--resume`` without a file: the most recent unfinished game.
RESUME_LATEST = ""


def _check_agent(spec: str, game_id: str) -> None:
    """Refuse an agent spec the registry cannot build, with its message (the one simulate
    gives: "unknown agent 'nope' for magic-lamp; known: heuristic, random")."""
    from arabesque.agents.registry import make_agent

    make_agent(spec, game_id, seed=0)


def _has_terminal() -> bool:
    """Whether both ends of the screen are a terminal: the game is drawn on stdout and read
    from the keys on stdin; with either one a pipe or a file, the screen would wait for keys
    that never come."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _need_terminal() -> None:
    if not _has_terminal():
        raise CliError(
            "play needs a terminal (its stdin and stdout are not one); to play games without "
            "one, see arabesque simulate"
        )


def _play_module() -> Any:
    try:
        from arabesque.tui import play
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("arabesque"):
            raise
        raise CliError("terminal play is not available in this installation yet") from exc
    return play


def _resume(args: argparse.Namespace) -> int:
    # The saved game keeps its own setup; an option that would change it is refused rather
    # than silently ignored. --window, --bot-delay and --assist are about this sitting, so
    # they apply.
    setup = {
        "--players": args.players,
        "--bots": args.bots,
        "--agent": args.agent,
        "--seed": args.seed,
        "--my-precious": args.my_precious or None,
        "--components": args.components,
        "--variant": args.variant,
        "--option": args.option,
    }
    given = [name for name, value in setup.items() if value is not None]
    if given:
        raise CliError(
            f"--resume goes on with the settings the game was started with; drop {', '.join(given)}"
        )
    target: str | None = args.resume or None
    game = args.game
    # "play --resume magic-lamp" reads the game as the FILE; take it as the game when no
    # such file exists, as the user meant.
    if target is not None and game is None and target in game_ids() and not Path(target).exists():
        game, target = target, None
    if game is not None:
        get_game(game)
    _need_terminal()
    play = _play_module()
    return int(
        play.resume(
            target=target,
            game_id=game,
            window_s=args.window,
            bot_delay=args.bot_delay,
            assist=args.assist,
        )
    )


def cmd_play(args: argparse.Namespace) -> int:
    if args.resume is not None:
        return _resume(args)
    if args.game is None:
        raise CliError(
            "which game? e.g. arabesque play magic-lamp (arabesque games lists them), or "
            "arabesque play --resume to continue a saved game"
        )
    spec = get_game(args.game)
    players = _default_players(spec) if args.players is None else args.players
    bots = players - 1 if args.bots is None else args.bots
    if not 0 <= bots <= players:
        raise CliError(f"--bots must be between 0 and the {players} players, got {bots}")
    # Validate here so a bad option or agent fails before the terminal UI takes the screen.
    options = _game_options(args)
    _make_params(spec, players, options)
    agent = DEFAULT_PLAY_AGENT if args.agent is None else args.agent
    _check_agent(agent, spec.id)
    _need_terminal()
    play = _play_module()
    return int(
        play.main(
            game_id=args.game,
            num_players=players,
            bots=bots,
            agent=agent,
            seed=args.seed,
            options=options,
            window_s=args.window,
            bot_delay=args.bot_delay,
            assist=args.assist,
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
    shared = summary["shared_victories"]
    if shared:
        # Only when it explains the table: how a win is counted is in --help (and the JSON).
        wins = sum(seat["wins"] for seat in summary["seats"])
        out.print(
            f"Shared victories: {shared} of {games} games, each a win for every winner, "
            f"so the wins add up to {wins}.",
            soft_wrap=True,
        )
    if partial:
        out.print(f"{partial} (the first {games} seeds).", soft_wrap=True)


def _win_counting() -> str:
    from arabesque.sim.batch import WIN_COUNTING

    return WIN_COUNTING


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
    if args.resume and args.out is None:
        raise CliError("--resume goes on with a results folder: add --out DIR, or drop it")
    if (args.backend != "local" or args.ray_address) and args.out is None:
        raise CliError("--backend ray keeps its results in a folder: add --out DIR")
    spec = get_game(args.game)
    params = _make_params(spec, args.players, _game_options(args))
    agents = expand_agents(args.agents.split(","), params.num_players)
    if args.out is not None:
        from arabesque.lab.cli import simulate_to_folder

        return simulate_to_folder(args, spec.id, params, agents)
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


def _final_table(summary: dict[str, Any]) -> None:
    from arabesque.sim.replay import seat_name

    out = _out()
    if summary["is_over"]:
        out.print("Final scores:")
    else:
        out.print("Scores so far (the game is not finished):")
    table = Table(show_edge=False)
    for name in ("rank", "player", "score", "breakdown"):
        table.add_column(name, justify="left" if name in ("player", "breakdown") else "right")
    order = sorted(range(len(summary["scores"])), key=lambda p: (summary["ranking"][p], p))
    for seat in order:
        score = summary["scores"][seat]
        parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in score["breakdown"].items() if v)
        table.add_row(
            Text(str(summary["ranking"][seat])),
            Text(seat_name(seat)),
            Text(str(score["total"])),
            Text(parts),
        )
    out.print(table)
    if summary["holdings"] is not None:
        out.print("Holdings:")
        for seat, cards in enumerate(summary["holdings"]):
            names = ", ".join(f"{c.get('name')} #{c.get('id')}" for c in cards) or "nothing"
            out.print(f"  {seat_name(seat)}: {names}", soft_wrap=True)


def cmd_replay(args: argparse.Namespace) -> int:
    from arabesque.core.errors import RecordError
    from arabesque.sim.replay import (
        event_describer,
        final_summary,
        record_header,
        replay_steps,
        seat_name,
    )

    if args.step and args.json:
        raise CliError(
            "--step and --json do not go together: --step steps through the game on screen, "
            "--json prints its final summary; choose one"
        )
    if args.step and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError(
            "--step needs a terminal to step through the game on; without --step the replay "
            "prints every step"
        )
    # Bounded and checked (size, nesting, embedded data, compatibility) before any output.
    record = GameRecord.load(args.file)
    record.check_compatible()
    if record.engine_version != __version__:
        print(
            f"note: recorded with engine {record.engine_version}, replaying with {__version__} "
            f"(the same record compatibility, {record.record_compat}: the replay is exact)",
            file=sys.stderr,
        )
    # Replayed whole before anything is shown: a record whose stored result disagrees with
    # its replay is not the game it claims to be, so it is refused, not shown as that game.
    # A step that does not replay is reported below, after the steps before it (so the
    # author of a scenario sees where it went wrong).
    final = None
    try:
        final = record.replay()
    except RecordError:
        if args.json or args.step:
            raise
    if final is not None:
        mismatch = record.result_mismatch(final)
        if mismatch is not None:
            raise RecordError(f"{args.file}: {mismatch}")
    if args.json:
        assert final is not None
        _print_json({"file": str(args.file), **final_summary(final)})
        return 0
    if args.step:
        from arabesque.tui.replay import ReplayApp

        ReplayApp(record, title=args.file.name).run()
        return 0
    out = _out()
    words = event_describer(record.game)
    steps = replay_steps(record)
    # The setup is built, and so checked, before the header: the header then quotes the
    # game's own params, never a value of an unchecked record.
    setup = next(steps)
    for text in record_header(record, setup[1], final):
        out.print(text, soft_wrap=True)
    state = None
    for entry, after in itertools.chain([setup], steps):
        state = after
        if entry.step == 0:
            out.print("\nSetup")
        else:
            out.print(f"{entry.step:>4}. {seat_name(entry.player)}: {entry.action}", soft_wrap=True)
        for event in entry.events:
            line = words(event)
            if line is not None:
                out.print(Text("      ") + line, soft_wrap=True)
    assert state is not None
    out.print()
    _final_table(final_summary(state))
    return 0


# -- bench -----------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    from arabesque.bench import RATES, SEARCH_RATES, bench

    # The game and its options are checked before the run is announced: a mistyped game is
    # an error, not a benchmark that fails once begun.
    options = _game_options(args)
    _make_params(get_game(args.game), args.players, options)
    decisions = [] if args.decisions is None else [a.strip() for a in args.decisions.split(",")]
    for name in decisions:  # an unknown agent is refused before the run
        _check_agent(name, args.game)
    if not args.json:
        print(f"benchmarking {args.game} for {args.seconds:g} s ...", file=sys.stderr)
    result = bench(
        args.game,
        args.seconds,
        num_players=args.players,
        seed=args.seed,
        rl=args.rl,
        search=args.search,
        decisions=decisions,
        **options,
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
    rl = result.get("rl")
    if rl is not None:
        to_obs = rl.get("ratios_to_observations", {})
        for name, ratio in rl["ratios_to_steps"].items():
            versus_obs = f", {to_obs[name]:.2f}x observation_per_s" if name in to_obs else ""
            out.print(
                f"  {name:<36}{rl[name]:>7.0f}  ({ratio:.3f}x steps_per_s{versus_obs})",
                soft_wrap=True,
            )
        vector = rl.get("vector")
        if vector is not None:
            out.print(
                f"  AsyncVectorEnv, 2 processes: {vector['two_process_steps_per_s']:.0f} env "
                f"steps/s, {vector['ratio']:.2f}x one env ({vector['one_env_steps_per_s']:.0f})",
                soft_wrap=True,
            )
    for name in SEARCH_RATES:
        if name in result:
            ratio = result["search_ratios_to_steps"][name]
            out.print(f"  {name:<30}{result[name]:.1f}  ({ratio:.4f}x steps_per_s)")
    for name, timed in result.get("decision_times", {}).items():
        out.print(
            f"  time per decision, {name:<10} median {timed['median_ms']:.1f} ms, "
            f"p95 {timed['p95_ms']:.1f} ms  ({timed['median_in_steps']:.0f} steps' time; "
            f"{timed['decisions']:.0f} mid-game decisions)",
            soft_wrap=True,
        )
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
    from arabesque.agents.registry import agent_descriptions

    get_game(args.game)
    described = agent_descriptions(args.game)
    if args.json:
        _print_json(sorted(described))
    else:
        width = max(map(len, described))
        for name, description in sorted(described.items()):
            print(f"{name:<{width}}  {description}".rstrip())
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
    # Every list of records in the catalog is a table (cards, lamp cards, tiles ...), and so
    # is every such list one level down (Ali Baba's boards: layers per board side).
    tables: list[tuple[str, Any]] = []
    for title, rows in data.items():
        if isinstance(rows, dict):
            tables.extend((f"{title}: {name}", sub) for name, sub in rows.items())
        else:
            tables.append((title, rows))
    for title, rows in tables:
        if not (isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows)):
            continue
        columns = list(rows[0])
        table = Table(title=title.replace("_", " "), show_edge=False)
        for name in columns:
            values = [r.get(name) for r in rows]
            if all(isinstance(v, bool) for v in values):
                # A yes/no column reads as a question ("key?  yes"): True and False are
                # Python's words, not the reader's.
                table.add_column(f"{name}?", justify="left")
                continue
            numeric = all(isinstance(v, int) for v in values)
            table.add_column(name, justify="right" if numeric else "left")
        for row in rows:
            table.add_row(*(Text(_cell_text(row.get(k))) for k in columns))
        out.print(table)
    return 0


def _cell_text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


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
    for name in ("name", "start", "size", "bounds", "doc"):
        table.add_column(name, justify="right" if name in ("start", "size") else "left")
    for field in layout:
        bounds = f"{field['low']:g}..{field['high']:g}" + (" clip" if field["clip"] else "")
        table.add_row(field["name"], str(field["start"]), str(field["size"]), bounds, field["doc"])
    out.print(table)
    return 0


# -- parser ----------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, like every other error of the command line."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# Every numeric option goes through one of these types, so every command refuses a bad value
# the same way: one line naming the option (argparse adds "argument --NAME:") and what it
# allows.


def _numeric_type(
    parse: Callable[[str], float], allowed: str, ok: Callable[[float], bool]
) -> Callable[[str], Any]:
    """An argparse type: ``parse`` the text, then refuse it unless ``ok`` (nan and inf parse
    as floats, but no option means them)."""

    def convert(text: str) -> Any:
        try:
            value = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None
        if not math.isfinite(value) or not ok(value):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text}")
        return value

    return convert


_integer = _numeric_type(int, "a whole number", lambda v: True)  # seeds
_positive_int = _numeric_type(int, "a whole number of at least 1", lambda v: v >= 1)
_non_negative_int = _numeric_type(int, "a whole number, 0 or more", lambda v: v >= 0)
_positive_seconds = _numeric_type(float, "a number of seconds greater than 0", lambda v: v > 0)
_non_negative_seconds = _numeric_type(float, "a number of seconds, 0 or more", lambda v: v >= 0)


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--my-precious", action="store_true", help='magic-lamp: the "My Precious" variant'
    )
    p.add_argument(
        "--components",
        metavar="FILE",
        help="magic-lamp, djinn: a components TOML file (arabesque cards GAME lists the "
        "built-in one; docs/components.md)",
    )
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
        prog="arabesque",
        description="Arabian Nights board games: serve, play, simulate, replay, verify.",
    )
    parser.add_argument("--version", action="version", version=f"arabesque {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_serve_parser(sub)

    p = sub.add_parser(
        "play",
        help="play in the terminal against bots",
        description="Play in the terminal against bots. Every game is saved as you play (in "
        "$ARABESQUE_DATA_DIR/games, by default your user data folder); --resume continues "
        "one.",
    )
    p.add_argument("game", nargs="?", help="the game (arabesque games lists them)")
    p.add_argument("--players", type=_positive_int, help="number of players (default 4)")
    p.add_argument(
        "--bots", type=_non_negative_int, help="how many seats bots take (default players - 1)"
    )
    p.add_argument("--agent", help=f"agent spec of the bots (default {DEFAULT_PLAY_AGENT})")
    p.add_argument("--seed", type=_integer, help="game seed (default: random)")
    _add_game_options(p)
    p.add_argument(
        "--window",
        type=_positive_seconds,
        default=3.0,
        metavar="SECONDS",
        help="how long the lamp race waits for your key press (default 3.0)",
    )
    p.add_argument(
        "--bot-delay",
        type=_non_negative_seconds,
        default=0.6,
        metavar="SECONDS",
        help="pause between bot moves so you can follow them (default 0.6; 0 for none)",
    )
    p.add_argument(
        "--assist",
        action="store_true",
        help="start with the game's hints for newcomers on (magic-lamp: the lamp race "
        "points out shared faces)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const=RESUME_LATEST,
        metavar="FILE",
        help="continue a saved game: the most recent unfinished one (of GAME, if given), or "
        "the record FILE; it goes on with the same bots",
    )
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser(
        "simulate",
        help="play many games between agents and report statistics",
        description="Play many games between agents and report statistics. Ctrl-C stops the "
        "run and prints the statistics of the games finished so far, marked partial (exit "
        "status 130). Wins: " + _win_counting() + ".",
    )
    p.add_argument("game")
    p.add_argument("--players", type=_positive_int, help="number of players")
    p.add_argument(
        "--agents",
        default="random",
        help="comma-separated agent specs, one per seat, or one for every seat",
    )
    p.add_argument("--games", type=_positive_int, default=100)
    p.add_argument("--seed", type=_integer, default=0, help="game i uses seed SEED + i")
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
    p.add_argument(
        "--out",
        metavar="DIR",
        help="keep the results as Parquet in DIR (seats-*.parquet, games-*.parquet; "
        "docs/designers.md); refuses a non-empty DIR without --resume",
    )
    p.add_argument(
        "--resume", action="store_true", help="with --out: play only the seeds DIR lacks"
    )
    add_backend_options(p)
    p.set_defaults(handler=cmd_simulate)

    p = sub.add_parser(
        "replay",
        help="show a game record step by step, in words",
        description="Show a game record: a header (game, players, params, seed, result), "
        "every step with its events in words, and the scores. A record whose stored result "
        "disagrees with its replay is refused.",
    )
    p.add_argument("file", type=Path)
    p.add_argument(
        "--json", action="store_true", help="print the final scores, ranking and holdings as JSON"
    )
    p.add_argument(
        "--step",
        action="store_true",
        help=(
            "step through the game on screen (→/space next, ←/b back, Home/End, h a hint for "
            "the seat deciding, q quits)"
        ),
    )
    p.set_defaults(handler=cmd_replay)

    p = sub.add_parser(
        "bench",
        help="random playouts per second on one process",
        description="Random playouts on one process (steps/s, the in-run anchor), then what a "
        "server, a bot and a learner ask of a position (views, observations, copies), each "
        "also as a ratio to steps/s.",
    )
    p.add_argument("game")
    p.add_argument(
        "--seconds",
        type=_positive_seconds,
        default=5.0,
        help="the whole run's time (default 5): half for the playouts, half for the "
        "per-position rates",
    )
    p.add_argument("--players", type=_positive_int)
    p.add_argument("--seed", type=_integer, default=0)
    p.add_argument(
        "--rl",
        action="store_true",
        help="also the research environments' steps/s (PettingZoo, Gymnasium; the rl extra)",
    )
    p.add_argument(
        "--search",
        action="store_true",
        help="also IS-MCTS iterations per second (default horizon, and full rollouts)",
    )
    from arabesque.bench import DECISION_AGENTS

    p.add_argument(
        "--decisions",
        nargs="?",
        const=",".join(DECISION_AGENTS),
        metavar="AGENTS",
        help="also each agent's time per decision, median and p95, on the mid-game states "
        f"(comma-separated specs; default {','.join(DECISION_AGENTS)})",
    )
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
    add_verify_parser(sub)
    add_lab_parsers(sub, _positive_int, _non_negative_int, _integer, _add_game_options, _lab_params)
    return parser


def _stdout_closed() -> int:
    """The reader of our output went away (``arabesque replay FILE | head``): stop quietly,
    as Python's documentation recommends. Further output, including the flush at exit,
    goes to devnull, so no second BrokenPipeError is reported on the way out. (Restoring
    SIGPIPE's default action would do the same on Unix only.)"""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (tests): nothing to do
        pass
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        code = handler(args)
        sys.stdout.flush()  # inside the try: a closed pipe is found here, not at exit
        return code
    except BrokenPipeError:
        return _stdout_closed()
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
