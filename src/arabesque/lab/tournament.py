"""Tournaments: who sits where, the pairwise win matrix, and ratings with intervals.

Seat assignment (a *cycle* of line-ups, one per seed, ``Plan.lineup``):

* ``round-robin``: every choice of ``players`` agents (distinct agents when there are
  enough of them; otherwise every mix of at least two different agents) in each of its
  ``players`` rotations, so every agent sits in every seat equally often over a cycle.
* ``one-vs-all``: the first agent is the field; every other agent in turn takes one seat
  against the field in the others, rotated through every seat (e.g. a variant of a bot
  against the plain bot).

Ratings are openskill's Plackett–Luce model (multiplayer, from each game's ranking), the
games taken in seed order; their 95% intervals come from a bootstrap over games (games
drawn with replacement and shuffled, since a sequential rating depends on the order).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MODES = ("round-robin", "one-vs-all")


def _rotations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    n = len(lineup)
    return [tuple(lineup[(i + r) % n] for i in range(n)) for r in range(n)]


def tournament_lineups(agents: Sequence[str], players: int, mode: str) -> list[tuple[str, ...]]:
    """One cycle of line-ups (see the module's docstring)."""
    if mode not in MODES:
        raise ValueError(f"unknown tournament mode {mode!r}; known: {', '.join(MODES)}")
    if players < 2:
        raise ValueError(
            f"a tournament needs 2 players or more, got {players}: use simulate for solo games"
        )
    names = list(agents)
    if len(set(names)) != len(names):
        raise ValueError(f"an agent is named twice in {','.join(names)}")
    if len(names) < 2:
        raise ValueError("a tournament needs two agents or more, e.g. --agents heuristic,random")
    cycle: list[tuple[str, ...]] = []
    if mode == "one-vs-all":
        field, challengers = names[0], names[1:]
        for challenger in challengers:
            cycle.extend(_rotations([challenger] + [field] * (players - 1)))
        return cycle
    if len(names) >= players:
        groups: list[tuple[str, ...]] = list(itertools.combinations(names, players))
    else:
        groups = [
            g for g in itertools.combinations_with_replacement(names, players) if len(set(g)) > 1
        ]
    for group in groups:
        cycle.extend(_rotations(group))
    return cycle


@dataclass(frozen=True)
class GameOutcome:
    """What ratings and the win matrix need of one game: agent and rank per seat."""

    seed: int
    agents: tuple[str, ...]
    ranks: tuple[int, ...]


def outcomes_from_seats(seats: Any) -> list[GameOutcome]:
    """From a seats table (pyarrow), one outcome per game in seed order."""
    by_seed: dict[int, list[tuple[int, str, int]]] = {}
    for row in seats.select(["seed", "seat", "agent", "rank"]).to_pylist():
        by_seed.setdefault(row["seed"], []).append((row["seat"], row["agent"], row["rank"]))
    out = []
    for seed in sorted(by_seed):
        rows = sorted(by_seed[seed])
        out.append(GameOutcome(seed, tuple(a for _, a, _ in rows), tuple(r for _, _, r in rows)))
    return out


def win_matrix(
    outcomes: Sequence[GameOutcome], agents: Sequence[str]
) -> tuple[list[list[float | None]], list[list[int]]]:
    """``share[i][j]``: of the meetings of agents i and j in a game (every pair of seats
    they held), the share where i finished ahead of j, a tie counting half; ``meetings``
    how many there were (None share: they never met)."""
    index = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    ahead = [[0.0] * k for _ in range(k)]
    meetings = [[0] * k for _ in range(k)]
    for game in outcomes:
        for s, t in itertools.permutations(range(len(game.agents)), 2):
            i, j = index[game.agents[s]], index[game.agents[t]]
            if i == j:
                continue
            meetings[i][j] += 1
            if game.ranks[s] < game.ranks[t]:
                ahead[i][j] += 1.0
            elif game.ranks[s] == game.ranks[t]:
                ahead[i][j] += 0.5
    share: list[list[float | None]] = [
        [ahead[i][j] / meetings[i][j] if meetings[i][j] else None for j in range(k)]
        for i in range(k)
    ]
    return share, meetings


def _rate(outcomes: Sequence[GameOutcome], agents: Sequence[str]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per agent after rating ``outcomes`` in order. An agent in several seats
    of one game is rated as each of them, and its new rating is the mean of theirs."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    for game in outcomes:
        teams = [[model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma)] for a in game.agents]
        new = model.rate(teams, ranks=list(game.ranks))
        gathered: dict[str, list[tuple[float, float]]] = {}
        for a, team in zip(game.agents, new, strict=True):
            gathered.setdefault(a, []).append((team[0].mu, team[0].sigma))
        for a, values in gathered.items():
            mu = sum(m for m, _ in values) / len(values)
            sigma = sum(s for _, s in values) / len(values)
            ratings[a] = model.rating(mu=mu, sigma=sigma)
    return {a: (r.mu, r.sigma) for a, r in ratings.items()}


def ratings(
    outcomes: Sequence[GameOutcome],
    agents: Sequence[str],
    bootstrap: int = 100,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Per agent: openskill's mu and sigma over the games in seed order, and the 95%
    bootstrap interval of mu (``bootstrap`` resamples; 0 for none), best first."""
    base = _rate(outcomes, agents)
    samples: dict[str, list[float]] = {a: [] for a in agents}
    rng = random.Random(seed)
    for _ in range(bootstrap if outcomes else 0):
        drawn = [outcomes[rng.randrange(len(outcomes))] for _ in outcomes]
        present = {a for game in drawn for a in game.agents}
        for a, (mu, _sigma) in _rate(drawn, agents).items():
            # A resample without the agent's games says nothing of it (its mu would stay
            # the prior's), so it does not count towards the agent's interval.
            if a in present:
                samples[a].append(mu)
    rows: list[dict[str, Any]] = []
    for a in agents:
        mu, sigma = base[a]
        values = sorted(samples[a])
        interval = [_quantile(values, 0.025), _quantile(values, 0.975)] if values else [None, None]
        rows.append(
            {
                "agent": a,
                "mu": mu,
                "sigma": sigma,
                "ordinal": mu - 3 * sigma,
                "mu_ci95": interval,
                "games": sum(1 for g in outcomes if a in g.agents),
            }
        )
    rows.sort(key=lambda r: -r["mu"])
    return rows


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)
