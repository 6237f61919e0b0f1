"""Random-playout throughput of OpenSpiel's pure-Python block dominoes: the anchor engine the
README's Performance section compares with, measured the way ``arabesque bench`` measures a
game (a random legal action per step, chance outcomes sampled by their probabilities, whole
games for a time budget, steps per second). Run it with an interpreter that has open-spiel:

    python3 -m venv /tmp/anchors-venv && /tmp/anchors-venv/bin/pip install open-spiel==2.0.2
    /tmp/anchors-venv/bin/python scripts/anchor_block_dominoes.py --seconds 10

Prints one JSON line with ``steps_per_s`` (the project itself never imports open-spiel).
"""

from __future__ import annotations

import argparse
import json
import random
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(args.seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    print(
        json.dumps(
            {
                "engine": "openspiel_py:python_block_dominoes",
                "seconds": elapsed,
                "games": games,
                "steps": steps,
                "games_per_s": games / elapsed,
                "steps_per_s": steps / elapsed,
            }
        )
    )


if __name__ == "__main__":
    main()
