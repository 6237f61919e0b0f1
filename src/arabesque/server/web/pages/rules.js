// A game's rules page (docs/web.md): the rules in our own words, then our rulings, with a table
// of contents built from the headings. Reachable during play: `?from=/tables/ID` adds a link
// back to the table.
//
// The HTML comes from our own server, rendered from the markdown shipped with each game (raw
// HTML in the sources is escaped there), so it is inserted as it is.
import { h, clear, plural, loadStyle } from "../lib/dom.js";
import { rules as fetchRules } from "../lib/api.js";
import { setGame } from "../app.js";

/** Where `?from=` may lead back to: a table or its replay on this server, nothing else. */
const FROM_PATH = /^\/tables\/[A-Za-z0-9_-]+(\/replay)?$/;
/** A ruling's id at the start of its heading: "R4 — …", "D30 — …". */
const RULING_ID = /^([A-Z]{1,2}\d{1,3})\b/;

/** Parse trusted HTML into a detached element. */
function fragment(html) {
  const div = h("div");
  div.innerHTML = html;
  return div;
}

/** Give every h2/h3 in `container` a unique id (prefixed) for the table of contents. */
function nameHeadings(container, prefix, taken) {
  for (const heading of container.querySelectorAll("h2, h3")) {
    const base = `${prefix}-${heading.textContent.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "part"}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    heading.id = id;
  }
}

/** The rulings as one collapsible section per ruling (its h2 and what follows); what comes
 * before the first ruling (the introduction) stays open. The rulings' own h1 is dropped: the
 * page gives the section its heading. */
function rulingSections(html) {
  const source = fragment(html);
  const intro = h("div", { class: "rules-rulings-intro" });
  const sections = [];
  let current = null;
  for (const node of [...source.childNodes]) {
    if (node.nodeName === "H1") continue;
    if (node.nodeName === "H2") {
      const title = node.textContent.trim();
      const found = title.match(RULING_ID);
      const id = found ? `ruling-${found[1].toLowerCase()}` : null;
      const body = h("div", { class: "rules-ruling-body" });
      // The heading stays a heading (for screen readers' heading lists) inside the summary.
      const heading = h("h3", { class: "rules-ruling-title" }, [title]);
      current = { id, rulingId: found ? found[1] : null, title, body };
      sections.push(current);
      current.element = h("details", { class: "rules-ruling", id }, [h("summary", {}, [heading]), body]);
      continue;
    }
    (current ? current.body : intro).append(node);
  }
  return { intro, sections };
}

/** In the rules, "ruling R4" (or any known ruling id) becomes a link to that ruling. */
function linkRulings(container, ids) {
  if (ids.size === 0) return;
  const pattern = new RegExp(`\\b(${[...ids].join("|")})\\b`, "g");
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement.closest("a, code, h2, h3") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  for (const text of texts) {
    const value = text.nodeValue;
    pattern.lastIndex = 0;
    if (!pattern.test(value)) continue;
    const parts = [];
    let last = 0;
    value.replace(pattern, (match, id, at) => {
      parts.push(value.slice(last, at), h("a", { href: `#ruling-${id.toLowerCase()}`, class: "rules-ruling-link" }, [id]));
      last = at + match.length;
      return match;
    });
    parts.push(value.slice(last));
    text.replaceWith(...parts.filter((p) => p !== ""));
  }
}

/** The table of contents: the rules' h2 with their h3 nested, then the rulings. */
function contents(rulesBody, rulingsCount) {
  // Unnumbered: some headings carry their own numbers ("1. Set your die").
  const list = h("ul", {});
  let sub = null;
  for (const heading of rulesBody.querySelectorAll("h2, h3")) {
    const link = h("li", {}, [h("a", { href: `#${heading.id}` }, [heading.textContent])]);
    if (heading.tagName === "H2" || !list.lastElementChild) {
      list.append(link);
      sub = null;
    } else {
      if (!sub) list.lastElementChild.append((sub = h("ul", {})));
      sub.append(link);
    }
  }
  list.append(h("li", {}, [h("a", { href: "#rulings" }, [`Our rulings (${rulingsCount})`])]));
  return list;
}

/** Open the ruling a link or the address points to (a closed <details> hides its text). */
function revealTarget(hash) {
  if (!hash || hash.length < 2) return;
  const target = document.getElementById(decodeURIComponent(hash.slice(1)));
  if (!target) return;
  const details = target.closest("details");
  if (details) details.open = true;
  target.scrollIntoView({ block: "start" });
}

export async function mount(root, params) {
  loadStyle("/static/pages/rules.css");
  const game = params.game;
  const from = new URLSearchParams(location.search).get("from");
  const links = [h("a", { href: "/" }, ["Back to the lobby"])];
  if (from && FROM_PATH.test(from)) {
    links.push(h("a", { href: from }, [from.endsWith("/replay") ? "Back to the replay" : "Back to the table"]));
  }
  const nav = h("nav", { class: "rules-links", "aria-label": "Back" }, links);
  const page = h("div", { class: "rules-page" }, [nav, h("p", { class: "rules-status", role: "status" }, ["Loading the rules…"])]);
  clear(root).append(page);

  let rules;
  try {
    rules = await fetchRules(game);
  } catch (err) {
    const why = err.code === "no_game" ? `There is no game “${game}” on this server.` : err.message;
    clear(page).append(nav, h("h1", {}, ["Rules"]), h("p", { class: "rules-error", role: "alert" }, [why]));
    return;
  }
  setGame(rules.game, rules.name);
  document.title = `Rules of ${rules.name} · Arabesque`;

  const taken = new Set(["rulings", "contents"]);
  const rulesBody = fragment(rules.html);
  rulesBody.className = "rules-text";
  nameHeadings(rulesBody, "rules", taken);
  const { intro, sections } = rulingSections(rules.rulings_html);
  linkRulings(rulesBody, new Set(sections.map((r) => r.rulingId).filter(Boolean)));

  const setAll = (open) => sections.forEach((r) => { r.element.open = open; });
  const rulingsSection = h("section", { class: "rules-rulings", "aria-labelledby": "rulings" }, [
    h("div", { class: "rules-rulings-head" }, [
      h("h2", { id: "rulings" }, ["Our rulings"]),
      sections.length ? h("div", { class: "rules-rulings-buttons" }, [
        h("button", { type: "button", onclick: () => setAll(true) }, ["Open all"]),
        h("button", { type: "button", onclick: () => setAll(false) }, ["Close all"]),
      ]) : null,
    ]),
    h("p", { class: "rules-rulings-lead" }, [
      `Where the rulebook leaves a question open, this is what our software does and why: ${plural(sections.length, "ruling")}.`,
    ]),
    intro,
    ...sections.map((r) => r.element),
  ]);

  const toc = h("nav", { class: "rules-toc", "aria-labelledby": "contents" }, [
    h("details", { class: "rules-toc-box", open: true }, [
      h("summary", {}, [h("h2", { id: "contents" }, ["Contents"])]),
      contents(rulesBody, sections.length),
    ]),
  ]);
  // On a phone the contents start closed: the rules come first.
  if (window.matchMedia("(max-width: 760px)").matches) toc.querySelector("details").open = false;

  clear(page).append(
    nav,
    h("header", { class: "rules-header" }, [
      h("h1", {}, [`Rules of ${rules.name}`]),
      h("p", { class: "rules-subtitle" }, ["In our own words, then our rulings."]),
    ]),
    h("div", { class: "rules-layout" }, [
      toc,
      h("article", { class: "rules-article" }, [rulesBody, rulingsSection]),
    ]),
  );

  page.addEventListener("click", (event) => {
    const link = event.target.closest("a[href^='#']");
    if (link) {
      event.preventDefault();
      history.replaceState(null, "", link.getAttribute("href"));
      revealTarget(link.getAttribute("href"));
    }
  });
  revealTarget(location.hash);
}
