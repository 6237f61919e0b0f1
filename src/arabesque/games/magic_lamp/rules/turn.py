"""A game turn: applying a player's action, and the tables of the turn's tasks and decisions.

rulebook, "Game turn": three phases, everyone playing at once. ``apply_action`` is the forward
model's entry point. In phase 1, "Choose a Chest", it records a secret die (the 2-player rule
of two different chest spaces is ``MagicLampState.legal_actions``'s) and has the dice revealed
once the last one is set; in phase 2 it records the race answers and has the race resolved
once the last one is in (both in race.py); from then on it hands the answer to the pending
decision to its handler and runs the agenda on (agenda.py). Below it, the tables naming every
chapter's tasks and decision handlers.
"""

from __future__ import annotations

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.rules.agenda import HANDLERS, TASKS, run
from arabesque.games.magic_lamp.rules.end import task_end_turn
from arabesque.games.magic_lamp.rules.lamp_cards import (
    on_effect_card,
    on_effect_chest,
    on_effect_die,
    on_effect_face,
    on_effect_move,
    on_retrieve,
    on_swap_own,
    on_swap_theirs,
    task_retrieve,
)
from arabesque.games.magic_lamp.rules.race import (
    on_angry_steal,
    on_angry_target,
    resolve_race,
    reveal,
    task_angry,
)
from arabesque.games.magic_lamp.rules.ring import task_ring
from arabesque.games.magic_lamp.rules.search import on_draw, task_search
from arabesque.games.magic_lamp.rules.talismans import on_talisman, task_talisman
from arabesque.games.magic_lamp.rules.wishes import on_wish, task_wish
from arabesque.games.magic_lamp.state import NO_RUB, ONE_SEAT, DecisionKind, MagicLampState, Phase

# Enum members as module constants: an enum class attribute lookup costs several times a
# global's on the hot path.
_SETTING = Phase.SETTING
_RACE = Phase.RACE


def apply_action(state: MagicLampState, player: int, action: int) -> None:
    phase = state.phase
    if phase is _SETTING:
        chest, face = divmod(action - A.SET_BASE, A.FACES)  # A.decode_set, inlined
        placed = state.dice[player]
        placed.append([chest, face + 1])
        # Even that a seat has set its die is secret until the reveal (views and
        # determinization agree): only the seat itself is told.
        state.log("die_set", visible_to=ONE_SEAT[player], player=player)
        if len(placed) >= state.params.dice_per_player:
            state.waiting = state.waiting - ONE_SEAT[player]
            if not state.waiting:
                reveal(state)
    elif phase is _RACE:
        state.rub[player] = NO_RUB if action == A.NO_RUB else A.rub_ms(action)
        # Whether a seat has answered is secret: an early answer would betray a rub.
        state.log("race_answered", visible_to=ONE_SEAT[player], player=player)
        state.waiting = state.waiting - ONE_SEAT[player]
        if not state.waiting:
            resolve_race(state)
    else:
        decision = state.pending
        assert decision is not None
        state.pending = None
        HANDLERS[decision[0]](state, player, action, decision[3])
        run(state)


TASKS.update(
    {
        "angry": task_angry,
        "wish": task_wish,
        "retrieve": task_retrieve,
        "search": task_search,
        "talisman": task_talisman,
        "ring": task_ring,
        "end_turn": task_end_turn,
    }
)

HANDLERS.update(
    {
        DecisionKind.ANGRY_TARGET: on_angry_target,
        DecisionKind.ANGRY_STEAL: on_angry_steal,
        DecisionKind.WISH: on_wish,
        DecisionKind.EFFECT_CHEST: on_effect_chest,
        DecisionKind.EFFECT_DIE: on_effect_die,
        DecisionKind.EFFECT_FACE: on_effect_face,
        DecisionKind.EFFECT_MOVE: on_effect_move,
        DecisionKind.EFFECT_CARD: on_effect_card,
        DecisionKind.SWAP_OWN: on_swap_own,
        DecisionKind.SWAP_THEIRS: on_swap_theirs,
        DecisionKind.DRAW: on_draw,
        DecisionKind.TALISMAN: on_talisman,
        DecisionKind.RETRIEVE: on_retrieve,
    }
)
