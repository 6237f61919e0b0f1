"""The shared conformance kit (arabesque.core.conformance) run on Ali Baba: random playouts at
every player count in every variant, plus each check on hand-made states that random play
reaches rarely (a yellow showing in progress, a lamp choice, a white block)."""

from __future__ import annotations

import random

import pytest

from arabesque.core import conformance as kit
from arabesque.games.ali_baba.state import NOT_SHOWN, AliBabaState, Phase
from tests.ali_baba_scenarios import SPEC, do, new_game, params, yellow_game

SETTINGS = [
    ("standard", 2),
    ("standard", 3),
    ("standard", 4),
    ("aladdins-lamp", 2),
    ("aladdins-lamp", 3),
    ("aladdins-lamp", 4),
    ("equal-treasures", 2),
    ("equal-treasures", 3),
    ("equal-treasures", 4),
    ("smaller-cave", 2),
]


@pytest.mark.parametrize(("variant", "n"), SETTINGS, ids=[f"{v}-{n}p" for v, n in SETTINGS])
def test_run_conformance(variant: str, n: int) -> None:
    checked = kit.run_conformance(SPEC, params(n, variant), seeds=[n, 100 + n, 200 + n], every=5)
    assert checked >= 3 * 5


@pytest.mark.parametrize(("variant", "n"), SETTINGS, ids=[f"{v}-{n}p" for v, n in SETTINGS])
def test_random_playouts_end_within_the_declared_bound(variant: str, n: int) -> None:
    for seed in range(5):
        final = kit.random_playout(SPEC, params(n, variant), seed)
        assert final.is_over
        kit.check_scores(final)
        kit.check_replay(final)


def showing_state() -> AliBabaState:
    """Seat 0's yellow effect with seat 1 having chosen in secret and seat 2 still choosing."""
    state = yellow_game()
    do(state, 1, "show pink ring")
    assert state.phase is Phase.SHOW and state.to_act() == frozenset({2})
    return state


def lamp_state() -> AliBabaState:
    state = new_game(2, "aladdins-lamp", at={"L4 r1 c1": "blue lamp"})
    do(state, 0, "take blue lamp")
    assert state.phase is Phase.LAMP
    return state


def blocked_state() -> AliBabaState:
    state = new_game(2, at={"L4 r1 c1": "white statue"})
    do(state, 0, "take white statue")
    do(state, 0, "forbid pink")
    return state


@pytest.mark.parametrize("make", [showing_state, lamp_state, blocked_state])
def test_each_check_on_hand_made_states(make: object) -> None:
    assert callable(make)
    state = make()
    rng = random.Random(3)
    kit.check_mask(state)
    kit.check_json_views(state)
    kit.check_views_hide(state, rng, samples=4)
    kit.check_clone_independence(state, rng)
    kit.check_bad_actions_unchanged(state, rng)
    kit.check_determinize_playable(state, rng)
    while not state.is_over:
        kit.random_step(state, rng)
    kit.check_scores(state)
    kit.check_replay(state)


def test_determinizing_a_showing_keeps_the_seats_own_choice() -> None:
    state = showing_state()
    for seed in range(10):
        copy = state.determinize(1, random.Random(seed))
        assert copy.shows[1] == state.shows[1]
        # Seat 2 has not chosen; seat 0 cannot see seat 1's choice, so its copy takes it
        # back: seat 1 chooses again.
        other = state.determinize(0, random.Random(seed))
        assert other.shows[1] == NOT_SHOWN and 1 in other.to_act()
