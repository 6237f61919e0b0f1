"""Group commit: the actions of the tables that move at the same time go to the database in
one transaction (one fsync for all), each still acknowledged only once its own transaction
is committed. The hub owns one (``Hub.commit``) and writes with its database pool.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from arabesque.server.connection import BACKGROUND
from arabesque.server.store import Append

if TYPE_CHECKING:
    from arabesque.server.hub import Hub


class GroupCommit:
    """Commits the actions of many tables together: appends queued within one turn of the
    event loop, and those queued while the previous commit was being written, go to the
    database in one transaction (one fsync for all). Each ``append`` still returns only
    once its own actions are committed, and raises what its own append met (an append
    refused in a shared transaction is retried alone, so it does not fail the others)."""

    def __init__(self, hub: Hub, concurrency: int) -> None:
        self.hub = hub
        #: Transactions being written at once (1 for SQLite: a single writer anyway).
        self.concurrency = concurrency
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._writing = 0
        self._scheduled = False

    async def append(self, append: Append) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((append, future))
        if not self._scheduled:
            # Not at once: the other appends of this turn of the loop join the batch.
            self._scheduled = True
            loop.call_soon(self._flush)
        await future

    def _flush(self) -> None:
        self._scheduled = False
        while self._pending and self._writing < self.concurrency:
            batch, self._pending = self._pending, []
            self._writing += 1
            task = asyncio.get_running_loop().create_task(self._write(batch))
            BACKGROUND.add(task)
            task.add_done_callback(BACKGROUND.discard)

    async def _write(self, batch: list[tuple[Append, asyncio.Future[None]]]) -> None:
        try:
            results: list[Exception | None] = await self.hub.db(
                self.hub.store.append_many, [append for append, _ in batch]
            )
        except Exception as exc:  # the pool is gone (shutdown)...: every append failed
            results = [exc] * len(batch)
        except BaseException:
            for _, future in batch:
                future.cancel()
            raise
        finally:
            self._writing -= 1
            # What was queued meanwhile is written next, as one batch.
            if self._pending and not self._scheduled:
                self._flush()
        for (_, future), error in zip(batch, results, strict=True):
            if future.done():  # its waiter was cancelled
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)
