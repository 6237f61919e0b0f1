"""A player's turn (rulebook §A PLAYER'S TURN: the very first turn, moving, occupied spaces,
performing the action of the space, forfeiting actions; and the order of turns and rounds
up to the end, §END OF THE GAME).

Owns the turn's frames in their order, each with its options beside its handler: START (the
first placement), MOVE and JUMP (along the paths, never back; skip or stop where mages stand
at the edge of arrival: ``occupants``, ``reachable``, ``can_stop``), PAY_PLAYER (a coin or a
scroll to each of those mages, or to each assistant at a Market tent), ACT (the space's menu:
basic, special or passage action, forfeit, the catch, the Magic Source's rows, the end of the
turn). ``begin_turn`` and ``end_turn`` pass the turn on, count the rounds and the stages of
the end (finish the round, one more round, the final Magic Source visit) and let Tom play in a
solo game. What each location's action does is locations.py's; the catch is catching.py's.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import DecisionStack, Frame
from arabesque.games.djinn.actions import ROUNDS, SOURCE, SPACE_NAMES, SQUARES
from arabesque.games.djinn.components import KINDS, LOCATIONS, reward_json
from arabesque.games.djinn.rules.ending import finish
from arabesque.games.djinn.rules.locations import (
    location_doable,
    location_items,
    market_affordable,
    scroll_price,
    source_boss_ok,
)
from arabesque.games.djinn.rules.queries import (
    CATACOMBS,
    I_ARRIVE,
    RS,
    gain,
    log,
    max_magic,
    own_passage,
)
from arabesque.games.djinn.rules.solo import tom_pay, tom_turn
from arabesque.games.djinn.rules.stack import pop, push, queue, replace
from arabesque.games.djinn.state import (
    FINAL_SOURCE,
    FINISH_ROUND,
    LAST_ROUND,
    PLAYING,
    STAGE_NAMES,
    T_BASIC,
    T_CATCH,
    T_FINAL,
    T_FORFEIT,
    T_PASSAGE,
    T_ROW1,
    T_ROW2,
    DjinnState,
    Kind,
)

_START, _MOVE, _JUMP, _PAY, _ACT = Kind.START, Kind.MOVE, Kind.JUMP, Kind.PAY_PLAYER, Kind.ACT
_SELECT, _GAIN = Kind.CATCH_SELECT, Kind.GAIN


def begin_turn(s: DjinnState, p: int) -> None:
    s.current = p
    s.tflags = T_FINAL if s.stage == FINAL_SOURCE else 0
    s.fresh_passage[p] = -1
    s.in_catch = False
    # rulebook §Player Board 1c: the magic marker starts the turn at least at the base.
    if s.magic[p] < s.base[p]:
        s.magic[p] = s.base[p]
    if s.stage == FINAL_SOURCE:
        s.pos[p] = SOURCE
        s.came[p] = -1
        s.turn_space = SOURCE
        s.stack = DecisionStack().push(Frame(_ACT, p, (SOURCE,)))
    elif s.pos[p] < 0:
        s.turn_space = -1
        s.stack = DecisionStack().push(Frame(_START, p, ()))
    else:
        here = s.pos[p]
        s.turn_space = -1
        s.stack = DecisionStack().push(Frame(_MOVE, p, (here, s.came[p], 1 << here, 0)))


# -- the very first turn -------------------------------------------------------------------


def start_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    base = L["start"]
    return tuple(base + (sq - 1) * 6 + (r - 7) for sq in SQUARES for r in s.adj[sq] if r != SOURCE)


def start(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    square, rnd = 1 + i // 6, 7 + i % 6
    # The first placement is no move for paying (ruling D4), but the mage then stands in
    # front of the space as after one, so location rewards count there (ruling D31).
    arrive(s, p, square, rnd, ())


def arrive(s: DjinnState, p: int, space: int, frm: int, payees: tuple[int, ...]) -> None:
    s.pos[p] = space
    s.came[p] = frm
    s.turn_space = space
    log(s, "move", seat=p, to=SPACE_NAMES[space])
    replace(s, _ACT, p, (space,))
    push(s, _GAIN, p, ((I_ARRIVE, space),))
    if payees:
        push(s, _PAY, p, (payees, -1))


# -- moving --------------------------------------------------------------------------------


def move_options(s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]) -> tuple[int, ...]:
    at, came, visited, stuck = ctx
    base = L["move"]
    return tuple(
        base + t
        for t in s.adj[at]
        if t != came and not (visited >> t) & 1 and reachable(s, p, t, at, visited, stuck)
    )


def move(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    at, _came, visited, stuck = top.context
    t = i
    if stuck or not occupants(s, p, t, at):
        arrive(s, p, t, at, ())
    else:
        replace(s, _JUMP, p, (t, at, visited | (1 << t), stuck))


def jump_options(s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]) -> tuple[int, ...]:
    t, frm, visited, stuck = ctx
    out = []
    if stuck or can_stop(s, p, t, frm):
        out.append(L["stop"])
    if any(
        u != frm and not (visited >> u) & 1 and reachable(s, p, u, t, visited, stuck)
        for u in s.adj[t]
    ):
        out.append(L["skip"])
    return tuple(out)


def jump(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    t, frm, visited, stuck = top.context
    if group == "skip":
        replace(s, _MOVE, p, (t, frm, visited, stuck))
        return
    payees = () if (stuck or "movement_free" in s.fx[p]) else occupants(s, p, t, frm)
    arrive(s, p, t, frm, payees)


def occupants(s: DjinnState, p: int, space: int, frm: int) -> tuple[int, ...]:
    """The other mages at the edge of ``space`` that a mage coming from ``frm`` arrives at:
    they came from ``frm`` too. Only they are paid or skipped (rulebook §A PLAYER'S TURN,
    Exception: "a Mage present at this edge"; ruling D27); a mage at another edge of the same
    space costs nothing."""
    pos, came = s.pos, s.came
    return tuple(q for q in range(len(pos)) if q != p and pos[q] == space and came[q] == frm)


def can_stop(s: DjinnState, p: int, t: int, frm: int) -> bool:
    if "movement_free" in s.fx[p]:
        return True
    return s.coins[p] + s.scrolls[p] >= len(occupants(s, p, t, frm))


def reachable(s: DjinnState, p: int, t: int, frm: int, visited: int, stuck: int) -> bool:
    """Whether a move onto ``t`` (from ``frm``) can end somewhere: nobody stands at the edge
    it arrives at, the mage can pay everyone there, or skipping on leads to such a space
    (never back along the path just taken, never onto a space passed in this move: ruling
    D1)."""
    if stuck or not occupants(s, p, t, frm) or can_stop(s, p, t, frm):
        return True
    seen = visited | (1 << t)
    return any(
        u != frm and not (seen >> u) & 1 and reachable(s, p, u, t, seen, stuck) for u in s.adj[t]
    )


# -- paying the mages (or the assistants at a Market tent) -----------------------------------


def pay_options(s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]) -> tuple[int, ...]:
    payees, place = ctx
    rest = len(payees) - 1
    out = []
    for action, dc, ds in ((L["pay_coin"], 1, 0), (L["pay_scroll"], 0, 1)):
        coins, scrolls = s.coins[p] - dc, s.scrolls[p] - ds
        if coins < 0 or scrolls < 0:
            continue
        if place < 0:
            ok = coins + scrolls >= rest
        else:
            ok = market_affordable(s, coins, scrolls, rest, place)
        if ok:
            out.append(action)
    return tuple(out)


def pay(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    payees, place = top.context
    q = payees[0]
    if group == "pay_coin":
        s.coins[p] -= 1
        s.coins[q] += 1
    else:
        s.scrolls[p] -= 1
        s.scrolls[q] += 1
    log(s, "pay", seat=p, to=q, what=group[4:], market=place >= 0)
    if len(payees) > 1:
        replace(s, _PAY, p, (payees[1:], place))
    else:
        pop(s)


# -- the action of the space ---------------------------------------------------------------


def act_options(s: DjinnState, p: int, space: int, L: dict[str, int]) -> tuple[int, ...]:
    f = s.tflags
    out: list[int] = []
    if space == SOURCE:
        # rulebook §Magic Source: the first row (refill, or bosses for magic) and the second
        # row (for scrolls), in any order.
        if not f & T_ROW1:
            if s.magic[p] < max_magic(s, p):
                out.append(L["refill"])
            if source_boss_ok(s, p):
                out.append(L["bosses"])
        if not f & T_ROW2 and s.scrolls[p] >= scroll_price(s, p):
            out.append(L["row2"])
        out.append(L["end"])
        out.sort()
        return tuple(out)
    location = s.loc[space]
    fx = s.fx[p]
    forfeit = 0 if "no_forfeit" in fx else len(s.comp.forfeit)
    if space < 7:
        done = f & (T_BASIC | T_FORFEIT)
        if not done and location_doable(s, p, location, False):
            out.append(L["basic"])
        passage = own_passage(s, p, space)
        if (
            passage >= 0
            and not f & (T_PASSAGE | T_FORFEIT)
            and location_doable(s, p, passage, False)
        ):
            out.append(L["passage_use"])
        if forfeit and not f & (T_BASIC | T_PASSAGE | T_FORFEIT):
            out.extend(L["forfeit"] + i for i in range(forfeit))
        out.append(L["end"])
    else:
        catch_pending = not f & T_CATCH and sum(s.djinn[space]) > 0
        if not f & (T_BASIC | T_FORFEIT):
            if not ("catch_first" in fx and catch_pending):
                if location_doable(s, p, location, False):
                    out.append(L["basic"])
                if location_doable(s, p, location, True) and not (
                    location == CATACOMBS and "catacombs_basic_only" in fx
                ):
                    out.append(L["special"])
            if forfeit:
                out.extend(L["forfeit"] + i for i in range(forfeit))
        out.append(L["catch"] if catch_pending else L["end"])
    out.sort()
    return tuple(out)


def act_frame_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    """The ACT decision's options (its frame's context is the space)."""
    return act_options(s, p, ctx[0], L)


def act(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space = top.context[0]
    comp = s.comp
    if group == "end":
        end_turn(s, p)
        return
    if group == "catch":
        s.in_catch = True
        push(s, _SELECT, p, (space, (0,) * len(KINDS)))
        return
    if group == "forfeit":
        s.tflags |= T_FORFEIT
        log(s, "forfeit", seat=p, reward=reward_json(comp.forfeit[i]))
        queue(s, p, comp.forfeit[i])
        return
    if group == "refill":
        s.tflags |= T_ROW1
        s.magic[p] = max_magic(s, p)
        log(s, "source_refill", seat=p)
        return
    if group == "bosses":
        s.tflags |= T_ROW1
        push(s, Kind.SOURCE_BOSSES, p, ())
        return
    if group == "row2":
        s.tflags |= T_ROW2
        price = scroll_price(s, p)
        gain(s, p, RS, -price)
        log(s, "source_row2", seat=p, price=price)
        queue(s, p, comp.rewards["source_row2"])
        return
    special = group == "special"
    if group == "passage_use":
        s.tflags |= T_PASSAGE
        location = own_passage(s, p, space)
    else:
        s.tflags |= T_BASIC
        location = s.loc[space]
    log(s, "action", seat=p, location=LOCATIONS[location], special=special)
    queue(s, p, location_items(s, p, location, special))


# -- the end of the turn -------------------------------------------------------------------


def end_turn(s: DjinnState, p: int) -> None:
    s.stack = DecisionStack()
    space = s.turn_space
    s.fresh_passage[p] = -1
    s.turns += 1
    n = s.num_players
    log(s, "end_turn", seat=p)
    if s.stage == FINAL_SOURCE:
        nxt = (p + 1) % n
        if nxt == s.first:
            finish(s)
        else:
            begin_turn(s, nxt)
        return
    if n == 1:
        if s.stage != PLAYING:
            # rulebook §Solo end: the last boss is gone before Tom's last card: a win. Tom's
            # next card is flipped and its bottom line paid, then the final Source action.
            s.won = True
            if s.tom_deck:
                card = s.tom_deck.pop()
                s.tom_revealed.append(card)
                tom_pay(s, card)
            s.stage = FINAL_SOURCE
            log(s, "solo_won", cards_left=len(s.tom_deck))
            begin_turn(s, 0)
            return
        if space in ROUNDS:
            tom_turn(s)
            if s.over:
                return
        s.round += 1
        begin_turn(s, 0)
        return
    nxt = (p + 1) % n
    if nxt == s.first:
        s.round += 1
        if s.stage == FINISH_ROUND:
            s.stage = LAST_ROUND
        elif s.stage == LAST_ROUND:
            s.stage = FINAL_SOURCE
        elif s.stage == PLAYING and s.round > s.params.max_rounds:
            s.stage = LAST_ROUND  # ruling D14: the round cap ends the game like the last boss
            log(s, "round_cap", round=s.round)
        if s.stage != PLAYING:
            log(s, "stage", stage=STAGE_NAMES[s.stage])
    begin_turn(s, nxt)
