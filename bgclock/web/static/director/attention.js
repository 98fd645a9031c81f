// @ts-check
/* bgclock dashboard: what a table needs from the director now (its alerts),
 * read from its state, its info and the summonses. */
import { breakUsed } from "../engine/countdown.js";
import { fmtClock } from "../kit/format.js";
import { t } from "../kit/i18n.js";
import { SIDES, app, isHandling, names, other } from "./state.js";

/** @typedef {import("./state.js").Row} Row */
/** @typedef {import("./state.js").Alert} Alert */
/** @typedef {import("./state.js").NewAlert} NewAlert */

/* ---------------------------------------------------------- alerts */
/* What a table needs from the director now: [{kind, key, text, premature?}]. */
/** @param {Row} row @returns {Alert[]} */
export function alertsOf(row) {
  /** @type {NewAlert[]} */
  const out = [];
  const s = row.state, info = row.info;
  if (!s) return [];
  // the director entered this match's result by hand and closed the table:
  // its stop is theirs, nothing to handle (a late clock result is a clash)
  if (info.hand_result) return [];
  /** @param {string} kind @param {string} [extra] */
  const add = (kind, extra) => out.push({ kind: kind, key: info.id + ":" + kind + ":" + (row.seq || 0), text: t("alert." + kind) + (extra ? " — " + extra : "") });
  // the server sends `table` when the attention ends (the next accepted command)
  if (info.attention === "restart") add("restart");
  // the table's log cannot be replayed: it takes no commands until the director acts
  if (info.quarantined) add("quarantined", info.quarantined);
  // Summonses: a premature-action claim stays until handled (or confirmed);
  // a call or a dispute lasts while nothing has happened at the table since.
  const notes = Object.values(app.summons[info.id] || {}).sort((a, b) => a.n - b.n);
  const nm = names(row);
  /** @type {Object<string, boolean>} */
  const explained = { director: false, dispute: false };
  for (const x of notes) {
    const key = info.id + ":summon:" + x.n;
    if (x.why === "premature") {
      if (x.seq === row.seq) explained.director = true;
      out.push({ kind: "premature", key: key, premature: other(x.side),
        text: t("alert.premature_by", { a: nm[x.side], b: nm[other(x.side)] }) });
    } else if (x.seq === row.seq) {
      explained[x.why] = true;
      out.push({ kind: x.why, key: key, text: t("alw." + x.why, { name: nm[x.side] }) });
    }
  }
  if (s.phase === "stopped" && s.stopped_reason === "director" && !explained.director) add("director");
  if (s.phase === "stopped" && s.stopped_reason === "dispute" && !explained.dispute) add("dispute");
  // in words: who and what
  /** @param {string} kind @param {string} text */
  const say = (kind, text) => out.push({ kind: kind, key: info.id + ":" + kind + ":" + (row.seq || 0), text: text });
  if (s.phase === "dispute" && s.dispute === "time_expired") {
    say("dispute_expiry", t("alw.expiry", { name: nm[s.on_turn || "A"] }));
  } else if (s.phase === "dispute" && s.offer) {
    say("dispute", t("alw.reject." + s.offer.kind, { a: nm[other(s.offer.side)], b: nm[s.offer.side], r: t("result." + s.offer.result) }));
  } else if (s.phase === "dispute") add("dispute");
  // USBGF overtime option: a first expiry stopped the clocks and granted the overtime.
  const turn = s.on_turn;
  const overtime = s.phase === "stopped" && s.stopped_reason === "time_expired" && !!turn &&
    s[turn].overtime && !s[turn].expired;
  if (overtime && turn) {
    out.push({ kind: "overtime", key: info.id + ":overtime:" + turn, badge: t("half.overtime"),
      text: t("alert.overtime", { side: nm[turn] }) });
  }
  // a flag worked out while the timekeeper is away is no result yet: the
  // director confirms it by marking it handled (protocol: Provisional flags)
  if (info.provisional) {
    const k = (info.link && info.link.keeper_name) || "";
    out.push({ kind: "provisional", key: info.provisional.key,
      text: t("alw.provisional", { name: nm[info.provisional.side || "A"], k: k }) });
  }
  // a commit the database refused: the table reloaded from the database and
  // goes on (docs/protocol.md "storage"); the last presses were sent again
  if (info.reloaded) {
    out.push({ kind: "reloaded", key: info.id + ":reloaded:" + info.reloaded.at_ms,
      text: t("alw.reloaded", { seq: info.reloaded.seq }) });
  }
  if (info.conflict) {
    const c = info.conflict;
    out.push({ kind: "result_conflict", key: info.id + ":result_conflict:" + c.told.winner + (c.final ? c.final.winner : "0"),
      text: t("alw.result_conflict", { told: nm[c.told.winner], final: c.final ? nm[c.final.winner] : t("alw.playing") }) });
  }
  const flagged = SIDES.filter((x) => s[x].expired);
  if (!info.provisional && s.phase !== "dispute" && (flagged.length || (s.phase === "match_over" && s.stopped_reason === "time_expired") ||
      (s.phase === "stopped" && s.stopped_reason === "time_expired" && !overtime))) {
    say("flag", flagged.length ? t("alw.flag", { name: flagged.map((x) => nm[x]).join(", ") }) : t("alert.flag"));
  }
  if (s.phase === "break" && s.break && s.break.limit_ms != null) {
    const used = breakUsed(s, performance.now() - row.recvAt);
    if (used > s.break.limit_ms) {
      say("break_over", t("alw.break_over", { name: nm[s.break.side], limit: fmtClock(s.break.limit_ms), t: fmtClock(used - s.break.limit_ms) }));
      out[out.length - 1].overrun = { side: s.break.side, ms: used - s.break.limit_ms };
      out[out.length - 1].key = info.id + ":break_over:" + s.break.started_ms;
    }
  }
  const now = performance.now();
  for (const a of out) {
    a.table = info.id;
    if (!app.alertSince.has(a.key)) app.alertSince.set(a.key, now);
    a.since = app.alertSince.get(a.key);
  }
  return /** @type {Alert[]} */ (out).filter((a) => !app.handled.has(a.key) && !isHandling(a.key));
}
