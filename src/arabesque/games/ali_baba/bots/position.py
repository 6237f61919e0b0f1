"""The Ali Baba bot's picture of its view: the public position, as counts.

``Position`` reads one view: the pyramid (what is face up where, what covers what), what
each player holds and scores, the tiles still unknown and how likely each kind is to come,
the white bans in force, and whose turns are left. From these and the agent's weights it
derives each player's expected share of each kind and how much the bot cares about each
rival; it applies the set-point formulas of ``evaluation`` to its counts (``gain``,
``denial`` ...) and tells what a hypothetical removal would do to the board (``after``,
``flips``). The view is all the bot sees: never the real state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arabesque.games.ali_baba.bots.evaluation import (
    Weights,
    set_gain,
    set_loss,
    steal_gain,
    steal_loss,
)
from arabesque.games.ali_baba.components import SET_POINTS, Tiles
from arabesque.games.ali_baba.state import PublicData

#: Tiles a turn collects on average (green effects and steals add to the one taken).
TILES_PER_TURN = 1.1
#: Tiles usually left on the board when the game ends.
LEFT_AT_END = 3.0
#: How much a set-aside tile (Aladdin's lamp variant) counts as still able to come.
ASIDE_REACH = 0.3
#: A player never expects more than this share of a kind's remaining tiles.
MAX_SHARE = 0.9
NONE = -1


@dataclass
class Forbid:
    """A white effect's ban: a kind (``is_kind``) or a colour, by a seat."""

    by: int
    is_kind: bool
    what: int

    def bans(self, tiles: Tiles, tile: int) -> bool:
        return (tiles.kind[tile] if self.is_kind else tiles.colour[tile]) == self.what


class Position:
    """The public position of one view, as counts, with the bot's value model."""

    def __init__(self, view: dict[str, Any], me: int, public: PublicData, weights: Weights) -> None:
        self.tiles = tiles = public.tiles
        self.w = weights
        self.me = me
        players = view["players"]
        self.n = n = len(players)
        self.variant = str(view["variant"])
        board = view["board"]
        # The pyramid's geometry is public static data of the game (what rests on what).
        self.geo = geo = public.board
        places = board["places"]
        self.num_places = len(places)
        self.occupied: list[bool] = [str(p["state"]) != "empty" for p in places]
        self.tile_at = [int(p["tile"]["id"]) if p["state"] == "face_up" else NONE for p in places]
        self.face_up = [i for i, t in enumerate(self.tile_at) if t != NONE]
        self.place_of = {self.tile_at[i]: i for i in self.face_up}
        self.cover = [sum(1 for a in geo.above[i] if self.occupied[a]) for i in range(len(places))]
        self.board_left: int = sum(self.occupied)
        num_kinds = len(tiles.kinds)
        self.hands: list[list[int]] = [[int(t["id"]) for t in p["tiles"]] for p in players]
        self.cnt = [[0] * num_kinds for _ in range(n)]
        for p, hand in enumerate(self.hands):
            for t in hand:
                self.cnt[p][tiles.kind[t]] += 1
        self.aside = [int(t["id"]) for t in view["aside"]]
        self.removed = {tiles.kinds.index(k) for k in view["removed_kinds"]}
        visible = {t for hand in self.hands for t in hand} | set(self.place_of) | set(self.aside)
        self.unknown = [
            t
            for t in range(tiles.num_tiles)
            if tiles.kind[t] not in self.removed and t not in visible
        ]
        face_down, in_box = int(view["face_down"]), int(view["in_box"])
        hidden = face_down + in_box
        self.reach = face_down / hidden if hidden else 0.0
        self.avail = [0.0] * num_kinds
        for t in self.place_of:
            self.avail[tiles.kind[t]] += 1.0
        for t in self.unknown:
            self.avail[tiles.kind[t]] += self.reach
        for t in self.aside:
            self.avail[tiles.kind[t]] += ASIDE_REACH
        names = [c.name for c in tiles.colours]
        self.blocks = [
            Forbid(
                int(b["by"]),
                b["type"] == "kind",
                tiles.kinds.index(b["what"]) if b["type"] == "kind" else names.index(b["what"]),
            )
            for b in view["blocks"]
        ]
        self.turn = int(view["turn"])  # 1-based, the turn being played
        current = view["current"]
        self.current = me if current is None else int(current)
        last = view["last_turn"]
        self.last_turn: int | None = None if last is None else int(last)
        self.track = [int(p["track"]) for p in players]
        self.score = [self.track[p] + sum(SET_POINTS[c] for c in self.cnt[p]) for p in range(n)]
        # The share of each kind's remaining tiles each player expects: the part of the board
        # still to be collected, split in favour of the players already collecting the kind.
        self.q = self._shares(weights.focus)
        # How much the bot cares about each rival's points (denial) ...
        best_rival = max((p for p in range(n) if p != me), key=lambda p: self.score[p])
        self.rival_w = [
            0.0
            if p == me
            else weights.denial
            * ((1.0 - weights.leader) / (n - 1) + (weights.leader if p == best_rival else 0.0))
            for p in range(n)
        ]
        # ... and about each rival's next turn (tempo), by how soon it comes.
        self.tempo_w = [0.0] * n
        for i in range(1, n):
            p = (self.current + i) % n
            if p != me and self.has_turn_after(i):
                self.tempo_w[p] = weights.tempo * weights.later ** (i - 1)
        # The lookahead's caches (``search``), per position.
        self.pool_values_cache: dict[int, list[tuple[float, int]]] = {}
        self.forbidden_cache: dict[int, set[int]] = {}
        self.known_cache: dict[frozenset[int], tuple[int, list[list[tuple[float, int]]]]] = {}

    # -- time and shares --------------------------------------------------------------------

    def has_turn_after(self, i: int) -> bool:
        """Whether the turn ``i`` turns after the current one will be played."""
        return self.last_turn is None or self.turn + i <= self.last_turn

    def future_turns(self, p: int) -> float:
        """Turns ``p`` still plays after the current turn (estimated until the last is known)."""
        n = self.n
        if self.last_turn is not None:
            return float(
                sum(1 for t in range(self.turn + 1, self.last_turn + 1) if (t - 1) % n == p)
            )
        return max(0.0, self.board_left - LEFT_AT_END) / TILES_PER_TURN / n

    def _shares(self, focus: float) -> list[list[float]]:
        """``q[p][k]``: the share of kind k's remaining tiles player p expects to collect.

        Each player's future tiles (turns left, tiles per turn, scaled by ``hope``) are spread
        over the kinds in proportion to the tiles left of each and to the player's claim on
        it against the others: ``1 + focus * held``. With ``focus`` 0 every player expects
        the same share of every kind."""
        n, kinds = self.n, len(self.avail)
        q = [[0.0] * kinds for _ in range(n)]
        if self.board_left <= 0:
            return q
        pull = [[1.0 + focus * self.cnt[p][k] for k in range(kinds)] for p in range(n)]
        claim = [
            [self.avail[k] * pull[p][k] / sum(pull[o][k] for o in range(n)) for k in range(kinds)]
            for p in range(n)
        ]
        for p in range(n):
            future = self.w.hope * self.future_turns(p) * TILES_PER_TURN
            total = sum(claim[p])
            if total <= 0:
                continue
            for k in range(kinds):
                if self.avail[k] > 0:
                    expected = future * claim[p][k] / total
                    q[p][k] = min(MAX_SHARE, expected / self.avail[k])
        return q

    # -- values -----------------------------------------------------------------------------

    def gain(self, p: int, kind: int, extra: int = 0) -> float:
        """Set value to ``p`` of taking a tile of ``kind`` from the cave (``extra`` more of
        the kind already taken this turn)."""
        c, a = self.cnt[p][kind] + extra, self.avail[kind] - extra
        return set_gain(c, a, self.q[p][kind], self.w.urgency)

    def denial(self, kind: int, extra: int = 0) -> float:
        """What the bot's rivals lose, weighted, when it takes a tile of ``kind``."""
        a = self.avail[kind] - extra
        return sum(
            self.rival_w[o] * set_loss(self.cnt[o][kind], a, self.q[o][kind])
            for o in range(self.n)
            if self.rival_w[o]
        )

    def steal_value(self, owner: int, kind: int, extra: int = 0) -> float:
        """The bot's gain plus its weighted view of ``owner``'s loss, stealing a ``kind``."""
        me = self.me
        a = self.avail[kind]
        mine = steal_gain(self.cnt[me][kind] + extra, a, self.q[me][kind])
        return mine + self.rival_w[owner] * steal_loss(
            self.cnt[owner][kind], a, self.q[owner][kind]
        )

    def shown_cost(self, thief: int, kind: int) -> float:
        """How bad it is for the bot that ``thief`` steals a tile of ``kind`` from it."""
        me = self.me
        a = self.avail[kind]
        lost = steal_loss(self.cnt[me][kind], a, self.q[me][kind])
        gained = steal_gain(self.cnt[thief][kind], a, self.q[thief][kind])
        return lost + self.rival_w[thief] * gained

    # -- the board after a hypothetical removal ---------------------------------------------

    def after(self, removed: Iterable[int]) -> tuple[dict[int, int], list[int]]:
        """Cover counts that change when the places ``removed`` are emptied, and the places
        that become face up (in that order of removal)."""
        cover: dict[int, int] = {}
        newly: list[int] = []
        for r in removed:
            for b in self.geo.below[r]:
                c = cover.get(b, self.cover[b]) - 1
                cover[b] = c
                if c == 0:
                    newly.append(b)
        return cover, newly

    def flips(self, place: int, cover: dict[int, int]) -> int:
        """Tiles taking ``place`` would flip, on the board with ``cover`` changes."""
        return sum(1 for b in self.geo.below[place] if cover.get(b, self.cover[b]) == 1)

    def blue_points(self, place: int, cover: dict[int, int]) -> int:
        # Taking a bottom-layer tile reveals its square: 2 points (ruling R3).
        flipped = self.flips(place, cover)
        return 2 * (flipped if flipped or self.geo.squares[place].layer else 1)

    def blocked(self, seat: int, tile: int, ban: Forbid | None) -> bool:
        """Whether ``seat`` may not take ``tile`` (white effects of others, and ``ban``)."""
        if ban is not None and ban.by != seat and ban.bans(self.tiles, tile):
            return True
        return any(b.by != seat and b.bans(self.tiles, tile) for b in self.blocks)
