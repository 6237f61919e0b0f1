"""The hub: every live table of one server, the store, and the pools that keep the event loop
free (bots think in worker processes or, the cheap ones, in a thread pool; the database is
written in another thread pool).

One ``Hub`` per server (app.py makes it). It brings the open and running tables back to
life at startup (replaying their stored actions), creates, finds and lists tables for the
lobby, commits the tables' actions (``commit``, through the group commit of commit.py),
passes each published change to its listeners (the fan-out to other server processes,
server/fanout.py) and hands the changes heard from them to the tables (``catch_up``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

from arabesque.agents.registry import make_agent, parse_agent_spec
from arabesque.bench import default_players
from arabesque.core.errors import ArabesqueError
from arabesque.core.game import GameSpec, Params
from arabesque.core.limits import clip, quote
from arabesque.core.registry import get_game
from arabesque.server import away, db
from arabesque.server.botpool import BotPool
from arabesque.server.commit import GroupCommit
from arabesque.server.connection import BACKGROUND
from arabesque.server.errors import MAX_REASON, LobbyError, Unreplayable
from arabesque.server.fanout import Fanout, fanout_for
from arabesque.server.protocol import CreateTableRequest, TableInfo
from arabesque.server.seats import auto_start
from arabesque.server.settings import Settings
from arabesque.server.store import Append, SeatData, Store, TableData, hash_token, now
from arabesque.server.table import TableRuntime

log = logging.getLogger("arabesque.server")

T = TypeVar("T")

Listener = Callable[[str, int], None]


def make_params(spec: GameSpec, players: int | None, options: dict[str, Any]) -> Params:
    """Params from the lobby's options, as ``arabesque play`` builds them."""
    num_players = default_players(spec) if players is None else players
    return spec.make_params(num_players=num_players, **options)


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
        #: The bot worker processes (botpool.py), started at the first move that needs
        #: them; None when the settings ask for none.
        processes = settings.resolved_bot_workers()
        self.bot_workers = BotPool(processes, settings.bot_worker_nice) if processes else None
        self._warming: asyncio.Task[None] | None = None
        # SQLite has one writer at a time anyway; one thread keeps commits in order.
        workers = 1 if self.store.is_sqlite else 4
        self.db_pool = ThreadPoolExecutor(workers, thread_name_prefix="db")
        self._group_commit = GroupCommit(self, workers)
        #: Called with (table id, version) after every published change (see publish).
        self.listeners: list[Listener] = [self._fan_out]
        self._lock = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        #: This process among those on the database (the ``presence`` rows it writes).
        self.process = secrets.token_hex(8)
        self._beater: asyncio.Task[None] | None = None

    def is_search_agent(self, spec: str) -> bool:
        """An agent that takes a worker's CPU for each move (not a cheap inline one)."""
        return parse_agent_spec(spec)[0] not in self.settings.bot_inline_agents

    def check_bot_room(self, table: TableRuntime | None, agents: list[str]) -> None:
        """Refuse seating ``agents`` (at ``table``, or at a table being created) past the
        limits on search bots per table and per server (``409 too_many_bots``)."""
        adding = sum(1 for agent in agents if self.is_search_agent(agent))
        if not adding:
            return
        self._warm_bot_workers()
        cheap = ", ".join(self.settings.bot_inline_agents) or "none"
        per_table = self.settings.max_search_bots_per_table
        seated = table.search_bots() if table is not None else 0
        if per_table is not None and seated + adding > per_table:
            raise LobbyError(
                409, "too_many_bots",
                f"a table may seat at most {per_table} search bots ({seated} seated, "
                f"{adding} asked); cheap bots are not counted: {cheap}",
            )
        limit = self.settings.max_search_bots
        if limit is not None:
            running = sum(t.search_bots() for t in self.tables.values())
            if running + adding > limit:
                raise LobbyError(
                    409, "too_many_bots",
                    f"this server runs {running} search bots and at most {limit}; try later, "
                    f"or seat cheap bots ({cheap})",
                )

    def _warm_bot_workers(self) -> None:
        """Start the bot workers now that a search bot is being seated, so that its first
        move does not wait for them (the first start launches the fork server)."""
        pool = self.bot_workers
        if pool is None or self._warming is not None:
            return
        self._warming = asyncio.get_running_loop().create_task(pool.start())
        self._warming.add_done_callback(
            lambda task: None if task.cancelled() else task.exception()  # logged by start
        )

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
        # Tables nobody has been connected to for too long, read from the database (so a
        # restart does not forget how long they have been left), now and every while.
        await self.sweep_idle()
        loop = asyncio.get_running_loop()
        self._sweeper = loop.create_task(self._sweep_forever())
        if self.fanout.shared:
            self._beater = loop.create_task(self._beat_forever())

    async def _beat_forever(self) -> None:
        """Say this process still runs, and read who is connected through the others, so
        that a player gone there (or a process that died) is judged away here (away.py)."""
        beat_s = self.settings.presence_beat_s
        while True:
            await asyncio.sleep(beat_s)
            try:
                at = now()
                await self.db(self.store.beat, self.process, at, at - timedelta(days=1))
                for table in list(self.tables.values()):
                    if table.data.status == db.RUNNING and not table.closed:
                        was = [away.is_away(table, s.seat) for s in table.data.seats]
                        moved = await table.refresh_presence()
                        if moved:
                            away.watch_remote(table)
                        if moved or was != [away.is_away(table, s.seat) for s in table.data.seats]:
                            table.broadcast_table()
            except Exception:
                log.exception("the presence beat failed")

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.idle_check_s)
            try:
                await self.sweep_idle()
            except Exception:
                log.exception("the idle tables check failed")

    async def sweep_idle(self) -> list[str]:
        """Abandon the open and running tables where no human has been connected for
        ``Settings.abandon_idle_s`` (not games of bots only, which play on by themselves);
        returns their ids."""
        limit = self.settings.abandon_idle_s
        before = now() - timedelta(seconds=limit)
        ended = []
        for table_id in await self.db(self.store.idle_tables, before):
            try:
                table = await self.get(table_id)
            except LobbyError:
                continue
            await table.refresh_presence()
            if table.humans_connected() or (table.data.status == db.RUNNING and table.bots_only()):
                continue
            hours = f"{limit / 3600:g} h" if limit >= 3600 else f"{limit:g} s"
            with contextlib.suppress(LobbyError):
                await table.abandon(f"nobody connected for {hours}")
                ended.append(table_id)
        return ended

    async def _load(self, table_id: str) -> TableRuntime | None:
        """Bring a stored table to life: a started one is rebuilt by replaying its actions.
        One this engine cannot rebuild (its game's rules changed since it started, or a
        stored move is refused) is set aside (away.py, ``set_aside``): a running one is
        abandoned with the reason, and its record still downloads as stored. Nothing about
        one table stops the server or makes it try again at every start."""
        data = await self.db(self.store.load, table_id)
        if data is None:
            return None
        try:
            table = TableRuntime(self, data)
        except Exception as exc:  # params or a game this engine no longer takes
            log.exception("table %s cannot be loaded", table_id)
            if data.status in (db.OPEN, db.RUNNING):
                reason = clip(f"this server cannot load it: {exc}", MAX_REASON)
                note = {
                    "at": now().isoformat(),
                    "kind": "abandoned",
                    "seat": None,
                    "text": f"The game was abandoned: {reason}.",
                }
                await self.db(self.store.abandon, table_id, reason, [*data.notes, note])
            return None
        self.tables[table_id] = table
        if data.status != db.OPEN:
            try:
                table.replay()
            except Unreplayable as problem:
                async with table.lock:
                    await away.set_aside(table, problem.reason)
                return table
            assert table.state is not None
            if table.state.is_over and data.status != db.FINISHED:
                await self.db(self.store.finish, table_id)
                data.status = db.FINISHED
        return table

    def _fan_out(self, table_id: str, version: int) -> None:
        if not self.fanout.shared:
            return  # no other process can serve these tables: nothing to tell (fanout.py)
        # Tasks run in the order they are made and publish takes a FIFO lock, so the
        # notifications of one table go out in version order.
        task = asyncio.get_running_loop().create_task(self.fanout.publish(table_id, version))
        BACKGROUND.add(task)
        task.add_done_callback(BACKGROUND.discard)

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
        for task in (self._sweeper, self._beater):
            if task is not None:
                task.cancel()
        if self.fanout.shared:
            with contextlib.suppress(Exception):  # a dead database: the rows go stale instead
                await self.db(self.store.drop_presence, self.process)
        await self.fanout.close()
        for table in self.tables.values():
            table.close()
            for conn in table.all_connections():
                conn.close_soon(1001, "server shutting down")
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        if self.bot_workers is not None:
            self.bot_workers.close()
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
            given = options.get("variant", request.variant)
            if given != request.variant:
                # One would silently win over the other.
                raise LobbyError(
                    422,
                    "bad_params",
                    f"variant {quote(request.variant)} and options.variant {quote(given)} "
                    "disagree; give the variant once",
                )
            options["variant"] = request.variant
        if "num_players" in options:
            if request.players is not None and options["num_players"] != request.players:
                raise LobbyError(
                    422,
                    "bad_params",
                    f"players {request.players} and options.num_players "
                    f"{quote(options['num_players'])} disagree; give the player count once",
                )
            raise LobbyError(
                422, "bad_params", "give the player count as 'players', not as an option"
            )
        self._check_clock(request)
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
        self.check_bot_room(None, [s.agent for s in seats if s.agent is not None])
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
                "auto_start": request.auto_start,
                "away_s": request.away_s,
                "hints": request.hints,
            },
            status=db.OPEN,
            host_token_hash=hash_token(host_token),
            created_at=now(),
            seats=seats,
        )
        if request.bot_think_s is not None:
            data.options["bot_think_s"] = request.bot_think_s
        await self.db(self.store.create_table, data)
        table = TableRuntime(self, data)
        self.tables[data.id] = table
        await auto_start(table)
        return table, host_token

    def _check_clock(self, request: CreateTableRequest) -> None:
        """Refuse a clock outside the server's bounds (``Settings.min_clock_s``...)."""
        settings = self.settings
        bounds = [
            ("per_move_s", request.clock.per_move_s, settings.max_move_clock_s),
            ("per_game_s", request.clock.per_game_s, settings.max_game_clock_s),
        ]
        for name, value, most in bounds:
            if value is None:
                continue
            if value < settings.min_clock_s:
                raise LobbyError(
                    422,
                    "bad_clock",
                    f"clock.{name} is at least {settings.min_clock_s:g} s on this server, "
                    f"got {value:.3g}",
                )
            if value > most:
                raise LobbyError(
                    422,
                    "bad_clock",
                    f"clock.{name} is at most {most:g} s on this server, got {value:.3g}",
                )

    def check_host(self, table: TableRuntime, token: str | None) -> None:
        if token is None or not secrets.compare_digest(
            hash_token(token), table.data.host_token_hash
        ):
            raise LobbyError(403, "not_host", "this needs the table's host token")

    async def list(self, statuses: list[str], lobby: bool = False) -> list[TableInfo]:
        """The tables of these statuses. ``lobby``: of the running ones, only those being
        played (a human connected, or bots only), as the lobby's "being played" list."""
        ended_statuses = [s for s in statuses if s in (db.FINISHED, db.ABANDONED)]
        live_statuses = [s for s in statuses if s not in ended_statuses]
        if self.fanout.shared and live_statuses:
            # Tables created by other processes: read them once, then follow them.
            for table_id in await self.db(self.store.table_ids, live_statuses):
                if table_id not in self.tables:
                    with contextlib.suppress(LobbyError):
                        await self.get(table_id)
        live = [
            t.info()
            for t in self.tables.values()
            if t.data.status in statuses
            and not (
                lobby
                and t.data.status == db.RUNNING
                and not (t.humans_connected() or t.bots_only())
            )
        ]
        if ended_statuses:
            known = {t.id for t in live}
            stored = await self.db(self.store.list_tables, ended_statuses)
            for data in stored:
                if data.id not in known:
                    try:
                        live.append(TableRuntime(self, data).info())
                    except Exception:  # a game or params this engine no longer takes
                        log.warning("table %s cannot be listed", data.id, exc_info=True)
        return live
