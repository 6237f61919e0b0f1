"""Djinn components, loaded from TOML: the map, Mage and Equipment cards, chests, trophies,
scoring cards, character tiles, Tom's solo deck and the numbers of the setup.

The rulebook gives counts and rules but shows most faces only as pictures, so
data/components.toml authors them, each entry with its provenance (``rulebook §...`` or
``assumed: why``). A user who owns the box can load their own file (``--components FILE``);
a record embeds the text (core/gamedata.py). Card behaviour is data: every card names an
effect kind and parameters, and the rules package (rules/) interprets the few kinds there are.

A file may come from a stranger, so the loader bounds sizes and counts and refuses unknown
keys (a typo would silently drop a rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arabesque.core import datafile, gamedata
from arabesque.core.datafile import Messages, TomlDataFile
from arabesque.core.errors import ComponentsError
from arabesque.core.limits import deeper_than, quote

DEFAULT_FILE = Path(__file__).with_name("data") / "components.toml"

COLOURS: tuple[str, ...] = ("blue", "brown", "red", "yellow")
BOSS = len(COLOURS)  # the kind index of a boss; 0..3 are the colours
KINDS: tuple[str, ...] = (*COLOURS, "boss")
LOCATIONS: tuple[str, ...] = ("academy", "tavern", "catacombs", "archives", "manufactory", "market")
SOURCE_NAME = "source"
EQUIP_TYPES: tuple[str, ...] = ("staff", "hat", "cloak")
ARCHIVE_OPTIONS: tuple[str, ...] = ("passage", "coins", "scroll", "mage", "circle")

#: What a reward may give; the rules interpret each (rules/flow.py ``do_item``).
REWARD_KINDS: tuple[str, ...] = (
    "coins",
    "scrolls",
    "magic",
    "corks",
    "keys",
    "capacity",
    "base",
    "bottle_any",  # that many bottles, each of a colour of your choice
    "bottles_different",  # that many bottles of different colours of your choice
    "activate",  # activate up to that many of your Mage cards
    "circle",  # activate your next spell circle(s)
    "djinn",  # catch that many Djinn drawn at random from the bag
    "mage_card",  # take a Mage card of your choice from the display
    "equipment",  # take an Equipment card of your choice
)
R = {name: i for i, name in enumerate(REWARD_KINDS)}
#: Reward kinds that may be negative (start penalties, Tom's payments).
_SIGNED = frozenset(("coins", "scrolls", "magic"))

EQUIP_EFFECTS: tuple[str, ...] = (
    "location_reward",  # permanent: after moving to the location (space or own passage)
    "catch_power",  # permanent: adds `amount` to the power of each catch action
    "once_reward",  # once, at any time on your turn: gain `reward`, then flip
    "bottle_trade",  # once: trade up to `amount` empty bottles for others of your choice
    "market_stay",  # once: stay on the same Market tent
    "catacombs_extra",  # permanent: one more chest per Catacombs action, one discarded
)
CHAR_EFFECTS: tuple[str, ...] = (
    "start_reward",
    "market_free",
    "tavern_key",
    "manufactory_corks",
    "source_price",
    "academy_activate",
    "movement_free",
    "djinn_discount",
    "catacombs_key",
    "circle_cover",
    "green_only",
    "no_activate",
    "catacombs_basic_only",
    "mage_inactive",
    "catch_first",
    "no_chest_keys",
    "no_forfeit",
    "secret_scoring",  # 2 scoring cards kept face down; the better one scores at the end
)
#: Conditions of scoring cards and solo tasks (rules/ending.py ``measure`` interprets them).
CONDITIONS: tuple[str, ...] = (
    "equipment_sets_at_least",
    "equipment_per_third",
    "passages_placed_at_most",
    "key_mages_at_most",
    "inactive_circles_at_least",
    "capacity_at_most",
    "base_at_least",
    "per_key",
    "per_active_mage",
    "per_unused_bottle_cork",
    "mages_at_least",
    "mages_at_most",
    "trophies_at_least",
    "coins_at_least",
    "keys_at_least",
    "active_circles_at_most",
    "equipment_types_at_most",
)

MAX_FILE_BYTES = gamedata.MAX_DATA_BYTES
MAX_NESTING = 10
MAX_CARDS = 200  # per kind of card
MAX_AMOUNT = 50
MAX_TEXT = 1000
MAX_NAME = 60

#: A reward: (reward kind index, amount) pairs in REWARD_KINDS order.
Reward = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class MageCard:
    id: int
    key: bool
    cost: int  # coins to use it in a catch
    power: int  # the green crystal
    bonus: tuple[int, ...]  # per colour: added for each caught Djinn of that colour
    provenance: str


@dataclass(frozen=True, slots=True)
class EquipmentCard:
    id: int
    type: int  # index into EQUIP_TYPES
    effect: str
    location: int  # index into LOCATIONS, -1 when the effect names none
    reward: Reward
    amount: int
    provenance: str


@dataclass(frozen=True, slots=True)
class Chest:
    id: int
    reward: Reward
    key_reward: Reward  # () when the chest shows no key
    provenance: str


@dataclass(frozen=True, slots=True)
class Trophy:
    id: int
    row: int  # 0, 1, 2 for rows I, II, III
    points: int
    reward: Reward
    provenance: str


@dataclass(frozen=True, slots=True)
class Condition:
    id: int
    name: str
    condition: str
    points: int
    threshold: int
    cap: int
    provenance: str


@dataclass(frozen=True, slots=True)
class Character:
    id: int
    name: str
    positive: bool
    effect: str
    reward: Reward
    provenance: str


@dataclass(frozen=True, slots=True)
class TomCard:
    id: int
    nothing: bool
    first: int  # location index, -1 on a nothing-happens card
    second: int
    pay: Reward
    provenance: str


@dataclass(frozen=True, slots=True)
class MarketOffer:
    tent: int
    coins: int
    scrolls: int
    reward: Reward


@dataclass(frozen=True)
class Components:
    name: str
    source: str
    sha256: str
    supply: Mapping[str, int]
    start: Mapping[str, int]
    capacity_min: int
    capacity_max: int
    max_magic_flipped: int
    prices: tuple[int, ...]  # per capacity from capacity_min
    price_flipped: int
    djinn_per_space: tuple[int, ...]  # per player count 0..4 (index 0 unused)
    replenish: tuple[int, ...]
    extra_near_source: int
    per_djinn: int
    boss_per_other: int
    decline_cost: int
    source_boss_cost: int
    rewards: Mapping[str, Reward]  # named rewards of [locations]
    numbers: Mapping[str, int]  # named numbers of [locations]
    forfeit: tuple[Reward, ...]
    circle_rewards: tuple[Reward, ...]
    archives: tuple[tuple[Reward, Reward], ...]  # per ARCHIVE_OPTIONS: basic, improved
    map_edges: tuple[tuple[str, str], ...]
    tents: tuple[str, ...]
    offers: tuple[MarketOffer, ...]
    market_sides: tuple[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], ...]
    mage_cards: tuple[MageCard, ...]
    equipment: tuple[EquipmentCard, ...]
    chests: tuple[Chest, ...]
    trophies: tuple[Trophy, ...]
    scoring_cards: tuple[Condition, ...]
    characters: tuple[Character, ...]
    tom_cards: tuple[TomCard, ...]
    solo_tasks: tuple[Condition, ...]

    def market_places(self, players: int) -> tuple[tuple[int, ...], ...]:
        for who, places in self.market_sides:
            if players in who:
                return places
        raise AssertionError("validated components have a market side for 1-4 players")


# -- parsing helpers ------------------------------------------------------------------------


def _get(entry: Mapping[str, Any], key: str, kind: type, where: str, default: Any = ...) -> Any:
    value = datafile.field(entry, key, kind, where, default)
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise ComponentsError(f"{where}: {key!r} is longer than {MAX_TEXT} characters")
    return value


def _int(
    entry: Mapping[str, Any], key: str, where: str, low: int, high: int, default: Any = ...
) -> int:
    value: int = _get(entry, key, int, where, default)
    if not low <= value <= high:
        raise ComponentsError(f"{where}: {key!r} must be {low}..{high}, got {value}")
    return value


def _keys(entry: Any, allowed: set[str], where: str) -> Mapping[str, Any]:
    if not isinstance(entry, Mapping):
        raise ComponentsError(f"{where}: must be a table")
    unknown = sorted(set(entry) - allowed - {"provenance"})
    if unknown:
        raise ComponentsError(
            f"{where}: unknown key {quote(unknown[0])}; expected some of {sorted(allowed)}"
        )
    return entry


def _provenance(entry: Mapping[str, Any], where: str) -> str:
    prov: str = _get(entry, "provenance", str, where)
    if prov.split(":")[0].split(" ")[0].strip() not in ("rulebook", "assumed"):
        raise ComponentsError(
            f"{where}: provenance must start with 'rulebook' or 'assumed', got {quote(prov)}"
        )
    return prov


def _choice(value: Any, options: tuple[str, ...], what: str, where: str) -> int:
    if not isinstance(value, str) or value not in options:
        raise ComponentsError(
            f"{where}: unknown {what} {quote(value)}; expected one of {list(options)}"
        )
    return options.index(value)


def _reward(value: Any, where: str, signed: bool = False) -> Reward:
    if not isinstance(value, Mapping):
        raise ComponentsError(f"{where}: a reward is a table like {{ coins = 2 }}")
    out = []
    for name, amount in value.items():
        kind = _choice(name, REWARD_KINDS, "reward kind", where)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ComponentsError(f"{where}: reward {name} must be an integer")
        low = -MAX_AMOUNT if signed and name in _SIGNED else 0
        if not low <= amount <= MAX_AMOUNT or amount == 0:
            raise ComponentsError(f"{where}: reward {name} must be non-zero in {low}..{MAX_AMOUNT}")
        out.append((kind, amount))
    return tuple(out)  # in the order written: capacity before magic on the Academy


def _list(data: Mapping[str, Any], key: str, where: str, low: int) -> list[Any]:
    items: list[Any] = _get(data, key, list, where)
    if not low <= len(items) <= MAX_CARDS:
        raise ComponentsError(
            f"{where}: [[{key}]] needs {low}..{MAX_CARDS} entries, has {len(items)}"
        )
    return items


def _per_players(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, Mapping):
        raise ComponentsError(f"{where}: must be a table by player count")
    out = [0]
    for n in range(1, 5):
        amount = value.get(str(n))
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= 10:
            raise ComponentsError(f"{where}: needs an entry 0..10 for {n} players")
        out.append(amount)
    return tuple(out)


def _conditions(items: list[Any], section: str, with_points: bool) -> tuple[Condition, ...]:
    out = []
    for i, entry in enumerate(items):
        where = f"{section}[{i + 1}]"
        entry = _keys(entry, {"name", "condition", "points", "threshold", "cap"}, where)
        out.append(
            Condition(
                id=i,
                name=_get(entry, "name", str, where)[:MAX_NAME],
                condition=CONDITIONS[
                    _choice(_get(entry, "condition", str, where), CONDITIONS, "condition", where)
                ],
                points=_int(entry, "points", where, 0, 100, 0 if not with_points else ...),
                threshold=_int(entry, "threshold", where, 0, 100),
                cap=_int(entry, "cap", where, 0, 1000, 0),
                provenance=_provenance(entry, where),
            )
        )
    return tuple(out)


def _check_map(edges: tuple[tuple[str, str], ...]) -> None:
    """The published facts: 13 spaces (the Source, s1..s6, r1..r6); squares and the Source
    touch only rounds; 3 or 4 paths per space (2-3 onward choices); 3 rounds touch the Source;
    every space reachable."""
    names = {SOURCE_NAME, *(f"s{i}" for i in range(1, 7)), *(f"r{i}" for i in range(1, 7))}
    degree = dict.fromkeys(names, 0)
    seen = set()
    for a, b in edges:
        if a not in names or b not in names:
            raise ComponentsError(
                f"[map] unknown space in path {[a, b]}; spaces are {sorted(names)}"
            )
        if (a[0] == "r") == (b[0] == "r"):
            raise ComponentsError(f"[map] path {[a, b]} joins two spaces of the same shape")
        if frozenset((a, b)) in seen:
            raise ComponentsError(f"[map] path {[a, b]} is listed twice")
        seen.add(frozenset((a, b)))
        degree[a] += 1
        degree[b] += 1
    bad = sorted(n for n, d in degree.items() if not 3 <= d <= 4)
    if bad:
        raise ComponentsError(f"[map] spaces {bad} need 3 or 4 paths (2-3 onward choices)")
    if degree[SOURCE_NAME] != 3:
        raise ComponentsError("[map] exactly 3 round spaces touch the Magic Source")
    reach, todo = {SOURCE_NAME}, [SOURCE_NAME]
    while todo:
        here = todo.pop()
        for a, b in edges:
            for x, y in ((a, b), (b, a)):
                if x == here and y not in reach:
                    reach.add(y)
                    todo.append(y)
    if reach != names:
        raise ComponentsError(f"[map] spaces {sorted(names - reach)} cannot be reached")


def parse_components(data: Mapping[str, Any], source: str, sha256: str) -> Components:
    """Validate parsed TOML and build frozen components; errors name the bad entry."""
    if deeper_than(data, MAX_NESTING):
        raise ComponentsError(
            f"{source}: tables and arrays nest more than {MAX_NESTING} levels deep"
        )
    top = {
        "meta", "supply", "start", "track", "djinn_setup", "catching", "locations", "archives",
        "map", "market", "mage_cards", "equipment", "chests", "trophies", "scoring_cards",
        "characters", "tom_cards", "solo_tasks",
    }  # fmt: skip
    _keys(data, top, "file")
    meta = _keys(_get(data, "meta", dict, "file"), {"name"}, "[meta]")
    name = _get(meta, "name", str, "[meta]")[:MAX_NAME]
    supply_t = _keys(
        _get(data, "supply", dict, "file"),
        {"coins", "scrolls", "bottles", "corks", "keys", "djinn_per_colour", "bosses"},
        "[supply]",
    )
    supply = {k: _int(supply_t, k, "[supply]", 0, 500) for k in supply_t if k != "provenance"}
    if supply.get("bosses", 0) < 6:
        raise ComponentsError("[supply] bosses must be at least 6 (one per round space)")
    if supply.get("djinn_per_colour", 0) < 3:
        raise ComponentsError("[supply] djinn_per_colour must be at least 3")
    _provenance(supply_t, "[supply]")
    start_keys = {
        "base",
        "magic",
        "capacity",
        "coins",
        "active_circles",
        "passages",
        "passages_removed",
    }
    start_t = _keys(_get(data, "start", dict, "file"), start_keys, "[start]")
    start = {k: _int(start_t, k, "[start]", 0, 20) for k in start_keys}
    _provenance(start_t, "[start]")
    if start["active_circles"] > 4 or start["passages"] != len(LOCATIONS):
        raise ComponentsError(
            "[start] at most 4 active circles; passages must be 6 (one per location)"
        )
    if not 1 <= start["passages"] - start["passages_removed"] <= 6:
        raise ComponentsError("[start] players must keep 1..6 passages")
    track = _keys(
        _get(data, "track", dict, "file"),
        {"capacity_min", "capacity_max", "max_magic_flipped", "prices", "price_flipped"},
        "[track]",
    )
    cmin = _int(track, "capacity_min", "[track]", 1, 20)
    cmax = _int(track, "capacity_max", "[track]", cmin, 20)
    prices = _get(track, "prices", list, "[track]")
    if len(prices) != cmax - cmin + 1 or not all(type(p) is int and 0 <= p <= 20 for p in prices):
        raise ComponentsError("[track] prices: one price 0..20 per capacity position")
    if not cmin <= start["capacity"] <= cmax:
        raise ComponentsError("[start] capacity must lie on the track")
    _provenance(track, "[track]")
    setup = _keys(
        _get(data, "djinn_setup", dict, "file"),
        {"per_space", "replenish", "extra_near_source"},
        "[djinn_setup]",
    )
    catching = _keys(
        _get(data, "catching", dict, "file"),
        {"per_djinn", "boss_per_other", "decline_cost", "source_boss_cost"},
        "[catching]",
    )
    _provenance(setup, "[djinn_setup]")
    _provenance(catching, "[catching]")
    loc = _get(data, "locations", dict, "file")
    reward_names = {
        "academy_basic", "academy_special", "source_row2", "passage_bonus", "set_bonus",
    }  # fmt: skip
    number_names = {
        "manufactory_basic_cost", "manufactory_basic_corks", "manufactory_special_cost",
        "manufactory_special_corks", "catacombs_basic", "catacombs_special", "market_special_times",
    }  # fmt: skip
    _keys(loc, reward_names | number_names | {"forfeit", "circle_rewards"}, "[locations]")
    _provenance(loc, "[locations]")
    rewards = {
        k: _reward(_get(loc, k, dict, "[locations]"), f"[locations] {k}") for k in reward_names
    }
    numbers = {
        k: _int(loc, k, "[locations]", 1 if "times" in k or "catacombs" in k else 0, 5)
        for k in number_names
    }
    forfeit = tuple(
        _reward(r, "[locations] forfeit") for r in _get(loc, "forfeit", list, "[locations]")
    )
    circles = tuple(
        _reward(r, "[locations] circle_rewards")
        for r in _get(loc, "circle_rewards", list, "[locations]")
    )
    if not forfeit or len(forfeit) > 5 or len(circles) != 4 - start["active_circles"]:
        raise ComponentsError(
            "[locations] 1-5 forfeit choices and one circle reward per inactive circle"
        )

    archives: list[tuple[Reward, Reward]] = [((), ())] * len(ARCHIVE_OPTIONS)
    seen_opts = set()
    for i, entry in enumerate(_get(data, "archives", list, "file")):
        where = f"archives[{i + 1}]"
        entry = _keys(entry, {"option", "basic", "improved"}, where)
        option = _choice(_get(entry, "option", str, where), ARCHIVE_OPTIONS, "option", where)
        _provenance(entry, where)
        seen_opts.add(option)
        if option:
            archives[option] = (
                _reward(_get(entry, "basic", dict, where), where),
                _reward(_get(entry, "improved", dict, where), where),
            )
    if seen_opts != set(range(len(ARCHIVE_OPTIONS))):
        raise ComponentsError(f"[[archives]] must list the 5 options {list(ARCHIVE_OPTIONS)}")

    map_t = _keys(_get(data, "map", dict, "file"), {"paths"}, "[map]")
    _provenance(map_t, "[map]")
    edges = []
    for pair in _get(map_t, "paths", list, "[map]"):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
        ):
            raise ComponentsError("[map] paths are pairs of space names")
        edges.append((pair[0], pair[1]))
    if len(edges) > 40:
        raise ComponentsError("[map] at most 40 paths")
    _check_map(tuple(edges))

    market = _keys(_get(data, "market", dict, "file"), {"tents", "sides"}, "[market]")
    tents: list[str] = []
    offers: list[MarketOffer] = []
    for i, entry in enumerate(_get(market, "tents", list, "[market]")):
        where = f"market.tents[{i + 1}]"
        entry = _keys(entry, {"name", "offers"}, where)
        _provenance(entry, where)
        tents.append(_get(entry, "name", str, where)[:MAX_NAME])
        for j, offer in enumerate(_get(entry, "offers", list, where)):
            w2 = f"{where} offers[{j + 1}]"
            offer = _keys(offer, {"coins", "scrolls", "reward"}, w2)
            offers.append(
                MarketOffer(
                    i,
                    _int(offer, "coins", w2, 0, 20, 0),
                    _int(offer, "scrolls", w2, 0, 20, 0),
                    _reward(_get(offer, "reward", dict, w2), w2),
                )
            )
    if not 2 <= len(tents) <= 8 or not 1 <= len(offers) <= 16:
        raise ComponentsError("[market] 2..8 tents with 1..16 offers in all")
    sides = []
    covered: set[int] = set()
    for i, entry in enumerate(_get(market, "sides", list, "[market]")):
        where = f"market.sides[{i + 1}]"
        entry = _keys(entry, {"players", "places"}, where)
        _provenance(entry, where)
        who = tuple(_get(entry, "players", list, where))
        places = _get(entry, "places", list, where)
        if not all(type(n) is int and 1 <= n <= 4 for n in who) or covered & set(who):
            raise ComponentsError(f"{where}: players are 1..4, each on one side only")
        covered |= set(who)
        flat = [t for place in places if isinstance(place, list) for t in place]
        if (
            not 2 <= len(places) <= 8
            or not all(isinstance(p, list) and p for p in places)
            or sorted(flat) != list(range(len(tents)))
        ):
            raise ComponentsError(f"{where}: places group every tent exactly once (2..8 places)")
        sides.append((who, tuple(tuple(p) for p in places)))
    if covered != {1, 2, 3, 4}:
        raise ComponentsError("[[market.sides]] must cover 1, 2, 3 and 4 players")

    mages = []
    for i, entry in enumerate(_list(data, "mage_cards", "file", 8)):
        where = f"mage_cards[{i + 1}]"
        entry = _keys(entry, {"key", "cost", "power", "bonus"}, where)
        bonus_t = _get(entry, "bonus", dict, where)
        bonus = [0] * len(COLOURS)
        for colour, amount in bonus_t.items():
            c = _choice(colour, COLOURS, "colour", where)
            if type(amount) is not int or not 1 <= amount <= 5:
                raise ComponentsError(f"{where}: a colour bonus is 1..5")
            bonus[c] = amount
        mages.append(
            MageCard(
                i,
                _get(entry, "key", bool, where),
                _int(entry, "cost", where, 0, 5),
                _int(entry, "power", where, 1, 3),
                tuple(bonus),
                _provenance(entry, where),
            )
        )
    for key in (False, True):
        if sum(m.key == key for m in mages) < 4:
            raise ComponentsError(
                "need at least 4 Mage cards with a key and 4 without (two piles each)"
            )

    equipment = []
    for i, entry in enumerate(_list(data, "equipment", "file", 3)):
        where = f"equipment[{i + 1}]"
        entry = _keys(entry, {"type", "effect", "location", "reward", "amount"}, where)
        effect = EQUIP_EFFECTS[
            _choice(_get(entry, "effect", str, where), EQUIP_EFFECTS, "effect", where)
        ]
        location = -1
        if effect == "location_reward":
            location = _choice(_get(entry, "location", str, where), LOCATIONS, "location", where)
        reward: Reward = ()
        if effect in ("location_reward", "once_reward"):
            reward = _reward(_get(entry, "reward", dict, where), where)
        amount = _int(entry, "amount", where, 1, 5, 1)
        equipment.append(
            EquipmentCard(
                i,
                _choice(_get(entry, "type", str, where), EQUIP_TYPES, "type", where),
                effect,
                location,
                reward,
                amount,
                _provenance(entry, where),
            )
        )
    if {e.type for e in equipment} != set(range(len(EQUIP_TYPES))):
        raise ComponentsError("need at least one Equipment card of each type (staff, hat, cloak)")

    chests = []
    for i, entry in enumerate(_list(data, "chests", "file", 18)):
        where = f"chests[{i + 1}]"
        entry = _keys(entry, {"reward", "key_reward"}, where)
        chests.append(
            Chest(
                i,
                _reward(_get(entry, "reward", dict, where), where),
                _reward(entry["key_reward"], where) if "key_reward" in entry else (),
                _provenance(entry, where),
            )
        )
    if len(chests) != 18:
        raise ComponentsError(f"the game has 18 Treasure Chests, the file {len(chests)}")

    trophies = []
    for i, entry in enumerate(_list(data, "trophies", "file", 21)):
        where = f"trophies[{i + 1}]"
        entry = _keys(entry, {"row", "points", "reward"}, where)
        trophies.append(
            Trophy(
                i,
                _int(entry, "row", where, 1, 3) - 1,
                _int(entry, "points", where, 0, 100),
                _reward(entry.get("reward", {}), where),
                _provenance(entry, where),
            )
        )
    if len(trophies) != 21 or any(sum(t.row == r for t in trophies) != 7 for r in range(3)):
        raise ComponentsError("the game has 21 Trophies, 7 in each row I, II, III")

    scoring = _conditions(_list(data, "scoring_cards", "file", 3), "scoring_cards", True)
    tasks = _conditions(_list(data, "solo_tasks", "file", 0), "solo_tasks", False)

    characters = []
    for i, entry in enumerate(_list(data, "characters", "file", 20)):
        where = f"characters[{i + 1}]"
        entry = _keys(entry, {"name", "positive", "effect", "reward"}, where)
        effect = CHAR_EFFECTS[
            _choice(_get(entry, "effect", str, where), CHAR_EFFECTS, "effect", where)
        ]
        characters.append(
            Character(
                i,
                _get(entry, "name", str, where)[:MAX_NAME],
                _get(entry, "positive", bool, where),
                effect,
                _reward(entry.get("reward", {}), where, signed=True)
                if effect == "start_reward"
                else (),
                _provenance(entry, where),
            )
        )
    if len(characters) != 20 or sum(c.positive for c in characters) != 10:
        raise ComponentsError("the game has 20 Character tiles, 10 positive and 10 negative")

    tom = []
    for i, entry in enumerate(_list(data, "tom_cards", "file", 15)):
        where = f"tom_cards[{i + 1}]"
        entry = _keys(entry, {"nothing", "first", "second", "pay"}, where)
        nothing = _get(entry, "nothing", bool, where, False)
        if nothing:
            tom.append(TomCard(i, True, -1, -1, (), _provenance(entry, where)))
            continue
        pay = _reward(_get(entry, "pay", dict, where), where)
        if any(
            REWARD_KINDS[k] not in ("coins", "scrolls", "magic", "keys", "corks") for k, _ in pay
        ):
            raise ComponentsError(f"{where}: Tom takes only coins, scrolls, magic, keys or corks")
        tom.append(
            TomCard(
                i,
                False,
                _choice(_get(entry, "first", str, where), LOCATIONS, "location", where),
                _choice(_get(entry, "second", str, where), LOCATIONS, "location", where),
                pay,
                _provenance(entry, where),
            )
        )
    if len(tom) != 15 or sum(t.nothing for t in tom) != 3:
        raise ComponentsError("Tom's deck has 12 location cards and 3 nothing-happens cards")

    return Components(
        name=name,
        source=source,
        sha256=sha256,
        supply=supply,
        start=start,
        capacity_min=cmin,
        capacity_max=cmax,
        max_magic_flipped=_int(track, "max_magic_flipped", "[track]", cmax - 1, 20),
        prices=tuple(prices),
        price_flipped=_int(track, "price_flipped", "[track]", 0, 20),
        djinn_per_space=_per_players(
            _get(setup, "per_space", dict, "[djinn_setup]"), "[djinn_setup] per_space"
        ),
        replenish=_per_players(
            _get(setup, "replenish", dict, "[djinn_setup]"), "[djinn_setup] replenish"
        ),
        extra_near_source=_int(setup, "extra_near_source", "[djinn_setup]", 0, 5),
        per_djinn=_int(catching, "per_djinn", "[catching]", 1, 20),
        boss_per_other=_int(catching, "boss_per_other", "[catching]", 0, 20),
        decline_cost=_int(catching, "decline_cost", "[catching]", 0, 20),
        source_boss_cost=_int(catching, "source_boss_cost", "[catching]", 1, 20),
        rewards=rewards,
        numbers=numbers,
        forfeit=forfeit,
        circle_rewards=circles,
        archives=tuple(archives),
        map_edges=tuple(edges),
        tents=tuple(tents),
        offers=tuple(offers),
        market_sides=tuple(sides),
        mage_cards=tuple(mages),
        equipment=tuple(equipment),
        chests=tuple(chests),
        trophies=tuple(trophies),
        scoring_cards=scoring,
        characters=tuple(characters),
        tom_cards=tuple(tom),
        solo_tasks=tasks,
    )


#: The file plumbing shared with other games (core/datafile.py), in this game's shorter wording.
_DATA = TomlDataFile(
    DEFAULT_FILE,
    parse_components,
    max_bytes=MAX_FILE_BYTES,
    max_nesting=MAX_NESTING,
    messages=Messages(
        bad_ref="components {value} is not a content reference",
        too_large="components file {file} is larger than {limit} bytes",
        not_loaded=(
            "components sha256:{short}... are not loaded in this process; a record carries "
            "them in setup.data"
        ),
        too_deep="{source}: nests more than {limit} levels deep",
    ),
)


def parse_components_text(text: str, source: str, sha256: str) -> Components:
    return _DATA.parse_text(text, source, sha256)


def load_components(source: str | None = None) -> Components:
    """The components named by ``source`` (cached): None for the built-in set, a file path,
    or ``"sha256:<hex>"`` for data registered by content (what a record embeds)."""
    return _DATA.load(source)


def reward_json(reward: Reward) -> dict[str, int]:
    return {REWARD_KINDS[k]: a for k, a in reward}


def reward_text(reward: Reward) -> str:
    # words.py words every reward for people and imports this module, hence the late import.
    from arabesque.games.djinn.words import reward_words

    return reward_words(reward)


def mage_json(card: MageCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "key": card.key,
        "cost": card.cost,
        "power": card.power,
        "bonus": {COLOURS[c]: b for c, b in enumerate(card.bonus) if b},
    }


def equipment_json(card: EquipmentCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "type": EQUIP_TYPES[card.type],
        "effect": card.effect,
        "location": None if card.location < 0 else LOCATIONS[card.location],
        "reward": reward_json(card.reward),
        "amount": card.amount,
    }


def catalog(path: str | None = None) -> dict[str, Any]:
    """The id tables of a components file (``arabesque cards djinn``)."""
    comp = load_components(path)
    return {
        "components": comp.name,
        "source": comp.source,
        "mage_cards": [
            {
                **mage_json(m),
                "bonus": ", ".join(f"{k} +{v}" for k, v in mage_json(m)["bonus"].items()) or "-",
            }
            for m in comp.mage_cards
        ],
        "equipment": [
            {**equipment_json(e), "reward": reward_text(e.reward)} for e in comp.equipment
        ],
        "chests": [
            {
                "id": c.id,
                "reward": reward_text(c.reward),
                "key_reward": reward_text(c.key_reward) if c.key_reward else "-",
            }
            for c in comp.chests
        ],
        "trophies": [
            {
                "id": t.id,
                "row": ["I", "II", "III"][t.row],
                "points": t.points,
                "reward": reward_text(t.reward),
            }
            for t in comp.trophies
        ],
        "scoring_cards": [
            {
                "id": s.id,
                "name": s.name,
                "condition": s.condition,
                "points": s.points,
                "threshold": s.threshold,
                "cap": s.cap,
            }
            for s in comp.scoring_cards
        ],
        "characters": [
            {
                "id": c.id,
                "name": c.name,
                "positive": c.positive,
                "effect": c.effect,
                "reward": reward_text(c.reward),
            }
            for c in comp.characters
        ],
        "tom_cards": [
            {
                "id": t.id,
                "first": "-" if t.nothing else LOCATIONS[t.first],
                "second": "-" if t.nothing else LOCATIONS[t.second],
                "pay": "nothing happens" if t.nothing else reward_text(t.pay),
            }
            for t in comp.tom_cards
        ],
        "map_paths": [{"from": a, "to": b} for a, b in comp.map_edges],
    }
