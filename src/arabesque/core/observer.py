"""Observers: the one place per game that says what a seat may know.

An observer is built once per game and params. For a seat (or ``None``, a spectator) it gives
the JSON view (front ends, bots, the server), a fixed-shape float32 NumPy vector (RL), and a
short text rendering (logs, terminal summaries, language agents). The tensor is written from
the state directly, never by walking the JSON view, and its layout is a list of named slices
(``ObservationLayout``) that the game documents and ``arabesque observation GAME`` prints.
"""

from __future__ import annotations

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

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class ObservationLayout:
    """Named slices of a flat observation vector, declared in order."""

    def __init__(self) -> None:
        self._fields: dict[str, Field] = {}
        self.size = 0

    def add(self, name: str, size: int, doc: str) -> slice:
        """Declare the next ``size`` floats as ``name``; returns their slice."""
        if name in self._fields:
            raise ValueError(f"observation field {name!r} declared twice")
        if size < 0:
            raise ValueError(f"observation field {name!r} has a negative size")
        field = Field(name, self.size, size, doc)
        self._fields[name] = field
        self.size += size
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
            {"name": f.name, "start": f.start, "size": f.size, "doc": f.doc}
            for f in self._fields.values()
        ]


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
