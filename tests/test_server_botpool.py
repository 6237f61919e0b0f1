"""Bots in worker processes (server/botpool.py): real processes, real sockets.

A table plays to the end with its bots thinking in the workers; a worker killed mid-move has
that move played by the fallback bot and the table finishes; the same seed, salt and agents
give the same game with one worker and with two.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import signal
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import tests.cpu_burn_agent  # noqa: F401  (registers the ``burn`` agent)
from arabesque.server import seats
from arabesque.server.botpool import BotPool, BotPoolError
from arabesque.server.hub import Hub
from arabesque.server.settings import Settings
from tests.conftest import serve_without_serving
from tests.server_client import GameClient, Lobby, ServerThread, play_randomly

GAME = "ali-baba"


def _hub(server: ServerThread) -> Hub:
    hub: Hub = server.app.state.hub
    return hub


def _wait_over(lobby: Lobby, table_id: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = lobby.table(table_id)
        if info["status"] == "finished":
            return info
        time.sleep(0.1)
    raise TimeoutError(f"table {table_id} did not finish in {timeout} s")


async def _human_and_bots(
    server: ServerThread, agent: str, bots: int = 2
) -> tuple[Lobby, str, GameClient]:
    lobby = Lobby(server.url)
    seats_ = [{"kind": "human"}] + [{"kind": "bot", "agent": agent}] * bots
    table_id, host = lobby.create(
        GAME, players=1 + bots, seats=seats_, clock={"per_move_s": None}
    )
    _, token = lobby.join(table_id, 0)
    client = GameClient(server.ws_url, table_id, token)
    await client.connect()
    lobby.start(table_id, host)
    return lobby, table_id, client


async def test_a_table_of_bots_plays_to_the_end_in_the_workers(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_workers=1)
    with ServerThread(settings) as server:
        lobby, table_id, client = await _human_and_bots(server, "burn:ms=3")
        await play_randomly(client, random.Random(1), timeout=60)
        await client.close()
        info = _wait_over(lobby, table_id)
        lobby.close()
        pool = _hub(server).bot_workers
        assert pool is not None
        # The bots' moves were made in worker processes, none by the fallback.
        assert pool.decided > 0 and pool.deaths == 0 and pool.deadlines == 0
        assert pool.worker_pids() and os.getpid() not in pool.worker_pids()
    assert info["status"] == "finished"


async def test_a_killed_worker_falls_back_and_the_table_finishes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="arabesque.server")
    settings = Settings(data_dir=tmp_path, bot_workers=1)
    with ServerThread(settings) as server:
        pool = _hub(server).bot_workers
        assert pool is not None
        lobby, table_id, client = await _human_and_bots(server, "burn:ms=30", bots=1)
        player = asyncio.create_task(play_randomly(client, random.Random(2), timeout=120))
        killed = None
        for _ in range(400):  # the bot's first move is thought about in a worker
            busy = pool.busy_pids()
            if busy:
                killed = busy[0]
                os.kill(killed, signal.SIGKILL)
                break
            await asyncio.sleep(0.01)
        assert killed is not None, "no bot move was ever thinking in a worker"
        await player
        await client.close()
        info = _wait_over(lobby, table_id)
        lobby.close()
        assert pool.deaths == 1
        assert killed not in pool.worker_pids() and len(pool.worker_pids()) == 1
    assert info["status"] == "finished"
    lines = [r.getMessage() for r in caplog.records]
    assert any(f"bot worker {killed} died" in line for line in lines), lines
    fallback = [line for line in lines if "died" in line and "heuristic plays it" in line]
    assert len(fallback) == 1, lines


def _bots_only_game(tmp_path: Path, workers: int) -> list[tuple[int, str]]:
    settings = Settings(data_dir=tmp_path, bot_workers=workers)
    with ServerThread(settings) as server:
        lobby = Lobby(server.url)
        table_id, host = lobby.create(
            GAME, players=3, seats=[{"kind": "bot", "agent": "burn:ms=2"}] * 3,
            clock={"per_move_s": None},
        )
        lobby.start(table_id, host)
        _wait_over(lobby, table_id)
        record = lobby.record(table_id).json()
        lobby.close()
        hub = _hub(server)
        pool = hub.bot_workers
        assert pool is not None and pool.decided > 0 and pool.deadlines == 0
        assert len(pool.worker_pids()) == workers
        actions = [(a["player"], a["action"]) for a in record["actions"]]
        # Each agent kept its state across moves made in different workers.
        table = hub.tables[table_id]
        for seat in range(3):
            agent = table.bots.agent(seat)
            assert getattr(agent, "decisions", None) == sum(1 for s, _ in actions if s == seat)
    return actions


def test_same_seed_same_game_with_one_worker_or_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The table's seed and salt, from which its bots' seeds are drawn, fixed for both runs.
    fixed = SimpleNamespace(
        randbits=lambda bits: 20261128, token_urlsafe=secrets.token_urlsafe,
        compare_digest=secrets.compare_digest,
    )
    monkeypatch.setattr(seats, "secrets", fixed)
    monkeypatch.setattr(seats.commitment, "new_salt", lambda: "5a17" * 8)
    one = _bots_only_game(tmp_path / "one", 1)
    two = _bots_only_game(tmp_path / "two", 2)
    assert len(one) > 20
    # Secret simultaneous choices (the yellow show) may be committed in either order.
    for seat in range(3):
        assert [a for s, a in one if s == seat] == [a for s, a in two if s == seat]


async def test_a_missed_deadline_and_an_agent_error_are_reported() -> None:
    from arabesque.agents.registry import make_agent
    from arabesque.core.registry import get_game

    spec = get_game(GAME)
    state = spec.new_game(spec.make_params(num_players=2), 3)
    seat = min(state.to_act())
    seen = state.determinize(seat, random.Random(1))
    pool = BotPool(1)
    try:
        await pool.start()
        slow = make_agent("burn:ms=2000", GAME, 1)
        started = time.monotonic()
        with pytest.raises(BotPoolError) as late:
            await pool.decide(slow, seen, seat, 0.2)
        assert late.value.kind == "deadline" and time.monotonic() - started < 1.0
        # The worker stopped itself at the deadline and takes the next move.
        quick = make_agent("burn:ms=1", GAME, 1)
        action, after = await pool.decide(quick, seen, seat, 5.0)
        assert action in state.legal_actions(seat) and after.decisions == 1
        assert quick.decisions == 0  # the agent sent is untouched: its state came back
        with pytest.raises(BotPoolError) as broken:
            await pool.decide(quick, seen, seat + 7, 5.0)
        assert broken.value.kind == "failed"
        assert pool.deaths == 0
    finally:
        pool.close()


def test_serve_flags_set_the_bot_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arabesque.server import cli

    captured, _ = serve_without_serving(monkeypatch, tmp_path)
    argv = ["--bot-workers", "3", "--bot-deadline", "2.5", "--bot-inline", "random, burn"]
    assert cli.main([*argv, "--port", "0"]) == 0
    settings = captured["settings"]
    assert settings.resolved_bot_workers() == 3 and settings.bot_think_s == 2.5
    assert settings.bot_inline_agents == ("random", "burn")
    assert cli.main(["--bot-inline", "", "--bot-workers", "0", "--port", "0"]) == 0
    assert captured["settings"].bot_inline_agents == ()
    assert captured["settings"].resolved_bot_workers() == 0
    assert cli.main(["--port", "0"]) == 0
    assert captured["settings"].resolved_bot_workers() == max(1, (os.cpu_count() or 1) - 1)
    with pytest.raises(SystemExit):
        cli.main(["--bot-workers", "-1"])


async def test_workers_that_cannot_start_fail_the_move_and_are_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from arabesque.agents.registry import make_agent
    from arabesque.core.registry import get_game

    spec = get_game(GAME)
    state = spec.new_game(spec.make_params(num_players=2), 3)
    seat = min(state.to_act())
    seen = state.determinize(seat, random.Random(1))
    pool = BotPool(1)

    def no_processes(self: BotPool) -> None:
        raise OSError("no processes left")

    monkeypatch.setattr(BotPool, "_spawn", no_processes)
    with pytest.raises(BotPoolError) as failed:
        await pool.decide(make_agent("random", GAME, 1), seen, seat, 5.0)
    assert failed.value.kind == "failed" and "no processes left" in str(failed.value)
    monkeypatch.undo()
    try:
        await pool.start()
        action, _ = await pool.decide(make_agent("random", GAME, 1), seen, seat, 5.0)
        assert action in state.legal_actions(seat)
    finally:
        pool.close()


def test_search_bots_are_capped_per_table_and_per_server(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, max_search_bots_per_table=2, max_search_bots=3)
    with ServerThread(settings) as server:
        lobby = Lobby(server.url)
        burn = {"kind": "bot", "agent": "burn:ms=1"}
        cheap = {"kind": "bot", "agent": "heuristic"}
        too_many = lobby.http.post(
            "/api/tables", json={"game": GAME, "players": 3, "seats": [burn] * 3}
        )
        assert too_many.status_code == 409
        assert too_many.json()["code"] == "too_many_bots"
        assert "at most 2 search bots" in too_many.json()["message"]
        # Cheap bots are not counted.
        lobby.create(GAME, players=3, seats=[burn, burn, cheap])
        # The server holds 2 of its 3; a table filled with two more is refused.
        table_id, host = lobby.create(GAME, players=3, seats=[{"kind": "human"}])
        lobby.join(table_id, 0)
        filled = lobby.http.post(
            f"/api/tables/{table_id}/fill", json={"agent": "burn"},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert filled.status_code == 409 and "runs 2 search bots" in filled.json()["message"]
        assert lobby.table(table_id)["seats"][1]["kind"] == "human"  # nothing changed
        lobby.fill(table_id, host, "random")
        lobby.create(GAME, players=2, seats=[burn])
        lobby.close()
