"""What one seat may know of an Ali Baba game.

Hidden from everyone: the face-down board tiles and the tiles in the box. Hidden from all but
the chooser: the tile an opponent picked to show to a yellow effect, until all have picked.
Everything else was seen by everyone at the table, collected tiles included (ruling R1).

While opponents choose what to show (SHOW), a seat sees which opponents have a choice to
make and its own choice, never whether another opponent has already chosen: a determinized
copy takes the others' unrevealed choices back (``rules.resample_hidden``), so showing their
progress would make the view say something determinization does not keep.

Views belong to their reader, who may change them: every dict and list here is fresh. The
board's fixed part (labels, layers, positions) is built once per board (``board_tables``)
and copied with ``dict``.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.observer import cached_on
from arabesque.games.ali_baba.components import Board
from arabesque.games.ali_baba.state import EMPTY, NOT_SHOWN, AliBabaState, Phase

_SHOW = Phase.SHOW
_STEAL = Phase.STEAL


class BoardTables:
    """Per-board JSON pieces, built once (``board_tables``)."""

    def __init__(self, board: Board) -> None:
        fixed = [
            {
                "place": sq.index,
                "label": sq.label,
                "layer": sq.layer,
                "row": sq.row,
                "col": sq.col,
                # Where the tile lies seen from above, in bottom-square units.
                "top": float(sq.top),
                "left": float(sq.left),
            }
            for sq in board.squares
        ]
        self.empty = tuple({**f, "state": "empty"} for f in fixed)
        self.face_down = tuple({**f, "state": "face_down"} for f in fixed)
        self.face_up = tuple({**f, "state": "face_up"} for f in fixed)
        self.layers = tuple((la.rows, la.cols) for la in board.layers)
        self.labels = tuple(sq.label for sq in board.squares)


def board_tables(board: Board) -> BoardTables:
    """The JSON pieces of ``board``, cached on the (frozen) board object itself, as
    ``cached_property`` does, so a lookup costs one dict access."""
    return cached_on(board, "_arabesque_view_tables", lambda: BoardTables(board))


def _board(s: AliBabaState, bt: BoardTables) -> dict[str, Any]:
    tile_json = s.tiles.tile_json
    cover = s.cover
    empty, face_down, face_up = bt.empty, bt.face_down, bt.face_up
    places = []
    for place, tile in enumerate(s.cell):
        if tile == EMPTY:
            places.append(dict(empty[place]))
        elif cover[place] > 0:
            places.append(dict(face_down[place]))
        else:
            entry = dict(face_up[place])
            entry["tile"] = tile_json(tile)
            places.append(entry)
    layers = [{"rows": rows, "cols": cols} for rows, cols in bt.layers]
    return {"id": s.board.id, "layers": layers, "places": places}


def build_view(s: AliBabaState, seat: int | None) -> dict[str, Any]:
    tiles = s.tiles
    tile_json = tiles.tile_json
    bt = board_tables(s.board)
    n = s.num_players
    players = []
    for p in range(n):
        hand = s.hands[p]
        points = s.points[p]
        players.append(
            {
                "seat": p,
                "count": len(hand),
                "tiles": [tile_json(t) for t in hand],
                # Of those, the ones the table was shown after they were collected (R1).
                "shown": [tile_json(t) for t in hand if t in s.shown_to_table],
                "track": sum(points.values()),
                "track_breakdown": dict(points),
            }
        )
    phase = s.phase
    view: dict[str, Any] = {
        "variant": s.params.variant,
        "turn": s.turn + 1,
        "round": s.turn // n + 1,
        "start_player": 0,
        "current": None if s.over else s.current,
        "phase": phase.name.lower(),
        "board": _board(s, bt),
        "face_down": s.face_down,
        "in_box": len(s.box),
        "removed_kinds": [tiles.kinds[k] for k in s.removed_kinds],
        "aside": [tile_json(t) for t in s.aside],
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
            "taken": tile_json(s.taken),
            "place": bt.labels[s.taken_place],
            "effect_tile": None if s.effect_tile == EMPTY else tile_json(s.effect_tile),
            "flipped": s.flipped,
        },
    }
    if phase is _SHOW:
        # Who has a choice to make is public; whether they have made it, and what they
        # chose, is theirs alone until all are in (module doc).
        view["showing"] = {
            "choosing": s.show_choosers(),
            "mine": None
            if seat is None or s.shows[seat] == NOT_SHOWN
            else tile_json(s.shows[seat]),
        }
    elif phase is _STEAL:
        view["shown"] = {str(p): tile_json(t) for p, t in enumerate(s.shows) if t != NOT_SHOWN}
    if s.over:
        view["scores"] = [sc.to_json() for sc in s.scores()]
        view["ranking"] = s.ranking()
    return view


__all__ = ["BoardTables", "board_tables", "build_view"]
