"""Magic Lamp components: the default authored file, and errors for broken files.

The rulebook's counts (Contents and Setup): 3 chests of 25 cards plus one Sorcerer each, 8
starting cards, 25 Lamp cards; stones of 4 types; bronze, silver and gold jewels.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arabesque.core import ComponentsError, get_game
from arabesque.games.magic_lamp.components import (
    CHESTS,
    DEFAULT_FILE,
    JEWELS,
    METALS,
    CardKind,
    EffectKind,
    load_components,
)
from tests.scenarios import _custom_text, custom_components

# -- the default file -------------------------------------------------------------------------


def test_default_file_loads_and_is_cached() -> None:
    comp = load_components(None)
    assert comp is load_components(None)
    assert comp == load_components()
    assert comp.source == "built-in"
    assert len(comp.sha256) == 64
    assert [card.id for card in comp.cards] == list(range(comp.num_cards))
    assert [lamp.id for lamp in comp.lamp_cards] == list(range(len(comp.lamp_cards)))


def test_default_counts_match_the_rulebook() -> None:
    """Contents / Setup: 78 chest cards in 3 chests of 25 plus a Sorcerer each, 8 starting
    cards (precious stones), 25 Lamp cards; set bonuses 6, 8, 10."""
    comp = load_components()
    assert [len(ids) for ids in comp.chest_cards] == [26, 26, 26]
    for c, ids in enumerate(comp.chest_cards):
        assert all(comp.cards[i].chest == c for i in ids)
        sorcerers = [i for i in ids if comp.cards[i].kind is CardKind.SORCERER]
        assert sorcerers == [comp.sorcerer_of(c)]
    assert len(comp.starting_cards) == 8
    assert all(comp.cards[i].kind is CardKind.STONE for i in comp.starting_cards)
    assert all(comp.cards[i].chest is None for i in comp.starting_cards)
    assert len(comp.lamp_cards) == 25
    assert comp.num_cards == 78 + 8
    assert comp.set_bonus == (6, 8, 10)
    assert len(comp.stone_types) == 4 == len(set(comp.stone_types))


def test_default_card_kinds_are_all_present() -> None:
    """The kinds of card the rulebook names: stones of 4 types, jewels (bracelet, ring,
    necklace) in each metal, talismans, and Sorcerers worth nothing."""
    comp = load_components()
    kinds = {card.kind for card in comp.cards}
    assert kinds == set(CardKind)
    stones = {card.stone for card in comp.cards if card.kind is CardKind.STONE}
    assert stones == set(range(4))
    jewels = {(card.metal, card.jewel) for card in comp.cards if card.kind is CardKind.JEWEL}
    assert jewels == {(m, j) for m in range(len(METALS)) for j in range(len(JEWELS))}
    assert all(card.scorpions >= 0 for card in comp.cards)
    effects = {lamp.effect for lamp in comp.lamp_cards}
    assert EffectKind.DRAW_CHEST in effects  # the rulebook's special case names this card


def test_default_every_entry_has_provenance_rulebook_or_assumed() -> None:
    """Every entry says where it comes from: "rulebook: ..." or "assumed: ..."."""
    raw = tomllib.loads(DEFAULT_FILE.read_text(encoding="utf-8"))
    for section in ("chest_cards", "starting_cards", "lamp_cards"):
        for i, entry in enumerate(raw[section]):
            prov = entry.get("provenance", "")
            assert prov.split(":")[0] in ("rulebook", "assumed"), f"{section}[{i + 1}]: {prov!r}"
    comp = load_components()
    for item in (*comp.cards, *comp.lamp_cards):
        assert item.provenance.split(":")[0] in ("rulebook", "assumed")


def test_card_descriptions_and_json() -> None:
    comp = load_components()
    sorcerer = comp.sorcerer_of(0)
    assert comp.describe(sorcerer) == "sorcerer"
    for card in comp.cards:
        data = comp.card_json(card.id)
        assert data["id"] == card.id and data["kind"] == card.kind.value
        assert data["scorpions"] == card.scorpions
        assert data["name"].count("☠") == card.scorpions
        assert json.loads(json.dumps(data)) == data
    for lamp in comp.lamp_cards:
        data = comp.lamp_json(lamp.id)
        assert data["effect"] == lamp.effect.value and data["name"] == lamp.name
        assert data["chest"] in (None, *CHESTS)


def test_custom_file_loads_through_params() -> None:
    path = custom_components()
    spec = get_game("magic-lamp")
    params = spec.make_params(num_players=3, components=path)
    state = spec.new_game(params, seed=1)
    assert state.comp is load_components(path)  # type: ignore[attr-defined]
    assert state.comp.source == path  # type: ignore[attr-defined]


# -- broken files -----------------------------------------------------------------------------


def to_toml(data: dict[str, Any]) -> str:
    """A small TOML writer for the components schema (scalars, tables, arrays of tables)."""

    def is_table_array(value: Any) -> bool:
        return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)

    def inline(value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k} = {inline(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(inline(v) for v in value) + "]"
        return json.dumps(value)

    lines = [
        f"{key} = {inline(value)}"
        for key, value in data.items()
        if not isinstance(value, dict) and not is_table_array(value)
    ]
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"[{key}]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in value.items() if not isinstance(v, dict)]
            for k, v in value.items():
                if isinstance(v, dict):
                    lines.append(f"[{key}.{k}]")
                    lines += [f"{kk} = {json.dumps(vv)}" for kk, vv in v.items()]
        elif is_table_array(value):
            for entry in value:
                lines.append(f"[[{key}]]")
                lines += [f"{k} = {json.dumps(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


def base() -> dict[str, Any]:
    return tomllib.loads(_custom_text())


def first(entries: list[dict[str, Any]], **match: Any) -> dict[str, Any]:
    return next(e for e in entries if all(e.get(k) == v for k, v in match.items()))


def chest_card(d: dict[str, Any], **match: Any) -> dict[str, Any]:
    return first(d["chest_cards"], **match)


def lamp(d: dict[str, Any], effect: str) -> dict[str, Any]:
    return first(d["lamp_cards"], effect=effect)


def rename_stone(d: dict[str, Any], old: str, new: str) -> None:
    d["meta"]["stone_types"] = [new if t == old else t for t in d["meta"]["stone_types"]]
    for section in ("chest_cards", "starting_cards"):
        for entry in d[section]:
            if entry.get("stone") == old:
                entry["stone"] = new


Mutation = Callable[[dict[str, Any]], Any]

BROKEN: list[tuple[str, Mutation, str]] = [
    ("meta is not a table", lambda d: d.update(meta=3), "[meta] must be a table"),
    ("no stone types", lambda d: d["meta"].pop("stone_types"), "missing 'stone_types'"),
    (
        "three stone types",
        lambda d: d["meta"].update(stone_types=["ruby", "emerald", "sapphire"]),
        "stone_types must list 4 names",
    ),
    (
        "stone types that are not names",
        lambda d: d["meta"].update(stone_types=[1, 2, 3, 4]),
        "stone_types must list 4 names",
    ),
    ("no gold set bonus", lambda d: d["meta"]["set_bonus"].pop("gold"), "missing 'gold'"),
    ("no chest cards", lambda d: d.pop("chest_cards"), "missing 'chest_cards'"),
    ("chest cards not a list", lambda d: d.update(chest_cards=5), "'chest_cards' must be a list"),
    (
        "a chest card that is not a table",
        lambda d: d["chest_cards"].insert(0, 7),
        "chest_cards[1]: must be a table",
    ),
    (
        "unknown chest",
        lambda d: chest_card(d, kind="stone").update(chest="copper"),
        "unknown chest 'copper'",
    ),
    (
        "unknown kind",
        lambda d: chest_card(d, kind="stone").update(kind="gem"),
        "unknown kind 'gem'",
    ),
    ("stone without type", lambda d: chest_card(d, kind="stone").pop("stone"), "missing 'stone'"),
    (
        "misspelt stone",
        lambda d: chest_card(d, kind="stone").update(stone="rubyy"),
        "unknown stone 'rubyy'",
    ),
    ("jewel without metal", lambda d: chest_card(d, kind="jewel").pop("metal"), "missing 'metal'"),
    (
        "unknown jewel",
        lambda d: chest_card(d, kind="jewel").update(jewel="crown"),
        "unknown jewel 'crown'",
    ),
    ("zero copies", lambda d: chest_card(d, kind="stone").update(count=0), "count must be >= 1"),
    (
        "negative scorpions",
        lambda d: chest_card(d, kind="stone").update(scorpions=-1),
        "scorpions >= 0",
    ),
    (
        "count that is not an integer",
        lambda d: chest_card(d, kind="stone").update(count=True),
        "'count' must be an integer",
    ),
    (
        "scorpions given as text",
        lambda d: chest_card(d, kind="stone").update(scorpions="two"),
        "'scorpions' must be an integer",
    ),
    (
        "no provenance",
        lambda d: chest_card(d, kind="stone").pop("provenance"),
        "missing 'provenance'",
    ),
    (
        "provenance neither rulebook nor assumed",
        lambda d: chest_card(d, kind="stone").update(provenance="guess: looks right"),
        "provenance must start with 'rulebook' or 'assumed'",
    ),
    (
        "two Sorcerers in a chest",
        lambda d: chest_card(d, kind="sorcerer", chest="silver").update(count=2),
        "chest silver must have exactly one sorcerer card, has 2",
    ),
    (
        "no Sorcerer in a chest",
        lambda d: d["chest_cards"].remove(chest_card(d, kind="sorcerer", chest="gold")),
        "chest gold must have exactly one sorcerer card, has 0",
    ),
    (
        "a chest too small for the Sorcerer's place",
        lambda d: d.update(
            chest_cards=[e for e in d["chest_cards"] if e["chest"] != "gold"]
            + [{"chest": "gold", "kind": "sorcerer", "provenance": "assumed: x"}]
        ),
        "chest gold needs at least 6 cards",
    ),
    ("no starting cards", lambda d: d.pop("starting_cards"), "missing 'starting_cards'"),
    (
        "too few starting cards",
        lambda d: d.update(starting_cards=d["starting_cards"][:2]),
        "need at least 5 starting cards",
    ),
    (
        "starting card of an unknown stone",
        lambda d: d["starting_cards"][0].update(stone="opal"),
        "starting_cards[1]: unknown stone 'opal'",
    ),
    ("no Lamp cards", lambda d: d.pop("lamp_cards"), "missing 'lamp_cards'"),
    (
        "too few Lamp cards",
        lambda d: d.update(lamp_cards=d["lamp_cards"][:2]),
        "need at least 3 Lamp cards",
    ),
    (
        "unknown effect",
        lambda d: lamp(d, "steal").update(effect="teleport"),
        "unknown effect 'teleport'",
    ),
    (
        "a chest on an effect that takes none",
        lambda d: lamp(d, "steal").update(chest="gold"),
        "effect 'steal' takes no chest",
    ),
    (
        "a Lamp draw of no card",
        lambda d: lamp(d, "draw_chest").update(count=0),
        "count must be >= 1",
    ),
    ("zero Lamp copies", lambda d: lamp(d, "ward").update(copies=0), "copies must be >= 1"),
    ("a Lamp card without text", lambda d: lamp(d, "ward").pop("text"), "missing 'text'"),
    (
        "a Lamp card of an unknown chest",
        lambda d: lamp(d, "peek").update(chest="copper"),
        "unknown chest 'copper'",
    ),
    (
        "a starting card that is not a table",
        lambda d: d["starting_cards"].insert(0, 7),
        "starting_cards[1]: must be a table",
    ),
    (
        "a Lamp card that is not a table",
        lambda d: d["lamp_cards"].insert(1, "wish"),
        "lamp_cards[2]: must be a table",
    ),
    (
        "no copies of a starting card",
        lambda d: d["starting_cards"][0].update(count=0),
        "starting_cards[1]: count must be >= 1",
    ),
    (
        "negative copies of a starting card",
        lambda d: d["starting_cards"][0].update(count=-2),
        "starting_cards[1]: count must be >= 1",
    ),
    (
        "a stone type named twice",
        lambda d: rename_stone(d, "diamond", "ruby"),
        "stone_types must list 4 different names",
    ),
    (
        "a misspelt key (the scorpions would silently be 0)",
        lambda d: chest_card(d, kind="stone").update(scorpoins=2),
        "unknown key 'scorpoins'",
    ),
    (
        "a Sorcerer carrying scorpions (R1: it carries none)",
        lambda d: chest_card(d, kind="sorcerer").update(scorpions=1),
        "sorcerer card cannot carry scorpions",
    ),
    (
        "a misspelt Lamp card key",
        lambda d: lamp(d, "ward").update(cuont=3),
        "unknown key 'cuont'",
    ),
    (
        "a stone name of two words (action texts split on spaces: 'stone blue gem')",
        lambda d: rename_stone(d, "diamond", "blue gem"),
        "stone name 'blue gem' is not a single word",
    ),
    (
        "an empty stone name",
        lambda d: rename_stone(d, "diamond", ""),
        "stone name '' is empty",
    ),
    (
        "a card count past the limit (it would be built card by card)",
        lambda d: chest_card(d, kind="stone").update(count=100_000_000),
        "more than 1000 chest and starting cards",
    ),
    (
        "a die-busting number of scorpions",
        lambda d: chest_card(d, kind="stone").update(scorpions=50),
        "scorpions must be 0..9",
    ),
]


@pytest.mark.parametrize(("problem", "mutate", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_file_gives_a_components_error_naming_the_problem(
    tmp_path: Path, problem: str, mutate: Mutation, message: str
) -> None:
    data = copy.deepcopy(base())
    mutate(data)
    path = tmp_path / "broken.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    with pytest.raises(ComponentsError) as info:
        load_components(str(path))
    assert message in str(info.value), f"{problem}: {info.value}"
    with pytest.raises(ComponentsError):
        get_game("magic-lamp").make_params(num_players=3, components=str(path))


def test_the_writer_round_trips_the_base_file(tmp_path: Path) -> None:
    """The broken-file tests mutate a known-good file: it must load as written."""
    path = tmp_path / "good.toml"
    path.write_text(to_toml(base()), encoding="utf-8")
    comp = load_components(str(path))
    reference = load_components(custom_components())
    assert comp.cards == reference.cards
    assert comp.lamp_cards == reference.lamp_cards


def test_stone_names_are_normalised_to_how_action_texts_spell_them(tmp_path: Path) -> None:
    data = copy.deepcopy(base())
    rename_stone(data, "ruby", " Ruby")
    path = tmp_path / "capitals.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    comp = load_components(str(path))
    assert comp.stone_types[0] == "ruby"
    assert comp.cards == load_components(custom_components()).cards


def test_unreadable_or_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(ComponentsError, match="cannot read components file"):
        load_components(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[meta\nname = 1\n", encoding="utf-8")
    with pytest.raises(ComponentsError, match="is not valid TOML"):
        load_components(str(bad))
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(ComponentsError, match="is not valid TOML"):
        load_components(str(latin))
