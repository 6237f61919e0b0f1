"""The bot's picture of its view: what each card is, who holds what, how far the game is, and
what it knows of each chest.

The picture is built from the seat's view and the box's public contents only: a bot never sees
the state. The values put on it are evaluation.py's; the search over a chest is search.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arabesque.games.magic_lamp.components import (
    CHESTS,
    JEWELS,
    METALS,
    SORCERER_FROM_BOTTOM,
    CardKind,
    Components,
)


@dataclass(frozen=True)
class Kind:
    """What matters about a card for its value: its kind and stone/jewel/metal."""

    kind: str
    stone: int = -1
    jewel: int = -1
    metal: int = -1


def _kind_of(card: dict[str, Any], stone_types: Sequence[str]) -> Kind:
    kind = card["kind"]
    if kind == "stone":
        return Kind(kind, stone=stone_types.index(card["stone"]))
    if kind == "jewel":
        return Kind(kind, jewel=JEWELS.index(card["jewel"]), metal=METALS.index(card["metal"]))
    return Kind(kind)


def _kinds(comp: Components) -> list[Kind]:
    """The value-relevant kind of every card, indexed by card id."""
    return [_comp_kind(comp, cid) for cid in range(comp.num_cards)]


def _comp_kind(comp: Components, cid: int) -> Kind:
    card = comp.cards[cid]
    if card.kind is CardKind.STONE:
        assert card.stone is not None
        return Kind("stone", stone=card.stone)
    if card.kind is CardKind.JEWEL:
        assert card.jewel is not None and card.metal is not None
        return Kind("jewel", jewel=card.jewel, metal=card.metal)
    return Kind(card.kind.value)


class Position:
    """The public position as counts.

    ``eff[p][t]`` counts stones of type t for majorities (real stones plus placed talismans),
    ``real[p][t]`` the real stones only, ``tal[p][t]`` the talismans placed on t, ``jewels[p]
    [m][j]`` the jewel pieces, ``cards[p]`` the cards worth a point.
    """

    def __init__(
        self,
        view: dict[str, Any],
        comp: Components,
        me: int,
        kinds: list[Kind] | None = None,
    ) -> None:
        self.comp = comp
        self.kinds = kinds if kinds is not None else _kinds(comp)
        self.me = me
        self.n = n = view["num_players"]
        stone_types = comp.stone_types
        self.num_types = nt = len(stone_types)
        self.eff = [[0] * nt for _ in range(n)]
        self.real = [[0] * nt for _ in range(n)]
        self.tal = [[0] * nt for _ in range(n)]
        self.jewels = [[[0] * len(JEWELS) for _ in METALS] for _ in range(n)]
        self.cards = [0] * n
        self.ring = [False] * n
        self.score = [0] * n
        #: (card id, holder) of every card that may be stolen or exchanged.
        self.stealable: list[list[int]] = [[] for _ in range(n)]
        self.card_kind: dict[int, Kind] = {}
        self.seen: set[int] = set()
        for p, player in enumerate(view["players"]):
            self.ring[p] = bool(player["ring"])
            self.score[p] = int(player["score"])
            for card in player["cards"]:
                cid = int(card["id"])
                self.seen.add(cid)
                k = _kind_of(card, stone_types)
                self.card_kind[cid] = k
                if k.kind != "sorcerer":
                    self.cards[p] += 1
                if k.kind == "stone":
                    self.real[p][k.stone] += 1
                    self.eff[p][k.stone] += 1
                elif k.kind == "jewel":
                    self.jewels[p][k.metal][k.jewel] += 1
                elif k.kind == "talisman":
                    on = card.get("talisman_on")
                    if on in stone_types:
                        t = stone_types.index(on)
                        self.tal[p][t] += 1
                        self.eff[p][t] += 1
                if k.kind in ("stone", "jewel") and not card.get("protected"):
                    self.stealable[p].append(cid)
        self.discard: list[int] = []
        for card in view["discard"]:
            cid = int(card["id"])
            self.seen.add(cid)
            self.discard.append(cid)
            self.card_kind[cid] = _kind_of(card, stone_types)
        draw = view.get("draw")
        self.drawing: list[int] = []
        if draw is not None:
            for card in draw["drawn"]:
                cid = int(card["id"])
                self.seen.add(cid)
                self.drawing.append(cid)
                self.card_kind[cid] = _kind_of(card, stone_types)

        # How far the game is: the nearest Sorcerer, against where it starts.
        start_above = min(len(ids) for ids in comp.chest_cards) - 1 - SORCERER_FROM_BOTTOM
        aboves = [
            ch["cards_above_sorcerer"]
            for ch in view["chests"]
            if ch["sorcerer_in_chest"] and ch["cards_above_sorcerer"] is not None
        ]
        if view["cave_closed"] or not aboves:
            self.progress = 1.0
        else:
            self.progress = min(1.0, max(0.0, 1.0 - min(aboves) / max(1, start_above)))
        self.cards_to_end = min(aboves) if aboves and not view["cave_closed"] else 0

        # Which jewel pieces may still be had: in a chest, the discard, or stealable.
        self.avail = [[0] * len(JEWELS) for _ in METALS]
        for c in range(len(CHESTS)):
            for cid in comp.chest_cards[c]:
                if cid not in self.seen:
                    self._count_avail(self.kinds[cid])
        for cid in self.discard:
            self._count_avail(self.card_kind[cid])
        for p in range(n):
            if p != me:
                for cid in self.stealable[p]:
                    self._count_avail(self.card_kind[cid])

    def _count_avail(self, k: Kind) -> None:
        if k.kind == "jewel":
            self.avail[k.metal][k.jewel] += 1


@dataclass
class _ChestModel:
    """What the bot knows of one chest from the top down."""

    known: list[tuple[int, float]]  # (scorpions, value) of the known top cards, top first
    sorcerer_at: int | None  # index from the top of the Sorcerer, if it is in the chest
    sorcerer_value: float
    classes: list[tuple[int, int, float]]  # (scorpions, count, mean value) of unseen cards
    cards_left: int


def all_dice(view: dict[str, Any]) -> list[tuple[int, int, int]]:
    """(player, chest, face) of every revealed die."""
    out = []
    for p, player in enumerate(view["players"]):
        for d in player["dice"] or []:
            out.append((p, CHESTS.index(d["chest"]), int(d["face"])))
    return out


def granted_lamp(view: dict[str, Any]) -> dict[str, Any] | None:
    """The Lamp card being applied: a granted card goes under the pile before its effect
    starts, so it is the bottom card everyone saw go there."""
    known = view["lamp_pile"]["known_bottom"]
    return known[0] if known else None


def holder(board: Position, cid: int) -> int:
    """The seat holding ``cid`` among the cards that may be stolen or exchanged."""
    return next(p for p in range(board.n) if cid in board.stealable[p])
