"""Magic Lamp's view: what each player's entry says of their cards, and the memory of hands
behind it (view.py, ``holdings_summary``) that every seat's view of a position shares.

The memory hands out nothing: a view copies every dict it takes from it, so changing one
seat's view changes no other seat's, and a hand changed in place is a new key, never a stale
answer.
"""

from __future__ import annotations

import json
import pickle

import pytest

from arabesque.core import conformance as kit
from arabesque.core.registry import get_game
from arabesque.games.magic_lamp import rules
from arabesque.games.magic_lamp import view as view_module
from arabesque.games.magic_lamp.components import CHESTS, CardKind
from arabesque.games.magic_lamp.rules.cards import stone_counts
from arabesque.games.magic_lamp.state import MagicLampState
from arabesque.games.magic_lamp.view import (
    holdings_summary,
    majority_holders,
    score_of,
    score_totals,
    tables,
)
from tests.test_observers import vandalise  # one way to scramble a view in place

ML = get_game("magic-lamp")


def _states(num_players: int, my_precious: bool, seed: int) -> list[MagicLampState]:
    params = ML.make_params(num_players=num_players, my_precious=my_precious)
    states = [s for s in kit.iter_states(ML, params, seed=seed, every=3)]
    assert all(isinstance(s, MagicLampState) for s in states)
    return states  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("num_players", "my_precious", "seed"), [(2, False, 3), (4, True, 5), (5, False, 8)]
)
def test_each_players_entry_says_what_the_rules_count(
    num_players: int, my_precious: bool, seed: int
) -> None:
    """Stones, sets, protected cards, score and breakdown in every seat's view are the
    rules' own figures (rules/cards.py, rules/scoring.py), computed afresh, at every step."""
    for state in _states(num_players, my_precious, seed):
        breakdowns = rules.score_breakdowns(state)
        for seat in [None, *range(num_players)]:
            for p, entry in enumerate(state.view(seat, include_log=False)["players"]):
                stones = dict(zip(state.comp.stone_types, stone_counts(state, p), strict=True))
                assert entry["stones"] == stones
                assert entry["sets"] == dict(
                    zip(CHESTS, rules.complete_sets(state, p), strict=True)
                )
                protected = rules.protected_cards(state, p)
                assert [c["id"] for c in entry["cards"]] == state.holdings[p]
                assert {c["id"] for c in entry["cards"] if c["protected"]} == protected
                assert list(entry["score_breakdown"].items()) == list(breakdowns[p].items())
                assert entry["score"] == sum(breakdowns[p].values())
        t = tables(state.comp)
        summary = holdings_summary(state, t)
        majorities = majority_holders(summary)
        assert [score_of(state, t, summary, majorities, p) for p in range(num_players)] == (
            breakdowns
        )
        assert score_totals(state, t, summary) == [sum(b.values()) for b in breakdowns]


def test_changing_one_seats_view_changes_no_other_view() -> None:
    """Every seat's view of a position is built from the same remembered hands: vandalising
    all of them, in place, leaves every view of the position (and of later ones) as it was."""
    for state in _states(4, True, 11):
        seats = [None, *range(state.num_players)]
        before = {seat: json.dumps(state.view(seat, include_log=False)) for seat in seats}
        for seat in seats:
            vandalise(state.view(seat, include_log=False))
            state.observation(seat)  # the tensor reads the same memory
        for seat in seats:
            assert json.dumps(state.view(seat, include_log=False)) == before[seat]


def test_a_hand_changed_in_place_is_seen_at_once() -> None:
    """The memory knows a hand by its cards and the talismans' places, not by the state: a
    scenario that edits holdings or places a talisman directly is shown as it is now."""
    state = _states(3, False, 2)[-1]
    comp = state.comp
    view = state.view(0, include_log=False)
    stone = next(c for c in range(comp.num_cards) if comp.kinds[c] is CardKind.STONE)
    talisman = next(c for c in range(comp.num_cards) if comp.kinds[c] is CardKind.TALISMAN)
    for held in state.holdings:
        for c in (stone, talisman):
            if c in held:
                held.remove(c)
    state.holdings[1][:] = [stone, talisman]
    state.talisman_on.pop(talisman, None)
    entry = state.view(0, include_log=False)["players"][1]
    assert [c["id"] for c in entry["cards"]] == [stone, talisman]
    assert entry["cards"][1]["talisman_on"] is None
    name = comp.stone_types[comp.stone_of[stone]]
    assert entry["stones"][name] == 1
    state.talisman_on[talisman] = comp.stone_of[stone]
    entry = state.view(0, include_log=False)["players"][1]
    assert entry["cards"][1]["talisman_on"] == name
    assert entry["stones"][name] == 2
    assert view["players"][1] != entry


def test_the_memory_is_bounded_and_left_behind_by_pickles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    states = _states(4, False, 6)
    t = tables(states[0].comp)
    monkeypatch.setattr(view_module, "HOLDINGS_MEMO_SIZE", 5)
    # Other tests in this process may have filled the shared memory with these very hands.
    t.holdings.clear()
    for state in states:
        holdings_summary(state, t)
        assert len(t.holdings) <= 5
    # Components (and their tables) go to each bot worker once: without the memory.
    assert t.holdings
    copy = pickle.loads(pickle.dumps(t))
    assert copy.holdings == {}
    assert copy.card_json == t.card_json
