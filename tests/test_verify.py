"""``arabesque verify``: a genuine record verifies, and each kind of tampering is named.

Also the record field it relies on, ``setup.dealt`` (docs/records.md), and the state flag
behind it, ``GameState.hand_arranged``."""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arabesque import cli
from arabesque.core import GameRecord, RecordError, get_game
from arabesque.core.commitment import commit_state, new_salt
from arabesque.core.conformance import random_playout
from arabesque.sim import verify
from arabesque.sim.verify import EXIT_NOT_VERIFIED, verify_record
from tests.test_hostile_input import FUZZ, JSON_VALUES, _mutate, _paths

ROOT = Path(__file__).resolve().parents[1]
ML_SCENARIO = ROOT / "docs" / "examples" / "magic-lamp-scenario.json"
AB_SCENARIO = ROOT / "docs" / "examples" / "ali-baba-scenario.json"


def _cli_has_verify() -> bool:
    parser = cli.build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return "verify" in action.choices
    return False


def run(*argv: str | Path) -> int:
    """``arabesque verify ...`` through the real entry point once cli.py has it; until then
    through the same parser and handler on their own."""
    args = [str(a) for a in argv]
    if _cli_has_verify():
        return cli.main(["verify", *args])
    return verify.main(args)


def _genuine(game: str = "magic-lamp", players: int = 3, seed: int = 12) -> dict[str, Any]:
    """A finished game's record as the server writes it: committed at the start, the salt
    revealed at the end."""
    spec = get_game(game)
    params = spec.make_params(num_players=players)
    salt = new_salt()
    digest = commit_state(spec.new_game(params, seed=seed), salt)  # published at the start
    state = random_playout(spec, params, seed)
    record: GameRecord = state.record(commitment={"sha256": digest, "salt": salt})
    data: dict[str, Any] = record.to_json()
    return data


@pytest.fixture(scope="module")
def genuine() -> dict[str, Any]:
    return _genuine()


def _save(tmp_path: Path, data: dict[str, Any], name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: dict[str, Any], says: str,
    *options: str,
) -> str:
    code = run(_save(tmp_path, data), *options)
    out, err = capsys.readouterr()
    assert code == EXIT_NOT_VERIFIED, out
    assert out == ""
    assert err.count("\n") == 1, "one line"
    assert "NOT verified" in err
    assert says in err, err
    return err


# -- genuine records ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players"), [("magic-lamp", 3), ("magic-lamp", 5), ("ali-baba", 4)]
)
def test_a_genuine_record_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, players: int
) -> None:
    data = _genuine(game, players)
    assert data["setup"]["dealt"] == "seed"
    assert run(_save(tmp_path, data)) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith(f"{tmp_path / 'record.json'}: verified: {game}, {players} players")
    assert "deal: the seed's" in out
    assert "result matches" in out
    assert "commitment " in out and " matches" in out


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any) -> None:
    assert run(_save(tmp_path, genuine), "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["verified"] is True and shown["failure"] is None
    assert any("steps legal" in c for c in shown["checked"])


def test_the_published_commitment_can_be_required(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    digest = genuine["metadata"]["commitment"]["sha256"]
    assert run(_save(tmp_path, genuine), "--commitment", digest.upper()) == 0
    assert "is the one published" in capsys.readouterr().out
    _fails(tmp_path, capsys, genuine, "not the one published", "--commitment", "ab" * 32)
    bare = copy.deepcopy(genuine)
    del bare["metadata"]["commitment"]
    _fails(tmp_path, capsys, bare, "carries no commitment", "--commitment", digest)


def test_a_record_without_commitment_verifies_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    del data["metadata"]["commitment"]
    assert run(_save(tmp_path, data)) == 0
    assert "no commitment to check" in capsys.readouterr().out


def test_an_old_record_without_dealt_verifies_when_the_seed_deals_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    del data["setup"]["dealt"]
    assert run(_save(tmp_path, data)) == 0
    assert "deal: the seed's" in capsys.readouterr().out


# -- tampering ---------------------------------------------------------------------------------


def test_a_swapped_card_in_the_arrangement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    gold = data["setup"]["arrangement"]["decks"]["gold"]
    gold[0], gold[5] = gold[5], gold[0]
    err = _fails(tmp_path, capsys, data, "the deal is not the one seed 12 produces")
    assert "setup.dealt says the seed dealt it: arrangement.decks.gold[0]" in err


def test_another_seed_with_the_same_arrangement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    data["setup"]["seed"] = 13
    _fails(tmp_path, capsys, data, "the deal is not the one seed 13 produces")


def _other_legal_action(data: dict[str, Any], step: int) -> str:
    """A legal action for the player of ``step`` (from 1) other than the recorded one."""
    record = GameRecord.from_json(data)
    state = record.initial_state()
    for _ in itertools.islice(record.steps(state), step - 1):
        pass
    player, text = record.actions[step - 1]
    legal = [state.action_to_str(a) for a in state.legal_actions(player)]
    return next(a for a in legal if a != text)


def test_an_edited_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    # Player 0's first die goes elsewhere: still legal there, but the game it leads to is
    # not the recorded one.
    data = copy.deepcopy(genuine)
    data["actions"][0]["action"] = _other_legal_action(data, 1)
    err = _fails(tmp_path, capsys, data, "NOT verified")
    assert "a step is not legal: step " in err or "the result is not the replayed one" in err


def test_an_edited_action_that_keeps_every_step_legal_changes_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    # The last action of the game: the steps before it are untouched, nothing follows it.
    for back in range(1, 40):
        candidate = copy.deepcopy(data)
        step = len(candidate["actions"]) - back + 1
        try:
            candidate["actions"][step - 1]["action"] = _other_legal_action(candidate, step)
        except StopIteration:  # a single legal action there
            continue
        record = GameRecord.from_json(candidate)
        try:
            state = record.replay()
        except RecordError:
            continue
        if record.result_mismatch(state) is not None:
            _fails(tmp_path, capsys, candidate, "the result is not the replayed one")
            return
    pytest.fail("no late edit changed the result")


def test_an_illegal_step(tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any) -> None:
    data = copy.deepcopy(genuine)
    data["actions"][4]["action"] = "set gold 7"  # no die has a 7
    _fails(tmp_path, capsys, data, "a step is not legal: step 5")
    data = copy.deepcopy(genuine)
    later = next(i for i, a in enumerate(data["actions"]) if a["action"] in ("draw", "stop"))
    data["actions"][later]["player"] = (data["actions"][later]["player"] + 1) % 3
    _fails(tmp_path, capsys, data, f"a step is not legal: step {later + 1}")


def test_an_edited_result(tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any) -> None:
    data = copy.deepcopy(genuine)
    data["metadata"]["result"]["scores"][1]["total"] += 10
    _fails(tmp_path, capsys, data, "the result is not the replayed one")


def test_a_truncated_record_with_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    data["actions"] = data["actions"][:-1]
    _fails(tmp_path, capsys, data, "the replayed game is not over")


def test_a_wrong_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    digest = data["metadata"]["commitment"]["sha256"]
    data["metadata"]["commitment"]["sha256"] = ("0" if digest[0] != "0" else "1") + digest[1:]
    _fails(tmp_path, capsys, data, "the commitment does not match")


def test_a_wrong_salt(tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any) -> None:
    data = copy.deepcopy(genuine)
    data["metadata"]["commitment"]["salt"] = new_salt()
    _fails(tmp_path, capsys, data, "the commitment does not match")


def test_a_malformed_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    data["metadata"]["commitment"] = "trust me"
    _fails(tmp_path, capsys, data, "metadata.commitment must be")


def test_a_hand_arrangement_declared_as_seeded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(ML_SCENARIO.read_text(encoding="utf-8"))
    data["setup"]["dealt"] = "seed"
    _fails(tmp_path, capsys, data, "the deal is not the one seed 2024 produces, though setup.dealt")


@pytest.mark.parametrize("scenario", [ML_SCENARIO, AB_SCENARIO])
@pytest.mark.parametrize("declared", ["hand", None])
def test_a_hand_arrangement_needs_allow_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scenario: Path, declared: str | None
) -> None:
    data = json.loads(scenario.read_text(encoding="utf-8"))
    if declared is not None:
        data["setup"]["dealt"] = declared
    says = "declares a hand-written" if declared else "does not say it was written by hand"
    _fails(tmp_path, capsys, data, says)
    assert run(_save(tmp_path, data), "--allow-hand") == 0
    assert "deal: hand-written (allowed" in capsys.readouterr().out


def test_a_file_that_does_not_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text("{not json", encoding="utf-8")
    assert run(path) == EXIT_NOT_VERIFIED
    assert "the record does not load" in capsys.readouterr().err
    assert run(tmp_path / "missing.json") == EXIT_NOT_VERIFIED
    assert "cannot read record" in capsys.readouterr().err


def test_another_engine_compatibility(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], genuine: Any
) -> None:
    data = copy.deepcopy(genuine)
    data["record_compat"] = 99
    _fails(tmp_path, capsys, data, "the record does not set up")


# -- fuzzing: only clean failures --------------------------------------------------------------

_BASE: dict[str, Any] = {}


def _fuzz_base() -> dict[str, Any]:
    if not _BASE:
        data = _genuine(seed=5)
        _BASE.update(data)
    return _BASE


@FUZZ
@given(choice=st.data(), value=JSON_VALUES, delete=st.booleans())
def test_fuzz_mutated_records_verify_or_fail_cleanly(
    choice: st.DataObject, value: Any, delete: bool
) -> None:
    data = copy.deepcopy(_fuzz_base())
    section = choice.draw(st.sampled_from(["params", "setup", "actions", "metadata"]))
    path = choice.draw(st.sampled_from(_paths(data[section], (section,))))
    data = _mutate(data, path, value, delete)
    try:
        record = GameRecord.from_json(data)
    except RecordError:
        return  # refused when loading: the CLI says "does not load"
    result = verify_record(record)
    if result.ok:
        # Whatever changed, the record still is a legal game on the seed's deal whose
        # commitment (if it kept one) holds.
        assert result.final is not None
        assert result.summary().startswith("verified: ")
    else:
        assert isinstance(result.failure, str) and result.failure
        assert "\n" not in result.summary()


@FUZZ
@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_fuzz_record_files_fail_cleanly(text: str | bytes) -> None:
    try:
        record = GameRecord.loads(text)
    except RecordError:
        return
    assert isinstance(verify_record(record).summary(), str)


# -- setup.dealt and GameState.hand_arranged ---------------------------------------------------


def test_dealt_is_read_and_written() -> None:
    data = _genuine(seed=3)
    assert GameRecord.from_json(data).dealt == "seed"
    del data["setup"]["dealt"]
    old = GameRecord.from_json(data)
    assert old.dealt is None
    assert "dealt" not in old.to_json()["setup"]  # an old record stays as it was
    data["setup"]["dealt"] = "shuffled"
    with pytest.raises(RecordError, match=r"'setup\.dealt' must be 'seed'"):
        GameRecord.from_json(data)


@pytest.mark.parametrize("game", ["magic-lamp", "ali-baba"])
def test_hand_arranged_follows_the_deal_not_the_argument(game: str) -> None:
    spec = get_game(game)
    params = spec.make_params(num_players=3)
    seeded = spec.new_game(params, seed=8)
    assert not seeded.hand_arranged
    # A replay passes the full arrangement the seed dealt: still the seed's deal.
    replayed = spec.new_game(params, seed=8, arrangement=seeded.arrangement())
    assert not replayed.hand_arranged
    assert GameRecord.from_state(replayed).dealt == "seed"
    # The same arrangement under another seed is not what that seed deals.
    moved = spec.new_game(params, seed=9, arrangement=seeded.arrangement())
    assert moved.hand_arranged
    assert GameRecord.from_state(moved).dealt == "hand"
    for copy_ in (moved.clone(), moved.search_copy(), moved.determinize(0, random.Random(1))):
        assert copy_.hand_arranged


def test_scenario_records_say_hand_when_played_on() -> None:
    record = GameRecord.load(ML_SCENARIO)
    state = record.replay()
    assert state.hand_arranged
    assert GameRecord.from_state(state).dealt == "hand"


def test_a_replayed_seeded_record_continues_as_seeded() -> None:
    data = _genuine(seed=6)
    data["actions"] = data["actions"][:30]
    del data["metadata"]["result"]
    state = GameRecord.from_json(data).replay()
    assert not state.hand_arranged
    assert GameRecord.from_state(state).dealt == "seed"
