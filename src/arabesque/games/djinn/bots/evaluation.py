"""The bot's value model: what items, cards, locations and scoring cards are worth to it.

Owns the weights (points per bottled or circled Djinn, what spending and gaining cost or
bring, the boss and solo weights, the option defaults, the ranks of character tiles and
passage symbols) and ``Valuation``, the picture of ``position`` with the values read from
it: bottles and corks together (the kit), rewards and their effect on the scoring cards out,
Mage cards, Equipment, chests, and the action of each location. Catching and moving are
valued in ``search``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arabesque.games.djinn.bots.position import (
    ACADEMY,
    ARCHIVES,
    CATACOMBS,
    MANUFACTORY,
    MARKET,
    NCOL,
    REWARD_INDEX,
    TAVERN,
    Picture,
)
from arabesque.games.djinn.components import (
    LOCATIONS,
    REWARD_KINDS,
    Components,
    MageCard,
    Reward,
)

#: The bottle and cork rewards, valued together (``Valuation.kit_reward``).
_KIT = {
    REWARD_INDEX["bottle_any"]: 0,
    REWARD_INDEX["bottles_different"]: 1,
    REWARD_INDEX["corks"]: 2,
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


class Valuation(Picture):
    """The public position of one view with the bot's value model."""

    def __init__(
        self,
        view: dict[str, Any],
        me: int,
        comp: Components,
        favour: int,
        storage: float = 0.0,
    ) -> None:
        super().__init__(view, me, comp)
        self.favour = favour
        self.storage = storage
        self.boss_value = BOSS_SOLO if self.solo else BOSS_MULTI
        #: Solo, magic is the currency of the race against Tom: spent on a Djinn that brings
        #: no boss nearer, it is missed later.
        self.magic_spend = MAGIC_SPEND_SOLO if self.solo else MAGIC_SPEND
        board = self.board
        p = self.p
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

    # -- resources ---------------------------------------------------------------------------

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
        reward = tuple((REWARD_INDEX[k], int(v)) for k, v in e["reward"].items())
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
                reward = tuple((REWARD_INDEX[k], int(v)) for k, v in e["reward"].items())
                value += self.reward_value(reward)
        return value
