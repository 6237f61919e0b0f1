"""Magic Lamp game state: plain data plus the core contract's plumbing.

The forward model (what actions do) lives in the rules package (rules/) and the per-seat view
in view.py; this module holds the data, copies it, and answers who acts and what is legal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from copy import deepcopy
from enum import IntEnum
from typing import Any, Self

from arabesque.core.decision import Decision as CoreDecision
from arabesque.core.decision import Reaction
from arabesque.core.errors import ParamsError
from arabesque.core.events import Event
from arabesque.core.game import GameState, Params
from arabesque.core.limits import quote
from arabesque.core.observer import cached_on
from arabesque.core.scoring import Score
from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, CardKind, Components, load_components
from arabesque.games.magic_lamp.params import MAX_TURNS_CAP, MagicLampParams

LONE = -1  # a talisman left alone: it no longer stands for any stone type
NO_RING = -1
UNDECIDED = -1  # rub[p] before the player has answered the race
NO_RUB = -2  # rub[p] for a player who did not rub


class Phase(IntEnum):
    SETTING = 0  # secret simultaneous die setting
    RACE = 1  # simultaneous lamp race (rub with a reaction time, or not)
    RESOLVE = 2  # one decision at a time: angry Genie, wishes, searches, talismans
    OVER = 3


class DecisionKind(IntEnum):
    ANGRY_TARGET = 0  # the mistaken rubber picks the opponent who will steal
    ANGRY_STEAL = 1  # that opponent picks the card
    WISH = 2  # accept or reject the Lamp card drawn
    EFFECT_CHEST = 3  # pick a chest for a Lamp effect
    EFFECT_DIE = 4  # pick which of your two dice a Lamp effect changes
    EFFECT_FACE = 5  # pick the new face (Loaded Die)
    EFFECT_MOVE = 6  # pick the new chest space (Secret Passage)
    EFFECT_CARD = 7  # pick a card to steal or retrieve
    SWAP_OWN = 8  # pick your card to give
    SWAP_THEIRS = 9  # pick the opponent's card to take
    DRAW = 10  # draw the next chest card or stop
    TALISMAN = 11  # place a talisman on a stone type
    RETRIEVE = 12  # take a card from the discard pile (magic ring or Lamp card)
    SET_DIE = 13  # secretly set a die (the simultaneous setting phase)
    RACE = 14  # rub the lamp, with a reaction time, or not (the simultaneous race)


# Precomputed option tuples (legal_actions returns these objects directly).
ALL_SETS: tuple[int, ...] = tuple(range(A.SET_BASE, A.RUB_BASE))
SETS_EXCEPT: tuple[tuple[int, ...], ...] = tuple(
    tuple(a for a in ALL_SETS if A.decode_set(a)[0] != c) for c in range(len(CHESTS))
)
RACE_OPTIONS: tuple[int, ...] = tuple(range(A.RUB_BASE, A.NO_RUB + 1))
WISH_OPTIONS = (A.ACCEPT, A.REJECT)
DRAW_OPTIONS = (A.DRAW, A.STOP)
NO_OPTIONS: tuple[int, ...] = ()
#: to_act's answers that do not depend on the dice or the race: one seat deciding, nobody.
ONE_SEAT: tuple[frozenset[int], ...] = tuple(frozenset((p,)) for p in range(A.MAX_SEATS))
NOBODY: frozenset[int] = frozenset()
#: Every seat, per player count: who acts when a simultaneous phase opens.
ALL_SEATS: tuple[frozenset[int], ...] = tuple(frozenset(range(n)) for n in range(A.MAX_SEATS + 1))

# Enum members as module constants: ``Phase.RESOLVE`` is a class attribute lookup through the
# enum machinery, several times slower than a global on the hot path.
_SETTING = Phase.SETTING
_RACE = Phase.RACE
_RESOLVE = Phase.RESOLVE


def _action_texts(comp: Components) -> tuple[str, ...]:
    """The canonical text of every action of a components set, computed once and kept on
    the (frozen) components object."""
    return cached_on(
        comp,
        "_action_texts",
        lambda: tuple(
            A.to_str(a, comp.stone_types, comp.num_cards)
            for a in range(A.num_actions(comp.num_cards))
        ),
    )


class MagicLampState(GameState):
    """Everything about one game of Aladdin & the Magic Lamp."""

    params: MagicLampParams
    comp: Components

    # -- construction -------------------------------------------------------------------

    @classmethod
    def validate_params(cls, params: Params) -> None:
        assert isinstance(params, MagicLampParams)
        if not isinstance(params.my_precious, bool):
            raise ParamsError(f"my_precious must be true or false, got {quote(params.my_precious)}")
        if isinstance(params.max_turns, bool) or not isinstance(params.max_turns, int):
            raise ParamsError(f"max_turns must be an integer, got {quote(params.max_turns)}")
        if params.components is not None and not isinstance(params.components, str):
            raise ParamsError(
                f"components must be a file path or null, got {quote(params.components)}"
            )
        # A safety cap, not a rule: bounded like Djinn's max_rounds, so that the longest game
        # (max_game_length, the RL adapters' truncation) stays a sane number.
        if not 1 <= params.max_turns <= MAX_TURNS_CAP:
            raise ParamsError(
                f"max_turns must be an integer in 1..{MAX_TURNS_CAP}, got {quote(params.max_turns)}"
            )
        comp = load_components(params.components)
        needed = params.num_players * params.starting_cards_per_player
        if len(comp.starting_cards) < needed:
            raise ParamsError(
                f"{params.num_players} players need {needed} starting cards; the components "
                f"have {len(comp.starting_cards)}"
            )

    @classmethod
    def num_distinct_actions(cls, params: Params) -> int:
        assert isinstance(params, MagicLampParams)
        return A.num_actions(load_components(params.components).num_cards)

    @classmethod
    def max_game_length(cls, params: Params) -> int:
        assert isinstance(params, MagicLampParams)
        n = params.num_players
        # Per turn: dice settings and race answers (2n), at most n angry-Genie pairs, at most
        # two summoners with 3 wishes and 3 effect decisions each, and three searches of at
        # most 7 draw/stop answers, 6 talisman placements and a ring pick each.
        per_turn = 2 * n * params.dice_per_player + 2 * n + 2 * 6 + 3 * (7 + 6 + 2) + 8
        return params.max_turns * per_turn

    @classmethod
    def initial(cls, params: Params, seed: int, arrangement: Mapping[str, Any] | None) -> Self:
        assert isinstance(params, MagicLampParams)
        state = cls.__new__(cls)
        _rules.setup(state, params, seed, arrangement)
        return state

    # Fields (set by rules.setup); listed for readers and type checkers.
    start: dict[str, Any]
    decks: list[list[int]]  # per chest, bottom first: the top card is the last
    lamp_deck: list[int]  # Lamp card ids, bottom first
    lamp_known: int  # how many bottom Lamp cards everyone has seen go under the pile
    holdings: list[list[int]]  # per player, card ids in the order gained
    talisman_on: dict[int, int]  # placed talisman -> stone type index, or LONE
    discard: list[int]
    ring: int  # seat holding the magic ring, or NO_RING
    cave_closed: bool  # a Sorcerer was drawn: the game ends at the end of this turn
    over: bool
    turn: int
    phase: Phase
    dice: list[list[list[int]]]  # per player: [chest, face] per die set this turn
    rub: list[int]  # per player: reaction ms, UNDECIDED or NO_RUB
    # SETTING: seats with a die still to set; RACE: seats yet to answer; else empty. Kept by
    # the rules as dice are set and answers given, so to_act need not recount them.
    waiting: frozenset[int]
    ward: list[int]  # per player: scorpions still ignored this turn (Snake Charmer)
    summoners: list[int]
    agenda: list[tuple[Any, ...]]  # tasks still to run this turn, next first
    # The one decision waited for in RESOLVE: (kind, seat, options, context), else None.
    pending: tuple[DecisionKind, int, tuple[int, ...], tuple[Any, ...]] | None
    draw_ctx: list[Any] | None  # [player, chest, face, drawn ids, scorpions]
    known_top: list[list[list[int]]]  # per player, per chest: ids known on top, top first
    race_result: dict[str, Any] | None

    def arrangement(self) -> dict[str, Any]:
        # A copy: records and callers may edit what they get without changing the game.
        return deepcopy(self.start)

    def data_digest(self) -> str | None:
        return self.comp.sha256

    # -- the state machine --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def num_actions(self) -> int:
        # num_distinct_actions(self.params) without looking the components up again.
        return A.CARD_BASE + len(self.comp.cards)

    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase is _RESOLVE:
            decision = self.pending
            assert decision is not None
            return ONE_SEAT[decision[1]]
        if phase is _SETTING or phase is _RACE:
            return self.waiting
        return NOBODY

    def to_act_seen_by(self, seat: int | None) -> frozenset[int]:
        phase = self.phase
        if phase is _SETTING or phase is _RACE:
            # Who has already set a die or answered the race is secret until the reveal:
            # everyone else is shown as still to act.
            everyone = ALL_SEATS[self.num_players]
            if seat is None:
                return everyone
            return everyone - ONE_SEAT[seat] | (self.waiting & ONE_SEAT[seat])
        return self.to_act()

    def secret_phase(self) -> tuple[int, Phase] | None:
        # Setting the dice and answering the race are seen by their own seat only until the
        # phase ends (the reveal; the race's result).
        phase = self.phase
        if phase is _SETTING or phase is _RACE:
            return (self.turn, phase)
        return None

    def legal_actions(self, player: int) -> Sequence[int]:
        phase = self.phase
        # Only a plain int is a seat: True == 1 and 1.0 == 1, but apply refuses both.
        if type(player) is not int:
            return NO_OPTIONS
        if phase is _RESOLVE:
            decision = self.pending
            assert decision is not None
            return decision[2] if decision[1] == player else NO_OPTIONS
        if not 0 <= player < self.num_players:
            return NO_OPTIONS
        if phase is _SETTING:
            placed = self.dice[player]
            if len(placed) >= self.params.dice_per_player:
                return NO_OPTIONS
            # rulebook, 2 players: the two dice go on two different chest spaces.
            return SETS_EXCEPT[placed[0][0]] if placed else ALL_SETS
        if phase is _RACE:
            return RACE_OPTIONS if self.rub[player] == UNDECIDED else NO_OPTIONS
        return NO_OPTIONS

    def _apply(self, player: int, action: int) -> None:
        _rules.apply_action(self, player, action)

    def phase_description(self) -> str:
        if self.phase is Phase.SETTING:
            return "secretly setting dice"
        if self.phase is Phase.RACE:
            return "lamp race"
        if self.phase is Phase.OVER:
            return "game over"
        assert self.pending is not None
        return f"{self.pending[0].name.lower().replace('_', ' ')} by player {self.pending[1]}"

    # -- actions as text ----------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        # Every view of a seat in the race words its 301 options: look the texts up.
        texts = _action_texts(self.comp)
        if type(action) is int and 0 <= action < len(texts):
            return texts[action]
        return A.to_str(action, self.comp.stone_types, self.comp.num_cards)

    def action_texts(self, actions: Sequence[int]) -> list[str]:
        texts = _action_texts(self.comp)
        return [texts[a] for a in actions]

    def parse_action(self, text: str) -> int:
        return A.parse(text, self.comp.stone_types, self.comp.num_cards)

    # -- decisions and information ------------------------------------------------------

    def _decision(self, seat: int) -> CoreDecision:
        return _decisions.decision_for(self, seat)

    def reaction(self, seat: int) -> Reaction | None:
        # The lamp race is the one real-time decision; answered without building it.
        if self.phase is _RACE and seat in self.waiting:
            return _decisions.RACE_REACTION
        return None

    def public_data(self) -> Components:
        return self.comp

    # -- copies -------------------------------------------------------------------------

    def _copy(self, full: bool) -> Self:
        new = self.__class__.__new__(self.__class__)
        new.params = self.params
        new.comp = self.comp
        new.seed = self.seed
        new.version = self.version
        self._copy_run(new, full)
        new.start = self.start  # never mutated after setup
        new.decks = [list(d) for d in self.decks]
        new.lamp_deck = list(self.lamp_deck)
        new.lamp_known = self.lamp_known
        new.holdings = [list(h) for h in self.holdings]
        new.talisman_on = dict(self.talisman_on)
        new.discard = list(self.discard)
        new.ring = self.ring
        new.cave_closed = self.cave_closed
        new.over = self.over
        new.turn = self.turn
        new.phase = self.phase
        new.dice = [[list(d) for d in ds] for ds in self.dice]
        new.rub = list(self.rub)
        new.waiting = self.waiting  # a frozenset
        new.ward = list(self.ward)
        new.summoners = list(self.summoners)
        new.agenda = list(self.agenda)  # tasks are tuples
        new.pending = self.pending  # a tuple
        new.draw_ctx = (
            None
            if self.draw_ctx is None
            else [*self.draw_ctx[:3], list(self.draw_ctx[3]), self.draw_ctx[4]]
        )
        new.known_top = [[list(k) for k in per] for per in self.known_top]
        new.race_result = self.race_result  # replaced, never mutated
        return new

    def _resample(self, player: int, rng: random.Random) -> None:
        _rules.resample_hidden(self, player, rng)

    def fingerprint(self) -> Any:
        return (
            self.params,
            self.seed,
            self.version,
            self.rng.getstate(),
            tuple(self.history),
            tuple(self.events),
            tuple(map(tuple, self.decks)),
            tuple(self.lamp_deck),
            self.lamp_known,
            tuple(map(tuple, self.holdings)),
            tuple(sorted(self.talisman_on.items())),
            tuple(self.discard),
            self.ring,
            self.cave_closed,
            self.over,
            self.turn,
            self.phase,
            tuple(tuple(map(tuple, ds)) for ds in self.dice),
            tuple(self.rub),
            tuple(self.ward),
            tuple(self.summoners),
            tuple(self.agenda),
            self.pending,
            None if self.draw_ctx is None else repr(self.draw_ctx),
            tuple(tuple(map(tuple, per)) for per in self.known_top),
            repr(self.race_result),
        )

    # -- scoring ------------------------------------------------------------------------

    def scores(self) -> list[Score]:
        return [Score.of(b) for b in _rules.score_breakdowns(self)]

    # -- helpers used by rules, view and bots -------------------------------------------

    def card_kind(self, card_id: int) -> CardKind:
        return self.comp.cards[card_id].kind

    def holder_of(self, card_id: int) -> int | None:
        for p, held in enumerate(self.holdings):
            if card_id in held:
                return p
        return None


# Events are frozen dataclasses; keep the import visible for type checkers of clones.
__all__ = ["DecisionKind", "Event", "MagicLampState", "Phase"]

# The forward model and the decisions import this module, so they come last; importing them
# once here rather than in the methods that call them keeps an import statement off every
# step, determinization, scoring and view (``from <package> import name`` even runs
# importlib's ``_handle_fromlist``, in Python).
from arabesque.games.magic_lamp import decisions as _decisions  # noqa: E402
from arabesque.games.magic_lamp import rules as _rules  # noqa: E402
