"""The Ali Baba bot's one-turn lookahead: what its turn is worth, and what it leaves.

The rivals' reply (``reply``): once the bot's take empties some places, each rival still to
play this round values the known face-up tiles it may take and the tiles the take flips,
drawn from the unknown pool, and the bot counts the best of them against its take, weighted
by how soon that rival plays (the tempo). The value of a way to end a take (``with_lamp``):
the tile's set value and denial, plus its effect (points, tiles taken along, a steal or a
ban), minus the rivals' reply. Functions of a ``Position``; its caches keep what they
computed for that position.
"""

from __future__ import annotations

from arabesque.games.ali_baba import actions as A
from arabesque.games.ali_baba.actions import ActionSpace
from arabesque.games.ali_baba.bots.evaluation import (
    BLUE_GUESS,
    GREEN_GUESS,
    SHOW_PRIOR,
    WHITE_GUESS,
    YELLOW_GUESS,
)
from arabesque.games.ali_baba.bots.position import NONE, Forbid, Position

# -- the rivals' reply ----------------------------------------------------------------------


def rival_value(
    pos: Position, o: int, tile: int, place: int, cover: dict[int, int], gone: set[int]
) -> float:
    """A rival's quick value of taking ``tile`` at ``place`` on the changed board."""
    kind = pos.tiles.kind[tile]
    value = pos.gain(o, kind)
    effect = pos.tiles.effect_of(tile)
    if effect.effect == "score":
        value += effect.points
    elif effect.effect == "flipped":
        value += pos.blue_points(place, cover)
    elif effect.effect == "same_kind":
        value += effect.points * (pos.cnt[o][kind] + 1)
    elif effect.effect == "adjacent":
        near = [
            pos.gain(o, pos.tiles.kind[pos.tile_at[q]])
            for q in pos.geo.adjacent[place]
            if pos.tile_at[q] != NONE and q not in gone
        ]
        value += max(near, default=0.0)
    elif effect.effect == "show":
        value += YELLOW_GUESS
    else:
        value += WHITE_GUESS
    return value


def pool_values(pos: Position, o: int) -> list[tuple[float, int]]:
    """A rival's quick value of each unknown tile, were it flipped face up."""
    cached = pos.pool_values_cache.get(o)
    if cached is not None:
        return cached
    out = []
    for t in pos.unknown:
        kind = pos.tiles.kind[t]
        effect = pos.tiles.effect_of(t)
        value = pos.gain(o, kind) + {
            "score": float(effect.points),
            "flipped": BLUE_GUESS,
            "same_kind": float(effect.points * (pos.cnt[o][kind] + 1)),
            "adjacent": GREEN_GUESS,
            "show": YELLOW_GUESS,
        }.get(effect.effect, WHITE_GUESS)
        out.append((value, t))
    out.sort()
    pos.pool_values_cache[o] = out
    return out


def _allowed(pos: Position, o: int, tile: int, ban: Forbid | None) -> bool:
    """Whether rival ``o`` may take ``tile``: not forbidden by the white effects of others
    in force, nor by the bot's ``ban``."""
    if ban is not None and ban.bans(pos.tiles, tile):
        return False
    return not pos.blocks or tile not in forbidden(pos, o)


def forbidden(pos: Position, o: int) -> set[int]:
    """The tiles other players' white effects in force forbid ``o`` to take."""
    cached = pos.forbidden_cache.get(o)
    if cached is None:
        cached = {t for t in range(pos.tiles.num_tiles) if pos.blocked(o, t, None)}
        pos.forbidden_cache[o] = cached
    return cached


def _known_options(
    pos: Position, gone: frozenset[int]
) -> tuple[int, list[list[tuple[float, int]]]]:
    """Once the places ``gone`` are emptied: how many unknown tiles turn face up, and
    each rival's quick value of every known face-up tile (cached per ``gone``)."""
    cached = pos.known_cache.get(gone)
    if cached is not None:
        return cached
    cover, newly = pos.after(gone)
    known = [p for p in pos.face_up if p not in gone]
    options: list[list[tuple[float, int]]] = [[] for _ in range(pos.n)]
    for o in range(pos.n):
        if pos.tempo_w[o]:
            options[o] = [
                (rival_value(pos, o, pos.tile_at[p], p, cover, set(gone)), pos.tile_at[p])
                for p in known
            ]
    result = (len(newly), options)
    pos.known_cache[gone] = result
    return result


def rival_best(
    pos: Position, o: int, known: list[tuple[float, int]], flipped: int, ban: Forbid | None
) -> float:
    """Expected value of rival ``o``'s best take among the ``known`` options (value, tile)
    and ``flipped`` tiles drawn from the unknown pool."""
    allowed = [v for v, t in known if _allowed(pos, o, t, ban)]
    if allowed:
        best = max(allowed)
    elif known or flipped:
        # Everything known is forbidden: any tile may be taken (rulebook, white effect).
        best = max((v for v, _ in known), default=0.0)
    else:
        return 0.0
    if not flipped:
        return best
    pool = pool_values(pos, o)
    size = len(pool)
    if not size:
        return best
    # E[max(best, the best of `flipped` draws)], draws uniform over the pool; a forbidden
    # draw or one worth less than `best` changes nothing. Pool values are ascending.
    above = [v for v, t in pool if v > best and _allowed(pos, o, t, ban)]
    below = size - len(above)
    expected = best * (below / size) ** flipped
    previous = (below / size) ** flipped
    for j, v in enumerate(above):
        cdf = ((below + j + 1) / size) ** flipped
        expected += v * (cdf - previous)
        previous = cdf
    return expected


def reply(pos: Position, gone: set[int], ban: Forbid | None = None) -> float:
    """What the rivals still to play can make of the board after the bot's turn,
    weighted by how soon they play."""
    if not any(pos.tempo_w):
        return 0.0
    flipped, options = _known_options(pos, frozenset(gone))
    total = 0.0
    for o in range(pos.n):
        w = pos.tempo_w[o]
        if w:
            total += w * rival_best(pos, o, options[o], flipped, ban)
    return total


# -- valuing a turn -------------------------------------------------------------------------


def _yellow_value(pos: Position, shows: dict[int, list[int]], extra: dict[int, int]) -> float:
    """The steal a yellow effect should bring: per rival with tiles, the tile that helps
    the bot least (or, as far as the bot has seen that rival show other tiles, an
    average one); the best rival's."""
    best = 0.0
    for o in range(pos.n):
        if o == pos.me or not pos.hands[o]:
            continue
        kinds = {pos.tiles.kind[t] for t in pos.hands[o]}
        values = [pos.steal_value(o, k, extra.get(k, 0)) for k in kinds]
        seen, least = shows.get(o, [0, 0])
        careful = (least + SHOW_PRIOR) / (seen + SHOW_PRIOR)
        value = careful * min(values) + (1 - careful) * sum(values) / len(values)
        best = max(best, value)
    return best * pos.w.steal


def _bans(pos: Position, gone: set[int]) -> list[Forbid]:
    """The white bans worth weighing: kinds and colours of the known face-up tiles."""
    kinds, colours = set(), set()
    for place in pos.face_up:
        if place not in gone:
            t = pos.tile_at[place]
            kinds.add(pos.tiles.kind[t])
            colours.add(pos.tiles.colour[t])
    return [Forbid(pos.me, True, k) for k in sorted(kinds)] + [
        Forbid(pos.me, False, c) for c in sorted(colours)
    ]


def _effect_plans(
    pos: Position,
    shows: dict[int, list[int]],
    tile: int,
    place: int,
    gone: set[int],
    flipped: int,
    extra: dict[int, int],
) -> float:
    """The best total of using ``tile``'s effect, taken at ``place``, after the places
    ``gone`` were emptied (``flipped`` tiles flipped) and the kinds in ``extra`` taken:
    points, tiles taken along, minus what the rivals can make of the board after."""
    effect = pos.tiles.effect_of(tile)
    kind = pos.tiles.kind[tile]
    kind_of = pos.tiles.kind
    if effect.effect == "score":
        return effect.points - reply(pos, gone)
    if effect.effect == "flipped":
        bottom = pos.geo.squares[place].layer == 0
        return effect.points * (flipped + (1 if bottom else 0)) - reply(pos, gone)
    if effect.effect == "same_kind":
        return effect.points * (pos.cnt[pos.me][kind] + extra.get(kind, 0)) - reply(pos, gone)
    if effect.effect == "show":
        return _yellow_value(pos, shows, extra) - reply(pos, gone)
    if effect.effect == "adjacent":
        best = -reply(pos, gone)
        for q in pos.geo.adjacent[place]:
            other = pos.tile_at[q]
            if other == NONE or q in gone or pos.blocked(pos.me, other, None):
                continue
            k = kind_of[other]
            value = (
                pos.gain(pos.me, k, extra.get(k, 0))
                + pos.denial(k, extra.get(k, 0))
                - reply(pos, gone | {q})
            )
            best = max(best, value)
        return best
    # White: the ban that hurts the rivals to come most, or none.
    best = -reply(pos, gone)
    for ban in _bans(pos, gone):
        best = max(best, -reply(pos, gone, ban))
    return best


def _tile_total(
    pos: Position,
    shows: dict[int, list[int]],
    tile: int,
    place: int,
    gone: set[int],
    flipped: int,
    extra: dict[int, int],
) -> float:
    """Set value, denial and effect of ending the take with ``tile`` behind the screen."""
    kind = pos.tiles.kind[tile]
    have = extra.get(kind, 0)
    value = pos.gain(pos.me, kind, have) + pos.denial(kind, have)
    extra = dict(extra)
    extra[kind] = have + 1
    return value + _effect_plans(pos, shows, tile, place, gone, flipped, extra)


def with_lamp(
    pos: Position,
    space: ActionSpace,
    shows: dict[int, list[int]],
    tile: int,
    place: int,
    gone: set[int],
    flipped: int,
) -> list[tuple[float, int]]:
    """(value, SWAP action or KEEP) of each way to use ``tile``: in the Aladdin's lamp
    variant a lamp may be swapped for a set-aside tile, whose effect is used instead."""
    options = [(_tile_total(pos, shows, tile, place, gone, flipped, {}), space.keep)]
    if pos.variant == "aladdins-lamp" and pos.tiles.kind[tile] == pos.tiles.lamp_kind:
        for other in pos.aside:
            value = _tile_total(pos, shows, other, place, gone, flipped, {})
            options.append((value, space.tile_action(A.SWAP, other)))
    return options
