"""Hints (agents/hint.py): a function of what the seat knows, labelled in the decision's
words, with the number said for what it is."""

from __future__ import annotations

import random

import pytest

from arabesque.agents.base import Observation
from arabesque.agents.hint import REACT_LABEL, HintAgent, hint, position_seed
from arabesque.agents.ismcts import Budget
from arabesque.core import get_game
from arabesque.core.game import GameState
from tests.test_ismcts import GAMES, mid_game_states, race_states

SMALL = Budget(iters=30)


@pytest.mark.parametrize("game_id", GAMES)
def test_states_alike_to_the_seat_get_the_same_hint(game_id: str) -> None:
    """Two states equal from the seat's view (the twin holds other hidden cards) give the
    same hint for the same seed, and the position's own seed is the same for both."""
    differing = 0
    states = mid_game_states(game_id, 2, 12, seed=21)
    for i, state in enumerate(states):
        seat = min(state.to_act())
        twin = state.determinize(seat, random.Random(i))
        assert twin.view(seat, include_log=False) == state.view(seat, include_log=False)
        differing += twin.fingerprint()[3:] != state.fingerprint()[3:]
        real, other = Observation(state, seat), Observation(twin, seat)
        assert position_seed(real) == position_seed(other)
        assert hint(real, seed=i, budget=SMALL) == hint(other, seed=i, budget=SMALL)
    assert differing >= 8, "the twins hardly differed: the test would prove nothing"


def test_a_hint_names_the_decisions_options_and_what_its_numbers_are() -> None:
    state = mid_game_states("djinn", 2, 3, seed=5)[2]
    seat = min(state.to_act())
    obs = Observation(state, seat)
    found = hint(obs, budget=SMALL, top=2)
    decision = state.decision(seat)
    assert decision is not None
    assert 1 <= len(found.options) <= 2
    assert found.considered == len(decision.options)
    for option in found.options:
        assert option.action in decision.options
        assert option.label == decision.label_of(option.action)
        assert option.text == state.action_to_str(option.action)
        assert 0.0 <= option.value <= 1.0
    assert [o.visits for o in found.options] == sorted(
        (o.visits for o in found.options), reverse=True
    )
    assert found.measure in ("win_rate", "evaluation")
    assert found.explanation and found.prompt == decision.prompt
    lines = found.lines("Ann")
    assert lines[0].startswith("The hard search bot's best moves for Ann (")
    assert lines[1].startswith(f"  {found.options[0].label}: ")
    assert lines[-1].startswith("Each number is the")
    assert found.to_json()["seed"] == str(found.seed)


def _near_the_end(game_id: str, steps_left: int) -> GameState:
    spec = get_game(game_id)
    state = spec.new_game(spec.make_params(num_players=2), seed=5)
    rng = random.Random(0)
    history = []
    while not state.is_over:
        history.append(state.clone())
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for earlier in reversed(history[:-steps_left]):
        seat = min(earlier.to_act())
        if len(earlier.legal_actions(seat)) > 1:
            return earlier
    raise AssertionError("no choice near the end")


def test_near_the_end_the_number_is_a_win_rate_and_early_an_evaluation() -> None:
    late = _near_the_end("ali-baba", 6)
    seat = min(late.to_act())
    found = hint(Observation(late, seat), budget=Budget(iters=100))
    assert found.measure == "win_rate"
    assert "share of simulated games the player won" in found.explanation
    spec = get_game("ali-baba")
    early = spec.new_game(spec.make_params(num_players=2), seed=5)
    seat = min(early.to_act())
    found = hint(Observation(early, seat), budget=Budget(iters=100))
    assert found.measure == "evaluation"
    assert "evaluation" in found.explanation


def test_a_race_hint_says_react_or_not() -> None:
    state = race_states()[0]
    seat = min(state.to_act())
    decision = state.decision(seat)
    assert decision is not None and decision.reaction is not None
    found = hint(Observation(state, seat), budget=SMALL)
    assert found.reaction and found.considered == 2
    none = decision.reaction.none
    assert {o.action for o in found.options} <= {None, none}
    for option in found.options:
        assert option.label == (REACT_LABEL if option.action is None else decision.label_of(none))
        assert option.share is not None
    assert found.options[0].share == max(o.share or 0.0 for o in found.options)


def test_a_hint_needs_a_search_level() -> None:
    state = mid_game_states("magic-lamp", 2, 1, seed=1)[0]
    obs = Observation(state, min(state.to_act()))
    with pytest.raises(ValueError, match="search bot level"):
        hint(obs, level="heuristic")
    with pytest.raises(ValueError, match="at least one option"):
        hint(obs, top=0)


def test_the_hint_agent_carries_the_hint() -> None:
    state = mid_game_states("ali-baba", 2, 1, seed=3)[0]
    seat = min(state.to_act())
    agent = HintAgent(budget=SMALL)
    action = agent.act(Observation(state, seat))
    assert agent.result is not None
    assert agent.result == hint(Observation(state, seat), budget=SMALL)
    assert action == agent.result.options[0].action
