"""Determinization: re-sampling, on a copy of the state, what one seat cannot see.

Not a rulebook chapter: what is hidden follows the rules (the order of the chest decks, the
unseen top of the Lamp pile, dice and race answers not yet revealed); view.py shows a seat
the same.
"""

from __future__ import annotations

import random
from typing import Any

from arabesque.games.magic_lamp.state import ONE_SEAT, UNDECIDED, MagicLampState, Phase


def _random_key(rng: random.Random) -> Any:
    """A sort key giving each item an independent uniform draw of ``rng``."""
    draw = rng.random
    return lambda _item: draw()


def resample_hidden(new: MagicLampState, player: int, rng: random.Random) -> None:
    """On a determinized copy, re-sample what ``player`` cannot see: the unseen chest cards
    (the Sorcerer's place is known to all, and cards the player peeked at stay) and the
    unseen top of the Lamp pile. Other players' secret dice and race answers not yet
    revealed are taken back, not guessed: those players are to act again, so whoever
    searches the copy chooses for them. The real setup is forgotten."""
    new.start = {}
    # Sorting by independent uniform keys is a uniform shuffle, and several times faster
    # than ``rng.shuffle`` (one C call per key instead of Python-level index draws). The keys
    # are drawn for the unseen cards in sorted order, not in their real order, so the copy is
    # a function of what the seat knows and the rng alone (a search bot's choice must not
    # depend on the real deal).
    key = _random_key(rng)
    sorcerers = new.comp.sorcerers
    for c, deck in enumerate(new.decks):
        # The seat's peeked cards sit on top (the end of the list); the rest is unseen.
        end = len(deck) - len(new.known_top[player][c])
        at = deck.index(sorcerers[c]) if sorcerers[c] in deck else -1
        if 0 <= at < end:
            cards = sorted(sorted(deck[:at] + deck[at + 1 : end]), key=key)
            deck[:at] = cards[:at]
            deck[at + 1 : end] = cards[at:]
        else:
            deck[:end] = sorted(sorted(deck[:end]), key=key)
        for q in range(new.num_players):
            if q != player and new.known_top[q][c]:
                k = len(new.known_top[q][c])
                new.known_top[q][c] = deck[: -k - 1 : -1]
    # The Lamp pile is bottom first: its bottom ``lamp_known`` cards went under in view of all.
    known = new.lamp_known
    new.lamp_deck[known:] = sorted(sorted(new.lamp_deck[known:]), key=key)
    others = [q for q in range(new.num_players) if q != player]
    if new.phase is Phase.SETTING:
        for q in others:
            if new.dice[q]:
                new.dice[q] = []
                new.waiting = new.waiting | ONE_SEAT[q]
    elif new.phase is Phase.RACE:
        for q in others:
            if new.rub[q] != UNDECIDED:
                new.rub[q] = UNDECIDED
                new.waiting = new.waiting | ONE_SEAT[q]
