"""Whole games on the play server, over real sockets: websocket clients against bots for
every registered game, with a spectator; every frame is audited against the observer, the
record replays and matches the commitment published at the start."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from arabesque.core import commitment
from arabesque.core.records import GameRecord
from arabesque.core.registry import game_ids, get_game
from arabesque.server.settings import Settings
from tests.server_client import GameClient, Lobby, ServerThread, audit_frames, play_randomly


def _players(game: str) -> int:
    spec = get_game(game)
    return int(max(spec.min_players, min(3, spec.max_players)))


@pytest.mark.parametrize("game", game_ids())
async def test_whole_game_clients_and_bots(game: str, tmp_path: Path) -> None:
    players = _players(game)
    humans = min(2, players - 1) if players > 1 else 1
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "agent": "random"}] * (players - humans)
    with ServerThread(Settings(data_dir=tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, host = lobby.create(
            game, players=players, seats=seats, clock={"per_move_s": None}
        )
        clients = []
        for seat in range(humans):
            got, token = lobby.join(table_id, seat)
            assert got == seat
            clients.append(GameClient(server.ws_url, table_id, token))
        spectator = GameClient(server.ws_url, table_id)
        for client in [*clients, spectator]:
            welcome = await client.connect()
            assert welcome["view"] is None and welcome["table"]["status"] == "open"
        # The record is refused before the game ends: it holds every secret.
        assert lobby.record(table_id).status_code == 409
        info = lobby.start(table_id, host)
        assert info["status"] == "running" and len(info["commitment"]) == 64
        assert info["reveal"] is None
        rngs = [random.Random(seat) for seat in range(humans)]
        await asyncio.gather(*(play_randomly(c, r) for c, r in zip(clients, rngs, strict=True)))
        await spectator.wait_until(lambda c: c.view is not None and c.view["is_over"])
        await spectator.expect("game_over")
        for client in [*clients, spectator]:
            await client.close()
        response = lobby.record(table_id)
        assert response.status_code == 200
        data = response.json()
        lobby.close()

    record = GameRecord.from_json(data)
    final = record.replay()
    assert final.is_over and record.result_mismatch(final) is None
    assert record.metadata["commitment"]["sha256"] == info["commitment"]
    assert commitment.check(record.metadata["commitment"], record) is None
    assert record.metadata["agents"][:humans] == ["human"] * humans
    # Every frame each seat and the spectator received is its own view, nothing more.
    for client in clients:
        assert audit_frames(data, client.seat, client.frames) > 1
    assert audit_frames(data, None, spectator.frames) > 1
    # The end of the game revealed the setup behind the commitment.
    assert spectator.table is not None
    reveal = spectator.table["reveal"]
    assert int(reveal["seed"]) == record.seed and reveal["salt"]


async def test_bots_only_table_plays_to_the_end(tmp_path: Path) -> None:
    """Tables can be bots only (auto start when filled), here with the heuristic bots and a
    spectator; the spectator's frames are audited too."""
    with ServerThread(Settings(data_dir=tmp_path)) as server:
        lobby = Lobby(server.url)
        table_id, host = lobby.create(
            "magic-lamp", players=2, auto_start=True, options={"max_turns": 6}
        )
        spectator = GameClient(server.ws_url, table_id)
        await spectator.connect()
        info = lobby.fill(table_id, host, agent="heuristic")
        assert info["seats"][0]["kind"] == "bot"
        await spectator.wait_until(lambda c: c.view is not None and c.view["is_over"], 30)
        await spectator.close()
        data = lobby.record(table_id).json()
        assert lobby.table(table_id)["status"] == "finished"
        lobby.close()
    assert audit_frames(data, None, spectator.frames) > 1
