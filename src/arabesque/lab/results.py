"""One game played for the lab, and the rows it leaves: one per seat, one for the game.

The rows are plain dicts in the shape of the Parquet schemas below (docs/designers.md lists
every column). Each agent is seeded from the game seed and its seat only
(``arabesque.sim.batch.agent_seed``), as in ``simulate``, so a seed gives the same game
whatever process or machine plays it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from arabesque import __version__
from arabesque.agents.registry import make_agent
from arabesque.core.game import DataFileParams, Params
from arabesque.core.registry import get_game
from arabesque.lab.metrics import game_metrics
from arabesque.sim.batch import agent_seed
from arabesque.sim.runner import play_game

#: Raised whenever a column is added, removed or changes meaning; a results folder written
#: with another version is refused rather than mixed.
SCHEMA_VERSION = 1

SEATS_SCHEMA = pa.schema(
    [
        ("game", pa.string()),
        ("params", pa.string()),
        ("seed", pa.int64()),
        ("seat", pa.int32()),
        ("agent", pa.string()),
        ("lineup", pa.string()),
        ("score", pa.int64()),
        ("breakdown", pa.map_(pa.string(), pa.float64())),
        ("rank", pa.int32()),
        ("won", pa.bool_()),
        ("actions", pa.int32()),
        ("turns", pa.int32()),
        ("decisions", pa.int32()),
        ("think_ms_mean", pa.float64()),
        ("think_ms_max", pa.float64()),
        ("think_ms_total", pa.float64()),
        ("engine_version", pa.string()),
    ],
    metadata={"arabesque_schema": str(SCHEMA_VERSION), "table": "seats"},
)

GAMES_SCHEMA = pa.schema(
    [
        ("game", pa.string()),
        ("params", pa.string()),
        ("seed", pa.int64()),
        ("lineup", pa.list_(pa.string())),
        ("players", pa.int32()),
        ("actions", pa.int32()),
        ("turns", pa.int32()),
        ("end_reason", pa.string()),
        ("winners", pa.list_(pa.int32())),
        ("metrics", pa.map_(pa.string(), pa.float64())),
        ("seconds", pa.float64()),
        ("engine_version", pa.string()),
    ],
    metadata={"arabesque_schema": str(SCHEMA_VERSION), "table": "games"},
)


def params_record(game_id: str, params: Params) -> dict[str, Any]:
    """The params as the results store them: the data file (components) named by the digest
    of its content, not by a path, so two runs on the same file compare equal wherever the
    file lies, and ``components_digest`` says which data the games used (the built-in data
    included)."""
    spec = get_game(game_id)
    spec.validate_params(params)
    data = params.to_json()
    if isinstance(params, DataFileParams) and params.DATA_PARAM is not None:
        data[params.DATA_PARAM] = params.data_identity()
    digest = spec.new_game(params, seed=0).data_digest()
    if digest is not None:
        data["components_digest"] = digest
    return data


def params_text(record: Mapping[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def play_lab_game(
    game_id: str,
    params_json: Mapping[str, Any],
    params_stored: str,
    lineup: Sequence[str],
    seed: int,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play one game; its games row and its seat rows. ``params_json`` builds the params
    (it may name a file); ``params_stored`` is what the rows say (``params_text``)."""
    spec = get_game(game_id)
    params = spec.make_params(**params_json)
    agents = [make_agent(a, game_id, seed=agent_seed(seed, seat)) for seat, a in enumerate(lineup)]
    n = params.num_players
    times: list[list[float]] = [[] for _ in range(n)]

    def on_decision(seat: int, seconds: float) -> None:
        times[seat].append(seconds * 1000.0)

    start = time.perf_counter()
    # The metrics read the event log, so it is kept.
    state = play_game(spec, params, agents, seed, log_events=True, on_decision=on_decision)
    seconds = time.perf_counter() - start
    metrics = game_metrics(game_id)
    turn = state.view(None, include_log=False).get("turn")
    turns = turn if isinstance(turn, int) and not isinstance(turn, bool) else None
    scores = state.scores()
    ranking = state.ranking()
    won = [r >= 1.0 for r in state.returns()]
    actions = [0] * n
    for seat, _action in state.history:
        actions[seat] += 1
    lineup_text = ",".join(lineup)
    game_row = {
        "game": game_id,
        "params": params_stored,
        "seed": seed,
        "lineup": list(lineup),
        "players": n,
        "actions": len(state.history),
        "turns": turns,
        "end_reason": metrics.end_reason(state),
        "winners": [p for p in range(n) if won[p]],
        "metrics": {k: float(v) for k, v in metrics.measure(state).items()},
        "seconds": seconds,
        "engine_version": __version__,
    }
    seat_rows = []
    for seat in range(n):
        ms = times[seat]
        seat_rows.append(
            {
                "game": game_id,
                "params": params_stored,
                "seed": seed,
                "seat": seat,
                "agent": lineup[seat],
                "lineup": lineup_text,
                "score": scores[seat].total,
                "breakdown": {k: float(v) for k, v in scores[seat].breakdown.items()},
                "rank": ranking[seat],
                "won": won[seat],
                "actions": actions[seat],
                "turns": turns,
                "decisions": len(ms),
                "think_ms_mean": sum(ms) / len(ms) if ms else None,
                "think_ms_max": max(ms) if ms else None,
                "think_ms_total": sum(ms),
                "engine_version": __version__,
            }
        )
    return game_row, seat_rows
