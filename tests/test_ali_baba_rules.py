"""Ali Baba rules beyond the worked examples: the tie-break, actions as text, typed errors,
hand-written arrangements, and the end of the game."""

from __future__ import annotations

from typing import Any

import pytest

from arabesque.core import conformance as kit
from arabesque.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    ParamsError,
)
from arabesque.games.ali_baba.state import AliBabaState, Phase
from tests.ali_baba_scenarios import (
    SPEC,
    TILES,
    arrangement,
    do,
    legal_texts,
    new_game,
    params,
    set_hands,
)

# -- the tie-break (rulebook, End of the game) ----------------------------------------------------


def test_tie_goes_to_fewer_tiles_then_is_shared() -> None:
    state = new_game(3)
    # 1 + 1 + 1 = 3 points with three tiles; 3 points with two tiles of a kind.
    set_hands(
        state,
        [["pink ring", "pink ruby", "pink crown"], ["pink sword", "blue sword"], ["pink chest"]],
    )
    state.points[2]["pink"] = 2
    assert [s.total for s in state.scores()] == [3, 3, 3]
    # Seat 2 has the fewest tiles, then seat 1; seat 0 the most.
    assert state.ranking() == [3, 2, 1]
    set_hands(state, [["pink ring", "pink ruby"], ["pink sword", "blue sword"], ["pink chest"]])
    state.points[0]["blue"] = 1
    state.points[2]["pink"] = 0
    state.points[2]["brown"] = 2
    assert [s.total for s in state.scores()] == [3, 3, 3]
    assert state.ranking() == [2, 2, 1]
    state.points[2]["brown"] = 0
    assert state.ranking() == [1, 1, 3]  # a shared victory


# -- actions as text ------------------------------------------------------------------------------


def test_every_action_text_round_trips() -> None:
    state = new_game(2)
    texts = set()
    for action in range(state.num_actions):
        text = state.action_to_str(action)
        assert state.parse_action(text) == action
        assert state.parse_action("  " + text.upper().replace(" ", "   ") + " ") == action
        texts.add(text)
    assert len(texts) == state.num_actions == 5 * 60 + 10 + 6 + 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("take purple ring", "no tile 'purple ring'"),
        ("steal blue", "no tile 'blue'"),
        ("forbid gold", "cannot forbid 'gold'"),
        ("dance", "unknown action 'dance'"),
        ("", "unknown action"),
    ],
)
def test_bad_action_texts_say_what_is_wrong(text: str, message: str) -> None:
    state = new_game(2)
    with pytest.raises(InvalidActionError, match=message):
        state.parse_action(text)


def test_parse_action_refuses_non_strings() -> None:
    state = new_game(2)
    with pytest.raises(InvalidActionError, match="is a string"):
        state.parse_action(7)  # type: ignore[arg-type]


def test_typed_errors_quote_what_is_allowed() -> None:
    state = new_game(2, at={"L4 r1 c1": "pink ring"})
    with pytest.raises(NotYourTurnError, match=r"waiting for \[0\]"):
        state.apply(1, state.parse_action("take pink ring"))
    with pytest.raises(IllegalActionError, match="legal: take"):
        state.apply(0, state.parse_action("take blue ring"))  # face down somewhere
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply(0, state.parse_action("use yellow"))
    with pytest.raises(InvalidActionError, match="outside this game's action space"):
        state.apply(0, 10_000)


def test_nothing_is_accepted_after_the_end() -> None:
    final = kit.random_playout(SPEC, params(2), 4)
    assert final.phase is Phase.OVER and final.to_act() == frozenset()
    with pytest.raises(GameOverError):
        final.apply(0, 0)
    view = final.view(None)
    assert view["current"] is None and view["is_over"]
    assert [s["total"] for s in view["scores"]] == [s.total for s in final.scores()]
    assert view["ranking"] == final.ranking()


# -- hand-written arrangements --------------------------------------------------------------------


def good() -> dict[str, Any]:
    return arrangement("standard", at={"L4 r1 c1": "pink ring"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: ["not", "an", "object"], "an arrangement is an object"),
        (lambda a: {**a, "decks": []}, "unknown arrangement keys"),
        (lambda a: {**a, "board": a["board"][:-1]}, "the board holds 54 tiles"),
        (lambda a: {**a, "board": a["board"][:-1] + a["board"][:1]}, "exactly once"),
        (lambda a: {**a, "board": ["gold ring", *a["board"][1:]]}, "no tile 'gold ring'"),
        (lambda a: {**a, "board": "pink ring"}, "must be a list"),
        (lambda a: {**a, "removed_kinds": ["ring"]}, "removes 0 kind"),
        (lambda a: {**a, "removed_kinds": ["gold"]}, "removed_kinds must list kinds"),
        (lambda a: {**a, "aside": ["pink ring"]}, "sets 0 tiles aside"),
    ],
)
def test_broken_arrangements_give_a_params_error(change: Any, message: str) -> None:
    with pytest.raises(ParamsError, match=message):
        SPEC.new_game(params(3), seed=1, arrangement=change(good()))


def test_lamps_are_never_set_aside() -> None:
    bad = arrangement(
        "aladdins-lamp",
        aside=["pink lamp", "pink ring", "pink ruby", "pink sword", "pink chest", "pink crown"],
    )
    with pytest.raises(ParamsError, match="never set aside"):
        SPEC.new_game(params(3, "aladdins-lamp"), seed=1, arrangement=bad)


def test_arrangements_accept_names_and_ids_and_record_names() -> None:
    hand = good()
    hand["board"] = [
        TILES.parse_tile(n) if i % 2 else n.upper() for i, n in enumerate(hand["board"])
    ]
    state = SPEC.new_game(params(3), seed=1, arrangement=hand)
    assert isinstance(state, AliBabaState)
    assert state.arrangement() == good()
    # The record's arrangement is a copy: editing it changes nothing in the game.
    state.arrangement()["board"].clear()
    assert len(state.arrangement()["board"]) == 54


# -- the end --------------------------------------------------------------------------------------


def test_last_flip_is_announced_with_the_final_turn() -> None:
    final = kit.random_playout(SPEC, params(3), 2)
    last = [e for e in final.events if e.kind == "last_flip"]
    assert len(last) == 1
    assert last[0].data["last_turn"] % 3 == 0  # turns count from 1: the last seat's turn
    end = final.events[-1]
    assert end.kind == "game_end" and end.data["ranking"] == final.ranking()


def test_legal_takes_are_the_unblocked_face_up_tiles() -> None:
    state = new_game(2, at={"L4 r1 c1": "pink ring", "L4 r1 c2": "blue ring"})
    assert legal_texts(state, 0) == [f"take {TILES.name(t)}" for t in sorted(state.face_up)]
    do(state, 0, "take pink ring")
    assert "take pink ring" not in legal_texts(state, 1)


def test_a_partial_arrangement_fixes_places_and_the_seed_deals_the_rest() -> None:
    hand = {"places": {"L4 r1 c1": "yellow chest", "l3 R2 c2": "Blue Ring"}}
    state = SPEC.new_game(params(3, "equal-treasures"), 5, hand)
    assert isinstance(state, AliBabaState)
    full = state.arrangement()
    assert full["board"][50] == "yellow chest" and full["board"][45] == "blue ring"
    assert len(full["removed_kinds"]) == 1
    assert full["removed_kinds"][0] not in ("chest", "ring")  # kinds in use stay in play
    # The stored arrangement is complete, so the game rebuilds without the seed's help.
    again = SPEC.new_game(params(3, "equal-treasures"), 99, full)
    assert isinstance(again, AliBabaState)
    assert again.cell == state.cell
    # The same partial arrangement and seed deal the same game.
    assert SPEC.new_game(params(3, "equal-treasures"), 5, hand).arrangement() == full


@pytest.mark.parametrize(
    ("arrangement", "message"),
    [
        ({"places": {"L5 r1 c1": "pink ring"}}, "no place 'L5 r1 c1'"),
        ({"places": {"top": "pink ring"}}, "places are 'L<layer> r<row> c<column>'"),
        ({"places": {"L4 r1 c1": "pink ring", "L4 r1 c2": "pink ring"}}, "names a tile twice"),
        ({"places": ["pink ring"]}, "maps place labels"),
        ({"places": {}, "box": []}, "'box' goes with a whole 'board'"),
        ({"places": {}, "board": []}, "not both"),
        ({"places": {"L4 r1 c1": "pink ring"}, "removed_kinds": ["ring"]}, "removes 0 kind"),
    ],
)
def test_broken_partial_arrangements(arrangement: dict[str, Any], message: str) -> None:
    with pytest.raises(ParamsError, match=message):
        SPEC.new_game(params(3), seed=1, arrangement=arrangement)


def test_a_partial_arrangement_may_not_use_a_removed_kind() -> None:
    hand = {"places": {"L4 r1 c1": "pink ring"}, "removed_kinds": ["ring"]}
    with pytest.raises(ParamsError, match="none of a removed kind"):
        SPEC.new_game(params(3, "equal-treasures"), seed=1, arrangement=hand)
