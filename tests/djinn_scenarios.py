"""Helpers for Djinn tests: games with a fixed layout, and positions set up by hand."""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import DecisionStack, Frame
from arabesque.core.registry import get_game
from arabesque.games.djinn import rules
from arabesque.games.djinn.actions import SPACE_NAMES
from arabesque.games.djinn.components import KINDS, LOCATIONS
from arabesque.games.djinn.params import DjinnParams
from arabesque.games.djinn.state import DjinnState, Kind

SPEC = get_game("djinn")


def new_game(n: int = 2, seed: int = 1, **options: Any) -> DjinnState:
    options.setdefault("first_game", True)  # no draft: the first turn starts at once
    params = DjinnParams(num_players=n, **options)
    state = SPEC.new_game(params, seed=seed)
    assert isinstance(state, DjinnState)
    return state


def space(name: str) -> int:
    return SPACE_NAMES.index(name)


def space_of(state: DjinnState, location: str, shape: str) -> int:
    """The square ('s') or round ('r') space of a location."""
    loc = LOCATIONS.index(location)
    for s in range(1, 13):
        if state.loc[s] == loc and SPACE_NAMES[s][0] == shape:
            return s
    raise AssertionError(location)


def act_at(state: DjinnState, seat: int, where: int, came: int = -1) -> None:
    """Make it ``seat``'s turn with its mage just arrived at ``where`` (no arrival bonus)."""
    state.current = seat
    state.tflags = 0
    state.in_catch = False
    state.pos[seat] = where
    state.came[seat] = came if came >= 0 else state.adj[where][0]
    state.turn_space = where
    state.stack = DecisionStack().push(Frame(Kind.ACT, seat, (where,)))
    rules.refresh(state)


def move_from(state: DjinnState, seat: int, where: int, came: int) -> None:
    """Make it ``seat``'s turn to move on from ``where`` (arrived from ``came``)."""
    state.current = seat
    state.tflags = 0
    state.pos[seat] = where
    state.came[seat] = came
    state.turn_space = -1
    state.stack = DecisionStack().push(Frame(Kind.MOVE, seat, (where, came, 1 << where, 0)))
    rules.refresh(state)


def set_djinn(state: DjinnState, where: int, **counts: int) -> None:
    """Put exactly these Djinn at a round space (others back into the bag / supply)."""
    here = state.djinn[where]
    for k, count in enumerate(here):
        if k < 4:
            state.bag[k] += count
        else:
            state.supply_bosses += count
        here[k] = 0
    for name, count in counts.items():
        k = KINDS.index(name)
        here[k] = count
        if k < 4:
            state.bag[k] -= count
        else:
            state.supply_bosses -= count


def give_mage(state: DjinnState, seat: int, card: int, active: bool = True) -> None:
    for pile in state.piles:
        if card in pile:
            pile.remove(card)
    state.mage_owner[card] = seat
    state.mage_active[card] = active
    state.mage_of[seat].append(card)


def texts(state: DjinnState, seat: int | None = None) -> list[str]:
    if seat is None:
        (who,) = state.to_act()
    else:
        who = seat
    return [state.action_to_str(a) for a in state.legal_actions(who)]


def do(state: DjinnState, *steps: str, seat: int | None = None) -> None:
    for text in steps:
        who = seat
        if who is None:
            (who,) = state.to_act()
        state.apply(who, state.parse_action(text))


def top_kind(state: DjinnState) -> Kind:
    top = state.stack.top
    assert top is not None
    return Kind(top.kind)


def main_texts(state: DjinnState, seat: int | None = None) -> list[str]:
    """The main options of the open decision, without the side actions offered alongside."""
    if seat is None:
        (seat,) = state.to_act()
    decision = state.decision(seat)
    assert decision is not None
    return [state.action_to_str(a) for a in decision.options if a not in decision.optional]


def keep_open(state: DjinnState, seat: int, keys: int = 1) -> None:
    """Give ``seat`` keys: key exchanges are side actions offered at every decision, so no
    decision is left with a single option (which the engine applies at once, ruling D25)."""
    state.bank[4] -= keys - state.keys[seat]
    state.keys[seat] = keys


def caught_boss_game() -> tuple[DjinnState, int]:
    """A 2-player game where seat 0 has reached round space r5, which holds a boss and two
    red Djinn, with 8 magic and its lamp flipped: the next step is ``catch``. Returns the
    state and the space."""
    state = new_game(2)
    r = space("r5")
    set_djinn(state, r, boss=1, red=2)
    state.magic[0] = 8
    state.flipped[0] = True
    keep_open(state, 0)
    act_at(state, 0, r)
    return state, r
