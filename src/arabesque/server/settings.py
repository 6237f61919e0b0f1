"""Server settings: one pydantic object, built from the command line and the environment.

``Settings.from_env()`` reads ``ARABESQUE_DATABASE_URL`` and ``ARABESQUE_DATA_DIR``; explicit
arguments win over the environment. Everything the app needs is here, so tests and other
front ends (a load benchmark, a multi-process deployment) build an app with
``create_app(Settings(...))`` and no global state.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

DATABASE_URL_ENV = "ARABESQUE_DATABASE_URL"
#: The SQLite file inside the data folder when no database URL is given.
SQLITE_NAME = "server.sqlite3"


def default_data_dir() -> Path:
    """The folder ``arabesque play`` saves games under (``$ARABESQUE_DATA_DIR`` or the user
    data folder): the server keeps its database there too, through the same helper."""
    # Imported here: the terminal client's module pulls in Textual, which the server does
    # not otherwise need at import time.
    from arabesque.tui.play import data_dir

    return data_dir()


def normalize_database_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` for PostgreSQL and use psycopg 3, the
    driver this package depends on (SQLAlchemy's bare ``postgresql://`` means psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class Settings(BaseModel):
    """How one server runs. Times are in seconds, sizes in bytes."""

    model_config = ConfigDict(frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    #: SQLAlchemy URL; None: SQLite in ``data_dir``.
    database_url: str | None = None
    #: Where the default SQLite database lives; None: ``default_data_dir()``.
    data_dir: Path | None = None
    #: The largest websocket message the app reads and answers with an error; larger ones
    #: are answered ``too_large``. Frames past ``ws_hard_limit_bytes`` are refused by the
    #: websocket layer itself (close code 1009) before they are read whole.
    max_message_bytes: int = Field(16 * 1024, ge=256)
    ws_hard_limit_bytes: int = Field(1024 * 1024, ge=1024)
    #: Server pings (round-trip time measurement for the lamp race).
    ping_interval_s: float = Field(1.0, gt=0)
    #: A bot's longest think, per move (a table may ask for its own): past it a bot in the
    #: worker processes has its move played by the game's heuristic bot, one in the threads
    #: by the decision's default.
    bot_think_s: float = Field(5.0, gt=0)
    #: Threads that run the cheap bots (``bot_inline_agents``) and the fallback moves.
    bot_threads: int = Field(2, ge=1)
    #: Worker processes where the other bots think (server/botpool.py), so a search never
    #: holds the event loop's GIL. None: the machine's cores - 1, at least 1; 0: no
    #: workers, every bot thinks in the threads.
    bot_workers: int | None = Field(None, ge=0)
    #: Agents (by name, as in ``heuristic:median_ms=450``) that think in the bot threads
    #: even when there are workers: for these a decision costs less than sending the
    #: position to a worker. Empty: every bot goes to the workers.
    bot_inline_agents: tuple[str, ...] = ("random", "heuristic")
    #: How much the workers lower their CPU priority (``os.nice``), so that when the cores
    #: are short the event loop, not the bots, gets them.
    bot_worker_nice: int = Field(10, ge=0, le=19)
    #: Search bots (agents not in ``bot_inline_agents``: they take a worker's CPU for each
    #: move) one table may seat, and all the open and running tables of this process
    #: together; the next is refused (``409 too_many_bots``). None: no limit.
    max_search_bots_per_table: int | None = Field(None, ge=0)
    max_search_bots: int | None = Field(None, ge=0)
    #: Accept permessage-deflate (websocket compression) when a client offers it. Off by
    #: default: compressing every frame was the largest cost per action on the event loop
    #: (frames are a few KB; on a LAN or loopback they gain nothing from it).
    ws_compression: bool = False
    #: Messages queued for one connection before it is dropped as too slow.
    send_queue: int = Field(256, ge=8)
    #: An open or running table where no human has been connected for this long (and which
    #: is not a game of bots only) is abandoned and leaves the lobby's list.
    abandon_idle_s: float = Field(24 * 3600.0, gt=0)
    #: How often the idle tables are looked for (in the database, so also after a restart).
    idle_check_s: float = Field(60.0, gt=0)
    #: Several processes on one database (docs/fanout.md): how often each renews its row of
    #: who is connected through it (the ``presence`` table); a process silent for three
    #: times this is taken to have died, and its players to have gone when it last spoke.
    presence_beat_s: float = Field(10.0, gt=0)
    #: A connection that has not sent a complete request head this long after it opened (or
    #: after it began its next request) is answered 408 and closed (server/serving.py).
    header_timeout_s: float = Field(10.0, gt=0)
    #: The lamp race: bound each seat's credited round trip by the kernel's TCP round trip
    #: of its connection (minimum + ``race_rtt_slack_ms``), so holding pongs back gains at
    #: most the slack. Only right when the server holds the players' TCP connections itself:
    #: behind a reverse proxy the kernel sees the proxy's hop, so turn it off there
    #: (``--behind-proxy``) and rely on ``race_max_rtt_ms`` (docs/deploy.md).
    race_kernel_rtt: bool = True
    #: How far above the kernel's minimum round trip the credit may go (ms).
    race_rtt_slack_ms: float = Field(20.0, ge=0, le=1000)
    #: The largest round trip credited in the lamp race in any case (ms): what a client
    #: holding its pongs back can reach when the kernel's round trip is not used.
    race_max_rtt_ms: float = Field(400.0, ge=0, le=900)
    #: Run ``alembic upgrade head`` at startup.
    migrate: bool = True

    # -- limits a public server needs (README, "The play server") --------------------------
    #: Spectators one table holds at once (in this process); the next is refused.
    max_spectators: int = Field(150, ge=0)
    #: Tables one client address may create: a burst of ``table_burst``, then
    #: ``tables_per_minute`` (a token bucket); 0 per minute: no limit.
    tables_per_minute: float = Field(10.0, ge=0)
    table_burst: int = Field(20, ge=1)
    #: Records one client address may upload (``POST /api/replay``; the replay viewer sends
    #: the record again at each step it shows): ``upload_burst``, then ``uploads_per_minute``.
    uploads_per_minute: float = Field(120.0, ge=0)
    upload_burst: int = Field(120, ge=1)
    #: Hints (server/hints.py): asked for per client address, ``hint_burst`` at once then
    #: ``hints_per_minute`` (0: no limit); the search level that gives them, how many
    #: options a hint shows, the longest it may take (past it: ``503 hint_failed``), and
    #: how many hints are kept (per position).
    hints_per_minute: float = Field(6.0, ge=0)
    hint_burst: int = Field(10, ge=1)
    hint_level: str = "hard"
    hint_top: int = Field(3, ge=1, le=20)
    hint_think_s: float = Field(30.0, gt=0)
    hint_cache: int = Field(1024, ge=1)
    #: Proxies trusted to name the client in ``X-Forwarded-For`` (addresses or networks,
    #: e.g. ``("127.0.0.1", "10.0.0.0/8")``, or ``("*",)``); from anyone else the header is
    #: ignored and the client is the socket's peer address.
    trusted_proxies: tuple[str, ...] = ()
    #: The clocks a table may ask for: at least ``min_clock_s`` (per move and per game), at
    #: most ``max_move_clock_s`` per move and ``max_game_clock_s`` per game.
    min_clock_s: float = Field(1.0, ge=0)
    max_move_clock_s: float = Field(86400.0, gt=0)
    max_game_clock_s: float = Field(7 * 86400.0, gt=0)

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """Settings from the environment, with ``overrides`` (None values are ignored)."""
        values: dict[str, Any] = {}
        url = os.environ.get(DATABASE_URL_ENV)
        if url:
            values["database_url"] = url
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def resolved_bot_workers(self) -> int:
        """How many bot worker processes to run (0: none)."""
        if self.bot_workers is None:
            from arabesque.server.botpool import default_worker_count

            return default_worker_count()
        return self.bot_workers

    def resolved_data_dir(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()

    def resolved_database_url(self) -> str:
        if self.database_url:
            return normalize_database_url(self.database_url)
        return f"sqlite:///{self.resolved_data_dir() / SQLITE_NAME}"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url().startswith("sqlite")
