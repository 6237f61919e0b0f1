"""Properties of Magic Lamp over random seeds and random action sequences (hypothesis).

Example counts come from the profile in tests/conftest.py (HYPOTHESIS_PROFILE=thorough for
many more).
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arabesque.core import ArabesqueError, GameRecord, InvalidActionError
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, CardKind
from arabesque.games.magic_lamp.rules import complete_sets, real_stones
from arabesque.games.magic_lamp.state import LONE, MagicLampState, Phase
from tests.scenarios import (
    SPEC,
    act,
    assert_conserved,
    choose,
    default_comp,
    lamp_card,
    new_game,
    params,
    turn,
    view_cards,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.sampled_from([2, 3, 4, 5])
#: Action choices: a short hand-picked list, or a long pseudo-random one (so that games get
#: deep: a whole game is a few hundred steps).
LONG_CHOICES = st.builds(
    lambda k, s: [random.Random(s).randrange(2**16) for _ in range(k)],
    st.integers(min_value=0, max_value=700),
    st.integers(min_value=0, max_value=2**32),
)
CHOICES = st.one_of(LONG_CHOICES, st.lists(st.integers(min_value=0, max_value=2**16), max_size=40))


def step(state: MagicLampState, choice: int) -> None:
    """Apply the legal action that ``choice`` picks (a player to act, then an action)."""
    acting = sorted(state.to_act())
    player = acting[choice % len(acting)]
    legal = state.legal_actions(player)
    state.apply(player, legal[(choice // len(acting)) % len(legal)])


def play(state: MagicLampState, choices: list[int]) -> MagicLampState:
    for choice in choices:
        if state.is_over:
            break
        step(state, choice)
    return state


# -- conservation, scores, replay -------------------------------------------------------------


@given(seed=SEEDS, n=PLAYERS, my_precious=st.booleans(), choices=CHOICES)
def test_every_card_is_in_exactly_one_zone(
    seed: int, n: int, my_precious: bool, choices: list[int]
) -> None:
    """Decks, holdings, the discard pile and the draw in progress hold every card id exactly
    once, and the Lamp pile (plus a wish card in hand) every Lamp card, after every step."""
    state = new_game(n, seed=seed, my_precious=my_precious)
    assert_conserved(state)
    for choice in choices:
        if state.is_over:
            break
        step(state, choice)
        assert_conserved(state)


@given(seed=SEEDS, n=PLAYERS, my_precious=st.booleans(), choices=CHOICES)
def test_score_breakdown_sums_to_total(
    seed: int, n: int, my_precious: bool, choices: list[int]
) -> None:
    """Every score's total is the sum of its breakdown, during and after the game; majority
    bonuses are strict (at most one player per stone type)."""
    state = play(new_game(n, seed=seed, my_precious=my_precious), choices)
    scores = state.scores()
    for s in scores:
        assert s.total == sum(s.breakdown.values())
        assert all(v >= 0 for v in s.breakdown.values())
    for name in state.comp.stone_types:
        assert sum(1 for s in scores if s.breakdown[f"majority_{name}"]) <= 1
    assert sum(1 for s in scores if s.breakdown["ring"]) <= (1 if my_precious else 0)
    ranks = state.ranking()
    best = max(s.total for s in scores)
    assert [r == 1 for r in ranks] == [s.total == best for s in scores]


@given(seed=SEEDS, n=PLAYERS, my_precious=st.booleans(), choices=CHOICES)
def test_replay_from_json_gives_the_same_game(
    seed: int, n: int, my_precious: bool, choices: list[int]
) -> None:
    """record -> JSON text -> record -> replay reaches the identical state (fingerprint,
    history and every seat's view)."""
    state = play(new_game(n, seed=seed, my_precious=my_precious), choices)
    text = json.dumps(state.record().to_json())
    again = GameRecord.from_json(json.loads(text)).replay()
    assert isinstance(again, MagicLampState)
    assert again.fingerprint() == state.fingerprint()
    assert again.history == state.history
    for seat in [None, *range(n)]:
        assert again.view(seat) == state.view(seat)


@given(seed=SEEDS, n=PLAYERS, my_precious=st.booleans(), choices=CHOICES)
def test_protected_cards_stay_and_placed_talismans_keep_a_stone(
    seed: int, n: int, my_precious: bool, choices: list[int]
) -> None:
    """Talismans never leave their holder and complete sets never break (both are safe until
    the end); a talisman placed on a stone type always has a real stone of that type beside
    it (else it is left alone); at the end every talisman held has been placed or left
    alone."""
    state = new_game(n, seed=seed, my_precious=my_precious)
    cards = state.comp.cards
    for choice in choices:
        if state.is_over:
            break
        talismans = [
            {c for c in held if cards[c].kind is CardKind.TALISMAN} for held in state.holdings
        ]
        sets = [complete_sets(state, p) for p in range(n)]
        step(state, choice)
        for p in range(n):
            assert talismans[p] <= set(state.holdings[p])
            assert all(a <= b for a, b in zip(sets[p], complete_sets(state, p), strict=True))
            for c in state.holdings[p]:
                on = state.talisman_on.get(c, LONE)
                if cards[c].kind is CardKind.TALISMAN and on != LONE:
                    assert real_stones(state, p, on) > 0
    if state.is_over:
        for held in state.holdings:
            for c in held:
                if cards[c].kind is CardKind.TALISMAN:
                    assert c in state.talisman_on


@given(seed=SEEDS, n=PLAYERS, choices=CHOICES)
def test_same_seed_same_actions_same_game(seed: int, n: int, choices: list[int]) -> None:
    """The seed and the actions determine the game."""
    a = play(new_game(n, seed=seed), choices)
    b = play(new_game(n, seed=seed), choices)
    assert a.fingerprint() == b.fingerprint()


# -- bad input --------------------------------------------------------------------------------

GARBAGE = st.one_of(
    st.integers(min_value=-(10**9), max_value=10**9),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=2),
)
WHO = st.one_of(st.integers(min_value=-3, max_value=8), st.none(), st.text(max_size=2))


@given(
    seed=SEEDS,
    n=PLAYERS,
    choices=CHOICES,
    attempts=st.lists(st.tuples(WHO, GARBAGE), min_size=1, max_size=12),
)
def test_bad_actions_raise_typed_errors_and_change_nothing(
    seed: int, n: int, choices: list[int], attempts: list[tuple[Any, Any]]
) -> None:
    """Random ints (in and out of range), wrong players and wrong types raise ArabesqueError
    subclasses (ValueErrors) with a message, and leave the state as it was."""
    state = play(new_game(n, seed=seed), choices)
    before = state.fingerprint()
    for who, action in attempts:
        legal = (
            isinstance(who, int)
            and not isinstance(who, bool)
            and isinstance(action, int)
            and not isinstance(action, bool)
            and who in state.to_act()
            and action in state.legal_actions(who)
        )
        assume(not legal)
        try:
            state.apply(who, action)
        except ArabesqueError as exc:
            assert isinstance(exc, ValueError) and str(exc)
        else:
            raise AssertionError(f"apply({who!r}, {action!r}) was accepted")
        assert state.fingerprint() == before


WORDS = st.sampled_from(
    ["set", "gold", "bronze", "silver", "rub", "no-rub", "accept", "reject", "draw", "stop",
     "target", "stone", "ruby", "chest", "face", "card", "ms", "340ms", "4", "-1", "7", "x"]
)  # fmt: skip
TEXTS = st.one_of(st.text(max_size=20), st.lists(WORDS, max_size=4).map(" ".join))


@given(text=TEXTS)
def test_parse_action_accepts_canonical_text_or_raises_invalid_action(text: str) -> None:
    """Any text either parses to an action of the space whose canonical text parses back to
    it, or raises InvalidActionError; nothing else."""
    state = new_game(3)
    try:
        action = state.parse_action(text)
    except InvalidActionError as exc:
        assert str(exc)
        return
    assert 0 <= action < state.num_actions
    assert state.parse_action(state.action_to_str(action)) == action


@given(action=st.integers(min_value=0, max_value=A.num_actions(default_comp().num_cards) - 1))
def test_every_action_has_text_that_parses_back(action: int) -> None:
    state = new_game(3)
    assert state.parse_action(state.action_to_str(action)) == action


# -- hidden information -----------------------------------------------------------------------


@given(seed=SEEDS, n=PLAYERS, choices=CHOICES, rng_seed=st.integers(0, 2**16))
def test_determinize_never_changes_the_seats_own_view(
    seed: int, n: int, choices: list[int], rng_seed: int
) -> None:
    """determinize(P) re-samples what P cannot see; P's view must stay identical, and the
    copy must hold every card exactly once."""
    state = play(new_game(n, seed=seed), choices)
    rng = random.Random(rng_seed)
    for seat in range(n):
        copy = state.determinize(seat, rng)
        assert copy.view(seat, include_log=False) == state.view(seat, include_log=False)
        assert_conserved(copy)


def shuffled_unseen(state: MagicLampState, chest: int, rng: random.Random) -> dict[str, Any]:
    """The game's arrangement with one chest's cards (all but its Sorcerer, which stays in
    its place) shuffled, and the Lamp pile shuffled."""
    start = json.loads(json.dumps(state.arrangement()))
    deck = start["decks"][CHESTS[chest]]  # top first
    sorcerer = state.comp.sorcerer_of(chest)
    others = [c for c in deck if c != sorcerer]
    rng.shuffle(others)
    others.insert(deck.index(sorcerer), sorcerer)
    start["decks"][CHESTS[chest]] = others
    rng.shuffle(start["lamp_deck"])
    return start


@settings(max_examples=12)
@given(
    seed=SEEDS,
    n=PLAYERS,
    chest=st.sampled_from([0, 1, 2]),
    choices=CHOICES,
    rng_seed=st.integers(0, 2**16),
)
def test_views_do_not_depend_on_unseen_deck_order(
    seed: int, n: int, chest: int, choices: list[int], rng_seed: int
) -> None:
    """Two games with the same seed whose chest and Lamp pile differ only in the order of
    cards nobody has seen give every seat identical views, step by step, until a card of
    that chest or a Lamp card is revealed (to anyone)."""
    a = new_game(n, seed=seed)
    arrangement = shuffled_unseen(a, chest, random.Random(rng_seed))
    b = SPEC.new_game(params(n), seed=seed, arrangement=arrangement)
    assert isinstance(b, MagicLampState)
    hidden = set(a.comp.chest_cards[chest]) - {a.comp.sorcerer_of(chest)}
    for choice in [0, *choices]:
        views_a = [a.view(seat) for seat in [None, *range(n)]]
        views_b = [b.view(seat) for seat in [None, *range(n)]]
        revealed = any(view_cards(v) & hidden for v in views_a + views_b) or any(
            e.kind in ("wish", "lamp_draw") for e in a.events
        )
        if revealed or a.is_over:
            break
        assert views_a == views_b
        step(a, choice)
        step(b, choice)


@given(seed=SEEDS, n=PLAYERS, data=st.data())
def test_a_secret_die_is_not_in_other_views_before_the_reveal(
    seed: int, n: int, data: st.DataObject
) -> None:
    """While dice are being set, no other seat's view (nor a spectator's) contains a die a
    player has set: it is identical whatever that die shows, and the JSON holds no trace
    of its chest and face."""
    k = 2 if n == 2 else 1
    secret = data.draw(st.lists(st.sampled_from(range(A.RUB_BASE)), min_size=k, max_size=k))
    other = data.draw(st.lists(st.sampled_from(range(A.RUB_BASE)), min_size=k, max_size=k))
    first_set = data.draw(st.sampled_from(range(n)))
    games = []
    for dice in (secret, other):
        state = new_game(n, seed=seed)
        for action in dice:
            if action in state.legal_actions(first_set):
                state.apply(first_set, action)
        games.append(state)
    a, b = games
    assume(a.dice[first_set] and len(a.dice[first_set]) == len(b.dice[first_set]))
    for seat in [None, *(p for p in range(n) if p != first_set)]:
        view = a.view(seat)
        assert view == b.view(seat)
        assert view["players"][first_set]["dice"] is None
        text = json.dumps(view)
        for chest, face in a.dice[first_set]:
            assert f'{{"chest": "{CHESTS[chest]}", "face": {face}}}' not in text
    assert a.view(first_set)["players"][first_set]["dice"] is not None


@given(seed=SEEDS, ms=st.integers(0, A.RUB_BUCKETS - 1), other_ms=st.integers(0, 299))
def test_a_race_answer_is_secret_until_everyone_answered(seed: int, ms: int, other_ms: int) -> None:
    """During the race, another seat sees neither the time nor even that a player
    answered."""
    views = []
    for bucket in (ms, other_ms):
        state = new_game(3, seed=seed)
        for p, (chest, face) in enumerate([("bronze", 2), ("silver", 2), ("gold", 4)]):
            act(state, p, f"set {chest} {face}")
        state.apply(0, A.RUB_BASE + bucket)
        assert state.phase is Phase.RACE
        views.append([state.view(seat) for seat in (None, 1, 2)])
    assert views[0] == views[1]
    assert views[0][1]["players"][0]["race"] == "hidden"
    assert views[0][1]["to_act"] == [0, 1, 2]


@given(seed=SEEDS, chest=st.sampled_from(CHESTS))
def test_peeked_cards_appear_only_in_the_peekers_view(seed: int, chest: str) -> None:
    """A peek shows the top cards to the peeker alone: no other seat's view (nor the
    spectator's) contains them, and their views equal those of a game without the peek's
    private part."""
    comp = default_comp()
    peek = lamp_card(comp, "peek")
    state = new_game(3, seed=seed, lamp=[peek])
    turn(state, {0: ("bronze", 2), 1: ("silver", 2), 2: ("gold", 6)}, rubs={0: 200})
    choose(state, "accept")
    if comp.lamp_cards[peek].chest is None:
        choose(state, f"chest {chest}", kind="effect_chest")
    c = comp.lamp_cards[peek].chest
    c = CHESTS.index(chest) if c is None else c
    seen = set(state.known_top[0][c])
    assert seen and seen <= view_cards(state.view(0))
    for seat in (None, 1, 2):
        assert not seen & view_cards(state.view(seat))
