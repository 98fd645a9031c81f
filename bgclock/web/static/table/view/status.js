// @ts-check
/* bgclock table page: the bar's honest words: the link (offline with what
 * waits, synced with what became of it, a server restart), whether the
 * screen stays awake, and the toast over the screen.
 *
 * Neither ever hides a clock: the link's words take no more than the row of
 * the bar's tools (two or three lines, the rest ellipsized; the whole in the
 * title, and shown over the bar on a tap), and the toast sits over the bar,
 * three lines at most, turned to the player it is for (style.css). */
import { fmtSigned } from "../../kit/format.js";
import { t } from "../../kit/i18n.js";
import "../strings.js";  // the table's own words (the link's, the title) merged into t's
import { app } from "../state.js";
import { conn } from "../link.js";
import { kindOf, kindsList as countKinds, syncedText as outcomeText } from "../words.js";
import { $, halves } from "./screen.js";

/** @typedef {import("../../kit/types.js").Side} Side */

/** The link's words (table/words.js), in the page's language. @param {string[]} kinds */
function kindsList(kinds) { return countKinds(kinds, t); }

/** The link, honestly: offline (with the presses waiting) as soon as the
 * connection notices a dead link, and "synced" once the presses queued
 * while offline have all been accepted.
 * @param {string} status @param {number} [queued] */
export function renderConn(status, queued) {
  const c = $("conn");
  if (status === "unauthorized") conn.stopped = true;
  const n = queued == null ? conn.pending.length : queued;
  if (status !== "online") {
    for (const p of conn.pending) if (!app.outage.has(p.id)) app.outage.set(p.id, { kind: kindOf(p), atMs: p.atMs, result: null });
  }
  const shownStatus = app.closed ? "closed" : status;
  let text = app.decided ? t("hand.decided", { name: app.decided.name })
    : t("conn." + shownStatus, { host: document.body.dataset.refusedHost || "" });
  let synced = false;
  if (n > 0 && status !== "online") text += " · " + t("conn.waiting", { list: kindsList(conn.pending.map(kindOf)) });
  else if (status === "online" && conn.synced && app.outage.size) {
    synced = true;
    text = outcomeText(Array.from(app.outage.values()), t, fmtSigned);
  } else if (status === "online" && !conn.synced && !conn.reconciling) app.outage.clear();
  if (app.restarted) text += " · " + t("conn.restarted");
  if (app.dropped) text += " · " + t("conn.dropped", { list: kindsList(app.dropped) });
  // a queue brought back by a reload, until it is all decided (store.js settleRestored)
  const restoring = !!app.restored && !app.restored.settled;
  if (restoring && status !== "online") text += " · " + t("conn.restored");
  c.dataset.status = shownStatus;
  c.dataset.synced = synced ? "1" : "0";
  c.dataset.queued = String(n);
  c.dataset.restored = restoring ? "1" : "0";
  c.dataset.restarted = app.restarted ? "1" : "0";
  const node = /** @type {HTMLElement} */ (c.querySelector(".conn-text"));
  if (node.textContent !== text) { node.textContent = text; c.title = text; }
}

/** The link's words in full over the bar (a tap on them), or back in the
 * tools' row (a tap again, Esc, a press). @param {boolean} [open] */
export function openConn(open) {
  const c = $("conn");
  const now = open === undefined ? c.dataset.open !== "1" : open;
  if (now) c.dataset.open = "1"; else delete c.dataset.open;
}

/** How the screen is kept awake (table/awake.js); the bar says when it cannot.
 * @param {import("../awake.js").Awake} how */
export function setAwake(how) {
  app.awake = how;
  const n = document.getElementById("awake");
  if (!n) return;
  n.dataset.awake = how;
  n.hidden = how !== "off";
  n.title = t(how === "lock" ? "awake.on" : how === "video" ? "awake.video" : "awake.off");
  const txt = n.querySelector(".awake-text");
  if (txt) txt.textContent = how === "off" ? t("awake.off") : "";
}

/** @type {ReturnType<typeof setTimeout>|undefined} */
let toastTimer;
/** A message over the screen; `side`: the player it is for (a refusal of
 * that player's command), turned to face them like their half.
 * @param {string} text @param {Side|null} [side] */
export function toast(text, side) {
  const n = $("toast");
  const words = /** @type {HTMLElement} */ (n.querySelector(".toast-text"));
  words.textContent = text;
  n.title = text; n.hidden = false;
  n.dataset.side = side || "";
  n.classList.toggle("far", !!side && halves[side].classList.contains("far"));
  n.classList.toggle("near", !!side && halves[side].classList.contains("near"));
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { n.hidden = true; }, 5000);
}
