"""Per-game evaluations for search bots: ``evaluate(state, seat) -> float in [0, 1]``.

A search bot cuts its rollouts short and values the position it reached with the game's
evaluation, which reads a (determinized) ``GameState`` directly — never the JSON view, which
costs a heuristic bot most of a millisecond — so it must take microseconds. Each game
registers its own from its ``bots`` package (``register_evaluation``), next to its heuristic
agent; this module never names a game. A game without one is valued by its current scores.

The helpers turn per-seat *potential* scores (points now plus what the position promises)
into a value: the seat's margin over its best rival through a logistic, and a finished game
by its ranking.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from arabesque.core.game import GameState

Evaluation = Callable[[GameState, int], float]
#: Every seat's value at once (what a search backs up), sharing the work between seats.
EvaluationAll = Callable[[GameState], list[float]]

_EVALUATIONS: dict[str, tuple[Evaluation, EvaluationAll]] = {}


def register_evaluation(
    game_id: str, evaluation: Evaluation, evaluation_all: EvaluationAll | None = None
) -> None:
    """Register ``game_id``'s evaluation (from the game's ``bots`` package), and optionally
    a faster form valuing every seat at once (it must agree with ``evaluation``)."""
    if evaluation_all is None:
        evaluation_all = _each_seat(evaluation)
    _EVALUATIONS[game_id] = (evaluation, evaluation_all)


def _each_seat(evaluation: Evaluation) -> EvaluationAll:
    return lambda state: [evaluation(state, seat) for seat in range(state.num_players)]


def evaluation_for(game_id: str) -> Evaluation:
    """The game's evaluation, or ``score_evaluation`` when it registered none."""
    return _entry(game_id)[0]


def evaluation_all_for(game_id: str) -> EvaluationAll:
    """Every seat's value at once, by the game's evaluation."""
    return _entry(game_id)[1]


def _entry(game_id: str) -> tuple[Evaluation, EvaluationAll]:
    from arabesque.agents.registry import load_game_bots

    load_game_bots(game_id)
    found = _EVALUATIONS.get(game_id)
    return found if found is not None else (score_evaluation, _each_seat(score_evaluation))


def outcome_value(state: GameState, seat: int) -> float:
    """A finished game for ``seat``: 1 for a win (shared or not); below that a little for
    each rival beaten, so rollouts still separate second places from last."""
    n = state.num_players
    if n == 1:
        return 1.0 if state.returns()[0] > 0 else 0.0
    rank = state.ranking()[seat]
    return 1.0 if rank == 1 else 0.2 * (n - rank) / (n - 1)


def outcome_values(state: GameState) -> list[float]:
    """``outcome_value`` of every seat (the ranking computed once)."""
    n = state.num_players
    if n == 1:
        return [1.0 if state.returns()[0] > 0 else 0.0]
    return [1.0 if r == 1 else 0.2 * (n - r) / (n - 1) for r in state.ranking()]


#: The share of a margin's value that is the seat's share of the two potentials, which
#: keeps telling positions apart where the logistic has saturated (far ahead or behind).
SHARE_WEIGHT = 0.2


def _margin(mine: float, best: float, scale: float) -> float:
    x = (mine - best) / scale
    logistic = 0.0 if x < -30.0 else 1.0 / (1.0 + math.exp(-x))
    low = min(mine, best, 0.0)
    total = mine + best - 2.0 * low
    share = 0.5 if total <= 0.0 else (mine - low) / total
    return (1.0 - SHARE_WEIGHT) * logistic + SHARE_WEIGHT * share


def margin_values(potentials: Sequence[float], scale: float) -> list[float]:
    """``margin_value`` of every seat."""
    out = []
    for seat, mine in enumerate(potentials):
        best = max(p for q, p in enumerate(potentials) if q != seat)
        out.append(_margin(mine, best, scale))
    return out


def margin_value(potentials: Sequence[float], seat: int, scale: float) -> float:
    """The seat's potential against its best rival's: mostly a logistic of the margin, of
    width ``scale`` (points), plus a little of the seat's share of the two potentials (see
    ``SHARE_WEIGHT``); an even race is 0.5."""
    mine = potentials[seat]
    best = max(p for q, p in enumerate(potentials) if q != seat)
    return _margin(mine, best, scale)


def score_evaluation(state: GameState, seat: int) -> float:
    """The generic fallback: the outcome when over, else the margin of the current scores."""
    if state.is_over:
        return outcome_value(state, seat)
    if state.num_players == 1:
        return 0.5
    return margin_value([s.total for s in state.scores()], seat, 5.0)
