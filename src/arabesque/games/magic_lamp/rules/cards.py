"""Who holds what: stone counts, jewelry sets, protected and stealable cards, and the moves
of a card from a chest or a player to a player.

rulebook, "What do the cards you draw do?" (the cards of a complete set are safe) and
"Talismans" (a talisman stands for a stone type, cannot be stolen or exchanged, and is left
alone for good when its owner's last stone of that type goes). Every chapter that moves a card
goes through ``gain_card``, ``lose_card`` and ``pop_chest``.
"""

from __future__ import annotations

from arabesque.games.magic_lamp.components import JEWELS, METALS, CardKind
from arabesque.games.magic_lamp.state import LONE, MagicLampState

# Enum members as module constants: an enum class attribute lookup costs several times a
# global's on the hot path.
_TALISMAN = CardKind.TALISMAN
_NUM_JEWELS = len(JEWELS)
_NUM_SLOTS = len(METALS) * len(JEWELS)


def real_stones(state: MagicLampState, player: int, stone_type: int) -> int:
    stone_of = state.comp.stone_of
    return sum(1 for c in state.holdings[player] if stone_of[c] == stone_type)


def stone_count(state: MagicLampState, player: int, stone_type: int) -> int:
    """Stones of a type for majorities: real stones plus talismans placed on that type."""
    return stone_counts(state, player)[stone_type]


def stone_counts(state: MagicLampState, player: int) -> list[int]:
    """``stone_count`` for every stone type at once (one walk over the holdings)."""
    comp = state.comp
    kinds = comp.kinds
    stone_of = comp.stone_of
    talisman_on = state.talisman_on
    counts = [0] * len(comp.stone_types)
    for c in state.holdings[player]:
        t = stone_of[c]
        if t < 0 and kinds[c] is _TALISMAN:
            t = talisman_on.get(c, LONE)
        if 0 <= t < len(counts):
            counts[t] += 1
    return counts


def _slot_counts(slot: tuple[int, ...], held: list[int]) -> list[int]:
    """Jewels held per (metal, jewel) slot (``Components.jewel_slot``)."""
    counts = [0] * _NUM_SLOTS
    for c in held:
        s = slot[c]
        if s >= 0:
            counts[s] += 1
    return counts


def _sets_of(counts: list[int]) -> list[int]:
    return [min(counts[m * _NUM_JEWELS : (m + 1) * _NUM_JEWELS]) for m in range(len(METALS))]


def complete_sets(state: MagicLampState, player: int) -> list[int]:
    """Number of complete jewelry sets per metal (three different pieces, same metal)."""
    return _sets_of(_slot_counts(state.comp.jewel_slot, state.holdings[player]))


def protected_cards(state: MagicLampState, player: int) -> set[int]:
    """Cards that can be neither stolen nor exchanged: talismans, and the jewels of complete
    sets (rulebook, "What do the cards you draw do?" and "Talismans"). When a player holds
    a spare piece beyond their sets, the earliest gained pieces form the sets (R9)."""
    comp = state.comp
    kinds = comp.kinds
    slot = comp.jewel_slot
    held = state.holdings[player]
    sets = _sets_of(_slot_counts(slot, held))
    taken = [0] * _NUM_SLOTS
    protected: set[int] = set()
    for c in held:
        if kinds[c] is _TALISMAN:
            protected.add(c)
            continue
        s = slot[c]
        if s >= 0 and taken[s] < sets[s // _NUM_JEWELS]:
            taken[s] += 1
            protected.add(c)
    return protected


def stealable_cards(state: MagicLampState, player: int) -> list[int]:
    """Jewels and stones that may be stolen or exchanged, in holding order (everything
    ``protected_cards`` leaves, less talismans and Sorcerers)."""
    comp = state.comp
    tradeable = comp.tradeable
    slot = comp.jewel_slot
    held = state.holdings[player]
    out = [c for c in held if tradeable[c]]
    if len(out) < _NUM_JEWELS:
        return out  # too few cards for a complete set, so nothing is protected
    sets = _sets_of(_slot_counts(slot, out))
    if not any(sets):
        return out
    # The earliest gained pieces of each complete set are protected (R9).
    taken = [0] * _NUM_SLOTS
    unprotected: list[int] = []
    for c in out:
        s = slot[c]
        if s >= 0 and taken[s] < sets[s // _NUM_JEWELS]:
            taken[s] += 1
            continue
        unprotected.append(c)
    return unprotected


def lose_card(state: MagicLampState, player: int, card_id: int) -> None:
    """Remove a card from a player; talismans on a stone type they no longer hold are left
    alone for good (rulebook, Talismans: "the talisman is left alone")."""
    state.holdings[player].remove(card_id)
    stone = state.comp.stone_of[card_id]
    if stone >= 0:  # a stone card
        if real_stones(state, player, stone) > 0:
            return
        for t, on in state.talisman_on.items():
            if on == stone and t in state.holdings[player]:
                state.talisman_on[t] = LONE
                state.log("talisman_alone", player=player, card=t)


def gain_card(state: MagicLampState, player: int, card_id: int) -> None:
    state.holdings[player].append(card_id)
    if state.comp.kinds[card_id] is _TALISMAN:
        state.agenda.insert(0, ("talisman", player, card_id))


def pop_chest(state: MagicLampState, chest: int) -> int:
    card_id = state.decks[chest].pop()
    for per in state.known_top:
        if per[chest]:
            del per[chest][0]
    return card_id
