"""Following the other server processes that serve the same table (docs/fanout.md): when one
of them changes it, ``catch_up`` reads the table from the database and applies what the live
table lacks (seats taken, the start, the actions committed there), then tells this process's
connections exactly as for a local change. A process with a seat connected drives the game
on (bots, clocks, the race); one with only spectators stands by.

Functions of a ``TableRuntime`` (table.py), run under its lock; the news itself comes from
server/fanout.py through the hub.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from arabesque.core.limits import clip
from arabesque.server import away, db
from arabesque.server.errors import Unreplayable
from arabesque.server.seats import auto_start
from arabesque.server.store import TableData, now

if TYPE_CHECKING:
    from arabesque.server.table import TableRuntime

log = logging.getLogger("arabesque.server")


def _drives(table: TableRuntime) -> bool:
    """Whether this process runs the table's bots, clocks and race after a change made
    elsewhere: only while a seat is connected here. A process that only has spectators
    follows; the one that changed the table drives it on (docs/fanout.md)."""
    return any(table.connections.get(s.seat) for s in table.data.seats)


async def catch_up(table: TableRuntime, version: int | None) -> None:
    """Another server process changed this table: read it from the database and bring
    the live table up to ``version`` (None: to whatever is stored), then tell this
    process's connections exactly as for a local change. A version already held costs
    one read at most; the database, not the notification, says what happened."""
    async with table.lock:
        state = table.state
        if table.closed or (version is not None and state is not None and version < state.version):
            return
        fresh = await table.hub.db(table.hub.store.load, table.id)
        if fresh is None:
            return
        if version is not None and not table.shared:
            table.shared = True
            table.clocks.away.clear()
        # A seat's player connected or gone there (away.py judges from both).
        presence_moved = await table.refresh_presence()
        try:
            _follow(table, fresh, version)
        except Unreplayable as problem:
            # Moved on by a process whose rules of the game differ (an upgrade under way):
            # this one cannot follow it (docs/records.md).
            await away.set_aside(table, problem.reason)
            return
        if presence_moved and not table.closed:
            away.watch_remote(table)
            table.broadcast_table()
    await auto_start(table)


def _follow(table: TableRuntime, fresh: TableData, upto: int | None) -> None:
    data = table.data
    before = [(s.kind, s.agent, s.name, s.token_hash, s.stand_in) for s in data.seats]
    data.seats = fresh.seats
    # A stand-in seated, a player back, the notes (away.py): the database's word.
    changed_notes = data.notes != fresh.notes
    data.notes = fresh.notes
    data.race_reviews = fresh.race_reviews
    for s in fresh.seats:
        # Time used only grows; each process charges the moves it timed.
        table.clocks.used_ms[s.seat] = max(table.clocks.used_ms.get(s.seat, 0), s.clock_used_ms)
    changed = changed_notes or before != [
        (s.kind, s.agent, s.name, s.token_hash, s.stand_in) for s in data.seats
    ]
    if fresh.status == db.ABANDONED and data.status != db.ABANDONED:
        # Abandoned by another process (the host, or the idle check): stop here too.
        data.status, data.end_reason = fresh.status, fresh.end_reason
        data.finished_at = fresh.finished_at or now()
        _stand_by(table)
        table.game_over()
        return
    started = False
    if table.unreplayable is not None:
        # Set aside here (away.py): nothing to follow but the table's own news.
        if changed:
            table.broadcast_table()
        return
    if table.state is None:
        if fresh.status == db.OPEN:
            if changed:
                table.broadcast_table()
            return
        # Started by another process: the same setup, so the same game, if under the same
        # rules of the game.
        table.check_compatible(fresh)
        data.options = fresh.options
        data.status, data.started_at = fresh.status, fresh.started_at
        data.seed, data.arrangement = fresh.seed, fresh.arrangement
        data.salt, data.commitment = fresh.salt, fresh.commitment
        data.actions = []
        table.state = table.new_state()
        started = changed = True
    state = table.state
    held = len(data.actions)
    if fresh.actions[:held] != data.actions:
        # Cannot happen while every append goes through the (table, step) key; if the
        # database was restored behind our back, believe it.
        log.error("table %s: the stored game differs from the live one; rebuilding", table.id)
        table.racing.drop_race()
        table.data = fresh
        table.rebuild()
    else:
        end = len(fresh.actions) if upto is None else max(held, min(upto, len(fresh.actions)))
        missing = fresh.actions[held:end]
        if not missing and not started:
            if changed:
                table.broadcast_table()
            return
        if missing:
            table.racing.drop_race()
        for step, (seat, text) in enumerate(missing, start=held + 1):
            try:
                state.apply(seat, state.parse_action(text))
            except Exception as exc:  # stored by a process whose rules differ
                raise Unreplayable(
                    f"a move stored by another server process does not replay here (step "
                    f"{step}: {clip(str(exc), 100)})"
                ) from exc
        data.actions.extend(missing)
    if state.is_over and data.status != db.FINISHED:
        data.status = db.FINISHED
        data.finished_at = fresh.finished_at or now()
        changed = False  # the game_over message carries the table
    if changed:
        table.broadcast_table()
    driving = _drives(table)
    if driving:
        table.racing.open_race()
    table.send_updates()
    if state.is_over:
        table.game_over()
    if driving:
        table.after_change()
    else:
        _stand_by(table)


def _stand_by(table: TableRuntime) -> None:
    """Leave bots and clocks to the process that moves the game on. Only called under the
    table's lock, so no bot task is inside ``act`` (at most waiting for the lock)."""
    table.clocks.cancel_timers()
    # Time passed while another process ran the clock is not this process's to charge.
    table.clocks.move_started.clear()
    table.bots.stand_by()
