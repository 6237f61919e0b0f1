"""The push-your-luck search and the lookahead on dice: what a search of a chest with a given
die is worth, and what each die the bot may set, or change, will bring.

A chest's remaining composition is public: its initial cards minus every card lying in front
of a player, in the discard pile or drawn in the current search; the Sorcerer's place is
public too, and peeked cards are known (``chest_model``). An exact dynamic programme over the
scorpion classes of the unseen cards (``search_value``) gives the value of a search with a
given die and the draw/stop decision. On top of it, the lookahead: who will search each chest
with the dice as they stand (``searches``), what changing one of the bot's dice would bring
(``best_die_change``), and what each (chest, face) is worth before the reveal, reasoning
``depth`` levels about the rivals' dice (``dice_values``).
"""

from __future__ import annotations

import math
from typing import Any

from arabesque.games.magic_lamp.bots.evaluation import Board, ring_value
from arabesque.games.magic_lamp.bots.position import _ChestModel, all_dice
from arabesque.games.magic_lamp.components import CHESTS, Components, EffectKind
from arabesque.games.magic_lamp.rules import RING_FACE, chest_drawer

# ---------------------------------------------------------------------------------------------
# Push-your-luck search: an exact dynamic programme over the unseen cards' scorpion classes
# ---------------------------------------------------------------------------------------------


def search_value(
    model: _ChestModel,
    face: int,
    *,
    drawn: int = 0,
    scorpions: int = 0,
    kept: float = 0.0,
    ward: int = 0,
    ring_value: float = 0.0,
) -> tuple[float, bool]:
    """Expected value kept by the best stopping policy, and whether to draw now.

    ``drawn``/``scorpions``/``kept`` describe the search so far; ``ward`` scorpions still
    ignored (R19). A bust loses everything kept in this search.
    """
    limit = min(face - drawn, model.cards_left)
    classes = model.classes
    nc = len(classes)
    known = model.known
    nk = len(known)
    spos = model.sorcerer_at
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    pool_total = sum(c for _, c, _ in classes)

    def value(i: int, counts: tuple[int, ...], scorp: int, acc: float) -> float:
        key = (i, counts)
        got = memo.get(key)
        if got is not None:
            return got
        stop = acc
        if ring_value and drawn + i == RING_FACE == face:
            stop += ring_value
        if i >= limit:
            memo[key] = stop
            return stop
        go = 0.0
        if i < nk or i == spos:
            s, v = known[i] if i < nk else (0, model.sorcerer_value)
            new = scorp + s
            if scorpions + max(0, new - ward) < face:
                go = value(i + 1, counts, new, acc + v)
        else:
            left = pool_total - sum(counts)
            if left > 0:
                for ci in range(nc):
                    s, count, v = classes[ci]
                    remaining = count - counts[ci]
                    if remaining <= 0:
                        continue
                    new = scorp + s
                    if scorpions + max(0, new - ward) >= face:
                        continue
                    nxt = (*counts[:ci], counts[ci] + 1, *counts[ci + 1 :])
                    go += remaining / left * value(i + 1, nxt, new, acc + v)
        best = max(stop, go)
        memo[key] = best
        return best

    start = value(0, (0,) * nc, 0, kept)
    if limit <= 0:
        return start, False
    # Draw when drawing is worth more than stopping (ties stop: a bird in the hand).
    stop_now = kept + (ring_value if drawn == RING_FACE == face else 0.0)
    return start, start > stop_now + 1e-9


def chest_model(view: dict[str, Any], comp: Components, board: Board, c: int) -> _ChestModel:
    """What the bot knows of chest c, valued on ``board`` (built once per decision)."""
    cached = board.models.get(c)
    if cached is not None:
        return cached
    info = view["chests"][c]
    known_ids = [int(card["id"]) for card in info["known_top"]]
    sorcerer = comp.sorcerer_of(c)
    hidden = [
        cid
        for cid in comp.chest_cards[c]
        if cid not in board.seen and cid != sorcerer and cid not in known_ids
    ]

    def gain(cid: int) -> float:
        return board.gain(board.kinds[cid])

    by_scorp: dict[int, list[float]] = {}
    for cid in hidden:
        by_scorp.setdefault(comp.cards[cid].scorpions, []).append(gain(cid))
    classes = [(s, len(vs), sum(vs) / len(vs)) for s, vs in sorted(by_scorp.items())]
    known = [(comp.cards[cid].scorpions, gain(cid)) for cid in known_ids]
    above = info["cards_above_sorcerer"] if info["sorcerer_in_chest"] else None
    model = _ChestModel(
        known=known,
        sorcerer_at=above,
        sorcerer_value=board.sorcerer_value(),
        classes=classes,
        cards_left=int(info["cards_left"]),
    )
    board.models[c] = model
    return model


def search_table(view: dict[str, Any], comp: Components, board: Board) -> list[list[float]]:
    """search[c][f]: the value of searching chest c with a die showing f."""
    if board.search is not None:
        return board.search
    ring = ring_value(view, board)
    ward = int(view["players"][board.me]["ward"])
    table = [[0.0] * 7 for _ in CHESTS]
    for c in range(len(CHESTS)):
        if view["chests"][c]["cards_left"] == 0:
            continue
        model = chest_model(view, comp, board, c)
        for f in range(1, 7):
            table[c][f] = search_value(
                model, f, ward=ward, ring_value=ring if f == RING_FACE else 0.0
            )[0]
    board.search = table
    return table


def top_cards_value(
    view: dict[str, Any], comp: Components, board: Board, c: int, count: int
) -> float:
    """The value of taking the top ``count`` cards of chest c (no scorpion check, R6)."""
    info = view["chests"][c]
    if info["cards_left"] == 0:
        return 0.0
    model = chest_model(view, comp, board, c)
    total_hidden = sum(k for _, k, _ in model.classes)
    mean = sum(k * v for _, k, v in model.classes) / total_hidden if total_hidden else 0.0
    value = 0.0
    for i in range(min(count, int(info["cards_left"]))):
        if i < len(model.known):
            value += model.known[i][1]
        elif i == model.sorcerer_at:
            # A Sorcerer taken this way ends the game at once (rulebook special case).
            value += model.sorcerer_value * 2
            break
        else:
            value += mean
    return value


# ---------------------------------------------------------------------------------------------
# Lookahead: the searches the dice make, and the dice to set or change
# ---------------------------------------------------------------------------------------------


def searches(dice: list[tuple[int, int, int]]) -> dict[int, tuple[int, int]]:
    """chest -> (drawer, face) under the rulebook's lowest-untied-die rule."""
    out: dict[int, tuple[int, int]] = {}
    for c in range(len(CHESTS)):
        on = [(p, f) for p, dc, f in dice if dc == c]
        drawer = chest_drawer(on)
        if drawer is not None:
            out[c] = (drawer, next(f for p, f in on if p == drawer))
    return out


def my_searches(view: dict[str, Any]) -> list[tuple[int, int]]:
    """(chest, face) of the searches the bot will make with the dice as they stand."""
    me = int(view["seat"])
    made = searches(all_dice(view))
    return [(c, f) for c, (p, f) in made.items() if p == me]


def searches_value(
    search: list[list[float]], board: Board, dice: list[tuple[int, int, int]]
) -> float:
    """Relative value of the coming searches, valuing rivals' searches like the bot's."""
    total = 0.0
    for c, (p, f) in searches(dice).items():
        total += search[c][f] * (1.0 if p == board.me else -board.weight[p])
    return total


def best_die_change(
    view: dict[str, Any], comp: Components, board: Board, effect: EffectKind
) -> tuple[float, tuple[int, int]] | None:
    dice = all_dice(view)
    me = board.me
    if not any(p == me for p, _, _ in dice):
        return None
    search = search_table(view, comp, board)
    now = searches_value(search, board, dice)
    best: tuple[float, tuple[int, int]] | None = None
    occupied = {c for p, c, _ in dice if p == me}
    for i, (p, c, f) in enumerate(dice):
        if p != me:
            continue
        if effect is EffectKind.SET_DIE:
            changes = [(c, g) for g in range(1, 7)]
        else:
            changes = [(c2, f) for c2 in range(len(CHESTS)) if c2 not in occupied]
        for nc, nf in changes:
            trial = list(dice)
            trial[i] = (me, nc, nf)
            v = searches_value(search, board, trial) - now
            target = nf if effect is EffectKind.SET_DIE else nc
            if best is None or v > best[0]:
                best = (v, (c, target))
    return best


def rival_dice(values: list[list[float]], temperature: float) -> list[list[float]]:
    """q[c][f]: the chance that a given rival die sits on chest c with face f, for rivals
    who favour high ``values`` (softmax at ``temperature``) with a share of unpredictable
    play."""
    flat = [(c, f, values[c][f]) for c in range(len(CHESTS)) for f in range(1, 7)]
    top = max(v for _, _, v in flat)
    ws = [math.exp((v - top) / temperature) for _, _, v in flat]
    total = sum(ws)
    q = [[0.0] * 7 for _ in CHESTS]
    for (c, f, _), w in zip(flat, ws, strict=True):
        q[c][f] = 0.3 / len(flat) + 0.7 * w / total
    return q


def dice_values(
    view: dict[str, Any],
    comp: Components,
    board: Board,
    depth: int | None,
    wish_value: float,
    repeat_penalty: float,
    last_dice: list[tuple[int, int]],
) -> tuple[list[list[float]], list[float]]:
    """ev[c][f]: expected gain of a die on chest c showing f this turn; and lamp[f], the
    part of it that comes from a lamp race on face f.

    Rivals are first assumed to go for the best searches (level 0); with ``depth`` 2 they
    are assumed to reason like this once more, expecting the crowd on the best chest, which
    keeps everyone from piling onto it. ``depth`` None is the game's default (below);
    ``wish_value``, ``repeat_penalty`` and ``last_dice`` are ``expected``'s."""
    n = view["num_players"]
    search = search_table(view, comp, board)
    if depth is None:
        # Measured in self-play against depth 1: thinking one level further about the crowd
        # wins 75% of 2-player games and about 10% more than its share at 4 players in the
        # base game, but loses in "My Precious", where the ring rewards crowding on a 6.
        depth = 1 if view["my_precious"] else 2
    q = rival_dice(search, 1.0)
    for _ in range(depth - 1):
        ev = expected(search, q, n, wish_value, repeat_penalty, last_dice, penalise=False)[0]
        q = rival_dice(ev, 1.0)
    return expected(search, q, n, wish_value, repeat_penalty, last_dice, penalise=True)


def expected(
    search: list[list[float]],
    q: list[list[float]],
    n: int,
    wish_value: float,
    repeat_penalty: float,
    last_dice: list[tuple[int, int]],
    penalise: bool,
) -> tuple[list[list[float]], list[float]]:
    """ev[c][f] and lamp[f] as ``dice_values`` says, for rival dice spread as ``q``: a won lamp
    race is worth ``wish_value``; with ``penalise``, last turn's dice (``last_dice``) lose
    ``repeat_penalty``."""
    rival_dice_count = 2 if n == 2 else n - 1
    ev = [[0.0] * 7 for _ in CHESTS]
    lamps = [0.0] * 7
    for f in range(1, 7):
        face_share = sum(q[c][f] for c in range(len(CHESTS)))
        p_shared = 1.0 - (1.0 - face_share) ** rival_dice_count
        lamp = lamps[f] = p_shared * 0.5 * wish_value
        for c in range(len(CHESTS)):
            blocked = sum(q[c][g] for g in range(1, f + 1))
            p_get = max(0.0, 1.0 - blocked) ** rival_dice_count
            value = p_get * search[c][f] + lamp
            if penalise and (c, f) in last_dice:
                value -= repeat_penalty  # do not be predictable
            ev[c][f] = value
    return ev, lamps
