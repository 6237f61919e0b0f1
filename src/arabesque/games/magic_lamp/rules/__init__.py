"""The Magic Lamp forward model: the only code that changes a MagicLampState.

Rulebook references are to the English rulebook's sections (../shared/rules/magic-lamp.en.md;
the fuller French original is magic-lamp.fr.md); "R<n>" refers to our rulings in
docs/rulings/magic-lamp.md. The modules follow the rulebook's chapters:

* ``game_setup``: "Setup" (the chest decks with their Sorcerers, the Lamp pile, the starting
  cards; a hand-written arrangement).
* ``turn``: "Game turn", with the entry point ``apply_action``: phase 1, "Choose a Chest"
  (setting the dice secretly), then the race answers, then the answers to decisions; and the
  tables naming every chapter's tasks and decision handlers.
* ``agenda``: the plumbing of a turn after the race: tasks run in order until one needs a
  decision (``decide``, ``run``).
* ``race``: "2. Summon the Genie": "Simultaneous Reveal", "Rub the lamp!" and "What if I
  rubbed the lamp by mistake?".
* ``wishes``: "Make your dreams come true!" (up to three wishes).
* ``lamp_cards``: the Lamp cards' effects, and retrieving a card from the discard pile.
* ``search``: "3. Search the Chests" (bronze, silver, then gold), "Scorpions!", "Tied players
  cancel each other", and keeping the cards drawn.
* ``talismans``: "Talismans" (placing them).
* ``ring``: the "My Precious" variant (winning the magic ring).
* ``end``: "End of the turn / End of the game".
* ``scoring``: "How do I count my points?".
* ``cards``: who holds what, under "What do the cards you draw do?" and "Talismans": stone
  counts, complete sets, the cards that cannot be stolen or exchanged, a card changing hands.
* ``determinization``: not a chapter: re-sampling what a seat cannot see.

Modules import ``agenda`` and the chapters they call, never ``turn``, which imports them all
to fill the agenda's tables: the package has no import cycle. This module re-exports what
code outside the package uses.
"""

from arabesque.games.magic_lamp.rules.cards import (
    complete_sets,
    protected_cards,
    real_stones,
    stone_count,
)
from arabesque.games.magic_lamp.rules.determinization import resample_hidden
from arabesque.games.magic_lamp.rules.game_setup import setup
from arabesque.games.magic_lamp.rules.race import shared_faces
from arabesque.games.magic_lamp.rules.ring import RING_FACE
from arabesque.games.magic_lamp.rules.scoring import MAJORITY_BONUS, RING_BONUS, score_breakdowns
from arabesque.games.magic_lamp.rules.search import chest_drawer, is_bust
from arabesque.games.magic_lamp.rules.turn import apply_action
from arabesque.games.magic_lamp.rules.wishes import MAX_WISHES

__all__ = [
    "MAJORITY_BONUS",
    "MAX_WISHES",
    "RING_BONUS",
    "RING_FACE",
    "apply_action",
    "chest_drawer",
    "complete_sets",
    "is_bust",
    "protected_cards",
    "real_stones",
    "resample_hidden",
    "score_breakdowns",
    "setup",
    "shared_faces",
    "stone_count",
]
