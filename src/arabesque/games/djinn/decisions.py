"""Djinn decisions in the core's shape: a kind, a prompt, labelled options, a default, the
trail of enclosing decisions and the side actions offered alongside (``optional``).

The options are exactly ``legal_actions`` (rules.py computes them); this module only words
them and names what a seat whose time runs out gets: end the turn where it may, decline a
catch, stop choosing (``done``), otherwise the first option.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Decision, Frame
from arabesque.games.djinn.actions import SPACE_NAMES
from arabesque.games.djinn.components import (
    ARCHIVE_OPTIONS,
    COLOURS,
    EQUIP_TYPES,
    KINDS,
    LOCATIONS,
    equipment_json,
    mage_json,
    reward_text,
)
from arabesque.games.djinn.rules import scroll_price, strength
from arabesque.games.djinn.state import DjinnState, Kind

PROMPTS: dict[Kind, str] = {
    Kind.DRAFT: "Take a character tile",
    Kind.START: "Place your mage next to a square space",
    Kind.MOVE: "Move your mage along a path",
    Kind.JUMP: "The space is taken: pay the mages there, or skip on",
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
            else f"{LOCATIONS[state.loc[space]]} ({SPACE_NAMES[space]})"
        )
        return f"{PROMPTS[kind]} at {where}"
    if kind is Kind.CATCH_PAY:
        space, sel, power = ctx[:3]
        need = strength(state, frame.seat, space, sel)
        return f"{PROMPTS[kind]}: strength {need}, cards give {power}"
    if kind is Kind.PLACE:
        return f"Put the caught {KINDS[ctx[0]]} Djinn into a spell circle or a bottle"
    if kind is Kind.ARCHIVES:
        return f"{PROMPTS[kind]} ({ctx[0]} left)"
    if kind is Kind.ACTIVATE:
        return f"{PROMPTS[kind]} (up to {ctx[0]} more)"
    return PROMPTS[kind]


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
        taken = [q for q in range(state.num_players) if q != seat and state.pos[q] == i]
        return where + (f", taken by {taken}" if taken else "")
    if group == "stop":
        return "stay and pay the mages here"
    if group == "skip":
        return "skip on to the next space"
    if group in ("pay_coin", "pay_scroll"):
        return f"pay player {frame.context[0][0]} a {group[4:]}"
    if group == "basic":
        return f"basic action: {LOCATIONS[state.loc[frame.context[0]]]}"
    if group == "special":
        return f"special action: {LOCATIONS[state.loc[frame.context[0]]]}"
    if group == "passage_use":
        from arabesque.games.djinn.rules import own_passage

        return (
            f"your passage's basic action: {LOCATIONS[own_passage(state, seat, frame.context[0])]}"
        )
    if group == "catch":
        return "catch Djinn (or decline and lose a magic)"
    if group == "forfeit":
        return f"forfeit the actions for {reward_text(comp.forfeit[i])}"
    if group == "refill":
        return "move your magic marker to its maximum"
    if group == "bosses":
        return f"catch bosses of the supply for {comp.source_boss_cost} magic each"
    if group == "row2":
        return (
            f"pay {scroll_price(state, seat)} scrolls: {reward_text(comp.rewards['source_row2'])}"
        )
    if group == "boss":
        return f"catch a boss for {comp.source_boss_cost} magic"
    if group == "select":
        return f"add a {KINDS[i]} Djinn"
    if group == "confirm":
        return "catch the chosen Djinn"
    if group == "decline":
        return f"do not catch (lose {comp.decline_cost} magic)"
    if group == "use_mage":
        card = comp.mage_cards[i]
        return f"use Mage card {i} (power {card.power}, cost {card.cost})"
    if group == "settle":
        return "pay the rest with your own magic"
    if group == "circle":
        return "into an empty spell circle"
    if group == "bottle":
        return f"into a {COLOURS[i]} bottle with a cork"
    if group == "release":
        return "let it go back"
    if group == "free":
        return f"take a {KINDS[i]} Djinn for free"
    if group == "take":
        top = state.piles[i][-1]
        card = comp.mage_cards[top]
        key = ", key" if card.key else ""
        return f"pile {i + 1}: Mage card {top} (power {card.power}, cost {card.cost}{key})"
    if group == "unlock":
        return f"pay a key for {reward_text(comp.chests[frame.context[0]].key_reward)}"
    if group == "discard_chest":
        return f"discard chest {i} ({reward_text(comp.chests[i].reward)})"
    if group == "archive":
        if i == 0:
            return "place a secret passage"
        basic, improved = comp.archives[i]
        return f"{ARCHIVE_OPTIONS[i]}: {reward_text(improved if state.improved[seat] else basic)}"
    if group == "place_passage":
        square = 1 + i % 6
        shown = LOCATIONS[state.loc[square]]
        return f"{LOCATIONS[i // 6]} passage at {SPACE_NAMES[square]} ({shown})"
    if group == "equip":
        top = state.equip_stacks[i][-1]
        return f"{EQUIP_TYPES[i]}: Equipment card {top} ({comp.equipment[top].effect})"
    if group == "tent":
        place = comp.market_places(state.num_players)[i]
        return f"tent {i + 1}: " + ", ".join(comp.tents[t] for t in place)
    if group == "offer":
        o = comp.offers[i]
        price = f"{o.coins} coins" if o.coins else f"{o.scrolls} scrolls"
        return f"pay {price} for {reward_text(o.reward)}"
    if group == "activate":
        return f"activate Mage card {i}"
    if group == "choose":
        return f"a {COLOURS[i]} bottle"
    if group == "character":
        tile = comp.characters[i]
        return f"{'+' if tile.positive else '-'} {tile.name} ({tile.effect})"
    if group in ("key_coin", "key_scroll", "key_magic"):
        return f"exchange a key for a {group[4:]}"
    if group == "trophy":
        t = comp.trophies[i // len(COLOURS)]
        return (
            f"claim trophy {t.id} (row {'I' * (t.row + 1)}, {t.points} points, "
            f"{reward_text(t.reward)}) with 3 {COLOURS[i % len(COLOURS)]} bottles"
        )
    if group == "seal":
        circle, colour = i // len(COLOURS) + 1, COLOURS[i % len(COLOURS)]
        return f"move the Djinn of circle {circle} into a {colour} bottle"
    if group == "use_equipment":
        equipment = comp.equipment[i]
        return f"use Equipment card {i} ({equipment.effect}: {reward_text(equipment.reward)})"
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
    if kind is Kind.PLACE:
        return {"djinn": KINDS[ctx[0]], "still_to_place": [KINDS[k] for k in ctx[2]]}
    if kind is Kind.CHEST_KEY:
        chest = comp.chests[ctx[0]]
        return {"chest": chest.id, "key_reward": reward_text(chest.key_reward)}
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
    side_start = state.L.side_start
    main = tuple(a for a in options if a < side_start)
    return Decision(
        seat=seat,
        kind=frame.kind,
        options=options,
        prompt=prompt(state, frame),
        labels=tuple(label(state, seat, frame, a) for a in options),
        default=default_of(state, frame, main),
        context=context(state, frame),
        optional=tuple(a for a in options if a >= side_start),
        trail=tuple(prompt(state, f) for f in state.stack.frames[:-1] if f.kind is not Kind.GAIN),
    )
