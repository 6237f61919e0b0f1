"""The IS-MCTS agent (agents/ismcts.py): no leak of hidden cards, a mixed answer to a secret
simultaneous choice, human reaction times, budgets kept, reproducible games, and specs
checked before any game starts."""

from __future__ import annotations

import random

import pytest

from arabesque.agents.base import Observation
from arabesque.agents.evaluation import evaluation_all_for, evaluation_for
from arabesque.agents.ismcts import REACT, Budget, IsmctsAgent, SearchConfig, search
from arabesque.agents.reaction import ReactionProfile
from arabesque.agents.registry import agent_descriptions, make_agent
from arabesque.core import get_game
from arabesque.core.game import GameState
from arabesque.games.magic_lamp.decisions import RACE_REACTION
from arabesque.games.magic_lamp.state import MagicLampState, Phase
from arabesque.sim.batch import run_games
from tests.toy_rps import SPEC as RPS
from tests.toy_rps import RpsParams

GAMES = ["magic-lamp", "ali-baba", "djinn"]


def mid_game_states(game_id: str, players: int, count: int, seed: int) -> list[GameState]:
    """``count`` states met along seeded random playouts (several per game), each with a
    seat to act that has a real choice."""
    spec = get_game(game_id)
    params = spec.make_params(num_players=players)
    rng = random.Random(seed)
    out: list[GameState] = []
    game = 0
    while len(out) < count:
        state = spec.new_game(params, seed=seed + game)
        game += 1
        step = 0
        while not state.is_over and len(out) < count:
            seat = min(state.to_act())
            if step % 13 == 5 and len(state.legal_actions(seat)) > 1:
                out.append(state.clone())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
    return out


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    "agent_spec",
    ["ismcts:iters=6+horizon=10", "ismcts:iters=6+horizon=2+prior=heuristic+bias=1+depth=2"],
)
def test_states_alike_to_the_seat_get_the_same_action(game_id: str, agent_spec: str) -> None:
    """Leak: a state and a twin identical from the acting seat's view but holding other
    hidden cards (a determinization of it) get the same action from agents with the same
    seed, at a small budget, over 50 mid-game states (with and without the heuristic's
    prior, which reads the seat's view at the root and determinized copies below it)."""
    differing = 0
    for i, state in enumerate(mid_game_states(game_id, 2, 50, seed=11)):
        seat = min(state.to_act())
        twin = state.determinize(seat, random.Random(i))
        assert twin.view(seat, include_log=False) == state.view(seat, include_log=False)
        differing += twin.fingerprint()[3:] != state.fingerprint()[3:]
        real = make_agent(agent_spec, game_id, seed=i).act(Observation(state, seat))
        other = make_agent(agent_spec, game_id, seed=i).act(Observation(twin, seat))
        assert real == other, f"state {i}: the action follows the hidden cards"
    assert differing >= 40, "the twins hardly differed: the test would prove nothing"


def test_average_strategy_at_a_secret_simultaneous_choice_is_mixed() -> None:
    """Rock-paper-scissors: after 10,000 iterations the root seat's average strategy has
    no throw above 0.40 (sequential UCT would settle on one throw)."""
    for seed in range(2):
        state = RPS.new_game(RpsParams(), seed=seed)
        result = search(
            Observation(state, 0),
            Budget(iters=10_000),
            random.Random(seed),
            evaluate=lambda s: s.values(),  # type: ignore[attr-defined]
        )
        assert result.strategy is not None
        assert set(result.strategy) == {0, 1, 2}
        assert max(result.strategy.values()) <= 0.40, result.strategy
        assert abs(sum(result.strategy.values()) - 1.0) < 1e-9


def race_states() -> list[MagicLampState]:
    """Magic Lamp states in the lamp race, at 2 and 3 players."""
    out = []
    for players, seed in ((2, 1), (2, 2), (3, 3), (3, 4)):
        spec = get_game("magic-lamp")
        rng = random.Random(seed)
        state = spec.new_game(spec.make_params(num_players=players), seed=seed)
        while True:
            assert isinstance(state, MagicLampState)
            if state.phase is Phase.RACE:
                out.append(state)
                break
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


def test_race_reaction_times_never_beat_the_floor() -> None:
    """Over 500 race decisions, every rub's recorded time is at least the profile's floor
    (a floor off the 10 ms grid, so rounding would show), and the bot does rub."""
    floor = 455.0
    states = race_states()
    rubs = 0
    for i in range(500):
        state = states[i % len(states)]
        seat = sorted(state.to_act())[i % len(state.to_act())]
        agent = make_agent(f"ismcts:iters=2+horizon=5+floor_ms={floor:g}", "magic-lamp", seed=i)
        action = agent.act(Observation(state, seat))
        assert action in state.legal_actions(seat)
        ms = RACE_REACTION.ms_of(action)
        if ms is not None:
            rubs += 1
            assert ms >= floor, f"decision {i}: rubbed after {ms} ms, below the floor {floor}"
    assert rubs >= 50, f"only {rubs} rubs in 500 races"


def test_race_search_decides_only_react_or_not() -> None:
    state = race_states()[0]
    seat = min(state.to_act())
    result = search(Observation(state, seat), Budget(iters=40), random.Random(0))
    assert {o.action for o in result.options} <= {REACT, RACE_REACTION.none}


def test_a_forward_model_budget_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """``fm=4000`` makes at most 4,000 applies (and spends nearly all of them)."""
    # A forward-model call is either door into the rules: apply, or the search's unchecked
    # _advance on its own copies.
    calls = [0]
    original = GameState.apply
    original_advance = GameState._advance

    def counting(self: GameState, player: int, action: int, version: int | None = None) -> None:
        calls[0] += 1
        original(self, player, action, version)

    def counting_advance(self: GameState, player: int, action: int) -> None:
        calls[0] += 1
        original_advance(self, player, action)

    monkeypatch.setattr(GameState, "apply", counting)
    monkeypatch.setattr(GameState, "_advance", counting_advance)
    for game_id in GAMES:
        state = mid_game_states(game_id, 2, 1, seed=3)[0]
        seat = min(state.to_act())
        agent = make_agent("ismcts:fm=4000", game_id, seed=1)
        calls[0] = 0
        agent.act(Observation(state, seat))
        assert calls[0] <= 4000, f"{game_id}: {calls[0]} applies"
        assert calls[0] >= 3900, f"{game_id}: only {calls[0]} applies of 4000"


def test_iterations_budget_is_kept() -> None:
    state = mid_game_states("ali-baba", 2, 1, seed=4)[0]
    seat = min(state.to_act())
    result = search(Observation(state, seat), Budget(iters=37), random.Random(0))
    assert result.iterations == 37
    assert sum(o.visits for o in result.options) == 37


def test_same_seed_and_spec_give_the_same_game_with_one_or_two_workers() -> None:
    spec = get_game("ali-baba")
    params = spec.make_params(num_players=2)
    agents = ["ismcts:fm=300+horizon=10", "heuristic"]
    one = run_games("ali-baba", params, agents, games=2, seed=5, workers=1)
    again = run_games("ali-baba", params, agents, games=2, seed=5, workers=1)
    two = run_games("ali-baba", params, agents, games=2, seed=5, workers=2)
    assert one == again == two


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:foo=1", "unknown ismcts option foo"),
        ("ismcts:fm=0", "fm must be positive"),
        ("ismcts:iters=-5", "iters must be positive"),
        ("ismcts:fm=100+iters=10", "not both"),
        ("ismcts:rollout=smart", "unknown rollout 'smart'"),
        ("ismcts:fm=100,iters=10", "contains a comma"),
        ("medium:horizon=-1", "horizon must be >= 0"),
        ("ismcts:fm=10+fm=20", "given twice"),
        ("ismcts:prior=oracle", "unknown prior 'oracle'"),
        ("ismcts:bias=-1", "bias must be >= 0"),
        ("ismcts:margin=-0.1", "margin must be >= 0"),
        ("ismcts:depth=-1", "depth must be >= 0"),
    ],
)
def test_bad_specs_are_refused_in_one_line(spec: str, message: str) -> None:
    for game_id in GAMES:
        with pytest.raises(ValueError, match=message) as caught:
            make_agent(spec, game_id, seed=0)
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_levels_are_registered_with_descriptions(game_id: str) -> None:
    described = agent_descriptions(game_id)
    for name in ("easy", "medium", "hard", "ismcts", "heuristic", "random"):
        assert name in described
    for level in ("easy", "medium", "hard"):
        assert described[level] and "\n" not in described[level]
        make_agent(level, game_id, seed=0)


@pytest.mark.parametrize("game_id", GAMES)
def test_levels_grow_in_budget_and_say_it(game_id: str) -> None:
    described = agent_descriptions(game_id)
    budgets = []
    for level in ("easy", "medium", "hard"):
        agent = make_agent(level, game_id, seed=0)
        assert isinstance(agent, IsmctsAgent)
        fm = agent.budget.fm
        assert fm is not None
        assert f"{fm:,}" in described[level]
        budgets.append(fm)
    assert budgets[0] < budgets[1] < budgets[2]


def test_djinn_levels_are_its_own_smaller_budgets() -> None:
    # games/djinn/bots/levels.py: a quarter of the generic budgets (a Djinn step is costly).
    fms = [make_agent(level, "djinn", seed=0).budget.fm for level in ("easy", "medium", "hard")]
    generic = [
        make_agent(level, "ali-baba", seed=0).budget.fm for level in ("easy", "medium", "hard")
    ]
    assert fms == [400, 1500, 6000]
    assert generic == [1500, 6000, 24000]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_evaluations_are_values_and_agree_for_every_seat(game_id: str, players: int) -> None:
    evaluate = evaluation_for(game_id)
    evaluate_all = evaluation_all_for(game_id)
    states = mid_game_states(game_id, players, 20, seed=9)
    spread: set[float] = set()
    for state in states:
        values = evaluate_all(state)
        assert len(values) == players
        for seat in range(players):
            assert 0.0 <= values[seat] <= 1.0
            assert values[seat] == pytest.approx(evaluate(state, seat))
            spread.add(round(values[seat], 3))
    assert len(spread) > 5, "the evaluation hardly tells positions apart"


def test_a_finished_game_is_valued_by_its_outcome() -> None:
    spec = get_game("ali-baba")
    state = spec.new_game(spec.make_params(num_players=2), seed=1)
    rng = random.Random(0)
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    values = evaluation_all_for("ali-baba")(state)
    ranking = state.ranking()
    assert values == [1.0 if r == 1 else 0.0 for r in ranking]


def test_search_config_defaults() -> None:
    config = SearchConfig()
    assert config.horizon >= 30 and config.rollout == "random"
    assert isinstance(config.profile, ReactionProfile)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_prior_that_cannot_be_beaten_is_played(game_id: str) -> None:
    """With a margin no value can reach, the search plays its heuristic prior's choice:
    a whole game beside a lone heuristic fed the same decisions agrees at every one (so
    the prior sees every decision, and keeps what it remembers between them)."""
    spec = get_game(game_id)
    state = spec.new_game(spec.make_params(num_players=2), seed=3)
    searcher = make_agent("ismcts:iters=4+horizon=2+prior=heuristic+margin=2", game_id, seed=7)
    assert isinstance(searcher, IsmctsAgent)
    lone = make_agent("heuristic", game_id, seed=searcher._prior_seed)
    other = make_agent("heuristic", game_id, seed=1)
    decisions = 0
    while not state.is_over and decisions < 60:
        acting = sorted(state.to_act())
        choices = []
        for seat in acting:
            if seat == 0:
                obs = Observation(state, seat)
                expected = lone.act(obs)
                action = searcher.act(obs)
                if obs.decision.reaction is None:
                    assert action == expected
                decisions += 1
            else:
                action = other.act(Observation(state, seat))
            choices.append((seat, action))
        for seat, action in choices:
            state.apply(seat, action)
    assert decisions >= 10


def test_the_prior_is_searched_first() -> None:
    """The prior's option is the first one tried, and a bias makes it the most visited
    early on."""
    state = next(
        s
        for s in mid_game_states("ali-baba", 2, 20, seed=4)
        if len(s.legal_actions(min(s.to_act()))) > 3
    )
    seat = min(state.to_act())
    obs = Observation(state, seat)
    legal = list(obs.legal)
    target = legal[-1]
    config = SearchConfig(horizon=2, bias=5.0)
    one = search(obs, Budget(iters=1), random.Random(0), config, prior=target)
    assert [o.action for o in one.options] == [target]
    many = search(obs, Budget(iters=3 * len(legal)), random.Random(0), config, prior=target)
    assert many.options[0].action == target
