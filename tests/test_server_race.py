"""The lamp race over real sockets: the server times each press itself and corrects it by
the seat's round trip measured with ping/pong, so the faster human wins whatever their
network. Clients here add their own latency and jitter to every frame both ways (pongs
included), as a far-away player's connection would. Added in user space on loopback, that
delay is invisible to the kernel's TCP round trip, which bounds the credit (server/race.py):
so the kernel's reading is stubbed (``KernelStub``) with what a real network with these
delays would show. tests/test_race_kernel.py runs the same race with the delay in the
kernel, where the kernel can add it."""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arabesque.server import tcpinfo
from arabesque.server.settings import Settings
from arabesque.server.store import Store
from tests.server_client import GameClient, Lobby, ServerThread, jitter

#: Round trips of the two kinds of player, and the jitter of every frame each way (± ms, so
#: a round trip varies by up to twice that). With the kernel's round trip bounding the
#: credit (minimum + 20 ms), a connection whose median round trip is more than 20 ms above
#: its best is under-credited by the excess: at ±30 ms per leg the far player's median is
#: ~55 ms above its minimum, and the faster human won 99 of 105 races (94%) instead of the
#: 95% asked (docs/fairness.md, "Error bounds"); at ±15 ms per leg the bar holds.
NEAR_MS, FAR_MS, JITTER_MS = 20.0, 200.0, 15.0
#: How long the fairness test plays, at most, and how many races it wants.
PLAY_S = 18.0
ENOUGH_RACES = 100
TABLES = 16


#: Plans the reactions of one race: (table, race number, rng) -> (seat 0's ms, seat 1's ms).
Planner = Callable[[int, int, random.Random], tuple[float, float]]


def random_plan(table: int, race: int, rng: random.Random) -> tuple[float, float]:
    """One player 50-350 ms faster than the other, either seat."""
    fast = rng.uniform(250, 600)
    slow = fast + rng.uniform(50, 300)
    return (fast, slow) if rng.random() < 0.5 else (slow, fast)


class LampPlayer:
    """A human at a 2-player Magic Lamp table who sets every die on face 3 (so both players
    share it and every turn has a real race), presses after the reaction time the test's
    plan gives it for each race, and takes the default for everything else. A player with
    ``pong_delay_ms`` answers every ping that much late, on purpose."""

    def __init__(
        self,
        client: GameClient,
        table: int,
        plan: dict[tuple[int, int], Any],
        planner: Planner = random_plan,
        pong_delay_ms: float = 0.0,
    ) -> None:
        self.client = client
        self.table = table
        self.plan = plan
        self.planner = planner
        self.pong_delay_ms = pong_delay_ms
        self.races = 0
        self.race_version = -1
        #: The reaction each press really had, from the moment the reveal reached this
        #: player to the moment it pressed (the event loop may fire the press a little later
        #: than planned on a busy machine: the human was that much slower).
        self.reactions: list[float] = []
        #: Each race's reveal and press on the event loop's clock (s), to tell the races
        #: that a stall of the whole test process fell into (``Stalls``).
        self.windows: list[tuple[float, float]] = []
        self.sending: set[asyncio.Task[None]] = set()
        self.rng = random.Random(table)
        client.on_frame = self._on_frame
        if pong_delay_ms:
            client.answer_pings = False

    def _send_later(self, delay_s: float, message: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()

        async def quietly() -> None:
            with contextlib.suppress(Exception):  # the connection closed meanwhile
                await self.client.send(message)

        def send() -> None:
            task = loop.create_task(quietly())
            self.sending.add(task)
            task.add_done_callback(self.sending.discard)

        loop.call_later(delay_s, send)

    def _on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "ping" and self.pong_delay_ms:
            self._send_later(self.pong_delay_ms / 1000, {"type": "pong", "nonce": frame["nonce"]})
            return
        view = frame.get("view") if frame["type"] in ("welcome", "update") else None
        if not view or not view["decision"] or view["decision"]["reaction"] is None:
            return
        if view["version"] == self.race_version:
            return
        # The reveal has just reached the player (after its network delay): it reacts.
        self.race_version = view["version"]
        key = (self.table, self.races)
        if key not in self.plan:
            self.plan[key] = self.planner(self.table, self.races, self.rng)
        self.races += 1
        assert self.client.seat is not None
        reaction_ms = self.plan[key][self.client.seat]
        loop = asyncio.get_running_loop()
        version = view["version"]
        seen = loop.time()
        index = len(self.reactions)
        self.reactions.append(reaction_ms)
        self.windows.append((seen, seen))

        def press() -> None:
            self.reactions[index] = (loop.time() - seen) * 1000
            self.windows[index] = (seen, loop.time())
            task = loop.create_task(self.client.send({"type": "react", "version": version}))
            self.sending.add(task)
            task.add_done_callback(self.sending.discard)

        loop.call_later(reaction_ms / 1000, press)

    async def play(self, stop: asyncio.Event) -> None:
        answered = -1
        client = self.client
        while not stop.is_set():
            view = client.view
            decision = client.decision  # its options written out
            if (
                view is not None
                and decision is not None
                and decision["reaction"] is None
                and view["version"] != answered
                and not view["is_over"]
            ):
                answered = view["version"]
                choice = decision["default"]
                if decision["kind"] == "set_die":
                    choice = next(
                        o["action"] for o in decision["options"] if o["text"].endswith(" 3")
                    )
                reply = await client.act(choice)
                assert reply["type"] == "ack", reply
            else:
                with contextlib.suppress(TimeoutError):
                    await client.next(timeout=0.25)


class Leg:
    """One direction of a simulated link: each frame's delay (s), and the least so far."""

    def __init__(self, round_trip_ms: float, spread_ms: float, rng: random.Random) -> None:
        self.delay = jitter(round_trip_ms, spread_ms, rng)
        self.least = math.inf

    def __call__(self) -> float:
        value = self.delay()
        self.least = min(self.least, value)
        return value


@dataclass
class Link:
    """A player's network: its round trip, the jitter of each frame each way (± ms), and
    how long it holds every pong back on purpose."""

    rtt_ms: float
    jitter_ms: float = JITTER_MS
    pong_delay_ms: float = 0.0


class KernelStub:
    """Stands in for ``tcpinfo.READER``: the kernel's round trip a real network with these
    delays would show (the client's delays are added in user space on loopback, where the
    real kernel sees ~0 ms). Its minimum is the least down leg + the least up leg so far
    (no more than the least real round trip); pongs held back are not in it, as the
    client's kernel acknowledges the ping on arrival."""

    def __init__(self) -> None:
        self.links: dict[int, tuple[Leg, Leg]] = {}

    def __call__(self, sock: Any) -> tcpinfo.KernelRtt | None:
        legs = self.links.get(sock.getpeername()[1])
        if legs is None or math.isinf(legs[0].least + legs[1].least):
            return None
        least = (legs[0].least + legs[1].least) * 1000
        return tcpinfo.KernelRtt(min_ms=least, smoothed_ms=least)


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> KernelStub:
    stub = KernelStub()
    monkeypatch.setattr(tcpinfo, "READER", stub)
    return stub


@dataclass
class RaceResult:
    """One race as recorded, and what the players really did."""

    table: int
    actual: tuple[float, float]
    recorded: tuple[float, float]
    winner: int
    #: A stall of the test process fell between a reveal's sending and a press's arrival.
    stalled: bool


class Stalls:
    """The moments the whole test process stood still (the event loop woke late by more
    than ``STALL_S``), as (from, to) on the loop's clock. The server runs in a thread of this
    process and the players' network delays are timers on this loop, so a stall holds back
    whichever frames were in flight, on one seat's line and not the other's: to the server
    that is a spike of network delay far beyond the links' jitter, which no ping estimate
    can see coming. The fairness bar is for the links' jitter, so races a stall fell into
    are left out (and counted); a loaded CI machine stalls now and then."""

    STALL_S = 0.05
    TICK_S = 0.005

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []

    async def watch(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            before = loop.time()
            await asyncio.sleep(self.TICK_S)
            if loop.time() - before - self.TICK_S > self.STALL_S:
                self.spans.append((before, loop.time()))

    def touch(self, start: float, end: float) -> bool:
        return any(a < end and start < b for a, b in self.spans)


async def race_until(
    players: list[LampPlayer], play_s: float, enough: int, stalls: Stalls | None = None
) -> None:
    """Let the players (two a table, the first of each pair counting) play until ``enough``
    races have been run over all tables or ``play_s`` seconds have passed, then close them."""
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in players]
    if stalls is not None:
        tasks.append(asyncio.create_task(stalls.watch(stop)))
    started = time.monotonic()
    while time.monotonic() - started < play_s:
        await asyncio.sleep(0.25)
        done = sum(sum(1 for e in p.client.log if e["kind"] == "race") for p in players[::2])
        if done >= enough:
            break
    stop.set()
    await asyncio.gather(*tasks)
    for player in players:
        await player.client.close()


async def play_races(
    settings: Settings,
    tables: list[tuple[Link, Link]],
    kernel: KernelStub | None,
    planner: Planner = random_plan,
    enough: int = ENOUGH_RACES,
    play_s: float = PLAY_S,
) -> list[RaceResult]:
    """Humans race at 2-player tables over links; every race's result."""
    plan: dict[tuple[int, int], tuple[float, float]] = {}
    players: list[LampPlayer] = []
    stalls = Stalls()
    with ServerThread(settings) as server:
        lobby = Lobby(server.url)
        rng = random.Random(7)
        for table, links in enumerate(tables):
            table_id, host = lobby.create("magic-lamp", players=2, clock={"per_move_s": None})
            for seat, link in enumerate(links):
                _, token = lobby.join(table_id, seat)
                down = Leg(link.rtt_ms, 2 * link.jitter_ms, rng)
                up = Leg(link.rtt_ms, 2 * link.jitter_ms, rng)
                client = GameClient(server.ws_url, table_id, token, down=down, up=up)
                await client.open()
                assert client.ws is not None
                if kernel is not None:
                    kernel.links[client.ws.local_address[1]] = (down, up)
                players.append(LampPlayer(client, table, plan, planner, link.pong_delay_ms))
                await client.send({"type": "hello", "token": token, "log_from": 0})
                await client.expect("welcome")
            lobby.start(table_id, host)
        lobby.close()
        await race_until(players, play_s, enough, stalls)
    # From the reveal's sending to the press's arrival: a leg's delay either side.
    leg_s = max(link.rtt_ms for pair in tables for link in pair) / 1000
    results = []
    for table in range(len(tables)):
        seats = players[2 * table : 2 * table + 2]
        races = [e for e in seats[0].client.log if e["kind"] == "race"]
        for n, event in enumerate(races):
            (face,) = event["races"]
            assert face["face"] == 3
            results.append(
                RaceResult(
                    table,
                    (seats[0].reactions[n], seats[1].reactions[n]),
                    (float(event["rubs"]["0"]), float(event["rubs"]["1"])),
                    face["winner"],
                    any(
                        stalls.touch(p.windows[n][0] - leg_s, p.windows[n][1] + leg_s)
                        for p in seats
                    ),
                )
            )
    return results


async def test_the_faster_human_wins_the_race_whatever_the_network(
    tmp_path: Path, kernel: KernelStub
) -> None:
    settings = Settings(data_dir=tmp_path, ping_interval_s=0.2)
    # Which seat is far away alternates between tables.
    near, far = Link(NEAR_MS), Link(FAR_MS)
    tables = [(near, far) if t % 2 else (far, near) for t in range(TABLES)]
    results = await play_races(settings, tables, kernel)
    wins = total = stalled = 0
    errors: dict[str, list[float]] = {"near": [], "far": []}
    for r in results:
        if r.stalled:
            stalled += 1
            continue
        for seat in (0, 1):
            kind = "far" if tables[r.table][seat] is far else "near"
            errors[kind].append(r.recorded[seat] - r.actual[seat])
        if abs(r.actual[0] - r.actual[1]) < 50:
            continue  # the bar is for reactions 50 ms or more apart
        total += 1
        wins += r.winner == (0 if r.actual[0] < r.actual[1] else 1)
    summary = (
        f"{wins}/{total} races won by the faster human ({stalled} left out: the test "
        "process stalled); recorded - intended reaction (ms): "
        + ", ".join(
            f"{k} median {statistics.median(v):+.0f}, spread {min(v):+.0f}..{max(v):+.0f}"
            for k, v in errors.items()
        )
    )
    print(summary)
    assert total >= 60, summary
    assert wins >= 0.95 * total, summary


def cheat_plan(table: int, race: int, rng: random.Random) -> tuple[float, float]:
    """Seat 0 (the one holding its pongs back) is always 150 ms slower."""
    honest = rng.uniform(300, 600)
    return (honest + 150, honest)


@pytest.mark.parametrize("bounded", [True, False], ids=["kernel-bound", "no-kernel-bound"])
async def test_holding_pongs_back_gains_at_most_the_slack(
    tmp_path: Path, kernel: KernelStub, bounded: bool
) -> None:
    """Issue 17 §3: a client on a 20 ms line holding every pong back 300 ms, against an
    honest human 150 ms faster on a 20 ms or a 200 ms line. With the kernel's round trip
    bounding the credit the cheat gains at most the slack (20 ms) and loses every race;
    without it (behind a proxy, the old behaviour) it gains ~300 ms and wins."""
    settings = Settings(data_dir=tmp_path, ping_interval_s=0.2, race_kernel_rtt=bounded)
    cheat = Link(NEAR_MS, jitter_ms=5.0, pong_delay_ms=300.0)
    tables = [(cheat, Link(NEAR_MS if t % 2 else FAR_MS, jitter_ms=5.0)) for t in range(6)]
    results = await play_races(settings, tables, kernel, cheat_plan, enough=30, play_s=12.0)
    gains = [r.actual[0] - r.recorded[0] for r in results]
    honest_wins = sum(r.winner == 1 for r in results)
    summary = (
        f"{honest_wins}/{len(results)} won by the honest human; the cheat's gain (actual - "
        f"recorded, ms): median {statistics.median(gains):+.0f}, "
        f"range {min(gains):+.0f}..{max(gains):+.0f}"
    )
    print(summary)
    assert len(results) >= 20, summary
    if bounded:
        # Every table kept the cheat's presses for review (pongs far behind the kernel's
        # round trip), and none of the honest humans'.
        store = Store(settings.resolved_database_url())
        try:
            reviews = [
                r for t in store.list_tables(["running", "finished"]) for r in t.race_reviews
            ]
        finally:
            store.close()
        slow_pongs = [r for r in reviews if r["why"] == "pongs_slower_than_kernel"]
        assert {r["seat"] for r in slow_pongs} == {0}, reviews
        assert len(slow_pongs) >= len(results) // 2, summary
        assert all(r["pong_ms"] - r["kernel_min_ms"] > 200 for r in slow_pongs), slow_pongs
        # 20 ms of slack, and the few ms the event loops of a loaded test machine add. (The
        # honest human lost no race in a quiet run, 31 of 33 with another test running
        # alongside: a stalled event loop costs a press hundreds of ms.)
        assert statistics.median(gains) <= 20.0 + 5.0, summary
        assert honest_wins >= 0.9 * len(results), summary
    else:
        assert statistics.median(gains) >= 250.0, summary
        assert honest_wins < 0.5 * len(results), summary


async def test_race_messages(tmp_path: Path) -> None:
    """In a race only a press (``react``) or the no-reaction option are accepted; a press
    becomes the seat's recorded ``rub <ms>`` action and a bot answers with its own."""
    with ServerThread(Settings(data_dir=tmp_path, ping_interval_s=0.1)) as server:
        lobby = Lobby(server.url)
        table_id, host = lobby.create(
            "magic-lamp",
            players=2,
            clock={"per_move_s": None},
            seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
        )
        _, token = lobby.join(table_id, 0)
        async with GameClient(server.ws_url, table_id, token) as c0:
            lobby.start(table_id, host)
            while c0.decision is None or c0.decision["reaction"] is None:
                if c0.decision is not None and c0.decision["kind"] == "set_die":
                    assert (await c0.act(c0.decision["options"][0]["action"]))["type"] == "ack"
                else:
                    await c0.next()
            reveal = c0.version
            rub = next(o["action"] for o in c0.decision["options"] if o["text"] == "rub 0ms")
            reply = await c0.act(rub)
            assert reply["type"] == "error" and reply["code"] == "race"
            await asyncio.sleep(0.3)
            await c0.send({"type": "react", "version": reveal, "ref": "press"})
            assert (await c0.answer("press"))["type"] == "ack"
            # A second press changes nothing: the first one counts (the race may already be
            # closed, the bot having answered).
            await asyncio.sleep(0.2)
            await c0.send({"type": "react", "version": reveal, "ref": "again"})
            again = await c0.answer("again")
            assert again["type"] == "ack" or again["code"] in ("no_race", "stale"), again
            await c0.wait_until(lambda c: c.version > reveal)
            race = next(e for e in c0.log if e["kind"] == "race")
            ms = race["rubs"]["0"]
            assert 250 <= ms <= 800, race
        lobby.close()


async def test_a_proxied_websocket_with_the_kernel_bound_is_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Behind a reverse proxy the kernel's round trip is the proxy's hop: a websocket with
    forwarding headers while the kernel bound is on gets the operator a warning."""
    from websockets.asyncio.client import connect

    from arabesque.server import app as app_module

    app_module._warned_proxied.clear()
    with ServerThread(Settings(data_dir=tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, _ = lobby.create("magic-lamp", players=2)
        lobby.close()
        url = f"{server.ws_url}/ws/tables/{table_id}"
        async with connect(url, additional_headers={"X-Forwarded-For": "192.0.2.7"}) as ws:
            await ws.send('{"type": "hello"}')
            await ws.recv()
    assert any("--behind-proxy" in r.getMessage() for r in caplog.records)
