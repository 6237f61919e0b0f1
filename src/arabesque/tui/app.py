"""The Textual application shell shared by every game's screen.

A game plugs in by adding its screen class to ``GAME_SCREENS`` (``"module:Class"``, imported
on first use). The shell owns what every game needs: quitting with confirmation, the
game-over panel with scores, breakdown and ranking, the session (state, seats, bots), and the
game screen's common part: driving the game, the human's decisions in the shared
``DecisionPanel``, the keys, the log.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import DataTable, RichLog, Static

from arabesque.core.scoring import Score
from arabesque.tui.decision_panel import DecisionPanel, Presentation
from arabesque.tui.session import Session

#: Game id -> "module:ScreenClass". A screen class takes (session, bot_delay=, window_s=).
GAME_SCREENS: dict[str, str] = {
    "magic-lamp": "arabesque.tui.magic_lamp.screen:MagicLampScreen",
    "ali-baba": "arabesque.tui.ali_baba.screen:AliBabaScreen",
}

#: Seconds a bot waits before acting, so a person can follow (0 in tests).
DEFAULT_BOT_DELAY = 0.6


def has_screen(game_id: str) -> bool:
    return game_id in GAME_SCREENS


def screen_class(game_id: str) -> type[GameScreen]:
    try:
        target = GAME_SCREENS[game_id]
    except KeyError:
        known = ", ".join(sorted(GAME_SCREENS))
        raise ValueError(
            f"{game_id!r} has no terminal screen yet; playable in the terminal: {known}"
        ) from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, GameScreen)):
        raise TypeError(f"{target} is not a GameScreen")
    return cls


class Mode(StrEnum):
    WAIT = "wait"  # bots are acting, or nothing is asked of the human
    CHOICE = "choice"  # the human has a decision (``GameScreen.decision``)
    OVER = "over"


GAME_OVER_TEXT = Group(
    Text("The game is over.", style="bold"),
    Text("Enter = final scores · q = quit", style="dim"),
)


class GameScreen(Screen[None]):
    """Base of a game's main screen: it draws ``session.view()`` and drives the bots.

    ``advance`` is the one loop that moves the game on: a game's ``_run`` lets bots act
    (asking ``_may_act_now`` before each paced bot move) until the human must act
    (``_enter_choice``), a bot delay is due, or the game ends; then the panels are redrawn.

    The human's decision is drawn by the shared ``DecisionPanel`` (the game composes it with
    ``decision_panel()`` and says what to add with ``present``); every answer, a key, a click
    on an option or on the board, ends in ``choose``.
    """

    #: Canonical action text -> the key that always picks that action (the rest get 1-9, a-z).
    MNEMONICS: ClassVar[Mapping[str, str]] = {}

    def __init__(self, session: Session, *, bot_delay: float, window_s: float) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = max(0.0, bot_delay)
        self.window_s = window_s
        self.mode = Mode.WAIT
        #: The human's decision now (the view's ``decision``), while ``mode`` is CHOICE.
        self.decision: dict[str, Any] | None = None
        self._advancing = False
        self._ready = False  # the bot delay has passed: the next bot may act
        self._bot_timer: Timer | None = None
        self._next_delay = self.bot_delay  # a game may lengthen the next pause
        self._drawn: dict[str, Any] = {}  # panel id -> the part of the view last drawn
        self._log_seen = 0
        self._notices_seen = 0

    def game_over_reason(self) -> str:
        """Why the game ended, for the game-over panel (games may say more)."""
        return ""

    # -- what a game provides ----------------------------------------------------------------

    def _run(self) -> None:
        """Move the game on as far as it may go now (see ``advance``); never called once the
        game is over."""
        raise NotImplementedError

    def draw(self, view: Mapping[str, Any]) -> None:
        """Redraw the game's own panels (the board, the table) from the human's view."""
        raise NotImplementedError

    def describe_event(self, event: Mapping[str, Any]) -> RenderableType | None:
        """A log event in words, or None for an event not worth a line."""
        raise NotImplementedError

    def present(self, view: Mapping[str, Any], decision: Mapping[str, Any]) -> Presentation:
        """What the game adds to the human's decision in the panel."""
        return Presentation()

    def waiting(self, view: Mapping[str, Any]) -> RenderableType:
        """What the panel says while the human has nothing to decide."""
        who = [self.session.name(p) for p in view["to_act"] if p != self.session.human]
        return Text(f"Waiting for {' and '.join(who)}…" if who else "…", style="dim")

    def panel_state(self) -> Hashable:
        """What else the panel's text depends on besides the view (a game's input in
        progress, a countdown); the panel is redrawn when it changes."""
        return None

    def game_key(self, key: str) -> bool:
        """A key the game reads itself during a decision (before the panel's option keys);
        True when it was used."""
        return False

    # -- driving the game ------------------------------------------------------------------

    def advance(self) -> None:
        """Let bots act until the human must act, a bot delay is due, or the game ends.

        Every engine call runs here or in a key handler, on the UI thread, one at a time.
        """
        if self._advancing:
            return
        self._advancing = True
        try:
            if not self.session.is_over:
                self._run()
        finally:
            self._advancing = False
        if self.session.is_over:
            self.mode = Mode.OVER
            self.decision = None
        self.refresh_panels()
        if self.session.is_over:
            self.app.call_later(self._show_game_over)

    def _enter_choice(self, decision: Mapping[str, Any]) -> None:
        """The human must decide (``decision`` is the view's); ``_run`` stops here."""
        self.mode = Mode.CHOICE
        self.decision = dict(decision)

    def _waiting_for_bot(self) -> None:
        """Called when a bot move waits for its delay (a game may show a waiting state)."""
        self.mode = Mode.WAIT

    def _may_act_now(self) -> bool:
        """Whether the next bot may act now; if not, a timer calls ``advance`` later."""
        if self.bot_delay <= 0 or self._ready:
            return True
        self._waiting_for_bot()
        if self._bot_timer is None:
            self._bot_timer = self.set_timer(self._next_delay, self._on_bot_timer)
        return False

    def _on_bot_timer(self) -> None:
        self._bot_timer = None
        self._ready = True
        self.advance()

    def _acted(self) -> None:
        """A paced move was made: the next one waits a full delay again."""
        self._ready = False
        self._next_delay = self.bot_delay

    def choose(self, action: int) -> None:
        """The human's answer, however it was given; an action that is not legal now (a late
        click, a stale key) is ignored."""
        if self.mode is not Mode.CHOICE or action not in self.session.human_legal():
            return
        self.session.apply_human(action)
        self._ready = False
        self.mode = Mode.WAIT
        self.decision = None
        self.advance()

    def _show_game_over(self) -> None:
        show = getattr(self.app, "show_game_over", None)
        if callable(show):
            show()

    # -- keys and the mouse ------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        if self._handle_key(event.key):
            event.stop()
            event.prevent_default()

    def _handle_key(self, key: str) -> bool:
        if self.mode is Mode.OVER:
            if key == "enter":
                self._show_game_over()
                return True
            return False
        if self.mode is not Mode.CHOICE:
            return False
        if self.game_key(key):
            return True
        action = self.panel.action_for(key)
        if action is None:
            return False
        self.choose(action)
        return True

    def on_decision_panel_chosen(self, message: DecisionPanel.Chosen) -> None:
        self.choose(message.action)

    # -- drawing -----------------------------------------------------------------------------

    def decision_panel(self) -> DecisionPanel:
        """The shared panel, for a game's ``compose``."""
        title = "Your move" if self.session.human is not None else "Now"
        return DecisionPanel(self.session.names, self.MNEMONICS, title=title, id="decision")

    @property
    def panel(self) -> DecisionPanel:
        return self.query_one(DecisionPanel)

    def refresh_panels(self) -> None:
        """Redraw what changed: the decision first (the board may show its keys), then the
        game's panels and the log."""
        view = self.session.view()
        self.refresh_decision(view)
        self.draw(view)
        self._write_log(view)

    def refresh_decision(self, view: Mapping[str, Any] | None = None) -> None:
        """Redraw the decision panel if the view, the mode or the game's input changed."""
        if view is None:
            view = self.session.view()
        key = (self.mode, view["version"], self.panel_state())
        if self._drawn.get("decision") == key:
            return
        self._drawn["decision"] = key
        if self.mode is Mode.OVER:
            self.panel.show_text(GAME_OVER_TEXT)
        elif self.mode is Mode.CHOICE and self.decision is not None:
            self.panel.show_decision(self.decision, self.present(view, self.decision))
        else:
            self.panel.show_text(self.waiting(view))

    def _update(self, widget_id: str, key: Any, make: Callable[[], RenderableType]) -> None:
        """Redraw a panel only when the part of the view it shows has changed."""
        if self._drawn.get(widget_id) == key:
            return
        self._drawn[widget_id] = key
        self.query_one(f"#{widget_id}", Static).update(make())

    def _write_log(self, view: Mapping[str, Any]) -> None:
        """Append the notices and the events the log has not shown yet."""
        log = self.query_one(RichLog)
        for notice in self.session.notices[self._notices_seen :]:
            log.write(Text(notice, style="bold yellow"))
        self._notices_seen = len(self.session.notices)
        entries = view["log"]
        for event in entries[self._log_seen :]:
            try:
                line = self.describe_event(event)
            except (KeyError, TypeError, ValueError):  # an event shaped unlike we expect
                line = Text(str(event), style="dim")
            if line is not None:
                log.write(line)
        self._log_seen = len(entries)


def breakdown_columns(scores: Sequence[Score]) -> list[str]:
    """Breakdown keys worth a column: in the games' order, those nonzero for someone."""
    keys: list[str] = []
    for score in scores:
        for key in score.breakdown:
            if key not in keys:
                keys.append(key)
    return [k for k in keys if any(s.breakdown.get(k, 0) for s in scores)]


def winners_line(ranks: Sequence[int], names: Sequence[str]) -> str:
    first = [names[p] for p, r in enumerate(ranks) if r == 1]
    if len(first) > 1:
        return "Shared victory: " + ", ".join(first[:-1]) + " and " + first[-1] + "!"
    if first == ["You"]:
        return "You win!"
    return f"{first[0]} wins."


class GameOverScreen(ModalScreen[None]):
    """Final scores with breakdown and ranking; ties share a rank (a shared victory)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.request_quit", "Quit"),
        Binding("escape", "dismiss", "Look at the board"),
    ]

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    #over-box {
        width: auto; max-width: 95%; height: auto; max-height: 90%;
        border: double $accent; padding: 1 2; background: $surface;
    }
    #over-title { text-style: bold; margin-bottom: 1; }
    #over-table { height: auto; width: auto; }
    #over-help { margin-top: 1; color: $text-muted; }
    """

    def __init__(self, session: Session, reason: str = "") -> None:
        super().__init__(id="game-over")
        self.session = session
        self.reason = reason

    def compose(self) -> ComposeResult:
        state = self.session.state
        ranks = state.ranking()
        title = Text("Game over. ", style="bold")
        title.append(winners_line(ranks, self.session.names), style="bold yellow")
        if self.reason:
            title.append(f"\n{self.reason}", style="dim")
        with Vertical(id="over-box"):
            yield Static(title, id="over-title")
            yield DataTable(id="over-table", cursor_type="row", zebra_stripes=True)
            yield Static("q = quit · Esc = look at the board", id="over-help")

    def on_mount(self) -> None:
        state = self.session.state
        scores = state.scores()
        ranks = state.ranking()
        columns = breakdown_columns(scores)
        table = self.query_one(DataTable)
        table.add_column("Rank", key="rank")
        table.add_column("Player", key="player")
        for key in columns:
            table.add_column(key.replace("_", " "), key=key)
        table.add_column("Total", key="total")
        for p in sorted(range(state.num_players), key=lambda q: (ranks[q], q)):
            table.add_row(
                str(ranks[p]),
                self.session.names[p],
                *(str(scores[p].breakdown.get(k, 0)) for k in columns),
                Text(str(scores[p].total), style="bold"),
                key=str(p),
            )

    def table_rows(self) -> dict[int, dict[str, str]]:
        """Seat -> column key -> cell text (for tests and screen readers)."""
        table = self.query_one(DataTable)
        keys = [str(c.key.value) for c in table.columns.values()]
        out: dict[int, dict[str, str]] = {}
        for row_key in table.rows:
            cells = table.get_row(row_key)
            out[int(str(row_key.value))] = {k: str(v) for k, v in zip(keys, cells, strict=True)}
        return out


class QuitScreen(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q", "answer(True)", "Quit"),
        Binding("n,escape", "answer(False)", "Keep playing"),
    ]
    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static {
        width: auto; height: auto; border: heavy $warning; padding: 1 3; background: $surface;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static("Quit this game?  y = quit · n = keep playing")

    def action_answer(self, quit_game: bool) -> None:
        self.dismiss(quit_game)


class ArabesqueApp(App[int]):
    """Hosts one game's screen; ``q`` quits (with confirmation while the game runs)."""

    TITLE = "Arabesque"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "request_quit", "Quit")]

    def __init__(
        self,
        session: Session,
        *,
        bot_delay: float = DEFAULT_BOT_DELAY,
        window_s: float = 3.0,
        screen: type[GameScreen] | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.window_s = window_s
        self._screen_cls = screen or screen_class(session.state.spec.id)
        self.sub_title = session.state.spec.name

    def on_mount(self) -> None:
        self.push_screen(
            self._screen_cls(self.session, bot_delay=self.bot_delay, window_s=self.window_s)
        )

    @property
    def game_screen(self) -> GameScreen:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("the game screen is not mounted")

    def show_game_over(self) -> None:
        if any(isinstance(s, GameOverScreen) for s in self.screen_stack):
            return
        self.push_screen(GameOverScreen(self.session, self.game_screen.game_over_reason()))

    def action_request_quit(self) -> None:
        if self.session.is_over:
            self.exit(0)
            return
        if any(isinstance(s, QuitScreen) for s in self.screen_stack):
            return

        def answered(quit_game: bool | None) -> None:
            if quit_game:
                self.exit(0)

        self.push_screen(QuitScreen(), answered)
