"""What one finished Magic Lamp game measured, for the designer's lab (arabesque.lab).

Per chest: dice placed on it and their faces, searches (a drawer was found and the chest was
not empty), busts, cards kept, searches with two dice or more, and what the cards kept from
it are worth in the final score (``final_points``: see ``final_credit``). And the Sorcerer:
whether it was drawn and whether its drawer won; angry Genies; wishes granted.
"""

from __future__ import annotations

from arabesque.core.game import GameState
from arabesque.games.magic_lamp.components import CHESTS, CardKind
from arabesque.games.magic_lamp.rules import (
    MAJORITY_BONUS,
    protected_cards,
    score_breakdowns,
    stone_count,
)
from arabesque.games.magic_lamp.state import MagicLampState
from arabesque.lab.metrics import GameMetrics, Ratio, register_metrics

_COUNTS = ("dice", "faces", "searches", "drawer_faces", "busts", "kept", "contested")


def final_credit(state: MagicLampState) -> dict[int, float]:
    """What each held card is worth in the final score: 1 point (the Sorcerer 0), plus an
    equal share of a won majority among the stones and talismans counted for it, plus a
    third of a set bonus for each jewel of a complete set."""
    comp = state.comp
    credit: dict[int, float] = {}
    breakdowns = score_breakdowns(state)
    for p, held in enumerate(state.holdings):
        protected = protected_cards(state, p)
        counts = [stone_count(state, p, t) for t in range(len(comp.stone_types))]
        won = [breakdowns[p][f"majority_{name}"] > 0 for name in comp.stone_types]
        for cid in held:
            card = comp.cards[cid]
            value = 0.0 if card.kind is CardKind.SORCERER else 1.0
            stone = card.stone if card.kind is CardKind.STONE else state.talisman_on.get(cid)
            if stone is not None and stone >= 0 and won[stone]:
                value += MAJORITY_BONUS / counts[stone]
            if card.kind is CardKind.JEWEL and cid in protected:
                assert card.metal is not None
                value += comp.set_bonus[card.metal] / 3
            credit[cid] = value
    return credit


def measure(state: GameState) -> dict[str, float]:
    assert isinstance(state, MagicLampState)
    out: dict[str, float] = {f"chest.{c}.{k}": 0.0 for c in CHESTS for k in _COUNTS}
    out.update({"sorcerer.drawn": 0.0, "sorcerer.drawer_won": 0.0})
    out.update({"genie.angry": 0.0, "wishes.granted": 0.0})
    kept: dict[str, list[int]] = {c: [] for c in CHESTS}
    sorcerer_drawer: int | None = None
    # The search just logged: (chest, dice on it, drawer's face), undone if the chest was empty.
    last_search: tuple[str, int, int] | None = None
    for event in state.events:
        kind, data = event.kind, event.data
        if kind == "reveal":
            for dice in data["dice"]:
                for die in dice:
                    out[f"chest.{die['chest']}.dice"] += 1
                    out[f"chest.{die['chest']}.faces"] += die["face"]
        elif kind == "search" and data["drawer"] is not None:
            chest = data["chest"]
            face = next(d["face"] for d in data["dice"] if d["player"] == data["drawer"])
            contested = int(len(data["dice"]) > 1)
            out[f"chest.{chest}.searches"] += 1
            out[f"chest.{chest}.drawer_faces"] += face
            out[f"chest.{chest}.contested"] += contested
            last_search = (chest, contested, face)
            continue
        elif kind == "chest_empty" and last_search is not None and last_search[0] == data["chest"]:
            # rules R2: the drawer of an empty chest does not search it.
            chest, contested, face = last_search
            out[f"chest.{chest}.searches"] -= 1
            out[f"chest.{chest}.drawer_faces"] -= face
            out[f"chest.{chest}.contested"] -= contested
        elif kind == "bust":
            out[f"chest.{data['chest']}.busts"] += 1
        elif kind == "draw_kept":
            out[f"chest.{data['chest']}.kept"] += data["count"]
            kept[data["chest"]].extend(card["id"] for card in data["cards"])
        elif kind == "cave_closed":
            sorcerer_drawer = data["player"]
        elif kind == "genie_angry":
            out["genie.angry"] += 1
        elif kind == "wish_granted":
            out["wishes.granted"] += 1
        last_search = None
    credit = final_credit(state)
    for chest, ids in kept.items():
        out[f"chest.{chest}.final_points"] = sum(credit.get(cid, 0.0) for cid in ids)
    if sorcerer_drawer is not None:
        out["sorcerer.drawn"] = 1.0
        out["sorcerer.drawer_won"] = float(state.returns()[sorcerer_drawer] >= 1.0)
    out["turns"] = float(state.turn)
    return out


def end_reason(state: GameState) -> str:
    assert isinstance(state, MagicLampState)
    for event in reversed(state.events):
        if event.kind == "game_over":
            return str(event.data["reason"])
    return "over"


def _chest_ratios() -> tuple[Ratio, ...]:
    dice = tuple(f"chest.{c}.dice" for c in CHESTS)
    out: list[Ratio] = []
    for c in CHESTS:
        searches = (f"chest.{c}.searches",)
        out += [
            Ratio(f"{c}: share of dice", (f"chest.{c}.dice",), dice, "share of dice", True),
            Ratio(f"{c}: bust rate", (f"chest.{c}.busts",), searches, "bust rate", True),
            Ratio(f"{c}: cards kept per search", (f"chest.{c}.kept",), searches, "cards kept"),
            Ratio(
                f"{c}: final points per search",
                (f"chest.{c}.final_points",),
                searches,
                "final points per search",
            ),
            Ratio(
                f"{c}: contested searches",
                (f"chest.{c}.contested",),
                searches,
                "contested searches",
                True,
            ),
        ]
    out.append(
        Ratio(
            "the Sorcerer's drawer wins",
            ("sorcerer.drawer_won",),
            ("sorcerer.drawn",),
            "the Sorcerer",
            True,
        )
    )
    return tuple(out)


METRICS = register_metrics(
    GameMetrics("magic-lamp", measure=measure, end_reason=end_reason, ratios=_chest_ratios())
)
