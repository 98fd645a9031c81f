// @ts-check
/* The clock-script runner on the JavaScript engine: the same semantics as
 * `bgclock replay` (bgclock/script.py), held to it by tests/test_engine_js.py.
 *
 *   node tests/js/replay.mjs [--state] [--json] FILE...   exit 0 / 1 / 2 as `bgclock replay`
 *   node tests/js/replay.mjs --serve                      JSON lines in, JSON lines out
 *
 * --json prints one JSON object per file (code, failure, refusals with their
 * codes, final state) for the conformance test.  --serve folds sequences for
 * the differential test: each input line is
 *   {"rules", "match": {length, score, teams, crawford, clock}, "steps": [...]}
 * where a step is {"event": {...}} or {"query_ms": N}; the answer line is
 *   {"created": null | {kind, code}, "results": [{refused: null | {kind, code}, state}]}. */

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import {
  ClockError, EVENT_TYPES, IllegalCommand, MODES, Match, OVERRIDE_KEYS, PHASES, PRESETS,
  SIDES, STOP_REASONS, isWord, parseEvent, resolveSettings,
} from "../../bgclock/web/static/engine/index.js";

const SIDE_FIELDS = { reserve_ms: "int", delay_ms: "int", running: "bool", expired: "bool",
  forfeit_delay: "bool", breaks: "int" };
const EXPECT_KEYS = ["A", "B", "phase", "stopped_reason", "on_turn", "score", "cube", "crawford",
  "cube_frozen", "winner", "game"];
const STOPPED_REASONS = [...STOP_REASONS, "time_expired"];

class ScriptError extends Error {}

/** @param {unknown} v @returns {v is number} */
const isInt = (v) => typeof v === "number" && Number.isInteger(v);
/** @param {unknown} v @returns {v is Record<string, any>} */
const isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
/** @param {unknown} v */
const has = (/** @type {Record<string, unknown>} */ o, /** @type {string} */ k) =>
  Object.prototype.hasOwnProperty.call(o, k);

/** JSON as Python's json.dumps writes it (", " and ": "). @param {unknown} v @returns {string} */
function dumps(v) {
  if (Array.isArray(v)) return `[${v.map(dumps).join(", ")}]`;
  if (isObj(v)) return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${dumps(x)}`).join(", ")}}`;
  return JSON.stringify(v === undefined ? null : v);
}

/** @param {unknown} v */
function shown(v, limit = 60) {
  const text = dumps(v);
  return text.length <= limit ? text : text.slice(0, limit) + "...";
}

/** @param {boolean} cond @param {string} where @param {string} what */
function need(cond, where, what) {
  if (!cond) throw new ScriptError(`${where}: ${what}`);
}

/** @param {Record<string, unknown>} obj @param {readonly string[]} allowed @param {string} where */
function checkKeys(obj, allowed, where) {
  for (const key of Object.keys(obj)) need(allowed.includes(key), where ? `${where}.${key}` : key, "unknown key");
}

/** @param {unknown} exp @param {string} where */
function validateExpect(exp, where) {
  need(isObj(exp), where, "must be an object");
  const e = /** @type {Record<string, any>} */ (exp);
  checkKeys(e, EXPECT_KEYS, where);
  /** @type {Record<string, (v: any) => boolean>} */
  const checks = {
    phase: (v) => PHASES.includes(v),
    stopped_reason: (v) => v === null || STOPPED_REASONS.includes(v),
    on_turn: (v) => v === null || SIDES.includes(v),
    winner: (v) => v === null || SIDES.includes(v),
    score: (v) => Array.isArray(v) && v.length === 2 && v.every(isInt),
    crawford: (v) => typeof v === "boolean",
    cube_frozen: (v) => typeof v === "boolean",
    game: (v) => isInt(v) && v >= 0,
  };
  for (const [key, value] of Object.entries(e)) {
    const path = `${where}.${key}`;
    if (key === "A" || key === "B") {
      need(isObj(value), path, "must be an object");
      checkKeys(value, Object.keys(SIDE_FIELDS), path);
      for (const [name, typ] of Object.entries(SIDE_FIELDS)) {
        if (!has(value, name)) continue;
        const v = value[name];
        need(typ === "bool" ? typeof v === "boolean" : isInt(v), `${path}.${name}`,
          `must be ${typ === "bool" ? "true or false" : "a whole number"}`);
      }
    } else if (key === "cube") {
      need(isObj(value), path, "must be an object");
      checkKeys(value, ["value", "owner"], path);
      if (has(value, "value")) need(isInt(value.value) && value.value >= 1, `${path}.value`, "must be a whole number >= 1");
      if (has(value, "owner")) need(value.owner === null || SIDES.includes(value.owner), `${path}.owner`, "must be 'A', 'B' or null");
    } else if (!checks[key](value)) {
      throw new ScriptError(`${path}: invalid value ${shown(value)}`);
    }
  }
  return e;
}

const STEP_KEYS = ["at_ms", "do", "expect", "refused"];

/** @param {unknown} raw @param {number} index @param {number} previous */
function validateStep(raw, index, previous) {
  const where = `steps[${index}]`;
  need(isObj(raw), where, "must be an object");
  const r = /** @type {Record<string, any>} */ (raw);
  const at = r.at_ms;
  need(isInt(at), `${where}.at_ms`, "must be a whole number of milliseconds");
  need(at >= 0, `${where}.at_ms`, "must not be negative");
  need(at >= previous, `${where}.at_ms`, `must not decrease (previous ${previous})`);
  const kind = r.do;
  let event = null;
  if (!has(r, "do")) {
    checkKeys(r, ["at_ms", "expect"], where);
  } else {
    need(typeof kind === "string" && EVENT_TYPES.includes(kind), `${where}.do`, `unknown event ${shown(kind)}`);
    /** @type {Record<string, unknown>} */
    const fields = {};
    for (const [k, v] of Object.entries(r)) if (!STEP_KEYS.includes(k)) fields[k] = v;
    // Each event takes exactly its own fields: no stored-form version, no null field.
    need(!has(fields, "v"), `${where}.v`, "unknown key");
    for (const [name, value] of Object.entries(fields)) need(value !== null, `${where}.${name}`, "must not be null");
    if (kind === "stop") {
      need(!has(fields, "reason") || STOP_REASONS.includes(/** @type {string} */ (fields.reason)),
        `${where}.reason`, `must be one of ${STOP_REASONS.join(", ")}`);
    }
    try {
      event = parseEvent({ do: kind, at_ms: at, ...fields });
    } catch (exc) {
      if (exc instanceof ClockError) throw new ScriptError(`${where}: ${exc.message}`);
      throw exc;
    }
  }
  const refused = has(r, "refused") ? r.refused : false;
  need(typeof refused === "boolean", `${where}.refused`, "must be true or false");
  need(!refused || event !== null, `${where}.refused`, "needs an event ('do')");
  const expect = has(r, "expect") ? validateExpect(r.expect, `${where}.expect`) : null;
  return { index, at_ms: at, event, refused, expect };
}

/** Validate a parsed script; throw ScriptError naming the bad field. @param {unknown} data */
export function loadScript(data) {
  need(isObj(data), "script", "must be a JSON object");
  const d = /** @type {Record<string, any>} */ (data);
  checkKeys(d, ["about", "rules", "match", "steps"], "");
  for (const key of ["rules", "match", "steps"]) need(has(d, key), key, "missing");
  need(!has(d, "about") || typeof d.about === "string", "about", "must be text");
  const rules = d.rules;
  need(typeof rules === "string" && has(PRESETS, rules), "rules",
    `unknown preset ${shown(rules)} (one of ${Object.keys(PRESETS).join(", ")})`);
  const match = d.match;
  need(isObj(match), "match", "must be an object");
  checkKeys(match, ["length", "score", "teams", "crawford", "clock"], "match");
  const length = match.length;
  need(isInt(length) && length >= 1, "match.length", "must be a whole number >= 1");
  const score = has(match, "score") ? match.score : [0, 0];
  need(Array.isArray(score) && score.length === 2 && score.every(isInt), "match.score", "must be [A, B], two whole numbers");
  need(score.every((/** @type {number} */ s) => s >= 0 && s < length), "match.score", "each score must be from 0 to length - 1");
  const teams = has(match, "teams") ? match.teams : false;
  need(typeof teams === "boolean", "match.teams", "must be true or false");
  const crawford = has(match, "crawford") ? match.crawford : false;
  need(typeof crawford === "boolean", "match.crawford", "must be true or false");
  const clock = has(match, "clock") ? match.clock : {};
  need(isObj(clock), "match.clock", "must be an object");
  checkKeys(clock, OVERRIDE_KEYS, "match.clock");
  if (has(clock, "mode")) need(isWord(clock.mode, Object.keys(MODES)), "match.clock.mode", `must be one of ${Object.keys(MODES).join(", ")}`);
  for (const key of OVERRIDE_KEYS) {
    if (key === "mode" || !has(clock, key)) continue;
    need(isInt(clock[key]) && clock[key] >= 0, `match.clock.${key}`, "must be a whole number of milliseconds >= 0");
  }
  if (has(clock, "overtime_ms")) need(clock.overtime_ms >= 1, "match.clock.overtime_ms", "must be a positive number of milliseconds");
  try {
    resolveSettings(rules, { length, score, teams, overrides: clock });
  } catch (exc) {
    if (exc instanceof ClockError) throw new ScriptError(`match: ${exc.message}`);
    throw exc;
  }
  need(Array.isArray(d.steps), "steps", "must be a list");
  const steps = [];
  let previous = 0;
  for (let i = 0; i < d.steps.length; i++) {
    const step = validateStep(d.steps[i], i, previous);
    previous = step.at_ms;
    steps.push(step);
  }
  return { rules, length, score, teams, crawford, clock, steps };
}

/** The state with exactly the fields a script's `expect` can name.
 * @param {import("../../bgclock/web/static/engine/match.js").MatchState} s */
export function stateFields(s) {
  /** @param {import("../../bgclock/web/static/engine/match.js").SideState} x */
  const side = (x) => ({ reserve_ms: x.reserve_ms, delay_ms: x.delay_ms, running: x.running,
    expired: x.expired, forfeit_delay: x.forfeit_delay, breaks: x.breaks });
  return { A: side(s.A), B: side(s.B), phase: s.phase, stopped_reason: s.stopped_reason,
    on_turn: s.on_turn, score: s.score, cube: s.cube, crawford: s.crawford,
    cube_frozen: s.cube_frozen, winner: s.winner, game: s.game };
}

/** Same value and same JSON type. @param {unknown} a @param {unknown} b @returns {boolean} */
function same(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  return a === b;
}

/** @param {Record<string, any>} expect @param {Record<string, any>} actual @param {number} step */
function compare(expect, actual, step) {
  for (const [key, want] of Object.entries(expect)) {
    if (isObj(want)) {
      for (const [sub, subWant] of Object.entries(want)) {
        const got = actual[key][sub];
        if (!same(got, subWant)) return { step, field: `${key}.${sub}`, expected: subWant, actual: got };
      }
    } else if (!same(actual[key], want)) {
      return { step, field: key, expected: want, actual: actual[key] };
    }
  }
  return null;
}

/** Play every step; stop at the first that does not hold.
 * @param {ReturnType<typeof loadScript>} script */
export function runScript(script) {
  const match = Match.create(script.rules, { length: script.length, score: script.score,
    teams: script.teams, crawford: script.crawford, clock: script.clock });
  /** @type {Array<[number, string, string]>} */
  const refusals = [];
  for (const step of script.steps) {
    if (step.event !== null) {
      let accepted = true, reason = "";
      try {
        match.apply(step.event);
      } catch (exc) {
        if (!(exc instanceof ClockError)) throw exc;
        accepted = false;
        reason = exc.message;
        refusals.push([step.index, exc.code, reason]);
      }
      if (accepted === step.refused) {
        const detail = reason ? `${step.event.do}: ${reason}` : step.event.do;
        return { failure: { step: step.index, field: "refused", expected: step.refused, actual: !accepted, detail },
          state: match.state(step.at_ms), refusals };
      }
    }
    const state = match.state(step.at_ms);
    if (step.expect !== null) {
      const failure = compare(step.expect, stateFields(state), step.index);
      if (failure !== null) return { failure, state, refusals };
    }
  }
  return { failure: null, state: match.state(), refusals };
}

/** @param {{step: number, field: string, expected: unknown, actual: unknown, detail?: string}} f */
function describe(f) {
  const text = `step ${f.step}: ${f.field}: expected ${dumps(f.expected)}, actual ${dumps(f.actual)}`;
  return f.detail ? `${text} (${f.detail})` : text;
}

/** Run one file: exit code, report line, outcome. @param {string} path */
export function runFile(path) {
  let data;
  try {
    data = JSON.parse(readFileSync(path, "utf-8"));
  } catch (exc) {
    return { code: 2, line: `${path}: invalid script: ${/** @type {Error} */ (exc).message}`, outcome: null };
  }
  let script;
  try {
    script = loadScript(data);
  } catch (exc) {
    if (exc instanceof ScriptError || exc instanceof RangeError) {
      return { code: 2, line: `${path}: invalid script: ${exc.message}`, outcome: null };
    }
    throw exc;
  }
  const outcome = runScript(script);
  if (outcome.failure !== null) return { code: 1, line: `${path}: FAIL ${describe(outcome.failure)}`, outcome };
  return { code: 0, line: `${path}: ok (${script.steps.length} steps)`, outcome };
}

/** @param {unknown} exc */
function refusal(exc) {
  if (!(exc instanceof ClockError)) throw exc;
  return { kind: exc instanceof IllegalCommand ? "illegal" : "invalid", code: exc.code };
}

/** Fold one sequence for the differential test. @param {any} req */
function serveOne(req) {
  let match;
  try {
    match = Match.create(req.rules, req.match);
  } catch (exc) {
    return { created: refusal(exc), results: [] };
  }
  const results = [];
  for (const step of req.steps) {
    if ("query_ms" in step) {
      results.push({ refused: null, state: match.state(step.query_ms) });
      continue;
    }
    let refused = null;
    try {
      match.apply(step.event);
    } catch (exc) {
      refused = refusal(exc);
    }
    results.push({ refused, state: match.state() });
  }
  return { created: null, results };
}

function serve() {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    let answer;
    try {
      answer = serveOne(JSON.parse(line));
    } catch (exc) {
      answer = { crash: String(exc instanceof Error ? exc.stack : exc) };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  });
}

function main() {
  const args = process.argv.slice(2);
  if (args.includes("--serve")) return serve();
  const wantState = args.includes("--state"), asJson = args.includes("--json");
  const files = args.filter((a) => !a.startsWith("--"));
  if (!files.length) {
    process.stderr.write("usage: node tests/js/replay.mjs [--state] [--json] FILE...\n");
    process.exitCode = 2;
    return;
  }
  let worst = 0;
  const counts = [0, 0, 0];
  for (const path of files) {
    const { code, line, outcome } = runFile(path);
    counts[code] += 1;
    worst = Math.max(worst, code);
    if (asJson) {
      process.stdout.write(JSON.stringify({
        file: path, code, line, failure: outcome && outcome.failure,
        refusals: outcome ? outcome.refusals : [],
        state: outcome && stateFields(outcome.state),
      }) + "\n");
      continue;
    }
    console.log(line);
    if (wantState && outcome) console.log(JSON.stringify(sortKeys(stateFields(outcome.state))));
  }
  if (!asJson) console.log(`${counts[0]} passed, ${counts[1]} failed, ${counts[2]} invalid`);
  process.exitCode = worst;
}

/** @param {unknown} v @returns {unknown} */
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObj(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}

main();
