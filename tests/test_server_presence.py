"""Several server processes on one database judge away seats and the spectator cap
together (issue 17 §1 and §4; docs/fanout.md): each process stores who is connected through
it (the ``presence`` rows), renews them while it runs, and reads the others' rows.

The store's part runs on SQLite and PostgreSQL; the two-server tests need PostgreSQL (the
fan-out between processes is LISTEN/NOTIFY) and are skipped without it."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from arabesque.server.db import SPECTATORS
from arabesque.server.settings import Settings
from arabesque.server.store import Presence, SeatData, Store, TableData, now
from tests.conftest import PG_ENV
from tests.server_client import GameClient, Lobby, ServerThread, pg_schema
from tests.test_server_away import _refused, _seat_bot, _two_humans

needs_pg = pytest.mark.skipif(
    not os.environ.get(PG_ENV, "").startswith("postgresql"),
    reason=f"{PG_ENV} does not name a PostgreSQL database",
)


def _table(table_id: str) -> TableData:
    return TableData(
        id=table_id,
        game="ali-baba",
        params={"num_players": 2},
        options={},
        status="running",
        host_token_hash="0" * 64,
        created_at=now(),
        seats=[SeatData(seat=s, kind="human") for s in range(2)],
    )


def test_the_store_merges_the_other_processes_rows(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate()
        store.create_table(_table("t1"))
        t0 = now() - timedelta(seconds=100)
        alive_after = now() - timedelta(seconds=30)
        # Process "a": seat 0 connected twice, one spectator; seat 1 connected, then gone.
        store.set_presence("a", "t1", 0, 2, t0)
        store.set_presence("a", "t1", SPECTATORS, 1, t0)
        store.set_presence("a", "t1", 1, 1, t0)
        gone_at = t0 + timedelta(seconds=5)
        store.set_presence("a", "t1", 1, 0, gone_at)
        # A process's own rows are not "elsewhere"; "a"'s rows are stale until it beats.
        assert store.presence("t1", "a", alive_after) == {}
        stale = store.presence("t1", "b", alive_after)
        assert stale[0] == Presence(0, t0), "a dead process's players went at its last beat"
        assert stale[1] == Presence(0, gone_at)
        store.beat("a", now(), forget_before=now() - timedelta(days=1))
        live = store.presence("t1", "b", alive_after)
        assert live[0] == Presence(2, None)
        assert live[SPECTATORS] == Presence(1, None)
        assert live[1].connections == 0 and live[1].gone_since is not None
        assert abs(live[1].gone_since - gone_at) < timedelta(seconds=1)
        # Process "c" also holds seat 1: connected anywhere is connected.
        store.set_presence("c", "t1", 1, 1, now())
        assert store.presence("t1", "b", alive_after)[1] == Presence(1, None)
        # A process that stops takes its rows with it; long-dead rows are forgotten.
        store.drop_presence("c")
        store.beat("b", now(), forget_before=now() + timedelta(seconds=1))
        assert store.presence("t1", "b", alive_after) == {}
    finally:
        store.close()


@contextmanager
def _two_servers(tmp_path: Path, **extra: object) -> Iterator[tuple[ServerThread, ServerThread]]:
    with pg_schema(os.environ[PG_ENV]) as url:
        store = Store(url)
        try:
            store.migrate()
        finally:
            store.close()
        settings = Settings(database_url=url, data_dir=tmp_path, migrate=False, **extra)  # type: ignore[arg-type]
        with ServerThread(settings) as a, ServerThread(settings) as b:
            yield a, b


@needs_pg
async def test_a_player_connected_through_another_process_is_not_away(tmp_path: Path) -> None:
    """Ann (the host) plays on A, Bob on B. Past the away time A must not hand Bob's seat
    to a bot while he is connected on B; once he leaves B, A sees him away and may."""
    with _two_servers(tmp_path) as (a, b):
        lobby_a = Lobby(a.url)
        table_id, host, ann_token, bob_token = _two_humans(lobby_a, away_s=1)
        ann = GameClient(a.ws_url, table_id, ann_token)
        await ann.connect()
        bob = GameClient(b.ws_url, table_id, bob_token)
        await bob.connect()
        await asyncio.sleep(1.5)
        _refused(_seat_bot(lobby_a, table_id, 1, host), 409, "not_away")
        seat1 = lobby_a.table(table_id)["seats"][1]
        assert seat1["away"] is False and seat1["away_since"] is None
        await bob.close()
        # A hears that Bob went (B announces it) and tells Ann once his time is up.
        await ann.wait_until(
            lambda c: c.table is not None and c.table["seats"][1]["away"] is True, timeout=8
        )
        assert _seat_bot(lobby_a, table_id, 1, host).status_code == 200
        await ann.close()
        lobby_a.close()


@needs_pg
async def test_the_spectator_cap_counts_the_spectators_of_every_process(tmp_path: Path) -> None:
    with _two_servers(tmp_path, max_spectators=2) as (a, b):
        lobby = Lobby(a.url)
        table_id, _host = lobby.create("magic-lamp", players=2, clock={"per_move_s": None})
        watchers = [GameClient(a.ws_url, table_id), GameClient(b.ws_url, table_id)]
        for watcher in watchers:
            assert (await watcher.connect())["seat"] is None
        for server in (a, b):
            extra = GameClient(server.ws_url, table_id, answer_pings=False)
            await extra.open()
            await extra.send({"type": "hello"})
            error = await extra.expect("error")
            assert error["code"] == "spectators_full", error
            await asyncio.wait_for(extra.closed.wait(), 5)
            await extra.close()
        # One leaves on B: a spectator on A gets the place.
        await watchers.pop().close()
        await asyncio.sleep(0.3)
        again = GameClient(a.ws_url, table_id)
        assert (await again.connect())["seat"] is None
        for c in [*watchers, again]:
            await c.close()
        lobby.close()
