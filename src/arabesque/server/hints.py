"""Hints on the server (docs/protocol.md, "Hints"): the search bot's best options for a seat,
computed off the event loop and cached per position.

A hint is agents/hint.py's ``hint`` for the seat, at the server's ``hint_level`` (``hard``).
It is asked for in two places, each of which decides who may see what (app.py): a player's
own seat at a table created with hints allowed, and any seat at any step of a finished
game's replay (or of a record the visitor uploaded). Here the seat's part of the position is
all that is used: the hint runs on the seat's determinized copy (what the seat knows, the
rest dealt again), never the live state, in the hub's bot worker processes like a search
bot's move (``HintAgent`` goes there and back with the hint), or in the bot threads when the
server runs no workers, within ``hint_think_s``.

Cache: a hint is a function of what the seat sees and its seed, which is drawn from that
(``position_seed``), so the seed names the position: the last ``hint_cache`` hints are kept
by it, and a request for a hint being computed waits for that one instead of starting
another. Requests are rate-limited per client address by app.py (``hints`` limit).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from typing import TYPE_CHECKING

from arabesque.agents.base import Observation
from arabesque.agents.hint import Hint, HintAgent, position_seed
from arabesque.core.game import GameState
from arabesque.server.botpool import BotPoolError
from arabesque.server.botrunner import shared_statics
from arabesque.server.errors import LobbyError

if TYPE_CHECKING:
    from arabesque.server.hub import Hub

log = logging.getLogger("arabesque.server")


class Hints:
    """The hints of one server process: computing them and the cache."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._cache: OrderedDict[tuple[str, int], Hint] = OrderedDict()
        self._pending: dict[tuple[str, int], asyncio.Future[Hint]] = {}
        #: Counters for tests and logs: hints computed, and answered from the cache.
        self.computed = 0
        self.hits = 0

    def position(self, state: GameState, seat: int) -> tuple[int, GameState]:
        """The position's seed and the seat's determinized copy to compute on (called on
        the loop for a live table, whose state the loop changes; in a thread for a replay).
        ``LobbyError`` when the seat has nothing to decide."""
        if state.decision(seat) is None:
            raise LobbyError(
                409, "nothing_to_decide", f"seat {seat} has nothing to decide here: no hint"
            )
        seed = position_seed(Observation(state, seat))
        return seed, state.determinize(seat, random.Random(seed))

    async def hint(self, state: GameState, seat: int, seed: int, seen: GameState) -> Hint:
        """The hint for ``seat`` at the position named by ``seed``: from the cache, the
        computation already under way, or a new one on ``seen`` (the seat's copy; ``state``
        only names the statics it shares with the game)."""
        level = self.hub.settings.hint_level
        key = (level, seed)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.hits += 1
            return cached
        pending = self._pending.get(key)
        if pending is not None:
            self.hits += 1
            return await asyncio.shield(pending)
        future: asyncio.Future[Hint] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            found = await self._compute(state, seat, seen)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # a waiter may not be there to read it
            raise
        finally:
            del self._pending[key]
        future.set_result(found)
        self.computed += 1
        self._cache[key] = found
        while len(self._cache) > self.hub.settings.hint_cache:
            self._cache.popitem(last=False)
        return found

    async def _compute(self, state: GameState, seat: int, seen: GameState) -> Hint:
        settings = self.hub.settings
        agent = HintAgent(settings.hint_level, settings.hint_top)
        pool = self.hub.bot_workers
        try:
            if pool is not None:
                _, after = await pool.decide(
                    agent, seen, seat, settings.hint_think_s, shared_statics(state, seen)
                )
                assert isinstance(after, HintAgent)
                agent = after
            else:
                loop = asyncio.get_running_loop()
                await asyncio.wait_for(
                    loop.run_in_executor(self.hub.bot_pool, agent.act, Observation(seen, seat)),
                    settings.hint_think_s,
                )
        except (BotPoolError, TimeoutError) as exc:
            log.warning("hint for seat %d: %s", seat, exc)
            raise LobbyError(
                503, "hint_failed", "the hint could not be worked out in time; try again"
            ) from None
        if agent.result is None:
            raise LobbyError(503, "hint_failed", "the hint could not be worked out; try again")
        return agent.result
