"""Play one game between agents through the core contract.

In a simultaneous phase every acting seat chooses from its own view before any of those
choices is applied, so no agent sees another's secret commitment.
"""

from __future__ import annotations

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
) -> GameState:
    """Play a game to the end; returns the final state (its ``history`` is the record).
    Without ``log_events`` the game keeps no event log (simulations need only the actions
    and the result), which saves the cost of making the events."""
    if len(agents) != params.num_players:
        raise ValueError(
            f"{params.num_players} players need {params.num_players} agents, got {len(agents)}"
        )
    state = spec.new_game(params, seed=seed)
    state.logging = log_events
    limit = spec.max_game_length(params)
    while not state.is_over:
        acting = sorted(state.to_act())
        choices = [(seat, agents[seat].act(Observation(state, seat))) for seat in acting]
        for seat, action in choices:
            state.apply(seat, action)
            if on_action is not None:
                on_action(state, seat, action)
        if len(state.history) > limit:
            raise RuntimeError(f"game exceeded its declared max length {limit}")
    return state
