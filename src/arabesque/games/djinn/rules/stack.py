"""The decision stack's plumbing: the primitives every chapter uses to open, replace and close
decisions, and to put items on the GAIN queue.

A turn is a ``DecisionStack`` (core.decision): the turn's frame, the sub-decisions pushed on it,
and GAIN frames, queues of rewards and follow-ups. ``push``, ``replace`` and ``pop`` change the
stack; ``queue`` puts items first in the GAIN frame on top. Working the queue off and asking
each decision for its options is flow.py's (``refresh``, ``do_item``).
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Frame
from arabesque.games.djinn.components import Reward
from arabesque.games.djinn.state import DjinnState, Kind

_GAIN = Kind.GAIN


def queue(s: DjinnState, p: int, items: tuple[tuple[int, int], ...]) -> None:
    """Put ``items`` first in the GAIN frame on top (or a new one)."""
    if not items:
        return
    top = s.stack.top
    if top is not None and top.kind is _GAIN and top.seat == p:
        s.stack = s.stack.replace(Frame(_GAIN, p, items + top.context))
    else:
        s.stack = s.stack.push(Frame(_GAIN, p, items))


def push(s: DjinnState, kind: Kind, p: int, context: tuple[Any, ...] = ()) -> None:
    s.stack = s.stack.push(Frame(kind, p, context))


def replace(s: DjinnState, kind: Kind, p: int, context: tuple[Any, ...] = ()) -> None:
    s.stack = s.stack.replace(Frame(kind, p, context))


def pop(s: DjinnState) -> None:
    s.stack = s.stack.pop()


def reward_items(reward: Reward) -> tuple[tuple[int, int], ...]:
    return reward
