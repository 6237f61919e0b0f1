"""Toy Catch (game id ``toy-catch``): a tiny game that exercises the core's nested and
optional decisions (``DecisionStack``, ``Frame``, ``Decision.optional``/``trail``) the way
Djinn will. The rules are made up for tests:

- Components: 12 spirits; spirit ``s`` has colour ``s % 3`` and costs ``1 + (s // 3) % 3``.
  The seed shuffles them: 4 face up in the pool, the rest in a face-down bag whose order is
  the hidden information. Each player gets 5 coin cards valued 1..3 (public).
- Seats take turns (``turn % n``). A turn is a catch loop. PICK: catch a spirit the player can
  afford and place, or DONE (ends the turn). Picking pushes PAY: one coin card at a time until
  the paid total covers the cost (no change is given); then PAY is replaced by PLACE: the
  player's circle (holds one spirit, for good) or the bottle of the spirit's colour (holds 3).
  Placing refills the pool from the top of the bag and pops back to PICK.
- CLAIM a colour: a side action at every decision of one's own turn, for a player with 2
  spirits bottled in a colour whose trophy nobody holds yet. The decision stays where it was.
- The game ends when a turn ends after ``rounds`` rounds, or with the pool and bag empty.
- Scores: each bottled spirit its cost, a circled spirit 1, each trophy 2.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Self

from arabesque.core.decision import Decision, DecisionStack, Frame
from arabesque.core.errors import InvalidActionError, ParamsError
from arabesque.core.game import GameSpec, GameState, Params
from arabesque.core.observer import FloatArray, ObservationLayout, Observer, decision_lines
from arabesque.core.registry import register
from arabesque.core.scoring import Score

SPIRITS, POOL, COINS = 12, 4, 5
COLOURS = ("red", "green", "blue")
BOTTLE = 3  # spirits one bottle holds
TROPHY = 2  # bottled spirits of one colour that earn its trophy
NO_ONE = -1  # an empty circle, an unclaimed trophy

# The fixed action space: done, pick spirit s, pay coin slot i, place, claim colour c.
DONE = 0
PICK = 1
PAY = PICK + SPIRITS
CIRCLE = PAY + COINS
BOTTLED = CIRCLE + 1
CLAIM = BOTTLED + 1
NUM_ACTIONS = CLAIM + len(COLOURS)

_TEXTS = (
    "done",
    *(f"pick {s}" for s in range(SPIRITS)),
    *(f"pay {i}" for i in range(COINS)),
    "place circle",
    "place bottle",
    *(f"claim {c}" for c in COLOURS),
)
_PARSE = {text: action for action, text in enumerate(_TEXTS)}


def colour(spirit: int) -> int:
    return spirit % len(COLOURS)


def cost(spirit: int) -> int:
    return 1 + (spirit // 3) % 3


def spirit_json(spirit: int) -> dict[str, Any]:
    return {"id": spirit, "colour": COLOURS[colour(spirit)], "cost": cost(spirit)}


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


class Kind(IntEnum):
    PICK = 0  # catch a spirit, or done
    PAY = 1  # pay for the caught spirit with one coin card
    PLACE = 2  # circle or bottle


@dataclass(frozen=True)
class ToyCatchParams(Params):
    num_players: int = 2
    rounds: int = 3


#: The state's game data, all immutable (tuples, the stack), so copies share it.
_GAME_FIELDS = (
    *("pool", "bag", "coins", "circle", "bottles", "trophies"),
    *("turn", "stack", "over", "options", "actors"),
)


class ToyCatchState(GameState):
    """The whole game. Every game field is immutable (tuples, the stack), so copies share
    them and only the RNG, history and log need copying."""

    params: ToyCatchParams
    start: dict[str, Any]  # the initial arrangement (records); {} on determinized copies
    pool: tuple[int, ...]  # face-up spirits
    bag: tuple[int, ...]  # face-down spirits, top first (hidden)
    coins: tuple[tuple[int, ...], ...]  # per player, per slot: a coin's value, 0 once spent
    circle: tuple[int, ...]  # per player: the circled spirit or NO_ONE
    bottles: tuple[tuple[int, ...], ...]  # per player: bottled spirits, in catch order
    trophies: tuple[int, ...]  # per colour: the holder or NO_ONE
    turn: int  # turns finished; the seat to play is turn % n
    stack: DecisionStack  # the turn's open decisions, innermost last
    over: bool
    options: tuple[int, ...]  # legal actions of the acting seat (computed after each step)
    actors: frozenset[int]

    # -- construction -------------------------------------------------------------------

    @classmethod
    def validate_params(cls, params: Params) -> None:
        rounds = getattr(params, "rounds", None)
        if type(rounds) is not int or not 1 <= rounds <= 20:
            raise ParamsError(f"rounds must be an integer in 1..20, got {rounds!r}")

    @classmethod
    def num_distinct_actions(cls, params: Params) -> int:
        return NUM_ACTIONS

    @classmethod
    def max_game_length(cls, params: Params) -> int:
        assert isinstance(params, ToyCatchParams)
        # One DONE per turn; per spirit a pick, at most 3 payments (coins are worth at least
        # 1, costs at most 3) and a place; one claim per colour.
        return params.rounds * params.num_players + SPIRITS * 5 + len(COLOURS)

    @classmethod
    def initial(cls, params: Params, seed: int, arrangement: Mapping[str, Any] | None) -> Self:
        """Setup: the seed deals the pool, the bag order and the coins, unless an explicit
        arrangement (a record's, or a test's hand-made one) gives them."""
        assert isinstance(params, ToyCatchParams)
        n = params.num_players
        if arrangement is None:
            deal = random.Random(seed)
            spirits = list(range(SPIRITS))
            deal.shuffle(spirits)
            pool, bag = spirits[:POOL], spirits[POOL:]
            coins = [[deal.randint(1, 3) for _ in range(COINS)] for _ in range(n)]
        else:
            pool, bag, coins = _read_arrangement(arrangement, n)
        s = cls.__new__(cls)
        s.params, s.seed = params, seed
        s.rng = random.Random(seed + 1)  # no chance after setup; kept per the core contract
        s.history, s.events = [], []
        s.start = {"pool": list(pool), "bag": list(bag), "coins": [list(c) for c in coins]}
        s.pool, s.bag = tuple(pool), tuple(bag)
        s.coins = tuple(tuple(c) + (0,) * (COINS - len(c)) for c in coins)
        s.circle = (NO_ONE,) * n
        s.bottles = ((),) * n
        s.trophies = (NO_ONE,) * len(COLOURS)
        s.turn, s.over = 0, not (pool or bag)
        s.stack = DecisionStack() if s.over else DecisionStack().push(Frame(Kind.PICK, 0))
        s.log("setup", pool=list(pool), bag=len(bag), coins=[list(c) for c in s.coins])
        s._refresh()
        return s

    def arrangement(self) -> dict[str, Any]:
        start = self.start  # copied: callers may edit what they get
        return {k: [list(v) if isinstance(v, list) else v for v in vs] for k, vs in start.items()}

    # -- the state machine --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.over

    def to_act(self) -> frozenset[int]:
        return self.actors

    def legal_actions(self, player: int) -> Sequence[int]:
        # Only a plain int is a seat (True == 1 but apply refuses it; a list is unhashable).
        return self.options if type(player) is int and player in self.actors else ()

    def places(self, seat: int, spirit: int) -> tuple[int, ...]:
        """PLACE: the circle while empty, the spirit's bottle while it has room."""
        room = sum(colour(b) == colour(spirit) for b in self.bottles[seat]) < BOTTLE
        return (CIRCLE,) * (self.circle[seat] == NO_ONE) + (BOTTLED,) * room

    def claims(self, seat: int) -> tuple[int, ...]:
        """CLAIM: trophies nobody holds, for colours the seat has bottled 2 of."""
        held = [colour(b) for b in self.bottles[seat]]
        return tuple(
            CLAIM + c
            for c in range(len(COLOURS))
            if self.trophies[c] == NO_ONE and held.count(c) >= TROPHY
        )

    def _refresh(self) -> None:
        """Compute the acting seat's options afresh from the top frame (so a parent decision
        returned to never offers what can no longer be completed), side actions last."""
        top = self.stack.top
        if self.over or top is None:
            self.options, self.actors = (), frozenset()
            return
        seat = top.seat
        if top.kind is Kind.PICK:
            # Only spirits that can be paid for and placed: PAY and PLACE then never dead-end.
            purse = sum(self.coins[seat])
            picks = (
                PICK + s for s in sorted(self.pool) if cost(s) <= purse and self.places(seat, s)
            )
            main: tuple[int, ...] = (DONE, *picks)
        elif top.kind is Kind.PAY:
            main = tuple(PAY + i for i, v in enumerate(self.coins[seat]) if v)
        else:
            main = self.places(seat, top.context[0])
        self.options, self.actors = main + self.claims(seat), frozenset((seat,))

    def _apply(self, player: int, action: int) -> None:
        top = self.stack.top
        assert top is not None
        if action >= CLAIM:  # a side action: the stack is left as it is
            self.trophies = _set(self.trophies, action - CLAIM, player)
            self.log("claim", seat=player, colour=COLOURS[action - CLAIM])
        elif action == DONE:
            self.log("done", seat=player)
            self.stack = self.stack.pop()
            self.turn += 1
            n = self.num_players
            if self.turn >= self.params.rounds * n or not (self.pool or self.bag):
                self.over = True
                self.log("end", scores=[sc.total for sc in self.scores()])
            else:
                self.stack = self.stack.push(Frame(Kind.PICK, self.turn % n))
        elif top.kind is Kind.PICK:  # open the catch
            spirit = action - PICK
            self.pool = tuple(s for s in self.pool if s != spirit)
            self.log("pick", seat=player, spirit=spirit)
            self.stack = self.stack.push(Frame(Kind.PAY, player, (spirit, 0)))
        elif top.kind is Kind.PAY:  # next payment, or on to PLACE once covered
            spirit, paid = top.context
            slot = action - PAY
            paid += self.coins[player][slot]
            self.coins = _set(self.coins, player, _set(self.coins[player], slot, 0))
            self.log("pay", seat=player, slot=slot, paid=paid)
            kind, context = (
                (Kind.PLACE, (spirit,)) if paid >= cost(spirit) else (Kind.PAY, (spirit, paid))
            )
            self.stack = self.stack.replace(Frame(kind, player, context))
        else:  # PLACE, refill the pool, back to PICK
            spirit = top.context[0]
            if action == CIRCLE:
                self.circle = _set(self.circle, player, spirit)
            else:
                self.bottles = _set(self.bottles, player, (*self.bottles[player], spirit))
            self.log("place", seat=player, spirit=spirit, to=_TEXTS[action][6:])
            if self.bag:
                self.pool, self.bag = (*self.pool, self.bag[0]), self.bag[1:]
                self.log("refill", spirit=self.pool[-1])
            self.stack = self.stack.pop()
        self._refresh()

    def phase_description(self) -> str:
        top = self.stack.top
        return "game over" if top is None else f"player {top.seat}: {self.prompt(top)}"

    # -- decisions ----------------------------------------------------------------------

    def prompt(self, frame: Frame) -> str:
        if frame.kind is Kind.PICK:
            return "Pick a spirit to catch, or done"
        spirit = frame.context[0]
        what = f"the {COLOURS[colour(spirit)]} spirit {spirit}"
        if frame.kind is Kind.PAY:
            return f"Pay for {what} (cost {cost(spirit)}, {frame.context[1]} paid)"
        return f"Put {what} in your circle or its bottle"

    def label(self, seat: int, action: int) -> str:
        if action == DONE:
            return "done: end your turn"
        if action < PAY:
            spirit = action - PICK
            return f"catch the {COLOURS[colour(spirit)]} spirit {spirit} (cost {cost(spirit)})"
        if action < CIRCLE:
            return f"pay coin {action - PAY} (value {self.coins[seat][action - PAY]})"
        if action == CIRCLE:
            return "into your circle"
        if action == BOTTLED:
            return "into its bottle"
        return f"claim the {COLOURS[action - CLAIM]} trophy"

    def _decision(self, seat: int) -> Decision:
        top = self.stack.top
        assert top is not None
        options = self.options
        main = [a for a in options if a < CLAIM]
        context = None if top.kind is Kind.PICK else spirit_json(top.context[0])
        return Decision(
            seat=seat,
            kind=top.kind,
            options=options,
            prompt=self.prompt(top),
            labels=tuple(self.label(seat, a) for a in options),
            # Time out: end the turn at PICK; inside a catch, the first step that finishes it.
            default=DONE if top.kind is Kind.PICK else main[0],
            context=context,
            optional=tuple(a for a in options if a >= CLAIM),
            trail=tuple(self.prompt(f) for f in self.stack.frames[:-1]),
        )

    # -- actions as text ----------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        return _TEXTS[action]

    def parse_action(self, text: str) -> int:
        if not isinstance(text, str) or text.strip() not in _PARSE:
            raise InvalidActionError(f"no action {text!r}; e.g. 'done', 'pick 3', 'pay 0'")
        return _PARSE[text.strip()]

    # -- copies -------------------------------------------------------------------------

    def _copy(self, full: bool) -> Self:
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)  # immutable game fields are shared
        if full:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
        new.history = list(self.history) if full else []
        new.events = list(self.events) if full else []
        return new

    def _resample(self, player: int, rng: random.Random) -> None:
        """Hidden information is only the bag's order (nobody has seen it): shuffle it, from
        sorted order so that the copy does not depend on the real order."""
        self.start = {}
        bag = sorted(self.bag)
        rng.shuffle(bag)
        self.bag = tuple(bag)

    def fingerprint(self) -> Any:
        game = tuple(getattr(self, name) for name in _GAME_FIELDS)
        past = (tuple(self.history), tuple(self.events))
        return (self.params, self.seed, self.version, self.rng.getstate(), past, game)

    def scores(self) -> list[Score]:
        """Each bottled spirit its cost, a circled spirit 1, each trophy 2."""
        bottled = [sum(cost(s) for s in b) for b in self.bottles]
        circled = [int(c != NO_ONE) for c in self.circle]
        won = [2 * self.trophies.count(p) for p in range(self.num_players)]
        return [
            Score.of({"bottled": b, "circle": c, "trophies": t})
            for b, c, t in zip(bottled, circled, won, strict=True)
        ]


def _read_arrangement(data: Mapping[str, Any], n: int) -> tuple[Any, Any, Any]:
    """A hand-made setup: ``pool`` and ``bag`` (top first) of distinct spirits (any subset),
    ``coins``: per player at most 5 values in 1..3."""
    pool, bag, coins = data.get("pool"), data.get("bag"), data.get("coins")
    spirits = [*pool, *bag] if isinstance(pool, list) and isinstance(bag, list) else [None]
    if len(set(spirits)) != len(spirits) or not all(_int_in(s, 0, SPIRITS - 1) for s in spirits):
        raise ParamsError("an arrangement needs 'pool' and 'bag': lists of distinct spirits 0..11")
    if (
        not isinstance(coins, list)
        or len(coins) != n
        or not all(
            isinstance(c, list) and len(c) <= COINS and all(_int_in(v, 1, 3) for v in c)
            for c in coins
        )
    ):
        raise ParamsError(f"an arrangement needs 'coins': {n} lists of at most 5 values 1..3")
    return pool, bag, coins


def _int_in(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


class ToyCatchObserver(Observer[ToyCatchState]):
    """Everything but the bag's order is public; seats are absolute (not seat-relative)."""

    def declare(self, layout: ObservationLayout) -> None:
        n = self.params.num_players
        layout.add("seat", n + 1, "one-hot of the observing seat; the last is a spectator")
        layout.add("current", n, "one-hot of the seat whose turn it is")
        layout.add("round", 1, "turns played / (rounds * players)")
        layout.add("decision", len(Kind), "one-hot of the open decision: pick, pay, place")
        layout.add("pool", SPIRITS, "per spirit: 1 if face up in the pool")
        layout.add("bag", 1, "spirits in the bag / 12")
        layout.add("catching", SPIRITS, "one-hot of the spirit being paid for or placed")
        layout.add("paid", 1, "paid so far for it / 3")
        layout.add("coins", n * COINS, "per seat, per coin slot: value / 3 (0 once spent)")
        layout.add("circle", n * SPIRITS, "per seat: one-hot of its circled spirit")
        layout.add("bottled", n * SPIRITS, "per seat, per spirit: 1 if bottled")
        layout.add("trophies", len(COLOURS) * (n + 1), "per colour: one-hot holder, last = none")

    def view(self, state: ToyCatchState, seat: int | None) -> dict[str, Any]:
        top = state.stack.top
        catching = None
        if top is not None and top.kind is not Kind.PICK:
            paid = top.context[1] if top.kind is Kind.PAY else None
            catching = {**spirit_json(top.context[0]), "paid": paid}
        return {
            "round": state.turn // state.num_players + 1,
            "current": None if top is None else top.seat,
            "pool": [spirit_json(s) for s in state.pool],
            "bag": len(state.bag),  # how many, never which
            "catching": catching,
            "players": [
                {
                    "coins": list(state.coins[p]),
                    "circle": None if state.circle[p] == NO_ONE else spirit_json(state.circle[p]),
                    "bottled": [spirit_json(s) for s in state.bottles[p]],
                }
                for p in range(state.num_players)
            ],
            "trophies": {
                c: None if o == NO_ONE else o for c, o in zip(COLOURS, state.trophies, strict=True)
            },
        }

    def fill(self, state: ToyCatchState, seat: int | None, out: FloatArray) -> None:
        n, lay, top = state.num_players, self.layout, state.stack.top
        out[lay["seat"].start + (n if seat is None else seat)] = 1.0
        out[lay["round"]] = state.turn / (state.params.rounds * n)
        if top is not None:
            out[lay["current"].start + top.seat] = 1.0
            out[lay["decision"].start + top.kind] = 1.0
            if top.kind is not Kind.PICK:
                out[lay["catching"].start + top.context[0]] = 1.0
            if top.kind is Kind.PAY:
                out[lay["paid"]] = top.context[1] / 3
        for s in state.pool:
            out[lay["pool"].start + s] = 1.0
        out[lay["bag"]] = len(state.bag) / SPIRITS
        for p in range(n):
            out[lay["coins"].start + p * COINS : lay["coins"].start + (p + 1) * COINS] = [
                v / 3 for v in state.coins[p]
            ]
            if state.circle[p] != NO_ONE:
                out[lay["circle"].start + p * SPIRITS + state.circle[p]] = 1.0
            for s in state.bottles[p]:
                out[lay["bottled"].start + p * SPIRITS + s] = 1.0
        for c, holder in enumerate(state.trophies):
            out[lay["trophies"].start + c * (n + 1) + (n if holder == NO_ONE else holder)] = 1.0

    def text(self, state: ToyCatchState, seat: int | None) -> str:
        view = self.view(state, seat)
        lines = [
            f"Round {view['round']}, player {view['current']} to play"
            if not state.over
            else "Game over",
            "Pool: " + ", ".join(f"{s['colour']} {s['id']} ({s['cost']})" for s in view["pool"]),
            f"Bag: {view['bag']} spirits",
        ]
        for p, info in enumerate(view["players"]):
            bottled = ", ".join(f"{s['colour']} {s['id']}" for s in info["bottled"]) or "-"
            lines.append(f"Player {p}: coins {info['coins']}, bottled {bottled}")
        return "\n".join([*lines, *decision_lines(state, seat)])


SPEC = register(
    GameSpec(
        id="toy-catch",
        name="Toy Catch",
        min_players=1,
        max_players=3,
        params_type=ToyCatchParams,
        state_type=ToyCatchState,
        simultaneous=False,
        hidden_information=True,
        chance=False,
        real_time=False,
        description="A test game: catch spirits, pay coin by coin, bottle or circle them.",
        observer_type=ToyCatchObserver,
    )
)
ToyCatchState.spec = SPEC
