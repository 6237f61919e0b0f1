"""The bot's search helpers: which Djinn to catch and how to pay, and where to move.

Owns ``Position``, the valued picture of ``evaluation`` with what needs a search: the
strength of a selection and the cheapest payment for it (greedy, then the rules' knapsack;
every subset of the cards to flip), where a selection can be placed, the value of every
selection at a space (``plan``, cached per position) including the progress toward removing
a boss, and the value of a move with a discounted look one move further.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from arabesque.games.djinn.bots.evaluation import (
    BOTTLED,
    CIRCLED,
    COIN_SPEND,
    FLIP,
    MAGIC_GAIN,
    SOLO_IDLE,
    Valuation,
)
from arabesque.games.djinn.bots.position import (
    ACADEMY,
    NCOL,
    NKINDS,
    SOURCE,
    Card,
    Resources,
)
from arabesque.games.djinn.components import BOSS


class Position(Valuation):
    """The public position of one view with the bot's value model and its search helpers."""

    @cached_property
    def _plans(self) -> dict[tuple[Any, ...], tuple[float, tuple[int, ...]]]:
        """The best selections found in this position, by their question (``plan``)."""
        return {}

    # -- catching ----------------------------------------------------------------------------

    def strength(self, space: int, sel: Sequence[int]) -> int:
        comp = self.comp
        per = comp.per_djinn - (1 if "djinn_discount" in self.p.fx else 0)
        per = max(1, per)
        here = sum(self.djinn[space])
        return per * sum(sel) + sel[BOSS] * comp.boss_per_other * (here - 1)

    def card_power(self, card: Card, sel: Sequence[int]) -> int:
        if "green_only" in self.p.fx:
            return card.power
        b = card.bonus
        return card.power + sum(b[c] * sel[c] for c in range(NCOL)) + sel[BOSS] * max(b)

    def placement(self, res: Resources, sel: Sequence[int]) -> tuple[int, int] | None:
        """(bottled, circled) for the selection, or None if it cannot all be placed (as the
        rules check it: coloured Djinn into their bottles first, bosses into any bottle)."""
        b = res.bottles
        bottled = 0
        for c in range(NCOL):
            bottled += min(sel[c], b[c])
        bottled = min(bottled, res.corks)
        regular = sel[0] + sel[1] + sel[2] + sel[3]
        rest = regular - bottled
        if rest > res.circles:
            return None
        left = min(sum(b) - bottled, res.corks - bottled)
        boss_bottled = min(sel[BOSS], left)
        boss_circled = sel[BOSS] - boss_bottled
        if boss_circled > res.circles - rest:
            return None
        return bottled + boss_bottled, rest + boss_circled

    def pay_cost(self, space: int, sel: Sequence[int], res: Resources) -> float | None:
        """The cheapest way (cards and magic) to pay for the selection, in points; None if
        it cannot be paid. Cards are added greedily by power per cost; feasibility falls
        back on the rules' exact knapsack."""
        need = self.strength(space, sel) - self.p.catch_power
        if need <= 0:
            return 0.0
        cards = [c for c in self.p.cards if c.active and c.cost <= res.coins]
        mv = self.magic_spend
        best: float | None = need * mv if need <= res.magic else None
        if not cards:
            return best
        scored = sorted(
            ((self.card_power(c, sel), c) for c in cards),
            key=lambda pc: pc[0] / (pc[1].cost * COIN_SPEND + FLIP),
            reverse=True,
        )
        coins, left, cost = res.coins, need, 0.0
        for power, c in scored:
            if left <= 0:
                break
            if c.cost > coins:
                continue
            coins -= c.cost
            left -= power
            cost += c.cost * COIN_SPEND + FLIP
            if left <= res.magic:
                total = cost + max(0, left) * mv
                if best is None or total < best:
                    best = total
        if best is None:
            # The greedy order missed it: the exact check of the rules (best power for the
            # coins), costed roughly.
            power = _knapsack(cards, [self.card_power(c, sel) for c in cards], res.coins)
            if power >= need - res.magic:
                best = res.magic * mv + 2 * FLIP + res.coins * COIN_SPEND
        return best

    def cheapest_payment(
        self, cards: Sequence[Card], need: int, sel: Sequence[int]
    ) -> tuple[float, tuple[int, ...]] | None:
        """The cheapest of ``cards`` to flip for a catch of strength ``need`` (its cost in
        points, the card ids), the bot's magic paying the rest; None if none can pay."""
        p = self.p
        best: tuple[float, tuple[int, ...]] | None = None
        # Few cards are ever active at once; try every subset (capped) for the cheapest.
        cards = sorted(cards, key=lambda c: -self.card_power(c, sel))[:8]
        for r in range(len(cards) + 1):
            for subset in itertools.combinations(cards, r):
                coins = sum(c.cost for c in subset)
                if coins > p.coins:
                    continue
                left = need - sum(self.card_power(c, sel) for c in subset)
                if left > p.magic:
                    continue
                cost = coins * COIN_SPEND + FLIP * len(subset) + max(0, left) * self.magic_spend
                if best is None or cost < best[0]:
                    best = (cost, tuple(c.id for c in subset))
        return best

    def sel_value(self, space: int, sel: Sequence[int], res: Resources) -> float | None:
        placed = self.placement(res, sel)
        if placed is None:
            return None
        cost = self.pay_cost(space, sel, res)
        if cost is None:
            return None
        bottled, circled = placed
        value = BOTTLED * bottled + CIRCLED * circled - cost
        here = self.djinn[space]
        if sel[BOSS]:
            value += self.boss_value
            others = sum(here[k] - sel[k] for k in range(NCOL))
            if others:
                left_circles = res.circles - circled
                left_bottle = (
                    any(here[c] > sel[c] and res.bottles[c] > 0 for c in range(NCOL))
                    and res.corks > bottled
                )
                value += BOTTLED if left_bottle else (CIRCLED if left_circles > 0 else 0.0)
        elif here[BOSS]:
            value += self.progress(space, sum(sel[:NCOL]))
        return value

    def removal_cost(self, regular: int) -> int:
        """The least magic that removes a boss with ``regular`` Djinn beside it: catch them
        all (it flees) or catch the boss."""
        per = max(1, self.comp.per_djinn - (1 if "djinn_discount" in self.p.fx else 0))
        return min(per * regular, per + self.comp.boss_per_other * regular)

    def progress(self, space: int, taken: int) -> float:
        """What catching ``taken`` regular Djinn beside a boss does toward removing it: all
        of them make it flee; fewer make it cheaper to remove later (worth half, since more
        Djinn may come)."""
        regular = sum(self.djinn[space][:NCOL])
        if taken >= regular:
            return self.boss_value
        before, after = self.removal_cost(regular), self.removal_cost(regular - taken)
        return 0.5 * self.boss_value * (before - after) / max(1, before)

    def plan(
        self, space: int, res: Resources, start: Sequence[int] = (0,) * NKINDS
    ) -> tuple[float, tuple[int, ...]]:
        """The best selection at ``space`` that contains ``start`` (value, counts); the
        value of declining (an empty selection) when nothing is worth it."""
        key = (space, res.magic, res.coins, res.corks, tuple(res.bottles), res.circles, *start)
        cached = self._plans.get(key)
        if cached is not None:
            return cached
        here = self.djinn[space]
        empty = tuple(start)
        decline = -self.magic_spend * min(res.magic, self.comp.decline_cost)
        best: tuple[float, tuple[int, ...]] = (decline if not sum(start) else -1e9, empty)
        room = res.circles + min(sum(res.bottles), res.corks)
        ranges = [range(start[k], here[k] + 1) for k in range(NKINDS)]
        for sel in itertools.product(*ranges):
            total = sum(sel)
            if not total or total > room:
                continue
            v = self.sel_value(space, sel, res)
            if v is not None and v > best[0]:
                best = (v, sel)
        self._plans[key] = best
        return best

    # -- spaces ------------------------------------------------------------------------------

    def magic_gain(self, space: int) -> int:
        """Magic a visit to ``space`` adds before the next turn (the Academy, the Source)."""
        if space == SOURCE:
            return self.room
        gain = 0
        for loc in (self.loc[space], self.my_passage[space]):
            if loc == ACADEMY:
                gain += 3
        return gain

    def space_value(
        self, space: int, lookahead: bool, came: int, extra_magic: int = 0, weight: float = 0.5
    ) -> float:
        """What moving to ``space`` brings this turn, plus (``lookahead``) a share of the best
        move after it (never back to ``came``)."""
        p = self.p
        res = self.resources()
        value = self.arrival_value(space)
        if space == SOURCE:
            value += MAGIC_GAIN * self.room
            if (
                self.supply_bosses
                and p.magic >= self.comp.source_boss_cost
                and self.placement(res, (0, 0, 0, 0, 1)) is not None
            ):
                value = max(value, 8.0)
            if p.scrolls >= p.scroll_price:
                row2 = self.reward_value(self.comp.rewards["source_row2"])
                value += max(0.0, row2 - p.scroll_price * self.scroll_v)
        elif self.loc[space] >= 0 and space < 7:
            loc = self.loc[space]
            value += max(self.location_value(loc, False), self.forfeit_value())
            passage = self.my_passage[space]
            if passage >= 0:
                value += self.location_value(passage, False)
        else:
            loc = self.loc[space]
            best_loc = max(self.location_value(loc, True), self.location_value(loc, False))
            value += max(best_loc, self.forfeit_value())
            if sum(self.djinn[space]):
                if loc == ACADEMY:
                    gain = 3 + (1 if not p.flipped else 0)
                    res.magic = min(p.max_magic + 1, res.magic + gain)
                res.magic += min(p.keys, 2) + extra_magic
                value += self.plan(space, res)[0]

        if self.solo and space >= 7 and not self.djinn[space][BOSS]:
            # Tom turns a card after every round-space turn: one without a boss brings the
            # race no nearer.
            value -= SOLO_IDLE
        # Only the mages at the edge this move arrives at (they came from ``came`` too) are
        # paid (ruling D27); those at the space's other edges cost nothing.
        occupied = [q for q in self.mages[space] if q != self.me and self.players[q].came == came]
        if occupied and "movement_free" not in p.fx:
            value -= 0.7 * len(occupied)
        if lookahead:
            gain = self.magic_gain(space)
            nxt = [self.space_value(u, False, space, gain) for u in self.adj[space] if u != came]
            if nxt:
                value += weight * max(nxt)
        return value


def _knapsack(cards: Sequence[Card], powers: Sequence[int], budget: int) -> int:
    best = [0] * (budget + 1)
    for card, power in zip(cards, powers, strict=True):
        for c in range(budget, card.cost - 1, -1):
            v = best[c - card.cost] + power
            if v > best[c]:
                best[c] = v
    return best[budget]
