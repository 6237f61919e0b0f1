"""``arabesque serve``: run the play server.

``add_serve_parser(subparsers)`` adds the command to the main parser and ``cmd_serve(args)``
runs it (the main command line wires both).
"""

from __future__ import annotations

import argparse
import errno
import gc
import socket
import sys
from typing import Any


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to an ``argparse`` subparsers object; returns its parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the play server (lobby over HTTP, games over websockets)",
        description="Run the play server. Tables and every move are kept in a database: "
        "SQLite in $ARABESQUE_DATA_DIR (by default your user data folder), or the "
        "PostgreSQL named by --database-url or $ARABESQUE_DATABASE_URL. A restarted server "
        "goes on with every table where it was.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument(
        "--database-url",
        metavar="URL",
        help="SQLAlchemy URL, e.g. postgresql://user@host/db (default: SQLite in the data "
        "folder, or $ARABESQUE_DATABASE_URL)",
    )
    p.add_argument(
        "--ws-compression",
        action="store_true",
        default=None,
        help="accept websocket compression (permessage-deflate) when a client offers it; "
        "off by default: it costs the server CPU on every frame and gains little on a LAN",
    )
    p.add_argument(
        "--behind-proxy",
        action="store_true",
        default=None,
        help="the players connect through a reverse proxy: do not bound the lamp race's "
        "round-trip credit by the kernel's TCP round trip (the kernel then sees only the "
        "proxy's hop); the credit is bounded by --max-race-rtt-ms alone (docs/deploy.md)",
    )
    p.add_argument(
        "--max-race-rtt-ms",
        type=float,
        metavar="MS",
        help="the largest round trip credited to a player in the lamp race (default 400)",
    )
    p.add_argument(
        "--race-rtt-slack-ms",
        type=float,
        metavar="MS",
        help="how far above the kernel's minimum TCP round trip the lamp race's credit may "
        "go (default 20): the most a client holding its pongs back can gain",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        metavar="SECONDS",
        help="close a connection whose request headers are not complete this long after "
        "it opened or began a request (default 10)",
    )
    p.add_argument(
        "--trusted-proxy",
        dest="trusted_proxies",
        action="append",
        metavar="ADDRESS",
        help="a reverse proxy (address or network, e.g. 10.0.0.0/8; '*' for any) whose "
        "X-Forwarded-For names the client, for the limits per address; repeat for several "
        "(default: none, the client is the socket's peer)",
    )
    p.add_argument(
        "--tables-per-minute",
        type=float,
        metavar="N",
        help="tables one address may create a minute, after a burst of 20 (default 10; "
        "0: no limit)",
    )
    p.add_argument(
        "--uploads-per-minute",
        type=float,
        metavar="N",
        help="records one address may upload to the replay viewer a minute, after a burst "
        "of 120 (default 120; 0: no limit)",
    )
    p.add_argument(
        "--max-spectators",
        type=int,
        metavar="N",
        help="spectators one table holds at once (default 150)",
    )
    p.add_argument(
        "--bot-workers",
        type=_count,
        metavar="N",
        help="worker processes where bots think, at low CPU priority, so a search bot never "
        "slows a table (default: the machine's cores - 1, at least 1; 0: none, every bot "
        "thinks in the server's threads)",
    )
    p.add_argument(
        "--bot-deadline",
        type=_seconds,
        metavar="SECONDS",
        help="a bot's longest think per move (default 5); a bot in the workers that misses "
        "it, or whose worker dies, has that move played by the game's heuristic bot",
    )
    p.add_argument(
        "--bot-inline",
        metavar="AGENTS",
        help="agents (comma-separated names) that think in the server's threads rather than "
        "the workers, being cheaper than sending the position (default random,heuristic; "
        "'' sends every bot to the workers)",
    )
    p.add_argument(
        "--max-search-bots",
        type=_count,
        metavar="N",
        help="search bots (any agent not in --bot-inline) that the open and running tables "
        "may seat together; the next is refused (default: no limit)",
    )
    p.add_argument(
        "--max-search-bots-per-table",
        type=_count,
        metavar="N",
        help="search bots one table may seat (default: no limit)",
    )
    p.add_argument(
        "--hints-per-minute",
        type=float,
        metavar="N",
        help="hints one address may ask for a minute (replay viewer, hint-allowed tables), "
        "after a burst of 10 (default 6; 0: no limit)",
    )
    p.add_argument(
        "--hint-level",
        type=_hint_level,
        metavar="LEVEL",
        help="the search bot whose best moves a hint shows (default hard; e.g. medium, "
        "or a spec such as ismcts:fm=2000+horizon=8)",
    )
    p.add_argument(
        "--hint-deadline",
        type=_seconds,
        metavar="SECONDS",
        help="a hint's longest think (default 30); past it the hint is refused (503)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (default info)",
    )
    p.set_defaults(handler=cmd_serve)
    return p


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number 0-65535, got {value}")
    return value


def cmd_serve(args: argparse.Namespace) -> int:
    from arabesque.server.app import create_app
    from arabesque.server.serving import AnnouncingServer, uvicorn_config
    from arabesque.server.settings import Settings

    behind_proxy = getattr(args, "behind_proxy", None)
    settings = Settings.from_env(
        host=args.host,
        port=args.port,
        database_url=args.database_url,
        ws_compression=getattr(args, "ws_compression", None),
        race_kernel_rtt=None if behind_proxy is None else not behind_proxy,
        race_max_rtt_ms=getattr(args, "max_race_rtt_ms", None),
        race_rtt_slack_ms=getattr(args, "race_rtt_slack_ms", None),
        header_timeout_s=getattr(args, "header_timeout", None),
        trusted_proxies=getattr(args, "trusted_proxies", None),
        tables_per_minute=getattr(args, "tables_per_minute", None),
        uploads_per_minute=getattr(args, "uploads_per_minute", None),
        max_spectators=getattr(args, "max_spectators", None),
        bot_workers=getattr(args, "bot_workers", None),
        bot_think_s=getattr(args, "bot_deadline", None),
        bot_inline_agents=_names(getattr(args, "bot_inline", None)),
        max_search_bots=getattr(args, "max_search_bots", None),
        max_search_bots_per_table=getattr(args, "max_search_bots_per_table", None),
        hints_per_minute=getattr(args, "hints_per_minute", None),
        hint_level=getattr(args, "hint_level", None),
        hint_think_s=getattr(args, "hint_deadline", None),
    )
    # The port first: a busy one is refused in one line before anything is said or opened
    # (uvicorn would find out only after the database is up, having let us print the
    # address of another program's server).
    sockets = listening_sockets(settings.host, settings.port)
    url = settings.resolved_database_url()
    shown = url if url.startswith("sqlite") else _hide_password(url)
    print(f"Database: {shown}", flush=True)
    app = create_app(settings)
    _tune_gc()
    port = sockets[0].getsockname()[1]  # the one the system chose for --port 0
    address = f"http://{_url_host(settings.host)}:{port}/"
    config = uvicorn_config(app, settings, log_level=args.log_level)
    AnnouncingServer(config, f"Arabesque play server: {address}").run(sockets=sockets)
    return 0


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address of ``host`` on ``port``, as asyncio's server would bind
    them (address reuse; an IPv6 socket for IPv6 only), for uvicorn to listen on. Raises
    ValueError, in words, when the port is taken or the host has no such address."""
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise ValueError(f"cannot listen on {host!r}: {exc.strerror}") from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            # Later ones on the same port as the first (--port 0: the port it was given).
            port = port or sock.getsockname()[1]
    except OSError as exc:
        for sock in sockets:
            sock.close()
        where = f"{_url_host(host)}:{port}"
        if exc.errno == errno.EADDRINUSE:
            raise ValueError(
                f"port {port} is in use on {host} (another server running?): stop it, or "
                f"choose another --port"
            ) from None
        raise ValueError(f"cannot listen on {where}: {exc.strerror or exc}") from None
    return sockets


#: The cyclic garbage collector's thresholds in the server process (CPython's are 700, 10,
#: 10). A server holding hundreds of games has a few hundred thousand objects (game states,
#: and each connection's ASGI stack), and with the default thresholds it paused for 0.1-0.3 s
#: every few seconds to go through them all, which made the round trip's p99. Young
#: collections far apart also leave fewer short-lived objects to be promoted, so full
#: collections are rarer still.
GC_THRESHOLDS = (50_000, 20, 20)


def _tune_gc() -> None:
    """Freeze what exists at start-up (modules, classes, the app: never garbage) so that
    full collections skip it, and space collections out (GC_THRESHOLDS)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def _hint_level(text: str) -> str:
    """A search level every game can give hints with, checked before the server starts."""
    from arabesque.agents.hint import level_search
    from arabesque.core.registry import game_ids

    for game_id in game_ids():
        try:
            level_search(text, game_id)
        except ValueError as exc:
            said = str(exc)
            where = "" if game_id in said else f" (for {game_id})"
            raise argparse.ArgumentTypeError(said + where) from None
    return text


def _names(text: str | None) -> tuple[str, ...] | None:
    """A comma-separated list of names (None: not given)."""
    if text is None:
        return None
    return tuple(name.strip() for name in text.split(",") if name.strip())


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::"):
        return "localhost"
    return f"[{host}]" if ":" in host else host


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def main(argv: list[str] | None = None) -> int:
    """Run ``serve`` on its own (``python -m arabesque.server``), e.g. from tests."""
    parser = argparse.ArgumentParser(prog="arabesque")
    sub = parser.add_subparsers(dest="command", required=True)
    add_serve_parser(sub)
    args = parser.parse_args(["serve", *(argv or [])])
    try:
        return cmd_serve(args)
    except ValueError as exc:  # what arabesque's main says of it (a busy port ...)
        print(f"arabesque serve: error: {exc}", file=sys.stderr)
        return 2
