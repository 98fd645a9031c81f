/* bgclock dashboard: the order of the alerts and their words.
 *
 * Most urgent first: a flag or a dispute (a match waits for a ruling), then a
 * call for the director, a premature-action claim, a break running over, a
 * table recovered after a restart; within a rank the oldest first. */

/** Rank of each alert kind (lower: more urgent). */
export const URGENCY = { flag: 0, dispute: 0, dispute_expiry: 0, provisional: 0, result_conflict: 1, director: 1, premature: 2, break_over: 3, restart: 4 };

/**
 * @typedef {{kind: string, key: string, text: string, table: number, since: number}} Alert
 */

/**
 * Sort alerts by urgency, then by the time they appeared (oldest first), then by table.
 * @param {Alert[]} alerts @returns {Alert[]}
 */
export function sortAlerts(alerts) {
  /** @type {Record<string, number>} */
  const urgency = URGENCY;
  /** @param {Alert} a @returns {number} */
  const rank = (a) => (urgency[a.kind] === undefined ? 9 : urgency[a.kind]);
  return alerts.slice().sort((a, b) => rank(a) - rank(b) || a.since - b.since || a.table - b.table);
}

/** The characters and length of a command's id (protocol: `cmd`). */
const ID_CHARS = /[^A-Za-z0-9._:-]/g, ID_MAX = 64;

/**
 * FNV-1a of a string, 32 bits, in hex (a short stand-in for a long id; the
 * page may be served over plain http, where crypto.subtle is absent).
 * @param {string} s @returns {string}
 */
export function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * A command id derived from what the command settles, the same on every
 * dashboard: the director's ids are one space on the server, so the same
 * confirmation sent from two dashboards (or twice) is applied once and the
 * second gets the first's ack. `prefix.part.part...`; past 64 characters the
 * prefix and a hash of the rest.
 * @param {string} prefix @param {Array<string|number|null|undefined>} parts
 * @returns {string}
 */
export function stableId(prefix, parts) {
  const rest = parts.filter((p) => p != null && p !== "").map((p) => String(p).replace(ID_CHARS, "_")).join(".");
  const id = prefix + "." + rest;
  return id.length <= ID_MAX ? id : prefix + "." + fnv1a(rest) + "." + fnv1a(prefix + rest);
}

/**
 * The id of the i-th command of an alert's fix (`al.KEY.I.DO`), or of a
 * ruling decided at the table's `seq` (`rl.TABLE.SEQ.DECISION[.RESULT]`);
 * null for any other command (a fresh id: it may be meant twice).
 * @param {{do: string, decision?: string, result?: string}} cmd
 * @param {{table: number, seq: number|null, handles: string|null, index: number}} at
 * @returns {string|null}
 */
export function confirmId(cmd, at) {
  if (at.handles) return stableId("al", [at.handles, at.index, cmd.do]);
  if (cmd.do === "ruling" && at.seq != null) return stableId("rl", [at.table, at.seq, cmd.decision, cmd.result]);
  return null;
}
