"""PettingZoo environments for every Arabesque game: AEC (``env``) and Parallel
(``parallel_env``). docs/rl.md describes the spaces, rewards and masks.

    from arabesque.rl.pettingzoo import env, parallel_env
    aec = env("magic-lamp", players=3)
    par = parallel_env("ali-baba", players=2, variant="smaller-cave")

Agents are ``seat_0 .. seat_{n-1}``. Each observes ``{"observation": float32 vector,
"action_mask": int8 vector}``; a seat that does not act now has an all-zero mask.

AEC: ``agent_selection`` walks the seats that act now in seat order. In a secret
simultaneous phase (Magic Lamp's dice and race, Ali Baba's show) the chosen actions are held
back and applied together once the last of those seats has chosen, as ``sim/runner.py``
does, so no seat's observation changes between those steps.

Parallel: ``step(actions)`` takes an action for every live agent and applies those of the
seats that act now; the others' are ignored (``parallel_api_test`` samples an action for
every agent).

An illegal action (the mask says 0) ends the game for everyone with reward -1 for the seat
that played it, and nothing is applied; an action outside the space or not an integer is
refused (``AssertOutOfBoundsWrapper`` in AEC, ``ValueError`` otherwise).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from arabesque.rl.table import RLTable, agent_name, check_seed, draw_seed

RENDER_MODES = ["human", "ansi"]


def observation_space(table: RLTable) -> spaces.Dict:
    """``Dict(observation=Box(low, high), action_mask=Box(0, 1, int8))`` from the layout's
    bounds and the action space's size."""
    layout = table.observer.layout
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=np.asarray(layout.low, dtype=np.float32),
                high=np.asarray(layout.high, dtype=np.float32),
                shape=table.shape,
                dtype=np.float32,
            ),
            "action_mask": spaces.Box(0, 1, shape=(table.num_actions,), dtype=np.int8),
        }
    )


class ActionSpace(spaces.Discrete):
    """``Discrete(num_actions)`` that answers ``contains`` for a plain int without NumPy
    (``AssertOutOfBoundsWrapper`` asks at every step; Gymnasium's own check converts the
    int to ``np.int64`` first, which costs as much as the game's step). Anything else is
    Gymnasium's answer."""

    def __init__(self, n: int, seed: Any = None, start: int = 0) -> None:
        super().__init__(n, seed=seed, start=start)
        self._first = int(start)
        self._end = int(start) + int(n)

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return self._first <= x < self._end
        return bool(super().contains(x))


def check_action(table: RLTable, action: object) -> int:
    """The action as an int within the space, or a one-line ``ValueError``."""
    if type(action) is int and 0 <= action < table.num_actions:
        return action
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise ValueError(f"an action is an integer in 0..{table.num_actions - 1}, got {action!r}")
    value = int(action)
    if not 0 <= value < table.num_actions:
        raise ValueError(f"action {value} is outside 0..{table.num_actions - 1}")
    return value


def _render(table: RLTable, mode: str | None) -> str | None:
    if mode is None:
        gymnasium.logger.warn("render() was called without a render_mode (human or ansi)")
        return None
    text = table.state.render_text(None)
    if mode == "ansi":
        return text
    print(text)
    return None


class _Spaces:
    """The spaces both envs share: one object per agent, the same at every call (the
    PettingZoo tests assert identity, so a seeded space stays seeded)."""

    table: RLTable

    def _build_spaces(self) -> None:
        n = self.table.num_players
        self.possible_agents = [agent_name(i) for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.table) for a in self.possible_agents}
        self.action_spaces = {a: ActionSpace(self.table.num_actions) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]


class ArabesqueAECEnv(_Spaces, AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The raw AEC env (``env`` wraps it as PettingZoo's classic games are wrapped)."""

    #: Read from the class by PettingZoo's tests; each env names its game in its own copy.
    metadata = {  # noqa: RUF012
        "render_modes": RENDER_MODES,
        "name": "arabesque_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        reward: str = "returns",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r}; known: {RENDER_MODES}")
        self.table = RLTable(game, players, reward=reward, **options)
        self.render_mode = render_mode
        self._build_spaces()
        self.metadata = {**self.metadata, "name": f"arabesque_{game.replace('-', '_')}_v0"}
        self._rng = random.Random()
        self._queue: list[int] = []
        self._chosen: dict[int, int] = {}
        self.agents: list[str] = []

    def __str__(self) -> str:
        return str(self.metadata["name"])

    # -- PettingZoo's AEC contract ----------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        if seed is not None:
            self._rng.seed(seed)
        self.table.new_game(seed if seed is not None else draw_seed(self._rng))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._chosen = {}
        self._queue = self.table.to_act()
        self.agent_selection = agent_name(self._queue[0])

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observation(self._seat[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        seat = self._seat[agent]
        value = check_action(table, action)
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        if not table.allows(seat, value):
            self._end_illegal(seat)
        else:
            self._chosen[seat] = value
            self._queue.pop(0)
            if not self._queue:
                self._apply_chosen()
        self._accumulate_rewards()
        if not self._end_if_done():
            self.agent_selection = agent_name(self._queue[0])
        else:
            self._deads_step_first()

    def _apply_chosen(self) -> None:
        state = self.table.state
        for s, a in sorted(self._chosen.items()):
            state.apply(s, a)
        self._chosen = {}
        self._queue = self.table.to_act()

    def _end_illegal(self, seat: int) -> None:
        self._chosen = {}
        self._queue = []
        for a in self.agents:
            self.terminations[a] = True
        self.rewards[agent_name(seat)] = -1.0

    def _end_if_done(self) -> bool:
        """Sets the rewards and flags at the end; True when the game is over for all."""
        table = self.table
        if any(self.terminations.values()):
            return True
        if table.state.is_over:
            for a, r in zip(self.agents, table.final_rewards(), strict=True):
                self.rewards[a] = r
                self._cumulative_rewards[a] += r
                self.terminations[a] = True
            return True
        if table.truncated:
            for a in self.agents:
                self.truncations[a] = True
            return True
        return False

    def render(self) -> str | None:
        return _render(self.table, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the game is plain Python objects."""


class _ReadsRawEnv:
    """The attributes an AEC loop reads at every step (``last()``, ``agent_iter``, the
    wrappers' own ``step``), read straight from the raw env.

    PettingZoo's ``BaseWrapper`` forwards any attribute it lacks through ``__getattr__``,
    one Python call per wrapper, so through three wrappers each read of
    ``agent_selection`` or ``terminations`` costs several microseconds and an AEC step
    makes dozens: as much as the game's own step. Declared here, they are found on the
    class and ``__getattr__`` is never reached; the wrappers' checks run unchanged. The
    values are the raw env's own (the wrappers write theirs there too, through
    ``env.unwrapped``), so nothing is copied that could go stale."""

    _raw: ArabesqueAECEnv
    env: AECEnv[str, Any, int]

    def _hold_raw(self) -> None:
        self._raw = self.env.unwrapped

    def _live(self) -> ArabesqueAECEnv:
        return self._raw

    @property
    def agent_selection(self) -> str:
        return self._live().agent_selection

    @property
    def agents(self) -> list[str]:
        return self._live().agents

    @property
    def rewards(self) -> dict[str, float]:
        return self._live().rewards

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._live()._cumulative_rewards

    @property
    def terminations(self) -> dict[str, bool]:
        return self._live().terminations

    @property
    def truncations(self) -> dict[str, bool]:
        return self._live().truncations

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._live().infos

    @property
    def possible_agents(self) -> list[str]:
        return self._raw.possible_agents

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._raw.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._raw.action_spaces[agent]


class _TerminateIllegal(_ReadsRawEnv, wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    def __init__(self, env: AECEnv[str, Any, int], illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._hold_raw()


class _AssertOutOfBounds(_ReadsRawEnv, wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    def __init__(self, env: AECEnv[str, Any, int]) -> None:
        super().__init__(env)
        self._hold_raw()


class _OrderEnforcing(_ReadsRawEnv, wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """As PettingZoo's: the game's attributes cannot be read before ``reset()``."""

    def __init__(self, env: AECEnv[str, Any, int]) -> None:
        super().__init__(env)
        self._hold_raw()

    def _live(self) -> ArabesqueAECEnv:
        if not self._has_reset:
            # Python then asks ``__getattr__``, whose error names the attribute.
            raise AttributeError("cannot be accessed before reset")
        return self._raw


def env(game: str, players: int | None = None, **options: Any) -> AECEnv[str, Any, int]:
    """The AEC env for ``game`` (an Arabesque game id), wrapped as PettingZoo's classic
    games are: illegal moves end the game with -1 for the mover
    (``TerminateIllegalWrapper``), out-of-range actions fail an assertion
    (``AssertOutOfBoundsWrapper``), and the call order is enforced
    (``OrderEnforcingWrapper``). Each wrapper is PettingZoo's, with the attributes an AEC
    loop reads at every step declared on it (``_ReadsRawEnv``)."""
    raw: AECEnv[str, Any, int] = ArabesqueAECEnv(game, players, **options)
    wrapped: AECEnv[str, Any, int] = _TerminateIllegal(raw, illegal_reward=-1)
    wrapped = _AssertOutOfBounds(wrapped)
    return _OrderEnforcing(wrapped)


raw_env = ArabesqueAECEnv


class ArabesqueParallelEnv(_Spaces, ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Every seat steps at once; only the actions of the seats that act now are applied."""

    metadata = {"render_modes": RENDER_MODES, "name": "arabesque_v0"}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        reward: str = "returns",
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r}; known: {RENDER_MODES}")
        self.table = RLTable(game, players, reward=reward, **options)
        self.render_mode = render_mode
        self._build_spaces()
        self.metadata = {**self.metadata, "name": f"arabesque_{game.replace('-', '_')}_v0"}
        self._rng = random.Random()
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        seed = check_seed(seed)
        if seed is not None:
            self._rng.seed(seed)
        self.table.new_game(seed if seed is not None else draw_seed(self._rng))
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self.table.observation(self._seat[a]) for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        table = self.table
        for agent, action in actions.items():
            if agent not in self.agents:
                if action is None and agent in self._seat:
                    continue
                raise ValueError(f"{agent!r} is not a live agent; live: {self.agents}")
        acting = table.to_act()
        chosen: dict[int, int] = {}
        illegal: int | None = None
        for seat in acting:
            agent = agent_name(seat)
            if agent not in actions:
                raise ValueError(f"{agent} acts now and was given no action")
            value = check_action(table, actions[agent])
            if not table.allows(seat, value):
                illegal = seat
                break
            chosen[seat] = value
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        terminations = dict.fromkeys(agents, False)
        truncations = dict.fromkeys(agents, False)
        if illegal is not None:
            rewards[agent_name(illegal)] = -1.0
            terminations = dict.fromkeys(agents, True)
        else:
            for seat, value in chosen.items():
                table.state.apply(seat, value)
            if table.state.is_over:
                rewards = dict(zip(agents, table.final_rewards(), strict=True))
                terminations = dict.fromkeys(agents, True)
            elif table.truncated:
                truncations = dict.fromkeys(agents, True)
        observations = self._observations()
        infos: dict[str, Any] = {a: {} for a in agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return _render(self.table, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the game is plain Python objects."""


def parallel_env(game: str, players: int | None = None, **options: Any) -> ArabesqueParallelEnv:
    """The Parallel env for ``game`` (an Arabesque game id)."""
    return ArabesqueParallelEnv(game, players, **options)
