"""What one seat may know of a Djinn game, as JSON.

Everything on the table is public: the map with its mages, Djinn and passages, each player's
board, the displays, the trophies, scoring cards and Tom's revealed cards. Hidden are the
orders of the decks: the Mage piles and Equipment stacks below their top cards, the chest
deck, Tom's deck, the scoring cards left in the box (their sizes are shown); the bag shows how
many Djinn of each colour it holds, which anyone can count. And the face-down scoring cards of
a character tile: only their holder sees them (and the points they bring) until the end.
"""

from __future__ import annotations

from typing import Any

from arabesque.games.djinn.actions import ROUNDS, SPACE_NAMES, SQUARES
from arabesque.games.djinn.components import (
    BOSS,
    COLOURS,
    EQUIP_TYPES,
    KINDS,
    LOCATIONS,
    equipment_json,
    mage_json,
    reward_json,
)
from arabesque.games.djinn.rules import max_magic, score_breakdowns, scroll_price, solo_tasks
from arabesque.games.djinn.state import COVERED, EMPTY, INACTIVE, STAGE_NAMES, DjinnState, Kind
from arabesque.games.djinn.words import character_words, equipment_words


def space_json(state: DjinnState, space: int) -> dict[str, Any]:
    shape = "source" if space == 0 else ("square" if space in SQUARES else "round")
    out: dict[str, Any] = {
        "id": SPACE_NAMES[space],
        "shape": shape,
        "location": None if space == 0 else LOCATIONS[state.loc[space]],
        "paths": [SPACE_NAMES[t] for t in state.adj[space]],
        "mages": [q for q in range(state.num_players) if state.pos[q] == space],
    }
    if space in ROUNDS:
        here = state.djinn[space]
        out["djinn"] = {KINDS[k]: here[k] for k in range(len(KINDS))}
    if space in SQUARES:
        out["passages"] = [
            {"seat": q, "location": LOCATIONS[loc]} for q, loc in state.passages[space]
        ]
    return out


def circle_json(value: int) -> str:
    if value == INACTIVE:
        return "inactive"
    if value == COVERED:
        return "covered"
    if value == EMPTY:
        return "empty"
    return KINDS[value]


def secret_json(state: DjinnState, p: int, seat: int | None) -> dict[str, Any]:
    """The character tile's face-down scoring cards: their number is public, the cards only
    for their holder until the game is over."""
    cards = state.secret[p]
    shown = state.over or seat == p
    return {
        "count": len(cards),
        "cards": [{"id": c, "name": state.comp.scoring_cards[c].name} for c in cards]
        if shown
        else None,
    }


def player_json(state: DjinnState, p: int, seat: int | None = None) -> dict[str, Any]:
    comp = state.comp
    return {
        "seat": p,
        "coins": state.coins[p],
        "scrolls": state.scrolls[p],
        "keys": state.keys[p],
        "corks": state.corks[p],
        "magic": state.magic[p],
        "max_magic": max_magic(state, p),
        "base": state.base[p],
        "capacity": state.capacity[p],
        "capacity_flipped": state.flipped[p],
        "scroll_price": scroll_price(state, p),
        "position": None if state.pos[p] < 0 else SPACE_NAMES[state.pos[p]],
        "came_from": None if state.came[p] < 0 else SPACE_NAMES[state.came[p]],
        "assistant_tent": None if state.tent[p] < 0 else state.tent[p] + 1,
        "circles": [circle_json(c) for c in state.circles[p]],
        "bottles": {
            COLOURS[c]: {
                "empty": state.bottles[p][c],
                "djinn": state.filled[p][c],
                "bosses": state.filled_boss[p][c],
            }
            for c in range(len(COLOURS))
        },
        "mage_cards": [
            {**mage_json(comp.mage_cards[c]), "active": state.mage_active[c]}
            for c in state.mage_of[p]
        ],
        "equipment": [
            {
                **equipment_json(comp.equipment[e]),
                "text": equipment_words(comp.equipment[e]),
                "face_up": state.equip_up[e],
            }
            for e in state.equip_of[p]
        ],
        "set_bonus": state.set_bonus[p],
        "passages_left": [LOCATIONS[x] for x in state.passages_left[p]],
        "archives_improved": state.improved[p],
        "trophies": [
            {"id": t, "row": comp.trophies[t].row + 1, "points": comp.trophies[t].points}
            for t in state.trophies_of[p]
        ],
        "characters": [
            {
                "id": c,
                "name": comp.characters[c].name,
                "positive": comp.characters[c].positive,
                "effect": comp.characters[c].effect,
                "text": character_words(comp, comp.characters[c]),
            }
            for c in state.chars[p]
        ],
        "secret_scoring_cards": secret_json(state, p, seat),
    }


def current_seat(state: DjinnState) -> int:
    """The seat whose turn it is: during the draft, the seat taking a tile (the start player
    is ``start_player``)."""
    top = state.stack.top
    if top is not None and top.kind is Kind.DRAFT:
        return top.seat
    return state.current


def tile_json(state: DjinnState, c: int) -> dict[str, Any]:
    tile = state.comp.characters[c]
    return {"id": c, "name": tile.name, "text": character_words(state.comp, tile)}


def build_view(state: DjinnState, seat: int | None) -> dict[str, Any]:
    comp = state.comp
    top = state.stack.top
    scores = score_breakdowns(state, -1 if seat is None else seat)
    catch = None
    if top is not None and top.kind.name in ("CATCH_SELECT", "CATCH_PAY"):
        space, sel = top.context[0], top.context[1]
        catch = {
            "seat": top.seat,
            "space": SPACE_NAMES[space],
            "selected": {KINDS[k]: sel[k] for k in range(len(KINDS)) if sel[k]},
        }
    view: dict[str, Any] = {
        "round": state.round,
        "max_rounds": state.params.max_rounds,
        "start_player": state.first,
        "current": None if state.over else current_seat(state),
        "stage": STAGE_NAMES[state.stage],
        "spaces": [space_json(state, s) for s in range(len(SPACE_NAMES))],
        "bosses_on_board": sum(state.djinn[r][BOSS] for r in ROUNDS),
        "players": [player_json(state, p, seat) for p in range(state.num_players)],
        "tavern": [
            {
                "top": None if not pile else mage_json(comp.mage_cards[pile[-1]]),
                "size": len(pile),
                "key": i >= 2,
            }
            for i, pile in enumerate(state.piles)
        ],
        "catacombs": {"deck": len(state.chest_deck), "discard": list(state.chest_discard)},
        "manufactory": [
            {
                "type": EQUIP_TYPES[t],
                "size": len(st),
                "top": None
                if not st
                else {
                    **equipment_json(comp.equipment[st[-1]]),
                    "text": equipment_words(comp.equipment[st[-1]]),
                },
            }
            for t, st in enumerate(state.equip_stacks)
        ],
        "market": {
            "places": [
                {
                    "place": i + 1,
                    "tents": [comp.tents[t] for t in place],
                    "offers": [j + 1 for j, o in enumerate(comp.offers) if o.tent in place],
                }
                for i, place in enumerate(comp.market_places(state.num_players))
            ],
            "offers": [
                {
                    "offer": j + 1,
                    "tent": comp.tents[o.tent],
                    "coins": o.coins,
                    "scrolls": o.scrolls,
                    "reward": reward_json(o.reward),
                }
                for j, o in enumerate(comp.offers)
            ],
        },
        "trophies": [
            [
                {
                    "id": t,
                    "points": comp.trophies[t].points,
                    "reward": reward_json(comp.trophies[t].reward),
                }
                for t in row
            ]
            for row in state.trophy_rows
        ],
        "scoring_cards": [{"id": c, "name": comp.scoring_cards[c].name} for c in state.scoring],
        "draft": None
        if not (state.draft[0] or state.draft[1])
        else {
            "negative": [tile_json(state, c) for c in state.draft[0]],
            "positive": [tile_json(state, c) for c in state.draft[1]],
        },
        "removed_passages": [LOCATIONS[x] for x in state.removed_passages],
        "bag": {COLOURS[c]: state.bag[c] for c in range(len(COLOURS))},
        "supply_bosses": state.supply_bosses,
        "catch": catch,
        "scores": [{"total": sum(b.values()), "breakdown": b} for b in scores],
    }
    if state.num_players == 1:
        view["tom"] = {
            "deck_size": state.params.tom_deck,
            "cards_left": len(state.tom_deck),
            "revealed": list(state.tom_revealed),
            "won": state.won,
            "tasks": solo_tasks(state) if state.over else None,
        }
    return view
