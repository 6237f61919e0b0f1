"""Table fan-out between server processes: "table X has reached version V".

Several server processes may serve one database. Each holds the live tables its own
connections use, in memory; when an action is committed in one process, the others must learn
that their copy of that table is behind, read the missing actions from the database and push
them to their own seats and spectators. This module only carries the news. The database stays
the single source of truth: a notification holds no game data, just ``(table id, version)``,
so a lost, repeated or late one costs at most a database read and never corrupts a table.

Two implementations of one small interface (:class:`Fanout`):

- :class:`LocalFanout` for a single process (SQLite): the process that applied an action is
  the only one that needs to know, so by default nothing is carried. Instances sharing a
  :class:`LocalBus` hear each other, which lets several apps in one test process behave like
  several server processes without PostgreSQL.
- :class:`PostgresFanout`, PostgreSQL ``LISTEN``/``NOTIFY`` through psycopg 3: one listening
  connection per process (autocommit, ``LISTEN channel``, iterating ``conn.notifies()``),
  one publishing connection (``SELECT pg_notify(channel, payload)``). The listener reconnects
  with capped exponential backoff when its connection drops, and then calls ``on_resync``
  because notifications sent while it was away are gone for good (PostgreSQL queues them only
  for connected listeners).

:func:`fanout_for` picks the implementation from a database URL. docs/fanout.md describes
how to run several processes and what is guaranteed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import random
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import psycopg
from psycopg import sql

__all__ = [
    "DEFAULT_CHANNEL",
    "Fanout",
    "LocalBus",
    "LocalFanout",
    "OnChange",
    "OnResync",
    "PostgresFanout",
    "channel_for",
    "conninfo_from_url",
    "decode_payload",
    "encode_payload",
    "fanout_for",
]

log = logging.getLogger(__name__)

OnChange = Callable[[str, int], Awaitable[None]]
"""Called with ``(table_id, version)`` when another process committed that table's version."""

OnResync = Callable[[], Awaitable[None]]
"""Called after a gap in listening: any table may have moved without a notification."""

DEFAULT_CHANNEL = "arabesque_tables"

# PostgreSQL truncates identifiers to 63 bytes (NAMEDATALEN - 1); a truncated channel would
# still work but two long names could silently collide, so refuse them instead.
_MAX_CHANNEL_BYTES = 63
# NOTIFY payloads must be shorter than 8000 bytes; ours are tiny, but table ids come from
# elsewhere, so check rather than let the server refuse the commit's aftermath.
_MAX_PAYLOAD_BYTES = 7999


class Fanout(Protocol):
    """What the table runtime needs from the fan-out.

    ``start`` begins listening and returns once listening is in place, so that nothing
    published after it returns is missed. ``on_change(table_id, version)`` is awaited for each
    notification from *another* process, one at a time and in the order PostgreSQL delivers
    them (commit order of the publishing transactions). It may be called for a version the
    process already holds (idempotence is the runtime's job: compare and skip) and for tables
    this process does not hold (skip). ``on_resync`` is awaited after listening resumed from a
    lost connection; the runtime should then compare each live table with the database.

    ``publish`` is called after the action's transaction committed, never before: a listener
    that reads the database on hearing it must find the action there.

    ``shared`` tells whether other processes may be serving the same tables (and so writing
    them): the runtime then cannot take "no connection here" to mean "no connection at all".
    """

    @property
    def shared(self) -> bool: ...

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None: ...

    async def publish(self, table_id: str, version: int) -> None: ...

    async def close(self) -> None: ...


def encode_payload(table_id: str, version: int, origin: str) -> str:
    """The NOTIFY payload: JSON, so any table id survives without an escaping scheme."""
    payload = json.dumps({"t": table_id, "v": version, "o": origin}, separators=(",", ":"))
    if len(payload.encode()) > _MAX_PAYLOAD_BYTES:
        raise ValueError(f"table id too long for a notification ({len(table_id)} characters)")
    return payload


def decode_payload(payload: str) -> tuple[str, int, str] | None:
    """``(table_id, version, origin)``, or None for anything that is not ours.

    Anyone with access to the database can NOTIFY on the channel; a malformed payload is
    logged and dropped rather than allowed to stop the listener.
    """
    try:
        data: Any = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    table_id, version, origin = data.get("t"), data.get("v"), data.get("o")
    if (
        not isinstance(table_id, str)
        or isinstance(version, bool)
        or not isinstance(version, int)
        or not isinstance(origin, str)
    ):
        return None
    return table_id, version, origin


def conninfo_from_url(database_url: str) -> str:
    """A libpq connection string from a SQLAlchemy URL (``postgresql+psycopg://...``).

    The fan-out talks to psycopg directly (SQLAlchemy's pool has no use for a connection that
    sits in ``LISTEN`` for the life of the process), but it should be configured by the same
    URL as the store. Query parameters (``options``, ``sslmode``...) pass through.
    """
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    if url.get_backend_name() != "postgresql":
        raise ValueError(f"not a PostgreSQL URL: {url.render_as_string(hide_password=True)}")
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def channel_for(database_url: str) -> str:
    """The channel for the processes sharing one database URL.

    NOTIFY is per database, not per schema. Deployments (or test runs) that share a database
    but keep their tables in separate schemas select the schema with the URL's ``options``
    (``?options=-csearch_path%3Dname``), so the ``options`` value goes into the channel name:
    processes configured with the same URL agree on the channel without being told, and other
    schemas' traffic stays on other channels. Host, credentials and other query parameters
    (``sslmode``...) may differ between processes of one deployment and do not count.
    """
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    options = url.query.get("options")
    if not options:
        return DEFAULT_CHANNEL
    text = options if isinstance(options, str) else " ".join(options)
    key = f"{url.database}\0{text}"
    return f"{DEFAULT_CHANNEL}_{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def _check_channel(channel: str) -> str:
    if not channel or len(channel.encode()) > _MAX_CHANNEL_BYTES:
        raise ValueError(f"channel name must be 1-{_MAX_CHANNEL_BYTES} bytes: {channel!r}")
    return channel


async def _call_quietly(what: str, call: Awaitable[None]) -> None:
    # A failing callback is the runtime's bug or a transient database error for one table;
    # either way the listener must keep serving every other table.
    try:
        await call
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("fan-out: %s failed", what)


class LocalBus:
    """An in-process stand-in for the channel: delivers to every other subscribed fanout."""

    def __init__(self) -> None:
        self._subscribers: list[LocalFanout] = []

    def subscribe(self, fanout: LocalFanout) -> None:
        self._subscribers.append(fanout)

    def unsubscribe(self, fanout: LocalFanout) -> None:
        with contextlib.suppress(ValueError):
            self._subscribers.remove(fanout)

    async def deliver(self, sender: LocalFanout, table_id: str, version: int) -> None:
        for fanout in list(self._subscribers):
            if fanout is not sender:
                await fanout.receive(table_id, version)


class LocalFanout:
    """The single-process fan-out (SQLite, or PostgreSQL with one process).

    Without a bus, ``publish`` does nothing: the process that applied the action already
    pushed it to its connections. With a shared :class:`LocalBus`, ``publish`` awaits the
    other instances' ``on_change`` directly, in order.
    """

    def __init__(self, bus: LocalBus | None = None) -> None:
        self._bus = bus
        self._on_change: OnChange | None = None

    @property
    def shared(self) -> bool:
        return self._bus is not None

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None:
        # on_resync is never called: an in-process bus cannot lose a message.
        self._on_change = on_change
        if self._bus is not None:
            self._bus.subscribe(self)

    async def publish(self, table_id: str, version: int) -> None:
        if self._bus is not None:
            await self._bus.deliver(self, table_id, version)

    async def receive(self, table_id: str, version: int) -> None:
        if self._on_change is not None:
            await _call_quietly(
                f"catching up table {table_id} to v{version}", self._on_change(table_id, version)
            )

    async def close(self) -> None:
        if self._bus is not None:
            self._bus.unsubscribe(self)
        self._on_change = None


class PostgresFanout:
    """PostgreSQL LISTEN/NOTIFY fan-out: one listening connection per process.

    ``conninfo`` is a libpq connection string or URI (see :func:`conninfo_from_url`).
    ``heartbeat`` is how long the listener waits for a notification before checking that its
    connection still answers (``SELECT 1`` within ``heartbeat`` seconds): a connection killed
    by the server fails at once, but one lost in the network would otherwise look like a quiet
    channel forever. After a failure the listener reconnects after ``min_backoff`` seconds,
    doubling up to ``max_backoff`` (with jitter, so that many processes do not reconnect in
    step), and calls ``on_resync`` once listening again.

    Each instance has a random ``origin`` written into its payloads; its own notifications come
    back to it (every listener on the channel hears every NOTIFY) and are dropped, since the
    publishing process already applied the action.
    """

    def __init__(
        self,
        conninfo: str,
        channel: str = DEFAULT_CHANNEL,
        *,
        heartbeat: float = 10.0,
        min_backoff: float = 0.05,
        max_backoff: float = 5.0,
        connect_timeout: float = 5.0,
    ) -> None:
        self.conninfo = conninfo
        self.channel = _check_channel(channel)
        self.origin = uuid.uuid4().hex
        self.heartbeat = heartbeat
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self.connect_timeout = connect_timeout
        self._on_change: OnChange | None = None
        self._on_resync: OnResync | None = None
        self._listen_conn: psycopg.AsyncConnection[Any] | None = None
        self._publish_conn: psycopg.AsyncConnection[Any] | None = None
        self._publish_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._listening = asyncio.Event()
        #: How many times listening was established (1 after ``start``; +1 per reconnect).
        self.connections = 0

    @property
    def shared(self) -> bool:
        # Whether or not another process is running now: one may start at any time.
        return True

    @property
    def listener_pid(self) -> int | None:
        """The backend pid of the listening connection, None while reconnecting."""
        conn = self._listen_conn
        if conn is None or conn.closed or not self._listening.is_set():
            return None
        return conn.info.backend_pid

    async def wait_listening(self, timeout: float | None = None) -> None:
        """Return once a listening connection is in place (after a reconnect, for instance)."""
        await asyncio.wait_for(self._listening.wait(), timeout)

    async def start(self, on_change: OnChange, on_resync: OnResync | None = None) -> None:
        if self._task is not None:
            raise RuntimeError("fan-out already started")
        if self._closed:
            raise RuntimeError("fan-out closed")
        self._on_change = on_change
        self._on_resync = on_resync
        # The first connection is made here rather than in the task so that a wrong URL or an
        # unreachable database fails the server's start-up instead of retrying in silence.
        self._listen_conn = await self._listen()
        self._task = asyncio.create_task(self._run(), name=f"fanout-listen-{self.channel}")

    async def publish(self, table_id: str, version: int) -> None:
        """NOTIFY the other processes; after the action's commit.

        The action is already committed when this runs, so a failure here must not fail the
        player's request: it is retried once on a fresh connection, then logged. Other processes
        then learn of the table's progress at its next published version or their next resync.
        """
        if self._closed:
            return
        payload = encode_payload(table_id, version, self.origin)
        async with self._publish_lock:
            for attempt in (1, 2):
                try:
                    conn = self._publish_conn
                    if conn is None or conn.closed:
                        conn = self._publish_conn = await self._connect("publish")
                    await conn.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))
                    return
                except psycopg.Error as exc:
                    await self._discard_publish_conn()
                    if attempt == 2:
                        log.warning(
                            "fan-out: could not publish table %s v%d: %s", table_id, version, exc
                        )

    async def close(self) -> None:
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._listening.clear()
        if self._listen_conn is not None:
            await self._listen_conn.close()
            self._listen_conn = None
        async with self._publish_lock:
            await self._discard_publish_conn()

    async def _connect(self, role: str) -> psycopg.AsyncConnection[Any]:
        # Named, with the process id, so that an operator (or a test) can tell the fan-out's
        # connections apart in pg_stat_activity.
        return await psycopg.AsyncConnection.connect(
            self.conninfo,
            autocommit=True,
            connect_timeout=max(1, round(self.connect_timeout)),
            application_name=f"arabesque-fanout-{role}-{os.getpid()}",
        )

    async def _listen(self) -> psycopg.AsyncConnection[Any]:
        # Autocommit: LISTEN takes effect at commit, and notifications are delivered only
        # between transactions, so a listener must never sit inside an open one.
        conn = await self._connect("listen")
        try:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        except BaseException:
            await conn.close()
            raise
        self.connections += 1
        self._listening.set()
        return conn

    async def _discard_publish_conn(self) -> None:
        conn, self._publish_conn = self._publish_conn, None
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                await conn.close()

    async def _run(self) -> None:
        backoff = self.min_backoff
        while not self._closed:
            try:
                if self._listen_conn is None:
                    self._listen_conn = await self._listen()
                    backoff = self.min_backoff
                    log.info("fan-out: listening again on %s", self.channel)
                    if self._on_resync is not None:
                        await _call_quietly("resync after reconnect", self._on_resync())
                await self._serve(self._listen_conn)
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError, TimeoutError) as exc:
                self._listening.clear()
                conn, self._listen_conn = self._listen_conn, None
                if conn is not None:
                    with contextlib.suppress(psycopg.Error, OSError):
                        await conn.close()
                log.warning(
                    "fan-out: listening connection lost (%s); retrying in %.2fs", exc, backoff
                )
                await asyncio.sleep(backoff * random.uniform(0.5, 1.0))
                backoff = min(backoff * 2, self.max_backoff)

    async def _serve(self, conn: psycopg.AsyncConnection[Any]) -> None:
        # One heartbeat period of notifications, then a liveness check; the caller loops.
        async for notify in conn.notifies(timeout=self.heartbeat):
            await self._dispatch(notify.payload)
        await asyncio.wait_for(conn.execute("SELECT 1"), self.heartbeat)

    async def _dispatch(self, payload: str) -> None:
        decoded = decode_payload(payload)
        if decoded is None:
            log.warning("fan-out: ignoring a foreign payload on %s: %.80r", self.channel, payload)
            return
        table_id, version, origin = decoded
        if origin == self.origin or self._on_change is None:
            return
        await _call_quietly(
            f"catching up table {table_id} to v{version}", self._on_change(table_id, version)
        )


def fanout_for(database_url: str, channel: str | None = None) -> Fanout:
    """The fan-out for a store URL: PostgreSQL LISTEN/NOTIFY, or local for anything else."""
    if database_url.startswith(("postgresql:", "postgresql+")):
        return PostgresFanout(conninfo_from_url(database_url), channel or channel_for(database_url))
    return LocalFanout()
