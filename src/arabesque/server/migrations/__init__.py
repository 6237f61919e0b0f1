"""Alembic migrations of the server database, shipped inside the package and run by
``arabesque.server.store.migrate`` at startup (no alembic.ini needed)."""
