"""Djinn game state: plain data plus the core contract's plumbing.

The forward model lives in the rules package, rules/ (the only code that changes a state; its
__init__ maps its modules to the rulebook's chapters), the per-seat view in view.py, the
decisions' wording in decisions.py. A turn is a ``DecisionStack``: the turn's
frame (move, then the action menu on the space), sub-decisions pushed on it (catch: select
Djinn, pay with Mage cards, place each; a location action's choices), and GAIN frames, queues
of rewards the rules work through until one needs a choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from copy import deepcopy
from enum import IntEnum
from typing import Any, Self

from arabesque.core.decision import Decision, DecisionStack
from arabesque.core.errors import ParamsError
from arabesque.core.game import GameState, Params
from arabesque.core.limits import quote
from arabesque.core.scoring import Score, rank_scores
from arabesque.games.djinn.actions import Layout, layout_of, parse
from arabesque.games.djinn.components import Components, load_components
from arabesque.games.djinn.params import DjinnParams


class Kind(IntEnum):
    """Decision kinds (GAIN is internal: the rules work it off, nobody decides on it)."""

    DRAFT = 0  # take a character tile
    START = 1  # first turn: place the mage next to a square space
    MOVE = 2  # move along a path
    JUMP = 3  # the space is occupied: pay the mages there, or skip on
    PAY_PLAYER = 4  # pay one mage (or assistant) owner a coin or a scroll
    ACT = 5  # the actions of the space, in any order, then end the turn
    CATCH_SELECT = 6  # choose the Djinn to catch, one at a time
    CATCH_PAY = 7  # use Mage cards, then settle the rest with own magic
    PLACE = 8  # put a caught Djinn into a circle or a bottle
    FREE = 9  # a caught boss brings one more Djinn of the space for free
    ARCHIVES = 10  # choose an Archives option
    PASSAGE = 11  # place a secret passage
    TAVERN = 12  # take a Mage card from the display
    MANUFACTORY = 13  # take an Equipment card
    TENT = 14  # move the assistant to a Market tent
    OFFER = 15  # buy one offer of the tent
    CHEST_KEY = 16  # pay a key for the chest's extra reward
    CHEST_DISCARD = 17  # discard one of the revealed chests (Equipment)
    ACTIVATE = 18  # activate Mage cards
    CHOOSE_BOTTLE = 19  # choose a bottle's colour
    SOURCE_BOSSES = 20  # catch bosses of the supply for magic at the Source
    TRADE = 21  # trade empty bottles (Equipment)
    GAIN = 22


# Circle values: a Djinn kind 0..4, or one of these.
EMPTY = -1
INACTIVE = -2
COVERED = -3  # inactive under the character tile's cover

# End stages (rulebook §End of the game).
PLAYING = 0
FINISH_ROUND = 1  # the last boss is gone: finish this round
LAST_ROUND = 2  # then one more full round
FINAL_SOURCE = 3  # then everyone's last Magic Source action
OVER = 4
STAGE_NAMES = ("playing", "finishing the round", "last round", "final Magic Source", "over")

# Turn flags (``tflags``).
T_BASIC = 1  # the location action of the space (basic, or special at a round space)
T_PASSAGE = 2  # the own secret passage's basic action
T_CATCH = 4  # the mandatory catch is resolved
T_FORFEIT = 8
T_ROW1 = 16
T_ROW2 = 32
T_FINAL = 64  # this is the final Magic Source action (no trophies)
T_KEY = 128  # a key has opened a chest this turn (ruling D22: one chest per turn)

NOBODY: frozenset[int] = frozenset()
ONE_SEAT = tuple(frozenset((p,)) for p in range(4))

#: Per-player list fields (copied one level deep), per-player nested list fields (two
#: levels), and shared game lists (one level); the rest is immutable and shared.
PLAYER_FIELDS = (
    "coins", "scrolls", "keys", "corks", "magic", "base", "capacity", "flipped", "pos", "came",
    "tent", "fresh_passage", "improved", "set_bonus", "claims",
)  # fmt: skip
PLAYER_NESTED = (
    "bottles", "filled", "filled_boss", "circles", "mage_of", "equip_of", "passages_left",
    "trophies_of", "chars", "passages", "djinn", "piles", "equip_stacks", "trophy_rows", "draft",
    "secret",
)  # fmt: skip
GAME_LISTS = (
    "bag", "bank", "discarded", "mage_owner", "mage_active", "equip_owner", "equip_up",
    "chest_deck", "chest_discard", "tom_deck", "tom_revealed", "draft_queue", "fx",
    "scoring_deck",
)  # fmt: skip
SCALARS = (
    "first", "loc", "supply_bosses", "scoring", "removed_passages", "current", "round", "stage",
    "turns", "tflags", "in_catch", "stack", "options", "actors", "over", "won", "turn_space",
    "cover_left",
)  # fmt: skip


class DjinnState(GameState):
    """Everything about one game of Djinn."""

    params: DjinnParams
    comp: Components
    L: Layout
    start: dict[str, Any]
    # board
    first: int
    loc: tuple[int, ...]  # per space: location index, -1 for the Source
    adj: tuple[tuple[int, ...], ...]  # per space: the spaces a path leads to
    djinn: list[list[int]]  # per space: counts per kind (4 colours, boss)
    passages: list[list[tuple[int, int]]]  # per space: (seat, location) of secret passages
    bag: list[int]  # regular Djinn per colour in the bag
    supply_bosses: int  # bosses beside the board (never placed, or fled)
    discarded: list[int]  # per kind: Djinn gone with trophies
    bank: list[int]  # supply counters: coins, scrolls, bottles, corks, keys
    piles: list[list[int]]  # Tavern: 4 piles, top last (0-1 without keys, 2-3 with)
    chest_deck: list[int]  # top last (hidden order)
    chest_discard: list[int]
    equip_stacks: list[list[int]]  # per type, top last
    trophy_rows: list[list[int]]
    scoring: tuple[int, ...]
    scoring_deck: list[int]  # scoring cards left face down, top last (hidden order)
    secret: list[list[int]]  # per player: face-down scoring cards (character tile)
    draft: list[list[int]]  # character tiles on display: [negative, positive]
    draft_queue: list[int]  # seats still to take a tile, next first
    removed_passages: tuple[int, ...]
    tom_deck: list[int]  # top last (hidden order)
    tom_revealed: list[int]
    # players
    coins: list[int]
    scrolls: list[int]
    keys: list[int]
    corks: list[int]
    magic: list[int]
    base: list[int]
    capacity: list[int]
    flipped: list[bool]
    bottles: list[list[int]]  # empty bottles per colour
    filled: list[list[int]]  # corked bottles per colour holding a regular Djinn
    filled_boss: list[list[int]]  # corked bottles per colour holding a boss
    circles: list[list[int]]
    mage_owner: list[int]
    mage_active: list[bool]
    mage_of: list[list[int]]
    equip_owner: list[int]
    equip_up: list[bool]
    equip_of: list[list[int]]
    passages_left: list[list[int]]
    fresh_passage: list[int]
    improved: list[bool]
    set_bonus: list[bool]
    claims: list[int]
    trophies_of: list[list[int]]
    chars: list[list[int]]
    fx: list[frozenset[str]]  # per player: the character effects
    cover_left: int  # seat whose covered circle is still covered, or -1 (informational)
    pos: list[int]
    came: list[int]
    tent: list[int]
    # turn
    current: int
    round: int
    stage: int
    turns: int
    tflags: int
    turn_space: int
    in_catch: bool
    stack: DecisionStack
    options: tuple[int, ...]
    actors: frozenset[int]
    over: bool
    won: bool | None

    # -- construction -------------------------------------------------------------------

    @classmethod
    def validate_params(cls, params: Params) -> None:
        assert isinstance(params, DjinnParams)
        for name in ("first_game", "longer"):
            if not isinstance(getattr(params, name), bool):
                raise ParamsError(
                    f"{name} must be true or false, got {quote(getattr(params, name))}"
                )
        for name, low, high in (("tom_deck", 12, 15), ("max_rounds", 1, 100000)):
            value = getattr(params, name)
            if type(value) is not int or not low <= value <= high:
                raise ParamsError(f"{name} must be an integer in {low}..{high}, got {quote(value)}")
        if params.components is not None and not isinstance(params.components, str):
            raise ParamsError(
                f"components must be a file path or null, got {quote(params.components)}"
            )
        load_components(params.components)

    @classmethod
    def num_distinct_actions(cls, params: Params) -> int:
        assert isinstance(params, DjinnParams)
        return layout_of(load_components(params.components)).size

    @classmethod
    def max_game_length(cls, params: Params) -> int:
        assert isinstance(params, DjinnParams)
        n = params.num_players
        # Rounds: the cap, the round that finishes and the extra one; a solo game is
        # shorter (one Tom card per round-space turn, every second turn). Per turn at most
        # PER_TURN steps (ruling D15 counts them), plus the draft and the final Source.
        rounds = params.max_rounds + 2
        if params.solo:
            rounds = max(rounds, 2 * params.tom_deck + 4)
        return 2 * n + (rounds * n + n) * PER_TURN

    @classmethod
    def initial(cls, params: Params, seed: int, arrangement: Mapping[str, Any] | None) -> Self:
        assert isinstance(params, DjinnParams)
        state = cls.__new__(cls)
        _rules.setup(state, params, seed, arrangement)
        return state

    def arrangement(self) -> dict[str, Any]:
        return deepcopy(self.start)

    def data_digest(self) -> str | None:
        return self.comp.sha256

    # -- the state machine --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def num_actions(self) -> int:
        return self.L.size

    def to_act(self) -> frozenset[int]:
        return self.actors

    def secret_phase(self) -> tuple[Any, ...]:
        # A turn is many small decisions, and most steps inside one (a path walked space by
        # space, skipping an occupied space, a Djinn selected, a card activated, a chest
        # chosen) show nothing to the others until a step changes the table: the version
        # counts only steps that change something every seat sees. That is anything logged
        # or any of these public quantities (the catch in progress is shown to all, view.py);
        # the conformance kit's exact check holds the list to the view along playouts.
        # (Copies that do not log, a search's, count logged-only steps as private: their
        # versions serve no client.)
        top = self.stack.top
        catch = None
        seat = self.current
        if top is not None:
            if top.kind is Kind.CATCH_SELECT or top.kind is Kind.CATCH_PAY:
                catch = (top.context[0], tuple(top.context[1]))
            elif top.kind is Kind.DRAFT:
                seat = top.seat
        return (
            len(self.events), catch, seat, self.stage, self.round, self.turns, self.over,
            tuple(self.coins), tuple(self.scrolls), tuple(self.keys), tuple(self.magic),
            tuple(self.base), tuple(self.capacity), tuple(self.corks), tuple(self.pos),
            tuple(self.bag),
        )  # fmt: skip

    def legal_actions(self, player: int) -> Sequence[int]:
        if type(player) is int and player in self.actors:
            return self.options
        return ()

    def _apply(self, player: int, action: int) -> None:
        _rules.apply_action(self, player, action)

    def phase_description(self) -> str:
        top = self.stack.top
        if self.over or top is None:
            return "game over"
        return f"player {top.seat}: {top.kind.name.lower().replace('_', ' ')}"

    # -- actions as text ----------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        return self.L.texts[action]

    def action_texts(self, actions: Sequence[int]) -> list[str]:
        texts = self.L.texts
        return [texts[a] for a in actions]

    def parse_action(self, text: str) -> int:
        return parse(self.L, text)

    # -- decisions and information ------------------------------------------------------

    def _decision(self, seat: int) -> Decision:
        from arabesque.games.djinn.decisions import decision_for

        return decision_for(self, seat)

    def public_data(self) -> Components:
        return self.comp

    # -- copies -------------------------------------------------------------------------

    def _copy(self, full: bool) -> Self:
        new = self.__class__.__new__(self.__class__)
        d = new.__dict__
        src = self.__dict__
        for name in _SHARED:
            d[name] = getattr(self, name)
        for name in PLAYER_FIELDS:
            d[name] = src[name][:]
        for name in GAME_LISTS:
            d[name] = src[name][:]
        for name in PLAYER_NESTED:
            d[name] = [x[:] for x in src[name]]
        self._copy_run(new, full)
        return new

    def _resample(self, player: int, rng: random.Random) -> None:
        _rules.resample_hidden(self, player, rng)

    def fingerprint(self) -> Any:
        game = tuple(_freeze(getattr(self, name)) for name in _GAME_STATE)
        return (
            self.params,
            self.seed,
            self.version,
            self.rng.getstate(),
            tuple(self.history),
            tuple(self.events),
            game,
        )

    # -- the end ------------------------------------------------------------------------

    def scores(self) -> list[Score]:
        return [Score.of(b) for b in _rules.score_breakdowns(self)]

    def ranking(self) -> list[int]:
        # rulebook §Final score: ties go to coins + scrolls + keys, then are shared.
        return rank_scores(self.scores(), lambda p: self.coins[p] + self.scrolls[p] + self.keys[p])

    def returns(self) -> list[float]:
        if self.num_players == 1:
            # Solo: a win against Tom is 1, a loss 0 (ruling D12).
            return [1.0 if self.won else 0.0]
        return super().returns()


_SHARED = (
    "params", "comp", "L", "start", "adj", "seed", "version", "rng", *SCALARS,
)  # fmt: skip
_GAME_STATE = (*SCALARS, *PLAYER_FIELDS, *PLAYER_NESTED, *GAME_LISTS)

#: An upper bound on the steps of one turn (ruling D15).
PER_TURN = 400


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


__all__ = ["DjinnState", "Kind"]

from arabesque.games.djinn import rules as _rules  # noqa: E402
