"""The search bots' evaluation of an Ali Baba position, read from the state directly.

What the heuristic bot knows (evaluation.py), cheaply: set points grow with the square of a
kind's count, so a seat's *potential* is its score now plus the set points it may expect from
the tiles of its kinds still on the board, taking a fair share of them (the expected set
points of ``c + X`` tiles, X binomial, less those of ``c``). The value is the seat's
potential against the best rival's through a logistic (agents/evaluation).
"""

from __future__ import annotations

from arabesque.agents.evaluation import margin_value, margin_values, outcome_value, outcome_values
from arabesque.core.game import GameState
from arabesque.games.ali_baba.components import SET_POINTS
from arabesque.games.ali_baba.state import EMPTY, AliBabaState

#: Logistic width of the potential margin, in points (a 2-player game ends near 90).
SCALE = 8.0
#: How much of the expected set points still to come the potential counts.
HOPE = 0.6


def potentials(state: AliBabaState) -> list[float]:
    """Each seat's potential score (see the module's docstring)."""
    n = state.num_players
    kind = state.tiles.kind
    left: dict[int, int] = {}
    for t in state.cell:
        if t != EMPTY:
            k = kind[t]
            left[k] = left.get(k, 0) + 1
    q = 1.0 / n
    out = []
    for p in range(n):
        counts: dict[int, int] = {}
        for t in state.hands[p]:
            k = kind[t]
            counts[k] = counts.get(k, 0) + 1
        value = float(sum(state.points[p].values()))
        hope = 0.0
        for k, c in counts.items():
            value += SET_POINTS[min(c, len(SET_POINTS) - 1)]
            a = left.get(k, 0)
            if a:
                mean = a * q
                expected = ((c + mean) ** 2 + mean * (1.0 - q) + c + mean) / 2.0
                hope += expected - c * (c + 1) / 2.0
        out.append(value + HOPE * hope)
    return out


def evaluate(state: GameState, seat: int) -> float:
    """The value in [0, 1] of ``state`` for ``seat``: its outcome when over, else its
    potential margin over the best rival."""
    assert isinstance(state, AliBabaState)
    if state.is_over:
        return outcome_value(state, seat)
    return margin_value(potentials(state), seat, SCALE)


def evaluate_all(state: GameState) -> list[float]:
    """``evaluate`` for every seat at once (the potentials computed once)."""
    assert isinstance(state, AliBabaState)
    if state.is_over:
        return outcome_values(state)
    return margin_values(potentials(state), SCALE)
