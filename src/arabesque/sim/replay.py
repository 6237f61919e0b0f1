"""Walking through a game record step by step, with the public events of each step.

Only the spectator log is shown (``GameState.log_for(None)``): a replay viewer is a spectator,
even though the record itself holds every secret (the seed and the deck orders).

Events are put in words by the same code as the terminal's log (each game's
``tui/<game>/events.py``, which needs only ``rich``), so a replay reads like the game did;
``describe_event`` keeps the raw one-line form for debugging.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from arabesque.core.errors import ArabesqueError
from arabesque.core.game import GameState
from arabesque.core.records import GameRecord
from arabesque.core.scoring import Score, winners

#: Game id -> the module with the game's ``describe_event(event, namer)``: the words of the
#: terminal's log. Imported on first use, so a game without one still replays (raw form).
EVENT_WORDS: dict[str, str] = {
    "magic-lamp": "arabesque.tui.magic_lamp.events",
    "ali-baba": "arabesque.tui.ali_baba.events",
    "djinn": "arabesque.tui.djinn.events",
}

Namer = Callable[[int | None], str]
Describer = Callable[[Mapping[str, Any]], Text | None]


@dataclass
class ReplayStep:
    """One recorded action and the public events it caused (step 0 is the setup)."""

    step: int
    player: int | None
    action: str | None
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The action's label in the decision it answered ("gold chest, face 1"; "player 0"
    #: names a seat), for a step whose events say nothing (a secret die set, a race press).
    label: str | None = None


@dataclass
class ReplayFrame:
    """What a step-through viewer shows after one step: the step, the spectator's view
    (without its log; the log is the steps' ``events``) and the scores so far."""

    step: ReplayStep
    view: dict[str, Any]
    scores: list[Score]
    ranking: list[int]
    is_over: bool


def _is_echo(event: dict[str, Any], player: int | None) -> bool:
    """An event that only says the step's own player acted (a secret die set, a race answer):
    the step line already says so, and more plainly."""
    return set(event) == {"kind", "player"} and event["player"] == player


def replay_steps(
    record: GameRecord, seat: int | None = None
) -> Iterator[tuple[ReplayStep, GameState]]:
    """Yield the setup (step 0) and every step with its key events as ``seat`` saw them (the
    public ones for None), and the state after it (the same object each time). A step that
    does not replay raises ``RecordError`` naming it, after the earlier steps have been
    yielded."""
    state = record.initial_state()
    seen = len(state.events)
    yield ReplayStep(0, None, None, [e for _, e in state.log_for(seat)]), state
    # The generator mutates ``state``: between two of its steps it is the state before the
    # next one, whose decision labels the next action.
    label = _label_of(state, 0, record)
    for step, player, action, after in record.steps(state):
        events = [e for _, e in after.log_for(seat, seen) if not _is_echo(e, player)]
        seen = len(after.events)
        entry = ReplayStep(step, player, after.action_to_str(action), events, label)
        yield entry, after
        label = _label_of(after, step, record)


def state_after(record: GameRecord, step: int) -> GameState:
    """The game of ``record`` after ``step`` (0: the setup); ``RecordError`` when a step up
    to it does not replay, ValueError for a step the record does not have."""
    if not 0 <= step <= len(record.actions):
        raise ValueError(f"the record has steps 0 to {len(record.actions)}, not {step}")
    for entry, state in replay_steps(record):
        if entry.step == step:
            return state
    raise AssertionError("unreachable: replay_steps yields every step")


def _label_of(state: GameState, done: int, record: GameRecord) -> str | None:
    """The label of the record's next action (after ``done`` steps) in its player's
    decision in ``state``; None at the end or when the decision does not offer it (the
    step then fails to replay, and says so)."""
    if done >= len(record.actions) or state.is_over:
        return None
    player, text = record.actions[done]
    try:
        decision = state.decision(player)
        action = state.parse_action(text)
    except ArabesqueError:
        return None
    if decision is None or action not in decision.options:
        return None
    return decision.label_of(action)


def replay_frames(record: GameRecord) -> list[ReplayFrame]:
    """Every step of the record as a frame, setup first (``frames[k]`` is after step k).
    Views are kept without their logs, so the frames of a long game stay small."""
    return [
        ReplayFrame(
            step=entry,
            view=state.view(None, include_log=False),
            scores=state.scores(),
            ranking=state.ranking(),
            is_over=state.is_over,
        )
        for entry, state in replay_steps(record)
    ]


# -- in words ----------------------------------------------------------------------------------


def seat_name(seat: int | None) -> str:
    """How a replay names a seat: as records count them, from 0."""
    return "nobody" if seat is None else f"Player {seat}"


def event_describer(game_id: str, name: Namer = seat_name) -> Describer:
    """The game's own words for its events (None for an event not worth a line); the raw
    form for a game without them."""
    module_name = EVENT_WORDS.get(game_id)
    if module_name is None:
        return lambda event: Text(describe_event(dict(event)))
    describe = importlib.import_module(module_name).describe_event

    def words(event: Mapping[str, Any]) -> Text | None:
        try:
            line: Text | None = describe(event, name)
        except (KeyError, TypeError, ValueError):  # an event shaped unlike the words expect
            return Text(describe_event(dict(event)), style="dim")
        return line

    return words


def step_title(step: ReplayStep, game_id: str, name: Namer = seat_name) -> str:
    """``Setup``, or the step in the log's words: ``Step 7 · Player 0 accepted wish 1.``
    (its first event the game words); for a step whose events say nothing, the label of
    the option taken (``Step 1 · Player 0: gold chest, face 1``), else its action code."""
    if step.step == 0:
        return "Setup"
    describe = event_describer(game_id, name)
    who = name(step.player)
    lines = [w.plain.strip() for w in map(describe, step.events) if w is not None]
    lines = [line for line in lines if line]
    # The step is its player's: the first line that names them, else the first line said
    # as what followed from their move (an action can end in another seat's news).
    for line in lines:
        if who in line:
            return f"Step {step.step} · {line}"
    if lines:
        return f"Step {step.step} · {who}: {lines[0]}"
    if step.label:
        # Decisions name seats as the engine counts them ("player 0"): say the table's name.
        label = _PLAYER.sub(lambda m: name(int(m.group(1))), step.label)
        return f"Step {step.step} · {who}: {label}"
    return f"Step {step.step} · {who}: {step.action}"


_PLAYER = re.compile(r"\b[Pp]layer (\d+)\b")


def _word(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "default"
    return str(value)


def players_line(record: GameRecord, num_players: int) -> str:
    """The seats and who played them, from ``metadata.agents`` when the record says."""
    agents = record.metadata.get("agents")
    if isinstance(agents, list) and len(agents) == num_players:
        return ", ".join(f"{seat_name(p)} ({a})" for p, a in enumerate(agents))
    return ", ".join(seat_name(p) for p in range(num_players))


def params_line(params: Mapping[str, Any]) -> str:
    """The game's params in words, the player count aside (the header says it already)."""
    shown = [f"{k.replace('_', ' ')} {_word(v)}" for k, v in params.items() if k != "num_players"]
    return ", ".join(shown) or "none"


def result_words(
    scores: Sequence[Score], ranking: Sequence[int], is_over: bool, actions: int
) -> str:
    """Who won with how many points, or how far an unfinished game went."""
    if not is_over:
        return f"not finished ({actions} actions played)"
    first = winners(ranking)
    top = scores[first[0]].total
    if len(first) > 1:
        names = " and ".join(seat_name(p) for p in first)
        return f"shared victory of {names} with {top} points"
    return f"{seat_name(first[0])} won with {top} points"


def result_line(state: GameState) -> str:
    """``result_words`` of a state."""
    return result_words(state.scores(), state.ranking(), state.is_over, len(state.history))


def record_header(record: GameRecord, state: GameState, final: GameState | None) -> list[str]:
    """The lines before the steps: game, players, params, seed, result. ``state`` is the
    initial state (its params are checked), ``final`` the state after every step, None when
    a step does not replay."""
    spec = state.spec
    lines = [
        f"{spec.name} ({spec.id}), {state.num_players} players",
        f"Players: {players_line(record, state.num_players)}",
        f"Params: {params_line(state.params.to_json())}",
        f"Seed: {record.seed}",
        "Result: "
        + (
            result_line(final)
            if final is not None
            else "unknown: the record does not replay to its end (the error below says where)"
        ),
        f"Recorded: {len(record.actions)} actions, engine {record.engine_version}",
    ]
    title = record.metadata.get("title")
    if isinstance(title, str) and title:
        lines.append(f"Title: {title}")
    return lines


# -- raw ---------------------------------------------------------------------------------------


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


def score_rows(scores: Sequence[Score], ranking: Sequence[int]) -> list[tuple[int, int, int, str]]:
    """``(seat, rank, total, breakdown in words)`` per seat, best first."""
    rows = []
    for seat in sorted(range(len(scores)), key=lambda p: (ranking[p], p)):
        parts = ", ".join(
            f"{k.replace('_', ' ')} {v}" for k, v in scores[seat].breakdown.items() if v
        )
        rows.append((seat, ranking[seat], scores[seat].total, parts))
    return rows
