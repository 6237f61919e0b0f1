"""The event log in words, for clients that ask for it (``hello`` with ``words: true``).

A log event is put in words by the game's own describer, the one the terminal's log and the
replay use (``sim.replay.event_describer``), so the browser reads like the terminal. The words
are made from the event alone, after the observer chose the events a connection may see, so
they can say nothing the event does not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arabesque.server.store import SeatData
from arabesque.sim.replay import event_describer

#: One event in words: ``{"text": ..., "tone": ...}`` (the tone is the terminal's style, such
#: as ``"bold red"``), or None for an event not worth a line.
Words = dict[str, str] | None


def seat_name(seat: SeatData) -> str:
    """How the log names a seat: the player's name, else what sits there."""
    if seat.name:
        return seat.name
    # Seats are counted from 1 for people; several bots of one kind stay apart by seat.
    if seat.kind == "bot":
        return f"Seat {seat.seat + 1} ({seat.agent or 'a'} bot)"
    return f"Seat {seat.seat + 1}"


def describer(game_id: str, seats: Sequence[SeatData]) -> Callable[[Mapping[str, Any]], Words]:
    """The words of one game's events, naming the seats as the table does."""
    names = [seat_name(s) for s in seats]

    def name(seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    describe = event_describer(game_id, name)

    def words(event: Mapping[str, Any]) -> Words:
        line = describe(event)
        if line is None:
            return None
        return {"text": line.plain, "tone": str(line.style or "")}

    return words
