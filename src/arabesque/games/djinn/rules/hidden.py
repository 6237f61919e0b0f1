"""Hidden information: what a seat has not seen, dealt again for a determinized copy.

Owns ``resample_hidden`` (the chest deck, the Mage piles and Equipment stacks below their
tops, Tom's deck, the others' face-down scoring cards). Nothing else in the rules calls it.
"""

from __future__ import annotations

import random

from arabesque.games.djinn.state import DjinnState


def resample_hidden(s: DjinnState, player: int, rng: random.Random) -> None:
    """Re-deal what nobody has seen: the chest deck, the Mage piles below their top cards
    (within each kind, keeping pile sizes), the Equipment stacks below their tops, Tom's deck.
    The bag's draws come from the copy's own generator. Each unseen group is put in sorted
    order before it is shuffled, so the copy is a function of what the seat knows and the
    rng alone (a search bot's choice must not depend on the real deal)."""
    s.start = {}
    s.chest_deck.sort()
    rng.shuffle(s.chest_deck)
    for a, b in ((0, 1), (2, 3)):
        pa, pb = s.piles[a], s.piles[b]
        hidden = sorted(pa[:-1] + pb[:-1])
        rng.shuffle(hidden)
        na = max(0, len(pa) - 1)
        s.piles[a] = hidden[:na] + pa[-1:]
        s.piles[b] = hidden[na:] + pb[-1:]
    for t, stack in enumerate(s.equip_stacks):
        below = sorted(stack[:-1])
        rng.shuffle(below)
        s.equip_stacks[t] = below + stack[-1:]
    s.tom_deck.sort()
    rng.shuffle(s.tom_deck)
    # The face-down scoring cards: the seat knows its own, and those of the others are any of
    # the cards it has not seen (the scoring deck and the others' hands), dealt again. Once
    # the game is over they are shown.
    if not s.over:
        pool = list(s.scoring_deck)
        for q in range(s.num_players):
            if q != player:
                pool.extend(s.secret[q])
        pool.sort()
        rng.shuffle(pool)
        for q in range(s.num_players):
            if q != player:
                k = len(s.secret[q])
                s.secret[q] = pool[:k]
                pool = pool[k:]
        s.scoring_deck = pool
