"""The PettingZoo envs (arabesque.rl.pettingzoo) under PettingZoo's own test suites, per game
at its smallest and largest player count, with PettingZoo's warnings turned into failures;
and what those suites do not check: seeded runs agree for 200 steps, observations hold still
while a simultaneous phase is chosen, illegal actions end the game, bad input is refused."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
pytest.importorskip("gymnasium", reason="the rl extra is not installed")

from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from arabesque.core.errors import ParamsError
from arabesque.core.registry import get_game
from arabesque.rl.pettingzoo import env, parallel_env, raw_env

GAMES = ["magic-lamp", "ali-baba", "djinn"]
CASES = [
    (game, n)
    for game in GAMES
    for n in sorted({get_game(game).min_players, get_game(game).max_players})
]
IDS = [f"{game}-{n}p" for game, n in CASES]
#: Random play rarely ends Djinn by the rules, so 1,000 cycles would be one long game: the
#: round cap (the game's own param, ruling D14) ends games sooner, so the suites also see
#: games end and reset.
OPTIONS: dict[str, dict[str, Any]] = {"djinn": {"max_rounds": 5}}


@pytest.fixture
def strict_warnings() -> Iterator[None]:
    """PettingZoo's checks warn rather than fail; here every warning fails the test, but
    two. ``api_test`` advises Box or Discrete observations and NumPy-array observations,
    and exempts by name only its own classic games with Dict observations (chess_v6,
    tictactoe_v3 ...); ours are Dict observations with an action mask by design (the issue
    asks for exactly that shape), so only those two advisories are let through."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings(
            "ignore", message="Observation space for each agent probably should be"
        )
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_api(game: str, players: int, strict_warnings: None) -> None:
    api_test(env(game, players=players, **OPTIONS.get(game, {})), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_parallel_api(game: str, players: int, strict_warnings: None) -> None:
    parallel_api_test(parallel_env(game, players=players, **OPTIONS.get(game, {})), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_seed(game: str, players: int, strict_warnings: None) -> None:
    seed_test(lambda: env(game, players=players, **OPTIONS.get(game, {})), 500)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_parallel_seed(game: str, players: int, strict_warnings: None) -> None:
    parallel_seed_test(lambda: parallel_env(game, players=players, **OPTIONS.get(game, {})), 500)


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_render(game: str, players: int, strict_warnings: None, capsys: Any) -> None:
    def make(render_mode: str | None = None) -> Any:
        return env(game, players=players, render_mode=render_mode)

    render_test(make)
    capsys.readouterr()
    # "human" prints the spectator's text, which "ansi" returns, for the same game.
    human, ansi = make("human"), make("ansi")
    human.reset(seed=1)
    ansi.reset(seed=1)
    assert human.render() is None
    text = ansi.render()
    assert isinstance(text, str) and text
    assert capsys.readouterr().out == text + "\n"


# -- what the suites do not check ------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return bool(a == b)


@pytest.mark.parametrize("game", GAMES)
def test_parallel_runs_with_one_seed_agree_for_200_steps(game: str) -> None:
    """PettingZoo 1.27's ``parallel_seed_test`` stops after one step (its ``any()`` runs
    over dict keys, fixed by PettingZoo PR #1437), so two envs are compared here step by
    step: observations, masks, rewards and flags."""
    spec = get_game(game)
    players = spec.max_players
    envs = [parallel_env(game, players=players) for _ in range(2)]
    obs = [e.reset(seed=7)[0] for e in envs]
    assert _same(obs[0], obs[1])
    steps = 0
    rng = np.random.default_rng(3)
    while steps < 200:
        if not envs[0].agents:
            obs = [e.reset(seed=int(steps))[0] for e in envs]
            assert _same(obs[0], obs[1])
        actions = {}
        for agent in envs[0].agents:
            mask = obs[0][agent]["action_mask"]
            legal = np.flatnonzero(mask)
            actions[agent] = int(rng.choice(legal)) if len(legal) else 0
        results = [e.step(actions) for e in envs]
        assert _same(results[0], results[1]), f"the runs differ at step {steps}"
        obs = [r[0] for r in results]
        steps += 1
    # The runs went somewhere: some seat was offered more than one action.
    assert steps == 200


def _play(aec: Any, choose: Callable[[str, Any], int], limit: int) -> Iterator[str]:
    for agent in aec.agent_iter(limit):
        obs, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else choose(agent, obs))
        yield agent


def test_aec_simultaneous_phase_buffers_choices_and_hides_them() -> None:
    """In Magic Lamp's secret setting, each seat chooses in turn but nothing is applied
    until the last one has: the others' observations do not change in between."""
    aec = raw_env("magic-lamp", players=3)
    aec.reset(seed=5)
    table = aec.table
    acting = table.to_act()
    assert len(acting) == 3, "the game opens with every seat setting dice"
    before = {a: aec.observe(a)["observation"].copy() for a in aec.agents}
    version = table.state.version
    for seat in acting[:-1]:
        assert aec.agent_selection == f"seat_{seat}"
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(np.flatnonzero(mask)[0]))
        assert table.state.version == version, "a buffered choice was applied early"
        for a in aec.agents:
            assert np.array_equal(aec.observe(a)["observation"], before[a])
    mask = aec.observe(aec.agent_selection)["action_mask"]
    aec.step(int(np.flatnonzero(mask)[0]))
    assert table.state.version == version + 3


def test_masks_are_zero_for_seats_that_do_not_act() -> None:
    aec = raw_env("ali-baba", players=3)
    aec.reset(seed=1)
    acting = set(aec.table.to_act())
    for seat in range(3):
        mask = aec.observe(f"seat_{seat}")["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any() == (seat in acting)


@pytest.mark.parametrize("make", [env, raw_env], ids=["wrapped", "raw"])
def test_aec_illegal_action_ends_the_game_with_minus_one(make: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about the illegal move
        aec = make("ali-baba", players=3)
        aec.reset(seed=2)
        agent = aec.agent_selection
        mask = aec.observe(agent)["action_mask"]
        version = aec.unwrapped.table.state.version
        aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert aec.unwrapped.table.state.version == version, "the illegal action was applied"
    assert all(aec.terminations.values())
    assert aec._cumulative_rewards[agent] == -1
    assert all(r == 0 for a, r in aec._cumulative_rewards.items() if a != agent)


def test_parallel_illegal_action_ends_the_game_and_ignores_idle_seats() -> None:
    par = parallel_env("ali-baba", players=2)
    obs, _ = par.reset(seed=4)
    (seat,) = par.table.to_act()
    idle = f"seat_{1 - seat}"
    mover = f"seat_{seat}"
    legal = int(np.flatnonzero(obs[mover]["action_mask"])[0])
    # The idle seat's action is ignored, whatever it is.
    obs, rewards, terms, _, _ = par.step({mover: legal, idle: 0})
    assert not any(terms.values()) and par.table.state.version == 1
    (seat,) = par.table.to_act()
    mover = f"seat_{seat}"
    illegal = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    _, rewards, terms, _, _ = par.step({a: illegal for a in par.agents})
    assert rewards[mover] == -1 and all(terms.values()) and par.agents == []
    assert par.table.state.version == 1
    with pytest.raises(ValueError, match="not a live agent"):
        par.step({mover: 0})


def test_final_rewards_are_returns_or_score_difference() -> None:
    for reward in ("returns", "score_diff"):
        par = parallel_env("ali-baba", players=3, reward=reward)
        obs, _ = par.reset(seed=11)
        rng = np.random.default_rng(0)
        total = dict.fromkeys(par.possible_agents, 0.0)
        while par.agents:
            actions = {}
            for a in par.agents:
                legal = np.flatnonzero(obs[a]["action_mask"])
                actions[a] = int(rng.choice(legal)) if len(legal) else 0
            obs, rewards, _, _, _ = par.step(actions)
            for a, r in rewards.items():
                total[a] += r
        state = par.table.state
        assert state.is_over
        if reward == "returns":
            expected = state.returns()
        else:
            scores = [s.total for s in state.scores()]
            expected = [
                s - max(o for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores)
            ]
        assert [total[f"seat_{i}"] for i in range(3)] == expected


def test_the_race_options_mask_fast_and_off_grid_rubs() -> None:
    aec = raw_env("magic-lamp", players=2, race_step_ms=100, race_floor_ms=300)
    aec.reset(seed=3)
    table = aec.table
    seen_race = False
    rng = np.random.default_rng(1)
    while not table.state.is_over and table.state.version < 400:
        agent = aec.agent_selection
        seat = int(agent.split("_")[1])
        decision = table.state.decision(seat)
        mask = aec.observe(agent)["action_mask"]
        if decision is not None and decision.reaction is not None:
            seen_race = True
            reaction = decision.reaction
            offered = {reaction.ms_of(int(a)) for a in np.flatnonzero(mask)}
            assert None in offered
            rubs = sorted(ms for ms in offered if ms is not None)
            assert rubs[0] == 300 and all(ms % 100 == 0 for ms in rubs)
            assert len(rubs) == (reaction.window_ms - 300) // 100 + 1
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    assert seen_race


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"game": "chess"}, ParamsError),
        ({"game": "ali-baba", "players": 9}, ParamsError),
        ({"game": "ali-baba", "colour": "red"}, ParamsError),
        ({"game": "magic-lamp", "race_step_ms": 15}, ParamsError),
        ({"game": "magic-lamp", "race_step_ms": 0}, ParamsError),
        ({"game": "magic-lamp", "race_floor_ms": 3000}, ParamsError),
        ({"game": "magic-lamp", "reward": "points"}, ValueError),
        ({"game": "magic-lamp", "render_mode": "rgb_array"}, ValueError),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        raw_env(**options)
    with pytest.raises(error):
        parallel_env(**options)


def test_bad_seeds_and_actions_are_refused() -> None:
    aec = raw_env("ali-baba", players=2)
    for seed in (1.5, "3", True):
        with pytest.raises(ValueError, match="seed"):
            aec.reset(seed=seed)  # type: ignore[arg-type]
    aec.reset(seed=np.int64(3))  # a numpy int is an int
    for action in (1.0, "1", -1, 10**6, True):
        with pytest.raises(ValueError, match="action"):
            aec.step(action)
    with pytest.raises(AssertionError):
        wrapped = env("ali-baba", players=2)
        wrapped.reset(seed=1)
        wrapped.step(10**6)


def test_reset_without_a_seed_draws_from_the_env_rng() -> None:
    a, b = raw_env("ali-baba", players=2), raw_env("ali-baba", players=2)
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.table.state.fingerprint() == b.table.state.fingerprint()
    first = a.table.state.fingerprint()
    a.reset()
    assert a.table.state.fingerprint() != first


def test_truncation_past_the_declared_length() -> None:
    """The games end by their rules well before ``max_game_length``; were one to run past
    it, every agent is truncated (not terminated) with reward 0."""
    aec = raw_env("ali-baba", players=2)
    aec.reset(seed=3)
    aec.table.max_length = 4
    for _ in range(4):
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(np.flatnonzero(mask)[0]))
    assert all(aec.truncations.values()) and not any(aec.terminations.values())
    assert all(r == 0 for r in aec._cumulative_rewards.values())
    par = parallel_env("ali-baba", players=2)
    obs, _ = par.reset(seed=3)
    par.table.max_length = 4
    for _ in range(4):
        actions = {
            a: int(np.flatnonzero(obs[a]["action_mask"])[0]) if obs[a]["action_mask"].any() else 0
            for a in par.agents
        }
        obs, _, terms, truncs, _ = par.step(actions)
    assert all(truncs.values()) and not any(terms.values()) and par.agents == []


def test_a_dead_agent_takes_only_none() -> None:
    aec = raw_env("ali-baba", players=2)
    aec.reset(seed=2)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aec.step(int(np.flatnonzero(mask == 0)[0]))  # illegal: everyone is done
    with pytest.raises(ValueError, match="None"):
        aec.step(0)
    aec.step(None)
    aec.step(None)
    assert aec.agents == []


def test_the_wrapped_env_keeps_pettingzoos_call_order_checks() -> None:
    """``env()`` reads the hot attributes straight from the raw env (``_ReadsRawEnv``); the
    order checks of PettingZoo's ``OrderEnforcingWrapper`` still hold."""
    from pettingzoo.utils import wrappers

    aec = env("magic-lamp", players=2)
    assert isinstance(aec, wrappers.OrderEnforcingWrapper)
    assert isinstance(aec.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(aec.env.env, wrappers.TerminateIllegalWrapper)
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(aec, name)
    with pytest.raises(AssertionError):
        aec.step(0)
    with pytest.raises(AssertionError):
        aec.observe("seat_0")
    assert aec.possible_agents == ["seat_0", "seat_1"]
    aec.reset(seed=1)
    assert aec.agent_selection == aec.unwrapped.agent_selection
    it = iter(aec.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="step"):
        next(it)  # agent_iter without a step in between


@pytest.mark.parametrize("game", GAMES)
def test_wrapped_and_raw_envs_play_the_same_game(game: str) -> None:
    """Through the wrappers every step sees what the raw env holds at that moment (nothing
    read from the raw env is kept): two envs with one seed and the same actions agree on
    the agent, observation, mask, rewards and flags at every step, to the end."""
    players = get_game(game).max_players
    wrapped = env(game, players=players, **OPTIONS.get(game, {}))
    raw = raw_env(game, players=players, **OPTIONS.get(game, {}))
    wrapped.reset(seed=5)
    raw.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    for agent in wrapped.agent_iter():
        assert agent == raw.agent_selection
        got, want = wrapped.last(), raw.last()
        assert _same(got, want)
        assert _same(
            (wrapped.rewards, wrapped.terminations, wrapped.truncations),
            (raw.rewards, raw.terminations, raw.truncations),
        )
        obs, _, terminated, truncated, _ = got
        legal = np.flatnonzero(obs["action_mask"])
        action = None if terminated or truncated else int(rng.choice(legal))
        wrapped.step(action)
        raw.step(action)
        steps += 1
    assert raw.agents == [] and steps > 50


def test_masks_are_fresh_arrays() -> None:
    """Masks are cached per legal tuple inside the env; what a caller gets is its own copy."""
    aec = raw_env("magic-lamp", players=2)
    aec.reset(seed=0)
    agent = aec.agent_selection
    first = aec.observe(agent)["action_mask"]
    kept = first.copy()
    first[:] = 0
    again = aec.observe(agent)["action_mask"]
    assert np.array_equal(again, kept) and again is not first


def test_the_action_space_answers_contains_as_gymnasiums_discrete() -> None:
    from gymnasium import spaces

    aec = raw_env("ali-baba", players=2)
    ours = aec.action_space("seat_0")
    theirs = spaces.Discrete(aec.table.num_actions)
    n = aec.table.num_actions
    for x in (0, n - 1, n, -1, 10**9, True, np.int64(3), np.int8(-1), 1.0, "1", None, np.array(2)):
        assert ours.contains(x) == theirs.contains(x), x
    assert ours == theirs and isinstance(ours, spaces.Discrete)
