// @ts-check
/* bgclock: the director's dashboard.
 *
 * Every open table live (one WebSocket, hello with the director's key), the
 * alerts that need the director (they stay until the table's state no longer
 * calls for them, or the director marks them handled: the server keeps which
 * are, for every dashboard; protocol `handle`, `handled`), one table in detail
 * with its log and the director's commands (each confirmed), and the forms
 * that create tournaments and tables. */
import "./dir-strings.js";
import "./timekeeper-strings.js";
import { openConfirm } from "./kit/confirm.js";
import { modeOf, viewAt } from "./engine/countdown.js";
import { byId, el, inputEl, readPresets, selectEl } from "./kit/dom.js";
import { api } from "./kit/api.js";
import { fmtClock, fmtShort, fmtSigned, parseClock } from "./kit/format.js";
import { I18N, t } from "./kit/i18n.js";
import { Connection, wsUrl } from "./kit/link.js";
import { beep, unlockAudio } from "./kit/sound.js";
import { rulingName } from "./rulings.js";
import { sortAlerts, confirmId, stableId } from "./alerts.js";
import { drawBoard, emptyBoard, place } from "./board.js";
import { setClockPlan, previewText } from "./setclock.js";

(function () {
  "use strict";
  const params = new URLSearchParams(location.search);
  const key = params.get("key");
  const presets = readPresets();
  /** @type {readonly import("./kit/types.js").Side[]} */
  const SIDES = ["A", "B"];
  const $ = byId;
  /** A form's field. @param {string} id @returns {HTMLInputElement} */
  const input = (id) => /** @type {HTMLInputElement} */ ($(id));
  /** A dialog of the page. @param {string} id @returns {HTMLDialogElement} */
  const dialog = (id) => /** @type {HTMLDialogElement} */ ($(id));
  /** A caught error's words. @param {unknown} e @returns {string} */
  const errText = (e) => String(e instanceof Error ? e.message : e);

  /** @typedef {import("./kit/types.js").Side} Side */
  /** @typedef {import("./kit/types.js").WireState} WireState */
  /** @typedef {import("./kit/types.js").TableInfo} TableInfo */
  /** @typedef {import("./kit/types.js").Message} Message */
  /** A table as the dashboard holds it.
   * @typedef {{info: TableInfo, state: WireState|null, seq: number|null, recvAt: number,
   *   url?: string, token?: string}} Row */
  /** What a table needs from the director (alerts.js orders them).
   * @typedef {{kind: string, key: string, text: string, premature?: Side, badge?: string,
   *   overrun?: {side: string, ms: number}}} AlertFields */
  /** @typedef {AlertFields & {table?: number, since?: number}} NewAlert */
  /** @typedef {AlertFields & import("./alerts.js").Alert} Alert */

  const app = {
    /** @type {Object<string, any>} id -> tournament (with tables' info from HTTP) */
    tournaments: {},
    /** @type {Object<string, Row>} id -> the table */
    tables: {},
    /** @type {number|null} */
    selected: null,
    /** @type {Set<string>} alert keys handled, as the server says (every dashboard the same) */
    handled: new Set(),
    /** @type {Object<string, string>} handle message id -> alert key, sent and not yet answered */
    handling: {},
    /** @type {{table: number|null, events: any[], notes: any[]}} */
    log: { table: null, events: [], notes: [] },
    /** @type {{text: string, cmds: any[], handles?: string|null}|null} waiting for the director's confirmation */
    confirm: null,
    result: "",           // last command's outcome
    resultErr: false,
    /** @type {Set<string>} */
    alertsSeen: new Set(),
    /** @type {Map<string, number>} alert key -> when it first appeared (ordering within a rank) */
    alertSince: new Map(),
    /** @type {number|null} the table the form edits (null: the form creates one) */
    editing: null,
    /** @type {Object<string, Object<string, Message>>} table id -> {n: summon message}: who called the director, and why */
    summons: {},
    /** @type {{table: number, busy?: boolean, error?: string|null, out?: any}|null} the board engine's suggested ruling on a dispute */
    suggest: null,
    /** @type {{table: number, board?: any, error?: string}|null} the position shown */
    board: null,
    /** @type {any} the position being entered */
    boardEdit: null,
    /** @type {(() => void)|null} the "set clock" preview, read again on every frame */
    setPreview: null
  };

  /* ------------------------------------------------------------- HTTP (kit/api.js) */
  async function loadTournaments() {
    const list = await api("GET", "/api/tournaments");
    for (const tn of list.tournaments) {
      const full = await api("GET", "/api/tournaments/" + tn.id);
      app.tournaments[tn.id] = full;
      for (const info of full.tables) mergeInfo(info);
    }
    render();
  }
  /** What HTTP or a `table` message says of a table. @param {TableInfo} info */
  function mergeInfo(info) {
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
  const conn = new Connection({
    url: wsUrl(), prefix: "dir-",
    hello: () => {
      /** @type {Object<string, number>} */
      const since = {};
      for (const id in app.tables) if (app.tables[id].seq != null) since[id] = app.tables[id].seq;
      return { type: "hello", v: 1, key: key, since: since };
    },
    onMessage: onMessage,
    onStatus: renderConn
  });

  /** One message from the server. @param {Message} msg */
  function onMessage(msg) {
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
        if (app.selected === msg.table) refreshLog();
        break;
      case "expiry":
        if (row) setState(msg.table, msg.state, null);
        break;
      case "table":
        mergeInfo(msg.info);
        if (!app.tournaments[msg.info.tournament_id]) loadTournaments().catch(() => {});
        if (!app.tables[msg.table].url) fetchLink(msg.table);
        render();
        break;
      case "summon":
        (app.summons[msg.table] = app.summons[msg.table] || {})[msg.n] = msg;
        if (app.selected === msg.table) refreshLog();
        render();
        break;
      case "handled":
        for (const k of msg.keys || []) app.handled.add(k);
        render();
        break;
      case "ack":
        settleConfirm(msg.id);
        if (app.handling[msg.id]) { delete app.handling[msg.id]; break; }  // its `handled` came first
        app.result = t("det.sent") + " ✓";
        renderDetail();
        break;
      case "error":
        settleConfirm(msg.id);
        if (app.handling[msg.id]) { delete app.handling[msg.id]; render(); }
        if (msg.code === "unauthorized") { unauthorized(); return; }
        app.result = t("det.refused", { m: msg.refusal ? I18N.refusal(msg) : msg.message });
        app.resultErr = true;
        renderDetail();
        break;
    }
  }
  /** @param {number} id @param {WireState} state @param {number|null} seq */
  function setState(id, state, seq) {
    const row = app.tables[id] || (app.tables[id] = { info: { id: id, players: ["A", "B"] }, state: null, seq: null, recvAt: 0 });
    row.state = state;
    if (seq != null) row.seq = seq;
    row.recvAt = performance.now();
    render();
  }
  /** @param {number} id */
  async function fetchLink(id) {
    try { const info = await api("GET", "/api/tables/" + id); mergeInfo(info); render(); } catch (e) { /* later */ }
  }
  function unauthorized() {
    conn.stopped = true;
    $("fatal").hidden = false;
    $("fatal").textContent = t("dir.unauthorized");
    renderConn("unauthorized");
  }

  /* ---------------------------------------------------------- alerts */
  /* What a table needs from the director now: [{kind, key, text, premature?}]. */
  /** @param {Row} row @returns {Alert[]} */
  function alertsOf(row) {
    /** @type {NewAlert[]} */
    const out = [];
    const s = row.state, info = row.info;
    if (!s) return [];
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
      const used = s.at_ms + (performance.now() - row.recvAt) - s.break.started_ms;
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
  /** @param {string} k @returns {boolean} */
  function isHandling(k) {
    for (const id in app.handling) if (app.handling[id] === k) return true;
    return false;
  }
  /* The director marks an alert handled: the server stores it and tells every
   * dashboard; this one hides it at once (and shows it again if the server refuses). */
  /** @param {Alert} a */
  function markHandled(a) {
    const id = conn.send({ table: a.table, key: a.key }, null, "handle", stableId("hd", [a.key]));
    app.handling[id] = a.key;
    render();
  }
  /* Under the table's first (largest) low-time warning. */
  /** @param {Row} row @param {number} ms @returns {boolean} */
  function isLow(row, ms) {
    const w = (row.info && row.info.warn_s) || [60];
    return w.length > 0 && ms > 0 && ms <= Math.max(...w) * 1000;
  }
  /** @param {string} x @returns {Side} */
  function sideOf(x) { return x === "B" ? "B" : "A"; }
  /** @param {string} x @returns {Side} */
  function other(x) { return x === "A" ? "B" : "A"; }
  /** The players' names by side. @param {Row} row @returns {Object<string, string>} */
  function names(row) {
    const p = (row.info && row.info.players) || ["A", "B"];
    return { A: p[0] || "A", B: p[1] || "B" };
  }
  /** @param {Row} row @returns {string} */
  function tableName(row) {
    const info = row.info;
    return shownName(info.name) || t("alw.table", { n: info.id });
  }
  /* The server names a tournament's tables in English ("Table 3 · Main R1",
   * "Table 2 · Swing R4", "Table 5 · Ann–Bob phase 3"): shown in the
   * director's language; a name the director typed is shown as typed. */
  /** @param {string|null|undefined} name @returns {string} */
  function shownName(name) {
    if (!name) return "";
    let m = /^Table (\d+) · (Main|Consolation|Swing) R(\d+)$/.exec(name);
    if (m) return t("tbl.round", { table: m[1], event: t("tbl.event." + m[2].toLowerCase()), n: m[3] });
    m = /^Table (\d+) · (.+) phase (\d+)$/.exec(name);
    if (m) return t("tbl.phase", { table: m[1], couples: m[2], n: m[3] });
    return name;
  }
  /* An alert's one-click fix: open the ruling, resume, or propose the break's penalty. */
  /** @param {Row} row @param {Alert} a @returns {HTMLElement|null} */
  function fixOf(row, a) {
    const id = row.info.id, n = names(row);
    if (a.kind === "flag" || a.kind === "dispute" || a.kind === "dispute_expiry") {
      return el("button", { type: "button", class: "go", "data-act": "fix-ruling", text: t("alw.fix_ruling"), onclick: () => {
        select(id);
        const act = document.getElementById("actions");
        if (act) act.scrollIntoView({ block: "start" });
      } });
    }
    if (a.kind === "director") {
      return el("button", { type: "button", class: "go", "data-act": "fix-resume", text: t("det.resume"), onclick: () => {
        select(id);
        askConfirm(t("det.resume") + " — " + title(row), [{ do: "resume" }], a.key);
      } });
    }
    if (a.kind === "break_over" && a.overrun) {
      const o = a.overrun;
      return el("button", { type: "button", class: "go", "data-act": "fix-break", text: t("alw.fix_break", { t: fmtClock(o.ms) }), onclick: () => {
        select(id);
        askConfirm(t("alw.fix_break_confirm", { name: n[o.side], t: fmtClock(o.ms) }),
          [{ do: "adjust", side: o.side, delta_ms: -o.ms }], a.key);
      } });
    }
    return null;
  }
  /** @param {Row} row @returns {string} */
  function title(row) {
    const n = names(row), info = row.info;
    return (info.name ? shownName(info.name) + " · " : "#" + info.id + " · ") + n.A + " – " + n.B;
  }

  /* --------------------------------------------------------- rendering */
  /** @param {string} status @param {number} [queued] */
  function renderConn(status, queued) {
    const c = $("conn");
    c.dataset.status = status;
    let text = t("conn." + status);
    if (queued && queued > 0 && status !== "online") text += " · " + t("conn.queued", { n: queued });
    const line = c.querySelector(".conn-text");
    if (line) line.textContent = text;
  }

  function render() {
    I18N.apply(document.body);
    renderConn(conn.status, conn.pending.length);
    renderAlerts();
    renderCards();
    renderDetail();
  }

  function renderAlerts() {
    const list = $("alert-list");
    list.replaceChildren();
    let n = 0;
    const all = [];
    for (const id of Object.keys(app.tables)) {
      const row = app.tables[id];
      if (row.info && row.info.status === "closed") continue;
      all.push(...alertsOf(row));
    }
    for (const a of /** @type {Alert[]} */ (sortAlerts(all))) {
      const id = String(a.table), row = app.tables[id];
      {
        n += 1;
        if (!app.alertsSeen.has(a.key)) { app.alertsSeen.add(a.key); beep(2, 120); }
        const premature = a.premature;
        const confirm = premature ? el("button", { type: "button", "data-act": "confirm-premature",
          text: t("dir.confirm_premature", { name: names(row)[premature] }),
          onclick: () => {
            select(Number(id));
            askConfirm(t("det.premature") + " " + names(row)[premature], [{ do: "premature", side: premature }], a.key);
          } }) : null;
        list.append(el("div", { class: "alert", "data-kind": a.kind, "data-table": id }, [
          el("span", { class: "grow", text: tableName(row) + ": " + a.text }),
          confirm || fixOf(row, a),
          el("button", { type: "button", "data-act": "open", text: t("dir.open"), onclick: () => select(Number(id)) }),
          el("button", { type: "button", "data-act": "handled", text: t("dir.ack"), onclick: () => markHandled(a) })
        ]));
      }
    }
    if (!n) list.append(el("p", { class: "hint", text: t("dir.no_alerts") }));
    $("alerts").classList.toggle("has", n > 0);
  }

  function renderCards() {
    const box = $("tournaments");
    box.replaceChildren();
    /** @type {Object<string, Row[]>} */
    const byT = {};
    for (const id in app.tables) {
      const row = app.tables[id], tid = (row.info && row.info.tournament_id) || 0;
      (byT[tid] = byT[tid] || []).push(row);
    }
    const tids = Object.keys(byT).sort((a, b) => Number(a) - Number(b));
    if (!tids.length) box.append(el("p", { class: "hint", text: t("dir.no_tables") }));
    for (const tid of tids) {
      const tn = app.tournaments[tid];
      const grid = el("div", { class: "grid" });
      box.append(el("div", { class: "tourn" }, [el("h3", { text: tn ? tn.name : "#" + tid }), grid]));
      for (const row of byT[tid].sort((a, b) => a.info.id - b.info.id)) grid.append(card(row));
    }
  }

  /** A table's card. @param {Row} row @returns {HTMLElement} */
  function card(row) {
    const s = row.state, n = names(row), id = row.info.id, alerts = alertsOf(row);
    const c = el("button", { type: "button", class: "card" + (app.selected === id ? " sel" : "") + (alerts.length ? " alerting" : ""),
      "data-table": id, onclick: () => select(id) });
    c.append(el("h3", {}, [el("span", { text: title(row) }), el("span", { text: s ? s.score[0] + "–" + s.score[1] + " /" + s.length : "" })]));
    if (s) {
      const times = el("div", { class: "times" });
      for (const side of SIDES) {
        const run = s[side].running && s.phase === "playing";
        const low = isLow(row, s[side].reserve_ms);
        times.append(el("span", { class: run ? "run" : "", text: side }), el("span", { class: run ? "run" : "", text: n[side] }),
          el("span", { class: "t" + (run ? " run" : "") + (low ? " low" : ""), "data-clock": id + side, "data-low": low ? "1" : null,
            text: fmtClock(s[side].reserve_ms) }));
      }
      c.append(times);
      let meta = t("phase." + s.phase);
      if (s.stopped_reason && s.phase === "stopped") meta += " · " + t("reason." + s.stopped_reason);
      meta += " · " + t("bar.cube") + " " + s.cube.value + (s.cube.owner ? " " + s.cube.owner : "");
      if (s.game) meta += " · " + t("bar.game", { n: s.game });
      c.append(el("div", { class: "meta", text: meta }));
    }
    const badges = el("div", { class: "badges" });
    if (row.info.rules) badges.append(el("span", { class: "badge rules", "data-badge": "rules", title: (presets[row.info.rules] || {}).title || "", text: row.info.rules }));
    // a win by a provisional flag is no result yet (protocol: Provisional flags)
    if (s && s.phase === "match_over" && s.winner) badges.append(el("span", { class: "badge winner", "data-badge": "winner",
      "data-provisional": row.info.provisional ? "1" : null,
      text: t("card.winner", { name: n[s.winner] }) + (row.info.provisional ? " · " + t("alert.provisional") : "") }));
    if (s) for (const side of SIDES) {
      if (s.phase !== "match_over" && !s[side].expired && isLow(row, s[side].reserve_ms)) {
        badges.append(el("span", { class: "badge low", "data-badge": "low-" + side, text: t("card.low", { name: n[side] }) }));
      }
    }
    if (s && s.crawford) badges.append(el("span", { class: "badge crawford", text: t("bar.crawford") }));
    if (row.info.status === "closed") badges.append(el("span", { class: "badge", text: t("alert.closed") }));
    // the table's device: offline since when, and what a reconnect reconciled (protocol: Device time)
    const link = row.info.link;
    if (link && row.info.status !== "closed") {
      // who keeps the table's time, and its outage whatever other devices are
      // connected (protocol: The timekeeper is a claim)
      if (link.keeper_device && link.state !== "offline") {
        badges.append(el("span", { class: "badge keeper", "data-badge": "keeper", "data-keeper": "online",
          text: t("card.keeper_by", { name: link.keeper_name }) }));
      }
      if (link.state === "offline" && link.offline_since_ms != null) {
        const since = Math.max(0, Date.now() - link.offline_since_ms);
        badges.append(el("span", { class: "badge offline", "data-badge": "offline", "data-keeper": link.keeper_device ? "offline" : null,
          text: link.keeper_device ? t("card.keeper_offline", { name: link.keeper_name, t: fmtClock(since) })
            : t("card.offline", { t: fmtClock(since) }) }));
        // the clocks shown are the server's estimate while the keeper is away
        if (link.keeper_device) badges.append(el("span", { class: "badge estimate", "data-badge": "estimate", text: t("card.estimate") }));
      } else if (link.reconciled && (link.reconciled.applied || link.reconciled.refused)
                 && Date.now() - link.reconciled.at_ms < 10 * 60000) {
        const r = link.reconciled;
        badges.append(el("span", { class: "badge reconciled", "data-badge": "reconciled",
          text: r.refused ? t("card.reconciled_refused", { n: r.applied, r: r.refused }) : t("card.reconciled", { n: r.applied }) }));
      }
    }
    for (const a of alerts) badges.append(el("span", { class: "badge alert-b", "data-alert": a.kind, text: "⚠ " + (a.badge || t("alert." + a.kind)) }));
    c.append(badges);
    return c;
  }

  /** Open table `id`'s detail. @param {number} id */
  function select(id) {
    app.selected = id;
    app.confirm = null;
    app.result = "";
    app.suggest = null;
    app.log = { table: id, events: [], notes: [] };
    refreshLog();
    render();
    if (window.innerWidth < 1100) $("detail").scrollIntoView({ block: "start" });
  }
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let logTimer;
  function refreshLog() {
    clearTimeout(logTimer);
    logTimer = setTimeout(async () => {
      const id = app.selected;
      if (id == null) return;
      try {
        const data = await api("GET", "/api/tables/" + id + "/log.json");
        if (app.selected === id) { app.log = { table: id, events: data.events || [], notes: data.notes || [] }; renderLog(); }
      } catch (e) { /* shown next time */ }
    }, 80);
  }

  /* The director's commands: each needs a confirmation, in a dialog (confirm.js)
   * whose Confirm button is away from the opener and deaf for a moment. */
  /* handles: an alert's key, marked handled by the server with the accepted
   * command (`handles`, in the same commit), for every dashboard; the
   * commands of an alert's fix and the rulings have ids derived from what
   * they settle (alerts.js confirmId), so a confirmation sent from two
   * dashboards, or twice, is applied once;
   * send: instead of commands, an HTTP request (closing a table). */
  /** @type {{x: number, y: number, target: EventTarget|null}|null} */
  let lastClick = null;
  document.addEventListener("click", (e) => { lastClick = { x: e.clientX, y: e.clientY, target: e.target }; }, true);
  /** @type {{ids: Set<string>, done: (() => void)|null}} */
  const inFlight = { ids: new Set(), done: null };
  /** @param {string} id */
  function settleConfirm(id) {
    if (!inFlight.ids.delete(id) || inFlight.ids.size || !inFlight.done) return;
    const done = inFlight.done;
    inFlight.done = null;
    done();
  }
  /** @param {string} text @param {Object<string, any>[]} cmds @param {string|null} [handles]
   * @param {() => Promise<unknown>} [send] */
  function askConfirm(text, cmds, handles, send) {
    app.confirm = { text: text, cmds: cmds, handles: handles };
    app.result = "";
    const opener = lastClick && lastClick.target instanceof Element ? lastClick.target.closest("button") : null;
    openConfirm({ text: t("det.confirm", { what: text }), confirmLabel: t("act.confirm"), cancelLabel: t("act.cancel"),
      busyLabel: t("dir.sending"), opener: opener, point: lastClick,
      onConfirm: send || (() => app.selected != null ? doConfirmed(app.selected, cmds, handles) : null) });
    renderDetail();
  }
  /* Send the commands; settles when every one has its ack or error (or after 8 s: queued offline). */
  /** @param {number} table @param {Object<string, any>[]} cmds @param {string|null} [handles] @returns {Promise<void>} */
  function doConfirmed(table, cmds, handles) {
    app.confirm = null;
    app.resultErr = false;
    return new Promise((/** @type {(value?: void) => void} */ resolve) => {
      inFlight.ids = new Set();
      inFlight.done = resolve;
      const row = app.tables[table], seq = row ? row.seq : null;
      cmds.forEach((cmd, i) => {
        const last = i === cmds.length - 1;
        const fields = Object.assign({ table: table }, cmd, handles && last ? { handles: handles } : {});
        const id = conn.send(fields, null, "cmd", confirmId(/** @type {{do: string}} */ (cmd), { table: table, seq: seq, handles: handles || null, index: i }) || undefined);
        inFlight.ids.add(id);
      });
      if (!inFlight.ids.size) resolve();
      setTimeout(resolve, 8000);
      renderDetail();
    });
  }
  function closeDetail() {
    app.selected = null;
    app.suggest = null;
    render();
  }
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || document.querySelector("dialog[open]") || app.selected == null) return;
    closeDetail();
  });

  /** The selected table's detail. */
  function renderDetail() {
    const d = $("detail"), id = app.selected, row = id != null ? app.tables[id] : null;
    $("main").classList.toggle("detail-open", !!row);
    d.hidden = !row;
    if (!row) return;
    // keep what the director is typing
    /** @type {Object<string, string>} */
    const keep = {};
    d.querySelectorAll("input, select").forEach((i) => { keep[i.id] = /** @type {HTMLInputElement} */ (i).value; });
    d.replaceChildren();
    const s = row.state, n = names(row), info = row.info;
    d.append(el("div", { class: "detail-head" }, [el("h2", { text: title(row) }),
      el("button", { type: "button", class: "close-detail", "data-act": "close-detail", "aria-label": t("dir.close_detail"),
        title: t("dir.close_detail"), text: "✕", onclick: closeDetail })]));
    d.append(el("p", { class: "meta", text: [info.rules, t("bar.to", { n: info.length }), info.teams ? t("form.teams") : "",
      s ? t("bar.score") + " " + s.score[0] + "–" + s.score[1] : "", s ? t("bar.cube") + " " + s.cube.value + (s.cube.owner ? " " + n[s.cube.owner] : "") : "",
      s && s.crawford ? t("bar.crawford") : "", s && s.cube_frozen ? t("bar.frozen") : "",
      s ? t("phase." + s.phase) + (s.stopped_reason ? " (" + t("reason." + s.stopped_reason) + ")" : "") : ""].filter(Boolean).join(" · ") }));
    if (s) {
      const clocks = el("div", { class: "clocks" });
      for (const side of SIDES) {
        const run = s[side].running && s.phase === "playing";
        clocks.append(el("div", { class: "clock" + (run ? " run" : "") + (s[side].expired ? " exp" : ""), "data-side": side }, [
          el("div", { text: side + " · " + n[side] + (s[side].expired ? " ⚑" : "") }),
          el("div", { class: "t", "data-clock": "detail" + side, text: fmtClock(s[side].reserve_ms) }),
          el("div", { class: "hint", "data-delay": "detail" + side, text: fmtShort(s[side].delay_ms) + (s[side].forfeit_delay ? " ✗" : "") })
        ]));
      }
      d.append(clocks);
    }
    d.append(actions(row, s, n));
    // link and QR code
    const url = row.url || "";
    d.append(el("fieldset", {}, [el("legend", { text: t("det.link") }),
      el("div", { class: "row" }, [
        el("img", { class: "qr", alt: t("det.qr"), src: "/api/tables/" + id + "/qr.svg?key=" + encodeURIComponent(key || "") }),
        el("div", { class: "linkbox" }, [url ? el("a", { href: url, target: "_blank", rel: "noopener", id: "table-link", text: url }) : null])])]));
    d.append(el("p", {}, [el("a", { href: "/api/tables/" + id + "/report.html?key=" + encodeURIComponent(key || "") + "&lang=" + I18N.lang, target: "_blank",
      rel: "noopener", id: "sheet-link", text: t("det.sheet") })]));
    d.append(el("fieldset", {}, [el("legend", { text: t("det.log") }), el("div", { class: "log-wrap", id: "log-wrap" })]));
    renderLog();
    d.querySelectorAll("input, select").forEach((i) => { if (keep[i.id] !== undefined) /** @type {HTMLInputElement} */ (i).value = keep[i.id]; });
  }

  /** The director's commands. @param {Row} row @param {WireState|null} s @param {Object<string, string>} n @returns {HTMLElement} */
  function actions(row, s, n) {
    const box = el("fieldset", { id: "actions" }, [el("legend", { text: t("det.actions") })]);
    box.append(el("p", { class: "msg" + (app.resultErr ? " err" : ""), id: "result", text: app.result }));
    if (!s) return box;
    /** @param {string} label @param {string} act @param {string} text @param {() => Object<string, any>[]} cmds */
    const btn = (label, act, text, cmds) => el("button", { type: "button", "data-act": act, text: label, onclick: () => askConfirm(text, cmds()) });
    /** @param {string} idn */
    const sideSel = (idn) => selectEl({ id: idn, "aria-label": t("dir.side") }, SIDES.map((x) => el("option", { value: x, text: x + " · " + n[x] })));
    const ph = s.phase;
    const row1 = el("div", { class: "row" });
    if (ph === "stopped" || ph === "break") row1.append(btn(t("det.resume"), "resume", t("det.resume"), () => [{ do: "resume" }]));
    if (ph === "playing") row1.append(btn(t("det.stop"), "stop", t("det.stop"), () => [{ do: "stop", side: s.on_turn || "A", reason: "director" }]));
    if (row1.childNodes.length) box.append(row1);
    if (ph === "dispute") {
      const r = el("div", { class: "row" }, [el("strong", { text: t("det.ruling") + ":" })]);
      /** @param {string} decision @param {string} [res] */
      const named = (decision, res) => rulingName(/** @type {import("./rulings.js").TableState} */ (s), n, decision, res, t);
      if (s.dispute === "time_expired") {
        for (const res of ["single", "gammon", "backgammon"]) {
          const label = named("gin", res);
          r.append(btn(label, "ruling-gin-" + res, t("det.ruling") + ": " + label, () => [{ do: "ruling", decision: "gin", result: res }]));
        }
        r.append(btn(named("lost"), "ruling-lost", t("det.ruling") + ": " + named("lost"), () => [{ do: "ruling", decision: "lost" }]));
      } else {
        r.append(btn(named("accept"), "ruling-accept", t("det.ruling") + ": " + named("accept"), () => [{ do: "ruling", decision: "accept" }]));
        r.append(btn(named("invalid"), "ruling-invalid", t("det.ruling") + ": " + named("invalid"), () => [{ do: "ruling", decision: "invalid" }]));
      }
      box.append(r);
      box.append(suggestBox(row, s, n));
    }
    if (ph !== "match_over") {
      // adjust, move time
      const amount = inputEl({ id: "adj-amount", size: 6, placeholder: "0:30", "aria-label": t("det.amount") });
      const adjSide = sideSel("adj-side");
      const amountMs = () => parseClock(amount.value);
      /** @param {number} sign */
      const adjust = (sign) => () => {
        const ms = amountMs();
        if (!ms) { app.result = t("det.amount"); app.resultErr = true; renderDetail(); return; }
        const side = adjSide.value;
        askConfirm(t("det.adjust") + " " + side + " " + fmtSigned(sign * ms), [{ do: "adjust", side: side, delta_ms: sign * ms }]);
      };
      box.append(el("div", { class: "row" }, [el("strong", { text: t("det.adjust") + ":" }), adjSide, amount,
        el("button", { type: "button", "data-act": "adjust-add", text: t("det.add"), onclick: adjust(1) }),
        el("button", { type: "button", "data-act": "adjust-remove", text: t("det.remove"), onclick: adjust(-1) })]));
      box.append(setClockRow(row, s, n));
      /** @param {Side} from */
      const move = (from) => () => {
        const ms = amountMs(), to = from === "A" ? "B" : "A";
        if (!ms) { app.result = t("det.amount"); app.resultErr = true; renderDetail(); return; }
        askConfirm(t("det.move") + " " + fmtClock(ms) + " " + t("det.move_from", { a: n[from], b: n[to] }),
          [{ do: "adjust", side: from, delta_ms: -ms }, { do: "adjust", side: to, delta_ms: ms }]);
      };
      box.append(el("div", { class: "row" }, [el("strong", { text: t("det.move") + ":" }),
        el("button", { type: "button", "data-act": "move-AB", text: t("det.move_from", { a: "A", b: "B" }), onclick: move("A") }),
        el("button", { type: "button", "data-act": "move-BA", text: t("det.move_from", { a: "B", b: "A" }), onclick: move("B") })]));
      // penalty points
      const penSide = sideSel("pen-side");
      const pts = inputEl({ id: "pen-points", type: "number", min: 1, value: 1, style: "width: 4em", "aria-label": t("det.points") });
      box.append(el("div", { class: "row" }, [el("strong", { text: t("det.penalty") + ":" }), penSide, pts,
        el("button", { type: "button", "data-act": "penalty", text: t("det.penalty"), onclick: () => {
          const p = parseInt(pts.value, 10);
          askConfirm(t("det.penalty") + ": " + p + " → " + n[penSide.value], [{ do: "penalty", side: penSide.value, points: p }]);
        } })]));
    }
    if (ph === "playing" || ph === "stopped") {
      const r = el("div", { class: "row" }, [el("strong", { text: t("det.premature") + ":" })]);
      for (const side of SIDES) r.append(btn(n[side], "premature-" + side, t("det.premature") + " " + n[side], () => [{ do: "premature", side: side }]));
      box.append(r);
    }
    if (ph === "setup") {
      const r = el("div", { class: "row" }, [el("strong", { text: t("det.late_start") + ":" })]);
      for (const side of SIDES) r.append(btn(n[side], "late_start-" + side, t("det.late_start") + " " + n[side], () => [{ do: "late_start", side: side }]));
      box.append(r);
      const p = s.rules ? presets[s.rules] : null;
      if (!p || p.mid_game_start) {
        const r2 = el("div", { class: "row" }, [el("strong", { text: t("det.start") + ":" })]);
        for (const side of SIDES) r2.append(btn(n[side], "start-" + side, t("det.start") + " " + n[side], () => [{ do: "start", side: side }]));
        box.append(r2);
      }
    }
    if (row.info.status !== "closed" && row.seq === 0) {
      box.append(el("div", { class: "row" }, [el("button", { type: "button", "data-act": "edit-table", text: t("det.edit_table"),
        onclick: () => openTableForm(row.info) })]));
    }
    if (row.info.status !== "closed") {
      box.append(el("div", { class: "row" }, [el("button", { type: "button", "data-act": "close-table", text: t("det.close_table"),
        onclick: () => askConfirm(t("det.close_table"), [], null, async () => {
          app.confirm = null;
          try { mergeInfo(await api("POST", "/api/tables/" + row.info.id + "/close")); } catch (e) { app.result = errText(e); }
          render();
        }) })]));
    }
    return box;
  }

  /* The position as a board: shown from the typed ID (GET /api/position), or entered
   * by clicks on an empty board and written as a Position ID (POST /api/position). */
  /** @param {number} id */
  async function showBoard(id) {
    const field = /** @type {HTMLInputElement|null} */ (document.getElementById("sugg-position"));
    const text = (field && field.value) || "";
    try { app.board = { table: id, board: await api("GET", "/api/position?id=" + encodeURIComponent(text.trim())) }; }
    catch (e) { app.board = { table: id, error: errText(e) }; }
    renderDetail();
  }
  /** @param {number} id */
  async function makeId(id) {
    const ed = app.boardEdit;
    try {
      const out = await api("POST", "/api/position", { on_roll: { points: ed.board.on_roll.points, bar: ed.board.on_roll.bar },
        opponent: { points: ed.board.opponent.points, bar: ed.board.opponent.bar }, dice: ed.board.dice });
      ed.out = out; ed.error = null;
      const pos = /** @type {HTMLInputElement|null} */ (document.getElementById("sugg-position"));
      if (pos) pos.value = out.position_id;
    } catch (e) { ed.error = errText(e); ed.out = null; }
    if (app.selected === id) renderDetail();
  }
  /** @param {Row} row @param {WireState} s @param {Object<string, string>} n @returns {HTMLElement} */
  function boardBox(row, s, n) {
    const id = row.info.id;
    /** @type {Object<string, string>} */
    const who = { on_roll: n[s.on_turn || ""] || t("brd.on_roll"), opponent: n[other(s.on_turn || "A")] || t("brd.opponent") };
    const box = el("div", { class: "board-box", id: "board-box" });
    const ed = app.boardEdit && app.boardEdit.table === id ? app.boardEdit : null;
    box.append(el("div", { class: "row" }, [
      el("button", { type: "button", "data-act": "show-board", text: t("brd.show"), onclick: () => showBoard(id) }),
      el("button", { type: "button", "data-act": "enter-board", text: ed ? t("brd.close_editor") : t("brd.enter"), onclick: () => {
        app.boardEdit = ed ? null : { table: id, board: emptyBoard(), who: "on_roll", remove: false };
        renderDetail();
      } })]));
    const shown = app.board && app.board.table === id ? app.board : null;
    if (shown && !ed) {
      if (shown.error) box.append(el("p", { class: "msg err", id: "board-error", text: shown.error }));
      else {
        const wrap = el("div", { class: "board-view", id: "board-view" });
        wrap.append(drawBoard(shown.board));
        wrap.append(el("p", { class: "hint", text: t("brd.legend", { me: who.on_roll, them: who.opponent }) }));
        box.append(wrap);
      }
    }
    if (!ed) return box;
    const b = ed.board;
    const sideSel = selectEl({ id: "be-side", onchange: (e) => { ed.who = /** @type {HTMLSelectElement} */ (e.target).value; } }, ["on_roll", "opponent"].map((x) =>
      el("option", { value: x, text: t("brd.side." + x, { name: who[x] }), selected: ed.who === x ? "selected" : null })));
    const remove = inputEl({ type: "checkbox", id: "be-remove", onchange: (e) => { ed.remove = /** @type {HTMLInputElement} */ (e.target).checked; } });
    remove.checked = ed.remove;
    /** @param {number} i */
    const die = (i) => selectEl({ id: "be-d" + i, "aria-label": t("brd.die"), onchange: (e) => {
      const d = b.dice || [0, 0];
      d[i - 1] = Number(/** @type {HTMLSelectElement} */ (e.target).value);
      b.dice = d[0] && d[1] ? d : (d[0] || d[1] ? d : null);
    } }, ["—", 1, 2, 3, 4, 5, 6].map((v, k) => el("option", { value: k, text: String(v),
      selected: b.dice && b.dice[i - 1] === k ? "selected" : null })));
    const editor = el("div", { class: "board-editor", id: "board-editor" }, [
      el("div", { class: "row" }, [sideSel, el("label", {}, [remove, " " + t("brd.remove")]),
        el("span", { text: t("brd.dice") }), die(1), die(2),
        el("button", { type: "button", class: "go", "data-act": "make-id", text: t("brd.make"), onclick: () => {
          if (b.dice && !(b.dice[0] && b.dice[1])) { ed.error = t("brd.both_dice"); renderDetail(); return; }
          makeId(id);
        } }),
        el("button", { type: "button", "data-act": "clear-board", text: t("brd.clear"), onclick: () => { ed.board = emptyBoard(); ed.out = null; renderDetail(); } })]),
      drawBoard(b, { onPoint: (p, ev) => {
        const minus = ed.remove || ev.type === "contextmenu";
        if (place(b, ed.who, p, minus ? -1 : 1)) { ed.out = null; renderDetail(); }
      } }),
      el("p", { class: "hint", text: t("brd.help", { me: who.on_roll, them: who.opponent, a: 15 - b.on_roll.off, b: 15 - b.opponent.off }) })]);
    if (ed.out) editor.append(el("p", {}, [el("strong", { text: t("brd.made") + " " }), el("code", { id: "be-id", text: ed.out.position_id }),
      el("span", { class: "hint", text: " · " + ed.out.xgid })]));
    if (ed.error) editor.append(el("p", { class: "msg err", id: "be-error", text: ed.error }));
    box.append(editor);
    return box;
  }

  /* "Set clock to m:ss": the delta is computed from the reserve when the command is sent. */
  /** @param {Row} row @param {Side} side @returns {number} */
  function reserveNow(row, side) {
    const s = row.state;
    if (!s) return 0;
    if (s.phase !== "playing" || !s[side].running) return s[side].reserve_ms;
    return viewAt(s, modeOf(s, row.info, presets), performance.now() - row.recvAt)[side].reserve_ms;
  }
  /** @param {Row} row @param {WireState} s @param {Object<string, string>} n @returns {HTMLElement} */
  function setClockRow(row, s, n) {
    const side = selectEl({ id: "set-side", "aria-label": t("dir.side") }, SIDES.map((x) => el("option", { value: x, text: x + " · " + n[x] })));
    const to = inputEl({ id: "set-to", size: 6, placeholder: "5:00", autocomplete: "off", "aria-label": t("set.title") });
    const preview = el("span", { class: "set-preview", id: "set-preview", "aria-live": "polite" });
    const warn = el("span", { class: "msg err set-warn", id: "set-warn" });
    const show = () => {
      const ms = to.value.trim() ? parseClock(to.value) : null;
      if (ms == null) { preview.textContent = to.value.trim() ? t("set.bad") : ""; warn.textContent = ""; return; }
      const plan = setClockPlan(reserveNow(row, sideOf(side.value)), ms);
      preview.textContent = previewText(side.value, plan, fmtClock);
      warn.textContent = plan.flags ? t("set.flags", { name: n[side.value] }) : "";
    };
    to.addEventListener("input", show);
    side.addEventListener("change", show);
    app.setPreview = show;
    const go = el("button", { type: "button", "data-act": "set-clock", text: t("set.go"), onclick: () => {
      const ms = parseClock(to.value);
      if (ms == null) { app.result = t("set.bad"); app.resultErr = true; renderDetail(); return; }
      const x = sideOf(side.value), plan = setClockPlan(reserveNow(row, x), ms);
      const tableId = row.info.id;
      askConfirm(t("set.title") + " " + previewText(x, plan, fmtClock) + (plan.flags ? " " + t("set.flags", { name: n[x] }) : ""), [], null,
        () => doConfirmed(tableId, [{ do: "adjust", side: x, delta_ms: setClockPlan(reserveNow(row, x), ms).delta_ms }]));
    } });
    setTimeout(show, 0);
    return el("div", { class: "row set-clock" }, [el("strong", { text: t("set.title") + ":" }), side, to, go, preview, warn]);
  }

  /* The board engine's ruling on a dispute, from the position the director types
   * (POST /api/tables/{id}/adjudicate): a suggestion, applied only when confirmed. */
  /** @param {number} id @param {string} text */
  async function suggestRuling(id, text) {
    if (!text.trim()) { app.suggest = { table: id, error: t("det.sugg.empty") }; renderDetail(); return; }
    app.suggest = { table: id, busy: true };
    renderDetail();
    let sg;
    try { sg = { table: id, out: await api("POST", "/api/tables/" + id + "/adjudicate", { position: text.trim() }) }; }
    catch (e) { sg = { table: id, error: errText(e) }; }
    if (app.selected === id) { app.suggest = sg; renderDetail(); }
  }
  /** @param {Row} row @param {WireState} s @param {Object<string, string>} n @returns {HTMLElement} */
  function suggestBox(row, s, n) {
    const id = row.info.id, sg = app.suggest && app.suggest.table === id ? app.suggest : null;
    const pos = inputEl({ id: "sugg-position", size: 32, autocomplete: "off", spellcheck: "false",
      placeholder: "4HPwATDgc/ABMA", "aria-label": t("det.sugg.position") });
    const box = el("div", { class: "suggest", id: "suggest" }, [
      el("div", { class: "row" }, [el("strong", { text: t("det.sugg.position") + ":" }), pos,
        el("button", { type: "button", "data-act": "suggest", text: t("det.sugg.ask"), disabled: !!(sg && sg.busy),
          onclick: () => suggestRuling(id, pos.value) })]),
      el("p", { class: "hint", text: t("det.sugg.on_roll", { side: s.on_turn || "?", name: n[s.on_turn || ""] || "?" }) })]);
    box.append(boardBox(row, s, n));
    if (!sg) return box;
    const out = el("div", { class: "suggestion", id: "suggestion", role: "status" });
    if (sg.busy) out.append(el("p", { text: t("det.sugg.busy") }));
    else if (sg.error) out.append(el("p", { class: "msg err", text: t("det.sugg.error", { m: sg.error }) }));
    else {
      const o = sg.out;
      if (o.command) {
        const label = rulingName(/** @type {import("./rulings.js").TableState} */ (s), n, o.decision, o.result, t);
        out.append(el("p", {}, [el("strong", { text: t("det.sugg.ruling") + ": " }), el("span", { class: "sugg-ruling", text: label })]));
        out.append(el("p", { class: "sugg-reason", text: o.reason }));
        out.append(el("p", { class: "hint sugg-clause", text: o.clause }));
        out.append(el("button", { type: "button", class: "act", "data-act": "apply-suggestion", text: t("det.sugg.apply", { what: label }),
          onclick: () => askConfirm(t("det.ruling") + ": " + label, [o.command]) }));
      } else {
        out.append(el("p", {}, [el("strong", { class: "sugg-ruling", text: t("det.sugg.unknown") })]));
        out.append(el("p", { class: "sugg-reason", text: o.reason }));
        out.append(el("p", { class: "hint sugg-clause", text: o.clause }));
      }
    }
    box.append(out);
    return box;
  }

  /** A log event in a few words. @param {any} ev @returns {string} */
  function describe(ev) {
    const e = ev.event, parts = [e.do];
    for (const k of ["side", "winner", "dice", "result", "reason", "decision", "delta_ms", "points"]) {
      if (e[k] === undefined) continue;
      parts.push(k === "delta_ms" ? fmtSigned(e[k]) : Array.isArray(e[k]) ? e[k].join("-") : String(e[k]));
    }
    return parts.join(" ");
  }
  function renderLog() {
    const wrap = $("log-wrap");
    if (!wrap) return;
    const tbl = el("table", { class: "log", id: "log" }, [el("thead", {}, [el("tr", {}, ["log.seq", "log.at", "log.event", "log.source", "log.lag", "A", "B"].map((k) =>
      el("th", { text: k.length > 1 ? t(k) : k })))])]);
    const body = el("tbody");
    // the summonses among the events, each after the event it followed
    /** @type {{ev?: any, note?: any, order: number[]}[]} */
    const rows = app.log.events.map((ev) => /** @type {{ev?: any, note?: any, order: number[]}} */ ({ ev: ev, order: [ev.seq, 0] }))
      .concat((app.log.notes || []).map((x) => ({ note: x, order: [x.seq, x.n] })))
      .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
    for (const r of rows.reverse()) {
      if (r.note) {
        const x = r.note;
        body.append(el("tr", { class: "note" }, [el("td", { text: "" }), el("td", { text: fmtClock(x.at_ms) }),
          el("td", { text: x.type === "keeper" ? "⏱ " + t("log.keeper", { d: x.device })
            : x.type === "handled" ? "✓ " + t("log.handled", { k: x.key })
            : x.type === "flag_final" ? "⚑ " + t("log.flag_final", { t: fmtClock(x.at_ms), how: x.how })
            : "☎ " + x.type + " " + x.why + " " + x.side }), el("td", { text: x.source }),
          el("td", { text: "" }), el("td", { text: "" }), el("td", { text: "" })]));
        continue;
      }
      const ev = r.ev;
      body.append(el("tr", { class: ev.source === "director" ? "dir" : "" }, [
        el("td", { text: ev.seq }), el("td", { text: fmtClock(ev.at_ms) }), el("td", { text: describe(ev) }),
        el("td", { text: ev.source }), el("td", { text: ev.lag_credit_ms ? ev.lag_credit_ms + " ms" : "" }),
        el("td", { text: fmtClock(ev.state.A.reserve_ms) }), el("td", { text: fmtClock(ev.state.B.reserve_ms) })]));
    }
    tbl.append(body);
    wrap.replaceChildren(tbl);
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
        document.querySelectorAll('[data-clock="' + id + side + '"]').forEach((n) => {
          if (n.textContent !== txt) n.textContent = txt;
          if (n.classList.contains("low") !== low) n.classList.toggle("low", low);
        });
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
  // breaks running over appear without a new message
  setInterval(() => {
    if (app.setPreview && document.getElementById("set-to")) app.setPreview();
    for (const id in app.tables) { const s = app.tables[id].state; if (s && s.phase === "break") { renderAlerts(); renderCards(); break; } }
  }, 1000);

  /* ------------------------------------------------------------ forms */
  function openTournamentForm() { $("tn-msg").textContent = ""; dialog("dlg-tournament").showModal(); }
  /* The table form: a new table, or (info given) the table before play. */
  /** @param {TableInfo|null} info */
  function openTableForm(info) {
    const sel = /** @type {HTMLSelectElement} */ ($("tb-tournament"));
    sel.replaceChildren(...Object.values(app.tournaments).filter((x) => !x.closed_ms || (info && x.id === info.tournament_id))
      .map((x) => el("option", { value: x.id, text: x.name })));
    const rules = /** @type {HTMLSelectElement} */ ($("tb-rules"));
    if (!rules.options.length) for (const id in presets) rules.append(el("option", { value: id, title: presets[id].title, text: id + " (" + presets[id].mode + ")" }));
    app.editing = info ? info.id : null;
    const f = /** @type {HTMLFormElement} */ ($("form-table"));
    const wasEdit = f.dataset.mode === "edit";
    f.dataset.mode = info ? "edit" : "create";
    $("tb-title").textContent = t(info ? "form.edit_table" : "form.table");
    $("tb-submit").textContent = t(info ? "form.save" : "form.create");
    sel.disabled = !!info;
    if (info) {
      const c = info.clock || {};
      /** @param {number|null|undefined} ms */
      const clockText = (ms) => (ms == null ? "" : fmtClock(ms));
      sel.value = String(info.tournament_id);
      input("tb-name").value = info.name || "";
      input("tb-a").value = info.players[0]; input("tb-b").value = info.players[1];
      rules.value = info.rules;
      input("tb-length").value = String(info.length);
      input("tb-sa").value = String(info.score[0]); input("tb-sb").value = String(info.score[1]);
      input("tb-teams").checked = !!info.teams; input("tb-crawford").checked = !!info.crawford;
      input("tb-mode").value = c.mode || "";
      input("tb-pp").value = clockText(c.per_point_ms); input("tb-lpp").value = clockText(c.less_per_point_ms);
      input("tb-delay").value = c.delay_ms == null ? "" : String(c.delay_ms / 1000);
      input("tb-reserve").value = clockText(c.reserve_ms);
      input("tb-overtime").value = clockText(c.overtime_ms);
      input("tb-warn").value = (info.warn_s || [60, 20, 10]).join(", ");
    } else if (wasEdit) {
      f.reset();  // a new table starts from the defaults, not from the table just edited
    }
    $("tb-msg").textContent = "";
    dialog("dlg-table").showModal();
  }
  /* "90, 30, 10" -> [90, 30, 10] (whole seconds; the server checks them). */
  /** @param {string} text @returns {number[]} */
  function warnSeconds(text) {
    return String(text || "").split(/[ ,;]+/).filter(Boolean).map(Number);
  }
  $("form-tournament").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const tn = await api("POST", "/api/tournaments", { name: input("tn-name").value });
      app.tournaments[tn.id] = Object.assign({ tables: [] }, tn);
      dialog("dlg-tournament").close();
      render();
    } catch (err) { $("tn-msg").textContent = errText(err); $("tn-msg").className = "msg err"; }
  });
  $("form-table").addEventListener("submit", async (e) => {
    e.preventDefault();
    /** @type {Object<string, any>} */
    const clock = {};
    if (input("tb-mode").value) clock.mode = input("tb-mode").value;
    /** @param {string} idn */
    const ms = (idn) => { const v = input(idn).value.trim(); return v ? parseClock(v) : null; };
    if (ms("tb-pp") != null) clock.per_point_ms = ms("tb-pp");
    if (ms("tb-lpp") != null) clock.less_per_point_ms = ms("tb-lpp");
    if (input("tb-delay").value.trim()) clock.delay_ms = Math.round(parseFloat(input("tb-delay").value) * 1000);
    if (ms("tb-reserve") != null) clock.reserve_ms = ms("tb-reserve");
    if (ms("tb-overtime") != null) clock.overtime_ms = ms("tb-overtime");
    /** @type {Object<string, any>} */
    const spec = {
      name: input("tb-name").value, players: [input("tb-a").value || "A", input("tb-b").value || "B"], rules: input("tb-rules").value,
      length: parseInt(input("tb-length").value, 10), score: [parseInt(input("tb-sa").value, 10) || 0, parseInt(input("tb-sb").value, 10) || 0],
      teams: input("tb-teams").checked, crawford: input("tb-crawford").checked, clock: clock
    };
    const warn = warnSeconds(input("tb-warn").value);
    if (warn.length) spec.warn_s = warn;
    try {
      const info = app.editing != null
        ? await api("PATCH", "/api/tables/" + app.editing, spec)
        : await api("POST", "/api/tournaments/" + input("tb-tournament").value + "/tables", spec);
      mergeInfo(info);
      dialog("dlg-table").close();
      conn.sendRaw({ type: "sync", v: 1, table: info.id });
      select(info.id);
    } catch (err) { $("tb-msg").textContent = errText(err); $("tb-msg").className = "msg err"; }
  });
  document.querySelectorAll("dialog [data-close]").forEach((b) => b.addEventListener("click", () => { const dlg = b.closest("dialog"); if (dlg) dlg.close(); }));

  function printSheet() {
    const sheet = $("print-sheet");
    sheet.replaceChildren();
    for (const id of Object.keys(app.tables).sort((a, b) => Number(a) - Number(b))) {
      const row = app.tables[id];
      if (row.info.status === "closed") continue;
      sheet.append(el("div", { class: "print-card" }, [el("h2", { text: title(row) }),
        el("img", { src: "/api/tables/" + id + "/qr.svg?key=" + encodeURIComponent(key || ""), alt: "QR" }),
        el("p", { class: "linkbox", text: row.url || "" })]));
    }
    setTimeout(() => window.print(), 300);
  }

  $("btn-new-tournament").addEventListener("click", openTournamentForm);
  $("btn-new-table").addEventListener("click", () => openTableForm(null));
  $("btn-print").addEventListener("click", printSheet);
  $("btn-lang").addEventListener("click", () => { I18N.setLang(I18N.lang === "en" ? "it" : "en"); render(); });
  document.addEventListener("pointerdown", () => unlockAudio(), { once: true });

  document.documentElement.lang = I18N.lang;
  /* the page's one debug object (docs/pages.md, "Debug objects"): tests read it */
  /** @type {any} */ (window).__bgclockDesk = { app: app, closeDetail: closeDetail, conn: conn, select: select, alertsOf: alertsOf, openTableForm: openTableForm,
    i18n: I18N };
  render();
  if (!key) unauthorized();
  else {
    loadTournaments().catch((e) => { if (String(e.message).indexOf("key") >= 0 || String(e.message) === "401") unauthorized(); });
    conn.start();
  }
  requestAnimationFrame(frame);
})();
