"""Play one game between agents through the core contract.

In a simultaneous phase every acting seat chooses from its own view before any of those
choices is applied, so no agent sees another's secret commitment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from arabesque.agents.base import Agent, Observation
from arabesque.core.game import GameSpec, GameState, Params


def play_game(
    spec: GameSpec,
    params: Params,
    agents: Sequence[Agent],
    seed: int,
    on_action: Callable[[GameState, int, int], None] | None = None,
    log_events: bool = True,
    on_decision: Callable[[int, float], None] | None = None,
) -> GameState:
    """Play a game to the end; returns the final state (its ``history`` is the record).
    Without ``log_events`` the game keeps no event log (simulations need only the actions
    and the result), which saves the cost of making the events. ``on_decision`` is told each
    seat's thinking time (seconds) for every action it chose."""
    if len(agents) != params.num_players:
        raise ValueError(
            f"{params.num_players} players need {params.num_players} agents, got {len(agents)}"
        )
    state = spec.new_game(params, seed=seed)
    state.logging = log_events
    limit = spec.max_game_length(params)
    while not state.is_over:
        acting = sorted(state.to_act())
        if on_decision is None:
            choices = [(seat, agents[seat].act(Observation(state, seat))) for seat in acting]
        else:
            choices = []
            for seat in acting:
                start = time.perf_counter()
                choices.append((seat, agents[seat].act(Observation(state, seat))))
                on_decision(seat, time.perf_counter() - start)
        for seat, action in choices:
            state.apply(seat, action)
            if on_action is not None:
                on_action(state, seat, action)
        if len(state.history) > limit:
            raise RuntimeError(f"game exceeded its declared max length {limit}")
    return state
