"""Ali Baba panels drawn from one seat's view (pure functions, no Textual).

Everything here reads the view dict built by ``games/ali_baba/view.py`` and nothing else, so
a panel can only show what that seat may know. The pyramid is drawn seen from above: every
tile is a box, the layers painted bottom first, so each character shows the topmost tile at
that spot, face-down tiles as shaded fragments and face-up tiles in their background colour.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arabesque.tui.ali_baba.events import (
    Namer,
    Tile,
    and_list,
    colour_points,
    effect_words,
    forbid_words,
    plural,
    plural_word,
)
from arabesque.tui.decision_panel import FirstFit, Flow, Rigid

#: Victory points for 1..6 tiles of one kind (rulebook, End of the game).
SET_POINTS = (0, 1, 3, 6, 10, 15, 21)

#: Background colour of each tile colour, and a readable text colour on it.
TILE_BG: dict[str, str] = {
    "pink": "#ff87c8",
    "blue": "#5f9fff",
    "brown": "#a0522d",
    "green": "#3cb043",
    "yellow": "#ffd700",
    "white": "#eeeeee",
}
TILE_FG: dict[str, str] = {"brown": "#ffffff"}
#: Face-down tiles, by layer (deeper is darker).
FACE_DOWN_BG = ("#303030", "#444444", "#585858", "#6c6c6c")
FACE_DOWN_FG = "#9e9e9e"
FLOOR_STYLE = "#4e4e4e"

LIGHT = "┌─┐│└┘"
HEAVY = "┏━┓┃┗┛"


def tile_style(colour: str, bold: bool = False) -> str:
    fg = TILE_FG.get(colour, "#000000")
    return f"{'bold ' if bold else ''}{fg} on {TILE_BG.get(colour, '#808080')}"


def chip(tile: Tile, text: str | None = None) -> Text:
    """A tile as a short coloured label."""
    colour = str(tile.get("colour", ""))
    label = text if text is not None else str(tile.get("name", "?"))
    return Text(f" {label} ", style=tile_style(colour), no_wrap=True)


def set_points(n: int) -> int:
    return SET_POINTS[min(n, len(SET_POINTS) - 1)]


def kind_counts(tiles: Iterable[Tile]) -> Counter[str]:
    return Counter(str(t["kind"]) for t in tiles)


def sets_total(tiles: Iterable[Tile]) -> int:
    return sum(set_points(n) for n in kind_counts(tiles).values())


# -- the pyramid's geometry, from the view ---------------------------------------------------


def _rests_on(upper: Mapping[str, Any], lower: Mapping[str, Any]) -> bool:
    return bool(
        lower["layer"] == upper["layer"] - 1
        and abs(lower["top"] - upper["top"]) < 1
        and abs(lower["left"] - upper["left"]) < 1
    )


def places(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return list(view["board"]["places"])


def place_of_tile(view: Mapping[str, Any], tile_id: int) -> dict[str, Any] | None:
    for place in view["board"]["places"]:
        if place["state"] == "face_up" and place["tile"]["id"] == tile_id:
            return dict(place)
    return None


def uncovered_by(view: Mapping[str, Any], place: Mapping[str, Any]) -> int:
    """How many face-down tiles taking the tile at ``place`` would flip face up."""
    all_places = places(view)
    count = 0
    for below in all_places:
        if below["state"] != "face_down" or not _rests_on(place, below):
            continue
        others = [
            q
            for q in all_places
            if q["place"] != place["place"] and q["state"] != "empty" and _rests_on(q, below)
        ]
        if not others:
            count += 1
    return count


def face_up_tiles(view: Mapping[str, Any]) -> list[Tile]:
    return [p["tile"] for p in view["board"]["places"] if p["state"] == "face_up"]


# -- who may take what -------------------------------------------------------------------------


def forbidden(view: Mapping[str, Any], tile: Tile, seat: int | None) -> list[Mapping[str, Any]]:
    """The white blocks that forbid ``tile`` to ``seat`` (any seat but the blocker's own, when
    ``seat`` is None)."""
    out = []
    for block in view.get("blocks") or []:
        if seat is not None and block["by"] == seat:
            continue
        value = tile["kind"] if block["type"] == "kind" else tile["colour"]
        if value == block["what"]:
            out.append(block)
    return out


def forbidden_by_me(view: Mapping[str, Any], tile: Tile, seat: int | None) -> bool:
    if seat is None:
        return False
    for block in view.get("blocks") or []:
        value = tile["kind"] if block["type"] == "kind" else tile["colour"]
        if block["by"] == seat and value == block["what"]:
            return True
    return False


# -- the board ---------------------------------------------------------------------------------


@dataclass
class BoardMarks:
    """What the board should point out beyond the view: keys of the tiles the human may pick
    now, and the seat whose blocks are drawn as "forbidden to you"."""

    seat: int | None = None
    keys: dict[int, str] = field(default_factory=dict)  # tile id -> key
    recent: set[int] = field(default_factory=set)  # tile ids flipped lately


@dataclass
class BoardPicture:
    text: Text
    #: Per character cell: the place index of the tile drawn there, or -1.
    cells: list[list[int]]


class _Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]
        self.owner = [[-1] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: str, owner: int) -> None:
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width and 0 <= y < self.height:
                self.chars[y][x + i] = ch
                self.styles[y][x + i] = style
                self.owner[y][x + i] = owner

    def restyle(self, x: int, y: int, length: int, style: str) -> None:
        for i in range(length):
            if 0 <= x + i < self.width and 0 <= y < self.height:
                self.styles[y][x + i] = style

    def to_text(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        for y in range(self.height):
            if y:
                text.append("\n")
            run_start = 0
            row_chars, row_styles = self.chars[y], self.styles[y]
            for x in range(1, self.width + 1):
                if x == self.width or row_styles[x] != row_styles[run_start]:
                    text.append("".join(row_chars[run_start:x]), style=row_styles[run_start])
                    run_start = x
        return text


def _border(width: int, left: str, fill: str, right: str, start: str = "", end: str = "") -> str:
    inner = width - 2
    start = start[:inner]
    end = end[: max(0, inner - len(start))]
    return left + start + fill * (inner - len(start) - len(end)) + end + right


def _centred(width: int, side: str, text: str) -> str:
    inner = width - 2
    return side + text[:inner].center(inner) + side


def draw_board(
    view: Mapping[str, Any], marks: BoardMarks, half_w: int = 6, half_h: int = 2
) -> BoardPicture:
    """The pyramid seen from above. A square of the bottom layer is ``2 * half_w`` characters
    wide and ``2 * half_h`` lines high; upper layers sit half a square in."""
    board = view["board"]
    bottom = board["layers"][0]
    tile_w, tile_h = 2 * half_w, 2 * half_h
    canvas = _Canvas(bottom["cols"] * tile_w, bottom["rows"] * tile_h)
    by_layer = sorted(board["places"], key=lambda p: (p["layer"], p["place"]))
    for place in by_layer:
        x = round(place["left"] * tile_w)
        y = round(place["top"] * tile_h)
        layer_label = f"L{place['layer'] + 1}"
        owner = place["place"]
        state = place["state"]
        if state == "empty":
            if place["layer"] == 0:
                _draw_floor(canvas, x, y, tile_w, tile_h)
            continue
        if state == "face_down":
            style = f"{FACE_DOWN_FG} on {FACE_DOWN_BG[min(place['layer'], 3)]}"
            b = LIGHT
            canvas.put(x, y, _border(tile_w, b[0], b[1], b[2], layer_label), style, owner)
            for dy in range(1, tile_h - 1):
                canvas.put(x, y + dy, b[3] + "░" * (tile_w - 2) + b[3], style, owner)
            canvas.put(x, y + tile_h - 1, _border(tile_w, b[4], b[1], b[5]), style, owner)
            continue
        _draw_face_up(canvas, view, marks, place, x, y, tile_w, tile_h)
    return BoardPicture(canvas.to_text(), canvas.owner)


def _draw_floor(canvas: _Canvas, x: int, y: int, w: int, h: int) -> None:
    style = FLOOR_STYLE
    canvas.put(x, y, "·" + " " * (w - 2) + "·", style, -1)
    for dy in range(1, h - 1):
        canvas.put(x, y + dy, " " * w, style, -1)
    canvas.put(x, y + h - 1, "·" + " " * (w - 2) + "·", style, -1)


def _draw_face_up(
    canvas: _Canvas,
    view: Mapping[str, Any],
    marks: BoardMarks,
    place: Mapping[str, Any],
    x: int,
    y: int,
    w: int,
    h: int,
) -> None:
    tile = place["tile"]
    colour = str(tile["colour"])
    key = marks.keys.get(int(tile["id"]))
    blocked = bool(forbidden(view, tile, marks.seat))
    mine = forbidden_by_me(view, tile, marks.seat)
    owner = int(place["place"])
    b = HEAVY if key else LIGHT
    if blocked:
        # Forbidden to you: the colour moves to the text on a dark tile, crossed out.
        style = f"bold {TILE_BG.get(colour, '#808080')} on #262626"
    else:
        style = tile_style(colour, bold=key is not None)
    top = _border(w, b[0], b[1], b[2], f"L{place['layer'] + 1}", f"({key})" if key else "")
    canvas.put(x, y, top, style, owner)
    lines = [str(tile["kind"]), colour]
    for dy in range(1, h - 1):
        line = lines[dy - 1] if dy - 1 < len(lines) else ""
        canvas.put(x, y + dy, _centred(w, b[3], line), style, owner)
    if blocked:
        bottom_word = "✗forbid"
    elif mine:
        bottom_word = "✗others"
    elif int(tile["id"]) in marks.recent:
        bottom_word = "new"
    else:
        bottom_word = ""
    inner = w - 2
    word = bottom_word[:inner]
    pad = inner - len(word)
    bottom = b[4] + b[1] * (pad // 2) + word + b[1] * (pad - pad // 2) + b[5]
    canvas.put(x, y + h - 1, bottom, style, owner)
    if bottom_word.startswith("✗"):
        start = x + 1 + pad // 2
        canvas.restyle(start, y + h - 1, len(word), f"bold #ff5f5f on {_bg(style)}")


def face_up_list(view: Mapping[str, Any], marks: BoardMarks) -> RenderableType:
    """Every face-up tile of the cave in a few lines, by its place ("L3 r3 c1"), with the
    key that takes it and a cross when it is forbidden to you: on a small terminal the
    drawing of the cave does not fit, and a tile out of sight was a tile never considered."""
    up = sorted(
        (p for p in view["board"]["places"] if p["state"] == "face_up"),
        key=lambda p: (p["top"], p["left"]),  # as the options are listed
    )
    head = Text("Face up:", style="bold")
    if not up:
        return Flow([Text("none", style="dim")], head=head)
    items: list[Text] = []
    for place in up:
        tile = place["tile"]
        key = marks.keys.get(int(tile["id"]))
        item = Text()
        if key is not None:
            item.append(f"({key})", style="bold")
        label = f"{place['label']} {tile['name']}"
        if forbidden(view, tile, marks.seat):
            colour = str(tile["colour"])
            style = f"bold {TILE_BG.get(colour, '#808080')} on #262626"
            item.append_text(Text(f" {label} ✗ ", style=style, no_wrap=True))
        else:
            item.append_text(chip(tile, label))
        items.append(item)
    return Flow(items, sep=" ", indent=0, head=head)


def _bg(style: str) -> str:
    return style.rsplit(" on ", 1)[-1] if " on " in style else "default"


def aside_row(view: Mapping[str, Any], keys: Mapping[int, str]) -> RenderableType | None:
    """The Aladdin's lamp variant's set-aside tiles, with keys when a swap is offered."""
    aside = view.get("aside") or []
    if not aside:
        return None
    chips = [
        chip(tile, f"({keys[int(tile['id'])]}) {tile['name']}" if int(tile["id"]) in keys else None)
        for tile in aside
    ]
    return Group(
        Text("Set aside next to the cave (Aladdin's lamp):", style="bold"),
        Columns(chips, padding=(0, 1)),
    )


# -- the cave's counters, blocks and the end -----------------------------------------------


def turns_left(view: Mapping[str, Any]) -> int | None:
    """Turns still to play, this one included, once the last face-down tile is up."""
    last = view.get("last_turn")
    if last is None:
        return None
    return max(0, int(last) - int(view["turn"]) + 1)


def countdown_text(view: Mapping[str, Any], name: Namer) -> Text | None:
    left = turns_left(view)
    if left is None or view.get("is_over"):
        return None
    n = len(view["players"])
    last = int(view["last_turn"])
    text = Text(
        f"Final round: the game ends after turn {last} "
        f"({plural(left, 'turn')} left, this one included).",
        style="bold red",
    )
    seat = view.get("seat")
    if seat is not None:
        mine = [t for t in range(int(view["turn"]), last + 1) if (t - 1) % n == seat]
        if mine:
            text.append(
                " This is your last turn!"
                if mine == [int(view["turn"])] and view.get("current") == seat
                else f" Your last turn: turn {mine[-1]}.",
                style="bold red",
            )
        else:
            text.append(" You have no turn left.", style="bold red")
    return text


def cave_info(view: Mapping[str, Any], name: Namer) -> Group:
    seat = view.get("seat")
    lines: list[RenderableType] = []
    counts = Text()
    counts.append(f"Face down: {view['face_down']}", style="bold")
    counts.append(f" · face up: {len(face_up_tiles(view))}")
    counts.append(f" · in the box (unseen): {view['in_box']}")
    removed = view.get("removed_kinds") or []
    if removed:
        counts.append(f" · out of the game: {and_list([plural_word(k) for k in removed])}")
    lines.append(counts)
    blocks = view.get("blocks") or []
    if blocks:
        text = Text("Forbidden (white): ", style="bold")
        parts = []
        for block in blocks:
            what = forbid_words(str(block["what"]), str(block["type"]))
            by = name(block["by"])
            if block["by"] == seat:
                parts.append(Text(f"{what} to the others (yours)", style="bold"))
            else:
                parts.append(Text(f"{what} by {by}", style="bold #ff5f5f"))
        for i, part in enumerate(parts):
            if i:
                text.append(" · ")
            text.append_text(part)
        lines.append(text)
    countdown = countdown_text(view, name)
    if countdown is not None:
        lines.append(countdown)
    return Group(*lines)


LEGEND = "(key): take it now · ✗forbid: forbidden to you (white effect)"


# -- screens behind which the tiles go ---------------------------------------------------------


def _groups(tiles: Sequence[Tile]) -> list[tuple[str, list[Tile]]]:
    by_kind: dict[str, list[Tile]] = {}
    for tile in tiles:
        by_kind.setdefault(str(tile["kind"]), []).append(tile)
    return sorted(by_kind.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def track_text(player: Mapping[str, Any]) -> str:
    parts = [f"{k} {v}" for k, v in (player.get("track_breakdown") or {}).items() if v]
    return f"{player.get('track', 0)}" + (f" ({', '.join(parts)})" if parts else "")


#: How many letters of a colour's name stand for it when the names do not fit.
SHORT_COLOUR = 2


def _screen_table(tiles: Sequence[Tile], short: bool) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column("kind", style="bold", no_wrap=True)
    table.add_column("n", justify="right", no_wrap=True)
    table.add_column("tiles", no_wrap=True)
    table.add_column("points", justify="right", no_wrap=True)
    table.add_column("next", style="dim", no_wrap=True)
    for kind, group in _groups(tiles):
        n = len(group)
        chips = Text()
        for tile in group:
            colour = str(tile["colour"])
            chips.append_text(chip(tile, colour[:SHORT_COLOUR] if short else colour))
        more = f"next +{set_points(n + 1) - set_points(n)}" if n < 6 else "complete"
        table.add_row(kind, f"×{n}", chips, plural(set_points(n), "pt"), more)
    return table


def colour_legend(tiles: Iterable[Tile]) -> Text:
    """What the short colour names stand for (those of ``tiles``, in the game's order)."""
    held = {str(t["colour"]) for t in tiles}
    names = [c for c in colour_points() if c in held] + sorted(held - set(colour_points()))
    text = Text()
    for i, colour in enumerate(names):
        if i:
            text.append("  ")
        text.append_text(chip({"colour": colour}, colour[:SHORT_COLOUR]))
        text.append(f" {colour}", style="dim")
    return text


def my_screen(view: Mapping[str, Any]) -> RenderableType:
    """The human's own tiles by kind, with the set points each group would score now: the
    colours spelt out when they fit, else in two letters with a legend."""
    seat = view.get("seat")
    if seat is None:
        return Text("You are watching the bots play.", style="dim")
    me = view["players"][seat]
    tiles = me.get("tiles") or []
    if not tiles:
        body: RenderableType = Text("No tile yet.", style="dim")
    else:
        body = FirstFit(
            Rigid(_screen_table(tiles, short=False)),
            Group(Rigid(_screen_table(tiles, short=True)), colour_legend(tiles)),
        )
    sets = sets_total(tiles)
    track = int(me.get("track", 0))
    total = Text()
    total.append(f"Sets {sets}", style="bold")
    total.append(f" + score track {track_text(me)}")
    total.append(f" = {sets + track} now", style="bold")
    return Group(body, total)


def players_table(view: Mapping[str, Any], name: Namer) -> Group:
    """Every player: tiles, score track, set points and the total now; then, for each
    opponent, the tiles behind their screen by kind and where their track points came from.
    Every collected tile was seen face up when taken (ruling R1)."""
    seat = view.get("seat")
    table = Table(show_edge=False, pad_edge=False, header_style="bold", box=None)
    table.add_column("Player", no_wrap=True)
    table.add_column("Tiles", justify="right")
    table.add_column("Track", justify="right")
    table.add_column("Sets", justify="right")
    table.add_column("Now", justify="right")
    current = view.get("current")
    details: list[RenderableType] = []
    for player in view["players"]:
        p = int(player["seat"])
        tiles = player.get("tiles") or []
        who = Text(name(p), style="bold cyan" if p == seat else "bold")
        if p == current and not view.get("is_over"):
            who.append(" ◀", style="bold yellow")
        sets = sets_total(tiles)
        table.add_row(
            who,
            str(player.get("count", len(tiles))),
            str(player.get("track", 0)),
            str(sets),
            Text(str(sets + int(player.get("track", 0))), style="bold"),
        )
        if p == seat:
            continue
        items: list[Text] = []
        for kind, group in _groups(tiles):
            n = len(group)
            item = Text(kind + (f" ×{n}" if n > 1 else ""))
            if n > 1:
                item.append(f"={set_points(n)}", style="dim")
            items.append(item)
        if not tiles:
            items.append(Text("no tile yet", style="dim"))
        parts = [f"{k} {v}" for k, v in (player.get("track_breakdown") or {}).items() if v]
        if parts:
            items.append(Text(f"(track: {', '.join(parts)})", style="dim"))
        details.append(Flow(items, head=Text(f"{name(p)}:", style="bold")))
    if details:
        details.append(
            Text("kind ×tiles=set points · track: points the colours scored", style="dim")
        )
    return Group(table, *details)


# -- options in words ----------------------------------------------------------------------------


def _find_tile(view: Mapping[str, Any], tile_name: str) -> Tile | None:
    pools: list[Iterable[Tile]] = [face_up_tiles(view), view.get("aside") or []]
    pools.extend(p.get("tiles") or [] for p in view["players"])
    shown = view.get("shown") or {}
    pools.append(shown.values())
    for pool in pools:
        for tile in pool:
            if tile.get("name") == tile_name:
                return tile
    return None


def _mine(view: Mapping[str, Any]) -> list[Tile]:
    seat = view.get("seat")
    return list(view["players"][seat]["tiles"]) if seat is not None else []


def _gain(view: Mapping[str, Any], tile: Tile) -> str:
    n = kind_counts(_mine(view))[str(tile["kind"])]
    kinds = plural_word(str(tile["kind"]))
    return f"{kinds} {n}→{n + 1} (+{set_points(n + 1) - set_points(n)})"


def _lamp_place(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """Where this turn's tile was taken from (the reference for a swapped-in effect, R8)."""
    label = (view.get("this_turn") or {}).get("place")
    for place in view["board"]["places"]:
        if place["label"] == label:
            return dict(place)
    return None


def effect_preview(view: Mapping[str, Any], tile: Tile, place: Mapping[str, Any] | None) -> str:
    """What the tile's effect would do if taken now (points worked out where they can be)."""
    colour, effect = str(tile["colour"]), str(tile["effect"])
    points = colour_points().get(colour, 0)
    if effect == "score":
        return f"{colour}: +{points}"
    if effect == "flipped" and place is not None:
        flips = uncovered_by(view, place)
        squares = flips + (1 if place["layer"] == 0 else 0)
        why = "a bare square" if place["layer"] == 0 else f"uncovers {flips or 'nothing'}"
        return f"{colour}: +{points * squares} ({why})"
    if effect == "same_kind":
        n = kind_counts(_mine(view))[str(tile["kind"])] + 1
        return f"{colour}: +{points * n} ({plural(n, str(tile['kind']))})"
    return f"{colour}: {effect_words(colour, effect, short=True)}"


def _preview_this_turn(view: Mapping[str, Any], tile: Tile, kind_n: int) -> str:
    """The effect of ``tile`` used this turn, the taken tile being off the board already
    (a kept or swapped lamp): blue counts this turn's flips, brown ``kind_n`` tiles."""
    colour, effect = str(tile["colour"]), str(tile["effect"])
    points = colour_points().get(colour, 0)
    if effect == "flipped":
        place = _lamp_place(view)
        flips = int((view.get("this_turn") or {}).get("flipped", 0))
        bare = place is not None and place["layer"] == 0
        why = "a bare square" if bare else f"{flips or 'nothing'} uncovered"
        return f"{colour}: +{points * (flips + (1 if bare else 0))} ({why})"
    if effect == "same_kind":
        return f"{colour}: +{points * kind_n} ({plural(kind_n, str(tile['kind']))})"
    return f"{colour}: {effect_words(colour, effect, short=True)}"


def lamp_cost(view: Mapping[str, Any]) -> str:
    """What swapping this turn's lamp away costs in set points."""
    lamp = (view.get("this_turn") or {}).get("taken") or {}
    if not lamp:
        return ""
    m = kind_counts(_mine(view))[str(lamp["kind"])]
    return (
        f"Swapping gives the lamp up: your {plural_word(str(lamp['kind']))} {m}→{m - 1} "
        f"(−{set_points(m) - set_points(m - 1)})."
    )


def option_note(text: str, view: Mapping[str, Any]) -> str:
    """What an option's label (the core's) does not say: what it would score, the set it
    adds to, how many tiles it concerns ("" when the label says it all)."""
    seat = view.get("seat")
    if text == "keep lamp":
        lamp = (view.get("this_turn") or {}).get("taken") or {}
        if not lamp:
            return ""
        return _preview_this_turn(view, lamp, kind_counts(_mine(view))[str(lamp["kind"])])
    verb, _, rest = text.partition(" ")
    if verb == "forbid":
        face_up = face_up_tiles(view)
        is_colour = rest in colour_points()
        n = sum(1 for t in face_up if (t["colour"] if is_colour else t["kind"]) == rest)
        return f"{n} face up now"
    for prefix in ("also take ", "take ", "swap for ", "show ", "steal "):
        if not text.startswith(prefix):
            continue
        tile = _find_tile(view, text[len(prefix) :])
        if tile is None:
            return ""
        if prefix == "take ":
            place = place_of_tile(view, int(tile["id"]))
            extra = ""
            if view.get("variant") == "aladdins-lamp" and tile["kind"] == "lamp":
                extra = " · or swap the lamp"
            return f"{effect_preview(view, tile, place)} · {_gain(view, tile)}{extra}"
        if prefix == "also take ":
            place = place_of_tile(view, int(tile["id"]))
            flips = uncovered_by(view, place) if place else 0
            return _gain(view, tile) + (f" · uncovers {flips}" if flips else "")
        if prefix == "swap for ":
            # What giving up the lamp costs is the same for every swap: the panel says it.
            lamp = (view.get("this_turn") or {}).get("taken") or {}
            counts = kind_counts(_mine(view))
            kind = str(tile["kind"])
            if lamp and kind != lamp.get("kind"):
                n = counts[kind] + 1
                change = _gain(view, tile)
            else:
                n = counts[kind]
                change = "a lamp for a lamp"
            return f"{_preview_this_turn(view, tile, n)} · {change}"
        if prefix == "show ":
            n = kind_counts(_mine(view))[str(tile["kind"])]
            return (
                f"your {plural_word(str(tile['kind']))}: {n}; "
                f"−{set_points(n) - set_points(n - 1)} if taken"
            )
        shown = view.get("shown") or {}
        owner = next((int(p) for p, t in shown.items() if t["id"] == tile["id"]), None)
        return "your own: you keep it" if owner == seat else _gain(view, tile)
    return ""


# -- the game's end ------------------------------------------------------------------------------


def tie_break_note(view: Mapping[str, Any], name: Namer) -> str:
    """Says when the tie-break (fewer tiles) decided a ranking, or left a shared place."""
    scores = view.get("scores")
    ranking = view.get("ranking")
    if not scores or not ranking:
        return ""
    totals = [int(s["total"]) for s in scores]
    counts = [int(p["count"]) for p in view["players"]]
    notes = []
    for total in sorted(set(totals), reverse=True):
        tied = [p for p, t in enumerate(totals) if t == total]
        if len(tied) < 2:
            continue
        tied.sort(key=lambda p: (ranking[p], p))
        who = and_list([name(p) for p in tied])
        if len({ranking[p] for p in tied}) == 1:
            notes.append(
                f"{who} tied on {total} points and {plural(counts[tied[0]], 'tile')}: "
                "they share the place."
            )
            continue
        order = ", ".join(f"{name(p)} {plural(counts[p], 'tile')}" for p in tied)
        notes.append(
            f"{who} tied on {total} points; fewer tiles wins the tie ({order}): "
            f"{name(tied[0])} ranks ahead."
        )
    return " ".join(notes)
