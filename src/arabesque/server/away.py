"""Seats gone away and tables that cannot go on: when each human seat's connection went,
handing an away seat to a bot (``seat_bot``), the seat given back when its player
reconnects, the host ending a game (``abandon``), and the table's notes that say so.

Functions of a ``TableRuntime`` (table.py), under its lock like every change; each is
stored before the table tells its connections (``broadcast_table``) and the other server
processes (``announce``). A seat's away time is the table's ``away_s`` (set at creation,
default two minutes), with or without a clock. The hub abandons tables nobody has been
connected to for ``Settings.abandon_idle_s`` (hub.py, ``sweep_idle``).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from arabesque.agents.registry import make_agent
from arabesque.server import db
from arabesque.server.errors import LobbyError
from arabesque.server.store import now
from arabesque.server.words import seat_name

if TYPE_CHECKING:
    from arabesque.server.table import TableRuntime

log = logging.getLogger("arabesque.server")

#: The table's notes kept (the newest).
MAX_NOTES = 100


def away_since(table: TableRuntime, seat: int) -> datetime | None:
    """When the seat's player went, for a joined human not connected during the game: not
    here, nor through another server process on the database (``table.remote``), where the
    later of the two goings counts."""
    s = table.seat_data(seat)
    if (
        table.data.status != db.RUNNING
        or s.kind != db.HUMAN
        or s.token_hash is None
        or table.connections.get(seat)
    ):
        return None
    here = table.gone_at.get(seat)
    elsewhere = table.remote.get(seat)
    if elsewhere is None:
        return here
    if elsewhere.connections:
        return None
    if here is None or elsewhere.gone_since is None:
        return here or elsewhere.gone_since
    return max(here, elsewhere.gone_since)


def is_away(table: TableRuntime, seat: int) -> bool:
    """Gone for longer than the table's away time."""
    since = away_since(table, seat)
    return since is not None and (now() - since).total_seconds() >= table.away_s


def _name(table: TableRuntime, seat: int) -> str:
    return seat_name(table.seat_data(seat))


async def add_note(table: TableRuntime, kind: str, seat: int | None, text: str) -> None:
    note: dict[str, Any] = {"at": now().isoformat(), "kind": kind, "seat": seat, "text": text}
    # The newest MAX_NOTES: a player coming and going cannot grow the table without end.
    table.data.notes = [*table.data.notes, note][-MAX_NOTES:]
    await table.hub.db(table.hub.store.set_notes, table.id, list(table.data.notes))


async def gone(table: TableRuntime, seat: int) -> None:
    """The seat's last connection closed: note the time, and tell everyone again once the
    seat has been away for the table's time (the buttons that hand it over appear then)."""
    table.gone_at[seat] = now()
    await seen(table)
    watch(table, seat)
    # The other processes on the database judge the seat away too (docs/fanout.md).
    table.announce()


def watch(table: TableRuntime, seat: int) -> None:
    """Send the table to everyone once ``seat`` has been gone for the table's away time
    (gone here, or through another server process: ``away_since``)."""
    since = away_since(table, seat)
    if table.data.status != db.RUNNING or since is None:
        return
    loop = asyncio.get_running_loop()
    old = table.away_timers.pop(seat, None)
    if old is not None:
        old.cancel()
    left = table.away_s - (now() - since).total_seconds()
    table.away_timers[seat] = loop.call_later(max(left, 0) + 0.05, table.broadcast_table)


def watch_remote(table: TableRuntime) -> None:
    """After reading the other processes' connections: watch the seats gone there."""
    for seat, presence in table.remote.items():
        if presence.gone_since is not None and 0 <= seat < len(table.data.seats):
            watch(table, seat)


async def seen(table: TableRuntime) -> None:
    """A human is (or was until now) connected: the idle check counts from now (stored, so
    a restart keeps it: hub.py, ``sweep_idle``)."""
    try:
        await table.hub.db(table.hub.store.seen, table.id, now())
    except Exception:  # not worth failing a connection for: the next one writes it again
        log.warning("table %s: could not store when it was last seen", table.id, exc_info=True)


async def back(table: TableRuntime, seat: int) -> None:
    """The seat's player reconnected: they play again (a bot playing for them stops)."""
    await seen(table)
    table.gone_at.pop(seat, None)
    timer = table.away_timers.pop(seat, None)
    if timer is not None:
        timer.cancel()
    s = table.seat_data(seat)
    if s.stand_in is None:
        return
    agent = s.stand_in
    s.stand_in = None
    table.bots.forget(seat)
    await table.hub.db(table.hub.store.set_stand_in, table.id, seat, None)
    name = _name(table, seat)
    await add_note(table, "back", seat, f"{name} is back and plays again (a {agent} bot stood in).")
    table.clocks.clock(seat)


async def seat_bot(table: TableRuntime, seat: int, agent: str, by: str) -> None:
    """Let ``agent`` play for ``seat``, a human away past the table's time. ``by`` names who
    asked (the host, or a seated player)."""
    try:
        make_agent(agent, table.spec.id, seed=0)
    except ValueError as exc:
        raise LobbyError(422, "bad_agent", str(exc)) from None
    async with table.lock:
        n = len(table.data.seats)
        if not 0 <= seat < n:
            raise LobbyError(404, "no_seat", f"no seat {seat}; seats are 0..{n - 1}")
        if table.data.status != db.RUNNING or table.state is None or table.state.is_over:
            raise LobbyError(409, "not_running", f"the table is {table.data.status}, not running")
        s = table.seat_data(seat)
        if s.kind != db.HUMAN or s.token_hash is None:
            raise LobbyError(409, "not_away", f"seat {seat} is not a joined human's")
        if s.stand_in is not None:
            raise LobbyError(409, "not_away", f"a {s.stand_in} bot already plays seat {seat}")
        # The player may be connected through another server process.
        await table.refresh_presence()
        since = away_since(table, seat)
        if since is None:
            raise LobbyError(409, "not_away", f"seat {seat}'s player is connected")
        gone_s = (now() - since).total_seconds()
        if gone_s < table.away_s:
            raise LobbyError(
                409,
                "not_away",
                f"seat {seat}'s player has been gone {gone_s:.0f} s; a bot may take the seat "
                f"after {table.away_s:g} s",
            )
        table.hub.check_bot_room(table, [agent])
        await table.hub.db(table.hub.store.set_stand_in, table.id, seat, agent)
        s.stand_in = agent
        await add_note(
            table,
            "stand_in",
            seat,
            f"A {agent} bot plays for {_name(table, seat)}, who is away (asked by {by}); "
            "the seat is theirs again when they come back.",
        )
        table.clocks.stop_clock(seat)
        table.broadcast_table()
        table.announce()
        table.after_change()


async def abandon(table: TableRuntime, reason: str) -> None:
    """End a game that cannot go on: no winner; the seed and salt are revealed as at a
    normal end, so the partial record downloads and verifies."""
    async with table.lock:
        await abandon_held(table, reason)


async def abandon_held(table: TableRuntime, reason: str) -> None:
    """``abandon`` for a caller that holds the table's lock (or has the table to itself)."""
    if table.data.status not in (db.OPEN, db.RUNNING) or (
        table.state is not None and table.state.is_over
    ):
        raise LobbyError(409, "finished", f"the table is {table.data.status} already")
    note: dict[str, Any] = {
        "at": now().isoformat(),
        "kind": "abandoned",
        "seat": None,
        "text": f"The game was abandoned: {reason}.",
    }
    notes = [*table.data.notes, note]
    if not await table.hub.db(table.hub.store.abandon, table.id, reason, notes):
        raise LobbyError(409, "finished", "the table has ended already")
    table.data.status = db.ABANDONED
    table.data.end_reason = reason
    table.data.finished_at = now()
    table.data.notes = notes
    for timer in table.away_timers.values():
        timer.cancel()
    table.away_timers.clear()
    table.clocks.cancel_timers()
    table.bots.stand_by()
    table.racing.close()
    table.announce()
    table.game_over()


async def set_aside(table: TableRuntime, reason: str) -> None:
    """The stored game cannot be rebuilt by this engine (table.py, ``Unreplayable``: its
    game's rules changed since it started, or a stored move is refused). It has no state
    here; a running one is abandoned with ``reason`` (stored, so no restart tries again), a
    finished or abandoned one stays as it was, and either way its record downloads as stored
    (docs/records.md). The caller holds the table's lock or has the table to itself."""
    log.warning("table %s is set aside: %s", table.id, reason)
    table.state = None
    table.unreplayable = reason
    table.racing.drop_race()
    table.clocks.cancel_timers()
    table.bots.stand_by()
    if table.data.status not in (db.OPEN, db.RUNNING):
        return
    try:
        await abandon_held(table, reason)
    except LobbyError:
        # Ended meanwhile by another server process: the database's word.
        fresh = await table.hub.db(table.hub.store.load, table.id)
        if fresh is not None:
            table.data.status, table.data.end_reason = fresh.status, fresh.end_reason
            table.data.finished_at, table.data.notes = fresh.finished_at, fresh.notes
