"""The server's persistence: the shipped Alembic migrations build exactly the schema of the
models, on SQLite and (when ARABESQUE_TEST_DATABASE_URL is set) PostgreSQL; the store's
writes are atomic where the server relies on it."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from arabesque.server.db import Base
from arabesque.server.settings import Settings, normalize_database_url
from arabesque.server.store import SeatData, Store, StoreError, TableData, now
from tests.server_client import pg_schema

PG_ENV = "ARABESQUE_TEST_DATABASE_URL"


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set"),
        ),
    ]
)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'nested' / 'db.sqlite3'}")
        s.migrate()
        yield s
        s.close()
    else:
        with pg_schema(os.environ[PG_ENV]) as url:
            s = Store(url)
            s.migrate()
            yield s
            s.close()


def _table(table_id: str = "t1") -> TableData:
    return TableData(
        id=table_id,
        game="magic-lamp",
        params={"num_players": 2},
        options={"clock": {}},
        status="open",
        host_token_hash="0" * 64,
        created_at=now(),
        seats=[SeatData(0, "human"), SeatData(1, "bot", agent="random")],
    )


def test_migrations_match_the_models(store: Store) -> None:
    store.migrate()  # a second upgrade is a no-op
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_store_round_trip(store: Store) -> None:
    store.create_table(_table())
    assert store.take_seat("t1", 0, "a" * 64, "Ann")
    assert not store.take_seat("t1", 0, "b" * 64, "Bob")  # taken
    assert not store.take_seat("t1", 1, "b" * 64, "Bob")  # a bot's seat
    assert store.start("t1", 2**63 - 1, {"decks": [1, 2]}, "salt", "c" * 64)
    assert not store.start("t1", 1, {}, "salt", "c" * 64)  # started already
    store.append_actions("t1", 0, [(0, "set gold 3"), (1, "set bronze 2")], {0: 1200})
    with pytest.raises(StoreError, match="step 2 is already stored"):
        store.append_actions("t1", 1, [(1, "set silver 1")])
    store.append_actions("t1", 2, [(0, "no-rub")], finished=True)
    data = store.load("t1")
    assert data is not None
    assert data.seed == 2**63 - 1 and data.arrangement == {"decks": [1, 2]}
    assert data.actions == [(0, "set gold 3"), (1, "set bronze 2"), (0, "no-rub")]
    assert data.status == "finished" and data.seats[0].clock_used_ms == 1200
    assert data.seats[0].name == "Ann" and data.seats[1].agent == "random"
    assert store.table_ids(["open", "running"]) == []
    assert [t.id for t in store.list_tables(["finished"])] == ["t1"]
    assert store.load("nope") is None


def test_sqlite_checkpoints_run_beside_the_commits(tmp_path: Path) -> None:
    """No commit runs SQLite's checkpoint (its automatic one is off); the store's own thread
    copies the log into the database file, and a clean close leaves the log empty."""
    path = tmp_path / "server.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    store.create_table(_table())
    assert store.start("t1", 7, {"decks": [1, 2]}, "salt", "c" * 64)
    size = path.stat().st_size
    for i in range(0, 4000, 100):
        store.append_actions("t1", i, [(0, f"set gold {j % 6 + 1}") for j in range(100)])
    # The pages reach the database file only by a checkpoint: the thread's, as no commit
    # checkpoints any more.
    deadline = time.monotonic() + 10
    while path.stat().st_size == size and time.monotonic() < deadline:
        time.sleep(0.05)
    assert path.stat().st_size > size
    store.close()
    wal = tmp_path / "server.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    again = Store(f"sqlite:///{path}")
    data = again.load("t1")
    assert data is not None and len(data.actions) == 4000
    again.close()


def test_settings_database_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert normalize_database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("sqlite:///x") == "sqlite:///x"
    monkeypatch.setenv("ARABESQUE_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("ARABESQUE_DATABASE_URL", raising=False)
    assert Settings.from_env().resolved_database_url() == f"sqlite:///{tmp_path}/server.sqlite3"
    monkeypatch.setenv("ARABESQUE_DATABASE_URL", "postgresql://x@y/z")
    assert Settings.from_env().resolved_database_url() == "postgresql+psycopg://x@y/z"
    assert Settings.from_env(database_url="sqlite:///o").resolved_database_url() == "sqlite:///o"
