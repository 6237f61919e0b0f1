// A decision's options as the page uses them: one entry per option. The server sends a numeric
// range of options worded from one template as a single entry (docs/protocol.md, "Decisions"):
// {"range": {"start", "stop", "step", "n_start", "n_step", "label", "text"}}, the k-th option
// being the action start + k*step with its number n_start + k*n_step put for "{n}" in the
// label and text. The lamp race's 301 options arrive that way.

/** The placeholder a range's label and text hold for the option's number. */
const NUMBER = "{n}";

/** `options` with every range entry written out, in order; other entries are kept as sent. */
export function expandOptions(options) {
  if (!Array.isArray(options)) return [];
  const out = [];
  for (const entry of options) {
    const range = entry && entry.range;
    if (!range) {
      out.push(entry);
      continue;
    }
    const { start, stop, step, n_start: nStart, n_step: nStep, label, text } = range;
    if (![start, stop, step, nStart, nStep].every(Number.isInteger) || step < 1) continue;
    for (let action = start, n = nStart; action < stop; action += step, n += nStep) {
      const number = String(n);
      out.push({ action, label: label.replaceAll(NUMBER, number), text: text.replaceAll(NUMBER, number) });
    }
  }
  return out;
}
