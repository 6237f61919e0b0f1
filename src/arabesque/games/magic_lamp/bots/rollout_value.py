"""The search bots' evaluation of a Magic Lamp position, read from the state directly.

What the heuristic bot knows (evaluation.py), cheaply: each seat's *potential* score is a
point per card, each complete set's bonus plus a share of it for pieces held beyond complete
sets (less as the game nears its end), each stone majority's bonus smoothed by the lead and
by how far the game is (a lead of one is often lost early, rarely late), and the ring. The
value is the seat's potential against the best rival's through a logistic (agents/evaluation).
"""

from __future__ import annotations

from arabesque.agents.evaluation import margin_value, margin_values, outcome_value, outcome_values
from arabesque.core.game import GameState
from arabesque.games.magic_lamp.bots.evaluation import _EARLY_MAJORITY, _SET_PROGRESS
from arabesque.games.magic_lamp.components import JEWELS, METALS, SORCERER_FROM_BOTTOM, CardKind
from arabesque.games.magic_lamp.rules import MAJORITY_BONUS, RING_BONUS
from arabesque.games.magic_lamp.rules.cards import stone_counts
from arabesque.games.magic_lamp.state import MagicLampState

_SORCERER = CardKind.SORCERER
_NUM_JEWELS = len(JEWELS)
_NUM_METALS = len(METALS)
#: Logistic width of the potential margin, in points (a game ends near 20-35 points).
SCALE = 4.0
#: The majority chance by lead, clipped to the table's range.
_EARLY = [_EARLY_MAJORITY[max(-2, min(3, lead))] for lead in range(-2, 4)]


def progress(state: MagicLampState) -> float:
    """How far the game is: the nearest Sorcerer's depth against where it starts (1 once
    the cave is closed)."""
    if state.cave_closed:
        return 1.0
    comp = state.comp
    sorcerers = comp.sorcerers
    nearest = -1
    for c, deck in enumerate(state.decks):
        s = sorcerers[c]
        if s in deck:
            above = len(deck) - 1 - deck.index(s)
            if nearest < 0 or above < nearest:
                nearest = above
    if nearest < 0:
        return 1.0
    start = min(len(ids) for ids in comp.chest_cards) - 1 - SORCERER_FROM_BOTTOM
    return min(1.0, max(0.0, 1.0 - nearest / max(1, start)))


def potentials(state: MagicLampState) -> list[float]:
    """Each seat's potential score (see the module's docstring)."""
    comp = state.comp
    n = state.num_players
    kinds = comp.kinds
    slot_of = comp.jewel_slot
    set_bonus = comp.set_bonus
    done = progress(state)
    mix = done * done
    set_share = 1.0 - 0.7 * done
    counts = [stone_counts(state, p) for p in range(n)]
    out = []
    for p in range(n):
        slots = [0] * (_NUM_METALS * _NUM_JEWELS)
        cards = 0
        for c in state.holdings[p]:
            if kinds[c] is not _SORCERER:
                cards += 1
            s = slot_of[c]
            if s >= 0:
                slots[s] += 1
        value = float(cards)
        for m in range(_NUM_METALS):
            pieces = slots[m * _NUM_JEWELS : (m + 1) * _NUM_JEWELS]
            full = min(pieces)
            extra = sum(1 for x in pieces if x > full)
            value += set_bonus[m] * (full + _SET_PROGRESS[min(extra, 2)] * set_share)
        mine_all = counts[p]
        for t, mine in enumerate(mine_all):
            if mine <= 0:
                continue
            best = max(counts[q][t] for q in range(n) if q != p) if n > 1 else 0
            lead = mine - best
            early = _EARLY[max(-2, min(3, lead)) + 2]
            value += MAJORITY_BONUS * ((1.0 - mix) * early + mix * (1.0 if lead > 0 else 0.0))
        if state.params.my_precious and state.ring == p:
            value += RING_BONUS
        out.append(value)
    return out


def evaluate(state: GameState, seat: int) -> float:
    """The value in [0, 1] of ``state`` for ``seat``: its outcome when over, else its
    potential margin over the best rival."""
    assert isinstance(state, MagicLampState)
    if state.over:
        return outcome_value(state, seat)
    return margin_value(potentials(state), seat, SCALE)


def evaluate_all(state: GameState) -> list[float]:
    """``evaluate`` for every seat at once (the potentials computed once)."""
    assert isinstance(state, MagicLampState)
    if state.over:
        return outcome_values(state)
    return margin_values(potentials(state), SCALE)
