"""Values and weights: what a card, a move of cards, the ring, a theft or an exchange is worth to
the bot.

Every card is worth what it adds to a *potential* score (1 point per card, a smoothed chance of
winning each stone majority and of completing each jewelry set), *relative* to the rivals:
what the bot gains minus a weighted share of what its rivals gain or lose. ``Board`` puts this
model on the bot's picture of the view (position.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from arabesque.games.magic_lamp.bots.position import Kind, Position, _ChestModel, holder
from arabesque.games.magic_lamp.components import JEWELS, Components
from arabesque.games.magic_lamp.rules import MAJORITY_BONUS, RING_BONUS

#: Chance of keeping a stone majority by lead (mine minus the best rival), early in the game.
#: Leads are fragile while many cards remain: a lead of one is often lost.
_EARLY_MAJORITY = {-2: 0.03, -1: 0.12, 0: 0.3, 1: 0.62, 2: 0.82, 3: 0.92}
#: Share of a set bonus credited for distinct pieces held beyond complete sets (0, 1, 2).
_SET_PROGRESS = (0.0, 0.12, 0.38)
#: How much a lamp race won is worth on average (a steal or a good draw is 2-4 points).
WISH_VALUE = 2.5


class Board(Position):
    """The bot's potential-score model on a position (position.py), with the rivals' weights
    and the per-decision caches of the agent."""

    def __init__(
        self,
        view: dict[str, Any],
        comp: Components,
        me: int,
        rival_weight: float = 1.0,
        kinds: list[Kind] | None = None,
        set_hope: float = 1.0,
    ) -> None:
        super().__init__(view, comp, me, kinds)
        n = self.n
        self.set_progress = [min(1.0, x * set_hope) for x in _SET_PROGRESS]
        self._gains: dict[tuple[Kind, int], float] = {}
        #: Per-decision caches of the agent (chest models, the search table).
        self.models: dict[int, _ChestModel] = {}
        self.search: list[list[float]] | None = None

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

    def move_value(self, moves: Iterable[tuple[Kind, int | None, int | None]]) -> float:
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

    def gain(self, k: Kind, to: int | None = None) -> float:
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


def ring_value(view: dict[str, Any], board: Board) -> float:
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


def steal_value(board: Board, cid: int) -> float:
    victim = next(p for p in range(board.n) if cid in board.stealable[p])
    return board.move_value([(board.card_kind[cid], victim, board.me)])


def best_swap(board: Board) -> tuple[float, tuple[int, int]] | None:
    """The best exchange (value, (my card, their card)). Only the few cards I lose least
    by and the few I gain most from are paired, which keeps this quick."""
    me = board.me
    mine = sorted(
        board.stealable[me],
        key=lambda cid: -board.move_value([(board.card_kind[cid], me, None)]),
    )[:4]
    theirs = sorted(
        (cid for p in range(board.n) if p != me for cid in board.stealable[p]),
        key=lambda cid: -steal_value(board, cid),
    )[:6]
    best: tuple[float, tuple[int, int]] | None = None
    for give in mine:
        for take in theirs:
            other = holder(board, take)
            v = board.move_value(
                [(board.card_kind[give], me, other), (board.card_kind[take], other, me)]
            )
            if best is None or v > best[0]:
                best = (v, (give, take))
    return best
