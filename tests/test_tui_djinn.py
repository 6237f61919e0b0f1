"""The Djinn terminal screen, driven headless through Textual's pilot.

The human plays seat 0 with the option keys (bots act at once); games are kept short with
the round cap. After the game the game-over panel shows the engine's scores. The screen is
read at the three sizes people play at (no word cut, the decision in sight, hints where
content is cut), the log is in words, and nothing the seat's view hides (the Mage cards under
the Tavern's tops) reaches the screen.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import OptionList, RichLog, Static

from arabesque.agents.random_agent import RandomAgent
from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.tui.app import ArabesqueApp, GameOverScreen, Mode, screen_class
from arabesque.tui.decision_panel import name_seats
from arabesque.tui.djinn.events import describe_event
from arabesque.tui.djinn.screen import DjinnScreen
from arabesque.tui.help import HelpScreen
from arabesque.tui.session import Session
from tests.test_tui_ali_baba import quick_press, settle
from tests.test_tui_layout import (
    SIZES,
    check_hints,
    check_no_cut_words,
    in_sight,
    screen_lines,
)

SPEC = get_game("djinn")
PANELS = ["status", "map", "mine", "players", "shops", "market", "trophies", "prompt"]


def new_state(players: int, seed: int, **options: Any) -> GameState:
    return SPEC.new_game(SPEC.make_params(num_players=players, **options), seed=seed)


def app_for(state: GameState) -> ArabesqueApp:
    bots = {p: RandomAgent(100 + p) for p in range(1, state.num_players)}
    return ArabesqueApp(Session(state, bots, 0), bot_delay=0, window_s=30.0)


def played_to(players: int, seed: int, steps: int, **options: Any) -> GameState:
    """A game played at random for ``steps`` actions, then stopped where seat 0 decides."""
    state = new_state(players, seed, **options)
    rng = random.Random(seed)
    done = 0
    while not state.is_over and (done < steps or 0 not in state.to_act()):
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        done += 1
    assert not state.is_over
    return state


def game(app: ArabesqueApp) -> DjinnScreen:
    screen = app.game_screen
    assert isinstance(screen, DjinnScreen)
    return screen


def panel_text(app: ArabesqueApp, widget_id: str) -> str:
    """A panel's whole text, drawn wide (whatever part of it is in sight)."""
    widget = game(app).query_one(f"#{widget_id}", Static)
    console = Console(width=400, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def log_text(app: ArabesqueApp) -> str:
    return "\n".join(strip.text for strip in game(app).query_one("#log", RichLog).lines)


def check_options(app: ArabesqueApp) -> None:
    """The list offers exactly the human's legal actions, labelled as the view says."""
    screen = game(app)
    state = app.session.state
    options = screen.query_one(OptionList)
    ids = [
        int(o.id)
        for o in (options.get_option_at_index(i) for i in range(options.option_count))
        if o.id is not None
    ]
    assert sorted(ids) == sorted(state.legal_actions(0))
    labels = {o["action"]: o["label"] for o in state.view(0)["decision"]["options"]}
    for row in screen.panel.rows:
        assert row.label == name_seats(labels[row.action], app.session.names)


async def play_through(app: ArabesqueApp, pilot: Any, seed: int, limit: int = 3000) -> int:
    """The human picks options with their keys (at random, seeded) until the game ends."""
    rng = random.Random(seed)
    screen = game(app)
    presses = 0
    while not app.session.is_over and presses < limit:
        for _ in range(5):  # a slow machine may still be drawing the last answer
            if screen.mode is Mode.CHOICE:
                break
            await settle(pilot)
        assert screen.mode is Mode.CHOICE, screen.mode
        if presses % 25 == 0:
            check_options(app)
        rows = [r for r in screen.panel.rows if r.key is not None]
        main = [r for r in rows if not r.optional] or rows
        # Side actions now and then, main choices mostly: every kind of row gets used.
        pick = rng.choice(rows if rng.random() < 0.2 else main)
        version = app.session.state.version
        await quick_press(pilot, pick.key)
        assert app.session.state.version > version  # the key did choose
        presses += 1
    assert app.session.is_over
    return presses


async def finish(app: ArabesqueApp, pilot: Any) -> None:
    await settle(pilot)
    await pilot.pause()
    assert any(isinstance(s, GameOverScreen) for s in app.screen_stack)
    over = next(s for s in app.screen_stack if isinstance(s, GameOverScreen))
    rows = over.table_rows()
    scores = app.session.state.scores()
    for seat, score in enumerate(scores):
        assert rows[seat]["total"] == str(score.total)


# -- whole games ---------------------------------------------------------------------------------


async def test_a_two_player_game_through_the_screen() -> None:
    assert screen_class("djinn") is DjinnScreen
    app = app_for(new_state(2, seed=11, max_rounds=4))
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        presses = await play_through(app, pilot, seed=1)
        assert presses > 10
        await finish(app, pilot)
        log = log_text(app)
        assert "You moved to the " in log and "Bot 1 moved to the " in log
        assert "The game is over. Points: You " in log


async def test_a_solo_game_through_the_screen() -> None:
    # Tom's deck is played through in about a hundred steps; the first half at once (the
    # screen is checked on the way all the same), the rest with keys.
    app = app_for(played_to(1, seed=5, steps=50, tom_deck=12))
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert screen.query_one("#tom").display
        assert "left of 12" in panel_text(app, "tom")
        assert "Tom:" in panel_text(app, "status")
        await play_through(app, pilot, seed=2)
        await finish(app, pilot)
        view = app.session.view()
        assert view["tom"]["won"] is not None or "round limit" in screen.game_over_reason()
        # The panel's title says the game's result, never "You win!" over a loss to Tom.
        await pilot.pause()
        over = next(s for s in app.screen_stack if isinstance(s, GameOverScreen))
        title = str(over.query_one("#over-title", Static).render())
        if view["tom"]["won"] is False:
            assert "Tom wins" in title and "You win" not in title, title
        elif view["tom"]["won"]:
            assert "You beat Tom" in title, title


# -- what the screen shows ----------------------------------------------------------------------


def test_every_event_reads_in_words() -> None:
    """A whole random game's log: every event has its sentence (none in raw form)."""
    state = new_state(2, seed=3)
    rng = random.Random(3)
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    solo = new_state(1, seed=4)
    while not solo.is_over:
        solo.apply(0, rng.choice(solo.legal_actions(0)))
    comp = state.public_data()
    for game_state in (state, solo):
        view = game_state.view(0)
        places = {s["id"]: s["location"] for s in view["spaces"]}
        for event in view["log"]:
            for args in ((), (comp, places)):
                line = describe_event(event, lambda p: f"P{p}", *args)  # type: ignore[arg-type]
                if line is None:
                    continue
                assert not line.plain.startswith("(") and "{" not in line.plain, event


async def test_the_map_shows_the_view_and_the_keys_of_a_move() -> None:
    state = played_to(2, seed=7, steps=40)
    app = app_for(state)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        # Until the human is to move (or has no decision that moves).
        view = app.session.view()
        text = panel_text(app, "map")
        glyph = {"source": "✦", "square": "■", "round": "●"}

        def line_of(space: dict[str, Any]) -> str:
            label = f"{glyph[space['shape']]} {space['id']} "
            return next(ln for ln in text.splitlines() if label in ln)

        def block_of(space: dict[str, Any]) -> str:
            # Its line and those under it up to the next space: a mage a line each.
            lines = text.splitlines()
            start = lines.index(line_of(space))
            rest = lines[start + 1 :]
            end = next(
                (i for i, ln in enumerate(rest) if any(g in ln for g in glyph.values())), len(rest)
            )
            return "\n".join(lines[start : start + 1 + end])

        for space in view["spaces"]:
            line = line_of(space)
            if space["shape"] != "source":
                assert space["location"] in line
            for colour, n in (space.get("djinn") or {}).items():
                if n:
                    assert colour in line, (space, line)
            for seat in space["mages"]:
                assert app.session.names[seat] in block_of(space), (space, block_of(space))
        screen = game(app)
        spaces = {s["id"]: s for s in view["spaces"]}
        for space_id, key in screen._space_keys().items():
            assert line_of(spaces[space_id]).lstrip().startswith(key)
        mine = panel_text(app, "mine")
        me = view["players"][0]
        assert f"Magic {me['magic']} of {me['max_magic']}" in mine
        assert f"{me['coins']} coin" in mine
        table = panel_text(app, "players")
        assert "You" in table and "Bot 1" in table


async def test_hidden_cards_never_reach_the_screen() -> None:
    """Every Mage card the screen names is one the seat's view shows (a Tavern top, a
    player's card, one named in the log); the cards under the tops never appear."""
    state = played_to(2, seed=9, steps=120)
    app = app_for(state)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        view = state.view(0)
        shown = {int(p["top"]["id"]) for p in view["tavern"] if p["top"]}
        for p in view["players"]:
            shown |= {int(c["id"]) for c in p["mage_cards"]}
        logged = {int(e["card"]) for e in view["log"] if e["kind"] in ("mage", "use_mage")}
        named: set[int] = set()
        for panel in ("map", "mine", "players", "shops", "market", "trophies", "prompt"):
            named |= {int(n) for n in re.findall(r"\bcard (\d+)", panel_text(app, panel))}
        assert named <= shown | logged, sorted(named - shown - logged)
        under = {c for pile in state.piles for c in pile[:-1]}  # type: ignore[attr-defined]
        assert under - shown and not (named & (under - shown - logged))


# -- sizes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_screen_at_every_size(size: tuple[int, int]) -> None:
    state = played_to(3, seed=2, steps=150)
    app = app_for(state)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.pause()
        screen = game(app)
        assert screen.mode is Mode.CHOICE
        check_no_cut_words(app, PANELS)
        check_hints(app)
        footer = screen_lines(app)[-1]
        assert "? Help" in footer and "F3 Log" in footer
        # The decision in sight: its prompt and the first option.
        prompt = "\n".join(in_sight(app, screen.query_one("#prompt")))
        assert screen.decision is not None
        first_words = str(screen.decision["prompt"]).split()[:3]
        assert " ".join(first_words) in " ".join(prompt.split())
        choices = screen.query_one(OptionList)
        assert "\n".join(in_sight(app, choices)).strip()
        lines = screen_lines(app)
        assert all(len(line) <= size[0] for line in lines)
        if size == (80, 24):
            assert "PgDn" in "\n".join(lines)
        # Help: keys and the rules in short.
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(app.screen.plain_text().split())
        assert "Djinn in short" in text and "Keys in Djinn" in text
        await pilot.press("escape")


async def test_the_cli_builds_the_djinn_app(tmp_path: Any) -> None:
    from arabesque.tui.play import build_app

    app = build_app("djinn", num_players=2, bots=1, agent="random", seed=1, bot_delay=0)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert isinstance(app.game_screen, DjinnScreen)
        assert "Your move" in "\n".join(screen_lines(app))


async def test_a_solo_loss_is_not_ranked_first_under_tom_wins() -> None:
    # The end screen said "Tom wins." over a table ranking "1 You"; a solo game's table says
    # the game's result instead of a rank of one, and so do the lines printed on leaving.
    state = new_state(1, seed=3, tom_deck=12)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(0, rng.choice(state.legal_actions(0)))
    assert state.view(0)["tom"]["won"] is False and state.ranking() == [1]
    app = app_for(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause()
        over = next(s for s in app.screen_stack if isinstance(s, GameOverScreen))
        await pilot.pause()
        title = str(over.query_one("#over-title", Static).render())
        assert "Tom wins" in title
        row = over.table_rows()[0]
        assert "rank" not in row and row["result"] == "lost", row
    assert app.session.final_lines()[0].startswith("You (lost): ")


@pytest.mark.parametrize("size", [(80, 24), (119, 40), (120, 32), (200, 60)])
async def test_a_terminal_too_small_for_the_map_is_told_the_size_to_play_at(
    size: tuple[int, int],
) -> None:
    # At 80×24 the map showed 6 of its 13 spaces and the log 0-3 lines, and nothing said so.
    app = app_for(new_state(2, seed=11))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        small = size[0] < 120 or size[1] < 32
        told = f"This terminal is {size[0]}×{size[1]}; Djinn is played best at 120×32"
        assert (told in " ".join(log_text(app).split())) == small
        if not small:
            # At the stated size the whole map is in sight.
            text = "\n".join(in_sight(app, game(app).query_one("#map")))
            for space in ("source", "s1", "s6", "r1", "r6"):
                assert f" {space} " in text, (space, text)
