// Djinn board renderer: the city map (13 spaces around the Magic Source, paths as lines, the
// mages at the edge they came from, the Djinn beside their round spaces, secret passages beside
// the squares), the catch in progress, the character draft, the locations' displays (Tavern,
// Catacombs, Manufactory, Market, Archives, the Source), trophies and scoring cards, Tom in a
// solo game, and every player's board. It reads only the view. Options are marked where they
// live (docs/web.md, ctx.mark): a move on its space, a Djinn to catch on the Djinn, a card on
// the card, a tent on the tent, a key exchange on the keys... Side actions offered at every
// step of a turn (ruling D8: keys, trophies, sealing a circle, one-time Equipment) live on the
// player's board and the trophy rows. What has no place of its own (end, done, decline, a
// forfeit, a bottle trade) stays in the page's list of options.

import { h, s, plural } from "../lib/dom.js";

const COLOURS = ["blue", "brown", "red", "yellow"];
/** Each Djinn kind: a fill, a dark edge and a letter, so colour is never the only cue. */
const KIND_LOOK = {
  blue: { fill: "#3f7fd9", edge: "#173e7a", letter: "Bl", ink: "#fff" },
  brown: { fill: "#9a6433", edge: "#4a2c10", letter: "Br", ink: "#fff" },
  red: { fill: "#d8413a", edge: "#6e1410", letter: "R", ink: "#fff" },
  yellow: { fill: "#f0cd3c", edge: "#806500", letter: "Y", ink: "#2b2200" },
  boss: { fill: "#5b2f8f", edge: "#24083f", letter: "★", ink: "#ffe27a" },
};
const KIND_ORDER = ["boss", ...COLOURS];
/** Seat colours for mages, assistants and passages; the seat's number always comes with them. */
const SEAT_COLOURS = ["#14907f", "#e07a1f", "#7055e0", "#c23b8f"];
const LOCATION_LOOK = {
  academy: { abbr: "Ac", name: "Academy", tint: "#dfe9fb" },
  tavern: { abbr: "Ta", name: "Tavern", tint: "#fbe3cf" },
  catacombs: { abbr: "Ca", name: "Catacombs", tint: "#e4ded6" },
  archives: { abbr: "Ar", name: "Archives", tint: "#efe2f7" },
  manufactory: { abbr: "Mf", name: "Manufactory", tint: "#dcefe0" },
  market: { abbr: "Mk", name: "Market", tint: "#fbf0c8" },
};
const ROMAN = ["I", "II", "III", "IV", "V"];
const EQUIP_LETTER = { staff: "S", hat: "H", cloak: "C" };
const ARCHIVE_WORDS = {
  passage: "Secret passage",
  coins: "Coins",
  scroll: "Scroll",
  mage: "Activate Mage cards",
  circle: "Spell circle",
};
const BREAKDOWN_WORDS = {
  trophies: "trophies",
  bottled: "bottled Djinn",
  circles: "Djinn in circles",
  unused: "unused bottles and corks",
  scoring_cards: "scoring cards",
  secret_card: "secret scoring card",
  tom: "Tom's cards left",
};
const REWARD_WORDS = {
  coins: ["coin", "coins"],
  scrolls: ["scroll", "scrolls"],
  magic: ["magic", "magic"],
  corks: ["cork", "corks"],
  keys: ["key", "keys"],
  capacity: ["capacity", "capacity"],
  base: ["base magic", "base magic"],
  bottle_any: ["bottle (any colour)", "bottles (any colours)"],
  bottles_different: ["bottle", "bottles (different colours)"],
  activate: ["Mage card activated", "Mage cards activated"],
  circle: ["spell circle", "spell circles"],
  djinn: ["Djinn from the bag", "Djinn from the bag"],
  mage_card: ["Mage card", "Mage cards"],
  equipment: ["Equipment card", "Equipment cards"],
};

// -- the map's geometry ---------------------------------------------------------------------

/** Where each space sits, in map units: laid out to cross as few paths as the map allows
 * (its graph is not planar: three crossings are the least found). A components file with other
 * space names falls back to a ring. */
const SPACE_AT = {
  source: [0, 0],
  s1: [-0.5, -0.866], s2: [-0.5, 0.866], s3: [1, 0],
  s4: [-1, -1.732], s5: [-1, 1.732], s6: [2, 0],
  r1: [0.5, -0.866], r2: [-1, 0], r3: [0.5, 0.866],
  r4: [0, -2], r5: [-1.732, 1], r6: [1.732, 1],
};
const UNIT = 112;
const SQUARE_HALF = 32;
const ROUND_R = 34;
const SOURCE_R = 38;

/** The box the map's drawing covers, grown as things are placed: tokens set outward of the
 * outer spaces would otherwise be cut off. */
class Extent {
  constructor() {
    this.x0 = Infinity; this.y0 = Infinity; this.x1 = -Infinity; this.y1 = -Infinity;
    /** What is drawn so far, as discs {x, y, r}: where a token must not go (clearSpot). */
    this.discs = [];
  }
  add(x, y, rx, ry = rx) {
    this.x0 = Math.min(this.x0, x - rx); this.x1 = Math.max(this.x1, x + rx);
    this.y0 = Math.min(this.y0, y - ry); this.y1 = Math.max(this.y1, y + ry);
    this.discs.push({ x, y, r: Math.max(rx, ry) });
  }
  viewBox(pad) {
    return [this.x0 - pad, this.y0 - pad, this.x1 - this.x0 + 2 * pad, this.y1 - this.y0 + 2 * pad].map((v) => v.toFixed(0)).join(" ");
  }
}

/** Each space's centre in SVG units (the viewBox is fitted to the drawing afterwards). */
function spaceCentres(spaces) {
  const at = {};
  spaces.forEach((space, i) => {
    const [x, y] = SPACE_AT[space.id] || [2 * Math.cos((i / spaces.length) * 2 * Math.PI), 2 * Math.sin((i / spaces.length) * 2 * Math.PI)];
    at[space.id] = [x * UNIT, y * UNIT];
  });
  return at;
}

/** On a phone the map is drawn small: its tokens grow (and their letters, in the CSS) to stay
 * readable. */
function tokenZoom(ctx) {
  return ctx.narrow ? 1.3 : 1;
}

/** Angles (radians) of `n` things set around a space, spread inside the widest gap between
 * its paths, so tokens never sit on a path. */
function freeAngles(pathAngles, n, step) {
  const sorted = [...pathAngles].sort((a, b) => a - b);
  let mid = Math.PI / 2;
  let widest = -1;
  sorted.forEach((a, i) => {
    const next = i + 1 < sorted.length ? sorted[i + 1] : sorted[0] + 2 * Math.PI;
    if (next - a > widest) { widest = next - a; mid = (a + next) / 2; }
  });
  const spread = Math.min(step, widest / Math.max(n, 1));
  return Array.from({ length: n }, (_, i) => mid + (i - (n - 1) / 2) * spread);
}

/** The disc each space covers (a square's is its corners' circle). */
function spaceDiscs(view) {
  const at = spaceCentres(view.spaces);
  return view.spaces.map((sp) => ({
    id: sp.id, x: at[sp.id][0], y: at[sp.id][1],
    r: sp.shape === "square" ? SQUARE_HALF * 1.42 : sp.shape === "source" ? SOURCE_R : ROUND_R,
  }));
}

/** Every path of the map as a segment [x1, y1, x2, y2]. */
function pathSegments(view) {
  const at = spaceCentres(view.spaces);
  const out = [];
  for (const sp of view.spaces) {
    for (const to of sp.paths) if (at[to] && sp.id < to) out.push([...at[sp.id], ...at[to]]);
  }
  return out;
}

/** The spaces' discs and the paths' segments of a view's map, made once per view. */
const obstacleCache = new WeakMap();
function mapObstacles(view) {
  let found = obstacleCache.get(view.spaces);
  if (!found) {
    found = { discs: spaceDiscs(view), segments: pathSegments(view) };
    obstacleCache.set(view.spaces, found);
  }
  return found;
}

function segmentDistance(x, y, [x1, y1, x2, y2]) {
  const dx = x2 - x1, dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
}

/** Where a token of radius `tr` goes around (cx, cy): at angle `a0` and distance `r0` when
 * that spot is clear, else the nearest clear spot turning either way (and a little further
 * out): a token never covers a space, a path or another token (on a phone the tokens grow,
 * and the nearest spaces are about one token away). */
function clearSpot(cx, cy, a0, r0, tr, blocked, segments) {
  const clear = (x, y) => blocked.every((d) => Math.hypot(x - d.x, y - d.y) >= d.r + tr + 2)
    && segments.every((seg) => segmentDistance(x, y, seg) >= tr + 2);
  for (let k = 0; k <= 40; k++) {
    for (const dr of [0, 8, 16, 24]) {
      for (const sign of k ? [1, -1] : [1]) {
        const a = a0 + sign * k * 0.06;
        const x = cx + Math.cos(a) * (r0 + dr), y = cy + Math.sin(a) * (r0 + dr);
        if (clear(x, y)) return [x, y];
      }
    }
  }
  return [cx + Math.cos(a0) * r0, cy + Math.sin(a0) * r0];
}

// -- small pieces ---------------------------------------------------------------------------

const svgIcon = (size, children, attrs = {}) =>
  s("svg", { viewBox: "-10 -10 20 20", width: size, height: size, class: "dj-icon", "aria-hidden": "true", ...attrs }, children);

/** Simple resource icons, each its own shape. */
const ICONS = {
  coin: () => [s("circle", { r: 8, fill: "#e9be3b", stroke: "#7a5a08", "stroke-width": 1.5 }), s("circle", { r: 4.5, fill: "none", stroke: "#7a5a08", "stroke-width": 1 })],
  scroll: () => [s("rect", { x: -7, y: -6, width: 14, height: 12, rx: 2, fill: "#f6e7c1", stroke: "#8a6a2a", "stroke-width": 1.5 }), s("path", { d: "M-4 -2h8M-4 2h6", stroke: "#8a6a2a", "stroke-width": 1.2 })],
  key: () => [s("circle", { cx: -4, cy: 0, r: 4, fill: "none", stroke: "#6b5a1c", "stroke-width": 2.2 }), s("path", { d: "M0 0h8M5 0v3M8 0v3", stroke: "#6b5a1c", "stroke-width": 2.2, fill: "none" })],
  cork: () => [s("path", { d: "M-5 -7h10l-2 14h-6z", fill: "#c89a64", stroke: "#5c3b14", "stroke-width": 1.3 })],
  magic: () => [s("path", { d: "M0 -9l6 9-6 9-6-9z", fill: "#3bb273", stroke: "#175c37", "stroke-width": 1.3 })],
  bottle: (colour) => bottlePath(colour),
  trophy: () => [s("path", { d: "M-6 -8h12v4a6 6 0 0 1-12 0zM-2 3h4v3h3v3h-10v-3h3z", fill: "#e2b33a", stroke: "#6e5106", "stroke-width": 1.2 })],
};

function bottlePath(colour, empty = false) {
  const look = KIND_LOOK[colour] || KIND_LOOK.boss;
  return [
    s("path", {
      d: "M-3 -9h6v4l4 4v9h-14v-9l4-4z",
      fill: empty ? "#fffaf1" : look.fill,
      stroke: look.edge,
      "stroke-width": 1.6,
    }),
    empty ? s("path", { d: "M-6 1h12", stroke: look.fill, "stroke-width": 2.5 }) : null,
  ];
}

/** Icons are built once and cloned: a render draws hundreds of them (budget ~5 ms). */
const iconCache = new Map();
function icon(name, arg, size = 18) {
  const key = `${name}:${arg}:${size}`;
  let made = iconCache.get(key);
  if (!made) {
    made = name === "emptyBottle" ? svgIcon(size, bottlePath(arg, true)) : svgIcon(size, ICONS[name](arg));
    iconCache.set(key, made);
  }
  return made.cloneNode(true);
}

/** A count with its icon: "🪙 4" drawn as our own coin. */
function counter(name, n, label, extra = {}) {
  return h("span", { class: ["dj-count", n ? "" : "dj-zero"], title: label, ...extra }, [
    icon(name),
    h("b", { text: n }),
    h("span", { class: "sr-only", text: " " + label }),
  ]);
}

/** A Djinn token in SVG, centred at (x, y): its colour, a letter and a count when above 1. */
function djinnToken(kind, x, y, r, count = 1) {
  const look = KIND_LOOK[kind];
  const g = s("g", { class: "dj-djinn", transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` }, [
    s("circle", { r, fill: look.fill, stroke: look.edge, "stroke-width": 2 }),
    s("text", { class: "dj-token-letter", "text-anchor": "middle", dy: "0.35em", fill: look.ink, text: look.letter }),
  ]);
  if (count > 1) {
    g.append(
      s("circle", { cx: r * 0.8, cy: -r * 0.8, r: r * 0.72, fill: "#fffaf1", stroke: look.edge, "stroke-width": 1.5 }),
      s("text", { class: "dj-token-count", x: r * 0.8, y: -r * 0.8, "text-anchor": "middle", dy: "0.35em", text: count }),
    );
  }
  return g;
}

/** A small HTML Djinn chip (for panels): colour, letter and words for screen readers. */
function djinnChip(kind, count = 1) {
  const look = KIND_LOOK[kind];
  return h("span", { class: "dj-chip", style: `background:${look.fill};color:${look.ink};border-color:${look.edge}`, title: `${count} ${kind === "boss" ? "boss" : kind + " Djinn"}` }, [
    look.letter + (count > 1 ? `×${count}` : ""),
  ]);
}

/** A mage as a pawn in its seat's colour, with the seat's number. */
function pawn(seat, x, y, scale = 1) {
  const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
  return s("g", { class: "dj-pawn", transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})` }, [
    s("path", { d: "M-10 12 L-6 -2 A8 8 0 1 1 6 -2 L10 12 Z", fill: colour, stroke: "#1d1a2a", "stroke-width": 1.6 }),
    s("text", { class: "dj-pawn-num", y: 5, "text-anchor": "middle", text: seat + 1 }),
  ]);
}

function seatDot(seat) {
  return h("span", { class: "dj-seat", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`, "aria-hidden": "true", text: seat + 1 });
}

function rewardWords(reward) {
  const parts = Object.entries(reward || {})
    .filter(([, n]) => n)
    .map(([kind, n]) => {
      const [one, many] = REWARD_WORDS[kind] || [kind.replace(/_/g, " "), kind.replace(/_/g, " ")];
      return n < 0 ? `lose ${-n} ${-n === 1 ? one : many}` : `${n} ${n === 1 ? one : many}`;
    });
  return parts.join(", ") || "nothing";
}

function locationName(location) {
  return LOCATION_LOOK[location]?.name || String(location).replace(/_/g, " ");
}

function section(title, cls, children, extra = {}) {
  return h("section", { class: ["dj-panel", cls], ...extra }, [h("h3", { class: "dj-panel-title", text: title }), ...children]);
}

// -- options --------------------------------------------------------------------------------

/** The decision's options by their canonical text ("move r1", "select blue"): a renderer finds
 * an option's place from what it says, as a player reads it. */
class Options {
  constructor(decision, mark) {
    this.byText = new Map();
    this.markFn = mark;
    for (const option of decision?.options || []) {
      if (option.text) this.byText.set(option.text, option);
    }
  }
  get(text) {
    return this.byText.get(text);
  }
  /** Mark `el` as the place of the option `text`, if offered; true when it was. */
  mark(el, text) {
    const option = this.byText.get(text);
    if (option) this.markFn(el, option);
    return Boolean(option);
  }
  /** Options whose text starts with `prefix`. */
  starting(prefix) {
    const out = [];
    for (const [text, option] of this.byText) if (text.startsWith(prefix)) out.push([text, option]);
    return out;
  }
}

// -- the status line ------------------------------------------------------------------------

function statusLine(view, ctx) {
  const parts = [h("span", { class: "dj-round", text: `Round ${view.round}` })];
  if (view.stage && view.stage !== "playing" && view.stage !== "over") {
    parts.push(h("span", { class: "dj-stage", text: view.stage }));
  }
  parts.push(h("span", { text: `${plural(view.bosses_on_board, "boss", "bosses")} on the map` }));
  if (view.tom) parts.push(h("span", { text: `Tom: ${plural(view.tom.cards_left, "card")} left` }));
  if (view.is_over) {
    parts.push(h("span", { class: "dj-stage", text: "Game over" }));
  } else if (view.current !== null && view.current !== undefined) {
    const you = ctx.seat === view.current;
    parts.push(h("span", { class: "dj-turn" }, [seatDot(view.current), you ? " Your turn" : ` ${ctx.names[view.current]} to play`]));
  }
  return h("div", { class: "dj-status" }, parts);
}

// -- the map --------------------------------------------------------------------------------

/** How far from a space's centre its mages stand (at the edge of the path they came along). */
function pawnReach(shape, zoom) {
  return (shape === "square" ? SQUARE_HALF + 12 : shape === "source" ? SOURCE_R + 10 : ROUND_R + 12) + 4 * (zoom - 1) * 10;
}

function drawMap(view, ctx, opts) {
  const at = spaceCentres(view.spaces);
  const ext = new Extent();
  const root = s("svg", {
    class: "dj-map",
    width: "100%",
    preserveAspectRatio: "xMidYMin meet",
    role: "img",
    "aria-label": "The city map",
  });
  const paths = s("g", { class: "dj-paths" });
  const marks = s("g", { class: "dj-start-marks" });
  const spacesLayer = s("g");
  const tokens = s("g");
  root.append(paths, spacesLayer, marks, tokens);

  const seen = new Set();
  const angleTo = (from, to) => Math.atan2(at[to][1] - at[from][1], at[to][0] - at[from][0]);
  for (const space of view.spaces) {
    for (const to of space.paths) {
      const pair = [space.id, to].sort().join("-");
      if (seen.has(pair) || !at[to]) continue;
      seen.add(pair);
      const [x1, y1] = at[space.id], [x2, y2] = at[to];
      paths.append(s("line", { x1, y1, x2, y2, class: "dj-path" }));
    }
  }

  // Where each mage came from shows which way it may not go back: an arrow along that path.
  const players = view.players;
  const zoom = tokenZoom(ctx);
  const me = ctx.seat === null || ctx.seat === undefined ? null : players[ctx.seat];
  // Djinn are chosen at the space of the catch; a boss's free Djinn come from where one stands.
  const catchSpace = view.catch ? view.catch.space : me?.position;
  for (const space of view.spaces) {
    const [cx, cy] = at[space.id];
    ext.add(cx, cy, SOURCE_R);
    const g = s("g", { class: ["dj-space", `dj-${space.shape}`] });
    const loc = LOCATION_LOOK[space.location];
    if (space.shape === "source") {
      g.append(
        s("circle", { cx, cy, r: SOURCE_R, class: "dj-source-shape" }),
        s("path", { d: `M${cx} ${cy - 30} l9 15 -9 15 -9 -15z`, fill: "#7fd6ff", stroke: "#1d5c7a", "stroke-width": 1.5 }),
        s("text", { x: cx, y: cy + 24, class: "dj-space-id", "text-anchor": "middle", text: "Source" }),
      );
    } else {
      const shape = space.shape === "square"
        ? s("rect", { x: cx - SQUARE_HALF, y: cy - SQUARE_HALF, width: 2 * SQUARE_HALF, height: 2 * SQUARE_HALF, rx: 5, fill: loc?.tint || "#eee", class: "dj-space-shape" })
        : s("circle", { cx, cy, r: ROUND_R, fill: loc?.tint || "#eee", class: "dj-space-shape dj-round-shape" });
      g.append(
        shape,
        s("text", { x: cx, y: cy + 3, class: "dj-space-abbr", "text-anchor": "middle", text: loc?.abbr || "?" }),
        s("text", { x: cx, y: cy + 23, class: "dj-space-id", "text-anchor": "middle", text: space.id }),
      );
    }
    g.prepend(s("title", { text: spaceWords(space) }));
    spacesLayer.append(g);
    opts.mark(g, `move ${space.id}`);
    ctx.key(g, `space:${space.id}`, JSON.stringify([space.mages, space.djinn, space.passages]));

    const pathAngles = space.paths.filter((t) => at[t]).map((t) => angleTo(space.id, t));
    const reach = pawnReach(space.shape, zoom);

    // Mages stand at the edge of the path they came along (several from one path side by side).
    const byEdge = new Map();
    for (const seat of space.mages) {
      const from = players[seat].came_from;
      const list = byEdge.get(from) || [];
      list.push(seat);
      byEdge.set(from, list);
    }
    for (const [from, seats] of byEdge) {
      const a = from && at[from] ? angleTo(space.id, from) : Math.PI / 2;
      seats.forEach((seat, i) => {
        const side = (i - (seats.length - 1) / 2) * 22 * zoom;
        const x = cx + Math.cos(a) * reach - Math.sin(a) * side;
        const y = cy + Math.sin(a) * reach + Math.cos(a) * side;
        const p = pawn(seat, x, y, zoom);
        p.prepend(s("title", { text: `${ctx.names[seat]}'s mage${from ? `, came from ${from}` : ""}` }));
        tokens.append(p);
        ext.add(x, y, 14 * zoom);
      });
    }

    if (space.djinn) drawDjinnAt(space, cx, cy, pathAngles, view, ctx, opts, tokens, space.id === catchSpace, ext);
    if (space.passages?.length || (space.shape === "square" && opts.starting("passage ").length)) {
      drawPassagesAt(space, cx, cy, pathAngles, opts, tokens, ext);
    }
  }

  // The first placement: a spot on each path next to a square, from the round space named.
  for (const [text, option] of opts.starting("start ")) {
    const [, square, , round] = text.split(" ");
    if (!at[square] || !at[round]) continue;
    const [sx, sy] = at[square], [rx, ry] = at[round];
    const d = Math.hypot(rx - sx, ry - sy);
    // A mage already placed from the same round space stands where the spot would be: the
    // spot goes just beyond it, so both stay visible and the spot can be clicked.
    const taken = players.some((p) => p.position === square && p.came_from === round);
    const out = taken ? pawnReach("square", zoom) + 14 * zoom + 14 : SQUARE_HALF + 22;
    const x = sx + ((rx - sx) * out) / d, y = sy + ((ry - sy) * out) / d;
    ext.add(x, y, 12);
    const spot = s("g", { class: "dj-start-spot" }, [
      s("circle", { cx: x, cy: y, r: 12 }),
      s("path", { d: `M${x - 6} ${y}h12M${x} ${y - 6}v12`, stroke: "#1d1a2a", "stroke-width": 2.5 }),
    ]);
    marks.append(spot);
    ctx.mark(spot, option);
  }

  root.setAttribute("viewBox", ext.viewBox(6));
  return root;
}

/** Which location each abbreviation on the map stands for, and what the shapes mean. */
function mapLegend(view) {
  const seen = [...new Set(view.spaces.map((sp) => sp.location).filter(Boolean))];
  return h("div", { class: "dj-legend" }, [
    ...seen.map((loc) => h("span", { class: "dj-legend-item" }, [
      h("span", { class: "dj-legend-abbr", style: `background:${LOCATION_LOOK[loc]?.tint || "#eee"}`, text: LOCATION_LOOK[loc]?.abbr || "?" }),
      locationName(loc),
    ])),
    h("span", { class: "dj-dim", text: "■ basic action · ● special action, then catch · no going back" }),
  ]);
}

function spaceWords(space) {
  const where = space.shape === "source" ? "the Magic Source" : `${locationName(space.location)} (${space.id}, ${space.shape})`;
  const djinn = Object.entries(space.djinn || {}).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ");
  return where + (djinn ? `: Djinn ${djinn}` : "");
}

function drawDjinnAt(space, cx, cy, pathAngles, view, ctx, opts, layer, choosable, ext) {
  const kinds = KIND_ORDER.filter((k) => space.djinn[k]);
  const catching = view.catch && view.catch.space === space.id ? view.catch.selected : {};
  const zoom = tokenZoom(ctx);
  const angles = freeAngles(pathAngles, kinds.length, 0.62 * zoom);
  const { discs, segments } = mapObstacles(view);
  const otherSpaces = discs.filter((d) => d.id !== space.id);
  kinds.forEach((kind, i) => {
    const tr = (kind === "boss" ? 16 : 14) * zoom;
    const [x, y] = clearSpot(cx, cy, angles[i], ROUND_R + 26 * zoom, tr, [...otherSpaces, ...ext.discs], segments);
    const token = djinnToken(kind, x, y, tr, space.djinn[kind]);
    const chosen = catching[kind] || 0;
    if (chosen) {
      token.classList.add("dj-selected");
      token.append(s("text", { class: "dj-token-chosen", y: 27, "text-anchor": "middle", text: `✓${chosen}` }));
    }
    token.prepend(s("title", { text: `${space.djinn[kind]} ${kind === "boss" ? "boss" : kind + " Djinn"} at ${space.id}` }));
    layer.append(token);
    ext.add(x, y, 20 * zoom, (chosen ? 34 : 20) * zoom);
    // The Djinn are where one catches them: the catch itself, then each kind to add.
    if (choosable) opts.mark(token, `select ${kind}`) || opts.mark(token, `free ${kind}`) || opts.mark(token, "catch");
  });
}

/** Secret passages beside a square (the owner's colour and number, the location they open),
 * and the passages one may place there now, as dashed ghosts. */
function drawPassagesAt(space, cx, cy, pathAngles, opts, layer, ext) {
  const ghosts = opts.starting("passage ").filter(([text]) => text.endsWith(` at ${space.id}`));
  const items = [...space.passages.map((p) => ({ placed: p })), ...ghosts.map(([text, option]) => ({ text, option }))];
  const angles = freeAngles(pathAngles, 1, 1);
  const a = angles[0];
  const across = [-Math.sin(a), Math.cos(a)];
  const base = [cx + Math.cos(a) * (SQUARE_HALF + 26), cy + Math.sin(a) * (SQUARE_HALF + 26)];
  const perRow = 3;
  items.forEach((item, i) => {
    const col = (i % perRow) - (Math.min(items.length, perRow) - 1) / 2;
    const row = Math.floor(i / perRow);
    const x = base[0] + across[0] * col * 36 + Math.cos(a) * row * 24;
    const y = base[1] + across[1] * col * 36 + Math.sin(a) * row * 24;
    const location = item.placed ? item.placed.location : item.text.split(" ")[1];
    const look = LOCATION_LOOK[location];
    const colour = item.placed ? SEAT_COLOURS[item.placed.seat % SEAT_COLOURS.length] : "#fffaf1";
    const g = s("g", { class: ["dj-passage", item.placed ? "" : "dj-ghost"] }, [
      s("rect", { x: x - 17, y: y - 10, width: 34, height: 20, rx: 4, fill: colour, stroke: "#1d1a2a", "stroke-width": 1.4, "stroke-dasharray": item.placed ? null : "4 3" }),
      s("text", { x, y, dy: "0.35em", "text-anchor": "middle", class: item.placed ? "dj-passage-text" : "dj-ghost-text", text: (look?.abbr || "?") + (item.placed ? item.placed.seat + 1 : "") }),
    ]);
    g.prepend(s("title", { text: item.placed ? `player ${item.placed.seat + 1}'s secret passage to the ${locationName(location)}` : item.option.label }));
    layer.append(g);
    ext.add(x, y, 18, 11);
    if (item.option) opts.mark(g, item.text);
  });
}

/** The choices of the space one stands on, as buttons just above the map: its basic and
 * special actions, a secret passage, the catch, staying on a taken space, the Magic Source's
 * rows. (Drawn on the map they would hide the Djinn beside the space.) */
function hereBar(view, ctx, opts) {
  const me = ctx.seat === null || ctx.seat === undefined ? null : view.players[ctx.seat];
  if (!me || !me.position) return null;
  const wanted = [
    ["basic", "Basic action"], ["special", "Special action"], ["passage", "Your passage"], ["catch", "Catch Djinn"],
    ["stop", "Stay and pay"], ["skip", "Skip on"],
    ["source refill", "Refill magic"], ["source bosses", "Catch supply bosses"], ["source row2", "Row 2"], ["boss", "Catch a boss"],
  ].filter(([text]) => opts.get(text));
  // Forfeiting gives something instead of the space's actions; its label says what.
  for (const [text, option] of opts.starting("forfeit ")) wanted.push([text, option.label.replace(/^forfeit the actions for /, "Forfeit for ")]);
  if (wanted.length && opts.get("end")) wanted.push(["end", "End turn"]);
  if (!wanted.length) return null;
  const space = view.spaces.find((sp) => sp.id === me.position);
  const where = space.shape === "source" ? "the Magic Source" : `${locationName(space.location)} (${space.id})`;
  return h("div", { class: "dj-here" }, [
    h("span", { class: "dj-here-where", text: `At ${where}:` }),
    ...wanted.map(([text, word]) => {
      const button = h("button", { type: "button", class: "dj-button", text: word });
      opts.mark(button, text);
      return button;
    }),
  ]);
}

// -- the catch and the draft ----------------------------------------------------------------

function catchPanel(view, ctx, opts) {
  const c = view.catch;
  if (!c) return null;
  const d = ctx.decision;
  const context = d && d.context && d.context.space === c.space ? d.context : null;
  const chosen = Object.entries(c.selected);
  const body = [
    h("div", { class: "dj-row dj-wrap" }, [
      seatDot(c.seat),
      ` ${ctx.seat === c.seat ? "You are" : ctx.names[c.seat] + " is"} catching at ${c.space}: `,
      ...(chosen.length ? chosen.map(([k, n]) => djinnChip(k, n)) : [h("span", { class: "dj-dim", text: "nothing chosen yet" })]),
    ]),
  ];
  if (context) {
    const power = context.power_from_cards ?? 0;
    body.push(h("div", { class: "dj-row" }, [
      h("span", { text: `Strength needed ${context.strength}` }),
      d.kind === "catch_pay" ? h("span", { text: ` · cards give ${power} · your magic pays the rest` }) : null,
    ]));
  }
  const confirm = opts.get("confirm") ? h("button", { type: "button", class: "dj-button", text: "Catch these Djinn" }) : null;
  if (confirm) { body.push(confirm); opts.mark(confirm, "confirm"); }
  const panel = section("Catch", "dj-catch", body);
  ctx.key(panel, "catch", JSON.stringify(c));
  return panel;
}

function draftPanel(view, ctx, opts) {
  const draft = view.draft;
  if (!draft) return null;
  const drafting = ctx.decision?.kind === "draft" || (!view.tom && view.players.some((p) => p.characters.length < 2));
  if (!drafting) return null;
  const tile = (t, positive) => {
    const el = h("div", { class: ["dj-tile", positive ? "dj-good" : "dj-bad"] }, [
      h("div", { class: "dj-tile-name" }, [positive ? "+ " : "− ", t.name]),
      h("div", { class: "dj-tile-text", text: t.text }),
    ]);
    opts.mark(el, `character ${t.id}`);
    return el;
  };
  const panel = section("Character tiles", "dj-draft", [
    h("div", { class: "dj-tiles" }, [...draft.positive.map((t) => tile(t, true)), ...draft.negative.map((t) => tile(t, false))]),
  ]);
  ctx.key(panel, "draft", JSON.stringify(draft));
  return panel;
}

// -- the displays ---------------------------------------------------------------------------

function mageCard(card, { withState = false } = {}) {
  const inactive = withState && card.active === false;
  const bonus = Object.entries(card.bonus || {});
  return h("div", { class: ["dj-card", "dj-mage", inactive ? "dj-inactive" : ""], title: mageWords(card) + (inactive ? " (used)" : "") }, [
    h("div", { class: "dj-card-top" }, [
      h("span", { class: "dj-power", title: `power ${card.power}` }, [icon("magic", null, 15), h("b", { text: card.power })]),
      card.key ? h("span", { class: "dj-keyed", title: "with a key" }, [icon("key", null, 15)]) : null,
      h("span", { class: "dj-cost", title: `costs ${plural(card.cost, "coin")} to use` }, [icon("coin", null, 15), h("b", { text: card.cost })]),
    ]),
    h("div", { class: "dj-bonus" }, bonus.length ? bonus.map(([k, n]) => djinnChip(k, 1)).flatMap((chip, i) => [chip, `+${bonus[i][1]} `]) : [h("span", { class: "dj-dim", text: "no bonus" })]),
    h("div", { class: "dj-card-id", text: `#${card.id}${inactive ? " · used" : ""}` }),
  ]);
}

function mageWords(card) {
  const bonus = Object.entries(card.bonus || {}).map(([k, n]) => `, ${k} +${n}`).join("");
  return `Mage card ${card.id}: power ${card.power}, cost ${card.cost}${bonus}${card.key ? ", with a key" : ""}`;
}

function equipmentCard(card, withState = false) {
  const down = withState && card.face_up === false;
  return h("div", { class: ["dj-card", "dj-equip", down ? "dj-inactive" : ""], title: `${card.type} ${card.id}: ${card.text}${down ? " (face down)" : ""}` }, [
    h("div", { class: "dj-card-top" }, [h("span", { class: "dj-equip-type", text: EQUIP_LETTER[card.type] || "?" }), h("b", { text: card.type })]),
    h("div", { class: "dj-card-text", text: card.text }),
    down ? h("div", { class: "dj-card-id", text: "face down" }) : null,
  ]);
}

function tavernPanel(view, ctx, opts) {
  const piles = view.tavern.map((pile, i) => {
    const slot = h("div", { class: "dj-pile" }, [
      pile.top ? mageCard(pile.top) : h("div", { class: "dj-card dj-empty", text: "empty" }),
      h("div", { class: "dj-pile-size" }, [pile.key ? icon("key", null, 14) : null, ` pile ${i + 1} · ${pile.size}`]),
    ]);
    opts.mark(slot, `take pile ${i + 1}`);
    ctx.key(slot, `tavern:${i}`, `${pile.top?.id}:${pile.size}`);
    return slot;
  });
  return section("Tavern", "dj-tavern", [h("div", { class: "dj-cards" }, piles)]);
}

function manufactoryPanel(view, ctx, opts) {
  const stacks = view.manufactory.map((stack) => {
    const slot = h("div", { class: "dj-pile" }, [
      stack.top ? equipmentCard(stack.top) : h("div", { class: "dj-card dj-empty", text: "empty" }),
      h("div", { class: "dj-pile-size", text: `${stack.type} · ${stack.size}` }),
    ]);
    opts.mark(slot, `equip ${stack.type}`);
    ctx.key(slot, `manufactory:${stack.type}`, `${stack.top?.id}:${stack.size}`);
    return slot;
  });
  return section("Manufactory", "dj-manufactory", [h("div", { class: "dj-cards" }, stacks)]);
}

function catacombsPanel(view, ctx, opts) {
  const cat = view.catacombs;
  const body = [
    h("div", { class: "dj-row" }, [
      h("span", { class: "dj-chest", "aria-hidden": "true" }),
      ` ${plural(cat.deck, "chest")} in the deck · ${cat.discard.length} discarded`,
    ]),
  ];
  const key = ctx.decision?.kind === "chest_key" ? ctx.decision.context : null;
  if (key) {
    const unlock = h("div", { class: "dj-row dj-unlock" }, [icon("key"), ` Chest ${key.chest}: a key opens ${key.key_reward}`]);
    body.push(unlock);
    opts.mark(unlock, "unlock");
  }
  const discards = opts.starting("discard chest ");
  if (discards.length) {
    body.push(h("div", { class: "dj-row" }, discards.map(([text, option]) => {
      const b = h("span", { class: "dj-choice", text: `discard chest ${text.split(" ")[2]}` });
      ctx.mark(b, option);
      return b;
    })));
  }
  const panel = section("Catacombs", "dj-catacombs", body);
  ctx.key(panel, "catacombs", `${cat.deck}:${cat.discard.length}`);
  return panel;
}

function marketPanel(view, ctx, opts) {
  const market = view.market;
  const offers = new Map(market.offers.map((o) => [o.offer, o]));
  const places = market.places.map((place) => {
    const here = view.players.filter((p) => p.assistant_tent === place.place).map((p) => p.seat);
    const tent = h("div", { class: "dj-tent" }, [
      h("div", { class: "dj-tent-head" }, [h("b", { text: `Tent ${place.place}` }), " ", ...here.map(seatDot)]),
      ...place.offers.map((n) => {
        const o = offers.get(n);
        const price = o.coins ? [icon("coin", null, 15), ` ${o.coins}`] : [icon("scroll", null, 15), ` ${o.scrolls}`];
        const row = h("div", { class: "dj-offer" }, [...price, ` → ${rewardWords(o.reward)}`]);
        opts.mark(row, `offer ${n}`);
        return row;
      }),
    ]);
    opts.mark(tent, `tent ${place.place}`);
    ctx.key(tent, `tent:${place.place}`, here.join(","));
    return tent;
  });
  return section("Market", "dj-market", [h("div", { class: "dj-tents" }, places)]);
}

function archivesPanel(view, ctx, opts) {
  const choices = Object.entries(ARCHIVE_WORDS).map(([option, word]) => {
    const el = h("span", { class: "dj-choice", text: word });
    opts.mark(el, `archive ${option}`);
    return el;
  });
  return section("Archives", "dj-archives", [h("div", { class: "dj-row dj-wrap" }, choices)]);
}

function supplyPanel(view, ctx) {
  const bag = COLOURS.map((c) => djinnChip(c, view.bag[c]));
  const body = [
    h("div", { class: "dj-row dj-wrap" }, ["Bag: ", ...bag, ` · supply bosses: `, djinnChip("boss", view.supply_bosses), ` ${view.supply_bosses}`]),
  ];
  if (view.removed_passages?.length) {
    body.push(h("div", { class: "dj-dim", text: `Passages out of the game: ${view.removed_passages.map(locationName).join(", ")}` }));
  }
  const panel = section("Supply", "dj-supply", body);
  ctx.key(panel, "supply", JSON.stringify([view.bag, view.supply_bosses]));
  return panel;
}

function trophiesPanel(view, ctx, opts) {
  // A claim names a trophy and the colour of the three bottles paid: one chip per colour.
  const claims = new Map();
  for (const [text, option] of opts.starting("trophy ")) {
    const [, id, colour] = text.split(" ");
    const list = claims.get(Number(id)) || [];
    list.push([colour, option]);
    claims.set(Number(id), list);
  }
  const rows = view.trophies.map((row, r) => h("div", { class: "dj-trophy-row" }, [
    h("span", { class: "dj-roman", text: ROMAN[r] }),
    ...(row.length ? row.map((t) => {
      const tile = h("div", { class: "dj-trophy", title: `trophy ${t.id}: ${t.points} points, ${rewardWords(t.reward)}` }, [
        h("div", { class: "dj-row" }, [icon("trophy", null, 16), h("b", { text: t.points })]),
        h("div", { class: "dj-trophy-reward", text: rewardWords(t.reward) }),
      ]);
      for (const [colour, option] of claims.get(t.id) || []) {
        const chip = h("span", { class: "dj-claim" }, [icon("bottle", colour, 16), ` 3 ${colour}`]);
        ctx.mark(chip, option);
        tile.append(chip);
      }
      return tile;
    }) : [h("span", { class: "dj-dim", text: "none left" })]),
  ]));
  const panel = section("Trophies", "dj-trophies", rows);
  ctx.key(panel, "trophies", JSON.stringify(view.trophies.map((r) => r.map((t) => t.id))));
  return panel;
}

function scoringPanel(view) {
  if (!view.scoring_cards.length) return null;
  return section("Scoring cards", "dj-scoring", [
    h("ul", { class: "dj-list" }, view.scoring_cards.map((c) => h("li", { text: c.name }))),
  ]);
}

function sourcePanel(view, ctx, opts) {
  // The Source's actions are also drawn under the space when one stands there; this panel
  // says what they are and what row 2 costs the viewer.
  const me = ctx.seat === null || ctx.seat === undefined ? null : view.players[ctx.seat];
  const price = me ? ` (${plural(me.scroll_price, "scroll")} for you)` : "";
  return section("Magic Source", "dj-source", [
    h("div", { class: "dj-dim", text: `Row 1: refill your magic, or catch bosses of the supply with magic. Row 2${price}: a cork and Mage cards activated.` }),
  ]);
}

function tomPanel(view, ctx) {
  const tom = view.tom;
  if (!tom) return null;
  const body = [
    h("div", { class: "dj-row" }, [h("span", { class: "dj-tom-deck", text: tom.cards_left }), ` of ${tom.deck_size} cards left in Tom's deck`]),
    h("div", { class: "dj-dim", text: tom.revealed.length ? `Revealed: ${tom.revealed.map((c) => `#${c}`).join(" ")}` : "No card revealed yet" }),
  ];
  if (view.is_over) body.push(h("div", { class: tom.won ? "dj-good-text" : "dj-bad-text", text: tom.won ? "You beat Tom!" : "Tom won this time." }));
  if (tom.tasks) {
    body.push(h("ul", { class: "dj-list" }, tom.tasks.map((t) => h("li", { class: t.done ? "dj-done" : "dj-dim" }, [t.done ? "✓ " : "✗ ", t.task]))));
  }
  const panel = section("Tom", "dj-tom", body);
  ctx.key(panel, "tom", `${tom.cards_left}`);
  return panel;
}

// -- a player's board -----------------------------------------------------------------------

/** The magic scale 0..8: what one has, up to the maximum (left of the capacity marker), the
 * base marker. Marked for "settle" (paying the rest of a catch with one's own magic). */
function magicScale(p) {
  const cell = 26;
  const svg = s("svg", { viewBox: `0 0 ${9 * cell + 4} 40`, class: "dj-scale", role: "img", "aria-label": `magic ${p.magic} of ${p.max_magic}, base ${p.base}, capacity ${p.capacity}` });
  for (let v = 0; v <= 8; v++) {
    const x = 2 + v * cell;
    const have = v <= p.magic && v > 0;
    const room = v <= p.max_magic;
    svg.append(
      s("rect", { x, y: 2, width: cell - 2, height: 24, rx: 4, class: have ? "dj-scale-have" : room ? "dj-scale-room" : "dj-scale-off" }),
      s("text", { x: x + cell / 2 - 1, y: 19, "text-anchor": "middle", class: "dj-scale-num", text: v }),
    );
    if (v === p.base) svg.append(s("text", { x: x + cell / 2 - 1, y: 38, "text-anchor": "middle", class: "dj-scale-mark", text: "base" }));
  }
  // The capacity marker sits right of the maximum.
  const capX = 2 + (p.max_magic + 1) * cell - 2;
  svg.append(s("path", { d: `M${capX} 0v28`, stroke: "#1d1a2a", "stroke-width": 3 }));
  return svg;
}

function circleIcon(state) {
  let made = iconCache.get(`circle:${state}`);
  if (!made) {
    made = svgIcon(30, circleShapes(state));
    iconCache.set(`circle:${state}`, made);
  }
  return made.cloneNode(true);
}

function circleShapes(state) {
  const g = [];
  if (state === "inactive") {
    g.push(s("circle", { r: 8.5, fill: "none", stroke: "#9a8fa8", "stroke-width": 1.5, "stroke-dasharray": "3 2" }));
  } else if (state === "covered") {
    g.push(s("circle", { r: 8.5, fill: "#cfc6b8", stroke: "#6a6178", "stroke-width": 1.5 }), s("path", { d: "M-6 -6l12 12", stroke: "#6a6178", "stroke-width": 1.5 }));
  } else {
    g.push(s("circle", { r: 8.5, fill: "#fff4c8", stroke: "#c99a1b", "stroke-width": 2 }));
    if (KIND_LOOK[state]) {
      const look = KIND_LOOK[state];
      g.push(s("circle", { r: 5.5, fill: look.fill, stroke: look.edge, "stroke-width": 1 }));
    }
  }
  return g;
}

const CIRCLE_WORDS = { inactive: "inactive", covered: "covered", empty: "empty" };

function circlesRow(p, ctx, opts, own) {
  let emptyMarked = false;
  return h("div", { class: "dj-row dj-wrap" }, p.circles.map((state, i) => {
    const word = CIRCLE_WORDS[state] || (state === "boss" ? "a boss" : `a ${state} Djinn`);
    const el = h("span", { class: "dj-circle", title: `spell circle ${i + 1}: ${word}` }, [
      circleIcon(state),
      h("span", { class: "dj-circle-word", text: CIRCLE_WORDS[state] ? word : KIND_LOOK[state].letter }),
    ]);
    if (!own) return el;
    if (state === "empty" && !emptyMarked) emptyMarked = opts.mark(el, "circle");
    // Sealing: the circle's Djinn into a corked bottle; a boss may go into several colours.
    const seals = opts.starting(`seal circle ${i + 1} `);
    if (seals.length === 1) ctx.mark(el, seals[0][1]);
    else for (const [text, option] of seals) {
      const colour = text.split(" ")[3];
      const chip = h("span", { class: "dj-claim" }, [icon("bottle", colour, 16), ` seal`]);
      ctx.mark(chip, option);
      el.append(chip);
    }
    return el;
  }));
}

function bottlesRow(p, ctx, opts, own) {
  return h("div", { class: "dj-row dj-wrap" }, COLOURS.map((colour) => {
    const b = p.bottles[colour];
    const full = b.djinn + b.bosses;
    const el = h("span", { class: "dj-bottle", title: `${colour}: ${full} corked (${plural(b.bosses, "boss", "bosses")}), ${b.empty} empty` }, [
      icon("bottle", colour, 22),
      h("b", { text: full }),
      b.bosses ? h("span", { class: "dj-dim", text: `(${b.bosses}★)` }) : null,
      icon("emptyBottle", colour, 18),
      h("span", { text: b.empty }),
      h("span", { class: "dj-bottle-letter", text: KIND_LOOK[colour].letter }),
    ]);
    if (own && !opts.mark(el, `bottle ${colour}`)) opts.mark(el, `choose ${colour}`);
    return el;
  }));
}

function playerBoard(view, p, ctx, opts) {
  const own = ctx.seat === p.seat;
  const score = view.scores[p.seat];
  const breakdown = Object.entries(score.breakdown).filter(([, v]) => v).map(([k, v]) => `${BREAKDOWN_WORDS[k] || k} ${v}`).join(", ");
  const turn = view.current === p.seat && !view.is_over;
  const head = h("div", { class: "dj-player-head" }, [
    seatDot(p.seat),
    h("b", { class: "dj-player-name", text: ctx.names[p.seat] ?? `Player ${p.seat + 1}` }),
    own ? h("span", { class: "dj-you", text: "you" }) : null,
    turn ? h("span", { class: "dj-turn-tag", text: "to play" }) : null,
    p.seat === view.start_player ? h("span", { class: "dj-dim", title: "start player", text: "· start" }) : null,
    h("span", { class: "dj-score", title: breakdown || "no points yet" }, [`${score.total} pts`]),
  ]);

  const scale = h("div", { class: "dj-scale-wrap" }, [
    h("span", { class: "dj-label" }, [`Magic ${p.magic}/${p.max_magic}`]),
    magicScale(p),
    h("span", { class: "dj-dim", text: `capacity ${p.capacity}${p.capacity_flipped ? " (flipped)" : ""}` }),
  ]);
  if (own) opts.mark(scale, "settle");

  const coins = counter("coin", p.coins, plural(p.coins, "coin"));
  const scrolls = counter("scroll", p.scrolls, plural(p.scrolls, "scroll"));
  if (own) { opts.mark(coins, "pay coin"); opts.mark(scrolls, "pay scroll"); }
  const keys = counter("key", p.keys, plural(p.keys, "key"));
  const exchanges = own ? [["key coin", "coin"], ["key scroll", "scroll"], ["key magic", "magic"]].filter(([t]) => opts.get(t)).map(([t, what]) => {
    const chip = h("span", { class: "dj-claim" }, [icon("key", null, 14), "→", icon(what, null, 14)]);
    opts.mark(chip, t);
    return chip;
  }) : [];
  const resources = h("div", { class: "dj-row dj-wrap dj-resources" }, [
    coins, scrolls, keys, ...exchanges, counter("cork", p.corks, plural(p.corks, "cork")),
    h("span", { class: "dj-dim", title: "what row 2 of the Magic Source costs", text: `Source row 2: ${plural(p.scroll_price, "scroll")}` }),
  ]);

  const cards = p.mage_cards.map((card) => {
    const el = mageCard(card, { withState: true });
    if (own && !opts.mark(el, `use mage ${card.id}`)) opts.mark(el, `activate mage ${card.id}`);
    return el;
  });
  const equipment = p.equipment.map((card) => {
    const el = equipmentCard(card, true);
    if (own) opts.mark(el, `use equipment ${card.id}`);
    return el;
  });

  const placedPassages = view.spaces.reduce((n, sp) => n + (sp.passages || []).filter((x) => x.seat === p.seat).length, 0);
  const facts = [
    p.position ? `at ${p.position}${p.came_from ? ` (from ${p.came_from})` : ""}` : "not on the map yet",
    p.assistant_tent ? `assistant on tent ${p.assistant_tent}` : null,
    `passages placed ${placedPassages}${p.passages_left.length ? `, to place: ${p.passages_left.map((l) => LOCATION_LOOK[l]?.abbr || l).join(" ")}` : ""}`,
    p.archives_improved ? "Archives improved" : null,
    p.set_bonus ? "Equipment set bonus taken" : null,
  ].filter(Boolean);

  const parts = [
    head,
    scale,
    resources,
    h("div", { class: "dj-line" }, [h("span", { class: "dj-label", text: "Circles" }), circlesRow(p, ctx, opts, own)]),
    h("div", { class: "dj-line" }, [h("span", { class: "dj-label", text: "Bottles" }), bottlesRow(p, ctx, opts, own)]),
    h("div", { class: "dj-line" }, [h("span", { class: "dj-label", text: "Mage cards" }), cards.length ? h("div", { class: "dj-cards" }, cards) : h("span", { class: "dj-dim", text: "none" })]),
  ];
  if (equipment.length) parts.push(h("div", { class: "dj-line" }, [h("span", { class: "dj-label", text: "Equipment" }), h("div", { class: "dj-cards" }, equipment)]));
  if (p.trophies.length) {
    parts.push(h("div", { class: "dj-line" }, [h("span", { class: "dj-label", text: "Trophies" }), h("div", { class: "dj-row dj-wrap" }, p.trophies.map((t) =>
      h("span", { class: "dj-trophy-won", title: `trophy ${t.id}, row ${ROMAN[t.row - 1]}` }, [icon("trophy", null, 16), `${ROMAN[t.row - 1]}: ${t.points}`])))]));
  }
  if (p.characters.length) {
    parts.push(h("div", { class: "dj-chars" }, p.characters.map((c) =>
      h("div", { class: ["dj-char", c.positive ? "dj-good" : "dj-bad"] }, [h("b", { text: (c.positive ? "+ " : "− ") + c.name }), `: ${c.text}`]))));
  }
  const secret = p.secret_scoring_cards;
  if (secret && secret.count) {
    parts.push(h("div", { class: "dj-dim" }, [
      `Secret scoring cards: ${secret.cards ? secret.cards.map((c) => c.name).join("; ") : plural(secret.count, "card") + " face down"}`,
    ]));
  }
  parts.push(h("div", { class: "dj-dim dj-facts", text: facts.join(" · ") }));
  if (breakdown) parts.push(h("div", { class: "dj-dim", text: `Points: ${breakdown}` }));

  const board = h("section", { class: ["dj-player", own ? "dj-own" : "", turn ? "dj-current" : ""], "aria-label": `${ctx.names[p.seat] ?? "player " + (p.seat + 1)}'s board`, style: `--seat:${SEAT_COLOURS[p.seat % SEAT_COLOURS.length]}` }, parts);
  ctx.key(board, `player:${p.seat}`, JSON.stringify([p, score.total]));
  return board;
}

// -- the whole board ------------------------------------------------------------------------

function render(view, ctx) {
  const opts = new Options(ctx.decision, ctx.mark);
  const map = h("div", { class: "dj-map-wrap" }, [hereBar(view, ctx, opts), drawMap(view, ctx, opts), mapLegend(view)]);
  const mine = ctx.seat === null || ctx.seat === undefined ? null : view.players[ctx.seat];
  // Next to the map: your own board (it holds most of your choices); watching, the board of
  // the player to play. The other boards follow below.
  const first = mine || view.players[view.current ?? 0] || view.players[0];
  const others = view.players.filter((p) => p !== first);
  const boards = [first, ...others].map((p) => playerBoard(view, p, ctx, opts));

  const side = h("div", { class: "dj-side" }, [
    catchPanel(view, ctx, opts),
    draftPanel(view, ctx, opts),
    tomPanel(view, ctx),
    boards[0],
  ]);
  // The other players' boards open the displays' grid, two a row with the displays, so the
  // board stays short (a turn is played at 1280 x 720 with the decision panel in view).
  const displays = h("div", { class: "dj-displays" }, [
    ...boards.slice(1),
    tavernPanel(view, ctx, opts),
    manufactoryPanel(view, ctx, opts),
    marketPanel(view, ctx, opts),
    catacombsPanel(view, ctx, opts),
    archivesPanel(view, ctx, opts),
    sourcePanel(view, ctx, opts),
    trophiesPanel(view, ctx, opts),
    scoringPanel(view),
    supplyPanel(view, ctx),
  ]);
  return h("div", { class: ["dj-board", ctx.narrow ? "dj-narrow" : ""] }, [
    statusLine(view, ctx),
    h("div", { class: "dj-top" }, [map, side]),
    displays,
  ]);
}

export default { render };
