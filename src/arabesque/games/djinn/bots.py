"""A heuristic Djinn bot that decides from its seat's view only.

Its model of the game, in short:

* **Points.** A Djinn in a corked bottle is worth 10, in a spell circle 3 (counted a little
  higher, since it can be sealed into a bottle later). Magic, coins, scrolls, corks, bottles,
  keys and cards are valued by what they are for: magic by the room left under the maximum
  (magic gained above it is lost), a bottle by how many Djinn of its colour are on the map
  and in the bot's circles, a cork by how many empty bottles wait for one.
* **Catching.** At a round space the bot enumerates every selection of the Djinn there,
  keeps those it can place (bottles of the colour with a cork, empty circles; bosses fit any
  bottle) and pay (its magic plus active Mage cards within its coins, as the rules compute
  strength: 4 per Djinn, a boss 2 more per other Djinn at the space), and values each by
  points, the free Djinn a boss brings and the bosses it removes from the map (which ends
  the game, and wins a solo game against Tom), minus what it spends. It then selects the
  chosen Djinn one at a time and pays with the cheapest mix of cards and magic.
* **Moving.** Each reachable space is valued by its actions (location, own passage, the
  catch with the resources the location action brings first) plus a discounted look one
  move further, where the next move may not go back.
* **Side actions.** Djinn in circles are sealed into bottles whenever possible, trophies are
  claimed when offered (the best one), once-only Equipment is used when its reward is not
  wasted, keys become magic when that makes a catch possible.
* **Scoring cards.** Gains that help or spoil a scoring card that is out count for or
  against it (keys, capacity, passages, keyed Mage cards, Equipment ...).
* **Solo.** Removing a boss weighs much more (it is the race against Tom), magic spent on a
  Djinn that brings no boss nearer counts double, and a round-space turn that cannot reach a
  boss costs one of Tom's cards.

Measured (docs/balance/djinn.md): 100 of 100 games won against random players at 2 and at 4
players; 0.5-0.9 ms per decision.

Everything it reads is public: the view (the map, every player's board, the displays) and
the components (``obs.public``). It dispatches on its decision's kind. ``favour=<location>``
makes it value one location more, which the balance script uses to test for a dominant
location.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.agents.registry import register_agent
from arabesque.games.djinn.actions import SPACE_NAMES, Layout, layout_of
from arabesque.games.djinn.components import (
    BOSS,
    COLOURS,
    KINDS,
    LOCATIONS,
    REWARD_KINDS,
    Components,
    MageCard,
    Reward,
)
from arabesque.games.djinn.state import Kind

NCOL = len(COLOURS)
NKINDS = len(KINDS)
SOURCE = 0
ACADEMY, TAVERN, CATACOMBS, ARCHIVES, MANUFACTORY, MARKET = range(6)
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_SPACE_INDEX = {s: i for i, s in enumerate(SPACE_NAMES)}
_REWARD_INDEX = {r: i for i, r in enumerate(REWARD_KINDS)}
#: The bottle and cork rewards, valued together (``Position.kit_reward``).
_KIT = {
    _REWARD_INDEX["bottle_any"]: 0,
    _REWARD_INDEX["bottles_different"]: 1,
    _REWARD_INDEX["corks"]: 2,
}

#: Points of a Djinn in a corked bottle (rulebook §Final score) and what a Djinn in a circle
#: counts for the bot: 3 points, plus a share of the 7 more it gets once sealed.
BOTTLED = 10.0
CIRCLED = 4.5
#: What the bot pays, in points, per magic spent, per coin spent, per Mage card flipped.
MAGIC_SPEND = 1.0
MAGIC_SPEND_SOLO = 2.0
COIN_SPEND = 0.5
FLIP = 1.2
#: What a gained magic (below the maximum) is worth: magic is what catches Djinn.
MAGIC_GAIN = 1.3
#: Removing a boss from the map: the game ends when all six are gone. Solo, it is the race
#: against Tom (and every card left in his deck is 10 points), so it weighs much more.
BOSS_MULTI = 2.0
BOSS_SOLO = 30.0
#: Solo: what a round-space turn that cannot reach a boss costs (one of Tom's cards).
SOLO_IDLE = 10.0
#: What the first bottle-and-cork pairs are worth on top when the bot has fewer than two
#: empty circles: room for the next catch. Off by default: solo, 6 and 12 cut the declines
#: for want of room by a quarter but won no more games (60 games each, deck 15).
STORAGE = 0.0
#: How much the best next move counts in a move's value.
LOOKAHEAD = 0.5
#: A character tile's preference (higher is taken first); unknown effects rank 0.
CHARACTER_RANK = {
    "djinn_discount": 10,
    "source_price": 7,
    "catacombs_key": 6,
    "tavern_key": 6,
    "movement_free": 5,
    "market_free": 5,
    "manufactory_corks": 5,
    "academy_activate": 4,
    # negative tiles: the least harmful first
    "no_forfeit": 3,
    "catacombs_basic_only": 2,
    "no_chest_keys": 2,
    "catch_first": 1,
    "circle_cover": 0,
    "mage_inactive": -1,
    "green_only": -2,
    "no_activate": -2,
}
#: Priority of the passage symbols the bot places (Academy's magic first).
PASSAGE_ORDER = (ACADEMY, TAVERN, MARKET, MANUFACTORY, CATACOMBS, ARCHIVES)


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
        pos=-1 if pos is None else _SPACE_INDEX[pos],
        came=-1 if came is None else _SPACE_INDEX[came],
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


class Position:
    """The public position of one view with the bot's value model."""

    def __init__(
        self,
        view: dict[str, Any],
        me: int,
        comp: Components,
        favour: int,
        storage: float = 0.0,
    ) -> None:
        self.comp = comp
        self.me = me
        self.favour = favour
        self.storage = storage
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
        self.adj: list[list[int]] = [[_SPACE_INDEX[t] for t in s["paths"]] for s in spaces]
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
        self.boss_value = BOSS_SOLO if self.solo else BOSS_MULTI
        #: Solo, magic is the currency of the race against Tom: spent on a Djinn that brings
        #: no boss nearer, it is missed later.
        self.magic_spend = MAGIC_SPEND_SOLO if self.solo else MAGIC_SPEND
        # Demand per colour: Djinn of the colour on the map and in the bot's circles.
        board = [0] * NCOL
        for d in self.djinn:
            for c in range(NCOL):
                board[c] += d[c]
        self.board = board
        p = self.p
        self.room = max(0, p.max_magic - p.magic)
        # What a bottle of each colour is for: the Djinn of the colour on the map and, more,
        # those waiting in the bot's circles to be sealed.
        self.demand = [
            min(5.0, 0.7 * board[c] + 3.0 * sum(1 for k in p.circles if k == c))
            for c in range(NCOL)
        ]
        self.kit = self.kit_value(p.bottles, p.corks)
        #: The marginal value of one more bottle of each colour (a cork may have to follow).
        self.bottle_v = [self.kit_gain((c,), 0) for c in range(NCOL)]
        self.cork_v = self.kit_gain((), 1)
        self.coin_v = 0.9 if p.coins < 3 else 0.6
        self.scroll_v = 0.8 if p.scrolls < p.scroll_price else 0.5
        self._chest_avg: float | None = None
        self._plans: dict[tuple[Any, ...], tuple[float, tuple[int, ...]]] = {}

    # -- resources ---------------------------------------------------------------------------

    def resources(self) -> Resources:
        p = self.p
        return Resources(p.magic, p.coins, p.corks, list(p.bottles), p.empty_circles)

    def kit_value(self, bottles: Sequence[int], corks: int) -> float:
        """What empty bottles and corks are worth together: a bottle with a cork turns a
        caught Djinn of its colour from 3 points into 10; one without is little use, and a
        spare cork is a point at the end."""
        values = []
        for c in range(NCOL):
            for j in range(bottles[c]):
                values.append(1.5 + max(0.0, self.demand[c] - 1.5 * j))
        values.sort(reverse=True)
        paired = min(len(values), corks)
        # Room to put Djinn in: with few empty circles, the first pairs are what makes the
        # next catch possible at all (a bot with full magic and nowhere to put a Djinn must
        # decline).
        short = max(0, 2 - self.p.empty_circles)
        return (
            self.storage * min(paired, short)
            + sum(values[:paired])
            + sum(0.5 + 0.2 * v for v in values[paired:])
            + 1.0 * (corks - paired)
        )

    def kit_gain(self, colours: Sequence[int], corks: int) -> float:
        bottles = list(self.p.bottles)
        for c in colours:
            bottles[c] += 1
        return self.kit_value(bottles, self.p.corks + corks) - self.kit

    def kit_reward(self, any_colour: int, different: int, corks: int) -> float:
        """The best gain of ``any_colour`` bottles of free colours, ``different`` bottles of
        distinct colours, and ``corks`` corks."""
        chosen: list[int] = []
        for _ in range(any_colour):
            chosen.append(max(range(NCOL), key=lambda c: self.kit_gain((*chosen, c), corks)))
        distinct: list[int] = []
        for _ in range(min(different, NCOL)):
            rest = [c for c in range(NCOL) if c not in distinct]
            distinct.append(max(rest, key=lambda c: self.kit_gain((*chosen, *distinct, c), corks)))
        return self.kit_gain((*chosen, *distinct), corks)

    def item_value(self, kind: int, amount: int, room: int | None = None) -> float:
        return self._item_value(kind, amount, room) + self.card_bonus(kind, amount)

    def card_bonus(self, kind: int, amount: int) -> float:
        """What a gain adds toward (or costs against) the scoring cards out this game."""
        out = self.cards_out
        if not out or amount <= 0:
            return 0.0
        name = REWARD_KINDS[kind]
        p = self.p
        if name == "keys" and "per_key" in out and p.keys < 3:
            return 2.0 * min(amount, 3 - p.keys)
        if name == "capacity" and "capacity_at_most" in out and p.capacity >= 6:
            return -8.0 if p.capacity == 6 else 0.0
        if name == "base" and "base_at_least" in out and p.base < 2:
            return 3.0 * amount
        if name == "circle" and "inactive_circles_at_least" in out:
            return -8.0 if p.inactive_circles == 2 else 0.0
        if name == "activate" and "per_active_mage" in out:
            return 1.0 * min(amount, sum(1 for c in p.cards if not c.active))
        if name in ("corks", "bottle_any", "bottles_different") and "per_unused_bottle_cork" in out:
            return 1.0 * amount
        if name == "equipment" and out & {"equipment_sets_at_least", "equipment_per_third"}:
            return 2.0 * amount
        return 0.0

    def _item_value(self, kind: int, amount: int, room: int | None = None) -> float:
        name = REWARD_KINDS[kind]
        p = self.p
        if room is None:
            room = self.room
        if name == "coins":
            return amount * self.coin_v
        if name == "scrolls":
            return amount * self.scroll_v
        if name == "magic":
            return MAGIC_GAIN * (min(amount, room) if amount > 0 else amount)
        if name == "corks":
            return amount * self.cork_v
        if name == "keys":
            return 0.8 * amount
        if name == "capacity":
            return amount * (1.5 if not p.flipped and p.capacity < self.comp.capacity_max else 5.0)
        if name == "base":
            return amount * max(1.0, 4.0 - 0.1 * self.round)
        if name == "bottle_any":
            return amount * max(self.bottle_v)
        if name == "bottles_different":
            return sum(sorted(self.bottle_v, reverse=True)[:amount])
        if name == "activate":
            powers = sorted((c.power for c in p.cards if not c.active), reverse=True)
            return 0.8 * sum(powers[:amount])
        if name == "circle":
            per = 4.0 + (0.5 * self.storage if p.empty_circles == 0 else 0.0)
            return per * min(amount, p.inactive_circles)
        if name == "djinn":
            return 5.0 * amount
        if name == "mage_card":
            return 3.0 * amount
        if name == "equipment":
            return 3.0 * amount
        return 0.0

    def reward_value(self, reward: Reward, room: int | None = None) -> float:
        kit = [0, 0, 0]
        value = 0.0
        for k, a in reward:
            if k in _KIT:
                kit[_KIT[k]] += a
            else:
                value += self.item_value(k, a, room)
        if kit[0] > 0 or kit[1] > 0 or kit[2] > 0:
            value += self.kit_reward(max(0, kit[0]), max(0, kit[1]), kit[2])
        elif kit[2] < 0:
            value += kit[2] * self.cork_v
        return value

    def card_value(self, card: MageCard) -> float:
        total = sum(self.board) or 1
        bonus = sum(card.bonus[c] * self.board[c] / total for c in range(NCOL)) * 2.0
        value = 1.0 + card.power + bonus - 0.3 * card.cost + (0.8 if card.key else 0.0)
        keyless = not any(c.key for c in self.p.cards)
        if card.key and keyless and "key_mages_at_most" in self.cards_out:
            value -= 8.0
        if "per_active_mage" in self.cards_out:
            value += 1.0
        return value

    def equipment_value(self, e: dict[str, Any]) -> float:
        effect = e["effect"]
        reward = tuple((_REWARD_INDEX[k], int(v)) for k, v in e["reward"].items())
        if effect == "catch_power":
            value = 2.5 * int(e["amount"])
        elif effect == "location_reward":
            value = 1.5 * self.reward_value(reward, room=3)
        elif effect == "once_reward":
            value = self.reward_value(reward, room=3)
        elif effect == "catacombs_extra":
            value = 1.5
        else:
            value = 0.8
        p = self.p
        if self.cards_out & {"equipment_sets_at_least", "equipment_per_third"}:
            value += 2.0
        if e["type"] not in p.equip_types:
            value += 1.0
            if len(p.equip_types) == 2:
                value += self.reward_value(self.comp.rewards["set_bonus"])
        return value

    def chest_average(self) -> float:
        if self._chest_avg is None:
            chests = self.comp.chests
            self._chest_avg = sum(self.reward_value(c.reward) for c in chests) / max(1, len(chests))
        return self._chest_avg

    # -- locations ---------------------------------------------------------------------------

    def market_place_value(self, place: int, coins: int, scrolls: int) -> float:
        comp = self.comp
        places = comp.market_places(self.n)
        if place >= len(places):
            return 0.0
        payees = sum(1 for q, o in enumerate(self.players) if q != self.me and o.tent == place)
        if "market_free" in self.p.fx:
            payees = 0
        best = 0.0
        for o in comp.offers:
            if o.tent in places[place] and o.coins <= coins - payees and o.scrolls <= scrolls:
                v = self.reward_value(o.reward) - o.coins * self.coin_v - o.scrolls * self.scroll_v
                best = max(best, v)
        return best - 0.6 * payees

    def location_value(self, location: int, special: bool) -> float:
        """What the location's action brings now (rewards minus costs), 0 if nothing good."""
        comp = self.comp
        p = self.p
        value = 0.0
        if location == ACADEMY:
            reward = comp.rewards["academy_special" if special else "academy_basic"]
            room = self.room + (1 if special and not p.flipped else 0)
            value = self.reward_value(reward, room=room)
        elif location == TAVERN:
            best = 0.0
            for i, pile in enumerate(self.tavern):
                top = pile["top"]
                if top is not None and (special or i < 2):
                    best = max(best, self.card_value(comp.mage_cards[int(top["id"])]))
            value = best
        elif location == CATACOMBS:
            count = comp.numbers["catacombs_special" if special else "catacombs_basic"]
            value = count * self.chest_average()
        elif location == ARCHIVES:
            options = sorted((self.archive_value(o) for o in range(5)), reverse=True)
            value = sum(v for v in options[: 2 if special else 1] if v > 0)
        elif location == MANUFACTORY:
            cost = comp.numbers["manufactory_special_cost" if special else "manufactory_basic_cost"]
            corks = comp.numbers[
                "manufactory_special_corks" if special else "manufactory_basic_corks"
            ]
            if p.coins < cost:
                return 0.0
            best = max(
                (self.equipment_value(st["top"]) for st in self.manufactory if st["top"]),
                default=0.0,
            )
            value = corks * self.cork_v + best - cost * self.coin_v
        elif location == MARKET:
            times = comp.numbers["market_special_times"] if special else 1
            places = comp.market_places(self.n)
            vals = sorted(
                (
                    self.market_place_value(i, p.coins, p.scrolls)
                    for i in range(len(places))
                    if i != p.tent
                ),
                reverse=True,
            )
            value = sum(v for v in vals[:times] if v > 0)
        if location == self.favour:
            value = value * 1.5 + 2.0
        return value

    def archive_value(self, option: int) -> float:
        p = self.p
        if option == 0:
            if not p.passages_left:
                return 0.0
            value = max(0.5, 4.0 - 0.15 * self.round)
            placed = len(LOCATIONS) - len(self.removed_passages) - len(p.passages_left)
            if "passages_placed_at_most" in self.cards_out and placed >= 1:
                value -= 8.0
            if len(p.passages_left) == 1:
                value += self.reward_value(self.comp.rewards["passage_bonus"])
            return value
        basic, improved = self.comp.archives[option]
        if option == 3 and not any(not c.active for c in p.cards):
            return 0.0
        if option == 4 and not p.inactive_circles:
            return 0.0
        value = self.reward_value(improved if p.improved else basic)
        if option == 4:
            value += 2.0
        return value

    def forfeit_value(self) -> float:
        return max((self.reward_value(r) for r in self.comp.forfeit), default=0.0)

    def arrival_value(self, space: int) -> float:
        here = {self.loc[space], self.my_passage[space]}
        value = 0.0
        for e in self.p.equipment:
            if (
                e["face_up"]
                and e["effect"] == "location_reward"
                and e["location"] in {LOCATIONS[x] for x in here if x >= 0}
            ):
                reward = tuple((_REWARD_INDEX[k], int(v)) for k, v in e["reward"].items())
                value += self.reward_value(reward)
        return value

    # -- catching ----------------------------------------------------------------------------

    def strength(self, space: int, sel: Sequence[int]) -> int:
        comp = self.comp
        per = comp.per_djinn - (1 if "djinn_discount" in self.p.fx else 0)
        per = max(1, per)
        here = sum(self.djinn[space])
        return per * sum(sel) + sel[BOSS] * comp.boss_per_other * (here - 1)

    def card_power(self, card: Card, sel: Sequence[int]) -> int:
        if "green_only" in self.p.fx:
            return card.power
        b = card.bonus
        return card.power + sum(b[c] * sel[c] for c in range(NCOL)) + sel[BOSS] * max(b)

    def placement(self, res: Resources, sel: Sequence[int]) -> tuple[int, int] | None:
        """(bottled, circled) for the selection, or None if it cannot all be placed (as the
        rules check it: coloured Djinn into their bottles first, bosses into any bottle)."""
        b = res.bottles
        bottled = 0
        for c in range(NCOL):
            bottled += min(sel[c], b[c])
        bottled = min(bottled, res.corks)
        regular = sel[0] + sel[1] + sel[2] + sel[3]
        rest = regular - bottled
        if rest > res.circles:
            return None
        left = min(sum(b) - bottled, res.corks - bottled)
        boss_bottled = min(sel[BOSS], left)
        boss_circled = sel[BOSS] - boss_bottled
        if boss_circled > res.circles - rest:
            return None
        return bottled + boss_bottled, rest + boss_circled

    def pay_cost(self, space: int, sel: Sequence[int], res: Resources) -> float | None:
        """The cheapest way (cards and magic) to pay for the selection, in points; None if
        it cannot be paid. Cards are added greedily by power per cost; feasibility falls
        back on the rules' exact knapsack."""
        need = self.strength(space, sel) - self.p.catch_power
        if need <= 0:
            return 0.0
        cards = [c for c in self.p.cards if c.active and c.cost <= res.coins]
        mv = self.magic_spend
        best: float | None = need * mv if need <= res.magic else None
        if not cards:
            return best
        scored = sorted(
            ((self.card_power(c, sel), c) for c in cards),
            key=lambda pc: pc[0] / (pc[1].cost * COIN_SPEND + FLIP),
            reverse=True,
        )
        coins, left, cost = res.coins, need, 0.0
        for power, c in scored:
            if left <= 0:
                break
            if c.cost > coins:
                continue
            coins -= c.cost
            left -= power
            cost += c.cost * COIN_SPEND + FLIP
            if left <= res.magic:
                total = cost + max(0, left) * mv
                if best is None or total < best:
                    best = total
        if best is None:
            # The greedy order missed it: the exact check of the rules (best power for the
            # coins), costed roughly.
            power = _knapsack(cards, [self.card_power(c, sel) for c in cards], res.coins)
            if power >= need - res.magic:
                best = res.magic * mv + 2 * FLIP + res.coins * COIN_SPEND
        return best

    def sel_value(self, space: int, sel: Sequence[int], res: Resources) -> float | None:
        placed = self.placement(res, sel)
        if placed is None:
            return None
        cost = self.pay_cost(space, sel, res)
        if cost is None:
            return None
        bottled, circled = placed
        value = BOTTLED * bottled + CIRCLED * circled - cost
        here = self.djinn[space]
        if sel[BOSS]:
            value += self.boss_value
            others = sum(here[k] - sel[k] for k in range(NCOL))
            if others:
                left_circles = res.circles - circled
                left_bottle = (
                    any(here[c] > sel[c] and res.bottles[c] > 0 for c in range(NCOL))
                    and res.corks > bottled
                )
                value += BOTTLED if left_bottle else (CIRCLED if left_circles > 0 else 0.0)
        elif here[BOSS]:
            value += self.progress(space, sum(sel[:NCOL]))
        return value

    def removal_cost(self, regular: int) -> int:
        """The least magic that removes a boss with ``regular`` Djinn beside it: catch them
        all (it flees) or catch the boss."""
        per = max(1, self.comp.per_djinn - (1 if "djinn_discount" in self.p.fx else 0))
        return min(per * regular, per + self.comp.boss_per_other * regular)

    def progress(self, space: int, taken: int) -> float:
        """What catching ``taken`` regular Djinn beside a boss does toward removing it: all
        of them make it flee; fewer make it cheaper to remove later (worth half, since more
        Djinn may come)."""
        regular = sum(self.djinn[space][:NCOL])
        if taken >= regular:
            return self.boss_value
        before, after = self.removal_cost(regular), self.removal_cost(regular - taken)
        return 0.5 * self.boss_value * (before - after) / max(1, before)

    def plan(
        self, space: int, res: Resources, start: Sequence[int] = (0,) * NKINDS
    ) -> tuple[float, tuple[int, ...]]:
        """The best selection at ``space`` that contains ``start`` (value, counts); the
        value of declining (an empty selection) when nothing is worth it."""
        key = (space, res.magic, res.coins, res.corks, tuple(res.bottles), res.circles, *start)
        cached = self._plans.get(key)
        if cached is not None:
            return cached
        here = self.djinn[space]
        empty = tuple(start)
        decline = -self.magic_spend * min(res.magic, self.comp.decline_cost)
        best: tuple[float, tuple[int, ...]] = (decline if not sum(start) else -1e9, empty)
        room = res.circles + min(sum(res.bottles), res.corks)
        ranges = [range(start[k], here[k] + 1) for k in range(NKINDS)]
        for sel in itertools.product(*ranges):
            total = sum(sel)
            if not total or total > room:
                continue
            v = self.sel_value(space, sel, res)
            if v is not None and v > best[0]:
                best = (v, sel)
        self._plans[key] = best
        return best

    # -- spaces ------------------------------------------------------------------------------

    def magic_gain(self, space: int) -> int:
        """Magic a visit to ``space`` adds before the next turn (the Academy, the Source)."""
        if space == SOURCE:
            return self.room
        gain = 0
        for loc in (self.loc[space], self.my_passage[space]):
            if loc == ACADEMY:
                gain += 3
        return gain

    def space_value(
        self, space: int, lookahead: bool, came: int, extra_magic: int = 0, weight: float = 0.5
    ) -> float:
        """What moving to ``space`` brings this turn, plus (``lookahead``) a share of the best
        move after it (never back to ``came``)."""
        p = self.p
        res = self.resources()
        value = self.arrival_value(space)
        if space == SOURCE:
            value += MAGIC_GAIN * self.room
            if (
                self.supply_bosses
                and p.magic >= self.comp.source_boss_cost
                and self.placement(res, (0, 0, 0, 0, 1)) is not None
            ):
                value = max(value, 8.0)
            if p.scrolls >= p.scroll_price:
                row2 = self.reward_value(self.comp.rewards["source_row2"])
                value += max(0.0, row2 - p.scroll_price * self.scroll_v)
        elif self.loc[space] >= 0 and space < 7:
            loc = self.loc[space]
            value += max(self.location_value(loc, False), self.forfeit_value())
            passage = self.my_passage[space]
            if passage >= 0:
                value += self.location_value(passage, False)
        else:
            loc = self.loc[space]
            best_loc = max(self.location_value(loc, True), self.location_value(loc, False))
            value += max(best_loc, self.forfeit_value())
            if sum(self.djinn[space]):
                if loc == ACADEMY:
                    gain = 3 + (1 if not p.flipped else 0)
                    res.magic = min(p.max_magic + 1, res.magic + gain)
                res.magic += min(p.keys, 2) + extra_magic
                value += self.plan(space, res)[0]

        if self.solo and space >= 7 and not self.djinn[space][BOSS]:
            # Tom turns a card after every round-space turn: one without a boss brings the
            # race no nearer.
            value -= SOLO_IDLE
        occupied = [q for q in self.mages[space] if q != self.me] if space != SOURCE else []
        if occupied and "movement_free" not in p.fx:
            value -= 0.7 * len(occupied)
        if lookahead:
            gain = self.magic_gain(space)
            nxt = [self.space_value(u, False, space, gain) for u in self.adj[space] if u != came]
            if nxt:
                value += weight * max(nxt)
        return value


def _knapsack(cards: Sequence[Card], powers: Sequence[int], budget: int) -> int:
    best = [0] * (budget + 1)
    for card, power in zip(cards, powers, strict=True):
        for c in range(budget, card.cost - 1, -1):
            v = best[c - card.cost] + power
            if v > best[c]:
                best[c] = v
    return best[budget]


class HeuristicAgent(Agent):
    """Plays Djinn by a one-move value model from its own view.

    Options (spec strings like ``heuristic:favour=market``): ``favour`` names a location the
    bot values more (its action's value x1.5 + 2), ``lookahead`` (0-1) weighs the best next
    move in a move's value, ``storage`` (0-20) values room for the next catch.
    """

    def __init__(
        self,
        seed: int | None = None,
        favour: str = "",
        lookahead: float = LOOKAHEAD,
        storage: float = STORAGE,
    ):
        super().__init__(seed)
        if not 0.0 <= storage <= 20.0:
            raise ValueError(f"storage must be in [0, 20], got {storage}")
        self.storage = storage
        if favour and favour not in LOCATIONS:
            raise ValueError(f"favour must be one of {', '.join(LOCATIONS)}, got {favour!r}")
        if not 0.0 <= lookahead <= 1.0:
            raise ValueError(f"lookahead must be in [0, 1], got {lookahead}")
        self.favour = LOCATIONS.index(favour) if favour else -1
        self.lookahead = lookahead
        self._layout: Layout | None = None
        self._comp: Components | None = None
        #: Decisions where the heuristics named no legal option (a random one was played);
        #: tests check it stays 0.
        self.fallbacks = 0

    # -- plumbing -------------------------------------------------------------------------------

    def act(self, obs: Observation) -> int:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        comp = obs.public
        assert isinstance(comp, Components)
        if comp is not self._comp:
            self._comp = comp
            self._layout = layout_of(comp)
        layout = self._layout
        assert layout is not None
        pos = Position(obs.view, obs.seat, comp, self.favour, self.storage)
        decision = obs.decision
        kind = Kind(decision.kind)
        groups = {a: layout.group[a] for a in legal}
        side = [a for a in legal if a >= layout.side_start]
        if side:
            chosen = self._side(pos, kind, side, groups)
            if chosen is not None:
                return chosen
        main = [a for a in legal if a < layout.side_start]
        context = dict(decision.context) if decision.context else None
        choice = self._main(pos, kind, main, groups, context)
        if choice is None or choice not in legal:
            self.fallbacks += 1
            return self.rng.choice(list(main or legal))
        return choice

    @staticmethod
    def _find(groups: dict[int, tuple[str, int]], name: str, i: int | None = None) -> int | None:
        for a, (g, j) in groups.items():
            if g == name and (i is None or j == i):
                return a
        return None

    def _best(self, scored: Sequence[tuple[float, int]]) -> int | None:
        if not scored:
            return None
        top = max(v for v, _ in scored)
        best = [a for v, a in scored if v >= top - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    # -- side actions ---------------------------------------------------------------------------

    def _side(
        self,
        pos: Position,
        kind: Kind,
        side: list[int],
        groups: dict[int, tuple[str, int]],
    ) -> int | None:
        p = pos.p
        comp = pos.comp
        # Seal a circled Djinn into a bottle: 10 points instead of 3, and the circle is free.
        seals = [a for a in side if groups[a][0] == "seal"]
        if seals:
            return seals[0]
        trophies = [a for a in side if groups[a][0] == "trophy"]
        if trophies:
            scored = []
            for a in trophies:
                t = comp.trophies[groups[a][1] // NCOL]
                scored.append((t.points + pos.reward_value(t.reward), a))
            return self._best(scored)
        for a in side:
            g, i = groups[a]
            if g != "use_equipment":
                continue
            card = comp.equipment[i]
            if card.effect != "once_reward":
                continue
            names = {REWARD_KINDS[k] for k, _ in card.reward}
            if "magic" in names:
                amount = sum(x for k, x in card.reward if REWARD_KINDS[k] == "magic")
                if pos.room >= amount:
                    return a
            elif "activate" in names:
                if any(not c.active for c in p.cards):
                    return a
            elif "circle" in names:
                if p.inactive_circles:
                    return a
            else:
                return a
        # A key becomes magic when the catch about to be chosen needs it.
        key_magic = self._find(groups, "key_magic")
        if key_magic is not None and kind is Kind.ACT:
            catch = self._find(groups, "catch")
            special = self._find(groups, "special")
            basic = self._find(groups, "basic")
            if catch is not None and special is None and basic is None:
                space = p.pos
                res = pos.resources()
                now = pos.plan(space, res)[0]
                res.magic += 1
                if pos.plan(space, res)[0] > now + 0.9:
                    return key_magic
        return None

    # -- main decisions -------------------------------------------------------------------------

    def _main(
        self,
        pos: Position,
        kind: Kind,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        if not main:
            return None
        if len(main) == 1:
            return main[0]
        if kind is Kind.MOVE:
            return self._move(pos, main, groups)
        if kind is Kind.START:
            return self._start(pos, main, groups)
        if kind is Kind.JUMP:
            return self._jump(pos, main, groups)
        if kind is Kind.PAY_PLAYER:
            p = pos.p
            coin, scroll = self._find(groups, "pay_coin"), self._find(groups, "pay_scroll")
            if scroll is not None and (coin is None or p.scrolls * 1.3 >= p.coins):
                return scroll
            return coin
        if kind is Kind.ACT:
            return self._act(pos, main, groups)
        if kind is Kind.CATCH_SELECT:
            return self._select(pos, main, groups, context)
        if kind is Kind.CATCH_PAY:
            return self._pay(pos, main, groups, context)
        if kind is Kind.PLACE:
            return self._place(pos, main, groups, context)
        if kind is Kind.FREE:
            return self._free(pos, main, groups)
        if kind is Kind.ARCHIVES:
            scored = [(0.3, a) for a in main if groups[a][0] == "done"]
            scored += [
                (pos.archive_value(groups[a][1]), a) for a in main if groups[a][0] == "archive"
            ]
            return self._best(scored)
        if kind is Kind.PASSAGE:
            return self._passage(pos, main, groups)
        if kind is Kind.TAVERN:
            scored = []
            for a in main:
                top = pos.tavern[groups[a][1]]["top"]
                if top is not None:
                    scored.append((pos.card_value(pos.comp.mage_cards[int(top["id"])]), a))
            return self._best(scored)
        if kind is Kind.MANUFACTORY:
            scored = []
            for a in main:
                top = pos.manufactory[groups[a][1]]["top"]
                if top is not None:
                    scored.append((pos.equipment_value(top), a))
            return self._best(scored)
        if kind is Kind.TENT:
            p = pos.p
            return self._best(
                [(pos.market_place_value(groups[a][1], p.coins, p.scrolls), a) for a in main]
            )
        if kind is Kind.OFFER:
            scored = []
            for a in main:
                o = pos.comp.offers[groups[a][1]]
                v = pos.reward_value(o.reward) - o.coins * pos.coin_v - o.scrolls * pos.scroll_v
                scored.append((v, a))
            return self._best(scored)
        if kind is Kind.CHEST_KEY:
            chest = pos.comp.chests[int(context["chest"])] if context else None
            unlock, done = self._find(groups, "unlock"), self._find(groups, "done")
            if chest is not None and pos.reward_value(chest.key_reward) > 0.9:
                return unlock
            return done
        if kind is Kind.CHEST_DISCARD:
            scored = [(-pos.reward_value(pos.comp.chests[groups[a][1]].reward), a) for a in main]
            return self._best(scored)
        if kind is Kind.ACTIVATE:
            return self._activate(pos, main, groups, context)
        if kind is Kind.CHOOSE_BOTTLE:
            return self._best([(pos.bottle_v[groups[a][1]], a) for a in main])
        if kind is Kind.SOURCE_BOSSES:
            boss = self._find(groups, "boss")
            if boss is not None:
                res = pos.resources()
                placed = pos.placement(res, (0, 0, 0, 0, 1))
                if pos.final or (placed is not None and placed[0] > 0):
                    return boss
            return self._find(groups, "done")
        if kind is Kind.TRADE:
            return self._find(groups, "done")
        if kind is Kind.DRAFT:
            scored = []
            for a in main:
                tile = pos.comp.characters[groups[a][1]]
                rank = CHARACTER_RANK.get(tile.effect, 0)
                if tile.effect == "start_reward":
                    rank = 8 if tile.positive else (-1 if "magic" in str(tile.reward) else -3)
                    rank += int(pos.reward_value(tile.reward) * 0.1)
                scored.append((float(rank), a))
            return self._best(scored)
        return None

    def _move(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        here = pos.p.pos
        scored = []
        for a in main:
            g, t = groups[a]
            if g != "move":
                continue
            v = pos.space_value(t, self.lookahead > 0, here, weight=self.lookahead)
            scored.append((v, a))
        return self._best(scored)

    def _start(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        scored = []
        for a in main:
            i = groups[a][1]
            square, came = 1 + i // 6, 7 + i % 6
            scored.append((pos.space_value(square, True, came, weight=self.lookahead), a))
        return self._best(scored)

    def _jump(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        stop, skip = self._find(groups, "stop"), self._find(groups, "skip")
        if stop is None or skip is None:
            return stop if stop is not None else skip
        # The space where the mage stands in the middle of the move is not in the view;
        # staying costs a coin or scroll per mage there: stay unless short of both.
        p = pos.p
        return stop if p.coins + p.scrolls >= 3 else skip

    def _act(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        p = pos.p
        names = {groups[a][0]: a for a in main}
        space = p.pos
        if space == SOURCE or "refill" in names or "bosses" in names or "row2" in names:
            return self._source(pos, names)
        loc = pos.loc[space] if space >= 0 else -1
        catch = names.get("catch")
        basic, special = names.get("basic"), names.get("special")
        passage = names.get("passage_use")
        forfeits = [a for a in main if groups[a][0] == "forfeit"]
        scored: list[tuple[float, int]] = []
        if basic is not None:
            scored.append((pos.location_value(loc, False), basic))
        if special is not None:
            scored.append((pos.location_value(loc, True), special))
        for a in forfeits:
            scored.append((pos.reward_value(pos.comp.forfeit[groups[a][1]]) - 0.2, a))
        if catch is not None and scored:
            res = pos.resources()
            now = pos.plan(space, res)
            # The location action first, unless it spends coins the best catch needs.
            if loc in (MANUFACTORY, MARKET) and now[0] > 0:
                cost = pos.comp.numbers["manufactory_basic_cost"] if loc == MANUFACTORY else 2
                poorer = Resources(
                    res.magic, max(0, res.coins - cost), res.corks + 1, res.bottles, res.circles
                )
                if pos.plan(space, poorer)[0] < now[0] - 1.0:
                    return catch
            if "catch_first" in p.fx:
                return catch
        if scored:
            choice = self._best(scored)
            best = max(v for v, _ in scored)
            if best > 0.2 or catch is None:
                return choice
        if passage is not None:
            own = pos.my_passage[space]
            if own >= 0 and pos.location_value(own, False) > 0:
                return passage
        if catch is not None:
            return catch
        return names.get("end", main[-1])

    def _source(self, pos: Position, names: dict[str, int]) -> int | None:
        p = pos.p
        comp = pos.comp
        row2 = names.get("row2")
        if row2 is not None:
            gain = pos.reward_value(comp.rewards["source_row2"])
            if pos.final or gain > p.scroll_price * pos.scroll_v:
                return row2
        bosses = names.get("bosses")
        if bosses is not None:
            placed = pos.placement(pos.resources(), (0, 0, 0, 0, 1))
            if pos.final or (placed is not None and placed[0] > 0):
                return bosses
        refill = names.get("refill")
        if refill is not None and not pos.final:
            return refill
        return names.get("end")

    def _select(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        space = _SPACE_INDEX[context["space"]] if context else p.pos
        selected = context.get("selected", {}) if context else {}
        sel = [int(selected.get(k, 0)) for k in KINDS]
        _, plan = pos.plan(space, pos.resources(), sel)
        offered = {groups[a][1]: a for a in main if groups[a][0] == "select"}
        # Bosses first: the rest of the plan is paid for the same either way.
        for k in (BOSS, *range(NCOL)):
            if plan[k] > sel[k] and k in offered:
                return offered[k]
        confirm, decline = self._find(groups, "confirm"), self._find(groups, "decline")
        if sum(sel):
            return confirm
        if sum(plan) and offered:
            # The plan named a Djinn the rules do not offer: take the best offered one.
            return offered[max(offered, key=lambda k: (k == BOSS, k))]
        return decline

    def _pay(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        settle = self._find(groups, "settle")
        uses = {groups[a][1]: a for a in main if groups[a][0] == "use_mage"}
        if not uses:
            return settle
        if context is None:
            return settle if settle is not None else next(iter(uses.values()))
        selected = context.get("selected", {})
        sel = [int(selected.get(k, 0)) for k in KINDS]
        need = int(context["strength"]) - int(context.get("power_from_cards", 0)) - p.catch_power
        cards = [c for c in p.cards if c.id in uses]
        best: tuple[float, tuple[int, ...]] | None = None
        # Few cards are ever active at once; try every subset (capped) for the cheapest.
        cards = sorted(cards, key=lambda c: -pos.card_power(c, sel))[:8]
        for r in range(len(cards) + 1):
            for subset in itertools.combinations(cards, r):
                coins = sum(c.cost for c in subset)
                if coins > p.coins:
                    continue
                left = need - sum(pos.card_power(c, sel) for c in subset)
                if left > p.magic:
                    continue
                cost = coins * COIN_SPEND + FLIP * len(subset) + max(0, left) * pos.magic_spend
                if best is None or cost < best[0]:
                    best = (cost, tuple(c.id for c in subset))
        if best is None or not best[1]:
            return settle if settle is not None else next(iter(uses.values()))
        return uses[best[1][0]]

    def _place(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        bottles = [(groups[a][1], a) for a in main if groups[a][0] == "bottle"]
        if bottles:

            def score(c: int) -> float:
                # Toward a trophy (3 of a colour); keep bottles wanted by Djinn on the map.
                return 2.0 * (p.filled[c] % 3) + 0.5 * (p.bottles[c] - min(pos.board[c], 3))

            return max(bottles, key=lambda ca: (score(ca[0]), -ca[0]))[1]
        circle = self._find(groups, "circle")
        if circle is not None:
            return circle
        return self._find(groups, "release")

    def _free(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        p = pos.p
        scored = []
        for a in main:
            g, k = groups[a]
            if g != "free":
                continue
            bottle = (k == BOSS and sum(p.bottles) > 0) or (k < NCOL and p.bottles[k] > 0)
            scored.append(((BOTTLED if bottle and p.corks else CIRCLED) + (k == BOSS), a))
        return self._best(scored) if scored else self._find(groups, "done")

    def _passage(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        scored = []
        for a in main:
            i = groups[a][1]
            location, square = i // 6, 1 + i % 6
            rank = len(PASSAGE_ORDER) - PASSAGE_ORDER.index(location)
            if location == pos.favour:
                rank += 10
            # Near the mage: the squares next to the rounds it can reach soon.
            near = any(square in pos.adj[r] for r in pos.adj[pos.p.pos]) if pos.p.pos >= 0 else 0
            scored.append((rank + 0.5 * near, a))
        return self._best(scored)

    def _activate(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        done = self._find(groups, "done")
        cards = {c.id: c for c in p.cards}
        options = [(cards[groups[a][1]].power, a) for a in main if groups[a][0] == "activate"]
        if not options:
            return done
        # The Academy character's activations cost magic: only with magic to spare.
        at_academy = p.pos >= 0 and pos.loc[p.pos] == ACADEMY
        if "academy_activate" in p.fx and at_academy and p.magic <= 4:
            return done
        return max(options)[1]


register_agent("djinn", "heuristic", HeuristicAgent)

__all__ = ["HeuristicAgent", "Position"]
