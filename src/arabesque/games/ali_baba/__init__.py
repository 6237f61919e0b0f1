"""Ali Baba (Chiacchiera & Conzadori, White Goblin Games 2017), game id ``ali-baba``."""

from arabesque.core.game import GameSpec
from arabesque.core.registry import register
from arabesque.games.ali_baba.components import catalog
from arabesque.games.ali_baba.observer import AliBabaObserver
from arabesque.games.ali_baba.params import AliBabaParams
from arabesque.games.ali_baba.state import AliBabaState

SPEC = register(
    GameSpec(
        id="ali-baba",
        name="Ali Baba",
        min_players=2,
        max_players=4,
        params_type=AliBabaParams,
        state_type=AliBabaState,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        real_time=False,
        description="Take treasure tiles from a pyramid in the cave, flip what they uncover, "
        "and use their colours' magic to score, steal and forbid.",
        length="until the cave is empty: about 16 turns each at 3 players",
        catalog=catalog,
        observer_type=AliBabaObserver,
    )
)
AliBabaState.spec = SPEC

__all__ = ["SPEC", "AliBabaParams", "AliBabaState"]
