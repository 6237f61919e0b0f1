"""Live tables: the game states the server plays, their connections, bots, clocks and races.

One ``Hub`` per server holds every table that is open or running, the store, and the thread
pools (bots think there, and the database is written there, so the event loop never waits
for either). One ``TableRuntime`` per table owns its ``GameState``; every change to it is
made under the table's lock, in this order:

1. check and apply the action on the state (the engine refuses a bad one without changing
   anything);
2. commit it to the database (``Hub.commit``: the actions of the tables that moved at the
   same time share one transaction) — if that fails, the state is rebuilt from the
   database and the sender gets an error;
3. acknowledge it to the sender and ``publish``: the single place where "an action was
   applied to table X" goes out (hub listeners, then each local connection).

What a connection receives comes only from the game's observer: ``state.view(seat)`` (with
its decision) and ``state.log_since(seat, index)``, seat None for spectators. A seat whose
view and log did not change with a step (another seat's secret commitment) is sent nothing,
not even the new version number, and its actions stay valid at the version it holds: an
action is fresh when the seat has seen nothing new since the version it names.

The lamp race (any decision with ``decision.reaction``) is run by a ``RaceTimer``
(server/race.py): the reveal is the update carrying the race decision, stamped as it is
written to each seat's socket; presses are stamped when received and corrected by the
seat's round trip; bots answer with their own sampled reaction. The answers are applied
together when the race closes, so not even the version number betrays an early answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import orjson

from arabesque.agents.base import Agent, Observation
from arabesque.agents.registry import make_agent
from arabesque.bench import default_players
from arabesque.core import commitment
from arabesque.core.decision import Decision
from arabesque.core.errors import (
    ArabesqueError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    StaleStateError,
)
from arabesque.core.game import GameSpec, GameState, Params
from arabesque.core.records import GameRecord
from arabesque.core.registry import get_game
from arabesque.server import db
from arabesque.server.fanout import Fanout, fanout_for
from arabesque.server.protocol import (
    ClockInfo,
    ClockSpec,
    CreateTableRequest,
    ErrorCode,
    ErrorMsg,
    Reveal,
    SeatInfo,
    TableInfo,
)
from arabesque.server.race import GRACE_MS, LatencyEstimate, RaceTimer
from arabesque.server.settings import Settings
from arabesque.server.store import (
    Append,
    SeatData,
    Store,
    StoreError,
    TableData,
    hash_token,
    now,
)
from arabesque.server.words import Words, describer

log = logging.getLogger("arabesque.server")

T = TypeVar("T")

#: The record's ``metadata.source`` for games played on the server.
SOURCE = "arabesque serve"


def now_ms() -> float:
    """The server clock of the race and the clocks (monotonic milliseconds)."""
    return time.monotonic() * 1000.0


class LobbyError(Exception):
    """A lobby request that cannot be done; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class Transport(Protocol):
    """What a connection writes to (the websocket, seen from the runtime)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


OnSent = Callable[[float], None]
#: Tasks nobody awaits, kept here so they are not garbage-collected while they run.
_BACKGROUND: set[asyncio.Task[Any]] = set()


class Connection:
    """One client connection: the seat it holds (None: spectator), its outgoing queue and its
    measured latency. Messages are queued and written by one writer task, so a slow client
    never holds up a broadcast; one that falls ``send_queue`` messages behind is dropped."""

    def __init__(self, transport: Transport, queue_size: int) -> None:
        self.transport = transport
        self.seat: int | None = None
        self.hello = False
        #: The client asked for the log in words too (``hello.words``).
        self.words = False
        self.latency = LatencyEstimate()
        #: Ping nonce -> server time the ping was written.
        self.pings: dict[str, float | None] = {}
        self.closed = False
        self._queue: asyncio.Queue[tuple[str, OnSent | None, tuple[int, str] | None]] = (
            asyncio.Queue(queue_size)
        )
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any] | str, on_sent: OnSent | None = None) -> None:
        """Queue a message; ``on_sent`` is called with the time it was written."""
        if self.closed:
            return
        text = message if isinstance(message, str) else dumps(message).decode()
        try:
            self._queue.put_nowait((text, on_sent, None))
        except asyncio.QueueFull:
            log.warning("dropping a connection that stopped reading")
            self.close_soon(1008, "too slow: messages are not being read")

    def error(self, code: ErrorCode, message: str, ref: str | int | None = None) -> None:
        self.send(ErrorMsg(code=code, message=message, ref=ref).model_dump(mode="json"))

    def close_soon(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued (an error explaining why goes first);
        at once if the queue is full (a client that does not read)."""
        if self.closed:
            return
        self.closed = True
        try:
            self._queue.put_nowait(("", None, (code, reason)))
        except asyncio.QueueFull:
            task = asyncio.get_running_loop().create_task(self._close(code, reason))
            _BACKGROUND.add(task)
            task.add_done_callback(_BACKGROUND.discard)

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.transport.close(code, reason)

    async def _write(self) -> None:
        try:
            while True:
                text, on_sent, close = await self._queue.get()
                if close is not None:
                    await self._close(*close)
                    return
                await self.transport.send_text(text)
                if on_sent is not None:
                    on_sent(now_ms())
        except Exception:  # the socket went away: the reader side notices and cleans up
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer


@dataclass
class _Race:
    timer: RaceTimer
    version: int
    opened_ms: float
    closer: asyncio.Task[None] | None = None
    closing: bool = False


def dumps(message: Any) -> bytes:
    """The JSON of an outgoing frame: orjson (several times faster than the standard
    library on the large views), or the standard library for what orjson refuses (a string
    that is no Unicode text, say), which escapes it as before. Keys that are not strings
    need ``OPT_NON_STR_KEYS``, which makes orjson 1.5-2.5 times slower on everything, so it
    is tried only for a message that has such keys (the output is the same when every key
    is a string)."""
    try:
        return orjson.dumps(message)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(message).encode()


def _split_version(view: dict[str, Any]) -> tuple[int, bytes]:
    """A view's version and the JSON of the rest of it: what a seat was shown is compared
    without the version (see ``send_updates``), and the update frame is made from it."""
    rest = dict(view)
    version: int = rest.pop("version")
    return version, dumps(rest)


def _update_frame(
    version: int,
    body: bytes,
    events: list[dict[str, Any]],
    index: int,
    clocks: list[Any],
    words: list[Words] | None = None,
) -> str:
    """The ``update`` frame, from the view's JSON without its version (``_split_version``):
    the version is put back as the view's first key, so the view is encoded only once."""
    # One join, one decode: the view is the bulk of the frame and is copied once.
    parts = [
        b'{"type":"update","view":{"version":%d' % version,
        # Past the view's opening brace; a comma unless the rest of the view is empty.
        b"," if body[1:].strip() != b"}" else b"",
        memoryview(body)[1:],
        b',"log":',
        dumps(events),
        b',"log_index":%d,"clocks":' % index,
        dumps(clocks),
    ]
    if words is not None:
        parts += [b',"words":', dumps(words)]
    parts.append(b"}")
    return b"".join(parts).decode()


def make_params(spec: GameSpec, players: int | None, options: dict[str, Any]) -> Params:
    """Params from the lobby's options, as ``arabesque play`` builds them."""
    num_players = default_players(spec) if players is None else players
    return spec.make_params(num_players=num_players, **options)


class TableRuntime:
    """One table: its configuration, its game once started, and everyone connected to it."""

    def __init__(self, hub: Hub, data: TableData) -> None:
        self.hub = hub
        self.data = data
        self.id = data.id
        self.spec = get_game(data.game)
        self.params = self.spec.make_params(**data.params)
        self.clock = ClockSpec.model_validate(data.options.get("clock", {}))
        self.bot_think_s = float(data.options.get("bot_think_s", hub.settings.bot_think_s))
        self.auto_start = bool(data.options.get("auto_start", False))
        self.lock = asyncio.Lock()
        self.state: GameState | None = None
        self.connections: dict[int | None, set[Connection]] = {}
        n = self.params.num_players
        keys: list[int | None] = [*range(n), None]
        # What each seat (and the spectators, key None) was last shown: the JSON of its view
        # without the version (``_split_version``).
        self._shown: dict[int | None, bytes | None] = dict.fromkeys(keys)
        self._log_index: dict[int | None, int] = dict.fromkeys(keys, 0)
        #: The version at which each seat last saw something change: its actions are fresh
        #: from that version on.
        self._changed_at: dict[int | None, int] = dict.fromkeys(keys, 0)
        self._agents: dict[int, Agent] = {}
        self._agent_locks: dict[int, threading.Lock] = {}
        self._bot_tasks: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self._race: _Race | None = None
        # Clocks: when each human seat's current decision began, its timer, its time used.
        self._move_started: dict[int, float] = {}
        self._timers: dict[int, tuple[int, asyncio.TimerHandle]] = {}
        self._used_ms: dict[int, int] = {s.seat: s.clock_used_ms for s in data.seats}
        self._away: set[int] = set()
        #: Another server process has served this table (docs/fanout.md): a seat with no
        #: connection here may be connected there, so it is never taken to be away.
        self._shared = False
        self._closed = False

    # -- building ----------------------------------------------------------------------

    def _new_state(self) -> GameState:
        assert self.data.seed is not None
        data = self.data
        return self.spec.new_game(self.params, seed=data.seed, arrangement=data.arrangement)

    def replay(self) -> None:
        """Rebuild the live state from the stored setup and actions (a restart)."""
        state = self._new_state()
        for seat, text in self.data.actions:
            state.apply(seat, state.parse_action(text))
        self.state = state
        for key in self._changed_at:
            self._changed_at[key] = state.version
            self._shown[key] = None
            self._log_index[key] = len(state.events)

    def resume(self) -> None:
        """Set bots, clocks and races going for a running game (after start or restart)."""
        if self.state is not None and not self.state.is_over:
            self._refresh_shown()
            self._open_race()
            for seat in range(self.state.num_players):
                self._clock(seat)
            self._after_change()

    def _refresh_shown(self) -> None:
        """Remember what each seat sees now without sending it (after a replay: the clients
        that reconnect get it in their welcome)."""
        state = self.state
        assert state is not None
        for key in self._shown:
            self._shown[key] = _split_version(state.view(key, include_log=False))[1]
            self._log_index[key] = len(state.events)

    # -- information -------------------------------------------------------------------

    def seat_data(self, seat: int) -> SeatData:
        return self.data.seats[seat]

    def is_bot(self, seat: int) -> bool:
        return self.seat_data(seat).kind == db.BOT

    def info(self) -> TableInfo:
        state = self.state
        reveal = None
        result = None
        if state is not None and state.is_over and self.data.salt is not None:
            reveal = Reveal(
                seed=str(self.data.seed), salt=self.data.salt, arrangement=self.data.arrangement
            )
            result = {
                "scores": [s.to_json() for s in state.scores()],
                "ranking": state.ranking(),
            }
        return TableInfo(
            id=self.id,
            game=self.data.game,
            params=self.data.params,
            status=self.data.status,  # type: ignore[arg-type]
            seats=[
                SeatInfo(
                    seat=s.seat,
                    kind=s.kind,  # type: ignore[arg-type]
                    agent=s.agent,
                    name=s.name,
                    taken=s.kind == db.BOT or s.token_hash is not None,
                    connected=bool(self.connections.get(s.seat)),
                )
                for s in self.data.seats
            ],
            clock=self.clock,
            bot_think_s=self.bot_think_s,
            auto_start=self.auto_start,
            created_at=self.data.created_at.isoformat(),
            version=None if state is None else state.version,
            commitment=self.data.commitment,
            reveal=reveal,
            result=result,
        )

    def record(self) -> GameRecord:
        """The game's full record; only once the game is over (it holds every secret)."""
        state = self.state
        if state is None or not state.is_over:
            raise LobbyError(
                409,
                "not_finished",
                "the record holds the seed and so every hidden card: it is available once "
                "the game is over",
            )
        metadata: dict[str, Any] = {
            "source": SOURCE,
            "table": self.id,
            "agents": [
                (s.agent or "bot") if s.kind == db.BOT else "human" for s in self.data.seats
            ],
        }
        if self.data.commitment is not None and self.data.salt is not None:
            metadata["commitment"] = {"sha256": self.data.commitment, "salt": self.data.salt}
        return GameRecord.from_state(state, metadata)

    def _clock_info(self, seat: int) -> list[dict[str, Any]]:
        clock = self.clock
        game_left = None
        if clock.per_game_s is not None:
            game_left = max(0, int(clock.per_game_s * 1000) - self._used_ms.get(seat, 0))
        move_left = None
        started = self._move_started.get(seat)
        if started is not None:
            deadline = self._deadline(seat, started)
            if deadline is not None:
                move_left = max(0, int(deadline - now_ms()))
        if game_left is None and move_left is None:
            return []
        return [ClockInfo(seat=seat, game_left_ms=game_left, move_left_ms=move_left).model_dump()]

    # -- connections -------------------------------------------------------------------

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for s in self.data.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    async def connect(self, conn: Connection, seat: int | None, log_from: int) -> None:
        """Register ``conn`` for ``seat`` and send it the welcome: the table, its view and
        its log from ``log_from`` (a reconnecting client passes the last index it got)."""
        async with self.lock:
            conn.seat = seat
            conn.hello = True
            if seat is not None:
                # One live connection per seat: the newest wins (a reconnect replaces a
                # connection the client may not know is dead).
                for old in self.connections.get(seat, set()):
                    old.error(ErrorCode.BAD_TOKEN, "this seat was taken over by a new connection")
                    old.close_soon(4001, "replaced by a new connection")
                self.connections[seat] = set()
                self._away.discard(seat)
                # Other processes must stop taking this seat for away (docs/fanout.md).
                self._announce()
            self.connections.setdefault(seat, set()).add(conn)
            conn.send(self._welcome(conn, log_from), self._reveal_hook(seat, conn))
            self._broadcast_table(exclude=conn)

    async def resync(self, conn: Connection) -> None:
        """Send ``conn`` its whole view again, as a welcome (the log from the start)."""
        async with self.lock:
            conn.send(self._welcome(conn, 0), self._reveal_hook(conn.seat, conn))

    def _words(self, events: list[dict[str, Any]]) -> list[Words]:
        describe = describer(self.data.game, self.data.seats)
        return [describe(event) for event in events]

    def _welcome(self, conn: Connection, log_from: int) -> dict[str, Any]:
        seat = conn.seat
        state = self.state
        view = None
        events: list[dict[str, Any]] = []
        index = 0
        if state is not None:
            view = state.view(seat, include_log=False)
            events, index = state.log_since(seat, min(log_from, len(state.events)))
            if seat is None:
                # The spectators' view is only kept up to date while one is connected
                # (send_updates): from this welcome on.
                self._shown[None] = _split_version(view)[1]
                self._log_index[None] = index
        welcome: dict[str, Any] = {
            "type": "welcome",
            "table": self.info().model_dump(mode="json"),
            "seat": seat,
            "view": view,
            "log": events,
            "log_index": index,
            "clocks": [] if seat is None else self._clock_info(seat),
        }
        if conn.words:
            welcome["words"] = self._words(events)
        return welcome

    async def disconnect(self, conn: Connection) -> None:
        async with self.lock:
            conns = self.connections.get(conn.seat)
            if conns is not None and conn in conns:
                conns.discard(conn)
                self._broadcast_table()

    def _all_connections(self) -> list[Connection]:
        return [c for conns in self.connections.values() for c in conns]

    def _broadcast_table(self, exclude: Connection | None = None) -> None:
        message = dumps({"type": "table", "table": self.info().model_dump(mode="json")}).decode()
        for conn in self._all_connections():
            if conn is not exclude:
                conn.send(message)

    # -- the lobby ---------------------------------------------------------------------

    async def join(self, seat: int | None, name: str | None) -> tuple[int, str]:
        async with self.lock:
            if self.data.status == db.FINISHED:
                raise LobbyError(409, "finished", "the game is over")
            free = [s.seat for s in self.data.seats if s.kind == db.HUMAN and s.token_hash is None]
            if seat is None:
                if not free:
                    raise LobbyError(409, "full", "every seat of this table is taken")
                seat = free[0]
            if not 0 <= seat < len(self.data.seats):
                raise LobbyError(
                    404, "no_seat", f"no seat {seat}; seats are 0..{len(self.data.seats) - 1}"
                )
            if seat not in free:
                raise LobbyError(409, "seat_taken", f"seat {seat} is already taken")
            token = secrets.token_urlsafe(32)
            digest = hash_token(token)
            if not await self.hub.db(self.hub.store.take_seat, self.id, seat, digest, name):
                raise LobbyError(409, "seat_taken", f"seat {seat} is already taken")
            self.data.seats[seat].token_hash = digest
            self.data.seats[seat].name = name
            self._broadcast_table()
            self._announce()
        await self._auto_start()
        return seat, token

    async def fill(self, agent: str) -> None:
        make_agent(agent, self.spec.id, seed=0)  # refuse a bad spec with its message
        async with self.lock:
            if self.data.status != db.OPEN:
                raise LobbyError(409, "not_open", "only an open table can be filled with bots")
            free = [s.seat for s in self.data.seats if s.kind == db.HUMAN and s.token_hash is None]
            await self.hub.db(self.hub.store.seat_bots, self.id, free, agent)
            for seat in free:
                self.data.seats[seat].kind = db.BOT
                self.data.seats[seat].agent = agent
            self._broadcast_table()
            self._announce()
        await self._auto_start()

    def _full(self) -> bool:
        return all(s.kind == db.BOT or s.token_hash is not None for s in self.data.seats)

    async def _auto_start(self) -> None:
        if self.auto_start and self.data.status == db.OPEN and self._full():
            with contextlib.suppress(LobbyError):
                await self.start()

    async def start(self) -> None:
        """Fix the setup (a fresh seed, its arrangement), publish the commitment, play."""
        async with self.lock:
            if self.data.status != db.OPEN:
                raise LobbyError(409, "not_open", f"the table is {self.data.status}, not open")
            if not self._full():
                missing = [
                    s.seat for s in self.data.seats if s.kind == db.HUMAN and s.token_hash is None
                ]
                raise LobbyError(
                    409,
                    "seats_free",
                    f"seats {missing} are free: join them or fill them with bots first",
                )
            seed = secrets.randbits(63)
            self.data.seed = seed
            self.data.arrangement = None
            arrangement = self._new_state().arrangement()
            self.data.arrangement = arrangement
            # Played from the stored arrangement, exactly as a restart or a replay rebuilds it.
            state = self._new_state()
            salt = commitment.new_salt()
            digest = commitment.commit_state(state, salt)
            if not await self.hub.db(
                self.hub.store.start, self.id, seed, arrangement, salt, digest
            ):
                raise LobbyError(409, "not_open", "the table was started already")
            self.data.status = db.RUNNING
            self.data.salt = salt
            self.data.commitment = digest
            self.state = state
            self._broadcast_table()
            self._open_race()
            self.publish()
            self._after_change()

    # -- acting ------------------------------------------------------------------------

    def _fresh(self, seat: int, version: int) -> int:
        """The version to hand ``state.apply``: the current one when the seat has seen
        nothing new since ``version`` (so another seat's secret move does not make its
        action stale), else ``version`` itself, which apply refuses as stale."""
        state = self.state
        assert state is not None
        if self._changed_at[seat] <= version <= state.version:
            return state.version
        return version

    async def act(
        self,
        seat: int,
        version: int,
        action: int | None = None,
        text: str | None = None,
        conn: Connection | None = None,
        ref: str | int | None = None,
    ) -> ErrorMsg | None:
        """A seat's action (human or bot). Returns the error to send back, or None when the
        action was applied, committed and published (and acknowledged to ``conn``)."""
        async with self.lock:
            state = self.state
            if state is None:
                return ErrorMsg(
                    code=ErrorCode.NOT_STARTED, message="the game has not started", ref=ref
                )
            try:
                if text is not None:
                    action = state.parse_action(text)
                assert action is not None
                race = self._race
                if race is not None and seat in race.timer.seats and not state.is_over:
                    return self._race_answer(seat, version, action, conn, ref)
                state.apply(seat, action, version=self._fresh(seat, version))
            except ArabesqueError as exc:
                return ErrorMsg(code=_error_code(exc), message=str(exc), ref=ref)
            self._clock_spent(seat)
            applied = [(seat, state.action_to_str(action))]
            stored = len(self.data.actions)
            if not await self._commit(applied):
                if len(self.data.actions) > stored:
                    # Another server process stored a move at this step first: the seat
                    # has just been sent the game as it now is and decides again.
                    return ErrorMsg(
                        code=ErrorCode.STALE,
                        message="another move was stored first; look at the game again",
                        ref=ref,
                    )
                return ErrorMsg(
                    code=ErrorCode.UNAVAILABLE,
                    message="the action could not be saved; the game is as it was, try again",
                    ref=ref,
                )
            self._open_race()
            self.publish()
            # After the update: a client that has its ack has its new view too.
            if conn is not None:
                conn.send({"type": "ack", "ref": ref, "version": state.version})
            self._after_change()
            return None

    async def _commit(self, applied: list[tuple[int, str]]) -> bool:
        """Store actions just applied to the state. On failure the state is rebuilt from
        the database (as it was before them) and False is returned."""
        state = self.state
        assert state is not None
        first = len(self.data.actions)
        used = dict(self._used_ms) if self.clock.per_game_s is not None else {}
        try:
            await self.hub.commit(Append(self.id, first, applied, used, state.is_over))
        except Exception as exc:  # any database failure (StoreError...): the same recovery
            # A step stored first by another server process is expected (docs/fanout.md).
            level = logging.INFO if isinstance(exc, StoreError) else logging.ERROR
            log.log(level, "table %s: could not store %s: %s", self.id, applied, exc)
            fresh = await self.hub.db(self.hub.store.load, self.id)
            if fresh is not None:
                self.data = fresh
                self._used_ms = {s.seat: s.clock_used_ms for s in fresh.seats}
            self._rebuild()
            self._open_race()
            self.publish()
            self._after_change()
            return False
        self.data.actions.extend(applied)
        if state.is_over:
            self.data.status = db.FINISHED
            self.data.finished_at = now()
        return True

    def publish(self) -> None:
        """The one place where "the game at this table changed" goes out: to the hub's
        listeners (a cross-process notifier hooks in there), then to every connection here,
        each with its own view and log delta. Seats that see no change are sent nothing."""
        state = self.state
        assert state is not None
        self.hub.notify_applied(self.id, state.version)
        self.send_updates()
        if state.is_over:
            self._game_over()

    # -- other server processes (docs/fanout.md) -----------------------------------------

    def _announce(self) -> None:
        """Tell the other server processes that this table changed outside the game (a seat
        taken, bots seated, a seat connected here); they read it from the database."""
        self.hub.notify_applied(self.id, 0 if self.state is None else self.state.version)

    def _rebuild(self) -> None:
        """Rebuild the state from ``self.data`` after a failed commit, keeping what each seat
        was last sent, so that what follows are true deltas from it (a replay for a restart
        forgets them: its clients reconnect and get a welcome)."""
        shown, index, changed = dict(self._shown), dict(self._log_index), dict(self._changed_at)
        self.replay()
        self._shown, self._log_index, self._changed_at = shown, index, changed

    def _drives(self) -> bool:
        """Whether this process runs the table's bots, clocks and race after a change made
        elsewhere: only while a seat is connected here. A process that only has spectators
        follows; the one that changed the table drives it on (docs/fanout.md)."""
        return any(self.connections.get(s.seat) for s in self.data.seats)

    async def catch_up(self, version: int | None) -> None:
        """Another server process changed this table: read it from the database and bring
        the live table up to ``version`` (None: to whatever is stored), then tell this
        process's connections exactly as for a local change. A version already held costs
        one read at most; the database, not the notification, says what happened."""
        async with self.lock:
            state = self.state
            if self._closed or (
                version is not None and state is not None and version < state.version
            ):
                return
            fresh = await self.hub.db(self.hub.store.load, self.id)
            if fresh is None:
                return
            if version is not None and not self._shared:
                self._shared = True
                self._away.clear()
            self._follow(fresh, version)
        await self._auto_start()

    def _follow(self, fresh: TableData, upto: int | None) -> None:
        data = self.data
        before = [(s.kind, s.agent, s.name, s.token_hash) for s in data.seats]
        data.seats = fresh.seats
        for s in fresh.seats:
            # Time used only grows; each process charges the moves it timed.
            self._used_ms[s.seat] = max(self._used_ms.get(s.seat, 0), s.clock_used_ms)
        changed = before != [(s.kind, s.agent, s.name, s.token_hash) for s in data.seats]
        started = False
        if self.state is None:
            if fresh.status == db.OPEN:
                if changed:
                    self._broadcast_table()
                return
            # Started by another process: the same setup, so the same game.
            data.status, data.started_at = fresh.status, fresh.started_at
            data.seed, data.arrangement = fresh.seed, fresh.arrangement
            data.salt, data.commitment = fresh.salt, fresh.commitment
            data.actions = []
            self.state = self._new_state()
            started = changed = True
        state = self.state
        held = len(data.actions)
        if fresh.actions[:held] != data.actions:
            # Cannot happen while every append goes through the (table, step) key; if the
            # database was restored behind our back, believe it.
            log.error("table %s: the stored game differs from the live one; rebuilding", self.id)
            self._drop_race()
            self.data = fresh
            self._rebuild()
        else:
            end = len(fresh.actions) if upto is None else max(held, min(upto, len(fresh.actions)))
            missing = fresh.actions[held:end]
            if not missing and not started:
                if changed:
                    self._broadcast_table()
                return
            if missing:
                self._drop_race()
            for seat, text in missing:
                state.apply(seat, state.parse_action(text))
            data.actions.extend(missing)
        if state.is_over and data.status != db.FINISHED:
            data.status = db.FINISHED
            data.finished_at = fresh.finished_at or now()
            changed = False  # the game_over message carries the table
        if changed:
            self._broadcast_table()
        driving = self._drives()
        if driving:
            self._open_race()
        self.send_updates()
        if state.is_over:
            self._game_over()
        if driving:
            self._after_change()
        else:
            self._stand_by()

    def _drop_race(self) -> None:
        """Forget the race open here: the stored game has moved past it (the race was decided
        where it closed first)."""
        race, self._race = self._race, None
        if race is not None and race.closer is not None:
            race.closer.cancel()

    def _stand_by(self) -> None:
        """Leave bots and clocks to the process that moves the game on. Only called under the
        table's lock, so no bot task is inside ``act`` (at most waiting for the lock)."""
        self._cancel_timers()
        # Time passed while another process ran the clock is not this process's to charge.
        self._move_started.clear()
        for _, task in self._bot_tasks.values():
            task.cancel()
        self._bot_tasks.clear()

    def send_updates(self) -> None:
        """Send each seat and the spectators what changed for them.

        Every seat's view is built (whether it changed says when the seat's decision is new:
        bots, clocks and the freshness of its actions follow that, connected or not); the
        spectators' only while one is connected (one who connects gets a welcome). A view is
        encoded once, and compared as JSON with what was last shown."""
        state = self.state
        assert state is not None
        for key in self._shown:
            conns = self.connections.get(key)
            if key is None and not conns:
                self._shown[None] = None
                self._log_index[None] = len(state.events)
                continue
            version, body = _split_version(state.view(key, include_log=False))
            events, index = state.log_since(key, self._log_index[key])
            changed = bool(events) or body != self._shown[key]
            if changed:
                self._shown[key] = body
                self._log_index[key] = index
                self._changed_at[key] = state.version
            if key is not None:
                self._clock(key)
            if not changed or not conns:
                continue
            clocks = [] if key is None else self._clock_info(key)
            message = _update_frame(version, body, events, index, clocks)
            worded: str | None = None
            for conn in conns:
                frame = message
                if conn.words:
                    if worded is None:
                        words = self._words(events)
                        worded = _update_frame(version, body, events, index, clocks, words)
                    frame = worded
                conn.send(frame, self._reveal_hook(key, conn))

    def _game_over(self) -> None:
        self._cancel_timers()
        message = dumps(
            {
                "type": "game_over",
                "table": self.info().model_dump(mode="json"),
                "record": f"/api/tables/{self.id}/record",
            }
        ).decode()
        for conn in self._all_connections():
            conn.send(message)

    # -- after every change: bots, clocks, races ------------------------------------------

    def _after_change(self) -> None:
        state = self.state
        if state is None or state.is_over or self._closed:
            self._cancel_timers()
            return
        race = self._race
        if race is not None and race.closer is None:
            self._start_race(race)
        acting = state.to_act()
        for seat in range(state.num_players):
            if seat not in acting or (race is not None and seat in race.timer.seats):
                continue
            if self.is_bot(seat):
                self._schedule_bot(seat)

    def _schedule_bot(self, seat: int, agent: Agent | None = None) -> None:
        """Ask the seat's bot for its move, unless it is already thinking about this one."""
        epoch = self._changed_at[seat]
        current = self._bot_tasks.get(seat)
        if current is not None and current[0] == epoch and not current[1].done():
            return
        previous = current[1] if current is not None else None
        task = asyncio.get_running_loop().create_task(self._bot_move(seat, epoch, previous, agent))
        self._bot_tasks[seat] = (epoch, task)

    def _agent(self, seat: int) -> Agent:
        agent = self._agents.get(seat)
        if agent is None:
            spec = self.seat_data(seat).agent or "random"
            agent = self._agents[seat] = make_agent(spec, self.spec.id, secrets.randbits(63))
        return agent

    def _timeout_agent(self, seat: int) -> Agent:
        key = -1 - seat  # kept apart from the seat's own bot
        agent = self._agents.get(key)
        if agent is None:
            agent = make_agent(self.clock.timeout_agent, self.spec.id, secrets.randbits(63))
            self._agents[key] = agent
        return agent

    async def think(self, seat: int, agent: Agent) -> int:
        """``agent``'s choice for ``seat`` now, computed in the bot pool on a copy of the
        state (the bot cannot touch the live one, which the loop keeps changing), within
        the table's think time; the decision's default when it fails or takes too long."""
        state = self.state
        assert state is not None
        default = state.default_action(seat)
        assert default is not None
        obs = Observation(state.clone(), seat)
        lock = self._agent_locks.setdefault(id(agent), threading.Lock())

        def run() -> int:
            # An agent left thinking past its time is still running: it is not asked again
            # until it finishes (agents keep state and are not thread-safe).
            if not lock.acquire(blocking=False):
                return default
            try:
                return agent.act(obs)
            finally:
                lock.release()

        loop = asyncio.get_running_loop()
        try:
            action = await asyncio.wait_for(
                loop.run_in_executor(self.hub.bot_pool, run), self.bot_think_s
            )
        except TimeoutError:
            log.info("table %s: bot at seat %d ran out of time", self.id, seat)
            return default
        except Exception:
            log.exception("table %s: bot at seat %d failed", self.id, seat)
            return default
        if action not in obs.legal:
            log.warning("table %s: bot at seat %d chose illegal %r", self.id, seat, action)
            return default
        return action

    async def _bot_move(
        self, seat: int, epoch: int, previous: asyncio.Task[None] | None, agent: Agent | None
    ) -> None:
        if previous is not None and not previous.done():
            with contextlib.suppress(BaseException):
                await previous
        state = self.state
        if state is None or self._changed_at[seat] != epoch or seat not in state.to_act():
            return
        version = state.version
        action = await self.think(seat, agent or self._agent(seat))
        race = self._race
        if race is not None and seat in race.timer.seats:
            async with self.lock:
                if self._race is race:
                    race.timer.answered(seat, action)
                    self._race_progress()
            return
        error = await self.act(seat, version, action)
        if error is not None and error.code != ErrorCode.STALE:
            log.warning("table %s: bot at seat %d: %s", self.id, seat, error.message)

    # clocks

    def _deadline(self, seat: int, started: float) -> float | None:
        if seat in self._away:
            return started
        limits = []
        if self.clock.per_move_s is not None:
            limits.append(self.clock.per_move_s * 1000)
        if self.clock.per_game_s is not None:
            limits.append(self.clock.per_game_s * 1000 - self._used_ms.get(seat, 0))
        return started + max(0.0, min(limits)) if limits else None

    def _clock(self, seat: int) -> None:
        """Run the seat's move clock if it is a human deciding now (not in a race, which
        has its own deadline), else stop it."""
        state = self.state
        race = self._race
        if (
            state is None
            or state.is_over
            or seat not in state.to_act()
            or self.is_bot(seat)
            or (race is not None and seat in race.timer.seats)
        ):
            self._stop_clock(seat)
        else:
            self._run_clock(seat)

    def _run_clock(self, seat: int) -> None:
        """Start the seat's move clock when its decision is new to it."""
        epoch = self._changed_at[seat]
        current = self._timers.get(seat)
        if current is not None and current[0] == epoch:
            return
        self._clock_spent(seat)
        started = now_ms()
        self._move_started[seat] = started
        deadline = self._deadline(seat, started)
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        handle = loop.call_later(
            max(0.0, deadline - now_ms()) / 1000,
            lambda: self._spawn(self._timeout(seat, epoch)),
        )
        self._timers[seat] = (epoch, handle)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)

    def _stop_clock(self, seat: int) -> None:
        """The seat is not deciding (any more): charge its clock and stop its timer."""
        self._clock_spent(seat)

    def _clock_spent(self, seat: int) -> None:
        """Charge the seat's per-game clock for the time since its decision began."""
        started = self._move_started.pop(seat, None)
        current = self._timers.pop(seat, None)
        if current is not None:
            current[1].cancel()
        if started is not None and self.clock.per_game_s is not None:
            self._used_ms[seat] = self._used_ms.get(seat, 0) + int(now_ms() - started)

    def _cancel_timers(self) -> None:
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    async def _timeout(self, seat: int, epoch: int) -> None:
        state = self.state
        if state is None or state.is_over or self._changed_at[seat] != epoch:
            return
        if seat not in state.to_act():
            return
        if not self.connections.get(seat) and not self._shared:
            # Gone: its next decisions are played at once until it comes back.
            self._away.add(seat)
        version = state.version
        if self.clock.on_timeout == "bot":
            action = await self.think(seat, self._timeout_agent(seat))
        else:
            default = state.default_action(seat)
            assert default is not None
            action = default
        error = await self.act(seat, version, action)
        if error is not None and error.code != ErrorCode.STALE:
            log.warning("table %s: timeout move for seat %d: %s", self.id, seat, error.message)

    # the race

    def _open_race(self) -> None:
        """Open the race if the state now asks for reactions. Called before ``publish``, so
        the update carrying the race decision (the reveal) is stamped when it is written to
        each seat."""
        state = self.state
        if state is None or state.is_over or self._race is not None:
            return
        seats: list[int] = []
        reaction = None
        for seat in sorted(state.to_act()):
            decision: Decision | None = state.decision(seat)
            if decision is not None and decision.reaction is not None:
                seats.append(seat)
                reaction = decision.reaction
        if reaction is not None:
            self._race = _Race(RaceTimer(seats, reaction), state.version, now_ms())

    def _start_race(self, race: _Race) -> None:
        """Bots answer, absent seats are settled, and the race's closer starts."""
        timer = race.timer
        for seat in timer.seats:
            if self.is_bot(seat):
                self._schedule_bot(seat)
            elif seat in self._away:
                if self.clock.on_timeout == "bot":
                    self._schedule_bot(seat, self._timeout_agent(seat))
                else:
                    timer.answered(seat, timer.reaction.none)
        race.closer = asyncio.get_running_loop().create_task(self._race_closer(race))
        self._race_progress()

    def _reveal_hook(self, seat: int | None, conn: Connection) -> OnSent | None:
        """For a frame showing ``seat`` the race: stamp the reveal when it is written."""
        race = self._race
        if race is None or seat is None or seat not in race.timer.seats:
            return None
        latency: LatencyEstimate = conn.latency

        def revealed(sent_ms: float) -> None:
            if self._race is race:
                race.timer.revealed(seat, sent_ms, latency)

        return revealed

    def _race_answer(
        self, seat: int, version: int, action: int, conn: Connection | None, ref: str | int | None
    ) -> ErrorMsg | None:
        """An ``action`` message during a race: only "no reaction" is accepted that way
        (a reaction time is measured by the server from a ``react``)."""
        race = self._race
        state = self.state
        assert race is not None and state is not None
        reaction = race.timer.reaction
        if not 0 <= action < state.num_actions:
            return ErrorMsg(
                code=ErrorCode.INVALID_ACTION,
                message=f"action {action} is outside this game's action space "
                f"0..{state.num_actions - 1}",
                ref=ref,
            )
        if action not in state.legal_actions(seat):
            return ErrorMsg(
                code=ErrorCode.ILLEGAL_ACTION,
                message=f"{state.action_to_str(action)!r} is not legal for player {seat} now "
                f"({state.phase_description()})",
                ref=ref,
            )
        if self._fresh(seat, version) != state.version:
            return ErrorMsg(
                code=ErrorCode.STALE,
                message=f"the race opened at version {race.version}; you sent {version}",
                ref=ref,
            )
        if action != reaction.none:
            return ErrorMsg(
                code=ErrorCode.RACE,
                message="this is a real-time decision: send {'type': 'react'} the moment you "
                "react (the server measures the time), or the no-reaction option "
                f"(action {reaction.none}) to pass",
                ref=ref,
            )
        race.timer.answered(seat, action)
        if conn is not None:
            conn.send({"type": "ack", "ref": ref, "version": race.version})
        self._race_progress()
        return None

    async def react(
        self, conn: Connection, version: int, received_ms: float, ref: str | int | None
    ) -> ErrorMsg | None:
        """A press in the race, received at ``received_ms``."""
        seat = conn.seat
        async with self.lock:
            race = self._race
            if seat is None:
                return ErrorMsg(code=ErrorCode.SPECTATOR, message="spectators do not race", ref=ref)
            if race is None or seat not in race.timer.seats:
                return ErrorMsg(
                    code=ErrorCode.NO_RACE, message="there is no race for you to react to", ref=ref
                )
            if not self._changed_at[seat] <= version <= race.version:
                return ErrorMsg(
                    code=ErrorCode.STALE,
                    message=f"the race opened at version {race.version}; you sent {version}",
                    ref=ref,
                )
            try:
                race.timer.pressed(seat, received_ms, conn.latency)
            except ValueError as exc:
                return ErrorMsg(code=ErrorCode.NO_RACE, message=str(exc), ref=ref)
            conn.send({"type": "ack", "ref": ref, "version": race.version})
            self._race_progress()
            return None

    def _race_progress(self) -> None:
        race = self._race
        if race is not None and race.timer.done and race.closer is not None and not race.closing:
            race.closing = True
            race.closer.cancel()  # it only sleeps: the closing runs in its own task
            self._spawn(self._close_race(race))

    async def _race_closer(self, race: _Race) -> None:
        """Close the race at its deadline (which grows as the reveal reaches more seats)."""
        timer = race.timer
        # At least the window from the opening, so a seat that connects during it (after a
        # restart, say) can still answer; then each shown seat's own deadline.
        least = race.opened_ms + timer.reaction.window_ms + GRACE_MS
        while True:
            try:
                deadline = max(least, timer.deadline_ms())
            except ValueError:  # shown to nobody yet
                deadline = least
            wait = deadline - now_ms()
            if wait <= 0:
                break
            await asyncio.sleep(wait / 1000)
        if not race.closing:
            race.closing = True
            self._spawn(self._close_race(race))

    async def _close_race(self, race: _Race) -> None:
        async with self.lock:
            if self._race is not race:
                return
            self._race = None
            state = self.state
            assert state is not None
            applied: list[tuple[int, str]] = []
            for seat, action in race.timer.actions().items():
                try:
                    state.apply(seat, action)
                except ArabesqueError as exc:  # cannot happen unless the state moved on
                    log.error("table %s: race answer of seat %d refused: %s", self.id, seat, exc)
                    continue
                applied.append((seat, state.action_to_str(action)))
            if applied and not await self._commit(applied):
                return
            self._open_race()
            self.publish()
            self._after_change()

    def close(self) -> None:
        """Stop timers and tasks (server shutdown)."""
        self._closed = True
        self._cancel_timers()
        if self._race is not None and self._race.closer is not None:
            self._race.closer.cancel()
        for _, task in self._bot_tasks.values():
            task.cancel()


def _error_code(exc: ArabesqueError) -> ErrorCode:
    if isinstance(exc, StaleStateError):
        return ErrorCode.STALE
    if isinstance(exc, GameOverError):
        return ErrorCode.GAME_OVER
    if isinstance(exc, NotYourTurnError):
        return ErrorCode.NOT_YOUR_TURN
    if isinstance(exc, IllegalActionError):
        return ErrorCode.ILLEGAL_ACTION
    if isinstance(exc, InvalidActionError):
        return ErrorCode.INVALID_ACTION
    return ErrorCode.INVALID_ACTION


Listener = Callable[[str, int], None]


class GroupCommit:
    """Commits the actions of many tables together: appends queued within one turn of the
    event loop, and those queued while the previous commit was being written, go to the
    database in one transaction (one fsync for all). Each ``append`` still returns only
    once its own actions are committed, and raises what its own append met (an append
    refused in a shared transaction is retried alone, so it does not fail the others)."""

    def __init__(self, hub: Hub, concurrency: int) -> None:
        self.hub = hub
        #: Transactions being written at once (1 for SQLite: a single writer anyway).
        self.concurrency = concurrency
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._writing = 0
        self._scheduled = False

    async def append(self, append: Append) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((append, future))
        if not self._scheduled:
            # Not at once: the other appends of this turn of the loop join the batch.
            self._scheduled = True
            loop.call_soon(self._flush)
        await future

    def _flush(self) -> None:
        self._scheduled = False
        while self._pending and self._writing < self.concurrency:
            batch, self._pending = self._pending, []
            self._writing += 1
            task = asyncio.get_running_loop().create_task(self._write(batch))
            _BACKGROUND.add(task)
            task.add_done_callback(_BACKGROUND.discard)

    async def _write(self, batch: list[tuple[Append, asyncio.Future[None]]]) -> None:
        try:
            results: list[Exception | None] = await self.hub.db(
                self.hub.store.append_many, [append for append, _ in batch]
            )
        except Exception as exc:  # the pool is gone (shutdown)...: every append failed
            results = [exc] * len(batch)
        except BaseException:
            for _, future in batch:
                future.cancel()
            raise
        finally:
            self._writing -= 1
            # What was queued meanwhile is written next, as one batch.
            if self._pending and not self._scheduled:
                self._flush()
        for (_, future), error in zip(batch, results, strict=True):
            if future.done():  # its waiter was cancelled
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)


class Hub:
    """Every live table of one server, the store, and the pools that keep the loop free."""

    def __init__(
        self, settings: Settings, store: Store | None = None, fanout: Fanout | None = None
    ) -> None:
        self.settings = settings
        self.store = store if store is not None else Store(settings.resolved_database_url())
        #: News of changes to and from other server processes on the same database
        #: (PostgreSQL LISTEN/NOTIFY; nothing for SQLite). docs/fanout.md.
        self.fanout = fanout if fanout is not None else fanout_for(self.store.url)
        self.tables: dict[str, TableRuntime] = {}
        self.bot_pool = ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="bot")
        # SQLite has one writer at a time anyway; one thread keeps commits in order.
        workers = 1 if self.store.is_sqlite else 4
        self.db_pool = ThreadPoolExecutor(workers, thread_name_prefix="db")
        self._group_commit = GroupCommit(self, workers)
        #: Called with (table id, version) after every published change (see publish).
        self.listeners: list[Listener] = [self._fan_out]
        self._lock = asyncio.Lock()

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    async def commit(self, append: Append) -> None:
        """Commit applied actions (with other tables' in one transaction: GroupCommit);
        returns once they are committed, raises what the database refused."""
        await self._group_commit.append(append)

    def notify_applied(self, table_id: str, version: int) -> None:
        for listener in self.listeners:
            try:
                listener(table_id, version)
            except Exception:
                log.exception("a table listener failed")

    async def startup(self) -> None:
        """Migrate the database, then bring every open and running table back to life."""
        if self.settings.migrate:
            await self.db(self.store.migrate)
        # Listening starts before the tables are read, so a change committed elsewhere in
        # between is either in what is read or heard about afterwards.
        await self.fanout.start(self._remote_change, self._resync)
        ids = await self.db(self.store.table_ids, [db.OPEN, db.RUNNING])
        for table_id in ids:
            await self._load(table_id)
        for table in list(self.tables.values()):
            table.resume()

    async def _load(self, table_id: str) -> TableRuntime | None:
        data = await self.db(self.store.load, table_id)
        if data is None:
            return None
        table = TableRuntime(self, data)
        if data.status != db.OPEN:
            table.replay()
            assert table.state is not None
            if table.state.is_over and data.status != db.FINISHED:
                await self.db(self.store.finish, table_id)
                data.status = db.FINISHED
        self.tables[table_id] = table
        return table

    def _fan_out(self, table_id: str, version: int) -> None:
        if not self.fanout.shared:
            return  # no other process can serve these tables: nothing to tell (fanout.py)
        # Tasks run in the order they are made and publish takes a FIFO lock, so the
        # notifications of one table go out in version order.
        task = asyncio.get_running_loop().create_task(self.fanout.publish(table_id, version))
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)

    async def _remote_change(self, table_id: str, version: int) -> None:
        """Another process changed ``table_id``; tables not live here are read when needed."""
        table = self.tables.get(table_id)
        if table is not None:
            await table.catch_up(version)

    async def _resync(self) -> None:
        """The fan-out was cut off for a while: compare every live table with the database."""
        for table in list(self.tables.values()):
            await table.catch_up(None)

    async def shutdown(self) -> None:
        await self.fanout.close()
        for table in self.tables.values():
            table.close()
            for conn in table._all_connections():
                conn.close_soon(1001, "server shutting down")
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        self.store.close()

    async def get(self, table_id: str) -> TableRuntime:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._lock:
            table = self.tables.get(table_id)
            if table is None and len(table_id) <= 32:
                table = await self._load(table_id)
        if table is None:
            raise LobbyError(404, "no_table", f"no table {table_id[:40]!r}")
        return table

    async def create(self, request: CreateTableRequest) -> tuple[TableRuntime, str]:
        try:
            spec = get_game(request.game)
        except ArabesqueError as exc:
            raise LobbyError(404, "no_game", str(exc)) from None
        options: dict[str, Any] = dict(request.options)
        if request.variant is not None:
            options["variant"] = request.variant
        data_param = spec.params_type.DATA_PARAM
        if data_param is not None and options.get(data_param) is not None:
            # A data param names a file: a stranger must not make the server read its files.
            raise LobbyError(
                422, "bad_params", f"option {data_param!r} is not available on the server"
            )
        try:
            params = make_params(spec, request.players, options)
        except (ArabesqueError, TypeError, ValueError) as exc:
            raise LobbyError(422, "bad_params", str(exc)) from None
        n = params.num_players
        specs = list(request.seats or [])
        if len(specs) > n:
            raise LobbyError(422, "bad_seats", f"{len(specs)} seats given for {n} players")
        seats: list[SeatData] = []
        for seat in range(n):
            given = specs[seat] if seat < len(specs) else None
            if given is not None and given.kind == db.BOT:
                agent = given.agent or "heuristic"
                try:
                    make_agent(agent, spec.id, seed=0)
                except ValueError as exc:
                    raise LobbyError(422, "bad_agent", f"seat {seat}: {exc}") from None
                seats.append(SeatData(seat, db.BOT, agent=agent, name=given.name))
            else:
                seats.append(SeatData(seat, db.HUMAN, name=given.name if given else None))
        if request.clock.on_timeout == "bot":
            try:
                make_agent(request.clock.timeout_agent, spec.id, seed=0)
            except ValueError as exc:
                raise LobbyError(422, "bad_agent", f"clock.timeout_agent: {exc}") from None
        host_token = secrets.token_urlsafe(32)
        data = TableData(
            id=secrets.token_urlsafe(9),
            game=spec.id,
            params=params.to_json(),
            options={
                "clock": request.clock.model_dump(mode="json"),
                "bot_think_s": request.bot_think_s,
                "auto_start": request.auto_start,
            },
            status=db.OPEN,
            host_token_hash=hash_token(host_token),
            created_at=now(),
            seats=seats,
        )
        await self.db(self.store.create_table, data)
        table = TableRuntime(self, data)
        self.tables[data.id] = table
        await table._auto_start()
        return table, host_token

    def check_host(self, table: TableRuntime, token: str | None) -> None:
        if token is None or not secrets.compare_digest(
            hash_token(token), table.data.host_token_hash
        ):
            raise LobbyError(403, "not_host", "this needs the table's host token")

    async def list(self, statuses: list[str]) -> list[TableInfo]:
        live_statuses = [s for s in statuses if s != db.FINISHED]
        if self.fanout.shared and live_statuses:
            # Tables created by other processes: read them once, then follow them.
            for table_id in await self.db(self.store.table_ids, live_statuses):
                if table_id not in self.tables:
                    with contextlib.suppress(LobbyError):
                        await self.get(table_id)
        live = [t.info() for t in self.tables.values() if t.data.status in statuses]
        if db.FINISHED in statuses:
            known = {t.id for t in live}
            stored = await self.db(self.store.list_tables, [db.FINISHED])
            for data in stored:
                if data.id not in known:
                    live.append(TableRuntime(self, data).info())
        return live
