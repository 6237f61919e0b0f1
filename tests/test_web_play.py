"""Whole games through the browser (docs/web.md), driven in headless Chromium with Playwright
against a real server on a loopback port: an Ali Baba game and a Djinn game played by
clicking the board, keys and the option list; the lamp race won and lost; two people at one
table in two browsers; a spectator's page and frames audited for secrets; screenshots of each
game's board at a laptop's and a phone's size.

Skipped when Chromium (/usr/bin/chromium) or Python Playwright is missing. Screenshots go to
``$ARABESQUE_SCREENSHOTS`` (default: a pytest temporary folder, printed).
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.server_client import Lobby, ServerThread, audit_frames
from tests.web_helpers import (  # the *_fixture: pytest fixtures, found by name
    DESKTOP,
    PHONE,
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


def wait_finished(lobby: Lobby, table_id: str, timeout_s: float = 20.0) -> dict[str, Any]:
    """The table's info once the server has it finished (the page may show the end first)."""
    deadline = time.monotonic() + timeout_s
    info = lobby.table(table_id)
    while info["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table_id} is still {info['status']}"
        time.sleep(0.05)
        info = lobby.table(table_id)
    return info


# -- whole games -------------------------------------------------------------------------------


def test_a_whole_ali_baba_game_through_the_board(
    server: ServerThread, lobby: Lobby, browser: Any
) -> None:
    """Every decision the board marks is answered on the board (most of them: a tile in the
    cave, a tile in a hand), the rest by key or from the list; the scores at the end are the
    server's."""
    with open_page(browser) as page:
        frames = Frames(page)
        table_id = create_from_lobby(page, server.url, "Ali Baba", name="Alma")
        player = Player(page, frames, board_every=1, key_every=4, choose=first_marked(page))
        started = time.monotonic()
        player.play_to_the_end(limit_s=60)
        print(
            f"ali-baba: {player.moves} moves in {time.monotonic() - started:.1f} s "
            f"({player.board_moves} on the board, {player.key_moves} by key)"
        )
        assert player.moves >= 5
        assert player.board_moves >= player.moves // 2, "the board marks most decisions"
        assert player.key_moves + player.list_moves >= 1
        info = wait_finished(lobby, table_id)
        assert info["game"] == "ali-baba"
        page.wait_for_selector(".result:not([hidden])")
        assert_result_matches(page, info, "Alma")
        assert (
            lobby.record(table_id).json()["metadata"]["result"]["scores"]
            == info["result"]["scores"]
        )


def test_a_whole_djinn_game_through_the_page(
    server: ServerThread, lobby: Lobby, browser: Any
) -> None:
    """Two players, against the heuristic bot: every registered game can be finished in the
    browser. Played quickly: a marked option on the board when there is one."""
    with open_page(browser) as page:
        frames = Frames(page)
        table_id = create_from_lobby(
            page, server.url, "Djinn", name="Dara", seats=["Bot: heuristic"]
        )
        player = Player(page, frames, board_every=2, key_every=5, choose=first_marked(page))
        started = time.monotonic()
        player.play_to_the_end(limit_s=150)
        print(
            f"djinn: {player.moves} moves in {time.monotonic() - started:.1f} s "
            f"({player.board_moves} on the board, {player.key_moves} by key)"
        )
        assert player.board_moves >= 1
        info = wait_finished(lobby, table_id)
        page.wait_for_selector(".result:not([hidden])")
        assert_result_matches(page, info, "Dara")


def test_djinn_start_spots_stay_clickable_beside_a_placed_mage(
    server: ServerThread, browser: Any
) -> None:
    """A start spot on a path where another mage already stands is drawn beyond that mage,
    not under it: every start spot on the board takes a click (Playwright's trial click checks
    that nothing else would receive it). Four players, so most tables have bots placed before
    this seat's first decision; a few tables make that all but certain."""
    checked = 0
    for _ in range(6):
        with open_page(browser) as page:
            frames = Frames(page)
            create_from_lobby(page, server.url, "Djinn", seats=["Bot: heuristic"] * 3)
            # The character draft comes first: taken from the list until the first turn.
            player = Player(page, frames, board_every=0, key_every=0)
            decision = player.wait_for_turn()
            while decision is not None and not decision["options"][0]["text"].startswith("start "):
                player.play_one()
                decision = player.wait_for_turn()
            assert decision is not None
            view = frames.view
            assert view is not None
            placed = [
                (space["id"], view["players"][seat]["came_from"])
                for space in view["spaces"]
                for seat in space["mages"]
            ]
            if not placed:
                continue
            spots = page.locator(".board .dj-start-spot.option-mark")
            texts = [o["text"] for o in decision["options"] if o["text"].startswith("start ")]
            assert spots.count() == len(texts)
            # The spots on the very paths the placed mages came along are among them.
            assert any(f"start {sq} via {came}" in texts for sq, came in placed)
            for i in range(spots.count()):
                spots.nth(i).click(trial=True, timeout=2000)
            checked += 1
            break
    assert checked, "this seat was the first to place at every table"


# -- the lamp race -----------------------------------------------------------------------------

#: The seat the lobby gives the table's creator.
CREATOR = 0


def assert_no_shared_hint(page: Any) -> None:
    """Without the assist the board never tells which faces are shared (docs/web.md): no die
    drawn as shared, no assist line, not the word anywhere in the board's markup."""
    assert page.locator(".board .ml-shared, .board .ml-assist").count() == 0
    assert "shared" not in page.inner_html(".board").lower()


def race_event_after(frames: Frames, version: int) -> dict[str, Any] | None:
    """The `race` log event of the race at ``version`` (the first one sent after it)."""
    for frame in frames.of_type("update"):
        if frame["view"] is None or frame["view"]["version"] <= version:
            continue
        for event in frame["log"]:
            if event.get("kind") == "race":
                return dict(event)
    return None


@dataclass
class LampRaces:
    """What the lamp-race test has seen so far, over one table or more: a race we won, a race
    a bot won on our face while we stayed still, and the assist shown on purpose."""

    won: dict[str, Any] | None = None
    lost: dict[str, Any] | None = None
    assist_shown: bool = False
    races: int = 0

    @property
    def done(self) -> bool:
        return self.won is not None and self.lost is not None and self.assist_shown

    def play_table(self, page: Any, frames: Frames, deadline: float) -> None:
        """Play this page's seat until everything was seen or the game is over: ordinary
        decisions as ``Player`` does, races as ``race`` says."""
        player = Player(page, frames, key_every=3)
        while not self.done:
            assert time.monotonic() < deadline, f"not seen in time: {self}"
            decision = player.wait_for_turn()
            if decision is None:
                return  # the game is over: the test takes another table
            if decision["reaction"] is None:
                player.play_one()
                continue
            view = frames.view
            assert view is not None
            player.answered_version = view["version"]
            self.race(page, frames, view)

    def race(self, page: Any, frames: Frames, view: dict[str, Any]) -> None:
        """One race: pressed at once if we share a face and have not won yet; else left to
        go by (with the assist switched on and off once, when all else was seen)."""
        race_version = view["version"]
        my_faces = {d["face"] for d in view["players"][CREATOR]["dice"]}
        ours = sorted(set(view["shared_faces"]) & my_faces)
        assert_no_shared_hint(page)
        pressed = False
        if ours and self.won is None:
            page.keyboard.press("Space")  # at once: the lamp button is showing
            pressed = True
            # The race may close at once (everyone answered), so the press is checked on
            # the wire, not by the button's "Rubbed".
            frames.wait_until(
                lambda: any(
                    m.get("type") == "react" and m.get("version") == race_version
                    for m in frames.sent
                ),
                what="the page's react",
            )
        elif self.won is not None and self.lost is not None and view["shared_faces"]:
            # The positive control: with the assist on, the same markup shows the hint.
            page.click(".settings-card summary")
            page.check("#setting-assist")
            page.wait_for_selector(".board .ml-shared")
            assert page.locator(".board .ml-assist").is_visible()
            page.uncheck("#setting-assist")
            assert_no_shared_hint(page)
            self.assist_shown = True
        # Otherwise stay still: the race closes at its deadline with "no rub" for us.
        frames.wait_until(
            lambda: race_event_after(frames, race_version) is not None, 20, "the race result"
        )
        result = race_event_after(frames, race_version)
        assert result is not None
        self.races += 1
        winners = {r["face"]: r["winner"] for r in result["races"]}
        if pressed:
            assert str(CREATOR) in result["rubs"]
            assert CREATOR not in result["mistaken"]
            face = next((f for f in ours if winners[f] == CREATOR), None)
            if face is not None:
                self.won = result
                page.locator(".log li", has_text=f"face {face}: Lena summoned the Genie").wait_for()
            # else a bot was faster this time (a loaded machine): the next race is another try.
            return
        assert str(CREATOR) not in result["rubs"]
        # A face of ours nobody won: the bot sharing it had summoned already this turn (R4).
        beaten = [f for f in ours if winners[f] not in (None, CREATOR)]
        if beaten and self.lost is None:
            self.lost = result
            line = page.locator(".log li", has_text=f"face {beaten[0]}: ").last
            line.wait_for()
            assert "summoned the Genie" in line.inner_text()
            assert "Lena summoned" not in line.inner_text()


def test_the_lamp_race_won_and_lost(server: ServerThread, browser: Any) -> None:
    """Against four heuristic bots (they rub 300 ms after the reveal at the earliest): a race
    on a face our die shares, pressed (space bar) the moment the lamp shows, is ours; one we
    let go by is a bot's. The test reads the frames to know which races share our face; the
    page itself never says so, until the assist is switched on. A game that ends before all
    of this was seen is followed by another (shared faces come by chance)."""
    seen = LampRaces()
    deadline = time.monotonic() + 150
    tables = 0
    while not seen.done:
        tables += 1
        assert tables <= 4, f"four games and still not seen: {seen}"
        with open_page(browser) as page:
            frames = Frames(page)
            create_from_lobby(
                page,
                server.url,
                "Aladdin & the Magic Lamp",
                name="Lena",
                seats=["Bot: heuristic"] * 4,
            )
            seen.play_table(page, frames, deadline)
    print(f"lamp race: {seen} over {tables} games")


# -- two people at one table -------------------------------------------------------------------


def play_together(players: list[Player], limit_s: float) -> None:
    """Play every seat's decisions as they come, in whichever page has one, to the end."""
    deadline = time.monotonic() + limit_s
    while not all(p.frames.game_over for p in players):
        assert time.monotonic() < deadline, f"the game did not end in {limit_s} s"
        ready = [p for p in players if p.my_decision() is not None]
        for p in ready:
            p.play_one()
        if not ready:
            # Let Playwright deliver the frames of both pages; the loop checks again.
            players[0].page.wait_for_timeout(20)


def test_two_people_at_one_table(server: ServerThread, lobby: Lobby, browser: Any) -> None:
    """Alma creates a table with seat 2 open for a friend and a bot at seat 3 and shares the
    link; Bea opens it in another browser and takes the seat; both play to the end. Each
    page names the other, and each page is only ever sent its own seat's view."""
    with open_page(browser) as alma, open_page(browser) as bea:
        alma_frames, bea_frames = Frames(alma), Frames(bea)
        table_id = create_from_lobby(
            alma,
            server.url,
            "Ali Baba",
            name="Alma",
            seats=["Open for a friend", "Bot: heuristic"],
        )
        alma.wait_for_selector(".join-area:not([hidden])")
        link = alma.input_value("#share-link")
        assert link == f"{server.url}/tables/{table_id}"
        assert lobby.table(table_id)["status"] == "open"

        bea.goto(link)
        # The join form is drawn again when the welcome arrives, and a name typed before
        # that is lost (reported: pages/table.js renderJoin); type it after.
        bea_frames.wait_until(lambda: bool(bea_frames.of_type("welcome")), what="the welcome")
        bea.evaluate("() => new Promise(requestAnimationFrame)")
        bea.fill("#join-name", "Bea")
        bea.get_by_role("button", name="Take seat 2").click()
        for page in (alma, bea):
            page.wait_for_selector(".decision-panel:not([hidden])")
        table = lobby.table(table_id)
        assert table["status"] == "running"
        assert [s["name"] for s in table["seats"][:2]] == ["Alma", "Bea"]
        # Each page names both players, and says which one it is. Bea's page first shows the
        # table as the spectator it was before joining; it says "(you)" once its seat's
        # welcome has come, so wait for that rather than for any list naming both.
        alma.locator(".players", has_text="Bea").wait_for()
        bea.locator(".players", has_text="Alma").wait_for()
        alma.locator(".players", has_text="Alma (you)").wait_for()
        bea.locator(".players", has_text="Bea (you)").wait_for()
        assert "Alma (you)" in alma.inner_text(".players")
        assert "Bea (you)" in bea.inner_text(".players")

        players = [
            Player(alma, alma_frames, key_every=3, choose=first_marked(alma)),
            Player(bea, bea_frames, key_every=2, choose=first_marked(bea)),
        ]
        started = time.monotonic()
        play_together(players, limit_s=60)
        print(
            f"two people: {players[0].moves} + {players[1].moves} moves "
            f"in {time.monotonic() - started:.1f} s"
        )
        assert players[0].moves >= 3 and players[1].moves >= 3

        info = wait_finished(lobby, table_id)
        for page, frames, seat, me in ((alma, alma_frames, 0, "Alma"), (bea, bea_frames, 1, "Bea")):
            # Every view is the one of the connection's seat: Bea's page watched (seat None)
            # until she took seat 2; Alma's page never was sent anything but seat 1's.
            assert frames.seat == seat
            views = frames.views_by_seat()
            assert all(v["seat"] == welcomed for welcomed, v in views)
            assert {welcomed for welcomed, _ in views} <= {seat, None}
            assert sum(welcomed == seat for welcomed, _ in views) >= players[seat].moves
            page.wait_for_selector(".result:not([hidden])")
            assert_result_matches(page, info, me, seat)


# -- what a spectator may see --------------------------------------------------------------------


def _names_in(data: Any) -> set[str]:
    """Every string under a "name" key anywhere in ``data`` (views and events name cards and
    tiles that way)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "name" and isinstance(value, str):
                found.add(value)
            else:
                found |= _names_in(value)
    elif isinstance(data, list):
        for item in data:
            found |= _names_in(item)
    return found


def hidden_names(state: Any) -> dict[str, set[str]]:
    """Per kind of thing, the names of the cards or tiles lying hidden from everyone in
    ``state``: Ali Baba's face-down tiles and the box; Magic Lamp's chest decks (a card a
    seat peeked at is still secret from the others) and the unseen part of the Lamp pile."""
    game = state.spec.id
    if game == "ali-baba":
        tile = state.tiles.tile_json
        down = [t for t, cover in zip(state.cell, state.cover, strict=True) if cover > 0]
        return {"tile": {tile(t)["name"] for t in [*down, *state.box]}}
    if game == "magic-lamp":
        from arabesque.games.magic_lamp.view import tables

        t = tables(state.comp)
        in_chests = [c for deck in state.decks for c in deck]
        unseen_lamps = state.lamp_deck[state.lamp_known :]
        hidden = {t.card_json[c]["name"] for c in in_chests}
        # A name is secret only if every card of that name is hidden.
        seen = {t.card_json[c]["name"] for c in range(len(t.card_json)) if c not in in_chests}
        # A one-word name ("ruby", "talisman", "sorcerer") is also how the page names a
        # whole kind (stone counts, "placed a talisman on ruby", the Sorcerer's place in a
        # chest, public by the rules): only names that pick out cards are looked for.
        hidden = {name for name in hidden - seen if " " in name}
        lamps = {t.lamp_json[c]["name"] for c in unseen_lamps}
        lamps -= {t.lamp_json[c]["name"] for c in range(len(t.lamp_json)) if c not in unseen_lamps}
        return {"card": hidden, "lamp card": lamps}
    raise AssertionError(f"no secrets listed for {game}")


def secrets_at(state: Any) -> set[str]:
    """The names nobody at the table has been shown by ``state``: hidden now, and never in
    the spectator's view or log so far (a card seen and put back is no secret)."""
    events, _ = state.log_since(None, 0)
    public = _names_in(state.view(None, include_log=False)) | _names_in(events)
    return set().union(*hidden_names(state).values()) - public


def leaked(text: str, secrets: set[str]) -> list[str]:
    """The secret names that ``text`` (a page's HTML, a frame's words) contains as names:
    whole words, any case; "bronze ring" is not found in "bronze ring ☠", another card."""
    found = []
    for name in sorted(secrets):
        pattern = rf"(?<![\w-]){re.escape(name)}(?![\w-]|\s*☠)"
        if re.search(pattern, text, flags=re.IGNORECASE):
            found.append(name)
    return found


class Replay:
    """A finished table's record replayed: the state at every version a spectator saw (its
    own, ``version_for(None)``, which a secret move does not move: the first state of each,
    where the most is still hidden)."""

    def __init__(self, record: dict[str, Any]) -> None:
        from arabesque.core.records import GameRecord

        game = GameRecord.from_json(record)
        initial = game.initial_state()
        self.states = {initial.version_for(None): initial.clone()}
        for _step, _player, _action, state in game.steps():
            self.states.setdefault(state.version_for(None), state.clone())

    def at_most(self, version: int) -> Any:
        """The state at ``version``, or the last before it (the server's version may count
        steps the record folds together)."""
        return self.states[max(v for v in self.states if v <= version)]


@dataclass
class Snapshot:
    """The spectator page's HTML at one moment, and the game's version just after it was
    read (the page cannot have shown anything newer)."""

    html: str
    version_after: int


def assert_no_leak(text: str, secrets: set[str], where: str) -> None:
    found = leaked(text, secrets)
    assert not found, f"{where} names what nobody was shown yet: {found}: {text[-3000:]}"


@pytest.mark.parametrize(
    ("game", "game_name"), [("ali-baba", "Ali Baba"), ("magic-lamp", "Aladdin & the Magic Lamp")]
)
def test_a_spectator_is_never_sent_a_secret(
    server: ServerThread, lobby: Lobby, browser: Any, game: str, game_name: str
) -> None:
    """A player's page plays a whole game against two bots while a spectator's page watches.
    Every frame the spectator got is exactly the engine's spectator view and log at its
    version (the record replayed), and neither its page (at several moments) nor the log's
    words name a card or tile still hidden from everyone then. Both checks are shown to
    catch a leak planted on purpose."""
    with open_page(browser) as player_page, open_page(browser) as watcher:
        player_frames = Frames(player_page)
        table_id = create_from_lobby(player_page, server.url, game_name, name="Pia")
        watcher_frames = Frames(watcher)
        watcher.goto(f"{server.url}/tables/{table_id}")
        watcher.wait_for_selector(".decision-panel h2:text('Watching')")
        player = Player(player_page, player_frames, key_every=3, choose=first_marked(player_page))

        snapshots: list[Snapshot] = []
        deadline = time.monotonic() + 90
        while player.wait_for_turn() is not None:
            assert time.monotonic() < deadline, "the game did not end in 90 s"
            if player.moves % 3 == 0:  # the game waits on the player: a moment to look
                html = watcher.content()
                snapshots.append(Snapshot(html, lobby.table(table_id)["version"]))
            player.play_one()
        watcher.wait_for_selector(".result:not([hidden])")
        snapshots.append(Snapshot(watcher.content(), lobby.table(table_id)["version"]))
        record = lobby.record(table_id).json()
        replay = Replay(record)

        # The frames: exactly the spectator's view and log, connection by connection.
        assert watcher_frames.seat is None
        for connection in range(watcher_frames.connections):
            frames = [
                f
                for f, c in zip(watcher_frames.frames, watcher_frames.connection_of, strict=True)
                if c == connection
            ]
            assert audit_frames(record, None, frames) >= 1
        # Their words: nothing hidden at the frame's version is named.
        worded = 0
        for frame in watcher_frames.of_type("welcome", "update"):
            if frame["view"] is None:
                continue
            text = " ".join(w["text"] for w in frame.get("words") or [] if w)
            secrets = secrets_at(replay.at_most(frame["view"]["version"]))
            assert_no_leak(text, secrets, f"the words at version {frame['view']['version']}")
            worded += bool(text)
        assert worded >= 3

        # The page at each moment: nothing hidden then is named anywhere in its HTML.
        checked = 0
        for snap in snapshots:
            secrets = secrets_at(replay.at_most(snap.version_after))
            assert_no_leak(snap.html, secrets, f"the page before version {snap.version_after}")
            checked += bool(secrets)
        assert checked >= 3, "too few moments with something hidden to look for"

        # The checks can fail: a hidden name planted in the page is found ...
        first = snapshots[0]
        planted = sorted(secrets_at(replay.at_most(first.version_after)))[0]
        watcher.evaluate(
            """name => {
                const note = document.createElement("span");
                note.title = `under this tile: ${name}`;
                document.querySelector(".board").append(note);
            }""",
            planted,
        )
        assert leaked(watcher.content(), {planted}) == [planted]
        # ... and so is a hidden card or tile slipped into a frame's view.
        update = next(f for f in watcher_frames.of_type("update") if f["view"] is not None)
        tampered = json.loads(json.dumps(update))
        plant_secret(tampered["view"], replay.at_most(tampered["view"]["version"]))
        with pytest.raises(AssertionError, match="is not seat None's view"):
            audit_frames(record, None, [tampered])


def plant_secret(view: dict[str, Any], state: Any) -> None:
    """Change ``view`` the way a leak would: show a face-down tile (Ali Baba), or name the
    top card of a chest (Magic Lamp)."""
    if state.spec.id == "ali-baba":
        place = next(p for p in view["board"]["places"] if p["state"] == "face_down")
        place["state"] = "face_up"
        place["tile"] = state.tiles.tile_json(state.cell[place["place"]])
    else:
        from arabesque.games.magic_lamp.view import tables

        chest = next(c for c, deck in enumerate(state.decks) if deck)
        view["chests"][chest]["known_top"] = [tables(state.comp).card_json[state.decks[chest][-1]]]


# -- screenshots ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: $ARABESQUE_SCREENSHOTS, else a temporary folder."""
    folder = os.environ.get("ARABESQUE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize(
    ("game", "game_name", "seats"),
    [
        ("magic-lamp", "Aladdin & the Magic Lamp", ["Bot: heuristic"] * 2),
        ("ali-baba", "Ali Baba", ["Bot: heuristic"] * 2),
        ("djinn", "Djinn", ["Bot: heuristic"]),
    ],
)
def test_screenshots_of_each_game_at_both_sizes(
    server: ServerThread,
    browser: Any,
    screenshots: Path,
    game: str,
    game_name: str,
    seats: list[str],
) -> None:
    """A seat's page mid-game, at a laptop's and a phone's size: saved for a person to look
    at, and checked for what breaks a layout (a phone scrolling sideways, the decision panel
    out of reach, a board of no size)."""
    with open_page(browser, DESKTOP) as page:
        frames = Frames(page)
        create_from_lobby(page, server.url, game_name, name="Sami", seats=seats)
        player = Player(page, frames, key_every=0, choose=first_marked(page))
        while player.moves < 6:
            assert player.play_one(), "the game ended before mid-game"
        decision = player.wait_for_turn()
        assert decision is not None and decision["reaction"] is None
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            # The board is drawn again when it crosses the narrow width: wait for that.
            narrow = size["width"] < 700
            page.wait_for_function(
                "narrow => (document.querySelector('.board').clientWidth < 700) === narrow",
                arg=narrow,
            )
            page.wait_for_selector(".option-list button.option:not([disabled])")
            page.evaluate("window.scrollTo(0, 0)")  # the screen a player sees first
            name = f"{game}-{size['width']}x{size['height']}"
            page.screenshot(path=str(screenshots / f"{name}.png"))
            page.screenshot(path=str(screenshots / f"{name}-full.png"), full_page=True)

            width = page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= size["width"] + 1, f"{name}: the page scrolls sideways ({width} px)"
            board = page.locator(".board").bounding_box()
            assert board is not None and board["width"] > 100 and board["height"] > 100, name
            assert board["x"] >= 0 and board["x"] + board["width"] <= size["width"] + 1, name
            panel = page.locator(".decision-panel")
            panel.scroll_into_view_if_needed()
            assert panel.is_visible()
            first_option = page.locator(".option-list button.option").first
            first_option.scroll_into_view_if_needed()
            box = first_option.bounding_box()
            assert box is not None, name
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, name
        # Still playable at the phone's size: one more move from there.
        assert player.play_one()
    print(f"screenshots of {game} in {screenshots}")
