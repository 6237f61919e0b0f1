"""Djinn panels drawn from one seat's JSON view (``state.view(seat)``), never from the state.

Every function here takes the view (and a ``Namer`` for seats) and returns a Rich renderable:
the status line, the map (13 spaces: what each holds and where its paths lead), your board,
the table (one column per player), the displays (Tavern, Manufactory, Catacombs, Market),
the trophies and scoring cards, and Tom in a solo game. Component texts that the view gives
by id only (Tom's cards, chests, a character's start reward) come from the game's public
data (``state.public_data()``), which every seat may read; nothing here works out a rule.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from arabesque.games.djinn import words
from arabesque.games.djinn.components import REWARD_KINDS, Components
from arabesque.tui.decision_panel import FirstFit, Flow, Rigid
from arabesque.tui.djinn.events import DJINN_STYLES, and_list, plural, seat_style

Namer = Callable[[int | None], str]
View = Mapping[str, Any]

#: Measures a layout's natural width once, off screen.
_MEASURE = Console(width=10_000, file=io.StringIO())


class Fitted(FirstFit):
    """``FirstFit`` of a wide layout and a narrow one, the wide one's width measured once
    when built: the screen lays out many times per move, and measuring a table each time
    made every key press slow."""

    def __init__(
        self, wide: RenderableType, narrow: RenderableType, need: int | None = None
    ) -> None:
        """``need``: the width the wide layout needs, when it may wrap (its last column)."""
        super().__init__(wide if need is not None else Rigid(wide), narrow)
        self.need = need or Measurement.get(_MEASURE, _MEASURE.options, wide).maximum

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        return self.layouts[0] if self.need <= options.max_width else self.layouts[-1]


SHAPE_GLYPH = {"source": "✦", "square": "■", "round": "●"}
ROMAN = ("I", "II", "III", "IV", "V")
CIRCLE_WORDS = {"inactive": "off", "covered": "covered", "empty": "empty"}

BREAKDOWN_WORDS: dict[str, str] = {
    "trophies": "trophies",
    "bottled": "bottled Djinn",
    "circles": "Djinn in circles",
    "unused": "unused bottles/corks",
    "scoring_cards": "scoring cards",
}

#: The same, as column headers (a header wraps at its first space).
SHORT_BREAKDOWN_WORDS: dict[str, str] = {
    "circles": "circle Djinn",
    "unused": "unused supplies",
}

# -- small words ---------------------------------------------------------------------------------


def reward_words(reward: Mapping[str, int]) -> str:
    """A reward as the view writes one, in the engine's words ("2 coins, 1 scroll")."""
    return words.reward_words(reward)


def comp_reward(pairs: Iterable[tuple[int, int]]) -> dict[str, int]:
    """A component's reward (kind index, amount pairs) as the view writes one."""
    return {REWARD_KINDS[k]: a for k, a in pairs}


def djinn_text(djinn: Mapping[str, int], empty: str = "") -> Text:
    """Djinn by colour, coloured: "boss yellow×2 red" (the boss first)."""
    text = Text()
    order = ["boss", *(k for k in djinn if k != "boss")]
    for kind in order:
        n = int(djinn.get(kind, 0))
        if not n:
            continue
        if text.plain:
            text.append(" ")
        text.append(f" {kind} " if kind == "boss" else kind, style=DJINN_STYLES.get(kind, ""))
        if n > 1:
            text.append(f"×{n}")
    if not text.plain and empty:
        text.append(empty, style="dim")
    return text


def who(name: Namer, seat: int, suffix: str = "") -> Text:
    return Text(name(seat) + suffix, style=seat_style(seat))


def mage_card_text(card: Mapping[str, Any], with_state: bool = False) -> Text:
    """ "card 11: power 3, cost 3, red +1" (dim and marked "used" when inactive)."""
    active = bool(card.get("active", True))
    style = "" if active or not with_state else "dim"
    text = Text(f"card {card['id']}", style="bold" if active else style)
    if card.get("key"):
        text.append(" (key)", style=style)
    text.append(f": power {card['power']}, cost {card['cost']}", style=style)
    for colour, bonus in (card.get("bonus") or {}).items():
        text.append(", ")
        text.append(colour, style=DJINN_STYLES.get(colour, "") if active else style)
        text.append(f" +{bonus}", style=style)
    if with_state and not active:
        text.append(" · used", style="dim italic")
    return text


def equipment_words(card: Mapping[str, Any]) -> str:
    """What the card does: the view's words for it."""
    return str(card.get("text") or card.get("effect", "")).replace("_", " ")


def equipment_text(card: Mapping[str, Any], with_state: bool = False) -> Text:
    up = bool(card.get("face_up", True))
    text = Text(f"{card['type']} {card['id']}", style="bold" if up else "dim")
    text.append(f": {equipment_words(card)}", style="" if up else "dim")
    if with_state and not up:
        text.append(" · face down", style="dim italic")
    return text


def character_words(tile: Mapping[str, Any], comp: Components | None = None) -> str:
    """What the tile does: the view's words for it (or the engine's, from its id)."""
    if tile.get("text"):
        return str(tile["text"])
    if comp is not None and 0 <= int(tile.get("id", -1)) < len(comp.characters):
        return words.character_words(comp, comp.characters[int(tile["id"])])
    return str(tile.get("effect", "")).replace("_", " ")


def character_text(tile: Mapping[str, Any], comp: Components | None = None) -> Text:
    positive = bool(tile.get("positive"))
    text = Text("+ " if positive else "− ", style="bold green" if positive else "bold red")
    text.append(str(tile["name"]), style="bold")
    text.append(f" ({character_words(tile, comp)})", style="dim")
    return text


def space_name(view: View, space_id: str | None) -> str:
    """ "academy (s1)", "the Magic Source"."""
    if space_id is None:
        return "off the map"
    for space in view["spaces"]:
        if space["id"] == space_id:
            if space["shape"] == "source":
                return "the Magic Source"
            return f"{space['location']} ({space_id})"
    return str(space_id)


def bottles_text(bottles: Mapping[str, Mapping[str, int]], short: bool = False) -> Text:
    """Filled bottles by colour (corked, with their bosses), then the empty ones."""
    text = Text()
    for colour, b in bottles.items():
        filled = int(b.get("djinn", 0)) + int(b.get("bosses", 0))
        if not filled:
            continue
        if text.plain:
            text.append(", ")
        text.append(colour, style=DJINN_STYLES.get(colour, ""))
        text.append(f" ×{filled}")
        if b.get("bosses"):
            text.append(f" ({b['bosses']} boss{'es' if b['bosses'] > 1 else ''})", style="dim")
    empty = [(c, int(b.get("empty", 0))) for c, b in bottles.items() if b.get("empty")]
    if empty:
        if text.plain:
            text.append("; ")
        text.append("empty " if short else "empty: ", style="dim")
        for i, (colour, n) in enumerate(empty):
            if i:
                text.append(", ")
            text.append(colour, style=DJINN_STYLES.get(colour, ""))
            if n > 1:
                text.append(f" ×{n}")
    if not text.plain:
        text.append("none", style="dim")
    return text


def circles_text(circles: Sequence[str]) -> Text:
    text = Text()
    for i, circle in enumerate(circles):
        if i:
            text.append(" · ")
        if circle in CIRCLE_WORDS:
            text.append(CIRCLE_WORDS[circle], style="dim" if circle != "empty" else "")
        else:
            text.append(circle, style=DJINN_STYLES.get(circle, ""))
    return text


def magic_scale(player: Mapping[str, Any]) -> Text:
    """The magic scale 0..8: ● the magic you have, ○ what you may still gain (up to the
    maximum, left of the capacity marker), · beyond; B marks the base."""
    magic, top, base = int(player["magic"]), int(player["max_magic"]), int(player["base"])
    text = Text("Magic ", style="bold")
    text.append(str(magic), style="bold magenta")
    text.append(f" of {top}  ")
    for v in range(9):
        if v == base:
            text.append("B", style="bold cyan")
        elif v <= magic and v > 0:
            text.append("●", style="magenta")
        elif v <= top and v > 0:
            text.append("○", style="magenta")
        else:
            text.append("·", style="dim")
    text.append(f"  base {base} · capacity {player['capacity']}")
    if player.get("capacity_flipped"):
        text.append(" (flipped: at most 8)", style="dim")
    return text


# -- the status line -----------------------------------------------------------------------------


def status_text(view: View, name: Namer, watching: bool = False) -> Text:
    text = Text("Djinn", style="bold")
    if view.get("tom") is not None:
        text.append(" (solo)")
    text.append(f"  ·  round {view['round']}")
    bosses = int(view.get("bosses_on_board", 0))
    text.append(f"  ·  {plural(bosses, 'boss')} on the map")
    tom = view.get("tom")
    if tom is not None:
        text.append(f"  ·  Tom: {plural(int(tom['cards_left']), 'card')} left")
    stage = str(view.get("stage", "playing"))
    if view.get("is_over"):
        text.append("  ·  GAME OVER", style="bold red")
    else:
        if stage != "playing":
            text.append(f"  ·  {stage}", style="bold red")
        for seat in view.get("to_act") or []:
            text.append("  ·  ")
            text.append(f"{name(seat)} to play", style=seat_style(int(seat)))
    if watching:
        text.append("  ·  watching bots", style="dim")
    return text


# -- the map -------------------------------------------------------------------------------------


def _here(view: View, space: Mapping[str, Any], name: Namer) -> list[Text]:
    """Who is on a space (and where they came from), and the passages at a square."""
    items: list[Text] = []
    players = view["players"]
    for seat in space.get("mages") or []:
        mage = who(name, int(seat))
        came = players[int(seat)].get("came_from")
        if came:
            mage.append(f" (from {came})", style="dim")
        items.append(mage)
    for passage in space.get("passages") or []:
        item = Text("passage ", style="dim")
        item.append(str(passage["location"]), style=seat_style(int(passage["seat"])))
        items.append(item)
    return items


Row = tuple[Text, Text, Text, Text, Text, Text]


def map_rows(view: View, name: Namer, keys: Mapping[str, str]) -> list[Row]:
    """Per space: key, space, location, paths, Djinn, mages and passages."""
    rows: list[Row] = []
    for space in view["spaces"]:
        sid = str(space["id"])
        shape = str(space["shape"])
        key = Text(keys.get(sid, ""), style="bold reverse" if sid in keys else "")
        label = Text(f"{SHAPE_GLYPH.get(shape, '?')} {sid}", style="bold")
        where = Text(
            "the Source" if shape == "source" else str(space["location"]),
            style="bold" if shape != "square" else "",
        )
        paths = Text(" ".join(str(p) for p in space["paths"]), style="dim")
        djinn = djinn_text(space.get("djinn") or {}, "—" if shape == "round" else "")
        here = Text("\n").join(_here(view, space, name))  # a line each: "(from r4)" whole
        rows.append((key, label, where, paths, djinn, here))
    return rows


#: The least width of the map's last column (who is there) in its wide layout.
HERE_WIDTH = 11


def map_panel(view: View, name: Namer, keys: Mapping[str, str] | None = None) -> RenderableType:
    """The 13 spaces, one a line: wide, a table; narrow, the paths and Djinn on a second
    line. ``keys`` marks the spaces an option moves to with the option's key."""
    rows = map_rows(view, name, keys or {})
    wide = Table.grid(padding=(0, 1))
    for _ in range(5):
        wide.add_column(no_wrap=True)
    wide.add_column()
    head = ("", "space", "location", "paths to", "Djinn", "here")
    head_texts = tuple(Text(h, style="dim underline") for h in head)
    wide.add_row(*head_texts)
    for row in rows:
        wide.add_row(*row)
    narrow = Table.grid(padding=(0, 1))
    narrow.add_column(no_wrap=True)
    narrow.add_column(no_wrap=True)
    narrow.add_column()
    for key, label, where, paths, djinn, here in rows:
        first = Text.assemble(where, "  ", djinn) if djinn.plain else where
        narrow.add_row(key, label, first)
        second = Text.assemble(Text("→ ", style="dim"), paths)
        if here.plain:
            second.append("  ")
            second.append_text(Text(" · ").join(here.split("\n")))
        narrow.add_row("", "", second)
    legend = Text(
        "■ square: basic action · ● round: special action, then catch · "
        "✦ the Source · you may not go back the way you came",
        style="dim",
    )
    # The wide table fits when its fixed columns do and the last one ("here", which wraps
    # between words) keeps room for a name and where it came from.
    fixed = [max(row[i].cell_len for row in [head_texts, *rows]) for i in range(5)]
    need = sum(fixed) + 5 + HERE_WIDTH
    return Group(Fitted(wide, narrow, need), legend)


# -- your board ------------------------------------------------------------------------------------


def _line(head: str, body: RenderableType) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=11, no_wrap=True, style="bold")
    grid.add_column(ratio=1)
    grid.add_row(head, body)
    return grid


def my_board(view: View, seat: int, name: Namer, comp: Components | None = None) -> RenderableType:
    """The seat's player board in full."""
    p = view["players"][seat]
    parts: list[RenderableType] = [magic_scale(p)]
    res = Text()
    for i, (n, word) in enumerate(
        ((p["coins"], "coin"), (p["scrolls"], "scroll"), (p["keys"], "key"), (p["corks"], "cork"))
    ):
        if i:
            res.append(" · ", style="dim")
        res.append(plural(int(n), word), style="bold" if n else "dim")
    res.append(f"  (Source row 2: {plural(int(p['scroll_price']), 'scroll')})", style="dim")
    parts.append(res)
    parts.append(_line("Where", Text(_position_words(view, p))))
    parts.append(_line("Circles", circles_text(p["circles"])))
    parts.append(_line("Bottles", bottles_text(p["bottles"])))
    cards = [mage_card_text(c, with_state=True) for c in p["mage_cards"]]
    parts.append(_line("Mage cards", Flow(cards, indent=0) if cards else Text("none", "dim")))
    equipment = [equipment_text(c, with_state=True) for c in p["equipment"]]
    if p.get("set_bonus"):
        equipment.append(Text("set bonus taken", style="green"))
    parts.append(
        _line("Equipment", Flow(equipment, indent=0) if equipment else Text("none", "dim"))
    )
    placed = sum(
        1 for s in view["spaces"] for passage in s.get("passages") or [] if passage["seat"] == seat
    )
    passages = Text(f"{placed} placed")
    if p["passages_left"]:
        passages.append(f"; to place: {', '.join(p['passages_left'])}", style="dim")
    if p.get("archives_improved"):
        passages.append(" · Archives improved", style="green")
    parts.append(_line("Passages", passages))
    if p.get("assistant_tent") is not None:
        parts.append(_line("Assistant", Text(f"Market tent {p['assistant_tent']}")))
    if p["trophies"]:
        trophies = [
            Text(f"row {ROMAN[int(t['row']) - 1]}: {t['points']} points") for t in p["trophies"]
        ]
        parts.append(_line("Trophies", Flow(trophies, indent=0)))
    if p["characters"]:
        parts.append(
            _line("Characters", Group(*(character_text(c, comp) for c in p["characters"])))
        )
    parts.append(_line("Points now", score_text(view, seat)))
    return Group(*parts)


def _position_words(view: View, player: Mapping[str, Any]) -> str:
    if player.get("position") is None:
        return "not on the map yet"
    out = space_name(view, player["position"])
    if player.get("came_from"):
        out += f", came from {player['came_from']}"
    return out


def score_text(view: View, seat: int) -> Text:
    score = view["scores"][seat]
    text = Text(str(score["total"]), style="bold")
    parts = [
        f"{BREAKDOWN_WORDS.get(k, k.replace('_', ' '))} {v}"
        for k, v in score["breakdown"].items()
        if v
    ]
    if parts:
        text.append(f" ({', '.join(parts)})", style="dim")
    return text


# -- the table: one column per player ---------------------------------------------------------


def players_table(view: View, name: Namer, comp: Components | None = None) -> RenderableType:
    """Every player's public board, compactly: a row per thing, a column per player."""
    seat = view.get("seat")
    current = view.get("current")
    players = view["players"]
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1), header_style="bold")
    table.add_column("", style="bold", no_wrap=True)
    for p in players:
        q = int(p["seat"])
        head = who(name, q)
        if q == current and not view.get("is_over"):
            head.append(" ◀", style="bold yellow")
        table.add_column(head, ratio=1)

    def row(label: str, cells: Iterable[RenderableType]) -> None:
        table.add_row(label, *cells)

    row("Points", (Text(str(view["scores"][p["seat"]]["total"]), style="bold") for p in players))
    row("Where", (Text(str(p["position"] or "—")) for p in players))
    row("Magic", (Text(f"{p['magic']} of {p['max_magic']}") for p in players))
    row(
        "Base/capac.",
        (Text(f"{p['base']} / {p['capacity']}") for p in players),
    )
    row("Coins", (Text(str(p["coins"])) for p in players))
    row("Scrolls", (Text(str(p["scrolls"])) for p in players))
    row("Keys", (Text(str(p["keys"])) for p in players))
    row("Corks", (Text(str(p["corks"])) for p in players))
    row("Circles", (circles_text(p["circles"]) for p in players))
    row("Bottles", (bottles_text(p["bottles"], short=True) for p in players))
    row(
        "Mage cards",
        (
            Text(
                f"{len(p['mage_cards'])}"
                + (
                    f" ({sum(1 for c in p['mage_cards'] if c['active'])} active)"
                    if p["mage_cards"]
                    else ""
                )
            )
            for p in players
        ),
    )
    row(
        "Equipment",
        (Text(", ".join(str(e["type"]) for e in p["equipment"]) or "—") for p in players),
    )
    row(
        "Trophies",
        (
            Text(
                f"{len(p['trophies'])}"
                + (
                    f" ({sum(int(t['points']) for t in p['trophies'])} pts)"
                    if p["trophies"]
                    else ""
                )
            )
            for p in players
        ),
    )
    row(
        "Assistant",
        (
            Text("—" if p["assistant_tent"] is None else f"tent {p['assistant_tent']}")
            for p in players
        ),
    )
    if any(p["characters"] for p in players):
        row(
            "Characters",
            (
                Text("\n").join(
                    Text(("+ " if c["positive"] else "− ") + str(c["name"]))
                    for c in p["characters"]
                )
                for p in players
            ),
        )
    parts: list[RenderableType] = [table]
    others = [p for p in players if p["seat"] != seat]
    # The cards themselves, for the other players: what they may bring to a catch.
    for p in others:
        cards = [mage_card_text(c, with_state=True) for c in p["mage_cards"]]
        cards += [equipment_text(c, with_state=True) for c in p["equipment"]]
        if cards:
            parts.append(Flow(cards, head=Text(f"{name(int(p['seat']))}:", style="bold")))
    return Group(*parts)


# -- the displays --------------------------------------------------------------------------------


def shops_panel(view: View, comp: Components | None = None) -> RenderableType:
    """The Tavern's piles, the Manufactory's stacks and the Catacombs."""
    parts: list[RenderableType] = [Text("Tavern", style="bold underline")]
    for i, pile in enumerate(view["tavern"]):
        head = Text(f"pile {i + 1}", style="bold")
        if pile.get("key"):
            head.append("*", style="yellow")
        head.append(":", style="bold")
        if pile["top"] is None:
            parts.append(Flow([Text("empty", style="dim")], head=head))
        else:
            items = [mage_card_text(pile["top"]), Text(f"{pile['size']} in the pile", "dim")]
            parts.append(Flow(items, head=head, indent=4))
    parts.append(Text("* piles 3-4 only with the special (round) Tavern action", style="dim"))
    parts.append(Text("Manufactory", style="bold underline"))
    for stack in view["manufactory"]:
        if stack["top"] is None:
            parts.append(Text(f"{stack['type']}: none left", style="dim"))
        else:
            items = [equipment_text(stack["top"]), Text(f"{stack['size']} left", "dim")]
            parts.append(Flow(items, indent=4))
    cat = view["catacombs"]
    line = Text("Catacombs", style="bold underline")
    line.append(f"  {plural(int(cat['deck']), 'chest')} face down", style="")
    parts.append(line)
    discard = list(cat.get("discard") or [])
    if discard:
        if comp is not None:
            opened = [
                Text(f"{c}: {reward_words(comp_reward(comp.chests[int(c)].reward))}")
                for c in discard[-6:]
            ]
            head = Text("opened lately:" if len(discard) > 6 else "opened:", style="dim")
            parts.append(Flow(opened, head=head))
        else:
            parts.append(Text("opened: " + ", ".join(str(c) for c in discard), style="dim"))
    return Group(*parts)


def market_panel(view: View, name: Namer) -> RenderableType:
    """The Market's tents (places), what each sells, and whose assistant stands there."""
    market = view["market"]
    offers = {int(o["offer"]): o for o in market["offers"]}
    parts: list[RenderableType] = []
    for place in market["places"]:
        number = int(place["place"])
        items = []
        for o in place["offers"]:
            offer = offers[int(o)]
            price = (
                plural(int(offer["coins"]), "coin")
                if offer["coins"]
                else plural(int(offer["scrolls"]), "scroll")
            )
            items.append(Text(f"{price} → {reward_words(offer['reward'])}"))
        here = [
            who(name, int(p["seat"])) for p in view["players"] if p.get("assistant_tent") == number
        ]
        if here:
            items.append(Text.assemble(Text("here: ", style="dim"), Text(", ").join(here)))
        parts.append(Flow(items, head=Text(f"tent {number}:", style="bold"), indent=4))
    return Group(*parts)


def trophies_panel(view: View, name: Namer) -> RenderableType:
    """The trophy rows still on display, the scoring cards, the draft and the bag."""
    parts: list[RenderableType] = []
    for r, row in enumerate(view["trophies"]):
        items = [
            Text(f"{t['points']} points")
            + (Text(f" + {reward_words(t['reward'])}") if t["reward"] else Text())
            for t in row
        ] or [Text("none left", style="dim")]
        parts.append(Flow(items, head=Text(f"row {ROMAN[r]}:", style="bold"), indent=4))
    parts.append(
        Text(
            "claim one with 3 Djinn in bottles of one colour: row I first, then II, then III",
            style="dim",
        )
    )
    if view.get("scoring_cards"):
        cards = [Text(str(c["name"])) for c in view["scoring_cards"]]
        parts.append(Flow(cards, head=Text("Scoring cards:", style="bold")))
    draft = view.get("draft")
    if draft:
        tiles = [Text("+ " + str(c["name"]), style="green") for c in draft["positive"]]
        tiles += [Text("− " + str(c["name"]), style="red") for c in draft["negative"]]
        parts.append(Flow(tiles, head=Text("Characters left:", style="bold")))
    bag = view.get("bag") or {}
    line = Text("Bag: ", style="bold")
    line.append_text(djinn_text({k: int(v) for k, v in bag.items()}, "empty"))
    line.append(f" · {plural(int(view.get('supply_bosses', 0)), 'boss')} in the supply")
    parts.append(line)
    if view.get("removed_passages"):
        parts.append(
            Text(f"Passages out of the game: {', '.join(view['removed_passages'])}", style="dim")
        )
    return Group(*parts)


def tom_panel(view: View, comp: Components | None = None) -> RenderableType:
    """Tom, the solo opponent: his deck and the cards he has turned."""
    tom = view["tom"]
    text = Text(f"{plural(int(tom['cards_left']), 'card')} left of {tom['deck_size']}. ")
    text.append(
        "Rid the city of every boss before his deck runs out; he draws after each of your "
        "turns at a round space.",
        style="dim",
    )
    parts: list[RenderableType] = [text]
    revealed = list(tom.get("revealed") or [])
    if revealed:
        last = int(revealed[-1])
        parts.append(Text(f"Last card: {tom_card_words(last, comp)}"))
    if tom.get("won") is not None:
        parts.append(
            Text("You beat Tom!", style="bold green")
            if tom["won"]
            else Text("Tom won.", style="bold red")
        )
    tasks = tom.get("tasks") or []
    done = [Text(str(t["task"]), style="green") for t in tasks if t.get("done")]
    if done:
        parts.append(Flow(done, head=Text("Tasks done:", style="bold")))
    return Group(*parts)


def tom_card_words(card_id: int, comp: Components | None) -> str:
    if comp is None or not 0 <= card_id < len(comp.tom_cards):
        return f"card {card_id}"
    from arabesque.games.djinn.components import LOCATIONS

    card = comp.tom_cards[card_id]
    if card.nothing:
        return f"card {card_id}, nothing happens"
    first = LOCATIONS[card.first] if card.first >= 0 else "?"
    second = LOCATIONS[card.second] if card.second >= 0 else "?"
    pay = reward_words(comp_reward(card.pay))
    return f"card {card_id}: a Djinn to the boss at {first}, else {second}, else you pay {pay}"


def and_names(name: Namer, seats: Iterable[int]) -> str:
    return and_list([name(s) for s in seats])


__all__ = [
    "BREAKDOWN_WORDS",
    "SHORT_BREAKDOWN_WORDS",
    "djinn_text",
    "map_panel",
    "market_panel",
    "my_board",
    "players_table",
    "reward_words",
    "shops_panel",
    "status_text",
    "tom_panel",
    "trophies_panel",
]
