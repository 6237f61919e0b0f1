"""Magic Lamp parameters: player count and variants, as a frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass

from arabesque.core.game import Params

#: Turn cap that guarantees termination (assumed, not in the rulebook; see rulings R10).
DEFAULT_MAX_TURNS = 100


@dataclass(frozen=True)
class MagicLampParams(Params):
    num_players: int = 4
    #: The "My Precious" variant (magic ring for a full six-card draw with a 6).
    my_precious: bool = False
    #: Path to a components TOML file; None = the built-in authored set.
    components: str | None = None
    #: Safety cap on turns (assumed; the rulebook's game always ends via a Sorcerer card).
    max_turns: int = DEFAULT_MAX_TURNS

    @property
    def dice_per_player(self) -> int:
        # rulebook, Setup step 3: with 2 players each player takes 2 dice.
        return 2 if self.num_players == 2 else 1

    @property
    def starting_cards_per_player(self) -> int:
        # rulebook, Setup step 4: with 2 players each player receives 2 starting cards.
        return 2 if self.num_players == 2 else 1
