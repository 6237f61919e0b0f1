"""The error of a lobby request the server cannot do (a table, a seat, a record): the lobby's
routes (app.py) answer it with its HTTP status and code. And ``Unreplayable``: a stored game
this engine cannot rebuild (table.py, away.py ``set_aside``)."""

from __future__ import annotations

from arabesque.core.limits import clip

#: The longest message a lobby error carries.
MAX_MESSAGE = 500


class LobbyError(Exception):
    """A lobby request that cannot be done; ``status`` is the HTTP status to answer with."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        # A message quotes what it refused; cut, so a huge value is not echoed whole.
        message = clip(message, MAX_MESSAGE)
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        #: Extra response headers (``Retry-After`` of a 429).
        self.headers = headers


#: The longest reason stored for a table's end (``game_tables.end_reason``).
MAX_REASON = 200


class Unreplayable(Exception):
    """This engine cannot rebuild a stored game: it started under another record
    compatibility of its game (its rules changed since), or a stored action is refused.
    ``reason`` says which, in words fit for the table's end reason."""

    def __init__(self, reason: str) -> None:
        reason = clip(reason, MAX_REASON)
        super().__init__(reason)
        self.reason = reason
