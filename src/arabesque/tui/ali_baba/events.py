"""Ali Baba log events in words, for the event log panel.

Events come from the seat's own view (``view["log"]``), so whatever they say, that seat may
know: a tile chosen to show to a yellow effect appears only in the chooser's own log until
every opponent has chosen. Sentences are in the past tense, which reads the same for "You"
and for a bot. The fields read here are the ones ``games/ali_baba/rules.py`` logs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

from arabesque.games.ali_baba.components import load_tiles

Namer = Callable[[int | None], str]
Tile = Mapping[str, Any]

#: The variants' names in words.
VARIANT_NAMES = {
    "standard": "standard game",
    "aladdins-lamp": "Aladdin's lamp",
    "equal-treasures": "equal treasures",
    "smaller-cave": "smaller cave",
}

#: What each effect does, in a few words (the rulebook's Magic effects).
EFFECT_WORDS: dict[str, str] = {
    "score": "score {points} points",
    "flipped": "score {points} per tile uncovered (or for a bare square)",
    "same_kind": "score {points} per tile of its kind you hold",
    "adjacent": "also take an adjacent face-up tile",
    "show": "each opponent shows a tile, you take one",
    "forbid": "forbid a kind or a colour to the others",
}


#: The same, shorter, for option labels.
EFFECT_SHORT: dict[str, str] = {
    "score": "+{points}",
    "flipped": "+{points} per tile uncovered",
    "same_kind": "+{points} per tile of its kind",
    "adjacent": "take a neighbour too",
    "show": "steal a shown tile",
    "forbid": "forbid a kind or colour",
}


def colour_points() -> dict[str, int]:
    """Points of the scoring colours (component data, the same for every game)."""
    return {c.name: c.points for c in load_tiles().colours}


def effect_words(colour: str, effect: str, short: bool = False) -> str:
    words = (EFFECT_SHORT if short else EFFECT_WORDS).get(effect, effect)
    return words.format(points=colour_points().get(colour, 0))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural_word(word)}"


def plural_word(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"  # ruby -> rubies
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def possessive(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


def tile_name(tile: Tile) -> str:
    return str(tile.get("name", "?"))


def tile_list(tiles: Sequence[Tile]) -> str:
    return ", ".join(tile_name(t) for t in tiles) if tiles else "nothing"


def and_list(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def forbid_words(what: str, kind: str) -> str:
    return plural_word(what) if kind == "kind" else f"{what} tiles"


def describe_event(event: Mapping[str, Any], name: Namer) -> Text | None:
    """The event in words, or None for events not worth a line."""
    kind = event.get("kind")
    p = event.get("player")
    who = name(p) if isinstance(p, int) else ""
    if kind == "turn":
        turn = event.get("turn")
        return Text(f"── Turn {turn}: {who} ──" if who else f"── Turn {turn} ──", style="bold")
    if kind == "setup":
        variant = str(event.get("variant", "standard"))
        words = [f"New game: {VARIANT_NAMES.get(variant, variant)}."]
        removed = event.get("removed_kinds") or []
        if removed:
            words.append(f"Out of the game: {and_list([plural_word(k) for k in removed])}.")
        aside = event.get("aside") or []
        if aside:
            words.append(f"Set aside face up next to the cave: {tile_list(aside)}.")
        words.append(f"Face up on top: {tile_list(event.get('face_up') or [])}.")
        in_box = int(event.get("in_box", 0))
        if in_box:
            words.append(f"{plural(in_box, 'tile')} went back to the box unseen.")
        return Text(" ".join(words))
    if kind == "take":
        place = event.get("place", "")
        return Text(f"{who} took the {tile_name(event['tile'])} ({place}).", style="bold")
    if kind == "flip":
        return Text(f"Flipped face up: {tile_list(event.get('tiles') or [])}.", style="cyan")
    if kind == "score":
        return Text(
            f"{who} scored {plural(int(event['points']), 'point')} "
            f"with the {event['effect']} effect.",
            style="green",
        )
    if kind == "also_take":
        return Text(f"{who} also took the {tile_name(event['tile'])} (green effect).")
    if kind == "yellow":
        showing = [name(s) for s in event.get("showing") or []]
        return Text(
            f"{who} used the yellow effect: {and_list(showing)} must show a tile.",
            style="yellow",
        )
    if kind == "show_chosen":
        return Text(
            f"{who} chose to show the {tile_name(event['tile'])} (secret until all have chosen).",
            style="dim",
        )
    if kind == "shown":
        tiles = event.get("tiles") or {}
        shown = [f"{possessive(name(int(s)))} {tile_name(t)}" for s, t in sorted(tiles.items())]
        return Text(f"Shown: {and_list(shown) or 'nothing'}.", style="yellow")
    if kind == "steal":
        owner = name(event.get("owner"))
        return Text(
            f"{who} took {possessive(owner)} {tile_name(event['tile'])}.", style="bold yellow"
        )
    if kind == "forbid":
        what = forbid_words(str(event["what"]), str(event.get("type", "kind")))
        return Text(
            f"{who} forbade {what} to the others until {possessive(who)} next turn.",
            style="bold red",
        )
    if kind == "lamp_swap":
        return Text(
            f"{who} swapped the {tile_name(event['lamp'])} for the set-aside "
            f"{tile_name(event['tile'])} and used its effect.",
            style="magenta",
        )
    if kind == "lamp_kept":
        return Text(f"{who} kept the lamp and used its own effect.", style="magenta")
    if kind == "pass":
        return Text(f"{who} did not use the {event.get('effect', '')} effect.", style="dim")
    if kind == "no_effect":
        why = event.get("why", "")
        return Text(
            f"{possessive(who).capitalize()} {event.get('effect', '')} effect did nothing"
            + (f": {why}." if why else "."),
            style="dim",
        )
    if kind == "last_flip":
        return Text(
            f"The last face-down tile is face up! The game ends after turn {event['last_turn']}.",
            style="bold red",
        )
    if kind == "game_end":
        return Text(f"Game over: {event.get('reason', '')}.", style="bold")
    # An event this front end does not know yet: show it raw rather than hide it.
    data = {k: v for k, v in event.items() if k != "kind"}
    return Text(f"{kind}: {data}", style="dim")
