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
per-card JSON is built once per components (``tables``) and copied. What a player's cards
amount to (stone counts, sets, protection, the card and set points, and the JSON of those
cards) is worked out by one walk over them, with the same rules as the rules package
(rules/cards.py, rules/scoring.py), and remembered by the cards (``holdings_summary``): the
views of every seat of a position, and of the positions after it until somebody's cards
change, copy it instead of working it out again. Only majorities and the ring, which depend
on the other players, are worked out per view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

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
#: A spectator's known chest tops: none.
_NO_KNOWN_TOP: tuple[tuple[int, ...], ...] = ((),) * len(CHESTS)


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
        #: ``holdings_summary``'s memory: a ``Holding`` per (cards held, ``talisman_on`` items).
        self.holdings: dict[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], Holding] = {}

    def __getstate__(self) -> dict[str, Any]:
        # The tables travel with their components (pickled once per bot worker,
        # server/botpool.py): without the memory of hands, which a worker makes its own.
        return {**self.__dict__, "holdings": {}}


def tables(comp: Components) -> Tables:
    """The lookup tables of ``comp``, cached on the (frozen) components object itself, as
    ``cached_property`` does, so a lookup costs one dict access."""
    return cached_on(comp, "_arabesque_view_tables", lambda: Tables(comp))


#: How many players' cards ``holdings_summary`` remembers per components before it forgets
#: them all (a few hundred kilobytes; a game shows a few dozen different hands).
HOLDINGS_MEMO_SIZE = 4096


class Holding(NamedTuple):
    """What one player's cards amount to (``holdings_summary``): the rules' counts, and the
    parts of the player's entry in a view that follow from the cards alone.

    Shared by every view and tensor of the same cards (``holdings_summary`` remembers it):
    read only. The dicts are templates a view copies, never hands out."""

    #: Per stone type, real stones plus talismans placed on it (``rules.stone_count``).
    stones: tuple[int, ...]
    #: Per metal, complete jewelry sets (``rules.complete_sets``).
    sets: tuple[int, ...]
    #: The protected cards: talismans and the jewels of complete sets (R9).
    protected: frozenset[int]
    #: How many cards score 1 (all but a Sorcerer).
    cards: int
    #: Per card held, in order, its JSON in the view (a ``Tables`` entry).
    entries: tuple[dict[str, Any], ...]
    #: ``stones`` and ``sets`` by name, as the view gives them.
    stones_json: dict[str, int]
    sets_json: dict[str, int]
    #: The score breakdown (``score_of``'s keys and order) with no majority and no ring.
    breakdown: dict[str, int]
    #: The breakdown's total: the cards plus the set bonuses.
    points: int


def holdings_summary(state: MagicLampState, t: Tables) -> list[Holding]:
    """Per player, their ``Holding``: ``rules.stone_count``, ``complete_sets`` and
    ``protected_cards`` at once.

    A player's holding depends only on their cards, in order, and the talismans' places, so
    it is remembered by those (``Tables.holdings``): every seat's view of one position, and
    the next positions until somebody's cards change, find it made. A key holds the whole
    ``talisman_on``, so a placement anywhere makes every hand's key new; rare, and never
    wrong."""
    memo = t.holdings
    talisman_on = state.talisman_on
    placed = tuple(talisman_on.items())
    out: list[Holding] = []
    for held in state.holdings:
        key = (tuple(held), placed)
        found = memo.get(key)
        if found is None:
            found = _holding(t, held, talisman_on)
            if len(memo) >= HOLDINGS_MEMO_SIZE:
                memo.clear()
            memo[key] = found
        out.append(found)
    return out


def _holding(t: Tables, held: list[int], talisman_on: dict[int, int]) -> Holding:
    """One player's ``Holding``, by one walk over the cards (two when something is
    protected), with the same rules as rules/cards.py and rules/scoring.py."""
    code = t.code
    k = t.num_stones
    talisman_code = t.talisman_code
    counts = [0] * t.num_codes
    for c in held:
        counts[code[c]] += 1
    stones = counts[:k]
    # The slots are metal-major (``Components.jewel_slot``): three jewels per metal.
    sets = (
        min(counts[k], counts[k + 1], counts[k + 2]),
        min(counts[k + 3], counts[k + 4], counts[k + 5]),
        min(counts[k + 6], counts[k + 7], counts[k + 8]),
    )
    protected: set[int] = set()
    if counts[talisman_code] or sets[0] or sets[1] or sets[2]:
        # rulebook, Talismans and "What do the cards you draw do?": talismans are
        # protected and count as a stone of the type they are placed on; the jewels of
        # complete sets are protected, the earliest gained pieces forming the sets (R9).
        is_talisman = t.is_talisman
        slot = t.slot
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
        entry = t.entry
        talisman_entry = t.talisman_entry
        entries = tuple(
            talisman_entry[c][talisman_on.get(c)] if is_talisman[c] else entry[c][c in protected]
            for c in held
        )
    else:
        entries = tuple(map(t.unprotected.__getitem__, held))
    cards = len(held) - counts[talisman_code + 1]
    bonus = t.set_bonus
    set0, set1, set2 = sets[0] * bonus[0], sets[1] * bonus[1], sets[2] * bonus[2]
    s0, s1, s2 = t.set_keys
    m0, m1, m2, m3 = t.majority_keys  # the components have 4 stone types (validated)
    st0, st1, st2, st3 = t.stone_types
    # Positional: a NamedTuple built by keywords costs twice as much.
    return Holding(
        tuple(stones),
        sets,
        frozenset(protected),
        cards,
        entries,
        {st0: stones[0], st1: stones[1], st2: stones[2], st3: stones[3]},
        {_BRONZE: sets[0], _SILVER: sets[1], _GOLD: sets[2]},
        {"cards": cards, s0: set0, s1: set1, s2: set2, m0: 0, m1: 0, m2: 0, m3: 0, "ring": 0},
        cards + set0 + set1 + set2,
    )


def majority_holders(summary: list[Holding]) -> list[int]:
    """Per stone type, the player with the strict majority of it, or -1 (rulebook, "How do
    I count my points?": a strict majority only; ties and nobody score nothing)."""
    out = []
    # Per stone type, each player's count of it.
    for count in zip(*[h.stones for h in summary], strict=True):
        best = max(count)
        out.append(count.index(best) if best and count.count(best) == 1 else -1)
    return out


def score_of(
    state: MagicLampState, t: Tables, summary: list[Holding], majorities: list[int], p: int
) -> dict[str, int]:
    """``rules.score_breakdowns(state)[p]`` from a summary (same keys, same order);
    ``build_view`` writes the same inline, for every player of every view."""
    breakdown = summary[p].breakdown.copy()
    for st, holder in enumerate(majorities):
        if holder == p:
            breakdown[t.majority_keys[st]] = MAJORITY_BONUS
    if state.ring == p and state.params.my_precious:
        breakdown["ring"] = RING_BONUS
    return breakdown


def score_totals(state: MagicLampState, t: Tables, summary: list[Holding]) -> list[int]:
    """Per player, ``sum(score_of(...).values())`` without building the breakdowns."""
    majorities = majority_holders(summary)
    ring = state.ring if state.params.my_precious else -2
    totals = []
    for p, hand in enumerate(summary):
        total = hand.points + MAJORITY_BONUS * majorities.count(p)
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
    majorities = majority_holders(summary)
    majority_keys = t.majority_keys
    majority_bonus = MAJORITY_BONUS
    ring = state.ring
    # The seat whose ring scores, if any (My Precious): never a seat without the variant.
    ring_scorer = ring if state.params.my_precious else -2
    all_dice = state.dice
    rubs = state.rub
    wards = state.ward
    known_top = state.known_top
    chest_names = CHESTS
    players = []
    for p, hand in enumerate(summary):
        _, _, _, _, entries, stones_json, sets_json, breakdown, total = hand
        breakdown = breakdown.copy()
        if p in majorities:
            for st, holder in enumerate(majorities):
                if holder == p:
                    breakdown[majority_keys[st]] = majority_bonus
                    total += majority_bonus
        if ring_scorer == p:
            breakdown["ring"] = RING_BONUS
            total += RING_BONUS
        dice = all_dice[p]
        own = p == seat
        rub: Any = None
        if racing:
            if own:
                ms = rubs[p]
                rub = "undecided" if ms == UNDECIDED else "no-rub" if ms == NO_RUB else ms
            else:
                rub = HIDDEN
        # Before the reveal, only the seat's own progress is known (module doc).
        dice_set: int | None = None
        shown: list[dict[str, Any]] | None = None
        if revealed or own:
            dice_set = len(dice)
            if dice_set == 1:  # one die each (two with 2 players): no comprehension to call
                ((chest, face),) = dice
                shown = [{"chest": chest_names[chest], "face": face}]
            else:
                shown = [{"chest": chest_names[c], "face": f} for c, f in dice]
        known = known_top[p]
        players.append(
            {
                "seat": p,
                "cards": list(map(_copy, entries)),
                "stones": stones_json.copy(),
                "sets": sets_json.copy(),
                "ring": ring == p,
                "dice_set": dice_set,
                "dice": shown,
                "race": rub,
                "ward": wards[p],
                "score": total,
                "score_breakdown": breakdown,
                "known_top_counts": {
                    _BRONZE: len(known[0]),
                    _SILVER: len(known[1]),
                    _GOLD: len(known[2]),
                },
            }
        )
    card_json = t.card_json
    # The cards on top of each chest this seat knows (a spectator: none).
    known_here: Sequence[Sequence[int]] = _NO_KNOWN_TOP if seat is None else known_top[seat]
    chests = []
    for c, name in enumerate(CHESTS):
        deck = state.decks[c]
        try:
            above: int | None = len(deck) - 1 - deck.index(t.sorcerers[c])
        except ValueError:
            above = None
        top = known_here[c]
        chests.append(
            {
                "name": name,
                "cards_left": len(deck),
                "sorcerer_in_chest": above is not None,
                "cards_above_sorcerer": above,
                "known_top": list(map(_copy, map(card_json.__getitem__, top))) if top else [],
            }
        )
    lamp_known = state.lamp_known
    discard = state.discard
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
            "known_bottom": (
                list(map(_copy, map(t.lamp_json.__getitem__, state.lamp_deck[:lamp_known])))
                if lamp_known
                else []
            ),
        },
        "discard": list(map(_copy, map(card_json.__getitem__, discard))) if discard else [],
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
