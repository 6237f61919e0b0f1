"""``arabesque play <game>``: one person against bots (or bots alone) in the terminal.

``main`` starts a new game and ``resume`` continues a saved one; both are what the command
line calls. Every game they run is saved as it is played: its record is rewritten after every
applied action in ``games_dir()`` (the user data folder, or ``$ARABESQUE_DATA_DIR/games``),
with who sat where in its metadata, so ``resume`` can replay it into a fresh state and go on
with the same bots. On leaving, they print where the game is and how to resume it.

``build_app`` makes the same application for tests, with an explicit seed, a zero bot delay,
agents of the test's choosing if wanted, and no saving unless ``save_to`` is given.
"""

from __future__ import annotations

import datetime
import os
import random
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import platformdirs

from arabesque.agents.base import Agent
from arabesque.agents.random_agent import RandomAgent
from arabesque.agents.registry import make_agent
from arabesque.core.errors import RecordError
from arabesque.core.game import GameState
from arabesque.core.records import GameRecord
from arabesque.core.registry import get_game
from arabesque.tui.app import DEFAULT_BOT_DELAY, ArabesqueApp, has_screen, screen_class
from arabesque.tui.session import RecordFile, Session

EXIT_ERROR = 2
#: Seconds the lamp race stays open after the reveal (a rub is recorded up to 2.99 s).
DEFAULT_WINDOW_S = 3.0
FALLBACK_AGENT = "random"
#: The environment variable naming the folder games are saved under (``<it>/games``),
#: instead of the user data folder; tests set it so they never touch the real home.
DATA_DIR_ENV = "ARABESQUE_DATA_DIR"
#: ``metadata.agents`` entry of the person's seat (the other entries are agent specs).
HUMAN = "human"
#: ``metadata.source`` of a game saved by ``arabesque play``.
SOURCE = "arabesque play"


class PlayError(ValueError):
    """A setup the terminal client cannot play (the message says why)."""


# -- where games are saved -------------------------------------------------------------------


def data_dir() -> Path:
    """Arabesque's folder for the user's own files: ``$ARABESQUE_DATA_DIR`` if set, else the
    platform's user data folder (``~/.local/share/arabesque`` on Linux)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("arabesque", appauthor=False))


def games_dir() -> Path:
    """Where ``arabesque play`` saves its games."""
    return data_dir() / "games"


def new_record_path(game_id: str, directory: Path | None = None) -> Path:
    """A new file name for a game started now, ``<game>-<date>-<time>.json``. The name is
    taken by creating the file, so two games started in the same second get two files; a
    folder that cannot be written still gets a name (saving then fails, and says so)."""
    folder = games_dir() if directory is None else directory
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return folder / f"{game_id}-{stamp}.json"
    n = 1
    while True:
        path = folder / (f"{game_id}-{stamp}.json" if n == 1 else f"{game_id}-{stamp}-{n}.json")
        try:
            path.open("x").close()
        except FileExistsError:
            n += 1
            continue
        except OSError:
            pass
        return path


def _seats(record: GameRecord) -> list[str] | None:
    """``metadata.agents`` of a game saved by ``arabesque play``: one entry per seat, an
    agent spec or ``"human"``; None when the record does not say."""
    agents = record.metadata.get("agents")
    if isinstance(agents, list) and agents and all(isinstance(a, str) for a in agents):
        return list(agents)
    return None


def _finished(record: GameRecord) -> bool:
    return record.metadata.get("finished") is True or "result" in record.metadata


def latest_unfinished(directory: Path | None = None, game_id: str | None = None) -> Path:
    """The most recently saved game that is not finished (of ``game_id``, if given).
    Raises ``PlayError`` saying where it looked when there is none."""
    folder = games_dir() if directory is None else directory
    dated: list[tuple[float, Path]] = []
    try:
        for path in folder.glob("*.json"):
            try:
                dated.append((path.stat().st_mtime, path))
            except OSError:
                continue
    except OSError:
        pass
    unreadable = 0
    for _, path in sorted(dated, reverse=True):
        try:
            record = GameRecord.load(path)
        except RecordError:
            unreadable += 1
            continue
        if game_id is not None and record.game != game_id:
            continue
        if _seats(record) is not None and not _finished(record):
            return path
    what = f"unfinished {game_id} game" if game_id else "unfinished game"
    skipped = f" ({unreadable} files there could not be read as records)" if unreadable else ""
    start = f"arabesque play {game_id}" if game_id else "arabesque play magic-lamp"
    raise PlayError(f"no {what} to resume in {folder}{skipped}; start one with: {start}")


# -- seats and bots ----------------------------------------------------------------------------


def human_seat(num_players: int, bots: int) -> int | None:
    """Seat 0 for one human among bots, None for bots alone; several humans are refused."""
    if not 0 <= bots <= num_players:
        raise PlayError(f"bots must be between 0 and the {num_players} players, got {bots}")
    humans = num_players - bots
    if humans == 0:
        return None
    if humans > 1:
        raise PlayError(
            f"{humans} human players: hot-seat play (several people at one terminal) is not "
            f"supported yet; use --bots {num_players - 1} to play against bots, or "
            f"--bots {num_players} to watch them"
        )
    return 0


def check_agent(spec: str, game_id: str) -> None:
    """Raise ``ValueError`` with the agent registry's message (the one ``simulate`` gives)
    unless ``spec`` names an agent of the game with valid options."""
    make_agent(spec, game_id, seed=0)


def make_bots(
    specs: Mapping[int, str], game_id: str, seed: int | str
) -> tuple[dict[int, Agent], list[str]]:
    """One agent per bot seat (seat -> agent spec), each with its own seed drawn from
    ``seed``. An agent that cannot be built falls back to the random agent, with a notice
    for the player (the command line checks the specs first, so this is for code that calls
    ``build_app`` with a bot module that is missing or broken)."""
    rng = random.Random(f"tui-bots:{seed}")
    bot_seeds = {seat: rng.randrange(2**63) for seat in sorted(specs)}
    notices: list[str] = []
    try:
        agents = {seat: make_agent(spec, game_id, bot_seeds[seat]) for seat, spec in specs.items()}
    except Exception as exc:  # a missing or broken bot module must not stop a game
        if set(specs.values()) <= {FALLBACK_AGENT}:
            raise
        names = ", ".join(repr(s) for s in sorted(set(specs.values())))
        notices.append(f"Notice: agent {names} is not available ({exc}); bots play at random.")
        agents = {seat: _random_agent(bot_seeds[seat]) for seat in specs}
    return agents, notices


def _random_agent(seed: int) -> Agent:
    agent = RandomAgent(seed)
    agent.spec = FALLBACK_AGENT
    return agent


def _metadata(session_agents: Mapping[int, Agent], human: int | None, n: int) -> dict[str, Any]:
    """Who sits where, as the record keeps it for ``resume``: the agents actually playing
    (after any fallback), so a resumed game goes on with the same bots."""
    agents = [
        HUMAN if p == human else (session_agents[p].spec or FALLBACK_AGENT) for p in range(n)
    ]
    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    return {"source": SOURCE, "agents": agents, "human": human, "started": started}


# -- the application ---------------------------------------------------------------------------


class PlayApp(ArabesqueApp):
    """The game as ``arabesque play`` runs it. Ctrl+Q and Ctrl+C ask the same "quit?" as q:
    Textual's own Ctrl+Q leaves at once and its Ctrl+C only says to press Ctrl+Q, and a
    person reaching for either in the middle of a game means "let me out", not "lose my
    place without a word". (The game is saved after every move either way.)"""

    async def action_quit(self) -> None:
        self.action_request_quit()

    def action_help_quit(self) -> None:
        self.action_request_quit()


def _checked_window(window_s: float | None) -> float:
    if window_s is None:  # the command line passes None when --window is not given
        return DEFAULT_WINDOW_S
    if window_s <= 0:
        raise PlayError(f"the race window must be positive, got {window_s} s")
    return window_s


def build_app(
    game_id: str,
    num_players: int,
    bots: int,
    agent: str = "heuristic",
    seed: int | None = None,
    my_precious: bool = False,
    components: str | None = None,
    window_s: float | None = DEFAULT_WINDOW_S,
    bot_delay: float = DEFAULT_BOT_DELAY,
    agents: Mapping[int, Agent] | None = None,
    params: Mapping[str, Any] | None = None,
    save_to: Path | None = None,
    assist: bool = False,
) -> PlayApp:
    """The terminal application for one game. Raises ``ArabesqueError``/``PlayError``
    (both ValueError) on an unknown game, a game without a screen or a bad setup.

    ``agents`` replaces the bots built from ``agent`` (tests script them); ``params`` adds
    game options beyond the common ones; ``save_to`` is the file the record is kept in;
    ``assist`` starts the game with the screen's hints on (Magic Lamp: the lamp race points
    out shared faces).
    """
    spec = get_game(game_id)
    if not has_screen(spec.id):
        screen_class(spec.id)  # raises with the list of games that have one
    window = _checked_window(window_s)
    human = human_seat(num_players, bots)
    options: dict[str, Any] = {"num_players": num_players, **(params or {})}
    # Only options the player asked for, so a game without them still accepts the call.
    if my_precious:
        options["my_precious"] = True
    if components is not None:
        options["components"] = components
    game_params = spec.make_params(**options)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    state = spec.new_game(game_params, seed=seed)
    seats = [p for p in range(num_players) if p != human]
    notices: list[str] = []
    if agents is None:
        bot_agents, notices = make_bots(dict.fromkeys(seats, agent), spec.id, seed)
    else:
        bot_agents = dict(agents)
    return _app(state, bot_agents, human, notices, save_to, window, bot_delay, None, assist)


def _app(
    state: GameState,
    bot_agents: Mapping[int, Agent],
    human: int | None,
    notices: list[str],
    save_to: Path | None,
    window_s: float,
    bot_delay: float,
    metadata: Mapping[str, Any] | None,
    assist: bool,
) -> PlayApp:
    record_file = None
    if save_to is not None:
        meta = dict(metadata or _metadata(bot_agents, human, state.num_players))
        record_file = RecordFile(save_to, meta)
    session = Session(state, bot_agents, human, notices, record_file=record_file)
    return PlayApp(
        session,
        bot_delay=bot_delay,
        window_s=window_s,
        screen=screen_class(state.spec.id),
        assist=assist,
    )


def resume_app(
    path: Path,
    window_s: float | None = DEFAULT_WINDOW_S,
    bot_delay: float = DEFAULT_BOT_DELAY,
    agents: Mapping[int, Agent] | None = None,
    assist: bool = False,
) -> PlayApp:
    """The application going on with the game saved in ``path``: its record replayed into a
    fresh state, the same seats and agent specs (``metadata.agents``), saving to the same
    file. Raises ``RecordError``/``PlayError`` (ValueError) when the file cannot be
    resumed, saying why and what to do instead."""
    window = _checked_window(window_s)
    record = GameRecord.load(path)
    seats = _seats(record)
    replay = f"arabesque replay {shlex.quote(str(path))}"
    if seats is None:
        raise PlayError(
            f"{path} does not say who played which seat (metadata.agents, which arabesque "
            f"play writes), so it cannot be resumed; to watch it: {replay}"
        )
    try:
        state = record.replay()
    except RecordError as exc:  # its messages name the step, not the file
        raise RecordError(f"{path} cannot be resumed: {exc}") from exc
    if state.is_over or _finished(record):
        raise PlayError(f"{path} is a finished game, there is nothing to resume; see it: {replay}")
    if len(seats) != state.num_players:
        raise PlayError(
            f"{path}: metadata.agents names {len(seats)} seats for a "
            f"{state.num_players}-player game; it cannot be resumed"
        )
    humans = [p for p, a in enumerate(seats) if a == HUMAN]
    human_seat(state.num_players, state.num_players - len(humans))  # refuses hot-seat
    human = humans[0] if humans else None
    specs = {p: a for p, a in enumerate(seats) if a != HUMAN}
    notices: list[str] = []
    if agents is None:
        for spec in set(specs.values()):
            try:
                check_agent(spec, state.spec.id)
            except ValueError as exc:
                raise PlayError(f"{path}: its bots cannot be built again: {exc}") from None
        # Fresh bot seeds, from the seed and how far the game went: the bots' own random
        # state at the moment the game was left is not in the record.
        bot_agents, notices = make_bots(specs, state.spec.id, f"{state.seed}:{state.version}")
    else:
        bot_agents = dict(agents)
    meta = {k: v for k, v in record.metadata.items() if k not in ("result", "finished")}
    return _app(state, bot_agents, human, notices, path, window, bot_delay, meta, assist)


# -- the command line's entry points -----------------------------------------------------------


def main(
    game_id: str,
    num_players: int,
    bots: int,
    agent: str = "heuristic",
    seed: int | None = None,
    my_precious: bool = False,
    components: str | None = None,
    window_s: float | None = DEFAULT_WINDOW_S,
    bot_delay: float = DEFAULT_BOT_DELAY,
    options: Mapping[str, Any] | None = None,
    assist: bool = False,
) -> int:
    """Play a new game in the terminal, saved as it goes; returns the exit status (2 on a
    setup error)."""
    try:
        check_agent(agent, get_game(game_id).id)
        app = build_app(
            game_id,
            num_players,
            bots,
            agent=agent,
            seed=seed,
            my_precious=my_precious,
            components=components,
            window_s=window_s,
            bot_delay=bot_delay,
            params=options,
            assist=assist,
        )
    except ValueError as exc:  # ArabesqueError and PlayError: unknown game, bad setup
        print(f"arabesque play: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    # Only a game that starts gets a file: a refused setup leaves nothing behind.
    session = app.session
    path = new_record_path(session.state.spec.id)
    meta = _metadata(session.agents, session.human, session.num_players)
    session.keep_record(RecordFile(path, meta))
    return _run(app)


def resume(
    target: str | Path | None = None,
    game_id: str | None = None,
    window_s: float | None = DEFAULT_WINDOW_S,
    bot_delay: float = DEFAULT_BOT_DELAY,
    assist: bool = False,
) -> int:
    """Continue a saved game: the record ``target``, or the most recent unfinished game (of
    ``game_id``, if given) when ``target`` is None. Returns the exit status."""
    try:
        if game_id is not None:
            game_id = get_game(game_id).id
        path = latest_unfinished(game_id=game_id) if target is None else Path(target)
        app = resume_app(path, window_s=window_s, bot_delay=bot_delay, assist=assist)
        if game_id is not None and app.session.state.spec.id != game_id:
            raise PlayError(
                f"{path} is a game of {app.session.state.spec.id}, not {game_id}; drop "
                f"{game_id} to resume it"
            )
    except ValueError as exc:
        print(f"arabesque play: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return _run(app)


def _run(app: PlayApp) -> int:
    app.run()
    farewell(app.session)
    return 0


def farewell(session: Session, out: Any = None) -> None:
    """What is printed once the terminal UI has closed: the notices, the scores of a
    finished game, and where the game is saved and how to resume or replay it."""
    out = sys.stdout if out is None else out
    for notice in session.notices:
        print(notice, file=sys.stderr)
    state = session.state
    record_file = session.record_file
    saved = record_file is not None and session.save_error is None
    where = "" if record_file is None else shlex.quote(str(record_file.path))
    if session.is_over:
        # The seed only once the game is over: it fixes every card still to come.
        print(f"{state.spec.name}, seed {state.seed}.", file=out)
        print("Final scores:", file=out)
        for line in session.final_lines():
            print("  " + line, file=out)
        if saved:
            print(f"The game is saved in {where}", file=out)
            print(f"Replay it with: arabesque replay {where}", file=out)
        return
    print(f"{state.spec.name}: game left before the end.", file=out)
    if saved:
        print(f"Saved in {where}", file=out)
        print(
            "Resume it with: arabesque play --resume  (the most recent unfinished game)",
            file=out,
        )
        print(f"            or: arabesque play --resume {where}", file=out)
    elif record_file is not None:
        print(
            f"It could not be saved ({session.save_error}), so it cannot be resumed.", file=out
        )
