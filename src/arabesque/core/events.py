"""The event log: what happened, and who may know it.

Events are recorded by the rules as they happen, each with the set of seats allowed to see
it (``None`` = everyone). ``GameState.view`` filters the log for a seat; nothing else does.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple


class Event(NamedTuple):
    """One thing that happened. Immutable (clones of a game share their events); a named
    tuple because the rules create one or two per step and a tuple is the cheapest to make."""

    kind: str
    data: dict[str, Any]
    visible_to: frozenset[int] | None = None

    def visible_for(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        # A deep copy: readers (views, logs sent to clients) may change what they get without
        # reaching the game's own record of what happened. Event data is JSON-like, so it is
        # copied by hand (``copy.deepcopy`` cost ten times as much, its memo mostly); anything
        # else still goes through ``deepcopy``.
        data = self.data
        return {
            "kind": self.kind,
            **{k: v if v.__class__ in _ATOMS else _copy(v) for k, v in data.items()},
        }


#: Immutable values that a copy may share.
_ATOMS: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, immutable scalars)."""
    cls = value.__class__
    if cls in _ATOMS:
        return value
    if cls is dict:
        return {k: v if v.__class__ in _ATOMS else _copy(v) for k, v in value.items()}
    if cls is list:
        return [v if v.__class__ in _ATOMS else _copy(v) for v in value]
    return copy.deepcopy(value)
