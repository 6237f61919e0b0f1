"""A server upgraded across a rule change (docs/records.md, "On a play server across an
upgrade"): Djinn's record compatibility went from 1 to 2 (ruling D27 revised). Tables stored
by the server before are found in the database at the next start:

- a running Djinn table stored before servers kept the number (so 1) is abandoned with a
  reason naming both numbers, not replayed under the new rules;
- a running Djinn table whose stored moves no longer replay is abandoned naming the step;
- a finished Djinn table of the old number stays finished;
- a running Ali Baba table stored before servers kept the number plays on (its game's
  number did not change);
- a running table whose params this engine no longer takes is abandoned in the database;

the server starts and serves on, nothing is retried at the next start, and the records of
the set-aside tables download as stored, with their old number, which this engine refuses
clearly. Runs on SQLite always, and on PostgreSQL when ARABESQUE_TEST_DATABASE_URL names one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, insert, update

from arabesque.core.errors import RecordError
from arabesque.core.records import GameRecord
from arabesque.server import db
from arabesque.server.settings import Settings
from arabesque.server.store import Store, make_engine, now
from arabesque.sim.verify import verify_record
from tests.server_client import GameClient, Lobby, ServerThread

#: Written by the engine before Djinn's record compatibility 2 (tests/test_record_compat.py):
#: 3 players, seed 5; its step 30 is a skip that ruling D27 revised no longer offers.
OLD_DJINN = Path(__file__).resolve().parent / "records" / "djinn-compat1.json"
#: The stored moves of the running tables: past that step 30.
MOVES = 40


def _humans(lobby: Lobby, game: str, players: int) -> str:
    """A started table of ``players`` humans, no clock: nothing moves by itself."""
    table_id, host = lobby.create(game, players=players, clock={"per_move_s": None})
    for seat in range(players):
        lobby.join(table_id, seat)
    lobby.start(table_id, host)
    return table_id


def _store_as(
    url: str,
    table_id: str,
    record: GameRecord,
    moves: int,
    status: str,
    compat: int | None,
) -> None:
    """Rewrite a stored table as an older server would have left it: the record's setup and
    first ``moves`` actions, ``status``, and the record compatibility in its options (None:
    none, as before servers kept it)."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            row = conn.execute(
                db.TableRow.__table__.select().where(db.TableRow.id == table_id)
            ).one()
            options = {k: v for k, v in row.options.items() if k != "record_compat"}
            if compat is not None:
                options["record_compat"] = compat
            conn.execute(
                update(db.TableRow)
                .where(db.TableRow.id == table_id)
                .values(
                    params=record.params,
                    seed=record.seed,
                    arrangement=record.arrangement,
                    options=options,
                    status=status,
                    finished_at=now() if status == db.FINISHED else None,
                )
            )
            conn.execute(delete(db.ActionRow).where(db.ActionRow.table_id == table_id))
            conn.execute(
                insert(db.ActionRow),
                [
                    {
                        "table_id": table_id,
                        "idx": i,
                        "seat": seat,
                        "action": text,
                        "created_at": now(),
                    }
                    for i, (seat, text) in enumerate(record.actions[:moves])
                ],
            )
    finally:
        engine.dispose()


def _refused_clearly(record_json: dict[str, Any], *words: str) -> None:
    record = GameRecord.from_json(record_json)
    with pytest.raises(RecordError) as info:
        record.replay()
    for word in words:
        assert word in str(info.value)
    failure = verify_record(record).failure
    assert failure is not None and all(word in failure for word in words)


async def test_a_djinn_table_across_the_rule_change(database_url: str, tmp_path: Path) -> None:
    old = GameRecord.load(OLD_DJINN)
    settings = Settings(database_url=database_url, data_dir=tmp_path)
    with ServerThread(settings) as server:
        lobby = Lobby(server.url)
        unmarked = _humans(lobby, "djinn", 3)
        broken = _humans(lobby, "djinn", 3)
        finished = _humans(lobby, "djinn", 3)
        ali_baba = _humans(lobby, "ali-baba", 2)
        unloadable = _humans(lobby, "ali-baba", 2)
        lobby.close()
    store = Store(database_url)
    try:
        # Started by this server: the number of the game's rules is stored with the table.
        assert store.load(unmarked) is not None
        assert store.load(unmarked).options["record_compat"] == 2  # type: ignore[union-attr]
        ab = store.load(ali_baba)
        assert ab is not None and ab.options["record_compat"] == 1
    finally:
        store.close()
    _store_as(database_url, unmarked, old, MOVES, db.RUNNING, compat=None)
    _store_as(database_url, broken, old, MOVES, db.RUNNING, compat=2)
    _store_as(database_url, finished, old, len(old.actions), db.FINISHED, compat=None)
    # An Ali Baba table of an older server: no number stored, and none needed (still 1).
    ab_engine = make_engine(database_url)
    with ab_engine.begin() as conn:
        conn.execute(update(db.TableRow).where(db.TableRow.id == ali_baba).values(options={}))
        # A table whose params this engine no longer takes (an option since removed).
        conn.execute(
            update(db.TableRow)
            .where(db.TableRow.id == unloadable)
            .values(params={"num_players": 2, "variant": "standard", "removed_option": 1})
        )
    ab_engine.dispose()

    notes_after_first_start: dict[str, int] = {}
    for start in range(2):
        with ServerThread(settings) as server:
            lobby = Lobby(server.url)
            info = lobby.table(unmarked)
            assert info["status"] == "abandoned", info
            assert "record compatibility 1 → 2" in info["end_reason"]
            assert "Djinn" in info["end_reason"]
            assert info["notes"][-1]["kind"] == "abandoned"
            assert info["reveal"] is not None and info["result"] is None
            info = lobby.table(broken)
            assert info["status"] == "abandoned", info
            assert "do not replay" in info["end_reason"] and "step 30" in info["end_reason"]
            assert lobby.table(finished)["status"] == "finished"
            ab_info = lobby.table(ali_baba)
            assert ab_info["status"] == "running" and ab_info["version"] == 0
            # The records download as stored, with the number they were played under.
            for table_id, moves, compat in (
                (unmarked, MOVES, 1),
                (broken, MOVES, 2),
                (finished, len(old.actions), 1),
            ):
                r = lobby.record(table_id)
                assert r.status_code == 200, r.text
                data = r.json()
                assert data["record_compat"] == compat and data["game"] == "djinn"
                assert data["setup"]["seed"] == old.seed
                stored = [(a["player"], a["action"]) for a in data["actions"]]
                assert stored == old.actions[:moves]
            _refused_clearly(lobby.record(unmarked).json(), "compatibility 1", "compatibility 2")
            _refused_clearly(lobby.record(broken).json(), "step 30")
            replay = lobby.http.get(f"/api/tables/{unmarked}/replay", params={"step": 3})
            assert replay.status_code == 400 and replay.json()["code"] == "bad_record"
            assert "compatibility 2 only" in replay.json()["message"]
            # A spectator is shown the table, without a game; a move is refused.
            watcher = GameClient(server.ws_url, unmarked)
            await watcher.connect()
            assert watcher.view is None
            await watcher.close()
            # The server goes on: a new Djinn table starts under the new rules.
            fresh = _humans(lobby, "djinn", 2)
            assert lobby.table(fresh)["status"] == "running"
            # A table this engine cannot even load is abandoned in the database, saying why.
            assert lobby.http.get(f"/api/tables/{unloadable}").status_code == 404
            lobby.close()
            ((_, notes),) = _notes(settings, unloadable)
            assert notes[-1]["kind"] == "abandoned" and "cannot load it" in notes[-1]["text"]
            # Nothing is tried again at the next start: the notes do not grow.
            counts = {t: len(n) for t, n in _notes(settings, unmarked, broken, unloadable)}
            if start == 0:
                notes_after_first_start = counts
            else:
                assert counts == notes_after_first_start


def _notes(settings: Settings, *tables: str) -> list[tuple[str, list[dict[str, Any]]]]:
    store = Store(settings.resolved_database_url())
    try:
        out = []
        for table_id in tables:
            data = store.load(table_id)
            assert data is not None
            out.append((table_id, data.notes))
        return out
    finally:
        store.close()
