"""A player who leaves must not stall a table (issue 17 §1): the away time, handing an away
seat to a bot (who may, and when), the seat given back on reconnecting, the host ending a
game (``abandoned``: revealed, its partial record verifies), the lobby's "being played" list
and the idle tables abandoned, also across a restart. Real uvicorn on loopback, real SQLite
(and PostgreSQL when ARABESQUE_TEST_DATABASE_URL names one)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from arabesque.core.records import GameRecord
from arabesque.server.settings import Settings
from arabesque.sim.verify import verify_record
from tests.conftest import PG_ENV
from tests.server_client import GameClient, Lobby, ServerThread, pg_schema


def _settings(url: str, tmp_path: Path, **extra: Any) -> Settings:
    return Settings(database_url=url, data_dir=tmp_path, **extra)


def _two_humans(lobby: Lobby, away_s: float = 1.0) -> tuple[str, str, str, str]:
    """A running 2-player Ali Baba table, Ann (seat 0, the host) and Bob (seat 1)."""
    table_id, host = lobby.create(
        "ali-baba",
        players=2,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        clock={"per_move_s": None},
        away_s=away_s,
        auto_start=True,
    )
    _, ann = lobby.join(table_id, 0, "Ann")
    _, bob = lobby.join(table_id, 1, "Bob")
    assert lobby.table(table_id)["status"] == "running"
    return table_id, host, ann, bob


def _seat_bot(lobby: Lobby, table_id: str, seat: int, token: str | None) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return lobby.http.post(
        f"/api/tables/{table_id}/seats/{seat}/bot", json={"agent": "heuristic"}, headers=headers
    )


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text


async def _play_turns(
    client: GameClient, rng: random.Random, until: Any, timeout: float = 60
) -> None:
    """Play random options for the client's seat until ``until(client)``."""
    deadline = time.monotonic() + timeout
    while not until(client):
        assert time.monotonic() < deadline, "the game did not get there in time"
        decision = client.decision
        if decision is None or client.view is None or client.view["is_over"]:
            with contextlib.suppress(TimeoutError):
                await client.next(timeout=2)
            continue
        reply = await client.act(rng.choice(decision["options"])["action"])
        if reply["type"] == "error":
            assert reply["code"] in ("stale", "not_your_turn", "game_over"), reply
            await client.send({"type": "sync"})
            await client.expect("welcome")


def test_away_time_is_validated(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    with ServerThread(_settings(url, tmp_path)) as server:
        lobby = Lobby(server.url)
        for bad in (0, -5, 0.5, 86401, "soon", None, True):
            r = lobby.http.post("/api/tables", json={"game": "ali-baba", "away_s": bad})
            assert r.status_code == 422, (bad, r.text)
            assert "away_s" in json.dumps(r.json()["detail"])
        assert lobby.http.get("/api/tables").json() == []  # nothing was made
        table_id, _ = lobby.create("ali-baba")
        assert lobby.table(table_id)["away_s"] == 120
        table_id, _ = lobby.create("ali-baba", away_s=30)
        info = lobby.table(table_id)
        assert info["away_s"] == 30 and info["notes"] == [] and info["end_reason"] is None
        lobby.close()


async def test_who_may_hand_an_away_seat_to_a_bot(database_url: str, tmp_path: Path) -> None:
    """Not before the away time, not a connected seat, not a stranger or a spectator; the
    host or a seated player may. The bot plays the seat until its player reconnects, who
    then gets it back and plays on; the notes and the seat info say what happened."""
    rng = random.Random(5)
    with ServerThread(_settings(database_url, tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, host, ann_token, bob_token = _two_humans(lobby, away_s=1.5)
        ann = GameClient(server.ws_url, table_id, ann_token)
        bob = GameClient(server.ws_url, table_id, bob_token)
        watcher = GameClient(server.ws_url, table_id)
        await ann.connect()
        await bob.connect()
        await watcher.connect()
        await bob.close()
        await ann.wait_until(
            lambda c: c.table is not None and c.table["seats"][1]["away_since"] is not None
        )
        seat1 = ann.table["seats"][1]  # type: ignore[index]
        assert seat1["connected"] is False and seat1["away"] is False
        assert seat1["played_by"] is None
        # Too early: refused, with the table's time, and nothing changes.
        r = _seat_bot(lobby, table_id, 1, host)
        _refused(r, 409, "not_away")
        assert "1.5 s" in r.json()["message"]
        await ann.send({"type": "seat_bot", "seat": 1, "ref": "early"})
        early = await ann.answer("early")
        assert early["type"] == "error" and early["code"] == "not_away", early
        # The table tells everyone once the seat has been away for its time.
        await ann.wait_until(lambda c: c.table["seats"][1]["away"] is True, timeout=5)  # type: ignore[index]
        # Strangers and spectators may not.
        _refused(_seat_bot(lobby, table_id, 1, None), 403, "not_host")
        _refused(_seat_bot(lobby, table_id, 1, "not-a-token-of-this-table"), 403, "not_host")
        await watcher.send({"type": "seat_bot", "seat": 1, "ref": "w"})
        refused = await watcher.answer("w")
        assert refused["type"] == "error" and refused["code"] == "spectator", refused
        # A connected seat, a seat that does not exist, a bad agent, a bad message.
        _refused(_seat_bot(lobby, table_id, 0, host), 409, "not_away")
        _refused(_seat_bot(lobby, table_id, 7, host), 404, "no_seat")
        r = lobby.http.post(
            f"/api/tables/{table_id}/seats/1/bot",
            json={"agent": "no-such-bot"},
            headers={"Authorization": f"Bearer {host}"},
        )
        _refused(r, 422, "bad_agent")
        await ann.send({"type": "seat_bot", "seat": "1", "ref": "bad"})
        bad = await ann.answer("bad")
        assert bad["type"] == "error" and bad["code"] == "bad_message", bad
        info = lobby.table(table_id)
        assert info["seats"][1]["played_by"] is None and info["notes"] == []
        # A seated player may (over the websocket).
        await ann.send({"type": "seat_bot", "seat": 1, "ref": "ok"})
        ok = await ann.answer("ok")
        assert ok["type"] == "ack", ok
        await ann.wait_until(lambda c: c.table["seats"][1]["played_by"] == "heuristic")  # type: ignore[index]
        notes = ann.table["notes"]  # type: ignore[index]
        assert [n["kind"] for n in notes] == ["stand_in"]
        assert (
            "heuristic bot plays for Bob" in notes[0]["text"] and "asked by Ann" in notes[0]["text"]
        )
        _refused(_seat_bot(lobby, table_id, 1, host), 409, "not_away")  # already a bot's
        # The game goes on: the bot plays Bob's turns.
        start = ann.version
        await _play_turns(ann, rng, lambda c: c.version >= start + 6 or c.view["is_over"])
        assert not ann.view["is_over"]  # type: ignore[index]
        bob_moves = sum(1 for s, _ in _actions(database_url, table_id) if s == 1)
        assert bob_moves >= 1
        # Bob comes back: the seat is his again at once.
        bob = GameClient(server.ws_url, table_id, bob_token)
        welcome = await bob.connect()
        back = welcome["table"]["seats"][1]
        assert back["played_by"] is None and back["connected"] and back["away_since"] is None
        assert [n["kind"] for n in welcome["table"]["notes"]] == ["stand_in", "back"]
        stored = _actions(database_url, table_id)
        # He plays on himself; the bot no longer moves for him.
        await _play_both(ann, bob, rng, moves=4)
        assert lobby.table(table_id)["seats"][1]["played_by"] is None
        assert len(_actions(database_url, table_id)) > len(stored)
        # The host token may hand a seat over too (Ann goes this time).
        await ann.close()
        await asyncio.sleep(1.7)
        info = _seat_bot(lobby, table_id, 0, host).json()
        assert info["seats"][0]["played_by"] == "heuristic"
        assert "asked by the host" in info["notes"][-1]["text"]
        for client in (bob, watcher):
            await client.close()
        lobby.close()


def _actions(database_url: str, table_id: str) -> list[tuple[int, str]]:
    from arabesque.server.store import Store

    store = Store(database_url)
    try:
        data = store.load(table_id)
        assert data is not None
        return data.actions
    finally:
        store.close()


async def _play_both(a: GameClient, b: GameClient, rng: random.Random, moves: int) -> None:
    """Play ``moves`` random moves between two seats, whoever is to act."""
    played = 0
    deadline = time.monotonic() + 30
    while played < moves:
        assert time.monotonic() < deadline
        for client in (a, b):
            await client.send({"type": "sync"})
            await client.expect("welcome")
        if a.view["is_over"]:  # type: ignore[index]
            return
        for client in (a, b):
            decision = client.decision
            if decision is not None:
                reply = await client.act(rng.choice(decision["options"])["action"])
                if reply["type"] == "ack":
                    played += 1
                break
        else:
            await asyncio.sleep(0.05)


async def test_the_host_ends_a_game_that_cannot_go_on(database_url: str, tmp_path: Path) -> None:
    rng = random.Random(3)
    with ServerThread(_settings(database_url, tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, host, ann_token, bob_token = _two_humans(lobby)
        ann = GameClient(server.ws_url, table_id, ann_token)
        bob = GameClient(server.ws_url, table_id, bob_token)
        await ann.connect()
        await bob.connect()
        await _play_both(ann, bob, rng, moves=5)
        commitment = lobby.table(table_id)["commitment"]
        _refused(lobby.record(table_id), 409, "not_finished")
        url = f"/api/tables/{table_id}/abandon"
        # Only the host: not a player's token, not a stranger; a bad reason changes nothing.
        for token in (ann_token, bob_token, None):
            headers = {} if token is None else {"Authorization": f"Bearer {token}"}
            _refused(lobby.http.post(url, json={}, headers=headers), 403, "not_host")
        auth = {"Authorization": f"Bearer {host}"}
        r = lobby.http.post(url, json={"reason": "x" * 201}, headers=auth)
        assert r.status_code == 422
        r = lobby.http.post(url, json={"reason": "bad\nline"}, headers=auth)
        assert r.status_code == 422
        assert lobby.table(table_id)["status"] == "running"
        r = lobby.http.post(url, json={"reason": "Bob's train left"}, headers=auth)
        assert r.status_code == 200, r.text
        info = r.json()
        assert info["status"] == "abandoned" and info["end_reason"] == "Bob's train left"
        assert info["result"] is None and info["reveal"]["salt"]
        assert info["notes"][-1]["kind"] == "abandoned"
        over = await ann.expect("game_over")
        assert over["table"]["status"] == "abandoned"
        # Nothing more is played, joined, handed over or ended.
        decision = ann.decision or bob.decision
        client = ann if ann.decision else bob
        if decision is not None:
            reply = await client.act(decision["options"][0]["action"])
            assert reply["type"] == "error" and reply["code"] == "game_over", reply
        _refused(lobby.http.post(url, json={}, headers=auth), 409, "finished")
        _refused(lobby.http.post(f"/api/tables/{table_id}/join", json={}), 409, "finished")
        _refused(_seat_bot(lobby, table_id, 1, host), 409, "not_running")
        # The partial record downloads and verifies, commitment included.
        r = lobby.record(table_id)
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["metadata"]["abandoned"] == {"reason": "Bob's train left"}
        assert "result" not in data["metadata"]
        record = GameRecord.from_json(data)
        checked = verify_record(record, expected_commitment=commitment)
        assert checked.ok, checked.failure
        assert any("abandoned before the end (Bob's train left)" in c for c in checked.checked)
        assert any("commitment" in c for c in checked.checked)
        path = tmp_path / "abandoned.json"
        path.write_text(json.dumps(data))
        cli = subprocess.run(
            [sys.executable, "-m", "arabesque", "verify", str(path), "--commitment", commitment],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert cli.returncode == 0, cli.stdout + cli.stderr
        assert "abandoned before the end" in cli.stdout
        # The lobby lists it as abandoned, not as running.
        assert table_id not in [t["id"] for t in lobby.http.get("/api/tables").json()]
        ended = lobby.http.get("/api/tables", params={"status": "abandoned"}).json()
        assert [t["id"] for t in ended] == [table_id]
        # The replay of the partial game works too.
        assert (
            lobby.http.get(f"/api/tables/{table_id}/replay", params={"step": 2}).status_code == 200
        )
        for c in (ann, bob):
            await c.close()
        lobby.close()


async def test_the_lobby_lists_only_games_being_played(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    with ServerThread(_settings(url, tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, _host, ann_token, _bob = _two_humans(lobby)
        bots_id, _ = lobby.create(
            "ali-baba",
            players=2,
            seats=[{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}],
            auto_start=True,
            bot_think_s=0.5,
        )

        def listed() -> list[str]:
            return [t["id"] for t in lobby.http.get("/api/tables").json()]

        running = [
            t["id"] for t in lobby.http.get("/api/tables", params={"status": "running"}).json()
        ]
        assert table_id in running
        assert table_id not in listed()  # nobody connected
        ann = GameClient(server.ws_url, table_id, ann_token)
        await ann.connect()
        assert table_id in listed()
        await ann.close()
        deadline = time.monotonic() + 5
        while table_id in listed():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        # A game of bots only is listed while it runs (it may end quickly: then finished).
        info = lobby.table(bots_id)
        if info["status"] == "running":
            assert bots_id in listed()
        lobby.close()


async def test_idle_tables_are_abandoned_also_after_a_restart(
    database_url: str, tmp_path: Path
) -> None:
    """A table nobody has been connected to for ``abandon_idle_s`` is abandoned; the time is
    read from the database, so a restarted server finds it (and a seat handed to a bot stays
    the bot's across the restart)."""
    settings = _settings(database_url, tmp_path)
    with ServerThread(settings) as server:
        lobby = Lobby(server.url)
        idle_id, _host, ann_token, _bob = _two_humans(lobby, away_s=1)
        kept_id, kept_host, kept_ann, _kept_bob = _two_humans(lobby, away_s=1)
        bots_id, bots_host = lobby.create(
            "ali-baba",
            players=2,
            seats=[{"kind": "bot", "agent": "random"}, {"kind": "human", "name": "Cy"}],
            away_s=1,
            auto_start=True,
        )
        _, cy = lobby.join(bots_id, 1, "Cy")
        cy_client = GameClient(server.ws_url, bots_id, cy)
        await cy_client.connect()
        await cy_client.close()
        await asyncio.sleep(1.2)
        r = lobby.http.post(
            f"/api/tables/{bots_id}/seats/1/bot",
            json={"agent": "random"},
            headers={"Authorization": f"Bearer {bots_host}"},
        )
        assert r.status_code == 200, r.text
        ann = GameClient(server.ws_url, idle_id, ann_token)
        await ann.connect()
        await ann.close()
        lobby.close()
    await asyncio.sleep(1.5)
    # The restarted server: idle past 1 s, except the table someone connects to now.
    quick = settings.model_copy(update={"abandon_idle_s": 1.0, "idle_check_s": 0.2})
    with ServerThread(quick) as server:
        lobby = Lobby(server.url)
        info = lobby.table(idle_id)
        assert info["status"] == "abandoned", info
        assert info["end_reason"] == "nobody connected for 1 s"
        assert info["reveal"] is not None
        assert lobby.record(idle_id).status_code == 200
        # The game of bots only (one a stand-in, kept across the restart) plays on.
        bots = lobby.table(bots_id)
        assert bots["status"] in ("running", "finished"), bots
        assert bots["seats"][1]["played_by"] == "random"
        # The other table was abandoned at startup too: nobody had ever connected.
        assert lobby.table(kept_id)["status"] == "abandoned"
        lobby.close()
    del kept_host, kept_ann


async def test_a_connected_table_is_not_abandoned_for_idleness(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    settings = _settings(url, tmp_path, abandon_idle_s=1.0, idle_check_s=0.2)
    with ServerThread(settings) as server:
        lobby = Lobby(server.url)
        table_id, _host, ann_token, _bob = _two_humans(lobby)
        ann = GameClient(server.ws_url, table_id, ann_token)
        await ann.connect()
        await asyncio.sleep(1.6)
        assert lobby.table(table_id)["status"] == "running"
        await ann.close()
        deadline = time.monotonic() + 5
        while lobby.table(table_id)["status"] != "abandoned":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        lobby.close()


@pytest.mark.skipif(
    not os.environ.get(PG_ENV, "").startswith("postgresql"),
    reason=f"{PG_ENV} does not name a PostgreSQL database",
)
async def test_another_process_follows_a_stand_in_and_the_end(tmp_path: Path) -> None:
    """Two servers on one PostgreSQL database: a bot seated and the game abandoned on A are
    seen on B (its connections get the table and the end)."""
    with pg_schema(os.environ[PG_ENV]) as url:
        from arabesque.server.store import Store

        store = Store(url)
        try:
            store.migrate()
        finally:
            store.close()
        settings = Settings(database_url=url, data_dir=tmp_path, migrate=False)
        with ServerThread(settings) as a, ServerThread(settings) as b:
            lobby_a, lobby_b = Lobby(a.url), Lobby(b.url)
            table_id, host, ann_token, _bob = _two_humans(lobby_a, away_s=1)
            watcher = GameClient(b.ws_url, table_id)
            await watcher.connect()
            ann = GameClient(a.ws_url, table_id, ann_token)
            await ann.connect()
            await asyncio.sleep(1.2)
            assert _seat_bot(lobby_a, table_id, 1, host).status_code == 200
            await watcher.wait_until(
                lambda c: c.table is not None and c.table["seats"][1]["played_by"] == "heuristic"
            )
            assert lobby_b.table(table_id)["notes"][0]["kind"] == "stand_in"
            r = lobby_a.http.post(
                f"/api/tables/{table_id}/abandon",
                json={"reason": "late"},
                headers={"Authorization": f"Bearer {host}"},
            )
            assert r.status_code == 200, r.text
            over = await watcher.expect("game_over")
            assert over["table"]["status"] == "abandoned"
            assert lobby_b.table(table_id)["end_reason"] == "late"
            for client in (ann, watcher):
                await client.close()
            lobby_a.close()
            lobby_b.close()


async def test_after_a_restart_seats_become_away_and_can_be_handed_over(tmp_path: Path) -> None:
    """Nobody is connected to a restarted server: its players are away from the restart
    on, and those connected are told when the table's time is up (a `table` frame)."""
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    with ServerThread(_settings(url, tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, host, ann_token, _bob = _two_humans(lobby, away_s=3)
        lobby.close()
    with ServerThread(_settings(url, tmp_path)) as server:
        lobby = Lobby(server.url)
        ann = GameClient(server.ws_url, table_id, ann_token)
        welcome = await ann.connect()
        seat1 = welcome["table"]["seats"][1]
        assert seat1["away_since"] is not None and seat1["away"] is False
        await ann.wait_until(lambda c: c.table["seats"][1]["away"] is True, timeout=8)  # type: ignore[index]
        assert _seat_bot(lobby, table_id, 1, ann_token).status_code == 200
        await ann.close()
        lobby.close()
    del host


async def test_a_player_who_joined_but_never_connected_becomes_away_without_a_reload(
    tmp_path: Path,
) -> None:
    """Bob takes his seat and closes the page before it connects; the host starts the game.
    Ann, connected from the start, is told when Bob's away time is up (a `table` frame), so
    her page offers the bot without being reloaded."""
    with ServerThread(_settings(f"sqlite:///{tmp_path / 's.sqlite3'}", tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, host = lobby.create(
            "ali-baba",
            players=2,
            seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            clock={"per_move_s": None},
            away_s=1.0,
        )
        _, ann_token = lobby.join(table_id, 0, "Ann")
        ann = GameClient(server.ws_url, table_id, ann_token)
        await ann.connect()
        lobby.join(table_id, 1, "Bob")
        lobby.start(table_id, host)
        await ann.wait_until(lambda c: c.table["seats"][1]["away"] is True, timeout=6)  # type: ignore[index]
        assert _seat_bot(lobby, table_id, 1, ann_token).status_code == 200
        await ann.close()
        lobby.close()
