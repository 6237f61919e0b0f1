"""The bot's policy: ``HeuristicAgent``, which answers each decision from its seat's view.

Owns the agent (its options, the plumbing from an observation to a ``Position``, the
fallback count), the dispatch on the decision's kind, and one handler per kind that ranks
the options it is offered with the values and ranks of ``evaluation`` and the searches of
``search``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.games.djinn.actions import Layout, layout_of
from arabesque.games.djinn.bots.evaluation import (
    BOTTLED,
    CHARACTER_RANK,
    CIRCLED,
    LOOKAHEAD,
    PASSAGE_ORDER,
    STORAGE,
)
from arabesque.games.djinn.bots.position import (
    ACADEMY,
    MANUFACTORY,
    MARKET,
    NCOL,
    SOURCE,
    SPACE_INDEX,
    Resources,
)
from arabesque.games.djinn.bots.search import Position
from arabesque.games.djinn.components import BOSS, KINDS, LOCATIONS, REWARD_KINDS, Components
from arabesque.games.djinn.state import Kind


class HeuristicAgent(Agent):
    """Plays Djinn by a one-move value model from its own view.

    Options (spec strings like ``heuristic:favour=market``): ``favour`` names a location the
    bot values more (its action's value x1.5 + 2), ``lookahead`` (0-1) weighs the best next
    move in a move's value, ``storage`` (0-20) values room for the next catch.
    """

    def __init__(
        self,
        seed: int | None = None,
        favour: str = "",
        lookahead: float = LOOKAHEAD,
        storage: float = STORAGE,
    ):
        super().__init__(seed)
        if not 0.0 <= storage <= 20.0:
            raise ValueError(f"storage must be in [0, 20], got {storage}")
        self.storage = storage
        if favour and favour not in LOCATIONS:
            raise ValueError(f"favour must be one of {', '.join(LOCATIONS)}, got {favour!r}")
        if not 0.0 <= lookahead <= 1.0:
            raise ValueError(f"lookahead must be in [0, 1], got {lookahead}")
        self.favour = LOCATIONS.index(favour) if favour else -1
        self.lookahead = lookahead
        self._layout: Layout | None = None
        self._comp: Components | None = None
        #: Decisions where the heuristics named no legal option (a random one was played);
        #: tests check it stays 0.
        self.fallbacks = 0

    # -- plumbing -------------------------------------------------------------------------------

    def act(self, obs: Observation) -> int:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        comp = obs.public
        assert isinstance(comp, Components)
        if comp is not self._comp:
            self._comp = comp
            self._layout = layout_of(comp)
        layout = self._layout
        assert layout is not None
        pos = Position(obs.view, obs.seat, comp, self.favour, self.storage)
        decision = obs.decision
        kind = Kind(decision.kind)
        groups = {a: layout.group[a] for a in legal}
        side = [a for a in legal if a >= layout.side_start]
        if side:
            chosen = self._side(pos, kind, side, groups)
            if chosen is not None:
                return chosen
        main = [a for a in legal if a < layout.side_start]
        context = dict(decision.context) if decision.context else None
        choice = self._main(pos, kind, main, groups, context)
        if choice is None or choice not in legal:
            self.fallbacks += 1
            return self.rng.choice(list(main or legal))
        return choice

    @staticmethod
    def _find(groups: dict[int, tuple[str, int]], name: str, i: int | None = None) -> int | None:
        for a, (g, j) in groups.items():
            if g == name and (i is None or j == i):
                return a
        return None

    def _best(self, scored: Sequence[tuple[float, int]]) -> int | None:
        if not scored:
            return None
        top = max(v for v, _ in scored)
        best = [a for v, a in scored if v >= top - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    # -- side actions ---------------------------------------------------------------------------

    def _side(
        self,
        pos: Position,
        kind: Kind,
        side: list[int],
        groups: dict[int, tuple[str, int]],
    ) -> int | None:
        p = pos.p
        comp = pos.comp
        # Seal a circled Djinn into a bottle: 10 points instead of 3, and the circle is free.
        seals = [a for a in side if groups[a][0] == "seal"]
        if seals:
            return seals[0]
        trophies = [a for a in side if groups[a][0] == "trophy"]
        if trophies:
            scored = []
            for a in trophies:
                t = comp.trophies[groups[a][1] // NCOL]
                scored.append((t.points + pos.reward_value(t.reward), a))
            return self._best(scored)
        for a in side:
            g, i = groups[a]
            if g != "use_equipment":
                continue
            card = comp.equipment[i]
            if card.effect != "once_reward":
                continue
            names = {REWARD_KINDS[k] for k, _ in card.reward}
            if "magic" in names:
                amount = sum(x for k, x in card.reward if REWARD_KINDS[k] == "magic")
                if pos.room >= amount:
                    return a
            elif "activate" in names:
                if any(not c.active for c in p.cards):
                    return a
            elif "circle" in names:
                if p.inactive_circles:
                    return a
            else:
                return a
        # A key becomes magic when the catch about to be chosen needs it.
        key_magic = self._find(groups, "key_magic")
        if key_magic is not None and kind is Kind.ACT:
            catch = self._find(groups, "catch")
            special = self._find(groups, "special")
            basic = self._find(groups, "basic")
            if catch is not None and special is None and basic is None:
                space = p.pos
                res = pos.resources()
                now = pos.plan(space, res)[0]
                res.magic += 1
                if pos.plan(space, res)[0] > now + 0.9:
                    return key_magic
        return None

    # -- main decisions -------------------------------------------------------------------------

    def _main(
        self,
        pos: Position,
        kind: Kind,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        if not main:
            return None
        if len(main) == 1:
            return main[0]
        if kind is Kind.MOVE:
            return self._move(pos, main, groups)
        if kind is Kind.START:
            return self._start(pos, main, groups)
        if kind is Kind.JUMP:
            return self._jump(pos, main, groups, context)
        if kind is Kind.PAY_PLAYER:
            p = pos.p
            coin, scroll = self._find(groups, "pay_coin"), self._find(groups, "pay_scroll")
            if scroll is not None and (coin is None or p.scrolls * 1.3 >= p.coins):
                return scroll
            return coin
        if kind is Kind.ACT:
            return self._act(pos, main, groups)
        if kind is Kind.CATCH_SELECT:
            return self._select(pos, main, groups, context)
        if kind is Kind.CATCH_PAY:
            return self._pay(pos, main, groups, context)
        if kind is Kind.PLACE:
            return self._place(pos, main, groups, context)
        if kind is Kind.FREE:
            return self._free(pos, main, groups)
        if kind is Kind.ARCHIVES:
            scored = [(0.3, a) for a in main if groups[a][0] == "done"]
            scored += [
                (pos.archive_value(groups[a][1]), a) for a in main if groups[a][0] == "archive"
            ]
            return self._best(scored)
        if kind is Kind.PASSAGE:
            return self._passage(pos, main, groups)
        if kind is Kind.TAVERN:
            scored = []
            for a in main:
                top = pos.tavern[groups[a][1]]["top"]
                if top is not None:
                    scored.append((pos.card_value(pos.comp.mage_cards[int(top["id"])]), a))
            return self._best(scored)
        if kind is Kind.MANUFACTORY:
            scored = []
            for a in main:
                top = pos.manufactory[groups[a][1]]["top"]
                if top is not None:
                    scored.append((pos.equipment_value(top), a))
            return self._best(scored)
        if kind is Kind.TENT:
            p = pos.p
            return self._best(
                [(pos.market_place_value(groups[a][1], p.coins, p.scrolls), a) for a in main]
            )
        if kind is Kind.OFFER:
            scored = []
            for a in main:
                o = pos.comp.offers[groups[a][1]]
                v = pos.reward_value(o.reward) - o.coins * pos.coin_v - o.scrolls * pos.scroll_v
                scored.append((v, a))
            return self._best(scored)
        if kind is Kind.CHEST_KEY:
            chest = pos.comp.chests[int(context["chest"])] if context else None
            unlock, done = self._find(groups, "unlock"), self._find(groups, "done")
            if chest is not None and pos.reward_value(chest.key_reward) > 0.9:
                return unlock
            return done
        if kind is Kind.CHEST_DISCARD:
            scored = [(-pos.reward_value(pos.comp.chests[groups[a][1]].reward), a) for a in main]
            return self._best(scored)
        if kind is Kind.ACTIVATE:
            return self._activate(pos, main, groups, context)
        if kind is Kind.CHOOSE_BOTTLE:
            return self._best([(pos.bottle_v[groups[a][1]], a) for a in main])
        if kind is Kind.SOURCE_BOSSES:
            boss = self._find(groups, "boss")
            if boss is not None:
                res = pos.resources()
                placed = pos.placement(res, (0, 0, 0, 0, 1))
                if pos.final or (placed is not None and placed[0] > 0):
                    return boss
            return self._find(groups, "done")
        if kind is Kind.TRADE:
            return self._find(groups, "done")
        if kind is Kind.DRAFT:
            scored = []
            for a in main:
                tile = pos.comp.characters[groups[a][1]]
                rank = CHARACTER_RANK.get(tile.effect, 0)
                if tile.effect == "start_reward":
                    rank = 8 if tile.positive else (-1 if "magic" in str(tile.reward) else -3)
                    rank += int(pos.reward_value(tile.reward) * 0.1)
                scored.append((float(rank), a))
            return self._best(scored)
        return None

    def _move(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        here = pos.p.pos
        scored = []
        for a in main:
            g, t = groups[a]
            if g != "move":
                continue
            v = pos.space_value(t, self.lookahead > 0, here, weight=self.lookahead)
            scored.append((v, a))
        return self._best(scored)

    def _start(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        scored = []
        for a in main:
            i = groups[a][1]
            square, came = 1 + i // 6, 7 + i % 6
            scored.append((pos.space_value(square, True, came, weight=self.lookahead), a))
        return self._best(scored)

    def _jump(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        stop, skip = self._find(groups, "stop"), self._find(groups, "skip")
        if stop is None or skip is None:
            return stop if stop is not None else skip
        # Staying costs a coin or scroll per mage at the edge arrived at (the decision's
        # context names them, ruling D27): stay unless it leaves the bot short of both.
        p = pos.p
        payees = len(context.get("mages_at_edge", ())) if context else 1
        return stop if p.coins + p.scrolls >= payees + 2 else skip

    def _act(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        p = pos.p
        names = {groups[a][0]: a for a in main}
        space = p.pos
        if space == SOURCE or "refill" in names or "bosses" in names or "row2" in names:
            return self._source(pos, names)
        loc = pos.loc[space] if space >= 0 else -1
        catch = names.get("catch")
        basic, special = names.get("basic"), names.get("special")
        passage = names.get("passage_use")
        forfeits = [a for a in main if groups[a][0] == "forfeit"]
        scored: list[tuple[float, int]] = []
        if basic is not None:
            scored.append((pos.location_value(loc, False), basic))
        if special is not None:
            scored.append((pos.location_value(loc, True), special))
        for a in forfeits:
            scored.append((pos.reward_value(pos.comp.forfeit[groups[a][1]]) - 0.2, a))
        if catch is not None and scored:
            res = pos.resources()
            now = pos.plan(space, res)
            # The location action first, unless it spends coins the best catch needs.
            if loc in (MANUFACTORY, MARKET) and now[0] > 0:
                cost = pos.comp.numbers["manufactory_basic_cost"] if loc == MANUFACTORY else 2
                poorer = Resources(
                    res.magic, max(0, res.coins - cost), res.corks + 1, res.bottles, res.circles
                )
                if pos.plan(space, poorer)[0] < now[0] - 1.0:
                    return catch
            if "catch_first" in p.fx:
                return catch
        if scored:
            choice = self._best(scored)
            best = max(v for v, _ in scored)
            if best > 0.2 or catch is None:
                return choice
        if passage is not None:
            own = pos.my_passage[space]
            if own >= 0 and pos.location_value(own, False) > 0:
                return passage
        if catch is not None:
            return catch
        return names.get("end", main[-1])

    def _source(self, pos: Position, names: dict[str, int]) -> int | None:
        p = pos.p
        comp = pos.comp
        row2 = names.get("row2")
        if row2 is not None:
            gain = pos.reward_value(comp.rewards["source_row2"])
            if pos.final or gain > p.scroll_price * pos.scroll_v:
                return row2
        bosses = names.get("bosses")
        if bosses is not None:
            placed = pos.placement(pos.resources(), (0, 0, 0, 0, 1))
            if pos.final or (placed is not None and placed[0] > 0):
                return bosses
        refill = names.get("refill")
        if refill is not None and not pos.final:
            return refill
        return names.get("end")

    def _select(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        space = SPACE_INDEX[context["space"]] if context else p.pos
        selected = context.get("selected", {}) if context else {}
        sel = [int(selected.get(k, 0)) for k in KINDS]
        _, plan = pos.plan(space, pos.resources(), sel)
        offered = {groups[a][1]: a for a in main if groups[a][0] == "select"}
        # Bosses first: the rest of the plan is paid for the same either way.
        for k in (BOSS, *range(NCOL)):
            if plan[k] > sel[k] and k in offered:
                return offered[k]
        confirm, decline = self._find(groups, "confirm"), self._find(groups, "decline")
        if sum(sel):
            return confirm
        if sum(plan) and offered:
            # The plan named a Djinn the rules do not offer: take the best offered one.
            return offered[max(offered, key=lambda k: (k == BOSS, k))]
        return decline

    def _pay(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        settle = self._find(groups, "settle")
        uses = {groups[a][1]: a for a in main if groups[a][0] == "use_mage"}
        if not uses:
            return settle
        if context is None:
            return settle if settle is not None else next(iter(uses.values()))
        selected = context.get("selected", {})
        sel = [int(selected.get(k, 0)) for k in KINDS]
        need = int(context["strength"]) - int(context.get("power_from_cards", 0)) - p.catch_power
        cards = [c for c in p.cards if c.id in uses]
        best = pos.cheapest_payment(cards, need, sel)
        if best is None or not best[1]:
            return settle if settle is not None else next(iter(uses.values()))
        return uses[best[1][0]]

    def _place(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        bottles = [(groups[a][1], a) for a in main if groups[a][0] == "bottle"]
        if bottles:

            def score(c: int) -> float:
                # Toward a trophy (3 of a colour); keep bottles wanted by Djinn on the map.
                return 2.0 * (p.filled[c] % 3) + 0.5 * (p.bottles[c] - min(pos.board[c], 3))

            return max(bottles, key=lambda ca: (score(ca[0]), -ca[0]))[1]
        circle = self._find(groups, "circle")
        if circle is not None:
            return circle
        return self._find(groups, "release")

    def _free(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        p = pos.p
        scored = []
        for a in main:
            g, k = groups[a]
            if g != "free":
                continue
            bottle = (k == BOSS and sum(p.bottles) > 0) or (k < NCOL and p.bottles[k] > 0)
            scored.append(((BOTTLED if bottle and p.corks else CIRCLED) + (k == BOSS), a))
        return self._best(scored) if scored else self._find(groups, "done")

    def _passage(
        self, pos: Position, main: list[int], groups: dict[int, tuple[str, int]]
    ) -> int | None:
        scored = []
        for a in main:
            i = groups[a][1]
            location, square = i // 6, 1 + i % 6
            rank = len(PASSAGE_ORDER) - PASSAGE_ORDER.index(location)
            if location == pos.favour:
                rank += 10
            # Near the mage: the squares next to the rounds it can reach soon.
            near = any(square in pos.adj[r] for r in pos.adj[pos.p.pos]) if pos.p.pos >= 0 else 0
            scored.append((rank + 0.5 * near, a))
        return self._best(scored)

    def _activate(
        self,
        pos: Position,
        main: list[int],
        groups: dict[int, tuple[str, int]],
        context: dict[str, Any] | None,
    ) -> int | None:
        p = pos.p
        done = self._find(groups, "done")
        cards = {c.id: c for c in p.cards}
        options = [(cards[groups[a][1]].power, a) for a in main if groups[a][0] == "activate"]
        if not options:
            return done
        # The Academy character's activations cost magic: only with magic to spare.
        at_academy = p.pos >= 0 and pos.loc[p.pos] == ACADEMY
        if "academy_activate" in p.fx and at_academy and p.magic <= 4:
            return done
        return max(options)[1]
