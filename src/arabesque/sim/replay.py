"""Walking through a game record step by step, with the public events of each step.

Only the spectator log is shown (``GameState.log_for(None)``): a replay viewer is a spectator,
even though the record itself holds every secret (the seed and the deck orders).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from arabesque.core.game import GameState
from arabesque.core.records import GameRecord
from arabesque.core.scoring import winners


@dataclass
class ReplayStep:
    """One recorded action and the public events it caused (step 0 is the setup)."""

    step: int
    player: int | None
    action: str | None
    events: list[dict[str, Any]] = field(default_factory=list)


def _is_echo(event: dict[str, Any], player: int | None) -> bool:
    """An event that only says the step's own player acted (a secret die set, a race answer):
    the step line already says so, and more plainly."""
    return set(event) == {"kind", "player"} and event["player"] == player


def replay_steps(record: GameRecord) -> Iterator[tuple[ReplayStep, GameState]]:
    """Yield the setup (step 0) and every step with its key public events, and the state after
    it (the same object each time). A step that does not replay raises ``RecordError``
    naming it, after the earlier steps have been yielded."""
    state = record.initial_state()
    seen = len(state.events)
    yield ReplayStep(0, None, None, [e for _, e in state.log_for(None)]), state
    for step, player, action, after in record.steps(state):
        events = [e for _, e in after.log_for(None, seen) if not _is_echo(e, player)]
        seen = len(after.events)
        yield ReplayStep(step, player, after.action_to_str(action), events), after


def _short(value: Any) -> str:
    if isinstance(value, dict):
        if "name" in value and "id" in value:
            return f"{value['name']} #{value['id']}"
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    if value is None:
        return "-"
    return str(value)


def describe_event(event: dict[str, Any]) -> str:
    """One line for a logged event: its kind, then its fields, cards shown by name and id."""
    fields = ", ".join(f"{k} {_short(v)}" for k, v in event.items() if k != "kind")
    return f"{event['kind']}: {fields}" if fields else str(event["kind"])


def final_summary(state: GameState) -> dict[str, Any]:
    """Scores with breakdown, ranking and each player's holdings, as a spectator sees them."""
    view = state.view(None, include_log=False)
    players = view.get("players")
    holdings: list[Any] | None = None
    # What each player holds, under the game's own word for it (cards, tiles).
    for key in ("cards", "tiles"):
        if isinstance(players, list) and all(isinstance(p, dict) and key in p for p in players):
            holdings = [p[key] for p in players]
            break
    ranking = state.ranking()
    return {
        "game": state.spec.id,
        "steps": len(state.history),
        "is_over": state.is_over,
        "turn": view.get("turn"),
        "scores": [s.to_json() for s in state.scores()],
        "ranking": ranking,
        "winners": winners(ranking) if state.is_over else None,
        "holdings": holdings,
    }
