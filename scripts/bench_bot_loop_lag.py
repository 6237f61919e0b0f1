#!/usr/bin/env python3
"""How late an event loop runs while CPU-heavy bots think in threads or in the bot workers.

One process, no server: a probe sleeps 2 ms on the event loop again and again and records how
late it wakes (the lag every websocket frame and acknowledgement of the server would see),
while ``--bots`` bots of ``--agent`` (default ``burn:ms=100``, tests/cpu_burn_agent.py: a
stand-in for a search bot, pure-Python CPU) decide move after move, either in a thread pool
(how the server ran bots before issue 19) or through ``server/botpool.py``'s worker process
(``--workers``, at nice 10), each phase ``--seconds`` long, in the order given by
``--phases``. The isolated view of what bench_server_load.py's ``--cpu-bot-tables`` measures
end to end.

    PYTHONPATH=src python3 scripts/bench_bot_loop_lag.py
    PYTHONPATH=src python3 scripts/bench_bot_loop_lag.py --phases workers,none,threads,workers,none
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tests.cpu_burn_agent  # noqa: F401  (registers ``burn``)

from arabesque.agents.base import Observation
from arabesque.agents.registry import make_agent
from arabesque.core.registry import get_game
from arabesque.server.botpool import BotPool, BotPoolError
from arabesque.server.botrunner import shared_statics

GAME = "ali-baba"
PROBE_S = 0.002


async def lag_probe(seconds: float) -> list[float]:
    """Lateness of each ``PROBE_S`` sleep, in ms, for ``seconds``."""
    lags = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        started = time.perf_counter()
        await asyncio.sleep(PROBE_S)
        lags.append((time.perf_counter() - started - PROBE_S) * 1000)
    return sorted(lags)


async def start_bots(
    mode: str, stop: asyncio.Event, pool: BotPool, threads: ThreadPoolExecutor,
    args: argparse.Namespace,
) -> tuple[list[asyncio.Task[None]], Callable[[], int]]:
    spec = get_game(GAME)
    state = spec.new_game(spec.make_params(num_players=2), args.seed)
    seat = min(state.to_act())
    loop = asyncio.get_running_loop()
    moves = 0

    async def bot(index: int) -> None:
        nonlocal moves
        agent = make_agent(args.agent, GAME, index)
        rng = random.Random(index)
        while not stop.is_set():
            seen = state.determinize(seat, rng)
            if mode == "threads":
                await loop.run_in_executor(threads, agent.act, Observation(seen, seat))
            else:
                statics = shared_statics(state, seen)
                try:
                    _, agent = await pool.decide(agent, seen, seat, args.deadline, statics)
                except BotPoolError:
                    continue
            moves += 1

    return [asyncio.create_task(bot(i)) for i in range(args.bots)], lambda: moves


async def run(args: argparse.Namespace) -> None:
    pool = BotPool(args.workers)
    await pool.start()
    threads = ThreadPoolExecutor(2)
    print(f"{args.bots} bots of {args.agent}; {args.workers} worker(s); "
          f"load average {os.getloadavg()[0]:.1f} at start")
    print("phase      lag p50 ms  lag p99 ms  lag max ms  probes  bot moves/s")
    try:
        for mode in args.phases.split(","):
            stop = asyncio.Event()
            tasks: list[asyncio.Task[None]] = []
            count: Callable[[], int] = lambda: 0  # noqa: E731
            if mode != "none":
                tasks, count = await start_bots(mode, stop, pool, threads, args)
            lags = await lag_probe(args.seconds)
            moves = count()
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            p50, p99 = lags[len(lags) // 2], lags[int(len(lags) * 0.99)]
            print(f"{mode:9s}  {p50:10.2f}  {p99:10.2f}  {lags[-1]:10.2f}  {len(lags):6d}  "
                  f"{moves / args.seconds:11.1f}")
    finally:
        pool.close()
        threads.shutdown(wait=False, cancel_futures=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end; worker moves missed: "
          f"{pool.deadlines} deadlines, {pool.deaths} deaths")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--phases", default="none,threads,workers,none",
                   help="comma-separated: none, threads, workers (default none,threads,"
                   "workers,none)")
    p.add_argument("--bots", type=int, default=4, help="bots deciding at once (default 4)")
    p.add_argument("--agent", default="burn:ms=100")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--deadline", type=float, default=5.0)
    p.add_argument("--seconds", type=float, default=8.0, help="per phase (default 8)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    for mode in args.phases.split(","):
        if mode not in ("none", "threads", "workers"):
            p.error(f"unknown phase {mode!r}; phases are none, threads, workers")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
