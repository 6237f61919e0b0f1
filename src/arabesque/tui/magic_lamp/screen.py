"""The Magic Lamp terminal screen: your board, the table, the cave, the log, and your moves.

It draws only ``session.view()`` (the human's view) and applies through the engine. Every
decision is drawn by the shared decision panel from ``view["decision"]``; two keep an input of
their own because the game's look needs it. The secret die setting is a chest, then a face,
then Enter (or the buttons). The lamp race is a real key press: the one thing the screen
measures itself is the time from the moment the dice are on screen to the space bar, which
becomes ``rub <ms>``; it never lists the race's options, and it never says whether a face is
shared (seeing it in time is the race) unless the player asked for the assist (F2, off by
default), which points the shared faces out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Button, Footer, RichLog, Static

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS, METALS
from arabesque.tui.app import GameScreen, Mode, ScrollHint
from arabesque.tui.decision_panel import Flow, Presentation
from arabesque.tui.help import HelpSection
from arabesque.tui.magic_lamp.events import card_list, describe_event, plural
from arabesque.tui.magic_lamp.render import (
    board_panel,
    cave_panel,
    dice_cell,
    race_result_text,
    stone_ties,
    table_panel,
)
from arabesque.tui.session import Session

CHEST_KEYS = {name[0]: name for name in CHESTS}  # b, s, g
FACE_KEYS = {str(f): f for f in range(1, A.FACES + 1)}
#: The decisions with an input of their own (``decision["kind"]``).
SET_DIE, RACE = "set_die", "race"
#: Decisions that carry out the Genie's gift: the wish card is shown with them.
EFFECT_KINDS = ("effect_", "swap_", "retrieve")


class PickButton(Button, can_focus=False):
    """A die-setting button for the mouse; never takes focus, so keys stay with the screen."""


class MagicLampScreen(GameScreen):
    DEFAULT_CSS = """
    MagicLampScreen { layout: vertical; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #body { height: 1fr; }
    #board-wrap { width: 3fr; }
    /* A stable gutter: the panels keep their width when the scroll bar comes and goes, so the
       table does not flip between its two layouts. */
    #board-col { height: 1fr; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    #side { width: 2fr; min-width: 44; max-width: 72; }
    .panel { border: round $primary-darken-1; padding: 0 1; height: auto; }
    #mine { border: round $accent; }
    #picker { height: auto; }
    #picker > Horizontal { height: auto; }
    #picker Button { margin: 0 1 0 0; min-width: 5; }
    #log { height: 1fr; border: round $primary-darken-1; }
    /* Narrow terminals: your move and a short log on top, the board scrolls below (a line
       under it says what is out of sight and that PgDn brings it). */
    MagicLampScreen.-narrow #side {
        dock: top; width: 100%; height: auto; min-width: 0; max-width: 100%;
    }
    MagicLampScreen.-narrow #board-wrap { width: 100%; }
    MagicLampScreen.-narrow #log { height: 6; }
    MagicLampScreen.-narrow #choices { max-height: 8; }
    /* Short terminals: the keys say what the die buttons do (the mouse can wait). */
    MagicLampScreen.-short #picker { display: none; }
    MagicLampScreen.-short.-narrow #log { height: 5; }
    /* Short and narrow: your move never takes the whole screen; a shorter list (its border
       says when options are below) keeps the prompt and the list whole, the log its last two
       events (it gave way entirely to a long decision, and the race's outcome was out of
       sight), and the board a few lines and its hint. */
    MagicLampScreen.-short.-narrow #side { max-height: 85%; }
    MagicLampScreen.-short.-narrow #choices { max-height: 4; }
    MagicLampScreen.-short.-narrow #log { height: 4; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "toggle_assist", "Assist", key_display="F2"),
    ]

    MNEMONICS: ClassVar[Mapping[str, str]] = {
        "accept": "a",
        "reject": "r",
        "draw": "d",
        "stop": "s",
    }

    BOARD_SCROLL: ClassVar[str] = "board-col"

    #: Below this many columns the panels stack instead of standing side by side.
    NARROW = 120
    #: Below this many lines the die buttons and the setting's rule line are left out.
    SHORT = 32

    def __init__(
        self, session: Session, *, bot_delay: float, window_s: float, assist: bool = False
    ) -> None:
        super().__init__(session, bot_delay=bot_delay, window_s=window_s, assist=assist)
        # die setting
        self._pick_chest: str | None = None
        self._pick_face: int | None = None
        self._pick_error = ""
        # lamp race
        self._race_open = False
        self._race_t0: float | None = None
        self._race_timer: Timer | None = None
        self._race_ticker: Timer | None = None
        self._my_rub: str | None = None
        #: The race clock (tests may replace it); time.monotonic never jumps back.
        self.clock: Callable[[], float] = time.monotonic

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="board-wrap"):
                with VerticalScroll(id="board-col"):
                    yield Static(id="mine", classes="panel")
                    yield Static(id="table", classes="panel")
                    yield Static(id="cave", classes="panel")
                yield ScrollHint("board-col", id="board-hint")
            with Vertical(id="side"):
                yield self.decision_panel()
                with Vertical(id="picker"):
                    with Horizontal():
                        for name in CHESTS:
                            yield PickButton(
                                f"{name.capitalize()} ({name[0]})",
                                id=f"pick-{name}",
                                compact=True,
                            )
                        yield PickButton(
                            "Set ⏎", id="pick-confirm", variant="success", compact=True
                        )
                    with Horizontal():
                        for f in range(1, A.FACES + 1):
                            yield PickButton(f" {f} ", id=f"pick-{f}", compact=True)
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#mine").border_title = (
            "Your treasure" if self.session.human is not None else "Spectator"
        )
        bots = sorted({self.session.agent_label(p) for p in self.session.agents})
        self.query_one("#table").border_title = "The table" + (
            f" (bots: {', '.join(bots)})" if bots else ""
        )
        self.query_one("#cave").border_title = "The cave: chests, Lamp pile, discard"
        self.query_one("#log").border_title = "Log"
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < self.NARROW, "-narrow")
        short = event.size.height < self.SHORT
        if short != self.has_class("-short"):
            self.set_class(short, "-short")
            self.refresh_panels()  # the die buttons and the setting's rule line come and go

    # -- help and the assist -----------------------------------------------------------------

    def action_toggle_assist(self) -> None:
        self.assist = not self.assist
        state = "on: the lamp race shows which faces are shared" if self.assist else "off"
        self.write_log(Text(f"Assist {state}.", style="bold yellow"))
        self._drawn.clear()  # every panel that shows dice is drawn again
        self.refresh_panels()

    def help_sections(self) -> list[HelpSection]:
        comp = self.session.state.public_data()
        bonus = ", ".join(f"{m} {b}" for m, b in zip(METALS, comp.set_bonus, strict=True))
        stones = ", ".join(comp.stone_types)
        window = f"{self.window_s:g}"
        return [
            HelpSection(
                "Keys in Magic Lamp",
                (
                    ("b s g, 1-6", "set your die: a chest, then a face (Esc starts over)"),
                    ("Enter", "confirm the die (the buttons do the same with the mouse)"),
                    ("Space", "rub the lamp, in the race after the dice are revealed"),
                    ("n", f"do not rub (after {window} s the race closes by itself: no rub)"),
                    ("a / r", "keep the wish / refuse it and wish again"),
                    ("d / s", "draw another card / stop and keep what you drew"),
                    (
                        "F2",
                        "assist on/off (now " + ("on" if self.assist else "off") + "): "
                        "the race shows which faces are shared",
                    ),
                ),
            ),
            HelpSection(
                "Magic Lamp in short",
                lines=(
                    "Everyone sets a die in secret: the chest it goes on (bronze, silver or "
                    "gold) and the face, which is how many cards you may draw there.",
                    "The dice are shown together. When your face is the same as another "
                    "player's, race to rub the lamp (Space): the quickest on each shared face "
                    "summons the Genie. Rubbing when no one shares your face angers the "
                    "Genie: an opponent you name takes a card from you.",
                    "The Genie grants a wish: a Lamp card. Refuse it and the next one comes; "
                    "the third must be kept.",
                    "The chests are searched bronze, then silver, then gold. Only the lowest "
                    "die on a chest that no one else shares searches it, one card at a time. "
                    "If the scorpions on what you drew reach your die's face, you lose all "
                    "you drew there; stop whenever you like.",
                    f"Points: 1 per card, a bonus per complete set of bracelet, ring and "
                    f"necklace of one metal ({bonus}), and 5 for holding strictly the most of "
                    f"a stone ({stones}); a talisman counts as the stone it is placed on. A "
                    "tie for the most gives no bonus. Talismans and complete sets cannot be "
                    "taken from you.",
                    "Each chest hides a Sorcerer near its bottom. Whoever draws one closes "
                    "the cave: the game ends after that turn. The Sorcerer scores nothing.",
                ),
            ),
        ]

    def breakdown_label(self, key: str) -> str:
        """The final table's headings in the words of the treasure panel ("most ruby")."""
        if key.startswith("majority_"):
            return f"most {key.removeprefix('majority_')}"
        if key.startswith("set_"):
            return f"{key.removeprefix('set_')} set"
        return "magic ring" if key == "ring" else key.replace("_", " ")

    def game_over_notes(self) -> list[str]:
        name = self.session.name
        notes = []
        for stone, (count, seats) in stone_ties(self.session.view()).items():
            who = [name(p) for p in seats]
            tied = ", ".join(who[:-1]) + " and " + who[-1]
            notes.append(f"Most {stone}: tie — no bonus ({tied} have {count} each).")
        return notes

    # -- driving the game ------------------------------------------------------------------

    def _run(self) -> None:
        s = self.session
        while not s.is_over:
            view = s.state.view(s.human, include_log=False)
            phase = view["phase"]
            bots = s.bots_to_act()
            human_turn = s.human_to_act()
            if phase in ("setting", "race") and bots:
                # Simultaneous: bots commit at once; the engine keeps their answers hidden
                # until everyone is in. Only a bots-only table waits between phases.
                if not human_turn and not self._may_act_now():
                    return
                for seat in bots:
                    while seat in s.state.to_act() and self._phase() == phase:
                        s.bot_act(seat)
                self._acted()
                continue
            if human_turn:
                self._enter_choice(view["decision"])
                return
            if not bots or not self._may_act_now():
                return
            s.bot_act(bots[0])
            self._acted()

    def _phase(self) -> str:
        return str(self.session.state.view(self.session.human, include_log=False)["phase"])

    def _enter_choice(self, decision: Mapping[str, Any]) -> None:
        fresh = self.mode is not Mode.CHOICE  # not the same decision seen again
        super()._enter_choice(decision)
        if not fresh:
            return
        if decision["kind"] == SET_DIE:
            self._pick_chest = None
            self._pick_face = None
            self._pick_error = ""
        elif decision["kind"] == RACE:
            self._open_race()

    def _kind(self) -> str | None:
        return None if self.decision is None else str(self.decision["kind"])

    def game_over_reason(self) -> str:
        for event in reversed(self.session.view()["log"]):
            if event.get("kind") == "game_over":
                return str(event.get("reason", "")).capitalize()
        return ""

    def game_key(self, key: str) -> bool:
        kind = self._kind()
        if kind == SET_DIE:
            if key in CHEST_KEYS:
                self._pick(chest=CHEST_KEYS[key])
            elif key in FACE_KEYS:
                self._pick(face=FACE_KEYS[key])
            elif key == "enter":
                self._confirm_set()
            elif key in ("escape", "backspace"):
                self._pick_chest = self._pick_face = None
                self.refresh_decision()
            else:
                return False
            return True
        if kind == RACE:
            if key == "space":
                self._rub_now()
            elif key == "n":  # not Enter: a second Enter after setting a die is no answer
                if self._race_open and self._race_t0 is not None:
                    self._answer_race(A.NO_RUB, "You chose not to rub the lamp.")
            else:
                return False
            return True
        return False

    # -- die setting -----------------------------------------------------------------------

    def _set_action(self, chest: str, face: int) -> int | None:
        """The decision's option that sets a die on ``chest`` showing ``face``, if offered."""
        text = f"set {chest} {face}"
        options = (self.decision or {}).get("options") or []
        return next((int(o["action"]) for o in options if o["text"] == text), None)

    def _chest_open(self, chest: str) -> bool:
        return any(self._set_action(chest, f) is not None for f in range(1, A.FACES + 1))

    def _pick(self, chest: str | None = None, face: int | None = None) -> None:
        self._pick_error = ""
        if chest is not None:
            if not self._chest_open(chest):
                self._pick_error = f"Your other die is already on the {chest} chest."
            else:
                self._pick_chest = chest
        if face is not None:
            self._pick_face = face
        self.refresh_decision()

    def _confirm_set(self) -> None:
        if self._pick_chest is None or self._pick_face is None:
            self._pick_error = "Choose a chest (b/s/g) and a face (1-6) first."
            self.refresh_decision()
            return
        action = self._set_action(self._pick_chest, self._pick_face)
        if action is None:
            self._pick_error = f"{self._pick_chest} {self._pick_face} is not allowed now."
            self.refresh_decision()
            return
        self._pick_chest = None
        self._pick_face = None
        self.choose(action)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button_id = event.button.id or ""
        if self._kind() != SET_DIE or not button_id.startswith("pick-"):
            return
        what = button_id.removeprefix("pick-")
        if what == "confirm":
            self._confirm_set()
        elif what in CHESTS:
            self._pick(chest=what)
        elif what in FACE_KEYS:
            self._pick(face=FACE_KEYS[what])

    # -- the lamp race ---------------------------------------------------------------------

    def _open_race(self) -> None:
        self._race_open = True
        self._race_t0 = None
        self._my_rub = None
        # The clock starts once the dice are on screen, not when the engine revealed them.
        self.call_after_refresh(self._start_race_clock)

    def _start_race_clock(self) -> None:
        if not self._race_open or self._race_t0 is not None:
            return
        self._race_t0 = self.clock()
        self._race_timer = self.set_timer(self.window_s, self._race_window_closed)
        self._race_ticker = self.set_interval(0.1, self._race_tick)

    def _race_tick(self) -> None:
        if self._race_open:
            self.refresh_decision()

    def _race_left(self) -> float | None:
        """Seconds left in the race window, once the clock runs."""
        if not self._race_open or self._race_t0 is None:
            return None
        return max(0.0, self.window_s - (self.clock() - self._race_t0))

    def _race_window_closed(self) -> None:
        if self._race_open:
            self._answer_race(A.NO_RUB, "You did not rub the lamp.")

    def _rub_now(self) -> None:
        if not self._race_open or self._race_t0 is None:
            return  # the dice are not on screen yet: a press now is no reaction
        pressed = self.clock()
        ms = min((pressed - self._race_t0) * 1000.0, float(A.MAX_RUB_MS))
        action = A.rub(ms)
        self._answer_race(action, f"You rubbed the lamp after {A.rub_ms(action)} ms.")

    def _answer_race(self, action: int, message: str) -> None:
        self._race_open = False
        for timer in (self._race_timer, self._race_ticker):
            if timer is not None:
                timer.stop()
        self._race_timer = self._race_ticker = None
        self._my_rub = message
        # Give the player time to read the race before the bots go on.
        self._next_delay = 2 * self.bot_delay
        self.choose(action)

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, view: Mapping[str, Any]) -> None:
        name = self.session.name
        seat = view["seat"]
        flags = (view["turn"], view["phase"], view["is_over"], view["cave_closed"])
        self._update(
            "status", (flags, view["my_precious"], self.assist), lambda: self._status_text(view)
        )
        self._update(
            "mine",
            (flags, view["shared_faces"], None if seat is None else view["players"][seat]),
            lambda: board_panel(view),
        )
        self._update(
            "table",
            (
                flags,
                view["players"],
                view["shared_faces"],
                view["race_result"],
                view["to_act"],
                self.assist,
            ),
            lambda: table_panel(view, name, assist=self.assist),
        )
        self._update(
            "cave",
            (flags, view["chests"], view["lamp_pile"], view["discard"]),
            lambda: cave_panel(view),
        )
        self.query_one("#picker").display = (
            self.mode is Mode.CHOICE and self._kind() == SET_DIE and not self.has_class("-short")
        )

    def describe_event(self, event: Mapping[str, Any]) -> RenderableType | None:
        return describe_event(event, self.session.name)

    def _status_text(self, view: Mapping[str, Any]) -> Text:
        s = self.session
        text = Text(f"{s.state.spec.name}", style="bold")
        text.append(f"  ·  Turn {view['turn']}")
        if view.get("my_precious"):
            text.append('  ·  "My Precious"')
        if s.human is None:
            text.append("  ·  watching bots", style="dim")
        if view["is_over"]:
            text.append("  ·  GAME OVER", style="bold red")
        elif view.get("cave_closed"):
            text.append("  ·  the cave is closed: last turn!", style="bold red")
        if self.assist:
            text.append("  ·  assist on (F2)", style="yellow")
        return text

    # -- the decision panel ------------------------------------------------------------------

    def panel_state(self) -> Hashable:
        left = self._race_left()
        return (
            self.assist,
            self.has_class("-short"),
            self._pick_chest,
            self._pick_face,
            self._pick_error,
            self._race_open,
            None if left is None else round(left, 1),
            self._my_rub,
        )

    def present(self, view: Mapping[str, Any], decision: Mapping[str, Any]) -> Presentation:
        kind = str(decision["kind"])
        if kind == SET_DIE:
            return Presentation(details=self._set_details(), list_options=False)
        if kind == RACE:
            return Presentation(details=self._race_details(view), list_options=False)
        lines: list[RenderableType] = []
        context = decision.get("context") or {}
        if kind == "wish":
            lamp = context["lamp"]
            lines.append(Text(f"«{lamp['name']}»: {lamp['text']}", style="yellow"))
            lines.append(
                Text("Refuse it and the next Lamp card comes; the third must be kept.", "dim")
            )
        elif kind == "draw":
            lines.extend(self._draw_lines(view))
        elif kind.startswith(EFFECT_KINDS):
            wish = context.get("lamp") or self._last_wish_card(view)
            if wish:
                lines.append(Text(f"«{wish['name']}»: {wish['text']}", style="yellow"))
        return Presentation(
            news=self._race_line(view),
            details=Group(*lines) if lines else None,
            notes=self._notes(view, decision),
        )

    def _notes(self, view: Mapping[str, Any], decision: Mapping[str, Any]) -> dict[int, str]:
        """What the labels do not say: how many of a stone you count, what a die shows."""
        seat = view["seat"]
        if seat is None:
            return {}
        me = view["players"][seat]
        notes: dict[int, str] = {}
        for option in decision["options"]:
            verb, _, arg = str(option["text"]).partition(" ")
            if verb == "stone":
                notes[option["action"]] = f"you count {me['stones'].get(arg, 0)}"
            elif verb == "chest" and decision["kind"] == "effect_die":
                die = next((d for d in me["dice"] or [] if d["chest"] == arg), None)
                if die is not None:
                    notes[option["action"]] = f"your die there shows {die['face']}"
        return notes

    def _race_line(self, view: Mapping[str, Any]) -> RenderableType | None:
        """This turn's race once resolved, or the human's own answer while it is open."""
        if view["phase"] not in ("race", "resolve"):
            return None
        race = race_result_text(view, self.session.name)
        if race is None and self._my_rub and view["phase"] == "race":
            return Text(self._my_rub)
        return race

    def waiting(self, view: Mapping[str, Any]) -> RenderableType:
        parts: list[RenderableType] = []
        race = self._race_line(view)
        if race is not None:
            parts.append(race)
        parts.append(Text(self._waiting_text(view), style="dim"))
        return Group(*parts)

    def _waiting_text(self, view: Mapping[str, Any]) -> str:
        waiting = [p for p in view["to_act"] if p != self.session.human]
        if not waiting:
            return "…"
        who = " and ".join(self.session.name(p) for p in waiting)
        pending = view.get("pending")
        if pending is not None:
            kind = pending["kind"]
            what = str(pending["doing"])
            draw = view.get("draw")
            if kind == "angry_steal":
                rubber = self.session.name(pending.get("rubber"))
                what += f" from {'you' if rubber == 'You' else rubber}"
            elif kind == "draw" and draw:
                what = (
                    f"draw or stop at the {draw['chest']} chest "
                    f"({plural(len(draw['drawn']), 'card')}, "
                    f"{plural(draw['scorpions'], 'scorpion')} of {draw['face']})"
                )
            elif kind == "wish":
                what = f"wish {pending['wish']}: «{pending['lamp']['name']}»"
            return f"Waiting for {who}: {what}…"
        if view["phase"] == "setting":
            return f"Waiting for {who} to set their dice…"
        if view["phase"] == "race":
            return f"Waiting for {who} to answer the lamp race…"
        return f"Waiting for {who}…"

    def _set_details(self) -> RenderableType:
        lines: list[RenderableType] = []
        chest = Text("Chest: ")
        for c in CHESTS:
            style = (
                "reverse bold"
                if c == self._pick_chest
                else ("" if self._chest_open(c) else "dim strike")
            )
            chest.append(f"[{c[0]}]{c[1:]}", style=style)
            chest.append("  ")
        lines.append(chest)
        face = Text("Face:  ")
        for f in range(1, A.FACES + 1):
            face.append(f" {f} ", style="reverse bold" if f == self._pick_face else "")
        lines.append(face)
        if self._pick_chest and self._pick_face:
            lines.append(
                Text(
                    f"Enter = set {self._pick_chest} {self._pick_face}: draw up to "
                    f"{plural(self._pick_face, 'card')} from the {self._pick_chest} chest",
                    style="bold green",
                )
            )
        else:
            lines.append(Text("b/s/g = chest · 1-6 = face · Enter = confirm", style="dim"))
        if self._pick_error:
            lines.append(Text(self._pick_error, style="bold red"))
        if not self.has_class("-short"):  # on a short terminal the help (?) says it
            lines.append(
                Text(
                    "The lowest untied die on a chest searches it; equal faces between "
                    "players start a lamp race.",
                    style="dim",
                )
            )
        return Group(*lines)

    def _race_details(self, view: Mapping[str, Any]) -> RenderableType:
        # Whether a face is shared is for the player to see: saying it would take the race
        # away, unless the player asked for that (the assist, F2).
        # Every die, here too: on a small terminal the table may be out of sight.
        dice = []
        for player in view["players"]:
            one = Text(f"{self.session.name(player['seat'])} ", style="bold")
            one.append_text(dice_cell(player, view, sep=" + ", assist=self.assist))
            dice.append(one)
        # A wrap never parts a name from its dice.
        lines: list[RenderableType] = [Flow(dice, sep="   ", indent=0)]
        if self.assist:
            lines.append(self._assist_line(view))
        lines.append(Text("SPACE = rub the lamp · n = don't rub", style="bold"))
        lines.append(
            Text("The fastest rub on a shared face wins; a rub without one angers the Genie.")
        )
        left = self._race_left()
        if left is not None:
            lines.append(Text(f"The window closes in {left:.1f} s", style="dim"))
        return Group(*lines)

    def _assist_line(self, view: Mapping[str, Any]) -> Text:
        """The race's answer, for a player who asked for it: whether a face of theirs is
        shared, and with whom."""
        shared = set(view.get("shared_faces") or [])
        seat = view.get("seat")
        if seat is None:
            return Text("")
        mine = {int(d["face"]) for d in view["players"][seat].get("dice") or []}
        faces = sorted(mine & shared)
        if not faces:
            return Text(
                "Assist: no face of yours is shared — a rub would anger the Genie.",
                style="bold yellow",
            )
        who = sorted(
            {
                self.session.name(p["seat"])
                for p in view["players"]
                if p["seat"] != seat and any(d["face"] in faces for d in p.get("dice") or [])
            }
        )
        shown = " and ".join(str(f) for f in faces)
        return Text(
            f"Assist: your {shown} is shared with {' and '.join(who)} — rub!",
            style="bold yellow",
        )

    def _last_wish_card(self, view: Mapping[str, Any]) -> Mapping[str, Any] | None:
        for event in reversed(view["log"]):
            if event.get("kind") == "wish" and event.get("player") == self.session.human:
                lamp: Mapping[str, Any] = event["lamp"]
                return lamp
            if event.get("kind") == "race":
                return None
        return None

    def _draw_lines(self, view: Mapping[str, Any]) -> list[RenderableType]:
        draw = view.get("draw") or {}
        chest = draw.get("chest", "?")
        face = int(draw.get("face", 0))
        drawn = draw.get("drawn", [])
        scorpions = int(draw.get("scorpions", 0))
        lines: list[RenderableType] = [Text(f"Drawn so far ({len(drawn)}): {card_list(drawn)}")]
        danger = Text(f"Scorpions: {scorpions} — you lose all you drew at {face}")
        left = face - scorpions
        danger.append(
            f" ({plural(left, 'more scorpion')} would do it)",
            style="bold red" if left <= 1 else "yellow",
        )
        lines.append(danger)
        if draw.get("ward"):
            lines.append(Text(f"Your next {plural(draw['ward'], 'scorpion')} will not count."))
        info = next((c for c in view["chests"] if c["name"] == chest), None)
        if info is not None:
            where = Text(f"The chest holds {plural(info['cards_left'], 'card')}")
            above = info.get("cards_above_sorcerer")
            if info.get("sorcerer_in_chest") and above is not None:
                where.append(
                    "; the Sorcerer is the next card!"
                    if above == 0
                    else f"; the Sorcerer is card {above + 1} down",
                    style="bold red" if above < 3 else "",
                )
            lines.append(where)
            if info.get("known_top"):
                lines.append(
                    Text(
                        f"You know what comes next: {card_list(info['known_top'])}", style="yellow"
                    )
                )
        return lines


__all__ = ["MagicLampScreen", "Mode"]
