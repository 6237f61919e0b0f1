"""Balance study of Magic Lamp's authored components, as a use of the lab (arabesque.lab).

    PYTHONPATH=src python3 scripts/balance_magic_lamp.py --games 300 --players 2,3,4,5
    python3 scripts/balance_magic_lamp.py --games 300 --players 4 --components old.toml
    python3 scripts/balance_magic_lamp.py --games 300 --report docs/balance/magic-lamp-lab.md

Heuristic bots in every seat play ``--games`` games (seeds ``--seed`` ..) for each player
count and each components file, each into its own results folder under ``--runs`` (so a
stopped study goes on where it stopped: every run is resumed), then ``arabesque report``
draws them all into one page. What is measured per chest (share of dice, bust rate, cards
kept and final points per search, contested searches) and of the Sorcerer is the game's own
metrics module, ``src/arabesque/games/magic_lamp/metrics.py``; the same runs can be compared
with ``arabesque compare RUN_A RUN_B``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from arabesque.core.registry import get_game
from arabesque.lab.report import write_report
from arabesque.lab.run import Plan, run_plan
from arabesque.lab.store import load_run

GAME = "magic-lamp"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", default="2,3,4,5", help="player counts, comma-separated")
    parser.add_argument("--agent", default="heuristic", help="agent spec for every seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--components",
        action="append",
        help="components file (default: built-in); repeat to study files side by side",
    )
    parser.add_argument("--my-precious", action="store_true", help="play the ring variant")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--runs", type=Path, default=Path("runs/magic-lamp"))
    parser.add_argument(
        "--report", type=Path, default=Path("docs/balance/magic-lamp-lab.md"), help=".md or .html"
    )
    args = parser.parse_args(argv)
    spec = get_game(GAME)
    files: list[str | None] = list(args.components) if args.components else [None]
    folders = []
    for comp in files:
        tag = "" if comp is None else f"{Path(comp).stem}-"
        for n in (int(x) for x in args.players.split(",")):
            options = {"components": comp} if comp else {}
            if args.my_precious:
                options["my_precious"] = True
            params = spec.make_params(num_players=n, **options)
            agents = (args.agent,) * n
            folder = args.runs / f"{tag}{n}p"
            outcome = run_plan(
                Plan(GAME, params, agents, "seats", (agents,)),
                folder,
                range(args.seed, args.seed + args.games),
                resume=True,
                workers=args.workers,
            )
            print(f"{folder}: {outcome.already} there, {outcome.played} played", file=sys.stderr)
            folders.append(folder)
            if outcome.interrupted:
                return 130
    args.report.parent.mkdir(parents=True, exist_ok=True)
    write_report([load_run(f) for f in folders], args.report)
    print(f"wrote {args.report}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
