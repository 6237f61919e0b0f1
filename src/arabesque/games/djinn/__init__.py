"""Djinn (Benjamin Schwer, Hall Games / Pegasus Spiele 2023), game id ``djinn``."""

from arabesque.core.game import GameSpec
from arabesque.core.registry import register
from arabesque.games.djinn.components import catalog
from arabesque.games.djinn.observer import DjinnObserver
from arabesque.games.djinn.params import DjinnParams
from arabesque.games.djinn.state import DjinnState

SPEC = register(
    GameSpec(
        id="djinn",
        name="Djinn",
        min_players=1,
        max_players=4,
        params_type=DjinnParams,
        state_type=DjinnState,
        simultaneous=False,
        hidden_information=True,
        chance=True,
        real_time=False,
        description="Move your mage around the city, gather magic, Mage cards and bottles, and "
        "catch the Djinn and their bosses; solo against Tom's deck.",
        length="15-40 rounds, as bots play it",
        catalog=catalog,
        observer_type=DjinnObserver,
        # 2: only the mages at the edge a move arrives at are paid or skipped (ruling D27
        # revised); a record of 1 may have paid a mage that is free now (docs/records.md).
        record_compat=2,
    )
)
DjinnState.spec = SPEC

__all__ = ["SPEC", "DjinnParams", "DjinnState"]
