"""The Ali Baba heuristic bot: legal and view-only play in every variant, sensible choices in
hand-made situations, and a clear edge over random play. Tiles are named, never numbered."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from arabesque.agents.base import Agent, Observation
from arabesque.agents.random_agent import RandomAgent
from arabesque.agents.registry import make_agent
from arabesque.core.registry import get_game
from arabesque.games.ali_baba.bots import HeuristicAgent, set_gain
from arabesque.games.ali_baba.components import SET_POINTS, Board, load_tiles
from arabesque.games.ali_baba.params import AliBabaParams
from arabesque.games.ali_baba.state import AliBabaState
from arabesque.sim.runner import play_game
from tests.driving import drive

SPEC = get_game("ali-baba")
TILES = load_tiles()

Check = Callable[[AliBabaState, int, Observation, int], None]


def params(n: int, variant: str = "standard") -> AliBabaParams:
    p = SPEC.make_params(num_players=n, variant=variant)
    assert isinstance(p, AliBabaParams)
    return p


def heuristic(spec: str = "heuristic", seed: int = 0) -> HeuristicAgent:
    agent = make_agent(spec, "ali-baba", seed=seed)
    assert isinstance(agent, HeuristicAgent)
    return agent


# -- hand-made situations ---------------------------------------------------------------------


def place(board: Board, label: str) -> int:
    """A place from its view label, "L4 r1 c2" (layer, row, column counted from 1)."""
    layer, row, col = (int(part[1:]) - 1 for part in label.split())
    return board.index[(layer, row, col)]


def situation(
    n: int,
    at: Mapping[str, str],
    variant: str = "standard",
    aside: Sequence[str] = (),
    plays: Sequence[tuple[int, str]] = (),
) -> AliBabaState:
    """A game whose board holds the named tiles at the labelled places (the other places are
    filled with the other tiles, blue and white ones first), after the given (seat, action
    text) plays."""
    p = params(n, variant)
    board = TILES.boards[p.board_id]
    fixed = {place(board, label): TILES.parse_tile(name) for label, name in at.items()}
    aside_ids = [TILES.parse_tile(name) for name in aside]
    used = set(fixed.values()) | set(aside_ids)
    # Filler: blue and white tiles first, so that the tiles flipped on the way score little
    # and steal nothing.
    colours = [c.name for c in TILES.colours]
    order = [colours.index(c) for c in ("blue", "white", "brown", "green", "pink", "yellow")]
    rest = sorted(
        (t for t in range(TILES.num_tiles) if t not in used),
        key=lambda t: (order.index(TILES.colour_of(t)), t),
    )
    # Upper layers first: they are the places that turn face up soonest.
    cells = [-1] * board.size
    for q in reversed(range(board.size)):
        cells[q] = fixed[q] if q in fixed else rest.pop(0)
    arrangement: dict[str, Any] = {
        "removed_kinds": [],
        "board": [TILES.name(t) for t in cells],
        "box": [TILES.name(t) for t in rest],
        "aside": [TILES.name(t) for t in aside_ids],
    }
    state = SPEC.new_game(p, seed=0, arrangement=arrangement)
    assert isinstance(state, AliBabaState)
    for seat, text in plays:
        state.apply(seat, state.parse_action(text))
    return state


def choice(state: AliBabaState, seat: int, spec: str = "heuristic") -> str:
    """What a fresh heuristic bot plays for ``seat`` here, as text."""
    assert seat in state.to_act()
    return state.action_to_str(heuristic(spec).act(Observation(state, seat)))


#: The 25-square side, seen from the top. Taking the four top tiles in this order flips the
#: whole third layer: L3 r1 c1 (under L4 r1 c1 alone), then r1 c2 and r1 c3, then r2 c1 and
#: r3 c1, then the remaining four.
TOP = ("L4 r1 c1", "L4 r1 c2", "L4 r2 c1", "L4 r2 c2")
THIRD = tuple(f"L3 r{r} c{c}" for r in (1, 2, 3) for c in (1, 2, 3))


#: Nine tiles nobody collects in these situations, for the third layer's places not named:
#: blue ones that flip at most one tile.
FILLER = (
    "blue chest",
    "blue diamond",
    "blue necklace",
    "blue ruby",
    "blue lamp",
    "blue sword",
    "blue carpet",
    "blue statue",
    "blue crown",
)


def opened(
    n: int,
    top: Sequence[str],
    third: Mapping[str, str],
    plays: Sequence[tuple[int, str]],
    variant: str = "standard",
    aside: Sequence[str] = (),
) -> AliBabaState:
    """A game whose four top tiles are ``top`` (in TOP order) and whose third layer holds
    ``third`` (by label) and filler, after ``plays``; the plays should start with the four
    top tiles, which turns the whole third layer face up."""
    at = dict(zip(TOP, top, strict=True)) | dict(third)
    used = set(at.values()) | set(aside)
    filler = [name for name in FILLER if name not in used]
    for label in THIRD:
        if label not in at:
            at[label] = filler.pop(0)
    return situation(n, at, variant, aside, plays)


#: Seat 0 collects two rings, seat 1 a crown and a sword.
TWO_RINGS = ("blue ring", "pink crown", "brown ring", "pink sword")
TWO_RINGS_PLAYS = [
    (0, "take blue ring"),
    (1, "take pink crown"),
    (0, "take brown ring"),
    (1, "take pink sword"),
]


def test_takes_the_tile_that_grows_a_big_set_over_a_lone_one() -> None:
    # Seat 0 collects four rings (passing on its green and yellow effects); then, of two pink
    # tiles (5 points each), the ring is a fifth ring (+5 set points) and the carpet a lone
    # one (+1).
    third = {
        "L3 r1 c1": "green ring",
        "L3 r1 c3": "pink chest",
        "L3 r3 c1": "yellow ring",
        "L3 r3 c3": "pink diamond",
        "L3 r2 c2": "pink ring",
        "L3 r2 c3": "pink carpet",
    }
    plays = [
        *TWO_RINGS_PLAYS,
        (0, "take green ring"),
        (0, "pass"),
        (1, "take pink chest"),
        (0, "take yellow ring"),
        (0, "pass"),
        (1, "take pink diamond"),
    ]
    state = opened(2, TWO_RINGS, third, plays)
    assert choice(state, 0) == "take pink ring"


def test_takes_a_pink_tile_when_nothing_else_matters() -> None:
    # The first move: nobody holds a tile (yellow steals nothing), each top tile flips one
    # tile (blue: 2), brown scores 2 for the one tile, pink 5.
    at = dict(zip(TOP, ["yellow chest", "blue crown", "pink diamond", "brown statue"], strict=True))
    for tempo in ("0", "0.3", "1"):
        state = situation(2, at)
        assert choice(state, 0, f"heuristic:tempo={tempo}") == "take pink diamond"


def _yellow_situation() -> AliBabaState:
    """Three players. Seat 0 holds two rings; seat 1 a ring and a chest; seat 2 two chests;
    then seat 0 takes a yellow tile."""
    top = ("blue ring", "pink ring", "blue chest", "brown ring")
    third = {"L3 r1 c2": "pink chest", "L3 r3 c2": "brown chest", "L3 r2 c2": "yellow sword"}
    plays = [
        (0, "take blue ring"),
        (1, "take pink ring"),
        (2, "take blue chest"),
        (0, "take brown ring"),
        (1, "take pink chest"),
        (2, "take brown chest"),
        (0, "take yellow sword"),
    ]
    return opened(3, top, third, plays)


def test_uses_yellow_and_steals_the_tile_worth_most() -> None:
    state = _yellow_situation()
    assert choice(state, 0) == "use yellow"
    state.apply(0, state.parse_action("use yellow"))
    assert state.to_act() == {1, 2}
    state.apply(1, state.parse_action("show pink ring"))
    state.apply(2, state.parse_action("show blue chest"))
    # A third ring (+3, and more rings may come) beats a second chest.
    assert choice(state, 0) == "steal pink ring"


def test_shows_the_tile_least_useful_to_the_thief() -> None:
    state = _yellow_situation()
    state.apply(0, state.parse_action("use yellow"))
    # Seat 1's ring and chest are alike to it (one of each; the other two players hold
    # three of each kind between them), but the thief holds two rings: the chest is shown.
    assert choice(state, 1) == "show pink chest"
    # Seat 2 holds two chests: either is as good to show.
    assert choice(state, 2).endswith("chest")


def test_lamp_is_swapped_for_a_clearly_better_tile() -> None:
    # The blue lamp, taken from the middle of the third layer, flips nothing: kept, it scores
    # nothing. Among the set-aside tiles the pink ring scores 5 and grows seat 0's rings.
    aside = [
        "pink ring",
        "brown chest",
        "brown diamond",
        "brown necklace",
        "brown ruby",
        "brown statue",
    ]
    third = {"L3 r2 c2": "blue lamp"}
    state = opened(
        2,
        TWO_RINGS,
        third,
        [*TWO_RINGS_PLAYS, (0, "take blue lamp")],
        variant="aladdins-lamp",
        aside=aside,
    )
    assert "keep lamp" in [state.action_to_str(a) for a in state.legal_actions(0)]
    assert choice(state, 0) == "swap for pink ring"


def test_white_forbids_what_the_next_player_wants_most() -> None:
    # Seat 1 holds two statues and a third, yellow, lies face up: after taking its white tile,
    # seat 0 forbids statues or yellow.
    top = ("pink statue", "blue ring", "brown statue", "blue crown")
    third = {"L3 r2 c2": "white carpet", "L3 r2 c3": "yellow statue"}
    plays = [
        (0, "take blue ring"),
        (1, "take pink statue"),
        (0, "take blue crown"),
        (1, "take brown statue"),
        (0, "take white carpet"),
    ]
    state = opened(2, top, third, plays)
    assert choice(state, 0) in ("forbid statue", "forbid yellow")


def test_green_takes_the_adjacent_tile_that_grows_a_set() -> None:
    third = {"L3 r2 c2": "green carpet", "L3 r1 c2": "white ring"}
    state = opened(2, TWO_RINGS, third, [*TWO_RINGS_PLAYS, (0, "take green carpet")])
    texts = [state.action_to_str(a) for a in state.legal_actions(0)]
    assert "also take white ring" in texts and "pass" in texts
    assert choice(state, 0) == "also take white ring"


def test_white_passes_on_the_last_turn_of_the_game() -> None:
    """A ban that nobody will live under is useless: on the game's final turn the bot passes.
    Seeded 2-player games are played until two such decisions were seen."""
    seen: list[str] = []

    def check(state: AliBabaState, seat: int, obs: Observation, action: int) -> None:
        space = state.space
        bans = [a for a in state.legal_actions(seat) if space.forbid_kind <= a < space.keep]
        if bans and state.last_turn is not None and state.turn == state.last_turn:
            seen.append(state.action_to_str(action))

    for seed in range(100):
        state = SPEC.new_game(params(2), seed=seed)
        assert isinstance(state, AliBabaState)
        drive(state, [heuristic(seed=2 * seed), heuristic(seed=2 * seed + 1)], check)
        if len(seen) >= 2:
            break
    assert len(seen) >= 2
    assert set(seen) == {"pass"}


# -- the value model --------------------------------------------------------------------------


def test_set_gain_is_the_marginal_set_points_when_nothing_more_can_come() -> None:
    for c in range(6):
        assert set_gain(c, 1, 0.0) == SET_POINTS[c + 1] - SET_POINTS[c]
    # With more of the kind able to come, a tile is worth more to the player who collects it.
    assert set_gain(2, 4, 0.4) > set_gain(2, 1, 0.4)


# -- registration, legal and view-only play ---------------------------------------------------


def test_spec_string_builds_the_bot_with_its_options() -> None:
    agent = heuristic("heuristic:denial=0.5+tempo=0.2+hope=1", seed=3)
    assert (agent.weights.denial, agent.weights.tempo, agent.weights.hope) == (0.5, 0.2, 1.0)
    with pytest.raises(ValueError):
        make_agent("heuristic:leader=2", "ali-baba")
    with pytest.raises(ValueError):
        make_agent("heuristic:greed=1", "ali-baba")


CASES = [
    (2, "standard"),
    (3, "standard"),
    (4, "standard"),
    (2, "aladdins-lamp"),
    (3, "aladdins-lamp"),
    (4, "aladdins-lamp"),
    (2, "equal-treasures"),
    (3, "equal-treasures"),
    (4, "equal-treasures"),
    (2, "smaller-cave"),
]


@pytest.mark.parametrize(("players", "variant"), CASES)
def test_only_legal_actions_over_whole_games(players: int, variant: str) -> None:
    phases: set[str] = set()

    def check(state: AliBabaState, seat: int, obs: Observation, action: int) -> None:
        assert action in state.legal_actions(seat), (
            f"{state.action_to_str(action)!r} is illegal for {seat} ({state.phase_description()})"
        )
        phases.add(state.phase.name)

    for game in range(3):
        state = SPEC.new_game(params(players, variant), seed=100 + game)
        assert isinstance(state, AliBabaState)
        agents: list[Agent] = [heuristic(seed=game * 10 + s) for s in range(players)]
        if game == 2:
            agents[0] = RandomAgent(seed=game)  # the bot facing odd play too
        drive(state, agents, check)
        assert state.is_over
        assert all(a.fallbacks == 0 for a in agents if isinstance(a, HeuristicAgent))
    assert {"TAKE", "EFFECT"} <= phases
    if variant == "aladdins-lamp":
        assert "LAMP" in phases


def _twins(seed: int) -> tuple[AliBabaState, AliBabaState]:
    """Two games alike in everything public: two bottom-layer tiles of the first game are
    exchanged with each other, and a third with a box tile, in the second."""
    first = SPEC.new_game(params(3), seed=seed)
    assert isinstance(first, AliBabaState)
    start = first.arrangement()
    board, box = list(start["board"]), list(start["box"])
    # Inner squares of the bottom layer: each lies under four tiles of the second layer.
    board[6], board[18] = board[18], board[6]
    board[12], box[0] = box[0], board[12]
    second = SPEC.new_game(params(3), seed=seed, arrangement={**start, "board": board, "box": box})
    assert isinstance(second, AliBabaState)
    return first, second


@pytest.mark.parametrize("seed", [5, 11])
def test_decisions_depend_on_the_view_only(seed: int) -> None:
    """Same view, same bot seed: same decision, wherever the hidden tiles lie. The twins are
    played in step while their views are equal."""
    first, second = _twins(seed)
    bots = [[heuristic(seed=200 + s) for s in range(3)] for _ in range(2)]
    compared = 0
    while not first.is_over:
        acting = sorted(first.to_act())
        views = [(Observation(first, s), Observation(second, s)) for s in acting]
        if any(a.view != b.view for a, b in views):
            break
        chosen = []
        for seat, (a_obs, b_obs) in zip(acting, views, strict=True):
            a, b = bots[0][seat].act(a_obs), bots[1][seat].act(b_obs)
            assert a == b, f"seat {seat}: {first.action_to_str(a)} vs {second.action_to_str(b)}"
            chosen.append((seat, a))
            compared += 1
        for seat, action in chosen:
            first.apply(seat, action)
            second.apply(seat, action)
    assert compared >= 15


class ViewOnly:
    """An observation carrying nothing but the seat, a copy of its view, its decision, the
    legal actions and the game's public static data: no state behind it, no
    determinization."""

    def __init__(self, obs: Observation) -> None:
        self.seat = obs.seat
        self.view = copy.deepcopy(obs.view)
        self.legal = tuple(obs.legal)
        self.decision = obs.decision
        self.public = obs.public


def test_the_bot_needs_nothing_but_the_view_its_decision_and_public_data() -> None:
    """A bot fed bare views decides exactly like its twin fed real observations, over whole
    games with every kind of decision."""
    for players, variant in [(3, "standard"), (4, "aladdins-lamp")]:
        state = SPEC.new_game(params(players, variant), seed=31)
        assert isinstance(state, AliBabaState)
        real = [heuristic(seed=s) for s in range(players)]
        bare = [heuristic(seed=s) for s in range(players)]
        while not state.is_over:
            acting = sorted(state.to_act())
            chosen = []
            for seat in acting:
                obs = Observation(state, seat)
                action = real[seat].act(obs)
                assert bare[seat].act(ViewOnly(obs)) == action  # type: ignore[arg-type]
                chosen.append((seat, action))
            for seat, action in chosen:
                state.apply(seat, action)


def test_memory_starts_afresh_with_a_new_game() -> None:
    bot = heuristic(seed=1)
    agents: list[Agent] = [bot, heuristic(seed=2), heuristic(seed=3)]
    play_game(SPEC, params(3), agents, seed=21)
    bot.memory.shows[1] = [5, 0]
    state = SPEC.new_game(params(3), seed=22)
    bot.act(Observation(state, 0))
    assert bot.memory.shows == {}


def test_same_seed_same_game() -> None:
    def run() -> list[int]:
        agents: list[Agent] = [heuristic(seed=s) for s in range(3)]
        return list(play_game(SPEC, params(3), agents, seed=8).history)

    assert run() == run()


# -- strength ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "threshold"), [(2, 36), (3, 30)])
def test_beats_random_players_clearly(players: int, threshold: int) -> None:
    """One heuristic bot against random players, seat rotating, 40 games: measured 40/40 at
    2 and at 3 players (over 300 games: 100% at 2 players and at 3); a fair share would be
    20 and 13."""
    wins = 0
    games = 40
    for g in range(games):
        seat = g % players
        agents: list[Agent] = [RandomAgent(seed=g * 10 + s) for s in range(players)]
        agents[seat] = heuristic(seed=g)
        state = play_game(SPEC, params(players), agents, seed=7000 + g)
        wins += state.ranking()[seat] == 1
    assert wins >= threshold, f"won {wins} of {games}"
