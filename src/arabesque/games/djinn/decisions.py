"""Djinn decisions in the core's shape: a kind, a prompt, labelled options, a default, the
trail of enclosing decisions and the side actions offered alongside (``optional``).

The options are exactly ``legal_actions`` (rules/flow.py computes them); this module only words
them and names what a seat whose time runs out gets: end the turn where it may, decline a
catch, stop choosing (``done``), otherwise the first option.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from arabesque.core.decision import Decision, Frame
from arabesque.games.djinn.actions import SPACE_NAMES
from arabesque.games.djinn.components import (
    BOSS,
    COLOURS,
    EQUIP_TYPES,
    KINDS,
    LOCATIONS,
    equipment_json,
    mage_json,
)
from arabesque.games.djinn.rules import card_power, occupants, scroll_price, strength
from arabesque.games.djinn.state import DjinnState, Kind
from arabesque.games.djinn.words import (
    character_words,
    equipment_words,
    mage_words,
    place_words,
    plural,
    reward_words,
    seats_words,
)

PROMPTS: dict[Kind, str] = {
    Kind.DRAFT: "Take a character tile",
    Kind.START: "Place your mage next to a square space",
    Kind.MOVE: "Move your mage along a path",
    Kind.JUMP: "Mages stand at the edge you arrive at: pay each of them, or skip on",
    Kind.PAY_PLAYER: "Pay the other player a coin or a scroll",
    Kind.ACT: "Take the actions of this space, then end your turn",
    Kind.CATCH_SELECT: "Choose the Djinn to catch",
    Kind.CATCH_PAY: "Use Mage cards, then settle the rest with your magic",
    Kind.PLACE: "Put the caught Djinn into a spell circle or a bottle",
    Kind.FREE: "Your boss brings one more Djinn of the space for free",
    Kind.ARCHIVES: "Choose an Archives option",
    Kind.PASSAGE: "Place a secret passage",
    Kind.TAVERN: "Take a Mage card",
    Kind.MANUFACTORY: "Take an Equipment card",
    Kind.TENT: "Move your assistant to a Market tent",
    Kind.OFFER: "Buy at the tent",
    Kind.CHEST_KEY: "Pay a key for the chest's extra reward?",
    Kind.CHEST_DISCARD: "Discard one of the revealed chests",
    Kind.ACTIVATE: "Activate Mage cards",
    Kind.CHOOSE_BOTTLE: "Choose the colour of a bottle",
    Kind.SOURCE_BOSSES: "Catch bosses of the supply for magic",
    Kind.TRADE: "Trade an empty bottle",
    Kind.GAIN: "",
}


def prompt(state: DjinnState, frame: Frame) -> str:
    kind = Kind(frame.kind)
    ctx = frame.context
    if kind is Kind.ACT:
        space = ctx[0]
        where = (
            "the Magic Source"
            if space == 0
            else f"{place_words(LOCATIONS[state.loc[space]])} ({SPACE_NAMES[space]})"
        )
        return f"At {where}: take the actions of this space, then end your turn"
    if kind is Kind.JUMP:
        # Who would be paid: the mages at the edge this move arrives at (ruling D27).
        space, frm = ctx[0], ctx[1]
        taken = occupants(state, frame.seat, space, frm)
        if taken:
            return (
                f"At the edge of {SPACE_NAMES[space]} you arrive at: {seats_words(taken)}. "
                "Pay each a coin or a scroll, or skip on"
            )
        return PROMPTS[kind]
    if kind is Kind.CATCH_PAY:
        space, sel, power = ctx[:3]
        need = strength(state, frame.seat, space, sel)
        return f"{PROMPTS[kind]}: strength {need}, cards give {power}"
    if kind is Kind.PLACE:
        return f"Put the caught {one_djinn(ctx[0])[2:]} into a spell circle or a bottle"
    if kind is Kind.ARCHIVES:
        return f"{PROMPTS[kind]} ({ctx[0]} left)"
    if kind is Kind.ACTIVATE:
        return f"{PROMPTS[kind]} (up to {ctx[0]} more)"
    return PROMPTS[kind]


def one_djinn(kind: int) -> str:
    return "a boss" if kind == BOSS else f"a {KINDS[kind]} Djinn"


KEY_WORDS = {"key_coin": "a coin", "key_scroll": "a scroll", "key_magic": "1 magic"}


def label(state: DjinnState, seat: int, frame: Frame, action: int) -> str:
    group, i = state.L.group[action]
    comp = state.comp
    if group == "end":
        return "end your turn"
    if group == "done":
        return "done"
    if group == "start":
        sq, r = 1 + i // 6, 7 + i % 6
        return f"{LOCATIONS[state.loc[sq]]} ({SPACE_NAMES[sq]}), coming from {SPACE_NAMES[r]}"
    if group == "move":
        where = "the Magic Source" if i == 0 else f"{LOCATIONS[state.loc[i]]} ({SPACE_NAMES[i]})"
        # Only the mages at the edge this move arrives at are paid (ruling D27): those that
        # came from where this mage now stands.
        at_edge = occupants(state, seat, i, frame.context[0])
        return where + (f", taken by {seats_words(at_edge)}" if at_edge else "")
    if group == "stop":
        return "stay and pay the mages here"
    if group == "skip":
        return "skip on to the next space"
    if group in ("pay_coin", "pay_scroll"):
        return f"pay player {frame.context[0][0]} a {group[4:]}"
    if group == "basic":
        return f"basic action of {place_words(LOCATIONS[state.loc[frame.context[0]]])}"
    if group == "special":
        return f"special action of {place_words(LOCATIONS[state.loc[frame.context[0]]])}"
    if group == "passage_use":
        from arabesque.games.djinn.rules import own_passage

        where = place_words(LOCATIONS[own_passage(state, seat, frame.context[0])])
        return f"your secret passage: basic action of {where}"
    if group == "catch":
        return "catch Djinn (or decline and lose a magic)"
    if group == "forfeit":
        return f"forfeit the actions for {reward_words(comp.forfeit[i])}"
    if group == "refill":
        return "move your magic marker to its maximum"
    if group == "bosses":
        return f"catch bosses of the supply for {comp.source_boss_cost} magic each"
    if group == "row2":
        price = plural(scroll_price(state, seat), "scroll")
        return f"pay {price}: {reward_words(comp.rewards['source_row2'])}"
    if group == "boss":
        return f"catch a boss for {comp.source_boss_cost} magic"
    if group == "select":
        return f"add {one_djinn(i)}"
    if group == "confirm":
        return "catch the chosen Djinn"
    if group == "decline":
        return f"do not catch (lose {comp.decline_cost} magic)"
    if group == "use_mage":
        card = comp.mage_cards[i]
        power = card_power(state, seat, i, frame.context[1])
        cost = f"pay {plural(card.cost, 'coin')}" if card.cost else "free"
        return f"use Mage card {i}: +{power} power here, {cost}"
    if group == "settle":
        return "pay the rest with your own magic"
    if group == "circle":
        return "into an empty spell circle"
    if group == "bottle":
        return f"into a {COLOURS[i]} bottle with a cork"
    if group == "release":
        return "let it go (no room for it)"
    if group == "free":
        return f"take {one_djinn(i)} for free"
    if group == "take":
        top = state.piles[i][-1]
        return f"pile {i + 1}: {mage_words(comp.mage_cards[top])}"
    if group == "unlock":
        return f"pay a key for {reward_words(comp.chests[frame.context[0]].key_reward)}"
    if group == "discard_chest":
        return f"discard chest {i} ({reward_words(comp.chests[i].reward)})"
    if group == "archive":
        if i == 0:
            return "place a secret passage"
        basic, improved = comp.archives[i]
        return reward_words(improved if state.improved[seat] else basic)
    if group == "place_passage":
        square = 1 + i % 6
        shown = LOCATIONS[state.loc[square]]
        to = place_words(LOCATIONS[i // 6])
        return f"a passage to {to} at {place_words(shown)} ({SPACE_NAMES[square]})"
    if group == "equip":
        top = state.equip_stacks[i][-1]
        return f"{EQUIP_TYPES[i]} {top}: {equipment_words(comp.equipment[top])}"
    if group == "tent":
        place = comp.market_places(state.num_players)[i]
        taken = [q for q in range(state.num_players) if q != seat and state.tent[q] == i]
        tents = ", ".join(comp.tents[t] for t in place)
        return f"tent {i + 1} ({tents})" + (f", taken by {seats_words(taken)}" if taken else "")
    if group == "offer":
        o = comp.offers[i]
        price = plural(o.coins, "coin") if o.coins else plural(o.scrolls, "scroll")
        return f"pay {price}: {reward_words(o.reward)}"
    if group == "activate":
        return f"activate {mage_words(comp.mage_cards[i])}"
    if group == "choose":
        return f"a {COLOURS[i]} bottle"
    if group == "character":
        tile = comp.characters[i]
        sign = "good" if tile.positive else "bad"
        return f"{tile.name} ({sign}): {character_words(comp, tile)}"
    if group in ("key_coin", "key_scroll", "key_magic"):
        return f"exchange a key for {KEY_WORDS[group]}"
    if group == "trophy":
        t = comp.trophies[i // len(COLOURS)]
        return (
            f"claim trophy {t.id} with 3 {COLOURS[i % len(COLOURS)]} bottles: "
            f"{plural(t.points, 'point')}, {reward_words(t.reward, 'no reward')} "
            f"(row {'I' * (t.row + 1)})"
        )
    if group == "seal":
        circle, colour = i // len(COLOURS) + 1, COLOURS[i % len(COLOURS)]
        k = state.circles[seat][circle - 1]
        djinn = "boss" if k == BOSS else f"{KINDS[k]} Djinn" if 0 <= k < len(KINDS) else "Djinn"
        return f"move the {djinn} of spell circle {circle} into a corked {colour} bottle"
    if group == "use_equipment":
        equipment = comp.equipment[i]
        words = equipment_words(equipment).removeprefix("once: ")
        return f"use {EQUIP_TYPES[equipment.type]} {i}: {words}"
    if group == "trade":
        return f"trade a {COLOURS[i // len(COLOURS)]} bottle for a {COLOURS[i % len(COLOURS)]} one"
    raise AssertionError(group)


def context(state: DjinnState, frame: Frame) -> dict[str, Any] | None:
    kind = frame.kind
    ctx = frame.context
    comp = state.comp
    if kind in (Kind.CATCH_SELECT, Kind.CATCH_PAY):
        space, sel = ctx[0], ctx[1]
        out: dict[str, Any] = {
            "space": SPACE_NAMES[space],
            "selected": {KINDS[k]: sel[k] for k in range(len(KINDS)) if sel[k]},
            "strength": strength(state, frame.seat, space, sel),
        }
        if kind is Kind.CATCH_PAY:
            out["power_from_cards"] = ctx[2]
            out["cards_used"] = [c for c in state.mage_of[frame.seat] if (ctx[3] >> c) & 1]
        return out
    if kind is Kind.JUMP:
        # The space reached in the middle of the move and the mages its arrival edge holds
        # (ruling D27): what stopping costs.
        space, frm = ctx[0], ctx[1]
        return {
            "space": SPACE_NAMES[space],
            "came_from": SPACE_NAMES[frm],
            "mages_at_edge": list(occupants(state, frame.seat, space, frm)),
        }
    if kind is Kind.PLACE:
        return {"djinn": KINDS[ctx[0]], "still_to_place": [KINDS[k] for k in ctx[2]]}
    if kind is Kind.CHEST_KEY:
        chest = comp.chests[ctx[0]]
        return {"chest": chest.id, "key_reward": reward_words(chest.key_reward)}
    if kind is Kind.TAVERN:
        return {
            "piles": [None if not p else mage_json(comp.mage_cards[p[-1]]) for p in state.piles]
        }
    if kind is Kind.MANUFACTORY:
        return {
            "stacks": [
                None if not st else equipment_json(comp.equipment[st[-1]])
                for st in state.equip_stacks
            ]
        }
    return None


def default_of(state: DjinnState, frame: Frame, main: tuple[int, ...]) -> int:
    L = state.L.base
    for preferred in ("end", "decline", "done", "settle"):
        if L[preferred] in main:
            return L[preferred]
    return main[0]


def decision_for(state: DjinnState, seat: int) -> Decision:
    frame = state.stack.top
    assert frame is not None
    options = state.options
    # The options are ascending (legal actions) and side actions come last in the space.
    split = bisect_left(options, state.L.side_start)
    main = options[:split]
    return Decision(
        seat=seat,
        kind=frame.kind,
        options=options,
        prompt=prompt(state, frame),
        labels=tuple(label(state, seat, frame, a) for a in options),
        default=default_of(state, frame, main),
        context=context(state, frame),
        optional=options[split:],
        trail=tuple(prompt(state, f) for f in state.stack.frames[:-1] if f.kind is not Kind.GAIN),
    )
