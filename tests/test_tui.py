"""The terminal client, driven headless through Textual's pilot.

The human plays seat 0 by pressing keys; bots act with no delay. After each step the tests
compare what is on screen with the engine (through the human's view), check that no
opponent's die face is shown before the reveal, and at the end that the game-over panel
shows exactly ``state.scores()`` and ``state.ranking()``.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from rich.style import Style
from textual import events
from textual.widget import Widget
from textual.widgets import DataTable, OptionList, RichLog

from arabesque.agents.base import Agent, Observation
from arabesque.agents.random_agent import RandomAgent
from arabesque.agents.registry import make_agent
from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS
from arabesque.sim.runner import play_game
from arabesque.tui.app import ArabesqueApp, GameOverScreen, Mode, QuitScreen
from arabesque.tui.decision_panel import name_seats
from arabesque.tui.magic_lamp.events import describe_event
from arabesque.tui.magic_lamp.render import (
    SHARED_STYLE,
    board_panel,
    cave_panel,
    dice_cell,
    stone_ties,
    table_panel,
)
from arabesque.tui.magic_lamp.screen import MagicLampScreen
from arabesque.tui.play import build_app, human_seat, main
from arabesque.tui.session import Session

SIZE = (160, 50)
WINDOW = 0.3  # seconds: a short lamp-race window keeps the tests fast
# Whole games read the screen while the race window is open; a long window keeps that safe on
# a busy machine (the window closing by itself is tested with WINDOW).
GAME_WINDOW = 5.0


# -- helpers -----------------------------------------------------------------------------------


class Snapshot:
    """What the terminal shows right now, rendered once, read by widget."""

    def __init__(self, app: ArabesqueApp) -> None:
        self.app = app
        self.lines = app.screen._compositor.render_strips()

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def widget(self, widget: Widget) -> str:
        r = widget.region
        return "\n".join(self.lines[y].crop(r.x, r.right).text for y in range(r.y, r.bottom))

    def panel(self, widget_id: str) -> str:
        return self.widget(game(self.app).query_one(f"#{widget_id}"))


KEY_CHARS = {"space": " ", "enter": "\r", "escape": "\x1b"}


async def settle(pilot: Any) -> None:
    """Wait until every message sent so far has been handled and the layout is up to date,
    without ``pilot.pause``'s sleeps until the CPU idles (they make whole games slow)."""
    for _ in range(3):  # a key hops from the app to the screen to the focused widget
        await pilot._wait_for_screen()
    # Twice: a redraw may change the layout once more (a hint line that comes or goes, a
    # panel that grows), and the second pass lays that out.
    pilot.app.screen._on_timer_update()
    await pilot._wait_for_screen()
    pilot.app.screen._on_timer_update()


async def quick_press(pilot: Any, *keys: str) -> None:
    """Press keys the way ``pilot.press`` does (a key event from the terminal driver), but
    settling after each key instead of waiting for the CPU to idle."""
    driver = pilot.app._driver
    for key in keys:
        event = events.Key(key, KEY_CHARS.get(key, key if len(key) == 1 else None))
        event.set_sender(pilot.app)
        driver.send_message(event)
        await settle(pilot)


def game(app: ArabesqueApp) -> MagicLampScreen:
    screen = app.game_screen
    assert isinstance(screen, MagicLampScreen)
    return screen


def panel(app: ArabesqueApp, widget_id: str) -> str:
    return Snapshot(app).panel(widget_id)


def words(text: str) -> str:
    """A panel's text as one line of words (its lines wrap where the width says)."""
    return " ".join(text.replace("│", " ").split())


def deciding(app: ArabesqueApp) -> str | None:
    """The kind of the human's decision the screen is on, or None."""
    screen = game(app)
    if screen.mode is not Mode.CHOICE or screen.decision is None:
        return None
    return str(screen.decision["kind"])


def log_lines(app: ArabesqueApp) -> list[str]:
    return [strip.text for strip in game(app).query_one(RichLog).lines]


def current_turn_log(app: ArabesqueApp) -> str:
    """The log since the last turn heading (earlier turns showed earlier reveals)."""
    lines = log_lines(app)
    start = max((i for i, line in enumerate(lines) if line.startswith("── Turn")), default=0)
    return "\n".join(lines[start:])


def opponent_dice_hidden(
    app: ArabesqueApp, pending: str = "", snap: Snapshot | None = None
) -> None:
    """Before the reveal no opponent's die (chest and face) is on screen or in this turn's
    log, unless one of the human's own dice (or the ``pending`` choice) reads the same."""
    state = app.session.state
    view = state.view(0)
    assert view["phase"] == "setting"
    mine = {f"{d['chest']} {d['face']}" for d in view["players"][0]["dice"]} | {pending}
    secret = {
        f"{CHESTS[c]} {f}" for p in range(1, state.num_players) for c, f in state.dice[p]
    } - mine
    snap = snap or Snapshot(app)
    shown = "\n".join(
        [snap.panel(w) for w in ("status", "mine", "table", "cave", "prompt")]
        + [current_turn_log(app)]
    )
    for text in secret:
        assert text not in shown, f"opponent die {text!r} shown before the reveal"
    for p in range(1, state.num_players):
        assert view["players"][p]["dice"] is None


def check_screen_matches_view(app: ArabesqueApp, snap: Snapshot) -> None:
    view = app.session.view()
    assert f"Turn {view['turn']}" in snap.panel("status")
    me = view["players"][0]
    assert f"Score: {me['score']}" in snap.panel("mine")
    table = snap.panel("table")
    for p in range(1, view["num_players"]):
        assert f"Bot {p}" in table


class Scripted(Agent):
    """A test bot: die settings and rub times from the test, the first option otherwise."""

    def __init__(self, setting: str, rub_ms: int | None) -> None:
        super().__init__(0)
        self.setting = setting
        self.rub_ms = rub_ms
        self.spec = "scripted"

    def act(self, obs: Observation) -> int:
        legal = list(obs.legal)
        if A.is_set(legal[0]):
            wanted = obs.parse_action(self.setting)
            return wanted if wanted in legal else legal[-1]
        if A.NO_RUB in legal:
            return A.NO_RUB if self.rub_ms is None else A.rub(self.rub_ms)
        return legal[0]


async def play_to_end(
    app: ArabesqueApp, pilot: Any, choose_face: Callable[[int], int], max_steps: int = 4000
) -> dict[str, int]:
    """Drive the human through a whole game; returns how often each kind of step ran."""
    state = app.session.state
    screen = game(app)
    seen: dict[str, int] = {}
    for step in range(max_steps):
        await settle(pilot)
        if state.is_over:
            return seen
        snap = Snapshot(app)
        check_screen_matches_view(app, snap)
        view = app.session.view()
        mode = screen.mode
        kind = deciding(app)
        # The first turn goes through pilot.press itself; later ones through the same driver
        # path with fewer waits.
        press = pilot.press if view["turn"] <= 1 else lambda *keys: quick_press(pilot, *keys)
        if kind == "set_die":
            opponent_dice_hidden(app, snap=snap)
            assert view["decision"]["prompt"] in words(snap.panel("prompt"))
            legal = [state.action_to_str(a) for a in state.legal_actions(0)]
            chests = sorted({t.split()[1] for t in legal})
            chest = chests[step % len(chests)]
            face = choose_face(view["turn"])
            await press(chest[0], str(face))
            assert f"set {chest} {face}" in panel(app, "prompt")
            opponent_dice_hidden(app, pending=f"{chest} {face}")
            await press("enter")
            seen["set"] = seen.get("set", 0) + 1
        elif kind == "race":
            # The screen was read at once: the race window is open.
            prompt = words(snap.panel("prompt"))
            assert view["decision"]["prompt"] in prompt and "SPACE = rub the lamp" in prompt
            # Every die is on screen now, in the table.
            table = snap.panel("table")
            for player in view["players"]:
                for die in player["dice"]:
                    assert f"{die['chest']} {die['face']}" in table
            way = ("space", "n")[view["turn"] % 2]
            await press(way)
            await pilot.pause()
            after = app.session.view()
            assert after["phase"] != "race"
            if after["phase"] == "resolve" or state.is_over:
                # The race is resolved; its result is public and on screen for this turn.
                mine = after["race_result"]["rubs"].get("0")
                assert (mine is not None) == (way == "space")
                if mine is not None and not state.is_over:
                    snap = Snapshot(app)
                    assert f"You {mine} ms" in snap.panel("prompt")
                    assert f"{mine} ms" in snap.panel("table")
            seen[f"race-{way}"] = seen.get(f"race-{way}", 0) + 1
        elif kind is not None:
            decision = view["decision"]
            assert decision is not None and decision["seat"] == 0 and decision["kind"] == kind
            prompt = snap.panel("prompt")
            # The prompt is the decision's, with the seats named as at the table.
            assert name_seats(decision["prompt"], app.session.names) in words(prompt)
            if kind == "wish":
                assert decision["context"]["lamp"]["name"] in prompt
                await press("a" if step % 2 else "r")
            elif kind == "draw":
                draw = view["draw"]
                assert f"Drawn so far ({len(draw['drawn'])})" in prompt
                assert f"Scorpions: {draw['scorpions']}" in prompt
                await press("d" if draw["scorpions"] + 1 < draw["face"] else "s")
            else:
                legal = list(state.legal_actions(0))
                options = screen.query_one(OptionList)
                assert options.option_count == len(legal)
                first = screen.panel.rows[0]
                assert first.key == "1"
                label = name_seats(decision["options"][0]["label"], app.session.names)
                assert first.label == label
                assert f"1 {label}" in words(snap.panel("choices"))
                before = len(state.history)
                await press("1")
                assert state.history[before] == (0, legal[0])
            seen[kind] = seen.get(kind, 0) + 1
        elif mode is Mode.WAIT:
            await pilot.pause(0.01)
        else:
            assert mode is Mode.OVER
    raise AssertionError(f"the game did not end in {max_steps} steps")


async def check_game_over(app: ArabesqueApp, pilot: Any) -> None:
    """The game-over panel shows exactly the engine's final scores, breakdown and ranks."""
    await pilot.pause()
    state = app.session.state
    assert state.is_over
    assert isinstance(app.screen, GameOverScreen)
    rows = app.screen.table_rows()
    scores = state.scores()
    ranks = state.ranking()
    assert set(rows) == set(range(state.num_players))
    for p, row in rows.items():
        assert row["player"] == app.session.names[p]
        assert row["total"] == str(scores[p].total)
        assert row["rank"] == str(ranks[p])
        for key, value in scores[p].breakdown.items():
            if key in row:
                assert row[key] == str(value)
            else:  # only breakdown items nobody scored are left out
                assert all(s.breakdown.get(key, 0) == 0 for s in scores)
    text = Snapshot(app).text
    assert "Game over." in text
    winners = [app.session.names[p] for p, r in enumerate(ranks) if r == 1]
    if len(winners) > 1:
        assert "Shared victory" in text
    else:
        assert "win" in text


async def look_at_board_then_quit(app: ArabesqueApp, pilot: Any) -> None:
    """Esc shows the board again; q then quits without asking, since the game is over."""
    await pilot.press("escape")
    assert game(app).mode is Mode.OVER
    assert "GAME OVER" in panel(app, "status")
    await pilot.press("enter")
    assert isinstance(app.screen, GameOverScreen)
    await pilot.press("q")
    await pilot.pause()
    assert app.return_value == 0


# -- whole games -------------------------------------------------------------------------------


async def test_two_player_game_against_a_random_bot() -> None:
    app = build_app("magic-lamp", 2, 1, agent="random", seed=11, window_s=GAME_WINDOW, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        seen = await play_to_end(app, pilot, choose_face=lambda turn: 2 + turn % 3)
        assert seen["set"] >= 2
        assert {"race-space", "race-n"} <= set(seen)
        await check_game_over(app, pilot)
        await look_at_board_then_quit(app, pilot)


async def test_four_player_game_against_heuristic_bots() -> None:
    # Falls back to random bots (with a notice) while the heuristic bot is not there yet.
    app = build_app(
        "magic-lamp", 4, 3, agent="heuristic", seed=5, window_s=GAME_WINDOW, bot_delay=0
    )
    async with app.run_test(size=SIZE) as pilot:
        seen = await play_to_end(app, pilot, choose_face=lambda turn: 1 + turn % 4)
        assert {"race-space", "race-n"} <= set(seen)
        await check_game_over(app, pilot)
        await look_at_board_then_quit(app, pilot)


async def test_bots_only_game_is_shown_to_a_spectator() -> None:
    app = build_app("magic-lamp", 3, 3, agent="random", seed=2, bot_delay=0)
    assert app.session.human is None
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session.is_over
        await check_game_over(app, pilot)
        await pilot.press("escape")
        assert "watching bots" in panel(app, "status")
        assert "You are watching" in panel(app, "mine")
        assert "You" not in panel(app, "table")
        await look_at_board_then_quit(app, pilot)


async def test_bot_delay_paces_the_bots() -> None:
    app = build_app("magic-lamp", 2, 2, agent="random", seed=4, bot_delay=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = game(app)
        assert screen.mode is Mode.WAIT
        before = len(app.session.state.history)
        await pilot.pause(0.3)
        assert len(app.session.state.history) > before
        assert not app.session.is_over
        # While a bot decides after the race, the panel says who and what (the view's
        # public ``pending``), in the words the game gives.
        for _ in range(200):
            pending = app.session.view()["pending"]
            if pending is not None and pending["kind"] not in ("draw", "wish"):
                # Hold the bots: the pending move is called off, the next waits an hour.
                if screen._bot_timer is not None:
                    screen._bot_timer.stop()
                    screen._bot_timer = None
                screen.bot_delay = screen._next_delay = 3600.0
                break
            await pilot.pause(0.02)
        else:
            raise AssertionError("no bot decision after the race was shown")
        await pilot.pause(0.1)
        pending = app.session.view()["pending"]
        assert pending is not None
        who = app.session.names[pending["player"]]
        shown = words(panel(app, "prompt"))
        assert f"Waiting for {who}: " in shown
        if pending["kind"] not in ("draw", "wish"):  # those two say more than ``doing``
            assert f"Waiting for {who}: {pending['doing']}" in shown


# -- the secret dice, the race and the wishes, scripted -----------------------------------------


def scripted_app(setting: str, rub_ms: int | None, window_s: float = 5.0) -> ArabesqueApp:
    return build_app(
        "magic-lamp",
        2,
        1,
        seed=21,
        window_s=window_s,
        bot_delay=0,
        agents={1: Scripted(setting, rub_ms)},
    )


async def _screen_before_reveal(setting: str) -> list[str]:
    app = scripted_app(setting, None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g", "3", "enter", "s", "4")
        await pilot.pause()
        assert deciding(app) == "set_die"
        assert len(app.session.state.dice[1]) == 2  # the bot has set both dice
        opponent_dice_hidden(app)
        # The log's scroll bar is drawn with block characters that may differ; drop them.
        return [
            line.text
            for line in Snapshot(app).lines
            if "▍" not in line.text and "▊" not in line.text
        ]


async def test_the_screen_before_the_reveal_does_not_depend_on_the_bots_dice() -> None:
    low = await _screen_before_reveal("set bronze 1")
    high = await _screen_before_reveal("set gold 6")
    assert low == high


Segments = list[tuple[str, str]]


async def _screen_in_the_race(setting: str, assist: bool = False) -> list[Segments]:
    """The whole screen while the race window is open (you: gold 3 and silver 5), with the
    bot's first die written out of it: every line as its pieces of text and their styles, so
    a highlight gives a face away as surely as a word would."""
    app = scripted_app(setting, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = game(app)
        screen.clock = lambda: 0.0  # the countdown reads the same in both games
        await pilot.pause()
        if assist:
            await pilot.press("f2")
        await pilot.press("g", "3", "enter", "s", "5", "enter")
        for _ in range(50):  # the clock starts once the dice are on screen
            if "The window closes in 5.0 s" in panel(app, "prompt"):
                break
            await pilot.pause(0.02)
        assert deciding(app) == "race"
        assert "The window closes in 5.0 s" in panel(app, "prompt")
        bot_die = setting.removeprefix("set ")
        return [
            [(seg.text.replace(bot_die, "<bot die>"), str(seg.style)) for seg in line]
            for line in Snapshot(app).lines
            if "▍" not in line.text and "▊" not in line.text
        ]


def is_highlight(style: str) -> bool:
    """Whether a piece of the screen is drawn as a shared face (``SHARED_STYLE``'s colour)."""
    bgcolor = Style.parse(SHARED_STYLE).bgcolor
    return bgcolor is not None and style.endswith(f" on {bgcolor.name}")


def _text(screen: list[Segments]) -> str:
    return "\n".join("".join(text for text, _ in line) for line in screen)


async def test_the_race_does_not_say_whether_a_face_is_shared() -> None:
    # Seeing a shared face in time is the race: the screen reads the same either way, in
    # its words and in its colours (no face stands out before the race is resolved).
    shared = await _screen_in_the_race("set bronze 3")  # your gold 3 is shared
    apart = await _screen_in_the_race("set bronze 4")  # nothing is shared
    assert shared == apart
    assert "<bot die>" in _text(shared)
    assert not any(is_highlight(style) for line in shared for _, style in line)


async def test_the_assist_points_out_shared_faces_when_asked() -> None:
    """F2 (the player's own choice) turns the assist on: the race then says whether a face of
    yours is shared and highlights the shared faces."""
    shared = await _screen_in_the_race("set bronze 3", assist=True)
    apart = await _screen_in_the_race("set bronze 4", assist=True)
    text = " ".join(_text(shared).split())
    assert "Assist: your 3 is shared with Bot 1 — rub!" in text
    assert "assist on (F2)" in text
    highlighted = {text for line in shared for text, style in line if is_highlight(style)}
    assert {"gold 3", "<bot die>"} <= highlighted
    assert "no face of yours is shared" in " ".join(_text(apart).split())
    assert shared != apart


async def test_assist_is_off_by_default_and_f2_toggles_it() -> None:
    app = scripted_app("set bronze 3", rub_ms=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = game(app)
        assert screen.assist is False and "assist" not in panel(app, "status")
        assert "F2 Assist" in Snapshot(app).lines[-1].text  # the footer shows the key
        await pilot.press("f2")
        assert screen.assist is True and "assist on (F2)" in panel(app, "status")
        assert any("Assist on" in line for line in log_lines(app))
        await pilot.press("f2")
        assert screen.assist is False and "assist" not in panel(app, "status")
    # The application takes the setting (for a command-line flag) and hands it on.
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=2), seed=1)
    session = Session(state, {1: Scripted("set bronze 3", None)}, 0)
    app = ArabesqueApp(session, bot_delay=0, window_s=5.0, assist=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert game(app).assist is True


def test_shared_faces_stand_out_only_once_the_race_is_over() -> None:
    player = {"seat": 0, "dice": [{"chest": "gold", "face": 3}]}
    for phase, marked in (("race", False), ("resolve", True)):
        cell = dice_cell(player, {"phase": phase, "shared_faces": [3]}, own=True)
        assert cell.plain == "gold 3"
        assert any(span.style == SHARED_STYLE for span in cell.spans) is marked


async def test_race_time_is_measured_from_the_dice_on_screen_and_wishes() -> None:
    app = scripted_app("set bronze 3", rub_ms=900)
    async with app.run_test(size=SIZE) as pilot:
        screen = game(app)
        now = [1000.0]
        screen.clock = lambda: now[0]
        await pilot.pause()
        await pilot.press("g", "3", "enter", "s", "5", "enter")
        await pilot.pause()
        assert deciding(app) == "race"
        state = app.session.state
        assert state.view(0)["phase"] == "race"  # the press is not applied before it happens
        table = panel(app, "table")
        assert "bronze 3" in table and "gold 3" in table
        now[0] += 0.4123
        await pilot.press("space")
        await pilot.pause()
        assert state.history[-1] == (0, A.rub(412.3))
        result = state.view(0)["race_result"]
        assert result["rubs"] == {"0": 410, "1": 900}
        assert "face 3: You summoned the Genie in 410 ms" in panel(app, "prompt")
        table = panel(app, "table")
        assert "410 ms" in table and "★ Genie" in table  # the time, and under it the Genie
        # Wish 1: the drawn Lamp card's name and text are shown; reject it twice.
        for wish in (1, 2):
            decision = state.view(0)["decision"]
            lamp = decision["context"]["lamp"]
            assert decision["kind"] == "wish" and decision["context"]["wish"] == wish
            prompt = words(panel(app, "prompt"))
            assert decision["prompt"] in prompt
            assert lamp["name"] in prompt and lamp["text"] in prompt
            await pilot.press("r")
            await pilot.pause()
        # The third wish is forced by the engine (R11).
        assert any("wish 3" in line and "must be kept" in line for line in log_lines(app))


async def test_slow_press_is_capped_and_no_press_is_no_rub() -> None:
    app = scripted_app("set bronze 3", rub_ms=None)
    async with app.run_test(size=SIZE) as pilot:
        screen = game(app)
        now = [50.0]
        screen.clock = lambda: now[0]
        await pilot.pause()
        await pilot.press("g", "2", "enter", "s", "5", "enter")
        await pilot.pause()
        now[0] += 7.0
        await pilot.press("space")
        await pilot.pause()
        state = app.session.state
        assert state.view(0)["race_result"]["rubs"]["0"] == A.MAX_RUB_MS
        assert "mistake" in panel(app, "table")

    app = scripted_app("set bronze 3", rub_ms=None, window_s=WINDOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g", "3", "enter", "s", "5", "enter")
        state = app.session.state
        # The window closes by itself; on a busy machine it may already have closed here.
        for _ in range(50):
            if (0, A.NO_RUB) in state.history:
                break
            await pilot.pause(0.1)
        assert (0, A.NO_RUB) in state.history
        assert state.view(0)["race_result"]["rubs"] == {}
        assert "nobody rubbed" in panel(app, "prompt")


async def test_die_setting_refuses_the_chest_already_used() -> None:
    app = scripted_app("set bronze 3", rub_ms=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g", "3", "enter")
        await pilot.press("g")
        assert "already on the gold chest" in panel(app, "prompt")
        await pilot.press("4", "enter")  # no chest chosen yet
        assert "Choose a chest" in panel(app, "prompt")
        assert len(app.session.state.view(0)["players"][0]["dice"]) == 1
        await pilot.click("#pick-silver")
        await pilot.click("#pick-6")
        await pilot.click("#pick-confirm")
        await pilot.pause()
        dice = app.session.state.view(0)["players"][0]["dice"]
        assert dice == [{"chest": "gold", "face": 3}, {"chest": "silver", "face": 6}]


# -- every event and panel renders, in many random games ---------------------------------------


def _name(seat: int | None) -> str:
    return "nobody" if seat is None else ("You" if seat == 0 else f"Bot {seat}")


def test_every_event_and_panel_renders_in_random_games() -> None:
    spec = get_game("magic-lamp")
    console = Console(width=100, file=io.StringIO())
    kinds: set[str] = set()

    def draw_panels(state: GameState, seat: int, action: int) -> None:
        if len(state.history) % 23 == 0:
            for who in (0, None):
                view = state.view(who)
                console.print(board_panel(view), table_panel(view, _name), cave_panel(view))

    for seed in range(10):
        n = 2 + seed % 4
        params = spec.make_params(num_players=n, my_precious=True)
        agents = [make_agent("random", spec.id, seed * 10 + p) for p in range(n)]
        state = play_game(spec, params, agents, seed=seed, on_action=draw_panels)
        for who in (0, None):
            for event in state.view(who)["log"]:
                line = describe_event(event, _name)
                kinds.add(event["kind"])
                if event["kind"] != "race_answered":
                    assert line is not None
                    assert not line.plain.startswith(f"{event['kind']}: {{"), event
    assert {"reveal", "race", "wish", "draw", "bust", "draw_kept", "steal", "game_over"} <= kinds
    # Rare events, shaped as the rules log them.
    for event in (
        {"kind": "chest_empty", "chest": "gold"},
        {"kind": "effect_fizzles", "player": 1, "reason": "nothing to exchange"},
        {"kind": "retrieve_nothing", "player": 0, "reason": "the discard pile has no treasure"},
    ):
        line = describe_event(event, _name)
        assert line is not None and event["kind"] not in line.plain


def test_score_and_cards_say_only_what_is_so() -> None:
    """No "Score: 0 = 0"; the card count leaves the Sorcerer out, as the final table does,
    and the Sorcerer has a row of its own, not a place among the talismans."""
    empty = {
        "seat": 0,
        "phase": "setting",
        "players": [{"seat": 0, "cards": [], "stones": {}, "sets": {}, "dice": [], "score": 0,
                     "score_breakdown": {"cards": 0, "majority_ruby": 0}}],
    }  # fmt: skip
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(board_panel(empty))
    text = console.export_text()
    assert "Score: 0" in text and "=" not in text.split("Score:")[1]
    spec = get_game("magic-lamp")
    agents = [make_agent("random", spec.id, 80 + p) for p in range(5)]
    state = play_game(spec, spec.make_params(num_players=5), agents, seed=8)
    view = state.view(None)
    holder = next(
        p["seat"] for p in view["players"] if any(c["kind"] == "sorcerer" for c in p["cards"])
    )
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(table_panel(view, _name))
    rows = {line.split()[0]: line.split()[1:] for line in console.export_text().splitlines()
            if line.strip()}  # fmt: skip
    cards = [int(n) for n in rows["cards"]]
    assert cards == [s.breakdown["cards"] for s in state.scores()]
    assert cards[holder] == len(view["players"][holder]["cards"]) - 1
    assert rows["Sorcerer"] == ["drew", "it"]
    talismans = [sum(c["kind"] == "talisman" for c in p["cards"]) for p in view["players"]]
    assert rows["talismans"] == [str(n) if n else "·" for n in talismans]


async def test_the_final_table_says_why_a_majority_is_missing_and_fits_80x24() -> None:
    spec = get_game("magic-lamp")
    agents = [make_agent("random", spec.id, 80 + p) for p in range(5)]
    state = play_game(spec, spec.make_params(num_players=5), agents, seed=8)
    ties = stone_ties(state.view(None))
    assert ties  # the seed was chosen for a tie
    session = Session(state, {p: RandomAgent(p) for p in range(5)}, None)
    app = ArabesqueApp(session, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        text = " ".join(Snapshot(app).text.replace("║", " ").split())
        names = app.session.names
        for stone, (count, seats) in ties.items():
            assert f"Most {stone}: tie — no bonus" in text
            assert f"{names[seats[-1]]} have {count} each" in " ".join(app.screen.notes)
            assert f"majority_{stone}" not in app.screen.table_rows()[0]  # nobody scored it
        table = app.screen.query_one(DataTable)
        assert table.region.right <= 80
        assert table.virtual_size.width <= table.scrollable_content_region.width  # no scroll
        assert "most" in text  # headings in the treasure panel's words


class Broken(Agent):
    def act(self, obs: Observation) -> int:
        raise RuntimeError("out of lamp oil")


async def test_a_failing_bot_does_not_end_the_game() -> None:
    app = build_app("magic-lamp", 2, 1, seed=8, bot_delay=0, agents={1: Broken(0)})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "out of lamp oil" in "\n".join(log_lines(app))
        assert len(app.session.state.dice[1]) == 2
        assert deciding(app) == "set_die"


# -- quitting and setup errors -------------------------------------------------------------------


async def test_quit_asks_first() -> None:
    app = scripted_app("set bronze 3", rub_ms=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert isinstance(app.screen, MagicLampScreen)
        await pilot.press("q", "y")
        await pilot.pause()
        assert app.return_value == 0
        assert not app.session.is_over


async def test_unknown_agent_falls_back_to_random_with_a_notice() -> None:
    app = build_app("magic-lamp", 3, 2, agent="no-such-bot", seed=1, bot_delay=0)
    assert all(a.spec == "random" for a in app.session.agents.values())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "no-such-bot" in "\n".join(log_lines(app))


def test_main_reports_setup_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("no-such-game", 2, 1) == 2
    assert "no-such-game" in capsys.readouterr().err
    assert main("magic-lamp", 4, 2) == 2
    assert "hot-seat" in capsys.readouterr().err
    assert main("magic-lamp", 3, 4) == 2
    assert "bots must be between" in capsys.readouterr().err
    assert main("magic-lamp", 9, 8) == 2
    assert "2-5 players" in capsys.readouterr().err


def test_seats() -> None:
    assert human_seat(4, 3) == 0
    assert human_seat(4, 4) is None
    with pytest.raises(ValueError, match="hot-seat"):
        human_seat(3, 1)
