"""The OpenSpiel games (arabesque.rl.openspiel): registered as python games, declared as the
docs say, and run through OpenSpiel's own random simulation test (on the game and, for the
simultaneous ones, on its turn-based conversion); plus what that test does not check: the
simultaneous nodes, the RNG a clone keeps, ``rng_seed``, and the observer."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

from arabesque.core.registry import get_game  # noqa: E402
from arabesque.rl.openspiel import GAMES  # noqa: E402

#: OpenSpiel's simulation test checks every node at length (each observation tensor it asks
#: for also deals a fresh game to size it), so a full game of random play takes tens of
#: seconds: Magic Lamp and Djinn play short games through their own caps, which end the game
#: by the rules' end (Magic Lamp's turn cap; Djinn's round cap, ruling D14). Ali Baba plays
#: whole games.
SIM_GAMES = [
    "python_arabesque_magic_lamp(players=2,max_turns=6)",
    "python_arabesque_ali_baba(players=2)",
    "python_arabesque_djinn(players=2,max_rounds=4)",
]


@pytest.mark.parametrize("name", SIM_GAMES)
def test_random_sim(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


@pytest.mark.parametrize("name", SIM_GAMES[:2])
def test_random_sim_turn_based(name: str) -> None:
    """OpenSpiel's MCTS and IS-MCTS bots take sequential games only: the converted game
    passes the same test. (Djinn is sequential already; the conversion refuses it.)"""
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(name))
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_declared_type_and_info(game_id: str) -> None:
    spec = get_game(game_id)
    players = spec.max_players
    game = pyspiel.load_game(GAMES[game_id], {"players": players})
    kind = game.get_type()
    assert kind.short_name == GAMES[game_id]
    expected = (
        pyspiel.GameType.Dynamics.SIMULTANEOUS
        if spec.simultaneous
        else pyspiel.GameType.Dynamics.SEQUENTIAL
    )
    assert kind.dynamics == expected
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (spec.min_players, spec.max_players)
    params = spec.make_params(num_players=players)
    assert game.num_players() == players
    assert game.num_distinct_actions() == spec.num_actions(params)
    assert game.max_game_length() == spec.max_game_length(params)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == list(spec.observation_shape(params))


def test_bad_params_are_refused() -> None:
    from arabesque.core.errors import ParamsError

    with pytest.raises((ParamsError, pyspiel.SpielError)):
        pyspiel.load_game("python_arabesque_magic_lamp(players=7)")
    with pytest.raises((ParamsError, pyspiel.SpielError)):
        pyspiel.load_game("python_arabesque_magic_lamp(race_step_ms=15)")


def _walk(state: object, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():  # type: ignore[attr-defined]
            return
        player = state.current_player()  # type: ignore[attr-defined]
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            n = state.num_players()  # type: ignore[attr-defined]
            actions = [
                int(rng.choice(legal)) if (legal := state.legal_actions(p)) else 0  # type: ignore[attr-defined]
                for p in range(n)
            ]
            state.apply_actions(actions)  # type: ignore[attr-defined]
        else:
            state.apply_action(int(rng.choice(state.legal_actions(player))))  # type: ignore[attr-defined]


def test_simultaneous_nodes_name_only_the_acting_seats() -> None:
    game = pyspiel.load_game("python_arabesque_magic_lamp(players=3)")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    seen = {"simultaneous": 0, "single": 0}
    for _ in range(300):
        if state.is_terminal():
            break
        acting = state.arabesque.to_act()
        player = state.current_player()
        if len(acting) > 1:
            assert player == pyspiel.PlayerId.SIMULTANEOUS
            seen["simultaneous"] += 1
            for p in range(3):
                assert bool(state.legal_actions(p)) == (p in acting)
        else:
            assert player == next(iter(acting))
            seen["single"] += 1
        _walk(state, rng, 1)
    assert seen["simultaneous"] and seen["single"]


def test_a_clone_keeps_the_rng() -> None:
    """The lamp race's ties and the deal come from the state's RNG: a clone played on with
    the same actions stays the same game."""
    game = pyspiel.load_game("python_arabesque_magic_lamp(players=4)")
    state = game.new_initial_state()
    _walk(state, np.random.default_rng(1), 40)
    copy = state.clone()
    _walk(state, np.random.default_rng(2), 2000)
    _walk(copy, np.random.default_rng(2), 2000)
    assert str(state) == str(copy)
    assert state.returns() == copy.returns()
    assert state.arabesque.fingerprint() == copy.arabesque.fingerprint()
    assert state.arabesque is not copy.arabesque


def test_an_undealt_clone_deals_the_same_game() -> None:
    game = pyspiel.load_game("python_arabesque_ali_baba(players=3)")
    state = game.new_initial_state()
    copy = state.clone()
    assert copy.arabesque.fingerprint() == state.arabesque.fingerprint()


def test_rng_seed_fixes_the_deals() -> None:
    def deals(seed: int) -> list[object]:
        game = pyspiel.load_game(f"python_arabesque_ali_baba(players=2,rng_seed={seed})")
        return [game.new_initial_state().arabesque.fingerprint() for _ in range(3)]

    assert deals(5) == deals(5)
    assert deals(5) != deals(6)
    first = deals(5)
    assert len({str(f) for f in first}) == 3, "each new initial state is a new deal"


def test_observer_tensor_dict_and_text() -> None:
    game = pyspiel.load_game("python_arabesque_ali_baba(players=3)")
    state = game.new_initial_state()
    _walk(state, np.random.default_rng(3), 10)
    inner = state.arabesque
    layout = inner.observer.layout
    observer = game.make_py_observer()
    assert list(observer.dict) == [f.name for f in layout]
    for p in range(3):
        observer.set_from(state, p)
        assert np.array_equal(observer.tensor, inner.observation(p))
        assert np.array_equal(observer.dict["tile_hand"], inner.observation(p)[layout["tile_hand"]])
        assert observer.string_from(state, p) == inner.render_text(p)
        assert np.array_equal(np.asarray(state.observation_tensor(p)), inner.observation(p))
        assert state.observation_string(p) == inner.render_text(p)
    public = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    public.set_from(state, 1)
    assert np.array_equal(public.tensor, inner.observation(None))
    with pytest.raises(ValueError, match="perfect_recall"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))


def test_the_race_options_reach_openspiel() -> None:
    game = pyspiel.load_game("python_arabesque_magic_lamp(players=2,race_step_ms=250)")
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(200):
        if state.is_terminal():
            break
        inner = state.arabesque
        for p in sorted(inner.to_act()):
            decision = inner.decision(p)
            if decision is not None and decision.reaction is not None:
                offered = [decision.reaction.ms_of(a) for a in state.legal_actions(p)]
                rubs = [ms for ms in offered if ms is not None]
                assert None in offered and rubs and min(rubs) >= 300
                assert all(ms % 250 == 0 for ms in rubs)
                return
        _walk(state, rng, 1)
    pytest.fail("no race within 200 steps")
