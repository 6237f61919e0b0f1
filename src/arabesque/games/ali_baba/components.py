"""Ali Baba components: the 60 treasure tiles and the pyramid geometry of each board side.

The rulebook fixes what the tiles are (10 kinds x 6 colours, one tile of each) and how the
layers stack; data/tiles.toml states it with provenance. The geometry of a board side is
computed here from its layers: which tiles rest on which, and which tiles touch edge to edge
when seen from above (the green effect's "orthogonally adjacent", ruling R2).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from arabesque.core.errors import ComponentsError
from arabesque.core.gamedata import MAX_DATA_BYTES
from arabesque.core.limits import deeper_than, quote, read_at_most

DATA_FILE = Path(__file__).with_name("data") / "tiles.toml"
EFFECTS = ("score", "flipped", "same_kind", "adjacent", "show", "forbid")
#: Victory points for 1..6 tiles of one kind (rulebook, End of the game).
SET_POINTS = (0, 1, 3, 6, 10, 15, 21)

# -- bounds on a tile file: far above the real game, far below what would cost memory or time
# (the geometry is computed square by square, and adjacency compares every pair of squares).

#: Largest tile file, in bytes.
MAX_FILE_BYTES = MAX_DATA_BYTES
#: Deepest nesting of tables and arrays (the schema needs 6).
MAX_NESTING = 10
#: Most boards, layers per board, and rows or columns per layer.
MAX_BOARDS = 10
MAX_LAYERS = 10
MAX_SIDE = 10
#: Longest kind, colour or board name.
MAX_NAME = 24
#: Most points a colour scores.
MAX_POINTS = 100


@dataclass(frozen=True, slots=True)
class Colour:
    name: str
    effect: str
    points: int


@dataclass(frozen=True, slots=True)
class Layer:
    rows: int
    cols: int
    over: tuple[int, int]  # the block of tiles below each tile rests on; (0, 0) at the bottom
    face_up: bool


@dataclass(frozen=True, slots=True)
class Square:
    """One tile place of the pyramid, in board units (a bottom square is 1 x 1)."""

    index: int
    layer: int
    row: int
    col: int
    top: Fraction
    left: Fraction
    #: Layers, rows and columns counted from 1, the bottom layer being layer 1.
    label: str


@dataclass(frozen=True)
class Board:
    """A side of the board: its places, what rests on what, and edge-to-edge neighbours."""

    id: str
    layers: tuple[Layer, ...]
    squares: tuple[Square, ...]
    below: tuple[tuple[int, ...], ...]  # places this one rests on
    above: tuple[tuple[int, ...], ...]  # places resting on this one
    adjacent: tuple[tuple[int, ...], ...]  # places sharing a stretch of edge, seen from above
    index: dict[tuple[int, int, int], int]

    @property
    def size(self) -> int:
        return len(self.squares)

    def place_of_label(self, label: str) -> int:
        """The place named ``L<layer> r<row> c<column>`` (counted from 1); ``ValueError``."""
        m = re.fullmatch(r"l(\d+)\s*r(\d+)\s*c(\d+)", label.strip().lower())
        key = None if m is None else tuple(int(g) - 1 for g in m.groups())
        if key is None or key not in self.index:
            raise ValueError(
                f"no place {label!r} on the {self.id} side; places are 'L<layer> r<row> "
                f"c<column>' from 'L1 r1 c1' to '{self.squares[-1].label}'"
            )
        return self.index[key]

    def starts_face_up(self, place: int) -> bool:
        return self.layers[self.squares[place].layer].face_up


def _touch(a: Square, b: Square) -> bool:
    """Whether two unit squares share an edge segment of positive length (not a corner)."""
    one = Fraction(1)

    def overlap(p: Fraction, q: Fraction) -> Fraction:
        return min(p, q) + one - max(p, q)

    side_by_side = (a.left + one == b.left or b.left + one == a.left) and overlap(a.top, b.top) > 0
    stacked = (a.top + one == b.top or b.top + one == a.top) and overlap(a.left, b.left) > 0
    return side_by_side or stacked


def build_board(board_id: str, layers: tuple[Layer, ...]) -> Board:
    squares: list[Square] = []
    index: dict[tuple[int, int, int], int] = {}
    below: list[tuple[int, ...]] = []
    for li, layer in enumerate(layers):
        for r in range(layer.rows):
            for c in range(layer.cols):
                if li == 0:
                    support: tuple[int, ...] = ()
                    top, left = Fraction(r), Fraction(c)
                else:
                    h, w = layer.over
                    try:
                        support = tuple(
                            index[(li - 1, r + dr, c + dc)] for dr in range(h) for dc in range(w)
                        )
                    except KeyError:
                        raise ComponentsError(
                            f"board {board_id}: layer {li + 1} tile r{r + 1} c{c + 1} rests "
                            f"outside layer {li}"
                        ) from None
                    # An upper tile is centred on the block it rests on.
                    top = sum((squares[s].top for s in support), Fraction(0)) / len(support)
                    left = sum((squares[s].left for s in support), Fraction(0)) / len(support)
                place = len(squares)
                index[(li, r, c)] = place
                squares.append(Square(place, li, r, c, top, left, f"L{li + 1} r{r + 1} c{c + 1}"))
                below.append(support)
    above: list[list[int]] = [[] for _ in squares]
    for place, support in enumerate(below):
        for s in support:
            above[s].append(place)
    adjacent = tuple(
        tuple(b.index for b in squares if b is not a and _touch(a, b)) for a in squares
    )
    return Board(
        id=board_id,
        layers=layers,
        squares=tuple(squares),
        below=tuple(below),
        above=tuple(tuple(a) for a in above),
        adjacent=adjacent,
        index=index,
    )


class Tiles:
    """The tile set: tile ``id = kind * len(colours) + colour``. Per-tile facts are computed
    once, since the rules ask for them on every step."""

    def __init__(
        self,
        kinds: tuple[str, ...],
        colours: tuple[Colour, ...],
        lamp_kind: int,
        boards: dict[str, Board],
        sha256: str,
    ) -> None:
        self.kinds = kinds
        self.colours = colours
        self.lamp_kind = lamp_kind  # the kind that is Aladdin's lamp in that variant
        self.boards = boards
        self.sha256 = sha256
        self.num_tiles = len(kinds) * len(colours)
        ids = range(self.num_tiles)
        self.kind = tuple(t // len(colours) for t in ids)
        self.colour = tuple(t % len(colours) for t in ids)
        self.names = tuple(f"{colours[self.colour[t]].name} {kinds[self.kind[t]]}" for t in ids)
        self._json = tuple(
            {
                "id": t,
                "name": self.names[t],
                "kind": kinds[self.kind[t]],
                "colour": colours[self.colour[t]].name,
                "effect": colours[self.colour[t]].effect,
            }
            for t in ids
        )

    def kind_of(self, tile: int) -> int:
        return self.kind[tile]

    def colour_of(self, tile: int) -> int:
        return self.colour[tile]

    def tile(self, kind: int, colour: int) -> int:
        return kind * len(self.colours) + colour

    def name(self, tile: int) -> str:
        return self.names[tile]

    def effect_of(self, tile: int) -> Colour:
        return self.colours[self.colour[tile]]

    def tile_json(self, tile: int) -> dict[str, Any]:
        return dict(self._json[tile])

    def logged(self, tile: int) -> dict[str, Any]:
        """The tile's JSON shared, not copied: for event data only, which the core copies
        before anyone reads it (``Event.to_json``)."""
        return self._json[tile]

    def parse_tile(self, text: str) -> int:
        """A tile from its name ("blue ring") or its id; raises ``ValueError``."""
        text = " ".join(text.strip().lower().split())
        # ASCII digits only, and few: ``int()`` takes other scripts' digits and refuses
        # thousands of them with a message about Python, not about tiles.
        if text.isascii() and text.isdigit() and len(text) <= 4 and int(text) < self.num_tiles:
            return int(text)
        colour, _, kind = text.partition(" ")
        names = [c.name for c in self.colours]
        if colour in names and kind in self.kinds:
            return self.tile(self.kinds.index(kind), names.index(colour))
        raise ValueError(
            f"no tile {quote(text)}; a tile is '<colour> <kind>' with colours {', '.join(names)} "
            f"and kinds {', '.join(self.kinds)}"
        )


def _need(entry: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(entry, dict) or key not in entry:
        raise ComponentsError(f"{where}: missing {key!r}")
    value = entry[key]
    if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
        raise ComponentsError(f"{where}: {key!r} must be a {kind.__name__}, got {quote(value)}")
    return value


def _section(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ComponentsError(f"[[{key}]] must be an array of tables, got {quote(value)}")
    return value


def _word(value: str, what: str, where: str) -> str:
    """A kind or colour name, normalised (stripped, lower case), that action texts can name:
    one word (``take blue ring`` is split on whitespace), not all digits (a number names a
    tile by id), at most ``MAX_NAME`` characters."""
    name = value.strip().lower()
    if not (
        name
        and len(name) <= MAX_NAME
        and len(name.split()) == 1
        and name.isprintable()
        and name.lower() == name
        and not name.isdigit()
    ):
        raise ComponentsError(
            f"{where}: {what} name {quote(value)} is not one lower-case word of 1..{MAX_NAME} "
            "characters (not a number): action texts name tiles as '<colour> <kind>'"
        )
    return name


def _size(entry: Any, key: str, where: str, low: int = 1) -> int:
    value: int = _need(entry, key, int, where)
    if not low <= value <= MAX_SIDE:
        raise ComponentsError(f"{where}: {key!r} must be {low}..{MAX_SIDE}, got {value}")
    return value


@cache
def load_tiles(path: str | None = None) -> Tiles:
    """The tile set and boards (the built-in file unless ``path`` is given)."""
    file = DATA_FILE if path is None else Path(path)
    try:
        raw = read_at_most(file, MAX_FILE_BYTES)
    except OSError as exc:
        raise ComponentsError(f"cannot read {file}: {exc.strerror}") from exc
    if raw is None:
        raise ComponentsError(
            f"{file} is larger than {MAX_FILE_BYTES} bytes; tile files hold at most "
            f"{MAX_FILE_BYTES} bytes"
        )
    too_deep = ComponentsError(
        f"{file}: tables and arrays nest more than {MAX_NESTING} levels deep; tile files nest "
        f"at most {MAX_NESTING}"
    )
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ComponentsError(f"{file} is not valid TOML: {exc}") from exc
    except RecursionError:
        # tomllib parses nested arrays recursively: thousands of levels exhaust the stack.
        raise too_deep from None
    if deeper_than(data, MAX_NESTING):
        raise too_deep
    kinds: list[str] = []
    lamp = -1
    for i, entry in enumerate(_section(data, "kinds")):
        where = f"kinds[{i}]"
        kinds.append(_word(_need(entry, "name", str, where), "kind", where))
        _need(entry, "provenance", str, where)
        if entry.get("aladdins_lamp", False) is True:
            lamp = i
    colours: list[Colour] = []
    for i, entry in enumerate(_section(data, "colours")):
        where = f"colours[{i}]"
        effect = _need(entry, "effect", str, where)
        if effect not in EFFECTS:
            raise ComponentsError(f"{where}: unknown effect {quote(effect)}; known: {EFFECTS}")
        _need(entry, "provenance", str, where)
        points = entry.get("points", 0)
        if not isinstance(points, int) or isinstance(points, bool):
            raise ComponentsError(f"{where}: 'points' must be an integer")
        if not 0 <= points <= MAX_POINTS:
            raise ComponentsError(f"{where}: 'points' must be 0..{MAX_POINTS}, got {points}")
        name = _word(_need(entry, "name", str, where), "colour", where)
        colours.append(Colour(name, effect, points))
    # rulebook, Components: 10 kinds, 6 colours, one tile of each kind in each colour.
    if len(kinds) != 10 or len(set(kinds)) != 10:
        raise ComponentsError(f"{file}: expected 10 distinct kinds, got {quote(kinds)}")
    if sorted(c.effect for c in colours) != sorted(EFFECTS):
        raise ComponentsError(f"{file}: expected one colour for each effect {EFFECTS}")
    if len({c.name for c in colours}) != len(colours):
        raise ComponentsError(f"{file}: two colours share a name")
    if set(kinds) & {c.name for c in colours}:
        raise ComponentsError(f"{file}: a kind and a colour share a name")
    if lamp < 0:
        raise ComponentsError(f"{file}: one kind must have aladdins_lamp = true")
    boards: dict[str, Board] = {}
    board_entries = _section(data, "boards")
    if len(board_entries) > MAX_BOARDS:
        raise ComponentsError(f"{file}: {len(board_entries)} boards; at most {MAX_BOARDS}")
    for i, entry in enumerate(board_entries):
        where = f"boards[{i}]"
        board_id = _need(entry, "id", str, where)
        if not 0 < len(board_id) <= MAX_NAME:
            raise ComponentsError(f"{where}: 'id' must be 1..{MAX_NAME} characters")
        _need(entry, "provenance", str, where)
        layer_entries = _section(entry, "layers")
        if len(layer_entries) > MAX_LAYERS:
            raise ComponentsError(f"{where}: {len(layer_entries)} layers; at most {MAX_LAYERS}")
        layers: list[Layer] = []
        for j, layer in enumerate(layer_entries):
            lw = f"{where}.layers[{j}]"
            over = layer.get("over", [0, 0]) if isinstance(layer, dict) else None
            if not (
                isinstance(over, list)
                and len(over) == 2
                and all(type(x) is int and 0 <= x <= MAX_SIDE for x in over)
            ):
                raise ComponentsError(
                    f"{lw}: 'over' is [rows, columns], two integers 0..{MAX_SIDE}"
                )
            layers.append(
                Layer(
                    _size(layer, "rows", lw),
                    _size(layer, "cols", lw),
                    (over[0], over[1]),
                    bool(layer.get("face_up", False)),
                )
            )
        if not layers:
            raise ComponentsError(f"{where}: no layers")
        boards[board_id] = build_board(board_id, tuple(layers))
    return Tiles(
        kinds=tuple(kinds),
        colours=tuple(colours),
        lamp_kind=lamp,
        boards=boards,
        sha256=hashlib.sha256(raw).hexdigest(),
    )


def catalog(path: str | None = None) -> dict[str, Any]:
    """The tile id table (``arabesque cards ali-baba``)."""
    tiles = load_tiles(path)
    return {
        "components": "Ali Baba tiles",
        "source": str(DATA_FILE if path is None else path),
        "tiles": [tiles.tile_json(t) for t in range(tiles.num_tiles)],
        "boards": {
            bid: [{"rows": la.rows, "cols": la.cols, "face_up": la.face_up} for la in b.layers]
            for bid, b in tiles.boards.items()
        },
    }
