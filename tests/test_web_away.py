"""A player who leaves does not stall the table (issue 17 §1), through the browser: two real
browser contexts at one table; the friend closes her tab, the host lets a bot play for her
once she has been away for the table's time, she comes back mid-way and gets her seat, and
the game ends normally; the host ends another game that cannot go on (with a confirm).

Skipped when Chromium (/usr/bin/chromium) or Python Playwright is missing. Screenshots go to
``$ARABESQUE_SCREENSHOTS`` (default: a pytest temporary folder, printed).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server_client import Lobby, ServerThread
from tests.web_helpers import (  # the *_fixture: pytest fixtures, found by name
    Frames,
    Player,
    assert_result_matches,
    browser_fixture,  # noqa: F401
    create_from_lobby,
    first_marked,
    lobby_fixture,  # noqa: F401
    open_page,
    server_fixture,  # noqa: F401
    skip_without_browser,
)

skip_without_browser()

pytestmark = pytest.mark.browser

#: The table's away time in these tests: the lobby form offers 30 s and more; the test
#: checks the form sent its choice and makes it this, so the test does not wait 30 s.
AWAY_S = 2.0


def _short_away(page: Any, chosen: float) -> None:
    """Check the lobby form sends the away time chosen, and shorten it to ``AWAY_S``."""

    def shorten(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data)
        assert body["away_s"] == chosen, body
        body["away_s"] = AWAY_S
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/tables", shorten)


def _choose_away(label: str) -> Any:
    return lambda page: page.get_by_label("A bot may stand in for a player away").select_option(
        label=label
    )


def _shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("ARABESQUE_SCREENSHOTS")
    folder = Path(where) if where else tmp_path_factory.mktemp("away-shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _sit_down(
    alma: Any, bea: Any, server: ServerThread, away_label: str, chosen: float
) -> tuple[str, Frames]:
    """Alma creates an Ali Baba table (seat 2 open, a bot at seat 3); Bea takes seat 2."""
    _short_away(alma, chosen)
    table_id = create_from_lobby(
        alma,
        server.url,
        "Ali Baba",
        name="Alma",
        seats=["Open for a friend", "Bot: heuristic"],
        options=_choose_away(away_label),
    )
    bea_frames = Frames(bea)
    bea.goto(f"{server.url}/tables/{table_id}")
    bea_frames.wait_until(lambda: bool(bea_frames.of_type("welcome")), what="the welcome")
    bea.evaluate("() => new Promise(requestAnimationFrame)")
    bea.fill("#join-name", "Bea")
    bea.get_by_role("button", name="Take seat 2").click()
    bea_frames.wait_until(lambda: bea_frames.seat == 1, what="Bea's seat")
    return table_id, bea_frames


def _play_while(players: list[Player], until: Any, limit_s: float) -> None:
    """Play whichever page has a decision until ``until()``."""
    deadline = time.monotonic() + limit_s
    while not until():
        assert time.monotonic() < deadline, "timed out"
        ready = [p for p in players if p.my_decision() is not None]
        for p in ready:
            p.play_one()
        if not ready:
            players[0].page.wait_for_timeout(20)


def test_the_host_lets_a_bot_play_for_a_friend_who_left_and_she_comes_back(
    server: ServerThread,
    lobby: Lobby,
    browser: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    shots = _shots(tmp_path_factory)
    with open_page(browser) as alma, open_page(browser) as bea:
        alma_frames = Frames(alma)
        table_id, bea_frames = _sit_down(alma, bea, server, "30 seconds", 30)
        assert lobby.table(table_id)["away_s"] == AWAY_S
        alma_player = Player(alma, alma_frames, key_every=3, choose=first_marked(alma))
        alma.wait_for_selector(".decision-panel:not([hidden])")
        # Bea's first page: play a little, then close the tab.
        bea_player = Player(bea, bea_frames, key_every=2, choose=first_marked(bea))
        _play_while([alma_player, bea_player], lambda: bea_player.moves >= 2, limit_s=30)
        bea_context = bea.context
        bea.close()
        # Alma plays her moves; the button appears once Bea has been away AWAY_S.
        button = alma.get_by_role("button", name="Let a bot play for Bea")
        assert alma.get_by_role("button", name="End the game").is_visible()
        _play_while([alma_player], button.is_visible, limit_s=20)
        assert "away" in alma.inner_text(".players")
        alma.screenshot(path=str(shots / "away-1280x720.png"))
        # Any bot of the game may stand in, the search levels said in words; the heuristic,
        # quick and known, is offered first.
        bots = alma.get_by_label("Bot for Bea")
        assert bots.input_value() == "heuristic"
        offered = bots.locator("option").all_inner_texts()
        assert any(o.startswith("medium (search bot, medium") for o in offered), offered
        button.click()
        alma.locator(".players", has_text="played by a heuristic bot").wait_for()
        alma.locator(".log-note", has_text="A heuristic bot plays for Bea").wait_for()
        assert lobby.table(table_id)["seats"][1]["played_by"] == "heuristic"
        assert not button.is_visible()
        # The game goes on: Bea's seat moves without her.
        moved_before = lobby.table(table_id)["version"]
        _play_while(
            [alma_player],
            lambda: lobby.table(table_id)["version"] >= moved_before + 6 or alma_frames.game_over,
            limit_s=40,
        )
        assert not alma_frames.game_over, "the game ended before Bea could come back"
        # Bea comes back mid-way in the same browser: her seat is hers again.
        bea2 = bea_context.new_page()
        bea2_frames = Frames(bea2)
        bea2.goto(f"{server.url}/tables/{table_id}")
        bea2_frames.wait_until(lambda: bea2_frames.seat == 1, what="Bea's seat again")
        info = lobby.table(table_id)
        assert info["seats"][1]["played_by"] is None and info["seats"][1]["connected"]
        alma.locator(".log-note", has_text="Bea is back").wait_for()
        assert "played by" not in alma.inner_text(".players")
        bea2.screenshot(path=str(shots / "back-1280x720.png"))
        bea_player2 = Player(bea2, bea2_frames, key_every=2, choose=first_marked(bea2))
        _play_while(
            [alma_player, bea_player2],
            lambda: alma_frames.game_over and bea2_frames.game_over,
            limit_s=90,
        )
        assert bea_player2.moves >= 1, "Bea played again after coming back"
        deadline = time.monotonic() + 20
        info = lobby.table(table_id)
        while info["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
            info = lobby.table(table_id)
        alma.wait_for_selector(".result:not([hidden])")
        assert_result_matches(alma, info, "Alma")
        bea2.wait_for_selector(".result:not([hidden])")
        assert_result_matches(bea2, info, "Bea", 1)
        print(f"screenshots in {shots}")


def test_the_host_ends_a_game_that_cannot_go_on(
    server: ServerThread,
    lobby: Lobby,
    browser: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    shots = _shots(tmp_path_factory)
    with open_page(browser) as alma, open_page(browser) as bea, open_page(browser) as watcher:
        table_id, _ = _sit_down(alma, bea, server, "1 minute", 60)
        alma.wait_for_selector(".decision-panel:not([hidden])")
        bea.wait_for_selector(".decision-panel:not([hidden])")
        watcher.goto(f"{server.url}/tables/{table_id}")
        watcher.wait_for_selector(".players .player")
        # Only the host is offered to end the game; Bea (seated) is not, nor the spectator.
        end = alma.get_by_role("button", name="End the game")
        end.wait_for()
        assert bea.get_by_role("button", name="End the game").count() == 0
        assert watcher.get_by_role("button", name="End the game").count() == 0
        # Alma leaves; Bea (seated) is offered to let a bot play for her, the spectator not.
        alma_context = alma.context
        alma.close()
        bea.get_by_role("button", name="Let a bot play for Alma").wait_for()
        watcher.wait_for_timeout(300)
        assert watcher.get_by_role("button", name="Let a bot play for Alma").count() == 0
        # Alma is back; a dismissed confirm changes nothing, an accepted one ends the game.
        alma = alma_context.new_page()
        alma.goto(f"{server.url}/tables/{table_id}")
        end = alma.get_by_role("button", name="End the game")
        end.wait_for()
        alma.once("dialog", lambda dialog: dialog.dismiss())
        end.click()
        alma.wait_for_timeout(300)
        assert lobby.table(table_id)["status"] == "running"
        alma.screenshot(path=str(shots / "host-1280x720.png"))
        alma.once("dialog", lambda dialog: dialog.accept())
        end.click()
        alma.locator(".result", has_text="Game abandoned").wait_for()
        bea.locator(".result", has_text="Game abandoned").wait_for()
        watcher.locator(".result", has_text="Game abandoned").wait_for()
        info = lobby.table(table_id)
        assert info["status"] == "abandoned" and info["end_reason"] == "ended by the host"
        assert "abandoned" in alma.inner_text(".turn-line")
        assert alma.get_by_role("button", name="End the game").count() == 0
        assert not alma.locator(".away-area").is_visible()  # no empty box left behind
        record = lobby.record(table_id)
        assert record.status_code == 200 and "abandoned" in record.json()["metadata"]
        alma.screenshot(path=str(shots / "abandoned-1280x720.png"))
        print(f"screenshots in {shots}")
