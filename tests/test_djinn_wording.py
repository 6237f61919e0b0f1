"""Djinn reads as words: option labels, prompts, the views' card texts and the log.

Random games at 1-4 players: no label or prompt holds a Python repr, an effect code or a
wrong plural; every event of the log has its sentence; the events say the public facts a
player wants (what a forfeit gave, what Tom took, what a trophy brings) and nothing private
reaches another seat; ``view["current"]`` names the seat taking a tile during the draft.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.games.djinn.components import CHAR_EFFECTS, EQUIP_EFFECTS, load_components
from arabesque.games.djinn.words import character_words, equipment_words, reward_words
from arabesque.tui.djinn.events import describe_event

SPEC = get_game("djinn")
CODES = tuple(CHAR_EFFECTS) + tuple(EQUIP_EFFECTS)
#: A number then a plural noun where the number is 1, or a plural ending after "a".
BAD_PLURAL = re.compile(r"\b1 (coins|scrolls|corks|keys|points|bottles|cards)\b|\ba [a-z]+s\b")


def played(players: int, seed: int) -> tuple[GameState, list[tuple[str, tuple[str, ...]]]]:
    state = SPEC.new_game(SPEC.make_params(num_players=players), seed=seed)
    rng = random.Random(seed)
    seen: list[tuple[str, tuple[str, ...]]] = []
    while not state.is_over:
        seat = min(state.to_act())
        decision = state.decision(seat)
        assert decision is not None
        seen.append((decision.prompt, decision.labels))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state, seen


GAMES = [(n, seed) for n in (1, 2, 3, 4) for seed in (1, 2)]


def bad_words(text: str) -> list[str]:
    found = [s for s in ("[", "]", "{", "_", "None", "()") if s in text]
    found += [code for code in CODES if code in text]
    if BAD_PLURAL.search(text) and not re.search(r"\ba (boss|bottles? of)\b", text):
        found.append(BAD_PLURAL.search(text).group(0))  # type: ignore[union-attr]
    return found


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_label_and_prompt_is_words(players: int, seed: int) -> None:
    _, seen = played(players, seed)
    for prompt, labels in seen:
        assert not bad_words(prompt), prompt
        for label in labels:
            assert label and not bad_words(label), (label, bad_words(label))


def test_every_character_and_equipment_card_is_worded() -> None:
    comp = load_components()
    for tile in comp.characters:
        text = character_words(comp, tile)
        assert not bad_words(text) and text != tile.effect, (tile, text)
    for card in comp.equipment:
        text = equipment_words(card)
        assert not bad_words(text) and text != card.effect, (card, text)


def test_reward_plurals() -> None:
    comp = load_components()
    rc, rs, rm = (("coins", "scrolls", "magic").index(k) for k in ("coins", "scrolls", "magic"))
    assert reward_words(((rc, 1), (rm, 1))) == "1 coin, 1 magic"
    assert reward_words(((rc, 2), (rs, 1))) == "2 coins, 1 scroll"
    assert reward_words(((rc, -3),)) == "lose 3 coins"
    assert reward_words({"keys": 1, "bottle_any": 2}) == "1 key, 2 bottles of any colours"
    for chest in comp.chests:
        assert not bad_words(reward_words(chest.reward))


def test_a_taken_space_names_the_players_for_the_panel() -> None:
    state = SPEC.new_game(SPEC.make_params(num_players=3), seed=5)
    rng = random.Random(5)
    labels: list[str] = []
    while not state.is_over and len(labels) < 3:
        seat = min(state.to_act())
        decision = state.decision(seat)
        assert decision is not None
        labels += [lab for lab in decision.labels if "taken by" in lab]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert labels
    for label in labels:
        assert re.search(r"taken by player \d( and player \d)*$", label), label


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_event_has_its_sentence(players: int, seed: int) -> None:
    state, _ = played(players, seed)
    comp = state.public_data()
    for seat in range(players):
        view = state.view(seat)
        places = {s["id"]: s["location"] for s in view["spaces"]}
        for event in view["log"]:
            for args in ((), (comp, places)):
                line = describe_event(event, lambda p: f"P{p}", *args)  # type: ignore[arg-type]
                if line is None:
                    continue
                text = line.plain
                assert f"({event['kind']})" not in text and not bad_words(text), (event, text)


def events_of(state: GameState, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [e for e in state.view(seat)["log"] if e["kind"] == kind]


def test_events_carry_the_public_facts() -> None:
    kinds: dict[str, list[dict[str, Any]]] = {}
    for players, seed in GAMES + [(1, s) for s in range(3, 12)]:
        state, _ = played(players, seed)
        for event in state.view(None)["log"]:
            kinds.setdefault(event["kind"], []).append(event)
    for e in kinds["forfeit"]:
        assert e["reward"] and all(v > 0 for v in e["reward"].values())
    for e in kinds["trophy"]:
        assert isinstance(e["points"], int) and "reward" in e and e["row"] in (1, 2, 3)
    for e in kinds["offer"]:
        assert e["coins"] + e["scrolls"] > 0 and e["reward"]
    for e in kinds["chests"]:
        assert len(e["rewards"]) == len(e["chests"]) == len(e["key_rewards"])
    for e in kinds["character"]:
        assert e["name"] and isinstance(e["positive"], bool)
    for e in kinds.get("tom_pay", []):
        assert set(e["paid"]) <= set(e["asked"])
        assert all(0 <= e["paid"][k] <= e["asked"][k] for k in e["paid"])


def test_secret_scoring_cards_reach_only_their_holder() -> None:
    comp = load_components()
    tile = next(c.id for c in comp.characters if c.effect == "secret_scoring")
    for seed in range(40):
        state = SPEC.new_game(SPEC.make_params(num_players=2), seed=seed)
        rng = random.Random(seed)
        while drafting(state):
            seat = min(state.to_act())
            options = state.legal_actions(seat)
            texts = [state.action_to_str(a) for a in options]
            pick = next(
                (a for a, t in zip(options, texts, strict=True) if t == f"character {tile}"), None
            )
            state.apply(seat, pick if pick is not None else rng.choice(options))
        holders = [e["seat"] for e in events_of(state, "character", None) if e["tile"] == tile]
        if not holders:
            continue
        holder = holders[0]
        assert events_of(state, "secret_scoring", holder)
        assert not events_of(state, "secret_scoring", 1 - holder)
        assert not events_of(state, "secret_scoring", None)
        return
    pytest.fail("no game dealt the secret scoring tile")


def drafting(state: GameState) -> bool:
    to_act = state.to_act()
    decision = state.decision(min(to_act)) if to_act else None
    return decision is not None and decision.kind_name == "draft"


def test_current_names_the_seat_taking_a_tile() -> None:
    state = SPEC.new_game(SPEC.make_params(num_players=3), seed=7)
    rng = random.Random(7)
    checked = 0
    while drafting(state):
        (seat,) = state.to_act()
        assert state.view(None)["current"] == seat
        checked += 1
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked >= 3
    (seat,) = state.to_act()
    assert state.view(None)["current"] == seat == state.view(None)["start_player"]
