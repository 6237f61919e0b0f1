"""Record compatibility is per game (``GameSpec.record_compat``, docs/records.md): raising one
game's number refuses that game's old records, clearly, and leaves the other games' records
valid.

tests/records/*-compat1.json were written by the engine just before Djinn's number went to 2
(ruling D27 revised: only the mages at the edge a move arrives at are paid): one heuristic
game of each game, with seeds 5 (Djinn, 3 players), 11 (Magic Lamp, 3) and 12 (Ali Baba, 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arabesque import __version__, cli
from arabesque.core import GameRecord, RecordError, get_game
from arabesque.core.conformance import random_playout
from arabesque.sim.verify import EXIT_NOT_VERIFIED, verify_record
from tests.conftest import GAMES

RECORDS = Path(__file__).resolve().parent / "records"
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def test_each_game_declares_its_own_record_compatibility() -> None:
    compat = {game: get_game(game).record_compat for game in GAMES}
    assert compat == {"ali-baba": 1, "djinn": 2, "magic-lamp": 1}
    for game in GAMES:
        spec = get_game(game)
        state = random_playout(spec, spec.make_params(num_players=2), seed=3)
        data = state.record().to_json()
        assert data["record_compat"] == spec.record_compat
        # A record made in code without a number is of the game's rules today.
        record = GameRecord(game=game, params=data["params"], seed=3)
        assert record.record_compat == spec.record_compat


@pytest.mark.parametrize("game", ["magic-lamp", "ali-baba"])
def test_old_magic_lamp_and_ali_baba_records_still_replay(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Djinn's new number leaves the other games' records as valid as they were."""
    path = RECORDS / f"{game}-compat1.json"
    record = GameRecord.load(path)
    assert record.record_compat == 1
    state = record.replay()
    assert state.is_over and record.result_mismatch(state) is None
    assert verify_record(record).failure is None
    assert cli.main(["replay", str(path), "--json"]) == 0
    # The hand-written scenarios predate the field (read as 1) and replay too.
    scenario = GameRecord.load(EXAMPLES / f"{game}-scenario.json")
    assert "record_compat" not in json.loads((EXAMPLES / f"{game}-scenario.json").read_text())
    scenario.replay()
    capsys.readouterr()


def test_an_old_djinn_record_is_refused_naming_both_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = RECORDS / "djinn-compat1.json"
    record = GameRecord.load(path)
    assert record.record_compat == 1
    with pytest.raises(RecordError) as info:
        record.replay()
    message = str(info.value)
    assert "djinn record compatibility 1" in message
    assert "djinn records of compatibility 2 only" in message
    assert f"arabesque {record.engine_version}" in message and __version__ in message
    # The command line and verify say the same, without a traceback.
    assert cli.main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "compatibility 1" in err and "compatibility 2" in err
    assert "Traceback" not in err
    result = verify_record(record)
    assert result.failure is not None and "compatibility 2 only" in result.failure
    assert cli.main(["verify", str(path)]) == EXIT_NOT_VERIFIED
    # Without the field (a record older than it) Djinn's record reads as 1: refused too.
    data = json.loads(path.read_text())
    del data["record_compat"]
    with pytest.raises(RecordError, match="djinn record compatibility 1"):
        GameRecord.from_json(data).replay()


def test_the_old_djinn_record_does_not_replay_under_the_new_rule() -> None:
    """Why the number had to rise: forced past the check, the old record's actions break
    under ruling D27 revised (a mage at another edge no longer blocks, so a 'skip' recorded
    there is not a choice any more)."""
    record = GameRecord.load(RECORDS / "djinn-compat1.json")
    record.record_compat = get_game("djinn").record_compat
    with pytest.raises(RecordError, match=r"step \d+ .*'skip' is not legal"):
        record.replay()
