"""Human-like reaction times for real-time actions (the lamp race).

Bots must not be superhuman: they report a reaction time drawn from a log-normal profile with
a floor. The defaults follow typical human choice-reaction times to a visual signal (median
around 0.6 s for spotting a matching die among several, rarely under 0.3 s).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class ReactionProfile:
    median_ms: float = 600.0
    sigma: float = 0.3  # spread of the log-normal
    floor_ms: float = 300.0  # nobody reacts faster than this
    ceiling_ms: float = 2500.0

    def __post_init__(self) -> None:
        if not 0 < self.floor_ms <= self.median_ms <= self.ceiling_ms:
            raise ValueError(
                "reaction profile needs 0 < floor_ms <= median_ms <= ceiling_ms, got "
                f"{self.floor_ms}, {self.median_ms}, {self.ceiling_ms}"
            )
        if self.sigma < 0:
            raise ValueError(f"reaction sigma must be >= 0, got {self.sigma}")

    def sample(self, rng: random.Random) -> float:
        ms = math.exp(rng.gauss(math.log(self.median_ms), self.sigma))
        return min(max(ms, self.floor_ms), self.ceiling_ms)
