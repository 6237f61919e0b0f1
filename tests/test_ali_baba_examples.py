"""The Ali Baba rulebook's worked examples (../shared/rules/ali-baba.en.md), in our words.

Each test names the section and the example it encodes.
"""

from __future__ import annotations

from tests.ali_baba_scenarios import do, legal_texts, names, new_game, set_hands


def score_events(events: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(e["player"], e["effect"], e["points"]) for e in events if e["kind"] == "score"]


def test_end_of_game_scoring_example_is_24_points() -> None:
    """End of the game, example: 4 carpets, 2 chests, 3 crowns, 1 ruby, 1 statue and
    2 swords score 10 + 3 + 6 + 1 + 1 + 3 = 24."""
    state = new_game(2)
    carpets = ["pink carpet", "blue carpet", "brown carpet", "green carpet"]
    chests = ["pink chest", "blue chest"]
    crowns = ["pink crown", "blue crown", "brown crown"]
    swords = ["pink sword", "blue sword"]
    set_hands(state, [[*carpets, *chests, *crowns, "pink ruby", "pink statue", *swords], []])
    score = state.scores()[0]
    assert score.breakdown["treasures"] == 24
    assert score.total == 24


def test_set_points_for_one_to_six_tiles() -> None:
    """End of the game, the points table: 1, 3, 6, 10, 15, 21 for 1 to 6 tiles of a kind."""
    colours = ["pink", "blue", "brown", "green", "yellow", "white"]
    for count, points in zip(range(1, 7), (1, 3, 6, 10, 15, 21), strict=True):
        state = new_game(2)
        set_hands(state, [[f"{c} ring" for c in colours[:count]], []])
        assert state.scores()[0].breakdown["treasures"] == points


def test_pink_diamond_scores_five_at_once() -> None:
    """Magic effects, pink: taking the pink diamond scores 5 points immediately."""
    state = new_game(2, at={"L4 r1 c1": "pink diamond"})
    events = do(state, 0, "take pink diamond")
    assert score_events(events) == [(0, "pink", 5)]
    assert state.view(1)["players"][0]["track"] == 5


def test_blue_carpet_flipping_two_tiles_scores_four() -> None:
    """Magic effects, blue: after the blue magic carpet is taken two tiles are flipped face
    up, so its taker scores 4. The first take lifts the tile over the corner L3 r1 c1; the
    blue carpet then frees both L3 r1 c2 (which both rested under) and L3 r1 c3."""
    state = new_game(
        2,
        at={
            "L4 r1 c1": "pink ruby",
            "L4 r1 c2": "blue carpet",
            "L4 r2 c1": "white crown",
            "L4 r2 c2": "white sword",
        },
    )
    do(state, 0, "take pink ruby")
    events = do(state, 1, "take blue carpet")
    flips = [e for e in events if e["kind"] == "flip"]
    assert len(flips) == 1 and len(flips[0]["tiles"]) == 2
    assert score_events(events) == [(1, "blue", 4)]


def test_brown_sword_with_two_swords_scores_six() -> None:
    """Magic effects, brown: a player who collected two swords earlier takes the brown
    sword and scores 2 per sword behind the screen, this one included: 6."""
    state = new_game(
        2,
        at={
            "L4 r1 c1": "pink sword",
            "L4 r1 c2": "white sword",
            "L4 r2 c1": "pink crown",
            "L4 r2 c2": "pink ruby",
            "L3 r1 c1": "brown sword",
        },
    )
    do(state, 0, "take pink sword")  # uncovers the brown sword
    do(state, 1, "take pink ruby")
    do(state, 0, "take white sword")
    do(state, 0, "pass")
    do(state, 1, "take pink crown")
    events = do(state, 0, "take brown sword")
    assert score_events(events) == [(0, "brown", 6)]


def test_green_carpet_also_takes_the_ring() -> None:
    """Magic effects, green: after taking the green magic carpet its taker may also take the
    adjacent ring; both go behind the screen and the ring's effect is not used."""
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
    # The ring to the right and the crown below touch the carpet's place; the diagonal
    # sword does not.
    assert set(legal_texts(state, 0)) == {"also take pink ring", "also take white crown", "pass"}
    events = do(state, 0, "also take pink ring")
    assert names(state.hands[0]) == ["green carpet", "pink ring"]
    assert score_events(events) == []  # the pink ring's effect is not used
    assert state.current == 1


def test_yellow_chest_takes_the_shown_sword() -> None:
    """Magic effects, yellow: the taker of the yellow chest sees one tile from each other
    player and chooses the sword; both tiles go behind the taker's screen and the other
    shown tile goes back."""
    state = new_game(
        3,
        at={
            "L4 r1 c1": "white crown",
            "L4 r1 c2": "pink sword",
            "L4 r2 c1": "pink statue",
            "L4 r2 c2": "yellow chest",
        },
    )
    do(state, 0, "take white crown")
    do(state, 0, "pass")
    do(state, 1, "take pink sword")
    do(state, 2, "take pink statue")
    do(state, 0, "take yellow chest")
    # Each opponent has a single tile, so each shows it at once (ruling R10).
    events = do(state, 0, "use yellow")
    shown = next(e for e in events if e["kind"] == "shown")
    assert {seat: t["name"] for seat, t in shown["tiles"].items()} == {
        "1": "pink sword",
        "2": "pink statue",
    }
    assert sorted(legal_texts(state, 0)) == ["steal pink statue", "steal pink sword"]
    do(state, 0, "steal pink sword")
    assert names(state.hands[0]) == ["white crown", "yellow chest", "pink sword"]
    assert names(state.hands[1]) == []
    assert names(state.hands[2]) == ["pink statue"]


def test_white_statue_forbids_brown_until_the_next_turn() -> None:
    """Magic effects, white: the taker of the white statue chooses brown; until the taker's
    next turn no other player may take a brown tile."""
    state = new_game(
        2,
        at={
            "L4 r1 c1": "white statue",
            "L4 r1 c2": "brown ring",
            "L4 r2 c1": "pink crown",
            "L4 r2 c2": "brown sword",
        },
    )
    do(state, 0, "take white statue")
    do(state, 0, "forbid brown")
    assert state.view(1)["blocks"] == [{"by": 0, "type": "colour", "what": "brown"}]
    takes = legal_texts(state, 1)
    assert "take brown ring" not in takes and "take brown sword" not in takes
    assert "take pink crown" in takes
    do(state, 1, "take pink crown")
    # Seat 0's next turn: the block is over.
    assert state.view(0)["blocks"] == []
    assert "take brown ring" in legal_texts(state, 0)


def test_white_note_when_nothing_is_takeable_take_anything() -> None:
    """Magic effects, white, note: when the restriction leaves no tile that could be taken,
    the player may take any tile."""
    state = new_game(
        2,
        at={
            "L4 r1 c1": "white statue",
            "L4 r1 c2": "brown ring",
            "L4 r2 c1": "brown crown",
            "L4 r2 c2": "brown sword",
            "L3 r1 c1": "brown carpet",
        },
    )
    do(state, 0, "take white statue")  # uncovers the brown carpet: every face-up tile is brown
    do(state, 0, "forbid brown")
    assert legal_texts(state, 1) == [
        "take brown carpet",
        "take brown crown",
        "take brown ring",
        "take brown sword",
    ]
