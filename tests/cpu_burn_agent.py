"""A test-only agent that burns CPU: it spins for ``ms`` milliseconds of its own process's
CPU time, then plays a random legal option from its seeded RNG. It stands in for a search
bot (pure-Python CPU, holding the GIL) in the bot pool's tests and the load benchmark, and
is registered for every game as ``burn`` (``burn:ms=200``) by importing this module.
"""

from __future__ import annotations

import time

from arabesque.agents.base import Agent, Observation
from arabesque.agents.registry import register_agent


class BurnAgent(Agent):
    """Spins ``ms`` ms of CPU, then chooses at random; counts its decisions (its state)."""

    def __init__(self, seed: int | None = None, ms: float = 50.0) -> None:
        super().__init__(seed)
        if ms < 0:
            raise ValueError(f"ms must be >= 0, got {ms}")
        self.ms = float(ms)
        #: Decisions made so far: state kept between moves, which must survive the workers.
        self.decisions = 0

    def act(self, obs: Observation) -> int:
        end = time.process_time() + self.ms / 1000.0
        spins = 0
        while time.process_time() < end:
            spins += 1
        self.decisions += 1
        if self.decisions % 3 == 0:
            # The count takes part in the choice, so a lost agent state changes the game.
            self.rng.random()
        return self.rng.choice(list(obs.legal))


register_agent(None, "burn", BurnAgent)
