"""docs/rl.md's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

DOC = Path(__file__).resolve().parents[1] / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_there_are_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[index], f"docs/rl.md example {index + 1}", "exec"), {})
