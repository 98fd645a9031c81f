// @ts-check
/* The table page's words for its link (bgclock/web/static/table/words.js),
 * checked in Node with the page's own dictionary: kinds counted in their
 * plural forms in English and Italian, each answer judged (applied at its
 * instant, re-timed, refused, not needed), the synced line naming what was
 * not applied.  Run by tests/test_engine_js.py; exits 1 with the failed
 * check on stderr. */

import assert from "node:assert/strict";
import { RETIMED_MS, judge, kindOf, kindsList, syncedText } from "../../bgclock/web/static/table/words.js";
import { I18N } from "../../bgclock/web/static/kit/i18n.js";

/** @param {string} k @param {Record<string, unknown>} [p] */
const t = (k, p) => I18N.t(k, p);
/** @param {number} ms */
const signed = (ms) => (ms < 0 ? "-" : "+") + Math.abs(ms) / 1000 + " s";

assert.equal(kindOf({ type: "cmd", cmd: { do: "hit", side: "A" } }), "hit");
assert.equal(kindOf({ type: "cmd", cmd: { do: "double", side: "A" } }), "double");
assert.equal(kindOf({ type: "summon", cmd: { why: "director" } }), "summon");
assert.equal(kindOf({ type: "cmd", cmd: { do: "concede", side: "A" } }), "cmd");

const waiting = ["hit", "hit", "double"];
I18N.lang = "en";
assert.equal(kindsList(waiting, t), "2 presses, a double");
assert.equal(kindsList(["hit"], t), "1 press");
I18N.lang = "it";
assert.equal(kindsList(waiting, t), "2 pressioni, un raddoppio");
assert.equal(kindsList(["hit"], t), "1 pressione");
assert.equal(kindsList(["hit", "summon", "hit", "hit"], t), "3 pressioni, una chiamata al direttore");

/** @type {import("../../bgclock/web/static/table/words.js").Outcome} */
const o = { kind: "hit", atMs: 1000, result: null };
assert.equal(judge(o, { type: "ack", at_ms: 1000 + RETIMED_MS }, "").result, "applied");
const late = judge(o, { type: "ack", at_ms: 4200 }, "");
assert.equal(late.result, "retimed");
assert.equal(late.by, 3200);
assert.equal(judge(o, { type: "ack", noop: true }, "").result, "ignored");
const refused = judge({ kind: "double", atMs: 900, result: null }, { type: "error" }, "the clocks are stopped");
assert.equal(refused.result, "refused");
assert.equal(judge(refused, { type: "ack", at_ms: 900 }, "").result, "refused", "judged once");

I18N.lang = "en";
const all = [judge(o, { type: "ack", at_ms: 1000 }, ""), judge(o, { type: "ack", at_ms: 1001 }, ""), late, refused];
assert.equal(syncedText(all, t, signed),
  "synced: 2 presses applied at their instants · 1 press re-timed by +3.2 s"
  + " · a double refused: the clocks are stopped");
assert.equal(syncedText([refused], t, signed), "synced · a double refused: the clocks are stopped",
  "nothing applied: not said to be");
console.log("words: ok");
