// @ts-check
/* bgclock: the table clock page (docs/pages.md, "The table page").
 *
 * The rooms: state.js (the page's state and settings), link.js (the link and
 * the table's time line), match.js (the table's match folded on this device,
 * what the page shows now), store.js (what survives a reload), messages.js
 * (the server's words taken in), commands.js (what a tap sends), and the
 * views (view/bar.js, half.js, center.js, clock.js, status.js, keeper.js).
 * This entry draws them together: the whole render, the frame loop, the
 * inputs, and the page's one debug object, `window.__bgclock`. */
import { I18N } from "../kit/i18n.js";
import * as link from "../kit/link.js";
import { unlockAudio } from "../kit/sound.js";
import { SIDES, app, names, other, tableId, thresholds, token, ui } from "./state.js";
import { pageTitle } from "./strings.js";
import { conn, tableNow } from "./link.js";
import { display } from "./match.js";
import { persist, persistNow, restore } from "./store.js";
import { noteChange, onMessage, takeBoot } from "./messages.js";
import { callDirector, command, press, stopNow } from "./commands.js";
import { ScreenAwake } from "./awake.js";
import { TapGuard } from "./guard.js";
import { registerTableWorker } from "./worker.js";
import { renderBar } from "./view/bar.js";
import { renderCenter, rerenderCenter } from "./view/center.js";
import { forgetShown, renderTimes } from "./view/clock.js";
import { renderHalf } from "./view/half.js";
import { $, fullscreen, halves, q } from "./view/screen.js";
import { openConn, renderConn, setAwake, toast } from "./view/status.js";

/** @typedef {import("../kit/types.js").WireState} WireState */

/** Which half is near (the player's own) and how the halves sit. */
function layout() {
  const main = $("clock");
  let lay = app.settings.layout;
  if (lay === "auto") lay = window.innerWidth > window.innerHeight * 1.05 ? "side" : "stack";
  main.className = "layout-" + lay;
  const near = app.settings.swap ? "B" : "A";
  halves[near].classList.add("near"); halves[near].classList.remove("far");
  halves[other(near)].classList.add("far"); halves[other(near)].classList.remove("near");
  main.dataset.near = near;
}

/** What a change of the shown state is made of (the numbers aside).
 * @param {WireState|null} st @returns {string} */
function stateKey(st) {
  return st ? [st.phase, st.stopped_reason, st.on_turn, st.score.join(), st.game, st.cube.value, st.cube.owner,
    st.A.expired, st.B.expired, st.A.running, st.B.running, st.winner, st.double_offered_by, !!st.offer,
    st.A.overtime, st.B.overtime, st.A.no_cube, st.B.no_cube].join("|") : "";
}

/** The whole page, now. */
function renderAll() {
  persist();
  const d = display();
  I18N.apply(document.body);
  const title = pageTitle(tableId);
  if (document.title !== title) document.title = title;
  renderConn(conn.status);
  layout();
  if (!d) return;
  if (app.shown && stateKey(app.shown) !== stateKey(d.state)) noteChange(app.shown, d.state);
  app.shown = d.state;
  app.shownKey = stateKey(d.state);
  const st = d.state, nm = names();
  renderBar(st, nm);
  for (const side of SIDES) renderHalf(side, st, nm);
  renderCenter(st, nm);
  renderTimes(d);
}

/** Every animation frame: the numbers, or the whole page when the clock
 * itself changed the state (an expiry, its penalty). */
function frame() {
  app.frames += 1;
  const d = display();
  if (d && stateKey(d.state) !== app.shownKey) renderAll();
  else renderTimes(d);
  if (app.newState) {
    app.newState = false;
    app.paints.push([performance.timeOrigin + performance.now(), app.seq]);
    if (app.paints.length > 500) app.paints.shift();
  }
  requestAnimationFrame(frame);
}

/* ----------------------------------------------------- screen and input */
/* The screen stays awake (table/awake.js); the bar says when it cannot. */
const awake = new ScreenAwake(document, setAwake);
function wakeLock() { return awake.keep(); }

ui.render = renderAll;
ui.toast = toast;
ui.status = renderConn;
ui.wake = () => { wakeLock(); };
conn.onMessage = onMessage;

/* No control sits under the spot of the control before it (table/guard.js). */
const guard = new TapGuard(document, $("clock"));
app.guarded = guard.guarded;   // what was swallowed (tests read it)
Object.defineProperty(app, "layoutAt", { get: () => guard.layoutAt });

for (const side of SIDES) {
  halves[side].addEventListener("pointerdown", (e) => {
    const target = /** @type {Element|null} */ (e.target);
    if (target && target.closest("button, .panel, input, select, a, .edge")) return;
    e.preventDefault();
    openConn(false);
    press(side);
  });
  q(side, ".more").addEventListener("click", () => { app.panel[side] = app.panel[side] ? null : { kind: "menu" }; renderAll(); });
}
document.addEventListener("keydown", (e) => {
  const target = /** @type {Element|null} */ (e.target);
  if (target && target.closest && target.closest("input, select, textarea")) return;
  if (e.key === "Escape") { app.panel = { A: null, B: null }; app.center = null; openConn(false); renderAll(); return; }
  if (e.repeat) return;
  if (e.code === "ShiftLeft" || e.key === "a" || e.key === "A") { e.preventDefault(); press("A"); }
  else if (e.code === "ShiftRight" || e.key === "l" || e.key === "L") { e.preventDefault(); press("B"); }
});
/* The link's words, ellipsized in the bar's row: a tap shows them whole. */
$("conn").addEventListener("click", () => openConn());
$("btn-stop").addEventListener("click", () => stopNow(null));
$("btn-director").addEventListener("click", () => { app.center = { kind: "summon" }; renderAll(); });
$("btn-resume").addEventListener("click", () => { command({ do: "resume" }); });
$("btn-settings").addEventListener("click", () => { app.center = app.center && app.center.kind === "settings" ? null : { kind: "settings" }; rerenderCenter(); });
$("btn-lang").addEventListener("click", () => { I18N.setLang(I18N.lang === "en" ? "it" : "en"); forgetShown(); rerenderCenter(); });
$("btn-full").addEventListener("click", fullscreen);
window.addEventListener("resize", layout);
document.addEventListener("pointerdown", () => unlockAudio(), { once: true });

/** While commands wait, a reload or a closed tab asks first (they are
 * kept anyway: device-store.js). @returns {boolean} */
function leaveAsks() { return conn.pending.length > 0; }
window.addEventListener("beforeunload", (e) => {
  persistNow();
  if (leaveAsks()) { e.preventDefault(); e.returnValue = ""; }
});
window.addEventListener("pagehide", persistNow);

document.documentElement.lang = I18N.lang;
/* The page's one debug object (docs/pages.md, "Debug objects"): the tests
 * and the benchmarks reach the page through it, and only through it. */
/** @type {any} */ (window).__bgclock = { app: app, conn: conn, display: display, press: press, command: command,
  thresholds: thresholds, tableNow: tableNow, callDirector: callDirector, stopNow: stopNow, leaveAsks: leaveAsks,
  persistNow: persistNow, link: link, i18n: I18N };

/* Over TLS only: the service worker that serves the page offline (table/worker.js). */
app.worker = "pending";

if (token) restore();
/* The table's snapshot in the page itself: the clock is drawn before the
 * link answers (on a slow link, a whole round trip sooner). */
if (token) takeBoot();
renderAll();
registerTableWorker(location).then((how) => { app.worker = how; });
wakeLock();
/* A page opened at a name the server does not answer WebSockets at (a venue
 * name it was not started with: --public-url, --allow-host) says so and why,
 * instead of "reconnecting" for ever. */
const refusedHost = document.body.dataset.refusedHost || "";
if (!token) renderConn("unauthorized");
else if (refusedHost) { conn.stopped = true; conn.setStatus("host_refused"); openConn(true); }
else conn.start();
requestAnimationFrame(frame);
