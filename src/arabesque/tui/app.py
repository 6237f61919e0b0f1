"""The Textual application shell shared by every game's screen.

A game plugs in by adding its screen class to ``GAME_SCREENS`` (``"module:Class"``, imported
on first use). The shell owns what every game needs: quitting with confirmation, the
game-over panel with scores, breakdown and ranking, the session (state, seats, bots), and the
game screen's common part: driving the game, the human's decisions in the shared
``DecisionPanel``, the keys (shown in the footer), the help screen, the log (and the whole of
it full screen), and the hints that say what is out of sight and which key brings it.
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
from textual.containers import ScrollableContainer, Vertical
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import DataTable, RichLog, Static

from arabesque.core.decision import expand_options
from arabesque.core.scoring import Score
from arabesque.tui.decision_panel import DecisionPanel, Presentation
from arabesque.tui.help import COMMON_KEYS, HelpScreen, HelpSection
from arabesque.tui.session import Session

#: Game id -> "module:ScreenClass". A screen class takes (session, bot_delay=, window_s=,
#: assist=).
GAME_SCREENS: dict[str, str] = {
    "magic-lamp": "arabesque.tui.magic_lamp.screen:MagicLampScreen",
    "ali-baba": "arabesque.tui.ali_baba.screen:AliBabaScreen",
    "djinn": "arabesque.tui.djinn.screen:DjinnScreen",
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


def short_title(title: str) -> str:
    """A panel's border title cut to its name ("The cave: chests, …" -> "the cave")."""
    for stop in (" (", ":", " —"):
        title = title.split(stop, 1)[0]
    return title[:1].lower() + title[1:]


class ScrollHint(Static):
    """One line under a scrolling column, shown only while part of it is out of sight: what
    is hidden and the key that brings it ("▼ PgDn: the table, the cave"). A scroll bar alone
    went unnoticed: people did not know the table and the cave were there."""

    DEFAULT_CSS = """
    ScrollHint { height: 1; padding: 0 1; background: $boost; color: $warning; display: none; }
    """

    def __init__(self, target: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The id of the scrolling container this line speaks for.
        self.target = target

    def show_for(self, column: ScrollableContainer) -> None:
        """Say what of ``column`` is out of sight (or hide when everything is in sight)."""
        view = column.scrollable_content_region
        below: list[str] = []
        above: list[str] = []
        for child in column.children:
            if not child.display or not child.region:
                continue
            title = short_title(str(child.border_title or ""))
            if child.region.bottom > view.bottom and title:
                below.append(title)
            elif child.region.y < view.y and title:
                above.append(title)
        more_below = column.scroll_y < column.max_scroll_y
        more_above = column.scroll_y > 0
        parts = []
        if more_below:
            parts.append("▼ PgDn: " + (", ".join(below) if below else "more below"))
        if more_above:
            parts.append("▲ PgUp: " + (", ".join(above) if above else "more above"))
        self.update(" · ".join(parts))
        self.display = bool(parts)


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

    #: Keys that are the screen's own, not an option's: none of them is a letter or a digit,
    #: which the options use. Shown in the footer (``show=True``) and in the help.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("f1", "help", "Help", show=False),
        Binding("f3", "show_log", "Log", key_display="F3"),
        # Priority: the list of options (which has focus) would take them otherwise.
        Binding("pagedown", "scroll_board(1)", "Scroll", show=False, priority=True),
        Binding("pageup", "scroll_board(-1)", "Scroll", show=False, priority=True),
    ]

    #: The id of the column that scrolls when the terminal is small (PgUp/PgDn move it).
    BOARD_SCROLL: ClassVar[str] = ""

    #: The smallest terminal (columns, lines) the game is playable in without scrolling to
    #: the board or opening the whole log; None: the README's 80×24. Said on start when the
    #: terminal is smaller.
    MIN_SIZE: ClassVar[tuple[int, int] | None] = None

    def __init__(
        self, session: Session, *, bot_delay: float, window_s: float, assist: bool = False
    ) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = max(0.0, bot_delay)
        self.window_s = window_s
        #: Whether the game points out what a newcomer might miss (a game may offer none).
        self.assist = assist
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
        #: Every line written to the log, for the full-screen log (F3).
        self.log_lines: list[RenderableType] = []

    def game_over_reason(self) -> str:
        """Why the game ended, for the game-over panel (games may say more)."""
        return ""

    def game_over_notes(self) -> list[str]:
        """What the final table cannot show by itself (a bonus nobody got, and why)."""
        return []

    def breakdown_label(self, key: str) -> str:
        """A score breakdown key as the final table's column heading; a space may become a
        line break, so the table fits a small terminal."""
        return key.replace("_", " ")

    def help_sections(self) -> list[HelpSection]:
        """The game's keys and rules in short, for the help screen (before the common keys)."""
        return []

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
        """The human must decide (``decision`` is the view's); ``_run`` stops here. A range
        of options (the lamp race's reaction times) is written out one option at a time."""
        self.mode = Mode.CHOICE
        self.decision = {**decision, "options": expand_options(decision["options"])}

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

    def size_warning(self) -> str | None:
        """What to say when the terminal is smaller than ``MIN_SIZE`` (None when it is not)."""
        if self.MIN_SIZE is None:
            return None
        width, height = self.app.size
        min_w, min_h = self.MIN_SIZE
        if width >= min_w and height >= min_h:
            return None
        return (
            f"This terminal is {width}×{height}; {self.session.state.spec.name} is played best "
            f"at {min_w}×{min_h} or more (the whole board and the last events at once). "
            "Here PgDn/PgUp scroll the board and F3 shows the whole log."
        )

    def warn_if_small(self) -> None:
        """Say ``size_warning`` in the log and as a notice on screen."""
        warning = self.size_warning()
        if warning is not None:
            self.write_log(Text(warning, style="bold yellow"))
            self.notify(warning, severity="warning", timeout=10)

    def action_help(self) -> None:
        if isinstance(self.app.screen, HelpScreen):
            return
        sections = [*self.help_sections(), HelpSection("Keys on every screen", COMMON_KEYS)]
        self.app.push_screen(HelpScreen(f"Help — {self.session.state.spec.name}", sections))

    def action_show_log(self) -> None:
        if not isinstance(self.app.screen, LogScreen):
            self.app.push_screen(LogScreen(self.log_lines))

    def action_scroll_board(self, pages: int) -> None:
        column = self.board_column()
        if column is None:
            return
        if pages > 0:
            column.scroll_page_down()
        else:
            column.scroll_page_up()

    def board_column(self) -> ScrollableContainer | None:
        if not self.BOARD_SCROLL:
            return None
        return self.query_one(f"#{self.BOARD_SCROLL}", ScrollableContainer)

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
        game's panels and the log; the hints once the new layout is known."""
        view = self.session.view()
        self.refresh_decision(view)
        self.draw(view)
        self._write_log(view)
        self.call_after_refresh(self.refresh_hints)

    def on_mount(self) -> None:
        column = self.board_column()
        if column is not None:
            for attribute in ("scroll_y", "virtual_size"):
                self.watch(column, attribute, self._scrolled, init=False)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_hints)

    def _scrolled(self, _value: object) -> None:
        self.call_after_refresh(self.refresh_hints)

    def refresh_hints(self) -> None:
        """Say where content is cut: under the scrolling board, and on the log's border."""
        column = self.board_column()
        if column is not None:
            for hint in self.query(ScrollHint):
                if hint.target == column.id:
                    hint.show_for(column)
        log = self.query_one(RichLog)
        hidden = log.virtual_size.height > log.scrollable_content_region.height
        log.border_subtitle = "▲ F3: the whole log" if hidden else ""

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
        notices = self.session.notices[self._notices_seen :]
        lines: list[RenderableType] = [Text(n, style="bold yellow") for n in notices]
        self._notices_seen = len(self.session.notices)
        entries = view["log"]
        for event in entries[self._log_seen :]:
            try:
                line = self.describe_event(event)
            except (KeyError, TypeError, ValueError):  # an event shaped unlike we expect
                line = Text(str(event), style="dim")
            if line is not None:
                lines.append(line)
        self._log_seen = len(entries)
        self.write_log(*lines)

    def write_log(self, *lines: RenderableType) -> None:
        """Add lines to the log (and to what the full-screen log shows)."""
        log = self.query_one(RichLog)
        for line in lines:
            log.write(line)
            self.log_lines.append(line)


class LogScreen(ModalScreen[None]):
    """The whole log, full screen: on a small terminal the log panel shows a few lines."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f3", "dismiss", "Back to the game", key_display="Esc"),
    ]

    DEFAULT_CSS = """
    LogScreen { align: center middle; }
    LogScreen > RichLog {
        width: 100%; height: 100%; border: double $accent; background: $surface;
    }
    """

    def __init__(self, lines: Sequence[RenderableType]) -> None:
        super().__init__(id="whole-log")
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        yield RichLog(id="whole-log-text", wrap=True, markup=False, auto_scroll=True)

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        log.border_title = "The whole log"
        log.border_subtitle = "↑/↓ PgUp/PgDn scroll · Esc back"
        for line in self.lines:
            log.write(line)
        log.focus()  # its own keys scroll it


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
    #over-notes { margin-top: 1; height: auto; }
    #over-help { margin-top: 1; color: $text-muted; }
    """

    def __init__(
        self,
        session: Session,
        reason: str = "",
        notes: Sequence[str] = (),
        label: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(id="game-over")
        self.session = session
        self.reason = reason
        #: Lines under the table: what its columns cannot say (a tied majority, no bonus).
        self.notes = list(notes)
        self.label = label or (lambda key: key.replace("_", " "))

    def _solo_won(self) -> bool | None:
        """In a solo game, whether the lone player won: the game's own result (Djinn's solo
        game is won or lost against Tom), which a ranking of one cannot show; None when
        several play."""
        state = self.session.state
        if state.num_players != 1:
            return None
        return state.returns()[0] > 0.5

    def compose(self) -> ComposeResult:
        state = self.session.state
        ranks = state.ranking()
        title = Text("Game over. ", style="bold")
        won = self._solo_won()
        if won is not None:
            title.append("You win!" if won else "You lose.", style="bold yellow")
        else:
            title.append(winners_line(ranks, self.session.names), style="bold yellow")
        if self.reason:
            title.append(f"\n{self.reason}", style="dim")
        with Vertical(id="over-box"):
            yield Static(title, id="over-title")
            yield DataTable(id="over-table", cursor_type="row", zebra_stripes=True)
            if self.notes:
                yield Static(Text("\n".join(self.notes)), id="over-notes")
            yield Static("q = quit · Esc = look at the board", id="over-help")

    def on_mount(self) -> None:
        state = self.session.state
        scores = state.scores()
        ranks = state.ranking()
        columns = breakdown_columns(scores)
        table = self.query_one(DataTable)
        # Headings of two words stand on two lines: the table then fits in 80 columns.
        labels = {key: self.label(key).replace(" ", "\n", 1) for key in columns}
        table.header_height = max([1, *(label.count("\n") + 1 for label in labels.values())])
        won = self._solo_won()
        # A lone player always ranks first, and "1 You" under "Tom wins." read as a win:
        # a solo game's table says the result instead of a rank.
        if won is None:
            table.add_column("Rank", key="rank")
        else:
            table.add_column("Result", key="result")
        table.add_column("Player", key="player")
        for key in columns:
            table.add_column(labels[key], key=key)
        table.add_column("Total", key="total")
        for p in sorted(range(state.num_players), key=lambda q: (ranks[q], q)):
            table.add_row(
                str(ranks[p]) if won is None else ("won" if won else "lost"),
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
        assist: bool = False,
    ) -> None:
        """``assist`` starts the game with the screen's assist on (Magic Lamp: the lamp race
        points out shared faces); off by default, and the player may toggle it (F2)."""
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.window_s = window_s
        self.assist = assist
        self._screen_cls = screen or screen_class(session.state.spec.id)
        self.sub_title = session.state.spec.name

    def on_mount(self) -> None:
        self.push_screen(
            self._screen_cls(
                self.session,
                bot_delay=self.bot_delay,
                window_s=self.window_s,
                assist=self.assist,
            )
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
        screen = self.game_screen
        self.push_screen(
            GameOverScreen(
                self.session,
                screen.game_over_reason(),
                screen.game_over_notes(),
                screen.breakdown_label,
            )
        )

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
