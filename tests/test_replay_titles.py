"""Replay step titles are words, like the log (issue 18, item 4): the step's first event in
the game's own words, else the label of the option taken; never the action code alone. The
same titles head the browser's replay (server/replays.py) and ``arabesque replay --step``."""

from __future__ import annotations

from pathlib import Path

import pytest

from arabesque.agents.registry import make_agent
from arabesque.core.records import GameRecord
from arabesque.core.registry import get_game
from arabesque.server.replays import replay_frame
from arabesque.sim.replay import replay_steps, step_title
from arabesque.sim.runner import play_game

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def random_record(game: str, players: int, seed: int) -> GameRecord:
    spec = get_game(game)
    agents = [make_agent("random", game, seed=seed + i) for i in range(players)]
    state = play_game(spec, spec.make_params(num_players=players), agents, seed=seed)
    return GameRecord.from_state(state)


def test_the_scenarios_steps_read_like_the_log() -> None:
    record = GameRecord.load(EXAMPLES / "magic-lamp-scenario.json")
    titles = [step_title(entry, record.game) for entry, _ in replay_steps(record)]
    assert titles[0] == "Setup"
    # A secret die set says nothing in the log: the option's label says what was done.
    assert titles[1] == "Step 1 · Player 0: gold chest, face 3"
    assert titles[7] == "Step 7 · Player 0 accepted wish 1."
    assert titles[8] == "Step 8 · Player 2 drew sapphire (0 scorpions so far)."
    record = GameRecord.load(EXAMPLES / "ali-baba-scenario.json")
    titles = [step_title(entry, record.game) for entry, _ in replay_steps(record)]
    assert titles[9] == "Step 9 · Player 0 took Player 1's pink ring."


@pytest.mark.parametrize(("game", "players"), [("magic-lamp", 3), ("ali-baba", 2), ("djinn", 2)])
def test_no_title_is_an_action_code(game: str, players: int) -> None:
    record = random_record(game, players, seed=5)
    for entry, _ in replay_steps(record):
        if entry.step == 0:
            continue
        title = step_title(entry, game)
        if entry.label != entry.action:  # ("done" is its own label)
            assert not title.endswith(f": {entry.action}"), title


def test_the_browsers_replay_names_the_players() -> None:
    record = GameRecord.load(EXAMPLES / "ali-baba-scenario.json")
    record.metadata["names"] = ["Ann", "Bob", "Cy"]
    frame = replay_frame(record, 9, None)
    assert frame.title == "Step 9 · Ann took Bob's pink ring."
    record = GameRecord.load(EXAMPLES / "magic-lamp-scenario.json")
    record.metadata["names"] = ["Ann", "Bob", "Cy"]
    assert replay_frame(record, 2, None).title == "Step 2 · Bob: silver chest, face 3"
