// The fallback renderer: any game's view shown readably as nested lists, for games without a
// board renderer of their own (docs/web.md). Every option is still listed by the page's
// decision panel, so the game stays fully playable.
import { h } from "../lib/dom.js";

/** View fields the page shows elsewhere, or that are bookkeeping. */
const SKIPPED = new Set(["decision", "game", "seat", "version", "to_act", "is_over", "to_act_seen_by"]);

/** Fields that would give away the lamp race (whether a face is shared): shown only with
 * the assist setting. Spotting the shared face is the player's skill. */
const ASSIST_ONLY = new Set(["shared_faces"]);

function words(key) {
  return String(key).replace(/_/g, " ");
}

function isScalar(value) {
  return value === null || typeof value !== "object";
}

function scalarText(value) {
  if (value === null || value === undefined) return "—";
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}

/** A one-line summary of a small object ({name: "ruby", ...} -> "ruby"), or null. */
function shortName(value) {
  if (value && typeof value === "object" && !Array.isArray(value) && typeof value.name === "string") return value.name;
  return null;
}

function node(value, path, ctx, depth) {
  if (isScalar(value)) return h("span", { class: "v" }, [scalarText(value)]);
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "v muted" }, ["none"]);
    if (value.every(isScalar)) return h("span", { class: "v" }, [value.map(scalarText).join(", ")]);
    const names = value.map(shortName);
    if (names.every((n) => n !== null)) return h("span", { class: "v" }, [names.join(", ")]);
    return h("ol", { class: "g-list" }, value.map((item, i) => {
      const li = h("li", {}, [node(item, `${path}.${i}`, ctx, depth + 1)]);
      if (depth < 2) ctx.key(li, `${path}.${i}`, JSON.stringify(item));
      return li;
    }));
  }
  const entries = Object.entries(value).filter(([k]) => !SKIPPED.has(k) && (!ASSIST_ONLY.has(k) || ctx.settings.assist));
  return h("dl", { class: "g-map" }, entries.flatMap(([k, v]) => {
    const dd = h("dd", {}, [node(v, path ? `${path}.${k}` : k, ctx, depth + 1)]);
    if (depth < 2) ctx.key(dd, path ? `${path}.${k}` : k, JSON.stringify(v));
    return [h("dt", {}, [words(k)]), dd];
  }));
}

export default {
  render(view, ctx) {
    const players = Array.isArray(view.players) ? view.players : null;
    const rest = { ...view };
    const parts = [];
    if (players) {
      delete rest.players;
      parts.push(h("div", { class: "g-players" }, players.map((p, i) => {
        const seat = typeof p.seat === "number" ? p.seat : i;
        const card = h("section", { class: ["g-player", seat === ctx.seat && "me"], "aria-label": ctx.names[seat] || `Seat ${seat + 1}` }, [
          h("h3", {}, [ctx.names[seat] || `Seat ${seat + 1}`, seat === ctx.seat ? " (you)" : ""]),
          node(p, `players.${i}`, ctx, 1),
        ]);
        return card;
      })));
    }
    parts.unshift(h("section", { class: "g-table", "aria-label": "The table" }, [node(rest, "", ctx, 0)]));
    return h("div", { class: "generic-board" }, [
      h("p", { class: "muted g-note" }, ["This game is shown as plain text; its moves are in the panel."]),
      ...parts,
    ]);
  },
};
