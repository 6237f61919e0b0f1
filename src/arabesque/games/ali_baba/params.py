"""Ali Baba parameters: player count and the variant, as a frozen dataclass."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from arabesque.core.game import OptionWords, Params

STANDARD = "standard"
ALADDINS_LAMP = "aladdins-lamp"
EQUAL_TREASURES = "equal-treasures"
SMALLER_CAVE = "smaller-cave"
#: The variants are exclusive: their tile counts do not add up together (ruling R9).
VARIANTS = (STANDARD, ALADDINS_LAMP, EQUAL_TREASURES, SMALLER_CAVE)


@dataclass(frozen=True)
class AliBabaParams(Params):
    num_players: int = 3
    #: One of VARIANTS (rulebook: Variants).
    variant: str = STANDARD

    CHOICES: ClassVar[Mapping[str, tuple[str | int, ...]]] = {"variant": VARIANTS}
    WORDS: ClassVar[Mapping[str, OptionWords]] = {
        "variant": OptionWords(
            "Variant",
            "the rulebook's variants, one at a time",
            {
                STANDARD: "Standard game",
                ALADDINS_LAMP: "Aladdin's lamp",
                EQUAL_TREASURES: "Equal treasures",
                SMALLER_CAVE: "Smaller cave (2 players)",
            },
        )
    }

    @property
    def board_id(self) -> str:
        # rulebook: the smaller cave uses the 16-square side, everything else the 25.
        return "cave-16" if self.variant == SMALLER_CAVE else "cave-25"

    @property
    def kinds_removed(self) -> int:
        # rulebook, Variants: equal treasures removes one kind, the smaller cave three.
        return {EQUAL_TREASURES: 1, SMALLER_CAVE: 3}.get(self.variant, 0)

    @property
    def aside(self) -> int:
        # rulebook, Variant Aladdin's lamp: six tiles are set aside face up.
        return 6 if self.variant == ALADDINS_LAMP else 0
