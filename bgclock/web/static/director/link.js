// @ts-check
/* bgclock dashboard: the link (one WebSocket, hello over the director's session)
 * and what the server says, taken into the dashboard's state. */
import { api } from "../kit/api.js";
import { I18N, t } from "../kit/i18n.js";
import { Connection, wsUrl } from "../kit/link.js";
import { $, app, settleConfirm, ui } from "./state.js";

/** @typedef {import("../kit/types.js").TableInfo} TableInfo */
/** @typedef {import("../kit/types.js").WireState} WireState */
/** @typedef {import("../kit/types.js").Message} Message */

/* ------------------------------------------------------------- HTTP (kit/api.js) */
export async function loadTournaments() {
  const list = await api("GET", "/api/tournaments");
  for (const tn of list.tournaments) {
    const full = await api("GET", "/api/tournaments/" + tn.id);
    app.tournaments[tn.id] = full;
    for (const info of full.tables) mergeInfo(info);
  }
  ui.render();
}
/** What HTTP or a `table` message says of a table. @param {TableInfo} info */
export function mergeInfo(info) {
  const row = app.tables[info.id] || (app.tables[info.id] = { info: info, state: null, seq: null, recvAt: 0 });
  // A table's match line is its `created_ms` (`next match` starts a new one,
  // its seq from 0): info of an older line is dropped, info of a newer line
  // replaces the row whole (players, event, state, calls), and within one
  // line an HTTP answer older than a `table` message (a lower seq) is dropped.
  const line = row.info && row.info.created_ms, given = info.created_ms;
  if (line != null && given != null && given < line) return;
  if (line != null && given != null && given > line) {
    row.info = Object.assign({}, info);
    row.state = null;
    row.seq = null;
    delete app.summons[info.id];
    for (const k of Array.from(app.handled)) if (k.startsWith(info.id + ":")) app.handled.delete(k);
    for (const k of Array.from(app.alertSince.keys())) if (k.startsWith(info.id + ":")) app.alertSince.delete(k);
  }
  const stale = row.info && row.info.created_ms === given && row.info.seq > info.seq;
  if (!stale) row.info = Object.assign({}, row.info, info);
  if (info.url) row.url = info.url;
  if (info.token) row.token = info.token;
}

/* ----------------------------------------------------------- the link */
export const conn = new Connection({
  url: wsUrl(), prefix: "dir-",
  hello: () => {
    /** @type {Object<string, number>} */
    const since = {};
    for (const id in app.tables) if (app.tables[id].seq != null) since[id] = app.tables[id].seq;
    // no key: the handshake carries the director's session cookie
    return { type: "hello", v: 1, since: since };
  },
  onMessage: onMessage,
  onStatus: (status, queued) => ui.status(status, queued)
});

/** One message from the server. @param {Message} msg */
export function onMessage(msg) {
  const row = msg.table != null ? app.tables[msg.table] : null;
  switch (msg.type) {
    case "snapshot":
      mergeInfo(msg.info);
      setState(msg.table, msg.state, msg.seq);
      break;
    case "update":
      if (!row) { conn.sendRaw({ type: "sync", v: 1, table: msg.table }); return; }
      if (row.seq != null && msg.seq <= row.seq) return;
      if (row.seq != null && msg.seq > row.seq + 1) { conn.sendRaw({ type: "sync", v: 1, table: msg.table }); return; }
      setState(msg.table, msg.state, msg.seq);
      if (app.selected === msg.table) ui.refreshLog();
      break;
    case "expiry":
      if (row) setState(msg.table, msg.state, null);
      break;
    case "table":
      mergeInfo(msg.info);
      if (!app.tournaments[msg.info.tournament_id]) loadTournaments().catch(() => {});
      if (!app.tables[msg.table].url) fetchLink(msg.table);
      ui.renderSoon(msg.table);
      break;
    case "summon":
      (app.summons[msg.table] = app.summons[msg.table] || {})[msg.n] = msg;
      if (app.selected === msg.table) ui.refreshLog();
      ui.renderSoon(msg.table);
      break;
    case "tournament":
      // a tournament changed: its clashes not dismissed are alerts here
      if (app.tournaments[msg.tournament] && Array.isArray(msg.clashes)) {
        app.tournaments[msg.tournament].clashes = msg.clashes;
        ui.render();
      }
      break;
    case "handled":
      for (const k of msg.keys || []) app.handled.add(k);
      ui.render();
      break;
    case "ack":
      settleConfirm(msg.id);
      if (app.handling[msg.id]) { delete app.handling[msg.id]; break; }  // its `handled` came first
      app.result = t("det.sent") + " ✓";
      ui.renderDetail();
      break;
    case "error":
      settleConfirm(msg.id);
      if (app.handling[msg.id]) { delete app.handling[msg.id]; ui.render(); }
      if (msg.code === "unauthorized") { unauthorized(); return; }
      app.result = t("det.refused", { m: msg.refusal ? I18N.refusal(msg) : msg.message });
      app.resultErr = true;
      ui.renderDetail();
      break;
  }
}
/** @param {number} id @param {WireState} state @param {number|null} seq */
export function setState(id, state, seq) {
  const row = app.tables[id] || (app.tables[id] = { info: { id: id, players: ["A", "B"] }, state: null, seq: null, recvAt: 0 });
  row.state = state;
  if (seq != null) row.seq = seq;
  row.recvAt = performance.now();
  ui.renderSoon(id);
}
/** @param {number} id */
export async function fetchLink(id) {
  try { const info = await api("GET", "/api/tables/" + id); mergeInfo(info); ui.render(); } catch (e) { /* later */ }
}
export function unauthorized() {
  conn.stopped = true;
  $("fatal").hidden = false;
  $("fatal").textContent = t("dir.unauthorized");
  ui.status("unauthorized");
}
