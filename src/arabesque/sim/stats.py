"""Small statistics for simulation reports: Wilson intervals, means and spreads."""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Chosen over the normal approximation because win rates near 0 or 1 and small game counts
    are common in balance runs, where the normal interval leaves [0, 1] or collapses to a point.
    With no trials nothing is known, so the interval is the whole of [0, 1].
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # Rounding can push the bounds a hair past the proportion at p = 0 or 1.
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def stdev(values: Sequence[float]) -> float | None:
    """Sample standard deviation (n - 1); 0.0 for a single value, None for none."""
    n = len(values)
    if n == 0:
        return None
    if n == 1:
        return 0.0
    m = sum(values) / n
    return math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))


def median(values: Sequence[float]) -> float | None:
    """The middle value (the mean of the two middle ones for an even count); None for none.
    Game lengths are skewed (a few long games), so the median says "a typical game" better
    than the mean."""
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
