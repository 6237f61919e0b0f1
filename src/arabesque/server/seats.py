"""Seats and the start of a game: the seat a token holds, joining a seat, filling the free
seats with bots, and starting the game once every seat is taken (fresh seed, arrangement
and commitment).

Functions of a ``TableRuntime`` (table.py), which offers them as its lobby methods
(``join``, ``fill``, ``start``, ``seat_for_token``); each change is made under the table's
lock and stored before the table tells its connections (``broadcast_table``) and the other
server processes (``announce``). ``auto_start`` starts a table created to start by itself.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import TYPE_CHECKING

from arabesque import __version__
from arabesque.agents.registry import make_agent
from arabesque.core import commitment
from arabesque.server import away, db
from arabesque.server.errors import LobbyError
from arabesque.server.store import (
    ENGINE_VERSION_OPTION,
    RECORD_COMPAT_OPTION,
    hash_token,
    now,
)

if TYPE_CHECKING:
    from arabesque.server.table import TableRuntime


def seat_for_token(table: TableRuntime, token: str) -> int | None:
    digest = hash_token(token)
    for s in table.data.seats:
        if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
            return s.seat
    return None


async def join(table: TableRuntime, seat: int | None, name: str | None) -> tuple[int, str]:
    async with table.lock:
        if table.data.status in (db.FINISHED, db.ABANDONED):
            raise LobbyError(409, "finished", "the game is over")
        free = [s.seat for s in table.data.seats if s.kind == db.HUMAN and s.token_hash is None]
        if seat is None:
            if not free:
                raise LobbyError(409, "full", "every seat of this table is taken")
            seat = free[0]
        if not 0 <= seat < len(table.data.seats):
            raise LobbyError(
                404, "no_seat", f"no seat {seat}; seats are 0..{len(table.data.seats) - 1}"
            )
        if seat not in free:
            raise LobbyError(409, "seat_taken", f"seat {seat} is already taken")
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        if not await table.hub.db(table.hub.store.take_seat, table.id, seat, digest, name):
            raise LobbyError(409, "seat_taken", f"seat {seat} is already taken")
        table.data.seats[seat].token_hash = digest
        table.data.seats[seat].name = name
        table.gone_at[seat] = now()  # not connected yet: away from now (away.py)
        table.broadcast_table()
        table.announce()
    await auto_start(table)
    return seat, token


async def fill(table: TableRuntime, agent: str) -> None:
    make_agent(agent, table.spec.id, seed=0)  # refuse a bad spec with its message
    async with table.lock:
        if table.data.status != db.OPEN:
            raise LobbyError(409, "not_open", "only an open table can be filled with bots")
        free = [s.seat for s in table.data.seats if s.kind == db.HUMAN and s.token_hash is None]
        table.hub.check_bot_room(table, [agent] * len(free))
        await table.hub.db(table.hub.store.seat_bots, table.id, free, agent)
        for seat in free:
            table.data.seats[seat].kind = db.BOT
            table.data.seats[seat].agent = agent
        table.broadcast_table()
        table.announce()
    await auto_start(table)


def _full(table: TableRuntime) -> bool:
    return all(s.kind == db.BOT or s.token_hash is not None for s in table.data.seats)


async def auto_start(table: TableRuntime) -> None:
    if table.auto_start and table.data.status == db.OPEN and _full(table):
        with contextlib.suppress(LobbyError):
            await start(table)


async def start(table: TableRuntime) -> None:
    """Fix the setup (a fresh seed, its arrangement), publish the commitment, play."""
    async with table.lock:
        if table.data.status != db.OPEN:
            raise LobbyError(409, "not_open", f"the table is {table.data.status}, not open")
        if not _full(table):
            missing = [
                s.seat for s in table.data.seats if s.kind == db.HUMAN and s.token_hash is None
            ]
            raise LobbyError(
                409,
                "seats_free",
                f"seats {missing} are free: join them or fill them with bots first",
            )
        seed = secrets.randbits(63)
        table.data.seed = seed
        table.data.arrangement = None
        arrangement = table.new_state().arrangement()
        table.data.arrangement = arrangement
        # Played from the stored arrangement, exactly as a restart or a replay rebuilds it.
        state = table.new_state()
        salt = commitment.new_salt()
        digest = commitment.commit_state(state, salt)
        # The rules it is played under, so a later engine whose rules of the game differ
        # knows not to replay it (hub.py, ``_load``; docs/records.md).
        options = {
            **table.data.options,
            RECORD_COMPAT_OPTION: table.spec.record_compat,
            ENGINE_VERSION_OPTION: __version__,
        }
        started = await table.hub.db(
            table.hub.store.start, table.id, seed, arrangement, salt, digest, options
        )
        if not started:
            raise LobbyError(409, "not_open", "the table was started already")
        table.data.options = options
        table.data.status = db.RUNNING
        table.data.salt = salt
        table.data.commitment = digest
        table.state = state
        for s in table.data.seats:
            if s.kind == db.HUMAN and not table.connections.get(s.seat):
                # Joined but not connected (a friend who closed the page after joining):
                # away from the start, and the buttons appear when the away time is up.
                away.watch(table, s.seat)
        table.broadcast_table()
        table.racing.open_race()
        table.publish()
        table.after_change()
