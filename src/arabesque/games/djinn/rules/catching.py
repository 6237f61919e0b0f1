"""Catching Djinn (rulebook §Mandatory Action Catch Djinn, §To catch a Djinn (placing),
§Additional Rules Boss Djinn).

Owns what a catch costs (``strength``, ``card_power``, ``catch_power``, ``best_cards``,
``payable``), its decisions in their order, each with its options beside its handler:
CATCH_SELECT (choose the Djinn, or decline), CATCH_PAY (use Mage cards, then settle with own
magic), PLACE (each caught Djinn into a circle or a bottle) and FREE (the boss's free Djinn),
and what follows a catch (``after_catch``: a lone boss flees, Djinn are drawn after a boss
left). Whether Djinn fit (``can_place``) is queries.py's; that the last boss starts the end is
ending.py's ``check_bosses``; the catch is opened from the space's menu (turn.py ``act``).
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Frame
from arabesque.games.djinn.actions import SPACE_NAMES
from arabesque.games.djinn.components import BOSS, COLOURS, KINDS
from arabesque.games.djinn.rules.ending import check_bosses
from arabesque.games.djinn.rules.queries import (
    I_AFTER_CATCH,
    I_AFTER_CATCH_BOSS,
    I_FREE,
    I_PLACE,
    NCOL,
    RC,
    can_place,
    draw_from,
    gain,
    log,
    one,
    pending,
)
from arabesque.games.djinn.rules.stack import pop, push, queue, replace
from arabesque.games.djinn.state import EMPTY, T_CATCH, DjinnState, Kind

_SELECT, _CPAY, _PLACE = Kind.CATCH_SELECT, Kind.CATCH_PAY, Kind.PLACE


def strength(s: DjinnState, p: int, space: int, sel: tuple[int, ...]) -> int:
    """rulebook §Catch: 4 per Djinn, a boss 2 more per other Djinn at the space."""
    comp = s.comp
    per = comp.per_djinn - (1 if "djinn_discount" in s.fx[p] else 0)
    per = max(1, per)
    here = sum(s.djinn[space])
    return per * sum(sel) + sel[BOSS] * comp.boss_per_other * (here - 1)


def card_power(s: DjinnState, p: int, card: int, sel: tuple[int, ...]) -> int:
    """The green power once, plus the colour bonus for every selected Djinn of that colour;
    a boss takes the card's best colour bonus (ruling D3)."""
    m = s.comp.mage_cards[card]
    if "green_only" in s.fx[p]:
        return m.power
    bonus = m.bonus
    return m.power + sum(bonus[c] * sel[c] for c in range(NCOL)) + sel[BOSS] * max(bonus)


def catch_power(s: DjinnState, p: int) -> int:
    comp = s.comp
    return sum(
        comp.equipment[e].amount
        for e in s.equip_of[p]
        if s.equip_up[e] and comp.equipment[e].effect == "catch_power"
    )


def usable_cards(s: DjinnState, p: int, used: int, budget: int) -> list[tuple[int, int]]:
    """``p``'s Mage cards that can still pay in this catch, with their costs: active, costing
    at most ``budget`` coins, and not in ``used`` (rulebook §Catch: each card's power once per
    action, even if a side action, a trophy's bonus, activated it again after it was used)."""
    mage_cards = s.comp.mage_cards
    active = s.mage_active
    return [
        (card, cost)
        for card in s.mage_of[p]
        if active[card] and not (used >> card) & 1 and (cost := mage_cards[card].cost) <= budget
    ]


def best_cards(s: DjinnState, p: int, sel: tuple[int, ...], budget: int, used: int = 0) -> int:
    """The most power ``p``'s active Mage cards give ``sel`` for at most ``budget`` coins;
    ``used`` masks the cards already used in this catch (each card once per action)."""
    best = [0] * (budget + 1)
    for card, cost in usable_cards(s, p, used, budget):
        value = card_power(s, p, card, sel)
        for c in range(budget, cost - 1, -1):
            v = best[c - cost] + value
            if v > best[c]:
                best[c] = v
    return best[budget]


def payable(s: DjinnState, p: int, space: int, sel: tuple[int, ...]) -> bool:
    need = strength(s, p, space, sel) - s.magic[p] - catch_power(s, p)
    return need <= 0 or best_cards(s, p, sel, s.coins[p]) >= need


def select_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    space, sel = ctx
    here = s.djinn[space]
    out = []
    for k in range(len(KINDS)):
        if here[k] > sel[k]:
            more = (*sel[:k], sel[k] + 1, *sel[k + 1 :])
            if can_place(s, p, more) and payable(s, p, space, more):
                out.append(L["select"] + k)
    if sum(sel):
        out.append(L["confirm"])
    out.append(L["decline"])
    return tuple(sorted(out))


def select(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space, sel = top.context
    if group == "select":
        replace(s, _SELECT, p, (space, (*sel[:i], sel[i] + 1, *sel[i + 1 :])))
    elif group == "confirm":
        replace(s, _CPAY, p, (space, sel, 0, 0))
    else:
        # rulebook §Catch: not catching costs 1 magic, never below 0.
        s.magic[p] = max(0, s.magic[p] - s.comp.decline_cost)
        s.tflags |= T_CATCH
        s.in_catch = False
        log(s, "decline", seat=p)
        pop(s)
        after_catch(s, p, space, False)


def cpay_options(s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]) -> tuple[int, ...]:
    space, sel, power, used = ctx
    need = strength(s, p, space, sel) - power - catch_power(s, p)
    out = []
    coins = s.coins[p]
    for card, cost in usable_cards(s, p, used, coins):
        left = need - card_power(s, p, card, sel) - s.magic[p]
        if left <= 0 or best_cards(s, p, sel, coins - cost, used | (1 << card)) >= left:
            out.append(L["use_mage"] + card)
    out.sort()
    if need <= s.magic[p]:
        out.append(L["settle"])
    return tuple(out)


def cpay(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space, sel, power, used = top.context
    if group == "use_mage":
        # rulebook §Catch: pay the card's cost, then flip it.
        card = s.comp.mage_cards[i]
        gain(s, p, RC, -card.cost)
        s.mage_active[i] = False
        replace(s, _CPAY, p, (space, sel, power + card_power(s, p, i, sel), used | (1 << i)))
        log(s, "use_mage", seat=p, card=i)
        return
    need = strength(s, p, space, sel) - power - catch_power(s, p)
    if need > 0:
        s.magic[p] -= need
    here = s.djinn[space]
    for k in range(len(KINDS)):
        here[k] -= sel[k]
    log(
        s,
        "catch",
        seat=p,
        space=SPACE_NAMES[space],
        djinn={KINDS[k]: sel[k] for k in range(len(KINDS)) if sel[k]},
    )
    pop(s)
    places = tuple((I_PLACE, k) for k in range(len(KINDS) - 1, -1, -1) for _ in range(sel[k]))
    boss = sel[BOSS] > 0
    # rulebook §Bosses: a caught boss brings one more Djinn of the space for free.
    follow = ((I_FREE, space),) if boss else ()
    queue(s, p, places + follow + ((I_AFTER_CATCH_BOSS if boss else I_AFTER_CATCH, space),))


def place_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    """Where a caught Djinn may go, keeping every Djinn still to be placed placeable (the
    rest of this catch, or an open catch below a random Djinn brought by a side action)."""
    kind, may_release, _rest = ctx
    counts = pending(s)
    out = []
    circles = s.circles[p]
    if EMPTY in circles:
        i = circles.index(EMPTY)
        circles[i] = kind
        if can_place(s, p, counts):
            out.append(L["circle"])
        circles[i] = EMPTY
    if s.corks[p]:
        for c in range(NCOL):
            if s.bottles[p][c] and (kind in (c, BOSS)):
                s.bottles[p][c] -= 1
                s.corks[p] -= 1
                if can_place(s, p, counts):
                    out.append(L["bottle"] + c)
                s.bottles[p][c] += 1
                s.corks[p] += 1
    if may_release:
        out.append(L["release"])
    return tuple(out)


def place(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    kind = top.context[0]
    if group == "circle":
        circles = s.circles[p]
        circles[circles.index(EMPTY)] = kind
        log(s, "place", seat=p, djinn=KINDS[kind], to="circle")
    elif group == "bottle":
        s.bottles[p][i] -= 1
        s.corks[p] -= 1
        (s.filled_boss if kind == BOSS else s.filled)[p][i] += 1
        log(s, "place", seat=p, djinn=KINDS[kind], to=COLOURS[i])
    else:
        if kind == BOSS:
            s.supply_bosses += 1
        else:
            s.bag[kind] += 1
        log(s, "release", seat=p, djinn=KINDS[kind])
    pop(s)


def free_options(s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]) -> tuple[int, ...]:
    here = s.djinn[ctx[0]]
    out = [L["free"] + k for k in range(len(KINDS)) if here[k] and can_place(s, p, one(k))]
    # "done" (declining the free Djinn) is the smaller action: options are ascending.
    return (L["done"], *out) if out else ()


def free(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space = top.context[0]
    pop(s)
    if group == "free":
        s.djinn[space][i] -= 1
        log(s, "free_djinn", seat=p, djinn=KINDS[i])
        push(s, _PLACE, p, (i, 0, ()))


def after_catch(s: DjinnState, p: int, space: int, boss_caught: bool) -> None:
    """rulebook §Bosses: a lone boss flees; after a boss leaves, Djinn are drawn for the
    space; the end starts when no boss is left on the board."""
    s.tflags |= T_CATCH
    s.in_catch = False
    here = s.djinn[space]
    left = boss_caught
    if here[BOSS] and sum(here[:BOSS]) == 0:
        here[BOSS] -= 1
        s.supply_bosses += 1
        left = True
        log(s, "boss_flees", space=SPACE_NAMES[space])
    if left:
        for _ in range(s.comp.replenish[s.num_players]):
            c = draw_from(s.bag, s.rng)
            if c >= 0:
                here[c] += 1
        check_bosses(s)
