"""The Magic Lamp action space: fixed integer ranges, with canonical text for records.

Layout (``n`` = number of cards in the components):

=============  ==================  =========================================
range          text                meaning
=============  ==================  =========================================
0..17          ``set gold 4``      secretly set a die: chest space and face
18..317        ``rub 340ms``       rub the lamp, with the reaction time (10 ms steps)
318            ``no-rub``          do not rub the lamp this turn
319 / 320      ``accept``/``reject``  keep or refuse the Genie's wish card
321 / 322      ``draw``/``stop``   draw the next chest card, or stop drawing
323..327       ``target 2``        choose a seat (the angry Genie's thief)
328..331       ``stone ruby``      place a talisman on a stone type
332..334       ``chest silver``    choose a chest (Lamp card effects)
335..340       ``face 5``          choose a die face (Lamp card effect)
341..341+n-1   ``card 17``         choose a card by id (steals, swaps, retrievals)
=============  ==================  =========================================
"""

from __future__ import annotations

import math

from arabesque.core.errors import InvalidActionError
from arabesque.core.limits import quote
from arabesque.games.magic_lamp.components import CHESTS

FACES = 6
MAX_SEATS = 5
NUM_STONE_TYPES = 4
#: Rub reaction times are recorded in steps of this many milliseconds.
RUB_STEP_MS = 10
RUB_BUCKETS = 300  # 0 .. 2990 ms; slower than that is a no-rub (the race window closes)

SET_BASE = 0
RUB_BASE = SET_BASE + len(CHESTS) * FACES
NO_RUB = RUB_BASE + RUB_BUCKETS
ACCEPT = NO_RUB + 1
REJECT = ACCEPT + 1
DRAW = REJECT + 1
STOP = DRAW + 1
TARGET_BASE = STOP + 1
STONE_BASE = TARGET_BASE + MAX_SEATS
CHEST_BASE = STONE_BASE + NUM_STONE_TYPES
FACE_BASE = CHEST_BASE + len(CHESTS)
CARD_BASE = FACE_BASE + FACES

MAX_RUB_MS = (RUB_BUCKETS - 1) * RUB_STEP_MS
#: The longest action text parsed; the canonical texts are far shorter.
MAX_TEXT = 100


def num_actions(num_cards: int) -> int:
    return CARD_BASE + num_cards


def set_die(chest: int, face: int) -> int:
    return SET_BASE + chest * FACES + (face - 1)


def rub(reaction_ms: float) -> int:
    """The rub action for a reaction time, rounded to the recorded resolution."""
    if not math.isfinite(reaction_ms):
        raise InvalidActionError(f"reaction time must be a finite number, got {reaction_ms}")
    bucket = round(reaction_ms / RUB_STEP_MS)
    if not 0 <= bucket < RUB_BUCKETS:
        raise InvalidActionError(f"reaction time {reaction_ms} ms is outside 0..{MAX_RUB_MS} ms")
    return RUB_BASE + bucket


def rub_ms(action: int) -> int:
    return (action - RUB_BASE) * RUB_STEP_MS


def target(seat: int) -> int:
    return TARGET_BASE + seat


def stone(stone_type: int) -> int:
    return STONE_BASE + stone_type


def chest(c: int) -> int:
    return CHEST_BASE + c


def face(f: int) -> int:
    return FACE_BASE + f - 1


def card(card_id: int) -> int:
    return CARD_BASE + card_id


def is_set(a: int) -> bool:
    return SET_BASE <= a < RUB_BASE


def is_rub(a: int) -> bool:
    return RUB_BASE <= a < NO_RUB


def decode_set(a: int) -> tuple[int, int]:
    """(chest, face) of a set action."""
    return divmod(a - SET_BASE, FACES)[0], (a - SET_BASE) % FACES + 1


_SIMPLE = {NO_RUB: "no-rub", ACCEPT: "accept", REJECT: "reject", DRAW: "draw", STOP: "stop"}
_SIMPLE_BY_TEXT = {text: a for a, text in _SIMPLE.items()}


def to_str(a: int, stone_types: tuple[str, ...], num_cards: int) -> str:
    if not 0 <= a < num_actions(num_cards):
        raise InvalidActionError(f"action {a} is outside 0..{num_actions(num_cards) - 1}")
    if a in _SIMPLE:
        return _SIMPLE[a]
    if is_set(a):
        c, f = decode_set(a)
        return f"set {CHESTS[c]} {f}"
    if is_rub(a):
        return f"rub {rub_ms(a)}ms"
    if a < STONE_BASE:
        return f"target {a - TARGET_BASE}"
    if a < CHEST_BASE:
        return f"stone {stone_types[a - STONE_BASE]}"
    if a < FACE_BASE:
        return f"chest {CHESTS[a - CHEST_BASE]}"
    if a < CARD_BASE:
        return f"face {a - FACE_BASE + 1}"
    return f"card {a - CARD_BASE}"


#: The most digits a number in an action text may have. Every number of the action space
#: (faces, seats, card ids, milliseconds) has at most 4; a longer one would only cost time
#: and overflow float arithmetic (``rub 1000...0``).
_MAX_DIGITS = 6


def _int(word: str, text: str) -> int:
    """A whole number written in ASCII digits, at most ``_MAX_DIGITS`` of them (``int()``
    would also take ``+3``, ``3_000`` or other scripts' digits, which no record writes)."""
    digits = word[1:] if word.startswith("-") else word
    if not (digits.isascii() and digits.isdigit() and len(digits) <= _MAX_DIGITS):
        raise InvalidActionError(
            f"{quote(text)}: {quote(word)} is not a number of at most {_MAX_DIGITS} digits"
        )
    return int(word)


def parse(text: str, stone_types: tuple[str, ...], num_cards: int) -> int:
    """Inverse of ``to_str``; raises ``InvalidActionError`` saying what was expected."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action text is a string, got {quote(text)}")
    if len(text) > MAX_TEXT:
        raise InvalidActionError(
            f"action text {quote(text)} is {len(text)} characters long; actions are at most "
            f"{MAX_TEXT} (e.g. 'set gold 4')"
        )
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _SIMPLE_BY_TEXT:
        return _SIMPLE_BY_TEXT[words[0]]
    if len(words) == 3 and words[0] == "set" and words[1] in CHESTS:
        f = _int(words[2], text)
        if not 1 <= f <= FACES:
            raise InvalidActionError(f"{quote(text)}: a die face is 1..6")
        return set_die(CHESTS.index(words[1]), f)
    if len(words) == 2:
        verb, arg = words
        if verb == "rub":
            ms = _int(arg.removesuffix("ms"), text)
            if ms % RUB_STEP_MS:
                raise InvalidActionError(
                    f"{quote(text)}: reaction times are in {RUB_STEP_MS} ms steps"
                )
            return rub(ms)
        if verb == "target":
            seat = _int(arg, text)
            if not 0 <= seat < MAX_SEATS:
                raise InvalidActionError(f"{quote(text)}: seats are 0..{MAX_SEATS - 1}")
            return target(seat)
        if verb == "stone" and arg in stone_types:
            return stone(stone_types.index(arg))
        if verb == "chest" and arg in CHESTS:
            return chest(CHESTS.index(arg))
        if verb == "face":
            f = _int(arg, text)
            if not 1 <= f <= FACES:
                raise InvalidActionError(f"{quote(text)}: a die face is 1..6")
            return face(f)
        if verb == "card":
            cid = _int(arg, text)
            if not 0 <= cid < num_cards:
                raise InvalidActionError(f"{quote(text)}: card ids are 0..{num_cards - 1}")
            return card(cid)
    raise InvalidActionError(
        f"unknown action {quote(text)}; expected e.g. 'set gold 4', 'rub 340ms', 'no-rub', "
        f"'accept', 'reject', 'draw', 'stop', 'target 1', 'stone {stone_types[0]}', "
        "'chest silver', 'face 3', 'card 12'"
    )
