"""The end of a turn and of the game.

rulebook, "End of the turn / End of the game": a Sorcerer drawn this turn closes the cave and
the game ends at the end of the turn (at once for one drawn by a Lamp card, lamp_cards.py);
otherwise a new turn starts. Our turn limit (``MagicLampParams.max_turns``) ends it too. The
points are counted by scoring.py.
"""

from __future__ import annotations

from arabesque.games.magic_lamp.components import CardKind
from arabesque.games.magic_lamp.rules.scoring import score_breakdowns
from arabesque.games.magic_lamp.state import (
    ALL_SEATS,
    LONE,
    NOBODY,
    UNDECIDED,
    MagicLampState,
    Phase,
)

_TALISMAN = CardKind.TALISMAN
_SETTING = Phase.SETTING


def task_end_turn(state: MagicLampState) -> None:
    """rulebook, End of the turn: a Sorcerer drawn this turn closes the cave."""
    if state.cave_closed:
        end_game(state, reason="sorcerer drawn")
        return
    if state.turn >= state.params.max_turns:
        end_game(state, reason=f"turn limit {state.params.max_turns} reached")
        return
    state.turn += 1
    state.phase = _SETTING
    n = state.num_players
    state.dice = [[] for _ in range(n)]
    state.rub = [UNDECIDED] * n
    state.waiting = ALL_SEATS[n]
    state.ward = [0] * n
    state.summoners = []
    state.race_result = None
    state.log("turn", turn=state.turn)


def end_game(state: MagicLampState, reason: str) -> None:
    state.over = True
    state.phase = Phase.OVER
    state.waiting = NOBODY
    state.pending = None
    state.draw_ctx = None
    state.agenda = []
    # R7: a talisman still waiting for its place when the game ends at once stays alone.
    kinds = state.comp.kinds
    for held in state.holdings:
        for c in held:
            if kinds[c] is _TALISMAN and c not in state.talisman_on:
                state.talisman_on[c] = LONE
    scores = score_breakdowns(state)
    state.log("game_over", reason=reason, scores=scores)
