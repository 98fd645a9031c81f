// @ts-check
/* bgclock table page: the low-time warnings' thresholds and when one fires
 * (pure: the reserve is given). */

/**
 * Which threshold fires now that a reserve reads nowMs.
 * fired: the thresholds already announced for this side (never repeated).
 * A threshold is armed again only when the reserve rises well above it
 * (rearmMs: a director's adjust, an ABA reset), not by a Bronstein credit.
 * When several are crossed at once (a late page, a jump) only the lowest
 * sounds, but all are marked: a warning is never missed nor repeated.
 * @param {number} nowMs @param {number[]} thresholds @param {number[]} fired @param {number|null} [rearmMs]
 * @returns {{fire: number|null, fired: number[]}}
 */
export function crossings(nowMs, thresholds, fired, rearmMs) {
  const rearm = rearmMs == null ? 30000 : rearmMs;
  let done = fired.filter((t) => nowMs <= t + rearm);
  /** @type {number|null} */
  let fire = null;
  const sorted = thresholds.slice().sort((a, b) => b - a);
  for (const t of sorted) {
    if (nowMs <= t && done.indexOf(t) < 0) {
      done = done.concat([t]);
      fire = t; // keep the lowest
    }
  }
  return { fire: fire, fired: done.sort((a, b) => b - a) };
}

/** "60,20,10" -> [60000, 20000, 10000]; bad input -> the default.
 * @param {unknown} text @param {number[]} [fallback] @returns {number[]} */
export function parseThresholds(text, fallback) {
  const out = String(text || "").split(/[ ,;]+/).filter(Boolean).map(Number)
    .filter((n) => Number.isFinite(n) && n > 0 && n <= 3600).map((n) => Math.round(n * 1000));
  return out.length ? Array.from(new Set(out)).sort((a, b) => b - a) : (fallback || [60000, 20000, 10000]);
}

/** The thresholds a table page uses (ms, highest first): the player's own
 * choice in ⚙ for this table, else the link's `&warn=`, else the table's
 * (`info.warn_s`, set by the director), else 60, 20, 10 s.
 * @param {number[]|null|undefined} local @param {string|null|undefined} linkWarn
 * @param {import("../kit/types.js").TableInfo|null|undefined} info @returns {number[]} */
export function thresholdsFor(local, linkWarn, info) {
  if (Array.isArray(local) && local.length) return local.slice().sort((a, b) => b - a);
  if (linkWarn) return parseThresholds(linkWarn);
  if (info && Array.isArray(info.warn_s) && info.warn_s.length) {
    return info.warn_s.map((x) => x * 1000).sort((a, b) => b - a);
  }
  return [60000, 20000, 10000];
}
