"""Magic Lamp components: chest cards, starting cards and Lamp cards, loaded from TOML.

The rulebook fixes the counts (3 chests of 25 cards plus a Sorcerer each, 8 starting stones,
25 Lamp cards) but not the faces; data/components.toml authors them, each entry tagged with
its provenance. Users who own the box can load their own file (``--components FILE``).

A components file may come from a stranger (embedded in a record a server replays), so the
loader bounds everything that costs memory or time (file size, nesting, card counts, name
lengths) and normalises the names that appear in action texts, so that every game that loads
also replays. The limits are listed in docs/components.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

from arabesque.core import datafile, gamedata
from arabesque.core.datafile import TomlDataFile
from arabesque.core.errors import ComponentsError
from arabesque.core.limits import deeper_than, quote

CHESTS: tuple[str, ...] = ("bronze", "silver", "gold")
JEWELS: tuple[str, ...] = ("bracelet", "ring", "necklace")
METALS: tuple[str, ...] = CHESTS
DEFAULT_FILE = Path(__file__).with_name("data") / "components.toml"

#: Cards of the rulebook setup that must stay beneath the Sorcerer in each chest
#: (rulebook, Setup step 2: "6th card from the bottom").
SORCERER_FROM_BOTTOM = 5

# -- bounds on a components file (docs/components.md, "Limits") ------------------------------
# Far above any real box (86 cards, 25 Lamp cards), far below what would cost real memory.

#: Largest components file, in bytes.
MAX_FILE_BYTES = gamedata.MAX_DATA_BYTES
#: Deepest nesting of tables and arrays (the schema needs 3).
MAX_NESTING = 10
#: Most chest and starting cards together, after expanding every ``count``.
MAX_CARDS = 1000
#: Most Lamp cards, after expanding every ``copies``.
MAX_LAMP_CARDS = 1000
#: Most scorpions on one card (a die shows at most 6: more would change nothing).
MAX_SCORPIONS = 9
#: Largest ``count`` of a Lamp effect (cards drawn, peeked, retrieved, scorpions warded).
MAX_EFFECT_COUNT = 100
#: Largest set bonus, in points.
MAX_SET_BONUS = 1000
#: Longest stone name; stone names appear in action texts (``stone ruby``).
MAX_STONE_NAME = 24
#: Longest Lamp card name, components name, Lamp card text and provenance.
MAX_NAME = 60
MAX_TEXT = 1000
#: Names a stone may not take: the tokens of the other card kinds in hand-written
#: arrangements (``sorcerer``, ``talisman``), which would make a name stand for two cards.
_RESERVED_STONE_NAMES = frozenset(("sorcerer", "talisman"))


class CardKind(StrEnum):
    STONE = "stone"
    JEWEL = "jewel"
    TALISMAN = "talisman"
    SORCERER = "sorcerer"


class EffectKind(StrEnum):
    """What a Lamp card does; each card is an effect kind plus parameters."""

    DRAW_CHEST = "draw_chest"  # take the top `count` cards of `chest` (no scorpion check)
    STEAL = "steal"  # take an unprotected card of your choice from an opponent
    SWAP = "swap"  # exchange an unprotected card of yours with an opponent's
    RETRIEVE = "retrieve"  # take `count` cards of your choice from the discard pile
    PEEK = "peek"  # look at the top `count` cards of `chest`, secretly
    SET_DIE = "set_die"  # turn one of your dice to any face
    MOVE_DIE = "move_die"  # move one of your dice to another chest space
    WARD = "ward"  # this turn, the first `count` scorpions you draw do not count


#: Effects whose `chest` parameter is required ("any" lets the wisher choose).
_CHEST_EFFECTS = {EffectKind.DRAW_CHEST, EffectKind.PEEK}
_COUNT_EFFECTS = {EffectKind.DRAW_CHEST, EffectKind.RETRIEVE, EffectKind.PEEK, EffectKind.WARD}
_PROVENANCES = ("rulebook", "assumed")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical chest or starting card; ``id`` is unique across the whole game."""

    id: int
    kind: CardKind
    chest: int | None  # index into CHESTS; None for starting cards
    stone: int | None  # index into Components.stone_types
    jewel: int | None  # index into JEWELS
    metal: int | None  # index into METALS
    scorpions: int
    provenance: str

    def describe(self, stone_types: tuple[str, ...]) -> str:
        if self.kind is CardKind.STONE:
            assert self.stone is not None
            name = stone_types[self.stone]
        elif self.kind is CardKind.JEWEL:
            assert self.jewel is not None and self.metal is not None
            name = f"{METALS[self.metal]} {JEWELS[self.jewel]}"
        else:
            name = self.kind.value
        return name + (" " + "☠" * self.scorpions if self.scorpions else "")


@dataclass(frozen=True, slots=True)
class LampCard:
    id: int
    name: str
    text: str
    effect: EffectKind
    chest: int | None  # None = the wisher chooses ("any") or not applicable
    count: int
    provenance: str


@dataclass(frozen=True)
class Components:
    name: str
    source: str  # file path, or "built-in"
    sha256: str
    stone_types: tuple[str, ...]
    set_bonus: tuple[int, ...]  # per metal
    cards: tuple[Card, ...]  # indexed by card id
    chest_cards: tuple[tuple[int, ...], ...]  # per chest, card ids incl. the Sorcerer
    starting_cards: tuple[int, ...]
    lamp_cards: tuple[LampCard, ...]

    @property
    def num_cards(self) -> int:
        return len(self.cards)

    def sorcerer_of(self, chest: int) -> int:
        for cid in self.chest_cards[chest]:
            if self.cards[cid].kind is CardKind.SORCERER:
                return cid
        raise AssertionError("validated components always have a Sorcerer per chest")

    def describe(self, card_id: int) -> str:
        return self.cards[card_id].describe(self.stone_types)

    def card_json(self, card_id: int) -> dict[str, Any]:
        # A fresh dict each call (callers may edit it); its values are immutable.
        return dict(self._card_jsons[card_id])

    def lamp_json(self, lamp_id: int) -> dict[str, Any]:
        return dict(self._lamp_jsons[lamp_id])

    # -- tables derived once per components, for the rules' hot paths --------------------
    # (cached_property writes the instance dict directly, so it works on a frozen dataclass)

    @cached_property
    def _card_jsons(self) -> tuple[dict[str, Any], ...]:
        return tuple(
            {
                "id": card.id,
                "kind": card.kind.value,
                "name": card.describe(self.stone_types),
                "stone": None if card.stone is None else self.stone_types[card.stone],
                "jewel": None if card.jewel is None else JEWELS[card.jewel],
                "metal": None if card.metal is None else METALS[card.metal],
                "scorpions": card.scorpions,
                "chest": None if card.chest is None else CHESTS[card.chest],
            }
            for card in self.cards
        )

    @cached_property
    def _lamp_jsons(self) -> tuple[dict[str, Any], ...]:
        return tuple(
            {
                "id": lamp.id,
                "name": lamp.name,
                "text": lamp.text,
                "effect": lamp.effect.value,
                "chest": None if lamp.chest is None else CHESTS[lamp.chest],
                "count": lamp.count,
            }
            for lamp in self.lamp_cards
        )

    @cached_property
    def kinds(self) -> tuple[CardKind, ...]:
        """Per card id, its kind."""
        return tuple(card.kind for card in self.cards)

    @cached_property
    def stone_of(self) -> tuple[int, ...]:
        """Per card id: the stone type of a stone card, else -1."""
        return tuple(
            card.stone if card.kind is CardKind.STONE and card.stone is not None else -1
            for card in self.cards
        )

    @cached_property
    def jewel_slot(self) -> tuple[int, ...]:
        """Per card id: ``metal * len(JEWELS) + jewel`` for a jewel, else -1."""
        return tuple(
            card.metal * len(JEWELS) + card.jewel
            if card.kind is CardKind.JEWEL and card.metal is not None and card.jewel is not None
            else -1
            for card in self.cards
        )

    @cached_property
    def tradeable(self) -> tuple[bool, ...]:
        """Per card id: whether it is a stone or a jewel (what steals and swaps may move)."""
        return tuple(card.kind in (CardKind.STONE, CardKind.JEWEL) for card in self.cards)

    @cached_property
    def sorcerers(self) -> tuple[int, ...]:
        """Per chest, the id of its Sorcerer."""
        return tuple(self.sorcerer_of(c) for c in range(len(self.chest_cards)))


# -- loading ---------------------------------------------------------------------------------


def _where(section: str, index: int) -> str:
    return f"{section}[{index + 1}]"


def _get(entry: Mapping[str, Any], key: str, kind: type, where: str, default: Any = ...) -> Any:
    return datafile.field(entry, key, kind, where, default)


def _bounded(value: int, low: int, high: int, what: str, where: str) -> int:
    if not low <= value <= high:
        raise ComponentsError(f"{where}: {what} must be {low}..{high}, got {value}")
    return value


def _text(entry: Mapping[str, Any], key: str, where: str, limit: int, default: Any = ...) -> Any:
    """A string field of at most ``limit`` characters (None passes through as a default)."""
    value = _get(entry, key, str, where, default)
    if isinstance(value, str) and len(value) > limit:
        raise ComponentsError(
            f"{where}: {key!r} is {len(value)} characters long; at most {limit} are accepted"
        )
    return value


def _choice(value: str, options: tuple[str, ...], what: str, where: str) -> int:
    if value not in options:
        raise ComponentsError(
            f"{where}: unknown {what} {quote(value)}; expected one of {list(options)}"
        )
    return options.index(value)


def _enum_value(value: str, enum: type[StrEnum], what: str, where: str) -> str:
    options = tuple(member.value for member in enum)
    _choice(value, options, what, where)
    return value


def normalise_stone_name(name: str) -> str:
    """A stone name as action texts and arrangements spell it: stripped and lower-case
    (``" Ruby "`` is ``ruby``). The parser of action texts lower-cases and splits on
    whitespace, so only a name that survives that unchanged can be replayed."""
    return name.strip().lower()


def _stone_name(value: Any, where: str) -> str:
    """Check one name of ``[meta] stone_types``: after normalising, a single lower-case word
    without ``:`` (arrangement tokens use it for scorpions, ``ruby:1``) that is not the token
    of another card kind, so that ``stone <name>`` and ``<name>:<n>`` parse back to it."""
    if not isinstance(value, str):
        raise ComponentsError(f"{where}: stone names are strings, got {quote(value)}")
    name = normalise_stone_name(value)
    problem = None
    if not name:
        problem = "is empty"
    elif len(name) > MAX_STONE_NAME:
        problem = f"is longer than {MAX_STONE_NAME} characters"
    elif len(name.split()) != 1 or not name.isprintable():
        problem = "is not a single word (no spaces or control characters)"
    elif ":" in name:
        problem = "contains ':' (arrangements write 'ruby:1' for a ruby with one scorpion)"
    elif name.lower() != name:
        # A few characters lower-case to something that lower-cases again differently.
        problem = "changes when lower-cased again"
    elif name in _RESERVED_STONE_NAMES:
        problem = f"is the name of another card kind ({', '.join(sorted(_RESERVED_STONE_NAMES))})"
    if problem is not None:
        raise ComponentsError(
            f"{where}: stone name {quote(value)} {problem}; a stone name is one lower-case "
            f"word of 1..{MAX_STONE_NAME} characters, as in 'stone ruby'"
        )
    return name


#: The keys each kind of entry may have; anything else is a typo that would silently drop data.
_KEYS = {
    "chest_cards": {"chest", "kind", "stone", "jewel", "metal", "scorpions", "count", "provenance"},
    "starting_cards": {"stone", "count", "provenance"},
    "lamp_cards": {"name", "text", "effect", "chest", "count", "copies", "provenance"},
}


def _table(entry: Any, section: str, where: str) -> Mapping[str, Any]:
    if not isinstance(entry, Mapping):
        raise ComponentsError(f"{where}: must be a table")
    unknown = sorted(set(entry) - _KEYS[section])
    if unknown:
        raise ComponentsError(
            f"{where}: unknown key {quote(unknown[0])}; expected some of {sorted(_KEYS[section])}"
        )
    return entry


def _provenance(entry: Mapping[str, Any], where: str) -> str:
    prov: str = _text(entry, "provenance", where, MAX_TEXT)
    if prov.split(":")[0].strip() not in _PROVENANCES:
        raise ComponentsError(
            f"{where}: provenance must start with 'rulebook' or 'assumed', got {quote(prov)}"
        )
    return prov


def _add_cards(total: int, count: int, where: str) -> int:
    """The number of cards after adding ``count`` more; refuses a total past ``MAX_CARDS``
    before any card is built, so ``count = 100000000`` costs nothing."""
    total += count
    if total > MAX_CARDS:
        raise ComponentsError(
            f"{where}: the file would hold more than {MAX_CARDS} chest and starting cards "
            f"(count {count}); a components file holds at most {MAX_CARDS}"
        )
    return total


def parse_components(data: Mapping[str, Any], source: str, sha256: str) -> Components:
    """Validate parsed TOML and build frozen components; errors name the bad entry."""
    if deeper_than(data, MAX_NESTING):
        raise ComponentsError(
            f"{source}: tables and arrays nest more than {MAX_NESTING} levels deep; "
            f"components files nest at most {MAX_NESTING}"
        )
    meta = data.get("meta", {})
    if not isinstance(meta, Mapping):
        raise ComponentsError("[meta] must be a table")
    raw_stones = _get(meta, "stone_types", list, "[meta]")
    if len(raw_stones) != 4 or not all(isinstance(s, str) for s in raw_stones):
        raise ComponentsError(
            "[meta] stone_types must list 4 names (the rulebook scores 4 stone types)"
        )
    stone_types = tuple(_stone_name(s, "[meta] stone_types") for s in raw_stones)
    if len(set(stone_types)) != len(stone_types):
        raise ComponentsError(
            f"[meta] stone_types must list 4 different names (compared in lower case), "
            f"got {list(raw_stones)}"
        )
    set_bonus_table = _get(meta, "set_bonus", dict, "[meta]")
    set_bonus = tuple(
        _bounded(
            _get(set_bonus_table, m, int, "[meta.set_bonus]"),
            0,
            MAX_SET_BONUS,
            f"the {m} set bonus",
            "[meta.set_bonus]",
        )
        for m in METALS
    )
    name = _text(meta, "name", "[meta]", MAX_NAME, source)

    cards: list[Card] = []
    total = 0
    per_chest: list[list[int]] = [[] for _ in CHESTS]
    entries = _get(data, "chest_cards", list, "file")
    for i, entry in enumerate(entries):
        where = _where("chest_cards", i)
        entry = _table(entry, "chest_cards", where)
        chest = _choice(_get(entry, "chest", str, where), CHESTS, "chest", where)
        kind = CardKind(_enum_value(_get(entry, "kind", str, where), CardKind, "kind", where))
        count = _get(entry, "count", int, where, 1)
        scorpions = _get(entry, "scorpions", int, where, 0)
        if count < 1 or scorpions < 0:
            raise ComponentsError(f"{where}: count must be >= 1 and scorpions >= 0")
        _bounded(scorpions, 0, MAX_SCORPIONS, "scorpions", where)
        total = _add_cards(total, count, where)
        prov = _provenance(entry, where)
        stone = jewel = metal = None
        if kind is CardKind.STONE:
            stone_name = normalise_stone_name(_get(entry, "stone", str, where))
            stone = _choice(stone_name, stone_types, "stone", where)
        elif kind is CardKind.JEWEL:
            jewel = _choice(_get(entry, "jewel", str, where), JEWELS, "jewel", where)
            metal = _choice(_get(entry, "metal", str, where), METALS, "metal", where)
        for _ in range(count):
            card = Card(len(cards), kind, chest, stone, jewel, metal, scorpions, prov)
            cards.append(card)
            per_chest[chest].append(card.id)
    for c, ids in enumerate(per_chest):
        sorcerers = [cid for cid in ids if cards[cid].kind is CardKind.SORCERER]
        if len(sorcerers) != 1:
            raise ComponentsError(
                f"chest {CHESTS[c]} must have exactly one sorcerer card, has {len(sorcerers)}"
            )
        if cards[sorcerers[0]].scorpions:
            # R1: the Sorcerer is no treasure and carries no scorpion.
            raise ComponentsError(f"the {CHESTS[c]} sorcerer card cannot carry scorpions")
        if len(ids) < SORCERER_FROM_BOTTOM + 1:
            raise ComponentsError(
                f"chest {CHESTS[c]} needs at least {SORCERER_FROM_BOTTOM + 1} cards "
                f"(the Sorcerer goes 6th from the bottom), has {len(ids)}"
            )

    starting: list[int] = []
    for i, entry in enumerate(_get(data, "starting_cards", list, "file")):
        where = _where("starting_cards", i)
        entry = _table(entry, "starting_cards", where)
        stone_name = normalise_stone_name(_get(entry, "stone", str, where))
        stone = _choice(stone_name, stone_types, "stone", where)
        count = _get(entry, "count", int, where, 1)
        if count < 1:
            raise ComponentsError(f"{where}: count must be >= 1")
        total = _add_cards(total, count, where)
        prov = _provenance(entry, where)
        for _ in range(count):
            card = Card(len(cards), CardKind.STONE, None, stone, None, None, 0, prov)
            cards.append(card)
            starting.append(card.id)
    if len(starting) < 5:
        raise ComponentsError(
            f"need at least 5 starting cards (one per player at 5 players), have {len(starting)}"
        )

    lamps: list[LampCard] = []
    for i, entry in enumerate(_get(data, "lamp_cards", list, "file")):
        where = _where("lamp_cards", i)
        entry = _table(entry, "lamp_cards", where)
        effect_name = _get(entry, "effect", str, where)
        effect = EffectKind(_enum_value(effect_name, EffectKind, "effect", where))
        chest_name = _get(entry, "chest", str, where, "any")
        lamp_chest = None if chest_name == "any" else _choice(chest_name, CHESTS, "chest", where)
        count = _get(entry, "count", int, where, 1)
        if effect in _COUNT_EFFECTS and count < 1:
            raise ComponentsError(f"{where}: count must be >= 1")
        _bounded(count, 0, MAX_EFFECT_COUNT, "count", where)
        if "chest" in entry and effect not in _CHEST_EFFECTS:
            raise ComponentsError(f"{where}: effect {effect_name!r} takes no chest")
        copies = _get(entry, "copies", int, where, 1)
        if copies < 1:
            raise ComponentsError(f"{where}: copies must be >= 1")
        if len(lamps) + copies > MAX_LAMP_CARDS:
            raise ComponentsError(
                f"{where}: the file would hold more than {MAX_LAMP_CARDS} Lamp cards "
                f"(copies {copies}); a components file holds at most {MAX_LAMP_CARDS}"
            )
        lamp_name = _text(entry, "name", where, MAX_NAME)
        if not lamp_name.strip():
            raise ComponentsError(f"{where}: 'name' is empty; a Lamp card needs a name")
        text = _text(entry, "text", where, MAX_TEXT)
        prov = _provenance(entry, where)
        for _ in range(copies):
            lamps.append(LampCard(len(lamps), lamp_name, text, effect, lamp_chest, count, prov))
    if len(lamps) < 3:
        raise ComponentsError(f"need at least 3 Lamp cards (three wishes), have {len(lamps)}")

    return Components(
        name=str(name),
        source=source,
        sha256=sha256,
        stone_types=stone_types,
        set_bonus=set_bonus,
        cards=tuple(cards),
        chest_cards=tuple(tuple(ids) for ids in per_chest),
        starting_cards=tuple(starting),
        lamp_cards=tuple(lamps),
    )


#: The file plumbing shared with other games: bounded reads, content references, caches.
_DATA = TomlDataFile(
    DEFAULT_FILE, parse_components, max_bytes=MAX_FILE_BYTES, max_nesting=MAX_NESTING
)


def parse_components_text(text: str, source: str, sha256: str) -> Components:
    """Parse and validate the TOML text of a components file (``source`` names it in
    messages). Refuses nesting past ``MAX_NESTING`` with a ``ComponentsError``."""
    return _DATA.parse_text(text, source, sha256)


def load_components(source: str | None = None) -> Components:
    """The components named by ``source`` (cached): ``None`` for the built-in set, a file
    path, or ``"sha256:<hex>"`` for data registered by content (the text a record embeds,
    core/gamedata.py). A ``ComponentsError`` says what is wrong."""
    return _DATA.load(source)


def card_token(comp: Components, card_id: int) -> str:
    """A card's name in hand-written arrangements: ``ruby``, ``ruby:2`` (two scorpions)."""
    card = comp.cards[card_id]
    base = card.describe(comp.stone_types).split(" ☠")[0]
    return f"{base}:{card.scorpions}" if card.scorpions else base


def catalog(path: str | None = None) -> dict[str, Any]:
    """The id table of a components file (``arabesque cards magic-lamp``)."""
    comp = load_components(path)
    cards = []
    for card in comp.cards:
        data = comp.card_json(card.id)
        cards.append(
            {
                "id": card.id,
                "chest": "starting" if card.chest is None else CHESTS[card.chest],
                "kind": data["kind"],
                "name": data["name"],
                "scorpions": card.scorpions,
                "token": card_token(comp, card.id),
            }
        )
    lamps = []
    for lamp in comp.lamp_cards:
        data = comp.lamp_json(lamp.id)
        # A missing chest means "the wisher chooses" only for effects that act on a chest.
        if data["chest"] is None and lamp.effect in _CHEST_EFFECTS:
            data["chest"] = "any"
        lamps.append(data)
    return {"components": comp.name, "source": comp.source, "cards": cards, "lamp_cards": lamps}
