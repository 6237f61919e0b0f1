"""The rulebook's worked examples, in our own words, played through the engine."""

from __future__ import annotations

from arabesque.games.djinn import rules
from arabesque.games.djinn.state import EMPTY, Kind
from tests.djinn_scenarios import (
    act_at,
    do,
    give_mage,
    keep_open,
    main_texts,
    new_game,
    set_djinn,
    space,
    texts,
    top_kind,
)


def test_catch_boss_strength_with_two_other_djinn_is_eight() -> None:
    """§Catch Djinn, first example: a boss with two other Djinn at its space needs 4 + 2 + 2."""
    state = new_game(2)
    r = space("r4")
    set_djinn(state, r, boss=1, blue=1, red=1)
    assert rules.strength(state, 0, r, (0, 0, 0, 0, 1)) == 8
    # The regular Djinn still need 4 each; all three together need 4 + 4 + 8.
    assert rules.strength(state, 0, r, (1, 0, 1, 0, 1)) == 16


def test_catch_three_djinn_with_two_mage_cards_one_magic_and_four_coins() -> None:
    """§Catch Djinn, second example: three Djinn (two brown, one blue) need 12. Two Mage
    cards give 6 in green power, colour bonuses of 3 (brown 1 and blue 1 on two brown and one
    blue Djinn) and 2 (brown 1 on two brown Djinn): 11. One magic of the player's own pays
    the rest, and the cards cost 4 coins together before they are flipped."""
    state = new_game(2)
    comp = state.comp
    assert comp.mage_cards[0].power == 3 and comp.mage_cards[0].cost == 2
    assert comp.mage_cards[1].power == 3 and comp.mage_cards[1].cost == 2
    r = space("r4")
    set_djinn(state, r, brown=2, blue=1)
    p = 0
    give_mage(state, p, 0)
    give_mage(state, p, 1)
    state.magic[p] = 1
    state.coins[p] = 4
    state.bottles[p][1] = 2  # two brown bottles
    state.corks[p] = 1
    keep_open(state, p)  # every step stays a decision, none applied at once
    act_at(state, p, r)
    do(state, "catch", "select brown", "select brown", "select blue")
    assert rules.strength(state, p, r, (1, 2, 0, 0, 0)) == 12
    assert rules.card_power(state, p, 0, (1, 2, 0, 0, 0)) == 6
    assert rules.card_power(state, p, 1, (1, 2, 0, 0, 0)) == 5
    do(state, "confirm", "use mage 0")
    assert "settle" not in texts(state)  # 6 + 1 own magic is not enough yet
    do(state, "use mage 1", "settle")
    assert state.magic[p] == 0 and state.coins[p] == 0
    assert not state.mage_active[0] and not state.mage_active[1]
    assert state.djinn[r][:4] == [0, 0, 0, 0]
    # Two spell circles and one corked brown bottle hold the three.
    assert top_kind(state) is Kind.PLACE
    assert main_texts(state) == ["circle", "bottle brown"]  # a brown one first
    do(state, "bottle brown")
    assert main_texts(state) == ["circle"]  # the other brown: the only cork is used
    do(state, "circle", "circle")
    assert state.filled[p][1] == 1 and sorted(state.circles[p][:2]) == [0, 1]
    assert top_kind(state) is Kind.ACT and "end" in texts(state)


def test_the_example_catch_is_offered_only_when_it_can_be_completed() -> None:
    """Only options that can still be completed are offered: with no magic of one's own and
    no room for a third Djinn, the third selection is not offered."""
    state = new_game(2)
    r = space("r4")
    set_djinn(state, r, brown=2, blue=1)
    give_mage(state, 0, 0)
    give_mage(state, 0, 1)
    state.magic[0] = 0
    state.coins[0] = 4
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch", "select brown", "select brown")
    # Two circles are full after two; the blue one has nowhere to go.
    assert "select blue" not in texts(state)
    state.bottles[0][0] = 1  # a blue bottle
    state.corks[0] = 1
    state.magic[0] = 1
    rules.refresh(state)
    assert "select blue" in texts(state)
    do(state, "select blue", "confirm", "use mage 0", "use mage 1", "settle")
    placed = []
    while top_kind(state) is Kind.PLACE:
        options = main_texts(state)
        choice = "bottle blue" if "bottle blue" in options else "circle"
        placed.append(choice)
        do(state, choice)
    assert sorted(placed) == ["bottle blue", "circle", "circle"]
    assert EMPTY not in state.circles[0][:2] and state.filled[0][0] == 1
