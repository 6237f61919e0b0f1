"""Helpers for hand-made Ali Baba situations: put chosen tiles at chosen places, then play.

Places are named as in the views and rulings: ``"L4 r1 c2"`` is layer 4 (the top), row 1,
column 2, all counted from 1. Tiles are named ``"<colour> <kind>"``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from arabesque.core.registry import get_game
from arabesque.games.ali_baba.components import Board, load_tiles
from arabesque.games.ali_baba.params import AliBabaParams
from arabesque.games.ali_baba.state import AliBabaState

SPEC = get_game("ali-baba")
TILES = load_tiles()

#: The four top places of the 25-square side and the L3 tiles they cover alone.
TOP = ("L4 r1 c1", "L4 r1 c2", "L4 r2 c1", "L4 r2 c2")


def params(n: int = 2, variant: str = "standard") -> AliBabaParams:
    p = SPEC.make_params(num_players=n, variant=variant)
    assert isinstance(p, AliBabaParams)
    return p


def place(board: Board, label: str) -> int:
    m = re.fullmatch(r"L(\d) r(\d) c(\d)", label)
    assert m, label
    layer, row, col = (int(g) - 1 for g in m.groups())
    return board.index[(layer, row, col)]


def tile(name: str) -> int:
    return TILES.parse_tile(name)


def arrangement(
    variant: str = "standard",
    at: Mapping[str, str] | None = None,
    removed: Sequence[str] = (),
    aside: Sequence[str] | None = None,
) -> dict[str, Any]:
    """An arrangement with the tiles of ``at`` at their places; the rest in id order, the
    filler chosen so that no pink or other scoring tile is needed by a test by accident."""
    p = params(2 if variant == "smaller-cave" else 3, variant)
    board = TILES.boards[p.board_id]
    removed_ids = {TILES.kinds.index(k) for k in removed}
    fixed = {place(board, label): tile(name) for label, name in (at or {}).items()}
    in_play = [t for t in range(TILES.num_tiles) if TILES.kind_of(t) not in removed_ids]
    used = set(fixed.values())
    if aside is None:
        aside_ids = [t for t in in_play if TILES.kind_of(t) != TILES.lamp_kind and t not in used][
            : p.aside
        ]
    else:
        aside_ids = [tile(name) for name in aside]
    used |= set(aside_ids)
    rest = [t for t in in_play if t not in used]
    cells = [fixed[q] if q in fixed else rest.pop(0) for q in range(board.size)]
    return {
        "removed_kinds": list(removed),
        "board": [TILES.name(t) for t in cells],
        "box": [TILES.name(t) for t in rest],
        "aside": [TILES.name(t) for t in aside_ids],
    }


def new_game(
    n: int = 2,
    variant: str = "standard",
    at: Mapping[str, str] | None = None,
    removed: Sequence[str] = (),
    aside: Sequence[str] | None = None,
    seed: int = 0,
) -> AliBabaState:
    state = SPEC.new_game(
        params(n, variant), seed=seed, arrangement=arrangement(variant, at, removed, aside)
    )
    assert isinstance(state, AliBabaState)
    return state


def do(state: AliBabaState, seat: int, text: str) -> list[dict[str, Any]]:
    """Apply ``seat``'s action given as text; return the events it caused (all seats')."""
    before = len(state.events)
    state.apply(seat, state.parse_action(text))
    return [e.to_json() for e in state.events[before:]]


def legal_texts(state: AliBabaState, seat: int) -> list[str]:
    return [state.action_to_str(a) for a in state.legal_actions(seat)]


def names(tiles: Sequence[int]) -> list[str]:
    return [TILES.name(t) for t in tiles]


def set_hands(state: AliBabaState, hands: Sequence[Sequence[str]]) -> None:
    """Give the players these tiles (for scoring tests only; the board is left alone)."""
    state.hands = [[tile(name) for name in hand] for hand in hands]


def yellow_game() -> AliBabaState:
    """A 3-player game at seat 0's yellow effect: seats 1 and 2 (two tiles each) are to
    choose in secret the tile they show."""
    state = new_game(
        3,
        at={
            "L4 r1 c1": "white carpet",
            "L4 r1 c2": "pink ring",
            "L4 r2 c1": "pink sword",
            "L4 r2 c2": "white crown",
            "L3 r1 c1": "pink statue",
            "L3 r1 c3": "pink ruby",
            "L3 r3 c1": "yellow chest",
        },
    )
    for seat, text in [
        (0, "take white carpet"),
        (0, "pass"),
        (1, "take pink ring"),
        (2, "take pink sword"),
        (0, "take white crown"),
        (0, "pass"),
        (1, "take pink statue"),
        (2, "take pink ruby"),
        (0, "take yellow chest"),
        (0, "use yellow"),
    ]:
        do(state, seat, text)
    return state
