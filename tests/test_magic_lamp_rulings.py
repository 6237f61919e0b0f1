"""One test per Magic Lamp ruling (docs/rulings/magic-lamp.md, R1..R20), named after it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arabesque.core import GameRecord
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, JEWELS, Components, load_components
from arabesque.games.magic_lamp.state import LONE, NO_RUB, MagicLampState, Phase
from tests.scenarios import (
    BRONZE,
    GOLD,
    assert_conserved,
    card_options,
    chest_stones,
    choose,
    clear_holdings,
    custom_components,
    default_comp,
    draw,
    event_kinds,
    events,
    find_card,
    find_cards,
    find_n,
    give,
    keep_only_on_top,
    lamp_card,
    new_game,
    pending,
    place_talisman,
    safe_run,
    score,
    set_holdings,
    stop,
    turn,
    with_components,
)


def test_R1_sorcerer_counts_toward_die_and_draw_continues() -> None:
    """R1: the Sorcerer uses up one of the die's draws, carries no scorpion, and the player
    may draw on; the cave closes and the game ends at the end of the turn. A kept Sorcerer
    is worth 0 points."""
    comp = default_comp()
    sorcerer = comp.sorcerer_of(BRONZE)
    assert comp.cards[sorcerer].scorpions == 0
    safe = chest_stones(comp, BRONZE, 3)
    state = new_game(3, decks={"bronze": [safe[0], sorcerer, safe[1], safe[2]]})
    turn(state, {0: ("bronze", 3), 1: ("gold", 1), 2: ("gold", 1)})
    draw(state, 2, player=0)
    assert state.cave_closed
    assert pending(state)[:2] == ("draw", 0), "the draw goes on after the Sorcerer"
    assert state.draw_ctx is not None and state.draw_ctx[4] == 0
    draw(state, 1, player=0)  # the third card is the last a 3 allows
    assert state.holdings[0][-3:] == [safe[0], sorcerer, safe[1]]
    assert state.decks[BRONZE][-1] == safe[2]
    assert state.is_over
    assert score(state, 0)["cards"] == len(state.holdings[0]) - 1


def stinger_before_gold(comp: Components) -> int:
    """A stone or jewel of bronze or silver with 2 to 6 scorpions: drawn right after the
    Sorcerer with a die of its scorpion count, it busts a draw of two cards."""
    return next(
        c
        for c in find_cards(comp, kind="treasure", min_scorpions=2, max_scorpions=6)
        if comp.cards[c].chest != GOLD
    )


def test_R1_busted_sorcerer_goes_to_the_discard_and_the_cave_stays_closed() -> None:
    """R1: a bust sends the Sorcerer to the discard pile with the rest of the draw; the cave
    stays closed and the other chests are still searched this turn."""
    path, comp, stinger = with_components(stinger_before_gold)
    chest = comp.cards[stinger].chest
    assert chest is not None
    sorcerer = comp.sorcerer_of(chest)
    gold = chest_stones(comp, GOLD, 1)
    state = new_game(3, components=path, decks={CHESTS[chest]: [sorcerer, stinger], "gold": gold})
    s = comp.cards[stinger].scorpions
    turn(state, {0: (CHESTS[chest], s), 1: ("gold", 1), 2: (CHESTS[3 - chest - GOLD], 6)})
    stop_all_draws_before(state, 0)
    draw(state, 2, player=0)
    assert {sorcerer, stinger} <= set(state.discard)
    assert state.cave_closed and not state.is_over
    stop_all_draws_before(state, 1)
    draw(state, 1, player=1)  # gold is still searched
    assert state.holdings[1][-1] == gold[0]
    assert state.is_over


def stop_all_draws_before(state: MagicLampState, player: int) -> None:
    """Stop every search until ``player`` is to draw."""
    while pending(state)[:2] != ("draw", player):
        stop(state)


def test_R2_chest_runs_out_draw_ends_and_empty_chest_is_skipped() -> None:
    """R2: a draw ends, its cards kept, when the chest empties; an empty chest is skipped;
    a Lamp card drawing from an empty chest gives nothing; the Lamp pile never runs out."""
    comp = default_comp()
    windfall = lamp_card(comp, "draw_chest", chest="bronze")
    state = new_game(3, lamp=[windfall])
    last = chest_stones(comp, BRONZE, 2)
    keep_only_on_top(state, BRONZE, last)
    assert_conserved(state)
    turn(state, {0: ("bronze", 4), 1: ("gold", 1), 2: ("gold", 1)})
    draw(state, 2, player=0)
    assert state.decks[BRONZE] == []
    assert state.holdings[0][-2:] == last
    assert events(state, "draw_kept")[0]["count"] == 2
    assert state.phase is Phase.SETTING and state.turn == 2

    held = list(state.holdings[0])
    turn(state, {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 6)}, rubs={0: 100})
    choose(state, "accept", player=0)  # the windfall: nothing to draw
    assert state.holdings[0] == held
    assert [e["chest"] for e in events(state, "chest_empty")] == ["bronze", "bronze"]
    assert pending(state)[:2] == ("draw", 1), "bronze was skipped: silver is searched"
    assert len(state.lamp_deck) == len(comp.lamp_cards)
    assert state.view(None)["chests"][BRONZE]["cards_left"] == 0


def test_R3_mistaken_rub_with_nothing_to_steal_calms_the_genie() -> None:
    """R3: a mistaken rubber with no stealable card (nothing, or only talismans, complete
    sets and the ring) names nobody; nothing happens."""
    comp = default_comp()
    bronze_set = [find_card(comp, kind="jewel", metal="bronze", jewel=j) for j in JEWELS]
    talisman = find_card(comp, kind="talisman")
    for holdings in ([], [*bronze_set, talisman]):
        state = new_game(3, my_precious=True)
        set_holdings(state, {0: holdings})
        state.ring = 0
        if holdings:
            place_talisman(state, talisman, LONE)
        turn(state, {0: ("bronze", 1), 1: ("silver", 2), 2: ("gold", 3)}, rubs={0: 120})
        assert state.race_result is not None and state.race_result["mistaken"] == [0]
        assert events(state, "genie_calm")[0]["player"] == 0
        assert "genie_angry" not in event_kinds(state)
        assert pending(state)[:2] == ("draw", 0)
        assert state.holdings[0] == holdings


def test_R4_two_player_both_dice_match_each_face_its_own_race() -> None:
    """R4: at 2 players, each face shown by both players is its own race, lowest first; a
    player wins at most one race, the next-fastest taking the others."""
    dice = {0: [("bronze", 3), ("silver", 5)], 1: [("gold", 3), ("bronze", 5)]}
    state = new_game(2)
    turn(state, dice, rubs={0: 150, 1: 400})
    assert state.race_result is not None
    assert [(r["face"], r["winner"]) for r in state.race_result["races"]] == [(3, 0), (5, 1)]
    assert state.summoners == [0, 1]

    # Player 1 did not rub: the 5 race has nobody left.
    state = new_game(2)
    turn(state, dice, rubs={0: 150})
    assert state.race_result is not None
    assert [(r["face"], r["winner"]) for r in state.race_result["races"]] == [(3, 0), (5, None)]
    assert state.summoners == [0]


def test_R5_equal_reaction_times_broken_by_the_seeded_rng_and_replayed() -> None:
    """R5: rubs are recorded to 10 ms; equal fastest times are broken by the game's seeded
    generator, the log says so, and a replay reproduces the winner."""
    assert A.rub(301) == A.rub(300) and A.rub(296) == A.rub(300)
    winners = set()
    for seed in range(16):
        state = new_game(3, seed=seed)
        turn(state, {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 1)}, rubs={0: 300, 1: 300})
        assert state.race_result is not None
        race = state.race_result["races"][0]
        assert race["tie"] == [0, 1]
        assert events(state, "race")[0]["races"][0]["tie"] == [0, 1]
        winners.add(race["winner"])
        text = json.dumps(state.record().to_json())
        again = GameRecord.from_json(json.loads(text)).replay()
        assert again.fingerprint() == state.fingerprint()
        assert again.summoners == state.summoners
    assert winners == {0, 1}


def test_R6_lamp_draws_ignore_scorpions_and_place_talismans_at_once() -> None:
    """R6: a Lamp card's chest cards come without the scorpion check; a talisman gained so is
    placed at once (before the search)."""
    comp = default_comp()
    windfall = lamp_card(comp, "draw_chest", chest="gold")
    stinger = max(comp.chest_cards[GOLD], key=lambda c: comp.cards[c].scorpions)
    talisman = find_card(comp, kind="talisman", chest="gold")
    stones = [find_card(comp, kind="stone", stone=t, starting=True) for t in ("ruby", "emerald")]

    state = new_game(3, decks={"gold": [stinger]}, lamp=[windfall])
    turn(state, {0: ("bronze", 1), 1: ("silver", 1), 2: ("gold", 6)}, rubs={0: 100})
    choose(state, "accept", player=0)
    assert stinger in state.holdings[0] and not events(state, "bust")

    state = new_game(3, decks={"gold": [talisman]}, lamp=[windfall])
    set_holdings(state, {0: stones})
    turn(state, {0: ("bronze", 1), 1: ("silver", 1), 2: ("gold", 6)}, rubs={0: 100})
    choose(state, "accept", player=0)
    assert pending(state) == ("talisman", 0, ["stone ruby", "stone emerald"])
    assert not events(state, "search")
    choose(state, "stone emerald")
    assert state.talisman_on[talisman] == comp.stone_types.index("emerald")


def test_R7_game_ends_at_once_while_a_talisman_waits_stays_alone() -> None:
    """R7: when a Lamp card's Sorcerer ends the game at once, a talisman the same card gave
    and that was not yet placed stays alone (1 point)."""
    path = custom_components()
    comp = load_components(path)
    sesame = lamp_card(comp, "draw_chest", chest=None, min_count=2)
    talisman = find_card(comp, kind="talisman", chest="bronze")
    stones = find_n(comp, 2, kind="stone", stone="ruby", starting=True)
    state = new_game(
        3,
        components=path,
        decks={"bronze": [talisman, comp.sorcerer_of(BRONZE)]},
        lamp=[sesame],
    )
    set_holdings(state, {0: stones})
    turn(state, {0: ("silver", 1), 1: ("gold", 1), 2: ("gold", 6)}, rubs={0: 100})
    choose(state, "accept", player=0)
    choose(state, "chest bronze", kind="effect_chest")
    assert state.is_over
    assert state.talisman_on[talisman] == LONE
    assert score(state, 0)["cards"] == 3  # two rubies and the talisman, not the Sorcerer
    assert score(state, 0)["majority_ruby"] == 5  # the lone talisman adds no ruby


def test_R8_the_sorcerer_is_no_treasure() -> None:
    """R8: retrieving from the discard pile never offers a Sorcerer; stealing and exchanging
    take only jewels and stones."""
    path, comp, stinger = with_components(stinger_before_gold)
    chest = comp.cards[stinger].chest
    assert chest is not None
    sorcerer = comp.sorcerer_of(chest)
    six = safe_run(comp, GOLD, 6, below=6)
    decks = {CHESTS[chest]: [sorcerer, stinger], "gold": six}
    state = new_game(3, components=path, my_precious=True, decks=decks)
    s = comp.cards[stinger].scorpions
    third = CHESTS[3 - chest - GOLD]
    turn(state, {0: (CHESTS[chest], s), 1: ("gold", 6), 2: (third, 1)})
    stop_all_draws_before(state, 0)
    draw(state, 2, player=0)  # the Sorcerer busts into the discard pile
    assert sorcerer in state.discard
    stop_all_draws_before(state, 1)
    draw(state, 6, player=1)
    assert pending(state)[:2] == ("retrieve", 1)
    options = card_options(state)
    assert sorcerer not in options and stinger in options

    # A kept Sorcerer can be neither stolen nor exchanged.
    comp = default_comp()
    for effect in ("steal", "swap"):
        state = new_game(3, lamp=[lamp_card(comp, effect)])
        ruby = find_card(comp, kind="stone", stone="ruby")
        give(state, 2, comp.sorcerer_of(BRONZE), ruby)
        turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 100})
        choose(state, "accept", player=0)
        options = card_options(state)
        assert comp.sorcerer_of(BRONZE) not in options and ruby in options


def test_R9_a_spare_jewel_beside_a_complete_set() -> None:
    """R9: the earliest gained pieces form the protected set, a spare piece may be stolen;
    two complete sets of one metal score twice."""
    path = custom_components()
    comp = load_components(path)
    bracelets = find_n(comp, 2, kind="jewel", metal="bronze", jewel="bracelet")
    rings = find_n(comp, 2, kind="jewel", metal="bronze", jewel="ring")
    necklaces = find_n(comp, 2, kind="jewel", metal="bronze", jewel="necklace")
    state = new_game(3, components=path, lamp=[lamp_card(comp, "steal")])
    set_holdings(state, {1: [], 2: [bracelets[0], bracelets[1], rings[0], necklaces[0]]})
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 100})
    choose(state, "accept", player=0)
    # The spare bracelet is the only card that can be taken: taken at once (R11).
    assert bracelets[1] in state.holdings[0]
    assert state.holdings[2] == [bracelets[0], rings[0], necklaces[0]]
    flags = {c["id"]: c["protected"] for c in state.view(0)["players"][2]["cards"]}
    assert flags == dict.fromkeys(state.holdings[2], True)

    give(state, 1, *bracelets, *rings, *necklaces)
    assert score(state, 1)["set_bronze"] == 2 * comp.set_bonus[BRONZE]


def test_R10_turn_cap_ends_the_game() -> None:
    """R10: a game also ends after ``max_turns`` turns, scored as usual."""
    state = new_game(3, max_turns=2)
    for _ in range(2):
        turn(state, {0: ("bronze", 4), 1: ("bronze", 4), 2: ("bronze", 4)})
    assert state.is_over and state.turn == 2
    over = events(state, "game_over")[0]
    assert over["reason"] == "turn limit 2 reached"
    assert over["scores"] == [dict(s.breakdown) for s in state.scores()]
    assert new_game(3).params.max_turns == 100


def test_R11_a_choice_with_one_option_is_no_choice() -> None:
    """R11: single-option decisions apply by themselves and are not recorded: the third
    wish, naming the only opponent at 2 players, a talisman with one stone type held."""
    comp = default_comp()
    ward = lamp_card(comp, "ward")
    others = [i for i in range(len(comp.lamp_cards)) if i != ward][:2]
    state = new_game(3, lamp=[*others, ward])
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 100})
    choose(state, "reject")
    choose(state, "reject")
    assert [state.action_to_str(a) for p, a in state.history[-2:]] == ["reject", "reject"]
    assert events(state, "wish_granted")[0]["forced"] is True

    state = new_game(2)
    turn(state, {0: [("bronze", 1), ("silver", 2)], 1: [("gold", 3), ("bronze", 4)]}, {0: 90})
    assert pending(state)[:2] == ("angry_steal", 1)
    assert events(state, "genie_angry")[0]["thief"] == 1
    assert not any(A.TARGET_BASE <= a < A.STONE_BASE for _, a in state.history)

    talisman = find_card(comp, kind="talisman", scorpions=0)
    chest = comp.cards[talisman].chest
    assert chest is not None
    state = new_game(3, decks={CHESTS[chest]: [talisman]})
    set_holdings(state, {0: [find_card(comp, kind="stone", stone="sapphire")]})
    free = [name for c, name in enumerate(CHESTS) if c != chest]
    turn(state, {0: (CHESTS[chest], 1), 1: (free[0], 2), 2: (free[0], 2)})
    draw(state, 1, player=0)
    assert state.talisman_on[talisman] == comp.stone_types.index("sapphire")
    assert state.phase is Phase.SETTING


def test_R12_genie_effects_with_nothing_to_act_on_fizzle() -> None:
    """R12: an accepted Lamp card with nothing to act on fizzles; the log says why, the card
    goes under the pile and the wish is spent."""
    comp = default_comp()
    for effect, event in (
        ("steal", "effect_fizzles"),
        ("swap", "effect_fizzles"),
        ("retrieve", "retrieve_nothing"),
    ):
        lamp = lamp_card(comp, effect)
        state = new_game(3, lamp=[lamp])
        clear_holdings(state, 1, 2)
        if effect == "retrieve":
            give(state, 2, *list(state.discard))
        turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 100})
        choose(state, "accept", player=0)
        assert events(state, event)[0]["reason"]
        assert state.lamp_deck[0] == lamp
        assert pending(state)[:2] == ("draw", 0), "no second wish after a fizzle"


def test_R13_the_discard_pile_is_public() -> None:
    """R13: every seat, and a spectator, sees the whole discard pile."""
    state = new_game(4, seed=9)
    discards = [state.view(seat)["discard"] for seat in (None, 0, 1, 2, 3)]
    assert all(d == discards[0] for d in discards)
    assert [c["id"] for c in discards[0]] == state.discard
    assert discards[0]


def test_R14_talisman_goes_on_a_real_stone_type_or_stays_alone() -> None:
    """R14: a talisman may go only on a stone type held as a real stone card; a player with
    no stone card leaves it alone for good."""
    comp = default_comp()
    talisman, other_talisman = find_n(comp, 2, kind="talisman", scorpions=0)
    chest = comp.cards[talisman].chest
    assert chest is not None
    free = [name for c, name in enumerate(CHESTS) if c != chest]
    dice = {0: (CHESTS[chest], 1), 1: (free[0], 2), 2: (free[0], 2)}

    state = new_game(3, decks={CHESTS[chest]: [talisman]})
    emerald = find_card(comp, kind="stone", stone="emerald")
    diamond = find_card(comp, kind="stone", stone=comp.stone_types[3])
    set_holdings(state, {0: [emerald, diamond, other_talisman]})
    place_talisman(state, other_talisman, comp.stone_types.index("emerald"))
    turn(state, dice)
    draw(state, 1, player=0)
    assert pending(state) == ("talisman", 0, ["stone emerald", f"stone {comp.stone_types[3]}"])

    state = new_game(3, decks={CHESTS[chest]: [talisman]})
    set_holdings(state, {0: []})
    turn(state, dice)
    draw(state, 1, player=0)
    assert state.talisman_on[talisman] == LONE
    assert events(state, "talisman_alone")[0]["card"] == talisman
    card = next(c for c in state.view(1)["players"][0]["cards"] if c["id"] == talisman)
    assert card["talisman_on"] == "alone"


def test_R15_stopping_before_the_first_card() -> None:
    """R15: the player who may search a chest may stop before drawing any card."""
    state = new_game(3)
    top = list(state.decks[GOLD])
    held = [list(h) for h in state.holdings]
    turn(state, {0: ("gold", 5), 1: ("silver", 1), 2: ("silver", 1)})
    assert pending(state) == ("draw", 0, ["draw", "stop"])
    stop(state, player=0)
    assert state.decks[GOLD] == top and state.holdings == held
    kept = events(state, "draw_kept")[0]
    assert kept["count"] == 0 and kept["stopped"] is True


def test_R16_everyone_may_rub_mistaken_rubbers_fastest_first_before_wishes() -> None:
    """R16: every player answers the race (rub up to 2.99 s, or not); a rub without a shared
    face is a mistake; several mistaken rubbers are handled fastest first, before any
    wish."""
    assert A.MAX_RUB_MS == 2990
    state = new_game(4)
    turn(
        state,
        {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 5), 3: ("gold", 6)},
        rubs={0: 300, 2: 2990, 3: 200},
    )
    assert state.rub[1] == NO_RUB
    assert [state.action_to_str(a) for _, a in state.history[4:]] == [
        "rub 300ms",
        "no-rub",
        "rub 2990ms",
        "rub 200ms",
    ]
    assert state.race_result is not None and state.race_result["mistaken"] == [3, 2]
    assert pending(state)[:2] == ("angry_target", 3)
    choose(state, "target 0")
    if pending(state)[0] == "angry_steal":
        choose(state, pending(state)[2][0])
    assert pending(state)[:2] == ("angry_target", 2)
    choose(state, "target 1")
    if pending(state)[0] == "angry_steal":
        choose(state, pending(state)[2][0])
    assert pending(state)[:2] == ("wish", 0)


def test_R17_summoners_wish_lowest_face_first_and_die_changes_start_no_new_race() -> None:
    """R17: summoners wish lowest face first, each finishing before the next; an effect that
    changes a die applies to the coming search only, without a new lamp race."""
    comp = default_comp()
    retrieve = lamp_card(comp, "retrieve")
    set_die = lamp_card(comp, "set_die")
    state = new_game(4, lamp=[retrieve, set_die])
    turn(
        state,
        {0: ("bronze", 5), 1: ("silver", 5), 2: ("gold", 2), 3: ("bronze", 2)},
        rubs={0: 100, 3: 200},
    )
    assert state.summoners == [3, 0]
    choose(state, "accept", player=3)
    assert pending(state)[:2] == ("retrieve", 3), "the first summoner finishes first"
    choose(state, pending(state)[2][0])
    assert pending(state)[:2] == ("wish", 0)
    choose(state, "accept", player=0)
    choose(state, "face 1", player=0, kind="effect_face")
    assert len(events(state, "race")) == 1
    # Bronze: player 0 now shows 1 and player 3 shows 2: the lower face searches.
    assert pending(state)[:2] == ("draw", 0)
    assert state.draw_ctx is not None and state.draw_ctx[2] == 1


def test_R18_my_precious_details() -> None:
    """R18: the ring needs a 6 on the chest searched and six cards kept, a Sorcerer counting
    as one; its retrieval follows the player's talisman placements; with no treasure in
    the discard pile the ring still moves."""
    comp = default_comp()
    talisman = find_card(comp, kind="talisman", scorpions=0)
    chest = comp.cards[talisman].chest
    assert chest is not None
    rest = safe_run(comp, chest, 4, below=6)
    top = [comp.sorcerer_of(chest), talisman, *rest]
    stones = [find_card(comp, kind="stone", stone=t, starting=True) for t in ("ruby", "emerald")]
    free = [name for c, name in enumerate(CHESTS) if c != chest]

    state = new_game(3, my_precious=True, decks={CHESTS[chest]: top})
    set_holdings(state, {0: stones})
    state.ring = 2
    turn(state, {0: (CHESTS[chest], 6), 1: (free[0], 1), 2: (free[0], 1)})
    stop_all_draws_before(state, 0)
    draw(state, 6, player=0)
    assert pending(state)[:2] == ("talisman", 0), "talismans are placed before the ring's pick"
    assert state.ring == 2
    choose(state, "stone ruby")
    assert state.ring == 0, "the ring is taken from its holder"
    assert pending(state)[:2] == ("retrieve", 0)

    # An empty-of-treasure discard pile: the ring moves all the same.
    state = new_game(3, my_precious=True, decks={CHESTS[chest]: top})
    set_holdings(state, {0: stones})
    give(state, 1, *list(state.discard))
    turn(state, {0: (CHESTS[chest], 6), 1: (free[0], 1), 2: (free[0], 1)})
    stop_all_draws_before(state, 0)
    draw(state, 6, player=0)
    choose(state, "stone emerald", kind="talisman")
    assert state.ring == 0
    assert events(state, "retrieve_nothing")[0]["player"] == 0
    assert state.is_over  # the Sorcerer closed the cave


def test_R19_ward_covers_the_first_scorpions_across_all_draws_this_turn() -> None:
    """R19: the Snake Charmer's ward covers the first scorpions the player draws this turn,
    across all their draws, and is lost at the end of the turn."""
    comp = default_comp()
    ward = lamp_card(comp, "ward")
    w = comp.lamp_cards[ward].count
    first = find_card(comp, chest="bronze", kind="treasure", min_scorpions=1)
    second = find_card(comp, chest="gold", kind="treasure", min_scorpions=1)
    s1, s2 = comp.cards[first].scorpions, comp.cards[second].scorpions
    state = new_game(2, decks={"bronze": [first], "gold": [second]}, lamp=[ward])
    turn(
        state,
        {0: [("bronze", 5), ("gold", 5)], 1: [("silver", 5), ("bronze", 6)]},
        rubs={0: 100},
    )
    choose(state, "accept", player=0)
    assert state.ward[0] == w
    draw(state, 1, player=0)
    stop(state, player=0)
    stop_all_draws_before(state, 0)
    draw(state, 1, player=0)
    stop(state, player=0)
    warded = [e["warded"] for e in events(state, "draw")]
    assert warded == [min(w, s1), min(w - min(w, s1), s2)]
    assert state.phase is Phase.SETTING
    assert state.ward == [0, 0], "the ward is lost at the end of the turn"
    assert {first, second} <= set(state.holdings[0])


def talisman_then_a_later_sapphire(comp: Components) -> tuple[int, int, int]:
    """(a scorpion-free talisman, a chest searched after the talisman's, a scorpion-free
    sapphire of that later chest)."""
    for talisman in find_cards(comp, kind="talisman", scorpions=0):
        chest = comp.cards[talisman].chest
        assert chest is not None
        for later in range(chest + 1, len(CHESTS)):
            found = find_cards(comp, kind="stone", stone="sapphire", chest=later, scorpions=0)
            if found:
                return talisman, later, found[0]
    raise LookupError("no talisman with a scorpion-free sapphire in a later chest")


def test_R20_talisman_is_placed_right_after_its_search_before_the_next_chest() -> None:
    """R20: a talisman kept from a search is placed as soon as that player's search of the
    chest ends, before the next chest is searched, on the stone types held at that moment.
    At 2 players the same player searches the next chest and finds a sapphire there: placed at
    the end of the turn instead, the talisman would wait for it and could go on it."""
    path, comp, (talisman, later, sapphire) = with_components(talisman_then_a_later_sapphire)
    chest = comp.cards[talisman].chest
    assert chest is not None
    other = next(c for c in range(len(CHESTS)) if c not in (chest, later))
    stones = [find_card(comp, kind="stone", stone=t, starting=True) for t in ("ruby", "emerald")]
    state = new_game(
        2, components=path, decks={CHESTS[chest]: [talisman], CHESTS[later]: [sapphire]}
    )
    set_holdings(state, {0: stones})
    # Player 0 has the lowest lone face on both its chests; player 1 only searches the third.
    turn(
        state,
        {
            0: [(CHESTS[chest], 1), (CHESTS[later], 2)],
            1: [(CHESTS[other], 5), (CHESTS[later], 6)],
        },
    )
    draw(state, 1, player=0)  # the talisman; a 1 allows one card, so the search ends
    assert pending(state) == ("talisman", 0, ["stone ruby", "stone emerald"]), (
        "the placement comes before the next chest, with no sapphire to choose yet"
    )
    assert state.decks[later][-1] == sapphire, "the later chest is not searched yet"
    choose(state, "stone ruby")
    assert pending(state)[:2] == ("draw", 0)
    draw(state, 1, player=0)
    stop(state, player=0)
    assert sapphire in state.holdings[0]
    assert state.talisman_on[talisman] == comp.stone_types.index("ruby")
    kinds = [k for k in event_kinds(state) if k in ("talisman_placed", "draw")]
    assert kinds == ["draw", "talisman_placed", "draw"]


RULINGS = Path(__file__).resolve().parents[1] / "docs" / "rulings" / "magic-lamp.md"
DOCUMENTED = re.findall(r"^## (R\d+) ", RULINGS.read_text(encoding="utf-8"), flags=re.M)


def test_the_rulings_are_numbered_r1_upwards_without_gaps() -> None:
    assert [f"R{i}" for i in range(1, len(DOCUMENTED) + 1)] == DOCUMENTED
    assert len(DOCUMENTED) >= 20


@pytest.mark.parametrize("rule", DOCUMENTED)
def test_every_ruling_has_its_test(rule: str) -> None:
    """docs/rulings/magic-lamp.md: each ruling it lists is held by a test named after it."""
    names = [name for name in globals() if name.startswith(f"test_{rule}_")]
    assert names, f"no test for {rule}"
