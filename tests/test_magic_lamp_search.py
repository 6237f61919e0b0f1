"""Magic Lamp's pieces of the search bots (games/magic_lamp/bots/rollout_value.py, levels.py):
the push-your-luck programme over a chest's composition agrees with the heuristic's own, the
evaluation credits what a turn still promises, and the levels answer the lamp race by the
rules."""

from __future__ import annotations

import itertools
import random

import pytest

from arabesque.agents.base import Observation
from arabesque.agents.registry import make_agent
from arabesque.core import get_game
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.bots.position import _ChestModel
from arabesque.games.magic_lamp.bots.rollout_value import potentials, search_expectation
from arabesque.games.magic_lamp.bots.search import search_value
from arabesque.games.magic_lamp.decisions import RACE_REACTION
from arabesque.games.magic_lamp.rules import shared_faces
from arabesque.games.magic_lamp.state import MagicLampState, Phase


@pytest.mark.parametrize(
    ("rem", "sorcerer_at"),
    [((8, 8), -1), ((4, 4, 4), 2), ((6, 1, 6, 1), 0), ((1, 2), -1), ((0, 3, 1), 1)],
)
def test_the_chest_programme_agrees_with_the_heuristics(
    rem: tuple[int, ...], sorcerer_at: int
) -> None:
    """Every card worth 1 and the Sorcerer 0: the composition programme and the heuristic's
    programme (bots/search.py, written separately) give the same value for every face."""
    classes = [(k, n, 1.0) for k, n in enumerate(rem) if n]
    model = _ChestModel(
        known=[],
        sorcerer_at=sorcerer_at if sorcerer_at >= 0 else None,
        sorcerer_value=0.0,
        classes=classes,
        cards_left=sum(rem) + (1 if sorcerer_at >= 0 else 0),
    )
    for face in range(1, 7):
        ours = search_expectation(rem, sorcerer_at, face, face - 1)
        theirs, _ = search_value(model, face)
        assert ours[0] == pytest.approx(theirs)
        assert ours[1] == pytest.approx(ours[0])  # no ring: the value is the cards kept


def test_a_face_of_one_keeps_a_card_without_scorpion() -> None:
    value, cards, ring = search_expectation((3, 1), -1, 1, 0)
    assert (value, cards, ring) == pytest.approx((0.75, 0.75, 0.0))
    # With one draw left and a card in hand, a scorpion would bust it: stop.
    assert search_expectation((1, 3), -1, 1, 0, kept=1)[0] == 1.0


def test_the_ring_pulls_a_six_to_the_end() -> None:
    """A full draw of six wins the ring: worth enough, the programme draws on where a
    plain count of cards would stop, and reports its chance."""
    rem = (10, 0, 10)  # half the cards would bust a draw with no scorpion to spare
    plain = search_expectation(rem, -1, 2, 0, kept=4)
    ringed = search_expectation(rem, -1, 2, 0, kept=4, ring=20.0)
    assert plain[2] == 0.0 and plain[0] == 4.0
    assert ringed[0] > 4.0 and ringed[2] > 0.0


def states_in(phase: Phase, players: int, count: int) -> list[MagicLampState]:
    spec = get_game("magic-lamp")
    out: list[MagicLampState] = []
    for seed in itertools.count():
        rng = random.Random(seed)
        state = spec.new_game(spec.make_params(num_players=players), seed=seed)
        while not state.is_over and len(out) < count:
            assert isinstance(state, MagicLampState)
            opening = len(state.to_act()) == state.num_players
            if state.phase is phase and opening and rng.random() < 0.3:
                out.append(state.clone())
                break
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if len(out) >= count:
            return out
    raise AssertionError  # pragma: no cover


def test_a_won_race_and_the_searches_won_are_credited() -> None:
    """In the race, the seats sharing a face are credited the wishes, and a seat that rubs
    alone keeps what both would have had; a seat that does not rub loses its share."""
    checked = 0
    for state in states_in(Phase.RACE, 2, 40):
        shared = shared_faces(state)
        if not shared:
            continue
        before = potentials(state)
        solo = state.clone()
        solo.apply(0, A.rub(600))
        solo.apply(1, A.NO_RUB)
        after = potentials(solo)
        if solo.phase is Phase.RESOLVE and solo.pending is not None:
            assert after[0] > before[0] - 1e-9
            assert after[1] < before[1]
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_levels_rub_exactly_with_a_shared_face(level: str) -> None:
    floor = 455.0
    for i, state in enumerate(states_in(Phase.RACE, 3, 6)):
        for seat in sorted(state.to_act()):
            agent = make_agent(f"{level}:floor_ms={floor:g}", "magic-lamp", seed=i)
            action = agent.act(Observation(state, seat))
            legit = any(f in shared_faces(state) for _, f in state.dice[seat])
            assert (action != RACE_REACTION.none) == legit
            ms = RACE_REACTION.ms_of(action)
            assert ms is None or ms >= floor
