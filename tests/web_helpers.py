"""Shared helpers for the browser tests (tests/test_web_*.py): headless Chromium driven with
Playwright's sync API against a ``ServerThread``.

- ``CHROMIUM`` and ``skip_without_browser()``: the browser tests skip (not fail) on a machine
  without Chromium at /usr/bin/chromium or without Python Playwright.
- The fixtures ``server`` (a ``ServerThread`` on a fresh data folder, per module), ``lobby``
  (its HTTP client), ``browser`` (headless Chromium, per module) and ``page`` (a fresh page
  per test, through ``open_page``). A test module imports the ``*_fixture`` functions it
  uses; pytest finds them by their fixture names.
- ``open_page``: a fresh browser context and page at a viewport size; a script error on the
  page fails the test when the context closes.
- ``Frames``: every websocket frame a page received, parsed, so a test can know what the
  page was told (the lamp race's dice, a frame's seat) without the page saying it.
- ``create_from_lobby``: a table made through the lobby's form, as a player would.
- ``Player``: plays a seat's decisions through the page (a board mark, a shortcut key or the
  option list) until the game is over, waiting on what the page was sent, never on sleeps.
- ``scores_shown``: the result table at the end, as the page shows it;
  ``assert_result_matches``: that it shows the server's totals.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from arabesque.core.decision import expand_options
from arabesque.server.settings import Settings
from tests.server_client import Lobby, ServerThread

CHROMIUM = "/usr/bin/chromium"

#: Playwright waits (ms): every step is a small request to a server on loopback, but the suite
#: runs on a loaded two-core machine beside other xdist workers.
WAIT_MS = 20_000

#: The two sizes every page is checked at: a laptop and a phone.
DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 375, "height": 812}

#: The page's shortcut keys of the first options, in order (pages/table.js, OPTION_KEYS).
OPTION_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"


def skip_without_browser() -> Any:
    """The Playwright sync API module, or a module-level skip when the browser tests cannot
    run on this machine. Call at the top of a browser test module."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need Python Playwright"
    )
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"the browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
    return sync_api


@contextlib.contextmanager
def open_page(browser: Any, viewport: dict[str, int] | None = None) -> Iterator[Any]:
    """A page in a context of its own (its own localStorage: its own seat tokens), at
    ``viewport``; any script error on it fails the test at the end."""
    context = browser.new_context(viewport=viewport or DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(WAIT_MS)
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"


# -- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with ServerThread(Settings(data_dir=tmp_path_factory.mktemp("web"))) as running:
        yield running


@pytest.fixture(scope="module", name="lobby")
def lobby_fixture(server: ServerThread) -> Iterator[Lobby]:
    client = Lobby(server.url)
    yield client
    client.close()


@pytest.fixture(scope="module", name="browser")
def browser_fixture() -> Iterator[Any]:
    sync_api = skip_without_browser()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture(name="page")
def page_fixture(browser: Any) -> Iterator[Any]:
    """A fresh page at the laptop's size; any script error on it fails the test."""
    with open_page(browser) as page:
        yield page


# -- what a page was sent ----------------------------------------------------------------------


class Frames:
    """Every text frame the page's table websockets received, parsed, in order (pings
    included). Playwright hands them over whenever the test calls into it, so a test waits
    with ``wait_until`` (which keeps calling in) rather than reading ``frames`` in a loop."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[dict[str, Any]] = []
        #: ``connection_of[i]``: which of the page's websockets (0, 1, ...) got ``frames[i]``
        #: (the page opens a new one to reconnect, or to play a seat it just took).
        self.connection_of: list[int] = []
        self.connections = 0
        #: Every message the page sent (hello, actions, reacts, pongs), parsed.
        self.sent: list[dict[str, Any]] = []
        page.on("websocket", self._attach)

    def _attach(self, ws: Any) -> None:
        if "/ws/tables/" not in ws.url:
            return
        connection = self.connections
        self.connections += 1
        ws.on("framereceived", lambda payload: self._received(payload, connection))
        ws.on("framesent", lambda payload: self.sent.append(_parse(payload)))

    def _received(self, payload: str | bytes, connection: int) -> None:
        self.frames.append(_parse(payload))
        self.connection_of.append(connection)

    # -- reading ------------------------------------------------------------------------------

    def of_type(self, *types: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") in types]

    @property
    def views(self) -> list[dict[str, Any]]:
        """Every view received (welcomes and updates), in order."""
        return [
            f["view"]
            for f in self.frames
            if f.get("type") in ("welcome", "update") and f.get("view") is not None
        ]

    @property
    def view(self) -> dict[str, Any] | None:
        """The newest view received."""
        views = self.views
        return views[-1] if views else None

    def views_by_seat(self) -> list[tuple[int | None, dict[str, Any]]]:
        """Every view received, with the seat its connection's welcome gave the page."""
        seat_of: dict[int, int | None] = {}
        out = []
        for frame, connection in zip(self.frames, self.connection_of, strict=True):
            if frame.get("type") == "welcome":
                seat_of[connection] = frame["seat"]
            if frame.get("type") in ("welcome", "update") and frame.get("view") is not None:
                out.append((seat_of[connection], frame["view"]))
        return out

    @property
    def seat(self) -> int | None:
        """The seat the newest welcome gave the page (None: watching)."""
        welcomes = self.of_type("welcome")
        return welcomes[-1]["seat"] if welcomes else None

    @property
    def game_over(self) -> bool:
        return bool(self.of_type("game_over")) or bool(self.view and self.view["is_over"])

    def wait_until(
        self, predicate: Callable[[], bool], timeout_s: float = WAIT_MS / 1000, what: str = ""
    ) -> None:
        """Wait until ``predicate()`` holds, letting Playwright deliver frames meanwhile."""
        deadline = time.monotonic() + timeout_s
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out after {timeout_s} s waiting for {what or predicate}"
                )
            # Not a guess at how long something takes: a short poll that lets Playwright
            # dispatch the frames that arrived; the condition is checked after each.
            self.page.wait_for_timeout(20)


def _parse(payload: str | bytes) -> dict[str, Any]:
    text = payload.decode() if isinstance(payload, bytes) else payload
    parsed: dict[str, Any] = json.loads(text)
    return parsed


# -- the lobby ---------------------------------------------------------------------------------


def create_from_lobby(
    page: Any,
    base: str,
    game_name: str,
    *,
    name: str = "Tester",
    seats: Sequence[str] = ("Bot: heuristic", "Bot: heuristic"),
    options: Callable[[Any], None] | None = None,
) -> str:
    """Create a table through the lobby's form with this page's player at seat 1 and
    ``seats`` (the form's words: "Bot: heuristic", "Open for a friend") at the others, no
    clock, the quickest bots; ``options`` may set the game's options on the page. Returns
    the table id the page went to."""
    page.goto(base + "/")
    page.fill("#player-name", name)
    page.get_by_label("Game", exact=True).select_option(label=game_name)
    page.get_by_label("Players").select_option(str(len(seats) + 1))
    for i, who in enumerate(seats):
        # The bots' labels go on with their descriptions ("Bot: easy (search bot, ...)").
        value = "human" if who == "Open for a friend" else "bot:" + who.removeprefix("Bot: ")
        page.get_by_label(f"Seat {i + 2}").select_option(value=value)
    page.get_by_label("Clock").select_option(label="No clock")
    page.get_by_label("Bots think at most").select_option(label="half a second")
    if options is not None:
        options(page)
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]+$"))
    return str(page.url.rsplit("/", 1)[1])


# -- playing through the page ------------------------------------------------------------------

#: What the page shows when this seat has something to do: the result, the lamp, an option.
ACTIONABLE = (
    ".result:not([hidden]), .lamp-button:not([disabled]),"
    " .option-list button.option:not([disabled])"
)


@dataclass
class Player:
    """Plays one seat through its page, one decision at a time.

    A decision is answered only once the page was sent a view newer than the one last
    answered, and the page shows it (its option list or lamp). How each is answered: by its
    shortcut key every ``key_every``-th move, else by clicking where the board marks it when
    it does (every ``board_every``-th move), else from the list; ``choose`` picks which of
    the offered options (default: cycle through them)."""

    page: Any
    frames: Frames
    board_every: int = 1
    key_every: int = 3
    choose: Callable[[dict[str, Any], int], int] | None = None
    #: Press the lamp in every race (False: let every race go by without pressing).
    rub: bool = True
    moves: int = 0
    board_moves: int = 0
    key_moves: int = 0
    list_moves: int = 0
    races: int = 0
    answered_version: int = -1
    log: list[str] = field(default_factory=list)

    def my_decision(self) -> dict[str, Any] | None:
        view = self.frames.view
        if view is None or view["is_over"]:
            return None
        decision: dict[str, Any] | None = view.get("decision")
        if decision is None or view["version"] <= self.answered_version:
            return None
        # A range of options (docs/protocol.md) written out, as the page does.
        return {**decision, "options": expand_options(decision["options"])}

    def wait_for_turn(self, timeout_s: float = WAIT_MS / 1000) -> dict[str, Any] | None:
        """The next decision of this seat, once the page shows it; None when the game is
        over (and the page shows the result)."""
        self.frames.wait_until(
            lambda: self.frames.game_over or self.my_decision() is not None,
            timeout_s,
            "this seat's next decision",
        )
        if self.my_decision() is None:
            self.page.wait_for_selector(".result:not([hidden])")
            return None
        decision = self.my_decision()
        assert decision is not None
        if decision["reaction"] is not None:
            self.page.wait_for_selector(".lamp-button:not([disabled])")
        else:
            self.page.wait_for_selector(".option-list button.option:not([disabled])")
        return decision

    def play_one(self) -> bool:
        """Answer the next decision; False once the game is over."""
        decision = self.wait_for_turn()
        if decision is None:
            return False
        view = self.frames.view
        assert view is not None
        self.answered_version = view["version"]
        if decision["reaction"] is not None:
            self.races += 1
            # Not pressing: the race closes at its deadline with "no rub" for this seat.
            if self.rub and self.races % 2:
                self.page.keyboard.press("Space")
            elif self.rub:
                self.page.click(".lamp-button")
            self.moves += 1
            return True
        options = decision["options"]
        index = self.choose(decision, self.moves) if self.choose else self.moves % len(options)
        action = options[index]["action"]
        marks = self.page.locator(f'.board .option-mark[data-action="{action}"]')
        if self.key_every and self.moves % self.key_every == 0 and index < len(OPTION_KEYS):
            self.page.keyboard.press(OPTION_KEYS[index])
            self.key_moves += 1
        elif self.board_every and self.moves % self.board_every == 0 and marks.count():
            marks.first.click()
            self.board_moves += 1
        else:
            self.page.click(f'.option-list button.option[data-action="{action}"]')
            self.list_moves += 1
        self.log.append(options[index]["text"])
        self.moves += 1
        return True

    def play_to_the_end(self, limit_s: float = 60.0) -> int:
        deadline = time.monotonic() + limit_s
        while self.play_one():
            assert time.monotonic() < deadline, (
                f"the game did not end in {limit_s} s ({self.moves} moves)"
            )
        return self.moves


def first_marked(page: Any) -> Callable[[dict[str, Any], int], int]:
    """A ``choose`` that prefers an option the board marks (so most moves are board clicks),
    else cycles through the list."""

    def choose(decision: dict[str, Any], move: int) -> int:
        marked = {
            int(a)
            for a in page.eval_on_selector_all(
                ".board .option-mark", "els => els.map(e => e.dataset.action)"
            )
        }
        options = decision["options"]
        on_board = [i for i, o in enumerate(options) if o["action"] in marked]
        if on_board:
            return on_board[move % len(on_board)]
        return move % len(options)

    return choose


# -- the end -----------------------------------------------------------------------------------


def assert_result_matches(page: Any, info: dict[str, Any], me: str, seat: int = 0) -> None:
    """The page's result table shows the server's totals (``info``: the table's info), the
    winner first, and names us (at ``seat``) with our total."""
    scores = info["result"]["scores"]
    shown = scores_shown(page)
    assert len(shown) == len(scores)
    assert sorted(total for _, total in shown) == sorted(s["total"] for s in scores)
    assert shown[0][1] == max(s["total"] for s in scores)
    assert (f"{me} (you)", scores[seat]["total"]) in shown


def scores_shown(page: Any) -> list[tuple[str, int]]:
    """The result table: (player as shown, total) per row, in the page's order."""
    rows = page.locator(".result tbody tr")
    return [
        (
            rows.nth(i).locator("th").inner_text().strip(),
            int(rows.nth(i).locator(".total").inner_text()),
        )
        for i in range(rows.count())
    ]
