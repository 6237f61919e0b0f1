// A table: take a seat and play, or watch. The page is the same for every game: the game's
// renderer (games/<id>.js, docs/web.md) draws the board; this page adds the decision panel and
// its keyboard, the lamp button, whose turn and the clocks, the log in words, what changed
// since your last move, and the result at the end.
import { h, clear, plural, loadStyle } from "../lib/dom.js";
import * as api from "../lib/api.js";
import { seatName } from "../lib/api.js";
import * as store from "../lib/store.js";
import { TableSocket } from "../lib/socket.js";
import { expandOptions } from "../lib/decision.js";
import { hintBox } from "../lib/hint.js";
import { setGame } from "../app.js";
import generic from "../games/generic.js";

/** Shortcut keys of the first options, in order: 1-9 then a-z. */
const OPTION_KEYS = "123456789abcdefghijklmnopqrstuvwxyz".split("");

/** What the player is told for an `error` frame's code (the server's message follows). */
const ERROR_WORDS = {
  stale: "The game moved on before your move arrived; look again and choose.",
  not_your_turn: "It is not your move any more.",
  illegal_action: "That move is not allowed now.",
  game_over: "The game is over.",
  not_started: "The game has not started yet.",
  spectator: "You are watching this table; take a seat to play.",
  race: "The lamp is raced with the lamp button, not a move.",
  no_race: "There is no lamp to rub now.",
  unavailable: "The server could not save your move; try again.",
  bad_token: "This browser's seat token is not valid at this table.",
};

/** Below this board width renderers draw their narrow layout (ctx.narrow). */
const NARROW_PX = 700;

/** Rich style words of the log's `tone` that map to CSS classes (tone-<word>). */
const TONE_WORDS = new Set(["bold", "dim", "italic", "underline", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]);

function toneClasses(tone) {
  if (!tone) return [];
  return String(tone).toLowerCase().split(/\s+/)
    .map((w) => w.replace(/^bright_/, ""))
    .filter((w) => TONE_WORDS.has(w))
    .map((w) => `tone-${w}`);
}

function formatMs(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** "set_bronze" -> "set bronze". */
function words(key) {
  return String(key).replace(/_/g, " ");
}

/** A trail step or option label, whatever shape the engine gave it. */
function stepText(step) {
  if (typeof step === "string") return step;
  if (step && typeof step === "object") return step.label || step.prompt || step.text || JSON.stringify(step);
  return String(step);
}

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
}

export async function mount(root, { tableId }) {
  const page = new TablePage(root, tableId);
  await page.start();
}

class TablePage {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.table = null;
    this.gameInfo = null;
    this.renderer = generic;
    this.rendererSettings = [];
    this.rendererFailed = false;
    this.settings = { assist: false };
    /** The seat this page plays (from the welcome), or null when watching. */
    this.seat = null;
    this.view = null;
    /** The log as received: [{event, words}] in order. */
    this.entries = [];
    /** Per seat: {move_left_ms, game_left_ms, at} (at: performance.now() when received). */
    this.clocks = new Map();
    /** The action sent and not yet answered: {ref, label}. */
    this.pending = null;
    this.nextRef = 1;
    /** The view version at which this page pressed the lamp. */
    this.reactedVersion = null;
    this.decisionError = "";
    /** The option highlighted in the list and on the board (its action number). */
    this.hot = null;
    this.boardMarks = new Map();
    this.signatures = new Map();
    this.keyElements = new Map();
    this.previousSignatures = null;
    /** The board's signatures and the log length when this seat last moved. */
    this.sinceMove = store.lastMove(tableId);
    this.newFromIndex = null;
    this.connection = { state: "connecting" };
    this.socket = null;
    this.buildLayout();
  }

  // -- set-up ---------------------------------------------------------------------------------

  buildLayout() {
    this.title = h("h1", {}, ["Table"]);
    this.statusLine = h("span", { class: "table-status" });
    this.connectionLine = h("span", { class: "connection", role: "status" });
    this.turnLine = h("p", { class: "turn-line", role: "status" });
    this.joinArea = h("section", { class: "card join-area", "aria-label": "Seats", hidden: true });
    /** Players away past the table's time, and the host's "End the game" (away seats). */
    this.awayArea = h("section", { class: "card away-area", "aria-label": "Players away", hidden: true });
    /** How many of the table's notes (seats away, bots seated, the end) the log shows. */
    this.notesShown = 0;
    this.resultArea = h("section", { class: "card result", "aria-labelledby": "result-title", hidden: true });
    /** Shown while this seat is played in another tab: the way to take it back. */
    this.takeoverArea = h("section", { class: "card takeover", role: "alert", hidden: true });
    /** True once a newer connection (another tab) took this page's seat. */
    this.replaced = false;
    this.board = h("div", { class: "board" });
    this.boardNote = h("p", { class: "board-note", role: "note", hidden: true });
    this.decisionPanel = h("section", { class: "decision-panel", id: "decision", "aria-label": "Your move" });
    this.playersList = h("ul", { class: "players" });
    this.logList = h("ol", { class: "log", role: "log", "aria-label": "What happened", tabindex: 0 });
    this.settingsBox = h("div", { class: "settings-box" });

    clear(this.root).append(
      h("div", { class: "table-page" }, [
        h("div", { class: "table-head" }, [
          h("div", { class: "table-title" }, [this.title, this.statusLine]),
          this.connectionLine,
        ]),
        this.turnLine,
        this.takeoverArea,
        this.joinArea,
        this.awayArea,
        this.resultArea,
        h("div", { class: "table-main" }, [
          this.boardArea = h("section", { class: "board-area", "aria-label": "The board" }, [this.boardNote, this.board]),
          h("aside", { class: "side" }, [
            this.decisionPanel,
            h("section", { class: "card players-card", "aria-labelledby": "players-title" }, [
              h("h2", { id: "players-title" }, ["Players"]), this.playersList,
              this.hintsNote = h("p", { class: "muted hints-note", hidden: true }, [
                "Hints are allowed at this table: each player may ask the search bot for its best moves on their own turn.",
              ]),
            ]),
            h("section", { class: "card log-card", "aria-labelledby": "log-title" }, [
              h("h2", { id: "log-title" }, ["What happened"]), this.logList,
            ]),
            h("details", { class: "card settings-card" }, [
              h("summary", {}, ["Display settings"]), this.settingsBox,
            ]),
          ]),
        ]),
      ]),
    );
  }

  async start() {
    let table;
    let games;
    try {
      [table, games] = await Promise.all([api.table(this.tableId), api.games()]);
    } catch (err) {
      if (err.code === "no_table") throw new Error("There is no table at this address. It may have been removed.");
      throw err;
    }
    this.table = table;
    this.gameInfo = games.find((g) => g.id === table.game) || { id: table.game, name: table.game, real_time: false, agents: [] };
    setGame(this.gameInfo.id, this.gameInfo.name);
    this.title.textContent = this.gameInfo.name;
    await this.loadRenderer(table.game);
    this.settings = store.settings(table.game);
    this.buildSettings();

    const mine = store.seatAt(this.tableId);
    store.noteGame({ tableId: this.tableId, game: table.game, seat: mine ? mine.seat : null, status: table.status });
    this.socket = new TableSocket(this.tableId, mine ? mine.token : null, {
      onFrame: (frame, info) => this.onFrame(frame, info),
      onState: (state, detail) => this.onConnection(state, detail),
    });
    this.socket.start();
    this.renderAll();

    document.addEventListener("keydown", (event) => this.onKey(event));
    // Draw again when the board crosses the narrow width (a phone turned, a window resized).
    let narrow = this.isNarrow();
    window.addEventListener("resize", () => {
      if (this.isNarrow() !== narrow) {
        narrow = this.isNarrow();
        this.renderBoard();
      }
    });
    this.clockTimer = setInterval(() => this.tickClocks(), 250);
    window.addEventListener("pagehide", () => {
      clearInterval(this.clockTimer);
      this.socket.stop();
    });
  }

  async loadRenderer(game) {
    try {
      const module = await import(`/static/games/${encodeURIComponent(game)}.js`);
      if (module.default && typeof module.default.render === "function") {
        loadStyle(`/static/games/${encodeURIComponent(game)}.css`);
        this.renderer = module.default;
        this.rendererSettings = Array.isArray(module.settings) ? module.settings : [];
        return;
      }
      console.warn(`games/${game}.js has no default export with render(); using the plain view`);
    } catch (err) {
      // No renderer for this game (or it failed to load): the plain view is still playable.
      if (!(err instanceof TypeError && /fetch|import/i.test(err.message))) console.error(err);
    }
    this.renderer = generic;
    this.rendererSettings = [];
  }

  buildSettings() {
    const toggles = [...this.rendererSettings];
    if (this.gameInfo.real_time && !toggles.some((t) => t.name === "assist")) {
      toggles.push({ name: "assist", label: "Assist: point out shared faces in the lamp race" });
    }
    clear(this.settingsBox);
    if (!toggles.length) {
      this.settingsBox.append(h("p", { class: "muted" }, ["This game has no display settings."]));
      return;
    }
    for (const toggle of toggles) {
      const id = `setting-${toggle.name}`;
      const input = h("input", { type: "checkbox", id, checked: Boolean(this.settings[toggle.name]) });
      input.addEventListener("change", () => {
        this.settings = { ...this.settings, [toggle.name]: input.checked };
        store.saveSetting(this.table.game, toggle.name, input.checked);
        this.renderBoard();
      });
      this.settingsBox.append(h("div", { class: "field check" }, [input, h("label", { for: id }, [toggle.label || words(toggle.name)])]));
    }
  }

  // -- frames ---------------------------------------------------------------------------------

  onConnection(state, detail) {
    this.connection = { state, ...detail };
    if (state === "closed" && detail.reason === "bad_token") this.dropToken();
    const replaced = state === "closed" && detail.reason === "replaced";
    if (replaced !== this.replaced && (replaced || state === "open")) {
      // Another tab plays this seat now: nothing here may be played until "Play here".
      this.replaced = replaced;
      this.renderTakeover();
      this.renderGame();
    }
    this.renderConnection();
  }

  /** Take the seat back from the other tab (which is then told the same). */
  playHere() {
    this.socket.restart(this.socket.token);
  }

  renderTakeover() {
    const area = this.takeoverArea;
    clear(area);
    area.hidden = !this.replaced;
    this.boardArea.classList.toggle("elsewhere", this.replaced);
    this.decisionPanel.classList.toggle("elsewhere", this.replaced);
    if (!this.replaced) return;
    area.append(
      h("div", {}, [
        h("h2", {}, ["Playing in another tab"]),
        h("p", {}, ["This seat was opened in another tab or window, which plays it now. This page is paused."]),
      ]),
      h("button", { type: "button", class: "primary play-here", onclick: () => this.playHere() }, ["Play here"]),
    );
  }

  onFrame(frame, { logFrom }) {
    switch (frame.type) {
      case "welcome":
        this.table = frame.table;
        this.seat = frame.seat ?? null;
        if (logFrom === 0) {
          this.entries = [];
          clear(this.logList);
          this.notesShown = 0;
        }
        this.addLog(frame.log, frame.words);
        this.setClocks(frame.clocks);
        if (frame.view) this.view = this.withNames(frame.view);
        // After a reconnect whatever was in flight was answered or lost: look again.
        this.pending = null;
        this.noteStatus();
        this.renderAll();
        break;
      case "update":
        this.addLog(frame.log, frame.words);
        this.setClocks(frame.clocks);
        if (frame.view) this.view = this.withNames(frame.view);
        this.renderGame();
        break;
      case "ack":
        if (this.pending && frame.ref === this.pending.ref) {
          this.pending = null;
          this.renderDecision();
        }
        break;
      case "error":
        this.onError(frame);
        break;
      case "table":
        this.table = frame.table;
        this.noteStatus();
        this.renderAll();
        break;
      case "game_over":
        this.table = frame.table;
        this.noteStatus();
        this.renderAll();
        break;
      default:
        break;
    }
  }

  onError(frame) {
    if (frame.code === "bad_token" && !this.socket.welcomed) {
      this.dropToken();
      return;
    }
    if (frame.code === "bad_token") return; // replaced by a newer connection; the close says so
    const known = ERROR_WORDS[frame.code];
    this.decisionError = known ? `${known} (${frame.message})` : frame.message;
    if (this.pending && (frame.ref === undefined || frame.ref === null || frame.ref === this.pending.ref)) this.pending = null;
    if (frame.code === "stale") this.socket.send({ type: "sync" });
    this.renderDecision();
  }

  /** The stored token holds no seat here (the table was reset, or storage mixed up): watch. */
  dropToken() {
    store.forgetSeat(this.tableId);
    this.notice = "This browser's seat at this table is no longer valid; you are watching.";
    this.socket.restart(null);
  }

  noteStatus() {
    if (!this.table) return;
    store.noteGame({ tableId: this.tableId, game: this.table.game, seat: this.seat, status: this.table.status });
  }

  addLog(events, wordsList) {
    if (!events || !events.length) return;
    const names = this.names();
    const follow = this.logList.scrollHeight - this.logList.scrollTop - this.logList.clientHeight < 40;
    const first = this.entries.length;
    events.forEach((event, i) => {
      const said = Array.isArray(wordsList) ? wordsList[i] : null;
      const entry = { event, words: said };
      this.entries.push(entry);
      // The server words every event when asked; null means an event not worth a line.
      if (Array.isArray(wordsList) && !said) return;
      const text = said && said.text ? said.text : this.fallbackText(event, names);
      const classes = ["log-entry", ...toneClasses(said && said.tone)];
      this.logList.append(h("li", { class: classes, dataset: { index: String(first + i) } }, [text]));
    });
    this.markNewLog();
    if (follow) this.logList.scrollTop = this.logList.scrollHeight;
  }

  fallbackText(event, names) {
    const kind = words(event.kind || "event");
    const who = typeof event.player === "number" ? names[event.player] : null;
    return who ? `${who}: ${kind}` : kind;
  }

  /** Entries since this seat's last move are highlighted; a spectator's since the last update. */
  markNewLog() {
    let from;
    if (this.seat !== null) from = this.sinceMove ? this.sinceMove.logCount : this.entries.length;
    else from = this.newFromIndex ?? this.entries.length;
    for (const li of this.logList.children) li.classList.toggle("new", Number(li.dataset.index) >= from);
  }

  setClocks(clocks) {
    if (!Array.isArray(clocks)) return;
    const at = performance.now();
    for (const c of clocks) this.clocks.set(c.seat, { ...c, at });
  }

  // -- helpers --------------------------------------------------------------------------------

  /** The view with its decision's options one by one (ranges written out, lib/decision.js)
   * and its words naming players as the page does: the engine says "player 0" (seats counted
   * from 0), the page "Ann" or "Seat 1". */
  withNames(view) {
    const decision = view && view.decision;
    if (!decision) return view;
    decision.options = expandOptions(decision.options);
    const names = this.names();
    const named = (text) => typeof text !== "string" ? text
      : text.replace(/\b([Pp])layer (\d+)\b/g, (all, _p, n) => names[Number(n)] ?? all);
    decision.prompt = named(decision.prompt);
    for (const option of decision.options || []) option.label = named(option.label);
    if (Array.isArray(decision.trail)) {
      decision.trail = decision.trail.map((step) => typeof step === "string" ? named(step)
        : step && typeof step === "object" ? { ...step, label: named(step.label), prompt: named(step.prompt) } : step);
    }
    return view;
  }

  names() {
    return (this.table ? this.table.seats : []).map(seatName);
  }

  /** The decision this page can answer now, or null (also while another tab has the seat). */
  decision() {
    const view = this.view;
    if (this.replaced || this.seat === null || !view || view.is_over || !view.decision) return null;
    if (view.decision.seat !== undefined && view.decision.seat !== this.seat) return null;
    return view.decision;
  }

  isOver() {
    return (this.table && (this.table.status === "finished" || this.table.status === "abandoned")) || (this.view && this.view.is_over);
  }

  // -- rendering ------------------------------------------------------------------------------

  renderAll() {
    this.renderHead();
    this.renderJoin();
    this.renderAway();
    this.addNotes();
    this.renderResult();
    this.renderGame();
    this.renderConnection();
  }

  /** Everything a new view changes. */
  renderGame() {
    this.renderBoard();
    this.renderDecision();
    this.renderPlayers();
    this.renderTurn();
    this.markNewLog();
    if (this.seat === null) this.newFromIndex = this.entries.length;
  }

  renderHead() {
    const t = this.table;
    if (!t) return;
    const words = { open: "waiting for players", running: "being played", finished: "finished", abandoned: "abandoned" }[t.status] || t.status;
    this.statusLine.textContent = ` · ${plural(t.seats.length, "player")} · ${words}`;
  }

  renderConnection() {
    const c = this.connection;
    const text = {
      connecting: "Connecting…",
      open: "Connected",
      reconnecting: c.inMs ? `Connection lost; trying again in ${Math.ceil(c.inMs / 1000)} s` : "Reconnecting…",
      closed: {
        replaced: "This seat is now played in another tab or window.",
        no_table: "There is no such table.",
        bad_token: "This browser's seat token was refused.",
      }[c.reason] || "Disconnected",
    }[c.state] || c.state;
    clear(this.connectionLine).append(h("span", { class: ["dot", `dot-${c.state}`], "aria-hidden": "true" }), text);
  }

  renderTurn() {
    const notice = this.notice ? `${this.notice} ` : "";
    this.turnLine.textContent = notice + this.turnWords();
    const mine = Boolean(this.decision());
    document.title = `${mine ? "▶ Your move — " : ""}${this.gameInfo ? this.gameInfo.name : "Table"} — Arabesque`;
  }

  /** Whose turn it is, in words. */
  turnWords() {
    const view = this.view;
    const t = this.table;
    if (!t) return "";
    if (t.status === "abandoned") return `The game was abandoned: ${t.end_reason || "ended by the host"}.`;
    if (this.isOver()) return "The game is over.";
    if (t.status === "open") return "The game starts when every seat is taken.";
    if (!view || !Array.isArray(view.to_act)) return "";
    const names = this.names();
    const others = view.to_act.filter((s) => s !== this.seat).map((s) => names[s] ?? `Seat ${s + 1}`);
    const decision = this.decision();
    if (decision && decision.reaction) return decision.prompt;
    if (decision) return others.length ? `Your move. Also deciding: ${others.join(", ")}.` : "Your move.";
    return others.length ? `Waiting for ${others.join(", ")}.` : "";
  }

  renderPlayers() {
    clear(this.playersList);
    if (!this.table) return;
    this.hintsNote.hidden = !this.table.hints;
    const toAct = new Set(this.view && !this.isOver() ? this.view.to_act || [] : []);
    this.table.seats.forEach((seat, i) => {
      const clock = h("span", { class: "clock", dataset: { seat: String(i) } });
      const bits = [
        h("span", { class: "player-name" }, [seatName(seat), i === this.seat ? " (you)" : ""]),
      ];
      if (toAct.has(i)) bits.push(h("span", { class: "to-act" }, ["to move"]));
      if (seat.kind === "human" && !this.isOver()) {
        bits.push(h("span", { class: seat.connected ? "presence on" : "presence off" }, [seat.taken ? (seat.connected ? "here" : "away") : "free seat"]));
        if (seat.played_by) bits.push(h("span", { class: "stand-in" }, [`played by a ${seat.played_by} bot`]));
      }
      bits.push(clock);
      this.playersList.append(h("li", { class: ["player", i === this.seat && "me", toAct.has(i) && "acting"] }, bits));
    });
    this.tickClocks();
  }

  tickClocks() {
    const now = performance.now();
    for (const el of this.root.querySelectorAll(".clock[data-seat]")) {
      const c = this.clocks.get(Number(el.dataset.seat));
      const toAct = this.view && (this.view.to_act || []).includes(Number(el.dataset.seat));
      if (!c || this.isOver()) {
        el.textContent = "";
        continue;
      }
      const parts = [];
      if (c.move_left_ms !== null && c.move_left_ms !== undefined && toAct) parts.push(`${formatMs(c.move_left_ms - (now - c.at))} for this move`);
      if (c.game_left_ms !== null && c.game_left_ms !== undefined) {
        const running = toAct ? now - c.at : 0;
        parts.push(`${formatMs(c.game_left_ms - running)} in all`);
      }
      el.textContent = parts.join(" · ");
      el.classList.toggle("low", c.move_left_ms !== null && c.move_left_ms !== undefined && toAct && c.move_left_ms - (now - c.at) < 10000);
    }
  }

  renderBoard() {
    const view = this.view;
    this.boardMarks = new Map();
    this.signatures = new Map();
    this.keyElements = new Map();
    if (!view) {
      clear(this.board).append(h("p", { class: "muted board-empty" }, [
        this.table && this.table.status === "open" ? "The board appears when the game starts." : "Loading the game…",
      ]));
      return;
    }
    const focusedAction = this.board.contains(document.activeElement) ? document.activeElement.dataset.action : undefined;
    const ctx = this.context();
    let drawn = null;
    this.boardNote.hidden = true;
    try {
      drawn = this.renderer.render(view, ctx);
    } catch (err) {
      console.error("the board renderer failed", err);
      this.boardMarks = new Map();
      this.signatures = new Map();
      this.keyElements = new Map();
      drawn = generic.render(view, ctx);
      this.boardNote.hidden = false;
      this.boardNote.textContent = "The board could not be drawn (a bug in this game's drawing); the plain view is shown instead. Every move is still in the list.";
    }
    clear(this.board).append(drawn);
    this.highlightChanges();
    this.applyHot();
    if (focusedAction !== undefined) {
      const again = this.boardMarks.get(Number(focusedAction));
      if (again && again[0]) again[0].focus();
    }
  }

  isNarrow() {
    const width = this.board.clientWidth || window.innerWidth;
    return width < NARROW_PX;
  }

  context() {
    return {
      seat: this.seat,
      names: this.names(),
      decision: this.decision(),
      settings: { ...this.settings },
      narrow: this.isNarrow(),
      mark: (el, option) => this.mark(el, option),
      key: (el, key, signature) => {
        this.signatures.set(String(key), String(signature));
        const list = this.keyElements.get(String(key)) || [];
        list.push(el);
        this.keyElements.set(String(key), list);
      },
    };
  }

  /** Make `el` the place of `option` on the board (docs/web.md, ctx.mark). */
  mark(el, option) {
    if (!el || !option) return;
    const action = option.action;
    el.classList.add("option-mark");
    el.dataset.action = String(action);
    if (!(el instanceof HTMLButtonElement)) {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
    }
    el.setAttribute("aria-label", option.label);
    // A hover hint too, unless the renderer gave its own.
    if (el instanceof SVGElement) {
      if (!el.querySelector(":scope > title")) {
        const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
        title.textContent = option.label;
        el.prepend(title);
      }
    } else if (!el.title) {
      el.title = option.label;
    }
    el.addEventListener("click", (event) => {
      event.stopPropagation();
      this.play(option);
    });
    el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopPropagation();
        this.play(option);
      }
    });
    el.addEventListener("mouseenter", () => this.setHot(action));
    el.addEventListener("mouseleave", () => this.setHot(null));
    el.addEventListener("focus", () => this.setHot(action));
    el.addEventListener("blur", () => this.setHot(null));
    const list = this.boardMarks.get(action) || [];
    list.push(el);
    this.boardMarks.set(action, list);
  }

  /** Parts of the board whose signature differs from the one at this seat's last move. */
  highlightChanges() {
    const current = Object.fromEntries(this.signatures);
    let baseline;
    if (this.seat !== null) {
      if (!this.sinceMove) this.sinceMove = { signatures: current, logCount: this.entries.length };
      baseline = this.sinceMove.signatures;
    } else {
      baseline = this.previousSignatures;
      this.previousSignatures = current;
    }
    if (!baseline || !Object.keys(baseline).length) return;
    for (const [key, signature] of this.signatures) {
      if (baseline[key] === signature) continue;
      for (const el of this.keyElements.get(key) || []) el.classList.add("changed");
    }
  }

  setHot(action) {
    this.hot = action;
    this.applyHot();
  }

  applyHot() {
    for (const el of this.root.querySelectorAll(".hot")) el.classList.remove("hot");
    if (this.hot === null || this.hot === undefined) return;
    for (const el of this.boardMarks.get(this.hot) || []) el.classList.add("hot");
    const button = this.decisionPanel.querySelector(`button[data-action="${this.hot}"]`);
    if (button) button.classList.add("hot");
  }

  renderDecision() {
    const panel = this.decisionPanel;
    const hadFocus = panel.contains(document.activeElement);
    const focusedAction = hadFocus ? document.activeElement.dataset.action : undefined;
    clear(panel);
    const decision = this.decision();
    const view = this.view;
    panel.classList.toggle("active", Boolean(decision));
    panel.classList.toggle("racing", Boolean(decision && decision.reaction));
    if (!view || this.isOver()) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    if (!decision && this.replaced) {
      panel.append(h("h2", {}, ["Paused"]), h("p", { class: "muted" }, ["This seat is played in another tab. Press “Play here” above to play it here."]));
      return;
    }
    if (!decision) {
      panel.append(h("h2", {}, [this.seat === null ? "Watching" : "Waiting"]),
        h("p", { class: "muted" }, [this.seat === null ? "You are watching this game." : "Nothing for you to decide right now."]));
      return;
    }
    // On a phone the panel sits over the board: it can be folded to its prompt, leaving the
    // options marked on the board to be tapped there.
    const fold = h("button", {
      type: "button",
      class: "fold",
      "aria-expanded": String(!this.folded),
      "aria-controls": "decision",
      onclick: () => { this.folded = !this.folded; this.renderDecision(); },
    }, [this.folded ? "Show the choices" : "Hide the choices"]);
    panel.classList.toggle("folded", Boolean(this.folded) && !decision.reaction);
    panel.append(h("div", { class: "decision-head" }, [h("h2", {}, ["Your move"]), decision.reaction ? null : fold]));
    const trail = (decision.trail || []).map(stepText);
    if (trail.length) {
      panel.append(h("nav", { class: "trail", "aria-label": "Earlier steps of this move" }, [
        h("ol", {}, trail.map((step) => h("li", {}, [step]))),
      ]));
    }
    panel.append(h("p", { class: "prompt", id: "decision-prompt" }, [decision.prompt]));
    const cards = this.contextCards(decision.context);
    if (cards.length) panel.append(h("div", { class: "context" }, cards));
    const myClock = this.clocks.get(this.seat);
    if (myClock && myClock.move_left_ms !== null && myClock.move_left_ms !== undefined) {
      panel.append(h("p", { class: "my-clock" }, ["Time left: ", h("span", { class: "clock", dataset: { seat: String(this.seat) } })]));
    }

    if (decision.reaction) {
      panel.append(this.lampButton(view));
    } else {
      // A race is over before a hint could arrive: hints are for the other decisions. The
      // hint goes above the options, where it stays in sight however many options there are
      // (Magic Lamp's dice: 18), and its options are marked in the list.
      if (this.table && this.table.hints) panel.append(this.hintArea(view));
      panel.append(this.optionList(decision, this.shownHint(view)));
    }
    if (this.decisionError) panel.append(h("p", { class: "decision-error", role: "alert" }, [this.decisionError]));
    if (this.pending) panel.append(h("p", { class: "pending", role: "status" }, [`Sending: ${this.pending.label}…`]));
    this.tickClocks();
    this.applyHot();

    if (hadFocus) {
      const again = focusedAction !== undefined && panel.querySelector(`[data-action="${focusedAction}"]`);
      const target = again || panel.querySelector(".lamp-button, .option-list button");
      if (target) target.focus();
    }
  }

  /** Context entries worth showing: cards with a name and their text (a wish's lamp card). */
  contextCards(context) {
    if (!context || typeof context !== "object") return [];
    const cards = [];
    for (const value of Object.values(context)) {
      if (value && typeof value === "object" && typeof value.text === "string") {
        cards.push(h("div", { class: "context-card" }, [h("strong", {}, [value.name || ""]), " ", value.text]));
      }
    }
    return cards;
  }

  optionList(decision, hint = null) {
    const list = h("ol", { class: ["option-list", decision.options.length > 8 && "many"], "aria-labelledby": "decision-prompt" });
    const ranks = new Map();
    if (hint && hint.found) hint.found.options.forEach((o, r) => { if (o.action !== null) ranks.set(o.action, r + 1); });
    decision.options.forEach((option, i) => {
      const key = OPTION_KEYS[i];
      const rank = ranks.get(option.action);
      const button = h("button", {
        type: "button",
        class: ["option", rank && "hinted"],
        title: option.text,
        disabled: Boolean(this.pending),
        "aria-keyshortcuts": key,
        dataset: { action: String(option.action), index: String(i) },
        onclick: () => this.play(option),
      }, [
        key ? h("kbd", { "aria-hidden": "true" }, [key]) : null,
        h("span", { class: "option-label" }, [option.label]),
        rank ? h("span", { class: "hint-rank", title: `the hint's choice no. ${rank}` }, [`hint ${rank}`]) : null,
      ]);
      button.addEventListener("mouseenter", () => this.setHot(option.action));
      button.addEventListener("mouseleave", () => this.setHot(null));
      button.addEventListener("focus", () => this.setHot(option.action));
      button.addEventListener("blur", () => this.setHot(null));
      list.append(h("li", {}, [button]));
    });
    return list;
  }

  /** The Hint button of a table created with hints, and the hint for this move once asked. */
  /** The hint asked for at this version of the view, if any (waiting, failed or found). */
  shownHint(view) {
    return this.hint && this.hint.version === view.version ? this.hint : null;
  }

  hintArea(view) {
    const shown = this.shownHint(view);
    const button = h("button", {
      type: "button", class: "secondary hint-button", disabled: Boolean(shown && shown.waiting),
      onclick: () => this.askHint(),
    }, ["Hint"]);
    let body = null;
    if (shown && shown.waiting) body = h("p", { class: "hint-waiting", role: "status" }, ["Thinking about your move…"]);
    else if (shown && shown.error) body = h("p", { class: "hint-error", role: "alert" }, [`No hint: ${shown.error}`]);
    else if (shown) body = hintBox(shown.found, "you");
    return h("div", { class: "hint-area" }, [button, body]);
  }

  async askHint() {
    const view = this.view;
    const mine = store.seatAt(this.tableId);
    if (!view || !mine) return;
    const version = view.version;
    this.hint = { version, waiting: true };
    this.renderDecision();
    let outcome;
    try {
      outcome = { version, found: await api.tableHint(this.tableId, mine.token) };
    } catch (err) {
      outcome = { version, error: err.message };
    }
    if (this.hint && this.hint.version === version) this.hint = outcome;
    this.renderDecision();
  }

  lampButton(view) {
    const pressed = this.reactedVersion === view.version;
    const button = h("button", {
      type: "button",
      class: "lamp-button",
      disabled: pressed,
      "aria-keyshortcuts": "Space",
      "aria-describedby": "lamp-hint",
      onclick: () => this.react(),
    }, [lampIcon(), h("span", {}, [pressed ? "Rubbed" : "Rub the lamp"])]);
    return h("div", { class: "lamp" }, [
      button,
      h("p", { id: "lamp-hint", class: "muted", role: "status" }, [
        pressed ? "Rubbed — waiting for the others." : "Press the button or the space bar if you see a face shared with another die. Stay still if not.",
      ]),
    ]);
  }

  renderJoin() {
    const area = this.joinArea;
    const t = this.table;
    clear(area);
    if (!t || t.status !== "open") {
      area.hidden = true;
      return;
    }
    area.hidden = false;
    const free = t.seats.filter((s) => s.kind === "human" && !s.taken);
    area.append(h("h2", {}, ["Waiting for players"]));
    area.append(h("p", {}, [free.length
      ? `${plural(free.length, "seat")} free. The game starts as soon as every seat is taken.`
      : "Every seat is taken; the game starts when the host starts it."]));
    if (free.length) {
      const link = `${location.origin}/tables/${this.tableId}`;
      const input = h("input", { type: "text", readonly: true, value: link, id: "share-link", class: "share-input" });
      const copied = h("span", { class: "muted", role: "status" });
      const copy = h("button", { type: "button", onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          copied.textContent = "Copied.";
        } catch {
          input.select();
          copied.textContent = "Select and copy the link.";
        }
      } }, ["Copy the link"]);
      area.append(h("div", { class: "share" }, [h("label", { for: "share-link" }, ["Invite a friend with this link"]), h("div", { class: "share-row" }, [input, copy, copied])]));
    }
    if (this.seat === null && free.length) {
      const nameId = "join-name";
      // Kept as typed: the join area is drawn again whenever the table changes.
      const nameInput = h("input", {
        id: nameId, type: "text", maxlength: 64, value: store.playerName(), autocomplete: "nickname",
        oninput: () => store.savePlayerName(nameInput.value.trim()),
      });
      const message = h("p", { class: "form-error", role: "alert" });
      const buttons = free.map((s) => h("button", {
        type: "button",
        class: "primary",
        onclick: async () => {
          message.textContent = "";
          const name = nameInput.value.trim();
          store.savePlayerName(name);
          try {
            const joined = await api.join(this.tableId, s.seat, name || null);
            store.saveSeat(this.tableId, joined.seat, joined.token);
            this.notice = "";
            this.socket.restart(joined.token);
          } catch (err) {
            message.textContent = `Could not take the seat: ${err.message}`;
          }
        },
      }, [`Take seat ${s.seat + 1}`]));
      area.append(h("div", { class: "join" }, [
        h("div", { class: "field" }, [h("label", { for: nameId }, ["Your name"]), nameInput]),
        h("div", { class: "join-buttons" }, buttons),
        h("p", { class: "muted" }, ["Or stay and watch: the game appears here when it starts."]),
        message,
      ]));
    }
    const host = store.hostToken(this.tableId);
    if (host) {
      const agentId = "fill-agent";
      const agents = this.gameInfo ? this.gameInfo.agents : [];
      const chosen = api.defaultAgent(this.gameInfo);
      const select = h("select", { id: agentId }, api.agentChoices(this.gameInfo).map((c) => h("option", { value: c.value, selected: c.value === chosen }, [c.label])));
      const message = h("p", { class: "form-error", role: "alert" });
      const act = (call) => async () => {
        message.textContent = "";
        try {
          this.table = await call();
          this.renderAll();
        } catch (err) {
          message.textContent = err.message;
        }
      };
      const controls = [];
      let explain;
      if (free.length && agents.length) {
        // A table starts only with every seat taken: Start seats bots in the free ones first
        // (the fill starts a table made to start by itself; else start it).
        const startWithBots = async () => {
          const filled = await api.fill(this.tableId, host, select.value);
          return filled.status === "open" ? api.start(this.tableId, host) : filled;
        };
        controls.push(h("div", { class: "field inline" }, [h("label", { for: agentId }, ["Bots"]), select]),
          h("button", { type: "button", class: "primary", onclick: act(startWithBots) }, ["Start"]));
        const where = free.length === 1 ? "the free seat" : `each of the ${free.length} free seats`;
        explain = `Start puts a bot of the kind chosen in ${where} and starts the game now. Or wait: the game starts by itself once friends have taken every seat.`;
      } else {
        controls.push(h("button", { type: "button", class: "primary", onclick: act(() => api.start(this.tableId, host)) }, ["Start"]));
        explain = free.length ? "" : "Every seat is taken: Start starts the game.";
      }
      area.append(h("div", { class: "host" }, [
        h("h3", {}, ["You are the host"]),
        h("div", { class: "host-row" }, controls),
        explain ? h("p", { class: "hint host-hint" }, [explain]) : null,
        message,
      ]));
    }
  }

  /** The table's notes (a bot stands in, a player is back, the game abandoned) in the log. */
  addNotes() {
    const notes = (this.table && this.table.notes) || [];
    if (notes.length <= this.notesShown) return;
    for (const note of notes.slice(this.notesShown)) {
      this.logList.append(h("li", { class: ["log-entry", "log-note", `note-${note.kind}`] }, [note.text]));
    }
    this.notesShown = notes.length;
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  /** While the game runs: each player away past the table's time, with "Let a bot play for
   * NAME" for the host and the seated players; the host's "End the game". */
  renderAway() {
    const area = this.awayArea;
    const t = this.table;
    clear(area);
    const host = store.hostToken(this.tableId);
    const mine = store.seatAt(this.tableId);
    const token = mine && this.seat !== null ? mine.token : host;
    if (!t || t.status !== "running" || this.isOver() || (!token && !host)) {
      area.hidden = true;
      return;
    }
    const message = h("p", { class: "form-error", role: "alert" });
    const act = (call) => async (event) => {
      message.textContent = "";
      if (event && event.currentTarget) event.currentTarget.disabled = true;
      try {
        this.table = await call();
        this.renderAll();
      } catch (err) {
        message.textContent = err.message;
        if (event && event.currentTarget) event.currentTarget.disabled = false;
      }
    };
    const rows = [];
    for (const seat of t.seats) {
      if (!seat.away || seat.played_by || seat.seat === this.seat) continue;
      const name = seatName(seat);
      const since = seat.away_since ? new Date(seat.away_since) : null;
      const sinceWords = since ? ` since ${since.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}` : "";
      const agentId = `away-agent-${seat.seat}`;
      const chosen = api.defaultAgent(this.gameInfo);
      const agent = h("select", { id: agentId, "aria-label": `Bot for ${name}` }, api.agentChoices(this.gameInfo).map((c) => h("option", { value: c.value, selected: c.value === chosen }, [c.label])));
      rows.push(h("div", { class: "away-row" }, [
        h("span", {}, [`${name} has been away${sinceWords}.`]),
        agent,
        h("button", { type: "button", class: "primary", onclick: act(() => api.seatBot(this.tableId, seat.seat, token, agent.value)) }, [`Let a bot play for ${name}`]),
      ]));
    }
    if (rows.length) {
      rows.push(h("p", { class: "muted" }, ["The seat is theirs again the moment they come back."]));
    }
    if (host) {
      const end = h("button", { type: "button", class: "secondary danger", onclick: async (event) => {
        if (!window.confirm("End the game for everyone? Nobody wins; the record stays available.")) return;
        await act(() => api.abandon(this.tableId, host, "ended by the host"))(event);
      } }, ["End the game"]);
      rows.push(h("div", { class: "host-row" }, [end]));
    }
    area.hidden = rows.length === 0;
    area.append(...rows, message);
  }

  renderResult() {
    const area = this.resultArea;
    const t = this.table;
    clear(area);
    if (t && t.status === "abandoned") {
      area.hidden = false;
      area.append(
        h("h2", { id: "result-title" }, ["Game abandoned"]),
        h("p", {}, [`The game ended before its end (${t.end_reason || "ended by the host"}). Nobody wins.`]),
        h("p", { class: "result-links" }, [
          h("a", { class: "button", href: `/tables/${this.tableId}/replay` }, ["Watch the replay"]),
          h("a", { class: "button secondary", href: api.recordUrl(this.tableId), download: `arabesque-${this.tableId}.json` }, ["Download the record"]),
          h("a", { class: "button secondary", href: "/" }, ["Back to the lobby"]),
        ]),
      );
      if (t.commitment) {
        area.append(h("p", { class: "muted" }, ["Check the deal: ", h("code", {}, [`arabesque verify --commitment ${t.commitment} arabesque-${this.tableId}.json`])]));
      }
      return;
    }
    if (!t || t.status !== "finished") {
      area.hidden = true;
      return;
    }
    area.hidden = false;
    const names = this.names();
    const result = t.result || {};
    const scores = result.scores || [];
    const ranking = result.ranking || [];
    area.append(h("h2", { id: "result-title" }, ["Game over"]));
    const winners = names.filter((_, i) => ranking[i] === 1);
    if (winners.length) {
      const youWon = this.seat !== null && ranking[this.seat] === 1;
      area.append(h("p", { class: "winner-line" }, [youWon
        ? (winners.length > 1 ? `You share the win with ${winners.filter((_, i) => i !== this.seat).join(", ")}!` : "You win!")
        : `${winners.join(" and ")} ${winners.length > 1 ? "share the win" : "wins"}.`]));
    }
    const order = scores.map((_, i) => i).sort((a, b) => (ranking[a] ?? 99) - (ranking[b] ?? 99));
    const rows = order.map((i) => {
      const score = scores[i] || {};
      const parts = Object.entries(score.breakdown || {}).filter(([, v]) => v !== 0 && v !== null)
        .map(([k, v]) => `${words(k)} ${v}`);
      return h("tr", { class: ranking[i] === 1 ? "winner" : "" }, [
        h("td", {}, [ranking[i] !== undefined ? String(ranking[i]) : ""]),
        h("th", { scope: "row" }, [names[i] ?? `Seat ${i + 1}`, i === this.seat ? " (you)" : ""]),
        h("td", { class: "total" }, [String(score.total ?? "")]),
        h("td", { class: "breakdown" }, [parts.join(", ") || "—"]),
      ]);
    });
    area.append(h("table", { class: "scores" }, [
      h("caption", { class: "sr-only" }, ["Final scores"]),
      h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, ["Rank"]), h("th", { scope: "col" }, ["Player"]), h("th", { scope: "col" }, ["Points"]), h("th", { scope: "col" }, ["Where they came from"])])]),
      h("tbody", {}, rows),
    ]));
    area.append(h("p", { class: "result-links" }, [
      h("a", { class: "button", href: `/tables/${this.tableId}/replay` }, ["Watch the replay"]),
      h("a", { class: "button secondary", href: api.recordUrl(this.tableId), download: `arabesque-${this.tableId}.json` }, ["Download the record"]),
      h("a", { class: "button secondary", href: "/" }, ["Back to the lobby"]),
    ]));
    if (t.commitment) {
      const reveal = t.reveal || {};
      area.append(h("details", { class: "fairness" }, [
        h("summary", {}, ["Check that the deal was fair"]),
        h("p", {}, ["Before the first move the server published a commitment to the shuffle. Now that the game is over it reveals the seed and salt behind it, so anyone can check that the deal was fixed in advance."]),
        h("dl", {}, [
          h("dt", {}, ["Commitment (SHA-256)"]), h("dd", {}, [h("code", {}, [t.commitment])]),
          h("dt", {}, ["Seed"]), h("dd", {}, [h("code", {}, [reveal.seed ?? "—"])]),
          h("dt", {}, ["Salt"]), h("dd", {}, [h("code", {}, [reveal.salt ?? "—"])]),
        ]),
        h("p", {}, ["Download the record and run ", h("code", {}, [`arabesque verify --commitment ${t.commitment} arabesque-${this.tableId}.json`])]),
      ]));
    }
  }

  // -- playing --------------------------------------------------------------------------------

  play(option) {
    const decision = this.decision();
    if (!decision || this.pending || decision.reaction) return;
    if (!decision.options.some((o) => o.action === option.action)) return;
    const ref = this.nextRef++;
    const sent = this.socket.send({ type: "action", version: this.view.version, action: option.action, ref });
    if (!sent) {
      this.decisionError = "Not connected: your move was not sent. It can be made again once the connection is back.";
      this.renderDecision();
      return;
    }
    this.decisionError = "";
    this.pending = { ref, label: option.label };
    // What the board shows now is what "changed since my last move" compares with.
    this.sinceMove = { signatures: Object.fromEntries(this.signatures), logCount: this.entries.length };
    store.saveLastMove(this.tableId, this.sinceMove.signatures, this.sinceMove.logCount);
    this.markNewLog();
    this.renderDecision();
  }

  react() {
    const decision = this.decision();
    if (!decision || !decision.reaction || this.reactedVersion === this.view.version) return;
    const version = this.view.version;
    // The press goes first, before anything else: the server times it on arrival.
    const sent = this.socket.send({ type: "react", version, ref: this.nextRef++ });
    if (!sent) {
      this.decisionError = "Not connected: the lamp was not rubbed.";
      this.renderDecision();
      return;
    }
    this.reactedVersion = version;
    this.decisionError = "";
    this.renderDecision();
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    const decision = this.decision();
    if (!decision) return;
    if (decision.reaction) {
      if (event.key === " " || event.code === "Space") {
        event.preventDefault();
        this.react();
      }
      return;
    }
    const index = OPTION_KEYS.indexOf(event.key.toLowerCase());
    if (index >= 0 && index < decision.options.length && event.key.length === 1) {
      event.preventDefault();
      this.play(decision.options[index]);
      return;
    }
    const buttons = [...this.decisionPanel.querySelectorAll(".option-list button")];
    if (!buttons.length) return;
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    const inPanel = this.decisionPanel.contains(document.activeElement);
    const onPage = document.activeElement === document.body || inPanel;
    if (step && onPage) {
      event.preventDefault();
      const at = buttons.indexOf(document.activeElement);
      const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
      buttons[next].focus();
    } else if (event.key === "Enter" && document.activeElement === document.body && this.hot !== null) {
      const option = decision.options.find((o) => o.action === this.hot);
      if (option) {
        event.preventDefault();
        this.play(option);
      }
    }
  }
}

/** Our own lamp: a simple oil-lamp outline. */
function lampIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 64 40");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "lamp-icon");
  svg.innerHTML = '<path d="M6 28c8 0 12-4 18-4h18c6 0 10-6 14-12-6 2-8 6-14 6h-4c2-6-2-12-8-12s-10 6-8 12c-4 0-8-2-12 0-2 2-4 6-4 10z" fill="currentColor"/><path d="M22 34h20" stroke="currentColor" stroke-width="4" stroke-linecap="round"/>';
  return svg;
}
