"""Playing a game to the end with agents, as the simulation runner does, for bot tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from arabesque.agents.base import Agent, Observation
from arabesque.core.game import GameState

S = TypeVar("S", bound=GameState)


def drive(
    state: S,
    agents: Sequence[Agent],
    check: Callable[[S, int, Observation, int], None],
    max_steps: int = 100_000,
) -> int:
    """Play to the end like the runner (simultaneous choices made before any is applied),
    calling ``check(state, seat, obs, action)`` on every choice first. Returns the steps."""
    steps = 0
    while not state.is_over and steps < max_steps:
        acting = sorted(state.to_act())
        choices = []
        for seat in acting:
            obs = Observation(state, seat)
            action = agents[seat].act(obs)
            check(state, seat, obs, action)
            choices.append((seat, action))
        for seat, action in choices:
            state.apply(seat, action)
            steps += 1
    return steps
