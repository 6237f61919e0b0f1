"""Agent specs: ``random``, ``heuristic``, ``heuristic:median_ms=450`` ...

Game-agnostic agents are registered here; game-specific bots register from their game's
``bots`` module (imported on demand), so the core never names a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from arabesque.agents.base import Agent
from arabesque.agents.random_agent import RandomAgent
from arabesque.core.registry import get_game

AgentFactory = Callable[..., Agent]

_GENERIC: dict[str, AgentFactory] = {"random": RandomAgent}
_PER_GAME: dict[str, dict[str, AgentFactory]] = {}


def register_agent(game_id: str | None, name: str, factory: AgentFactory) -> None:
    """Register an agent for one game (``game_id``) or for every game (``None``)."""
    if game_id is None:
        _GENERIC[name] = factory
    else:
        _PER_GAME.setdefault(game_id, {})[name] = factory


def _load_game_bots(game_id: str) -> None:
    spec = get_game(game_id)
    package = spec.state_type.__module__.rsplit(".", 1)[0]
    try:
        importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.bots":
            raise


def agent_names(game_id: str) -> list[str]:
    _load_game_bots(game_id)
    return sorted(set(_GENERIC) | set(_PER_GAME.get(game_id, {})))


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
    """``name`` or ``name:key=value,key=value`` -> (name, options)."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, Any] = {}
    if rest:
        for item in rest.split(";") if ";" in rest else rest.split("+"):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise ValueError(f"agent option {item!r} in {spec!r} is not key=value")
            options[key.strip()] = _parse_value(value.strip())
    return name, options


def make_agent(spec: str, game_id: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec string; unknown names or options raise ValueError."""
    name, options = parse_agent_spec(spec)
    _load_game_bots(game_id)
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
