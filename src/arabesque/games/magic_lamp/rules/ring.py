"""The "My Precious" variant: the magic ring, won by a full draw of six cards with a 6.

rulebook, "My Precious" Variant: the ring is taken (from its holder if need be) and a card is
retrieved from the discard pile, again on every repeat. The draw that wins it is search.py's
and its 5 points at the end are scoring.py's.
"""

from __future__ import annotations

from arabesque.games.magic_lamp.rules.lamp_cards import task_retrieve
from arabesque.games.magic_lamp.state import NO_RING, MagicLampState

#: rulebook, "My Precious": the ring needs a full draw with the die's highest face.
RING_FACE = 6


def task_ring(state: MagicLampState, player: int) -> None:
    """rulebook, "My Precious": a full draw of six with a 6 takes the ring (from its holder if
    need be) and retrieves a card from the discard pile, again on every repeat."""
    previous = state.ring
    state.ring = player
    state.log("ring", player=player, previous=None if previous == NO_RING else previous)
    task_retrieve(state, player, 1, "ring")
