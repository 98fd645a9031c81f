/* bgclock: what both pages share.
 *
 * The first half is pure functions (no DOM, no clock): formatting, the local
 * countdown of a state between two server messages, low-time threshold
 * crossings.  The tests call them in the browser through window.BG.
 * The second half is the connection: one WebSocket speaking protocol
 * version 1 (docs/protocol.md), with reconnection, a lag estimate from
 * ping/pong, and a queue of commands pressed while the link was down. */
(function (root) {
  "use strict";
  const MAX_LAG_MS = 60000; // protocol: lag_ms is 0..60000

  /* ------------------------------------------------------------ formatting */
  function pad2(n) { return n < 10 ? "0" + n : String(n); }

  /* A reserve as the clock shows it: h:mm:ss from an hour, m:ss, and under
   * 20 s m:ss.t (tenths).  Rounded down: "0:00.0" only at the very end. */
  function fmtClock(ms) {
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

  /* A short duration (allowance, credit) in m:ss, rounded up so a running
   * delay shows 0:12 .. 0:01 and 0:00 only when spent. */
  function fmtShort(ms) {
    if (!(ms > 0)) return "0:00";
    const s = Math.ceil(ms / 1000);
    return Math.floor(s / 60) + ":" + pad2(s % 60);
  }

  function fmtSigned(ms) { return (ms < 0 ? "−" : "+") + fmtClock(Math.abs(ms)); }

  /* "1:30" -> 90000, "90" -> 90000, "0:05.5" -> 5500; null when unreadable. */
  function parseClock(text) {
    const m = /^\s*(?:(\d+):)?(\d+(?:\.\d+)?)\s*$/.exec(String(text));
    if (!m) return null;
    const min = m[1] ? parseInt(m[1], 10) : 0;
    return Math.round((min * 60 + parseFloat(m[2])) * 1000);
  }

  /* -------------------------------------------------------------- the time */
  /* The time mode of a table: the director's override, else the preset's.
   * presets: {id: {mode, delay_ms, team_delay_ms}} (injected by the server). */
  function modeOf(state, info, presets) {
    const clock = (info && info.clock) || {};
    if (clock.mode) return clock.mode;
    const p = presets && state && presets[state.rules];
    if (p) return p.mode;
    // No preset table: read it from the state (simple delay spends the
    // allowance before the reserve, so the expiry is further away).
    const s = state && (state.A.running ? state.A : state.B.running ? state.B : null);
    if (s && state.expires_at_ms != null && s.delay_ms > 0 &&
        state.expires_at_ms - state.at_ms >= s.reserve_ms + s.delay_ms) return "simple_delay";
    return "bronstein";
  }

  /* The per-move allowance D of a table (for "credit +x / D"). */
  function allowanceOf(state, info, presets) {
    const clock = (info && info.clock) || {};
    if (modeOf(state, info, presets) === "standard") return 0;
    if (clock.delay_ms != null) return clock.delay_ms;
    const p = presets && state && presets[state.rules];
    if (!p) return 0;
    return state.teams ? p.team_delay_ms : p.delay_ms;
  }

  /* One side's clock `elapsed` ms after the state it comes from.  Only a
   * running side moves (docs/protocol.md, "Showing a running clock"):
   * simple delay spends the allowance first, then the reserve; the other
   * modes spend the reserve from the first ms while the unused allowance
   * (Bronstein: the credit not yet earned) falls alongside. */
  function sideAt(side, mode, elapsed) {
    if (!side.running || !(elapsed > 0)) {
      return { reserve_ms: side.reserve_ms, delay_ms: side.delay_ms, running: side.running };
    }
    if (mode === "simple_delay") {
      const beyond = Math.max(0, elapsed - side.delay_ms);
      return { reserve_ms: Math.max(0, side.reserve_ms - beyond),
               delay_ms: Math.max(0, side.delay_ms - elapsed), running: true };
    }
    return { reserve_ms: Math.max(0, side.reserve_ms - elapsed),
             delay_ms: Math.max(0, side.delay_ms - elapsed), running: true };
  }

  /* Both sides `elapsed` ms after `state`.  Never counts past the expiry
   * instant: the page shows 0 there and waits for the server's `expiry`. */
  function viewAt(state, mode, elapsed) {
    let e = Math.max(0, elapsed);
    if (state.expires_at_ms != null) e = Math.min(e, Math.max(0, state.expires_at_ms - state.at_ms));
    if (state.phase !== "playing") e = 0;
    return { A: sideAt(state.A, mode, e), B: sideAt(state.B, mode, e), at_ms: state.at_ms + e };
  }

  /* ----------------------------------------------------- low-time warnings */
  /* Which threshold fires now that a reserve reads nowMs.
   * fired: the thresholds already announced for this side (never repeated).
   * A threshold is armed again only when the reserve rises well above it
   * (rearmMs: a director's adjust, an ABA reset), not by a Bronstein credit.
   * When several are crossed at once (a late page, a jump) only the lowest
   * sounds, but all are marked: a warning is never missed nor repeated.
   * Returns {fire: threshold ms or null, fired: new array}. */
  function crossings(nowMs, thresholds, fired, rearmMs) {
    const rearm = rearmMs == null ? 30000 : rearmMs;
    let done = fired.filter((t) => nowMs <= t + rearm);
    let fire = null;
    const sorted = thresholds.slice().sort((a, b) => b - a);
    for (const t of sorted) {
      if (nowMs <= t && done.indexOf(t) < 0) {
        done = done.concat([t]);
        fire = t; // keep the lowest
      }
    }
    return { fire: fire, fired: done.sort((a, b) => b - a) };
  }

  /* "60,20,10" -> [60000, 20000, 10000]; bad input -> the default. */
  function parseThresholds(text, fallback) {
    const out = String(text || "").split(/[ ,;]+/).filter(Boolean).map(Number)
      .filter((n) => Number.isFinite(n) && n > 0 && n <= 3600).map((n) => Math.round(n * 1000));
    return out.length ? Array.from(new Set(out)).sort((a, b) => b - a) : (fallback || [60000, 20000, 10000]);
  }

  /* The thresholds a table page uses (ms, highest first): the player's own
   * choice in ⚙ for this table, else the link's `&warn=`, else the table's
   * (`info.warn_s`, set by the director), else 60, 20, 10 s. */
  function thresholdsFor(local, linkWarn, info) {
    if (Array.isArray(local) && local.length) return local.slice().sort((a, b) => b - a);
    if (linkWarn) return parseThresholds(linkWarn);
    if (info && Array.isArray(info.warn_s) && info.warn_s.length) {
      return info.warn_s.map((x) => x * 1000).sort((a, b) => b - a);
    }
    return [60000, 20000, 10000];
  }

  /* -------------------------------------------------- what a side may do */
  /* The commands a table device can offer now, per side; the server has the
   * last word (and the engine's reason when it refuses). */
  function playerOptions(state, side) {
    const other = side === "A" ? "B" : "A";
    const ph = state.phase, me = state[side];
    const gameOn = state.game > 0 && (ph === "playing" || ph === "stopped");
    const o = { hit: false, double: false, take: false, pass: false, accept: false, reject: false,
                concede: false, claim: false, game_over: false, break: false, stop: false };
    if (ph === "playing") {
      o.stop = true;
      if (state.double_offered_by === other) { o.take = true; o.pass = true; }
      else if (me.running && !state.double_offered_by) {
        o.hit = true;
        o.double = state.game > 0 && !state.crawford && !state.cube_frozen &&
          (state.cube.owner === null || state.cube.owner === side);
      }
    }
    if (ph === "stopped" && state.double_offered_by === other) o.pass = true;
    if (gameOn && !state.double_offered_by) { o.concede = true; o.claim = true; o.game_over = true; }
    if (ph === "offer" && state.offer && state.offer.side === other) { o.accept = true; o.reject = true; }
    if (ph === "setup" || ph === "between_games") o.break = true;
    return o;
  }

  /* ------------------------------------------------------------ the link */
  let idCounter = 0;
  /* This browser's own id, kept across reloads: the table's first device
   * keeps the table's time (protocol: Device time). */
  function deviceId() {
    const key = "bgclock.device";
    try {
      let id = root.localStorage.getItem(key);
      if (!id || !/^[A-Za-z0-9._:-]{1,64}$/.test(id)) { id = "d-" + newDeviceId() + newDeviceId(); root.localStorage.setItem(key, id); }
      return id;
    } catch (e) { return "d-" + newDeviceId() + newDeviceId(); }
  }
  function newDeviceId() {
    const a = new Uint8Array(4);
    (root.crypto && root.crypto.getRandomValues) ? root.crypto.getRandomValues(a) : a.forEach((_, i) => { a[i] = Math.random() * 256; });
    return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /* One WebSocket to the server, always trying to be connected.
   * opts: url, hello() -> the hello message, onMessage(msg), onStatus(status),
   * now() (ms, monotonic).  Commands go through send(); each gets an id and
   * the instant it was pressed, stays pending until its ack or error, and is
   * (re)sent at every (re)connection with lag_ms = time since the press plus
   * the one-way delay, so the server credits it with the instant of the press
   * (within its lag rules), under the same id (no double event). */
  /* How the link is watched: a ping every PING_EVERY_MS; a ping still
   * unanswered PONG_DEADLINE_MS after the last pong means the link is dead
   * (so a dead link is noticed within PONG_DEADLINE_MS and a tick) (the socket may sit
   * in "closing" for many seconds after the network went away: it is
   * abandoned at once, not closed politely), and the page reconnects after a
   * backoff that doubles with jitter up to BACKOFF_CAP_MS. */
  const PING_EVERY_MS = 1000, PONG_DEADLINE_MS = 2500;
  const BACKOFF_FIRST_MS = 250, BACKOFF_CAP_MS = 4000;

  /* The next backoff: double, capped, with full jitter on the upper half so
   * that a room of pages does not reconnect in one burst. rand in [0, 1). */
  function nextBackoff(prev, rand) {
    const base = Math.min(BACKOFF_CAP_MS, Math.max(BACKOFF_FIRST_MS, prev * 2));
    return Math.round(base / 2 + (base / 2) * rand);
  }

  class Connection {
    constructor(opts) {
      this.url = opts.url;
      this.hello = opts.hello;
      this.onMessage = opts.onMessage || (() => {});
      this.onStatus = opts.onStatus || (() => {});
      this.now = opts.now || (() => performance.now());
      this.prefix = (opts.prefix || "dev") + newDeviceId();
      this.pending = [];        // [{id, cmd, pressedAt, sent}]
      this.rtts = [];           // last round trips (ms)
      this.status = "connecting";
      this.ws = null;
      this.ready = false;       // welcome received
      this.stopped = false;     // unauthorized: do not retry
      this.backoff = BACKOFF_FIRST_MS;
      this.lastPong = 0;
      this.pingSentAt = null;   // the oldest ping still without its pong
      this.readyAt = 0;
      this.timer = null;
      this.retryTimer = null;
      this.deaths = 0;          // dead links noticed (tests read it)
      this.reconciling = false; // presses queued while offline, not all accepted yet
      this.synced = false;      // the queued presses have all been accepted since the last reconnect
      /* Device time (protocol: "Device time and reconciliation"): the
       * device's own id, the table's creation instant on the server's clock,
       * and the offset server_ms - now() from the pong of the shortest round
       * trip: a press counts at pressedAt + offset - createdMs. */
      this.device = opts.device || null;
      this.createdMs = opts.createdMs || (() => null);
      this.offset = null;
      this.offsetRtt = Infinity;
    }
    /* The table's time line at device instant t (ms), or null until known. */
    tableMs(t) {
      const created = this.createdMs();
      if (this.offset == null || created == null) return null;
      return Math.max(0, Math.round(t + this.offset - created));
    }
    get lagMs() {
      if (!this.rtts.length) return 0;
      return Math.round(Math.min.apply(null, this.rtts) / 2);
    }
    setStatus(s) {
      if (s !== "online") this.synced = false;
      if (s === "offline" && this.pending.length) this.reconciling = true;
      this.status = s; this.onStatus(s, this.pending.length);
    }
    start() {
      if (this.stopped) return;
      this.retryTimer = null;
      this.setStatus(this.ws ? "offline" : "connecting");
      let ws;
      try { ws = new WebSocket(this.url); } catch (e) { this.retry(); return; }
      this.ws = ws;
      this.ready = false;
      this.pingSentAt = null;
      ws.onopen = () => {
        if (this.ws !== ws) return;
        const hello = this.hello();
        hello.batch = true;   // one frame per commit (protocol: "Batch frames")
        if (this.device) {
          hello.device = this.device;
          // held commands (restored after a reload, sent once the match is known) count too
          hello.queued = this.pending.filter((p) => !p.type || p.type === "cmd").length;
        }
        this.sendRaw(hello);
        this.lastPong = this.now();
      };
      ws.onmessage = (ev) => {
        if (this.ws !== ws) return;   // an abandoned socket: nothing it says counts
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        this.handle(msg);
      };
      ws.onclose = (ev) => {
        if (this.ws !== ws) return;
        this.ready = false;
        clearInterval(this.timer);
        if (ev.code === 1008 && this.status === "unauthorized") { this.stopped = true; return; }
        this.setStatus("offline");
        this.retry();
      };
      ws.onerror = () => { /* onclose follows */ };
    }
    retry() {
      if (this.stopped || this.retryTimer) return;
      this.retryTimer = setTimeout(() => this.start(), this.backoff);
      this.backoff = nextBackoff(this.backoff, Math.random());
    }
    /* The link is dead (no pong in time): abandon the socket now, without
     * waiting for a close handshake that may never finish, say so, and
     * reconnect. */
    drop() {
      const ws = this.ws;
      if (!ws) return;
      this.deaths += 1;
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch (e) { /* closed */ }
      this.ws = { readyState: 3 };   // not null: the next start() says "offline"
      this.ready = false;
      clearInterval(this.timer);
      this.setStatus("offline");
      this.retry();
    }
    handle(msg) {
      if (msg.type === "batch") {   // what one commit said, in order
        for (const m of msg.messages || []) this.handle(m);
        return;
      }
      if (msg.type === "welcome") {
        this.ready = true;
        this.backoff = BACKOFF_FIRST_MS;
        this.lastPong = this.readyAt = this.now();
        this.setStatus("online");
        this.ping();
        clearInterval(this.timer);
        this.timer = setInterval(() => this.tick(), 100);
        this.flush();
        this.checkSynced();
      } else if (msg.type === "pong") {
        this.lastPong = this.now();
        this.pingSentAt = null;
        if (typeof msg.t === "number") {
          const received = this.now(), rtt = received - msg.t;
          this.rtts.push(rtt);
          if (this.rtts.length > 5) this.rtts.shift();
          // the offset of the best round trip seen (a slow one says less)
          if (typeof msg.server_ms === "number" && rtt <= this.offsetRtt + 5) {
            this.offset = msg.server_ms - (msg.t + received) / 2;
            this.offsetRtt = Math.min(rtt, this.offsetRtt);
          }
        }
        return;
      } else if ((msg.type === "ack" || msg.type === "error") && msg.id) {
        const i = this.pending.findIndex((p) => p.id === msg.id);
        if (i >= 0) this.pending.splice(i, 1);
        this.checkSynced();
        this.onStatus(this.status, this.pending.length);
      } else if (msg.type === "error" && (msg.code === "unauthorized" || msg.code === "hello_first")) {
        this.setStatus("unauthorized");
      }
      this.onMessage(msg);
    }
    /* After a reconnect, once every press queued while offline has its
     * answer: "synced" (the page shows it until the next press or drop). */
    checkSynced() {
      if (this.reconciling && this.ready && !this.pending.length) { this.reconciling = false; this.synced = true; }
    }
    tick() {
      if (!this.ready) return;
      const now = this.now();
      if (this.pingSentAt != null && now - Math.max(this.lastPong, this.readyAt) > PONG_DEADLINE_MS) { this.drop(); return; }
      if (this.pingSentAt == null && now - this.lastPong >= PING_EVERY_MS) this.ping();
    }
    ping() {
      const t = this.now();
      if (this.sendRaw({ type: "ping", v: 1, t: t }) && this.pingSentAt == null) this.pingSentAt = t;
    }
    sendRaw(obj) {
      if (this.ws && this.ws.readyState === 1) { this.ws.send(JSON.stringify(obj)); return true; }
      return false;
    }
    /* Send a command (fields of the clock script format, no at_ms).
     * pressedAt: the instant of the press (defaults to now).  type: "cmd"
     * (default), "summon" (fields why, side; no lag: not a clock event) or
     * "handle" (the director's: table, key), queued and resent with its id
     * alike.  id: the id to send it under (a confirmation's, derived from
     * what it settles: the same on every dashboard); one already pending is
     * not queued again.  atMs: the instant on the table's line the device
     * applied it at (sent as device_at_ms; default: pressedAt mapped when
     * sent).  Returns its id. */
    send(cmd, pressedAt, type, id, atMs) {
      if (id && this.pending.some((q) => q.id === id)) return id;
      if (!id) { idCounter += 1; id = this.prefix + "-" + idCounter; }
      const p = { id: id, cmd: cmd, pressedAt: pressedAt == null ? this.now() : pressedAt,
                  type: type || "cmd", atMs: atMs == null ? null : atMs,
                  // behind a held queue, in order: the server takes a table's commands in turn
                  held: this.pending.some((q) => q.held) };
      this.pending.push(p);
      this.synced = false;
      if (this.ready && !p.held) this.transmit(p); else this.onStatus(this.status, this.pending.length);
      return p.id;
    }
    /* Summon the director: {why, side} (and table, for the director). */
    summon(fields) { return this.send(fields, null, "summon"); }
    transmit(p) {
      if (p.type && p.type !== "cmd") {
        p.sent = this.sendRaw(Object.assign({ type: p.type, v: 1, id: p.id }, p.cmd));
        return;
      }
      const lag = Math.min(MAX_LAG_MS, Math.max(0, Math.round(this.now() - p.pressedAt) + this.lagMs));
      const msg = Object.assign({ type: "cmd", v: 1, id: p.id, lag_ms: lag }, p.cmd);
      // the instant the device applied it (device.js), else the press mapped now
      const at = p.atMs != null ? p.atMs : this.tableMs(p.pressedAt);
      if (at != null) msg.device_at_ms = at;
      p.sent = this.sendRaw(msg);
    }
    /* Send every waiting command but those held back (a queue restored
     * after a reload waits until the page knows it is still the same match). */
    flush() { for (const p of this.pending) if (!p.held) this.transmit(p); }
    /* Release the held commands (and send them if the link is up). */
    release() {
      for (const p of this.pending) {
        if (!p.held) continue;
        p.held = false;
        if (this.ready) this.transmit(p);
      }
    }
  }

  /* ------------------------------------------------------ sound, vibration */
  let audio = null;
  function unlockAudio() {
    try {
      if (!audio) audio = new (root.AudioContext || root.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  /* n short beeps (a WebAudio square wave, 880 Hz). */
  function beep(n, ms) {
    unlockAudio();
    if (!audio) return false;
    const len = (ms || 150) / 1000;
    const t0 = audio.currentTime + 0.01;
    for (let i = 0; i < n; i++) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.type = "square"; o.frequency.value = 880;
      g.gain.setValueAtTime(0.0001, t0 + i * len * 2);
      g.gain.exponentialRampToValueAtTime(0.3, t0 + i * len * 2 + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + i * len * 2 + len);
      o.connect(g).connect(audio.destination);
      o.start(t0 + i * len * 2); o.stop(t0 + i * len * 2 + len + 0.02);
    }
    return true;
  }
  function vibrate(pattern) {
    try { return root.navigator && root.navigator.vibrate ? root.navigator.vibrate(pattern) : false; }
    catch (e) { return false; }
  }

  /* ------------------------------------------------------------ misc */
  function wsUrl() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  }
  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    if (attrs) for (const k in attrs) {
      if (k === "class") e.className = attrs[k];
      else if (k === "text") e.textContent = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k]);
    }
    for (const c of children || []) if (c != null) e.append(c);
    return e;
  }
  function readPresets() {
    const node = typeof document !== "undefined" && document.getElementById("bg-presets");
    if (!node) return {};
    try { return JSON.parse(node.textContent); } catch (e) { return {}; }
  }

  root.BG = {
    MAX_LAG_MS, fmtClock, fmtShort, fmtSigned, parseClock, modeOf, allowanceOf, sideAt, viewAt,
    crossings, parseThresholds, thresholdsFor, playerOptions, Connection, nextBackoff, deviceId, PING_EVERY_MS, PONG_DEADLINE_MS,
    BACKOFF_CAP_MS, beep, vibrate, unlockAudio, wsUrl, el,
    readPresets
  };
})(typeof window !== "undefined" ? window : globalThis);
