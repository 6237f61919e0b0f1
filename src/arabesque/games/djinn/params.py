"""Djinn parameters: players (1 = solo against Tom), variants, components file, caps."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from arabesque.core import gamedata
from arabesque.core.errors import ComponentsError
from arabesque.core.game import Params
from arabesque.games.djinn.components import load_components

#: NOT A RULE (ruling D14): a safety bound on the rounds, so that every game ends whoever
#: plays. After this many rounds the end starts as if the last boss had gone. Real games end
#: long before (bots in 15-40 rounds; random players in a median of about 110-140 rounds,
#: at most about 410 in 300 games), so the book's end decides every real game.
DEFAULT_MAX_ROUNDS = 1000
#: Tom's deck size the book starts with (all 3 nothing-happens cards: the easiest).
DEFAULT_TOM_DECK = 15


@dataclass(frozen=True, eq=False)
class DjinnParams(Params):
    num_players: int = 2
    #: The book's first-game setup: no identical symbols joined by a path, no scoring cards
    #: and no character tiles.
    first_game: bool = False
    #: The longer game: one more Djinn at each round space next to the Magic Source.
    longer: bool = False
    #: Solo only: cards in Tom's deck, 12..15 (fewer is harder).
    tom_deck: int = DEFAULT_TOM_DECK
    #: None = the built-in authored set; a TOML path; or ``"sha256:<hex>"`` (a record's).
    components: str | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS

    DATA_PARAM: ClassVar[str | None] = "components"

    def components_identity(self) -> object:
        value = self.components
        if not isinstance(value, str) or gamedata.is_ref(value):
            return value
        try:
            return gamedata.make_ref(load_components(value).sha256)
        except ComponentsError:
            return value

    def _identity(self) -> tuple[Any, ...]:
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
        assert isinstance(other, DjinnParams)
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    @property
    def solo(self) -> bool:
        return self.num_players == 1

    @property
    def characters(self) -> bool:
        # rulebook §Setup note and §Solo play: no character tiles in a first game or solo.
        return not self.first_game and not self.solo

    @property
    def scoring_cards(self) -> bool:
        return not self.first_game and not self.solo
