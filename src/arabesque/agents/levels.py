"""The search bot's levels: ``easy``, ``medium`` and ``hard``, fixed budgets of ``ismcts``.

Budgets count forward-model calls (``fm``), so a level plays the same on any machine and a
seed reproduces its games; ``ms`` is only a safety deadline, far above the usual time. The
levels cut rollouts at 8 steps rather than ``ismcts``'s default 30: against ``heuristic`` at
2 players with fm=3000, Ali Baba went from 0/6 wins (mean 80 points to 128) at 30 to 1/6
(100 to 110) at 8, and Magic Lamp from a mean of 16 points to 26 (0/4 wins either way). A
game may register its own tuning of a level from its ``bots`` package (the registry prefers
a game's own entry).
"""

from __future__ import annotations

from typing import Any

from arabesque.agents.ismcts import IsmctsAgent

#: name -> (ismcts options, one-line description).
LEVELS: dict[str, tuple[dict[str, Any], str]] = {
    "easy": (
        {"fm": 1500, "horizon": 8, "ms": 5000},
        "search bot, easy: a short look ahead (1,500 simulated moves a decision)",
    ),
    "medium": (
        {"fm": 6000, "horizon": 8, "ms": 10000},
        "search bot, medium: about 6,000 simulated moves a decision",
    ),
    "hard": (
        {"fm": 24000, "horizon": 8, "ms": 20000},
        "search bot, hard: about 24,000 simulated moves a decision (slower)",
    ),
}


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
