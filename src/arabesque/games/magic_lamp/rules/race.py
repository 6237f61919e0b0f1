"""Phase 2, summoning the Genie: the simultaneous reveal, the lamp race, and the Genie's anger
at a mistaken rub.

rulebook, "2. Summon the Genie": "Simultaneous Reveal", "Rub the lamp!" and "What if I rubbed
the lamp by mistake?" (the wishes of whoever summons him are wishes.py's). Resolving the race
sets the rest of the turn's agenda: the angry Genies, the wishes, the three searches and the
end of the turn.
"""

from __future__ import annotations

from typing import Any

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS
from arabesque.games.magic_lamp.rules.agenda import decide, run
from arabesque.games.magic_lamp.rules.cards import gain_card, lose_card, stealable_cards
from arabesque.games.magic_lamp.state import (
    ALL_SEATS,
    UNDECIDED,
    DecisionKind,
    MagicLampState,
    Phase,
)

_RACE = Phase.RACE
_RESOLVE = Phase.RESOLVE
_DECIDE_ANGRY_TARGET = DecisionKind.ANGRY_TARGET
_DECIDE_ANGRY_STEAL = DecisionKind.ANGRY_STEAL


def reveal(state: MagicLampState) -> None:
    """rulebook, "Simultaneous Reveal": every die is shown at once."""
    state.log(
        "reveal",
        dice=[[{"chest": CHESTS[c], "face": f} for c, f in ds] for ds in state.dice],
        shared_faces=sorted(shared_faces(state)),
    )
    state.phase = _RACE
    state.rub = [UNDECIDED] * state.num_players
    state.waiting = ALL_SEATS[state.num_players]


def shared_faces(state: MagicLampState) -> set[int]:
    """Faces shown by two or more different players. A player's own pair never counts
    (rulebook, 2 players: two dice with the same face do not let you rub)."""
    first_owner: dict[int, int] = {}
    shared: set[int] = set()
    for p, ds in enumerate(state.dice):
        for _, f in ds:
            if first_owner.setdefault(f, p) != p:
                shared.add(f)
    return shared


def may_rub(state: MagicLampState, player: int) -> bool:
    """Whether the player has a face shared with another player (a rub is no mistake)."""
    shared = shared_faces(state)
    return any(f in shared for _, f in state.dice[player])


def resolve_race(state: MagicLampState) -> None:
    """rulebook, "Rub the lamp!": for each shared face, the fastest of its players who rubbed
    summons the Genie; lower faces wish first. A player summons at most once per turn
    (rulebook, 2 players; R4). Equal reaction times are broken by the game's RNG (R5)."""
    shared = sorted(shared_faces(state))
    faces = [[f for _, f in ds] for ds in state.dice]
    rubbed = {p: ms for p, ms in enumerate(state.rub) if ms >= 0}  # ascending seats
    legit = {p for p, fs in enumerate(faces) if any(f in shared for f in fs)}
    mistaken = sorted((p for p in rubbed if p not in legit), key=lambda p: (rubbed[p], p))
    summoners: list[int] = []
    races: list[dict[str, Any]] = []
    for f in shared:
        candidates = [p for p in rubbed if p not in summoners and f in faces[p]]
        if not candidates:
            races.append({"face": f, "winner": None})
            continue
        best = min(rubbed[p] for p in candidates)
        tied = [p for p in candidates if rubbed[p] == best]
        winner = tied[0] if len(tied) == 1 else state.rng.choice(tied)
        summoners.append(winner)
        races.append({"face": f, "winner": winner, "tie": tied if len(tied) > 1 else None})
    state.summoners = summoners
    state.race_result = {
        "rubs": {str(p): ms for p, ms in rubbed.items()},
        "races": races,
        "mistaken": mistaken,
    }
    state.log("race", **state.race_result)
    state.agenda = [("angry", p) for p in mistaken]
    state.agenda += [("wish", p) for p in summoners]
    state.agenda += [("search", c) for c in range(len(CHESTS))]
    state.agenda.append(("end_turn",))
    state.phase = _RESOLVE
    run(state)


def task_angry(state: MagicLampState, rubber: int) -> None:
    """rulebook, "What if I rubbed the lamp by mistake?": the rubber names an opponent, who
    takes a card of their choice from the rubber. Nothing stealable: nothing happens (R3)."""
    if not stealable_cards(state, rubber):
        state.log("genie_calm", player=rubber, reason="nothing to steal")
        return
    opponents = tuple([A.TARGET_BASE + o for o in range(state.num_players) if o != rubber])
    decide(state, _DECIDE_ANGRY_TARGET, rubber, opponents, (rubber,))


def on_angry_target(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    thief = action - A.TARGET_BASE
    rubber = ctx[0]
    state.log("genie_angry", player=rubber, thief=thief)
    options = tuple([A.CARD_BASE + c for c in stealable_cards(state, rubber)])
    decide(state, _DECIDE_ANGRY_STEAL, thief, options, (rubber,))


def on_angry_steal(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    card_id = action - A.CARD_BASE
    lose_card(state, ctx[0], card_id)
    gain_card(state, player, card_id)
    state.log("steal", thief=player, victim=ctx[0], card=state.comp.card_json(card_id))
