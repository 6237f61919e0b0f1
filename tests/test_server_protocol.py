"""The play server's lobby and websocket protocol over real sockets: tokens, spectators,
refused messages (each answered with an error that changes nothing), reconnection and
clocks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import httpx
import pytest

from arabesque.core.records import GameRecord
from arabesque.server.settings import Settings
from tests.server_client import GameClient, Lobby, ServerThread

MAX_MESSAGE = 4096


@pytest.fixture
def server(tmp_path: Path) -> Any:
    settings = Settings(
        data_dir=tmp_path,
        max_message_bytes=MAX_MESSAGE,
        ws_hard_limit_bytes=64 * 1024,
        min_clock_s=0.1,  # clocks of 0.2 s run out fast
    )
    with ServerThread(settings) as srv:
        yield srv


def _two_humans(lobby: Lobby, **extra: Any) -> tuple[str, str, str, str]:
    """A started 2-player magic-lamp table of two humans: (table, host, token0, token1)."""
    body: dict[str, Any] = {"players": 2, "clock": {"per_move_s": None}, **extra}
    table_id, host = lobby.create("magic-lamp", **body)
    _, token0 = lobby.join(table_id, 0)
    _, token1 = lobby.join(table_id, 1)
    lobby.start(table_id, host)
    return table_id, host, token0, token1


def test_lobby_http(server: ServerThread) -> None:
    http = httpx.Client(base_url=server.url)
    games = http.get("/api/games").json()
    assert {g["id"] for g in games} >= {"magic-lamp", "ali-baba"}
    assert all("random" in g["agents"] for g in games)
    for g in games:
        # The search levels, each with a one-line description the lobby can show.
        assert {"easy", "medium", "hard"} <= set(g["agents"])
        assert set(g["agent_descriptions"]) == set(g["agents"])
        assert all(g["agent_descriptions"][level] for level in ("easy", "medium", "hard"))
    page = http.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text  # the browser client

    def refused(response: httpx.Response, status: int, code: str | None = None) -> None:
        assert response.status_code == status, response.text
        if code is not None:
            assert response.json()["code"] == code

    refused(http.post("/api/tables", json={"game": "chess"}), 404, "no_game")
    refused(http.post("/api/tables", json={"game": "magic-lamp", "players": 9}), 422, "bad_params")
    refused(
        http.post("/api/tables", json={"game": "ali-baba", "variant": "nope"}), 422, "bad_params"
    )
    refused(
        http.post("/api/tables", json={"game": "magic-lamp", "options": {"nope": 1}}),
        422,
        "bad_params",
    )
    # A data param names a file on the server: refused, whatever the file.
    refused(
        http.post(
            "/api/tables", json={"game": "magic-lamp", "options": {"components": "/etc/passwd"}}
        ),
        422,
        "bad_params",
    )
    refused(
        http.post(
            "/api/tables",
            json={
                "game": "magic-lamp",
                "players": 2,
                "seats": [{"kind": "bot", "agent": "genius"}],
            },
        ),
        422,
        "bad_agent",
    )
    refused(
        http.post("/api/tables", json={"game": "magic-lamp", "players": 2, "seats": [{}, {}, {}]}),
        422,
        "bad_seats",
    )
    refused(http.post("/api/tables", json={"game": "magic-lamp", "colour": "red"}), 422)
    refused(http.get("/api/tables/nope"), 404, "no_table")

    created = http.post(
        "/api/tables", json={"game": "ali-baba", "players": 2, "variant": "smaller-cave"}
    )
    assert created.status_code == 201
    table_id = created.json()["table"]["id"]
    host = created.json()["host_token"]
    assert created.json()["table"]["params"]["variant"] == "smaller-cave"
    assert table_id in {t["id"] for t in http.get("/api/tables").json()}
    refused(http.post(f"/api/tables/{table_id}/start"), 403, "not_host")
    refused(
        http.post(f"/api/tables/{table_id}/start", headers={"Authorization": "Bearer wrong"}),
        403,
        "not_host",
    )
    auth = {"Authorization": f"Bearer {host}"}
    refused(http.post(f"/api/tables/{table_id}/start", headers=auth), 409, "seats_free")
    joined = http.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Ann"}).json()
    assert joined["seat"] == 1 and len(joined["token"]) > 30
    refused(http.post(f"/api/tables/{table_id}/join", json={"seat": 1}), 409, "seat_taken")
    refused(http.post(f"/api/tables/{table_id}/join", json={"seat": 5}), 404, "no_seat")
    refused(http.get(f"/api/tables/{table_id}/record"), 409, "not_finished")
    filled = http.post(f"/api/tables/{table_id}/fill", json={"agent": "random"}, headers=auth)
    assert [s["kind"] for s in filled.json()["seats"]] == ["bot", "human"]
    started = http.post(f"/api/tables/{table_id}/start", headers=auth).json()
    assert started["status"] == "running" and started["commitment"]
    refused(http.post(f"/api/tables/{table_id}/start", headers=auth), 409, "not_open")
    running = http.get("/api/tables", params={"status": "running"}).json()
    assert [t["id"] for t in running] == [table_id]
    assert http.get("/api/tables", params={"status": "open"}).json() == []
    # The token is stored hashed and never shown again.
    assert joined["token"] not in http.get(f"/api/tables/{table_id}").text

    schema = http.get("/openapi.json").json()
    assert "/api/tables/{table_id}/join" in schema["paths"]
    for model in ("CreateTableRequest", "TableInfo", "JoinResponse", "ApiError", "ClockSpec"):
        assert model in schema["components"]["schemas"]
    http.close()


async def test_a_token_acts_and_sees_for_its_own_seat_only(server: ServerThread) -> None:
    lobby = Lobby(server.url)
    table_id, _, token0, token1 = _two_humans(lobby)
    other_id, _, other0, _ = _two_humans(lobby)
    async with (
        GameClient(server.ws_url, table_id, token0) as c0,
        GameClient(server.ws_url, table_id, token1) as c1,
        GameClient(server.ws_url, table_id) as watcher,
    ):
        assert (c0.seat, c1.seat, watcher.seat) == (0, 1, None)
        decision = c0.decision
        assert decision is not None and c0.view is not None
        option = decision["options"][0]["action"]
        # Claiming another seat is refused, and so is acting as a spectator.
        reply = await c0.act(option, seat=1)
        assert reply["type"] == "error" and reply["code"] == "wrong_seat"
        reply = await watcher.act(option)
        assert reply["type"] == "error" and reply["code"] == "spectator"
        # A token of another table holds no seat here.
        stranger = GameClient(server.ws_url, table_id, other0)
        await stranger.open()
        await stranger.send({"type": "hello", "token": other0})
        error = await stranger.expect("error")
        assert error["code"] == "bad_token"
        await stranger.send({"type": "action", "action": option, "version": 0})
        assert (await stranger.expect("error"))["code"] == "hello_first"
        await stranger.close()
        # Seat 0 plays its secret die: seat 1 and the spectator learn nothing, not even that
        # something happened (no frame, no new version).
        assert (await c0.act(option))["type"] == "ack"
        await asyncio.sleep(0.3)
        for client in (c1, watcher):
            assert [f for f in client.drain() if f["type"] == "update"] == []
        # Seat 1 still acts at the version it holds, though the game moved on: the versions
        # are each seat's own, and another's secret move does not move them.
        assert c1.view is not None and c1.view["version"] == 0
        option1 = c1.decision["options"][0]["action"]  # type: ignore[index]
        assert (await c1.act(option1)) == {"type": "ack", "ref": ANY, "version": 1}
        assert c1.version == 1 and c0.version == 1
        assert watcher.view is not None and watcher.view["version"] == 0
        assert lobby.table(table_id)["version"] == 0
        for client in (c0, c1):
            for frame in client.frames:
                if frame["type"] in ("welcome", "update"):
                    assert frame["view"]["seat"] == client.seat
            await client.send({"type": "sync"})
    lobby.close()
    assert other_id != table_id


async def test_refused_messages_change_nothing(server: ServerThread) -> None:
    lobby = Lobby(server.url)
    table_id, _, token0, token1 = _two_humans(lobby)
    async with (
        GameClient(server.ws_url, table_id, token0) as c0,
        GameClient(server.ws_url, table_id, token1),
    ):
        # Seat 0 sets its first die, so that version 0 is really stale for it; the game then
        # waits for its second die (and seat 1's), with no clock running.
        await c0.wait_until(lambda c: c.decision is not None)
        assert (await c0.act(c0.decision["options"][0]["action"]))["type"] == "ack"  # type: ignore[index]
        await c0.wait_until(lambda c: c.version == 1)
        before = dict(c0.view or {})
        version = before["version"]
        assert version > 0
        decision = c0.decision
        assert decision is not None
        legal = {o["action"] for o in decision["options"]}
        illegal = next(a for a in range(300) if a not in legal)
        bad: list[tuple[Any, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('"hello"', "bad_message"),
            ({"type": "teleport"}, "unknown_type"),
            ({"no": "type"}, "unknown_type"),
            ({"type": "action", "version": version}, "bad_message"),
            ({"type": "action", "version": version, "action": "x"}, "bad_message"),
            ({"type": "action", "version": -1, "action": 0}, "bad_message"),
            ({"type": "action", "version": version, "action": 1, "verison": 2}, "bad_message"),
            ({"type": "action", "version": 0, "action": next(iter(legal))}, "stale"),
            ({"type": "action", "version": version + 5, "action": next(iter(legal))}, "stale"),
            ({"type": "action", "version": version, "action": 2**40}, "bad_message"),
            ({"type": "action", "version": version, "action": 99_999}, "invalid_action"),
            ({"type": "action", "version": version, "text": "polish the lamp"}, "invalid_action"),
            ({"type": "action", "version": version, "action": illegal}, "illegal_action"),
            ({"type": "hello", "token": token1}, "bad_message"),
            ({"type": "pong", "nonce": "made-up"}, "bad_message"),
            ("x" * (MAX_MESSAGE + 1), "too_large"),
            ({"type": "action", "version": version, "text": "y" * MAX_MESSAGE}, "too_large"),
        ]
        bad.append(({"type": "react", "version": version}, "no_race"))
        for message, code in bad:
            await c0.send(message)
            error = await c0.expect("error")
            assert error["code"] == code, (message, error)
            assert error["message"]
        await c0.send({"type": "sync"})
        welcome = await c0.expect("welcome")
        assert welcome["view"] == before
        # The table's version is the spectators': seat 0's secret die did not move it.
        assert lobby.table(table_id)["version"] == 0
        # A frame past the websocket layer's own limit closes that connection, nothing more.
        await c0.send("z" * (64 * 1024 + 10))
        await asyncio.wait_for(c0.closed.wait(), 5)
        assert c0.close_code == 1009
    async with GameClient(server.ws_url, table_id, token0) as again:
        assert again.view == before
    lobby.close()


async def test_reconnect_restores_the_seat(server: ServerThread) -> None:
    lobby = Lobby(server.url)
    table_id, _, token0, token1 = _two_humans(lobby)
    async with GameClient(server.ws_url, table_id, token1) as c1:
        c0 = GameClient(server.ws_url, table_id, token0)
        await c0.connect()
        for client in (c0, c1):
            for _ in range(2):
                await client.wait_until(lambda c: c.decision is not None)
                assert (await client.act(client.decision["options"][0]["action"]))["type"] == "ack"  # type: ignore[index]
        # Seat 0 saw its own two dice and the reveal, not seat 1's first die.
        await c0.wait_until(lambda c: c.version == 3)
        view, log, index = c0.view, list(c0.log), c0.log_index
        await c0.close()
        # Back with the token, asking for the log from where it stopped.
        again = GameClient(server.ws_url, table_id, token0)
        welcome = await again.connect(log_from=index)
        assert welcome["seat"] == 0 and welcome["view"] == view
        assert welcome["log"] == [] and welcome["log_index"] == index
        # From the start, the whole log it may see.
        fresh = GameClient(server.ws_url, table_id, token0)
        assert (await fresh.connect())["log"] == log
        # The newest connection holds the seat; the one it replaced is told and closed.
        error = await again.expect("error")
        assert error["code"] == "bad_token"
        await asyncio.wait_for(again.closed.wait(), 5)
        assert again.close_code == 4001
        await again.close()
        await fresh.close()
    lobby.close()


async def test_a_vanished_player_gets_default_actions(server: ServerThread) -> None:
    """Seat 0 never connects: its clock runs out, it gets the decisions' defaults (then at
    once, being away), and the bot's game goes on to the end."""
    lobby = Lobby(server.url)
    table_id, host = lobby.create(
        "magic-lamp",
        players=2,
        options={"max_turns": 3},
        clock={"per_move_s": 0.2},
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
    )
    lobby.join(table_id, 0)
    lobby.start(table_id, host)
    async with GameClient(server.ws_url, table_id) as watcher:
        await watcher.wait_until(lambda c: c.view is not None and c.view["is_over"], 20)
    record = GameRecord.from_json(lobby.record(table_id).json())
    state = record.initial_state()
    for player, text in record.actions:
        action = state.parse_action(text)
        if player == 0:
            assert action == state.default_action(0), text
        state.apply(player, action)
    lobby.close()


async def test_clock_bot_takes_over_and_clocks_are_shown(server: ServerThread) -> None:
    lobby = Lobby(server.url)
    table_id, host = lobby.create(
        "ali-baba",
        players=2,
        clock={
            "per_move_s": 0.3,
            "per_game_s": 100,
            "on_timeout": "bot",
            "timeout_agent": "random",
        },
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
    )
    _, token = lobby.join(table_id, 0)
    async with GameClient(server.ws_url, table_id, token) as c0:
        lobby.start(table_id, host)
        await c0.wait_until(lambda c: c.decision is not None)
        shown = [
            f
            for f in c0.frames
            if f["type"] in ("welcome", "update") and f["view"] and f["view"]["decision"]
        ]
        assert shown and shown[-1]["clocks"][0]["seat"] == 0
        assert 0 < shown[-1]["clocks"][0]["move_left_ms"] <= 300
        assert shown[-1]["clocks"][0]["game_left_ms"] <= 100_000
        start = c0.version
        # Idle: the timeout bot moves for the seat, which stays connected and in play.
        await c0.wait_until(lambda c: c.version > start, 5)
        record_actions = lobby.table(table_id)["version"]
        assert record_actions > start
    lobby.close()
