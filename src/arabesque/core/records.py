"""Game records: everything needed to reproduce a game exactly.

A record is the game id, engine version, params, the setup (a seed, or a seed plus an explicit
arrangement written by hand), and the ordered ``(player, action)`` list with actions in their
canonical text. Real-time facts (lamp-race reaction times) are part of the action text, so a
replay never re-rolls them. Schema and examples: docs/records.md.

A record holds the seed, which determines every hidden card: it must not be shown to players
before the game ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arabesque import __version__
from arabesque.core.errors import ArabesqueError, RecordError
from arabesque.core.game import GameState
from arabesque.core.registry import get_game

FORMAT = "arabesque-record/1"


@dataclass
class GameRecord:
    game: str
    params: dict[str, Any]
    seed: int
    arrangement: dict[str, Any] | None = None
    data_digest: str | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    engine_version: str = __version__
    metadata: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_state(state: GameState, metadata: Mapping[str, Any] | None = None) -> GameRecord:
        meta = dict(metadata or {})
        if state.is_over:
            meta["result"] = {
                "scores": [s.to_json() for s in state.scores()],
                "ranking": state.ranking(),
            }
        return GameRecord(
            game=state.spec.id,
            params=state.params.to_json(),
            seed=state.seed,
            arrangement=state.arrangement(),
            data_digest=state.data_digest(),
            actions=[(p, state.action_to_str(a)) for p, a in state.history],
            metadata=meta,
        )

    # -- JSON ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        setup: dict[str, Any] = {"seed": self.seed}
        if self.arrangement is not None:
            setup["arrangement"] = self.arrangement
        if self.data_digest is not None:
            setup["data_sha256"] = self.data_digest
        return {
            "format": FORMAT,
            "game": self.game,
            "engine_version": self.engine_version,
            "params": self.params,
            "setup": setup,
            "actions": [{"player": p, "action": a} for p, a in self.actions],
            "metadata": self.metadata,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @staticmethod
    def from_json(data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise RecordError(f"unknown record format {fmt!r}; this engine reads {FORMAT!r}")
        for key in ("game", "params", "setup", "actions"):
            if key not in data:
                raise RecordError(f"record has no {key!r} field")
        game, params, setup, actions = data["game"], data["params"], data["setup"], data["actions"]
        if not isinstance(game, str):
            raise RecordError("'game' must be a game id string")
        if not isinstance(params, dict):
            raise RecordError("'params' must be an object")
        seed = setup.get("seed") if isinstance(setup, dict) else None
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"'setup' must be an object with an integer 'seed', got {setup!r}")
        arrangement = setup.get("arrangement")
        if arrangement is not None and not isinstance(arrangement, dict):
            raise RecordError("'setup.arrangement' must be an object")
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list")
        parsed: list[tuple[int, str]] = []
        for i, entry in enumerate(actions):
            if (
                not isinstance(entry, dict)
                or not isinstance(entry.get("player"), int)
                or isinstance(entry.get("player"), bool)
                or not isinstance(entry.get("action"), str)
            ):
                raise RecordError(
                    f"step {i + 1}: each action is {{'player': <seat>, 'action': <text>}}, "
                    f"got {entry!r}"
                )
            parsed.append((entry["player"], entry["action"]))
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError(f"'metadata' must be an object, got {type(metadata).__name__}")
        digest = setup.get("data_sha256")
        if digest is not None and not isinstance(digest, str):
            raise RecordError("'setup.data_sha256' must be a string")
        return GameRecord(
            game=game,
            params=params,
            seed=seed,
            arrangement=arrangement,
            data_digest=digest,
            actions=parsed,
            engine_version=str(data.get("engine_version", "unknown")),
            metadata=metadata,
        )

    @staticmethod
    def load(path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read record {path}: {exc.strerror}") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not valid JSON: {exc}") from exc
        return GameRecord.from_json(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    # -- replay -------------------------------------------------------------------------

    def initial_state(self) -> GameState:
        try:
            spec = get_game(self.game)
            params = spec.params_type.from_json(self.params)
            state = spec.new_game(params, seed=self.seed, arrangement=self.arrangement)
        except ArabesqueError as exc:
            raise RecordError(f"setup: {exc}") from exc
        actual = state.data_digest()
        if self.data_digest is not None and actual != self.data_digest:
            raise RecordError(
                f"setup: the record was made with game data sha256 {self.data_digest[:12]}..., "
                f"but this engine loads {str(actual)[:12]}... (a different components file?)"
            )
        return state

    def steps(self, state: GameState | None = None) -> Iterator[tuple[int, int, int, GameState]]:
        """Replay step by step, yielding ``(step, player, action, state_after)``.

        The same state object (``state``, by default a fresh initial state) is mutated and
        yielded each time. A bad step raises ``RecordError`` naming it (steps count from 1).
        """
        if state is None:
            state = self.initial_state()
        for i, (player, text) in enumerate(self.actions, start=1):
            try:
                action = state.parse_action(text)
                state.apply(player, action)
            except ArabesqueError as exc:
                raise RecordError(f"step {i} (player {player}, {text!r}): {exc}") from exc
            yield i, player, action, state

    def replay(self) -> GameState:
        """The state after every recorded action."""
        state = self.initial_state()
        for _ in self.steps(state):
            pass
        return state
