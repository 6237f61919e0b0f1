"""``arabesque replay --step``'s hint key (h): the search bot's best options for the seat
deciding after the step, from what that seat knows, shown in its own panel and kept per
step; listed in the footer and in ``replay --help``."""

from __future__ import annotations

import random

from rich.text import Text
from textual.widgets import Static

from arabesque.agents.base import Observation
from arabesque.agents.hint import hint
from arabesque.cli import build_parser
from arabesque.core import GameRecord, get_game
from arabesque.sim.replay import seat_name, state_after
from arabesque.tui.replay import ReplayApp, hint_words
from tests.test_replay_tui import ALI_BABA, SIZE, screen_text, words

LEVEL = "ismcts:iters=40+horizon=8"


def hint_panel(app: ReplayApp) -> str:
    """The hint panel's text, when it is on screen."""
    panel = app.query_one("#hint", Static)
    assert panel.display, "the hint panel is hidden"
    content = panel.content
    return content.plain if isinstance(content, Text) else str(content)


async def test_h_shows_the_hint_for_the_seat_deciding() -> None:
    record = GameRecord.load(ALI_BABA)
    app = ReplayApp(record, hint_level=LEVEL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Hint" in words(screen_text(app))  # the footer lists the key
        await pilot.press("right", "right")
        await pilot.pause()
        state = state_after(record, 2)
        (seat,) = state.to_act()
        expected = hint(Observation(state, seat), level=LEVEL)
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = hint_panel(app)
        assert f"best moves for {seat_name(seat)}" in shown
        assert expected.options[0].label in shown
        assert "Each number is the" in shown
        assert app.hints.keys() == {2}
        # Another step hides it until asked for there.
        await pilot.press("right")
        await pilot.pause()
        assert not app.query_one("#hint").display
        await pilot.press("left", "h")
        await pilot.pause()
        assert app.query_one("#hint").display
        assert expected.options[0].label in hint_panel(app)
        assert app.hints.keys() == {2}


def test_hint_words_at_the_end_and_in_a_simultaneous_phase() -> None:
    spec = get_game("ali-baba")
    game = spec.new_game(spec.make_params(num_players=2), seed=4)
    rng = random.Random(1)
    while not game.is_over:
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    finished = game.record()
    assert "Nobody decides" in hint_words(finished, len(finished.actions), LEVEL).plain
    # Every seat deciding gets its own hint (a state where several act at once).
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=2), seed=3)
    rng = random.Random(0)
    while len(state.to_act()) < 2:
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = state.record()
    text = hint_words(record, len(record.actions), LEVEL).plain
    for seat in state.to_act():
        assert f"best moves for {seat_name(seat)}" in text


def test_replay_help_lists_the_hint_key() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    replay_help = commands.choices["replay"].format_help()  # type: ignore[index]
    assert "h a hint for the seat deciding" in " ".join(replay_help.split())
