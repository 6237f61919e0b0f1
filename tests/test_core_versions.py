"""Versions per viewer (issue 17): a viewer's version counts the applied actions it could see,
so it moves exactly when its view or its log does, and a secret move by another seat leaves it
where it was; a seat's actions are fresh at its own version."""

from __future__ import annotations

import pytest

from arabesque.core import conformance as kit
from arabesque.core.errors import StaleStateError
from arabesque.core.registry import get_game

CASES = [
    ("magic-lamp", 2),
    ("magic-lamp", 3),
    ("magic-lamp", 5),
    ("ali-baba", 2),
    ("ali-baba", 4),
    ("djinn", 1),
    ("djinn", 3),
]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_version_moves_only_when_the_view_or_log_does(game: str, players: int) -> None:
    spec = get_game(game)
    params = spec.make_params(num_players=players)
    for seed in range(2):
        assert kit.check_versions_follow_views(spec, params, seed) > 0


def test_a_secret_die_moves_only_its_own_seats_version() -> None:
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=3), seed=5)
    assert {state.version_for(v) for v in (0, 1, 2, None)} == {0}
    die = state.legal_actions(1)[0]
    state.apply(1, die, version=0)
    assert state.version == 1
    assert [state.version_for(v) for v in (0, 1, 2, None)] == [0, 1, 0, 0]
    # Seat 0 still acts at the version it holds; the one it never saw is stale.
    with pytest.raises(StaleStateError):
        state.apply(0, state.legal_actions(0)[0], version=1)
    state.apply(0, state.legal_actions(0)[0], version=0)
    assert [state.version_for(v) for v in (0, 1, 2, None)] == [1, 1, 0, 0]
    # The last die reveals them all: everyone sees that step.
    state.apply(2, state.legal_actions(2)[0], version=0)
    assert [state.version_for(v) for v in (0, 1, 2, None)] == [2, 2, 1, 1]
    assert state.clone().version_for(0) == 2 and state.search_copy().version_for(None) == 1
    # A replay of the history gives the same versions.
    replay = spec.new_game(state.params, seed=5)
    for seat, action in state.history:
        replay.apply(seat, action)
    assert [replay.version_for(v) for v in (0, 1, 2, None)] == [2, 2, 1, 1]
