"""The screens at the sizes people play at (80×24, 140×45, 200×60), late in crowded games.

A 5-player Magic Lamp game and a 4-player Ali Baba game are played by bots with fixed seeds to
late in the game (many cards, many tiles), then handed to a person at seat 0. At each size the
tests read the screen as drawn and check what a new player complained about: no word cut in
the middle by a column or a line, the Magic Lamp cave on screen or one PgDn away with a line
saying so, a hint wherever content is cut (the board, the log, the options), the help and the
whole log one key away, and the keys in the footer.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console, Group, RenderableType
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import OptionList, RichLog, Static

from arabesque.agents.base import Observation
from arabesque.agents.random_agent import RandomAgent
from arabesque.agents.registry import make_agent
from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.tui.app import ArabesqueApp, GameScreen, LogScreen, Mode, ScrollHint
from arabesque.tui.decision_panel import FirstFit, Rigid
from arabesque.tui.help import HelpScreen
from arabesque.tui.magic_lamp.render import table_panel
from arabesque.tui.session import Session
from tests.test_tui_decision_panel import to_a_long_decision

SIZES = [(80, 24), (140, 45), (200, 60)]
#: Box drawing, block elements and scroll bar glyphs: lines, not words.
_LINES = re.compile("[\u2500-\u259f]")


# -- late, crowded games -------------------------------------------------------------------------


def late_state(game_id: str, players: int, seed: int, turn: int) -> GameState:
    """A game played by heuristic bots (fixed seeds) until ``turn`` begins."""
    spec = get_game(game_id)
    state = spec.new_game(spec.make_params(num_players=players), seed=seed)
    bots = {p: make_agent("heuristic", spec.id, 100 + p) for p in range(players)}
    while state.view(None, include_log=False)["turn"] < turn:
        assert not state.is_over
        seat = min(state.to_act())
        state.apply(seat, bots[seat].act(Observation(state, seat)))
    return state


def magic_lamp_late() -> GameState:
    state = late_state("magic-lamp", 5, seed=0, turn=6)
    view = state.view(None, include_log=False)
    assert sum(len(p["cards"]) for p in view["players"]) >= 40  # crowded indeed
    return state


def ali_baba_late() -> GameState:
    state = late_state("ali-baba", 4, seed=0, turn=41)
    assert 0 in state.to_act()
    return state


def app_for(state: GameState) -> ArabesqueApp:
    bots = {p: RandomAgent(p) for p in range(1, state.num_players)}
    return ArabesqueApp(Session(state, bots, 0), bot_delay=0, window_s=30.0)


async def settle(pilot: Any) -> None:
    """Until the layout is done: a redraw may move things once more (a hint line)."""
    for _ in range(3):
        await pilot.pause()


# -- reading the screen --------------------------------------------------------------------------


def screen_lines(app: ArabesqueApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def visible_region(widget: Widget) -> Region:
    """Where ``widget`` is on screen: its region, less what its containers cut off (a
    scrolled column, a column of limited height)."""
    region = widget.region
    for parent in widget.ancestors:
        if isinstance(parent, ScrollableContainer):
            region = region.intersection(parent.scrollable_content_region)
        elif isinstance(parent, Widget):
            region = region.intersection(parent.region)
    return region


def in_sight(app: ArabesqueApp, widget: Widget) -> list[str]:
    """The lines of ``widget`` that are on screen."""
    region = visible_region(widget)
    lines = screen_lines(app)
    bottom = min(region.bottom, len(lines))
    return [lines[y][region.x : region.right] for y in range(region.y, bottom)]


def words(text: str) -> set[str]:
    return set(_LINES.sub(" ", text).split())


def layouts(renderable: Any) -> Iterator[Any]:
    """Every renderable a panel may draw, whatever its width (each ``FirstFit`` layout)."""
    if isinstance(renderable, FirstFit):
        for layout in renderable.layouts:
            yield from layouts(layout)
    elif isinstance(renderable, Group):
        for part in renderable.renderables:
            yield from layouts(part)
    elif isinstance(renderable, Rigid):
        yield from layouts(renderable.renderable)
    else:
        yield renderable


def whole_words(renderable: RenderableType, *titles: object) -> set[str]:
    """The words a panel holds, drawn so wide that nothing wraps or is cut."""
    console = Console(width=1000, file=io.StringIO(), record=True)
    for part in layouts(renderable):
        console.print(part)
    out = words(console.export_text())
    for title in titles:
        out |= words(str(title or ""))
    return out


def check_no_cut_words(app: ArabesqueApp, widget_ids: list[str]) -> None:
    """Every word on screen in these panels is a whole word of the panel: a word cut by a
    column or a line ("sapphir│e", "Talism / ans", "Bot 2…") would be a new one."""
    screen = app.game_screen
    for widget_id in widget_ids:
        widget = screen.query_one(f"#{widget_id}", Static)
        if not widget.display:
            continue
        shown = words("\n".join(in_sight(app, widget)))
        allowed = whole_words(widget.content, widget.border_title, widget.border_subtitle)
        assert shown <= allowed, (widget_id, app.size, sorted(shown - allowed))


def check_hints(app: ArabesqueApp) -> None:
    """Wherever content is cut, a hint on screen says so and names the key."""
    screen = app.game_screen
    column = screen.board_column()
    assert column is not None
    # The board never vanishes: a few of its lines stay in sight, whatever is decided.
    assert column.scrollable_content_region.height >= 3
    hint = screen.query_one(ScrollHint)
    text = "\n".join(screen_lines(app))
    if column.max_scroll_y > 0:
        assert hint.display and hint.region.height == 1
        assert "PgDn" in text or "PgUp" in text
    else:
        assert not hint.display
    log = screen.query_one("#log", RichLog)
    if visible_region(log) == log.region:
        if log.virtual_size.height > log.scrollable_content_region.height:
            assert "F3: the whole log" in "\n".join(in_sight(app, log))
    else:  # the log gave way to your move: the footer still says where it is
        assert "F3 Log" in screen_lines(app)[-1]
    choices = screen.query_one(OptionList)
    if choices.display and choices.max_scroll_y > 0:
        assert "more below" in "\n".join(in_sight(app, choices))


def check_screen(app: ArabesqueApp, panels: list[str], keys: list[str]) -> None:
    """No word cut in ``panels``, hints where content is cut, ``keys`` in the footer."""
    check_no_cut_words(app, panels)
    check_hints(app)
    footer = screen_lines(app)[-1]
    for key in keys:
        assert key in footer, (key, footer)


# -- Magic Lamp ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_magic_lamp_late_and_crowded(size: tuple[int, int]) -> None:
    app = app_for(magic_lamp_late())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.game_screen
        assert screen.mode is Mode.CHOICE and screen.decision is not None
        assert screen.decision["kind"] == "set_die"
        panels = ["status", "mine", "table", "cave", "prompt"]
        check_screen(app, panels, ["? Help", "F3 Log", "F2 Assist", "q Quit"])
        column = screen.board_column()
        assert column is not None
        cave = screen.query_one("#cave")
        text = "\n".join(screen_lines(app))
        if size == (80, 24):
            # The board is cut: the line under it names what is below and the key.
            assert "▼ PgDn: the table, the cave" in text
            assert not screen.query_one("#picker").display  # the keys do it; room is short
        else:
            # Everything in sight at once, the cave included, late in a 5-player game.
            assert column.max_scroll_y == 0
            assert "The cave" in text and "Discard pile" in text
        # However small the terminal, PgDn brings the cave into sight (it works while the
        # list of options, or nothing, has focus).
        for _ in range(6):
            if cave.region.bottom <= column.scrollable_content_region.bottom:
                break
            await pilot.press("pagedown")
            await settle(pilot)
        assert cave.region.bottom <= column.scrollable_content_region.bottom
        assert "Discard pile" in "\n".join(in_sight(app, cave))
        check_no_cut_words(app, panels)
        check_hints(app)
        if column.max_scroll_y > 0:
            assert "▲ PgUp: " in "\n".join(screen_lines(app))
        table = "\n".join(in_sight(app, screen.query_one("#table")))
        if size == (200, 60):
            assert "necklace" in table and "B bracelet" not in table  # room to spell it
        elif size == (140, 45):
            assert "B bracelet, R ring, N necklace" in " ".join(table.split())  # the legend


def test_the_table_never_cuts_a_word_at_any_width() -> None:
    """The table picks the layout that fits; down to the narrowest board column (76)."""
    for seed, turn in ((0, 6), (3, 6), (4, 5)):
        view = late_state("magic-lamp", 5, seed=seed, turn=turn).view(0)
        renderable = table_panel(view, lambda p: "You" if p == 0 else f"Bot {p}")
        allowed = whole_words(renderable)
        for width in (76, 80, 90, 100, 110, 126, 140):
            out = Console(width=width, file=io.StringIO(), record=True)
            out.print(renderable)
            text = out.export_text()
            assert words(text) <= allowed, (seed, width, sorted(words(text) - allowed))
            assert max(len(line.rstrip()) for line in text.splitlines()) <= width


async def test_a_long_decision_at_80x24_leaves_the_board_in_sight() -> None:
    """An exchange with many cards to choose from, after a lamp race: the prompt and the
    first options whole, the list saying more are below, the board's first lines and its
    hint in sight."""
    kinds = {"effect_card", "swap_own", "swap_theirs", "angry_steal", "retrieve"}
    app = app_for(to_a_long_decision("magic-lamp", kinds, players=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.game_screen
        assert screen.mode is Mode.CHOICE
        check_screen(app, ["prompt", "mine"], ["? Help", "F3 Log"])
        choices = screen.query_one(OptionList)
        assert choices.max_scroll_y > 0 and choices.region.bottom <= 23
        assert "▼ PgDn: " in "\n".join(screen_lines(app))


# -- Ali Baba ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_ali_baba_late_and_crowded(size: tuple[int, int]) -> None:
    app = app_for(ali_baba_late())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.game_screen
        assert screen.mode is Mode.CHOICE
        players = "players-narrow" if size[0] < 96 else "players"
        panels = ["status", "cave-info", "mine", players, "prompt"]
        check_screen(app, panels, ["? Help", "F3 Log", "q Quit"])
        assert "F2" not in screen_lines(app)[-1]  # no assist in this game
        column = screen.board_column()
        assert column is not None
        text = "\n".join(screen_lines(app))
        if size == (80, 24):
            assert "▼ PgDn: " in text
        else:
            assert column.max_scroll_y == 0  # the cave and your screen in sight at once
        mine = " ".join("\n".join(in_sight(app, screen.query_one("#mine"))).split())
        if size != (80, 24):
            # The colours spelt out: no "pi br wh" to puzzle over.
            assert re.search(r"\b(pink|blue|brown|green|yellow|white)\b", mine)
        if size == (200, 60):
            assert screen._half_w == 8  # larger tiles where there is room


def ali_baba_fresh() -> GameState:
    return late_state("ali-baba", 3, seed=5, turn=1)


def ali_baba_mid() -> GameState:
    state = late_state("ali-baba", 3, seed=5, turn=16)
    assert 0 in state.to_act()
    return state


@pytest.mark.parametrize(
    ("state", "size"),
    [
        (ali_baba_fresh, (80, 24)),
        (ali_baba_mid, (80, 24)),
        (ali_baba_late, (80, 24)),
        (ali_baba_late, (120, 24)),  # side by side, the cave's last line was cut
    ],
    ids=["fresh-80x24", "mid-80x24", "late-80x24", "late-120x24"],
)
async def test_every_face_up_tile_in_sight_at_24_lines(state: Any, size: tuple[int, int]) -> None:
    # At 80×24 about 7 of the cave's 20 lines were in sight: face-up tiles lay below them,
    # seen only after PgDn. Each is named by its place, in sight with the log's last lines.
    game_state = state()
    app = app_for(game_state)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.game_screen
        column = screen.board_column()
        assert column is not None and column.scroll_y == 0  # no scrolling done
        shown = " ".join(" ".join(screen_lines(app)).split())
        view = game_state.view(0, include_log=False)
        up = [p for p in view["board"]["places"] if p["state"] == "face_up"]
        assert up
        for place in up:
            tile = place["tile"]
            assert f"{place['label']} {tile['name']}" in shown, (place["label"], shown)
        # The keys that take them are beside them (the options list shows only a few).
        keys = screen._tile_keys(view, ("take ",))
        assert keys
        for place in up:
            key = keys.get(int(place["tile"]["id"]))
            if key is not None:
                assert f"({key}) {place['label']} {place['tile']['name']}" in shown
        if size == (80, 24):
            # Side by side at 24 lines the log sits under the table, out of sight (F3).
            log = screen.query_one("#log", RichLog)
            in_log = [line.strip() for line in in_sight(app, log)]
            for line in (strip.text.strip() for strip in log.lines[-2:]):
                assert any(line in row for row in in_log), (line, in_log)
        check_hints(app)


@pytest.mark.parametrize("size", [(140, 45), (200, 60)], ids=["140x45", "200x60"])
async def test_no_face_up_list_where_the_cave_fits(size: tuple[int, int]) -> None:
    app = app_for(ali_baba_mid())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.game_screen
        assert not screen.query_one("#face-up").display
        column = screen.board_column()
        assert column is not None
        cave = screen.query_one("#cave")
        assert cave.region.bottom <= column.scrollable_content_region.bottom  # all in sight


# -- help, the whole log, the keys ---------------------------------------------------------------


@pytest.mark.parametrize("state", [magic_lamp_late, ali_baba_late], ids=["magic-lamp", "ali-baba"])
async def test_help_and_the_whole_log_at_80x24(state: Any) -> None:
    app = app_for(state())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game_screen = app.game_screen
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            help_text = " ".join(app.screen.plain_text().split())
            assert " in short" in help_text and "Keys on every screen" in help_text
            assert "PgUp PgDn" in help_text and "F3" in help_text
            shown = "\n".join(screen_lines(app))
            assert "Esc closes" in shown  # how to get out, in sight
            await pilot.press("escape")
            await settle(pilot)
            assert app.screen is game_screen
        await pilot.press("f3")
        await settle(pilot)
        assert isinstance(app.screen, LogScreen)
        assert len(app.screen.lines) == len(game_screen.log_lines) > 20
        log = app.screen.query_one(RichLog)
        assert log.region.height == 24  # the whole terminal
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)


def _long_magic_lamp_decision() -> GameState:
    kinds = {"effect_card", "swap_own", "swap_theirs", "angry_steal", "retrieve"}
    return to_a_long_decision("magic-lamp", kinds, players=5)


def _ali_baba_showing() -> GameState:
    """Seat 0 must secretly choose a tile to show to a yellow effect, from three or more:
    a longer move than taking a tile (its prompt says how showing works)."""
    spec = get_game("ali-baba")
    for seed in range(200):
        state = spec.new_game(spec.make_params(num_players=3), seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            decision = state.decision(0)
            if decision is not None and decision.kind_name == "show" and len(decision.options) > 2:
                return state
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no show decision with three tiles for seat 0")


@pytest.mark.parametrize(
    "state",
    [magic_lamp_late, _long_magic_lamp_decision, ali_baba_late, _ali_baba_showing],
    ids=["magic-lamp", "magic-lamp-long-decision", "ali-baba", "ali-baba-showing"],
)
async def test_the_last_events_stay_in_sight_at_80x24(state: Any) -> None:
    # A long decision (Magic Lamp) or the list of tiles (Ali Baba) took the log's every line:
    # what just happened needed F3.
    app = app_for(state())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        log = app.game_screen.query_one("#log", RichLog)
        shown = [line.strip() for line in in_sight(app, log)]
        last_two = [strip.text.strip() for strip in log.lines[-2:]]
        assert len(last_two) == 2 and all(last_two)
        for line in last_two:
            assert any(line in row for row in shown), (line, shown)
        check_hints(app)
