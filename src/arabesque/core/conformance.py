"""The shared conformance kit: generic checks every game's tests run.

Each ``check_*`` raises ``AssertionError`` with a message on failure. They use only the core
contract, so a new game gets them for free (see tests/test_conformance_*.py).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from enum import IntEnum
from itertools import pairwise
from typing import Any

from arabesque.core.decision import expand_options
from arabesque.core.errors import ArabesqueError, StaleStateError
from arabesque.core.game import GameSpec, GameState, Params
from arabesque.core.records import GameRecord


def random_step(state: GameState, rng: random.Random) -> tuple[int, int]:
    """Apply one uniformly random legal action of a random acting player."""
    player = rng.choice(sorted(state.to_act()))
    action = rng.choice(state.legal_actions(player))
    state.apply(player, action)
    return player, action


def random_playout(
    spec: GameSpec,
    params: Params,
    seed: int,
    on_step: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play a whole game with uniformly random actions; checks it ends within the bound and
    that every state's legal actions are ascending (``check_legal_actions_ascending``)."""
    state = spec.new_game(params, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    limit = spec.max_game_length(params)
    steps = 0
    while not state.is_over:
        assert state.to_act(), f"no one to act in a running game ({state.phase_description()})"
        check_legal_actions_ascending(state)
        random_step(state, rng)
        steps += 1
        assert steps <= limit, f"game exceeded its declared max length {limit}"
        if on_step is not None:
            on_step(state)
    assert not state.to_act(), "a finished game still has players to act"
    return state


def iter_states(
    spec: GameSpec,
    params: Params,
    seed: int,
    every: int = 1,
    on_step: Callable[[GameState], None] | None = None,
) -> Iterator[GameState]:
    """States along one random playout (each a clone), every ``every`` steps, and the end;
    ``on_step`` (a cheap check) sees every state of the playout, the first one included."""
    state = spec.new_game(params, seed=seed)
    rng = random.Random(seed)
    limit = spec.max_game_length(params)
    step = 0
    if on_step is not None:
        on_step(state)
    yield state.clone()
    while not state.is_over:
        random_step(state, rng)
        step += 1
        assert step <= limit, f"game exceeded its declared max length {limit}"
        if on_step is not None:
            on_step(state)
        if step % every == 0 or state.is_over:
            yield state.clone()


def check_scores(state: GameState) -> None:
    scores = state.scores()
    assert len(scores) == state.num_players
    for p, score in enumerate(scores):
        assert score.total == sum(score.breakdown.values()), (
            f"player {p}: total {score.total} != sum of breakdown {dict(score.breakdown)}"
        )
    ranks = state.ranking()
    assert sorted(set(ranks))[0] == 1, f"nobody ranked first: {ranks}"
    for p, q in ((p, q) for p in range(len(ranks)) for q in range(len(ranks))):
        if scores[p].total > scores[q].total:
            assert ranks[p] <= ranks[q], f"higher score ranked lower: {scores} {ranks}"


def check_clone_independence(state: GameState, rng: random.Random, steps: int = 5) -> None:
    """Old copies never change when the game moves on, and vice versa."""
    if state.is_over:
        return
    before = state.fingerprint()
    copy = state.clone()
    assert copy.fingerprint() == before, "clone differs from its original"
    original_after = state.clone()
    for _ in range(steps):
        if original_after.is_over:
            break
        random_step(original_after, rng)
    assert copy.fingerprint() == before, "advancing a game changed an earlier clone"
    assert state.fingerprint() == before, "advancing a clone changed its original"
    for _ in range(steps):
        if copy.is_over:
            break
        random_step(copy, rng)
    assert state.fingerprint() == before, "advancing a clone changed its original"


def check_replay(state: GameState) -> None:
    """The record, through JSON text, replays to the identical state."""
    record = state.record()
    text = json.dumps(record.to_json())
    again = GameRecord.from_json(json.loads(text)).replay()
    assert again.fingerprint() == state.fingerprint(), "replayed record differs from the game"
    assert again.history == state.history


def check_json_views(state: GameState) -> None:
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        text = json.dumps(view)
        assert json.loads(text) == view, f"view for seat {seat} is not JSON-ready"


def check_legal_actions_ascending(state: GameState) -> None:
    """Every seat's ``legal_actions`` are strictly ascending: sorted, no action twice (the
    core's contract, docs/architecture.md; OpenSpiel's own tests require it). Cheap, so
    ``run_conformance`` runs it at every step of its playouts: a rare decision does not
    escape it between the sampled states."""
    for player in range(state.num_players):
        legal = state.legal_actions(player)
        if any(a >= b for a, b in pairwise(legal)):
            raise AssertionError(
                f"legal_actions({player}) are not ascending without duplicates "
                f"({state.phase_description()}): {list(legal[:20])}"
            )


def check_mask(state: GameState) -> None:
    check_legal_actions_ascending(state)
    for player in range(state.num_players):
        legal = list(state.legal_actions(player))
        mask = state.legal_mask(player)
        assert len(mask) == state.num_actions
        assert [a for a, ok in enumerate(mask) if ok] == legal, "mask disagrees with legal_actions"
        if player not in state.to_act():
            assert not legal, f"player {player} has legal actions but is not to act"
        else:
            assert legal, f"player {player} is to act but has no legal action"
        for action in legal:
            assert state.parse_action(state.action_to_str(action)) == action, (
                f"action text does not round-trip: {state.action_to_str(action)!r}"
            )


def check_views_hide(state: GameState, rng: random.Random, samples: int = 3) -> None:
    """Two states that differ only in what seat P cannot see give P identical views.

    ``determinize(P)`` re-samples exactly what P cannot see, so P's view (and decision)
    must not change; if it does, the view shows something P should not know.
    """
    for seat in range(state.num_players):
        expected = state.view(seat, include_log=False)
        for _ in range(samples):
            other = state.determinize(seat, rng)
            got = other.view(seat, include_log=False)
            if got != expected:
                keys = expected.keys() | got.keys()
                diff = sorted(k for k in keys if got.get(k) != expected.get(k))
                raise AssertionError(
                    f"seat {seat}'s view changed under determinization (keys {diff}): "
                    "it leaks hidden state"
                )


def position_key(state: GameState) -> Any:
    """The state's fingerprint without its seed, RNG state, version, history and log: what
    the position is, not how it came about."""
    probe = state._copy(False)
    probe.seed = 0
    probe.version = 0
    probe.rng = random.Random(0)
    return probe.fingerprint()


def check_determinize_honest(state: GameState, rng: random.Random) -> None:
    """A determinized copy holds nothing its seat cannot know: not the real seed, setup,
    history or log; it makes no record; it does not log as it plays; and it is at the same
    version as the game."""
    for seat in range(state.num_players):
        copy = state.determinize(seat, rng)
        assert copy.determinized and not copy.logging
        assert copy.history == [] and copy.events == [], "a determinized copy keeps the past"
        assert copy.seed != state.seed, "a determinized copy keeps the real seed"
        assert copy.rng is not state.rng
        assert copy.version == state.version
        if state.spec.hidden_information:
            assert copy.arrangement() != state.arrangement() or not state.arrangement(), (
                "a determinized copy keeps the real setup"
            )
        try:
            copy.record()
        except ArabesqueError:
            pass
        else:
            raise AssertionError("a determinized copy made a record")
        if not copy.is_over:
            random_step(copy, rng)
        assert copy.events == [] and copy.history == [], "a determinized copy logged its play"


def check_determinizations_vary(state: GameState, rng: random.Random, samples: int = 6) -> bool:
    """Whether some seat's determinizations of ``state`` differ from each other (what the
    seat cannot see is really re-sampled). Returns the answer; callers assert it where the
    game is known to hide something (e.g. its first state)."""
    for seat in range(state.num_players):
        keys = {position_key(state.determinize(seat, rng)) for _ in range(samples)}
        if len(keys) > 1:
            return True
    return False


def check_determinize_canonical(state: GameState, rng: random.Random) -> None:
    """Determinization is a function of what the seat knows: two states that look the same
    to a seat (equal views), determinized with equally seeded rngs, give the same copy. The
    twin is a determinization itself (the same view, other hidden cards, already checked by
    ``check_views_hide``). Otherwise a search bot's choice would follow the real deal."""
    for seat in range(state.num_players):
        twin = state.determinize(seat, rng)
        assert twin.view(seat, include_log=False) == state.view(seat, include_log=False)
        seed = rng.getrandbits(64)
        mine = state.determinize(seat, random.Random(seed))
        theirs = twin.determinize(seat, random.Random(seed))
        if mine.fingerprint() != theirs.fingerprint():
            raise AssertionError(
                f"seat {seat}: two states with the same view, determinized with the same rng, "
                "gave different copies (the re-sampling follows the real hidden order)"
            )


def check_search_copy(state: GameState, rng: random.Random) -> None:
    """A search copy is the same position without history or log, logs nothing as it
    plays, and leaves the original untouched."""
    before = state.fingerprint()
    copy = state.search_copy()
    assert position_key(copy) == position_key(state), "a search copy is another position"
    assert copy.version == state.version
    assert copy.history == [] and copy.events == [] and not copy.logging
    steps = 0
    while not copy.is_over and steps < 40:
        random_step(copy, rng)
        steps += 1
    assert copy.events == [], "a search copy logged its play"
    assert state.fingerprint() == before, "playing a search copy changed the original"


def check_decisions(state: GameState) -> None:
    """``decision(seat)`` agrees with ``to_act``/``legal_actions``, and every view carries
    the seat's decision in the shared shape."""
    acting = state.to_act()
    for seat in range(state.num_players):
        decision = state.decision(seat)
        view = state.view(seat, include_log=False)
        if seat not in acting:
            assert decision is None, f"seat {seat} is not to act but has a decision"
            assert state.reaction(seat) is None, f"seat {seat} is not to act but may react"
            assert view["decision"] is None
            assert state.default_action(seat) is None
            continue
        assert decision is not None, f"seat {seat} is to act but has no decision"
        assert decision.seat == seat
        assert state.reaction(seat) == decision.reaction, "reaction() disagrees with decision"
        assert isinstance(decision.kind, IntEnum), "a decision kind comes from the game's enum"
        assert list(decision.options) == list(state.legal_actions(seat)), (
            f"seat {seat}: decision options {decision.options} != legal actions"
        )
        assert len(decision.labels) == len(decision.options)
        assert all(isinstance(label, str) and label for label in decision.labels)
        assert decision.prompt, "a decision without a prompt"
        assert decision.default in decision.options
        assert state.default_action(seat) == decision.default
        assert set(decision.optional) <= set(decision.options)
        # A seat whose time runs out makes the main choice, never a side action.
        assert decision.default not in decision.optional, "the default is a side action"
        shown = view["decision"]
        assert shown is not None and shown["kind"] == decision.kind_name
        # Ranges of options written out must say exactly what the decision says.
        options = expand_options(shown["options"])
        assert [o["action"] for o in options] == list(decision.options)
        assert [o["label"] for o in options] == list(decision.labels)
        assert [o["text"] for o in options] == [state.action_to_str(a) for a in decision.options]
        assert len(shown["options"]) == len(decision.listed) + len(decision.ranges)
        assert [o["action"] for o in options if o.get("optional")] == [
            a for a in decision.options if a in decision.optional
        ]
        assert shown["trail"] == list(decision.trail) and shown["prompt"] == decision.prompt
        json.dumps(shown)
    for spectator in (None,):
        assert state.view(spectator, include_log=False)["decision"] is None


def check_versions(state: GameState, rng: random.Random) -> None:
    """Every applied action raises the version by one; a stale version is refused with
    the state unchanged."""
    if state.is_over:
        return
    copy = state.clone()
    before = copy.fingerprint()
    player = min(copy.to_act())
    action = copy.legal_actions(player)[0]
    seen = copy.version_for(player)
    for stale in {seen - 1, seen + 1, copy.version + 1} - {seen}:
        try:
            copy.apply(player, action, version=stale)
        except StaleStateError:
            pass
        else:
            raise AssertionError(f"a stale version {stale} was accepted (fresh: {seen})")
    assert copy.fingerprint() == before, "a refused stale action changed the state"
    version = copy.version
    copy.apply(player, action, version=seen)
    assert copy.version == version + 1
    assert copy.version_for(player) == seen + 1, "the actor's own version did not move"


def _seen(state: GameState, viewer: int | None) -> str:
    view = state.view(viewer, include_log=False)
    del view["version"]
    return json.dumps(view, sort_keys=True)


def check_versions_follow_views(spec: GameSpec, params: Params, seed: int) -> int:
    """Along a random playout, each viewer's version (``version_for``, the one in its view)
    moves, by one, exactly when its view (without the log) or its log changes, so that a
    version never betrays a move the viewer may not see. Returns how many (step, viewer)
    pairs were checked."""
    state = spec.new_game(params, seed=seed)
    rng = random.Random(seed ^ 0x7E25)
    viewers: list[int | None] = [*range(state.num_players), None]
    shown = {v: _seen(state, v) for v in viewers}
    versions = {v: state.version_for(v) for v in viewers}
    checked = 0
    while not state.is_over:
        index = len(state.events)
        player, action = random_step(state, rng)
        for v in viewers:
            now = _seen(state, v)
            changed = now != shown[v] or bool(state.log_since(v, index)[0])
            version = state.version_for(v)
            assert state.view(v, include_log=False)["version"] == version
            moved = version - versions[v]
            what = f"viewer {v} after {state.action_to_str(action)!r} by {player}"
            assert moved in (0, 1), f"{what}: version moved by {moved}"
            if changed:
                assert moved == 1, f"{what}: its view changed but its version did not"
            else:
                assert moved == 0, f"{what}: its version moved but nothing it sees did"
            shown[v], versions[v] = now, version
            checked += 1
    return checked


def check_determinize_playable(state: GameState, rng: random.Random) -> None:
    """A determinized copy is a legal game that plays on to the end, and leaves the
    original untouched."""
    before = state.fingerprint()
    for seat in range(state.num_players):
        copy = state.determinize(seat, rng)
        assert copy.rng is not state.rng
        for player in copy.to_act():
            assert list(copy.legal_actions(player)) or copy.is_over
        steps = 0
        while not copy.is_over and steps < 60:
            random_step(copy, rng)
            steps += 1
    assert state.fingerprint() == before, "determinize changed the original"


def garbage_actions(state: GameState, rng: random.Random) -> list[Any]:
    n = state.num_actions
    return [
        -1,
        n,
        n + rng.randrange(1000),
        rng.randrange(n),
        rng.randrange(n),
        "draw",
        None,
        1.5,
        True,
        [0],
    ]


#: Values that are not seats although some compare equal to one (True == 1, 0.0 == 0).
NOT_SEATS: tuple[Any, ...] = (True, False, 0.0, 1.0, "0", None, [], [0], (0,), {}, -1, 99)


def check_legal_actions_for_non_seats(state: GameState) -> None:
    """``legal_actions`` answers nothing, and raises nothing, for values that are not seats
    (apply refuses them all)."""
    for value in NOT_SEATS:
        assert list(state.legal_actions(value)) == [], f"legal_actions({value!r}) answered"


def check_bad_actions_unchanged(state: GameState, rng: random.Random) -> None:
    """Malformed or illegal actions raise a ValueError subclass and change nothing."""
    before = state.fingerprint()
    history = list(state.history)
    players: list[Any] = [*range(state.num_players), -1, state.num_players, "0"]
    for player in players:
        for action in garbage_actions(state, rng):
            if (
                isinstance(player, int)
                and player in state.to_act()
                and (isinstance(action, int) and not isinstance(action, bool))
                and action in state.legal_actions(player)
            ):
                continue
            try:
                state.apply(player, action)
            except ArabesqueError as exc:
                assert str(exc), "an error with no message"
            else:
                raise AssertionError(f"apply({player!r}, {action!r}) was accepted")
            assert state.fingerprint() == before, f"apply({player!r}, {action!r}) changed state"
            assert state.history == history
    check_lying_ints_refused(state)


class AgreesWithEverything(int):
    """An int whose comparisons and hash say yes to everything and whose ``__index__`` says 0:
    what a hostile caller could pass to ``apply``. Only ``int.__index__`` reads its value."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __lt__(self, other: object) -> bool:
        return True

    def __le__(self, other: object) -> bool:
        return True

    def __gt__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __index__(self) -> int:
        return 0

    def __int__(self) -> int:
        return 0


def check_lying_ints_refused(state: GameState) -> None:
    """An illegal action, a seat not to act or a stale version, each passed as an
    ``AgreesWithEverything``, is refused and changes nothing: ``apply`` reads the value it
    holds, not what its ``==`` says."""
    if state.is_over:
        return
    before, history = state.fingerprint(), list(state.history)
    seat = min(state.to_act())
    legal = state.legal_actions(seat)
    illegal = next((a for a in range(state.num_actions) if a not in legal), None)
    idle = next((p for p in range(state.num_players) if p not in state.to_act()), None)
    attempts: list[tuple[Any, Any, Any]] = [
        (seat, AgreesWithEverything(state.num_actions), None),
        (seat, legal[0], AgreesWithEverything(state.version + 1)),
    ]
    if illegal is not None:
        attempts.append((seat, AgreesWithEverything(illegal), None))
    if idle is not None:
        attempts.append((AgreesWithEverything(idle), legal[0], None))
    for player, action, version in attempts:
        try:
            state.apply(player, action, version=version)
        except ArabesqueError:
            pass
        else:
            raise AssertionError(
                f"apply() accepted a lying int: player {int.__index__(player)}, action "
                f"{int.__index__(action)}, version {version and int.__index__(version)}"
            )
        assert state.fingerprint() == before and state.history == history, (
            "a refused lying int changed the state"
        )


def run_conformance(
    spec: GameSpec, params: Params, seeds: range | list[int], every: int = 7
) -> int:
    """Every check along random playouts; returns how many states were checked."""
    checked = 0
    for seed in seeds:
        rng = random.Random(seed * 7919 + 1)
        final: GameState | None = None
        first = spec.new_game(params, seed=seed)
        if spec.hidden_information:
            assert check_determinizations_vary(first, rng), (
                "determinizing the first state never changed anything hidden"
            )
        steps = iter_states(spec, params, seed, every=every, on_step=check_legal_actions_ascending)
        for state in steps:
            check_mask(state)
            check_decisions(state)
            check_json_views(state)
            check_views_hide(state, rng, samples=1)
            check_determinize_honest(state, rng)
            check_determinize_canonical(state, rng)
            check_search_copy(state, rng)
            check_versions(state, rng)
            check_clone_independence(state, rng)
            check_bad_actions_unchanged(state, rng)
            check_legal_actions_for_non_seats(state)
            check_observation(state)
            check_observation_hides(state, rng)
            checked += 1
            final = state
        assert final is not None and final.is_over
        check_determinize_playable(first, rng)
        check_scores(final)
        check_replay(final)
    return checked


# -- observers --


def check_observation(state: GameState) -> None:
    """Every seat's observation, and a spectator's, is a finite float32 vector of the
    declared shape."""
    import numpy as np

    shape = state.spec.observation_shape(state.params)
    for seat in [None, *range(state.num_players)]:
        obs = state.observation(seat)
        assert isinstance(obs, np.ndarray), f"seat {seat}: the observation is no ndarray"
        assert obs.shape == shape, f"seat {seat}: observation shape {obs.shape} != {shape}"
        assert obs.dtype == np.float32, f"seat {seat}: observation dtype {obs.dtype}"
        assert np.isfinite(obs).all(), f"seat {seat}: the observation has NaN or infinity"
        check_observation_bounds(state, seat, obs)


def check_observation_bounds(state: GameState, seat: int | None, obs: Any) -> None:
    """The observation lies within the layout's bounds (what RL spaces are built from), and
    every field not declared ``clip`` does so as the observer writes it, before any clip: a
    bound the rules set must hold by itself. The message names the field."""
    import numpy as np

    observer = state.observer
    layout = observer.layout
    raw = np.zeros(observer.shape, dtype=np.float32)
    observer.fill(state, seat, raw)
    for f in layout:
        part = obs[f.slice]
        written = raw[f.slice]
        assert part.min(initial=f.low) >= f.low and part.max(initial=f.high) <= f.high, (
            f"seat {seat}: field {f.name!r} holds values outside [{f.low}, {f.high}]: "
            f"{part.min()}..{part.max()}"
        )
        if not f.clip:
            assert written.min(initial=f.low) >= f.low and written.max(initial=f.high) <= f.high, (
                f"seat {seat}: field {f.name!r} is written outside its bounds "
                f"[{f.low}, {f.high}] ({written.min()}..{written.max()}): declare honest "
                "bounds, or clip=True where the rules set no maximum"
            )


def check_observation_hides(state: GameState, rng: random.Random, samples: int = 1) -> None:
    """Like ``check_views_hide`` for tensors: ``determinize(P)`` re-samples exactly what P
    cannot see, so P's observation must not change; the message names the layout fields
    that did."""
    import numpy as np

    layout = state.observer.layout
    for seat in range(state.num_players):
        expected = state.observation(seat)
        for _ in range(samples):
            got = state.determinize(seat, rng).observation(seat)
            if not np.array_equal(got, expected):
                changed = set(np.flatnonzero(got != expected).tolist())
                names = [f.name for f in layout if changed & set(range(f.start, f.start + f.size))]
                raise AssertionError(
                    f"seat {seat}'s observation changed under determinization (fields "
                    f"{names}): it leaks hidden state"
                )
