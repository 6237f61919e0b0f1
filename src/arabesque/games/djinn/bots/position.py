"""The bot's picture of its view: the players' boards, the map and the displays, as counts.

Owns the index tables the bot counts with (colours, kinds, spaces, locations, reward kinds),
``Player`` (one board as counts) with its ``Card`` (a Mage card), ``Resources`` (what a catch
can use) and ``Picture``, built from the seat's view and the public components only (never
the real state). No values here: ``evaluation`` adds them, ``search`` the look-ahead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arabesque.games.djinn.actions import SPACE_NAMES
from arabesque.games.djinn.components import (
    COLOURS,
    KINDS,
    LOCATIONS,
    REWARD_KINDS,
    Components,
    MageCard,
)

NCOL = len(COLOURS)
NKINDS = len(KINDS)
SOURCE = 0
ACADEMY, TAVERN, CATACOMBS, ARCHIVES, MANUFACTORY, MARKET = range(6)
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
SPACE_INDEX = {s: i for i, s in enumerate(SPACE_NAMES)}
REWARD_INDEX = {r: i for i, r in enumerate(REWARD_KINDS)}


@dataclass
class Card:
    id: int
    cost: int
    power: int
    bonus: tuple[int, ...]
    key: bool
    active: bool


@dataclass
class Player:
    """One player's board, as counts."""

    coins: int
    scrolls: int
    keys: int
    corks: int
    magic: int
    max_magic: int
    base: int
    capacity: int
    flipped: bool
    scroll_price: int
    pos: int
    came: int
    tent: int  # market place index, -1 for none
    circles: list[int]  # kind index, -1 empty, -2 inactive/covered
    bottles: list[int]  # empty bottles per colour
    filled: list[int]  # bottled Djinn (bosses included) per colour
    cards: list[Card]
    equipment: list[dict[str, Any]]
    equip_types: set[str]
    passages_left: list[int]
    improved: bool
    fx: set[str]
    trophies: int

    @property
    def empty_circles(self) -> int:
        return self.circles.count(-1)

    @property
    def inactive_circles(self) -> int:
        return self.circles.count(-2)

    @property
    def catch_power(self) -> int:
        return sum(
            int(e["amount"])
            for e in self.equipment
            if e["face_up"] and e["effect"] == "catch_power"
        )


def _player(data: dict[str, Any], comp: Components) -> Player:
    circles = []
    for c in data["circles"]:
        if c == "empty":
            circles.append(-1)
        elif c in _KIND_INDEX:
            circles.append(_KIND_INDEX[c])
        else:
            circles.append(-2)
    bottles = data["bottles"]
    cards = []
    for m in data["mage_cards"]:
        card: MageCard = comp.mage_cards[int(m["id"])]
        cards.append(Card(card.id, card.cost, card.power, card.bonus, card.key, bool(m["active"])))
    tent = data["assistant_tent"]
    pos, came = data["position"], data["came_from"]
    equipment = list(data["equipment"])
    return Player(
        coins=int(data["coins"]),
        scrolls=int(data["scrolls"]),
        keys=int(data["keys"]),
        corks=int(data["corks"]),
        magic=int(data["magic"]),
        max_magic=int(data["max_magic"]),
        base=int(data["base"]),
        capacity=int(data["capacity"]),
        flipped=bool(data["capacity_flipped"]),
        scroll_price=int(data["scroll_price"]),
        pos=-1 if pos is None else SPACE_INDEX[pos],
        came=-1 if came is None else SPACE_INDEX[came],
        tent=-1 if tent is None else int(tent) - 1,
        circles=circles,
        bottles=[int(bottles[c]["empty"]) for c in COLOURS],
        filled=[int(bottles[c]["djinn"]) + int(bottles[c]["bosses"]) for c in COLOURS],
        cards=cards,
        equipment=equipment,
        equip_types={str(e["type"]) for e in equipment},
        passages_left=[LOCATIONS.index(x) for x in data["passages_left"]],
        improved=bool(data["archives_improved"]),
        fx={str(c["effect"]) for c in data["characters"]},
        trophies=len(data["trophies"]),
    )


@dataclass
class Resources:
    """What a catch can use: a hypothetical variant of the bot's own board."""

    magic: int
    coins: int
    corks: int
    bottles: list[int]
    circles: int


class Picture:
    """The public position of one view, as counts."""

    def __init__(self, view: dict[str, Any], me: int, comp: Components) -> None:
        self.comp = comp
        self.me = me
        players = view["players"]
        self.n = len(players)
        self.solo = self.n == 1
        self.round = int(view["round"])
        self.final = view["stage"] == "final Magic Source"
        self.players = [_player(p, comp) for p in players]
        self.p = self.players[me]
        spaces = view["spaces"]
        self.loc: list[int] = [
            -1 if s["location"] is None else LOCATIONS.index(s["location"]) for s in spaces
        ]
        self.adj: list[list[int]] = [[SPACE_INDEX[t] for t in s["paths"]] for s in spaces]
        self.mages: list[list[int]] = [[int(q) for q in s["mages"]] for s in spaces]
        self.djinn: list[list[int]] = [
            [int(s["djinn"][k]) for k in KINDS] if "djinn" in s else [0] * NKINDS for s in spaces
        ]
        self.my_passage: list[int] = [-1] * len(spaces)
        for i, s in enumerate(spaces):
            for ps in s.get("passages", ()):
                if int(ps["seat"]) == me:
                    self.my_passage[i] = LOCATIONS.index(ps["location"])
        self.tavern = view["tavern"]
        self.removed_passages = list(view["removed_passages"])
        self.manufactory = view["manufactory"]
        self.market = view["market"]
        self.supply_bosses = int(view["supply_bosses"])
        #: The conditions of the scoring cards out this game (rulebook §Scoring cards).
        by_name = {c.name: c.condition for c in comp.scoring_cards}
        self.cards_out = {by_name.get(str(c["name"]), "") for c in view["scoring_cards"]}
        tom = view.get("tom")
        self.tom_left = int(tom["cards_left"]) if tom else 0
        # Demand per colour: Djinn of the colour on the map and in the bot's circles.
        board = [0] * NCOL
        for d in self.djinn:
            for c in range(NCOL):
                board[c] += d[c]
        self.board = board
        p = self.p
        self.room = max(0, p.max_magic - p.magic)

    # -- resources ---------------------------------------------------------------------------

    def resources(self) -> Resources:
        p = self.p
        return Resources(p.magic, p.coins, p.corks, list(p.bottles), p.empty_circles)
