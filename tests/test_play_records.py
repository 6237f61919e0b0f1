"""Games played in the terminal are saved as they go, and can be resumed.

Every test points ``ARABESQUE_DATA_DIR`` at its own temporary folder, so nothing here touches
the real user data folder. The terminal UI itself is stood in for where only the saving and
the resuming are tested (``_no_screen``); the quit keys are tested through Textual's pilot.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import platformdirs
import pytest

from arabesque.agents.base import Agent, Observation
from arabesque.core import GameRecord, RecordError
from arabesque.tui import play
from arabesque.tui.app import QuitScreen
from arabesque.tui.play import (
    PlayApp,
    PlayError,
    build_app,
    farewell,
    latest_unfinished,
    resume_app,
)
from arabesque.tui.session import RecordFile, Session

SIZE = (160, 50)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv(play.DATA_DIR_ENV, str(folder))
    return folder


def _bot_moves(session: Session, moves: int) -> None:
    """Let the bots of a bots-only session make ``moves`` moves (or play to the end)."""
    for _ in range(moves):
        if session.is_over:
            return
        session.bot_act(session.bots_to_act()[0])


def _no_screen(
    monkeypatch: pytest.MonkeyPatch, body: Callable[[PlayApp], None] = lambda app: None
) -> list[PlayApp]:
    """Replace the terminal UI of ``PlayApp.run`` by ``body`` (which plays through the
    session, as the screens do); returns the apps that were run."""
    ran: list[PlayApp] = []

    def run(self: PlayApp, *args: object, **kwargs: object) -> None:
        ran.append(self)
        body(self)

    monkeypatch.setattr(PlayApp, "run", run)
    return ran


# -- where games go ---------------------------------------------------------------------------


def test_data_dir_is_the_user_data_folder_unless_the_environment_says(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    assert play.games_dir() == data_dir / "games"
    monkeypatch.delenv(play.DATA_DIR_ENV)
    assert play.data_dir() == Path(platformdirs.user_data_dir("arabesque", appauthor=False))


def test_new_record_paths_are_distinct(data_dir: Path) -> None:
    first = play.new_record_path("magic-lamp")
    second = play.new_record_path("magic-lamp")
    assert first != second and first.parent == second.parent == data_dir / "games"
    assert first.name.startswith("magic-lamp-") and first.suffix == ".json"


# -- saving after every action ------------------------------------------------------------------


def test_the_record_is_rewritten_after_every_action(tmp_path: Path) -> None:
    app = build_app("magic-lamp", 3, 3, agent="random", seed=3, bot_delay=0)
    session = app.session
    path = tmp_path / "game.json"
    session.keep_record(RecordFile(path, {"agents": ["random"] * 3}))
    assert GameRecord.load(path).actions == []  # saved from the start
    for _ in range(12):
        _bot_moves(session, 1)
        record = GameRecord.load(path)
        assert len(record.actions) == len(session.state.history)
        assert record.metadata["finished"] is False and "result" not in record.metadata
    assert record.replay().fingerprint() == session.state.fingerprint()
    # Atomic: written under another name, then renamed; nothing else is left in the folder.
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_finished_game_is_marked_with_its_result(tmp_path: Path) -> None:
    app = build_app("ali-baba", 3, 3, agent="random", seed=5, bot_delay=0, save_to=tmp_path / "g")
    _bot_moves(app.session, 10_000)
    assert app.session.is_over
    record = GameRecord.load(tmp_path / "g")
    assert record.metadata["finished"] is True
    assert record.metadata["source"] == "arabesque play"
    assert record.metadata["agents"] == ["random"] * 3 and record.metadata["human"] is None
    state = record.replay()
    assert record.result_mismatch(state) is None
    assert record.metadata["result"]["scores"] == [s.to_json() for s in state.scores()]


def test_a_failed_save_does_not_stop_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    app = build_app(
        "magic-lamp", 2, 2, agent="random", seed=1, bot_delay=0, save_to=blocker / "game.json"
    )
    session = app.session
    _bot_moves(session, 5)
    assert len(session.state.history) == 5
    assert session.save_error is not None
    told = [n for n in session.notices if "Could not save this game" in n]
    assert len(told) == 1, "said once, not after every move"
    out = io.StringIO()
    farewell(session, out)
    assert "could not be saved" in out.getvalue() and "--resume" not in out.getvalue()


# -- play and quit: where it was saved, and how to resume -----------------------------------------


def test_assist_reaches_the_app(tmp_path: Path) -> None:
    assert build_app("magic-lamp", 2, 1, seed=1, bot_delay=0).assist is False
    assert build_app("magic-lamp", 2, 1, seed=1, bot_delay=0, assist=True).assist is True
    path = _left_game(tmp_path)
    assert resume_app(path, assist=True).assist is True


def test_play_saves_and_says_how_to_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    def one_round(app: PlayApp) -> None:
        # The human sets a die, as the screen would, and leaves during the next phase.
        session = app.session
        session.apply_human(session.human_legal()[0])
        for seat in session.bots_to_act():
            session.bot_act(seat)

    ran = _no_screen(monkeypatch, one_round)
    assert play.main("magic-lamp", 3, 2, agent="random", seed=77, bot_delay=0) == 0
    out = capsys.readouterr().out
    (path,) = (data_dir / "games").glob("magic-lamp-*.json")
    assert f"Saved in {path}" in out
    assert "Resume it with: arabesque play --resume" in out and f"--resume {path}" in out
    assert "seed 77" not in out, "the seed of an unfinished game fixes the cards to come"
    record = GameRecord.load(path)
    assert record.metadata["agents"] == ["human", "random", "random"]
    assert record.metadata["human"] == 0 and record.metadata["finished"] is False
    assert len(record.actions) == len(ran[0].session.state.history) == 3


def test_a_refused_setup_leaves_no_file(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    assert play.main("magic-lamp", 3, 2, agent="nope") == 2
    err = capsys.readouterr().err
    assert err.startswith("arabesque play: error: unknown agent 'nope' for magic-lamp; known:")
    assert play.main("magic-lamp", 4, 2) == 2
    assert not (data_dir / "games").exists() or not list((data_dir / "games").iterdir())


def test_a_finished_game_prints_the_scores_and_how_to_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    _no_screen(monkeypatch, lambda app: _bot_moves(app.session, 10_000))
    assert play.main("ali-baba", 2, 2, agent="random", seed=8, bot_delay=0) == 0
    out = capsys.readouterr().out
    (path,) = (data_dir / "games").glob("ali-baba-*.json")
    assert "seed 8" in out and "Final scores:" in out
    assert f"Replay it with: arabesque replay {path}" in out
    assert GameRecord.load(path).metadata["finished"] is True


# -- resuming ---------------------------------------------------------------------------------


class Counting(Agent):
    """A bot that remembers how often it was asked (so a test sees who is playing)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.spec = "counting"
        self.calls = 0

    def act(self, obs: Observation) -> int:
        self.calls += 1
        return obs.legal[0]


def _left_game(folder: Path, game: str = "magic-lamp", moves: int = 4, seed: int = 3) -> Path:
    """A game with a human at seat 0, left after the bots' and the human's first moves."""
    path = play.new_record_path(game, folder)
    app = build_app(game, 3, 2, agent="random", seed=seed, bot_delay=0, save_to=path)
    session = app.session
    while len(session.state.history) < moves:
        if session.human_to_act():
            session.apply_human(session.human_legal()[0])
        else:
            session.bot_act(session.bots_to_act()[0])
    return path


def test_resume_replays_the_record_and_goes_on_with_the_same_bots(tmp_path: Path) -> None:
    path = _left_game(tmp_path)
    saved = GameRecord.load(path)
    app = resume_app(path, bot_delay=0)
    session = app.session
    assert session.state.fingerprint() == saved.replay().fingerprint()
    assert session.human == 0
    assert {p: a.spec for p, a in session.agents.items()} == {1: "random", 2: "random"}
    # It goes on saving into the same file, keeping who sat where.
    before = len(session.state.history)
    while len(session.state.history) < before + 3:
        if session.human_to_act():
            session.apply_human(session.human_legal()[0])
        else:
            session.bot_act(session.bots_to_act()[0])
    record = GameRecord.load(path)
    assert len(record.actions) == before + 3
    assert record.metadata["agents"] == saved.metadata["agents"]
    assert record.metadata["started"] == saved.metadata["started"]


def test_resume_finds_the_most_recent_unfinished_game(data_dir: Path) -> None:
    folder = data_dir / "games"
    older = _left_game(folder, seed=1)
    newer = _left_game(folder, game="ali-baba", seed=2)
    done = play.new_record_path("magic-lamp", folder)
    finished = build_app("magic-lamp", 2, 2, agent="random", seed=4, bot_delay=0, save_to=done)
    _bot_moves(finished.session, 10_000)
    (folder / "broken.json").write_text("{", encoding="utf-8")
    for age, path in enumerate([done, folder / "broken.json", newer, older]):
        os.utime(path, (1e9 - age * 100, 1e9 - age * 100))  # done is the newest file
    assert latest_unfinished() == newer
    assert latest_unfinished(game_id="magic-lamp") == older
    older.unlink()
    with pytest.raises(PlayError, match="no unfinished magic-lamp game to resume in") as exc:
        latest_unfinished(game_id="magic-lamp")
    assert "1 files there could not be read" in str(exc.value)
    assert "start one with: arabesque play magic-lamp" in str(exc.value)


def test_play_resume_continues_and_says_where_it_is_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    path = _left_game(data_dir / "games")
    moves = len(GameRecord.load(path).actions)
    ran = _no_screen(monkeypatch, lambda app: app.session.bot_act(1))
    assert play.resume(bot_delay=0) == 0
    assert ran[0].session.record_file is not None
    assert ran[0].session.record_file.path == path
    assert f"Saved in {path}" in capsys.readouterr().out
    assert len(GameRecord.load(path).actions) == moves + 1


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda folder: folder / "missing.json", "cannot read record"),
        (lambda folder: _hand_written(folder), "does not say who played which seat"),
        (lambda folder: _finished(folder), "is a finished game"),
    ],
)
def test_resume_refuses_what_it_cannot_continue(
    make: Callable[[Path], Path],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = make(tmp_path)
    with pytest.raises((PlayError, RecordError), match=message):
        resume_app(path)
    assert play.resume(path) == 2
    err = capsys.readouterr().err
    assert err.startswith("arabesque play: error: ") and message in err
    assert err.count("\n") == 1


def _hand_written(folder: Path) -> Path:
    path = folder / "scenario.json"
    root = Path(__file__).resolve().parents[1]
    path.write_bytes((root / "docs" / "examples" / "magic-lamp-scenario.json").read_bytes())
    return path


def _finished(folder: Path) -> Path:
    path = folder / "done.json"
    app = build_app("magic-lamp", 2, 2, agent="random", seed=4, bot_delay=0, save_to=path)
    _bot_moves(app.session, 10_000)
    return path


def test_resume_of_a_game_with_an_unknown_bot_says_so(tmp_path: Path) -> None:
    path = _left_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["metadata"]["agents"][2] = "wizard"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PlayError, match="its bots cannot be built again: unknown agent 'wizard'"):
        resume_app(path)


# -- in the game: the quit keys, and no record on screen ---------------------------------------


def _screen_text(app: PlayApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.fixture
def waiting_app(tmp_path: Path) -> Iterator[PlayApp]:
    """A human game waiting for the human's die, saved into ``tmp_path``."""
    yield build_app(
        "magic-lamp",
        2,
        1,
        seed=987654321987,
        bot_delay=0,
        agents={1: Counting()},
        save_to=tmp_path / "game.json",
    )


@pytest.mark.parametrize("key", ["q", "ctrl+c", "ctrl+q"])
async def test_ctrl_c_and_ctrl_q_ask_like_q(key: str, waiting_app: PlayApp) -> None:
    app = waiting_app
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen), f"{key} asks first"
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press(key)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value == 0 and not app.session.is_over


async def test_the_record_and_its_seed_never_appear_in_the_game(
    waiting_app: PlayApp, tmp_path: Path
) -> None:
    app = waiting_app
    seed = str(app.session.state.seed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g", "3", "enter")
        await pilot.pause()
        assert len(app.session.state.history) >= 2  # the record was written since
        text = _screen_text(app)
        assert seed not in text and "game.json" not in text and "arrangement" not in text
    assert seed in (tmp_path / "game.json").read_text(encoding="utf-8")
