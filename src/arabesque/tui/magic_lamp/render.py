"""Magic Lamp panels drawn from one seat's view (pure functions, no Textual).

Everything here reads the view dict built by ``games/magic_lamp/view.py`` and nothing else,
so a panel can only show what that seat may know.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arabesque.tui.magic_lamp.events import Namer, card_list, plural, race_summary

JEWEL_ORDER = ("bracelet", "ring", "necklace")
SHARED_STYLE = "bold black on yellow"

Card = Mapping[str, Any]


def _shared(view: Mapping[str, Any]) -> set[int]:
    return set(view.get("shared_faces") or [])


def dice_cell(
    player: Mapping[str, Any], view: Mapping[str, Any], own: bool = False, sep: str = "  "
) -> Text:
    """A player's dice: faces once the seat may see them. Before the reveal another seat's
    dice are only "hidden": not even how many are set yet (that would tell who hesitates)."""
    dice = player.get("dice")
    if dice is None:
        return Text("hidden" if view.get("phase") == "setting" else "—", style="dim")
    if not dice:
        return Text("not set yet" if own else "—", style="dim")
    # Shared faces stand out only once the race is over: seeing them is the race.
    shared = _shared(view) if view.get("phase") not in ("setting", "race") else set()
    out = Text()
    for i, die in enumerate(dice):
        if i:
            out.append(sep)
        style = SHARED_STYLE if die["face"] in shared else "bold"
        out.append(f"{die['chest']} {die['face']}", style=style)
    return out


def lamp_cell(seat: int, view: Mapping[str, Any]) -> Text:
    """What a player did in the lamp race, once the race is resolved."""
    result = view.get("race_result")
    if not result:
        return Text("")
    ms = result.get("rubs", {}).get(str(seat))
    if ms is None:
        return Text("—", style="dim")
    if seat in result.get("mistaken", []):
        return Text(f"{ms} ms ✗ mistake", style="red")
    if seat in [r.get("winner") for r in result.get("races", [])]:
        return Text(f"{ms} ms ★ Genie", style="bold magenta")
    return Text(f"{ms} ms")


def _stone_counts(player: Mapping[str, Any]) -> dict[str, int]:
    return {k: v for k, v in player.get("stones", {}).items() if v}


def _majorities(player: Mapping[str, Any]) -> set[str]:
    return {
        k.removeprefix("majority_")
        for k, v in player.get("score_breakdown", {}).items()
        if k.startswith("majority_") and v
    }


def stones_cell(player: Mapping[str, Any]) -> Text:
    counts = _stone_counts(player)
    if not counts:
        return Text("—", style="dim")
    best = _majorities(player)
    out = Text()
    for i, (stone, n) in enumerate(counts.items()):
        if i:
            out.append("\n")
        out.append(f"{stone} {n}", style="bold" if stone in best else "")
        if stone in best:
            out.append("★", style="yellow")
    return out


def _jewels_by_metal(cards: Sequence[Card]) -> dict[str, list[Card]]:
    by_metal: dict[str, list[Card]] = {}
    for card in cards:
        if card.get("kind") == "jewel":
            by_metal.setdefault(str(card["metal"]), []).append(card)
    for pieces in by_metal.values():
        pieces.sort(key=lambda c: JEWEL_ORDER.index(c["jewel"]) if c["jewel"] in JEWEL_ORDER else 9)
    return by_metal


def jewels_cell(player: Mapping[str, Any]) -> Text:
    by_metal = _jewels_by_metal(player.get("cards", []))
    if not by_metal:
        return Text("—", style="dim")
    sets = player.get("sets", {})
    out = Text()
    for i, metal in enumerate(m for m in ("bronze", "silver", "gold") if m in by_metal):
        if i:
            out.append("\n")
        pieces = Counter(c["jewel"] for c in by_metal[metal])
        words = " ".join(p if n == 1 else f"{p}×{n}" for p, n in pieces.items())
        out.append(f"{metal} {words}")
        if sets.get(metal):
            out.append(" ✓set" if sets[metal] == 1 else f" ✓{sets[metal]} sets", style="green")
    return out


def others_cell(player: Mapping[str, Any]) -> Text:
    """Talismans (with their stone) and any Sorcerer kept."""
    words = []
    for card in player.get("cards", []):
        if card.get("kind") == "talisman":
            on = card.get("talisman_on")
            if on is None:
                words.append("talisman (unplaced)")
            else:
                words.append("talisman alone" if on == "alone" else f"talisman on {on}")
        elif card.get("kind") == "sorcerer":
            words.append("Sorcerer")
    return Text("\n".join(words) if words else "—", style="" if words else "dim")


def table_panel(view: Mapping[str, Any], name: Namer) -> Table:
    """The public table: every player's cards, dice (once revealed), race and score."""
    table = Table(expand=True, show_edge=False, pad_edge=False, header_style="bold")
    for col in ("Player", "Dice", "Lamp", "Stones", "Jewels", "Talismans", "Cards", "Score"):
        table.add_column(col, overflow="fold", no_wrap=col in ("Player", "Dice", "Lamp"))
    me = view.get("seat")
    for player in view.get("players", []):
        seat = player["seat"]
        who = Text(name(seat), style="bold cyan" if seat == me else "bold")
        if player.get("ring"):
            who.append(" ◎ring", style="yellow")
        if seat in view.get("to_act", []) and not view.get("is_over"):
            who.append(" ◀", style="bold yellow")
        table.add_row(
            who,
            dice_cell(player, view, own=seat == me, sep="\n"),
            lamp_cell(seat, view),
            stones_cell(player),
            jewels_cell(player),
            others_cell(player),
            str(len(player.get("cards", []))),
            Text(str(player.get("score", 0)), style="bold"),
        )
    return table


def _grouped(cards: Sequence[Card]) -> str:
    counts = Counter(card_list([c]) for c in cards)
    return ", ".join(n if k == 1 else f"{n} ×{k}" for n, k in counts.items()) or "empty"


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
    discard_line = Text.assemble(
        ("Discard pile: ", "bold"), f"{len(discard)} — ", _grouped(discard)
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
    return " + ".join(parts) if parts else "0"


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

    breakdown = me.get("score_breakdown", {})
    lines.append(
        Text.assemble(
            ("Score: ", "bold"),
            (str(me.get("score", 0)), "bold"),
            f" = {_breakdown_text(breakdown)}",
        )
    )
    return Group(*lines)


def race_result_text(view: Mapping[str, Any], name: Namer) -> Text | None:
    result = view.get("race_result")
    if not result:
        return None
    return Text(f"Lamp race: {race_summary(result, name)}.", style="magenta")
