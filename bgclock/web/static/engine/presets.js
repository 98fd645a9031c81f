// @ts-check
/* bgclock engine: the rule books' clock settings as data, and the clock one
 * match uses (a port of bgclock/core/_presets.py; the clauses each figure
 * cites are in that file and docs/rules.md). */

import { InvalidCommand } from "./errors.js";
import { MODES } from "./modes.js";

/** @typedef {import("./modes.js").TimeMode} TimeMode */

const MINUTE = 60_000;
const SECOND = 1_000;

export const EXPIRY_LOSES = "loses_match";
export const EXPIRY_ABA = "aba_penalty"; // penalty points under standard clocks, else loss (aba 5.1)
export const EXPIRY_BIBA = "biba_gin";

/**
 * One rule book's clock.
 * @typedef {object} Preset
 * @property {string} id
 * @property {string} source
 * @property {string} mode
 * @property {number} per_point_ms
 * @property {number} less_per_point_ms
 * @property {number} delay_ms
 * @property {number} team_per_point_ms
 * @property {number} team_less_per_point_ms
 * @property {number} team_delay_ms
 * @property {string} expiry
 * @property {boolean} mid_game_start  the clock may be introduced mid-game (`start`)
 * @property {[number, number, number] | null} breaks  (in matches of >= N points, else)
 * @property {number | null} break_ms
 */

/**
 * @param {Partial<Preset> & Pick<Preset, "id" | "source" | "mode" | "per_point_ms" |
 *   "less_per_point_ms" | "delay_ms" | "expiry">} p
 * @returns {Preset}
 */
function preset(p) {
  return Object.freeze({
    team_per_point_ms: p.per_point_ms,
    team_less_per_point_ms: p.less_per_point_ms,
    team_delay_ms: p.delay_ms,
    mid_game_start: false,
    breaks: null,
    break_ms: null,
    ...p,
  });
}

/** @type {Readonly<Record<string, Preset>>} */
export const PRESETS = Object.freeze({
  "usbgf-2013-delay": preset({
    id: "usbgf-2013-delay", source: "usbgf-2013-simple-delay.txt", mode: "simple_delay",
    expiry: EXPIRY_LOSES, per_point_ms: 2 * MINUTE, less_per_point_ms: 1 * MINUTE,
    delay_ms: 12 * SECOND, team_per_point_ms: 2 * MINUTE + 30 * SECOND,
    team_less_per_point_ms: 1 * MINUTE + 15 * SECOND, team_delay_ms: 18 * SECOND,
  }),
  "usbgf-2007-bronstein": preset({
    id: "usbgf-2007-bronstein", source: "usbgf-2007-bronstein.txt", mode: "bronstein",
    expiry: EXPIRY_LOSES, per_point_ms: 2 * MINUTE, less_per_point_ms: 1 * MINUTE,
    delay_ms: 12 * SECOND, team_per_point_ms: 2 * MINUTE + 30 * SECOND,
    team_less_per_point_ms: 1 * MINUTE + 15 * SECOND, team_delay_ms: 18 * SECOND,
  }),
  "aba-2003-bronstein": preset({
    id: "aba-2003-bronstein", source: "aba-2003-unified.txt", mode: "bronstein",
    expiry: EXPIRY_ABA, per_point_ms: 2 * MINUTE, less_per_point_ms: 1 * MINUTE,
    delay_ms: 12 * SECOND,
  }),
  "aba-2003-standard": preset({
    id: "aba-2003-standard", source: "aba-2003-unified.txt", mode: "standard",
    expiry: EXPIRY_ABA, per_point_ms: 6 * MINUTE, less_per_point_ms: 3 * MINUTE, delay_ms: 0,
  }),
  "biba-2014": preset({
    id: "biba-2014", source: "biba-2014.txt", mode: "simple_delay", expiry: EXPIRY_BIBA,
    per_point_ms: 2 * MINUTE, less_per_point_ms: 1 * MINUTE, delay_ms: 12 * SECOND,
    mid_game_start: true,
  }),
  "it-tournament": preset({
    id: "it-tournament", source: "italian-tournament-rules.txt", mode: "bronstein",
    expiry: EXPIRY_LOSES, per_point_ms: 3 * MINUTE, less_per_point_ms: 1 * MINUTE + 30 * SECOND,
    delay_ms: 12 * SECOND, mid_game_start: true, breaks: [13, 2, 1], break_ms: 10 * MINUTE,
  }),
});

/** Override keys a director may set (clock-script `match.clock`). */
export const OVERRIDE_KEYS = Object.freeze([
  "mode", "per_point_ms", "less_per_point_ms", "delay_ms", "reserve_ms", "overtime_ms",
]);

/**
 * Breaks each side may take in a match of `length` points (null: not capped).
 * @param {Preset} p
 * @param {number} length
 * @returns {number | null}
 */
export function maxBreaks(p, length) {
  if (p.breaks === null) return null;
  const [threshold, long, short] = p.breaks;
  return length >= threshold ? long : short;
}

/**
 * The clock one match uses.
 * @typedef {object} ClockSettings
 * @property {Preset} preset
 * @property {number} length
 * @property {[number, number]} score
 * @property {boolean} teams
 * @property {TimeMode} mode
 * @property {number} delay_ms
 * @property {number} reserve_ms
 * @property {number | null} max_breaks
 * @property {number} overtime_ms  USBGF Rules Options, Overtime (0: none)
 * @property {boolean} penalty_on_expiry  ABA 5.1: standard clocks give penalty points
 */

/** @param {unknown} v @returns {v is number} */
export function isInt(v) {
  return typeof v === "number" && Number.isInteger(v);
}

/**
 * Under the preset's own mode, an expiry loses the match: the presets that
 * may take the USBGF overtime.
 * @param {Preset} p
 */
function expiryLoses(p) {
  if (p.expiry === EXPIRY_BIBA) return false;
  return !(p.expiry === EXPIRY_ABA && p.mode === "standard");
}

/** @param {unknown} v */
const repr = (v) => (typeof v === "string" ? `'${v}'` : JSON.stringify(v));

/**
 * Compute the match's clock; throw InvalidCommand on bad figures.
 * @param {string} presetId
 * @param {{length: number, score?: [number, number], teams?: boolean,
 *   overrides?: Record<string, unknown> | null}} opts
 * @returns {ClockSettings}
 */
export function resolveSettings(presetId, opts) {
  const p = Object.prototype.hasOwnProperty.call(PRESETS, presetId) ? PRESETS[presetId] : undefined;
  if (p === undefined) throw new InvalidCommand(`unknown rules preset ${repr(presetId)}`);
  const { length } = opts;
  const score = opts.score || [0, 0];
  const teams = !!opts.teams;
  if (!isInt(length) || length < 1) {
    throw new InvalidCommand("match length must be a whole number of points, at least 1");
  }
  if (score.length !== 2 || !score.every((s) => isInt(s) && s >= 0 && s < length)) {
    throw new InvalidCommand("each score must be a whole number from 0 to length - 1");
  }
  const over = { ...(opts.overrides || {}) };
  const unknown = Object.keys(over).filter((k) => !OVERRIDE_KEYS.includes(k)).sort();
  if (unknown.length) throw new InvalidCommand(`unknown clock override ${repr(unknown[0])}`);
  const modeName = "mode" in over ? over.mode : p.mode;
  if (typeof modeName !== "string" || !Object.prototype.hasOwnProperty.call(MODES, modeName)) {
    throw new InvalidCommand(`unknown time mode ${repr(modeName)}`);
  }
  for (const key of OVERRIDE_KEYS) {
    if (key === "mode" || !(key in over)) continue;
    const v = over[key];
    if (!isInt(v) || v < 0) throw new InvalidCommand(`clock override ${key} must be a whole number >= 0`);
  }
  /** @param {string} key @param {number} fallback @returns {number} */
  const num = (key, fallback) => (key in over ? /** @type {number} */ (over[key]) : fallback);
  const perPoint = num("per_point_ms", teams ? p.team_per_point_ms : p.per_point_ms);
  const less = num("less_per_point_ms", teams ? p.team_less_per_point_ms : p.less_per_point_ms);
  let delay = num("delay_ms", teams ? p.team_delay_ms : p.delay_ms);
  const mode = MODES[modeName];
  if (modeName === "standard") delay = 0; // standard clocks have no allowance, whatever is set
  const reserve = "reserve_ms" in over
    ? /** @type {number} */ (over.reserve_ms)
    : perPoint * length - less * (score[0] + score[1]);
  if (reserve < 0) throw new InvalidCommand(`the computed reserve is below zero (${reserve} ms)`);
  const overtime = num("overtime_ms", 0);
  if ("overtime_ms" in over && overtime < 1) {
    throw new InvalidCommand("clock override overtime_ms must be a positive number of milliseconds");
  }
  if ("overtime_ms" in over && !expiryLoses(p)) {
    throw new InvalidCommand(
      `clock override overtime_ms: ${p.id} does not lose the match on expiry, ` +
      "so it has no overtime (USBGF Rules Options)");
  }
  return Object.freeze({
    preset: p,
    length,
    score: /** @type {[number, number]} */ ([score[0], score[1]]),
    teams,
    mode,
    delay_ms: delay,
    reserve_ms: reserve,
    max_breaks: maxBreaks(p, length),
    overtime_ms: overtime,
    penalty_on_expiry: p.expiry === EXPIRY_ABA && mode.name === "standard",
  });
}
