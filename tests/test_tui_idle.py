"""An idle screen does no work: no redraw, no layout, whatever is on screen.

A Djinn session was reported using 97% of a core for minutes. Wall-clock CPU is not a reliable
test on a shared machine, so this counts what a spinning screen would do over and over: the
screen's layout passes and the application's writes to the terminal, while nobody presses a
key and no bot is due (the bot delay is long), on every screen a player may leave open.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen

from arabesque.agents.random_agent import RandomAgent
from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.tui.app import ArabesqueApp
from arabesque.tui.session import Session

#: Seconds of idling measured; a screen that spins redraws many times a second.
IDLE_S = 1.5


def _played(game_id: str, players: int, seed: int, steps: int) -> GameState:
    spec = get_game(game_id)
    state = spec.new_game(spec.make_params(num_players=players), seed=seed)
    rng = random.Random(seed)
    done = 0
    while not state.is_over and (done < steps or 0 not in state.to_act()):
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        done += 1
    return state


async def _nothing(app: ArabesqueApp, pilot: Any) -> None:
    return None


def _press(key: str) -> Callable[[ArabesqueApp, Any], Awaitable[None]]:
    async def press(app: ArabesqueApp, pilot: Any) -> None:
        await pilot.press(key)

    return press


async def _to_the_end(app: ArabesqueApp, pilot: Any) -> None:
    state = app.session.state
    rng = random.Random(1)
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    app.game_screen.advance()


SCREENS = ["game", "help", "whole log", "quit?", "scrolled board", "game over"]


@pytest.mark.parametrize("size", [(80, 24), (140, 45)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game_id", ["djinn", "magic-lamp", "ali-baba"])
@pytest.mark.parametrize("screen", SCREENS)
async def test_an_idle_screen_does_no_work(
    monkeypatch: pytest.MonkeyPatch, game_id: str, size: tuple[int, int], screen: str
) -> None:
    counts: Counter[str] = Counter()
    for owner, name in ((Screen, "_refresh_layout"), (App, "_display")):
        original = getattr(owner, name)

        def counted(
            self: Any, *args: Any, _name: str = name, _orig: Any = original, **kwargs: Any
        ) -> Any:
            counts[_name] += 1
            return _orig(self, *args, **kwargs)

        monkeypatch.setattr(owner, name, counted)
    actions = {
        "game": _nothing,
        "help": _press("question_mark"),
        "whole log": _press("f3"),
        "quit?": _press("q"),
        "scrolled board": _press("pagedown"),
        "game over": _to_the_end,
    }
    state = _played(game_id, 2, seed=4, steps=150)
    # A long bot delay: a bot move due during the measure would be work, not a spin.
    app = ArabesqueApp(Session(state, {1: RandomAgent(1)}, 0), bot_delay=60, window_s=60)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.3)
        await actions[screen](app, pilot)
        await pilot.pause(1.0)  # a loaded machine may still be drawing what was asked
        counts.clear()
        await asyncio.sleep(IDLE_S)
        # A spinning screen redraws dozens of times a second; a late redraw or two is not one.
        assert sum(counts.values()) <= 5, (type(app.screen).__name__, dict(counts))
