"""A heuristic Magic Lamp bot that decides from its seat's view only.

Its model of the game, in short:

* **Value of a card.** Every card is worth what it adds to a *potential* score: 1 point per
  card, plus a smoothed chance of winning each stone majority and of completing each jewelry
  set. Gains are *relative*: what the bot gains minus a share of what its rivals gain or lose,
  so breaking a rival's majority counts.
* **Chests.** Each chest's remaining composition is public: its initial cards minus every card
  lying in front of a player, in the discard pile or drawn in the current search. The
  Sorcerer's place is public too, and peeked cards are known. An exact push-your-luck dynamic
  programme over the scorpion classes of the unseen cards gives the value of a search with a
  given die and the draw/stop decision.
* **Dice.** The expected gain of a (chest, face) is the chance that no rival die blocks it
  times the search value, plus the chance of a lamp race on that face; the choice is sampled
  (softmax) so the bot is not predictable, and it avoids repeating last turn's choice.
* **Wishes.** Each Lamp effect is valued in the current situation; a card is kept when it beats
  the expected value of the wishes still to come.

The components themselves (which cards each chest starts with) are public, being the box's
contents; the bot reads them from its observation's public data. It decides on the kind of
its seat's decision (the core's decision model) and reads the rest from its view.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.agents.reaction import ReactionProfile
from arabesque.agents.registry import register_agent
from arabesque.games.magic_lamp import actions as A
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
    MAX_WISHES,
    RING_BONUS,
    RING_FACE,
    chest_drawer,
)

#: Chance of keeping a stone majority by lead (mine minus the best rival), early in the game.
#: Leads are fragile while many cards remain: a lead of one is often lost.
_EARLY_MAJORITY = {-2: 0.03, -1: 0.12, 0: 0.3, 1: 0.62, 2: 0.82, 3: 0.92}
#: Share of a set bonus credited for distinct pieces held beyond complete sets (0, 1, 2).
_SET_PROGRESS = (0.0, 0.12, 0.38)
#: How much a lamp race won is worth on average (a steal or a good draw is 2-4 points).
_WISH_VALUE = 2.5


@dataclass(frozen=True)
class _Kind:
    """What matters about a card for its value: its kind and stone/jewel/metal."""

    kind: str
    stone: int = -1
    jewel: int = -1
    metal: int = -1


def _kind_of(card: dict[str, Any], stone_types: Sequence[str]) -> _Kind:
    kind = card["kind"]
    if kind == "stone":
        return _Kind(kind, stone=stone_types.index(card["stone"]))
    if kind == "jewel":
        return _Kind(kind, jewel=JEWELS.index(card["jewel"]), metal=METALS.index(card["metal"]))
    return _Kind(kind)


def _kinds(comp: Components) -> list[_Kind]:
    """The value-relevant kind of every card, indexed by card id."""
    return [_comp_kind(comp, cid) for cid in range(comp.num_cards)]


def _comp_kind(comp: Components, cid: int) -> _Kind:
    card = comp.cards[cid]
    if card.kind is CardKind.STONE:
        assert card.stone is not None
        return _Kind("stone", stone=card.stone)
    if card.kind is CardKind.JEWEL:
        assert card.jewel is not None and card.metal is not None
        return _Kind("jewel", jewel=card.jewel, metal=card.metal)
    return _Kind(card.kind.value)


class _Board:
    """The public position as counts, with the bot's potential-score model.

    ``eff[p][t]`` counts stones of type t for majorities (real stones plus placed talismans),
    ``real[p][t]`` the real stones only, ``tal[p][t]`` the talismans placed on t, ``jewels[p]
    [m][j]`` the jewel pieces, ``cards[p]`` the cards worth a point.
    """

    def __init__(
        self,
        view: dict[str, Any],
        comp: Components,
        me: int,
        rival_weight: float = 1.0,
        kinds: list[_Kind] | None = None,
        set_hope: float = 1.0,
    ) -> None:
        self.comp = comp
        self.kinds = kinds if kinds is not None else _kinds(comp)
        self.set_progress = [min(1.0, x * set_hope) for x in _SET_PROGRESS]
        self.me = me
        self.n = n = view["num_players"]
        stone_types = comp.stone_types
        self.num_types = nt = len(stone_types)
        self.eff = [[0] * nt for _ in range(n)]
        self.real = [[0] * nt for _ in range(n)]
        self.tal = [[0] * nt for _ in range(n)]
        self.jewels = [[[0] * len(JEWELS) for _ in METALS] for _ in range(n)]
        self.cards = [0] * n
        self.ring = [False] * n
        self.score = [0] * n
        #: (card id, holder) of every card that may be stolen or exchanged.
        self.stealable: list[list[int]] = [[] for _ in range(n)]
        self.card_kind: dict[int, _Kind] = {}
        self.seen: set[int] = set()
        for p, player in enumerate(view["players"]):
            self.ring[p] = bool(player["ring"])
            self.score[p] = int(player["score"])
            for card in player["cards"]:
                cid = int(card["id"])
                self.seen.add(cid)
                k = _kind_of(card, stone_types)
                self.card_kind[cid] = k
                if k.kind != "sorcerer":
                    self.cards[p] += 1
                if k.kind == "stone":
                    self.real[p][k.stone] += 1
                    self.eff[p][k.stone] += 1
                elif k.kind == "jewel":
                    self.jewels[p][k.metal][k.jewel] += 1
                elif k.kind == "talisman":
                    on = card.get("talisman_on")
                    if on in stone_types:
                        t = stone_types.index(on)
                        self.tal[p][t] += 1
                        self.eff[p][t] += 1
                if k.kind in ("stone", "jewel") and not card.get("protected"):
                    self.stealable[p].append(cid)
        self._gains: dict[tuple[_Kind, int], float] = {}
        #: Per-decision caches of the agent (chest models, the search table).
        self.models: dict[int, _ChestModel] = {}
        self.search: list[list[float]] | None = None
        self.discard: list[int] = []
        for card in view["discard"]:
            cid = int(card["id"])
            self.seen.add(cid)
            self.discard.append(cid)
            self.card_kind[cid] = _kind_of(card, stone_types)
        draw = view.get("draw")
        self.drawing: list[int] = []
        if draw is not None:
            for card in draw["drawn"]:
                cid = int(card["id"])
                self.seen.add(cid)
                self.drawing.append(cid)
                self.card_kind[cid] = _kind_of(card, stone_types)

        # How far the game is: the nearest Sorcerer, against where it starts.
        start_above = min(len(ids) for ids in comp.chest_cards) - 1 - SORCERER_FROM_BOTTOM
        aboves = [
            ch["cards_above_sorcerer"]
            for ch in view["chests"]
            if ch["sorcerer_in_chest"] and ch["cards_above_sorcerer"] is not None
        ]
        if view["cave_closed"] or not aboves:
            self.progress = 1.0
        else:
            self.progress = min(1.0, max(0.0, 1.0 - min(aboves) / max(1, start_above)))
        self.cards_to_end = min(aboves) if aboves and not view["cave_closed"] else 0

        # Rivals' weights: the score race is won against the best rival, so the leader
        # matters most, but every rival's gain counts a little.
        if n == 2:
            self.weight = [0.0 if p == me else rival_weight for p in range(n)]
        else:
            rivals = [p for p in range(n) if p != me]
            leader = max(rivals, key=lambda p: self.score[p])
            base = 0.5 / (n - 1)
            self.weight = [
                0.0 if p == me else rival_weight * (base + (0.5 if p == leader else 0.0))
                for p in range(n)
            ]

        # Which jewel pieces may still be had: in a chest, the discard, or stealable.
        self.avail = [[0] * len(JEWELS) for _ in METALS]
        for c in range(len(CHESTS)):
            for cid in comp.chest_cards[c]:
                if cid not in self.seen:
                    self._count_avail(self.kinds[cid])
        for cid in self.discard:
            self._count_avail(self.card_kind[cid])
        for p in range(n):
            if p != me:
                for cid in self.stealable[p]:
                    self._count_avail(self.card_kind[cid])

    def _count_avail(self, k: _Kind) -> None:
        if k.kind == "jewel":
            self.avail[k.metal][k.jewel] += 1

    # -- the potential score ---------------------------------------------------------------

    def _majority(self, lead: int, mine: int) -> float:
        if mine <= 0:
            return 0.0
        early = _EARLY_MAJORITY[max(-2, min(3, lead))]
        late = 1.0 if lead > 0 else 0.0
        # The last cards hardly move majorities: trust the current standing more and more.
        mix = self.progress**2
        return MAJORITY_BONUS * ((1.0 - mix) * early + mix * late)

    def _majority_rel(self, eff: list[list[int]], t: int) -> float:
        """The bot's relative potential on stone type t for these counts."""
        total = 0.0
        n = self.n
        for p in range(n):
            w = 1.0 if p == self.me else -self.weight[p]
            if w == 0.0:
                continue
            mine = eff[p][t]
            best = max(eff[q][t] for q in range(n) if q != p)
            total += w * self._majority(mine - best, mine)
        return total

    def _set_value(self, pieces: list[int], m: int) -> float:
        full = min(pieces)
        extra = sum(1 for x in pieces if x > full)
        bonus = self.comp.set_bonus[m]
        value = float(bonus * full)
        if extra:
            missing = [j for j in range(len(JEWELS)) if pieces[j] <= full]
            if all(self.avail[m][j] > 0 for j in missing):
                value += bonus * self.set_progress[extra] * (1.0 - 0.7 * self.progress)
        return value

    def _sets_rel(self, jewels: list[list[list[int]]], m: int) -> float:
        total = 0.0
        for p in range(self.n):
            w = 1.0 if p == self.me else -self.weight[p]
            if w != 0.0:
                total += w * self._set_value(jewels[p][m], m)
        return total

    def _rel_w(self, p: int) -> float:
        return 1.0 if p == self.me else -self.weight[p]

    def move_value(self, moves: Iterable[tuple[_Kind, int | None, int | None]]) -> float:
        """Relative potential gained when cards move (from, to: a seat, or None for a chest
        or the discard pile). A talisman gained is assumed placed at its best."""
        moves = list(moves)
        types: set[int] = set()
        metals: set[int] = set()
        for k, _, _ in moves:
            if k.kind == "stone":
                types.add(k.stone)
            elif k.kind == "jewel":
                metals.add(k.metal)
        talismans = [to for k, _, to in moves if k.kind == "talisman" and to is not None]
        if talismans:
            types = set(range(self.num_types))
        before = sum(self._majority_rel(self.eff, t) for t in types)
        before += sum(self._sets_rel(self.jewels, m) for m in metals)
        eff = [list(row) for row in self.eff]
        real = [list(row) for row in self.real]
        jewels = [[list(x) for x in per] for per in self.jewels] if metals else self.jewels
        gain = 0.0
        for k, src, dst in moves:
            if k.kind == "sorcerer":
                continue
            if src is not None:
                gain -= self._rel_w(src)
                if k.kind == "stone":
                    real[src][k.stone] -= 1
                    eff[src][k.stone] -= 1
                    if real[src][k.stone] == 0:
                        # rulebook, Talismans: its last stone gone, the talisman is alone.
                        eff[src][k.stone] -= self.tal[src][k.stone]
                elif k.kind == "jewel":
                    jewels[src][k.metal][k.jewel] -= 1
            if dst is not None:
                gain += self._rel_w(dst)
                if k.kind == "stone":
                    real[dst][k.stone] += 1
                    eff[dst][k.stone] += 1
                elif k.kind == "jewel":
                    jewels[dst][k.metal][k.jewel] += 1
        after_sets = sum(self._sets_rel(jewels, m) for m in metals)
        if talismans:
            # Place each gained talisman greedily where it helps most (R14: on a type held
            # as a real stone).
            for dst in talismans:
                options = [t for t in range(self.num_types) if real[dst][t] > 0]
                if not options:
                    continue
                best_t = max(
                    options,
                    key=lambda t: self._tal_gain(eff, dst, t),
                )
                eff[dst][best_t] += 1
        after = sum(self._majority_rel(eff, t) for t in types) + after_sets
        return gain + after - before

    def _tal_gain(self, eff: list[list[int]], p: int, t: int) -> float:
        before = self._majority_rel(eff, t)
        eff[p][t] += 1
        after = self._majority_rel(eff, t)
        eff[p][t] -= 1
        return (after - before) * (1.0 if p == self.me else -1.0)

    def talisman_choice(self, options: Sequence[int]) -> int:
        """The stone type (among ``options``) where a new talisman of mine helps most."""
        return max(options, key=lambda t: self._tal_gain(self.eff, self.me, t))

    def gain(self, k: _Kind, to: int | None = None) -> float:
        """Relative value of a card arriving (from a chest or the discard) to ``to``."""
        who = self.me if to is None else to
        key = (k, who)
        got = self._gains.get(key)
        if got is None:
            if k.kind == "sorcerer":
                got = self.sorcerer_value() if who == self.me else 0.0
            else:
                got = self.move_value([(k, None, who)])
            self._gains[key] = got
        return got

    def sorcerer_value(self) -> float:
        """Ending the game is good for the leader and bad for those behind."""
        best_rival = max(self.score[p] for p in range(self.n) if p != self.me)
        margin = self.score[self.me] - best_rival
        return 0.4 * max(-8.0, min(8.0, float(margin)))


# ---------------------------------------------------------------------------------------------
# Push-your-luck search: an exact dynamic programme over the unseen cards' scorpion classes
# ---------------------------------------------------------------------------------------------


@dataclass
class _ChestModel:
    """What the bot knows of one chest from the top down."""

    known: list[tuple[int, float]]  # (scorpions, value) of the known top cards, top first
    sorcerer_at: int | None  # index from the top of the Sorcerer, if it is in the chest
    sorcerer_value: float
    classes: list[tuple[int, int, float]]  # (scorpions, count, mean value) of unseen cards
    cards_left: int


def search_value(
    model: _ChestModel,
    face: int,
    *,
    drawn: int = 0,
    scorpions: int = 0,
    kept: float = 0.0,
    ward: int = 0,
    ring_value: float = 0.0,
) -> tuple[float, bool]:
    """Expected value kept by the best stopping policy, and whether to draw now.

    ``drawn``/``scorpions``/``kept`` describe the search so far; ``ward`` scorpions still
    ignored (R19). A bust loses everything kept in this search.
    """
    limit = min(face - drawn, model.cards_left)
    classes = model.classes
    nc = len(classes)
    known = model.known
    nk = len(known)
    spos = model.sorcerer_at
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    pool_total = sum(c for _, c, _ in classes)

    def value(i: int, counts: tuple[int, ...], scorp: int, acc: float) -> float:
        key = (i, counts)
        got = memo.get(key)
        if got is not None:
            return got
        stop = acc
        if ring_value and drawn + i == RING_FACE == face:
            stop += ring_value
        if i >= limit:
            memo[key] = stop
            return stop
        go = 0.0
        if i < nk or i == spos:
            s, v = known[i] if i < nk else (0, model.sorcerer_value)
            new = scorp + s
            if scorpions + max(0, new - ward) < face:
                go = value(i + 1, counts, new, acc + v)
        else:
            left = pool_total - sum(counts)
            if left > 0:
                for ci in range(nc):
                    s, count, v = classes[ci]
                    remaining = count - counts[ci]
                    if remaining <= 0:
                        continue
                    new = scorp + s
                    if scorpions + max(0, new - ward) >= face:
                        continue
                    nxt = (*counts[:ci], counts[ci] + 1, *counts[ci + 1 :])
                    go += remaining / left * value(i + 1, nxt, new, acc + v)
        best = max(stop, go)
        memo[key] = best
        return best

    start = value(0, (0,) * nc, 0, kept)
    if limit <= 0:
        return start, False
    # Draw when drawing is worth more than stopping (ties stop: a bird in the hand).
    stop_now = kept + (ring_value if drawn == RING_FACE == face else 0.0)
    return start, start > stop_now + 1e-9


# ---------------------------------------------------------------------------------------------
# The agent
# ---------------------------------------------------------------------------------------------


class HeuristicAgent(Agent):
    """Plays Magic Lamp by expected value from its own view, with human-like reactions.

    Options (spec strings like ``heuristic:median_ms=450+mistake_rate=0.02``):
    ``median_ms``/``sigma``/``floor_ms``/``ceiling_ms`` shape the rub reaction time (a
    log-normal with a floor, see ``ReactionProfile``); ``mistake_rate`` is the chance of rubbing
    without a shared face; ``temperature`` (points) spreads the dice choice; ``wish_value``
    is what a won lamp race is reckoned to be worth; ``rival_weight`` scales how much the bot
    cares about its rivals' gains against its own (0.5 measured slightly better than 1 or
    0.1 in self-play); ``repeat_penalty`` (points) discourages repeating last turn's dice;
    ``set_hope`` scales the credit given to unfinished jewelry sets; ``depth`` (1-3) is how
    many levels the bot reasons about its rivals' dice (default: 2, or 1 in "My Precious").
    """

    def __init__(
        self,
        seed: int | None = None,
        median_ms: float = 600.0,
        sigma: float = 0.3,
        floor_ms: float = 300.0,
        mistake_rate: float = 0.0,
        temperature: float = 0.6,
        ceiling_ms: float = 2500.0,
        wish_value: float = _WISH_VALUE,
        rival_weight: float = 0.5,
        repeat_penalty: float = 0.3,
        set_hope: float = 1.0,
        depth: int | None = None,
    ) -> None:
        super().__init__(seed)
        if depth is not None and depth not in (1, 2, 3):
            raise ValueError(f"depth must be 1, 2 or 3, got {depth}")
        if not 0.0 <= mistake_rate <= 1.0:
            raise ValueError(f"mistake_rate must be in [0, 1], got {mistake_rate}")
        if temperature <= 0:
            raise ValueError(f"temperature must be positive, got {temperature}")
        ceiling = min(float(A.MAX_RUB_MS), max(ceiling_ms, median_ms))
        self.reaction = ReactionProfile(
            median_ms=median_ms, sigma=sigma, floor_ms=floor_ms, ceiling_ms=ceiling
        )
        self.mistake_rate = mistake_rate
        self.temperature = temperature
        self.wish_value = wish_value
        self.rival_weight = rival_weight
        self.repeat_penalty = repeat_penalty
        self.set_hope = set_hope
        self.depth = depth
        self._comp: Components | None = None
        self._kinds: list[_Kind] = []
        self._last_dice: list[tuple[int, int]] = []
        self._plan: list[tuple[int, int]] = []
        #: The die change planned by the last Loaded Die / Secret Passage valuation:
        #: (effect, the die's chest, its new face or chest).
        self._die_plan: tuple[EffectKind, int, int] | None = None
        self._swap_plan: tuple[int, int] | None = None  # (my card, their card)
        #: Decisions where the heuristics named no legal option (a random one was played);
        #: tests check it stays 0.
        self.fallbacks = 0

    # -- plumbing ---------------------------------------------------------------------------

    def _components(self, obs: Observation) -> Components:
        # The box's contents are public static data of the game.
        comp = obs.public
        assert isinstance(comp, Components)
        if comp is not self._comp:
            self._comp = comp
            self._kinds = _kinds(comp)
        return comp

    def act(self, obs: Observation) -> int:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        view = obs.view
        comp = self._components(obs)
        choice = self._decide(obs, view, comp)
        if choice not in legal:
            # A defensive fallback: the heuristics only name options they were offered.
            choice = self._fallback(legal)
        return choice

    def _fallback(self, legal: Sequence[int]) -> int:
        self.fallbacks += 1
        return self.rng.choice(list(legal))

    def _decide(self, obs: Observation, view: dict[str, Any], comp: Components) -> int:
        legal = obs.legal
        decision = obs.decision
        kind = decision.kind_name
        if kind == "set_die":
            return self._set_die(obs, view, comp)
        if kind == "race":
            return self._race(obs, view)
        board = _Board(view, comp, obs.seat, self.rival_weight, self._kinds, self.set_hope)
        if kind == "draw":
            return self._draw(view, comp, board)
        if kind == "wish":
            assert decision.context is not None
            return self._wish(view, comp, board, decision.context)
        if kind in ("effect_card", "angry_steal"):
            return self._take_card(board, legal)
        if kind == "angry_target":
            return self._angry_target(board, legal)
        if kind == "retrieve":
            return self._best_card(board, [a - A.CARD_BASE for a in legal])
        if kind == "talisman":
            types = [a - A.STONE_BASE for a in legal]
            return A.stone(board.talisman_choice(types))
        if kind == "swap_own":
            return self._swap_own(board, legal)
        if kind == "swap_theirs":
            return self._swap_theirs(board, legal)
        if kind == "effect_chest":
            return self._effect_chest(view, comp, board, legal)
        if kind == "effect_die":
            return self._effect_die(view, comp, board, legal)
        if kind in ("effect_face", "effect_move"):
            return self._effect_change(view, comp, board, legal, kind)
        return self._fallback(legal)

    # -- chest models -------------------------------------------------------------------------

    def _chest_model(
        self, view: dict[str, Any], comp: Components, board: _Board, c: int
    ) -> _ChestModel:
        cached = board.models.get(c)
        if cached is not None:
            return cached
        info = view["chests"][c]
        known_ids = [int(card["id"]) for card in info["known_top"]]
        sorcerer = comp.sorcerer_of(c)
        hidden = [
            cid
            for cid in comp.chest_cards[c]
            if cid not in board.seen and cid != sorcerer and cid not in known_ids
        ]

        def gain(cid: int) -> float:
            return board.gain(board.kinds[cid])

        by_scorp: dict[int, list[float]] = {}
        for cid in hidden:
            by_scorp.setdefault(comp.cards[cid].scorpions, []).append(gain(cid))
        classes = [(s, len(vs), sum(vs) / len(vs)) for s, vs in sorted(by_scorp.items())]
        known = [(comp.cards[cid].scorpions, gain(cid)) for cid in known_ids]
        above = info["cards_above_sorcerer"] if info["sorcerer_in_chest"] else None
        model = _ChestModel(
            known=known,
            sorcerer_at=above,
            sorcerer_value=board.sorcerer_value(),
            classes=classes,
            cards_left=int(info["cards_left"]),
        )
        board.models[c] = model
        return model

    def _ring_value(self, view: dict[str, Any], board: _Board) -> float:
        if not view["my_precious"]:
            return 0.0
        value = 0.0
        holder = next((p for p in range(board.n) if board.ring[p]), None)
        if holder != board.me:
            value += RING_BONUS
            if holder is not None:
                value += board.weight[holder] * RING_BONUS
        # The ring also retrieves the best card of the discard pile.
        best = max(
            (
                board.gain(board.card_kind[c])
                for c in board.discard
                if board.card_kind[c].kind != "sorcerer"
            ),
            default=0.0,
        )
        return value + max(0.0, best)

    # -- setting the dice ---------------------------------------------------------------------

    def _set_die(self, obs: Observation, view: dict[str, Any], comp: Components) -> int:
        me = obs.seat
        mine = view["players"][me]["dice"] or []
        legal = set(obs.legal)
        if mine and self._plan and len(self._plan) == 2:
            first = (CHESTS.index(mine[0]["chest"]), int(mine[0]["face"]))
            if first == self._plan[0]:
                a = A.set_die(*self._plan[1])
                if a in legal:
                    return a
        board = _Board(view, comp, me, self.rival_weight, self._kinds, self.set_hope)
        ev, lamp = self._dice_values(view, comp, board)
        n_dice = 2 if view["num_players"] == 2 else 1
        if n_dice == 1 or mine:
            taken = {CHESTS.index(d["chest"]) for d in mine}
            options = [(c, f) for c in range(len(CHESTS)) for f in range(1, 7) if c not in taken]
            weights = [ev[c][f] for c, f in options]
            pick = options[self._softmax(weights)]
            self._plan = []
            self._last_dice = [pick]
            return A.set_die(*pick)
        # Two dice (2 players): choose the pair together.
        pairs = [
            ((c1, f1), (c2, f2))
            for c1 in range(len(CHESTS))
            for c2 in range(c1 + 1, len(CHESTS))
            for f1 in range(1, 7)
            for f2 in range(1, 7)
        ]
        weights = []
        for (c1, f1), (c2, f2) in pairs:
            w = ev[c1][f1] + ev[c2][f2]
            if f1 == f2:
                w -= lamp[f1]  # one race per face: the second die adds no chance
            weights.append(w)
        first, second = pairs[self._softmax(weights)]
        if self.rng.random() < 0.5:
            first, second = second, first
        self._plan = [first, second]
        self._last_dice = [first, second]
        return A.set_die(*first)

    def _softmax(self, values: Sequence[float]) -> int:
        top = max(values)
        weights = [math.exp((v - top) / self.temperature) for v in values]
        return self.rng.choices(range(len(values)), weights=weights)[0]

    def _search_table(
        self, view: dict[str, Any], comp: Components, board: _Board
    ) -> list[list[float]]:
        """search[c][f]: the value of searching chest c with a die showing f."""
        if board.search is not None:
            return board.search
        ring = self._ring_value(view, board)
        ward = int(view["players"][board.me]["ward"])
        table = [[0.0] * 7 for _ in CHESTS]
        for c in range(len(CHESTS)):
            if view["chests"][c]["cards_left"] == 0:
                continue
            model = self._chest_model(view, comp, board, c)
            for f in range(1, 7):
                table[c][f] = search_value(
                    model, f, ward=ward, ring_value=ring if f == RING_FACE else 0.0
                )[0]
        board.search = table
        return table

    def _rival_dice(self, values: list[list[float]], temperature: float) -> list[list[float]]:
        """q[c][f]: the chance that a given rival die sits on chest c with face f, for rivals
        who favour high ``values`` (softmax at ``temperature``) with a share of unpredictable
        play."""
        flat = [(c, f, values[c][f]) for c in range(len(CHESTS)) for f in range(1, 7)]
        top = max(v for _, _, v in flat)
        ws = [math.exp((v - top) / temperature) for _, _, v in flat]
        total = sum(ws)
        q = [[0.0] * 7 for _ in CHESTS]
        for (c, f, _), w in zip(flat, ws, strict=True):
            q[c][f] = 0.3 / len(flat) + 0.7 * w / total
        return q

    def _dice_values(
        self, view: dict[str, Any], comp: Components, board: _Board
    ) -> tuple[list[list[float]], list[float]]:
        """ev[c][f]: expected gain of a die on chest c showing f this turn; and lamp[f], the
        part of it that comes from a lamp race on face f.

        Rivals are first assumed to go for the best searches (level 0); with ``depth`` 2 they
        are assumed to reason like this once more, expecting the crowd on the best chest, which
        keeps everyone from piling onto it."""
        n = view["num_players"]
        search = self._search_table(view, comp, board)
        depth = self.depth
        if depth is None:
            # Measured in self-play against depth 1: thinking one level further about the crowd
            # wins 75% of 2-player games and about 10% more than its share at 4 players in the
            # base game, but loses in "My Precious", where the ring rewards crowding on a 6.
            depth = 1 if view["my_precious"] else 2
        q = self._rival_dice(search, 1.0)
        for _ in range(depth - 1):
            q = self._rival_dice(self._expected(search, q, n, penalise=False)[0], 1.0)
        return self._expected(search, q, n, penalise=True)

    def _expected(
        self, search: list[list[float]], q: list[list[float]], n: int, penalise: bool
    ) -> tuple[list[list[float]], list[float]]:
        rival_dice = 2 if n == 2 else n - 1
        ev = [[0.0] * 7 for _ in CHESTS]
        lamps = [0.0] * 7
        for f in range(1, 7):
            face_share = sum(q[c][f] for c in range(len(CHESTS)))
            p_shared = 1.0 - (1.0 - face_share) ** rival_dice
            lamp = lamps[f] = p_shared * 0.5 * self.wish_value
            for c in range(len(CHESTS)):
                blocked = sum(q[c][g] for g in range(1, f + 1))
                p_get = max(0.0, 1.0 - blocked) ** rival_dice
                value = p_get * search[c][f] + lamp
                if penalise and (c, f) in self._last_dice:
                    value -= self.repeat_penalty  # do not be predictable
                ev[c][f] = value
        return ev, lamps

    # -- the lamp race ------------------------------------------------------------------------

    def _race(self, obs: Observation, view: dict[str, Any]) -> int:
        shared = set(view["shared_faces"] or [])
        dice = view["players"][obs.seat]["dice"] or []
        legit = any(int(d["face"]) in shared for d in dice)
        if not legit and not (self.mistake_rate and self.rng.random() < self.mistake_rate):
            return A.NO_RUB
        ms = self.reaction.sample(self.rng)
        # Round up to the recorded resolution so the floor is never undercut.
        ms = min(float(A.MAX_RUB_MS), math.ceil(ms / A.RUB_STEP_MS) * A.RUB_STEP_MS)
        return A.rub(ms)

    # -- searching ------------------------------------------------------------------------------

    def _draw(self, view: dict[str, Any], comp: Components, board: _Board) -> int:
        draw = view["draw"]
        c = CHESTS.index(draw["chest"])
        model = self._chest_model(view, comp, board, c)
        kept = 0.0
        for cid in board.drawing:
            kept += board.gain(board.card_kind[cid])
        face = int(draw["face"])
        ring = self._ring_value(view, board) if face == RING_FACE else 0.0
        _, go = search_value(
            model,
            face,
            drawn=len(board.drawing),
            scorpions=int(draw["scorpions"]),
            kept=kept,
            ward=int(draw["ward"]),
            ring_value=ring,
        )
        return A.DRAW if go else A.STOP

    # -- wishes -----------------------------------------------------------------------------

    def _wish(
        self, view: dict[str, Any], comp: Components, board: _Board, context: Mapping[str, Any]
    ) -> int:
        lamp = context["lamp"]
        wish = int(context["wish"])
        value = self._lamp_value(view, comp, board, lamp)
        # What the wishes still to come are worth: the next card is one of the Lamp cards not
        # seen going under the pile (or the known one, when every card there is known).
        known_ids = {int(x["id"]) for x in view["lamp_pile"]["known_bottom"]}
        unknown = [
            comp.lamp_json(i)
            for i in range(len(comp.lamp_cards))
            if i not in known_ids and i != int(lamp["id"])
        ]
        if not unknown and view["lamp_pile"]["known_bottom"]:
            unknown = [view["lamp_pile"]["known_bottom"][-1]]
        cache: dict[tuple[str, Any, int], float] = {}
        values = []
        for card in unknown:
            key = (card["effect"], card["chest"], int(card["count"]))
            if key not in cache:
                cache[key] = self._lamp_value(view, comp, board, card)
            values.append(cache[key])
        if not values:
            return A.ACCEPT
        last = sum(values) / len(values)
        threshold = last
        if wish < MAX_WISHES - 1:
            threshold = sum(max(v, last) for v in values) / len(values)
        if value >= threshold:
            # Re-value to set the plans (die/swap) for this card, which the loop may have
            # overwritten while valuing the others.
            self._lamp_value(view, comp, board, lamp)
            return A.ACCEPT
        return A.REJECT

    def _lamp_value(
        self, view: dict[str, Any], comp: Components, board: _Board, lamp: dict[str, Any]
    ) -> float:
        effect = EffectKind(lamp["effect"])
        count = int(lamp["count"])
        chest = lamp["chest"]
        chests = [CHESTS.index(chest)] if chest else list(range(len(CHESTS)))
        if effect is EffectKind.DRAW_CHEST:
            return max(self._top_cards_value(view, comp, board, c, count) for c in chests)
        if effect is EffectKind.STEAL:
            options = [cid for p in range(board.n) if p != board.me for cid in board.stealable[p]]
            return max((self._steal_value(board, cid) for cid in options), default=0.0)
        if effect is EffectKind.SWAP:
            pair = self._best_swap(board)
            if pair is None:
                return 0.0
            self._swap_plan = pair[1]
            return pair[0]
        if effect is EffectKind.RETRIEVE:
            values = sorted(
                (
                    board.gain(board.card_kind[c])
                    for c in board.discard
                    if board.card_kind[c].kind != "sorcerer"
                ),
                reverse=True,
            )
            return sum(values[:count])
        if effect is EffectKind.PEEK:
            mine = self._my_searches(view)
            return 0.8 if any(c in chests for c, _ in mine) else 0.2
        if effect in (EffectKind.SET_DIE, EffectKind.MOVE_DIE):
            best = self._best_die_change(view, comp, board, effect)
            if best is None:
                return 0.0
            self._die_plan = (effect, *best[1])
            return best[0]
        if effect is EffectKind.WARD:
            total = 0.0
            for c, f in self._my_searches(view):
                model = self._chest_model(view, comp, board, c)
                ward = int(view["players"][board.me]["ward"])
                with_ward = search_value(model, f, ward=ward + count)[0]
                total += with_ward - search_value(model, f, ward=ward)[0]
            return total
        return 0.0  # pragma: no cover - EffectKind is closed

    def _top_cards_value(
        self, view: dict[str, Any], comp: Components, board: _Board, c: int, count: int
    ) -> float:
        """The value of taking the top ``count`` cards of chest c (no scorpion check, R6)."""
        info = view["chests"][c]
        if info["cards_left"] == 0:
            return 0.0
        model = self._chest_model(view, comp, board, c)
        total_hidden = sum(k for _, k, _ in model.classes)
        mean = sum(k * v for _, k, v in model.classes) / total_hidden if total_hidden else 0.0
        value = 0.0
        for i in range(min(count, int(info["cards_left"]))):
            if i < len(model.known):
                value += model.known[i][1]
            elif i == model.sorcerer_at:
                # A Sorcerer taken this way ends the game at once (rulebook special case).
                value += model.sorcerer_value * 2
                break
            else:
                value += mean
        return value

    def _steal_value(self, board: _Board, cid: int) -> float:
        victim = next(p for p in range(board.n) if cid in board.stealable[p])
        return board.move_value([(board.card_kind[cid], victim, board.me)])

    def _best_swap(self, board: _Board) -> tuple[float, tuple[int, int]] | None:
        """The best exchange (value, (my card, their card)). Only the few cards I lose least
        by and the few I gain most from are paired, which keeps this quick."""
        me = board.me
        mine = sorted(
            board.stealable[me],
            key=lambda cid: -board.move_value([(board.card_kind[cid], me, None)]),
        )[:4]
        theirs = sorted(
            (cid for p in range(board.n) if p != me for cid in board.stealable[p]),
            key=lambda cid: -self._steal_value(board, cid),
        )[:6]
        best: tuple[float, tuple[int, int]] | None = None
        for give in mine:
            for take in theirs:
                other = self._holder(board, take)
                v = board.move_value(
                    [(board.card_kind[give], me, other), (board.card_kind[take], other, me)]
                )
                if best is None or v > best[0]:
                    best = (v, (give, take))
        return best

    def _my_searches(self, view: dict[str, Any]) -> list[tuple[int, int]]:
        """(chest, face) of the searches the bot will make with the dice as they stand."""
        me = int(view["seat"])
        searches = self._searches(self._all_dice(view))
        return [(c, f) for c, (p, f) in searches.items() if p == me]

    @staticmethod
    def _all_dice(view: dict[str, Any]) -> list[tuple[int, int, int]]:
        """(player, chest, face) of every revealed die."""
        out = []
        for p, player in enumerate(view["players"]):
            for d in player["dice"] or []:
                out.append((p, CHESTS.index(d["chest"]), int(d["face"])))
        return out

    @staticmethod
    def _searches(dice: list[tuple[int, int, int]]) -> dict[int, tuple[int, int]]:
        """chest -> (drawer, face) under the rulebook's lowest-untied-die rule."""
        out: dict[int, tuple[int, int]] = {}
        for c in range(len(CHESTS)):
            on = [(p, f) for p, dc, f in dice if dc == c]
            drawer = chest_drawer(on)
            if drawer is not None:
                out[c] = (drawer, next(f for p, f in on if p == drawer))
        return out

    def _searches_value(
        self, search: list[list[float]], board: _Board, dice: list[tuple[int, int, int]]
    ) -> float:
        """Relative value of the coming searches, valuing rivals' searches like the bot's."""
        total = 0.0
        for c, (p, f) in self._searches(dice).items():
            total += search[c][f] * (1.0 if p == board.me else -board.weight[p])
        return total

    def _best_die_change(
        self, view: dict[str, Any], comp: Components, board: _Board, effect: EffectKind
    ) -> tuple[float, tuple[int, int]] | None:
        dice = self._all_dice(view)
        me = board.me
        if not any(p == me for p, _, _ in dice):
            return None
        search = self._search_table(view, comp, board)
        now = self._searches_value(search, board, dice)
        best: tuple[float, tuple[int, int]] | None = None
        occupied = {c for p, c, _ in dice if p == me}
        for i, (p, c, f) in enumerate(dice):
            if p != me:
                continue
            if effect is EffectKind.SET_DIE:
                changes = [(c, g) for g in range(1, 7)]
            else:
                changes = [(c2, f) for c2 in range(len(CHESTS)) if c2 not in occupied]
            for nc, nf in changes:
                trial = list(dice)
                trial[i] = (me, nc, nf)
                v = self._searches_value(search, board, trial) - now
                target = nf if effect is EffectKind.SET_DIE else nc
                if best is None or v > best[0]:
                    best = (v, (c, target))
        return best

    # -- effect decisions -----------------------------------------------------------------------

    def _effect_chest(
        self, view: dict[str, Any], comp: Components, board: _Board, legal: Sequence[int]
    ) -> int:
        chests = [a - A.CHEST_BASE for a in legal]
        lamp = self._granted_lamp(view)
        if lamp is not None and lamp["effect"] == EffectKind.PEEK.value:
            mine = [c for c, _ in self._my_searches(view) if c in chests]
            if mine:
                return A.chest(mine[0])
            return A.chest(self.rng.choice(chests))
        count = int(lamp["count"]) if lamp is not None else 1
        return A.chest(
            max(chests, key=lambda c: self._top_cards_value(view, comp, board, c, count))
        )

    def _effect_die(
        self, view: dict[str, Any], comp: Components, board: _Board, legal: Sequence[int]
    ) -> int:
        lamp = self._granted_lamp(view)
        effect = EffectKind(lamp["effect"]) if lamp is not None else EffectKind.SET_DIE
        best = self._best_die_change(view, comp, board, effect)
        if best is not None:
            self._die_plan = (effect, *best[1])
            if A.chest(best[1][0]) in legal:
                return A.chest(best[1][0])
        return self._fallback(legal)

    @staticmethod
    def _granted_lamp(view: dict[str, Any]) -> dict[str, Any] | None:
        """The Lamp card being applied: a granted card goes under the pile before its effect
        starts, so it is the bottom card everyone saw go there."""
        known = view["lamp_pile"]["known_bottom"]
        return known[0] if known else None

    def _effect_change(
        self,
        view: dict[str, Any],
        comp: Components,
        board: _Board,
        legal: Sequence[int],
        kind: str,
    ) -> int:
        effect = EffectKind.SET_DIE if kind == "effect_face" else EffectKind.MOVE_DIE
        my_chests = {c for p, c, _ in self._all_dice(view) if p == board.me}
        plan = self._die_plan
        target: int | None = None
        if plan is not None and plan[0] is effect and plan[1] in my_chests:
            target = plan[2]
        else:
            best = self._best_die_change(view, comp, board, effect)
            target = best[1][1] if best is not None else None
        if target is not None:
            a = A.face(target) if effect is EffectKind.SET_DIE else A.chest(target)
            if a in legal:
                return a
        return self._fallback(legal)

    def _take_card(self, board: _Board, legal: Sequence[int]) -> int:
        cards = [a - A.CARD_BASE for a in legal]
        return A.card(max(cards, key=lambda cid: self._steal_value(board, cid)))

    def _best_card(self, board: _Board, cards: list[int]) -> int:
        return A.card(max(cards, key=lambda cid: board.gain(board.card_kind[cid])))

    def _angry_target(self, board: _Board, legal: Sequence[int]) -> int:
        """Name the rival whose best theft from me hurts me least."""
        mine = board.stealable[board.me]

        def outcome(thief: int) -> float:
            # The thief takes what is best for them; judge that from the bot's standpoint.
            taken = max(
                mine,
                key=lambda cid: board.move_value([(board.card_kind[cid], board.me, thief)]) * -1.0,
            )
            return board.move_value([(board.card_kind[taken], board.me, thief)])

        seats = [a - A.TARGET_BASE for a in legal]
        if not mine:
            return A.target(self.rng.choice(seats))
        return A.target(max(seats, key=outcome))

    def _swap_own(self, board: _Board, legal: Sequence[int]) -> int:
        best = self._best_swap(board)
        if best is not None and A.card(best[1][0]) in legal:
            self._swap_plan = best[1]
            return A.card(best[1][0])
        return self._fallback(legal)

    def _swap_theirs(self, board: _Board, legal: Sequence[int]) -> int:
        plan = self._swap_plan
        given = plan[0] if plan is not None else None
        cards = [a - A.CARD_BASE for a in legal]
        if given is None or given not in board.card_kind:
            return A.card(max(cards, key=lambda cid: self._steal_value(board, cid)))
        # The given card has already left... not yet: the swap applies both moves at once.
        return A.card(
            max(
                cards,
                key=lambda cid: board.move_value(
                    [
                        (board.card_kind[given], board.me, self._holder(board, cid)),
                        (board.card_kind[cid], self._holder(board, cid), board.me),
                    ]
                ),
            )
        )

    @staticmethod
    def _holder(board: _Board, cid: int) -> int:
        return next(p for p in range(board.n) if cid in board.stealable[p])


register_agent("magic-lamp", "heuristic", HeuristicAgent)

__all__ = ["HeuristicAgent", "search_value"]
