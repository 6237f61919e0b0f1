"""scripts/search_strength.py, the strength table's maker (docs/strength.md): a tiny cell
played into a results file, resumed without playing again, and reported per agent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "search_strength.py"
#: A search small enough for seconds: 4 iterations, rollouts of 2 steps.
TINY = "ismcts:iters=4+horizon=2"


def run_script(*args: str) -> str:
    """What the script printed, its progress (standard error) first."""
    env = {**os.environ, "PYTHONPATH": str(SCRIPT.parents[1] / "src")}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stderr + done.stdout


def test_a_cell_is_played_resumed_and_reported(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    cell = ["ali-baba", TINY, "--players", "2", "--games", "2", "--resume", str(results)]
    run_script(*cell)
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["seed"], r["seat"]) for r in records] == [(1000, 0), (1001, 1)]
    assert {r["agent"] for r in records} == {TINY}
    assert all(r["opponent"] == "heuristic" and len(r["totals"]) == 2 for r in records)
    # Run again: nothing left to play, the file unchanged.
    before = results.read_text()
    assert "0 games to play (2 done already)" in run_script(*cell)
    assert results.read_text() == before
    # The report holds the cells of the agent named, and only those.
    report = run_script("all", TINY, "--report", str(results))
    rows = [line for line in report.splitlines() if line.startswith("| ali-baba |")]
    assert len(rows) == 1 and f"`{TINY}`" in rows[0] and "| 2 |" in rows[0]
    assert "| ali-baba |" not in run_script("all", "medium", "--report", str(results))
    assert "| ali-baba |" not in run_script("djinn", TINY, "--report", str(results))
