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


@pytest.mark.parametrize("game", ["djinn", "ali-baba", "magic-lamp"])
def test_cards_word_yes_no_columns(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Djinn's Mage cards once showed a "key" column of True and False.
    assert cli.main(["cards", game]) == 0
    out = capsys.readouterr().out
    assert "True" not in out and "False" not in out


def test_cards_djinn_asks_whether_a_mage_card_has_a_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["cards", "djinn"]) == 0
    out = capsys.readouterr().out
    mage_table = out.split("mage cards", 1)[1].split("equipment", 1)[0]
    header = mage_table.splitlines()[1]
    assert header.split("┃")[1].strip() == "key?"
    rows = [line.split("│") for line in mage_table.splitlines()[3:] if "│" in line]
    assert {cells[1].strip() for cells in rows} == {"yes", "no"}
