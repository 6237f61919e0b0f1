"""The game registry: game ids to specs. Games register themselves on import."""

from __future__ import annotations

import importlib

from arabesque.core.errors import UnknownGameError
from arabesque.core.game import GameSpec

_SPECS: dict[str, GameSpec] = {}

#: Game packages loaded on first lookup (id -> module that registers it).
_BUILTIN = {
    "ali-baba": "arabesque.games.ali_baba",
    "djinn": "arabesque.games.djinn",
    "magic-lamp": "arabesque.games.magic_lamp",
}


def register(spec: GameSpec) -> GameSpec:
    existing = _SPECS.get(spec.id)
    if existing is not None and existing is not spec:
        raise ValueError(f"a different game is already registered as {spec.id!r}")
    _SPECS[spec.id] = spec
    return spec


def get_game(game_id: str) -> GameSpec:
    if game_id not in _SPECS and game_id in _BUILTIN:
        importlib.import_module(_BUILTIN[game_id])
    try:
        return _SPECS[game_id]
    except KeyError:
        raise UnknownGameError(
            f"no game {game_id!r}; known games: {', '.join(sorted(game_ids()))}"
        ) from None


def game_ids() -> list[str]:
    return sorted(set(_SPECS) | set(_BUILTIN))
