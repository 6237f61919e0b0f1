"""Each game's metrics module (games/<game>/metrics.py), checked against the final state's
own numbers (hands, score breakdowns) and against the event log counted another way."""

from __future__ import annotations

from pathlib import Path

import pytest

from arabesque.agents.registry import make_agent
from arabesque.core.game import GameState
from arabesque.core.registry import game_ids, get_game
from arabesque.lab.metrics import Ratio, expand_ratios, game_metrics
from arabesque.sim.batch import agent_seed
from arabesque.sim.runner import play_game

LAB = Path(__file__).resolve().parents[1] / "src" / "arabesque" / "lab"


def _play(game: str, players: int, seed: int, agent: str = "heuristic") -> GameState:
    spec = get_game(game)
    params = spec.make_params(num_players=players)
    agents = [make_agent(agent, game, seed=agent_seed(seed, s)) for s in range(players)]
    return play_game(spec, params, agents, seed)


def test_the_lab_names_no_game() -> None:
    for path in LAB.glob("*.py"):
        text = path.read_text()
        for game in game_ids():
            assert game not in text, f"{path.name} names {game}"
        for package in ("magic_lamp", "ali_baba", "djinn"):
            assert package not in text, f"{path.name} imports a game ({package})"


@pytest.mark.parametrize("game", ["magic-lamp", "ali-baba", "djinn"])
def test_every_game_registers_metrics_and_an_end_reason(game: str) -> None:
    metrics = game_metrics(game)
    assert metrics.game_id == game
    state = _play(game, 2, seed=3)
    values = metrics.measure(state)
    assert values, "a game with a metrics module measures something"
    assert all(isinstance(v, float) for v in values.values())
    assert metrics.end_reason(state) not in ("", "over")
    assert metrics.ratios, "every game names the rates its report shows"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_magic_lamp_searches_are_the_draws_that_ended(seed: int) -> None:
    state = _play("magic-lamp", 3, seed)
    values = game_metrics("magic-lamp").measure(state)
    for chest in ("bronze", "silver", "gold"):
        ended = sum(
            1 for e in state.events if e.kind in ("draw_kept", "bust") and e.data["chest"] == chest
        )
        assert values[f"chest.{chest}.searches"] == ended
        assert values[f"chest.{chest}.busts"] <= values[f"chest.{chest}.searches"]
        assert values[f"chest.{chest}.contested"] <= values[f"chest.{chest}.searches"]
    placed = sum(len(d) for e in state.events if e.kind == "reveal" for d in e.data["dice"])
    assert sum(values[f"chest.{c}.dice"] for c in ("bronze", "silver", "gold")) == placed
    sorcerer = any(e.kind == "cave_closed" for e in state.events)
    assert values["sorcerer.drawn"] == float(sorcerer)
    assert values["turns"] == state.turn  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [1, 2])
def test_ali_baba_takes_are_the_tiles_behind_the_screens_and_points_add_up(seed: int) -> None:
    state = _play("ali-baba", 3, seed)
    values = game_metrics("ali-baba").measure(state)
    taken = sum(v for k, v in values.items() if k.startswith("take.kind."))
    assert taken == sum(len(h) for h in state.hands)  # type: ignore[attr-defined]
    effect_points = sum(v for k, v in values.items() if k.startswith("points."))
    scored = sum(v for s in state.scores() for k, v in s.breakdown.items() if k != "treasures")
    assert effect_points == scored


def test_djinn_trophy_and_scoring_card_points_are_the_score_breakdowns() -> None:
    state = _play("djinn", 2, seed=4)
    values = game_metrics("djinn").measure(state)
    breakdowns = [s.breakdown for s in state.scores()]
    assert values["trophy.points"] == sum(b["trophies"] for b in breakdowns)
    card_points = sum(
        v for k, v in values.items() if k.startswith("scoring.") and k.endswith(".points")
    )
    assert card_points == sum(b["scoring_cards"] for b in breakdowns)
    uses = sum(v for k, v in values.items() if k.endswith(".uses"))
    assert uses == sum(1 for e in state.events if e.kind == "action")


def test_wildcard_ratios_expand_over_the_names_present() -> None:
    ratio = Ratio("card '*' scored", ("scoring.*.scorers",), ("scoring.*.seats",), "cards")
    names = ["scoring.a key.scorers", "scoring.a key.seats", "scoring.b.scorers", "x"]
    out = expand_ratios([ratio], names)
    assert [r.label for r in out] == ["card 'a key' scored", "card 'b' scored"]
    assert out[0].denominator == ("scoring.a key.seats",)


def test_djinn_says_who_started_and_the_lab_counts_wins_by_turn_order(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from arabesque.lab.analysis import turn_order_summary
    from arabesque.lab.metrics import START_SEAT
    from arabesque.lab.run import Plan, run_plan
    from arabesque.lab.store import load_run

    state = _play("djinn", 2, seed=4)
    assert game_metrics("djinn").measure(state)[START_SEAT] == state.first  # type: ignore[attr-defined]
    params = get_game("djinn").make_params(num_players=2)
    lineup = ("heuristic", "heuristic")
    run_plan(Plan("djinn", params, lineup, "seats", (lineup,)), tmp_path / "r", range(3))
    run = load_run(tmp_path / "r")
    order = turn_order_summary(run)
    assert order is not None and [o["games"] for o in order] == [3, 3]
    starts = {g["seed"]: dict(g["metrics"])[START_SEAT] for g in run.games.to_pylist()}
    first_wins = sum(
        1 for s in run.seats.to_pylist() if s["won"] and s["seat"] == starts[s["seed"]]
    )
    assert order[0]["wins"] == first_wins
    # A game whose metrics do not say who started (Magic Lamp's) gets no such table.
    ml = get_game("magic-lamp").make_params(num_players=2)
    run_plan(Plan("magic-lamp", ml, ("random", "random"), "seats", (("random", "random"),)),
             tmp_path / "m", range(1))  # fmt: skip
    assert turn_order_summary(load_run(tmp_path / "m")) is None
