"""Game records: everything needed to reproduce a game exactly.

A record is the game id, engine version, params, the setup (a seed, or a seed plus an explicit
arrangement written by hand), and the ordered ``(player, action)`` list with actions in their
canonical text. Real-time facts (lamp-race reaction times) are part of the action text, so a
replay never re-rolls them. Schema and examples: docs/records.md.

A record holds the seed, which determines every hidden card: it must not be shown to players
before the game ends.

Records may come from strangers (a server replays them), so reading one is bounded: the file
size (``MAX_RECORD_BYTES``), the nesting (``MAX_RECORD_NESTING``) and the size of embedded
game data are checked before anything else, and every problem is a ``RecordError`` saying
what was wrong. A record never makes the replayer open a file: a game played with a data
file (magic-lamp's ``--components``) is recorded with that file's text embedded in
``setup.data`` and named in the params by content, ``"sha256:<hex>"`` (core/gamedata.py); a
record whose params name a file path is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arabesque import __version__
from arabesque.core import gamedata
from arabesque.core.errors import ArabesqueError, RecordError
from arabesque.core.game import GameSpec, GameState
from arabesque.core.limits import clip, deeper_than, quote, read_at_most
from arabesque.core.registry import get_game

FORMAT = "arabesque-record/1"

#: Record compatibility is per game (``GameSpec.record_compat``): every record stores its
#: game's number, and this engine replays only records of the number its game has today, since
#: a record of another number may replay differently (that game's rules, action texts, setup
#: or seeded chance changed). A game raises its own number, so a rule change in one game leaves
#: the records of the others valid; say so in docs/records.md. A record without the field
#: predates it and is read as compatibility 1.
#: The compatibility of records written before records stored it (engine 0.1.0).
UNMARKED_COMPAT = 1
#: ``GameRecord.record_compat`` when a record is made in code without one: the game's
#: number today. Never stored: a record's number is 1 or more.
CURRENT_COMPAT = 0

#: ``setup.dealt``: the arrangement is the one the seed deals ...
DEALT_SEED = "seed"
#: ... or it was written by hand (a scenario), so the seed does not reproduce it.
DEALT_HAND = "hand"

#: The largest record file read, in bytes: a five-player game takes about 40 KB, and an
#: embedded components file at most ``gamedata.MAX_DATA_BYTES``.
MAX_RECORD_BYTES = 4 << 20
#: The deepest nesting of objects and lists in a record (the schema needs 6; metadata is
#: free-form but shallow).
MAX_RECORD_NESTING = 32
#: The longest engine version string kept.
_MAX_VERSION_CHARS = 64
#: Error messages from the game are clipped to this length (they may quote the record).
_MAX_MESSAGE = 1000


def _data_param(spec: GameSpec) -> str | None:
    """The param through which the game reads an external data file, if any: a game
    declares it as the class attribute ``DATA_PARAM`` of its params (magic-lamp:
    ``components``). The core knows no game, so it asks the params type."""
    name = spec.params_type.DATA_PARAM
    return name if isinstance(name, str) else None


def compat_error(spec: GameSpec, engine: str, compat: int) -> str:
    """Why a record of ``spec`` with compatibility ``compat`` (written by arabesque
    ``engine``) is refused, naming both numbers."""
    return (
        f"this {spec.id} record is of {spec.id} record compatibility {compat} (written by "
        f"arabesque {engine}), but this is arabesque {__version__}, which replays {spec.id} "
        f"records of compatibility {spec.record_compat} only: {spec.name}'s rules or action "
        f"texts changed between them (docs/records.md), so the replay could differ; replay it "
        f"with a version of arabesque that reads {spec.id} records of compatibility {compat}"
    )


def current_compat(game: str) -> int:
    """The record compatibility of ``game``'s rules today (``UNMARKED_COMPAT`` for a game
    this engine does not know, whose record refuses to replay anyway)."""
    try:
        return get_game(game).record_compat
    except ArabesqueError:
        return UNMARKED_COMPAT


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
    #: The text of the game's data file (magic-lamp: the components TOML), when the game was
    #: not played with the built-in data; its sha256 is ``data_digest``.
    data: str | None = None
    #: The record compatibility of the game's rules that played it; ``CURRENT_COMPAT`` (the
    #: default) stands for the game's number today (``GameSpec.record_compat``).
    record_compat: int = CURRENT_COMPAT
    #: Where the arrangement came from: ``DEALT_SEED``, ``DEALT_HAND``, or None when the
    #: record does not say (records written before the field existed).
    dealt: str | None = None

    def __post_init__(self) -> None:
        if self.record_compat == CURRENT_COMPAT:
            self.record_compat = current_compat(self.game)

    @staticmethod
    def from_state(state: GameState, metadata: Mapping[str, Any] | None = None) -> GameRecord:
        meta = dict(metadata or {})
        if state.is_over:
            meta["result"] = {
                "scores": [s.to_json() for s in state.scores()],
                "ranking": state.ranking(),
            }
        params = state.params.to_json()
        digest = state.data_digest()
        data = None
        name = _data_param(state.spec)
        if name is not None and params.get(name) is not None:
            # Played with a data file: embed its text and name it by content, so the record
            # replays without the file and never names a path.
            data = None if digest is None else gamedata.lookup(digest)
            if digest is None or data is None:
                raise RecordError(
                    f"cannot record: the game data named by params.{name} "
                    f"({quote(params[name])}) is no longer held in memory to embed"
                )
            params[name] = gamedata.make_ref(digest)
        return GameRecord(
            game=state.spec.id,
            params=params,
            seed=state.seed,
            arrangement=state.arrangement(),
            data_digest=digest,
            actions=[(p, state.action_to_str(a)) for p, a in state.history],
            metadata=meta,
            data=data,
            record_compat=state.spec.record_compat,
            dealt=DEALT_HAND if state.hand_arranged else DEALT_SEED,
        )

    # -- JSON ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        setup: dict[str, Any] = {"seed": self.seed}
        if self.dealt is not None:
            setup["dealt"] = self.dealt
        if self.arrangement is not None:
            setup["arrangement"] = self.arrangement
        if self.data_digest is not None:
            setup["data_sha256"] = self.data_digest
        if self.data is not None:
            setup["data"] = self.data
        return {
            "format": FORMAT,
            "game": self.game,
            "engine_version": self.engine_version,
            "record_compat": self.record_compat,
            "params": self.params,
            "setup": setup,
            "actions": [{"player": p, "action": a} for p, a in self.actions],
            "metadata": self.metadata,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @staticmethod
    def from_json(data: Any) -> GameRecord:
        """A record from parsed JSON (or the same structure built in code). Every problem
        raises ``RecordError``; nothing is replayed yet."""
        if deeper_than(data, MAX_RECORD_NESTING):
            raise RecordError(
                f"the record nests objects and lists more than {MAX_RECORD_NESTING} levels "
                f"deep; records nest at most {MAX_RECORD_NESTING}"
            )
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise RecordError(f"unknown record format {quote(fmt)}; this engine reads {FORMAT!r}")
        for key in ("game", "params", "setup", "actions"):
            if key not in data:
                raise RecordError(f"record has no {key!r} field")
        game, params, setup, actions = data["game"], data["params"], data["setup"], data["actions"]
        if not isinstance(game, str):
            raise RecordError(f"'game' must be a game id string, got {quote(game)}")
        if not isinstance(params, dict):
            raise RecordError(f"'params' must be an object, got {type(params).__name__}")
        if not isinstance(setup, dict):
            raise RecordError(
                f"'setup' must be an object holding the integer 'seed', got "
                f"{type(setup).__name__}"
            )
        if "seed" not in setup:
            raise RecordError("setup.seed is missing: a record's setup holds an integer seed")
        seed = setup["seed"]
        # Only the bad value is quoted: the setup around it may be a whole deal of cards.
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(
                f"setup.seed must be an integer, got {quote(seed)} (a record's setup holds "
                "an integer 'seed')"
            )
        arrangement = setup.get("arrangement")
        if arrangement is not None and not isinstance(arrangement, dict):
            raise RecordError(f"'setup.arrangement' must be an object, got {quote(arrangement)}")
        dealt = setup.get("dealt")
        if dealt is not None and dealt not in (DEALT_SEED, DEALT_HAND):
            raise RecordError(
                f"'setup.dealt' must be {DEALT_SEED!r} (the seed dealt the arrangement) or "
                f"{DEALT_HAND!r} (written by hand), got {quote(dealt)}"
            )
        if not isinstance(actions, list):
            raise RecordError(f"'actions' must be a list, got {type(actions).__name__}")
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
                    f"got {quote(entry)}"
                )
            parsed.append((entry["player"], entry["action"]))
        metadata = data.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError(f"'metadata' must be an object, got {type(metadata).__name__}")
        digest = setup.get("data_sha256")
        if digest is not None and not isinstance(digest, str):
            raise RecordError(f"'setup.data_sha256' must be a string, got {quote(digest)}")
        embedded = _embedded_data(setup, digest)
        if embedded is not None:
            digest = gamedata.digest_of(embedded)
        version = data.get("engine_version", "unknown")
        if not isinstance(version, str) or len(version) > _MAX_VERSION_CHARS:
            raise RecordError(
                f"'engine_version' must be a version string of at most {_MAX_VERSION_CHARS} "
                f"characters, got {quote(version)}"
            )
        compat = data.get("record_compat", UNMARKED_COMPAT)
        if not isinstance(compat, int) or isinstance(compat, bool) or compat < 1:
            raise RecordError(
                f"'record_compat' must be an integer from 1 up, got {quote(compat)}"
            )
        return GameRecord(
            game=game,
            params=params,
            seed=seed,
            arrangement=arrangement,
            data_digest=digest,
            actions=parsed,
            engine_version=version,
            metadata=metadata,
            data=embedded,
            record_compat=compat,
            dealt=dealt,
        )

    @staticmethod
    def loads(text: str | bytes, where: str = "the record") -> GameRecord:
        """A record from JSON text; ``where`` names it in messages (a file name)."""
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(
                f"{where} is larger than {MAX_RECORD_BYTES} bytes; records hold at most "
                f"{MAX_RECORD_BYTES} bytes"
            )
        if isinstance(text, bytes):
            # Records are written as UTF-8 (a byte-order mark is tolerated). Decoding here,
            # rather than letting json guess UTF-16 or UTF-32, turns a binary file into a
            # message naming the file instead of a bare codec error.
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    f"{where} is not a UTF-8 JSON record (not valid JSON: byte {exc.start} is "
                    f"0x{text[exc.start]:02x}, which UTF-8 text does not have; a binary "
                    f"file?); give a record file as arabesque writes it"
                ) from None
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError:
            # The parser recurses per level: refuse what it cannot even read, as too deep.
            raise RecordError(
                f"{where} nests objects and lists more than {MAX_RECORD_NESTING} levels "
                f"deep; records nest at most {MAX_RECORD_NESTING}"
            ) from None
        except ValueError as exc:
            # JSONDecodeError, bad UTF-8, and integers past Python's digit limit alike.
            raise RecordError(f"{where} is not valid JSON: {clip(str(exc))}") from exc
        return GameRecord.from_json(data)

    @staticmethod
    def load(path: str | Path) -> GameRecord:
        try:
            raw = read_at_most(path, MAX_RECORD_BYTES)
        except OSError as exc:
            raise RecordError(f"cannot read record {path}: {exc.strerror or exc}") from exc
        if raw is None:
            raise RecordError(
                f"{path} is larger than {MAX_RECORD_BYTES} bytes; records hold at most "
                f"{MAX_RECORD_BYTES} bytes"
            )
        return GameRecord.loads(raw, str(path))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    # -- replay -------------------------------------------------------------------------

    def check_compatible(self) -> None:
        """Raise ``RecordError`` unless this engine replays the record exactly (the record
        compatibility its game has today); the message names both numbers and both engine
        versions."""
        try:
            spec = get_game(self.game)
        except ArabesqueError as exc:
            raise RecordError(f"setup: {clip(str(exc), _MAX_MESSAGE)}") from exc
        if self.record_compat != spec.record_compat:
            raise RecordError(compat_error(spec, self.engine_version, self.record_compat))

    def _replay_params(self, spec: GameSpec) -> dict[str, Any]:
        """The params to build the game from, after checking that they name no file and
        registering the embedded data they name by content."""
        name = _data_param(spec)
        if name is None:
            if self.data is not None:
                raise RecordError(
                    f"setup.data: {spec.id} reads no data file, so a record of it embeds none"
                )
            return self.params
        value = self.params.get(name)
        if value is None:
            if self.data is not None:
                raise RecordError(
                    f"setup.data is given but params.{name} is null (the built-in data); "
                    f"name the embedded data in params.{name} as 'sha256:<its digest>'"
                )
            return self.params
        digest = gamedata.parse_ref(value)
        if digest is None:
            raise RecordError(
                f"params.{name} is {quote(value)}: a record may not name a file (a replay "
                f"never opens one); it embeds the data in setup.data and writes "
                f"'sha256:<digest of the data>' here, or null for the built-in data"
            )
        if self.data is None:
            raise RecordError(
                f"params.{name} names data sha256:{digest[:12]}..., but the record embeds no "
                "setup.data"
            )
        if gamedata.digest_of(self.data) != digest:
            raise RecordError(
                f"params.{name} names data sha256:{digest[:12]}..., but setup.data has sha256 "
                f"{gamedata.digest_of(self.data)[:12]}..."
            )
        gamedata.register_embedded(self.data)
        return self.params

    def initial_state(self) -> GameState:
        self.check_compatible()
        try:
            spec = get_game(self.game)
            params = spec.params_type.from_json(self._replay_params(spec))
            state = spec.new_game(params, seed=self.seed, arrangement=self.arrangement)
        except RecordError:
            raise
        except ArabesqueError as exc:
            raise RecordError(f"setup: {clip(str(exc), _MAX_MESSAGE)}") from exc
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
                raise RecordError(
                    f"step {i} (player {quote(player)}, {quote(text)}): "
                    f"{clip(str(exc), _MAX_MESSAGE)}"
                ) from exc
            yield i, player, action, state

    def replay(self) -> GameState:
        """The state after every recorded action."""
        state = self.initial_state()
        for _ in self.steps(state):
            pass
        return state

    def result_mismatch(self, state: GameState) -> str | None:
        """Why the stored result (``metadata.result``, written for a finished game) disagrees
        with ``state``, the state after replaying the record; None when it agrees or when
        the record stores no result. A disagreement means the record was edited, or written
        by an engine whose rules differ, so its replay is not the game it claims to be."""
        stored = self.metadata.get("result")
        if stored is None:
            return None
        if (
            not isinstance(stored, dict)
            or not isinstance(stored.get("scores"), list)
            or not isinstance(stored.get("ranking"), list)
        ):
            return (
                f"metadata.result must be {{'scores': [...], 'ranking': [...]}} as the engine "
                f"writes it, got {quote(stored)}; fix it or delete it"
            )
        steps = len(self.actions)
        if not state.is_over:
            return (
                f"metadata.result gives a final result, but after its {steps} actions the "
                "replayed game is not over: the record was cut short or edited; delete "
                "metadata.result to replay it as an unfinished game"
            )
        scores = [s.to_json() for s in state.scores()]
        ranking = state.ranking()
        if stored["scores"] == scores and stored["ranking"] == ranking:
            return None

        def totals(items: list[Any]) -> str:
            return ", ".join(
                str(s.get("total")) if isinstance(s, dict) else quote(s) for s in items
            )

        said = f"scores {totals(stored['scores'])} (ranking {quote(stored['ranking'])})"
        got = f"scores {totals(scores)} (ranking {ranking})"
        if said == got:  # same totals and ranks: the breakdowns differ
            said += " with other breakdowns"
        return (
            f"metadata.result says {clip(said, _MAX_MESSAGE // 2)}, but replaying the "
            f"{steps} actions gives {got}: the record was edited, or written by an engine "
            "whose rules differ; check where it came from (delete metadata.result to "
            "replay its actions anyway)"
        )


def _refuse_constant(name: str) -> Any:
    # Python's json reads NaN and Infinity, which JSON does not have and no record needs.
    raise ValueError(f"{name} is not JSON (a record holds no NaN or Infinity)")


def _embedded_data(setup: dict[str, Any], digest: str | None) -> str | None:
    """``setup.data``, checked: a string of at most ``gamedata.MAX_DATA_BYTES`` whose sha256
    is ``setup.data_sha256`` when that is given."""
    embedded = setup.get("data")
    if embedded is None:
        return None
    if not isinstance(embedded, str):
        raise RecordError(
            f"'setup.data' must be the text of the game's data file, got "
            f"{type(embedded).__name__}"
        )
    try:
        size = len(embedded.encode("utf-8"))
    except UnicodeEncodeError:
        raise RecordError(
            "'setup.data' must be text a UTF-8 file can hold; it has lone surrogates"
        ) from None
    if size > gamedata.MAX_DATA_BYTES:
        raise RecordError(
            f"'setup.data' is {size} bytes; embedded game data holds at most "
            f"{gamedata.MAX_DATA_BYTES} bytes"
        )
    actual = gamedata.digest_of(embedded)
    if digest is not None and digest != actual:
        raise RecordError(
            f"'setup.data' has sha256 {actual[:12]}..., but 'setup.data_sha256' says "
            f"{quote(digest)}: the embedded data was changed"
        )
    return embedded
