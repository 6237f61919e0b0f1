"""The core contract: registry, params, records, scoring helpers."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arabesque.core import (
    ArabesqueError,
    GameRecord,
    Params,
    ParamsError,
    RecordError,
    Score,
    UnknownGameError,
    game_ids,
    get_game,
    rank_by_key,
    rank_scores,
    register,
    winners,
)
from arabesque.core.errors import (
    ComponentsError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from arabesque.games.magic_lamp.params import MagicLampParams

# -- errors -----------------------------------------------------------------------------------


def test_error_hierarchy() -> None:
    """Every error of bad input is a ValueError through ArabesqueError; not-your-turn and
    game-over are kinds of illegal action."""
    for error in (
        InvalidActionError,
        IllegalActionError,
        ParamsError,
        ComponentsError,
        RecordError,
        UnknownGameError,
    ):
        assert issubclass(error, ArabesqueError)
        assert issubclass(error, ValueError)
    assert issubclass(NotYourTurnError, IllegalActionError)
    assert issubclass(GameOverError, IllegalActionError)
    assert not issubclass(InvalidActionError, IllegalActionError)


# -- registry ---------------------------------------------------------------------------------


def test_registry_finds_magic_lamp() -> None:
    spec = get_game("magic-lamp")
    assert spec.id == "magic-lamp"
    assert (spec.min_players, spec.max_players) == (2, 5)
    assert spec.simultaneous and spec.hidden_information and spec.chance and spec.real_time
    assert "magic-lamp" in game_ids()
    assert get_game("magic-lamp") is spec


def test_registry_unknown_game_lists_known_ids() -> None:
    with pytest.raises(UnknownGameError) as info:
        get_game("magic-carpet")
    message = str(info.value)
    assert "'magic-carpet'" in message
    for game in game_ids():
        assert game in message


def test_registry_refuses_a_second_game_under_one_id() -> None:
    spec = get_game("magic-lamp")
    assert register(spec) is spec  # registering the same spec again is harmless
    other = copy.copy(spec)
    with pytest.raises(ValueError, match="already registered as 'magic-lamp'"):
        register(other)


# -- params -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlainParams(Params):
    variant: bool = False


def test_params_round_trip_json() -> None:
    params = MagicLampParams(num_players=3, my_precious=True)
    assert MagicLampParams.from_json(json.loads(json.dumps(params.to_json()))) == params
    assert params.with_changes(num_players=4).num_players == 4
    assert MagicLampParams.from_json({}) == MagicLampParams()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([3], "params must be a JSON object, got list"),
        ("3 players", "params must be a JSON object, got str"),
        ({"num_players": 3, "colour": "red"}, "unknown params ['colour']"),
        ({"players": 3}, "known: ['components', 'max_turns', 'my_precious', 'num_players']"),
    ],
)
def test_params_from_json_errors(data: Any, message: str) -> None:
    with pytest.raises(ParamsError) as info:
        MagicLampParams.from_json(data)
    assert message in str(info.value)


def test_params_from_json_missing_required_field() -> None:
    with pytest.raises(ParamsError, match="bad params"):
        PlainParams.from_json({"variant": True})
    assert PlainParams.from_json({"num_players": 2}).num_players == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 1}, "for 2-5 players, not 1"),
        ({"num_players": 6}, "for 2-5 players, not 6"),
        ({"num_players": 3, "max_turns": 0}, "max_turns must be an integer in 1..100000"),
        ({"num_players": 3, "max_turns": 10**100}, "max_turns must be an integer in 1..100000"),
        ({"num_players": 3, "components": "/no/such/file.toml"}, "cannot read components"),
        ({"num_players": 3, "max_turns": "many"}, "max_turns"),
        ({"num_players": 3, "my_precious": "yes"}, "my_precious"),
        ({"num_players": 3, "components": 5}, "components"),
    ],
)
def test_make_params_errors(options: dict[str, Any], message: str) -> None:
    """Bad options raise a ParamsError (or a ComponentsError for an unreadable file) that
    names the problem, never a TypeError."""
    with pytest.raises(ArabesqueError) as info:
        get_game("magic-lamp").make_params(**options)
    assert message in str(info.value)


def test_make_params_num_players_must_be_an_integer() -> None:
    with pytest.raises(ParamsError, match="num_players"):
        get_game("magic-lamp").make_params(num_players="3")


def test_validate_params_refuses_another_games_params() -> None:
    with pytest.raises(ParamsError, match="expects MagicLampParams"):
        get_game("magic-lamp").validate_params(PlainParams(num_players=3))


# -- records ----------------------------------------------------------------------------------


def good_record() -> dict[str, Any]:
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=3), seed=17)
    for p, text in enumerate(["set bronze 2", "set silver 2", "set gold 6"]):
        state.apply(p, state.parse_action(text))
    data: dict[str, Any] = state.record(note="core test").to_json()
    return data


def test_record_round_trip() -> None:
    data = good_record()
    record = GameRecord.from_json(json.loads(json.dumps(data)))
    assert record.to_json() == data
    assert record.actions[0] == (0, "set bronze 2")
    assert record.metadata == {"note": "core test"}
    state = record.replay()
    assert len(state.history) == 3


def test_record_save_and_load(tmp_path: Path) -> None:
    record = GameRecord.from_json(good_record())
    path = tmp_path / "game.json"
    record.save(path)
    assert GameRecord.load(path).to_json() == record.to_json()
    with pytest.raises(RecordError, match="cannot read record"):
        GameRecord.load(tmp_path / "missing.json")
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="is not valid JSON"):
        GameRecord.load(path)


def _set(path: tuple[str, ...], value: Any) -> Any:
    def mutate(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return mutate


def _drop(key: str) -> Any:
    return lambda data: data.pop(key)


MALFORMED = [
    ("not an object", lambda d: None, "a record is a JSON object"),
    ("format", _set(("format",), "chess-pgn"), "unknown record format 'chess-pgn'"),
    ("no game", _drop("game"), "no 'game' field"),
    ("no params", _drop("params"), "no 'params' field"),
    ("no setup", _drop("setup"), "no 'setup' field"),
    ("no actions", _drop("actions"), "no 'actions' field"),
    ("game", _set(("game",), 7), "'game' must be a game id string"),
    ("params", _set(("params",), [3]), "'params' must be an object"),
    ("setup", _set(("setup",), 17), "'setup' must be an object"),
    ("seed", _set(("setup", "seed"), "17"), "integer 'seed'"),
    ("arrangement", _set(("setup", "arrangement"), [1]), "'setup.arrangement' must be an object"),
    ("data digest", _set(("setup", "data_sha256"), 5), "'setup.data_sha256' must be a string"),
    ("actions", _set(("actions",), "draw"), "'actions' must be a list"),
    ("action entry", _set(("actions",), ["draw"]), "step 1: each action is"),
    ("player", _set(("actions",), [{"player": "0", "action": "draw"}]), "step 1"),
    ("player bool", _set(("actions",), [{"player": True, "action": "draw"}]), "step 1"),
    ("action text", _set(("actions",), [{"player": 0, "action": 321}]), "step 1"),
    ("metadata", _set(("metadata",), [1]), "'metadata' must be an object"),
]


@pytest.mark.parametrize(("field", "mutate", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_record_from_json_names_the_malformed_field(field: str, mutate: Any, message: str) -> None:
    data = good_record()
    if field == "not an object":
        data = ["a", "list"]  # type: ignore[assignment]
    else:
        mutate(data)
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(data)
    assert message in str(info.value)


def test_record_without_a_seed_is_refused() -> None:
    data = good_record()
    del data["setup"]["seed"]
    with pytest.raises(RecordError, match="seed"):
        GameRecord.from_json(data)


def test_record_with_a_boolean_seed_is_refused() -> None:
    data = good_record()
    data["setup"]["seed"] = True
    with pytest.raises(RecordError, match="seed"):
        GameRecord.from_json(data)


def test_record_replay_errors_name_the_step() -> None:
    data = good_record()
    data["actions"].append({"player": 0, "action": "fly away"})
    with pytest.raises(RecordError, match=r"step 4 \(player 0, 'fly away'\)"):
        GameRecord.from_json(data).replay()
    data = good_record()
    data["actions"][1] = {"player": 0, "action": "set gold 3"}
    with pytest.raises(RecordError, match="step 2"):
        GameRecord.from_json(data).replay()


def test_record_setup_errors() -> None:
    data = good_record()
    data["game"] = "magic-carpet"
    with pytest.raises(RecordError, match="setup: no game 'magic-carpet'"):
        GameRecord.from_json(data).replay()
    data = good_record()
    data["params"] = {"num_players": 9}
    with pytest.raises(RecordError, match=r"setup: .*not 9"):
        GameRecord.from_json(data).replay()
    data = good_record()
    data["setup"]["data_sha256"] = "0" * 64
    with pytest.raises(RecordError, match="different components file"):
        GameRecord.from_json(data).replay()


def test_record_steps_yield_each_state() -> None:
    record = GameRecord.from_json(good_record())
    steps = [(i, p, a) for i, p, a, _ in record.steps()]
    assert [i for i, _, _ in steps] == [1, 2, 3]
    assert [p for _, p, _ in steps] == [0, 1, 2]


# -- scoring ----------------------------------------------------------------------------------


def test_score_of_sums_the_breakdown() -> None:
    score = Score.of({"cards": 12, "majority_emerald": 5, "set_silver": 8})
    assert score.total == 25
    assert score.to_json() == {
        "total": 25,
        "breakdown": {"cards": 12, "majority_emerald": 5, "set_silver": 8},
    }
    assert Score.of({}).total == 0


@pytest.mark.parametrize(
    ("keys", "ranks"),
    [
        ([], []),
        ([7], [1]),
        ([3, 5, 5, 1], [3, 1, 1, 4]),
        ([2, 2, 2], [1, 1, 1]),
        ([9, 4, 4, 4, 0], [1, 2, 2, 2, 5]),
        ([(5, 1), (5, 2), (4, 9)], [2, 1, 3]),
    ],
)
def test_rank_by_key_shares_ranks_on_ties(keys: list[Any], ranks: list[int]) -> None:
    """Competition ranking: equal keys share a rank and the next rank is skipped."""
    assert rank_by_key(keys) == ranks


def test_winners_and_rank_scores() -> None:
    scores = [Score.of({"a": 10}), Score.of({"a": 12}), Score.of({"a": 12})]
    ranks = rank_scores(scores)
    assert ranks == [3, 1, 1]
    assert winners(ranks) == [1, 2]
    assert rank_scores(scores, tie_break=lambda p: -p) == [3, 1, 2]
