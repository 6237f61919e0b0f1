"""Bots at a table: their agents, and their moves computed on the hub's bot pool so the event
loop never waits for them.

A table's ``BotRunner`` (one per ``TableRuntime``, table.py) keeps each seat's agent (and the
agent that plays for a human whose time ran out), at most one move task per seat, and a lock
per agent (agents keep state and are not thread-safe). ``schedule_bot`` is called by the
table after a change; the move then goes through the table's ``act``, or, in a race, is
handed to the race as the bot's answer. From the table it reads the state, the seats'
agents, the think time and when each seat last saw something change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from typing import TYPE_CHECKING

from arabesque.agents.base import Agent, Observation
from arabesque.agents.registry import make_agent
from arabesque.server.protocol import ErrorCode

if TYPE_CHECKING:
    from arabesque.server.table import TableRuntime

log = logging.getLogger("arabesque.server")


class BotRunner:
    """The bots of one table: their agents and the moves they are thinking about."""

    def __init__(self, table: TableRuntime) -> None:
        self.table = table
        self._agents: dict[int, Agent] = {}
        self._agent_locks: dict[int, threading.Lock] = {}
        self._bot_tasks: dict[int, tuple[int, asyncio.Task[None]]] = {}

    def schedule_bot(self, seat: int, agent: Agent | None = None) -> None:
        """Ask the seat's bot for its move, unless it is already thinking about this one."""
        epoch = self.table.changed_at[seat]
        current = self._bot_tasks.get(seat)
        if current is not None and current[0] == epoch and not current[1].done():
            return
        previous = current[1] if current is not None else None
        task = asyncio.get_running_loop().create_task(self._bot_move(seat, epoch, previous, agent))
        self._bot_tasks[seat] = (epoch, task)

    def agent(self, seat: int) -> Agent:
        agent = self._agents.get(seat)
        if agent is None:
            table = self.table
            data = table.seat_data(seat)
            # An away human's stand-in (away.py), else the seat's own bot.
            spec = data.stand_in or data.agent or "random"
            agent = self._agents[seat] = make_agent(spec, table.spec.id, secrets.randbits(63))
        return agent

    def timeout_agent(self, seat: int) -> Agent:
        key = -1 - seat  # kept apart from the seat's own bot
        agent = self._agents.get(key)
        if agent is None:
            table = self.table
            agent = make_agent(table.clock.timeout_agent, table.spec.id, secrets.randbits(63))
            self._agents[key] = agent
        return agent

    async def think(self, seat: int, agent: Agent) -> int:
        """``agent``'s choice for ``seat`` now, computed in the bot pool on a copy of the
        state (the bot cannot touch the live one, which the loop keeps changing), within
        the table's think time; the decision's default when it fails or takes too long."""
        table = self.table
        state = table.state
        assert state is not None
        default = state.default_action(seat)
        assert default is not None
        obs = Observation(state.clone(), seat)
        lock = self._agent_locks.setdefault(id(agent), threading.Lock())

        def run() -> int:
            # An agent left thinking past its time is still running: it is not asked again
            # until it finishes (agents keep state and are not thread-safe).
            if not lock.acquire(blocking=False):
                return default
            try:
                return agent.act(obs)
            finally:
                lock.release()

        loop = asyncio.get_running_loop()
        try:
            action = await asyncio.wait_for(
                loop.run_in_executor(table.hub.bot_pool, run), table.bot_think_s
            )
        except TimeoutError:
            log.info("table %s: bot at seat %d ran out of time", table.id, seat)
            return default
        except Exception:
            log.exception("table %s: bot at seat %d failed", table.id, seat)
            return default
        if action not in obs.legal:
            log.warning("table %s: bot at seat %d chose illegal %r", table.id, seat, action)
            return default
        return action

    async def _bot_move(
        self, seat: int, epoch: int, previous: asyncio.Task[None] | None, agent: Agent | None
    ) -> None:
        if previous is not None and not previous.done():
            with contextlib.suppress(BaseException):
                await previous
        table = self.table
        state = table.state
        if state is None or table.changed_at[seat] != epoch or seat not in state.to_act():
            return
        version = state.version_for(seat)
        action = await self.think(seat, agent or self.agent(seat))
        if agent is None and not table.is_bot(seat):
            return  # the away player came back while the stand-in thought (away.py)
        racing = table.racing
        race = racing.race
        if race is not None and seat in race.timer.seats:
            async with table.lock:
                if racing.race is race:
                    race.timer.answered(seat, action)
                    racing.race_progress()
            return
        error = await table.act(seat, version, action)
        if error is not None and error.code != ErrorCode.STALE:
            log.warning("table %s: bot at seat %d: %s", table.id, seat, error.message)

    def forget(self, seat: int) -> None:
        """Stop the move being thought about for ``seat`` and forget its agent (an away
        player's stand-in, when the player is back: away.py)."""
        current = self._bot_tasks.pop(seat, None)
        if current is not None:
            current[1].cancel()
        self._agents.pop(seat, None)

    def stand_by(self) -> None:
        """Stop and forget every move being thought about (another process moves the game
        on: following.py)."""
        for _, task in self._bot_tasks.values():
            task.cancel()
        self._bot_tasks.clear()

    def close(self) -> None:
        """Stop every move being thought about (server shutdown)."""
        for _, task in self._bot_tasks.values():
            task.cancel()
