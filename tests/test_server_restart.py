"""A server killed with SIGKILL restarts on the same database with every table exactly where
it was: each acknowledged action was committed first, and the live games are rebuilt by
replaying them. Runs on SQLite always, and on PostgreSQL when ARABESQUE_TEST_DATABASE_URL
names one (each test in a fresh schema, dropped at the end)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from arabesque.core import commitment
from arabesque.core.records import GameRecord
from arabesque.server.store import Store
from tests.server_client import (
    GameClient,
    Lobby,
    ServerProcess,
    audit_frames,
    play_randomly,
)


async def _play_until(client: GameClient, rng: random.Random, version: int) -> None:
    """Play random options until the seat's view reaches ``version``."""
    while client.version < version and not client.view["is_over"]:  # type: ignore[index]
        decision = client.decision
        if decision is None:
            await client.next()
            continue
        reply = await client.act(rng.choice(decision["options"])["action"])
        assert reply["type"] == "ack", reply


async def test_kill_9_and_restart(database_url: str, tmp_path: Path) -> None:
    """Two tables on one server: an Ali Baba game a dozen moves in, and a Magic Lamp game
    where seat 0 has just set a die in secret (the server is killed the moment that is
    acknowledged). After SIGKILL and a restart on the same database, every seat and the
    spectator get exactly the views they had; seat 0 still sees its die and seat 1 still
    sees nothing of it; the Ali Baba game goes on to the end and its record replays."""
    server = ServerProcess(database_url, tmp_path).start()
    try:
        lobby = Lobby(server.url)
        # Ali Baba, two humans and a spectator, a dozen moves in.
        table_id, host = lobby.create("ali-baba", players=2, clock={"per_move_s": None})
        tokens = [lobby.join(table_id, seat)[1] for seat in range(2)]
        lobby.start(table_id, host)
        commitment_before = lobby.table(table_id)["commitment"]
        clients = [GameClient(server.ws_url, table_id, t) for t in tokens]
        watcher = GameClient(server.ws_url, table_id)
        for client in [*clients, watcher]:
            await client.connect()
        rngs = [random.Random(seat) for seat in range(2)]
        # Each seat plays until the game reaches version 12; then nobody acts (no clocks,
        # no bots), so the table is still.
        await asyncio.gather(*(_play_until(c, r, 12) for c, r in zip(clients, rngs, strict=True)))
        await asyncio.sleep(0.2)
        version = lobby.table(table_id)["version"]
        assert version >= 12
        await watcher.wait_until(lambda c: c.version == version)
        before = {c.seat: (c.view, list(c.log)) for c in [*clients, watcher]}

        # Magic Lamp: seat 0 sets a die in secret; the kill follows its ack at once.
        lamp_id, lamp_host = lobby.create("magic-lamp", players=2, clock={"per_move_s": None})
        lamp_tokens = [lobby.join(lamp_id, seat)[1] for seat in range(2)]
        lobby.start(lamp_id, lamp_host)
        m0, m1 = (GameClient(server.ws_url, lamp_id, t) for t in lamp_tokens)
        await m0.connect()
        await m1.connect()
        lamp_view1 = m1.view
        assert m0.decision is not None
        assert (await m0.act(m0.decision["options"][-1]["action"]))["type"] == "ack"
        lamp_view0 = m0.view
        server.kill()
        lobby.close()
        for client in [*clients, watcher, m0, m1]:
            await client.close()

        server = ServerProcess(database_url, tmp_path, port=server.port).start()
        lobby = Lobby(server.url)
        assert lobby.table(table_id)["version"] == version
        assert lobby.table(table_id)["commitment"] == commitment_before
        async with (
            GameClient(server.ws_url, lamp_id, lamp_tokens[0]) as d0,
            GameClient(server.ws_url, lamp_id, lamp_tokens[1]) as d1,
        ):
            assert d0.view == lamp_view0 and d0.view is not None and d0.view["version"] == 1
            # Seat 1's view is what it was, its version included: nothing says the game moved
            # (docs/protocol.md, "Reconnecting").
            assert d1.view is not None and lamp_view1 is not None
            assert d1.view == lamp_view1 and d1.view["version"] == 0
        again = [GameClient(server.ws_url, table_id, t) for t in tokens]
        watcher = GameClient(server.ws_url, table_id)
        for client in [*again, watcher]:
            welcome = await client.connect()
            view, log = before[client.seat]
            assert welcome["view"] == view
            assert welcome["log"] == log
        # The game goes on to the end, and its record replays and matches the commitment.
        await asyncio.gather(*(play_randomly(c, r) for c, r in zip(again, rngs, strict=True)))
        await watcher.wait_until(lambda c: c.view is not None and c.view["is_over"])
        for client in [*again, watcher]:
            await client.close()
        data = lobby.record(table_id).json()
        lobby.close()
    finally:
        server.stop()
    record = GameRecord.from_json(data)
    assert record.result_mismatch(record.replay()) is None
    assert commitment.check(record.metadata["commitment"], record) is None
    assert audit_frames(data, None, watcher.frames) > 1
    store = Store(database_url)
    stored = store.load(lamp_id)
    store.close()
    assert stored is not None and len(stored.actions) == 1 and stored.actions[0][0] == 0
