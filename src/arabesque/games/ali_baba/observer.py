"""The Ali Baba observer: what a seat may know, as a JSON view, a tensor and text.

The tensor is seat-relative: wherever the layout has one block per player, the observing
seat comes first, then the others in turn order (seat+1, seat+2, ... modulo the player
count). A spectator (seat None) sees the table from seat 0 with nothing private. The layout
and the meaning of every value are documented in docs/observations.md; what is hidden
follows view.py (face-down tiles and the box, which are one pool of unseen tiles, and in a
yellow effect the others' show choices, and whether they have made them, until all are in).
"""

from __future__ import annotations

from typing import Any

from arabesque.core.observer import FloatArray, ObservationLayout, Observer, decision_lines
from arabesque.games.ali_baba.components import SET_POINTS, load_tiles
from arabesque.games.ali_baba.decisions import decision_kind
from arabesque.games.ali_baba.params import VARIANTS, AliBabaParams
from arabesque.games.ali_baba.state import EMPTY, NOT_SHOWN, AliBabaState, DecisionKind, Phase
from arabesque.games.ali_baba.view import build_view

_SHOW = Phase.SHOW
_STEAL = Phase.STEAL
_OVER = Phase.OVER
#: The fewest and most players of Ali Baba (the spec's 2..4).
_MIN_PLAYERS, _MAX_PLAYERS = 2, 4


#: Where the tensor clips what the rules do not bound (docs/observations.md): turn and
#: round numbers (real games end near 50 turns), and points (track and treasure).
TURN_CLIP = 200.0
POINTS_CLIP = 200.0


class AliBabaObserver(Observer[AliBabaState]):
    params: AliBabaParams

    def declare(self, layout: ObservationLayout) -> None:
        params = self.params
        assert isinstance(params, AliBabaParams)
        tiles = load_tiles()
        board = tiles.boards[params.board_id]
        n = params.num_players
        t = tiles.num_tiles
        kinds = len(tiles.kinds)
        colours = len(tiles.colours)
        places = board.size
        self.num_players = n
        self.num_tiles = t
        self.num_kinds = kinds
        self.num_colours = colours
        self.num_places = places
        #: The score-track colours (those whose effect scores points), in colour order.
        self.track = tuple(c.name for c in tiles.colours if c.points)
        self.variant = VARIANTS.index(params.variant)
        self.kind_of = tiles.kind
        self.colour_of = tiles.colour
        add = layout.add
        add("spectator", 1, "1 for a spectator (seat None), who sees the table from seat 0")
        add(
            "players",
            _MAX_PLAYERS - _MIN_PLAYERS + 1,
            f"one-hot of the player count, {_MIN_PLAYERS}..{_MAX_PLAYERS}",
        )
        add("variant", len(VARIANTS), f"one-hot of the variant: {', '.join(VARIANTS)}")
        add("phase", len(Phase), "one-hot of the phase: take, lamp, effect, show, steal, over")
        add(
            "decision",
            len(DecisionKind),
            "one-hot of the decision the game waits for (DecisionKind: take, lamp, also_take, "
            "forbid, yellow, show, steal); all 0 once over",
        )
        add(
            "turn",
            4,
            "[turn number (1 = the first), round number, 1 once the last face-down tile is "
            f"flipped, turns left including this one once it is (else 0)], clipped to "
            f"{TURN_CLIP}",
            high=TURN_CLIP,
            clip=True,
        )
        add("current", n, "per relative seat: 1 for the seat whose turn it is (0 once over)")
        add(
            "to_act",
            n,
            "per relative seat: 1 if it may act now, as the seat may know it (while "
            "opponents choose what to show, every other opponent with a choice counts as "
            "still choosing; the seat itself only until it has chosen)",
        )
        add(
            "place_state",
            places * 3,
            f"per board place ({places}, in board order), one-hot: [empty, face down, face up]",
        )
        add("place_cover", places, "per board place: tiles still resting on it", high=t)
        add("place_kind", places * kinds, "per board place: one-hot kind of its face-up tile")
        add(
            "place_colour",
            places * colours,
            "per board place: one-hot colour of its face-up tile",
        )
        add("tile_board", t, "per tile id: 1 if face up on the board")
        add(
            "tile_unseen",
            t,
            "per tile id: 1 if nobody has seen it (face down on the board or in the box)",
        )
        add("tile_aside", t, "per tile id: 1 if set aside (Aladdin's lamp variant)")
        add("tile_removed", t, "per tile id: 1 if its kind is out of the game (variants)")
        add(
            "tile_hand",
            n * t,
            "per relative seat (blocks of num_tiles), per tile id: 1 if behind its screen",
        )
        add("removed_kinds", kinds, "per kind: 1 if out of the game (variants)")
        add("unseen", 2, "[face-down tiles on the board, tiles in the box]", high=t)
        add(
            "blocks",
            n * (kinds + colours),
            "per relative seat that played white, the kind (one-hot over kinds) or colour "
            "(one-hot over colours) it forbids to the others until its next turn",
        )
        add(
            "track",
            n * len(self.track),
            f"per relative seat, per scoring colour ({', '.join(self.track)}): its points "
            f"on the score track, clipped to {POINTS_CLIP}",
            high=POINTS_CLIP,
            clip=True,
        )
        add("hand_size", n, "per relative seat: tiles behind its screen", high=t)
        add(
            "treasure",
            n,
            "per relative seat: what its tiles score now by kind (1/3/6/...), clipped to "
            f"{POINTS_CLIP}",
            high=POINTS_CLIP,
            clip=True,
        )
        add("taken", t, "this turn: one-hot tile taken from the board")
        add("taken_place", places, "this turn: one-hot board place it was taken from")
        add("effect_tile", t, "this turn: one-hot tile whose effect is used (after a swap)")
        add("flipped", 1, "this turn: tiles flipped so far", high=t)
        add(
            "show_choosing",
            n,
            "yellow effect: per relative seat, 1 if it chooses a tile to show (an opponent "
            "with more than one tile), whether or not it has chosen yet",
        )
        add("show_mine", t, "yellow effect: one-hot tile the seat itself chose to show")
        add("shown", t, "after the showing: per tile id, 1 if shown and may be stolen")
        self._offsets = {f.name: f.start for f in layout}

    # -- the three forms ----------------------------------------------------------------

    def view(self, state: AliBabaState, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def fill(self, state: AliBabaState, seat: int | None, out: FloatArray) -> None:
        o = self._offsets
        n = self.num_players
        t = self.num_tiles
        kinds = self.num_kinds
        colours = self.num_colours
        kind_of = self.kind_of
        colour_of = self.colour_of
        me = 0 if seat is None else seat
        rel = [(p - me) % n for p in range(n)]
        phase = state.phase
        # Indices set to 1, and (index, value) pairs for counts: written at once with fancy
        # indexing, cheaper than one numpy scalar write each.
        ones: list[int] = []
        idx: list[int] = []
        val: list[float] = []
        if seat is None:
            ones.append(o["spectator"])
        ones.append(o["players"] + n - _MIN_PLAYERS)
        ones.append(o["variant"] + self.variant)
        ones.append(o["phase"] + phase)
        if phase is not _OVER:
            ones.append(o["decision"] + decision_kind(state))
            ones.append(o["current"] + rel[state.current])
        base = o["turn"]
        idx.extend((base, base + 1))
        val.extend((state.turn + 1, state.turn // n + 1))
        if state.last_turn is not None:
            ones.append(base + 2)
            idx.append(base + 3)
            val.append(max(0, state.last_turn - state.turn + 1))
        base = o["to_act"]
        ones.extend([base + rel[p] for p in state.to_act_seen_by(seat)])

        # -- the board: a face-down place is only "face down" --
        state_base = o["place_state"]
        cover_base = o["place_cover"]
        kind_base = o["place_kind"]
        colour_base = o["place_colour"]
        unseen_base = o["tile_unseen"]
        cover = state.cover
        for place, tile in enumerate(state.cell):
            if tile == EMPTY:
                ones.append(state_base + 3 * place)
                continue
            covered = cover[place]
            if covered > 0:
                ones.append(state_base + 3 * place + 1)
                # Unseen: which face-down tile lies here is re-dealt by determinization.
                ones.append(unseen_base + tile)
                idx.append(cover_base + place)
                val.append(covered)
            else:
                ones.append(state_base + 3 * place + 2)
                ones.append(kind_base + kinds * place + kind_of[tile])
                ones.append(colour_base + colours * place + colour_of[tile])

        # -- where each tile is --
        base = o["tile_board"]
        ones.extend([base + tile for tile in state.face_up])
        base = o["tile_aside"]
        ones.extend([base + tile for tile in state.aside])
        removed = state.removed_kinds
        if removed:
            base = o["tile_removed"]
            ones.extend([base + tile for tile in range(t) if kind_of[tile] in removed])
            base = o["removed_kinds"]
            ones.extend([base + k for k in removed])
        hand_base = o["tile_hand"]
        size_base = o["hand_size"]
        treasure_base = o["treasure"]
        track_base = o["track"]
        track = self.track
        num_track = len(track)
        for p, hand in enumerate(state.hands):
            r = rel[p]
            if hand:
                at = hand_base + r * t
                ones.extend([at + tile for tile in hand])
                idx.append(size_base + r)
                val.append(len(hand))
                counts: dict[int, int] = {}
                for tile in hand:
                    k = kind_of[tile]
                    counts[k] = counts.get(k, 0) + 1
                # rulebook, End of the game: 1/3/6/10/15/21 points for 1-6 tiles of a kind.
                idx.append(treasure_base + r)
                val.append(sum(SET_POINTS[c] for c in counts.values()))
            points = state.points[p]
            for i, colour in enumerate(track):
                if points[colour]:
                    idx.append(track_base + r * num_track + i)
                    val.append(points[colour])
        # The face-down tiles (above) and the box are one pool of unseen tiles.
        ones.extend([unseen_base + tile for tile in state.box])
        base = o["unseen"]
        idx.extend((base, base + 1))
        val.extend((state.face_down, len(state.box)))

        # -- white blocks --
        base = o["blocks"]
        for by, is_kind, what in state.blocks:
            ones.append(base + rel[by] * (kinds + colours) + (what if is_kind else kinds + what))

        # -- this turn --
        if state.taken != EMPTY and phase is not _OVER:
            ones.append(o["taken"] + state.taken)
            ones.append(o["taken_place"] + state.taken_place)
            if state.effect_tile != EMPTY:
                ones.append(o["effect_tile"] + state.effect_tile)
            if state.flipped:
                idx.append(o["flipped"])
                val.append(state.flipped)
        if phase is _SHOW:
            base = o["show_choosing"]
            ones.extend([base + rel[p] for p in state.show_choosers()])
            if seat is not None and state.shows[seat] != NOT_SHOWN:
                ones.append(o["show_mine"] + state.shows[seat])
        elif phase is _STEAL:
            base = o["shown"]
            ones.extend([base + tile for tile in state.shows if tile != NOT_SHOWN])

        out[ones] = 1.0
        out[idx] = val

    def text(self, state: AliBabaState, seat: int | None) -> str:
        tiles = state.tiles
        n = state.num_players
        phase = state.phase
        who = "a spectator" if seat is None else f"seat {seat}"
        header = (
            f"Ali Baba ({state.params.variant}), turn {state.turn + 1}, round "
            f"{state.turn // n + 1}; you are {who} of {n}."
        )
        if state.last_turn is not None:
            header += f" Last turn: {state.last_turn + 1}."
        lines = [header]
        if phase is _OVER:
            totals = [sc.total for sc in state.scores()]
            lines.append("Game over; scores " + ", ".join(map(str, totals)) + ".")
        else:
            acting = sorted(state.to_act_seen_by(seat))
            lines.append(
                f"Now: {state.phase_description()}; to act: "
                f"{', '.join(f'seat {p}' for p in acting)}."
            )
        up = sorted(state.face_up, key=lambda tile: state.place_of[tile])
        lines.append(
            f"Cave: {len(up)} face up, {state.face_down} face down, {len(state.box)} in the "
            "box. Face up: "
            + ", ".join(
                f"{tiles.name(tile)} ({state.board.squares[state.place_of[tile]].label})"
                for tile in up
            )
            + "."
        )
        if state.aside:
            lines.append("Set aside: " + ", ".join(tiles.name(x) for x in state.aside) + ".")
        if state.removed_kinds:
            lines.append(
                "Out of the game: " + ", ".join(tiles.kinds[k] for k in state.removed_kinds) + "."
            )
        order = range(n) if seat is None else [(seat + i) % n for i in range(n)]
        for p in order:
            hand = state.hands[p]
            track = sum(state.points[p].values())
            # Grouped by kind: sets of a kind are what score at the end.
            by_kind: dict[int, list[str]] = {}
            for x in hand:
                by_kind.setdefault(tiles.kind_of(x), []).append(
                    tiles.colours[tiles.colour_of(x)].name
                )
            treasure = sum(SET_POINTS[len(c)] for c in by_kind.values())
            held = ", ".join(
                f"{tiles.kinds[k]} ({', '.join(c)})"
                if len(c) == 1
                else f"{tiles.kinds[k]} x{len(c)} ({', '.join(c)})"
                for k, c in by_kind.items()
            )
            name = "You" if p == seat else f"Seat {p}"
            lines.append(
                f"{name}: {track} on the track + {treasure} in treasures; "
                f"{len(hand)} tile(s){': ' + held if held else ''}."
            )
        for by, is_kind, what in state.blocks:
            name = tiles.kinds[what] if is_kind else tiles.colours[what].name
            lines.append(f"Seat {by} forbids {name} to the others.")
        if state.taken != EMPTY and phase is not _OVER:
            lines.append(f"This turn: took {tiles.name(state.taken)}, flipped {state.flipped}.")
        if phase is _SHOW and seat is not None and state.shows[seat] != NOT_SHOWN:
            lines.append(f"You chose to show {tiles.name(state.shows[seat])}.")
        elif phase is _STEAL:
            shown = [f"seat {p}: {tiles.name(x)}" for p, x in enumerate(state.shows) if x >= 0]
            lines.append("Shown: " + ", ".join(shown) + ".")
        lines.extend(decision_lines(state, seat))
        return "\n".join(lines)
