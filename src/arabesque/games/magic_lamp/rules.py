"""The Magic Lamp forward model: the only code that changes a MagicLampState.

Rulebook references are to the English rulebook's sections (../shared/rules/magic-lamp.en.md);
"R<n>" refers to our rulings in docs/rulings/magic-lamp.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arabesque.core.errors import ParamsError
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import (
    CHESTS,
    JEWELS,
    METALS,
    SORCERER_FROM_BOTTOM,
    CardKind,
    Components,
    EffectKind,
    card_token,
    load_components,
)
from arabesque.games.magic_lamp.params import MagicLampParams
from arabesque.games.magic_lamp.state import (
    ALL_SEATS,
    LONE,
    NO_RING,
    NO_RUB,
    NOBODY,
    ONE_SEAT,
    UNDECIDED,
    DecisionKind,
    MagicLampState,
    Phase,
)

#: rulebook, "How do I count my points?": 5 bonus points per strict stone majority.
MAJORITY_BONUS = 5
#: rulebook, "My Precious" variant: the ring is worth 5 points at the end.
RING_BONUS = 5
#: rulebook, "My Precious": the ring needs a full draw with the die's highest face.
RING_FACE = 6
#: rulebook, "Make your dreams come true!": up to three wishes, the third is forced.
MAX_WISHES = 3

# Enum members as module constants: an enum class attribute lookup costs several times a
# global's on the hot path.
_STONE = CardKind.STONE
_JEWEL = CardKind.JEWEL
_TALISMAN = CardKind.TALISMAN
_SORCERER = CardKind.SORCERER
_SETTING = Phase.SETTING
_RACE = Phase.RACE
_RESOLVE = Phase.RESOLVE
_DECIDE_DRAW = DecisionKind.DRAW
_DECIDE_WISH = DecisionKind.WISH
_DECIDE_ANGRY_TARGET = DecisionKind.ANGRY_TARGET
_DECIDE_ANGRY_STEAL = DecisionKind.ANGRY_STEAL
_NUM_JEWELS = len(JEWELS)
_NUM_SLOTS = len(METALS) * len(JEWELS)

# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Card ownership
# ---------------------------------------------------------------------------------------------


def real_stones(state: MagicLampState, player: int, stone_type: int) -> int:
    stone_of = state.comp.stone_of
    return sum(1 for c in state.holdings[player] if stone_of[c] == stone_type)


def stone_count(state: MagicLampState, player: int, stone_type: int) -> int:
    """Stones of a type for majorities: real stones plus talismans placed on that type."""
    return _stone_counts(state, player)[stone_type]


def _stone_counts(state: MagicLampState, player: int) -> list[int]:
    """``stone_count`` for every stone type at once (one walk over the holdings)."""
    comp = state.comp
    kinds = comp.kinds
    stone_of = comp.stone_of
    talisman_on = state.talisman_on
    counts = [0] * len(comp.stone_types)
    for c in state.holdings[player]:
        t = stone_of[c]
        if t < 0 and kinds[c] is _TALISMAN:
            t = talisman_on.get(c, LONE)
        if 0 <= t < len(counts):
            counts[t] += 1
    return counts


def _slot_counts(slot: tuple[int, ...], held: list[int]) -> list[int]:
    """Jewels held per (metal, jewel) slot (``Components.jewel_slot``)."""
    counts = [0] * _NUM_SLOTS
    for c in held:
        s = slot[c]
        if s >= 0:
            counts[s] += 1
    return counts


def _sets_of(counts: list[int]) -> list[int]:
    return [min(counts[m * _NUM_JEWELS : (m + 1) * _NUM_JEWELS]) for m in range(len(METALS))]


def complete_sets(state: MagicLampState, player: int) -> list[int]:
    """Number of complete jewelry sets per metal (three different pieces, same metal)."""
    return _sets_of(_slot_counts(state.comp.jewel_slot, state.holdings[player]))


def protected_cards(state: MagicLampState, player: int) -> set[int]:
    """Cards that can be neither stolen nor exchanged: talismans, and the jewels of complete
    sets (rulebook, "What do the cards you draw do?" and "Talismans"). When a player holds
    a spare piece beyond their sets, the earliest gained pieces form the sets (R9)."""
    comp = state.comp
    kinds = comp.kinds
    slot = comp.jewel_slot
    held = state.holdings[player]
    sets = _sets_of(_slot_counts(slot, held))
    taken = [0] * _NUM_SLOTS
    protected: set[int] = set()
    for c in held:
        if kinds[c] is _TALISMAN:
            protected.add(c)
            continue
        s = slot[c]
        if s >= 0 and taken[s] < sets[s // _NUM_JEWELS]:
            taken[s] += 1
            protected.add(c)
    return protected


def stealable_cards(state: MagicLampState, player: int) -> list[int]:
    """Jewels and stones that may be stolen or exchanged, in holding order (everything
    ``protected_cards`` leaves, less talismans and Sorcerers)."""
    comp = state.comp
    tradeable = comp.tradeable
    slot = comp.jewel_slot
    held = state.holdings[player]
    out = [c for c in held if tradeable[c]]
    if len(out) < _NUM_JEWELS:
        return out  # too few cards for a complete set, so nothing is protected
    sets = _sets_of(_slot_counts(slot, out))
    if not any(sets):
        return out
    # The earliest gained pieces of each complete set are protected (R9).
    taken = [0] * _NUM_SLOTS
    unprotected: list[int] = []
    for c in out:
        s = slot[c]
        if s >= 0 and taken[s] < sets[s // _NUM_JEWELS]:
            taken[s] += 1
            continue
        unprotected.append(c)
    return unprotected


def _lose_card(state: MagicLampState, player: int, card_id: int) -> None:
    """Remove a card from a player; talismans on a stone type they no longer hold are left
    alone for good (rulebook, Talismans: "the talisman is left alone")."""
    state.holdings[player].remove(card_id)
    stone = state.comp.stone_of[card_id]
    if stone >= 0:  # a stone card
        if real_stones(state, player, stone) > 0:
            return
        for t, on in state.talisman_on.items():
            if on == stone and t in state.holdings[player]:
                state.talisman_on[t] = LONE
                state.log("talisman_alone", player=player, card=t)


def _gain_card(state: MagicLampState, player: int, card_id: int) -> None:
    state.holdings[player].append(card_id)
    if state.comp.kinds[card_id] is _TALISMAN:
        state.agenda.insert(0, ("talisman", player, card_id))


def _pop_chest(state: MagicLampState, chest: int) -> int:
    card_id = state.decks[chest].pop()
    for per in state.known_top:
        if per[chest]:
            del per[chest][0]
    return card_id


# ---------------------------------------------------------------------------------------------
# Applying actions
# ---------------------------------------------------------------------------------------------


def apply_action(state: MagicLampState, player: int, action: int) -> None:
    phase = state.phase
    if phase is _SETTING:
        chest, face = divmod(action - A.SET_BASE, A.FACES)  # A.decode_set, inlined
        placed = state.dice[player]
        placed.append([chest, face + 1])
        # Even that a seat has set its die is secret until the reveal (views and
        # determinization agree): only the seat itself is told.
        state.log("die_set", visible_to=ONE_SEAT[player], player=player)
        if len(placed) >= state.params.dice_per_player:
            state.waiting = state.waiting - ONE_SEAT[player]
            if not state.waiting:
                _reveal(state)
    elif phase is _RACE:
        state.rub[player] = NO_RUB if action == A.NO_RUB else A.rub_ms(action)
        # Whether a seat has answered is secret: an early answer would betray a rub.
        state.log("race_answered", visible_to=ONE_SEAT[player], player=player)
        state.waiting = state.waiting - ONE_SEAT[player]
        if not state.waiting:
            _resolve_race(state)
    else:
        decision = state.pending
        assert decision is not None
        state.pending = None
        _HANDLERS[decision[0]](state, player, action, decision[3])
        _run(state)


def _reveal(state: MagicLampState) -> None:
    """rulebook, "Simultaneous Reveal": every die is shown at once."""
    state.log(
        "reveal",
        dice=[[{"chest": CHESTS[c], "face": f} for c, f in ds] for ds in state.dice],
        shared_faces=sorted(shared_faces(state)),
    )
    state.phase = _RACE
    state.rub = [UNDECIDED] * state.num_players
    state.waiting = ALL_SEATS[state.num_players]


def shared_faces(state: MagicLampState) -> set[int]:
    """Faces shown by two or more different players. A player's own pair never counts
    (rulebook, 2 players: two dice with the same face do not let you rub)."""
    first_owner: dict[int, int] = {}
    shared: set[int] = set()
    for p, ds in enumerate(state.dice):
        for _, f in ds:
            if first_owner.setdefault(f, p) != p:
                shared.add(f)
    return shared


def may_rub(state: MagicLampState, player: int) -> bool:
    """Whether the player has a face shared with another player (a rub is no mistake)."""
    shared = shared_faces(state)
    return any(f in shared for _, f in state.dice[player])


def _resolve_race(state: MagicLampState) -> None:
    """rulebook, "Rub the lamp!": for each shared face, the fastest of its players who rubbed
    summons the Genie; lower faces wish first. A player summons at most once per turn
    (rulebook, 2 players; R4). Equal reaction times are broken by the game's RNG (R5)."""
    shared = sorted(shared_faces(state))
    faces = [[f for _, f in ds] for ds in state.dice]
    rubbed = {p: ms for p, ms in enumerate(state.rub) if ms >= 0}  # ascending seats
    legit = {p for p, fs in enumerate(faces) if any(f in shared for f in fs)}
    mistaken = sorted((p for p in rubbed if p not in legit), key=lambda p: (rubbed[p], p))
    summoners: list[int] = []
    races: list[dict[str, Any]] = []
    for f in shared:
        candidates = [p for p in rubbed if p not in summoners and f in faces[p]]
        if not candidates:
            races.append({"face": f, "winner": None})
            continue
        best = min(rubbed[p] for p in candidates)
        tied = [p for p in candidates if rubbed[p] == best]
        winner = tied[0] if len(tied) == 1 else state.rng.choice(tied)
        summoners.append(winner)
        races.append({"face": f, "winner": winner, "tie": tied if len(tied) > 1 else None})
    state.summoners = summoners
    state.race_result = {
        "rubs": {str(p): ms for p, ms in rubbed.items()},
        "races": races,
        "mistaken": mistaken,
    }
    state.log("race", **state.race_result)
    state.agenda = [("angry", p) for p in mistaken]
    state.agenda += [("wish", p) for p in summoners]
    state.agenda += [("search", c) for c in range(len(CHESTS))]
    state.agenda.append(("end_turn",))
    state.phase = _RESOLVE
    _run(state)


# ---------------------------------------------------------------------------------------------
# The agenda: tasks run in order until one needs a decision
# ---------------------------------------------------------------------------------------------


def _decide(
    state: MagicLampState,
    kind: DecisionKind,
    player: int,
    options: tuple[int, ...],
    ctx: tuple[Any, ...] = (),
) -> None:
    """Ask ``player`` to choose among ``options``. A choice with a single option is no
    choice: it is applied at once (R11), so records hold only real decisions."""
    if len(options) == 1:
        _HANDLERS[kind](state, player, options[0], ctx)
    else:
        state.pending = (kind, player, tuple(sorted(options)), ctx)


def _run(state: MagicLampState) -> None:
    while state.pending is None and not state.over and state.phase is _RESOLVE:
        task = state.agenda.pop(0)
        _TASKS[task[0]](state, *task[1:])


def _task_angry(state: MagicLampState, rubber: int) -> None:
    """rulebook, "What if I rubbed the lamp by mistake?": the rubber names an opponent, who
    takes a card of their choice from the rubber. Nothing stealable: nothing happens (R3)."""
    if not stealable_cards(state, rubber):
        state.log("genie_calm", player=rubber, reason="nothing to steal")
        return
    opponents = tuple([A.TARGET_BASE + o for o in range(state.num_players) if o != rubber])
    _decide(state, _DECIDE_ANGRY_TARGET, rubber, opponents, (rubber,))


def _on_angry_target(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    thief = action - A.TARGET_BASE
    rubber = ctx[0]
    state.log("genie_angry", player=rubber, thief=thief)
    options = tuple([A.CARD_BASE + c for c in stealable_cards(state, rubber)])
    _decide(state, _DECIDE_ANGRY_STEAL, thief, options, (rubber,))


def _on_angry_steal(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    card_id = action - A.CARD_BASE
    _lose_card(state, ctx[0], card_id)
    _gain_card(state, player, card_id)
    state.log("steal", thief=player, victim=ctx[0], card=state.comp.card_json(card_id))


def _task_wish(state: MagicLampState, summoner: int, wish: int = 1) -> None:
    """rulebook, "Make your dreams come true!": draw the top Lamp card and keep it or not."""
    lamp_id = state.lamp_deck.pop()
    state.lamp_known = min(state.lamp_known, len(state.lamp_deck))
    state.log("wish", player=summoner, wish=wish, lamp=state.comp.lamp_json(lamp_id))
    options = (A.ACCEPT,) if wish >= MAX_WISHES else (A.ACCEPT, A.REJECT)
    _decide(state, _DECIDE_WISH, summoner, options, (lamp_id, wish))


def _lamp_under(state: MagicLampState, lamp_id: int) -> None:
    state.lamp_deck.insert(0, lamp_id)
    state.lamp_known += 1


def _on_wish(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    lamp_id, wish = ctx
    _lamp_under(state, lamp_id)
    if action == A.REJECT:
        state.log("wish_rejected", player=player, wish=wish)
        state.agenda.insert(0, ("wish", player, wish + 1))
        return
    state.log("wish_granted", player=player, wish=wish, forced=wish >= MAX_WISHES)
    _start_effect(state, player, lamp_id)


# -- Lamp card effects -----------------------------------------------------------------------


def _start_effect(state: MagicLampState, player: int, lamp_id: int) -> None:
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
        _decide(state, DecisionKind.EFFECT_CHEST, player, options, (lamp_id,))
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
        _decide(state, DecisionKind.EFFECT_CARD, player, options, ("steal",))
    elif effect is EffectKind.SWAP:
        own = stealable_cards(state, player)
        theirs = [
            c for o in range(state.num_players) if o != player for c in stealable_cards(state, o)
        ]
        if not own or not theirs:
            state.log("effect_fizzles", player=player, reason="nothing to exchange")
            return
        _decide(state, DecisionKind.SWAP_OWN, player, tuple(A.card(c) for c in sorted(own)))
    elif effect is EffectKind.RETRIEVE:
        state.agenda.insert(0, ("retrieve", player, lamp.count, "lamp"))
    elif effect in (EffectKind.SET_DIE, EffectKind.MOVE_DIE):
        dice_chests = tuple(A.chest(c) for c, _ in state.dice[player])
        _decide(state, DecisionKind.EFFECT_DIE, player, dice_chests, (lamp_id,))
    elif effect is EffectKind.WARD:
        state.ward[player] += lamp.count
        state.log("ward", player=player, scorpions=lamp.count)
    else:  # pragma: no cover - EffectKind is closed
        raise AssertionError(effect)


def _on_effect_chest(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
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
        card_id = _pop_chest(state, chest)
        state.log(
            "lamp_draw", player=player, chest=CHESTS[chest], card=state.comp.card_json(card_id)
        )
        _gain_card(state, player, card_id)
        if state.comp.cards[card_id].kind is CardKind.SORCERER:
            state.cave_closed = True
            _end_game(state, reason="sorcerer drawn with a Lamp card")
            return


def _on_effect_card(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    card_id = action - A.CARD_BASE
    victim = state.holder_of(card_id)
    assert victim is not None
    _lose_card(state, victim, card_id)
    _gain_card(state, player, card_id)
    state.log("steal", thief=player, victim=victim, card=state.comp.card_json(card_id))


def _on_swap_own(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    theirs = sorted(
        c for o in range(state.num_players) if o != player for c in stealable_cards(state, o)
    )
    _decide(
        state,
        DecisionKind.SWAP_THEIRS,
        player,
        tuple(A.card(c) for c in theirs),
        (action - A.CARD_BASE,),
    )


def _on_swap_theirs(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    given, taken = ctx[0], action - A.CARD_BASE
    other = state.holder_of(taken)
    assert other is not None
    # An exchange is one move: both gains come first, so a talisman is left alone only if
    # its owner ends the exchange without a stone of its type (not for a ruby-for-ruby swap).
    _gain_card(state, player, taken)
    _gain_card(state, other, given)
    _lose_card(state, player, given)
    _lose_card(state, other, taken)
    state.log(
        "swap",
        player=player,
        other=other,
        gave=state.comp.card_json(given),
        took=state.comp.card_json(taken),
    )


def _on_effect_die(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    lamp = state.comp.lamp_cards[ctx[0]]
    die_chest = action - A.CHEST_BASE
    if lamp.effect is EffectKind.SET_DIE:
        options = tuple(A.face(f) for f in range(1, A.FACES + 1))
        _decide(state, DecisionKind.EFFECT_FACE, player, options, (die_chest,))
    else:
        occupied = {c for c, _ in state.dice[player]}
        options = tuple(A.chest(c) for c in range(len(CHESTS)) if c not in occupied)
        _decide(state, DecisionKind.EFFECT_MOVE, player, options, (die_chest,))


def _die_on(state: MagicLampState, player: int, chest: int) -> list[int]:
    for die in state.dice[player]:
        if die[0] == chest:
            return die
    raise AssertionError("decision options only name the player's own dice")


def _on_effect_face(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    die = _die_on(state, player, ctx[0])
    die[1] = action - A.FACE_BASE + 1
    state.log("die_changed", player=player, chest=CHESTS[die[0]], face=die[1])


def _on_effect_move(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    die = _die_on(state, player, ctx[0])
    die[0] = action - A.CHEST_BASE
    state.log("die_moved", player=player, chest=CHESTS[die[0]], face=die[1])


def _task_retrieve(state: MagicLampState, player: int, count: int, why: str) -> None:
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
    _decide(state, DecisionKind.RETRIEVE, player, options, (why,))


def _on_retrieve(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    card_id = action - A.CARD_BASE
    state.discard.remove(card_id)
    _gain_card(state, player, card_id)
    state.log("retrieve", player=player, card=state.comp.card_json(card_id), source=ctx[0])


# -- Searching the chests --------------------------------------------------------------------


def chest_drawer(dice_on_chest: list[tuple[int, int]]) -> int | None:
    """Who searches a chest: the lowest face that nobody else shows on that chest.

    rulebook, "Search the Chests": tied players cancel each other and the lowest *untied*
    value draws, even if higher than the tie (the "Maurice" case). ``dice_on_chest`` is
    (player, face) pairs; returns the player or None.
    """
    faces = [face for _, face in dice_on_chest]
    for face in sorted(set(faces)):
        if faces.count(face) == 1:
            return dice_on_chest[faces.index(face)][0]
    return None


def dice_on(state: MagicLampState, chest: int) -> list[tuple[int, int]]:
    return [(p, f) for p, ds in enumerate(state.dice) for c, f in ds if c == chest]


def _task_search(state: MagicLampState, chest: int) -> None:
    on_chest = dice_on(state, chest)
    drawer = chest_drawer(on_chest)
    state.log(
        "search",
        chest=CHESTS[chest],
        dice=[{"player": p, "face": f} for p, f in on_chest],
        drawer=drawer,
    )
    if drawer is None:
        return
    if not state.decks[chest]:
        # R2: an empty chest has nothing to give.
        state.log("chest_empty", chest=CHESTS[chest])
        return
    face = next(f for p, f in on_chest if p == drawer)
    state.draw_ctx = [drawer, chest, face, [], 0]
    _decide(state, _DECIDE_DRAW, drawer, (A.DRAW, A.STOP))


def is_bust(scorpions: int, face: int) -> bool:
    """rulebook, "Scorpions!": the scorpions drawn must stay strictly below the die value."""
    return scorpions >= face


def _on_draw(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    draw = state.draw_ctx
    assert draw is not None
    drawer, chest, face, drawn, _ = draw
    if action == A.STOP:
        _finish_draw(state, stopped=True)
        return
    card_id = _pop_chest(state, chest)
    card = state.comp.cards[card_id]
    drawn.append(card_id)
    absorbed = min(state.ward[drawer], card.scorpions)
    state.ward[drawer] -= absorbed
    draw[4] += card.scorpions - absorbed
    state.log(
        "draw",
        player=drawer,
        chest=CHESTS[chest],
        card=state.comp.card_json(card_id),
        scorpions=draw[4],
        warded=absorbed,
    )
    if card.kind is _SORCERER:
        # R1: the Sorcerer closes the cave (the game ends at the end of this turn); it counts
        # as one of the cards drawn and the player may go on drawing.
        state.cave_closed = True
        state.log("cave_closed", player=drawer, chest=CHESTS[chest])
    if is_bust(draw[4], face):
        state.discard.extend(drawn)
        state.log(
            "bust",
            player=drawer,
            chest=CHESTS[chest],
            cards=[state.comp.card_json(c) for c in drawn],
        )
        state.draw_ctx = None
        return
    if len(drawn) >= face or not state.decks[chest]:
        _finish_draw(state, stopped=False)
        return
    _decide(state, _DECIDE_DRAW, drawer, (A.DRAW, A.STOP))


def _finish_draw(state: MagicLampState, stopped: bool) -> None:
    draw = state.draw_ctx
    assert draw is not None
    drawer, chest, face, drawn, _ = draw
    state.draw_ctx = None
    state.log(
        "draw_kept",
        player=drawer,
        chest=CHESTS[chest],
        count=len(drawn),
        stopped=stopped,
        cards=[state.comp.card_json(c) for c in drawn],
    )
    # Talismans are placed once the draw is over (rulebook, Talismans; R20): queue them first,
    # then the ring, in the order the cards were drawn.
    kinds = state.comp.kinds
    tasks: list[tuple[Any, ...]] = [("talisman", drawer, c) for c in drawn if kinds[c] is _TALISMAN]
    if state.params.my_precious and face == RING_FACE and len(drawn) == RING_FACE:
        tasks.append(("ring", drawer))
    state.holdings[drawer].extend(drawn)
    state.agenda[:0] = tasks


def _task_talisman(state: MagicLampState, player: int, card_id: int) -> None:
    """rulebook, Talismans: place it on a type of stone you have; with no stone it stays
    alone for good and is worth its 1 point only."""
    if card_id not in state.holdings[player] or card_id in state.talisman_on:
        return
    stone_of = state.comp.stone_of
    held_types = {stone_of[c] for c in state.holdings[player]}
    types = [t for t in range(len(state.comp.stone_types)) if t in held_types]
    if not types:
        state.talisman_on[card_id] = LONE
        state.log("talisman_alone", player=player, card=card_id)
        return
    _decide(state, DecisionKind.TALISMAN, player, tuple(A.stone(t) for t in types), (card_id,))


def _on_talisman(state: MagicLampState, player: int, action: int, ctx: tuple[Any, ...]) -> None:
    stone_type = action - A.STONE_BASE
    state.talisman_on[ctx[0]] = stone_type
    state.log(
        "talisman_placed", player=player, card=ctx[0], stone=state.comp.stone_types[stone_type]
    )


def _task_ring(state: MagicLampState, player: int) -> None:
    """rulebook, "My Precious": a full draw of six with a 6 takes the ring (from its holder if
    need be) and retrieves a card from the discard pile, again on every repeat."""
    previous = state.ring
    state.ring = player
    state.log("ring", player=player, previous=None if previous == NO_RING else previous)
    _task_retrieve(state, player, 1, "ring")


def _task_end_turn(state: MagicLampState) -> None:
    """rulebook, End of the turn: a Sorcerer drawn this turn closes the cave."""
    if state.cave_closed:
        _end_game(state, reason="sorcerer drawn")
        return
    if state.turn >= state.params.max_turns:
        _end_game(state, reason=f"turn limit {state.params.max_turns} reached")
        return
    state.turn += 1
    state.phase = _SETTING
    n = state.num_players
    state.dice = [[] for _ in range(n)]
    state.rub = [UNDECIDED] * n
    state.waiting = ALL_SEATS[n]
    state.ward = [0] * n
    state.summoners = []
    state.race_result = None
    state.log("turn", turn=state.turn)


def _end_game(state: MagicLampState, reason: str) -> None:
    state.over = True
    state.phase = Phase.OVER
    state.waiting = NOBODY
    state.pending = None
    state.draw_ctx = None
    state.agenda = []
    # R7: a talisman still waiting for its place when the game ends at once stays alone.
    kinds = state.comp.kinds
    for held in state.holdings:
        for c in held:
            if kinds[c] is _TALISMAN and c not in state.talisman_on:
                state.talisman_on[c] = LONE
    scores = score_breakdowns(state)
    state.log("game_over", reason=reason, scores=scores)


_TASKS: dict[str, Any] = {
    "angry": _task_angry,
    "wish": _task_wish,
    "retrieve": _task_retrieve,
    "search": _task_search,
    "talisman": _task_talisman,
    "ring": _task_ring,
    "end_turn": _task_end_turn,
}

_HANDLERS: dict[DecisionKind, Any] = {
    DecisionKind.ANGRY_TARGET: _on_angry_target,
    DecisionKind.ANGRY_STEAL: _on_angry_steal,
    DecisionKind.WISH: _on_wish,
    DecisionKind.EFFECT_CHEST: _on_effect_chest,
    DecisionKind.EFFECT_DIE: _on_effect_die,
    DecisionKind.EFFECT_FACE: _on_effect_face,
    DecisionKind.EFFECT_MOVE: _on_effect_move,
    DecisionKind.EFFECT_CARD: _on_effect_card,
    DecisionKind.SWAP_OWN: _on_swap_own,
    DecisionKind.SWAP_THEIRS: _on_swap_theirs,
    DecisionKind.DRAW: _on_draw,
    DecisionKind.TALISMAN: _on_talisman,
    DecisionKind.RETRIEVE: _on_retrieve,
}


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------


def score_breakdowns(state: MagicLampState) -> list[dict[str, int]]:
    """rulebook, "How do I count my points?": 1 per card except the Sorcerer, set bonuses,
    5 per strict stone majority (none on a tie), and the ring's 5 in "My Precious"."""
    comp = state.comp
    n = state.num_players
    counts = [_stone_counts(state, p) for p in range(n)]
    kinds = comp.kinds
    result = []
    for p in range(n):
        b: dict[str, int] = {
            "cards": sum(1 for c in state.holdings[p] if kinds[c] is not _SORCERER)
        }
        sets = complete_sets(state, p)
        for m, metal in enumerate(METALS):
            b[f"set_{metal}"] = sets[m] * comp.set_bonus[m]
        for t, name in enumerate(comp.stone_types):
            mine = counts[p][t]
            best_other = max((counts[q][t] for q in range(n) if q != p), default=0)
            b[f"majority_{name}"] = MAJORITY_BONUS if mine > 0 and mine > best_other else 0
        b["ring"] = RING_BONUS if state.params.my_precious and state.ring == p else 0
        result.append(b)
    return result


# ---------------------------------------------------------------------------------------------
# Determinization
# ---------------------------------------------------------------------------------------------


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
    # than ``rng.shuffle`` (one C call per key instead of Python-level index draws).
    key = _random_key(rng)
    sorcerers = new.comp.sorcerers
    for c, deck in enumerate(new.decks):
        # The seat's peeked cards sit on top (the end of the list); the rest is unseen.
        end = len(deck) - len(new.known_top[player][c])
        at = deck.index(sorcerers[c]) if sorcerers[c] in deck else -1
        if 0 <= at < end:
            cards = sorted(deck[:at] + deck[at + 1 : end], key=key)
            deck[:at] = cards[:at]
            deck[at + 1 : end] = cards[at:]
        else:
            deck[:end] = sorted(deck[:end], key=key)
        for q in range(new.num_players):
            if q != player and new.known_top[q][c]:
                k = len(new.known_top[q][c])
                new.known_top[q][c] = deck[: -k - 1 : -1]
    # The Lamp pile is bottom first: its bottom ``lamp_known`` cards went under in view of all.
    known = new.lamp_known
    new.lamp_deck[known:] = sorted(new.lamp_deck[known:], key=key)
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
