"""How uvicorn serves the app: ``uvicorn_config(app, settings)`` and its protocol classes.

Two things the ASGI interface does not give an app, added by subclassing uvicorn's own
protocol classes (whichever ``auto`` picks: httptools or h11 for HTTP, websockets for the
websocket):

- **a time limit on a request's headers** (``Settings.header_timeout_s``): a connection that
  has not sent a complete request head that long after it opened (or after it began its next
  request on a kept-alive connection) is answered ``408`` and closed. uvicorn itself only
  bounds the idle time between requests (``timeout_keep_alive``), so a client trickling one
  header line a second kept a connection, and its memory, for as long as it liked.
- **the websocket's TCP socket**, in the scope's ``extensions`` under ``TCP_SOCKET``: the
  lamp race reads the kernel's round trip of the connection from it (server/tcpinfo.py).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

from arabesque.server.settings import Settings

log = logging.getLogger("arabesque.server")

#: The key of the scope's ``extensions`` holding ``{"socket": <the connection's socket>}``.
TCP_SOCKET = "arabesque.tcp"

_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: 36\r\n"
    b"connection: close\r\n"
    b"\r\n"
    b"the request's headers came too slowly"
)


class _HeaderTimer:
    """A timer from the start of a request (or the connection) until its headers are
    complete; when it fires, the client is answered 408 and the connection closed."""

    header_timeout_s: float = 10.0
    transport: asyncio.Transport
    _header_timer: asyncio.TimerHandle | None = None

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            loop = asyncio.get_running_loop()
            self._header_timer = loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        transport = self.transport
        if transport.is_closing():
            return
        peer = transport.get_extra_info("peername")
        log.info(
            "closing a connection whose request headers took over %ss: %s",
            self.header_timeout_s,
            peer,
        )
        transport.write(_TIMEOUT_RESPONSE)
        transport.close()


def http_protocol(header_timeout_s: float, base: type[asyncio.Protocol] | None = None) -> type:
    """uvicorn's HTTP protocol class (``base``, default the one ``auto`` picks) with the
    header time limit."""
    base = AutoHTTPProtocol if base is None else base
    from uvicorn.protocols.http.h11_impl import H11Protocol

    if issubclass(base, H11Protocol):
        import h11

        class H11WithHeaderTimeout(_HeaderTimer, base):  # type: ignore[valid-type,misc]
            def connection_made(self, transport: Any) -> None:
                super().connection_made(transport)
                self._arm_header_timer()

            def handle_events(self) -> None:
                super().handle_events()
                if self.conn.their_state is not h11.IDLE:  # the request head is in
                    self._disarm_header_timer()

            def on_response_complete(self) -> None:
                super().on_response_complete()
                if not self.transport.is_closing():
                    self._arm_header_timer()  # the next request on this connection

            def connection_lost(self, exc: Exception | None) -> None:
                self._disarm_header_timer()
                super().connection_lost(exc)

        H11WithHeaderTimeout.header_timeout_s = header_timeout_s
        return H11WithHeaderTimeout

    class HttpToolsWithHeaderTimeout(_HeaderTimer, base):  # type: ignore[valid-type,misc]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm_header_timer()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm_header_timer()

        def on_headers_complete(self) -> None:
            self._disarm_header_timer()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_header_timer()
            super().connection_lost(exc)

    HttpToolsWithHeaderTimeout.header_timeout_s = header_timeout_s
    return HttpToolsWithHeaderTimeout


def websocket_protocol(base: Any = None) -> type:
    """uvicorn's websocket protocol class (default the one ``auto`` picks) that puts the
    connection's socket into the scope (``extensions[TCP_SOCKET]``)."""
    base = AutoWebSocketsProtocol if base is None else base
    if base is None:  # no websocket library: uvicorn says so itself
        raise RuntimeError("no websocket implementation for uvicorn (install websockets)")

    class WebSocketWithSocket(base):  # type: ignore[misc]
        async def run_asgi(self) -> None:
            sock = self.transport.get_extra_info("socket")
            extensions = self.scope.setdefault("extensions", {})
            extensions[TCP_SOCKET] = {"socket": sock}
            await super().run_asgi()

    return WebSocketWithSocket


def uvicorn_config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration the server runs with (``arabesque serve`` and the tests):
    the settings' host, port and websocket limits, the protocol classes above, and
    ``options`` (uvicorn's own, e.g. ``log_level``)."""
    values: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "ws_max_size": settings.ws_hard_limit_bytes,
        "ws_per_message_deflate": settings.ws_compression,
        "http": http_protocol(settings.header_timeout_s),
        "ws": websocket_protocol(),
        # The app reads X-Forwarded-For itself, from Settings.trusted_proxies only (uvicorn's
        # default would trust it from 127.0.0.1, letting a local client pick its address).
        "proxy_headers": False,
    }
    values.update(options)
    return uvicorn.Config(app, **values)


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server that prints ``announcement`` once it answers on its port: after the
    app's start-up (the database, the tables restored), which took 10-18 s on a loaded
    machine while the address was already on screen."""

    def __init__(self, config: uvicorn.Config, announcement: str) -> None:
        super().__init__(config)
        self.announcement = announcement

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:
            print(self.announcement, flush=True)


def tcp_socket(scope: Any) -> Any:
    """The TCP socket of a websocket's scope (None when not served by ``uvicorn_config``)."""
    extension = scope.get("extensions", {}).get(TCP_SOCKET)
    return None if extension is None else extension.get("socket")
