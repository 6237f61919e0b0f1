"""Setting the game up (rulebook §SETUP, §2 Player Setup; §Solo Play: Setup).

Owns the random deal of an initial arrangement (``deal``: the map, the Djinn, the Mage piles,
chests, Equipment stacks, trophies, scoring cards, the character draft's tiles, the removed
passages, Tom's deck), the check of a hand-made or recorded one (``read_arrangement``) and
laying it out on a fresh state (``setup``), which then starts the draft (characters.py) or the
first turn (turn.py). The module is not named setup.py so that ``rules.setup`` stays the
function.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
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
    Components,
    load_components,
)
from arabesque.games.djinn.params import DjinnParams
from arabesque.games.djinn.rules.flow import refresh
from arabesque.games.djinn.rules.queries import NCOL, draw_from
from arabesque.games.djinn.rules.turn import begin_turn
from arabesque.games.djinn.state import (
    EMPTY,
    INACTIVE,
    NOBODY,
    PLAYING,
    DjinnState,
    Kind,
)

_DRAFT = Kind.DRAFT


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
            c = draw_from(bag, rng)
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


def _bad(what: str) -> ParamsError:
    return ParamsError(f"bad Djinn arrangement: {what}")


# Every check below tests a value's type before it compares, sorts or hashes it: an
# arrangement comes from strangers (a record, the server), and a 0 or a {} where a name belongs
# must be this ParamsError, never a TypeError from sorted() or set().


def _ids(value: Any, limit: int, what: str) -> list[int]:
    if not isinstance(value, list) or not all(type(x) is int and 0 <= x < limit for x in value):
        raise _bad(f"{what} must be a list of ids 0..{limit - 1}")
    if len(set(value)) != len(value):
        raise _bad(f"{what} lists an id twice")
    return list(value)


def _names(value: Any, allowed: tuple[str, ...], what: str) -> list[str]:
    if not isinstance(value, list) or not all(type(x) is str and x in allowed for x in value):
        raise _bad(f"{what} must be a list of names among {list(allowed)}")
    return list(value)


def _lists(value: Any, count: int, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != count:
        raise _bad(f"{what} must be a list of {count} lists")
    return value


def _all_once(found: list[int], total: int, what: str) -> None:
    """The arrangement places every one of ``total`` components exactly once (a record's
    arrangement is the whole deal; the rules assume nothing is lost or doubled)."""
    if sorted(found) != list(range(total)):
        raise _bad(f"{what} must hold each of the ids 0..{total - 1} exactly once")


def read_arrangement(
    comp: Components, params: DjinnParams, data: Mapping[str, Any]
) -> dict[str, Any]:
    """Check a hand-made or recorded arrangement (the whole deal, as ``deal`` writes it:
    types, ranges, lengths and names of every field); returns a clean copy. Anything wrong is
    a ``ParamsError`` naming the field."""
    if not isinstance(data, Mapping):
        raise _bad(f"must be an object, got {type(data).__name__}")
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
        raise _bad(f"first must be a seat 0..{n - 1}")
    layout = _names(data["layout"], ("source", *LOCATIONS), "layout")
    if (
        len(layout) != 13
        or layout[0] != "source"
        or sorted(layout[1:7]) != sorted(LOCATIONS)
        or sorted(layout[7:13]) != sorted(LOCATIONS)
    ):
        raise _bad("layout lists 'source' then each location once on s1..s6 and once on r1..r6")
    djinn = data["djinn"]
    rounds = {SPACE_NAMES[r] for r in ROUNDS}
    if not isinstance(djinn, Mapping) or set(djinn) != rounds:
        raise _bad(f"djinn maps {sorted(rounds)} to lists of Djinn kinds")
    per_colour = [0] * NCOL
    bosses = 0
    clean_djinn: dict[str, list[str]] = {}
    for space in sorted(rounds):
        here = _names(djinn[space], KINDS, f"djinn.{space}")
        if len(here) > 20:
            raise _bad(f"djinn.{space} lists more than 20 Djinn")
        clean_djinn[space] = here
        bosses += here.count("boss")
        for c, colour in enumerate(COLOURS):
            per_colour[c] += here.count(colour)
    if bosses > comp.supply["bosses"] or any(
        x > comp.supply["djinn_per_colour"] for x in per_colour
    ):
        raise _bad("more Djinn than the box holds")
    piles = _lists(data["piles"], 4, "piles")
    all_piles = [_ids(p, len(comp.mage_cards), "a Mage pile") for p in piles]
    _all_once([x for p in all_piles for x in p], len(comp.mage_cards), "the Mage piles")
    for i, pile in enumerate(all_piles):
        if any(comp.mage_cards[x].key != (i >= 2) for x in pile):
            raise _bad("piles 1-2 hold the cards without a key, piles 3-4 those with one")
    chests = _ids(data["chests"], len(comp.chests), "chests")
    _all_once(chests, len(comp.chests), "chests")
    stacks = _lists(data["equipment"], len(EQUIP_TYPES), "equipment (one stack per type)")
    eq = [_ids(x, len(comp.equipment), "an equipment stack") for x in stacks]
    _all_once([e for st in eq for e in st], len(comp.equipment), "the equipment stacks")
    if any(comp.equipment[e].type != t for t, st in enumerate(eq) for e in st):
        raise _bad("an equipment card lies in the stack of another type")
    trophies = _lists(data["trophies"], 3, "trophies (3 rows)")
    rows = [_ids(x, len(comp.trophies), "a trophy row") for x in trophies]
    if any(comp.trophies[t].row != r for r, row in enumerate(rows) for t in row):
        raise _bad("a trophy lies in another row")
    if any(len(row) != n + 1 for row in rows):
        raise _bad(f"each trophy row shows {n + 1} trophies")
    scoring = _ids(data["scoring"], len(comp.scoring_cards), "scoring")
    shown = 3 if params.scoring_cards else 0
    if len(scoring) != shown:
        raise _bad(f"this game shows {shown} scoring cards")
    draft = data["draft"]
    if not isinstance(draft, Mapping) or set(draft) != {"negative", "positive"}:
        raise _bad("draft has 'negative' and 'positive' lists")
    neg = _ids(draft["negative"], len(comp.characters), "draft.negative")
    pos = _ids(draft["positive"], len(comp.characters), "draft.positive")
    if any(comp.characters[c].positive for c in neg) or not all(
        comp.characters[c].positive for c in pos
    ):
        raise _bad("draft tiles are on the wrong side")
    if params.characters and (len(neg) != n + 1 or len(pos) != n + 1):
        raise _bad(f"the draft shows {n + 1} tiles of each type")
    if not params.characters and (neg or pos):
        raise _bad("this game has no character draft")
    removed = _names(data["removed_passages"], LOCATIONS, "removed_passages")
    if len(set(removed)) != len(removed) or len(removed) != comp.start["passages_removed"]:
        raise _bad(f"removed_passages names {comp.start['passages_removed']} locations")
    rest = [c for c in range(len(comp.scoring_cards)) if c not in scoring]
    if "scoring_deck" in data:
        scoring_deck = _ids(data["scoring_deck"], len(comp.scoring_cards), "scoring_deck")
        # The deal leaves it empty without a character draft, else the cards not on display.
        if scoring_deck and sorted(scoring_deck) != rest:
            raise _bad("scoring_deck holds the scoring cards not on display, or nothing")
    else:
        scoring_deck = rest
    tom = _ids(data["tom"], len(comp.tom_cards), "tom")
    if params.solo and len(tom) != params.tom_deck:
        raise _bad(f"Tom's deck holds {params.tom_deck} cards")
    if not params.solo and tom:
        raise _bad("Tom plays only solo")
    return {
        "first": first,
        "layout": layout,
        "djinn": {space: clean_djinn[space] for space in djinn},
        "piles": all_piles,
        "chests": chests,
        "equipment": eq,
        "trophies": rows,
        "scoring": scoring,
        "draft": {"negative": neg, "positive": pos},
        "removed_passages": removed,
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
