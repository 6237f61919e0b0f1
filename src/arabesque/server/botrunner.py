"""Bots at a table: their agents, and their moves computed off the event loop — in the hub's
bot worker processes (server/botpool.py), or for cheap agents in its bot threads.

A table's ``BotRunner`` (one per ``TableRuntime``, table.py) keeps each seat's agent (and the
agent that plays for a human whose time ran out), at most one move task per seat, and a lock
per agent (agents keep state and are not thread-safe). ``schedule_bot`` is called by the
table after a change; the move then goes through the table's ``act``, or, in a race, is
handed to the race as the bot's answer. From the table it reads the state, the seats'
agents, the think time and when each seat last saw something change.

A bot never sees the live state, not even a copy of it: it is given a determinized copy for
its seat (``state.determinize(seat, rng)``: what the seat knows, the rest dealt again), the
same wherever it thinks. Its seed and that copy's are drawn from the table's secret salt and
seed, so a game with the same seed, salt and agents is the same game whatever the number of
workers. A move the workers cannot deliver in time (a worker killed, the deadline missed, the
agent failing) is played by the game's ``heuristic`` bot in the threads (or the decision's
default where the game has none), logged in one line; the table goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import threading
from typing import TYPE_CHECKING, Any

from arabesque.agents.base import Agent, Observation
from arabesque.agents.registry import make_agent, parse_agent_spec
from arabesque.core.game import GameState
from arabesque.server.botpool import BotPoolError
from arabesque.server.protocol import ErrorCode

if TYPE_CHECKING:
    from arabesque.server.table import TableRuntime

log = logging.getLogger("arabesque.server")

#: The agent that plays a move the worker pool could not deliver.
FALLBACK_AGENT = "heuristic"
#: Values never named as a worker's static objects (see shared_statics).
_PLAIN = (int, float, str, bytes, bool, type(None), tuple, list, dict, set, frozenset)


def shared_statics(state: GameState, seen: GameState) -> list[Any]:
    """The objects of the game's own classes that a bot's copy ``seen`` shares with the live
    ``state``: params, components, geometry, the action space. A copy shares only what never
    changes, so a worker may keep them (botpool.py); plain containers are left out, being
    per-move values (a tuple of seats) that would pile up in the workers for nothing. Named
    from the first move on, so an agent holding them (its components) keeps naming them after
    every round trip instead of carrying its own copy."""
    return [
        value for name, value in getattr(seen, "__dict__", {}).items()
        if not isinstance(value, _PLAIN) and getattr(state, name, None) is value
    ]


class BotRunner:
    """The bots of one table: their agents and the moves they are thinking about."""

    def __init__(self, table: TableRuntime) -> None:
        self.table = table
        self._agents: dict[int, Agent] = {}
        self._agent_locks: dict[int, threading.Lock] = {}
        self._bot_tasks: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self._fallbacks: dict[int, Agent | None] = {}

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
            seed = self._seed(f"agent:{seat}:{spec}")
            agent = self._agents[seat] = make_agent(spec, table.spec.id, seed)
        return agent

    def timeout_agent(self, seat: int) -> Agent:
        key = -1 - seat  # kept apart from the seat's own bot
        agent = self._agents.get(key)
        if agent is None:
            table = self.table
            spec = table.clock.timeout_agent
            agent = make_agent(spec, table.spec.id, self._seed(f"timeout:{seat}:{spec}"))
            self._agents[key] = agent
        return agent

    def _seed(self, purpose: str) -> int:
        """A seed drawn from the table's secret salt and seed (fresh randomness before the
        game has them): players cannot predict a bot, yet the same game replays the same."""
        data = self.table.data
        if data.seed is None or data.salt is None:
            return secrets.randbits(63)
        digest = hashlib.sha256(f"{data.salt}|{data.seed}|{purpose}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def in_worker(self, agent: Agent) -> bool:
        """Whether ``agent`` thinks in the worker processes (else in the bot threads)."""
        hub = self.table.hub
        if hub.bot_workers is None:
            return False
        name = parse_agent_spec(agent.spec)[0] if agent.spec else type(agent).__name__
        return name not in hub.settings.bot_inline_agents

    async def think(self, seat: int, agent: Agent) -> int:
        """``agent``'s choice for ``seat`` now, on the seat's determinized copy of the state
        (the bot cannot see or touch the live one, which the loop keeps changing), within
        the table's think time. In the workers, a move that fails or comes too late is played
        by the fallback bot; in the threads, by the decision's default."""
        table = self.table
        state = table.state
        assert state is not None
        default = state.default_action(seat)
        assert default is not None
        try:
            seen = state.determinize(seat, random.Random(self._seed(f"det:{seat}:{state.version}")))
        except Exception:
            log.exception("table %s: no copy of the state for the bot at seat %d", table.id, seat)
            return default
        legal = state.legal_actions(seat)
        if not self.in_worker(agent):
            return await self._think_in_thread(seat, agent, Observation(seen, seat), default)
        pool = table.hub.bot_workers
        assert pool is not None
        try:
            action, after = await pool.decide(
                agent, seen, seat, table.bot_think_s, shared_statics(state, seen)
            )
        except BotPoolError as exc:
            fallback = self.fallback_agent(seat)
            log.warning(
                "table %s: bot %s at seat %d, move %d: %s (%s); %s plays it",
                table.id, agent.spec or type(agent).__name__, seat, state.version, exc.kind,
                exc, fallback.spec if fallback is not None else "the default",
            )
            if fallback is None:
                return default
            return await self._think_in_thread(seat, fallback, Observation(seen, seat), default)
        self._keep(agent, after)
        if action not in legal:
            log.warning("table %s: bot at seat %d chose illegal %r", table.id, seat, action)
            return default
        return action

    def fallback_agent(self, seat: int) -> Agent | None:
        """The game's heuristic bot for ``seat``, or None for a game without one."""
        if seat not in self._fallbacks:
            table = self.table
            try:
                agent: Agent | None = make_agent(
                    FALLBACK_AGENT, table.spec.id, self._seed(f"fallback:{seat}")
                )
            except ValueError:
                agent = None
            self._fallbacks[seat] = agent
        return self._fallbacks[seat]

    def _keep(self, agent: Agent, after: Agent) -> None:
        """The agent as the worker left it replaces the one sent (its state goes on)."""
        for key, value in self._agents.items():
            if value is agent:
                self._agents[key] = after
                return

    async def _think_in_thread(
        self, seat: int, agent: Agent, obs: Observation, default: int
    ) -> int:
        table = self.table
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
