// @ts-check
/* bgclock engine: events, the commands a table or the director gives (a port
 * of bgclock/core/_events.py).  An event is a plain object in the stored form
 * and clock-script form alike: `{do, at_ms, ...fields}`.  `parseEvent`
 * validates one (InvalidCommand); whether it is allowed *now* is the match's
 * business (IllegalCommand). */

import { InvalidCommand } from "./errors.js";
import { isInt } from "./presets.js";

export const SIDES = Object.freeze(["A", "B"]);
/** @type {Readonly<Record<string, number>>} */
export const RESULTS = Object.freeze({ single: 1, gammon: 2, backgammon: 3 });
export const STOP_REASONS = Object.freeze([
  "break", "concession", "dice_not_left", "director", "dispute", "fallen_dice", "other",
]);
/** Reasons only the server gives (a clock brought back after a restart). */
export const SERVER_STOP_REASONS = Object.freeze(["restart"]);
export const DECISIONS = Object.freeze(["accept", "gin", "invalid", "lost"]);
/** The stored form's version. */
export const EVENT_FORMAT_VERSION = 1;
/** The highest cube value a `start` may carry ("a power of two from 1 to 2^20"). */
export const MAX_CUBE = 2 ** 20;

/**
 * An accepted-form event.
 * @typedef {object} Event
 * @property {string} do
 * @property {number} at_ms
 * @property {"A" | "B"} [side]
 * @property {"A" | "B"} [winner]
 * @property {string} [result]
 * @property {string} [reason]
 * @property {[number, number]} [dice]
 * @property {string} [decision]
 * @property {number} [delta_ms]
 * @property {number} [points]
 * @property {Cube} [cube]  `start`: the cube as it stands (absent: centered at 1)
 */

/** @typedef {{value: number, owner: "A" | "B" | null}} Cube */

/** @param {unknown} v */
const repr = (v) => (typeof v === "string" ? `'${v}'` : JSON.stringify(v));

/** `value` is one of `words`: a string, never a list, an object or a number.
 * @param {unknown} value @param {readonly string[]} words @returns {boolean} */
export const isWord = (value, words) => typeof value === "string" && words.includes(value);

/** @type {Record<string, (name: string, value: unknown) => void>} */
const CHECKS = {
  at_ms: checkInt,
  side: checkSide,
  winner: checkSide,
  result(name, v) {
    if (typeof v !== "string" || !Object.prototype.hasOwnProperty.call(RESULTS, v)) {
      throw new InvalidCommand(`${name} must be single, gammon or backgammon, not ${repr(v)}`);
    }
  },
  reason(name, v) {
    if (!isWord(v, STOP_REASONS) && !isWord(v, SERVER_STOP_REASONS)) {
      throw new InvalidCommand(`${name} must be one of ${STOP_REASONS.join(", ")}`);
    }
  },
  dice(name, v) {
    if (!Array.isArray(v) || v.length !== 2 || !v.every((d) => isInt(d) && d >= 1 && d <= 6)) {
      throw new InvalidCommand(`${name} must be two dice from 1 to 6, not ${repr(v)}`);
    }
  },
  decision(name, v) {
    if (!isWord(v, DECISIONS)) {
      throw new InvalidCommand(`${name} must be one of ${DECISIONS.join(", ")}`);
    }
  },
  delta_ms: checkInt,
  points(name, v) {
    checkInt(name, v);
    if (/** @type {number} */ (v) < 1) throw new InvalidCommand(`${name} must be at least 1`);
  },
  cube(name, v) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new InvalidCommand(`${name} must be an object {value, owner}, not ${repr(v)}`);
    }
    const obj = /** @type {Record<string, unknown>} */ (v);
    const unknown = Object.keys(obj).filter((k) => k !== "value" && k !== "owner").sort();
    if (unknown.length) throw new InvalidCommand(`${name}: unknown field '${unknown[0]}'`);
    const value = "value" in obj ? obj.value : 1;
    if (!isInt(value) || value < 1 || value > MAX_CUBE || (value & (value - 1)) !== 0) {
      throw new InvalidCommand(`${name}.value must be a power of two from 1 to ${MAX_CUBE}, not ${repr(value)}`);
    }
    const owner = "owner" in obj ? obj.owner : null;
    if (owner !== null && owner !== "A" && owner !== "B") {
      throw new InvalidCommand(`${name}.owner must be 'A', 'B' or null, not ${repr(owner)}`);
    }
  },
};

/** @param {string} name @param {unknown} v */
function checkInt(name, v) {
  if (!isInt(v)) throw new InvalidCommand(`${name} must be a whole number, not ${repr(v)}`);
}

/** @param {string} name @param {unknown} v */
function checkSide(name, v) {
  if (v !== "A" && v !== "B") throw new InvalidCommand(`${name} must be 'A' or 'B', not ${repr(v)}`);
}

/** event kind -> [its fields in order, the ones that may be left out]
 * @type {Readonly<Record<string, [string[], string[]]>>} */
export const EVENT_FIELDS = Object.freeze({
  opening_roll: [["at_ms", "dice"], []],
  start: [["at_ms", "side", "cube"], ["cube"]],
  late_start: [["at_ms", "side"], []],
  hit: [["at_ms", "side"], []],
  double: [["at_ms", "side"], []],
  take: [["at_ms", "side"], []],
  pass: [["at_ms", "side"], []],
  stop: [["at_ms", "reason", "side"], ["side"]],
  resume: [["at_ms"], []],
  concede: [["at_ms", "side", "result"], []],
  claim: [["at_ms", "side", "result"], []],
  accept: [["at_ms", "side"], []],
  reject: [["at_ms", "side"], []],
  ruling: [["at_ms", "decision", "result"], ["result"]],
  game_over: [["at_ms", "winner", "result"], []],
  break: [["at_ms", "side"], []],
  premature: [["at_ms", "side"], []],
  adjust: [["at_ms", "side", "delta_ms"], []],
  penalty: [["at_ms", "side", "points"], []],
});

export const EVENT_TYPES = Object.freeze(Object.keys(EVENT_FIELDS));

/**
 * Read a stored event or a clock-script step's event fields; throw
 * InvalidCommand when it is malformed.
 * @param {unknown} data
 * @returns {Event}
 */
export function parseEvent(data) {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new InvalidCommand("an event must be a JSON object");
  }
  const obj = /** @type {Record<string, unknown>} */ (data);
  const version = "v" in obj ? obj.v : EVENT_FORMAT_VERSION;
  if (version !== EVENT_FORMAT_VERSION) {
    throw new InvalidCommand(`unknown event format version ${repr(version)}`);
  }
  const kind = obj.do;
  const plan = typeof kind === "string" && Object.prototype.hasOwnProperty.call(EVENT_FIELDS, kind)
    ? EVENT_FIELDS[kind] : undefined;
  if (plan === undefined || typeof kind !== "string") {
    throw new InvalidCommand(`unknown event ${repr(kind === undefined ? null : kind)}`);
  }
  const [names, optional] = plan;
  /** @type {Record<string, unknown>} */
  const out = { do: kind };
  for (const name of names) {
    if (name in obj) out[name] = obj[name];
    else if (!optional.includes(name)) throw new InvalidCommand(`${kind}: missing field '${name}'`);
  }
  for (const key of Object.keys(obj).sort()) {
    if (!names.includes(key) && key !== "v" && key !== "do") {
      throw new InvalidCommand(`${kind}: unknown field '${key}'`);
    }
  }
  for (const name of names) {
    const v = out[name];
    if ((v === null || v === undefined) && optional.includes(name)) continue;
    const check = CHECKS[name];
    if (check) check(name, v);
  }
  if (/** @type {number} */ (out.at_ms) < 0) throw new InvalidCommand("at_ms must not be negative");
  if (kind === "stop" && (out.side === undefined || out.side === null) &&
      !SERVER_STOP_REASONS.includes(/** @type {string} */ (out.reason))) {
    throw new InvalidCommand("stop: missing field 'side'");
  }
  if (kind === "ruling") {
    const hasResult = out.result !== undefined && out.result !== null;
    if (out.decision === "gin" && !hasResult) {
      throw new InvalidCommand("a gin ruling needs the result the opponent cannot avoid");
    }
    if (out.decision !== "gin" && hasResult) {
      throw new InvalidCommand(`a ruling of '${out.decision}' takes no result`);
    }
  }
  if (out.dice) out.dice = [.../** @type {number[]} */ (out.dice)];
  if (out.cube !== undefined && out.cube !== null) {
    const c = /** @type {Record<string, unknown>} */ (out.cube);
    out.cube = Object.freeze({ value: "value" in c ? c.value : 1, owner: "owner" in c ? c.owner : null });
  }
  for (const name of optional) if (out[name] === null) delete out[name];
  return /** @type {Event} */ (Object.freeze(out));
}
