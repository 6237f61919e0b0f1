"""The messages of the play server, as pydantic models: the websocket protocol and the HTTP
lobby's bodies. docs/protocol.md describes them with examples.

Every websocket message is a JSON object with a ``type``. Client messages are parsed with
``parse_client_message``, which never raises: bad input becomes an ``ErrorMsg`` saying what
was wrong (``bad_json``, ``unknown_type``, ``bad_message``...), and nothing changes.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

#: Message ids clients may attach (echoed in the answer) are short strings or integers.
ClientRef = Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=0, lt=2**53)]
Version = Annotated[int, Field(ge=0, lt=2**53)]


class ErrorCode(StrEnum):
    """What was wrong with a message (``error.code``)."""

    BAD_JSON = "bad_json"
    TOO_LARGE = "too_large"
    UNKNOWN_TYPE = "unknown_type"
    BAD_MESSAGE = "bad_message"
    HELLO_FIRST = "hello_first"
    BAD_TOKEN = "bad_token"
    SPECTATOR = "spectator"
    WRONG_SEAT = "wrong_seat"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"
    INVALID_ACTION = "invalid_action"
    ILLEGAL_ACTION = "illegal_action"
    RACE = "race"
    NO_RACE = "no_race"
    UNAVAILABLE = "unavailable"
    NOT_AWAY = "not_away"
    SPECTATORS_FULL = "spectators_full"


class _Strict(BaseModel):
    # Unknown fields are refused: a typo ("verison") must not be silently ignored.
    model_config = ConfigDict(extra="forbid")


class _StrictMessage(_Strict):
    # Websocket messages are also validated without conversions: "12" or false is not a
    # version, an action or a seat (JSON spells integers as integers), and a client that
    # sends them has a bug the server must not paper over by playing the move.
    model_config = ConfigDict(extra="forbid", strict=True)


#: A name people give a seat: printable text (no control characters, which PostgreSQL's text
#: columns refuse and no screen shows), at most 64 characters.
PlayerName = Annotated[str, Field(max_length=64, pattern=r"^[^\x00-\x1f\x7f]*$")]


# -- client -> server ------------------------------------------------------------------------


class HelloMsg(_StrictMessage):
    """The first message on a connection: a seat token, or none to watch."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)] | None = None
    #: How many events of its log the client has: the ``log_index`` last received.
    log_from: Annotated[int, Field(ge=0, lt=2**31)] = 0
    #: Also send the log in words (``words``, parallel to ``log``), as the browser does.
    words: bool = False


class ActionMsg(_StrictMessage):
    """Play an action of the seat's decision: its integer (``options[i].action``) or its
    canonical text (``options[i].text``), decided on state ``version``."""

    type: Literal["action"]
    version: Version
    action: Annotated[int, Field(ge=0, lt=2**31)] | None = None
    text: Annotated[str, Field(max_length=100)] | None = None
    #: Optional: the seat the client believes it holds; refused if it is not the token's.
    seat: Annotated[int, Field(ge=0, lt=64)] | None = None
    ref: ClientRef | None = None

    @model_validator(mode="after")
    def _one_action(self) -> ActionMsg:
        if (self.action is None) == (self.text is None):
            raise ValueError("give the action as 'action' (its integer) or 'text', not both")
        return self


class ReactMsg(_StrictMessage):
    """The player pressed (rubbed the lamp) in a real-time decision; send it at once."""

    type: Literal["react"]
    version: Version
    ref: ClientRef | None = None


class PongMsg(_StrictMessage):
    """The answer to a server ``ping``, sent as soon as the ping is read."""

    type: Literal["pong"]
    nonce: Annotated[str, Field(max_length=64)]


class SyncMsg(_StrictMessage):
    """Ask for the whole view again (a client that lost track)."""

    type: Literal["sync"]


class SeatBotMsg(_StrictMessage):
    """Let a bot (``agent``) play for ``seat``, a human away past the table's ``away_s``;
    from a seated player (the human gets the seat back when they reconnect)."""

    type: Literal["seat_bot"]
    seat: Annotated[int, Field(ge=0, lt=64)]
    agent: Annotated[str, Field(max_length=200)] = "heuristic"
    ref: ClientRef | None = None


ClientMessage = Annotated[
    HelloMsg | ActionMsg | ReactMsg | PongMsg | SyncMsg | SeatBotMsg, Field(discriminator="type")
]
ClientMsg = HelloMsg | ActionMsg | ReactMsg | PongMsg | SyncMsg | SeatBotMsg
_CLIENT: TypeAdapter[ClientMsg] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "action", "react", "pong", "sync", "seat_bot")


# -- server -> client ------------------------------------------------------------------------


class ErrorMsg(BaseModel):
    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    #: The ``ref`` of the message refused, when it had one.
    ref: ClientRef | None = None


def parse_client_message(text: str | bytes) -> ClientMsg | ErrorMsg:
    """The client message in ``text``, or the error to answer it with."""
    try:
        data = json.loads(text)
    # ValueError covers JSONDecodeError, bad UTF-8 and integers past Python's digit limit.
    except (ValueError, RecursionError) as exc:
        return ErrorMsg(code=ErrorCode.BAD_JSON, message=f"not valid JSON: {exc}"[:200])
    if not isinstance(data, dict):
        return ErrorMsg(
            code=ErrorCode.BAD_MESSAGE,
            message=f"a message is a JSON object with a 'type', got {type(data).__name__}",
        )
    kind = data.get("type")
    ref = data.get("ref")
    valid_ref = (isinstance(ref, str) and len(ref) <= 64) or (type(ref) is int and 0 <= ref < 2**53)
    ref_ok = ref if valid_ref else None
    if kind not in CLIENT_TYPES:
        shown = json.dumps(kind)[:40] if kind is not None else "none"
        return ErrorMsg(
            code=ErrorCode.UNKNOWN_TYPE,
            message=f"unknown message type {shown}; expected one of {', '.join(CLIENT_TYPES)}",
            ref=ref_ok,
        )
    try:
        message: ClientMsg = _CLIENT.validate_python(data)
        return message
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:]) or 'message'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        return ErrorMsg(
            code=ErrorCode.BAD_MESSAGE, message=f"bad {kind} message: {problems}"[:500], ref=ref_ok
        )


# The server's messages are built as plain dicts in the runtime (they carry the engine's
# views as they are); these models document them for the OpenAPI-free websocket side and for
# tests that validate what the server sends.


class ClockInfo(BaseModel):
    """A seat's clock: time left on the per-game clock (None: no per-game clock), and the
    time left for the current decision (None: not deciding, or no clock)."""

    seat: int
    game_left_ms: int | None = None
    move_left_ms: int | None = None


class WelcomeMsg(BaseModel):
    type: Literal["welcome"] = "welcome"
    table: TableInfo
    #: The seat this connection holds (None: spectator).
    seat: int | None
    view: dict[str, Any] | None
    log: list[dict[str, Any]]
    log_index: int


class UpdateMsg(BaseModel):
    type: Literal["update"] = "update"
    view: dict[str, Any]
    log: list[dict[str, Any]]
    log_index: int
    clocks: list[ClockInfo] = []


class AckMsg(BaseModel):
    type: Literal["ack"] = "ack"
    ref: ClientRef | None = None
    version: int


class PingMsg(BaseModel):
    type: Literal["ping"] = "ping"
    nonce: str


class TableMsg(BaseModel):
    """The table changed outside the game: a seat was taken, the table started or ended."""

    type: Literal["table"] = "table"
    table: TableInfo


# -- HTTP lobby ------------------------------------------------------------------------------

JsonScalar = str | int | float | bool | None
TableStatus = Literal["open", "running", "finished", "abandoned"]

#: How long a seat's connection may be gone before a bot may be handed the seat, by default.
DEFAULT_AWAY_S = 120.0


class SeatSpec(_Strict):
    """Who sits at a seat when the table is created."""

    kind: Literal["human", "bot"] = "human"
    #: The agent spec of a bot (``arabesque agents GAME`` lists them), e.g. "heuristic".
    agent: Annotated[str, Field(max_length=200)] | None = None
    name: PlayerName | None = None


class ClockSpec(_Strict):
    """Time limits. A seat whose time runs out gets the decision's default action
    (``on_timeout="default"``) or a move by ``timeout_agent`` (``"bot"``); a seat that ran
    out while disconnected is then played at once until it reconnects."""

    per_move_s: Annotated[float, Field(gt=0, le=86400)] | None = 120.0
    per_game_s: Annotated[float, Field(gt=0, le=7 * 86400)] | None = None
    on_timeout: Literal["default", "bot"] = "default"
    timeout_agent: Annotated[str, Field(max_length=200)] = "random"


class CreateTableRequest(_Strict):
    game: Annotated[str, Field(max_length=64, examples=["magic-lamp"])]
    #: Number of players (default: the game's usual count).
    players: Annotated[int, Field(ge=1, le=64)] | None = None
    #: Game options by name, as ``arabesque play --option KEY=VALUE`` gives them.
    options: dict[Annotated[str, Field(max_length=64)], JsonScalar] = Field(
        default_factory=dict, max_length=32
    )
    #: Shorthand for ``options["variant"]`` (ali-baba).
    variant: Annotated[str, Field(max_length=64)] | None = None
    #: One entry per seat; missing seats are open for humans.
    seats: Annotated[list[SeatSpec], Field(max_length=64)] | None = None
    clock: ClockSpec = Field(default_factory=ClockSpec)
    #: A bot's longest think per move, seconds (None: the server's ``--bot-deadline``,
    #: which is also the most a table may ask for).
    bot_think_s: Annotated[float, Field(gt=0, le=60)] | None = None
    #: Start by itself as soon as every seat is taken.
    auto_start: bool = False
    #: Seconds a human seat's connection must be gone before the host or another seated
    #: player may hand the seat to a bot (``seat_bot``).
    away_s: Annotated[float, Field(ge=1, le=86400, strict=True)] = DEFAULT_AWAY_S
    #: Players may ask for a hint on their own moves (``GET /api/tables/{id}/hint``);
    #: shown to everyone in ``TableInfo.hints``.
    hints: bool = False


class SeatBotRequest(_Strict):
    """Let a bot of ``agent`` play for an away human."""

    agent: Annotated[str, Field(max_length=200)] = "heuristic"


class AbandonRequest(_Strict):
    """End a game that cannot go on (the host): no winner; the setup is revealed."""

    reason: Annotated[str, Field(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")] = (
        "ended by the host"
    )


class JoinRequest(_Strict):
    #: The seat to take (from the join link); None: the first free human seat.
    seat: Annotated[int, Field(ge=0, lt=64)] | None = None
    name: PlayerName | None = None


class FillRequest(_Strict):
    """Seat bots of ``agent`` at every free human seat."""

    agent: Annotated[str, Field(max_length=200)] = "heuristic"


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    agent: str | None = None
    name: str | None = None
    #: A human seat has been joined (its token handed out).
    taken: bool
    connected: bool = False
    #: A joined human whose connection is gone (ISO time since when), during the game.
    away_since: str | None = None
    #: Gone for longer than the table's ``away_s``: a bot may be handed the seat.
    away: bool = False
    #: The agent playing for this away human (until they reconnect).
    played_by: str | None = None


class Reveal(BaseModel):
    """The setup behind the commitment, revealed when the game is over."""

    seed: str
    salt: str
    arrangement: dict[str, Any] | None


class TableInfo(BaseModel):
    id: str
    game: str
    params: dict[str, Any]
    status: TableStatus
    seats: list[SeatInfo]
    clock: ClockSpec
    bot_think_s: float
    auto_start: bool
    created_at: str
    version: int | None = None
    #: SHA-256 commitment to the seed and arrangement, published when the table starts.
    commitment: str | None = None
    reveal: Reveal | None = None
    result: dict[str, Any] | None = None
    away_s: float = DEFAULT_AWAY_S
    #: Players may ask for hints on their own moves (set by the host at creation).
    hints: bool = False
    #: Why an abandoned table ended.
    end_reason: str | None = None
    #: What happened outside the game: ``{"at", "kind", "seat", "text"}`` (kinds
    #: ``stand_in``, ``back``, ``abandoned``).
    notes: list[dict[str, Any]] = Field(default_factory=list)


class CreateTableResponse(BaseModel):
    table: TableInfo
    #: Authorizes fill and start (``Authorization: Bearer <host_token>``). Shown once.
    host_token: str


class JoinResponse(BaseModel):
    table_id: str
    seat: int
    #: The seat's secret: send it in the websocket ``hello``. Shown once, stored hashed.
    token: str
    websocket: str


class OptionInfo(BaseModel):
    """One game option a table may set (``CreateTableRequest.options``)."""

    name: str
    kind: Literal["bool", "int", "choice"]
    default: JsonScalar
    #: The values allowed, for a ``choice``.
    choices: list[str | int] | None = None
    #: The option in words (the game's ``Params.WORDS``; its name when it has none).
    label: str = ""
    #: What it changes, in one line ("" when the game says nothing).
    help: str = ""
    #: A name for each of ``choices``, in their order (None: the values are their names).
    choice_labels: list[str] | None = None


class GameInfo(BaseModel):
    id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    real_time: bool
    agents: list[str]
    #: Each agent's one-line description (the search levels say what they are).
    agent_descriptions: dict[str, str] = Field(default_factory=dict)
    #: The options a lobby offers (not the data file, not the safety caps).
    options: list[OptionInfo] = Field(default_factory=list)
    #: What the game is, in one line, and how long a game lasts, in words.
    description: str = ""
    length: str = ""


class HintOptionInfo(BaseModel):
    """One option of a hint: its action (null: "react" at a real-time decision), the
    decision's label and canonical text for it, how often the search tried it, its value in
    [0, 1] (``HintInfo.measure`` says what it is) and, at a secret simultaneous choice, its
    share of the search's mixed strategy."""

    action: int | None
    label: str
    text: str | None
    visits: int
    value: float
    share: float | None = None


class HintInfo(BaseModel):
    """A hint for ``seat`` (agents/hint.py): the search bot's best options, most tried
    first, and in ``explanation`` what their numbers are: ``win_rate`` (simulated games
    played to the end, where that is affordable) or ``evaluation`` (the game's evaluation a
    few moves on)."""

    game: str
    seat: int
    level: str
    seed: str
    measure: Literal["win_rate", "evaluation"]
    explanation: str
    prompt: str
    #: A real-time decision (the lamp race): the options are react / don't.
    reaction: bool
    options: list[HintOptionInfo]
    #: How many options the seat has; what the search spent.
    considered: int
    iterations: int
    applies: int


class ApiError(BaseModel):
    code: str
    message: str


WelcomeMsg.model_rebuild()
TableMsg.model_rebuild()
