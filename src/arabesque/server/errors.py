"""The error of a lobby request the server cannot do (a table, a seat, a record): the lobby's
routes (app.py) answer it with its HTTP status and code."""

from __future__ import annotations


class LobbyError(Exception):
    """A lobby request that cannot be done; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
