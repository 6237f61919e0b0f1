"""The core contract every game implements.

A game is a ``GameSpec`` (metadata, declared once) and a ``GameState`` subclass (the state
machine). Front ends — terminal, simulator, bots, records, RL adapters — are written against
this module only and never against a particular game.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from arabesque.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    ParamsError,
)
from arabesque.core.events import Event
from arabesque.core.scoring import Score, rank_scores

P = TypeVar("P", bound="Params")

#: How many legal actions an error message quotes before it abbreviates.
_QUOTED_LEGAL = 12


@dataclass(frozen=True)
class Params:
    """Base of every game's parameters: a frozen dataclass, JSON-ready through ``to_json``."""

    num_players: int

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data, Mapping):
            raise ParamsError(f"params must be a JSON object, got {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ParamsError(f"unknown params {unknown}; known: {sorted(names)}")
        try:
            return cls(**dict(data))
        except TypeError as exc:
            raise ParamsError(f"bad params {dict(data)}: {exc}") from exc

    def with_changes(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class GameSpec:
    """What a game is, declared once as data; algorithms and RL spaces derive from it."""

    id: str
    name: str
    min_players: int
    max_players: int
    params_type: type[Params]
    state_type: type[GameState]
    simultaneous: bool
    hidden_information: bool
    chance: bool
    real_time: bool
    description: str = ""
    #: The game's printed components as JSON-ready data, from an optional data file path
    #: (``arabesque cards``); None for a game without an id table.
    catalog: Callable[[str | None], dict[str, Any]] | None = None

    def make_params(self, **options: Any) -> Params:
        """Build and validate params; unknown or bad options raise ``ParamsError``."""
        params = self.params_type.from_json(options)
        self.validate_params(params)
        return params

    def validate_params(self, params: Params) -> None:
        if not isinstance(params, self.params_type):
            raise ParamsError(
                f"{self.id} expects {self.params_type.__name__}, got {type(params).__name__}"
            )
        players = params.num_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise ParamsError(f"num_players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ParamsError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"not {params.num_players}"
            )
        self.state_type.validate_params(params)

    def num_actions(self, params: Params) -> int:
        """Size of the fixed integer action space for these params."""
        return self.state_type.num_distinct_actions(params)

    def max_game_length(self, params: Params) -> int:
        """An upper bound on the number of applied actions in one game."""
        return self.state_type.max_game_length(params)

    def new_game(
        self, params: Params, seed: int | None = None, arrangement: Mapping[str, Any] | None = None
    ) -> GameState:
        """A fresh game. ``seed`` drives every shuffle and chance event; ``arrangement`` is an
        explicit initial layout (deck orders, starting cards) written by hand or taken from a
        record, in which case the seed drives only the chance events after setup."""
        self.validate_params(params)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        return self.state_type.initial(params, seed, arrangement)


class GameState(ABC):
    """A game in progress. Subclasses hold the data; the forward model lives in their rules.

    Players are seats ``0 .. num_players-1``. Actions are integers in a fixed space
    ``range(num_actions)``; ``action_to_str``/``parse_action`` give their readable form.
    """

    spec: ClassVar[GameSpec]

    params: Params
    seed: int
    rng: random.Random
    history: list[tuple[int, int]]
    events: list[Event]

    # -- construction -------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def initial(cls, params: Params, seed: int, arrangement: Mapping[str, Any] | None) -> Self:
        """The state before anyone acts."""

    @classmethod
    def validate_params(cls, params: Params) -> None:
        """Game-specific checks beyond the player count; raise ``ParamsError``."""
        return None

    @classmethod
    @abstractmethod
    def num_distinct_actions(cls, params: Params) -> int: ...

    @classmethod
    @abstractmethod
    def max_game_length(cls, params: Params) -> int: ...

    @abstractmethod
    def arrangement(self) -> dict[str, Any]:
        """The explicit initial arrangement this game started from (JSON-ready)."""

    def data_digest(self) -> str | None:
        """A digest of the game data this game was built from (e.g. a components file), so a
        record replayed against different data is refused instead of silently diverging."""
        return None

    # -- the state machine --------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.params.num_players

    @property
    def num_actions(self) -> int:
        return type(self).num_distinct_actions(self.params)

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that may act now: one, several in a simultaneous phase, none at the end."""

    @abstractmethod
    def legal_actions(self, player: int) -> Sequence[int]:
        """Legal actions of ``player`` now, ascending; empty when the player may not act."""

    @abstractmethod
    def _apply(self, player: int, action: int) -> None:
        """Carry out a checked, legal action. Must not raise."""

    def apply(self, player: int, action: int) -> None:
        """Apply ``player``'s ``action``; a bad one raises and leaves the state unchanged."""
        # ``type(x) is int`` is the common case and settles both checks at once; anything
        # else (bool, other types, int subclasses) takes the full isinstance test.
        if type(action) is not int and (isinstance(action, bool) or not isinstance(action, int)):
            raise InvalidActionError(
                f"an action is an integer in 0..{self.num_actions - 1}, got {action!r}"
            )
        num_actions = self.num_actions
        if not 0 <= action < num_actions:
            raise InvalidActionError(
                f"action {action} is outside this game's action space 0..{num_actions - 1}"
            )
        if self.is_over:
            raise GameOverError(f"the game is over; {self.action_to_str(action)!r} is refused")
        if type(player) is not int and (isinstance(player, bool) or not isinstance(player, int)):
            raise InvalidActionError(f"a player is a seat number, got {player!r}")
        acting = self.to_act()
        if player not in acting:
            raise NotYourTurnError(
                f"player {player} may not act now; waiting for {sorted(acting)} "
                f"({self.phase_description()})"
            )
        legal = self.legal_actions(player)
        if action not in legal:
            quoted = ", ".join(self.action_to_str(a) for a in legal[:_QUOTED_LEGAL])
            more = f" and {len(legal) - _QUOTED_LEGAL} more" if len(legal) > _QUOTED_LEGAL else ""
            raise IllegalActionError(
                f"{self.action_to_str(action)!r} is not legal for player {player} now "
                f"({self.phase_description()}); legal: {quoted}{more}"
            )
        self._apply(player, action)
        self.history.append((player, action))

    def legal_mask(self, player: int) -> list[bool]:
        """The legal actions of ``player`` as a mask over the whole action space (for RL)."""
        mask = [False] * self.num_actions
        for action in self.legal_actions(player):
            mask[action] = True
        return mask

    @abstractmethod
    def phase_description(self) -> str:
        """A short human description of what the game waits for now."""

    # -- actions as text ----------------------------------------------------------------

    @abstractmethod
    def action_to_str(self, action: int) -> str:
        """The canonical text of an action (what records store)."""

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """Inverse of ``action_to_str``; raises ``InvalidActionError`` on unknown text."""

    # -- information --------------------------------------------------------------------

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, without the log (``None`` = spectator)."""

    def view(self, seat: int | None, include_log: bool = True) -> dict[str, Any]:
        """A JSON-ready dict of exactly what ``seat`` may know, with its filtered event log.

        This is the one authority on hidden information: every front end, bot and RL
        observation goes through it.
        """
        if seat is not None and not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.num_players
        ):
            raise InvalidActionError(f"no seat {seat!r}; seats are 0..{self.num_players - 1}")
        data = self._view(seat)
        data["game"] = self.spec.id
        data["seat"] = seat
        data["to_act"] = sorted(self.to_act())
        data["is_over"] = self.is_over
        if include_log:
            data["log"] = [e.to_json() for e in self.events if e.visible_for(seat)]
        return data

    def log_for(self, seat: int | None, start: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """(index, event) pairs visible to ``seat`` from raw event index ``start`` on."""
        return [
            (i, self.events[i].to_json())
            for i in range(start, len(self.events))
            if self.events[i].visible_for(seat)
        ]

    def log(self, kind: str, visible_to: frozenset[int] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, data, visible_to))

    # -- copies -------------------------------------------------------------------------

    @abstractmethod
    def clone(self) -> Self:
        """An independent exact copy (its own RNG in the same state)."""

    @abstractmethod
    def determinize(self, player: int, rng: random.Random) -> Self:
        """A copy where everything ``player`` cannot see is re-sampled consistently with what
        ``player`` has seen. The copy's RNG is fresh (drawn from ``rng``), never the game's."""

    @abstractmethod
    def fingerprint(self) -> Any:
        """A hashable value identifying the full state (for tests of copies and replays)."""

    # -- the end ------------------------------------------------------------------------

    @abstractmethod
    def scores(self) -> list[Score]:
        """Per-player scores with breakdown (final once ``is_over``)."""

    def ranking(self) -> list[int]:
        """Rank per player (1 = winner), ties per the rulebook sharing a rank."""
        return rank_scores(self.scores())

    def returns(self) -> list[float]:
        """Per-player outcome in [-1, 1] for learning: winners share +1, others by rank."""
        ranks = self.ranking()
        n = self.num_players
        if n == 1:
            return [1.0 if ranks[0] == 1 else 0.0]
        return [1.0 - 2.0 * (r - 1) / (n - 1) for r in ranks]

    # -- records ------------------------------------------------------------------------

    def record(self, **metadata: Any) -> Any:
        from arabesque.core.records import GameRecord

        return GameRecord.from_state(self, metadata=metadata)


# Games register a factory; keeping the type alias here avoids an import cycle.
SpecFactory = Callable[[], GameSpec]
