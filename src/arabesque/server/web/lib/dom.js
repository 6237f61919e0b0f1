// Small DOM and SVG builders shared by the pages and the game renderers.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
    else if (k === "text") el.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of [].concat(children ?? [])) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** An HTML element: h("button", {class: "big", onclick: f}, ["Go"]). */
export function h(tag, attrs = {}, children = []) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element: s("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function s(tag, attrs = {}, children = []) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** An <svg> root with a viewBox, scaling to its container's width. */
export function svgRoot(width, height, attrs = {}, children = []) {
  return s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width: "100%",
    preserveAspectRatio: "xMidYMin meet",
    ...attrs,
  }, children);
}

/** Words for a count: plural(2, "card") -> "2 cards". */
export function plural(n, word, many = word + "s") {
  return `${n} ${n === 1 ? word : many}`;
}

/** Remove every child of el. */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Add a stylesheet to the page once (a game's own `games/<id>.css`). */
export function loadStyle(href) {
  if (document.head.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href }));
}
