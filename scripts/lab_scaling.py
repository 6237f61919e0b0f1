"""Games per second of a lab run on 1 and 2 local workers and on a local Ray with 2 CPUs.

    PYTHONPATH=src python3 scripts/lab_scaling.py --game magic-lamp --agents heuristic \
        --players 3 --games 120 --rounds 3

Each round plays the same seeds once per setting, the settings alternating (1 worker, 2
workers, Ray), into a fresh folder each time; the report is the median of the rounds, with
the ratio of each setting to 1 worker measured in the same rounds. Ray is started once before
the rounds (its start-up is not counted) with ``num_cpus=2``. Results go to stdout as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from arabesque.core.registry import get_game
from arabesque.lab.run import Plan, run_plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="magic-lamp")
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args(argv)
    params = get_game(args.game).make_params(num_players=args.players)
    lineup = tuple([args.agents] * args.players)
    plan = Plan(args.game, params, lineup, "seats", (lineup,))
    settings: list[tuple[str, dict[str, object]]] = [
        ("local-1", {"workers": 1}),
        ("local-2", {"workers": 2}),
    ]
    if not args.no_ray:
        import ray

        start = time.perf_counter()
        path = os.environ.get("PYTHONPATH")
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            runtime_env={"env_vars": {"PYTHONPATH": path}} if path else None,
        )
        ray_start = time.perf_counter() - start
        settings.append(("ray-2", {"backend": "ray"}))
    rates: dict[str, list[float]] = {name: [] for name, _ in settings}
    with tempfile.TemporaryDirectory() as root:
        for r in range(args.rounds):
            for name, options in settings:
                out = Path(root) / f"{name}-{r}"
                start = time.perf_counter()
                run_plan(plan, out, range(args.games), **options)  # type: ignore[arg-type]
                seconds = time.perf_counter() - start
                rates[name].append(args.games / seconds)
                print(f"round {r + 1} {name}: {args.games / seconds:.2f} games/s", file=sys.stderr)
    medians = {name: statistics.median(v) for name, v in rates.items()}
    ratios = [
        {name: rates[name][i] / rates["local-1"][i] for name in rates} for i in range(args.rounds)
    ]
    result = {
        "game": args.game,
        "players": args.players,
        "agents": args.agents,
        "games_per_run": args.games,
        "rounds": args.rounds,
        "games_per_s": rates,
        "median_games_per_s": medians,
        "median_ratio_to_local_1": {
            name: statistics.median(r[name] for r in ratios) for name in rates
        },
        "ray_start_s": ray_start if not args.no_ray else None,
        "load_average_after": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
