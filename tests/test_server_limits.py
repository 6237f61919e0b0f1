"""The limits a public play server needs (issue 17 §4), over real sockets.

- a table holds at most ``max_spectators`` spectators; the next is told and closed;
- table creation and record uploads are rate-limited per client address (429 with
  Retry-After), the address coming from ``X-Forwarded-For`` only behind a trusted proxy;
- clocks shorter than ``min_clock_s`` or longer than the maxima are refused at creation;
- an option given twice with different values (``variant`` and ``options.variant``) is
  refused instead of one silently winning;
- errors quote huge values cut short;
- an upload the client cuts off mid-body is logged in one line, not a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from arabesque.server import ratelimit
from arabesque.server.ratelimit import RateLimit, limit_key
from arabesque.server.settings import Settings
from tests.server_client import GameClient, Lobby, ServerThread


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def _serving(settings: Settings) -> Iterator[tuple[ServerThread, _Collect]]:
    """A server with what its loggers say at INFO and above collected."""
    server = ServerThread(settings)
    handler = _Collect()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "arabesque.server")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    try:
        with server:
            yield server, handler
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)


def _tables(url: str) -> int:
    return len(httpx.get(f"{url}/api/tables", params={"status": "open"}).json())


# -- spectators -----------------------------------------------------------------------------


def test_the_default_spectator_cap_is_150() -> None:
    assert Settings().max_spectators == 150


async def test_a_spectator_past_the_cap_is_refused(tmp_path: Path) -> None:
    with _serving(Settings(data_dir=tmp_path, max_spectators=3)) as (server, _):
        lobby = Lobby(server.url)
        table_id, _host = lobby.create("magic-lamp", players=2, clock={"per_move_s": None})
        _, token0 = lobby.join(table_id, 0)
        watchers = [GameClient(server.ws_url, table_id) for _ in range(3)]
        for watcher in watchers:
            assert (await watcher.connect())["seat"] is None
        # No pongs: a pong sent as the server closes would stop the client reading.
        extra = GameClient(server.ws_url, table_id, answer_pings=False)
        await extra.open()
        await extra.send({"type": "hello"})
        error = await extra.expect("error")
        assert error["code"] == "spectators_full"
        assert "3 spectators" in error["message"]
        await asyncio.wait_for(extra.closed.wait(), 5)
        assert extra.close_code == 4029
        await extra.close()
        # Seats are not spectators: a player still gets in.
        player = GameClient(server.ws_url, table_id, token0)
        assert (await player.connect())["seat"] == 0
        # One spectator leaves: the next one gets its place.
        await watchers.pop().close()
        await asyncio.sleep(0.2)
        again = GameClient(server.ws_url, table_id)
        assert (await again.connect())["seat"] is None
        for c in [*watchers, player, again]:
            await c.close()
        lobby.close()


# -- rate limits per address ----------------------------------------------------------------


def test_a_token_bucket_allows_a_burst_then_the_rate() -> None:
    now = [0.0]
    limit = RateLimit(per_minute=6, burst=2, clock=lambda: now[0])
    assert limit.take("a") is None and limit.take("a") is None
    wait = limit.take("a")
    assert wait is not None and 9.9 < wait <= 10.0  # one token each 10 s
    assert limit.take("b") is None  # another address has its own bucket
    now[0] = 10.0
    assert limit.take("a") is None
    assert limit.take("a") is not None
    assert RateLimit(per_minute=0, burst=1).take("a") is None  # 0: no limit


def test_quiet_addresses_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratelimit, "PRUNE_AT", 10)
    now = [0.0]
    limit = RateLimit(per_minute=60, burst=2, clock=lambda: now[0])
    for i in range(11):
        limit.take(f"10.0.0.{i}")
    assert len(limit._buckets) == 11  # none has refilled yet
    now[0] = 5.0  # every bucket is full again: forgetting them changes nothing
    limit.take("10.0.1.1")
    assert list(limit._buckets) == ["10.0.1.1"]


def test_ipv6_clients_are_counted_by_their_64_network() -> None:
    assert limit_key("2001:db8:1:2:aaaa::1") == limit_key("2001:db8:1:2:bbbb::2")
    assert limit_key("2001:db8:1:2::1") != limit_key("2001:db8:1:3::1")
    assert limit_key("::ffff:203.0.113.5") == "203.0.113.5" == limit_key("203.0.113.5")
    assert limit_key("testclient") == "testclient"


def _create(http: httpx.Client, **headers: str) -> httpx.Response:
    return http.post("/api/tables", json={"game": "magic-lamp", "players": 2}, headers=headers)


def test_creating_tables_is_limited_per_address(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, tables_per_minute=6, table_burst=3)
    with _serving(settings) as (server, _):
        http = httpx.Client(base_url=server.url, timeout=10)
        for _ in range(3):
            assert _create(http).status_code == 201
        refused = _create(http)
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert "tables created" in refused.json()["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= 10
        assert _tables(server.url) == 3  # nothing was made
        # Without a trusted proxy, X-Forwarded-For changes nothing: still this peer's bucket.
        assert _create(http, **{"X-Forwarded-For": "203.0.113.9"}).status_code == 429
        http.close()
        # Another address (a second loopback address: a real different peer) has its own.
        other = httpx.Client(
            base_url=server.url,
            timeout=10,
            transport=httpx.HTTPTransport(local_address="127.0.0.2"),
        )
        assert _create(other).status_code == 201
        other.close()


def test_behind_a_trusted_proxy_the_forwarded_address_is_limited(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, tables_per_minute=6, table_burst=1, trusted_proxies=("127.0.0.1",)
    )
    with _serving(settings) as (server, _):
        http = httpx.Client(base_url=server.url, timeout=10)
        ann = {"X-Forwarded-For": "203.0.113.1"}
        bob = {"X-Forwarded-For": "203.0.113.2"}
        assert _create(http, **ann).status_code == 201
        assert _create(http, **ann).status_code == 429
        assert _create(http, **bob).status_code == 201
        # A client naming itself behind the proxy cannot escape: the proxy appends the real
        # address, and the last untrusted one is the client.
        assert _create(http, **{"X-Forwarded-For": "198.51.100.7, 203.0.113.2"}).status_code == 429
        http.close()
        # The proxy is trusted, not any loopback address: 127.0.0.2's header is ignored.
        other = httpx.Client(
            base_url=server.url,
            timeout=10,
            transport=httpx.HTTPTransport(local_address="127.0.0.2"),
        )
        assert _create(other, **{"X-Forwarded-For": "203.0.113.3"}).status_code == 201
        assert _create(other, **{"X-Forwarded-For": "203.0.113.4"}).status_code == 429
        other.close()


def test_record_uploads_are_limited_per_address(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, uploads_per_minute=6, upload_burst=2)
    with _serving(settings) as (server, _):
        http = httpx.Client(base_url=server.url, timeout=10)
        for _ in range(2):
            assert http.post("/api/replay", content=b"{}").status_code == 400  # not a record
        refused = http.post("/api/replay", content=b"{}")
        assert refused.status_code == 429, refused.text
        assert "records uploaded" in refused.json()["message"]
        assert int(refused.headers["retry-after"]) >= 1
        # Other requests are not counted against it.
        assert _create(http).status_code == 201
        http.close()


# -- table creation: clocks, options given twice, huge values ---------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("limits"), max_move_clock_s=3600, table_burst=100
    )
    with ServerThread(settings) as running:
        yield running


@pytest.mark.parametrize(
    ("clock", "needle"),
    [
        ({"per_move_s": 1e-9}, "clock.per_move_s is at least 1 s"),
        ({"per_move_s": 0.5}, "clock.per_move_s is at least 1 s"),
        ({"per_move_s": None, "per_game_s": 1e-9}, "clock.per_game_s is at least 1 s"),
        ({"per_move_s": 3601}, "clock.per_move_s is at most 3600 s"),
    ],
)
def test_a_clock_out_of_bounds_is_refused(
    server: ServerThread, clock: dict[str, Any], needle: str
) -> None:
    before = _tables(server.url)
    response = httpx.post(
        f"{server.url}/api/tables", json={"game": "magic-lamp", "players": 2, "clock": clock}
    )
    assert response.status_code == 422
    assert response.json()["code"] == "bad_clock"
    assert needle in response.json()["message"]
    assert _tables(server.url) == before
    # The bounds themselves are allowed.
    fine = {"per_move_s": 1.0} if "per_move_s" in needle else {"per_move_s": 3600}
    ok = httpx.post(
        f"{server.url}/api/tables", json={"game": "magic-lamp", "players": 2, "clock": fine}
    )
    assert ok.status_code == 201, ok.text


def test_an_option_given_twice_differently_is_refused(server: ServerThread) -> None:
    before = _tables(server.url)
    body = {"game": "ali-baba", "variant": "standard", "options": {"variant": "smaller-cave"}}
    response = httpx.post(f"{server.url}/api/tables", json=body)
    assert response.status_code == 422
    message = response.json()["message"]
    assert "'standard'" in message and "'smaller-cave'" in message and "once" in message
    body = {"game": "magic-lamp", "players": 2, "options": {"num_players": 3}}
    response = httpx.post(f"{server.url}/api/tables", json=body)
    assert response.status_code == 422 and "player count once" in response.json()["message"]
    # A key repeated in the JSON: its last value must not silently win.
    raw = b'{"game": "ali-baba", "options": {"variant": "standard", "variant": "smaller-cave"}}'
    response = httpx.post(
        f"{server.url}/api/tables", content=raw, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["message"] == "'variant' is given twice with different values"
    assert _tables(server.url) == before
    # The same value twice is no conflict.
    body = {
        "game": "ali-baba",
        "players": 2,
        "variant": "smaller-cave",
        "options": {"variant": "smaller-cave"},
    }
    created = httpx.post(f"{server.url}/api/tables", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["table"]["params"]["variant"] == "smaller-cave"


HUGE = 10**100


@pytest.mark.parametrize(
    "body",
    [
        {"game": "magic-lamp", "options": {"max_turns": -HUGE}},
        {"game": "magic-lamp", "options": {"my_precious": HUGE}},
        {"game": "djinn", "options": {"tom_deck": HUGE}},
        {"game": "djinn", "options": {"x" * 60: HUGE}},
        {"game": "ali-baba", "variant": "v" * 64},
        {"game": "ali-baba", "options": {"variant": str(HUGE)}},
        {"game": "magic-lamp", "players": HUGE},
    ],
    ids=["max_turns", "my_precious", "tom_deck", "unknown", "variant", "option-variant", "players"],
)
def test_errors_quote_huge_values_cut_short(server: ServerThread, body: dict[str, Any]) -> None:
    response = httpx.post(f"{server.url}/api/tables", json=body)
    assert response.status_code == 422
    assert "0" * 40 not in response.text and "v" * 60 not in response.text
    assert "x" * 60 not in response.text
    assert len(response.text) < 600


def test_an_uploaded_record_with_huge_values_is_quoted_short(server: ServerThread) -> None:
    record = {
        "format": "arabesque-record/1",
        "game": "djinn",
        "record_compat": 2,  # this engine's (ruling D27): the params are what is wrong
        "params": {"num_players": HUGE},
        "setup": {"seed": 1},
        "actions": [],
    }
    response = httpx.post(f"{server.url}/api/replay", content=json.dumps(record))
    assert response.status_code == 400
    assert "players" in response.json()["message"]
    assert "0" * 40 not in response.text, response.text


# -- an upload cut off ---------------------------------------------------------------------------


def test_an_upload_cut_off_is_logged_in_one_line(tmp_path: Path) -> None:
    with _serving(Settings(data_dir=tmp_path)) as (server, logs):
        logs.records.clear()  # the start-up lines
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(
                b"POST /api/replay HTTP/1.1\r\nHost: localhost\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n"
                + b'{"format": "arabesque-record/1", "x": "'
                + b"a" * 20_000
            )
            time.sleep(0.3)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not logs.records:
            time.sleep(0.05)
        time.sleep(0.3)  # anything logged after the first line
        lines = [(r.name, r.getMessage(), r.exc_info) for r in logs.records]
        assert len(lines) == 1, lines
        name, message, exc_info = lines[0]
        assert name == "arabesque.server" and exc_info is None
        assert "/api/replay" in message and "went away" in message
        assert httpx.get(f"{server.url}/healthz").status_code == 200
