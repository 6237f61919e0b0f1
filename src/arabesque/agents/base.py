"""The agent contract. An agent sees only what its seat may know.

Agents receive an ``Observation``: their seat, the seat's view (built lazily through
``GameState.view``, the one authority on hidden information), the legal actions, and
``determinize(rng)`` for search-based bots — a copy with everything the seat cannot see
re-sampled and a fresh RNG. Agents must not reach into the real state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from arabesque.core.game import GameState


class Observation:
    """What an agent may use to choose an action for ``seat``."""

    __slots__ = ("_state", "_view", "legal", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self._view: dict[str, Any] | None = None
        self.seat = seat
        self.legal: Sequence[int] = state.legal_actions(seat)

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._state.view(self.seat, include_log=False)
        return self._view

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
