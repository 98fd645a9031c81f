// @ts-check
/* bgclock table page: the numbers, on every frame (the reserves, the
 * allowance, a break's time), and the low-time warnings: colour, sound,
 * vibration, once per threshold. */
import { breakUsed, viewAt } from "../../engine/countdown.js";
import { fmtClock, fmtShort } from "../../kit/format.js";
import { t } from "../../kit/i18n.js";
import { beep, vibrate } from "../../kit/sound.js";
import { SIDES, allowance, app, mode, tableId, thresholds } from "../state.js";
import { crossings } from "../warnings.js";
import { $, halves, q } from "./screen.js";

/** @typedef {import("../../kit/types.js").Side} Side */
/** @typedef {import("../../kit/types.js").WireState} WireState */
/** @typedef {import("../../kit/types.js").WireSide} WireSide */
/** @typedef {import("../../engine/countdown.js").SideView} SideView */

/** What each half shows now (a figure is written only when it changes). */
const shown = { A: { res: "", allow: "" }, B: { res: "", allow: "" } };
/** Write every figure again on the next frame (the language changed). */
export function forgetShown() { shown.A = { res: "", allow: "" }; shown.B = { res: "", allow: "" }; }

/** The figures of `d` (the display() of this frame, read once: the device's
 * match is folded on every call). @param {{state: WireState, base: number}|null} d */
export function renderTimes(d) {
  if (!d) return;
  const st = d.state, m = mode(), D = allowance();
  const v = viewAt(st, m, performance.now() - d.base);
  for (const side of SIDES) {
    const sv = v[side], s = st[side];
    const res = fmtClock(sv.reserve_ms);
    let allow = "";
    if (m === "simple_delay") {
      allow = s.forfeit_delay ? t("allow.forfeit") + " · " + t("allow.delay", { t: fmtShort(sv.delay_ms) }) : t("allow.delay", { t: fmtShort(sv.delay_ms) });
    } else if (m === "bronstein") {
      if (s.forfeit_delay) allow = t("allow.forfeit");
      else if (sv.running || (st.on_turn === side && st.phase !== "playing")) allow = t("allow.credit", { t: fmtShort(Math.max(0, D - sv.delay_ms)), d: fmtShort(D) });
      else allow = t("allow.credit_next", { t: fmtShort(sv.delay_ms) });
    } else if (m === "increment") {
      allow = t("allow.credit_next", { t: fmtShort(D) });
    }
    // simple delay: while the delay runs it is the big figure, the reserve stands still, smaller
    const delaying = m === "simple_delay" && sv.running && sv.delay_ms > 0 && st.phase === "playing";
    halves[side].classList.toggle("delaying", delaying);
    if (delaying) allow = t("allow.delay", { t: fmtShort(sv.delay_ms) });
    const box = shown[side];
    if (box.res !== res) { q(side, ".reserve").textContent = res; box.res = res; }
    if (box.allow !== allow) { q(side, ".allow").textContent = allow; box.allow = allow; }
    const th = thresholds();
    const low = th.length ? sv.reserve_ms <= th[0] : false;
    halves[side].classList.toggle("low", low && !s.expired && st.phase !== "match_over");
    halves[side].classList.toggle("tenths", sv.reserve_ms < 20000);
    warn(side, sv, s, st);
  }
  if (st.phase === "break" && st.break) {
    const used = breakUsed(st, performance.now() - d.base);
    const lim = st.break.limit_ms;
    const over = lim != null && used > lim;
    const txt = over ? t("break.over", { t: fmtClock(used - lim) }) : t("break.running", { t: fmtClock(used) });
    if ($("phase").textContent !== txt) $("phase").textContent = txt;
    $("phase").classList.toggle("alarm", over);
    const msg = lim == null ? t("msg.break_nolimit", { t: fmtClock(used) })
      : over ? t("msg.break_over", { limit: fmtClock(lim), t: fmtClock(used - lim) })
      : t("msg.break", { t: fmtClock(used), limit: fmtClock(lim) });
    for (const side of SIDES) {
      const n = halves[side].querySelector(".brk");
      if (n && n.textContent !== msg) { n.textContent = msg; n.classList.toggle("alarm", over); }
    }
  } else $("phase").classList.remove("alarm");
}

/** Low-time warnings: colour, sound, vibration, once per threshold.
 * @param {Side} side @param {SideView} sv @param {WireSide} s @param {WireState} st */
function warn(side, sv, s, st) {
  if (s.expired && !app.fired.flag[side]) {
    app.fired.flag[side] = true;
    alarm(side, 0);
  } else if (!s.expired && app.fired.flag[side] && sv.reserve_ms > 0) app.fired.flag[side] = false;
  const th = thresholds();
  if (!th.length) return;
  const r = crossings(sv.reserve_ms, th, app.fired[side], Math.max(30000, 2 * allowance()));
  const changed = r.fired.join() !== app.fired[side].join();
  app.fired[side] = r.fired;
  if (r.fire != null && sv.running && st.phase === "playing") alarm(side, r.fire);
  if (changed) { try { sessionStorage.setItem("bgclock.fired." + tableId, JSON.stringify(app.fired)); } catch (e) { /* full */ } }
}

/** One warning (threshold 0: the flag). @param {Side} side @param {number} threshold */
function alarm(side, threshold) {
  const th = thresholds();
  const n = threshold === 0 ? 5 : Math.min(3, th.indexOf(threshold) + 1 || 1);
  app.warnings.push({ side: side, threshold_ms: threshold, at: performance.now() });
  if (app.settings.sound) beep(n, threshold === 0 ? 300 : 150);
  if (app.settings.vibrate) vibrate(threshold === 0 ? [400, 100, 400, 100, 400] : Array(n * 2 - 1).fill(120));
  const h = halves[side];
  h.classList.remove("pulse"); void h.offsetWidth; h.classList.add("pulse");
}
