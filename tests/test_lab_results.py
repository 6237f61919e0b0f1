"""Results as Parquet: simulate --out / tournament --out, --resume, the refusals, Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from arabesque.cli import main  # noqa: E402
from arabesque.core.registry import get_game  # noqa: E402
from arabesque.lab import run as lab_run  # noqa: E402
from arabesque.lab.results import GAMES_SCHEMA, SEATS_SCHEMA  # noqa: E402
from arabesque.lab.run import Plan, run_plan  # noqa: E402
from arabesque.lab.store import LabError, load_run  # noqa: E402
from arabesque.sim.batch import run_games  # noqa: E402

GAME = "magic-lamp"
#: The columns that are the same whoever plays the seeds (not timings).
DETERMINISTIC_SEATS = ["seed", "seat", "agent", "score", "breakdown", "rank", "won", "actions"]
DETERMINISTIC_GAMES = ["seed", "lineup", "actions", "turns", "end_reason", "winners", "metrics"]


def _plan(agents: tuple[str, ...] = ("heuristic", "random")) -> Plan:
    params = get_game(GAME).make_params(num_players=len(agents))
    return Plan(GAME, params, agents, "seats", (agents,))


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def _rows(folder: Path) -> tuple[list[dict], list[dict]]:
    run = load_run(folder)
    return (
        run.games.select(DETERMINISTIC_GAMES).to_pylist(),
        run.seats.select(DETERMINISTIC_SEATS).to_pylist(),
    )


def test_simulate_out_writes_one_row_per_game_and_seat_agreeing_with_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = main(
        ["simulate", GAME, "--players", "2", "--agents", "heuristic,random", "--games", "3",
         "--seed", "10", "--out", str(out), "--json"]
    )  # fmt: skip
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 3
    run = load_run(out)
    assert run.games.schema.equals(GAMES_SCHEMA) and run.seats.schema.equals(SEATS_SCHEMA)
    assert run.games.num_rows == 3 and run.seats.num_rows == 6
    assert run.games.column("seed").to_pylist() == [10, 11, 12]
    params = json.loads(run.seats.column("params")[0].as_py())
    assert params["num_players"] == 2 and params["components_digest"]
    # The same seeds through simulate's own batch: the same scores, ranks and lengths.
    spec = get_game(GAME)
    results = run_games(GAME, spec.make_params(num_players=2), ["heuristic", "random"], 3, 10)
    seats = run.seats.to_pylist()
    for r in results:
        mine = [s for s in seats if s["seed"] == r.seed]
        assert [s["score"] for s in mine] == list(r.totals)
        assert [s["rank"] for s in mine] == list(r.ranking)
        assert [s["won"] for s in mine] == list(r.won)
        assert sum(s["actions"] for s in mine) == r.actions
        assert all(sum(v for _, v in s["breakdown"]) == s["score"] for s in mine)
    games = run.games.to_pylist()
    assert all(dict(g["metrics"])["turns"] == g["turns"] for g in games)
    assert all(s["decisions"] >= 1 and s["think_ms_total"] >= 0 for s in seats)


def test_resume_plays_only_the_missing_seeds_and_equals_one_whole_run(tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    run_plan(_plan(), whole, range(0, 5))
    first = run_plan(_plan(), parts, range(0, 2))
    assert (first.played, first.already) == (2, 0)
    told: list[int] = []
    again = run_plan(_plan(), parts, range(0, 5), resume=True, on_game=lambda: told.append(1))
    assert (again.played, again.already) == (3, 2)
    assert len(told) == 3, "the progress bar hears of every game played"

    assert _rows(parts) == _rows(whole)
    nothing = run_plan(_plan(), parts, range(0, 5), resume=True)
    assert nothing.played == 0


def test_ctrl_c_leaves_the_finished_games_and_resume_completes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    real = lab_run.play_lab_game

    def interrupted_at_seed_3(*args, **kwargs):  # type: ignore[no-untyped-def]
        if args[4] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(lab_run, "play_lab_game", interrupted_at_seed_3)
    outcome = run_plan(_plan(), out, range(0, 6))
    assert outcome.interrupted and outcome.played == 3
    assert load_run(out).games.column("seed").to_pylist() == [0, 1, 2]
    assert not list(out.glob(".tmp-*"))
    monkeypatch.setattr(lab_run, "play_lab_game", real)
    run_plan(_plan(), out, range(0, 6), resume=True)
    run_plan(_plan(), tmp_path / "whole", range(0, 6))
    assert _rows(out) == _rows(tmp_path / "whole")


def test_a_half_written_chunk_is_never_read_and_resume_removes_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_plan(_plan(), out, range(0, 2))
    # A stop between the two renames leaves a seats file without its games file.
    seats = next(out.glob("seats-*.parquet"))
    orphan = out / "seats-99-1-deadbeef.parquet"
    orphan.write_bytes(seats.read_bytes())
    (out / ".tmp-games-99-1-deadbeef.parquet").write_bytes(b"half")
    assert load_run(out).seats.num_rows == 4
    run_plan(_plan(), out, range(0, 3), resume=True)
    assert not orphan.exists() and not list(out.glob(".tmp-*"))
    assert load_run(out).games.column("seed").to_pylist() == [0, 1, 2]


def test_two_workers_give_the_rows_of_one(tmp_path: Path) -> None:
    plan = _plan(("random", "random"))
    run_plan(plan, tmp_path / "one", range(0, 6), workers=1)
    run_plan(plan, tmp_path / "two", range(0, 6), workers=2, chunk_size=2)
    assert _rows(tmp_path / "one") == _rows(tmp_path / "two")


def _simulate(out: Path, *extra: str) -> int:
    return main(["simulate", GAME, "--games", "2", "--agents", "random", "--out", str(out), *extra])


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ([], "is not empty: pass --resume"),
        (["--resume", "--players", "3"], "other params (num_players: 2 there, 3 here)"),
        (["--resume", "--agents", "heuristic"], "--resume with other agents"),
        (["--resume", "--my-precious"], "other params (my_precious: False there, True here)"),
    ],
)
def test_refusals_are_one_line_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], second: list[str], message: str
) -> None:
    out = tmp_path / "run"
    assert _simulate(out, "--players", "2") == 0
    before = _listing(out)
    capsys.readouterr()
    args = ["--players", "2", *second] if "--players" not in second else second
    assert _simulate(out, *args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert _listing(out) == before


def test_a_folder_of_another_game_or_schema_or_no_lab_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert _simulate(out, "--players", "2") == 0
    capsys.readouterr()
    code = main(["simulate", "ali-baba", "--games", "1", "--agents", "random", "--out", str(out),
                 "--resume"])  # fmt: skip
    assert code == 2 and "holds magic-lamp results, not ali-baba" in capsys.readouterr().err
    manifest = json.loads((out / "lab.json").read_text())
    manifest["schema"] = 0
    (out / "lab.json").write_text(json.dumps(manifest))
    assert _simulate(out, "--players", "2", "--resume") == 2
    assert "results schema 0" in capsys.readouterr().err
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("hello")
    assert _simulate(foreign, "--resume") == 2
    assert "not a lab folder" in capsys.readouterr().err


def test_a_corrupted_parquet_file_is_one_clear_error(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_plan(_plan(), out, range(0, 2))
    games = next(out.glob("games-*.parquet"))
    games.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(LabError, match="is not a readable Parquet file"):
        load_run(out)
    with pytest.raises(LabError, match="no such results folder"):
        load_run(tmp_path / "missing")


def test_the_docs_duckdb_queries_run_on_a_results_folder(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    out = tmp_path / "run"
    run_plan(_plan(), out, range(0, 4))
    win_rates = duckdb.sql(
        f"SELECT agent, count(*) AS games, avg(won::INT) AS win_rate "
        f"FROM '{out}/seats-*.parquet' GROUP BY agent ORDER BY agent"
    ).fetchall()
    assert [r[0] for r in win_rates] == ["heuristic", "random"] and win_rates[0][1] == 4
    metrics = dict(
        duckdb.sql(
            f"SELECT m.key, avg(m.value) FROM "
            f"(SELECT unnest(map_entries(metrics)) AS m FROM '{out}/games-*.parquet') "
            f"GROUP BY m.key"
        ).fetchall()
    )
    turns = load_run(out).games.column("turns").to_pylist()
    assert metrics["turns"] == pytest.approx(sum(turns) / len(turns))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--agents", "nope"], "unknown agent 'nope'"),
        (["-o", "nope=1"], "nope"),
        (["--components", "missing.toml"], "missing.toml"),
        (["--resume", "--record", "recs"], "--record and --out"),
    ],
)
def test_bad_input_is_one_line_exit_2_before_the_folder_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    out = tmp_path / "run"
    code = main(["simulate", GAME, "--games", "1", "--out", str(out), *extra])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists() and not (tmp_path / "recs").exists()


def test_a_components_file_that_does_not_load_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[meta]\nname = 3\n")
    out = tmp_path / "run"
    code = main(["simulate", "djinn", "--games", "1", "--components", str(bad), "--out", str(out)])
    assert code == 2 and "'name' must be a str" in capsys.readouterr().err
    assert not out.exists()
