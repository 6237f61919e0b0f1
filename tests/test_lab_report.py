"""Reports (HTML with embedded plots, Markdown with PNGs) and comparisons of two runs."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("matplotlib")

from arabesque.cli import main
from arabesque.core.registry import get_game
from arabesque.lab.compare import compare_runs, verdict
from arabesque.lab.run import Plan, run_plan
from arabesque.lab.store import LabError, load_run

PNG = b"\x89PNG\r\n\x1a\n"


def _run(
    folder: Path, game: str = "magic-lamp", seeds: range = range(0, 6), **options: object
) -> Path:
    params = get_game(game).make_params(num_players=2, **options)
    run_plan(
        Plan(game, params, ("random", "random"), "seats", (("random", "random"),)), folder, seeds
    )
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("lab")
    return {
        "base": _run(root / "base"),
        # The same seeds with a turn cap of 2: every game is cut short.
        "short": _run(root / "short", max_turns=2),
        "other_seeds": _run(root / "other", seeds=range(100, 106)),
        "ali": _run(root / "ali", game="ali-baba", seeds=range(0, 2)),
    }


def test_html_report_is_self_contained_with_plots_and_counts(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(runs["base"]), str(runs["short"]), "--out", str(out)]) == 0
    page = out.read_text()
    assert not re.search(r"""(src|href)=["']?(https?:|//|file:)""", page), "nothing fetched"
    images = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert len(images) >= 5
    assert all(base64.b64decode(i).startswith(PNG) for i in images)
    for heading in ("Win rate per seat", "Agents", "Game length", "own measures", "Every metric"):
        assert heading in page
    assert "bust rate" in page and "sorcerer" in page.lower()
    # Two runs: what changed comes first, in words (the turn cap shortens every game).
    assert "What changed from base to short" in page
    assert "game length (turns) fell from" in page
    # Each run's game count and every seat's count is in the tables.
    assert page.count("<td>6</td>") >= 4


def test_markdown_report_writes_its_pngs_beside_it(runs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    assert main(["report", str(runs["base"]), "--out", str(out)]) == 0
    text = out.read_text()
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert pictures
    for name in pictures:
        assert (tmp_path / name).read_bytes().startswith(PNG)
    assert "| run | seat | agent | games |" in text


@pytest.mark.parametrize(
    ("which", "out_name", "message"),
    [
        (["base", "ali"], "r.html", "different games"),
        (["base"], "r.pdf", "name a .html or .md file"),
    ],
)
def test_report_refusals_write_nothing(
    runs: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    which: list[str],
    out_name: str,
    message: str,
) -> None:
    out = tmp_path / out_name
    assert main(["report", *(str(runs[w]) for w in which), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_report_of_an_empty_or_foreign_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["report", str(tmp_path / "empty"), "--out", str(tmp_path / "r.html")]) == 2
    assert "not a lab results folder" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_verdicts_say_the_change_in_words() -> None:
    assert verdict("tavern: share", 0.08, 0.19, 0.07, 0.15, percent=True) == (
        "tavern: share rose from 8.0% to 19.0% (+11.0 points ± 4.0)"
    )
    assert verdict("length", 10.0, 8.0, -3.0, -1.0, percent=False).startswith("length fell from")
    assert "no clear change" in verdict("x", 1.0, 1.1, -0.2, 0.4, percent=False)


def test_a_run_compared_with_itself_changes_nothing(runs: dict[str, Path]) -> None:
    run = load_run(runs["base"])
    result = compare_runs(run, run)
    assert result["paired"] == 6 and result["lines"]
    assert all(line["difference"] == 0 for line in result["lines"])
    assert not any(line["significant"] for line in result["lines"])


def test_a_turn_cap_is_seen_as_shorter_games_paired_by_seed(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    result = compare_runs(load_run(runs["base"]), load_run(runs["short"]))
    assert result["paired"] == 6
    assert result["params_changed"] == {"max_turns": [100, 2]}
    turns = next(line for line in result["lines"] if line["measure"] == "game length (turns)")
    assert turns["significant"] and turns["difference"] < 0
    assert turns["verdict"].startswith("game length (turns) fell from")
    assert main(["compare", str(runs["base"]), str(runs["short"])]) == 0
    assert "game length (turns) fell from" in capsys.readouterr().out


def test_runs_without_common_seeds_are_compared_as_independent_samples(
    runs: dict[str, Path],
) -> None:
    result = compare_runs(load_run(runs["base"]), load_run(runs["other_seeds"]))
    assert result["paired"] == 0
    line = next(x for x in result["lines"] if x["measure"] == "game length (actions)")
    low, high = line["ci95"]
    assert low < line["difference"] < high


def test_compare_refuses_two_games(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(LabError, match="compare runs of one game"):
        compare_runs(load_run(runs["base"]), load_run(runs["ali"]))
    assert main(["compare", str(runs["base"]), str(runs["ali"])]) == 2
    assert "compare runs of one game" in capsys.readouterr().err


def test_a_games_metric_groups_are_drawn(runs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "ali.md"
    assert main(["report", str(runs["ali"]), "--out", str(out)]) == 0
    text = out.read_text()
    # The page's title is the report's, not the last group's drawn before it.
    assert text.startswith(f"# {get_game('ali-baba').name}: lab report\n")
    assert "tiles taken per game, by kind (mean ± 95%)" in text
    assert (tmp_path / "ali-group-take-kind.png").read_bytes().startswith(PNG)
    assert "effects taken" in text  # Ali Baba's ratios: the share of each effect taken
