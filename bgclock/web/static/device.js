// @ts-check
/* bgclock: the table's own match on its device (docs/pages.md, "The device
 * keeps the time").
 *
 * The table page folds the table's committed log (GET /api/tables/N/events,
 * then every `update`'s event) through the browser engine, exactly as the
 * server folds it, and applies its own commands on top at the instants they
 * were made — whether or not the link is up.  What the page shows is this
 * match read at the device's clock: the running side, the delay or Bronstein
 * credit, stops, the cube, an expiry with its preset's consequence and the
 * flag are the engine's, not a guess between server messages.
 *
 * A command stays "pending" until the server's log holds it (its ack's seq
 * is folded), then the server's event replaces it.  A pending command the
 * engine refuses once the server's events are folded under it (a director's
 * adjust or ruling meanwhile) is dropped from the view; the server's answer
 * to it says why.  Pure: no DOM, no timers, no clock. */

import { ClockError, Match } from "./engine/index.js";

/** @typedef {import("./engine/match.js").MatchState} MatchState */

/**
 * What the page knows of the table's match (the `spec` of GET .../events).
 * @typedef {{rules: string, length: number, score?: number[], teams?: boolean,
 *   crawford?: boolean, clock?: Record<string, unknown> | null}} Spec
 */

/**
 * A command applied here before the server has stored it.
 * @typedef {{id: string, cmd: Record<string, unknown>, at_ms: number,
 *   ackSeq: number | null, refused: boolean}} Pending
 */

/** The fields of a spec that decide the match (the rest is names and warnings).
 * @param {Spec} spec @returns {string} */
export function specKey(spec) {
  return JSON.stringify([spec.rules, spec.length, spec.score || [0, 0], !!spec.teams,
    !!spec.crawford, spec.clock || {}]);
}

export class DeviceMatch {
  /** @param {Spec} spec */
  constructor(spec) {
    this.key = specKey(spec);
    this.spec = spec;
    /** the server's events folded, up to `seq` */
    this.base = this.fresh();
    this.seq = 0;
    /** @type {{seq: number, at_ms: number, event: Record<string, unknown>}[]} the server's events, by seq */
    this.events = [];
    /** @type {Pending[]} */
    this.pending = [];
    /** @type {Match | null} base + pending, rebuilt when either changes */
    this.cached = null;
  }

  /** The match before any event. @returns {Match} */
  fresh() {
    const spec = this.spec, score = spec.score || [0, 0];
    return Match.create(spec.rules, {
      length: spec.length, score: [score[0], score[1]], teams: !!spec.teams,
      crawford: !!spec.crawford, clock: spec.clock || null,
    });
  }

  /**
   * Fold the server's event number `seq`; false (and nothing changes) unless
   * it is the next one.  Throws the engine's error if the engine refuses it
   * (the caller starts over from the log).  An event before the last one's
   * instant (a keeper's press merged before a director's event it had not
   * seen) is folded at its instant: the log is folded again in the order of
   * instants, as the server does (`in_fold_order`).
   * @param {number} seq @param {Record<string, unknown>} event @returns {boolean}
   */
  confirm(seq, event) {
    if (seq !== this.seq + 1) return false;
    const at = Number(event.at_ms);
    const entry = { seq, at_ms: at, event };
    let next;
    if (at >= this.base.now) {
      next = this.base.copy();
      next.apply(event);
    } else {
      next = this.fresh();
      const ordered = [...this.events, entry].sort((a, b) => a.at_ms - b.at_ms || a.seq - b.seq);
      for (const e of ordered) next.apply(e.event);
    }
    this.base = next;
    this.events.push(entry);
    this.seq = seq;
    this.pending = this.pending.filter((p) => p.ackSeq === null || p.ackSeq > seq);
    this.cached = null;
    return true;
  }

  /** The match with the pending commands applied on the server's events. @returns {Match} */
  view() {
    if (this.cached) return this.cached;
    const m = this.base.copy();
    for (const p of this.pending) {
      try {
        m.apply({ ...p.cmd, at_ms: Math.max(p.at_ms, m.now) });
        p.refused = false;
      } catch (e) {
        if (!(e instanceof ClockError)) throw e;
        p.refused = true;   // shown as not done; the server's answer says why
      }
    }
    this.cached = m;
    return m;
  }

  /** The instant a new command takes: never before the last one. @param {number} atMs */
  instant(atMs) { return Math.max(Math.round(atMs), this.view().now); }

  /**
   * Apply the page's command `cmd` (clock-script fields, no at_ms) at `atMs`
   * on the table's line; throws the engine's ClockError and changes nothing
   * if the rules refuse it.  Returns the instant it was applied at.
   * @param {string} id @param {Record<string, unknown>} cmd @param {number} atMs
   * @returns {number}
   */
  apply(id, cmd, atMs) {
    const at = this.instant(atMs);
    const m = this.view().copy();
    m.apply({ ...cmd, at_ms: at });
    this.pending.push({ id, cmd, at_ms: at, ackSeq: null, refused: false });
    this.cached = m;
    return at;
  }

  /** Would the rules accept `cmd` at `atMs`?  null, or the refusal. @param {Record<string, unknown>} cmd @param {number} atMs @returns {ClockError | null} */
  check(cmd, atMs) {
    try {
      this.view().copy().apply({ ...cmd, at_ms: this.instant(atMs) });
      return null;
    } catch (e) {
      if (e instanceof ClockError) return e;
      throw e;
    }
  }

  /**
   * The server stored command `id` as event `seq` (its ack): it leaves the
   * pending list once that event is folded.
   * @param {string} id @param {number} seq
   */
  acked(id, seq) {
    const p = this.pending.find((x) => x.id === id);
    if (!p) return;
    if (seq <= this.seq) this.drop(id);
    else p.ackSeq = seq;
  }

  /**
   * A command this device applied before a reload, put back at its instant
   * (device-store.js): pending again, as it was when the page went away.
   * @param {string} id @param {Record<string, unknown>} cmd @param {number} atMs
   */
  restore(id, cmd, atMs) {
    if (this.isPending(id)) return;
    this.pending.push({ id, cmd, at_ms: atMs, ackSeq: null, refused: false });
    this.cached = null;
  }

  /** The server refused or ignored command `id`: it is no longer applied. @param {string} id */
  drop(id) {
    const before = this.pending.length;
    this.pending = this.pending.filter((p) => p.id !== id);
    if (this.pending.length !== before) this.cached = null;
  }

  /** Is command `id` still waiting for the server? @param {string} id */
  isPending(id) { return this.pending.some((p) => p.id === id); }

  /** The state at `atMs` on the table's line (never before the last command). @param {number} atMs @returns {MatchState} */
  stateAt(atMs) {
    const m = this.view().copy();
    return m.state(Math.max(Math.round(atMs), m.now));
  }
}
