"""Smoke test of scripts/bench_server_load.py: a two-second run with three games must play
(actions acknowledged), see no error, and stop by itself with its server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_server_load.py"


def test_load_script_runs_games_without_errors() -> None:
    completed = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "3", "--duration", "2", "--json",
         "--no-progress", "--setup-timeout", "60"],
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    result = json.loads(completed.stdout)
    assert result["actions"] > 0 and result["actions_per_s"] > 0
    assert result["errors"] == 0, result["error_samples"]
    assert result["concurrent_games"]["max"] == 3
    assert result["round_trip_ms"]["p50"] > 0
    assert result["database"] == "sqlite"
