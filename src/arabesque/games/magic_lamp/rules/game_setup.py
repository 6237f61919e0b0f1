"""Setting a game up: the chest decks with their Sorcerers, the Lamp pile, the starting cards.

rulebook, "Setup" (steps 1, 2 and 4; the dice of step 3 are ``MagicLampParams``'s). A
hand-written arrangement may fix any part of it; the rest is shuffled by the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arabesque.core.errors import ParamsError
from arabesque.games.magic_lamp.components import (
    CHESTS,
    SORCERER_FROM_BOTTOM,
    Components,
    card_token,
    load_components,
)
from arabesque.games.magic_lamp.params import MagicLampParams
from arabesque.games.magic_lamp.state import (
    ALL_SEATS,
    NO_RING,
    UNDECIDED,
    MagicLampState,
    Phase,
)


class _CardNames:
    """Resolves the cards of a hand-written arrangement: each entry is an id, or a name as
    ``arabesque cards`` prints it (``"gold ring"``, ``"ruby:1"`` for a ruby with one scorpion,
    ``"Golden Windfall"`` for a Lamp card). A name takes the lowest id of that name not yet
    used elsewhere in the arrangement, so scenarios survive a change of card ids."""

    def __init__(self, comp: Components) -> None:
        self.comp = comp
        self.used: set[tuple[str, int]] = set()

    def resolve(
        self, value: Any, what: str, pool: tuple[int, ...], lamp: bool = False
    ) -> list[int]:
        if not isinstance(value, list):
            raise ParamsError(f"arrangement: {what} must be a list of card ids or names")
        kind = "lamp" if lamp else "card"
        out: list[int] = []
        for entry in value:
            if isinstance(entry, int) and not isinstance(entry, bool):
                out.append(entry)
            elif isinstance(entry, str):
                out.append(self._by_name(entry, what, pool, lamp))
            else:
                raise ParamsError(f"arrangement: {what}: {entry!r} is neither an id nor a name")
            self.used.add((kind, out[-1]))
        return out

    def _by_name(self, name: str, what: str, pool: tuple[int, ...], lamp: bool) -> int:
        wanted = name.strip().lower()
        names = {
            cid: (self.comp.lamp_cards[cid].name if lamp else card_token(self.comp, cid)).lower()
            for cid in pool
        }
        kind = "lamp" if lamp else "card"
        for cid in pool:
            if names[cid] == wanted and (kind, cid) not in self.used:
                return cid
        known = sorted(set(names.values()))
        raise ParamsError(
            f"arrangement: {what}: no unused card named {name!r} here; names: {', '.join(known)}"
        )


def _build_chest(
    comp: Components, chest: int, top: list[int] | None, rng: random.Random
) -> list[int]:
    """A chest deck, bottom first. The Sorcerer goes 6th from the bottom (rulebook, Setup
    step 2) unless a hand-written arrangement places it among its listed top cards."""
    own = comp.chest_cards[chest]
    sorcerer = comp.sorcerer_of(chest)
    listed = top or []
    for cid in listed:
        if cid not in own:
            raise ParamsError(
                f"arrangement: card {cid} is not a {CHESTS[chest]} chest card "
                f"({CHESTS[chest]} cards are {own[0]}..{own[-1]})"
            )
    if len(set(listed)) != len(listed):
        raise ParamsError(f"arrangement: the {CHESTS[chest]} deck lists a card twice")
    rest = [cid for cid in own if cid not in listed and cid != sorcerer]
    rng.shuffle(rest)
    if sorcerer not in listed:
        below = len(own) - len(listed) - 1
        if below < SORCERER_FROM_BOTTOM and len(listed) < len(own):
            raise ParamsError(
                f"arrangement: listing {len(listed)} {CHESTS[chest]} cards leaves no room for "
                "the Sorcerer 6th from the bottom; list it too"
            )
        rest.insert(min(SORCERER_FROM_BOTTOM, len(rest)), sorcerer)
    # ``listed`` is top first; the deck is stored bottom first.
    return rest + listed[::-1]


def setup(
    state: MagicLampState,
    params: MagicLampParams,
    seed: int,
    arrangement: Mapping[str, Any] | None,
) -> None:
    """Lay out a new game (rulebook, Setup). ``arrangement`` may fix deck tops (listed top
    first), the Lamp pile and the starting cards; whatever it leaves out is shuffled by the
    seed. The in-game RNG is a separate stream so a replay from the full arrangement
    reproduces chance events exactly."""
    comp = load_components(params.components)
    if arrangement is not None and not isinstance(arrangement, Mapping):
        raise ParamsError(
            f"arrangement must be an object (decks, lamp_deck, starting, discard), "
            f"got {type(arrangement).__name__}"
        )
    arr = dict(arrangement or {})
    unknown = set(arr) - {"decks", "lamp_deck", "starting", "discard"}
    if unknown:
        raise ParamsError(
            f"arrangement: unknown keys {sorted(unknown)}; "
            "known: decks, lamp_deck, starting, discard"
        )
    setup_rng = random.Random(seed)
    n = params.num_players
    names = _CardNames(comp)

    decks_arr = arr.get("decks", {})
    if not isinstance(decks_arr, dict) or set(decks_arr) - set(CHESTS):
        raise ParamsError(f"arrangement: 'decks' maps chest names {list(CHESTS)} to lists")
    decks = [
        _build_chest(
            comp,
            c,
            names.resolve(decks_arr[name], f"decks.{name}", comp.chest_cards[c])
            if name in decks_arr
            else None,
            setup_rng,
        )
        for c, name in enumerate(CHESTS)
    ]

    lamp_ids = tuple(range(len(comp.lamp_cards)))
    lamp_top = names.resolve(arr.get("lamp_deck", []), "lamp_deck", lamp_ids, lamp=True)
    if any(not 0 <= x < len(comp.lamp_cards) for x in lamp_top) or len(set(lamp_top)) != len(
        lamp_top
    ):
        raise ParamsError(
            f"arrangement: lamp_deck lists Lamp card ids 0..{len(comp.lamp_cards) - 1}"
            " at most once each"
        )
    lamp_rest = [x for x in range(len(comp.lamp_cards)) if x not in lamp_top]
    setup_rng.shuffle(lamp_rest)
    lamp_deck = lamp_rest + lamp_top[::-1]

    k = params.starting_cards_per_player
    if "starting" in arr:
        starting = arr["starting"]
        if not isinstance(starting, list) or len(starting) != n:
            raise ParamsError(f"arrangement: 'starting' lists {n} players' starting cards")
        holdings = [
            names.resolve(s, f"starting[{p}]", comp.starting_cards) for p, s in enumerate(starting)
        ]
        for p, held in enumerate(holdings):
            if len(held) != k or any(c not in comp.starting_cards for c in held):
                raise ParamsError(
                    f"arrangement: player {p} needs {k} starting card(s) among "
                    f"{list(comp.starting_cards)}, got {held}"
                )
        dealt = [c for held in holdings for c in held]
        if len(set(dealt)) != len(dealt):
            raise ParamsError("arrangement: a starting card is dealt twice")
        spare = [c for c in comp.starting_cards if c not in dealt]
    else:
        # rulebook, Setup step 4: shuffle, deal, the extra starting cards go to the discard.
        pool = list(comp.starting_cards)
        setup_rng.shuffle(pool)
        holdings = [pool[p * k : (p + 1) * k] for p in range(n)]
        spare = pool[n * k :]
    discard = (
        names.resolve(arr["discard"], "discard", comp.starting_cards) if "discard" in arr else spare
    )
    if sorted(discard) != sorted(spare):
        raise ParamsError(
            f"arrangement: the discard pile must hold the undealt starting cards {sorted(spare)}"
        )

    state.params = params
    state.comp = comp
    state.seed = seed
    state.rng = random.Random(f"magic-lamp:{seed}:play")
    state.history = []
    state.events = []
    state.start = {
        "decks": {CHESTS[c]: decks[c][::-1] for c in range(len(CHESTS))},
        "lamp_deck": lamp_deck[::-1],
        "starting": [list(h) for h in holdings],
        "discard": list(discard),
    }
    state.decks = decks
    state.lamp_deck = lamp_deck
    state.lamp_known = 0
    state.holdings = holdings
    state.talisman_on = {}
    state.discard = list(discard)
    state.ring = NO_RING
    state.cave_closed = False
    state.over = False
    state.turn = 1
    state.phase = Phase.SETTING
    state.dice = [[] for _ in range(n)]
    state.rub = [UNDECIDED] * n
    state.waiting = ALL_SEATS[n]
    state.ward = [0] * n
    state.summoners = []
    state.agenda = []
    state.pending = None
    state.draw_ctx = None
    state.known_top = [[[] for _ in CHESTS] for _ in range(n)]
    state.race_result = None
    state.log(
        "setup",
        players=n,
        starting=[[comp.describe(c) for c in h] for h in holdings],
        my_precious=params.my_precious,
    )
    state.log("turn", turn=1)
