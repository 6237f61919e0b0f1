"""The decision/turn plumbing: the agenda of tasks, run in order until one needs a decision.

Once the race is resolved (race.py), the rest of a turn is an agenda: the angry Genies, the
wishes, the three searches and the end of the turn, each a task that may queue more at the
front (talismans, the ring, retrievals from the discard pile). ``run`` runs the tasks until
one asks a player to choose (``decide``); the answer goes to that decision's handler
(``turn.apply_action``) and the agenda runs on. ``TASKS`` and ``HANDLERS`` name each task's
and each decision's code; turn.py fills them, having imported every chapter, and the chapters
import only this module, so the package has no import cycle.
"""

from __future__ import annotations

from typing import Any

from arabesque.games.magic_lamp.state import DecisionKind, MagicLampState, Phase

_RESOLVE = Phase.RESOLVE

#: Task name -> its code; ``state.agenda`` holds (name, *arguments) tuples. Filled by turn.py.
TASKS: dict[str, Any] = {}
#: Decision kind -> the code applying a player's answer. Filled by turn.py.
HANDLERS: dict[DecisionKind, Any] = {}


def decide(
    state: MagicLampState,
    kind: DecisionKind,
    player: int,
    options: tuple[int, ...],
    ctx: tuple[Any, ...] = (),
) -> None:
    """Ask ``player`` to choose among ``options``. A choice with a single option is no
    choice: it is applied at once (R11), so records hold only real decisions."""
    if len(options) == 1:
        HANDLERS[kind](state, player, options[0], ctx)
    else:
        state.pending = (kind, player, tuple(sorted(options)), ctx)


def run(state: MagicLampState) -> None:
    while state.pending is None and not state.over and state.phase is _RESOLVE:
        task = state.agenda.pop(0)
        TASKS[task[0]](state, *task[1:])
