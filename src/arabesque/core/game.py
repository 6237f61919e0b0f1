"""The core contract every game implements.

A game is a ``GameSpec`` (metadata, declared once) and a ``GameState`` subclass (the state
machine). Front ends — terminal, simulator, bots, records, RL adapters — are written against
this module only and never against a particular game.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from arabesque.core import gamedata
from arabesque.core.decision import Decision, Reaction
from arabesque.core.errors import (
    ComponentsError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    ParamsError,
    RecordError,
    StaleStateError,
)
from arabesque.core.events import Event
from arabesque.core.limits import clip, quote
from arabesque.core.observer import FloatArray, Observer
from arabesque.core.scoring import Score, rank_scores

P = TypeVar("P", bound="Params")

#: How many legal actions an error message quotes before it abbreviates.
_QUOTED_LEGAL = 12


@dataclass(frozen=True)
class OptionWords:
    """A game option in words, for people choosing it (a lobby): its name, what it does,
    and a name for each of its choices."""

    #: "Variant", "Tom's deck".
    label: str
    #: One line on what it changes ("solo only: fewer cards make the game harder").
    help: str = ""
    #: Choice value -> its name ("aladdins-lamp" -> "Aladdin's lamp").
    choices: Mapping[str | int, str] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Params:
    """Base of every game's parameters: a frozen dataclass, JSON-ready through ``to_json``."""

    num_players: int

    #: The param naming a game data file (a path or ``sha256:<hex>``), whose text a record
    #: embeds so a replay never opens a file; None when the game has none.
    DATA_PARAM: ClassVar[str | None] = None
    #: The values a param may take, where it is one of a few (a lobby offers them as a list).
    CHOICES: ClassVar[Mapping[str, tuple[str | int, ...]]] = {}
    #: Params that only bound a game's length for safety (no rulebook option), which a lobby
    #: does not offer.
    SAFETY_CAPS: ClassVar[frozenset[str]] = frozenset()
    #: The options a lobby offers, in words (a param without an entry is shown by its name).
    WORDS: ClassVar[Mapping[str, OptionWords]] = {}

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data, Mapping):
            raise ParamsError(f"params must be a JSON object, got {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(map(str, set(data) - names))
        if unknown:
            raise ParamsError(f"unknown params {quote(unknown)}; known: {sorted(names)}")
        try:
            return cls(**dict(data))
        except TypeError as exc:
            raise ParamsError(f"bad params {quote(dict(data))}: {clip(str(exc))}") from exc

    def with_changes(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, eq=False)
class DataFileParams(Params):
    """Params whose ``DATA_PARAM`` field names a game data file: None (the built-in data), a
    file path, or ``"sha256:<hex>"`` (what a record holds; core/gamedata.py).

    A game names its data by path during play and by digest in a record, yet a game and its
    replay are the same game: these params compare (and hash) the data by the sha256 of its
    text, whatever named it. A game supplies only ``data_digest_of`` (how to load its file);
    subclasses are declared ``@dataclass(frozen=True, eq=False)`` so that the equality and
    hash below stay in force.
    """

    DATA_PARAM: ClassVar[str | None] = "components"

    @classmethod
    def data_digest_of(cls, path: str) -> str:
        """The sha256 (hex) of the data file at ``path``; raises ``ComponentsError`` when it
        cannot be read or is not valid data."""
        raise NotImplementedError

    def data_identity(self) -> object:
        """What the data are, for equality: None (built-in), ``"sha256:<hex>"`` of the data,
        or the value itself when it names nothing readable (validation reports it)."""
        assert self.DATA_PARAM is not None
        value = getattr(self, self.DATA_PARAM)
        if not isinstance(value, str) or gamedata.is_ref(value):
            return value
        try:
            return gamedata.make_ref(self.data_digest_of(value))
        except ComponentsError:
            return value

    def _identity(self) -> tuple[Any, ...]:
        # Computed once: the fields are frozen, and a file read again later (edited meanwhile)
        # must not change the hash of params already used as a dictionary key.
        cached: tuple[Any, ...] | None = self.__dict__.get("_identity_cache")
        if cached is None:
            data_param = self.DATA_PARAM
            cached = tuple(
                self.data_identity() if f.name == data_param else getattr(self, f.name)
                for f in dataclasses.fields(self)
            )
            object.__setattr__(self, "_identity_cache", cached)
        return cached

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, DataFileParams)
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())


@dataclass(frozen=True)
class GameSpec:
    """What a game is, declared once as data; algorithms and RL spaces derive from it."""

    id: str
    name: str
    min_players: int
    max_players: int
    params_type: type[Params]
    state_type: type[GameState]
    simultaneous: bool
    hidden_information: bool
    chance: bool
    real_time: bool
    description: str = ""
    #: How long a game lasts, in words ("6-8 turns"), for a lobby.
    length: str = ""
    #: The game's printed components as JSON-ready data, from an optional data file path
    #: (``arabesque cards``); None for a game without an id table.
    catalog: Callable[[str | None], dict[str, Any]] | None = None
    #: The game's observer class (views, tensors, text); one instance per params.
    observer_type: type[Observer[Any]] | None = None
    #: Record compatibility of this game's rules (docs/records.md): every record of the game
    #: stores it, and this engine replays only the game's records of the same number. Raise
    #: it with any change that can make an old record of this game replay differently (its
    #: rules, action texts, setup or seeded chance); the other games' records stay valid.
    record_compat: int = 1

    def make_params(self, **options: Any) -> Params:
        """Build and validate params; unknown or bad options raise ``ParamsError``."""
        params = self.params_type.from_json(options)
        self.validate_params(params)
        return params

    def validate_params(self, params: Params) -> None:
        if not isinstance(params, self.params_type):
            raise ParamsError(
                f"{self.id} expects {self.params_type.__name__}, got {type(params).__name__}"
            )
        players = params.num_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise ParamsError(f"num_players must be an integer, got {quote(players)}")
        if not self.min_players <= players <= self.max_players:
            raise ParamsError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"not {quote(params.num_players)}"
            )
        self.state_type.validate_params(params)

    def num_actions(self, params: Params) -> int:
        """Size of the fixed integer action space for these params."""
        return self.state_type.num_distinct_actions(params)

    def max_game_length(self, params: Params) -> int:
        """An upper bound on the number of applied actions in one game."""
        return self.state_type.max_game_length(params)

    def observer(self, params: Params) -> Observer[Any]:
        """The game's observer for these params (built once, then shared)."""
        key = (self.id, params)
        found = _OBSERVERS.get(key)
        if found is None:
            if self.observer_type is None:
                raise NotImplementedError(f"{self.id} has no observer")
            found = _OBSERVERS[key] = self.observer_type(params)
        return found

    def observation_shape(self, params: Params) -> tuple[int, ...]:
        """The fixed shape of ``state.observation(seat)`` for these params."""
        return self.observer(params).shape

    def new_game(
        self, params: Params, seed: int | None = None, arrangement: Mapping[str, Any] | None = None
    ) -> GameState:
        """A fresh game. ``seed`` drives every shuffle and chance event; ``arrangement`` is an
        explicit initial layout (deck orders, starting cards) written by hand or taken from a
        record, in which case the seed drives only the chance events after setup."""
        self.validate_params(params)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        state = self.state_type.initial(params, seed, arrangement)
        if arrangement is not None:
            # Whether the deal is the seed's is a fact about the result, not about whether an
            # arrangement was passed: every replay passes its record's full arrangement, and
            # a replayed seeded game must still record "seed". Setup costs well under a
            # millisecond, and only games built from an arrangement pay it twice.
            dealt = self.state_type.initial(params, seed, None).arrangement()
            state.hand_arranged = state.arrangement() != dealt
        return state


#: Observers per (game id, params); params are frozen and hashable.
_OBSERVERS: dict[tuple[str, Params], Observer[Any]] = {}


def _check_seat(seat: object, num_players: int, spectator: bool = False) -> None:
    """Raise ``InvalidActionError`` unless ``seat`` is a seat number (or None when a
    spectator is allowed)."""
    if seat is None and spectator:
        return
    if type(seat) is int and 0 <= seat < num_players:
        return
    who = "a seat number or None (a spectator)" if spectator else "a seat number"
    raise InvalidActionError(f"no seat {seat!r}; expected {who} in 0..{num_players - 1}")


def _plain_int(value: object) -> int | None:
    """``value`` as a plain ``int`` when it is an integer (an ``int`` subclass too), else None
    (a bool is no integer here: ``True`` is not action 1). ``int.__index__`` reads the value
    a subclass holds without calling any method the subclass overrides, and ``type()`` (unlike
    ``isinstance``) cannot be fooled by a ``__class__`` property."""
    kind = type(value)
    if kind is int:
        return value  # type: ignore[return-value]  # mypy does not narrow on type(x) is int
    if kind is bool or not issubclass(kind, int):
        return None
    try:
        return int.__index__(value)  # type: ignore[arg-type]
    except TypeError:  # a metaclass lying about its bases: not an int after all
        return None


class GameState(ABC):
    """A game in progress. Subclasses hold the data; the forward model lives in their rules.

    Players are seats ``0 .. num_players-1``. Actions are integers in a fixed space
    ``range(num_actions)``; ``action_to_str``/``parse_action`` give their readable form.
    """

    spec: ClassVar[GameSpec]

    params: Params
    seed: int
    rng: random.Random
    history: list[tuple[int, int]]
    events: list[Event]
    #: Rises by one with every applied action (records and copies count by it). What a
    #: viewer is shown is its own version, ``version_for(viewer)``.
    version: int = 0
    #: The applied actions seen by their own seat only (moves in a secret phase, before its
    #: reveal): per seat how many it made, then how many in all. A viewer's version is
    #: ``version`` less those it did not make (``version_for``). None while there were none.
    _hidden: list[int] | None = None
    #: Whether the rules record events; search and simulation copies switch it off.
    logging: bool = True
    #: Whether applied actions are kept in ``history`` (records need it; search does not).
    recording: bool = True
    #: Set on determinized copies: their seed, setup and history are not the real game's,
    #: so they make no record.
    determinized: bool = False
    #: Whether the initial arrangement is not the one the seed deals (a hand-written
    #: scenario); set by ``GameSpec.new_game`` and kept by every copy. Records store it as
    #: ``setup.dealt`` ("hand" or "seed") so ``arabesque verify`` knows whether to expect the
    #: seed's deal.
    hand_arranged: bool = False

    # -- construction -------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def initial(cls, params: Params, seed: int, arrangement: Mapping[str, Any] | None) -> Self:
        """The state before anyone acts."""

    @classmethod
    def validate_params(cls, params: Params) -> None:
        """Game-specific checks beyond the player count; raise ``ParamsError``."""
        return None

    @classmethod
    @abstractmethod
    def num_distinct_actions(cls, params: Params) -> int: ...

    @classmethod
    @abstractmethod
    def max_game_length(cls, params: Params) -> int: ...

    @abstractmethod
    def arrangement(self) -> dict[str, Any]:
        """The explicit initial arrangement this game started from (JSON-ready)."""

    def data_digest(self) -> str | None:
        """A digest of the game data this game was built from (e.g. a components file), so a
        record replayed against different data is refused instead of silently diverging."""
        return None

    # -- the state machine --------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.params.num_players

    @property
    def num_actions(self) -> int:
        return type(self).num_distinct_actions(self.params)

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that may act now: one, several in a simultaneous phase, none at the end."""

    def to_act_seen_by(self, seat: int | None) -> frozenset[int]:
        """``to_act`` as ``seat`` may know it. In a secret simultaneous phase, whether another
        seat has already committed is hidden (an early answer in a race would give it away),
        so a game lists every seat of the phase that ``seat`` cannot see finished."""
        return self.to_act()

    def secret_phase(self) -> Hashable | None:
        """What identifies the secret phase the game is in, None outside one: a simultaneous
        secret choice (setting dice, the race, choosing a tile to show), or what the others
        see of the table while one seat works through a choice made of several steps that
        only it sees (Djinn). An action that leaves the game in the phase it was taken in is
        seen by its own seat only (the others are still shown that seat as to act,
        ``to_act_seen_by``); the one that ends the phase, the reveal, by everyone. This is
        what versions count (``version_for``); it must be cheap, as ``apply`` asks it before
        and after every action."""
        return None

    def version_for(self, seat: int | None) -> int:
        """The version ``seat`` (None: a spectator) sees: how many applied actions it could
        see. It moves only when its view or its log does, so it betrays no secret move; its
        actions are fresh at it (``apply(..., version=)``)."""
        _check_seat(seat, self.num_players, spectator=True)
        hidden = self._hidden
        if hidden is None:
            return self.version
        return self.version - hidden[-1] + (0 if seat is None else hidden[seat])

    @abstractmethod
    def legal_actions(self, player: int) -> Sequence[int]:
        """Legal actions of ``player`` now, ascending; empty when the player may not act."""

    @abstractmethod
    def _apply(self, player: int, action: int) -> None:
        """Carry out a checked, legal action. Must not raise."""

    def apply(self, player: int, action: int, version: int | None = None) -> None:
        """Apply ``player``'s ``action``; a bad one raises and leaves the state unchanged.

        ``version``, when given, is the version the player decided on (its own,
        ``version_for(player)``); when the player has seen the game move on since, the action
        is refused with ``StaleStateError``."""
        # Every argument becomes a plain int before any check, here and once: an int
        # subclass can override ==, <, hash and __index__ to say yes to every comparison,
        # and the checks below (and the rules, and the history) would believe it.
        if version is not None:
            asked = _plain_int(version)
            if asked is None:
                raise InvalidActionError(f"a state version is an integer, got {quote(version)}")
            seen = self.version
            hidden = self._hidden
            if hidden is not None:
                seen -= hidden[-1]
                seat = player if type(player) is int else _plain_int(player)
                if seat is not None and 0 <= seat < self.num_players:
                    seen += hidden[seat]
            if asked != seen:
                raise StaleStateError(
                    f"the action was chosen at state version {asked}, but the game is at "
                    f"version {seen}; look at the game again"
                )
        if type(action) is not int:  # the common case costs one test
            plain = _plain_int(action)
            if plain is None:
                raise InvalidActionError(
                    f"an action is an integer in 0..{self.num_actions - 1}, got {quote(action)}"
                )
            action = plain
        num_actions = self.num_actions
        if not 0 <= action < num_actions:
            raise InvalidActionError(
                f"action {action} is outside this game's action space 0..{num_actions - 1}"
            )
        if self.is_over:
            raise GameOverError(f"the game is over; {self.action_to_str(action)!r} is refused")
        if type(player) is not int:
            seat = _plain_int(player)
            if seat is None:
                raise InvalidActionError(f"a player is a seat number, got {quote(player)}")
            player = seat
        acting = self.to_act()
        if player not in acting:
            raise NotYourTurnError(
                f"player {player} may not act now; waiting for {sorted(acting)} "
                f"({self.phase_description()})"
            )
        legal = self.legal_actions(player)
        if action not in legal:
            quoted = ", ".join(self.action_to_str(a) for a in legal[:_QUOTED_LEGAL])
            more = f" and {len(legal) - _QUOTED_LEGAL} more" if len(legal) > _QUOTED_LEGAL else ""
            raise IllegalActionError(
                f"{self.action_to_str(action)!r} is not legal for player {player} now "
                f"({self.phase_description()}); legal: {quoted}{more}"
            )
        secret = self.secret_phase()
        self._apply(player, action)
        if self.recording:
            self.history.append((player, action))
        self.version += 1
        if secret is not None and secret == self.secret_phase():
            # A move within a secret phase: only its own seat saw it.
            hidden = self._hidden
            if hidden is None:
                hidden = self._hidden = [0] * (self.num_players + 1)
            hidden[player] += 1
            hidden[-1] += 1

    def _advance(self, player: int, action: int) -> None:
        """Carry out ``action``, taken from ``legal_actions(player)`` of a seat in
        ``to_act()``, without ``apply``'s checks, version or history: only for copies that a
        search made and owns (agents/ismcts.py), which serve no client, so no version is
        ever asked of them. The rules run exactly as in ``apply``."""
        self._apply(player, action)

    def legal_mask(self, player: int) -> list[bool]:
        """The legal actions of ``player`` as a mask over the whole action space (for RL)."""
        mask = [False] * self.num_actions
        for action in self.legal_actions(player):
            mask[action] = True
        return mask

    @abstractmethod
    def phase_description(self) -> str:
        """A short human description of what the game waits for now."""

    # -- decisions ----------------------------------------------------------------------

    def decision(self, seat: int) -> Decision | None:
        """What ``seat`` has to decide now, or None when it has nothing to decide. Its
        options are exactly ``legal_actions(seat)``, in the same order."""
        _check_seat(seat, self.num_players)
        if seat not in self.to_act():
            return None
        return self._decision(seat)

    @abstractmethod
    def _decision(self, seat: int) -> Decision:
        """The decision of ``seat``, which is among ``to_act()``."""

    def reaction(self, seat: int) -> Reaction | None:
        """The real-time reaction of ``seat``'s decision (``decision(seat).reaction``), None
        when it has none or nothing to decide. Search bots ask it at every step of a
        real-time game, so a game with reactions answers it without building the decision."""
        if seat not in self.to_act():
            return None
        return self._decision(seat).reaction

    def default_action(self, seat: int) -> int | None:
        """The action a seat whose time runs out gets (None when it has nothing to decide)."""
        decision = self.decision(seat)
        return None if decision is None else decision.default

    # -- actions as text ----------------------------------------------------------------

    @abstractmethod
    def action_to_str(self, action: int) -> str:
        """The canonical text of an action (what records store)."""

    def action_texts(self, actions: Sequence[int]) -> list[str]:
        """``action_to_str`` of several legal actions at once (a decision's options); a game
        with long option lists may answer from a table."""
        return [self.action_to_str(a) for a in actions]

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """Inverse of ``action_to_str``; raises ``InvalidActionError`` on unknown text."""

    # -- information --------------------------------------------------------------------
    #
    # The game's observer is the one authority on hidden information: every view, tensor,
    # text, log and decision a seat receives comes through these methods.

    @property
    def observer(self) -> Observer[Any]:
        return self.spec.observer(self.params)

    def view(self, seat: int | None, include_log: bool = True) -> dict[str, Any]:
        """A JSON-ready dict of exactly what ``seat`` may know (``None`` = a spectator): the
        game's view, the seat's current decision, and (unless ``include_log`` is false) its
        filtered event log. A view without the log costs the same late in a game as early;
        a client follows the log with ``log_since``."""
        _check_seat(seat, self.num_players, spectator=True)
        data = self.observer.view(self, seat)
        data["game"] = self.spec.id
        data["seat"] = seat
        hidden = self._hidden
        data["version"] = (
            self.version
            if hidden is None
            else self.version - hidden[-1] + (0 if seat is None else hidden[seat])
        )
        acting = self.to_act()
        data["to_act"] = sorted(self.to_act_seen_by(seat))
        data["is_over"] = self.is_over
        decision = None if seat is None or seat not in acting else self._decision(seat)
        data["decision"] = (
            None if decision is None else decision.to_json(self.action_texts(decision.listed))
        )
        if include_log:
            data["log"] = [e.to_json() for e in self.events if e.visible_for(seat)]
        return data

    def observation(self, seat: int | None) -> FloatArray:
        """``seat``'s observation as a float32 vector of ``spec.observation_shape(params)``."""
        _check_seat(seat, self.num_players, spectator=True)
        return self.observer.tensor(self, seat)

    def render_text(self, seat: int | None) -> str:
        """A short plain-text rendering of what ``seat`` may know."""
        _check_seat(seat, self.num_players, spectator=True)
        return self.observer.text(self, seat)

    def log_since(self, seat: int | None, start: int = 0) -> tuple[list[dict[str, Any]], int]:
        """The events ``seat`` may see from raw event index ``start`` on, and the index to
        ask from next time (a client's incremental log)."""
        _check_seat(seat, self.num_players, spectator=True)
        if type(start) is not int or start < 0:
            raise InvalidActionError(f"a log index is a non-negative integer, got {start!r}")
        events = self.events
        end = len(events)
        return [events[i].to_json() for i in range(start, end) if events[i].visible_for(seat)], end

    def log_for(self, seat: int | None, start: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """(index, event) pairs visible to ``seat`` from raw event index ``start`` on."""
        return [
            (i, self.events[i].to_json())
            for i in range(start, len(self.events))
            if self.events[i].visible_for(seat)
        ]

    def log(self, kind: str, visible_to: frozenset[int] | None = None, **data: Any) -> None:
        if self.logging:
            self.events.append(Event(kind, data, visible_to))

    def public_data(self) -> Any:
        """The game's public static data (its components, board geometry...), as bots may
        read it; never anything hidden."""
        return None

    # -- copies -------------------------------------------------------------------------

    @abstractmethod
    def _copy(self, full: bool) -> Self:
        """A copy of the game's data. ``full``: also the RNG state, history and events (an
        exact copy); otherwise the copy's ``history`` and ``events`` are empty lists and its
        ``rng`` is left for the caller to set."""

    def _copy_run(self, new: GameState, full: bool) -> None:
        """For a game's ``_copy``: give the fresh copy ``new`` what ``full`` asks of the run
        around the game's data: with ``full`` the RNG state, history, events and the
        logging/recording/determinized flags; otherwise empty ``history`` and ``events``."""
        if full:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
            new.history = list(self.history)
            new.events = list(self.events)  # events are immutable
            new.logging = self.logging
            new.recording = self.recording
            new.determinized = self.determinized
        else:
            new.history = []
            new.events = []

    def clone(self) -> Self:
        """An independent exact copy (its own RNG in the same state)."""
        new = self._copy(True)
        # Set here rather than in each game's ``_copy``, which may list its fields one by one.
        new.hand_arranged = self.hand_arranged
        new._hidden = None if self._hidden is None else list(self._hidden)
        return new

    def search_copy(self) -> Self:
        """A cheap copy for search and simulation: the same position with no event log, no
        history, logging off, and its own RNG seeded from the copy's seed and version (no
        copy of the RNG's state, which is most of the cost of ``clone``). Its chance events
        differ from the real game's."""
        new = self._copy(False)
        new.logging = new.recording = False
        new.hand_arranged = self.hand_arranged
        new._hidden = None if self._hidden is None else list(self._hidden)
        new.rng = random.Random(hash((self.seed, self.version)))
        return new

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A search copy holding nothing ``player`` cannot know: what the seat cannot see is
        re-sampled consistently with what it has seen, other seats' committed but unrevealed
        simultaneous choices are taken back (those seats are to act again), and the seed,
        setup, history and log are not the real game's. Randomness comes from ``rng``."""
        _check_seat(player, self.num_players)
        new = self._copy(False)
        new.logging = new.recording = False
        new.determinized = True
        # Kept for consistency only: a determinized copy forgets the setup and makes no record.
        new.hand_arranged = self.hand_arranged
        # The seat's view, version included, is the same in the copy.
        new._hidden = None if self._hidden is None else list(self._hidden)
        new.seed = rng.getrandbits(63)
        new.rng = random.Random(new.seed)
        new._resample(player, rng)
        return new

    @abstractmethod
    def _resample(self, player: int, rng: random.Random) -> None:
        """On a fresh non-exact copy: re-sample what ``player`` cannot see, un-commit other
        seats' unrevealed simultaneous choices, and forget the real setup."""

    @abstractmethod
    def fingerprint(self) -> Any:
        """A hashable value identifying the full state (for tests of copies and replays)."""

    # -- the end ------------------------------------------------------------------------

    @abstractmethod
    def scores(self) -> list[Score]:
        """Per-player scores with breakdown (final once ``is_over``)."""

    def ranking(self) -> list[int]:
        """Rank per player (1 = winner), ties per the rulebook sharing a rank."""
        return rank_scores(self.scores())

    def returns(self) -> list[float]:
        """Per-player outcome in [-1, 1] for learning: winners share +1, others by rank."""
        ranks = self.ranking()
        n = self.num_players
        if n == 1:
            return [1.0 if ranks[0] == 1 else 0.0]
        return [1.0 - 2.0 * (r - 1) / (n - 1) for r in ranks]

    # -- records ------------------------------------------------------------------------

    def record(self, **metadata: Any) -> Any:
        from arabesque.core.records import GameRecord

        if self.determinized:
            raise RecordError("a determinized copy is not the real game and makes no record")

        return GameRecord.from_state(self, metadata=metadata)


# Games register a factory; keeping the type alias here avoids an import cycle.
SpecFactory = Callable[[], GameSpec]
