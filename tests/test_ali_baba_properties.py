"""Properties of Ali Baba over random seeds and random action sequences (hypothesis).

Example counts come from the profile in tests/conftest.py (HYPOTHESIS_PROFILE=thorough for
many more).
"""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from arabesque.core import ArabesqueError, GameRecord
from arabesque.games.ali_baba.components import SET_POINTS
from arabesque.games.ali_baba.state import EMPTY, NOT_SHOWN, AliBabaState, Phase
from tests.ali_baba_scenarios import SPEC, TILES, params

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = st.sampled_from(
    [
        ("standard", 2),
        ("standard", 3),
        ("standard", 4),
        ("aladdins-lamp", 3),
        ("equal-treasures", 4),
        ("smaller-cave", 2),
    ]
)
#: Long pseudo-random choice lists reach the end of a game (about 60-100 steps).
LONG_CHOICES = st.builds(
    lambda k, s: [random.Random(s).randrange(2**16) for _ in range(k)],
    st.integers(min_value=0, max_value=250),
    st.integers(min_value=0, max_value=2**32),
)
CHOICES = st.one_of(LONG_CHOICES, st.lists(st.integers(min_value=0, max_value=2**16), max_size=30))


def new(setting: tuple[str, int], seed: int) -> AliBabaState:
    variant, n = setting
    state = SPEC.new_game(params(n, variant), seed=seed)
    assert isinstance(state, AliBabaState)
    return state


def step(state: AliBabaState, choice: int) -> None:
    """Apply the legal action that ``choice`` picks (a player to act, then an action)."""
    acting = sorted(state.to_act())
    player = acting[choice % len(acting)]
    legal = state.legal_actions(player)
    state.apply(player, legal[(choice // len(acting)) % len(legal)])


def assert_conserved(state: AliBabaState) -> None:
    """Board, box, set-aside row and screens hold every tile of the kinds in play exactly
    once; the removed kinds are nowhere."""
    on_board = [t for t in state.cell if t != EMPTY]
    everywhere = sorted(on_board + state.box + state.aside + [t for h in state.hands for t in h])
    in_play = [t for t in range(TILES.num_tiles) if TILES.kind_of(t) not in state.removed_kinds]
    assert everywhere == in_play
    for t in range(TILES.num_tiles):
        place = state.place_of[t]
        assert (place == EMPTY) == (t not in on_board)
        if place != EMPTY:
            assert state.cell[place] == t
    # A tile is face up exactly when it is on the board and nothing rests on it.
    for q, t in enumerate(state.cell):
        if t != EMPTY:
            resting = sum(1 for a in state.board.above[q] if state.cell[a] != EMPTY)
            assert state.cover[q] == resting
            assert (t in state.face_up) == (resting == 0)
    assert state.face_down == sum(
        1 for q, t in enumerate(state.cell) if t != EMPTY and state.cover[q] > 0
    )


@given(seed=SEEDS, setting=SETTINGS, choices=CHOICES)
def test_every_tile_is_in_exactly_one_zone(
    seed: int, setting: tuple[str, int], choices: list[int]
) -> None:
    state = new(setting, seed)
    assert_conserved(state)
    for choice in choices:
        if state.is_over:
            break
        step(state, choice)
        assert_conserved(state)


@given(seed=SEEDS, setting=SETTINGS, choices=CHOICES)
def test_scores_recompute_from_screens_and_the_log(
    seed: int, setting: tuple[str, int], choices: list[int]
) -> None:
    """Treasure points follow the table from the tiles behind each screen; the score track
    is the sum of the logged effect scores; the total is the sum of the breakdown."""
    state = new(setting, seed)
    for choice in choices:
        if state.is_over:
            break
        step(state, choice)
    for p, score in enumerate(state.scores()):
        counts: dict[int, int] = {}
        for t in state.hands[p]:
            counts[TILES.kind_of(t)] = counts.get(TILES.kind_of(t), 0) + 1
        assert score.breakdown["treasures"] == sum(SET_POINTS[c] for c in counts.values())
        logged = sum(
            e.data["points"] for e in state.events if e.kind == "score" and e.data["player"] == p
        )
        assert score.total - score.breakdown["treasures"] == logged
        assert score.total == sum(score.breakdown.values())


@given(seed=SEEDS, setting=SETTINGS, choices=CHOICES)
def test_records_replay_to_the_same_state(
    seed: int, setting: tuple[str, int], choices: list[int]
) -> None:
    state = new(setting, seed)
    for choice in choices:
        if state.is_over:
            break
        step(state, choice)
    text = json.dumps(state.record().to_json())
    again = GameRecord.from_json(json.loads(text)).replay()
    assert again.fingerprint() == state.fingerprint()
    # The same seed deals the same game.
    assert new(setting, seed).arrangement() == GameRecord.from_json(json.loads(text)).arrangement


@given(seed=SEEDS, setting=SETTINGS, choices=CHOICES, garbage=st.lists(st.integers(), max_size=8))
def test_illegal_actions_leave_the_state_unchanged(
    seed: int, setting: tuple[str, int], choices: list[int], garbage: list[int]
) -> None:
    state = new(setting, seed)
    for choice in choices[:40]:
        if state.is_over:
            break
        step(state, choice)
    before = state.fingerprint()
    for value in garbage:
        for player in range(state.num_players):
            if player in state.to_act() and value in state.legal_actions(player):
                continue
            try:
                state.apply(player, value)
            except ArabesqueError as exc:
                assert str(exc)
            else:
                raise AssertionError(f"apply({player}, {value}) was accepted")
            assert state.fingerprint() == before


def swap_hidden(state: AliBabaState, rng: random.Random) -> AliBabaState:
    """The same game with the face-down tiles and the box dealt differently, and the secret
    show choices of other seats changed: written here independently of ``determinize``."""
    other = state.clone()
    hidden = [q for q, t in enumerate(other.cell) if t != EMPTY and other.cover[q] > 0]
    pool = [other.cell[q] for q in hidden] + other.box
    rng.shuffle(pool)
    for q, t in zip(hidden, pool, strict=False):
        other.cell[q] = t
        other.place_of[t] = q
    other.box = pool[len(hidden) :]
    return other


@given(seed=SEEDS, setting=SETTINGS, choices=CHOICES, shuffle=SEEDS)
def test_views_leak_nothing_hidden(
    seed: int, setting: tuple[str, int], choices: list[int], shuffle: int
) -> None:
    """Two states that differ only in the face-down tiles and the box give every seat, and a
    spectator, identical views; two that differ only in a seat's secret show choice give
    every other seat identical views."""
    state = new(setting, seed)
    rng = random.Random(shuffle)
    for choice in choices:
        if state.is_over:
            break
        step(state, choice)
        other = swap_hidden(state, rng)
        for seat in [None, *range(state.num_players)]:
            assert other.view(seat) == state.view(seat)
        for p, shown in enumerate(state.shows):
            if shown != NOT_SHOWN and len(state.hands[p]) > 1 and state.phase is Phase.SHOW:
                changed = state.clone()
                changed.shows[p] = next(t for t in state.hands[p] if t != shown)
                for seat in [None, *range(state.num_players)]:
                    if seat != p:
                        assert changed.view(seat) == state.view(seat)
