"""The command line, through real subprocesses (``python -m arabesque`` and the installed
``arabesque`` script) and direct calls of ``cli.main``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

from arabesque import cli
from arabesque.core import GameRecord, get_game
from arabesque.core.conformance import random_playout
from arabesque.games.magic_lamp import MagicLampState

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "docs" / "examples" / "magic-lamp-scenario.json"
SEAT_FIELDS = {
    "seat",
    "agent",
    "wins",
    "shared_wins",
    "win_rate",
    "win_rate_ci95",
    "mean_score",
    "std_score",
    "mean_rank",
}
SIM = ["simulate", "magic-lamp", "--players", "3", "--games", "8", "--seed", "5"]
SIM2 = ["simulate", "magic-lamp", "--players", "2"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arabesque", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=60,
        check=False,
    )


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _finished_record(path: Path, seed: int = 21) -> GameRecord:
    spec = get_game("magic-lamp")
    record: GameRecord = random_playout(spec, spec.make_params(num_players=3), seed).record()
    record.save(path)
    return record


# -- simulate -----------------------------------------------------------------------------------


def test_simulate_json_fields_and_intervals() -> None:
    proc = run(*SIM, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["game"] == "magic-lamp" and data["games"] == 8 and data["seeds"] == [5, 12]
    assert data["agents"] == ["random"] * 3
    assert "win for each" in data["win_counting"]
    for key in ("mean_actions", "std_actions", "mean_turns", "std_turns", "shared_victories"):
        assert isinstance(data[key], int | float), key
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    for seat in data["seats"]:
        assert set(seat) == SEAT_FIELDS
        low, high = seat["win_rate_ci95"]
        assert 0 <= low <= seat["win_rate"] <= high <= 1
        assert seat["win_rate"] == seat["wins"] / 8
        assert seat["std_score"] >= 0 and 1 <= seat["mean_rank"] <= 3
    assert sum(s["wins"] for s in data["seats"]) >= 8, "every game has at least one winner"


def test_simulate_is_identical_with_one_or_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    two = run(*SIM, "--json", "--workers", "2")
    assert two.returncode == 0, two.stderr
    code, one, _ = call(capsys, *SIM, "--json", "--workers", "1")
    assert code == 0
    assert json.loads(one) == json.loads(two.stdout)


def test_simulate_table_for_humans(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "simulate", "magic-lamp", "--players", "2", "--games", "3")
    assert code == 0
    assert "95% interval" in out and "Game length" in out
    assert out.count("random") == 2


def test_simulate_speaks_of_shared_victories_only_when_there_are_some(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Every run once ended with a paragraph on how wins are counted; it is in --help now, and
    # the table's last line speaks of shared victories only when the wins column has some.
    args = ["simulate", "magic-lamp", "--players", "4", "--games", "20", "--seed", "0"]
    code, out, _ = call(capsys, *args, "--json")
    data = json.loads(out)
    assert code == 0 and data["shared_victories"] > 0
    wins = sum(seat["wins"] for seat in data["seats"])
    code, out, _ = call(capsys, *args)
    assert code == 0
    line = f"Shared victories: {data['shared_victories']} of 20 games, each a win for every"
    assert out.count("Shared victories") == 1 and line in " ".join(out.split())
    assert f"the wins add up to {wins}." in out
    assert "returns()" not in out
    code, out, _ = call(capsys, "simulate", "magic-lamp", "--players", "2", "--games", "3")
    assert code == 0 and "Shared victories" not in out and "returns()" not in out
    help_text = run("simulate", "--help").stdout
    assert "shared victory counts as a win for each winner" in " ".join(help_text.split())


def test_recorded_games_replay_to_the_same_final_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = call(capsys, *SIM, "--json", "--record", str(tmp_path))
    assert code == 0
    summary = json.loads(out)
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == sorted(f"game-{s}.json" for s in range(5, 13))
    totals: list[list[int]] = []
    for f in files:
        record = GameRecord.load(f)
        assert record.metadata["agents"] == ["random"] * 3
        state = record.replay()
        assert state.is_over
        assert [s.to_json() for s in state.scores()] == record.metadata["result"]["scores"]
        totals.append([s.total for s in state.scores()])
    for seat in summary["seats"]:
        mean = sum(t[seat["seat"]] for t in totals) / len(totals)
        assert seat["mean_score"] == pytest.approx(mean)
    # And once through the replay command itself, in its own process.
    proc = run("replay", str(files[0]), "--json")
    assert proc.returncode == 0, proc.stderr
    assert (
        json.loads(proc.stdout)["scores"] == GameRecord.load(files[0]).metadata["result"]["scores"]
    )


def test_simulate_refuses_to_overwrite_records_and_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = call(capsys, *SIM, "--record", str(tmp_path))  # seeds 5..12, 3 players
    assert code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    # A second run with other settings and overlapping seeds (5..7) used to replace them.
    other = ["simulate", "magic-lamp", "--players", "2", "--games", "3", "--seed", "5"]
    code, out, err = call(capsys, *other, "--record", str(tmp_path))
    assert code == 2 and out == ""
    assert "3 of the 3 record files" in err and "game-5.json" in err
    assert "--overwrite" in err and "new or empty folder" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    code, _, _ = call(capsys, *other, "--record", str(tmp_path), "--overwrite")
    assert code == 0
    assert GameRecord.load(tmp_path / "game-5.json").params["num_players"] == 2
    assert GameRecord.load(tmp_path / "game-8.json").params["num_players"] == 3
    code, _, err = call(capsys, *SIM, "--overwrite")
    assert code == 2 and "add --record DIR" in err


class _Stream(io.StringIO):
    """A text stream that says whether it is a terminal."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_bar_is_shown_exactly_when_stderr_is_a_terminal() -> None:
    assert cli._show_progress(_Stream(tty=True)) is True
    assert cli._show_progress(_Stream(tty=False)) is False


def test_simulate_json_shows_progress_on_a_terminal_stderr_and_keeps_stdout_pure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --json used to switch the bar off even on a terminal.
    terminal = _Stream(tty=True)
    with contextlib.redirect_stderr(terminal):
        code = cli.main([*SIM, "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["games"] == 8, "stdout holds the JSON only"
    assert "simulating" in terminal.getvalue() and "8/8" in terminal.getvalue()


def _restore_ctrl_c() -> None:
    """In the child, before it runs: SIGINT back to its default action. A child inherits an
    ignored SIGINT (a suite started as `nohup pytest &` from a script: the shell ignores it
    for background jobs), and Python then keeps it ignored, rightly (Ctrl-C at the terminal
    is not meant for background jobs); the Ctrl-C tests would wait for nothing. With the
    default action inherited, Python turns SIGINT into KeyboardInterrupt as in a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_simulation(records: Path, *extra: str) -> tuple[int, str, str]:
    """Start a long simulation in its own process, press Ctrl-C (SIGINT) once at least two
    games are finished (their record files exist), and return (exit status, stdout,
    stderr). Every wait is bounded."""
    args = ["--games", "1000000", "--seed", "3", "--record", str(records), *extra]
    proc = subprocess.Popen(
        [sys.executable, "-m", "arabesque", *SIM2, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_restore_ctrl_c,
    )
    try:
        deadline = time.monotonic() + 30
        while len(list(records.glob("game-*.json"))) < 2:
            assert proc.poll() is None, f"the simulation ended early: {proc.communicate()}"
            assert time.monotonic() < deadline, "no two games finished within 30 s"
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT cannot be sent to a child there")
def test_ctrl_c_prints_partial_json_statistics_and_exits_130(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _interrupt_simulation(tmp_path, "--json")
    assert code == 130, err
    assert "Traceback" not in err and "interrupted after" in err
    data = json.loads(out)
    n = data["games_finished"]
    assert data["partial"] is True and data["games_requested"] == 1_000_000
    assert n >= 1 and data["games"] == n and data["seeds"] == [3, 3 + n - 1]
    # The finished games are the first seeds, so a complete run of n games gives the same
    # statistics: the partial figures are real ones, not a mix of cut games.
    code, whole, _ = call(capsys, *SIM2, "--games", str(n), "--seed", "3", "--json")
    assert code == 0
    marks = ("partial", "games_requested")
    assert {k: v for k, v in data.items() if k not in marks} == {
        k: v for k, v in json.loads(whole).items() if k not in marks
    }
    # Every record file left behind is whole (written under another name, then renamed).
    for path in tmp_path.glob("game-*.json"):
        assert GameRecord.load(path).replay().is_over


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT cannot be sent to a child there")
def test_ctrl_c_prints_partial_table_marked_partial(tmp_path: Path) -> None:
    code, out, err = _interrupt_simulation(tmp_path)
    assert code == 130, err
    assert "Traceback" not in err
    assert out.startswith("PARTIAL RESULTS: interrupted after ")
    assert "of 1000000 games" in out and "95% interval" in out


def test_simulate_interrupted_before_any_game_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from arabesque.sim import batch

    def interrupted(*_args: Any, **_kwargs: Any) -> list[batch.GameResult]:
        raise batch.BatchInterrupted([], 8)

    monkeypatch.setattr(batch, "run_games", interrupted)
    code, out, err = call(capsys, *SIM)
    assert code == 130 and "no game had finished" in out and "after 0 of 8" in err
    code, out, _ = call(capsys, *SIM, "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] is True and data["games_finished"] == 0


# -- replay -------------------------------------------------------------------------------------


def test_replay_json_with_the_installed_script(tmp_path: Path) -> None:
    script = shutil.which("arabesque")
    if script is None:
        pytest.skip("the arabesque console script is not on PATH")
    record = _finished_record(tmp_path / "game.json")
    proc = subprocess.run(
        [script, "replay", str(tmp_path / "game.json"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["is_over"] and data["steps"] == len(record.actions)
    assert data["ranking"] == record.metadata["result"]["ranking"]
    assert data["winners"] == [p for p, r in enumerate(data["ranking"]) if r == 1]
    for score in data["scores"]:
        assert score["total"] == sum(score["breakdown"].values())
    assert len(data["holdings"]) == 3
    # Every card is in one hand, a deck or the discard: no card is held twice.
    held = [c["id"] for cards in data["holdings"] for c in cards]
    assert len(held) == len(set(held)) and all("name" in c for c in data["holdings"][0])


def test_replay_of_a_tampered_record_names_the_step(tmp_path: Path) -> None:
    record = _finished_record(tmp_path / "game.json")
    k = 57
    state = record.initial_state()
    for _ in zip(range(k - 1), record.steps(state), strict=False):
        pass
    player = record.actions[k - 1][0]
    legal = set(state.legal_actions(player))
    bad = next(state.action_to_str(a) for a in range(state.num_actions) if a not in legal)
    data = record.to_json()
    data["actions"][k - 1]["action"] = bad
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for extra in ((), ("--json",)):
        proc = run("replay", str(path), *extra)
        assert proc.returncode == 2
        assert f"step {k} (player {player}, {bad!r})" in proc.stderr
        assert "not legal" in proc.stderr and "Traceback" not in proc.stderr
        if not extra:
            # The human replay showed the steps before the bad one, and not the bad one.
            assert f"\n{k - 1:>4}. Player " in proc.stdout
            assert f"\n{k:>4}. Player " not in proc.stdout
            assert "Result: unknown" in proc.stdout


def test_replay_shows_a_header_then_steps_in_words_then_scores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = call(capsys, "replay", str(SCENARIO))
    assert code == 0
    head = out.split("\nSetup\n")[0].splitlines()
    assert head[0] == "Aladdin & the Magic Lamp (magic-lamp), 3 players"
    assert head[1:5] == [
        "Players: Player 0, Player 1, Player 2",
        "Params: my precious no, components default, max turns 100",
        "Seed: 2024",
        "Result: not finished (15 actions played)",
    ]
    # Numbered steps, the events in the terminal log's words (not the raw event dump).
    assert "\n   7. Player 0: accept\n      Player 0 accepted wish 1.\n" in out
    assert "Player 0 took the top card of the gold chest: diamond" in out
    assert "Lamp race: face 3: Player 0 summoned the Genie in 420 ms" in out
    assert "lamp_draw:" not in out and "reveal: dice" not in out
    tail = out.split("Scores so far (the game is not finished):")[1]
    assert tail.index("Player 0") < tail.index("Player 2") < tail.index("Player 1")  # 15, 8, 7
    assert "Holdings:" in tail


def test_replay_header_gives_the_result_and_the_agents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = call(capsys, *SIM, "--games", "1", "--record", str(tmp_path))
    assert code == 0
    path = tmp_path / "game-5.json"
    state = GameRecord.load(path).replay()
    best = max(s.total for s in state.scores())
    code, out, _ = call(capsys, "replay", str(path))
    assert code == 0
    assert "Players: Player 0 (random), Player 1 (random), Player 2 (random)" in out
    result = next(line for line in out.splitlines() if line.startswith("Result: "))
    assert result.endswith(f"with {best} points") and "Final scores:" in out


def test_replay_refuses_a_record_whose_stored_result_disagrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _finished_record(tmp_path / "game.json")
    data = record.to_json()
    data["metadata"]["result"]["scores"][1]["total"] += 7
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for extra in ((), ("--json",)):
        code, out, err = call(capsys, "replay", str(path), *extra)
        assert code == 2 and out == "", "nothing is shown as if it were that game"
        assert "metadata.result says scores" in err and "but replaying the" in err
        assert str(path) in err and err.count("\n") == 1
    # Cut short: a stored result, but the replayed game is not over.
    data = record.to_json()
    data["actions"] = data["actions"][:-1]
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = call(capsys, "replay", str(path))
    assert code == 2 and out == "" and "the replayed game is not over" in err


def test_replay_errors_say_what_was_wrong_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    data["setup"]["seed"] = "abc"
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = call(capsys, "replay", str(path))
    assert code == 2
    assert err.startswith("arabesque replay: error: setup.seed must be an integer, got 'abc'")
    assert err.count("\n") == 1 and len(err) < 120
    binary = tmp_path / "picture.json"
    binary.write_bytes(bytes(range(256)) * 4)
    code, _, err = call(capsys, "replay", str(binary))
    assert code == 2 and err.count("\n") == 1
    assert f"{binary} is not a UTF-8 JSON record" in err and "codec" not in err
    code, _, err = call(capsys, "replay", str(SCENARIO), "--step", "--json")
    assert code == 2 and "--step and --json do not go together" in err


def test_replay_step_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    # Under pytest stdin and stdout are not terminals, as in a pipe.
    code, out, err = call(capsys, "replay", str(SCENARIO), "--step")
    assert code == 2 and out == ""
    assert "--step needs a terminal" in err and "without --step" in err


def test_replay_into_a_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    # The reader is gone before the replay writes anything (as `| head` is, soon after),
    # so the first flush meets a closed pipe: no "error: Broken pipe", no traceback.
    proc = subprocess.Popen(
        [sys.executable, "-m", "arabesque", "replay", str(SCENARIO)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert err == ""


class _ClosedPipe(io.StringIO):
    """stdout whose reader has gone: every write fails as a closed pipe does."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize(
    "args",
    [
        ["replay", str(SCENARIO)],
        ["replay", str(SCENARIO), "--json"],
        ["games"],
        ["agents", "ali-baba"],
    ],
)
def test_a_closed_stdout_ends_any_command_quietly(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Through rich's console and through print alike.
    with contextlib.redirect_stdout(_ClosedPipe()):
        code = cli.main(args)
    assert code == 1
    assert capsys.readouterr().err == ""


# -- bench --------------------------------------------------------------------------------------


def test_bench_json() -> None:
    proc = run("bench", "magic-lamp", "--seconds", "1", "--players", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in ("games_per_s", "steps_per_s", "mean_game_length", "games", "steps", "seconds"):
        assert data[key] > 0, key
    assert data["players"] == 3
    assert data["step"].startswith("one step = one applied player action")


def test_bench_search_json() -> None:
    """``--search`` adds IS-MCTS iterations per second (default horizon and full rollouts)
    and their ratios to the same run's steps per second."""
    proc = run("bench", "ali-baba", "--seconds", "0.5", "--players", "2", "--search", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in ("search_iterations_per_s", "full_rollout_iterations_per_s"):
        assert data[key] > 0, key
        assert data["search_ratios_to_steps"][key] == data[key] / data["steps_per_s"]
    assert data["search_horizon"] >= 30
    assert data["search_applies_per_iteration"] <= data["full_rollout_applies_per_iteration"]


def test_bench_decision_times() -> None:
    """``--decisions`` times each agent on the same positions of heuristic games (a cheap
    search budget here); an unknown agent is refused before the run."""
    agents = "random,ismcts:iters=20+horizon=4"
    proc = run("bench", "ali-baba", "--seconds", "0.3", "--players", "2", "--decisions",
               agents, "--json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    timed = json.loads(proc.stdout)["decision_times"]
    assert list(timed) == agents.split(",")
    for figures in timed.values():
        assert figures["decisions"] == timed["random"]["decisions"] >= 10
        assert 0 < figures["median_ms"] <= figures["p95_ms"]
    assert timed["random"]["median_ms"] < timed["ismcts:iters=20+horizon=4"]["median_ms"]
    refused = run("bench", "ali-baba", "--decisions", "nosuch")
    assert refused.returncode != 0 and "unknown agent 'nosuch'" in refused.stderr
    assert "benchmarking" not in refused.stderr


# -- listings -----------------------------------------------------------------------------------


def test_games_agents_and_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "games", "--json")
    assert code == 0
    games = {g["id"]: g for g in json.loads(out)}
    assert (games["magic-lamp"]["min_players"], games["magic-lamp"]["max_players"]) == (2, 5)
    code, out, _ = call(capsys, "games")
    assert code == 0 and "magic-lamp" in out and "2-5" in out
    code, out, _ = call(capsys, "agents", "magic-lamp")
    assert code == 0 and "random" in out.split()
    # The search levels, each on one line with its description.
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    for level in ("easy", "medium", "hard"):
        assert "search bot" in lines[level]
    code, out, _ = call(capsys, "agents", "magic-lamp", "--json")
    assert code == 0 and {"easy", "medium", "hard", "ismcts"} <= set(json.loads(out))
    code, out, _ = call(capsys, "cards", "magic-lamp", "--json")
    assert code == 0
    data = json.loads(out)
    spec = get_game("magic-lamp")
    state = spec.new_game(spec.make_params(), seed=0)
    assert isinstance(state, MagicLampState)
    comp = state.comp
    assert [c["id"] for c in data["cards"]] == list(range(comp.num_cards))
    assert [c["id"] for c in data["lamp_cards"]] == list(range(len(comp.lamp_cards)))
    starting = [c for c in data["cards"] if c["chest"] == "starting"]
    assert [c["id"] for c in starting] == list(comp.starting_cards)
    code, out, _ = call(capsys, "cards", "magic-lamp")
    assert code == 0 and "lamp cards" in out and "sorcerer" in out


def test_python_dash_m_and_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("arabesque ")


# -- errors: one line on stderr, exit status 2 --------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "chess"], "no game 'chess'"),
        (["simulate", "magic-lamp", "--agents", "wizard"], "unknown agent 'wizard'"),
        (["simulate", "magic-lamp", "--agents", "random:speed=3"], "bad options"),
        (["simulate", "magic-lamp", "--players", "9"], "2-5 players, not 9"),
        (["simulate", "magic-lamp", "--components", "/no/such.toml"], "cannot read components"),
        (["replay", "/no/such/record.json"], "cannot read record"),
        (["bench", "magic-lamp", "--seconds", "-1"], "--seconds: must be a number of seconds gre"),
        (["agents", "chess"], "no game 'chess'"),
        (["cards", "magic-lamp", "--components", "/no/such.toml"], "cannot read components"),
        (["play", "magic-lamp", "--players", "3", "--bots", "4"], "--bots must be between"),
        (["simulate"], "required"),
        # Agent specs: play refuses what simulate refuses, in the registry's words.
        (["play", "magic-lamp", "--agent", "nope"], "unknown agent 'nope' for magic-lamp; known:"),
        (["play", "ali-baba", "--agent", "random:speed=3"], "bad options for agent 'random'"),
        # Numbers: the option, then what it allows.
        (["play", "magic-lamp", "--bot-delay", "-5"], "--bot-delay: must be a number of "),
        (["play", "magic-lamp", "--window", "-1"], "--window: must be a number of seconds g"),
        (["play", "magic-lamp", "--window", "nan"], "--window: must be a number of seconds g"),
        (["play", "magic-lamp", "--bots", "-1"], "--bots: must be a whole number, 0 or more"),
        (["play", "magic-lamp", "--players", "0"], "--players: must be a whole number of at"),
        (["play", "magic-lamp", "--seed", "abc"], "--seed: must be a whole number, got 'abc'"),
        (["simulate", "magic-lamp", "--seed", "1.5"], "--seed: must be a whole number, got"),
        (["simulate", "magic-lamp", "--games", "0"], "--games: must be a whole number of at le"),
        (["bench", "magic-lamp", "--seed", "x"], "--seed: must be a whole number, got 'x'"),
        (["bench", "magic-lamp", "--seconds", "inf"], "--seconds: must be a number of seconds"),
        # Before the run is announced ("benchmarking ..."), not after.
        (["bench", "nope"], "no game 'nope'"),
        (["bench", "ali-baba", "--players", "9"], "is for 2-4 players, not 9"),
        (["bench", "magic-lamp", "--variant", "smaller-cave"], "unknown params ['variant']"),
        # play without a game, and --resume with settings of a new game.
        (["play"], "which game?"),
        (["play", "--resume", "--players", "3"], "--resume goes on with the settings"),
        (["play", "magic-lamp", "--resume", "--seed", "4"], "drop --seed"),
    ],
)
def test_errors_are_one_clear_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = cli.main(args)
    except SystemExit as exc:  # argparse exits by itself on usage errors
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_malformed_json_record_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "arabesque-record/1", "game": ', encoding="utf-8")
    code, out, err = call(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert "is not valid JSON" in err and str(path) in err
    path.write_text('{"format": "arabesque-record/1", "game": "magic-lamp"}', encoding="utf-8")
    code, _, err = call(capsys, "replay", str(path), "--json")
    assert code == 2 and "record has no 'params' field" in err


# -- play dispatches to the terminal client -----------------------------------------------------


def _fake_play(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Stand in for the terminal client (tests/test_play_records.py runs the real one):
    what the command line passes it is recorded."""
    received: dict[str, Any] = {}

    def fake_main(**kwargs: Any) -> int:
        received.clear()
        received.update(kwargs, called="main")
        return 0

    def fake_resume(**kwargs: Any) -> int:
        received.clear()
        received.update(kwargs, called="resume")
        return 0

    monkeypatch.setattr(cli, "_has_terminal", lambda: True)
    module = types.SimpleNamespace(main=fake_main, resume=fake_resume)
    monkeypatch.setitem(sys.modules, "arabesque.tui.play", module)
    monkeypatch.setattr("arabesque.tui.play", module, raising=False)
    return received


def test_play_dispatches_with_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    received = _fake_play(monkeypatch)
    assert cli.main(["play", "magic-lamp", "--seed", "9", "--my-precious"]) == 0
    assert received == {
        "called": "main",
        "game_id": "magic-lamp",
        "num_players": 4,
        "bots": 3,
        "agent": "heuristic",
        "seed": 9,
        "options": {"my_precious": True},
        "window_s": 3.0,
        "bot_delay": 0.6,
        "assist": False,
    }
    assert cli.main(["play", "magic-lamp", "--players", "2", "--bots", "0", "--window", "2.5"]) == 0
    assert (received["num_players"], received["bots"], received["window_s"]) == (2, 0, 2.5)
    assert received["options"] == {}
    assert cli.main(["play", "ali-baba", "--bot-delay", "0", "--agent", "random"]) == 0
    assert (received["bot_delay"], received["agent"]) == (0.0, "random")
    assert cli.main(["play", "magic-lamp", "--assist"]) == 0
    assert received["assist"] is True


def test_play_resume_dispatches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    received = _fake_play(monkeypatch)
    assert cli.main(["play", "--resume"]) == 0
    assert received == {
        "called": "resume",
        "target": None,
        "game_id": None,
        "window_s": 3.0,
        "bot_delay": 0.6,
        "assist": False,
    }
    assert cli.main(["play", "ali-baba", "--resume", "--bot-delay", "0"]) == 0
    assert (received["target"], received["game_id"], received["bot_delay"]) == (None, "ali-baba", 0)
    # "--resume magic-lamp": no such file, so the game is meant.
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", "--resume", "magic-lamp"]) == 0
    assert (received["target"], received["game_id"]) == (None, "magic-lamp")
    path = tmp_path / "saved.json"
    assert cli.main(["play", "--resume", str(path), "--window", "2"]) == 0
    assert (received["target"], received["game_id"], received["window_s"]) == (str(path), None, 2)


@pytest.mark.parametrize("args", [["magic-lamp"], ["djinn", "--seed", "3"], ["--resume"]])
def test_play_without_a_terminal_says_it_needs_one(tmp_path: Path, args: list[str]) -> None:
    # Before, the screen took over a pipe and waited for keys that never came.
    proc = subprocess.run(
        [sys.executable, "-m", "arabesque", "play", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "ARABESQUE_DATA_DIR": str(tmp_path)},
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("arabesque play: error: play needs a terminal")
    assert proc.stdout == ""
    assert not list(tmp_path.rglob("*.json")), "no game is started, so none is saved"


def test_game_options_reach_the_game_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(
        capsys,
        "simulate",
        "ali-baba",
        "--players",
        "2",
        "--variant",
        "smaller-cave",
        "--games",
        "2",
        "--json",
    )
    assert code == 0 and json.loads(out)["params"]["variant"] == "smaller-cave"
    code, out, _ = call(
        capsys,
        "simulate",
        "magic-lamp",
        "--players",
        "2",
        "-o",
        "max_turns=3",
        "--games",
        "1",
        "--json",
    )
    assert code == 0 and json.loads(out)["params"]["max_turns"] == 3
    # An option the game does not have is refused by name, not ignored.
    code, _, err = call(capsys, "bench", "magic-lamp", "--variant", "smaller-cave")
    assert code == 2 and "unknown params ['variant']" in err
    code, _, err = call(capsys, "simulate", "ali-baba", "-o", "variant")
    assert code == 2 and "is not KEY=VALUE" in err
    code, _, err = call(capsys, "simulate", "ali-baba", "--variant", "smaller-cave")
    assert code == 2 and "2-player variant" in err


def test_observation_prints_the_layout_the_observer_declares(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for game, players in (("magic-lamp", 3), ("ali-baba", 2)):
        code, out, _ = call(capsys, "observation", game, "--players", str(players), "--json")
        assert code == 0
        data = json.loads(out)
        spec = get_game(game)
        params = spec.make_params(num_players=players)
        assert tuple(data["shape"]) == spec.observation_shape(params)
        assert sum(f["size"] for f in data["fields"]) == data["shape"][0]
        code, text, _ = call(capsys, "observation", game, "--players", str(players))
        assert code == 0 and data["fields"][0]["name"] in text
    code, _, err = call(capsys, "observation", "magic-lamp", "--players", "9")
    assert code == 2 and "2-5 players" in err
