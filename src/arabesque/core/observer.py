"""Observers: the one place per game that says what a seat may know.

An observer is built once per game and params. For a seat (or ``None``, a spectator) it gives
the JSON view (front ends, bots, the server), a fixed-shape float32 NumPy vector (RL), and a
short text rendering (logs, terminal summaries, language agents). The tensor is written from
the state directly, never by walking the JSON view, and its layout is a list of named slices
(``ObservationLayout``) that the game documents and ``arabesque observation GAME`` prints.

Every field declares finite bounds (``low``/``high``): RL spaces are built from them
(``Box(layout.low, layout.high)``), and a learner may normalise by them. A bound is a count
the components or params set; where the rules set no maximum (a score, coins), the field is
declared ``clip=True`` and its values are clipped to ``high`` by ``Observer.tensor`` (the
game's docs name the clip). ``conformance.check_observation`` checks along random playouts
that every unclipped field stays within its bounds as written, so a bound cannot quietly lie.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from arabesque.core.game import GameState, Params

S = TypeVar("S", bound="GameState")

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Field:
    """One named part of the observation vector."""

    name: str
    start: int
    size: int
    doc: str
    #: Every value of the field lies in [low, high] (finite).
    low: float = 0.0
    high: float = 1.0
    #: True when the rules set no maximum and ``high`` is a chosen clip: ``Observer.tensor``
    #: clips values above it. False: the bounds hold by construction (checked by the kit).
    clip: bool = False

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class ObservationLayout:
    """Named slices of a flat observation vector, declared in order."""

    def __init__(self) -> None:
        self._fields: dict[str, Field] = {}
        self.size = 0
        self._bounds: tuple[FloatArray, FloatArray] | None = None

    def add(
        self,
        name: str,
        size: int,
        doc: str,
        *,
        low: float = 0.0,
        high: float = 1.0,
        clip: bool = False,
    ) -> slice:
        """Declare the next ``size`` floats as ``name``; returns their slice. Every value of
        the field lies in [``low``, ``high``] (the default suits one-hots and flags); with
        ``clip`` the rules set no maximum and ``high`` is where the tensor clips it."""
        if name in self._fields:
            raise ValueError(f"observation field {name!r} declared twice")
        if size < 0:
            raise ValueError(f"observation field {name!r} has a negative size")
        if not (math.isfinite(low) and math.isfinite(high) and low <= high):
            raise ValueError(f"observation field {name!r} needs finite bounds low <= high")
        field = Field(name, self.size, size, doc, float(low), float(high), clip)
        self._fields[name] = field
        self.size += size
        self._bounds = None
        return field.slice

    def __getitem__(self, name: str) -> slice:
        return self._fields[name].slice

    def __iter__(self) -> Iterator[Field]:
        return iter(self._fields.values())

    def __contains__(self, name: object) -> bool:
        return name in self._fields

    @property
    def slices(self) -> dict[str, slice]:
        return {f.name: f.slice for f in self._fields.values()}

    def describe(self) -> list[dict[str, Any]]:
        """JSON-ready documentation of the layout."""
        return [
            {
                "name": f.name,
                "start": f.start,
                "size": f.size,
                "doc": f.doc,
                "low": f.low,
                "high": f.high,
                "clip": f.clip,
            }
            for f in self._fields.values()
        ]

    def _bound_arrays(self) -> tuple[FloatArray, FloatArray]:
        if self._bounds is None:
            low = np.zeros(self.size, dtype=np.float32)
            high = np.zeros(self.size, dtype=np.float32)
            for f in self._fields.values():
                low[f.slice] = f.low
                high[f.slice] = f.high
            low.flags.writeable = False
            high.flags.writeable = False
            self._bounds = (low, high)
        return self._bounds

    @property
    def low(self) -> FloatArray:
        """Per value, the field's lower bound (read-only, float32)."""
        return self._bound_arrays()[0]

    @property
    def high(self) -> FloatArray:
        """Per value, the field's upper bound (read-only, float32)."""
        return self._bound_arrays()[1]

    @property
    def clipped(self) -> tuple[Field, ...]:
        """The fields whose ``high`` is a clip rather than a maximum the rules set."""
        return tuple(f for f in self._fields.values() if f.clip)


T = TypeVar("T")


def cached_on(owner: object, key: str, build: Callable[[], T]) -> T:
    """A value derived once from a frozen object (components, a board) and kept in its
    ``__dict__``, as ``functools.cached_property`` does, so a lookup costs one dict access."""
    store = owner.__dict__
    found = store.get(key)
    if found is None:
        found = store[key] = build()
    return found


class Observer(ABC, Generic[S]):
    """What one seat may know of a game with these params, in three forms."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.layout = ObservationLayout()
        self.declare(self.layout)
        # The clipped fields' positions and bounds, gathered once: one vectorised clip per
        # tensor (numpy's per-call overhead outweighs the work on a few small slices).
        clipped = [i for f in self.layout.clipped for i in range(f.start, f.start + f.size)]
        self._clip_at = np.array(clipped, dtype=np.intp)
        self._clip_low = self.layout.low[self._clip_at]
        self._clip_high = self.layout.high[self._clip_at]

    @abstractmethod
    def declare(self, layout: ObservationLayout) -> None:
        """Declare the observation vector's named slices (called once, at construction)."""

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.layout.size,)

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, JSON-ready, without the log and the decision (the
        core adds those)."""

    @abstractmethod
    def fill(self, state: S, seat: int | None, out: FloatArray) -> None:
        """Write ``seat``'s observation into ``out`` (zeroed, of ``shape``)."""

    def tensor(self, state: S, seat: int | None) -> FloatArray:
        out = np.zeros(self.shape, dtype=np.float32)
        self.fill(state, seat, out)
        at = self._clip_at
        if at.size:
            out[at] = np.minimum(np.maximum(out[at], self._clip_low), self._clip_high)
        return out

    @abstractmethod
    def text(self, state: S, seat: int | None) -> str:
        """A short plain-text rendering of what ``seat`` may know."""


def decision_lines(state: GameState, seat: int | None, limit: int = 8) -> list[str]:
    """For a text rendering: ``seat``'s decision prompt and its options numbered from 1
    (the first ``limit``, then how many more), or nothing when it has no decision."""
    if seat is None or seat not in state.to_act():
        return []
    decision = state.decision(seat)
    if decision is None:
        return []
    lines = [f"Your decision: {decision.prompt}"]
    labels = decision.labels
    lines.extend(f"  {i + 1}. {label}" for i, label in enumerate(labels[:limit]))
    if len(labels) > limit:
        lines.append(f"  ... and {len(labels) - limit} more")
    return lines
