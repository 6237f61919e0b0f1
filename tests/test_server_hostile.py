"""Hostile input against a live play server, over real sockets.

The main test fires 10,000 malformed or hostile websocket messages, mixed by a seeded
generator, at every kind of connection a table has (the seat to act, a seat waiting, a
spectator, a seat of a finished game, a seat of a table not started, connections that have
not said hello). Each message must get the error the protocol gives for what is wrong with it
(its code, a message naming the culprit, its ``ref`` echoed when it had a valid one), no
message may change anything (every table's state, stored actions and views are compared
before and after), the server must log no error, and a valid move must still work afterwards.

Smaller tests cover what cannot be mixed into that stream (a connection closed after three
wrong tokens, a frame past the hard limit, a socket for no table) and the HTTP lobby's
refusals. The last section holds regression tests for server bugs these tests found.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import string
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as sync_connect

from arabesque.server.settings import Settings
from tests.server_client import GameClient, Lobby, ServerThread, pg_schema, play_randomly

SEED = 20261123
TOTAL = 10_000
#: Messages sent at once before waiting for their answers (and checking them). Bursts of a
#: thousand are test_a_burst_from_a_reading_client_is_answered_in_full's.
BATCH = 200
MAX_MESSAGE = Settings().max_message_bytes
DATABASE_URL = os.environ.get("ARABESQUE_TEST_DATABASE_URL", "")


# -- the server, with its warnings and errors collected -------------------------------------


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records]


@contextlib.contextmanager
def _serving(settings: Settings) -> Iterator[tuple[ServerThread, _Collect]]:
    server = ServerThread(settings)
    # After the server object exists: uvicorn sets its loggers up when its config is built.
    handler = _Collect()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "arabesque.server")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        with server:
            yield server, handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServerThread, _Collect]]:
    with _serving(Settings(data_dir=tmp_path)) as pair:
        yield pair


def _two_humans(lobby: Lobby, **options: Any) -> tuple[str, str, str]:
    """A started 2-player Magic Lamp table of two humans and no clock, so nothing but their
    moves can change it: (table, token 0, token 1)."""
    table_id, host = lobby.create(
        "magic-lamp", players=2, clock={"per_move_s": None}, options=options
    )
    _, token0 = lobby.join(table_id, 0)
    _, token1 = lobby.join(table_id, 1)
    lobby.start(table_id, host)
    return table_id, token0, token1


async def _play_until_single_turn(clients: list[GameClient], timeout: float = 30.0) -> GameClient:
    """Play every seat (its first option; in a race the first seat rubs, the others do
    not) until one seat alone has a decision that is not a race. Then nothing can change
    the table but that seat's move (no bots, no clocks, no race to close): the position the
    hostile messages are fired at.

    A seat's own view lists every seat still to act, including those that have committed
    in secret, so ``to_act == [seat]`` there means that seat really is alone."""
    loop = asyncio.get_running_loop()
    found: asyncio.Future[GameClient] = loop.create_future()

    async def run(client: GameClient) -> None:
        answered = -1
        while not found.done():
            view = client.view
            decision = client.decision  # its options written out
            if view is not None and decision is not None and view["version"] != answered:
                if view["to_act"] == [client.seat] and decision["reaction"] is None:
                    if not found.done():
                        found.set_result(client)
                    return
                answered = view["version"]
                if decision["reaction"] is not None and client is clients[0]:
                    # The first seat rubs (and so wins the race): the turn goes on with its
                    # single-seat decisions. Nobody rubbing would give only races.
                    ref = f"rub-{answered}"
                    await client.send({"type": "react", "version": answered, "ref": ref})
                    reply = await client.answer(ref)
                elif decision["reaction"] is not None:
                    reply = await client.act(decision["default"])
                else:
                    reply = await client.act(decision["options"][0]["action"])
                assert reply["type"] == "ack", reply
            else:
                with contextlib.suppress(TimeoutError):
                    await client.next(timeout=0.2)

    tasks = [asyncio.create_task(run(c)) for c in clients]
    try:
        return await asyncio.wait_for(asyncio.shield(found), timeout)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


def _seen(client: GameClient) -> int:
    """The seat's own version: that of the last update it was sent (the server sends a seat
    nothing when a step changes nothing it can see, and the seat's version does not move).
    Its actions are fresh at that version only."""
    versions = [
        f["view"]["version"]
        for f in client.frames
        if f["type"] in ("welcome", "update") and f["view"] is not None
    ]
    return max(versions, default=0)


def _fingerprint(server: ServerThread, lobby: Lobby, table_id: str) -> dict[str, Any]:
    """Everything about a table that a message could change: the live state (version,
    history, every seat's and the spectators' view with its log), the actions the runtime
    holds and those in the database, and the lobby's description."""
    hub = server.app.state.hub
    table = hub.tables[table_id]
    state = table.state
    stored = hub.store.load(table_id)
    assert stored is not None
    seats: list[int | None] = [*range(table.params.num_players), None]
    return {
        "version": None if state is None else state.version,
        "history": None if state is None else list(state.history),
        "views": None if state is None else [json.dumps(state.view(s)) for s in seats],
        "actions": list(table.data.actions),
        "stored": stored.actions,
        "status": stored.status,
        "info": lobby.table(table_id),
    }


# -- the hostile messages --------------------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    """One hostile message and the error the protocol answers it with."""

    kind: str
    payload: str | bytes
    code: str
    #: Text the error's message must contain: what was wrong.
    needle: str
    #: The ``ref`` the error must carry (None: none).
    ref: int | str | None = None
    #: Answered by the server's frame reader as soon as it is read (too large, a pong for
    #: no ping), so possibly before the answers to earlier messages.
    oob: bool = False


@dataclass
class Target:
    """One connection and what its messages may be refused for."""

    name: str
    #: actor | waiting | spectator | finished | unstarted | nohello
    role: str
    client: GameClient
    seat: int | None = None
    version: int = 0
    seen: int = 0
    legal: tuple[int, ...] = ()
    num_actions: int = 427
    #: Canonical text of a few actions (for ``text`` messages).
    texts: dict[int, str] = field(default_factory=dict)
    #: Wrong tokens still allowed on a connection that has not said hello (three close it).
    token_tries: int = 2
    #: A real seat token of another table: wrong here.
    foreign_token: str = ""
    probes: list[Probe] = field(default_factory=list)


def _ref(rng: random.Random) -> int | str | None:
    roll = rng.random()
    if roll < 0.3:
        return None
    if roll < 0.65:
        return rng.randrange(0, 2**53)
    return "".join(rng.choices(string.ascii_letters + string.digits + "-_ é", k=rng.randint(0, 64)))


BAD_REFS: list[Any] = [-1, 2**53, 10**20, "x" * 65, 1.5, [], {}, {"ref": 1}]


class Generator:
    """Hostile messages for each kind of connection, drawn from one seeded RNG."""

    def __init__(self, rng: random.Random, other_table: str, other_token: str) -> None:
        self.rng = rng
        self.other_table = other_table
        self.other_token = other_token

    # messages refused whatever the connection ----------------------------------------------

    def bad_json(self, _t: Target) -> Probe:
        rng = self.rng
        sample = json.dumps(
            {"type": "action", "version": rng.randrange(100), "action": rng.randrange(427),
             "ref": "r"}
        )
        choice = rng.randrange(9)
        if choice == 0:  # a message cut short (no proper prefix of an object is JSON)
            payload: str | bytes = sample[: rng.randrange(len(sample))]
        elif choice == 1:
            payload = "{'type': 'sync'}"
        elif choice == 2:
            payload = sample + rng.choice([" x", "}", ",", " {}", "]"])
        elif choice == 3:  # a raw control character inside a string
            payload = '{"type": "sy' + chr(rng.randrange(0, 32)) + 'nc"}'
        elif choice == 4:
            payload = rng.choice(["hello", "undefined", "{type: action}", "NaNa", "0x10", "--1"])
        elif choice == 5:  # a binary frame that is not text
            payload = b"\x80" + rng.randbytes(rng.randrange(0, 64))
        elif choice == 6:  # deeply nested: the decoder's recursion limit
            depth = rng.randrange(2000, MAX_MESSAGE // 2)
            payload = "[" * depth + "]" * depth
        elif choice == 7:
            depth = rng.randrange(2000, (MAX_MESSAGE - 10) // 7)
            payload = '{"a": ' * depth + "1" + "}" * depth
        else:  # an integer past Python's digit limit for decoding
            digits = rng.randrange(4301, 9000)
            payload = '{"type": "action", "version": ' + "9" * digits + ', "action": 1}'
        if rng.random() < 0.15 and isinstance(payload, str):
            payload = payload.encode()  # the same, as a binary frame
        return Probe("bad_json", payload, "bad_json", "not valid JSON")

    def not_an_object(self, _t: Target) -> Probe:
        payload = self.rng.choice(
            ["[]", "1", "-5", '"action"', "null", "true", '[{"type": "sync"}]', "3.5e300",
             "1e400", "[" * 50 + "]" * 50]
        )
        return Probe("not_an_object", payload, "bad_message", "JSON object")

    def unknown_type(self, _t: Target) -> Probe:
        rng = self.rng
        ref = _ref(rng)
        message: dict[str, Any] = {}
        if rng.random() < 0.9:
            message["type"] = rng.choice(
                ["rub", "move", "Action", "ACTION", "hello ", "", "act", "actions", 5, None,
                 [], {}, True, 1.5, "x" * 500]
            )
        message.update(rng.choice([{}, {"version": 3, "action": 1}, {"token": "t"}]))
        if ref is not None:
            message["ref"] = ref
        items = list(message.items())
        rng.shuffle(items)
        return Probe(
            "unknown_type", json.dumps(dict(items)), "unknown_type", "unknown message type", ref
        )

    def bad_field(self, t: Target) -> Probe:
        """A known type with a field of the wrong type or out of range, a field too many,
        or ``action`` and ``text`` both or neither. Parsed before anything else, so the
        answer is the same on every connection."""
        rng = self.rng
        ref = _ref(rng)
        version = t.version
        base: dict[str, Any] = {"type": "action", "version": version, "action": 1}
        choice = rng.randrange(12)
        if choice == 0:
            base["version"] = rng.choice(
                [[1], {"v": 1}, "abc", "", 1.5, None, -1, 2**53, 10**30, -(10**30),
                 float("nan"), float("inf")]
            )
            needle = "version"
        elif choice == 1:
            base["action"] = rng.choice(["x", [1], 2.5, {"a": 1}, -1, 2**31, 10**20, "1 2"])
            needle = "action"
        elif choice == 2:
            del base["action"]
            base["text"] = rng.choice([5, [], {}, "x" * 101, 1.5])
            needle = "text"
        elif choice == 3:
            base["seat"] = rng.choice(["zero", -1, 64, 1.5, [], 10**12])
            needle = "seat"
        elif choice == 4:
            base["ref"] = rng.choice(BAD_REFS)
            ref = None
            needle = "ref"
        elif choice == 5:
            key, value = rng.choice(
                [("table", self.other_table), ("verison", version), ("game", "ali-baba"),
                 ("token", self.other_token), ("table_id", self.other_table), ("Type", "x")]
            )
            base[key] = value
            needle = key
        elif choice == 6:
            base["text"] = "draw"
            needle = "not both"
        elif choice == 7:
            del base["action"]
            needle = "not both"
        elif choice == 8:
            base = {"type": "react", "version": rng.choice(["one", [], -3, 2**60, None])}
            needle = "version"
        elif choice == 9:
            base = {"type": "hello", rng.choice(["token", "log_from"]): None}
            if "token" in base:
                base["token"] = rng.choice([5, [], {}, "t" * 201])
                needle = "token"
            else:
                base["log_from"] = rng.choice([-1, 2**31, "a", 1.5, []])
                needle = "log_from"
        elif choice == 10:
            base = {"type": "sync", rng.choice(["version", "seat", "all"]): 1}
            needle = next(k for k in base if k != "type")
        else:
            base = {"type": "pong", "nonce": rng.choice([5, [], None, "n" * 65])}
            needle = "nonce"
        if ref is not None and base["type"] != "hello" and "ref" not in base:
            base["ref"] = ref
        # hello, sync and pong have no ref: one sent with them is a field too many (and
        # parse_client_message still echoes a well-formed one).
        no_ref = base["type"] in ("hello", "sync", "pong")
        if no_ref and "ref" in base and needle not in ("token", "log_from", "nonce"):
            needle = "ref"
        code = "bad_message"
        return Probe("bad_field", json.dumps(base), code, needle, ref if "ref" in base else None)

    def too_large(self, _t: Target) -> Probe:
        rng = self.rng
        size = rng.randrange(MAX_MESSAGE + 1, 4 * MAX_MESSAGE)
        choice = rng.randrange(3)
        if choice == 0:
            payload: str | bytes = json.dumps({"type": "action", "version": 1, "text": "x" * size})
        elif choice == 1:
            # Fewer characters than the limit, more bytes: the limit is in bytes.
            chars = rng.randrange(MAX_MESSAGE // 2 + 10, MAX_MESSAGE - 20)
            payload = json.dumps({"type": "sync", "pad": "é" * chars}, ensure_ascii=False)
        else:
            payload = rng.randbytes(size)
        return Probe("too_large", payload, "too_large", f"at most {MAX_MESSAGE} bytes", oob=True)

    def stray_pong(self, _t: Target) -> Probe:
        nonce = secrets.token_hex(self.rng.randrange(1, 32))
        return Probe(
            "stray_pong", json.dumps({"type": "pong", "nonce": nonce}), "bad_message",
            "pong for no ping", oob=True,
        )

    # messages refused for what the connection is ---------------------------------------

    def _action(self, t: Target, ref: int | str | None, **fields: Any) -> str:
        message: dict[str, Any] = {"type": "action", **fields}
        if ref is not None:
            message["ref"] = ref
        return json.dumps(message)

    def _stale_version(self, t: Target) -> int:
        rng = self.rng
        if t.seen > 0 and rng.random() < 0.5:
            return rng.randrange(0, t.seen)
        return rng.choice([t.version + 1, t.version + rng.randrange(2, 1000), 2**53 - 1])

    def _fresh_version(self, t: Target) -> int:
        return self.rng.randint(t.seen, t.version)  # t.seen == t.version: the seat's own

    def semantic(self, t: Target) -> Probe:
        rng = self.rng
        ref = _ref(rng)
        role = t.role
        if role == "nohello":
            if t.token_tries > 0 and rng.random() < 0.3:
                t.token_tries -= 1
                token = rng.choice(
                    [t.foreign_token, secrets.token_urlsafe(32), "", "x" * 200, "' OR 1=1 --"]
                )
                return Probe(
                    "wrong_token", json.dumps({"type": "hello", "token": token}), "bad_token",
                    "token",
                )
            payload = rng.choice(
                [
                    json.dumps({"type": "sync"}),
                    self._action(t, ref, version=rng.randrange(100), action=rng.randrange(427)),
                    self._action(t, ref, version=0, text="draw"),
                    json.dumps({"type": "react", "version": 3, **({"ref": ref} if ref else {})}),
                ]
            )
            has_ref = '"ref"' in payload
            return Probe(
                "hello_first", payload, "hello_first", "hello", ref if has_ref else None
            )
        choice = rng.randrange(8)
        if choice == 0:  # hello twice
            return Probe(
                "hello_again", json.dumps({"type": "hello", "token": secrets.token_urlsafe(8)}),
                "bad_message", "already",
            )
        if choice == 1:  # a press with no race
            message: dict[str, Any] = {"type": "react", "version": t.version}
            if ref is not None:
                message["ref"] = ref
            code, needle = ("spectator", "spectator") if role == "spectator" else (
                "no_race", "no race")
            return Probe("react", json.dumps(message), code, needle, ref)
        if role == "spectator":
            payload = self._action(
                t, ref, version=rng.randrange(0, 2**20), action=rng.randrange(2**31 - 1)
            )
            return Probe("spectator_acts", payload, "spectator", "spectator", ref)
        assert t.seat is not None
        if choice == 2:  # the wrong seat, claimed
            seat = rng.choice([s for s in range(64) if s != t.seat])
            payload = self._action(
                t, ref, version=t.version, action=rng.choice(t.legal or (1,)), seat=seat
            )
            return Probe("wrong_seat", payload, "wrong_seat", f"holds seat {t.seat}", ref)
        if role == "unstarted":
            payload = self._action(
                t, ref, version=rng.randrange(0, 100), action=rng.randrange(2**31 - 1)
            )
            return Probe("not_started", payload, "not_started", "not started", ref)
        if choice == 3:  # a version the seat cannot have decided on
            action = rng.choice(t.legal or (1,))
            payload = self._action(t, ref, version=self._stale_version(t), action=action)
            return Probe("stale", payload, "stale", "version", ref)
        if choice == 4:  # outside the action space
            action = rng.randrange(t.num_actions, 2**31)
            payload = self._action(t, ref, version=self._fresh_version(t), action=action)
            return Probe("out_of_range", payload, "invalid_action", "outside", ref)
        if choice == 5:  # text that names no action
            junk = "~" + "".join(rng.choices(string.printable, k=rng.randrange(0, 60)))
            payload = self._action(t, ref, version=self._fresh_version(t), text=junk)
            return Probe("bad_text", payload, "invalid_action", "unknown action", ref)
        # An action of the game's space, at a fresh version: refused for the seat's situation.
        if role == "actor":
            illegal = [a for a in t.texts if a not in t.legal]
            action = rng.choice(illegal)
            if rng.random() < 0.3:
                payload = self._action(t, ref, version=self._fresh_version(t), text=t.texts[action])
            else:
                payload = self._action(t, ref, version=self._fresh_version(t), action=action)
            return Probe("illegal", payload, "illegal_action", "not legal", ref)
        action = rng.randrange(t.num_actions)
        payload = self._action(t, ref, version=self._fresh_version(t), action=action)
        if role == "waiting":
            return Probe("not_your_turn", payload, "not_your_turn", "may not act now", ref)
        assert role == "finished", role
        return Probe("game_over", payload, "game_over", "over", ref)

    def probe(self, t: Target) -> Probe:
        makers: list[tuple[float, Callable[[Target], Probe]]] = [
            (0.16, self.bad_json),
            (0.06, self.not_an_object),
            (0.10, self.unknown_type),
            (0.24, self.bad_field),
            (0.04, self.too_large),
            (0.04, self.stray_pong),
            (0.36, self.semantic),
        ]
        roll = self.rng.random() * sum(w for w, _ in makers)
        for weight, make in makers:
            roll -= weight
            if roll < 0:
                return make(t)
        return makers[-1][1](t)


# -- firing and checking ---------------------------------------------------------------------


def _oob(frame: dict[str, Any]) -> bool:
    return frame["code"] == "too_large" or "pong for no ping" in frame["message"]


def _show(payload: str | bytes) -> str:
    text = repr(payload)
    return text if len(text) < 160 else text[:150] + f"... ({len(payload)} long)"


async def _fire(target: Target, problems: list[str]) -> int:
    """Send the target's probes in batches, each followed by a marker (an unknown type with
    a ref, so its answer closes the batch), and check the answers. Returns the answers."""
    ws = target.client.ws
    assert ws is not None
    answered = 0
    for start in range(0, len(target.probes), BATCH):
        batch = target.probes[start : start + BATCH]
        for probe in batch:
            await ws.send(probe.payload)
        marker = f"end-{target.name}-{start}"
        await ws.send(json.dumps({"type": "marker", "ref": marker}))
        frames = []
        while True:
            frame = await target.client.next(timeout=30)
            if frame["type"] == "error" and frame.get("ref") == marker:
                break
            frames.append(frame)
        unexpected = [f for f in frames if f["type"] not in ("error", "table")]
        if unexpected:
            problems.append(f"{target.name}: frames that are not errors: {unexpected[:3]}")
        errors = [f for f in frames if f["type"] == "error"]
        answered += len(errors)
        in_band = [p for p in batch if not p.oob]
        got_in_band = [e for e in errors if not _oob(e)]
        want_oob = Counter(p.kind for p in batch if p.oob)
        got_oob: Counter[str] = Counter()
        for error in errors:
            if error["code"] == "too_large":
                got_oob["too_large"] += 1
                if f"at most {MAX_MESSAGE} bytes" not in error["message"]:
                    problems.append(f"{target.name}: too_large says {error['message']!r}")
            elif "pong for no ping" in error["message"]:
                got_oob["stray_pong"] += 1
        if want_oob != got_oob:
            problems.append(f"{target.name}: out-of-band answers {got_oob}, wanted {want_oob}")
        if len(got_in_band) != len(in_band):
            problems.append(
                f"{target.name}: {len(got_in_band)} answers to {len(in_band)} messages "
                f"(batch at {start})"
            )
        for probe, error in zip(in_band, got_in_band, strict=False):
            if (
                error["code"] != probe.code
                or probe.needle not in error["message"]
                or error.get("ref") != probe.ref
            ):
                problems.append(
                    f"{target.name} [{probe.kind}] {_show(probe.payload)}: got {error}, wanted "
                    f"code {probe.code!r} naming {probe.needle!r} with ref {probe.ref!r}"
                )
    return answered


async def test_ten_thousand_hostile_messages_change_nothing(
    served: tuple[ServerThread, _Collect],
) -> None:
    server, logs = served
    lobby = Lobby(server.url)
    clients: list[GameClient] = []

    async def client(table_id: str, token: str | None, hello: bool = True) -> GameClient:
        c = GameClient(server.ws_url, table_id, token)
        clients.append(c)
        if hello:
            await c.connect()
        else:
            await c.open()
        return c

    try:
        # T1: the table under fire, at a position where one seat alone is to act.
        t1, t1_token0, t1_token1 = _two_humans(lobby)
        seat0 = await client(t1, t1_token0)
        seat1 = await client(t1, t1_token1)
        spectators = [await client(t1, None), await client(t1, None)]
        actor = await _play_until_single_turn([seat0, seat1])
        waiting = seat1 if actor is seat0 else seat0
        await asyncio.sleep(0.3)  # let the last updates of that move arrive everywhere
        # T2: another running table; only its token is used (on T1's connections).
        t2, t2_token0, _ = _two_humans(lobby)
        # T3: a finished game (one turn), with its human seat still connected.
        t3, t3_host = lobby.create(
            "magic-lamp", players=2, clock={"per_move_s": None}, options={"max_turns": 1},
            seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
        )
        _, t3_token = lobby.join(t3, 0)
        finished = await client(t3, t3_token)
        lobby.start(t3, t3_host)
        await play_randomly(finished, random.Random(SEED))
        await finished.wait_until(lambda c: c.table is not None and c.table["status"] == "finished")
        # T4: a table not started, one seat joined.
        t4, _ = lobby.create("magic-lamp", players=2)
        _, t4_token = lobby.join(t4, 0)
        unstarted = await client(t4, t4_token)
        # Connections that never say hello: 12 at T1, 4 at T2 (they are tried with a real
        # token of the other table).
        silent = [await client(t1, None, hello=False) for _ in range(12)]
        silent += [await client(t2, None, hello=False) for _ in range(4)]

        tables = [t1, t2, t3, t4]
        before = {t: _fingerprint(server, lobby, t) for t in tables}
        state = server.app.state.hub.tables[t1].state
        assert state is not None
        version = state.version
        assert actor.view is not None and actor.decision is not None
        legal = tuple(o["action"] for o in actor.decision["options"])
        # Canonical texts of a few actions: the legal ones and illegal ones.
        rng = random.Random(SEED)
        sample = set(legal) | set(rng.sample(range(state.num_actions), 60))
        texts = {a: state.action_to_str(a) for a in sorted(sample)}
        assert any(a not in legal for a in texts)

        def seat_target(name: str, role: str, c: GameClient) -> Target:
            # A seat's actions are fresh at its own version only (``version_for``).
            v = _seen(c)
            return Target(name, role, c, seat=c.seat, version=v, seen=v, legal=legal,
                          num_actions=state.num_actions, texts=texts)

        assert _seen(actor) == state.version_for(actor.seat)
        spectator_version = state.version_for(None)
        targets = [
            seat_target("actor", "actor", actor),
            seat_target("waiting", "waiting", waiting),
            Target("spectator0", "spectator", spectators[0], version=spectator_version),
            Target("spectator1", "spectator", spectators[1], version=spectator_version),
            seat_target("finished", "finished", finished),
            Target("unstarted", "unstarted", unstarted, seat=0, version=0),
            *(
                Target(f"silent{i}", "nohello", c, foreign_token=t1_token1 if i >= 12 else
                       t2_token0)
                for i, c in enumerate(silent)
            ),
        ]
        for target in targets:
            target.client.drain()  # frames of the setup: the batches start from a clean slate
        # The seat to act and the seat waiting get the most; each connection some.
        weights = [6, 4, 2, 2, 3, 2] + [0.3] * len(silent)
        generator = Generator(rng, t2, t2_token0)
        picks = rng.choices(range(len(targets)), weights=weights, k=TOTAL)
        for index in picks:
            targets[index].probes.append(generator.probe(targets[index]))
        kinds = Counter(p.kind for t in targets for p in t.probes)
        assert sum(kinds.values()) == TOTAL
        # Two wrong tokens per silent connection (a third closes it): the rarest kind.
        assert kinds["wrong_token"] == 2 * len(silent) and min(kinds.values()) >= 30, kinds

        problems: list[str] = []
        started = time.monotonic()
        answered = await asyncio.gather(*(_fire(t, problems) for t in targets))
        elapsed = time.monotonic() - started
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:15])
        assert sum(answered) == TOTAL
        closed = [t.name for t in targets if t.client.closed.is_set()]
        assert not closed, f"connections closed by the server: {closed}"
        print(f"{TOTAL} hostile messages answered in {elapsed:.1f} s; kinds: {dict(kinds)}")

        # Nothing changed: states, histories, views, stored actions, lobby descriptions.
        after = {t: _fingerprint(server, lobby, t) for t in tables}
        for t in tables:
            assert after[t] == before[t], f"table {t} changed"
        assert not logs.lines(), logs.lines()[:10]

        # A valid move still works, and everyone at the table hears of it.
        actor_version = state.version_for(actor.seat)
        reply = await actor.act(legal[0])
        assert reply == {"type": "ack", "ref": reply["ref"], "version": actor_version + 1}
        assert state.version == version + 1
        for watcher in spectators:
            await watcher.wait_until(
                lambda c: c.view is not None and c.view["version"] > spectator_version
            )
        # A new connection is welcome as ever.
        newcomer = await client(t2, t2_token0)
        assert newcomer.seat == 0
        assert httpx.get(f"{server.url}/healthz").status_code == 200
    finally:
        for c in clients:
            await c.close()
        lobby.close()


# -- what cannot be mixed into the stream ------------------------------------------------------


async def test_three_wrong_tokens_close_the_connection(
    served: tuple[ServerThread, _Collect],
) -> None:
    server, logs = served
    lobby = Lobby(server.url)
    table_id, token0, _ = _two_humans(lobby)
    c = GameClient(server.ws_url, table_id)
    await c.open()
    for attempt in range(3):
        await c.send({"type": "hello", "token": f"guess-{attempt}"})
        error = await c.expect("error")
        assert error["code"] == "bad_token" and "token" in error["message"]
    await asyncio.wait_for(c.closed.wait(), 5)
    assert c.close_code == 4003
    await c.close()
    # The seat itself is untouched: its real token still works.
    owner = GameClient(server.ws_url, table_id, token0)
    welcome = await owner.connect()
    assert welcome["seat"] == 0
    await owner.close()
    lobby.close()
    assert not logs.lines()


async def test_a_frame_past_the_hard_limit_closes_only_its_connection(
    served: tuple[ServerThread, _Collect],
) -> None:
    server, _logs = served
    lobby = Lobby(server.url)
    table_id, token0, token1 = _two_humans(lobby)
    seats = [GameClient(server.ws_url, table_id, t) for t in (token0, token1)]
    for c in seats:
        await c.connect()
    intruder = GameClient(server.ws_url, table_id)
    await intruder.connect()
    hard = server.settings.ws_hard_limit_bytes
    with contextlib.suppress(ConnectionClosed):
        await intruder.ws.send("x" * (hard + 1))  # type: ignore[union-attr]
    await asyncio.wait_for(intruder.closed.wait(), 10)
    assert intruder.close_code == 1009  # message too big
    # The others play on.
    actor = await _play_until_single_turn(seats)
    assert actor.decision is not None
    reply = await actor.act(actor.decision["options"][0]["action"])
    assert reply["type"] == "ack"
    for c in [*seats, intruder]:
        await c.close()
    lobby.close()


@pytest.mark.parametrize("table_id", ["nope", "x" * 200, "..", "%00", "ü-ü"])
async def test_a_socket_for_no_table_is_told_and_closed(
    served: tuple[ServerThread, _Collect], table_id: str
) -> None:
    server, logs = served
    async with connect(f"{server.ws_url}/ws/tables/{table_id}") as ws:
        error = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert error["type"] == "error" and "no table" in error["message"]
        with contextlib.suppress(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert ws.close_code == 4404
    assert httpx.get(f"{server.url}/healthz").status_code == 200
    assert not logs.lines()


# -- regressions: server bugs found here ------------------------------------------------------


@pytest.mark.parametrize(
    "flood",
    [
        pytest.param(lambda i: json.dumps({"type": "flood", "ref": i}), id="unknown-type"),
        # Answered by the frame reader itself, not the handler's loop.
        pytest.param(lambda i: json.dumps({"type": "pong", "nonce": f"n{i}"}), id="stray-pong"),
    ],
)
def test_a_burst_from_a_reading_client_is_answered_in_full(
    served: tuple[ServerThread, _Collect], flood: Callable[[int], str]
) -> None:
    """A client that reads every answer (in its own thread) and sends 1,000 messages in one
    burst gets 1,000 errors and stays connected.

    Regression test: the handler took the messages queued in its inbox one after the other
    without yielding to the event loop, so its writer never ran and the outgoing queue
    (``Settings.send_queue``, 256) filled, however fast the client read: the client was
    dropped as "too slow: messages are not being read" (1008) after about 270 answers. Fixed
    by yielding after each message (app.py, ``_serve_socket`` and ``_read``)."""
    server, logs = served
    lobby = Lobby(server.url)
    table_id, token0, _ = _two_humans(lobby)
    count = 1000
    answers: list[dict[str, Any]] = []
    closed: list[str] = []
    with sync_connect(f"{server.ws_url}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token0}))

        def read() -> None:
            try:
                for raw in ws:
                    frame = json.loads(raw)
                    if frame["type"] == "error":
                        answers.append(frame)
                        if len(answers) == count:
                            return
            except ConnectionClosed as exc:
                closed.append(str(exc))

        reader = threading.Thread(target=read)
        reader.start()
        with contextlib.suppress(ConnectionClosed):
            for i in range(count):
                ws.send(flood(i))
        reader.join(timeout=30)
    lobby.close()
    assert not closed, f"dropped after {len(answers)} answers: {closed[0]}"
    assert len(answers) == count
    assert not logs.lines()


async def test_wrong_field_types_are_refused_not_coerced(
    served: tuple[ServerThread, _Collect],
) -> None:
    """Websocket messages were once validated in pydantic's lax mode, so wrong field types were
    silently converted instead of refused: ``"version": "12"`` (a string),
    ``"action": "3"``, ``"seat": "0"`` or ``"seat": false`` were played as if they were
    integers. The protocol refuses unknown fields for the same reason ("a typo must not be
    silently ignored"); the websocket message models are now strict (JSON spells integers as
    integers)."""
    server, _logs = served
    lobby = Lobby(server.url)
    table_id, token0, token1 = _two_humans(lobby)
    seats = [GameClient(server.ws_url, table_id, t) for t in (token0, token1)]
    for c in seats:
        await c.connect()
    mutations: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("version as a string", lambda m: m.update(version=str(m["version"]))),
        ("action as a string", lambda m: m.update(action=str(m["action"]))),
        ("seat as a string", lambda m: m.update(seat=str(m["seat"]))),
        ("seat as a boolean", lambda m: m.update(seat=bool(m["seat"]))),
    ]
    accepted = []
    for name, mutate in mutations:
        actor = await _play_until_single_turn(seats)
        assert actor.decision is not None and actor.seat is not None
        message: dict[str, Any] = {
            "type": "action", "version": actor.version, "seat": actor.seat, "ref": name,
            "action": actor.decision["options"][0]["action"],
        }
        mutate(message)
        await actor.send(message)
        reply = await actor.answer(name)
        if reply["type"] == "ack":
            accepted.append(name)
    for c in seats:
        await c.close()
    lobby.close()
    assert not accepted, f"played instead of refused: {accepted}"


async def test_refusals_before_hello_and_before_the_start_echo_the_ref(
    served: tuple[ServerThread, _Collect],
) -> None:
    """``ErrorMsg.ref`` is "the ref of the message refused, when it had one", for these two
    refusals too. Regression test: ``hello_first`` (an action sent before hello) and
    ``not_started`` (an action at a table not started) left it out (fixed in app.py and
    ``TableRuntime.act``)."""
    server, _logs = served
    lobby = Lobby(server.url)
    table_id, _host = lobby.create("magic-lamp", players=2)
    _, token = lobby.join(table_id, 0)
    early = GameClient(server.ws_url, table_id)
    await early.open()
    await early.send({"type": "action", "version": 0, "action": 1, "ref": "early"})
    before_hello = await early.expect("error")
    seated = GameClient(server.ws_url, table_id, token)
    await seated.connect()
    await seated.send({"type": "action", "version": 0, "action": 1, "ref": "too-soon"})
    not_started = await seated.expect("error")
    for c in (early, seated):
        await c.close()
    lobby.close()
    assert before_hello["code"] == "hello_first" and not_started["code"] == "not_started"
    assert (before_hello["ref"], not_started["ref"]) == ("early", "too-soon")


# -- the HTTP lobby ----------------------------------------------------------------------------


def _databases() -> list[Any]:
    params: list[Any] = [pytest.param("sqlite", id="sqlite")]
    params.append(
        pytest.param(
            "postgresql", id="postgresql",
            marks=pytest.mark.skipif(
                not DATABASE_URL.startswith("postgresql"),
                reason="ARABESQUE_TEST_DATABASE_URL does not name a PostgreSQL database",
            ),
        )
    )
    return params


@pytest.fixture(params=_databases())
def lobby_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerThread]:
    """A server on SQLite, and on PostgreSQL (a fresh schema) where one is configured."""
    # Dozens of refused creations from one address: above the default rate limit.
    if request.param == "sqlite":
        with _serving(Settings(data_dir=tmp_path, table_burst=1000)) as (server, _):
            yield server
    else:
        with pg_schema(DATABASE_URL) as url, _serving(
            Settings(data_dir=tmp_path, database_url=url, table_burst=1000)
        ) as (server, _):
            yield server


def _message(response: httpx.Response) -> str:
    """The refusal's explanation, in either of the lobby's two error shapes: the server's
    own ``{code, message}`` or FastAPI's validation ``{detail: [...]}``."""
    body = response.json()
    if "message" in body:
        return f"{body['code']}: {body['message']}"
    detail = body["detail"]
    if isinstance(detail, str):
        return detail
    return "; ".join(
        f"{'.'.join(str(p) for p in d['loc'])}: {d['msg']} {d.get('ctx', '')}" for d in detail
    )


JSON = {"content-type": "application/json"}


def test_http_hostile_requests_get_clear_4xx(lobby_server: ServerThread) -> None:
    http = httpx.Client(base_url=lobby_server.url, timeout=30)
    created = http.post("/api/tables", json={"game": "magic-lamp", "players": 2}).json()
    table_id, host = created["table"]["id"], created["host_token"]
    auth = {"Authorization": f"Bearer {host}"}
    nested = b"[" * 100_000 + b"]" * 100_000
    # (method, path, body (bytes: sent as is), headers, status, text the message must hold)
    cases: list[tuple[str, str, Any, dict[str, str], int, str]] = [
        # bodies that are not JSON, or not the right JSON
        ("POST", "/api/tables", b'{"game": "magic-lamp"', JSON, 422, "JSON"),
        ("POST", "/api/tables", b"\xff\xfe\x00", JSON, 400, "parsing the body"),
        ("POST", "/api/tables", b"", JSON, 422, "body"),
        ("POST", "/api/tables", b"[1, 2]", JSON, 422, "dictionary"),
        ("POST", "/api/tables", b'"magic-lamp"', JSON, 422, "dictionary"),
        ("POST", "/api/tables", nested, JSON, 400, "parsing the body"),
        ("POST", "/api/tables", b'{"game": "magic-lamp"}', {"content-type": "text/plain"},
         422, "dictionary"),
        ("POST", f"/api/tables/{table_id}/join", b"{", JSON, 422, "JSON"),
        # unknown game, bad params
        ("POST", "/api/tables", {"game": "chess"}, {}, 404, "no game 'chess'"),
        ("POST", "/api/tables", {"game": "x" * 65}, {}, 422, "game"),
        ("POST", "/api/tables", {}, {}, 422, "game"),
        ("POST", "/api/tables", {"game": "magic-lamp", "players": 9}, {}, 422, "9"),
        ("POST", "/api/tables", {"game": "magic-lamp", "players": 10**40}, {}, 422, "players"),
        ("POST", "/api/tables", {"game": "magic-lamp", "players": "two"}, {}, 422, "players"),
        ("POST", "/api/tables", {"game": "magic-lamp", "options": {"speed": 3}}, {}, 422,
         "speed"),
        ("POST", "/api/tables", {"game": "magic-lamp", "options": {"max_turns": "x"}}, {}, 422,
         "max_turns"),
        ("POST", "/api/tables", {"game": "magic-lamp", "options": {"max_turns": -5}}, {}, 422,
         "max_turns"),
        ("POST", "/api/tables", {"game": "magic-lamp", "options": {"max_turns": [1]}}, {},
         422, "options"),
        ("POST", "/api/tables", {"game": "magic-lamp", "options": {"components": "/etc/passwd"}},
         {}, 422, "components"),
        ("POST", "/api/tables", {"game": "magic-lamp",
                                 "options": {f"k{i}": i for i in range(10_000)}}, {}, 422,
         "options"),
        ("POST", "/api/tables", {"game": "ali-baba", "variant": "nope"}, {}, 422, "nope"),
        ("POST", "/api/tables", {"game": "magic-lamp", "variant": "x"}, {}, 422, "variant"),
        ("POST", "/api/tables", {"game": "magic-lamp", "players": 2, "seats": [{}, {}, {}]},
         {}, 422, "3 seats"),
        ("POST", "/api/tables", {"game": "magic-lamp", "clock": {"per_move_s": -1}}, {}, 422,
         "per_move_s"),
        ("POST", "/api/tables", {"game": "magic-lamp", "bot_think_s": 1e308}, {}, 422,
         "bot_think_s"),
        ("POST", "/api/tables", {"game": "magic-lamp", "auto_start": "maybe"}, {}, 422,
         "auto_start"),
        ("POST", "/api/tables", {"game": "magic-lamp", "host": "me"}, {}, 422, "host"),
        # bad agent specs
        ("POST", "/api/tables", {"game": "magic-lamp", "players": 2,
                                 "seats": [{"kind": "bot", "agent": "nonsense"}]}, {}, 422,
         "nonsense"),
        ("POST", "/api/tables", {"game": "magic-lamp", "players": 2,
                                 "seats": [{"kind": "bot", "agent": "heuristic:x=1"}]}, {}, 422,
         "heuristic"),
        ("POST", "/api/tables", {"game": "magic-lamp", "players": 2,
                                 "seats": [{"kind": "bot", "agent": "random(seed=1"}]}, {}, 422,
         "random(seed=1"),
        ("POST", "/api/tables", {"game": "magic-lamp", "players": 2,
                                 "seats": [{"kind": "robot"}]}, {}, 422, "kind"),
        ("POST", "/api/tables", {"game": "magic-lamp",
                                 "clock": {"on_timeout": "bot", "timeout_agent": "zzz"}}, {},
         422, "zzz"),
        ("POST", f"/api/tables/{table_id}/fill", {"agent": "nonsense"}, auth, 422, "nonsense"),
        ("POST", f"/api/tables/{table_id}/fill", {"agent": "x" * 201}, auth, 422, "agent"),
        # the host token
        ("POST", f"/api/tables/{table_id}/fill", {"agent": "random"}, {}, 403, "host token"),
        ("POST", f"/api/tables/{table_id}/fill", {"agent": "random"},
         {"Authorization": "Bearer nope"}, 403, "host token"),
        ("POST", f"/api/tables/{table_id}/start", None, {"Authorization": "Basic eDp5"}, 403,
         "host token"),
        # seats, tables, paths
        ("POST", f"/api/tables/{table_id}/start", None, auth, 409, "free"),
        ("POST", f"/api/tables/{table_id}/join", {"seat": 7}, {}, 404, "no seat 7"),
        ("POST", f"/api/tables/{table_id}/join", {"seat": -1}, {}, 422, "seat"),
        ("POST", f"/api/tables/{table_id}/join", {"seat": "a"}, {}, 422, "seat"),
        ("POST", f"/api/tables/{table_id}/join", {"name": "n" * 65}, {}, 422, "name"),
        ("GET", f"/api/tables/{table_id}/record", None, {}, 409, "over"),
        ("GET", "/api/tables/nope", None, {}, 404, "no table 'nope'"),
        ("POST", "/api/tables/nope/join", {}, {}, 404, "no table 'nope'"),
        ("GET", "/api/tables/" + "x" * 40, None, {}, 422, "32"),
        ("GET", "/api/tables/a%20b", None, {}, 422, "pattern"),
        ("GET", "/api/tables/%2e%2e", None, {}, 422, "pattern"),
        ("GET", "/api/tables?status=bogus", None, {}, 422, "status"),
        ("GET", f"/api/tables/{table_id}/nothing", None, {}, 404, "Not Found"),
        ("DELETE", f"/api/tables/{table_id}", None, {}, 405, "Method Not Allowed"),
    ]
    failures = []
    for method, path, body, headers, status, needle in cases:
        if isinstance(body, bytes):
            response = http.request(method, path, content=body, headers=headers)
        else:
            response = http.request(method, path, json=body, headers=headers)
        try:
            explained = _message(response)
        except (ValueError, KeyError, TypeError):
            explained = f"<not an error body: {response.text[:100]!r}>"
        if response.status_code != status or needle not in explained:
            failures.append(
                f"{method} {path[:60]} {str(body)[:80]}: {response.status_code} {explained[:200]}"
                f" (wanted {status} naming {needle!r})"
            )
    # The table they were aimed at is as it was: open, two free seats.
    info = http.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "open" and not any(s["taken"] for s in info["seats"])
    assert http.get("/healthz").status_code == 200
    http.close()
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", b'{"game": "\\udfff"}'),
        ("/api/tables", b'{"game": "magic-lamp", "players": 2, "seats": [{"name": "\\ud800"}]}'),
        ("/api/tables", b'{"game": "magic-lamp", "options": {"\\udfff": 1}}'),
        ("JOIN", b'{"name": "\\ud800"}'),
        ("FILL", b'{"agent": "\\udfff"}'),
    ],
    ids=["game", "seat-name", "option-key", "join-name", "fill-agent"],
)
def test_a_lone_surrogate_in_a_body_is_refused_not_a_500(
    lobby_server: ServerThread, path: str, body: bytes
) -> None:
    """A JSON body holding a lone UTF-16 surrogate escape (``"\\udfff"``; valid JSON
    syntax, but no character) once got 500 Internal Server Error instead of a 4xx. pydantic
    refuses the string as it should, then FastAPI's default validation-error handler echoes
    the input in its JSON answer, which cannot be encoded as UTF-8 (UnicodeEncodeError). The
    server's own handler for RequestValidationError echoes nothing and writes ASCII."""
    http = httpx.Client(base_url=lobby_server.url, timeout=10)
    created = http.post("/api/tables", json={"game": "magic-lamp", "players": 2}).json()
    table_id, host = created["table"]["id"], created["host_token"]
    if path == "JOIN":
        path = f"/api/tables/{table_id}/join"
    elif path == "FILL":
        path = f"/api/tables/{table_id}/fill"
    # The server logs the failure with the lone surrogate in it; captured by pytest, that text
    # cannot be sent from an xdist worker (UTF-8), which would crash the whole run.
    logger = logging.getLogger("uvicorn.error")
    logger.disabled = True
    try:
        response = http.post(
            path, content=body, headers={**JSON, "Authorization": f"Bearer {host}"}
        )
    finally:
        logger.disabled = False
    http.close()
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:200])


@pytest.mark.parametrize(
    "body",
    [
        {"seat": 1, "name": "a\u0000b"},
        {"game": "magic-lamp", "players": 2, "seats": [{"name": "nul\u0000"}]},
    ],
    ids=["join-name", "seat-spec-name"],
)
def test_a_nul_in_a_seat_name_is_refused(
    lobby_server: ServerThread, body: dict[str, Any]
) -> None:
    """Once a 500 on PostgreSQL: a seat name holding a NUL character (``"\\u0000"``, a valid
    JSON string) passes validation and makes the database refuse the write ("PostgreSQL text
    fields cannot contain NUL (0x00) bytes"), answered 500. SQLite stores it. Names (and
    any text stored in a text column) should refuse control characters with a 422, or have
    them stripped."""
    http = httpx.Client(base_url=lobby_server.url, timeout=10)
    if "game" in body:
        response = http.post("/api/tables", json=body)
    else:
        created = http.post("/api/tables", json={"game": "magic-lamp", "players": 2}).json()
        response = http.post(f"/api/tables/{created['table']['id']}/join", json=body)
    http.close()
    assert response.status_code < 500, (response.status_code, response.text[:200])
