"""Making wishes: the Lamp cards drawn by whoever summoned the Genie, kept or put back.

rulebook, "Make your dreams come true!": up to three wishes, the third one forced. The card
goes under the pile either way; a kept card's effect is applied (lamp_cards.py).
"""

from __future__ import annotations

from typing import Any

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.rules.agenda import decide
from arabesque.games.magic_lamp.rules.lamp_cards import start_effect
from arabesque.games.magic_lamp.state import DecisionKind, MagicLampState

#: rulebook, "Make your dreams come true!": up to three wishes, the third is forced.
MAX_WISHES = 3
_DECIDE_WISH = DecisionKind.WISH


def task_wish(state: MagicLampState, summoner: int, wish: int = 1) -> None:
    """rulebook, "Make your dreams come true!": draw the top Lamp card and keep it or not."""
    lamp_id = state.lamp_deck.pop()
    state.lamp_known = min(state.lamp_known, len(state.lamp_deck))
    state.log("wish", player=summoner, wish=wish, lamp=state.comp.lamp_json(lamp_id))
    options = (A.ACCEPT,) if wish >= MAX_WISHES else (A.ACCEPT, A.REJECT)
    decide(state, _DECIDE_WISH, summoner, options, (lamp_id, wish))


def _lamp_under(state: MagicLampState, lamp_id: int) -> None:
    state.lamp_deck.insert(0, lamp_id)
    state.lamp_known += 1


def on_wish(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    lamp_id, wish = ctx
    _lamp_under(state, lamp_id)
    if action == A.REJECT:
        state.log("wish_rejected", player=player, wish=wish)
        state.agenda.insert(0, ("wish", player, wish + 1))
        return
    state.log("wish_granted", player=player, wish=wish, forced=wish >= MAX_WISHES)
    start_effect(state, player, lamp_id)
