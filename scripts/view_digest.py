"""A digest of every view a game shows, to prove a speed-up changed no output.

Plays seeded games (random and heuristic agents) and hashes, after every applied action, the
JSON of ``state.view(seat, include_log=False)`` for every seat and the spectator (keys in the
order the view gives them, so a reordering shows too). Run it on two source trees and compare:

    PYTHONPATH=/tmp/before/src python3 scripts/view_digest.py djinn 3 --games 50
    PYTHONPATH=src python3 scripts/view_digest.py djinn 3 --games 50
    PYTHONPATH=src python3 scripts/view_digest.py magic-lamp 4 --params '{"my_precious": true}'

A decision's options given as a numeric range (docs/protocol.md, "Decisions") are expanded
to one entry per option before hashing, so a tree that sends the compact form and one that
lists every option hash alike when they say the same thing. The expansion is written out here
rather than imported, so the script runs on trees from before the range form too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from arabesque.agents.registry import make_agent
from arabesque.core.registry import get_game
from arabesque.sim.runner import play_game


def expanded_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decision's options with every range entry written out (docs/protocol.md)."""
    out: list[dict[str, Any]] = []
    for entry in options:
        r = entry.get("range")
        if r is None:
            out.append(entry)
            continue
        n = r["n_start"]
        for action in range(r["start"], r["stop"], r["step"]):
            item = {"action": action, "label": r["label"].replace("{n}", str(n))}
            if "text" in r:
                item["text"] = r["text"].replace("{n}", str(n))
            out.append(item)
            n += r["n_step"]
    return out


def view_bytes(view: dict[str, Any]) -> bytes:
    decision = view.get("decision")
    if decision is not None:
        decision["options"] = expanded_options(decision["options"])
    return json.dumps(view, ensure_ascii=False).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--agents", default="random,heuristic")
    parser.add_argument(
        "--params", default="{}", help='more params as JSON, e.g. \'{"my_precious": true}\''
    )
    args = parser.parse_args()
    spec = get_game(args.game)
    params = spec.make_params(num_players=args.players, **json.loads(args.params))
    total = hashlib.sha256()
    seats: list[int | None] = [None, *range(args.players)]
    views = 0
    for kind in args.agents.split(","):
        digest = hashlib.sha256()

        def look(state: Any, _seat: int, _action: int, digest: Any = digest) -> None:
            nonlocal views
            for seat in seats:
                digest.update(view_bytes(state.view(seat, include_log=False)))
                views += 1

        for g in range(args.games):
            agents = [make_agent(kind, args.game, seed=1000 * g + s) for s in range(args.players)]
            play_game(spec, params, agents, seed=g, on_action=look)
        print(f"{args.game} {args.players}p {kind} x{args.games}: {digest.hexdigest()}")
        total.update(digest.digest())
    print(f"{args.game} {args.players}p all ({views} views): {total.hexdigest()}")

if __name__ == "__main__":
    main()
