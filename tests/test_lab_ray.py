"""``--backend ray`` against a local Ray (``ray.init(num_cpus=2)``): the local pool's rows."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
ray = pytest.importorskip("ray")

from arabesque.cli import main  # noqa: E402
from arabesque.core.registry import get_game  # noqa: E402
from arabesque.lab.run import Plan, run_plan  # noqa: E402
from arabesque.lab.store import load_run  # noqa: E402

SRC = str(Path(__file__).resolve().parents[1] / "src")
SEATS = ["seed", "seat", "agent", "lineup", "score", "breakdown", "rank", "won", "actions"]
GAMES = ["seed", "lineup", "actions", "turns", "end_reason", "winners", "metrics"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # The workers import arabesque from this checkout, as the test process does.
    path = os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH")) if p)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    yield
    ray.shutdown()


def _rows(folder: Path) -> tuple[list[dict], list[dict]]:
    run = load_run(folder)
    return run.seats.select(SEATS).to_pylist(), run.games.select(GAMES).to_pylist()


def _plan() -> Plan:
    params = get_game("magic-lamp").make_params(num_players=2)
    cycle = (("heuristic", "random"), ("random", "heuristic"))
    return Plan("magic-lamp", params, ("heuristic", "random"), "round-robin", cycle)


def test_ray_gives_the_rows_of_the_local_pool_and_ctrl_c_keeps_finished_chunks(
    local_ray: None, tmp_path: Path
) -> None:
    run_plan(_plan(), tmp_path / "local", range(0, 6), workers=1)

    # Ctrl-C after the first chunk came back: it is kept, the rest is cancelled.
    def stop_after_first() -> None:
        raise KeyboardInterrupt

    outcome = run_plan(
        _plan(),
        tmp_path / "ray",
        range(0, 6),
        backend="ray",
        chunk_size=2,
        on_game=stop_after_first,
    )
    assert outcome.interrupted
    kept = load_run(tmp_path / "ray").games.num_rows
    assert kept == 2
    again = run_plan(
        _plan(), tmp_path / "ray", range(0, 6), backend="ray", chunk_size=2, resume=True
    )
    assert (again.already, again.played) == (2, 4)
    assert _rows(tmp_path / "ray") == _rows(tmp_path / "local")


def test_the_command_runs_a_tournament_on_ray(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    code = main(
        ["tournament", "ali-baba", "--players", "2", "--agents", "heuristic,random", "--games",
         "2", "--backend", "ray", "--out", str(out), "--bootstrap", "0", "--json"]
    )  # fmt: skip
    assert code == 0
    assert load_run(out).games.num_rows == 2


def test_ray_needs_a_folder_and_no_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "magic-lamp", "--games", "1", "--backend", "ray"]) == 2
    assert "add --out DIR" in capsys.readouterr().err
    code = main(["simulate", "magic-lamp", "--games", "1", "--backend", "ray", "--workers", "2",
                 "--out", str(tmp_path / "x")])  # fmt: skip
    assert code == 2 and not (tmp_path / "x").exists()
