"""The server's tables, in SQLAlchemy 2.0 declarative style.

A game table is stored as its configuration (game, params, seats, clock), its setup (seed and
arrangement, with the commitment published at the start) and the ordered list of applied
actions in their canonical text. That is all a restart needs: the live state is rebuilt by
replaying the actions, exactly as a record replays. Seat tokens are stored hashed.

The schema is created and changed only by the Alembic migrations in ``migrations/``; these
models must match the latest one (tests check ``alembic check``-style agreement by creating
tables both ways).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: Constraint names fixed by convention, so migrations name them the same on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# Table statuses.
OPEN = "open"
RUNNING = "running"
FINISHED = "finished"
#: Ended by the host, or left with nobody connected for too long: no winner (0002).
ABANDONED = "abandoned"

HUMAN = "human"
BOT = "bot"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class TableRow(Base):
    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Table options that are not game params: clocks, bot think time... and, from the start,
    #: the record compatibility of the game and the engine version it is played under.
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The setup, fixed when the table starts and secret until it ends.
    seed: Mapped[int | None] = mapped_column(BigInteger)
    arrangement: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    salt: Mapped[str | None] = mapped_column(String(128))
    commitment: Mapped[str | None] = mapped_column(String(64))
    #: Why an abandoned table ended (the host's reason, or nobody connected for too long).
    end_reason: Mapped[str | None] = mapped_column(String(200))
    #: When a human was last connected (or the table was made): the idle check reads it.
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: What happened to the table outside the game (seats away, bots seated, the end), as
    #: ``{"at", "kind", "seat", "text"}`` items; the clients show them with the log.
    notes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    #: Lamp race presses to review (0003): each ``{"at", "seat", "why", "reaction_ms",
    #: "credited_ms", "pong_ms", "kernel_min_ms"}`` (racing.py); server-side until the end,
    #: then in the record's metadata.
    race_reviews: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    agent: Mapped[str | None] = mapped_column(String(200))
    name: Mapped[str | None] = mapped_column(String(64))
    #: sha256 (hex) of the seat's token; None while a human seat is free.
    token_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    #: Time used on the per-game clock, in milliseconds.
    clock_used_ms: Mapped[int] = mapped_column(Integer, default=0)
    #: The agent playing for an away human (handed over by the host or a seated player);
    #: None while the human plays (or may come back to) the seat.
    stand_in: Mapped[str | None] = mapped_column(String(200))

    table: Mapped[TableRow] = relationship(back_populates="seats")


class PresenceRow(Base):
    """Who is connected to a table through one server process (0003): several processes
    behind one database judge a seat away, and count spectators against the cap, from the
    rows of all of them (away.py). A process keeps its rows fresh (``beat``) while it runs;
    a row not renewed for a while is a process that died, and counts as gone since then."""

    __tablename__ = "presence"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    #: The server process (its random id, made at start).
    process: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The seat, or ``SPECTATORS`` for the table's spectators.
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: Live connections of the seat (or spectators) on that process.
    connections: Mapped[int] = mapped_column(Integer)
    #: When the count last went to 0 or up from it.
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: When the process last said it still runs.
    beat: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


#: The ``seat`` of a table's spectators in ``PresenceRow``.
SPECTATORS = -1


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    #: 0-based position in the game's action list; the primary key makes a second writer of
    #: the same step fail instead of forking the game.
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
