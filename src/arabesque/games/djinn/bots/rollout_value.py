"""The search bots' evaluation of a Djinn position, read from the state directly.

What the heuristic bot knows (evaluation.py), cheaply. With rivals: each seat's *potential*
score is its score now (trophies, bottled and circled Djinn, unused bottles and corks, the
scoring cards and its face-down card, all known in a determinized copy) plus part of what
its holdings promise: a circled Djinn is on its way to a bottle, magic catches Djinn, and a
bottle with a cork is room for the next one. The value is the seat's potential against the
best rival's through a logistic (agents/evaluation). Solo, the game is a race against Tom's
deck: the bosses still at the round spaces against the cards Tom has left.
"""

from __future__ import annotations

import math

from arabesque.agents.evaluation import margin_value, margin_values, outcome_value, outcome_values
from arabesque.core.game import GameState
from arabesque.games.djinn.actions import ROUNDS
from arabesque.games.djinn.components import BOSS
from arabesque.games.djinn.rules import score_breakdowns
from arabesque.games.djinn.state import DjinnState

#: Logistic width of the potential margin, in points (a game ends near 60-150).
SCALE = 10.0
#: What a Djinn in a circle promises on top of its 3 points (it may be bottled for 10).
CIRCLED = 1.5
#: Points per magic (what catches Djinn), per coin and scroll (what pays), per key.
MAGIC = 0.8
COIN = 0.4
SCROLL = 0.4
KEY = 0.6
#: A bottle with a cork is room for the next Djinn (on top of its unused point each).
KIT = 1.5
#: Solo: Tom's cards a boss still on the board is worth, and the logistic's width.
SOLO_BOSS = 2.0
SOLO_SCALE = 2.5


def potentials(state: DjinnState) -> list[float]:
    """Each seat's potential score (see the module's docstring)."""
    out = []
    for p, breakdown in enumerate(score_breakdowns(state)):
        circled = sum(1 for c in state.circles[p] if c >= 0)
        kits = min(sum(state.bottles[p]), state.corks[p])
        out.append(
            sum(breakdown.values())
            + CIRCLED * circled
            + MAGIC * state.magic[p]
            + COIN * state.coins[p]
            + SCROLL * state.scrolls[p]
            + KEY * state.keys[p]
            + KIT * kits
        )
    return out


def solo_value(state: DjinnState) -> float:
    """Solo: Tom's cards left against the bosses still to remove, with a little for the
    magic that removes them."""
    bosses = sum(state.djinn[r][BOSS] for r in ROUNDS)
    x = len(state.tom_deck) - SOLO_BOSS * bosses + 0.1 * state.magic[0]
    return 1.0 / (1.0 + math.exp(-x / SOLO_SCALE))


def evaluate(state: GameState, seat: int) -> float:
    """The value in [0, 1] of ``state`` for ``seat``: its outcome when over, else its
    potential margin over the best rival (solo: the race against Tom)."""
    assert isinstance(state, DjinnState)
    if state.over:
        return outcome_value(state, seat)
    if state.num_players == 1:
        return solo_value(state)
    return margin_value(potentials(state), seat, SCALE)


def evaluate_all(state: GameState) -> list[float]:
    """``evaluate`` for every seat at once (the potentials computed once)."""
    assert isinstance(state, DjinnState)
    if state.over:
        return outcome_values(state)
    if state.num_players == 1:
        return [solo_value(state)]
    return margin_values(potentials(state), SCALE)
