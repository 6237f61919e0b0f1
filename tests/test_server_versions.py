"""Issue 17: the version number must not betray a secret move (real sockets, SQLite).

Seat 1 of a three-player Magic Lamp table sets its die in secret, or does not, before seat 0
sets its own: whatever a stranger polling the table and seat 0 are shown (table info,
frames, acks, their sizes) is the same byte for byte either way, the clocks aside, which
agree to well within their resolution, and seat 0's ack comes as fast."""

from __future__ import annotations

import json
import secrets
import statistics
import time
import types
from pathlib import Path
from typing import Any

import pytest

from arabesque.server import seats
from arabesque.server.settings import Settings
from tests.server_client import GameClient, Lobby, ServerThread

#: Every table gets this deal, so two tables differ only in what their players did.
SEED = 20261127
#: Per condition; the two conditions alternate, so drift of the machine's speed cancels.
TRIALS = 200
#: Trials whose frames and table info are compared in full (every trial's acks are).
COMPARED = 12


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    fixed = types.SimpleNamespace(
        randbits=lambda bits: SEED,
        token_urlsafe=secrets.token_urlsafe,
        compare_digest=secrets.compare_digest,
    )
    monkeypatch.setattr(seats, "secrets", fixed)
    # No pings during a trial: their nonces are random, and they are not about the game.
    settings = Settings(data_dir=tmp_path, ping_interval_s=3600, tables_per_minute=0)
    with ServerThread(settings) as srv:
        yield srv


def _public(frame: Any) -> Any:
    """A frame or table info without what differs between two tables whatever is played
    (the id, creation time, commitment, the client's random refs, when a seat's connection
    went) and with clock readings taken out (compared apart)."""
    if isinstance(frame, dict):
        out = {}
        for key, value in frame.items():
            if key in ("id", "created_at", "commitment", "ref", "away_since"):
                out[key] = "-" if value is not None else None
            elif key == "move_left_ms":
                out[key] = "clock" if value is not None else None
            else:
                out[key] = _public(value)
        return out
    if isinstance(frame, list):
        return [_public(v) for v in frame]
    return frame


def _clocks(frames: list[dict[str, Any]]) -> list[int]:
    return [
        c["move_left_ms"]
        for f in frames
        for c in f.get("clocks", [])
        if c.get("move_left_ms") is not None
    ]


async def _trial(server: ServerThread, lobby: Lobby, secret_first: bool) -> dict[str, Any]:
    body = {"players": 3, "clock": {"per_move_s": 600}}
    table_id, host = lobby.create("magic-lamp", **body)
    tokens = [lobby.join(table_id, seat)[1] for seat in range(3)]
    lobby.start(table_id, host)
    infos = [lobby.table(table_id)]
    c0 = GameClient(server.ws_url, table_id, tokens[0])
    c1 = GameClient(server.ws_url, table_id, tokens[1])
    watcher = GameClient(server.ws_url, table_id)
    try:
        await c0.connect()
        await c1.connect()
        await watcher.connect()
        await c0.expect("table")  # c1 connected
        await c0.expect("table")  # the spectator connected
        if secret_first:
            assert c1.decision is not None
            assert (await c1.act(c1.decision["options"][-1]["action"]))["type"] == "ack"
        infos.append(lobby.table(table_id))
        assert c0.decision is not None
        action = c0.decision["options"][0]["action"]
        started = time.perf_counter()
        ack = await c0.act(action)
        latency = time.perf_counter() - started
        assert ack["type"] == "ack", ack
        infos.append(lobby.table(table_id))
        # A sync answers after every frame queued before it: nothing is left in flight.
        for client in (c0, watcher):
            await client.send({"type": "sync"})
            await client.expect("welcome")
        # Taken before anyone leaves (a departure is announced to those still there).
        seen = {
            "infos": infos,
            "seat0": [f for f in c0.frames if f["type"] != "ping"],
            "watcher": [f for f in watcher.frames if f["type"] != "ping"],
        }
    finally:
        for client in (c0, c1, watcher):
            await client.close()
    return {"latency": latency, "seen": seen}


async def test_a_secret_move_changes_nothing_anyone_else_is_shown(server: ServerThread) -> None:
    lobby = Lobby(server.url)
    latencies: dict[bool, list[float]] = {False: [], True: []}
    seen: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
    try:
        for trial in range(2 * TRIALS):
            secret_first = trial % 2 == 1
            result = await _trial(server, lobby, secret_first)
            latencies[secret_first].append(result["latency"])
            if trial < 2 * COMPARED:
                seen[secret_first].append(result["seen"])
    finally:
        lobby.close()
    for quiet, moved in zip(seen[False], seen[True], strict=True):
        for who in ("infos", "seat0", "watcher"):
            a, b = _public(quiet[who]), _public(moved[who])
            text_a = json.dumps(a, separators=(",", ":"))
            text_b = json.dumps(b, separators=(",", ":"))
            assert text_a == text_b, f"{who} differs:\n{text_a}\n{text_b}"
        # The clocks agree to within the time a trial takes (their resolution is 1 ms).
        clocks_a, clocks_b = _clocks(quiet["seat0"]), _clocks(moved["seat0"])
        assert len(clocks_a) == len(clocks_b) > 0
        assert all(abs(x - y) < 1000 for x, y in zip(clocks_a, clocks_b, strict=True))
    # Seat 0's own version moved by one with its die, whether or not seat 1 had moved.
    acks = [f for f in seen[True][0]["seat0"] if f["type"] == "ack"]
    assert [a["version"] for a in acks] == [1]
    assert [i["version"] for i in seen[True][0]["infos"]] == [0, 0, 0]
    medians = {k: statistics.median(v) * 1000 for k, v in latencies.items()}
    print(f"median ack latency, ms: seat 1 still, {medians[False]:.2f}; moved, {medians[True]:.2f}")
    assert abs(medians[True] - medians[False]) < 2.0, medians
