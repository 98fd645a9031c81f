// @ts-check
/* bgclock: how the pages write times and read them back (no DOM, no clock).
 * The countdown itself (what a running side shows `elapsed` ms later) is the
 * engine's (engine/countdown.js): these only turn milliseconds into text. */

/** @param {number} n @returns {string} */
function pad2(n) { return n < 10 ? "0" + n : String(n); }

/** A reserve as the clock shows it: h:mm:ss from an hour, m:ss, and under
 * 20 s m:ss.t (tenths).  Rounded down: "0:00.0" only at the very end.
 * @param {number} ms @returns {string} */
export function fmtClock(ms) {
  if (!(ms > 0)) ms = 0;
  ms = Math.floor(ms);
  if (ms < 20000) {
    const tenths = Math.floor(ms / 100);
    return "0:" + pad2(Math.floor(tenths / 10)) + "." + (tenths % 10);
  }
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return h > 0 ? h + ":" + pad2(m) + ":" + pad2(sec) : m + ":" + pad2(sec);
}

/** A short duration (allowance, credit) in m:ss, rounded up so a running
 * delay shows 0:12 .. 0:01 and 0:00 only when spent.
 * @param {number} ms @returns {string} */
export function fmtShort(ms) {
  if (!(ms > 0)) return "0:00";
  const s = Math.ceil(ms / 1000);
  return Math.floor(s / 60) + ":" + pad2(s % 60);
}

/** A signed difference: "−0:30", "+1:30". @param {number} ms @returns {string} */
export function fmtSigned(ms) { return (ms < 0 ? "−" : "+") + fmtClock(Math.abs(ms)); }

/** "1:30" -> 90000, "90" -> 90000, "0:05.5" -> 5500; null when unreadable.
 * @param {unknown} text @returns {number|null} */
export function parseClock(text) {
  const m = /^\s*(?:(\d+):)?(\d+(?:\.\d+)?)\s*$/.exec(String(text));
  if (!m) return null;
  const min = m[1] ? parseInt(m[1], 10) : 0;
  return Math.round((min * 60 + parseFloat(m[2])) * 1000);
}

/** The time of day of an epoch instant, hours and minutes, as the page's
 * language writes it ("14:05" in Italian, "02:05 PM" in English); `seconds`
 * adds them.  Never the browser's own locale: an Italian page on an English
 * browser still reads 24-hour time.
 * @param {number} ms @param {string} lang @param {boolean} [seconds] @returns {string} */
export function timeOfDay(ms, lang, seconds) {
  /** @type {Intl.DateTimeFormatOptions} */
  const how = { hour: "2-digit", minute: "2-digit" };
  if (seconds) how.second = "2-digit";
  return new Date(ms).toLocaleTimeString(lang, how);
}
