"""``arabesque play <game>``: one person against bots (or bots alone) in the terminal.

``main`` is what the command line calls; ``build_app`` makes the same application for tests,
with an explicit seed, a zero bot delay and, if wanted, agents of the test's choosing.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from typing import Any

from arabesque.agents.base import Agent
from arabesque.agents.random_agent import RandomAgent
from arabesque.agents.registry import make_agent
from arabesque.core.registry import get_game
from arabesque.tui.app import DEFAULT_BOT_DELAY, ArabesqueApp, has_screen, screen_class
from arabesque.tui.session import Session

EXIT_ERROR = 2
#: Seconds the lamp race stays open after the reveal (a rub is recorded up to 2.99 s).
DEFAULT_WINDOW_S = 3.0
FALLBACK_AGENT = "random"


class PlayError(ValueError):
    """A setup the terminal client cannot play (the message says why)."""


def human_seat(num_players: int, bots: int) -> int | None:
    """Seat 0 for one human among bots, None for bots alone; several humans are refused."""
    if not 0 <= bots <= num_players:
        raise PlayError(f"bots must be between 0 and the {num_players} players, got {bots}")
    humans = num_players - bots
    if humans == 0:
        return None
    if humans > 1:
        raise PlayError(
            f"{humans} human players: hot-seat play (several people at one terminal) is not "
            f"supported yet; use --bots {num_players - 1} to play against bots, or "
            f"--bots {num_players} to watch them"
        )
    return 0


def make_bots(
    agent: str, game_id: str, seats: list[int], seed: int
) -> tuple[dict[int, Agent], list[str]]:
    """One agent per bot seat, each with its own seed drawn from ``seed``. An agent that
    cannot be built falls back to the random agent, with a notice for the player."""
    rng = random.Random(f"tui-bots:{seed}")
    bot_seeds = {seat: rng.randrange(2**63) for seat in seats}
    notices: list[str] = []
    try:
        agents = {seat: make_agent(agent, game_id, bot_seeds[seat]) for seat in seats}
    except Exception as exc:  # a missing or broken bot module must not stop a game
        if agent == FALLBACK_AGENT:
            raise
        notices.append(f"Notice: agent {agent!r} is not available ({exc}); bots play at random.")
        agents = {seat: _random_agent(bot_seeds[seat]) for seat in seats}
    return agents, notices


def _random_agent(seed: int) -> Agent:
    agent = RandomAgent(seed)
    agent.spec = FALLBACK_AGENT
    return agent


def build_app(
    game_id: str,
    num_players: int,
    bots: int,
    agent: str = "heuristic",
    seed: int | None = None,
    my_precious: bool = False,
    components: str | None = None,
    window_s: float | None = DEFAULT_WINDOW_S,
    bot_delay: float = DEFAULT_BOT_DELAY,
    agents: Mapping[int, Agent] | None = None,
    params: Mapping[str, Any] | None = None,
) -> ArabesqueApp:
    """The terminal application for one game. Raises ``ArabesqueError``/``PlayError``
    (both ValueError) on an unknown game, a game without a screen or a bad setup.

    ``agents`` replaces the bots built from ``agent`` (tests script them); ``params`` adds
    game options beyond the common ones.
    """
    spec = get_game(game_id)
    if not has_screen(spec.id):
        screen_class(spec.id)  # raises with the list of games that have one
    if window_s is None:  # the command line passes None when --window is not given
        window_s = DEFAULT_WINDOW_S
    if window_s <= 0:
        raise PlayError(f"the race window must be positive, got {window_s} s")
    human = human_seat(num_players, bots)
    options: dict[str, Any] = {"num_players": num_players, **(params or {})}
    # Only options the player asked for, so a game without them still accepts the call.
    if my_precious:
        options["my_precious"] = True
    if components is not None:
        options["components"] = components
    game_params = spec.make_params(**options)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    state = spec.new_game(game_params, seed=seed)
    seats = [p for p in range(num_players) if p != human]
    notices: list[str] = []
    if agents is None:
        bot_agents, notices = make_bots(agent, spec.id, seats, seed)
    else:
        bot_agents = dict(agents)
    session = Session(state, bot_agents, human, notices)
    return ArabesqueApp(
        session, bot_delay=bot_delay, window_s=window_s, screen=screen_class(spec.id)
    )


def main(
    game_id: str,
    num_players: int,
    bots: int,
    agent: str = "heuristic",
    seed: int | None = None,
    my_precious: bool = False,
    components: str | None = None,
    window_s: float | None = DEFAULT_WINDOW_S,
    bot_delay: float = DEFAULT_BOT_DELAY,
    options: Mapping[str, Any] | None = None,
) -> int:
    """Play in the terminal; returns the exit status (2 on a setup error)."""
    try:
        app = build_app(
            game_id,
            num_players,
            bots,
            agent=agent,
            seed=seed,
            my_precious=my_precious,
            components=components,
            window_s=window_s,
            bot_delay=bot_delay,
            params=options,
        )
    except ValueError as exc:  # ArabesqueError and PlayError: unknown game, bad setup
        print(f"arabesque play: {exc}", file=sys.stderr)
        return EXIT_ERROR
    app.run()
    session = app.session
    for notice in session.notices:
        print(notice, file=sys.stderr)
    state = session.state
    print(f"{state.spec.name}, seed {state.seed}.")
    if session.is_over:
        print("Final scores:")
        for line in session.final_lines():
            print("  " + line)
    else:
        print("Game left before the end.")
    return 0
