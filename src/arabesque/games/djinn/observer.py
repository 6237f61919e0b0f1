"""The Djinn observer: the JSON view (view.py), a float32 tensor and a short text.

Seats are absolute in the tensor (block p is seat p); everything encoded is public (see
view.py), so the tensor of every seat differs only in the ``seat`` one-hot, ``decision`` and
``secret_scoring`` (the seat's own face-down scoring cards).
"""

from __future__ import annotations

from typing import Any

from arabesque.core.observer import FloatArray, ObservationLayout, Observer, decision_lines
from arabesque.games.djinn.actions import ROUNDS, SPACE_NAMES
from arabesque.games.djinn.components import COLOURS, KINDS, LOCATIONS, load_components
from arabesque.games.djinn.params import DjinnParams
from arabesque.games.djinn.state import DjinnState, Kind
from arabesque.games.djinn.view import build_view

_SPACES = len(SPACE_NAMES)
_CIRCLE_STATES = 2 + len(KINDS)  # inactive/covered, empty, a kind


class DjinnObserver(Observer[DjinnState]):
    params: DjinnParams

    def declare(self, layout: ObservationLayout) -> None:
        params = self.params
        assert isinstance(params, DjinnParams)
        comp = load_components(params.components)
        n = params.num_players
        self.n = n
        self.mages = len(comp.mage_cards)
        self.equip = len(comp.equipment)
        self.trophies = len(comp.trophies)
        layout.add("seat", n + 1, "one-hot of the observing seat; the last is a spectator")
        layout.add("current", n, "one-hot of the seat to play")
        layout.add(
            "stage", 5, "one-hot: playing, finishing the round, last round, final Source, over"
        )
        layout.add("round", 1, "round / 100, at most 1")
        layout.add("decision", len(Kind), "one-hot of the open decision's kind")
        layout.add(
            "catch",
            len(KINDS),
            "Djinn selected in the open catch, per kind / 4 (clipped to 5)",
            high=5,
            clip=True,
        )
        layout.add(
            "space_location",
            _SPACES * (len(LOCATIONS) + 1),
            "per space: one-hot location (last: Source)",
        )
        layout.add(
            "space_djinn",
            _SPACES * len(KINDS),
            "per space: Djinn per kind / 5 (clipped to 5)",
            high=5,
            clip=True,
        )
        layout.add("space_mages", _SPACES * n, "per space, per seat: 1 if the mage is there")
        layout.add(
            "mage_edges",
            n * _SPACES,
            "per seat: one-hot of the space its mage came from, the edge it stands at",
        )
        layout.add(
            "space_passages",
            _SPACES * n,
            "per space, per seat: 1 if a passage of the seat is there",
        )
        layout.add(
            "resources",
            n * 9,
            "per seat: coins/20, scrolls/20, keys/10, corks/10, magic/8, "
            "max magic/8, base/8, capacity/8, flipped (each clipped to 10)",
            high=10,
            clip=True,
        )
        layout.add(
            "circles", n * 4 * _CIRCLE_STATES, "per seat, per circle: one-hot inactive, empty, kind"
        )
        layout.add(
            "bottles",
            n * len(COLOURS) * 3,
            "per seat, per colour: empty, Djinn, bosses (/5, clipped to 5)",
            high=5,
            clip=True,
        )
        layout.add("mage_cards", n * self.mages * 2, "per seat, per Mage card: owned, active")
        layout.add("equipment", n * self.equip * 2, "per seat, per Equipment card: owned, face up")
        layout.add("trophies_held", n * self.trophies, "per seat, per trophy: held")
        layout.add("tavern", 4 * self.mages, "per pile: one-hot of its top card")
        layout.add("manufactory", 3 * self.equip, "per type: one-hot of its top card")
        layout.add("trophies_left", self.trophies, "per trophy: still on display")
        layout.add("scoring_cards", len(comp.scoring_cards), "per scoring card: in play")
        layout.add(
            "bag",
            len(COLOURS) + 1,
            "Djinn per colour in the bag / 12, bosses beside the board / 8 (clipped to 5)",
            high=5,
            clip=True,
        )
        layout.add("tom", 2, "Tom's cards left / 15, solo won (clipped to 5)", high=5, clip=True)
        layout.add(
            "secret_scoring",
            len(comp.scoring_cards),
            "per scoring card: 1 if it is one of the observing seat's face-down cards",
        )

    def view(self, state: DjinnState, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def fill(self, state: DjinnState, seat: int | None, out: FloatArray) -> None:
        lay = self.layout
        n = self.n
        out[lay["seat"].start + (n if seat is None else seat)] = 1.0
        if not state.over:
            out[lay["current"].start + state.current] = 1.0
        out[lay["stage"].start + state.stage] = 1.0
        out[lay["round"].start] = min(state.round, 100) / 100
        top = state.stack.top
        if top is not None:
            out[lay["decision"].start + top.kind] = 1.0
            if top.kind in (Kind.CATCH_SELECT, Kind.CATCH_PAY):
                base = lay["catch"].start
                for k, count in enumerate(top.context[1]):
                    out[base + k] = count / 4
        nl = len(LOCATIONS) + 1
        loc0, dj0, mg0, ps0 = (
            lay[f].start for f in ("space_location", "space_djinn", "space_mages", "space_passages")
        )
        for s in range(_SPACES):
            location = state.loc[s]
            out[loc0 + s * nl + (len(LOCATIONS) if location < 0 else location)] = 1.0
            if s in ROUNDS:
                for k, count in enumerate(state.djinn[s]):
                    out[dj0 + s * len(KINDS) + k] = count / 5
            for q, _ in state.passages[s]:
                out[ps0 + s * n + q] = 1.0
        # The edge each mage stands at (the space it came from) decides who pays it: only
        # a mage arriving along the same path (ruling D27).
        edge0 = lay["mage_edges"].start
        for q in range(n):
            if state.pos[q] >= 0:
                out[mg0 + state.pos[q] * n + q] = 1.0
                if state.came[q] >= 0:
                    out[edge0 + q * _SPACES + state.came[q]] = 1.0
        res = lay["resources"].start
        circ = lay["circles"].start
        bot = lay["bottles"].start
        mag = lay["mage_cards"].start
        eq = lay["equipment"].start
        th = lay["trophies_held"].start
        from arabesque.games.djinn.rules import max_magic

        for p in range(n):
            values = (
                state.coins[p] / 20,
                state.scrolls[p] / 20,
                state.keys[p] / 10,
                state.corks[p] / 10,
                state.magic[p] / 8,
                max_magic(state, p) / 8,
                state.base[p] / 8,
                state.capacity[p] / 8,
                float(state.flipped[p]),
            )
            out[res + p * 9 : res + p * 9 + 9] = values
            for i, c in enumerate(state.circles[p]):
                out[circ + (p * 4 + i) * _CIRCLE_STATES + (0 if c < -1 else c + 2)] = 1.0
            for c in range(len(COLOURS)):
                b = bot + (p * len(COLOURS) + c) * 3
                out[b] = state.bottles[p][c] / 5
                out[b + 1] = state.filled[p][c] / 5
                out[b + 2] = state.filled_boss[p][c] / 5
            for card in state.mage_of[p]:
                out[mag + (p * self.mages + card) * 2] = 1.0
                out[mag + (p * self.mages + card) * 2 + 1] = float(state.mage_active[card])
            for e in state.equip_of[p]:
                out[eq + (p * self.equip + e) * 2] = 1.0
                out[eq + (p * self.equip + e) * 2 + 1] = float(state.equip_up[e])
            for t in state.trophies_of[p]:
                out[th + p * self.trophies + t] = 1.0
        for i, pile in enumerate(state.piles):
            if pile:
                out[lay["tavern"].start + i * self.mages + pile[-1]] = 1.0
        for t, stack in enumerate(state.equip_stacks):
            if stack:
                out[lay["manufactory"].start + t * self.equip + stack[-1]] = 1.0
        for row in state.trophy_rows:
            for t in row:
                out[lay["trophies_left"].start + t] = 1.0
        for c in state.scoring:
            out[lay["scoring_cards"].start + c] = 1.0
        bag = lay["bag"].start
        for c in range(len(COLOURS)):
            out[bag + c] = state.bag[c] / 12
        out[bag + len(COLOURS)] = state.supply_bosses / 8
        out[lay["tom"].start] = len(state.tom_deck) / 15
        out[lay["tom"].start + 1] = float(bool(state.won))
        if seat is not None:
            for c in state.secret[seat]:
                out[lay["secret_scoring"].start + c] = 1.0

    def text(self, state: DjinnState, seat: int | None) -> str:
        view = build_view(state, seat)
        lines = [
            "Game over"
            if state.over
            else f"Round {view['round']} ({view['stage']}), player {view['current']} to play",
            f"Bosses on the board: {view['bosses_on_board']}",
        ]
        for space in view["spaces"]:
            bits = [f"{space['id']:6} {space['location'] or 'Magic Source'}"]
            if space.get("djinn"):
                bits.append(" ".join(f"{k}:{v}" for k, v in space["djinn"].items() if v))
            if space["mages"]:
                bits.append(f"mages {space['mages']}")
            lines.append("  ".join(bits))
        for pl in view["players"]:
            bottled = sum(b["djinn"] + b["bosses"] for b in pl["bottles"].values())
            lines.append(
                f"Player {pl['seat']}: {pl['coins']} coins, {pl['scrolls']} scrolls, "
                f"{pl['keys']} keys, {pl['corks']} corks, magic {pl['magic']}/{pl['max_magic']}, "
                f"circles {pl['circles']}, {bottled} bottled, {len(pl['mage_cards'])} Mage "
                f"cards, {len(pl['trophies'])} trophies"
            )
        if "tom" in view:
            lines.append(f"Tom: {view['tom']['cards_left']} cards left")
        lines.append("Scores: " + ", ".join(str(s["total"]) for s in view["scores"]))
        return "\n".join([*lines, *decision_lines(state, seat)])
