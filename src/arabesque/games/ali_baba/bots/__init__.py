"""A heuristic Ali Baba bot that decides from its seat's view only.

Its model of the game, in short:

* **Sets.** A player holding ``c`` tiles of a kind, with ``a`` tiles of it still able to
  come (face up, unknown and not in the box, or set aside), expects a share ``q`` of them:
  its future tiles (turns left, exact once the last turn is known, scaled by ``hope``) over
  the tiles on the board. Taking a tile of the kind is worth its marginal set points
  (``c + 1``: 1/3/6/10/15/21 -> 1, 2, 3 ...) plus what it adds to the ``q(a - 1)`` others
  expected, if the tile would otherwise be gone; if it would wait for the player, only the
  gain in the expected set points of ``c + Binomial(a, q)``, ``(1 - q)(c + aq + 1 - q)``.
  ``urgency`` is the chance a tile left on the board is gone.
* **Effects.** Pink 5; blue 2 per tile the take flips (from the pyramid geometry, which the bot
  derives from the places' coordinates in the view), or 2 for a bottom tile; brown 2 per tile
  of the kind held; green the best adjacent tile taken along; yellow the best of the tiles the
  rivals would show, each rival assumed to show what helps the bot least (softened by what the
  bot has seen rivals show before), scaled by ``steal``; white the drop in the rivals' best
  options.
* **Denial.** Every tile the bot collects is one its rivals cannot: their lost expected set
  points count (``denial``), optionally more for the leader (``leader``).
* **Tempo.** What the take leaves to the next players: their best option afterwards, with the
  tiles the take flips drawn from the unknown pool (``tempo``, and ``later`` for players
  after the next). This penalises flipping tiles for the next player and rewards taking what
  the next player wants most; the white effect is valued the same way.

Every collected tile was seen face up when taken, so the view is complete public knowledge;
the bot's memory across calls (reset when a new game starts) only keeps what it has seen
rivals show to its yellow tiles. The tile set (kinds, colours, effects) and the pyramid's
geometry are the game's public static data, read from the observation (``obs.public``); the
bot dispatches on the kind of its seat's decision (the core's decision model).

The package, by job:

* ``evaluation``: what sets and effects are worth, in numbers: the set-point formulas
  (``set_gain`` ...), the rough effect values, the agent's ``Weights``.
* ``position``: the bot's picture of its view (``Position``): the pyramid, what each player
  holds, what may still come and who expects which share of it, the bans in force, and the
  board after a hypothetical removal.
* ``search``: looking one turn ahead: what the rivals to play can make of the board after
  the bot's turn, and the value of each way to end a take (effects included).
* ``policy``: ``HeuristicAgent``: dispatches on the decision's kind; its handlers rank the
  options with the above.

This module registers the agent (the agent registry imports ``<game package>.bots``).
"""

from __future__ import annotations

from arabesque.agents.evaluation import register_evaluation
from arabesque.agents.registry import register_agent
from arabesque.games.ali_baba.bots.evaluation import set_gain
from arabesque.games.ali_baba.bots.policy import HeuristicAgent
from arabesque.games.ali_baba.bots.position import Position
from arabesque.games.ali_baba.bots.rollout_value import evaluate, evaluate_all

register_agent(
    "ali-baba", "heuristic", HeuristicAgent, "hand-written rules of thumb, from its seat's view"
)
register_evaluation("ali-baba", evaluate, evaluate_all)

__all__ = ["HeuristicAgent", "Position", "evaluate", "set_gain"]
