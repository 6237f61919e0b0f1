"""What a player may do at any time on their turn, beside the decision at hand (rulebook
§Keys, §Additional Action Receive a Trophy, §Additional Action Put a Djinn in a Bottle,
§Equipment Cards used "at any time").

Owns the side options offered with every decision of the turn, a catch included (ruling D8:
``side_options``), the trophy row a claim may take from (``claim_rows``, ruling D30), carrying
a side action out (``side_action``) and claiming a trophy (``claim_trophy``). A
bottle-trading card opens the TRADE decision (equipment.py).
"""

from __future__ import annotations

from arabesque.games.djinn.components import BOSS, COLOURS, KINDS, reward_json
from arabesque.games.djinn.rules.queries import (
    B_BOTTLES,
    B_CORKS,
    NCOL,
    RC,
    RKEY,
    RM,
    RS,
    gain,
    log,
    max_magic,
)
from arabesque.games.djinn.rules.stack import push, queue
from arabesque.games.djinn.state import EMPTY, T_FINAL, DjinnState, Kind


def side_options(s: DjinnState, p: int, L: dict[str, int]) -> tuple[int, ...]:
    """Things a player may do at any time on their turn (rulebook §Keys, §Receive a trophy,
    §Put a Djinn in a bottle, §Equipment)."""
    out: list[int] = []
    if s.keys[p]:
        out.append(L["key_coin"])
        out.append(L["key_scroll"])
        if s.magic[p] < max_magic(s, p):
            out.append(L["key_magic"])
    filled, fboss = s.filled[p], s.filled_boss[p]
    if not s.tflags & T_FINAL:
        rows = claim_rows(s, p)
        for c in range(NCOL):
            if filled[c] + fboss[c] >= 3:
                for row in rows:
                    for t in s.trophy_rows[row]:
                        out.append(L["trophy"] + t * NCOL + c)
    bottles = s.bottles[p]
    if s.corks[p] and any(bottles):
        for i, k in enumerate(s.circles[p]):
            if k >= 0:
                for c in range(NCOL):
                    if bottles[c] and (k in (c, BOSS)):
                        out.append(L["seal"] + i * NCOL + c)
    comp = s.comp
    for e in s.equip_of[p]:
        if s.equip_up[e]:
            effect = comp.equipment[e].effect
            if effect == "once_reward" or (effect == "bottle_trade" and any(bottles)):
                out.append(L["use_equipment"] + e)
    out.sort()
    return tuple(out)


def claim_rows(s: DjinnState, p: int) -> tuple[int, ...]:
    """The trophy rows ``p``'s next claim may take from (rulebook §Receive a trophy): row I
    for the 1st claim, II for the 2nd, III for the 3rd, any row from the 4th on.

    Ruling D30: extra claims by others may have emptied the row due. The claim then passes on
    to the next row in order that still holds a trophy; if no row after the due one does, it
    is free, as from the 4th claim on. Only with all rows empty is there no claim."""
    rows = s.trophy_rows
    due = s.claims[p]
    for row in range(due, 3):
        if rows[row]:
            return (row,)
    return tuple(row for row in range(3) if rows[row])


def side_action(s: DjinnState, p: int, group: str, i: int) -> None:
    comp = s.comp
    if group in ("key_coin", "key_scroll", "key_magic"):
        # rulebook §Keys: a key for a coin, a scroll or a magic power, at any time.
        gain(s, p, RKEY, -1)
        gain(s, p, {"key_coin": RC, "key_scroll": RS, "key_magic": RM}[group], 1)
        log(s, "key", seat=p, exchange=group[4:])
    elif group == "trophy":
        claim_trophy(s, p, i // NCOL, i % NCOL)
    elif group == "seal":
        circle, c = i // NCOL, i % NCOL
        k = s.circles[p][circle]
        s.circles[p][circle] = EMPTY
        s.bottles[p][c] -= 1
        s.corks[p] -= 1
        (s.filled_boss if k == BOSS else s.filled)[p][c] += 1
        log(s, "seal", seat=p, circle=circle + 1, djinn=KINDS[k], bottle=COLOURS[c])
    elif group == "use_equipment":
        card = comp.equipment[i]
        s.equip_up[i] = False
        log(s, "use_equipment", seat=p, card=i)
        if card.effect == "once_reward":
            queue(s, p, card.reward)
        else:
            push(s, Kind.TRADE, p, (card.amount,))
    else:
        raise AssertionError(group)


def claim_trophy(s: DjinnState, p: int, trophy: int, c: int) -> None:
    """rulebook §Receive a trophy: three bottled Djinn of one colour are discarded with their
    bottles and corks (back to the supply: ruling D7); the trophy's bonus comes at once."""
    card = s.comp.trophies[trophy]
    s.trophy_rows[card.row].remove(trophy)
    s.trophies_of[p].append(trophy)
    s.claims[p] += 1
    regular = min(3, s.filled[p][c])
    s.filled[p][c] -= regular
    s.filled_boss[p][c] -= 3 - regular
    s.discarded[c] += regular
    s.discarded[BOSS] += 3 - regular
    s.bank[B_BOTTLES] += 3
    s.bank[B_CORKS] += 3
    log(
        s,
        "trophy",
        seat=p,
        trophy=trophy,
        colour=COLOURS[c],
        row=card.row + 1,
        points=card.points,
        reward=reward_json(card.reward),
    )
    queue(s, p, card.reward)
