"""One test (or more) per ruling of docs/rulings/ali-baba.md (R1 ... R12)."""

from __future__ import annotations

import random

import pytest

from arabesque.core import conformance as kit
from arabesque.core.errors import ParamsError
from arabesque.games.ali_baba.params import AliBabaParams
from arabesque.games.ali_baba.state import AliBabaState, Phase
from tests.ali_baba_scenarios import (
    SPEC,
    TILES,
    do,
    legal_texts,
    names,
    new_game,
    params,
    place,
)


def face_up_names(state: AliBabaState, seat: int | None = None) -> set[str]:
    places = state.view(seat)["board"]["places"]
    return {p["tile"]["name"] for p in places if p["state"] == "face_up"}


# -- R1: what the screens hide ------------------------------------------------------------------


def test_hands_are_public_face_down_and_box_are_not() -> None:
    state = new_game(3, at={"L4 r1 c1": "pink ring"})
    do(state, 0, "take pink ring")
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert [t["name"] for t in view["players"][0]["tiles"]] == ["pink ring"]
        places = view["board"]["places"]
        # A face-down place says so and nothing more; the box is a count.
        assert all(
            set(p) == {"place", "label", "layer", "row", "col", "top", "left", "state"}
            for p in places
            if p["state"] == "face_down"
        )
        assert view["in_box"] == 6 and "box" not in view
    # Determinization re-deals exactly the face-down tiles and the box.
    copy = state.determinize(1, random.Random(5))
    assert copy.hands == state.hands
    assert face_up_names(copy) == face_up_names(state)
    hidden = sorted([t for p, t in enumerate(state.cell) if t >= 0 and state.cover[p]] + state.box)
    again = sorted([t for p, t in enumerate(copy.cell) if t >= 0 and copy.cover[p]] + copy.box)
    assert hidden == again
    assert copy.cell != state.cell  # something did move (54 tiles, 50 hidden)


def test_tiles_shown_to_the_table_are_listed_as_shown() -> None:
    """R1: a front end that hides the screens still lists what the table was shown: a tile
    shown for yellow (and the stolen one, with its new owner), and the tiles a brown count
    showed. Checked over random games against the events of the log."""
    yellow = brown = 0
    for seed in range(40):
        state = AliBabaState.initial(AliBabaParams(num_players=3), seed, None)
        rng = random.Random(seed)
        shown: set[int] = set()
        effect_kind = None  # the kind of the tile whose effect is used this turn
        while not state.is_over:
            seat = min(state.to_act())
            seen = len(state.events)
            state.apply(seat, rng.choice(list(state.legal_actions(seat))))
            for event in state.events[seen:]:
                if event.kind in ("take", "lamp_swap"):
                    effect_kind = event.data["tile"]["kind"]
                elif event.kind == "shown":
                    yellow += 1
                    shown.update(t["id"] for t in event.data["tiles"].values())
                elif event.kind == "score" and event.data["effect"] == "brown":
                    brown += 1
                    player = event.data["player"]
                    shown.update(
                        t
                        for t in state.hands[player]
                        if state.tiles.tile_json(t)["kind"] == effect_kind
                    )
            view = state.view(None)
            for p, player in enumerate(view["players"]):
                expected = [t for t in state.hands[p] if t in shown]
                assert [t["id"] for t in player["shown"]] == expected
    assert yellow > 10 and brown > 10  # both ways were exercised


# -- R2: orthogonally adjacent --------------------------------------------------------------------


def test_adjacent_means_sharing_an_edge_seen_from_above() -> None:
    big = TILES.boards["cave-25"]
    top = place(big, "L4 r1 c1")
    same_layer = {big.squares[q].label for q in big.adjacent[top] if big.squares[q].layer == 3}
    assert same_layer == {"L4 r1 c2", "L4 r2 c1"}
    # On the 25 side, neighbouring layers never touch edge to edge (half-square shift both
    # ways); places two layers apart may, but one of them is then always covered.
    for a in range(big.size):
        for b in big.adjacent[a]:
            gap = abs(big.squares[a].layer - big.squares[b].layer)
            assert gap in (0, 2)
            if gap == 2:
                lower, upper = sorted((a, b), key=lambda q: big.squares[q].layer)
                middle = set(big.below[upper])
                assert middle & set(big.above[lower]), "both could be face up at once"
    small = TILES.boards["cave-16"]
    # On the 16 side, L2 rows line up with L1 rows: a tile touches the next row's tile one
    # layer up.
    corner = place(small, "L1 r1 c1")
    assert place(small, "L2 r2 c1") in small.adjacent[corner]
    assert place(small, "L1 r1 c2") in small.adjacent[corner]
    assert place(small, "L1 r2 c2") not in small.adjacent[corner]  # a corner only


def test_green_takes_only_adjacent_face_up_tiles() -> None:
    state = new_game(
        2,
        at={
            "L4 r1 c1": "green carpet",
            "L4 r1 c2": "pink ring",
            "L4 r2 c1": "pink crown",
            "L4 r2 c2": "pink sword",
            "L3 r1 c1": "pink ruby",
        },
    )
    do(state, 0, "take green carpet")
    # The ruby it uncovered lies below its place (not beside it) and the sword is diagonal.
    assert "pink ruby" in face_up_names(state)
    assert set(legal_texts(state, 0)) == {"also take pink ring", "also take pink crown", "pass"}


def test_green_adjacency_over_random_games_is_same_layer_on_the_big_side() -> None:
    for seed in range(6):
        state = SPEC.new_game(params(3), seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if (
                state.phase is Phase.EFFECT
                and TILES.effect_of(state.effect_tile).effect == "adjacent"
            ):
                origin = state.board.squares[state.taken_place]
                for action in state.legal_actions(state.current):
                    block, t = state.space.split(action)
                    if block < 0:
                        continue
                    other = state.board.squares[state.place_of[t]]
                    assert other.layer == origin.layer
                    assert abs(other.row - origin.row) + abs(other.col - origin.col) == 1
            kit.random_step(state, rng)


# -- R3: blue on the bottom layer -----------------------------------------------------------------


def test_blue_on_the_bottom_layer_scores_two_for_the_square() -> None:
    state = new_game(
        2,
        at={
            "L4 r1 c1": "white carpet",
            "L4 r1 c2": "white chest",
            "L4 r2 c1": "white crown",
            "L4 r2 c2": "white diamond",
            "L3 r1 c1": "white lamp",
            "L2 r1 c1": "white necklace",
            "L1 r1 c1": "blue ring",
        },
    )
    for seat, text in [
        (0, "take white carpet"),
        (1, "take white chest"),
        (0, "take white lamp"),
        (1, "take white crown"),
        (0, "take white necklace"),
        (1, "take white diamond"),
    ]:
        do(state, seat, text)
        do(state, seat, "pass")
    events = do(state, 0, "take blue ring")
    assert [e for e in events if e["kind"] == "flip"] == []
    assert [(e["effect"], e["points"]) for e in events if e["kind"] == "score"] == [("blue", 2)]


# -- R4: what a white block restrains -----------------------------------------------------------


def test_white_block_restrains_take_and_green_not_yellow_or_lamp() -> None:
    # Green: a forbidden neighbour cannot be picked; with no other, the effect does nothing.
    state = new_game(
        2,
        at={
            "L4 r1 c1": "white statue",
            "L4 r2 c2": "green carpet",
            "L4 r1 c2": "pink ring",
            "L4 r2 c1": "pink chest",
        },
    )
    do(state, 0, "take white statue")
    do(state, 0, "forbid ring")
    do(state, 1, "take green carpet")
    assert legal_texts(state, 1) == ["also take pink chest", "pass"]

    # Yellow: a forbidden kind may still be stolen from a player.
    state = new_game(
        2,
        at={
            "L4 r1 c1": "pink crown",
            "L4 r2 c2": "pink ring",
            "L4 r1 c2": "pink diamond",
            "L4 r2 c1": "white statue",
            "L3 r1 c1": "yellow chest",
        },
    )
    do(state, 0, "take pink crown")
    do(state, 1, "take pink ring")
    do(state, 0, "take pink diamond")
    do(state, 1, "take white statue")
    do(state, 1, "forbid ring")
    do(state, 0, "take yellow chest")
    do(state, 0, "use yellow")
    do(state, 1, "show pink ring")  # the single shown tile is taken at once (R10)
    assert "pink ring" in names(state.hands[0])

    # Lamp: the swapped-in tile comes from beside the board, so a block does not apply.
    state = new_game(
        2,
        "aladdins-lamp",
        at={
            "L4 r1 c1": "white statue",
            "L4 r1 c2": "blue lamp",
            "L4 r2 c1": "pink crown",
            "L4 r2 c2": "pink sword",
            "L3 r1 c1": "blue crown",
        },
        aside=[
            "pink diamond",
            "blue ring",
            "brown sword",
            "green crown",
            "yellow chest",
            "white chest",
        ],
    )
    do(state, 0, "take white statue")
    do(state, 0, "forbid pink")
    do(state, 1, "take blue lamp")
    assert "swap for pink diamond" in legal_texts(state, 1)
    do(state, 1, "swap for pink diamond")
    assert names(state.hands[1]) == ["pink diamond"]


def test_white_block_escape_clause_is_for_the_take_only() -> None:
    state = new_game(
        2,
        at={
            "L4 r1 c1": "white statue",
            "L4 r1 c2": "brown ring",
            "L4 r2 c1": "brown crown",
            "L4 r2 c2": "green sword",
            "L3 r1 c1": "brown carpet",
        },
    )
    do(state, 0, "take white statue")
    do(state, 0, "forbid brown")
    # The green sword is not forbidden, so there is no escape to the brown tiles: the single
    # legal take was made at once (R10), and its green effect found only forbidden neighbours
    # (the brown ring and crown), so it did nothing.
    assert names(state.hands[1]) == ["green sword"]
    assert any(e.kind == "no_effect" and e.data["player"] == 1 for e in state.events)
    assert state.current == 0


def test_white_blocks_add_up_and_each_ends_at_its_owners_turn() -> None:
    state = new_game(
        3,
        at={
            "L4 r1 c1": "white statue",
            "L4 r1 c2": "white crown",
            "L4 r2 c1": "pink ring",
            "L4 r2 c2": "blue ring",
        },
    )
    do(state, 0, "take white statue")
    do(state, 0, "forbid pink")
    do(state, 1, "take white crown")
    do(state, 1, "forbid blue")
    takes = legal_texts(state, 2)
    assert "take pink ring" not in takes and "take blue ring" not in takes
    assert len(state.view(2)["blocks"]) == 2
    do(state, 2, takes[0])
    if state.phase is Phase.EFFECT:
        do(state, 2, "pass")
    # Seat 0's turn: its own block ended, seat 1's still stands.
    assert state.view(0)["blocks"] == [{"by": 1, "type": "colour", "what": "blue"}]
    assert "take pink ring" in legal_texts(state, 0)
    assert "take blue ring" not in legal_texts(state, 0)


# -- R5: green pick flips ------------------------------------------------------------------------


def test_green_pick_flips_what_it_uncovers() -> None:
    state = new_game(
        2,
        at={
            "L4 r1 c1": "green carpet",
            "L4 r1 c2": "pink ring",
            "L4 r2 c1": "white crown",
            "L4 r2 c2": "white sword",
        },
    )
    do(state, 0, "take green carpet")
    assert state.flipped == 1  # L3 r1 c1
    events = do(state, 0, "also take pink ring")
    flips = [e for e in events if e["kind"] == "flip"]
    # The ring lay over L3 r1 c2 (shared with the carpet) and L3 r1 c3.
    assert [len(f["tiles"]) for f in flips] == [2]
    assert state.face_down == 50 - 3


# -- R6: yellow and empty screens -----------------------------------------------------------------


def test_yellow_skips_empty_screens() -> None:
    state = new_game(3, at={"L4 r1 c1": "pink crown", "L4 r1 c2": "yellow chest"})
    do(state, 0, "take pink crown")
    do(state, 1, "take yellow chest")
    events = do(state, 1, "use yellow")
    shown = next(e for e in events if e["kind"] == "shown")
    assert list(shown["tiles"]) == ["0"]  # seat 2 has nothing to show
    assert names(state.hands[1]) == ["yellow chest", "pink crown"]  # the single choice, R10


def test_yellow_with_no_tile_anywhere_does_nothing() -> None:
    state = new_game(3, at={"L4 r1 c1": "yellow chest"})
    events = do(state, 0, "take yellow chest")
    assert [e["why"] for e in events if e["kind"] == "no_effect"] == ["no opponent has a tile"]
    assert state.current == 1 and state.phase is Phase.TAKE


def test_show_choices_are_secret_until_all_are_in() -> None:
    state = new_game(
        3,
        at={
            "L4 r1 c1": "white carpet",
            "L4 r1 c2": "pink ring",
            "L4 r2 c1": "pink sword",
            "L4 r2 c2": "white crown",
            "L3 r1 c1": "pink statue",
            "L3 r1 c3": "pink ruby",
            "L3 r3 c1": "yellow chest",
        },
    )
    do(state, 0, "take white carpet")
    do(state, 0, "pass")
    do(state, 1, "take pink ring")
    do(state, 2, "take pink sword")
    do(state, 0, "take white crown")
    do(state, 0, "pass")
    do(state, 1, "take pink statue")
    do(state, 2, "take pink ruby")
    do(state, 0, "take yellow chest")
    do(state, 0, "use yellow")
    assert state.to_act() == frozenset({1, 2})
    do(state, 1, "show pink statue")
    assert state.to_act() == frozenset({2})
    assert state.view(1)["showing"]["mine"]["name"] == "pink statue"
    for seat in (None, 0, 2):
        view = state.view(seat)
        # Not even whether seat 1 has chosen is shown: both are still choosing for the rest.
        assert view["showing"] == {"choosing": [1, 2], "mine": None}
        assert view["to_act"] == [1, 2]
        assert "pink statue" not in str(view["log"][-3:])
    assert state.view(1)["to_act"] == [2]
    events = do(state, 2, "show pink sword")
    shown = next(e for e in events if e["kind"] == "shown")
    assert {s: t["name"] for s, t in shown["tiles"].items()} == {
        "1": "pink statue",
        "2": "pink sword",
    }
    assert state.phase is Phase.STEAL


# -- R7: the board empties -----------------------------------------------------------------------


def test_emptying_the_board_ends_the_game_after_that_turn() -> None:
    # Every game that ends by emptying the board: the last taker still used its effect,
    # and no other turn was played.
    ended = 0
    for seed in range(60):
        state = SPEC.new_game(params(2, "smaller-cave"), seed=seed)
        final = kit.random_playout(SPEC, state.params, seed)
        reason = final.events[-1].data["reason"]
        if reason != "the board is empty":
            continue
        ended += 1
        take = max(
            i for i, e in enumerate(final.events) if e.kind in ("take", "also_take", "lamp_swap")
        )
        last_tile = final.events[take].data["tile"]
        after = [e.kind for e in final.events[take + 1 :]]
        if last_tile["effect"] == "score":
            assert "score" in after
        assert after[-1] == "game_end" and "turn" not in after
        assert final.last_turn is None or final.turn <= final.last_turn
    assert ended > 0


# -- R8: Aladdin's lamp -------------------------------------------------------------------------

ASIDE = ["pink diamond", "blue ring", "brown sword", "green crown", "yellow chest", "white statue"]


def lamp_game(lamp: str = "pink lamp", **at: str) -> AliBabaState:
    return new_game(
        2,
        "aladdins-lamp",
        at={
            "L4 r1 c1": lamp,
            "L4 r1 c2": "pink ruby",
            "L4 r2 c1": "pink carpet",
            "L4 r2 c2": "pink chest",
            **at,
        },
        aside=ASIDE,
    )


def test_lamp_keep_or_swap() -> None:
    state = lamp_game("pink lamp")
    do(state, 0, "take pink lamp")
    assert legal_texts(state, 0)[-1] == "keep lamp"
    assert sorted(legal_texts(state, 0)[:-1]) == sorted(f"swap for {t}" for t in ASIDE)
    events = do(state, 0, "keep lamp")
    assert [(e["effect"], e["points"]) for e in events if e["kind"] == "score"] == [("pink", 5)]
    assert names(state.hands[0]) == ["pink lamp"]

    state = lamp_game("pink lamp")
    do(state, 0, "take pink lamp")
    do(state, 0, "swap for brown sword")
    # The lamp takes the sword's slot in the set-aside row, face up for all to see.
    assert [t["name"] for t in state.view(1)["aside"]][2] == "pink lamp"
    assert names(state.hands[0]) == ["brown sword"]
    assert state.points[0] == {"pink": 0, "blue": 0, "brown": 2}


@pytest.mark.parametrize(
    ("tile", "expect"),
    [
        ("pink diamond", {"pink": 5}),
        ("blue ring", {"blue": 2}),  # the lamp's removal flipped L3 r1 c1
        ("brown sword", {"brown": 2}),
        ("green crown", "adjacent"),
        ("yellow chest", "no opponent has a tile"),
        ("white statue", "forbid"),
    ],
)
def test_lamp_swap_with_each_effect(tile: str, expect: object) -> None:
    state = lamp_game("white lamp")
    do(state, 0, "take white lamp")
    events = do(state, 0, f"swap for {tile}")
    scored = {e["effect"]: e["points"] for e in events if e["kind"] == "score"}
    if isinstance(expect, dict):
        assert scored == expect
    elif expect == "adjacent":
        # Adjacent to the lamp's place, L4 r1 c1.
        assert set(legal_texts(state, 0)) == {
            "also take pink ruby",
            "also take pink carpet",
            "pass",
        }
    elif expect == "forbid":
        assert "forbid lamp" in legal_texts(state, 0) and "pass" in legal_texts(state, 0)
    else:
        assert [e["why"] for e in events if e["kind"] == "no_effect"] == [expect]


def test_lamp_swap_brown_counts_the_swapped_in_kind() -> None:
    state = lamp_game("white lamp", **{"L4 r1 c2": "pink sword"})
    do(state, 0, "take pink sword")
    do(state, 1, "take pink chest")
    do(state, 0, "take white lamp")
    events = do(state, 0, "swap for brown sword")
    assert [(e["effect"], e["points"]) for e in events if e["kind"] == "score"] == [("brown", 4)]


def test_lamp_from_a_green_pick_is_not_swapped() -> None:
    state = lamp_game("pink lamp", **{"L4 r1 c2": "green ruby"})
    do(state, 0, "take green ruby")
    do(state, 0, "also take pink lamp")
    assert state.current == 1 and state.phase is Phase.TAKE
    assert names(state.hands[0]) == ["green ruby", "pink lamp"]


def test_a_set_aside_lamp_can_be_swapped_for() -> None:
    state = lamp_game("pink lamp", **{"L4 r1 c2": "blue lamp"})
    do(state, 0, "take pink lamp")
    do(state, 0, "swap for pink diamond")
    do(state, 1, "take blue lamp")
    assert "swap for pink lamp" in legal_texts(state, 1)
    do(state, 1, "swap for pink lamp")
    assert names(state.hands[1]) == ["pink lamp"]
    assert "blue lamp" in [t["name"] for t in state.view(0)["aside"]]


# -- R9: variants ---------------------------------------------------------------------------------


def test_variants_are_exclusive_and_smaller_cave_is_for_two() -> None:
    with pytest.raises(ParamsError, match="2-player variant"):
        SPEC.make_params(num_players=3, variant="smaller-cave")
    with pytest.raises(ParamsError, match="unknown variant"):
        SPEC.make_params(num_players=2, variant="aladdins-lamp+equal-treasures")
    for variant in ("standard", "aladdins-lamp", "equal-treasures"):
        for n in (2, 3, 4):
            assert SPEC.make_params(num_players=n, variant=variant).variant == variant
    with pytest.raises(ParamsError, match="2-4 players"):
        SPEC.make_params(num_players=5)


# -- R10: automatic decisions ---------------------------------------------------------------------


def test_pure_scores_and_forced_moves_are_automatic() -> None:
    state = new_game(
        2,
        at={
            "L4 r1 c1": "white statue",
            "L4 r1 c2": "pink ring",
            "L4 r2 c1": "pink ruby",
            "L4 r2 c2": "brown crown",
            "L3 r1 c1": "pink carpet",
        },
    )
    do(state, 0, "take white statue")
    do(state, 0, "forbid pink")
    # Seat 1 had one legal take: it was made at once, and its brown effect scored at once.
    assert names(state.hands[1]) == ["brown crown"]
    assert state.points[1]["brown"] == 2
    assert len(state.history) == 2
    assert state.current == 0 and state.phase is Phase.TAKE


# -- R11: the start player and the final round ----------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_end_of_game_round_rule(n: int) -> None:
    """After the last face-down tile is flipped, the round is finished (up to the seat at the
    start player's right) and then everyone plays one more turn, unless the board empties."""
    checked = 0
    for seed in range(12):
        final = kit.random_playout(SPEC, params(n), seed)
        flip_turn = None
        turn = 0
        for e in final.events:
            if e.kind == "turn":
                turn = e.data["turn"] - 1
            if e.kind == "last_flip":
                flip_turn = turn
        assert flip_turn is not None
        turns = [e.data["turn"] - 1 for e in final.events if e.kind == "turn"]
        assert turns == list(range(len(turns)))
        assert [e.data["player"] for e in final.events if e.kind == "turn"] == [
            t % n for t in turns
        ]
        if final.events[-1].data["reason"] == "the last turn has been played":
            assert turns[-1] == (flip_turn // n + 2) * n - 1
            assert turns[-1] % n == n - 1
            checked += 1
        else:
            assert not final.face_up and turns[-1] <= (flip_turn // n + 2) * n - 1
    assert checked > 0


# -- R12: variant setups --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "n", "layers", "box", "aside", "removed"),
    [
        ("standard", 3, [25, 16, 9, 4], 6, 0, 0),
        ("aladdins-lamp", 3, [25, 16, 9, 4], 0, 6, 0),
        ("equal-treasures", 4, [25, 16, 9, 4], 0, 0, 1),
        ("smaller-cave", 2, [16, 12, 6, 2], 6, 0, 3),
    ],
)
def test_variant_setups(
    variant: str, n: int, layers: list[int], box: int, aside: int, removed: int
) -> None:
    for seed in range(3):
        state = SPEC.new_game(params(n, variant), seed=seed)
        assert isinstance(state, AliBabaState)
        view = state.view(0)
        per_layer = [0] * 4
        for p in view["board"]["places"]:
            per_layer[p["layer"]] += 1
            # Only the top layer starts face up.
            assert (p["state"] == "face_up") == (p["layer"] == 3)
        assert per_layer == layers
        assert view["in_box"] == box and len(view["aside"]) == aside
        assert len(view["removed_kinds"]) == removed
        kinds_in_play = len(TILES.kinds) - removed
        assert sum(layers) + box + aside == 6 * kinds_in_play
        if variant == "aladdins-lamp":
            assert all(t["kind"] != "lamp" for t in view["aside"])
        # Every upper tile rests on four below, but on two in the smaller cave's layer 2.
        for q, below in enumerate(state.board.below):
            layer = state.board.squares[q].layer
            expected = 0 if layer == 0 else (2 if variant == "smaller-cave" and layer == 1 else 4)
            assert len(below) == expected
    # The removed kinds are drawn from the seed.
    removed_sets = {
        tuple(SPEC.new_game(params(2, "smaller-cave"), seed=s).view(0)["removed_kinds"])
        for s in range(10)
    }
    assert len(removed_sets) > 1
