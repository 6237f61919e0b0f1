"""Djinn's components in plain English: rewards, character tiles and Equipment cards.

Option labels (decisions.py), the views' ``text`` fields (view.py) and the terminal's log all
word a card from its effect kind and parameters here, one describer per kind of data, so a
components file with other numbers reads right too. Nothing here is a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arabesque.games.djinn.components import (
    COLOURS,
    LOCATIONS,
    REWARD_KINDS,
    Character,
    Components,
    EquipmentCard,
    MageCard,
    Reward,
)

#: A reward kind in words: (one, many); "{n}" is the amount.
REWARD_WORDS: dict[str, tuple[str, str]] = {
    "coins": ("1 coin", "{n} coins"),
    "scrolls": ("1 scroll", "{n} scrolls"),
    "magic": ("1 magic", "{n} magic"),
    "corks": ("1 cork", "{n} corks"),
    "keys": ("1 key", "{n} keys"),
    "capacity": ("+1 capacity", "+{n} capacity"),
    "base": ("+1 base magic", "+{n} base magic"),
    "bottle_any": ("a bottle of any colour", "{n} bottles of any colours"),
    "bottles_different": ("a bottle of any colour", "{n} bottles of different colours"),
    "activate": ("activate a Mage card", "activate up to {n} Mage cards"),
    "circle": ("a new spell circle", "{n} new spell circles"),
    "djinn": ("a Djinn from the bag", "{n} Djinn from the bag"),
    "mage_card": ("a Mage card", "{n} Mage cards"),
    "equipment": ("an Equipment card", "{n} Equipment cards"),
}

#: Location names as a sentence says them.
PLACE_WORDS: dict[str, str] = {
    "academy": "the Academy",
    "tavern": "the Tavern",
    "catacombs": "the Catacombs",
    "archives": "the Archives",
    "manufactory": "the Manufactory",
    "market": "the Market",
    "source": "the Magic Source",
}


def place_words(location: str) -> str:
    return PLACE_WORDS.get(location, location.replace("_", " "))


def amount_words(kind: str, n: int) -> str:
    """One reward kind and its amount: "1 coin", "3 scrolls", "lose 2 magic"."""
    one, many = REWARD_WORDS.get(kind, ("1 " + kind.replace("_", " "), "{n} " + kind))
    many = many.replace("_", " ")
    if n < 0:
        return "lose " + (one if n == -1 else many.format(n=-n))
    return one if n == 1 else many.format(n=n)


def and_list(words: Iterable[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def reward_words(reward: Reward | Mapping[str, int], nothing: str = "nothing") -> str:
    """A reward as (kind index, amount) pairs or as the views write one ({"coins": 2})."""
    pairs = (
        list(reward.items())
        if isinstance(reward, Mapping)
        else [(REWARD_KINDS[k], a) for k, a in reward]
    )
    return ", ".join(amount_words(k, int(a)) for k, a in pairs if a) or nothing


def plural(n: int, word: str) -> str:
    """ "1 coin", "2 coins", "0 coins"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def mage_words(card: MageCard) -> str:
    """ "Mage card 5: power 2, cost 1, red +1, with a key"."""
    bonus = "".join(f", {COLOURS[c]} +{b}" for c, b in enumerate(card.bonus) if b)
    key = ", with a key" if card.key else ""
    return f"Mage card {card.id}: power {card.power}, cost {card.cost}{bonus}{key}"


def seats_words(seats: Iterable[int]) -> str:
    """Seats as the core words them ("player 1 and player 2"); front ends put names in."""
    return and_list(f"player {q}" for q in seats)


def character_words(comp: Components, tile: Character) -> str:
    """What a character tile does, from its effect kind and the numbers it works with."""
    n = comp.numbers
    effect = tile.effect
    if effect == "start_reward":
        return "at the start: " + reward_words(tile.reward)
    per = max(1, comp.per_djinn - 1)
    corks = n.get("manufactory_special_corks", 2) + 1
    words = {
        "market_free": "pays nobody at the Market",
        "tavern_key": "a key with each Mage card that shows none",
        "manufactory_corks": f"{corks} corks from the Manufactory's special action",
        "source_price": "the Magic Source's second row always costs 2 scrolls",
        "academy_activate": "the Academy's magic may also activate Mage cards",
        "movement_free": "pays nobody for sharing a space",
        "djinn_discount": f"each Djinn needs only {per} power to catch",
        "catacombs_key": "a key with every Catacombs action",
        "circle_cover": "one active spell circle starts covered (2 magic when activated)",
        "green_only": "Mage cards give only their green power, no colour bonus",
        "no_activate": "may never activate Mage cards",
        "catacombs_basic_only": "only the basic Catacombs action, also at the round space",
        "mage_inactive": "new Mage cards come inactive",
        "catch_first": "at a round space, catch before taking its action",
        "no_chest_keys": "may not pay keys for chests' extra rewards",
        "no_forfeit": "may not forfeit a space's actions",
        "secret_scoring": "2 secret scoring cards: the better one scores at the end",
    }
    return words.get(effect, effect.replace("_", " "))


def equipment_words(card: EquipmentCard) -> str:
    """What an Equipment card does, from its effect kind and parameters."""
    effect = card.effect
    reward = reward_words(card.reward)
    if effect == "location_reward":
        where = place_words(LOCATIONS[card.location]) if card.location >= 0 else "its location"
        return f"{reward} on reaching {where}"
    if effect == "catch_power":
        return f"+{card.amount} power in every catch"
    if effect == "once_reward":
        return f"once: {reward}"
    if effect == "bottle_trade":
        bottles = "an empty bottle" if card.amount == 1 else f"up to {card.amount} empty bottles"
        return f"once: trade {bottles} for other colours"
    if effect == "market_stay":
        return "once: stay on your Market tent"
    if effect == "catacombs_extra":
        return "one more chest in the Catacombs, then discard one"
    return effect.replace("_", " ")


__all__ = [
    "REWARD_WORDS",
    "amount_words",
    "and_list",
    "character_words",
    "equipment_words",
    "mage_words",
    "place_words",
    "plural",
    "reward_words",
    "seats_words",
]
