"""What one finished Ali Baba game measured, for the designer's lab (arabesque.lab).

Tiles taken by kind and by colour's effect (the ``take`` of a turn, and the green effect's
extra tile); points scored per effect; how often each effect was used, passed on or had
nothing to act on; steals, forbids, tiles flipped, Aladdin's lamp swaps; turns.
"""

from __future__ import annotations

from arabesque.core.game import GameState
from arabesque.games.ali_baba.components import EFFECTS
from arabesque.games.ali_baba.state import AliBabaState
from arabesque.lab.metrics import GameMetrics, Ratio, register_metrics


def measure(state: GameState) -> dict[str, float]:
    assert isinstance(state, AliBabaState)
    tiles = state.tiles
    out: dict[str, float] = {f"take.kind.{k}": 0.0 for k in tiles.kinds}
    out.update({f"take.effect.{e}": 0.0 for e in EFFECTS})
    out.update({f"points.{e}": 0.0 for e in EFFECTS})
    out.update({f"effect.{e}.passed": 0.0 for e in EFFECTS})
    out.update({f"effect.{e}.nothing": 0.0 for e in EFFECTS})
    for name in ("also_take", "steals", "forbids", "flipped", "lamp_swaps", "turns"):
        out[name] = 0.0
    effect_of_colour = {c.name: c.effect for c in tiles.colours}
    for event in state.events:
        kind, data = event.kind, event.data
        if kind == "take":
            out[f"take.kind.{data['tile']['kind']}"] += 1
            out[f"take.effect.{data['tile']['effect']}"] += 1
        elif kind == "also_take":
            out["also_take"] += 1
            out[f"take.kind.{data['tile']['kind']}"] += 1
        elif kind == "score":
            out[f"points.{effect_of_colour[data['effect']]}"] += data["points"]
        elif kind == "pass":
            out[f"effect.{effect_of_colour[data['effect']]}.passed"] += 1
        elif kind == "no_effect":
            out[f"effect.{effect_of_colour[data['effect']]}.nothing"] += 1
        elif kind == "steal":
            out["steals"] += 1
        elif kind == "forbid":
            out["forbids"] += 1
        elif kind == "flip":
            out["flipped"] += len(data["tiles"])
        elif kind == "lamp_swap":
            out["lamp_swaps"] += 1
        elif kind == "turn":
            out["turns"] += 1
    return out


def end_reason(state: GameState) -> str:
    assert isinstance(state, AliBabaState)
    for event in reversed(state.events):
        if event.kind == "game_end":
            return str(event.data["reason"])
    return "over"


def _ratios() -> tuple[Ratio, ...]:
    takes = tuple(f"take.effect.{e}" for e in EFFECTS)
    out = [
        Ratio(f"{e}: share of tiles taken", (f"take.effect.{e}",), takes, "effects taken", True)
        for e in EFFECTS
    ]
    out += [
        Ratio(f"{e}: points per tile taken", (f"points.{e}",), (f"take.effect.{e}",), "points")
        for e in EFFECTS
    ]
    return tuple(out)


METRICS = register_metrics(
    GameMetrics(
        "ali-baba",
        measure=measure,
        end_reason=end_reason,
        ratios=_ratios(),
        groups={"take.kind.": "tiles taken per game, by kind"},
    )
)
