"""The Djinn fidelity audit: one test per rule of the rulebook that had none, each naming the
book section it encodes, and the fixes the audit made (each test failed before its fix).
Rulings are cited as D1, D2 ... (docs/rulings/djinn.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arabesque.games.djinn import rules
from arabesque.games.djinn.components import DEFAULT_FILE
from arabesque.games.djinn.params import DjinnParams
from arabesque.games.djinn.state import EMPTY, INACTIVE, DjinnState, Kind
from tests.djinn_scenarios import (
    SPEC,
    act_at,
    do,
    give_mage,
    keep_open,
    main_texts,
    move_from,
    new_game,
    set_djinn,
    space,
    space_of,
    texts,
    top_kind,
)


def _with_tile(n: int, effect: str, seed: int = 3) -> tuple[DjinnState, int]:
    """A game with a character draft whose display shows the tile of ``effect``."""
    params = DjinnParams(num_players=n)
    arr: dict[str, Any] = SPEC.new_game(params, seed=seed).arrangement()  # type: ignore[assignment]
    comp = rules.load_components(None)
    tile = next(c for c in comp.characters if c.effect == effect)
    side = "positive" if tile.positive else "negative"
    if tile.id not in arr["draft"][side]:
        arr["draft"][side][0] = tile.id
    state = SPEC.new_game(params, seed=seed, arrangement=arr)
    assert isinstance(state, DjinnState)
    return state, tile.id


# -- §Setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_boards_supplies_and_displays(n: int) -> None:
    """§Setup 2-11: each board (base 0, magic 3, capacity 5, 4 coins, two active circles, four
    passages: the same two removed for everyone), the chests face down, the Mage cards in two
    piles with keys and two without, the Equipment by type, a boss and its Djinn at each round
    space, trophies one more than players per row, three scoring cards."""
    state = new_game(n, first_game=False, seed=11 + n)
    comp = state.comp
    removed = set(state.removed_passages)
    assert len(removed) == 2
    for p in range(n):
        assert (state.base[p], state.magic[p], state.capacity[p], state.coins[p]) == (0, 3, 5, 4)
        assert not state.flipped[p] and state.circles[p] == [EMPTY, EMPTY, INACTIVE, INACTIVE]
        assert sorted(state.passages_left[p]) == sorted(set(range(6)) - removed)
        assert state.keys[p] == state.scrolls[p] == state.corks[p] == 0
    assert sorted(state.chest_deck) == list(range(18)) and state.chest_discard == []
    for i, pile in enumerate(state.piles):
        assert pile and all(comp.mage_cards[c].key == (i >= 2) for c in pile)
    assert abs(len(state.piles[0]) - len(state.piles[1])) <= 1
    assert abs(len(state.piles[2]) - len(state.piles[3])) <= 1
    for t, stack in enumerate(state.equip_stacks):
        assert stack and all(comp.equipment[e].type == t for e in stack)
    assert sum(len(s) for s in state.equip_stacks) == len(comp.equipment)
    assert [state.djinn[r][4] for r in range(7, 13)] == [1] * 6
    assert state.supply_bosses == comp.supply["bosses"] - 6
    for row, tiles in enumerate(state.trophy_rows):
        assert len(tiles) == n + 1 and all(comp.trophies[t].row == row for t in tiles)
    if n > 1:
        assert len(set(state.scoring)) == 3
    assert state.pos == [-1] * n and state.tent == [-1] * n  # assistants beside the tents


def test_a_first_game_has_no_scoring_cards_or_character_tiles() -> None:
    """§Setup note: a first game skips steps 10 and 11."""
    state = new_game(3, first_game=True)
    assert state.scoring == () and state.draft == [[], []] and top_kind(state) is Kind.START


# -- §A player's turn: movement -------------------------------------------------------------------


def test_the_magic_source_can_be_moved_to_and_left_onwards() -> None:
    """§Game board: the Source is a space of the map like the others; moving on from it never
    goes back along the path it was entered by."""
    state = new_game(2)
    move_from(state, 0, space("r1"), came=space("s1"))
    assert "move source" in main_texts(state)
    do(state, "move source")
    assert state.pos[0] == 0 and top_kind(state) is Kind.ACT
    move_from(state, 0, 0, came=space("r1"))
    assert main_texts(state) == ["move r2", "move r3"]


def test_paying_a_mage_with_a_scroll_when_the_coins_are_gone() -> None:
    """§A player's turn, exception: a coin or a scroll to each player whose mage is there."""
    state = new_game(4)
    state.pos[1] = state.pos[2] = space("r2")
    state.came[1] = state.came[2] = space("s1")  # both at the edge player 0 arrives at
    state.coins[0], state.scrolls[0] = 1, 1
    keep_open(state, 0)
    move_from(state, 0, space("s1"), came=space("r1"))
    do(state, "move r2", "stop", "pay coin")
    # One coin gone: the second mage is paid the scroll, the only way left.
    assert main_texts(state) == ["pay scroll"]
    do(state, "pay scroll")
    assert state.coins[1] + state.scrolls[1] + state.coins[2] + state.scrolls[2] == 4 + 4 + 2
    assert state.coins[0] == state.scrolls[0] == 0 and state.pos[0] == space("r2")


# -- §Actions -------------------------------------------------------------------------------------


def test_square_space_basic_and_passage_in_either_order() -> None:
    """§A player's turn 2: at a square space the location's basic action and the own secret
    passage's basic action, in the order of the player's choice."""
    for first in ("passage", "basic"):
        state = new_game(2)
        sq = space_of(state, "academy", "s")
        state.passages[sq].append((0, rules.ARCHIVES))
        keep_open(state, 0)
        act_at(state, 0, sq)
        assert {"basic", "passage"} <= set(main_texts(state))
        do(state, first)
        while top_kind(state) is not Kind.ACT:
            do(state, main_texts(state)[-1])
        other = "basic" if first == "passage" else "passage"
        assert other in main_texts(state)
        assert not any(t.startswith("forfeit") for t in main_texts(state))


def test_round_space_special_or_basic_then_catch_or_catch_first() -> None:
    """§A player's turn 2: at a round space the special (or instead the basic) action and the
    mandatory catch, in either order, each completed before the other."""
    state = new_game(2)
    r = space_of(state, "academy", "r")
    set_djinn(state, r, red=1)
    keep_open(state, 0)
    act_at(state, 0, r)
    assert {"basic", "special", "catch"} <= set(main_texts(state))
    do(state, "catch", "decline")
    assert {"basic", "special", "end"} <= set(main_texts(state))
    do(state, "special")
    assert state.capacity[0] == 6
    assert "basic" not in main_texts(state) and "special" not in main_texts(state)


def test_a_round_space_without_djinn_has_no_catch() -> None:
    """§A player's turn 2, note: no catch where no Djinn are left."""
    state = new_game(2)
    r = space_of(state, "academy", "r")
    set_djinn(state, r)
    keep_open(state, 0)
    act_at(state, 0, r)
    assert "catch" not in main_texts(state) and "end" in main_texts(state)


def test_forfeit_is_the_whole_space_at_a_round_space_but_the_catch_stays() -> None:
    """§Forfeiting actions: 2 coins or 2 magic or one of each instead of every basic or
    special action of the space; the mandatory catch is not an action one can forfeit."""
    state = new_game(2)
    r = space_of(state, "tavern", "r")
    set_djinn(state, r, red=1)
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "forfeit 1")
    assert state.coins[0] == 6
    assert main_texts(state) == ["catch"]


# -- §Locations -----------------------------------------------------------------------------------


def test_catacombs_special_reveals_two_chests_and_gains_both() -> None:
    """§Catacombs special: two chests, everything on both, then both on the discard pile."""
    state = new_game(2)
    comp = state.comp
    a = next(c.id for c in comp.chests if c.reward == ((0, 3),))  # 3 coins
    b = next(c.id for c in comp.chests if c.reward == ((1, 3),))  # 3 scrolls
    state.chest_deck = [x for x in state.chest_deck if x not in (a, b)] + [b, a]
    r = space_of(state, "catacombs", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special")
    if top_kind(state) is Kind.CHEST_KEY:
        do(state, "done")
    assert state.coins[0] == 7 and state.scrolls[0] == 3
    assert state.chest_discard == [a, b]


def test_a_reshuffle_in_the_middle_of_the_special_leaves_the_revealed_chest_out() -> None:
    """§Catacombs: when the deck runs out the discard pile becomes the new deck; the chest the
    player has just revealed is in front of them, not on the discard pile, so it cannot come
    up a second time in the same action (fixed: it used to be shuffled back in)."""
    for seed in range(40):
        state = new_game(2, seed=seed)
        last = state.chest_deck[-1]
        state.chest_discard = state.chest_deck[:-1]
        state.chest_deck = [last]
        r = space_of(state, "catacombs", "r")
        set_djinn(state, r)
        state.rng.seed(seed)
        act_at(state, 0, r)
        do(state, "special")
        revealed = [e for e in state.events if e.kind == "chests"][-1].data["chests"]
        assert revealed[0] == last and revealed[1] != last
        assert sorted(state.chest_deck + state.chest_discard) == list(range(18))


def test_a_key_opens_one_chest_per_turn() -> None:
    """§Catacombs and ruling D22 (revised): the tile note says a key still opens only one
    chest per turn, so after one unlock the second chest's key reward is not offered."""
    state = new_game(2)
    keyed = [c.id for c in state.comp.chests if c.key_reward][:2]
    state.chest_deck = [x for x in state.chest_deck if x not in keyed] + keyed
    state.keys[0] = 3
    r = space_of(state, "catacombs", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special")
    while top_kind(state) is not Kind.CHEST_KEY:
        do(state, main_texts(state)[0])
    do(state, "unlock")
    while top_kind(state) is not Kind.ACT:
        assert top_kind(state) is not Kind.CHEST_KEY
        do(state, main_texts(state)[0])
    assert state.keys[0] == 2 + sum(
        a
        for k, a in state.comp.chests[keyed[0]].reward + state.comp.chests[keyed[1]].reward
        if k == rules.RKEY
    )


def test_catacombs_extra_chest_is_revealed_and_one_discarded() -> None:
    """§Equipment cards and ruling D29: one more chest per Catacombs action, one of those
    revealed discarded without its benefit."""
    state = new_game(2)
    extra = next(e.id for e in state.comp.equipment if e.effect == "catacombs_extra")
    state.equip_owner[extra], state.equip_up[extra] = 0, True
    state.equip_of[0].append(extra)
    a = next(c.id for c in state.comp.chests if c.reward == ((0, 3),))  # 3 coins
    b = next(c.id for c in state.comp.chests if c.reward == ((1, 3),))  # 3 scrolls
    state.chest_deck = [x for x in state.chest_deck if x not in (a, b)] + [b, a]
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "catacombs", "s"))
    do(state, "basic")
    assert top_kind(state) is Kind.CHEST_DISCARD
    assert main_texts(state) == sorted([f"discard chest {a}", f"discard chest {b}"])
    do(state, f"discard chest {a}")
    assert state.scrolls[0] == 3 and state.coins[0] == 4
    assert sorted(state.chest_discard[-2:]) == sorted([a, b])


def test_archives_improved_circle_option_gives_its_key_even_with_every_circle_active() -> None:
    """§Archives improved, §Forfeiting (partially): the improved circle option activates a
    circle and gives a key; with every circle active the key part can still be taken."""
    state = new_game(2)
    state.improved[0] = True
    state.circles[0] = [EMPTY] * 4
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "archives", "s"))
    do(state, "basic")
    assert "archive circle" in main_texts(state)
    do(state, "archive circle")
    assert state.keys[0] == 2
    # Not improved: nothing could come of it, so it is not offered.
    state = new_game(2)
    state.circles[0] = [EMPTY] * 4
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "archives", "s"))
    do(state, "basic")
    assert "archive circle" not in main_texts(state)


def test_archives_improved_options() -> None:
    """§Archives, the marker placed: 4 coins; a scroll and 2 magic; up to 2 Mage cards."""
    state = new_game(2)
    state.improved[0] = True
    give_mage(state, 0, 4, active=False)
    give_mage(state, 0, 5, active=False)
    state.magic[0] = 0
    keep_open(state, 0)
    r = space_of(state, "archives", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special", "archive scroll", "archive mage", "activate mage 4", "activate mage 5")
    assert state.scrolls[0] == 1 and state.magic[0] == 2
    assert state.mage_active[4] and state.mage_active[5]


def test_a_passage_is_used_on_later_turns() -> None:
    """§Archives note: a passage cannot be used on the turn it is placed, but can afterwards."""
    state = new_game(2)
    sq = space_of(state, "academy", "s")
    state.passages[sq].append((0, rules.TAVERN))
    state.fresh_passage[0] = sq
    keep_open(state, 0)
    act_at(state, 0, sq)  # a new turn: act_at does not clear the mark, begin_turn does
    assert "passage" not in main_texts(state)
    rules.begin_turn(state, 0)
    assert state.fresh_passage[0] == -1
    act_at(state, 0, sq)
    assert "passage" in main_texts(state)
    do(state, "passage")
    assert top_kind(state) is Kind.TAVERN


def test_manufactory_special_two_corks_three_coins() -> None:
    """§Manufactory special: 3 coins for 2 corks and an Equipment card of one's choice."""
    state = new_game(2)
    r = space_of(state, "manufactory", "r")
    set_djinn(state, r)
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "special", "equip hat")
    assert state.coins[0] == 1 and state.corks[0] == 2 and len(state.equip_of[0]) == 1


def test_market_special_pays_other_assistants_at_each_tent() -> None:
    """§Market: paying each player whose assistant is on the tent moved to; the special
    action is the basic twice, each time to another tent."""
    state = new_game(4)
    places = state.comp.market_places(4)
    assert len(places) == 6  # the 3-4 player side: each tent on its own
    state.tent[1], state.tent[2] = 2, 2
    state.coins[0] = 5
    r = space_of(state, "market", "r")
    set_djinn(state, r)
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "special", "tent 3", "pay coin", "pay coin", "offer 5")  # 1 coin: 2 scrolls
    assert state.coins[1] == state.coins[2] == 5 and state.scrolls[0] == 2
    assert "tent 3" not in main_texts(state)
    do(state, "tent 6", "offer 8")  # 1 scroll: 5 coins
    assert state.coins[0] == 2 + 5 and state.scrolls[0] == 1 and state.tent[0] == 5


# -- §Magic Source, the magic scale, spell circles ------------------------------------------------


def test_the_source_price_follows_the_capacity_marker() -> None:
    """§Player board 1b: the scroll price of the Source's second row is the one under the
    capacity marker (the last price once the marker is flipped)."""
    state = new_game(2)
    comp = state.comp
    for cap in range(comp.capacity_min, comp.capacity_max + 1):
        state.capacity[0] = cap
        assert rules.scroll_price(state, 0) == comp.prices[cap - comp.capacity_min]
        assert rules.max_magic(state, 0) == cap - 1
    state.flipped[0] = True
    assert rules.scroll_price(state, 0) == comp.price_flipped and rules.max_magic(state, 0) == 8


def test_magic_never_exceeds_the_space_left_of_the_capacity_marker() -> None:
    """§Player board 1a."""
    state = new_game(2)
    rules.gain(state, 0, rules.RM, 10)
    assert state.magic[0] == 4


def test_spell_circles_left_then_right_with_their_rewards() -> None:
    """§Player board 2: the left circle first (2 magic), then the right (1 capacity)."""
    state = new_game(2)
    state.magic[0] = 0
    rules.activate_circle(state, 0)
    rules.refresh(state)
    assert state.circles[0] == [EMPTY, EMPTY, EMPTY, INACTIVE] and state.magic[0] == 2
    rules.activate_circle(state, 0)
    rules.refresh(state)
    assert state.circles[0] == [EMPTY] * 4 and state.capacity[0] == 6


# -- §Catch ---------------------------------------------------------------------------------------


def test_colour_bonus_counts_for_every_matching_djinn_green_once() -> None:
    """§Catch: the green power once per action, a colour bonus for each Djinn of the colour."""
    state = new_game(2)
    give_mage(state, 0, 2)  # power 3, red +2
    assert rules.card_power(state, 0, 2, (0, 0, 3, 0, 0)) == 3 + 3 * 2
    assert rules.card_power(state, 0, 2, (1, 0, 0, 0, 0)) == 3


def test_a_djinn_goes_into_a_matching_bottle_with_a_cork_or_a_circle() -> None:
    """§Catch: a caught Djinn goes into an empty active circle or a bottle of its colour that
    is then corked; without either it cannot be caught."""
    state = new_game(2)
    r = space("r4")
    set_djinn(state, r, red=1)
    state.circles[0][:2] = [0, 0]
    state.bottles[0][0] = 1  # a blue bottle only
    state.corks[0] = 1
    state.magic[0] = 4
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch")
    assert "select red" not in main_texts(state)
    state.bottles[0][2] = 1
    rules.refresh(state)
    do(state, "select red", "confirm", "settle")
    assert main_texts(state) == ["bottle red"]
    do(state, "bottle red")
    assert state.filled[0][2] == 1 and state.corks[0] == 0


def test_a_boss_fits_a_bottle_of_any_colour() -> None:
    """§Additional rules for bosses: a boss counts as every colour."""
    state = new_game(2)
    state.bottles[0][3] = 1
    state.corks[0] = 1
    state.circles[0][:2] = [0, 0]
    assert rules.can_place(state, 0, (0, 0, 0, 0, 1))
    assert not rules.can_place(state, 0, (0, 0, 1, 0, 0))


@pytest.mark.parametrize(("n", "drawn"), [(1, 0), (2, 2), (3, 2), (4, 3)])
def test_djinn_drawn_after_a_boss_leaves_by_player_count(n: int, drawn: int) -> None:
    """§Additional rules for bosses: 0/2/2/3 Djinn for 1/2/3/4 players."""
    state = new_game(n)
    r = space("r5")
    set_djinn(state, r, boss=1, red=1)
    bag = sum(state.bag)
    rules.after_catch(state, 0, r, True)
    assert sum(state.bag) == bag - drawn


# -- §Trophies and bottling -----------------------------------------------------------------------


def test_no_trophy_in_the_final_source_action_but_sealing_is_allowed() -> None:
    """§Receive a trophy, important: not as the last action at the Magic Source; moving a
    Djinn into a bottle stays possible."""
    state = new_game(2)
    state.filled[0][0] = 3
    state.circles[0][0] = 1
    state.bottles[0][1] = 1
    state.corks[0] = 1
    state.stage = 3  # FINAL_SOURCE
    rules.begin_turn(state, 0)
    rules.refresh(state)
    options = texts(state)
    assert not any(t.startswith("trophy") for t in options)
    assert "seal circle 1 brown" in options


def test_trophy_rows_after_the_third_any_row() -> None:
    """§Receive a trophy: row I, then II, then III, then a row of one's choice."""
    state = new_game(2)
    state.claims[0] = 3
    state.filled[0][1] = 3
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "academy", "s"))
    rows = {state.comp.trophies[int(t.split()[1])].row for t in texts(state) if "trophy" in t}
    assert rows == {0, 1, 2}


# -- §End and scoring -----------------------------------------------------------------------------


def test_final_score_counts_each_part() -> None:
    """§Final score: trophy points, 10 per bottled Djinn (a boss too), 3 per Djinn in a
    circle, 1 per unused bottle and cork, the scoring cards; ties by coins + scrolls + keys,
    then shared."""
    state = new_game(2)
    state.trophies_of[0] = [0, 2]
    state.filled[0][1] = 2
    state.filled_boss[0][3] = 1
    state.circles[0][:2] = [2, 4]
    state.bottles[0][0] = 2
    state.corks[0] = 1
    b = rules.score_breakdowns(state)[0]
    points = state.comp.trophies[0].points + state.comp.trophies[2].points
    assert (b["trophies"], b["bottled"], b["circles"], b["unused"]) == (points, 30, 6, 3)
    # Ties: equal scores, then coins + scrolls + keys.
    state2 = new_game(2)
    state2.coins = [3, 2]
    state2.keys = [0, 1]
    assert state2.ranking() == [1, 1]
    state2.scrolls[1] = 1
    assert state2.ranking() == [2, 1]


SCORING = [
    ("equipment_sets_at_least", 8),
    ("equipment_per_third", 15),
    ("passages_placed_at_most", 8),
    ("key_mages_at_most", 8),
    ("inactive_circles_at_least", 8),
    ("capacity_at_most", 8),
    ("base_at_least", 8),
    ("per_key", 9),
    ("per_active_mage", 8),
    ("per_unused_bottle_cork", 8),
]


def test_the_ten_scoring_cards() -> None:
    """§Scoring cards, each as the book lists it (points, thresholds and caps)."""
    state = new_game(2)
    cards = state.comp.scoring_cards
    assert [(c.condition, c.points if not c.cap else c.cap) for c in cards] == SCORING
    p = 0
    pts = {c.condition: (lambda c=c: rules.condition_points(state, p, c)) for c in cards}
    # A fresh board: no passage, no key card, capacity 5, two inactive circles.
    assert pts["passages_placed_at_most"]() == 8 and pts["key_mages_at_most"]() == 8
    assert pts["capacity_at_most"]() == 8 and pts["inactive_circles_at_least"]() == 8
    assert pts["base_at_least"]() == 0 and pts["per_key"]() == 0
    state.capacity[p] = 7
    state.base[p] = 2
    state.keys[p] = 5
    state.circles[p][2] = EMPTY
    assert pts["capacity_at_most"]() == 0 and pts["base_at_least"]() == 8
    assert pts["per_key"]() == 9 and pts["inactive_circles_at_least"]() == 0
    for card in (4, 5, 6, 7, 8):
        give_mage(state, p, card)
    assert pts["per_active_mage"]() == 8
    give_mage(state, p, 20)  # a card with a key
    assert pts["key_mages_at_most"]() == 0
    state.bottles[p] = [2, 1, 0, 0]
    state.corks[p] = 0
    assert pts["per_unused_bottle_cork"]() == 6
    by_type: dict[int, list[int]] = {0: [], 1: [], 2: []}
    for e in state.comp.equipment:
        by_type[e.type].append(e.id)
    state.equip_of[p] = by_type[0][:6] + by_type[1][:3] + by_type[2][:2]
    assert pts["equipment_per_third"]() == 15 and pts["equipment_sets_at_least"]() == 8
    state.equip_of[p] = by_type[0][:2] + by_type[1][:1] + by_type[2][:1]
    assert pts["equipment_per_third"]() == 0 and pts["equipment_sets_at_least"]() == 0


# -- §Character tiles -----------------------------------------------------------------------------


def test_character_tiles_as_the_book_lists_them() -> None:
    """§Character tiles: the effects the book spells out, each present once."""
    comp = rules.load_components(None)
    effects = {c.effect: c for c in comp.characters}
    for effect, positive in (
        ("market_free", True),
        ("tavern_key", True),
        ("manufactory_corks", True),
        ("source_price", True),
        ("academy_activate", True),
        ("secret_scoring", True),
        ("circle_cover", False),
        ("green_only", False),
        ("no_activate", False),
        ("catacombs_basic_only", False),
        ("mage_inactive", False),
    ):
        assert effects[effect].positive is positive, effect
    starts = sorted(c.reward for c in comp.characters if c.effect == "start_reward")
    assert ((0, 2), (1, 2), (2, 1)) in starts and ((0, -3),) in starts and ((2, -3),) in starts


def test_character_tile_effects() -> None:
    """§Character tiles, one by one: the Market without paying others, a key with each keyless
    Mage card, 3 corks at the round Manufactory, the Source always 2 scrolls, only green power,
    no activation, only the basic Catacombs action, Mage cards taken inactive."""
    state = new_game(3)
    state.fx[0] = frozenset({"market_free"})
    state.tent[1] = 0
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "market", "s"))
    do(state, "basic", "tent 1")
    assert top_kind(state) is Kind.OFFER and state.coins[1] == 4

    state = new_game(2)
    state.fx[0] = frozenset({"tavern_key", "mage_inactive"})
    act_at(state, 0, space_of(state, "tavern", "s"))
    top = state.piles[0][-1]
    do(state, "basic", "take pile 1")
    assert state.keys[0] == 1 and not state.mage_active[top]

    state = new_game(2)
    state.fx[0] = frozenset({"manufactory_corks"})
    r = space_of(state, "manufactory", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special", "equip staff")
    assert state.corks[0] == 3

    state = new_game(2)
    state.fx[0] = frozenset({"source_price"})
    state.capacity[0] = 8
    assert rules.scroll_price(state, 0) == 2

    state = new_game(2)
    give_mage(state, 0, 2)  # power 3, red +2
    state.fx[0] = frozenset({"green_only"})
    assert rules.card_power(state, 0, 2, (0, 0, 2, 0, 1)) == 3

    state = new_game(2)
    state.fx[0] = frozenset({"no_activate"})
    give_mage(state, 0, 4, active=False)
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "archives", "s"))
    do(state, "basic")
    assert "archive mage" not in main_texts(state)

    state = new_game(2)
    state.fx[0] = frozenset({"catacombs_basic_only"})
    r = space_of(state, "catacombs", "r")
    set_djinn(state, r)
    keep_open(state, 0)
    act_at(state, 0, r)
    assert "basic" in main_texts(state) and "special" not in main_texts(state)


def test_secret_scoring_cards_stay_with_their_holder_and_the_better_one_scores() -> None:
    """§Character tiles: the two cards may be kept face down and the holder decides at the
    end which one scores (ruling D26: the better one). Until the end nobody else sees them,
    in views, tensors, the log or the scores, and determinization deals them again."""
    state, tile = _with_tile(3, "secret_scoring")
    p = state.first
    do(state, f"character {tile}")
    assert len(state.secret[p]) == 2
    assert not set(state.secret[p]) & set(state.scoring)
    others = [q for q in range(3) if q != p]
    mine = state.view(p)["players"][p]["secret_scoring_cards"]
    assert mine["count"] == 2 and [c["id"] for c in mine["cards"]] == state.secret[p]
    for q in [*others, None]:
        view = state.view(q)
        assert view["players"][p]["secret_scoring_cards"] == {"count": 2, "cards": None}
        logged = json.dumps(state.log_since(q)[0])
        assert "secret_scoring" not in logged
    assert "secret_scoring" in json.dumps(state.log_since(p)[0])
    lay = state.observer.layout["secret_scoring"]
    own = state.observation(p)[lay]
    assert sorted(np.flatnonzero(own).tolist()) == sorted(state.secret[p])
    for q in others:
        assert not state.observation(q)[lay].any()
    # Determinization: the others' copies deal the cards again, the holder's keeps them.
    rng = random.Random(5)
    assert all(state.determinize(p, rng).secret[p] == state.secret[p] for _ in range(5))
    dealt = {tuple(state.determinize(others[0], rng).secret[p]) for _ in range(20)}
    assert len(dealt) > 1
    for hands in dealt:
        assert not set(hands) & set(state.scoring)
    # Scoring: the better card counts, seen only by the holder until the game is over.
    cards = state.comp.scoring_cards
    per_key = next(c.id for c in cards if c.condition == "per_key")
    base = next(c.id for c in cards if c.condition == "base_at_least")
    state.secret[p] = [base, per_key]
    state.scoring = tuple(c for c in state.scoring if c not in (base, per_key))
    state.keys[p] = 2
    assert rules.secret_points(state, p) == 6
    assert state.scores()[p].breakdown["secret_card"] == 6
    assert state.view(p)["scores"][p]["breakdown"]["secret_card"] == 6
    assert state.view(others[0])["scores"][p]["breakdown"]["secret_card"] == 0
    rules.finish(state)
    assert state.view(others[0])["scores"][p]["breakdown"]["secret_card"] == 6
    assert state.view(None)["players"][p]["secret_scoring_cards"]["cards"] is not None


# -- §Variants and solo ---------------------------------------------------------------------------


def test_solo_deck_sizes_remove_nothing_happens_cards() -> None:
    """§Solo setup: 12 location cards and 1-3 nothing-happens cards, shuffled."""
    for size in (12, 13, 14, 15):
        state = new_game(1, tom_deck=size)
        cards = [state.comp.tom_cards[c] for c in state.tom_deck]
        assert len(cards) == size and sum(c.nothing for c in cards) == size - 12


def test_solo_tom_plays_only_after_a_round_space_turn() -> None:
    """§Solo gameplay: a Tom card after each of the player's turns on a round space."""
    state = new_game(1, seed=4)
    keep_open(state, 0)
    left = len(state.tom_deck)
    act_at(state, 0, space_of(state, "academy", "s"))
    do(state, "basic", "end")
    assert len(state.tom_deck) == left
    r = space_of(state, "academy", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "basic", "end")
    assert len(state.tom_deck) == left - 1


def test_solo_tom_second_line_when_the_first_has_no_boss(tmp_path: Path) -> None:
    """§Solo gameplay: the second line when the first round space's boss is gone. The default
    cards name one location on both lines (balanced by simulation, docs/balance/djinn.md), so
    a user's file gives the first card a different second line."""
    text = DEFAULT_FILE.read_text()
    one_line = 'first = "academy"\nsecond = "academy"'
    assert one_line in text
    path = tmp_path / "djinn.toml"
    path.write_text(text.replace(one_line, 'first = "academy"\nsecond = "tavern"', 1))
    state = new_game(1, seed=2, components=str(path))
    card = next(c for c in state.comp.tom_cards if not c.nothing)
    assert card.first != card.second
    state.djinn[rules.round_space(state, card.first)][4] = 0
    second = rules.round_space(state, card.second)
    before = sum(state.djinn[second][:4])
    coins = state.coins[0]
    state.tom_deck.remove(card.id)
    state.tom_deck.append(card.id)
    rules.tom_turn(state)
    assert sum(state.djinn[second][:4]) == before + 1 and state.coins[0] == coins


def test_solo_task_table_after_a_win_only() -> None:
    """§Solo end: the tasks of the table are marked only after a win."""
    state = new_game(1, seed=2)
    state.won = False
    rules.finish(state)
    assert not any(t["done"] for t in state.view(0)["tom"]["tasks"])
    state2 = new_game(1, seed=2)
    state2.won = True
    rules.finish(state2)
    done = {t["task"] for t in state2.view(0)["tom"]["tasks"] if t["done"]}
    # A fresh board: no passage placed, capacity 5, no key card, at most 2 Mage cards...
    assert {"no secret passage placed", "capacity not beyond 6", "at most 2 Mage cards"} <= done
    assert "at least 10 coins" not in done
