// The lobby: create a table, join an open one, watch a running one, and find your recent
// games again. The creation form is built from GET /api/games (each game's players, bots and
// options), so a new game appears here without touching this file.
import { h, clear, plural } from "../lib/dom.js";
import * as api from "../lib/api.js";
import { seatName } from "../lib/api.js";
import * as store from "../lib/store.js";
import { setGame } from "../app.js";

const REFRESH_MS = 5000;

const CLOCKS = [
  { label: "No clock", seconds: null },
  { label: "30 seconds a move", seconds: 30 },
  { label: "1 minute a move", seconds: 60 },
  { label: "2 minutes a move", seconds: 120 },
  { label: "5 minutes a move", seconds: 300 },
];

const BOT_THINK = [
  { label: "half a second", seconds: 0.5 },
  { label: "1 second", seconds: 1 },
  { label: "2 seconds", seconds: 2 },
  { label: "5 seconds", seconds: 5 },
];

/** How long a player's connection may be gone before the others may let a bot play for them. */
const AWAY = [
  { label: "30 seconds", seconds: 30 },
  { label: "1 minute", seconds: 60 },
  { label: "2 minutes", seconds: 120 },
  { label: "5 minutes", seconds: 300 },
  { label: "15 minutes", seconds: 900 },
];

let uid = 0;
/** A fresh element id, to tie labels to controls. */
function fresh(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString([], { day: "numeric", month: "short" });
}

export async function mount(root) {
  setGame(null);
  document.title = "Arabesque — lobby";
  const errorBox = h("p", { class: "form-error", role: "alert" });
  const nameInput = h("input", {
    id: "player-name", type: "text", maxlength: 64, autocomplete: "nickname",
    value: store.playerName(), placeholder: "Your name",
  });
  nameInput.addEventListener("change", () => store.savePlayerName(nameInput.value.trim()));

  const createSection = h("section", { class: "card create", "aria-labelledby": "create-title" }, [
    h("h2", { id: "create-title" }, ["New table"]),
    h("p", { class: "muted" }, ["Loading the games…"]),
  ]);
  const gamesSection = h("section", { class: "card games", "aria-labelledby": "games-title", hidden: true }, [
    h("h2", { id: "games-title" }, ["The games"]),
  ]);
  const openList = h("div", { class: "table-list", "aria-live": "polite" });
  const runningList = h("div", { class: "table-list" });
  const recentList = h("div", { class: "table-list" });

  clear(root).append(
    h("div", { class: "lobby" }, [
      h("div", { class: "intro" }, [
        h("div", {}, [
          h("h1", {}, ["Play Arabesque"]),
          h("p", {}, ["Sit down at a table with friends or bots, or watch a game being played."]),
        ]),
        h("div", { class: "field name-field" }, [h("label", { for: "player-name" }, ["Your name"]), nameInput]),
      ]),
      errorBox,
      gamesSection,
      h("div", { class: "lobby-columns" }, [
        h("div", { class: "lobby-column" }, [createSection]),
        h("div", { class: "lobby-column" }, [
          h("section", { class: "card", "aria-labelledby": "open-title" }, [h("h2", { id: "open-title" }, ["Open tables"]), openList]),
          h("section", { class: "card", "aria-labelledby": "running-title" }, [h("h2", { id: "running-title" }, ["Games being played"]), runningList]),
          h("section", { class: "card", "aria-labelledby": "recent-title" }, [h("h2", { id: "recent-title" }, ["Your recent games"]), recentList]),
        ]),
      ]),
    ]),
  );

  const name = () => nameInput.value.trim();
  let games = [];
  try {
    games = await api.games();
  } catch (err) {
    clear(createSection).append(h("h2", {}, ["New table"]), h("p", { role: "alert" }, [err.message]));
  }
  const gameById = Object.fromEntries(games.map((g) => [g.id, g]));
  if (games.length) {
    clear(createSection).append(h("h2", { id: "create-title" }, ["New table"]), createForm(games, name, (msg) => { errorBox.textContent = msg; }));
    gamesSection.hidden = false;
    gamesSection.append(gameList(games));
  }

  async function joinSeat(tableId, seat) {
    errorBox.textContent = "";
    try {
      const joined = await api.join(tableId, seat, name() || null);
      store.savePlayerName(name());
      store.saveSeat(tableId, joined.seat, joined.token);
      location.assign(`/tables/${tableId}`);
    } catch (err) {
      errorBox.textContent = `Could not take the seat: ${err.message}`;
      refresh();
    }
  }

  const gameName = (id) => (gameById[id] ? gameById[id].name : id);

  function tableRow(table, actions) {
    return h("div", { class: "table-row" }, [
      h("div", { class: "table-what" }, [
        h("strong", {}, [gameName(table.game)]),
        h("span", { class: "muted" }, [` · ${plural(table.seats.length, "player")} · ${when(table.created_at)}${table.hints ? " · hints allowed" : ""}`]),
        h("div", { class: "seat-names" }, [table.seats.map((s) => seatName(s) + (s.kind === "human" && !s.taken ? " (free)" : "")).join(", ")]),
      ]),
      h("div", { class: "table-actions" }, actions),
    ]);
  }

  function renderOpen(tables) {
    clear(openList);
    if (!tables.length) {
      openList.append(h("p", { class: "muted" }, ["No table is waiting for players. Create one!"]));
      return;
    }
    for (const table of tables) {
      const mine = store.seatAt(table.id);
      const actions = mine
        ? [h("a", { class: "button", href: `/tables/${table.id}` }, ["Back to your seat"])]
        : table.seats
          .filter((s) => s.kind === "human" && !s.taken)
          .map((s) => h("button", {
            type: "button",
            "aria-label": `Join ${gameName(table.game)} at seat ${s.seat + 1}`,
            onclick: () => joinSeat(table.id, s.seat),
          }, [`Join seat ${s.seat + 1}`]));
      actions.push(h("a", { class: "button secondary", href: `/tables/${table.id}` }, ["Look"]));
      openList.append(tableRow(table, actions));
    }
  }

  function renderRunning(tables) {
    clear(runningList);
    if (!tables.length) {
      runningList.append(h("p", { class: "muted" }, ["No game is being played right now."]));
      return;
    }
    for (const table of tables) {
      const mine = store.seatAt(table.id);
      runningList.append(tableRow(table, [
        h("a", { class: "button", href: `/tables/${table.id}` }, [mine ? "Resume" : "Watch"]),
      ]));
    }
  }

  function renderRecent() {
    clear(recentList);
    const recent = store.recentGames();
    if (!recent.length) {
      recentList.append(h("p", { class: "muted" }, ["Games you play here are listed here."]));
      return;
    }
    for (const game of recent) {
      const href = `/tables/${game.tableId}`;
      const actions = game.status === "finished"
        ? [h("a", { class: "button", href: `${href}/replay` }, ["Replay"]), h("a", { class: "button secondary", href }, ["Result"])]
        : [h("a", { class: "button", href }, [game.seat === null || game.seat === undefined ? "Watch" : "Resume"])];
      const seatWords = game.seat === null || game.seat === undefined ? "watched" : `seat ${game.seat + 1}`;
      recentList.append(h("div", { class: "table-row" }, [
        h("div", { class: "table-what" }, [
          h("strong", {}, [gameName(game.game)]),
          h("span", { class: "muted" }, [` · ${seatWords} · ${when(game.when)} · ${game.status || "?"}`]),
        ]),
        h("div", { class: "table-actions" }, actions),
      ]));
    }
  }

  async function refresh() {
    try {
      // The lobby's list: open tables and the running ones being played (docs/protocol.md).
      const tables = await api.tables();
      renderOpen(tables.filter((t) => t.status === "open"));
      renderRunning(tables.filter((t) => t.status === "running"));
      const live = new Map(tables.map((t) => [t.id, t.status]));
      for (const game of store.recentGames()) {
        if (live.has(game.tableId)) store.noteStatus(game.tableId, live.get(game.tableId));
        else if (game.status !== "finished" && game.status !== "abandoned") {
          // Not open nor running: finished, unless the server forgot it.
          api.table(game.tableId).then((t) => { store.noteStatus(t.id, t.status); renderRecent(); }, () => {});
        }
      }
    } catch (err) {
      clear(openList).append(h("p", { role: "alert" }, [err.message]));
    }
    renderRecent();
  }

  await refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  window.addEventListener("pagehide", () => clearInterval(timer), { once: true });
}

// -- the creation form -----------------------------------------------------------------------

function selectField(label, options, selectedIndex = 0, attrs = {}) {
  const id = fresh("f");
  const select = h("select", { id, ...attrs }, options.map((o, i) =>
    h("option", { value: String(i), selected: i === selectedIndex }, [o.label])));
  return { field: h("div", { class: "field" }, [h("label", { for: id }, [label]), select]), select };
}

/** A control for one game option ({name, kind, default, choices, label, help,
 * choice_labels}: the game's own words, GET /api/games); `read()` gives its value. */
function optionField(option) {
  const id = fresh("opt");
  const hintId = `${id}-hint`;
  const spaced = option.label || option.name.replace(/_/g, " ");
  const label = spaced.charAt(0).toUpperCase() + spaced.slice(1);
  // Beside a checkbox's label the help goes on from it; under a control it is a sentence.
  const sentence = option.help ? option.help.charAt(0).toUpperCase() + option.help.slice(1) : "";
  const hint = option.help ? h("span", { class: "hint", id: hintId }, [option.kind === "bool" ? option.help : sentence]) : null;
  const described = option.help ? { "aria-describedby": hintId } : {};
  if (option.kind === "bool") {
    const input = h("input", { id, type: "checkbox", checked: Boolean(option.default), ...described });
    return {
      field: h("div", { class: "field check" }, [input, h("label", { for: id }, [label, hint ? h("span", { class: "hint-sep" }, [": "]) : null, hint])]),
      read: () => input.checked,
    };
  }
  if (option.kind === "int") {
    const input = h("input", { id, type: "number", step: 1, value: option.default ?? "", min: option.min, max: option.max, ...described });
    return {
      field: h("div", { class: "field" }, [h("label", { for: id }, [label]), input, hint]),
      read: () => (input.value === "" ? null : Number.parseInt(input.value, 10)),
    };
  }
  // Choices keep their JSON type (tom_deck's are integers): the value is read by index.
  const choices = option.choices || [];
  const names = option.choice_labels || choices.map(String);
  const select = h("select", { id, ...described }, choices.map((c, i) => h("option", { value: String(i), selected: c === option.default }, [names[i] ?? String(c)])));
  return { field: h("div", { class: "field" }, [h("label", { for: id }, [label]), select, hint]), read: () => choices[Number(select.value)] };
}

/** "2–5 players" (or "1 player"). */
function playerRange(game) {
  if (game.min_players === game.max_players) return plural(game.min_players, "player");
  return `${game.min_players}–${game.max_players} players`;
}

/** One line per game: what it is, players, length, and a link to its rules. */
function gameList(games) {
  return h("ul", { class: "game-list" }, games.map((g) => h("li", { class: "game-line", dataset: { game: g.id } }, [
    h("strong", {}, [g.name]),
    g.description ? ` — ${g.description}` : "",
    h("span", { class: "muted" }, [` ${playerRange(g)}${g.length ? ` · ${g.length}` : ""} · `]),
    h("a", { href: `/rules/${encodeURIComponent(g.id)}`, "aria-label": `Rules of ${g.name}` }, ["Rules"]),
  ])));
}

function createForm(games, name, showError) {
  const form = h("form", { class: "create-form", novalidate: true });
  const gameField = selectField("Game", games.map((g) => ({ label: g.name })), 0, { name: "game" });
  const playersHolder = h("div");
  const seatsHolder = h("fieldset", { class: "seats-fieldset" });
  const optionsHolder = h("div", { class: "options" });
  const clock = selectField("Clock", CLOCKS, 0);
  const think = selectField("Bots think at most", BOT_THINK, 1);
  const awayField = selectField("A bot may stand in for a player away", AWAY, 2, { name: "away" });
  const hintsId = fresh("hints");
  const hintsBox = h("input", { id: hintsId, type: "checkbox", "aria-describedby": `${hintsId}-hint` });
  const hintsField = h("div", { class: "field check" }, [hintsBox, h("label", { for: hintsId }, [
    "Allow hints", h("span", { class: "hint-sep" }, [": "]),
    h("span", { class: "hint", id: `${hintsId}-hint` }, ["every player may ask the hard search bot for its best moves on their own turn (everyone sees that the table allows it)"]),
  ])]);
  const submit = h("button", { type: "submit", class: "primary" }, ["Create the table"]);
  const status = h("p", { class: "form-error", role: "alert" });

  let playersSelect = null;
  let seatSelects = [];
  let optionReaders = [];
  const game = () => games[Number(gameField.select.value)];

  function buildSeats() {
    const g = game();
    const count = Number(playersSelect.value);
    const before = seatSelects.map((s) => s.value);
    seatSelects = [];
    const choices = [{ label: "Open for a friend", value: "human" }].concat(
      api.agentChoices(g).map((c) => ({ label: `Bot: ${c.label}`, value: `bot:${c.value}` })));
    const rows = [];
    for (let i = 1; i < count; i += 1) {
      const id = fresh("seat");
      // Bots by default (the strongest listed first by the server), keeping earlier choices.
      const chosen = before[i - 1] ?? `bot:${api.defaultAgent(g)}`;
      const select = h("select", { id }, choices.map((c) => h("option", { value: c.value, selected: c.value === chosen }, [c.label])));
      seatSelects.push(select);
      rows.push(h("div", { class: "field" }, [h("label", { for: id }, [`Seat ${i + 1}`]), select]));
    }
    clear(seatsHolder).append(h("legend", {}, ["Who sits with you (you take seat 1)"]), ...rows,
      h("p", { class: "hint" }, ["A seat open for a friend waits for them: share the table's link. The game starts when every seat is taken, or when you press Start, which seats bots in the seats still free."]));
  }

  function buildGame() {
    const g = game();
    const id = fresh("players");
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n += 1) counts.push(n);
    playersSelect = h("select", { id }, counts.map((n) => h("option", { value: String(n), selected: n === g.default_players }, [String(n)])));
    playersSelect.addEventListener("change", buildSeats);
    clear(playersHolder).append(h("div", { class: "field" }, [h("label", { for: id }, ["Players"]), playersSelect]));
    seatSelects = [];
    buildSeats();
    optionReaders = [];
    clear(optionsHolder);
    for (const option of g.options || []) {
      const { field, read } = optionField(option);
      optionReaders.push([option.name, read]);
      optionsHolder.append(field);
    }
  }

  gameField.select.addEventListener("change", buildGame);
  buildGame();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    showError("");
    const g = game();
    const me = name();
    store.savePlayerName(me);
    const seats = [{ kind: "human", ...(me ? { name: me } : {}) }].concat(seatSelects.map((s) =>
      s.value === "human" ? { kind: "human" } : { kind: "bot", agent: s.value.slice(4) }));
    const options = {};
    for (const [key, read] of optionReaders) {
      const value = read();
      if (value !== null && value !== undefined && !Number.isNaN(value)) options[key] = value;
    }
    const spec = {
      game: g.id,
      players: Number(playersSelect.value),
      options,
      seats,
      clock: { per_move_s: CLOCKS[Number(clock.select.value)].seconds },
      bot_think_s: BOT_THINK[Number(think.select.value)].seconds,
      away_s: AWAY[Number(awayField.select.value)].seconds,
      hints: hintsBox.checked,
      auto_start: true,
    };
    submit.disabled = true;
    submit.textContent = "Creating…";
    try {
      const created = await api.createTable(spec);
      const tableId = created.table.id;
      store.saveHostToken(tableId, created.host_token);
      const joined = await api.join(tableId, 0, me || null);
      store.saveSeat(tableId, joined.seat, joined.token);
      store.noteGame({ tableId, game: g.id, seat: joined.seat, status: "open" });
      location.assign(`/tables/${tableId}`);
    } catch (err) {
      status.textContent = `The table was not created: ${err.message}`;
      submit.disabled = false;
      submit.textContent = "Create the table";
    }
  });

  form.append(
    h("div", { class: "form-grid" }, [gameField.field, playersHolder, clock.field, think.field, awayField.field]),
    optionsHolder,
    hintsField,
    seatsHolder,
    h("div", { class: "form-actions" }, [submit]),
    status,
  );
  return form;
}
