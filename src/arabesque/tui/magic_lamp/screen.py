"""The Magic Lamp terminal screen: your board, the table, the cave, the log, and your moves.

It draws only ``session.view()`` (the human's view), offers only the human's legal actions
and applies through the engine. The one thing it measures itself is the lamp race: the time
from the moment the dice are on screen to the space bar, which becomes ``rub <ms>``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Button, Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from arabesque.games.magic_lamp import actions as A
from arabesque.games.magic_lamp.components import CHESTS
from arabesque.tui.app import GameScreen
from arabesque.tui.magic_lamp.events import card_list, describe_event, plural
from arabesque.tui.magic_lamp.render import (
    board_panel,
    cave_panel,
    dice_cell,
    race_result_text,
    table_panel,
)
from arabesque.tui.session import Session

CHEST_KEYS = {name[0]: name for name in CHESTS}  # b, s, g
FACE_KEYS = {str(f): f for f in range(1, A.FACES + 1)}


class Mode(StrEnum):
    WAIT = "wait"  # bots are thinking, or nothing is asked of the human
    SET = "set"  # set a die in secret: chest and face
    RACE = "race"  # the dice are out: rub the lamp (space) or not
    CHOICE = "choice"  # a decision from a list of legal options
    OVER = "over"


class PickButton(Button, can_focus=False):
    """A die-setting button for the mouse; never takes focus, so keys stay with the screen."""


DECISION_HELP: dict[str, str] = {
    "angry_target": "You rubbed the lamp by mistake! The Genie is angry: choose the "
    "opponent who will steal one of your unprotected cards.",
    "effect_chest": "Choose a chest for the Genie's gift.",
    "effect_die": "Choose which of your dice the Genie changes (by its chest).",
    "effect_face": "Choose the new face of your die.",
    "effect_move": "Choose the chest space your die moves to.",
    "effect_card": "Choose an opponent's unprotected card to take.",
    "swap_own": "Choose one of your unprotected cards to give away.",
    "swap_theirs": "Choose the opponent's card you take in exchange.",
    "talisman": "Place your talisman on a type of stone you hold (it stays there for good).",
    "retrieve": "Take a card of your choice from the discard pile.",
}


WAITING: dict[str, str] = {
    "angry_target": "naming who steals from them",
    "angry_steal": "choosing a card to steal",
    "effect_chest": "choosing a chest for the Genie's gift",
    "effect_die": "choosing a die for the Genie's gift",
    "effect_face": "choosing a new face",
    "effect_move": "moving a die",
    "effect_card": "choosing a card to take",
    "swap_own": "choosing a card to give",
    "swap_theirs": "choosing a card to take",
    "talisman": "placing a talisman",
    "retrieve": "taking a card from the discard pile",
}


class MagicLampScreen(GameScreen):
    DEFAULT_CSS = """
    MagicLampScreen { layout: vertical; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #body { height: 1fr; }
    #board-col { width: 3fr; }
    #side { width: 2fr; min-width: 44; }
    .panel { border: round $primary-darken-1; padding: 0 1; height: auto; }
    #mine { border: round $accent; }
    #prompt { border: round $warning; padding: 0 1; height: auto; }
    #picker { height: auto; }
    #picker > Horizontal { height: auto; }
    #picker Button { margin: 0 1 0 0; min-width: 5; }
    #choices { height: auto; max-height: 14; border: round $warning; }
    #log { height: 1fr; border: round $primary-darken-1; }
    /* Narrow terminals: your move and a short log on top, the board scrolls below. */
    MagicLampScreen.-narrow #side { dock: top; width: 100%; height: auto; min-width: 0; }
    MagicLampScreen.-narrow #board-col { width: 100%; }
    MagicLampScreen.-narrow #log { height: 6; }
    MagicLampScreen.-narrow #choices { max-height: 8; }
    """

    #: Below this many columns the panels stack instead of standing side by side.
    NARROW = 120

    def __init__(self, session: Session, *, bot_delay: float, window_s: float) -> None:
        super().__init__(session, bot_delay=bot_delay, window_s=window_s)
        self.mode = Mode.WAIT
        self._log_seen = 0
        self._notices_seen = 0
        self._choice_key: int | None = None
        self._drawn: dict[str, Any] = {}  # panel id -> the part of the view last drawn
        # die setting
        self._pick_chest: str | None = None
        self._pick_face: int | None = None
        self._pick_error = ""
        # lamp race
        self._race_open = False
        self._race_t0: float | None = None
        self._race_timer: Timer | None = None
        self._race_ticker: Timer | None = None
        self._race_turn: int | None = None
        self._my_rub: str | None = None
        #: The race clock (tests may replace it); time.monotonic never jumps back.
        self.clock: Callable[[], float] = time.monotonic

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with VerticalScroll(id="board-col"):
                yield Static(id="mine", classes="panel")
                yield Static(id="table", classes="panel")
                yield Static(id="cave", classes="panel")
            with Vertical(id="side"):
                yield Static(id="prompt")
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
                yield OptionList(id="choices")
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
        self.query_one("#prompt").border_title = (
            "Your move" if self.session.human is not None else "Now"
        )
        self.query_one("#log").border_title = "Log"
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < self.NARROW, "-narrow")

    # -- driving the game ------------------------------------------------------------------

    def _run(self) -> None:
        s = self.session
        while True:
            if s.is_over:
                self.mode = Mode.OVER
                return
            view = s.state.view(s.human, include_log=False)
            phase = view["phase"]
            bots = s.bots_to_act()
            human_turn = s.human_to_act()
            if phase in ("setting", "race"):
                # Simultaneous: bots commit at once; the engine keeps their answers hidden
                # until everyone is in. Only a bots-only table waits between phases.
                if bots:
                    if not human_turn and not self._may_act_now():
                        return
                    for seat in bots:
                        while seat in s.state.to_act() and self._phase() == phase:
                            s.bot_act(seat)
                    self._acted()
                    continue
                if human_turn:
                    if phase == "setting":
                        self._enter_set()
                    else:
                        self._enter_race(view["turn"])
                    return
                return  # nobody to act: cannot happen with a well-formed game
            if human_turn:
                self._enter_choice()
                return
            if not bots:
                return
            if not self._may_act_now():
                return
            s.bot_act(bots[0])
            self._acted()

    def _phase(self) -> str:
        return str(self.session.state.view(self.session.human, include_log=False)["phase"])

    def _waiting_for_bot(self) -> None:
        self.mode = Mode.WAIT

    def _human_apply(self, action: int) -> None:
        self.session.apply_human(action)
        self._ready = False
        self.mode = Mode.WAIT
        self.advance()

    def game_over_reason(self) -> str:
        for event in reversed(self.session.view()["log"]):
            if event.get("kind") == "game_over":
                return str(event.get("reason", "")).capitalize()
        return ""

    # -- die setting -----------------------------------------------------------------------

    def _enter_set(self) -> None:
        if self.mode is not Mode.SET:
            self._pick_chest = None
            self._pick_face = None
            self._pick_error = ""
        self.mode = Mode.SET

    def _set_legal(self, chest: str, face: int) -> int | None:
        action = self.session.state.parse_action(f"set {chest} {face}")
        return action if action in self.session.human_legal() else None

    def _pick(self, chest: str | None = None, face: int | None = None) -> None:
        self._pick_error = ""
        if chest is not None:
            if not any(self._set_legal(chest, f) is not None for f in range(1, A.FACES + 1)):
                self._pick_error = f"Your other die is already on the {chest} chest."
            else:
                self._pick_chest = chest
        if face is not None:
            self._pick_face = face
        self._update_prompt()

    def _confirm_set(self) -> None:
        if self._pick_chest is None or self._pick_face is None:
            self._pick_error = "Choose a chest (b/s/g) and a face (1-6) first."
            self._update_prompt()
            return
        action = self._set_legal(self._pick_chest, self._pick_face)
        if action is None:
            self._pick_error = f"{self._pick_chest} {self._pick_face} is not allowed now."
            self._update_prompt()
            return
        self._pick_chest = None
        self._pick_face = None
        self._human_apply(action)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button_id = event.button.id or ""
        if self.mode is not Mode.SET or not button_id.startswith("pick-"):
            return
        what = button_id.removeprefix("pick-")
        if what == "confirm":
            self._confirm_set()
        elif what in CHESTS:
            self._pick(chest=what)
        elif what in FACE_KEYS:
            self._pick(face=FACE_KEYS[what])

    # -- the lamp race ---------------------------------------------------------------------

    def _enter_race(self, turn: int) -> None:
        if self._race_open and self._race_turn == turn:
            return
        self._race_open = True
        self._race_turn = turn
        self._race_t0 = None
        self._my_rub = None
        self.mode = Mode.RACE
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
            self._update_prompt()

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
        self._human_apply(action)

    # -- decisions from a list -------------------------------------------------------------

    def _enter_choice(self) -> None:
        self.mode = Mode.CHOICE
        key = len(self.session.state.history)
        if self._choice_key == key:
            return
        self._choice_key = key
        options = self.query_one(OptionList)
        options.clear_options()
        view = self.session.view()
        for i, action in enumerate(self.session.human_legal()):
            label = Text(f"{i + 1}. " if i < 9 else "   ", style="dim")
            label.append(self._option_label(action, view))
            options.add_option(Option(label, id=str(action)))
        options.highlighted = 0
        self.call_after_refresh(options.focus)

    def _option_label(self, action: int, view: Mapping[str, Any]) -> str:
        s = self.session
        text = s.state.action_to_str(action)
        if action == A.ACCEPT:
            return "Accept the wish (a)"
        if action == A.REJECT:
            return "Reject it and wish again (r)"
        if action == A.DRAW:
            return "Draw the next card (d)"
        if action == A.STOP:
            return "Stop and keep what you drew (s)"
        verb, _, arg = text.partition(" ")
        if verb == "target":
            return s.name(int(arg))
        if verb == "stone":
            held = view["players"][s.human or 0]["stones"].get(arg, 0)
            return f"on {arg} (you count {held})"
        if verb == "card":
            cid = int(arg)
            label = s.describe(action)
            for player in view["players"]:
                if any(c["id"] == cid for c in player["cards"]):
                    owner = s.name(player["seat"])
                    return f"{label}, {'yours' if owner == 'You' else owner + '’s'}"
            if any(c["id"] == cid for c in view["discard"]):
                return f"{label}, from the discard pile"
            return label
        kind = (view.get("decision") or {}).get("kind")
        if verb == "chest" and kind in ("effect_chest", "effect_move"):
            info = next((c for c in view["chests"] if c["name"] == arg), None)
            left = f" ({plural(info['cards_left'], 'card')} left)" if info else ""
            return f"the {arg} chest{left}"
        if verb == "chest" and kind == "effect_die":
            die = next(
                (d for d in view["players"][s.human or 0]["dice"] or [] if d["chest"] == arg),
                None,
            )
            return f"your die on {arg}" + (f" (showing {die['face']})" if die else "")
        return s.describe(action)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.mode is not Mode.CHOICE or event.option.id is None:
            return
        action = int(event.option.id)
        if action in self.session.human_legal():
            self._human_apply(action)

    def _choose(self, action: int) -> None:
        if action in self.session.human_legal():
            self._human_apply(action)

    # -- keys ------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        key = event.key
        handled = True
        if self.mode is Mode.SET:
            if key in CHEST_KEYS:
                self._pick(chest=CHEST_KEYS[key])
            elif key in FACE_KEYS:
                self._pick(face=FACE_KEYS[key])
            elif key == "enter":
                self._confirm_set()
            elif key in ("escape", "backspace"):
                self._pick_chest = self._pick_face = None
                self._update_prompt()
            else:
                handled = False
        elif self.mode is Mode.RACE:
            if key == "space":
                self._rub_now()
            elif key == "n":  # not Enter: a second Enter after setting a die is no answer
                if self._race_open and self._race_t0 is not None:
                    self._answer_race(A.NO_RUB, "You chose not to rub the lamp.")
            else:
                handled = False
        elif self.mode is Mode.CHOICE:
            shortcuts = {"a": A.ACCEPT, "r": A.REJECT, "d": A.DRAW, "s": A.STOP}
            legal = list(self.session.human_legal())
            if key in shortcuts and shortcuts[key] in legal:
                self._choose(shortcuts[key])
            elif key in FACE_KEYS or key in ("7", "8", "9"):
                index = int(key) - 1
                if index < len(legal):
                    self._choose(legal[index])
            else:
                handled = False
        elif self.mode is Mode.OVER and key == "enter":
            self._show_game_over()
        else:
            handled = False
        if handled:
            event.stop()
            event.prevent_default()

    # -- drawing ---------------------------------------------------------------------------

    def refresh_panels(self) -> None:
        view = self.session.view()
        name = self.session.name
        seat = view["seat"]
        flags = (view["turn"], view["phase"], view["is_over"], view["cave_closed"])
        self._update("status", (flags, view["my_precious"]), lambda: self._status_text(view))
        self._update(
            "mine",
            (flags, view["shared_faces"], None if seat is None else view["players"][seat]),
            lambda: board_panel(view),
        )
        self._update(
            "table",
            (flags, view["players"], view["shared_faces"], view["race_result"], view["to_act"]),
            lambda: table_panel(view, name),
        )
        self._update(
            "cave",
            (flags, view["chests"], view["lamp_pile"], view["discard"]),
            lambda: cave_panel(view),
        )
        log = self.query_one(RichLog)
        for notice in self.session.notices[self._notices_seen :]:
            log.write(Text(notice, style="bold yellow"))
        self._notices_seen = len(self.session.notices)
        entries = view["log"]
        for event in entries[self._log_seen :]:
            try:
                line = describe_event(event, name)
            except (KeyError, TypeError, ValueError):  # an event shaped unlike we expect
                line = Text(str(event), style="dim")
            if line is not None:
                log.write(line)
        self._log_seen = len(entries)
        self.query_one("#picker").display = self.mode is Mode.SET
        self.query_one(OptionList).display = self.mode is Mode.CHOICE
        self._update_prompt(view)

    def _update(self, widget_id: str, key: Any, make: Callable[[], RenderableType]) -> None:
        """Redraw a panel only when the part of the view it shows has changed."""
        if self._drawn.get(widget_id) == key:
            return
        self._drawn[widget_id] = key
        self.query_one(f"#{widget_id}", Static).update(make())

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
        text.append("  ·  q quits", style="dim")
        return text

    def _update_prompt(self, view: Mapping[str, Any] | None = None) -> None:
        if view is None:
            view = self.session.view()
        self.query_one("#prompt", Static).update(self._prompt(view))

    def _prompt(self, view: Mapping[str, Any]) -> RenderableType:
        name = self.session.name
        parts: list[RenderableType] = []
        if self.mode is Mode.OVER:
            parts.append(Text("The game is over.", style="bold"))
            parts.append(Text("Enter = final scores · q = quit", style="dim"))
            return Group(*parts)
        if self.mode is Mode.SET:
            return self._set_prompt(view)
        if self.mode is Mode.RACE:
            return self._race_prompt(view)
        if view["phase"] in ("race", "resolve"):
            race = race_result_text(view, name)
            if race is not None:
                parts.append(race)
            elif self._my_rub and view["phase"] == "race":
                parts.append(Text(self._my_rub))
        if self.mode is Mode.CHOICE:
            parts.append(self._decision_prompt(view))
        else:
            parts.append(Text(self._waiting_text(view), style="dim"))
        return Group(*parts)

    def _waiting_text(self, view: Mapping[str, Any]) -> str:
        waiting = view["to_act"]
        if not waiting:
            return "…"
        who = " and ".join(self.session.name(p) for p in waiting)
        decision = view.get("decision")
        if decision is not None:
            what = WAITING.get(decision["kind"], decision["kind"].replace("_", " "))
            if decision["kind"] == "angry_steal":
                rubber = self.session.name(decision.get("rubber"))
                what += f" from {'you' if rubber == 'You' else rubber}"
            draw = view.get("draw")
            if decision["kind"] == "draw" and draw:
                what = (
                    f"draw or stop at the {draw['chest']} chest "
                    f"({plural(len(draw['drawn']), 'card')}, "
                    f"{plural(draw['scorpions'], 'scorpion')} of {draw['face']})"
                )
            elif decision["kind"] == "wish":
                what = f"wish {decision['wish']}: «{decision['lamp']['name']}»"
            return f"Waiting for {who}: {what}…"
        if view["phase"] == "setting":
            return f"Waiting for {who} to set their dice…"
        if view["phase"] == "race":
            return f"Waiting for {who} to answer the lamp race…"
        return f"Waiting for {who}…"

    def _set_prompt(self, view: Mapping[str, Any]) -> RenderableType:
        me = view["players"][self.session.human or 0]
        need = 2 if view["num_players"] == 2 else 1
        done = len(me.get("dice") or [])
        title = "Set your die in secret" + (f" (die {done + 1} of {need})" if need > 1 else "")
        lines: list[RenderableType] = [Text(title, style="bold")]
        chest = Text("Chest: ")
        for c in CHESTS:
            legal = any(self._set_legal(c, f) is not None for f in range(1, A.FACES + 1))
            style = "reverse bold" if c == self._pick_chest else ("" if legal else "dim strike")
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
        lines.append(
            Text(
                "The lowest untied die on a chest searches it; equal faces between players "
                "start a lamp race.",
                style="dim",
            )
        )
        return Group(*lines)

    def _race_prompt(self, view: Mapping[str, Any]) -> RenderableType:
        name = self.session.name
        shared = view.get("shared_faces") or []
        lines: list[RenderableType] = [Text("The dice are out!", style="bold magenta")]
        if shared:
            who: dict[int, list[str]] = {}
            for player in view["players"]:
                for die in player.get("dice") or []:
                    if die["face"] in shared and name(player["seat"]) not in who.get(
                        die["face"], []
                    ):
                        who.setdefault(die["face"], []).append(name(player["seat"]))
            lines.append(
                Text(
                    "Shared faces: "
                    + "; ".join(f"{f} ({', '.join(who.get(f, []))})" for f in shared),
                    style="bold yellow",
                )
            )
        else:
            lines.append(Text("No face is shared this turn.", style="dim"))
        me = view["players"][self.session.human or 0]
        mine = Text("Your dice: ")
        mine.append(dice_cell(me, view, own=True))
        if any(d["face"] in shared for d in me.get("dice") or []):
            mine.append("  — shared: rub fast!", style="bold green")
        else:
            mine.append("  — not shared: a rub angers the Genie", style="red")
        lines.append(mine)
        lines.append(Text("SPACE = rub the lamp · n = don't rub", style="bold"))
        if self._race_t0 is not None:
            left = max(0.0, self.window_s - (self.clock() - self._race_t0))
            lines.append(Text(f"The window closes in {left:.1f} s", style="dim"))
        return Group(*lines)

    def _decision_prompt(self, view: Mapping[str, Any]) -> RenderableType:
        decision = view.get("decision") or {}
        kind = decision.get("kind", "")
        name = self.session.name
        lines: list[RenderableType] = []
        if kind == "wish":
            lamp = decision["lamp"]
            lines.append(Text(f"Wish {decision['wish']} of 3: «{lamp['name']}»", style="bold"))
            lines.append(Text(lamp["text"], style="yellow"))
            lines.append(
                Text(
                    "a = accept · r = reject and draw the next Lamp card "
                    "(the third wish must be kept)",
                    style="dim",
                )
            )
        elif kind == "draw":
            lines.extend(self._draw_lines(view))
        elif kind == "angry_steal":
            rubber = name(decision.get("rubber"))
            lines.append(
                Text(
                    f"{rubber} rubbed the lamp by mistake: the Genie lets you take one of "
                    "their unprotected cards.",
                    style="bold",
                )
            )
        else:
            lines.append(Text(DECISION_HELP.get(kind, kind.replace("_", " ")), style="bold"))
            wish = self._last_wish_card(view)
            if wish and kind.startswith(("effect", "swap", "retrieve")):
                lines.append(Text(f"«{wish['name']}»: {wish['text']}", style="yellow"))
        lines.append(Text("↑/↓ + Enter, or the option's number", style="dim"))
        return Group(*lines)

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
        lines: list[RenderableType] = [
            Text(
                f"Search the {chest} chest: your die shows {face}, so up to "
                f"{plural(face, 'card')}.",
                style="bold",
            ),
            Text(f"Drawn so far ({len(drawn)}): {card_list(drawn)}"),
        ]
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
        lines.append(Text("d = draw · s = stop", style="bold"))
        return lines
