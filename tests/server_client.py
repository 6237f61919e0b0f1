"""Test helpers for the play server: run one on a free port (in a thread or a process), talk
to its lobby over HTTP and to its tables over real websockets.

- ``ServerThread(settings)``: uvicorn in a thread of this process (fast; most tests).
- ``ServerProcess(database_url)``: ``python -m arabesque.server`` in a subprocess, so a test
  can kill it with SIGKILL and start another on the same database.
- ``Lobby(base_url)``: the HTTP lobby (httpx).
- ``GameClient``: one websocket connection (a seat with its token, or a spectator). It
  answers pings by itself, keeps the latest view and log, and records every frame it got,
  so tests can audit what was sent. ``down_ms`` / ``up_ms`` inject latency (a callable giving
  each frame's one-way delay): frames keep their order, as on a TCP connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from arabesque.core.decision import expand_options
from arabesque.server.app import create_app
from arabesque.server.serving import uvicorn_config
from arabesque.server.settings import Settings

Delay = Callable[[], float]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(
    base_url: str, timeout: float = 20.0, proc: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise TimeoutError(f"no server at {base_url} after {timeout} s")


class ServerThread:
    """uvicorn serving ``create_app(settings)`` in a thread, on a free port."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        self.settings = settings.model_copy(update={"port": self.port})
        self.app = create_app(self.settings)
        config = uvicorn_config(
            self.app, self.settings, host="127.0.0.1", log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        wait_healthy(self.url)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


class ServerProcess:
    """``python -m arabesque.server`` on a free port with the given database."""

    def __init__(self, database_url: str, data_dir: Path, port: int | None = None) -> None:
        self.port = port if port is not None else free_port()
        self.database_url = database_url
        self.data_dir = data_dir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Launch, and wait until it answers."""
        return self.launch().wait()

    def launch(self) -> ServerProcess:
        """Start the process without waiting for it (several can then start together)."""
        env = dict(os.environ, ARABESQUE_DATA_DIR=str(self.data_dir))
        env.pop("ARABESQUE_DATABASE_URL", None)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # A file, not a pipe nobody reads: a chatty server would block on a full pipe.
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "arabesque.server",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
                "--log-level",
                "warning",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        log.close()  # the server holds its own copy
        return self

    def wait(self) -> ServerProcess:
        """Wait until the launched server answers; stopped, with its log quoted, if not."""
        try:
            wait_healthy(self.url, proc=self.proc)
        except Exception as exc:
            self.stop()
            raise RuntimeError(f"{exc}; the server's log ends:\n{self.log()[-2000:]}") from exc
        return self

    def log(self) -> str:
        """What the server has written to its log so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def log_path(self) -> Path:
        """Where the server's own log goes (its stderr)."""
        return self.data_dir / f"server-{self.port}.log"

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Lobby:
    """The HTTP lobby of a server at ``base_url``; failing requests raise."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.http = httpx.Client(base_url=base_url, timeout=10.0)

    def close(self) -> None:
        self.http.close()

    def create(self, game: str, **body: Any) -> tuple[str, str]:
        """Create a table; returns (table id, host token)."""
        r = self.http.post("/api/tables", json={"game": game, **body})
        r.raise_for_status()
        data = r.json()
        return data["table"]["id"], data["host_token"]

    def join(
        self, table_id: str, seat: int | None = None, name: str | None = None
    ) -> tuple[int, str]:
        body: dict[str, Any] = {"seat": seat}
        if name is not None:
            body["name"] = name
        r = self.http.post(f"/api/tables/{table_id}/join", json=body)
        r.raise_for_status()
        data = r.json()
        return data["seat"], data["token"]

    def fill(self, table_id: str, host: str, agent: str = "random") -> dict[str, Any]:
        r = self.http.post(
            f"/api/tables/{table_id}/fill",
            json={"agent": agent},
            headers={"Authorization": f"Bearer {host}"},
        )
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    def start(self, table_id: str, host: str) -> dict[str, Any]:
        r = self.http.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"}
        )
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    def table(self, table_id: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table_id}")
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    def record(self, table_id: str) -> httpx.Response:
        return self.http.get(f"/api/tables/{table_id}/record")


def jitter(round_trip_ms: float, spread_ms: float, rng: random.Random) -> Delay:
    """One leg's delay in seconds: half the round trip, ± half the spread (uniform), so
    the round trip varies by ± ``spread_ms``."""
    base = round_trip_ms / 2
    half = spread_ms / 2
    return lambda: max(0.0, base + rng.uniform(-half, half)) / 1000.0


class GameClient:
    """One websocket connection to a table, as a seat (token) or a spectator (no token)."""

    def __init__(
        self,
        ws_url: str,
        table_id: str,
        token: str | None = None,
        *,
        down: Delay | None = None,
        up: Delay | None = None,
        answer_pings: bool = True,
        words: bool = False,
    ) -> None:
        self.url = f"{ws_url}/ws/tables/{table_id}"
        self.token = token
        #: Ask for the log in words too (``hello.words``).
        self.words = words
        self.down = down
        self.up = up
        self.answer_pings = answer_pings
        self.ws: ClientConnection | None = None
        #: Every frame received (pings included), parsed, in order.
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.log_index = 0
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None
        #: Called (from the client's loop) with each delivered frame, after bookkeeping.
        self.on_frame: Callable[[dict[str, Any]], None] | None = None
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._out: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self._last_out = 0.0
        self.closed = asyncio.Event()
        self.close_code: int | None = None

    # -- connection --------------------------------------------------------------------

    async def open(self, max_size: int | None = 2**22, **options: Any) -> None:
        """Connect; ``options`` go to the event loop's ``create_connection`` (e.g.
        ``local_addr``)."""
        self.ws = await connect(self.url, max_size=max_size, open_timeout=10, **options)
        self._tasks = [
            asyncio.create_task(self._read()),
            asyncio.create_task(self._write()),
        ]

    async def connect(self, log_from: int = 0, timeout: float = 10.0) -> dict[str, Any]:
        """Open, say hello, and return the welcome."""
        await self.open()
        hello: dict[str, Any] = {"type": "hello", "token": self.token, "log_from": log_from}
        if self.words:
            hello["words"] = True
        await self.send(hello)
        return await self.expect("welcome", timeout=timeout)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    async def __aenter__(self) -> GameClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- sending -----------------------------------------------------------------------

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send (after the ``up`` delay, keeping order)."""
        text = message if isinstance(message, str) else json.dumps(message)
        if self.up is None:
            assert self.ws is not None
            await self.ws.send(text)
            return
        loop = asyncio.get_running_loop()
        at = max(self._last_out, loop.time() + self.up())
        self._last_out = at
        self._out.put_nowait((at, text))

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            at, text = await self._out.get()
            wait = at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            assert self.ws is not None
            try:
                await self.ws.send(text)
            except Exception:
                return

    # -- receiving ---------------------------------------------------------------------

    async def _read(self) -> None:
        assert self.ws is not None
        loop = asyncio.get_running_loop()
        last = 0.0
        pending: asyncio.Queue[tuple[float, dict[str, Any]] | None] = asyncio.Queue()
        deliver = asyncio.create_task(self._deliver(pending))
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                at = loop.time() + (self.down() if self.down is not None else 0.0)
                last = max(last, at)
                pending.put_nowait((last, frame))
        except Exception:
            pass
        finally:
            self.close_code = self.ws.close_code
            pending.put_nowait(None)
            with contextlib.suppress(BaseException):
                await deliver
            self.closed.set()

    async def _deliver(self, pending: asyncio.Queue[tuple[float, dict[str, Any]] | None]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            item = await pending.get()
            if item is None:
                return
            at, frame = item
            wait = at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._handle(frame)
            if frame.get("type") == "ping" and self.answer_pings:
                await self.send({"type": "pong", "nonce": frame["nonce"]})

    def _handle(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        kind = frame.get("type")
        if kind in ("welcome", "update"):
            if kind == "welcome":
                self.seat = frame["seat"]
                self.table = frame["table"]
                self.log = list(frame["log"])
            else:
                self.log.extend(frame["log"])
            if frame["view"] is not None:
                self.view = frame["view"]
            self.log_index = frame["log_index"]
        elif kind in ("table", "game_over"):
            self.table = frame["table"]
        if self.on_frame is not None:
            self.on_frame(frame)
        if kind != "ping":
            self._inbox.put_nowait(frame)

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame other than a ping."""
        return await asyncio.wait_for(self._inbox.get(), timeout)

    async def expect(self, types: str | Iterable[str], timeout: float = 10.0) -> dict[str, Any]:
        """Skip frames until one of ``types`` arrives; an unexpected error frame raises."""
        wanted = {types} if isinstance(types, str) else set(types)
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            frame = await self.next(timeout=max(0.001, left))
            if frame["type"] in wanted:
                return frame
            if frame["type"] == "error" and "error" not in wanted:
                raise AssertionError(f"unexpected error frame: {frame}")

    def drain(self) -> list[dict[str, Any]]:
        """Frames received and not yet taken by ``next``."""
        frames = []
        while not self._inbox.empty():
            frames.append(self._inbox.get_nowait())
        return frames

    # -- playing -----------------------------------------------------------------------

    @property
    def version(self) -> int:
        assert self.view is not None
        return int(self.view["version"])

    @property
    def decision(self) -> dict[str, Any] | None:
        """The view's decision with its options one by one: a range of options, sent as one
        entry (docs/protocol.md), written out as a client would (``expand_options``)."""
        decision = None if self.view is None else self.view.get("decision")
        if decision is None:
            return None
        return {**decision, "options": expand_options(decision["options"])}

    async def act(self, action: int, version: int | None = None, **extra: Any) -> dict[str, Any]:
        """Send an action and return the answer to it: ``ack`` or ``error``."""
        ref = f"a{len(self.frames)}-{random.getrandbits(32)}"
        await self.send(
            {
                "type": "action",
                "action": action,
                "version": self.version if version is None else version,
                "ref": ref,
                **extra,
            }
        )
        return await self.answer(ref)

    async def answer(self, ref: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            frame = await self.next(timeout=max(0.001, left))
            if frame["type"] in ("ack", "error") and frame.get("ref") == ref:
                return frame

    async def wait_until(
        self, predicate: Callable[[GameClient], bool], timeout: float = 10.0
    ) -> None:
        """Wait until ``predicate(self)`` holds (checked after each frame)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not predicate(self):
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError("condition not met in time")
            with contextlib.suppress(TimeoutError):
                await self.next(timeout=left)


# -- playing and auditing ----------------------------------------------------------------------


async def play_randomly(client: GameClient, rng: random.Random, timeout: float = 30.0) -> None:
    """Play the client's seat to the end of the game: a random option for each decision,
    and in a race a press or a pass at random. Every answer must be an ``ack``."""
    answered = -1
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        view = client.view
        if view is not None and view["is_over"]:
            return
        decision = client.decision  # its options written out
        if view is not None and decision is not None and view["version"] != answered:
            answered = view["version"]
            if decision["reaction"] is not None:
                if rng.random() < 0.5:
                    ref = f"r{answered}"
                    await client.send({"type": "react", "version": answered, "ref": ref})
                    reply = await client.answer(ref)
                else:
                    reply = await client.act(decision["default"])
            else:
                reply = await client.act(rng.choice(decision["options"])["action"])
            if reply["type"] != "ack":
                raise AssertionError(f"seat {client.seat}: {reply}")
        else:
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"seat {client.seat}: the game did not end in time")
            with contextlib.suppress(TimeoutError):
                await client.next(timeout=min(left, 1.0))


def audit_frames(record: dict[str, Any], seat: int | None, frames: list[dict[str, Any]]) -> int:
    """Check that every view and log delta in ``frames`` (one connection's, in order) is
    exactly what the game's observer gives ``seat`` at that version (the seat's own,
    ``version_for``): the finished game is replayed from its record and compared frame by
    frame. A ``log_index`` counts the events of the seat's own log. Returns the frames
    checked."""
    from arabesque.core.records import GameRecord

    game = GameRecord.from_json(record)
    first = game.initial_state()
    states = {first.version_for(seat): first}
    for _step, _player, _action, state in game.steps():
        # Steps the seat could not see leave its version, view and log as they were.
        states.setdefault(state.version_for(seat), state.clone())
    checked = 0
    index = None
    for frame in frames:
        if frame["type"] not in ("welcome", "update"):
            continue
        view = frame["view"]
        if view is None:  # a welcome before the start: the log starts at 0
            index = frame["log_index"]
            continue
        state = states[view["version"]]
        expected = json.loads(json.dumps(state.view(seat, include_log=False)))
        assert view == expected, f"frame at version {view['version']} is not seat {seat}'s view"
        own_log = json.loads(json.dumps(state.log_since(seat, 0)[0]))
        # A welcome starts the log wherever the client asked; both end at the present.
        assert frame["log_index"] == len(own_log)
        if frame["type"] == "update":
            assert index is not None
            assert frame["log"] == own_log[index:]
        index = frame["log_index"]
        checked += 1
    return checked


@contextlib.contextmanager
def pg_schema(base_url: str) -> Any:
    """A fresh PostgreSQL schema for one test; yields a URL whose connections use it
    (``search_path``), and drops it with everything in it at the end."""
    import secrets

    import sqlalchemy as sa

    from arabesque.server.settings import normalize_database_url

    base = normalize_database_url(base_url)
    name = f"arabesque_test_{secrets.token_hex(6)}"
    engine = sa.create_engine(base)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{name}"
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        engine.dispose()
