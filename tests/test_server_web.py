"""The server side of the browser client (docs/web.md), over a real socket: the page and its
files, the lobby's game options, the rules pages, the replay API and the log in words.

The pages themselves are tested in a real browser (tests/test_web_*.py)."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from arabesque.core.records import MAX_RECORD_BYTES, GameRecord
from arabesque.core.registry import get_game
from arabesque.server.settings import Settings
from arabesque.sim.replay import replay_steps
from tests.conftest import GAMES
from tests.server_client import GameClient, Lobby, ServerThread, play_randomly


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("web"))
    with ServerThread(settings) as srv:
        yield srv


@pytest.fixture(scope="module")
def finished(server: ServerThread) -> tuple[str, dict[str, Any]]:
    """A finished 3-player magic-lamp game between bots: its table id and record."""
    lobby = Lobby(server.url)
    seats = [{"kind": "bot", "agent": a} for a in ("heuristic", "random", "random")]
    table_id, _ = lobby.create(
        "magic-lamp", players=3, seats=seats, auto_start=True, bot_think_s=0.5
    )
    for _ in range(1200):
        if lobby.table(table_id)["status"] == "finished":
            break
        time.sleep(0.05)
    response = lobby.record(table_id)
    response.raise_for_status()
    lobby.close()
    return table_id, response.json()


@pytest.mark.parametrize(
    "path", ["/", "/tables/abc", "/tables/abc/replay", "/replay", "/rules/djinn"]
)
def test_every_page_is_the_shell(server: ServerThread, path: str) -> None:
    response = httpx.get(server.url + path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in response.text


def test_the_page_files_are_served_as_modules(server: ServerThread) -> None:
    for path in ("/static/app.js", "/static/lib/dom.js"):
        response = httpx.get(server.url + path)
        assert response.status_code == 200
        assert "javascript" in response.headers["content-type"]
    # Nothing outside the web folder is reachable through /static.
    assert httpx.get(server.url + "/static/../app.py").status_code == 404
    assert httpx.get(server.url + "/static/%2e%2e/app.py").status_code == 404


def test_games_list_their_lobby_options(server: ServerThread) -> None:
    listed = httpx.get(server.url + "/api/games").json()
    games = {g["id"]: g for g in listed if g["id"] in GAMES}
    assert games["ali-baba"]["options"] == [
        {
            "name": "variant",
            "kind": "choice",
            "default": "standard",
            "choices": ["standard", "aladdins-lamp", "equal-treasures", "smaller-cave"],
            # In the game's words (Params.WORDS), for people choosing.
            "label": "Variant",
            "help": "the rulebook's variants, one at a time",
            "choice_labels": [
                "Standard game",
                "Aladdin's lamp",
                "Equal treasures",
                "Smaller cave (2 players)",
            ],
        }
    ]
    lamp = {o["name"]: o for o in games["magic-lamp"]["options"]}
    # The data file and the safety cap are not offered; the rulebook's variant is.
    assert set(lamp) == {"my_precious"} and lamp["my_precious"]["kind"] == "bool"
    djinn = {o["name"]: o for o in games["djinn"]["options"]}
    assert set(djinn) == {"first_game", "longer", "tom_deck"}
    assert djinn["tom_deck"]["choices"] == [15, 14, 13, 12]
    # Tom's deck is a difficulty, and says so.
    assert djinn["tom_deck"]["choice_labels"][0] == "15 cards: easiest"
    assert djinn["tom_deck"]["choice_labels"][-1] == "12 cards: hardest"
    assert "harder" in djinn["tom_deck"]["help"]
    # Every game says what it is and how long it lasts.
    assert all(g["description"] and g["length"] for g in games.values())
    # Every offered option is one the lobby accepts at its default.
    lobby = Lobby(server.url)
    for game in games.values():
        options = {o["name"]: o["default"] for o in game["options"]}
        lobby.create(game["id"], options=options)
    lobby.close()


# The games Arabesque ships (tests may register toy games of their own, without rules pages).
@pytest.mark.parametrize("game", ["magic-lamp", "ali-baba", "djinn"])
def test_rules_pages_hold_the_rules_and_the_rulings(server: ServerThread, game: str) -> None:
    page = httpx.get(f"{server.url}/api/games/{game}/rules").json()
    assert page["game"] == game and page["name"] == get_game(game).name
    assert "<h2>" in page["html"]
    # Every ruling id of the game's rulings file appears on the page.
    rulings = (Path(__file__).parents[1] / "docs" / "rulings" / f"{game}.md").read_text()
    ids = {line.split()[1].rstrip(":.") for line in rulings.splitlines() if line.startswith("## ")}
    assert ids and all(i in page["rulings_html"] for i in ids)
    # Markdown is rendered, raw HTML is not passed through.
    assert "<script" not in page["html"] + page["rulings_html"]


def test_rules_of_an_unknown_game(server: ServerThread) -> None:
    response = httpx.get(f"{server.url}/api/games/chess/rules")
    assert response.status_code == 404 and response.json()["code"] == "no_game"
    # The page of a game the server does not have: the page's shell (which says so), 404.
    page = httpx.get(f"{server.url}/rules/chess", headers={"accept": "text/html"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")


#: What players have no use for on a rules page: the repository's files and the tests.
REPOSITORY_WORDS = re.compile(
    r"tests?/|\btest_\w+|\w+\.py\b|\.toml\b|\.md\b|docs/|src/|\.\./|Tests?:|\b[a-z]+_[a-z_]+\b"
)


@pytest.mark.parametrize("game", ["magic-lamp", "ali-baba", "djinn"])
def test_rules_pages_are_for_players(server: ServerThread, game: str) -> None:
    page = httpx.get(f"{server.url}/api/games/{game}/rules").json()
    for part in ("html", "rulings_html"):
        found = REPOSITORY_WORDS.findall(page[part])
        # Params named in a ruling's text (max_turns, tom_deck) are the engine's words for
        # its own bounds; the rest must be gone.
        found = [w for w in found if w not in ALLOWED_NAMES]
        assert not found, f"{game} {part} mentions {found}"
    # Only the developers' notes went: the rulings themselves are all there.
    assert "<strong>Why.</strong>" in page["rulings_html"]


#: snake_case words a rules page may still hold: the safety bounds' params and the names of
#: score breakdowns the result table shows.
ALLOWED_NAMES = {"max_turns", "max_rounds", "max_game_length", "secret_card", "tom_deck"}


@pytest.mark.parametrize("path", ["/nonsense", "/tables", "/rules", "/tables/a/b/c"])
def test_an_address_without_a_page_is_an_html_404_for_browsers(
    server: ServerThread, path: str
) -> None:
    page = httpx.get(server.url + path, headers={"accept": "text/html,*/*;q=0.8"})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in page.text
    # Tools and the API keep the JSON answer.
    assert httpx.get(server.url + path).json() == {"detail": "Not Found"}
    api = httpx.get(server.url + "/api/nonsense", headers={"accept": "text/html"})
    assert api.status_code == 404 and api.json() == {"detail": "Not Found"}


def test_a_finished_table_replays_step_by_step(
    server: ServerThread, finished: tuple[str, dict[str, Any]]
) -> None:
    table_id, record_json = finished
    record = GameRecord.from_json(record_json)
    expected = list(replay_steps(record))
    last = len(record.actions)
    for step in (0, 1, last // 2, last):
        frame = httpx.get(f"{server.url}/api/tables/{table_id}/replay", params={"step": step})
        frame.raise_for_status()
        data = frame.json()
        assert data["steps"] == last and data["step"] == step
        assert data["names"] == [
            "Seat 1 (heuristic bot)",
            "Seat 2 (random bot)",
            "Seat 3 (random bot)",
        ]
        # The spectator's view at that step, exactly, and that step's events in words.
        replayed = _state_after(record, step)
        assert data["view"] == json.loads(json.dumps(replayed.view(None, include_log=False)))
        assert len(data["events"]) == len(expected[step][0].events)
        player = record.actions[step - 1][0] if step else None
        if step == 0:
            assert data["title"] == "Setup"
        else:
            # In words, like the log (tests/test_replay_titles.py), never the action code.
            assert data["title"].startswith(f"Step {step} · ")
            assert data["names"][player] in data["title"]
            assert not data["title"].endswith(f": {expected[step][0].action}")
        assert (data["result"] is not None) == (step == last)
    end = httpx.get(f"{server.url}/api/tables/{table_id}/replay", params={"step": last}).json()
    table = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert end["result"] == table["result"]
    # A seat's view at a step is that seat's.
    seat = httpx.get(
        f"{server.url}/api/tables/{table_id}/replay", params={"step": 3, "seat": 1}
    ).json()
    assert seat["view"]["seat"] == 1
    assert seat["view"] == json.loads(json.dumps(_state_after(record, 3).view(1, False)))


def _state_after(record: GameRecord, step: int) -> Any:
    state = record.initial_state()
    if step == 0:
        return state
    for i, _, _, _ in record.steps(state):
        if i == step:
            break
    return state


def test_replay_errors(server: ServerThread, finished: tuple[str, dict[str, Any]]) -> None:
    table_id, record_json = finished
    last = len(record_json["actions"])
    too_far = httpx.get(f"{server.url}/api/tables/{table_id}/replay", params={"step": last + 1})
    assert too_far.status_code == 404 and too_far.json()["code"] == "no_step"
    no_seat = httpx.get(f"{server.url}/api/tables/{table_id}/replay", params={"seat": 7})
    assert no_seat.status_code == 404 and no_seat.json()["code"] == "no_seat"
    # A running game is not replayed: its record holds every secret.
    lobby = Lobby(server.url)
    running, host = lobby.create("magic-lamp", players=2)
    lobby.fill(running, host)
    lobby.start(running, host)
    early = httpx.get(f"{server.url}/api/tables/{running}/replay")
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    lobby.close()


def test_an_uploaded_record_replays(
    server: ServerThread, finished: tuple[str, dict[str, Any]]
) -> None:
    _, record_json = finished
    body = json.dumps(record_json)
    frame = httpx.post(f"{server.url}/api/replay", params={"step": 2}, content=body).json()
    assert frame["step"] == 2 and frame["game"] == "magic-lamp"
    for bad, words in ((b"not json", "not valid JSON"), (b"{}", "record has no")):
        refused = httpx.post(f"{server.url}/api/replay", content=bad)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_record"
        assert words in refused.json()["message"]
    # A tampered step is named.
    broken = dict(
        record_json, actions=[*record_json["actions"][:4], {"player": 0, "action": "fly"}]
    )
    refused = httpx.post(f"{server.url}/api/replay", params={"step": 5}, content=json.dumps(broken))
    assert refused.status_code == 400 and "step 5" in refused.json()["message"]
    huge = httpx.post(f"{server.url}/api/replay", content=b" " * (MAX_RECORD_BYTES + 1))
    assert huge.status_code == 413 and huge.json()["code"] == "too_large"


@pytest.mark.parametrize("bad", [0, {}, 1.5])
def test_an_uploaded_djinn_record_whose_layout_holds_a_non_name_is_a_bad_record(
    server: ServerThread, bad: Any
) -> None:
    """A Djinn layout entry that is not a location name made the replay raise TypeError, which
    the server answered with a 500; it is a bad record like any other."""
    spec = get_game("djinn")
    data = spec.new_game(spec.make_params(num_players=2), seed=3).record().to_json()
    data["setup"]["arrangement"]["layout"][2] = bad
    refused = httpx.post(f"{server.url}/api/replay", content=json.dumps(data))
    assert refused.status_code == 400 and refused.json()["code"] == "bad_record"
    assert "bad Djinn arrangement: layout" in refused.json()["message"]


async def test_the_log_in_words_for_clients_that_ask(server: ServerThread) -> None:
    """``hello.words``: each frame's ``words`` is parallel to its ``log``, the game's own
    describer on exactly those events; a client that does not ask gets no words."""
    lobby = Lobby(server.url)
    table_id, host = lobby.create("ali-baba", players=2, clock={"per_move_s": None})
    _, token = lobby.join(table_id, 0, name="Ann")
    lobby.fill(table_id, host, "random")
    lobby.start(table_id, host)
    async with (
        GameClient(server.ws_url, table_id, token, words=True) as ann,
        GameClient(server.ws_url, table_id, None) as plain,
    ):
        await play_randomly(ann, random.Random(4), timeout=60)
    framed = [f for f in ann.frames if f["type"] in ("welcome", "update")]
    assert framed
    texts = []
    for frame in framed:
        assert len(frame["words"]) == len(frame["log"])
        texts += [w["text"] for w in frame["words"] if w is not None]
    assert any("Ann" in t for t in texts)
    assert all("{" not in t for t in texts)  # no event shown raw
    assert all("words" not in f for f in plain.frames)
    lobby.close()
