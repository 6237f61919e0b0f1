"""Move clocks: when each human seat's decision began, its deadline and timer, the time it has
used of the game's clock, the seats gone away, and the move played for a seat whose time
runs out. Also ``now_ms``, the server clock that the clocks and the race read.

A table's ``Clocks`` (one per ``TableRuntime``, table.py) is driven by the table under its
lock: ``clock(seat)`` for each seat after every update, ``clock_spent`` when a seat acts,
``cancel_timers`` when the game ends or is left to another process. From the table it reads
the clock settings, the state, which seats are bots or in the race, and when each seat last
saw something change; a timeout plays through the table's bots (``think``) and ``act``,
like any other move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from arabesque.server.protocol import ClockInfo, ErrorCode

if TYPE_CHECKING:
    from arabesque.server.table import TableRuntime

log = logging.getLogger("arabesque.server")


def now_ms() -> float:
    """The server clock of the race and the clocks (monotonic milliseconds)."""
    return time.monotonic() * 1000.0


class Clocks:
    """The move clocks of one table's seats."""

    def __init__(self, table: TableRuntime) -> None:
        self.table = table
        # Clocks: when each human seat's current decision began, its timer, its time used.
        self.move_started: dict[int, float] = {}
        self._timers: dict[int, tuple[int, asyncio.TimerHandle]] = {}
        self.used_ms: dict[int, int] = {s.seat: s.clock_used_ms for s in table.data.seats}
        self.away: set[int] = set()

    def clock_info(self, seat: int) -> list[dict[str, Any]]:
        clock = self.table.clock
        game_left = None
        if clock.per_game_s is not None:
            game_left = max(0, int(clock.per_game_s * 1000) - self.used_ms.get(seat, 0))
        move_left = None
        started = self.move_started.get(seat)
        if started is not None:
            deadline = self.deadline(seat, started)
            if deadline is not None:
                move_left = max(0, int(deadline - now_ms()))
        if game_left is None and move_left is None:
            return []
        return [ClockInfo(seat=seat, game_left_ms=game_left, move_left_ms=move_left).model_dump()]

    def deadline(self, seat: int, started: float) -> float | None:
        if seat in self.away:
            return started
        clock = self.table.clock
        limits = []
        if clock.per_move_s is not None:
            limits.append(clock.per_move_s * 1000)
        if clock.per_game_s is not None:
            limits.append(clock.per_game_s * 1000 - self.used_ms.get(seat, 0))
        return started + max(0.0, min(limits)) if limits else None

    def clock(self, seat: int) -> None:
        """Run the seat's move clock if it is a human deciding now (not in a race, which
        has its own deadline), else stop it."""
        table = self.table
        state = table.state
        race = table.racing.race
        if (
            state is None
            or state.is_over
            or seat not in state.to_act()
            or table.is_bot(seat)
            or (race is not None and seat in race.timer.seats)
        ):
            self.stop_clock(seat)
        else:
            self.run_clock(seat)

    def run_clock(self, seat: int) -> None:
        """Start the seat's move clock when its decision is new to it."""
        epoch = self.table.changed_at[seat]
        current = self._timers.get(seat)
        if current is not None and current[0] == epoch:
            return
        self.clock_spent(seat)
        started = now_ms()
        self.move_started[seat] = started
        deadline = self.deadline(seat, started)
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        handle = loop.call_later(
            max(0.0, deadline - now_ms()) / 1000,
            lambda: self.table.spawn(self._timeout(seat, epoch)),
        )
        self._timers[seat] = (epoch, handle)

    def stop_clock(self, seat: int) -> None:
        """The seat is not deciding (any more): charge its clock and stop its timer."""
        self.clock_spent(seat)

    def clock_spent(self, seat: int) -> int:
        """Charge the seat's per-game clock for the time since its decision began; returns
        the milliseconds charged."""
        started = self.move_started.pop(seat, None)
        current = self._timers.pop(seat, None)
        if current is not None:
            current[1].cancel()
        if started is None or self.table.clock.per_game_s is None:
            return 0
        spent = int(now_ms() - started)
        self.charge(seat, spent)
        return spent

    def charge(self, seat: int, spent_ms: int) -> None:
        """Add ``spent_ms`` to the seat's per-game clock (again, after a lost commit reloaded
        the clocks as stored)."""
        if spent_ms:
            self.used_ms[seat] = self.used_ms.get(seat, 0) + spent_ms

    def cancel_timers(self) -> None:
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    async def _timeout(self, seat: int, epoch: int) -> None:
        table = self.table
        state = table.state
        if state is None or state.is_over or table.changed_at[seat] != epoch:
            return
        if seat not in state.to_act():
            return
        if not table.connections.get(seat) and not table.shared:
            # Gone: its next decisions are played at once until it comes back.
            self.away.add(seat)
        version = state.version_for(seat)
        if table.clock.on_timeout == "bot":
            action = await table.bots.think(seat, table.bots.timeout_agent(seat))
        else:
            default = state.default_action(seat)
            assert default is not None
            action = default
        error = await table.act(seat, version, action)
        if error is not None and error.code != ErrorCode.STALE:
            log.warning("table %s: timeout move for seat %d: %s", table.id, seat, error.message)
