"""The search bot's levels: ``easy``, ``medium`` and ``hard``, fixed budgets of ``ismcts``
guided by the game's ``heuristic`` agent.

Budgets count forward-model calls (``fm``), so a level plays the same on any machine and a
seed reproduces its games; ``ms`` is only a safety deadline, far above the usual time. The
levels cut rollouts at 8 steps rather than ``ismcts``'s default 30: against ``heuristic`` at
2 players with fm=3000, Ali Baba went from 0/6 wins (mean 80 points to 128) at 30 to 1/6
(100 to 110) at 8, and Magic Lamp from a mean of 16 points to 26 (0/4 wins either way).

Unguided, ``medium`` lost to ``heuristic`` (Ali Baba 8/20, Magic Lamp 7/20 at 2 players), so
the levels search from the heuristic's choice (``prior=heuristic``, knowledge-guided search:
Chaslot et al.'s progressive bias): it is searched first with a bias, and played unless the
search's most visited option is worth ``margin`` more. The heuristic reads only the seat's
view, like the search. ``depth=2`` also asks a fresh heuristic at the nodes two steps
below the root (the rivals' likely replies). Ali Baba at 2 players, seats rotated, 40 games
on seeds 1000-1039 (``scripts/search_strength.py``), where ``heuristic`` itself wins 19 in
its mirror: 22 wins with the root prior alone at horizon 8 (other seeds), 21 at horizon 2,
17 at horizon 0, 19 with a to-move term in the evaluation (dropped), 24 with ``depth=2``;
and ``depth=2`` won 24 of 40 again on seeds 2000-2039 (the mirror: 22).

A game may register its own tuning of a level from its ``bots`` package (the registry
prefers a game's own entry).
"""

from __future__ import annotations

from typing import Any

from arabesque.agents.ismcts import IsmctsAgent

#: What every level shares: the heuristic's guidance, rollouts cut at 8 steps.
GUIDED: dict[str, Any] = {
    "horizon": 8,
    "prior": "heuristic",
    "bias": 0.5,
    "margin": 0.03,
    "depth": 2,
}

#: The safety deadline of each level, far above its usual time per decision.
_DEADLINE_MS = {"easy": 5000, "medium": 10000, "hard": 20000}


def guided_levels(
    easy: int, medium: int, hard: int, **options: Any
) -> dict[str, tuple[dict[str, Any], str]]:
    """The three levels at these ``fm`` budgets: name -> (ismcts options, one-line
    description), with the heuristic's guidance (``GUIDED``) and ``options`` over it."""
    budgets = {"easy": easy, "medium": medium, "hard": hard}
    out: dict[str, tuple[dict[str, Any], str]] = {}
    for name, fm in budgets.items():
        about = "" if name == "easy" else "about "
        slower = " (slower)" if name == "hard" else ""
        out[name] = (
            {"fm": fm, **GUIDED, **options, "ms": _DEADLINE_MS[name]},
            f"search bot, {name}: checks the heuristic's move with {about}{fm:,} simulated "
            f"moves{slower}",
        )
    return out


#: name -> (ismcts options, one-line description).
LEVELS: dict[str, tuple[dict[str, Any], str]] = guided_levels(1500, 6000, 24000)


def level_factory(options: dict[str, Any], agent_type: type[IsmctsAgent] = IsmctsAgent) -> Any:
    """A factory building ``ismcts`` (or a game's subclass, ``agent_type``) with a level's
    options; options given in the spec (``medium:horizon=40``) override them, and a budget
    given replaces the level's."""

    def make(seed: int | None = None, **given: Any) -> IsmctsAgent:
        merged = dict(options)
        if "fm" in given or "iters" in given:
            merged.pop("fm", None)
            merged.pop("iters", None)
        merged.update(given)
        return agent_type(seed=seed, **merged)

    return make
