"""A results folder: ``lab.json`` (what the games are), then chunks of Parquet files.

Each chunk of games is a pair ``seats-<token>.parquet`` and ``games-<token>.parquet``,
written through temporary names (``.tmp-*``) and renamed, the games file last: a chunk
counts only once its games file exists, so Ctrl-C (or a power cut) at any moment leaves
either a whole chunk or none. A seats file whose games file never came is left over from
such a stop; it is never read and ``--resume`` removes it.

Refused before any game, with one line saying which: a non-empty folder without
``--resume``; a folder of another game, other params, another schema version, or (with
``--resume``) other agents; a folder that is not a lab folder.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from arabesque.lab.results import GAMES_SCHEMA, SCHEMA_VERSION, SEATS_SCHEMA

MANIFEST = "lab.json"


class LabError(ValueError):
    """A results folder that cannot be used as asked (one line, said to the user)."""


@dataclass(frozen=True)
class Manifest:
    """What every game of a folder shares: the game, params, who plays and how seats are
    assigned (``mode``: ``seats`` for simulate's fixed seats, or a tournament's mode)."""

    game: str
    params: dict[str, Any]
    agents: tuple[str, ...]
    mode: str
    players: int
    schema: int = SCHEMA_VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "game": self.game,
            "params": self.params,
            "agents": list(self.agents),
            "mode": self.mode,
            "players": self.players,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any], where: str) -> Manifest:
        try:
            return Manifest(
                game=str(data["game"]),
                params=dict(data["params"]),
                agents=tuple(str(a) for a in data["agents"]),
                mode=str(data["mode"]),
                players=int(data["players"]),
                schema=int(data["schema"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise LabError(f"{where} is not a lab manifest ({exc!r} missing or wrong)") from None


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".tmp-{path.name}.{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_manifest(folder: Path) -> Manifest | None:
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LabError(f"{path} cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict):
        raise LabError(f"{path} is not a lab manifest (not a JSON object)")
    return Manifest.from_json(data, str(path))


def _differences(there: Mapping[str, Any], here: Mapping[str, Any]) -> str:
    keys = sorted(set(there) | set(here))
    return "; ".join(
        f"{k}: {there.get(k)!r} there, {here.get(k)!r} here"
        for k in keys
        if there.get(k) != here.get(k)
    )


def open_for_writing(folder: Path, manifest: Manifest, resume: bool) -> set[int]:
    """Check ``folder`` against the run about to start and prepare it; the seeds it already
    holds (none for a new folder). Raises ``LabError`` (nothing written) when refused."""
    if folder.exists() and not folder.is_dir():
        raise LabError(f"--out {folder}: this is a file, not a folder")
    entries = [p for p in folder.iterdir() if not p.name.startswith(".")] if folder.exists() else []
    if entries and not resume:
        raise LabError(
            f"--out {folder} is not empty: pass --resume to play only the seeds it lacks, or "
            "choose a new folder"
        )
    there = read_manifest(folder) if entries else None
    if entries and there is None:
        raise LabError(f"--out {folder} holds files but no {MANIFEST}: it is not a lab folder")
    if there is not None:
        check_same_run(folder, there, manifest)
        remove_leftovers(folder)
        return done_seeds(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _atomic_write_bytes(
        folder / MANIFEST, (json.dumps(manifest.to_json(), indent=1) + "\n").encode()
    )
    return set()


def check_same_run(folder: Path, there: Manifest, here: Manifest) -> None:
    if there.schema != here.schema:
        raise LabError(
            f"{folder} was written with results schema {there.schema}; this arabesque writes "
            f"schema {here.schema}: use a new folder"
        )
    if there.game != here.game:
        raise LabError(f"{folder} holds {there.game} results, not {here.game}")
    if there.params != here.params:
        raise LabError(
            f"{folder} holds games with other params ({_differences(there.params, here.params)})"
        )
    if (there.agents, there.mode, there.players) != (here.agents, here.mode, here.players):
        raise LabError(
            f"--resume with other agents: {folder} was played by {','.join(there.agents)} "
            f"({there.mode}), this run asks for {','.join(here.agents)} ({here.mode})"
        )


def _chunks(folder: Path) -> list[tuple[Path, Path]]:
    """The complete chunks: (games file, seats file) pairs, in name order."""
    out = []
    for games in sorted(folder.glob("games-*.parquet")):
        seats = folder / ("seats-" + games.name[len("games-") :])
        if seats.exists():
            out.append((games, seats))
    return out


def remove_leftovers(folder: Path) -> None:
    """Temporary files and seats files without their games file: what a stop mid-write left."""
    for path in folder.glob(".tmp-*"):
        path.unlink(missing_ok=True)
    for seats in folder.glob("seats-*.parquet"):
        if not (folder / ("games-" + seats.name[len("seats-") :])).exists():
            seats.unlink(missing_ok=True)


def _read(path: Path, columns: Sequence[str] | None = None) -> pa.Table:
    try:
        table = pq.read_table(path, columns=list(columns) if columns else None)
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise LabError(f"{path} is not a readable Parquet file ({exc})") from None
    return table


def done_seeds(folder: Path) -> set[int]:
    seeds: set[int] = set()
    for games, _ in _chunks(folder):
        seeds.update(_read(games, ["seed"]).column("seed").to_pylist())
    return seeds


def write_chunk(
    folder: Path, game_rows: list[dict[str, Any]], seat_rows: list[dict[str, Any]]
) -> None:
    """One chunk, atomically: the seats file, then the games file that makes it count."""
    if not game_rows:
        return
    token = f"{game_rows[0]['seed']}-{len(game_rows)}-{uuid.uuid4().hex[:8]}"
    for name, rows, schema in (
        (f"seats-{token}.parquet", seat_rows, SEATS_SCHEMA),
        (f"games-{token}.parquet", game_rows, GAMES_SCHEMA),
    ):
        path = folder / name
        tmp = folder / f".tmp-{name}"
        try:
            pq.write_table(pa.Table.from_pylist(rows, schema=schema), tmp)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


@dataclass(frozen=True)
class Run:
    """A results folder read back: its manifest and its two tables (seed order)."""

    folder: Path
    manifest: Manifest
    games: pa.Table
    seats: pa.Table

    @property
    def label(self) -> str:
        return self.folder.name or str(self.folder)


def load_run(folder: str | Path) -> Run:
    """Read a results folder; ``LabError`` for a folder that is missing, empty, not a lab
    folder, of another schema, or holds a file that is not Parquet."""
    path = Path(folder)
    if not path.is_dir():
        raise LabError(f"{folder}: no such results folder")
    manifest = read_manifest(path)
    if manifest is None:
        raise LabError(f"{folder} holds no {MANIFEST}: it is not a lab results folder")
    if manifest.schema != SCHEMA_VERSION:
        raise LabError(
            f"{folder} was written with results schema {manifest.schema}; this arabesque "
            f"reads schema {SCHEMA_VERSION}"
        )
    chunks = _chunks(path)
    if not chunks:
        raise LabError(f"{folder} holds no finished games yet")
    games_tables = []
    seats_tables = []
    for games, seats in chunks:
        g = _read(games)
        s = _read(seats)
        if not (g.schema.equals(GAMES_SCHEMA) and s.schema.equals(SEATS_SCHEMA)):
            raise LabError(f"{games} or {seats} does not have the lab's columns")
        games_tables.append(g)
        seats_tables.append(s)
    games_table = pa.concat_tables(games_tables)
    seats_table = pa.concat_tables(seats_tables)
    games_table = games_table.sort_by("seed")
    seats_table = seats_table.sort_by([("seed", "ascending"), ("seat", "ascending")])
    return Run(path, manifest, games_table, seats_table)
