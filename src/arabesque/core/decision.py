"""The decision model: what one seat has to choose now, in one shape for every game.

A game answers ``state.decision(seat)`` with a ``Decision``: the seat, a kind from the game's
own enum, the legal options (the same integers ``legal_actions`` returns, in the same order),
a short prompt, a label per option, an optional JSON-ready context, the options that are
optional side actions offered alongside the main choice, the action a seat gets when its time
runs out, and the trail of enclosing choices when the decision is a step of a compound one.

Compound choices are sequences of small decisions, never an enumerated subset. A game that
needs "choose, then choose within that choice, then come back" keeps a ``DecisionStack`` of
``Frame`` values: opening a sub-decision pushes a frame, finishing it pops back to the parent,
whose options the game computes afresh (so only options that can still be completed are
offered). The stack is an immutable tuple, so copies of a state share it for free.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple


@dataclass(frozen=True, slots=True)
class Reaction:
    """A real-time decision: the seat reacts (or does not) to something just revealed, and
    its reaction time picks the option. Front ends measure the time (the terminal from the key
    press, the server from when it receives the press, corrected for the seat's latency) and
    turn it into an action with ``action_for``; the engine only ever sees the action."""

    #: The slowest reaction recorded, in milliseconds; later counts as no reaction.
    window_ms: int
    #: Reaction times are recorded in steps of this many milliseconds.
    step_ms: int
    #: The action of a reaction within the first step (0 ms).
    first: int
    #: The action of no reaction at all.
    none: int

    def action_for(self, ms: float | None) -> int:
        """The option for a reaction after ``ms`` milliseconds (None: no reaction)."""
        if ms is None or not math.isfinite(ms):
            return self.none
        steps = round(max(0.0, ms) / self.step_ms)
        return self.none if steps * self.step_ms > self.window_ms else self.first + steps

    def ms_of(self, action: int) -> int | None:
        """The recorded reaction time of an option (None for no reaction)."""
        return None if action == self.none else (action - self.first) * self.step_ms

    def to_json(self) -> dict[str, int]:
        return {"window_ms": self.window_ms, "step_ms": self.step_ms}


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice ``seat`` has to make now."""

    seat: int
    kind: IntEnum
    options: tuple[int, ...]
    prompt: str
    labels: tuple[str, ...]
    #: The action applied for a seat whose time runs out; always one of ``options``.
    default: int
    #: What the chooser sees of the choice (the card drawn, the die concerned...), JSON-ready.
    context: Mapping[str, Any] | None = None
    #: Options that are side actions a game offers at this point alongside the main choice
    #: (e.g. claiming a trophy at any time on one's turn); a subset of ``options``.
    optional: tuple[int, ...] = ()
    #: Prompts of the enclosing decisions, outermost first, when this is a sub-decision.
    trail: tuple[str, ...] = field(default=())
    #: Set when the decision is a real-time reaction (the lamp race): how a reaction time
    #: maps to one of ``options``.
    reaction: Reaction | None = None

    def __post_init__(self) -> None:
        if len(self.labels) != len(self.options):
            raise ValueError(
                f"a decision needs one label per option: {len(self.options)} options, "
                f"{len(self.labels)} labels"
            )
        if self.default not in self.options:
            raise ValueError(f"default {self.default} is not among the options {self.options}")

    @property
    def kind_name(self) -> str:
        return self.kind.name.lower()

    def label_of(self, action: int) -> str:
        return self.labels[self.options.index(action)]

    def to_json(self, texts: Sequence[str] | None = None) -> dict[str, Any]:
        """The shared JSON shape every view carries; ``texts`` are the options' canonical
        action texts (what records store), when the caller has them."""
        if not self.optional and texts is not None:
            # The common case, in one comprehension (a race decision has 301 options).
            options = [
                {"action": a, "label": label, "text": text}
                for a, label, text in zip(self.options, self.labels, texts, strict=True)
            ]
            return self._json(options)
        options = []
        optional = set(self.optional)
        for i, (action, label) in enumerate(zip(self.options, self.labels, strict=True)):
            entry: dict[str, Any] = {"action": action, "label": label}
            if texts is not None:
                entry["text"] = texts[i]
            if action in optional:
                entry["optional"] = True
            options.append(entry)
        return self._json(options)

    def _json(self, options: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind_name,
            "prompt": self.prompt,
            "options": options,
            "default": self.default,
            "context": _json_copy(self.context),
            "trail": list(self.trail),
            "reaction": None if self.reaction is None else self.reaction.to_json(),
        }


def _json_copy(value: Any) -> Any:
    """A fresh copy of JSON-ready data (views belong to their readers)."""
    if isinstance(value, Mapping):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_copy(v) for v in value]
    return value


class Frame(NamedTuple):
    """One open decision on a ``DecisionStack``: its kind, the deciding seat, and what the
    game needs to compute its options and carry out the answer (immutable data only)."""

    kind: IntEnum
    seat: int
    context: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class DecisionStack:
    """Open decisions, innermost last. Immutable: every change returns a new stack."""

    frames: tuple[Frame, ...] = ()

    @property
    def top(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    def push(self, frame: Frame) -> DecisionStack:
        """Open a sub-decision of the current one (or the first decision)."""
        return DecisionStack((*self.frames, frame))

    def pop(self) -> DecisionStack:
        """Close the current decision and return to its parent."""
        if not self.frames:
            raise IndexError("pop from an empty decision stack")
        return DecisionStack(self.frames[:-1])

    def replace(self, frame: Frame) -> DecisionStack:
        """Swap the current decision for the next step at the same depth."""
        if not self.frames:
            raise IndexError("replace on an empty decision stack")
        return DecisionStack((*self.frames[:-1], frame))

    def __len__(self) -> int:
        return len(self.frames)

    def __bool__(self) -> bool:
        return bool(self.frames)
