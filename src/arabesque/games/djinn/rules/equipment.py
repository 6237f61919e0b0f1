"""Equipment cards (rulebook §Manufactory: one active card per type and the set bonus;
§Equipment Cards).

Owns taking a card (``gain_equipment``), the face-up card with an effect (``has_up``), the
rewards for arriving at a location a card shows (``arrival_rewards``) and the decision TRADE
(a bottle-trading card's trades), with its options beside its handler. Using a card "at any
time" is a side action (side_actions.py); the effects that change a location's action are
read where that action is (locations.py).
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Frame
from arabesque.games.djinn.components import COLOURS, EQUIP_TYPES
from arabesque.games.djinn.rules.queries import NCOL, can_place, log, own_passage, pending
from arabesque.games.djinn.rules.stack import pop, queue, replace
from arabesque.games.djinn.state import DjinnState, Kind


def has_up(s: DjinnState, p: int, effect: str) -> int:
    """The first face-up equipment of ``p`` with ``effect``, else -1."""
    for e in s.equip_of[p]:
        if s.equip_up[e] and s.comp.equipment[e].effect == effect:
            return e
    return -1


def gain_equipment(s: DjinnState, p: int, e: int) -> None:
    """rulebook §Manufactory: one active card per type (the new one lies face up on the old,
    which is flipped: ruling D6); the first full set gives the set bonus."""
    card = s.comp.equipment[e]
    for old in s.equip_of[p]:
        if s.equip_up[old] and s.comp.equipment[old].type == card.type:
            s.equip_up[old] = False
    s.equip_owner[e] = p
    s.equip_up[e] = True
    s.equip_of[p].append(e)
    log(s, "equipment", seat=p, card=e, type=EQUIP_TYPES[card.type])
    items: list[tuple[int, int]] = []
    if not s.set_bonus[p] and {s.comp.equipment[x].type for x in s.equip_of[p]} == {0, 1, 2}:
        s.set_bonus[p] = True
        items.extend(s.comp.rewards["set_bonus"])
    # rulebook §Equipment: a location reward taken where it applies counts at once, on the
    # first turn's placement too (ruling D31).
    space = s.turn_space
    if (
        card.effect == "location_reward"
        and space >= 0
        and card.location
        in {
            s.loc[space],
            own_passage(s, p, space),
        }
    ):
        items.extend(card.reward)
    queue(s, p, tuple(items))


def arrival_rewards(s: DjinnState, p: int, space: int) -> None:
    """Equipment that rewards arriving where the space or the own passage shows a location."""
    here = {s.loc[space], own_passage(s, p, space)}
    items: list[tuple[int, int]] = []
    for e in s.equip_of[p]:
        card = s.comp.equipment[e]
        if s.equip_up[e] and card.effect == "location_reward" and card.location in here:
            items.extend(card.reward)
    queue(s, p, tuple(items))


def trade_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    out = [L["done"]]
    b = s.bottles[p]
    want = pending(s)
    for c1 in range(NCOL):
        if b[c1]:
            for c2 in range(NCOL):
                if c2 == c1:
                    continue
                b[c1] -= 1
                b[c2] += 1
                # Inside a catch a trade may not strand a Djinn already caught (D8).
                if can_place(s, p, want):
                    out.append(L["trade"] + c1 * NCOL + c2)
                b[c1] += 1
                b[c2] -= 1
    return tuple(sorted(out))


def trade(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    if group == "done":
        pop(s)
        return
    c1, c2 = i // NCOL, i % NCOL
    s.bottles[p][c1] -= 1
    s.bottles[p][c2] += 1
    log(s, "trade", seat=p, gave=COLOURS[c1], got=COLOURS[c2])
    left = top.context[0]
    if left > 1:
        replace(s, Kind.TRADE, p, (left - 1,))
    else:
        pop(s)
