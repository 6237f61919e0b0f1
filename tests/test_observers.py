"""Observers of both games: tensor shapes and layouts, hidden information in tensors, views
and texts, the seat's own knowledge, spectators, text prompts, and views owned by their
readers."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from arabesque.core import conformance as kit
from arabesque.core.game import GameState, Params
from arabesque.core.registry import get_game
from arabesque.games.ali_baba.params import VARIANTS
from arabesque.games.ali_baba.state import AliBabaState
from arabesque.games.ali_baba.state import Phase as AliBabaPhase
from arabesque.games.magic_lamp.state import MagicLampState, Phase
from tests import ali_baba_scenarios as ab
from tests.scenarios import act, choose, default_comp, lamp_card, new_game, turn

ML = get_game("magic-lamp")
AB = get_game("ali-baba")

ML_PARAMS = [
    ML.make_params(num_players=n, my_precious=mp) for n in (2, 3, 4, 5) for mp in (False, True)
]
AB_PARAMS = [
    AB.make_params(num_players=n, variant=v)
    for v in VARIANTS
    for n in ((2,) if v == "smaller-cave" else (2, 3, 4))
]
ALL_PARAMS = [(ML, p) for p in ML_PARAMS] + [(AB, p) for p in AB_PARAMS]
IDS = [f"{spec.id}-{p.num_players}p-{getattr(p, 'variant', '')}" for spec, p in ALL_PARAMS]


def field(state: GameState, seat: int | None, name: str) -> np.ndarray[Any, Any]:
    return state.observation(seat)[state.observer.layout[name]]


# -- shapes and layouts -----------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "params"), ALL_PARAMS, ids=IDS)
def test_shape_dtype_and_layout(spec: Any, params: Params) -> None:
    state = spec.new_game(params, seed=3)
    shape = spec.observation_shape(params)
    for seat in [None, *range(params.num_players)]:
        obs = state.observation(seat)
        assert obs.shape == shape and obs.dtype == np.float32
    layout = spec.observer(params).layout
    fields = list(layout)
    assert fields, "an empty layout"
    # Contiguous, non-overlapping, covering the vector, every slice named and documented.
    position = 0
    for f in fields:
        assert f.start == position, f"{f.name} starts at {f.start}, expected {position}"
        assert f.size > 0, f"{f.name} is empty"
        assert f.name and f.doc.strip(), f"field {f.name!r} has no doc"
        position += f.size
    assert (position,) == shape
    assert len({f.name for f in fields}) == len(fields)
    described = layout.describe()
    assert [d["name"] for d in described] == [f.name for f in fields]
    json.dumps(described)


def test_shapes_follow_the_params() -> None:
    """Per-player blocks grow with the player count; the smaller cave has fewer places."""
    ml = [ML.observation_shape(ML.make_params(num_players=n))[0] for n in (2, 3, 4, 5)]
    assert ml == sorted(set(ml))
    big = AB.observation_shape(AB.make_params(num_players=2))[0]
    small = AB.observation_shape(AB.make_params(num_players=2, variant="smaller-cave"))[0]
    assert small < big


# -- nothing hidden leaks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "options", "seeds"),
    [
        (ML, {"num_players": 2, "my_precious": True}, (1, 2)),
        (ML, {"num_players": 4}, (3,)),
        (ML, {"num_players": 5}, (4,)),
        (AB, {"num_players": 3}, (1, 2, 3)),
        (AB, {"num_players": 4, "variant": "aladdins-lamp"}, (4, 5)),
        (AB, {"num_players": 2, "variant": "smaller-cave"}, (6,)),
    ],
    ids=["ml-2p-precious", "ml-4p", "ml-5p", "ab-3p", "ab-4p-lamp", "ab-2p-small"],
)
def test_observations_views_and_texts_hide_along_playouts(
    spec: Any, options: dict[str, Any], seeds: tuple[int, ...]
) -> None:
    """What determinization re-samples (or takes back) never shows: not in the tensor, nor
    in the observer's view, nor in ``to_act`` as the seat may know it, nor in the text."""
    params = spec.make_params(**options)
    for seed in seeds:
        rng = random.Random(seed)
        for state in kit.iter_states(spec, params, seed, every=2):
            kit.check_observation(state)
            kit.check_observation_hides(state, rng)
            observer = state.observer
            for seat in range(state.num_players):
                copy = state.determinize(seat, rng)
                assert observer.view(copy, seat) == observer.view(state, seat)
                assert copy.to_act_seen_by(seat) == state.to_act_seen_by(seat) == copy.to_act()
                assert copy.view(seat, include_log=False) == state.view(seat, include_log=False)
                assert copy.render_text(seat) == state.render_text(seat)


def test_the_check_catches_a_leak() -> None:
    """``check_observation_hides`` fails on an observer that shows hidden dice."""
    state = new_game(3)
    act(state, 1, "set gold 6")
    observer = state.observer
    honest = observer.fill

    def leaky(s: Any, seat: int | None, out: Any) -> None:
        honest(s, seat, out)
        out[0] = len(s.dice[1])  # seat 1's secret progress, for every seat

    observer.fill = leaky  # type: ignore[method-assign]
    try:
        with pytest.raises(AssertionError, match="spectator"):
            kit.check_observation_hides(state, random.Random(1))
    finally:
        del observer.fill


# -- what each seat knows ---------------------------------------------------------------------


def test_own_dice_show_only_in_the_own_tensor_before_the_reveal() -> None:
    state = new_game(3)
    before = {seat: state.observation(seat) for seat in (None, 0, 1, 2)}
    act(state, 0, "set gold 6")
    layout = state.observer.layout
    dice = layout["dice"]
    per_seat = 3 * 6
    own = state.observation(0)[dice]
    assert own[:per_seat].sum() == 1 and own[2 * 6 + 5] == 1  # gold, face 6, relative seat 0
    # The others' tensors (and a spectator's) do not change at all: not even "has set".
    for seat in (None, 1, 2):
        assert np.array_equal(state.observation(seat), before[seat])
    assert not np.array_equal(state.observation(0), before[0])
    act(state, 1, "set bronze 2")
    act(state, 2, "set silver 2")
    assert state.phase is Phase.RACE
    # After the reveal, seat 1 sees seat 0's die in its block for seat 0 (relative seat 2).
    seen = state.observation(1)[dice]
    assert seen[2 * per_seat + 2 * 6 + 5] == 1
    assert field(state, 1, "shared_faces")[1] == 1  # face 2 is shared by seats 1 and 2


def test_a_peek_shows_only_in_the_peeker_tensor() -> None:
    comp = default_comp()
    state = new_game(3, lamp=[lamp_card(comp, "peek")])
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 200})
    before = {seat: state.observation(seat) for seat in (None, 1, 2)}
    choose(state, "accept")
    if state.pending is not None and state.pending[0].name == "EFFECT_CHEST":
        choose(state, "chest gold")
    (chest,) = [c for c in range(3) if state.known_top[0][c]]
    peeked = state.known_top[0][chest]
    known = field(state, 0, "card_known_top")
    assert sorted(np.flatnonzero(known).tolist()) == sorted(peeked)
    assert [known[c] for c in peeked] == list(range(1, len(peeked) + 1))  # 1 = the top
    for seat in (None, 1, 2):
        assert not field(state, seat, "card_known_top").any()
        # The others learn only how many cards seat 0 saw (the peek is announced).
        changed = np.flatnonzero(state.observation(seat) != before[seat])
        names = {
            f.name
            for f in state.observer.layout
            for i in changed
            if i in range(f.start, f.start + f.size)
        }
        assert "known_top_count" in names
    counts = field(state, 1, "known_top_count").reshape(3, 3)
    assert counts[2, chest] == len(peeked)  # seat 0 is relative seat 2 for seat 1


def test_race_answers_stay_secret_until_resolved() -> None:
    state = new_game(3)
    turn_dice = {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 1)}
    for p, (chest, face) in turn_dice.items():
        act(state, p, f"set {chest} {face}")
    others = {seat: state.observation(seat) for seat in (None, 1, 2)}
    views = {seat: state.observer.view(state, seat) for seat in (None, 1, 2)}
    act(state, 0, "rub 400ms")
    own = field(state, 0, "race_own")
    assert own.tolist() == pytest.approx([1.0, 1.0, 0.4])
    for seat in (None, 1, 2):
        assert np.array_equal(state.observation(seat), others[seat])
        assert state.observer.view(state, seat) == views[seat]
    view = state.observer.view(state, 1)
    assert view["players"][0]["race"] == "hidden"
    assert state.observer.view(state, 0)["players"][0]["race"] == 400
    assert state.view(1, include_log=False)["to_act"] == [0, 1, 2]
    assert state.view(0, include_log=False)["to_act"] == [1, 2]


def test_the_setting_view_hides_the_others_progress() -> None:
    state = new_game(3)
    act(state, 0, "set gold 6")
    assert state.observer.view(state, 1)["players"][0]["dice_set"] is None
    assert state.observer.view(state, 0)["players"][0]["dice_set"] == 1
    assert state.observer.view(state, 0)["players"][1]["dice_set"] is None


def test_a_show_choice_shows_only_in_the_chooser_tensor() -> None:
    state = ab.yellow_game()
    assert state.phase is AliBabaPhase.SHOW
    before = {seat: state.observation(seat) for seat in (None, 0, 2)}
    ab.do(state, 1, "show pink ring")
    mine = field(state, 1, "show_mine")
    assert np.flatnonzero(mine).tolist() == [ab.tile("pink ring")]
    for seat in (None, 0, 2):
        assert np.array_equal(state.observation(seat), before[seat])
    # Seats 1 and 2 choose (two tiles each): for seat 0 they are relative seats 1 and 2.
    assert field(state, 0, "show_choosing").tolist() == [0, 1, 1]
    assert state.observer.view(state, 0)["showing"] == {"choosing": [1, 2], "mine": None}
    ab.do(state, 2, "show pink ruby")
    assert state.phase is AliBabaPhase.STEAL
    shown = field(state, 0, "shown")
    assert sorted(np.flatnonzero(shown).tolist()) == sorted(
        [ab.tile("pink ring"), ab.tile("pink ruby")]
    )


# -- the tensor says what the state says ------------------------------------------------------


def test_magic_lamp_tensor_matches_the_state() -> None:
    params = ML.make_params(num_players=4, my_precious=True)
    for state in kit.iter_states(ML, params, seed=11, every=9):
        assert isinstance(state, MagicLampState)
        n = state.num_players
        cards = state.comp.num_cards
        scores = [s.total for s in state.scores()]
        for seat in range(n):
            rel = [(seat + i) % n for i in range(n)]
            held = field(state, seat, "card_holder").reshape(n, cards)
            for r, p in enumerate(rel):
                assert sorted(np.flatnonzero(held[r]).tolist()) == sorted(state.holdings[p])
            assert field(state, seat, "score").tolist() == [scores[p] for p in rel]
            assert field(state, seat, "chest_cards").tolist() == [len(d) for d in state.decks]
            assert np.flatnonzero(field(state, seat, "phase")).tolist() == [state.phase]
            discard = np.flatnonzero(field(state, seat, "card_discard")).tolist()
            assert sorted(discard) == sorted(state.discard)


def test_ali_baba_tensor_matches_the_state() -> None:
    params = AB.make_params(num_players=3, variant="aladdins-lamp")
    for state in kit.iter_states(AB, params, seed=5, every=4):
        assert isinstance(state, AliBabaState)
        n = state.num_players
        t = state.tiles.num_tiles
        scores = state.scores()
        for seat in range(n):
            rel = [(seat + i) % n for i in range(n)]
            hands = field(state, seat, "tile_hand").reshape(n, t)
            for r, p in enumerate(rel):
                assert sorted(np.flatnonzero(hands[r]).tolist()) == sorted(state.hands[p])
            treasure = field(state, seat, "treasure").tolist()
            assert treasure == [scores[p].breakdown["treasures"] for p in rel]
            board = np.flatnonzero(field(state, seat, "tile_board")).tolist()
            assert sorted(board) == sorted(state.face_up)
            # Every tile is in exactly one place.
            where = sum(
                field(state, seat, name).reshape(-1, t).sum(axis=0)
                for name in ("tile_board", "tile_unseen", "tile_aside", "tile_removed")
            ) + hands.sum(axis=0)
            assert where.tolist() == [1.0] * t


# -- spectators and texts ---------------------------------------------------------------------


def test_spectators_get_a_public_tensor() -> None:
    state = new_game(4)
    spectator = state.observation(None)
    assert field(state, None, "spectator").tolist() == [1.0]
    assert field(state, 0, "spectator").tolist() == [0.0]
    # A spectator sees the table from seat 0 without seat 0's secrets.
    act(state, 0, "set silver 3")
    assert np.array_equal(state.observation(None), spectator)
    assert field(state, 0, "dice").any() and not field(state, None, "dice").any()


@pytest.mark.parametrize("spec", [ML, AB], ids=["magic-lamp", "ali-baba"])
def test_text_shows_the_seat_decision_prompt(spec: Any) -> None:
    params = spec.make_params(num_players=3)
    prompts = 0
    for state in kit.iter_states(spec, params, seed=2, every=5):
        for seat in [None, *range(state.num_players)]:
            text = state.render_text(seat)
            assert text and len(text.splitlines()) <= 30
            decision = None if seat is None else state.decision(seat)
            if decision is None:
                assert "Your decision" not in text
                continue
            prompts += 1
            assert f"Your decision: {decision.prompt}" in text
            assert f"1. {decision.labels[0]}" in text
    assert prompts > 0


# -- views belong to their readers ------------------------------------------------------------


def vandalise(value: Any) -> None:
    """Change every dict and list inside a view, in place."""
    if isinstance(value, dict):
        for key in list(value):
            vandalise(value[key])
            value[key] = "changed"
        value["extra"] = 1
    elif isinstance(value, list):
        for item in value:
            vandalise(item)
        value.append("extra")
        value[0] = "changed"


@pytest.mark.parametrize("spec", [ML, AB], ids=["magic-lamp", "ali-baba"])
def test_views_are_not_shared_with_the_state(spec: Any) -> None:
    params = spec.make_params(num_players=3)
    for state in kit.iter_states(spec, params, seed=7, every=6):
        fingerprint = state.fingerprint()
        for seat in [None, *range(state.num_players)]:
            first = state.view(seat, include_log=False)
            snapshot = json.dumps(first, sort_keys=True)
            vandalise(first)
            again = state.view(seat, include_log=False)
            assert json.dumps(again, sort_keys=True) == snapshot
        assert state.fingerprint() == fingerprint


# -- bounds -----------------------------------------------------------------------------------


def test_bounds_are_finite_and_hold_along_playouts() -> None:
    """Every field's bounds are finite with low <= high; ``check_observation`` (run along
    playouts above and by the conformance kits) holds every value to them."""
    for spec, params in ALL_PARAMS:
        layout = spec.observer(params).layout
        assert np.isfinite(layout.low).all() and np.isfinite(layout.high).all()
        assert (layout.low <= layout.high).all()
        assert layout.low.shape == layout.high.shape == spec.observation_shape(params)
        described = {d["name"]: d for d in layout.describe()}
        assert all({"low", "high", "clip"} <= d.keys() for d in described.values())


def test_the_bounds_check_catches_a_field_written_past_its_bound() -> None:
    state = new_game(3)
    observer = state.observer
    honest = observer.fill
    at = observer.layout["my_precious"].start

    def lying(s: Any, seat: int | None, out: Any) -> None:
        honest(s, seat, out)
        out[at] = 2.0  # a flag field, bounded by [0, 1]

    observer.fill = lying  # type: ignore[method-assign]
    try:
        with pytest.raises(AssertionError, match="my_precious"):
            kit.check_observation(state)
    finally:
        del observer.fill


def test_a_clipped_field_reads_as_its_bound() -> None:
    """Magic Lamp's score has no maximum in the rules: the tensor clips it (docs)."""
    state = new_game(3)
    observer = state.observer
    honest = observer.fill
    score = next(f for f in observer.layout if f.name == "score")
    assert [f.name for f in observer.layout.clipped] == ["score", "ward"]

    def huge(s: Any, seat: int | None, out: Any) -> None:
        honest(s, seat, out)
        out[score.start] = 10_000.0

    observer.fill = huge  # type: ignore[method-assign]
    try:
        assert state.observation(0)[score.start] == score.high
        kit.check_observation(state)  # within bounds after the clip, and clip=True
    finally:
        del observer.fill


def test_bounds_are_declared_once_and_refused_when_not_finite() -> None:
    from arabesque.core.observer import ObservationLayout

    layout = ObservationLayout()
    with pytest.raises(ValueError, match="finite"):
        layout.add("x", 2, "doc", high=float("inf"))
    with pytest.raises(ValueError, match="finite"):
        layout.add("x", 2, "doc", low=2, high=1)
    layout.add("x", 2, "doc", high=4)
    layout.add("y", 1, "doc", low=-1, high=0, clip=True)
    assert layout.low.tolist() == [0, 0, -1] and layout.high.tolist() == [4, 4, 0]
    assert [f.name for f in layout.clipped] == ["y"]
