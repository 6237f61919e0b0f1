#!/usr/bin/env python3
"""Load benchmark of the play server: many Magic Lamp games at once over real websockets.

Starts ``python -m arabesque.server`` (what ``arabesque serve`` runs) on 127.0.0.1 with a
fresh SQLite database in a temporary folder (or ``--database-url``), then keeps ``--games``
games going at once for ``--duration`` seconds. Every seat of every table is a websocket
client, as a table of human players is: it says hello with its seat token, answers the
server's pings, and as soon as it has a decision plays a random option (in the lamp race it
rubs or passes at random). ``--bots K`` seats K server bots at each table instead (they
think in the server's bot threads). A finished game is replaced by a new one, so the server
also keeps creating, joining and starting tables, as a lobby in use does.

Measured: games held at once, actions per second (actions acknowledged by the server), the
round trip of an action (client sends it -> the server's ``ack``, which the server sends
once the action is applied and committed to the database), errors, and the CPU used by the
server process and by this load generator (both share this machine: when the generator
needs a core of its own, the figures say so).

The load generator's own cyclic garbage collector is off while measuring (``--client-gc``
leaves it on): with a thousand clients in this process its full collections stopped it for
~0.2 s every few seconds, and the acks it could not read meanwhile were counted as slow
round trips of the server. The server is started as ``arabesque serve`` starts it: no
websocket compression unless ``--server-compression``.

``--cpu-bot-tables N[,N...]`` measures what CPU-heavy bots cost the humans (issue 19, §3):
one run plays the human-driven tables alone (the baseline), then again beside N tables where
every seat is a ``--cpu-bot-agent`` bot (default ``burn:ms=100``, a test agent that spins
100 ms of CPU per decision: tests/cpu_burn_agent.py, loaded into the server with
``--agent-module``), each phase on a fresh server with ``--bot-workers`` worker processes
(default 1). It reports the humans' round trip p99 of each phase beside the baseline's, the
bots' actions per second, and their missed deadlines and dead workers (from the server log).

    python3 scripts/bench_server_load.py --games 400 --think-ms 2000 --duration 30 \
        --cpu-bot-tables 5,10,20

The bot tables' actions are counted from the version the lobby shows spectators (polled every
second), so moves made in secret (dice set, race answers) count only once revealed.

Traffic goes to 127.0.0.1 only; the run stops by itself after ``--duration`` seconds (plus
setup, bounded by ``--setup-timeout``) and never starts more than ``--max-games`` games.

    python3 scripts/bench_server_load.py --games 50 --duration 20
    python3 scripts/bench_server_load.py --games 500 --duration 30 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.live import Live
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from arabesque.core.decision import expand_options

HOST = "127.0.0.1"
GAME = "magic-lamp"
REPO = Path(__file__).resolve().parents[1]
#: ``python -c`` program: import the module named first, then run ``arabesque.server``.
SERVE_WITH_MODULE = (
    "import importlib, sys; importlib.import_module(sys.argv[1]); "
    "from arabesque.server.cli import main; sys.exit(main(sys.argv[2:]))"
)


# -- the server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class Server:
    """``python -m arabesque.server`` on a free loopback port, in its own process (so its
    CPU time can be told apart from the load generator's)."""

    def __init__(
        self, data_dir: Path, database_url: str | None, log_level: str, compression: bool = False,
        port: int | None = None, extra_args: tuple[str, ...] = (),
        agent_module: str | None = None,
    ) -> None:
        self.port = free_port() if port is None else port
        self.url = f"http://{HOST}:{self.port}"
        self.ws_url = f"ws://{HOST}:{self.port}"
        env = dict(os.environ, ARABESQUE_DATA_DIR=str(data_dir))
        env.pop("ARABESQUE_DATABASE_URL", None)
        command = [sys.executable, "-m", "arabesque.server", "--host", HOST, "--port",
                   str(self.port), "--log-level", log_level,
                   # Every table comes from this one address.
                   "--tables-per-minute", "0"]
        if database_url:
            command += ["--database-url", database_url]
        if compression:
            command += ["--ws-compression"]
        command += list(extra_args)
        if agent_module:
            # Registers the bench's agent in the server (and, by its class, in the bot
            # workers, which import it from the same path).
            env["PYTHONPATH"] = os.pathsep.join(
                p for p in (str(REPO), env.get("PYTHONPATH")) if p
            )
            command[1:3] = ["-c", SERVE_WITH_MODULE, agent_module]
        self.log = (data_dir / "server.log").open("wb")
        self.proc = subprocess.Popen(command, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.05)
        raise TimeoutError(f"no server at {self.url} after {timeout} s")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (Linux /proc)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


# -- measurements ------------------------------------------------------------------------------


@dataclass
class Stats:
    """Everything the clients measure, shared by all of them (one event loop: no locks)."""

    #: (time received, round trip ms) of every acknowledged action.
    acks: list[tuple[float, float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    playing: int = 0
    #: (time, games playing) samples.
    held: list[tuple[float, int]] = field(default_factory=list)
    frames: int = 0
    #: (time, actions) played by the bot tables, from their versions polled in the lobby.
    bot_actions: list[tuple[float, int]] = field(default_factory=list)
    bot_games_finished: int = 0

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{kind}: {detail[:300]}")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# -- the clients -------------------------------------------------------------------------------


class SeatClient:
    """One seat's websocket: answers pings, plays a random option as soon as it may."""

    def __init__(
        self, ws_url: str, table_id: str, token: str, rng: random.Random, stats: Stats,
        think_ms: float, stop: asyncio.Event, compression: bool = True,
    ) -> None:
        self.url = f"{ws_url}/ws/tables/{table_id}"
        self.compression = compression
        self.token = token
        self.rng = rng
        self.stats = stats
        self.think_ms = think_ms
        self.stop = stop
        self.sent: dict[str, float] = {}
        self.answered = -1
        #: The version of the latest view received.
        self.version = -1
        self.count = 0
        self.over = False
        #: A move being thought about (with --think-ms), dropped when a newer view arrives.
        self.thinking: asyncio.Task[None] | None = None

    async def run(self, ready: asyncio.Event) -> None:
        async with connect(self.url, max_size=None, ping_interval=None, open_timeout=60,
                           close_timeout=2,
                           compression="deflate" if self.compression else None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            ready.set()
            stopping = asyncio.ensure_future(self.stop.wait())
            try:
                while not self.over:
                    receiving = asyncio.ensure_future(ws.recv())
                    done, _ = await asyncio.wait(
                        {receiving, stopping}, return_when=asyncio.FIRST_COMPLETED
                    )
                    if receiving not in done:
                        receiving.cancel()
                        return
                    await self.handle(ws, json.loads(receiving.result()))
            finally:
                stopping.cancel()
                if self.thinking is not None:
                    self.thinking.cancel()

    async def handle(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        stats = self.stats
        stats.frames += 1
        kind = frame["type"]
        if kind == "ping":
            await ws.send(json.dumps({"type": "pong", "nonce": frame["nonce"]}))
        elif kind in ("welcome", "update"):
            view = frame["view"]
            if view is None:
                return
            self.version = view["version"]
            if view["is_over"]:
                self.over = True
                return
            decision = view["decision"]
            if decision is not None and view["version"] != self.answered:
                self.answered = view["version"]
                if self.think_ms <= 0:
                    await self.play(ws, view["version"], decision)
                    return
                # Think in a task, so pings are answered meanwhile and a newer view (the
                # race closed, another seat moved) replaces the move being thought about.
                if self.thinking is not None:
                    self.thinking.cancel()
                self.thinking = asyncio.create_task(
                    self.think_then_play(ws, view["version"], decision)
                )
        elif kind == "ack":
            sent = self.sent.pop(str(frame.get("ref")), None)
            if sent is not None:
                now = time.perf_counter()
                stats.acks.append((now, (now - sent) * 1000.0))
        elif kind == "error":
            self.sent.pop(str(frame.get("ref")), None)
            stats.error(f"error:{frame['code']}", frame["message"])
        elif kind == "game_over":
            self.over = True

    async def think_then_play(
        self, ws: ClientConnection, version: int, decision: dict[str, Any]
    ) -> None:
        await asyncio.sleep(self.rng.expovariate(1 / self.think_ms) / 1000)
        if self.version == version and not self.over:
            with contextlib.suppress(ConnectionClosed):
                await self.play(ws, version, decision)

    async def play(self, ws: ClientConnection, version: int, decision: dict[str, Any]) -> None:
        self.count += 1
        ref = f"{id(self):x}-{self.count}"
        if decision["reaction"] is not None and self.rng.random() < 0.5:
            message: dict[str, Any] = {"type": "react", "version": version, "ref": ref}
        elif decision["reaction"] is not None:
            message = {"type": "action", "version": version, "action": decision["default"],
                       "ref": ref}
        else:
            # A run of options may come as one range entry (docs/protocol.md, "Decisions").
            option = self.rng.choice(expand_options(decision["options"]))
            message = {"type": "action", "version": version, "action": option["action"],
                       "ref": ref}
        self.sent[ref] = time.perf_counter()
        await ws.send(json.dumps(message))


@dataclass
class Rendezvous:
    """The first games of all slots start together, once every table is set up, and the
    measured window opens once they have all started: it sees the full load from its first
    second, not the ramp."""

    games: int
    set_up: int = 0
    started: int = 0
    all_set_up: asyncio.Event = field(default_factory=asyncio.Event)
    all_started: asyncio.Event = field(default_factory=asyncio.Event)

    def one_set_up(self) -> None:
        self.set_up += 1
        if self.set_up >= self.games:
            self.all_set_up.set()

    def one_started(self) -> None:
        self.started += 1
        if self.started >= self.games:
            self.all_started.set()


@dataclass
class Options:
    games: int
    duration: float
    players: int
    bots: int
    think_ms: float
    max_turns: int | None
    max_games: int
    setup_concurrency: int
    setup_timeout: float
    seed: int
    compression: bool = True
    client_gc: bool = False
    bot_tables: int = 0
    bot_agent: str = "burn:ms=100"
    bot_players: int = 2


async def play_games(
    slot: int, server: Server, http: httpx.AsyncClient, options: Options, stats: Stats,
    stop: asyncio.Event, setup: asyncio.Semaphore, rendezvous: Rendezvous,
) -> None:
    """One slot of the benchmark: a game, then another once it ends, until stopped."""
    rng = random.Random(options.seed * 100_003 + slot)
    first = True
    while not stop.is_set() and stats.games_started < options.max_games:
        stats.games_started += 1
        humans = options.players - options.bots
        seats: list[dict[str, Any]] = [{"kind": "human"}] * humans
        seats += [{"kind": "bot", "agent": "random"}] * options.bots
        # No move clock: a client slowed down by an overloaded machine must not have its
        # moves played by timeouts, which would mix server-made moves into the measured ones.
        body: dict[str, Any] = {"game": GAME, "players": options.players, "seats": seats,
                                "clock": {"per_move_s": None}}
        if options.max_turns is not None:
            body["options"] = {"max_turns": options.max_turns}
        async with setup:
            try:
                created = (await http.post("/api/tables", json=body)).raise_for_status().json()
                table_id, host = created["table"]["id"], created["host_token"]
                tokens = []
                for seat in range(humans):
                    joined = await http.post(f"/api/tables/{table_id}/join", json={"seat": seat})
                    tokens.append(joined.raise_for_status().json()["token"])
            except (httpx.HTTPError, KeyError) as exc:
                stats.error("setup", repr(exc))
                await asyncio.sleep(1)
                continue
            clients = [
                SeatClient(server.ws_url, table_id, token, random.Random(rng.random()), stats,
                           options.think_ms, stop, options.compression)
                for token in tokens
            ]
            readies = [asyncio.Event() for _ in clients]
            tasks = [asyncio.create_task(c.run(r)) for c, r in zip(clients, readies, strict=True)]
            waiting = [asyncio.create_task(r.wait()) for r in readies]
            await asyncio.wait(waiting, timeout=options.setup_timeout)
            for task in waiting:
                task.cancel()
        if first:
            rendezvous.one_set_up()
            await rendezvous.all_set_up.wait()
        try:
            response = await http.post(
                f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"}
            )
            response.raise_for_status()
        except httpx.HTTPError as exc:
            stats.error("start", repr(exc))
        stats.playing += 1
        if first:
            rendezvous.one_started()
            first = False
        try:
            results = await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            stats.playing -= 1
        for result in results:
            if isinstance(result, BaseException) and not stop.is_set():
                stats.error("connection", repr(result))
        if all(c.over for c in clients):
            stats.games_finished += 1


async def keep_bot_table(
    slot: int, http: httpx.AsyncClient, options: Options, stats: Stats, stop: asyncio.Event,
    setup: asyncio.Semaphore, rendezvous: Rendezvous,
) -> None:
    """A table of CPU-heavy bots only, started once the human tables are set up, followed
    in the lobby (its version) and replaced by a new one when it ends."""
    await rendezvous.all_set_up.wait()
    seats = [{"kind": "bot", "agent": options.bot_agent}] * options.bot_players
    body: dict[str, Any] = {"game": GAME, "players": options.bot_players, "seats": seats,
                            "clock": {"per_move_s": None}}
    if options.max_turns is not None:
        body["options"] = {"max_turns": options.max_turns}
    while not stop.is_set():
        try:
            async with setup:
                created = (await http.post("/api/tables", json=body)).raise_for_status().json()
                table_id, host = created["table"]["id"], created["host_token"]
                (await http.post(f"/api/tables/{table_id}/start",
                                 headers={"Authorization": f"Bearer {host}"})).raise_for_status()
        except (httpx.HTTPError, KeyError) as exc:
            stats.error("bot-setup", repr(exc))
            await asyncio.sleep(1)
            continue
        version = 0
        while not stop.is_set():
            await asyncio.sleep(1.0)
            try:
                info = (await http.get(f"/api/tables/{table_id}")).raise_for_status().json()
            except httpx.HTTPError as exc:
                stats.error("bot-poll", repr(exc))
                continue
            now_version = info.get("version") or 0
            stats.bot_actions.append((time.perf_counter(), now_version - version))
            version = now_version
            if info["status"] != "running":
                stats.bot_games_finished += 1
                break


# -- the run -----------------------------------------------------------------------------------


def progress_table(options: Options, stats: Stats, started: float | None, server: Server,
                   cpu0: float) -> Table:
    table = Table(title=f"arabesque serve under load: {options.games} games of {GAME}")
    for column in ("elapsed", "playing", "finished", "actions", "actions/s (5 s)",
                   "p50 ms (5 s)", "p99 ms (5 s)", "errors", "server CPU"):
        table.add_column(column, justify="right")
    now = time.perf_counter()
    recent = [ms for at, ms in stats.acks[-20000:] if at > now - 5]
    window = min(5.0, now - started) if started is not None else 0.0
    elapsed = f"{now - started:5.1f}/{options.duration:.0f} s" if started else "setting up"
    cpu = (server.cpu_seconds() - cpu0) / (now - started) if started and now > started else 0.0
    table.add_row(
        elapsed, str(stats.playing), str(stats.games_finished), str(len(stats.acks)),
        f"{len(recent) / window:.0f}" if window > 0 else "-",
        f"{percentile(recent, 50):.1f}", f"{percentile(recent, 99):.1f}",
        str(sum(stats.errors.values())), f"{cpu * 100:.0f}%",
    )
    return table


async def run(options: Options, server: Server, console: Console | None) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    rendezvous = Rendezvous(options.games)
    setup = asyncio.Semaphore(options.setup_concurrency)
    limits = httpx.Limits(max_connections=options.setup_concurrency * 2)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        setup_started = time.perf_counter()
        slots = [
            asyncio.create_task(play_games(i, server, http, options, stats, stop, setup,
                                           rendezvous))
            for i in range(options.games)
        ]
        slots += [
            asyncio.create_task(keep_bot_table(i, http, options, stats, stop, setup,
                                               rendezvous))
            for i in range(options.bot_tables)
        ]
        live = Live(console=console, refresh_per_second=2) if console is not None else None
        started: float | None = None
        cpu0 = 0.0
        client_cpu0 = 0.0
        deadline = setup_started + options.setup_timeout
        with live if live is not None else contextlib.nullcontext():
            while started is None:
                if rendezvous.all_started.is_set():
                    started = time.perf_counter()
                    cpu0 = server.cpu_seconds()
                    client_cpu0 = time.process_time()
                    if not options.client_gc:
                        # This process holds a thousand clients: its own full garbage
                        # collections (~0.2 s each, every ~9 s at 500 games) delayed the
                        # reading of acks and were counted as the server's round trips.
                        # Reference counting still frees nearly everything meanwhile.
                        gc.disable()
                elif time.perf_counter() > deadline or all(
                    t.done() for t in slots[: options.games]
                ):
                    # Go on with what is ready; the report shows how many games were held.
                    rendezvous.all_set_up.set()
                    rendezvous.all_started.set()
                    continue
                if live is not None:
                    live.update(progress_table(options, stats, started, server, cpu0))
                await asyncio.sleep(0.1)
            setup_s = started - setup_started
            while time.perf_counter() - started < options.duration:
                stats.held.append((time.perf_counter(), stats.playing))
                if live is not None:
                    live.update(progress_table(options, stats, started, server, cpu0))
                await asyncio.sleep(0.5)
            ended = time.perf_counter()
            gc.enable()
            server_cpu = server.cpu_seconds() - cpu0
            client_cpu = time.process_time() - client_cpu0
            stop.set()
            _, pending = await asyncio.wait(slots, timeout=15)
            for task in pending:
                task.cancel()
            if live is not None:
                live.update(progress_table(options, stats, started, server, cpu0))
    window = ended - started
    measured = [ms for at, ms in stats.acks if started <= at <= ended]
    # Per second of the window, by when the ack came: a p99 made by one stall (the server
    # paused, or the machine's other work took the cores) shows as one or two bad seconds.
    by_second: dict[int, list[float]] = {}
    for at, ms in stats.acks:
        if started <= at <= ended:
            by_second.setdefault(int(at - started), []).append(ms)
    seconds = sorted(
        ((percentile(v, 99), sec, len(v)) for sec, v in by_second.items()), reverse=True
    )
    held = [n for _, n in stats.held] or [0]
    return {
        "game": GAME,
        "games": options.games,
        "players": options.players,
        "clients_per_game": options.players - options.bots,
        "bots_per_game": options.bots,
        "think_ms": options.think_ms,
        "compression": options.compression,
        "client_gc": options.client_gc,
        "duration_s": round(window, 2),
        "setup_s": round(setup_s, 2),
        "concurrent_games": {"target": options.games, "min": min(held),
                             "mean": round(statistics.fmean(held), 1), "max": max(held)},
        "games_started": stats.games_started,
        "games_finished": stats.games_finished,
        "actions": len(measured),
        "actions_per_s": round(len(measured) / window, 1),
        "round_trip_ms": {
            "p50": round(percentile(measured, 50), 2),
            "p90": round(percentile(measured, 90), 2),
            "p99": round(percentile(measured, 99), 2),
            "max": round(max(measured, default=float("nan")), 2),
            "mean": round(statistics.fmean(measured), 2) if measured else None,
        },
        "seconds_with_p99_over_50ms": sum(1 for p99, _, _ in seconds if p99 > 50),
        "worst_seconds": [
            {"second": sec, "acks": n, "p99_ms": round(p99, 1)} for p99, sec, n in seconds[:3]
        ],
        "errors": sum(stats.errors.values()),
        "errors_by_kind": dict(stats.errors),
        "error_samples": stats.error_samples,
        "server_cpu_cores": round(server_cpu / window, 2),
        "client_cpu_cores": round(client_cpu / window, 2),
        "frames_received": stats.frames,
        "bot_tables": options.bot_tables,
        "bot_agent": options.bot_agent if options.bot_tables else None,
        "bot_actions_per_s": round(
            sum(n for at, n in stats.bot_actions if started <= at <= ended) / window, 1
        ),
        "bot_games_finished": stats.bot_games_finished,
        # Other work on the machine skews every figure: the 1-minute load average at the end.
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=50, help="games held at once (default 50)")
    p.add_argument("--duration", type=float, default=20.0,
                   help="seconds measured once every game is set up (default 20)")
    p.add_argument("--players", type=int, default=2, help="seats per table (default 2)")
    p.add_argument("--bots", type=int, default=0,
                   help="of those, seats played by server bots (default 0: all clients)")
    p.add_argument("--think-ms", type=float, default=0.0,
                   help="mean think time of a client before each move (exponential; default "
                   "0: play at once)")
    p.add_argument("--max-turns", type=int, default=None,
                   help="Magic Lamp's turn cap (default: the game's)")
    p.add_argument("--max-games", type=int, default=None,
                   help="never start more games than this (default 20 x --games)")
    p.add_argument("--database-url", default=None,
                   help="the server's database (default: SQLite in a temporary folder)")
    p.add_argument("--setup-concurrency", type=int, default=16,
                   help="tables being created and joined at once (default 16)")
    p.add_argument("--setup-timeout", type=float, default=120.0,
                   help="longest wait for the tables to be set up (default 120 s)")
    p.add_argument("--no-compression", action="store_true",
                   help="clients do not offer permessage-deflate (browsers do; the server "
                   "accepts it only with --server-compression)")
    p.add_argument("--server-compression", action="store_true",
                   help="start the server with --ws-compression, so it compresses every "
                   "frame for the clients that offer it (shows what that costs)")
    p.add_argument("--client-gc", action="store_true",
                   help="leave this load generator's cyclic garbage collector on while "
                   "measuring (its pauses then count as round trips of the server)")
    p.add_argument("--cpu-bot-tables", default=None, metavar="N[,N...]",
                   help="measure the humans' round trip beside N tables of CPU-heavy bots: a "
                   "baseline phase without them, then one phase per N (each on a fresh server)")
    p.add_argument("--cpu-bot-agent", default="burn:ms=100",
                   help="the agent of every seat at the bot tables (default burn:ms=100)")
    p.add_argument("--cpu-bot-players", type=int, default=2,
                   help="seats at each bot table (default 2)")
    p.add_argument("--agent-module", default="tests.cpu_burn_agent",
                   help="module the server imports to register --cpu-bot-agent (default "
                   "tests.cpu_burn_agent; '' for none, when the agent is built in)")
    p.add_argument("--bot-workers", type=int, default=None,
                   help="the server's bot worker processes (default 1 with --cpu-bot-tables, "
                   "else the server's default)")
    p.add_argument("--bot-deadline", type=float, default=None,
                   help="the server's per-move bot deadline in seconds (default the server's)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    p.add_argument("--no-progress", action="store_true", help="no live progress display")
    p.add_argument("--server-log-level", default="warning")
    p.add_argument("--port", type=int, default=None,
                   help="the server's port (default: a free one chosen by the system)")
    args = p.parse_args(argv)
    if args.games < 1 or args.duration <= 0:
        p.error("--games must be >= 1 and --duration > 0")
    if not 0 <= args.bots < args.players:
        p.error("--bots must leave at least one client seat")
    try:
        args.cpu_bot_tables = [
            int(n) for n in (args.cpu_bot_tables or "").split(",") if n.strip()
        ]
    except ValueError:
        p.error("--cpu-bot-tables takes whole numbers separated by commas, e.g. 10,20")
    if any(n < 0 for n in args.cpu_bot_tables):
        p.error("--cpu-bot-tables must be >= 0")
    if args.cpu_bot_tables and args.bot_workers is None:
        args.bot_workers = 1
    return args


def report(result: dict[str, Any], console: Console) -> None:
    table = Table(title="result")
    table.add_column("measure")
    table.add_column("value", justify="right")
    rt = result["round_trip_ms"]
    held = result["concurrent_games"]
    rows = [
        ("games held at once (min / mean / target)",
         f"{held['min']} / {held['mean']} / {held['target']}"),
        ("games finished / started", f"{result['games_finished']} / {result['games_started']}"),
        ("actions acknowledged", str(result["actions"])),
        ("actions per second", f"{result['actions_per_s']:.0f}"),
        ("round trip p50 / p90 / p99 / max (ms)",
         f"{rt['p50']:.1f} / {rt['p90']:.1f} / {rt['p99']:.1f} / {rt['max']:.1f}"),
        ("errors", f"{result['errors']} {result['errors_by_kind'] or ''}"),
        ("server CPU (cores)", f"{result['server_cpu_cores']:.2f}"),
        ("load generator CPU (cores)", f"{result['client_cpu_cores']:.2f}"),
        ("measured for / setup took (s)", f"{result['duration_s']} / {result['setup_s']}"),
    ]
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for sample in result["error_samples"]:
        console.print(f"[red]{sample}")


def count_bot_trouble(log: str) -> dict[str, int]:
    """Moves the bot workers missed (deadline) or lost (a dead worker), from the server log
    (server/botrunner.py and botpool.py write one line each)."""
    return {
        "deadlines_missed": log.count(": deadline ("),
        "agent_failures": log.count(": failed ("),
        "workers_died": sum(1 for line in log.splitlines() if "bot worker" in line
                            and "died (exit code" in line),
        # Of those, killed by the server: still busy well past a deadline (botpool.py).
        "workers_killed": log.count("past a deadline: killing it"),
    }


def run_phase(args: argparse.Namespace, options: Options, console: Console) -> dict[str, Any]:
    """One server, one measured run."""
    extra: list[str] = []
    if args.bot_workers is not None:
        extra += ["--bot-workers", str(args.bot_workers)]
    if args.bot_deadline is not None:
        extra += ["--bot-deadline", str(args.bot_deadline)]
    module = args.agent_module if options.bot_tables else None
    with tempfile.TemporaryDirectory(prefix="arabesque-bench-") as folder:
        server = Server(Path(folder), args.database_url, args.server_log_level,
                        compression=args.server_compression, port=args.port,
                        extra_args=tuple(extra), agent_module=module or None)
        try:
            server.wait_healthy(timeout=60)
            show = None if args.no_progress or not console.is_terminal else console
            result = asyncio.run(run(options, server, show))
        finally:
            server.stop()
        log = (Path(folder) / "server.log").read_text(errors="replace")
    result["database"] = "postgresql" if args.database_url else "sqlite"
    result["server_compression"] = args.server_compression
    result["bot_workers"] = args.bot_workers
    result["bot_deadline_s"] = args.bot_deadline
    result.update(count_bot_trouble(log))
    result["bot_trouble_samples"] = [
        line for line in log.splitlines() if "bot worker" in line or ": deadline (" in line
    ][:5]
    result["server_log_tail"] = log.strip().splitlines()[-5:]
    return result


def cpu_bot_summary(phases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each phase's humans' p99 beside the baseline's (the first phase, no bot tables)."""
    base = phases[0]["round_trip_ms"]["p99"]
    return [
        {
            "bot_tables": p["bot_tables"],
            "human_games": p["concurrent_games"]["mean"],
            "human_actions_per_s": p["actions_per_s"],
            "p50_ms": p["round_trip_ms"]["p50"],
            "p99_ms": p["round_trip_ms"]["p99"],
            "p99_above_baseline_ms": round(p["round_trip_ms"]["p99"] - base, 2),
            "bot_actions_per_s": p["bot_actions_per_s"],
            "bot_deadlines_missed": p["deadlines_missed"],
            "bot_workers_died": p["workers_died"],
            "bot_workers_killed_past_deadline": p["workers_killed"],
            "errors": p["errors"],
            "server_cpu_cores": p["server_cpu_cores"],
            "load_average_1min": p["load_average_1min"],
        }
        for p in phases
    ]


def report_cpu_bots(summary: list[dict[str, Any]], console: Console) -> None:
    table = Table(title="humans' round trip beside tables of CPU-heavy bots")
    for column in ("bot tables", "p50 ms", "p99 ms", "p99 - baseline", "bot actions/s",
                   "deadlines missed", "workers died", "errors"):
        table.add_column(column, justify="right")
    for row in summary:
        table.add_row(str(row["bot_tables"]), f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}",
                      f"{row['p99_above_baseline_ms']:+.1f}", f"{row['bot_actions_per_s']:.1f}",
                      str(row["bot_deadlines_missed"]), str(row["bot_workers_died"]),
                      str(row["errors"]))
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    options = Options(
        games=args.games, duration=args.duration, players=args.players, bots=args.bots,
        think_ms=args.think_ms, max_turns=args.max_turns,
        max_games=args.max_games if args.max_games is not None else 20 * args.games,
        setup_concurrency=args.setup_concurrency, setup_timeout=args.setup_timeout,
        seed=args.seed, compression=not args.no_compression, client_gc=args.client_gc,
    )
    # A plain kill (SIGTERM) unwinds like Ctrl-C, so the server is stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    # Progress and the human-readable report go to stderr, so --json output stays clean.
    console = Console(stderr=True)
    if args.cpu_bot_tables:
        phases = []
        for n in [0, *args.cpu_bot_tables]:
            phase = dataclasses.replace(options, bot_tables=n, bot_agent=args.cpu_bot_agent,
                                        bot_players=args.cpu_bot_players)
            phases.append(run_phase(args, phase, console))
        summary = cpu_bot_summary(phases)
        if args.json:
            print(json.dumps({"phases": phases, "summary": summary}, indent=2))
        else:
            report_cpu_bots(summary, console)
        return 0
    result = run_phase(args, options, console)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        report(result, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
