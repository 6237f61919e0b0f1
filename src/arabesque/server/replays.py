"""The replay viewer's and the rules pages' data (docs/web.md): a finished game step by step,
and each game's rules and rulings as HTML.

A replay step is rebuilt from the record on each request (a game of a few hundred steps
replays in milliseconds), so the server keeps nothing per viewer. Only finished games are
replayed from a table (the record holds every secret); a record a visitor uploads is theirs
to see whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt
from pydantic import BaseModel

from arabesque.core.errors import RecordError
from arabesque.core.game import GameSpec, GameState
from arabesque.core.records import GameRecord
from arabesque.server.errors import LobbyError
from arabesque.server.store import SeatData
from arabesque.server.words import Words, describer, seat_name
from arabesque.sim.replay import ReplayStep, replay_steps, step_title


class ReplayFrame(BaseModel):
    """One step of a finished game, as the replay viewer shows it."""

    game: str
    names: list[str]
    num_players: int
    #: The last step's index (step 0 is the setup).
    steps: int
    step: int
    #: ``Setup``, or the step in the log's words: ``Step 7 · Ann accepted wish 1.``
    title: str
    #: The view after this step: the spectator's, or the asked seat's.
    view: dict[str, Any]
    #: The step's events in words (None: an event not worth a line).
    events: list[Words]
    #: Scores and ranking once the game is over at this step.
    result: dict[str, Any] | None = None


class RulesPage(BaseModel):
    game: str
    name: str
    #: The rules in our own words, as HTML.
    html: str
    #: Our rulings where the rulebook is silent or unclear, as HTML.
    rulings_html: str


def record_seats(record: GameRecord, num_players: int) -> list[SeatData]:
    """Seats for naming the players of a record: the names it holds (``metadata.names``),
    else its agents (``metadata.agents``), else numbers."""
    names = record.metadata.get("names")
    agents = record.metadata.get("agents")
    seats = []
    for seat in range(num_players):
        name = names[seat] if isinstance(names, list) and len(names) == num_players else None
        agent = agents[seat] if isinstance(agents, list) and len(agents) == num_players else None
        bot = isinstance(agent, str) and agent != "human"
        seats.append(
            SeatData(
                seat=seat,
                kind="bot" if bot else "human",
                agent=agent if bot else None,
                name=name if isinstance(name, str) else None,
            )
        )
    return seats


def replay_frame(
    record: GameRecord, step: int, seat: int | None, seats: list[SeatData] | None = None
) -> ReplayFrame:
    """The frame after ``step`` of ``record`` as ``seat`` (None: a spectator) saw it; raises
    ``LobbyError`` for a step or seat the game does not have and for a record that does not
    replay."""
    last = len(record.actions)
    try:
        entry, state = _replayed(record, step, seat)
        num_players = state.num_players
        if seats is None:
            seats = record_seats(record, num_players)
        describe = describer(record.game, seats)
        names = [seat_name(s) for s in seats]
        result = None
        if state.is_over:
            result = {"scores": [s.to_json() for s in state.scores()], "ranking": state.ranking()}
        return ReplayFrame(
            game=record.game,
            names=names,
            num_players=num_players,
            steps=last,
            step=step,
            title=step_title(entry, record.game, _namer(names)),
            view=state.view(seat, include_log=False),
            events=[describe(event) for event in entry.events],
            result=result,
        )
    except RecordError as exc:
        raise LobbyError(400, "bad_record", str(exc)) from exc


def replay_state(record: GameRecord, step: int, seat: int | None) -> GameState:
    """The whole game of ``record`` after ``step`` (for a hint to ``seat``, which the caller
    shows only its own part of); ``LobbyError`` as ``replay_frame``."""
    try:
        return _replayed(record, step, seat)[1]
    except RecordError as exc:
        raise LobbyError(400, "bad_record", str(exc)) from exc


def _replayed(
    record: GameRecord, step: int, seat: int | None
) -> tuple[ReplayStep, GameState]:
    """The step's entry and the state after it; ``LobbyError`` for a step or seat the game
    does not have (``RecordError`` for a record that does not replay)."""
    last = len(record.actions)
    if not 0 <= step <= last:
        raise LobbyError(404, "no_step", f"the game has steps 0 to {last}, not {step}")
    steps = replay_steps(record, seat)
    entry, state = next(steps)
    while entry.step < step:
        entry, state = next(steps)
    if seat is not None and not 0 <= seat < state.num_players:
        raise LobbyError(
            404, "no_seat", f"the game has seats 0 to {state.num_players - 1}, not {seat}"
        )
    return entry, state


def _namer(names: list[str]) -> Callable[[int | None], str]:
    def name(seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    return name


def parse_record(body: bytes) -> GameRecord:
    """A record a visitor sent; ``LobbyError`` (422 ``bad_record``) saying what is wrong."""
    try:
        return GameRecord.loads(body, where="the file")
    except RecordError as exc:
        raise LobbyError(400, "bad_record", str(exc)) from exc


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def _package_text(spec: GameSpec, name: str) -> str | None:
    # A game's package holds its texts beside its rules (rules.md, rulings.md).
    package = spec.state_type.__module__.rpartition(".")[0]
    try:
        return (resources.files(package) / name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return None


#: The notes of the rules texts meant for developers, which the players' page leaves out
#: (the files are also the developers' docs/rulings/): a ruling's "Test:"/"Tests:" up to its
#: next part or the end of its paragraph, and a paragraph opening "For developers:".
_DEVELOPER_NOTE = re.compile(
    r"(?:\*\*)?(?:Tests?|For developers):(?:\*\*)?[ \n].*?"
    r"(?=\*\*(?:Ruling|Why)\.\*\*|\n[ \t]*\n|\n#|\Z)",
    re.S,
)
#: A parenthesis naming a file of the repository: "(tests/test_djinn_rulings.py ...)".
_PATH_ASIDE = re.compile(r"[ \t]*\([^()\n]*(?:\.\./|tests/|docs/|src/|\.py\b|\.toml\b)[^()\n]*\)")


def for_players(markdown: str) -> str:
    """A rules text as the players' page shows it: without the developers' notes (the
    tests that hold a ruling, where a file of the repository says more)."""
    return _PATH_ASIDE.sub("", _DEVELOPER_NOTE.sub("", markdown))


@cache
def rules_page(spec: GameSpec) -> RulesPage:
    """The game's rules and rulings as HTML for players (raw HTML in the sources is
    escaped; the developers' notes left out: ``for_players``)."""
    rules = _package_text(spec, "rules.md")
    rulings = _package_text(spec, "rulings.md")
    rules = for_players(rules) if rules else None
    rulings = for_players(rulings) if rulings else None
    return RulesPage(
        game=spec.id,
        name=spec.name,
        html=_MARKDOWN.render(rules) if rules else "<p>No rules page has been written yet.</p>",
        rulings_html=_MARKDOWN.render(rulings) if rulings else "<p>No rulings.</p>",
    )
