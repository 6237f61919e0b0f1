"""What a new user tripped on in the browser (issue 18, "The browser"), each checked in headless
Chromium with Playwright against a real server: the lobby says what each game is and names
its options in words, Start says what it does to free seats, the Djinn decision panel stays in
view, a seat opened in a second tab, Ali Baba's tile names on the board, the phone layouts.

Skipped when Chromium (/usr/bin/chromium) or Python Playwright is missing."""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GAMES
from tests.server_client import Lobby, ServerThread
from tests.web_helpers import (  # the *_fixture: pytest fixtures, found by name
    DESKTOP,
    PHONE,
    Frames,
    Player,
    browser_fixture,  # noqa: F401
    create_from_lobby,
    lobby_fixture,  # noqa: F401
    open_page,
    page_fixture,  # noqa: F401
    server_fixture,  # noqa: F401
    skip_without_browser,
)

expect = skip_without_browser().expect

pytestmark = pytest.mark.browser

#: Where the screenshots some tests take go (to look at them): $ARABESQUE_SCREENSHOTS.
SCREENSHOTS = Path(os.environ.get("ARABESQUE_SCREENSHOTS") or tempfile.gettempdir())


# -- the lobby (item 3) ------------------------------------------------------------------------


def test_the_lobby_says_what_each_game_is(server: ServerThread, lobby: Lobby, page: Any) -> None:
    games = [g for g in lobby.http.get("/api/games").json() if g["id"] in GAMES]
    page.goto(server.url + "/")
    for game in games:
        line = page.locator(f'.game-line[data-game="{game["id"]}"]')
        expect(line).to_contain_text(game["name"])
        text = line.inner_text()
        # What it is (the spec's one line), how many play, how long it lasts, its rules.
        assert game["description"] and game["description"] in text
        assert f"{game['min_players']}–{game['max_players']} players" in text
        assert game["length"] and game["length"] in text
        assert (
            line.get_by_role("link", name=f"Rules of {game['name']}").get_attribute("href")
            == f"/rules/{game['id']}"
        )


def test_options_are_named_in_words(server: ServerThread, lobby: Lobby, page: Any) -> None:
    page.goto(server.url + "/")
    page.get_by_label("Game", exact=True).select_option(label="Ali Baba")
    variant = page.get_by_label("Variant")
    assert variant.locator("option").all_inner_texts() == [
        "Standard game",
        "Aladdin's lamp",
        "Equal treasures",
        "Smaller cave (2 players)",
    ]
    page.get_by_label("Game", exact=True).select_option(label="Djinn")
    deck = page.get_by_label("Solo difficulty (Tom's deck)")
    assert "12 cards: hardest" in deck.locator("option").all_inner_texts()
    assert "fewer cards in Tom's deck, the harder" in page.locator(".create-form").inner_text()
    expect(page.get_by_label("First game")).to_be_visible()

    def aladdins_lamp(p: Any) -> None:
        p.get_by_label("Variant").select_option(label="Aladdin's lamp")

    table_id = create_from_lobby(page, server.url, "Ali Baba", options=aladdins_lamp)
    assert lobby.table(table_id)["params"]["variant"] == "aladdins-lamp"


def test_start_says_what_it_does_to_free_seats_and_does_it(
    server: ServerThread, lobby: Lobby, page: Any
) -> None:
    table_id = create_from_lobby(
        page, server.url, "Djinn", seats=("Open for a friend",), name="Ann"
    )
    host = page.locator(".join-area .host")
    expect(host).to_contain_text("Start puts a bot of the kind chosen in the free seat")
    host.get_by_role("button", name="Start").click()
    page.wait_for_selector(".decision-panel.active, .turn-line:has-text('Waiting')")
    table = lobby.table(table_id)
    assert table["status"] == "running"
    assert [s["kind"] for s in table["seats"]] == ["human", "bot"]


# -- a seat opened in a second tab (item 6) ----------------------------------------------------


def test_a_seat_opened_in_a_second_tab_pauses_the_first_until_play_here(
    server: ServerThread, lobby: Lobby, browser: Any
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        first = context.new_page()
        first.set_default_timeout(20_000)
        table_id = create_from_lobby(first, server.url, "Ali Baba", name="Ann")
        first.wait_for_selector(".decision-panel.active .option-list button.option")
        # The same browser (same seat token) opens the table in a second tab.
        second = context.new_page()
        second.set_default_timeout(20_000)
        second.goto(f"{server.url}/tables/{table_id}")
        second.wait_for_selector(".decision-panel.active .option-list button.option")

        # The first tab is told, and nothing on it can be played any more.
        takeover = first.locator(".takeover")
        expect(takeover).to_be_visible()
        expect(takeover).to_contain_text("another tab")
        expect(first.locator(".option-list button.option")).to_have_count(0)
        expect(first.locator(".board .option-mark")).to_have_count(0)
        assert "elsewhere" in (first.locator(".board-area").get_attribute("class") or "")
        assert first.locator(".takeover").is_visible()
        first.keyboard.press("1")  # a shortcut key plays nothing here
        expect(second.locator(".decision-panel.active")).to_be_visible()

        # "Play here" takes the seat back: the first plays again, the second is paused.
        first.get_by_role("button", name="Play here").click()
        first.wait_for_selector(".decision-panel.active .option-list button.option")
        expect(first.locator(".takeover")).to_be_hidden()
        expect(second.locator(".takeover")).to_be_visible()
        expect(second.locator(".option-list button.option")).to_have_count(0)
        first.locator(".option-list button.option").first.click()
        first.wait_for_selector(".pending", state="detached")
        assert lobby.table(table_id)["status"] == "running"
    finally:
        context.close()


# -- Ali Baba's tile names on the board (item 5) -----------------------------------------------


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_each_cave_option_names_a_place_the_board_shows(
    server: ServerThread, browser: Any, viewport: dict[str, int]
) -> None:
    with open_page(browser, viewport) as page:
        frames = Frames(page)
        create_from_lobby(page, server.url, "Ali Baba", name="Ann")
        page.wait_for_selector(".decision-panel.active .option-list button.option")
        frames.wait_until(lambda: bool(frames.view and frames.view.get("decision")))
        decision = frames.view["decision"] if frames.view else None
        assert decision is not None
        for option in decision["options"]:
            place = re.search(r"L\d+ r\d+ c\d+", option["label"])
            assert place, option["label"]
            mark = f'.board .option-mark[data-action="{option["action"]}"]'
            tag = page.locator(f"{mark} .ab-place-tag")
            expect(tag).to_have_text(place.group(0))
            assert tag.is_visible()


# -- Djinn at 1280 x 720: the decision panel stays in view (item 1) ------------------------------


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]


def test_a_djinn_turn_is_played_with_the_decision_panel_in_view(
    server: ServerThread, browser: Any
) -> None:
    with open_page(browser, DESKTOP) as page:
        frames = Frames(page)
        create_from_lobby(page, server.url, "Djinn", seats=("Bot: heuristic",), name="Ann")
        moves = 0
        while moves < 8 and not frames.game_over:
            page.wait_for_selector(".decision-panel.active .option-list button.option")
            # Reading the bottom of the board (the Market, the Tavern's cards) ...
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            assert page.evaluate("window.scrollY") > 0, "the page is taller than the screen"
            # ... "Your move", its prompt and its first choices are still on the screen.
            assert _in_view(page, ".decision-panel.active h2")
            assert _in_view(page, ".decision-panel.active .prompt")
            assert _in_view(page, ".decision-panel.active .option-list button.option")
            version: int = frames.view["version"] if frames.view else -1

            def moved(before: int = version) -> bool:
                return frames.game_over or bool(frames.view and frames.view["version"] > before)

            page.keyboard.press("1")
            frames.wait_until(moved, what="the move to be played")
            moves += 1
        assert moves == 8


# -- Magic Lamp at 2 players: the assist says the rule (item 2) --------------------------------


def test_the_two_player_assist_says_your_own_pair_does_not_count(
    server: ServerThread, browser: Any
) -> None:
    with open_page(browser, DESKTOP) as page:
        frames = Frames(page)

        def sixes(decision: dict[str, Any], move: int) -> int:
            # Both of my dice on a 6 (on two chests); anything else: the first option.
            for i, option in enumerate(decision["options"]):
                if str(option.get("label", "")).endswith("face 6"):
                    return i
            return 0

        me = Player(page, frames, board_every=0, key_every=0, choose=sixes, rub=False)
        create_from_lobby(page, server.url, "Aladdin & the Magic Lamp", seats=("Bot: heuristic",))
        page.locator(".settings-card summary").click()
        page.get_by_label(re.compile("Assist")).check()
        checked = 0
        for _ in range(200):
            decision = me.wait_for_turn()
            if decision is None:
                break
            view = frames.view
            assert view is not None
            if decision["reaction"] is not None:
                mine = [d["face"] for d in view["players"][0]["dice"]]
                shared = view["shared_faces"] or []
                assist = page.locator(".ml-assist").inner_text()
                if mine == [6, 6] and 6 not in shared:
                    # The rule: a face counts only when two different players show it.
                    assert "your own two 6s do not count" in assist, assist
                    assert "shown twice" not in assist
                    checked += 1
                    if checked == 2:
                        break
                elif not shared:
                    assert "no face is shown by two different players" in assist, assist
            me.play_one()
        assert checked, "no race came with my two 6s unshared"


# -- polish (item 7) ---------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_bot_names_under_the_magic_lamp_dice_are_not_cut(
    server: ServerThread, browser: Any, viewport: dict[str, int]
) -> None:
    with open_page(browser, viewport) as page:
        me = Player(page, Frames(page), board_every=0, key_every=0, rub=False)
        create_from_lobby(
            page,
            server.url,
            "Aladdin & the Magic Lamp",
            seats=("Bot: heuristic", "Bot: heuristic", "Bot: heuristic"),
        )
        names: list[dict[str, Any]] = []
        for _ in range(60):
            names = page.eval_on_selector_all(
                ".ml-cdie:not(.ml-mine) .ml-who",
                "els => els.map(e => ({text: e.textContent, cut: e.scrollWidth > e.clientWidth"
                " || e.scrollHeight > e.clientHeight + 1, title: e.title}))",
            )
            if len(names) >= 2 or not me.play_one():
                break
        assert len(names) >= 2, "no bot's die was seen on a chest"
        for shown in names:
            assert not shown["cut"] and "…" not in shown["text"], shown
            seat = re.match(r"Seat (\d+)", shown["title"])
            assert seat and shown["text"] == f"Seat {seat.group(1)} bot", shown


def test_the_phone_replays_play_and_forward_buttons_look_different(
    server: ServerThread, lobby: Lobby, browser: Any
) -> None:
    seats = [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}]
    table_id, _ = lobby.create("ali-baba", players=2, seats=seats, auto_start=True, bot_think_s=0.5)
    for _ in range(1200):
        if lobby.table(table_id)["status"] == "finished":
            break
        time.sleep(0.05)
    assert lobby.table(table_id)["status"] == "finished"
    with open_page(browser, PHONE) as page:
        page.goto(f"{server.url}/tables/{table_id}/replay")
        play = page.get_by_role("button", name="Play")
        forward = page.get_by_role("button", name="Forward")
        expect(play).to_be_visible()
        expect(forward).to_be_visible()

        def look(button: Any) -> dict[str, Any]:
            return dict(
                button.evaluate(
                    "b => ({icon: [...b.querySelectorAll('path')].map(p => p.getAttribute('d'))"
                    ".join(' '), background: getComputedStyle(b).backgroundColor,"
                    " text: b.innerText.trim()})"
                )
            )

        shown_play, shown_forward = look(play), look(forward)
        assert shown_play["icon"] != shown_forward["icon"]
        assert shown_play["background"] != shown_forward["background"]
        assert shown_play["text"] == "Play"  # named on the phone too
        page.screenshot(path=str(SCREENSHOTS / "replay-phone.png"))


#: The map's Djinn tokens, spaces and paths in the map's own units: tokens {x, y, r}, spaces
#: {x, y, r} (a square's r is its corners'), paths [x1, y1, x2, y2].
MAP_SHAPES = """() => {
  const svg = document.querySelector('.dj-map');
  const num = (el, name) => Number(el.getAttribute(name));
  const tokens = [...svg.querySelectorAll('.dj-djinn')].map((g) => {
    const [x, y] = g.getAttribute('transform').match(/-?[0-9.]+/g).map(Number);
    const what = g.querySelector('title')?.textContent;
    return {x, y, r: num(g.querySelector('circle'), 'r'), what};
  });
  const spaces = [...svg.querySelectorAll('.dj-space-shape, .dj-source-shape')].map((el) =>
    el.tagName === 'rect'
      ? {x: num(el, 'x') + num(el, 'width') / 2, y: num(el, 'y') + num(el, 'height') / 2,
         r: Math.hypot(num(el, 'width'), num(el, 'height')) / 2}
      : {x: num(el, 'cx'), y: num(el, 'cy'), r: num(el, 'r')});
  const paths = [...svg.querySelectorAll('.dj-path')].map((l) =>
    ['x1', 'y1', 'x2', 'y2'].map((n) => num(l, n)));
  return {tokens, spaces, paths};
}"""


def _segment_distance(x: float, y: float, seg: list[float]) -> float:
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / ((dx * dx + dy * dy) or 1)))
    return float(((x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2) ** 0.5)


@pytest.mark.parametrize("players", [2, 4])
def test_djinn_tokens_cover_no_space_path_or_token_on_the_phone_map(
    server: ServerThread, browser: Any, players: int
) -> None:
    with open_page(browser, PHONE) as page:
        create_from_lobby(
            page, server.url, "Djinn", seats=("Bot: heuristic",) * (players - 1), name="Ann"
        )
        page.wait_for_selector(".dj-map .dj-djinn")
        drawn = page.evaluate(MAP_SHAPES)
        tokens, spaces = drawn["tokens"], drawn["spaces"]
        assert len(tokens) >= 12 and len(spaces) == 13
        for t in tokens:
            for sp in spaces:
                gap = ((t["x"] - sp["x"]) ** 2 + (t["y"] - sp["y"]) ** 2) ** 0.5
                assert gap >= t["r"] + sp["r"], f"{t['what']} covers a space ({gap:.1f})"
            for seg in drawn["paths"]:
                gap = _segment_distance(t["x"], t["y"], seg)
                assert gap >= t["r"], f"{t['what']} covers a path ({gap:.1f})"
        for i, a in enumerate(tokens):
            for b in tokens[i + 1 :]:
                gap = ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5
                assert gap >= a["r"] + b["r"], f"{a['what']} and {b['what']} overlap"
        page.screenshot(path=str(SCREENSHOTS / f"djinn-phone-map-{players}.png"))


def test_an_address_without_a_page_and_an_unknown_games_rules(
    server: ServerThread, page: Any
) -> None:
    answer = page.goto(server.url + "/nonsense")
    assert answer is not None and answer.status == 404
    expect(page.locator(".fatal h1")).to_have_text("Page not found")
    expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()
    answer = page.goto(server.url + "/rules/chess")
    assert answer is not None and answer.status == 404
    expect(page.locator("body")).to_contain_text("There is no game “chess” on this server.")
    # The header names no game the server does not have.
    assert "chess" not in page.locator(".site-header").inner_text().lower()
    assert page.locator(".site-header .rules-link").is_hidden()
