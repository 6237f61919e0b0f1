"""Solo play against Tom (rulebook §Solo Play: §Gameplay, §End of the Game, the solo tasks).

Owns Tom's turn (``tom_turn``: his card brings a Djinn or makes the player pay), paying his
bottom line (``tom_pay``), the round space of a location (``round_space``) and the solo tasks
(``solo_tasks``). When Tom plays and how a won game ends are the turn's end's (turn.py
``end_turn``); the solo setup (Tom's deck, the extra Djinn) is dealing.py's.
"""

from __future__ import annotations

from typing import Any

from arabesque.games.djinn.actions import ROUNDS, SPACE_NAMES
from arabesque.games.djinn.components import BOSS, REWARD_KINDS, reward_json
from arabesque.games.djinn.rules.ending import condition_met, finish
from arabesque.games.djinn.rules.queries import RC, RK, RKEY, RM, RS, draw_from, gain, log
from arabesque.games.djinn.state import DjinnState


def tom_turn(s: DjinnState) -> None:
    """rulebook §Solo: Tom's card: a Djinn to the first listed location whose round space
    still has its boss, else to the second, else the player pays the bottom line."""
    card_id = s.tom_deck.pop()
    s.tom_revealed.append(card_id)
    card = s.comp.tom_cards[card_id]
    if not card.nothing:
        for location in (card.first, card.second):
            space = round_space(s, location)
            if s.djinn[space][BOSS]:
                c = draw_from(s.bag, s.rng)
                if c >= 0:
                    s.djinn[space][c] += 1
                log(s, "tom", card=card_id, space=SPACE_NAMES[space])
                break
        else:
            tom_pay(s, card_id)
    else:
        log(s, "tom", card=card_id, nothing=True)
    if not s.tom_deck and any(s.djinn[r][BOSS] for r in ROUNDS):
        s.won = False
        log(s, "solo_lost")
        finish(s)


def tom_pay(s: DjinnState, card_id: int) -> None:
    """Pay Tom's bottom line as far as possible (ruling D13)."""
    card = s.comp.tom_cards[card_id]
    paid: dict[str, int] = {}
    for kind, amount in card.pay:
        before = _holding(s, 0, kind)
        gain(s, 0, kind, -amount)
        paid[REWARD_KINDS[kind]] = before - _holding(s, 0, kind)
    log(s, "tom_pay", card=card_id, asked=reward_json(card.pay), paid=paid)


def _holding(s: DjinnState, p: int, kind: int) -> int:
    """How much of a reward kind Tom may take the player holds (for the log)."""
    return {RC: s.coins, RS: s.scrolls, RM: s.magic, RKEY: s.keys, RK: s.corks}[kind][p]


def round_space(s: DjinnState, location: int) -> int:
    for r in ROUNDS:
        if s.loc[r] == location:
            return r
    raise AssertionError(location)


def solo_tasks(s: DjinnState) -> list[dict[str, Any]]:
    return [
        {"task": t.name, "done": bool(s.won) and condition_met(s, 0, t)} for t in s.comp.solo_tasks
    ]
