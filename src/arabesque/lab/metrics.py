"""Per-game metrics: each game says what a finished game measured, with no game named here.

A game's ``metrics`` module (``games/<game>/metrics.py``, found like its ``bots`` package)
calls ``register_metrics`` with a ``GameMetrics``: ``measure(final_state)`` gives a flat
``{name: number}`` of counts for one game (summed or averaged over games by the lab),
``end_reason(final_state)`` says why the game ended, and ``ratios`` name the rates worth
reporting as a ratio of two sums over games (a bust rate is busts / searches over all games,
not the mean of per-game rates, which would weigh a game with one search like one with ten).

Metrics read the final state and its event log (the lab plays with the log on). They are
statistics of the whole game for designers, never shown to a player during play, so they read
every event, hidden or not.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from arabesque.core.game import GameState
from arabesque.core.registry import get_game


@dataclass(frozen=True)
class Ratio:
    """``label`` = sum of the ``numerator`` metrics / sum of the ``denominator`` metrics, over
    the games of a run. ``group`` gathers ratios drawn in one plot (e.g. every chest's bust
    rate); ``percent`` shows it as a percentage."""

    label: str
    #: Metric names; ``*`` in them (and in the label) stands for any name (``expand_ratios``).
    numerator: tuple[str, ...]
    denominator: tuple[str, ...]
    group: str
    percent: bool = False


@dataclass(frozen=True)
class GameMetrics:
    game_id: str
    measure: Callable[[GameState], dict[str, float]]
    end_reason: Callable[[GameState], str]
    ratios: tuple[Ratio, ...] = ()
    #: Metric-name prefixes drawn together as a group of per-game means (e.g. "take.kind."),
    #: mapped to a title.
    groups: Mapping[str, str] = field(default_factory=dict)


#: The metric a game whose start player is not seat 0 sets to the start player's seat, so the
#: lab can report the win rate by place in the turn order (the start player's edge).
START_SEAT = "start_seat"

_REGISTRY: dict[str, GameMetrics] = {}


def register_metrics(metrics: GameMetrics) -> GameMetrics:
    _REGISTRY[metrics.game_id] = metrics
    return metrics


def _no_metrics(game_id: str) -> GameMetrics:
    return GameMetrics(game_id, measure=lambda _state: {}, end_reason=lambda _state: "over")


def game_metrics(game_id: str) -> GameMetrics:
    """The game's metrics (loading its ``metrics`` module on first use); a game without one
    measures nothing and ends for the reason "over"."""
    spec = get_game(game_id)
    if game_id not in _REGISTRY:
        package = spec.state_type.__module__.rsplit(".", 1)[0]
        try:
            importlib.import_module(f"{package}.metrics")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.metrics":
                raise
    return _REGISTRY.get(game_id) or _no_metrics(game_id)


def expand_ratios(ratios: Sequence[Ratio], names: Iterable[str]) -> list[Ratio]:
    """Ratios with ``*`` in their metric names (one per thing a game may or may not have,
    like Djinn's scoring cards) made into one ratio per name that occurs in ``names``; the
    label's ``*`` becomes that name."""
    known = sorted(set(names))
    out: list[Ratio] = []
    for ratio in ratios:
        pattern = ratio.numerator[0]
        if "*" not in pattern:
            out.append(ratio)
            continue
        head, _, tail = pattern.partition("*")
        for name in known:
            if name.startswith(head) and name.endswith(tail) and len(name) > len(head + tail):
                part = name[len(head) : len(name) - len(tail)]
                out.append(
                    Ratio(
                        ratio.label.replace("*", part),
                        tuple(k.replace("*", part) for k in ratio.numerator),
                        tuple(k.replace("*", part) for k in ratio.denominator),
                        ratio.group,
                        ratio.percent,
                    )
                )
    return out


def ratio_value(ratio: Ratio, totals: Mapping[str, float]) -> float | None:
    """The ratio over summed metrics; None when the denominator is 0 (nothing to rate)."""
    den = sum(totals.get(k, 0.0) for k in ratio.denominator)
    if den == 0:
        return None
    return sum(totals.get(k, 0.0) for k in ratio.numerator) / den
