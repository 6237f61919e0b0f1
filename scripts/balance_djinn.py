"""Balance study of Djinn's rules and authored components, as a use of the lab (arabesque.lab).

    PYTHONPATH=src python3 scripts/balance_djinn.py --games 200 --favour-games 84
    python3 scripts/balance_djinn.py --games 40 --only solo          # one part only
    python3 scripts/balance_djinn.py --games 200 --components new.toml --runs runs/djinn-new
    # the search bot in every seat: djinn-medium-plain.md from runs/djinn-medium
    python3 scripts/balance_djinn.py --agent medium --only plain --games 60 --players 2,3 \
        --chunk 5

Three parts, each a set of lab runs (results folders under ``--runs``, resumed when run
again) and a report page of its own under ``--reports``:

* **plain** (``djinn-plain.md``): heuristic bots in every seat at 2, 3 and 4 players: the
  locations' shares of actions and special actions, trophies, scoring cards, game length,
  the seats' win rates;
* **favour** (``djinn-favour.md``): a one-vs-all tournament at each player count, the field
  ``heuristic`` against ``heuristic:favour=<location>`` (a bot that values that location
  more) for every location, every challenger in every seat: a location is dominant if
  leaning on it wins clearly more than a fair share (the ratings and the win matrix say it);
* **solo** (``djinn-solo.md``): the bot against Tom with 15, 14, 13 and 12 cards in his deck
  (one run per deck size, drawn side by side: the solo difficulty curve).

What a game measures is the game's metrics module, ``src/arabesque/games/djinn/metrics.py``.
Two versions of the data are compared with ``arabesque compare`` on the runs of each.
``--agent`` puts another agent (a search level) in every seat of the plain and solo parts,
to tell what is the game's from what is the heuristic bot's.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arabesque.core.registry import get_game
from arabesque.games.djinn.components import LOCATIONS
from arabesque.lab.report import write_report
from arabesque.lab.run import Plan, run_plan
from arabesque.lab.store import load_run
from arabesque.lab.tournament import tournament_lineups

GAME = "djinn"


def _run(
    folder: Path,
    players: int,
    agents: Sequence[str],
    mode: str,
    lineups: Sequence[tuple[str, ...]],
    games: int,
    args: argparse.Namespace,
    **options: Any,
) -> bool:
    if args.components:
        options["components"] = args.components
    params = get_game(GAME).make_params(num_players=players, **options)
    plan = Plan(GAME, params, tuple(agents), mode, tuple(lineups))
    outcome = run_plan(
        plan,
        folder,
        range(args.seed, args.seed + games),
        resume=True,
        workers=args.workers,
        chunk_size=args.chunk,
    )
    print(f"{folder}: {outcome.already} there, {outcome.played} played", file=sys.stderr)
    return not outcome.interrupted


def _part_runs(runs: Path, pattern: str, played: list[Path]) -> list[Path]:
    """The runs a part's page is made of: those just played and the part's earlier runs in
    the same folder (a run of 4 players alone must not drop the 2- and 3-player ones from the
    page), in order of player count or deck size."""
    earlier = {p for p in runs.glob(pattern) if (p / "lab.json").is_file()}
    return sorted(earlier | set(played), key=lambda p: int(re.sub(r"\D", "", p.name) or 0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per plain and solo run")
    parser.add_argument(
        "--favour-games", type=int, default=None, help="games per favour tournament"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", choices=("plain", "favour", "solo"))
    parser.add_argument("--components", help="a components TOML file to study (default built-in)")
    parser.add_argument("--runs", type=Path, default=Path("runs/djinn"))
    parser.add_argument("--reports", type=Path, default=Path("docs/balance"))
    parser.add_argument("--format", choices=("md", "html"), default="md")
    parser.add_argument(
        "--agent",
        default="heuristic",
        help="the agent in every seat of the plain and solo parts (e.g. medium); pages and "
        "runs of another agent than heuristic are named after it (djinn-medium-plain.md)",
    )
    parser.add_argument(
        "--players", default="2,3,4", help="player counts of the plain part (default 2,3,4)"
    )
    parser.add_argument("--decks", default="15,14,13,12", help="Tom's deck sizes of the solo part")
    parser.add_argument(
        "--chunk", type=int, help="games written at a time (default: the lab's, up to 50)"
    )
    args = parser.parse_args(argv)
    if args.agent != "heuristic" and args.only == "favour":
        parser.error("the favour part compares heuristic bots; --agent applies to plain and solo")
    counts = [int(n) for n in args.players.split(",")]
    decks = [int(d) for d in args.decks.split(",")]
    tag = "" if args.agent == "heuristic" else f"{args.agent.replace(':', '-')}-"
    if tag and args.runs == Path("runs/djinn"):
        args.runs = Path(f"runs/djinn-{args.agent.replace(':', '-')}")
    args.reports.mkdir(parents=True, exist_ok=True)

    if args.only in (None, "plain"):
        folders = []
        for n in counts:
            agents = (args.agent,) * n
            folder = args.runs / f"plain-{n}p"
            if not _run(folder, n, agents, "seats", [agents], args.games, args):
                return 130
            folders.append(folder)
        write_report(
            [load_run(f) for f in _part_runs(args.runs, "plain-*p", folders)],
            args.reports / f"djinn-{tag}plain.{args.format}",
        )
    if args.only in (None, "favour") and not tag:
        agents = ["heuristic", *(f"heuristic:favour={loc}" for loc in LOCATIONS)]
        folders = []
        for n in counts:
            cycle = tournament_lineups(agents, n, "one-vs-all")
            wanted = args.favour_games or len(cycle) * 4
            games = -(-wanted // len(cycle)) * len(cycle)  # whole cycles
            folder = args.runs / f"favour-{n}p"
            if not _run(folder, n, agents, "one-vs-all", cycle, games, args):
                return 130
            folders.append(folder)
        write_report(
            [load_run(f) for f in _part_runs(args.runs, "favour-*p", folders)],
            args.reports / f"djinn-favour.{args.format}",
        )
    if args.only in (None, "solo"):
        folders = []
        for deck in decks:
            folder = args.runs / f"solo-{deck}"
            if not _run(folder, 1, [args.agent], "seats", [(args.agent,)], args.games, args,
                        tom_deck=deck):  # fmt: skip
                return 130
            folders.append(folder)
        write_report(
            [load_run(f) for f in _part_runs(args.runs, "solo-*", folders)],
            args.reports / f"djinn-{tag}solo.{args.format}",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
