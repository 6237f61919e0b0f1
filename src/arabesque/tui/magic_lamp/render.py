"""Magic Lamp panels drawn from one seat's view (pure functions, no Textual).

Everything here reads the view dict built by ``games/magic_lamp/view.py`` and nothing else,
so a panel can only show what that seat may know.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arabesque.games.magic_lamp.components import METALS
from arabesque.tui.decision_panel import FirstFit, Flow, Rigid
from arabesque.tui.magic_lamp.events import Namer, card_list, plural, race_summary

JEWEL_ORDER = ("bracelet", "ring", "necklace")
#: The table's short names for jewels, when the words do not fit (the legend says them).
JEWEL_LETTERS = {"bracelet": "B", "ring": "R", "necklace": "N"}
SHARED_STYLE = "bold #000000 on #ffd700"

Card = Mapping[str, Any]


def _shared(view: Mapping[str, Any]) -> set[int]:
    return set(view.get("shared_faces") or [])


def dice_cell(
    player: Mapping[str, Any],
    view: Mapping[str, Any],
    own: bool = False,
    sep: str = "  ",
    assist: bool = False,
) -> Text:
    """A player's dice: faces once the seat may see them. Before the reveal another seat's
    dice are only "hidden": not even how many are set yet (that would tell who hesitates)."""
    dice = player.get("dice")
    if dice is None:
        return Text("hidden" if view.get("phase") == "setting" else "—", style="dim")
    if not dice:
        return Text("not set" if own else "—", style="dim")
    # Shared faces stand out only once the race is over: seeing them is the race. The assist
    # (the player's own choice) shows them during the race too.
    racing = view.get("phase") == "race"
    shown = view.get("phase") != "setting" and (assist or not racing)
    shared = _shared(view) if shown else set()
    out = Text()
    for i, die in enumerate(dice):
        if i:
            out.append(sep)
        style = SHARED_STYLE if die["face"] in shared else "bold"
        out.append(f"{die['chest']} {die['face']}", style=style)
    return out


def lamp_cell(seat: int, view: Mapping[str, Any]) -> Text:
    """What a player did in the lamp race, once the race is resolved: the time, and on a
    second line what came of it (a narrow column keeps both whole)."""
    result = view.get("race_result")
    if not result:
        return Text("")
    ms = result.get("rubs", {}).get(str(seat))
    if ms is None:
        return Text("—", style="dim")
    if seat in result.get("mistaken", []):
        return Text(f"{ms} ms\n✗ mistake", style="red")
    if seat in [r.get("winner") for r in result.get("races", [])]:
        return Text(f"{ms} ms\n★ Genie", style="bold magenta")
    return Text(f"{ms} ms")


def _majorities(player: Mapping[str, Any]) -> set[str]:
    return {
        k.removeprefix("majority_")
        for k, v in player.get("score_breakdown", {}).items()
        if k.startswith("majority_") and v
    }


def _jewels_by_metal(cards: Sequence[Card]) -> dict[str, list[Card]]:
    by_metal: dict[str, list[Card]] = {}
    for card in cards:
        if card.get("kind") == "jewel":
            by_metal.setdefault(str(card["metal"]), []).append(card)
    for pieces in by_metal.values():
        pieces.sort(key=lambda c: JEWEL_ORDER.index(c["jewel"]) if c["jewel"] in JEWEL_ORDER else 9)
    return by_metal


def card_count(player: Mapping[str, Any]) -> int:
    """Cards that score a point each: the Sorcerer is no treasure (the final table agrees)."""
    breakdown = player.get("score_breakdown") or {}
    if "cards" in breakdown:
        return int(breakdown["cards"])
    return sum(1 for c in player.get("cards", []) if c.get("kind") != "sorcerer")


def _jewel_cell(player: Mapping[str, Any], metal: str, letters: bool) -> Text:
    """A player's jewels of one metal: complete sets first, then the loose pieces."""
    pieces = Counter(
        str(c["jewel"])
        for c in player.get("cards", [])
        if c.get("kind") == "jewel" and c.get("metal") == metal
    )
    if not pieces:
        return Text("·", style="dim")
    sets = int((player.get("sets") or {}).get(metal, 0))
    out = Text()
    if sets:
        out.append("✓set" if sets == 1 else f"✓{sets} sets", style="green")
    order = sorted(pieces, key=lambda j: (JEWEL_ORDER.index(j) if j in JEWEL_ORDER else 9, j))
    for piece in order:
        n = pieces[piece] - sets  # a set takes one of each piece
        if n <= 0:
            continue
        if out:
            out.append(" ")
        out.append(JEWEL_LETTERS.get(piece, piece[:1].upper()) if letters else piece)
        if n > 1:
            out.append(f"×{n}")
    return out


def stone_ties(view: Mapping[str, Any]) -> dict[str, tuple[int, list[int]]]:
    """Stone type -> (count, seats) where two or more players share the most of it: a tie
    earns nobody the bonus (rulebook, "How do I count my points?")."""
    players = view.get("players", [])
    out: dict[str, tuple[int, list[int]]] = {}
    for stone in (players[0].get("stones") or {}) if players else {}:
        counts = {int(p["seat"]): int((p.get("stones") or {}).get(stone, 0)) for p in players}
        top = max(counts.values(), default=0)
        tied = [seat for seat, n in counts.items() if n == top]
        if top > 0 and len(tied) > 1:
            out[stone] = (top, tied)
    return out


def _stone_cell(player: Mapping[str, Any], stone: str, tied: bool) -> Text:
    n = int((player.get("stones") or {}).get(stone, 0))
    if not n:
        return Text("·", style="dim")
    if stone in _majorities(player):
        return Text.assemble((str(n), "bold"), ("★", "yellow"))
    if tied:
        return Text.assemble(str(n), ("=", "yellow"))
    return Text(str(n))


def _talisman_cell(player: Mapping[str, Any]) -> Text:
    n = sum(1 for c in player.get("cards", []) if c.get("kind") == "talisman")
    return Text(str(n)) if n else Text("·", style="dim")


def _matrix(view: Mapping[str, Any], name: Namer, letters: bool, assist: bool) -> Group:
    """The table with a column per player and a row per thing to compare: its height does
    not grow with the cards held, so the cave below stays in sight late in the game."""
    players = view.get("players", [])
    me = view.get("seat")
    over = view.get("is_over")
    table = Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold", expand=False
    )
    table.add_column("", style="bold", no_wrap=True)
    for player in players:
        seat = player["seat"]
        head = Text(name(seat), style="bold cyan" if seat == me else "bold")
        if player.get("ring"):
            head.append("◎", style="yellow")
        if seat in view.get("to_act", []) and not over:
            head.append(" ◀", style="bold yellow")
        table.add_column(head, no_wrap=True)

    def row(label: str, cells: Sequence[RenderableType], style: str = "") -> None:
        table.add_row(Text(label, style=style), *cells)

    row("dice", [dice_cell(p, view, own=p["seat"] == me, sep="\n", assist=assist) for p in players])
    if view.get("race_result"):
        row("lamp race", [lamp_cell(p["seat"], view) for p in players])
    stone_types = list((players[0].get("stones") or {}) if players else [])
    ties = stone_ties(view)
    for stone in stone_types:
        tied = ties.get(stone, (0, []))[1]
        row(stone, [_stone_cell(p, stone, p["seat"] in tied) for p in players])
    row("talismans", [_talisman_cell(p) for p in players])
    for metal in METALS:
        row(f"{metal} jewels", [_jewel_cell(p, metal, letters) for p in players])
    if any(c.get("kind") == "sorcerer" for p in players for c in p.get("cards", [])):
        row(
            "Sorcerer",
            [
                Text("drew it", style="red")
                if any(c.get("kind") == "sorcerer" for c in p.get("cards", []))
                else Text("")
                for p in players
            ],
        )
    row("cards", [Text(str(card_count(p))) for p in players])
    row("score", [Text(str(p.get("score", 0)), style="bold") for p in players], style="bold")
    legend = ["stones count the talismans on them", "★ most of a stone: +5"]
    if ties:
        legend.append("= tied for most: no bonus")
    if letters:
        legend.append("B bracelet, R ring, N necklace")
    legend.append("✓set: complete set (protected)")
    if any(p.get("ring") for p in players):
        legend.append("◎ magic ring")
    # Whole items per line: a key never parted from its meaning by the wrap.
    return Group(Rigid(table), Flow([Text(i, style="dim") for i in legend], sep="   ", indent=0))


def table_panel(view: Mapping[str, Any], name: Namer, assist: bool = False) -> FirstFit:
    """The public table: every player's dice (once revealed), race, stones, jewels, cards and
    score, side by side. Jewels are spelt out when there is room, else in letters with a
    legend; nothing is ever cut in the middle of a word."""
    return FirstFit(_matrix(view, name, False, assist), _matrix(view, name, True, assist))


def _grouped(cards: Sequence[Card]) -> list[Text]:
    counts = Counter(card_list([c]) for c in cards)
    return [Text(n if k == 1 else f"{n} ×{k}") for n, k in counts.items()]


def cave_panel(view: Mapping[str, Any]) -> Group:
    """The three chests, the Lamp pile and the discard pile."""
    table = Table(expand=True, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Chest")
    table.add_column("Cards left", justify="right")
    table.add_column("Sorcerer")
    table.add_column("Known top cards (first card first)", overflow="fold")
    for chest in view.get("chests", []):
        if chest.get("sorcerer_in_chest"):
            above = chest.get("cards_above_sorcerer") or 0
            sorcerer = Text(
                "next card!" if above == 0 else f"{plural(above, 'card')} above it",
                style="bold red" if above <= 3 else "",
            )
        else:
            sorcerer = Text("drawn", style="red")
        known = chest.get("known_top") or []
        table.add_row(
            Text(chest["name"], style="bold"),
            str(chest.get("cards_left", 0)),
            sorcerer,
            Text(card_list(known) if known else "—", style="yellow" if known else "dim"),
        )
    lamp = view.get("lamp_pile", {})
    seen = lamp.get("known_bottom", [])
    lamp_line = Text.assemble(("Lamp pile: ", "bold"), plural(lamp.get("cards", 0), "card"))
    if seen:
        lamp_line.append(
            "; at the bottom (seen, last one under first): "
            + ", ".join(c["name"] for c in reversed(seen[-4:]))
            + (" …" if len(seen) > 4 else ""),
            style="dim",
        )
    discard = view.get("discard", [])
    discard_line = Flow(
        _grouped(discard) or [Text("empty", style="dim")],
        sep=", ",
        head=Text.assemble(("Discard pile: ", "bold"), f"{len(discard)} —"),
    )
    parts: list[RenderableType] = [table, lamp_line, discard_line]
    if view.get("cave_closed") and not view.get("is_over"):
        parts.append(Text("The cave is closed: this is the last turn!", style="bold red"))
    return Group(*parts)


def _breakdown_text(breakdown: Mapping[str, int]) -> str:
    words = {"ring": "magic ring"}
    parts = []
    for key, value in breakdown.items():
        if not value:
            continue
        if key == "cards":
            parts.append(plural(value, "card"))
            continue
        if key.startswith("set_"):
            label = f"{key.removeprefix('set_')} set"
        elif key.startswith("majority_"):
            label = f"most {key.removeprefix('majority_')}"
        else:
            label = words.get(key, key)
        parts.append(f"{value} {label}")
    return " + ".join(parts)


def board_panel(view: Mapping[str, Any]) -> Group:
    """The seat's own treasure: dice this turn, stones, jewels, talismans and score."""
    seat = view.get("seat")
    if seat is None:
        return Group(Text("You are watching the bots play.", style="dim"))
    me = view["players"][seat]
    cards: Sequence[Card] = me.get("cards", [])
    lines: list[RenderableType] = []

    dice = Text.assemble(("Dice: ", "bold"), dice_cell(me, view, own=True))
    if view.get("phase") == "setting" and me.get("dice"):
        dice.append("  (secret until the reveal)", style="dim")
    lines.append(dice)

    # Stones by type, with the talismans standing for that type.
    real = Counter(c["stone"] for c in cards if c.get("kind") == "stone")
    on_type = Counter(c.get("talisman_on") for c in cards if c.get("kind") == "talisman")
    best = _majorities(me)
    stone_types = list(me.get("stones", {}))
    stones = Text("Stones: ", style="bold")
    shown = 0
    for stone in stone_types:
        n, t = real.get(stone, 0), on_type.get(stone, 0)
        if not n and not t:
            continue
        if shown:
            stones.append("  ")
        shown += 1
        stones.append(f"{stone} {n}", style="bold" if stone in best else "")
        if t:
            stones.append(f" + {plural(t, 'talisman')} = {n + t}")
        if stone in best:
            stones.append(" ★ most (+5)", style="yellow")
    if not shown:
        stones.append("none", style="dim")
    lines.append(stones)

    by_metal = _jewels_by_metal(cards)
    sets = me.get("sets", {})
    if not by_metal:
        lines.append(Text.assemble(("Jewels: ", "bold"), ("none", "dim")))
    else:
        lines.append(Text("Jewels:", style="bold"))
        for metal in ("bronze", "silver", "gold"):
            if metal not in by_metal:
                continue
            row = Text(f"  {metal:<7}")
            for card in by_metal[metal]:
                row.append(f" {card['jewel']}", style="green" if card.get("protected") else "")
            if sets.get(metal):
                bonus = me.get("score_breakdown", {}).get(f"set_{metal}", 0)
                row.append(f"  ✓ complete set, protected (+{bonus})", style="green")
            else:
                missing = [j for j in JEWEL_ORDER if j not in {c["jewel"] for c in by_metal[metal]}]
                row.append(f"  (missing: {', '.join(missing)})", style="dim")
            lines.append(row)

    talismans = [c for c in cards if c.get("kind") == "talisman"]
    if talismans:
        words = Counter(
            "unplaced"
            if c.get("talisman_on") is None
            else ("alone (1 point)" if c["talisman_on"] == "alone" else f"on {c['talisman_on']}")
            for c in talismans
        )
        lines.append(
            Text.assemble(
                ("Talismans: ", "bold"),
                ", ".join(w if k == 1 else f"{k}× {w}" for w, k in words.items()),
                (" (protected)", "green"),
            )
        )
    if any(c.get("kind") == "sorcerer" for c in cards):
        lines.append(Text("You hold a Sorcerer card (0 points).", style="dim"))
    if me.get("ring"):
        lines.append(Text("You hold the magic ring.", style="yellow"))
    if me.get("ward"):
        lines.append(Text(f"This turn the first {plural(me['ward'], 'scorpion')} are ignored."))

    score = Text.assemble(("Score: ", "bold"), (str(me.get("score", 0)), "bold"))
    # "Score: 0 = 0" says nothing: the sum only when something adds up to it.
    parts = _breakdown_text(me.get("score_breakdown", {}))
    if parts:
        score.append(f" = {parts}")
    lines.append(score)
    return Group(*lines)


def race_result_text(view: Mapping[str, Any], name: Namer) -> Text | None:
    result = view.get("race_result")
    if not result:
        return None
    return Text(f"Lamp race: {race_summary(result, name)}.", style="magenta")
