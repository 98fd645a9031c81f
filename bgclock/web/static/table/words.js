// @ts-check
/* bgclock: the table page's words for its link (docs/pages.md, "The link").
 *
 * What waits is counted by kind ("2 presses, a double"), and after an outage
 * each command's answer is judged: applied at the instant the device applied
 * it, re-timed by the server, refused, or not needed any more; the bar says
 * each outcome once, with its count.  Pure: the strings come through `t`
 * (kit/i18n.js's, with table/strings.js merged in: imported here, so that
 * wherever these words are used the dictionary holds them). */
import "./strings.js";

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
 * Outcome `base`'s words for `n` commands of `kinds`, the participle agreeing
 * with them where the language's words agree (table/strings.js: a kind's
 * `gender`; feminine only when every kind is).
 * @param {string} base @param {string[]} kinds @param {number} n
 * @param {Record<string, unknown>} params @param {Translate} t @returns {string}
 */
function agreed(base, kinds, n, params, t) {
  const genders = kinds.map((k) => t("kind." + k + ".gender"));
  const g = !genders.length || genders.some((x) => x !== "f" && x !== "m") ? ""
    : genders.every((x) => x === "f") ? "f" : "m";
  return t(g ? base + "." + g : base, { ...params, n: n });
}

/**
 * The bar once every command that waited has its answer: what was applied at
 * its instant, then what was re-timed, refused or not needed, each outcome
 * said once with its count, in the order they first came ("4 presses
 * refused: …", not the same refusal four times).
 * @param {Outcome[]} outcomes @param {Translate} t @param {(ms: number) => string} signed
 * @returns {string}
 */
export function syncedText(outcomes, t, signed) {
  const applied = outcomes.filter((o) => o.result === "applied").map((o) => o.kind);
  const parts = [applied.length
    ? agreed("conn.synced_list", applied, applied.length, { list: kindsList(applied, t) }, t) : t("conn.synced")];
  /** @type {Map<string, {result: string, kind: string, why: string, by: number[]}>} */
  const groups = new Map();
  for (const o of outcomes) {
    if (o.result !== "retimed" && o.result !== "refused" && o.result !== "ignored") continue;
    const why = o.result === "refused" ? o.why || "" : "";
    const key = JSON.stringify([o.result, o.kind, why]);
    const g = groups.get(key) || { result: o.result, kind: o.kind, why: why, by: [] };
    g.by.push(o.by || 0);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    const n = g.by.length, what = t("kind." + g.kind, { n: n });
    if (g.result === "retimed") {
      const lo = Math.min(...g.by), hi = Math.max(...g.by);
      parts.push(lo === hi ? t("conn.retimed_n", { what: what, by: signed(lo), n: n })
        : t("conn.retimed_range", { what: what, from: signed(lo), to: signed(hi) }));
    } else if (g.result === "refused") parts.push(agreed("conn.refused", [g.kind], n, { what: what, why: g.why }, t));
    else parts.push(agreed("conn.ignored", [g.kind], n, { what: what }, t));
  }
  return parts.join(" · ");
}
