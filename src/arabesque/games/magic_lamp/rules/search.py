"""Phase 3, searching the chests: who searches each chest, bronze, then silver, then gold, and
the push-your-luck draw.

rulebook, "3. Search the Chests", with "Don't be greedy!" and "Tied players cancel each
other" (the lowest untied die draws), "Scorpions!" (a bust discards the whole draw), and "What
do the cards you draw do?" (the cards are kept once the draw is over; the talismans drawn are
then placed, talismans.py, and a full draw of six with a 6 wins the ring, ring.py). The
chests are searched in that order because race.py queues their tasks so.
"""

from __future__ import annotations

from typing import Any

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, CardKind
from arabesque.games.magic_lamp.rules.agenda import decide
from arabesque.games.magic_lamp.rules.cards import pop_chest
from arabesque.games.magic_lamp.rules.ring import RING_FACE
from arabesque.games.magic_lamp.state import DecisionKind, MagicLampState

# Enum members as module constants: an enum class attribute lookup costs several times a
# global's on the hot path.
_TALISMAN = CardKind.TALISMAN
_SORCERER = CardKind.SORCERER
_DECIDE_DRAW = DecisionKind.DRAW


def chest_drawer(dice_on_chest: list[tuple[int, int]]) -> int | None:
    """Who searches a chest: the lowest face that nobody else shows on that chest.

    rulebook, "Search the Chests": tied players cancel each other and the lowest *untied*
    value draws, even if higher than the tie (the "Maurice" case). ``dice_on_chest`` is
    (player, face) pairs; returns the player or None.
    """
    faces = [face for _, face in dice_on_chest]
    for face in sorted(set(faces)):
        if faces.count(face) == 1:
            return dice_on_chest[faces.index(face)][0]
    return None


def dice_on(state: MagicLampState, chest: int) -> list[tuple[int, int]]:
    return [(p, f) for p, ds in enumerate(state.dice) for c, f in ds if c == chest]


def task_search(state: MagicLampState, chest: int) -> None:
    on_chest = dice_on(state, chest)
    drawer = chest_drawer(on_chest)
    state.log(
        "search",
        chest=CHESTS[chest],
        dice=[{"player": p, "face": f} for p, f in on_chest],
        drawer=drawer,
    )
    if drawer is None:
        return
    if not state.decks[chest]:
        # R2: an empty chest has nothing to give.
        state.log("chest_empty", chest=CHESTS[chest])
        return
    face = next(f for p, f in on_chest if p == drawer)
    state.draw_ctx = [drawer, chest, face, [], 0]
    decide(state, _DECIDE_DRAW, drawer, (A.DRAW, A.STOP))


def is_bust(scorpions: int, face: int) -> bool:
    """rulebook, "Scorpions!": the scorpions drawn must stay strictly below the die value."""
    return scorpions >= face


def on_draw(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    draw = state.draw_ctx
    assert draw is not None
    drawer, chest, face, drawn, _ = draw
    if action == A.STOP:
        _finish_draw(state, stopped=True)
        return
    card_id = pop_chest(state, chest)
    card = state.comp.cards[card_id]
    drawn.append(card_id)
    absorbed = min(state.ward[drawer], card.scorpions)
    state.ward[drawer] -= absorbed
    draw[4] += card.scorpions - absorbed
    state.log(
        "draw",
        player=drawer,
        chest=CHESTS[chest],
        card=state.comp.card_json(card_id),
        scorpions=draw[4],
        warded=absorbed,
    )
    if card.kind is _SORCERER:
        # R1: the Sorcerer closes the cave (the game ends at the end of this turn); it counts
        # as one of the cards drawn and the player may go on drawing.
        state.cave_closed = True
        state.log("cave_closed", player=drawer, chest=CHESTS[chest])
    if is_bust(draw[4], face):
        state.discard.extend(drawn)
        state.log(
            "bust",
            player=drawer,
            chest=CHESTS[chest],
            cards=[state.comp.card_json(c) for c in drawn],
        )
        state.draw_ctx = None
        return
    if len(drawn) >= face or not state.decks[chest]:
        _finish_draw(state, stopped=False)
        return
    decide(state, _DECIDE_DRAW, drawer, (A.DRAW, A.STOP))


def _finish_draw(state: MagicLampState, stopped: bool) -> None:
    draw = state.draw_ctx
    assert draw is not None
    drawer, chest, face, drawn, _ = draw
    state.draw_ctx = None
    state.log(
        "draw_kept",
        player=drawer,
        chest=CHESTS[chest],
        count=len(drawn),
        stopped=stopped,
        cards=[state.comp.card_json(c) for c in drawn],
    )
    # Talismans are placed once the draw is over (rulebook, Talismans; R20): queue them first,
    # then the ring, in the order the cards were drawn.
    kinds = state.comp.kinds
    tasks: list[tuple[Any, ...]] = [("talisman", drawer, c) for c in drawn if kinds[c] is _TALISMAN]
    if state.params.my_precious and face == RING_FACE and len(drawn) == RING_FACE:
        tasks.append(("ring", drawer))
    state.holdings[drawer].extend(drawn)
    state.agenda[:0] = tasks
