"""What one seat may know of a Djinn game, as JSON.

Everything on the table is public: the map with its mages, Djinn and passages, each player's
board, the displays, the trophies, scoring cards and Tom's revealed cards. Hidden are the
orders of the decks: the Mage piles and Equipment stacks below their top cards, the chest
deck, Tom's deck, the scoring cards left in the box (their sizes are shown); the bag shows how
many Djinn of each colour it holds, which anyone can count. And the face-down scoring cards of
a character tile: only their holder sees them (and the points they bring) until the end.

Views belong to their reader, who may change them: every dict and list here is fresh. The JSON
of the components (cards, tiles, trophies, the market) and their words are built once per
components (``tables``) and copied, nested dicts included, with the keys in the same order.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.observer import cached_on
from arabesque.games.djinn.actions import ROUNDS, SPACE_NAMES, SQUARES
from arabesque.games.djinn.components import (
    BOSS,
    COLOURS,
    EQUIP_TYPES,
    KINDS,
    LOCATIONS,
    Components,
    equipment_json,
    mage_json,
    reward_json,
)
from arabesque.games.djinn.rules import max_magic, score_breakdowns, scroll_price, solo_tasks
from arabesque.games.djinn.state import COVERED, EMPTY, INACTIVE, STAGE_NAMES, DjinnState, Kind
from arabesque.games.djinn.words import character_words, equipment_words

#: Per space: its shape on the map (the Magic Source, the squares, the round spaces).
_SHAPES: tuple[str, ...] = tuple(
    "source" if space == 0 else ("square" if space in SQUARES else "round")
    for space in range(len(SPACE_NAMES))
)
_NUM_SPACES = len(SPACE_NAMES)
_NUM_KINDS = len(KINDS)
_NUM_COLOURS = len(COLOURS)
_COLOURS = tuple(enumerate(COLOURS))
_IS_ROUND = tuple(space in ROUNDS for space in range(_NUM_SPACES))
_IS_SQUARE = tuple(space in SQUARES for space in range(_NUM_SPACES))
_CIRCLE_NAMES = {INACTIVE: "inactive", COVERED: "covered", EMPTY: "empty"}


class Tables:
    """Per-components JSON for views, built once (``tables``): what a view shows of a card,
    a tile or a trophy never changes, only which of them a player holds."""

    def __init__(self, comp: Components) -> None:
        self.mage: tuple[dict[str, Any], ...] = tuple(mage_json(m) for m in comp.mage_cards)
        #: Per Equipment card: its JSON and its words (``text``).
        self.equipment: tuple[dict[str, Any], ...] = tuple(
            {**equipment_json(e), "text": equipment_words(e)} for e in comp.equipment
        )
        self.character: tuple[dict[str, Any], ...] = tuple(
            {
                "id": c,
                "name": tile.name,
                "positive": tile.positive,
                "effect": tile.effect,
                "text": character_words(comp, tile),
            }
            for c, tile in enumerate(comp.characters)
        )
        #: Per character tile, as the draft shows it (``tile_json``).
        self.tile: tuple[dict[str, Any], ...] = tuple(
            {"id": c, "name": tile.name, "text": character_words(comp, tile)}
            for c, tile in enumerate(comp.characters)
        )
        #: Per trophy: as a player's (won) and as the rows show it (with its reward).
        self.won_trophy: tuple[dict[str, Any], ...] = tuple(
            {"id": t, "row": trophy.row + 1, "points": trophy.points}
            for t, trophy in enumerate(comp.trophies)
        )
        self.trophy: tuple[dict[str, Any], ...] = tuple(
            {"id": t, "points": trophy.points, "reward": reward_json(trophy.reward)}
            for t, trophy in enumerate(comp.trophies)
        )
        self.trophy_points: tuple[int, ...] = tuple(t.points for t in comp.trophies)
        self.scoring_card: tuple[dict[str, Any], ...] = tuple(
            {"id": c, "name": card.name} for c, card in enumerate(comp.scoring_cards)
        )
        self.offers: tuple[dict[str, Any], ...] = tuple(
            {
                "offer": j + 1,
                "tent": comp.tents[o.tent],
                "coins": o.coins,
                "scrolls": o.scrolls,
                "reward": reward_json(o.reward),
            }
            for j, o in enumerate(comp.offers)
        )
        #: Per map layout (``state.loc``, ``state.adj``): per space its id, shape, location
        #: and paths, the part of ``spaces_json`` a game never changes.
        self.map_spaces: dict[
            tuple[tuple[int, ...], tuple[tuple[int, ...], ...]],
            tuple[tuple[str, str, str | None, list[str]], ...],
        ] = {}
        #: Per player count (1-4): the Market's places, ``market_json`` without the offers.
        self.places: dict[int, tuple[dict[str, Any], ...]] = {
            players: tuple(
                {
                    "place": i + 1,
                    "tents": [comp.tents[t] for t in place],
                    "offers": [j + 1 for j, o in enumerate(comp.offers) if o.tent in place],
                }
                for i, place in enumerate(comp.market_places(players))
            )
            for players in range(1, 5)
        }


def tables(comp: Components) -> Tables:
    """The view tables of ``comp``, cached on the (frozen) components object itself."""
    return cached_on(comp, "_arabesque_djinn_view_tables", lambda: Tables(comp))


def _with_reward(entry: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a table entry whose only nested value is its ``reward`` dict."""
    # ``dict.copy`` clones the key table at once, faster than ``{**entry, ...}``; setting a
    # key the copy already has keeps its place, so the key order is the entry's.
    copy = entry.copy()
    copy["reward"] = copy["reward"].copy()
    return copy


def _bonus_copied(entry: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a Mage card's entry, its ``bonus`` dict too."""
    copy = entry.copy()
    copy["bonus"] = copy["bonus"].copy()
    return copy


def _mage_card(entry: dict[str, Any], active: bool) -> dict[str, Any]:
    """A fresh copy of a Mage card's entry (its ``bonus`` dict too) with ``active`` last."""
    copy = entry.copy()
    copy["bonus"] = copy["bonus"].copy()
    copy["active"] = active
    return copy


def _equipment_card(entry: dict[str, Any], face_up: bool) -> dict[str, Any]:
    """A fresh copy of an Equipment card's entry (its ``reward`` too) with ``face_up`` last."""
    copy = entry.copy()
    copy["reward"] = copy["reward"].copy()
    copy["face_up"] = face_up
    return copy


def _map_spaces(state: DjinnState) -> tuple[tuple[str, str, str | None, list[str]], ...]:
    """Per space: its id, shape, location and the ids its paths lead to (``Tables``)."""
    known = tables(state.comp).map_spaces
    key = (state.loc, state.adj)
    found = known.get(key)
    if found is None:
        if len(known) >= _MAP_LAYOUTS_KEPT:
            known.clear()
        found = known[key] = tuple(
            (
                SPACE_NAMES[space],
                _SHAPES[space],
                None if space == 0 else LOCATIONS[state.loc[space]],
                [SPACE_NAMES[t] for t in state.adj[space]],
            )
            for space in range(_NUM_SPACES)
        )
    return found


#: How many map layouts ``_map_spaces`` remembers (a server runs many games at once).
_MAP_LAYOUTS_KEPT = 1024


def spaces_json(state: DjinnState) -> list[dict[str, Any]]:
    """Every space of the map, in order."""
    at: list[list[int]] = [[] for _ in range(_NUM_SPACES)]
    for q, space in enumerate(state.pos):
        if space >= 0:
            at[space].append(q)
    djinn, passages = state.djinn, state.passages
    out = []
    for space, (name, shape, location, paths) in enumerate(_map_spaces(state)):
        entry: dict[str, Any] = {
            "id": name,
            "shape": shape,
            "location": location,
            "paths": paths.copy(),
            "mages": at[space],
        }
        if _IS_ROUND[space]:
            entry["djinn"] = dict(zip(KINDS, djinn[space], strict=True))
        elif _IS_SQUARE[space]:
            entry["passages"] = [{"seat": q, "location": LOCATIONS[x]} for q, x in passages[space]]
        out.append(entry)
    return out


def circle_json(value: int) -> str:
    name = _CIRCLE_NAMES.get(value)
    return KINDS[value] if name is None else name


#: ``circle_json`` of every value a spell circle can hold, looked up in one step.
_CIRCLE_TEXT: dict[int, str] = {
    v: circle_json(v) for v in {*range(-_NUM_KINDS, _NUM_KINDS), *_CIRCLE_NAMES}
}


def players_json(state: DjinnState, seat: int | None) -> list[dict[str, Any]]:
    """Every player's board as ``seat`` sees it (the face-down scoring cards of a character
    tile: their number is public, the cards only for their holder until the game is over)."""
    t = tables(state.comp)
    mage, equipment, won_trophy = t.mage, t.equipment, t.won_trophy
    character, scoring_card = t.character, t.scoring_card
    mage_active, equip_up = state.mage_active, state.equip_up
    circle_text = _CIRCLE_TEXT.__getitem__
    over = state.over
    out = []
    for p in range(state.num_players):
        empty, djinn, bosses = state.bottles[p], state.filled[p], state.filled_boss[p]
        pos, came, tent = state.pos[p], state.came[p], state.tent[p]
        secret = state.secret[p]
        out.append(
            {
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
                "position": None if pos < 0 else SPACE_NAMES[pos],
                "came_from": None if came < 0 else SPACE_NAMES[came],
                "assistant_tent": None if tent < 0 else tent + 1,
                "circles": list(map(circle_text, state.circles[p])),
                "bottles": {
                    colour: {"empty": empty[c], "djinn": djinn[c], "bosses": bosses[c]}
                    for c, colour in _COLOURS
                },
                "mage_cards": [_mage_card(mage[c], mage_active[c]) for c in state.mage_of[p]],
                "equipment": [
                    _equipment_card(equipment[e], equip_up[e]) for e in state.equip_of[p]
                ],
                "set_bonus": state.set_bonus[p],
                "passages_left": [LOCATIONS[x] for x in state.passages_left[p]],
                "archives_improved": state.improved[p],
                "trophies": [won_trophy[x].copy() for x in state.trophies_of[p]],
                "characters": [character[c].copy() for c in state.chars[p]],
                "secret_scoring_cards": {
                    "count": len(secret),
                    "cards": [scoring_card[c].copy() for c in secret]
                    if over or seat == p
                    else None,
                },
            }
        )
    return out


def current_seat(state: DjinnState) -> int:
    """The seat whose turn it is: during the draft, the seat taking a tile (the start player
    is ``start_player``)."""
    top = state.stack.top
    if top is not None and top.kind is Kind.DRAFT:
        return top.seat
    return state.current


def market_json(state: DjinnState) -> dict[str, Any]:
    """The Market's places for this player count and its offers (fixed by the components)."""
    t = tables(state.comp)
    return {
        "places": [
            {"place": x["place"], "tents": list(x["tents"]), "offers": list(x["offers"])}
            for x in t.places[state.num_players]
        ],
        "offers": list(map(_with_reward, t.offers)),
    }


def build_view(state: DjinnState, seat: int | None) -> dict[str, Any]:
    comp = state.comp
    t = tables(comp)
    top = state.stack.top
    scores = score_breakdowns(state, -1 if seat is None else seat)
    catch = None
    if top is not None and top.kind.name in ("CATCH_SELECT", "CATCH_PAY"):
        space, sel = top.context[0], top.context[1]
        catch = {
            "seat": top.seat,
            "space": SPACE_NAMES[space],
            "selected": {KINDS[k]: sel[k] for k in range(_NUM_KINDS) if sel[k]},
        }
    mage = t.mage
    equipment = t.equipment
    trophy = t.trophy
    bag = state.bag
    view: dict[str, Any] = {
        "round": state.round,
        "max_rounds": state.params.max_rounds,
        "start_player": state.first,
        "current": None if state.over else current_seat(state),
        "stage": STAGE_NAMES[state.stage],
        "spaces": spaces_json(state),
        "bosses_on_board": sum(state.djinn[r][BOSS] for r in ROUNDS),
        "players": players_json(state, seat),
        "tavern": [
            {
                "top": None if not pile else _bonus_copied(mage[pile[-1]]),
                "size": len(pile),
                "key": i >= 2,
            }
            for i, pile in enumerate(state.piles)
        ],
        "catacombs": {"deck": len(state.chest_deck), "discard": list(state.chest_discard)},
        "manufactory": [
            {
                "type": EQUIP_TYPES[k],
                "size": len(stack),
                "top": None if not stack else _with_reward(equipment[stack[-1]]),
            }
            for k, stack in enumerate(state.equip_stacks)
        ],
        "market": market_json(state),
        "trophies": [[_with_reward(trophy[x]) for x in row] for row in state.trophy_rows],
        "scoring_cards": [t.scoring_card[c].copy() for c in state.scoring],
        "draft": None
        if not (state.draft[0] or state.draft[1])
        else {
            "negative": [t.tile[c].copy() for c in state.draft[0]],
            "positive": [t.tile[c].copy() for c in state.draft[1]],
        },
        "removed_passages": [LOCATIONS[x] for x in state.removed_passages],
        "bag": {COLOURS[c]: bag[c] for c in range(_NUM_COLOURS)},
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
