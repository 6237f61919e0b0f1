"""How the rules run: the GAIN queue worked off, each decision's options, an action carried out.

After each action ``refresh`` works off the GAIN frames (queues of rewards and follow-ups, see
``do_item``) until a decision is on top of the stack, then computes that decision's options:
only options that can still be completed are offered (a Djinn is selectable only if the whole
selection can be paid for and placed, a move only if it ends somewhere the mage can stay).
``apply_action`` carries out a chosen action. This module only dispatches: the table
``_FRAMES`` names each decision kind's options and handler in its chapter, and ``do_item``
hands each GAIN item to the chapter that carries it out. The stack's primitives (``push``,
``pop``, ``replace``, ``queue``) are stack.py's, below every chapter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arabesque.core.decision import Frame
from arabesque.games.djinn.components import COLOURS, KINDS
from arabesque.games.djinn.rules import (
    board,
    catching,
    characters,
    equipment,
    locations,
    turn,
)
from arabesque.games.djinn.rules.board import activate_circle, raise_capacity
from arabesque.games.djinn.rules.catching import after_catch
from arabesque.games.djinn.rules.equipment import arrival_rewards
from arabesque.games.djinn.rules.locations import reveal_chests
from arabesque.games.djinn.rules.queries import (
    I_ACADEMY_ACTIVATE,
    I_AFTER_CATCH,
    I_AFTER_CATCH_BOSS,
    I_ARCHIVES,
    I_ARRIVE,
    I_CATACOMBS,
    I_CHEST,
    I_CHEST_KEY,
    I_FREE,
    I_MANUFACTORY,
    I_MARKET,
    I_OFFER,
    I_PLACE,
    I_TAVERN,
    RACT,
    RBASE,
    RBOT,
    RCAP,
    RCIRC,
    RDIFF,
    RDJ,
    REQ,
    RMAGE,
    can_place,
    draw_from,
    gain,
    log,
    one,
)
from arabesque.games.djinn.rules.side_actions import side_action, side_options
from arabesque.games.djinn.rules.stack import pop, push, queue, replace, reward_items
from arabesque.games.djinn.rules.turn import end_turn
from arabesque.games.djinn.state import NOBODY, ONE_SEAT, T_KEY, DjinnState, Kind

_MOVE, _DRAFT, _PLACE, _FREE, _GAIN = Kind.MOVE, Kind.DRAFT, Kind.PLACE, Kind.FREE, Kind.GAIN

#: A decision kind's options: (state, seat, the frame's context, the action layout's bases).
Options = Callable[[DjinnState, int, tuple[Any, ...], dict[str, int]], tuple[int, ...]]
#: A decision kind's handler: (state, seat, the frame, the action's group, its index in it).
Handler = Callable[[DjinnState, int, Frame, str, int], None]

#: Each decision kind (all but GAIN, which ``refresh`` works off) to its options and its
#: handler; both are its chapter's, side by side in the chapter's module.
_FRAMES: dict[int, tuple[Options, Handler]] = {
    Kind.DRAFT: (characters.draft_options, characters.draft),
    Kind.START: (turn.start_options, turn.start),
    Kind.MOVE: (turn.move_options, turn.move),
    Kind.JUMP: (turn.jump_options, turn.jump),
    Kind.PAY_PLAYER: (turn.pay_options, turn.pay),
    Kind.ACT: (turn.act_frame_options, turn.act),
    Kind.CATCH_SELECT: (catching.select_options, catching.select),
    Kind.CATCH_PAY: (catching.cpay_options, catching.cpay),
    Kind.PLACE: (catching.place_options, catching.place),
    Kind.FREE: (catching.free_options, catching.free),
    Kind.ARCHIVES: (locations.archives_options, locations.archives),
    Kind.PASSAGE: (locations.passage_frame_options, locations.passage),
    Kind.TAVERN: (locations.tavern_options, locations.tavern),
    Kind.MANUFACTORY: (locations.manufactory_options, locations.manufactory),
    Kind.TENT: (locations.tent_options, locations.tent),
    Kind.OFFER: (locations.offer_options, locations.offer),
    Kind.CHEST_KEY: (locations.chest_key_options, locations.chest_key),
    Kind.CHEST_DISCARD: (locations.chest_discard_options, locations.chest_discard),
    Kind.ACTIVATE: (board.activate_options, board.activate),
    Kind.CHOOSE_BOTTLE: (board.choose_bottle_options, board.choose_bottle),
    Kind.SOURCE_BOSSES: (locations.source_bosses_options, locations.source_bosses),
    Kind.TRADE: (equipment.trade_options, equipment.trade),
}
_OPTIONS: dict[int, Options] = {kind: options for kind, (options, _) in _FRAMES.items()}
_HANDLERS: dict[int, Handler] = {kind: handler for kind, (_, handler) in _FRAMES.items()}


def refresh(s: DjinnState) -> None:
    """Work off GAIN frames, then compute the options of the decision on top (main options
    ascending, then the side actions); a choice frame left with no option is dropped."""
    L = s.L.base
    while True:
        top = s.stack.top
        if s.over or top is None:
            s.options, s.actors = (), NOBODY
            return
        if top.kind is _GAIN:
            items = top.context
            if not items:
                pop(s)
                continue
            s.stack = s.stack.replace(Frame(_GAIN, top.seat, items[1:]))
            do_item(s, top.seat, items[0])
            continue
        main = frame_options(s, top, L)
        if not main:
            if top.kind is _MOVE and not top.context[3]:
                # ruling D2: a mage that cannot complete any move may stop without paying.
                replace(s, _MOVE, top.seat, (*top.context[:3], 1))
                continue
            pop(s)
            if not s.stack:
                end_turn(s, top.seat)
            continue
        p = top.seat
        # Side actions at every decision of the turn, a catch included (ruling D8).
        if top.kind is not _DRAFT:
            side = side_options(s, p, L)
            if side:
                main = main + side
        if len(main) == 1:
            # Ruling D25 (as R11 in Magic Lamp): a decision with a single option is no
            # choice; it is carried out at once and is not a recorded action.
            group, i = s.L.group[main[0]]
            _HANDLERS[top.kind](s, p, top, group, i)
            continue
        s.options = main
        s.actors = ONE_SEAT[p]
        return


def frame_options(s: DjinnState, top: Frame, L: dict[str, int]) -> tuple[int, ...]:
    """The options of the decision ``top``, as its chapter computes them."""
    try:
        options = _OPTIONS[top.kind]
    except KeyError:
        raise AssertionError(top.kind) from None
    return options(s, top.seat, top.context, L)


def do_item(s: DjinnState, p: int, item: tuple[int, int]) -> None:
    """Carry out one queued item: an automatic reward at once, a choice by pushing its frame."""
    code, a = item
    comp = s.comp
    if code <= RBASE and code != RCAP:
        gain(s, p, code, a)
    elif code == RCAP:
        for _ in range(a):
            raise_capacity(s, p)
    elif code in (RBOT, RDIFF):
        push(s, Kind.CHOOSE_BOTTLE, p, (a, 0, 1 if code == RDIFF else 0))
    elif code == RACT:
        if "no_activate" not in s.fx[p] and any(not s.mage_active[c] for c in s.mage_of[p]):
            push(s, Kind.ACTIVATE, p, (a, 0))
    elif code == RCIRC:
        for _ in range(a):
            activate_circle(s, p)
    elif code == RDJ:
        if a > 1:
            queue(s, p, ((RDJ, a - 1),))
        c = draw_from(s.bag, s.rng)
        if c >= 0:
            log(s, "draw_djinn", seat=p, colour=COLOURS[c])
            push(s, _PLACE, p, (c, 1, ()))
    elif code == RMAGE:
        if a > 1:
            queue(s, p, ((RMAGE, a - 1),))
        push(s, Kind.TAVERN, p, (1,))
    elif code == REQ:
        if a > 1:
            queue(s, p, ((REQ, a - 1),))
        push(s, Kind.MANUFACTORY, p, ())
    elif code == I_ARRIVE:
        arrival_rewards(s, p, a)
    elif code == I_TAVERN:
        push(s, Kind.TAVERN, p, (a,))
    elif code == I_CATACOMBS:
        reveal_chests(s, p, a)
    elif code == I_ARCHIVES:
        push(s, Kind.ARCHIVES, p, (a, 0))
    elif code == I_MANUFACTORY:
        push(s, Kind.MANUFACTORY, p, ())
    elif code == I_MARKET:
        push(s, Kind.TENT, p, ())
    elif code == I_OFFER:
        push(s, Kind.OFFER, p, (a,))
    elif code == I_CHEST:
        chest = comp.chests[a]
        follow = ((I_CHEST_KEY, a),) if chest.key_reward else ()
        queue(s, p, reward_items(chest.reward) + follow)
    elif code == I_CHEST_KEY:
        # Ruling D22: a key opens at most one chest per turn.
        if s.keys[p] > 0 and "no_chest_keys" not in s.fx[p] and not s.tflags & T_KEY:
            push(s, Kind.CHEST_KEY, p, (a,))
    elif code == I_PLACE:
        top = s.stack.top
        assert top is not None
        rest = tuple(x[1] for x in top.context if x[0] == I_PLACE)
        push(s, _PLACE, p, (a, 0, rest))
    elif code == I_FREE:
        here = s.djinn[a]
        if any(here[k] and can_place(s, p, one(k)) for k in range(len(KINDS))):
            push(s, _FREE, p, (a,))
    elif code == I_ACADEMY_ACTIVATE:
        if any(not s.mage_active[c] for c in s.mage_of[p]):
            push(s, Kind.ACTIVATE, p, (a, 1))
    elif code in (I_AFTER_CATCH, I_AFTER_CATCH_BOSS):
        after_catch(s, p, a, code == I_AFTER_CATCH_BOSS)
    else:
        raise AssertionError(item)


def apply_action(s: DjinnState, p: int, action: int) -> None:
    group, i = s.L.group[action]
    top = s.stack.top
    assert top is not None
    if action >= s.L.side_start:
        side_action(s, p, group, i)
        refresh(s)
        return
    handler = _HANDLERS[top.kind]
    handler(s, p, top, group, i)
    refresh(s)
