"""The shared conformance kit (arabesque.core.conformance) run on Djinn: random playouts at
every player count (solo against Tom included), in the first-game and longer variants, and
with a smaller Tom deck."""

from __future__ import annotations

import pytest

from arabesque.core import conformance as kit
from arabesque.core.registry import get_game
from arabesque.games.djinn.params import DjinnParams

SPEC = get_game("djinn")

SETTINGS = [
    (1, {}),
    (1, {"tom_deck": 12}),
    (2, {}),
    (2, {"first_game": True}),
    (3, {}),
    (3, {"longer": True}),
    (4, {}),
]


@pytest.mark.parametrize(("n", "options"), SETTINGS, ids=[f"{n}p-{o}" for n, o in SETTINGS])
def test_run_conformance(n: int, options: dict[str, object]) -> None:
    params = DjinnParams(num_players=n, max_rounds=8, **options)  # type: ignore[arg-type]
    checked = kit.run_conformance(SPEC, params, seeds=[n, 100 + n], every=11)
    assert checked >= 2 * 5


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_playouts_end_within_the_declared_bound(n: int) -> None:
    for seed in range(3):
        final = kit.random_playout(SPEC, DjinnParams(num_players=n), seed)
        assert final.is_over
        kit.check_scores(final)
        kit.check_replay(final)
