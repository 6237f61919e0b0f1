"""`arabesque cards`: every table of a game's catalog is printed, not only with --json."""

from __future__ import annotations

import pytest

from arabesque import cli


def test_cards_ali_baba_shows_both_board_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cards", "ali-baba"]) == 0
    out = capsys.readouterr().out
    for side in ("cave-25", "cave-16"):
        assert f"boards: {side}" in out, f"the {side} board side is not printed"
    assert "face_up" in out and "white sword" in out
