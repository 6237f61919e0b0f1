"""Shared helpers for the Magic Lamp tests: building scenarios and driving them.

Card ids depend on the components file, which may be rebalanced, so nothing here hard-codes
an id or a count: helpers *find* cards by what they are ("a bronze stone with no scorpion",
"a gold ring") and fail with a clear message when the data has none. Tests that need cards
the default set may lack use ``custom_components()``, a small file written by this module.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from arabesque.core import get_game
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import (
    CHESTS,
    JEWELS,
    METALS,
    CardKind,
    Components,
    EffectKind,
    load_components,
)
from arabesque.games.magic_lamp.params import MagicLampParams
from arabesque.games.magic_lamp.state import MagicLampState, Phase

SPEC = get_game("magic-lamp")
BRONZE, SILVER, GOLD = 0, 1, 2


# -- games ------------------------------------------------------------------------------------


def params(n: int = 3, **options: Any) -> MagicLampParams:
    p = SPEC.make_params(num_players=n, **options)
    assert isinstance(p, MagicLampParams)
    return p


def new_game(
    n: int = 3,
    *,
    seed: int = 1,
    decks: Mapping[str, Sequence[int]] | None = None,
    starting: Sequence[Sequence[int]] | None = None,
    lamp: Sequence[int] | None = None,
    **options: Any,
) -> MagicLampState:
    """A new game; ``decks`` fixes chest tops (top first), ``lamp`` the Lamp pile top."""
    arrangement: dict[str, Any] = {}
    if decks:
        arrangement["decks"] = {name: list(ids) for name, ids in decks.items()}
    if starting is not None:
        arrangement["starting"] = [list(s) for s in starting]
    if lamp is not None:
        arrangement["lamp_deck"] = list(lamp)
    state = SPEC.new_game(params(n, **options), seed=seed, arrangement=arrangement or None)
    assert isinstance(state, MagicLampState)
    return state


def default_comp() -> Components:
    return load_components(None)


# -- finding cards ----------------------------------------------------------------------------


def _index(value: int | str | None, names: Sequence[str]) -> int | None:
    if value is None or isinstance(value, int):
        return value
    return list(names).index(value)


def find_cards(
    comp: Components,
    *,
    kind: CardKind | str | Sequence[CardKind | str] | None = None,
    chest: int | str | None = None,
    stone: int | str | None = None,
    jewel: int | str | None = None,
    metal: int | str | None = None,
    scorpions: int | None = None,
    max_scorpions: int | None = None,
    min_scorpions: int | None = None,
    starting: bool | None = None,
    exclude: Iterable[int] = (),
) -> list[int]:
    """Ids of every card matching all the given criteria, in id order. ``kind`` may list
    several kinds; ``"treasure"`` means a stone or a jewel (what can be stolen)."""
    if kind == "treasure":
        kind = (CardKind.STONE, CardKind.JEWEL)
    kinds = (
        None
        if kind is None
        else {CardKind(kind)}
        if isinstance(kind, str)
        else {CardKind(k) for k in kind}
    )
    chest_i = _index(chest, CHESTS)
    stone_i = _index(stone, comp.stone_types)
    jewel_i = _index(jewel, JEWELS)
    metal_i = _index(metal, METALS)
    skip = set(exclude)
    found = []
    for card in comp.cards:
        if card.id in skip:
            continue
        if kinds is not None and card.kind not in kinds:
            continue
        if chest_i is not None and card.chest != chest_i:
            continue
        if stone_i is not None and card.stone != stone_i:
            continue
        if jewel_i is not None and card.jewel != jewel_i:
            continue
        if metal_i is not None and card.metal != metal_i:
            continue
        if scorpions is not None and card.scorpions != scorpions:
            continue
        if max_scorpions is not None and card.scorpions > max_scorpions:
            continue
        if min_scorpions is not None and card.scorpions < min_scorpions:
            continue
        if starting is not None and (card.id in comp.starting_cards) != starting:
            continue
        found.append(card.id)
    return found


def with_components(finder: Any) -> tuple[str | None, Components, Any]:
    """``(components param, components, finder(components))`` for the default components if
    they have what ``finder`` looks for, else for the custom test file (whose content is
    known). ``finder`` raises LookupError or StopIteration when it finds nothing."""
    for path in (None, custom_components()):
        comp = load_components(path)
        try:
            return path, comp, finder(comp)
        except (LookupError, StopIteration):
            continue
    raise LookupError("neither the default nor the custom components have the cards needed")


def find_card(comp: Components, **criteria: Any) -> int:
    found = find_cards(comp, **criteria)
    if not found:
        raise LookupError(f"the components have no card with {criteria}")
    return found[0]


def find_n(comp: Components, n: int, **criteria: Any) -> list[int]:
    found = find_cards(comp, **criteria)
    if len(found) < n:
        raise LookupError(f"need {n} cards with {criteria}, the components have {len(found)}")
    return found[:n]


def chest_stones(comp: Components, chest: int, n: int, exclude: Iterable[int] = ()) -> list[int]:
    """``n`` scorpion-free stones or jewels of a chest (safe to draw with any die)."""
    skip = set(exclude)
    found = [
        c
        for c in find_cards(comp, chest=chest, scorpions=0, exclude=skip)
        if comp.cards[c].kind in (CardKind.STONE, CardKind.JEWEL)
    ]
    if len(found) < n:
        raise LookupError(f"need {n} scorpion-free stones/jewels in {CHESTS[chest]}")
    return found[:n]


def safe_run(
    comp: Components, chest: int, n: int, below: int, exclude: Iterable[int] = ()
) -> list[int]:
    """``n`` stones/jewels of a chest whose scorpions total strictly less than ``below``,
    fewest scorpions first."""
    skip = set(exclude)
    pool = sorted(
        (
            c
            for c in comp.chest_cards[chest]
            if c not in skip and comp.cards[c].kind in (CardKind.STONE, CardKind.JEWEL)
        ),
        key=lambda c: (comp.cards[c].scorpions, c),
    )[:n]
    if len(pool) < n or sum(comp.cards[c].scorpions for c in pool) >= below:
        raise LookupError(f"no {n} {CHESTS[chest]} cards with fewer than {below} scorpions")
    return pool


def stone_type(comp: Components, name: str) -> int:
    return comp.stone_types.index(name)


def lamp_card(comp: Components, effect: EffectKind | str, **fields: Any) -> int:
    """Id of the first Lamp card with this effect (and ``chest``/``count`` when given;
    ``chest`` may be a chest name, or None for "the wisher chooses")."""
    effect = EffectKind(effect)
    for lamp in comp.lamp_cards:
        if lamp.effect is not effect:
            continue
        if "chest" in fields and lamp.chest != _index(fields["chest"], CHESTS):
            continue
        if "count" in fields and lamp.count != fields["count"]:
            continue
        if "min_count" in fields and lamp.count < fields["min_count"]:
            continue
        return lamp.id
    raise LookupError(f"the components have no Lamp card {effect.value} with {fields}")


def lamp_cards(comp: Components, effect: EffectKind | str) -> list[int]:
    effect = EffectKind(effect)
    return [lamp.id for lamp in comp.lamp_cards if lamp.effect is effect]


# -- direct setups (used only where real actions cannot reach a position) ---------------------


def take(state: MagicLampState, card_id: int) -> None:
    """Remove a card from wherever it lies (a deck, the discard pile or a player)."""
    for deck in state.decks:
        if card_id in deck:
            deck.remove(card_id)
            return
    if card_id in state.discard:
        state.discard.remove(card_id)
        return
    for held in state.holdings:
        if card_id in held:
            held.remove(card_id)
            return
    raise AssertionError(f"card {card_id} is nowhere")


def give(state: MagicLampState, player: int, *card_ids: int) -> None:
    """Move cards into a player's holdings (in this order), wherever they were."""
    for cid in card_ids:
        take(state, cid)
        state.holdings[player].append(cid)


def clear_holdings(state: MagicLampState, *players: int) -> None:
    """Move the players' cards (all players by default) to the discard pile."""
    for p in players or range(state.num_players):
        state.discard.extend(state.holdings[p])
        state.holdings[p] = []


def set_holdings(state: MagicLampState, holdings: Mapping[int, Sequence[int]]) -> None:
    """Replace the listed players' cards; their old cards go to the discard pile."""
    clear_holdings(state, *holdings)
    for p, cids in holdings.items():
        give(state, p, *cids)


def place_talisman(state: MagicLampState, talisman: int, stone: int) -> None:
    state.talisman_on[talisman] = stone


def keep_only_on_top(state: MagicLampState, chest: int, top: Sequence[int]) -> None:
    """Leave exactly ``top`` (top first) in a chest; its other cards go to the discard pile."""
    deck = state.decks[chest]
    state.discard.extend(c for c in deck if c not in top)
    state.decks[chest] = list(top)[::-1]


# -- driving a game through real actions ------------------------------------------------------


def act(state: MagicLampState, player: int, text: str) -> None:
    state.apply(player, state.parse_action(text))


def set_dice(
    state: MagicLampState, dice: Mapping[int, tuple[str, int] | Sequence[tuple[str, int]]]
) -> None:
    """Every player sets their dice: ``{player: ("gold", 4)}`` or a list of two at 2 players."""
    for p, spec in dice.items():
        pairs = [spec] if isinstance(spec[0], str) else spec
        for chest_name, face in pairs:  # type: ignore[misc]
            act(state, p, f"set {chest_name} {face}")


def answer_race(state: MagicLampState, rubs: Mapping[int, int] | None = None) -> None:
    """Every player answers the race: ``rubs`` gives reaction times, the others do not rub."""
    rubs = rubs or {}
    for p in range(state.num_players):
        act(state, p, f"rub {rubs[p]}ms" if p in rubs else "no-rub")


def turn(
    state: MagicLampState,
    dice: Mapping[int, tuple[str, int] | Sequence[tuple[str, int]]],
    rubs: Mapping[int, int] | None = None,
) -> None:
    """Set everyone's dice and answer the race; the state is then at its first decision."""
    assert state.phase is Phase.SETTING, state.phase_description()
    set_dice(state, dice)
    assert state.phase is Phase.RACE
    answer_race(state, rubs)


def pending(state: MagicLampState) -> tuple[str, int, list[str]]:
    """The decision waited for, through the core's decision model: (kind, player, option
    texts)."""
    assert state.pending is not None, f"no decision pending ({state.phase_description()})"
    (player,) = state.to_act()
    decision = state.decision(player)
    assert decision is not None
    return decision.kind_name, player, [state.action_to_str(a) for a in decision.options]


def choose(state: MagicLampState, text: str, *, player: int | None = None, kind: str = "") -> None:
    """Answer the pending decision (checking who decides and what kind, when given)."""
    k, who, options = pending(state)
    if player is not None:
        assert who == player, f"expected player {player} to decide, got {who} ({k})"
    if kind:
        assert k == kind, f"expected a {kind} decision, got {k}"
    assert text in options, f"{text!r} not among {options} ({k} by {who})"
    act(state, who, text)


def draw(state: MagicLampState, times: int = 1, *, player: int | None = None) -> None:
    for _ in range(times):
        choose(state, "draw", player=player, kind="draw")


def stop(state: MagicLampState, *, player: int | None = None) -> None:
    choose(state, "stop", player=player, kind="draw")


def stop_all_draws(state: MagicLampState) -> None:
    """Answer every pending draw with ``stop`` until the turn moves on or another kind of
    decision comes up."""
    while state.phase is Phase.RESOLVE and pending(state)[0] == "draw":
        stop(state)


def card_text(card_id: int) -> str:
    return f"card {card_id}"


def card_options(state: MagicLampState) -> set[int]:
    """Card ids among the pending decision's options."""
    assert state.pending is not None
    return {a - A.CARD_BASE for a in state.pending[2] if a >= A.CARD_BASE}


def events(state: MagicLampState, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    """The data of the events of a kind (as seen by ``seat``; None = every event)."""
    return [
        e.to_json()
        for e in state.events
        if e.kind == kind and (seat is None or e.visible_for(seat))
    ]


def event_kinds(state: MagicLampState) -> list[str]:
    return [e.kind for e in state.events]


# -- whole-state facts ------------------------------------------------------------------------


def card_locations(state: MagicLampState) -> Counter[int]:
    """How many times each card id lies in some zone (each must be exactly once)."""
    where: Counter[int] = Counter()
    for deck in state.decks:
        where.update(deck)
    for held in state.holdings:
        where.update(held)
    where.update(state.discard)
    if state.draw_ctx is not None:
        where.update(state.draw_ctx[3])
    return where


def lamp_locations(state: MagicLampState) -> Counter[int]:
    where: Counter[int] = Counter(state.lamp_deck)
    decision = state.pending
    if decision is not None and decision[0].name == "WISH":
        where[decision[3][0]] += 1
    return where


def assert_conserved(state: MagicLampState) -> None:
    where = card_locations(state)
    everything = Counter(range(state.comp.num_cards))
    assert where == everything, (
        f"cards lost {sorted(everything - where)} or doubled {sorted(where - everything)}"
    )
    lamps = lamp_locations(state)
    assert lamps == Counter(range(len(state.comp.lamp_cards))), f"Lamp cards: {lamps}"


def score(state: MagicLampState, player: int) -> dict[str, int]:
    return dict(state.scores()[player].breakdown)


def view_cards(view: Any) -> set[int]:
    """Ids of every chest/starting card shown anywhere in a view (card entries carry a
    ``scorpions`` field; Lamp cards do not)."""
    found: set[int] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "scorpions" in node and "id" in node and "kind" in node:
                found.add(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(view)
    return found


# -- a small components file with known content -----------------------------------------------

CUSTOM_TOML = """
[meta]
name = "tests: custom components"
stone_types = ["ruby", "emerald", "sapphire", "diamond"]

[meta.set_bonus]
bronze = 6
silver = 8
gold = 10
"""


def _entry(section: str, **fields: Any) -> str:
    lines = [f"[[{section}]]"]
    for key, value in fields.items():
        lines.append(f"{key} = {json.dumps(value)}")
    lines.append('provenance = "assumed: test data"')
    return "\n".join(lines) + "\n"


def _custom_text() -> str:
    parts = [CUSTOM_TOML]
    for chest in CHESTS:
        parts.append(_entry("chest_cards", chest=chest, kind="sorcerer"))
        for stone in ("ruby", "emerald", "sapphire", "diamond"):
            parts.append(_entry("chest_cards", chest=chest, kind="stone", stone=stone, count=3))
            parts.append(_entry("chest_cards", chest=chest, kind="stone", stone=stone, scorpions=2))
        for jewel in JEWELS:
            parts.append(
                _entry("chest_cards", chest=chest, kind="jewel", jewel=jewel, metal=chest, count=2)
            )
        parts.append(_entry("chest_cards", chest=chest, kind="talisman", count=3))
        parts.append(_entry("chest_cards", chest=chest, kind="talisman", scorpions=3))
    parts.append(_entry("starting_cards", stone="ruby", count=2))
    parts.append(_entry("starting_cards", stone="emerald", count=2))
    parts.append(_entry("starting_cards", stone="sapphire", count=2))
    parts.append(_entry("starting_cards", stone="diamond", count=2))
    lamps: list[dict[str, Any]] = [
        {"name": "Bronze Windfall", "effect": "draw_chest", "chest": "bronze", "count": 1},
        {"name": "Open Sesame", "effect": "draw_chest", "chest": "any", "count": 2},
        {"name": "Light Fingers", "effect": "steal"},
        {"name": "Bazaar Trade", "effect": "swap"},
        {"name": "Lost and Found", "effect": "retrieve", "count": 1},
        {"name": "Double Find", "effect": "retrieve", "count": 2},
        {"name": "Crystal Ball", "effect": "peek", "chest": "any", "count": 3},
        {"name": "Gold Glimpse", "effect": "peek", "chest": "gold", "count": 2},
        {"name": "Loaded Die", "effect": "set_die"},
        {"name": "Secret Passage", "effect": "move_die"},
        {"name": "Snake Charmer", "effect": "ward", "count": 2},
    ]
    for lamp in lamps:
        parts.append(_entry("lamp_cards", text=lamp["name"] + ".", **lamp))
    return "\n".join(parts)


def custom_components() -> str:
    """Path of the custom components file (written once per content, in the temp dir)."""
    text = _custom_text()
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"arabesque-tests-components-{digest}.toml"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        tmp = path.with_suffix(f".{id(text)}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return str(path)
