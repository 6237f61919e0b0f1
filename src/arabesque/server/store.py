"""Persistence: a small synchronous API over SQLAlchemy, run off the event loop.

Every method is one transaction. ``append_actions`` commits the applied actions (and the
clock times and the end of the game) before it returns, and the table runtime acknowledges
and broadcasts an action only after that: a server killed at any moment restarts with every
table where its last acknowledged action left it. ``append_many`` commits the appends of
several tables in one transaction (the hub's group commit, one fsync for all of them).

SQLite (the default) runs in WAL mode with ``synchronous=NORMAL``: a commit is in the
write-ahead log, in the OS page cache, when it returns, so it survives the server process
being killed (even with SIGKILL); only a power loss or an OS crash can lose the last commits
(the database itself stays consistent). PostgreSQL is used through psycopg 3. The schema is
made by the Alembic migrations shipped in ``arabesque.server.migrations`` (``migrate``).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, selectinload, sessionmaker

from arabesque.core.records import UNMARKED_COMPAT
from arabesque.server.db import (
    ABANDONED,
    FINISHED,
    HUMAN,
    OPEN,
    RUNNING,
    ActionRow,
    Base,
    PresenceRow,
    SeatRow,
    TableRow,
)

log = logging.getLogger("arabesque.server")


def hash_token(token: str) -> str:
    """Tokens are long random strings, so a plain sha256 is enough (no salt or stretching:
    there is nothing to guess by brute force)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


def _utc(at: datetime) -> datetime:
    # SQLite hands back the stored UTC time without its zone.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Presence:
    """A seat (or the spectators) as the other server processes see it (``PresenceRow``)."""

    #: Live connections on other running processes.
    connections: int = 0
    #: When the last of them went, None if none did (or while one is connected).
    gone_since: datetime | None = None


@dataclass
class SeatData:
    seat: int
    kind: str
    agent: str | None = None
    name: str | None = None
    token_hash: str | None = None
    clock_used_ms: int = 0
    #: The agent playing for this away human, if one was handed the seat.
    stand_in: str | None = None


#: The table option holding the record compatibility of its game's rules when it started
#: (``GameSpec.record_compat``), and the one naming the engine that started it.
RECORD_COMPAT_OPTION = "record_compat"
ENGINE_VERSION_OPTION = "engine_version"


@dataclass
class TableData:
    """One table as stored: configuration, setup and the applied actions."""

    id: str
    game: str
    params: dict[str, Any]
    options: dict[str, Any]
    status: str
    host_token_hash: str
    created_at: datetime
    seats: list[SeatData]
    started_at: datetime | None = None
    finished_at: datetime | None = None
    seed: int | None = None
    arrangement: dict[str, Any] | None = None
    salt: str | None = None
    commitment: str | None = None
    #: (seat, canonical action text), in order.
    actions: list[tuple[int, str]] = field(default_factory=list)
    end_reason: str | None = None
    #: When a human was last connected (None: since the table was made).
    seen_at: datetime | None = None
    notes: list[dict[str, Any]] = field(default_factory=list)
    race_reviews: list[dict[str, Any]] = field(default_factory=list)

    def record_compat(self) -> int:
        """The record compatibility its game had when the table started (docs/records.md);
        a table started before servers stored it counts as 1, as records do."""
        value = self.options.get(RECORD_COMPAT_OPTION, UNMARKED_COMPAT)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets its folder created, WAL and normal sync (durable
    across a crash of the process, not across a power loss: see the module's docstring)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            # Checkpoints are the Checkpointer thread's: SQLite's automatic one runs inside
            # the commit that crosses its threshold, and that commit (and every action waiting
            # on it) then waits for the checkpoint's fsync: the p99 of the load benchmark
            # went from about 10 ms to 45-90 ms with it.
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def alembic_config() -> Any:
    """Alembic's configuration without an alembic.ini: the scripts are package resources."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "arabesque.server:migrations")
    return config


def migrate(engine: Engine) -> None:
    """``alembic upgrade head`` on ``engine``'s database."""
    from alembic import command

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _seat_data(row: SeatRow) -> SeatData:
    return SeatData(
        seat=row.seat,
        kind=row.kind,
        agent=row.agent,
        name=row.name,
        token_hash=row.token_hash,
        clock_used_ms=row.clock_used_ms,
        stand_in=row.stand_in,
    )


def _table_data(row: TableRow, actions: Sequence[ActionRow] = ()) -> TableData:
    return TableData(
        id=row.id,
        game=row.game,
        params=dict(row.params),
        options=dict(row.options),
        status=row.status,
        host_token_hash=row.host_token_hash,
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        seed=row.seed,
        arrangement=row.arrangement,
        salt=row.salt,
        commitment=row.commitment,
        seats=[_seat_data(s) for s in row.seats],
        actions=[(a.seat, a.action) for a in actions],
        end_reason=row.end_reason,
        seen_at=row.seen_at,
        notes=list(row.notes or []),
        race_reviews=list(row.race_reviews or []),
    )


@dataclass
class Append:
    """Actions applied to one table, to be committed (``Store.append_many``)."""

    table_id: str
    first_index: int
    actions: list[tuple[int, str]]
    clock_used_ms: dict[int, int] = field(default_factory=dict)
    finished: bool = False


_ACTIONS: Table = Base.metadata.tables[ActionRow.__tablename__]
_SEATS: Table = Base.metadata.tables[SeatRow.__tablename__]
_TABLES: Table = Base.metadata.tables[TableRow.__tablename__]


class StoreError(RuntimeError):
    """The database refused a write (e.g. a step already written by someone else)."""


#: SQLite: how often the write-ahead log is copied back into the database file.
CHECKPOINT_EVERY_S = 1.0


class Checkpointer:
    """Copies SQLite's write-ahead log into the database from a thread of its own, every
    ``CHECKPOINT_EVERY_S``, in PASSIVE mode (it never waits for a writer, and no writer waits
    for it), so the log stays small without any commit paying for it."""

    def __init__(self, engine: Engine, every_s: float = CHECKPOINT_EVERY_S) -> None:
        self.engine = engine
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="arabesque-sqlite-checkpoint", daemon=True
        )
        self._thread.start()

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        with self.engine.connect() as connection:
            connection.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.checkpoint()
            except Exception:  # a busy or closing database: the next round tries again
                log.debug("checkpoint failed", exc_info=True)

    def stop(self) -> None:
        """Stop, and leave the log empty (a clean shutdown leaves just the database)."""
        self._stop.set()
        self._thread.join(timeout=10)
        try:
            self.checkpoint("TRUNCATE")
        except Exception:
            log.warning("the final checkpoint failed; the log is kept and replayed on start")


class Store:
    """The server's persistence. Thread-safe: each call opens its own session."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        database = self.engine.url.database
        self._checkpointer = (
            Checkpointer(self.engine)
            if self.is_sqlite and database and database != ":memory:"
            else None
        )

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    # -- tables ------------------------------------------------------------------------

    def create_table(self, table: TableData) -> None:
        with self._session() as s:
            row = TableRow(
                id=table.id,
                game=table.game,
                params=table.params,
                options=table.options,
                status=table.status,
                host_token_hash=table.host_token_hash,
                created_at=table.created_at,
                seen_at=table.created_at,
                notes=[],
            )
            row.seats = [
                SeatRow(
                    seat=seat.seat,
                    kind=seat.kind,
                    agent=seat.agent,
                    name=seat.name,
                    token_hash=seat.token_hash,
                    clock_used_ms=0,
                )
                for seat in table.seats
            ]
            s.add(row)

    def load(self, table_id: str) -> TableData | None:
        with self._session() as s:
            row = s.get(TableRow, table_id, options=[selectinload(TableRow.seats)])
            if row is None:
                return None
            actions = s.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.idx)
            ).all()
            return _table_data(row, actions)

    def table_ids(self, statuses: Sequence[str]) -> list[str]:
        with self._session() as s:
            return list(
                s.scalars(
                    select(TableRow.id)
                    .where(TableRow.status.in_(statuses))
                    .order_by(TableRow.created_at)
                )
            )

    def list_tables(self, statuses: Sequence[str], limit: int = 200) -> list[TableData]:
        """Tables without their actions (the lobby's list)."""
        with self._session() as s:
            rows = s.scalars(
                select(TableRow)
                .where(TableRow.status.in_(statuses))
                .options(selectinload(TableRow.seats))
                .order_by(TableRow.created_at.desc())
                .limit(limit)
            ).all()
            return [_table_data(r) for r in rows]

    # -- seats -------------------------------------------------------------------------

    def take_seat(self, table_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        """Give a free human seat of an open or running table its token; False when it is
        not free (one UPDATE, so two people joining at once cannot both get it)."""
        with self._session() as s:
            result = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == HUMAN,
                    SeatRow.token_hash.is_(None),
                )
                .values(token_hash=token_hash, name=name)
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def seat_bots(self, table_id: str, seats: Sequence[int], agent: str) -> None:
        """Turn free human seats into bots of ``agent``."""
        with self._session() as s:
            s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat.in_(list(seats)),
                    SeatRow.token_hash.is_(None),
                )
                .values(kind="bot", agent=agent)
                .execution_options(synchronize_session=False)
            )

    # -- the game ----------------------------------------------------------------------

    def start(
        self,
        table_id: str,
        seed: int,
        arrangement: dict[str, Any],
        salt: str,
        commitment: str,
        options: dict[str, Any] | None = None,
    ) -> bool:
        """Fix the setup of an open table and mark it running (``options``: the table's
        options, now with the record compatibility it starts under); False if it was not
        open."""
        extra: dict[str, Any] = {} if options is None else {"options": options}
        with self._session() as s:
            result = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status == OPEN)
                .values(
                    status=RUNNING,
                    started_at=now(),
                    seed=seed,
                    arrangement=arrangement,
                    salt=salt,
                    commitment=commitment,
                    **extra,
                )
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def append_actions(
        self,
        table_id: str,
        first_index: int,
        actions: Sequence[tuple[int, str]],
        clock_used_ms: dict[int, int] | None = None,
        finished: bool = False,
    ) -> None:
        """Commit applied actions at positions ``first_index``...; with the seats' clock
        times and, at the end, the table's finished status. Raises ``StoreError`` when a
        position is already taken (the game moved on elsewhere)."""
        append = Append(table_id, first_index, list(actions), dict(clock_used_ms or {}), finished)
        error = self.append_many([append])[0]
        if error is not None:
            raise error

    def append_many(self, appends: Sequence[Append]) -> list[Exception | None]:
        """Commit several ``append_actions`` at once, in one transaction when they all
        succeed; returns, for each, None (committed) or the exception it met (nothing of it
        committed). When the shared transaction fails, each append is tried again in a
        transaction of its own, so one refused append (a step stored elsewhere first) does
        not fail the others."""
        if not appends:
            return []
        try:
            with self.engine.begin() as connection:
                for append in appends:
                    self._append(connection, append)
            return [None] * len(appends)
        except Exception as exc:
            if len(appends) == 1:
                return [self._append_error(appends[0], exc)]
        results: list[Exception | None] = []
        for append in appends:
            try:
                with self.engine.begin() as connection:
                    self._append(connection, append)
                results.append(None)
            except Exception as exc:
                results.append(self._append_error(append, exc))
        return results

    @staticmethod
    def _append_error(append: Append, exc: Exception) -> Exception:
        from sqlalchemy.exc import IntegrityError

        if isinstance(exc, IntegrityError):
            error = StoreError(
                f"table {append.table_id}: step {append.first_index + 1} is already stored"
            )
            error.__cause__ = exc
            return error
        return exc

    @staticmethod
    def _append(connection: Connection, append: Append) -> None:
        # SQLAlchemy Core, not ORM objects: a third of a commit's cost was the ORM's.
        stamp = now()
        table_id = append.table_id
        if append.actions:
            connection.execute(
                insert(_ACTIONS),
                [
                    {
                        "table_id": table_id,
                        "idx": append.first_index + i,
                        "seat": seat,
                        "action": text,
                        "created_at": stamp,
                    }
                    for i, (seat, text) in enumerate(append.actions)
                ],
            )
        for seat, used in append.clock_used_ms.items():
            connection.execute(
                update(_SEATS)
                .where(_SEATS.c.table_id == table_id, _SEATS.c.seat == seat)
                .values(clock_used_ms=used)
            )
        if append.finished:
            connection.execute(
                update(_TABLES)
                .where(_TABLES.c.id == table_id)
                .values(status=FINISHED, finished_at=stamp)
            )

    def finish(self, table_id: str) -> None:
        """Mark a table finished (a game that ended without a new action, e.g. on load)."""
        with self._session() as s:
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status=FINISHED, finished_at=now())
                .execution_options(synchronize_session=False)
            )

    # -- away seats and abandoned tables ---------------------------------------------------

    def set_stand_in(self, table_id: str, seat: int, agent: str | None) -> None:
        """Hand an away human's seat to ``agent`` (None: the human has it back)."""
        with self._session() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(stand_in=agent)
                .execution_options(synchronize_session=False)
            )

    def _update_table(self, table_id: str, **values: Any) -> None:
        with self._session() as s:
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(**values)
                .execution_options(synchronize_session=False)
            )

    def set_notes(self, table_id: str, notes: list[dict[str, Any]]) -> None:
        self._update_table(table_id, notes=notes)

    def set_race_reviews(self, table_id: str, reviews: list[dict[str, Any]]) -> None:
        self._update_table(table_id, race_reviews=reviews)

    def seen(self, table_id: str, at: datetime) -> None:
        """A human was connected to the table at ``at``."""
        self._update_table(table_id, seen_at=at)

    def abandon(self, table_id: str, reason: str, notes: list[dict[str, Any]]) -> bool:
        """End an open or running table without a result; False if it had already ended."""
        with self._session() as s:
            result = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status.in_([OPEN, RUNNING]))
                .values(status=ABANDONED, end_reason=reason, finished_at=now(), notes=notes)
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def idle_tables(self, before: datetime) -> list[str]:
        """Open and running tables where no human has been connected since ``before``."""
        with self._session() as s:
            seen = func.coalesce(TableRow.seen_at, TableRow.created_at)
            return list(
                s.scalars(
                    select(TableRow.id).where(TableRow.status.in_([OPEN, RUNNING]), seen < before)
                )
            )

    # -- presence: the connections of each process (several processes, one database) ----

    def set_presence(
        self, process: str, table_id: str, seat: int, connections: int, at: datetime
    ) -> None:
        """``process`` now has ``connections`` to ``seat`` of the table (``SPECTATORS``:
        its spectators), as of ``at``."""
        with self._session() as s:
            row = s.get(PresenceRow, (table_id, process, seat))
            if row is None:
                s.add(
                    PresenceRow(
                        table_id=table_id,
                        process=process,
                        seat=seat,
                        connections=connections,
                        since=at,
                        beat=at,
                    )
                )
                return
            if (row.connections > 0) != (connections > 0):
                row.since = at
            row.connections = connections
            row.beat = at

    def beat(self, process: str, at: datetime, forget_before: datetime) -> None:
        """``process`` still runs at ``at``; rows no process has renewed since
        ``forget_before`` are dropped (their processes died long ago)."""
        with self._session() as s:
            s.execute(
                update(PresenceRow)
                .where(PresenceRow.process == process)
                .values(beat=at)
                .execution_options(synchronize_session=False)
            )
            s.execute(delete(PresenceRow).where(PresenceRow.beat < forget_before))

    def drop_presence(self, process: str) -> None:
        """``process`` stops: its connections are gone (a restart starts from none)."""
        with self._session() as s:
            s.execute(delete(PresenceRow).where(PresenceRow.process == process))

    def presence(self, table_id: str, process: str, alive_after: datetime) -> dict[int, Presence]:
        """The table's seats (and ``SPECTATORS``) as the processes other than ``process``
        hold them. A process whose last beat is before ``alive_after`` is taken to have
        died then: its connections count as gone since that beat."""
        with self._session() as s:
            rows = s.scalars(
                select(PresenceRow).where(
                    PresenceRow.table_id == table_id, PresenceRow.process != process
                )
            ).all()
        live: dict[int, int] = {}
        gone: dict[int, datetime] = {}
        for row in rows:
            beat = _utc(row.beat)
            if row.connections > 0 and beat >= alive_after:
                live[row.seat] = live.get(row.seat, 0) + row.connections
                continue
            went = _utc(row.since) if row.connections == 0 else beat
            gone[row.seat] = max(went, gone.get(row.seat, went))
        return {
            seat: Presence(live.get(seat, 0), None if seat in live else gone.get(seat))
            for seat in live.keys() | gone.keys()
        }
