"""A game being played at the terminal: the state, who sits where, and the bots.

Game-agnostic and free of any Textual import, so it is easy to test. The front end only ever
reads ``view()`` (the human's view, or the spectator's when nobody plays), offers the
choices of its ``decision``, checks an answer against ``human_legal()`` and applies through
``apply_human``; bots act through their agents, each seeing its own seat's observation only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.core.game import GameState

HUMAN_NAME = "You"


def bot_name(seat: int) -> str:
    return f"Bot {seat}"


class Session:
    """One game between at most one human (``human`` seat, or None to watch bots) and bots."""

    def __init__(
        self,
        state: GameState,
        agents: Mapping[int, Agent],
        human: int | None,
        notices: Sequence[str] = (),
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
        return action

    def final_lines(self) -> list[str]:
        """Final scores and ranks as plain lines (printed after the terminal UI closes)."""
        if not self.state.is_over:
            return []
        scores = self.state.scores()
        ranks = self.state.ranking()
        order = sorted(range(self.num_players), key=lambda p: (ranks[p], p))
        lines = []
        for p in order:
            parts = ", ".join(
                f"{k.replace('_', ' ')} {v}" for k, v in scores[p].breakdown.items() if v
            )
            lines.append(f"{ranks[p]}. {self.names[p]}: {scores[p].total} ({parts})")
        return lines
