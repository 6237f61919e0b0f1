"""Character tiles (rulebook §Character Tiles; the draft at setup is ours, rules.md §Setup).

Owns the draft, the decision DRAFT with its options beside its handler (the start player
takes any tile, the others follow; then, in reverse order, everyone takes one from the other
side), and the tiles' start-of-game effects (the face-down scoring cards, the covered circle,
the reward). The tiles' lasting effects (``s.fx``) are read where the rule they change is;
the face-down cards score in ending.py (``secret_points``).
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Frame
from arabesque.games.djinn.rules.queries import log
from arabesque.games.djinn.rules.stack import pop, push
from arabesque.games.djinn.rules.turn import begin_turn
from arabesque.games.djinn.state import COVERED, EMPTY, ONE_SEAT, DjinnState, Kind

#: Face-down scoring cards drawn by the character tile (rulebook §Character tiles).
SECRET_CARDS = 2

_DRAFT, _GAIN = Kind.DRAFT, Kind.GAIN


def draft_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    req = ctx[0]
    base = L["character"]
    return tuple(sorted(base + c for side in (0, 1) if req in (-1, side) for c in s.draft[side]))


def draft(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    tile = s.comp.characters[i]
    s.draft[1 if tile.positive else 0].remove(i)
    s.chars[p].append(i)
    s.fx[p] = s.fx[p] | {tile.effect}
    log(s, "character", seat=p, tile=i, name=tile.name, positive=tile.positive)
    pop(s)
    if s.draft_queue:
        q = s.draft_queue.pop(0)
        req = -1 if not s.chars[q] else (0 if s.comp.characters[s.chars[q][0]].positive else 1)
        push(s, _DRAFT, q, (req,))
    else:
        begin_turn(s, s.first)
    # rulebook §Character tiles: start-of-game effects.
    if tile.effect == "secret_scoring":
        # Two scoring cards kept face down: only their holder sees them until the end.
        for _ in range(SECRET_CARDS):
            if s.scoring_deck:
                s.secret[p].append(s.scoring_deck.pop())
        log(s, "secret_scoring", visible_to=ONE_SEAT[p], seat=p, cards=list(s.secret[p]))
    if tile.effect == "circle_cover":
        circles = s.circles[p]
        circles[circles.index(EMPTY)] = COVERED
    if tile.reward:
        s.stack = s.stack.push(Frame(_GAIN, p, tile.reward))
