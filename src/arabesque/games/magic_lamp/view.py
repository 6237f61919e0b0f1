"""What one seat may know of a Magic Lamp game (None = a spectator).

Secret: dice set but not yet revealed, race answers not yet resolved, the order of the chest
decks and of the unseen top of the Lamp pile, and the cards another player peeked at.
Public: every card in front of a player (cards are played face up), the discard pile, deck
sizes, the Sorcerer's place (6th from the bottom, by the setup rule), and every card drawn.

During the secret phases (SETTING, RACE) a seat sees only whether it has itself set its dice
or answered the race, never whether another seat has: a determinized copy takes the other
seats' unrevealed choices back (``rules.resample_hidden``), so showing their progress would
make the view say something determinization does not keep.

Views belong to their reader, who may change them: every dict and list here is fresh. The
per-card JSON is built once per components (``tables``) and copied; derived
quantities (stone counts, sets, protection, scores) are computed once per view, by one walk
over each player's cards, with the same rules as the rules package (rules/cards.py,
rules/scoring.py).
"""

from __future__ import annotations

from typing import Any

from arabesque.core.observer import cached_on
from arabesque.games.magic_lamp.components import CHESTS, JEWELS, METALS, CardKind, Components
from arabesque.games.magic_lamp.decisions import pending_json
from arabesque.games.magic_lamp.rules import MAJORITY_BONUS, RING_BONUS, shared_faces
from arabesque.games.magic_lamp.state import LONE, NO_RUB, UNDECIDED, MagicLampState, Phase

_NUM_JEWELS = len(JEWELS)
_NUM_METALS = len(METALS)
_SETTING = Phase.SETTING
_RACE = Phase.RACE
_RESOLVE = Phase.RESOLVE
#: ``race`` in a player's entry for another seat while the race runs: whether they have
#: answered is not kept by determinization, so it is not shown.
HIDDEN = "hidden"
_BRONZE, _SILVER, _GOLD = CHESTS
#: ``list(map(_copy, map(table.__getitem__, ids)))`` copies table entries without a Python
#: loop per item: the long lists of a view (discard, Lamp pile bottom) are mostly this.
_copy = dict.copy
_PHASE_NAMES = tuple(phase.name.lower() for phase in Phase)


class Tables:
    """Per-components lookup tables for views and tensors, built once (``tables``)."""

    def __init__(self, comp: Components) -> None:
        self.card_json: tuple[dict[str, Any], ...] = tuple(
            comp.card_json(c) for c in range(comp.num_cards)
        )
        #: Per card id, its JSON with ``protected`` False / True (talismans: ``talisman_entry``).
        self.entry: tuple[tuple[dict[str, Any], dict[str, Any]], ...] = tuple(
            ({**j, "protected": False}, {**j, "protected": True}) for j in self.card_json
        )
        self.unprotected = tuple(pair[0] for pair in self.entry)
        #: Per talisman card id, its JSON (protected) per placement: ``talisman_on`` value
        #: None (not placed yet), LONE, or a stone type index.
        self.talisman_entry: dict[int, dict[int | None, dict[str, Any]]] = {
            c: {
                on: {**j, "talisman_on": None if on is None else text, "protected": True}
                for on, text in [(None, ""), (LONE, "alone"), *enumerate(comp.stone_types)]
            }
            for c, j in enumerate(self.card_json)
            if comp.kinds[c] is CardKind.TALISMAN
        }
        self.lamp_json: tuple[dict[str, Any], ...] = tuple(
            comp.lamp_json(x) for x in range(len(comp.lamp_cards))
        )
        self.slot = comp.jewel_slot
        self.is_talisman: tuple[bool, ...] = tuple(k is CardKind.TALISMAN for k in comp.kinds)
        k = len(comp.stone_types)
        #: Per card id, one counter index: its stone type (0..k-1) for a stone, ``k + slot``
        #: for a jewel, then one index for talismans and one for Sorcerers, so one walk over
        #: a player's cards counts stones, set pieces, talismans and Sorcerers at once.
        self.talisman_code = k + _NUM_METALS * _NUM_JEWELS
        self.num_codes = self.talisman_code + 2
        self.code: tuple[int, ...] = tuple(
            comp.stone_of[c]
            if comp.stone_of[c] >= 0
            else k + comp.jewel_slot[c]
            if comp.jewel_slot[c] >= 0
            else self.talisman_code
            if kind is CardKind.TALISMAN
            else self.talisman_code + 1
            for c, kind in enumerate(comp.kinds)
        )
        self.sorcerers = comp.sorcerers
        self.stone_types = comp.stone_types
        self.num_stones = len(comp.stone_types)
        self.set_bonus = comp.set_bonus
        self.set_keys = tuple(f"set_{m}" for m in METALS)
        self.majority_keys = tuple(f"majority_{name}" for name in comp.stone_types)
        #: Per card id, its name without scorpions (in hand they no longer matter).
        self.short_name: tuple[str, ...] = tuple(j["name"].split(" ☠")[0] for j in self.card_json)


def tables(comp: Components) -> Tables:
    """The lookup tables of ``comp``, cached on the (frozen) components object itself, as
    ``cached_property`` does, so a lookup costs one dict access."""
    return cached_on(comp, "_arabesque_view_tables", lambda: Tables(comp))


#: What one player's cards amount to (``holdings_summary``): per stone type, real stones
#: plus talismans placed on it; per metal, complete jewelry sets; the protected cards
#: (talismans and the jewels of complete sets, R9); and how many cards score 1 (all but a
#: Sorcerer). A plain tuple: one is built per player per view and per tensor.
Holding = tuple[list[int], list[int], set[int], int]


def holdings_summary(state: MagicLampState, t: Tables) -> list[Holding]:
    """Per player, their ``Holding`` — ``rules.stone_count``, ``complete_sets`` and
    ``protected_cards`` at once, by one walk over the cards (two when something is
    protected)."""
    code = t.code
    k = t.num_stones
    num_codes = t.num_codes
    talisman_code = t.talisman_code
    talisman_on = state.talisman_on
    is_talisman = t.is_talisman
    slot = t.slot
    out: list[Holding] = []
    for held in state.holdings:
        counts = [0] * num_codes
        for c in held:
            counts[code[c]] += 1
        stones = counts[:k]
        # The slots are metal-major (``Components.jewel_slot``): three jewels per metal.
        sets = [
            min(counts[k], counts[k + 1], counts[k + 2]),
            min(counts[k + 3], counts[k + 4], counts[k + 5]),
            min(counts[k + 6], counts[k + 7], counts[k + 8]),
        ]
        protected: set[int] = set()
        if counts[talisman_code] or sets[0] or sets[1] or sets[2]:
            # rulebook, Talismans and "What do the cards you draw do?": talismans are
            # protected and count as a stone of the type they are placed on; the jewels of
            # complete sets are protected, the earliest gained pieces forming the sets (R9).
            taken = [0] * (_NUM_METALS * _NUM_JEWELS)
            for c in held:
                if is_talisman[c]:
                    protected.add(c)
                    on = talisman_on.get(c, LONE)
                    if on >= 0:
                        stones[on] += 1
                    continue
                s = slot[c]
                if s >= 0 and taken[s] < sets[s // _NUM_JEWELS]:
                    taken[s] += 1
                    protected.add(c)
        out.append((stones, sets, protected, len(held) - counts[talisman_code + 1]))
    return out


def majority_holders(summary: list[Holding], num_stones: int) -> list[int]:
    """Per stone type, the player with the strict majority of it, or -1 (rulebook, "How do
    I count my points?": a strict majority only; ties and nobody score nothing)."""
    out = []
    for st in range(num_stones):
        best = 0
        holder = -1
        for p, h in enumerate(summary):
            count = h[0][st]
            if count > best:
                best = count
                holder = p
            elif count == best:
                holder = -1
        out.append(holder)
    return out


def score_of(
    state: MagicLampState, t: Tables, summary: list[Holding], majorities: list[int], p: int
) -> dict[str, int]:
    """``rules.score_breakdowns(state)[p]`` from a summary (same keys, same order)."""
    _, sets, _, cards = summary[p]
    bonus = t.set_bonus
    s0, s1, s2 = t.set_keys
    m0, m1, m2, m3 = t.majority_keys  # the components have 4 stone types (validated)
    maj = MAJORITY_BONUS
    return {
        "cards": cards,
        s0: sets[0] * bonus[0],
        s1: sets[1] * bonus[1],
        s2: sets[2] * bonus[2],
        m0: maj if majorities[0] == p else 0,
        m1: maj if majorities[1] == p else 0,
        m2: maj if majorities[2] == p else 0,
        m3: maj if majorities[3] == p else 0,
        "ring": RING_BONUS if state.ring == p and state.params.my_precious else 0,
    }


def score_totals(state: MagicLampState, t: Tables, summary: list[Holding]) -> list[int]:
    """Per player, ``sum(score_of(...).values())`` without building the breakdowns."""
    majorities = majority_holders(summary, t.num_stones)
    bonus = t.set_bonus
    ring = state.ring if state.params.my_precious else -2
    totals = []
    for p, (_, sets, _, cards) in enumerate(summary):
        total = cards + sets[0] * bonus[0] + sets[1] * bonus[1] + sets[2] * bonus[2]
        total += MAJORITY_BONUS * majorities.count(p)
        if ring == p:
            total += RING_BONUS
        totals.append(total)
    return totals


def build_view(state: MagicLampState, seat: int | None) -> dict[str, Any]:
    t = tables(state.comp)
    n = state.num_players
    phase = state.phase
    revealed = phase is not _SETTING
    racing = phase is _RACE
    summary = holdings_summary(state, t)
    majorities = majority_holders(summary, t.num_stones)
    entry = t.entry
    card_json = t.card_json
    is_talisman = t.is_talisman
    talisman_on = state.talisman_on
    talisman_entry = t.talisman_entry
    st0, st1, st2, st3 = t.stone_types  # 4 stone types (validated by the components)
    unprotected = t.unprotected
    ring = state.ring
    known_top = state.known_top
    bonus0, bonus1, bonus2 = t.set_bonus
    set_key0, set_key1, set_key2 = t.set_keys
    maj_key0, maj_key1, maj_key2, maj_key3 = t.majority_keys
    maj_holder0, maj_holder1, maj_holder2, maj_holder3 = majorities
    majority_bonus = MAJORITY_BONUS
    ring_scores = state.params.my_precious
    chest_names = CHESTS
    players = []
    for p in range(n):
        stones, sets, protected, _ = summary[p]
        held = state.holdings[p]
        if not protected:  # no talisman (talismans are protected) and no complete set
            cards = list(map(_copy, map(unprotected.__getitem__, held)))
        else:
            cards = [
                talisman_entry[c][talisman_on.get(c)].copy()
                if is_talisman[c]
                else entry[c][c in protected].copy()
                for c in held
            ]
        dice = state.dice[p]
        own = p == seat
        rub: Any = None
        if racing:
            if own:
                ms = state.rub[p]
                rub = "undecided" if ms == UNDECIDED else "no-rub" if ms == NO_RUB else ms
            else:
                rub = HIDDEN
        # ``score_of`` inlined (same keys, same order): it runs for every player of every view.
        cards_points = summary[p][3]
        set0, set1, set2 = sets[0] * bonus0, sets[1] * bonus1, sets[2] * bonus2
        maj0 = majority_bonus if maj_holder0 == p else 0
        maj1 = majority_bonus if maj_holder1 == p else 0
        maj2 = majority_bonus if maj_holder2 == p else 0
        maj3 = majority_bonus if maj_holder3 == p else 0
        ring_points = RING_BONUS if ring_scores and ring == p else 0
        total = cards_points + set0 + set1 + set2 + maj0 + maj1 + maj2 + maj3 + ring_points
        known = known_top[p]
        players.append(
            {
                "seat": p,
                "cards": cards,
                "stones": {st0: stones[0], st1: stones[1], st2: stones[2], st3: stones[3]},
                "sets": {_BRONZE: sets[0], _SILVER: sets[1], _GOLD: sets[2]},
                "ring": ring == p,
                # Before the reveal, only the seat's own progress is known (module doc).
                "dice_set": len(dice) if revealed or own else None,
                "dice": (
                    [{"chest": chest_names[c], "face": f} for c, f in dice]
                    if revealed or own
                    else None
                ),
                "race": rub,
                "ward": state.ward[p],
                "score": total,
                "score_breakdown": {
                    "cards": cards_points,
                    set_key0: set0,
                    set_key1: set1,
                    set_key2: set2,
                    maj_key0: maj0,
                    maj_key1: maj1,
                    maj_key2: maj2,
                    maj_key3: maj3,
                    "ring": ring_points,
                },
                "known_top_counts": {
                    _BRONZE: len(known[0]),
                    _SILVER: len(known[1]),
                    _GOLD: len(known[2]),
                },
            }
        )
    chests = []
    for c, name in enumerate(CHESTS):
        deck = state.decks[c]
        sorcerer = t.sorcerers[c]
        try:
            above: int | None = len(deck) - 1 - deck.index(sorcerer)
        except ValueError:
            above = None
        chests.append(
            {
                "name": name,
                "cards_left": len(deck),
                "sorcerer_in_chest": above is not None,
                "cards_above_sorcerer": above,
                "known_top": (
                    list(map(_copy, map(card_json.__getitem__, state.known_top[seat][c])))
                    if seat is not None
                    else []
                ),
            }
        )
    lamp_json = t.lamp_json
    race_result = state.race_result
    return {
        "turn": state.turn,
        "phase": _PHASE_NAMES[phase],
        "num_players": n,
        "my_precious": state.params.my_precious,
        "max_turns": state.params.max_turns,
        "cave_closed": state.cave_closed,
        "players": players,
        "chests": chests,
        "lamp_pile": {
            "cards": len(state.lamp_deck),
            # Bottom first: the cards everyone saw go under the pile, in order.
            "known_bottom": list(
                map(_copy, map(lamp_json.__getitem__, state.lamp_deck[: state.lamp_known]))
            ),
        },
        "discard": list(map(_copy, map(card_json.__getitem__, state.discard))),
        "shared_faces": sorted(shared_faces(state)) if revealed else None,
        # A copy: the view belongs to its reader, who may change it.
        "race_result": None if race_result is None else _race_result_copy(race_result),
        "summoners": list(state.summoners),
        "pending": pending_json(state) if phase is _RESOLVE else None,
        "draw": _draw_view(state, t),
    }


def _race_result_copy(result: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of ``state.race_result`` (rubs, races, mistaken), cheaper than deepcopy."""
    races = []
    for race in result["races"]:
        copy = dict(race)
        tie = copy.get("tie")
        if tie is not None:
            copy["tie"] = list(tie)
        races.append(copy)
    return {"rubs": dict(result["rubs"]), "races": races, "mistaken": list(result["mistaken"])}


def _draw_view(state: MagicLampState, t: Tables) -> dict[str, Any] | None:
    draw = state.draw_ctx
    if draw is None:
        return None
    player, chest, face, drawn, scorpions = draw
    card_json = t.card_json
    return {
        "player": player,
        "chest": CHESTS[chest],
        "face": face,
        "drawn": [card_json[c].copy() for c in drawn],
        "scorpions": scorpions,
        "ward": state.ward[player],
        "cards_left_in_chest": len(state.decks[chest]),
    }


__all__ = [
    "HIDDEN",
    "Holding",
    "Tables",
    "build_view",
    "holdings_summary",
    "majority_holders",
    "score_of",
    "score_totals",
    "tables",
]
