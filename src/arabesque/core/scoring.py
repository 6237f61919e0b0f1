"""Scores with a per-player breakdown, and rankings with ties."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Score:
    """A player's final (or current) score: ``total`` is always the sum of ``breakdown``."""

    total: int
    breakdown: Mapping[str, int] = field(default_factory=dict)

    @staticmethod
    def of(breakdown: Mapping[str, int]) -> Score:
        return Score(total=sum(breakdown.values()), breakdown=dict(breakdown))

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": dict(self.breakdown)}


def rank_by_key(keys: Sequence[Any]) -> list[int]:
    """Competition ranking (1 = best) from per-player sort keys, higher key is better.

    Players with equal keys share a rank ("1, 1, 3"), which is how the rulebooks' shared
    victories are expressed.
    """
    order = sorted(range(len(keys)), key=lambda p: keys[p], reverse=True)
    ranks = [0] * len(keys)
    for position, player in enumerate(order):
        if position > 0 and keys[player] == keys[order[position - 1]]:
            ranks[player] = ranks[order[position - 1]]
        else:
            ranks[player] = position + 1
    return ranks


def winners(ranks: Sequence[int]) -> list[int]:
    """The players ranked first (several on a shared victory)."""
    return [p for p, r in enumerate(ranks) if r == 1]


def rank_scores(
    scores: Sequence[Score], tie_break: Callable[[int], Any] | None = None
) -> list[int]:
    """Rank on total score, then on ``tie_break(player)`` (higher is better) when given."""
    if tie_break is None:
        return rank_by_key([s.total for s in scores])
    return rank_by_key([(s.total, tie_break(p)) for p, s in enumerate(scores)])
