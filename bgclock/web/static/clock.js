/* bgclock: the table clock page (an ES module).
 *
 * The device keeps the time itself (device.js): it folds the table's log
 * through the browser engine, applies every command it sends at the instant
 * it was made, on or off line, and shows that match read at the device's
 * clock on every animation frame; the command is sent with that instant
 * (queued while the link is down) and the server's log ends where the
 * device's did.  Until the log is loaded the page shows the server's latest
 * state counted down locally (viewAt), with its own presses predicted on
 * it. */
import { DeviceMatch, specKey } from "./device.js";
import { mountKeeper, deviceName } from "./timekeeper.js";
import { clearSaved, loadSaved, pageStorage, writeSaved } from "./device-store.js";
import { ScreenAwake } from "./table/awake.js";
import { TapGuard } from "./table/guard.js";
import { judge, kindOf, kindsList as countKinds, syncedText as outcomeText } from "./table/words.js";
import { registerTableWorker } from "./table/worker.js";
import { crossings, parseThresholds, thresholdsFor } from "./table/warnings.js";
import { playerOptions } from "./table/options.js";
import { allowanceOf, modeOf, viewAt } from "./engine/countdown.js";
import { el, readPresets } from "./kit/dom.js";
import { fmtClock, fmtShort, fmtSigned, timeOfDay } from "./kit/format.js";
import { I18N, t } from "./kit/i18n.js";
import * as link from "./kit/link.js";
import { beep, unlockAudio, vibrate } from "./kit/sound.js";

(function () {
  "use strict";
  const params = new URLSearchParams(location.search);
  const pathId = /\/t\/(\d+)/.exec(location.pathname);
  const tableId = Number(document.body.dataset.table) || (pathId ? Number(pathId[1]) : Number(params.get("table")));
  const token = params.get("token");
  const presets = readPresets();
  const SIDES = ["A", "B"];
  const other = (s) => (s === "A" ? "B" : "A");

  /* ------------------------------------------------------------ settings */
  const SETTINGS_KEY = "bgclock.table.settings";
  function loadSettings() {
    let s = {};
    try { s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {}; } catch (e) { s = {}; }
    const out = {
      layout: s.layout || "auto", swap: !!s.swap,
      sound: s.sound !== false, vibrate: s.vibrate !== false,
      // a player's own warnings, per table (otherwise the link's, then the table's)
      warnByTable: s.warnByTable && typeof s.warnByTable === "object" ? s.warnByTable : {}
    };
    if (params.get("layout")) out.layout = params.get("layout");
    if (params.get("swap")) out.swap = params.get("swap") === "1";
    return out;
  }
  function saveSettings() {
    try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(app.settings)); } catch (e) { /* private mode */ }
  }

  /* ---------------------------------------------------------------- state */
  const app = {
    tableId: tableId,
    state: null,          // the server's latest state
    info: null,           // the Table object
    seq: null,            // the server's seq of `state`
    recvAt: 0,            // performance.now() when `state` arrived
    confirmed: {},        // cmd id -> seq of its ack (a prediction until that seq is seen)
    hits: [],             // predicted presses: {id, side, at}
    fired: { A: [], B: [], flag: {} },
    warnings: [],         // every warning given: {side, threshold_ms, at} (tests read it)
    settings: loadSettings(),
    panel: { A: null, B: null },  // what each half's panel shows
    center: null,         // what the centre panel shows (null: automatic)
    frames: 0,
    paints: [],           // [epoch ms, seq]: the first frame after each new state (bench/web_latency.py)
    presses: [],          // [epoch ms, cmd id]: each press sent
    closed: false,
    engine: null,         // DeviceMatch: the table's match folded here (device.js)
    engineError: null,    // why the engine was given up (the page falls back to the server's states)
    anchor: null,         // {ms, perf}: the last snapshot's instant on the table's line
    fetching: false,
    shown: null,          // the state last rendered (what changed is noted from it)
    /* every command that waited while the link was down, by id: its kind, its
     * instant, and (once the server answered) what became of it */
    outage: new Map(),
    sides: new Map(),     // cmd id -> the side it is by (a refusal faces that player)
    serverStarted: null,  // the server process's start (welcome.started_ms)
    restarted: false,     // the server restarted while this page was away from it
    restored: null,       // what a reload brought back (device-store.js)
    dropped: null,        // the kinds of a kept queue not sent: a next match had begun
    stored: null,         // whether the last write to the device's storage worked
    awake: "off"          // how the screen is kept awake: "lock", "video" or "off"
  };
  try {
    const f = JSON.parse(sessionStorage.getItem("bgclock.fired." + tableId) || "null");
    if (f && f.A && f.B) app.fired = Object.assign(app.fired, f);
  } catch (e) { /* none */ }

  /* The low-time thresholds (ms, highest first): thresholdsFor. */
  function thresholds(withLocal) {
    return thresholdsFor(withLocal === false ? null : app.settings.warnByTable[tableId],
      params.get("warn"), app.info);
  }

  function mode() { return app.state ? modeOf(app.state, app.info, presets) : "bronstein"; }
  function allowance() { return app.state ? allowanceOf(app.state, app.info, presets) : 0; }
  function names() {
    const p = (app.info && app.info.players) || ["A", "B"];
    return { A: p[0] || "A", B: p[1] || "B" };
  }

  /* The state shown now: the server's, with the unconfirmed presses replayed
   * on it at their instants.  Returns {state, base} where base is the
   * performance.now() instant the state is exact at. */
  function display() {
    if (engineReady()) {
      const now = performance.now(), ms = tableNow(now);
      if (ms != null) return { state: app.engine.stateAt(ms), base: now };
    }
    if (!app.state) return null;
    let st = app.state, base = app.recvAt;
    for (const h of app.hits) {
      const s = st[h.side];
      if (st.phase !== "playing" || !s.running || st.double_offered_by || st.game === 0) continue;
      const v = viewAt(st, mode(), h.at - base);
      const me = Object.assign({}, s, v[h.side], { running: false });
      const m = mode(), D = allowance();
      if (m === "bronstein" && !s.forfeit_delay) me.reserve_ms += Math.max(0, D - v[h.side].delay_ms);
      if (m === "increment" && !s.forfeit_delay) me.reserve_ms += D;
      me.delay_ms = m === "standard" ? 0 : D;
      const op = Object.assign({}, st[other(h.side)], { running: true });
      const next = Object.assign({}, st, { at_ms: v.at_ms, on_turn: other(h.side) });
      next[h.side] = me; next[other(h.side)] = op;
      next.expires_at_ms = v.at_ms + op.reserve_ms + (m === "simple_delay" ? op.delay_ms : 0);
      st = next; base = h.at;
    }
    return { state: st, base: base };
  }

  /* ------------------------------------------------------- the device's match */
  /* The table's line (ms since the table was created, the server's time
   * line) at device instant t: from the offset the pings measure, else from
   * the last snapshot. */
  function tableNow(t) {
    const v = conn.tableMs(t);
    if (v != null) return v;
    return app.anchor ? app.anchor.ms + (t - app.anchor.perf) : null;
  }
  function engineReady() {
    return !!app.engine && (app.seq == null || app.engine.seq >= app.seq);
  }
  /* The engine for the table's spec (a new one when the spec changed), and
   * the events it lacks. */
  function syncEngine(info, seq) {
    if (!info || !info.rules) return;
    if (!app.engine || app.engine.key !== specKey(info)) {
      try { app.engine = new DeviceMatch(info); app.engineError = null; }
      catch (e) { app.engine = null; app.engineError = String(e && e.message || e); return; }
    }
    if (seq != null && seq > app.engine.seq) fetchEvents();
  }
  /* GET /api/tables/N/events?after=seq until the engine has the log. */
  async function fetchEvents() {
    if (app.fetching) { app.fetchAgain = true; return; }
    app.fetching = true;
    try {
      for (let page = 0; page < 1000 && app.engine; page++) {
        const eng = app.engine;
        const r = await fetch("/api/tables/" + tableId + "/events?after=" + eng.seq + "&token=" + encodeURIComponent(token),
          { cache: "no-store" });
        if (!r.ok) break;
        const body = await r.json();
        if (app.engine !== eng) continue;
        if (specKey(body.spec) !== eng.key) { app.engine = new DeviceMatch(body.spec); continue; }
        for (const e of body.events) if (e.seq > eng.seq && !eng.confirm(e.seq, e.event)) break;
        if (!body.more) break;
      }
    } catch (e) {
      // a network error: try again with the next snapshot; a refused event: give the engine up
      if (e && e.code) { app.engine = null; app.engineError = String(e.message); }
    } finally {
      app.fetching = false;
      renderAll();
      if (app.fetchAgain) { app.fetchAgain = false; fetchEvents(); }
      else if (app.engine && app.seq != null && app.engine.seq < app.seq) {
        // refused for now (429: the table's log requests are limited) or the
        // network failed: ask again, later each time
        app.fetchWait = Math.min(8000, (app.fetchWait || 500) * 2);
        clearTimeout(app.fetchTimer);
        app.fetchTimer = setTimeout(fetchEvents, app.fetchWait * (0.5 + Math.random() / 2));
      } else app.fetchWait = 0;
    }
  }
  function confirmEvent(seq, event) {
    if (!app.engine || !event) return;
    try {
      if (!app.engine.confirm(seq, event) && seq > app.engine.seq) fetchEvents();
    } catch (e) {
      // the engine refuses what the server stored: start over from the log
      const spec = app.info;
      app.engine = null;
      if (spec) syncEngine(spec, seq);
    }
  }

  /* ------------------------------------------------------------ the link */
  const conn = new link.Connection({
    url: link.wsUrl(),
    prefix: "t" + tableId + "-",
    hello: () => {
      const h = { type: "hello", v: 1, token: token, name: deviceName(link.deviceId()) };
      if (app.seq != null) h.last_seq = app.seq;
      return h;
    },
    onMessage: onMessage,
    onStatus: renderConn,
    device: link.deviceId(),
    createdMs: () => (app.info && typeof app.info.created_ms === "number" ? app.info.created_ms : null)
  });

  /* who keeps the table's time, the claim, a provisional flag (timekeeper.js) */
  const keeper = mountKeeper({ device: link.deviceId(), send: (m) => conn.sendRaw(m), toast: (x) => toast(x) });
  /* ------------------------------------------- what survives a reload */
  /* The table's folded log, the server's last state, the waiting commands
   * and the clock's mapping, kept per table token (device-store.js) after
   * every change, so that a reload or a closed tab during an outage comes
   * back with the clock and its queue (docs/pages.md, "What survives a
   * reload"). */
  const storage = pageStorage();
  let persistQueued = false;
  function persist() {
    if (persistQueued || !token) return;
    persistQueued = true;
    queueMicrotask(() => { persistQueued = false; persistNow(); });
  }
  function persistNow() {
    const created = app.info && typeof app.info.created_ms === "number" ? app.info.created_ms : null;
    if (created == null || !token) return;
    const eng = app.engine;
    const queue = conn.pending.filter((p) => p.type === "cmd" || p.type === "summon").map((p) => ({
      id: p.id, type: p.type, cmd: p.cmd, atMs: p.atMs, pressedEpoch: performance.timeOrigin + p.pressedAt }));
    app.stored = writeSaved(storage, token, {
      v: 1, created_ms: created, spec: eng ? eng.spec : null, events: eng ? eng.events : [],
      seq: app.seq, state: app.state, info: app.info, queue: queue,
      serverMinusEpoch: conn.offset == null ? null : conn.offset - performance.timeOrigin,
      server_started: app.serverStarted, saved_at: Date.now() });
  }
  /* The page as the device left it: the match folded again from the kept
   * log, the waiting commands put back (held until the server shows it is
   * still the same match), the clock mapped as before. */
  function restore() {
    const saved = loadSaved(storage, token);
    if (!saved) return;
    app.restored = { created_ms: saved.created_ms, ids: saved.queue.map((c) => c.id), confirmed: false };
    if (saved.serverMinusEpoch != null) { conn.offset = saved.serverMinusEpoch + performance.timeOrigin; conn.offsetRtt = Infinity; }
    if (saved.info) app.info = saved.info;
    app.serverStarted = saved.server_started;
    if (saved.state) {
      app.state = saved.state; app.seq = saved.seq;
      const now = performance.now(), ms = conn.tableMs(now);
      app.recvAt = ms != null && typeof saved.state.at_ms === "number" ? now - (ms - saved.state.at_ms) : now;
    }
    if (saved.spec) {
      try {
        const eng = new DeviceMatch(saved.spec);
        for (const e of saved.events) if (!eng.confirm(e.seq, e.event)) break;
        for (const c of saved.queue) if (c.type === "cmd" && c.atMs != null) eng.restore(c.id, c.cmd, c.atMs);
        app.engine = eng;
      } catch (e) { app.engine = null; }
    }
    for (const c of saved.queue) {
      conn.pending.push({ id: c.id, cmd: c.cmd, type: c.type, atMs: c.atMs,
        pressedAt: c.pressedEpoch - performance.timeOrigin, held: true });
    }
    if (conn.pending.length) conn.reconciling = true;
  }
  /* The server's snapshot names the match: the same one, the kept queue is
   * sent; a next match (another time line), it is forgotten, never replayed. */
  function checkRestored(info) {
    const r = app.restored;
    if (!r || r.confirmed || !info) return;
    r.confirmed = true;
    if (info.created_ms === r.created_ms) { conn.release(); return; }
    const ids = new Set(r.ids);
    app.dropped = conn.pending.filter((p) => ids.has(p.id)).map(kindOf);
    conn.pending = conn.pending.filter((p) => !ids.has(p.id));
    conn.release();
    app.hits = [];
    app.engine = null;
    clearSaved(storage, token);
  }

  function setState(state, seq, info) {
    app.state = state;
    if (seq != null) app.seq = seq;
    if (info) app.info = info;
    app.recvAt = performance.now();
    // a press stays predicted until a state at or after its seq arrives
    app.hits = app.hits.filter((h) => {
      const s = app.confirmed[h.id];
      return s === undefined || s > app.seq;
    });
    app.newState = true;
    renderAll();
  }

  /* What a state alone does not say: the points an ABA expiry gave
   * (aba-2003 5.1), and the last game's winner and points. */
  function noteChange(before, after) {
    const gained = [after.score[0] - before.score[0], after.score[1] - before.score[1]];
    if (after.phase === "stopped" && after.stopped_reason === "time_expired" && before.phase === "playing") {
      const side = before.on_turn;
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
  function announce(st) {
    const n = document.getElementById("announce");
    if (n) n.textContent = t("phase." + st.phase) + (st.stopped_reason ? " · " + t("reason." + st.stopped_reason) : "");
  }

  function onMessage(msg) {
    if (msg.table != null && msg.table !== tableId && msg.type !== "error") return;
    persist();   // once this message is handled (an ack takes a command off the kept queue)
    switch (msg.type) {
      case "snapshot":
        checkRestored(msg.info);
        app.anchor = { ms: msg.state.at_ms, perf: performance.now() };
        if (app.engine && msg.seq < app.engine.seq) app.engine = null;   // a log that went back: start over
        setState(msg.state, msg.seq, msg.info);
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
        app.closed = msg.info && msg.info.status === "closed";
        syncEngine(msg.info, msg.info && msg.info.seq);
        keeper.render(msg.info);
        renderAll();
        break;
      case "summon": {
        const nm = names();
        app.summoned = { why: msg.why, side: msg.side, seq: msg.seq };
        renderAll();
        toast(msg.why === "premature"
          ? t("summon.premature", { a: nm[msg.side], b: nm[other(msg.side)] })
          : t("summon.sent", { name: nm[msg.side] }));
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
        renderConn(conn.status);
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
      case "error":
        noteOutcome(msg);
        renderConn(conn.status);
        if (msg.id) app.hits = app.hits.filter((h) => h.id !== msg.id);
        if (msg.id && app.engine) app.engine.drop(msg.id);
        if (msg.code === "unauthorized") { renderConn("unauthorized"); break; }
        if (msg.code === "closed") app.closed = true;
        toast(msg.refusal ? t("err.illegal", { m: I18N.refusal(msg) })
          : msg.code === "illegal" ? t("err.illegal", { m: msg.message }) : msg.message, msg.id ? app.sides.get(msg.id) : null);
        if (msg.id) app.sides.delete(msg.id);
        renderAll();
        break;
    }
  }

  /* ----------------------------------------------------------- commands */
  function command(cmd) {
    unlockAudio();
    return send(cmd, performance.now());
  }

  /* Every clock command goes here: applied to the device's match at the
   * instant `at` (performance.now() of the tap) and sent with it; refused at
   * once, and not sent, when the rules refuse it.  Without the engine (its
   * log not loaded yet) the server decides alone.  Returns the command's id,
   * or null if refused here. */
  function send(cmd, at) {
    const eng = engineReady() ? app.engine : null;
    const ms = eng ? tableNow(at) : null;
    if (!eng || ms == null) return conn.send(cmd, at);
    const err = eng.check(cmd, ms);
    if (err) {
      toast(t("err.illegal", { m: I18N.refusal({ refusal: err.code, params: err.params, message: err.message }) }), sideOf(cmd));
      renderAll();
      return null;
    }
    const atMs = eng.instant(ms);
    const id = conn.send(cmd, at, "cmd", null, atMs);
    const who = sideOf(cmd);
    if (who) app.sides.set(id, who);
    eng.apply(id, cmd, atMs);
    renderAll();
    return id;
  }

  /* The player a command is by (whose half a refusal faces), or null. */
  function sideOf(cmd) {
    const s = cmd.do === "game_over" ? cmd.winner : cmd.side;
    return s === "A" || s === "B" ? s : null;
  }

  /* Summon the director (USBGF 4.1, BIBA 4.6: the player on turn stops both
   * clocks and summons the Director): a stop with reason `director` while the
   * clocks run, then the `summon` message saying why and who. */
  function callDirector(side, why) {
    const d = display();
    if (d && d.state.phase === "playing") command({ do: "stop", side: side, reason: "director" });
    unlockAudio();
    return conn.summon({ why: why, side: side });
  }

  /* ❚❚ Stop: one tap stops both clocks at that instant (a `stop` with
   * reason `other`, sent at once with the tap's instant); the reason is
   * asked afterwards.  The protocol cannot change a stored stop's reason: a
   * reason that calls the director (director, dispute, a premature action)
   * sends a `summon`, stored in the table's log; the others are shown on
   * this page (docs/protocol.md, "Stopping the clocks"). */
  function stopNow(side) {
    const d = display();
    if (!d || app.closed || d.state.phase !== "playing") return false;
    const who = side || d.state.on_turn || "A";
    command({ do: "stop", side: who, reason: "other" });
    app.center = { kind: "stop", side: who };
    renderAll();
    return true;
  }

  /* A player hits the clock: only the running side's press counts (a press
   * on the idle half does nothing, a second press is ignored). */
  function press(side) {
    unlockAudio();
    wakeLock();
    const d = display();
    if (!d || app.closed) return false;
    const st = d.state;
    if (st.phase !== "playing" || !st[side].running || st.double_offered_by || st.game === 0) return false;
    const at = performance.now();
    let id;
    if (engineReady()) {
      id = send({ do: "hit", side: side }, at);
      if (id == null) return false;
    } else {
      id = conn.send({ do: "hit", side: side }, at);
      app.hits.push({ id: id, side: side, at: at });
    }
    app.presses.push([performance.timeOrigin + at, id]);
    if (app.presses.length > 500) app.presses.shift();
    if (app.settings.vibrate) vibrate(25);
    renderAll();
    return true;
  }

  /* ---------------------------------------------------------- rendering */
  const $ = (id) => document.getElementById(id);
  const halves = { A: $("half-A"), B: $("half-B") };
  const q = (side, cls) => halves[side].querySelector(cls);

  /* The link, honestly: offline (with the presses waiting) as soon as the
   * connection notices a dead link, and "synced" once the presses queued
   * while offline have all been accepted. */
  function renderConn(status, queued) {
    const c = $("conn");
    if (status === "unauthorized") conn.stopped = true;
    const n = queued == null ? conn.pending.length : queued;
    if (status !== "online") {
      for (const p of conn.pending) if (!app.outage.has(p.id)) app.outage.set(p.id, { kind: kindOf(p), atMs: p.atMs, result: null });
    }
    const shownStatus = app.closed ? "closed" : status;
    let text = t("conn." + shownStatus);
    let synced = false;
    if (n > 0 && status !== "online") text += " · " + t("conn.waiting", { list: kindsList(conn.pending.map(kindOf)) });
    else if (status === "online" && conn.synced && app.outage.size) {
      synced = true;
      text = syncedText();
    } else if (status === "online" && !conn.synced && !conn.reconciling) app.outage.clear();
    if (app.restarted) text += " · " + t("conn.restarted");
    if (app.dropped) text += " · " + t("conn.dropped", { list: kindsList(app.dropped) });
    if (app.restored && status !== "online") text += " · " + t("conn.restored");
    c.dataset.status = shownStatus;
    c.dataset.synced = synced ? "1" : "0";
    c.dataset.queued = String(n);
    c.dataset.restored = app.restored ? "1" : "0";
    c.dataset.restarted = app.restarted ? "1" : "0";
    const node = c.querySelector(".conn-text");
    if (node.textContent !== text) node.textContent = text;
  }
  /* The link's words (table/words.js), in the page's language. */
  function kindsList(kinds) { return countKinds(kinds, t); }
  function syncedText() { return outcomeText(Array.from(app.outage.values()), t, fmtSigned); }
  /* The server's answer to a command that waited through an outage. */
  function noteOutcome(msg) {
    const o = msg.id ? app.outage.get(msg.id) : null;
    if (!o) return;
    app.outage.set(msg.id, judge(o, msg, msg.type === "error" ? (msg.refusal ? I18N.refusal(msg) : msg.message || msg.code) : ""));
  }

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

  /* What a change of the shown state is made of (the numbers aside). */
  function stateKey(st) {
    return st ? [st.phase, st.stopped_reason, st.on_turn, st.score.join(), st.game, st.cube.value, st.cube.owner,
      st.A.expired, st.B.expired, st.A.running, st.B.running, st.winner, st.double_offered_by, !!st.offer,
      st.A.overtime, st.B.overtime, st.A.no_cube, st.B.no_cube].join("|") : "";
  }

  function renderAll() {
    persist();
    const d = display();
    I18N.apply(document.body);
    renderConn(conn.status);
    layout();
    if (!d) return;
    if (app.shown && stateKey(app.shown) !== stateKey(d.state)) noteChange(app.shown, d.state);
    app.shown = d.state;
    app.shownKey = stateKey(d.state);
    const st = d.state, nm = names();
    // names on wide screens, the side letters on phones (style.css)
    const who = (side) => [el("span", { class: "nm", text: nm[side] }), el("span", { class: "tg", text: side })];
    $("score").replaceChildren(...who("A"), " " + st.score[0] + " – " + st.score[1] + " ", ...who("B"),
      " · " + t("bar.to", { n: st.length }));
    $("cube").replaceChildren(t("bar.cube") + " " + st.cube.value + " · ",
      ...(st.cube.owner ? who(st.cube.owner) : [t("bar.centered")]));
    $("crawford").hidden = !st.crawford;
    $("frozen").hidden = !st.cube_frozen;
    $("game").textContent = st.game > 0 ? t("bar.game", { n: st.game }) : "";
    let ph = t("phase." + st.phase);
    if (st.stopped_reason && st.phase !== "break" && st.phase !== "offer" && !(st.phase === "dispute" && st.stopped_reason === "dispute")) {
      ph += " · " + t("reason." + st.stopped_reason);
    }
    // a stop's reason chosen after the tap: here, or (a summons) on any device
    const chosen = app.stopNote || (app.summoned && app.summoned.seq === app.seq ? { reason: app.summoned.why, side: app.summoned.side } : null);
    if (st.phase === "stopped" && st.stopped_reason === "other" && chosen) {
      ph = t("phase.stopped") + " · " + (chosen.reason === "premature" ? t("stop.premature", { name: nm[other(chosen.side)] })
        : t("reason." + chosen.reason));
    }
    if (st.phase === "playing" && st.game === 0) ph = t("late");
    $("phase").textContent = ph;
    $("phase").dataset.phase = st.phase;
    $("btn-stop").hidden = st.phase !== "playing" || app.closed;
    $("btn-director").hidden = st.phase !== "playing" || app.closed;
    $("btn-resume").hidden = !(st.phase === "stopped" || st.phase === "break") || app.closed;
    for (const side of SIDES) renderHalf(side, st, nm);
    renderCenter(st, nm);
    renderTimes(d);
  }

  /* One half: the face (name, status, the clock, messages: nothing to tap
   * but the press itself) and, at the player's own edge, the strip with the
   * cube, the decisions (double, take, pass, accept, reject) and the menu.
   * The far half is turned with its strip, so each strip faces its player. */
  function renderHalf(side, st, nm) {
    const h = halves[side], s = st[side], o = playerOptions(st, side);
    // what the rules refuse now is not offered (an Italian premature bars the cube)
    if (o.double && engineReady()) {
      const ms = tableNow(performance.now());
      if (ms != null && app.engine.check({ do: "double", side: side }, ms)) o.double = false;
    }
    q(side, ".name").textContent = nm[side];
    q(side, "[data-side-tag]").textContent = side;
    const over = st.phase === "match_over";
    const won = over && st.winner === side;
    const penalised = app.penalty && app.penalty.side === side && st.phase === "stopped" && st.stopped_reason === "time_expired";
    h.classList.toggle("running", s.running && st.phase === "playing");
    h.classList.toggle("paused", st.on_turn === side && st.phase !== "playing");
    h.classList.toggle("flag", !won && (!!s.expired || penalised || (over && st.stopped_reason === "time_expired" && st.winner === other(side))));
    h.classList.toggle("winner", won);
    h.classList.toggle("between", st.phase === "setup" || st.phase === "between_games" || (st.phase === "playing" && st.game === 0));
    let status = "";
    if (h.classList.contains("flag")) status = t("half.flag");
    else if (over) status = won ? (s.expired || s.reserve_ms === 0 ? t("msg.winner_gin") : t("half.winner")) + " · " + st.score[0] + "–" + st.score[1] : "";
    else if (s.running && st.phase === "playing") status = t("half.turn");
    else if (st.on_turn === side) status = t("half.stopped");
    else status = t("half.idle");
    // USBGF overtime option: this side has had its one extra time in the match.
    h.classList.toggle("overtime", !!s.overtime);
    if (s.overtime && st.phase !== "match_over") status = (status ? status + " · " : "") + t("half.overtime");
    q(side, ".status").textContent = status;
    // the messages, the same in both halves (each turned to its player)
    const ctx = q(side, ".ctx");
    const notes = messages(st, nm);
    const key = notes.join("\n") + (st.phase === "break" ? "|brk" : "");
    if (ctx.dataset.key !== key) {
      ctx.dataset.key = key;
      ctx.replaceChildren(...notes.map((x) => el("div", { class: "note", text: x })));
      if (st.phase === "break") ctx.append(el("div", { class: "note brk" }));
    }
    h.classList.toggle("decide", notes.length > 0);
    // the strip at the player's edge: one tap, then a confirmation in the strip
    const chip = q(side, ".chip");
    chip.textContent = st.game > 0 || st.cube.value > 1 ? (st.cube.owner === side ? t("edge.cube_mine", { v: st.cube.value })
      : st.cube.owner ? t("edge.cube_theirs", { v: st.cube.value, name: nm[st.cube.owner] }) : t("edge.cube", { v: st.cube.value })) : "";
    const acts = q(side, ".acts");
    acts.replaceChildren();
    const btn = (cls, act, text, onclick) => el("button", { type: "button", class: "act " + cls, "data-act": act, text: text, onclick: onclick });
    if (o.take || o.pass) {
      if (o.take) acts.append(btn("take", "take", t("act.take"),
        () => ask(side, "take", { do: "take", side: side }, t("ask.take", { name: nm[side], v: st.cube.value * 2 }))));
      if (o.pass) acts.append(btn("pass", "pass", t("act.pass"),
        () => ask(side, "pass", { do: "pass", side: side }, t("ask.pass", { name: nm[side], pts: t("points", { n: st.cube.value }) }))));
    } else if (st.phase === "offer" && st.offer && o.accept) {
      const r = t("result." + st.offer.result);
      acts.append(btn("accept", "accept", t("act.accept"),
        () => ask(side, "accept", { do: "accept", side: side }, t("ask.accept", { name: nm[side], kind: st.offer.kind, r: r }))));
      acts.append(btn("reject", "reject", t("act.reject"),
        () => ask(side, "reject", { do: "reject", side: side }, t("ask.reject", { name: nm[side] }))));
    } else if (o.double) {
      acts.append(btn("double", "double", t("act.double") + " → " + st.cube.value * 2,
        () => ask(side, "double", { do: "double", side: side }, t("ask.double", { name: nm[side], v: st.cube.value * 2 }))));
    }
    q(side, ".more").hidden = app.closed || over;
    renderPanel(side, st, nm);
  }

  /* What both players should read now, derived from the state (and, for
   * what a state alone does not say, from the change that led to it). */
  function messages(st, nm) {
    const out = [];
    if (st.phase === "offer" && st.offer) {
      out.push(t("offer." + st.offer.kind, { name: nm[st.offer.side], r: t("result." + st.offer.result) }));
      out.push(t("msg.offer_answer", { name: nm[other(st.offer.side)] }));
    } else if (st.double_offered_by) {
      out.push(t("double.offer", { name: nm[st.double_offered_by], v: st.cube.value * 2 }));
      out.push(t("msg.double_answer", { name: nm[other(st.double_offered_by)] }));
    }
    if (st.phase === "stopped" && st.stopped_reason === "time_expired") {
      // aba-2003 5.1: penalty points (or the grace) and the clock reset to 5:00
      const pen = app.penalty, reset = fmtClock(5 * 60000);
      if (pen && pen.points > 0) out.push(t("msg.aba_penalty", { n: pen.points, name: nm[other(pen.side)], reset: reset }));
      else if (pen) out.push(t("msg.aba_grace", { reset: reset }));
      else out.push(t("msg.aba_reset", { reset: reset }));
    }
    if (st.phase === "dispute" || (st.phase === "stopped" && (st.stopped_reason === "director" || st.stopped_reason === "dispute"))
        || (st.phase === "stopped" && app.summoned && app.summoned.seq === app.seq)) {
      out.push(t("msg.director"));
    }
    if ((st.phase === "between_games" || st.phase === "match_over") && app.lastGame) {
      const g = app.lastGame;
      out.push(t("msg.last_game", { name: nm[g.side], pts: t("points", { n: g.points }) }));
    }
    if (st.phase === "between_games") out.push(t("msg.score_now", { a: st.score[0], b: st.score[1] }));
    return out;
  }

  /* The panel inside a half (so it faces that player): the side's menu or a
   * confirmation. */
  function renderPanel(side, st, nm) {
    const panel = q(side, ".panel"), p = app.panel[side];
    panel.hidden = !p;
    panel.classList.toggle("confirm", !!p && p.kind === "confirm");
    panel.replaceChildren();
    if (!p) return;
    const close = el("button", { type: "button", class: "close", "data-act": "close", "aria-label": t("act.close"), text: "✕", onclick: () => closePanel(side) });
    if (p.kind === "confirm") {
      panel.append(el("p", { class: "ask", text: p.text }),
        el("div", { class: "row" }, [
          el("button", { type: "button", class: "act confirm", "data-act": "confirm", text: t("act.confirm"),
            onclick: () => { closePanel(side); if (typeof p.cmd === "function") p.cmd(); else command(p.cmd); } }),
          el("button", { type: "button", class: "act cancel", "data-act": "cancel", text: t("act.cancel"), onclick: () => closePanel(side) })
        ]));
      return;
    }
    const o = playerOptions(st, side);
    panel.append(el("div", { class: "phead" }, [el("h3", { text: t("menu.side", { name: nm[side] }) }), close]));
    const results = ["single", "gammon", "backgammon"];
    // two steps so the menu fits a phone's half: the kind, then the result
    if (p.kind === "results") {
      const kind = p.what, askKey = "ask." + kind;
      panel.replaceChildren(el("div", { class: "phead" }, [el("h3", { text: t("menu." + kind + "_title") }), close]),
        el("div", { class: "prow" }, results.map((r) => el("button", { type: "button", class: "act", "data-act": kind + "-" + r, text: t("result." + r),
          onclick: () => ask(side, kind, kind === "game_over" ? { do: "game_over", winner: side, result: r } : { do: kind, side: side, result: r },
            t(askKey, { name: nm[side], r: t("result." + r) })) }))));
      return;
    }
    const kinds = el("div", { class: "prow" });
    for (const kind of ["game_over", "concede", "claim"]) {
      if (o[kind]) kinds.append(el("button", { type: "button", class: "act", "data-act": kind, text: t("menu." + kind + "_title") + " …",
        onclick: () => { app.panel[side] = { kind: "results", what: kind }; renderAll(); } }));
    }
    if (kinds.childElementCount) panel.append(kinds);
    const row = el("div", { class: "prow" });
    if (o.break) row.append(el("button", { type: "button", class: "act", "data-act": "break", text: t("act.break"),
      onclick: () => ask(side, "break", { do: "break", side: side }, t("ask.break", { name: nm[side] })) }));
    if (o.stop) {
      // on a small phone the icon alone (style.css), so the row fits the half
      const label = (key) => { const [icon, ...words] = t(key).split(" ");
        return [el("span", { text: icon }), el("span", { class: "long", text: " " + words.join(" ") })]; };
      row.append(el("button", { type: "button", class: "act", "data-act": "stop", "aria-label": t("act.stop"), title: t("act.stop"),
        onclick: () => { app.panel[side] = null; stopNow(side); } }, label("act.stop")));
      row.append(el("button", { type: "button", class: "act summon", "data-act": "summon", "aria-label": t("act.summon"), title: t("act.summon"),
        onclick: () => ask(side, "summon", () => callDirector(side, "director"), t("ask.summon")) }, label("act.summon")));
    }
    // USBGF 4.1 / BIBA 4.6: the player on turn claims the opponent's premature action
    if ((st.phase === "playing" || st.phase === "stopped") && st.game > 0 && st.on_turn === side) {
      row.append(el("button", { type: "button", class: "act", "data-act": "premature",
        text: t("act.premature", { name: nm[other(side)] }),
        onclick: () => ask(side, "premature", () => callDirector(side, "premature"),
          t("ask.premature", { name: nm[side], other: nm[other(side)] })) }));
    }
    if (row.childElementCount) panel.append(row);
  }

  /* The tournament's late count at this table (info.late), in one line. */
  function lateLine(late) {
    const names = late.absent.join(", ");
    const hm = (/** @type {number} */ ms) => timeOfDay(ms, I18N.lang);
    if (late.over) return t("late.over", { names: names });
    let line = t("late.count", { names: names, points: late.points, a: late.score[0], b: late.score[1] });
    if (late.arrived) return line + " · " + t("late.arrived", { names: names });
    if (late.next_point_ms) line += " · " + t("late.next", { t: hm(late.next_point_ms) });
    if (late.out_ms) line += " · " + t("late.out", { t: hm(late.out_ms) });
    return line;
  }

  function ask(side, what, cmd, text) {
    app.panel[side] = { kind: "confirm", what: what, cmd: cmd, text: text };
    renderAll();
  }
  function closePanel(side) { app.panel[side] = null; renderAll(); }

  /* The centre panel: the opening roll, the reasons of a stop, the settings,
   * the end of the match. */
  function renderCenter(st, nm) {
    const c = $("center");
    let p = app.center;
    if (!p) {
      if (app.closed) p = null;
      else if (app.panel.A || app.panel.B) p = null;   // a half's menu is open: the roll waits
      else if (st.phase === "setup" || st.phase === "between_games" || (st.phase === "playing" && st.game === 0)) p = { kind: "roll" };
    }
    c.hidden = !p;
    const late = app.info && app.info.late;   // a late arrival counted by the server
    const key = p ? JSON.stringify(p) + st.phase + I18N.lang + (app.roll ? app.roll.join() : "") + JSON.stringify(late || null) : "";
    if (c.dataset.key === key && p) return; // keep the pickers as they are
    c.dataset.key = key;
    c.replaceChildren();
    if (!p) return;
    c.dataset.kind = p.kind;
    if (p.kind === "roll") {
      app.roll = app.roll || [0, 0];
      c.append(el("h3", { id: "center-title", text: t("roll.title") }));
      if (late) c.append(el("p", { class: "hint late-note", id: "late-note", role: "status", text: lateLine(late) }));
      for (const [i, side] of [[0, "A"], [1, "B"]]) {
        const row = el("div", { class: "dice", "data-die": side, role: "group", "aria-label": t("roll.die", { name: nm[side] }) },
          [el("span", { class: "label", title: t("roll.die", { name: nm[side] }) }, [el("span", { class: "tag", text: side }), el("span", { class: "rname", text: " " + nm[side] })])]);
        for (let n = 1; n <= 6; n++) {
          row.append(el("button", { type: "button", class: "die" + (app.roll[i] === n ? " on" : ""), "data-n": n, "aria-pressed": app.roll[i] === n ? "true" : "false",
            text: "⚀⚁⚂⚃⚄⚅"[n - 1] + n, "aria-label": t("roll.die", { name: nm[side] }) + ": " + n, onclick: () => { app.roll[i] = n; renderAll(); } }));
        }
        c.append(row);
      }
      const ok = app.roll[0] && app.roll[1] && app.roll[0] !== app.roll[1];
      const hint = !app.roll[0] || !app.roll[1] ? t("roll.pick") : app.roll[0] === app.roll[1] ? t("roll.equal") : "";
      c.append(el("p", { class: "hint", id: "roll-hint", text: hint }));
      c.append(el("button", { "aria-describedby": "roll-hint", type: "button", class: "act go", id: "roll-start", disabled: ok ? null : "disabled", text: t("roll.start"),
        onclick: () => { const dice = app.roll.slice(); app.roll = [0, 0]; command({ do: "opening_roll", dice: dice }); renderAll(); } }));
    } else if (p.kind === "stop") {
      // both clocks already stopped at the tap (reason `other`); the reason now
      c.append(el("h3", { id: "center-title", text: t("stop.done") }));
      const row = el("div", { class: "row wrap" });
      const who = p.side || "A";
      const pick = (r, why) => {
        app.center = null;
        app.stopNote = { reason: r, side: who };
        if (why) conn.summon({ why: why, side: who });   // a stored note: the director is called
        renderAll();
      };
      for (const r of ["fallen_dice", "dispute", "dice_not_left", "director", "concession", "break", "other"]) {
        row.append(el("button", { type: "button", class: "act", "data-reason": r, text: t("reason." + r),
          onclick: () => pick(r, r === "director" || r === "dispute" ? r : null) }));
      }
      row.append(el("button", { type: "button", class: "act", "data-reason": "premature",
        text: t("stop.premature", { name: nm[other(who)] }), onclick: () => pick("premature", "premature") }));
      c.append(row, el("button", { type: "button", class: "close", "data-act": "close", text: t("act.close"),
        onclick: () => { app.center = null; renderAll(); } }));
    } else if (p.kind === "summon") {
      c.append(el("p", { class: "ask", text: t("ask.summon") }), el("div", { class: "row" }, [
        el("button", { type: "button", class: "act confirm", "data-act": "confirm", text: t("act.confirm"),
          onclick: () => { app.center = null; callDirector(st.on_turn || "A", "director"); renderAll(); } }),
        el("button", { type: "button", class: "act cancel", text: t("act.cancel"), onclick: () => { app.center = null; renderAll(); } })]));
    } else if (p.kind === "settings") {
      renderSettings(c);
    } else if (p.kind === "sheet") {
      renderSheet(c);
    }
  }

  function renderSettings(c) {
    const s = app.settings;
    c.append(el("h3", { id: "center-title", text: t("menu.settings") }));
    const lay = el("div", { class: "row wrap" }, [el("span", { class: "label", text: t("set.layout") })]);
    for (const v of ["auto", "stack", "side"]) {
      lay.append(el("button", { type: "button", class: "act" + (s.layout === v ? " on" : ""), text: t("set.layout." + v),
        onclick: () => { s.layout = v; saveSettings(); rerenderCenter(); } }));
    }
    const toggle = (key, label) => el("button", { type: "button", class: "act" + (s[key] ? " on" : ""), text: t(label) + ": " + t(s[key] ? "set.on" : "set.off"),
      onclick: () => { s[key] = !s[key]; saveSettings(); rerenderCenter(); } });
    const warn = el("input", { type: "text", id: "warn", value: thresholds().map((x) => x / 1000).join(", "), inputmode: "numeric" });
    const lang = el("div", { class: "row wrap" }, [el("span", { class: "label", text: t("set.language") })].concat(
      ["en", "it"].map((l) => el("button", { type: "button", class: "act" + (I18N.lang === l ? " on" : ""), "data-lang": l, text: I18N.STRINGS[l]["lang.name"],
        onclick: () => { I18N.setLang(l); shown.A = {}; shown.B = {}; rerenderCenter(); } })),
      [el("button", { type: "button", class: "act", text: "⤢ " + t("set.fullscreen"), onclick: fullscreen })]));
    c.append(lay, lang, el("div", { class: "row wrap" }, [toggle("swap", "set.swap"), toggle("sound", "set.sound"), toggle("vibrate", "set.vibrate")]),
      el("label", { class: "row" }, [el("span", { class: "label", text: t("set.thresholds") }), warn]),
      el("p", { class: "hint", text: t("set.keys") }),
      ...sheetButton(),
      el("div", { class: "row" }, [
        el("button", { type: "button", class: "act go", text: t("set.save"), onclick: () => { saveThresholds(warn.value); app.center = null; renderAll(); } }),
        el("button", { type: "button", class: "close", text: t("act.close"), onclick: () => { app.center = null; renderAll(); } })]));
  }
  /* A tournament match's score sheets (hand-entered results): each player
   * hands in theirs, the running score game by game ("1-0 1-2 3-2", optional)
   * and their own sheet PIN (from the director): the two players' own sheets
   * the same make the result; different, the trailing player's stands,
   * flagged; without a PIN a sheet waits for the director (docs/protocol.md). */
  function sheetButton() {
    if (!app.info || app.info.tournament_id == null) return [];
    return [el("div", { class: "row" }, [el("button", { type: "button", class: "act", id: "btn-sheet", text: t("sheet.open") + " …",
      onclick: () => { app.center = { kind: "sheet" }; rerenderCenter(); } })])];
  }
  function renderSheet(c) {
    c.append(el("h3", { id: "center-title", text: t("sheet.open") }), ...sheetRows(),
      el("div", { class: "row" }, [el("button", { type: "button", class: "close", text: t("act.close"), onclick: () => { app.center = null; renderAll(); } })]));
  }
  function sheetRows() {
    const nm = names();
    return ["A", "B"].map((by) => {
      const games = el("input", { type: "text", inputmode: "numeric", maxlength: "1200", "data-sheet-games": by,
        "aria-label": t("sheet.games", { name: nm[by] }), placeholder: t("sheet.games_hint") });
      const pin = el("input", { type: "password", inputmode: "numeric", autocomplete: "off", maxlength: "8",
        "data-sheet-pin": by, "aria-label": t("sheet.pin", { name: nm[by] }), placeholder: t("sheet.pin_hint") });
      return el("div", { class: "row wrap", "data-sheet": by }, [
        el("span", { class: "label", text: t("sheet.of", { name: nm[by] }) }), games, pin].concat(["A", "B"].map((w) =>
        el("button", { type: "button", class: "act", "data-sheet-winner": w, text: t("sheet.won", { name: nm[w] }),
          onclick: () => sendSheet(by, nm[w], games.value, pin.value) }))));
    });
  }
  /** "1-0 1-2, 3-2" -> [[1,0],[1,2],[3,2]]; null when a line is not "a-b". */
  function parseGames(text) {
    const parts = text.split(/[\s,;]+/).filter(Boolean);
    const out = [];
    for (const p of parts) {
      const m = /^(\d{1,3})[-–:](\d{1,3})$/.exec(p);
      if (!m) return null;
      out.push([Number(m[1]), Number(m[2])]);
    }
    return out;
  }
  async function sendSheet(by, winner, gamesText, pin) {
    /** @type {Object<string, any>} */
    const body = { by: by, winner: winner };
    const games = parseGames(gamesText || "");
    if (games === null) { toast(t("sheet.bad_games")); return; }
    if (games.length) body.games = games;
    if (pin) body.pin = pin.trim();
    try {
      const r = await fetch("/api/tables/" + tableId + "/sheet?token=" + encodeURIComponent(token || ""), {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await r.json();
      if (!r.ok) { toast(data.message || String(r.status)); return; }
      const done = data.done[0];
      toast(done.final ? (done.outcome === "trailing" ? t("sheet.trailing") : t("sheet.final"))
        : done.outcome === "director" ? (done.mismatch ? t("sheet.mismatch") : t("sheet.unconfirmed"))
        : t("sheet.kept"));
    } catch (e) { toast(String(e)); }
  }

  /* Keep the player's thresholds only when they differ from the table's (or
   * the link's): a later change by the director then reaches this device. */
  function saveThresholds(text) {
    const mine = parseThresholds(text, thresholds());
    if (mine.join() === thresholds(false).join()) delete app.settings.warnByTable[tableId];
    else app.settings.warnByTable[tableId] = mine;
    saveSettings();
  }
  function rerenderCenter() { $("center").dataset.key = ""; renderAll(); }

  /* The numbers, on every frame. */
  const shown = { A: {}, B: {} };
  /* d: the display() of this frame (read once: the device's match is folded
   * on every call). */
  function renderTimes(d) {
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
      const used = v.at_ms + (performance.now() - d.base) - st.break.started_ms;
      const lim = st.break.limit_ms;
      const over = lim != null && used > lim;
      const txt = over ? t("break.over", { t: fmtClock(used - lim) }) : t("break.running", { t: fmtClock(used) });
      if ($("phase").textContent !== txt) $("phase").textContent = txt;
      $("phase").classList.toggle("alarm", over);
      const msg = lim == null ? t("msg.break_nolimit", { t: fmtClock(used) })
        : over ? t("msg.break_over", { limit: fmtClock(lim), t: fmtClock(used - lim) })
        : t("msg.break", { t: fmtClock(used), limit: fmtClock(lim) });
      for (const side of SIDES) {
        const n = q(side, ".brk");
        if (n && n.textContent !== msg) { n.textContent = msg; n.classList.toggle("alarm", over); }
      }
    } else $("phase").classList.remove("alarm");
  }

  /* Low-time warnings: colour, sound, vibration, once per threshold. */
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
  function alarm(side, threshold) {
    const th = thresholds();
    const n = threshold === 0 ? 5 : Math.min(3, th.indexOf(threshold) + 1 || 1);
    app.warnings.push({ side: side, threshold_ms: threshold, at: performance.now() });
    if (app.settings.sound) beep(n, threshold === 0 ? 300 : 150);
    if (app.settings.vibrate) vibrate(threshold === 0 ? [400, 100, 400, 100, 400] : Array(n * 2 - 1).fill(120));
    const h = halves[side];
    h.classList.remove("pulse"); void h.offsetWidth; h.classList.add("pulse");
  }

  function frame() {
    app.frames += 1;
    // a change the clock itself makes (an expiry, its penalty) is rendered whole
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

  let toastTimer = null;
  /* A message over the screen; `side`: the player it is for (a refusal of
   * that player's command), turned to face them like their half. */
  function toast(text, side) {
    const n = $("toast");
    n.textContent = text; n.hidden = false;
    n.dataset.side = side || "";
    n.classList.toggle("far", !!side && halves[side].classList.contains("far"));
    n.classList.toggle("near", !!side && halves[side].classList.contains("near"));
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { n.hidden = true; }, 5000);
  }

  /* ----------------------------------------------------- screen and input */
  /* The screen stays awake (table/awake.js); the bar says when it cannot. */
  const awake = new ScreenAwake(document, setAwake);
  function wakeLock() { return awake.keep(); }
  function setAwake(how) {
    app.awake = how;
    const n = $("awake");
    if (!n) return;
    n.dataset.awake = how;
    n.hidden = how !== "off";
    n.title = t(how === "lock" ? "awake.on" : how === "video" ? "awake.video" : "awake.off");
    const txt = n.querySelector(".awake-text");
    if (txt) txt.textContent = how === "off" ? t("awake.off") : "";
  }

  /* No control sits under the spot of the control before it (table/guard.js). */
  const guard = new TapGuard(document, $("clock"));
  app.guarded = guard.guarded;   // what was swallowed (tests read it)
  Object.defineProperty(app, "layoutAt", { get: () => guard.layoutAt });

  for (const side of SIDES) {
    halves[side].addEventListener("pointerdown", (e) => {
      if (e.target.closest("button, .panel, input, select, a, .edge")) return;
      e.preventDefault();
      press(side);
    });
    q(side, ".more").addEventListener("click", () => { app.panel[side] = app.panel[side] ? null : { kind: "menu" }; renderAll(); });
  }
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.key === "Escape") { app.panel = { A: null, B: null }; app.center = null; renderAll(); return; }
    if (e.repeat) return;
    if (e.code === "ShiftLeft" || e.key === "a" || e.key === "A") { e.preventDefault(); press("A"); }
    else if (e.code === "ShiftRight" || e.key === "l" || e.key === "L") { e.preventDefault(); press("B"); }
  });
  $("btn-stop").addEventListener("click", () => stopNow(null));
  $("btn-director").addEventListener("click", () => { app.center = { kind: "summon" }; renderAll(); });
  $("btn-resume").addEventListener("click", () => { command({ do: "resume" }); });
  $("btn-settings").addEventListener("click", () => { app.center = app.center && app.center.kind === "settings" ? null : { kind: "settings" }; rerenderCenter(); });
  $("btn-lang").addEventListener("click", () => { I18N.setLang(I18N.lang === "en" ? "it" : "en"); shown.A = {}; shown.B = {}; rerenderCenter(); });
  function fullscreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
    wakeLock();
  }
  $("btn-full").addEventListener("click", fullscreen);
  window.addEventListener("resize", layout);
  document.addEventListener("pointerdown", () => unlockAudio(), { once: true });

  document.documentElement.lang = I18N.lang;
  window.__bgclock = { app: app, conn: conn, display: display, press: press, command: command, thresholds: thresholds, tableNow: tableNow,
    callDirector: callDirector, stopNow: stopNow, leaveAsks: leaveAsks, persistNow: persistNow,
    link: link, i18n: I18N };
  /* While commands wait, a reload or a closed tab asks first (they are
   * kept anyway: device-store.js). */
  function leaveAsks() { return conn.pending.length > 0; }
  window.addEventListener("beforeunload", (e) => {
    persistNow();
    if (leaveAsks()) { e.preventDefault(); e.returnValue = ""; }
  });
  window.addEventListener("pagehide", persistNow);

  /* Over TLS only: the service worker that serves the page offline (table/worker.js). */
  app.worker = "pending";

  if (token) restore();
  renderAll();
  registerTableWorker(location).then((how) => { app.worker = how; });
  wakeLock();
  if (!token) renderConn("unauthorized"); else conn.start();
  requestAnimationFrame(frame);
})();
