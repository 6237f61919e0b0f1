"""Test configuration: hypothesis profiles sized for a shared two-core machine, and the
databases the server tests run against.

``HYPOTHESIS_PROFILE=thorough pytest`` runs the property tests with many more examples.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.server_client import pg_schema

settings.register_profile(
    "arabesque",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile(
    "thorough",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "arabesque"))


PG_ENV = "ARABESQUE_TEST_DATABASE_URL"
#: The published games. Tests register toy games (tests/toy_*.py) into the same registry, so a
#: test that means "every game" in a process other tests share names these.
GAMES = ("ali-baba", "djinn", "magic-lamp")


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set"),
        ),
    ]
)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database for a server test: SQLite always, and PostgreSQL (a schema of its
    own) when ``ARABESQUE_TEST_DATABASE_URL`` names one."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.sqlite3'}"
    else:
        with pg_schema(os.environ[PG_ENV]) as url:
            yield url


def serve_without_serving(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Let ``arabesque.server.cli.main`` parse its flags and build everything, but serve
    nothing: returns (the settings it built, under "settings"; the uvicorn config it ran,
    under "config"), filled by each call."""
    import uvicorn

    from arabesque.server import cli, serving

    captured: dict[str, Any] = {}
    seen: dict[str, Any] = {}

    def run(self: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
        seen["config"] = self.config
        for sock in sockets or []:  # serve binds the port first (it says so when taken)
            sock.close()

    real = serving.uvicorn_config

    def config(app: object, settings: Any, **options: Any) -> uvicorn.Config:
        captured["settings"] = settings
        return real(app, settings, **options)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(cli, "_tune_gc", lambda: None)
    monkeypatch.setenv("ARABESQUE_DATA_DIR", str(data_dir))
    monkeypatch.setattr(serving, "uvicorn_config", config)
    return captured, seen
