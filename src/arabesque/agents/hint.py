"""A hint for a seat: the ``hard`` search bot's best options, with what it estimates for each.

``hint(obs, seed)`` runs the level's search (agents/ismcts.py ``search``) from the seat's
``Observation`` and returns its top options, each labelled in the decision's own words, with
how often the search tried it and the value it found. It reads only what the bot would:
``obs.determinize`` and ``obs.legal`` (and the decision for the labels), so two positions
that look the same to the seat get the same hint for the same seed. ``position_seed(obs)``
derives the seed from what the seat sees (its view and the game's params), which makes the
hint a function of the position: a server caches it per position.

What the number is (``Hint.measure``):

- ``win_rate`` where full rollouts are affordable (the game is near enough its end that a
  random playout to the end fits the budget many times over: ``full_rollouts_affordable``):
  the share of simulated games the seat won after the option, each played to the end from a
  position consistent with what the seat knows.
- ``evaluation`` otherwise: the game's evaluation (agents/evaluation.py, in [0, 1]; 0.5 is
  an even race with the best rival) of where the seat stands a few random moves later.

At a real-time decision (the lamp race) the hint says react or don't: the time is the
player's own. At a secret simultaneous choice the answer is a mixed strategy, and each
option also carries its share (``HintOption.share``).

The budget is the level's ``fm`` or ``iters`` without its ``ms`` safety deadline (a
deadline would make the hint depend on the machine); a server bounds the time itself.
``HintAgent`` carries a hint through the server's bot worker processes (server/botpool.py),
which send agents there and back.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass, replace
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.agents.evaluation import EvaluationAll, evaluation_all_for
from arabesque.agents.ismcts import REACT, Budget, IsmctsAgent, SearchConfig, search
from arabesque.agents.registry import make_agent
from arabesque.core.game import GameState

#: The level whose search a hint shares, and how many options it shows.
DEFAULT_LEVEL = "hard"
DEFAULT_TOP = 3
#: Full rollouts are affordable when the search still gets this many iterations with them.
MIN_FULL_ITERATIONS = 400
#: The longest playout to the end that counts as affordable for an ``iters`` budget.
MAX_FULL_STEPS = 60
#: Random playouts to the end tried before choosing full rollouts (all must fit).
PROBES = 4
#: The label of "react" at a real-time decision (its time is the player's).
REACT_LABEL = "react (as quickly as you can)"

MEASURES = ("win_rate", "evaluation")


@dataclass(frozen=True)
class HintOption:
    """One of the seat's options as the search saw it. ``action`` is None for "react" at a
    real-time decision; ``label`` is the decision's words for it and ``text`` its canonical
    text (None for "react"); ``value`` is in [0, 1] (``Hint.measure`` says what it is);
    ``share`` is the option's probability in the seat's mixed strategy at a secret
    simultaneous choice (else None)."""

    action: int | None
    label: str
    text: str | None
    visits: int
    value: float
    share: float | None = None


@dataclass(frozen=True)
class Hint:
    """The search's best options for ``seat`` (most tried first), and what their numbers
    mean. ``considered``: how many options the seat has (2 at a real-time decision: react
    or don't); ``iterations`` and ``applies``: what the search spent."""

    game: str
    seat: int
    level: str
    seed: int
    measure: str
    explanation: str
    prompt: str
    reaction: bool
    options: tuple[HintOption, ...]
    considered: int
    iterations: int
    applies: int

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["seed"] = str(self.seed)  # beyond a JavaScript number's exact range
        return data

    def lines(self, name: str) -> list[str]:
        """The hint for the player called ``name`` in words (the terminal's): who and what,
        one line per option, then what the numbers are."""
        what = "win rate" if self.measure == "win_rate" else "evaluation"
        out = [f"The {self.level} search bot's best moves for {name} ({what}):"]
        for option in self.options:
            number = f"{100 * option.value:.0f}% won" if self.measure == "win_rate" else (
                f"{option.value:.2f}"
            )
            share = "" if option.share is None else f", plays it {100 * option.share:.0f}%"
            out.append(f"  {option.label}: {number} ({option.visits} tries{share})")
        shown = len(self.options)
        more = f" ({shown} of {self.considered} options shown.)" if self.considered > shown else ""
        out.append(f"{self.explanation[:1].upper()}{self.explanation[1:]}.{more}")
        return out


def position_seed(obs: Observation) -> int:
    """A seed that is a function of what the seat sees: its view (which holds its own
    version, so every step of a game differs) and the game's params."""
    key = json.dumps(
        [obs.game_id, obs.params.to_json(), obs.view],
        sort_keys=True, separators=(",", ":"), default=str,
    )
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


def level_search(level: str, game_id: str) -> tuple[Budget, SearchConfig]:
    """The budget (without its ``ms`` deadline) and settings of a search level (a spec such
    as ``hard`` or ``ismcts:iters=50``); ValueError for an agent that is not a search bot."""
    agent = make_agent(level, game_id)
    if not isinstance(agent, IsmctsAgent):
        raise ValueError(f"a hint needs a search bot level, not {level!r}")
    budget = agent.budget
    return Budget(fm=budget.fm, iters=budget.iters), agent.config


def full_rollouts_affordable(obs: Observation, budget: Budget, rng: random.Random) -> bool:
    """Whether random playouts from here to the end are short enough that the search still
    gets ``MIN_FULL_ITERATIONS`` of them (``MAX_FULL_STEPS`` for an ``iters`` budget):
    ``PROBES`` playouts on determinizations must all end within that many steps."""
    cap = budget.fm // MIN_FULL_ITERATIONS if budget.fm is not None else MAX_FULL_STEPS
    if cap < 1:
        return False
    for _ in range(PROBES):
        state = obs.determinize(rng)
        steps = 0
        while not state.is_over:
            if steps == cap:
                return False
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(rng.random() * len(legal))])
            steps += 1
    return True


def win_values(fallback: EvaluationAll) -> EvaluationAll:
    """1 for each seat that won a finished game (a shared win too; solo: a positive result),
    else 0; an unfinished position (an iteration the budget cut short) by ``fallback``."""

    def evaluate(state: GameState) -> list[float]:
        if not state.is_over:
            return fallback(state)
        if state.num_players == 1:
            return [1.0 if state.returns()[0] > 0 else 0.0]
        return [1.0 if rank == 1 else 0.0 for rank in state.ranking()]

    return evaluate


def explain(measure: str, config: SearchConfig) -> str:
    """What a hint's numbers are, in one line."""
    if measure == "win_rate":
        return (
            "each number is the share of simulated games the player won after that move, "
            "played to the end from deals consistent with what the player knows"
        )
    # A game's levels may cut rollouts to nothing (Magic Lamp's): then the position valued
    # is where the search's look-ahead stopped.
    after = (
        f"{config.horizon} random moves after that move"
        if config.horizon
        else "where the search's look-ahead after that move stopped"
    )
    return (
        f"each number is the game's evaluation of the player's position {after} (0 to 1; 0.5 "
        "is even with the best rival), averaged over deals consistent with what the player "
        "knows"
    )


def hint(
    obs: Observation,
    seed: int | None = None,
    level: str = DEFAULT_LEVEL,
    top: int = DEFAULT_TOP,
    budget: Budget | None = None,
) -> Hint:
    """The ``level`` search bot's ``top`` options for ``obs``'s seat. ``seed`` None: the
    position's own (``position_seed``); ``budget`` replaces the level's (tests use a small
    one). The same seat's view and seed give the same hint."""
    if top < 1:
        raise ValueError(f"a hint shows at least one option, got top={top}")
    decision = obs.decision
    if seed is None:
        seed = position_seed(obs)
    level_budget, config = level_search(level, obs.game_id)
    if budget is None:
        budget = level_budget
    rng = random.Random(seed)
    fallback = evaluation_all_for(obs.game_id)
    if full_rollouts_affordable(obs, budget, rng):
        measure = "win_rate"
        config = replace(config, rollout="full")
        evaluate = win_values(fallback)
    else:
        measure = "evaluation"
        evaluate = fallback
    result = search(obs, budget, rng, config, evaluate)
    reaction = decision.reaction
    options = []
    for found in result.options:
        share = None if result.strategy is None else result.strategy.get(found.action, 0.0)
        if found.action == REACT:
            action, label, text = None, REACT_LABEL, None
        else:
            action = found.action
            label = decision.label_of(action)
            text = obs.action_to_str(action)
        options.append(HintOption(action, label, text, found.visits, found.value, share))
    if result.strategy is not None:
        options.sort(key=lambda o: (-(o.share or 0.0), -o.visits))
    return Hint(
        game=obs.game_id,
        seat=obs.seat,
        level=level,
        seed=seed,
        measure=measure,
        explanation=explain(measure, config),
        prompt=decision.prompt,
        reaction=reaction is not None,
        options=tuple(options[:top]),
        considered=2 if reaction is not None else len(obs.legal),
        iterations=result.iterations,
        applies=result.applies,
    )


class HintAgent(Agent):
    """Computes a hint where agents run (the server's bot workers) and carries it back in
    ``result``; ``act`` returns the hint's first option (or the first legal one)."""

    def __init__(
        self, level: str = DEFAULT_LEVEL, top: int = DEFAULT_TOP, budget: Budget | None = None
    ) -> None:
        super().__init__(0)
        self.level = level
        self.top = top
        self.budget = budget
        self.result: Hint | None = None

    def act(self, obs: Observation) -> int:
        self.result = hint(obs, level=self.level, top=self.top, budget=self.budget)
        first = self.result.options[0].action if self.result.options else None
        return first if first is not None else obs.legal[0]
