"""The play server's ASGI app: the HTTP lobby and the websocket protocol (docs/protocol.md).

``create_app(settings)`` builds an independent app (its own hub, store and pools), so tests
and tools start as many as they like. The OpenAPI document is at ``/openapi.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path, Query, Request, Response, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from arabesque import __version__
from arabesque.agents.registry import agent_descriptions, agent_names
from arabesque.bench import default_players
from arabesque.core.game import GameState, Params
from arabesque.core.limits import quote
from arabesque.core.records import MAX_RECORD_BYTES, GameRecord
from arabesque.core.registry import game_ids, get_game
from arabesque.server import db
from arabesque.server.clocks import now_ms
from arabesque.server.connection import Connection
from arabesque.server.errors import LobbyError
from arabesque.server.hints import Hints
from arabesque.server.hub import Hub
from arabesque.server.protocol import (
    AbandonRequest,
    ActionMsg,
    ApiError,
    CreateTableRequest,
    CreateTableResponse,
    ErrorCode,
    ErrorMsg,
    FillRequest,
    GameInfo,
    HelloMsg,
    HintInfo,
    JoinRequest,
    JoinResponse,
    OptionInfo,
    PongMsg,
    ReactMsg,
    SeatBotMsg,
    SeatBotRequest,
    SyncMsg,
    TableInfo,
    TableStatus,
    parse_client_message,
)
from arabesque.server.race import LatencyEstimate
from arabesque.server.ratelimit import RateLimit, limited
from arabesque.server.replays import (
    ReplayFrame,
    RulesPage,
    parse_record,
    replay_frame,
    replay_state,
    rules_page,
)
from arabesque.server.serving import tcp_socket
from arabesque.server.settings import Settings
from arabesque.server.table import TableRuntime
from arabesque.server.words import seat_name

log = logging.getLogger("arabesque.server")

log = logging.getLogger("arabesque.server")

#: Pings a connection may leave unanswered before the oldest is forgotten.
MAX_OPEN_PINGS = 8
#: Wrong tokens in a row before a connection is closed.
MAX_BAD_HELLOS = 3
#: Close codes (4000-4999 are the application's own).
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4003
CLOSE_SPECTATORS_FULL = 4029

_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ApiError, "description": "the host token is missing or wrong"},
    404: {"model": ApiError, "description": "no such table, seat or game"},
    409: {"model": ApiError, "description": "the table is not in a state that allows this"},
}

#: The OpenAPI request body of the routes that take an uploaded record (its JSON is read
#: by hand, to give a record's own errors rather than a schema's).
_RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": {"type": "object"}}},
        "description": "a game record (docs/records.md)",
    }
}
_RATE_LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"model": ApiError, "description": "too many from this address; see Retry-After"},
}
#: The app's rate limits (``app.state.limits``, server/ratelimit.py).
TABLES_LIMIT = "tables"
UPLOADS_LIMIT = "uploads"
HINTS_LIMIT = "hints"

TableId = Annotated[str, Path(max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]

#: The browser client's files (docs/web.md), served at ``/static``.
WEB_DIR = FilePath(__file__).parent / "web"


class _Socket:
    """The runtime's view of a Starlette websocket."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket

    async def send_text(self, data: str) -> None:
        await self.websocket.send_text(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.websocket.close(code, reason)


def game_options(params_type: type[Params]) -> list[OptionInfo]:
    """The options of a game's params a lobby offers: every field but the player count,
    the data file (the server plays built-in data only) and the safety caps; each in the
    game's words (``Params.WORDS``)."""
    hidden = {"num_players", params_type.DATA_PARAM, *params_type.SAFETY_CAPS}
    options = []
    for field in dataclasses.fields(params_type):
        if field.name in hidden:
            continue
        default: Any = field.default
        words = params_type.WORDS.get(field.name)
        said: dict[str, Any] = {
            "name": field.name,
            "default": default,
            "label": words.label if words else field.name.replace("_", " ").capitalize(),
            "help": words.help if words else "",
        }
        choices = params_type.CHOICES.get(field.name)
        if choices is not None:
            named = words.choices if words else {}
            labels = [named.get(c, str(c)) for c in choices] if named else None
            options.append(
                OptionInfo(kind="choice", choices=list(choices), choice_labels=labels, **said)
            )
        elif isinstance(default, bool):
            options.append(OptionInfo(kind="bool", **said))
        elif isinstance(default, int):
            options.append(OptionInfo(kind="int", **said))
    return options


async def _read_limited(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes without reading it all.

    A client that goes away mid-body (an upload cancelled) is logged in one line, and the
    request ends there (400, which nobody reads)."""
    chunks = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise LobbyError(413, "too_large", f"the body is over {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        log.info(
            "%s %s: the client went away after %d bytes of the body",
            request.method,
            request.url.path,
            size,
        )
        raise LobbyError(400, "aborted", "the body was cut off") from None
    return b"".join(chunks)


def _clashing_key(body: bytes) -> str | None:
    """The first key of an object in the JSON ``body`` given twice with different values
    (None: none; a body that is not JSON has been refused before this is asked)."""
    clash: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in items:
            if key in seen and seen[key] != value and not clash:
                clash.append(key)
            seen[key] = value
        return seen

    try:
        json.loads(body, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None
    return clash[0] if clash else None


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(_hub)]
_bearer = HTTPBearer(auto_error=False, description="the host token from table creation")
HostToken = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server app; ``settings`` default to ``Settings.from_env()``."""
    settings = settings if settings is not None else Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.startup()
        app.state.hub = hub
        app.state.hints = Hints(hub)
        try:
            yield
        finally:
            await hub.shutdown()

    app = FastAPI(
        title="Arabesque play server",
        version=__version__,
        description="Lobby of the Arabesque play server. Games are played over the websocket "
        "/ws/tables/{table_id}; its protocol is in docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.limits = {
        TABLES_LIMIT: RateLimit(settings.tables_per_minute, settings.table_burst),
        UPLOADS_LIMIT: RateLimit(settings.uploads_per_minute, settings.upload_burst),
        HINTS_LIMIT: RateLimit(settings.hints_per_minute, settings.hint_burst),
    }
    if settings.trusted_proxies:
        # The client's address from X-Forwarded-For, only when a trusted proxy sent it
        # (uvicorn itself runs with proxy_headers=False: cli.py).
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))

    @app.exception_handler(LobbyError)
    async def _lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        body = ApiError(code=exc.code, message=exc.message)
        return JSONResponse(body.model_dump(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid_body(_request: Request, exc: RequestValidationError) -> Response:
        # FastAPI's own answer echoes the input, and a stranger's input may be text that
        # cannot be encoded (a lone surrogate such as "\udfff" is valid JSON but no
        # character), which turned a 422 into a 500. Say where and what, never echo, and
        # write ASCII so any key named in a location still encodes.
        detail = [
            {"loc": list(err.get("loc", ())), "msg": err.get("msg", ""), "type": err.get("type")}
            for err in exc.errors()
        ]
        return Response(
            json.dumps({"detail": detail}, ensure_ascii=True, default=str),
            status_code=422,
            media_type="application/json",
        )

    @app.exception_handler(StarletteHTTPException)
    async def _not_found(request: Request, exc: StarletteHTTPException) -> Response:
        # A browser that asks for an address with no page gets the page's shell, which says
        # so in words (app.js), with a 404; the API and tools keep the JSON answer.
        if exc.status_code == 404 and _wants_page(request):
            return page(404)
        return await http_exception_handler(request, exc)

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    def page(status: int = 200) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", status_code=status, media_type="text/html")

    # Every page of the browser client is the same shell; app.js picks the page.
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page()

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: TableId) -> FileResponse:
        return page()

    @app.get("/tables/{table_id}/replay", include_in_schema=False)
    async def table_replay_page(table_id: TableId) -> FileResponse:
        return page()

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return page()

    @app.get("/rules/{game}", include_in_schema=False)
    async def game_rules_page(game: Annotated[str, Path(max_length=64)]) -> FileResponse:
        # No such game: the page says so (pages/rules.js), answered as not found.
        return page(200 if game in game_ids() else 404)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/api/games", response_model=list[GameInfo])
    async def games() -> list[GameInfo]:
        rows = []
        for game_id in game_ids():
            spec = get_game(game_id)
            rows.append(
                GameInfo(
                    id=spec.id,
                    name=spec.name,
                    min_players=spec.min_players,
                    max_players=spec.max_players,
                    default_players=default_players(spec),
                    real_time=spec.real_time,
                    agents=agent_names(spec.id),
                    agent_descriptions=agent_descriptions(spec.id),
                    options=game_options(spec.params_type),
                    description=spec.description,
                    length=spec.length,
                )
            )
        return rows

    @app.post(
        "/api/tables",
        response_model=CreateTableResponse,
        status_code=201,
        responses={**_ERRORS, **_RATE_LIMITED},
        dependencies=[Depends(limited(TABLES_LIMIT, "tables created"))],
    )
    async def create_table(
        body: CreateTableRequest, hub: HubDep, request: Request
    ) -> CreateTableResponse:
        # JSON lets a key repeat and keeps the last: an option given twice differently
        # must be refused, not decided by its order (the body is read already: cached).
        clash = _clashing_key(await request.body())
        if clash is not None:
            raise LobbyError(
                422, "bad_params", f"{quote(clash)} is given twice with different values"
            )
        table, host_token = await hub.create(body)
        return CreateTableResponse(table=table.info(), host_token=host_token)

    @app.get("/api/tables", response_model=list[TableInfo])
    async def list_tables(
        hub: HubDep,
        status: Annotated[list[TableStatus] | None, Query()] = None,
    ) -> list[TableInfo]:
        # Without a status: the lobby's list, whose running tables are those being played.
        wanted = [str(s) for s in status] if status else [db.OPEN, db.RUNNING]
        return await hub.list(wanted, lobby=not status)

    @app.get("/api/tables/{table_id}", response_model=TableInfo, responses=_ERRORS)
    async def get_table(table_id: TableId, hub: HubDep) -> TableInfo:
        return (await hub.get(table_id)).info()

    @app.post("/api/tables/{table_id}/join", response_model=JoinResponse, responses=_ERRORS)
    async def join(table_id: TableId, body: JoinRequest, hub: HubDep) -> JoinResponse:
        table = await hub.get(table_id)
        seat, token = await table.join(body.seat, body.name)
        return JoinResponse(
            table_id=table.id, seat=seat, token=token, websocket=f"/ws/tables/{table.id}"
        )

    async def _host_table(hub: Hub, table_id: str, credentials: HostToken) -> TableRuntime:
        table = await hub.get(table_id)
        hub.check_host(table, None if credentials is None else credentials.credentials)
        return table

    @app.post("/api/tables/{table_id}/fill", response_model=TableInfo, responses=_ERRORS)
    async def fill(
        table_id: TableId, body: FillRequest, hub: HubDep, credentials: HostToken
    ) -> TableInfo:
        table = await _host_table(hub, table_id, credentials)
        try:
            await table.fill(body.agent)
        except ValueError as exc:
            raise LobbyError(422, "bad_agent", str(exc)) from None
        return table.info()

    @app.post("/api/tables/{table_id}/start", response_model=TableInfo, responses=_ERRORS)
    async def start(table_id: TableId, hub: HubDep, credentials: HostToken) -> TableInfo:
        table = await _host_table(hub, table_id, credentials)
        await table.start()
        return table.info()

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/bot", response_model=TableInfo, responses=_ERRORS
    )
    async def seat_bot(
        table_id: TableId,
        seat: Annotated[int, Path(ge=0, lt=64)],
        body: SeatBotRequest,
        hub: HubDep,
        credentials: HostToken,
    ) -> TableInfo:
        """Let a bot play for a seat whose player has been away past the table's
        ``away_s``: the host token, or the token of another seated player."""
        table = await hub.get(table_id)
        token = None if credentials is None else credentials.credentials
        by = _seated_or_host(hub, table, token)
        await table.seat_bot(seat, body.agent, by)
        return table.info()

    @app.post("/api/tables/{table_id}/abandon", response_model=TableInfo, responses=_ERRORS)
    async def abandon(
        table_id: TableId, body: AbandonRequest, hub: HubDep, credentials: HostToken
    ) -> TableInfo:
        """End a game that cannot go on (the host): status ``abandoned``, no winner, the
        setup revealed; the partial record downloads and verifies."""
        table = await _host_table(hub, table_id, credentials)
        await table.abandon(body.reason.strip() or "ended by the host")
        return table.info()

    @app.get(
        "/api/tables/{table_id}/record",
        response_model=dict[str, Any],
        responses=_ERRORS,
        summary="The game record (arabesque-record/1), once the game is over",
    )
    async def record(table_id: TableId, hub: HubDep) -> dict[str, Any]:
        table = await hub.get(table_id)
        data: dict[str, Any] = table.record().to_json()
        return data

    @app.get("/api/games/{game}/rules", response_model=RulesPage, responses=_ERRORS)
    async def rules(game: Annotated[str, Path(max_length=64)]) -> RulesPage:
        """The game's rules in our own words and our rulings, as HTML."""
        if game not in game_ids():
            raise LobbyError(404, "no_game", f"no game {game!r}; games: {', '.join(game_ids())}")
        return rules_page(get_game(game))

    @app.get("/api/tables/{table_id}/replay", response_model=ReplayFrame, responses=_ERRORS)
    async def table_replay(
        table_id: TableId,
        hub: HubDep,
        step: Annotated[int, Query(ge=0, lt=2**31)] = 0,
        seat: Annotated[int | None, Query(ge=0, lt=64)] = None,
    ) -> ReplayFrame:
        """A finished table's game after ``step``, as a spectator or ``seat`` saw it."""
        table = await hub.get(table_id)
        record = table.record()
        return await asyncio.to_thread(replay_frame, record, step, seat, table.data.seats)

    @app.post(
        "/api/replay",
        response_model=ReplayFrame,
        responses={
            **_ERRORS,
            400: {"model": ApiError, "description": "not a record, or one that does not replay"},
            413: {"model": ApiError, "description": "over 4 MiB"},
            **_RATE_LIMITED,
        },
        dependencies=[Depends(limited(UPLOADS_LIMIT, "records uploaded"))],
        openapi_extra=_RECORD_BODY,
    )
    async def record_replay(
        request: Request,
        step: Annotated[int, Query(ge=0, lt=2**31)] = 0,
        seat: Annotated[int | None, Query(ge=0, lt=64)] = None,
    ) -> ReplayFrame:
        """The game of an uploaded record after ``step``."""
        body = await _read_limited(request, MAX_RECORD_BYTES)
        record = parse_record(body)
        return await asyncio.to_thread(replay_frame, record, step, seat)

    hint_limit = Depends(limited(HINTS_LIMIT, "hints asked for"))
    hint_errors: dict[int | str, dict[str, Any]] = {
        **_ERRORS,
        **_RATE_LIMITED,
        503: {"model": ApiError, "description": "the hint took too long; try again"},
    }

    @app.get(
        "/api/tables/{table_id}/hint",
        response_model=HintInfo,
        responses=hint_errors,
        dependencies=[hint_limit],
    )
    async def table_hint(
        table_id: TableId, hub: HubDep, request: Request, credentials: HostToken
    ) -> HintInfo:
        """A hint for your own move (``Authorization: Bearer`` your seat token), at a table
        created with ``hints``."""
        table = await hub.get(table_id)
        if not table.hints:
            raise LobbyError(
                409, "hints_off", "this table was created without hints (the host chooses "
                "when creating it)"
            )
        seat = None if credentials is None else table.seat_for_token(credentials.credentials)
        if seat is None:
            raise LobbyError(
                403, "not_seated", "a hint is only for your own seat: send your seat token"
            )
        state = table.state
        if state is None or table.ended:
            raise LobbyError(409, "not_running", "the game is not being played")
        hints: Hints = request.app.state.hints
        seed, seen = hints.position(state, seat)
        return _hint_info(await hints.hint(state, seat, seed, seen))

    @app.get(
        "/api/tables/{table_id}/replay/hint",
        response_model=HintInfo,
        responses=hint_errors,
        dependencies=[hint_limit],
    )
    async def table_replay_hint(
        table_id: TableId,
        hub: HubDep,
        request: Request,
        seat: Annotated[int, Query(ge=0, lt=64)],
        step: Annotated[int, Query(ge=0, lt=2**31)] = 0,
    ) -> HintInfo:
        """A hint for ``seat`` after ``step`` of a finished table's game."""
        table = await hub.get(table_id)
        return await _replay_hint(request, table.record(), step, seat)

    @app.post(
        "/api/replay/hint",
        response_model=HintInfo,
        responses={
            **hint_errors,
            400: {"model": ApiError, "description": "not a record, or one that does not replay"},
            413: {"model": ApiError, "description": "over 4 MiB"},
        },
        dependencies=[Depends(limited(UPLOADS_LIMIT, "records uploaded")), hint_limit],
        openapi_extra=_RECORD_BODY,
    )
    async def record_hint(
        request: Request,
        seat: Annotated[int, Query(ge=0, lt=64)],
        step: Annotated[int, Query(ge=0, lt=2**31)] = 0,
    ) -> HintInfo:
        """A hint for ``seat`` after ``step`` of an uploaded record's game."""
        body = await _read_limited(request, MAX_RECORD_BYTES)
        return await _replay_hint(request, parse_record(body), step, seat)

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await _serve_socket(websocket, table_id, websocket.app.state.hub, settings)

    return app


async def _replay_hint(request: Request, record: GameRecord, step: int, seat: int) -> HintInfo:
    """The hint for ``seat`` after ``step`` of ``record`` (replayed in a thread)."""
    hints: Hints = request.app.state.hints

    def position() -> tuple[GameState, int, GameState]:
        state = replay_state(record, step, seat)
        return state, *hints.position(state, seat)

    state, seed, seen = await asyncio.to_thread(position)
    return _hint_info(await hints.hint(state, seat, seed, seen))


def _hint_info(found: Any) -> HintInfo:
    return HintInfo.model_validate(found.to_json())


def _wants_page(request: Request) -> bool:
    """A browser asking for a page: not the API, the websocket or a file, and HTML accepted."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/", "/static/")) or path in ("/openapi.json", "/healthz"):
        return False
    return "text/html" in request.headers.get("accept", "")


def _seated_or_host(hub: Hub, table: TableRuntime, token: str | None) -> str:
    """Who asks, in words ("the host", or the seat's name), if they may hand a seat over."""
    if token is not None:
        seat = table.seat_for_token(token)
        if seat is not None:
            return seat_name(table.seat_data(seat))
        with contextlib.suppress(LobbyError):
            hub.check_host(table, token)
            return "the host"
    raise LobbyError(
        403, "not_host", "only the host or a seated player may let a bot play for a seat"
    )


async def _serve_socket(websocket: WebSocket, table_id: str, hub: Hub, settings: Settings) -> None:
    await websocket.accept()
    latency = LatencyEstimate(settings.race_max_rtt_ms, settings.race_rtt_slack_ms)
    sock = tcp_socket(websocket.scope) if settings.race_kernel_rtt else None
    if sock is not None and not _PROXIED.isdisjoint(websocket.headers.keys()):
        _warn_proxied()
    conn = Connection(_Socket(websocket), settings.send_queue, latency, sock)
    conn.start()
    try:
        table = await hub.get(table_id[:40])
    except LobbyError as exc:
        conn.error(ErrorCode.BAD_MESSAGE, exc.message)
        conn.close_soon(CLOSE_NO_TABLE, "no such table")
        await _drain(websocket)
        await conn.stop()
        return
    # Frames are read and stamped by their own task, so a press is timed when it arrives,
    # not when the previous message has been dealt with; pongs are handled right there.
    inbox: asyncio.Queue[tuple[float, str | bytes] | None] = asyncio.Queue()
    reader = asyncio.create_task(_read(websocket, conn, inbox, settings))
    pinger = asyncio.create_task(_ping(conn, settings))
    bad_hellos = 0
    try:
        while True:
            # Let the writer send what the previous message produced before taking the next:
            # a burst already in the inbox is otherwise answered without a pause, and the
            # outgoing queue fills (dropping as "too slow" a client that reads every answer).
            await asyncio.sleep(0)
            item = await inbox.get()
            if item is None:
                break
            received, raw = item
            message = parse_client_message(raw)
            if isinstance(message, ErrorMsg):
                conn.send(message.model_dump(mode="json"))
            elif isinstance(message, HelloMsg):
                if conn.hello:
                    conn.error(ErrorCode.BAD_MESSAGE, "hello was already said on this connection")
                    continue
                seat = None
                if message.token is not None:
                    seat = table.seat_for_token(message.token)
                    if seat is None and hub.fanout.shared:
                        # Perhaps joined through another server process a moment ago,
                        # before its news arrived: read the seats again (docs/fanout.md).
                        await table.catch_up(None)
                        seat = table.seat_for_token(message.token)
                    if seat is None:
                        bad_hellos += 1
                        conn.error(ErrorCode.BAD_TOKEN, "that token holds no seat at this table")
                        if bad_hellos >= MAX_BAD_HELLOS:
                            conn.close_soon(CLOSE_BAD_TOKEN, "wrong tokens")
                        continue
                conn.words = message.words
                if not await table.connect(conn, seat, message.log_from):
                    limit = settings.max_spectators
                    conn.error(
                        ErrorCode.SPECTATORS_FULL,
                        f"this table already has {limit} spectators, the server's limit; "
                        "try again later",
                    )
                    conn.close_soon(CLOSE_SPECTATORS_FULL, "too many spectators")
            elif not conn.hello:
                conn.error(
                    ErrorCode.HELLO_FIRST,
                    "say hello first (with a seat token, or none)",
                    ref=getattr(message, "ref", None),
                )
            elif isinstance(message, SyncMsg):
                await table.resync(conn)
            elif isinstance(message, SeatBotMsg):
                error = await _seat_bot_message(table, conn, message)
                if error is not None:
                    conn.send(error.model_dump(mode="json"))
            elif isinstance(message, ActionMsg | ReactMsg):
                error = await _play_message(table, conn, message, received)
                if error is not None:
                    conn.send(error.model_dump(mode="json"))
            # PongMsg is handled by the reader.
    finally:
        reader.cancel()
        pinger.cancel()
        for task in (reader, pinger):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if conn.hello:
            await table.disconnect(conn)
        await conn.stop()


async def _seat_bot_message(
    table: TableRuntime, conn: Connection, message: SeatBotMsg
) -> ErrorMsg | None:
    """A seated player lets a bot play for an away seat (away.py); answered with an ``ack``."""
    if conn.seat is None:
        return ErrorMsg(
            code=ErrorCode.SPECTATOR,
            message="only the host or a seated player may let a bot play for a seat",
            ref=message.ref,
        )
    try:
        await table.seat_bot(message.seat, message.agent, seat_name(table.seat_data(conn.seat)))
    except LobbyError as exc:
        code = {
            "not_away": ErrorCode.NOT_AWAY,
            "not_running": ErrorCode.NOT_STARTED,
        }.get(exc.code, ErrorCode.BAD_MESSAGE)
        if table.data.status in (db.FINISHED, db.ABANDONED):
            code = ErrorCode.GAME_OVER
        return ErrorMsg(code=code, message=exc.message, ref=message.ref)
    # The version this seat last saw change, not the game's: nothing about secret moves.
    conn.send({"type": "ack", "ref": message.ref, "version": table.changed_at[conn.seat]})
    return None


#: Headers a reverse proxy adds: seen with the kernel bound on, the server is probably
#: behind one, where the kernel's round trip is the proxy's hop (docs/deploy.md).
_PROXIED = frozenset({"x-forwarded-for", "forwarded", "x-real-ip"})
_warned_proxied: list[bool] = []


def _warn_proxied() -> None:
    if not _warned_proxied:
        _warned_proxied.append(True)
        log.warning(
            "a websocket came through a reverse proxy (forwarding headers), but the lamp "
            "race bounds round trips by the kernel's, which sees only the proxy's hop: "
            "every player would lose its latency credit; run with --behind-proxy "
            "(docs/deploy.md)"
        )


async def _play_message(
    table: TableRuntime, conn: Connection, message: ActionMsg | ReactMsg, received: float
) -> ErrorMsg | None:
    seat = conn.seat
    if seat is None:
        return ErrorMsg(
            code=ErrorCode.SPECTATOR, message="a spectator cannot play", ref=message.ref
        )
    if isinstance(message, ReactMsg):
        return await table.react(conn, message.version, received, message.ref)
    if message.seat is not None and message.seat != seat:
        return ErrorMsg(
            code=ErrorCode.WRONG_SEAT,
            message=f"this connection holds seat {seat}, not seat {message.seat}",
            ref=message.ref,
        )
    return await table.act(
        seat, message.version, action=message.action, text=message.text, conn=conn, ref=message.ref
    )


async def _read(
    websocket: WebSocket,
    conn: Connection,
    inbox: asyncio.Queue[tuple[float, str | bytes] | None],
    settings: Settings,
) -> None:
    limit = settings.max_message_bytes
    try:
        while True:
            frame = await websocket.receive()
            received = now_ms()
            if frame["type"] == "websocket.disconnect":
                break
            raw: str | bytes | None = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
            if size > limit:
                conn.error(
                    ErrorCode.TOO_LARGE,
                    f"a message is at most {limit} bytes; this one has {size}",
                )
                # As in the handler's loop: let the writer send it before the next frame
                # (only after an error, so good frames are stamped without delay).
                await asyncio.sleep(0)
                continue
            if _is_pong(raw):
                pong = parse_client_message(raw)
                if isinstance(pong, PongMsg):
                    if pong.nonce not in conn.pings:
                        conn.error(ErrorCode.BAD_MESSAGE, "pong for no ping of this connection")
                        await asyncio.sleep(0)
                        continue
                    sent = conn.pings.pop(pong.nonce)
                    if sent is not None:
                        conn.pong(max(0.0, received - sent))
                    continue
            await inbox.put((received, raw))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await inbox.put(None)


def _is_pong(raw: str | bytes) -> bool:
    # A cheap test before parsing: pongs are the most frequent message.
    return (b'"pong"' if isinstance(raw, bytes) else '"pong"') in raw  # type: ignore[operator]


async def _ping(conn: Connection, settings: Settings) -> None:
    """Measure the round trip continuously: a ping with a fresh nonce every interval, timed
    from when it is written to when its pong is read."""
    while not conn.closed:
        nonce = secrets.token_hex(8)
        # Known from now (a pong can never be "for no ping"), timed from the write.
        conn.pings[nonce] = None
        while len(conn.pings) > MAX_OPEN_PINGS:
            conn.pings.pop(next(iter(conn.pings)))

        def sent(at: float, nonce: str = nonce) -> None:
            if nonce in conn.pings:
                conn.pings[nonce] = at

        conn.send({"type": "ping", "nonce": nonce}, sent)
        await asyncio.sleep(settings.ping_interval_s)


async def _drain(websocket: WebSocket) -> None:
    """Wait (briefly) for the client to go after we closed."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(2):
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
