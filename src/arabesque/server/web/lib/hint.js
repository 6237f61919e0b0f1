// A hint as the pages show it (docs/web.md, "Hints"): the search bot's best options for a seat
// with their numbers, and one line saying what the numbers are. The server words everything
// (labels from the decision, the explanation); this only lays it out.
import { h } from "./dom.js";

/** An option's number: a win rate as a percentage, an evaluation as a value from 0 to 1. */
export function hintNumber(hint, option) {
  return hint.measure === "win_rate" ? `${Math.round(100 * option.value)}% won` : option.value.toFixed(2);
}

/** The hint for the player called `name` as a section: its options in order, then the
 * explanation of the numbers. */
export function hintBox(hint, name) {
  const what = hint.measure === "win_rate" ? "win rate" : "evaluation";
  return h("section", { class: "hint-box", "aria-label": `Hint for ${name}` }, [
    h("p", { class: "hint-title" }, [`The ${hint.level} search bot's best moves for ${name} (${what}):`]),
    h("ol", { class: "hint-options" }, hint.options.map((option) => h("li", { class: "hint-option" }, [
      h("span", { class: "hint-label" }, [option.label]),
      " ",
      h("span", { class: "hint-number" }, [hintNumber(hint, option)]),
      h("span", { class: "hint-visits" }, [
        ` · ${option.visits} tries` + (option.share === null || option.share === undefined
          ? "" : ` · plays it ${Math.round(100 * option.share)}% of the time`),
      ]),
    ]))),
    h("p", { class: "hint-explanation" }, [
      `${hint.explanation.charAt(0).toUpperCase()}${hint.explanation.slice(1)}.`,
      hint.considered > hint.options.length ? ` (${hint.options.length} of ${hint.considered} options shown.)` : "",
    ]),
  ]);
}
