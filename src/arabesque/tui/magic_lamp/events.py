"""Magic Lamp log events in words, for the event log panel.

Events come from the seat's own view (``view["log"]``), so whatever they say, that seat may
know. Sentences are in the past tense, which reads the same for "You" and for a bot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

Namer = Callable[[int | None], str]


def card_name(card: Mapping[str, Any]) -> str:
    # The core names a card by its kind when it has no stone or jewel: "sorcerer". The
    # Sorcerer is a character, and the rest of the screen writes it with a capital.
    if card.get("kind") == "sorcerer":
        return "the Sorcerer"
    return str(card.get("name", "?"))


def card_list(cards: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else "nothing"


def possessive(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def dice_text(dice: Sequence[Mapping[str, Any]]) -> str:
    return " + ".join(f"{d['chest']} {d['face']}" for d in dice) if dice else "no die"


def race_summary(result: Mapping[str, Any], name: Namer) -> str:
    """One line on a resolved lamp race: every rub with its time, and who summons."""
    rubs = sorted(
        ((int(p), int(ms)) for p, ms in result.get("rubs", {}).items()), key=lambda x: (x[1], x[0])
    )
    mistaken = set(result.get("mistaken", []))
    parts = []
    for race in result.get("races", []):
        winner = race.get("winner")
        face = race.get("face")
        if winner is None:
            parts.append(f"face {face}: nobody rubbed")
            continue
        ms = dict(rubs).get(winner)
        tie = " (tie drawn by lot)" if race.get("tie") else ""
        parts.append(f"face {face}: {name(winner)} summoned the Genie in {ms} ms{tie}")
    if not parts:
        parts.append("no shared face")
    if rubs:
        times = ", ".join(
            f"{name(p)} {ms} ms" + (" (by mistake!)" if p in mistaken else "") for p, ms in rubs
        )
        parts.append(f"rubs: {times}")
    else:
        parts.append("nobody rubbed")
    return "; ".join(parts)


def describe_event(event: Mapping[str, Any], name: Namer) -> Text | None:
    """The event in words, or None for events not worth a line."""
    kind = event.get("kind")
    p = event.get("player")
    who = name(p) if isinstance(p, int) else ""
    if kind == "turn":
        return Text(f"── Turn {event['turn']} ──", style="bold")
    if kind == "setup":
        lines = [f"New game, {event['players']} players."]
        for seat, start in enumerate(event.get("starting", [])):
            lines.append(f"{name(seat)} started with {', '.join(start)}.")
        if event.get("my_precious"):
            lines.append('Variant "My Precious": a full draw of six with a 6 wins the ring.')
        return Text(" ".join(lines))
    if kind == "die_set":
        return Text(f"{who} set a die in secret.", style="dim")
    if kind == "race_answered":
        return None
    if kind == "reveal":
        dice = event.get("dice", [])
        shown = "; ".join(f"{name(s)} {dice_text(d)}" for s, d in enumerate(dice))
        # Not which faces are shared: the race that follows is about seeing it in time.
        return Text(f"Reveal: {shown}.", style="bold cyan")
    if kind == "race":
        return Text(f"Lamp race: {race_summary(event, name)}.", style="magenta")
    if kind == "genie_calm":
        return Text(f"{who} rubbed by mistake, but had nothing to steal: the Genie calmed down.")
    if kind == "genie_angry":
        return Text(
            f"{who} rubbed by mistake! The angry Genie sent {name(event['thief'])} "
            f"to steal one of {possessive(who)} cards.",
            style="red",
        )
    if kind == "steal":
        return Text(
            f"{name(event['thief'])} took {possessive(name(event['victim']))} "
            f"{card_name(event['card'])}."
        )
    if kind == "wish":
        lamp = event["lamp"]
        return Text(
            f"{who} made wish {event['wish']}: «{lamp['name']}» — {lamp['text']}",
            style="yellow",
        )
    if kind == "wish_rejected":
        return Text(f"{who} rejected wish {event['wish']}.")
    if kind == "wish_granted":
        forced = " (the third wish must be kept)" if event.get("forced") else ""
        return Text(f"{who} accepted wish {event['wish']}{forced}.")
    if kind == "effect_fizzles":
        return Text(f"The wish came to nothing for {who}: {event.get('reason', '')}.")
    if kind == "ward":
        return Text(
            f"{who} will ignore the first {plural(event['scorpions'], 'scorpion')} this turn."
        )
    if kind == "peek":
        return Text(
            f"{who} looked at the top {plural(event['count'], 'card')} "
            f"of the {event['chest']} chest."
        )
    if kind == "peek_cards":
        return Text(
            f"Top of the {event['chest']} chest, first card first: "
            f"{card_list(event.get('cards', []))}.",
            style="yellow",
        )
    if kind == "lamp_draw":
        return Text(
            f"{who} took the top card of the {event['chest']} chest: {card_name(event['card'])}."
        )
    if kind == "chest_empty":
        return Text(f"The {event['chest']} chest is empty.")
    if kind == "swap":
        return Text(
            f"{who} gave {card_name(event['gave'])} to {name(event['other'])} "
            f"for {card_name(event['took'])}."
        )
    if kind == "die_changed":
        return Text(f"{who} turned the die on the {event['chest']} chest to {event['face']}.")
    if kind == "die_moved":
        return Text(f"{who} moved a die ({event['face']}) to the {event['chest']} chest.")
    if kind == "retrieve":
        source = "the magic ring" if event.get("source") == "ring" else "a wish"
        return Text(f"{who} took {card_name(event['card'])} back from the discard pile ({source}).")
    if kind == "retrieve_nothing":
        return Text(f"{who} found nothing to take back: {event.get('reason', '')}.")
    if kind == "search":
        dice = event.get("dice", [])
        chest = event["chest"]
        if not dice:
            return Text(f"{chest.capitalize()} chest: nobody chose it.", style="dim")
        shown = ", ".join(f"{name(d['player'])} {d['face']}" for d in dice)
        drawer = event.get("drawer")
        if drawer is None:
            return Text(f"{chest.capitalize()} chest ({shown}): tied dice cancel, nobody draws.")
        face = next(d["face"] for d in dice if d["player"] == drawer)
        return Text(
            f"{chest.capitalize()} chest ({shown}): {name(drawer)} searched it, "
            f"up to {plural(face, 'card')}.",
            style="bold",
        )
    if kind == "draw":
        warded = event.get("warded", 0)
        ward = f", {warded} ignored" if warded else ""
        return Text(
            f"{who} drew {card_name(event['card'])} "
            f"({plural(event['scorpions'], 'scorpion')} so far{ward})."
        )
    if kind == "cave_closed":
        return Text(
            f"{who} drew the Sorcerer from the {event['chest']} chest! The cave closes: "
            "this is the last turn.",
            style="bold red",
        )
    if kind == "bust":
        return Text(
            f"Too many scorpions! {who} lost {card_list(event.get('cards', []))}.",
            style="red",
        )
    if kind == "draw_kept":
        how = "stopped and kept" if event.get("stopped") else "kept"
        return Text(f"{who} {how} {card_list(event.get('cards', []))}.", style="green")
    if kind == "talisman_placed":
        return Text(f"{who} placed a talisman on {event['stone']}.")
    if kind == "talisman_alone":
        return Text(f"A talisman of {possessive(who)} stands alone now (1 point).")
    if kind == "ring":
        prev = event.get("previous")
        took = f" from {name(prev)}" if isinstance(prev, int) else ""
        return Text(f"{who} took the magic ring{took}!", style="bold yellow")
    if kind == "game_over":
        return Text(f"Game over: {event.get('reason', '')}.", style="bold")
    # An event this front end does not know yet: show it raw rather than hide it.
    data = {k: v for k, v in event.items() if k != "kind"}
    return Text(f"{kind}: {data}", style="dim")
