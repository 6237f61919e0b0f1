"""CPU time per view on the mid-game states ``arabesque bench`` uses, robust to a busy machine.

``arabesque bench`` reports views/s as wall-clock rates, which other jobs on a shared machine
distort. This measures ``state.view(seat, include_log=False)`` for every seat of the bench's
16 mid-game states (``bench.mid_game_states``, seed 0) in this process's CPU time, in blocks,
and prints the fastest block's µs per view (the block least disturbed). Run it on two source
trees to compare a change:

    PYTHONPATH=/tmp/before/src python3 scripts/view_cost.py djinn 3
    PYTHONPATH=src python3 scripts/view_cost.py djinn 3
"""

from __future__ import annotations

import argparse
import time

from arabesque.bench import mid_game_states
from arabesque.core.registry import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=6, help="passes over the states a block")
    args = parser.parse_args()
    spec = get_game(args.game)
    states = [s for s, _ in mid_game_states(spec, spec.make_params(num_players=args.players), 0)]
    calls = args.repeats * len(states) * args.players
    best = float("inf")
    for _ in range(args.blocks):
        start = time.process_time()
        for _ in range(args.repeats):
            for state in states:
                for seat in range(args.players):
                    state.view(seat, include_log=False)
        best = min(best, time.process_time() - start)
    print(f"{args.game} {args.players}p: {best / calls * 1e6:.1f} us per view (CPU time, best of "
          f"{args.blocks} blocks of {calls} views)")


if __name__ == "__main__":
    main()
