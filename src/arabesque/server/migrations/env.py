"""Alembic environment: migrations run on the connection the server hands over in
``config.attributes["connection"]`` (see ``arabesque.server.store.migrate``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from arabesque.server.db import Base

config = context.config
connection = config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError(
        "arabesque's migrations run through arabesque.server.store.migrate(url), which "
        "passes a connection; offline (--sql) mode is not supported"
    )
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
