"""Every worked example of the Magic Lamp rulebooks, as a test.

Books: the English rulebook (/work/shared/rules/magic-lamp.en.md, "EN") and the fuller French
original (magic-lamp.fr.md, "FR"). Each test names its example and section; the docstring
retells it in our own words. Where real actions can reach the position, the example is
played through ``state.apply`` from a hand-written arrangement.
"""

from __future__ import annotations

import pytest

from arabesque.games.magic_lamp.components import CHESTS, JEWELS
from arabesque.games.magic_lamp.rules import chest_drawer, is_bust
from arabesque.games.magic_lamp.state import LONE, NO_RING, Phase
from tests.scenarios import (
    BRONZE,
    GOLD,
    SILVER,
    card_options,
    card_text,
    chest_stones,
    choose,
    default_comp,
    draw,
    events,
    find_card,
    find_n,
    lamp_card,
    new_game,
    pending,
    place_talisman,
    safe_run,
    score,
    set_holdings,
    stone_type,
    stop,
    stop_all_draws,
    turn,
)

MAYA, MARGOT, MAURICE = 0, 1, 2


def other_chests(chest: int) -> list[str]:
    return [name for c, name in enumerate(CHESTS) if c != chest]


# -- Choose a Chest ---------------------------------------------------------------------------


def test_choose_a_chest_example_maya_draws_up_to_four_gold_cards() -> None:
    """EN "1. Choose a Chest" (FR "Choisir un coffre"): Maya sets her die to 4 on the gold
    space, so she may draw up to 4 cards from the gold chest, and no more."""
    comp = default_comp()
    gold = safe_run(comp, GOLD, 4, below=4)
    state = new_game(3, decks={"gold": gold})
    turn(state, {MAYA: ("gold", 4), MARGOT: ("bronze", 2), MAURICE: ("bronze", 2)})
    assert pending(state)[:2] == ("draw", MAYA)
    draw(state, 4, player=MAYA)
    # The fourth card ends the draw by itself: the die's value is the maximum.
    assert state.phase is Phase.SETTING and state.turn == 2
    assert state.holdings[MAYA][-4:] == gold
    assert events(state, "draw_kept")[-1]["count"] == 4


# -- Summon the Genie -------------------------------------------------------------------------


def test_rub_the_lamp_example_two_fours_the_first_to_tap_summons() -> None:
    """EN "Rub the lamp!" (FR "Frotter la lampe !"): two players set their die to 4; the first
    of the two to tap the Lamp pile summons the Genie."""
    state = new_game(3)
    turn(
        state,
        {MAYA: ("bronze", 4), MARGOT: ("gold", 4), MAURICE: ("silver", 1)},
        rubs={MAYA: 520, MARGOT: 310},
    )
    assert state.race_result is not None
    assert state.race_result["races"] == [{"face": 4, "winner": MARGOT, "tie": None}]
    assert state.summoners == [MARGOT]
    assert pending(state)[:2] == ("wish", MARGOT)


def test_two_player_lamp_rule_own_pair_never_qualifies() -> None:
    """EN "Rub the lamp!", with 2 players (FR "À 2 joueurs"): a player whose two dice both
    show 5 may not rub on that pair; tapping the pile anyway is a mistaken rub."""
    state = new_game(2)
    turn(
        state,
        {0: [("bronze", 5), ("silver", 5)], 1: [("gold", 2), ("bronze", 3)]},
        rubs={0: 300},
    )
    assert state.race_result is not None
    assert state.race_result["races"] == []
    assert state.race_result["mistaken"] == [0]
    assert state.summoners == []
    # The only opponent is named by itself (R11) and picks the card to steal.
    assert pending(state)[:2] == ("angry_steal", 1)
    assert events(state, "genie_angry") == [{"kind": "genie_angry", "player": 0, "thief": 1}]


def test_two_player_lamp_rule_pair_of_fives_against_a_five() -> None:
    """EN "Rub the lamp!", with 2 players: the player with two 5s may tap because the other
    player also shows a 5; both may rub and the faster summons the Genie (only once)."""
    state = new_game(2)
    turn(
        state,
        {0: [("bronze", 5), ("silver", 5)], 1: [("gold", 5), ("bronze", 3)]},
        rubs={0: 180, 1: 250},
    )
    assert state.race_result is not None
    assert state.race_result["races"] == [{"face": 5, "winner": 0, "tie": None}]
    assert state.race_result["mistaken"] == []
    assert state.summoners == [0]
    assert pending(state)[:2] == ("wish", 0)


@pytest.mark.parametrize("n", [4, 5])
def test_four_five_players_two_3s_and_two_5s_give_two_summoners(n: int) -> None:
    """EN "Rub the lamp!", 4 or 5 players (FR "Lors d'une partie à 4 ou 5 joueurs"): two dice
    show 3 and two show 5. The fastest of the 3s and the fastest of the 5s both summon the
    Genie, and the one with the 3 wishes first even though the 5 was tapped sooner."""
    comp = default_comp()
    ward = lamp_card(comp, "ward")
    nxt = next(i for i in range(len(comp.lamp_cards)) if i != ward)
    state = new_game(n, lamp=[ward, nxt])
    dice = {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 5), 3: ("bronze", 5)}
    if n == 5:
        dice[4] = ("silver", 6)
    turn(state, dice, rubs={2: 100, 1: 200, 0: 300, 3: 400})
    assert state.race_result is not None
    assert [(r["face"], r["winner"]) for r in state.race_result["races"]] == [(3, 1), (5, 2)]
    assert state.summoners == [1, 2]
    # The 3 wishes first: player 1 sees the top Lamp card and keeps it ...
    assert pending(state)[:2] == ("wish", 1)
    assert state.pending is not None and state.pending[3][0] == ward
    choose(state, "accept", player=1)
    # ... then the 5 wishes on the next card.
    assert pending(state)[:2] == ("wish", 2)
    assert state.pending is not None and state.pending[3][0] == nxt


def test_mistaken_rub_opponent_steals_a_card_of_their_choice() -> None:
    """EN "What if I rubbed the lamp by mistake?" (FR "Et si je frotte la lampe par erreur ?"):
    nobody else chose Maya's face, yet she taps the pile. She names an opponent, who steals a
    card of their choice from her: a jewel or a stone, never a talisman, a jewel of a
    complete set or the magic ring. Margot, who rubbed legally, then wishes as usual."""
    comp = default_comp()
    silver_set = [find_card(comp, kind="jewel", metal="silver", jewel=j) for j in JEWELS]
    talisman = find_card(comp, kind="talisman")
    ruby = find_card(comp, kind="stone", stone="ruby")
    sapphire = find_card(comp, kind="stone", stone="sapphire")
    state = new_game(3, my_precious=True)
    set_holdings(state, {MAYA: [*silver_set, talisman, ruby, sapphire]})
    place_talisman(state, talisman, stone_type(comp, "ruby"))
    state.ring = MAYA
    turn(
        state,
        {MAYA: ("gold", 6), MARGOT: ("bronze", 2), MAURICE: ("silver", 2)},
        rubs={MAYA: 150, MARGOT: 300},
    )
    assert state.race_result is not None and state.race_result["mistaken"] == [MAYA]
    # Maya calms the Genie first: she names the thief ...
    kind, who, options = pending(state)
    assert (kind, who, options) == ("angry_target", MAYA, ["target 1", "target 2"])
    choose(state, "target 2")
    # ... who may take only her loose stones.
    assert pending(state)[:2] == ("angry_steal", MAURICE)
    assert card_options(state) == {ruby, sapphire}
    choose(state, card_text(sapphire))
    assert sapphire in state.holdings[MAURICE] and sapphire not in state.holdings[MAYA]
    assert state.ring == MAYA
    assert all(c in state.holdings[MAYA] for c in [*silver_set, talisman, ruby])
    # Then the legal rubber summons the Genie as usual.
    assert state.summoners == [MARGOT]
    assert pending(state)[:2] == ("wish", MARGOT)


# -- Search the Chests ------------------------------------------------------------------------


def test_search_the_chests_example_maya_margot_maurice() -> None:
    """EN "3. Search the Chests", example (FR "Fouiller les coffres", Exemple): three different
    faces, so nobody summons the Genie. On bronze Maya (4) is less greedy than Margot (5):
    Maya draws up to 4 cards and Margot nothing. Maurice, alone on silver with 3, draws up
    to 3. Nobody chose gold, and the turn is over."""
    assert chest_drawer([(MAYA, 4), (MARGOT, 5)]) == MAYA
    assert chest_drawer([(MAURICE, 3)]) == MAURICE
    assert chest_drawer([]) is None

    comp = default_comp()
    bronze = chest_stones(comp, BRONZE, 4)
    silver = chest_stones(comp, SILVER, 3)
    state = new_game(3, decks={"bronze": bronze, "silver": silver})
    before = [list(h) for h in state.holdings]
    turn(state, {MAYA: ("bronze", 4), MARGOT: ("bronze", 5), MAURICE: ("silver", 3)})
    assert state.race_result is not None and state.race_result["races"] == []
    assert state.summoners == []
    draw(state, 4, player=MAYA)
    draw(state, 3, player=MAURICE)
    assert [e["drawer"] for e in events(state, "search")] == [MAYA, MAURICE, None]
    assert state.holdings[MAYA] == before[MAYA] + bronze
    assert state.holdings[MARGOT] == before[MARGOT]
    assert state.holdings[MAURICE] == before[MAURICE] + silver
    assert state.phase is Phase.SETTING and state.turn == 2


def test_tied_players_cancel_the_maurice_case() -> None:
    """EN "Tied players cancel each other" (FR "Le cas de Maurice"): Maya and Margot both put
    a 3 on bronze and cancel each other; Maurice, on bronze with a 5, searches it although
    5 is greater than 3."""
    assert chest_drawer([(MAYA, 3), (MARGOT, 3)]) is None
    assert chest_drawer([(MAYA, 3), (MARGOT, 3), (MAURICE, 5)]) == MAURICE

    comp = default_comp()
    bronze = chest_stones(comp, BRONZE, 2)
    state = new_game(3, decks={"bronze": bronze})
    before = [list(h) for h in state.holdings]
    turn(state, {MAYA: ("bronze", 3), MARGOT: ("bronze", 3), MAURICE: ("bronze", 5)})
    assert pending(state)[:2] == ("draw", MAURICE)
    draw(state, 2, player=MAURICE)
    stop(state, player=MAURICE)
    assert state.holdings[MAURICE] == before[MAURICE] + bronze
    assert state.holdings[MAYA] == before[MAYA]
    assert state.holdings[MARGOT] == before[MARGOT]


def test_two_players_may_search_two_chests_in_one_turn() -> None:
    """EN "Tied players cancel each other", with 2 players (FR "À 2 joueurs : ... piocher dans
    2 coffres différents"): with two dice a player may search two chests in the same
    turn."""
    comp = default_comp()
    bronze = chest_stones(comp, BRONZE, 1)
    gold = safe_run(comp, GOLD, 1, below=2)
    state = new_game(2, decks={"bronze": bronze, "gold": gold})
    turn(state, {0: [("bronze", 1), ("gold", 2)], 1: [("silver", 3), ("gold", 4)]})
    draw(state, 1, player=0)  # bronze: one card with a 1
    stop(state, player=1)  # silver
    draw(state, 1, player=0)  # gold: player 0's 2 beats player 1's 4
    stop(state, player=0)
    assert state.holdings[0][-2:] == bronze + gold


def test_scorpions_must_stay_strictly_below_the_die() -> None:
    """EN "Scorpions!" (FR "Les scorpions !"): the scorpions on the cards drawn must total
    strictly less than the die. Reaching the die's value (or going past it) sends every
    card of that draw to the discard pile, the safe ones drawn before included."""
    assert not is_bust(2, 3)
    assert is_bust(3, 3)
    assert is_bust(4, 3)
    comp = default_comp()
    stinger = find_card(comp, kind="treasure", min_scorpions=2, max_scorpions=5)
    s = comp.cards[stinger].scorpions
    chest = comp.cards[stinger].chest
    assert chest is not None
    safe = chest_stones(comp, chest, 1)
    name = CHESTS[chest]
    others = other_chests(chest)

    # Below the die: kept.
    state = new_game(3, decks={name: [*safe, stinger]})
    turn(state, {MAYA: (name, s + 1), MARGOT: (others[0], 6), MAURICE: (others[0], 6)})
    draw(state, 2, player=MAYA)
    stop(state, player=MAYA)
    assert state.holdings[MAYA][-2:] == [*safe, stinger]

    # Reaching the die: the whole draw is lost, the scorpion-free card too.
    state = new_game(3, decks={name: [*safe, stinger]})
    held = list(state.holdings[MAYA])
    discard = list(state.discard)
    turn(state, {MAYA: (name, s), MARGOT: (others[0], 6), MAURICE: (others[0], 6)})
    draw(state, 2, player=MAYA)
    assert state.holdings[MAYA] == held
    assert state.discard == [*discard, *safe, stinger]
    assert events(state, "bust")[0]["player"] == MAYA

    # Going past the die on the very first card.
    state = new_game(3, decks={name: [stinger]})
    turn(state, {MAYA: (name, s - 1), MARGOT: (others[0], 6), MAURICE: (others[0], 6)})
    draw(state, 1, player=MAYA)
    assert stinger in state.discard and events(state, "bust")


def test_maya_silver_set_example_is_protected() -> None:
    """EN "What do the cards you draw do?", example (FR "Que faire des cartes piochées ?"):
    Maya holds the silver bracelet, ring and necklace: her silver set can be neither stolen
    (Lamp card steal) nor exchanged (Lamp card swap), unlike her loose emerald."""
    comp = default_comp()
    silver_set = [find_card(comp, kind="jewel", metal="silver", jewel=j) for j in JEWELS]
    emerald = find_card(comp, kind="stone", stone="emerald")
    for effect in ("steal", "swap"):
        state = new_game(3, lamp=[lamp_card(comp, effect)])
        set_holdings(state, {MAYA: [*silver_set, emerald]})
        turn(
            state,
            {MAYA: ("gold", 6), MARGOT: ("bronze", 2), MAURICE: ("silver", 2)},
            rubs={MARGOT: 200},
        )
        choose(state, "accept", player=MARGOT)
        if effect == "swap":
            # Margot's single loose card is the one she gives (R11), then she picks.
            assert pending(state)[0] == "swap_theirs"
        else:
            assert pending(state)[0] == "effect_card"
        options = card_options(state)
        assert emerald in options
        assert not options & set(silver_set)
        assert state.view(MARGOT)["players"][MAYA]["sets"]["silver"] == 1


def test_scoring_example_maya_scores_25_points() -> None:
    """EN "How do I count my points?", scoring example (FR "Exemple de décompte"): Maya has
    12 cards (12 points), more emeralds than anyone (+5) and a complete silver set (+8):
    25 points."""
    comp = default_comp()
    silver_set = [find_card(comp, kind="jewel", metal="silver", jewel=j) for j in JEWELS]
    emeralds = find_n(comp, 4, kind="stone", stone="emerald")
    maya = [*silver_set, *emeralds[:3]]
    margot = [emeralds[3]]
    maurice: list[int] = []
    others = [name for name in comp.stone_types if name != "emerald"]
    for i, name in enumerate(others):
        four = find_n(comp, 4, kind="stone", stone=name)
        maya += four[:2]
        # An opponent ties Maya on every other type: nobody has those majorities.
        (margot if i < 2 else maurice).extend(four[2:])
    assert len(maya) == 12
    state = new_game(3)
    set_holdings(state, {MAYA: maya, MARGOT: margot, MAURICE: maurice})
    breakdown = score(state, MAYA)
    assert breakdown["cards"] == 12
    assert breakdown["majority_emerald"] == 5
    assert breakdown["set_silver"] == 8
    assert sum(v for k, v in breakdown.items() if k not in ("cards", "majority_emerald")) == 8
    assert state.scores()[MAYA].total == 25


# -- Talismans --------------------------------------------------------------------------------


def test_talisman_example_placed_on_the_only_ruby() -> None:
    """EN "Talismans", example (FR "Les Talismans"): Maya has 3 emeralds, 1 ruby and 1
    sapphire, and places the talisman she drew on her only ruby: she now has 2 rubies."""
    comp = default_comp()
    talisman = find_card(comp, kind="talisman", scorpions=0)
    chest = comp.cards[talisman].chest
    assert chest is not None
    emeralds = find_n(comp, 3, kind="stone", stone="emerald", exclude=[talisman])
    ruby = find_card(comp, kind="stone", stone="ruby")
    sapphire = find_card(comp, kind="stone", stone="sapphire")
    state = new_game(3, decks={CHESTS[chest]: [talisman]})
    set_holdings(state, {MAYA: [*emeralds, ruby, sapphire]})
    other = other_chests(chest)[0]
    turn(state, {MAYA: (CHESTS[chest], 1), MARGOT: (other, 2), MAURICE: (other, 2)})
    draw(state, 1, player=MAYA)
    kind, who, options = pending(state)
    assert (kind, who) == ("talisman", MAYA)
    assert options == ["stone ruby", "stone emerald", "stone sapphire"]
    choose(state, "stone ruby")
    mine = state.view(MARGOT)["players"][MAYA]
    assert mine["stones"]["ruby"] == 2
    assert mine["stones"]["emerald"] == 3
    assert mine["stones"]["sapphire"] == 1
    assert next(c for c in mine["cards"] if c["id"] == talisman)["talisman_on"] == "ruby"


def test_talisman_example_left_alone_when_its_ruby_is_stolen() -> None:
    """EN "Talismans" (FR "Les Talismans"): Maya's only ruby carries her talismans (two of
    them, "the same rule applies if 2 or more talismans are left alone"). An opponent
    steals the ruby: the talismans are left alone for good, worth 1 point each, and do not
    come back even when Maya later gains another ruby."""
    comp = default_comp()
    talismans = find_n(comp, 2, kind="talisman")
    ruby, new_ruby = find_n(comp, 2, kind="stone", stone="ruby", scorpions=0, starting=False)
    sapphire = find_card(comp, kind="stone", stone="sapphire")
    ruby_chest = comp.cards[new_ruby].chest
    assert ruby_chest is not None
    state = new_game(3, decks={CHESTS[ruby_chest]: [new_ruby]})
    set_holdings(state, {MAYA: [ruby, *talismans, sapphire]})
    for t in talismans:
        place_talisman(state, t, stone_type(comp, "ruby"))
    assert state.view(None)["players"][MAYA]["stones"]["ruby"] == 3

    # Turn 1: Maya rubs by mistake and Margot takes the ruby.
    free = other_chests(ruby_chest)
    turn(
        state,
        {MAYA: (free[0], 1), MARGOT: (free[1], 2), MAURICE: (free[1], 3)},
        rubs={MAYA: 200},
    )
    choose(state, "target 1", player=MAYA)
    choose(state, card_text(ruby), player=MARGOT)
    assert all(state.talisman_on[t] == LONE for t in talismans)
    view = state.view(MAURICE)["players"][MAYA]
    assert view["stones"]["ruby"] == 0
    assert {c["talisman_on"] for c in view["cards"] if c["kind"] == "talisman"} == {"alone"}
    stop_all_draws(state)

    # Turn 2: Maya draws a new ruby; the lone talismans stay alone.
    turn(state, {MAYA: (CHESTS[ruby_chest], 1), MARGOT: (free[0], 2), MAURICE: (free[0], 2)})
    draw(state, 1, player=MAYA)
    assert new_ruby in state.holdings[MAYA]
    assert all(state.talisman_on[t] == LONE for t in talismans)
    assert state.view(MAYA)["players"][MAYA]["stones"]["ruby"] == 1
    breakdown = score(state, MAYA)
    assert breakdown["cards"] == len(state.holdings[MAYA])  # each talisman is still 1 point


# -- End of the turn / end of the game --------------------------------------------------------


def test_sorcerer_is_sixth_from_the_bottom_of_each_chest() -> None:
    """EN "Setup" step 2 (FR "Mise en place"): each chest's Sorcerer is shuffled in as the
    6th card from the bottom, with 5 cards below it."""
    for n in (2, 3, 4, 5):
        for seed in range(4):
            state = new_game(n, seed=seed)
            for c, deck in enumerate(state.decks):  # stored bottom first
                assert deck.index(state.comp.sorcerer_of(c)) == 5
                view = state.view(0)["chests"][c]
                assert view["cards_above_sorcerer"] == len(deck) - 6


def test_game_ends_at_the_end_of_the_turn_a_sorcerer_is_drawn() -> None:
    """EN "End of the turn / End of the game" (FR "Fin du tour / Fin de la partie"): Maya
    draws the bronze Sorcerer; the cave is closed, but the turn is played out (Maurice
    still searches silver), then the game ends and everyone counts their points."""
    comp = default_comp()
    sorcerer = comp.sorcerer_of(BRONZE)
    bronze = [sorcerer, *chest_stones(comp, BRONZE, 1)]
    silver = chest_stones(comp, SILVER, 2)
    state = new_game(3, decks={"bronze": bronze, "silver": silver})
    turn(state, {MAYA: ("bronze", 3), MARGOT: ("gold", 4), MAURICE: ("silver", 2)})
    draw(state, 2, player=MAYA)
    stop(state, player=MAYA)
    assert state.cave_closed and not state.is_over
    # Margot's gold search comes after silver: she stops at once.
    draw(state, 2, player=MAURICE)
    assert not state.is_over
    stop(state, player=MARGOT)
    assert state.is_over and state.phase is Phase.OVER
    assert state.holdings[MAURICE][-2:] == silver
    assert sorcerer in state.holdings[MAYA]
    # The Sorcerer is the one card worth nothing.
    assert score(state, MAYA)["cards"] == len(state.holdings[MAYA]) - 1
    assert events(state, "game_over")[0]["reason"] == "sorcerer drawn"


def test_game_ends_immediately_on_a_sorcerer_from_a_lamp_card() -> None:
    """EN "End of the turn / End of the game", special case (FR "Cas particulier"): a
    Sorcerer drawn through a Lamp card "draw the first card of the ___ chest" ends the game
    at once: no other search happens that turn."""
    comp = default_comp()
    windfall = lamp_card(comp, "draw_chest", chest="bronze")
    lamp = comp.lamp_cards[windfall]
    sorcerer = comp.sorcerer_of(BRONZE)
    state = new_game(3, decks={"bronze": [sorcerer]}, lamp=[windfall])
    held = [list(h) for h in state.holdings]
    turn(
        state,
        {MAYA: ("silver", 2), MARGOT: ("bronze", 2), MAURICE: ("gold", 4)},
        rubs={MAYA: 200},
    )
    assert lamp.count == 1
    choose(state, "accept", player=MAYA)
    assert state.is_over and state.to_act() == frozenset()
    assert state.holdings[MAYA] == [*held[MAYA], sorcerer]
    assert state.holdings[MARGOT] == held[MARGOT]
    assert state.holdings[MAURICE] == held[MAURICE]
    assert not events(state, "search")
    assert events(state, "game_over")[0]["reason"] == "sorcerer drawn with a Lamp card"


# -- "My Precious" ----------------------------------------------------------------------------


def test_my_precious_six_cards_with_a_six_win_the_ring() -> None:
    """EN "My Precious" variant (FR "Variante « mon précieux »"): a full draw of six cards
    with a 6, without too many scorpions, wins the magic ring and with it a card of one's
    choice from the discard pile. Another player doing the same takes the ring from its
    holder; a holder doing it again uses its power again. The ring is worth 5 points."""
    comp = default_comp()
    first = safe_run(comp, BRONZE, 6, below=6)
    second = safe_run(comp, SILVER, 6, below=6)
    third = safe_run(comp, GOLD, 6, below=6)
    state = new_game(3, my_precious=True, decks={"bronze": first, "silver": second, "gold": third})
    assert state.ring == NO_RING

    def full_draw(player: int, chest: str) -> None:
        others = [p for p in range(3) if p != player]
        free = next(name for name in CHESTS if name != chest)
        turn(state, {player: (chest, 6), others[0]: (free, 1), others[1]: (free, 1)})
        draw(state, 6, player=player)

    # Turn 1: Maya draws six bronze cards with her 6 and takes the ring.
    full_draw(MAYA, "bronze")
    assert state.ring == MAYA
    kind, who, _ = pending(state)
    assert (kind, who) == ("retrieve", MAYA)
    treasure = sorted(card_options(state))
    assert treasure and set(treasure) <= set(state.discard)
    choose(state, card_text(treasure[0]))
    assert treasure[0] in state.holdings[MAYA] and treasure[0] not in state.discard
    assert score(state, MAYA)["ring"] == 5

    # Turn 2: Margot does it on silver and takes the ring from Maya.
    full_draw(MARGOT, "silver")
    assert state.ring == MARGOT
    assert events(state, "ring")[-1] == {"kind": "ring", "player": MARGOT, "previous": MAYA}
    if state.pending is not None:
        assert pending(state)[:2] == ("retrieve", MARGOT)
        choose(state, pending(state)[2][0])
    assert score(state, MAYA)["ring"] == 0 and score(state, MARGOT)["ring"] == 5

    # Turn 3: Margot again: the ring's power applies again.
    retrieves = len(events(state, "retrieve")) + len(events(state, "retrieve_nothing"))
    full_draw(MARGOT, "gold")
    assert state.ring == MARGOT
    assert events(state, "ring")[-1]["previous"] == MARGOT
    if state.pending is not None:
        choose(state, pending(state)[2][0], player=MARGOT, kind="retrieve")
    after = len(events(state, "retrieve")) + len(events(state, "retrieve_nothing"))
    assert after == retrieves + 1


def test_my_precious_needs_the_variant_a_six_and_all_six_cards() -> None:
    """EN "My Precious": the ring goes only to a player who searched with a 6 and drew all
    six cards; stopping at five, or playing without the variant, wins nothing."""
    comp = default_comp()
    run = safe_run(comp, BRONZE, 6, below=6)
    for my_precious, stop_after in ((True, 5), (False, 6)):
        state = new_game(3, my_precious=my_precious, decks={"bronze": run})
        turn(state, {MAYA: ("bronze", 6), MARGOT: ("gold", 1), MAURICE: ("gold", 1)})
        draw(state, stop_after, player=MAYA)
        if stop_after < 6:
            stop(state, player=MAYA)
        assert state.ring == NO_RING
        assert not events(state, "ring")
        assert score(state, MAYA)["ring"] == 0
        assert set(run[:stop_after]) <= set(state.holdings[MAYA])
