"""The browser client's lobby and table pages (docs/web.md), driven in headless Chromium with
Playwright against a real server on a loopback port: create a table from the lobby, play a
whole game by clicking, and come back to a game after a reload.

Skipped when Chromium (/usr/bin/chromium) or Python Playwright is missing."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

from arabesque.server.settings import Settings
from tests.server_client import Lobby, ServerThread

CHROMIUM = "/usr/bin/chromium"

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("Python Playwright is not installed", allow_module_level=True)
if shutil.which(CHROMIUM) is None:  # pragma: no cover - depends on the machine
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

pytestmark = pytest.mark.browser

#: What the page shows when something is to be done: the result, the lamp, or an option.
ACTIONABLE = (
    ".result:not([hidden]), .lamp-button:not([disabled]),"
    " .option-list button.option:not([disabled])"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with ServerThread(Settings(data_dir=tmp_path_factory.mktemp("web-pages"))) as srv:
        yield srv


@pytest.fixture(scope="module")
def lobby(server: ServerThread) -> Iterator[Lobby]:
    client = Lobby(server.url)
    yield client
    client.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"


def create_from_lobby(page: Page, base: str, game_name: str, name: str = "Tester") -> str:
    """Create a 3-player table against two heuristic bots through the lobby's form, no clock,
    the quickest bots; returns the table id the page went to."""
    page.goto(base + "/")
    page.fill("#player-name", name)
    page.get_by_label("Game", exact=True).select_option(label=game_name)
    page.get_by_label("Players").select_option("3")
    for seat in ("Seat 2", "Seat 3"):
        page.get_by_label(seat).select_option(label="Bot: heuristic")
    page.get_by_label("Clock").select_option(label="No clock")
    page.get_by_label("Bots think at most").select_option(label="half a second")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]+$"))
    return page.url.rsplit("/", 1)[1]


def play_one(page: Page, step: int) -> bool:
    """Make the next move the page offers (rub the lamp, or an option: by key every third
    move, else by clicking); False once the game is over."""
    page.wait_for_selector(ACTIONABLE)
    if page.locator(".result:not([hidden])").count():
        return False
    lamp = page.locator(".lamp-button:not([disabled])")
    if lamp.count():
        lamp.click()
        return True
    options = page.locator(".option-list button.option:not([disabled])")
    count = options.count()
    if count == 0:  # the panel was being drawn again; look once more
        return True
    index = step % count
    if step % 3 == 0 and index < 9:
        page.keyboard.press(str(index + 1))
    else:
        options.nth(index).click()
    return True


def play_to_the_end(page: Page, limit_s: float = 45.0) -> int:
    deadline = time.monotonic() + limit_s
    moves = 0
    while play_one(page, moves):
        moves += 1
        assert time.monotonic() < deadline, f"the game did not end in {limit_s} s ({moves} moves)"
    return moves


def test_lobby_lists_games_and_creates_a_table(
    server: ServerThread, lobby: Lobby, page: Page
) -> None:
    games = lobby.http.get("/api/games").json()
    page.goto(server.url + "/")
    listed = page.get_by_label("Game", exact=True).locator("option").all_inner_texts()
    assert sorted(listed) == sorted(g["name"] for g in games)

    table_id = create_from_lobby(page, server.url, "Aladdin & the Magic Lamp", name="Ann")
    table = lobby.table(table_id)
    assert table["game"] == "magic-lamp"
    assert table["status"] == "running"  # every seat taken: it started by itself
    assert table["seats"][0]["name"] == "Ann"
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot"]
    assert table["clock"]["per_move_s"] is None
    # The page holds seat 0 and shows its first decision.
    page.wait_for_selector(".decision-panel.active")
    assert "Ann (you)" in page.locator(".players").inner_text()
    assert page.locator(".connection").inner_text().strip() == "Connected"

    # The lobby lists it among the games being played, and among this browser's games.
    page.goto(server.url + "/")
    page.wait_for_selector(f'a[href="/tables/{table_id}"]')
    assert "Resume" in page.locator("section", has_text="Your recent games").inner_text()


def test_a_whole_magic_lamp_game_through_the_page(
    server: ServerThread, lobby: Lobby, page: Page
) -> None:
    table_id = create_from_lobby(page, server.url, "Aladdin & the Magic Lamp")
    moves = play_to_the_end(page)
    assert moves > 3

    table = lobby.table(table_id)
    assert table["status"] == "finished"
    record = lobby.record(table_id)
    assert record.status_code == 200
    assert record.json()["metadata"]["result"]["scores"] == table["result"]["scores"]

    # The page shows every seat's total and where it came from, the winner first.
    result = page.locator(".result")
    assert "Game over" in result.inner_text()
    rows = result.locator("tbody tr")
    assert rows.count() == 3
    scores = table["result"]["scores"]
    shown = [
        (rows.nth(i).locator("th").inner_text(), int(rows.nth(i).locator(".total").inner_text()))
        for i in range(3)
    ]
    assert ("Tester (you)", scores[0]["total"]) in shown
    assert sorted(total for _, total in shown) == sorted(s["total"] for s in scores)
    assert shown[0][1] == max(s["total"] for s in scores)
    assert "cards" in result.locator(".breakdown").first.inner_text() or scores[0]["total"] == 0
    # The way to the replay and to the record.
    assert (
        result.get_by_role("link", name="Watch the replay").get_attribute("href")
        == f"/tables/{table_id}/replay"
    )
    assert (
        result.get_by_role("link", name="Download the record").get_attribute("href")
        == f"/api/tables/{table_id}/record"
    )


def test_a_reload_mid_game_continues(server: ServerThread, lobby: Lobby, page: Page) -> None:
    table_id = create_from_lobby(page, server.url, "Ali Baba")
    for step in range(3):
        assert play_one(page, step)
    version_before: Any = lobby.table(table_id)["version"]
    log_before = page.locator(".log li").count()
    assert log_before > 0

    page.reload()
    # The same seat (the token was kept), the whole log again, and play goes on.
    page.wait_for_selector(".decision-panel.active")
    assert "Tester (you)" in page.locator(".players").inner_text()
    assert page.locator(".log li").count() >= log_before
    assert play_one(page, 3)
    deadline = time.monotonic() + 10
    while lobby.table(table_id)["version"] == version_before:
        assert time.monotonic() < deadline, "the move after the reload did not reach the server"
        time.sleep(0.1)
    seat = lobby.table(table_id)["seats"][0]
    assert seat["taken"] and seat["connected"]
