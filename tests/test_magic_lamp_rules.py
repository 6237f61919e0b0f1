"""Magic Lamp rules, phase by phase: setup, secret setting, the lamp race, wishes and every
Lamp effect kind, the search, scoring, and the typed errors of bad input.

Section names refer to the English rulebook (/work/shared/rules/magic-lamp.en.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from arabesque.core import (
    ArabesqueError,
    GameOverError,
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    ParamsError,
)
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, JEWELS, METALS, CardKind
from arabesque.games.magic_lamp.rules import RING_BONUS
from arabesque.games.magic_lamp.state import LONE, UNDECIDED, MagicLampState, Phase
from tests.scenarios import (
    BRONZE,
    GOLD,
    SPEC,
    act,
    assert_conserved,
    card_options,
    card_text,
    chest_stones,
    choose,
    clear_holdings,
    default_comp,
    draw,
    events,
    find_card,
    find_n,
    lamp_card,
    new_game,
    params,
    pending,
    place_talisman,
    score,
    set_dice,
    set_holdings,
    stone_type,
    stop,
    stop_all_draws,
    turn,
)

# -- Setup ------------------------------------------------------------------------------------


def test_setup_two_players_take_two_dice_and_two_starting_cards() -> None:
    """Setup steps 3-4: with 2 players each takes 2 dice and 2 starting cards; the other 4
    starting cards go to the discard pile."""
    state = new_game(2, seed=5)
    comp = state.comp
    assert [len(h) for h in state.holdings] == [2, 2]
    assert all(c in comp.starting_cards for h in state.holdings for c in h)
    assert sorted(state.discard) == sorted(
        set(comp.starting_cards) - {c for h in state.holdings for c in h}
    )
    assert state.to_act() == frozenset({0, 1})
    act(state, 0, "set bronze 3")
    assert state.to_act() == frozenset({0, 1}), "a player with one die set still has one to set"
    act(state, 0, "set silver 3")
    assert state.to_act() == frozenset({1})


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_three_to_five_players_one_die_one_starting_card(n: int) -> None:
    """Setup steps 3-4: from 3 players on, one die and one starting card each; the extra
    starting cards go to the discard pile."""
    state = new_game(n, seed=n)
    comp = state.comp
    assert [len(h) for h in state.holdings] == [1] * n
    dealt = [h[0] for h in state.holdings]
    assert len(set(dealt)) == n and set(dealt) <= set(comp.starting_cards)
    assert sorted(state.discard) == sorted(set(comp.starting_cards) - set(dealt))
    assert len(state.discard) == len(comp.starting_cards) - n
    assert state.to_act() == frozenset(range(n))
    act(state, 0, "set gold 2")
    assert 0 not in state.to_act()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_deck_sizes(n: int) -> None:
    """Setup steps 1-2: each chest pile holds all its cards and its Sorcerer, the Lamp pile
    all the Lamp cards; every card is somewhere exactly once."""
    state = new_game(n, seed=11)
    comp = state.comp
    for c in range(len(CHESTS)):
        assert sorted(state.decks[c]) == sorted(comp.chest_cards[c])
        assert state.view(None)["chests"][c]["cards_left"] == len(comp.chest_cards[c])
    assert sorted(state.lamp_deck) == list(range(len(comp.lamp_cards)))
    assert state.turn == 1 and state.phase is Phase.SETTING
    assert_conserved(state)


def test_setup_deals_differently_for_different_seeds_and_alike_for_one_seed() -> None:
    """Setup: the seed drives every shuffle, so one seed gives one layout."""
    a, b = new_game(4, seed=3), new_game(4, seed=3)
    assert a.decks == b.decks and a.holdings == b.holdings and a.lamp_deck == b.lamp_deck
    layouts = {tuple(new_game(4, seed=s).decks[GOLD]) for s in range(6)}
    assert len(layouts) > 1


@pytest.mark.parametrize(
    ("arrangement", "message"),
    [
        ([1, 2], "arrangement must be an object"),
        ("bronze first", "arrangement must be an object"),
        ({"foo": 1}, "unknown keys ['foo']"),
        ({"decks": []}, "'decks' maps chest names"),
        ({"decks": {"copper": [1]}}, "'decks' maps chest names"),
        ({"decks": {"bronze": "abc"}}, "decks.bronze must be a list of card ids"),
        ({"decks": {"bronze": [True]}}, "decks.bronze: True is neither an id nor a name"),
        ({"starting": 5}, "'starting' lists 3 players' starting cards"),
        ({"starting": [[], [], "x"]}, "starting[2] must be a list of card ids"),
        ({"lamp_deck": [10**4]}, "lamp_deck lists Lamp card ids"),
        ({"lamp_deck": [1, 1]}, "at most once each"),
        ({"discard": "x"}, "discard must be a list of card ids"),
        ({"discard": []}, "the discard pile must hold the undealt starting cards"),
    ],
)
def test_setup_arrangement_errors(arrangement: Any, message: str) -> None:
    """A hand-written arrangement that is not a valid layout is refused with a ParamsError
    naming the problem."""
    with pytest.raises(ParamsError) as info:
        SPEC.new_game(params(3), seed=1, arrangement=arrangement)
    assert message in str(info.value)


def test_setup_arrangement_card_errors() -> None:
    """Arrangement cards must belong where they are listed, once each."""
    comp = default_comp()
    silver_card = comp.chest_cards[1][0]
    bronze_card = next(c for c in comp.chest_cards[0] if c != comp.sorcerer_of(0))
    start = comp.starting_cards
    for arrangement, message in [
        ({"decks": {"bronze": [silver_card]}}, f"card {silver_card} is not a bronze chest card"),
        ({"decks": {"bronze": [bronze_card, bronze_card]}}, "lists a card twice"),
        ({"starting": [[start[0]], [start[0]], [start[1]]]}, "a starting card is dealt twice"),
        ({"starting": [[bronze_card], [start[0]], [start[1]]]}, "player 0 needs 1 starting"),
        (
            {"decks": {"bronze": [c for c in comp.chest_cards[0] if c != comp.sorcerer_of(0)]}},
            "leaves no room for the Sorcerer",
        ),
    ]:
        with pytest.raises(ParamsError) as info:
            SPEC.new_game(params(3), seed=1, arrangement=arrangement)
        assert message in str(info.value)


# -- Choose a Chest: secret, simultaneous setting ---------------------------------------------


def test_dice_are_hidden_until_everyone_has_set_them() -> None:
    """Choose a Chest / Simultaneous Reveal: each die is set secretly; nobody else sees it
    (nor its chest) until every die is set, then all are revealed at once."""
    state = new_game(3)
    act(state, 0, "set gold 6")
    for seat in (1, 2, None):
        view = state.view(seat)
        assert view["players"][0]["dice"] is None
        # Even that player 0 has set a die is secret until the reveal: an early answer could
        # tell the others something, and a determinized copy takes it back.
        assert view["players"][0]["dice_set"] is None
        assert 0 in view["to_act"]
    assert state.view(0)["players"][0]["dice"] == [{"chest": "gold", "face": 6}]
    assert events(state, "die_set") == [{"kind": "die_set", "player": 0}]
    act(state, 1, "set bronze 2")
    assert not events(state, "reveal")
    act(state, 2, "set silver 2")
    assert state.phase is Phase.RACE
    reveal = events(state, "reveal")[0]
    assert reveal["dice"][0] == [{"chest": "gold", "face": 6}]
    assert reveal["shared_faces"] == [2]
    for seat in (0, 1, 2, None):
        dice = [p["dice"] for p in state.view(seat)["players"]]
        assert dice == [
            [{"chest": "gold", "face": 6}],
            [{"chest": "bronze", "face": 2}],
            [{"chest": "silver", "face": 2}],
        ]


def test_two_players_put_their_dice_on_two_different_chests() -> None:
    """Choose a Chest, with 2 players: the two dice go on two different chest spaces; they
    may show the same face."""
    state = new_game(2)
    act(state, 0, "set bronze 4")
    legal = [state.action_to_str(a) for a in state.legal_actions(0)]
    assert not any(t.startswith("set bronze") for t in legal)
    assert "set silver 4" in legal and "set gold 1" in legal
    before = state.fingerprint()
    with pytest.raises(IllegalActionError, match="set bronze 5"):
        act(state, 0, "set bronze 5")
    assert state.fingerprint() == before
    act(state, 0, "set gold 4")
    assert state.dice[0] == [[BRONZE, 4], [GOLD, 4]]


def _recounted_to_act(state: MagicLampState) -> frozenset[int]:
    """Who acts, recounted from the dice and race answers (what ``state.waiting`` keeps)."""
    if state.phase is Phase.SETTING:
        k = state.params.dice_per_player
        return frozenset(p for p in range(state.num_players) if len(state.dice[p]) < k)
    if state.phase is Phase.RACE:
        return frozenset(p for p in range(state.num_players) if state.rub[p] == UNDECIDED)
    if state.phase is Phase.RESOLVE:
        assert state.pending is not None
        return frozenset({state.pending[1]})
    return frozenset()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_to_act_always_matches_the_dice_and_race_answers(n: int) -> None:
    """to_act reads the seats still waiting, which the rules keep as dice are set and
    answers given; it must agree with a recount at every step, in copies too."""
    rng = random.Random(n)
    for seed in range(4):
        state = new_game(n, seed=seed)
        while not state.is_over:
            assert state.to_act() == _recounted_to_act(state)
            seat = rng.choice(sorted(state.to_act()))
            clone = state.clone()
            assert clone.to_act() == _recounted_to_act(clone) == state.to_act()
            # A determinized copy takes back the other seats' secret answers: it waits for
            # every seat its seat cannot see finished.
            copy = state.determinize(seat, random.Random(seed))
            assert copy.to_act() == _recounted_to_act(copy) == state.to_act_seen_by(seat)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.to_act() == frozenset()


# -- Summon the Genie: the race ---------------------------------------------------------------


def test_every_player_answers_the_race() -> None:
    """Rub the lamp! (R16): after the reveal every player answers, rub or not; the race is
    resolved once all have answered, and the answers stay secret until then."""
    state = new_game(3)
    set_dice(state, {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 1)})
    assert state.to_act() == frozenset({0, 1, 2})
    assert len(state.legal_actions(2)) == A.RUB_BUCKETS + 1
    act(state, 0, "rub 400ms")
    # Whether player 0 answered is secret too: a quick answer would betray a rub.
    assert state.view(1)["players"][0]["race"] == "hidden"
    assert state.view(1)["to_act"] == [0, 1, 2]
    assert state.view(0)["players"][0]["race"] == 400
    assert state.view(0)["to_act"] == [1, 2]
    assert state.race_result is None
    act(state, 1, "rub 390ms")
    act(state, 2, "no-rub")
    assert state.race_result is not None
    assert state.race_result["races"] == [{"face": 3, "winner": 1, "tie": None}]
    assert state.race_result["rubs"] == {"0": 400, "1": 390}


def test_race_nobody_rubs_no_genie() -> None:
    """Rub the lamp!: a shared face gives the right to rub, not a wish: if nobody rubs,
    nobody summons the Genie and the search begins."""
    state = new_game(3)
    turn(state, {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 1)})
    assert state.summoners == []
    assert state.race_result is not None
    assert state.race_result["races"] == [{"face": 3, "winner": None}]
    assert pending(state)[0] == "draw"


def test_race_two_player_summon_once() -> None:
    """Rub the lamp!, 2 players: "One player can summon the Genie only once": both players
    show a 3 and a 5 and the same player is faster; they win the 3 race and the other player
    wins the 5 (R4)."""
    state = new_game(2)
    turn(
        state,
        {0: [("bronze", 3), ("silver", 5)], 1: [("gold", 3), ("bronze", 5)]},
        rubs={0: 200, 1: 700},
    )
    assert state.race_result is not None
    assert [(r["face"], r["winner"]) for r in state.race_result["races"]] == [(3, 0), (5, 1)]
    assert state.summoners == [0, 1]


def test_race_several_winners_lowest_face_wishes_first() -> None:
    """Rub the lamp!, 4-5 players: each duplicated face has its own winner; the lower face
    wishes first."""
    state = new_game(5)
    turn(
        state,
        {0: ("bronze", 6), 1: ("silver", 6), 2: ("gold", 2), 3: ("bronze", 2), 4: ("gold", 4)},
        rubs={0: 100, 1: 150, 2: 900, 3: 800},
    )
    assert state.summoners == [3, 0]
    assert pending(state)[:2] == ("wish", 3)


# -- Make your dreams come true: the wish flow ------------------------------------------------


def wish_game(
    lamp: list[int],
    n: int = 3,
    dice: dict[int, Any] | None = None,
    **options: Any,
) -> MagicLampState:
    """A game stopped at player 0's first wish, with ``lamp`` on top of the Lamp pile."""
    state = new_game(n, lamp=lamp, **options)
    if dice is None:
        dice = (
            {0: [("bronze", 2), ("gold", 6)], 1: [("silver", 2), ("gold", 5)]}
            if n == 2
            else {0: ("bronze", 2), 1: ("silver", 2), **{p: ("gold", 6) for p in range(2, n)}}
        )
    turn(state, dice, rubs={0: 250})
    assert pending(state)[:2] == ("wish", 0)
    return state


def test_wish_accepted_first_card_goes_under_the_pile() -> None:
    """Make your dreams come true!: the summoner draws the top Lamp card, likes it, applies it
    and puts it under the pile; the search follows."""
    comp = default_comp()
    ward = lamp_card(comp, "ward")
    state = wish_game([ward])
    # Everyone sees the card drawn; the summoner sees it with their choice.
    assert state.view(1)["pending"]["lamp"]["id"] == ward
    assert state.view(0)["decision"]["context"]["lamp"]["id"] == ward
    choose(state, "accept")
    assert state.lamp_deck[0] == ward
    assert state.lamp_known == 1
    assert state.view(2)["lamp_pile"]["known_bottom"][0]["id"] == ward
    assert state.ward[0] == comp.lamp_cards[ward].count
    assert pending(state)[0] == "draw"
    assert_conserved(state)


def test_wish_rejected_twice_third_card_is_forced() -> None:
    """Make your dreams come true!: a refused card goes under the pile unapplied and the
    summoner wishes again; the third card must be applied (it is applied at once, R11)."""
    comp = default_comp()
    ward = lamp_card(comp, "ward")
    first, second = [i for i in range(len(comp.lamp_cards)) if i != ward][:2]
    state = wish_game([first, second, ward])
    choose(state, "reject", player=0)
    assert pending(state)[:2] == ("wish", 0)
    assert state.pending is not None and state.pending[3] == (second, 2)
    choose(state, "reject", player=0)
    # Third wish: no choice left, the card applies by itself.
    assert state.lamp_deck[:3] == [ward, second, first]
    assert state.ward[0] == comp.lamp_cards[ward].count
    granted = events(state, "wish_granted")
    assert granted == [{"kind": "wish_granted", "player": 0, "wish": 3, "forced": True}]
    assert [e["wish"] for e in events(state, "wish_rejected")] == [1, 2]
    assert len(state.lamp_deck) == len(comp.lamp_cards)


def test_wish_options_are_accept_and_reject_only_to_the_summoner() -> None:
    """Make your dreams come true!: only the summoner decides; everyone sees the card."""
    comp = default_comp()
    state = wish_game([lamp_card(comp, "ward")])
    assert pending(state) == ("wish", 0, ["accept", "reject"])
    mine = state.view(0)["decision"]
    assert [o["text"] for o in mine["options"]] == ["accept", "reject"]
    assert mine["kind"] == "wish" and mine["default"] == A.ACCEPT
    assert state.view(1)["decision"] is None
    assert state.view(1)["pending"]["kind"] == "wish"
    assert state.view(1)["pending"]["player"] == 0
    with pytest.raises(NotYourTurnError):
        act(state, 1, "accept")


# -- Lamp effects -----------------------------------------------------------------------------


def test_effect_draw_chest_fixed_chest() -> None:
    """Lamp effect draw_chest ("draw the first card of the bronze chest"): the summoner takes
    the top card of that chest."""
    comp = default_comp()
    windfall = lamp_card(comp, "draw_chest", chest="bronze")
    top = chest_stones(comp, BRONZE, 1)
    state = new_game(3, decks={"bronze": top}, lamp=[windfall])
    turn(state, {0: ("silver", 2), 1: ("gold", 2), 2: ("gold", 6)}, rubs={0: 300})
    choose(state, "accept", player=0)
    assert state.holdings[0][-1] == top[0]
    assert events(state, "lamp_draw")[0]["card"]["id"] == top[0]
    assert_conserved(state)


def test_effect_draw_chest_any_chest_the_wisher_chooses() -> None:
    """Lamp effect draw_chest with chest "any": the summoner picks a chest and takes its top
    cards."""
    comp = default_comp()
    sesame = lamp_card(comp, "draw_chest", chest=None)
    count = comp.lamp_cards[sesame].count
    top = chest_stones(comp, GOLD, count)
    state = wish_game([sesame], decks={"gold": top})
    choose(state, "accept")
    assert pending(state) == ("effect_chest", 0, ["chest bronze", "chest silver", "chest gold"])
    choose(state, "chest gold")
    assert state.holdings[0][-count:] == top


def test_effect_steal_takes_an_unprotected_opponent_card() -> None:
    """Lamp effect steal: the summoner takes a jewel or stone of their choice from an
    opponent, never a talisman or a jewel of a complete set."""
    comp = default_comp()
    gold_set = [find_card(comp, kind="jewel", metal="gold", jewel=j) for j in JEWELS]
    talisman = find_card(comp, kind="talisman")
    ruby = find_card(comp, kind="stone", stone="ruby")
    state = new_game(3, lamp=[lamp_card(comp, "steal")])
    set_holdings(state, {2: [*gold_set, talisman, ruby]})
    place_talisman(state, talisman, stone_type(comp, "ruby"))
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 250})
    choose(state, "accept")
    assert card_options(state) == {ruby, *state.holdings[1]}
    choose(state, card_text(ruby), kind="effect_card")
    assert ruby in state.holdings[0] and ruby not in state.holdings[2]
    assert events(state, "steal")[0]["victim"] == 2
    assert_conserved(state)


def test_effect_swap_exchanges_two_unprotected_cards() -> None:
    """Lamp effect swap: the summoner gives one of their loose cards and takes one of an
    opponent's."""
    comp = default_comp()
    mine = find_n(comp, 2, kind="stone", stone="emerald")
    theirs = find_card(comp, kind="stone", stone="sapphire")
    state = new_game(3, lamp=[lamp_card(comp, "swap")])
    set_holdings(state, {0: mine, 2: [theirs]})
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 250})
    choose(state, "accept")
    assert pending(state)[0] == "swap_own" and card_options(state) == set(mine)
    choose(state, card_text(mine[1]))
    assert pending(state)[0] == "swap_theirs"
    assert card_options(state) == {theirs, *state.holdings[1]}
    choose(state, card_text(theirs))
    assert state.holdings[0] == [mine[0], theirs]
    assert state.holdings[2] == [mine[1]]
    assert_conserved(state)


def test_effect_swap_of_a_ruby_for_a_ruby_keeps_the_talismans_on_ruby() -> None:
    """Lamp effect swap and Talismans: an exchange is one move. A player who gives their only
    ruby for an opponent's ruby still has a ruby afterwards, so the talisman on ruby is not
    left alone (it is left alone only when the player ends up with no ruby at all)."""
    comp = default_comp()
    mine, theirs = find_n(comp, 2, kind="stone", stone="ruby")
    my_talisman, their_talisman = find_n(comp, 2, kind="talisman")
    state = new_game(3, lamp=[lamp_card(comp, "swap")])
    set_holdings(state, {0: [mine, my_talisman], 1: [], 2: [theirs, their_talisman]})
    place_talisman(state, my_talisman, stone_type(comp, "ruby"))
    place_talisman(state, their_talisman, stone_type(comp, "ruby"))
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 250})
    choose(state, "accept")  # one card each side: the exchange applies by itself (R11)
    assert events(state, "swap")[0]["took"]["id"] == theirs
    assert theirs in state.holdings[0] and mine in state.holdings[2]
    assert state.talisman_on[my_talisman] == stone_type(comp, "ruby")
    assert state.talisman_on[their_talisman] == stone_type(comp, "ruby")
    assert not events(state, "talisman_alone")
    view = state.view(1)["players"]
    assert view[0]["stones"]["ruby"] == view[2]["stones"]["ruby"] == 2


def test_effect_swap_of_the_only_ruby_for_a_sapphire_leaves_the_talisman_alone() -> None:
    """Lamp effect swap and Talismans: giving away one's only ruby (for a sapphire) leaves
    the talisman on ruby alone, as a theft would."""
    comp = default_comp()
    ruby = find_card(comp, kind="stone", stone="ruby")
    sapphire = find_card(comp, kind="stone", stone="sapphire")
    talisman = find_card(comp, kind="talisman")
    state = new_game(3, lamp=[lamp_card(comp, "swap")])
    set_holdings(state, {0: [ruby, talisman], 1: [], 2: [sapphire]})
    place_talisman(state, talisman, stone_type(comp, "ruby"))
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 250})
    choose(state, "accept")
    assert state.holdings[0] == [talisman, sapphire]
    assert state.talisman_on[talisman] == LONE
    assert events(state, "talisman_alone")[0]["card"] == talisman


def test_effect_retrieve_takes_a_card_from_the_discard_pile() -> None:
    """Lamp effect retrieve: the summoner takes a card of their choice from the discard pile
    (here the undealt starting cards)."""
    comp = default_comp()
    state = wish_game([lamp_card(comp, "retrieve")])
    discard = list(state.discard)
    choose(state, "accept")
    assert pending(state)[:2] == ("retrieve", 0)
    assert card_options(state) == set(discard)
    choose(state, card_text(discard[-1]))
    assert state.holdings[0][-1] == discard[-1]
    assert discard[-1] not in state.discard


def test_effect_peek_is_private_to_the_peeker() -> None:
    """Lamp effect peek: the summoner secretly looks at a chest's top cards. Only their view
    shows the cards; the others see how many were looked at."""
    comp = default_comp()
    peek = lamp_card(comp, "peek")
    count = comp.lamp_cards[peek].count
    state = wish_game([peek])
    choose(state, "accept")
    if comp.lamp_cards[peek].chest is None:
        choose(state, "chest gold", kind="effect_chest")
    chest = comp.lamp_cards[peek].chest if comp.lamp_cards[peek].chest is not None else GOLD
    top = state.decks[chest][::-1][:count]
    mine = state.view(0)
    assert [c["id"] for c in mine["chests"][chest]["known_top"]] == top
    assert next(e["cards"] for e in mine["log"] if e["kind"] == "peek_cards")[0]["id"] == top[0]
    for seat in (1, 2, None):
        view = state.view(seat)
        assert view["chests"][chest]["known_top"] == []
        assert view["players"][0]["known_top_counts"][CHESTS[chest]] == count
        assert not [e for e in view["log"] if e["kind"] == "peek_cards"]
        assert [e["count"] for e in view["log"] if e["kind"] == "peek"] == [count]


def test_effect_set_die_changes_the_face_for_the_search() -> None:
    """Lamp effect set_die: the summoner turns their die to any face; the search reads the new
    face and no new race starts (R17)."""
    comp = default_comp()
    state = wish_game([lamp_card(comp, "set_die")])
    race = state.race_result
    choose(state, "accept")
    # One die at 3 players: it is the one changed (R11); the face is a real choice.
    assert pending(state) == ("effect_face", 0, [f"face {f}" for f in range(1, 7)])
    choose(state, "face 6")
    assert state.dice[0] == [[BRONZE, 6]]
    assert state.race_result == race and state.summoners == [0]
    assert pending(state)[:2] == ("draw", 0)
    assert state.draw_ctx is not None and state.draw_ctx[2] == 6


def test_effect_set_die_two_players_choose_which_die() -> None:
    """Lamp effect set_die with 2 players: the summoner first picks which of their two dice
    to turn."""
    comp = default_comp()
    state = wish_game([lamp_card(comp, "set_die")], n=2)
    choose(state, "accept")
    assert pending(state) == ("effect_die", 0, ["chest bronze", "chest gold"])
    choose(state, "chest gold")
    choose(state, "face 1", kind="effect_face")
    assert state.dice[0] == [[BRONZE, 2], [GOLD, 1]]


def test_effect_move_die_moves_it_to_another_chest() -> None:
    """Lamp effect move_die: the summoner moves their die to another chest space, which is
    the one it searches."""
    comp = default_comp()
    state = wish_game([lamp_card(comp, "move_die")])
    choose(state, "accept")
    assert pending(state) == ("effect_move", 0, ["chest silver", "chest gold"])
    choose(state, "chest gold")
    assert state.dice[0] == [[GOLD, 2]]
    # Bronze is empty now; silver is player 1's; on gold player 0's 2 beats player 2's 6.
    stop(state, player=1)
    assert pending(state)[:2] == ("draw", 0)
    assert [e["drawer"] for e in events(state, "search")] == [None, 1, 0]


def test_effect_ward_ignores_the_first_scorpions() -> None:
    """Lamp effect ward (Snake Charmer): this turn the first scorpions the summoner draws do
    not count, so a draw that would reach the die survives."""
    comp = default_comp()
    ward = lamp_card(comp, "ward")
    w = comp.lamp_cards[ward].count
    stinger = find_card(comp, kind="treasure", min_scorpions=1, max_scorpions=min(w, 5))
    s = comp.cards[stinger].scorpions
    chest = comp.cards[stinger].chest
    assert chest is not None
    other = next(name for c, name in enumerate(CHESTS) if c != chest)
    dice = {0: (CHESTS[chest], s), 1: (other, s), 2: (other, 6)}

    # Without the ward the card reaches the die: a bust.
    state = new_game(3, decks={CHESTS[chest]: [stinger]}, lamp=[ward])
    turn(state, dice)
    while pending(state)[:2] != ("draw", 0):
        stop(state)
    draw(state, 1, player=0)
    assert stinger in state.discard

    # With it, the scorpions are warded off and the card is kept.
    state = new_game(3, decks={CHESTS[chest]: [stinger]}, lamp=[ward])
    turn(state, dice, rubs={0: 100})
    choose(state, "accept")
    assert state.ward[0] == w
    while pending(state)[:2] != ("draw", 0):
        stop(state)
    draw(state, 1, player=0)
    assert stinger not in state.discard
    assert events(state, "draw")[-1]["warded"] == s
    assert state.ward[0] == w - s


def test_draw_then_stop_keeps_the_cards() -> None:
    """Search the Chests: cards are drawn one by one and the player may stop before the
    maximum; the cards drawn are kept, face up."""
    comp = default_comp()
    top = chest_stones(comp, BRONZE, 3)
    state = new_game(3, decks={"bronze": top})
    turn(state, {0: ("bronze", 5), 1: ("gold", 1), 2: ("gold", 1)})
    draw(state, 2, player=0)
    assert state.view(1)["draw"]["drawn"][1]["id"] == top[1]
    stop(state, player=0)
    assert state.holdings[0][-2:] == top[:2]
    assert state.decks[BRONZE][-1] == top[2]
    kept = events(state, "draw_kept")[0]
    assert kept["count"] == 2 and kept["stopped"] is True


# -- Scoring ----------------------------------------------------------------------------------


def test_scoring_jewelry_sets_6_8_10() -> None:
    """How do I count my points?: a complete bronze, silver and gold set bring 6, 8 and 10
    bonus points; an incomplete set brings none."""
    comp = default_comp()
    state = new_game(3)
    for p, metal in enumerate(METALS):
        set_holdings(
            state, {p: [find_card(comp, kind="jewel", metal=metal, jewel=j) for j in JEWELS]}
        )
    bonuses = [score(state, p)[f"set_{m}"] for p, m in enumerate(METALS)]
    assert bonuses == [6, 8, 10]
    assert [s.total for s in state.scores()] == [9, 11, 13]
    state.holdings[2].pop()
    assert score(state, 2)["set_gold"] == 0 and state.scores()[2].total == 2


def test_scoring_stone_majority_is_strict() -> None:
    """How do I count my points?: the player with the most stones of a type gets 5 points;
    on a tie for the most, nobody does; holding none of a type never wins it."""
    comp = default_comp()
    rubies = find_n(comp, 5, kind="stone", stone="ruby")
    emeralds = find_n(comp, 4, kind="stone", stone="emerald")
    state = new_game(3)
    set_holdings(state, {0: [*rubies[:3], *emeralds[:2]], 1: [*rubies[3:], *emeralds[2:]], 2: []})
    assert score(state, 0)["majority_ruby"] == 5
    assert score(state, 1)["majority_ruby"] == 0
    assert score(state, 0)["majority_emerald"] == score(state, 1)["majority_emerald"] == 0
    assert all(v == 0 for k, v in score(state, 2).items())
    assert state.scores()[0].total == 5 + 5


def test_scoring_talismans_count_toward_majorities() -> None:
    """Talismans / How do I count my points?: a placed talisman counts as a stone of its type
    for the majority; a lone talisman is only its 1 point."""
    comp = default_comp()
    rubies = find_n(comp, 3, kind="stone", stone="ruby")
    talismans = find_n(comp, 2, kind="talisman")
    state = new_game(3)
    set_holdings(state, {0: [rubies[0], *talismans], 1: rubies[1:], 2: []})
    place_talisman(state, talismans[0], stone_type(comp, "ruby"))
    place_talisman(state, talismans[1], -1)
    assert score(state, 0)["majority_ruby"] == score(state, 1)["majority_ruby"] == 0  # 2 vs 2
    place_talisman(state, talismans[1], stone_type(comp, "ruby"))
    assert score(state, 0)["majority_ruby"] == 5  # 3 vs 2
    assert score(state, 0)["cards"] == 3


def test_scoring_shared_victory_and_total_is_sum_of_breakdown() -> None:
    """End of the game: the most points wins; a tie for the most shares the victory."""
    comp = default_comp()
    stones = find_n(comp, 4, kind="stone", stone="sapphire")
    state = new_game(3)
    set_holdings(state, {0: stones[:2], 1: stones[2:], 2: []})
    assert state.ranking() == [1, 1, 3]
    assert state.returns() == [1.0, 1.0, -1.0]
    for s in state.scores():
        assert s.total == sum(s.breakdown.values())


def test_scoring_magic_ring_is_worth_five() -> None:
    """ "My Precious": the ring holder gains 5 bonus points at the end."""
    state = new_game(3, my_precious=True)
    clear_holdings(state)
    state.ring = 1
    assert score(state, 1) == {**score(state, 0), "ring": RING_BONUS}
    assert state.scores()[1].total == RING_BONUS


def test_final_scores_and_ranking_after_a_full_game() -> None:
    """End of the game: a finished game reports its scores in the log and a ranking."""
    state = new_game(4, seed=21, max_turns=3)
    while not state.is_over:
        if state.phase is Phase.SETTING:
            turn(state, {0: ("bronze", 2), 1: ("silver", 3), 2: ("gold", 4), 3: ("gold", 5)})
        else:
            stop_all_draws(state)
    over = events(state, "game_over")[0]
    assert over["scores"] == [dict(s.breakdown) for s in state.scores()]
    assert min(state.ranking()) == 1


# -- Typed errors -----------------------------------------------------------------------------


def refused(state: MagicLampState, error: type[ArabesqueError], call: Callable[[], Any]) -> str:
    """Run ``call``, which must raise ``error``; the state must not change. Returns the
    message."""
    before = state.fingerprint()
    history = list(state.history)
    view = json.dumps(state.view(None))
    with pytest.raises(error) as info:
        call()
    assert state.fingerprint() == before
    assert state.history == history
    assert json.dumps(state.view(None)) == view
    message = str(info.value)
    assert message
    return message


def test_error_not_your_turn_says_who_is_awaited() -> None:
    """A player who may not act gets NotYourTurnError naming who is awaited and why."""
    state = new_game(3)
    turn(state, {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 1)})
    message = refused(state, NotYourTurnError, lambda: act(state, 2, "stop"))
    assert "player 2" in message and "[0]" in message and "draw by player 0" in message
    act(state, 0, "stop")
    message = refused(state, NotYourTurnError, lambda: state.apply(7, A.DRAW))
    assert "waiting for [1]" in message


def test_error_illegal_action_lists_the_legal_ones() -> None:
    """A well-formed action the rules do not allow now gets IllegalActionError quoting the
    legal actions."""
    state = new_game(3)
    turn(state, {0: ("bronze", 3), 1: ("silver", 3), 2: ("gold", 1)})
    message = refused(state, IllegalActionError, lambda: act(state, 0, "accept"))
    assert "'accept' is not legal for player 0" in message
    assert "legal: draw, stop" in message
    state = new_game(3)
    message = refused(state, IllegalActionError, lambda: act(state, 0, "draw"))
    assert "set bronze 1" in message and "more" in message


@pytest.mark.parametrize(
    "action",
    [-1, 10**6, "draw", None, 1.5, True, [0], A.num_actions(10**4)],
)
def test_error_invalid_action_for_garbage(action: Any) -> None:
    """Something that is no action of this game at all gets InvalidActionError."""
    state = new_game(3)
    message = refused(state, InvalidActionError, lambda: state.apply(0, action))
    assert "action" in message


@pytest.mark.parametrize(
    "text",
    ["dance", "set gold 7", "set gold x", "set copper 3", "rub 3000ms", "rub 345ms",
     "rub soon", "target 9", "card -1", "card 100000", "face 0", "stone", "", "draw now"],
)  # fmt: skip
def test_error_invalid_action_text(text: str) -> None:
    """Unparsable action text gets InvalidActionError saying what was expected."""
    state = new_game(3)
    message = refused(state, InvalidActionError, lambda: state.parse_action(text))
    assert repr(text) in message or "reaction time" in message


def test_error_wrong_player_types() -> None:
    """A player must be a seat number: anything else is InvalidActionError or, for a number
    that is no seat, NotYourTurnError."""
    state = new_game(3)
    refused(state, InvalidActionError, lambda: state.apply("0", A.set_die(0, 1)))  # type: ignore[arg-type]
    refused(state, InvalidActionError, lambda: state.apply(True, A.set_die(0, 1)))  # type: ignore[arg-type]
    refused(state, NotYourTurnError, lambda: state.apply(3, A.set_die(0, 1)))
    refused(state, NotYourTurnError, lambda: state.apply(-1, A.set_die(0, 1)))
    refused(state, InvalidActionError, lambda: state.view(3))
    refused(state, InvalidActionError, lambda: state.view("0"))  # type: ignore[arg-type]


def test_error_game_over_refuses_everything() -> None:
    """After the end, every action gets GameOverError."""
    comp = default_comp()
    windfall = lamp_card(comp, "draw_chest", chest="bronze")
    state = new_game(3, decks={"bronze": [comp.sorcerer_of(BRONZE)]}, lamp=[windfall])
    turn(state, {0: ("silver", 2), 1: ("gold", 2), 2: ("gold", 6)}, rubs={0: 300})
    choose(state, "accept")
    assert state.is_over
    message = refused(state, GameOverError, lambda: state.apply(0, A.DRAW))
    assert "game is over" in message
    refused(state, GameOverError, lambda: state.apply(1, A.set_die(0, 3)))
    assert all(state.legal_actions(p) == () for p in range(3))


def test_card_kinds_in_views_are_the_components_kinds() -> None:
    """Cards in front of players are public, each described by its kind."""
    state = new_game(3)
    kinds = {c["kind"] for p in state.view(None)["players"] for c in p["cards"]}
    assert kinds <= {k.value for k in CardKind}


# -- records ----------------------------------------------------------------------------------


def test_editing_a_records_json_does_not_change_the_game() -> None:
    """A record is a copy: editing its JSON (or the arrangement a state returns) leaves the
    game, and later records of it, untouched, so they still replay to the same state."""
    state = new_game(3, seed=4)
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)})
    data = state.record().to_json()
    data["setup"]["arrangement"]["decks"]["bronze"].reverse()
    data["setup"]["arrangement"]["starting"][0] = []
    state.arrangement()["lamp_deck"].clear()
    again = GameRecord.from_json(json.loads(json.dumps(state.record().to_json()))).replay()
    assert again.fingerprint() == state.fingerprint()


# -- views are copies -------------------------------------------------------------------------


def scramble(node: Any) -> None:
    """Mutate every dict and list of a JSON tree in place."""
    if isinstance(node, dict):
        for key in list(node):
            scramble(node[key])
        node["junk"] = 1
    elif isinstance(node, list):
        for value in node:
            scramble(value)
        node.append("junk")


def race_resolved_state() -> MagicLampState:
    state = new_game(3, seed=4)
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 100, 1: 200})
    return state


def test_mutating_a_view_never_changes_the_game() -> None:
    """A view is what a front end or bot owns: changing it in place must not change the
    game (here after a race, whose result every view shows)."""
    state = race_resolved_state()
    before = state.fingerprint()
    for seat in (None, 0, 1, 2):
        scramble(state.view(seat, include_log=False))
    assert state.fingerprint() == before
    assert state.race_result is not None and "junk" not in state.race_result


def test_mutating_a_views_log_never_changes_the_game() -> None:
    """The log in a view is the reader's too: changing it must not change the game."""
    state = race_resolved_state()
    before = state.fingerprint()
    scramble(state.view(0)["log"])
    assert state.fingerprint() == before


def test_a_reaction_time_that_is_not_a_finite_number_is_an_invalid_action() -> None:
    from arabesque.core.errors import InvalidActionError
    from arabesque.games.magic_lamp import actions

    for bad in (float("nan"), float("inf"), -10.0, 5000.0):
        with pytest.raises(InvalidActionError, match="reaction time"):
            actions.rub(bad)
    assert actions.rub_ms(actions.rub(344.0)) == 340


def test_a_boolean_is_no_seat_for_legal_actions() -> None:
    from arabesque.core import get_game

    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(num_players=3), seed=5)
    assert list(state.legal_actions(1)) and not list(state.legal_actions(True))
