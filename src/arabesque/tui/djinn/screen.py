"""The Djinn terminal screen: the map, your board, the table, the displays, the log, your move.

It draws only ``session.view()`` (the human's view) and applies through the engine. The
human's decision is drawn by the shared decision panel from ``view["decision"]``, side
actions (claim a trophy, bottle a Djinn, use Equipment, exchange a key) listed apart; this
screen adds the option keys on the map for a move, what a catch costs, what is still to place,
and what each space a move leads to holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Vertical, VerticalScroll
from textual.widgets import Footer, RichLog, Static

from arabesque.games.djinn.components import Components
from arabesque.tui.app import GameOverScreen, GameScreen, Mode, ScrollHint
from arabesque.tui.decision_panel import Presentation
from arabesque.tui.djinn.events import and_list, describe_event, plural
from arabesque.tui.djinn.render import (
    BREAKDOWN_WORDS,
    SHORT_BREAKDOWN_WORDS,
    bottles_text,
    djinn_text,
    map_panel,
    market_panel,
    my_board,
    players_table,
    shops_panel,
    status_text,
    tom_panel,
    trophies_panel,
)
from arabesque.tui.help import HelpSection
from arabesque.tui.session import Session

#: What a bot is doing, by the kind of its decision (for the panel while you wait).
WAITING: dict[str, str] = {
    "draft": "taking a character tile",
    "start": "placing their mage",
    "move": "moving",
    "jump": "deciding whether to share a space",
    "pay_player": "paying to share a space",
    "act": "taking the space's actions",
    "catch_select": "choosing Djinn to catch",
    "catch_pay": "paying for a catch",
    "place": "putting a caught Djinn away",
    "free": "taking a free Djinn",
    "archives": "in the Archives",
    "passage": "placing a secret passage",
    "tavern": "taking a Mage card",
    "manufactory": "taking Equipment",
    "tent": "moving their assistant in the Market",
    "offer": "buying at the Market",
    "chest_key": "opening a chest",
    "chest_discard": "discarding a chest",
    "activate": "activating Mage cards",
    "choose_bottle": "choosing a bottle",
    "source_bosses": "catching bosses at the Source",
    "trade": "trading bottles",
}


class DjinnScreen(GameScreen):
    DEFAULT_CSS = """
    DjinnScreen { layout: vertical; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #body { height: 1fr; layout: horizontal; }
    #left-wrap { width: 1fr; }
    /* A stable gutter: the panels keep their width when the scroll bar comes and goes, so a
       panel that picks its layout by width does not flip between two. */
    #left { height: 1fr; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    #right { width: 60; }
    .panel { border: round $primary-darken-1; padding: 0 1; height: auto; }
    #map, #mine { border: round $accent; }
    #log { height: 1fr; min-height: 6; border: round $primary-darken-1; }
    /* Wide terminals: the panels in two columns (the map beside your board...). */
    DjinnScreen.-wide #left { layout: grid; grid-size: 2; grid-columns: 80 1fr; grid-rows: auto; }
    DjinnScreen.-wide #right { width: 64; }
    /* Narrow terminals: your move and a short log stay at the bottom; the map, your board
       and the table scroll above them. */
    DjinnScreen.-narrow #body { layout: vertical; }
    DjinnScreen.-narrow #right { dock: bottom; width: 100%; height: 60%; }
    DjinnScreen.-narrow #left-wrap { width: 100%; height: 1fr; }
    DjinnScreen.-narrow #log { height: 1fr; min-height: 2; }
    DjinnScreen.-narrow #choices { max-height: 9; }
    DjinnScreen.-narrow.-short #choices { max-height: 7; }
    """

    MNEMONICS: ClassVar[Mapping[str, str]] = {
        "end": "e",
        "done": "d",
        "catch": "c",
        "confirm": "c",
        "decline": "x",
        "basic": "b",
        "special": "s",
        "passage": "p",
    }

    BOARD_SCROLL: ClassVar[str] = "left"

    #: The map's 13 spaces need 28 lines, and beside them the decision and the log need 60
    #: columns: at 80×24 the map showed 6 spaces and the log 0-3 lines.
    MIN_SIZE: ClassVar[tuple[int, int] | None] = (120, 32)

    #: Below this many columns the panels stack instead of standing side by side.
    NARROW = 120
    #: Below this many lines the list of options is kept shorter on a narrow terminal.
    SHORT = 32
    #: From this many columns on, the left panels stand in two columns.
    WIDE = 180

    #: A bot's next step within the same turn waits this share of the bot delay: a turn is
    #: many small steps (move, act, catch, place), and a whole delay for each dragged.
    STEP_SHARE = 0.5

    def __init__(
        self, session: Session, *, bot_delay: float, window_s: float, assist: bool = False
    ) -> None:
        super().__init__(session, bot_delay=bot_delay, window_s=window_s, assist=assist)
        public = session.state.public_data()
        #: The game's public component data (Tom's cards, chests): texts the view names by id.
        self.comp: Components | None = public if isinstance(public, Components) else None
        self._last_bot: int | None = None
        #: Space id -> location, for the log's words (the map does not change in a game).
        self._places: dict[str, str] = {}

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Container(id="body"):
            with Vertical(id="left-wrap"):
                with VerticalScroll(id="left"):
                    yield Static(id="map", classes="panel")
                    yield Static(id="mine", classes="panel")
                    yield Static(id="players", classes="panel")
                    yield Static(id="shops", classes="panel")
                    yield Static(id="market", classes="panel")
                    yield Static(id="trophies", classes="panel")
                    yield Static(id="tom", classes="panel")
                yield ScrollHint("left", id="left-hint")
            with Vertical(id="right"):
                yield self.decision_panel()
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        self.query_one("#map").border_title = "The map: 13 spaces"
        self.query_one("#mine").border_title = (
            "Your board" if s.human is not None else f"{s.name(0)}'s board"
        )
        bots = sorted({s.agent_label(p) for p in s.agents})
        self.query_one("#players").border_title = "The table" + (
            f" (bots: {', '.join(bots)})" if bots else ""
        )
        self.query_one("#shops").border_title = "Tavern, Manufactory, Catacombs"
        self.query_one("#market").border_title = "Market tents"
        self.query_one("#trophies").border_title = "Trophies, scoring, bag"
        self.query_one("#tom").border_title = "Tom (your solo opponent)"
        self.query_one("#tom").display = s.view().get("tom") is not None
        self.query_one("#log").border_title = "Log"
        self.warn_if_small()
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        self.set_class(width < self.NARROW, "-narrow")
        self.set_class(width >= self.WIDE, "-wide")
        self.set_class(height < self.SHORT, "-short")

    # -- driving the game ------------------------------------------------------------------

    def _run(self) -> None:
        s = self.session
        while not s.is_over:
            if s.human_to_act():
                self._enter_choice(s.state.view(s.human, include_log=False)["decision"])
                return
            bots = s.bots_to_act()
            if not bots or not self._may_act_now():
                return
            self._last_bot = bots[0]
            s.bot_act(bots[0])
            self._acted()

    def _acted(self) -> None:
        super()._acted()
        # The same bot goes on with its turn: a shorter pause, so a turn reads as one.
        if self._last_bot is not None and self._last_bot in self.session.state.to_act():
            self._next_delay = self.bot_delay * self.STEP_SHARE

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, view: Mapping[str, Any]) -> None:
        """Redraw what changed: each panel is keyed on the version it was drawn for (and on
        the option keys the map shows), so an unchanged panel is left alone."""
        name = self.session.name
        seat = self.session.human
        keys = self._space_keys()
        # The parts of the view each panel shows, as its key: a turn is many small steps,
        # and most of them change one panel or two.
        players = repr(view["players"])
        current = (view["round"], view["stage"], tuple(view["to_act"]), view["is_over"])
        self._update(
            "status",
            (current, view["bosses_on_board"], repr(view.get("tom"))),
            lambda: status_text(view, name, watching=seat is None),
        )
        self._update(
            "map",
            (repr(view["spaces"]), players, tuple(sorted(keys.items()))),
            lambda: map_panel(view, name, keys),
        )
        scores = repr(view["scores"])
        self._update("mine", (players, scores), lambda: my_board(view, seat or 0, name, self.comp))
        self._update(
            "players",
            (players, scores, current),
            lambda: players_table(view, name, self.comp),
        )
        self._update(
            "shops",
            repr((view["tavern"], view["manufactory"], view["catacombs"])),
            lambda: shops_panel(view, self.comp),
        )
        tents = tuple(p["assistant_tent"] for p in view["players"])
        self._update("market", tents, lambda: market_panel(view, name))
        self._update(
            "trophies",
            repr([view[k] for k in ("trophies", "scoring_cards", "draft", "bag", "supply_bosses")]),
            lambda: trophies_panel(view, name),
        )
        if view.get("tom") is not None:
            self._update("tom", repr(view["tom"]), lambda: tom_panel(view, self.comp))

    def _space_keys(self) -> dict[str, str]:
        """Space id -> the panel's key for the option that moves there (or starts there)."""
        if self.mode is not Mode.CHOICE or self.decision is None:
            return {}
        out: dict[str, str] = {}
        for option in self.decision["options"]:
            words = str(option["text"]).split()
            if len(words) >= 2 and words[0] in ("move", "start"):
                key = self.panel.key_of(int(option["action"]))
                if key is not None and words[1] not in out:
                    out[words[1]] = key
        return out

    def describe_event(self, event: Mapping[str, Any]) -> RenderableType | None:
        if not self._places:
            view = self.session.state.view(self.session.human, include_log=False)
            self._places = {str(s["id"]): str(s["location"]) for s in view["spaces"]}
        return describe_event(event, self.session.name, self.comp, self._places)

    # -- the decision panel ------------------------------------------------------------------

    def present(self, view: Mapping[str, Any], decision: Mapping[str, Any]) -> Presentation:
        notes = {
            int(o["action"]): note
            for o in decision["options"]
            if (note := self._note(view, str(o["text"])))
        }
        moves = any(str(o["text"]).startswith(("move ", "start ")) for o in decision["options"])
        return Presentation(
            details=self._details(view, decision),
            notes=notes,
            hint=" (the map shows the keys)" if moves else "",
        )

    def _note(self, view: Mapping[str, Any], text: str) -> str:
        """A few words after an option's label: what waits at the space a move leads to (the
        labels word everything else)."""
        words = text.split()
        if len(words) >= 2 and words[0] == "move":
            for space in view["spaces"]:
                if space["id"] == words[1]:
                    djinn = djinn_text(space.get("djinn") or {}).plain
                    return f"Djinn: {djinn}" if djinn else ""
        return ""

    def _details(self, view: Mapping[str, Any], decision: Mapping[str, Any]) -> RenderableType:
        """What the prompt leaves out: what a catch costs, what is left to place."""
        kind = str(decision["kind"])
        context = decision.get("context") or {}
        seat = self.session.human
        me = view["players"][seat] if seat is not None else None
        lines: list[Text] = []
        if kind in ("catch_select", "catch_pay") and me is not None:
            space = next((s for s in view["spaces"] if s["id"] == context.get("space")), None)
            if space is not None and kind == "catch_select":
                line = Text(f"At {space['id']}: ")
                line.append_text(djinn_text(space.get("djinn") or {}, "no Djinn"))
                lines.append(line)
            chosen = context.get("selected") or {}
            if chosen:
                line = Text("Chosen: ")
                line.append_text(djinn_text(chosen))
                line.append(f" · strength {context.get('strength', '?')}")
                if kind == "catch_pay":
                    line.append(f" · your cards give {context.get('power_from_cards', 0)}")
                lines.append(line)
            active = [c for c in me["mage_cards"] if c["active"]]
            lines.append(
                Text(
                    f"You have {me['magic']} magic, {plural(int(me['coins']), 'coin')} and "
                    f"{plural(len(active), 'active Mage card')}.",
                    style="dim",
                )
            )
        elif kind in ("place", "free") and me is not None:
            still = list(context.get("still_to_place") or [])
            if still:
                lines.append(Text(f"Still to place after it: {and_list(still)}.", style="dim"))
            empty = sum(1 for c in me["circles"] if c == "empty")
            line = Text(
                f"{plural(empty, 'empty spell circle')}, {plural(int(me['corks']), 'cork')}; "
                "bottles: ",
                style="dim",
            )
            line.append_text(bottles_text(me["bottles"]))
            lines.append(line)
        elif kind == "chest_key" and context:
            chest, reward = context.get("chest"), context.get("key_reward")
            lines.append(Text(f"Chest {chest}: a key gets {reward}."))
        elif kind == "act" and me is not None:
            lines.append(
                Text(
                    f"You have {me['magic']} magic of {me['max_magic']}, "
                    f"{plural(int(me['coins']), 'coin')}, {plural(int(me['scrolls']), 'scroll')}.",
                    style="dim",
                )
            )
        if any(o.get("optional") for o in decision["options"]):
            lines.append(
                Text("Side actions (listed last) may be taken at any time on your turn.", "dim")
            )
        return Group(*lines)

    def waiting(self, view: Mapping[str, Any]) -> RenderableType:
        waiting = [p for p in view["to_act"] if p != self.session.human]
        if not waiting:
            return Text("…", style="dim")
        who = and_list([self.session.name(p) for p in waiting])
        # What the bot decides is public in Djinn (every seat's view is the same but for its
        # decision), so its kind may be told.
        decision = self.session.state.decision(waiting[0])
        what = WAITING.get("" if decision is None else decision.kind_name, "playing")
        return Text(f"Waiting for {who}: {what}…", style="dim")

    # -- help and the end ----------------------------------------------------------------------

    def help_sections(self) -> list[HelpSection]:
        return [
            HelpSection(
                "Keys in Djinn",
                (
                    ("key on the map", "move there (the map marks the spaces you may reach)"),
                    ("e", "end your turn"),
                    ("b / s / p", "basic action / special action / your secret passage's action"),
                    ("c", "catch Djinn; in a catch, catch the Djinn chosen"),
                    ("x", "decline a catch (you lose a magic)"),
                    ("d", "done (stop choosing: Mage cards to activate, Djinn to add...)"),
                ),
            ),
            HelpSection(
                "Djinn in short",
                lines=(
                    "Each turn you move your mage along a path to a neighbouring space, never "
                    "straight back the way you came; mages who came to that space along the same "
                    "path cost each a coin or a scroll, or you skip on to the next (mages at "
                    "its other edges cost nothing).",
                    "A square space gives its location's basic action (and your secret "
                    "passage's, if you placed one there). A round space gives the special "
                    "action, and you must then try to catch Djinn there or lose a magic.",
                    "Each Djinn needs 4 power; a boss needs 2 more for every other Djinn at "
                    "its space. Pay with your magic and with active Mage cards (their coin "
                    "cost, their power, their colour bonuses); a used card turns inactive.",
                    "A caught Djinn goes into an empty active spell circle (3 points) or a "
                    "bottle of its colour closed with a cork (10 points). A boss fits any "
                    "bottle and brings one more Djinn of its space for free.",
                    "Three Djinn in bottles of one colour claim a trophy (rows I, II, III in "
                    "that order): its reward now, its points at the end.",
                    "When every boss has been caught or has fled, the round is finished, one "
                    "more round is played, and everyone visits the Magic Source one last time. "
                    "Most points wins; coins, scrolls and keys break a tie.",
                    "Solo: Tom draws a card after each of your turns at a round space; rid the "
                    "city of the bosses before his deck runs out.",
                    "Side actions (listed under the main choice): claim a trophy, move a Djinn "
                    "from a circle into a bottle, use Equipment, exchange a key.",
                ),
            ),
            HelpSection(
                "Reading the screen",
                lines=(
                    "The map lists the 13 spaces: ■ square, ● round, ✦ the Magic Source; the "
                    "paths from each, the Djinn waiting there (a boss shown in reverse), the "
                    "mages (and where they came from) and the secret passages.",
                    "Your board: the magic scale (● magic you have, ○ room up to your "
                    "maximum, B your base), your supplies, circles, bottles, cards.",
                    "The table has a column per player; the panels below it show the Tavern, "
                    "the Manufactory, the Catacombs, the Market, the trophies and the bag.",
                ),
            ),
        ]

    def breakdown_label(self, key: str) -> str:
        # Short words: the final table's headers wrap at their first space and must fit
        # 80 columns beside the total.
        return SHORT_BREAKDOWN_WORDS.get(key, BREAKDOWN_WORDS.get(key, key.replace("_", " ")))

    def _show_game_over(self) -> None:
        super()._show_game_over()
        self.app.call_after_refresh(self._retitle_solo)

    def _retitle_solo(self) -> None:
        # A solo game has one player, ranked first whether or not Tom was beaten: the shared
        # panel's title would say "You win!" over "Tom wins". Say what the game's result says.
        tom = self.session.view().get("tom")
        if tom is None or tom.get("won") is None:
            return
        for screen in self.app.screen_stack:
            if isinstance(screen, GameOverScreen):
                title = Text("Game over. ", style="bold")
                verdict = "You beat Tom!" if tom["won"] else "Tom wins."
                title.append(verdict, style="bold yellow" if tom["won"] else "bold red")
                reason = self.game_over_reason()
                if reason and reason != verdict:
                    title.append(f"\n{reason}", style="dim")
                screen.query_one("#over-title", Static).update(title)

    def game_over_reason(self) -> str:
        view = self.session.view()
        tom = view.get("tom")
        if tom is not None and tom.get("won") is not None:
            if tom["won"]:
                return "The bosses are gone before Tom's deck ran out."
            return "Tom's deck ran out before the bosses were gone."
        for event in reversed(view["log"]):
            if event.get("kind") == "round_cap":
                return "The round limit was reached."
            if event.get("kind") == "last_boss_gone":
                return "Every boss was caught or fled the city."
        return ""

    def game_over_notes(self) -> list[str]:
        tom = self.session.view().get("tom")
        if tom is None:
            return ["On a tie, more coins, scrolls and keys together wins."]
        done = [str(t["task"]) for t in tom.get("tasks") or [] if t.get("done")]
        return [f"Solo tasks done: {', '.join(done)}."] if done else []


__all__ = ["DjinnScreen"]
