"""A search level against ``heuristic`` in the other seats, seats rotated: win rate with its
Wilson 95% interval, mean score against the best rival's, and time.

    PYTHONPATH=src python3 scripts/search_strength.py ali-baba medium --players 2 --games 10

``--games`` is per seat of the level, so a run plays ``games * players`` games; game ``i``
of the level's seat ``s`` is seeded ``seed + 1000 * s + i`` (the agents' seeds follow).
"""

from __future__ import annotations

import argparse
import time

from arabesque.core import get_game
from arabesque.sim.batch import run_games
from arabesque.sim.stats import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("agent", help="the agent spec measured, e.g. medium")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10, help="games per seat of the agent")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    spec = get_game(args.game)
    params = spec.make_params(num_players=args.players)
    wins = games = 0
    mine = best_rival = 0.0
    start = time.perf_counter()
    for seat in range(args.players):
        agents = [args.opponent] * args.players
        agents[seat] = args.agent
        for result in run_games(
            args.game, params, agents, args.games, args.seed + 1000 * seat, args.workers
        ):
            games += 1
            wins += seat in result.winner_seats()
            mine += result.totals[seat]
            best_rival += max(t for q, t in enumerate(result.totals) if q != seat)
    low, high = wilson_interval(wins, games)
    print(
        f"{args.game} {args.players}p {args.agent} vs {args.opponent}: {wins}/{games} wins "
        f"({wins / games:.0%}, 95% CI {low:.0%}-{high:.0%}), mean score {mine / games:.1f} "
        f"vs best rival {best_rival / games:.1f}, {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
