"""Client connections and the frames written to them.

A ``Connection`` is one websocket as the table runtime sees it (``Transport``): the seat it
holds, its outgoing queue, written by one writer task, and its measured round trip. The
frames are encoded here: ``dumps`` (orjson, with the standard library's fallbacks) and the
``update`` frame built from a view encoded once (``_split_version``, ``_update_frame``).
``BACKGROUND`` keeps the server's fire-and-forget tasks alive while they run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

import orjson

from arabesque.server import tcpinfo
from arabesque.server.clocks import now_ms
from arabesque.server.protocol import ErrorCode, ErrorMsg
from arabesque.server.race import LatencyEstimate
from arabesque.server.words import Words

log = logging.getLogger("arabesque.server")


class Transport(Protocol):
    """What a connection writes to (the websocket, seen from the runtime)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


OnSent = Callable[[float], None]
#: Tasks nobody awaits, kept here so they are not garbage-collected while they run.
BACKGROUND: set[asyncio.Task[Any]] = set()


class Connection:
    """One client connection: the seat it holds (None: spectator), its outgoing queue and its
    measured latency. Messages are queued and written by one writer task, so a slow client
    never holds up a broadcast; one that falls ``send_queue`` messages behind is dropped."""

    def __init__(
        self,
        transport: Transport,
        queue_size: int,
        latency: LatencyEstimate | None = None,
        tcp_socket: Any = None,
    ) -> None:
        self.transport = transport
        self.seat: int | None = None
        self.hello = False
        #: The client asked for the log in words too (``hello.words``).
        self.words = False
        self.latency = latency if latency is not None else LatencyEstimate()
        #: The connection's TCP socket, whose kernel round trip bounds the latency credit
        #: (None: not known, or not to be used behind a proxy).
        self.tcp_socket = tcp_socket
        #: The pongs are (now) much slower than the kernel's round trip; and how many times
        #: the connection became so (``LatencyEstimate.suspicious``).
        self.suspicious = False
        self.suspicious_times = 0
        #: Ping nonce -> server time the ping was written.
        self.pings: dict[str, float | None] = {}
        self.closed = False
        self._queue: asyncio.Queue[tuple[str, OnSent | None, tuple[int, str] | None]] = (
            asyncio.Queue(queue_size)
        )
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any] | str, on_sent: OnSent | None = None) -> None:
        """Queue a message; ``on_sent`` is called with the time it was written."""
        if self.closed:
            return
        text = message if isinstance(message, str) else dumps(message).decode()
        try:
            self._queue.put_nowait((text, on_sent, None))
        except asyncio.QueueFull:
            log.warning("dropping a connection that stopped reading")
            self.close_soon(1008, "too slow: messages are not being read")

    def pong(self, rtt_ms: float) -> None:
        """A pong came back ``rtt_ms`` after its ping was written: a round-trip sample, and
        the kernel's round trip of the connection read with it. A connection whose pongs
        become much slower than the kernel's round trip is logged."""
        latency = self.latency
        latency.add_sample(rtt_ms)
        if self.tcp_socket is not None:
            kernel = tcpinfo.read(self.tcp_socket)
            if kernel is None:
                latency.kernel_round_trip(None)
            else:
                latency.kernel_round_trip(kernel.min_ms, kernel.smoothed_ms)
        suspicious = latency.suspicious
        if suspicious and not self.suspicious:
            self.suspicious_times += 1
            log.info(
                "seat %s: pongs come back much slower than the kernel's round trip of the "
                "connection (held back?): %s",
                self.seat,
                latency.describe(),
            )
        self.suspicious = suspicious

    def error(self, code: ErrorCode, message: str, ref: str | int | None = None) -> None:
        self.send(ErrorMsg(code=code, message=message, ref=ref).model_dump(mode="json"))

    def close_soon(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued (an error explaining why goes first);
        at once if the queue is full (a client that does not read)."""
        if self.closed:
            return
        self.closed = True
        try:
            self._queue.put_nowait(("", None, (code, reason)))
        except asyncio.QueueFull:
            task = asyncio.get_running_loop().create_task(self._close(code, reason))
            BACKGROUND.add(task)
            task.add_done_callback(BACKGROUND.discard)

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.transport.close(code, reason)

    async def _write(self) -> None:
        try:
            while True:
                text, on_sent, close = await self._queue.get()
                if close is not None:
                    await self._close(*close)
                    return
                await self.transport.send_text(text)
                if on_sent is not None:
                    on_sent(now_ms())
        except Exception:  # the socket went away: the reader side notices and cleans up
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer


def dumps(message: Any) -> bytes:
    """The JSON of an outgoing frame: orjson (several times faster than the standard
    library on the large views), or the standard library for what orjson refuses (a string
    that is no Unicode text, say), which escapes it as before. Keys that are not strings
    need ``OPT_NON_STR_KEYS``, which makes orjson 1.5-2.5 times slower on everything, so it
    is tried only for a message that has such keys (the output is the same when every key
    is a string)."""
    try:
        return orjson.dumps(message)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(message).encode()


def _split_version(view: dict[str, Any]) -> tuple[int, bytes]:
    """A view's version and the JSON of the rest of it: what a seat was shown is compared
    without the version (see ``send_updates``), and the update frame is made from it."""
    rest = dict(view)
    version: int = rest.pop("version")
    return version, dumps(rest)


def _update_frame(
    version: int,
    body: bytes,
    events: list[dict[str, Any]],
    index: int,
    clocks: list[Any],
    words: list[Words] | None = None,
) -> str:
    """The ``update`` frame, from the view's JSON without its version (``_split_version``):
    the version is put back as the view's first key, so the view is encoded only once."""
    # One join, one decode: the view is the bulk of the frame and is copied once.
    parts = [
        b'{"type":"update","view":{"version":%d' % version,
        # Past the view's opening brace; a comma unless the rest of the view is empty.
        b"," if body[1:].strip() != b"}" else b"",
        memoryview(body)[1:],
        b',"log":',
        dumps(events),
        b',"log_index":%d,"clocks":' % index,
        dumps(clocks),
    ]
    if words is not None:
        parts += [b',"words":', dumps(words)]
    parts.append(b"}")
    return b"".join(parts).decode()
