"""A heuristic Djinn bot that decides from its seat's view only.

Its model of the game, in short:

* **Points.** A Djinn in a corked bottle is worth 10, in a spell circle 3 (counted a little
  higher, since it can be sealed into a bottle later). Magic, coins, scrolls, corks, bottles,
  keys and cards are valued by what they are for: magic by the room left under the maximum
  (magic gained above it is lost), a bottle by how many Djinn of its colour are on the map
  and in the bot's circles, a cork by how many empty bottles wait for one.
* **Catching.** At a round space the bot enumerates every selection of the Djinn there,
  keeps those it can place (bottles of the colour with a cork, empty circles; bosses fit any
  bottle) and pay (its magic plus active Mage cards within its coins, as the rules compute
  strength: 4 per Djinn, a boss 2 more per other Djinn at the space), and values each by
  points, the free Djinn a boss brings and the bosses it removes from the map (which ends
  the game, and wins a solo game against Tom), minus what it spends. It then selects the
  chosen Djinn one at a time and pays with the cheapest mix of cards and magic.
* **Moving.** Each reachable space is valued by its actions (location, own passage, the
  catch with the resources the location action brings first) plus a discounted look one
  move further, where the next move may not go back.
* **Side actions.** Djinn in circles are sealed into bottles whenever possible, trophies are
  claimed when offered (the best one), once-only Equipment is used when its reward is not
  wasted, keys become magic when that makes a catch possible.
* **Scoring cards.** Gains that help or spoil a scoring card that is out count for or
  against it (keys, capacity, passages, keyed Mage cards, Equipment ...).
* **Solo.** Removing a boss weighs much more (it is the race against Tom), magic spent on a
  Djinn that brings no boss nearer counts double, and a round-space turn that cannot reach a
  boss costs one of Tom's cards.

Measured (docs/balance/djinn.md): 100 of 100 games won against random players at 2 and at 4
players; 0.5-0.9 ms per decision.

Everything it reads is public: the view (the map, every player's board, the displays) and
the components (``obs.public``). It dispatches on its decision's kind. ``favour=<location>``
makes it value one location more, which the balance script uses to test for a dominant
location.

The package, in the order its modules build on one another:

* ``position``: the bot's picture of the view (players' boards, the map, the displays) as
  counts;
* ``evaluation``: the weights and the value model (items, the kit of bottles and corks,
  cards, Equipment, chests, locations, the scoring cards out);
* ``search``: the catch (selections, placement, payment, the knapsack) and the move
  look-ahead;
* ``policy``: ``HeuristicAgent``, its dispatch on the decision's kind and the handlers that
  rank the options.

* ``levels``: Djinn's budgets of the search levels ``easy``, ``medium`` and ``hard``.

Importing the package registers the agent as ``heuristic`` and the levels (the agent
registry imports ``<game package>.bots`` on demand).
"""

from __future__ import annotations

from arabesque.agents.evaluation import register_evaluation
from arabesque.agents.levels import level_factory
from arabesque.agents.registry import register_agent
from arabesque.games.djinn.bots.levels import LEVELS
from arabesque.games.djinn.bots.policy import HeuristicAgent
from arabesque.games.djinn.bots.rollout_value import evaluate, evaluate_all
from arabesque.games.djinn.bots.search import Position

register_agent(
    "djinn", "heuristic", HeuristicAgent, "hand-written rules of thumb, from its seat's view"
)
register_evaluation("djinn", evaluate, evaluate_all)
for _name, (_options, _description) in LEVELS.items():
    register_agent("djinn", _name, level_factory(_options), _description)

__all__ = ["HeuristicAgent", "Position", "evaluate"]
