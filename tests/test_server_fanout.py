"""The table fan-out (arabesque.server.fanout) on its own, against the real local PostgreSQL.

Two ``PostgresFanout`` instances stand for two server processes: each has its own listening
and publishing connections, exactly as separate processes would. The PostgreSQL tests need
``ARABESQUE_TEST_DATABASE_URL`` (e.g. ``postgresql+psycopg://postgres@127.0.0.1:5432/test``)
and are skipped without it; every test uses its own channel, so they run side by side under
pytest-xdist without hearing each other.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import AsyncIterator, Callable

import psycopg
import pytest

from arabesque.server.fanout import (
    DEFAULT_CHANNEL,
    LocalBus,
    LocalFanout,
    PostgresFanout,
    channel_for,
    conninfo_from_url,
    decode_payload,
    encode_payload,
    fanout_for,
)

DATABASE_URL = os.environ.get("ARABESQUE_TEST_DATABASE_URL", "")
needs_postgres = pytest.mark.skipif(
    not DATABASE_URL.startswith("postgresql"),
    reason="ARABESQUE_TEST_DATABASE_URL does not name a PostgreSQL database",
)


class Heard:
    """What one fan-out instance heard: the on_change calls in order, and resyncs."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, int]] = []
        self.resyncs = 0

    async def on_change(self, table_id: str, version: int) -> None:
        self.changes.append((table_id, version))

    async def on_resync(self) -> None:
        self.resyncs += 1


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def fresh_channel() -> str:
    return f"arabesque_test_{uuid.uuid4().hex[:16]}"


@pytest.fixture
async def pair() -> AsyncIterator[tuple[PostgresFanout, Heard, PostgresFanout, Heard]]:
    """Two started fan-outs on one fresh channel, as two processes would have them."""
    conninfo = conninfo_from_url(DATABASE_URL)
    channel = fresh_channel()
    fanouts: list[PostgresFanout] = []
    try:
        heard_a, heard_b = Heard(), Heard()
        a = PostgresFanout(conninfo, channel, heartbeat=0.5, min_backoff=0.02)
        fanouts.append(a)
        await a.start(heard_a.on_change, heard_a.on_resync)
        b = PostgresFanout(conninfo, channel, heartbeat=0.5, min_backoff=0.02)
        fanouts.append(b)
        await b.start(heard_b.on_change, heard_b.on_resync)
        yield a, heard_a, b, heard_b
    finally:
        for fanout in fanouts:
            await fanout.close()


async def terminate(pid: int) -> None:
    async with await psycopg.AsyncConnection.connect(
        conninfo_from_url(DATABASE_URL), autocommit=True
    ) as admin:
        cur = await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        row = await cur.fetchone()
        assert row == (True,)


@needs_postgres
async def test_published_versions_are_heard_by_the_other_process_in_order(
    pair: tuple[PostgresFanout, Heard, PostgresFanout, Heard],
) -> None:
    a, heard_a, b, heard_b = pair
    sent = [("t1", v) for v in range(1, 31)]
    for table_id, version in sent:
        await a.publish(table_id, version)
    await until(lambda: len(heard_b.changes) >= len(sent))
    assert heard_b.changes == sent
    # Both directions: B's news reaches A.
    await b.publish("t1", 31)
    await until(lambda: heard_a.changes == [("t1", 31)])
    # A process does not hear itself: its own action was applied before it published. A short
    # wait gives a stray self-notification time to arrive.
    await asyncio.sleep(0.1)
    assert heard_a.changes == [("t1", 31)]
    assert heard_b.changes == sent
    assert heard_a.resyncs == heard_b.resyncs == 0


@needs_postgres
async def test_tables_and_channels_do_not_cross() -> None:
    conninfo = conninfo_from_url(DATABASE_URL)
    one, other = fresh_channel(), fresh_channel()
    heard_one, heard_other = Heard(), Heard()
    publisher = PostgresFanout(conninfo, one)
    listener_one = PostgresFanout(conninfo, one)
    listener_other = PostgresFanout(conninfo, other)
    try:
        await publisher.start(Heard().on_change)
        await listener_one.start(heard_one.on_change)
        await listener_other.start(heard_other.on_change)
        sent = [("alpha", 1), ("beta", 1), ("alpha", 2), ("beta", 2), ("beta", 3)]
        for table_id, version in sent:
            await publisher.publish(table_id, version)
        await until(lambda: len(heard_one.changes) >= len(sent))
        assert heard_one.changes == sent
        # Each table's own versions, in order, under its own id.
        assert [v for t, v in heard_one.changes if t == "alpha"] == [1, 2]
        assert [v for t, v in heard_one.changes if t == "beta"] == [1, 2, 3]
        await asyncio.sleep(0.1)
        assert heard_other.changes == []
    finally:
        for fanout in (publisher, listener_one, listener_other):
            await fanout.close()


@needs_postgres
async def test_listener_reconnects_after_its_connection_is_killed(
    pair: tuple[PostgresFanout, Heard, PostgresFanout, Heard],
) -> None:
    a, _heard_a, b, heard_b = pair
    await a.publish("t", 1)
    await until(lambda: heard_b.changes == [("t", 1)])
    old_pid = b.listener_pid
    assert old_pid is not None and b.connections == 1

    await terminate(old_pid)
    # What is published while B is away may be lost (PostgreSQL keeps no backlog for a
    # listener that is gone); B's resync after reconnecting is what covers it.
    await until(lambda: b.connections == 2 and heard_b.resyncs == 1)
    await b.wait_listening(timeout=5)
    assert b.listener_pid not in (None, old_pid)

    await a.publish("t", 3)
    await until(lambda: heard_b.changes[-1:] == [("t", 3)])


@needs_postgres
async def test_listener_keeps_retrying_with_backoff(
    pair: tuple[PostgresFanout, Heard, PostgresFanout, Heard],
) -> None:
    """Killed again and again, the listener comes back each time and resyncs once per return."""
    a, _heard_a, b, heard_b = pair
    for round_ in range(1, 4):
        pid = b.listener_pid
        assert pid is not None
        await terminate(pid)

        def back(expected: int = round_ + 1) -> bool:
            return b.connections == expected

        await until(back)
        await b.wait_listening(timeout=5)
    assert heard_b.resyncs == 3
    await a.publish("t", 9)
    await until(lambda: heard_b.changes == [("t", 9)])


@needs_postgres
async def test_publisher_survives_its_connection_being_killed(
    pair: tuple[PostgresFanout, Heard, PostgresFanout, Heard],
) -> None:
    a, _heard_a, _b, heard_b = pair
    await a.publish("t", 1)
    await until(lambda: heard_b.changes == [("t", 1)])
    publish_conn = a._publish_conn
    assert publish_conn is not None
    await terminate(publish_conn.info.backend_pid)
    await a.publish("t", 2)
    await until(lambda: heard_b.changes == [("t", 1), ("t", 2)])


@needs_postgres
async def test_foreign_payloads_on_the_channel_are_ignored(
    pair: tuple[PostgresFanout, Heard, PostgresFanout, Heard],
) -> None:
    _a, _heard_a, b, heard_b = pair
    async with await psycopg.AsyncConnection.connect(
        conninfo_from_url(DATABASE_URL), autocommit=True
    ) as other:
        for junk in ("", "hello", "[1,2]", '{"t":1,"v":2,"o":"x"}', '{"t":"x","v":true,"o":"y"}'):
            await other.execute("SELECT pg_notify(%s, %s)", (b.channel, junk))
        await other.execute(
            "SELECT pg_notify(%s, %s)", (b.channel, encode_payload("t", 4, "elsewhere"))
        )
    await until(lambda: heard_b.changes == [("t", 4)])
    assert b.connections == 1


@needs_postgres
async def test_a_failing_callback_does_not_stop_the_listener() -> None:
    conninfo = conninfo_from_url(DATABASE_URL)
    channel = fresh_channel()
    heard: list[tuple[str, int]] = []

    async def flaky(table_id: str, version: int) -> None:
        heard.append((table_id, version))
        if version == 1:
            raise RuntimeError("the runtime could not catch up this time")

    publisher, listener = PostgresFanout(conninfo, channel), PostgresFanout(conninfo, channel)
    try:
        await publisher.start(Heard().on_change)
        await listener.start(flaky)
        await publisher.publish("t", 1)
        await publisher.publish("t", 2)
        await until(lambda: heard == [("t", 1), ("t", 2)])
        assert listener.connections == 1
    finally:
        await publisher.close()
        await listener.close()


async def test_start_fails_fast_when_the_database_is_unreachable() -> None:
    fanout = PostgresFanout("postgresql://postgres@127.0.0.1:1/none", connect_timeout=1)
    with pytest.raises(psycopg.OperationalError):
        await fanout.start(Heard().on_change)
    await fanout.close()


async def test_local_bus_delivers_to_the_other_instances_only() -> None:
    bus = LocalBus()
    heard_a, heard_b = Heard(), Heard()
    a, b = LocalFanout(bus), LocalFanout(bus)
    await a.start(heard_a.on_change, heard_a.on_resync)
    await b.start(heard_b.on_change, heard_b.on_resync)
    await a.publish("t", 1)
    await b.publish("t", 2)
    assert heard_a.changes == [("t", 2)]
    assert heard_b.changes == [("t", 1)]
    await b.close()
    await a.publish("t", 3)
    assert heard_b.changes == [("t", 1)]
    await a.close()

    lone, heard = LocalFanout(), Heard()
    await lone.start(heard.on_change)
    await lone.publish("t", 1)
    assert heard.changes == []
    await lone.close()


def test_payloads_round_trip_and_refuse_what_is_not_ours() -> None:
    assert decode_payload(encode_payload('a:b"c', 7, "me")) == ('a:b"c', 7, "me")
    for junk in ("", "null", "3", '{"t":"a","v":"7","o":"me"}', '{"t":"a","v":7}'):
        assert decode_payload(junk) is None
    with pytest.raises(ValueError):
        encode_payload("x" * 8000, 1, "me")


def test_urls_and_channels() -> None:
    url = "postgresql+psycopg://user:secret@db.example:5433/arabesque?sslmode=require"
    assert conninfo_from_url(url) == (
        "postgresql://user:secret@db.example:5433/arabesque?sslmode=require"
    )
    with pytest.raises(ValueError):
        conninfo_from_url("sqlite:///x.sqlite3")
    assert channel_for(url) == DEFAULT_CHANNEL
    # Schemas of one database (chosen by the URL's options) get their own channels; hosts,
    # credentials and other parameters may differ between the processes of one deployment.
    one = channel_for("postgresql+psycopg://u@h/arabesque?options=-csearch_path%3Done")
    two = channel_for("postgresql+psycopg://u@h/arabesque?options=-csearch_path%3Dtwo")
    assert one != two
    assert one == channel_for(
        "postgresql+psycopg://other:pw@elsewhere/arabesque?sslmode=require"
        "&options=-csearch_path%3Done"
    )
    assert len(one.encode()) <= 63
    assert isinstance(fanout_for(url), PostgresFanout)
    assert fanout_for(url).shared
    assert isinstance(fanout_for("sqlite:///x.sqlite3"), LocalFanout)
    assert not fanout_for("sqlite:///x.sqlite3").shared
    assert LocalFanout(LocalBus()).shared
    with pytest.raises(ValueError):
        PostgresFanout("postgresql://x", "c" * 64)
