"""Ali Baba's fixed integer action space and its canonical text.

Every tile is unique (one per kind and colour), so actions name tiles, not places:

| block           | text                   | when                                          |
|-----------------|------------------------|-----------------------------------------------|
| TAKE + t        | ``take blue ring``     | step 1: take a face-up tile                   |
| ALSO + t        | ``also take blue ring``| green effect: an adjacent face-up tile        |
| SWAP + t        | ``swap for blue ring`` | Aladdin's lamp: swap the lamp for a set-aside |
| SHOW + t        | ``show blue ring``     | yellow effect: the tile an opponent shows     |
| STEAL + t       | ``steal blue ring``    | yellow effect: the shown tile you take        |
| FORBID_KIND + k | ``forbid ring``        | white effect: a kind of treasure              |
| FORBID_COL + c  | ``forbid blue``        | white effect: a colour (magic effect)         |
| KEEP            | ``keep lamp``          | Aladdin's lamp: use the lamp's own effect     |
| USE_YELLOW      | ``use yellow``         | yellow effect: make the opponents show        |
| PASS            | ``pass``               | decline an optional effect                    |
"""

from __future__ import annotations

from functools import cache

from arabesque.core.errors import InvalidActionError
from arabesque.core.limits import quote
from arabesque.games.ali_baba.components import Tiles, load_tiles

_TILE_VERBS = ("take", "also take", "swap for", "show", "steal")
TAKE, ALSO, SWAP, SHOW, STEAL = range(5)
#: The longest action text parsed; the canonical texts are far shorter.
MAX_TEXT = 100


class ActionSpace:
    """The blocks of the action space for a tile set (offsets computed once)."""

    def __init__(self, tiles: Tiles) -> None:
        self.tiles = tiles
        self.n = n = tiles.num_tiles
        self.forbid_kind = 5 * n
        self.forbid_colour = self.forbid_kind + len(tiles.kinds)
        self.keep = self.forbid_colour + len(tiles.colours)
        self.use_yellow = self.keep + 1
        self.pass_ = self.keep + 2
        self.size = self.keep + 3

    def tile_action(self, block: int, tile: int) -> int:
        return block * self.n + tile

    def split(self, action: int) -> tuple[int, int]:
        """(block, tile) of a tile action; block -1 for the others."""
        if action < self.forbid_kind:
            return divmod(action, self.n)
        return -1, -1

    def to_str(self, action: int) -> str:
        if not 0 <= action < self.size:
            raise InvalidActionError(f"no action {action}; actions are 0..{self.size - 1}")
        block, tile = self.split(action)
        if block >= 0:
            return f"{_TILE_VERBS[block]} {self.tiles.name(tile)}"
        if action < self.forbid_colour:
            return f"forbid {self.tiles.kinds[action - self.forbid_kind]}"
        if action < self.keep:
            return f"forbid {self.tiles.colours[action - self.forbid_colour].name}"
        return {self.keep: "keep lamp", self.use_yellow: "use yellow"}.get(action, "pass")

    def parse(self, text: object) -> int:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action text is a string, got {quote(text)}")
        if len(text) > MAX_TEXT:
            raise InvalidActionError(
                f"action text {quote(text)} is {len(text)} characters long; actions are at "
                f"most {MAX_TEXT} (e.g. 'take blue ring')"
            )
        words = " ".join(text.strip().lower().split())
        fixed = {"keep lamp": self.keep, "use yellow": self.use_yellow, "pass": self.pass_}
        if words in fixed:
            return fixed[words]
        if words.startswith("forbid "):
            what = words[len("forbid ") :]
            if what in self.tiles.kinds:
                return self.forbid_kind + self.tiles.kinds.index(what)
            names = [c.name for c in self.tiles.colours]
            if what in names:
                return self.forbid_colour + names.index(what)
            raise InvalidActionError(
                f"cannot forbid {quote(what)}: name a kind ({', '.join(self.tiles.kinds)}) "
                f"or a colour ({', '.join(names)})"
            )
        # Longest verbs first: "also take" before "take".
        for block in sorted(range(len(_TILE_VERBS)), key=lambda b: -len(_TILE_VERBS[b])):
            verb = _TILE_VERBS[block] + " "
            if words.startswith(verb):
                try:
                    tile = self.tiles.parse_tile(words[len(verb) :])
                except ValueError as exc:
                    raise InvalidActionError(str(exc)) from None
                return self.tile_action(block, tile)
        raise InvalidActionError(
            f"unknown action {quote(text)}; actions are: take/also take/swap for/show/steal "
            f"<colour> <kind>, forbid <kind or colour>, keep lamp, use yellow, pass"
        )


@cache
def action_space() -> ActionSpace:
    """The action space of the built-in tile set (the same for every variant)."""
    return ActionSpace(load_tiles())
