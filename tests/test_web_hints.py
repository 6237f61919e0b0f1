"""Hints in the browser (docs/web.md, "Hints"), driven in headless Chromium: the replay
viewer's Hint button for the seat deciding at a step, and the Hint button at a table whose
host allowed hints (created from the lobby's form), on the player's own move only."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arabesque.server.settings import Settings
from tests.server_client import Lobby, ServerThread
from tests.web_helpers import (  # the *_fixture: pytest fixtures, found by name
    browser_fixture,  # noqa: F401
    create_from_lobby,
    open_page,
    page_fixture,  # noqa: F401
    skip_without_browser,
)

skip_without_browser()

pytestmark = pytest.mark.browser

#: Where to save screenshots for a person to look at (unset: none are saved).
SHOTS = os.environ.get("ARABESQUE_HINT_SHOTS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("web-hints"), hint_level="ismcts:iters=60+horizon=8",
        bot_workers=0,
    )
    with ServerThread(settings) as running:
        yield running


@pytest.fixture(scope="module")
def finished(server: ServerThread) -> dict[str, Any]:
    lobby = Lobby(server.url)
    try:
        table_id, _ = lobby.create(
            "ali-baba", players=2, seats=[{"kind": "bot", "agent": "random"}] * 2,
            auto_start=True, clock={"per_move_s": None},
        )
        deadline = time.monotonic() + 30
        while (info := lobby.table(table_id))["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.1)
        info["record"] = lobby.record(table_id).json()
        return info
    finally:
        lobby.close()


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _wait_title(page: Any, prefix: str) -> None:
    page.wait_for_function(
        "p => document.querySelector('.replay-step-title')?.textContent.startsWith(p)", arg=prefix
    )


@pytest.mark.parametrize(
    ("size", "viewport"),
    [("desktop", {"width": 1280, "height": 720}), ("phone", {"width": 375, "height": 812})],
)
def test_the_replay_viewer_gives_a_hint_for_the_seat_deciding(
    server: ServerThread, finished: dict[str, Any], browser: Any, size: str,
    viewport: dict[str, int],
) -> None:
    actions = finished["record"]["actions"]
    with open_page(browser, viewport) as page:
        page.goto(f"{server.url}/tables/{finished['id']}/replay")
        _wait_title(page, "Setup")
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        _wait_title(page, "Step 3 ·")
        acting = actions[3]["player"]  # who plays step 4 decides after step 3
        button = page.locator(".replay-hint-button")
        assert button.inner_text() == f"Hint for Seat {acting + 1} (random bot)"
        button.click()
        box = page.locator(".replay-hint-result .hint-box")
        box.wait_for()
        options = box.locator(".hint-option")
        assert 1 <= options.count() <= 3
        for i in range(options.count()):
            assert options.nth(i).locator(".hint-label").inner_text()
            number = options.nth(i).locator(".hint-number").inner_text()
            assert number.endswith("% won") or 0 <= float(number) <= 1, number
        assert box.locator(".hint-explanation").inner_text().startswith("Each number is the")
        _shot(page, f"replay-{size}")
        # Another step has its own hint, asked for with the H key; coming back shows the
        # one already received.
        page.keyboard.press("ArrowRight")
        _wait_title(page, "Step 4 ·")
        assert page.locator(".replay-hint-result .hint-box").count() == 0
        page.keyboard.press("h")
        box.wait_for()
        page.keyboard.press("ArrowLeft")
        _wait_title(page, "Step 3 ·")
        box.wait_for()
        # At the end nobody decides, and the button says so.
        page.keyboard.press("End")
        _wait_title(page, f"Step {len(actions)} ·")
        assert button.is_disabled() and button.inner_text() == "Hint: nobody decides here"


def test_a_table_with_hints_offers_one_on_your_own_move(server: ServerThread, browser: Any) -> None:
    with open_page(browser, {"width": 1280, "height": 720}) as page:
        table_id = create_from_lobby(
            page, server.url, "Ali Baba", seats=("Bot: random",),
            options=lambda p: p.get_by_label("Allow hints").check(),
        )
        page.wait_for_selector(".hints-note:not([hidden])")
        page.wait_for_selector(".option-list button.option:not([disabled])")
        page.locator(".hint-button").click()
        box = page.locator(".decision-panel .hint-box")
        box.wait_for()
        assert "best moves for you" in box.locator(".hint-title").inner_text()
        labels = [
            page.locator(".option-list .option-label").nth(i).inner_text()
            for i in range(page.locator(".option-list .option-label").count())
        ]
        for i in range(box.locator(".hint-label").count()):
            assert box.locator(".hint-label").nth(i).inner_text() in labels
        # The hint sits above the options (in sight with many of them), and the options it
        # names are marked in the list, in its order.
        box_top = box.bounding_box()["y"]
        assert box_top < page.locator(".option-list").bounding_box()["y"]
        hinted = page.locator(".option-list button.option.hinted")
        assert hinted.count() == box.locator(".hint-option").count()
        for i in range(box.locator(".hint-option").count()):
            marked = page.locator(".option-list button.option", has_text=f"hint {i + 1}")
            label = box.locator(".hint-label").nth(i).inner_text()
            assert marked.count() == 1 and label in marked.inner_text()
        _shot(page, "table-desktop")
    # A watcher of the same table gets no Hint button, and a table without hints offers none.
    with open_page(browser) as watcher:
        watcher.goto(f"{server.url}/tables/{table_id}")
        watcher.wait_for_selector(".hints-note:not([hidden])")
        assert watcher.locator(".hint-button").count() == 0
    with open_page(browser) as page:
        create_from_lobby(page, server.url, "Ali Baba", seats=("Bot: random",))
        page.wait_for_selector(".option-list button.option:not([disabled])")
        assert page.locator(".hint-button").count() == 0
        assert page.locator(".hints-note").is_hidden()
