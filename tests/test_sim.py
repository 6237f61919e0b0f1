"""Batch simulation, its statistics, and the random-playout bench (called directly)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arabesque.agents.registry import agent_names
from arabesque.bench import PLAYOUT_SHARE, STEP_DEFINITION, bench, default_players
from arabesque.core import GameRecord, get_game
from arabesque.sim.batch import (
    WIN_COUNTING,
    BatchInterrupted,
    GameResult,
    RecordsExistError,
    agent_seed,
    expand_agents,
    record_path,
    run_games,
    summarize,
)
from arabesque.sim.stats import mean, median, stdev, wilson_interval

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


def test_median_of_odd_and_even_counts_in_any_order() -> None:
    assert median([]) is None
    assert median([9.0, 1.0, 5.0]) == 5.0
    assert median([7.0, 1.0, 3.0, 100.0]) == 5.0, "the mean of the two middle values"


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


def test_a_solo_game_counts_as_won_only_when_the_game_says_so() -> None:
    """A lone player always ranks first; whether it won is the game's own result (returns()),
    e.g. Djinn's solo game is won only by clearing the bosses before Tom's deck runs out."""
    params = get_game("djinn").make_params(num_players=1)
    results = run_games("djinn", params, ["random"], games=4, seed=7)
    summary = summarize("djinn", params, ["random"], 7, results)
    assert all(r.ranking == (1,) for r in results)
    won = [r for r in results if r.won == (True,)]
    assert summary["seats"][0]["wins"] == len(won)
    # A random player does not beat Tom, so ranking first did not make these wins.
    assert len(won) < len(results) and summary["seats"][0]["win_rate"] < 1.0
    # Several players: the winners are those ranked first, as before.
    params2 = get_game(GAME).make_params(num_players=2)
    for r in run_games(GAME, params2, ["random"] * 2, games=3, seed=1):
        assert r.winner_seats() == [p for p, rank in enumerate(r.ranking) if rank == 1]


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


def test_summary_gives_median_and_range_of_turns() -> None:
    params = get_game(GAME).make_params(num_players=2)
    results = run_games(GAME, params, ["random"] * 2, games=5, seed=20)
    summary = summarize(GAME, params, ["random"] * 2, 20, results)
    turns = sorted(r.turns for r in results if r.turns is not None)
    assert len(turns) == 5
    assert summary["median_turns"] == turns[2]
    assert [summary["min_turns"], summary["max_turns"]] == [turns[0], turns[-1]]
    assert summary["partial"] is False
    assert summary["games_finished"] == summary["games_requested"] == 5


# -- records: never replaced by accident ------------------------------------------------------


def test_recording_refuses_to_replace_an_earlier_runs_files(tmp_path: Path) -> None:
    params = get_game(GAME).make_params(num_players=2)
    run_games(GAME, params, ["random"] * 2, games=3, seed=0, record_dir=tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert sorted(before) == ["game-0.json", "game-1.json", "game-2.json"]
    # Other settings, overlapping seeds 2..4: refused before any game, nothing written.
    played: list[GameResult] = []
    with pytest.raises(RecordsExistError, match="--overwrite") as caught:
        run_games(
            GAME,
            params,
            ["heuristic", "random"],
            games=3,
            seed=2,
            record_dir=tmp_path,
            on_result=played.append,
        )
    assert "1 of the 3 record files" in str(caught.value) and "game-2.json" in str(caught.value)
    assert played == [], "the check comes before the first game"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    # Seeds that do not collide are fine in the same folder; names like game-02.json or
    # game-x.json are not records of this batch and do not count.
    (tmp_path / "game-03.json").write_text("{}", encoding="utf-8")
    (tmp_path / "game-x.json").write_text("{}", encoding="utf-8")
    run_games(GAME, params, ["random"] * 2, games=2, seed=3, record_dir=tmp_path)
    assert GameRecord.load(record_path(tmp_path, 4)).metadata["agents"] == ["random"] * 2
    # Asked to, it replaces them, and leaves no temporary file behind.
    run_games(
        GAME,
        params,
        ["heuristic", "random"],
        games=3,
        seed=2,
        record_dir=tmp_path,
        overwrite=True,
    )
    record = GameRecord.load(record_path(tmp_path, 2))
    assert record.metadata["agents"] == ["heuristic", "random"]
    assert not list(tmp_path.glob(".*")), "records are renamed into place"


def test_recording_into_a_file_is_refused(tmp_path: Path) -> None:
    params = get_game(GAME).make_params(num_players=2)
    target = tmp_path / "runs"
    target.write_text("not a folder", encoding="utf-8")
    with pytest.raises(ValueError, match="not a folder"):
        run_games(GAME, params, ["random"] * 2, games=1, seed=0, record_dir=target)


# -- Ctrl-C -------------------------------------------------------------------------------------


def _interrupt_at(count: int) -> Callable[[GameResult], None]:
    """An ``on_result`` that presses Ctrl-C (raises KeyboardInterrupt, as Python does on
    SIGINT) when the ``count``-th result arrives."""
    seen: list[GameResult] = []

    def on_result(result: GameResult) -> None:
        seen.append(result)
        if len(seen) == count:
            raise KeyboardInterrupt

    return on_result


def test_interrupted_batch_keeps_the_finished_games_as_a_smaller_batch() -> None:
    params = get_game(GAME).make_params(num_players=2)
    agents = ["random"] * 2
    with pytest.raises(BatchInterrupted) as caught:
        run_games(GAME, params, agents, games=10, seed=7, on_result=_interrupt_at(3))
    stop = caught.value
    assert isinstance(stop, KeyboardInterrupt), "callers that only know Ctrl-C still see one"
    assert stop.requested == 10
    assert stop.results == run_games(GAME, params, agents, games=3, seed=7)
    partial = summarize(GAME, params, agents, 7, stop.results, requested=10)
    assert partial["partial"] is True
    assert (partial["games"], partial["games_finished"], partial["games_requested"]) == (3, 3, 10)
    assert partial["seeds"] == [7, 9]
    # Apart from the partial marks, the statistics are those of a 3-game batch.
    whole = summarize(GAME, params, agents, 7, stop.results)
    marks = ("partial", "games_requested")
    assert {k: v for k, v in partial.items() if k not in marks} == {
        k: v for k, v in whole.items() if k not in marks
    }
    with pytest.raises(ValueError, match="4 results for a batch of 3"):
        summarize(GAME, params, agents, 7, [*stop.results, stop.results[0]], requested=3)


def test_interrupted_batch_on_several_workers_keeps_a_prefix_in_seed_order() -> None:
    params = get_game(GAME).make_params(num_players=2)
    agents = ["random"] * 2
    with pytest.raises(BatchInterrupted) as caught:
        run_games(GAME, params, agents, games=40, seed=0, workers=2, on_result=_interrupt_at(3))
    kept = caught.value.results
    # Games that other workers finished meanwhile may be kept too, but only without a gap,
    # so the statistics stay those of "the first N seeds".
    assert len(kept) >= 3
    assert [r.seed for r in kept] == list(range(len(kept)))
    assert kept == run_games(GAME, params, agents, games=len(kept), seed=0)


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
    # The playouts take their share of the time; the whole run takes the time asked.
    assert result["seconds"] >= 0.3 * PLAYOUT_SHARE
    assert result["total_seconds"] >= 0.3


def test_bench_seconds_is_the_whole_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # --seconds 10 once took about 20 s: the playouts took all of it, then five rates a fifth
    # each. Now the rates get what the playouts leave, and share it.
    from arabesque import bench as bench_module

    given: list[float] = []
    real_rate = bench_module._rate

    def timed_rate(states: Any, op: Any, seconds: float) -> float:
        given.append(seconds)
        return real_rate(states, op, seconds)

    monkeypatch.setattr(bench_module, "_rate", timed_rate)
    result = bench(GAME, 2.0, num_players=2, seed=5)
    assert len(given) == len(bench_module.RATES)
    playouts = result["seconds"]
    # The playouts run to their share's deadline (how far past it depends on the machine's
    # load, so only the budget's split is checked, not wall time).
    assert playouts >= 2.0 * PLAYOUT_SHARE
    assert sum(given) <= 2.0 - playouts + 1e-6, "the rates share what the playouts leave"
    assert max(given) - min(given) < 1e-9, "in equal parts"
    given.clear()
    bench(GAME, 0.4, num_players=2, seed=5, rates=False)
    assert given == [], "without the rates, nothing follows the playouts"


def test_bench_defaults_to_the_params_player_count_and_checks_its_input() -> None:
    assert default_players(get_game(GAME)) == 4
    with pytest.raises(ValueError, match="positive"):
        bench(GAME, 0)
    with pytest.raises(ValueError, match="2-5 players"):
        bench(GAME, 0.1, num_players=7)
