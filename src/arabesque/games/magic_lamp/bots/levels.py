"""Magic Lamp's tuning of the search levels (``easy``, ``medium``, ``hard``), registered by the
package over the generic ones (agents/levels.py).

* **No rollouts** (``horizon=0``): the evaluation (rollout_value.py) values what a turn still
  promises in expectation (searches by the push-your-luck programme over the chests' public
  compositions, wishes, effects under way), so a leaf is valued where the tree reached it;
  moves played below it only add the noise of the cards drawn. Against ``heuristic`` at 2
  players, 40 games each, this evaluation won 16 (mean score 41.7 to 57.5) without
  rollouts, 15 (41.1 to 57.5) with rollouts of 4 steps and 9 (33.9 to 68.2) with 8, both
  played by a sensible policy (dice by expected cards, the programme's draw/stop).
* **The lamp race answered by the rules**: rubbing is worth a won race's wishes when the seat
  shows a shared face, and an angry Genie's theft when it does not; the search, weighing
  react / don't by regret matching against noisy subtrees (values far from 0.5 when a seat
  is well ahead or behind), declined a rightful rub about a third of the time, which cost
  about 10 points a game. Answered by the rules, medium won 22 of 40 (48.6 to 50.0). The
  reaction time is still drawn from the agent's profile, never below its floor.
* **Guided by the heuristic** like every game's levels (agents/levels.py): on seeds
  7000-7039, 2 players, medium won 28 of 40 with the guidance (57.3 points to 47.5) and 18
  of 40 without it (45.2 to 53.7).

Measured with these levels (scripts/search_strength.py, seeds 1000 and 5000, heuristic in
the other seats): medium won 52 of 100 games at 2 players (fair share 50%; the generic
levels won 7 of 20), 15 of 60 at 3 (33%) and 10 of 40 at 4 (25%). ``c=0.3`` and
``gamma=0.03`` did worse at 3 players (12 of 60 each).
"""

from __future__ import annotations

from typing import Any

from arabesque.agents.base import Observation
from arabesque.agents.ismcts import IsmctsAgent, reaction_action
from arabesque.agents.levels import guided_levels, level_factory

#: name -> (ismcts options, one-line description): the generic levels' budgets and guidance
#: by the heuristic (agents/levels.py), without rollouts.
LEVELS: dict[str, tuple[dict[str, Any], str]] = guided_levels(1500, 6000, 24000, horizon=0)


class MagicLampSearchAgent(IsmctsAgent):
    """``ismcts`` for Magic Lamp: every decision searched but the lamp race, where the seat
    rubs exactly when one of its faces is shared (read from its view, public since the
    reveal)."""

    def act(self, obs: Observation) -> int:
        reaction = obs.decision.reaction if len(obs.legal) > 1 else None
        if reaction is None:
            return super().act(obs)
        view = obs.view
        shared = set(view["shared_faces"] or ())
        dice = view["players"][obs.seat]["dice"] or ()
        if not any(int(d["face"]) in shared for d in dice):
            return reaction.none
        return reaction_action(reaction, self.config.profile, self.rng)


def make_level(options: dict[str, Any]) -> Any:
    """The factory of a level: ``MagicLampSearchAgent`` with its options (agents/levels.py)."""
    return level_factory(options, MagicLampSearchAgent)
