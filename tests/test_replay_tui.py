"""``arabesque replay --step``: the step-through screen, driven through Textual's pilot.

The documented scenarios (docs/records.md) are stepped through forward, back and by jumps;
each position is checked against the replayed engine: the step's words, the scores, the log
and the board.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arabesque.core import GameRecord, RecordError
from arabesque.tui.replay import LOG_STEPS, ReplayApp

ROOT = Path(__file__).resolve().parents[1]
MAGIC_LAMP = ROOT / "docs" / "examples" / "magic-lamp-scenario.json"
ALI_BABA = ROOT / "docs" / "examples" / "ali-baba-scenario.json"
SIZE = (170, 60)
NARROW = (100, 40)


def screen_text(app: ReplayApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def log_text(app: ReplayApp) -> str:
    from textual.widgets import RichLog

    return "\n".join(strip.text for strip in app.query_one(RichLog).lines)


def words(text: str) -> str:
    """The screen's text as one line of words (panels wrap where their width says)."""
    return " ".join(text.replace("│", " ").split())


async def test_stepping_forward_back_and_by_jumps() -> None:
    app = ReplayApp(GameRecord.load(MAGIC_LAMP), title="scenario")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.position == 0 and app.last == 15
        text = words(screen_text(app))
        assert "step 0 of 15" in text and "Setup" in text
        assert "New game, 3 players. Player 0 started with ruby." in text
        for _ in range(7):
            await pilot.press("right")
        await pilot.pause()
        assert app.position == 7
        text = words(screen_text(app))
        # The step in the terminal log's words, not the raw event dump.
        assert "Step 7 · Player 0 accepted wish 1." in text
        assert "Player 0 accepted wish 1." in text
        assert "Player 0 took the top card of the gold chest: diamond" in text
        assert "lamp_draw" not in text
        log = words(log_text(app))
        assert "Lamp race: face 3: Player 0 summoned the Genie in 420 ms" in log
        await pilot.press("left", "b")
        await pilot.pause()
        assert app.position == 5
        assert "Player 0 accepted wish 1." not in words(log_text(app)), "the log went back too"
        await pilot.press("end")
        await pilot.pause()
        assert app.position == 15
        text = words(screen_text(app))
        assert "the record ends here, before the end of the game" in text
        # The scores after the last step: 15, 8 and 7 (docs/records.md).
        assert "1 Player 0 15" in text and "2 Player 2 8" in text and "3 Player 1 7" in text
        await pilot.press("space")  # past the end: stays there
        assert app.position == 15
        await pilot.press("home")
        await pilot.pause()
        assert app.position == 0 and "Player 0 accepted" not in words(log_text(app))
        await pilot.press("pagedown")
        assert app.position == 10
        await pilot.press("pageup", "pageup")
        assert app.position == 0
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == 0


async def test_the_board_is_drawn_by_the_games_renderers() -> None:
    app = ReplayApp(GameRecord.load(ALI_BABA))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "L4" in screen_text(app) and "Face down:" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        text = words(screen_text(app))
        assert "Step 9 · Player 0 took Player 1's pink ring." in text
        # The scores of docs/records.md.
        state = GameRecord.load(ALI_BABA).replay()
        assert [s.total for s in state.scores()] == [8, 1, 1]
        assert "1 Player 0 8 treasures 3, pink 5" in text
        # The game's own panels (their layout is the game screen's business): the cave with
        # the white forbid of step 5, and the players.
        assert "Forbidden (white): swords by Player 2" in text and "Player 2" in text
    app = ReplayApp(GameRecord.load(MAGIC_LAMP))
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("end")
        await pilot.pause()
        text = words(screen_text(app))
        # Narrow: the step on top, then the game's own table and cave panels (their layout
        # is the game screen's business: only that they are drawn is checked here).
        assert "Step 15 · Player 0 drew ruby" in text
        board = text.split("── Turn 2 ──")[-1]
        assert all(f"Player {p}" in board for p in range(3)) and "Discard pile: 5" in board


async def test_a_finished_game_says_who_won(tmp_path: Path) -> None:
    from arabesque.core import get_game
    from arabesque.core.conformance import random_playout

    spec = get_game("ali-baba")
    state = random_playout(spec, spec.make_params(num_players=2), 4)
    record = state.record()
    best = max(s.total for s in state.scores())
    app = ReplayApp(record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        await pilot.pause()
        assert f"game over: Player {state.ranking().index(1)} won with {best}" in screen_text(app)
        assert "Final scores" in screen_text(app)
        # A long jump back redraws only the last steps of the log.
        await pilot.press("home", "end")
        await pilot.pause()
        shown = log_text(app)
        assert f"Step {app.last} · " in shown
        if app.last > LOG_STEPS:
            assert f"Step {app.last - LOG_STEPS} · " not in shown


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q", "escape"])
async def test_quit_keys_leave_at_once(key: str) -> None:
    # Nothing to lose in a replay, so no question.
    app = ReplayApp(GameRecord.load(MAGIC_LAMP))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
    assert app.return_value == 0


def test_a_record_that_does_not_replay_is_refused_before_drawing(tmp_path: Path) -> None:
    data = json.loads(MAGIC_LAMP.read_text(encoding="utf-8"))
    data["actions"][6]["action"] = "reject"  # step 7 is player 0's wish: legal
    data["actions"][7]["action"] = "stop"  # step 8: player 2 must draw first
    with pytest.raises(RecordError, match="step 8"):
        ReplayApp(GameRecord.from_json(data))
