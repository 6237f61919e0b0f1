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

Options that are a numeric range worded from one template (the lamp race's "rub after 0 ms"
... "rub after 2990 ms") are declared as an ``OptionRange``; the JSON then carries the range
once instead of one entry per option (docs/protocol.md, "Decisions"), and ``expand_options``
writes it out again for a client that wants the list.
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


#: What a range's templates hold in place of the option's number.
NUMBER = "{n}"


@dataclass(frozen=True, slots=True)
class OptionRange:
    """A run of options numbered by one value and worded by one template: the k-th option
    (k from 0) is the action ``start + k * step`` (up to ``stop``, excluded, as ``range``),
    its number is ``n_start + k * n_step``, and its label and canonical text are ``label``
    and ``text`` with ``{n}`` replaced by that number."""

    start: int
    stop: int
    #: The option's label with ``{n}`` for its number, e.g. ``"rub after {n} ms"``.
    label: str
    #: The option's canonical text (``action_to_str``) with ``{n}`` for its number.
    text: str
    step: int = 1
    n_start: int = 0
    n_step: int = 1

    def __post_init__(self) -> None:
        if self.step < 1 or self.stop <= self.start:
            raise ValueError(
                f"an option range needs step >= 1 and start < stop, got {self.start}, "
                f"{self.stop}, {self.step}"
            )
        if NUMBER not in self.label or NUMBER not in self.text:
            raise ValueError(f"an option range's label and text hold {NUMBER}: {self!r}")

    @property
    def actions(self) -> range:
        return range(self.start, self.stop, self.step)

    def number_of(self, action: int) -> int:
        return self.n_start + (action - self.start) // self.step * self.n_step

    def label_of(self, action: int) -> str:
        return self.label.replace(NUMBER, str(self.number_of(action)))

    def text_of(self, action: int) -> str:
        return self.text.replace(NUMBER, str(self.number_of(action)))

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "stop": self.stop,
            "step": self.step,
            "n_start": self.n_start,
            "n_step": self.n_step,
            "label": self.label,
            "text": self.text,
        }


def expand_options(options: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A decision's JSON options with every ``{"range": ...}`` entry written out as one
    ``{"action", "label", "text"}`` entry per option, in order (docs/protocol.md); other
    entries are copied as they are."""
    out: list[dict[str, Any]] = []
    for entry in options:
        spec = entry.get("range")
        if spec is None:
            out.append(dict(entry))
            continue
        label, text = spec["label"], spec["text"]
        n, n_step = spec["n_start"], spec["n_step"]
        for action in range(spec["start"], spec["stop"], spec["step"]):
            number = str(n)
            out.append(
                {
                    "action": action,
                    "label": label.replace(NUMBER, number),
                    "text": text.replace(NUMBER, number),
                }
            )
            n += n_step
    return out


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
    #: Runs of ``options`` that are a numeric range worded from one template, in the order
    #: of the options; the JSON gives each as one entry (``OptionRange``).
    ranges: tuple[OptionRange, ...] = ()
    #: (index in ``options``, the range) per range, and the options not in a range.
    _spans: tuple[tuple[int, OptionRange], ...] = field(init=False, repr=False, compare=False)
    _listed: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.labels) != len(self.options):
            raise ValueError(
                f"a decision needs one label per option: {len(self.options)} options, "
                f"{len(self.labels)} labels"
            )
        if self.default not in self.options:
            raise ValueError(f"default {self.default} is not among the options {self.options}")
        spans: list[tuple[int, OptionRange]] = []
        listed: list[int] = []
        at = 0
        for r in self.ranges:
            try:
                i = self.options.index(r.start, at)
            except ValueError:
                raise ValueError(
                    f"option range {r.start}..{r.stop} does not start among the options "
                    "after the previous range"
                ) from None
            actions = r.actions
            end = i + len(actions)
            if self.options[i:end] != tuple(actions):
                raise ValueError(f"option range {r.start}..{r.stop} is not a run of the options")
            if self.labels[i:end] != tuple(map(r.label_of, actions)):
                raise ValueError(f"option range {r.start}..{r.stop}: labels differ from its own")
            if self.optional and not set(self.optional).isdisjoint(actions):
                raise ValueError(f"option range {r.start}..{r.stop} holds optional options")
            spans.append((i, r))
            listed.extend(self.options[at:i])
            at = end
        listed.extend(self.options[at:])
        object.__setattr__(self, "_spans", tuple(spans))
        object.__setattr__(self, "_listed", self.options if not spans else tuple(listed))

    @property
    def listed(self) -> tuple[int, ...]:
        """The options the JSON writes out one by one: those in no range, in order."""
        return self._listed

    @property
    def kind_name(self) -> str:
        return self.kind.name.lower()

    def label_of(self, action: int) -> str:
        return self.labels[self.options.index(action)]

    def to_json(self, texts: Sequence[str] | None = None) -> dict[str, Any]:
        """The shared JSON shape every view carries; ``texts`` are the canonical action texts
        (what records store) of ``listed``, when the caller has them. A range of options is
        one ``{"range": ...}`` entry in its place (``OptionRange.to_json``)."""
        if self._spans:
            return self._json(self._entries_with_ranges(texts))
        if not self.optional and texts is not None:
            # The common case, in one comprehension.
            options = [
                {"action": a, "label": label, "text": text}
                for a, label, text in zip(self.options, self.labels, texts, strict=True)
            ]
            return self._json(options)
        return self._json(self._entries(0, len(self.options), texts, 0))

    def _entries(
        self, begin: int, end: int, texts: Sequence[str] | None, first_text: int
    ) -> list[dict[str, Any]]:
        """One entry per option from index ``begin`` to ``end``; ``texts[first_text]`` is
        the text of the first."""
        options = []
        optional = set(self.optional)
        for i in range(begin, end):
            action = self.options[i]
            entry: dict[str, Any] = {"action": action, "label": self.labels[i]}
            if texts is not None:
                entry["text"] = texts[first_text + i - begin]
            if action in optional:
                entry["optional"] = True
            options.append(entry)
        return options

    def _entries_with_ranges(self, texts: Sequence[str] | None) -> list[dict[str, Any]]:
        if texts is not None and len(texts) != len(self._listed):
            raise ValueError(
                f"{len(texts)} texts for the {len(self._listed)} options listed one by one"
            )
        options: list[dict[str, Any]] = []
        at = 0  # the next option's index
        written = 0  # how many listed options are written
        for i, r in self._spans:
            if at < i:
                options += self._entries(at, i, texts, written)
                written += i - at
            options.append({"range": r.to_json()})
            at = i + len(r.actions)
        if at < len(self.options):
            options += self._entries(at, len(self.options), texts, written)
        return options

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
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is dict:
        return {k: _json_copy(v) for k, v in value.items()}
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
