// @ts-check
/* bgclock table page: the table's match folded on this device (device.js)
 * and the state the page shows now.
 *
 * The device keeps the time itself: it folds the table's log through the
 * browser engine, applies every command it sends at the instant it was made,
 * on or off line, and shows that match read at the device's clock on every
 * animation frame.  Until the log is loaded the page shows the server's
 * latest state counted down locally (engine/countdown.js), with its own
 * presses predicted on it. */
import { DeviceMatch, specKey } from "../device.js";
import { afterPress } from "../engine/countdown.js";
import { allowance, app, mode, tableId, token, ui } from "./state.js";
import { tableNow } from "./link.js";

/** @typedef {import("../kit/types.js").WireState} WireState */
/** @typedef {import("../kit/types.js").TableInfo} TableInfo */

/** Is the device's match there and up to the server's last seq? @returns {boolean} */
export function engineReady() {
  return !!app.engine && (app.seq == null || app.engine.seq >= app.seq);
}

/** The engine for the table's spec (a new one when the spec changed), and
 * the events it lacks. @param {TableInfo|null|undefined} info @param {number|null|undefined} seq */
export function syncEngine(info, seq) {
  if (!info || !info.rules) return;
  const spec = /** @type {import("../device.js").Spec} */ (/** @type {unknown} */ (info));
  if (!app.engine || app.engine.key !== specKey(spec)) {
    try { app.engine = new DeviceMatch(spec); app.engineError = null; }
    catch (e) { app.engine = null; app.engineError = String(e instanceof Error ? e.message : e); return; }
  }
  if (seq != null && seq > app.engine.seq) fetchEvents();
}

/** GET /api/tables/N/events?after=seq until the engine has the log. */
export async function fetchEvents() {
  if (app.fetching) { app.fetchAgain = true; return; }
  app.fetching = true;
  try {
    for (let page = 0; page < 1000 && app.engine; page++) {
      const eng = app.engine;
      const r = await fetch("/api/tables/" + tableId + "/events?after=" + eng.seq + "&token=" + encodeURIComponent(token || ""),
        { cache: "no-store" });
      if (!r.ok) break;
      const body = await r.json();
      if (app.engine !== eng) continue;
      if (specKey(body.spec) !== eng.key) { app.engine = new DeviceMatch(body.spec); continue; }
      for (const e of body.events) if (e.seq > eng.seq && !eng.confirm(e.seq, e.event)) break;
      if (!body.more) break;
    }
  } catch (e) {
    // a network error: try again with the next snapshot; a refused event: give the engine up
    const err = /** @type {{code?: string, message?: string}} */ (e);
    if (err && err.code) { app.engine = null; app.engineError = String(err.message); }
  } finally {
    app.fetching = false;
    ui.render();
    if (app.fetchAgain) { app.fetchAgain = false; fetchEvents(); }
    else if (app.engine && app.seq != null && app.engine.seq < app.seq) {
      // refused for now (429: the table's log requests are limited) or the
      // network failed: ask again, later each time
      app.fetchWait = Math.min(8000, (app.fetchWait || 500) * 2);
      clearTimeout(app.fetchTimer);
      app.fetchTimer = setTimeout(fetchEvents, app.fetchWait * (0.5 + Math.random() / 2));
    } else app.fetchWait = 0;
  }
}

/** The server stored `event` as `seq`: the engine takes it (or starts over).
 * @param {number} seq @param {Record<string, unknown>|null|undefined} event */
export function confirmEvent(seq, event) {
  if (!app.engine || !event) return;
  try {
    if (!app.engine.confirm(seq, event) && seq > app.engine.seq) fetchEvents();
  } catch (e) {
    // the engine refuses what the server stored: start over from the log
    const spec = app.info;
    app.engine = null;
    if (spec) syncEngine(spec, seq);
  }
}

/** The state shown now: the device's match read now, else the server's with
 * the unconfirmed presses replayed on it at their instants.  `base` is the
 * performance.now() instant the state is exact at.
 * @returns {{state: WireState, base: number}|null} */
export function display() {
  if (app.engine && engineReady()) {
    const now = performance.now(), ms = tableNow(now);
    if (ms != null) return { state: /** @type {WireState} */ (app.engine.stateAt(ms)), base: now };
  }
  if (!app.state) return null;
  let st = app.state, base = app.recvAt;
  for (const h of app.hits) {
    const s = st[h.side];
    if (st.phase !== "playing" || !s.running || st.double_offered_by || st.game === 0) continue;
    st = afterPress(st, h.side, h.at - base, mode(), allowance());
    base = h.at;
  }
  return { state: st, base: base };
}
