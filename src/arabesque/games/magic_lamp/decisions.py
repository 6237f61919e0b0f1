"""Magic Lamp decisions in the core's shape: a kind, a prompt, labelled options, a default.

The options are exactly ``legal_actions`` (the rules compute them); this module only words
them for people and names the action a seat gets when its time runs out.
"""

from __future__ import annotations

from typing import Any

from arabesque.core.decision import Decision, OptionRange, Reaction
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS
from arabesque.games.magic_lamp.state import (
    RACE_OPTIONS,
    DecisionKind,
    MagicLampState,
    Phase,
)

#: What the rest of the table is told a seat is doing (``pending`` in the view).
WAITING: dict[DecisionKind, str] = {
    DecisionKind.SET_DIE: "setting a die",
    DecisionKind.RACE: "answering the lamp race",
    DecisionKind.ANGRY_TARGET: "naming who steals from them",
    DecisionKind.ANGRY_STEAL: "choosing a card to steal",
    DecisionKind.WISH: "making a wish",
    DecisionKind.EFFECT_CHEST: "choosing a chest for the Genie's gift",
    DecisionKind.EFFECT_DIE: "choosing a die for the Genie's gift",
    DecisionKind.EFFECT_FACE: "choosing a new face",
    DecisionKind.EFFECT_MOVE: "moving a die",
    DecisionKind.EFFECT_CARD: "choosing a card to take",
    DecisionKind.SWAP_OWN: "choosing a card to give",
    DecisionKind.SWAP_THEIRS: "choosing a card to take",
    DecisionKind.DRAW: "drawing or stopping",
    DecisionKind.TALISMAN: "placing a talisman",
    DecisionKind.RETRIEVE: "taking a card from the discard pile",
}

# Enum members and names as module constants: an enum attribute is slow on the view's path.
_SETTING = Phase.SETTING
_RACE = Phase.RACE
_RESOLVE = Phase.RESOLVE
_KIND_NAMES = {kind: kind.name.lower() for kind in DecisionKind}

_RACE_LABELS = tuple(
    "do not rub" if a == A.NO_RUB else f"rub after {A.rub_ms(a)} ms" for a in RACE_OPTIONS
)


#: The lamp race as a real-time reaction: the window closes after the slowest recorded time.
RACE_REACTION = Reaction(
    window_ms=A.MAX_RUB_MS, step_ms=A.RUB_STEP_MS, first=A.RUB_BASE,
    none=A.NO_RUB,
)

#: The race's rubs, one per reaction time, as one range (the view sends it as one entry).
RUB_RANGE = OptionRange(
    start=A.RUB_BASE, stop=A.NO_RUB, label="rub after {n} ms", text="rub {n}ms",
    n_start=0, n_step=A.RUB_STEP_MS,
)


def _prompt_of_race() -> tuple[str, None, tuple[str, ...]]:
    return "The dice are revealed: rub the lamp, or not", None, ()


def _card_label(state: MagicLampState, card_id: int, owner: int | None = None) -> str:
    name = state.comp.describe(card_id)
    return name if owner is None else f"{name} (player {owner})"


def _labels(
    state: MagicLampState, kind: DecisionKind, options: tuple[int, ...]
) -> tuple[str, ...]:
    if kind is DecisionKind.RACE:
        return _RACE_LABELS
    out = []
    for a in options:
        if A.is_set(a):
            chest, face = A.decode_set(a)
            out.append(f"{CHESTS[chest]} chest, face {face}")
        elif a == A.ACCEPT:
            out.append("keep this wish")
        elif a == A.REJECT:
            out.append("refuse it and wish again")
        elif a == A.DRAW:
            out.append("draw a card")
        elif a == A.STOP:
            out.append("stop and keep the cards")
        elif A.TARGET_BASE <= a < A.STONE_BASE:
            out.append(f"player {a - A.TARGET_BASE}")
        elif A.STONE_BASE <= a < A.CHEST_BASE:
            out.append(f"on {state.comp.stone_types[a - A.STONE_BASE]}")
        elif A.CHEST_BASE <= a < A.FACE_BASE:
            c = a - A.CHEST_BASE
            out.append(f"{CHESTS[c]} chest ({len(state.decks[c])} cards)")
        elif A.FACE_BASE <= a < A.CARD_BASE:
            out.append(f"face {a - A.FACE_BASE + 1}")
        else:
            cid = a - A.CARD_BASE
            out.append(_card_label(state, cid, _owner_if_other(state, kind, cid)))
    return tuple(out)


def _owner_if_other(state: MagicLampState, kind: DecisionKind, card_id: int) -> int | None:
    """The holder of a card taken from another player (steal, exchange, angry Genie)."""
    if kind in (DecisionKind.EFFECT_CARD, DecisionKind.SWAP_THEIRS):
        return state.holder_of(card_id)
    return None


def _prompt(
    state: MagicLampState, kind: DecisionKind, seat: int, ctx: tuple[Any, ...]
) -> tuple[str, dict[str, Any] | None, tuple[str, ...]]:
    """(prompt, context, trail) of a decision."""
    comp = state.comp
    if kind is DecisionKind.SET_DIE:
        placed = state.dice[seat]
        if state.params.dice_per_player > 1:
            which = "second" if placed else "first"
            note = " (on another chest than your first)" if placed else ""
            return f"Secretly set your {which} die: a chest and a face{note}", None, ()
        return "Secretly set your die: a chest and a face", None, ()
    if kind is DecisionKind.RACE:
        return _prompt_of_race()
    if kind is DecisionKind.ANGRY_TARGET:
        return "You rubbed the lamp by mistake: name the opponent who takes a card from you", (
            {"rubber": ctx[0]}
        ), ()
    if kind is DecisionKind.ANGRY_STEAL:
        return f"The Genie is angry with player {ctx[0]}: take one of their cards", (
            {"rubber": ctx[0]}
        ), ()
    if kind is DecisionKind.WISH:
        lamp_id, wish = ctx
        lamp = comp.lamp_cards[lamp_id]
        return f"Wish {wish} of 3: keep «{lamp.name}» or wish again?", {
            "lamp": comp.lamp_json(lamp_id),
            "wish": wish,
        }, ()
    if kind is DecisionKind.EFFECT_CHEST:
        lamp = comp.lamp_cards[ctx[0]]
        return f"«{lamp.name}»: choose a chest", {"lamp": comp.lamp_json(ctx[0])}, ()
    if kind is DecisionKind.EFFECT_DIE:
        lamp = comp.lamp_cards[ctx[0]]
        return f"«{lamp.name}»: choose which of your dice it changes", {
            "lamp": comp.lamp_json(ctx[0])
        }, ()
    if kind is DecisionKind.EFFECT_FACE:
        return f"Choose the new face of your die on the {CHESTS[ctx[0]]} chest", {
            "chest": CHESTS[ctx[0]]
        }, ("Choose which of your dice it changes",)
    if kind is DecisionKind.EFFECT_MOVE:
        return f"Move your die from the {CHESTS[ctx[0]]} chest to", {"chest": CHESTS[ctx[0]]}, (
            "Choose which of your dice it changes",
        )
    if kind is DecisionKind.EFFECT_CARD:
        return "Take a card from an opponent", None, ()
    if kind is DecisionKind.SWAP_OWN:
        return "Exchange: choose the card you give", None, ()
    if kind is DecisionKind.SWAP_THEIRS:
        given = ctx[0]
        return (
            f"Exchange: choose the card you take for your {comp.describe(given)}",
            {"give": comp.card_json(given)},
            ("Exchange: choose the card you give",),
        )
    if kind is DecisionKind.DRAW:
        draw = state.draw_ctx
        assert draw is not None
        _, chest, face, drawn, scorpions = draw
        return (
            f"{CHESTS[chest].capitalize()} chest, die {face}: {len(drawn)} drawn, "
            f"{scorpions} scorpion{'' if scorpions == 1 else 's'} — draw or stop?",
            {"chest": CHESTS[chest], "face": face, "drawn": len(drawn), "scorpions": scorpions},
            (),
        )
    if kind is DecisionKind.TALISMAN:
        return f"Place your talisman ({comp.describe(ctx[0])}) on a stone type you have", {
            "card": comp.card_json(ctx[0])
        }, ()
    if kind is DecisionKind.RETRIEVE:
        why = "the magic ring" if ctx[0] == "ring" else "the Genie's gift"
        return f"Take a card from the discard pile ({why})", {"source": ctx[0]}, ()
    raise AssertionError(kind)  # pragma: no cover - the enum is closed


def _default(kind: DecisionKind, options: tuple[int, ...]) -> int:
    """A seat whose time runs out does the least it can: no rub, stop drawing, keep the
    wish; otherwise the first option."""
    if kind is DecisionKind.RACE:
        return A.NO_RUB
    if kind is DecisionKind.DRAW:
        return A.STOP
    if kind is DecisionKind.WISH:
        return A.ACCEPT
    return options[0]


def _race_decision(seat: int) -> Decision:
    """Every seat's race decision is the same but for the seat: built once per seat."""
    decision = _RACE_DECISIONS.get(seat)
    if decision is None:
        kind = DecisionKind.RACE
        prompt, context, trail = _prompt_of_race()
        decision = _RACE_DECISIONS[seat] = Decision(
            seat=seat,
            kind=kind,
            options=RACE_OPTIONS,
            prompt=prompt,
            labels=_RACE_LABELS,
            default=A.NO_RUB,
            context=context,
            trail=trail,
            reaction=RACE_REACTION,
            ranges=(RUB_RANGE,),
        )
    return decision


_RACE_DECISIONS: dict[int, Decision] = {}

#: Per chest, its six faces as one range of set-die options.
_SET_RANGES = tuple(
    OptionRange(
        start=A.SET_BASE + c * A.FACES, stop=A.SET_BASE + (c + 1) * A.FACES,
        label=f"{name} chest, face {{n}}", text=f"set {name} {{n}}", n_start=1,
    )
    for c, name in enumerate(CHESTS)
)


def _set_decision(state: MagicLampState, seat: int, options: tuple[int, ...]) -> Decision:
    """Setting a die: one range per chest (a chest offers all six faces or none). The few
    distinct set-die decisions are built once each, known by what their prompt and options
    follow from: the seat, its options, how many dice it sets and how many it has set."""
    key = (seat, options, state.params.dice_per_player, len(state.dice[seat]))
    decision = _SET_DECISIONS.get(key)
    if decision is None:
        prompt, context, trail = _prompt(state, DecisionKind.SET_DIE, seat, ())
        offered = set(options)
        decision = _SET_DECISIONS[key] = Decision(
            seat=seat,
            kind=DecisionKind.SET_DIE,
            options=options,
            prompt=prompt,
            labels=_labels(state, DecisionKind.SET_DIE, options),
            default=options[0],
            context=context,
            trail=trail,
            ranges=tuple(r for r in _SET_RANGES if offered.issuperset(r.actions)),
        )
    return decision


_SET_DECISIONS: dict[tuple[int, tuple[int, ...], int, int], Decision] = {}


def decision_for(state: MagicLampState, seat: int) -> Decision:
    """The decision of ``seat``, who is among ``state.to_act()``."""
    phase = state.phase
    if phase is _SETTING:
        return _set_decision(state, seat, tuple(state.legal_actions(seat)))
    if phase is _RACE:
        return _race_decision(seat)
    pending = state.pending
    assert pending is not None and pending[1] == seat
    kind, ctx = pending[0], pending[3]
    options = tuple(state.legal_actions(seat))  # the rules' own tuple: no copy is made
    prompt, context, trail = _prompt(state, kind, seat, ctx)
    return Decision(
        seat=seat,
        kind=kind,
        options=options,
        prompt=prompt,
        labels=_labels(state, kind, options),
        default=_default(kind, options),
        context=context,
        trail=trail,
    )


def pending_json(state: MagicLampState) -> dict[str, Any] | None:
    """Public: who is deciding what, for everyone at the table (the chooser's own options
    come with their decision)."""
    if state.phase is _RESOLVE and state.pending is not None:
        kind, player, _, ctx = state.pending
        out: dict[str, Any] = {"kind": _KIND_NAMES[kind], "player": player}
        out["doing"] = WAITING[kind]
        if kind is DecisionKind.WISH:
            out["lamp"] = state.comp.lamp_json(ctx[0])
            out["wish"] = ctx[1]
        elif kind in (DecisionKind.ANGRY_TARGET, DecisionKind.ANGRY_STEAL):
            out["rubber"] = ctx[0]
        return out
    return None
