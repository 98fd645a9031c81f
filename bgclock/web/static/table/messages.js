// @ts-check
/* bgclock table page: what the server says (docs/protocol.md), taken into
 * the page's state. */
import { I18N, t } from "../kit/i18n.js";
import { beep, vibrate } from "../kit/sound.js";
import { app, names, other, tableId, ui } from "./state.js";
import { conn } from "./link.js";
import { confirmEvent, syncEngine } from "./match.js";
import { checkRestored, persist, settleRestored } from "./store.js";
import { judge } from "./words.js";
import { keeper } from "./view/keeper.js";

/** @typedef {import("../kit/types.js").WireState} WireState */
/** @typedef {import("../kit/types.js").TableInfo} TableInfo */
/** @typedef {import("../kit/types.js").Message} Message */

/** A new state from the server (and its seq, and the table when it came
 * with it), exact at device instant `at` (now unless given).
 * @param {WireState} state @param {number|null} seq @param {TableInfo} [info] @param {number} [at] */
export function setState(state, seq, info, at) {
  app.state = state;
  if (seq != null) app.seq = seq;
  if (info) app.info = info;
  app.recvAt = at == null ? performance.now() : at;
  // a press stays predicted until a state at or after its seq arrives
  app.hits = app.hits.filter((h) => {
    const s = app.confirmed[h.id];
    return s === undefined || app.seq == null || s > app.seq;
  });
  app.newState = true;
  ui.render();
}

/** What the table's info says of the table itself: closed by the director,
 * or its match closed by a result entered by hand (docs/protocol.md, "A
 * result entered by hand"): no press is offered then.
 * @param {TableInfo|null|undefined} info */
function takeInfo(info) {
  if (!info) return;
  app.decided = info.hand_result || null;
  app.closed = info.status === "closed" || !!app.decided;
}

/** What a state alone does not say: the points an ABA expiry gave
 * (aba-2003 5.1), and the last game's winner and points.
 * @param {WireState} before @param {WireState} after */
export function noteChange(before, after) {
  const gained = [after.score[0] - before.score[0], after.score[1] - before.score[1]];
  if (after.phase === "stopped" && after.stopped_reason === "time_expired" && before.phase === "playing") {
    const side = before.on_turn || "A";
    app.penalty = { side: side, points: gained[side === "A" ? 1 : 0] };
    if (app.settings.sound) beep(5, 300);
    if (app.settings.vibrate) vibrate([400, 100, 400, 100, 400]);
    app.warnings.push({ side: side, threshold_ms: 0, at: performance.now(), penalty: true });
  } else if (after.phase !== "stopped") app.penalty = null;
  if (after.game !== before.game || after.phase === "playing") app.lastGame = null;
  if ((after.phase === "between_games" || after.phase === "match_over") && (gained[0] > 0 || gained[1] > 0)
      && !(before.phase === "stopped" && before.stopped_reason === "time_expired")) {
    app.lastGame = gained[0] > 0 ? { side: "A", points: gained[0] } : { side: "B", points: gained[1] };
  }
  if (after.phase !== "stopped") app.stopNote = null;
  if (after.phase !== before.phase) announce(after);
}

/** The phase, said to a screen reader. @param {WireState} st */
function announce(st) {
  const n = document.getElementById("announce");
  if (n) n.textContent = t("phase." + st.phase) + (st.stopped_reason ? " · " + t("reason." + st.stopped_reason) : "");
}

/** The server's answer to a command that waited through an outage. @param {Message} msg */
function noteOutcome(msg) {
  const o = msg.id ? app.outage.get(msg.id) : null;
  if (!o) return;
  app.outage.set(msg.id, judge(o, /** @type {import("./words.js").Answer} */ (msg),
    msg.type === "error" ? (msg.refusal ? I18N.refusal(msg) : msg.message || msg.code) : ""));
}

/* A refusal of the moment (kit/link.js RETRY_CODES) is said once in a while,
 * not once per press. */
const RETRY_TOLD_MS = 10000;
let retryToldAt = -Infinity;

/** Does the snapshot the server put in the page (`boot`) say more than
 * what the device kept (device-store.js)?  Only a later seq of the same
 * match: the kept state and queue win over an older one (a page a service
 * worker answered from its cache carries the snapshot of its first load),
 * and only the link's snapshot may say that a next match has begun.
 * @param {Message} msg @returns {boolean} */
function bootAdds(msg) {
  const seen = Math.max(app.seq == null ? -1 : app.seq, app.engine ? app.engine.seq : -1);
  if (typeof msg.seq !== "number" || msg.seq <= seen) return false;
  const kept = app.restored ? app.restored.created_ms : app.info ? app.info.created_ms : null;
  return kept == null || (msg.info != null && msg.info.created_ms === kept);
}

/** The device instant the page's own snapshot was exact at: when the page's
 * first byte came (as a socket's snapshot is taken when it comes).
 * @returns {number} */
function bootPerf() {
  const nav = /** @type {PerformanceNavigationTiming|undefined} */ (performance.getEntriesByType("navigation")[0]);
  return nav && nav.responseStart > 0 ? nav.responseStart : performance.now();
}

/** The snapshot the server put in the page (#table-boot, docs/pages.md "The
 * clock before the link"): taken as the link's first snapshot is, before the
 * link answers; the link is not thereby open, and the kept queue waits for
 * the link's own snapshot to name the match. */
export function takeBoot() {
  const node = document.getElementById("table-boot");
  /** @type {Message|null} */
  let msg = null;
  try { msg = node ? JSON.parse(node.textContent || "null") : null; } catch (e) { msg = null; }
  if (msg && msg.type === "snapshot" && msg.state) onMessage(msg, true);
}

/** One message from the server (`boot`: the snapshot in the page, takeBoot).
 * @param {Message} msg @param {boolean} [boot] */
export function onMessage(msg, boot) {
  if (msg.table != null && msg.table !== tableId && msg.type !== "error") return;
  persist();   // once this message is handled (an ack takes a command off the kept queue)
  switch (msg.type) {
    case "snapshot":
      if (boot && !bootAdds(msg)) break;
      if (!boot) {
        checkRestored(msg.info);
        settleRestored();
      }
      app.anchor = { ms: msg.state.at_ms, perf: boot ? bootPerf() : performance.now() };
      if (app.engine && msg.seq < app.engine.seq) app.engine = null;   // a log that went back: start over
      takeInfo(msg.info);
      setState(msg.state, msg.seq, msg.info, app.anchor.perf);
      syncEngine(msg.info, msg.seq);
      keeper.render(msg.info);
      break;
    case "update":
      if (app.seq != null && msg.seq <= app.seq) return;          // already seen
      if (app.seq != null && msg.seq > app.seq + 1) { conn.sendRaw({ type: "sync", v: 1 }); return; }
      confirmEvent(msg.seq, msg.event);
      setState(msg.state, msg.seq);
      break;
    case "expiry":
      setState(msg.state, null);
      break;
    case "table":
      app.info = msg.info;
      takeInfo(msg.info);
      syncEngine(msg.info, msg.info && msg.info.seq);
      keeper.render(msg.info);
      ui.render();
      break;
    case "summon": {
      const nm = names();
      app.summoned = { why: msg.why, side: msg.side, seq: msg.seq };
      ui.render();
      toastSummon(msg, nm);
      break;
    }
    case "welcome":
      // a server that started again since this page (or its stored record) last saw it
      if (typeof msg.started_ms === "number") {
        if (app.serverStarted != null && msg.started_ms !== app.serverStarted) app.restarted = true;
        app.serverStarted = msg.started_ms;
      }
      break;
    case "ack":
      noteOutcome(msg);
      settleRestored();
      ui.status(conn.status);
      if (msg.id) app.sides.delete(msg.id);
      // the seq each of this page's commands was stored as (bench/web_latency.py reads it)
      if (msg.id && !msg.noop && msg.seq != null && app.presses.some((p) => p[1] === msg.id)) app.confirmed[msg.id] = msg.seq;
      if (app.engine && msg.id) {
        if (msg.noop) app.engine.drop(msg.id); else app.engine.acked(msg.id, msg.seq);
      }
      if (app.hits.some((h) => h.id === msg.id)) {
        app.confirmed[msg.id] = msg.seq;
        if (app.seq != null && msg.seq <= app.seq) app.hits = app.hits.filter((h) => h.id !== msg.id);
      }
      break;
    case "keep_pending":
    case "keep_asked":
    case "keep_granted":
    case "keep_refused":
      keeper.onMessage(msg);   // a request for the table's time (timekeeper.js)
      break;
    case "error":
      if (msg.retrying) {   // refused for the moment: kept and sent again (kit/link.js)
        ui.status(conn.status);
        if (performance.now() - retryToldAt > RETRY_TOLD_MS) {
          retryToldAt = performance.now();
          ui.toast(t("conn.retry"));
        }
        break;
      }
      noteOutcome(msg);
      settleRestored();
      ui.status(conn.status);
      if (msg.id) app.hits = app.hits.filter((h) => h.id !== msg.id);
      if (msg.id && app.engine) app.engine.drop(msg.id);
      if (msg.code === "unauthorized") { ui.status("unauthorized"); break; }
      if (msg.code === "closed" || msg.code === "decided") app.closed = true;
      ui.toast(msg.refusal ? t("err.illegal", { m: I18N.refusal(msg) })
        : msg.code === "illegal" ? t("err.illegal", { m: msg.message }) : msg.message, msg.id ? app.sides.get(msg.id) : null);
      if (msg.id) app.sides.delete(msg.id);
      ui.render();
      break;
  }
}

/** Who called the director, and why. @param {Message} msg @param {{A: string, B: string}} nm */
function toastSummon(msg, nm) {
  /** @type {import("../kit/types.js").Side} */
  const side = msg.side === "B" ? "B" : "A";
  ui.toast(msg.why === "premature"
    ? t("summon.premature", { a: nm[side], b: nm[other(side)] })
    : t("summon.sent", { name: nm[side] }));
}
