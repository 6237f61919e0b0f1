"""The Magic Lamp observer: what a seat may know, as a JSON view, a tensor and text.

The tensor is seat-relative: wherever the layout has one block per player, the observing
seat comes first, then the others in turn order (seat+1, seat+2, ... modulo the player
count). A spectator (seat None) sees the table from seat 0 with nothing private. The layout
and the meaning of every value are documented in docs/observations.md; what is hidden
follows view.py (dice before the reveal, race answers before the race resolves, deck orders,
other seats' peeks, and, in the secret phases, whether another seat has answered yet).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arabesque.core.observer import FloatArray, ObservationLayout, Observer, decision_lines
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, METALS, CardKind, load_components
from arabesque.games.magic_lamp.params import MagicLampParams
from arabesque.games.magic_lamp.rules import shared_faces
from arabesque.games.magic_lamp.state import (
    NO_RUB,
    UNDECIDED,
    DecisionKind,
    MagicLampState,
    Phase,
)
from arabesque.games.magic_lamp.view import (
    build_view,
    holdings_summary,
    score_totals,
    tables,
)

_SETTING = Phase.SETTING
_RACE = Phase.RACE
_RESOLVE = Phase.RESOLVE
_NUM_CHESTS = len(CHESTS)
_FACES = A.FACES
#: Decisions whose context names the Lamp card they carry out (public: drawn face up).
_LAMP_DECISIONS = frozenset({DecisionKind.WISH, DecisionKind.EFFECT_CHEST, DecisionKind.EFFECT_DIE})
_ANGRY = frozenset({DecisionKind.ANGRY_TARGET, DecisionKind.ANGRY_STEAL})
#: Where the tensor clips what the rules do not bound (docs/observations.md): a score (real
#: games end near 40-90 points) and the scorpions a seat ignores this turn.
SCORE_CLIP = 200.0
WARD_CLIP = 10.0
#: How many option lines ``text`` prints before it abbreviates (a race has 301 options).
_TEXT_OPTIONS = 8


class MagicLampObserver(Observer[MagicLampState]):
    params: MagicLampParams

    def declare(self, layout: ObservationLayout) -> None:
        params = self.params
        assert isinstance(params, MagicLampParams)
        comp = load_components(params.components)
        n = params.num_players
        c = comp.num_cards
        k = len(comp.stone_types)
        lamps = len(comp.lamp_cards)
        self.num_players = n
        self.num_cards = c
        self.num_stones = k
        self.talismans = tuple(
            cid for cid, kind in enumerate(comp.kinds) if kind is CardKind.TALISMAN
        )
        self.num_kinds = len(DecisionKind)
        #: The race's slowest recorded reaction, in seconds (the race values' bound).
        race_s = A.MAX_RUB_MS / 1000
        add = layout.add
        add("spectator", 1, "1 for a spectator (seat None), who sees the table from seat 0")
        add("players", A.MAX_SEATS - 1, "one-hot of the player count, 2..5")
        add("my_precious", 1, "1 when playing the 'My Precious' variant (the magic ring)")
        add("phase", len(Phase), "one-hot of the phase: setting, race, resolve, over")
        add("turn", 2, "[turn / max_turns, 1 once a Sorcerer has closed the cave]")
        add(
            "to_act",
            n,
            "per relative seat: 1 if it may act now, as the seat may know it (in setting and "
            "race every other seat counts as still to act; the seat itself only until it "
            "has answered)",
        )
        add(
            "decision",
            self.num_kinds,
            "one-hot of the decision the game waits for (DecisionKind: set_die in setting, "
            "race in the race, else the pending decision); all 0 once over",
        )
        add("decision_lamp", lamps, "one-hot of the Lamp card a wish or its effect concerns")
        add("decision_wish", 1, "the wish number (1..3) while a wish is decided, else 0", high=3)
        add("decision_rubber", n, "per relative seat: the mistaken rubber of an angry Genie")
        add(
            "decision_card",
            c,
            "the seat's own decision only: the talisman it places, or the card it gives in "
            "an exchange (one-hot by card id)",
        )
        add(
            "decision_chest",
            _NUM_CHESTS,
            "the seat's own decision only: the chest of the die a Lamp effect changes",
        )
        add(
            "card_holder",
            n * c,
            "per relative seat (blocks of num_cards), per card id: 1 if the seat holds it",
        )
        add("card_protected", c, "per card id: 1 if held and protected (talisman, set piece)")
        add("card_discard", c, "per card id: 1 if in the discard pile")
        add("card_drawn", c, "per card id: 1 if drawn in the search in progress")
        add(
            "card_known_top",
            c,
            "per card id: its place from the top of its chest (1 = top) if the seat saw it "
            "with a peek, else 0",
            high=c,
        )
        add(
            "talisman",
            len(self.talismans) * (k + 1),
            f"per talisman card ({len(self.talismans)}, by id): one-hot of the stone type it "
            f"stands for ({k}), then 'left alone'; all 0 while unplaced or not held",
        )
        add("stones", n * k, "per relative seat, per stone type: stones for majorities", high=c)
        add(
            "sets",
            n * len(METALS),
            "per relative seat, per metal: complete jewelry sets",
            high=c,
        )
        add(
            "score",
            n,
            f"per relative seat: current score (the final one once over), clipped to {SCORE_CLIP}",
            high=SCORE_CLIP,
            clip=True,
        )
        add("ring", n, "per relative seat: 1 if it holds the magic ring")
        add(
            "ward",
            n,
            f"per relative seat: scorpions still ignored this turn, clipped to {WARD_CLIP}",
            high=WARD_CLIP,
            clip=True,
        )
        add(
            "known_top_count",
            n * _NUM_CHESTS,
            "per relative seat, per chest: how many top cards it has seen (public counts)",
            high=c,
        )
        add(
            "dice",
            n * _NUM_CHESTS * _FACES,
            "per relative seat, per chest, per face 1..6: dice there; the seat's own "
            "always, the others' only after the reveal",
        )
        add(
            "dice_to_set",
            1,
            "in setting: how many dice the seat still has to set",
            high=params.dice_per_player,
        )
        add(
            "race_own",
            3,
            "in the race, the seat's own answer: [answered, rubbed, reaction time in s]",
            high=race_s,
        )
        add(
            "race_result",
            n * 4,
            "once this turn's race is resolved, per relative seat: [rubbed, reaction time in "
            "s, summoned the Genie, rubbed by mistake]",
            high=race_s,
        )
        add("shared_faces", _FACES, "after the reveal, per face 1..6: 1 if shared (may rub)")
        add("chest_cards", _NUM_CHESTS, "per chest: cards left", high=c)
        add(
            "sorcerer",
            _NUM_CHESTS * 2,
            "per chest: [1 if its Sorcerer is still in it, cards above the Sorcerer]",
            high=c,
        )
        add("lamp_pile", 1, "cards in the Lamp pile", high=lamps)
        add(
            "lamp_known_bottom",
            lamps,
            "per Lamp card: its place from the bottom of the pile (1 = bottom) if everyone "
            "saw it go under, else 0",
            high=lamps,
        )
        add(
            "draw",
            n + _NUM_CHESTS + 3,
            "the search in progress: one-hot relative seat of the drawer, one-hot chest, "
            "[die face, cards drawn, scorpions counted]",
            high=max(_FACES, c),
        )
        self._offsets = {f.name: f.start for f in layout}

    # -- the three forms ----------------------------------------------------------------

    def view(self, state: MagicLampState, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def fill(self, state: MagicLampState, seat: int | None, out: FloatArray) -> None:
        o = self._offsets
        t = tables(state.comp)
        n = self.num_players
        cards = self.num_cards
        k = self.num_stones
        me = 0 if seat is None else seat
        rel = [(p - me) % n for p in range(n)]
        phase = state.phase
        revealed = phase is not _SETTING
        # Indices set to 1, and (index, value) pairs for everything else: written at once
        # with fancy indexing, cheaper than one numpy scalar write each.
        ones: list[int] = []
        idx: list[int] = []
        val: list[float] = []
        if seat is None:
            ones.append(o["spectator"])
        ones.append(o["players"] + n - 2)
        if state.params.my_precious:
            ones.append(o["my_precious"])
        ones.append(o["phase"] + phase)
        idx.append(o["turn"])
        val.append(state.turn / state.params.max_turns)
        if state.cave_closed:
            ones.append(o["turn"] + 1)
        base = o["to_act"]
        ones.extend([base + rel[p] for p in state.to_act_seen_by(seat)])

        # -- the decision waited for --
        pending = state.pending if phase is _RESOLVE else None
        if phase is _SETTING:
            ones.append(o["decision"] + DecisionKind.SET_DIE)
        elif phase is _RACE:
            ones.append(o["decision"] + DecisionKind.RACE)
        elif pending is not None:
            kind, who, _, ctx = pending
            ones.append(o["decision"] + kind)
            if kind in _LAMP_DECISIONS:
                ones.append(o["decision_lamp"] + ctx[0])
                if kind is DecisionKind.WISH:
                    idx.append(o["decision_wish"])
                    val.append(ctx[1])
            elif kind in _ANGRY:
                ones.append(o["decision_rubber"] + rel[ctx[0]])
            elif who == seat:
                # The context of the seat's own choice: what it chose a step earlier.
                if kind is DecisionKind.TALISMAN or kind is DecisionKind.SWAP_THEIRS:
                    ones.append(o["decision_card"] + ctx[0])
                elif kind is DecisionKind.EFFECT_FACE or kind is DecisionKind.EFFECT_MOVE:
                    ones.append(o["decision_chest"] + ctx[0])

        # -- cards --
        summary = holdings_summary(state, t)
        totals = score_totals(state, t, summary)
        base = o["card_holder"]
        protected_base = o["card_protected"]
        stones_base = o["stones"]
        sets_base = o["sets"]
        score_base = o["score"]
        ward_base = o["ward"]
        known_base = o["known_top_count"]
        for p in range(n):
            r = rel[p]
            at = base + r * cards
            ones.extend([at + c for c in state.holdings[p]])
            hand = summary[p]
            stones, sets, protected = hand.stones, hand.sets, hand.protected
            if protected:
                ones.extend([protected_base + c for c in protected])
            for st in range(k):
                if stones[st]:
                    idx.append(stones_base + r * k + st)
                    val.append(stones[st])
            for m in range(3):
                if sets[m]:
                    idx.append(sets_base + r * 3 + m)
                    val.append(sets[m])
            if totals[p]:
                idx.append(score_base + r)
                val.append(totals[p])
            if state.ward[p]:
                idx.append(ward_base + r)
                val.append(state.ward[p])
            for ch, known in enumerate(state.known_top[p]):
                if known:
                    idx.append(known_base + r * _NUM_CHESTS + ch)
                    val.append(len(known))
        if state.ring >= 0:
            ones.append(o["ring"] + rel[state.ring])
        base = o["card_discard"]
        ones.extend([base + c for c in state.discard])
        draw = state.draw_ctx
        if draw is not None:
            drawer, chest, face, drawn, scorpions = draw
            base = o["card_drawn"]
            ones.extend([base + c for c in drawn])
            base = o["draw"]
            ones.append(base + rel[drawer])
            ones.append(base + n + chest)
            idx.extend((base + n + 3, base + n + 4, base + n + 5))
            val.extend((face, len(drawn), scorpions))
        if seat is not None:
            base = o["card_known_top"]
            for known in state.known_top[seat]:
                for depth, c in enumerate(known):
                    idx.append(base + c)
                    val.append(depth + 1)
        if self.talismans:
            base = o["talisman"]
            talisman_on = state.talisman_on
            for i, c in enumerate(self.talismans):
                on = talisman_on.get(c)
                if on is not None:
                    # LONE (-1) is the last of the k + 1 places.
                    ones.append(base + i * (k + 1) + (on if on >= 0 else k))

        # -- dice and the race --
        base = o["dice"]
        for p in range(n):
            if revealed or p == seat:
                at = base + rel[p] * _NUM_CHESTS * _FACES
                for chest, face in state.dice[p]:
                    idx.append(at + chest * _FACES + face - 1)
                    val.append(1.0)
        if phase is _SETTING and seat is not None:
            left = state.params.dice_per_player - len(state.dice[seat])
            if left:
                idx.append(o["dice_to_set"])
                val.append(left)
        if phase is _RACE and seat is not None:
            ms = state.rub[seat]
            if ms != UNDECIDED:
                ones.append(o["race_own"])
                if ms != NO_RUB:
                    ones.append(o["race_own"] + 1)
                    idx.append(o["race_own"] + 2)
                    val.append(ms / 1000)
        result = state.race_result
        if result is not None:
            base = o["race_result"]
            for key, ms in result["rubs"].items():
                at = base + rel[int(key)] * 4
                ones.append(at)
                idx.append(at + 1)
                val.append(ms / 1000)
            for p in state.summoners:
                ones.append(base + rel[p] * 4 + 2)
            for p in result["mistaken"]:
                ones.append(base + rel[p] * 4 + 3)
        if revealed:
            base = o["shared_faces"] - 1
            ones.extend([base + f for f in sorted(shared_faces(state))])

        # -- chests and the Lamp pile --
        base = o["chest_cards"]
        sorcerer_base = o["sorcerer"]
        for ch, deck in enumerate(state.decks):
            if deck:
                idx.append(base + ch)
                val.append(len(deck))
                try:
                    above = len(deck) - 1 - deck.index(t.sorcerers[ch])
                except ValueError:
                    continue
                ones.append(sorcerer_base + 2 * ch)
                if above:
                    idx.append(sorcerer_base + 2 * ch + 1)
                    val.append(above)
        lamp_deck = state.lamp_deck
        if lamp_deck:
            idx.append(o["lamp_pile"])
            val.append(len(lamp_deck))
            base = o["lamp_known_bottom"]
            for depth in range(state.lamp_known):
                idx.append(base + lamp_deck[depth])
                val.append(depth + 1)

        out[ones] = 1.0
        out[idx] = val

    def text(self, state: MagicLampState, seat: int | None) -> str:
        from arabesque.games.magic_lamp.decisions import WAITING

        t = tables(state.comp)
        comp = state.comp
        n = state.num_players
        phase = state.phase
        revealed = phase is not _SETTING
        summary = holdings_summary(state, t)
        totals = score_totals(state, t, summary)
        who = "a spectator" if seat is None else f"seat {seat}"
        lines = [
            f"Magic Lamp, turn {state.turn}/{state.params.max_turns}, {phase.name.lower()}"
            f"{' (the cave is closed)' if state.cave_closed else ''}; you are {who} of {n}."
        ]
        acting = sorted(state.to_act_seen_by(seat))
        if phase is _SETTING:
            doing = "setting dice in secret"
        elif phase is _RACE:
            doing = "answering the lamp race"
        elif state.pending is not None:
            doing = WAITING[state.pending[0]]
        else:
            doing = "nothing: the game is over"
        if acting:
            lines.append(f"To act: {', '.join(f'seat {p}' for p in acting)}, {doing}.")
        order = range(n) if seat is None else [(seat + i) % n for i in range(n)]
        for p in order:
            sets = summary[p].sets
            score = totals[p]
            held = _summarise(t.short_name[c] for c in state.holdings[p]) or "no cards"
            extras = []
            if state.ring == p:
                extras.append("the ring")
            if any(sets):
                extras.append(f"{sum(sets)} set(s)")
            dice = state.dice[p]
            if dice and (revealed or p == seat):
                extras.append("dice " + " ".join(f"{CHESTS[ch]} {face}" for ch, face in dice))
            if state.ward[p]:
                extras.append(f"ward {state.ward[p]}")
            name = "You" if p == seat else f"Seat {p}"
            more = f"; {', '.join(extras)}" if extras else ""
            lines.append(f"{name}: score {score}{more}; {held}.")
        chests = []
        for ch, deck in enumerate(state.decks):
            where = ""
            if t.sorcerers[ch] in deck:
                above = len(deck) - 1 - deck.index(t.sorcerers[ch])
                where = f", Sorcerer under {above}"
            chests.append(f"{CHESTS[ch]} {len(deck)}{where}")
        lines.append(
            f"Chests: {'; '.join(chests)}. Lamp pile {len(state.lamp_deck)}; "
            f"discard {len(state.discard)}."
        )
        if seat is not None:
            for ch, known in enumerate(state.known_top[seat]):
                if known:
                    seen = ", ".join(comp.describe(c) for c in known)
                    lines.append(f"You know the top of the {CHESTS[ch]} chest: {seen}.")
        if revealed and phase is not Phase.OVER:
            shared = sorted(shared_faces(state))
            lines.append(
                "Shared faces: " + (", ".join(map(str, shared)) if shared else "none") + "."
            )
        if phase is _RACE and seat is not None:
            ms = state.rub[seat]
            if ms != UNDECIDED:
                answer = "no rub" if ms == NO_RUB else f"rub after {ms} ms"
                lines.append(f"You answered the race: {answer}.")
        result = state.race_result
        if result is not None:
            won = [
                f"seat {r['winner']} (face {r['face']})"
                for r in result["races"]
                if r["winner"] is not None
            ]
            race = "Genie summoned by " + ", ".join(won) if won else "nobody summoned the Genie"
            if result["mistaken"]:
                race += "; rubbed by mistake: " + ", ".join(f"seat {p}" for p in result["mistaken"])
            lines.append(f"Race: {race}.")
        draw = state.draw_ctx
        if draw is not None:
            drawer, chest, face, drawn, scorpions = draw
            got = ", ".join(comp.describe(c) for c in drawn) or "nothing yet"
            lines.append(
                f"Seat {drawer} searches the {CHESTS[chest]} chest with a {face}: {got} "
                f"({scorpions} scorpion{'' if scorpions == 1 else 's'})."
            )
        if phase is Phase.OVER:
            lines.append("Game over; scores " + ", ".join(map(str, totals)) + ".")
        lines.extend(decision_lines(state, seat, _TEXT_OPTIONS))
        return "\n".join(lines)


def _summarise(names: Iterable[str]) -> str:
    """``ruby x2, gold ring``: names in order of first appearance, with their counts."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if k == 1 else f"{name} x{k}" for name, k in counts.items())
