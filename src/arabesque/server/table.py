"""A live table: the game state the server plays there and everyone connected to it.

One ``TableRuntime`` per table owns its ``GameState``; every change to it is made under the
table's lock, in this order:

1. check and apply the action on the state (the engine refuses a bad one without changing
   anything);
2. commit it to the database (``Hub.commit``: the actions of the tables that moved at the
   same time share one transaction, commit.py) — if that fails, the state is rebuilt from
   the database and the sender gets an error;
3. acknowledge it to the sender and ``publish``: the single place where "an action was
   applied to table X" goes out (hub listeners, then each local connection).

What a connection receives comes only from the game's observer: ``state.view(seat)`` (with
its decision) and ``state.log_since(seat, index)``, seat None for spectators. A seat whose
view and log did not change with a step (another seat's secret commitment) is sent nothing:
every number it is shown (its view's, its acks', the table's) is its own version
(``state.version_for``), which such a step does not move, and its actions are fresh at it.

The table's other jobs are in modules of their own, each handed the table: its seats and
start (seats.py), its move clocks (clocks.py, a ``Clocks``), its bots (botrunner.py, a
``BotRunner``), the lamp race (racing.py, a ``RaceRunner``) and following the other server
processes that serve it (following.py). The connections and their frames are in
connection.py.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from arabesque.core.errors import (
    ArabesqueError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    StaleStateError,
)
from arabesque.core.game import GameState
from arabesque.core.limits import clip
from arabesque.core.records import DEALT_SEED, GameRecord
from arabesque.core.registry import get_game
from arabesque.server import away, db, following, seats
from arabesque.server.botrunner import BotRunner
from arabesque.server.clocks import Clocks
from arabesque.server.connection import (
    BACKGROUND,
    Connection,
    _split_version,
    _update_frame,
    dumps,
)
from arabesque.server.errors import LobbyError, Unreplayable
from arabesque.server.protocol import (
    DEFAULT_AWAY_S,
    ClockSpec,
    ErrorCode,
    ErrorMsg,
    Reveal,
    SeatInfo,
    TableInfo,
)
from arabesque.server.racing import RaceRunner
from arabesque.server.store import (
    ENGINE_VERSION_OPTION,
    Append,
    Presence,
    SeatData,
    StoreError,
    TableData,
    now,
)
from arabesque.server.words import Words, describer

if TYPE_CHECKING:
    from arabesque.server.hub import Hub

log = logging.getLogger("arabesque.server")

#: The record's ``metadata.source`` for games played on the server.
SOURCE = "arabesque serve"

#: How many times an action is applied again after other processes stored moves first that
#: this seat cannot see (another seat's secret moves, docs/fanout.md) before it is answered
#: ``stale``.
COMMIT_ATTEMPTS = 3


class TableRuntime:
    """One table: its configuration, its game once started, and everyone connected to it."""

    def __init__(self, hub: Hub, data: TableData) -> None:
        self.hub = hub
        self.data = data
        self.id = data.id
        self.spec = get_game(data.game)
        self.params = self.spec.make_params(**data.params)
        self.clock = ClockSpec.model_validate(data.options.get("clock", {}))
        # A table may ask its bots to be quicker than the server's deadline, never slower.
        limit = hub.settings.bot_think_s
        self.bot_think_s = min(float(data.options.get("bot_think_s", limit)), limit)
        self.auto_start = bool(data.options.get("auto_start", False))
        self.away_s = float(data.options.get("away_s", DEFAULT_AWAY_S))
        self.hints = bool(data.options.get("hints", False))
        #: When each human seat's last connection went (away.py); from now for a table
        #: just loaded, as nobody is connected to it yet.
        self.gone_at: dict[int, datetime] = {s.seat: now() for s in data.seats}
        self.away_timers: dict[int, asyncio.TimerHandle] = {}
        #: The seats (and ``db.SPECTATORS``) as the other server processes on the database
        #: hold them, as last read (``refresh_presence``); empty for a single process.
        self.remote: dict[int, Presence] = {}
        self.lock = asyncio.Lock()
        self.state: GameState | None = None
        self.connections: dict[int | None, set[Connection]] = {}
        n = self.params.num_players
        keys: list[int | None] = [*range(n), None]
        # What each seat (and the spectators, key None) was last shown: the JSON of its view
        # without the version (``_split_version``).
        self._shown: dict[int | None, bytes | None] = dict.fromkeys(keys)
        self._log_index: dict[int | None, int] = dict.fromkeys(keys, 0)
        #: How many events of its own log each seat has been sent up to ``_log_index``: the
        #: ``log_index`` it is shown (a raw index would count the events it cannot see).
        self._log_seen: dict[int | None, int] = dict.fromkeys(keys, 0)
        #: Each seat's own version (``state.version_for``) when it last saw something change.
        self.changed_at: dict[int | None, int] = dict.fromkeys(keys, 0)
        #: Its bots, race and clocks (botrunner.py, racing.py, clocks.py), each handed the table.
        self.bots = BotRunner(self)
        self.racing = RaceRunner(self)
        self.clocks = Clocks(self)
        #: Another server process has served this table (docs/fanout.md): a seat with no
        #: connection here may be connected there, so it is never taken to be away.
        self.shared = False
        self.closed = False
        #: Why this engine cannot rebuild the stored game (``Unreplayable``); None while it
        #: can. Such a table has no state: its record is the stored one (``record``).
        self.unreplayable: str | None = None

    # -- building ----------------------------------------------------------------------

    def new_state(self) -> GameState:
        assert self.data.seed is not None
        data = self.data
        return self.spec.new_game(self.params, seed=data.seed, arrangement=data.arrangement)

    def check_compatible(self, data: TableData) -> None:
        """Raise ``Unreplayable`` if ``data`` (this table as stored) was started under another
        record compatibility of its game than this engine's (docs/records.md)."""
        stored, current = data.record_compat(), self.spec.record_compat
        if stored != current:
            raise Unreplayable(
                f"the rules of {self.spec.name} changed since this game started (record "
                f"compatibility {stored} → {current}); it cannot go on under the new rules, "
                "and its record downloads as it was"
            )

    def replay(self) -> None:
        """Rebuild the live state from the stored setup and actions (a restart). Raises
        ``Unreplayable``, leaving no state, when this engine cannot."""
        if self.data.seed is None:
            return  # abandoned before it started: no game to rebuild
        self.state = None
        self.check_compatible(self.data)
        try:
            state = self.new_state()
        except Exception as exc:  # any failure: the table is set aside, the server goes on
            raise _unreplayable(self.id, "the setup", exc) from exc
        for step, (seat, text) in enumerate(self.data.actions, start=1):
            try:
                state.apply(seat, state.parse_action(text))
            except Exception as exc:
                raise _unreplayable(self.id, f"step {step}", exc) from exc
        self.state = state
        for key in self.changed_at:
            self.changed_at[key] = state.version_for(key)
            self._shown[key] = None
            self._log_index[key], self._log_seen[key] = _own_index(state, key, None)

    def resume(self) -> None:
        """Set bots, clocks and races going for a running game (after start or restart)."""
        if self.state is not None and not self.ended:
            for s in self.data.seats:
                if s.kind == db.HUMAN and not self.connections.get(s.seat):
                    away.watch(self, s.seat)  # nobody is connected after a restart
            self._refresh_shown()
            self.racing.open_race()
            for seat in range(self.state.num_players):
                self.clocks.clock(seat)
            self.after_change()

    def _refresh_shown(self) -> None:
        """Remember what each seat sees now without sending it (after a replay: the clients
        that reconnect get it in their welcome)."""
        state = self.state
        assert state is not None
        for key in self._shown:
            self._shown[key] = _split_version(state.view(key, include_log=False))[1]
            self._log_index[key], self._log_seen[key] = _own_index(state, key, None)

    # -- information -------------------------------------------------------------------

    def seat_data(self, seat: int) -> SeatData:
        return self.data.seats[seat]

    def is_bot(self, seat: int) -> bool:
        """A bot's seat, or an away human's that a bot was handed (away.py)."""
        data = self.seat_data(seat)
        return data.kind == db.BOT or data.stand_in is not None

    def search_bots(self) -> int:
        """Seats played by a search bot (its own, or an away human's stand-in) while the
        table is open or running (hub.check_bot_room)."""
        if self.data.status not in (db.OPEN, db.RUNNING):
            return 0
        hub = self.hub
        return sum(
            1 for s in self.data.seats
            if any(a is not None and hub.is_search_agent(a) for a in (s.agent, s.stand_in))
            and (s.kind == db.BOT or s.stand_in is not None)
        )

    def humans_connected(self) -> bool:
        """A seat's player is connected here, or through another server process as last
        heard (spectators do not count)."""
        return any(conns for seat, conns in self.connections.items() if seat is not None) or any(
            p.connections for seat, p in self.remote.items() if seat != db.SPECTATORS
        )

    async def count_presence(self, seat: int | None) -> None:
        """Store how many connections this process has to ``seat`` (None: spectators), for
        the other processes on the database (docs/fanout.md); nothing for a single one."""
        hub = self.hub
        if not hub.fanout.shared:
            return
        key = db.SPECTATORS if seat is None else seat
        count = len(self.connections.get(seat, ()))
        try:
            await hub.db(hub.store.set_presence, hub.process, self.id, key, count, now())
        except Exception:  # the next change or beat writes it again
            log.warning("table %s: could not store who is connected", self.id, exc_info=True)

    async def refresh_presence(self) -> bool:
        """Read who is connected through the other server processes; True if it changed."""
        hub = self.hub
        if not hub.fanout.shared:
            return False
        alive_after = now() - timedelta(seconds=3 * hub.settings.presence_beat_s)
        remote = await hub.db(hub.store.presence, self.id, hub.process, alive_after)
        changed = remote != self.remote
        self.remote = remote
        return changed

    def bots_only(self) -> bool:
        """Every seat is played by a bot (its own, or an away human's stand-in)."""
        return all(self.is_bot(s.seat) for s in self.data.seats)

    @property
    def ended(self) -> bool:
        """Over, or abandoned (away.py): nothing is played here any more."""
        return self.data.status in (db.ABANDONED, db.FINISHED) or (
            self.state is not None and self.state.is_over
        )

    def _seat_info(self, s: SeatData) -> SeatInfo:
        since = away.away_since(self, s.seat)
        return SeatInfo(
            seat=s.seat,
            kind=s.kind,  # type: ignore[arg-type]
            agent=s.agent,
            name=s.name,
            taken=s.kind == db.BOT or s.token_hash is not None,
            connected=bool(self.connections.get(s.seat)),
            away_since=None if since is None else since.isoformat(),
            away=away.is_away(self, s.seat),
            played_by=s.stand_in,
        )

    def info(self) -> TableInfo:
        state = self.state
        reveal = None
        result = None
        shown = state is not None or self.unreplayable is not None
        if shown and self.ended and self.data.salt is not None:
            reveal = Reveal(
                seed=str(self.data.seed), salt=self.data.salt, arrangement=self.data.arrangement
            )
            if state is not None and state.is_over:
                result = {
                    "scores": [s.to_json() for s in state.scores()],
                    "ranking": state.ranking(),
                }
        return TableInfo(
            id=self.id,
            game=self.data.game,
            params=self.data.params,
            status=self.data.status,  # type: ignore[arg-type]
            seats=[self._seat_info(s) for s in self.data.seats],
            clock=self.clock,
            bot_think_s=self.bot_think_s,
            auto_start=self.auto_start,
            created_at=self.data.created_at.isoformat(),
            # The spectators' version: the table is public.
            version=None if state is None else state.version_for(None),
            commitment=self.data.commitment,
            reveal=reveal,
            result=result,
            away_s=self.away_s,
            hints=self.hints,
            end_reason=self.data.end_reason,
            notes=self.data.notes,
        )

    def record(self) -> GameRecord:
        """The game's full record; only once the game is over (it holds every secret). A game
        this engine cannot rebuild (``unreplayable``) gets the record as stored, with the
        record compatibility it was started under."""
        state = self.state
        if (state is None and self.unreplayable is None) or not self.ended:
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
        if self.data.race_reviews:
            # Lamp race presses the server flagged (racing.py), for whoever checks the game.
            metadata["race_reviews"] = self.data.race_reviews
        if self.data.status == db.ABANDONED:
            # Ended before the end: no result, and the record says why (arabesque verify).
            metadata["abandoned"] = {"reason": self.data.end_reason or "abandoned"}
        if self.data.commitment is not None and self.data.salt is not None:
            metadata["commitment"] = {"sha256": self.data.commitment, "salt": self.data.salt}
        if state is None:
            return self._stored_record(metadata)
        return GameRecord.from_state(state, metadata)

    def _stored_record(self, metadata: dict[str, Any]) -> GameRecord:
        """The record of the stored setup and actions as they are, not replayed: its
        compatibility is the one the table started under, so an engine of that number
        replays it and any other refuses it clearly (docs/records.md)."""
        data = self.data
        assert data.seed is not None
        metadata["not_replayed"] = self.unreplayable
        return GameRecord(
            game=data.game,
            params=dict(data.params),
            seed=data.seed,
            arrangement=data.arrangement,
            actions=list(data.actions),
            engine_version=str(data.options.get(ENGINE_VERSION_OPTION, "unknown")),
            metadata=metadata,
            record_compat=data.record_compat(),
            dealt=DEALT_SEED,  # the server deals every game from its seed (seats.py)
        )

    # -- connections -------------------------------------------------------------------

    async def connect(self, conn: Connection, seat: int | None, log_from: int) -> bool:
        """Register ``conn`` for ``seat`` and send it the welcome: the table, its view and
        its log from ``log_from`` (a reconnecting client passes the last index it got).
        False (and nothing done) for a spectator past ``Settings.max_spectators``."""
        async with self.lock:
            if seat is None:
                watching = len(self.connections.get(None, ()))
                if watching < self.hub.settings.max_spectators:
                    # The cap is the table's, on every process serving it.
                    await self.refresh_presence()
                    watching += self.remote.get(db.SPECTATORS, Presence()).connections
                if watching >= self.hub.settings.max_spectators:
                    return False
            conn.seat = seat
            conn.hello = True
            if seat is not None:
                # One live connection per seat: the newest wins (a reconnect replaces a
                # connection the client may not know is dead).
                for old in self.connections.get(seat, set()):
                    old.error(ErrorCode.BAD_TOKEN, "this seat was taken over by a new connection")
                    old.close_soon(4001, "replaced by a new connection")
                self.connections[seat] = set()
                self.clocks.away.discard(seat)
                await away.back(self, seat)
                # Other processes must stop taking this seat for away (docs/fanout.md).
                self.announce()
            self.connections.setdefault(seat, set()).add(conn)
            await self.count_presence(seat)
            conn.send(self._welcome(conn, log_from), self.racing.reveal_hook(seat, conn))
            self.broadcast_table(exclude=conn)
        return True

    async def resync(self, conn: Connection) -> None:
        """Send ``conn`` its whole view again, as a welcome (the log from the start)."""
        async with self.lock:
            conn.send(self._welcome(conn, 0), self.racing.reveal_hook(conn.seat, conn))

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
            # ``log_from`` counts the events of the seat's own log it has.
            start, seen = _own_index(state, seat, log_from)
            events, raw = state.log_since(seat, start)
            index = seen + len(events)
            if seat is None:
                # The spectators' view is only kept up to date while one is connected
                # (send_updates): from this welcome on.
                self.changed_at[None], self._shown[None] = _split_version(view)
                self._log_index[None], self._log_seen[None] = raw, index
        welcome: dict[str, Any] = {
            "type": "welcome",
            "table": self.info().model_dump(mode="json"),
            "seat": seat,
            "view": view,
            "log": events,
            "log_index": index,
            "clocks": [] if seat is None else self.clocks.clock_info(seat),
        }
        if conn.words:
            welcome["words"] = self._words(events)
        return welcome

    async def disconnect(self, conn: Connection) -> None:
        async with self.lock:
            conns = self.connections.get(conn.seat)
            if conns is not None and conn in conns:
                conns.discard(conn)
                await self.count_presence(conn.seat)
                if conn.seat is not None and not conns:
                    await away.gone(self, conn.seat)
                self.broadcast_table()

    def all_connections(self) -> list[Connection]:
        return [c for conns in self.connections.values() for c in conns]

    def broadcast_table(self, exclude: Connection | None = None) -> None:
        message = dumps({"type": "table", "table": self.info().model_dump(mode="json")}).decode()
        for conn in self.all_connections():
            if conn is not exclude:
                conn.send(message)

    # -- the lobby (seats.py) ----------------------------------------------------------

    def seat_for_token(self, token: str) -> int | None:
        return seats.seat_for_token(self, token)

    async def join(self, seat: int | None, name: str | None) -> tuple[int, str]:
        return await seats.join(self, seat, name)

    async def fill(self, agent: str) -> None:
        await seats.fill(self, agent)

    async def start(self) -> None:
        await seats.start(self)

    async def seat_bot(self, seat: int, agent: str, by: str) -> None:
        await away.seat_bot(self, seat, agent, by)

    async def abandon(self, reason: str) -> None:
        await away.abandon(self, reason)

    # -- acting ------------------------------------------------------------------------

    def fresh(self, seat: int, version: int) -> bool:
        """Whether ``version`` is the seat's own version now (``state.version_for``): it has
        seen nothing new since (another seat's secret move does not count)."""
        state = self.state
        assert state is not None
        return version == state.version_for(seat)

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
            if self.data.status == db.ABANDONED:
                return ErrorMsg(code=ErrorCode.GAME_OVER, message="the game was abandoned", ref=ref)
            if state is None:
                if self.data.status == db.FINISHED:
                    return ErrorMsg(code=ErrorCode.GAME_OVER, message="the game is over", ref=ref)
                return ErrorMsg(
                    code=ErrorCode.NOT_STARTED, message="the game has not started", ref=ref
                )
            try:
                if text is not None:
                    action = state.parse_action(text)
                assert action is not None
                race = self.racing.race
                if race is not None and seat in race.timer.seats and not state.is_over:
                    return self.racing.race_answer(seat, version, action, conn, ref)
            except ArabesqueError as exc:
                return ErrorMsg(code=_error_code(exc), message=str(exc), ref=ref)
            spent_ms = 0
            for attempt in range(COMMIT_ATTEMPTS):
                try:
                    state.apply(seat, action, version=version)
                except ArabesqueError as exc:
                    return ErrorMsg(code=_error_code(exc), message=str(exc), ref=ref)
                if attempt == 0:
                    spent_ms = self.clocks.clock_spent(seat)
                else:
                    self.clocks.charge(seat, spent_ms)
                applied = [(seat, state.action_to_str(action))]
                stored = len(self.data.actions)
                if await self.commit(applied):
                    break
                if self.state is None:
                    return ErrorMsg(
                        code=ErrorCode.GAME_OVER,
                        message=f"the game was set aside: {self.unreplayable}",
                        ref=ref,
                    )
                if len(self.data.actions) == stored:
                    return ErrorMsg(
                        code=ErrorCode.UNAVAILABLE,
                        message="the action could not be saved; the game is as it was, "
                        "try again",
                        ref=ref,
                    )
                # Another server process stored a move at this step first, and the state
                # was rebuilt with it. Applied again with the seat's version: refused as
                # stale when the seat has been shown something new (the seat decides
                # again), taken when the move was another seat's secret one -- answering
                # stale then would tell this seat that someone had moved in secret.
                state = self.state
            else:
                return ErrorMsg(
                    code=ErrorCode.STALE,
                    message="other moves were stored first; look at the game again",
                    ref=ref,
                )
            self.racing.open_race()
            self.publish()
            # After the update: a client that has its ack has its new view too.
            if conn is not None:
                conn.send({"type": "ack", "ref": ref, "version": state.version_for(seat)})
            self.after_change()
            return None

    async def commit(self, applied: list[tuple[int, str]]) -> bool:
        """Store actions just applied to the state. On failure the state is rebuilt from
        the database (as it was before them) and False is returned."""
        state = self.state
        assert state is not None
        first = len(self.data.actions)
        used = dict(self.clocks.used_ms) if self.clock.per_game_s is not None else {}
        try:
            await self.hub.commit(Append(self.id, first, applied, used, state.is_over))
        except Exception as exc:  # any database failure (StoreError...): the same recovery
            # A step stored first by another server process is expected (docs/fanout.md).
            level = logging.INFO if isinstance(exc, StoreError) else logging.ERROR
            log.log(level, "table %s: could not store %s: %s", self.id, applied, exc)
            fresh = await self.hub.db(self.hub.store.load, self.id)
            if fresh is not None:
                self.data = fresh
                self.clocks.used_ms = {s.seat: s.clock_used_ms for s in fresh.seats}
            try:
                self.rebuild()
            except Unreplayable as problem:  # the database holds a game this engine refuses
                await away.set_aside(self, problem.reason)
                return False
            self.racing.open_race()
            self.publish()
            self.after_change()
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
            self.game_over()

    # -- other server processes (docs/fanout.md) -----------------------------------------

    def announce(self) -> None:
        """Tell the other server processes that this table changed outside the game (a seat
        taken, bots seated, a seat connected here); they read it from the database."""
        self.hub.notify_applied(self.id, 0 if self.state is None else self.state.version)

    def rebuild(self) -> None:
        """Rebuild the state from ``self.data`` after a failed commit, keeping what each seat
        was last sent, so that what follows are true deltas from it (a replay for a restart
        forgets them: its clients reconnect and get a welcome)."""
        shown, index, changed = dict(self._shown), dict(self._log_index), dict(self.changed_at)
        seen = dict(self._log_seen)
        self.replay()
        self._shown, self._log_index, self.changed_at = shown, index, changed
        self._log_seen = seen

    async def catch_up(self, version: int | None) -> None:
        """Another server process changed this table: bring the live table up to ``version``
        (None: to whatever is stored) and tell this process's connections (following.py)."""
        await following.catch_up(self, version)

    # -- what goes out -------------------------------------------------------------------

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
                continue
            version, body = _split_version(state.view(key, include_log=False))
            events, index = state.log_since(key, self._log_index[key])
            changed = bool(events) or body != self._shown[key] or version != self.changed_at[key]
            if changed:
                self._shown[key] = body
                self._log_index[key] = index
                self._log_seen[key] += len(events)
                self.changed_at[key] = version
            if key is not None:
                self.clocks.clock(key)
            if not changed or not conns:
                continue
            clocks = [] if key is None else self.clocks.clock_info(key)
            seen = self._log_seen[key]
            message = _update_frame(version, body, events, seen, clocks)
            worded: str | None = None
            for conn in conns:
                frame = message
                if conn.words:
                    if worded is None:
                        words = self._words(events)
                        worded = _update_frame(version, body, events, seen, clocks, words)
                    frame = worded
                conn.send(frame, self.racing.reveal_hook(key, conn))

    def game_over(self) -> None:
        self.clocks.cancel_timers()
        message = dumps(
            {
                "type": "game_over",
                "table": self.info().model_dump(mode="json"),
                "record": f"/api/tables/{self.id}/record",
            }
        ).decode()
        for conn in self.all_connections():
            conn.send(message)

    # -- the race (racing.py) -----------------------------------------------------------

    async def react(
        self, conn: Connection, version: int, received_ms: float, ref: str | int | None
    ) -> ErrorMsg | None:
        """A press in the race, received at ``received_ms`` (racing.py)."""
        return await self.racing.react(conn, version, received_ms, ref)

    # -- after every change: bots, clocks, races ------------------------------------------

    def after_change(self) -> None:
        state = self.state
        if state is None or self.ended or self.closed:
            self.clocks.cancel_timers()
            return
        race = self.racing.race
        if race is not None and race.closer is None:
            self.racing.start_race(race)
        acting = state.to_act()
        for seat in range(state.num_players):
            if seat not in acting or (race is not None and seat in race.timer.seats):
                continue
            if self.is_bot(seat):
                self.bots.schedule_bot(seat)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in a task nobody awaits (the clocks' timeouts, the race's closing)."""
        task = asyncio.get_running_loop().create_task(coro)
        BACKGROUND.add(task)
        task.add_done_callback(BACKGROUND.discard)

    def close(self) -> None:
        """Stop timers and tasks (server shutdown)."""
        self.closed = True
        for timer in self.away_timers.values():
            timer.cancel()
        self.clocks.cancel_timers()
        self.racing.close()
        self.bots.close()


def _unreplayable(table_id: str, where: str, exc: Exception) -> Unreplayable:
    log.warning("table %s does not replay at %s", table_id, where, exc_info=exc)
    return Unreplayable(
        f"its stored moves do not replay under these rules ({where}: {clip(str(exc), 100)})"
    )


def _own_index(state: GameState, seat: int | None, count: int | None) -> tuple[int, int]:
    """The raw event index just past the first ``count`` events ``seat`` may see (None: all
    of them), and how many it may see before it (fewer when the log is shorter). A client
    counts only the events of its own log, so its log index says nothing of the others'."""
    events = state.events
    seen = 0
    for i, event in enumerate(events):
        if seen == count:
            return i, seen
        if event.visible_for(seat):
            seen += 1
    return len(events), seen


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
