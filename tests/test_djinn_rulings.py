"""Each ruling of docs/rulings/djinn.md, held by a test named after it."""

from __future__ import annotations

from arabesque.games.djinn import rules
from arabesque.games.djinn.actions import SOURCE, SPACE_NAMES
from arabesque.games.djinn.components import (
    EQUIP_TYPES,
    LOCATIONS,
    EquipmentCard,
    reward_json,
)
from arabesque.games.djinn.state import COVERED, EMPTY, DjinnState, Kind
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


def test_d1_a_move_never_passes_the_same_space_twice() -> None:
    state = new_game(4)
    state.pos[1], state.pos[2], state.pos[3] = space("r2"), space("s5"), space("r5")
    # Each at the edge the move arrives at (ruling D27).
    state.came[1], state.came[2], state.came[3] = space("s1"), space("r2"), space("s5")
    state.coins[0] = state.scrolls[0] = 0
    keep_open(state, 0)
    move_from(state, 0, space("s1"), came=space("r1"))
    do(state, "move r2", "skip", "move s5", "skip")
    assert "move r2" not in texts(state)


def test_d2_a_mage_that_cannot_complete_a_move_stops_without_paying() -> None:
    state = new_game(4)
    # s1's onward spaces r2 and r4 taken; every way on is blocked or passed.
    state.pos[1], state.pos[2], state.pos[3] = space("r2"), space("r4"), space("s5")
    state.came[1] = state.came[2] = space("s1")  # at the edges a move from s1 arrives at
    state.coins[0] = state.scrolls[0] = 0
    state.adj = tuple(
        (space("r1"), space("r2"), space("r4")) if s == space("s1") else
        ((space("s1"),) if s in (space("r2"), space("r4")) else a)
        for s, a in enumerate(state.adj)
    )  # fmt: skip
    move_from(state, 0, space("s1"), came=space("r1"))
    assert top_kind(state) is Kind.MOVE and state.stack.top is not None
    assert state.stack.top.context[3] == 1  # stuck
    do(state, "move r2")
    assert state.pos[0] == space("r2") and state.coins[1] == 4


def test_d3_a_boss_takes_each_cards_best_colour_bonus() -> None:
    state = new_game(2)
    give_mage(state, 0, 0)  # power 3, blue +1, brown +1
    assert rules.card_power(state, 0, 0, (0, 0, 0, 0, 1)) == 4


def test_d4_the_first_placement_pays_nobody() -> None:
    state = new_game(2)
    other = 1 - state.current
    state.pos[other] = space("s1")
    do(state, "start s1 via r1")
    assert state.coins[other] == 4 and top_kind(state) is Kind.ACT


def test_d5_an_empty_tavern_pile_takes_the_bottom_card_of_the_other() -> None:
    state = new_game(2)
    state.piles[2] = state.piles[2][-1:]
    bottom, top = state.piles[3][0], state.piles[3][-1]
    r = space_of(state, "tavern", "r")
    set_djinn(state, r)
    act_at(state, 0, r)
    do(state, "special", "take pile 3")
    assert state.piles[2] == [bottom] and state.piles[3][-1] == top


def test_d6_a_second_card_of_a_type_is_active_and_the_first_flipped() -> None:
    state = new_game(2)
    state.coins[0] = 10
    first = state.equip_stacks[0][-1]
    act_at(state, 0, space_of(state, "manufactory", "s"))
    do(state, "basic", "equip staff")
    second = state.equip_stacks[0][-1]
    act_at(state, 0, space_of(state, "manufactory", "s"))
    do(state, "basic", "equip staff")
    assert state.equip_up[second] and not state.equip_up[first]


def test_d7_trophy_bottles_and_corks_return_to_the_supply() -> None:
    state = new_game(2)
    state.filled[0][1] = 2
    state.filled_boss[0][1] = 1
    bank = list(state.bank)
    act_at(state, 0, space_of(state, "academy", "s"))
    claim = next(t for t in texts(state) if t.startswith("trophy") and t.endswith("brown"))
    do(state, claim)
    assert state.bank[2] == bank[2] + 3 and state.bank[3] == bank[3] + 3
    assert state.discarded[1] == 2 and state.discarded[4] == 1


def test_d8_keys_and_trophies_are_offered_inside_a_catch() -> None:
    """Keys, trophies and the other side actions may be used at any time on the turn, also
    between the steps of a catch: a key turned into magic makes a Djinn catchable."""
    state = new_game(2)
    r = space("r4")
    set_djinn(state, r, red=1)
    state.magic[0] = 3
    state.filled[0][0] = 3
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch")
    assert top_kind(state) is Kind.CATCH_SELECT
    assert "select red" not in texts(state) and "key magic" in texts(state)
    assert any(t.startswith("trophy") for t in texts(state))
    do(state, "key magic")
    assert state.magic[0] == 4 and "select red" in texts(state)


def test_d8_a_card_reactivated_inside_a_catch_is_not_used_twice() -> None:
    """A trophy's bonus may activate Mage cards in the middle of a catch, but a card whose
    power was used in this catch cannot add it again (once per action)."""
    state = new_game(2)
    r = space("r4")
    set_djinn(state, r, red=1)
    give_mage(state, 0, 4)  # power 2, cost 1, no colour bonus
    state.magic[0] = 2
    state.filled[0][0] = 3
    state.trophy_rows[0] = [5]  # row I: activate up to 2 Mage cards
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch", "select red", "confirm", "use mage 4")
    assert not state.mage_active[4]
    do(state, "trophy 5 blue", "activate mage 4", "done")
    assert state.mage_active[4] and top_kind(state) is Kind.CATCH_PAY
    assert "use mage 4" not in texts(state) and "settle" in texts(state)
    do(state, "settle")
    assert state.magic[0] == 0 and state.mage_active[4]


def test_d8_a_bottle_trade_inside_a_catch_keeps_the_caught_djinn_placeable() -> None:
    state = new_game(2)
    r = space("r4")
    set_djinn(state, r, red=1)
    state.circles[0][:2] = [0, 0]  # both circles hold blue Djinn
    state.bottles[0][0] = state.bottles[0][2] = 1  # a blue and a red bottle
    state.corks[0] = 1
    state.magic[0] = 4
    trade = next(e.id for e in state.comp.equipment if e.effect == "bottle_trade")
    state.equip_owner[trade], state.equip_up[trade] = 0, True
    state.equip_of[0].append(trade)
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch", "select red", "confirm", f"use equipment {trade}")
    options = main_texts(state)
    assert "trade blue for yellow" in options
    assert not any(t.startswith("trade red") for t in options)  # the red one is needed


def test_d8_a_random_djinn_inside_a_catch_keeps_the_catch_placeable() -> None:
    """A Djinn drawn for the player while a catch is open (a reward raising the capacity past
    8) may not take the only place left for the Djinn being caught: it can only go back."""
    state = new_game(2)
    r = space("r4")
    set_djinn(state, r, red=1)
    state.circles[0][1] = 0  # one empty circle left, no bottles
    state.magic[0] = 4
    keep_open(state, 0)
    act_at(state, 0, r)
    do(state, "catch", "select red", "confirm")
    rules.queue(state, 0, ((rules.RDJ, 1),))
    rules.refresh(state)
    assert top_kind(state) is Kind.PLACE and main_texts(state) == ["release"]
    do(state, "release", "settle", "circle")
    assert state.circles[0][0] == 2 and state.djinn[r][2] == 0


def test_d9_a_covered_circle_is_activated_first_for_two_magic() -> None:
    state = new_game(2)
    state.circles[0][1] = COVERED
    state.magic[0] = 0
    rules.activate_circle(state, 0)
    rules.refresh(state)
    assert state.circles[0][1] == EMPTY and state.magic[0] == 2


def test_d10_the_scholar_pays_activations_with_academy_magic() -> None:
    state = new_game(2)
    state.fx[0] = frozenset({"academy_activate"})
    give_mage(state, 0, 4, active=False)
    state.magic[0] = 0
    act_at(state, 0, space_of(state, "academy", "s"))
    do(state, "basic", "activate mage 4")
    assert state.mage_active[4] and state.magic[0] == 2


def test_d11_no_forfeit_at_the_magic_source() -> None:
    state = new_game(2)
    act_at(state, 0, 0)
    assert not any(t.startswith("forfeit") for t in texts(state))


def test_d12_solo_returns_win_or_loss() -> None:
    state = new_game(1)
    state.won = False
    assert state.returns() == [0.0]
    state.won = True
    assert state.returns() == [1.0]


def test_d13_tom_takes_as_much_as_the_player_has() -> None:
    state = new_game(1, seed=2)
    card = next(c for c in state.comp.tom_cards if not c.nothing and c.pay == ((0, 2),))
    state.coins[0] = 1
    rules.tom_pay(state, card.id)
    assert state.coins[0] == 0


def test_d14_the_round_cap_starts_the_last_round() -> None:
    state = new_game(2, max_rounds=1)
    while state.round == 1:
        (p,) = state.to_act()
        decision = state.decision(p)
        assert decision is not None
        state.apply(p, decision.default)
    assert state.stage == 2  # LAST_ROUND


def test_d15_random_games_stay_within_the_declared_bound() -> None:
    from arabesque.core import conformance as kit

    final = kit.random_playout(new_game(4).spec, new_game(4).params, seed=9)
    assert len(final.history) <= final.spec.max_game_length(final.params)


def test_d16_bosses_caught_at_the_source_do_not_start_the_end() -> None:
    state = new_game(2)
    state.flipped[0] = True
    state.magic[0] = 8
    act_at(state, 0, 0)
    do(state, "source bosses", "boss")  # into the only place: a circle (applied at once)
    # Caught from the supply beside the board.
    assert state.supply_bosses == 1 and state.circles[0][0] == 4
    assert state.stage == 0 and sum(state.djinn[r][4] for r in range(7, 13)) == 6


def test_d17_a_mage_card_reward_brings_its_key() -> None:
    state = new_game(2)
    rules.queue(state, 0, ((rules.RMAGE, 1),))
    rules.refresh(state)
    do(state, "take pile 3")
    assert state.keys[0] == 1


def test_d18_the_market_is_offered_only_where_an_offer_is_affordable() -> None:
    state = new_game(2)
    state.coins[0] = 0
    state.scrolls[0] = 0
    act_at(state, 0, space_of(state, "market", "s"))
    assert "basic" not in texts(state)


def test_d19_the_free_djinn_is_optional() -> None:
    state, r = caught_boss_game()
    do(state, "catch", "select boss", "confirm", "settle", "circle", "done")
    assert state.djinn[r][2] >= 2


def test_d20_a_random_djinn_may_be_let_go() -> None:
    state = new_game(2)
    state.capacity[0] = 8
    state.flipped[0] = True
    bag = sum(state.bag)
    rules.queue(state, 0, ((rules.RCAP, 1),))
    rules.refresh(state)
    do(state, "release")
    assert sum(state.bag) == bag


def test_d21_one_and_two_players_use_the_grouped_market() -> None:
    state = new_game(2)
    places = state.comp.market_places(2)
    assert len(places) == 4 and sorted(t for p in places for t in p) == list(range(6))


def test_d22_one_key_per_chest() -> None:
    state = new_game(2)
    chest = next(c for c in state.comp.chests if c.key_reward)
    state.keys[0] = 3
    rules.queue(state, 0, ((rules.I_CHEST, chest.id),))
    rules.refresh(state)
    while top_kind(state) is not Kind.CHEST_KEY:
        do(state, texts(state)[0])
    do(state, "unlock")
    assert state.keys[0] == 2
    assert top_kind(state) is not Kind.CHEST_KEY


def test_d23_no_passage_at_the_magic_source() -> None:
    state = new_game(2)
    act_at(state, 0, space_of(state, "archives", "s"))
    do(state, "basic", "archive passage")
    assert all(" at s" in t for t in texts(state))


def _trophy_claims(state: DjinnState, seat: int) -> list[str]:
    return [t for t in texts(state, seat) if t.startswith("trophy")]


def test_d27_a_mage_at_another_edge_of_the_space_costs_nothing() -> None:
    """Rulebook §A PLAYER'S TURN, Exception: only "a Mage present at this edge" of the space
    is paid. Player 1 stands at r2's edge from s2; player 0 arrives from s1, at another edge,
    and acts there at once, paying nobody (under the old ruling it had to pay or skip)."""
    state = new_game(3)
    keep_open(state, 0)
    state.pos[1], state.came[1] = space("r2"), space("s2")
    coins, scrolls = state.coins[1], state.scrolls[1]
    move_from(state, 0, space("s1"), came=space("r1"))
    assert "move r2" in main_texts(state)
    do(state, "move r2")
    assert top_kind(state) is Kind.ACT and state.pos[0] == space("r2")
    assert state.came[0] == space("s1")
    assert (state.coins[1], state.scrolls[1]) == (coins, scrolls)


def test_d27_worked_example_pay_the_mage_at_the_arrival_edge_or_skip() -> None:
    """Rulebook §A PLAYER'S TURN, Exception, worked through on a 4-player map. Player 0 stands
    at s1 (came from r1) and moves to r2. At r2 stand player 1, who came from the Magic
    Source, and player 2, who came from s1: the edge player 0 arrives at. Stopping costs
    one coin or scroll, to player 2 only; player 1, at another edge, is paid nothing."""
    state = new_game(4)
    keep_open(state, 0)
    state.pos[1], state.came[1] = space("r2"), space("source")
    state.pos[2], state.came[2] = space("r2"), space("s1")
    before = [(state.coins[q], state.scrolls[q]) for q in range(4)]
    move_from(state, 0, space("s1"), came=space("r1"))
    assert state.decision(0) is not None
    assert "move r2" in main_texts(state)
    do(state, "move r2")
    assert top_kind(state) is Kind.JUMP and main_texts(state) == ["stop", "skip"]
    do(state, "stop", "pay coin")
    assert state.coins[0] == before[0][0] - 1
    assert (state.coins[2], state.scrolls[2]) == (before[2][0] + 1, before[2][1])
    assert (state.coins[1], state.scrolls[1]) == before[1]  # another edge: nothing
    assert top_kind(state) is Kind.ACT and state.pos[0] == space("r2")
    assert state.came[0] == space("s1")  # beside player 2, at the same edge


def test_d27_a_skip_arrives_at_the_edge_of_the_space_skipped_from() -> None:
    """Rulebook §A PLAYER'S TURN, Exception (skip): skipping r2 moves on to a next space, and
    arrives at its edge from r2. A mage at s2's edge from r2 must be paid or skipped in turn;
    one at s5's edge from r6 costs nothing."""
    state = new_game(4)
    keep_open(state, 0)
    state.pos[1], state.came[1] = space("r2"), space("s1")
    state.pos[2], state.came[2] = space("s2"), space("r2")
    state.pos[3], state.came[3] = space("s5"), space("r6")
    move_from(state, 0, space("s1"), came=space("r1"))
    do(state, "move r2", "skip")
    assert top_kind(state) is Kind.MOVE
    assert main_texts(state) == ["move source", "move s2", "move s5"]
    do(state, "move s2")
    assert top_kind(state) is Kind.JUMP  # player 2 stands at the edge from r2
    move_from(state, 0, space("s1"), came=space("r1"))
    coins = [state.coins[q] for q in range(4)]
    do(state, "move r2", "skip", "move s5")
    assert top_kind(state) is Kind.ACT and state.pos[0] == space("s5")
    assert [state.coins[q] for q in range(4)] == coins


def test_d27_a_player_without_coins_or_scrolls_may_stop_beside_another_edge() -> None:
    """Rulebook §A PLAYER'S TURN, Exception: with nothing to pay, a space whose only mage is
    at another edge is still a place to stop; one with a mage at the arrival edge is not."""
    state = new_game(3)
    keep_open(state, 0)
    state.coins[0] = state.scrolls[0] = 0
    state.pos[1], state.came[1] = space("r2"), space("s5")  # another edge
    state.pos[2], state.came[2] = space("r4"), space("s1")  # the arrival edge from s1
    move_from(state, 0, space("s1"), came=space("r1"))
    do(state, "move r2")
    assert top_kind(state) is Kind.ACT and state.pos[0] == space("r2")
    move_from(state, 0, space("s1"), came=space("r1"))
    do(state, "move r4")
    # Cannot pay player 2: skipping on is the only way.
    assert top_kind(state) is Kind.JUMP and main_texts(state) == ["skip"]


def test_d27_the_magic_source_has_an_edge_per_path() -> None:
    """The Magic Source is a space like the others (D27): a mage that came from r1 is at
    another edge than the one a mage from r2 arrives at."""
    state = new_game(3)
    keep_open(state, 0)
    state.pos[1], state.came[1] = SOURCE, space("r1")
    move_from(state, 0, space("r2"), came=space("s1"))
    do(state, "move source")
    assert top_kind(state) is Kind.ACT and state.pos[0] == SOURCE
    state.pos[2], state.came[2] = SOURCE, space("r2")
    move_from(state, 0, space("r2"), came=space("s1"))
    do(state, "move source")
    assert top_kind(state) is Kind.JUMP


def test_d27_a_move_option_names_only_the_mages_at_its_arrival_edge() -> None:
    """The move's label says who would be paid: the mages at the edge it arrives at."""
    state = new_game(4)
    keep_open(state, 0)
    state.pos[1], state.came[1] = space("r2"), space("source")
    state.pos[2], state.came[2] = space("r2"), space("s1")
    move_from(state, 0, space("s1"), came=space("r1"))
    decision = state.decision(0)
    assert decision is not None
    label = decision.labels[decision.options.index(state.parse_action("move r2"))]
    assert label.endswith("taken by player 2"), label


def test_d27_the_tensor_and_the_view_show_the_edge_each_mage_stands_at() -> None:
    """What a move would cost is public: the observation tensor (``space_mages`` with
    ``mage_edges``) and the JSON view (``players[q].came_from``) give each mage's edge, so a
    seat reads who it would pay without the state (docs/observations.md)."""
    state = new_game(4)
    state.pos[1], state.came[1] = space("r2"), space("source")
    state.pos[2], state.came[2] = space("r2"), space("s1")
    move_from(state, 0, space("s1"), came=space("r1"))
    layout = state.observer.layout
    n, spaces = 4, len(SPACE_NAMES)
    for seat in (0, 3, None):
        obs = state.observation(seat)
        mages = obs[layout["space_mages"]].reshape(spaces, n)
        edges = obs[layout["mage_edges"]].reshape(n, spaces)
        at_r2 = [q for q in range(n) if mages[space("r2"), q]]
        assert at_r2 == [1, 2]
        payees = [q for q in at_r2 if q != 0 and edges[q, space("s1")]]
        assert payees == [2] == list(rules.occupants(state, 0, space("r2"), space("s1")))
        assert edges[0, space("r1")] == 1 and edges[0].sum() == 1
        view = state.view(seat, include_log=False)
        assert [p["came_from"] for p in view["players"]] == ["r1", "source", "s1", None]


def test_d30_an_emptied_trophy_row_passes_the_claim_to_the_next_row() -> None:
    """Others' extra claims have emptied row I before seat 0's first claim: it comes from
    row II; with rows I and II empty, from row III; with every row empty there is none."""
    state = new_game(2)
    row_ii, row_iii = list(state.trophy_rows[1]), list(state.trophy_rows[2])
    state.trophy_rows[0] = []  # seat 1 took the last of row I with its 4th and 5th claims
    state.filled[0][1] = 3  # three brown Djinn bottled
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "academy", "s"))
    assert state.claims[0] == 0
    assert sorted(_trophy_claims(state, 0)) == sorted(f"trophy {t} brown" for t in row_ii)
    state.trophy_rows[1] = []
    rules.refresh(state)
    assert sorted(_trophy_claims(state, 0)) == sorted(f"trophy {t} brown" for t in row_iii)
    do(state, f"trophy {row_iii[0]} brown")
    # It was the 1st claim whichever row it came from: the 2nd is due from row II.
    assert state.claims[0] == 1 and state.trophies_of[0] == [row_iii[0]]
    state.filled[0][1] = 3
    state.trophy_rows[1] = row_ii[:1]
    rules.refresh(state)
    assert _trophy_claims(state, 0) == [f"trophy {row_ii[0]} brown"]
    state.trophy_rows[1] = state.trophy_rows[2] = []
    rules.refresh(state)
    assert _trophy_claims(state, 0) == []


def test_d30_an_emptied_third_row_leaves_the_third_claim_free() -> None:
    """No row after row III: a 3rd claim with row III empty is as free as a 4th one."""
    state = new_game(2)
    state.claims[0] = 2
    state.trophy_rows[0], state.trophy_rows[2] = state.trophy_rows[0][:1], []
    state.filled[0][2] = 3
    keep_open(state, 0)
    act_at(state, 0, space_of(state, "academy", "s"))
    left = [*state.trophy_rows[0], *state.trophy_rows[1]]
    assert sorted(_trophy_claims(state, 0)) == sorted(f"trophy {t} red" for t in left)


def _manufactory_reward_card(state: DjinnState) -> EquipmentCard:
    return next(
        card
        for card in state.comp.equipment
        if card.effect == "location_reward" and LOCATIONS[card.location] == "manufactory"
    )


def test_d31_the_first_placement_counts_for_a_location_reward() -> None:
    """On the very first turn the mage, placed next to the square Manufactory, takes the
    Equipment card that rewards the Manufactory: its reward comes at once (rulebook
    §Equipment cards, the note on the Manufactory)."""
    state = new_game(2)
    seat = state.current
    card = _manufactory_reward_card(state)
    stack = state.equip_stacks[card.type]
    stack.remove(card.id)
    stack.append(card.id)  # on top of its stack
    square = space_of(state, "manufactory", "s")
    way_in = next(r for r in state.adj[square] if r != SOURCE)
    before = {k: getattr(state, k)[seat] for k in ("coins", "scrolls", "corks", "magic", "keys")}
    assert top_kind(state) is Kind.START
    do(state, f"start {SPACE_NAMES[square]} via {SPACE_NAMES[way_in]}", "basic")
    do(state, f"equip {EQUIP_TYPES[card.type]}")
    expected = dict(before, coins=before["coins"] - 2, corks=before["corks"] + 1)
    for name, amount in reward_json(card.reward).items():
        expected[name] += amount
    assert {k: getattr(state, k)[seat] for k in expected} == expected


def test_d31_a_card_held_at_the_first_placement_rewards_it() -> None:
    """Hand-set (no card can be held before the first turn in a real game): the placement
    is an arrival for location rewards, as it is for the action of the space."""
    state = new_game(2)
    seat = state.current
    card = _manufactory_reward_card(state)
    state.equip_stacks[card.type].remove(card.id)
    state.equip_owner[card.id] = seat
    state.equip_up[card.id] = True
    state.equip_of[seat].append(card.id)
    keep_open(state, seat)
    square = space_of(state, "manufactory", "s")
    way_in = next(r for r in state.adj[square] if r != SOURCE)
    before = {k: getattr(state, k)[seat] for k in reward_json(card.reward)}
    do(state, f"start {SPACE_NAMES[square]} via {SPACE_NAMES[way_in]}")
    assert top_kind(state) is Kind.ACT
    after = {k: getattr(state, k)[seat] for k in before}
    assert after == {k: v + reward_json(card.reward)[k] for k, v in before.items()}
