"""Hypothesis properties of Djinn along random playouts: counts conserved, replays exact,
nothing hidden in views or tensors, bad input refused with the state unchanged."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arabesque.core import conformance as kit
from arabesque.core.errors import ArabesqueError
from arabesque.core.records import GameRecord
from arabesque.games.djinn import rules
from arabesque.games.djinn.actions import ROUNDS
from arabesque.games.djinn.params import DjinnParams
from arabesque.games.djinn.state import DjinnState, Kind
from tests.djinn_scenarios import SPEC

games = st.tuples(st.integers(1, 4), st.integers(0, 10**6))


def playout(n: int, seed: int, every: int = 1) -> list[DjinnState]:
    params = DjinnParams(num_players=n, max_rounds=5)
    states = [s for s in kit.iter_states(SPEC, params, seed, every=every)]
    assert all(isinstance(s, DjinnState) for s in states)
    return states  # type: ignore[return-value]


def totals(s: DjinnState) -> dict[str, object]:
    n = s.num_players
    board = [sum(s.djinn[r][k] for r in ROUNDS) for k in range(5)]
    # Djinn caught but not yet placed are in hand: a PLACE decision, or queued to be placed.
    for frame in s.stack.frames:
        if frame.kind is Kind.PLACE:
            board[frame.context[0]] += 1
        elif frame.kind is Kind.GAIN:
            for code, kind in frame.context:
                if code == rules.I_PLACE:
                    board[kind] += 1
    circles = [sum(c.count(k) for c in s.circles) for k in range(5)]
    colours = tuple(
        s.bag[c] + board[c] + circles[c] + sum(f[c] for f in s.filled) + s.discarded[c]
        for c in range(4)
    )
    bosses = board[4] + circles[4] + s.supply_bosses + sum(map(sum, s.filled_boss)) + s.discarded[4]
    bottles = (
        s.bank[2]
        + sum(map(sum, s.bottles))
        + sum(map(sum, s.filled))
        + sum(map(sum, s.filled_boss))
    )
    corks = s.bank[3] + sum(s.corks) + sum(map(sum, s.filled)) + sum(map(sum, s.filled_boss))
    return {
        "coins": s.bank[0] + sum(s.coins),
        "scrolls": s.bank[1] + sum(s.scrolls),
        "keys": s.bank[4] + sum(s.keys),
        "bottles": bottles,
        "corks": corks,
        "djinn": colours,
        "bosses": bosses,
        "players": n,
    }


@settings(max_examples=12)
@given(games)
def test_counts_are_conserved(game: tuple[int, int]) -> None:
    n, seed = game
    states = playout(n, seed)
    supply = states[0].comp.supply
    expected = {
        "coins": supply["coins"],
        "scrolls": supply["scrolls"],
        "keys": supply["keys"],
        "bottles": supply["bottles"],
        "corks": supply["corks"],
        "djinn": (supply["djinn_per_colour"],) * 4,
        "bosses": supply["bosses"],
        "players": n,
    }
    for state in states:
        assert totals(state) == expected


@settings(max_examples=8)
@given(games)
def test_records_replay_exactly(game: tuple[int, int]) -> None:
    n, seed = game
    final = playout(n, seed, every=10_000)[-1]
    again = GameRecord.from_json(json.loads(json.dumps(final.record().to_json()))).replay()
    assert again.fingerprint() == final.fingerprint()
    replay = SPEC.new_game(final.params, seed=seed)
    for p, a in final.history:
        replay.apply(p, a)
    assert replay.fingerprint() == final.fingerprint()


@settings(max_examples=8)
@given(games)
def test_views_and_tensors_hide_the_deck_orders(game: tuple[int, int]) -> None:
    n, seed = game
    rng = random.Random(seed)
    for state in playout(n, seed, every=17):
        for seat in range(n):
            copy = state.determinize(seat, rng)
            assert copy.view(seat, include_log=False) == state.view(seat, include_log=False)
            assert np.array_equal(copy.observation(seat), state.observation(seat))
            text = json.dumps(state.view(seat))
            # The order below the top cards is never shown.
            assert "chest_deck" not in text and "tom_deck" not in text


@settings(max_examples=8)
@given(games, st.integers(-5, 500), st.integers(-1, 4))
def test_illegal_input_is_refused_with_the_state_unchanged(
    game: tuple[int, int], action: int, seat: int
) -> None:
    n, seed = game
    states = playout(n, seed, every=23)
    state = states[len(states) // 2]
    before = state.fingerprint()
    if not state.is_over and seat in state.to_act() and action in state.legal_actions(seat):
        return
    try:
        state.apply(seat, action)
    except ArabesqueError:
        pass
    else:
        raise AssertionError("an illegal action was accepted")
    assert state.fingerprint() == before
