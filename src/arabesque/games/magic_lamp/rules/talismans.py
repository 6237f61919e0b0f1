"""Placing talismans: once a draw is over, each talisman drawn goes on a stone type its owner
holds, for good.

rulebook, "Talismans" (R20: placed once the draw is over; with no stone the talisman stays
alone and is worth its 1 point only). A talisman left alone when its last stone goes is
cards.py's ``lose_card``; one still waiting when the game ends at once is end.py's.
"""

from __future__ import annotations

from typing import Any

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.rules.agenda import decide
from arabesque.games.magic_lamp.state import LONE, DecisionKind, MagicLampState


def task_talisman(state: MagicLampState, player: int, card_id: int) -> None:
    """rulebook, Talismans: place it on a type of stone you have; with no stone it stays
    alone for good and is worth its 1 point only."""
    if card_id not in state.holdings[player] or card_id in state.talisman_on:
        return
    stone_of = state.comp.stone_of
    held_types = {stone_of[c] for c in state.holdings[player]}
    types = [t for t in range(len(state.comp.stone_types)) if t in held_types]
    if not types:
        state.talisman_on[card_id] = LONE
        state.log("talisman_alone", player=player, card=card_id)
        return
    decide(state, DecisionKind.TALISMAN, player, tuple(A.stone(t) for t in types), (card_id,))


def on_talisman(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    stone_type = action - A.STONE_BASE
    state.talisman_on[ctx[0]] = stone_type
    state.log(
        "talisman_placed", player=player, card=ctx[0], stone=state.comp.stone_types[stone_type]
    )
