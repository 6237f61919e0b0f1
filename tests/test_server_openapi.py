"""Property-based tests of the HTTP lobby from its own OpenAPI document (schemathesis).

A real server (uvicorn on a free loopback port, a temporary SQLite database) serves
``/openapi.json``; schemathesis generates requests for every operation from it, valid ones
and invalid ones, and checks each answer: no 5xx, the status code is documented, the body
and headers conform to the documented schema, and a request the document calls invalid is
refused with a 4xx.

Random table ids and host tokens almost never name a real table, so most valid-looking
requests would end at "no such table". So each valid request (not the invalid ones, whose
invalid part may be the id) is aimed, by a choice derived from its own data, at the
generated id, a fresh open table, a full table not started, a running game or a finished
one, with or without that table's real host token, and table creation at a real game half
the time: joins, fills, starts and records are exercised on real tables in every status.

Checks left out, and why:
- ``positive_data_acceptance`` (every schema-valid request gets a 2xx): the document cannot
  say which options each game takes, which agent specs exist, how many players a game
  allows, so valid-by-schema requests are rightly refused with 404/409/422;
- ``allow_header_conformance`` and ``unsupported_method``: Starlette answers a method no
  route has with a 405 whose ``Allow`` lists only the methods of the first route matching the
  path (``GET /api/tables`` and ``POST /api/tables`` are two routes), a framework limit.

One exception is made to "the status code is documented": FastAPI answers a body it cannot
decode at all (e.g. JSON nested deeper than the decoder's recursion limit) with 400 ``{"detail":
"There was an error parsing the body"}``, which the document does not list. It is accepted as
such and nothing else is.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import schemathesis
from schemathesis.checks import (
    allow_header_conformance,
    positive_data_acceptance,
    status_code_conformance,
    unsupported_method,
)

from arabesque.core.registry import game_ids
from arabesque.server.settings import Settings
from tests.server_client import ServerThread

#: FastAPI's own answer to a body it cannot decode (see the module docstring).
UNDECODABLE_BODY = {"detail": "There was an error parsing the body"}
EXCLUDED = [allow_header_conformance, unsupported_method, positive_data_acceptance]


@dataclass
class Lobby:
    """The server under test and tables in each status to aim requests at."""

    server: ServerThread
    http: httpx.Client
    #: status -> (table id, host token)
    tables: dict[str, tuple[str, str]]

    def fresh(self, full: bool) -> tuple[str, str]:
        """A new open table: seats free, or every seat a bot (ready to start)."""
        body: dict[str, Any] = {"game": "magic-lamp", "players": 2,
                                "clock": {"per_move_s": None}}
        if full:
            body["seats"] = [{"kind": "bot", "agent": "random"}] * 2
        created = self.http.post("/api/tables", json=body).raise_for_status().json()
        return created["table"]["id"], created["host_token"]


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lobby]:
    # The fuzzer creates tables by the hundred from one address: no rate limits.
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("openapi"), tables_per_minute=0, uploads_per_minute=0
    )
    with ServerThread(settings) as server:
        http = httpx.Client(base_url=server.url, timeout=30)
        lobby = Lobby(server, http, {})
        # A running game of two humans and no clock: it stays running, nobody moves.
        running, host = lobby.fresh(full=False)
        for seat in range(2):
            http.post(f"/api/tables/{running}/join", json={"seat": seat}).raise_for_status()
        http.post(f"/api/tables/{running}/start",
                  headers={"Authorization": f"Bearer {host}"}).raise_for_status()
        lobby.tables["running"] = (running, host)
        # A finished game: bots only, one turn, started by itself.
        created = http.post("/api/tables", json={
            "game": "magic-lamp", "players": 2, "options": {"max_turns": 1},
            "seats": [{"kind": "bot", "agent": "random"}] * 2, "auto_start": True,
        }).raise_for_status().json()
        finished = created["table"]["id"]
        lobby.tables["finished"] = (finished, created["host_token"])
        for _ in range(600):
            if http.get(f"/api/tables/{finished}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        assert http.get(f"/api/tables/{finished}").json()["status"] == "finished"
        try:
            yield lobby
        finally:
            http.close()


@pytest.fixture(scope="module")
def lobby_schema(lobby: Lobby) -> Any:
    return schemathesis.openapi.from_url(f"{lobby.server.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("lobby_schema")


def _pick(case: Any, salt: str, options: list[Any]) -> Any:
    """One of ``options``, chosen by the case's own data: the same case is always aimed the
    same way, so a failure reproduces (``@schema.given`` cannot be combined with the
    document's examples, which rules out drawing the choice with hypothesis)."""
    text = f"{salt}|{case.method}|{case.path_parameters}|{case.query}|{case.body!r}"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    return options[int.from_bytes(digest[:4], "big") % len(options)]


def _aim(case: Any, lobby: Lobby) -> None:
    """Aim a valid request at a real table (and, for table creation, a real game)."""
    if case.path_parameters and "table_id" in case.path_parameters:
        target = _pick(case, "table", ["generated", "open", "full", "running", "finished"])
        if target != "generated":
            if target in ("open", "full"):
                table_id, host = lobby.fresh(full=target == "full")
            else:
                table_id, host = lobby.tables[target]
            if _pick(case, "token", [True, False]):
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {host}"}
            case.path_parameters["table_id"] = table_id
    if (
        case.method.upper() == "POST"
        and case.path == "/api/tables"
        and isinstance(case.body, dict)
        and _pick(case, "real game", [True, False])
    ):
        case.body["game"] = _pick(case, "game", game_ids())


@schema.parametrize()
def test_lobby_conforms_to_its_openapi_document(case: Any, lobby: Lobby) -> None:
    meta = case.meta
    if meta is not None and meta.generation.mode.is_positive:
        _aim(case, lobby)
    response = case.call()
    excluded = list(EXCLUDED)
    if response.status_code == 400 and "detail" in response.json():
        # FastAPI's own answer to a body it cannot decode (the module's docstring); a
        # documented 400 (a replayed record that is not one) is checked like any answer.
        assert response.json() == UNDECODABLE_BODY, response.text
        excluded.append(status_code_conformance)
    case.validate_response(response, excluded_checks=excluded)


def test_openapi_document_lists_the_lobby(lobby: Lobby) -> None:
    """The document the property test is generated from covers the whole lobby (a route
    missing from it would silently escape the test)."""
    document = lobby.http.get("/openapi.json").json()
    operations = {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
    }
    assert operations >= {
        "GET /healthz", "GET /api/games", "GET /api/tables", "POST /api/tables",
        "GET /api/tables/{table_id}", "POST /api/tables/{table_id}/join",
        "POST /api/tables/{table_id}/fill", "POST /api/tables/{table_id}/start",
        "GET /api/tables/{table_id}/record",
    }
