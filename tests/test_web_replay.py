"""The browser's replay viewer and rules pages (docs/web.md), driven in headless Chromium.

A server runs in a thread on a fresh SQLite database; a table of bots is played to the end
through the HTTP lobby, then the pages are driven as a visitor would: the replay of the table
stepped forward and back to its scores, the same game from its record file, a file that is
not a record, and each game's rules page.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server_client import Lobby, ServerThread
from tests.web_helpers import (  # the *_fixture: pytest fixtures, found by name
    browser_fixture,  # noqa: F401
    page_fixture,  # noqa: F401
    server_fixture,  # noqa: F401
    skip_without_browser,
)

skip_without_browser()

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def finished_table(server: ServerThread) -> dict[str, Any]:
    """A short magic-lamp game of heuristic bots, played to the end; its TableInfo."""
    lobby = Lobby(server.url)
    try:
        table_id, _host = lobby.create(
            "magic-lamp",
            players=3,
            options={"max_turns": 3},
            seats=[{"kind": "bot", "agent": "heuristic"}] * 3,
            auto_start=True,
            bot_think_s=0.05,
            clock={"per_move_s": None},
        )
        deadline = time.monotonic() + 30
        info = lobby.table(table_id)
        while info["status"] != "finished":
            assert time.monotonic() < deadline, f"the bots did not finish: {info['status']}"
            time.sleep(0.1)
            info = lobby.table(table_id)
        info["record"] = lobby.record(table_id).json()
        return info
    finally:
        lobby.close()


def _title(page: Any) -> str:
    return str(page.inner_text(".replay-step-title"))


def _wait_title(page: Any, prefix: str) -> None:
    page.wait_for_function(
        "p => document.querySelector('.replay-step-title')?.textContent.startsWith(p)", arg=prefix
    )


def _scores_shown(page: Any) -> dict[str, int]:
    """The final scores table: player name -> total."""
    rows = page.locator(".replay-scores tbody tr")
    return {
        rows.nth(i).locator("th").inner_text().strip(): int(
            rows.nth(i).locator(".replay-total").inner_text()
        )
        for i in range(rows.count())
    }


def _expected_scores(info: dict[str, Any]) -> list[int]:
    return sorted((s["total"] for s in info["result"]["scores"]), reverse=True)


def test_table_replay_steps_forward_and_back(
    server: ServerThread, finished_table: dict[str, Any], page: Any
) -> None:
    steps = len(finished_table["record"]["actions"])
    page.goto(f"{server.url}/tables/{finished_table['id']}/replay")
    _wait_title(page, "Setup")
    assert page.locator(".replay-slider").get_attribute("max") == str(steps)
    board_at_setup = page.inner_text(".replay-board")

    # Forward by button, then by keyboard; the title and the board follow.
    page.get_by_role("button", name="Forward").click()
    _wait_title(page, "Step 1 ·")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _wait_title(page, "Step 3 ·")
    board_at_3 = page.inner_text(".replay-board")
    assert board_at_3 != board_at_setup
    assert "Step 3 of" in page.inner_text(".replay-position")
    assert page.locator(".replay-log-step").count() == 4  # setup and steps 1 to 3

    # Back again: the same board as before, from the cache or the server.
    page.get_by_role("button", name="Back").click()
    _wait_title(page, "Step 2 ·")
    page.keyboard.press("Home")
    _wait_title(page, "Setup")
    assert page.inner_text(".replay-board") == board_at_setup
    assert page.get_by_role("button", name="Back").is_disabled()

    # The end: the scores the server reports for the table, winner first.
    page.keyboard.press("End")
    _wait_title(page, f"Step {steps} ·")
    page.wait_for_selector(".replay-result:not([hidden])")
    shown = _scores_shown(page)
    assert sorted(shown.values(), reverse=True) == _expected_scores(finished_table)
    assert list(shown.values()) == sorted(shown.values(), reverse=True)
    assert page.get_by_role("button", name="Forward").is_disabled()

    # A seat's own view: still the last step, the scores still shown.
    page.get_by_label("View the game as").select_option("0")
    page.wait_for_selector(".replay-result:not([hidden])")
    assert _title(page).startswith(f"Step {steps} ·")


def test_space_plays_and_pauses(
    server: ServerThread, finished_table: dict[str, Any], page: Any
) -> None:
    page.goto(f"{server.url}/tables/{finished_table['id']}/replay")
    _wait_title(page, "Setup")
    page.keyboard.press("Space")
    _wait_title(page, "Step 2 ·")  # one step at once, the next 0.8 s later
    page.keyboard.press("Space")
    assert page.get_by_role("button", name="Play").get_attribute("aria-pressed") == "false"
    paused_at = _title(page)
    page.wait_for_timeout(1200)
    assert _title(page) == paused_at


def test_replay_of_a_record_file(
    server: ServerThread, finished_table: dict[str, Any], page: Any, tmp_path: Path
) -> None:
    record_file = tmp_path / "game.json"
    record_file.write_text(json.dumps(finished_table["record"]))
    steps = len(finished_table["record"]["actions"])
    page.goto(f"{server.url}/replay")
    page.get_by_role("button", name="Choose a record file…").wait_for()
    page.set_input_files(".replay-file-input", str(record_file))
    _wait_title(page, "Setup")
    page.keyboard.press("ArrowRight")
    _wait_title(page, "Step 1 ·")
    page.keyboard.press("End")
    _wait_title(page, f"Step {steps} ·")
    page.wait_for_selector(".replay-result:not([hidden])")
    assert sorted(_scores_shown(page).values(), reverse=True) == _expected_scores(finished_table)


def test_a_file_that_is_not_a_record_is_refused_in_words(
    server: ServerThread, page: Any, tmp_path: Path
) -> None:
    page.goto(f"{server.url}/replay")
    page.get_by_role("button", name="Choose a record file…").wait_for()
    not_json = tmp_path / "notes.json"
    not_json.write_text("these are my notes, not a game")
    page.set_input_files(".replay-file-input", str(not_json))
    error = page.get_by_role("alert")
    error.filter(has_text="notes.json cannot be replayed").wait_for()
    assert "JSON" in error.inner_text()  # the server's own words say what is wrong

    other_json = tmp_path / "other.json"
    other_json.write_text('{"format": "something-else/2"}')
    page.set_input_files(".replay-file-input", str(other_json))
    error.filter(has_text="other.json cannot be replayed").wait_for()
    assert "arabesque-record/1" in error.inner_text()
    assert page.locator(".replay-step-title").count() == 0


def test_a_running_or_missing_table_says_why(server: ServerThread, page: Any) -> None:
    page.goto(f"{server.url}/tables/nosuchtable/replay")
    page.get_by_role("alert").filter(has_text="no table").wait_for()


# The games Arabesque ships (tests may register toy games of their own, without rules pages).
@pytest.mark.parametrize("game", ["magic-lamp", "ali-baba", "djinn"])
def test_rules_page(server: ServerThread, page: Any, game: str) -> None:
    page.goto(f"{server.url}/rules/{game}?from=/tables/abc123")
    page.wait_for_selector(".rules-text h2")
    assert page.locator("h1").filter(has_text="Rules of").count() == 1
    headings = page.locator(".rules-text h2")
    assert headings.count() >= 3
    # The contents link every heading of the rules, and the rulings.
    toc = page.get_by_role("navigation", name="Contents")
    assert toc.locator("a").count() >= headings.count() + 1
    assert page.get_by_role("heading", name="Our rulings").is_visible()
    rulings = page.locator(".rules-ruling")
    assert rulings.count() >= 1
    # A ruling opens when its summary is clicked.
    first = rulings.first
    assert first.get_attribute("open") is None
    first.locator("summary").click()
    assert first.get_attribute("open") is not None
    assert first.locator(".rules-ruling-body").is_visible()
    # Back links: the lobby, and the table the rules were opened from.
    assert page.get_by_role("link", name="Back to the lobby").get_attribute("href") == "/"
    assert (
        page.get_by_role("link", name="Back to the table").get_attribute("href") == "/tables/abc123"
    )


def test_rules_of_an_unknown_game(server: ServerThread, page: Any) -> None:
    page.goto(f"{server.url}/rules/no-such-game")
    page.get_by_role("alert").filter(has_text="no game").wait_for()
