// @ts-check
/* bgclock dashboard: the dashboard's state (one `app` object), the page's
 * fixed parts, and what is read from a table's row.
 *
 * The other modules read and change `app`; none imports the views: a change
 * asks for a render through `ui` (set by main.js), so no module imports one
 * that imports it back. */
import { byId, readPresets } from "../kit/dom.js";
import { t } from "../kit/i18n.js";

export const params = new URLSearchParams(location.search);
export const presets = readPresets();
/** @type {readonly import("../kit/types.js").Side[]} */
export const SIDES = ["A", "B"];
export const $ = byId;
/** A form's field. @param {string} id @returns {HTMLInputElement} */
export const input = (id) => /** @type {HTMLInputElement} */ ($(id));
/** A dialog of the page. @param {string} id @returns {HTMLDialogElement} */
export const dialog = (id) => /** @type {HTMLDialogElement} */ ($(id));
/** A caught error's words. @param {unknown} e @returns {string} */
export const errText = (e) => String(e instanceof Error ? e.message : e);

/** @typedef {import("../kit/types.js").Side} Side */
/** @typedef {import("../kit/types.js").WireState} WireState */
/** @typedef {import("../kit/types.js").TableInfo} TableInfo */
/** @typedef {import("../kit/types.js").Message} Message */
/** A table as the dashboard holds it.
 * @typedef {{info: TableInfo, state: WireState|null, seq: number|null, recvAt: number,
 *   url?: string, token?: string}} Row */
/** What a table needs from the director (alerts.js orders them).
 * @typedef {{kind: string, key: string, text: string, premature?: Side, badge?: string,
 *   overrun?: {side: string, ms: number}}} AlertFields */
/** @typedef {AlertFields & {table?: number, since?: number}} NewAlert */
/** @typedef {AlertFields & import("../alerts.js").Alert} Alert */

export const app = {
  /** @type {Object<string, any>} id -> tournament (with tables' info from HTTP) */
  tournaments: {},
  /** @type {Object<string, Row>} id -> the table */
  tables: {},
  /** @type {number|null} */
  selected: null,
  /** @type {Set<string>} alert keys handled, as the server says (every dashboard the same) */
  handled: new Set(),
  /** @type {Object<string, string>} handle message id -> alert key, sent and not yet answered */
  handling: {},
  /** @type {{table: number|null, events: any[], notes: any[]}} */
  log: { table: null, events: [], notes: [] },
  /** @type {{text: string, cmds: any[], handles?: string|null}|null} waiting for the director's confirmation */
  confirm: null,
  /** how many times the forecasts were read and drawn (forecast.js; tests wait on it) */
  forecastsRead: 0,
  result: "",           // last command's outcome
  resultErr: false,
  /** @type {Set<string>} */
  alertsSeen: new Set(),
  /** @type {Map<string, number>} alert key -> when it first appeared (ordering within a rank) */
  alertSince: new Map(),
  /** @type {number|null} the table the form edits (null: the form creates one) */
  editing: null,
  /** @type {Object<string, Object<string, Message>>} table id -> {n: summon message}: who called the director, and why */
  summons: {},
  /** @type {{table: number, busy?: boolean, error?: string|null, out?: any}|null} the board engine's suggested ruling on a dispute */
  suggest: null,
  /** @type {{table: number, board?: any, error?: string}|null} the position shown */
  board: null,
  /** @type {any} the position being entered */
  boardEdit: null,
  /** @type {(() => void)|null} the "set clock" preview, read again on every frame */
  setPreview: null
};

/** @param {string} k @returns {boolean} */
export function isHandling(k) {
  for (const id in app.handling) if (app.handling[id] === k) return true;
  return false;
}
/* Under the table's first (largest) low-time warning. */
/** @param {Row} row @param {number} ms @returns {boolean} */
export function isLow(row, ms) {
  const w = (row.info && row.info.warn_s) || [60];
  return w.length > 0 && ms > 0 && ms <= Math.max(...w) * 1000;
}
/** @param {string} x @returns {Side} */
export function sideOf(x) { return x === "B" ? "B" : "A"; }
/** @param {string} x @returns {Side} */
export function other(x) { return x === "A" ? "B" : "A"; }
/** The players' names by side. @param {Row} row @returns {Object<string, string>} */
export function names(row) {
  const p = (row.info && row.info.players) || ["A", "B"];
  return { A: p[0] || "A", B: p[1] || "B" };
}
/** @param {Row} row @returns {string} */
export function tableName(row) {
  const info = row.info;
  return shownName(info.name) || t("alw.table", { n: info.id });
}
/* The server names a tournament's tables in English ("Table 3 · Main R1",
 * "Table 2 · Swing R4", "Table 5 · Ann–Bob phase 3"): shown in the
 * director's language; a name the director typed is shown as typed. */
/** @param {string|null|undefined} name @returns {string} */
export function shownName(name) {
  if (!name) return "";
  let m = /^Table (\d+) · (Main|Consolation|Swing|Last Chance|Losers|Final) R(\d+)$/.exec(name);
  if (m) return t("tbl.round", { table: m[1], event: t("tbl.event." + m[2].toLowerCase().replace(" ", "_")), n: m[3] });
  // a room's table names the event seated there: "Table 1 · Principianti · Main R1"
  m = /^Table (\d+) · (.+?) · (.+)$/.exec(name);
  if (m) return t("tbl.room", { table: m[1], event: m[2], match: shownName("Table " + m[1] + " · " + m[3]).replace(/^\S+ \d+ · /, "") });
  m = /^Table (\d+) · (.+) phase (\d+)$/.exec(name);
  if (m) return t("tbl.phase", { table: m[1], couples: m[2], n: m[3] });
  return name;
}
/** @param {Row} row @returns {string} */
export function title(row) {
  const n = names(row), info = row.info;
  return (info.name ? shownName(info.name) + " · " : "#" + info.id + " · ") + n.A + " – " + n.B;
}

/** @type {{ids: Set<string>, done: (() => void)|null}} */
export const inFlight = { ids: new Set(), done: null };
/** @param {string} id */
export function settleConfirm(id) {
  if (!inFlight.ids.delete(id) || inFlight.ids.size || !inFlight.done) return;
  const done = inFlight.done;
  inFlight.done = null;
  done();
}

/** The views' entry points, set by main.js (the modules below the views call them). */
export const ui = {
  /** Render the whole dashboard. */
  render: () => {},
  /** Render what table `id`'s update changes, once the messages in hand
   * are read (one render for a frame's batch of updates).
   * @type {(id: number) => void} */
  renderSoon: () => {},
  /** Render the selected table's detail. */
  renderDetail: () => {},
  /** Render the detail's log. */
  renderLog: () => {},
  /** Read the selected table's log again. */
  refreshLog: () => {},
  /** The link's line. @type {(status: string, queued?: number) => void} */
  status: () => {}
};
