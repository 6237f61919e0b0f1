// The router: which page for which address (docs/web.md). Every page gets the same header:
// the home link and, once a page knows its game, a link to that game's rules.
import { h, clear } from "./lib/dom.js";

const root = document.getElementById("app");

const rulesLink = h("a", { class: "rules-link", hidden: true }, []);
const header = h("header", { class: "site-header" }, [
  h("a", { href: "/", class: "home-link", "aria-label": "Arabesque: the lobby" }, [
    h("img", { src: "/static/icon.svg", alt: "", width: 28, height: 28 }),
    h("span", {}, ["Arabesque"]),
  ]),
  h("nav", { "aria-label": "Site" }, [rulesLink, h("a", { href: "/replay" }, ["Replays"])]),
]);
const main = h("div", { class: "page" });
root.before(header);
root.append(main);

/** Called by a page once it knows its game: the header links to that game's rules. */
export function setGame(gameId, gameName) {
  if (!gameId) {
    rulesLink.hidden = true;
    return;
  }
  rulesLink.hidden = false;
  rulesLink.href = `/rules/${encodeURIComponent(gameId)}`;
  const name = gameName || gameId;
  clear(rulesLink).append("Rules", h("span", { class: "wide-only" }, [` of ${name}`]));
  rulesLink.setAttribute("aria-label", `Rules of ${name}`);
  // During play the rules open beside the table, never instead of it.
  if (location.pathname.startsWith("/tables/") && !location.pathname.endsWith("/replay")) {
    rulesLink.target = "_blank";
    rulesLink.rel = "noopener";
  }
}

/** Show a failure in words where the page would have been. */
export function showFatal(message, title = "Something went wrong") {
  clear(main).append(
    h("section", { class: "card fatal", role: "alert" }, [
      h("h1", {}, [title]),
      h("p", {}, [message]),
      h("p", {}, [h("a", { href: "/" }, ["Back to the lobby"])]),
    ]),
  );
}

/** The page for a path: [module path, params], or null. */
function route(path) {
  let m;
  if (path === "/" || path === "") return ["./pages/lobby.js", {}];
  if ((m = path.match(/^\/tables\/([A-Za-z0-9_-]+)\/replay\/?$/))) return ["./pages/replay.js", { tableId: m[1] }];
  if ((m = path.match(/^\/tables\/([A-Za-z0-9_-]+)\/?$/))) return ["./pages/table.js", { tableId: m[1] }];
  if (path === "/replay" || path === "/replay/") return ["./pages/replay.js", {}];
  if ((m = path.match(/^\/rules\/([^/]+)\/?$/))) return ["./pages/rules.js", { game: decodeURIComponent(m[1]) }];
  return null;
}

async function start() {
  const found = route(location.pathname);
  if (!found) {
    document.title = "Page not found · Arabesque";
    showFatal("There is no page at this address.", "Page not found");
    return;
  }
  const [modulePath, params] = found;
  // The rules page names its game in the header once the server knows it (not "chess").
  let page;
  try {
    page = await import(modulePath);
  } catch (err) {
    console.error(err);
    showFatal("This page could not be loaded. It may not be part of this server yet.");
    return;
  }
  try {
    await page.mount(main, params);
  } catch (err) {
    console.error(err);
    showFatal(err && err.message ? err.message : String(err));
  }
}

start();
