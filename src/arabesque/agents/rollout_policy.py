"""Per-game rollout policies for search bots: ``policy(state, seat, rng) -> action``.

Below its tree, ``ismcts`` plays rollouts; by default every move is uniformly random, whose
outcomes are mostly noise where a game rewards judgement at every step (when to stop drawing,
say). A game may register a quick policy from its ``bots`` package (``register_rollout_policy``),
next to its evaluation; this module never names a game. A policy reads only the (determinized)
state it is given and must cost microseconds. At a real-time decision (``state.reaction(seat)``)
any action other than the reaction's ``none`` means "react": the search draws the time itself,
from its reaction profile, so a policy never chooses how fast a seat reacts.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from arabesque.core.errors import UnknownGameError
from arabesque.core.game import GameState

RolloutPolicy = Callable[[GameState, int, random.Random], int]

_POLICIES: dict[str, RolloutPolicy] = {}


def register_rollout_policy(game_id: str, policy: RolloutPolicy) -> None:
    """Register ``game_id``'s rollout policy (from the game's ``bots`` package)."""
    _POLICIES[game_id] = policy


def rollout_policy_for(game_id: str) -> RolloutPolicy | None:
    """The game's rollout policy, or None (uniformly random rollouts)."""
    from arabesque.agents.registry import load_game_bots

    if game_id not in _POLICIES:
        try:
            load_game_bots(game_id)
        except UnknownGameError:
            return None  # a game outside the registry (a test's toy) has no bots package
    return _POLICIES.get(game_id)
