"""Ali Baba game state: plain data plus the core contract's plumbing.

The forward model lives in rules.py and the per-seat view in view.py; this module holds the
data, copies it, and answers who acts and what is legal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from copy import deepcopy
from enum import IntEnum
from typing import Any, NamedTuple, Self

from arabesque.core.decision import Decision as CoreDecision
from arabesque.core.errors import ParamsError
from arabesque.core.game import GameState, Params
from arabesque.core.limits import quote
from arabesque.core.scoring import Score, rank_scores
from arabesque.games.ali_baba.actions import ActionSpace, action_space
from arabesque.games.ali_baba.components import SET_POINTS, Board, Tiles, load_tiles
from arabesque.games.ali_baba.params import SMALLER_CAVE, VARIANTS, AliBabaParams

EMPTY = -1  # a board place with no tile left
NOT_SHOWN = -1  # shows[p] before the player has chosen (or when not showing)


class Phase(IntEnum):
    TAKE = 0  # step 1: take a face-up tile
    LAMP = 1  # Aladdin's lamp variant: keep the lamp or swap it for a set-aside tile
    EFFECT = 2  # step 3: a choice within the taken tile's effect (green, white, yellow)
    SHOW = 3  # yellow effect: opponents secretly choose the tile they show
    STEAL = 4  # yellow effect: the active player takes one of the shown tiles
    OVER = 5


class DecisionKind(IntEnum):
    TAKE = 0  # step 1: take a face-up tile
    LAMP = 1  # Aladdin's lamp variant: keep the lamp or swap it for a set-aside tile
    ALSO_TAKE = 2  # green effect: also take an adjacent face-up tile, or pass
    FORBID = 3  # white effect: forbid a kind or a colour to the others, or pass
    YELLOW = 4  # yellow effect: make the opponents show a tile, or pass
    SHOW = 5  # yellow effect: an opponent secretly chooses the tile they show
    STEAL = 6  # yellow effect: the active player takes one of the shown tiles


class PublicData(NamedTuple):
    """What everyone knows before the game starts: the tile set and the board's geometry."""

    tiles: Tiles
    board: Board


NO_OPTIONS: tuple[int, ...] = ()
NOBODY: frozenset[int] = frozenset()


class AliBabaState(GameState):
    """Everything about one game of Ali Baba."""

    params: AliBabaParams
    tiles: Tiles
    board: Board
    space: ActionSpace

    # -- construction -------------------------------------------------------------------

    @classmethod
    def validate_params(cls, params: Params) -> None:
        assert isinstance(params, AliBabaParams)
        if params.variant not in VARIANTS:
            raise ParamsError(
                f"unknown variant {quote(params.variant)}; variants: {', '.join(VARIANTS)}"
            )
        # rulebook, Variant smaller cave: "for 2 players".
        if params.variant == SMALLER_CAVE and params.num_players != 2:
            raise ParamsError(
                f"the smaller cave is a 2-player variant, not for {params.num_players} players"
            )

    @classmethod
    def num_distinct_actions(cls, params: Params) -> int:
        return action_space().size

    @classmethod
    def max_game_length(cls, params: Params) -> int:
        assert isinstance(params, AliBabaParams)
        # Every turn takes at least one tile from the board; a turn is at most: the take, the
        # lamp choice, the effect choice, a show per opponent and the steal.
        size = load_tiles().boards[params.board_id].size
        return size * (params.num_players + 3)

    @classmethod
    def initial(cls, params: Params, seed: int, arrangement: Mapping[str, Any] | None) -> Self:
        from arabesque.games.ali_baba.rules import setup

        assert isinstance(params, AliBabaParams)
        state = cls.__new__(cls)
        setup(state, params, seed, arrangement)
        return state

    # Fields (set by rules.setup); listed for readers and type checkers.
    start: dict[str, Any]  # the initial arrangement, JSON-ready (records, scenarios)
    removed_kinds: tuple[int, ...]  # kinds out of the game (variants), known to all
    cell: list[int]  # per board place: the tile there, or EMPTY
    cover: list[int]  # per board place: how many tiles still rest on it
    place_of: list[int]  # per tile: its board place, or EMPTY
    face_up: set[int]  # tiles on the board that are face up (nothing rests on them)
    face_down: int  # how many board tiles are still face down
    box: list[int]  # tiles returned to the box unseen (rulebook, Set up)
    aside: list[int]  # Aladdin's lamp variant: the set-aside face-up tiles
    hands: list[list[int]]  # per player, tiles behind the screen, in the order collected
    points: list[dict[str, int]]  # per player: score-track points by effect colour
    blocks: list[tuple[int, bool, int]]  # white effect: (by seat, is a kind, kind/colour)
    turn: int  # turns played before this one; the player to act is turn % n
    phase: Phase
    options: tuple[int, ...]  # legal actions of the one player deciding (not in SHOW)
    actors: frozenset[int]
    taken: int  # this turn's tile taken from the board (before any lamp swap)
    taken_place: int
    effect_tile: int  # the tile whose effect is used this turn (after a lamp swap)
    flipped: int  # tiles flipped this turn
    shows: list[int]  # yellow effect: per player, the tile chosen to show, or NOT_SHOWN
    show_options: dict[int, tuple[int, ...]]
    #: Collected tiles the table has been shown since (a yellow show, a brown count): what a
    #: front end hiding the screens still lists (ruling R1); a display matter, not a rule.
    shown_to_table: set[int]
    last_turn: int | None  # the final turn, once the last face-down tile is flipped
    over: bool

    def arrangement(self) -> dict[str, Any]:
        # A copy: records and callers may edit what they get without changing the game.
        return deepcopy(self.start)

    def data_digest(self) -> str | None:
        return self.tiles.sha256

    # -- the state machine --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return self.turn % self.params.num_players

    def to_act(self) -> frozenset[int]:
        return self.actors

    def to_act_seen_by(self, seat: int | None) -> frozenset[int]:
        if self.phase is Phase.SHOW:
            # Which opponents have already chosen the tile they show is secret until all
            # have: every opponent with a real choice is shown as still choosing.
            choosing = set(self.show_choosers())
            if seat is not None and seat not in self.actors:
                choosing.discard(seat)
            return frozenset(choosing)
        return self.actors

    def secret_phase(self) -> int | None:
        # The tiles chosen to show are seen by their choosers only until all have chosen.
        return self.turn if self.phase is Phase.SHOW else None

    def show_choosers(self) -> list[int]:
        """The opponents who choose in secret what to show to this turn's yellow effect:
        every opponent with more than one tile (one with a single tile shows it without a
        choice, R10). Public, and the same in every determinization."""
        current = self.current
        return [p for p, hand in enumerate(self.hands) if p != current and len(hand) > 1]

    def legal_actions(self, player: int) -> Sequence[int]:
        # Only a plain int is a seat: True == 1 and 1.0 == 1, but apply refuses both, and an
        # unhashable value must not raise.
        if type(player) is not int or player not in self.actors:
            return NO_OPTIONS
        if self.phase is Phase.SHOW:
            return self.show_options[player]
        return self.options

    def _apply(self, player: int, action: int) -> None:
        _rules.apply_action(self, player, action)

    def phase_description(self) -> str:
        seat = self.current
        return {
            Phase.TAKE: f"player {seat} takes a face-up tile",
            Phase.LAMP: f"player {seat} keeps the lamp or swaps it",
            Phase.EFFECT: f"player {seat} uses the {self.colour_name(self.effect_tile)} effect",
            Phase.SHOW: f"opponents of player {seat} choose a tile to show",
            Phase.STEAL: f"player {seat} takes one of the shown tiles",
            Phase.OVER: "game over",
        }[self.phase]

    def colour_name(self, tile: int) -> str:
        return self.tiles.colours[self.tiles.colour_of(tile)].name

    # -- actions as text ----------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        return self.space.to_str(action)

    def parse_action(self, text: str) -> int:
        return self.space.parse(text)

    # -- decisions and information ------------------------------------------------------

    def _decision(self, seat: int) -> CoreDecision:
        from arabesque.games.ali_baba.decisions import decision_for

        return decision_for(self, seat)

    def public_data(self) -> PublicData:
        return PublicData(self.tiles, self.board)

    # -- copies -------------------------------------------------------------------------

    def _copy(self, full: bool) -> Self:
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)  # immutable and shared fields
        if full:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
            new.history = list(self.history)
            new.events = list(self.events)  # events are immutable
        else:
            new.history = []
            new.events = []
        new.cell = list(self.cell)
        new.cover = list(self.cover)
        new.place_of = list(self.place_of)
        new.face_up = set(self.face_up)
        new.box = list(self.box)
        new.aside = list(self.aside)
        new.hands = [list(h) for h in self.hands]
        new.points = [dict(p) for p in self.points]
        new.blocks = list(self.blocks)
        new.shows = list(self.shows)
        new.show_options = dict(self.show_options)
        new.shown_to_table = set(self.shown_to_table)
        return new

    def _resample(self, player: int, rng: random.Random) -> None:
        from arabesque.games.ali_baba.rules import resample_hidden

        resample_hidden(self, player, rng)

    def fingerprint(self) -> Any:
        return (
            self.params,
            self.seed,
            self.version,
            self.rng.getstate(),
            tuple(self.history),
            tuple(self.events),
            self.removed_kinds,
            tuple(self.cell),
            tuple(self.cover),
            tuple(self.place_of),
            tuple(sorted(self.face_up)),
            self.face_down,
            tuple(self.box),
            tuple(self.aside),
            tuple(map(tuple, self.hands)),
            tuple(tuple(sorted(p.items())) for p in self.points),
            tuple(self.blocks),
            self.turn,
            self.phase,
            self.options,
            tuple(sorted(self.actors)),
            (self.taken, self.taken_place, self.effect_tile, self.flipped),
            tuple(self.shows),
            tuple(sorted(self.show_options.items())),
            tuple(sorted(self.shown_to_table)),
            self.last_turn,
            self.over,
        )

    # -- scoring ------------------------------------------------------------------------

    def kind_counts(self, player: int) -> dict[int, int]:
        counts: dict[int, int] = {}
        for tile in self.hands[player]:
            kind = self.tiles.kind_of(tile)
            counts[kind] = counts.get(kind, 0) + 1
        return counts

    def scores(self) -> list[Score]:
        out = []
        for p in range(self.num_players):
            # rulebook, End of the game: 1/3/6/10/15/21 points for 1-6 tiles of one kind.
            treasures = sum(SET_POINTS[n] for n in self.kind_counts(p).values())
            out.append(Score.of({"treasures": treasures, **self.points[p]}))
        return out

    def ranking(self) -> list[int]:
        # rulebook, End of the game: on a tie, the tied player with fewer tiles wins; still
        # tied players share the victory.
        return rank_scores(self.scores(), tie_break=lambda p: -len(self.hands[p]))


__all__ = ["EMPTY", "NOT_SHOWN", "AliBabaState", "Phase"]

# The forward model imports this module, so it comes last; importing it once here rather than
# inside ``_apply`` keeps an import statement off every step.
from arabesque.games.ali_baba import rules as _rules  # noqa: E402
