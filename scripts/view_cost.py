"""CPU time per view on the mid-game states ``arabesque bench`` uses, robust to a busy machine.

``arabesque bench`` reports views/s as wall-clock rates, which other jobs on a shared machine
distort. This measures ``state.view(seat, include_log=False)`` for every seat of the bench's
16 mid-game states (``bench.mid_game_states``, seed 0) in this process's CPU time, in blocks,
and prints the fastest block's µs per view (the block least disturbed). Run it on two source
trees to compare a change:

    PYTHONPATH=/tmp/before/src python3 scripts/view_cost.py djinn 3
    PYTHONPATH=src python3 scripts/view_cost.py djinn 3

The bench's states are viewed over and over; a server views each position once per seat and
spectator, then moves on. ``--played N`` measures that instead: the views of every seat and
the spectator after every action of N seeded random games, in CPU time (a game's views that
share work across positions, such as Magic Lamp's remembered hands, show their real gain):

    PYTHONPATH=src python3 scripts/view_cost.py magic-lamp 4 --played 20
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from arabesque.agents.registry import make_agent
from arabesque.bench import mid_game_states
from arabesque.core.registry import get_game
from arabesque.sim.runner import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument("--repeats", type=int, default=6, help="passes over the states a block")
    parser.add_argument("--played", type=int, default=0, metavar="N",
                        help="time the views along N seeded random games instead")
    args = parser.parse_args()
    spec = get_game(args.game)
    if args.played:
        played(spec, args.players, args.played)
        return
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


def played(spec: Any, players: int, games: int) -> None:
    """CPU time per view of every seat and the spectator after every action of ``games``
    seeded random games (the views only, not the play)."""
    params = spec.make_params(num_players=players)
    seats: list[int | None] = [None, *range(players)]
    spent = 0.0
    views = 0

    def look(state: Any, _seat: int, _action: int) -> None:
        nonlocal spent, views
        start = time.process_time()
        for seat in seats:
            state.view(seat, include_log=False)
        spent += time.process_time() - start
        views += len(seats)

    for g in range(games):
        agents = [make_agent("random", spec.id, seed=1000 * g + s) for s in range(players)]
        play_game(spec, params, agents, seed=g, on_action=look)
    print(f"{spec.id} {players}p: {spent / views * 1e6:.1f} us per view (CPU time, {views} views "
          f"after every action of {games} random games)")


if __name__ == "__main__":
    main()
