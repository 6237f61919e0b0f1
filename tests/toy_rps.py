"""Toy Rock-Paper-Scissors (game id ``toy-rps``): two seats throw at once, in secret, and the
game ends at the reveal. Rock beats scissors, scissors paper, paper rock; the winner scores
1. The one hidden thing is the other seat's throw before the reveal, which a determinized
copy takes back. A test game for simultaneous search (tests/test_ismcts.py): its only
equilibrium is the uniform mix.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Self

from arabesque.core.decision import Decision
from arabesque.core.game import GameSpec, GameState, Params
from arabesque.core.scoring import Score

THROWS = ("rock", "paper", "scissors")
NOT_THROWN = -1
BOTH = frozenset((0, 1))


class Kind(IntEnum):
    THROW = 0


@dataclass(frozen=True)
class RpsParams(Params):
    num_players: int = 2


def beats(a: int, b: int) -> bool:
    """Paper (1) beats rock (0), scissors (2) paper, rock scissors."""
    return (a - b) % 3 == 1


class RpsState(GameState):
    params: RpsParams
    throws: list[int]

    @classmethod
    def initial(cls, params: Params, seed: int, arrangement: Mapping[str, Any] | None) -> Self:
        assert isinstance(params, RpsParams)
        state = cls.__new__(cls)
        state.params = params
        state.seed = seed
        state.rng = random.Random(seed)
        state.history = []
        state.events = []
        state.throws = [NOT_THROWN, NOT_THROWN]
        return state

    @classmethod
    def num_distinct_actions(cls, params: Params) -> int:
        return len(THROWS)

    @classmethod
    def max_game_length(cls, params: Params) -> int:
        return 2

    def arrangement(self) -> dict[str, Any]:
        return {}

    @property
    def is_over(self) -> bool:
        return NOT_THROWN not in self.throws

    def to_act(self) -> frozenset[int]:
        return frozenset(p for p in (0, 1) if self.throws[p] == NOT_THROWN)

    def to_act_seen_by(self, seat: int | None) -> frozenset[int]:
        return self.to_act() if self.is_over else BOTH

    def secret_phase(self) -> Any:
        return None if self.is_over else "throw"

    def legal_actions(self, player: int) -> Sequence[int]:
        return (0, 1, 2) if player in self.to_act() else ()

    def _apply(self, player: int, action: int) -> None:
        self.throws[player] = action

    def phase_description(self) -> str:
        return "throwing"

    def _decision(self, seat: int) -> Decision:
        return Decision(seat, Kind.THROW, (0, 1, 2), "throw", THROWS, 0)

    def action_to_str(self, action: int) -> str:
        return THROWS[action]

    def parse_action(self, text: str) -> int:
        return THROWS.index(text)

    def _copy(self, full: bool) -> Self:
        new = self.__class__.__new__(self.__class__)
        new.params, new.seed, new.version = self.params, self.seed, self.version
        new.throws = list(self.throws)
        self._copy_run(new, full)
        return new

    def _resample(self, player: int, rng: random.Random) -> None:
        # The other seat's throw is secret until the reveal: taken back.
        other = 1 - player
        if not self.is_over:
            self.throws[other] = NOT_THROWN

    def fingerprint(self) -> Any:
        return (self.seed, self.version, tuple(self.throws))

    def scores(self) -> list[Score]:
        a, b = self.throws
        return [Score.of({"won": int(beats(a, b))}), Score.of({"won": int(beats(b, a))})]

    def values(self) -> list[float]:
        """Zero-sum values for a search: a win 1, a draw 0.5, a loss 0."""
        a, b = self.throws
        if beats(a, b):
            return [1.0, 0.0]
        if beats(b, a):
            return [0.0, 1.0]
        return [0.5, 0.5]


SPEC = GameSpec(
    id="toy-rps",
    name="Toy Rock-Paper-Scissors",
    min_players=2,
    max_players=2,
    params_type=RpsParams,
    state_type=RpsState,
    simultaneous=True,
    hidden_information=True,
    chance=False,
    real_time=False,
    description="A test game: two secret simultaneous throws.",
)
RpsState.spec = SPEC
