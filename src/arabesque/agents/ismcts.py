"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012), for any game.

Every iteration starts from ``obs.determinize(rng)``: a copy holding only what the searching
seat knows, with everything else dealt again. The tree is one tree over the seat's
information: a node is reached by a sequence of actions, whatever determinization played
them, so the real state is never read (two positions that look the same to the seat search
identically). Sequential choices are chosen by UCB1 with availability counts (an option
legal in only some determinizations is judged on the visits where it was); each seat
maximises its own value (max^n).

Simultaneous phases (several seats in ``to_act()``) are searched decoupled: each acting seat
picks its action from its own regret-matching strategy at the node (Lanctot et al. 2013),
never seeing the others' picks, and the joint action leads to the child. Sequential UCT over
such a phase would let a later seat see the first one's choice.

A real-time decision (``decision.reaction``: the lamp race) is searched as react / don't:
the reaction time comes from a ``ReactionProfile`` through ``reaction.action_for(ms)``, never
below the profile's floor, for the searching seat and for the seats it imagines alike.

Below the tree, a rollout plays uniformly random actions (the seats of a simultaneous phase
in turn) for at most ``horizon`` steps, and the position reached is valued for every seat
by the game's evaluation (agents/evaluation.py), or by its outcome when the game ended.

Knowledge (optional, ``prior=heuristic``): the game's heuristic agent names an option at
the root from the seat's ``Observation``, and at the nodes just below from the
determinized copy that first reaches them. That option is tried first and gets a
progressive bias ``bias / (visits + 1)`` in UCB1 (Chaslot et al. 2008); at the root it is
played unless the most visited option's mean value beats it by ``margin``.

Budgets: ``fm`` counts forward-model calls (``apply`` on copies; TAG's unit), ``iters``
iterations; both are reproducible for a seed. ``ms`` is a safety deadline only (a server's),
which makes the result depend on the machine.

``search`` is the public entry point (the agent and a future hint share it): it returns the
root options of the seat with their visits and mean values.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arabesque.agents.base import Agent, Observation
from arabesque.agents.evaluation import EvaluationAll, evaluation_all_for
from arabesque.agents.reaction import ReactionProfile
from arabesque.core.decision import Reaction
from arabesque.core.game import GameState

#: The option key of "react" at a real-time decision (its time is sampled when applied);
#: "don't" is the reaction's own ``none`` action.
REACT = -1
#: Keys of sequential options pack (action, seat): seats are below this.
_SEAT_SLOTS = 8
#: The rollout kinds: random play cut at the horizon, or random play to the end.
ROLLOUTS = ("random", "full")


@dataclass(frozen=True)
class Budget:
    """How long one search runs: ``fm`` applies or ``iters`` iterations (reproducible), and
    ``ms`` as a safety deadline."""

    fm: int | None = None
    iters: int | None = None
    ms: float | None = None

    def __post_init__(self) -> None:
        if self.fm is not None and self.iters is not None:
            raise ValueError("give one budget, fm=N or iters=N, not both")
        for name in ("fm", "iters", "ms"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"budget {name} must be a number, got {value!r}")
            if name != "ms" and not isinstance(value, int):
                raise ValueError(f"budget {name} must be a whole number, got {value!r}")
            if value <= 0:
                raise ValueError(f"budget {name} must be positive, got {value!r}")


@dataclass(frozen=True)
class SearchConfig:
    """The search's settings (the agent's spec options other than the budget)."""

    horizon: int = 30
    rollout: str = "random"
    #: UCB1's exploration constant (values are in [0, 1]).
    exploration: float = 0.7
    #: The share of uniform exploration mixed into a simultaneous node's strategy.
    gamma: float = 0.1
    profile: ReactionProfile = field(default_factory=ReactionProfile)
    #: Progressive bias toward a node's prior option: ``bias / (visits + 1)`` is added to
    #: its UCB1 score (Chaslot et al. 2008), so it is searched first and most early on.
    bias: float = 0.0
    #: How much better (in mean value) the most visited root option must be than the
    #: prior's to replace it; the prior's option stands otherwise.
    margin: float = 0.0
    #: How many steps below the root the prior is asked too, at each node's first visit
    #: (for whichever seat acts there: the rivals' replies are searched from it first).
    prior_depth: int = 0

    def __post_init__(self) -> None:
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {self.rollout!r}; known: {', '.join(ROLLOUTS)}")
        if isinstance(self.horizon, bool) or not isinstance(self.horizon, int):
            raise ValueError(f"horizon must be a whole number, got {self.horizon!r}")
        if self.horizon < 0:
            raise ValueError(f"horizon must be >= 0, got {self.horizon}")
        if not self.exploration >= 0:
            raise ValueError(f"exploration must be >= 0, got {self.exploration!r}")
        if not 0 < self.gamma <= 1:
            raise ValueError(f"gamma must be in (0, 1], got {self.gamma!r}")
        if not self.bias >= 0:
            raise ValueError(f"bias must be >= 0, got {self.bias!r}")
        if not self.margin >= 0:
            raise ValueError(f"margin must be >= 0, got {self.margin!r}")
        if isinstance(self.prior_depth, bool) or not isinstance(self.prior_depth, int):
            raise ValueError(f"depth must be a whole number, got {self.prior_depth!r}")
        if self.prior_depth < 0:
            raise ValueError(f"depth must be >= 0, got {self.prior_depth}")


@dataclass(frozen=True)
class SearchOption:
    """One root option: its action (``REACT`` for "react" at a real-time decision), how
    often the search chose it, and its mean value for the seat in [0, 1] (the evaluation of
    the rollouts' end positions, or their outcome where they reached the end)."""

    action: int
    visits: int
    value: float


@dataclass
class SearchResult:
    """What a search found: the root options (most visited first), how it was spent, and
    at a simultaneous root the seat's average strategy over its options."""

    options: list[SearchOption]
    iterations: int
    applies: int
    strategy: dict[int, float] | None = None


_NO_PRIOR = -1
_PRIOR_UNASKED = -2
#: ``node_prior(state, seat)``: the prior's choice for ``seat`` in a (determinized) state.
NodePrior = Callable[[GameState, int], int]


class _Node:
    """A node of the seat's tree. Sequential statistics per option key: [visits, value
    sum, availability]; at a simultaneous node, per acting seat and option: [regret,
    strategy sum, visits, value sum]."""

    __slots__ = ("children", "prior", "regrets", "stats")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        #: The prior's option key here (searched first, with a progressive bias), or
        #: ``_NO_PRIOR``; ``_PRIOR_UNASKED`` until the node is first visited.
        self.prior = _PRIOR_UNASKED
        self.stats: dict[int, list[float]] = {}
        self.regrets: dict[int, dict[int, list[float]]] = {}


class _OutOfBudget(Exception):
    """The forward-model budget ran out in the middle of an iteration."""


class _Search:
    def __init__(
        self,
        obs: Observation,
        budget: Budget,
        rng: random.Random,
        config: SearchConfig,
        evaluate: EvaluationAll,
        prior: int | None = None,
        node_prior: NodePrior | None = None,
    ) -> None:
        self.obs = obs
        self.seat = obs.seat
        self.budget = budget
        self.rng = rng
        self.config = config
        self.evaluate = evaluate
        self.applies = 0
        self.limit = budget.fm if budget.fm is not None else -1
        self.root = _Node()
        self.root.prior = _NO_PRIOR if prior is None else prior * _SEAT_SLOTS + obs.seat
        self.node_prior = node_prior

    # -- applying ---------------------------------------------------------------------

    def _apply(self, state: GameState, seat: int, action: int) -> None:
        if self.applies == self.limit:
            raise _OutOfBudget
        self.applies += 1
        # The seat and action come from the copy's own to_act() and legal_actions() (or a
        # reaction's options), so apply's checks and version keeping would only cost time.
        state._advance(seat, action)

    def _reaction_action(self, reaction: Reaction) -> int:
        return reaction_action(reaction, self.config.profile, self.rng)

    def _concrete(self, state: GameState, seat: int, key_action: int) -> int:
        if key_action != REACT:
            return key_action
        reaction = state.reaction(seat)
        assert reaction is not None
        return self._reaction_action(reaction)

    def _options(self, state: GameState, seat: int, real_time: bool) -> Sequence[int]:
        """The seat's options as the tree sees them: react / don't at a real-time decision."""
        if real_time:
            reaction = state.reaction(seat)
            if reaction is not None:
                return (REACT, reaction.none)
        return state.legal_actions(seat)

    # -- one iteration ----------------------------------------------------------------

    def iterate(self) -> None:
        state = self.obs.determinize(self.rng)
        real_time = state.spec.real_time
        node = self.root
        # (node, seat, key) for sequential steps, (node, picks) for simultaneous ones, where
        # picks are (seat, key, probability) with the probability it was chosen with.
        path: list[tuple[_Node, Any, Any]] = []
        expanded = False
        values: list[float] | None = None
        try:
            while not state.is_over and not expanded:
                acting = state.to_act()
                if len(acting) == 1:
                    (seat,) = acting
                    options = self._options(state, seat, real_time)
                    if node.prior == _PRIOR_UNASKED:
                        node.prior = self._ask_prior(state, seat, options, len(path))
                    key, expanded = self._select(node, seat, options)
                    path.append((node, seat, key))
                    self._apply(state, seat, self._concrete(state, seat, key // _SEAT_SLOTS))
                    child_key: Any = key
                else:
                    picks = []
                    for seat in sorted(acting):
                        options = self._options(state, seat, real_time)
                        action, prob = self._regret_pick(node, seat, options)
                        picks.append((seat, action, prob))
                    path.append((node, None, picks))
                    for seat, action, _ in picks:
                        self._apply(state, seat, self._concrete(state, seat, action))
                    child_key = tuple((seat, action) for seat, action, _ in picks)
                child = node.children.get(child_key)
                if child is None:
                    child = node.children[child_key] = _Node()
                    expanded = True
                node = child
            self._rollout(state, real_time)
        except _OutOfBudget:
            pass
        values = self.evaluate(state)
        self._backup(path, values)

    def _select(self, node: _Node, seat: int, options: Sequence[int]) -> tuple[int, bool]:
        """UCB1 with availability over the seat's options; an untried option first (the
        node's prior's if it has one, else a random one), and the prior's option with its
        progressive bias. Returns the key and whether it was untried."""
        stats = node.stats
        untried = []
        best_key = -1
        best = -1.0
        c = self.config.exploration
        prior = node.prior
        for a in options:
            key = a * _SEAT_SLOTS + seat
            s = stats.get(key)
            if s is None:
                untried.append(key)
                continue
            s[2] += 1.0
            if untried:
                continue
            score = s[1] / s[0] + c * math.sqrt(math.log(s[2]) / s[0])
            if key == prior:
                score += self.config.bias / (s[0] + 1.0)
            if score > best:
                best = score
                best_key = key
        if untried:
            if prior >= 0 and prior in untried:
                key = prior
            else:
                key = untried[int(self.rng.random() * len(untried))]
            stats[key] = [0.0, 0.0, 1.0]
            return key, True
        return best_key, False

    def _ask_prior(self, state: GameState, seat: int, options: Sequence[int], depth: int) -> int:
        """The prior's option key at a node first visited ``depth`` steps below the root,
        asked of the state that reached it first (a determinization, so nothing but what
        the searching seat knows), or ``_NO_PRIOR`` below ``prior_depth``."""
        if self.node_prior is None or depth > self.config.prior_depth:
            return _NO_PRIOR
        if len(options) < 2 or options[0] == REACT:
            return _NO_PRIOR
        action = self.node_prior(state, seat)
        return action * _SEAT_SLOTS + seat if action in options else _NO_PRIOR

    def _regret_pick(self, node: _Node, seat: int, options: Sequence[int]) -> tuple[int, float]:
        """Regret matching mixed with uniform exploration; returns (option, probability)."""
        table = node.regrets.get(seat)
        if table is None:
            table = node.regrets[seat] = {}
        rows = []
        positive = 0.0
        for a in options:
            row = table.get(a)
            if row is None:
                row = table[a] = [0.0, 0.0, 0.0, 0.0]
            rows.append(row)
            if row[0] > 0.0:
                positive += row[0]
        k = len(rows)
        gamma = self.config.gamma
        probs = []
        for row in rows:
            sigma = (
                row[0] / positive
                if positive > 0.0 and row[0] > 0.0
                else (0.0 if positive > 0.0 else 1.0 / k)
            )
            row[1] += sigma
            probs.append((1.0 - gamma) * sigma + gamma / k)
        x = self.rng.random()
        acc = 0.0
        for i, p in enumerate(probs):
            acc += p
            if x < acc:
                return options[i], p
        return options[-1], probs[-1]

    def _rollout(self, state: GameState, real_time: bool) -> None:
        steps = 0
        horizon = self.config.horizon if self.config.rollout == "random" else -1
        rng = self.rng
        while not state.is_over and steps != horizon:
            # In a simultaneous phase every seat answers before the reveal, in any order:
            # the lowest first is as good as a random one, and cheaper.
            seat = min(state.to_act())
            reaction = state.reaction(seat) if real_time else None
            if reaction is not None:
                action = self._reaction_action(reaction) if rng.random() < 0.5 else reaction.none
            else:
                legal = state.legal_actions(seat)
                action = legal[int(rng.random() * len(legal))]
            self._apply(state, seat, action)
            steps += 1

    def _backup(self, path: list[tuple[_Node, Any, Any]], values: list[float]) -> None:
        for node, seat, key in path:
            if seat is not None:
                s = node.stats[key]
                s[0] += 1.0
                s[1] += values[seat]
                continue
            for picked_seat, action, prob in key:
                u = values[picked_seat]
                table = node.regrets[picked_seat]
                estimate = u / prob
                for a, row in table.items():
                    # Regret matching+: regrets floored at zero, which settles on a mixed
                    # answer much sooner than plain regret matching under sampling noise.
                    regret = row[0] + (estimate if a == action else 0.0) - u
                    row[0] = regret if regret > 0.0 else 0.0
                row = table[action]
                row[2] += 1.0
                row[3] += u

    # -- the whole search -------------------------------------------------------------

    def run(self) -> SearchResult:
        budget = self.budget
        deadline = None if budget.ms is None else time.perf_counter() + budget.ms / 1000.0
        iters = budget.iters
        done = 0
        while True:
            if iters is not None and done >= iters:
                break
            if self.applies == self.limit:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self.iterate()
            done += 1
        return self._result(done)

    def _result(self, iterations: int) -> SearchResult:
        seat = self.seat
        root = self.root
        options: list[SearchOption] = []
        strategy: dict[int, float] | None = None
        table = root.regrets.get(seat)
        if table is not None and not root.stats:
            # A simultaneous root: the seat's average strategy is its answer.
            total = sum(row[1] for row in table.values()) or 1.0
            strategy = {a: row[1] / total for a, row in table.items()}
            for a, row in table.items():
                n = int(row[2])
                options.append(SearchOption(a, n, row[3] / n if n else 0.0))
        else:
            for key, s in root.stats.items():
                if key % _SEAT_SLOTS == seat:
                    n = int(s[0])
                    options.append(SearchOption(key // _SEAT_SLOTS, n, s[1] / n if n else 0.0))
        options.sort(key=lambda o: (-o.visits, -o.value, o.action))
        return SearchResult(options, iterations, self.applies, strategy)


def reaction_action(reaction: Reaction, profile: ReactionProfile, rng: random.Random) -> int:
    """A reaction with a time drawn from ``profile`` through ``reaction.action_for``: never
    below the profile's floor (a time rounded under it moves up a step), never past the
    window (a time past it would be no reaction at all)."""
    ms = min(profile.sample(rng), float(reaction.window_ms))
    action = reaction.action_for(ms)
    recorded = reaction.ms_of(action)
    while recorded is not None and recorded < profile.floor_ms and recorded < reaction.window_ms:
        action += 1
        recorded = reaction.ms_of(action)
    return action


def search(
    obs: Observation,
    budget: Budget,
    rng: random.Random,
    config: SearchConfig | None = None,
    evaluate: EvaluationAll | None = None,
    prior: int | None = None,
    node_prior: NodePrior | None = None,
) -> SearchResult:
    """IS-MCTS from ``obs``'s seat: its root options with visits and mean values. Only
    ``obs.determinize`` and ``obs.legal`` are read, so two positions that look the same to
    the seat give the same result for the same ``rng`` and a reproducible budget. ``prior``
    is a root option to search first, with ``config.bias`` (``REACT`` or the reaction's
    ``none`` at a real-time decision); ``node_prior`` names one at the nodes down to
    ``config.prior_depth``."""
    if config is None:
        config = SearchConfig()
    if evaluate is None:
        evaluate = evaluation_all_for(obs.game_id)
    return _Search(obs, budget, rng, config, evaluate, prior, node_prior).run()


#: The agent's spec options and what they set.
OPTIONS = (
    "fm",
    "iters",
    "ms",
    "horizon",
    "rollout",
    "c",
    "gamma",
    "median_ms",
    "floor_ms",
    "prior",
    "bias",
    "margin",
    "depth",
)
#: The priors an agent may search from: none, or the game's ``heuristic`` agent.
PRIORS = ("none", "heuristic")


class IsmctsAgent(Agent):
    """``ismcts:fm=4000+horizon=30`` ... (options joined with ``+``): IS-MCTS within a budget.

    ``fm=N`` forward-model calls or ``iters=N`` iterations (default ``iters=300``), ``ms=N``
    a safety deadline; ``horizon`` (30) and ``rollout`` (``random``: cut at the horizon,
    ``full``: to the end); ``c`` UCB1's exploration; ``gamma`` the exploration of
    simultaneous nodes; ``median_ms``/``floor_ms`` the reaction profile.

    ``prior=heuristic`` makes it knowledge-guided: the game's ``heuristic`` agent (one
    instance, fed every decision of this agent, so a heuristic that plans across decisions
    keeps its plan) names an option from the same ``Observation`` — it reads the seat's view,
    never the state. The search tries that option first with a progressive bias ``bias``
    (Chaslot et al. 2008), and it is played unless the most visited option's mean value
    beats its own by ``margin``: the search has to show it knows better. ``depth=N`` asks a
    fresh heuristic (no memory, fixed seed) at the nodes down to N steps below the root too,
    on the determinized copy that first reaches each: the rivals' likely replies and the
    seat's own next steps are searched first there (the copy holds only what the seat
    knows, so this reads nothing hidden either)."""

    DEFAULT_ITERS = 300

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed)
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(
                f"unknown ismcts option {', '.join(unknown)}; known: {', '.join(OPTIONS)}"
            )
        fm, iters, ms = options.get("fm"), options.get("iters"), options.get("ms")
        if fm is None and iters is None:
            iters = self.DEFAULT_ITERS
        self.budget = Budget(fm=fm, iters=iters, ms=ms)
        profile = ReactionProfile()
        if "median_ms" in options or "floor_ms" in options:
            profile = ReactionProfile(
                median_ms=float(options.get("median_ms", profile.median_ms)),
                floor_ms=float(options.get("floor_ms", profile.floor_ms)),
            )
        self.prior = str(options.get("prior", "none"))
        if self.prior not in PRIORS:
            raise ValueError(f"unknown prior {self.prior!r}; known: {', '.join(PRIORS)}")
        self.config = SearchConfig(
            horizon=options.get("horizon", 30),
            rollout=str(options.get("rollout", "random")),
            exploration=float(options.get("c", 0.7)),
            gamma=float(options.get("gamma", 0.1)),
            profile=profile,
            bias=float(options.get("bias", 0.0)),
            margin=float(options.get("margin", 0.0)),
            prior_depth=options.get("depth", 0),
        )
        # The heuristic's seed follows this agent's, from its own stream.
        self._prior_seed = None if seed is None else seed ^ 0x5EED_0F_9121
        self._prior_agent: Agent | None = None
        self.last: SearchResult | None = None

    def _prior_choice(self, obs: Observation) -> int | None:
        """The prior agent's choice at this decision (it sees every decision), or None."""
        if self.prior == "none":
            return None
        if self._prior_agent is None:
            from arabesque.agents.registry import make_agent

            self._prior_agent = make_agent(self.prior, obs.game_id, seed=self._prior_seed)
        return self._prior_agent.act(obs)

    def _node_prior(self, state: GameState, seat: int) -> int:
        """The prior agent's choice in a state met in the search: a fresh agent each time
        (no memory of the game) with a fixed seed, so the answer is the state's alone."""
        from arabesque.agents.registry import make_agent

        return make_agent(self.prior, state.spec.id, seed=0).act(Observation(state, seat))

    def act(self, obs: Observation) -> int:
        legal = obs.legal
        hint = self._prior_choice(obs)
        if len(legal) == 1:
            return legal[0]
        reaction = obs.decision.reaction
        prior = hint
        if reaction is not None and hint is not None:
            prior = reaction.none if hint == reaction.none else REACT
        rng = random.Random(self.rng.getrandbits(64))
        node_prior = self._node_prior if hint is not None and self.config.prior_depth else None
        result = search(obs, self.budget, rng, self.config, prior=prior, node_prior=node_prior)
        self.last = result
        choice = _choose(result, rng, prior, self.config.margin)
        if reaction is not None:
            if choice != REACT:
                return reaction.none
            return reaction_action(reaction, self.config.profile, self.rng)
        if choice not in legal:  # nothing searched (a deadline before any iteration)
            return hint if hint is not None and hint in legal else legal[0]
        return choice


#: At a simultaneous root, options below this share of the likeliest one's probability in
#: the average strategy are dropped before the draw: with a small budget the average is
#: still close to uniform, and the draw would be little better than random (Lanctot et al.
#: 2014 find such purification helps).
PURIFY = 0.5


def _choose(
    result: SearchResult, rng: random.Random, prior: int | None = None, margin: float = 0.0
) -> int:
    """The most visited option; at a simultaneous root, a draw from the seat's purified
    average strategy (a mixed strategy is the answer to a secret choice). With a prior,
    the prior's option unless that choice's mean value beats the prior's by ``margin``."""
    choice = _searched_choice(result, rng)
    if prior is None or choice == prior:
        return choice
    values = {o.action: o for o in result.options}
    mine = values.get(prior)
    other = values.get(choice)
    if other is None or other.visits == 0:
        return prior
    if mine is None or mine.visits == 0:  # never tried (a simultaneous root): no evidence
        return prior
    return choice if other.value >= mine.value + margin else prior


def _searched_choice(result: SearchResult, rng: random.Random) -> int:
    if result.strategy:
        top = max(result.strategy.values())
        items = sorted((a, p) for a, p in result.strategy.items() if p >= PURIFY * top)
        x = rng.random() * sum(p for _, p in items)
        acc = 0.0
        for action, p in items:
            acc += p
            if x < acc:
                return action
        return items[-1][0]
    if not result.options:
        return REACT - 1
    return result.options[0].action
