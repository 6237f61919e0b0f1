"""The player's board and what lies in front of the player (rulebook §Player Board: 1b
Capacity, 2. Spell Circles; §Mage Cards: activating them; the bottles a reward lets one
choose).

Owns raising the capacity (``raise_capacity``), activating a spell circle
(``activate_circle``), and the decisions ACTIVATE (which Mage cards to turn active) and
CHOOSE_BOTTLE (a bottle's colour), with their options beside their handlers. The magic
maximum (§Player Board 1a) is queries.py's ``max_magic``.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Frame
from arabesque.games.djinn.components import COLOURS
from arabesque.games.djinn.rules.queries import B_BOTTLES, NCOL, RDJ, RM, log
from arabesque.games.djinn.rules.stack import (
    pop,
    queue,
    replace,
    reward_items,
)
from arabesque.games.djinn.state import COVERED, EMPTY, INACTIVE, DjinnState, Kind


def raise_capacity(s: DjinnState, p: int) -> None:
    """rulebook §Player Board 1b: past the last space the player may catch a random Djinn
    instead, and the marker flips (8 magic from then on)."""
    if s.capacity[p] < s.comp.capacity_max:
        s.capacity[p] += 1
        return
    if not s.flipped[p]:
        s.flipped[p] = True
        log(s, "capacity_flipped", seat=p)
    queue(s, p, ((RDJ, 1),))


def activate_circle(s: DjinnState, p: int) -> None:
    """rulebook §Player Board 2: the left circle, then the right one, each with its reward; a
    covered circle (character tile) comes first and gives 2 magic (ruling D9)."""
    circles = s.circles[p]
    if COVERED in circles:
        i = circles.index(COVERED)
        circles[i] = EMPTY
        queue(s, p, ((RM, 2),))
        return
    active = s.comp.start["active_circles"]
    for i in range(active, 4):
        if circles[i] == INACTIVE:
            circles[i] = EMPTY
            queue(s, p, reward_items(s.comp.circle_rewards[i - active]))
            return


def activate_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    _left, costs_magic = ctx
    if costs_magic and s.magic[p] < 1:
        return (L["done"],)
    base = L["activate"]
    out = [base + c for c in s.mage_of[p] if not s.mage_active[c]]
    out.sort()
    return (L["done"], *out)


def activate(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    left, costs_magic = top.context
    if group == "done":
        pop(s)
        return
    s.mage_active[i] = True
    if costs_magic:
        s.magic[p] -= 1
    log(s, "activate", seat=p, card=i)
    if left > 1:
        replace(s, Kind.ACTIVATE, p, (left - 1, costs_magic))
    else:
        pop(s)


def choose_bottle_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    _left, mask, distinct = ctx
    return tuple(L["choose"] + c for c in range(NCOL) if not (distinct and (mask >> c) & 1))


def choose_bottle(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    left, mask, distinct = top.context
    s.bottles[p][i] += 1
    s.bank[B_BOTTLES] -= 1
    log(s, "bottle", seat=p, colour=COLOURS[i])
    if left > 1:
        replace(s, Kind.CHOOSE_BOTTLE, p, (left - 1, mask | (1 << i), distinct))
    else:
        pop(s)
