"""The browser client's lobby and table pages (docs/web.md), driven in headless Chromium with
Playwright against a real server on a loopback port: create a table from the lobby, play a
whole game by clicking, and come back to a game after a reload.

Skipped when Chromium (/usr/bin/chromium) or Python Playwright is missing."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.server_client import Lobby, ServerThread
from tests.web_helpers import (  # the *_fixture: pytest fixtures, found by name
    Frames,
    Player,
    assert_result_matches,
    browser_fixture,  # noqa: F401
    create_from_lobby,
    lobby_fixture,  # noqa: F401
    page_fixture,  # noqa: F401
    scores_shown,
    server_fixture,  # noqa: F401
    skip_without_browser,
)

expect = skip_without_browser().expect

pytestmark = pytest.mark.browser


def player(page: Any) -> Player:
    """Plays this page's seat (call before the page opens the table): rubs the lamp, and
    answers an option by its key every third move, else by clicking it in the list."""
    return Player(page, Frames(page), board_every=0, key_every=3)


def test_lobby_lists_games_and_creates_a_table(
    server: ServerThread, lobby: Lobby, page: Any
) -> None:
    games = lobby.http.get("/api/games").json()
    page.goto(server.url + "/")
    options = page.get_by_label("Game", exact=True).locator("option")
    expect(options).to_have_count(len(games))  # once the page has asked the server
    listed = options.all_inner_texts()
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
    server: ServerThread, lobby: Lobby, page: Any
) -> None:
    me = player(page)
    table_id = create_from_lobby(page, server.url, "Aladdin & the Magic Lamp")
    moves = me.play_to_the_end(limit_s=45)
    assert moves > 3

    table = lobby.table(table_id)
    assert table["status"] == "finished"
    record = lobby.record(table_id)
    assert record.status_code == 200
    assert record.json()["metadata"]["result"]["scores"] == table["result"]["scores"]

    # The page shows every seat's total and where it came from, the winner first.
    result = page.locator(".result")
    assert "Game over" in result.inner_text()
    assert len(scores_shown(page)) == 3
    assert_result_matches(page, table, "Tester")
    scores = table["result"]["scores"]
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


def test_a_reload_mid_game_continues(server: ServerThread, lobby: Lobby, page: Any) -> None:
    me = player(page)
    table_id = create_from_lobby(page, server.url, "Ali Baba")
    for _ in range(3):
        assert me.play_one()
    version_before: Any = lobby.table(table_id)["version"]
    log_before = page.locator(".log li").count()
    assert log_before > 0

    page.reload()
    # The same seat (the token was kept), the whole log again, and play goes on.
    page.wait_for_selector(".decision-panel.active")
    assert "Tester (you)" in page.locator(".players").inner_text()
    assert page.locator(".log li").count() >= log_before
    assert me.play_one()
    deadline = time.monotonic() + 10
    while lobby.table(table_id)["version"] == version_before:
        assert time.monotonic() < deadline, "the move after the reload did not reach the server"
        time.sleep(0.1)
    seat = lobby.table(table_id)["seats"][0]
    assert seat["taken"] and seat["connected"]
