// @ts-check
/* The table page's words after an outage (bgclock/web/static/table/words.js
 * with table/strings.js merged into the page's dictionary), checked in Node:
 * each outcome said once with its count, never the same refusal once per
 * press; the participle agreeing in Italian (rifiutata / rifiutate,
 * applicata / applicate, rifiutato / rifiutati); and table/strings.js in both
 * languages.  Run by tests/test_web_table_bar.py; exits 1 with the failed
 * check on stderr. */

import assert from "node:assert/strict";
import { syncedText } from "../../bgclock/web/static/table/words.js";
import { I18N } from "../../bgclock/web/static/kit/i18n.js";
import { STRINGS, pageTitle } from "../../bgclock/web/static/table/strings.js";

/** @typedef {import("../../bgclock/web/static/table/words.js").Outcome} Outcome */
/** @param {string} k @param {Record<string, unknown>} [p] */
const t = (k, p) => I18N.t(k, p);
/** @param {number} ms */
const signed = (ms) => (ms < 0 ? "-" : "+") + Math.abs(ms) / 1000 + " s";
const WHY = "il tempo è tenuto da un altro dispositivo";

/** @param {string} kind @param {Outcome["result"]} result @param {Partial<Outcome>} [more] @returns {Outcome} */
const o = (kind, result, more) => ({ kind: kind, atMs: 1000, result: result, ...more });
/** @param {number} n @param {Outcome} x @returns {Outcome[]} */
const times = (n, x) => Array.from({ length: n }, () => x);

I18N.lang = "it";
// the bug: four presses refused for the same reason were four whole sentences
const four = syncedText(times(4, o("hit", "refused", { why: WHY })), t, signed);
assert.equal(four, `sincronizzato · 4 pressioni: rifiutate (${WHY})`);
assert.equal(four.split("rifiutat").length, 2, "said once");
assert.equal(syncedText([o("hit", "refused", { why: WHY })], t, signed),
  `sincronizzato · 1 pressione: rifiutata (${WHY})`);
assert.equal(syncedText(times(2, o("double", "refused", { why: "x" })), t, signed),
  "sincronizzato · 2 raddoppi: rifiutati (x)");
assert.equal(syncedText([o("stop", "refused", { why: "x" })], t, signed), "sincronizzato · un arresto: rifiutato (x)");
// two reasons: two parts, in the order they came, each counted
assert.equal(syncedText([o("hit", "refused", { why: "a" }), o("hit", "refused", { why: "b" }),
  o("hit", "refused", { why: "a" })], t, signed),
"sincronizzato · 2 pressioni: rifiutate (a) · 1 pressione: rifiutata (b)");
// applied at their instants: agreeing with what was applied (masculine when mixed)
assert.equal(syncedText(times(3, o("hit", "applied")), t, signed),
  "sincronizzato, applicate al loro istante: 3 pressioni");
assert.equal(syncedText([o("hit", "applied")], t, signed), "sincronizzato, applicata al suo istante: 1 pressione");
assert.equal(syncedText([o("double", "applied")], t, signed), "sincronizzato, applicato al suo istante: un raddoppio");
assert.equal(syncedText([o("hit", "applied"), o("double", "applied")], t, signed),
  "sincronizzato, applicati al loro istante: 1 pressione, un raddoppio");
assert.equal(syncedText([o("hit", "applied"), o("summon", "applied")], t, signed),
  "sincronizzato, applicate al loro istante: 1 pressione, una chiamata al direttore");
// not needed any more; re-timed: counted, their instants one way
assert.equal(syncedText(times(2, o("stop", "ignored")), t, signed), "sincronizzato · 2 arresti: non più necessari");
assert.equal(syncedText([o("resume", "ignored")], t, signed), "sincronizzato · una ripartenza: non più necessaria");
assert.equal(syncedText([o("hit", "retimed", { by: 1000 }), o("hit", "retimed", { by: 3200 })], t, signed),
  "sincronizzato · 2 pressioni: istanti spostati da +1 s a +3.2 s");
assert.equal(syncedText(times(2, o("hit", "retimed", { by: 500 })), t, signed),
  "sincronizzato · 2 pressioni: istanti spostati di +0.5 s");
assert.equal(syncedText([o("hit", "retimed", { by: -500 })], t, signed),
  "sincronizzato · 1 pressione: istante spostato di -0.5 s");
assert.equal(syncedText([o("hit", "applied"), o("hit", "applied"), ...times(4, o("hit", "refused", { why: WHY }))],
  t, signed), `sincronizzato, applicate al loro istante: 2 pressioni · 4 pressioni: rifiutate (${WHY})`);

I18N.lang = "en";
assert.equal(syncedText(times(4, o("hit", "refused", { why: "the time is kept elsewhere" })), t, signed),
  "synced · 4 presses refused: the time is kept elsewhere");
assert.equal(syncedText([o("hit", "applied")], t, signed), "synced: 1 press applied at its instant");
assert.equal(syncedText(times(2, o("hit", "applied")), t, signed), "synced: 2 presses applied at their instants");
assert.equal(syncedText(times(3, o("stop", "ignored")), t, signed), "synced · 3 stops not needed any more");
assert.equal(syncedText([o("hit", "retimed", { by: 1000 }), o("hit", "retimed", { by: 3200 })], t, signed),
  "synced · 2 presses re-timed by +1 s to +3.2 s");

// the page's title in its language
assert.equal(pageTitle(7), "bgclock — table 7");
I18N.lang = "it";
assert.equal(pageTitle(7), "bgclock — tavolo 7");
assert.equal(pageTitle(NaN), "bgclock — tavolo");

// table/strings.js in both languages: every English key in Italian (a
// counted one in its gendered forms), every Italian key a form of an English one
const it = I18N.STRINGS.it, en = I18N.STRINGS.en;
/** @param {string} k */
const gendered = (k) => [".f", ".m"].every((g) => k.replace(/(\.one)?$/, g + "$1") in it);
assert.deepEqual(Object.keys(STRINGS.en).filter((k) => !(k in it) && !gendered(k)), []);
assert.deepEqual(Object.keys(STRINGS.it).filter((k) => !(k.replace(/\.one$/, "").replace(/\.[fm]$/, "") in en)), []);
console.log("words count: ok");
