// @ts-check
/* What the table's device keeps across a reload (bgclock/web/static/
 * device-store.js), checked in Node with an in-memory Storage: a record read
 * back as written, a record that does not read dropped whole, a full storage
 * refused without a throw, and a device match rebuilt from a kept record
 * showing what it showed.  Run by tests/test_engine_js.py; exits 1 with the
 * failed check on stderr. */

import assert from "node:assert/strict";
import { clearSaved, loadSaved, parseSaved, storeKey, writeSaved } from "../../bgclock/web/static/device-store.js";
import { DeviceMatch } from "../../bgclock/web/static/device.js";

/** @implements {Storage} */
class Mem {
  constructor(limit = Infinity) { /** @type {Map<string, string>} */ this.m = new Map(); this.limit = limit; }
  get length() { return this.m.size; }
  clear() { this.m.clear(); }
  /** @param {string} k */ getItem(k) { return this.m.has(k) ? /** @type {string} */ (this.m.get(k)) : null; }
  /** @param {number} i */ key(i) { return [...this.m.keys()][i] ?? null; }
  /** @param {string} k */ removeItem(k) { this.m.delete(k); }
  /** @param {string} k @param {string} v */
  setItem(k, v) { if (v.length > this.limit) throw new Error("QuotaExceededError"); this.m.set(k, v); }
}

const spec = { rules: "usbgf-2007-bronstein", length: 5, score: [0, 0], teams: false, crawford: false, clock: {} };
const d = new DeviceMatch(spec);
d.confirm(1, { do: "opening_roll", at_ms: 0, dice: [6, 1] });
d.apply("c1", { do: "hit", side: "A" }, 5000);
d.apply("c2", { do: "hit", side: "B" }, 9000);
const shown = d.stateAt(12000);

const store = new Mem();
const token = "7.secret";
const record = {
  v: /** @type {1} */ (1), created_ms: 1_700_000_000_000, spec, events: d.events, seq: 1,
  state: { phase: "playing" }, info: { created_ms: 1_700_000_000_000 },
  queue: [{ id: "c1", type: "cmd", cmd: { do: "hit", side: "A" }, atMs: 5000, pressedEpoch: 1.5e12 },
          { id: "c2", type: "cmd", cmd: { do: "hit", side: "B" }, atMs: 9000, pressedEpoch: 1.5e12 + 4000 },
          { id: "s1", type: "summon", cmd: { why: "director", side: "A" }, atMs: null, pressedEpoch: 1.5e12 + 5000 }],
  serverMinusEpoch: -12345.5, server_started: 1_700_000_000_000, saved_at: 1,
};
assert.equal(writeSaved(store, token, record), true);
assert.equal(storeKey(token), "bgclock.table.7.secret");
const back = loadSaved(store, token);
assert.deepEqual(back, record, "read back as written");

// the match rebuilt from the kept record shows what the device showed
assert.ok(back);
const again = new DeviceMatch(/** @type {any} */ (back.spec));
for (const e of back.events) assert.equal(again.confirm(e.seq, e.event), true);
for (const c of back.queue) if (c.type === "cmd" && c.atMs != null) again.restore(c.id, c.cmd, c.atMs);
assert.deepEqual(again.stateAt(12000), shown);
again.restore("c1", { do: "hit", side: "A" }, 5000);
assert.equal(again.pending.length, 2, "a command is restored once");

// what does not read is dropped whole, never half used
/** @param {(r: any) => void} spoil */
function spoiled(spoil) {
  const r = JSON.parse(JSON.stringify(record));
  spoil(r);
  return parseSaved(r);
}
assert.equal(spoiled((r) => { r.v = 2; }), null, "another version");
assert.equal(spoiled((r) => { r.created_ms = "x"; }), null, "no match");
assert.equal(spoiled((r) => { r.events[0].seq = 2; }), null, "a log with a gap");
assert.equal(spoiled((r) => { r.queue[0].type = "handle"; }), null, "a director's command");
assert.equal(spoiled((r) => { r.queue[0].atMs = 1.5; }), null, "an instant that is not an integer");
assert.equal(spoiled((r) => { r.queue = new Array(1001).fill(r.queue[0]); }), null, "too long a queue");
store.setItem(storeKey("8.x"), "{not json");
assert.equal(loadSaved(store, "8.x"), null);
store.setItem(storeKey("9.x"), JSON.stringify({ v: 1 }));
assert.equal(loadSaved(store, "9.x"), null);
assert.equal(store.getItem(storeKey("9.x")), null, "a record that does not read is removed");

// a full storage: false, nothing thrown; no storage at all: nothing kept
assert.equal(writeSaved(new Mem(10), token, record), false);
assert.equal(writeSaved(null, token, record), false);
assert.equal(loadSaved(null, token), null);
clearSaved(store, token);
assert.equal(loadSaved(store, token), null);
console.log("store: ok");
