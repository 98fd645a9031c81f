// @ts-check
/* The device's match (bgclock/web/static/device.js), checked in Node:
 * commands applied on the server's events at their instants, replaced by the
 * server's events once stored, dropped when refused.  Run by
 * tests/test_engine_js.py; exits 1 with the failed check on stderr. */

import assert from "node:assert/strict";
import { DeviceMatch, specKey } from "../../bgclock/web/static/device.js";

const spec = { rules: "usbgf-2007-bronstein", length: 5, score: [0, 0], teams: false, crawford: false, clock: {} };

// the server's log folded, then the device's own presses on top
const d = new DeviceMatch(spec);
assert.equal(d.confirm(1, { do: "opening_roll", at_ms: 0, dice: [6, 1] }), true);
assert.equal(d.confirm(3, { do: "hit", at_ms: 10, side: "A" }), false, "a gap is not folded");
assert.equal(d.seq, 1);
const at = d.apply("c1", { do: "hit", side: "A" }, 5000);
assert.equal(at, 5000);
assert.equal(d.stateAt(6000).on_turn, "B");
assert.equal(d.stateAt(6000).A.reserve_ms, 600_000, "Bronstein: 5 s used, 5 s credited");
// an instant before the last one is taken at the last one
assert.equal(d.apply("c2", { do: "hit", side: "B" }, 4000), 5000);
assert.equal(d.stateAt(5000).on_turn, "A");
// the rules refuse: nothing changes, nothing is queued
const refused = d.check({ do: "double", side: "B" }, 7000);
assert.ok(refused && refused.code === "double_not_turn", String(refused && refused.code));
assert.throws(() => d.apply("c3", { do: "double", side: "B" }, 7000));
assert.deepEqual(d.pending.map((p) => p.id), ["c1", "c2"]);
d.apply("c4", { do: "double", side: "A" }, 6000);
// the server stores c1 (ack, then its update): the server's event replaces it
d.acked("c1", 2);
assert.equal(d.pending.length, 3);
assert.equal(d.confirm(2, { do: "hit", at_ms: 5002, side: "A" }), true);
assert.deepEqual(d.pending.map((p) => p.id), ["c2", "c4"]);
assert.equal(d.stateAt(9000).double_offered_by, "A");
// the director stopped the clocks first: the double is no longer possible and leaves the view
assert.equal(d.confirm(3, { do: "stop", at_ms: 5003, side: "B", reason: "director" }), true);
assert.equal(d.stateAt(9000).phase, "stopped");
assert.equal(d.stateAt(9000).double_offered_by, null);
assert.deepEqual(d.pending.map((p) => p.refused), [false, true]);
d.drop("c4");  // the server's error for it
d.drop("c2");
assert.equal(d.pending.length, 0);
// an expiry is the engine's, at its exact millisecond, with its preset's consequence
const e = new DeviceMatch({ ...spec, rules: "usbgf-2013-delay", clock: { reserve_ms: 3000, delay_ms: 1000 } });
e.confirm(1, { do: "opening_roll", at_ms: 0, dice: [3, 1] });
const flag = e.stateAt(60_000);
assert.equal(flag.phase, "match_over");
assert.equal(flag.winner, "B");
assert.equal(flag.A.expired, true);
assert.equal(e.stateAt(3999).phase, "playing");
assert.equal(e.stateAt(4000).phase, "match_over");
// the spec's key ignores names and warnings
assert.equal(specKey({ ...spec, name: "x", players: ["P", "Q"], warn_s: [1] }), specKey(spec));
assert.notEqual(specKey({ ...spec, length: 7 }), specKey(spec));
console.log("device: ok");

// a keeper's press merged before a director's event it had not seen: folded at its instant
const m = new DeviceMatch(spec);
m.confirm(1, { do: "opening_roll", at_ms: 0, dice: [6, 1] });
m.confirm(2, { do: "adjust", at_ms: 20_000, side: "B", delta_ms: 30_000 });
assert.equal(m.confirm(3, { do: "hit", at_ms: 8_000, side: "A" }), true);
const merged = m.stateAt(20_000);
assert.equal(merged.on_turn, "B");
assert.equal(merged.A.reserve_ms, 600_000, "A used 8 s, all credited back (Bronstein)");
assert.equal(merged.B.reserve_ms, 600_000 + 30_000 - 12_000 + 0, "B ran from 8 s, +30 s at 20 s");
console.log("device merge: ok");
