"""Counting the points.

rulebook, "How do I count my points?": 1 point per card but the Sorcerer, the jewelry set
bonuses and 5 per strict stone majority; and the ring's 5 in the "My Precious" variant.
"""

from __future__ import annotations

from arabesque.games.magic_lamp.components import METALS, CardKind
from arabesque.games.magic_lamp.rules.cards import complete_sets, stone_counts
from arabesque.games.magic_lamp.state import MagicLampState

#: rulebook, "How do I count my points?": 5 bonus points per strict stone majority.
MAJORITY_BONUS = 5
#: rulebook, "My Precious" variant: the ring is worth 5 points at the end.
RING_BONUS = 5

_SORCERER = CardKind.SORCERER


def score_breakdowns(state: MagicLampState) -> list[dict[str, int]]:
    """rulebook, "How do I count my points?": 1 per card except the Sorcerer, set bonuses,
    5 per strict stone majority (none on a tie), and the ring's 5 in "My Precious"."""
    comp = state.comp
    n = state.num_players
    counts = [stone_counts(state, p) for p in range(n)]
    kinds = comp.kinds
    result = []
    for p in range(n):
        b: dict[str, int] = {
            "cards": sum(1 for c in state.holdings[p] if kinds[c] is not _SORCERER)
        }
        sets = complete_sets(state, p)
        for m, metal in enumerate(METALS):
            b[f"set_{metal}"] = sets[m] * comp.set_bonus[m]
        for t, name in enumerate(comp.stone_types):
            mine = counts[p][t]
            best_other = max((counts[q][t] for q in range(n) if q != p), default=0)
            b[f"majority_{name}"] = MAJORITY_BONUS if mine > 0 and mine > best_other else 0
        b["ring"] = RING_BONUS if state.params.my_precious and state.ring == p else 0
        result.append(b)
    return result
