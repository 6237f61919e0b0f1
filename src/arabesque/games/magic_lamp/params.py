"""Magic Lamp parameters: player count and variants, as a frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from arabesque.core import gamedata
from arabesque.core.errors import ComponentsError
from arabesque.core.game import Params
from arabesque.games.magic_lamp.components import load_components

#: Turn cap that guarantees termination (assumed, not in the rulebook; see rulings R10).
DEFAULT_MAX_TURNS = 100


@dataclass(frozen=True, eq=False)
class MagicLampParams(Params):
    num_players: int = 4
    #: The "My Precious" variant (magic ring for a full six-card draw with a 6).
    my_precious: bool = False
    #: The components: None = the built-in authored set; a TOML file path; or
    #: ``"sha256:<hex>"``, components known by content (what a record holds: it embeds the
    #: file's text, so a replay never opens a file; docs/records.md).
    components: str | None = None
    #: Safety cap on turns (assumed; the rulebook's game always ends via a Sorcerer card).
    max_turns: int = DEFAULT_MAX_TURNS

    #: The param that names an external data file. A record stores ``"sha256:<hex>"`` here
    #: and embeds the data itself (core/records.py reads this name).
    DATA_PARAM: ClassVar[str | None] = "components"

    @property
    def dice_per_player(self) -> int:
        # rulebook, Setup step 3: with 2 players each player takes 2 dice.
        return 2 if self.num_players == 2 else 1

    @property
    def starting_cards_per_player(self) -> int:
        # rulebook, Setup step 4: with 2 players each player receives 2 starting cards.
        return 2 if self.num_players == 2 else 1

    # -- equality by content ------------------------------------------------------------
    # Params name the components by path during play and by digest in a record, yet a game
    # and its replay are the same game: params compare (and hash) the components by the
    # sha256 of their data, whatever named them.

    def components_identity(self) -> object:
        """What the components are, for equality: None (built-in), ``"sha256:<hex>"`` of the
        data, or the value itself when it names nothing readable (validation reports it)."""
        value = self.components
        if not isinstance(value, str) or gamedata.is_ref(value):
            return value
        try:
            return gamedata.make_ref(load_components(value).sha256)
        except ComponentsError:
            return value

    def _identity(self) -> tuple[Any, ...]:
        # Computed once: the fields are frozen, and a file read again later (edited meanwhile)
        # must not change the hash of params already used as a dictionary key.
        cached: tuple[Any, ...] | None = self.__dict__.get("_identity_cache")
        if cached is None:
            cached = tuple(
                self.components_identity() if f.name == "components" else getattr(self, f.name)
                for f in fields(self)
            )
            object.__setattr__(self, "_identity_cache", cached)
        return cached

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, MagicLampParams)
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())
