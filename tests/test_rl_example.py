"""scripts/rl_maskable_ppo.py (docs/rl.md's example) without torch: its interval, its
evaluation and its table, which the documented figures come from."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed")

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "rl_maskable_ppo.py"


@pytest.fixture(scope="module")
def example() -> Any:
    spec = importlib.util.spec_from_file_location("rl_maskable_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_interval(example: Any) -> None:
    low, high = example.wilson(353, 400)
    # The score interval's closed form at z = 1.96, worked by hand for 353/400.
    assert low == pytest.approx(0.8472, abs=1e-4) and high == pytest.approx(0.9105, abs=1e-4)
    assert example.wilson(0, 40)[0] == 0.0 and example.wilson(40, 40)[1] == 1.0
    assert example.wilson(0, 0) == (0.0, 1.0)


def test_evaluation_plays_the_same_games_for_the_same_policy(example: Any) -> None:
    a = example.evaluate(example.uniform_policy(1), "random", 6, 100)
    b = example.evaluate(example.uniform_policy(1), "random", 6, 100)
    assert a == b
    assert a["games"] == 6 and 0 <= a["wins"] <= 6
    assert a["wilson_95"] == list(example.wilson(a["wins"], 6))


def test_evaluation_counts_first_place_as_a_win(example: Any) -> None:
    """A win is a game whose final reward is 1 (first place, shared or not): the count
    matches the rewards of the same games played here by hand."""
    wins = 0
    env = example.make_env("random")
    for g in range(4):
        env.reset(seed=500 + g)
        done = False
        while not done:
            first = int(np.flatnonzero(env.action_masks())[0])
            _, reward, terminated, truncated, _ = env.step(first)
            done = terminated or truncated
        wins += reward == 1.0
    got = example.evaluate(lambda _o, m: int(np.flatnonzero(m)[0]), "random", 4, 500)
    assert got["wins"] == wins


def test_the_table_has_one_row_per_policy(example: Any) -> None:
    row = {
        o: {"wins": 3, "games": 4, "win_rate": 0.75, "wilson_95": [0.3, 0.95]}
        for o in example.EVAL_SEEDS
    }
    text = example.markdown_table({"uniform": row, "trained": row})
    lines = text.splitlines()
    assert len(lines) == 4 and lines[2].startswith("| uniform |")
    assert "3/4 **0.750** [0.300, 0.950]" in lines[3]
