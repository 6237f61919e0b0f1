"""The core's new contract: nested and optional decisions (``DecisionStack``, ``Frame``,
``Decision.optional``/``trail``) proved on the toy game tests/toy_catch.py, and the rest of
the contract — versions, defaults, the incremental log, seat checks, search and determinized
copies, logging off — on the toy game and the real games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from enum import IntEnum
from typing import Any

import pytest

from arabesque.core import conformance as kit
from arabesque.core.decision import DecisionStack, Frame
from arabesque.core.errors import (
    ArabesqueError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    StaleStateError,
)
from arabesque.core.game import GameSpec, GameState
from arabesque.core.registry import get_game
from tests import toy_catch as toy
from tests.toy_catch import Kind

TOY = get_game("toy-catch")
#: The games and the player count each contract test plays.
GAMES = [("toy-catch", 2), ("magic-lamp", 3), ("ali-baba", 3)]
#: Games whose observers may still be unfinished (see test_bad_seats_are_refused).
REAL = {"magic-lamp", "ali-baba"}
#: Random playouts of Magic Lamp run to ~500 steps; the per-step checks stop earlier.
STEP_CAP = 150


def new_game(game: str, n: int, seed: int = 1) -> GameState:
    spec = get_game(game)
    return spec.new_game(spec.make_params(num_players=n), seed=seed)


def playout(state: GameState, rng: random.Random, cap: int = STEP_CAP) -> Iterator[GameState]:
    """Random steps on ``state`` itself, yielding it before the first and after each step."""
    yield state
    for _ in range(cap):
        if state.is_over:
            return
        kit.random_step(state, rng)
        yield state


# -- the toy game through the conformance kit ------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3])
def test_toy_catch_passes_the_conformance_kit(n: int) -> None:
    params = TOY.make_params(num_players=n)
    checked = kit.run_conformance(TOY, params, seeds=[n, 10 + n, 20 + n], every=3)
    assert checked >= 3 * 4
    # Not part of run_conformance: determinized copies play on, the observer's tensors are
    # well formed and hide the bag, and games end within the declared bound.
    rng = random.Random(n)
    for state in kit.iter_states(TOY, params, seed=n, every=4):
        kit.check_determinize_playable(state, rng)
        kit.check_observation(state)
        kit.check_observation_hides(state, rng)
    for seed in range(5):
        assert kit.random_playout(TOY, params, seed).is_over


@pytest.mark.parametrize(
    "spoil",
    [lambda legal: legal[::-1], lambda legal: (*legal, legal[-1])],
    ids=["descending", "a duplicate"],
)
def test_the_kit_finds_legal_actions_out_of_order_even_between_sampled_states(
    monkeypatch: pytest.MonkeyPatch, spoil: Any
) -> None:
    """A game whose legal actions are out of order (or list one twice) only now and then, at
    no state ``run_conformance`` samples, still fails it, and fails ``random_playout``: the
    order is checked at every step (Djinn's rare "free" decision escaped the sampling)."""
    cls = type(TOY.new_game(TOY.make_params(num_players=2), seed=1))
    honest = cls.legal_actions

    def sometimes_spoiled(self: GameState, player: int) -> tuple[int, ...]:
        legal = tuple(honest(self, player))
        return spoil(legal) if self.version % 7 == 3 and len(legal) > 1 else legal

    monkeypatch.setattr(cls, "legal_actions", sometimes_spoiled)
    params = TOY.make_params(num_players=2)
    with pytest.raises(AssertionError, match="not ascending without duplicates"):
        kit.run_conformance(TOY, params, seeds=[1, 2, 3], every=10**6)
    with pytest.raises(AssertionError, match="not ascending without duplicates"):
        for seed in range(3):
            kit.random_playout(TOY, params, seed)


# -- a scripted turn: PICK -> PAY -> PAY -> PLACE -> PICK -------------------------------------

# Spirit s is colour s % 3 (0 red, 1 green, 2 blue) and costs 1 + (s // 3) % 3.
RED_1, RED_2, GREEN_1, BLUE_2, RED_1B = 0, 3, 1, 5, 9
PICK_PROMPT = "Pick a spirit to catch, or done"


def scripted_game() -> toy.ToyCatchState:
    arrangement = {
        "pool": [RED_1, RED_2, GREEN_1, BLUE_2],
        "bag": [RED_1B, 2, 4],
        "coins": [[1, 1, 1, 2, 3], [1, 1]],
    }
    state = TOY.new_game(TOY.make_params(num_players=2), seed=7, arrangement=arrangement)
    assert isinstance(state, toy.ToyCatchState)
    return state


def step(state: toy.ToyCatchState, text: str, kind: Kind, depth: int) -> None:
    """Seat 0 plays ``text``; the game then waits on seat 0's ``kind`` decision, ``depth``
    frames deep, with the enclosing prompts as its trail."""
    state.apply(0, state.parse_action(text))
    decision = state.decision(0)
    assert decision is not None and decision.kind is kind
    assert [f.kind for f in state.stack.frames][-1] is kind and len(state.stack) == depth
    # Every enclosing frame's prompt is on the trail, outermost first; PICK is the root.
    assert decision.trail == (() if depth == 1 else (PICK_PROMPT,))


def picks(state: toy.ToyCatchState) -> set[int]:
    decision = state.decision(0)
    assert decision is not None
    return {a - toy.PICK for a in decision.options if toy.PICK <= a < toy.PAY}


def test_scripted_catch_walks_the_stack_and_returns_to_the_parent() -> None:
    state = scripted_game()
    first = state.decision(0)
    assert first is not None and first.kind is Kind.PICK and first.trail == ()
    assert first.default == toy.DONE and first.optional == ()
    assert picks(state) == {RED_1, RED_2, GREEN_1, BLUE_2}

    step(state, f"pick {RED_2}", Kind.PAY, depth=2)  # push
    pay = state.decision(0)
    assert pay is not None and pay.context == toy.spirit_json(RED_2)
    # "Done paying" is never offered: the only options are coins in hand.
    assert pay.options == tuple(toy.PAY + i for i in range(5)) and pay.optional == ()
    step(state, "pay 0", Kind.PAY, depth=2)  # replace: one coin is not enough for cost 2
    again = state.decision(0)
    assert again is not None and toy.PAY not in again.options  # the spent coin is gone
    assert "1 paid" in again.prompt
    step(state, "pay 1", Kind.PLACE, depth=2)  # replace: covered
    place = state.decision(0)
    assert place is not None and place.options == (toy.CIRCLE, toy.BOTTLED)
    step(state, "place bottle", Kind.PICK, depth=1)  # pop back to the parent

    # The parent's options are computed afresh: the caught spirit is gone, the refill is in.
    assert picks(state) == {RED_1, GREEN_1, BLUE_2, RED_1B}
    back = state.decision(0)
    assert back is not None and back.optional == ()  # one red bottled: no trophy yet


def test_claim_is_optional_when_earned_and_keeps_the_decision() -> None:
    state = scripted_game()
    for text, kind, depth in [
        (f"pick {RED_2}", Kind.PAY, 2),
        ("pay 0", Kind.PAY, 2),
        ("pay 1", Kind.PLACE, 2),
        ("place bottle", Kind.PICK, 1),
        (f"pick {RED_1}", Kind.PAY, 2),
        ("pay 2", Kind.PLACE, 2),
    ]:
        step(state, text, kind, depth)
        decision = state.decision(0)
        assert decision is not None and decision.optional == (), "a trophy offered too early"
    step(state, "place bottle", Kind.PICK, depth=1)

    claim_red = state.parse_action("claim red")
    at_pick = state.decision(0)
    assert at_pick is not None and at_pick.optional == (claim_red,)
    shown = state.view(0)["decision"]
    assert [o["action"] for o in shown["options"] if o.get("optional")] == [claim_red]
    assert at_pick.default == toy.DONE  # a side action is never the default

    # Still offered inside the next catch; taking it leaves that sub-decision as it was.
    step(state, f"pick {GREEN_1}", Kind.PAY, depth=2)
    inside = state.decision(0)
    assert inside is not None and inside.optional == (claim_red,)
    stack = state.stack
    state.apply(0, claim_red)
    after = state.decision(0)
    assert after is not None and after.kind is Kind.PAY and state.stack == stack
    assert after.prompt == inside.prompt and after.context == inside.context
    assert after.options == tuple(a for a in inside.options if a != claim_red)
    assert after.optional == () and state.trophies[0] == 0
    assert state.scores()[0].breakdown["trophies"] == 2


def test_a_spirit_with_no_place_is_not_pickable() -> None:
    arrangement = {"pool": [0, 3, 6, 4], "bag": [9, 2, 5, 7], "coins": [[3] * 5, [1]]}
    state = TOY.new_game(TOY.make_params(num_players=2), seed=7, arrangement=arrangement)
    assert isinstance(state, toy.ToyCatchState)
    # Fill the circle with a green spirit, then the red bottle with three red spirits.
    for i, (spirit, where) in enumerate(
        [(4, "circle"), (3, "bottle"), (6, "bottle"), (9, "bottle")]
    ):
        for text in (f"pick {spirit}", f"pay {i}", f"place {where}"):
            state.apply(0, state.parse_action(text))
    assert 0 in state.pool and state.coins[0][4] == 3  # red spirit 0 is affordable...
    assert 0 not in picks(state)  # ...but has nowhere to go, so it is not offered
    assert picks(state) == set(state.pool) - {0}


# -- no dead ends ---------------------------------------------------------------------------


def catch_completes(state: GameState, seat: int, steps: int) -> bool:
    """Whether following main (not side) options brings ``seat`` back to PICK in ``steps``."""
    assert isinstance(state, toy.ToyCatchState)
    if len(state.stack) == 1 or state.is_over:
        return True
    decision = state.decision(seat)
    if decision is None or steps == 0:
        return False
    for action in decision.options:
        if action in decision.optional:
            continue
        copy = state.search_copy()
        copy.apply(seat, action)
        if catch_completes(copy, seat, steps - 1):
            return True
    return False


@pytest.mark.parametrize("n", [1, 2, 3])
def test_no_dead_ends_along_random_playouts(n: int) -> None:
    offered = 0
    for seed in range(4):
        state = TOY.new_game(TOY.make_params(num_players=n), seed=seed)
        for now in playout(state, random.Random(seed)):
            for seat in now.to_act():
                for action in now.legal_actions(seat):
                    copy = now.search_copy()
                    copy.apply(seat, action)
                    offered += 1
                    if seat in copy.to_act():
                        assert copy.legal_actions(seat), f"{now.action_to_str(action)} dead-ends"
                    if toy.PICK <= action < toy.PAY:
                        # pick + at most 3 payments + place
                        assert catch_completes(copy, seat, steps=4)
    assert offered > 100


# -- DecisionStack value semantics ------------------------------------------------------------


class K(IntEnum):
    A = 0
    B = 1


def test_decision_stack_is_a_value() -> None:
    empty = DecisionStack()
    assert not empty and len(empty) == 0 and empty.top is None
    one = empty.push(Frame(K.A, 0))
    two = one.push(Frame(K.B, 0, (3,)))
    assert empty.frames == () and one.frames == (Frame(K.A, 0),)  # push made new stacks
    assert two.top == Frame(K.B, 0, (3,)) and len(two) == 2
    swapped = two.replace(Frame(K.A, 1))
    assert two.top == Frame(K.B, 0, (3,)) and swapped.frames == (Frame(K.A, 0), Frame(K.A, 1))
    popped = two.pop()
    assert popped == one and len(two) == 2  # pop returns the parent; the old stack stays
    assert hash(popped) == hash(one)  # a value: usable in fingerprints and sets
    with pytest.raises(IndexError):
        empty.pop()
    with pytest.raises(IndexError):
        empty.replace(Frame(K.A, 0))


# -- the rest of the contract, on every game --------------------------------------------------

game_ids = [g for g, _ in GAMES]


@pytest.mark.parametrize(("game", "n"), GAMES, ids=game_ids)
def test_versions_rise_by_one_and_stale_versions_change_nothing(game: str, n: int) -> None:
    state = new_game(game, n)
    rng = random.Random(2)
    while not state.is_over and state.version < STEP_CAP:
        before, version = state.fingerprint(), state.version
        seat = min(state.to_act())
        action = state.legal_actions(seat)[0]
        # A seat's actions are fresh at its own version only (``version_for``).
        seen = state.version_for(seat)
        for stale in (seen - 1, seen + 1):
            with pytest.raises(StaleStateError):
                state.apply(seat, action, version=stale)
            assert state.fingerprint() == before, "a refused stale action changed the state"
        kit.random_step(state, rng)
        assert state.version == version + 1


@pytest.mark.parametrize(("game", "n"), GAMES, ids=game_ids)
def test_default_actions_are_legal_for_the_acting_seats_only(game: str, n: int) -> None:
    state = new_game(game, n)
    for now in playout(state, random.Random(3)):
        for seat in range(n):
            default = now.default_action(seat)
            if seat in now.to_act():
                assert default in now.legal_actions(seat)
            else:
                assert default is None


@pytest.mark.parametrize("game", ["toy-catch", "magic-lamp", "ali-baba"])
def test_a_table_of_vanished_players_still_ends(game: str) -> None:
    spec: GameSpec = get_game(game)
    for n in range(spec.min_players, spec.max_players + 1):
        state = new_game(game, n, seed=n)
        limit = spec.max_game_length(state.params)
        while not state.is_over:
            for seat in sorted(state.to_act()):
                if seat in state.to_act():  # an earlier default may have closed the phase
                    default = state.default_action(seat)
                    assert default is not None
                    state.apply(seat, default)
            assert state.version <= limit, f"{game} {n}p: defaults exceed the length bound"
        assert state.to_act() == frozenset()
        kit.check_scores(state)


@pytest.mark.parametrize(("game", "n"), GAMES, ids=game_ids)
def test_incremental_log_equals_the_full_log(game: str, n: int) -> None:
    state = new_game(game, n, seed=4)
    seats: list[int | None] = [None, *range(n)]
    seen: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in seats}
    cursor: dict[int | None, int] = dict.fromkeys(seats, 0)
    for now in playout(state, random.Random(4)):
        for seat in seats:
            events, cursor[seat] = now.log_since(seat, cursor[seat])
            seen[seat].extend(events)
            assert seen[seat] == now.view(seat)["log"]
    assert seen[None], "nothing logged for a spectator"
    for bad in (-1, 1.5, "0", None, True):
        with pytest.raises(InvalidActionError):
            state.log_since(0, bad)  # type: ignore[arg-type]


#: An int saying yes to every comparison (the conformance kit's).
Lying = kit.AgreesWithEverything


def _refused(state: GameState, error: type[Exception], *args: Any, **kwargs: Any) -> None:
    before, history = state.fingerprint(), list(state.history)
    with pytest.raises(error):
        state.apply(*args, **kwargs)
    assert state.fingerprint() == before and state.history == history, "a refusal changed it"


@pytest.mark.parametrize(("game", "n"), [*GAMES, ("djinn", 2)], ids=[*game_ids, "djinn"])
def test_an_int_subclass_saying_yes_to_everything_is_read_as_its_real_value(
    game: str, n: int
) -> None:
    """``apply`` reads an action, a player and a version that are int subclasses as the plain
    ints they hold, before any check: an illegal or out-of-range one is refused with the state
    unchanged (Ali Baba applied an illegal action, Magic Lamp raised IndexError after changing
    the state), a legal one is applied as exactly that action; bools stay refused."""
    state = new_game(game, n)
    rng = random.Random(5)
    for _ in range(60):
        if state.is_over:
            break
        seat = min(state.to_act())
        legal = list(state.legal_actions(seat))
        illegal = next(a for a in range(state.num_actions) if a not in legal)
        others = [p for p in range(n) if p not in state.to_act()]
        _refused(state, IllegalActionError, seat, Lying(illegal))
        _refused(state, InvalidActionError, seat, Lying(state.num_actions + 3))
        _refused(state, InvalidActionError, seat, Lying(-1))
        if others:
            _refused(state, NotYourTurnError, Lying(others[0]), legal[0])
        _refused(state, NotYourTurnError, Lying(n + 2), legal[0])
        own = state.version_for(seat)  # the seat's own version (secret moves hidden)
        _refused(state, StaleStateError, seat, legal[0], version=Lying(own + 1))
        for bad in (True, False):
            _refused(state, InvalidActionError, seat, bad)
            _refused(state, InvalidActionError, bad, legal[0])
            _refused(state, InvalidActionError, seat, legal[0], version=bad)
        # A legal action given as such an int is applied as that action, by such a player.
        action = rng.choice(legal)
        twin = state.clone()
        twin.apply(seat, action, version=own)
        state.apply(Lying(seat), Lying(action), version=Lying(own))
        assert state.fingerprint() == twin.fingerprint()
        assert all(type(p) is int and type(a) is int for p, a in state.history)


@pytest.mark.parametrize(("game", "n"), GAMES, ids=game_ids)
def test_bad_seats_are_refused(game: str, n: int) -> None:
    state = new_game(game, n)
    before = state.fingerprint()
    rng = random.Random(5)
    bad_seats: list[Any] = [True, -1, n, "0", 1.5]
    for seat in bad_seats:
        for call in (
            lambda s: state.decision(s),
            lambda s: state.view(s),
            lambda s: state.observation(s),
            lambda s: state.determinize(s, rng),
            lambda s: state.log_since(s, 0),
            lambda s: state.render_text(s),
        ):
            with pytest.raises(InvalidActionError):
                call(seat)
    with pytest.raises(InvalidActionError):
        state.determinize(None, rng)  # type: ignore[arg-type]
    assert state.view(None)["decision"] is None  # a spectator decides nothing
    if game not in REAL:  # the real games' observers may be unfinished (NotImplementedError)
        assert state.observation(None).shape == get_game(game).observation_shape(state.params)
    assert state.fingerprint() == before, "refused calls changed the state"


@pytest.mark.parametrize(("game", "n"), GAMES, ids=game_ids)
def test_search_copies_forget_the_past_and_log_nothing(game: str, n: int) -> None:
    state = new_game(game, n)
    rng = random.Random(6)
    for now in playout(state, rng, cap=40):
        if now.version % 10:
            continue
        before = now.fingerprint()
        copy = now.search_copy()
        assert copy.history == [] and copy.events == []
        assert not copy.logging and not copy.recording
        assert kit.position_key(copy) == kit.position_key(now)
        for _ in playout(copy, random.Random(now.version), cap=60):
            pass
        assert copy.history == [] and copy.events == [], "a search copy logged its play"
        assert now.fingerprint() == before, "playing a search copy changed the original"


@pytest.mark.parametrize(("game", "n"), GAMES, ids=game_ids)
def test_determinized_copies_make_no_record(game: str, n: int) -> None:
    state = new_game(game, n)
    rng = random.Random(7)
    for seat in range(n):
        copy = state.determinize(seat, rng)
        with pytest.raises(ArabesqueError):
            copy.record()
    assert state.record().game == game  # the real game still does


@pytest.mark.parametrize(("game", "n"), GAMES, ids=game_ids)
def test_logging_off_plays_the_same_game(game: str, n: int) -> None:
    logged, quiet = new_game(game, n, seed=8), new_game(game, n, seed=8)
    quiet.logging = False
    setup = list(quiet.events)  # logged before logging could be switched off
    a, b = random.Random(8), random.Random(8)
    for _ in range(STEP_CAP):
        if logged.is_over:
            break
        assert kit.random_step(logged, a) == kit.random_step(quiet, b)
        assert kit.position_key(logged) == kit.position_key(quiet)
        assert logged.scores() == quiet.scores()
    assert logged.history == quiet.history and logged.is_over == quiet.is_over
    assert len(logged.events) > len(setup) and quiet.events == setup


def test_the_lamp_race_decision_is_a_real_time_reaction() -> None:
    """The race decision says how a reaction time becomes an action, so a front end (the
    server) can run any game's real-time moment without knowing the game."""
    from arabesque.core.registry import get_game
    from arabesque.games.magic_lamp import actions as A

    spec = get_game("magic-lamp")
    state = spec.new_game(spec.params_type(num_players=2), seed=3)
    while state.decision(0) is not None and state.decision(0).kind.name == "SET_DIE":
        for seat in sorted(state.to_act()):
            state.apply(seat, state.legal_actions(seat)[0])
    decision = state.decision(0)
    assert decision is not None and decision.reaction is not None
    reaction = decision.reaction
    assert reaction.action_for(342.0) == A.rub(340) and reaction.ms_of(A.rub(340)) == 340
    assert reaction.action_for(None) == A.NO_RUB == decision.default
    assert reaction.action_for(A.MAX_RUB_MS + 20) == A.NO_RUB
    assert reaction.action_for(float("nan")) == A.NO_RUB
    assert {reaction.action_for(ms) for ms in range(0, 4000, 7)} <= set(decision.options)
    assert state.view(0)["decision"]["reaction"] == {"window_ms": A.MAX_RUB_MS, "step_ms": 10}
