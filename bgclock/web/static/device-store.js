// @ts-check
/* bgclock: what the table's device keeps across a reload or a closed tab
 * (docs/pages.md, "What survives a reload").
 *
 * One record per table token in localStorage (IndexedDB would do too, but
 * localStorage is synchronous: a press is kept before the tab can close, and
 * it exists on an insecure origin like http://192.168.1.10):
 *   - the match it belongs to (`created_ms`: a next match at the same table
 *     starts a new time line, so an old queue is never replayed on it),
 *   - the server's events the device has folded (and the spec they fold on),
 *   - the server's last state, seq and table info,
 *   - the commands still waiting for the server, each with its id, its
 *     instant on the table's line (`device_at_ms`) and the wall-clock instant
 *     it was pressed,
 *   - how the device's clock maps to the table's line (server_ms − epoch ms),
 *   - when the server it last spoke to started (a restart is then named).
 * The device's id stays where it always was (`bgclock.device`).  Pure apart
 * from the Storage given to it; every field read back is checked, and a
 * record that does not read is dropped, never half used. */

/** @typedef {{seq: number, at_ms: number, event: Record<string, unknown>}} SavedEvent */
/**
 * A command waiting for the server: `type` "cmd" or "summon", `atMs` its
 * instant on the table's line (null: mapped when sent), `pressedEpoch` the
 * wall-clock ms of the press.
 * @typedef {{id: string, type: string, cmd: Record<string, unknown>,
 *   atMs: number | null, pressedEpoch: number}} SavedCommand
 */
/**
 * @typedef {{v: 1, created_ms: number, spec: Record<string, unknown> | null,
 *   events: SavedEvent[], seq: number | null, state: Record<string, unknown> | null,
 *   info: Record<string, unknown> | null, queue: SavedCommand[],
 *   serverMinusEpoch: number | null, server_started: number | null, saved_at: number}} Saved
 */

const PREFIX = "bgclock.table.";
/** Bounds on what is read back (a record is at most one match). */
const MAX_EVENTS = 20000, MAX_QUEUE = 1000;

/** The key of table token `token`'s record. @param {string} token @returns {string} */
export function storeKey(token) { return PREFIX + token; }

/** @param {unknown} x @returns {x is Record<string, unknown>} */
function isObj(x) { return typeof x === "object" && x !== null && !Array.isArray(x); }
/** @param {unknown} x @returns {x is number} */
function isInt(x) { return typeof x === "number" && Number.isSafeInteger(x); }

/**
 * The record read back, checked; null when there is none or it does not read.
 * @param {unknown} raw @returns {Saved | null}
 */
export function parseSaved(raw) {
  if (!isObj(raw) || raw.v !== 1 || !isInt(raw.created_ms)) return null;
  const events = raw.events, queue = raw.queue;
  if (!Array.isArray(events) || events.length > MAX_EVENTS) return null;
  if (!Array.isArray(queue) || queue.length > MAX_QUEUE) return null;
  /** @type {SavedEvent[]} */
  const evs = [];
  for (const e of events) {
    if (!isObj(e) || !isInt(e.seq) || !isInt(e.at_ms) || !isObj(e.event)) return null;
    if (e.seq !== evs.length + 1) return null;   // the log from its first event, in order
    evs.push({ seq: e.seq, at_ms: e.at_ms, event: e.event });
  }
  /** @type {SavedCommand[]} */
  const q = [];
  for (const c of queue) {
    if (!isObj(c) || typeof c.id !== "string" || c.id.length > 128 || !isObj(c.cmd)) return null;
    if (c.type !== "cmd" && c.type !== "summon") return null;
    if (!(c.atMs === null || isInt(c.atMs)) || typeof c.pressedEpoch !== "number") return null;
    q.push({ id: c.id, type: c.type, cmd: c.cmd, atMs: c.atMs, pressedEpoch: c.pressedEpoch });
  }
  const smE = raw.serverMinusEpoch;
  return {
    v: 1, created_ms: raw.created_ms,
    spec: isObj(raw.spec) ? raw.spec : null,
    events: evs,
    seq: isInt(raw.seq) ? raw.seq : null,
    state: isObj(raw.state) ? raw.state : null,
    info: isObj(raw.info) ? raw.info : null,
    queue: q,
    serverMinusEpoch: typeof smE === "number" && Number.isFinite(smE) ? smE : null,
    server_started: isInt(raw.server_started) ? raw.server_started : null,
    saved_at: typeof raw.saved_at === "number" ? raw.saved_at : 0,
  };
}

/**
 * Token `token`'s record in `storage`, or null.
 * @param {Storage | null} storage @param {string} token @returns {Saved | null}
 */
export function loadSaved(storage, token) {
  if (!storage || !token) return null;
  try {
    const text = storage.getItem(storeKey(token));
    if (!text) return null;
    const saved = parseSaved(JSON.parse(text));
    if (!saved) storage.removeItem(storeKey(token));
    return saved;
  } catch (e) {
    return null;
  }
}

/**
 * Keep `saved` for token `token`; false when the storage refused it (full,
 * or private mode).
 * @param {Storage | null} storage @param {string} token @param {Saved} saved @returns {boolean}
 */
export function writeSaved(storage, token, saved) {
  if (!storage || !token) return false;
  try {
    storage.setItem(storeKey(token), JSON.stringify(saved));
    return true;
  } catch (e) {
    return false;
  }
}

/** Forget token `token`'s record. @param {Storage | null} storage @param {string} token */
export function clearSaved(storage, token) {
  if (!storage || !token) return;
  try { storage.removeItem(storeKey(token)); } catch (e) { /* nothing kept */ }
}

/**
 * The localStorage of this page, or null where it is refused.
 * @returns {Storage | null}
 */
export function pageStorage() {
  try { return window.localStorage; } catch (e) { return null; }
}
