"""Aladdin & the Magic Lamp (Tiago Damey, Purple Brain 2016), game id ``magic-lamp``."""

from arabesque.core.game import GameSpec
from arabesque.core.registry import register
from arabesque.games.magic_lamp.components import catalog
from arabesque.games.magic_lamp.observer import MagicLampObserver
from arabesque.games.magic_lamp.params import MagicLampParams
from arabesque.games.magic_lamp.state import MagicLampState

SPEC = register(
    GameSpec(
        id="magic-lamp",
        name="Aladdin & the Magic Lamp",
        min_players=2,
        max_players=5,
        params_type=MagicLampParams,
        state_type=MagicLampState,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        real_time=True,
        description="Secret dice on three chests, a real-time race to rub the lamp, and a "
        "push-your-luck search among scorpions.",
        length="6-8 turns, as bots play it",
        catalog=catalog,
        observer_type=MagicLampObserver,
    )
)
MagicLampState.spec = SPEC

__all__ = ["SPEC", "MagicLampParams", "MagicLampState"]
