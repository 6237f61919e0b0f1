// Magic Lamp board renderer: the cave (three chests, the Lamp pile, the discard pile), the
// moment's focus (the lamp race reveal, a wish, a search in progress, the end), and every
// player's treasure. It reads only the view; options are marked where they live: a die face
// on a chest, a chest, a die, a card, a stone pile, an opponent's area, the wish card, the
// draw. The lamp race never says whether a face is shared unless the player asked for the
// assist (docs/web.md, "The lamp race").

import { h, s, plural } from "../lib/dom.js";

const CHESTS = ["bronze", "silver", "gold"];
const JEWELS = ["bracelet", "ring", "necklace"];
/** Each chest/metal: colours plus a letter, so colour is never the only cue. */
const METAL = {
  bronze: { fill: "#c07a3c", dark: "#6b3d16", letter: "B" },
  silver: { fill: "#c9d0d8", dark: "#5d6670", letter: "S" },
  gold: { fill: "#e8bd3a", dark: "#7a5a08", letter: "G" },
};
/** Stone looks by the stone type's index in the components (names may be custom): each has
 * its own cut (shape) as well as its colour. */
const STONE_LOOKS = [
  { fill: "#e0445c", edge: "#7d1225", shape: "hexagon" },
  { fill: "#37b567", edge: "#145a30", shape: "octagon" },
  { fill: "#4a7ee8", edge: "#173a85", shape: "oval" },
  { fill: "#eef3fa", edge: "#6c7a8c", shape: "brilliant" },
];
/** Seat colours for dice and name dots; the name always comes with them. */
const SEAT_COLOURS = ["#e8735f", "#5fa8e8", "#79c26f", "#e3b44f", "#b98ae8"];
const PHASE_WORDS = {
  setting: "Choose a chest",
  race: "Summon the Genie",
  resolve: "Wishes and the search",
  over: "Game over",
};
const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};
/** The most characters of a name under a die on a chest. */
const SHORT_NAME = 9;
const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);

// -- icons (our own simple shapes) ---------------------------------------------------------

/** Icons are built once per look and cloned after: a render stays within its few ms even
 * with every card of a five-player game on the board. */
const iconCache = new Map();
function cachedIcon(key, build) {
  let icon = iconCache.get(key);
  if (!icon) iconCache.set(key, (icon = build()));
  return icon.cloneNode(true);
}

/** A die face, `size` px square; `ring` outlines it in a seat colour. */
function dieIcon(face, size, ring = null) {
  return cachedIcon(`die:${face}:${size}:${ring}`, () => buildDie(face, size, ring));
}

function buildDie(face, size, ring) {
  const pip = 0.09 * 24;
  return s("svg", { viewBox: "0 0 24 24", width: size, height: size, class: "ml-die", "aria-hidden": "true" }, [
    s("rect", {
      x: 1.5, y: 1.5, width: 21, height: 21, rx: 4.5,
      fill: "#fbf7ee", stroke: ring || "#3b2f22", "stroke-width": ring ? 2.6 : 1.2,
    }),
    ...(PIPS[face] || []).map(([dx, dy]) =>
      s("circle", { cx: 12 + dx * 5.6, cy: 12 + dy * 5.6, r: pip, fill: "#2a1f14" })),
  ]);
}

function gemShape(shape, cx, cy, r, fill, edge) {
  const poly = (pts) => s("polygon", {
    points: pts.map(([x, y]) => `${(cx + x * r).toFixed(1)},${(cy + y * r).toFixed(1)}`).join(" "),
    fill, stroke: edge, "stroke-width": 1.2, "stroke-linejoin": "round",
  });
  if (shape === "hexagon") return poly([[0, -1], [0.87, -0.5], [0.87, 0.5], [0, 1], [-0.87, 0.5], [-0.87, -0.5]]);
  if (shape === "octagon") return poly([[-0.45, -1], [0.45, -1], [0.8, -0.6], [0.8, 0.6], [0.45, 1], [-0.45, 1], [-0.8, 0.6], [-0.8, -0.6]]);
  if (shape === "brilliant") return poly([[-0.95, -0.35], [-0.5, -0.85], [0.5, -0.85], [0.95, -0.35], [0, 1]]);
  return s("ellipse", { cx, cy, rx: r * 0.8, ry: r, fill, stroke: edge, "stroke-width": 1.2 });
}

function stoneIcon(index, size) {
  const look = STONE_LOOKS[index] || STONE_LOOKS[0];
  return s("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true" }, [
    gemShape(look.shape, 10, 10, 8, look.fill, look.edge),
    s("path", { d: "M7 6 L10 4.5", stroke: "#fff", "stroke-width": 1.4, "stroke-linecap": "round", opacity: 0.7 }),
  ]);
}

/** The shapes of a jewel (bracelet, ring, necklace) in its metal, centred on (cx, cy). */
function jewelShapes(jewel, metal, cx, cy) {
  const m = METAL[metal] || METAL.bronze;
  if (jewel === "bracelet") {
    return [s("circle", { cx, cy, r: 7, fill: "none", stroke: m.dark, "stroke-width": 5 }),
      s("circle", { cx, cy, r: 7, fill: "none", stroke: m.fill, "stroke-width": 3 })];
  }
  if (jewel === "ring") {
    return [s("circle", { cx, cy: cy + 2, r: 5.5, fill: "none", stroke: m.dark, "stroke-width": 3.2 }),
      s("circle", { cx, cy: cy + 2, r: 5.5, fill: "none", stroke: m.fill, "stroke-width": 1.8 }),
      s("polygon", { points: `${cx - 3},${cy - 4} ${cx},${cy - 7.5} ${cx + 3},${cy - 4} ${cx},${cy - 2}`, fill: "#8fd8ff", stroke: m.dark, "stroke-width": 0.8 })];
  }
  // necklace: a chain arc with a pendant
  return [s("path", { d: `M${cx - 8} ${cy - 7} Q${cx} ${cy + 8} ${cx + 8} ${cy - 7}`, fill: "none", stroke: m.dark, "stroke-width": 3.2 }),
    s("path", { d: `M${cx - 8} ${cy - 7} Q${cx} ${cy + 8} ${cx + 8} ${cy - 7}`, fill: "none", stroke: m.fill, "stroke-width": 1.8, "stroke-dasharray": "2 1" }),
    s("circle", { cx, cy: cy + 4, r: 2.8, fill: m.fill, stroke: m.dark, "stroke-width": 1 })];
}

function talismanShapes(cx, cy) {
  return [
    s("path", { d: `M${cx - 9} ${cy} Q${cx} ${cy - 9} ${cx + 9} ${cy} Q${cx} ${cy + 9} ${cx - 9} ${cy} Z`, fill: "#bfeee8", stroke: "#0e6b63", "stroke-width": 1.3 }),
    s("circle", { cx, cy, r: 3.6, fill: "#1a8f85" }),
    s("circle", { cx, cy, r: 1.5, fill: "#062f2b" }),
  ];
}

function sorcererShapes(cx, cy) {
  return [
    s("path", { d: `M${cx - 9} ${cy + 6} L${cx + 9} ${cy + 6} L${cx + 5} ${cy + 3} L${cx + 1} ${cy - 9} L${cx - 5} ${cy + 3} Z`, fill: "#6b3fa0", stroke: "#2d1547", "stroke-width": 1.2, "stroke-linejoin": "round" }),
    s("circle", { cx: cx, cy: cy - 1, r: 1.6, fill: "#ffe27a" }),
  ];
}

function sorcererIcon(size) {
  return s("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true" }, sorcererShapes(10, 10));
}

function chestIcon(name, size) {
  const m = METAL[name] || METAL.bronze;
  return s("svg", { viewBox: "0 0 48 36", width: size, height: size * 0.75, "aria-hidden": "true" }, [
    s("path", { d: "M4 14 Q24 0 44 14 Z", fill: m.fill, stroke: m.dark, "stroke-width": 1.6 }),
    s("rect", { x: 4, y: 14, width: 40, height: 19, rx: 2, fill: m.fill, stroke: m.dark, "stroke-width": 1.6 }),
    s("rect", { x: 10, y: 14, width: 3, height: 19, fill: m.dark, opacity: 0.55 }),
    s("rect", { x: 35, y: 14, width: 3, height: 19, fill: m.dark, opacity: 0.55 }),
    s("rect", { x: 18, y: 15, width: 12, height: 13, rx: 2, fill: "#fff8e6", stroke: m.dark, "stroke-width": 1 }),
    s("text", { x: 24, y: 25.5, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: m.dark }, m.letter),
  ]);
}

function lampIcon(size) {
  return s("svg", { viewBox: "0 0 36 24", width: size, height: size * 2 / 3, "aria-hidden": "true" }, [
    s("path", { d: "M6 16 C6 9 24 9 24 16 Z", fill: "#e8bd3a", stroke: "#7a5a08", "stroke-width": 1.3 }),
    s("path", { d: "M23 15 L34 9 L33 12 L24 18 Z", fill: "#e8bd3a", stroke: "#7a5a08", "stroke-width": 1.1 }),
    s("path", { d: "M7 12 C1 10 1 17 7 16", fill: "none", stroke: "#7a5a08", "stroke-width": 1.8 }),
    s("ellipse", { cx: 15, cy: 18, rx: 8, ry: 2.3, fill: "#c9981d", stroke: "#7a5a08", "stroke-width": 1 }),
    s("circle", { cx: 15, cy: 9, r: 2, fill: "#e8bd3a", stroke: "#7a5a08", "stroke-width": 1 }),
    s("path", { d: "M34 8 Q33 4 35 2 Q36 5 34 8 Z", fill: "#ff9b3d" }),
  ]);
}

function ringToken(size) {
  return s("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true" }, [
    s("circle", { cx: 10, cy: 11, r: 6.5, fill: "none", stroke: "#7a5a08", "stroke-width": 4 }),
    s("circle", { cx: 10, cy: 11, r: 6.5, fill: "none", stroke: "#ffd75e", "stroke-width": 2.4 }),
    s("circle", { cx: 10, cy: 3.6, r: 2.4, fill: "#ff5e7a", stroke: "#7a5a08", "stroke-width": 0.8 }),
  ]);
}

// -- cards --------------------------------------------------------------------------------

const CARD_W = 32;
const CARD_H = 44;

/** The words a card goes by (the engine names the Sorcerer by its kind). */
function cardName(card) {
  return card.kind === "sorcerer" ? "the Sorcerer" : card.name;
}

/** A chest card, small: its icon, its scorpions at the foot, a shield when protected, the
 * metal letter on jewels. */
function cardIcon(card, stoneIndex) {
  const look = `card:${card.name}:${card.kind}:${card.stone}:${stoneIndex.get(card.stone)}:${card.metal}:${card.jewel}:${card.scorpions}:${!!card.protected}`;
  return cachedIcon(look, () => buildCard(card, stoneIndex));
}

function buildCard(card, stoneIndex) {
  const kids = [];
  const kind = card.kind;
  const jewelMetal = kind === "jewel" ? METAL[card.metal] || METAL.bronze : null;
  kids.push(s("rect", {
    x: 0.75, y: 0.75, width: CARD_W - 1.5, height: CARD_H - 1.5, rx: 4,
    fill: kind === "jewel" ? "#fff7e4" : kind === "sorcerer" ? "#efe4fb" : kind === "talisman" ? "#e4f7f4" : "#f4efe6",
    stroke: jewelMetal ? jewelMetal.dark : "#5a4630", "stroke-width": 1.5,
  }));
  const cy = card.scorpions ? 17 : 21;
  if (kind === "stone") {
    const i = stoneIndex.get(card.stone) ?? 0;
    const look = STONE_LOOKS[i] || STONE_LOOKS[0];
    kids.push(gemShape(look.shape, 16, cy, 9, look.fill, look.edge));
  } else if (kind === "jewel") {
    kids.push(...jewelShapes(card.jewel, card.metal, 16, cy));
    kids.push(s("text", { x: 3, y: 11, "font-size": 11, "font-weight": 700, fill: jewelMetal.dark }, jewelMetal.letter));
  } else if (kind === "talisman") {
    kids.push(...talismanShapes(16, cy));
  } else {
    kids.push(...sorcererShapes(16, cy));
  }
  if (card.scorpions) {
    const text = card.scorpions > 2 ? `☠${card.scorpions}` : "☠".repeat(card.scorpions);
    kids.push(s("text", { x: 16, y: 39, "text-anchor": "middle", "font-size": 12, fill: "#b3122b", "font-weight": 700 }, text));
  }
  if (card.protected) {
    kids.push(s("path", { d: "M24 3 L30 5 L30 9 Q30 13 24 15 Q18 13 18 9 L18 5 Z", fill: "#3aa35b", stroke: "#0f4a24", "stroke-width": 0.8 }));
  }
  const label = cardName(card) + (card.protected ? " (protected)" : "");
  kids.push(s("title", {}, label));
  return s("svg", { viewBox: `0 0 ${CARD_W} ${CARD_H}`, width: CARD_W, height: CARD_H, class: "ml-card", role: "img", "aria-label": label }, kids);
}

// -- the renderer -------------------------------------------------------------------------

/** Everything one render needs, worked out once. */
function setup(view, ctx) {
  const decision = ctx.decision || null;
  const options = new Map();
  // A race option is never drawn: the page's lamp button is the race (docs/web.md).
  if (decision && !decision.reaction) for (const o of decision.options) options.set(o.text, o);
  const players = view.players || [];
  const stoneTypes = Object.keys(players[0]?.stones || {});
  const me = typeof ctx.seat === "number" ? ctx.seat : null;
  const names = players.map((p) => ctx.names?.[p.seat] || `Player ${p.seat + 1}`);
  // Two seats of one name ("Bot (heuristic)" twice) get their seat numbers, so telling them
  // apart never rests on the seat colours alone.
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) || 0) + 1);
  const twice = (seat) => counts.get(names[seat]) > 1;
  const name = (seat) => (twice(seat) ? `${names[seat]} ${seat + 1}` : names[seat] ?? `Player ${seat + 1}`);
  /** A name cut to fit under a die, keeping the seat number that tells twins apart. */
  const shortName = (seat) => {
    const base = names[seat] ?? `Player ${seat + 1}`;
    // A bot's name ("Seat 2 (heuristic bot)", lib/api.js seatName) is its seat, in full.
    const bot = base.match(/^(Seat \d+) \(.* bot\)$/);
    if (bot) return `${bot[1]} bot`;
    const room = twice(seat) ? SHORT_NAME - 2 : SHORT_NAME;
    const cut = base.length > room ? base.slice(0, room - 1).trimEnd() + "…" : base;
    return twice(seat) ? `${cut} ${seat + 1}` : cut;
  };
  return {
    view, ctx, decision, options, players, stoneTypes, me, name, shortName,
    kind: decision && !decision.reaction ? decision.kind : null,
    racing: view.phase === "race",
    assist: !!ctx.settings?.assist,
    stoneIndex: new Map(stoneTypes.map((t, i) => [t, i])),
    /** Marks `el` as the place of the option whose text is `text`, if there is one. */
    mark(el, text) {
      const option = options.get(text);
      if (!option) return false;
      el.classList.add("ml-opt");
      ctx.mark(el, option);
      return true;
    },
  };
}

function seatDot(seat) {
  return h("span", { class: "ml-dot", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`, "aria-hidden": "true" });
}

/** "You" for the page's own seat, the name otherwise (sentences read the same). */
function who(r, seat) {
  return seat === r.me ? "You" : r.name(seat);
}

function statusBar(r) {
  const v = r.view;
  const parts = [h("span", { class: "ml-turn" }, [`Turn ${v.turn}`]), h("span", { class: "ml-phase" }, [PHASE_WORDS[v.phase] || v.phase])];
  let doing = "";
  if (v.phase === "setting") doing = "everyone sets a die in secret";
  else if (v.phase === "race") doing = "the dice are revealed";
  else if (v.pending) doing = `${who(r, v.pending.player)}: ${v.pending.doing}`;
  if (doing) parts.push(h("span", { class: "ml-doing" }, [doing]));
  if (v.cave_closed && !v.is_over) parts.push(h("span", { class: "ml-closed" }, ["⚠ The cave is closed: last turn"]));
  return h("div", { class: "ml-status", role: "status" }, parts);
}

// -- the cave -------------------------------------------------------------------------------

/** Which die searches a chest: the lowest face that nobody else shows there (ties cancel). */
function searcherOf(dice) {
  const count = new Map();
  for (const d of dice) count.set(d.face, (count.get(d.face) || 0) + 1);
  let best = null;
  for (const d of dice) if (count.get(d.face) === 1 && (!best || d.face < best.face)) best = d;
  return best;
}

/** Dice on each chest: every revealed die, or only the page's own while they are secret. */
function diceByChest(r) {
  const out = Object.fromEntries(CHESTS.map((c) => [c, []]));
  for (const p of r.players) {
    for (const d of p.dice || []) out[d.chest]?.push({ seat: p.seat, face: d.face });
  }
  return out;
}

function sorcererLine(chest, narrow) {
  let text;
  const above = chest.cards_above_sorcerer;
  if (!chest.sorcerer_in_chest) text = "Sorcerer drawn";
  else if (above === 0) text = "Sorcerer next!";
  // A phone's chest is a third of 375 px: the short form keeps to one line.
  else text = narrow ? `${above} above` : `Sorcerer under ${plural(above, "card")}`;
  const near = chest.sorcerer_in_chest && above <= 3;
  return h("div", {
    class: ["ml-sorc", near && "ml-warn"],
    title: chest.sorcerer_in_chest ? `The Sorcerer lies under ${plural(above, "card")}` : null,
  }, [sorcererIcon(16), text]);
}

function chestPanel(r, chest, dice) {
  const v = r.view;
  const name = chest.name;
  const secret = v.phase === "setting";
  const el = h("div", { class: ["ml-chest", `ml-chest-${name}`] });
  const drawing = v.draw && v.draw.chest === name;
  if (drawing) el.classList.add("ml-active");
  el.append(h("div", { class: "ml-chest-head" }, [
    chestIcon(name, 44),
    h("div", {}, [h("div", { class: "ml-chest-name" }, [`${cap(name)} chest`]), h("div", { class: "ml-sub" }, [plural(chest.cards_left, "card")])]),
  ]));
  el.append(sorcererLine(chest, r.ctx.narrow));

  const known = chest.known_top || [];
  if (known.length) {
    el.append(h("div", { class: "ml-known" }, [
      h("div", { class: "ml-sub" }, ["Top cards you saw (first on top):"]),
      h("div", { class: "ml-cards" }, known.map((c) => cardIcon(c, r.stoneIndex))),
    ]));
  }
  const others = r.players.filter((p) => p.seat !== r.me && p.known_top_counts?.[name]);
  if (others.length) {
    el.append(h("div", { class: "ml-sub" }, [
      "Seen by " + others.map((p) => `${r.name(p.seat)} (${p.known_top_counts[name]})`).join(", "),
    ]));
  }

  // The dice on this chest. During the race they are drawn only in the reveal, where no
  // arrangement groups equal faces; afterwards the die that searches is pointed out.
  if (!r.racing && dice.length) {
    const searcher = v.phase === "resolve" ? searcherOf(dice) : null;
    const row = h("div", { class: "ml-chest-dice" });
    for (const d of dice) {
      const mine = d.seat === r.me;
      const cell = h("div", { class: ["ml-cdie", mine && "ml-mine", searcher === d && "ml-searcher"] }, [
        dieIcon(d.face, 30, SEAT_COLOURS[d.seat % SEAT_COLOURS.length]),
        h("span", { class: ["ml-who", !mine && /^Seat \d+ bot$/.test(r.shortName(d.seat)) && "ml-who-bot"], title: r.name(d.seat) }, [mine ? "you" : r.shortName(d.seat)]),
      ]);
      if (mine && secret) cell.append(h("span", { class: "ml-sub" }, ["secret"]));
      if (searcher === d) cell.append(h("span", { class: "ml-sub" }, ["searches"]));
      if (mine && r.kind === "effect_die") r.mark(cell, `chest ${name}`);
      row.append(cell);
    }
    el.append(row);
  }

  // Setting a die: the six faces of this chest's space, one tap each.
  const faceTargets = (prefix) => {
    const grid = h("div", { class: "ml-faces" });
    for (let f = 1; f <= 6; f++) {
      const b = h("button", { type: "button", class: "ml-face" }, [dieIcon(f, 28)]);
      if (r.mark(b, `${prefix}${f}`)) grid.append(b);
    }
    return grid.childElementCount ? grid : null;
  };
  if (r.kind === "set_die") {
    const grid = faceTargets(`set ${name} `);
    if (grid) el.append(h("div", { class: "ml-sub" }, ["Set your die:"]), grid);
  } else if (r.kind === "effect_face" && r.decision.context?.chest === name) {
    el.append(h("div", { class: "ml-sub" }, ["New face:"]), faceTargets("face "));
  } else if (r.kind === "effect_chest" || r.kind === "effect_move") {
    r.mark(el, `chest ${name}`);
  }
  r.ctx.key(el, `chest:${name}`, [
    chest.cards_left, chest.cards_above_sorcerer, known.map((c) => c.id).join(","),
    r.racing ? "" : dice.map((d) => `${d.seat}:${d.face}`).join(","),
  ].join("|"));
  return el;
}

/** How many of the seen Lamp cards are named under the pile (the rest in its tooltip). */
const LAMP_NAMES_SHOWN = 3;

function lampPile(r) {
  const pile = r.view.lamp_pile || { cards: 0, known_bottom: [] };
  const seen = pile.known_bottom || [];
  const el = h("div", { class: "ml-pile ml-lamp-pile" }, [
    h("div", { class: "ml-chest-head" }, [lampIcon(40), h("div", {}, [h("div", { class: "ml-chest-name" }, ["Lamp pile"]), h("div", { class: "ml-sub" }, [plural(pile.cards, "card")])])]),
  ]);
  if (seen.length) {
    // Seen cards lie at the bottom, the earliest seen comes back first.
    const order = seen.slice().reverse();
    const shown = order.slice(0, LAMP_NAMES_SHOWN).map((c) => c.name).join(", ");
    const more = order.length > LAMP_NAMES_SHOWN ? ` +${order.length - LAMP_NAMES_SHOWN} more` : "";
    el.append(h("div", { class: "ml-sub", title: order.map((c) => `${c.name}: ${c.text}`).join("\n") }, [
      `${plural(seen.length, "seen card")} at the bottom; next back: ${shown}${more}`,
    ]));
  }
  r.ctx.key(el, "lamp", `${pile.cards}|${seen.map((c) => c.id).join(",")}`);
  return el;
}

function discardPile(r) {
  const discard = r.view.discard || [];
  const cards = h("div", { class: "ml-cards" }, discard.map((c) => cardTile(r, c)));
  const el = h("div", { class: "ml-pile ml-discard" }, [
    h("div", { class: "ml-pile-title" }, [`Discard pile (${discard.length})`]),
    discard.length ? cards : h("div", { class: "ml-sub" }, ["empty"]),
  ]);
  r.ctx.key(el, "discard", discard.map((c) => c.id).join(","));
  return el;
}

/** A card the decision may pick is a button (marked); any other is a picture. */
function cardTile(r, card) {
  const icon = cardIcon(card, r.stoneIndex);
  if (!r.options.has(`card ${card.id}`)) return icon;
  const b = h("button", { type: "button", class: "ml-cardbtn" }, [icon]);
  r.mark(b, `card ${card.id}`);
  return b;
}

function cave(r) {
  const byChest = diceByChest(r);
  return h("section", { class: "ml-cave", "aria-label": "The cave" }, [
    h("div", { class: "ml-chests" }, [...(r.view.chests || []).map((c) => chestPanel(r, c, byChest[c.name] || [])), lampPile(r)]),
    discardPile(r),
  ]);
}

// -- the focus: what the table is looking at now -----------------------------------------

/** The lamp race: every player's dice by chest, big. Nothing here depends on whether faces
 * match (not the order, not a colour, not a key) unless the assist is on. */
function raceReveal(r) {
  const v = r.view;
  const shared = r.assist ? new Set(v.shared_faces || []) : new Set();
  const grid = h("div", { class: "ml-reveal", role: "table", "aria-label": "Revealed dice" });
  grid.append(h("div", { class: "ml-rv-corner", role: "columnheader" }, [""]));
  for (const c of CHESTS) grid.append(h("div", { class: "ml-rv-chest", role: "columnheader" }, [chestIcon(c, 30), cap(c)]));
  const size = r.ctx.narrow ? 46 : 58;
  for (const p of orderedPlayers(r)) {
    grid.append(h("div", { class: ["ml-rv-name", p.seat === r.me && "ml-mine"], role: "rowheader" }, [seatDot(p.seat), h("span", {}, [who(r, p.seat)])]));
    for (const c of CHESTS) {
      const cell = h("div", { class: "ml-rv-cell", role: "cell" });
      for (const d of (p.dice || []).filter((d) => d.chest === c)) {
        const hit = shared.has(d.face);
        cell.append(h("div", { class: ["ml-rv-die", hit && "ml-shared"], "aria-label": `${r.name(p.seat)}: ${c} ${d.face}${hit ? " (shared)" : ""}` }, [dieIcon(d.face, size)]));
      }
      grid.append(cell);
    }
  }
  r.ctx.key(grid, "reveal", r.players.map((p) => (p.dice || []).map((d) => d.chest + d.face).join("+")).join("|"));
  const out = [h("div", { class: "ml-focus-title" }, [lampIcon(30), "The dice are revealed: rub the lamp?"]), grid];
  if (r.assist) {
    // The rule: a face counts when two different players show it; a player's own two dice
    // showing one face (2 players) do not (rulebook, "Rub the lamp!", with 2 players).
    const faces = v.shared_faces || [];
    let text = !faces.length ? "no face is shown by two different players"
      : faces.length === 1 ? `face ${faces[0]} is shown by two different players`
        : `faces ${faces.join(" and ")} are shown by two different players`;
    const ownPairs = [];
    for (const p of orderedPlayers(r)) {
      const dice = p.dice || [];
      if (dice.length < 2 || !dice.every((d) => d.face === dice[0].face) || faces.includes(dice[0].face)) continue;
      const whose = p.seat === r.me ? "your own" : `${r.name(p.seat)}'s own`;
      ownPairs.push(`${whose} two ${dice[0].face}s do not count`);
    }
    if (ownPairs.length) text += ` (${ownPairs.join("; ")})`;
    out.push(h("div", { class: "ml-assist" }, [`Assist: ${text}`]));
  }
  const mine = r.me !== null ? r.players[r.me]?.race : null;
  if (typeof mine === "number") out.push(h("div", { class: "ml-sub" }, [`You rubbed the lamp (${mine} ms).`]));
  else if (mine === "no-rub") out.push(h("div", { class: "ml-sub" }, ["You did not rub the lamp."]));
  return out;
}

function raceSummary(r) {
  const res = r.view.race_result;
  if (!res) return null;
  const rubs = res.rubs || {};
  const mistaken = new Set(res.mistaken || []);
  const lines = [];
  for (const race of res.races || []) {
    if (race.winner === null || race.winner === undefined) lines.push(`Face ${race.face}: nobody rubbed.`);
    else lines.push(`Face ${race.face}: ${who(r, race.winner)} summoned the Genie (${rubs[race.winner]} ms)${race.tie ? ", a tie drawn by lot" : ""}.`);
  }
  if (mistaken.size) {
    const list = [...mistaken].map((seat) => `${who(r, seat)} ${rubs[seat]} ms`).join(", ");
    lines.push(`Rubbed by mistake, the Genie is angry: ${list}.`);
  }
  const others = Object.entries(rubs).filter(([seat]) => !mistaken.has(Number(seat)) && !(res.races || []).some((x) => x.winner === Number(seat)));
  if (others.length) lines.push("Also rubbed: " + others.map(([seat, ms]) => `${who(r, Number(seat))} ${ms} ms`).join(", ") + ".");
  if (!lines.length) lines.push("Nobody rubbed the lamp.");
  return h("div", { class: "ml-race-result" }, [lampIcon(24), h("div", {}, lines.map((t) => h("div", {}, [t])))]);
}

/** A Lamp card, large: its name and text; the wish's own buttons when they are this seat's. */
function lampCard(r, lamp, wish) {
  const el = h("div", { class: "ml-lamp-card" }, [
    h("div", { class: "ml-lamp-top" }, [lampIcon(30), h("span", { class: "ml-lamp-name" }, [lamp.name]), wish ? h("span", { class: "ml-sub" }, [`wish ${wish} of 3`]) : null]),
    h("div", { class: "ml-lamp-text" }, [lamp.text]),
  ]);
  if (r.kind === "wish") {
    const keep = h("button", { type: "button", class: "ml-btn ml-btn-go" }, ["✓ Keep this wish"]);
    const again = h("button", { type: "button", class: "ml-btn" }, ["↻ Wish again"]);
    const row = h("div", { class: "ml-btns" });
    if (r.mark(keep, "accept")) row.append(keep);
    if (r.mark(again, "reject")) row.append(again);
    el.append(row);
  }
  r.ctx.key(el, "wish", `${lamp.id}|${wish || ""}`);
  return el;
}

/** The search in progress: the cards drawn, the scorpions against the die, draw or stop. */
function drawPanel(r) {
  const d = r.view.draw;
  const el = h("div", { class: "ml-draw" });
  el.append(h("div", { class: "ml-focus-title" }, [
    chestIcon(d.chest, 34),
    `${who(r, d.player)} ${d.player === r.me ? "search" : "searches"} the ${d.chest} chest`,
    h("span", { class: "ml-inline ml-sub" }, [dieIcon(d.face, 24), `up to ${plural(d.face, "card")}`]),
  ]));
  const meter = h("div", { class: "ml-meter", "aria-label": `${plural(d.scorpions, "scorpion")}; ${d.face} would lose everything` });
  for (let i = 1; i <= d.face; i++) {
    const hit = i <= d.scorpions;
    meter.append(h("span", { class: ["ml-slot", hit && "ml-hit", i === d.face && "ml-bust"] }, [hit ? "☠" : i === d.face ? "✗" : String(i)]));
  }
  const cards = h("div", { class: "ml-cards" }, d.drawn.map((c) => cardIcon(c, r.stoneIndex)));
  el.append(h("div", { class: "ml-draw-row" }, [
    h("div", {}, [h("div", { class: "ml-sub" }, [`Drawn: ${d.drawn.length} of ${d.face} · ${d.cards_left_in_chest} left in the chest`]), d.drawn.length ? cards : h("div", { class: "ml-sub" }, ["no card yet"])]),
    h("div", {}, [h("div", { class: "ml-sub" }, [`Scorpions: ${d.scorpions} (at ${d.face} the cards are lost)`]), meter]),
  ]));
  if (d.ward) el.append(h("div", { class: "ml-sub" }, [`Charmed: the next ${plural(d.ward, "scorpion")} will not count.`]));
  if (r.kind === "draw") {
    const draw = h("button", { type: "button", class: "ml-btn ml-btn-go" }, ["Draw a card"]);
    const stop = h("button", { type: "button", class: "ml-btn" }, ["Stop and keep"]);
    const row = h("div", { class: "ml-btns" });
    if (r.mark(draw, "draw")) row.append(draw);
    if (r.mark(stop, "stop")) row.append(stop);
    el.append(row);
  }
  r.ctx.key(el, "draw", `${d.player}|${d.chest}|${d.drawn.map((c) => c.id).join(",")}`);
  return el;
}

/** Where this seat's choice lives, in a few words (the page shows the full prompt). */
const WHERE = {
  set_die: "Tap a face on a chest: the chest you search, and the most cards you may draw.",
  angry_target: "Tap the opponent who takes a card from you.",
  angry_steal: "Tap the card you take.",
  effect_chest: "Tap a chest.",
  effect_die: "Tap the die it changes, on its chest.",
  effect_face: "Tap the new face, under your die.",
  effect_move: "Tap the chest your die moves to.",
  effect_card: "Tap the opponent's card you take.",
  swap_own: "Tap one of your cards to give.",
  swap_theirs: "Tap the opponent's card you take.",
  talisman: "Tap the stone pile in your treasure it joins.",
  retrieve: "Tap a card in the discard pile.",
};

function focus(r) {
  const v = r.view;
  const parts = [];
  if (v.phase === "race") {
    parts.push(...raceReveal(r));
  } else if (v.phase === "over") {
    parts.push(finalScores(r));
  } else if (v.phase === "setting") {
    const mine = r.me !== null ? r.players[r.me]?.dice || [] : [];
    const text = r.kind === "set_die" ? WHERE.set_die : mine.length ? "Your dice are set. Waiting for the others…" : "Everyone sets a die in secret.";
    parts.push(h("div", { class: "ml-focus-title" }, [text]));
  } else {
    const summary = raceSummary(r);
    if (summary) parts.push(summary);
    const p = v.pending;
    const context = r.decision?.context || {};
    if (v.draw) parts.push(drawPanel(r));
    else if (p && p.kind === "wish" && p.lamp) parts.push(lampCard(r, p.lamp, p.wish));
    else if (context.lamp) parts.push(lampCard(r, context.lamp, null));
    if (context.give) parts.push(h("div", { class: "ml-inline" }, ["You give:", cardIcon(context.give, r.stoneIndex), cardName(context.give)]));
    if (context.card && r.kind === "talisman") parts.push(h("div", { class: "ml-inline" }, ["Your talisman:", cardIcon(context.card, r.stoneIndex)]));
    if (r.kind && WHERE[r.kind]) parts.push(h("div", { class: "ml-hint" }, [WHERE[r.kind]]));
    else if (p && !v.draw && p.kind !== "wish") parts.push(h("div", { class: "ml-sub" }, [`${who(r, p.player)}: ${p.doing}`]));
  }
  return h("section", { class: "ml-focus", "aria-label": "Now" }, parts);
}

function finalScores(r) {
  const ranked = r.players.slice().sort((a, b) => b.score - a.score || a.seat - b.seat);
  const top = ranked[0]?.score;
  const winners = ranked.filter((p) => p.score === top).map((p) => who(r, p.seat));
  return h("div", { class: "ml-final" }, [
    h("div", { class: "ml-focus-title" }, [`Game over: ${winners.join(" and ")} ${winners.length > 1 || winners[0] === "You" ? "win" : "wins"} with ${top}`]),
    h("ol", { class: "ml-ranking" }, ranked.map((p) => h("li", {}, [seatDot(p.seat), `${r.name(p.seat)}: ${p.score}`]))),
  ]);
}

// -- the players -----------------------------------------------------------------------------

/** The page's own seat first, then the others in seat order (everyone in order when watching). */
function orderedPlayers(r) {
  const n = r.players.length;
  const start = r.me ?? 0;
  return Array.from({ length: n }, (_, i) => r.players[(start + i) % n]);
}

/** Per stone type, the seats sharing the most of it when two or more do: nobody gets the bonus. */
function stoneTies(r) {
  const out = new Map();
  for (const t of r.stoneTypes) {
    const top = Math.max(...r.players.map((p) => p.stones[t] || 0));
    if (top > 0 && r.players.filter((p) => (p.stones[t] || 0) === top).length > 1) out.set(t, top);
  }
  return out;
}

/** A player's cards in piles: stones by type (with the talismans placed on them), jewels by
 * metal, then lone talismans and a Sorcerer. */
function cardGroups(r, player, ties) {
  const breakdown = player.score_breakdown || {};
  const groups = [];
  const byStone = new Map(r.stoneTypes.map((t) => [t, []]));
  const byMetal = new Map(CHESTS.map((m) => [m, []]));
  const lone = [];
  // Real stones first, so a talisman on a pile is seen standing for one more of them.
  const cards = player.cards.filter((c) => c.kind === "stone").concat(player.cards.filter((c) => c.kind !== "stone"));
  for (const c of cards) {
    if (c.kind === "stone") byStone.get(c.stone)?.push(c);
    else if (c.kind === "jewel") byMetal.get(c.metal)?.push(c);
    else if (c.kind === "talisman" && byStone.has(c.talisman_on)) byStone.get(c.talisman_on).push(c);
    else lone.push(c);
  }
  for (const [type, cards] of byStone) {
    if (!cards.length) continue;
    const count = player.stones[type] || 0;
    const most = breakdown[`majority_${type}`] > 0;
    const caption = [stoneIcon(r.stoneIndex.get(type), 14), `${type} ${count}`];
    if (most) caption.push(h("b", { class: "ml-most" }, [` ★+${breakdown[`majority_${type}`]}`]));
    else if (ties.get(type) === count) caption.push(h("span", { class: "ml-tie" }, [" = tie"]));
    const g = group(r, cards, caption);
    if (player.seat === r.me && r.kind === "talisman") r.mark(g, `stone ${type}`);
    groups.push(g);
  }
  for (const [metal, cards] of byMetal) {
    if (!cards.length) continue;
    cards.sort((a, b) => JEWELS.indexOf(a.jewel) - JEWELS.indexOf(b.jewel));
    const sets = player.sets?.[metal] || 0;
    const have = new Set(cards.map((c) => c.jewel)).size;
    const caption = sets
      ? [h("b", { class: "ml-set" }, [`✓ ${metal} set${sets > 1 ? ` ×${sets}` : ""} +${breakdown[`set_${metal}`]}`])]
      : [`${metal} ${have}/3`];
    groups.push(group(r, cards, caption, sets && "ml-group-set"));
  }
  if (lone.length) {
    const talismans = lone.filter((c) => c.kind === "talisman");
    if (talismans.length) {
      const unplaced = talismans.some((c) => c.talisman_on === null || c.talisman_on === "");
      groups.push(group(r, talismans, [unplaced ? "talisman, to place" : "talisman alone"]));
    }
    const sorcerers = lone.filter((c) => c.kind !== "talisman");
    if (sorcerers.length) groups.push(group(r, sorcerers, ["Sorcerer, 0"]));
  }
  return groups;
}

function group(r, cards, caption, extra) {
  return h("div", { class: ["ml-group", extra] }, [
    h("div", { class: "ml-cards" }, cards.map((c) => cardTile(r, c))),
    h("div", { class: "ml-gcap" }, caption),
  ]);
}

function breakdownText(player) {
  const parts = [];
  for (const [key, value] of Object.entries(player.score_breakdown || {})) {
    if (!value) continue;
    if (key === "cards") parts.push(plural(value, "card"));
    else if (key.startsWith("set_")) parts.push(`${key.slice(4)} set ${value}`);
    else if (key.startsWith("majority_")) parts.push(`most ${key.slice(9)} ${value}`);
    else if (key === "ring") parts.push(`ring ${value}`);
    else parts.push(`${key} ${value}`);
  }
  return parts.join(" + ");
}

function raceBadge(r, seat) {
  const res = r.view.race_result;
  if (!res || r.racing) return null;
  const ms = res.rubs?.[String(seat)];
  if (ms === undefined) return null;
  if ((res.mistaken || []).includes(seat)) return h("span", { class: "ml-badge ml-bad" }, [`✗ rubbed by mistake, ${ms} ms`]);
  if ((res.races || []).some((x) => x.winner === seat)) return h("span", { class: "ml-badge ml-good" }, [`★ summoned the Genie, ${ms} ms`]);
  return h("span", { class: "ml-badge" }, [`rubbed, ${ms} ms`]);
}

function diceLine(r, player) {
  const v = r.view;
  const mine = player.seat === r.me;
  if (r.racing) return null; // the reveal shows them
  if (player.dice === null || player.dice === undefined) {
    return h("span", { class: "ml-sub" }, [v.phase === "setting" ? "dice hidden" : ""]);
  }
  if (!player.dice.length) return h("span", { class: "ml-sub" }, [mine && v.phase === "setting" ? "die not set yet" : "no die"]);
  return h("span", { class: "ml-pdice" }, player.dice.map((d) =>
    h("span", { class: "ml-pdie", title: `${d.chest} chest, ${d.face}` }, [dieIcon(d.face, 22), h("span", { class: `ml-metal ml-metal-${d.chest}` }, [METAL[d.chest]?.letter || d.chest])])));
}

function playerArea(r, player, ties) {
  const v = r.view;
  const mine = player.seat === r.me;
  const acting = !v.is_over && v.pending?.player === player.seat;
  const el = h("div", { class: ["ml-player", mine && "ml-mine", acting && "ml-active"], "aria-label": `${r.name(player.seat)}'s treasure` });
  const head = h("div", { class: "ml-phead" }, [
    seatDot(player.seat),
    h("span", { class: "ml-pname" }, [r.name(player.seat)]),
    mine ? h("span", { class: "ml-you" }, ["you"]) : null,
    player.ring ? h("span", { class: "ml-ring", title: "holds the magic ring" }, [ringToken(18), "ring"]) : null,
    acting ? h("span", { class: "ml-acting" }, ["▶ to play"]) : null,
    h("span", { class: "ml-score", title: breakdownText(player) }, [String(player.score), h("small", {}, [" pts"])]),
  ]);
  el.append(head);
  const line = h("div", { class: "ml-pline" }, [diceLine(r, player), raceBadge(r, player.seat)]);
  if (player.ward) line.append(h("span", { class: "ml-badge" }, [`charm: ${plural(player.ward, "scorpion")} ignored`]));
  if (line.childElementCount) el.append(line);
  const groups = cardGroups(r, player, ties);
  el.append(groups.length ? h("div", { class: "ml-groups" }, groups) : h("div", { class: "ml-sub" }, ["no treasure yet"]));
  const bd = breakdownText(player);
  if (bd) el.append(h("div", { class: "ml-breakdown" }, [`${bd} = ${player.score}`]));
  if (!mine) r.mark(el, `target ${player.seat}`);
  r.ctx.key(el, `player:${player.seat}`, [
    player.cards.map((c) => `${c.id}${c.talisman_on ? "@" + c.talisman_on : ""}`).join(","),
    player.score, player.ring, r.racing ? "" : (player.dice || []).map((d) => d.chest + d.face).join("+"),
  ].join("|"));
  return el;
}

function playersSection(r) {
  const ties = stoneTies(r);
  return h("section", { class: ["ml-players", `ml-n${r.players.length}`], "aria-label": "Players" },
    orderedPlayers(r).map((p) => playerArea(r, p, ties)));
}

export default {
  render(view, ctx) {
    const r = setup(view, ctx);
    const root = h("div", {
      class: ["ml-board", ctx.narrow && "ml-narrow", r.racing && "ml-racing", r.kind && `ml-kind-${r.kind}`],
    });
    // During the race the reveal comes first and the rest stays quiet below it; on a
    // narrow screen a search or a wish comes first too (the cave would push it out of sight).
    const focusFirst = r.racing || (ctx.narrow && (view.draw || view.pending?.kind === "wish"));
    const parts = focusFirst
      ? [statusBar(r), focus(r), cave(r), playersSection(r)]
      : [statusBar(r), cave(r), focus(r), playersSection(r)];
    root.append(...parts);
    return root;
  },
};
