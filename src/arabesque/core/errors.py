"""Typed errors of the core contract.

Every error a caller can provoke with bad input is a ``ValueError`` subclass whose message
says what was wrong and what would have been accepted. Raising one never changes a state.
"""

from __future__ import annotations


class ArabesqueError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidActionError(ArabesqueError):
    """The action is malformed: not an action of this game at all (wrong type, out of range,
    unparsable text)."""


class IllegalActionError(ArabesqueError):
    """The action is well formed but the rules do not allow it now."""


class NotYourTurnError(IllegalActionError):
    """The player is not among those who may act now."""


class StaleStateError(IllegalActionError):
    """The action was chosen on a state version the game has since moved past."""


class GameOverError(IllegalActionError):
    """The game has ended; no action is accepted."""


class ParamsError(ArabesqueError):
    """Game parameters (player count, variants, options) are invalid."""


class ComponentsError(ArabesqueError):
    """A components data file is malformed or inconsistent."""


class RecordError(ArabesqueError):
    """A game record is malformed or does not replay (the message names the step)."""


class UnknownGameError(ArabesqueError):
    """No game is registered under that id."""
