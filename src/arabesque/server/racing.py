"""The live lamp race at a table: opening it, stamping the reveal, taking the answers, closing
it. The timing itself (reaction times, round trips, deadlines) is ``RaceTimer``'s, pure logic
in server/race.py.

The lamp race (any decision with ``decision.reaction``) is run by a ``RaceTimer``: the reveal
is the update carrying the race decision, stamped as it is written to each seat's socket;
presses are stamped when received and corrected by the seat's round trip; bots answer with
their own sampled reaction. The answers are applied together when the race closes, so not
even a version number betrays an early answer (each seat is acknowledged with its own,
``state.version_for``, which the race does not move before it closes).

A table's ``RaceRunner`` (one per ``TableRuntime``, table.py) holds the race open there, if
any. From the table it uses the lock, the state, when each seat last saw something change
(``fresh``), the bots and the seats gone away (who answer at once), and ``commit``,
``publish`` and ``after_change`` to apply the answers when the race closes.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arabesque.core.decision import Decision
from arabesque.core.errors import ArabesqueError
from arabesque.server.clocks import now_ms
from arabesque.server.connection import Connection, OnSent
from arabesque.server.protocol import ErrorCode, ErrorMsg
from arabesque.server.race import GRACE_MS, LatencyEstimate, RaceTimer
from arabesque.server.store import now

if TYPE_CHECKING:
    from arabesque.server.table import TableRuntime

log = logging.getLogger("arabesque.server")


@dataclass
class _Race:
    timer: RaceTimer
    #: The global version the race opened at (the race's own; never sent to anyone).
    version: int
    opened_ms: float
    closer: asyncio.Task[None] | None = None
    closing: bool = False


class RaceRunner:
    """The race open at one table (``race``, None when there is none)."""

    def __init__(self, table: TableRuntime) -> None:
        self.table = table
        self.race: _Race | None = None

    def open_race(self) -> None:
        """Open the race if the state now asks for reactions. Called before ``publish``, so
        the update carrying the race decision (the reveal) is stamped when it is written to
        each seat."""
        state = self.table.state
        if state is None or state.is_over or self.race is not None:
            return
        seats: list[int] = []
        reaction = None
        for seat in sorted(state.to_act()):
            decision: Decision | None = state.decision(seat)
            if decision is not None and decision.reaction is not None:
                seats.append(seat)
                reaction = decision.reaction
        if reaction is not None:
            self.race = _Race(RaceTimer(seats, reaction), state.version, now_ms())

    def start_race(self, race: _Race) -> None:
        """Bots answer, absent seats are settled, and the race's closer starts."""
        table = self.table
        timer = race.timer
        for seat in timer.seats:
            if table.is_bot(seat):
                table.bots.schedule_bot(seat)
            elif seat in table.clocks.away:
                if table.clock.on_timeout == "bot":
                    table.bots.schedule_bot(seat, table.bots.timeout_agent(seat))
                else:
                    timer.answered(seat, timer.reaction.none)
        race.closer = asyncio.get_running_loop().create_task(self._race_closer(race))
        self.race_progress()

    def reveal_hook(self, seat: int | None, conn: Connection) -> OnSent | None:
        """For a frame showing ``seat`` the race: stamp the reveal when it is written."""
        race = self.race
        if race is None or seat is None or seat not in race.timer.seats:
            return None
        latency: LatencyEstimate = conn.latency

        def revealed(sent_ms: float) -> None:
            if self.race is race:
                race.timer.revealed(seat, sent_ms, latency)

        return revealed

    def race_answer(
        self, seat: int, version: int, action: int, conn: Connection | None, ref: str | int | None
    ) -> ErrorMsg | None:
        """An ``action`` message during a race: only "no reaction" is accepted that way
        (a reaction time is measured by the server from a ``react``)."""
        race = self.race
        state = self.table.state
        assert race is not None and state is not None
        reaction = race.timer.reaction
        if not 0 <= action < state.num_actions:
            return ErrorMsg(
                code=ErrorCode.INVALID_ACTION,
                message=f"action {action} is outside this game's action space "
                f"0..{state.num_actions - 1}",
                ref=ref,
            )
        if action not in state.legal_actions(seat):
            return ErrorMsg(
                code=ErrorCode.ILLEGAL_ACTION,
                message=f"{state.action_to_str(action)!r} is not legal for player {seat} now "
                f"({state.phase_description()})",
                ref=ref,
            )
        if not self.table.fresh(seat, version):
            return ErrorMsg(
                code=ErrorCode.STALE,
                message=f"the race opened at your version {state.version_for(seat)}; "
                f"you sent {version}",
                ref=ref,
            )
        if action != reaction.none:
            return ErrorMsg(
                code=ErrorCode.RACE,
                message="this is a real-time decision: send {'type': 'react'} the moment you "
                "react (the server measures the time), or the no-reaction option "
                f"(action {reaction.none}) to pass",
                ref=ref,
            )
        race.timer.answered(seat, action)
        if conn is not None:
            conn.send({"type": "ack", "ref": ref, "version": state.version_for(seat)})
        self.race_progress()
        return None

    async def react(
        self, conn: Connection, version: int, received_ms: float, ref: str | int | None
    ) -> ErrorMsg | None:
        """A press in the race, received at ``received_ms``."""
        seat = conn.seat
        table = self.table
        async with table.lock:
            race = self.race
            state = table.state
            if seat is None:
                return ErrorMsg(code=ErrorCode.SPECTATOR, message="spectators do not race", ref=ref)
            if race is None or state is None or seat not in race.timer.seats:
                return ErrorMsg(
                    code=ErrorCode.NO_RACE, message="there is no race for you to react to", ref=ref
                )
            seen = state.version_for(seat)
            if version != seen:
                return ErrorMsg(
                    code=ErrorCode.STALE,
                    message=f"the race opened at your version {seen}; you sent {version}",
                    ref=ref,
                )
            try:
                race.timer.pressed(seat, received_ms, conn.latency)
            except ValueError as exc:
                return ErrorMsg(code=ErrorCode.NO_RACE, message=str(exc), ref=ref)
            conn.send({"type": "ack", "ref": ref, "version": seen})
            self.race_progress()
            return None

    def race_progress(self) -> None:
        race = self.race
        if race is not None and race.timer.done and race.closer is not None and not race.closing:
            race.closing = True
            race.closer.cancel()  # it only sleeps: the closing runs in its own task
            self.table.spawn(self._close_race(race))

    async def _race_closer(self, race: _Race) -> None:
        """Close the race at its deadline (which grows as the reveal reaches more seats)."""
        timer = race.timer
        # At least the window from the opening, so a seat that connects during it (after a
        # restart, say) can still answer; then each shown seat's own deadline.
        least = race.opened_ms + timer.reaction.window_ms + GRACE_MS
        while True:
            try:
                deadline = max(least, timer.deadline_ms())
            except ValueError:  # shown to nobody yet
                deadline = least
            wait = deadline - now_ms()
            if wait <= 0:
                break
            await asyncio.sleep(wait / 1000)
        if not race.closing:
            race.closing = True
            self.table.spawn(self._close_race(race))

    async def _close_race(self, race: _Race) -> None:
        table = self.table
        async with table.lock:
            if self.race is not race:
                return
            self.race = None
            state = table.state
            assert state is not None
            await _review(table, race.timer)
            applied: list[tuple[int, str]] = []
            for seat, action in race.timer.actions().items():
                try:
                    state.apply(seat, action)
                except ArabesqueError as exc:  # cannot happen unless the state moved on
                    log.error("table %s: race answer of seat %d refused: %s", table.id, seat, exc)
                    continue
                applied.append((seat, state.action_to_str(action)))
            if applied and not await table.commit(applied):
                return
            self.open_race()
            table.publish()
            table.after_change()

    def drop_race(self) -> None:
        """Forget the race open here: the stored game has moved past it (the race was decided
        where it closed first)."""
        race, self.race = self.race, None
        if race is not None and race.closer is not None:
            race.closer.cancel()

    def close(self) -> None:
        """Stop the race's closer (server shutdown)."""
        if self.race is not None and self.race.closer is not None:
            self.race.closer.cancel()


#: The race presses kept for review with a table (the newest).
MAX_REVIEWS = 200


async def _review(table: TableRuntime, timer: RaceTimer) -> None:
    """Log and keep with the table (``race_reviews``; the record's metadata once the game
    ends) the presses to review: corrected from pongs much slower than the kernel's round
    trip (a warning: the credit was bounded, the gap is for review), and implausibly fast
    ones (info)."""
    corrections = timer.corrections
    reactions = timer.reactions_ms
    suspicious = timer.suspicious()
    reviews = []
    for seat in sorted(suspicious | timer.implausible()):
        c = corrections[seat]
        kernel = "unknown" if c.kernel_min_ms is None else f"{c.kernel_min_ms:.1f} ms"
        # A warning when the pongs ran far behind the kernel's round trip; only a note for
        # a reaction too fast to be human (a bot-like client, or a press sent blind).
        log.log(
            logging.WARNING if seat in suspicious else logging.INFO,
            "table %s: race press of seat %d to review: reaction %.0f ms after crediting "
            "%.1f ms of round trip (pong median %.1f ms, kernel minimum %s)",
            table.id,
            seat,
            reactions[seat],
            c.credited_ms,
            c.pong_ms,
            kernel,
        )
        reviews.append(
            {
                "at": now().isoformat(),
                "seat": seat,
                "why": "pongs_slower_than_kernel" if seat in suspicious else "implausibly_fast",
                "reaction_ms": round(reactions[seat], 1),
                "credited_ms": round(c.credited_ms, 1),
                "pong_ms": round(c.pong_ms, 1),
                "kernel_min_ms": None if c.kernel_min_ms is None else round(c.kernel_min_ms, 1),
            }
        )
    if not reviews:
        return
    table.data.race_reviews = [*table.data.race_reviews, *reviews][-MAX_REVIEWS:]
    try:
        await table.hub.db(table.hub.store.set_race_reviews, table.id, table.data.race_reviews)
    except Exception:  # the log line above has it
        log.warning("table %s: could not store the race reviews", table.id, exc_info=True)
