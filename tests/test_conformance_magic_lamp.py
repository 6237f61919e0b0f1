"""The shared conformance kit (arabesque.core.conformance) run on Magic Lamp: random playouts
at every player count, with and without "My Precious", plus each check on hand-made states
that random play reaches rarely (a peek, a pending wish, a draw in progress, a finished
game)."""

from __future__ import annotations

import itertools
import random

import pytest

from arabesque.core import conformance as kit
from arabesque.games.magic_lamp.state import MagicLampState
from tests.scenarios import (
    SPEC,
    choose,
    default_comp,
    draw,
    lamp_card,
    new_game,
    params,
    pending,
    stop_all_draws,
    turn,
)


@pytest.mark.parametrize("my_precious", [False, True], ids=["base", "my-precious"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_run_conformance(n: int, my_precious: bool) -> None:
    checked = kit.run_conformance(
        SPEC, params(n, my_precious=my_precious), seeds=[n, 100 + n, 200 + n]
    )
    assert checked >= 2 * 3


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_playouts_end_within_the_declared_bound(n: int) -> None:
    for seed in range(3):
        final = kit.random_playout(SPEC, params(n, my_precious=seed % 2 == 1), seed)
        assert final.is_over
        kit.check_scores(final)


def test_playouts_with_the_custom_components() -> None:
    from tests.scenarios import custom_components

    checked = kit.run_conformance(SPEC, params(3, components=custom_components()), seeds=[7])
    assert checked > 0


def peek_state() -> MagicLampState:
    comp = default_comp()
    state = new_game(3, lamp=[lamp_card(comp, "peek")])
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 200})
    choose(state, "accept")
    if pending(state)[0] == "effect_chest":
        choose(state, "chest gold")
    return state


def wish_state() -> MagicLampState:
    state = new_game(4, seed=2)
    turn(
        state,
        {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 5), 3: ("bronze", 5)},
        rubs={0: 300, 1: 200, 2: 250, 3: 600},
    )
    assert pending(state)[0] == "wish"
    return state


def drawing_state() -> MagicLampState:
    state = new_game(2, seed=4)
    turn(state, {0: [("bronze", 6), ("gold", 6)], 1: [("silver", 5), ("gold", 5)]})
    draw(state, 1)
    return state


def setting_state() -> MagicLampState:
    state = new_game(5, seed=8)
    state.apply(0, state.parse_action("set gold 6"))
    state.apply(3, state.parse_action("set bronze 1"))
    return state


def race_state() -> MagicLampState:
    state = new_game(3, seed=8)
    turn_dice = {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}
    for p, (chest, face) in turn_dice.items():
        state.apply(p, state.parse_action(f"set {chest} {face}"))
    state.apply(1, state.parse_action("rub 330ms"))
    return state


def finished_state() -> MagicLampState:
    state = new_game(3, seed=3, max_turns=2)
    while not state.is_over:
        turn(state, {0: ("bronze", 1), 1: ("silver", 2), 2: ("gold", 3)})
        stop_all_draws(state)
    return state


STATES = {
    "setting": setting_state,
    "race": race_state,
    "peek": peek_state,
    "wish": wish_state,
    "drawing": drawing_state,
    "finished": finished_state,
}


@pytest.mark.parametrize("make", STATES.values(), ids=list(STATES))
def test_each_check_on_hand_made_states(make: object) -> None:
    assert callable(make)
    state = make()
    rng = random.Random(5)
    kit.check_mask(state)
    kit.check_json_views(state)
    kit.check_views_hide(state, rng, samples=4)
    kit.check_clone_independence(state, rng)
    kit.check_bad_actions_unchanged(state, rng)
    kit.check_replay(state)
    kit.check_scores(state)
    if not state.is_over:
        kit.check_determinize_playable(state, rng)


def test_iter_states_ends_with_a_finished_game() -> None:
    states = list(kit.iter_states(SPEC, params(3), seed=12, every=25))
    assert states[0].history == [] and states[-1].is_over
    assert all(len(a.history) < len(b.history) for a, b in itertools.pairwise(states))
