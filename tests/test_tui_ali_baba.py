"""The Ali Baba terminal screen, driven headless through Textual's pilot.

The human plays seat 0 through the screen (option keys, arrows and Enter, clicks on the
board); bots act with no delay. After each step the tests compare what is on screen with the
engine through the human's view: the pyramid (face down / face up / empty, seen from above),
the forbidden tiles, the options (exactly the legal actions), and at the end the game-over
panel. The secret of a yellow effect (a tile chosen but not yet shown) never reaches the
screen.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

import pytest
from rich.console import Console
from textual import events
from textual.geometry import Offset
from textual.pilot import _get_mouse_message_arguments
from textual.widgets import OptionList, RichLog

from arabesque.agents.base import Agent, Observation
from arabesque.agents.random_agent import RandomAgent
from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.games.ali_baba.state import NOT_SHOWN
from arabesque.sim.runner import play_game
from arabesque.tui.ali_baba.events import describe_event
from arabesque.tui.ali_baba.render import (
    BoardMarks,
    cave_info,
    draw_board,
    my_screen,
    option_note,
    players_table,
    tie_break_note,
    uncovered_by,
)
from arabesque.tui.ali_baba.screen import AliBabaScreen, CaveBoard
from arabesque.tui.app import ArabesqueApp, GameOverScreen, Mode
from arabesque.tui.decision_panel import Presentation, name_seats, rows_for
from arabesque.tui.play import build_app

SIZE = (140, 45)
SPEC = get_game("ali-baba")
TILE_COLOURS = {"pink", "blue", "brown", "green", "yellow", "white"}

# -- helpers -----------------------------------------------------------------------------------


class Snapshot:
    """What the terminal shows right now, rendered once, read by widget."""

    def __init__(self, app: ArabesqueApp) -> None:
        self.app = app
        self.lines = app.screen._compositor.render_strips()

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def region(self, widget_id: str, content: bool = False) -> list[str]:
        widget = game(self.app).query_one(f"#{widget_id}")
        r = widget.content_region if content else widget.region
        bottom = min(r.bottom, len(self.lines))  # a panel may be scrolled out of sight
        return [self.lines[y].crop(r.x, r.right).text for y in range(r.y, bottom)]

    def panel(self, widget_id: str) -> str:
        return "\n".join(self.region(widget_id))


KEY_CHARS = {"space": " ", "enter": "\r", "escape": "\x1b"}


async def settle(pilot: Any, draw: bool = True) -> None:
    """Wait until the messages sent so far are handled (and, with ``draw``, the layout is up
    to date) without ``pilot.pause``'s sleeps until the CPU idles (they make games slow)."""
    # A key hops from the app to the screen to the focused widget.
    for _ in range(3):
        await pilot._wait_for_screen()
    if draw:
        # Twice: a redraw may change the layout once more (a hint line that comes or goes, a
        # panel that grows), and the second pass lays that out.
        pilot.app.screen._on_timer_update()
        await pilot._wait_for_screen()
        pilot.app.screen._on_timer_update()


async def quick_press(pilot: Any, *keys: str) -> None:
    """Press keys as ``pilot.press`` does (a key event from the driver), settling after each
    and drawing once at the end."""
    driver = pilot.app._driver
    for i, key in enumerate(keys):
        event = events.Key(key, KEY_CHARS.get(key, key if len(key) == 1 else None))
        event.set_sender(pilot.app)
        driver.send_message(event)
        await settle(pilot, draw=i == len(keys) - 1)


def game(app: ArabesqueApp) -> AliBabaScreen:
    screen = app.game_screen
    assert isinstance(screen, AliBabaScreen)
    return screen


def log_text(app: ArabesqueApp) -> str:
    return "\n".join(strip.text for strip in game(app).query_one(RichLog).lines)


def texts(state: GameState, seat: int = 0) -> list[str]:
    return [state.action_to_str(a) for a in state.legal_actions(seat)]


class YellowBot(Agent):
    """A test bot: random, but takes yellow tiles when it can and always uses them, so the
    human is asked to show tiles. ``show`` picks the first or last tile when showing."""

    def __init__(self, seed: int, show: str = "random", random_play: bool = True) -> None:
        super().__init__(seed)
        self.show = show
        self.random_play = random_play
        self.spec = "yellow-test-bot"

    def act(self, obs: Observation) -> int:
        legal = list(obs.legal)
        words = [obs.action_to_str(a) for a in legal]
        if words[0].startswith("show "):
            if self.show == "first":
                return legal[0]
            if self.show == "last":
                return legal[-1]
        for wanted in ("use yellow", "take yellow "):
            for action, text in zip(legal, words, strict=True):
                if text.startswith(wanted):
                    return action
        return self.rng.choice(legal) if self.random_play else legal[0]


# -- what the screen must match ----------------------------------------------------------------


def topmost(view: Mapping[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    """(half-row, half-column) seen from above -> the topmost non-empty place there, worked
    out from the view's coordinates alone (independently of the screen's code)."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for place in sorted(view["board"]["places"], key=lambda p: p["layer"]):
        if place["state"] == "empty":
            continue
        r0, c0 = round(place["top"] * 2), round(place["left"] * 2)
        for dr in (0, 1):
            for dc in (0, 1):
                out[(r0 + dr, c0 + dc)] = place
    return out


def check_board(app: ArabesqueApp, snap: Snapshot) -> None:
    """Every half square of the pyramid shows its topmost tile: shading for a face-down tile,
    the kind and colour for a face-up tile, nothing for a bare square; forbidden tiles are
    marked, and only those."""
    screen = game(app)
    view = app.session.view()
    rows = snap.region("cave", content=True)
    # Only what is in sight: on a small terminal the column scrolls (a hint says so).
    cave = screen.query_one("#cave").content_region
    in_sight = screen.query_one("#left").scrollable_content_region
    rows = rows[: max(0, in_sight.bottom - cave.y)]
    hw, hh = screen._half_w, screen._half_h
    bottom = view["board"]["layers"][0]
    top = topmost(view)
    blocks = [b for b in view["blocks"] if b["by"] != 0]
    for hr in range(bottom["rows"] * 2):
        for hc in range(bottom["cols"] * 2):
            place = top.get((hr, hc))
            # The inner characters of this half square (never on its tile's border).
            r0 = hr - hr % 2 if place is None else round(place["top"] * 2)
            c0 = hc - hc % 2 if place is None else round(place["left"] * 2)
            y = hr * hh + (1 if hr == r0 else 0)
            if y >= len(rows):
                continue
            x0 = hc * hw + (1 if hc == c0 else 0)
            inner = rows[y][x0 : x0 + hw - 1]
            if place is None:
                assert inner.strip() == "", (hr, hc, inner)
            elif place["state"] == "face_down":
                assert set(inner) == {"░"}, (hr, hc, inner, place["label"])
            else:
                assert "░" not in inner, (hr, hc, inner, place["label"])
    for place in view["board"]["places"]:
        if place["state"] != "face_up":
            continue
        tile = place["tile"]
        y = round(place["top"] * 2 * hh)
        x = round(place["left"] * 2 * hw)
        if y + 2 * hh > len(rows):
            continue  # out of sight
        box = [row[x : x + 2 * hw] for row in rows[y : y + 2 * hh]]
        assert f"L{place['layer'] + 1}" in box[0]
        assert tile["kind"] in box[1], (box, tile)
        assert tile["colour"] in box[2], (box, tile)
        banned = any(tile[b["type"]] == b["what"] for b in blocks)
        assert ("✗forbid" in box[-1]) == banned, (box, view["blocks"])


def check_screen_matches_view(app: ArabesqueApp, snap: Snapshot) -> None:
    view = app.session.view()
    assert f"Turn {view['turn']}" in snap.panel("status")
    check_board(app, snap)
    info = " ".join(snap.panel("cave-info").split())
    assert f"Face down: {view['face_down']}" in info
    assert f"in the box (unseen): {view['in_box']}" in info
    for block in view["blocks"]:
        assert block["what"] in info.replace("rubies", "ruby")
    for tile in view["aside"]:
        assert tile["name"] in info
    if view["last_turn"] is not None:
        assert f"ends after turn {view['last_turn']}" in info
    table = snap.panel("players")
    mine = " ".join(snap.panel("mine").replace("│", " ").split())
    for player in view["players"]:
        total = player["track"] + sum(
            (1, 3, 6, 10, 15, 21)[n - 1]
            for n in {
                k: sum(1 for t in player["tiles"] if t["kind"] == k)
                for k in {t["kind"] for t in player["tiles"]}
            }.values()
        )
        name = app.session.names[player["seat"]]
        row = next(line for line in table.splitlines() if line.startswith(f"│ {name} "))
        assert row.split()[-2] == str(total), (row, total)
        if player["seat"] == 0:
            assert f"= {total} now" in mine
            for tile in player["tiles"]:
                assert tile["kind"] in mine


def check_options(app: ArabesqueApp) -> None:
    """The list offers exactly the human's legal actions, labelled as the view's decision
    says, with the keys the screen uses."""
    screen = game(app)
    state = app.session.state
    panel = screen.panel
    options = screen.query_one(OptionList)
    ids = [int(options.get_option_at_index(i).id or -1) for i in range(options.option_count)]
    assert sorted(ids) == sorted(state.legal_actions(0))
    assert ids == [row.action for row in panel.rows]
    labels = {o["action"]: o["label"] for o in state.view(0)["decision"]["options"]}
    for row in panel.rows:
        assert row.label == name_seats(labels[row.action], app.session.names)
    assert set(panel.keys.values()) <= set(ids)
    for key, action in panel.keys.items():
        assert panel.key_of(action) == key


# -- the human's choices -----------------------------------------------------------------------


class Human:
    """Chooses through the screen, varying choices so every kind of decision comes up."""

    def __init__(self, app: ArabesqueApp, pilot: Any) -> None:
        self.app = app
        self.pilot = pilot
        self.seen: dict[str, int] = {}
        self.turns = 0

    def note(self, kind: str) -> None:
        self.seen[kind] = self.seen.get(kind, 0) + 1

    def pick(self) -> tuple[str, int]:
        """(decision kind, action) for the human's current decision."""
        state = self.app.session.state
        view = state.view(0)
        legal = list(state.legal_actions(0))
        words = [state.action_to_str(a) for a in legal]
        by_text = dict(zip(words, legal, strict=True))
        phase = view["phase"]
        if phase == "take":
            self.turns += 1
            wanted = []
            if view["variant"] == "aladdins-lamp" and self.seen.get("lamp-swap", 0) < 2:
                wanted.append(" lamp")
            rota = ("yellow", "white", "green")
            first = self.turns % 3
            wanted += [f"take {c} " for c in rota[first:] + rota[:first]]
            for want in wanted:
                for text in words:
                    if text.endswith(want) if want == " lamp" else text.startswith(want):
                        return "take", by_text[text]
            return "take", legal[self.turns % len(legal)]
        if phase == "lamp":
            keep = self.seen.get("lamp-keep", 0) <= self.seen.get("lamp-swap", 0)
            if keep:
                return "lamp-keep", by_text["keep lamp"]
            return "lamp-swap", legal[0]
        if phase == "effect":
            if "use yellow" in by_text:
                if self.seen.get("yellow-use", 0) <= self.seen.get("yellow-pass", 0):
                    return "yellow-use", by_text["use yellow"]
                return "yellow-pass", by_text["pass"]
            if words[0].startswith("also take "):
                if self.seen.get("green-also", 0) <= self.seen.get("green-pass", 0):
                    return "green-also", legal[0]
                return "green-pass", by_text["pass"]
            assert words[0].startswith("forbid ")
            n = sum(self.seen.get(k, 0) for k in ("white-kind", "white-colour", "white-pass"))
            choice = ("white-kind", "white-colour", "white-pass")[n % 3]
            if choice == "white-pass":
                return choice, by_text["pass"]
            for text in words:
                is_colour = text.removeprefix("forbid ") in TILE_COLOURS
                if text.startswith("forbid ") and is_colour == (choice == "white-colour"):
                    return choice, by_text[text]
        if phase == "show":
            return "show", legal[-1]
        if phase == "steal":
            return "steal", legal[-1]
        raise AssertionError(f"unexpected decision {phase}: {words}")

    async def choose(self, kind: str, action: int, step: int) -> None:
        """Apply ``action`` through the screen: a click on the board for some takes, arrows
        and Enter now and then, the option's key otherwise."""
        app, pilot = self.app, self.pilot
        screen = game(app)
        state = app.session.state
        before = len(state.history)
        text = state.action_to_str(action)
        how = step % 4
        options = screen.query_one(OptionList)
        index = next(
            i
            for i in range(options.option_count)
            if options.get_option_at_index(i).id == str(action)
        )
        if kind in ("take", "green-also") and how == 0:
            await click_tile(app, pilot, text.split(" ", 1)[1].removeprefix("take "))
            how_name = "click"
        elif (how == 1 and index <= 3) or action not in screen.panel.keys.values():
            await quick_press(pilot, *(["down"] * index), "enter")
            how_name = "arrows"
        else:
            key = next(k for k, a in screen.panel.keys.items() if a == action)
            await quick_press(pilot, key)
            how_name = "key"
        for _ in range(5):  # an option selected travels further than a key
            if len(state.history) > before:
                break
            await settle(pilot)
        assert state.history[before] == (0, action), (kind, text, how_name)
        self.note(kind)
        self.note(how_name)


async def click_tile(app: ArabesqueApp, pilot: Any, tile_name: str) -> None:
    """Click the middle of a face-up tile on the board."""
    screen = game(app)
    view = app.session.view()
    place = next(
        p
        for p in view["board"]["places"]
        if p["state"] == "face_up" and p["tile"]["name"] == tile_name
    )
    board = screen.query_one(CaveBoard)
    content, region = board.content_region, board.region
    hw = screen._half_w
    x = content.x - region.x + round(place["left"] * 2 * hw) + hw
    y = content.y - region.y + round(place["top"] * 2 * screen._half_h) + 1
    await quick_click(pilot, board, (x, y))


async def quick_click(pilot: Any, widget: Any, offset: tuple[int, int]) -> None:
    """A mouse click as ``pilot.click`` sends it (down, up, click, forwarded by the screen),
    settling once instead of waiting for the CPU to idle before each event."""
    app = pilot.app
    arguments = _get_mouse_message_arguments(widget, offset)
    app.mouse_position = Offset(arguments["x"], arguments["y"])
    for cls in (events.MouseDown, events.MouseUp, events.Click):
        kwargs = {**arguments, "chain": 1} if cls is events.Click else arguments
        app.screen._forward_event(cls(**kwargs))
    await settle(pilot)


async def play_to_end(app: ArabesqueApp, pilot: Any, max_steps: int = 400) -> Human:
    human = Human(app, pilot)
    state = app.session.state
    screen = game(app)
    await settle(pilot)
    for step in range(max_steps):
        if state.is_over:
            return human
        assert screen.mode is Mode.CHOICE, screen.mode  # bots have no delay
        snap = Snapshot(app)
        check_screen_matches_view(app, snap)
        check_options(app)
        kind, action = human.pick()
        prompt = " ".join(snap.panel("prompt").replace("│", " ").split())
        # The prompt is the decision's, with the seats named as at the table.
        decision = state.view(0)["decision"]
        assert name_seats(decision["prompt"], app.session.names) in prompt
        if kind == "show":
            thief = app.session.names[decision["context"]["thief"]]
            assert f"{thief} played yellow: secretly choose the tile you show" in prompt
        elif kind == "steal":
            for tile in state.view(0)["shown"].values():
                assert tile["name"] in prompt
        await human.choose(kind, action, step)
    raise AssertionError(f"the game did not end in {max_steps} steps")


async def check_game_over(app: ArabesqueApp, pilot: Any) -> None:
    """The game-over panel shows the engine's final scores, breakdown, ranks and reason."""
    await pilot.pause()
    state = app.session.state
    assert state.is_over
    assert isinstance(app.screen, GameOverScreen)
    rows = app.screen.table_rows()
    scores = state.scores()
    ranks = state.ranking()
    for p, row in rows.items():
        assert row["player"] == app.session.names[p]
        assert row["total"] == str(scores[p].total)
        assert row["rank"] == str(ranks[p])
    snap = Snapshot(app)
    r = app.screen.query_one("#over-title").region
    text = " ".join(
        " ".join(snap.lines[y].crop(r.x, r.right).text for y in range(r.y, r.bottom)).split()
    )
    assert "Game over." in text
    end = next(e for e in state.view(0)["log"] if e["kind"] == "game_end")
    reason = app.screen.reason
    assert reason.startswith(end["reason"].capitalize())
    assert reason in text
    assert "Game over: " + end["reason"] in log_text(app)
    totals = [s.total for s in scores]
    if len(set(totals)) < len(totals):
        assert "tied on" in reason
    await pilot.press("escape")
    assert game(app).mode is Mode.OVER
    assert "GAME OVER" in Snapshot(app).panel("status")
    await pilot.press("enter")
    assert isinstance(app.screen, GameOverScreen)
    await pilot.press("q")
    await pilot.pause()
    assert app.return_value == 0


# -- whole games in every variant --------------------------------------------------------------

#: Every kind of decision, and every way of answering it through the screen.
DECISIONS = {
    "take",
    "green-also",
    "green-pass",
    "white-kind",
    "white-colour",
    "white-pass",
    "yellow-use",
    "yellow-pass",
    "show",
    "steal",
}
HOW = {"key", "arrows", "click"}
LAMP = {"lamp-keep", "lamp-swap"}
GAMES = [
    # variant, players, seed, decisions that must come up (seeds chosen so that all do)
    ("standard", 3, 4, DECISIONS | HOW),
    ("aladdins-lamp", 3, 4, DECISIONS | LAMP | HOW),
    ("equal-treasures", 4, 0, DECISIONS | HOW),
    # Two players: one tile is shown to a yellow effect, so it is taken without a choice.
    ("smaller-cave", 2, 1, (DECISIONS - {"steal"}) | HOW),
]


@pytest.mark.parametrize(("variant", "players", "seed", "expected"), GAMES)
async def test_whole_game_through_the_screen(
    variant: str, players: int, seed: int, expected: set[str]
) -> None:
    agents: dict[int, Agent] = {p: YellowBot(seed * 10 + p) for p in range(1, players)}
    app = build_app(
        "ali-baba",
        players,
        players - 1,
        seed=seed,
        bot_delay=0,
        agents=agents,
        params={"variant": variant},
    )
    async with app.run_test(size=SIZE) as pilot:
        human = await play_to_end(app, pilot)
        assert expected <= set(human.seen), human.seen
        await check_game_over(app, pilot)


async def test_narrow_terminals() -> None:
    """At 100 columns the panels stand side by side with narrower tiles; below 96 they stack
    (and come back side by side when the terminal grows)."""
    agents: dict[int, Agent] = {1: YellowBot(1), 2: YellowBot(2)}
    app = build_app("ali-baba", 3, 2, seed=3, bot_delay=0, agents=agents)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert screen._half_w == 5 and not screen.has_class("-narrow")
        board = screen.query_one(CaveBoard)
        options = screen.query_one(OptionList)
        assert board.region.right <= options.region.x <= options.region.right <= 100
        human = Human(app, pilot)
        for step in range(3):
            check_board(app, Snapshot(app))
            check_options(app)
            kind, action = human.pick()
            await human.choose(kind, action, step)
        await pilot.resize_terminal(80, 40)
        await settle(pilot)
        assert screen.has_class("-narrow")
        left = screen.query_one("#left")
        assert left.region.width >= 76  # all but the scroll bar
        assert options.region.right <= 80 and options.region.bottom <= 40  # always in sight
        table = screen.query_one("#players-narrow")
        assert table.display and not screen.query_one("#players").display
        out = io.StringIO()
        Console(width=76, file=out).print(table.content)
        assert "Bot 1" in out.getvalue()
        check_board(app, Snapshot(app))
        check_options(app)
        await pilot.resize_terminal(140, 45)
        await settle(pilot)
        assert not screen.has_class("-narrow") and screen._half_w == 6
        assert board.region.right <= options.region.x
        check_board(app, Snapshot(app))


# -- the secret of a yellow effect -------------------------------------------------------------


async def _screen_while_showing(show: str) -> tuple[list[str], str]:
    """Play (first options everywhere) until the human must show a tile while Bot 2 has
    already chosen one in secret; returns the screen and the log then."""
    agents: dict[int, Agent] = {
        1: YellowBot(1, random_play=False),
        2: YellowBot(2, show=show, random_play=False),
    }
    app = build_app("ali-baba", 3, 2, seed=5, bot_delay=0, agents=agents)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.state
        for _ in range(200):
            await settle(pilot)
            view = state.view(0)
            if view["phase"] == "show" and 0 in view["to_act"] and state.shows[2] != NOT_SHOWN:
                assert len(state.hands[2]) > 1  # a real choice, made in secret
                assert not any(e["kind"] == "show_chosen" and e["player"] != 0 for e in view["log"])
                snap = Snapshot(app)
                lines = [line.text for line in snap.lines if "▁" not in line.text]
                return lines, log_text(app)
            assert not state.is_over
            await quick_press(pilot, next(iter(game(app).panel.keys)))
    raise AssertionError("the human was never asked to show a tile")


async def test_a_tile_chosen_in_secret_never_reaches_the_screen() -> None:
    first, first_log = await _screen_while_showing("first")
    last, last_log = await _screen_while_showing("last")
    assert first == last
    assert first_log == last_log


async def test_steal_and_show_reveal_together() -> None:
    """After the human shows, the shown tiles appear in the log together, in words."""
    agents: dict[int, Agent] = {
        1: YellowBot(1, random_play=False),
        2: YellowBot(2, show="last", random_play=False),
    }
    app = build_app("ali-baba", 3, 2, seed=5, bot_delay=0, agents=agents)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.state
        for _ in range(200):
            await settle(pilot)
            view = state.view(0)
            if view["phase"] == "show" and 0 in view["to_act"]:
                break
            await quick_press(pilot, next(iter(game(app).panel.keys)))
        await quick_press(pilot, next(iter(game(app).panel.keys)))
        shown = next(e for e in reversed(state.view(0)["log"]) if e["kind"] == "shown")
        log = log_text(app).replace("\n", " ")
        assert "You chose to show the" in log
        for seat, tile in shown["tiles"].items():
            owner = "your" if seat == "0" else f"Bot {seat}'s"
            assert f"{owner} {tile['name']}" in log


# -- forbidden tiles, the lamp row, the bot delay ----------------------------------------------


def test_forbidden_tiles_are_marked_for_the_seat_they_bind() -> None:
    state = SPEC.new_game(SPEC.make_params(num_players=3), seed=3)
    view = state.view(0)
    up = [p["tile"] for p in view["board"]["places"] if p["state"] == "face_up"]
    kind = up[0]["kind"]
    colour = up[1]["colour"]
    view["blocks"] = [
        {"by": 1, "type": "kind", "what": kind},
        {"by": 0, "type": "colour", "what": colour},
    ]
    seen = draw_board(view, BoardMarks(seat=0)).text.plain
    expected_forbid = sum(1 for t in up if t["kind"] == kind)
    expected_others = sum(1 for t in up if t["colour"] == colour and t["kind"] != kind)
    assert seen.count("✗forbid") == expected_forbid
    assert seen.count("✗others") == expected_others
    # For Bot 1 (its own block binds only the others) it is the other way round.
    seen = draw_board(view, BoardMarks(seat=1)).text.plain
    assert seen.count("✗forbid") == sum(1 for t in up if t["colour"] == colour)
    info = Console(width=80, file=io.StringIO())
    info.print(cave_info(view, lambda p: "You" if p == 0 else f"Bot {p}"))


async def test_bot_delay_paces_the_bots() -> None:
    app = build_app("ali-baba", 2, 2, agent="random", seed=4, bot_delay=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert game(app).mode is Mode.WAIT
        before = len(app.session.state.history)
        await pilot.pause(0.3)
        assert len(app.session.state.history) > before
        assert "Waiting for Bot" in Snapshot(app).panel("prompt")


async def test_bots_only_game_is_shown_to_a_spectator() -> None:
    app = build_app("ali-baba", 2, 2, agent="random", seed=2, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session.is_over
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("escape")
        assert "You are watching" in Snapshot(app).panel("mine")


# -- every event and panel renders, in many random games ---------------------------------------


def _name(seat: int | None) -> str:
    return "nobody" if seat is None else ("You" if seat == 0 else f"Bot {seat}")


NAMES = [_name(p) for p in range(5)]


ALL_EVENTS = {
    "setup",
    "take",
    "flip",
    "score",
    "also_take",
    "yellow",
    "show_chosen",
    "shown",
    "steal",
    "forbid",
    "lamp_swap",
    "lamp_kept",
    "pass",
    "no_effect",
    "last_flip",
    "game_end",
}


class KeepsLamps(RandomAgent):
    """Random, but keeps a lamp half the time (a random pick among seven options rarely
    does)."""

    def act(self, obs: Observation) -> int:
        keep = obs.parse_action("keep lamp")
        if keep in obs.legal and self.rng.random() < 0.5:
            return keep
        return super().act(obs)


def test_every_event_and_panel_renders_in_random_games() -> None:
    console = Console(width=100, file=io.StringIO())
    kinds: set[str] = set()
    variants = ("standard", "aladdins-lamp", "equal-treasures", "smaller-cave")

    def draw(state: GameState, seat: int, action: int) -> None:
        if len(state.history) % 13:
            return
        for who in (0, None):
            view = state.view(who)
            console.print(
                draw_board(view, BoardMarks(seat=who)).text,
                cave_info(view, _name),
                my_screen(view),
                players_table(view, _name),
            )
            for p in sorted(state.to_act()):
                view = state.view(p)
                notes = {
                    o["action"]: option_note(o["text"], view) for o in view["decision"]["options"]
                }
                rows = rows_for(view["decision"], Presentation(notes=notes), NAMES, {})
                assert sorted(r.action for r in rows) == sorted(state.legal_actions(p))
                for row in rows:
                    console.print(row.prompt())
                    assert row.label and "player" not in row.label

    for seed in range(8):
        variant = variants[seed % 4]
        n = 2 if variant == "smaller-cave" else 2 + seed % 3
        params = SPEC.make_params(num_players=n, variant=variant)
        agents = [KeepsLamps(seed * 10 + p) for p in range(n)]
        state = play_game(SPEC, params, agents, seed=seed, on_action=draw)
        for who in range(n):
            for event in state.view(who)["log"]:
                line = describe_event(event, _name)
                kinds.add(event["kind"])
                assert line is not None
                assert not line.plain.startswith(f"{event['kind']}: {{"), event
        view = state.view(0)
        console.print(tie_break_note(view, _name))
    assert kinds >= ALL_EVENTS, ALL_EVENTS - kinds


def test_colours_are_spelt_out_or_explained() -> None:
    """Your screen names the tiles' colours in full where they fit; where they do not, the
    two-letter names come with a legend (a new player could not tell "pi br wh")."""
    state = SPEC.new_game(SPEC.make_params(num_players=2), seed=3)
    view = state.view(0)
    up = [p["tile"] for p in view["board"]["places"] if p["state"] == "face_up"]
    view["players"][0]["tiles"] = up[:5]
    colours = {t["colour"] for t in up[:5]}

    def shown(width: int) -> str:
        out = io.StringIO()
        Console(width=width, file=out).print(my_screen(view))
        return out.getvalue()

    wide = shown(100)
    for colour in colours:
        assert re.search(rf"\b{colour}\b", wide)
    narrow = shown(34)
    assert max(len(line) for line in narrow.splitlines()) <= 34
    for colour in colours:
        assert f" {colour[:2]} " in narrow and re.search(rf"\b{colour}\b", narrow)  # legend


def test_uncovered_counts_match_the_engine() -> None:
    """The options' "uncovers n" (and so the blue preview) is worked out from the view's
    coordinates; it must be what the engine flips when the tile is taken."""
    checked = 0
    for seed, variant in enumerate(("standard", "smaller-cave", "equal-treasures")):
        n = 2 if variant == "smaller-cave" else 3
        state = SPEC.new_game(SPEC.make_params(num_players=n, variant=variant), seed=seed)
        agent = RandomAgent(seed)
        while not state.is_over:
            seat = min(state.to_act())
            view = state.view(seat, include_log=False)
            if view["phase"] == "take":
                for action in state.legal_actions(seat):
                    name = state.action_to_str(action).removeprefix("take ")
                    place = next(
                        p
                        for p in view["board"]["places"]
                        if p["state"] == "face_up" and p["tile"]["name"] == name
                    )
                    after = state.clone()
                    after.apply(seat, action)
                    new = after.events[len(state.events) :]  # take, then flip if any
                    flip = new[1] if len(new) > 1 and new[1].kind == "flip" else None
                    flipped = len(flip.data["tiles"]) if flip else 0
                    assert uncovered_by(view, place) == flipped, (seed, name)
                    checked += 1
            state.apply(seat, agent.act(Observation(state, seat)))
    assert checked > 300


def test_events_in_words() -> None:
    tile = {"id": 1, "name": "blue ruby", "kind": "ruby", "colour": "blue", "effect": "flipped"}
    cases = {
        "You took the blue ruby (L4 r1 c2).": {"kind": "take", "player": 0, "tile": tile,
                                                "place": "L4 r1 c2"},
        "Bot 1 forbade rubies to the others until Bot 1's next turn.": {
            "kind": "forbid", "player": 1, "what": "ruby", "type": "kind"},
        "You forbade yellow tiles to the others until your next turn.": {
            "kind": "forbid", "player": 0, "what": "yellow", "type": "colour"},
        "Shown: your blue ruby and Bot 2's blue ruby.": {
            "kind": "shown", "tiles": {"0": tile, "2": tile}},
        "You took Bot 1's blue ruby.": {"kind": "steal", "player": 0, "owner": 1, "tile": tile},
        "Bot 2's green effect did nothing: no adjacent face-up tile.": {
            "kind": "no_effect", "player": 2, "effect": "green",
            "why": "no adjacent face-up tile"},
        "── Turn 7: Bot 1 ──": {"kind": "turn", "turn": 7, "player": 1},
    }  # fmt: skip
    for expected, event in cases.items():
        line = describe_event(event, _name)
        assert line is not None and line.plain == expected


def test_tie_break_is_explained() -> None:
    players = [{"seat": p, "count": c} for p, c in enumerate((12, 10, 10))]
    view = {
        "players": players,
        "scores": [{"total": 40}, {"total": 40}, {"total": 30}],
        "ranking": [2, 1, 3],
    }
    note = tie_break_note(view, _name)
    assert "Bot 1 and You tied on 40 points" in note
    assert "fewer tiles wins the tie" in note and "Bot 1 ranks ahead" in note
    view["scores"] = [{"total": 40}, {"total": 30}, {"total": 30}]
    view["ranking"] = [1, 2, 2]
    assert "share the place" in tie_break_note(view, _name)
    view["scores"] = [{"total": 40}, {"total": 30}, {"total": 20}]
    view["ranking"] = [1, 2, 3]
    assert tie_break_note(view, _name) == ""
