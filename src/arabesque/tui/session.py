"""A game being played at the terminal: the state, who sits where, and the bots.

Game-agnostic and free of any Textual import, so it is easy to test. The front end only ever
reads ``view()`` (the human's view, or the spectator's when nobody plays), offers the
choices of its ``decision``, checks an answer against ``human_legal()`` and applies through
``apply_human``; bots act through their agents, each seeing its own seat's observation only.

A session given a ``RecordFile`` saves the game's record there when it starts and after every
applied action, so a game left in any way (quit, a closed terminal, a crash) can be resumed.
The record holds the seed, and so every hidden card: it is written to the player's own disk
and never shown in the game.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.core.errors import ArabesqueError
from arabesque.core.game import GameState
from arabesque.core.records import GameRecord

HUMAN_NAME = "You"


def bot_name(seat: int) -> str:
    return f"Bot {seat}"


class RecordFile:
    """The file one game's record is kept in, rewritten whole after every applied action.

    ``metadata`` goes into every write (who sits where, with which agent); ``finished`` is
    added each time, and the engine adds the ``result`` once the game is over.
    """

    def __init__(self, path: Path, metadata: Mapping[str, Any]) -> None:
        self.path = path
        self.metadata = dict(metadata)

    def write(self, state: GameState) -> None:
        """Write the record atomically: a temporary file in the same folder, then a rename,
        so the file is always a whole record, the old one or the new one, even if the
        program is killed mid-write. (No fsync: this guards against the program dying, not
        the machine, and an fsync per move would cost more than the move.)"""
        meta = {k: v for k, v in self.metadata.items() if k != "result"}
        meta["finished"] = state.is_over
        text = GameRecord.from_state(state, meta).dumps() + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


class Session:
    """One game between at most one human (``human`` seat, or None to watch bots) and bots."""

    def __init__(
        self,
        state: GameState,
        agents: Mapping[int, Agent],
        human: int | None,
        notices: Sequence[str] = (),
        record_file: RecordFile | None = None,
    ) -> None:
        seats = set(range(state.num_players))
        bot_seats = set(agents)
        expected = seats - ({human} if human is not None else set())
        if bot_seats != expected:
            raise ValueError(
                f"seats {sorted(seats)} need a human at {human} and bots at {sorted(expected)}, "
                f"got bots at {sorted(bot_seats)}"
            )
        self.state = state
        self.agents = dict(agents)
        self.human = human
        #: Things the player should be told once (an agent fallback, for instance).
        self.notices = list(notices)
        self.names = [HUMAN_NAME if p == human else bot_name(p) for p in range(state.num_players)]
        #: Where the record is saved (None: not saved), and why the last save failed.
        self.record_file: RecordFile | None = None
        self.save_error: str | None = None
        if record_file is not None:
            self.keep_record(record_file)

    # -- what the front end may read ------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def view(self) -> dict[str, Any]:
        """The only picture of the game the front end draws: the human's view."""
        return self.state.view(self.human)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.names[seat]

    def agent_label(self, seat: int) -> str:
        agent = self.agents.get(seat)
        return "human" if agent is None else (agent.spec or type(agent).__name__)

    def human_to_act(self) -> bool:
        return self.human is not None and self.human in self.state.to_act()

    def human_legal(self) -> Sequence[int]:
        if self.human is None:
            return ()
        return self.state.legal_actions(self.human)

    def bots_to_act(self) -> list[int]:
        return sorted(p for p in self.state.to_act() if p != self.human)

    # -- acting ---------------------------------------------------------------------------

    def apply_human(self, action: int) -> None:
        """Apply the human's action (the engine checks it and raises if it is not legal)."""
        if self.human is None:
            raise ValueError("nobody plays in a bots-only game")
        self.state.apply(self.human, action)
        self.save()

    def bot_act(self, seat: int) -> int:
        """Let the bot at ``seat`` choose from its own observation and apply its action.

        A bot that fails (raises, or picks an illegal action) must not end the person's
        game: its first legal action is played instead and a notice says so."""
        agent = self.agents[seat]
        legal = self.state.legal_actions(seat)
        try:
            action = agent.act(Observation(self.state, seat))
            if action not in legal:
                raise ValueError(f"it chose {action!r}, which is not legal now")
        except Exception as exc:
            action = legal[0]
            self.notices.append(
                f"{self.names[seat]} ({self.agent_label(seat)}) failed: {exc}; "
                f"it plays {self.state.action_to_str(action)!r} instead."
            )
        self.state.apply(seat, action)
        self.save()
        return action

    def keep_record(self, record_file: RecordFile) -> None:
        """Save the game in ``record_file`` from now on, starting with the game as it is."""
        self.record_file = record_file
        self.save()

    def save(self) -> None:
        """Write the record, if this session keeps one. A failure (a full disk, a folder
        that cannot be written) must not end the person's game: it is told once, in the
        log, and the next action tries again."""
        if self.record_file is None:
            return
        try:
            self.record_file.write(self.state)
        except (OSError, ArabesqueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if self.save_error is None:
                self.notices.append(
                    f"Could not save this game to {self.record_file.path} ({reason}); "
                    "it goes on, and saving is tried again after every move."
                )
            self.save_error = reason
        else:
            self.save_error = None

    def final_lines(self) -> list[str]:
        """Final scores and ranks as plain lines (printed after the terminal UI closes)."""
        if not self.state.is_over:
            return []
        scores = self.state.scores()
        ranks = self.state.ranking()
        order = sorted(range(self.num_players), key=lambda p: (ranks[p], p))
        # A lone player ranks first whether or not they won (Djinn's solo game is won or
        # lost against Tom): their line says the game's result instead.
        solo = self.num_players == 1
        lines = []
        for p in order:
            parts = ", ".join(
                f"{k.replace('_', ' ')} {v}" for k, v in scores[p].breakdown.items() if v
            )
            if solo:
                result = "won" if self.state.returns()[p] > 0.5 else "lost"
                lines.append(f"{self.names[p]} ({result}): {scores[p].total} ({parts})")
            else:
                lines.append(f"{ranks[p]}. {self.names[p]}: {scores[p].total} ({parts})")
        return lines
