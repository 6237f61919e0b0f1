"""The Djinn forward model: setup, every action, the end and the scores.

Only this package changes a state. After each action ``refresh`` works off the GAIN frames
(queues of rewards and follow-ups, see ``do_item``) until a decision is on top of the stack,
then computes that decision's options: only options that can still be completed are offered
(a Djinn is selectable only if the whole selection can be paid for and placed, a move only if
it ends somewhere the mage can stay). Rulings are cited as D1, D2 ... (docs/rulings/djinn.md).

The modules follow the rulebook's chapters; each imports only modules above it in this list:

- ``queries``: the shared vocabulary (locations, bank slots, reward kinds, GAIN item codes)
  and reads (``max_magic``, ``own_passage``, ``can_place``, ``pending``), ``gain``, ``log``.
- ``stack``: the decision stack's primitives (``push``, ``replace``, ``pop``, ``queue``).
- ``ending``: §END OF THE GAME, §Final Score, §Scoring Cards (``finish``,
  ``score_breakdowns``).
- ``solo``: §Solo Play (Tom: ``tom_turn``, ``tom_pay``; ``solo_tasks``).
- ``board``: §Player Board (capacity, spell circles), activating Mage cards, choosing bottles.
- ``equipment``: §Equipment Cards (taking one at the Manufactory, arrival rewards, trades).
- ``catching``: §Mandatory Action Catch Djinn, §Additional Rules Boss Djinn.
- ``locations``: §Academy, §Tavern, §Catacombs, §Archives, §Manufactory, §Market, §Magic
  Source.
- ``side_actions``: at any time on one's turn: §Keys, §Receive a Trophy, §Put a Djinn in a
  Bottle, using Equipment.
- ``turn``: §A PLAYER'S TURN (first turn, moving, paying, the space's actions, forfeiting)
  and the turn order up to the end.
- ``characters``: §Character Tiles (the draft, start-of-game effects).
- ``flow``: ``refresh``, ``do_item``, ``apply_action``: dispatch only, through the table of
  each decision kind's options and handler in its chapter.
- ``dealing``: §SETUP (``deal``, ``read_arrangement``, ``setup``).
- ``hidden``: ``resample_hidden`` (what a seat has not seen, dealt again).

This module re-exports what the rest of the code (state.py, view.py, decisions.py,
observer.py, scripts, tests) uses as ``rules.X``.
"""

from arabesque.games.djinn.components import LOCATIONS, load_components
from arabesque.games.djinn.rules.board import activate_circle
from arabesque.games.djinn.rules.catching import after_catch, card_power, strength
from arabesque.games.djinn.rules.dealing import setup
from arabesque.games.djinn.rules.ending import (
    ALL_SEEING,
    condition_points,
    finish,
    score_breakdowns,
    secret_points,
)
from arabesque.games.djinn.rules.flow import apply_action, refresh
from arabesque.games.djinn.rules.hidden import resample_hidden
from arabesque.games.djinn.rules.locations import scroll_price
from arabesque.games.djinn.rules.queries import (
    ARCHIVES,
    I_CHEST,
    I_PLACE,
    RCAP,
    RDJ,
    RKEY,
    RM,
    RMAGE,
    TAVERN,
    can_place,
    gain,
    max_magic,
    own_passage,
)
from arabesque.games.djinn.rules.solo import round_space, solo_tasks, tom_pay, tom_turn
from arabesque.games.djinn.rules.stack import queue
from arabesque.games.djinn.rules.turn import begin_turn, occupants

__all__ = [
    "ALL_SEEING",
    "ARCHIVES",
    "I_CHEST",
    "I_PLACE",
    "LOCATIONS",
    "RCAP",
    "RDJ",
    "RKEY",
    "RM",
    "RMAGE",
    "TAVERN",
    "activate_circle",
    "after_catch",
    "apply_action",
    "begin_turn",
    "can_place",
    "card_power",
    "condition_points",
    "finish",
    "gain",
    "load_components",
    "max_magic",
    "occupants",
    "own_passage",
    "queue",
    "refresh",
    "resample_hidden",
    "round_space",
    "score_breakdowns",
    "scroll_price",
    "secret_points",
    "setup",
    "solo_tasks",
    "strength",
    "tom_pay",
    "tom_turn",
]
