// @ts-check
/* bgclock: the table page's words for its link (docs/pages.md, "The link").
 *
 * What waits is counted by kind ("2 presses, a double"), and after an outage
 * each command's answer is judged: applied at the instant the device applied
 * it, re-timed by the server, refused, or not needed any more; the bar names
 * the last three one by one.  Pure: the strings come through `t`. */

/** A translation: key and parameters to text (kit/i18n.js's `t`).
 * @typedef {(key: string, params?: Record<string, unknown>) => string} Translate */
/** A command waiting for the server (the fields of kit/link.js's queue it reads).
 * @typedef {{type?: string, cmd?: Record<string, unknown>}} Waiting */
/**
 * A command that waited through an outage and, once answered, what became
 * of it.
 * @typedef {{kind: string, atMs: number | null,
 *   result: null | "applied" | "retimed" | "refused" | "ignored",
 *   by?: number, why?: string}} Outcome
 */
/** The server's answer to a command (ack or error).
 * @typedef {{type: string, noop?: boolean, at_ms?: number}} Answer */

/** A command stored more than this far (ms) from the instant the device
 * applied it at was re-timed by the server. */
export const RETIMED_MS = 20;

const KINDS = new Set(["hit", "double", "take", "pass", "stop", "resume", "opening_roll"]);

/** The kind a waiting command is counted as. @param {Waiting} p @returns {string} */
export function kindOf(p) {
  if (p.type === "summon") return "summon";
  const d = p.cmd && p.cmd.do;
  return typeof d === "string" && KINDS.has(d) ? d : "cmd";
}

/**
 * "2 presses, a double": kinds counted, in the order they first came.
 * @param {string[]} kinds @param {Translate} t @returns {string}
 */
export function kindsList(kinds, t) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const k of kinds) counts.set(k, (counts.get(k) || 0) + 1);
  return Array.from(counts, ([k, n]) => t("kind." + k, { n: n })).join(", ");
}

/**
 * What became of command `o` given the server's `answer` (`why`: a refusal
 * in the page's words).  Returns the outcome judged; an outcome already
 * judged is kept.
 * @param {Outcome} o @param {Answer} answer @param {string} why @returns {Outcome}
 */
export function judge(o, answer, why) {
  if (o.result) return o;
  if (answer.type === "error") return { ...o, result: "refused", why: why };
  if (answer.noop) return { ...o, result: "ignored" };
  if (o.atMs != null && typeof answer.at_ms === "number" && Math.abs(answer.at_ms - o.atMs) > RETIMED_MS) {
    return { ...o, result: "retimed", by: answer.at_ms - o.atMs };
  }
  return { ...o, result: "applied" };
}

/**
 * The bar once every command that waited has its answer: what was applied at
 * its instant, then each one re-timed, refused or not needed.
 * @param {Outcome[]} outcomes @param {Translate} t @param {(ms: number) => string} signed
 * @returns {string}
 */
export function syncedText(outcomes, t, signed) {
  const applied = outcomes.filter((o) => o.result === "applied").map((o) => o.kind);
  const parts = [applied.length ? t("conn.synced_list", { list: kindsList(applied, t) }) : t("conn.synced")];
  for (const o of outcomes) {
    const what = t("kind." + o.kind, { n: 1 });
    if (o.result === "retimed") parts.push(t("conn.retimed", { what: what, by: signed(o.by || 0) }));
    else if (o.result === "refused") parts.push(t("conn.refused", { what: what, why: o.why || "" }));
    else if (o.result === "ignored") parts.push(t("conn.ignored", { what: what }));
  }
  return parts.join(" · ");
}
