// @ts-check
/* bgclock: the link to the server: one WebSocket speaking protocol version 1
 * (docs/protocol.md), with reconnection, a lag estimate from ping/pong, and a
 * queue of commands pressed while the link was down. */

/** @typedef {import("./types.js").Message} Message */

/** protocol: lag_ms is 0..60000 */
export const MAX_LAG_MS = 60000;

let idCounter = 0;
/* This browser's own id, kept across reloads: the table's first device
 * keeps the table's time (protocol: Device time). */
/** @returns {string} */
export function deviceId() {
  const key = "bgclock.device";
  try {
    let id = localStorage.getItem(key);
    if (!id || !/^[A-Za-z0-9._:-]{1,64}$/.test(id)) { id = "d-" + newDeviceId() + newDeviceId(); localStorage.setItem(key, id); }
    return id;
  } catch (e) { return "d-" + newDeviceId() + newDeviceId(); }
}
/** @returns {string} 8 random hex digits */
function newDeviceId() {
  const a = new Uint8Array(4);
  if (globalThis.crypto && globalThis.crypto.getRandomValues) globalThis.crypto.getRandomValues(a);
  else a.forEach((_, i) => { a[i] = Math.random() * 256; });
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
export const PING_EVERY_MS = 1000, PONG_DEADLINE_MS = 2500;
export const BACKOFF_FIRST_MS = 250, BACKOFF_CAP_MS = 4000;
/* Commands go out no faster than the server takes them (a device: 30 at once,
 * then 10 a second; docs/protocol.md "Limits"): SEND_BURST at once, then
 * SEND_RATE a second; the rest wait here, in order.  Pings are not counted
 * (the server never sheds them).  A command the server refuses for the
 * moment (RETRY_CODES: shed, not stored, the table busy, loading or moving
 * to another process of a cluster) is not
 * applied: it stays pending and is sent again, with those after it, in
 * order, after the refusal's retry_ms (RETRY_MS without one). */
export const SEND_BURST = 20, SEND_RATE = 8, RETRY_MS = 1000;
export const RETRY_CODES = ["rate_limited", "storage", "busy", "loading", "not_owner"];
/* A socket closed with MOVED_CLOSE (1012: the table moved to another process
 * of a cluster, or this one is leaving) reconnects at once, after a jitter of
 * at most MOVED_JITTER_MS, not after the backoff: the next process has it. */
export const MOVED_CLOSE = 1012, MOVED_JITTER_MS = 50;

/* The next backoff: double, capped, with full jitter on the upper half so
 * that a room of pages does not reconnect in one burst. rand in [0, 1). */
/** @param {number} prev @param {number} rand @returns {number} */
export function nextBackoff(prev, rand) {
  const base = Math.min(BACKOFF_CAP_MS, Math.max(BACKOFF_FIRST_MS, prev * 2));
  return Math.round(base / 2 + (base / 2) * rand);
}

/**
 * A command waiting for its answer.
 * @typedef {{id: string, cmd: Object<string, any>, pressedAt: number, type: string,
 *   atMs: number|null, held: boolean, sent?: boolean}} Pending
 */
/**
 * @typedef {{url: string, hello?: () => Object<string, any>, onMessage?: (msg: Message) => void,
 *   onStatus?: (status: string, queued: number) => void, now?: () => number, prefix?: string,
 *   device?: string|null, createdMs?: () => (number|null)}} LinkOptions
 */

export class Connection {
  /** @param {LinkOptions} opts */
  constructor(opts) {
    this.url = opts.url;
    /** @type {() => Object<string, any>} */
    this.hello = opts.hello || (() => ({ type: "hello", v: 1 }));
    this.onMessage = opts.onMessage || (() => {});
    this.onStatus = opts.onStatus || (() => {});
    this.now = opts.now || (() => performance.now());
    this.prefix = (opts.prefix || "dev") + newDeviceId();
    /** @type {Pending[]} */
    this.pending = [];
    /** @type {number[]} */
    this.rtts = [];           // last round trips (ms)
    this.status = "connecting";
    /** @type {WebSocket|{readyState: number}|null} */
    this.ws = null;
    this.ready = false;       // welcome received
    this.stopped = false;     // unauthorized: do not retry
    this.backoff = BACKOFF_FIRST_MS;
    this.lastPong = 0;
    /** @type {number|null} the oldest ping still without its pong */
    this.pingSentAt = null;
    this.readyAt = 0;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.retryTimer = null;
    this.deaths = 0;          // dead links noticed (tests read it)
    this.reconciling = false; // presses queued while offline, not all accepted yet
    this.synced = false;      // the queued presses have all been accepted since the last reconnect
    /* Device time (protocol: "Device time and reconciliation"): the
     * device's own id, the table's creation instant on the server's clock,
     * and the offset server_ms - now() from the pong of the shortest round
     * trip: a press counts at pressedAt + offset - createdMs. */
    /** @type {string|null} */
    this.device = opts.device || null;
    this.createdMs = opts.createdMs || (() => null);
    /** @type {number|null} */
    this.offset = null;
    this.offsetRtt = Infinity;
    /* the send bucket (SEND_BURST, SEND_RATE) and, after a refusal of the
     * moment, the instant before which nothing is sent */
    this.tokens = SEND_BURST;
    this.tokensAt = this.now();
    this.waitUntil = 0;
  }
  /* The table's time line at device instant t (ms), or null until known. */
  /** @param {number} t @returns {number|null} */
  tableMs(t) {
    const created = this.createdMs();
    if (this.offset == null || created == null) return null;
    return Math.max(0, Math.round(t + this.offset - created));
  }
  get lagMs() {
    if (!this.rtts.length) return 0;
    return Math.round(Math.min(...this.rtts) / 2);
  }
  /** @param {string} s */
  setStatus(s) {
    if (s !== "online") this.synced = false;
    if (s === "offline" && this.pending.length) this.reconciling = true;
    this.status = s; this.onStatus(s, this.pending.length);
  }
  start() {
    if (this.stopped) return;
    this.retryTimer = null;
    this.setStatus(this.ws ? "offline" : "connecting");
    /** @type {WebSocket} */
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
      /** @type {Message} */
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
      if (ev.code === MOVED_CLOSE && !this.retryTimer) {
        this.retryTimer = setTimeout(() => this.start(), Math.round(MOVED_JITTER_MS * Math.random()));
        return;
      }
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
    if ("close" in ws) {   // (the stand-in of a socket already abandoned has nothing to close)
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch (e) { /* closed */ }
    }
    this.ws = { readyState: 3 };   // not null: the next start() says "offline"
    this.ready = false;
    clearInterval(this.timer);
    this.setStatus("offline");
    this.retry();
  }
  /** @param {Message} msg */
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
      if (msg.type === "error" && i >= 0 && RETRY_CODES.includes(msg.code)) {
        // not applied: kept, and sent again in order (it and those after it)
        for (const p of this.pending.slice(i)) p.sent = false;
        const wait = typeof msg.retry_ms === "number" ? msg.retry_ms : RETRY_MS;
        this.waitUntil = Math.max(this.waitUntil, this.now() + wait);
        this.onStatus(this.status, this.pending.length);
        this.onMessage(Object.assign({}, msg, { retrying: true }));
        return;
      }
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
    this.pump();
  }
  ping() {
    const t = this.now();
    if (this.sendRaw({ type: "ping", v: 1, t: t }) && this.pingSentAt == null) this.pingSentAt = t;
  }
  /** @param {Object<string, any>} obj @returns {boolean} */
  sendRaw(obj) {
    if (this.ws && this.ws.readyState === 1 && "send" in this.ws) { this.ws.send(JSON.stringify(obj)); return true; }
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
  /**
   * @param {Object<string, any>} cmd @param {number|null} [pressedAt] @param {string} [type]
   * @param {string} [id] @param {number|null} [atMs] @returns {string}
   */
  send(cmd, pressedAt, type, id, atMs) {
    if (id && this.pending.some((q) => q.id === id)) return id;
    if (!id) { idCounter += 1; id = this.prefix + "-" + idCounter; }
    /** @type {Pending} */
    const p = { id: id, cmd: cmd, pressedAt: pressedAt == null ? this.now() : pressedAt,
                type: type || "cmd", atMs: atMs == null ? null : atMs,
                // behind a held queue, in order: the server takes a table's commands in turn
                held: this.pending.some((q) => q.held) };
    this.pending.push(p);
    this.synced = false;
    if (this.ready && !p.held) this.pump(); else this.onStatus(this.status, this.pending.length);
    return p.id;
  }
  /* Summon the director: {why, side} (and table, for the director). */
  /** @param {Object<string, any>} fields @returns {string} */
  summon(fields) { return this.send(fields, null, "summon"); }
  /** @param {Pending} p */
  transmit(p) {
    if (p.type && p.type !== "cmd") {
      p.sent = this.sendRaw(Object.assign({ type: p.type, v: 1, id: p.id }, p.cmd));
      return;
    }
    const lag = Math.min(MAX_LAG_MS, Math.max(0, Math.round(this.now() - p.pressedAt) + this.lagMs));
    /** @type {Object<string, any>} */
    const msg = Object.assign({ type: "cmd", v: 1, id: p.id, lag_ms: lag }, p.cmd);
    // the instant the device applied it (device.js), else the press mapped now
    const at = p.atMs != null ? p.atMs : this.tableMs(p.pressedAt);
    if (at != null) msg.device_at_ms = at;
    p.sent = this.sendRaw(msg);
  }
  /* Take one from the send bucket (SEND_BURST, SEND_RATE). @returns {boolean} */
  take() {
    const now = this.now();
    this.tokens = Math.min(SEND_BURST, this.tokens + (now - this.tokensAt) * SEND_RATE / 1000);
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  /* Send the commands not sent yet, in order, as the bucket allows; none
   * while a refusal's wait runs (its command keeps its place). */
  pump() {
    if (!this.ready || this.now() < this.waitUntil) return;
    for (const p of this.pending) {
      if (p.held || p.sent) continue;
      if (!this.take()) return;
      this.transmit(p);
      if (!p.sent) return;
    }
  }
  /* Send every waiting command again but those held back (a queue restored
   * after a reload waits until the page knows it is still the same match). */
  flush() {
    for (const p of this.pending) if (!p.held) p.sent = false;
    this.waitUntil = 0;
    this.pump();
  }
  /* Release the held commands (and send them if the link is up). */
  release() {
    for (const p of this.pending) p.held = false;
    this.pump();
  }
}


/** The server's WebSocket address, on this page's host. @returns {string} */
export function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
}
