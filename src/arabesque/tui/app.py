"""The Textual application shell shared by every game's screen.

A game plugs in by adding its screen class to ``GAME_SCREENS`` (``"module:Class"``, imported
on first use). The shell owns what every game needs: quitting with confirmation, the
game-over panel with scores, breakdown and ranking, and the session (state, seats, bots).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import DataTable, Static

from arabesque.core.scoring import Score
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


class GameScreen(Screen[None]):
    """Base of a game's main screen: it draws ``session.view()`` and drives the bots.

    ``advance`` is the one loop that moves the game on: a game's ``_run`` lets bots act
    (asking ``_may_act_now`` before each paced bot move) until the human must act, a bot delay
    is due, or the game ends; then the panels are redrawn.
    """

    def __init__(self, session: Session, *, bot_delay: float, window_s: float) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = max(0.0, bot_delay)
        self.window_s = window_s
        self._advancing = False
        self._ready = False  # the bot delay has passed: the next bot may act
        self._bot_timer: Timer | None = None
        self._next_delay = self.bot_delay  # a game may lengthen the next pause

    def game_over_reason(self) -> str:
        """Why the game ended, for the game-over panel (games may say more)."""
        return ""

    # -- driving the game ------------------------------------------------------------------

    def advance(self) -> None:
        """Let bots act until the human must act, a bot delay is due, or the game ends.

        Every engine call runs here or in a key handler, on the UI thread, one at a time.
        """
        if self._advancing:
            return
        self._advancing = True
        try:
            self._run()
        finally:
            self._advancing = False
        self.refresh_panels()
        if self.session.is_over:
            self.app.call_later(self._show_game_over)

    def _run(self) -> None:
        """Move the game on as far as it may go now (see ``advance``)."""
        raise NotImplementedError

    def refresh_panels(self) -> None:
        """Redraw what changed."""
        raise NotImplementedError

    def _waiting_for_bot(self) -> None:
        """Called when a bot move waits for its delay (a game may show a waiting state)."""

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

    def _show_game_over(self) -> None:
        show = getattr(self.app, "show_game_over", None)
        if callable(show):
            show()


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
