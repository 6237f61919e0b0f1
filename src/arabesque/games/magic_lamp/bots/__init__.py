"""A heuristic Magic Lamp bot that decides from its seat's view only.

Its model of the game, in short:

* **Value of a card.** Every card is worth what it adds to a *potential* score: 1 point per
  card, plus a smoothed chance of winning each stone majority and of completing each jewelry
  set. Gains are *relative*: what the bot gains minus a share of what its rivals gain or lose,
  so breaking a rival's majority counts.
* **Chests.** Each chest's remaining composition is public: its initial cards minus every card
  lying in front of a player, in the discard pile or drawn in the current search. The
  Sorcerer's place is public too, and peeked cards are known. An exact push-your-luck dynamic
  programme over the scorpion classes of the unseen cards gives the value of a search with a
  given die and the draw/stop decision.
* **Dice.** The expected gain of a (chest, face) is the chance that no rival die blocks it
  times the search value, plus the chance of a lamp race on that face; the choice is sampled
  (softmax) so the bot is not predictable, and it avoids repeating last turn's choice.
* **Wishes.** Each Lamp effect is valued in the current situation; a card is kept when it beats
  the expected value of the wishes still to come.

The components themselves (which cards each chest starts with) are public, being the box's
contents; the bot reads them from its observation's public data. It decides on the kind of
its seat's decision (the core's decision model) and reads the rest from its view.

The modules, each using only those before it:

* ``position``: the bot's picture of its view (what each card is, who holds what, how far the
  game is, what it knows of each chest).
* ``evaluation``: values and weights: the potential score, the rivals' weights, what a move of
  cards, the ring, a theft or an exchange is worth.
* ``search``: the push-your-luck dynamic programme over a chest, and the lookahead on dice
  (who will search, what a die change brings, what each die is worth before the reveal).
* ``policy``: ``HeuristicAgent``, dispatching on the decision's kind to handlers that rank the
  options by those values.

This module registers the agent (the agent registry imports ``<game package>.bots``) and
re-exports what code outside the package uses.
"""

from arabesque.agents.evaluation import register_evaluation
from arabesque.agents.registry import register_agent
from arabesque.games.magic_lamp.bots.levels import LEVELS, make_level
from arabesque.games.magic_lamp.bots.policy import HeuristicAgent
from arabesque.games.magic_lamp.bots.position import _ChestModel
from arabesque.games.magic_lamp.bots.rollout_value import evaluate, evaluate_all
from arabesque.games.magic_lamp.bots.search import search_value

register_agent(
    "magic-lamp", "heuristic", HeuristicAgent, "hand-written rules of thumb, from its seat's view"
)
register_evaluation("magic-lamp", evaluate, evaluate_all)
for _name, (_options, _description) in LEVELS.items():
    register_agent("magic-lamp", _name, make_level(_options), _description)

__all__ = ["HeuristicAgent", "_ChestModel", "evaluate", "search_value"]
