"""The shared decision panel: one panel draws any game's ``view["decision"]``.

Its pieces on their own (keys, seat names, rows), the widget on a made-up decision with
more options than keys and side actions, and both games' screens showing a real decision
with more than nine options, answered with a key past 9.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import OptionList

from arabesque.agents.random_agent import RandomAgent
from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.tui.app import ArabesqueApp, GameScreen, Mode
from arabesque.tui.decision_panel import (
    OPTION_KEYS,
    DecisionPanel,
    Presentation,
    assign_keys,
    name_seats,
    rows_for,
)
from arabesque.tui.session import Session

NAMES = ["You", "Bot 1", "Bot 2"]
SIZE = (140, 45)


def words(text: str) -> str:
    """Screen text as one line of words (panels wrap and draw borders)."""
    return " ".join(text.replace("│", " ").split())


# -- keys, names and rows ----------------------------------------------------------------------


def test_keys_are_mnemonics_then_digits_then_free_letters() -> None:
    texts = ["keep lamp", *(f"opt {i}" for i in range(40)), "pass"]
    keys = assign_keys(texts, {"keep lamp": "k", "pass": "p"})
    assert keys[0] == "k" and keys[-1] == "p"
    numbered = keys[1:-1]
    assert numbered[:9] == list("123456789")
    letters = [k for k in numbered[9:] if k is not None]
    # Every letter but q (quit) and the mnemonics, so a letter means one thing everywhere.
    assert letters == [k for k in OPTION_KEYS[9:] if k not in "kpq"]
    assert numbered[9 + len(letters) :] == [None] * (40 - 9 - len(letters))
    assert len(set(k for k in keys if k is not None)) == len([k for k in keys if k is not None])


def test_seats_are_named_as_at_the_table() -> None:
    assert name_seats("Player 2 played yellow", NAMES) == "Bot 2 played yellow"
    assert name_seats("steal blue ruby (player 0)", NAMES) == "steal blue ruby (You)"
    assert name_seats("player 9 stays", NAMES) == "player 9 stays"  # no such seat
    assert name_seats("multiplayer 1", NAMES) == "multiplayer 1"


def made_up_decision(main: int, side: int) -> dict[str, Any]:
    """A decision in the core's JSON shape, with ``side`` optional side actions first (the
    panel must still list them apart, after the main choice)."""
    options: list[dict[str, Any]] = [
        {"action": 1000 + i, "label": f"side action {i}", "text": f"side {i}", "optional": True}
        for i in range(side)
    ]
    options += [
        {"action": i, "label": f"treasure {i} of player 2", "text": f"take {i}"}
        for i in range(main)
    ]
    options.append({"action": 999, "label": "pass", "text": "pass"})
    return {
        "seat": 0,
        "kind": "take",
        "prompt": "Take a treasure from player 1",
        "options": options,
        "default": 999,
        "context": None,
        "trail": ["Your turn"],
    }


def test_rows_keep_the_game_order_and_set_side_actions_apart() -> None:
    decision = made_up_decision(main=3, side=2)
    present = Presentation(order=[2, 999, 0], notes={2: "worth 5"})
    rows = rows_for(decision, present, NAMES, {"pass": "p"})
    assert [r.action for r in rows] == [2, 999, 0, 1, 1000, 1001]
    assert [r.key for r in rows] == ["1", "p", "2", "3", "4", "5"]
    assert [r.optional for r in rows] == [False] * 4 + [True] * 2
    assert rows[0].label == "treasure 2 of Bot 2" and rows[0].note == "worth 5"


# -- the widget on its own -----------------------------------------------------------------------


class PanelScreen(Screen[None]):
    """A screen holding only the panel; it records what the player picked."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "Quit")]

    def __init__(self, decision: Mapping[str, Any]) -> None:
        super().__init__()
        self.decision = decision
        self.chosen: list[int] = []

    def compose(self) -> ComposeResult:
        yield DecisionPanel(NAMES, {"pass": "p"}, id="decision")

    def on_mount(self) -> None:
        present = Presentation(notes={0: "the first"}, hint=", or shout")
        self.query_one(DecisionPanel).show_decision(self.decision, present)

    def on_key(self, key: Any) -> None:
        action = self.query_one(DecisionPanel).action_for(key.key)
        if action is not None:
            self.chosen.append(action)

    def on_decision_panel_chosen(self, message: DecisionPanel.Chosen) -> None:
        self.chosen.append(message.action)


class PanelApp(App[None]):
    def __init__(self, decision: Mapping[str, Any]) -> None:
        super().__init__()
        self.panel_screen = PanelScreen(decision)

    def on_mount(self) -> None:
        self.push_screen(self.panel_screen)


def screen_text(app: App[Any], widget_id: str | None = None) -> str:
    """What the terminal shows, or the part of it where widget ``widget_id`` is drawn."""
    lines = app.screen._compositor.render_strips()
    if widget_id is None:
        return "\n".join(line.text for line in lines)
    r = app.screen.query_one(f"#{widget_id}").region
    return "\n".join(lines[y].crop(r.x, r.right).text for y in range(r.y, r.bottom))


async def test_every_option_is_reachable_by_key_arrows_or_mouse() -> None:
    decision = made_up_decision(main=40, side=2)
    app = PanelApp(decision)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.panel_screen
        panel = screen.query_one(DecisionPanel)
        text = words(screen_text(app))
        assert "Your turn › Take a treasure from Bot 1" in text
        assert "1 treasure 0 of Bot 2 · the first" in text
        assert "or shout" in text
        rows = panel.rows
        assert len(rows) == 43 and [r.action for r in rows[-2:]] == [1000, 1001]
        keyed = [r for r in rows if r.key is not None]
        unkeyed = [r for r in rows if r.key is None]
        assert len(keyed) == 9 + 24 + 1  # 1-9, the letters but p and q, and p for pass
        assert f"{len(unkeyed)} more below the last key: scroll" in text
        # The list's border says options are out of sight, and which way.
        assert "▼ more below (↑/↓)" in text and "▲ more above" not in text
        # Every key picks its option, letters past 9 included.
        for row in keyed:
            await pilot.press(row.key or "")
            assert screen.chosen[-1] == row.action, row
        # The rest: the arrows and Enter, the list scrolling to them.
        choices = screen.query_one(OptionList)
        assert choices.scroll_offset.y == 0
        await pilot.press("end", "enter")
        await pilot.pause()
        assert screen.chosen[-1] == rows[-1].action
        assert choices.scroll_offset.y > 0
        assert "▲ more above (↑/↓)" in words(screen_text(app))
        await pilot.press("up", "up", "up", "enter")  # past the side actions' heading
        await pilot.pause()
        assert screen.chosen[-1] == unkeyed[-3].action
        shown = words(screen_text(app))
        assert "Also possible now: side action 0 side action 1" in shown.replace(" ▁", "")
        # A click picks an option too.
        before = len(screen.chosen)
        await pilot.click(OptionList, offset=(6, 1))
        await pilot.pause()
        assert len(screen.chosen) == before + 1
        # Nothing to decide: no list, and no key picks anything.
        panel.show_text("Waiting for Bot 1…")
        await pilot.pause()
        assert not choices.display and panel.action_for("1") is None
        assert "Waiting for Bot 1…" in screen_text(app)


# -- both games' screens -------------------------------------------------------------------------


def to_a_long_decision(game_id: str, kinds: set[str], players: int = 3) -> GameState:
    """A game played at random until seat 0 has a decision of one of ``kinds`` with more
    than nine options (the first seed that gets there)."""
    spec = get_game(game_id)
    for seed in range(500):
        state = spec.new_game(spec.make_params(num_players=players), seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            decision = state.decision(0)
            if decision is not None and decision.kind_name in kinds and len(decision.options) > 9:
                return state
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"no {kinds} decision with more than nine options for seat 0")


async def answer_past_nine(state: GameState) -> None:
    """Seat 0's decision is on screen from ``view["decision"]`` (prompt and labels), and a
    key past 9 applies its option."""
    session = Session(state, {p: RandomAgent(p) for p in range(1, state.num_players)}, 0)
    app = ArabesqueApp(session, bot_delay=0, window_s=3.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.game_screen
        assert isinstance(screen, GameScreen) and screen.mode is Mode.CHOICE
        decision = state.view(0)["decision"]
        assert name_seats(decision["prompt"], session.names) in words(screen_text(app, "prompt"))
        text = words(screen_text(app, "choices"))
        labels = {o["action"]: name_seats(o["label"], session.names) for o in decision["options"]}
        rows = screen.panel.rows
        assert sorted(r.action for r in rows) == sorted(labels)
        for row in rows[:5]:  # the first ones are in sight
            assert f"{row.key} {row.label}" in text
            assert row.label == labels[row.action]
        for row in rows:
            # The core's words only: no internal card or tile ids ("ruby (card 79)").
            assert not re.search(r"\bcard \d+|\bid\b|#\d+", row.label), row.label
            assert not re.search(r"\b\d{2,}\b", row.label), row.label
        row = rows[9]
        assert row.key is not None and row.key.isalpha()
        before = len(state.history)
        await pilot.press(row.key)
        await pilot.pause()
        assert state.history[before] == (0, row.action)


async def test_a_magic_lamp_decision_is_drawn_and_answered() -> None:
    kinds = {"angry_steal", "effect_card", "swap_own", "swap_theirs", "retrieve"}
    await answer_past_nine(to_a_long_decision("magic-lamp", kinds))


async def test_an_ali_baba_decision_is_drawn_and_answered() -> None:
    await answer_past_nine(to_a_long_decision("ali-baba", {"forbid", "take"}))
