"""The agent contract. An agent sees only what its seat may know.

Agents receive an ``Observation``: their seat, the legal actions, the seat's decision (the
core's decision model: kind, prompt, labelled options), the seat's view and observation
tensor (built lazily through the game's observer, the one authority on hidden information),
the game's params and public static data (components, board geometry), and
``determinize(rng)`` for search-based bots — a copy holding nothing the seat cannot know.
Agents must not reach into the real state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from arabesque.core.decision import Decision
from arabesque.core.game import GameState, Params
from arabesque.core.observer import FloatArray


class Observation:
    """What an agent may use to choose an action for ``seat``."""

    __slots__ = ("_decision", "_state", "_view", "legal", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self._view: dict[str, Any] | None = None
        self._decision: Decision | None = None
        self.seat = seat
        self.legal: Sequence[int] = state.legal_actions(seat)

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._state.view(self.seat, include_log=False)
        return self._view

    @property
    def decision(self) -> Decision:
        """What the seat decides now (its options are ``legal``)."""
        if self._decision is None:
            decision = self._state.decision(self.seat)
            if decision is None:
                raise ValueError(f"seat {self.seat} has nothing to decide now")
            self._decision = decision
        return self._decision

    def observation(self) -> FloatArray:
        """The seat's observation tensor (``spec.observation_shape(params)``)."""
        return self._state.observation(self.seat)

    @property
    def params(self) -> Params:
        return self._state.params

    @property
    def public(self) -> Any:
        """The game's public static data: its components, board geometry..."""
        return self._state.public_data()

    @property
    def version(self) -> int:
        return self._state.version

    @property
    def game_id(self) -> str:
        return self._state.spec.id

    @property
    def num_players(self) -> int:
        return self._state.num_players

    def determinize(self, rng: random.Random) -> GameState:
        return self._state.determinize(self.seat, rng)

    def action_to_str(self, action: int) -> str:
        return self._state.action_to_str(action)

    def parse_action(self, text: str) -> int:
        return self._state.parse_action(text)


class Agent(ABC):
    """A player that chooses legal actions. Bots keep their own seeded RNG."""

    #: The spec string that builds this agent again (set by the registry).
    spec: str = ""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, obs: Observation) -> int:
        """Choose one of ``obs.legal``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r})"
