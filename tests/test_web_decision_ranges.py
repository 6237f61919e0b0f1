"""The browser and a decision's ranges of options (docs/protocol.md, "Decisions"): the page
is sent Magic Lamp's die settings and lamp race as ranges, and shows them as the options they
stand for — the option list of a die setting, the lamp button of the race — with the same
actions, labels and texts as ``expand_options`` gives in Python.

Skipped when Chromium (/usr/bin/chromium) or Python Playwright is missing.
"""

from __future__ import annotations

from typing import Any

import pytest

from arabesque.core.decision import expand_options
from tests.server_client import ServerThread
from tests.web_helpers import (  # the *_fixture: pytest fixtures, found by name
    Frames,
    Player,
    browser_fixture,  # noqa: F401
    create_from_lobby,
    page_fixture,  # noqa: F401
    server_fixture,  # noqa: F401
    skip_without_browser,
)

skip_without_browser()

pytestmark = pytest.mark.browser


def expanded_in_page(page: Any, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``expandOptions`` of the page's own lib/decision.js applied to ``options``."""
    result: list[dict[str, Any]] = page.evaluate(
        "async (options) => (await import('/static/lib/decision.js')).expandOptions(options)",
        options,
    )
    return result


def test_die_settings_and_the_race_sent_as_ranges_are_shown_as_their_options(
    server: ServerThread, page: Any
) -> None:
    frames = Frames(page)
    create_from_lobby(
        page, server.url, "Aladdin & the Magic Lamp", name="Rana", seats=["Bot: heuristic"] * 3
    )
    player = Player(page, frames)
    decision = player.wait_for_turn()
    assert decision is not None and decision["kind"] == "set_die"
    sent = frames.view
    assert sent is not None
    raw = sent["decision"]["options"]
    # What the server sent: one range per chest, not eighteen entries.
    assert [o["range"]["label"] for o in raw] == [
        "bronze chest, face {n}",
        "silver chest, face {n}",
        "gold chest, face {n}",
    ]
    options = expand_options(raw)
    assert len(options) == 18
    assert expanded_in_page(page, raw) == options
    # The page lists every option with its label, action and text.
    buttons = page.locator(".option-list button.option")
    assert buttons.count() == len(options)
    for i, option in enumerate(options):
        button = buttons.nth(i)
        assert button.get_attribute("data-action") == str(option["action"])
        assert button.get_attribute("title") == option["text"]
        assert button.locator("span").inner_text() == option["label"]
    # Played from the list, the range's action is the one the server applies.
    page.click(f'.option-list button.option[data-action="{options[9]["action"]}"]')
    frames.wait_until(
        lambda: any(
            m.get("type") == "action" and m.get("action") == options[9]["action"]
            for m in frames.sent
        ),
        what="the page's action",
    )
    player.answered_version = sent["version"]
    race = player.wait_for_turn()
    assert race is not None and race["kind"] == "race"
    sent = frames.view
    assert sent is not None
    raw = sent["decision"]["options"]
    assert len(raw) == 2 and "range" in raw[0]
    written = expanded_in_page(page, raw)
    assert written == expand_options(raw)
    assert len(written) == 301 and written[-1]["text"] == "no-rub"
    assert written[:2] == [
        {"action": raw[0]["range"]["start"], "label": "rub after 0 ms", "text": "rub 0ms"},
        {"action": raw[0]["range"]["start"] + 1, "label": "rub after 10 ms", "text": "rub 10ms"},
    ]
    # The race is answered with the lamp button, never a list of 301 options.
    assert page.locator(".lamp-button").is_visible()
    assert page.locator(".decision-panel .option-list").count() == 0
