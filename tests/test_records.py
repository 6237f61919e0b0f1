"""Game records: the documented scenario, round trips, and replay errors that name the step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arabesque.core import GameRecord, RecordError, get_game
from arabesque.core.conformance import random_playout
from arabesque.core.game import GameState
from arabesque.games.magic_lamp import MagicLampState
from arabesque.games.magic_lamp.components import CHESTS, card_token
from arabesque.sim.replay import describe_event, final_summary, replay_steps

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "docs" / "examples" / "magic-lamp-scenario.json"


def _finished_record(players: int = 3, seed: int = 21) -> GameRecord:
    spec = get_game("magic-lamp")
    state = random_playout(spec, spec.make_params(num_players=players), seed)
    record: GameRecord = state.record(note="test")
    return record


# -- the hand-written scenario of docs/records.md ---------------------------------------------


def test_documented_scenario_replays_to_the_holdings_the_doc_describes() -> None:
    record = GameRecord.load(SCENARIO)
    state = record.replay()
    assert isinstance(state, MagicLampState)
    # The story of docs/records.md: player 0 wins the race on the shared 3, its wish draws the
    # top gold card, and its gold search keeps the next three; player 2 keeps two bronze cards
    # and player 1 one silver card; then turn 2 begins.
    expected = [
        ["ruby", "diamond:1", "gold bracelet", "gold ring", "ruby:1"],
        ["emerald", "emerald"],
        ["sapphire", "sapphire", "ruby:1"],
    ]
    held = [[card_token(state.comp, c) for c in cards] for cards in state.holdings]
    assert held == expected
    assert [s.total for s in state.scores()] == [15, 7, 8]
    view = state.view(None)
    assert view["turn"] == 2 and view["phase"] == "setting" and not state.is_over
    race = next(e for e in view["log"] if e["kind"] == "race")
    assert [r["winner"] for r in race["races"]] == [0]


def test_scenario_names_resolve_to_distinct_cards_of_the_right_chest() -> None:
    record = GameRecord.load(SCENARIO)
    state = record.initial_state()
    assert isinstance(state, MagicLampState)
    comp = state.comp
    start = state.arrangement()
    for chest, ids in start["decks"].items():
        assert len(set(ids)) == len(ids)
        assert all(comp.cards[c].chest == CHESTS.index(chest) for c in ids)
    assert [card_token(comp, c) for c in start["decks"]["gold"][:4]] == [
        "diamond:1",
        "gold bracelet",
        "gold ring",
        "ruby:1",
    ]
    assert comp.lamp_cards[start["lamp_deck"][0]].name == "Golden Windfall"
    # Two entries with the same name take two different cards.
    spec = get_game("magic-lamp")
    twice = spec.new_game(
        spec.make_params(num_players=2), seed=1, arrangement={"decks": {"bronze": ["ruby", "ruby"]}}
    )
    top = twice.arrangement()["decks"]["bronze"][:2]
    assert top[0] != top[1] and {card_token(comp, c) for c in top} == {"ruby"}


def test_a_scenario_naming_an_unknown_card_is_refused_with_the_names() -> None:
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    data["setup"]["arrangement"]["decks"]["gold"][1] = "gold crown"
    with pytest.raises(RecordError, match=r"no unused card named 'gold crown'.*gold ring"):
        GameRecord.from_json(data).replay()


# -- round trips --------------------------------------------------------------------------------


def test_record_json_round_trip_and_exact_replay(tmp_path: Path) -> None:
    spec = get_game("magic-lamp")
    original = random_playout(spec, spec.make_params(num_players=4, my_precious=True), 8)
    record = original.record(source="test")
    path = tmp_path / "game.json"
    record.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    fields = {
        "format",
        "game",
        "engine_version",
        "record_compat",
        "params",
        "setup",
        "actions",
        "metadata",
    }
    assert set(data) == fields
    assert data["format"] == "arabesque-record/1"
    assert set(data["setup"]) == {"seed", "dealt", "arrangement", "data_sha256"}
    assert data["setup"]["dealt"] == "seed"
    assert data["metadata"]["result"]["ranking"] == original.ranking()
    loaded = GameRecord.load(path)
    assert loaded == record
    assert loaded.replay().fingerprint() == original.fingerprint()


def test_a_full_arrangement_fixes_the_deal_whatever_the_seed() -> None:
    record = _finished_record()
    assert record.arrangement is not None
    other_seed = GameRecord.from_json({**record.to_json(), "setup": {"seed": record.seed + 1}})
    with_arrangement = GameRecord.from_json(
        {**record.to_json(), "setup": {"seed": record.seed + 1, "arrangement": record.arrangement}}
    )
    assert other_seed.initial_state().arrangement() != record.arrangement
    assert with_arrangement.initial_state().arrangement() == record.arrangement


def test_replay_steps_show_public_events_only() -> None:
    record = _finished_record(players=2, seed=5)
    steps = list(replay_steps(record))
    assert steps[0][0].step == 0 and steps[0][0].events[0]["kind"] == "setup"
    assert [s.step for s, _ in steps[1:]] == list(range(1, len(record.actions) + 1))
    assert [s.action for s, _ in steps[1:]] == [a for _, a in record.actions]
    final = steps[-1][1]
    public = [e.to_json() for e in final.events if e.visible_to is None]
    shown = [e for s, _ in steps for e in s.events]
    assert all(e in public for e in shown), "a replay must not show private events"
    assert any(e["kind"] == "game_over" for e in shown)
    assert all(describe_event(e).startswith(e["kind"]) for e in shown)


# -- replay errors name the step ----------------------------------------------------------------


def _illegal_text(state: GameState, player: int) -> str:
    legal = set(state.legal_actions(player))
    return str(next(state.action_to_str(a) for a in range(state.num_actions) if a not in legal))


@pytest.mark.parametrize("fraction", [0.0, 0.5, 0.99])
def test_an_illegal_step_is_named(fraction: float) -> None:
    record = _finished_record()
    k = 1 + int(fraction * (len(record.actions) - 1))
    state = record.initial_state()
    for _ in zip(range(k - 1), record.steps(state), strict=False):
        pass
    player = record.actions[k - 1][0]
    record.actions[k - 1] = (player, _illegal_text(state, player))
    with pytest.raises(RecordError, match=rf"^step {k} \(player {player}, "):
        record.replay()


def test_a_wrong_player_and_unknown_text_are_named() -> None:
    record = _finished_record()
    wrong = list(record.actions)
    seat, text = wrong[40]
    wrong[40] = ((seat + 1) % 3, text)
    with pytest.raises(RecordError, match="step 41"):
        GameRecord(**{**record.__dict__, "actions": wrong}).replay()
    garbled = list(record.actions)
    garbled[2] = (garbled[2][0], "polish the lamp")
    with pytest.raises(RecordError, match=r"step 3 .*unknown action 'polish the lamp'"):
        GameRecord(**{**record.__dict__, "actions": garbled}).replay()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess-pgn"}, "unknown record format"),
        ({"game": "backgammon"}, "no game 'backgammon'"),
        ({"params": {"num_players": 3, "dragons": True}}, "unknown params"),
        ({"setup": {"seed": "abc"}}, "integer 'seed'"),
        ({"actions": [{"player": 0, "action": "set gold 3"}, {"player": "0"}]}, "step 2"),
    ],
)
def test_malformed_records_say_what_is_wrong(change: dict[str, Any], message: str) -> None:
    data = {**_finished_record().to_json(), **change}
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(data).replay()


def test_an_unfinished_record_replays_to_a_running_game() -> None:
    record = _finished_record()
    record.actions = record.actions[:30]
    state = record.replay()
    summary = final_summary(state)
    assert not summary["is_over"] and summary["winners"] is None
    assert summary["steps"] == 30


def test_replay_refuses_a_record_made_with_other_game_data(tmp_path: Path) -> None:
    data = _finished_record().to_json()
    assert isinstance(data["setup"]["data_sha256"], str)
    data["setup"]["data_sha256"] = "0" * 64
    with pytest.raises(RecordError, match="different components file"):
        GameRecord.from_json(data).replay()


# -- the hand-written Ali Baba scenario of docs/records.md --------------------------------------


def test_documented_ali_baba_scenario_replays_to_what_the_doc_describes() -> None:
    from arabesque.games.ali_baba.state import AliBabaState

    record = GameRecord.load(ROOT / "docs" / "examples" / "ali-baba-scenario.json")
    state = record.replay()
    assert isinstance(state, AliBabaState)
    held = [[state.tiles.name(t) for t in hand] for hand in state.hands]
    assert held == [
        ["pink diamond", "yellow chest", "pink ring"],
        ["green carpet"],
        ["white statue"],
    ]
    assert [s.total for s in state.scores()] == [8, 1, 1]
    view = state.view(None)
    assert view["turn"] == 5 and view["current"] == 1 and view["phase"] == "take"
    assert view["blocks"] == [{"by": 2, "type": "kind", "what": "sword"}]
    takes = [state.action_to_str(a) for a in state.legal_actions(1)]
    assert "take brown sword" not in takes and takes
    # The private choice of step 8 is in seat 1's log only.
    assert any(e["kind"] == "show_chosen" for e in state.view(1)["log"])
    assert not any(e["kind"] == "show_chosen" for e in state.view(0)["log"])
    # The engine stores the complete layout the seed dealt around the fixed places.
    full = state.record().to_json()["setup"]["arrangement"]
    assert len(full["board"]) == 54 and full["board"][50] == "pink diamond"
