"""Presence: who is connected to a table through which server process, so that several
processes behind one database judge away seats and the spectator cap together; and the
lamp race presses to review, kept with their table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("race_reviews", sa.JSON(), nullable=True))
    op.create_table(
        "presence",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("process", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("connections", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("beat", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_tables.id"],
            name=op.f("fk_presence_table_id_game_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "process", "seat", name=op.f("pk_presence")),
    )
    op.create_index(op.f("ix_presence_beat"), "presence", ["beat"])


def downgrade() -> None:
    op.drop_index("ix_presence_beat", table_name="presence")
    op.drop_table("presence")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("race_reviews")
