"""Worker processes where bots think, so a bot's search never holds the server's GIL.

A ``BotPool`` owns ``size`` worker processes (started by the ``forkserver`` method: never a
fork of the threaded server itself), each at a lower CPU priority (``os.nice``), each doing
one decision at a time. ``decide(agent, state, seat, deadline_s)`` sends the worker the
agent and a state that holds only what ``seat`` may know (the caller passes a determinized
copy, never the live state), and returns the chosen action with the agent as it is after
choosing: agents keep state between decisions (agents/base.py), and that state travels with
each decision instead of living in one worker, so any worker can take any move and a game is
the same with one worker or eight.

What can go wrong ends in a ``BotPoolError`` the caller turns into a fallback move:

- ``deadline``: no answer in time (counted from the call, so a move kept waiting for a free
  worker counts too). The worker stops itself at the deadline (``SIGALRM`` interrupts Python
  code); one that has not answered ``KILL_GRACE_S`` later (stuck in C code) is killed and
  replaced.
- ``died``: the worker process ended (killed, out of memory...): it is replaced at once and
  the other workers go on (a ``concurrent.futures.ProcessPoolExecutor`` would fail every move
  in flight and need rebuilding).
- ``failed``: the agent raised, or what it needs could not be sent or read back.

The static parts of a game (components, board geometry, the action space: objects a copy
shares with the live state) are sent to each worker once and then named by a number
(pickle's persistent ids): they are most of a state's bytes, and pickling them again at
every move would cost the event loop milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import multiprocessing
import os
import pickle
import signal
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.core.game import GameState

log = logging.getLogger("arabesque.server")

#: How long past its deadline a worker may take to stop before it is killed.
KILL_GRACE_S = 2.0
#: Static objects remembered at most; past it the registry starts afresh (a new
#: generation), and the workers drop theirs when they see the new generation.
MAX_STATICS = 4096


class BotPoolError(Exception):
    """A decision the pool could not deliver; ``kind`` is deadline, died or failed."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def default_worker_count() -> int:
    """Cores − 1, at least 1: one core stays for the event loop."""
    return max(1, (os.cpu_count() or 1) - 1)


# -- the worker process ----------------------------------------------------------------


class _OutOfTime(BaseException):
    """Raised in a worker by its alarm; a BaseException so an agent's ``except Exception``
    cannot swallow it."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _OutOfTime


def _worker_main(conn: Connection, nice: int) -> None:
    """A worker: decisions in, (action, agent) out, until the pipe closes."""
    # Ctrl-C on the server reaches the whole process group; the server stops its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, _on_alarm)
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)
    statics: dict[int, Any] = {}
    tokens: dict[int, int] = {}  # id(static) -> token, to name them in the agent sent back
    generation = -1
    while True:
        try:
            job_id, gen, new_statics, payload, budget_s = conn.recv()
        except (EOFError, OSError):
            return
        if gen != generation:
            statics.clear()
            tokens.clear()
            generation = gen
        reply: tuple[int, str, Any, bytes | None]
        try:
            for token, obj in pickle.loads(new_statics):
                statics[token] = obj
                tokens[id(obj)] = token
            agent, state, seat = _Unpickler(io.BytesIO(payload), statics).load()
            signal.setitimer(signal.ITIMER_REAL, max(budget_s, 0.001))
            try:
                action = agent.act(Observation(state, seat))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            reply = (job_id, "ok", int(action), _dumps(agent, tokens))
        except _OutOfTime:
            reply = (job_id, "deadline", f"no decision within {budget_s:.3f} s", None)
        except Exception as exc:  # the agent's own error, reported to the server
            reply = (job_id, "failed", f"{type(exc).__name__}: {exc}", None)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


# -- pickling with the statics named by number -----------------------------------------


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, tokens: dict[int, int], used: set[int]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._tokens = tokens
        self._used = used

    def persistent_id(self, obj: Any) -> int | None:
        token = self._tokens.get(id(obj))
        if token is not None:
            self._used.add(token)
        return token


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, statics: dict[int, Any]) -> None:
        super().__init__(file)
        self._statics = statics

    def persistent_load(self, pid: Any) -> Any:
        try:
            return self._statics[pid]
        except KeyError:
            raise pickle.UnpicklingError(f"unknown static object {pid!r}") from None


def _dumps(obj: Any, tokens: dict[int, int], used: set[int] | None = None) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, tokens, used if used is not None else set()).dump(obj)
    return buffer.getvalue()


# -- the pool, in the server -----------------------------------------------------------


@dataclass(eq=False)
class _Job:
    id: int
    agent: Agent
    state: GameState
    seat: int
    statics: tuple[Any, ...]
    deadline: float  # time.monotonic()
    future: asyncio.Future[tuple[int, Agent]]
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    #: Tokens of the statics this worker holds (in the pool's current generation).
    has: set[int] = field(default_factory=set)
    job: _Job | None = None
    #: The job is past its deadline and already failed; the worker is still on it.
    overdue: bool = False


class BotPool:
    """``size`` worker processes taking decisions in the order they were asked for."""

    def __init__(self, size: int, nice: int = 10) -> None:
        if size < 1:
            raise ValueError(f"a bot pool needs at least one worker, got {size}")
        self.size = size
        self.nice = nice
        self._context = multiprocessing.get_context("forkserver")
        # Workers start with the modules a decision needs already imported.
        self._context.set_forkserver_preload(["arabesque.server.botpool"])
        self._workers: list[_Worker] = []
        self._queue: deque[_Job] = deque()
        self._next_job = 0
        self._starting: asyncio.Future[None] | None = None
        self._replacing: set[asyncio.Future[None]] = set()
        self._closed = False
        # The statics registry: id(obj) -> token, token -> obj (kept alive, so an id is
        # never reused while it names a token).
        self._generation = 0
        self._token_of: dict[int, int] = {}
        self._static_of: dict[int, Any] = {}
        self._next_token = 0
        #: Counters for tests and the load benchmark.
        self.decided = 0
        self.deaths = 0
        self.deadlines = 0
        self.kills = 0
        #: Seconds the event loop spent sending decisions and reading answers.
        self.loop_s = 0.0

    # -- life --------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the workers (in a thread: the first start launches the fork server).
        Raises ``BotPoolError`` (failed) when they cannot start; the next call tries again."""
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        starting = self._starting
        try:
            await asyncio.shield(starting)
        except Exception as exc:
            if self._starting is starting:
                self._starting = None
            log.error("could not start the bot workers: %r", exc)
            raise BotPoolError("failed", f"could not start the bot workers: {exc!r}") from exc

    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        spawned = await asyncio.gather(
            *(loop.run_in_executor(None, self._spawn) for _ in range(self.size))
        )
        for process, conn in spawned:
            self._adopt(process, conn)
        self._dispatch()

    def _spawn(self) -> tuple[BaseProcess, Connection]:
        parent, child = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_worker_main, args=(child, self.nice), name="arabesque-bot", daemon=True
        )
        process.start()
        child.close()
        return process, parent

    def _adopt(self, process: BaseProcess, conn: Connection) -> None:
        if self._closed:
            conn.close()
            process.kill()
            return
        worker = _Worker(process, conn)
        self._workers.append(worker)
        asyncio.get_running_loop().add_reader(conn.fileno(), self._on_readable, worker)

    def worker_pids(self) -> list[int]:
        """The workers' process ids (tests kill one)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def busy_pids(self) -> list[int]:
        """The process ids of the workers deciding something now."""
        return [w.process.pid for w in self._workers if w.job is not None and w.process.pid]

    def close(self) -> None:
        """Stop every worker; decisions in flight or waiting fail as ``died``."""
        self._closed = True
        for worker in list(self._workers):
            self._drop(worker, "the server is shutting down")
        while self._queue:
            self._fail(self._queue.popleft(), "died", "the server is shutting down")

    # -- deciding ----------------------------------------------------------------------

    async def decide(
        self, agent: Agent, state: GameState, seat: int, deadline_s: float,
        statics: Iterable[Any] = (),
    ) -> tuple[int, Agent]:
        """``agent``'s action for ``seat`` on ``state`` (which must hold only what the seat
        may know), and the agent after it chose; ``statics``: objects of ``state`` that
        never change (sent to each worker once). Raises ``BotPoolError``."""
        if self._closed:
            raise BotPoolError("died", "the bot pool is closed")
        loop = asyncio.get_running_loop()
        job = _Job(self._next_job, agent, state, seat, tuple(statics),
                   time.monotonic() + deadline_s, loop.create_future())
        self._next_job += 1
        job.timer = loop.call_later(deadline_s, self._on_deadline, job)
        self._queue.append(job)
        if self._starting is None or not self._starting.done():
            try:
                await self.start()
            except BotPoolError as exc:
                job.timer.cancel()
                self._fail(job, exc.kind, str(exc))
        self._dispatch()
        try:
            return await job.future
        finally:
            if job.timer is not None:
                job.timer.cancel()

    def _dispatch(self) -> None:
        for worker in list(self._workers):  # a failed send drops its worker
            if not self._queue:
                return
            if worker.job is not None:
                continue
            job = self._queue.popleft()
            while job.future.done():  # failed by its deadline while it waited
                if not self._queue:
                    return
                job = self._queue.popleft()
            self._send(worker, job)

    def _register(self, statics: tuple[Any, ...]) -> None:
        if len(self._static_of) + len(statics) > MAX_STATICS:
            self._generation += 1
            self._token_of.clear()
            self._static_of.clear()
            for worker in self._workers:
                worker.has.clear()
        for obj in statics:
            if id(obj) not in self._token_of:
                token = self._next_token
                self._next_token += 1
                self._token_of[id(obj)] = token
                self._static_of[token] = obj

    def _send(self, worker: _Worker, job: _Job) -> None:
        started = time.perf_counter()
        try:
            self._send_job(worker, job)
        finally:
            self.loop_s += time.perf_counter() - started

    def _send_job(self, worker: _Worker, job: _Job) -> None:
        budget = job.deadline - time.monotonic()
        try:
            self._register(job.statics)
            used: set[int] = set()
            payload = _dumps((job.agent, job.state, job.seat), self._token_of, used)
            new = [(t, self._static_of[t]) for t in sorted(used - worker.has)]
            message = (job.id, self._generation, pickle.dumps(new, pickle.HIGHEST_PROTOCOL),
                       payload, budget)
        except Exception as exc:
            self._fail(job, "failed", f"could not send the decision: {exc!r}")
            return
        try:
            worker.conn.send(message)
        except OSError as exc:
            self._fail(job, "died", f"bot worker {worker.process.pid} is gone ({exc})")
            self._lost(worker)
            return
        worker.has.update(used)
        worker.job = job
        worker.overdue = False

    def _on_readable(self, worker: _Worker) -> None:
        started = time.perf_counter()
        try:
            self._read_answer(worker)
        finally:
            self.loop_s += time.perf_counter() - started

    def _read_answer(self, worker: _Worker) -> None:
        try:
            job_id, status, value, agent_blob = worker.conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError):
            self._lost(worker)
            return
        job = worker.job
        worker.job = None
        if job is not None and job.id == job_id and not job.future.done():
            if status == "ok":
                try:
                    agent = _Unpickler(io.BytesIO(agent_blob), self._static_of).load()
                except Exception as exc:
                    self._fail(job, "failed", f"could not read the agent back: {exc!r}")
                else:
                    self.decided += 1
                    job.future.set_result((value, agent))
            else:
                self._fail(job, "deadline" if status == "deadline" else "failed", value)
        self._dispatch()

    def _on_deadline(self, job: _Job) -> None:
        if job.future.done():
            return
        self.deadlines += 1
        self._fail(job, "deadline", "no decision before the deadline")
        for worker in self._workers:
            if worker.job is job:
                worker.overdue = True
                asyncio.get_running_loop().call_later(
                    KILL_GRACE_S, self._kill_if_stuck, worker, job
                )

    def _kill_if_stuck(self, worker: _Worker, job: _Job) -> None:
        if worker.job is job and worker in self._workers:
            log.warning("bot worker %s still busy %.1f s past a deadline: killing it",
                        worker.process.pid, KILL_GRACE_S)
            self.kills += 1
            worker.process.kill()

    def _lost(self, worker: _Worker) -> None:
        """A worker's pipe closed: the process died. Fail its move and start another."""
        if worker not in self._workers:
            return
        self.deaths += 1
        pid = worker.process.pid
        worker.process.join(0.1)
        log.warning("bot worker %s died (exit code %s); starting another",
                    pid, worker.process.exitcode)
        self._drop(worker, f"bot worker {pid} died")
        if not self._closed:
            task = asyncio.ensure_future(self._replace())
            self._replacing.add(task)
            task.add_done_callback(self._replacing.discard)

    async def _replace(self) -> None:
        try:
            process, conn = await asyncio.get_running_loop().run_in_executor(None, self._spawn)
        except Exception:
            log.exception("could not start a bot worker")
            return
        self._adopt(process, conn)
        self._dispatch()

    def _drop(self, worker: _Worker, reason: str) -> None:
        with contextlib.suppress(ValueError):
            self._workers.remove(worker)
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        if worker.job is not None:
            self._fail(worker.job, "died", reason)
            worker.job = None
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()

    def _fail(self, job: _Job, kind: str, message: str) -> None:
        if not job.future.done():
            job.future.set_exception(BotPoolError(kind, message))
