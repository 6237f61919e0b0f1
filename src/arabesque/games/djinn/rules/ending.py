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

from collections.abc import Callable
from typing import NamedTuple

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


def _equipment_types(s: DjinnState, p: int) -> list[int]:
    """How many Equipment cards of each type ``p`` holds."""
    equipment = s.comp.equipment
    types = [0, 0, 0]
    for e in s.equip_of[p]:
        types[equipment[e].type] += 1
    return types


def _passages_placed(s: DjinnState, p: int) -> int:
    kept = len(LOCATIONS) - len(s.removed_passages)
    return kept - len(s.passages_left[p])


#: What each scoring condition counts, by its name without ``_at_least`` / ``_at_most``.
_MEASURES: dict[str, Callable[[DjinnState, int], int]] = {
    "equipment_sets": lambda s, p: min(_equipment_types(s, p)),
    "passages_placed": _passages_placed,
    "key_mages": lambda s, p: sum(s.comp.mage_cards[c].key for c in s.mage_of[p]),
    "inactive_circles": lambda s, p: sum(c in (INACTIVE, COVERED) for c in s.circles[p]),
    "active_circles": lambda s, p: sum(c not in (INACTIVE, COVERED) for c in s.circles[p]),
    "capacity": lambda s, p: s.capacity[p] + (1 if s.flipped[p] else 0),
    "base": lambda s, p: s.base[p],
    "per_key": lambda s, p: s.keys[p],
    "keys": lambda s, p: s.keys[p],
    "per_active_mage": lambda s, p: sum(s.mage_active[c] for c in s.mage_of[p]),
    "per_unused_bottle_cork": lambda s, p: sum(s.bottles[p]) + s.corks[p],
    "mages": lambda s, p: len(s.mage_of[p]),
    "trophies": lambda s, p: len(s.trophies_of[p]),
    "coins": lambda s, p: s.coins[p],
    "equipment_types": lambda s, p: sum(1 for x in _equipment_types(s, p) if x),
    "equipment_per_third": lambda s, p: sum(x // 3 for x in _equipment_types(s, p)),
}


class _Reading(NamedTuple):
    """A condition's text read once: what it counts, and how it scores."""

    measure: Callable[[DjinnState, int], int]
    #: A threshold card met by at most its threshold (else at least).
    at_most: bool
    #: A counting card: points per unit, up to its cap (else a threshold card).
    counting: bool


_READINGS: dict[str, _Reading] = {}


def _reading(condition: str) -> _Reading:
    found = _READINGS.get(condition)
    if found is None:
        count = _MEASURES.get(condition.rsplit("_at_", 1)[0])
        if count is None:
            raise AssertionError(condition)
        counting = condition.startswith("per_") or condition == "equipment_per_third"
        found = _READINGS[condition] = _Reading(count, condition.endswith("_at_most"), counting)
    return found


def measure(s: DjinnState, p: int, condition: str) -> int:
    return _reading(condition).measure(s, p)


def condition_met(s: DjinnState, p: int, cond: Condition) -> bool:
    reading = _reading(cond.condition)
    value = reading.measure(s, p)
    if reading.at_most:
        return value <= cond.threshold
    return value >= cond.threshold


def condition_points(s: DjinnState, p: int, cond: Condition) -> int:
    """rulebook §Scoring cards: a threshold card gives its points; a counting card gives its
    points per unit (per 3rd card for the equipment one), up to its cap."""
    return _points(s, p, cond, _reading(cond.condition))


def _points(s: DjinnState, p: int, cond: Condition, reading: _Reading) -> int:
    """``condition_points`` with the condition already read."""
    value = reading.measure(s, p)
    if reading.counting:
        points = cond.points * value
        return min(points, cond.cap) if cond.cap else points
    met = value <= cond.threshold if reading.at_most else value >= cond.threshold
    return cond.points if met else 0


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
    trophies = comp.trophies
    # Each open card's condition read once for all players (``_reading``).
    scoring = [
        (comp.scoring_cards[c], _reading(comp.scoring_cards[c].condition)) for c in s.scoring
    ]
    out = []
    for p in range(s.num_players):
        known = viewer in (ALL_SEEING, p) or s.over
        breakdown = {
            "trophies": sum([trophies[t].points for t in s.trophies_of[p]]),
            "bottled": 10 * (sum(s.filled[p]) + sum(s.filled_boss[p])),
            "circles": 3 * sum([1 for c in s.circles[p] if c >= 0]),
            "unused": sum(s.bottles[p]) + s.corks[p],
            "scoring_cards": sum([_points(s, p, card, r) for card, r in scoring]),
            "secret_card": secret_points(s, p) if known else 0,
        }
        if s.num_players == 1:
            breakdown["tom"] = 10 * len(s.tom_deck) if s.won else 0
        out.append(breakdown)
    return out
