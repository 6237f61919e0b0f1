"""One decision panel for every game: it draws the seat's ``view["decision"]`` and picks.

The core gives every decision in one JSON shape (``Decision.to_json``): a prompt, the trail of
enclosing choices, and options with an action, a label and a canonical text, some of them
optional side actions. This panel draws that shape for any game: the trail, the prompt, what
the game adds under it (``Presentation.details``), then the options with a key each. The
player picks with the key, with the arrows and Enter, or with the mouse; the panel answers
with a ``DecisionPanel.Chosen`` message (a click or Enter) or through ``action_for`` (a key
the screen received), so the screen has one way to apply the human's choice.

Keys: a game's mnemonic keys first (a = accept a wish, p = pass...), always the same letter
for the same action; the other options get 1-9, then the letters nobody reserved. Options
beyond the last key are still reachable with the arrows, and the list scrolls; its border
says when some options are out of sight.

Rich renderables shared by the games' panels: ``FirstFit`` (a panel offers a few layouts,
widest first, and the one that fits the width it is drawn at is used), ``Rigid`` (a part that
must keep its natural width) and ``Flow`` (items that wrap between items, never inside one).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

#: Keys handed out to the options in order, after the game's mnemonics.
OPTION_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
#: Keys that never pick an option: q quits (the application's binding).
RESERVED = frozenset("q")

_SEAT = re.compile(r"\b[Pp]layer (\d+)\b")


def name_seats(text: str, names: Sequence[str]) -> str:
    """The core words seats as "player N" (it knows no names); at this table every seat
    has a name ("You", "Bot 1"), the one the rest of the screen uses."""

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return _SEAT.sub(named, text)


def assign_keys(
    texts: Sequence[str], mnemonics: Mapping[str, str], reserved: Collection[str] = RESERVED
) -> list[str | None]:
    """A key per option (given by canonical text, in the order listed): its mnemonic, or the
    next of ``OPTION_KEYS`` that is neither reserved nor any action's mnemonic (so a letter
    means the same thing in every decision); None once the keys run out."""
    taken = set(reserved) | set(mnemonics.values())
    free = iter(k for k in OPTION_KEYS if k not in taken)
    return [mnemonics[t] if t in mnemonics else next(free, None) for t in texts]


#: The width layouts are measured at, wide enough that nothing is cut while measuring.
_UNBOUNDED = 10_000


class Rigid:
    """A renderable that does not get narrower than its natural width: Rich measures a
    table of one-line cells by its longest word, so a table that must not wrap says so."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.renderable

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        natural = Measurement.get(console, options, self.renderable).maximum
        return Measurement(natural, natural)


class FirstFit:
    """The first of ``layouts`` whose narrowest rendering fits the width it is given (the
    last one when none does). A panel's width is known only when it is drawn, and words cut
    in the middle of a column ("sapphir│e") read worse than a plainer layout; wrap a part
    that must keep its natural width in ``Rigid``."""

    def __init__(self, *layouts: RenderableType) -> None:
        if not layouts:
            raise ValueError("FirstFit needs at least one layout")
        self.layouts = layouts

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        # Measured unbounded: Rich clamps a measurement to the width, which would always fit.
        wide = options.update_width(_UNBOUNDED)
        for layout in self.layouts[:-1]:
            if Measurement.get(console, wide, layout).minimum <= options.max_width:
                return layout
        return self.layouts[-1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.choose(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.choose(console, options))


class Flow:
    """Items laid out left to right, separated by ``sep``, wrapping only between items: a
    line break never parts a name from its number ("Bot 3 / gold 3"). Lines after the first
    are indented by ``indent`` cells. An item wider than the whole line wraps on its own."""

    def __init__(
        self, items: Sequence[Text], sep: str = " · ", indent: int = 2, head: Text | None = None
    ) -> None:
        self.items = [i for i in items if i.plain]
        self.sep = sep
        self.indent = indent
        #: Drawn first, followed by a space rather than the separator ("Bot 1: ").
        self.head = head

    def lines(self, width: int) -> list[Text]:
        out: list[Text] = []
        line = Text()
        if self.head is not None:
            line.append_text(self.head)
            line.append(" ")
        fresh = True  # nothing after the head yet: no separator before the first item
        for item in self.items:
            if not fresh and line.cell_len + len(self.sep) + item.cell_len > width:
                out.append(line)
                line = Text(" " * self.indent)
                fresh = True
            if not fresh:
                line.append(self.sep, style="dim")
            line.append_text(item)
            fresh = False
        if line.plain:
            out.append(line)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        head = 0 if self.head is None else self.head.cell_len + 1
        if not self.items:
            return Measurement(head, head)
        widest = max(i.cell_len for i in self.items) + self.indent
        total = head + sum(i.cell_len for i in self.items) + len(self.sep) * (len(self.items) - 1)
        return Measurement(min(max(widest, head), total), total)


@dataclass(frozen=True)
class Presentation:
    """What a game adds to the decision it shows; all of it optional."""

    #: Drawn above the prompt: what just happened that the decision follows (a race won).
    news: RenderableType | None = None
    #: Drawn under the prompt: the card drawn, the tiles shown, the rules that apply...
    details: RenderableType | None = None
    #: Action -> a few words after its label (what it would score, whose card it is...).
    notes: Mapping[int, str] = field(default_factory=dict)
    #: The actions in the order to list them (default: the decision's order).
    order: Sequence[int] | None = None
    #: False when the game takes the answer itself (a die set with two keys, a timed press):
    #: the panel then lists nothing and no key picks an option.
    list_options: bool = True
    #: Other ways to answer, appended to the help line (", or click a tile").
    hint: str = ""


@dataclass(frozen=True)
class Row:
    """One listed option."""

    action: int
    key: str | None
    label: str
    note: str = ""
    optional: bool = False

    def text(self) -> Text:
        """The label and the note, without the key."""
        text = Text(self.label, style="italic" if self.optional else "")
        if self.note:
            text.append(f" · {self.note}", style="dim")
        return text

    def prompt(self) -> Table:
        """The key in a column of its own, so a long label wraps under itself."""
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=1, style="bold")
        grid.add_column(ratio=1)
        grid.add_row(self.key or "", self.text())
        return grid


def rows_for(
    decision: Mapping[str, Any],
    present: Presentation,
    names: Sequence[str],
    mnemonics: Mapping[str, str],
) -> list[Row]:
    """The options as listed: main choices first, side actions after them, each keyed."""
    options = {int(o["action"]): o for o in decision["options"]}
    order = list(present.order) if present.order is not None else list(options)
    order += [a for a in options if a not in order]  # a game's order may leave some out
    order = [a for a in order if a in options]
    # Side actions go apart, after the main choice, in the same order.
    order.sort(key=lambda a: bool(options[a].get("optional")))
    keys = assign_keys([str(options[a].get("text", "")) for a in order], mnemonics)
    return [
        Row(
            action=a,
            key=key,
            label=name_seats(str(options[a]["label"]), names),
            note=present.notes.get(a, ""),
            optional=bool(options[a].get("optional")),
        )
        for a, key in zip(order, keys, strict=True)
    ]


def decision_head(
    decision: Mapping[str, Any], present: Presentation, rows: Sequence[Row], names: Sequence[str]
) -> Group:
    """The game's news, the trail, the prompt, the game's details and how to answer."""
    lines: list[RenderableType] = [] if present.news is None else [present.news]
    trail = [name_seats(str(t), names) for t in decision.get("trail") or []]
    if trail:
        lines.append(Text(" › ".join(trail) + " ›", style="dim"))
    lines.append(Text(name_seats(str(decision["prompt"]), names), style="bold"))
    if present.details is not None:
        lines.append(present.details)
    if present.list_options:
        ways = "the option's key, or ↑/↓ and Enter" if any(r.key for r in rows) else "↑/↓, Enter"
        unkeyed = sum(1 for r in rows if r.key is None)
        more = f" ({unkeyed} more below the last key: scroll)" if unkeyed else ""
        lines.append(Text(f"Choose: {ways}{present.hint}{more}", style="dim"))
    return Group(*lines)


class DecisionPanel(Vertical):
    """The human's current decision (or what the table is waiting for) and its options."""

    DEFAULT_CSS = """
    DecisionPanel { height: auto; }
    DecisionPanel > #prompt { border: round $warning; padding: 0 1; height: auto; }
    DecisionPanel > #choices {
        height: auto; max-height: 14; border: round $warning; scrollbar-size-vertical: 1;
    }
    /* A list that may scroll keeps room for its scroll bar, so wrapped labels fit. */
    DecisionPanel > #choices.-long { scrollbar-gutter: stable; }
    """

    #: From this many options on, the list may need to scroll.
    LONG: ClassVar[int] = 6

    #: The heading that sets side actions apart from the main choice.
    SIDE_HEADING: ClassVar[str] = "Also possible now:"

    class Chosen(Message):
        """The player picked ``action`` in the list (Enter or a click)."""

        def __init__(self, action: int) -> None:
            super().__init__()
            self.action = action

    def __init__(
        self,
        names: Sequence[str],
        mnemonics: Mapping[str, str] | None = None,
        *,
        title: str = "Your move",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.names = list(names)
        #: Canonical action text -> the key that always picks that action.
        self.mnemonics = dict(mnemonics or {})
        self.panel_title = title
        #: The options listed now, in order, and key -> action for them.
        self.rows: list[Row] = []
        self.keys: dict[str, int] = {}
        self._listed: tuple[Any, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="prompt")
        yield OptionList(id="choices")

    def on_mount(self) -> None:
        self.query_one("#prompt").border_title = self.panel_title
        choices = self.query_one(OptionList)
        choices.display = False
        for attribute in ("scroll_y", "virtual_size"):
            self.watch(choices, attribute, self._list_moved, init=False)

    def _list_moved(self, _value: object) -> None:
        self.call_after_refresh(self.refresh_hint)

    def refresh_hint(self) -> None:
        """Say on the list's border when options are out of sight, and which way."""
        choices = self.query_one(OptionList)
        parts = []
        if choices.scroll_y < choices.max_scroll_y:
            parts.append("▼ more below")
        if choices.scroll_y > 0:
            parts.append("▲ more above")
        choices.border_subtitle = " · ".join(parts) + " (↑/↓)" if parts else ""

    # -- what the panel shows -------------------------------------------------------------

    def show_text(self, body: RenderableType) -> None:
        """No decision of the human's: say what the table is doing (or that it is over)."""
        self.rows = []
        self.keys = {}
        self._listed = None
        self.query_one("#prompt", Static).update(body)
        self.query_one(OptionList).display = False

    def show_decision(self, decision: Mapping[str, Any], present: Presentation) -> None:
        """Draw ``decision`` (a view's ``decision``) as ``present`` says."""
        rows = (
            rows_for(decision, present, self.names, self.mnemonics) if present.list_options else []
        )
        self.rows = rows
        self.keys = {r.key: r.action for r in rows if r.key is not None}
        self.query_one("#prompt", Static).update(decision_head(decision, present, rows, self.names))
        choices = self.query_one(OptionList)
        choices.display = bool(rows)
        listed = (decision.get("kind"), decision.get("prompt"), tuple(rows))
        if not rows or listed == self._listed:
            return  # the same list: keep the player's place in it
        self._listed = listed
        choices.clear_options()
        choices.set_class(len(rows) >= self.LONG, "-long")
        side = False
        for row in rows:
            if row.optional and not side:
                side = True
                choices.add_options([None, Option(Text(self.SIDE_HEADING, "bold"), disabled=True)])
            choices.add_option(Option(row.prompt(), id=str(row.action)))
        choices.highlighted = 0
        self.call_after_refresh(choices.focus)
        self.call_after_refresh(self.refresh_hint)

    # -- picking ----------------------------------------------------------------------------

    def action_for(self, key: str) -> int | None:
        """The listed option ``key`` picks, if any."""
        return self.keys.get(key)

    def key_of(self, action: int) -> str | None:
        return next((r.key for r in self.rows if r.action == action), None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(int(event.option.id)))


__all__ = [
    "DecisionPanel",
    "FirstFit",
    "Flow",
    "Presentation",
    "Rigid",
    "Row",
    "assign_keys",
    "decision_head",
    "name_seats",
    "rows_for",
]
