"""What one seat may know of a Magic Lamp game (None = a spectator).

Secret: dice set but not yet revealed, race answers not yet resolved, the order of the chest
decks and of the unseen top of the Lamp pile, and the cards another player peeked at.
Public: every card in front of a player (cards are played face up), the discard pile, deck
sizes, the Sorcerer's place (6th from the bottom, by the setup rule), and every card drawn.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, JEWELS, METALS, CardKind
from arabesque.games.magic_lamp.rules import (
    complete_sets,
    protected_cards,
    score_breakdowns,
    shared_faces,
    stone_count,
)
from arabesque.games.magic_lamp.state import LONE, NO_RUB, UNDECIDED, MagicLampState, Phase


def build_view(state: MagicLampState, seat: int | None) -> dict[str, Any]:
    comp = state.comp
    n = state.num_players
    revealed = state.phase is not Phase.SETTING
    scores = score_breakdowns(state)
    players = []
    for p in range(n):
        protected = protected_cards(state, p)
        cards = []
        for c in state.holdings[p]:
            entry = comp.card_json(c)
            if comp.cards[c].kind is CardKind.TALISMAN:
                on = state.talisman_on.get(c)
                entry["talisman_on"] = (
                    None if on is None else ("alone" if on == LONE else comp.stone_types[on])
                )
            entry["protected"] = c in protected
            cards.append(entry)
        show_dice = revealed or p == seat
        if state.phase is Phase.RACE:
            if p == seat:
                rub: Any = {UNDECIDED: "undecided", NO_RUB: "no-rub"}.get(
                    state.rub[p], state.rub[p]
                )
            else:
                rub = "answered" if state.rub[p] != UNDECIDED else "undecided"
        else:
            rub = None
        players.append(
            {
                "seat": p,
                "cards": cards,
                "stones": {
                    name: stone_count(state, p, t) for t, name in enumerate(comp.stone_types)
                },
                "sets": dict(zip(METALS, complete_sets(state, p), strict=True)),
                "ring": state.ring == p,
                "dice_set": len(state.dice[p]),
                "dice": (
                    [{"chest": CHESTS[c], "face": f} for c, f in state.dice[p]]
                    if show_dice
                    else None
                ),
                "race": rub,
                "ward": state.ward[p],
                "score": sum(scores[p].values()),
                "score_breakdown": scores[p],
                "known_top_counts": {CHESTS[c]: len(state.known_top[p][c]) for c in range(3)},
            }
        )
    chests = []
    for c, name in enumerate(CHESTS):
        deck = state.decks[c]
        sorcerer = comp.sorcerer_of(c)
        above = None
        if sorcerer in deck:
            above = len(deck) - 1 - deck.index(sorcerer)
        chests.append(
            {
                "name": name,
                "cards_left": len(deck),
                "sorcerer_in_chest": sorcerer in deck,
                "cards_above_sorcerer": above,
                "known_top": (
                    [comp.card_json(cid) for cid in state.known_top[seat][c]]
                    if seat is not None
                    else []
                ),
            }
        )
    data: dict[str, Any] = {
        "turn": state.turn,
        "phase": state.phase.name.lower(),
        "num_players": n,
        "my_precious": state.params.my_precious,
        "max_turns": state.params.max_turns,
        "cave_closed": state.cave_closed,
        "players": players,
        "chests": chests,
        "lamp_pile": {
            "cards": len(state.lamp_deck),
            # Bottom first: the cards everyone saw go under the pile, in order.
            "known_bottom": [comp.lamp_json(x) for x in state.lamp_deck[: state.lamp_known]],
        },
        "discard": [comp.card_json(c) for c in state.discard],
        "shared_faces": sorted(shared_faces(state)) if revealed else None,
        # A copy: the view belongs to its reader, who may change it.
        "race_result": deepcopy(state.race_result),
        "summoners": list(state.summoners),
        "decision": _decision_view(state, seat),
        "draw": _draw_view(state),
    }
    return data


def _decision_view(state: MagicLampState, seat: int | None) -> dict[str, Any] | None:
    decision = state.decision
    if decision is None or state.phase is not Phase.RESOLVE:
        return None
    kind, player, options, ctx = decision
    out: dict[str, Any] = {"kind": kind.name.lower(), "player": player}
    if kind.name == "WISH":
        out["lamp"] = state.comp.lamp_json(ctx[0])
        out["wish"] = ctx[1]
    elif kind.name in ("ANGRY_TARGET", "ANGRY_STEAL"):
        out["rubber"] = ctx[0]
    if seat == player:
        out["options"] = [
            {"action": a, "text": state.action_to_str(a), "label": state.describe_action(a)}
            for a in options
        ]
    return out


def _draw_view(state: MagicLampState) -> dict[str, Any] | None:
    draw = state.draw_ctx
    if draw is None:
        return None
    player, chest, face, drawn, scorpions = draw
    return {
        "player": player,
        "chest": CHESTS[chest],
        "face": face,
        "drawn": [state.comp.card_json(c) for c in drawn],
        "scorpions": scorpions,
        "ward": state.ward[player],
        "cards_left_in_chest": len(state.decks[chest]),
    }


__all__ = ["JEWELS", "A", "build_view"]
