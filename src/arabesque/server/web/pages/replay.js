// The replay viewer (docs/web.md): step through a finished game, forward and back, from a
// finished table (`/tables/ID/replay`) or from a record file chosen from disk (`/replay`).
//
// The server replays the record and answers one step at a time (the board as a spectator or
// one seat saw it, the step's events in words, the result at the end); the page caches every
// step it fetched, so going back and forth costs one request per step at most.
import { h, s, clear, plural, loadStyle } from "../lib/dom.js";
import { games as fetchGames, recordHint, replayHint, replayRecord, replayStep } from "../lib/api.js";
import { hintBox } from "../lib/hint.js";
import * as store from "../lib/store.js";
import { setGame } from "../app.js";

/** Automatic play: one step every this many milliseconds. */
const PLAY_INTERVAL_MS = 800;
/** While the slider is dragged, wait this long for it to rest before fetching a step. */
const SLIDER_REST_MS = 120;
/** A record file larger than this is refused before it is sent (real records are far smaller). */
const MAX_RECORD_BYTES = 8 * 1024 * 1024;
/** "Load the skipped steps" of the log fetches at most this many steps at a time. */
const LOG_FILL_BATCH = 200;
/** The board is drawn in its narrow layout below this width (docs: `ctx.narrow`). */
const NARROW_PX = 700;

/** Rich styles of the event words ("bold red") that the page shows, as CSS classes. */
const TONES = new Set(["bold", "dim", "italic", "red", "green", "yellow", "blue", "magenta", "cyan"]);

// -- the server -------------------------------------------------------------------------------

/** A step as the server answered it, without the events it found not worth a line (null). */
function stepAnswer(answer) {
  return { ...answer, events: (answer.events || []).filter(Boolean) };
}

/** Where the steps come from: a finished table on this server. */
function tableSource(tableId) {
  return {
    tableId,
    fetchStep: (step, seat) => replayStep(tableId, step, seat).then(stepAnswer),
    fetchHint: (step, seat) => replayHint(tableId, step, seat),
  };
}

/** Where the steps come from: a record file, sent again with every step (the server keeps no
 * copy of it). */
function fileSource(recordText, fileName) {
  return {
    fileName,
    fetchStep: (step, seat) => replayRecord(recordText, step, seat).then(stepAnswer),
    fetchHint: (step, seat) => recordHint(recordText, step, seat),
  };
}

// -- drawing helpers ----------------------------------------------------------------------------

/** Our own small control icons, drawn on a 16×16 grid. */
const ICONS = {
  start: ["M3 3h2v10H3z", "M13 3v10L6 8z"],
  // One step back or forward: a chevron, unlike Play's solid triangle (on a phone the
  // buttons show their icons alone).
  back: ["M12 3H9.5l-5 5 5 5H12l-5-5z"],
  play: ["M5 3v10l8-5z"],
  pause: ["M4 3h3v10H4z", "M9 3h3v10H9z"],
  forward: ["M4 3h2.5l5 5-5 5H4l5-5z"],
  end: ["M11 3h2v10h-2z", "M3 3v10l7-5z"],
};

function icon(name) {
  return s("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" },
    ICONS[name].map((d) => s("path", { d, fill: "currentColor" })));
}

function controlButton(name, label, keyHint, onclick) {
  return h("button", { type: "button", class: "replay-control", "aria-label": label, title: `${label} (${keyHint})`, onclick }, [
    icon(name), h("span", { class: "replay-control-text" }, [label]),
  ]);
}

/** One event line in words, styled by its tone. */
function eventLine(event) {
  const tones = String(event.tone || "").split(/\s+/).filter((t) => TONES.has(t));
  return h("li", { class: ["replay-event", ...tones.map((t) => `tone-${t}`)] }, [event.text]);
}

/** The step's events but the one its title already says (a title is its step's first event
 * in words: server/replays.py). */
function besidesTitle(answer) {
  const said = String(answer.title).replace(/^Step \d+ · /, "");
  let dropped = false;
  return answer.events.filter((event) => {
    if (dropped || !event || event.text !== said) return true;
    dropped = true;
    return false;
  });
}

function words(key) {
  return String(key).replace(/_/g, " ");
}

/** The view as indented text: the last resort when no renderer could draw it. */
function viewAsText(view) {
  return h("pre", { class: "replay-view-text" }, [JSON.stringify(view, null, 1)]);
}

/** Each seat's name as the server gives it, told apart by seat number where two are alike
 * (two "heuristic bot"s). */
function playerNames(answer) {
  const given = Array.from({ length: answer.num_players }, (_, i) => (answer.names || [])[i] || `Seat ${i + 1}`);
  return given.map((name, i) => (given.indexOf(name) !== given.lastIndexOf(name) ? `${name} (seat ${i + 1})` : name));
}

/** A renderer module (`games/<name>.js`)'s renderer, or null when there is none. */
const renderers = new Map();
function importRenderer(name) {
  if (!renderers.has(name)) {
    renderers.set(name, import(`/static/games/${name}.js`).then(
      (mod) => (mod.default && typeof mod.default.render === "function"
        ? { render: mod.default.render, settings: Array.isArray(mod.settings) ? mod.settings : [] }
        : null),
      () => null,
    ));
  }
  return renderers.get(name);
}

/** The renderers to try, in order: the game's own board (with its CSS), then the generic one
 * that lists any view. */
async function loadRenderers(game) {
  const own = /^[a-z0-9-]+$/.test(game) ? await importRenderer(game) : null;
  if (own) loadStyle(`/static/games/${game}.css`);
  return [own, await importRenderer("generic")].filter(Boolean);
}

// -- the viewer ---------------------------------------------------------------------------------

/**
 * The step-through viewer over `source`, which already answered step 0 as `first`.
 * `header` (or null) holds the page's own links and title above the controls.
 */
async function buildViewer(root, source, first, header) {
  const game = first.game;
  const names = playerNames(first);
  const lastStep = first.steps;
  const renderers = await loadRenderers(game);

  let seat = null; // null: the spectator's view
  let current = -1; // the step on screen
  let wanted = 0; // the step asked for last: keys pressed quickly add up before it arrives
  let showing = 0; // each show() call's number: a slower answer never overwrites a newer one
  let playTimer = null;
  let sliderTimer = null;
  /** `${seat}:${step}` -> Promise of the server's answer. */
  const steps = new Map();
  /** `${seat}:${step}` -> Map of the board's part keys to signatures, for highlights. */
  const signatures = new Map();

  const cacheKey = (step, forSeat = seat) => `${forSeat}:${step}`;
  steps.set(cacheKey(0, null), Promise.resolve(first));

  function fetchStep(step, forSeat = seat) {
    const k = cacheKey(step, forSeat);
    if (!steps.has(k)) {
      const answer = source.fetchStep(step, forSeat);
      // A failed request is forgotten, so the next visit asks again.
      answer.catch(() => steps.delete(k));
      steps.set(k, answer);
    }
    return steps.get(k);
  }

  // The controls.
  const startButton = controlButton("start", "Start", "Home", () => { stop(); show(0); });
  const backButton = controlButton("back", "Back", "←", () => { stop(); show(wanted - 1); });
  const playButton = controlButton("play", "Play", "Space", () => togglePlay());
  playButton.classList.add("replay-play");
  playButton.setAttribute("aria-pressed", "false");
  const forwardButton = controlButton("forward", "Forward", "→", () => { stop(); show(wanted + 1); });
  const endButton = controlButton("end", "End", "End", () => { stop(); show(lastStep); });
  const slider = h("input", {
    type: "range", min: 0, max: lastStep, value: 0, step: 1, class: "replay-slider",
    "aria-label": "Step of the game",
  });
  const position = h("span", { class: "replay-position", "aria-hidden": "true" }, []);
  slider.addEventListener("input", () => {
    stop();
    position.textContent = `Step ${slider.value} of ${lastStep}`;
    clearTimeout(sliderTimer);
    sliderTimer = setTimeout(() => show(Number(slider.value)), SLIDER_REST_MS);
  });
  const seatSelect = h("select", { class: "replay-seat", "aria-label": "View the game as" }, [
    h("option", { value: "" }, ["Spectator"]),
    ...names.map((name, i) => h("option", { value: String(i) }, [name])),
  ]);
  seatSelect.addEventListener("change", () => {
    seat = seatSelect.value === "" ? null : Number(seatSelect.value);
    const at = current;
    current = -1; // redraw even though the step is the same
    show(at);
  });

  // The game's own display toggles (Ali Baba's screens), shared with the table page.
  let displaySettings = store.settings(game);
  const toggles = renderers.flatMap((r) => r.settings || []).map((setting) => {
    const box = h("input", { type: "checkbox", checked: Boolean(displaySettings[setting.name]) });
    box.addEventListener("change", () => {
      store.saveSetting(game, setting.name, box.checked);
      displaySettings = store.settings(game);
      const at = current;
      current = -1; // redraw the same step
      show(at);
    });
    return h("label", { class: "replay-setting" }, [box, " ", setting.label]);
  });

  // The hint: the search bot's best options for the seat deciding at this step (the viewed
  // seat when it decides, else the first that does), asked for with a click or the H key.
  const hintButton = h("button", { type: "button", class: "secondary replay-hint-button", title: "Hint (H)", onclick: () => askHint() }, ["Hint"]);
  const hintResult = h("div", { class: "replay-hint-result", "aria-live": "polite" }, []);
  const hintPanel = h("section", { class: "replay-hint-panel", "aria-label": "Hint" }, [hintButton, hintResult]);
  /** `${step}:${seat}` -> Promise of the hint, and the answers already received. */
  const hints = new Map();
  const hintsSettled = new Map();
  let hintAt = null; // {step, seat} the button asks for, or null when nobody decides

  const status = h("p", { class: "replay-status", role: "status" }, []);
  const stepTitle = h("h2", { class: "replay-step-title" }, []);
  const stepEvents = h("ul", { class: "replay-events" }, []);
  const resultBox = h("section", { class: "replay-result", "aria-label": "Final scores", hidden: true }, []);
  const board = h("div", { class: "replay-board" }, []);
  const logList = h("ol", { class: "replay-log-list" }, []);
  const log = h("section", { class: "replay-log", "aria-labelledby": "replay-log-title" }, [
    h("h3", { id: "replay-log-title" }, ["The game so far"]),
    logList,
  ]);

  const viewer = h("div", { class: "replay-viewer" }, [
    header,
    h("div", { class: "replay-toolbar", role: "toolbar", "aria-label": "Replay controls" }, [
      h("div", { class: "replay-buttons" }, [startButton, backButton, playButton, forwardButton, endButton]),
      h("div", { class: "replay-scrub" }, [slider, position]),
      h("label", { class: "replay-seat-label" }, ["View as ", seatSelect]),
      ...toggles,
    ]),
    status,
    h("div", { class: "replay-body" }, [
      h("section", { class: "replay-board-wrap", "aria-label": "The board" }, [board]),
      h("aside", { class: "replay-side" }, [
        h("section", { class: "replay-step", "aria-live": "polite" }, [stepTitle, stepEvents]),
        hintPanel,
        resultBox,
        log,
      ]),
    ]),
  ]);
  clear(root).append(viewer);

  /** Draw `view` into a new element; its parts' signatures go into `sigs`, and parts whose
   * signature differs from `before` (the previous step's) are highlighted. */
  function drawBoard(view, sigs, before) {
    const ctx = {
      seat,
      names,
      decision: null,
      settings: { ...displaySettings, assist: false },
      narrow: root.clientWidth < NARROW_PX,
      mark: () => {},
      key(el, k, signature) {
        const sig = String(signature);
        sigs.set(k, sig);
        if (before && before.get(k) !== sig) el.classList.add("replay-changed");
        return el;
      },
    };
    for (const renderer of renderers) {
      try {
        return renderer.render(view, ctx);
      } catch (err) {
        console.error(`a ${game} board could not be drawn; trying the next way`, err);
        sigs.clear();
      }
    }
    return viewAsText(view);
  }

  /** The board's part signatures at `step` (drawn off screen once, then remembered). */
  function signaturesAt(step, answer) {
    const k = cacheKey(step);
    if (!signatures.has(k)) {
      const sigs = new Map();
      drawBoard(answer.view, sigs, null);
      signatures.set(k, sigs);
    }
    return signatures.get(k);
  }

  function drawResult(result) {
    clear(resultBox);
    resultBox.hidden = !result;
    if (!result) return;
    const order = names.map((_, i) => i).sort((a, b) => result.ranking[a] - result.ranking[b] || a - b);
    const best = Math.min(...result.ranking);
    const winners = order.filter((p) => result.ranking[p] === best);
    const top = result.scores[winners[0]].total;
    const verdict = winners.length > 1
      ? `Shared victory: ${winners.map((p) => names[p]).join(" and ")}, ${plural(top, "point")} each.`
      : `${names[winners[0]]} wins with ${plural(top, "point")}.`;
    resultBox.append(
      h("h3", {}, ["Final scores"]),
      h("p", { class: "replay-verdict" }, [verdict]),
      h("table", { class: "replay-scores" }, [
        h("thead", {}, [h("tr", {}, [
          h("th", { scope: "col" }, ["Rank"]), h("th", { scope: "col" }, ["Player"]),
          h("th", { scope: "col" }, ["Points"]), h("th", { scope: "col" }, ["How"]),
        ])]),
        h("tbody", {}, order.map((p) => {
          const score = result.scores[p];
          const parts = Object.entries(score.breakdown || {}).filter(([, v]) => v);
          return h("tr", { class: result.ranking[p] === best ? "replay-winner" : null }, [
            h("td", {}, [String(result.ranking[p])]),
            h("th", { scope: "row" }, [names[p]]),
            h("td", { class: "replay-total" }, [String(score.total)]),
            h("td", {}, [parts.length
              ? h("ul", { class: "replay-breakdown" }, parts.map(([k, v]) => h("li", {}, [`${words(k)}:\u00a0${v}`])))
              : "—"]),
          ]);
        })),
      ]),
    );
  }

  /** The log of every step fetched so far up to the current one; steps not fetched yet (a
   * jump over them) are a button that fetches them. */
  function drawLog() {
    clear(logList);
    let gapStart = null;
    const closeGap = (end) => {
      if (gapStart === null) return;
      const from = gapStart;
      const to = Math.min(end, from + LOG_FILL_BATCH - 1);
      const more = end - from + 1;
      logList.append(h("li", { class: "replay-log-gap" }, [
        h("button", { type: "button", onclick: () => fillLog(from, to) }, [
          to === end ? `Show ${plural(more, "skipped step")} (${from}–${end})` : `Show skipped steps ${from}–${to} (of ${more})`,
        ]),
      ]));
      gapStart = null;
    };
    for (let step = 0; step <= current; step++) {
      const answer = settled.get(cacheKey(step));
      if (!answer) {
        if (gapStart === null) gapStart = step;
        continue;
      }
      closeGap(step - 1);
      logList.append(h("li", { class: ["replay-log-step", step === current ? "current" : null] }, [
        h("span", { class: "replay-log-title" }, [answer.title]),
        besidesTitle(answer).length ? h("ul", {}, besidesTitle(answer).map(eventLine)) : null,
      ]));
    }
    closeGap(current);
    log.scrollTop = log.scrollHeight;
  }

  /** The hint button for the step on screen (`answer`): who it is for, and a hint already
   * received for that seat and step. */
  function drawHint(step, answer) {
    const acting = Array.isArray(answer.view.to_act) ? answer.view.to_act : [];
    const forSeat = seat !== null && acting.includes(seat) ? seat : acting.length ? acting[0] : null;
    hintAt = forSeat === null ? null : { step, seat: forSeat };
    hintButton.disabled = forSeat === null;
    hintButton.textContent = forSeat === null ? "Hint: nobody decides here" : `Hint for ${names[forSeat]}`;
    clear(hintResult);
    const known = forSeat === null ? null : hintsSettled.get(`${step}:${forSeat}`);
    if (known) hintResult.append(hintBox(known, names[forSeat]));
  }

  async function askHint() {
    if (hintAt === null) return;
    const { step, seat: forSeat } = hintAt;
    const k = `${step}:${forSeat}`;
    if (!hints.has(k)) {
      const asked = source.fetchHint(step, forSeat);
      asked.catch(() => hints.delete(k));
      hints.set(k, asked);
    }
    clear(hintResult).append(h("p", { class: "hint-waiting" }, [`Thinking about ${names[forSeat]}'s move…`]));
    let found;
    try {
      found = await hints.get(k);
    } catch (err) {
      if (hintAt && hintAt.step === step && hintAt.seat === forSeat) {
        clear(hintResult).append(h("p", { class: "hint-error", role: "alert" }, [`No hint: ${err.message}`]));
      }
      return;
    }
    hintsSettled.set(k, found);
    if (hintAt && hintAt.step === step && hintAt.seat === forSeat) {
      clear(hintResult).append(hintBox(found, names[forSeat]));
    }
  }

  /** Answers already received, for the log (drawn synchronously). */
  const settled = new Map();
  function remember(step, answer, forSeat = seat) {
    settled.set(cacheKey(step, forSeat), answer);
    return answer;
  }
  remember(0, first, null);

  async function fillLog(from, to) {
    const forSeat = seat;
    status.textContent = `Loading steps ${from}–${to}…`;
    try {
      // A few requests at a time: the server replays the game for each.
      for (let step = from; step <= to; step += 4) {
        const batch = [];
        for (let k = step; k <= Math.min(to, step + 3); k++) {
          batch.push(fetchStep(k, forSeat).then((a) => remember(k, a, forSeat)));
        }
        await Promise.all(batch);
      }
      status.textContent = "";
    } catch (err) {
      status.textContent = `The steps could not be loaded: ${err.message}`;
    }
    if (forSeat === seat) drawLog();
  }

  async function show(step) {
    step = Math.max(0, Math.min(lastStep, step));
    wanted = step;
    const mine = ++showing; // also cancels a slower request still on its way
    if (step === current) return;
    const loading = setTimeout(() => { if (mine === showing) status.textContent = `Loading step ${step}…`; }, 200);
    let answer;
    let previous = null;
    try {
      [answer, previous] = await Promise.all([
        fetchStep(step).then((a) => remember(step, a)),
        step > 0 ? fetchStep(step - 1).then((a) => remember(step - 1, a)) : null,
      ]);
    } catch (err) {
      clearTimeout(loading);
      if (mine !== showing) return;
      stop();
      wanted = Math.max(current, 0);
      status.textContent = `Step ${step} could not be loaded: ${err.message}`;
      slider.value = String(Math.max(current, 0));
      position.textContent = `Step ${Math.max(current, 0)} of ${lastStep}`;
      return;
    }
    clearTimeout(loading);
    if (mine !== showing) return;
    status.textContent = "";
    current = step;

    const before = previous ? signaturesAt(step - 1, previous) : null;
    const sigs = new Map();
    clear(board).append(drawBoard(answer.view, sigs, before));
    signatures.set(cacheKey(step), sigs);

    stepTitle.textContent = answer.title;
    clear(stepEvents).append(...(answer.events.length
      ? besidesTitle(answer).map(eventLine)
      : [h("li", { class: "replay-event tone-dim" }, ["Nothing anyone else can see happened."])]));
    drawHint(step, answer);
    drawResult(answer.result);
    drawLog();

    slider.value = String(step);
    slider.setAttribute("aria-valuetext", `Step ${step} of ${lastStep}: ${answer.title}`);
    position.textContent = `Step ${step} of ${lastStep}`;
    startButton.disabled = backButton.disabled = step === 0;
    forwardButton.disabled = endButton.disabled = step === lastStep;
    // The next step is most likely wanted next: ask for it now.
    if (step < lastStep) fetchStep(step + 1).then((a) => remember(step + 1, a), () => {});
  }

  function setPlaying(on) {
    playButton.replaceChildren(icon(on ? "pause" : "play"),
      h("span", { class: "replay-control-text" }, [on ? "Pause" : "Play"]));
    playButton.setAttribute("aria-label", on ? "Pause" : "Play");
    playButton.setAttribute("aria-pressed", on ? "true" : "false");
    playButton.title = `${on ? "Pause" : "Play"} (Space)`;
  }

  function stop() {
    if (playTimer === null) return;
    clearTimeout(playTimer);
    playTimer = null;
    setPlaying(false);
  }

  function togglePlay() {
    if (playTimer !== null) {
      stop();
      return;
    }
    setPlaying(true);
    const tick = async () => {
      if (!viewer.isConnected) return stop();
      if (current >= lastStep) return stop();
      await show(wanted + 1);
      if (playTimer === null) return;
      if (current >= lastStep) return stop();
      playTimer = setTimeout(tick, PLAY_INTERVAL_MS);
    };
    // Play from the start when the end is on screen.
    if (current >= lastStep) {
      playTimer = setTimeout(tick, PLAY_INTERVAL_MS);
      show(0);
    } else {
      playTimer = setTimeout(tick, 0);
    }
  }

  function onKey(event) {
    // The listener is on the document: it leaves with the page.
    if (!viewer.isConnected) {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("keyup", onKeyUp, true);
      stop();
      return;
    }
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const target = event.target;
    const tag = target && target.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && target.type !== "range")) return;
    // The slider moves itself with the arrows, Home and End.
    const onSlider = tag === "INPUT";
    switch (event.key) {
      case " ":
        togglePlay();
        break;
      case "ArrowRight":
        if (onSlider) return;
        stop(); show(wanted + 1);
        break;
      case "ArrowLeft":
        if (onSlider) return;
        stop(); show(wanted - 1);
        break;
      case "Home":
        if (onSlider) return;
        stop(); show(0);
        break;
      case "End":
        if (onSlider) return;
        stop(); show(lastStep);
        break;
      case "h":
      case "H":
        askHint();
        break;
      default:
        return;
    }
    event.preventDefault();
  }
  // Space on a focused button would press it on key up as well as play or pause.
  function onKeyUp(event) {
    if (event.key === " " && event.target && event.target.tagName === "BUTTON" && viewer.isConnected) {
      event.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);
  document.addEventListener("keyup", onKeyUp, true);

  await show(0);
}

/** The page's heading and links. */
function pageHeader(title, subtitle, links) {
  return h("header", { class: "replay-header" }, [
    h("nav", { class: "replay-links", "aria-label": "Replay" }, links),
    h("h1", {}, [title]),
    subtitle ? h("p", { class: "replay-subtitle" }, [subtitle]) : null,
  ]);
}

async function gameName(game) {
  try {
    const found = (await fetchGames()).find((g) => g.id === game);
    return found ? found.name : game;
  } catch {
    return game;
  }
}

// -- the two pages ------------------------------------------------------------------------------

async function mountTable(root, tableId) {
  const source = tableSource(tableId);
  const tableLink = h("a", { href: `/tables/${encodeURIComponent(tableId)}` }, ["Back to the table"]);
  root.append(h("p", { class: "replay-status", role: "status" }, ["Loading the replay…"]));
  let first;
  try {
    first = await source.fetchStep(0, null);
  } catch (err) {
    const why = err.code === "not_finished"
      ? "This game is not over yet: its replay opens when it ends."
      : err.code === "no_table" ? "There is no table with this id on this server." : err.message;
    clear(root).append(h("div", { class: "replay-page" }, [
      pageHeader("Replay", null, [h("a", { href: "/" }, ["Lobby"]), tableLink]),
      h("p", { class: "replay-error", role: "alert" }, [why]),
    ]));
    return;
  }
  const name = await gameName(first.game);
  setGame(first.game, name);
  document.title = `Replay: ${name} · Arabesque`;
  const header = pageHeader(`Replay: ${name}`, `Table ${tableId} · ${playerNames(first).join(", ")}`, [
    h("a", { href: "/" }, ["Lobby"]),
    tableLink,
    h("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: `${tableId}.json` }, ["Download the record"]),
  ]);
  const page = h("div", { class: "replay-page" }, []);
  clear(root).append(page);
  await buildViewer(page, source, first, header);
}

function mountFile(root) {
  document.title = "Replay a game record · Arabesque";
  const fileInput = h("input", {
    type: "file", accept: ".json,application/json", class: "replay-file-input",
    "aria-label": "Record file", tabindex: "-1",
  });
  const chooseButton = h("button", { type: "button", class: "replay-choose", onclick: () => fileInput.click() }, [
    "Choose a record file…",
  ]);
  const message = h("p", { class: "replay-error", role: "alert" }, []);
  const dropZone = h("section", { class: "replay-drop", "aria-label": "Open a record file" }, [
    h("p", {}, ["Drop a record file here, or"]),
    chooseButton,
    fileInput,
    h("p", { class: "replay-hint" }, [
      "A record is the JSON file a finished table offers to download, or the one ",
      h("code", {}, ["arabesque play"]), " saves after a game.",
    ]),
  ]);
  const viewerPlace = h("div", {}, []);
  const title = h("h1", {}, ["Replay a game record"]);
  const subtitle = h("p", { class: "replay-subtitle" }, []);
  const page = h("div", { class: "replay-page replay-file-page" }, [
    h("header", { class: "replay-header" }, [
      h("nav", { class: "replay-links", "aria-label": "Replay" }, [h("a", { href: "/" }, ["Lobby"])]),
      title,
      subtitle,
    ]),
    dropZone,
    message,
    viewerPlace,
  ]);
  clear(root).append(page);

  const status = h("p", { class: "replay-status", role: "status" }, []);
  message.before(status);

  /** Open `file`; a file that cannot be replayed leaves the record on screen as it was. */
  async function open(file) {
    message.textContent = "";
    if (!file) return;
    if (file.size > MAX_RECORD_BYTES) {
      message.textContent = `${file.name} is too large to be a game record (${Math.round(file.size / 1024)} KB).`;
      return;
    }
    status.textContent = `Reading ${file.name}…`;
    const source = fileSource(await file.text(), file.name);
    let first;
    try {
      first = await source.fetchStep(0, null);
    } catch (err) {
      status.textContent = "";
      message.textContent = `${file.name} cannot be replayed: ${err.message}`;
      return;
    }
    status.textContent = "";
    const name = await gameName(first.game);
    setGame(first.game, name);
    document.title = `Replay: ${name} · Arabesque`;
    dropZone.classList.add("replay-drop-small");
    title.textContent = `Replay: ${name}`;
    subtitle.textContent = `${file.name} · ${playerNames(first).join(", ")}`;
    chooseButton.textContent = "Open another record…";
    await buildViewer(viewerPlace, source, first, null);
  }

  fileInput.addEventListener("change", () => {
    open(fileInput.files[0]);
    fileInput.value = ""; // choosing the same file again opens it again
  });
  // A file dropped anywhere on the page opens (the browser would otherwise leave the page
  // to show it).
  page.addEventListener("dragover", (event) => {
    event.preventDefault();
    dropZone.classList.add("replay-drop-over");
  });
  page.addEventListener("dragleave", (event) => {
    if (!page.contains(event.relatedTarget)) dropZone.classList.remove("replay-drop-over");
  });
  page.addEventListener("drop", (event) => {
    event.preventDefault();
    dropZone.classList.remove("replay-drop-over");
    open(event.dataTransfer.files[0]);
  });
}

export async function mount(root, params) {
  loadStyle("/static/pages/replay.css");
  clear(root);
  if (params.tableId) await mountTable(root, params.tableId);
  else mountFile(root);
}
