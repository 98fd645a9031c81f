// @ts-check
/* bgclock table page: the page's state (one `app` object), the table this
 * page is for, the player's settings, and what is read from them.
 *
 * Every other module of the page reads and changes `app`; none of them
 * imports the views: a change asks for a new frame through `ui` (the views'
 * entry points, set by main.js), so no module imports one that imports it
 * back. */
import { allowanceOf, modeOf } from "../engine/countdown.js";
import { readPresets } from "../kit/dom.js";
import { thresholdsFor } from "./warnings.js";

/** @typedef {import("../kit/types.js").Side} Side */
/** @typedef {import("../kit/types.js").WireState} WireState */
/** @typedef {import("../kit/types.js").TableInfo} TableInfo */
/** @typedef {import("../device.js").DeviceMatch} DeviceMatch */
/** @typedef {import("./words.js").Outcome} Outcome */

export const params = new URLSearchParams(location.search);
const pathId = /\/t\/(\d+)/.exec(location.pathname);
/** The table this page is for. */
export const tableId = Number(document.body.dataset.table) || (pathId ? Number(pathId[1]) : Number(params.get("table")));
/** The table's link token (?token=): null when the link is not valid. */
export const token = params.get("token");
export const presets = readPresets();
/** @type {readonly Side[]} */
export const SIDES = ["A", "B"];
/** @param {Side} s @returns {Side} */
export const other = (s) => (s === "A" ? "B" : "A");

/* ------------------------------------------------------------ settings */
const SETTINGS_KEY = "bgclock.table.settings";
/** @typedef {{layout: string, swap: boolean, sound: boolean, vibrate: boolean,
 *   warnByTable: Object<string, number[]>}} Settings */

/** The player's settings on this device (the link's ?layout= and ?swap= first). @returns {Settings} */
function loadSettings() {
  /** @type {any} */
  let s = {};
  try { s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {}; } catch (e) { s = {}; }
  const out = {
    layout: s.layout || "auto", swap: !!s.swap,
    sound: s.sound !== false, vibrate: s.vibrate !== false,
    // a player's own warnings, per table (otherwise the link's, then the table's)
    warnByTable: s.warnByTable && typeof s.warnByTable === "object" ? s.warnByTable : {}
  };
  const layout = params.get("layout");
  if (layout) out.layout = layout;
  if (params.get("swap")) out.swap = params.get("swap") === "1";
  return out;
}
export function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(app.settings)); } catch (e) { /* private mode */ }
}

/**
 * What a half's panel shows: the side's menu, the results of a kind, or a
 * confirmation of `cmd` (a command, or a function that sends).
 * @typedef {{kind: "menu"} | {kind: "results", what: string}
 *   | {kind: "confirm", what: string, cmd: Object<string, any> | (() => unknown), text: string}} Panel
 */
/** What the centre panel shows. @typedef {{kind: string, side?: Side}} Center */
/** @typedef {{side: Side, points: number}} SidePoints */

/* ---------------------------------------------------------------- state */
export const app = {
  tableId: tableId,
  /** @type {WireState|null} the server's latest state */
  state: null,
  /** @type {TableInfo|null} the Table object */
  info: null,
  /** @type {number|null} the server's seq of `state` */
  seq: null,
  recvAt: 0,            // performance.now() when `state` arrived
  /** @type {Object<string, number>} cmd id -> seq of its ack (a prediction until that seq is seen) */
  confirmed: {},
  /** @type {{id: string, side: Side, at: number}[]} predicted presses */
  hits: [],
  /** @type {{A: number[], B: number[], flag: Object<string, boolean>}} */
  fired: { A: [], B: [], flag: {} },
  /** @type {{side: Side, threshold_ms: number, at: number, penalty?: boolean}[]} every warning given (tests read it) */
  warnings: [],
  settings: loadSettings(),
  /** @type {{A: Panel|null, B: Panel|null}} what each half's panel shows */
  panel: { A: null, B: null },
  /** @type {Center|null} what the centre panel shows (null: automatic) */
  center: null,
  frames: 0,
  /** @type {[number, number|null][]} [epoch ms, seq]: the first frame after each new state (bench/web_latency.py) */
  paints: [],
  /** @type {[number, string][]} [epoch ms, cmd id]: each press sent */
  presses: [],
  closed: false,
  /** @type {{side: string, name: string, score: number[]|null}|null} the result the
   * director entered by hand (info.hand_result): the match is closed here */
  decided: null,
  /** @type {DeviceMatch|null} the table's match folded here (device.js) */
  engine: null,
  /** @type {string|null} why the engine was given up (the page falls back to the server's states) */
  engineError: null,
  /** @type {{ms: number, perf: number}|null} the last snapshot's instant on the table's line */
  anchor: null,
  fetching: false,
  fetchAgain: false,
  fetchWait: 0,
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  fetchTimer: undefined,
  /** @type {WireState|null} the state last rendered (what changed is noted from it) */
  shown: null,
  shownKey: "",
  newState: false,
  /** every command that waited while the link was down, by id: its kind, its
   * instant, and (once the server answered) what became of it
   * @type {Map<string, Outcome>} */
  outage: new Map(),
  /** @type {Map<string, Side>} cmd id -> the side it is by (a refusal faces that player) */
  sides: new Map(),
  /** @type {number|null} the server process's start (welcome.started_ms) */
  serverStarted: null,
  restarted: false,     // the server restarted while this page was away from it
  /** what a reload brought back (device-store.js): the match it was for, its
   * queue's ids, whether the server named that match, and whether all of it
   * is decided (sent and answered, or dropped: the bar no longer says it)
   * @type {{created_ms: number, ids: string[], confirmed: boolean, settled: boolean}|null} */
  restored: null,
  /** @type {string[]|null} the kinds of a kept queue not sent: a next match had begun */
  dropped: null,
  /** @type {boolean|null} whether the last write to the device's storage worked */
  stored: null,
  /** @type {string} how the screen is kept awake: "lock", "video" or "off" */
  awake: "off",
  /** @type {SidePoints|null} the points an ABA expiry gave (aba-2003 5.1) */
  penalty: null,
  /** @type {SidePoints|null} the last game's winner and points */
  lastGame: null,
  /** @type {{reason: string, side: Side}|null} a stop's reason chosen on this page */
  stopNote: null,
  /** @type {{why: string, side: Side, seq: number|null}|null} the last summons of the director */
  summoned: null,
  /** @type {number[]|null} the opening roll being picked */
  roll: null,
  /** @type {unknown[]} taps the guard swallowed (table/guard.js; tests read it) */
  guarded: [],
  layoutAt: 0,
  /** @type {string} the service worker: "pending", "registered", "insecure" or "failed: …" */
  worker: "pending"
};
try {
  const f = JSON.parse(sessionStorage.getItem("bgclock.fired." + tableId) || "null");
  if (f && f.A && f.B) app.fired = Object.assign(app.fired, f);
} catch (e) { /* none */ }

/** The views' entry points, set by main.js (the modules below the views call them). */
export const ui = {
  /** Render the whole page now. */
  render: () => {},
  /** A message over the screen, facing `side`'s player when given.
   * @type {(text: string, side?: Side|null) => void} */
  toast: () => {},
  /** The link's line in the bar. @type {(status: string, queued?: number) => void} */
  status: () => {},
  /** The screen should stay awake (a press, the full screen). */
  wake: () => {}
};

/** The low-time thresholds (ms, highest first): thresholdsFor.
 * @param {boolean} [withLocal] false: without the player's own @returns {number[]} */
export function thresholds(withLocal) {
  return thresholdsFor(withLocal === false ? null : app.settings.warnByTable[tableId],
    params.get("warn"), app.info);
}

/** @returns {string} the table's time mode */
export function mode() { return app.state ? modeOf(app.state, app.info, presets) : "bronstein"; }
/** @returns {number} the table's per-move allowance */
export function allowance() { return app.state ? allowanceOf(app.state, app.info, presets) : 0; }
/** @returns {{A: string, B: string}} the players' names */
export function names() {
  const p = (app.info && app.info.players) || ["A", "B"];
  return { A: p[0] || "A", B: p[1] || "B" };
}
