"""Tournaments: seat assignment, the pairwise win matrix, openskill ratings, the command."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("openskill")

from arabesque.cli import main
from arabesque.lab.tournament import (
    GameOutcome,
    ratings,
    tournament_lineups,
    win_matrix,
)


def _seat_counts(cycle: list[tuple[str, ...]]) -> Counter[tuple[str, int]]:
    return Counter((agent, seat) for lineup in cycle for seat, agent in enumerate(lineup))


@pytest.mark.parametrize(
    ("agents", "players", "size"),
    [
        (["a", "b"], 2, 2),
        (["a", "b", "c"], 2, 6),
        (["a", "b", "c", "d"], 3, 12),
        (["a", "b"], 4, 12),  # fewer agents than seats: every mix of both, rotated
    ],
)
def test_round_robin_puts_every_agent_in_every_seat_equally_often(
    agents: list[str], players: int, size: int
) -> None:
    cycle = tournament_lineups(agents, players, "round-robin")
    assert len(cycle) == size
    assert all(len(lineup) == players for lineup in cycle)
    counts = _seat_counts(cycle)
    assert len(set(counts.values())) == 1, counts
    assert {a for a, _ in counts} == set(agents)
    assert all(len(set(lineup)) > 1 for lineup in cycle), "nobody plays only itself"


def test_one_vs_all_puts_each_challenger_in_every_seat_against_the_field() -> None:
    cycle = tournament_lineups(["field", "x", "y"], 3, "one-vs-all")
    assert len(cycle) == 6
    for challenger in ("x", "y"):
        mine = [lineup for lineup in cycle if challenger in lineup]
        assert sorted(lineup.index(challenger) for lineup in mine) == [0, 1, 2]
        assert all(lineup.count("field") == 2 for lineup in mine)


@pytest.mark.parametrize(
    ("agents", "players", "message"),
    [
        (["a"], 2, "two agents or more"),
        (["a", "a"], 2, "named twice"),
        (["a", "b"], 1, "use simulate for solo"),
    ],
)
def test_bad_tournaments_are_refused(agents: list[str], players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tournament_lineups(agents, players, "round-robin")


def test_win_matrix_counts_meetings_and_halves_ties() -> None:
    games = [
        GameOutcome(0, ("a", "b"), (1, 2)),
        GameOutcome(1, ("b", "a"), (2, 1)),
        GameOutcome(2, ("a", "b"), (1, 1)),
        GameOutcome(3, ("a", "b", "b"), (2, 1, 3)),  # b twice: two meetings
    ]
    share, meetings = win_matrix(games, ["a", "b"])
    assert meetings[0][1] == meetings[1][0] == 5
    assert share[0][1] == pytest.approx((1 + 1 + 0.5 + 0 + 1) / 5)
    assert share[0][1] + share[1][0] == pytest.approx(1.0)  # type: ignore[operator]
    assert share[0][0] is None


def test_an_agent_always_ahead_is_rated_clearly_higher() -> None:
    games = [
        GameOutcome(
            i, ("strong", "weak") if i % 2 else ("weak", "strong"), (1, 2) if i % 2 else (2, 1)
        )
        for i in range(30)
    ]
    rows = ratings(games, ["weak", "strong"], bootstrap=30)
    assert [r["agent"] for r in rows] == ["strong", "weak"]
    strong, weak = rows
    assert strong["mu_ci95"][0] > weak["mu_ci95"][1]
    assert strong["games"] == weak["games"] == 30
    none = ratings(games, ["weak", "strong"], bootstrap=0)
    assert none[0]["mu_ci95"] == [None, None] and none[0]["mu"] == strong["mu"]


def test_tournament_command_rounds_up_rates_resumes_and_refuses_other_agents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    base = ["tournament", "magic-lamp", "--players", "2", "--out", str(out), "--bootstrap", "5"]
    code = main([*base, "--agents", "heuristic,random", "--games", "3", "--json"])
    assert code == 0
    captured = capsys.readouterr()
    assert "rounded up to 4" in captured.err
    summary = json.loads(captured.out)
    assert summary["games"] == 4 and summary["mode"] == "round-robin"
    assert {r["agent"] for r in summary["ratings"]} == {"heuristic", "random"}
    assert summary["meetings"][0][1] == 4
    code = main([*base, "--agents", "heuristic,random", "--games", "6", "--resume", "--json"])
    assert code == 0
    captured = capsys.readouterr()
    assert "4 of the 6 seeds are already there" in captured.err
    assert json.loads(captured.out)["games"] == 6
    code = main([*base, "--agents", "random,heuristic", "--games", "6", "--resume"])
    assert code == 2
    assert "--resume with other agents" in capsys.readouterr().err
    code = main(
        [*base[:4], "--agents", "heuristic,nope", "--games", "2", "--out", str(tmp_path / "x")]
    )
    assert code == 2 and not (tmp_path / "x").exists()
    assert "unknown agent 'nope'" in capsys.readouterr().err


def test_a_resample_without_an_agent_says_nothing_of_it() -> None:
    games = [GameOutcome(i, ("a", "b"), (1, 2) if i % 2 else (2, 1)) for i in range(39)]
    games.append(GameOutcome(39, ("c", "b"), (1, 2)))  # c plays once, and wins
    rows = {r["agent"]: r for r in ratings(games, ["a", "b", "c"], bootstrap=60)}
    low, _high = rows["c"]["mu_ci95"]
    # Resamples missing c's one game would leave it at the prior (25): they are left out.
    assert low > 25.0 and rows["c"]["games"] == 1
