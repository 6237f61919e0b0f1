"""Several server processes behind one PostgreSQL database (docs/fanout.md).

Two real server processes (``python -m arabesque.server``) on two loopback ports share one
fresh schema of the test database; tables fan out between them through LISTEN/NOTIFY. A
player on one and a spectator on the other see the same game move for move, and players of
one table on both processes play it to a consistent end.

Needs ``ARABESQUE_TEST_DATABASE_URL`` naming a PostgreSQL database; skipped without it.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa

from arabesque.core.records import GameRecord
from arabesque.server.store import Store
from tests.server_client import (
    GameClient,
    Lobby,
    ServerProcess,
    audit_frames,
    pg_schema,
    play_randomly,
)

DATABASE_URL = os.environ.get("ARABESQUE_TEST_DATABASE_URL", "")
pytestmark = pytest.mark.skipif(
    not DATABASE_URL.startswith("postgresql"),
    reason="ARABESQUE_TEST_DATABASE_URL does not name a PostgreSQL database",
)


@dataclass
class Cluster:
    a: ServerProcess
    b: ServerProcess
    #: The database URL both use (its options select the test's own schema).
    url: str


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Processes A and B on one fresh schema, started together. The schema is migrated
    first, here: every process migrates at startup, and two first starts on an empty schema
    would both try to create it (docs/fanout.md says to start one first)."""
    folder = tmp_path_factory.mktemp("cluster")
    with pg_schema(DATABASE_URL) as url:
        store = Store(url)
        try:
            store.migrate()
        finally:
            store.close()
        processes: list[ServerProcess] = []
        try:
            # Both launched before either is waited for: they start together.
            processes = [ServerProcess(url, folder / name).launch() for name in "ab"]
            for process in processes:
                process.wait()
            yield Cluster(processes[0], processes[1], url)
        finally:
            for process in processes:
                process.stop()
            for process in processes:
                # Shown by pytest only for a failing test: what each server had to say.
                print(f"--- server on port {process.port} ---\n{process.log()}")


def updates(client: GameClient) -> list[tuple[int, dict[str, Any], list[Any], int]]:
    """What a connection was told about the game, in order: (version, view, log delta,
    log index) of each update, and the end."""
    told = []
    for frame in client.frames:
        if frame["type"] == "update":
            view = frame["view"]
            told.append((view["version"], view, frame["log"], frame["log_index"]))
    return told


async def until(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


async def test_a_spectator_on_the_other_process_sees_the_game_move_for_move(
    cluster: Cluster,
) -> None:
    a, b = cluster.a, cluster.b
    lobby_a, lobby_b = Lobby(a.url), Lobby(b.url)
    try:
        # Magic Lamp: its lamp races commit several answers at once, which the other process
        # must pass on as one step too.
        table_id, host = lobby_a.create(
            "magic-lamp",
            players=2,
            seats=[{"kind": "human"}, {"kind": "bot", "agent": "heuristic"}],
            clock={"per_move_s": None},
            bot_think_s=2.0,
        )
        # B has never heard of the table: it reads it from the database when asked.
        assert lobby_b.table(table_id)["status"] == "open"
        spectator_a = GameClient(a.ws_url, table_id)
        spectator_b = GameClient(b.ws_url, table_id)
        await spectator_a.connect()
        await spectator_b.connect()
        _, token = lobby_a.join(table_id, 0)
        lobby_a.start(table_id, host)
        player = GameClient(a.ws_url, table_id, token)
        await player.connect()
        try:
            await play_randomly(player, random.Random(7), timeout=60)
            for spectator in (spectator_a, spectator_b):
                await spectator.expect("game_over", timeout=10)
        finally:
            for client in (player, spectator_a, spectator_b):
                await client.close()

        record = lobby_a.record(table_id).json()
        assert lobby_b.record(table_id).json()["actions"] == record["actions"]
        # The spectators' version at the end: the actions they could see (not the dice set in
        # secret before each reveal).
        final = GameRecord.from_json(record).replay().version_for(None)
        seen_a, seen_b = updates(spectator_a), updates(spectator_b)
        # Move for move: the same updates, in the same order, with the same views and log.
        assert [v for v, *_ in seen_b] == [v for v, *_ in seen_a]
        assert seen_b == seen_a
        versions = [v for v, *_ in seen_b]
        assert versions == sorted(set(versions)) and versions[0] == 0 and versions[-1] == final
        # And each is exactly what the observer shows a spectator at that version.
        assert audit_frames(record, None, spectator_b.frames) == len(seen_b)
        ends = [f for f in spectator_b.frames if f["type"] == "game_over"]
        assert ends[0]["table"]["result"] == lobby_a.table(table_id)["result"]
        assert lobby_b.table(table_id)["status"] == "finished"
    finally:
        lobby_a.close()
        lobby_b.close()


async def play_through_conflicts(client: GameClient, rng: random.Random, timeout: float) -> int:
    """Play the client's seat to the end, deciding again whenever an action is answered
    ``stale`` (another process stored a move first). Returns how many were."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    answered = -1
    stale = 0
    while True:
        view = client.view
        if view is not None and view["is_over"]:
            return stale
        decision = client.decision  # its options written out
        if view is not None and decision is not None and view["version"] != answered:
            answered = view["version"]
            reply = await client.act(rng.choice(decision["options"])["action"])
            if reply["type"] == "error":
                assert reply["code"] == "stale", reply
                stale += 1
                # Lost the race to a move stored first by the other process, which changed
                # what this seat is shown: decide again once caught up (docs/protocol.md).
                answered = -1
                await client.send({"type": "sync"})
                await client.expect("welcome")
        else:
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"seat {client.seat}: the game did not end in time")
            try:
                await client.next(timeout=min(left, 1.0))
            except TimeoutError:
                # No news for a second: ask for the view again rather than trust we have it.
                await client.send({"type": "sync"})


async def test_players_on_both_processes_finish_one_consistent_game(
    cluster: Cluster,
) -> None:
    a, b = cluster.a, cluster.b
    lobby_a, lobby_b = Lobby(a.url), Lobby(b.url)
    try:
        # Ali Baba has a secret simultaneous phase, where both players may store a move at
        # the same step; the bot is driven by both processes, which race to store its moves.
        table_id, host = lobby_a.create(
            "ali-baba",
            players=3,
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "agent": "heuristic"}],
            clock={"per_move_s": None},
        )
        _, token_a = lobby_a.join(table_id, 0)
        _, token_b = lobby_b.join(table_id, 1)
        # A learns of B's join through the fan-out; only then can the table start.
        await until(lambda: all(s["taken"] for s in lobby_a.table(table_id)["seats"]))
        lobby_a.start(table_id, host)
        player_a = GameClient(a.ws_url, table_id, token_a)
        player_b = GameClient(b.ws_url, table_id, token_b)
        await player_a.connect()
        await player_b.connect()
        try:
            await asyncio.gather(
                play_through_conflicts(player_a, random.Random(1), timeout=60),
                play_through_conflicts(player_b, random.Random(2), timeout=60),
            )
        finally:
            await player_a.close()
            await player_b.close()

        record = lobby_a.record(table_id).json()
        assert lobby_b.record(table_id).json() == record
        game = GameRecord.from_json(record)
        final = game.replay()
        assert final.is_over
        assert player_a.view is not None and player_b.view is not None
        assert player_a.view["version"] == final.version_for(0)
        assert player_b.view["version"] == final.version_for(1)
        # Every frame each player got is its seat's true view at that version, log included,
        # also around the moves its process lost to the other.
        assert audit_frames(record, 0, player_a.frames) > 0
        assert audit_frames(record, 1, player_b.frames) > 0
        info_a, info_b = lobby_a.table(table_id), lobby_b.table(table_id)
        assert info_a["result"] == info_b["result"] is not None
        assert info_a["version"] == info_b["version"] == final.version_for(None)
    finally:
        lobby_a.close()
        lobby_b.close()


async def _two_humans_on_a(
    cluster: Cluster, lobby_a: Lobby
) -> tuple[str, GameClient, GameClient, GameClient]:
    """A started 2-player Ali Baba table of two humans playing on A, watched from B."""
    table_id, host = lobby_a.create("ali-baba", players=2, clock={"per_move_s": None})
    _, token0 = lobby_a.join(table_id, 0)
    _, token1 = lobby_a.join(table_id, 1)
    spectator = GameClient(cluster.b.ws_url, table_id)
    await spectator.connect()
    lobby_a.start(table_id, host)
    players = (
        GameClient(cluster.a.ws_url, table_id, token0),
        GameClient(cluster.a.ws_url, table_id, token1),
    )
    for player in players:
        await player.connect()
    await spectator.wait_until(lambda c: c.view is not None)
    return table_id, players[0], players[1], spectator


async def _move(players: tuple[GameClient, GameClient], rng: random.Random) -> int:
    """The seat to act plays a random option; returns the new version."""
    for player in players:
        await player.wait_until(lambda c: c.view is not None)
    version = max(p.version for p in players)
    for player in players:
        await player.wait_until(lambda c, v=version: c.version == v)  # type: ignore[misc]
    mover = next(p for p in players if p.decision is not None)
    assert mover.decision is not None
    reply = await mover.act(rng.choice(mover.decision["options"])["action"])
    assert reply["type"] == "ack", reply
    return int(reply["version"])


async def test_a_process_that_lost_its_listener_catches_up(cluster: Cluster) -> None:
    """B's listening connection is killed while A's players move: B reconnects, compares
    its tables with the database, and its spectator is shown every move it missed."""
    lobby_a = Lobby(cluster.a.url)
    rng = random.Random(3)
    try:
        table_id, p0, p1, spectator = await _two_humans_on_a(cluster, lobby_a)
        try:
            version = 0
            for _ in range(2):
                version = await _move((p0, p1), rng)
            await spectator.wait_until(lambda c: c.version == version)
            engine = sa.create_engine(cluster.url)
            try:
                with engine.begin() as conn:
                    killed = conn.execute(
                        sa.text(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE application_name = :name"
                        ),
                        {"name": f"arabesque-fanout-listen-{cluster.b.proc.pid}"},
                    ).all()
            finally:
                engine.dispose()
            assert killed == [(True,)]
            # At once, while B is reconnecting: these notifications are likely lost to it.
            for _ in range(3):
                version = await _move((p0, p1), rng)
            await spectator.wait_until(lambda c: c.version == version, timeout=10)
            assert spectator.view is not None
            assert spectator.view["version"] == version
            # What B says of the table agrees with A.
            lobby_b = Lobby(cluster.b.url)
            try:
                assert lobby_b.table(table_id)["version"] == version
            finally:
                lobby_b.close()
        finally:
            for client in (p0, p1, spectator):
                await client.close()
    finally:
        lobby_a.close()


def _store_elsewhere(url: str, table_id: str, idx: int, seat: int, text: str) -> None:
    """A move stored at step ``idx`` as another server process would, telling nobody."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO actions (table_id, idx, seat, action, created_at) "
                    "VALUES (:t, :i, :s, :a, now())"
                ),
                {"t": table_id, "i": idx, "s": seat, "a": text},
            )
    finally:
        engine.dispose()


def _stored_moves(url: str, table_id: str) -> list[tuple[int, int, str]]:
    """The table's stored (step, seat, action) rows, in order."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            rows = conn.execute(
                sa.text("SELECT idx, seat, action FROM actions WHERE table_id = :t ORDER BY idx"),
                {"t": table_id},
            ).all()
    finally:
        engine.dispose()
    return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


async def test_a_move_stored_first_elsewhere_makes_the_action_stale(cluster: Cluster) -> None:
    """Another process stored this step first (and died before telling anyone): the step's
    (table, index) key refuses A's commit, A reads the game again, the player is answered
    ``stale`` and shown the stored move, and B's spectator sees the same."""
    lobby_a = Lobby(cluster.a.url)
    try:
        table_id, p0, p1, spectator = await _two_humans_on_a(cluster, lobby_a)
        try:
            mover = next(p for p in (p0, p1) if p.decision is not None)
            assert mover.decision is not None and mover.seat is not None
            stored, mine = mover.decision["options"][0], mover.decision["options"][-1]
            assert stored["action"] != mine["action"]
            _store_elsewhere(cluster.url, table_id, 0, mover.seat, stored["text"])
            reply = await mover.act(mine["action"], version=0)
            assert reply["type"] == "error" and reply["code"] == "stale", reply
            # Shown the game with the stored move, here and on B.
            await mover.wait_until(lambda c: c.version == 1)
            await spectator.wait_until(lambda c: c.version == 1)
            assert lobby_a.table(table_id)["version"] == 1
            assert _stored_moves(cluster.url, table_id) == [(0, mover.seat, stored["text"])]
            # The game goes on from there.
            version = await _move((p0, p1), random.Random(4))
            assert version == 2
            await spectator.wait_until(lambda c: c.version == 2)
        finally:
            for client in (p0, p1, spectator):
                await client.close()
    finally:
        lobby_a.close()


async def test_another_seats_secret_move_stored_first_is_not_told(cluster: Cluster) -> None:
    """Magic Lamp's dice are set in secret by both seats at once. When another process stored
    the other seat's secret setting first, A's commit of this seat's setting loses the race,
    but this seat has been shown nothing new: its setting is taken (acked, stored after the
    other), not answered ``stale``, which would tell it that someone had moved in secret."""
    lobby_a = Lobby(cluster.a.url)
    try:
        table_id, host = lobby_a.create("magic-lamp", players=2, clock={"per_move_s": None})
        tokens = [lobby_a.join(table_id, seat)[1] for seat in (0, 1)]
        lobby_a.start(table_id, host)
        p0, p1 = (GameClient(cluster.a.ws_url, table_id, token) for token in tokens)
        try:
            for player in (p0, p1):
                await player.connect()
                await player.wait_until(lambda c: c.decision is not None)
            assert p0.decision is not None and p1.decision is not None
            theirs = p1.decision["options"][0]["text"]
            mine = p0.decision["options"][-1]
            _store_elsewhere(cluster.url, table_id, 0, 1, theirs)
            reply = await p0.act(mine["action"], version=0)
            assert reply["type"] == "ack", reply
            assert _stored_moves(cluster.url, table_id) == [(0, 1, theirs), (1, 0, mine["text"])]
            # The other seat's own setting, stored in its name, is news to it: its own action
            # at its old version is stale.
            reply = await p1.act(p1.decision["options"][-1]["action"], version=0)
            assert reply["type"] == "error" and reply["code"] == "stale", reply
            assert not [f for f in p0.frames if f["type"] == "error"]
        finally:
            for client in (p0, p1):
                await client.close()
    finally:
        lobby_a.close()


async def test_a_seat_joined_on_one_process_is_taken_up_on_the_other_at_once(
    cluster: Cluster,
) -> None:
    """B already holds the table when the seat is joined on A; connecting to B straight
    away (before or after A's news arrives) finds the seat."""
    lobby_a, lobby_b = Lobby(cluster.a.url), Lobby(cluster.b.url)
    try:
        table_id, _host = lobby_a.create("ali-baba", players=2)
        assert not lobby_b.table(table_id)["seats"][1]["taken"]
        seat, token = lobby_a.join(table_id, 1)
        async with GameClient(cluster.b.ws_url, table_id, token) as player:
            assert player.seat == seat == 1
            assert player.table is not None and player.table["seats"][1]["taken"]
        assert lobby_b.table(table_id)["seats"][1]["taken"]
    finally:
        lobby_a.close()
        lobby_b.close()
