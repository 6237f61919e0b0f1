"""Ali Baba decisions in the core's shape: a kind, a prompt, labelled options, a default.

The options are exactly ``legal_actions`` (the rules compute them); this module only words
them for people and names the action a seat gets when its time runs out.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Decision
from arabesque.games.ali_baba import actions as A
from arabesque.games.ali_baba.state import NOT_SHOWN, AliBabaState, DecisionKind, Phase

#: The effect names of the tile colours that ask for a choice (components' ``effect``).
_EFFECT_KINDS = {
    "adjacent": DecisionKind.ALSO_TAKE,
    "forbid": DecisionKind.FORBID,
    "show": DecisionKind.YELLOW,
}


def decision_kind(s: AliBabaState) -> DecisionKind:
    phase = s.phase
    if phase is Phase.TAKE:
        return DecisionKind.TAKE
    if phase is Phase.LAMP:
        return DecisionKind.LAMP
    if phase is Phase.SHOW:
        return DecisionKind.SHOW
    if phase is Phase.STEAL:
        return DecisionKind.STEAL
    assert phase is Phase.EFFECT
    return _EFFECT_KINDS[s.tiles.effect_of(s.effect_tile).effect]


_TURN = "Take a face-up tile from the cave"


def _label(s: AliBabaState, action: int) -> str:
    space = s.space
    if action == space.pass_:
        return "pass"
    if action == space.keep:
        return "keep the lamp and use its effect"
    if action == space.use_yellow:
        return "make every opponent show you a tile"
    block, tile = space.split(action)
    if block < 0:
        return space.to_str(action)  # forbid <kind or colour>
    name = s.tiles.name(tile)
    if block == A.TAKE:
        return f"{name} at {s.board.squares[s.place_of[tile]].label}"
    if block == A.ALSO:
        return f"also take {name}"
    if block == A.SWAP:
        return f"swap the lamp for {name} (use its effect)"
    if block == A.SHOW:
        return f"show {name}"
    owner = s.shows.index(tile) if tile in s.shows else None
    return f"steal {name}" + ("" if owner is None else f" (player {owner})")


def _prompt(s: AliBabaState, kind: DecisionKind) -> tuple[str, dict[str, Any] | None]:
    tiles = s.tiles
    if kind is DecisionKind.TAKE:
        return _TURN, None
    taken: dict[str, Any] = {"tile": tiles.tile_json(s.taken)}
    if kind is DecisionKind.LAMP:
        return "You took Aladdin's lamp: keep it, or swap it for a set-aside tile", taken
    effect: dict[str, Any] = {"tile": tiles.tile_json(s.effect_tile)}
    if kind is DecisionKind.ALSO_TAKE:
        return "Green: also take a face-up tile next to the one you took, or pass", effect
    if kind is DecisionKind.FORBID:
        return "White: forbid a kind or a colour to the others until your next turn", effect
    if kind is DecisionKind.YELLOW:
        return "Yellow: make every opponent show you a tile to steal, or pass", effect
    if kind is DecisionKind.SHOW:
        return f"Player {s.current} played yellow: secretly choose the tile you show", {
            "thief": s.current
        }
    shown = {str(p): tiles.tile_json(t) for p, t in enumerate(s.shows) if t != NOT_SHOWN}
    return "Take one of the tiles shown to you", {"shown": shown}


def _default(s: AliBabaState, kind: DecisionKind, options: tuple[int, ...]) -> int:
    """A seat whose time runs out does the least it can: keep the lamp, pass on an optional
    effect; otherwise the first option."""
    if kind is DecisionKind.LAMP:
        return s.space.keep
    if kind in (DecisionKind.ALSO_TAKE, DecisionKind.FORBID, DecisionKind.YELLOW):
        return s.space.pass_
    return options[0]


def decision_for(s: AliBabaState, seat: int) -> Decision:
    """The decision of ``seat``, who is among ``s.to_act()``."""
    kind = decision_kind(s)
    options = tuple(s.legal_actions(seat))
    prompt, context = _prompt(s, kind)
    return Decision(
        seat=seat,
        kind=kind,
        options=options,
        prompt=prompt,
        labels=tuple(_label(s, a) for a in options),
        default=_default(s, kind, options),
        context=context,
        # The lamp, the effect and the steal are steps of the active player's turn.
        trail=() if kind in (DecisionKind.TAKE, DecisionKind.SHOW) else (_TURN,),
    )
