"""Hints on the server (server/hints.py, docs/protocol.md "Hints"), over a real socket: only
at tables created with hints, only for the asking player's own seat, any seat of a finished
game's replay (never a running game's), cached per position, rate-limited per address, and
computed in the bot worker processes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from arabesque.core.records import GameRecord
from arabesque.server.settings import Settings
from tests.conftest import serve_without_serving
from tests.server_client import Lobby, ServerThread

#: A small search, so each hint takes milliseconds.
LEVEL = "ismcts:iters=40+horizon=8"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("hints"),
        hint_level=LEVEL,
        bot_workers=1,
        hint_burst=1000,
        table_burst=100,
    )
    with ServerThread(settings) as running:
        yield running


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _seated_table(server: ServerThread, hints: bool) -> tuple[str, str, str]:
    """A running 2-player magic-lamp table: Ann at seat 0, a random bot at seat 1, no
    clock. Returns (table id, host token, Ann's token)."""
    lobby = Lobby(server.url)
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "agent": "random"}]
    table_id, host = lobby.create(
        "magic-lamp", players=2, seats=seats, clock={"per_move_s": None}, hints=hints
    )
    _, token = lobby.join(table_id, 0)
    lobby.start(table_id, host)
    lobby.close()
    return table_id, host, token


def test_hints_are_off_unless_the_host_allows_them(server: ServerThread) -> None:
    table_id, _, token = _seated_table(server, hints=False)
    info = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert info["hints"] is False
    refused = httpx.get(f"{server.url}/api/tables/{table_id}/hint", headers=_auth(token))
    assert refused.status_code == 409 and refused.json()["code"] == "hints_off"
    assert "created without hints" in refused.json()["message"]


def test_a_player_gets_a_hint_for_their_own_move_only(server: ServerThread) -> None:
    table_id, host, token = _seated_table(server, hints=True)
    # Shown to everyone: the table and the lobby's list say hints are allowed.
    assert httpx.get(f"{server.url}/api/tables/{table_id}").json()["hints"] is True
    listed = httpx.get(f"{server.url}/api/tables", params={"status": "running"}).json()
    assert [t["hints"] for t in listed if t["id"] == table_id] == [True]
    url = f"{server.url}/api/tables/{table_id}/hint"
    workers = server.app.state.hub.bot_workers
    decided = workers.decided
    answer = httpx.get(url, headers=_auth(token), timeout=30)
    assert answer.status_code == 200, answer.text
    assert workers.decided == decided + 1, "the hint was not worked out in a bot worker"
    found = answer.json()
    assert found["seat"] == 0 and found["level"] == LEVEL and found["game"] == "magic-lamp"
    assert found["measure"] in ("win_rate", "evaluation") and found["explanation"]
    assert 1 <= len(found["options"]) <= 3
    for option in found["options"]:
        assert option["label"] and option["text"] and 0 <= option["value"] <= 1
    # Nobody else gets a hint for that seat: a spectator, the host, a wrong token.
    for headers in ({}, _auth(host), _auth("not-a-token")):
        refused = httpx.get(url, headers=headers)
        assert refused.status_code == 403 and refused.json()["code"] == "not_seated"
        assert "your own seat" in refused.json()["message"]
    # A running game's replay gives no hint for any seat (its record holds every secret).
    early = httpx.get(f"{url[:-5]}/replay/hint", params={"seat": 1, "step": 0})
    assert early.status_code == 409 and early.json()["code"] == "not_finished"


def test_the_same_position_is_answered_from_the_cache(server: ServerThread) -> None:
    table_id, _, token = _seated_table(server, hints=True)
    hints = server.app.state.hints
    url = f"{server.url}/api/tables/{table_id}/hint"
    first = httpx.get(url, headers=_auth(token), timeout=30).json()
    computed, hits = hints.computed, hints.hits
    again = httpx.get(url, headers=_auth(token), timeout=30).json()
    assert again == first
    assert (hints.computed, hints.hits) == (computed, hits + 1)


@pytest.fixture(scope="module")
def finished(server: ServerThread) -> tuple[str, dict[str, Any]]:
    lobby = Lobby(server.url)
    seats = [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}]
    table_id, _ = lobby.create("ali-baba", players=2, seats=seats, auto_start=True)
    for _ in range(600):
        if lobby.table(table_id)["status"] == "finished":
            break
        time.sleep(0.05)
    record = lobby.record(table_id)
    record.raise_for_status()
    lobby.close()
    return table_id, record.json()


def test_any_seat_of_a_finished_game_gets_a_hint_at_any_step(
    server: ServerThread, finished: tuple[str, dict[str, Any]]
) -> None:
    table_id, record_json = finished
    record = GameRecord.from_json(record_json)
    url = f"{server.url}/api/tables/{table_id}/replay/hint"
    step = len(record.actions) // 2
    player = record.actions[step][0]  # who acts after ``step``
    answer = httpx.get(url, params={"step": step, "seat": player}, timeout=30)
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["seat"] == player
    assert found["considered"] >= len(found["options"]) >= 1
    # The other seat has nothing to decide there (Ali Baba's turns are one seat's).
    other = httpx.get(url, params={"step": step, "seat": 1 - player})
    assert other.status_code == 409 and other.json()["code"] == "nothing_to_decide"
    assert httpx.get(url, params={"step": 10**6, "seat": 0}).json()["code"] == "no_step"
    # The same position from an uploaded record is the same hint (from the cache).
    hits = server.app.state.hints.hits
    uploaded = httpx.post(
        f"{server.url}/api/replay/hint",
        params={"step": step, "seat": player},
        content=json.dumps(record_json),
        timeout=30,
    )
    assert uploaded.status_code == 200 and uploaded.json() == found
    assert server.app.state.hints.hits == hits + 1


def test_hints_are_rate_limited_per_address(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, hint_level=LEVEL, bot_workers=0, hints_per_minute=6, hint_burst=2
    )
    with ServerThread(settings) as running:
        table_id, _, token = _seated_table(running, hints=True)
        url = f"{running.url}/api/tables/{table_id}/hint"
        for _ in range(2):
            assert httpx.get(url, headers=_auth(token), timeout=30).status_code == 200
        refused = httpx.get(url, headers=_auth(token))
        assert refused.status_code == 429
        assert "too many hints asked for" in refused.json()["message"]
        assert int(refused.headers["retry-after"]) >= 1


def test_each_player_gets_the_hint_for_their_own_seat(server: ServerThread) -> None:
    """Two players deciding at once (Magic Lamp's secret dice): each token gets its own
    seat's hint, and nothing names another seat."""
    lobby = Lobby(server.url)
    table_id, host = lobby.create(
        "magic-lamp",
        players=2,
        clock={"per_move_s": None},
        hints=True,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
    )
    tokens = [lobby.join(table_id, seat)[1] for seat in (0, 1)]
    lobby.start(table_id, host)
    lobby.close()
    url = f"{server.url}/api/tables/{table_id}/hint"
    for seat, token in enumerate(tokens):
        found = httpx.get(url, headers=_auth(token), timeout=30).json()
        assert found["seat"] == seat
    # A seat named in the query is ignored: the token alone says whose hint it is.
    asked = httpx.get(url, params={"seat": 1}, headers=_auth(tokens[0]), timeout=30).json()
    assert asked["seat"] == 0


def test_serve_flags_set_the_hints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from arabesque.server import cli

    captured, _ = serve_without_serving(monkeypatch, tmp_path)
    argv = ["--hints-per-minute", "0", "--hint-level", "medium", "--hint-deadline", "4"]
    assert cli.main([*argv, "--port", "0"]) == 0
    settings = captured["settings"]
    assert (settings.hints_per_minute, settings.hint_level, settings.hint_think_s) == (
        0.0,
        "medium",
        4.0,
    )
    assert cli.main(["--port", "0"]) == 0
    assert captured["settings"].hint_level == "hard"
    # A level no game can hint with is refused before the server starts, in one line.
    for level, says in (("heuristic", "needs a search bot"), ("nosuch", "unknown agent")):
        with pytest.raises(SystemExit):
            cli.main(["--hint-level", level, "--port", "0"])
        assert says in capsys.readouterr().err
