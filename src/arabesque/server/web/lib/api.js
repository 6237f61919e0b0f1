// The lobby API (docs/protocol.md, "HTTP lobby"). Every failure becomes an ApiError whose
// message is fit to show to a player.

/** A refused or failed request: `code` is the server's (or "network", "http_<status>"). */
export class ApiError extends Error {
  constructor(code, message, status = 0, detail = null) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
    /** FastAPI's 422 `detail` list, when the body was malformed. */
    this.detail = detail;
  }
}

/** Words for FastAPI's 422 detail: "seats.1.agent: Input should be a valid string". */
function describeDetail(detail) {
  if (!Array.isArray(detail)) return String(detail);
  return detail
    .map((d) => {
      const where = (d.loc || []).filter((p) => p !== "body").join(".");
      return where ? `${where}: ${d.msg}` : d.msg;
    })
    .join("; ");
}

/** `body` is sent as JSON; `text`, JSON already written (a record file), as it is. */
async function request(method, path, { body, text: rawText, hostToken } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined || rawText !== undefined) headers["Content-Type"] = "application/json";
  if (hostToken) headers.Authorization = `Bearer ${hostToken}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: rawText !== undefined ? rawText : body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("network", "The server cannot be reached; check your connection and try again.");
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    if (data && data.code && data.message) {
      throw new ApiError(data.code, data.message, response.status);
    }
    if (data && data.detail) {
      throw new ApiError("bad_request", `The server refused the request: ${describeDetail(data.detail)}`,
        response.status, data.detail);
    }
    throw new ApiError(`http_${response.status}`, `The server answered ${response.status} ${response.statusText}.`,
      response.status);
  }
  return data;
}

/** The games: [{id, name, min_players, max_players, default_players, real_time, agents, options?}]. */
export function games() {
  return request("GET", "/api/games");
}

/** Tables with the given statuses; none: the lobby's list (open tables, and running ones
 * being played: a player connected, or bots only). */
export function tables(statuses = []) {
  const query = statuses.map((s) => `status=${encodeURIComponent(s)}`).join("&");
  return request("GET", query ? `/api/tables?${query}` : "/api/tables");
}

/** Create a table (a CreateTableRequest); answers {table, host_token}. */
export function createTable(spec) {
  return request("POST", "/api/tables", { body: spec });
}

/** Take a seat (null: the first free one); answers {table_id, seat, token, websocket}. */
export function join(tableId, seat, name) {
  const body = { seat: seat ?? null };
  if (name) body.name = name;
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, { body });
}

/** Seat bots of `agent` at every free seat (host only). */
export function fill(tableId, hostToken, agent) {
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/fill`, { body: { agent }, hostToken });
}

/** Start the table (host only). */
export function start(tableId, hostToken) {
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/start`, { hostToken });
}

/** Let a bot of `agent` play for an away seat: `token` is the host's or a seated player's. */
export function seatBot(tableId, seat, token, agent = "heuristic") {
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/bot`, { body: { agent }, hostToken: token });
}

/** End a game that cannot go on (host only): the table is abandoned, with `reason`. */
export function abandon(tableId, hostToken, reason) {
  return request("POST", `/api/tables/${encodeURIComponent(tableId)}/abandon`, { body: { reason }, hostToken });
}

/** One table's public TableInfo. */
export function table(tableId) {
  return request("GET", `/api/tables/${encodeURIComponent(tableId)}`);
}

/** How the pages name a TableInfo seat: its player's name, its bot, or its number. */
export function seatName(seat) {
  // The same names as the server's log (server/words.py): seats counted from 1.
  if (seat.name) return seat.name;
  if (seat.kind === "bot") return `Seat ${seat.seat + 1} (${seat.agent || "a"} bot)`;
  return `Seat ${seat.seat + 1}`;
}

/** Where a finished table's record is downloaded. */
export function recordUrl(tableId) {
  return `/api/tables/${encodeURIComponent(tableId)}/record`;
}

/** A finished table's record (arabesque-record/1). */
export function record(tableId) {
  return request("GET", recordUrl(tableId));
}

function replayQuery(step, seat) {
  return `step=${step}` + (seat === null || seat === undefined ? "" : `&seat=${seat}`);
}

/** A finished table's game after `step`, as a spectator (seat null) or a seat saw it. */
export function replayStep(tableId, step, seat = null) {
  return request("GET", `/api/tables/${encodeURIComponent(tableId)}/replay?${replayQuery(step, seat)}`);
}

/** The same for a record file's text (sent again each time: the server keeps no copy). */
export function replayRecord(recordText, step, seat = null) {
  return request("POST", `/api/replay?${replayQuery(step, seat)}`, { text: recordText });
}

/** A hint for `seat` after `step` of a finished table's game (docs/protocol.md, "Hints"). */
export function replayHint(tableId, step, seat) {
  return request("GET", `/api/tables/${encodeURIComponent(tableId)}/replay/hint?${replayQuery(step, seat)}`);
}

/** The same for a record file's text. */
export function recordHint(recordText, step, seat) {
  return request("POST", `/api/replay/hint?${replayQuery(step, seat)}`, { text: recordText });
}

/** A hint for this browser's own move at a table created with hints (its seat token). */
export function tableHint(tableId, seatToken) {
  return request("GET", `/api/tables/${encodeURIComponent(tableId)}/hint`, { hostToken: seatToken });
}

/** A game's rules and rulings as HTML: {game, name, html, rulings_html}. */
export function rules(game) {
  return request("GET", `/api/games/${encodeURIComponent(game)}/rules`);
}

/** The bots a seat can be given at a game (the levels easy / medium / hard, the heuristic,
 * random...), each as {value, label} with its one-line description (/api/games). */
export function agentChoices(game) {
  const words = (game && game.agent_descriptions) || {};
  return ((game && game.agents) || []).map((a) => ({ value: a, label: words[a] ? `${a} (${words[a]})` : a }));
}

/** The bot a seat gets unless someone chooses: the hand-written heuristic, quick and known. */
export function defaultAgent(game) {
  const agents = (game && game.agents) || [];
  return agents.includes("heuristic") ? "heuristic" : agents[0];
}
