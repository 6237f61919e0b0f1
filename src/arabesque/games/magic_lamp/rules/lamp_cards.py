"""The Lamp cards' effects: draw from or peek at a chest, steal, exchange, retrieve from the
discard pile, change or move a die, ward off scorpions.

Rulebook: the texts of the Lamp cards (their kinds are ``components.EffectKind``), with
"Talismans cannot be stolen or exchanged", the jewels of complete sets neither ("What do the
cards you draw do?"), and the special case of "End of the game": a Sorcerer drawn by a Lamp
card ends the game at once. Retrieving from the discard pile also serves the ring ("My
Precious", ring.py).
"""

from __future__ import annotations

from typing import Any

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, CardKind, EffectKind
from arabesque.games.magic_lamp.rules.agenda import decide
from arabesque.games.magic_lamp.rules.cards import (
    gain_card,
    lose_card,
    pop_chest,
    stealable_cards,
)
from arabesque.games.magic_lamp.rules.end import end_game
from arabesque.games.magic_lamp.state import DecisionKind, MagicLampState


def start_effect(state: MagicLampState, player: int, lamp_id: int) -> None:
    lamp = state.comp.lamp_cards[lamp_id]
    effect = lamp.effect
    if effect in (EffectKind.DRAW_CHEST, EffectKind.PEEK):
        if lamp.chest is not None:
            _chest_effect(state, player, lamp_id, lamp.chest)
            return
        options = tuple(A.chest(c) for c in range(len(CHESTS)) if state.decks[c])
        if not options:
            state.log("effect_fizzles", player=player, reason="every chest is empty")
            return
        decide(state, DecisionKind.EFFECT_CHEST, player, options, (lamp_id,))
    elif effect is EffectKind.STEAL:
        options = tuple(
            A.card(c)
            for c in sorted(
                c
                for o in range(state.num_players)
                if o != player
                for c in stealable_cards(state, o)
            )
        )
        if not options:
            state.log("effect_fizzles", player=player, reason="no opponent card can be taken")
            return
        decide(state, DecisionKind.EFFECT_CARD, player, options, ("steal",))
    elif effect is EffectKind.SWAP:
        own = stealable_cards(state, player)
        theirs = [
            c for o in range(state.num_players) if o != player for c in stealable_cards(state, o)
        ]
        if not own or not theirs:
            state.log("effect_fizzles", player=player, reason="nothing to exchange")
            return
        decide(state, DecisionKind.SWAP_OWN, player, tuple(A.card(c) for c in sorted(own)))
    elif effect is EffectKind.RETRIEVE:
        state.agenda.insert(0, ("retrieve", player, lamp.count, "lamp"))
    elif effect in (EffectKind.SET_DIE, EffectKind.MOVE_DIE):
        dice_chests = tuple(A.chest(c) for c, _ in state.dice[player])
        decide(state, DecisionKind.EFFECT_DIE, player, dice_chests, (lamp_id,))
    elif effect is EffectKind.WARD:
        state.ward[player] += lamp.count
        state.log("ward", player=player, scorpions=lamp.count)
    else:  # pragma: no cover - EffectKind is closed
        raise AssertionError(effect)


def on_effect_chest(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    _chest_effect(state, player, ctx[0], action - A.CHEST_BASE)


def _chest_effect(state: MagicLampState, player: int, lamp_id: int, chest: int) -> None:
    lamp = state.comp.lamp_cards[lamp_id]
    if lamp.effect is EffectKind.PEEK:
        seen = state.decks[chest][::-1][: lamp.count]
        state.known_top[player][chest] = list(seen)
        state.log("peek", player=player, chest=CHESTS[chest], count=len(seen))
        state.log(
            "peek_cards",
            visible_to=frozenset((player,)),
            player=player,
            chest=CHESTS[chest],
            cards=[state.comp.card_json(c) for c in seen],
        )
        return
    # "Draw the first card of the ___ chest": no scorpion check (R6); a Sorcerer drawn this
    # way ends the game at once (rulebook, End of the game, special case).
    for _ in range(lamp.count):
        if not state.decks[chest]:
            state.log("chest_empty", chest=CHESTS[chest])
            return
        card_id = pop_chest(state, chest)
        state.log(
            "lamp_draw", player=player, chest=CHESTS[chest], card=state.comp.card_json(card_id)
        )
        gain_card(state, player, card_id)
        if state.comp.cards[card_id].kind is CardKind.SORCERER:
            state.cave_closed = True
            end_game(state, reason="sorcerer drawn with a Lamp card")
            return


def on_effect_card(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    card_id = action - A.CARD_BASE
    victim = state.holder_of(card_id)
    assert victim is not None
    lose_card(state, victim, card_id)
    gain_card(state, player, card_id)
    state.log("steal", thief=player, victim=victim, card=state.comp.card_json(card_id))


def on_swap_own(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    theirs = sorted(
        c for o in range(state.num_players) if o != player for c in stealable_cards(state, o)
    )
    decide(
        state,
        DecisionKind.SWAP_THEIRS,
        player,
        tuple(A.card(c) for c in theirs),
        (action - A.CARD_BASE,),
    )


def on_swap_theirs(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    given, taken = ctx[0], action - A.CARD_BASE
    other = state.holder_of(taken)
    assert other is not None
    # An exchange is one move: both gains come first, so a talisman is left alone only if
    # its owner ends the exchange without a stone of its type (not for a ruby-for-ruby swap).
    gain_card(state, player, taken)
    gain_card(state, other, given)
    lose_card(state, player, given)
    lose_card(state, other, taken)
    state.log(
        "swap",
        player=player,
        other=other,
        gave=state.comp.card_json(given),
        took=state.comp.card_json(taken),
    )


def on_effect_die(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    lamp = state.comp.lamp_cards[ctx[0]]
    die_chest = action - A.CHEST_BASE
    if lamp.effect is EffectKind.SET_DIE:
        options = tuple(A.face(f) for f in range(1, A.FACES + 1))
        decide(state, DecisionKind.EFFECT_FACE, player, options, (die_chest,))
    else:
        occupied = {c for c, _ in state.dice[player]}
        options = tuple(A.chest(c) for c in range(len(CHESTS)) if c not in occupied)
        decide(state, DecisionKind.EFFECT_MOVE, player, options, (die_chest,))


def _die_on(state: MagicLampState, player: int, chest: int) -> list[int]:
    for die in state.dice[player]:
        if die[0] == chest:
            return die
    raise AssertionError("decision options only name the player's own dice")


def on_effect_face(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    die = _die_on(state, player, ctx[0])
    die[1] = action - A.FACE_BASE + 1
    state.log("die_changed", player=player, chest=CHESTS[die[0]], face=die[1])


def on_effect_move(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    die = _die_on(state, player, ctx[0])
    die[0] = action - A.CHEST_BASE
    state.log("die_moved", player=player, chest=CHESTS[die[0]], face=die[1])


def task_retrieve(state: MagicLampState, player: int, count: int, why: str) -> None:
    """Take a card of your choice from the discard pile (a jewel, a stone or a talisman; the
    Sorcerer is no treasure, R8)."""
    options = tuple(
        A.card(c)
        for c in sorted(state.discard)
        if state.comp.cards[c].kind is not CardKind.SORCERER
    )
    if not options:
        state.log("retrieve_nothing", player=player, reason="the discard pile has no treasure")
        return
    if count > 1:
        state.agenda.insert(0, ("retrieve", player, count - 1, why))
    decide(state, DecisionKind.RETRIEVE, player, options, (why,))


def on_retrieve(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    card_id = action - A.CARD_BASE
    state.discard.remove(card_id)
    gain_card(state, player, card_id)
    state.log("retrieve", player=player, card=state.comp.card_json(card_id), source=ctx[0])
