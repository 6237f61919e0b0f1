"""A Gymnasium environment: one seat learns, Arabesque agents play the others.

    from arabesque.rl.gym import SingleAgentEnv
    env = SingleAgentEnv("magic-lamp", seat=0, opponents="random", players=2)

The observation is PettingZoo's Dict (``observation`` float32 within the layout's bounds,
``action_mask`` int8); ``action_masks()`` returns the mask as booleans for sb3-contrib's
``MaskablePPO``. The opponents are agents by spec string (``make_agent``: ``random``,
``heuristic``, ``heuristic:median_ms=450`` ..., one string for all or one per other seat),
seeded from ``self.np_random`` at every reset. In a simultaneous phase every acting seat
chooses from the same state before any choice is applied, as ``sim/runner.py`` does.

The reward is 0 until the end, then the seat's ``returns()`` (or its score difference with
``reward="score_diff"``). An illegal action (the mask says 0) ends the episode with
``terminated=True`` and reward -1, nothing applied; ``truncated`` is True only when a game
runs past ``spec.max_game_length`` without ending.

Importing this module registers ``arabesque/SingleAgent-v0`` with Gymnasium, so
``gymnasium.make("arabesque/SingleAgent-v0", game="ali-baba", opponents="random")`` works
(and ``AsyncVectorEnv`` can build it in other processes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from arabesque.agents.base import Agent
from arabesque.agents.registry import make_agent
from arabesque.rl.pettingzoo import RENDER_MODES, check_action, observation_space
from arabesque.rl.table import RLTable, check_seed


class SingleAgentEnv(gymnasium.Env[dict[str, Any], int]):
    """``game`` from ``seat``'s side against ``opponents``; other keywords are the game's
    params (``players``, ``variant`` ...) and the env's options (``reward``,
    ``race_step_ms``, ``race_floor_ms``)."""

    #: Gymnasium reads this from the class (``gymnasium.make``). render_fps only quiets the
    #: checker: a turn-based game renders when it is asked to.
    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        render_mode: str | None = None,
        **params: Any,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r}; known: {RENDER_MODES}")
        self.table = RLTable(game, **params)
        n = self.table.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be an int in 0..{n - 1}, got {seat!r}")
        self.seat = seat
        self.others = [p for p in range(n) if p != seat]
        specs = [opponents] * len(self.others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(self.others) or not all(isinstance(s, str) for s in specs):
            raise ValueError(
                f"opponents is one agent spec or {len(self.others)} of them, got {opponents!r}"
            )
        self.opponent_specs = specs
        game_id = self.table.spec.id
        # Built once here so an unknown spec fails now (ValueError), not at the first reset.
        self._opponents: dict[int, Agent] = {
            p: make_agent(s, game_id) for p, s in zip(self.others, specs, strict=True)
        }
        self.render_mode = render_mode
        #: Set by an illegal action, which ends the episode without ending the game.
        self._ended = True
        self.observation_space = observation_space(self.table)
        self.action_space = spaces.Discrete(self.table.num_actions)  # type: ignore[assignment]

    # -- Gymnasium's contract -------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=check_seed(seed))
        rng = self.np_random
        self.table.new_game(int(rng.integers(0, 2**31 - 1)))
        game_id = self.table.spec.id
        self._opponents = {
            p: make_agent(s, game_id, seed=int(rng.integers(0, 2**31 - 1)))
            for p, s in zip(self.others, self.opponent_specs, strict=True)
        }
        self._ended = False
        self._play_others(None)
        return self.table.observation(self.seat), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        table = self.table
        if self._ended or table.state.is_over or table.truncated:
            raise ValueError("the episode is over: call reset()")
        value = check_action(table, action)
        if not table.allows(self.seat, value):
            self._ended = True
            return table.observation(self.seat), -1.0, True, False, {"illegal_action": value}
        self._play_others(value)
        state = table.state
        if state.is_over:
            reward = table.final_rewards()[self.seat]
            return table.observation(self.seat), reward, True, False, {}
        return table.observation(self.seat), 0.0, False, table.truncated, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as sb3-contrib's ``MaskablePPO`` asks for them."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (human or ansi)")
            return None
        text = self.table.state.render_text(self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    # -- the opponents --------------------------------------------------------------------------

    def _play_others(self, own: int | None) -> None:
        """Apply the learner's ``own`` action (if any) with the opponents' choices from the
        same state, then let the opponents play until the learner acts or the game ends."""
        table = self.table
        state = table.state
        while True:
            acting = sorted(state.to_act())
            if not acting or table.truncated:
                return
            if self.seat in acting and own is None:
                return
            choices: list[tuple[int, int]] = []
            for p in acting:
                if p != self.seat:
                    choices.append((p, table.agent_action(self._opponents[p], state, p)))
                elif own is not None:
                    choices.append((p, own))
                    own = None
            for p, a in choices:
                state.apply(p, a)


#: The id ``gymnasium.make`` knows the env by.
ENV_ID = "arabesque/SingleAgent-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="arabesque.rl.gym:SingleAgentEnv")
