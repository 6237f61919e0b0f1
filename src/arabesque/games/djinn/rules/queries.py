"""What every chapter of the Djinn rules shares: the numbers and the common reads.

Owns the vocabulary (the six locations' numbers, the bank's slots, the reward kinds ``R*`` and
the GAIN item codes ``I_*``), the reads several chapters need (``max_magic`` of rulebook
§Player Board 1a, ``own_passage``, ``can_place`` of §Catch: placing, ``pending``), a Djinn
drawn from the bag (``draw_from``), the automatic gain or loss of a reward (``gain``) and the
log (``log``). It changes a state only through ``gain`` and ``draw_from``.
"""

from __future__ import annotations

import random
from typing import Any

from arabesque.games.djinn.components import BOSS, COLOURS, KINDS, R
from arabesque.games.djinn.state import EMPTY, DjinnState, Kind

ACADEMY, TAVERN, CATACOMBS, ARCHIVES, MANUFACTORY, MARKET = range(6)
NCOL = len(COLOURS)
# bank indices
B_COINS, B_SCROLLS, B_BOTTLES, B_CORKS, B_KEYS = range(5)

# GAIN items beyond the reward kinds (which are 0..13): (code, argument).
I_ARRIVE = 20
I_TAVERN = 21
I_CATACOMBS = 22
I_ARCHIVES = 23
I_MANUFACTORY = 24
I_MARKET = 25
I_OFFER = 26
I_CHEST = 27
I_CHEST_KEY = 28
I_PLACE = 29
I_FREE = 30
I_AFTER_CATCH = 31
I_AFTER_CATCH_BOSS = 32
I_ACADEMY_ACTIVATE = 33  # ruling D10: activations paid with the Academy's magic

RC = R["coins"]
RS = R["scrolls"]
RM = R["magic"]
RK = R["corks"]
RKEY = R["keys"]
RCAP = R["capacity"]
RBASE = R["base"]
RBOT = R["bottle_any"]
RDIFF = R["bottles_different"]
RACT = R["activate"]
RCIRC = R["circle"]
RDJ = R["djinn"]
RMAGE = R["mage_card"]
REQ = R["equipment"]

_SELECT, _CPAY, _PLACE, _GAIN = Kind.CATCH_SELECT, Kind.CATCH_PAY, Kind.PLACE, Kind.GAIN

#: Per kind, the selection (counts per kind) of a single Djinn of that kind (``one``).
ONES = tuple(tuple(1 if i == k else 0 for i in range(len(KINDS))) for k in range(len(KINDS)))


def max_magic(s: DjinnState, p: int) -> int:
    """rulebook §Player Board 1a: up to the space left of the capacity marker; 8 once the
    marker is flipped."""
    if s.flipped[p]:
        return s.comp.max_magic_flipped
    return s.capacity[p] - 1


def own_passage(s: DjinnState, p: int, space: int) -> int:
    """The location of ``p``'s usable passage at ``space`` (not placed this turn), else -1."""
    for q, loc in s.passages[space]:
        if q == p:
            return -1 if s.fresh_passage[p] == space else loc
    return -1


def can_place(s: DjinnState, p: int, sel: tuple[int, ...] | list[int]) -> bool:
    """Whether Djinn of the counts ``sel`` (per kind) all fit at once: each regular Djinn in a
    bottle of its colour (with a cork) or an empty active circle; a boss in any bottle or
    circle (rulebook §Catch: placing; bosses are every colour). Bottling the coloured ones
    first is never worse: a boss fits wherever they do."""
    circles = s.circles[p].count(EMPTY)
    corks = s.corks[p]
    b = s.bottles[p]
    bottled = 0
    for c in range(NCOL):
        bottled += sel[c] if sel[c] < b[c] else b[c]
    if bottled > corks:
        bottled = corks
    rest = sel[0] + sel[1] + sel[2] + sel[3] - bottled
    if rest > circles:
        return False
    left_bottles = sum(b) - bottled
    left_corks = corks - bottled
    return sel[BOSS] <= circles - rest + (left_bottles if left_bottles < left_corks else left_corks)


def pending(s: DjinnState) -> list[int]:
    """Per kind, the Djinn the player is already committed to place, below the top frame:
    the selection of an open catch, caught Djinn waiting for their place (PLACE frames and
    queued I_PLACE items). Side actions are offered inside a catch (ruling D8), so whatever
    they lead to (a random Djinn to place, a bottle trade) must keep these placeable."""
    counts = [0] * len(KINDS)
    for frame in s.stack.frames[:-1]:
        kind = frame.kind
        if kind is _SELECT or kind is _CPAY:
            sel = frame.context[1]
            for k in range(len(KINDS)):
                counts[k] += sel[k]
        elif kind is _PLACE:
            counts[frame.context[0]] += 1
        elif kind is _GAIN:
            for code, k in frame.context:
                if code == I_PLACE:
                    counts[k] += 1
    return counts


def one(kind: int) -> tuple[int, ...]:
    """The selection of a single Djinn of ``kind`` (counts per kind)."""
    return ONES[kind]


def draw_from(bag: list[int], rng: random.Random) -> int:
    """A Djinn drawn at random from ``bag`` (counts per colour, taken from it): its colour,
    or -1 when the bag is empty."""
    total = sum(bag)
    if total <= 0:
        return -1
    x = rng.randrange(total)
    for c, count in enumerate(bag):
        if x < count:
            bag[c] -= 1
            return c
        x -= count
    raise AssertionError("unreachable")


def gain(s: DjinnState, p: int, kind: int, amount: int) -> None:
    """An automatic reward (or, negative, a loss that stops at 0)."""
    bank = s.bank
    if kind == RM:
        s.magic[p] = max(0, min(s.magic[p] + amount, max_magic(s, p)))
    elif kind == RC:
        new = max(0, s.coins[p] + amount)
        bank[B_COINS] -= new - s.coins[p]
        s.coins[p] = new
    elif kind == RS:
        new = max(0, s.scrolls[p] + amount)
        bank[B_SCROLLS] -= new - s.scrolls[p]
        s.scrolls[p] = new
    elif kind == RK:
        new = max(0, s.corks[p] + amount)
        bank[B_CORKS] -= new - s.corks[p]
        s.corks[p] = new
    elif kind == RKEY:
        new = max(0, s.keys[p] + amount)
        bank[B_KEYS] -= new - s.keys[p]
        s.keys[p] = new
    elif kind == RBASE:
        s.base[p] = min(s.base[p] + amount, max_magic(s, p))
    else:
        raise AssertionError(kind)


def log(s: DjinnState, kind: str, **data: Any) -> None:
    if s.logging:
        s.log(kind, **data)
