"""OpenSpiel python games for every Arabesque game (importing this module registers them).

    import pyspiel
    import arabesque.rl.openspiel  # registers python_arabesque_magic_lamp, ...
    game = pyspiel.load_game("python_arabesque_magic_lamp(players=3)")

What is declared (``GameType``), and why:

- dynamics ``SIMULTANEOUS`` for the games with secret simultaneous phases (Magic Lamp,
  Ali Baba), ``SEQUENTIAL`` for Djinn. ``current_player()`` is ``SIMULTANEOUS`` only while
  several seats act (``to_act()``); at such a node a seat that does not act has no legal
  actions (OpenSpiel passes 0 for it, which is ignored).
- chance ``SAMPLED_STOCHASTIC``: the deal and the in-game chance (lamp-race ties) are drawn
  inside the rules from the state's own seeded RNG; no chance node is exposed. The game
  takes OpenSpiel's usual ``rng_seed`` (-1: from the system) and draws each new initial
  state's seed from it; ``clone()`` copies the state with its RNG (``GameState.clone``).
- information ``IMPERFECT_INFORMATION``; utility ``GENERAL_SUM`` (seats can share a rank, so
  returns need not sum to zero); reward model ``TERMINAL``; utilities in [-1, 1]
  (``returns()``: rank-based, a solo game {0, 1}).
- Observations: ``make_py_observer`` gives the seat's float32 tensor with ``dict`` views
  named by the layout's fields, and its text; with ``private_info`` NONE, the public view
  (a spectator's). They are imperfect recall: no information-state string or tensor is
  provided, and ``perfect_recall=True`` is refused.
- OpenSpiel's default serialization replays the action history on a fresh initial state,
  whose seed differs, so it cannot replay sampled chance: test with ``serialize=False``.

Game parameters: ``players``, ``rng_seed``, ``race_step_ms``, ``race_floor_ms`` and the
game's own options with a plain default (``my_precious``, ``variant``, ``max_turns`` ...).
"""

from __future__ import annotations

import random
from typing import Any, Generic, TypeVar

import numpy as np
import pyspiel

from arabesque.core.game import GameState
from arabesque.core.registry import get_game
from arabesque.rl.table import DEFAULT_RACE_FLOOR_MS, RACE_RESOLUTION_MS, RLTable

#: The games registered at import: Arabesque id -> OpenSpiel short name.
GAMES = {
    "magic-lamp": "python_arabesque_magic_lamp",
    "ali-baba": "python_arabesque_ali_baba",
    "djinn": "python_arabesque_djinn",
}
_PLAIN = (bool, int, float, str)
T = TypeVar("T")


def parameter_specification(game_id: str) -> dict[str, Any]:
    """OpenSpiel's parameters with their defaults: the env's, then each game param whose
    default is a plain value (a components file path, None by default, is left out)."""
    spec = get_game(game_id)
    defaults = spec.make_params().to_json()
    params: dict[str, Any] = {
        "players": defaults["num_players"],
        "rng_seed": -1,
        "race_step_ms": RACE_RESOLUTION_MS,
        "race_floor_ms": DEFAULT_RACE_FLOOR_MS,
    }
    for key, value in defaults.items():
        if key != "num_players" and isinstance(value, _PLAIN):
            params[key] = value
    return params


def game_type(game_id: str) -> pyspiel.GameType:
    spec = get_game(game_id)
    dynamics = (
        pyspiel.GameType.Dynamics.SIMULTANEOUS
        if spec.simultaneous
        else pyspiel.GameType.Dynamics.SEQUENTIAL
    )
    return pyspiel.GameType(
        short_name=GAMES[game_id],
        long_name=f"Python Arabesque {spec.name}",
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameter_specification(game_id),
    )


class _Shared(Generic[T]):
    """What every state and copy of one game shares (its table, its seed stream): a
    state's ``clone()`` deep-copies its attributes, and these are the game's, not the
    state's."""

    def __init__(self, table: T) -> None:
        self.table = table

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared[T]:
        return self


class _Position:
    """The Arabesque state inside an OpenSpiel state; its deep copy is ``clone()``, which
    keeps the RNG (the sampled chance) and the history."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.legal_key: tuple[int, int] | None = None
        self.legal: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.state.clone())


class ArabesqueGame(pyspiel.Game):  # type: ignore[misc]
    """One Arabesque game as an OpenSpiel game (subclassed per game at registration)."""

    GAME_ID = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = dict(parameter_specification(self.GAME_ID))
        options.update(params or {})
        players = options.pop("players")
        rng_seed = options.pop("rng_seed")
        table = RLTable(self.GAME_ID, players, **options)
        self._shared = _Shared(table)
        super().__init__(
            game_type(self.GAME_ID),
            pyspiel.GameInfo(
                num_distinct_actions=table.num_actions,
                max_chance_outcomes=0,
                num_players=table.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=table.max_length,
            ),
            params or {},
        )
        self._seeds = random.Random(None if rng_seed < 0 else rng_seed)

    def new_initial_state(self) -> ArabesqueState:
        return ArabesqueState(self, self._shared, self._seeds)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ArabesqueObserver:
        return ArabesqueObserver(
            self._shared.table,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


class ArabesqueState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over one Arabesque ``GameState``."""

    def __init__(self, game: ArabesqueGame, shared: _Shared[RLTable], seeds: random.Random) -> None:
        super().__init__(game)
        self._shared = shared
        self._seed = seeds.randrange(2**31 - 1)
        self._dealt: _Position | None = None

    @property
    def _position(self) -> _Position:
        # Dealt from the seed on first use: pyspiel's clone() builds a new initial state
        # and copies this one's attributes over it (seed included), so a clone must not pay
        # for a deal it throws away, and an undealt clone deals the same game.
        if self._dealt is None:
            table = self._shared.table
            state = table.spec.new_game(table.params, seed=self._seed)
            state.logging = False
            self._dealt = _Position(state)
        return self._dealt

    @property
    def arabesque(self) -> GameState:
        """The Arabesque state (for tests and determinization)."""
        return self._position.state

    def _truncated(self) -> bool:
        state = self._position.state
        return not state.is_over and state.version >= self._shared.table.max_length

    def current_player(self) -> int:
        state = self._position.state
        if state.is_over or self._truncated():
            return int(pyspiel.PlayerId.TERMINAL)
        acting = state.to_act()
        if len(acting) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        (seat,) = acting
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        position = self._position
        state = position.state
        if player not in state.to_act():
            return []
        # OpenSpiel asks several times per node; the race's filtering is worth keeping.
        key = (state.version, player)
        if position.legal_key != key:
            position.legal = list(self._shared.table.legal_for(state, player))
            position.legal_key = key
        return list(position.legal)

    def _apply_action(self, action: int) -> None:
        state = self._position.state
        (seat,) = state.to_act()
        self._apply_checked(seat, action)

    def _apply_actions(self, actions: list[int]) -> None:
        # Every acting seat chose from the same state; the others' entries are ignored.
        for seat in sorted(self._position.state.to_act()):
            self._apply_checked(seat, actions[seat])

    def _apply_checked(self, seat: int, action: int) -> None:
        state = self._position.state
        if action not in self._legal_actions(seat):
            raise ValueError(
                f"seat {seat} cannot play {action} now ({state.action_to_str(action)!r})"
            )
        state.apply(seat, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return f"seat {player}: {self._position.state.action_to_str(action)}"

    def is_terminal(self) -> bool:
        return self._position.state.is_over or self._truncated()

    def returns(self) -> list[float]:
        state = self._position.state
        if not state.is_over:
            return [0.0] * state.num_players
        return [float(r) for r in state.returns()]

    def __str__(self) -> str:
        return self._position.state.render_text(None)


class ArabesqueObserver:
    """OpenSpiel's PyObserver over the game's observer: ``tensor`` (float32), ``dict``
    (a view of ``tensor`` per layout field) and ``string_from`` (the seat's text)."""

    def __init__(
        self, table: RLTable, iig_obs_type: pyspiel.IIGObservationType, params: Any
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        if iig_obs_type.perfect_recall:
            raise ValueError(
                "Arabesque observations are imperfect recall: no information state is "
                "provided (perfect_recall=True is refused)"
            )
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation with every player's private information is refused")
        if not iig_obs_type.public_info and private == pyspiel.PrivateInfoType.NONE:
            raise ValueError("an observation with neither public nor private information")
        #: False: the public view, a spectator's (``seat=None``); True: the seat's own.
        self._private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        layout = table.observer.layout
        self.tensor = np.zeros(table.shape, dtype=np.float32)
        self.dict = {f.name: self.tensor[f.slice] for f in layout}

    def set_from(self, state: ArabesqueState, player: int) -> None:
        self.tensor[:] = state.arabesque.observation(player if self._private else None)

    def string_from(self, state: ArabesqueState, player: int) -> str:
        return state.arabesque.render_text(player if self._private else None)


def register() -> None:
    """Register every game with pyspiel (done once, at import)."""
    registered = set(pyspiel.registered_names())
    for game_id, short_name in GAMES.items():
        if short_name in registered:
            continue
        game_class = type(
            f"ArabesqueGame_{game_id.replace('-', '_')}", (ArabesqueGame,), {"GAME_ID": game_id}
        )
        pyspiel.register_game(game_type(game_id), game_class)


register()
