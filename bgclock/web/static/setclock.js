// @ts-check
/* bgclock dashboard: "set clock to m:ss" — the adjust delta from the reserve at
 * the moment of sending (a running clock is read then), a preview of the
 * result and a warning when the player would flag (result 0). */

/**
 * @typedef {{delta_ms: number, from_ms: number, to_ms: number, flags: boolean}} SetClock
 */

/**
 * What setting a reserve `currentMs` to `targetMs` means.
 * @param {number} currentMs the reserve now (running clocks: read now)
 * @param {number} targetMs the time the director typed
 * @returns {SetClock}
 */
export function setClockPlan(currentMs, targetMs) {
  const from = Math.max(0, Math.round(currentMs));
  const to = Math.max(0, Math.round(targetMs));
  return { delta_ms: to - from, from_ms: from, to_ms: to, flags: to <= 0 };
}

/**
 * The preview "A: 3:12 → 5:00".
 * @param {string} side @param {SetClock} plan @param {(ms: number) => string} fmt
 * @returns {string}
 */
export function previewText(side, plan, fmt) {
  return side + ": " + fmt(plan.from_ms) + " → " + fmt(plan.to_ms);
}
