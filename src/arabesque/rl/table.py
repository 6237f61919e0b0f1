"""What every RL adapter shares: one game through the core contract, seen by one seat.

``RLTable`` holds a game's spec, params and current state, and answers what the
PettingZoo, Gymnasium and OpenSpiel adapters ask in their own words: the seats that act,
a seat's float32 observation and int8 action mask, the legal actions after the race
options (below), and the rewards. It never decides a rule: legality, hidden information and
scores come from the state and its observer.

The lamp race: a decision whose ``reaction`` is set offers one action per 10 ms of reaction
time plus "no reaction". ``race_step_ms`` keeps only the reaction times that are multiples
of it, and ``race_floor_ms`` drops those faster than a human can react (the
``ReactionProfile`` floor, 300 ms); "no reaction" is always kept. This applies to every
seat, the learner's opponents included (``restricted_observation``).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from arabesque.agents.base import Agent, Observation
from arabesque.core.decision import Reaction
from arabesque.core.errors import ParamsError
from arabesque.core.game import GameSpec, GameState, Params
from arabesque.core.registry import get_game

#: What the reward says: the rank-based ``returns()`` at the end, or the score difference
#: to the best other seat at the end.
REWARDS = ("returns", "score_diff")
#: The default fastest rub the env offers: ``ReactionProfile``'s floor (a human's).
DEFAULT_RACE_FLOOR_MS = 300
#: Reaction times are recorded to 10 ms; a coarser step must be a multiple of it.
RACE_RESOLUTION_MS = 10
RACE_WINDOW_MS = 2990

MaskArray = npt.NDArray[np.int8]
#: How many action masks ``RLTable`` keeps (by their legal tuple) before it starts afresh.
_MASKS_KEPT = 256


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def check_seed(seed: object) -> int | None:
    """A seed is None or a plain int (numpy ints as the value they hold); a bool, a float or
    a string is refused with a ``ValueError``."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise ValueError(f"a seed is an int or None, got {seed!r}")
    return int(seed)


def make_params(spec: GameSpec, players: int | None, options: dict[str, Any]) -> Params:
    """The game's params from the env's keywords (``players`` is ``num_players``; without
    either, the game's default count); unknown or bad options raise ``ParamsError``."""
    options = dict(options)
    if players is not None:
        if "num_players" in options:
            raise ParamsError("give the player count once: players= or num_players=")
        options["num_players"] = players
    return spec.make_params(**options)


class RaceOptions:
    """``race_step_ms`` and ``race_floor_ms``, checked once (``ParamsError``)."""

    def __init__(self, step_ms: object = RACE_RESOLUTION_MS, floor_ms: object = None) -> None:
        if floor_ms is None:
            floor_ms = DEFAULT_RACE_FLOOR_MS
        if (
            isinstance(step_ms, bool)
            or not isinstance(step_ms, int)
            or step_ms <= 0
            or step_ms % RACE_RESOLUTION_MS
            or step_ms > RACE_WINDOW_MS
        ):
            raise ParamsError(
                f"race_step_ms must be a positive multiple of {RACE_RESOLUTION_MS} ms up to "
                f"{RACE_WINDOW_MS} (10, 50, 100, 250 ...), got {step_ms!r}"
            )
        if (
            isinstance(floor_ms, bool)
            or not isinstance(floor_ms, int)
            or not 0 <= floor_ms <= RACE_WINDOW_MS
        ):
            raise ParamsError(
                f"race_floor_ms must be an int in 0..{RACE_WINDOW_MS}, got {floor_ms!r}"
            )
        self.step_ms = step_ms
        self.floor_ms = floor_ms

        self._dropped: dict[Reaction, frozenset[int]] = {}

    @property
    def restricts(self) -> bool:
        return self.step_ms != RACE_RESOLUTION_MS or self.floor_ms > 0

    def dropped(self, reaction: Reaction) -> frozenset[int]:
        """The reaction's actions these options mask out (computed once per reaction)."""
        found = self._dropped.get(reaction)
        if found is None:
            buckets = reaction.window_ms // reaction.step_ms + 1
            found = self._dropped[reaction] = frozenset(
                a
                for a in range(reaction.first, reaction.first + buckets)
                if not self.keeps(reaction, a)
            )
        return found

    def keeps(self, reaction: Reaction, action: int) -> bool:
        ms = reaction.ms_of(action)
        return ms is None or (ms >= self.floor_ms and ms % self.step_ms == 0)

    def snap(self, reaction: Reaction, action: int) -> int:
        """A reaction the options mask out, moved to the nearest one they keep (an
        opponent bot's own reaction time on the env's coarser grid)."""
        ms = reaction.ms_of(action)
        if ms is None or self.keeps(reaction, action):
            return action
        steps = max(-(-self.floor_ms // self.step_ms), round(ms / self.step_ms))
        snapped = steps * self.step_ms
        return reaction.none if snapped > reaction.window_ms else reaction.action_for(snapped)


class RLTable:
    """One game of ``spec`` with ``params``, as the adapters see it."""

    def __init__(
        self,
        game: str,
        players: int | None = None,
        reward: str = "returns",
        race_step_ms: object = RACE_RESOLUTION_MS,
        race_floor_ms: object = None,
        **options: Any,
    ) -> None:
        if not isinstance(game, str):
            raise ParamsError(f"a game is named by its id, got {game!r}")
        try:
            self.spec = get_game(game)
        except ValueError as exc:
            raise ParamsError(str(exc)) from None
        self.params = make_params(self.spec, players, options)
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; known: {', '.join(REWARDS)}")
        self.reward = reward
        self.race = RaceOptions(race_step_ms, race_floor_ms)
        self.num_players = self.params.num_players
        self.num_actions = self.spec.num_actions(self.params)
        self.max_length = self.spec.max_game_length(self.params)
        self.observer = self.spec.observer(self.params)
        self.shape = self.spec.observation_shape(self.params)
        #: The game's reaction decision once one has been seen (the core's ``Reaction``
        #: names the "no reaction" action, which only that decision offers).
        self._reaction: Reaction | None = None
        self._legal_cache: dict[int, tuple[int, Sequence[int]]] = {}
        self._masks: dict[int, tuple[Sequence[int], MaskArray]] = {}
        self._filtered: tuple[Sequence[int], tuple[int, ...]] | None = None
        self.state: GameState = self.spec.new_game(self.params, seed=0)

    # -- the game ---------------------------------------------------------------------------

    def new_game(self, seed: int) -> GameState:
        self.state = self.spec.new_game(self.params, seed=seed)
        self.state.logging = False
        self._legal_cache.clear()
        return self.state

    def to_act(self) -> list[int]:
        return sorted(self.state.to_act())

    @property
    def truncated(self) -> bool:
        return not self.state.is_over and self.state.version >= self.max_length

    # -- the race options -------------------------------------------------------------------

    def reaction_of(self, state: GameState, seat: int, legal: Sequence[int]) -> Reaction | None:
        """The reaction decision ``seat`` faces, if it faces one."""
        if not self.spec.real_time or not legal:
            return None
        known = self._reaction
        if known is not None:
            i = bisect_left(legal, known.none)
            return known if i < len(legal) and legal[i] == known.none else None
        decision = state.decision(seat)
        if decision is not None and decision.reaction is not None:
            self._reaction = decision.reaction
            return decision.reaction
        return None

    def legal_for(self, state: GameState, seat: int) -> Sequence[int]:
        """``state.legal_actions(seat)`` less the race's masked reactions (ascending)."""
        legal = state.legal_actions(seat)
        if not self.race.restricts:
            return legal
        reaction = self.reaction_of(state, seat, legal)
        if reaction is None:
            return legal
        # A state hands out the same precomputed tuple for the same options (the race's
        # 301), so its filtered copy is kept until a different tuple comes.
        last = self._filtered
        if last is not None and last[0] is legal:
            return last[1]
        dropped = self.race.dropped(reaction)
        kept = tuple(a for a in legal if a not in dropped)
        self._filtered = (legal, kept)
        return kept

    def legal(self, seat: int) -> Sequence[int]:
        """The current state's legal actions for ``seat`` as the env offers them (cached
        per version: a mask and a step both ask)."""
        version = self.state.version
        hit = self._legal_cache.get(seat)
        if hit is not None and hit[0] == version:
            return hit[1]
        legal = self.legal_for(self.state, seat) if seat in self.state.to_act() else ()
        self._legal_cache[seat] = (version, legal)
        return legal

    def _mask_of(self, legal: Sequence[int]) -> MaskArray:
        """The (read-only) mask of ``legal``. States hand out the same tuple for the same
        options (the race's 271 rubs, a die's chest spaces, a pending decision's options),
        so masks are kept by the tuple's identity: building one costs more than the game's
        step. The tuple is kept with its mask, so its id cannot be reused while cached."""
        hit = self._masks.get(id(legal))
        if hit is not None and hit[0] is legal:
            return hit[1]
        out = np.zeros(self.num_actions, dtype=np.int8)
        if legal:
            out[list(legal)] = 1
        out.flags.writeable = False
        if len(self._masks) >= _MASKS_KEPT:
            self._masks.clear()
        self._masks[id(legal)] = (legal, out)
        return out

    def mask(self, seat: int) -> MaskArray:
        """1 for each action the env offers ``seat`` now; all zero when it does not act.
        A fresh array: the caller may keep or change it."""
        return self._mask_of(self.legal(seat)).copy()

    def allows(self, seat: int, action: int) -> bool:
        """True when the env offers ``action`` (within ``0..num_actions - 1``) to ``seat``
        now."""
        return bool(self._mask_of(self.legal(seat))[action])

    def observation(self, seat: int) -> dict[str, Any]:
        """PettingZoo's and Gymnasium's Dict observation for ``seat``."""
        return {"observation": self.state.observation(seat), "action_mask": self.mask(seat)}

    def restricted_observation(self, state: GameState, seat: int) -> Observation:
        """An agent's ``Observation`` whose legal actions leave out the masked reactions."""
        obs = Observation(state, seat)
        if self.race.restricts:
            obs.legal = self.legal_for(state, seat)
        return obs

    def agent_action(self, agent: Agent, state: GameState, seat: int) -> int:
        """What an Arabesque agent plays for ``seat``, kept within the race options (a bot's
        own reaction time is moved onto the env's grid)."""
        action = agent.act(self.restricted_observation(state, seat))
        if self.race.restricts:
            reaction = self.reaction_of(state, seat, state.legal_actions(seat))
            if reaction is not None:
                action = self.race.snap(reaction, action)
        return action

    # -- rewards ------------------------------------------------------------------------------

    def final_rewards(self) -> list[float]:
        """Each seat's reward at the end: ``returns()`` (rank-based in [-1, 1]; a solo game
        {0, 1}) or, with ``reward="score_diff"``, its score less the best other score (its
        own score in a solo game)."""
        state = self.state
        if self.reward == "returns":
            return [float(r) for r in state.returns()]
        totals = [float(s.total) for s in state.scores()]
        if len(totals) == 1:
            return totals
        return [
            t - max(other for j, other in enumerate(totals) if j != i) for i, t in enumerate(totals)
        ]


def draw_seed(rng: random.Random | np.random.Generator) -> int:
    """A game seed from an env's own RNG."""
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**31 - 1))
    return rng.randrange(2**31 - 1)
