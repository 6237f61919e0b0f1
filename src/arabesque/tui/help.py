"""The help screen (``?`` or F1 on any game screen): the keys, then the game's rules in short.

A game screen says what to show through ``GameScreen.help_sections``: a list of
``HelpSection`` (a heading and lines). The rules summaries are our own words, written for
someone who has never seen the box; the rulebooks stay the reference.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


@dataclass(frozen=True)
class HelpSection:
    """A heading and its body: key/meaning pairs (drawn as two columns) or plain lines."""

    heading: str
    keys: Sequence[tuple[str, str]] = ()
    lines: Sequence[str] = ()

    def render(self) -> RenderableType:
        parts: list[RenderableType] = [Text(self.heading, style="bold underline")]
        if self.keys:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(style="bold cyan", no_wrap=True)
            grid.add_column(ratio=1)
            for key, meaning in self.keys:
                grid.add_row(key, meaning)
            parts.append(grid)
        for line in self.lines:
            # A hanging bullet: the wrapped part of a rule lines up under its first word.
            bullet = Table.grid(padding=(0, 1))
            bullet.add_column(width=1, no_wrap=True)
            bullet.add_column(ratio=1)
            bullet.add_row("•", line)
            parts.append(bullet)
        parts.append(Text(""))
        return Group(*parts)


#: Keys every game screen has (a game adds its own before these).
COMMON_KEYS: tuple[tuple[str, str], ...] = (
    ("1-9, a-z", "pick the option shown next to that key (the list says which)"),
    ("↑ ↓  Enter", "move in the list of options and pick; a click picks too"),
    ("PgUp PgDn", "scroll the board when part of it is out of sight (a line says so)"),
    ("F3", "the whole log, full screen (Esc to come back)"),
    ("? or F1", "this help (Esc, ? or F1 to close it)"),
    ("q", "quit (asks first while the game runs)"),
)


class HelpScreen(ModalScreen[None]):
    """The keys and the rules in short; it scrolls when the terminal is small."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1", "dismiss", "Close help", key_display="Esc"),
        Binding("pagedown", "scroll(1)", "Scroll", show=False),
        Binding("pageup", "scroll(-1)", "Scroll", show=False),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-box {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: double $accent; background: $surface;
    }
    #help-body { height: auto; max-height: 100%; padding: 0 1; scrollbar-size-vertical: 1; }
    """

    def __init__(self, title: str, sections: Sequence[HelpSection]) -> None:
        super().__init__(id="help")
        self.help_title = title
        self.sections = list(sections)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"), VerticalScroll(id="help-body"):
            yield Static(Group(*(s.render() for s in self.sections)), id="help-text")

    def on_mount(self) -> None:
        box = self.query_one("#help-box")
        box.border_title = self.help_title
        box.border_subtitle = "Esc closes · PgUp/PgDn scroll"
        # The body scrolls with the keys even when nothing in it has focus.
        self.query_one("#help-body").focus()

    def action_scroll(self, pages: int) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        if pages > 0:
            body.scroll_page_down()
        else:
            body.scroll_page_up()

    def plain_text(self) -> str:
        """The help as plain text (tests read it whole, however little of it is in sight)."""
        console = Console(width=100, record=True, file=io.StringIO())
        for section in self.sections:
            console.print(section.render())
        return console.export_text()


__all__ = ["COMMON_KEYS", "HelpScreen", "HelpSection"]
