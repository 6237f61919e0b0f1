"""What one finished Djinn game measured, for the designer's lab (arabesque.lab).

Locations: how often each one's action was taken (and its special action); forfeits;
trophies by row and their points; catches; rounds and turns and whether the round cap
(ruling D14) ended the game; for each scoring card out, how many players scored it and
their points; solo: the cards left in Tom's deck.
"""

from __future__ import annotations

from arabesque.core.game import GameState
from arabesque.games.djinn.components import LOCATIONS
from arabesque.games.djinn.rules import condition_points
from arabesque.games.djinn.state import DjinnState
from arabesque.lab.metrics import START_SEAT, GameMetrics, Ratio, register_metrics

TROPHY_ROWS = (1, 2, 3)


def measure(state: GameState) -> dict[str, float]:
    assert isinstance(state, DjinnState)
    n = state.num_players
    out: dict[str, float] = {}
    for loc in LOCATIONS:
        out[f"location.{loc}.uses"] = 0.0
        out[f"location.{loc}.special"] = 0.0
    for row in TROPHY_ROWS:
        out[f"trophy.row{row}"] = 0.0
    out.update({"trophy.points": 0.0, "forfeits": 0.0, "catches": 0.0, "turns": 0.0})
    out["round_cap"] = 0.0
    for event in state.events:
        kind, data = event.kind, event.data
        if kind == "action":
            out[f"location.{data['location']}.uses"] += 1
            out[f"location.{data['location']}.special"] += bool(data["special"])
        elif kind == "forfeit":
            out["forfeits"] += 1
        elif kind == "trophy":
            out[f"trophy.row{data['row']}"] += 1
            out["trophy.points"] += data["points"]
        elif kind == "catch":
            out["catches"] += 1
        elif kind == "round_cap":
            out["round_cap"] = 1.0
        elif kind == "end_turn":
            out["turns"] += 1
    out["rounds"] = float(state.round)
    # The start player is drawn at setup: the lab's report turns seats into places in the
    # turn order with it (the start player's edge).
    out[START_SEAT] = float(state.first)
    comp = state.comp
    for c in state.scoring:
        card = comp.scoring_cards[c]
        points = [condition_points(state, p, card) for p in range(n)]
        out[f"scoring.{card.name}.seats"] = float(n)
        out[f"scoring.{card.name}.scorers"] = float(sum(1 for x in points if x > 0))
        out[f"scoring.{card.name}.points"] = float(sum(points))
    if n == 1:
        out["solo.tom_left"] = float(len(state.tom_deck))
    return out


def end_reason(state: GameState) -> str:
    assert isinstance(state, DjinnState)
    if any(event.kind == "round_cap" for event in state.events):
        return "round cap"
    return "last boss gone" if state.num_players > 1 else ("won" if state.won else "lost")


def _ratios() -> tuple[Ratio, ...]:
    uses = tuple(f"location.{loc}.uses" for loc in LOCATIONS)
    out = [
        Ratio(
            f"{loc}: share of actions",
            (f"location.{loc}.uses",),
            uses,
            "share of location actions",
            True,
        )
        for loc in LOCATIONS
    ]
    out += [
        Ratio(
            f"{loc}: special share",
            (f"location.{loc}.special",),
            (f"location.{loc}.uses",),
            "special actions, share of each location's",
            True,
        )
        for loc in LOCATIONS
    ]
    out.append(
        Ratio(
            "scoring card '*': players scoring it",
            ("scoring.*.scorers",),
            ("scoring.*.seats",),
            "scoring cards",
            True,
        )
    )
    return tuple(out)


METRICS = register_metrics(
    GameMetrics(
        "djinn",
        measure=measure,
        end_reason=end_reason,
        ratios=_ratios(),
        groups={"trophy.row": "trophies claimed per game, by row"},
    )
)
