"""The Ali Baba terminal screen: the pyramid, your screen, the table, the log, your moves.

It draws only ``session.view()`` (the human's view), offers only the human's legal actions
(as a list, as keys, and as clickable tiles on the board) and applies through the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from arabesque.tui.ali_baba.events import (
    VARIANT_NAMES,
    and_list,
    describe_event,
    effect_words,
    plural,
    plural_word,
)
from arabesque.tui.ali_baba.render import (
    LEGEND,
    BoardMarks,
    aside_row,
    cave_info,
    draw_board,
    forbidden,
    lamp_cost,
    my_screen,
    option_keys,
    option_label,
    players_table,
    tie_break_note,
)
from arabesque.tui.app import GameScreen
from arabesque.tui.session import Session


class Mode(StrEnum):
    WAIT = "wait"  # bots are acting, or nothing is asked of the human
    CHOICE = "choice"  # a decision from the list of legal actions
    OVER = "over"


#: Verbs of the actions that name a tile, longest first ("also take" before "take").
TILE_VERBS = ("also take ", "swap for ", "take ", "show ", "steal ")

WAITING: dict[str, str] = {
    "take": "taking a face-up tile",
    "lamp": "keeping the lamp or swapping it",
    "effect": "deciding on the {colour} effect",
    "show": "choosing a tile to show",
    "steal": "taking one of the shown tiles",
}


class CaveBoard(Static):
    """The pyramid seen from above; a click on a tile you may take takes it."""

    class Clicked(Message):
        def __init__(self, place: int) -> None:
            super().__init__()
            self.place = place

    cells: list[list[int]]

    def on_mount(self) -> None:
        self.cells = []

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        x, y = offset
        if 0 <= y < len(self.cells) and 0 <= x < len(self.cells[y]) and self.cells[y][x] >= 0:
            self.post_message(self.Clicked(self.cells[y][x]))


class AliBabaScreen(GameScreen):
    DEFAULT_CSS = """
    AliBabaScreen { layout: vertical; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #body { height: 1fr; layout: horizontal; }
    #left { width: 66; scrollbar-size-vertical: 1; }
    #right { width: 1fr; min-width: 36; }
    .panel { border: round $primary-darken-1; padding: 0 1; height: auto; }
    #cave { width: auto; border: round $accent; padding: 0 1; height: auto; }
    #cave-info { height: auto; padding: 0 1; }
    #mine { border: round $accent; }
    #prompt { border: round $warning; padding: 0 1; height: auto; }
    #choices {
        height: auto; max-height: 16; border: round $warning;
        scrollbar-size-vertical: 1;
    }
    /* A list that may scroll keeps room for its scroll bar, so wrapped labels fit. */
    #choices.-long { scrollbar-gutter: stable; }
    #players { height: auto; }
    #log { height: 1fr; min-height: 6; border: round $primary-darken-1; }
    #players-narrow { display: none; }
    /* Narrow terminals: your move and a short log stay at the bottom; the cave, your screen
       and the table scroll above them. */
    AliBabaScreen.-narrow #body { layout: vertical; }
    AliBabaScreen.-narrow #right { dock: bottom; width: 100%; height: auto; max-height: 60%; }
    AliBabaScreen.-narrow #left { width: 100%; height: 1fr; }
    AliBabaScreen.-narrow #players { display: none; }
    AliBabaScreen.-narrow #players-narrow { display: block; }
    AliBabaScreen.-narrow #log { height: 5; min-height: 3; }
    AliBabaScreen.-narrow #choices { max-height: 9; }
    """

    #: Below this many columns the panels stack instead of standing side by side.
    NARROW = 96
    #: Below this many columns the tiles are drawn narrower.
    SMALL_TILES = 130

    def __init__(self, session: Session, *, bot_delay: float, window_s: float) -> None:
        super().__init__(session, bot_delay=bot_delay, window_s=window_s)
        self.mode = Mode.WAIT
        self._log_seen = 0
        self._takes_seen = 0
        self._notices_seen = 0
        self._choice_key: tuple[Any, ...] | None = None
        #: The human's options now: key -> action, and tile id -> action for the board.
        self.keys: dict[str, int] = {}
        self.tile_actions: dict[int, int] = {}
        self._tile_keys: dict[int, str] = {}
        self._drawn: dict[str, Any] = {}
        self._half_w = 6

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Container(id="body"):
            with VerticalScroll(id="left"):
                yield CaveBoard(id="cave")
                yield Static(id="cave-info")
                yield Static(id="mine", classes="panel")
                yield Static(id="players-narrow", classes="panel")
            with Vertical(id="right"):
                yield Static(id="prompt")
                yield OptionList(id="choices")
                yield Static(id="players", classes="panel")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        view = s.view()
        removed = view.get("removed_kinds") or []
        title = "The cave"
        if removed:
            title += " — no " + and_list([plural_word(k) for k in removed])
        self.query_one("#cave").border_title = title
        self.query_one("#cave").border_subtitle = "L4 = top · ░ face down"
        self.query_one("#mine").border_title = "Your screen" if s.human is not None else "Spectator"
        bots = sorted({s.agent_label(p) for p in s.agents})
        for panel in ("#players", "#players-narrow"):
            self.query_one(panel).border_title = "The table" + (
                f" (bots: {', '.join(bots)})" if bots else ""
            )
        self.query_one("#prompt").border_title = "Your move" if s.human is not None else "Now"
        self.query_one("#log").border_title = "Log"
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        self.set_class(width < self.NARROW, "-narrow")
        half_w = 6 if width >= self.SMALL_TILES else 5
        if half_w != self._half_w:
            self._half_w = half_w
            self.refresh_panels()
        left = self.query_one("#left")
        if width >= self.NARROW:
            # As wide as the pyramid (its border and padding, and a thin scroll bar).
            cols = self.session.view()["board"]["layers"][0]["cols"]
            left.styles.width = cols * 2 * half_w + 5
        else:
            left.styles.width = None  # the stacked layout's CSS width applies

    # -- driving the game ------------------------------------------------------------------

    def _run(self) -> None:
        s = self.session
        while True:
            if s.is_over:
                self.mode = Mode.OVER
                return
            bots = s.bots_to_act()
            if s.human_to_act():
                if bots:
                    # Showing to a yellow effect is simultaneous: the bots choose at once and
                    # the engine keeps their choices hidden until everyone has chosen.
                    for seat in bots:
                        s.bot_act(seat)
                    continue
                self._enter_choice()
                return
            self.mode = Mode.WAIT
            if not bots or not self._may_act_now():
                return
            if len(bots) > 1:  # several bots show at once
                for seat in bots:
                    s.bot_act(seat)
            else:
                s.bot_act(bots[0])
            self._acted()

    def _human_apply(self, action: int) -> None:
        if self.mode is not Mode.CHOICE or action not in self.session.human_legal():
            return
        self.session.apply_human(action)
        self._ready = False
        self.mode = Mode.WAIT
        self.keys = {}
        self.tile_actions = {}
        self._tile_keys = {}
        self.advance()

    def game_over_reason(self) -> str:
        view = self.session.view()
        reason = ""
        for event in reversed(view["log"]):
            if event.get("kind") == "game_end":
                reason = str(event.get("reason", "")).capitalize() + "."
                break
        note = tie_break_note(view, self.session.name)
        return f"{reason} {note}".strip()

    # -- decisions -------------------------------------------------------------------------

    def _enter_choice(self) -> None:
        self.mode = Mode.CHOICE
        s = self.session
        state = s.state
        view = s.view()
        # A new decision: another turn, phase, something logged, or other options.
        key = (view["turn"], view["phase"], len(view["log"]), tuple(s.human_legal()))
        if self._choice_key == key:
            return
        self._choice_key = key
        tile_ids = self._tile_ids(view)
        named: list[tuple[int, str, int | None]] = []  # (action, text, tile id)
        for action in s.human_legal():
            text = state.action_to_str(action)
            verb = next((v for v in TILE_VERBS if text.startswith(v)), None)
            tile_id = tile_ids.get(text[len(verb) :]) if verb else None
            named.append((action, text, tile_id))
        named.sort(key=lambda item: self._option_order(view, item[1], item[2]))
        keys = option_keys([text for _, text, _ in named])
        self.keys = {}
        self.tile_actions = {}
        self._tile_keys = {}
        options = self.query_one(OptionList)
        options.clear_options()
        for (action, text, tile_id), k in zip(named, keys, strict=True):
            if k is not None:
                self.keys[k] = action
            if tile_id is not None:
                self.tile_actions[tile_id] = action
                if k is not None:
                    self._tile_keys[tile_id] = k
            label = Text(f"{k}  " if k else "   ", style="bold")
            label.append(option_label(text, view, s.name))
            options.add_option(Option(label, id=str(action)))
        options.set_class(len(named) > 5, "-long")
        options.highlighted = 0
        self.call_after_refresh(options.focus)

    @staticmethod
    def _option_order(view: Mapping[str, Any], text: str, tile_id: int | None) -> tuple[Any, ...]:
        """Keep the lamp / use yellow first, pass last; tiles in the order they are drawn
        (the board row by row, the set-aside row left to right), the rest as the engine lists
        them (kinds, then colours; tiles by kind)."""
        if text in ("keep lamp", "use yellow"):
            return (0,)
        if text == "pass":
            return (3,)
        if text.startswith("steal "):
            for seat, tile in (view.get("shown") or {}).items():
                if tile["id"] == tile_id:
                    return (1, 2, int(seat))
        if tile_id is not None:
            for place in view["board"]["places"]:
                if place["state"] == "face_up" and place["tile"]["id"] == tile_id:
                    return (1, 0, place["top"], place["left"])
            for i, tile in enumerate(view.get("aside") or []):
                if tile["id"] == tile_id:
                    return (1, 1, i, 0)
        return (2,)

    @staticmethod
    def _tile_ids(view: Mapping[str, Any]) -> dict[str, int]:
        """Tile name -> id for every tile this view shows."""
        out: dict[str, int] = {}
        pools: list[Sequence[Mapping[str, Any]]] = [
            [p["tile"] for p in view["board"]["places"] if p["state"] == "face_up"],
            view.get("aside") or [],
            list((view.get("shown") or {}).values()),
        ]
        pools.extend(p.get("tiles") or [] for p in view["players"])
        for pool in pools:
            for tile in pool:
                out[str(tile["name"])] = int(tile["id"])
        return out

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.mode is not Mode.CHOICE or event.option.id is None:
            return
        self._human_apply(int(event.option.id))

    def on_cave_board_clicked(self, message: CaveBoard.Clicked) -> None:
        if self.mode is not Mode.CHOICE:
            return
        place = self.session.view()["board"]["places"][message.place]
        if place["state"] != "face_up":
            return
        action = self.tile_actions.get(int(place["tile"]["id"]))
        if action is not None and self.session.state.action_to_str(action).startswith(
            ("take ", "also take ")
        ):
            self._human_apply(action)

    def on_key(self, event: events.Key) -> None:
        key = event.key
        handled = True
        if self.mode is Mode.CHOICE and key in self.keys:
            self._human_apply(self.keys[key])
        elif self.mode is Mode.OVER and key == "enter":
            self._show_game_over()
        else:
            handled = False
        if handled:
            event.stop()
            event.prevent_default()

    # -- drawing ---------------------------------------------------------------------------

    def refresh_panels(self) -> None:
        """Redraw what changed. Each panel is keyed on the part of the view it shows, so an
        unchanged panel is left alone (no layout pass for it)."""
        view = self.session.view()
        name = self.session.name
        players = tuple(
            (p["count"], p["track"], tuple(t["id"] for t in p["tiles"])) for p in view["players"]
        )
        current = (view["turn"], view["current"], view["is_over"], view["last_turn"])
        self._update(
            "status", (current, view["face_down"], self.mode), lambda: self._status_text(view)
        )
        marks = BoardMarks(
            seat=view.get("seat"),
            keys=dict(self._tile_keys) if self._board_keys_apply() else {},
            recent=self._recent_flips(view),
        )
        board_key = (
            tuple((p["state"], p.get("tile", {}).get("id")) for p in view["board"]["places"]),
            tuple((b["by"], b["type"], b["what"]) for b in view["blocks"]),
            tuple(sorted(marks.keys.items())),
            tuple(sorted(marks.recent)),
            self._half_w,
        )
        if self._drawn.get("cave") != board_key:
            self._drawn["cave"] = board_key
            picture = draw_board(view, marks, half_w=self._half_w)
            board = self.query_one(CaveBoard)
            board.cells = picture.cells
            board.update(picture.text)
        info_key = (
            current,
            view["face_down"],
            view["in_box"],
            board_key[1],
            tuple(t["id"] for t in view["aside"]),
            tuple(sorted(self._aside_keys(view).items())),
        )
        self._update("cave-info", info_key, lambda: self._cave_info(view))
        self._update("mine", players, lambda: my_screen(view))
        self._update("players", (players, current), lambda: players_table(view, name))
        self._update("players-narrow", (players, current), lambda: players_table(view, name))
        self._write_log(view)
        self.query_one(OptionList).display = self.mode is Mode.CHOICE
        prompt_key = (
            self.mode,
            current,
            view["phase"],
            tuple(view["to_act"]),
            str(view.get("showing")),
            self._choice_key,
        )
        self._update("prompt", prompt_key, lambda: self._prompt(view))

    def _aside_keys(self, view: Mapping[str, Any]) -> dict[int, str]:
        return self._tile_keys if view["phase"] == "lamp" and self.mode is Mode.CHOICE else {}

    def _board_keys_apply(self) -> bool:
        if self.mode is not Mode.CHOICE:
            return False
        return any(
            self.session.state.action_to_str(a).startswith(("take ", "also take "))
            for a in self.tile_actions.values()
        )

    def _cave_info(self, view: Mapping[str, Any]) -> RenderableType:
        parts: list[RenderableType] = [cave_info(view, self.session.name)]
        aside = aside_row(view, self._aside_keys(view))
        if aside is not None:
            parts.append(aside)
        parts.append(Text(LEGEND, style="dim"))
        return Group(*parts)

    def _recent_flips(self, view: Mapping[str, Any]) -> set[int]:
        """Tiles flipped since the human's last take (the last turn's, for a spectator)."""
        seat = view.get("seat")
        out: set[int] = set()
        for event in reversed(view["log"]):
            kind = event.get("kind")
            if kind == "flip":
                out.update(int(t["id"]) for t in event.get("tiles") or [])
            elif kind == "take" and (seat is None or event.get("player") == seat):
                break
        return out

    def _update(self, widget_id: str, key: Any, make: Callable[[], RenderableType]) -> None:
        """Redraw a panel only when the part of the view it shows has changed."""
        if self._drawn.get(widget_id) == key:
            return
        self._drawn[widget_id] = key
        self.query_one(f"#{widget_id}", Static).update(make())

    def _write_log(self, view: Mapping[str, Any]) -> None:
        log = self.query_one(RichLog)
        name = self.session.name
        for notice in self.session.notices[self._notices_seen :]:
            log.write(Text(notice, style="bold yellow"))
        self._notices_seen = len(self.session.notices)
        entries = view["log"]
        has_turns = any(e.get("kind") == "turn" for e in entries)
        for event in entries[self._log_seen :]:
            if event.get("kind") == "take" and not has_turns:
                self._takes_seen += 1
                log.write(
                    Text(f"── Turn {self._takes_seen}: {name(event.get('player'))} ──", "bold")
                )
            try:
                line = describe_event(event, name)
            except (KeyError, TypeError, ValueError):  # an event shaped unlike we expect
                line = Text(str(event), style="dim")
            if line is not None:
                log.write(line)
        self._log_seen = len(entries)

    def _status_text(self, view: Mapping[str, Any]) -> Text:
        s = self.session
        text = Text(f"{s.state.spec.name}", style="bold")
        variant = str(view.get("variant", "standard"))
        if variant != "standard":
            text.append(f" ({VARIANT_NAMES.get(variant, variant)})")
        text.append(f"  ·  Turn {view['turn']} (round {view['round']})")
        text.append(f"  ·  {view['face_down']} face down")
        if s.human is None:
            text.append("  ·  watching bots", style="dim")
        if view["is_over"]:
            text.append("  ·  GAME OVER", style="bold red")
        elif view.get("last_turn") is not None:
            left = int(view["last_turn"]) - int(view["turn"]) + 1
            text.append(f"  ·  final round: {plural(left, 'turn')} left", style="bold red")
        elif view.get("current") is not None:
            text.append(f"  ·  {s.name(view['current'])} to play")
        text.append("  ·  q quits", style="dim")
        return text

    # -- the prompt --------------------------------------------------------------------------

    def _prompt(self, view: Mapping[str, Any]) -> RenderableType:
        if self.mode is Mode.OVER:
            return Group(
                Text("The game is over.", style="bold"),
                Text("Enter = final scores · q = quit", style="dim"),
            )
        if self.mode is Mode.CHOICE:
            return self._decision_prompt(view)
        return Text(self._waiting_text(view), style="dim")

    def _effect_colour(self, view: Mapping[str, Any]) -> str:
        turn = view.get("this_turn") or {}
        tile = turn.get("effect_tile") or turn.get("taken") or {}
        return str(tile.get("colour", ""))

    def _thief(self, view: Mapping[str, Any]) -> int | None:
        for event in reversed(view["log"]):
            if event.get("kind") == "yellow":
                player = event.get("player")
                return int(player) if isinstance(player, int) else None
        return None

    def _waiting_text(self, view: Mapping[str, Any]) -> str:
        waiting = [p for p in view["to_act"] if p != self.session.human]
        if not waiting:
            return "…"
        who = and_list([self.session.name(p) for p in waiting])
        phase = str(view["phase"])
        what = WAITING.get(phase, phase).format(colour=self._effect_colour(view))
        if phase == "show":
            mine = (view.get("showing") or {}).get("mine")
            thief = self.session.name(self._thief(view))
            lead = f"{thief} used the yellow effect. "
            if mine:
                lead += f"You show the {mine['name']} (secret until all have chosen). "
            return f"{lead}Waiting for {who} to choose a tile to show…"
        return f"Waiting for {who}: {what}…"

    def _decision_prompt(self, view: Mapping[str, Any]) -> RenderableType:
        s = self.session
        phase = str(view["phase"])
        turn = view.get("this_turn") or {}
        lines: list[RenderableType] = []
        if phase == "take":
            lines.append(Text(f"Your turn {view['turn']}: take a face-up tile.", style="bold"))
            blocked = [
                p["tile"]
                for p in view["board"]["places"]
                if p["state"] == "face_up" and forbidden(view, p["tile"], view.get("seat"))
            ]
            up = sum(1 for p in view["board"]["places"] if p["state"] == "face_up")
            if blocked and len(blocked) == up:
                lines.append(
                    Text(
                        "Every face-up tile is forbidden to you, so you may take any of them "
                        "(rulebook, white effect note).",
                        style="yellow",
                    )
                )
        elif phase == "lamp":
            lamp = turn.get("taken") or {}
            colour = str(lamp.get("colour", ""))
            lines.append(
                Text(
                    f"You took the {lamp.get('name', 'lamp')}: keep it and use its own effect "
                    f"({colour}: {effect_words(colour, str(lamp.get('effect', '')))}), or swap "
                    "it for a tile set aside and use that tile's effect instead.",
                    style="bold",
                )
            )
            lines.append(Text(lamp_cost(view), style="dim"))
        elif phase == "effect":
            colour = self._effect_colour(view)
            if colour == "green":
                lines.append(
                    Text(
                        f"Green effect: you may also take a face-up tile next to where the "
                        f"{turn.get('taken', {}).get('name', 'tile')} lay ({turn.get('place')}). "
                        "Its own effect is not used.",
                        style="bold",
                    )
                )
            elif colour == "white":
                lines.append(
                    Text(
                        "White effect: forbid a kind of treasure or a colour. Until your next "
                        "turn the others cannot take such tiles from the cave.",
                        style="bold",
                    )
                )
            elif colour == "yellow":
                others = [
                    s.name(p["seat"])
                    for p in view["players"]
                    if p["seat"] != view.get("seat") and p["count"]
                ]
                lines.append(
                    Text(
                        f"Yellow effect: {and_list(others)} must each show you one of their "
                        "tiles, and you take one of the shown tiles. Use it?",
                        style="bold",
                    )
                )
            else:
                lines.append(Text(f"The {colour} effect:", style="bold"))
        elif phase == "show":
            thief = s.name(self._thief(view))
            lines.append(
                Text(
                    f"{thief} used the yellow effect: choose one of your tiles to show. "
                    f"{thief} takes one of the shown tiles; the others come back to you.",
                    style="bold yellow",
                )
            )
            lines.append(
                Text("Everyone chooses in secret; the tiles are shown together.", style="dim")
            )
        elif phase == "steal":
            shown = view.get("shown") or {}
            parts = [f"{s.name(int(p))}: {t['name']}" for p, t in sorted(shown.items())]
            lines.append(
                Text(
                    f"Shown to you: {'; '.join(parts)}. Take one of them behind your screen.",
                    style="bold yellow",
                )
            )
        lines.append(
            Text(
                "↑/↓ + Enter, the option's key"
                + (
                    ", or click a tile"
                    if phase in ("take", "effect") and self._board_keys_apply()
                    else ""
                ),
                style="dim",
            )
        )
        return Group(*lines)


__all__ = ["AliBabaScreen", "CaveBoard", "Mode"]
