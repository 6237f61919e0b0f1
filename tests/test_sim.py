"""Batch simulation, its statistics, and the random-playout bench (called directly)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from arabesque.agents.registry import agent_names
from arabesque.bench import STEP_DEFINITION, bench, default_players
from arabesque.core import GameRecord, get_game
from arabesque.sim.batch import (
    WIN_COUNTING,
    agent_seed,
    expand_agents,
    record_path,
    run_games,
    summarize,
)
from arabesque.sim.stats import mean, stdev, wilson_interval

GAME = "magic-lamp"


# -- statistics ---------------------------------------------------------------------------------


def test_wilson_interval_matches_a_hand_computed_value() -> None:
    # 8 wins in 10: p = 0.8, z = 1.96 gives centre 0.7167 and half-width 0.2266.
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)


@pytest.mark.parametrize(("wins", "games"), [(0, 1), (0, 20), (20, 20), (1, 3), (37, 100)])
def test_wilson_interval_contains_the_rate_and_stays_in_0_1(wins: int, games: int) -> None:
    low, high = wilson_interval(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0
    assert high - low > 0, "a finite sample never pins the rate exactly"


def test_wilson_interval_narrows_with_more_games() -> None:
    small = wilson_interval(5, 10)
    large = wilson_interval(500, 1000)
    assert large[1] - large[0] < (small[1] - small[0]) / 5


def test_wilson_interval_without_games_is_everything_and_rejects_nonsense() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(3, 2)


def test_mean_and_sample_stdev() -> None:
    assert mean([]) is None and stdev([]) is None
    assert stdev([4.0]) == 0.0
    assert mean([1.0, 2.0, 3.0, 4.0]) == 2.5
    assert stdev([1.0, 2.0, 3.0, 4.0]) == pytest.approx(math.sqrt(5 / 3))


# -- agents per seat ----------------------------------------------------------------------------


def test_one_agent_spec_fills_every_seat_and_counts_must_match() -> None:
    assert expand_agents(["random"], 3) == ["random"] * 3
    assert expand_agents(["random", " random "], 2) == ["random", "random"]
    with pytest.raises(ValueError, match="3 agents given for 2 players"):
        expand_agents(["random"] * 3, 2)
    with pytest.raises(ValueError, match="no agent"):
        expand_agents(["", " "], 2)


def test_agent_seeds_depend_on_game_seed_and_seat_only() -> None:
    seeds = {agent_seed(g, s) for g in range(20) for s in range(5)}
    assert len(seeds) == 100, "neighbouring games and seats must not share agent seeds"
    assert agent_seed(7, 2) == agent_seed(7, 2)


# -- batches ------------------------------------------------------------------------------------


def test_batch_results_do_not_depend_on_the_number_of_workers() -> None:
    params = get_game(GAME).make_params(num_players=3)
    one = run_games(GAME, params, ["random"] * 3, games=6, seed=40, workers=1)
    two = run_games(GAME, params, ["random"] * 3, games=6, seed=40, workers=2)
    assert one == two
    assert [r.seed for r in one] == list(range(40, 46))
    # Different seeds give different games, so the equality above is not vacuous.
    assert len({(r.totals, r.actions) for r in one}) > 1


def test_summary_fields_agree_with_the_games(tmp_path: Path) -> None:
    params = get_game(GAME).make_params(num_players=2)
    agents = ["random", "random"]
    seen: list[int] = []
    results = run_games(
        GAME,
        params,
        agents,
        games=8,
        seed=3,
        record_dir=tmp_path,
        on_result=lambda r: seen.append(r.seed),
    )
    assert seen == list(range(3, 11)), "progress is reported once per game, in seed order"
    summary = summarize(GAME, params, agents, 3, results)
    assert summary["games"] == 8 and summary["seeds"] == [3, 10]
    assert summary["win_counting"] == WIN_COUNTING
    for seat in summary["seats"]:
        won = sum(1 for r in results if r.ranking[seat["seat"]] == 1)
        assert seat["wins"] == won
        assert seat["win_rate"] == won / 8
        low, high = seat["win_rate_ci95"]
        assert low <= seat["win_rate"] <= high
        totals = [r.totals[seat["seat"]] for r in results]
        assert seat["mean_score"] == pytest.approx(sum(totals) / 8)
    # Shared victories count for every winner, so wins add up to games + extra winners.
    extra = sum(r.ranking.count(1) - 1 for r in results)
    assert sum(s["wins"] for s in summary["seats"]) == 8 + extra
    assert summary["mean_actions"] == pytest.approx(sum(r.actions for r in results) / 8)
    assert summary["mean_turns"] is not None and summary["mean_turns"] >= 1
    # Every game was recorded and replays to the scores the batch saw.
    for r in results:
        replayed = GameRecord.load(record_path(tmp_path, r.seed)).replay()
        assert replayed.is_over
        assert tuple(s.total for s in replayed.scores()) == r.totals
        assert len(replayed.history) == r.actions


def test_bad_batches_fail_before_any_game() -> None:
    params = get_game(GAME).make_params(num_players=2)
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        run_games(GAME, params, ["random", "nobody"], games=2, seed=0)
    with pytest.raises(ValueError, match="at least 1"):
        run_games(GAME, params, ["random", "random"], games=0, seed=0)
    with pytest.raises(ValueError, match="2 players need 2 agent specs"):
        run_games(GAME, params, ["random"], games=1, seed=0)


def test_heuristic_against_random_if_the_bot_exists() -> None:
    if "heuristic" not in agent_names(GAME):
        pytest.skip("the magic-lamp heuristic bot is not written yet")
    params = get_game(GAME).make_params(num_players=2)
    agents = ["heuristic", "random"]
    results = run_games(GAME, params, agents, games=4, seed=11)
    summary = summarize(GAME, params, agents, 11, results)
    assert [s["agent"] for s in summary["seats"]] == agents
    assert all(r.actions > 0 for r in results)


# -- bench --------------------------------------------------------------------------------------


def test_bench_reports_consistent_figures() -> None:
    result = bench(GAME, 0.3, num_players=2, seed=5)
    assert result["players"] == 2 and result["step"] == STEP_DEFINITION
    assert result["games"] >= 1, "a random magic-lamp game takes milliseconds"
    assert result["steps"] >= result["games"] * result["mean_game_length"]
    assert result["steps_per_s"] == pytest.approx(result["steps"] / result["seconds"])
    assert result["games_per_s"] == pytest.approx(result["games"] / result["seconds"])
    assert result["seconds"] >= 0.3


def test_bench_defaults_to_the_params_player_count_and_checks_its_input() -> None:
    assert default_players(get_game(GAME)) == 4
    with pytest.raises(ValueError, match="positive"):
        bench(GAME, 0)
    with pytest.raises(ValueError, match="2-5 players"):
        bench(GAME, 0.1, num_players=7)
