"""The Djinn forward model: setup, every action, the end and the scores.

Only this module changes a state. After each action ``refresh`` works off the GAIN frames
(queues of rewards and follow-ups, see ``do_item``) until a decision is on top of the stack,
then computes that decision's options: only options that can still be completed are offered
(a Djinn is selectable only if the whole selection can be paid for and placed, a move only if
it ends somewhere the mage can stay). Rulings are cited as D1, D2 ... (docs/rulings/djinn.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from arabesque.core.decision import DecisionStack, Frame
from arabesque.core.errors import ParamsError
from arabesque.games.djinn.actions import ROUNDS, SOURCE, SPACE_NAMES, SQUARES, layout_of
from arabesque.games.djinn.components import (
    BOSS,
    COLOURS,
    EQUIP_TYPES,
    KINDS,
    LOCATIONS,
    REWARD_KINDS,
    Components,
    Condition,
    R,
    Reward,
    load_components,
    reward_json,
)
from arabesque.games.djinn.params import DjinnParams
from arabesque.games.djinn.state import (
    COVERED,
    EMPTY,
    FINAL_SOURCE,
    FINISH_ROUND,
    INACTIVE,
    LAST_ROUND,
    NOBODY,
    ONE_SEAT,
    OVER,
    PLAYING,
    STAGE_NAMES,
    T_BASIC,
    T_CATCH,
    T_FINAL,
    T_FORFEIT,
    T_KEY,
    T_PASSAGE,
    T_ROW1,
    T_ROW2,
    DjinnState,
    Kind,
)

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

#: Face-down scoring cards drawn by the character tile (rulebook §Character tiles).
SECRET_CARDS = 2
#: ``score_breakdowns`` for full knowledge (the final scores, the ranking).
ALL_SEEING = -2

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

_DRAFT, _START, _MOVE, _JUMP, _PAY, _ACT = (
    Kind.DRAFT, Kind.START, Kind.MOVE, Kind.JUMP, Kind.PAY_PLAYER, Kind.ACT,
)  # fmt: skip
_SELECT, _CPAY, _PLACE, _FREE, _GAIN = (
    Kind.CATCH_SELECT, Kind.CATCH_PAY, Kind.PLACE, Kind.FREE, Kind.GAIN,
)  # fmt: skip


# -- setup -------------------------------------------------------------------------------------


def _adjacency(comp: Components) -> tuple[tuple[int, ...], ...]:
    index = {name: i for i, name in enumerate(SPACE_NAMES)}
    adj: list[list[int]] = [[] for _ in SPACE_NAMES]
    for a, b in comp.map_edges:
        adj[index[a]].append(index[b])
        adj[index[b]].append(index[a])
    return tuple(tuple(sorted(x)) for x in adj)


def deal(comp: Components, params: DjinnParams, rng: random.Random) -> dict[str, Any]:
    """A random initial arrangement (rulebook §Setup), JSON-ready."""
    n = params.num_players
    adj = _adjacency(comp)
    for _ in range(10000):
        squares = list(range(len(LOCATIONS)))
        rounds = list(range(len(LOCATIONS)))
        rng.shuffle(squares)
        rng.shuffle(rounds)
        loc = [-1, *squares, *rounds]
        # rulebook §Setup note: a first game joins no two spaces of the same symbol.
        if not params.first_game or all(
            loc[s] != loc[r] for s in SQUARES for r in adj[s] if r != SOURCE
        ):
            break
    layout = ["source", *(LOCATIONS[loc[s]] for s in range(1, 13))]
    bag = [comp.supply["djinn_per_colour"]] * NCOL
    djinn: dict[str, list[str]] = {}
    per_space = comp.djinn_per_space[n]
    extra = comp.extra_near_source if (params.solo or params.longer) else 0
    for r in ROUNDS:
        here = ["boss"]
        count = per_space + (extra if SOURCE in adj[r] else 0)
        for _ in range(count):
            c = _draw_from(bag, rng)
            if c >= 0:
                here.append(COLOURS[c])
        djinn[SPACE_NAMES[r]] = here
    keyless = [m.id for m in comp.mage_cards if not m.key]
    keyed = [m.id for m in comp.mage_cards if m.key]
    rng.shuffle(keyless)
    rng.shuffle(keyed)
    piles = [
        keyless[: len(keyless) // 2],
        keyless[len(keyless) // 2 :],
        keyed[: len(keyed) // 2],
        keyed[len(keyed) // 2 :],
    ]
    chests = [c.id for c in comp.chests]
    rng.shuffle(chests)
    stacks = []
    for t in range(len(EQUIP_TYPES)):
        stack = [e.id for e in comp.equipment if e.type == t]
        rng.shuffle(stack)
        stacks.append(stack)
    trophies = []
    for row in range(3):
        ids = [t.id for t in comp.trophies if t.row == row]
        rng.shuffle(ids)
        trophies.append(sorted(ids[: n + 1]))
    scoring: list[int] = []
    if params.scoring_cards:
        scoring = sorted(rng.sample(range(len(comp.scoring_cards)), 3))
    draft: dict[str, list[int]] = {"negative": [], "positive": []}
    if params.characters:
        for positive, key in ((False, "negative"), (True, "positive")):
            ids = [c.id for c in comp.characters if c.positive == positive]
            draft[key] = sorted(rng.sample(ids, n + 1))
    removed = sorted(rng.sample(range(len(LOCATIONS)), comp.start["passages_removed"]))
    tom: list[int] = []
    if params.solo:
        places = [t.id for t in comp.tom_cards if not t.nothing]
        nothing = [t.id for t in comp.tom_cards if t.nothing]
        tom = places + nothing[: params.tom_deck - len(places)]
        rng.shuffle(tom)
    # The scoring cards left in the box, face down: a character tile draws from them (drawn
    # last so that the rest of a seed's deal is what it was before this key existed).
    scoring_deck: list[int] = []
    if params.characters:
        scoring_deck = [c for c in range(len(comp.scoring_cards)) if c not in scoring]
        rng.shuffle(scoring_deck)
    return {
        "first": rng.randrange(n),
        "layout": layout,
        "djinn": djinn,
        "piles": piles,
        "chests": chests,
        "equipment": stacks,
        "trophies": trophies,
        "scoring": scoring,
        "draft": draft,
        "removed_passages": [LOCATIONS[x] for x in removed],
        "tom": tom,
        "scoring_deck": scoring_deck,
    }


def _draw_from(bag: list[int], rng: random.Random) -> int:
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


def _bad(what: str) -> ParamsError:
    return ParamsError(f"bad Djinn arrangement: {what}")


def _ids(value: Any, limit: int, what: str) -> list[int]:
    if not isinstance(value, list) or not all(type(x) is int and 0 <= x < limit for x in value):
        raise _bad(f"{what} must be a list of ids 0..{limit - 1}")
    if len(set(value)) != len(value):
        raise _bad(f"{what} lists an id twice")
    return list(value)


def read_arrangement(
    comp: Components, params: DjinnParams, data: Mapping[str, Any]
) -> dict[str, Any]:
    """Check a hand-made or recorded arrangement; returns a clean copy."""
    if not isinstance(data, Mapping):
        raise _bad("must be an object")
    keys = {
        "first", "layout", "djinn", "piles", "chests", "equipment", "trophies", "scoring",
        "draft", "removed_passages", "tom",
    }  # fmt: skip
    # "scoring_deck" (the face-down scoring cards a character tile draws from) is optional,
    # so hand-written arrangements need not list it.
    if not keys <= set(data) <= keys | {"scoring_deck"}:
        raise _bad(f"needs exactly the keys {sorted(keys)} (and optionally 'scoring_deck')")
    n = params.num_players
    first = data["first"]
    if type(first) is not int or not 0 <= first < n:
        raise _bad("first must be a seat")
    layout = data["layout"]
    if (
        not isinstance(layout, list)
        or len(layout) != 13
        or layout[0] != "source"
        or sorted(layout[1:7]) != sorted(LOCATIONS)
        or sorted(layout[7:13]) != sorted(LOCATIONS)
    ):
        raise _bad("layout lists 'source' then each location once on s1..s6 and once on r1..r6")
    djinn = data["djinn"]
    if not isinstance(djinn, Mapping) or set(djinn) != {SPACE_NAMES[r] for r in ROUNDS}:
        raise _bad("djinn maps r1..r6 to lists of Djinn kinds")
    per_colour = [0] * NCOL
    bosses = 0
    for here in djinn.values():
        if not isinstance(here, list) or not all(k in KINDS for k in here) or len(here) > 20:
            raise _bad(f"djinn lists kinds among {list(KINDS)}")
        bosses += here.count("boss")
        for c, colour in enumerate(COLOURS):
            per_colour[c] += here.count(colour)
    if bosses > comp.supply["bosses"] or any(
        x > comp.supply["djinn_per_colour"] for x in per_colour
    ):
        raise _bad("more Djinn than the box holds")
    piles = data["piles"]
    if not isinstance(piles, list) or len(piles) != 4:
        raise _bad("piles are 4 lists of Mage card ids")
    all_piles = [_ids(p, len(comp.mage_cards), "a pile") for p in piles]
    flat = [x for p in all_piles for x in p]
    if len(set(flat)) != len(flat):
        raise _bad("a Mage card lies in two piles")
    for i, pile in enumerate(all_piles):
        if any(comp.mage_cards[x].key != (i >= 2) for x in pile):
            raise _bad("piles 1-2 hold the cards without a key, piles 3-4 those with one")
    chests = _ids(data["chests"], len(comp.chests), "chests")
    stacks = data["equipment"]
    if not isinstance(stacks, list) or len(stacks) != len(EQUIP_TYPES):
        raise _bad("equipment is one list per type")
    eq = [_ids(x, len(comp.equipment), "an equipment stack") for x in stacks]
    if any(comp.equipment[e].type != t for t, st in enumerate(eq) for e in st):
        raise _bad("an equipment card lies in the stack of another type")
    if len({e for st in eq for e in st}) != sum(len(st) for st in eq):
        raise _bad("an equipment card lies in two stacks")
    trophies = data["trophies"]
    if not isinstance(trophies, list) or len(trophies) != 3:
        raise _bad("trophies are 3 rows")
    rows = [_ids(x, len(comp.trophies), "a trophy row") for x in trophies]
    if any(comp.trophies[t].row != r for r, row in enumerate(rows) for t in row):
        raise _bad("a trophy lies in another row")
    scoring = _ids(data["scoring"], len(comp.scoring_cards), "scoring")
    draft = data["draft"]
    if not isinstance(draft, Mapping) or set(draft) != {"negative", "positive"}:
        raise _bad("draft has 'negative' and 'positive' lists")
    neg = _ids(draft["negative"], len(comp.characters), "draft")
    pos = _ids(draft["positive"], len(comp.characters), "draft")
    if any(comp.characters[c].positive for c in neg) or not all(
        comp.characters[c].positive for c in pos
    ):
        raise _bad("draft tiles are on the wrong side")
    if params.characters and (len(neg) != n + 1 or len(pos) != n + 1):
        raise _bad(f"the draft shows {n + 1} tiles of each type")
    if not params.characters and (neg or pos):
        raise _bad("this game has no character draft")
    removed = data["removed_passages"]
    if (
        not isinstance(removed, list)
        or not all(x in LOCATIONS for x in removed)
        or len(set(removed)) != len(removed)
        or len(removed) != comp.start["passages_removed"]
    ):
        raise _bad(f"removed_passages names {comp.start['passages_removed']} locations")
    if "scoring_deck" in data:
        scoring_deck = _ids(data["scoring_deck"], len(comp.scoring_cards), "scoring_deck")
        if set(scoring_deck) & set(scoring):
            raise _bad("a scoring card is both on display and in the scoring deck")
    else:
        scoring_deck = [c for c in range(len(comp.scoring_cards)) if c not in scoring]
    tom = _ids(data["tom"], len(comp.tom_cards), "tom")
    if params.solo and len(tom) != params.tom_deck:
        raise _bad(f"Tom's deck holds {params.tom_deck} cards")
    if not params.solo and tom:
        raise _bad("Tom plays only solo")
    return {
        "first": first,
        "layout": list(layout),
        "djinn": {k: list(v) for k, v in djinn.items()},
        "piles": all_piles,
        "chests": chests,
        "equipment": eq,
        "trophies": rows,
        "scoring": scoring,
        "draft": {"negative": neg, "positive": pos},
        "removed_passages": list(removed),
        "tom": tom,
        "scoring_deck": scoring_deck,
    }


def setup(
    s: DjinnState, params: DjinnParams, seed: int, arrangement: Mapping[str, Any] | None
) -> None:
    comp = load_components(params.components)
    s.params, s.comp, s.L = params, comp, layout_of(comp)
    s.seed = seed
    s.history, s.events = [], []
    n = params.num_players
    if arrangement is None:
        arr = deal(comp, params, random.Random(seed))
    else:
        arr = read_arrangement(comp, params, arrangement)
    s.start = arr
    s.rng = random.Random(seed ^ 0x6A11)  # the in-game chance: Djinn drawn from the bag
    s.adj = _adjacency(comp)
    s.first = arr["first"]
    s.loc = tuple(-1 if name == "source" else LOCATIONS.index(name) for name in arr["layout"])
    s.djinn = [[0] * len(KINDS) for _ in SPACE_NAMES]
    s.bag = [comp.supply["djinn_per_colour"]] * NCOL
    bosses = 0
    for name, here in arr["djinn"].items():
        space = SPACE_NAMES.index(name)
        for k in here:
            kind = KINDS.index(k)
            s.djinn[space][kind] += 1
            if kind == BOSS:
                bosses += 1
            else:
                s.bag[kind] -= 1
    s.supply_bosses = comp.supply["bosses"] - bosses
    s.discarded = [0] * len(KINDS)
    st = comp.start
    sup = comp.supply
    s.bank = [
        sup["coins"] - n * st["coins"],
        sup["scrolls"],
        sup["bottles"],
        sup["corks"],
        sup["keys"],
    ]
    s.piles = [list(p) for p in arr["piles"]]
    s.chest_deck = list(arr["chests"])
    s.chest_discard = [c.id for c in comp.chests if c.id not in set(arr["chests"])]
    s.equip_stacks = [list(x) for x in arr["equipment"]]
    s.trophy_rows = [list(x) for x in arr["trophies"]]
    s.scoring = tuple(arr["scoring"])
    s.scoring_deck = list(arr["scoring_deck"])  # top last, hidden order
    s.secret = [[] for _ in range(n)]
    s.draft = [list(arr["draft"]["negative"]), list(arr["draft"]["positive"])]
    s.removed_passages = tuple(LOCATIONS.index(x) for x in arr["removed_passages"])
    s.tom_deck = list(arr["tom"])
    s.tom_revealed = []
    s.coins = [st["coins"]] * n
    s.scrolls = [0] * n
    s.keys = [0] * n
    s.corks = [0] * n
    s.magic = [st["magic"]] * n
    s.base = [st["base"]] * n
    s.capacity = [st["capacity"]] * n
    s.flipped = [False] * n
    s.bottles = [[0] * NCOL for _ in range(n)]
    s.filled = [[0] * NCOL for _ in range(n)]
    s.filled_boss = [[0] * NCOL for _ in range(n)]
    active = st["active_circles"]
    s.circles = [[EMPTY] * active + [INACTIVE] * (4 - active) for _ in range(n)]
    s.mage_owner = [-1] * len(comp.mage_cards)
    s.mage_active = [False] * len(comp.mage_cards)
    s.mage_of = [[] for _ in range(n)]
    s.equip_owner = [-1] * len(comp.equipment)
    s.equip_up = [False] * len(comp.equipment)
    s.equip_of = [[] for _ in range(n)]
    kept = [x for x in range(len(LOCATIONS)) if x not in s.removed_passages]
    s.passages_left = [list(kept) for _ in range(n)]
    s.passages = [[] for _ in SPACE_NAMES]
    s.fresh_passage = [-1] * n
    s.improved = [False] * n
    s.set_bonus = [False] * n
    s.claims = [0] * n
    s.trophies_of = [[] for _ in range(n)]
    s.chars = [[] for _ in range(n)]
    s.fx = [frozenset() for _ in range(n)]
    s.cover_left = -1
    s.pos = [-1] * n
    s.came = [-1] * n
    s.tent = [-1] * n
    s.current = s.first
    s.round = 1
    s.stage = PLAYING
    s.turns = 0
    s.tflags = 0
    s.turn_space = -1
    s.in_catch = False
    s.stack = DecisionStack()
    s.over = False
    s.won = None
    s.options = ()
    s.actors = NOBODY
    s.draft_queue = []
    s.log("setup", first=s.first, layout=arr["layout"], djinn=arr["djinn"])
    if params.characters:
        order = [(s.first + i) % n for i in range(n)]
        s.draft_queue = order[1:] + order[::-1]
        s.stack = DecisionStack().push(Frame(_DRAFT, s.first, (-1,)))
    else:
        begin_turn(s, s.first)
    refresh(s)


# -- helpers ------------------------------------------------------------------------------------


def max_magic(s: DjinnState, p: int) -> int:
    """rulebook §Player Board 1a: up to the space left of the capacity marker; 8 once the
    marker is flipped."""
    if s.flipped[p]:
        return s.comp.max_magic_flipped
    return s.capacity[p] - 1


def scroll_price(s: DjinnState, p: int) -> int:
    if "source_price" in s.fx[p]:
        return 2
    if s.flipped[p]:
        return s.comp.price_flipped
    return s.comp.prices[s.capacity[p] - s.comp.capacity_min]


def occupants(s: DjinnState, p: int, space: int) -> tuple[int, ...]:
    pos = s.pos
    return tuple(q for q in range(len(pos)) if q != p and pos[q] == space)


def own_passage(s: DjinnState, p: int, space: int) -> int:
    """The location of ``p``'s usable passage at ``space`` (not placed this turn), else -1."""
    for q, loc in s.passages[space]:
        if q == p:
            return -1 if s.fresh_passage[p] == space else loc
    return -1


def catch_power(s: DjinnState, p: int) -> int:
    comp = s.comp
    return sum(
        comp.equipment[e].amount
        for e in s.equip_of[p]
        if s.equip_up[e] and comp.equipment[e].effect == "catch_power"
    )


def has_up(s: DjinnState, p: int, effect: str) -> int:
    """The first face-up equipment of ``p`` with ``effect``, else -1."""
    for e in s.equip_of[p]:
        if s.equip_up[e] and s.comp.equipment[e].effect == effect:
            return e
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


def strength(s: DjinnState, p: int, space: int, sel: tuple[int, ...]) -> int:
    """rulebook §Catch: 4 per Djinn, a boss 2 more per other Djinn at the space."""
    comp = s.comp
    per = comp.per_djinn - (1 if "djinn_discount" in s.fx[p] else 0)
    per = max(1, per)
    here = sum(s.djinn[space])
    return per * sum(sel) + sel[BOSS] * comp.boss_per_other * (here - 1)


def card_power(s: DjinnState, p: int, card: int, sel: tuple[int, ...]) -> int:
    """The green power once, plus the colour bonus for every selected Djinn of that colour;
    a boss takes the card's best colour bonus (ruling D3)."""
    m = s.comp.mage_cards[card]
    if "green_only" in s.fx[p]:
        return m.power
    bonus = m.bonus
    return m.power + sum(bonus[c] * sel[c] for c in range(NCOL)) + sel[BOSS] * max(bonus)


def best_cards(s: DjinnState, p: int, sel: tuple[int, ...], budget: int, used: int = 0) -> int:
    """The most power ``p``'s active Mage cards give ``sel`` for at most ``budget`` coins;
    ``used`` masks the cards already used in this catch (each card once per action)."""
    best = [0] * (budget + 1)
    comp = s.comp
    for card in s.mage_of[p]:
        if not s.mage_active[card] or (used >> card) & 1:
            continue
        cost = comp.mage_cards[card].cost
        if cost > budget:
            continue
        value = card_power(s, p, card, sel)
        for c in range(budget, cost - 1, -1):
            v = best[c - cost] + value
            if v > best[c]:
                best[c] = v
    return best[budget]


def payable(s: DjinnState, p: int, space: int, sel: tuple[int, ...]) -> bool:
    need = strength(s, p, space, sel) - s.magic[p] - catch_power(s, p)
    return need <= 0 or best_cards(s, p, sel, s.coins[p]) >= need


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


# -- the GAIN queue ---------------------------------------------------------------------------


def queue(s: DjinnState, p: int, items: tuple[tuple[int, int], ...]) -> None:
    """Put ``items`` first in the GAIN frame on top (or a new one)."""
    if not items:
        return
    top = s.stack.top
    if top is not None and top.kind is _GAIN and top.seat == p:
        s.stack = s.stack.replace(Frame(_GAIN, p, items + top.context))
    else:
        s.stack = s.stack.push(Frame(_GAIN, p, items))


def push(s: DjinnState, kind: Kind, p: int, context: tuple[Any, ...] = ()) -> None:
    s.stack = s.stack.push(Frame(kind, p, context))


def replace(s: DjinnState, kind: Kind, p: int, context: tuple[Any, ...] = ()) -> None:
    s.stack = s.stack.replace(Frame(kind, p, context))


def pop(s: DjinnState) -> None:
    s.stack = s.stack.pop()


def reward_items(reward: Reward) -> tuple[tuple[int, int], ...]:
    return reward


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
        c = _draw_from(s.bag, s.rng)
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
        if any(here[k] and can_place(s, p, _one(k)) for k in range(len(KINDS))):
            push(s, _FREE, p, (a,))
    elif code == I_ACADEMY_ACTIVATE:
        if any(not s.mage_active[c] for c in s.mage_of[p]):
            push(s, Kind.ACTIVATE, p, (a, 1))
    elif code in (I_AFTER_CATCH, I_AFTER_CATCH_BOSS):
        after_catch(s, p, a, code == I_AFTER_CATCH_BOSS)
    else:
        raise AssertionError(item)


_ONES = tuple(tuple(1 if i == k else 0 for i in range(len(KINDS))) for k in range(len(KINDS)))


def _one(kind: int) -> tuple[int, ...]:
    return _ONES[kind]


def raise_capacity(s: DjinnState, p: int) -> None:
    """rulebook §Player Board 1b: past the last space the player may catch a random Djinn
    instead, and the marker flips (8 magic from then on)."""
    if s.capacity[p] < s.comp.capacity_max:
        s.capacity[p] += 1
        return
    if not s.flipped[p]:
        s.flipped[p] = True
        log(s, "capacity_flipped", seat=p)
    queue(s, p, ((RDJ, 1),))


def activate_circle(s: DjinnState, p: int) -> None:
    """rulebook §Player Board 2: the left circle, then the right one, each with its reward; a
    covered circle (character tile) comes first and gives 2 magic (ruling D9)."""
    circles = s.circles[p]
    if COVERED in circles:
        i = circles.index(COVERED)
        circles[i] = EMPTY
        queue(s, p, ((RM, 2),))
        return
    active = s.comp.start["active_circles"]
    for i in range(active, 4):
        if circles[i] == INACTIVE:
            circles[i] = EMPTY
            queue(s, p, reward_items(s.comp.circle_rewards[i - active]))
            return


def arrival_rewards(s: DjinnState, p: int, space: int) -> None:
    """Equipment that rewards arriving where the space or the own passage shows a location."""
    here = {s.loc[space], own_passage(s, p, space)}
    items: list[tuple[int, int]] = []
    for e in s.equip_of[p]:
        card = s.comp.equipment[e]
        if s.equip_up[e] and card.effect == "location_reward" and card.location in here:
            items.extend(card.reward)
    queue(s, p, tuple(items))


def reveal_chests(s: DjinnState, p: int, count: int) -> None:
    """rulebook §Catacombs: reveal, gain, discard; reshuffle the discards when the deck is
    empty. The Equipment that reveals one more makes the player discard one unused."""
    extra = has_up(s, p, "catacombs_extra") >= 0
    revealed = []
    for _ in range(count + (1 if extra else 0)):
        if not s.chest_deck:
            if not s.chest_discard:
                break
            s.chest_deck = s.chest_discard[:]
            s.chest_discard = []
            s.rng.shuffle(s.chest_deck)
            log(s, "chests_reshuffled")
        revealed.append(s.chest_deck.pop())
    # The revealed chests lie in front of the player while they are used, so a reshuffle in
    # the middle of a special action (deck empty after the first) leaves them out; they join
    # the discard pile together afterwards.
    s.chest_discard.extend(revealed)
    log(
        s,
        "chests",
        seat=p,
        chests=revealed,
        rewards=[reward_json(s.comp.chests[c].reward) for c in revealed],
        key_rewards=[reward_json(s.comp.chests[c].key_reward) for c in revealed],
    )
    if "catacombs_key" in s.fx[p]:
        queue(s, p, ((RKEY, 1),))
    if extra and len(revealed) > count:
        push(s, Kind.CHEST_DISCARD, p, tuple(revealed))
    else:
        queue(s, p, tuple((I_CHEST, c) for c in revealed))


def gain_equipment(s: DjinnState, p: int, e: int) -> None:
    """rulebook §Manufactory: one active card per type (the new one lies face up on the old,
    which is flipped: ruling D6); the first full set gives the set bonus."""
    card = s.comp.equipment[e]
    for old in s.equip_of[p]:
        if s.equip_up[old] and s.comp.equipment[old].type == card.type:
            s.equip_up[old] = False
    s.equip_owner[e] = p
    s.equip_up[e] = True
    s.equip_of[p].append(e)
    log(s, "equipment", seat=p, card=e, type=EQUIP_TYPES[card.type])
    items: list[tuple[int, int]] = []
    if not s.set_bonus[p] and {s.comp.equipment[x].type for x in s.equip_of[p]} == {0, 1, 2}:
        s.set_bonus[p] = True
        items.extend(s.comp.rewards["set_bonus"])
    # rulebook §Equipment: a location reward taken where it applies counts at once, on the
    # first turn's placement too (ruling D31).
    space = s.turn_space
    if (
        card.effect == "location_reward"
        and space >= 0
        and card.location
        in {
            s.loc[space],
            own_passage(s, p, space),
        }
    ):
        items.extend(card.reward)
    queue(s, p, tuple(items))


def after_catch(s: DjinnState, p: int, space: int, boss_caught: bool) -> None:
    """rulebook §Bosses: a lone boss flees; after a boss leaves, Djinn are drawn for the
    space; the end starts when no boss is left on the board."""
    s.tflags |= T_CATCH
    s.in_catch = False
    here = s.djinn[space]
    left = boss_caught
    if here[BOSS] and sum(here[:BOSS]) == 0:
        here[BOSS] -= 1
        s.supply_bosses += 1
        left = True
        log(s, "boss_flees", space=SPACE_NAMES[space])
    if left:
        for _ in range(s.comp.replenish[s.num_players]):
            c = _draw_from(s.bag, s.rng)
            if c >= 0:
                here[c] += 1
        check_bosses(s)


def check_bosses(s: DjinnState) -> None:
    if s.stage == PLAYING and not any(s.djinn[r][BOSS] for r in ROUNDS):
        s.stage = FINISH_ROUND
        log(s, "last_boss_gone", round=s.round)


# -- turns ---------------------------------------------------------------------------------


def begin_turn(s: DjinnState, p: int) -> None:
    s.current = p
    s.tflags = T_FINAL if s.stage == FINAL_SOURCE else 0
    s.fresh_passage[p] = -1
    s.in_catch = False
    # rulebook §Player Board 1c: the magic marker starts the turn at least at the base.
    if s.magic[p] < s.base[p]:
        s.magic[p] = s.base[p]
    if s.stage == FINAL_SOURCE:
        s.pos[p] = SOURCE
        s.came[p] = -1
        s.turn_space = SOURCE
        s.stack = DecisionStack().push(Frame(_ACT, p, (SOURCE,)))
    elif s.pos[p] < 0:
        s.turn_space = -1
        s.stack = DecisionStack().push(Frame(_START, p, ()))
    else:
        here = s.pos[p]
        s.turn_space = -1
        s.stack = DecisionStack().push(Frame(_MOVE, p, (here, s.came[p], 1 << here, 0)))


def end_turn(s: DjinnState, p: int) -> None:
    s.stack = DecisionStack()
    space = s.turn_space
    s.fresh_passage[p] = -1
    s.turns += 1
    n = s.num_players
    log(s, "end_turn", seat=p)
    if s.stage == FINAL_SOURCE:
        nxt = (p + 1) % n
        if nxt == s.first:
            finish(s)
        else:
            begin_turn(s, nxt)
        return
    if n == 1:
        if s.stage != PLAYING:
            # rulebook §Solo end: the last boss is gone before Tom's last card: a win. Tom's
            # next card is flipped and its bottom line paid, then the final Source action.
            s.won = True
            if s.tom_deck:
                card = s.tom_deck.pop()
                s.tom_revealed.append(card)
                tom_pay(s, card)
            s.stage = FINAL_SOURCE
            log(s, "solo_won", cards_left=len(s.tom_deck))
            begin_turn(s, 0)
            return
        if space in ROUNDS:
            tom_turn(s)
            if s.over:
                return
        s.round += 1
        begin_turn(s, 0)
        return
    nxt = (p + 1) % n
    if nxt == s.first:
        s.round += 1
        if s.stage == FINISH_ROUND:
            s.stage = LAST_ROUND
        elif s.stage == LAST_ROUND:
            s.stage = FINAL_SOURCE
        elif s.stage == PLAYING and s.round > s.params.max_rounds:
            s.stage = LAST_ROUND  # ruling D14: the round cap ends the game like the last boss
            log(s, "round_cap", round=s.round)
        if s.stage != PLAYING:
            log(s, "stage", stage=STAGE_NAMES[s.stage])
    begin_turn(s, nxt)


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
                c = _draw_from(s.bag, s.rng)
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


def finish(s: DjinnState) -> None:
    s.over = True
    s.stage = OVER
    s.stack = DecisionStack()
    s.options, s.actors = (), NOBODY
    log(s, "end", scores=[sum(b.values()) for b in score_breakdowns(s)], won=s.won)


# -- options --------------------------------------------------------------------------------


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


def side_options(s: DjinnState, p: int, L: dict[str, int]) -> tuple[int, ...]:
    """Things a player may do at any time on their turn (rulebook §Keys, §Receive a trophy,
    §Put a Djinn in a bottle, §Equipment)."""
    out: list[int] = []
    if s.keys[p]:
        out.append(L["key_coin"])
        out.append(L["key_scroll"])
        if s.magic[p] < max_magic(s, p):
            out.append(L["key_magic"])
    filled, fboss = s.filled[p], s.filled_boss[p]
    if not s.tflags & T_FINAL:
        rows = claim_rows(s, p)
        for c in range(NCOL):
            if filled[c] + fboss[c] >= 3:
                for row in rows:
                    for t in s.trophy_rows[row]:
                        out.append(L["trophy"] + t * NCOL + c)
    bottles = s.bottles[p]
    if s.corks[p] and any(bottles):
        for i, k in enumerate(s.circles[p]):
            if k >= 0:
                for c in range(NCOL):
                    if bottles[c] and (k in (c, BOSS)):
                        out.append(L["seal"] + i * NCOL + c)
    comp = s.comp
    for e in s.equip_of[p]:
        if s.equip_up[e]:
            effect = comp.equipment[e].effect
            if effect == "once_reward" or (effect == "bottle_trade" and any(bottles)):
                out.append(L["use_equipment"] + e)
    out.sort()
    return tuple(out)


def claim_rows(s: DjinnState, p: int) -> tuple[int, ...]:
    """The trophy rows ``p``'s next claim may take from (rulebook §Receive a trophy): row I
    for the 1st claim, II for the 2nd, III for the 3rd, any row from the 4th on.

    Ruling D30: extra claims by others may have emptied the row due. The claim then passes on
    to the next row in order that still holds a trophy; if no row after the due one does, it
    is free, as from the 4th claim on. Only with all rows empty is there no claim."""
    rows = s.trophy_rows
    due = s.claims[p]
    for row in range(due, 3):
        if rows[row]:
            return (row,)
    return tuple(row for row in range(3) if rows[row])


def frame_options(s: DjinnState, top: Frame, L: dict[str, int]) -> tuple[int, ...]:
    kind = top.kind
    p = top.seat
    ctx = top.context
    if kind is _ACT:
        return act_options(s, p, ctx[0], L)
    if kind is _MOVE:
        at, came, visited, stuck = ctx
        base = L["move"]
        return tuple(
            base + t
            for t in s.adj[at]
            if t != came and not (visited >> t) & 1 and reachable(s, p, t, at, visited, stuck)
        )
    if kind is _JUMP:
        t, frm, visited, stuck = ctx
        out = []
        if stuck or can_stop(s, p, t):
            out.append(L["stop"])
        if any(
            u != frm and not (visited >> u) & 1 and reachable(s, p, u, t, visited, stuck)
            for u in s.adj[t]
        ):
            out.append(L["skip"])
        return tuple(out)
    if kind is _PAY:
        return pay_options(s, p, ctx, L)
    if kind is _SELECT:
        space, sel = ctx
        here = s.djinn[space]
        out = []
        for k in range(len(KINDS)):
            if here[k] > sel[k]:
                more = (*sel[:k], sel[k] + 1, *sel[k + 1 :])
                if can_place(s, p, more) and payable(s, p, space, more):
                    out.append(L["select"] + k)
        if sum(sel):
            out.append(L["confirm"])
        out.append(L["decline"])
        return tuple(sorted(out))
    if kind is _CPAY:
        space, sel, power, used = ctx
        need = strength(s, p, space, sel) - power - catch_power(s, p)
        out = []
        coins = s.coins[p]
        comp = s.comp
        for card in s.mage_of[p]:
            # rulebook §Catch: each card's power once per action, even if a side action
            # (a trophy's bonus) activated it again after it was used in this catch.
            if not s.mage_active[card] or (used >> card) & 1:
                continue
            cost = comp.mage_cards[card].cost
            if cost > coins:
                continue
            left = need - card_power(s, p, card, sel) - s.magic[p]
            if left <= 0 or best_cards(s, p, sel, coins - cost, used | (1 << card)) >= left:
                out.append(L["use_mage"] + card)
        out.sort()
        if need <= s.magic[p]:
            out.append(L["settle"])
        return tuple(out)
    if kind is _PLACE:
        return place_options(s, p, ctx, L)
    if kind is _FREE:
        here = s.djinn[ctx[0]]
        out = [L["free"] + k for k in range(len(KINDS)) if here[k] and can_place(s, p, _one(k))]
        return (*out, L["done"]) if out else ()
    if kind is _START:
        base = L["start"]
        return tuple(
            base + (sq - 1) * 6 + (r - 7) for sq in SQUARES for r in s.adj[sq] if r != SOURCE
        )
    if kind is _DRAFT:
        req = ctx[0]
        base = L["character"]
        return tuple(
            sorted(base + c for side in (0, 1) if req in (-1, side) for c in s.draft[side])
        )
    if kind is Kind.TAVERN:
        allowed = range(4) if ctx[0] else range(2)
        return tuple(L["take"] + i for i in allowed if s.piles[i])
    if kind is Kind.MANUFACTORY:
        return tuple(L["equip"] + t for t in range(len(EQUIP_TYPES)) if s.equip_stacks[t])
    if kind is Kind.TENT:
        return tuple(L["tent"] + i for i in market_targets(s, p))
    if kind is Kind.OFFER:
        comp = s.comp
        place = comp.market_places(s.num_players)[ctx[0]]
        return tuple(
            L["offer"] + j
            for j, o in enumerate(comp.offers)
            if o.tent in place and o.coins <= s.coins[p] and o.scrolls <= s.scrolls[p]
        )
    if kind is Kind.ARCHIVES:
        _picks, mask = ctx
        out = [L["done"]]
        for o in range(5):
            if not (mask >> o) & 1 and archive_doable(s, p, o):
                out.append(L["archive"] + o)
        return tuple(sorted(out))
    if kind is Kind.PASSAGE:
        return passage_options(s, p, L)
    if kind is Kind.CHEST_KEY:
        return (L["done"], L["unlock"])
    if kind is Kind.CHEST_DISCARD:
        return tuple(sorted(L["discard_chest"] + c for c in ctx))
    if kind is Kind.ACTIVATE:
        left, costs_magic = ctx
        if costs_magic and s.magic[p] < 1:
            return (L["done"],)
        base = L["activate"]
        out = [base + c for c in s.mage_of[p] if not s.mage_active[c]]
        out.sort()
        return (L["done"], *out)
    if kind is Kind.CHOOSE_BOTTLE:
        left, mask, distinct = ctx
        return tuple(L["choose"] + c for c in range(NCOL) if not (distinct and (mask >> c) & 1))
    if kind is Kind.SOURCE_BOSSES:
        out = [L["done"]]
        if source_boss_ok(s, p):
            out.append(L["boss"])
        return tuple(sorted(out))
    if kind is Kind.TRADE:
        out = [L["done"]]
        b = s.bottles[p]
        want = pending(s)
        for c1 in range(NCOL):
            if b[c1]:
                for c2 in range(NCOL):
                    if c2 == c1:
                        continue
                    b[c1] -= 1
                    b[c2] += 1
                    # Inside a catch a trade may not strand a Djinn already caught (D8).
                    if can_place(s, p, want):
                        out.append(L["trade"] + c1 * NCOL + c2)
                    b[c1] += 1
                    b[c2] -= 1
        return tuple(sorted(out))
    raise AssertionError(kind)


def can_stop(s: DjinnState, p: int, t: int) -> bool:
    if "movement_free" in s.fx[p]:
        return True
    return s.coins[p] + s.scrolls[p] >= len(occupants(s, p, t))


def reachable(s: DjinnState, p: int, t: int, frm: int, visited: int, stuck: int) -> bool:
    """Whether a move onto ``t`` (from ``frm``) can end somewhere: ``t`` is free, the mage can
    pay everyone there, or skipping on leads to such a space (never back along the path just
    taken, never onto a space passed in this move: ruling D1)."""
    if stuck or not occupants(s, p, t) or can_stop(s, p, t):
        return True
    seen = visited | (1 << t)
    return any(
        u != frm and not (seen >> u) & 1 and reachable(s, p, u, t, seen, stuck) for u in s.adj[t]
    )


def pay_options(s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]) -> tuple[int, ...]:
    payees, place = ctx
    rest = len(payees) - 1
    out = []
    for action, dc, ds in ((L["pay_coin"], 1, 0), (L["pay_scroll"], 0, 1)):
        coins, scrolls = s.coins[p] - dc, s.scrolls[p] - ds
        if coins < 0 or scrolls < 0:
            continue
        if place < 0:
            ok = coins + scrolls >= rest
        else:
            ok = market_affordable(s, coins, scrolls, rest, place)
        if ok:
            out.append(action)
    return tuple(out)


def market_affordable(s: DjinnState, coins: int, scrolls: int, payees: int, place: int) -> bool:
    """Whether some split of ``payees`` payments leaves enough for an offer of ``place``."""
    comp = s.comp
    offers = [o for o in comp.offers if o.tent in comp.market_places(s.num_players)[place]]
    for x in range(payees + 1):  # x coins, the rest scrolls
        c, sc = coins - x, scrolls - (payees - x)
        if c >= 0 and sc >= 0 and any(o.coins <= c and o.scrolls <= sc for o in offers):
            return True
    return False


def market_payees(s: DjinnState, p: int, place: int) -> tuple[int, ...]:
    """rulebook §Market: each other player with an assistant on the tent is paid."""
    if "market_free" in s.fx[p]:
        return ()
    return tuple(q for q in range(s.num_players) if q != p and s.tent[q] == place)


def market_targets(s: DjinnState, p: int) -> list[int]:
    places = s.comp.market_places(s.num_players)
    stay = has_up(s, p, "market_stay") >= 0
    return [
        i
        for i in range(len(places))
        if (i != s.tent[p] or stay)
        and market_affordable(s, s.coins[p], s.scrolls[p], len(market_payees(s, p, i)), i)
    ]


def location_doable(s: DjinnState, p: int, location: int, special: bool) -> bool:
    if location == TAVERN:
        return any(s.piles[i] for i in (range(4) if special else range(2)))
    if location == CATACOMBS:
        return bool(s.chest_deck or s.chest_discard)
    if location == MANUFACTORY:
        cost = s.comp.numbers["manufactory_special_cost" if special else "manufactory_basic_cost"]
        return s.coins[p] >= cost
    if location == MARKET:
        return bool(market_targets(s, p))
    return True


def archive_doable(s: DjinnState, p: int, option: int) -> bool:
    """An option is offered when some part of it can be done (rulebook §Forfeiting: an
    action may be done partially, e.g. the improved circle option's key with every circle
    already active)."""
    if option == 0:
        return bool(s.passages_left[p]) and bool(passage_options(s, p, s.L.base))
    basic, improved = s.comp.archives[option]
    for kind, _ in improved if s.improved[p] else basic:
        if kind == RCIRC:
            if any(c in (INACTIVE, COVERED) for c in s.circles[p]):
                return True
        elif kind == RACT:
            if "no_activate" not in s.fx[p] and any(not s.mage_active[c] for c in s.mage_of[p]):
                return True
        else:
            return True
    return False


def passage_options(s: DjinnState, p: int, L: dict[str, int]) -> tuple[int, ...]:
    """rulebook §Archives: not where the player has a passage already; not the symbol of the
    space nor of any passage already there."""
    out: list[int] = []
    base = L["place_passage"]
    for sq in SQUARES:
        there = s.passages[sq]
        if any(q == p for q, _ in there):
            continue
        taken = {s.loc[sq], *(loc for _, loc in there)}
        out.extend(base + loc * 6 + (sq - 1) for loc in s.passages_left[p] if loc not in taken)
    out.sort()
    return tuple(out)


def source_boss_ok(s: DjinnState, p: int) -> bool:
    return (
        s.supply_bosses > 0
        and s.magic[p] >= s.comp.source_boss_cost
        and can_place(s, p, _ONES[BOSS])
    )


def act_options(s: DjinnState, p: int, space: int, L: dict[str, int]) -> tuple[int, ...]:
    f = s.tflags
    out: list[int] = []
    if space == SOURCE:
        # rulebook §Magic Source: the first row (refill, or bosses for magic) and the second
        # row (for scrolls), in any order.
        if not f & T_ROW1:
            if s.magic[p] < max_magic(s, p):
                out.append(L["refill"])
            if source_boss_ok(s, p):
                out.append(L["bosses"])
        if not f & T_ROW2 and s.scrolls[p] >= scroll_price(s, p):
            out.append(L["row2"])
        out.append(L["end"])
        out.sort()
        return tuple(out)
    location = s.loc[space]
    fx = s.fx[p]
    forfeit = 0 if "no_forfeit" in fx else len(s.comp.forfeit)
    if space < 7:
        done = f & (T_BASIC | T_FORFEIT)
        if not done and location_doable(s, p, location, False):
            out.append(L["basic"])
        passage = own_passage(s, p, space)
        if (
            passage >= 0
            and not f & (T_PASSAGE | T_FORFEIT)
            and location_doable(s, p, passage, False)
        ):
            out.append(L["passage_use"])
        if forfeit and not f & (T_BASIC | T_PASSAGE | T_FORFEIT):
            out.extend(L["forfeit"] + i for i in range(forfeit))
        out.append(L["end"])
    else:
        catch_pending = not f & T_CATCH and sum(s.djinn[space]) > 0
        if not f & (T_BASIC | T_FORFEIT):
            if not ("catch_first" in fx and catch_pending):
                if location_doable(s, p, location, False):
                    out.append(L["basic"])
                if location_doable(s, p, location, True) and not (
                    location == CATACOMBS and "catacombs_basic_only" in fx
                ):
                    out.append(L["special"])
            if forfeit:
                out.extend(L["forfeit"] + i for i in range(forfeit))
        out.append(L["catch"] if catch_pending else L["end"])
    out.sort()
    return tuple(out)


def place_options(
    s: DjinnState, p: int, ctx: tuple[Any, ...], L: dict[str, int]
) -> tuple[int, ...]:
    """Where a caught Djinn may go, keeping every Djinn still to be placed placeable (the
    rest of this catch, or an open catch below a random Djinn brought by a side action)."""
    kind, may_release, _rest = ctx
    counts = pending(s)
    out = []
    circles = s.circles[p]
    if EMPTY in circles:
        i = circles.index(EMPTY)
        circles[i] = kind
        if can_place(s, p, counts):
            out.append(L["circle"])
        circles[i] = EMPTY
    if s.corks[p]:
        for c in range(NCOL):
            if s.bottles[p][c] and (kind in (c, BOSS)):
                s.bottles[p][c] -= 1
                s.corks[p] -= 1
                if can_place(s, p, counts):
                    out.append(L["bottle"] + c)
                s.bottles[p][c] += 1
                s.corks[p] += 1
    if may_release:
        out.append(L["release"])
    return tuple(out)


# -- applying an action ---------------------------------------------------------------------


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


def side_action(s: DjinnState, p: int, group: str, i: int) -> None:
    comp = s.comp
    if group in ("key_coin", "key_scroll", "key_magic"):
        # rulebook §Keys: a key for a coin, a scroll or a magic power, at any time.
        gain(s, p, RKEY, -1)
        gain(s, p, {"key_coin": RC, "key_scroll": RS, "key_magic": RM}[group], 1)
        log(s, "key", seat=p, exchange=group[4:])
    elif group == "trophy":
        claim_trophy(s, p, i // NCOL, i % NCOL)
    elif group == "seal":
        circle, c = i // NCOL, i % NCOL
        k = s.circles[p][circle]
        s.circles[p][circle] = EMPTY
        s.bottles[p][c] -= 1
        s.corks[p] -= 1
        (s.filled_boss if k == BOSS else s.filled)[p][c] += 1
        log(s, "seal", seat=p, circle=circle + 1, djinn=KINDS[k], bottle=COLOURS[c])
    elif group == "use_equipment":
        card = comp.equipment[i]
        s.equip_up[i] = False
        log(s, "use_equipment", seat=p, card=i)
        if card.effect == "once_reward":
            queue(s, p, card.reward)
        else:
            push(s, Kind.TRADE, p, (card.amount,))
    else:
        raise AssertionError(group)


def claim_trophy(s: DjinnState, p: int, trophy: int, c: int) -> None:
    """rulebook §Receive a trophy: three bottled Djinn of one colour are discarded with their
    bottles and corks (back to the supply: ruling D7); the trophy's bonus comes at once."""
    card = s.comp.trophies[trophy]
    s.trophy_rows[card.row].remove(trophy)
    s.trophies_of[p].append(trophy)
    s.claims[p] += 1
    regular = min(3, s.filled[p][c])
    s.filled[p][c] -= regular
    s.filled_boss[p][c] -= 3 - regular
    s.discarded[c] += regular
    s.discarded[BOSS] += 3 - regular
    s.bank[B_BOTTLES] += 3
    s.bank[B_CORKS] += 3
    log(
        s,
        "trophy",
        seat=p,
        trophy=trophy,
        colour=COLOURS[c],
        row=card.row + 1,
        points=card.points,
        reward=reward_json(card.reward),
    )
    queue(s, p, card.reward)


def _draft(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    tile = s.comp.characters[i]
    s.draft[1 if tile.positive else 0].remove(i)
    s.chars[p].append(i)
    s.fx[p] = s.fx[p] | {tile.effect}
    log(s, "character", seat=p, tile=i, name=tile.name, positive=tile.positive)
    pop(s)
    if s.draft_queue:
        q = s.draft_queue.pop(0)
        req = -1 if not s.chars[q] else (0 if s.comp.characters[s.chars[q][0]].positive else 1)
        push(s, _DRAFT, q, (req,))
    else:
        begin_turn(s, s.first)
    # rulebook §Character tiles: start-of-game effects.
    if tile.effect == "secret_scoring":
        # Two scoring cards kept face down: only their holder sees them until the end.
        for _ in range(SECRET_CARDS):
            if s.scoring_deck:
                s.secret[p].append(s.scoring_deck.pop())
        log(s, "secret_scoring", visible_to=ONE_SEAT[p], seat=p, cards=list(s.secret[p]))
    if tile.effect == "circle_cover":
        circles = s.circles[p]
        circles[circles.index(EMPTY)] = COVERED
    if tile.reward:
        s.stack = s.stack.push(Frame(_GAIN, p, tile.reward))


def _start(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    square, rnd = 1 + i // 6, 7 + i % 6
    # The first placement is no move for paying (ruling D4), but the mage then stands in
    # front of the space as after one, so location rewards count there (ruling D31).
    arrive(s, p, square, rnd, ())


def arrive(s: DjinnState, p: int, space: int, frm: int, payees: tuple[int, ...]) -> None:
    s.pos[p] = space
    s.came[p] = frm
    s.turn_space = space
    log(s, "move", seat=p, to=SPACE_NAMES[space])
    replace(s, _ACT, p, (space,))
    push(s, _GAIN, p, ((I_ARRIVE, space),))
    if payees:
        push(s, _PAY, p, (payees, -1))


def _move(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    at, _came, visited, stuck = top.context
    t = i
    if stuck or not occupants(s, p, t):
        arrive(s, p, t, at, ())
    else:
        replace(s, _JUMP, p, (t, at, visited | (1 << t), stuck))


def _jump(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    t, frm, visited, stuck = top.context
    if group == "skip":
        replace(s, _MOVE, p, (t, frm, visited, stuck))
        return
    payees = () if (stuck or "movement_free" in s.fx[p]) else occupants(s, p, t)
    arrive(s, p, t, frm, payees)


def _pay(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    payees, place = top.context
    q = payees[0]
    if group == "pay_coin":
        s.coins[p] -= 1
        s.coins[q] += 1
    else:
        s.scrolls[p] -= 1
        s.scrolls[q] += 1
    log(s, "pay", seat=p, to=q, what=group[4:], market=place >= 0)
    if len(payees) > 1:
        replace(s, _PAY, p, (payees[1:], place))
    else:
        pop(s)


def _act(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space = top.context[0]
    comp = s.comp
    if group == "end":
        end_turn(s, p)
        return
    if group == "catch":
        s.in_catch = True
        push(s, _SELECT, p, (space, (0,) * len(KINDS)))
        return
    if group == "forfeit":
        s.tflags |= T_FORFEIT
        log(s, "forfeit", seat=p, reward=reward_json(comp.forfeit[i]))
        queue(s, p, comp.forfeit[i])
        return
    if group == "refill":
        s.tflags |= T_ROW1
        s.magic[p] = max_magic(s, p)
        log(s, "source_refill", seat=p)
        return
    if group == "bosses":
        s.tflags |= T_ROW1
        push(s, Kind.SOURCE_BOSSES, p, ())
        return
    if group == "row2":
        s.tflags |= T_ROW2
        price = scroll_price(s, p)
        gain(s, p, RS, -price)
        log(s, "source_row2", seat=p, price=price)
        queue(s, p, comp.rewards["source_row2"])
        return
    special = group == "special"
    if group == "passage_use":
        s.tflags |= T_PASSAGE
        location = own_passage(s, p, space)
    else:
        s.tflags |= T_BASIC
        location = s.loc[space]
    log(s, "action", seat=p, location=LOCATIONS[location], special=special)
    queue(s, p, location_items(s, p, location, special))


def location_items(
    s: DjinnState, p: int, location: int, special: bool
) -> tuple[tuple[int, int], ...]:
    comp = s.comp
    fx = s.fx[p]
    if location == ACADEMY:
        items = comp.rewards["academy_special" if special else "academy_basic"]
        if "academy_activate" in fx and "no_activate" not in fx:
            return (*items, (I_ACADEMY_ACTIVATE, 2))
        return items
    if location == TAVERN:
        return ((I_TAVERN, int(special)),)
    if location == CATACOMBS:
        return ((I_CATACOMBS, comp.numbers["catacombs_special" if special else "catacombs_basic"]),)
    if location == ARCHIVES:
        return ((I_ARCHIVES, 2 if special else 1),)
    if location == MANUFACTORY:
        cost = comp.numbers["manufactory_special_cost" if special else "manufactory_basic_cost"]
        corks = comp.numbers["manufactory_special_corks" if special else "manufactory_basic_corks"]
        if special and "manufactory_corks" in fx:
            corks += 1
        gain(s, p, RC, -cost)
        return ((RK, corks), (I_MANUFACTORY, 0))
    return ((I_MARKET, 0),) * (comp.numbers["market_special_times"] if special else 1)


def _select(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space, sel = top.context
    if group == "select":
        replace(s, _SELECT, p, (space, (*sel[:i], sel[i] + 1, *sel[i + 1 :])))
    elif group == "confirm":
        replace(s, _CPAY, p, (space, sel, 0, 0))
    else:
        # rulebook §Catch: not catching costs 1 magic, never below 0.
        s.magic[p] = max(0, s.magic[p] - s.comp.decline_cost)
        s.tflags |= T_CATCH
        s.in_catch = False
        log(s, "decline", seat=p)
        pop(s)
        after_catch(s, p, space, False)


def _cpay(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space, sel, power, used = top.context
    if group == "use_mage":
        # rulebook §Catch: pay the card's cost, then flip it.
        card = s.comp.mage_cards[i]
        gain(s, p, RC, -card.cost)
        s.mage_active[i] = False
        replace(s, _CPAY, p, (space, sel, power + card_power(s, p, i, sel), used | (1 << i)))
        log(s, "use_mage", seat=p, card=i)
        return
    need = strength(s, p, space, sel) - power - catch_power(s, p)
    if need > 0:
        s.magic[p] -= need
    here = s.djinn[space]
    for k in range(len(KINDS)):
        here[k] -= sel[k]
    log(
        s,
        "catch",
        seat=p,
        space=SPACE_NAMES[space],
        djinn={KINDS[k]: sel[k] for k in range(len(KINDS)) if sel[k]},
    )
    pop(s)
    places = tuple((I_PLACE, k) for k in range(len(KINDS) - 1, -1, -1) for _ in range(sel[k]))
    boss = sel[BOSS] > 0
    # rulebook §Bosses: a caught boss brings one more Djinn of the space for free.
    follow = ((I_FREE, space),) if boss else ()
    queue(s, p, places + follow + ((I_AFTER_CATCH_BOSS if boss else I_AFTER_CATCH, space),))


def _place(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    kind = top.context[0]
    if group == "circle":
        circles = s.circles[p]
        circles[circles.index(EMPTY)] = kind
        log(s, "place", seat=p, djinn=KINDS[kind], to="circle")
    elif group == "bottle":
        s.bottles[p][i] -= 1
        s.corks[p] -= 1
        (s.filled_boss if kind == BOSS else s.filled)[p][i] += 1
        log(s, "place", seat=p, djinn=KINDS[kind], to=COLOURS[i])
    else:
        if kind == BOSS:
            s.supply_bosses += 1
        else:
            s.bag[kind] += 1
        log(s, "release", seat=p, djinn=KINDS[kind])
    pop(s)


def _free(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    space = top.context[0]
    pop(s)
    if group == "free":
        s.djinn[space][i] -= 1
        log(s, "free_djinn", seat=p, djinn=KINDS[i])
        push(s, _PLACE, p, (i, 0, ()))


def _tavern(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    comp = s.comp
    card_id = s.piles[i].pop()
    card = comp.mage_cards[card_id]
    s.mage_owner[card_id] = p
    s.mage_active[card_id] = "mage_inactive" not in s.fx[p]
    s.mage_of[p].append(card_id)
    log(s, "mage", seat=p, card=card_id)
    pop(s)
    if card.key and top.context[0]:
        gain(s, p, RKEY, 1)
    if not card.key and "tavern_key" in s.fx[p]:
        gain(s, p, RKEY, 1)
    # rulebook §Tavern: an empty pile takes one card from the other pile of its kind (from
    # the bottom, so the other pile's face stays: ruling D5).
    if not s.piles[i] and s.piles[i ^ 1]:
        s.piles[i].append(s.piles[i ^ 1].pop(0))


def _manufactory(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    pop(s)
    gain_equipment(s, p, s.equip_stacks[i].pop())


def _tent(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    if i == s.tent[p]:
        s.equip_up[has_up(s, p, "market_stay")] = False
    s.tent[p] = i
    log(s, "tent", seat=p, place=i + 1)
    pop(s)
    queue(s, p, ((I_OFFER, i),))
    payees = market_payees(s, p, i)
    if payees:
        push(s, _PAY, p, (payees, i))


def _offer(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    offer = s.comp.offers[i]
    gain(s, p, RC, -offer.coins)
    gain(s, p, RS, -offer.scrolls)
    log(
        s,
        "offer",
        seat=p,
        offer=i + 1,
        coins=offer.coins,
        scrolls=offer.scrolls,
        reward=reward_json(offer.reward),
    )
    pop(s)
    queue(s, p, offer.reward)


def _archives(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    picks, mask = top.context
    if group == "done" or picks <= 1:
        pop(s)
    else:
        replace(s, Kind.ARCHIVES, p, (picks - 1, mask | (1 << i)))
    if group == "done":
        return
    log(s, "archive", seat=p, option=i)
    if i == 0:
        push(s, Kind.PASSAGE, p, ())
    else:
        basic, improved = s.comp.archives[i]
        queue(s, p, improved if s.improved[p] else basic)


def _passage(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    location, square = i // 6, 1 + i % 6
    s.passages_left[p].remove(location)
    s.passages[square].append((p, location))
    s.fresh_passage[p] = square  # rulebook §Archives: not usable the turn it is placed
    log(s, "passage", seat=p, location=LOCATIONS[location], space=SPACE_NAMES[square])
    pop(s)
    if not s.passages_left[p]:
        # rulebook §Archives: the last passage advances the base and improves the Archives.
        s.improved[p] = True
        queue(s, p, s.comp.rewards["passage_bonus"])


def _chest_key(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    pop(s)
    if group == "unlock":
        s.tflags |= T_KEY
        gain(s, p, RKEY, -1)
        chest = s.comp.chests[top.context[0]]
        log(s, "unlock", seat=p, chest=chest.id, reward=reward_json(chest.key_reward))
        queue(s, p, s.comp.chests[top.context[0]].key_reward)


def _chest_discard(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    kept = tuple((I_CHEST, c) for c in top.context if c != i)
    pop(s)
    queue(s, p, kept)


def _activate(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    left, costs_magic = top.context
    if group == "done":
        pop(s)
        return
    s.mage_active[i] = True
    if costs_magic:
        s.magic[p] -= 1
    log(s, "activate", seat=p, card=i)
    if left > 1:
        replace(s, Kind.ACTIVATE, p, (left - 1, costs_magic))
    else:
        pop(s)


def _choose_bottle(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    left, mask, distinct = top.context
    s.bottles[p][i] += 1
    s.bank[B_BOTTLES] -= 1
    log(s, "bottle", seat=p, colour=COLOURS[i])
    if left > 1:
        replace(s, Kind.CHOOSE_BOTTLE, p, (left - 1, mask | (1 << i), distinct))
    else:
        pop(s)


def _source_bosses(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    if group == "done":
        pop(s)
        return
    s.magic[p] -= s.comp.source_boss_cost
    s.supply_bosses -= 1
    log(s, "source_boss", seat=p)
    push(s, _PLACE, p, (BOSS, 0, ()))


def _trade(s: DjinnState, p: int, top: Frame, group: str, i: int) -> None:
    if group == "done":
        pop(s)
        return
    c1, c2 = i // NCOL, i % NCOL
    s.bottles[p][c1] -= 1
    s.bottles[p][c2] += 1
    log(s, "trade", seat=p, gave=COLOURS[c1], got=COLOURS[c2])
    left = top.context[0]
    if left > 1:
        replace(s, Kind.TRADE, p, (left - 1,))
    else:
        pop(s)


_HANDLERS: dict[int, Callable[[DjinnState, int, Frame, str, int], None]] = {
    Kind.DRAFT: _draft,
    Kind.START: _start,
    Kind.MOVE: _move,
    Kind.JUMP: _jump,
    Kind.PAY_PLAYER: _pay,
    Kind.ACT: _act,
    Kind.CATCH_SELECT: _select,
    Kind.CATCH_PAY: _cpay,
    Kind.PLACE: _place,
    Kind.FREE: _free,
    Kind.TAVERN: _tavern,
    Kind.MANUFACTORY: _manufactory,
    Kind.TENT: _tent,
    Kind.OFFER: _offer,
    Kind.ARCHIVES: _archives,
    Kind.PASSAGE: _passage,
    Kind.CHEST_KEY: _chest_key,
    Kind.CHEST_DISCARD: _chest_discard,
    Kind.ACTIVATE: _activate,
    Kind.CHOOSE_BOTTLE: _choose_bottle,
    Kind.SOURCE_BOSSES: _source_bosses,
    Kind.TRADE: _trade,
}


# -- hidden information ---------------------------------------------------------------------


def resample_hidden(s: DjinnState, player: int, rng: random.Random) -> None:
    """Re-deal what nobody has seen: the chest deck, the Mage piles below their top cards
    (within each kind, keeping pile sizes), the Equipment stacks below their tops, Tom's deck.
    The bag's draws come from the copy's own generator."""
    s.start = {}
    rng.shuffle(s.chest_deck)
    for a, b in ((0, 1), (2, 3)):
        pa, pb = s.piles[a], s.piles[b]
        hidden = pa[:-1] + pb[:-1]
        rng.shuffle(hidden)
        na = max(0, len(pa) - 1)
        s.piles[a] = hidden[:na] + pa[-1:]
        s.piles[b] = hidden[na:] + pb[-1:]
    for t, stack in enumerate(s.equip_stacks):
        below = stack[:-1]
        rng.shuffle(below)
        s.equip_stacks[t] = below + stack[-1:]
    rng.shuffle(s.tom_deck)
    # The face-down scoring cards: the seat knows its own, and those of the others are any of
    # the cards it has not seen (the scoring deck and the others' hands), dealt again. Once
    # the game is over they are shown.
    if not s.over:
        pool = list(s.scoring_deck)
        for q in range(s.num_players):
            if q != player:
                pool.extend(s.secret[q])
        rng.shuffle(pool)
        for q in range(s.num_players):
            if q != player:
                k = len(s.secret[q])
                s.secret[q] = pool[:k]
                pool = pool[k:]
        s.scoring_deck = pool


# -- scoring --------------------------------------------------------------------------------


def measure(s: DjinnState, p: int, condition: str) -> int:
    comp = s.comp
    types = [0, 0, 0]
    for e in s.equip_of[p]:
        types[comp.equipment[e].type] += 1
    name = condition.rsplit("_at_", 1)[0]
    if name == "equipment_sets":
        return min(types)
    if name == "passages_placed":
        kept = len(LOCATIONS) - len(s.removed_passages)
        return kept - len(s.passages_left[p])
    if name == "key_mages":
        return sum(comp.mage_cards[c].key for c in s.mage_of[p])
    if name == "inactive_circles":
        return sum(c in (INACTIVE, COVERED) for c in s.circles[p])
    if name == "active_circles":
        return sum(c not in (INACTIVE, COVERED) for c in s.circles[p])
    if name == "capacity":
        return s.capacity[p] + (1 if s.flipped[p] else 0)
    if name == "base":
        return s.base[p]
    if name in ("per_key", "keys"):
        return s.keys[p]
    if name == "per_active_mage":
        return sum(s.mage_active[c] for c in s.mage_of[p])
    if name == "per_unused_bottle_cork":
        return sum(s.bottles[p]) + s.corks[p]
    if name == "mages":
        return len(s.mage_of[p])
    if name == "trophies":
        return len(s.trophies_of[p])
    if name == "coins":
        return s.coins[p]
    if name == "equipment_types":
        return sum(1 for x in types if x)
    if name == "equipment_per_third":
        return sum(x // 3 for x in types)
    raise AssertionError(condition)


def condition_met(s: DjinnState, p: int, cond: Condition) -> bool:
    value = measure(s, p, cond.condition)
    if cond.condition.endswith("_at_most"):
        return value <= cond.threshold
    return value >= cond.threshold


def condition_points(s: DjinnState, p: int, cond: Condition) -> int:
    """rulebook §Scoring cards: a threshold card gives its points; a counting card gives its
    points per unit (per 3rd card for the equipment one), up to its cap."""
    if cond.condition.startswith("per_") or cond.condition == "equipment_per_third":
        points = cond.points * measure(s, p, cond.condition)
        return min(points, cond.cap) if cond.cap else points
    return cond.points if condition_met(s, p, cond) else 0


def secret_points(s: DjinnState, p: int) -> int:
    """The character tile's face-down scoring cards: the player decides at the end which one
    scores, and more points is always the better choice (ruling D26), so the better one."""
    cards = s.comp.scoring_cards
    return max((condition_points(s, p, cards[c]) for c in s.secret[p]), default=0)


def score_breakdowns(s: DjinnState, viewer: int = ALL_SEEING) -> list[dict[str, int]]:
    """rulebook §Final score (and §Solo: 10 per card left in Tom's deck after a win).
    ``viewer`` (a seat, -1 for a spectator) gets the points it may know: while the game runs,
    another player's face-down scoring cards count 0 for it."""
    comp = s.comp
    out = []
    for p in range(s.num_players):
        known = viewer in (ALL_SEEING, p) or s.over
        breakdown = {
            "trophies": sum(comp.trophies[t].points for t in s.trophies_of[p]),
            "bottled": 10 * (sum(s.filled[p]) + sum(s.filled_boss[p])),
            "circles": 3 * sum(1 for c in s.circles[p] if c >= 0),
            "unused": sum(s.bottles[p]) + s.corks[p],
            "scoring_cards": sum(condition_points(s, p, comp.scoring_cards[c]) for c in s.scoring),
            "secret_card": secret_points(s, p) if known else 0,
        }
        if s.num_players == 1:
            breakdown["tom"] = 10 * len(s.tom_deck) if s.won else 0
        out.append(breakdown)
    return out


def solo_tasks(s: DjinnState) -> list[dict[str, Any]]:
    return [
        {"task": t.name, "done": bool(s.won) and condition_met(s, 0, t)} for t in s.comp.solo_tasks
    ]
