"""How often ruling D27 revised changes who pays whom in Djinn, counted over bots' games.

    python scripts/djinn_d27_payments.py --games 500            # 2, 3 and 4 players in turn
    python scripts/djinn_d27_payments.py --games 300 --players 3 --json out.json

Heuristic bots play whole games (game ``i`` has seed ``--seed + i``; 2, 3 and 4 players in
turn unless ``--players`` is given). At every step of a move, before the bot's choice is
applied, the mages the arriving player would pay are worked out both ways, from the state:

* the book's rule (ruling D27 revised, §A PLAYER'S TURN, Exception): the other mages at the
  edge the move arrives at, i.e. those that came to the space from where this mover comes;
* the old ruling D27: every other mage at the space, whatever its edge;

with nobody paid on either side when the mover may not pay (a mage that can complete no move,
ruling D2) or moves for free (a character's ``movement_free``). It counts the moves (a turn's
whole movement, from leaving its space to stopping) and the steps (each space entered) where
the two differ, on the space the bot enters and on any option it was offered. The rules are
computed here, not by the engine's ``occupants``, so the script also runs on the engine before
the change (set PYTHONPATH to it): then the games are the old rule's and the counts the same
question asked of them. Written for the measurement in docs/balance/djinn.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from arabesque.agents.base import Observation
from arabesque.agents.registry import make_agent
from arabesque.core.registry import get_game
from arabesque.games.djinn.state import DjinnState, Kind
from arabesque.sim.batch import agent_seed


def payees_both_ways(
    state: DjinnState, p: int, space: int, frm: int, stuck: int
) -> tuple[frozenset[int], frozenset[int]]:
    """Who the mover ``p`` pays on entering ``space`` from ``frm``: (by the book's edge rule,
    by the old any-mage ruling)."""
    if stuck or "movement_free" in state.fx[p]:
        return frozenset(), frozenset()
    there = [q for q in range(state.num_players) if q != p and state.pos[q] == space]
    at_edge = frozenset(q for q in there if state.came[q] == frm)
    return at_edge, frozenset(there)


def _differ(both: tuple[frozenset[int], frozenset[int]]) -> bool:
    return both[0] != both[1]


def count_game(players: int, seed: int, counts: dict[str, int]) -> None:
    spec = get_game("djinn")
    params = spec.make_params(num_players=players)
    state = spec.new_game(params, seed=seed)
    assert isinstance(state, DjinnState)
    state.logging = False
    agents = [make_agent("heuristic", "djinn", seed=agent_seed(seed, s)) for s in range(players)]
    in_move = False
    move_differs = False
    while not state.is_over:
        (seat,) = state.to_act()
        top = state.stack.top
        action = agents[seat].act(Observation(state, seat))
        group, target = state.L.group[action]
        if top is not None and top.kind == Kind.MOVE and group == "move":
            at, _came, _visited, stuck = top.context
            if not in_move:
                in_move, move_differs = True, False
                counts["moves"] += 1
            counts["steps"] += 1
            book, old = payees_both_ways(state, seat, target, at, stuck)
            if book != old:
                counts["steps_differing"] += 1
                move_differs = True
                if not book:
                    counts["steps_free_now_paid_before"] += 1
            if book:
                counts["steps_paying_by_the_book"] += 1
            if old:
                counts["steps_paying_by_the_old_ruling"] += 1
            offered = [
                state.L.group[a][1]
                for a in state.legal_actions(seat)
                if state.L.group[a][0] == "move"
            ]
            if any(_differ(payees_both_ways(state, seat, t, at, stuck)) for t in offered):
                counts["steps_with_an_option_differing"] += 1
        state.apply(seat, action)
        # A move ends when the mage stops (side actions in its middle do not end it).
        top = state.stack.top
        if in_move and (top is None or top.kind not in (Kind.MOVE, Kind.JUMP)):
            in_move = False
            if move_differs:
                counts["moves_differing"] += 1
    counts["games"] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), help="default: 2, 3, 4 in turn")
    parser.add_argument("--json", type=Path, help="write the counts here")
    args = parser.parse_args(argv)
    counts: dict[str, int] = dict.fromkeys(
        (
            "games",
            "moves",
            "moves_differing",
            "steps",
            "steps_differing",
            "steps_free_now_paid_before",
            "steps_paying_by_the_book",
            "steps_paying_by_the_old_ruling",
            "steps_with_an_option_differing",
        ),
        0,
    )
    start = time.perf_counter()
    for i in range(args.games):
        players = args.players or (2, 3, 4)[i % 3]
        count_game(players, args.seed + i, counts)
    seconds = time.perf_counter() - start
    result: dict[str, Any] = dict(counts)
    result["share_of_moves_differing"] = counts["moves_differing"] / max(1, counts["moves"])
    result["share_of_steps_differing"] = counts["steps_differing"] / max(1, counts["steps"])
    result["seconds"] = round(seconds, 1)
    for key, value in result.items():
        print(f"{key:34} {value:.4f}" if isinstance(value, float) else f"{key:34} {value}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
