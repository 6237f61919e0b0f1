"""The Gymnasium single-agent env (arabesque.rl.gym): Gymnasium's ``check_env`` with every
warning a failure, per game at its smallest and largest player count; and the opponents,
masks, rewards and refusals it promises."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from arabesque.core.errors import ParamsError  # noqa: E402
from arabesque.core.registry import get_game  # noqa: E402
from arabesque.rl.gym import ENV_ID, SingleAgentEnv  # noqa: E402

GAMES = ["magic-lamp", "ali-baba", "djinn"]
CASES = [
    (game, n, opponents)
    for game in GAMES
    for n in sorted({get_game(game).min_players, get_game(game).max_players})
    for opponents in ("random", "heuristic")
]


@pytest.mark.parametrize(
    ("game", "players", "opponents"), CASES, ids=[f"{g}-{n}p-{o}" for g, n, o in CASES]
)
def test_check_env(game: str, players: int, opponents: str) -> None:
    """Made through ``gymnasium.make`` (so ``check_env`` also checks each render mode),
    checked unwrapped, as Gymnasium recommends."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(ENV_ID, game=game, players=players, opponents=opponents)
        check_env(env.unwrapped)


def _play(env: SingleAgentEnv, seed: int, limit: int = 5000) -> tuple[float, int, bool, bool]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        assert mask.any(), "the learner is asked to act with nothing legal"
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated or steps >= limit:
            return total, steps, terminated, truncated


@pytest.mark.parametrize("game", GAMES)
def test_an_episode_ends_with_the_seats_return(game: str) -> None:
    spec = get_game(game)
    players = spec.max_players
    env = SingleAgentEnv(game, seat=players - 1, opponents="random", players=players)
    total, _, terminated, truncated = _play(env, 3, limit=20000)
    assert terminated and not truncated
    assert env.table.state.is_over
    assert total == env.table.state.returns()[players - 1]


def test_the_same_seed_plays_the_same_episode() -> None:
    runs = []
    for _ in range(2):
        env = SingleAgentEnv("ali-baba", seat=1, opponents="heuristic", players=3)
        runs.append((_play(env, 8), env.table.state.fingerprint()))
    assert runs[0] == runs[1]


def test_an_illegal_action_terminates_with_minus_one() -> None:
    env = SingleAgentEnv("ali-baba", opponents="random", players=2)
    obs, _ = env.reset(seed=1)
    version = env.table.state.version
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == illegal
    assert env.table.state.version == version
    with pytest.raises(ValueError, match="episode is over"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"out of range|outside"):
        env.step(10**6)


def test_opponents_rub_no_faster_than_the_floor() -> None:
    """The race options hold for the opponents too: a random opponent would otherwise rub
    at 0 ms."""
    env = SingleAgentEnv("magic-lamp", opponents="random", players=4, race_step_ms=50)
    rubs: list[int] = []
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.table.state.is_over:
            mask = env.action_masks()
            env.step(int(rng.choice(np.flatnonzero(mask))))
        state = env.table.state
        for seat, action in state.history:
            text = state.action_to_str(action)
            if seat != env.seat and text.startswith("rub "):
                rubs.append(int(text.removeprefix("rub ").removesuffix("ms")))
    assert rubs, "no opponent ever rubbed"
    assert min(rubs) >= 300 and all(ms % 50 == 0 for ms in rubs)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"game": "go"}, ParamsError),
        ({"game": "ali-baba", "players": 7}, ParamsError),
        ({"game": "ali-baba", "opponents": "grandmaster"}, ValueError),
        ({"game": "ali-baba", "opponents": ["random"] * 3, "players": 2}, ValueError),
        ({"game": "ali-baba", "seat": 2, "players": 2}, ValueError),
        ({"game": "ali-baba", "seat": -1}, ValueError),
        ({"game": "ali-baba", "reward": "elo"}, ValueError),
        ({"game": "magic-lamp", "race_floor_ms": -10}, ParamsError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        SingleAgentEnv(**kwargs)


def test_a_non_int_seed_is_refused() -> None:
    env = SingleAgentEnv("ali-baba", opponents="random")
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=2.5)  # type: ignore[arg-type]


def test_async_vector_env_runs_two_processes() -> None:
    def make() -> Any:
        return gymnasium.make(ENV_ID, game="ali-baba", players=2, opponents="random")

    vec = gymnasium.vector.AsyncVectorEnv([make, make])
    try:
        obs, _ = vec.reset(seed=[1, 2])
        assert obs["observation"].shape == (
            2,
            *get_game("ali-baba").observation_shape(
                get_game("ali-baba").make_params(num_players=2)
            ),
        )
        assert not np.array_equal(obs["observation"][0], obs["observation"][1])
        rng = np.random.default_rng(0)
        for _ in range(30):
            actions = [
                int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]
            ]
            obs, _, _, truncated, _ = vec.step(np.array(actions))
            assert not truncated.any()
    finally:
        vec.close()


def test_bench_rates_are_ratios_of_the_same_run() -> None:
    from arabesque.rl.bench import rl_rates

    out = rl_rates("ali-baba", 2, 0, 0.2, steps_per_s=1000.0, observation_per_s=500.0, vector=False)
    for name in (
        "aec_steps_per_s",
        "aec_raw_steps_per_s",
        "parallel_steps_per_s",
        "single_agent_steps_per_s_heuristic",
        "single_agent_steps_per_s_random",
    ):
        assert out[name] > 0
        assert out["ratios_to_steps"][name] == pytest.approx(out[name] / 1000.0)
        assert out["ratios_to_observations"][name] == pytest.approx(out[name] / 500.0)
