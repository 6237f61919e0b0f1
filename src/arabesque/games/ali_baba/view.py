"""What one seat may know of an Ali Baba game.

Hidden from everyone: the face-down board tiles and the tiles in the box. Hidden from all but
the chooser: the tile an opponent picked to show to a yellow effect, until all have picked.
Everything else was seen by everyone at the table, collected tiles included (ruling R1).
"""

from __future__ import annotations

from typing import Any

from arabesque.games.ali_baba.state import EMPTY, NOT_SHOWN, AliBabaState, Phase


def _board(s: AliBabaState) -> dict[str, Any]:
    places = []
    for square in s.board.squares:
        tile = s.cell[square.index]
        entry: dict[str, Any] = {
            "place": square.index,
            "label": square.label,
            "layer": square.layer,
            "row": square.row,
            "col": square.col,
            # Where the tile lies seen from above, in bottom-square units.
            "top": float(square.top),
            "left": float(square.left),
        }
        if tile == EMPTY:
            entry["state"] = "empty"
        elif s.cover[square.index] > 0:
            entry["state"] = "face_down"
        else:
            entry["state"] = "face_up"
            entry["tile"] = s.tiles.tile_json(tile)
        places.append(entry)
    layers = [{"rows": la.rows, "cols": la.cols} for la in s.board.layers]
    return {"id": s.board.id, "layers": layers, "places": places}


def build_view(s: AliBabaState, seat: int | None) -> dict[str, Any]:
    tiles = s.tiles
    n = s.num_players
    players = []
    for p in range(n):
        hand = s.hands[p]
        players.append(
            {
                "seat": p,
                "count": len(hand),
                "tiles": [tiles.tile_json(t) for t in hand],
                "track": sum(s.points[p].values()),
                "track_breakdown": dict(s.points[p]),
            }
        )
    view: dict[str, Any] = {
        "variant": s.params.variant,
        "turn": s.turn + 1,
        "round": s.turn // n + 1,
        "start_player": 0,
        "current": None if s.over else s.current,
        "phase": s.phase.name.lower(),
        "board": _board(s),
        "face_down": s.face_down,
        "in_box": len(s.box),
        "removed_kinds": [tiles.kinds[k] for k in s.removed_kinds],
        "aside": [tiles.tile_json(t) for t in s.aside],
        "blocks": [
            {
                "by": by,
                "type": "kind" if is_kind else "colour",
                "what": tiles.kinds[what] if is_kind else tiles.colours[what].name,
            }
            for by, is_kind, what in s.blocks
        ],
        "players": players,
        "last_turn": None if s.last_turn is None else s.last_turn + 1,
        "this_turn": None
        if s.taken == EMPTY or s.over
        else {
            "taken": tiles.tile_json(s.taken),
            "place": s.board.squares[s.taken_place].label,
            "effect_tile": None if s.effect_tile == EMPTY else tiles.tile_json(s.effect_tile),
            "flipped": s.flipped,
        },
    }
    if s.phase is Phase.SHOW:
        # Who still chooses is public; what a player chose is theirs alone until all are in.
        view["showing"] = {
            "waiting": sorted(s.actors),
            "mine": None
            if seat is None or s.shows[seat] == NOT_SHOWN
            else tiles.tile_json(s.shows[seat]),
        }
    elif s.phase is Phase.STEAL:
        view["shown"] = {
            str(p): tiles.tile_json(t) for p, t in enumerate(s.shows) if t != NOT_SHOWN
        }
    if s.over:
        view["scores"] = [sc.to_json() for sc in s.scores()]
        view["ranking"] = s.ranking()
    return view
