"""Agent specs: ``random``, ``heuristic``, ``heuristic:median_ms=450``,
``ismcts:fm=4000+horizon=30`` ...: a name, then optionally ``:`` and ``key=value`` options
joined with ``+``. A comma is refused inside a spec, since lists of specs (``--agents``) are
split on commas.

Game-agnostic agents are registered here (``random``, ``ismcts`` and its levels ``easy``,
``medium``, ``hard``); game-specific bots register from their game's ``bots`` module
(imported on demand), where a game may also register its own tuning of a level, so the core
never names a game. Every agent has a one-line description (``agent_descriptions``) for the
lobby and the command line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from arabesque.agents.base import Agent
from arabesque.agents.ismcts import IsmctsAgent
from arabesque.agents.levels import LEVELS, level_factory
from arabesque.agents.random_agent import RandomAgent
from arabesque.core.registry import get_game

AgentFactory = Callable[..., Agent]

_GENERIC: dict[str, AgentFactory] = {"random": RandomAgent, "ismcts": IsmctsAgent}
_PER_GAME: dict[str, dict[str, AgentFactory]] = {}
_DESCRIPTIONS: dict[str | None, dict[str, str]] = {
    None: {
        "random": "plays a uniformly random legal move",
        "ismcts": "information-set Monte Carlo tree search (options: fm, iters, ms, horizon ...)",
    }
}


def register_agent(
    game_id: str | None, name: str, factory: AgentFactory, description: str = ""
) -> None:
    """Register an agent for one game (``game_id``) or for every game (``None``), with a
    one-line description (a game's own entry replaces a generic one's)."""
    if game_id is None:
        _GENERIC[name] = factory
    else:
        _PER_GAME.setdefault(game_id, {})[name] = factory
    if description:
        _DESCRIPTIONS.setdefault(game_id, {})[name] = description


for _name, (_spec, _description) in LEVELS.items():
    register_agent(None, _name, level_factory(_spec), _description)


def load_game_bots(game_id: str) -> None:
    """Import the game's ``bots`` package, which registers its agents and evaluation."""
    spec = get_game(game_id)
    package = spec.state_type.__module__.rsplit(".", 1)[0]
    try:
        importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.bots":
            raise


def agent_names(game_id: str) -> list[str]:
    load_game_bots(game_id)
    return sorted(set(_GENERIC) | set(_PER_GAME.get(game_id, {})))


def agent_descriptions(game_id: str) -> dict[str, str]:
    """Every agent of the game with its one-line description ("" when it has none)."""
    names = agent_names(game_id)
    generic = _DESCRIPTIONS.get(None, {})
    own = _DESCRIPTIONS.get(game_id, {})
    return {name: own.get(name) or generic.get(name, "") for name in names}


def _parse_value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name:key=value+key=value`` -> (name, options). Raises ValueError on a
    comma (lists of specs are split on commas), a repeated key or an item not key=value."""
    if "," in spec:
        raise ValueError(
            f"agent spec {spec!r} contains a comma; join its options with '+' "
            "(e.g. ismcts:fm=4000+horizon=30)"
        )
    name, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    if rest:
        for item in rest.split(";") if ";" in rest else rest.split("+"):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise ValueError(f"agent option {item!r} in {spec!r} is not key=value")
            if key.strip() in options:
                raise ValueError(f"agent option {key.strip()!r} given twice in {spec!r}")
            options[key.strip()] = _parse_value(value.strip())
    return name, options


def make_agent(spec: str, game_id: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec string; unknown names or options raise ValueError."""
    name, options = parse_agent_spec(spec)
    load_game_bots(game_id)
    factory = _PER_GAME.get(game_id, {}).get(name) or _GENERIC.get(name)
    if factory is None:
        raise ValueError(
            f"unknown agent {name!r} for {game_id}; known: {', '.join(agent_names(game_id))}"
        )
    try:
        agent = factory(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bad options for agent {name!r}: {exc}") from exc
    agent.spec = spec
    return agent
