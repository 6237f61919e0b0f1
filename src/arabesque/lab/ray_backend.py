"""``--backend ray``: the same chunks of seeds as the local pool, played as Ray tasks.

A chunk's games depend only on its seeds, line-ups and params (agents are seeded from the
game seed and seat), so a chunk gives the same rows on any node. The driver keeps a window of
chunks in flight (twice the cluster's CPUs) and writes each as it comes back; Ctrl-C stops
submitting, cancels what is pending and keeps the chunks already written.

Ray connects to ``--ray-address`` or ``RAY_ADDRESS`` (a running cluster), or starts a local
one. Every node needs arabesque installed (with the same version) and, for a components file,
that file at the same path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Rows = tuple[list[dict[str, Any]], list[dict[str, Any]]]


def _need_ray() -> Any:
    try:
        import ray
    except ModuleNotFoundError:
        raise ValueError("--backend ray needs Ray: pip install 'arabesque[ray]'") from None
    return ray


def ensure_ray(address: str | None) -> Any:
    """Ray, connected: to ``address`` (or ``RAY_ADDRESS``), else a local instance. A session
    already started (tests start ``ray.init(num_cpus=2)``) is used as it is."""
    ray = _need_ray()
    if not ray.is_initialized():
        target = address or os.environ.get("RAY_ADDRESS") or None
        # The driver's import path goes to the workers, so a checkout run with PYTHONPATH
        # (not installed) works on a local Ray too.
        path = os.environ.get("PYTHONPATH")
        runtime_env = {"env_vars": {"PYTHONPATH": path}} if path else None
        ray.init(address=target, runtime_env=runtime_env, log_to_driver=False)
    return ray


def play_chunks_on_ray(
    play_chunk: Callable[..., Rows],
    game_id: str,
    params_json: Mapping[str, Any],
    params_stored: str,
    chunks: Sequence[Sequence[tuple[int, tuple[str, ...]]]],
    write: Callable[[Rows], None],
    address: str | None = None,
) -> bool:
    """Play ``chunks`` as Ray tasks, calling ``write`` with each chunk's rows as it ends;
    True if Ctrl-C stopped the run (the chunks written by then are kept)."""
    ray = ensure_ray(address)
    remote = ray.remote(max_retries=1)(play_chunk)
    window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    todo = list(chunks)
    pending: list[Any] = []
    try:
        while todo or pending:
            while todo and len(pending) < window:
                chunk = todo.pop(0)
                pending.append(remote.remote(game_id, dict(params_json), params_stored, chunk))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                write(ray.get(ref))
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        return True
    return False
