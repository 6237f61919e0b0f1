"""Djinn rules, location by location: movement and paying, each location's actions, the
magic scale, catching, trophies, the end of the game and solo play against Tom."""

from __future__ import annotations

import random

import pytest

from arabesque.core.errors import IllegalActionError
from arabesque.core.registry import get_game
from arabesque.games.djinn import rules
from arabesque.games.djinn.state import (
    EMPTY,
    FINAL_SOURCE,
    FINISH_ROUND,
    INACTIVE,
    LAST_ROUND,
    PLAYING,
    Kind,
)
from tests.djinn_scenarios import (
    act_at,
    caught_boss_game,
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

# -- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_follows_the_player_count(n: int) -> None:
    state = new_game(n, first_game=False)
    comp = state.comp
    for p in range(n):
        assert (state.base[p], state.magic[p], state.capacity[p], state.coins[p]) == (0, 3, 5, 4)
        assert state.circles[p] == [EMPTY, EMPTY, INACTIVE, INACTIVE]
        assert len(state.passages_left[p]) == 4
    assert all(len(row) == n + 1 for row in state.trophy_rows)
    regular = [sum(state.djinn[r][:4]) for r in range(7, 13)]
    near_source = [r for r in range(7, 13) if 0 in state.adj[r]]
    assert all(state.djinn[r][4] == 1 for r in range(7, 13))
    if n == 1:
        # §Solo setup: one Djinn per space, one more next to the Source; no tiles, no cards.
        assert regular == [1 + (r in near_source) for r in range(7, 13)]
        assert state.scoring == () and state.draft == [[], []]
        assert len(state.tom_deck) == 15
    else:
        assert regular == [comp.djinn_per_space[n]] * 6
        assert len(state.scoring) == 3
        assert len(state.draft[0]) == len(state.draft[1]) == n + 1
    # Market side by player count (1-2 players: grouped tents).
    assert len(comp.market_places(n)) == (4 if n <= 2 else 6)


def test_longer_game_adds_a_djinn_next_to_the_source() -> None:
    state = new_game(3, longer=True)
    for r in range(7, 13):
        assert sum(state.djinn[r][:4]) == 3 + (0 in state.adj[r])


def test_first_game_joins_no_two_spaces_of_one_symbol() -> None:
    for seed in range(5):
        state = new_game(2, seed=seed)
        for s in range(1, 7):
            assert all(state.loc[s] != state.loc[r] for r in state.adj[s] if r)


def test_character_draft_in_snake_order_one_of_each_type() -> None:
    state = new_game(3, first_game=False)
    first = state.first
    order = [(first + i) % 3 for i in range(3)]
    for p in order:
        (seat,) = state.to_act()
        assert seat == p and top_kind(state) is Kind.DRAFT
        do(state, texts(state)[0])
    for p in reversed(order):
        (seat,) = state.to_act()
        assert seat == p
        options = texts(state)
        first_tile = state.comp.characters[state.chars[p][0]]
        assert all(
            state.comp.characters[int(t.split()[1])].positive != first_tile.positive
            for t in options
        )
        do(state, options[0])
    assert all(len(c) == 2 for c in state.chars)
    assert top_kind(state) is Kind.START and state.current == first


# -- movement ---------------------------------------------------------------------------------


def test_first_turn_places_the_mage_next_to_a_square_space() -> None:
    state = new_game(2)
    options = texts(state)
    assert all(t.startswith("start s") for t in options) and len(options) == 18
    do(state, "start s1 via r1")
    assert state.pos[state.current] == space("s1") and top_kind(state) is Kind.ACT


def test_moves_go_along_paths_and_never_backwards() -> None:
    state = new_game(2)
    move_from(state, 0, space("s1"), came=space("r1"))
    assert texts(state) == ["move r2", "move r4"]


def test_an_occupied_space_is_paid_for_or_skipped() -> None:
    state = new_game(3)
    # Player 1 came to r2 from s1: its mage stands at the edge player 0 arrives at.
    state.pos[1], state.came[1] = space("r2"), space("s1")
    move_from(state, 0, space("s1"), came=space("r1"))
    do(state, "move r2")
    assert top_kind(state) is Kind.JUMP and texts(state) == ["stop", "skip"]
    coins = state.coins[1]
    state.scrolls[0] = 1  # a coin or a scroll: a real choice
    do(state, "stop")
    assert texts(state)[:2] == ["pay coin", "pay scroll"]
    do(state, "pay coin")
    assert state.coins[1] == coins + 1 and state.pos[0] == space("r2")
    assert top_kind(state) is Kind.ACT


def test_skipping_several_occupied_spaces_in_one_move() -> None:
    state = new_game(3)
    # Each mage stands at the edge player 0 arrives at (r2 from s1, s5 from r2).
    state.pos[1], state.came[1] = space("r2"), space("s1")
    state.pos[2], state.came[2] = space("s5"), space("r2")
    state.coins[0] = state.scrolls[0] = 0  # cannot pay: skipping is the only way
    move_from(state, 0, space("s1"), came=space("r1"))
    do(state, "move r2")
    # Skipping on is the only way (applied at once, ruling D25): the mage moves on from r2.
    assert top_kind(state) is Kind.MOVE and state.stack.top is not None
    assert state.stack.top.context[0] == space("r2")
    assert "move s1" not in texts(state)  # never back
    do(state, "move s5", "move r6")
    assert state.pos[0] == space("r6") and state.came[0] == space("s5")


# -- actions and forfeiting -------------------------------------------------------------------


def test_forfeiting_all_actions_gives_two_coins_or_magic_or_one_each() -> None:
    state = new_game(2)
    act_at(state, 0, space_of(state, "academy", "s"))
    assert {"forfeit 1", "forfeit 2", "forfeit 3"} <= set(texts(state))
    state.pos[1], state.came[1] = space("s1"), space("r1")
    do(state, "forfeit 3")
    assert state.coins[0] == 5 and state.magic[0] == 4
    # Nothing else to do: the lone "end" is applied at once (ruling D25).
    assert state.current == 1


def test_academy_basic_and_special() -> None:
    state = new_game(2)
    act_at(state, 0, space_of(state, "academy", "s"))
    do(state, "basic")
    assert state.scrolls[0] == 1 and state.magic[0] == 4  # capped at capacity - 1
    r = space_of(state, "academy", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special")
    assert state.capacity[0] == 6 and state.magic[0] == 5 and state.scrolls[0] == 2


def test_a_round_space_needs_its_catch_before_the_turn_ends() -> None:
    state = new_game(2)
    r = space_of(state, "academy", "r")
    set_djinn(state, r, boss=1, red=2)
    keep_open(state, 0)
    act_at(state, 0, r)
    assert "end" not in texts(state) and "catch" in texts(state)
    do(state, "basic")
    assert main_texts(state) == ["catch"]
    do(state, "catch", "decline")
    assert state.magic[0] == 3  # 3 + 3 magic capped at 4, then 1 lost
    assert "end" in texts(state)


def test_declining_a_catch_never_takes_magic_below_zero() -> None:
    state = new_game(2)
    r = space_of(state, "tavern", "r")
    set_djinn(state, r, red=1)
    state.magic[0] = 0
    state.keys[0] = 1  # keeps the decisions open (else they are applied at once)
    act_at(state, 0, r)
    do(state, "catch", "decline")
    assert state.magic[0] == 0


def test_tavern_basic_takes_a_card_without_key_special_any_with_its_key() -> None:
    state = new_game(2)
    act_at(state, 0, space_of(state, "tavern", "s"))
    do(state, "basic")
    assert texts(state) == ["take pile 1", "take pile 2"]
    top = state.piles[0][-1]
    do(state, "take pile 1")
    assert state.mage_of[0] == [top] and state.mage_active[top]
    r = space_of(state, "tavern", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special", "take pile 3")
    assert state.keys[0] == 1


def test_tavern_pile_refills_from_the_other_pile_of_its_kind() -> None:
    state = new_game(2)
    state.piles[0] = state.piles[0][-1:]
    other = list(state.piles[1])
    act_at(state, 0, space_of(state, "tavern", "s"))
    do(state, "basic", "take pile 1")
    assert state.piles[0] == [other[0]] and state.piles[1] == other[1:]


def test_catacombs_reveal_gain_and_key_reward() -> None:
    state = new_game(2)
    comp = state.comp
    chest = next(c for c in comp.chests if c.key_reward and c.reward == ((0, 3),))
    state.chest_deck.remove(chest.id)
    state.chest_deck.append(chest.id)
    state.keys[0] = 1
    act_at(state, 0, space_of(state, "catacombs", "s"))
    do(state, "basic")
    assert state.coins[0] == 7 and top_kind(state) is Kind.CHEST_KEY
    do(state, "unlock")
    assert state.coins[0] == 9 and state.keys[0] == 0
    assert state.chest_discard[-1] == chest.id


def test_catacombs_reshuffle_the_discards_when_the_deck_is_empty() -> None:
    state = new_game(2)
    state.chest_discard = state.chest_deck[:]
    state.chest_deck = []
    act_at(state, 0, space_of(state, "catacombs", "s"))
    do(state, "basic")
    assert len(state.chest_deck) == 17 and len(state.chest_discard) == 1


def test_archives_special_takes_two_different_options() -> None:
    state = new_game(2)
    r = space_of(state, "archives", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special", "archive coins")
    assert "archive coins" not in texts(state)
    do(state, "archive circle")
    assert state.coins[0] == 6 and state.circles[0][2] == EMPTY
    assert state.magic[0] == 4  # the left circle's 2 magic, capped at 4


def test_passage_placement_constraints_and_use() -> None:
    state = new_game(2)
    state.keys[0] = 1  # a side action keeps the turn open after the placement
    act_at(state, 0, space_of(state, "archives", "s"))
    do(state, "basic", "archive passage")
    for text in main_texts(state):
        location, square = text.split()[1], text.split()[3]
        assert location != rules.LOCATIONS[state.loc[space(square)]]
    target = space_of(state, "archives", "s")
    kept = [rules.LOCATIONS[x] for x in state.passages_left[0]]
    choice = next(
        t for t in texts(state) if t.endswith(f"at s{target}") and t.split()[1] != "archives"
    )
    do(state, choice)
    assert state.fresh_passage[0] == target
    # Not usable on the turn it is placed.
    assert "passage" not in texts(state)
    assert len(state.passages_left[0]) == len(kept) - 1
    # Another player may not place a passage of the same symbol there.
    location = state.passages[target][0][1]
    act_at(state, 1, space_of(state, "archives", "s"))
    do(state, "basic", "archive passage")
    assert f"passage {rules.LOCATIONS[location]} at s{target}" not in texts(state)


def test_last_passage_bonus_improves_the_archives() -> None:
    state = new_game(2)
    state.passages_left[0] = state.passages_left[0][:1]
    act_at(state, 0, space_of(state, "archives", "s"))
    do(state, "basic", "archive passage")
    do(state, texts(state)[0])
    assert state.improved[0] and state.base[0] == 1 and state.magic[0] == 4
    act_at(state, 0, space_of(state, "archives", "s"))
    do(state, "basic", "archive coins")
    assert state.coins[0] == 8


def test_manufactory_equipment_one_active_per_type_and_set_bonus() -> None:
    state = new_game(2)
    state.coins[0] = 20
    square = space_of(state, "manufactory", "s")
    cards = []
    for kind in ("staff", "staff", "hat", "cloak"):
        act_at(state, 0, square)
        cards.append(state.equip_stacks[("staff", "hat", "cloak").index(kind)][-1])
        do(state, "basic", f"equip {kind}")
    assert state.corks[0] == 4 and state.coins[0] == 20 - 8
    assert not state.equip_up[cards[0]] and state.equip_up[cards[1]]
    assert state.set_bonus[0] and state.base[0] == 1


def test_market_moves_the_assistant_pays_others_and_special_twice() -> None:
    state = new_game(3)
    r = space_of(state, "market", "r")
    set_djinn(state, r)
    state.tent[1] = 0
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "special")
    assert top_kind(state) is Kind.TENT
    do(state, "tent 1", "pay coin")
    assert state.coins[1] == 5
    do(state, "offer 1", "choose red")
    assert state.bottles[0][2] == 1
    assert "tent 1" not in texts(state)  # not the same tent again
    do(state, "tent 2", "offer 4")
    assert state.corks[0] == 1 and state.tent[0] == 1


# -- the magic scale ---------------------------------------------------------------------------


def test_base_marker_refills_magic_at_turn_start() -> None:
    state = new_game(2)
    state.base[1] = 2
    state.magic[1] = 0
    state.pos[1] = space("s1")
    state.came[1] = space("r1")
    act_at(state, 0, space_of(state, "academy", "s"))
    do(state, "end")
    assert state.current == 1 and state.magic[1] == 2


def test_capacity_beyond_eight_flips_the_marker_and_catches_a_random_djinn() -> None:
    state = new_game(2)
    state.capacity[0] = 8
    r = space_of(state, "academy", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    bag = sum(state.bag)
    do(state, "special")
    assert state.flipped[0] and rules.max_magic(state, 0) == 8
    assert top_kind(state) is Kind.PLACE and sum(state.bag) == bag - 1
    do(state, "circle")
    assert sum(1 for c in state.circles[0] if c >= 0) == 1


def test_keys_exchange_for_coin_scroll_or_magic_at_any_time() -> None:
    state = new_game(2)
    state.keys[0] = 3
    act_at(state, 0, space_of(state, "academy", "s"))
    decision = state.decision(0)
    assert decision is not None
    optional = {state.action_to_str(a) for a in decision.optional}
    assert {"key coin", "key scroll", "key magic"} <= optional
    do(state, "key coin", "key scroll", "key magic")
    assert (state.coins[0], state.scrolls[0], state.magic[0], state.keys[0]) == (5, 1, 4, 0)


def test_magic_source_rows() -> None:
    state = new_game(2)
    state.scrolls[0] = 5
    state.magic[0] = 1
    give_mage(state, 0, 5, active=False)
    keep_open(state, 0)
    act_at(state, 0, 0)
    assert main_texts(state) == ["end", "source refill", "source row2"]
    do(state, "source row2")
    assert state.scrolls[0] == 3 and state.corks[0] == 1 and top_kind(state) is Kind.ACTIVATE
    do(state, "activate mage 5", "done", "source refill")
    assert state.mage_active[5] and state.magic[0] == 4 and main_texts(state) == ["end"]


def test_source_bosses_cost_six_magic_each() -> None:
    state = new_game(2)
    state.flipped[0] = True
    state.magic[0] = 8
    supply = state.supply_bosses
    keep_open(state, 0)
    act_at(state, 0, 0)
    do(state, "source bosses", "boss", "circle")
    assert state.magic[0] == 2 and state.supply_bosses == supply - 1 and 4 in state.circles[0]
    assert main_texts(state) == ["done"]  # 2 magic left: no second boss


# -- bosses and trophies ----------------------------------------------------------------------


def test_a_caught_boss_brings_a_free_djinn_and_a_lone_boss_flees() -> None:
    state, r = caught_boss_game()
    do(state, "catch", "select boss", "confirm", "settle", "circle")
    assert state.magic[0] == 0  # 4 + 2 + 2
    assert top_kind(state) is Kind.FREE
    bag = sum(state.bag)
    do(state, "free red", "circle")
    # The boss left: 2 Djinn are drawn for the space (2 players).
    assert state.djinn[r] == [*state.djinn[r][:4], 0] and sum(state.djinn[r][:4]) == 1 + 2
    assert sum(state.bag) == bag - 2


def test_lone_boss_flees_after_its_djinn_are_caught() -> None:
    state = new_game(2)
    r = space("r5")
    set_djinn(state, r, boss=1, red=1)
    supply = state.supply_bosses
    state.magic[0] = 4
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch", "select red", "confirm", "settle", "circle")
    assert state.djinn[r][4] == 0 and state.supply_bosses == supply + 1
    assert sum(state.djinn[r][:4]) == 2


def test_trophies_row_by_row_with_instant_bonus() -> None:
    state = new_game(2)
    state.filled[0] = [9, 0, 0, 0]
    act_at(state, 0, space_of(state, "academy", "s"))
    rows = []
    for _ in range(4):
        claims = [t for t in texts(state) if t.startswith("trophy")]
        if state.filled[0][0] < 3:
            assert not claims
            break
        trophy = int(claims[0].split()[1])
        rows.append(state.comp.trophies[trophy].row)
        do(state, claims[0])
        while top_kind(state) is not Kind.ACT:
            do(state, "done")
    assert rows[:3] == [0, 1, 2]
    assert state.filled[0][0] == 0 and len(state.trophies_of[0]) == 3


def test_a_djinn_moves_from_a_circle_into_a_bottle() -> None:
    state = new_game(2)
    state.circles[0][0] = 2  # red
    state.bottles[0][2] = 1
    state.corks[0] = 1
    act_at(state, 0, space_of(state, "academy", "s"))
    do(state, "seal circle 1 red")
    assert state.circles[0][0] == EMPTY and state.filled[0][2] == 1


# -- the end ----------------------------------------------------------------------------------


def _end_turns(state: object) -> None:
    """Play turns with the cheapest choices until the game ends."""
    from arabesque.games.djinn.state import DjinnState

    assert isinstance(state, DjinnState)
    guard = 0
    while not state.is_over and guard < 5000:
        (seat,) = state.to_act()
        decision = state.decision(seat)
        assert decision is not None
        state.apply(seat, decision.default)
        guard += 1


def test_end_of_game_finishes_the_round_plays_one_more_and_the_final_source() -> None:
    state = new_game(3, seed=4)
    for r in range(7, 13):
        state.djinn[r][4] = 0
    r = space("r5")
    set_djinn(state, r, boss=1)  # will flee once caught... make the catch the last boss's
    state.djinn[r][1] = 1
    state.bag[1] -= 1
    seat = (state.first + 1) % 3
    state.pos[(seat + 1) % 3] = space("s1")
    state.came[(seat + 1) % 3] = space("r1")
    state.magic[seat] = 4
    keep_open(state, seat)
    act_at(state, seat, r)
    do(state, "catch", "select brown", "confirm", "settle", "circle")
    assert state.stage == FINISH_ROUND
    do(state, "end")
    turns = []
    while state.stage in (FINISH_ROUND, LAST_ROUND):
        (p,) = state.to_act()
        if not turns or turns[-1] != (state.stage, p, state.turns):
            turns.append((state.stage, p, state.turns))
        decision = state.decision(p)
        assert decision is not None
        state.apply(p, decision.default)
    finishing = [p for stage, p, _ in turns if stage == FINISH_ROUND]
    last = [p for stage, p, _ in turns if stage == LAST_ROUND]
    assert finishing == [(seat + 1) % 3]
    assert last == [(state.first + i) % 3 for i in range(3)]
    assert state.stage == FINAL_SOURCE and state.tflags & 64
    assert all(pos == 0 for pos in state.pos[: state.current + 1])
    _end_turns(state)
    assert state.is_over


# -- solo ------------------------------------------------------------------------------------


def test_solo_tom_places_a_djinn_where_his_first_location_has_a_boss() -> None:
    state = new_game(1, seed=2)
    card = next(c for c in state.comp.tom_cards if not c.nothing)
    state.tom_deck.remove(card.id)
    state.tom_deck.append(card.id)
    r = rules.round_space(state, card.first)
    before = sum(state.djinn[r][:4])
    rules.tom_turn(state)
    assert sum(state.djinn[r][:4]) == before + 1 and state.tom_revealed == [card.id]


def test_solo_tom_makes_the_player_pay_when_no_listed_space_has_a_boss() -> None:
    state = new_game(1, seed=2)
    card = next(c for c in state.comp.tom_cards if not c.nothing and c.pay == ((0, 1),))
    for location in (card.first, card.second):
        state.djinn[rules.round_space(state, location)][4] = 0
    state.tom_deck.remove(card.id)
    state.tom_deck.append(card.id)
    rules.tom_turn(state)
    assert state.coins[0] == 3


def test_solo_loss_when_toms_last_card_is_revealed() -> None:
    state = new_game(1, seed=3)
    state.tom_deck = state.tom_deck[-1:]
    r = space_of(state, "academy", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "basic")  # then the lone "end" is applied at once (ruling D25)
    assert state.is_over and state.won is False and state.returns() == [0.0]


def test_solo_win_flips_toms_next_card_then_the_final_source_and_scores_cards_left() -> None:
    state = new_game(1, seed=3)
    for r in range(7, 13):
        state.djinn[r][4] = 0
    r = space("r5")
    set_djinn(state, r, boss=1, red=1)
    state.magic[0] = 4
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch", "select red", "confirm", "settle", "circle")
    assert state.stage == FINISH_ROUND
    left = len(state.tom_deck)
    do(state, "end")
    assert state.won is True and state.stage == FINAL_SOURCE and len(state.tom_deck) == left - 1
    do(state, "end")
    assert state.is_over and state.scores()[0].breakdown["tom"] == 10 * (left - 1)
    assert state.returns() == [1.0]
    assert state.view(0)["tom"]["tasks"]


def test_illegal_action_is_refused_with_the_state_unchanged() -> None:
    state = new_game(2)
    before = state.fingerprint()
    with pytest.raises(IllegalActionError):
        state.apply(state.current, state.parse_action("catch"))
    assert state.fingerprint() == before
    assert state.stage == PLAYING


def test_the_free_djinn_decision_lists_done_first_and_keeps_it_as_default() -> None:
    """A caught boss's free Djinn (Kind.FREE) offered ``[free ..., done]``, not ascending as
    the core's contract says (``done`` is action 1); now ``done`` comes first, the labels follow
    the options, and the default is still ``done``."""
    spec = get_game("djinn")
    seen = 0
    for seed in range(40):
        state = spec.new_game(spec.make_params(num_players=2), seed=seed)
        rng = random.Random(seed)
        while not state.is_over and seen < 3:
            seat = min(state.to_act())
            decision = state.decision(seat)
            assert decision is not None
            if decision.kind is Kind.FREE:
                seen += 1
                done = state.L.base["done"]
                options = list(state.legal_actions(seat))
                assert options == sorted(set(options)) and options[0] == done
                assert list(decision.options) == options and decision.default == done
                main = [
                    text
                    for action, text in zip(decision.options, decision.labels, strict=True)
                    if action not in decision.optional
                ]
                assert main[0] == "done" and all(text.startswith("take ") for text in main[1:])
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if seen >= 3:
            return
    pytest.fail("no free-Djinn decision in 40 random games")
