"""The fixed integer action space of Djinn and its canonical texts.

Every action is one small step of a turn (compound choices are sequences of these). The space
depends only on the components' card counts, so it is fixed for a components file.
"""

from __future__ import annotations

from arabesque.core.errors import InvalidActionError
from arabesque.core.limits import quote
from arabesque.core.observer import cached_on
from arabesque.games.djinn.components import (
    ARCHIVE_OPTIONS,
    COLOURS,
    EQUIP_TYPES,
    KINDS,
    LOCATIONS,
    Components,
)

#: Space ids: 0 the Magic Source, 1..6 the square slots s1..s6, 7..12 the round slots r1..r6.
SPACE_NAMES: tuple[str, ...] = (
    "source",
    *(f"s{i}" for i in range(1, 7)),
    *(f"r{i}" for i in range(1, 7)),
)
SOURCE = 0
SQUARES = tuple(range(1, 7))
ROUNDS = tuple(range(7, 13))
NUM_SPACES = 13
MAX_PLACES = 8
MAX_OFFERS = 16
FORFEITS = 5


class Layout:
    """Bases of each action group for one components set."""

    def __init__(self, comp: Components) -> None:
        groups: list[tuple[str, int]] = [
            ("end", 1),
            ("done", 1),
            ("start", 36),  # square index * 6 + round index
            ("move", NUM_SPACES),
            ("stop", 1),
            ("skip", 1),
            ("pay_coin", 1),
            ("pay_scroll", 1),
            ("basic", 1),
            ("special", 1),
            ("passage_use", 1),
            ("catch", 1),
            ("forfeit", FORFEITS),
            ("refill", 1),
            ("bosses", 1),
            ("row2", 1),
            ("boss", 1),
            ("select", len(KINDS)),
            ("confirm", 1),
            ("decline", 1),
            ("use_mage", len(comp.mage_cards)),
            ("settle", 1),
            ("circle", 1),
            ("bottle", len(COLOURS)),
            ("release", 1),
            ("free", len(KINDS)),
            ("take", 4),
            ("unlock", 1),
            ("discard_chest", len(comp.chests)),
            ("archive", len(ARCHIVE_OPTIONS)),
            ("place_passage", len(LOCATIONS) * 6),  # location * 6 + square index
            ("equip", len(EQUIP_TYPES)),
            ("tent", MAX_PLACES),
            ("offer", MAX_OFFERS),
            ("activate", len(comp.mage_cards)),
            ("choose", len(COLOURS)),
            ("character", len(comp.characters)),
            ("trade", len(COLOURS) * len(COLOURS)),
            ("key_coin", 1),
            ("key_scroll", 1),
            ("key_magic", 1),
            ("trophy", len(comp.trophies) * len(COLOURS)),
            ("seal", 4 * len(COLOURS)),
            ("use_equipment", len(comp.equipment)),
        ]
        base = 0
        self.base: dict[str, int] = {}
        for name, size in groups:
            self.base[name] = base
            base += size
        self.size = base
        texts: list[str] = []
        for name, size in groups:
            texts.extend(_text(name, i) for i in range(size))
        self.texts = tuple(texts)
        self.parse = {t: a for a, t in enumerate(self.texts)}
        #: Per action: (group name, index within the group), for the rules' dispatch.
        self.group = tuple((name, i) for name, size in groups for i in range(size))
        #: The first action of the side actions (key exchanges, trophies, seals, equipment).
        self.side_start = self.base["key_coin"]


def _text(name: str, i: int) -> str:
    single = {
        "end": "end",
        "done": "done",
        "stop": "stop",
        "skip": "skip",
        "pay_coin": "pay coin",
        "pay_scroll": "pay scroll",
        "basic": "basic",
        "special": "special",
        "passage_use": "passage",
        "catch": "catch",
        "refill": "source refill",
        "bosses": "source bosses",
        "row2": "source row2",
        "boss": "boss",
        "confirm": "confirm",
        "decline": "decline",
        "settle": "settle",
        "circle": "circle",
        "release": "release",
        "unlock": "unlock",
        "key_coin": "key coin",
        "key_scroll": "key scroll",
        "key_magic": "key magic",
    }
    if name in single:
        return single[name]
    if name == "start":
        return f"start {SPACE_NAMES[1 + i // 6]} via {SPACE_NAMES[7 + i % 6]}"
    if name == "move":
        return f"move {SPACE_NAMES[i]}"
    if name == "forfeit":
        return f"forfeit {i + 1}"
    if name in ("select", "free"):
        return f"{name} {KINDS[i]}"
    if name == "use_mage":
        return f"use mage {i}"
    if name == "bottle":
        return f"bottle {COLOURS[i]}"
    if name == "take":
        return f"take pile {i + 1}"
    if name == "discard_chest":
        return f"discard chest {i}"
    if name == "archive":
        return f"archive {ARCHIVE_OPTIONS[i]}"
    if name == "place_passage":
        return f"passage {LOCATIONS[i // 6]} at {SPACE_NAMES[1 + i % 6]}"
    if name == "equip":
        return f"equip {EQUIP_TYPES[i]}"
    if name == "tent":
        return f"tent {i + 1}"
    if name == "offer":
        return f"offer {i + 1}"
    if name == "activate":
        return f"activate mage {i}"
    if name == "choose":
        return f"choose {COLOURS[i]}"
    if name == "character":
        return f"character {i}"
    if name == "trophy":
        return f"trophy {i // len(COLOURS)} {COLOURS[i % len(COLOURS)]}"
    if name == "seal":
        return f"seal circle {i // len(COLOURS) + 1} {COLOURS[i % len(COLOURS)]}"
    if name == "use_equipment":
        return f"use equipment {i}"
    if name == "trade":
        return f"trade {COLOURS[i // len(COLOURS)]} for {COLOURS[i % len(COLOURS)]}"
    raise AssertionError(name)


def layout_of(comp: Components) -> Layout:
    return cached_on(comp, "_action_layout", lambda: Layout(comp))


def parse(layout: Layout, text: object) -> int:
    if not isinstance(text, str):
        raise InvalidActionError(f"an action text is a string, got {quote(text)}")
    key = " ".join(text.split()).lower()
    found = layout.parse.get(key)
    if found is None:
        raise InvalidActionError(
            f"no Djinn action {quote(text)}; e.g. 'move r1', 'basic', 'catch', 'select blue', "
            "'use mage 3', 'bottle red', 'end'"
        )
    return found
