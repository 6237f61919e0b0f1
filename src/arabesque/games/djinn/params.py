"""Djinn parameters: players (1 = solo against Tom), variants, components file, caps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from arabesque.core.game import DataFileParams, OptionWords
from arabesque.games.djinn.components import load_components

#: NOT A RULE (ruling D14): a safety bound on the rounds, so that every game ends whoever
#: plays. After this many rounds the end starts as if the last boss had gone. Real games end
#: long before (bots in 15-40 rounds; random players in a median of about 110-140 rounds,
#: at most about 410 in 300 games), so the book's end decides every real game.
DEFAULT_MAX_ROUNDS = 1000
#: Tom's deck size the book starts with (all 3 nothing-happens cards: the easiest).
DEFAULT_TOM_DECK = 15


@dataclass(frozen=True, eq=False)
class DjinnParams(DataFileParams):
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

    CHOICES: ClassVar[Mapping[str, tuple[str | int, ...]]] = {"tom_deck": (15, 14, 13, 12)}
    SAFETY_CAPS: ClassVar[frozenset[str]] = frozenset({"max_rounds"})
    WORDS: ClassVar[Mapping[str, OptionWords]] = {
        "first_game": OptionWords(
            "First game", "the book's setup for a first game: no character tiles or scoring cards"
        ),
        "longer": OptionWords("Longer game", "one more Djinn beside the Magic Source"),
        "tom_deck": OptionWords(
            "Solo difficulty (Tom's deck)",
            "solo only: the fewer cards in Tom's deck, the harder",
            {15: "15 cards: easiest", 14: "14 cards", 13: "13 cards", 12: "12 cards: hardest"},
        ),
    }

    @classmethod
    def data_digest_of(cls, path: str) -> str:
        return load_components(path).sha256

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
