"""The Ali Baba forward model: setup, the three steps of a turn, the effects, the end.

This is the only code that changes an ``AliBabaState``. Comments name the rulebook section
or the ruling (R1, R2 ... in docs/rulings/ali-baba.md) behind each choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arabesque.core.errors import ParamsError
from arabesque.games.ali_baba import actions as A
from arabesque.games.ali_baba.actions import action_space
from arabesque.games.ali_baba.components import Board, Tiles, load_tiles
from arabesque.games.ali_baba.params import ALADDINS_LAMP, AliBabaParams
from arabesque.games.ali_baba.state import EMPTY, NO_OPTIONS, NOBODY, NOT_SHOWN, AliBabaState, Phase

# -- setup ------------------------------------------------------------------------------------


def _deal(
    tiles: Tiles,
    params: AliBabaParams,
    seed: int,
    size: int,
    removed: list[int] | None = None,
    fixed: Mapping[int, int] | None = None,
    aside: list[int] | None = None,
) -> tuple[list[int], list[int], list[int], list[int]]:
    """A shuffled (removed kinds, board, box, aside): rulebook, Set up and Variants. What a
    hand-written arrangement fixes (removed kinds, tiles at places, the aside row) is kept;
    the seed deals the rest."""
    rng = random.Random(f"ali-baba setup {seed}")
    fixed = fixed or {}
    wanted = {tiles.kind[t] for t in [*fixed.values(), *(aside or [])]}
    if removed is None:
        candidates = [k for k in range(len(tiles.kinds)) if k not in wanted]
        removed = sorted(rng.sample(candidates, params.kinds_removed))
    in_play = [t for t in range(tiles.num_tiles) if tiles.kind[t] not in removed]
    used = set(fixed.values())
    if aside is None:
        # Variant Aladdin's lamp: the lamps are put aside, six other tiles drawn at random are
        # set aside face up, then the lamps are shuffled back in.
        others = [t for t in in_play if tiles.kind[t] != tiles.lamp_kind and t not in used]
        rng.shuffle(others)
        aside = others[: params.aside]
    used |= set(aside)
    rest = [t for t in in_play if t not in used]
    rng.shuffle(rest)
    board = [fixed[q] if q in fixed else rest.pop() for q in range(size)]
    return removed, board, rest, aside


def _tile_list(tiles: Tiles, value: Any, key: str) -> list[int]:
    if not isinstance(value, list):
        raise ParamsError(f"arrangement {key!r} must be a list of tile names")
    out = []
    for item in value:
        if isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < tiles.num_tiles:
                raise ParamsError(f"arrangement {key!r}: no tile {item}")
            out.append(item)
            continue
        try:
            out.append(tiles.parse_tile(str(item)))
        except ValueError as exc:
            raise ParamsError(f"arrangement {key!r}: {exc}") from None
    return out


def _fixed_places(tiles: Tiles, board: Board, value: Any) -> dict[int, int]:
    if not isinstance(value, Mapping):
        raise ParamsError("arrangement 'places' maps place labels ('L4 r1 c2') to tile names")
    fixed: dict[int, int] = {}
    for label, name in value.items():
        try:
            place = board.place_of_label(str(label))
        except ValueError as exc:
            raise ParamsError(f"arrangement 'places': {exc}") from None
        fixed[place] = _tile_list(tiles, [name], "places")[0]
    return fixed


def _read_arrangement(
    tiles: Tiles, params: AliBabaParams, arrangement: Mapping[str, Any], seed: int
) -> tuple[list[int], list[int], list[int], list[int]]:
    """(removed kinds, board, box, aside) of a hand-written arrangement, checked. Either the
    whole board is listed (``board``, with ``box`` and ``aside``: what records store), or
    some ``places`` are fixed and the seed deals the rest."""
    if not isinstance(arrangement, Mapping):
        raise ParamsError(f"an arrangement is an object, got {type(arrangement).__name__}")
    unknown = sorted(set(arrangement) - {"removed_kinds", "board", "box", "aside", "places"})
    if unknown:
        raise ParamsError(f"unknown arrangement keys {unknown}")
    board_geometry = tiles.boards[params.board_id]
    size = board_geometry.size
    removed: list[int] | None = None
    if "removed_kinds" in arrangement or "board" in arrangement:
        removed_names = arrangement.get("removed_kinds", [])
        if not isinstance(removed_names, list) or any(k not in tiles.kinds for k in removed_names):
            raise ParamsError(f"removed_kinds must list kinds among {', '.join(tiles.kinds)}")
        removed = sorted({tiles.kinds.index(k) for k in removed_names})
        if len(removed) != params.kinds_removed:
            raise ParamsError(
                f"the {params.variant} variant removes {params.kinds_removed} kind(s), "
                f"the arrangement removes {len(removed)}"
            )
    aside = _tile_list(tiles, arrangement["aside"], "aside") if "aside" in arrangement else None
    if "board" in arrangement:
        if "places" in arrangement:
            raise ParamsError("an arrangement lists the whole 'board' or some 'places', not both")
        board = _tile_list(tiles, arrangement["board"], "board")
        box = _tile_list(tiles, arrangement.get("box", []), "box")
        aside = aside or []
        if len(board) != size:
            raise ParamsError(f"the board holds {size} tiles, the arrangement lists {len(board)}")
    else:
        if "box" in arrangement:
            raise ParamsError("'box' goes with a whole 'board'; with 'places' the seed fills it")
        fixed = _fixed_places(tiles, board_geometry, arrangement.get("places", {}))
        if len(set(fixed.values())) != len(fixed):
            raise ParamsError("arrangement 'places' names a tile twice")
        removed, board, box, aside = _deal(tiles, params, seed, size, removed, fixed, aside)
    assert removed is not None  # read above whenever the whole board is listed
    if len(aside) != params.aside:
        raise ParamsError(f"the {params.variant} variant sets {params.aside} tiles aside")
    if any(tiles.kind[t] == tiles.lamp_kind for t in aside):
        raise ParamsError("Aladdin's lamp tiles are never set aside (rulebook, Variant)")
    expected = sorted(t for t in range(tiles.num_tiles) if tiles.kind[t] not in removed)
    if sorted(board + box + aside) != expected:
        raise ParamsError(
            "the arrangement must place every tile of the kinds in play exactly once "
            "(board, box and aside together), and none of a removed kind"
        )
    return removed, board, box, aside


def setup(
    s: AliBabaState, params: AliBabaParams, seed: int, arrangement: Mapping[str, Any] | None
) -> None:
    tiles = load_tiles()
    board = tiles.boards[params.board_id]
    s.params, s.tiles, s.board, s.space = params, tiles, board, action_space()
    s.seed = seed
    s.rng = random.Random(seed)  # no chance after setup; kept per the core contract
    s.history, s.events = [], []
    if arrangement is None:
        removed, on_board, box, aside = _deal(tiles, params, seed, board.size)
    else:
        removed, on_board, box, aside = _read_arrangement(tiles, params, arrangement, seed)
    s.start = {
        "removed_kinds": [tiles.kinds[k] for k in removed],
        "board": [tiles.name(t) for t in on_board],
        "box": [tiles.name(t) for t in box],
        "aside": [tiles.name(t) for t in aside],
    }
    s.removed_kinds = tuple(removed)
    s.cell = list(on_board)
    s.cover = [len(a) for a in board.above]
    s.place_of = [EMPTY] * tiles.num_tiles
    for place, t in enumerate(on_board):
        s.place_of[t] = place
    # rulebook, Set up: only the top layer is face up.
    s.face_up = {t for place, t in enumerate(on_board) if board.starts_face_up(place)}
    s.face_down = board.size - len(s.face_up)
    s.box, s.aside = list(box), list(aside)
    n = params.num_players
    s.hands = [[] for _ in range(n)]
    s.points = [{c.name: 0 for c in tiles.colours if c.points} for _ in range(n)]
    s.blocks = []
    s.turn = 0
    s.shows = [NOT_SHOWN] * n
    s.show_options = {}
    s.shown_to_table = set()
    s.last_turn = None
    s.over = False
    s.taken = s.taken_place = s.effect_tile = EMPTY
    s.flipped = 0
    s.log(
        "setup",
        variant=params.variant,
        removed_kinds=list(s.start["removed_kinds"]),
        aside=[tiles.logged(t) for t in aside],
        face_up=[tiles.logged(t) for t in sorted(s.face_up)],
        in_box=len(box),
    )
    _begin_turn(s)


# -- the turn ---------------------------------------------------------------------------------


def _decide(s: AliBabaState, phase: Phase, options: tuple[int, ...]) -> None:
    """The current player decides among ``options``; a single option is taken at once (R10)."""
    s.phase = phase
    s.options = options
    s.actors = frozenset((s.current,))
    if len(options) == 1:
        apply_action(s, s.current, options[0])


def is_blocked(s: AliBabaState, seat: int, tile: int) -> bool:
    """Whether a white effect of another player forbids ``seat`` to take ``tile`` from the
    board (rulebook, white effect)."""
    if not s.blocks:
        return False
    kind, colour = s.tiles.kind[tile], s.tiles.colour[tile]
    for by, is_kind, what in s.blocks:
        if by != seat and what == (kind if is_kind else colour):
            return True
    return False


def takeable(s: AliBabaState, seat: int) -> list[int]:
    """The face-up tiles ``seat`` may take in step 1."""
    if not s.blocks:
        return sorted(s.face_up)
    allowed = [t for t in s.face_up if not is_blocked(s, seat, t)]
    # rulebook, white effect note: when the restrictions leave nothing, any tile may be taken.
    return sorted(allowed) if allowed else sorted(s.face_up)


def _begin_turn(s: AliBabaState) -> None:
    seat = s.current
    # rulebook, white effect: a block lasts "until your next turn".
    if s.blocks:
        s.blocks = [b for b in s.blocks if b[0] != seat]
    s.taken = s.taken_place = s.effect_tile = EMPTY
    s.flipped = 0
    s.log("turn", player=seat, turn=s.turn + 1)
    # Take actions are the first block of the action space: action = tile (actions.py).
    _decide(s, Phase.TAKE, tuple(takeable(s, seat)))


def _remove_from_board(s: AliBabaState, tile: int) -> list[int]:
    """Lift ``tile`` off the board and flip what it uncovers (rulebook, step 2)."""
    place = s.place_of[tile]
    s.cell[place] = EMPTY
    s.place_of[tile] = EMPTY
    s.face_up.discard(tile)
    flipped = []
    for below in s.board.below[place]:
        s.cover[below] -= 1
        if s.cover[below] == 0:
            t = s.cell[below]
            s.face_up.add(t)
            flipped.append(t)
    if flipped:
        s.face_down -= len(flipped)
        s.flipped += len(flipped)
        s.log("flip", tiles=[s.tiles.logged(t) for t in flipped])
        if s.face_down == 0 and s.last_turn is None:
            # rulebook, End of the game: finish the round, then one more turn each.
            n = s.params.num_players
            s.last_turn = (s.turn // n + 2) * n - 1
            s.log("last_flip", last_turn=s.last_turn + 1)
    return flipped


def _take(s: AliBabaState, seat: int, tile: int) -> None:
    s.taken, s.taken_place = tile, s.place_of[tile]
    s.log(
        "take",
        player=seat,
        tile=s.tiles.logged(tile),
        place=s.board.squares[s.taken_place].label,
    )
    _remove_from_board(s, tile)
    s.hands[seat].append(tile)
    if s.params.variant == ALADDINS_LAMP and s.tiles.kind_of(tile) == s.tiles.lamp_kind:
        base = A.SWAP * s.space.n
        _decide(s, Phase.LAMP, (*(base + t for t in sorted(s.aside)), s.space.keep))
    else:
        _start_effect(s, seat, tile)


def _swap_lamp(s: AliBabaState, seat: int, tile: int) -> None:
    """Variant Aladdin's lamp: the lamp goes to the set-aside row in place of ``tile``, which
    goes behind the screen, and its effect is used instead (R8)."""
    lamp = s.taken
    s.aside[s.aside.index(tile)] = lamp
    hand = s.hands[seat]
    hand[hand.index(lamp)] = tile
    s.log("lamp_swap", player=seat, lamp=s.tiles.logged(lamp), tile=s.tiles.logged(tile))
    _start_effect(s, seat, tile)


def _score(s: AliBabaState, seat: int, tile: int, points: int) -> None:
    colour = s.colour_name(tile)
    s.points[seat][colour] += points
    s.log("score", player=seat, effect=colour, points=points)


def _start_effect(s: AliBabaState, seat: int, tile: int) -> None:
    """Step 3: the taken tile's effect. Effects that only score are used at once (R10)."""
    s.effect_tile = tile
    colour = s.tiles.effect_of(tile)
    effect = colour.effect
    if effect == "score":
        _score(s, seat, tile, colour.points)
    elif effect == "flipped":
        # Taking a bottom-layer tile flips nothing and reveals its square: 2 points (R3).
        revealed = s.board.squares[s.taken_place].layer == 0
        _score(s, seat, tile, colour.points * (s.flipped + (1 if revealed else 0)))
    elif effect == "same_kind":
        kind = s.tiles.kind_of(tile)
        same = [t for t in s.hands[seat] if s.tiles.kind_of(t) == kind]
        # The player counts the tiles of the kind in the open.
        s.shown_to_table.update(same)
        _score(s, seat, tile, colour.points * len(same))
    elif effect == "adjacent":
        base = A.ALSO * s.space.n
        near = sorted(
            s.cell[q]
            for q in s.board.adjacent[s.taken_place]
            if s.cell[q] in s.face_up and not is_blocked(s, seat, s.cell[q])
        )
        if near:
            _decide(s, Phase.EFFECT, (*(base + t for t in near), s.space.pass_))
            return
        s.log("no_effect", player=seat, effect=colour.name, why="no adjacent face-up tile")
    elif effect == "show":
        if any(s.hands[p] for p in range(s.num_players) if p != seat):
            _decide(s, Phase.EFFECT, (s.space.use_yellow, s.space.pass_))
            return
        # R6: opponents with no tile show nothing; with nobody to show, nothing happens.
        s.log("no_effect", player=seat, effect=colour.name, why="no opponent has a tile")
    elif effect == "forbid":
        kinds = [k for k in range(len(s.tiles.kinds)) if k not in s.removed_kinds]
        options = (
            *(s.space.forbid_kind + k for k in kinds),
            *(s.space.forbid_colour + c for c in range(len(s.tiles.colours))),
            s.space.pass_,
        )
        _decide(s, Phase.EFFECT, options)
        return
    _end_turn(s)


def _start_show(s: AliBabaState, seat: int) -> None:
    """Yellow effect: every opponent with a tile secretly picks one to show (R6)."""
    base = A.SHOW * s.space.n
    s.phase = Phase.SHOW
    s.shows = [NOT_SHOWN] * s.num_players
    s.show_options = {}
    s.options = NO_OPTIONS
    for p in range(s.num_players):
        if p != seat and s.hands[p]:
            if len(s.hands[p]) == 1:
                s.shows[p] = s.hands[p][0]  # a single tile is shown at once (R10)
            else:
                s.show_options[p] = tuple(base + t for t in sorted(s.hands[p]))
    s.actors = frozenset(s.show_options)
    s.log(
        "yellow",
        player=seat,
        showing=sorted(p for p in range(s.num_players) if s.hands[p] and p != seat),
    )
    if not s.actors:
        _reveal_shows(s)


def _reveal_shows(s: AliBabaState) -> None:
    shown = {p: t for p, t in enumerate(s.shows) if t != NOT_SHOWN}
    s.shown_to_table.update(shown.values())
    s.log("shown", tiles={str(p): s.tiles.logged(t) for p, t in shown.items()})
    base = A.STEAL * s.space.n
    _decide(s, Phase.STEAL, tuple(base + t for t in sorted(shown.values())))


def _steal(s: AliBabaState, seat: int, tile: int) -> None:
    owner = s.shows.index(tile)
    s.hands[owner].remove(tile)
    s.hands[seat].append(tile)
    s.shows = [NOT_SHOWN] * s.num_players  # the other shown tiles go back behind screens
    s.show_options = {}
    s.log("steal", player=seat, owner=owner, tile=s.tiles.logged(tile))
    _end_turn(s)


def _end_turn(s: AliBabaState) -> None:
    # rulebook, End of the game: the game ends at once when the board is empty (R7), or
    # after the final turn once the last face-down tile has been flipped.
    if not s.face_up or (s.last_turn is not None and s.turn >= s.last_turn):
        s.over = True
        s.phase = Phase.OVER
        s.options = NO_OPTIONS
        s.actors = NOBODY
        s.log(
            "game_end",
            reason="the board is empty" if not s.face_up else "the last turn has been played",
            scores=[sc.to_json() for sc in s.scores()],
            ranking=s.ranking(),
        )
        return
    s.turn += 1
    _begin_turn(s)


# -- applying an action -----------------------------------------------------------------------


def apply_action(s: AliBabaState, seat: int, action: int) -> None:
    """Carry out a checked, legal action (``GameState.apply`` has checked it)."""
    space = s.space
    block, tile = space.split(action)
    phase = s.phase
    if phase is Phase.TAKE:
        _take(s, seat, tile)
    elif phase is Phase.LAMP:
        if action == space.keep:
            s.log("lamp_kept", player=seat)
            _start_effect(s, seat, s.taken)
        else:
            _swap_lamp(s, seat, tile)
    elif phase is Phase.EFFECT:
        if action == space.pass_:
            s.log("pass", player=seat, effect=s.colour_name(s.effect_tile))
            _end_turn(s)
        elif block == A.ALSO:
            # Green: the tile goes behind the screen without its effect; what it uncovers is
            # flipped at once (R5).
            s.log("also_take", player=seat, tile=s.tiles.logged(tile))
            _remove_from_board(s, tile)
            s.hands[seat].append(tile)
            _end_turn(s)
        elif action == space.use_yellow:
            _start_show(s, seat)
        else:
            is_kind = action < space.forbid_colour
            what = action - (space.forbid_kind if is_kind else space.forbid_colour)
            s.blocks.append((seat, is_kind, what))
            name = s.tiles.kinds[what] if is_kind else s.tiles.colours[what].name
            s.log("forbid", player=seat, what=name, type="kind" if is_kind else "colour")
            _end_turn(s)
    elif phase is Phase.SHOW:
        s.shows[seat] = tile
        del s.show_options[seat]
        s.actors = frozenset(s.show_options)
        # The choice stays secret until every opponent has chosen.
        s.log("show_chosen", visible_to=frozenset((seat,)), player=seat, tile=s.tiles.logged(tile))
        if not s.actors:
            _reveal_shows(s)
    elif phase is Phase.STEAL:
        _steal(s, s.current, tile)


# -- hidden information -----------------------------------------------------------------------


def resample_hidden(s: AliBabaState, seat: int, rng: random.Random) -> None:
    """On a determinized copy, re-deal what ``seat`` cannot see: the face-down board tiles
    and the tiles in the box (unknown to everyone). Every collected tile was face up when
    taken, so screens hide nothing from a player who watched (R1). Other opponents' show
    choices not yet revealed are taken back, not guessed: they are to choose again. The
    real setup is forgotten."""
    s.start = {}
    hidden_places = [p for p, t in enumerate(s.cell) if t != EMPTY and s.cover[p] > 0]
    if hidden_places or s.box:
        # Sorted before the shuffle: the copy is a function of what the seat knows and the
        # rng alone (a search bot's choice must not depend on the real deal).
        pool = sorted([s.cell[p] for p in hidden_places] + s.box)
        rng.shuffle(pool)
        for place, t in zip(hidden_places, pool, strict=False):
            s.cell[place] = t
            s.place_of[t] = place
        s.box = pool[len(hidden_places) :]
        for t in s.box:
            s.place_of[t] = EMPTY
    if s.phase is Phase.SHOW:
        base = A.SHOW * s.space.n
        shows = list(s.shows)
        options = dict(s.show_options)
        for p, t in enumerate(shows):
            # A lone tile is shown without a choice (R10); only real choices are taken back.
            if t != NOT_SHOWN and p != seat and len(s.hands[p]) > 1:
                shows[p] = NOT_SHOWN
                options[p] = tuple(base + t for t in sorted(s.hands[p]))
        s.shows = shows
        s.show_options = options
        s.actors = frozenset(options)
