"""Djinn log events in words, for the event log panel (and ``arabesque replay``).

Events come from the seat's own view (``view["log"]``), so whatever they say, that seat may
know. Sentences are in the past tense, which reads the same for "You" and for a bot. The
fields read here are the ones the ``games/djinn/rules/`` modules log; cards are named by their ids,
as the option labels name them, so a line in the log matches the card on the board.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

from arabesque.games.djinn import words
from arabesque.games.djinn.components import EQUIP_TYPES, Components

Namer = Callable[[int | None], str]

#: Styles of the Djinn colours (and the boss), shared with the board drawing.
DJINN_STYLES: dict[str, str] = {
    "blue": "bold blue",
    "brown": "bold dark_orange3",
    "red": "bold red",
    "yellow": "bold yellow",
    "boss": "bold reverse",
}

#: Each seat's colour (mage, assistant, passages): none of them a Djinn colour.
SEAT_STYLES: tuple[str, ...] = ("bold cyan", "bold green", "bold magenta", "bold bright_white")

#: The Archives' options, in the engine's order (``archive`` events give the index).
ARCHIVE_WORDS: tuple[str, ...] = (
    "placed a secret passage",
    "took the coins",
    "took the scroll",
    "activated Mage cards",
    "activated a spell circle",
)

KEY_WORDS = {"coin": "a coin", "scroll": "a scroll", "magic": "a magic"}


def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith("s") else f"{n} {word}s"


def and_list(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def djinn_words(djinn: Mapping[str, int]) -> str:
    """{"red": 2, "boss": 1} -> "a boss and 2 red Djinn"."""
    parts = []
    if djinn.get("boss"):
        n = int(djinn["boss"])
        parts.append("a boss" if n == 1 else f"{n} bosses")
    for colour, n in djinn.items():
        if colour != "boss" and n:
            parts.append(f"{'a' if n == 1 else n} {colour} Djinn")
    return and_list(parts) or "no Djinn"


def one_djinn(kind: str) -> str:
    return "a boss" if kind == "boss" else f"a {kind} Djinn"


def _who(name: Namer, seat: Any) -> Text:
    if isinstance(seat, int):
        return Text(name(seat), style=seat_style(seat))
    return Text("Someone", style="bold")


def describe_event(
    event: Mapping[str, Any],
    name: Namer,
    comp: Components | None = None,
    places: Mapping[str, str] | None = None,
) -> Text | None:
    """The event in words, or None for events not worth a line. ``comp`` (the game's public
    component data) names what events give by id (a character tile, a Market offer, a
    chest); ``places`` (space id -> location) says where a space is."""
    kind = str(event.get("kind"))
    seat = event.get("seat")
    words = _words(kind, event, name, comp, places or {})
    if words is None:
        return None
    style = {
        "catch": "bold",
        "trophy": "bold yellow",
        "boss_flees": "yellow",
        "last_boss_gone": "bold yellow",
        "stage": "bold yellow",
        "round_cap": "bold yellow",
        "end": "bold",
        "solo_won": "bold green",
        "solo_lost": "bold red",
    }.get(kind, "")
    if not isinstance(seat, int):
        return Text(words, style=style)
    line = _who(name, seat)
    line.append(" " + words, style=style)
    return line


def _reward(reward: Any, nothing: str = "nothing") -> str:
    """A reward as events write one ({"coins": 2})."""
    if not isinstance(reward, Mapping):
        return nothing
    return words.reward_words({str(k): int(v) for k, v in reward.items()}, nothing)


def _words(
    kind: str,
    e: Mapping[str, Any],
    name: Namer,
    comp: Components | None,
    places: Mapping[str, str],
) -> str | None:
    """The sentence after the actor's name (the whole sentence for events without a seat)."""

    def at(space: Any) -> str:
        where = places.get(str(space))
        if space == "source":
            return "the Magic Source"
        return f"{words.place_words(where)} ({space})" if where else str(space)

    if kind == "setup":
        first = name(e.get("first"))
        return f"The game begins; {first} {'start' if first == 'You' else 'starts'}."
    if kind == "character":
        tile = int(e["tile"])
        if comp is not None and 0 <= tile < len(comp.characters):
            tile_card = comp.characters[tile]
            what = words.character_words(comp, tile_card)
            return f"took the character tile “{tile_card.name}”: {what}."
        return f"took the character tile “{e.get('name', tile)}”."
    if kind == "secret_scoring":
        ids = [int(c) for c in e.get("cards") or []]
        if comp is not None and all(0 <= c < len(comp.scoring_cards) for c in ids):
            cards = and_list([f"“{comp.scoring_cards[c].name}”" for c in ids])
            return f"keeps the scoring cards {cards} face down (the better one scores)."
        return f"keeps {plural(len(ids), 'scoring card')} face down."
    if kind == "move":
        return f"moved to {at(e['to'])}."
    if kind == "forfeit":
        return f"gave up the space's actions for {_reward(e.get('reward'))}."
    if kind == "end_turn":
        return None  # the next line names the next player; a line per turn is noise
    if kind == "decline":
        return "did not catch, and lost a magic."
    if kind == "action":
        how = "special" if e.get("special") else "basic"
        return f"took the {how} action of {words.place_words(str(e['location']))}."
    if kind == "tent":
        return f"moved the assistant to Market tent {e['place']}."
    if kind == "offer":
        coins, scrolls = int(e.get("coins") or 0), int(e.get("scrolls") or 0)
        price = plural(coins, "coin") if coins else plural(scrolls, "scroll")
        return f"paid {price} at the Market: {_reward(e.get('reward'))}."
    if kind == "bottle":
        return f"got a {e['colour']} bottle."
    if kind == "archive":
        option = int(e["option"])
        what = ARCHIVE_WORDS[option] if 0 <= option < len(ARCHIVE_WORDS) else f"option {option}"
        return f"in the Archives: {what}."
    if kind == "catch":
        return f"caught {djinn_words(e.get('djinn') or {})} at {at(e['space'])}!"
    if kind == "place":
        where = "a spell circle" if e["to"] == "circle" else f"a corked {e['to']} bottle"
        return f"put {one_djinn(str(e['djinn']))} into {where}."
    if kind == "release":
        return f"let {one_djinn(str(e['djinn']))} go (no room for it)."
    if kind == "free_djinn":
        return f"took {one_djinn(str(e['djinn']))} for free with the boss."
    if kind == "passage":
        to = words.place_words(str(e["location"]))
        return f"placed a secret passage to {to} at {at(e['space'])}."
    if kind == "source_refill":
        return "refilled the magic to its maximum at the Magic Source."
    if kind == "source_row2":
        return f"paid {plural(int(e['price']), 'scroll')} for the Source's second row."
    if kind == "source_boss":
        return "caught a boss from the supply at the Magic Source."
    if kind == "chests":
        ids = [int(c) for c in e.get("chests") or []]
        rewards = list(e.get("rewards") or [])
        keys = list(e.get("key_rewards") or [])
        found = []
        for i, c in enumerate(ids):
            line = f"chest {c}: {_reward(rewards[i] if i < len(rewards) else None)}"
            if i < len(keys) and keys[i]:
                line += f" (with a key: {_reward(keys[i])})"
            found.append(line)
        if not found:
            return "found the Catacombs empty."
        return f"opened {'chests' if len(ids) > 1 else 'a chest'}: {'; '.join(found)}."
    if kind == "unlock":
        return f"paid a key for chest {e['chest']}'s extra reward: {_reward(e.get('reward'))}."
    if kind == "chests_reshuffled":
        return "The chest discards were shuffled into a new deck."
    if kind == "mage":
        card = int(e["card"])
        if comp is not None and 0 <= card < len(comp.mage_cards):
            return f"took {words.mage_words(comp.mage_cards[card])}."
        return f"took Mage card {card}."
    if kind == "use_mage":
        return f"used Mage card {e['card']}."
    if kind == "activate":
        return f"activated Mage card {e['card']}."
    if kind == "equipment":
        card = int(e["card"])
        if comp is not None and 0 <= card < len(comp.equipment):
            equipment = comp.equipment[card]
            what = f"{EQUIP_TYPES[equipment.type]} {card}: {words.equipment_words(equipment)}"
            return f"took the Equipment card {what}."
        return f"took Equipment card {card}."
    if kind == "use_equipment":
        return f"used Equipment card {e['card']}."
    if kind == "key":
        return f"exchanged a key for {KEY_WORDS.get(str(e['exchange']), e['exchange'])}."
    if kind == "pay":
        where = "the Market tent" if e.get("market") else "the space"
        return f"paid {name(e['to'])} a {e['what']} to share {where}."
    if kind == "seal":
        return (
            f"moved {one_djinn(str(e['djinn'])).replace('a ', 'the ', 1)} of spell circle "
            f"{e['circle']} into a corked "
            f"{e['bottle']} bottle."
        )
    if kind == "trophy":
        gain = ""
        if "points" in e:
            gain = f": {plural(int(e['points']), 'point')}"
            if e.get("reward"):
                gain += f" and {_reward(e['reward'])}"
        return f"claimed trophy {e['trophy']} with three {e['colour']} bottles{gain}!"
    if kind == "trade":
        return f"traded a {e['gave']} bottle for a {e['got']} one."
    if kind == "draw_djinn":
        return f"drew a {e['colour']} Djinn from the bag."
    if kind == "capacity_flipped":
        return "reached the top of the capacity scale (maximum magic now 8)."
    if kind == "boss_flees":
        return f"The boss at {at(e['space'])} was left alone and fled the city."
    if kind == "last_boss_gone":
        return f"The last boss is gone (round {e['round']}): the game is ending."
    if kind == "round_cap":
        return f"Round {e['round']}: the round limit is reached, the game is ending."
    if kind == "stage":
        return {
            "finishing the round": "The round is finished, then one more is played.",
            "last round": "The last round begins.",
            "final Magic Source": "Everyone gathers at the Magic Source one last time.",
            "over": None,
        }.get(str(e["stage"]), f"Now: {e['stage']}.")
    if kind == "tom":
        if e.get("nothing"):
            return f"Tom drew card {e['card']}: nothing happens."
        return f"Tom drew card {e['card']}: a Djinn joins the boss at {at(e['space'])}."
    if kind == "tom_pay":
        paid = _reward(e.get("paid"), "nothing (you had none of it)")
        return f"Tom drew card {e['card']} and took {paid}."
    if kind == "solo_won":
        left = plural(int(e["cards_left"]), "card")
        return f"All the bosses are gone with {left} left in Tom's deck: you beat Tom!"
    if kind == "solo_lost":
        return "Tom's deck ran out before the bosses were gone: Tom wins."
    if kind == "end":
        scores = ", ".join(f"{name(p)} {s}" for p, s in enumerate(e.get("scores") or []))
        return f"The game is over. Points: {scores}."
    return f"({kind})"


__all__ = [
    "DJINN_STYLES",
    "SEAT_STYLES",
    "and_list",
    "describe_event",
    "djinn_words",
    "plural",
    "seat_style",
]
