// @ts-check
/* bgclock: the director's dashboard (docs/pages.md, "The director's dashboard").
 *
 * Every open table live (one WebSocket, hello over the director's session), the
 * alerts that need the director (they stay until the table's state no longer
 * calls for them, or the director marks them handled: the server keeps which
 * are, for every dashboard; protocol `handle`, `handled`), one table in detail
 * with its log and the director's commands (each confirmed), and the forms
 * that create tournaments and tables.
 *
 * The rooms: state.js (the dashboard's state), link.js (the link and the
 * server's messages), attention.js (a table's alerts), actions.js (what the
 * director does), view/cards.js, view/detail.js, view/forms.js.  This entry
 * draws them together and sets the page's one debug object,
 * `window.__bgclockDesk`. */
import "../dir-strings.js";
import "../timekeeper-strings.js";
import { modeOf, viewAt } from "../engine/countdown.js";
import { keepingFocus } from "../kit/dom.js";
import { fmtClock, fmtShort } from "../kit/format.js";
import { I18N } from "../kit/i18n.js";
import { unlockAudio } from "../kit/sound.js";
import { $, SIDES, app, isLow, presets, ui } from "./state.js";
import { conn, loadTournaments, unauthorized } from "./link.js";
import { alertsOf } from "./attention.js";
import { closeDetail, refreshLog, select } from "./actions.js";
import { cardClock, renderAlerts, renderCards, renderConn } from "./view/cards.js";
import { renderDetail, renderLog } from "./view/detail.js";
import { openTableForm, openTournamentForm, printSheet } from "./view/forms.js";
import { EVERY_MS, loadForecasts } from "./forecast.js";

/** The dashboard, now: whole, or what the updates of tables `ids` change
 * (the alerts, their cards, and the detail when it shows one of them).  The
 * focus stays where the director has it (a field typed in, a card tabbed
 * to), however often updates come.
 * @param {Set<number>} [ids] */
function draw(ids) {
  keepingFocus(() => {
    if (!ids) I18N.apply(document.body);
    renderConn(conn.status, conn.pending.length);
    renderAlerts();
    renderCards(ids);
    if (!ids || (app.selected != null && ids.has(app.selected))) renderDetail();
  });
}
/** The whole dashboard, now. */
function render() { draw(); }
/** The tables updated since the last draw.  @type {Set<number>|null} */
let updated = null;
/** What table `id`'s update changes, once the messages in hand are read: a
 * frame's batch of updates (docs/protocol.md) is one draw, not one each.
 * @param {number} id */
function renderSoon(id) {
  if (updated) { updated.add(id); return; }
  updated = new Set([id]);
  queueMicrotask(() => {
    const ids = updated || new Set();
    updated = null;
    draw(ids);
  });
}
/* The running clocks, every frame. */
function frame() {
  for (const id in app.tables) {
    const row = app.tables[id], s = row.state;
    if (!s || s.phase !== "playing") continue;
    const mode = modeOf(s, row.info, presets);
    const v = viewAt(s, mode, performance.now() - row.recvAt);
    for (const side of SIDES) {
      if (!s[side].running) continue;
      const txt = fmtClock(v[side].reserve_ms), low = isLow(row, v[side].reserve_ms);
      const n = cardClock(Number(id), side);
      if (n) {
        if (n.textContent !== txt) n.textContent = txt;
        if (n.classList.contains("low") !== low) n.classList.toggle("low", low);
      }
      if (app.selected === Number(id)) {
        const dt = document.querySelector('[data-clock="detail' + side + '"]');
        if (dt && dt.textContent !== txt) dt.textContent = txt;
        const dd = document.querySelector('[data-delay="detail' + side + '"]');
        const dtxt = fmtShort(v[side].delay_ms);
        if (dd && dd.textContent !== dtxt) dd.textContent = dtxt;
      }
    }
  }
  requestAnimationFrame(frame);
}
// breaks running over appear without a new message, and a device's time offline counts on
setInterval(() => {
  if (app.setPreview && document.getElementById("set-to")) app.setPreview();
  for (const id in app.tables) {
    const row = app.tables[id], s = row.state, link = row.info && row.info.link;
    if ((s && s.phase === "break") || (link && link.state === "offline")) {
      keepingFocus(() => { renderAlerts(); renderCards(); });
      break;
    }
  }
}, 1000);

// a club's director on a hosted server (issue 37 §4): the club named; its
// Register screen is the club's own register (the same API, kept to the club)
const club = document.body.dataset.club || "";
if (club) $("club-name").textContent = " \u00b7 " + club;

$("btn-new-tournament").addEventListener("click", openTournamentForm);
$("btn-new-table").addEventListener("click", () => openTableForm(null));
$("btn-print").addEventListener("click", printSheet);
$("btn-lang").addEventListener("click", () => { I18N.setLang(I18N.lang === "en" ? "it" : "en"); render(); });
document.addEventListener("pointerdown", () => unlockAudio(), { once: true });

ui.render = render;
ui.renderSoon = renderSoon;
ui.renderDetail = () => keepingFocus(renderDetail);
ui.renderLog = renderLog;
ui.refreshLog = refreshLog;
ui.status = renderConn;

document.documentElement.lang = I18N.lang;
/* the page's one debug object (docs/pages.md, "Debug objects"): tests read it */
/** @type {any} */ (window).__bgclockDesk = { app: app, closeDetail: closeDetail, conn: conn, select: select, alertsOf: alertsOf, openTableForm: openTableForm,
  i18n: I18N, loadForecasts: loadForecasts };
render();
// the server served this page to the director's session; a session ended
// since (a new key) is told by the first refusal
loadTournaments().catch((e) => { if (String(e.message).indexOf("key") >= 0 || String(e.message) === "401") unauthorized(); });
conn.start();
// the round's forecast (forecast.js): once the tables are in, then every EVERY_MS
setTimeout(() => { loadForecasts().catch(() => {}); }, 2000);
setInterval(() => { loadForecasts().catch(() => {}); }, EVERY_MS);
requestAnimationFrame(frame);
