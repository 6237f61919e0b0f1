"""Djinn's tuning of the search levels (``easy``, ``medium``, ``hard``), registered by the
package over the generic ones (agents/levels.py): the same guidance by the heuristic and
rollouts of 8 steps, at a quarter of the generic budgets.

Why smaller budgets: a Djinn step costs three to four times an Ali Baba step (every step
recomputes the decision on top, side actions included), and a seat makes about 200 searched
decisions a game, many of them the small steps of one turn (a path walked space by space, the
Djinn of a catch selected one at a time). At the generic ``medium`` (6,000 forward-model calls
a decision) a 2-player game against ``heuristic`` took about 70 s on one core of the idle VM,
so the strength table's Djinn cells (2-4 players and two solo decks, 100 games each) would
need about 9 core-hours for ``medium`` alone. At 1,500 the same game took 20 s.

``hard`` keeps the generic ``medium``'s budget, which won 15 of 20 two-player games against
``heuristic`` (README, *Search bots*).
"""

from __future__ import annotations

from typing import Any

from arabesque.agents.levels import guided_levels

#: name -> (ismcts options, one-line description).
LEVELS: dict[str, tuple[dict[str, Any], str]] = guided_levels(400, 1500, 6000)
