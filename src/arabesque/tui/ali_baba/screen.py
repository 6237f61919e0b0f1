"""The Ali Baba terminal screen: the pyramid, your screen, the table, the log, your moves.

It draws only ``session.view()`` (the human's view) and applies through the engine. The
human's decision is drawn by the shared decision panel from ``view["decision"]``; this screen
adds what the cave shows: the options' keys on the tiles, a click on a tile taking it, and
each option's effect worked out in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Footer, RichLog, Static

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
    SET_POINTS,
    BoardMarks,
    aside_row,
    cave_info,
    draw_board,
    face_up_list,
    forbidden,
    lamp_cost,
    my_screen,
    option_note,
    players_table,
    tie_break_note,
)
from arabesque.tui.app import GameScreen, Mode, ScrollHint
from arabesque.tui.decision_panel import Presentation
from arabesque.tui.help import HelpSection
from arabesque.tui.session import Session

#: Option texts that take a tile from the cave: a click on the tile picks them.
BOARD_VERBS = ("take ", "also take ")

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
    #left-wrap { width: 66; }
    /* A stable gutter: the panels keep their width when the scroll bar comes and goes, so a
       panel that picks its layout by width does not flip between two. */
    #left { height: 1fr; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    #right { width: 1fr; min-width: 36; }
    .panel { border: round $primary-darken-1; padding: 0 1; height: auto; }
    #cave { width: auto; border: round $accent; padding: 0 1; height: auto; }
    #cave-info { height: auto; padding: 0 1; }
    #mine { border: round $accent; }
    #choices { max-height: 16; }
    #players { height: auto; }
    #log { height: 1fr; min-height: 6; border: round $primary-darken-1; }
    #players-narrow { display: none; }
    /* Narrow terminals: your move and a short log stay at the bottom; the cave, your screen
       and the table scroll above them. */
    AliBabaScreen.-narrow #body { layout: vertical; }
    /* A set height, the log taking what the decision leaves: with an auto height the log
       was pushed below the screen, its last lines and its F3 hint out of sight. */
    AliBabaScreen.-narrow #right { dock: bottom; width: 100%; height: 60%; }
    AliBabaScreen.-narrow #left-wrap { width: 100%; height: 1fr; }
    AliBabaScreen.-narrow #players { display: none; }
    AliBabaScreen.-narrow #players-narrow { display: block; }
    AliBabaScreen.-narrow #log { height: 1fr; min-height: 2; }
    AliBabaScreen.-narrow #choices { max-height: 9; }
    /* Short and narrow: a shorter list (it says when more options are below), so the log
       keeps its border and its F3 hint. */
    AliBabaScreen.-narrow.-short #choices { max-height: 5; }
    /* ... and the log its last two events at least (at 80×24 it kept only its border): the
       bottom column is as tall as your move and a log of a set height (on_resize), so a
       longer move (a yellow effect's secret choice) no longer pushes the log under the
       footer. */
    AliBabaScreen.-narrow.-short #right { height: auto; }
    AliBabaScreen.-narrow.-short #log { min-height: 4; }
    /* ... and the face-up tiles listed above the cave, whose drawing is cut there (about 7
       of its 20 lines in sight at 80×24): every tile you may take in sight without PgDn.
       (-cave-cut: set by on_resize wherever the terminal cannot hold the drawing.) */
    #face-up { display: none; height: auto; padding: 0 1; }
    AliBabaScreen.-cave-cut #face-up { display: block; }
    """

    MNEMONICS: ClassVar[Mapping[str, str]] = {"pass": "p", "keep lamp": "k", "use yellow": "u"}

    BOARD_SCROLL: ClassVar[str] = "left"

    #: Below this many columns the panels stack instead of standing side by side.
    NARROW = 96
    #: Below this many columns the tiles are drawn narrower.
    SMALL_TILES = 130
    #: Below this many lines the list of options is kept shorter on a narrow terminal.
    SHORT = 32
    #: From this size on (columns, lines) the tiles are drawn larger: the room is there.
    LARGE_TILES = (180, 56)

    def __init__(
        self, session: Session, *, bot_delay: float, window_s: float, assist: bool = False
    ) -> None:
        super().__init__(session, bot_delay=bot_delay, window_s=window_s, assist=assist)
        self._half_w = 6
        self._half_h = 2

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Container(id="body"):
            with Vertical(id="left-wrap"):
                yield Static(id="face-up")
                with VerticalScroll(id="left"):
                    yield CaveBoard(id="cave")
                    yield Static(id="cave-info")
                    yield Static(id="mine", classes="panel")
                    yield Static(id="players-narrow", classes="panel")
                yield ScrollHint("left", id="left-hint")
            with Vertical(id="right"):
                yield self.decision_panel()
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
        self.query_one("#log").border_title = "Log"
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        self.set_class(width < self.NARROW, "-narrow")
        self.set_class(height < self.SHORT, "-short")
        large = width >= self.LARGE_TILES[0] and height >= self.LARGE_TILES[1]
        half_w = 8 if large else 6 if width >= self.SMALL_TILES else 5
        half_h = 3 if large else 2
        if (half_w, half_h) != (self._half_w, self._half_h):
            self._half_w, self._half_h = half_w, half_h
            self.refresh_panels()
        bottom = self.session.view()["board"]["layers"][0]
        cave_lines = bottom["rows"] * 2 * half_h + 2  # with its border
        # Stacked, the cave has 40% of the lines; side by side, all but the status and keys;
        # less the line under it that says what is below.
        room = ((height - 2) * 0.4 if width < self.NARROW else height - 2) - 1
        self.set_class(cave_lines > room, "-cave-cut")
        log = self.query_one("#log")
        if width < self.NARROW and height < self.SHORT:
            # What the 60% column left the log beside a move to take a tile (a prompt of 4
            # lines and a list of 5), and never fewer than its last two events.
            log.styles.height = max(4, round(0.6 * (height - 2)) - 9)
        else:
            log.styles.height = None  # the CSS height applies
        left = self.query_one("#left-wrap")
        if width >= self.NARROW:
            # As wide as the pyramid (its border and padding, and a thin scroll bar).
            cols = self.session.view()["board"]["layers"][0]["cols"]
            left.styles.width = cols * 2 * half_w + 5
        else:
            left.styles.width = None  # the stacked layout's CSS width applies

    # -- driving the game ------------------------------------------------------------------

    def _run(self) -> None:
        s = self.session
        while not s.is_over:
            bots = s.bots_to_act()
            if s.human_to_act():
                if bots:
                    # Showing to a yellow effect is simultaneous: the bots choose at once and
                    # the engine keeps their choices hidden until everyone has chosen.
                    for seat in bots:
                        s.bot_act(seat)
                    continue
                self._enter_choice(s.state.view(s.human, include_log=False)["decision"])
                return
            if not bots or not self._may_act_now():
                return
            for seat in bots:  # several bots show at once
                s.bot_act(seat)
            self._acted()

    def help_sections(self) -> list[HelpSection]:
        colours = self.session.state.public_data().tiles.colours
        effects = tuple((c.name, effect_words(c.name, c.effect)) for c in colours)
        points = ", ".join(f"{plural(n, 'tile')} {p}" for n, p in enumerate(SET_POINTS) if n)
        return [
            HelpSection(
                "Keys in Ali Baba",
                (
                    ("key on a tile", "take that tile (the tiles you may take show a key)"),
                    ("click a tile", "the same with the mouse"),
                    ("p", "pass (do not use an optional effect)"),
                    ("u / k", "use the yellow effect / keep the lamp (Aladdin's lamp)"),
                ),
            ),
            HelpSection(
                "Ali Baba in short",
                lines=(
                    "The treasure lies in a pyramid of tiles seen from above (L1 is the "
                    "bottom layer). On your turn take one face-up tile you are not forbidden; "
                    "the tiles it rested on turn face up once nothing else covers them.",
                    "Every tile has a kind (ring, sword, crown…) and a colour; the colour's "
                    "magic happens when you take it (below).",
                    "A white block lasts until the next turn of the player who made it. When "
                    "every face-up tile is forbidden to you, you may take any of them.",
                    f"Sets: tiles of one kind score together ({points}); the points the "
                    "colours scored on the track add to them.",
                    "Once the last face-down tile is turned up the round is played out (the "
                    "status line counts the turns left). Most points wins; on a tie, fewer "
                    "tiles wins.",
                ),
            ),
            HelpSection("The colours' magic", effects),
        ]

    def game_over_reason(self) -> str:
        view = self.session.view()
        reason = ""
        for event in reversed(view["log"]):
            if event.get("kind") == "game_end":
                reason = str(event.get("reason", "")).capitalize() + "."
                break
        note = tie_break_note(view, self.session.name)
        return f"{reason} {note}".strip()

    # -- options on the board ----------------------------------------------------------------

    def _tile_options(self, view: Mapping[str, Any], verbs: Sequence[str]) -> dict[int, int]:
        """Tile id -> the action of the human's decision that names it with one of
        ``verbs`` ("take blue ruby"): where on the board (or the aside row) an option lives."""
        if self.mode is not Mode.CHOICE or self.decision is None:
            return {}
        ids = self._tile_ids(view)
        out: dict[int, int] = {}
        for option in self.decision["options"]:
            text = str(option["text"])
            verb = next((v for v in verbs if text.startswith(v)), None)
            if verb is not None and text[len(verb) :] in ids:
                out[ids[text[len(verb) :]]] = int(option["action"])
        return out

    def _tile_keys(self, view: Mapping[str, Any], verbs: Sequence[str]) -> dict[int, str]:
        """Tile id -> the panel's key for the option on that tile."""
        out: dict[int, str] = {}
        for tile_id, action in self._tile_options(view, verbs).items():
            key = self.panel.key_of(action)
            if key is not None:
                out[tile_id] = key
        return out

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

    def on_cave_board_clicked(self, message: CaveBoard.Clicked) -> None:
        view = self.session.view()
        place = view["board"]["places"][message.place]
        if place["state"] != "face_up":
            return
        action = self._tile_options(view, BOARD_VERBS).get(int(place["tile"]["id"]))
        if action is not None:
            self.choose(action)

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, view: Mapping[str, Any]) -> None:
        """Redraw what changed. Each panel is keyed on the part of the view it shows, so an
        unchanged panel is left alone (no layout pass for it)."""
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
            keys=self._tile_keys(view, BOARD_VERBS),
            recent=self._recent_flips(view),
        )
        board_key = (
            tuple((p["state"], p.get("tile", {}).get("id")) for p in view["board"]["places"]),
            tuple((b["by"], b["type"], b["what"]) for b in view["blocks"]),
            tuple(sorted(marks.keys.items())),
            tuple(sorted(marks.recent)),
            self._half_w,
            self._half_h,
        )
        if self._drawn.get("cave") != board_key:
            self._drawn["cave"] = board_key
            picture = draw_board(view, marks, half_w=self._half_w, half_h=self._half_h)
            board = self.query_one(CaveBoard)
            board.cells = picture.cells
            board.update(picture.text)
        self._update("face-up", board_key[:4], lambda: face_up_list(view, marks))
        aside_keys = self._tile_keys(view, ("swap for ",))
        info_key = (
            current,
            view["face_down"],
            view["in_box"],
            board_key[1],
            tuple(t["id"] for t in view["aside"]),
            tuple(sorted(aside_keys.items())),
        )
        self._update("cave-info", info_key, lambda: self._cave_info(view, aside_keys))
        self._update("mine", players, lambda: my_screen(view))
        self._update("players", (players, current), lambda: players_table(view, name))
        self._update("players-narrow", (players, current), lambda: players_table(view, name))

    def describe_event(self, event: Mapping[str, Any]) -> RenderableType | None:
        return describe_event(event, self.session.name)

    def _cave_info(self, view: Mapping[str, Any], aside_keys: Mapping[int, str]) -> RenderableType:
        parts: list[RenderableType] = [cave_info(view, self.session.name)]
        aside = aside_row(view, aside_keys)
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
        return text

    # -- the decision panel ------------------------------------------------------------------

    def present(self, view: Mapping[str, Any], decision: Mapping[str, Any]) -> Presentation:
        texts = {int(o["action"]): str(o["text"]) for o in decision["options"]}
        ids = self._tile_ids(view)

        def tile_of(text: str) -> int | None:
            verb = next((v for v in ("also take ", "take ", "swap for ", "show ", "steal ")
                         if text.startswith(v)), None)  # fmt: skip
            return None if verb is None else ids.get(text[len(verb) :])

        order = sorted(texts, key=lambda a: self._option_order(view, texts[a], tile_of(texts[a])))
        notes = {a: note for a, text in texts.items() if (note := option_note(text, view))}
        on_board = any(t.startswith(BOARD_VERBS) for t in texts.values())
        return Presentation(
            details=self._details(view, decision),
            notes=notes,
            order=order,
            hint=", or click a tile" if on_board else "",
        )

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

    def _details(self, view: Mapping[str, Any], decision: Mapping[str, Any]) -> RenderableType:
        """What the prompt leaves out: the rules that apply now, what a choice costs."""
        s = self.session
        kind = str(decision["kind"])
        context = decision.get("context") or {}
        turn = view.get("this_turn") or {}
        lines: list[Text] = []
        if kind == "take":
            up = [p["tile"] for p in view["board"]["places"] if p["state"] == "face_up"]
            if up and all(forbidden(view, t, view.get("seat")) for t in up):
                lines.append(
                    Text(
                        "Every face-up tile is forbidden to you, so you may take any of them "
                        "(rulebook, white effect note).",
                        style="yellow",
                    )
                )
        elif kind == "lamp":
            lines.append(Text(lamp_cost(view), style="dim"))
        elif kind == "also_take":
            taken = (turn.get("taken") or {}).get("name", "tile")
            lines.append(
                Text(f"Next to where the {taken} lay ({turn.get('place')}); no effect of its own.")
            )
        elif kind == "yellow":
            others = [
                s.name(p["seat"])
                for p in view["players"]
                if p["seat"] != view.get("seat") and p["count"]
            ]
            lines.append(
                Text(f"{and_list(others)} must each show you a tile; you take one of them.")
            )
        elif kind == "show":
            thief = s.name(context.get("thief"))
            lines.append(
                Text(
                    f"{thief} takes one of the shown tiles; the others come back to you. "
                    "Everyone chooses in secret; the tiles are shown together.",
                    style="yellow",
                )
            )
        elif kind == "steal":
            shown = context.get("shown") or {}
            parts = [f"{s.name(int(p))}: {t['name']}" for p, t in sorted(shown.items())]
            lines.append(Text(f"Shown to you: {'; '.join(parts)}.", style="yellow"))
        return Group(*lines)

    def waiting(self, view: Mapping[str, Any]) -> RenderableType:
        waiting = [p for p in view["to_act"] if p != self.session.human]
        if not waiting:
            return Text("…", style="dim")
        who = and_list([self.session.name(p) for p in waiting])
        phase = str(view["phase"])
        if phase == "show":
            mine = (view.get("showing") or {}).get("mine")
            thief = self.session.name(self._thief(view))
            lead = f"{thief} used the yellow effect. "
            if mine:
                lead += f"You show the {mine['name']} (secret until all have chosen). "
            return Text(f"{lead}Waiting for {who} to choose a tile to show…", style="dim")
        what = WAITING.get(phase, phase).format(colour=self._effect_colour(view))
        return Text(f"Waiting for {who}: {what}…", style="dim")

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


__all__ = ["AliBabaScreen", "CaveBoard", "Mode"]
