"""Uniformly random play over the legal actions."""

from __future__ import annotations

from arabesque.agents.base import Agent, Observation


class RandomAgent(Agent):
    def act(self, obs: Observation) -> int:
        return self.rng.choice(obs.legal)
