"""Hypothesis properties of Djinn along random playouts: counts conserved, replays exact,
nothing hidden in views or tensors, bad input refused with the state unchanged."""

from __future__ import annotations

import contextlib
import json
import pickle
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arabesque.core import conformance as kit
from arabesque.core.errors import ArabesqueError
from arabesque.core.records import GameRecord
from arabesque.games.djinn import rules
from arabesque.games.djinn.actions import ROUNDS
from arabesque.games.djinn.components import LOCATIONS, load_components
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


# -- robustness: garbage at random states, determinism, conservation of every component --------


def canonical(state: DjinnState) -> bytes:
    """Everything one could observe of a state: every seat's full view (and a spectator's),
    the version, the arrangement, the fingerprint (which holds the RNG state and history),
    pickled."""
    views = [state.view(seat) for seat in [*range(state.num_players), None]]
    return pickle.dumps(
        (views, state.version, state.arrangement(), state.fingerprint(), state.options)
    )


#: Values that are no seat, no action or no action text; some compare equal to valid ones.
JUNK: tuple[Any, ...] = (
    None, True, False, 0.0, 1.5, -1, 10**12, -(10**12), "", "0", "move", "end turn", [0], (0,),
    {}, b"end", float("nan"), 2**70,
)  # fmt: skip
texts_ = st.text(max_size=24) | st.sampled_from(
    ["end", "catch", "move r1", "select boss", "use mage 99", "trophy 0 red", " End ", "ÉND"]
)
junk = st.sampled_from(JUNK)
ints = st.integers(-(2**40), 2**40) | st.integers(-3, 400)


def _random_states(n: int, seed: int, characters: bool) -> list[DjinnState]:
    params = DjinnParams(num_players=n, max_rounds=4, first_game=not characters)
    states = list(kit.iter_states(SPEC, params, seed, every=7))
    return states  # type: ignore[return-value]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(0, 10**6),
    st.booleans(),
    st.data(),
)
def test_garbage_never_changes_a_state(n: int, seed: int, characters: bool, data: Any) -> None:
    """Random garbage at random states (numbers in and out of range, wrong seats, junk
    values, random action texts, stale versions): every call raises a typed error and the
    state stays byte-identical."""
    states = _random_states(n, seed, characters)
    state = states[data.draw(st.integers(0, len(states) - 1))]
    before = canonical(state)
    for _ in range(12):
        seat = data.draw(st.integers(-2, 5) | junk)
        action = data.draw(ints | junk)
        how = data.draw(st.sampled_from(["apply", "text", "stale", "view", "legal"]))
        legal = (
            type(seat) is int
            and type(action) is int
            and seat in state.to_act()
            and action in state.legal_actions(seat)
        )
        if how == "apply" and not legal:
            with pytest.raises(ArabesqueError):
                state.apply(seat, action)
        elif how == "text":
            text = data.draw(texts_)
            try:
                parsed = state.parse_action(text)
            except ArabesqueError:
                pass
            else:
                assert isinstance(parsed, int)
                if not (type(seat) is int and seat in state.to_act()) or parsed not in (
                    state.legal_actions(seat)
                ):
                    with pytest.raises(ArabesqueError):
                        state.apply(seat, parsed)
        elif how == "stale" and type(action) is int and action != state.version:
            with pytest.raises(ArabesqueError):
                state.apply(0, 0, version=action)
        elif how == "view":
            with contextlib.suppress(ArabesqueError):
                state.view(seat)
        elif how == "legal" and not (type(seat) is int and 0 <= seat < n):
            assert list(state.legal_actions(seat)) == []
        assert canonical(state) == before


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_replays_are_deterministic_over_many_seeds(n: int) -> None:
    """The same seed and the same choices give the same game, step for step; the record's
    arrangement rebuilds it too."""
    for seed in range(12):
        params = DjinnParams(num_players=n, max_rounds=6)
        rng = random.Random(seed)
        game = SPEC.new_game(params, seed=seed)
        twin = SPEC.new_game(params, seed=seed)
        rebuilt = SPEC.new_game(params, seed=seed, arrangement=game.arrangement())
        assert game.fingerprint() == twin.fingerprint()
        while not game.is_over:
            (p,) = game.to_act()
            a = rng.choice(game.legal_actions(p))
            for s in (game, twin, rebuilt):
                s.apply(p, a)
            assert game.fingerprint() == twin.fingerprint()
        assert rebuilt.view(None) == game.view(None) and rebuilt.scores() == game.scores()


def components_held(s: DjinnState) -> dict[str, object]:
    """Where each card and tile is: every one somewhere, and only once."""
    comp = s.comp
    n = s.num_players
    mages = sorted([c for p in s.piles for c in p] + [c for p in s.mage_of for c in p])
    equipment = sorted([e for t in s.equip_stacks for e in t] + [e for p in s.equip_of for e in p])
    trophies = sorted([t for r in s.trophy_rows for t in r] + [t for p in s.trophies_of for t in p])
    scoring = sorted([*s.scoring, *s.scoring_deck, *(c for p in s.secret for c in p)])
    characters = sorted([c for side in s.draft for c in side] + [c for p in s.chars for c in p])
    passages = [
        len(s.passages_left[p]) + sum(q == p for sq in s.passages for q, _ in sq) for p in range(n)
    ]
    # Owners agree with the hands.
    for p in range(n):
        assert all(s.mage_owner[c] == p for c in s.mage_of[p])
        assert all(s.equip_owner[e] == p for e in s.equip_of[p])
    return {
        "mages": mages == list(range(len(comp.mage_cards))),
        "equipment": equipment == list(range(len(comp.equipment))),
        "chests": sorted(s.chest_deck + s.chest_discard) == list(range(len(comp.chests))),
        "trophies": len(trophies) == len(set(trophies)) == 3 * (n + 1),
        "scoring": len(scoring) == len(set(scoring))
        and len(scoring) in (0, 3, len(comp.scoring_cards)),
        "characters": len(characters) == len(set(characters))
        and len(characters) == (2 * (n + 1) if s.params.characters else 0),
        "tom": len(s.tom_deck) + len(s.tom_revealed) == (s.params.tom_deck if n == 1 else 0),
        "passages": passages == [len(LOCATIONS) - len(s.removed_passages)] * n,
    }


@settings(max_examples=16, deadline=None)
@given(games, st.booleans())
def test_every_component_is_conserved_at_every_step(game: tuple[int, int], first: bool) -> None:
    """At every step of random games at 1-4 players: coins, scrolls, keys, bottles, corks and
    Djinn (counted everywhere: supply, boards, bottles, circles, in hand, gone with trophies)
    and every card and tile (Mage cards, Equipment, chests, trophies, scoring cards,
    character tiles, Tom's cards, passages) are where they should be, once."""
    n, seed = game
    params = DjinnParams(num_players=n, max_rounds=5, first_game=first)
    supply = load_components(None).supply
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
    for state in kit.iter_states(SPEC, params, seed, every=1):
        assert isinstance(state, DjinnState)
        assert totals(state) == expected
        held = components_held(state)
        assert all(held.values()), held
