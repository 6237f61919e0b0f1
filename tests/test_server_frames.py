"""How the server encodes its frames (server/connection.py): the fast paths give exactly what the
plain encoding gives."""

from __future__ import annotations

import json
import random

import orjson

from arabesque.core.registry import get_game
from arabesque.server.connection import _split_version, _update_frame, dumps


def test_dumps_matches_the_encoding_that_allows_any_key() -> None:
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=3), seed=11)
    rng = random.Random(2)
    for _ in range(60):
        seat = min(state.to_act())
        view = state.view(seat)
        assert dumps(view) == orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS)
        state.apply(seat, rng.choice(list(state.legal_actions(seat))))
    # Keys that are not strings (a race's rubs by seat) still encode, as strings.
    assert json.loads(dumps({"rubs": {0: 870, 1: 830}})) == {"rubs": {"0": 870, "1": 830}}
    # What orjson refuses (a lone surrogate) is escaped by the standard library.
    assert json.loads(dumps({"name": "\ud800"})) == {"name": "\ud800"}


def test_update_frame_is_the_view_with_its_version_first() -> None:
    spec = get_game("ali-baba")
    state = spec.new_game(spec.make_params(num_players=2), seed=4)
    view = state.view(0, include_log=False)
    version, body = _split_version(view)
    events = [{"kind": "turn", "player": 0, "turn": 1}]
    frame = _update_frame(version, body, events, 7, [], [{"text": "Turn 1", "tone": "bold"}])
    data = json.loads(frame)
    assert list(data) == ["type", "view", "log", "log_index", "clocks", "words"]
    assert next(iter(data["view"])) == "version"
    assert data["view"] == json.loads(json.dumps(view))
    assert data["log"] == events and data["log_index"] == 7
    assert json.loads(_update_frame(3, b"{}", [], 0, []))["view"] == {"version": 3}
