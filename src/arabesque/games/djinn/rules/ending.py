"""The end of the game and the final score (rulebook §END OF THE GAME, §Final Score,
§Scoring Cards; the character tile's face-down scoring cards).

Owns the trigger of the end (``check_bosses``: the last boss gone), the game's end
(``finish``) and the scores (``score_breakdowns`` with the scoring cards' conditions:
``measure``, ``condition_met``, ``condition_points``, ``secret_points``). The stages between
(finish the round, one more round, the final Magic Source visit) are counted by the turn's
end, turn.py (``begin_turn``, ``end_turn``), and the final visit takes no trophy
(side_actions.py).
"""

from __future__ import annotations

from arabesque.core.decision import DecisionStack
from arabesque.games.djinn.actions import ROUNDS
from arabesque.games.djinn.components import BOSS, LOCATIONS, Condition
from arabesque.games.djinn.rules.queries import log
from arabesque.games.djinn.state import (
    COVERED,
    FINISH_ROUND,
    INACTIVE,
    NOBODY,
    OVER,
    PLAYING,
    DjinnState,
)

#: ``score_breakdowns`` for full knowledge (the final scores, the ranking).
ALL_SEEING = -2


def check_bosses(s: DjinnState) -> None:
    """rulebook §END OF THE GAME: with no boss left at the round spaces (ruling D16), the
    current round is finished, then one more is played."""
    if s.stage == PLAYING and not any(s.djinn[r][BOSS] for r in ROUNDS):
        s.stage = FINISH_ROUND
        log(s, "last_boss_gone", round=s.round)


def finish(s: DjinnState) -> None:
    s.over = True
    s.stage = OVER
    s.stack = DecisionStack()
    s.options, s.actors = (), NOBODY
    log(s, "end", scores=[sum(b.values()) for b in score_breakdowns(s)], won=s.won)


def measure(s: DjinnState, p: int, condition: str) -> int:
    comp = s.comp
    types = [0, 0, 0]
    for e in s.equip_of[p]:
        types[comp.equipment[e].type] += 1
    name = condition.rsplit("_at_", 1)[0]
    if name == "equipment_sets":
        return min(types)
    if name == "passages_placed":
        kept = len(LOCATIONS) - len(s.removed_passages)
        return kept - len(s.passages_left[p])
    if name == "key_mages":
        return sum(comp.mage_cards[c].key for c in s.mage_of[p])
    if name == "inactive_circles":
        return sum(c in (INACTIVE, COVERED) for c in s.circles[p])
    if name == "active_circles":
        return sum(c not in (INACTIVE, COVERED) for c in s.circles[p])
    if name == "capacity":
        return s.capacity[p] + (1 if s.flipped[p] else 0)
    if name == "base":
        return s.base[p]
    if name in ("per_key", "keys"):
        return s.keys[p]
    if name == "per_active_mage":
        return sum(s.mage_active[c] for c in s.mage_of[p])
    if name == "per_unused_bottle_cork":
        return sum(s.bottles[p]) + s.corks[p]
    if name == "mages":
        return len(s.mage_of[p])
    if name == "trophies":
        return len(s.trophies_of[p])
    if name == "coins":
        return s.coins[p]
    if name == "equipment_types":
        return sum(1 for x in types if x)
    if name == "equipment_per_third":
        return sum(x // 3 for x in types)
    raise AssertionError(condition)


def condition_met(s: DjinnState, p: int, cond: Condition) -> bool:
    value = measure(s, p, cond.condition)
    if cond.condition.endswith("_at_most"):
        return value <= cond.threshold
    return value >= cond.threshold


def condition_points(s: DjinnState, p: int, cond: Condition) -> int:
    """rulebook §Scoring cards: a threshold card gives its points; a counting card gives its
    points per unit (per 3rd card for the equipment one), up to its cap."""
    if cond.condition.startswith("per_") or cond.condition == "equipment_per_third":
        points = cond.points * measure(s, p, cond.condition)
        return min(points, cond.cap) if cond.cap else points
    return cond.points if condition_met(s, p, cond) else 0


def secret_points(s: DjinnState, p: int) -> int:
    """The character tile's face-down scoring cards: the player decides at the end which one
    scores, and more points is always the better choice (ruling D26), so the better one."""
    cards = s.comp.scoring_cards
    return max((condition_points(s, p, cards[c]) for c in s.secret[p]), default=0)


def score_breakdowns(s: DjinnState, viewer: int = ALL_SEEING) -> list[dict[str, int]]:
    """rulebook §Final score (and §Solo: 10 per card left in Tom's deck after a win).
    ``viewer`` (a seat, -1 for a spectator) gets the points it may know: while the game runs,
    another player's face-down scoring cards count 0 for it."""
    comp = s.comp
    out = []
    for p in range(s.num_players):
        known = viewer in (ALL_SEEING, p) or s.over
        breakdown = {
            "trophies": sum(comp.trophies[t].points for t in s.trophies_of[p]),
            "bottled": 10 * (sum(s.filled[p]) + sum(s.filled_boss[p])),
            "circles": 3 * sum(1 for c in s.circles[p] if c >= 0),
            "unused": sum(s.bottles[p]) + s.corks[p],
            "scoring_cards": sum(condition_points(s, p, comp.scoring_cards[c]) for c in s.scoring),
            "secret_card": secret_points(s, p) if known else 0,
        }
        if s.num_players == 1:
            breakdown["tom"] = 10 * len(s.tom_deck) if s.won else 0
        out.append(breakdown)
    return out
