// What this browser remembers, in localStorage: seat and host tokens (the server shows each
// only once), recent games, the player's name and display settings. A browser that refuses
// storage (private mode, quota) still works for the session, from memory.

const PREFIX = "arabesque.";
const memory = new Map();

function read(key, fallback) {
  let text = null;
  try {
    text = localStorage.getItem(PREFIX + key);
  } catch {
    text = memory.get(key) ?? null;
  }
  if (text === null) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  const text = JSON.stringify(value);
  try {
    localStorage.setItem(PREFIX + key, text);
  } catch {
    memory.set(key, text);
  }
}

/** Keep at most this many recent games. */
const RECENT_LIMIT = 30;

// -- seats and hosts --------------------------------------------------------------------------

/** This browser's seat at a table: {seat, token}, or null. */
export function seatAt(tableId) {
  return read("seats", {})[tableId] ?? null;
}

export function saveSeat(tableId, seat, token) {
  const seats = read("seats", {});
  seats[tableId] = { seat, token };
  write("seats", seats);
}

export function forgetSeat(tableId) {
  const seats = read("seats", {});
  delete seats[tableId];
  write("seats", seats);
}

/** The host token of a table this browser created, or null. */
export function hostToken(tableId) {
  return read("hosts", {})[tableId] ?? null;
}

export function saveHostToken(tableId, token) {
  const hosts = read("hosts", {});
  hosts[tableId] = token;
  write("hosts", hosts);
}

// -- recent games -----------------------------------------------------------------------------

/** Recent games, newest first: [{tableId, game, seat, when, status}]. */
export function recentGames() {
  return read("recent", []);
}

/** Add or update a recent game (merging with what is known of it) and move it first. */
export function noteGame(entry) {
  const recent = recentGames();
  const old = recent.find((g) => g.tableId === entry.tableId) || {};
  const merged = { ...old, ...entry, when: entry.when ?? old.when ?? new Date().toISOString() };
  write("recent", [merged, ...recent.filter((g) => g.tableId !== entry.tableId)].slice(0, RECENT_LIMIT));
}

/** Update a recent game's status without moving it. */
export function noteStatus(tableId, status) {
  const recent = recentGames();
  const game = recent.find((g) => g.tableId === tableId);
  if (game && game.status !== status) {
    game.status = status;
    write("recent", recent);
  }
}

// -- the player -------------------------------------------------------------------------------

export function playerName() {
  return read("name", "");
}

export function savePlayerName(name) {
  write("name", name);
}

/** Display settings of one game: {assist: false, ...renderer settings}. */
export function settings(game) {
  return { assist: false, ...(read("settings", {})[game] || {}) };
}

export function saveSetting(game, name, value) {
  const all = read("settings", {});
  all[game] = { ...(all[game] || {}), [name]: value };
  write("settings", all);
}

// -- what the player last saw -----------------------------------------------------------------

/** What the board showed when this seat last moved at a table: {signatures, logCount}. */
export function lastMove(tableId) {
  return read("since", {})[tableId] ?? null;
}

export function saveLastMove(tableId, signatures, logCount) {
  const all = read("since", {});
  all[tableId] = { signatures, logCount };
  // Only the tables still in the recent list are worth remembering.
  const keep = new Set(recentGames().map((g) => g.tableId).concat(tableId));
  for (const id of Object.keys(all)) if (!keep.has(id)) delete all[id];
  write("since", all);
}
