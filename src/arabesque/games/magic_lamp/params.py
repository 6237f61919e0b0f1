"""Magic Lamp parameters: player count and variants, as a frozen dataclass."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from arabesque.core.game import DataFileParams, OptionWords
from arabesque.games.magic_lamp.components import load_components

#: Turn cap that guarantees termination (assumed, not in the rulebook; see rulings R10).
DEFAULT_MAX_TURNS = 100
#: The largest turn cap accepted (assumed: far above any real game, like Djinn's round cap).
MAX_TURNS_CAP = 100_000


@dataclass(frozen=True, eq=False)
class MagicLampParams(DataFileParams):
    num_players: int = 4
    #: The "My Precious" variant (magic ring for a full six-card draw with a 6).
    my_precious: bool = False
    #: The components: None = the built-in authored set; a TOML file path; or
    #: ``"sha256:<hex>"``, components known by content (what a record holds: it embeds the
    #: file's text, so a replay never opens a file; docs/records.md).
    components: str | None = None
    #: Safety cap on turns (assumed; the rulebook's game always ends via a Sorcerer card).
    max_turns: int = DEFAULT_MAX_TURNS

    SAFETY_CAPS: ClassVar[frozenset[str]] = frozenset({"max_turns"})
    WORDS: ClassVar[Mapping[str, OptionWords]] = {
        "my_precious": OptionWords(
            "My Precious", "the book's variant: a magic ring for keeping six cards drawn with a 6"
        )
    }

    @property
    def dice_per_player(self) -> int:
        # rulebook, Setup step 3: with 2 players each player takes 2 dice.
        return 2 if self.num_players == 2 else 1

    @property
    def starting_cards_per_player(self) -> int:
        # rulebook, Setup step 4: with 2 players each player receives 2 starting cards.
        return 2 if self.num_players == 2 else 1

    @classmethod
    def data_digest_of(cls, path: str) -> str:
        return load_components(path).sha256
