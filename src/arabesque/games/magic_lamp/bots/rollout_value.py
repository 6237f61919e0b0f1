"""The search bots' evaluation of a Magic Lamp position, read from the state directly.

What the heuristic bot knows (evaluation.py, search.py), cheaply. Each seat's *potential*
score is a point per card, each complete set's bonus plus a share of it for pieces held
beyond complete sets (less as the game nears its end), each stone majority's bonus smoothed
by the lead and by how far the game is (a lead of one is often lost early, rarely late), and
the ring; plus what the turn still promises the seat: the searches its dice won (the expected
cards of the best stopping rule, valued at the seat's mean gain per card of that chest), the
draw it is making, and its wishes (a won lamp race, shared between the seats that may win
it). The value is the seat's potential against the best rival's through a logistic
(agents/evaluation).

A search's expected cards come from an exact push-your-luck dynamic programme over the
chest's *composition*, which is public (a determinization only reorders it): its cards
counted by scorpions, and how deep the Sorcerer lies (``search_expectation``). Results are
memoized by composition, so an evaluation costs microseconds once the few compositions of a
game have been seen.
"""

from __future__ import annotations

from typing import Any

from arabesque.agents.evaluation import margin_value, margin_values, outcome_value, outcome_values
from arabesque.core.game import GameState
from arabesque.core.observer import cached_on
from arabesque.games.magic_lamp.bots.evaluation import _EARLY_MAJORITY, _SET_PROGRESS, WISH_VALUE
from arabesque.games.magic_lamp.components import (
    CHESTS,
    JEWELS,
    METALS,
    SORCERER_FROM_BOTTOM,
    CardKind,
    Components,
    EffectKind,
)
from arabesque.games.magic_lamp.rules import (
    MAJORITY_BONUS,
    RING_BONUS,
    RING_FACE,
    chest_drawer,
    shared_faces,
)
from arabesque.games.magic_lamp.rules.cards import stone_counts
from arabesque.games.magic_lamp.state import DecisionKind, MagicLampState, Phase

_SORCERER = CardKind.SORCERER
_TALISMAN = CardKind.TALISMAN
_SETTING = Phase.SETTING
_RACE = Phase.RACE
_RESOLVE = Phase.RESOLVE
_DRAW = DecisionKind.DRAW
_WISH = DecisionKind.WISH
_EFFECT_CARD = DecisionKind.EFFECT_CARD
_ANGRY_STEAL = DecisionKind.ANGRY_STEAL
_ANGRY_TARGET = DecisionKind.ANGRY_TARGET
_RETRIEVE = DecisionKind.RETRIEVE
_EFFECT_CHEST = DecisionKind.EFFECT_CHEST
_SWAP_OWN = DecisionKind.SWAP_OWN
_SWAP_THEIRS = DecisionKind.SWAP_THEIRS
_DIE_CHANGES = (DecisionKind.EFFECT_DIE, DecisionKind.EFFECT_FACE, DecisionKind.EFFECT_MOVE)
_DRAW_CHEST = EffectKind.DRAW_CHEST
_NUM_JEWELS = len(JEWELS)
_NUM_METALS = len(METALS)
_NUM_CHESTS = len(CHESTS)
#: Logistic width of the potential margin, in points, at the end of a game: a lead of a few
#: points then decides it.
SCALE = 3.0
#: The width added at the start of a game, by player count: what is still to come spreads
#: the final margin (at 2 players, with two dice each, a game ends near 50 points a seat
#: and a turn can swing it by 10).
EARLY_SCALE = {1: 6.0, 2: 9.0, 3: 6.0, 4: 5.0, 5: 4.0}
#: The majority chance by lead, clipped to the table's range.
_EARLY = [_EARLY_MAJORITY[max(-2, min(3, lead))] for lead in range(-2, 4)]
#: What the magic ring's retrieval from the discard pile is reckoned to bring, in points.
_RETRIEVAL = 1.5
#: What a card gained (or lost) by a decision still to take is reckoned to be worth.
CARD_CREDIT = 1.2
#: What a die change still to make (Loaded Die, Secret Passage) is reckoned to bring.
DIE_CHANGE_CREDIT = 1.0
#: What an exchange still to make is reckoned to bring.
SWAP_CREDIT = 0.5
#: The memo of the push-your-luck programme is cleared past this many entries.
_MEMO_LIMIT = 200_000


# ---------------------------------------------------------------------------------------------
# The push-your-luck programme over a chest's composition
# ---------------------------------------------------------------------------------------------

_Result = tuple[float, float, float]
_MEMO: dict[tuple[Any, ...], _Result] = {}


def search_expectation(
    rem: tuple[int, ...],
    sorcerer_at: int,
    left: int,
    margin: int,
    ward: int = 0,
    kept: int = 0,
    ring: float = 0.0,
) -> _Result:
    """(value, expected cards kept, chance of the ring) of the best way to go on searching.

    ``rem`` counts the chest's unseen cards by scorpions (the Sorcerer apart), which lie in a
    uniformly random order; ``sorcerer_at`` is how many cards lie above the Sorcerer (-1: not
    in the chest); ``left`` the draws the die still allows; ``margin`` the scorpions that may
    still be drawn without a bust (the die's face minus one minus those drawn); ``ward``
    scorpions still ignored (R19); ``kept`` the cards drawn so far, lost on a bust. The value
    counts a card as 1 and a full draw that wins the ring as ``ring`` (in cards); the policy
    stops when drawing is not worth more."""
    if sorcerer_at >= left:
        sorcerer_at = -1  # out of reach: the same as not there
    key = (rem, sorcerer_at, left, margin, ward, kept, ring)
    got = _MEMO.get(key)
    if got is not None:
        return got
    total = sum(rem)
    if left <= 0:
        out: _Result = (kept + ring, float(kept), 1.0) if ring else (kept, kept, 0.0)
    elif total == 0 and sorcerer_at < 0:
        out = (kept, kept, 0.0)  # R2: the chest is empty, the draw ends
    else:
        if sorcerer_at == 0:
            # R1: the Sorcerer uses up a draw, carries no scorpion and is worth no point.
            go = search_expectation(rem, -1, left - 1, margin, ward, kept, ring)
        else:
            below = sorcerer_at - 1 if sorcerer_at > 0 else -1
            v = c = r = 0.0
            for k, n in enumerate(rem):
                if not n:
                    continue
                absorbed = ward if ward < k else k
                counted = k - absorbed
                if counted > margin:
                    continue  # a bust keeps nothing
                nxt = (*rem[:k], n - 1, *rem[k + 1 :])
                sv, sc, sr = search_expectation(
                    nxt, below, left - 1, margin - counted, ward - absorbed, kept + 1, ring
                )
                p = n / total
                v += p * sv
                c += p * sc
                r += p * sr
            go = (v, c, r)
        out = go if go[0] > kept + 1e-9 else (kept, kept, 0.0)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = out
    return out


class _Tables:
    """Per-card facts of a components set the evaluation needs, as flat tuples: scorpions,
    the card's value slot (a stone type, a jewel slot, a talisman, the Sorcerer)."""

    def __init__(self, comp: Components) -> None:
        nt = len(comp.stone_types)
        self.num_types = nt
        self.jewel_base = nt
        self.talisman_slot = nt + _NUM_METALS * _NUM_JEWELS
        self.sorcerer_slot = self.talisman_slot + 1
        self.num_slots = self.sorcerer_slot + 1
        self.classes = 1 + max(card.scorpions for card in comp.cards)
        self.scorpions = tuple(card.scorpions for card in comp.cards)
        slots = []
        for cid, card in enumerate(comp.cards):
            if card.kind is _SORCERER:
                slots.append(self.sorcerer_slot)
            elif card.kind is _TALISMAN:
                slots.append(self.talisman_slot)
            elif comp.jewel_slot[cid] >= 0:
                slots.append(self.jewel_base + comp.jewel_slot[cid])
            else:
                slots.append(comp.stone_of[cid])
        self.slot = tuple(slots)
        self.start_above = min(len(ids) for ids in comp.chest_cards) - 1 - SORCERER_FROM_BOTTOM


def _tables(comp: Components) -> _Tables:
    return cached_on(comp, "_rollout_tables", lambda: _Tables(comp))


class _Chest:
    """A chest's composition: unseen cards by scorpions, cards above the Sorcerer (-1: gone),
    and cards by value slot."""

    __slots__ = ("by_slot", "rem", "sorcerer_at")

    def __init__(self, state: MagicLampState, c: int, tables: _Tables) -> None:
        deck = state.decks[c]
        scorpions = tables.scorpions
        slot = tables.slot
        rem = [0] * tables.classes
        by_slot = [0] * tables.num_slots
        sorcerer = state.comp.sorcerers[c]
        for cid in deck:
            if cid != sorcerer:
                rem[scorpions[cid]] += 1
                by_slot[slot[cid]] += 1
        self.rem = tuple(rem)
        self.by_slot = by_slot
        self.sorcerer_at = len(deck) - 1 - deck.index(sorcerer) if sorcerer in deck else -1


# ---------------------------------------------------------------------------------------------
# The potential scores
# ---------------------------------------------------------------------------------------------


def progress(state: MagicLampState) -> float:
    """How far the game is: the nearest Sorcerer's depth against where it starts (1 once
    the cave is closed)."""
    if state.cave_closed:
        return 1.0
    sorcerers = state.comp.sorcerers
    nearest = -1
    for c, deck in enumerate(state.decks):
        s = sorcerers[c]
        if s in deck:
            above = len(deck) - 1 - deck.index(s)
            if nearest < 0 or above < nearest:
                nearest = above
    if nearest < 0:
        return 1.0
    start = _tables(state.comp).start_above
    return min(1.0, max(0.0, 1.0 - nearest / max(1, start)))


class _Potentials:
    """Every seat's potential score now, and what one more card of a slot adds to it."""

    def __init__(self, state: MagicLampState) -> None:
        comp = state.comp
        self.state = state
        self.tables = tables = _tables(comp)
        n = state.num_players
        slot_of = comp.jewel_slot
        set_bonus = comp.set_bonus
        done = progress(state)
        self.mix = done * done
        self.set_share = set_share = 1.0 - 0.7 * done
        self.counts = counts = [stone_counts(state, p) for p in range(n)]
        self.jewels: list[list[int]] = []
        self.best_rival: list[list[int]] = []
        self.values: list[float] = []
        self._gains: dict[int, list[float]] = {}
        for p in range(n):
            slots = [0] * (_NUM_METALS * _NUM_JEWELS)
            cards = 0
            for c in state.holdings[p]:
                if comp.kinds[c] is not _SORCERER:
                    cards += 1
                s = slot_of[c]
                if s >= 0:
                    slots[s] += 1
            self.jewels.append(slots)
            value = float(cards)
            for m in range(_NUM_METALS):
                pieces = slots[m * _NUM_JEWELS : (m + 1) * _NUM_JEWELS]
                full = min(pieces)
                extra = sum(1 for x in pieces if x > full)
                value += set_bonus[m] * (full + _SET_PROGRESS[min(extra, 2)] * set_share)
            mine_all = counts[p]
            best = [
                max(counts[q][t] for q in range(n) if q != p) if n > 1 else 0
                for t in range(tables.num_types)
            ]
            self.best_rival.append(best)
            for t, mine in enumerate(mine_all):
                value += self._majority(mine, mine - best[t])
            if state.params.my_precious and state.ring == p:
                value += RING_BONUS
            self.values.append(value)

    def _majority(self, mine: int, lead: int) -> float:
        if mine <= 0:
            return 0.0
        early = _EARLY[max(-2, min(3, lead)) + 2]
        return MAJORITY_BONUS * ((1.0 - self.mix) * early + self.mix * (1.0 if lead > 0 else 0.0))

    def gains(self, p: int) -> list[float]:
        """What one more card of each value slot adds to seat p's potential."""
        got = self._gains.get(p)
        if got is not None:
            return got
        tables = self.tables
        set_bonus = self.state.comp.set_bonus
        out = [0.0] * tables.num_slots
        mine_all = self.counts[p]
        best = self.best_rival[p]
        best_stone = 0.0
        for t, mine in enumerate(mine_all):
            lead = mine - best[t]
            gain = self._majority(mine + 1, lead + 1) - self._majority(mine, lead)
            out[t] = 1.0 + gain
            if mine > 0 and gain > best_stone:
                best_stone = gain
        pieces_all = self.jewels[p]
        share = self.set_share
        for m in range(_NUM_METALS):
            pieces = pieces_all[m * _NUM_JEWELS : (m + 1) * _NUM_JEWELS]
            before = _set_value(pieces, set_bonus[m], share)
            for j in range(_NUM_JEWELS):
                pieces[j] += 1
                after = _set_value(pieces, set_bonus[m], share)
                pieces[j] -= 1
                out[tables.jewel_base + m * _NUM_JEWELS + j] = 1.0 + after - before
        out[tables.talisman_slot] = 1.0 + best_stone
        self._gains[p] = out
        return out

    def card_value(self, p: int, chest: _Chest) -> float:
        """Seat p's mean gain per card of the chest's unseen cards."""
        gains = self.gains(p)
        total = 0
        value = 0.0
        for s, n in enumerate(chest.by_slot):
            if n:
                total += n
                value += n * gains[s]
        return value / total if total else 1.0

    def ring_gain(self, p: int) -> float:
        """What winning the ring brings seat p, in points (0 outside "My Precious")."""
        state = self.state
        if not state.params.my_precious:
            return 0.0
        return _RETRIEVAL + (0.0 if state.ring == p else RING_BONUS)

    def add_search(
        self, p: int, c: int, face: int, chests: list[_Chest | None], draw: list[Any] | None
    ) -> None:
        """Add to seat p's potential the expected gain of its search of chest c with ``face``
        (``draw``: the draw context of a search under way)."""
        chest = chests[c]
        if chest is None:
            chest = chests[c] = _Chest(self.state, c, self.tables)
        per_card = self.card_value(p, chest)
        ring = self.ring_gain(p) if face == RING_FACE else 0.0
        ring_cards = round(ring / per_card, 1) if ring and per_card > 0 else 0.0
        ward = self.state.ward[p]
        if draw is None:
            _, cards, p_ring = search_expectation(
                chest.rem, chest.sorcerer_at, face, face - 1, ward, 0, ring_cards
            )
        else:
            drawn = draw[3]
            sorcerer = self.state.comp.sorcerers[c]
            kept = len(drawn) - (1 if sorcerer in drawn else 0)
            _, cards, p_ring = search_expectation(
                chest.rem,
                chest.sorcerer_at,
                face - len(drawn),
                face - 1 - draw[4],
                ward,
                kept,
                ring_cards,
            )
        self.values[p] += cards * per_card + p_ring * ring
        holder = self.state.ring
        if p_ring and holder >= 0 and holder != p:
            self.values[holder] -= p_ring * RING_BONUS


def _set_value(pieces: list[int], bonus: int, share: float) -> float:
    full = min(pieces)
    extra = sum(1 for x in pieces if x > full)
    return bonus * (full + _SET_PROGRESS[min(extra, 2)] * share)


def potentials(state: MagicLampState) -> list[float]:
    """Each seat's potential score (see the module's docstring)."""
    pots = _Potentials(state)
    phase = state.phase
    if phase is _SETTING:
        return pots.values
    chests: list[_Chest | None] = [None] * _NUM_CHESTS
    dice = state.dice
    if phase is _RACE:
        for c in range(_NUM_CHESTS):
            on = [(p, f) for p, ds in enumerate(dice) for dc, f in ds if dc == c]
            drawer = chest_drawer(on)
            if drawer is not None and state.decks[c]:
                face = next(f for p, f in on if p == drawer)
                pots.add_search(drawer, c, face, chests, None)
        for f in shared_faces(state):
            seats = [p for p, ds in enumerate(dice) if any(df == f for _, df in ds)]
            for p in seats:
                pots.values[p] += WISH_VALUE / len(seats)
        return pots.values
    if phase is not _RESOLVE:
        return pots.values
    n = state.num_players
    draw = state.draw_ctx
    if draw is not None:
        pots.add_search(draw[0], draw[1], draw[2], chests, draw)
    values = pots.values
    pending = state.pending
    if pending is not None:
        kind, seat, _, ctx = pending
        gain, loss = _pending_credit(state, kind, ctx)
        values[seat] += gain
        if loss:
            # The card taken or lost comes from (or goes to) a rival: spread over them.
            victims = [ctx[0]] if kind is _ANGRY_STEAL else [q for q in range(n) if q != seat]
            for q in victims:
                values[q] -= loss / len(victims)
    for task in state.agenda:
        name = task[0]
        if name == "search":
            c = task[1]
            on = [(p, f) for p, ds in enumerate(dice) for dc, f in ds if dc == c]
            drawer = chest_drawer(on)
            if drawer is not None and state.decks[c]:
                face = next(f for p, f in on if p == drawer)
                pots.add_search(drawer, c, face, chests, None)
        elif name == "wish":
            values[task[1]] += WISH_VALUE
        elif name == "retrieve":
            values[task[1]] += CARD_CREDIT * task[2]
        elif name == "angry":
            rubber = task[1]
            values[rubber] -= CARD_CREDIT
            for q in range(n):
                if q != rubber:
                    values[q] += CARD_CREDIT / (n - 1)
    return values


def _pending_credit(
    state: MagicLampState, kind: DecisionKind, ctx: tuple[Any, ...]
) -> tuple[float, float]:
    """What a decision waited for promises its seat (points), and what it costs the rivals
    (or, at an angry Genie's theft, the rubber): roughly what it brings once taken well, so
    the value of a won lamp race does not drop when its wishes start."""
    if kind is _WISH:
        return WISH_VALUE, 0.0
    if kind is _EFFECT_CARD or kind is _ANGRY_STEAL:
        return CARD_CREDIT, CARD_CREDIT
    if kind is _ANGRY_TARGET:
        return -CARD_CREDIT, -CARD_CREDIT
    if kind is _RETRIEVE:
        return CARD_CREDIT, 0.0
    if kind is _EFFECT_CHEST:
        lamp = state.comp.lamp_cards[ctx[0]]
        return (CARD_CREDIT * lamp.count if lamp.effect is _DRAW_CHEST else 0.0), 0.0
    if kind in _DIE_CHANGES:
        return DIE_CHANGE_CREDIT, 0.0
    if kind is _SWAP_OWN or kind is _SWAP_THEIRS:
        return SWAP_CREDIT, 0.0
    return 0.0, 0.0


def evaluate(state: GameState, seat: int) -> float:
    """The value in [0, 1] of ``state`` for ``seat``: its outcome when over, else its
    potential margin over the best rival."""
    assert isinstance(state, MagicLampState)
    if state.over:
        return outcome_value(state, seat)
    return margin_value(potentials(state), seat, scale(state))


def evaluate_all(state: GameState) -> list[float]:
    """``evaluate`` for every seat at once (the potentials computed once)."""
    assert isinstance(state, MagicLampState)
    if state.over:
        return outcome_values(state)
    return margin_values(potentials(state), scale(state))


def scale(state: MagicLampState) -> float:
    """The logistic width of the margin: wide early, when much can still change."""
    early = EARLY_SCALE.get(state.num_players, 4.0)
    return SCALE + early * (1.0 - progress(state))
