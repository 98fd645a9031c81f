// @ts-check
/* bgclock table page: what survives a reload.  The table's folded log, the
 * server's last state, the waiting commands and the clock's mapping, kept per
 * table token (device-store.js) after every change, so that a reload or a
 * closed tab during an outage comes back with the clock and its queue
 * (docs/pages.md, "What survives a reload"). */
import { DeviceMatch } from "../device.js";
import { clearSaved, loadSaved, pageStorage, writeSaved } from "../device-store.js";
import { app, token } from "./state.js";
import { conn } from "./link.js";
import { kindOf } from "./words.js";

/** @typedef {import("../kit/types.js").TableInfo} TableInfo */
/** @typedef {import("../kit/types.js").WireState} WireState */

const storage = pageStorage();
let persistQueued = false;

/** Keep the page as it is, once the current task is done. */
export function persist() {
  if (persistQueued || !token) return;
  persistQueued = true;
  queueMicrotask(() => { persistQueued = false; persistNow(); });
}

/** Keep the page as it is, now (a reload or a closed tab is coming). */
export function persistNow() {
  const created = app.info && typeof app.info.created_ms === "number" ? app.info.created_ms : null;
  if (created == null || !token) return;
  const eng = app.engine;
  const queue = conn.pending.filter((p) => p.type === "cmd" || p.type === "summon").map((p) => ({
    id: p.id, type: p.type, cmd: p.cmd, atMs: p.atMs, pressedEpoch: performance.timeOrigin + p.pressedAt }));
  app.stored = writeSaved(storage, token, {
    v: 1, created_ms: created, spec: eng ? eng.spec : null, events: eng ? eng.events : [],
    seq: app.seq, state: app.state, info: app.info, queue: queue,
    serverMinusEpoch: conn.offset == null ? null : conn.offset - performance.timeOrigin,
    server_started: app.serverStarted, saved_at: Date.now() });
}

/** The page as the device left it: the match folded again from the kept
 * log, the waiting commands put back (held until the server shows it is
 * still the same match), the clock mapped as before. */
export function restore() {
  if (!token) return;
  const saved = loadSaved(storage, token);
  if (!saved) return;
  app.restored = { created_ms: saved.created_ms, ids: saved.queue.map((c) => c.id), confirmed: false, settled: false };
  if (saved.serverMinusEpoch != null) { conn.offset = saved.serverMinusEpoch + performance.timeOrigin; conn.offsetRtt = Infinity; }
  if (saved.info) app.info = /** @type {TableInfo} */ (saved.info);
  app.serverStarted = saved.server_started;
  if (saved.state) {
    const state = /** @type {WireState} */ (saved.state);
    app.state = state; app.seq = saved.seq;
    const now = performance.now(), ms = conn.tableMs(now);
    app.recvAt = ms != null && typeof state.at_ms === "number" ? now - (ms - state.at_ms) : now;
  }
  if (saved.spec) {
    try {
      const eng = new DeviceMatch(/** @type {import("../device.js").Spec} */ (/** @type {unknown} */ (saved.spec)));
      for (const e of saved.events) if (!eng.confirm(e.seq, e.event)) break;
      for (const c of saved.queue) if (c.type === "cmd" && c.atMs != null) eng.restore(c.id, c.cmd, c.atMs);
      app.engine = eng;
    } catch (e) { app.engine = null; }
  }
  for (const c of saved.queue) {
    conn.pending.push({ id: c.id, cmd: c.cmd, type: c.type, atMs: c.atMs,
      pressedAt: c.pressedEpoch - performance.timeOrigin, held: true });
  }
  if (conn.pending.length) conn.reconciling = true;
}

/** The server's snapshot names the match: the same one, the kept queue is
 * sent; a next match (another time line), it is forgotten, never replayed.
 * @param {TableInfo|null|undefined} info */
export function checkRestored(info) {
  const r = app.restored;
  if (!r || r.confirmed || !info) return;
  r.confirmed = true;
  if (info.created_ms === r.created_ms) { conn.release(); return; }
  const ids = new Set(r.ids);
  app.dropped = conn.pending.filter((p) => ids.has(p.id)).map(kindOf);
  conn.pending = conn.pending.filter((p) => !ids.has(p.id));
  conn.release();
  app.hits = [];
  app.engine = null;
  if (token) clearSaved(storage, token);
}

/** Once the server has named the match and no command of the restored queue
 * waits any more (each answered, or dropped for a next match), the restore
 * is over: a later outage is not said to be restored on this device. */
export function settleRestored() {
  const r = app.restored;
  if (!r || r.settled || !r.confirmed) return;
  const ids = new Set(r.ids);
  if (conn.pending.some((p) => ids.has(p.id))) return;
  r.settled = true;
}
