// Ali Baba's board renderer: the cave (a stepped pyramid seen from above), the tiles set
// aside, the kinds and colours in play, and every player's screen. The contract with the
// pages is docs/web.md; the view's fields are games/ali_baba/view.py's.

import { h, s, plural } from "../lib/dom.js";

export const settings = [{ name: "showScreens", label: "Show opponents' tiles (no screens)" }];

/** One bottom square of the cave, in SVG units; upper layers sit half a square in. */
const U = 100;
/** Room around the pyramid for the tiles' height shadows. */
const CAVE_PAD = 8;

/** Victory points for 1..6 tiles of one kind (the game's set table). */
const SET_POINTS = [0, 1, 3, 6, 10, 15, 21];

/** Each tile colour: how it is painted, its short code (so colour is never the only cue),
 * and the ink that reads on it. */
const COLOURS = {
  pink: { fill: "#f39ac6", ink: "#2b1a22", code: "Pk" },
  blue: { fill: "#5d9cf0", ink: "#0f1b2e", code: "Bl" },
  brown: { fill: "#95582f", ink: "#fff6ea", code: "Br" },
  green: { fill: "#45ad4f", ink: "#0f2311", code: "Gr" },
  yellow: { fill: "#f4cc2c", ink: "#2e2504", code: "Ye" },
  white: { fill: "#f3f0e8", ink: "#2b2118", code: "Wh" },
};
const UNKNOWN_COLOUR = { fill: "#9a9a9a", ink: "#111", code: "?" };
const colourOf = (name) => COLOURS[name] ?? UNKNOWN_COLOUR;

/** What each colour's magic does, in a few words (the effect names of the tile JSON). */
const EFFECT_WORDS = {
  score: "score 5 points",
  flipped: "score 2 per tile the take turns face up (2 for a bare square)",
  same_kind: "score 2 per tile of its kind behind your screen",
  adjacent: "also take a face-up neighbour",
  show: "each opponent shows a tile: steal one",
  forbid: "forbid a kind or a colour to the others",
};
/** The colours in the game's order, with their effect, for the legend. */
const COLOUR_ORDER = [
  ["pink", "score"], ["blue", "flipped"], ["brown", "same_kind"],
  ["green", "adjacent"], ["yellow", "show"], ["white", "forbid"],
];
const KINDS = [
  "carpet", "chest", "crown", "diamond", "lamp", "necklace", "ring", "ruby", "statue", "sword",
];

/** What the player to act is doing, by phase (the effect phase by the effect in use). */
const PHASE_WORDS = {
  take: "taking a tile from the cave",
  lamp: "keeping Aladdin's lamp or swapping it",
  show: "opponents choose a tile to show",
  steal: "taking one of the shown tiles",
  over: "game over",
};
const EFFECT_PHASE_WORDS = {
  adjacent: "may also take a neighbouring tile (green)",
  forbid: "naming a kind or colour to forbid (white)",
  show: "deciding on the yellow effect",
};

const VARIANT_NAMES = {
  standard: "standard game",
  "aladdins-lamp": "Aladdin's lamp",
  "equal-treasures": "equal treasures",
  "smaller-cave": "smaller cave",
};

const INK = "#2b2118";
const GOLD = "#e2b04a";

// -- icons: our own simple shapes, in a 40 x 40 box centred on 0,0 ---------------------------

const line = (d, extra = {}) => s("path", { d, fill: "none", ...extra });
const shape = (d, fill = GOLD) => s("path", { d, fill });

const KIND_SHAPES = {
  carpet: () => [
    s("rect", { x: -14, y: -10, width: 28, height: 20, fill: GOLD }),
    s("rect", { x: -9, y: -5, width: 18, height: 10, fill: "#c8553d" }),
    line("M-14,-7h-5M-14,-2h-5M-14,3h-5M-14,8h-5M14,-7h5M14,-2h5M14,3h5M14,8h5"),
  ],
  chest: () => [
    shape("M-15,-2V-8Q0,-19 15,-8V-2Z", "#b87333"),
    s("rect", { x: -15, y: -2, width: 30, height: 15, fill: "#b87333" }),
    s("rect", { x: -3, y: -5, width: 6, height: 8, fill: GOLD }),
  ],
  crown: () => [
    shape("M-16,10V-9L-8,0L0,-14L8,0L16,-9V10Z"),
    line("M-16,5H16"),
    s("circle", { cx: 0, cy: -15, r: 2.5, fill: "#c8553d" }),
  ],
  diamond: () => [
    shape("M-16,-5L-9,-13H9L16,-5L0,15Z", "#bfe6f5"),
    line("M-16,-5H16M-4,-5L0,15L4,-5M-9,-13L-4,-5L0,-13L4,-5L9,-13"),
  ],
  lamp: () => [
    shape("M-15,3Q-15,-5 0,-5Q9,-5 13,-9L19,-12L14,-3Q9,7 -2,7Q-15,7 -15,3Z"),
    line("M-15,1Q-21,-1 -18,-7"),
    s("ellipse", { cx: -3, cy: -7, rx: 6, ry: 2.5, fill: GOLD }),
    shape("M19,-12Q22,-17 18,-20Q17,-16 19,-12Z", "#f08a24"),
    s("rect", { x: -9, y: 7, width: 14, height: 4, fill: GOLD }),
  ],
  necklace: () => [
    line("M-15,-15Q-14,9 0,11Q14,9 15,-15"),
    ...[[-14, -6], [-10, 3], [-4, 8], [4, 8], [10, 3], [14, -6]].map(([cx, cy]) =>
      s("circle", { cx, cy, r: 2.6, fill: "#fff" })),
    shape("M0,10L-5,15L0,20L5,15Z", "#c8553d"),
  ],
  ring: () => [
    s("circle", { cx: 0, cy: 5, r: 11, fill: "none", "stroke-width": 4.5, stroke: GOLD }),
    s("circle", { cx: 0, cy: 5, r: 13.5, fill: "none", "stroke-width": 1.4 }),
    s("circle", { cx: 0, cy: 5, r: 8.5, fill: "none", "stroke-width": 1.4 }),
    shape("M-6,-9L0,-16L6,-9L0,-4Z", "#bfe6f5"),
  ],
  ruby: () => [
    shape("M-15,0L-8,-13H8L15,0L8,13H-8Z", "#d33b4f"),
    shape("M-7,0L-3.5,-6H3.5L7,0L3.5,6H-3.5Z", "#f08c9a"),
    line("M-8,-13L-3.5,-6M8,-13L3.5,-6M15,0H7M-15,0H-7M-8,13L-3.5,6M8,13L3.5,6"),
  ],
  statue: () => [
    s("circle", { cx: 0, cy: -12, r: 5, fill: "#b9b3a6" }),
    shape("M-6,-6H6L9,8H-9Z", "#b9b3a6"),
    s("rect", { x: -13, y: 8, width: 26, height: 7, fill: GOLD }),
  ],
  sword: () => [
    s("g", { transform: "rotate(40)" }, [
      shape("M-3,6V-15L0,-20L3,-15V6Z", "#d9dde2"),
      s("rect", { x: -10, y: 6, width: 20, height: 4, fill: GOLD }),
      s("rect", { x: -2, y: 10, width: 4, height: 7, fill: "#8a5a2b" }),
      s("circle", { cx: 0, cy: 19, r: 2.6, fill: GOLD }),
    ]),
  ],
};

/** Small marks for the six effects, in an 18 x 18 box centred on 0,0. */
const EFFECT_SHAPES = {
  score: () => [shape("M0,-8L2.4,-2.6L8,-2.4L3.6,1.2L5,7L0,3.7L-5,7L-3.6,1.2L-8,-2.4L-2.4,-2.6Z")],
  flipped: () => [
    s("rect", { x: -7, y: 0, width: 14, height: 6, fill: "#fff" }),
    line("M-6,-2Q0,-10 6,-3M2,-4L6,-3L6,-7"),
  ],
  same_kind: () => [
    s("rect", { x: -8, y: -5, width: 7, height: 10, fill: GOLD }),
    s("rect", { x: 1, y: -5, width: 7, height: 10, fill: GOLD }),
  ],
  adjacent: () => [
    line("M-8,0H8M0,-8V8M5,-3L8,0L5,3M-5,-3L-8,0L-5,3M-3,5L0,8L3,5M-3,-5L0,-8L3,-5"),
  ],
  show: () => [
    shape("M-9,0Q0,-8 9,0Q0,8 -9,0Z", "#fff"),
    s("circle", { cx: 0, cy: 0, r: 3, fill: INK }),
  ],
  forbid: () => [s("circle", { cx: 0, cy: 0, r: 7, fill: "none" }), line("M-5,-5L5,5")],
};

/** Drawings that depend only on their key (an icon, a tile's face at a size) are built once
 * and cloned: a render draws up to ~60 tiles and cloning is far cheaper than building. */
const drawings = new Map();
function drawn(key, build) {
  let proto = drawings.get(key);
  if (!proto) drawings.set(key, (proto = build()));
  return proto.cloneNode(true);
}

function icon(table, name, scale = 1) {
  const g = drawn(`${table === KIND_SHAPES ? "kind" : "effect"}:${name}`, () => {
    const build = table[name];
    return s("g", {
      stroke: INK, "stroke-width": 1.8, "stroke-linejoin": "round", "stroke-linecap": "round",
    }, build ? build() : [s("text", { "text-anchor": "middle", y: 7, "font-size": 20, fill: INK, stroke: "none", text: "?" })]);
  });
  if (scale !== 1) g.setAttribute("transform", `scale(${scale})`);
  return g;
}
const kindIcon = (kind, scale) => icon(KIND_SHAPES, kind, scale);
const effectIcon = (effect, scale) => icon(EFFECT_SHAPES, effect, scale);

// -- words -------------------------------------------------------------------------------------

const setPoints = (n) => SET_POINTS[Math.min(n, SET_POINTS.length - 1)];

function pluralKind(kind) {
  if (/[^aeiou]y$/.test(kind)) return kind.slice(0, -1) + "ies"; // ruby -> rubies
  if (/(s|x|ch|sh)$/.test(kind)) return kind + "es";
  return kind + "s";
}

function nameOf(ctx, seat) {
  const name = ctx.names?.[seat];
  return name || `Player ${seat + 1}`;
}

function andList(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${tail}`;
}

function tileWords(tile) {
  return `${tile.name}: ${tile.colour} (${colourOf(tile.colour).code}), ${EFFECT_WORDS[tile.effect] ?? tile.effect}`;
}

// -- the decision's options, by where they live -------------------------------------------------

const TILE_VERBS = ["also take", "swap for", "take", "show", "steal"];

/** The options of `decision` indexed by what they act on: tile names per verb, the kind or
 * colour a white effect forbids, and the option-words that are not about a tile. Options are
 * read from their canonical `text` (actions.py), which names the tile exactly. */
function indexOptions(decision) {
  const out = { cave: new Map(), swap: new Map(), show: new Map(), steal: new Map(),
    forbid: new Map(), keep: null, useYellow: null };
  for (const option of decision?.options ?? []) {
    const text = String(option.text ?? "");
    if (text === "keep lamp") out.keep = option;
    else if (text === "use yellow") out.useYellow = option;
    else if (text.startsWith("forbid ")) out.forbid.set(text.slice(7), option);
    else {
      const verb = TILE_VERBS.find((v) => text.startsWith(v + " "));
      if (!verb) continue; // "pass": the page's own list offers it
      const tile = text.slice(verb.length + 1);
      const map = verb === "take" || verb === "also take" ? out.cave
        : verb === "swap for" ? out.swap : out[verb];
      map.set(tile, option);
    }
  }
  return out;
}

/** Makes `el` the board place of `option` (when there is one), with our own outline. */
function place(ctx, el, option) {
  if (!option) return el;
  el.classList.add("ab-option");
  ctx.mark(el, option);
  return el;
}

// -- a tile face ---------------------------------------------------------------------------------

/** A face-up tile drawn in a `size` square at 0,0: its colour with its code (never smaller
 * than 13 units: chips are drawn at 1 unit per pixel) and, when there is room, its effect's
 * mark, so colour is never the only cue; the kind's icon; the kind's name on cave tiles. */
function tileFace(tile, size, { named = false } = {}) {
  return drawn(`face:${tile.kind}:${tile.colour}:${tile.effect}:${size}:${named}`, () => buildFace(tile, size, named));
}

function buildFace(tile, size, named) {
  const c = colourOf(tile.colour);
  const k = size / U;
  const roomy = size >= 56;
  const parts = [
    s("rect", { x: 0, y: 0, width: size, height: size, rx: 8 * k, fill: c.fill, stroke: "#1a1410", "stroke-width": Math.max(2 * k, 1.2) }),
    s("text", { x: 7 * k, y: Math.max(22 * k, 14), "font-size": Math.max(19 * k, 13), "font-weight": 700, fill: c.ink, text: c.code }),
  ];
  if (roomy) {
    parts.push(s("g", { transform: `translate(${size - 19 * k},${19 * k})` }, [
      s("circle", { r: 13 * k, fill: "#fffaf0", stroke: INK, "stroke-width": 1.2 * k }),
      effectIcon(tile.effect, k),
    ]));
  }
  // Without a name the medallion sits lower and, on small chips, to the right of the code;
  // a cave tile also leaves room at its foot for its place (placeTag).
  const [mx, my, mr] = named ? [50, 44, 19] : roomy ? [50, 58, 27] : [60, 62, 32];
  parts.push(s("g", { transform: `translate(${mx * k},${my * k})` }, [
    s("circle", { r: mr * k, fill: "#fffaf0", stroke: INK, "stroke-width": 1.2 * k }),
    kindIcon(tile.kind, (mr / 26) * k),
  ]));
  if (named) {
    parts.push(s("text", {
      x: size / 2, y: 78 * k, "text-anchor": "middle", "font-size": 16 * k, "font-weight": 600,
      fill: c.ink, text: tile.kind,
    }));
  }
  return s("g", { class: "ab-face" }, parts);
}

/** A tile as a small stand-alone SVG (screens, the aside row, this turn's panel). */
function tileChip(tile, { size = 56, cls = "" } = {}) {
  const chip = drawn(`chip:${tile.kind}:${tile.colour}:${tile.effect}:${size}`, () => s("svg", {
    class: "ab-chip", viewBox: `0 0 ${size} ${size}`, width: size, height: size,
    role: "img", "aria-label": tileWords(tile),
  }, [s("title", { text: tileWords(tile) }), buildFace(tile, size, false)]));
  if (cls) chip.classList.add(cls);
  return chip;
}

/** A tile off the board with its name written under it. */
function namedChip(ctx, tile, option, caption = tile.name, size = 60) {
  return h("figure", { class: "ab-named" }, [
    optionChip(ctx, tile, option, { size }), h("figcaption", {}, caption),
  ]);
}

/** A chip that carries a decision option when there is one: a focusable, labelled wrapper. */
function optionChip(ctx, tile, option, opts) {
  const chip = tileChip(tile, opts);
  return option ? place(ctx, h("span", { class: "ab-chip-slot" }, [chip]), option) : chip;
}

// -- the cave ----------------------------------------------------------------------------------

/** The white blocks in force (none once the game is over). */
const activeBlocks = (view) => (view.is_over ? [] : view.blocks ?? []);

/** The white blocks that forbid `tile` to `seat` (for a spectator: to anyone but the one who
 * forbade it); and whether `seat`'s own block names it. */
function blocksOn(view, tile, seat) {
  const against = [];
  let mine = false;
  for (const block of activeBlocks(view)) {
    const value = block.type === "kind" ? tile.kind : tile.colour;
    if (value !== block.what) continue;
    if (seat !== null && block.by === seat) mine = true;
    else against.push(block);
  }
  return { against, mine };
}

function drawCave(view, ctx, options) {
  const board = view.board;
  const bottom = board.layers[0];
  const width = bottom.cols * U + 2 * CAVE_PAD;
  const height = bottom.rows * U + 2 * CAVE_PAD;
  const seat = ctx.seat ?? null;
  const takenFrom = view.this_turn?.place ?? null;
  const ordered = [...board.places].sort((a, b) => a.layer - b.layer || a.place - b.place);
  const groups = [];
  let takenOutline = null;
  for (const p of ordered) {
    const x = CAVE_PAD + p.left * U;
    const y = CAVE_PAD + p.top * U;
    const at = `translate(${x},${y})`;
    if (p.label === takenFrom) {
      takenOutline = s("g", { transform: at, class: "ab-taken-from", "aria-hidden": "true" }, [
        s("rect", { x: 4, y: 4, width: U - 8, height: U - 8, rx: 8 }),
      ]);
    }
    let g;
    if (p.state === "empty") {
      if (p.layer > 0) continue; // nothing left here: the layer below shows through
      g = s("g", { transform: at, class: "ab-floor" }, [
        s("rect", { x: 3, y: 3, width: U - 6, height: U - 6, rx: 6 }),
        s("title", { text: `${p.label}: empty square` }),
      ]);
    } else if (p.state === "face_down") {
      g = drawn(`down:${p.layer}`, () => s("g", { class: "ab-down" }, [
        heightShadow(p.layer),
        s("rect", { class: "ab-down-body", x: 0, y: 0, width: U, height: U, rx: 8, "data-layer": p.layer }),
        s("path", { class: "ab-down-lattice", d: "M14,50L50,14L86,50L50,86Z M32,50L50,32L68,50L50,68Z" }),
        s("text", { x: 8, y: 24, class: "ab-layer", text: `L${p.layer + 1}` }),
      ]));
      g.setAttribute("transform", at);
    } else {
      g = faceUpTile(view, ctx, p, at, seat, options);
    }
    ctx.key(g, `place:${p.label}`, p.state === "face_up" ? `up:${p.tile.id}` : p.state);
    groups.push(g);
  }
  if (takenOutline) groups.push(takenOutline);
  return s("svg", {
    class: "ab-cave-svg", viewBox: `0 0 ${width} ${height}`, role: "group",
    "aria-label": `The cave: ${view.face_down} tiles face down`,
  }, [s("rect", { class: "ab-cave-floor", x: 0, y: 0, width, height, rx: 14 }), ...groups]);
}

/** The tile's height, drawn as a shadow growing with its layer. */
function heightShadow(layer) {
  const d = 3 + 3 * layer;
  return s("rect", { class: "ab-shadow", x: d, y: d, width: U, height: U, rx: 8 });
}

function faceUpTile(view, ctx, p, at, seat, options) {
  const tile = p.tile;
  const { against, mine } = blocksOn(view, tile, seat);
  const words = [`${p.label}: ${tileWords(tile)}`];
  const parts = [heightShadow(p.layer), tileFace(tile, U, { named: true }), placeTag(p.label)];
  if (against.length) {
    // Forbidden to this seat (a spectator: to the others): dimmed and struck through.
    const by = andList(against.map((b) => nameOf(ctx, b.by)));
    words.push(seat === null ? `forbidden by ${by} to the others` : `forbidden to you by ${by}`);
    parts.push(s("g", { class: "ab-blocked" }, [
      s("rect", { x: 0, y: 0, width: U, height: U, rx: 8 }),
      s("path", { d: `M10,${U - 10}L${U - 10},10` }),
    ]));
  }
  if (mine) words.push("you forbade it to the others");
  if (against.length || mine) {
    parts.push(s("g", { transform: "translate(15,54)", class: "ab-block-badge" }, [
      s("circle", { r: 12 }), s("path", { d: "M-6,-6L6,6" }), s("circle", { r: 7, class: "ab-ring" }),
    ]));
  }
  const option = options.cave.get(tile.name);
  if (option) {
    parts.push(s("rect", { class: "ab-opt-ring", x: 2.5, y: 2.5, width: U - 5, height: U - 5, rx: 7 }));
  }
  parts.push(s("title", { text: words.join("; ") }));
  return place(ctx, s("g", { transform: at, class: "ab-up" }, parts), option);
}

/** A cave tile's place ("L4 r1 c1", the name the options give it) at its foot, so a
 * player reading the option list finds the tile on the board. */
function placeTag(label) {
  return s("g", { class: "ab-place-tag", "aria-hidden": "true" }, [
    s("rect", { x: 5, y: 83, width: U - 10, height: 15, rx: 4 }),
    s("text", { x: U / 2, y: 95, "text-anchor": "middle", text: label }),
  ]);
}

function caveCounts(view) {
  const up = view.board.places.filter((p) => p.state === "face_up").length;
  const items = [
    `${view.face_down} face down`,
    `${up} face up`,
  ];
  if (view.in_box) items.push(`${view.in_box} in the box, unseen`);
  return h("p", { class: "ab-counts" }, items.join(" · "));
}

// -- the status line and this turn ----------------------------------------------------------------

function phaseWords(view) {
  if (view.phase === "effect") {
    const tile = view.this_turn?.effect_tile ?? view.this_turn?.taken;
    return EFFECT_PHASE_WORDS[tile?.effect] ?? "using an effect";
  }
  return PHASE_WORDS[view.phase] ?? view.phase;
}

function statusLine(view, ctx) {
  const variant = VARIANT_NAMES[view.variant] ?? view.variant;
  const head = [h("strong", {}, `Turn ${view.turn}`), ` · round ${view.round}`];
  if (view.variant !== "standard") head.push(` · ${variant}`);
  let who;
  if (view.is_over) who = h("strong", {}, "Game over");
  else if (view.current !== null && view.current !== undefined) {
    const you = view.current === ctx.seat;
    who = h("span", {}, [
      h("strong", {}, you ? "Your turn" : `${nameOf(ctx, view.current)}'s turn`),
      `: ${phaseWords(view)}`,
    ]);
  }
  const lines = [h("div", { class: "ab-status-main" }, [h("span", {}, head), who ?? null])];
  if (view.last_turn !== null && view.last_turn !== undefined && !view.is_over) {
    const left = Math.max(0, view.last_turn - view.turn + 1);
    lines.push(h("div", { class: "ab-final" }, [
      `Final round: the game ends after turn ${view.last_turn} (${plural(left, "turn")} left, this one included).`,
      finalTurnNote(view, ctx),
    ]));
  }
  const el = h("div", { class: "ab-status", role: "status" }, lines);
  ctx.key(el, "status", `${view.turn}:${view.phase}:${view.last_turn}`);
  return el;
}

/** The viewing seat's own last turn, during the final round. */
function finalTurnNote(view, ctx) {
  if (ctx.seat === null || ctx.seat === undefined) return "";
  const n = view.players.length;
  const mine = [];
  for (let t = view.turn; t <= view.last_turn; t++) if ((t - 1) % n === ctx.seat) mine.push(t);
  if (!mine.length) return " You have no turn left.";
  if (mine.length === 1 && mine[0] === view.turn && view.current === ctx.seat) return " This is your last turn!";
  return ` Your last turn: turn ${mine[mine.length - 1]}.`;
}

/** Who won, from the final ranking (places shared on a full tie). */
function winners(view, ctx) {
  const first = (view.ranking ?? []).map((rank, seat) => [rank, seat]).filter(([rank]) => rank === 1);
  if (!first.length) return "The game is over.";
  const names = first.map(([, seat]) => (seat === ctx.seat ? "you" : nameOf(ctx, seat)));
  const points = view.scores?.[first[0][1]]?.total;
  const verb = first.length > 1 ? "share the win" : names[0] === "you" ? "win" : "wins";
  const who = andList(names);
  return `${who[0].toUpperCase()}${who.slice(1)} ${verb}${points === undefined ? "" : ` with ${plural(points, "point")}`}.`;
}

/** What happened so far this turn: the tile taken and from where, a lamp swap, how many tiles
 * turned face up; the tile whose effect is in use carries the lamp and yellow options. */
function thisTurn(view, ctx, options) {
  const turn = view.this_turn;
  const who = view.current === ctx.seat ? "You" : nameOf(ctx, view.current);
  const body = [];
  if (!turn) {
    body.push(h("p", {}, view.is_over ? winners(view, ctx) : `${who === "You" ? "You are" : who + " is"} choosing a tile to take.`));
  } else {
    const taken = turn.taken;
    const effectTile = turn.effect_tile;
    const swapped = effectTile && effectTile.id !== taken.id;
    // The lamp choice is about the taken lamp; a yellow choice about the tile in use.
    const takenOption = options.keep ?? (!swapped ? options.useYellow : null);
    const row = [namedChip(ctx, taken, takenOption, `${taken.name}, from ${turn.place}`, 64)];
    if (swapped) {
      row.push(h("span", { class: "ab-arrow", "aria-hidden": "true" }, "⇄"));
      row.push(namedChip(ctx, effectTile, options.useYellow, `${effectTile.name}, swapped in`, 64));
    }
    body.push(h("div", { class: "ab-turn-row" }, row));
    const words = [`${who} took the ${taken.name}`];
    if (turn.flipped) words.push(`${plural(turn.flipped, "tile")} turned face up`);
    body.push(h("p", {}, words.join("; ") + "."));
    const inUse = effectTile ?? (view.phase === "lamp" ? null : taken);
    if (inUse) body.push(h("p", { class: "ab-effect" }, `${inUse.colour}: ${EFFECT_WORDS[inUse.effect] ?? inUse.effect}`));
    if (view.phase === "lamp") body.push(h("p", { class: "ab-effect" }, "Keep the lamp (its own effect) or swap it for a tile set aside."));
  }
  const el = h("section", { class: "ab-panel ab-turn", "aria-label": "This turn" }, [
    h("h3", {}, view.is_over ? "Game over" : "This turn"), ...body,
  ]);
  ctx.key(el, "this-turn", turn ? `${turn.taken.id}:${turn.effect_tile?.id}:${turn.flipped}:${view.phase}` : `none:${view.turn}`);
  return el;
}

function asideRow(view, ctx, options) {
  if (!view.aside?.length) return null;
  const chips = view.aside.map((tile, i) => {
    const slot = namedChip(ctx, tile, options.swap.get(tile.name), tile.name, 56);
    ctx.key(slot, `aside:${i}`, String(tile.id));
    return slot;
  });
  return h("section", { class: "ab-panel ab-aside", "aria-label": "Tiles set aside" }, [
    h("h3", {}, "Set aside beside the cave"), h("div", { class: "ab-chips" }, chips),
  ]);
}

// -- the players -----------------------------------------------------------------------------------

/** Tiles grouped by kind, largest groups first. */
function byKind(tiles) {
  const groups = new Map();
  for (const t of tiles) {
    if (!groups.has(t.kind)) groups.set(t.kind, []);
    groups.get(t.kind).push(t);
  }
  return [...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
}

function setsTotal(tiles) {
  return byKind(tiles).reduce((sum, [, group]) => sum + setPoints(group.length), 0);
}

/** The score track: its total and the points each scoring colour brought. */
function trackLine(player) {
  const parts = Object.entries(player.track_breakdown ?? {})
    .map(([colour, pts]) => h("span", { class: "ab-track-part" }, [
      h("span", { class: "ab-dot", style: `background:${colourOf(colour).fill}` }),
      `${colourOf(colour).code} ${pts}`,
    ]));
  return h("div", { class: "ab-track" }, [h("strong", {}, `Track ${player.track}`), ...parts]);
}

/** A player's tiles in full, grouped by kind with the set points each group scores now. Your
 * own screen spells each group out in a row; `compact` (an opponent's) flows the groups. */
function tileGroups(ctx, tiles, options, { shownTile = null, over = false, compact = false } = {}) {
  if (!tiles.length) return h("p", { class: "ab-none" }, "No tile yet.");
  const rows = byKind(tiles).map(([kind, group]) => {
    const n = group.length;
    // What one more tile of the kind would add, while more can come.
    const next = over || compact ? "" : n < 6 ? ` next +${setPoints(n + 1) - setPoints(n)}` : " complete";
    return h("div", { class: "ab-group", title: `${n} × ${kind}` }, [
      h("span", { class: "ab-group-kind" }, [
        s("svg", { viewBox: "-22 -22 44 44", width: 26, height: 26, "aria-hidden": "true" }, [kindIcon(kind)]),
        h("span", {}, compact ? `×${n}` : `${kind} ×${n}`),
      ]),
      h("span", { class: "ab-chips" }, group.map((t) =>
        optionChip(ctx, t, options.show.get(t.name), {
          size: 42, cls: shownTile && shownTile.id === t.id ? "ab-chosen" : "",
        }))),
      h("span", { class: "ab-group-pts" }, [h("strong", {}, plural(setPoints(n), "pt")), next && h("small", {}, next)]),
    ]);
  });
  return h("div", { class: ["ab-groups", compact && "ab-compact"] }, rows);
}

/** What a screen lets the table see: how many tiles, and those shown to everyone now. */
function screen(count) {
  const words = `${plural(count, "tile")} behind the screen`;
  return h("span", { class: "ab-screen", title: words, "aria-label": words }, [
    s("svg", { viewBox: "0 0 60 34", width: 38, height: 22, "aria-hidden": "true" }, [
      s("path", { d: "M2,32L8,4L22,8L30,2L38,8L52,4L58,32Z", class: "ab-screen-shape" }),
      s("path", { d: "M22,8L22,32M38,8L38,32", class: "ab-screen-fold" }),
    ]),
    plural(count, "tile"),
  ]);
}

function playerArea(view, ctx, player, options) {
  const p = player.seat;
  const mine = p === ctx.seat;
  const open = mine || view.is_over || Boolean(ctx.settings?.showScreens);
  const current = p === view.current && !view.is_over;
  const head = [
    current ? h("span", { class: "ab-turn-mark", "aria-label": "to play" }, "▶") : null,
    h("strong", { class: "ab-name" }, nameOf(ctx, p)),
    mine ? h("span", { class: "ab-you" }, "you") : null,
    open ? h("span", { class: "ab-count" }, plural(player.count, "tile")) : screen(player.count),
  ];
  const body = [trackLine(player)];
  const score = view.scores?.[p];
  if (score) {
    const rank = view.ranking?.[p];
    const parts = Object.entries(score.breakdown ?? {}).map(([k, v]) => `${k} ${v}`).join(" + ");
    body.push(h("div", { class: "ab-final-score" }, [
      h("strong", {}, `${rank ? ordinal(rank) + " · " : ""}${plural(score.total, "point")}`),
      h("small", {}, ` (${parts})`),
    ]));
  } else if (open) {
    const sets = setsTotal(player.tiles);
    body.push(h("div", { class: "ab-now" }, [
      `Sets ${sets} + track ${player.track} = `, h("strong", {}, `${sets + player.track} now`),
    ]));
  }
  body.push(...playerNotes(view, ctx, player, options));
  const showing = view.showing;
  if (open) body.push(tileGroups(ctx, player.tiles, options, {
    shownTile: mine ? showing?.mine : null, over: view.is_over, compact: !mine,
  }));
  const area = h("section", {
    class: ["ab-player", mine && "ab-mine", current && "ab-current"],
    "aria-label": `${nameOf(ctx, p)}${mine ? " (you)" : ""}`,
  }, [h("header", {}, head), ...body]);
  const visible = open ? player.tiles.map((t) => t.id).join(",") : String(player.count);
  ctx.key(area, `player:${p}`, `${visible}|${player.track}|${current}`);
  return area;
}

/** What a player is doing or showing under the yellow and white effects. */
function playerNotes(view, ctx, player, options) {
  const p = player.seat;
  const notes = [];
  if (view.phase === "show" && view.showing?.choosing?.includes(p)) {
    const mineChosen = p === ctx.seat && view.showing.mine;
    notes.push(h("p", { class: "ab-note" }, mineChosen
      ? [`You show the ${view.showing.mine.name} (secret until everyone has chosen).`]
      : [p === ctx.seat ? "Choose a tile to show (in secret)." : "Choosing a tile to show…"]));
  }
  const shown = view.shown?.[String(p)];
  if (shown) {
    notes.push(h("div", { class: "ab-shown" }, [
      h("span", {}, "Shows:"),
      namedChip(ctx, shown, options.steal.get(shown.name), shown.name, 56),
    ]));
  }
  for (const block of activeBlocks(view)) {
    if (block.by !== p) continue;
    const what = block.type === "kind" ? pluralKind(block.what) : `${block.what} tiles`;
    notes.push(h("p", { class: "ab-note ab-forbids" }, `Forbids ${what} to the others until their next turn.`));
  }
  return notes;
}

// -- the kinds and colours: a legend, the white effect's choices, the blocks ----------------------

function legend(view, ctx, options) {
  const removed = new Set(view.removed_kinds ?? []);
  const upTiles = view.board.places.filter((p) => p.state === "face_up").map((p) => p.tile);
  const forbidding = options.forbid.size > 0;
  const blockedBy = (type, what) => activeBlocks(view).filter((b) => b.type === type && b.what === what);
  const item = (type, what, picture, words) => {
    const blocks = blockedBy(type, what);
    const out = removed.has(what);
    const extra = [];
    if (out) extra.push(h("small", {}, "out of the game"));
    for (const b of blocks) extra.push(h("small", { class: "ab-forbids" }, `⊘ by ${nameOf(ctx, b.by)}`));
    if (forbidding && !out) {
      const n = upTiles.filter((t) => (type === "kind" ? t.kind : t.colour) === what).length;
      extra.push(h("small", {}, `${n} face up`));
    }
    const el = h("li", { class: ["ab-legend-item", out && "ab-out", blocks.length && "ab-is-blocked"] }, [
      picture, h("span", { class: "ab-legend-words" }, [h("span", {}, words), ...extra]),
    ]);
    ctx.key(el, `${type}:${what}`, blocks.map((b) => b.by).join(","));
    return place(ctx, el, options.forbid.get(what));
  };
  const kinds = KINDS.map((kind) => item("kind", kind,
    s("svg", { viewBox: "-24 -24 48 48", width: 34, height: 34, "aria-hidden": "true" }, [
      s("circle", { r: 23, fill: "#fffaf0", stroke: INK, "stroke-width": 1.2 }), kindIcon(kind),
    ]), kind));
  const colours = COLOUR_ORDER.map(([colour, effect]) => item("colour", colour,
    s("svg", { viewBox: "0 0 40 40", width: 34, height: 34, "aria-hidden": "true" }, [
      s("rect", { width: 40, height: 40, rx: 6, fill: colourOf(colour).fill, stroke: INK, "stroke-width": 1.5 }),
      s("text", { x: 4, y: 16, "font-size": 14, "font-weight": 700, fill: colourOf(colour).ink, text: colourOf(colour).code }),
      s("g", { transform: "translate(27,27)" }, [s("circle", { r: 10, fill: "#fffaf0" }), effectIcon(effect, 0.85)]),
    ]), `${colour}: ${EFFECT_WORDS[effect]}`));
  return h("section", { class: ["ab-panel", "ab-legend", forbidding && "ab-forbidding"], "aria-label": "Kinds and colours" }, [
    h("h3", {}, forbidding ? "Forbid a kind or a colour" : "Treasures and magic"),
    h("ul", { class: "ab-kinds" }, kinds),
    h("ul", { class: "ab-colours" }, colours),
    h("p", { class: "ab-sets" }, `Sets of one kind score ${SET_POINTS.slice(1).join(" / ")} for 1–6 tiles.`),
  ]);
}

// -- the whole board ---------------------------------------------------------------------------------

export default {
  render(view, ctx) {
    const options = indexOptions(ctx.decision);
    // Your own screen first, then the others in seat order from yours.
    const n = view.players.length;
    const first = ctx.seat ?? 0;
    const players = view.players.map((_, i) => view.players[(first + i) % n]);
    const cave = h("section", { class: "ab-cave", "aria-label": "The cave" }, [
      drawCave(view, ctx, options), caveCounts(view),
    ]);
    const side = h("div", { class: "ab-side" }, [
      thisTurn(view, ctx, options),
      asideRow(view, ctx, options),
      h("div", { class: "ab-players" }, players.map((p) => playerArea(view, ctx, p, options))),
    ]);
    return h("div", { class: ["ab", ctx.narrow && "ab-narrow"] }, [
      statusLine(view, ctx),
      h("div", { class: "ab-main" }, [cave, side]),
      legend(view, ctx, options),
    ]);
  },
};
