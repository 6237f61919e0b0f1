"""Determinized copies hold nothing their seat cannot know (both games).

An independent check once rebuilt the real deal from a copy's seed and predicted every
unpeeked chest top; copies also kept the real history (naming other seats' secret dice, rub
times and show choices) and Ali Baba copies left ``place_of`` stale for tiles re-dealt into
the box. These tests would have caught each of those.
"""

from __future__ import annotations

import random

import pytest

from arabesque.core import get_game
from arabesque.games.ali_baba.state import EMPTY, NOT_SHOWN, AliBabaState
from arabesque.games.ali_baba.state import Phase as AliPhase
from arabesque.games.magic_lamp.state import UNDECIDED, MagicLampState, Phase
from tests.scenarios import act, new_game, set_dice

ALI = get_game("ali-baba")


def test_a_copy_cannot_rebuild_the_deal_from_its_seed() -> None:
    """The copy's seed is fresh: a game set up from it deals other chests, and the copy's own
    arrangement is forgotten."""
    state = new_game(4, seed=12)
    for seat in range(4):
        copy = state.determinize(seat, random.Random(seat))
        assert copy.seed != state.seed
        assert copy.arrangement() == {}
        rebuilt = get_game("magic-lamp").new_game(state.params, seed=copy.seed)
        assert isinstance(rebuilt, MagicLampState)
        assert rebuilt.decks != state.decks


def test_unpeeked_chest_tops_vary_across_copies() -> None:
    """What nobody has seen is really re-sampled: the top card of each chest is not always
    the real one across copies."""
    state = new_game(3, seed=4)
    rng = random.Random(1)
    for chest, deck in enumerate(state.decks):
        tops = {state.determinize(0, rng).decks[chest][-1] for _ in range(40)}
        assert len(tops) > 1, f"chest {chest}: every copy shows the real top {deck[-1]}"


def test_peeked_cards_stay_and_the_rest_varies() -> None:
    """The seat keeps what it peeked at; another seat's copy does not learn it."""
    state = new_game(3, seed=6)
    state.known_top[0][1] = state.decks[1][::-1][:2]
    real_top = state.decks[1][-2:]
    rng = random.Random(2)
    for _ in range(20):
        assert state.determinize(0, rng).decks[1][-2:] == real_top
    others = {tuple(state.determinize(1, rng).decks[1][-2:]) for _ in range(40)}
    assert len(others) > 1


def test_other_seats_secret_dice_are_taken_back() -> None:
    """Secret die setting: another seat's die, set but unrevealed, is not in the copy (not
    even a guess); that seat is to set it again. The seat's own die stays."""
    state = new_game(3, seed=2)
    act(state, 0, "set gold 6")
    act(state, 1, "set bronze 2")
    copy = state.determinize(1, random.Random(0))
    assert copy.dice[0] == [] and 0 in copy.to_act()
    assert copy.dice[1] == [[0, 2]] and 1 not in copy.to_act()
    assert copy.history == [] and copy.events == []
    assert state.dice[0] == [[2, 6]], "the real game keeps its die"


def test_other_seats_race_answers_are_taken_back() -> None:
    state = new_game(3, seed=2)
    set_dice(state, {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 1)})
    act(state, 0, "rub 350ms")
    act(state, 2, "no-rub")
    copy = state.determinize(2, random.Random(0))
    assert copy.phase is Phase.RACE
    assert copy.rub[0] == UNDECIDED and copy.to_act() == frozenset({0, 1})
    assert copy.rub[2] != UNDECIDED, "the seat's own answer stays"
    # The copy plays on: the seats taken back answer, and the race resolves.
    copy.apply(0, copy.legal_actions(0)[-1])
    copy.apply(1, copy.legal_actions(1)[-1])
    assert copy.phase is not Phase.RACE


def _ali_game(players: int, seed: int) -> AliBabaState:
    state = ALI.new_game(ALI.make_params(num_players=players), seed=seed)
    assert isinstance(state, AliBabaState)
    return state


def test_ali_baba_place_of_matches_the_board_in_every_copy() -> None:
    """Tiles re-dealt into the box have no board place; tiles dealt onto the board have
    exactly theirs."""
    rng = random.Random(3)
    for seed in range(6):
        state = _ali_game(3, seed)
        play = random.Random(seed)
        while not state.is_over:
            copy = state.determinize(play.randrange(3), rng)
            for place, tile in enumerate(copy.cell):
                if tile != EMPTY:
                    assert copy.place_of[tile] == place
            for tile in copy.box:
                assert copy.place_of[tile] == EMPTY, f"tile {tile} in the box keeps a place"
            player = play.choice(sorted(state.to_act()))
            state.apply(player, play.choice(state.legal_actions(player)))


def test_ali_baba_show_choices_are_taken_back() -> None:
    """Yellow effect: an opponent's chosen tile is not in another seat's copy; that opponent
    chooses again."""
    rng = random.Random(5)
    found = 0
    for seed in range(60):
        state = _ali_game(4, seed)
        play = random.Random(seed)
        while not state.is_over and found < 3:
            if state.phase is AliPhase.SHOW and len(state.to_act()) >= 2:
                first = min(state.to_act())
                state.apply(first, state.legal_actions(first)[0])
                other = min(state.to_act())
                copy = state.determinize(other, rng)
                assert copy.shows[first] == NOT_SHOWN
                assert first in copy.to_act() and copy.legal_actions(first)
                # The chooser's own copy keeps its choice.
                own = state.determinize(first, rng)
                assert own.shows[first] == state.shows[first]
                assert first not in own.to_act()
                found += 1
            player = play.choice(sorted(state.to_act()))
            state.apply(player, play.choice(state.legal_actions(player)))
        if found >= 3:
            break
    assert found >= 3, "no yellow show with two choosers came up"


def test_no_log_tells_another_seat_who_has_committed() -> None:
    """The log agrees with the views: a seat learns nothing from another seat setting its
    die or answering the race until the reveal or the race result."""
    state = new_game(3, seed=2)
    start = len(state.events)
    act(state, 0, "set gold 6")
    for seat in (1, 2, None):
        assert state.log_since(seat, start)[0] == [], f"seat {seat} saw player 0 commit"
    assert state.log_since(0, start)[0] == [{"kind": "die_set", "player": 0}]
    act(state, 1, "set bronze 2")
    act(state, 2, "set silver 2")
    start = len(state.events)
    act(state, 0, "rub 300ms")
    for seat in (1, 2, None):
        assert state.log_since(seat, start)[0] == [], f"seat {seat} saw player 0 answer"


@pytest.mark.parametrize("game_id", ["magic-lamp", "ali-baba", "djinn"])
@pytest.mark.parametrize("players", [2, 4])
def test_equal_views_and_equal_rngs_give_equal_copies(game_id: str, players: int) -> None:
    """Determinization is a function of what the seat knows and the rng alone: a state and
    a twin with the same view but other hidden cards (a determinization of it), determinized
    with equally seeded rngs, give the same copy — along a whole random game, each seat."""
    spec = get_game(game_id)
    params = spec.make_params(num_players=players)
    rng = random.Random(players)
    state = spec.new_game(params, seed=7)
    checked = 0
    while not state.is_over:
        for seat in range(players):
            twin = state.determinize(seat, rng)
            assert twin.view(seat, include_log=False) == state.view(seat, include_log=False)
            if checked == 0:
                assert twin.fingerprint() != state.fingerprint()
            mine = state.determinize(seat, random.Random(checked))
            theirs = twin.determinize(seat, random.Random(checked))
            assert mine.fingerprint() == theirs.fingerprint(), (game_id, seat, state.version)
            checked += 1
        for _ in range(5):
            if state.is_over:
                break
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 20
