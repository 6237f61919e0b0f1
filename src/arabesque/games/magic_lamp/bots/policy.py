"""The heuristic agent: it dispatches on the kind of its seat's decision, and each handler ranks
the options offered by the values of evaluation.py and search.py.

The agent's own state is what a player remembers between decisions: last turn's dice (not to
be predictable), the second die planned with the first (2 players), and the die change or
exchange planned when a Lamp card was valued, carried out by the decisions that follow.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.agents.reaction import ReactionProfile
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.bots.evaluation import (
    WISH_VALUE,
    Board,
    best_swap,
    ring_value,
    steal_value,
)
from arabesque.games.magic_lamp.bots.position import Kind, _kinds, all_dice, granted_lamp, holder
from arabesque.games.magic_lamp.bots.search import (
    best_die_change,
    chest_model,
    dice_values,
    my_searches,
    search_value,
    top_cards_value,
)
from arabesque.games.magic_lamp.components import CHESTS, Components, EffectKind
from arabesque.games.magic_lamp.rules import MAX_WISHES, RING_FACE


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
        wish_value: float = WISH_VALUE,
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
        self._kinds: list[Kind] = []
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
        board = Board(view, comp, obs.seat, self.rival_weight, self._kinds, self.set_hope)
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
        board = Board(view, comp, me, self.rival_weight, self._kinds, self.set_hope)
        ev, lamp = dice_values(
            view, comp, board, self.depth, self.wish_value, self.repeat_penalty, self._last_dice
        )
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

    def _draw(self, view: dict[str, Any], comp: Components, board: Board) -> int:
        draw = view["draw"]
        c = CHESTS.index(draw["chest"])
        model = chest_model(view, comp, board, c)
        kept = 0.0
        for cid in board.drawing:
            kept += board.gain(board.card_kind[cid])
        face = int(draw["face"])
        ring = ring_value(view, board) if face == RING_FACE else 0.0
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
        self, view: dict[str, Any], comp: Components, board: Board, context: Mapping[str, Any]
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
        self, view: dict[str, Any], comp: Components, board: Board, lamp: dict[str, Any]
    ) -> float:
        effect = EffectKind(lamp["effect"])
        count = int(lamp["count"])
        chest = lamp["chest"]
        chests = [CHESTS.index(chest)] if chest else list(range(len(CHESTS)))
        if effect is EffectKind.DRAW_CHEST:
            return max(top_cards_value(view, comp, board, c, count) for c in chests)
        if effect is EffectKind.STEAL:
            options = [cid for p in range(board.n) if p != board.me for cid in board.stealable[p]]
            return max((steal_value(board, cid) for cid in options), default=0.0)
        if effect is EffectKind.SWAP:
            pair = best_swap(board)
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
            mine = my_searches(view)
            return 0.8 if any(c in chests for c, _ in mine) else 0.2
        if effect in (EffectKind.SET_DIE, EffectKind.MOVE_DIE):
            best = best_die_change(view, comp, board, effect)
            if best is None:
                return 0.0
            self._die_plan = (effect, *best[1])
            return best[0]
        if effect is EffectKind.WARD:
            total = 0.0
            for c, f in my_searches(view):
                model = chest_model(view, comp, board, c)
                ward = int(view["players"][board.me]["ward"])
                with_ward = search_value(model, f, ward=ward + count)[0]
                total += with_ward - search_value(model, f, ward=ward)[0]
            return total
        return 0.0  # pragma: no cover - EffectKind is closed

    # -- effect decisions -----------------------------------------------------------------------

    def _effect_chest(
        self, view: dict[str, Any], comp: Components, board: Board, legal: Sequence[int]
    ) -> int:
        chests = [a - A.CHEST_BASE for a in legal]
        lamp = granted_lamp(view)
        if lamp is not None and lamp["effect"] == EffectKind.PEEK.value:
            mine = [c for c, _ in my_searches(view) if c in chests]
            if mine:
                return A.chest(mine[0])
            return A.chest(self.rng.choice(chests))
        count = int(lamp["count"]) if lamp is not None else 1
        return A.chest(max(chests, key=lambda c: top_cards_value(view, comp, board, c, count)))

    def _effect_die(
        self, view: dict[str, Any], comp: Components, board: Board, legal: Sequence[int]
    ) -> int:
        lamp = granted_lamp(view)
        effect = EffectKind(lamp["effect"]) if lamp is not None else EffectKind.SET_DIE
        best = best_die_change(view, comp, board, effect)
        if best is not None:
            self._die_plan = (effect, *best[1])
            if A.chest(best[1][0]) in legal:
                return A.chest(best[1][0])
        return self._fallback(legal)

    def _effect_change(
        self,
        view: dict[str, Any],
        comp: Components,
        board: Board,
        legal: Sequence[int],
        kind: str,
    ) -> int:
        effect = EffectKind.SET_DIE if kind == "effect_face" else EffectKind.MOVE_DIE
        my_chests = {c for p, c, _ in all_dice(view) if p == board.me}
        plan = self._die_plan
        target: int | None = None
        if plan is not None and plan[0] is effect and plan[1] in my_chests:
            target = plan[2]
        else:
            best = best_die_change(view, comp, board, effect)
            target = best[1][1] if best is not None else None
        if target is not None:
            a = A.face(target) if effect is EffectKind.SET_DIE else A.chest(target)
            if a in legal:
                return a
        return self._fallback(legal)

    def _take_card(self, board: Board, legal: Sequence[int]) -> int:
        cards = [a - A.CARD_BASE for a in legal]
        return A.card(max(cards, key=lambda cid: steal_value(board, cid)))

    def _best_card(self, board: Board, cards: list[int]) -> int:
        return A.card(max(cards, key=lambda cid: board.gain(board.card_kind[cid])))

    def _angry_target(self, board: Board, legal: Sequence[int]) -> int:
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

    def _swap_own(self, board: Board, legal: Sequence[int]) -> int:
        best = best_swap(board)
        if best is not None and A.card(best[1][0]) in legal:
            self._swap_plan = best[1]
            return A.card(best[1][0])
        return self._fallback(legal)

    def _swap_theirs(self, board: Board, legal: Sequence[int]) -> int:
        plan = self._swap_plan
        given = plan[0] if plan is not None else None
        cards = [a - A.CARD_BASE for a in legal]
        if given is None or given not in board.card_kind:
            return A.card(max(cards, key=lambda cid: steal_value(board, cid)))
        # The given card has already left... not yet: the swap applies both moves at once.
        return A.card(
            max(
                cards,
                key=lambda cid: board.move_value(
                    [
                        (board.card_kind[given], board.me, holder(board, cid)),
                        (board.card_kind[cid], holder(board, cid), board.me),
                    ]
                ),
            )
        )
