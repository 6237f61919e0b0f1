"""``arabesque replay --step FILE``: step through a game record in the terminal.

One screen: the board after the current step, drawn by the game's own renderers from the
spectator's view (a replay viewer is a spectator: no hand or face-down card is shown, even
though the record holds them all), the step and its events in words, the scores so far,
and the log of the steps before. → / space / n go forward, ← / b back, PgDn / PgUp ten
steps, Home / End to the setup and the end, h shows a hint for the seat (or seats) deciding
after the step (agents/hint.py: the ``hard`` search bot's best options, from what that seat
knows; worked out in a thread, kept per step), q (or Ctrl+C, Ctrl+Q, Esc) quits.

Every frame is computed once when the app starts (``sim.replay.replay_frames``), so moving
back is as quick as moving forward.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, RichLog, Static

from arabesque.agents.base import Observation
from arabesque.agents.hint import DEFAULT_LEVEL, hint
from arabesque.core.records import GameRecord
from arabesque.core.registry import get_game
from arabesque.sim.replay import (
    ReplayFrame,
    event_describer,
    replay_frames,
    result_words,
    seat_name,
    state_after,
    step_title,
)

#: The log keeps the lines of this many steps at most when it is redrawn (after a jump or a
#: step back): enough to read the turn, without rewriting a whole game on every key.
LOG_STEPS = 120

BoardRenderer = Callable[[ReplayFrame], RenderableType]


def _magic_lamp_board(frame: ReplayFrame) -> RenderableType:
    render = importlib.import_module("arabesque.tui.magic_lamp.render")
    return Group(render.table_panel(frame.view, seat_name), Text(), render.cave_panel(frame.view))


def _ali_baba_board(frame: ReplayFrame) -> RenderableType:
    render = importlib.import_module("arabesque.tui.ali_baba.render")
    # The tiles this step flipped are marked, as the game screen marks a turn's flips.
    recent = {
        int(tile["id"])
        for event in frame.step.events
        if event.get("kind") == "flip"
        for tile in event.get("tiles") or []
    }
    picture = render.draw_board(frame.view, render.BoardMarks(recent=recent))
    return Group(
        picture.text,
        render.cave_info(frame.view, seat_name),
        Text(),
        render.players_table(frame.view, seat_name),
    )


def _djinn_board(frame: ReplayFrame) -> RenderableType:
    render = importlib.import_module("arabesque.tui.djinn.render")
    board: RenderableType = render.map_panel(frame.view, seat_name)
    return board


#: Game id -> how its board is drawn from a spectator's view. A game without one still
#: steps through, with its log and scores.
BOARDS: dict[str, BoardRenderer] = {
    "magic-lamp": _magic_lamp_board,
    "ali-baba": _ali_baba_board,
    "djinn": _djinn_board,
}


def scores_table(frame: ReplayFrame) -> Table:
    """Rank, player, score and breakdown after the frame's step, best first."""
    title = "Final scores" if frame.is_over else "Scores so far"
    table = Table(title=title, title_justify="left", show_edge=False, box=None, pad_edge=False)
    for column in ("#", "Player", "Score", "Breakdown"):
        table.add_column(column, justify="right" if column in ("#", "Score") else "left")
    for seat in sorted(range(len(frame.scores)), key=lambda p: (frame.ranking[p], p)):
        score = frame.scores[seat]
        parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in score.breakdown.items() if v)
        table.add_row(str(frame.ranking[seat]), seat_name(seat), str(score.total), parts)
    return table


def hint_words(record: GameRecord, step: int, level: str = DEFAULT_LEVEL) -> Text:
    """The hint after ``step`` for each seat deciding then (several in a secret simultaneous
    phase), in words; each from what its seat knows."""
    state = state_after(record, step)
    acting = sorted(state.to_act())
    if not acting:
        return Text("Nobody decides after this step: no hint.", style="dim")
    text = Text()
    explanations: list[str] = []
    for seat in acting:
        found = hint(Observation(state, seat), level=level)
        title, *options, explanation = found.lines(seat_name(seat))
        text.append(title + "\n", style="bold")
        for line in options:
            text.append(line + "\n")
        if explanation not in explanations:
            explanations.append(explanation)
    text.append("\n".join(explanations), style="dim")
    return text


class ReplayApp(App[int]):
    """Step through one record; ``position`` is the step shown (0 = the setup)."""

    TITLE = "Arabesque replay"
    ENABLE_COMMAND_PALETTE = False
    # Priority: the log scrolls with the same keys when it has the focus; here they move
    # through the game.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "go(1)", "Next", key_display="→", priority=True),
        Binding("left,b,p", "go(-1)", "Back", key_display="←", priority=True),
        Binding("pagedown", "go(10)", "+10", key_display="PgDn", priority=True),
        Binding("pageup", "go(-10)", "-10", key_display="PgUp", priority=True),
        Binding("home", "go_to(0)", "Setup", priority=True),
        Binding("end", "go_to(-1)", "End", priority=True),
        Binding("h", "hint", "Hint", priority=True),
        Binding("q,escape", "quit", "Quit", priority=True),
    ]
    DEFAULT_CSS = """
    #header { height: auto; padding: 0 1; background: $boost; }
    #body { height: 1fr; }
    #board-col { width: 3fr; }
    #side { width: 2fr; min-width: 40; }
    #step { height: auto; max-height: 50%; border: round $accent; padding: 0 1; }
    #hint { height: auto; border: round $success; padding: 0 1; display: none; }
    #hint.-shown { display: block; }
    #scores { height: auto; border: round $primary-darken-1; padding: 0 1; }
    #log { height: 1fr; border: round $primary-darken-1; }
    #board { padding: 0 1; }
    /* Narrow terminals: the step and a short log on top, the board (whose tables carry
       the scores) below it, as wide as the terminal. */
    Screen.-narrow #side { dock: top; width: 100%; height: auto; min-width: 0; }
    Screen.-narrow #step { max-height: 7; }
    Screen.-narrow #hint { max-height: 12; }
    Screen.-narrow #scores { display: none; }
    Screen.-narrow #log { height: 5; }
    Screen.-narrow #board-col { width: 100%; }
    """

    #: Below this many columns the panels stack: a game's board needs the whole width.
    NARROW = 150

    def __init__(
        self,
        record: GameRecord,
        title: str = "",
        frames: Sequence[ReplayFrame] | None = None,
        hint_level: str = DEFAULT_LEVEL,
    ) -> None:
        """``frames`` are computed from the record unless given; a record that does not
        replay raises ``RecordError`` here, before anything is drawn. ``hint_level``: the
        search level whose options a hint shows (tests use a small one)."""
        super().__init__()
        self.hint_level = hint_level
        #: Step -> the hint's words, once worked out.
        self.hints: dict[int, Text] = {}
        self.record = record
        self.frames = list(replay_frames(record) if frames is None else frames)
        self.spec = get_game(record.game)
        self.sub_title = title or self.spec.name
        self.position = 0
        self._words = event_describer(self.spec.id)
        self._board = BOARDS.get(self.spec.id)
        self._shown = -1  # the last step written to the log
        self._lines = [self._step_lines(frame) for frame in self.frames]

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    @property
    def frame(self) -> ReplayFrame:
        return self.frames[self.position]

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="body"):
            with VerticalScroll(id="board-col"):
                yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="step")
                yield Static(id="hint")
                yield Static(id="scores")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#step").border_title = "This step"
        self.query_one("#hint").border_title = "Hint"
        self.query_one("#log").border_title = "Log"
        self.query_one("#board-col").border_title = "Board"
        self.query_one(RichLog).can_focus = False
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self.screen.set_class(event.size.width < self.NARROW, "-narrow")

    # -- moving ----------------------------------------------------------------------------

    def action_go(self, delta: int) -> None:
        self.action_go_to(min(self.last, max(0, self.position + delta)))

    def action_go_to(self, position: int) -> None:
        target = self.last if position < 0 else min(position, self.last)
        if target != self.position:
            self.position = target
            self._draw()

    def action_hint(self) -> None:
        """Show the hint for the seats deciding after the current step (worked out once)."""
        position = self.position
        panel = self.query_one("#hint", Static)
        panel.add_class("-shown")
        if position in self.hints:
            panel.update(self.hints[position])
            return
        panel.update(Text("Thinking…", style="dim"))
        self._work_out_hint(position)

    @work(thread=True, exclusive=True)
    def _work_out_hint(self, position: int) -> None:
        words = hint_words(self.record, position, self.hint_level)
        self.call_from_thread(self._hint_ready, position, words)

    def _hint_ready(self, position: int, words: Text) -> None:
        self.hints[position] = words
        if position == self.position:
            self.query_one("#hint", Static).update(words)

    def action_help_quit(self) -> None:
        # Textual's Ctrl+C only says to press Ctrl+Q; a replay has nothing to lose, so it
        # quits like q.
        self.exit(0)

    async def action_quit(self) -> None:
        self.exit(0)

    # -- drawing ---------------------------------------------------------------------------

    def _step_lines(self, frame: ReplayFrame) -> list[Text]:
        """The step's title and its events in words."""
        lines = [Text(step_title(frame.step, self.spec.id), style="bold")]
        for event in frame.step.events:
            line = self._words(event)
            if line is not None:
                lines.append(Text("  ") + line)
        return lines

    def _draw(self) -> None:
        frame = self.frame
        header = Text(f"{self.spec.name}", style="bold")
        header.append(f"  ·  step {self.position} of {self.last}")
        if self.position == self.last:
            header.append("  ·  " + self._end_words(), style="bold yellow")
        self.query_one("#header", Static).update(header)
        step_words: list[RenderableType] = list(self._lines[self.position])
        if len(step_words) == 1 and self.position:
            step_words.append(Text("  (nothing anyone can see happened)", style="dim"))
        self.query_one("#step", Static).update(Group(*step_words))
        # A hint belongs to its step: asked for again (h) at another.
        self.query_one("#hint", Static).remove_class("-shown")
        self.query_one("#scores", Static).update(scores_table(frame))
        self.query_one("#board", Static).update(self._board_picture(frame))
        self._write_log()

    def _end_words(self) -> str:
        final = self.frames[-1]
        if not final.is_over:
            return "the record ends here, before the end of the game"
        return "game over: " + result_words(final.scores, final.ranking, True, self.last)

    def _board_picture(self, frame: ReplayFrame) -> RenderableType:
        if self._board is None:
            return Text(f"({self.spec.name} has no board drawing yet: see the log)", style="dim")
        try:
            return self._board(frame)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            # A view shaped unlike the renderer expects must not end the replay.
            return Text(f"(the board cannot be drawn at this step: {exc!r})", style="dim")

    def _write_log(self) -> None:
        """The steps up to the current one. Going forward by one appends that step; any
        other move redraws the last ``LOG_STEPS`` steps."""
        log = self.query_one(RichLog)
        if self.position == self._shown + 1:
            steps = [self.position]
        else:
            log.clear()
            steps = list(range(max(0, self.position - LOG_STEPS + 1), self.position + 1))
        for step in steps:
            for line in self._lines[step]:
                log.write(line)
        self._shown = self.position
