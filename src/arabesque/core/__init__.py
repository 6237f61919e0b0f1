"""The game-agnostic core contract: specs, states, errors, records, registry, test kit."""

from arabesque.core.decision import Decision, DecisionStack, Frame
from arabesque.core.errors import (
    ArabesqueError,
    ComponentsError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    ParamsError,
    RecordError,
    StaleStateError,
    UnknownGameError,
)
from arabesque.core.events import Event
from arabesque.core.game import GameSpec, GameState, Params
from arabesque.core.observer import ObservationLayout, Observer
from arabesque.core.records import GameRecord
from arabesque.core.registry import game_ids, get_game, register
from arabesque.core.scoring import Score, rank_by_key, rank_scores, winners

__all__ = [
    "ArabesqueError",
    "ComponentsError",
    "Decision",
    "DecisionStack",
    "Event",
    "Frame",
    "GameOverError",
    "GameRecord",
    "GameSpec",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "NotYourTurnError",
    "ObservationLayout",
    "Observer",
    "Params",
    "ParamsError",
    "RecordError",
    "Score",
    "StaleStateError",
    "UnknownGameError",
    "game_ids",
    "get_game",
    "rank_by_key",
    "rank_scores",
    "register",
    "winners",
]
