"""Issue 17 §4: a connection that trickles its request headers is closed after
``Settings.header_timeout_s`` (server/serving.py), over real sockets: before, 150 sockets
sending one header line a second stayed open 40 s (uvicorn bounds only the idle time between
requests)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from arabesque.server import serving
from arabesque.server.settings import Settings
from tests.conftest import serve_without_serving
from tests.server_client import GameClient, Lobby, ServerThread

TIMEOUT_S = 1.0
SOCKETS = 40


async def _trickle(port: int, first: bytes, every_s: float, for_s: float) -> tuple[float, bytes]:
    """Open a connection, send ``first``, then one header line every ``every_s`` until the
    server closes it or ``for_s`` passes; returns how long it stayed open and what the
    server sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.monotonic()
    got = b""
    try:
        writer.write(first)
        await writer.drain()
        n = 0
        while time.monotonic() - started < for_s:
            try:
                chunk = await asyncio.wait_for(reader.read(4096), every_s)
            except TimeoutError:
                n += 1
                try:
                    writer.write(b"X-Trickle-%d: %d\r\n" % (n, n))
                    await writer.drain()
                except ConnectionError:
                    break
                continue
            if not chunk:
                break
            got += chunk
        return time.monotonic() - started, got
    finally:
        writer.close()


@pytest.fixture(params=["httptools", "h11"])
def http_impl(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    base = HttpToolsProtocol if request.param == "httptools" else H11Protocol
    monkeypatch.setattr(serving, "AutoHTTPProtocol", base)
    return str(request.param)


async def test_trickled_headers_are_cut_off(tmp_path: Path, http_impl: str) -> None:
    settings = Settings(data_dir=tmp_path, header_timeout_s=TIMEOUT_S)
    with ServerThread(settings) as server:
        first = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
        results = await asyncio.gather(
            *(_trickle(server.port, first, 0.2, 6 * TIMEOUT_S) for _ in range(SOCKETS))
        )
        for open_s, got in results:
            assert open_s < TIMEOUT_S + 1.5, (http_impl, open_s)
            assert got.startswith(b"HTTP/1.1 408"), got
        # A prompt request still works, and so does a second one on the same connection,
        # while a second one trickled on a kept-alive connection is cut off too.
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        for _ in range(2):
            writer.write(request)
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.startswith(b"HTTP/1.1 200"), head
            length = next(
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
            await reader.readexactly(length)
        writer.write(b"GET /healthz HTTP/1.1\r\n")
        await writer.drain()
        started = time.monotonic()
        rest = b""
        while time.monotonic() - started < 6 * TIMEOUT_S:
            try:
                chunk = await asyncio.wait_for(reader.read(4096), 0.2)
            except TimeoutError:
                writer.write(b"X-Slow: 1\r\n")
                await writer.drain()
                continue
            if not chunk:
                break
            rest += chunk
        assert time.monotonic() - started < TIMEOUT_S + 1.5
        assert rest.startswith(b"HTTP/1.1 408"), rest
        writer.close()


async def test_a_websocket_outlives_the_header_timeout(tmp_path: Path) -> None:
    """The timer stops with the request head: an open websocket is not cut off."""
    settings = Settings(data_dir=tmp_path, header_timeout_s=0.5, ping_interval_s=0.1)
    with ServerThread(settings) as server:
        lobby = Lobby(server.url)
        table_id, _ = lobby.create("magic-lamp", players=2)
        lobby.close()
        async with GameClient(server.ws_url, table_id) as client:
            seen = len(client.frames)
            await asyncio.sleep(1.5)
            assert not client.closed.is_set()
            assert len(client.frames) > seen + 5  # pings kept coming


def test_serve_flags_reach_the_settings_and_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    from arabesque.server import cli

    captured, seen = serve_without_serving(monkeypatch, tmp_path)
    argv = ["--behind-proxy", "--max-race-rtt-ms", "300", "--header-timeout", "5"]
    assert cli.main([*argv, "--race-rtt-slack-ms", "30", "--port", "0"]) == 0
    settings = captured["settings"]
    assert not settings.race_kernel_rtt
    assert (settings.race_max_rtt_ms, settings.race_rtt_slack_ms) == (300.0, 30.0)
    assert settings.header_timeout_s == 5.0
    http = seen["config"].http  # type: ignore[attr-defined]
    assert http.header_timeout_s == 5.0
    assert cli.main(["--port", "0"]) == 0
    assert captured["settings"].race_kernel_rtt
