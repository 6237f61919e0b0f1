"""The locations' actions (rulebook §Academy, §Tavern, §Catacombs, §Archives, §Manufactory,
§Market, §Magic Source).

Owns what each location's basic or special action brings (``location_items``) and whether
it can be done (``location_doable``), and, location by location, the decisions it opens, each
with its options beside its handler: TAVERN (take a Mage card); the chests (``reveal_chests``),
CHEST_KEY and CHEST_DISCARD; ARCHIVES and PASSAGE (``archive_doable``, ``passage_options``);
MANUFACTORY; the Market's TENT and OFFER (``market_affordable``, ``market_payees``,
``market_targets``); the Magic Source's price (``scroll_price``) and SOURCE_BOSSES. Which
action is taken on a space, forfeiting, and the Magic Source's rows are chosen in the space's
menu (turn.py ``act_options``, ``act``); paying the assistants at a tent is turn.py's
PAY_PLAYER, as for mages.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Frame
from arabesque.games.djinn.actions import SPACE_NAMES, SQUARES
from arabesque.games.djinn.components import BOSS, EQUIP_TYPES, LOCATIONS, reward_json
from arabesque.games.djinn.rules.equipment import gain_equipment, has_up
from arabesque.games.djinn.rules.queries import (
    ACADEMY,
    ARCHIVES,
    CATACOMBS,
    I_ACADEMY_ACTIVATE,
    I_ARCHIVES,
    I_CATACOMBS,
    I_CHEST,
    I_MANUFACTORY,
    I_MARKET,
    I_OFFER,
    I_TAVERN,
    MANUFACTORY,
    MARKET,
    ONES,
    RACT,
    RC,
    RCIRC,
    RK,
    RKEY,
    RS,
    TAVERN,
    can_place,
    gain,
    log,
)
from arabesque.games.djinn.rules.stack import pop, push, queue, replace
from arabesque.games.djinn.state import COVERED, INACTIVE, T_KEY, DjinnState, Kind

_PAY, _PLACE = Kind.PAY_PLAYER, Kind.PLACE


def location_items(
    s: DjinnState, p: int, location: int, special: bool
) -> tuple[tuple[int, int], ...]:
    comp = s.comp
    fx = s.fx[p]
    if location == ACADEMY:
        items = comp.rewards["academy_special" if special else "academy_basic"]
        if "academy_activate" in fx and "no_activate" not in fx:
            return (*items, (I_ACADEMY_ACTIVATE, 2))
        return items
    if location == TAVERN:
        return ((I_TAVERN, int(special)),)
    if location == CATACOMBS:
        return ((I_CATACOMBS, comp.numbers["catacombs_special" if special else "catacombs_basic"]),)
    if location == ARCHIVES:
        return ((I_ARCHIVES, 2 if special else 1),)
    if location == MANUFACTORY:
        cost = comp.numbers["manufactory_special_cost" if special else "manufactory_basic_cost"]
        corks = comp.numbers["manufactory_special_corks" if special else "manufactory_basic_corks"]
        if special and "manufactory_corks" in fx:
            corks += 1
        gain(s, p, RC, -cost)
        return ((RK, corks), (I_MANUFACTORY, 0))
    return ((I_MARKET, 0),) * (comp.numbers["market_special_times"] if special else 1)


def location_doable(s: DjinnState, p: int, location: int, special: bool) -> bool:
    if location == TAVERN:
        return any(s.piles[i] for i in (range(4) if special else range(2)))
    if location == CATACOMBS:
        return bool(s.chest_deck or s.chest_discard)
    if location == MANUFACTORY:
        cost = s.comp.numbers["manufactory_special_cost" if special else "manufactory_basic_cost"]
        return s.coins[p] >= cost
    if location == MARKET:
        return bool(market_targets(s, p))
    return True


# -- Tavern ------------------------------------------------------------------------------------


def tavern_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    allowed = range(4) if ctx[0] else range(2)
    return tuple(L["take"] + i for i in allowed if s.piles[i])


def tavern(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    comp = s.comp
    card_id = s.piles[i].pop()
    card = comp.mage_cards[card_id]
    s.mage_owner[card_id] = p
    s.mage_active[card_id] = "mage_inactive" not in s.fx[p]
    s.mage_of[p].append(card_id)
    log(s, "mage", seat=p, card=card_id)
    pop(s)
    if card.key and top.context[0]:
        gain(s, p, RKEY, 1)
    if not card.key and "tavern_key" in s.fx[p]:
        gain(s, p, RKEY, 1)
    # rulebook §Tavern: an empty pile takes one card from the other pile of its kind (from
    # the bottom, so the other pile's face stays: ruling D5).
    if not s.piles[i] and s.piles[i ^ 1]:
        s.piles[i].append(s.piles[i ^ 1].pop(0))


# -- Catacombs ---------------------------------------------------------------------------------


def reveal_chests(s: DjinnState, p: int, count: int) -> None:
    """rulebook §Catacombs: reveal, gain, discard; reshuffle the discards when the deck is
    empty. The Equipment that reveals one more makes the player discard one unused."""
    extra = has_up(s, p, "catacombs_extra") >= 0
    revealed = []
    for _ in range(count + (1 if extra else 0)):
        if not s.chest_deck:
            if not s.chest_discard:
                break
            s.chest_deck = s.chest_discard[:]
            s.chest_discard = []
            s.rng.shuffle(s.chest_deck)
            log(s, "chests_reshuffled")
        revealed.append(s.chest_deck.pop())
    # The revealed chests lie in front of the player while they are used, so a reshuffle in
    # the middle of a special action (deck empty after the first) leaves them out; they join
    # the discard pile together afterwards.
    s.chest_discard.extend(revealed)
    log(
        s,
        "chests",
        seat=p,
        chests=revealed,
        rewards=[reward_json(s.comp.chests[c].reward) for c in revealed],
        key_rewards=[reward_json(s.comp.chests[c].key_reward) for c in revealed],
    )
    if "catacombs_key" in s.fx[p]:
        queue(s, p, ((RKEY, 1),))
    if extra and len(revealed) > count:
        push(s, Kind.CHEST_DISCARD, p, tuple(revealed))
    else:
        queue(s, p, tuple((I_CHEST, c) for c in revealed))


def chest_key_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    return (L["done"], L["unlock"])


def chest_key(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    pop(s)
    if group == "unlock":
        s.tflags |= T_KEY
        gain(s, p, RKEY, -1)
        chest = s.comp.chests[top.context[0]]
        log(s, "unlock", seat=p, chest=chest.id, reward=reward_json(chest.key_reward))
        queue(s, p, s.comp.chests[top.context[0]].key_reward)


def chest_discard_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    return tuple(sorted(L["discard_chest"] + c for c in ctx))


def chest_discard(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    kept = tuple((I_CHEST, c) for c in top.context if c != i)
    pop(s)
    queue(s, p, kept)


# -- Archives ----------------------------------------------------------------------------------


def archive_doable(s: DjinnState, p: int, option: int) -> bool:
    """An option is offered when some part of it can be done (rulebook §Forfeiting: an
    action may be done partially, e.g. the improved circle option's key with every circle
    already active)."""
    if option == 0:
        return bool(s.passages_left[p]) and bool(passage_options(s, p, s.L.base))
    basic, improved = s.comp.archives[option]
    for kind, _ in improved if s.improved[p] else basic:
        if kind == RCIRC:
            if any(c in (INACTIVE, COVERED) for c in s.circles[p]):
                return True
        elif kind == RACT:
            if "no_activate" not in s.fx[p] and any(not s.mage_active[c] for c in s.mage_of[p]):
                return True
        else:
            return True
    return False


def archives_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    _picks, mask = ctx
    out = [L["done"]]
    for o in range(5):
        if not (mask >> o) & 1 and archive_doable(s, p, o):
            out.append(L["archive"] + o)
    return tuple(sorted(out))


def archives(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    picks, mask = top.context
    if group == "done" or picks <= 1:
        pop(s)
    else:
        replace(s, Kind.ARCHIVES, p, (picks - 1, mask | (1 << i)))
    if group == "done":
        return
    log(s, "archive", seat=p, option=i)
    if i == 0:
        push(s, Kind.PASSAGE, p, ())
    else:
        basic, improved = s.comp.archives[i]
        queue(s, p, improved if s.improved[p] else basic)


def passage_options(s: DjinnState, p: int, L: dict[str, int]) -> tuple[int, ...]:
    """rulebook §Archives: not where the player has a passage already; not the symbol of the
    space nor of any passage already there."""
    out: list[int] = []
    base = L["place_passage"]
    for sq in SQUARES:
        there = s.passages[sq]
        if any(q == p for q, _ in there):
            continue
        taken = {s.loc[sq], *(loc for _, loc in there)}
        out.extend(base + loc * 6 + (sq - 1) for loc in s.passages_left[p] if loc not in taken)
    out.sort()
    return tuple(out)


def passage_frame_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    """The PASSAGE decision's options (its frame has no context)."""
    return passage_options(s, p, L)


def passage(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    location, square = i // 6, 1 + i % 6
    s.passages_left[p].remove(location)
    s.passages[square].append((p, location))
    s.fresh_passage[p] = square  # rulebook §Archives: not usable the turn it is placed
    log(s, "passage", seat=p, location=LOCATIONS[location], space=SPACE_NAMES[square])
    pop(s)
    if not s.passages_left[p]:
        # rulebook §Archives: the last passage advances the base and improves the Archives.
        s.improved[p] = True
        queue(s, p, s.comp.rewards["passage_bonus"])


# -- Manufactory -------------------------------------------------------------------------------


def manufactory_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    return tuple(L["equip"] + t for t in range(len(EQUIP_TYPES)) if s.equip_stacks[t])


def manufactory(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    pop(s)
    gain_equipment(s, p, s.equip_stacks[i].pop())


# -- Market ------------------------------------------------------------------------------------


def market_affordable(s: DjinnState, coins: int, scrolls: int, payees: int, place: int) -> bool:
    """Whether some split of ``payees`` payments leaves enough for an offer of ``place``."""
    comp = s.comp
    offers = [o for o in comp.offers if o.tent in comp.market_places(s.num_players)[place]]
    for x in range(payees + 1):  # x coins, the rest scrolls
        c, sc = coins - x, scrolls - (payees - x)
        if c >= 0 and sc >= 0 and any(o.coins <= c and o.scrolls <= sc for o in offers):
            return True
    return False


def market_payees(s: DjinnState, p: int, place: int) -> tuple[int, ...]:
    """rulebook §Market: each other player with an assistant on the tent is paid."""
    if "market_free" in s.fx[p]:
        return ()
    return tuple(q for q in range(s.num_players) if q != p and s.tent[q] == place)


def market_targets(s: DjinnState, p: int) -> list[int]:
    places = s.comp.market_places(s.num_players)
    stay = has_up(s, p, "market_stay") >= 0
    return [
        i
        for i in range(len(places))
        if (i != s.tent[p] or stay)
        and market_affordable(s, s.coins[p], s.scrolls[p], len(market_payees(s, p, i)), i)
    ]


def tent_options(s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]) -> tuple[int, ...]:
    return tuple(L["tent"] + i for i in market_targets(s, p))


def tent(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    if i == s.tent[p]:
        s.equip_up[has_up(s, p, "market_stay")] = False
    s.tent[p] = i
    log(s, "tent", seat=p, place=i + 1)
    pop(s)
    queue(s, p, ((I_OFFER, i),))
    payees = market_payees(s, p, i)
    if payees:
        push(s, _PAY, p, (payees, i))


def offer_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    comp = s.comp
    place = comp.market_places(s.num_players)[ctx[0]]
    return tuple(
        L["offer"] + j
        for j, o in enumerate(comp.offers)
        if o.tent in place and o.coins <= s.coins[p] and o.scrolls <= s.scrolls[p]
    )


def offer(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    offer = s.comp.offers[i]
    gain(s, p, RC, -offer.coins)
    gain(s, p, RS, -offer.scrolls)
    log(
        s,
        "offer",
        seat=p,
        offer=i + 1,
        coins=offer.coins,
        scrolls=offer.scrolls,
        reward=reward_json(offer.reward),
    )
    pop(s)
    queue(s, p, offer.reward)


# -- Magic Source ------------------------------------------------------------------------------


def scroll_price(s: DjinnState, p: int) -> int:
    if "source_price" in s.fx[p]:
        return 2
    if s.flipped[p]:
        return s.comp.price_flipped
    return s.comp.prices[s.capacity[p] - s.comp.capacity_min]


def source_boss_ok(s: DjinnState, p: int) -> bool:
    return (
        s.supply_bosses > 0
        and s.magic[p] >= s.comp.source_boss_cost
        and can_place(s, p, ONES[BOSS])
    )


def source_bosses_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    out = [L["done"]]
    if source_boss_ok(s, p):
        out.append(L["boss"])
    return tuple(sorted(out))


def source_bosses(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    if group == "done":
        pop(s)
        return
    s.magic[p] -= s.comp.source_boss_cost
    s.supply_bosses -= 1
    log(s, "source_boss", seat=p)
    push(s, _PLACE, p, (BOSS, 0, ()))
