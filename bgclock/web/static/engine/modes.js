// @ts-check
/* bgclock engine: time modes (a port of bgclock/core/_modes.py).
 *
 * Each mode is a small stateless strategy over integers (milliseconds).  A
 * side with a live period has `reserve` (what its display shows now) and
 * `allowLeft` (what is not yet used of the period's allowance).  In every
 * mode `allowLeft` falls with the running time, so a stop keeps what the
 * paused period has left. */

/**
 * @typedef {object} TimeMode
 * @property {string} name
 * @property {boolean} delayFirst  the reserve is untouched while allowance is left
 * @property {(delayMs: number, forfeited: boolean) => number} periodAllowance
 * @property {(delayMs: number, forfeitPending: boolean) => number} idleDelay
 * @property {(allowance: number, allowLeft: number) => number} credit
 * @property {(reserve: number, allowLeft: number, dt: number) => [number, number]} spend
 * @property {(reserve: number, allowLeft: number) => number} timeToExpiry
 */

/** @type {TimeMode["spend"]} */
function spendFromReserve(reserve, allowLeft, dt) {
  const used = dt < allowLeft ? dt : allowLeft;
  return [reserve - dt, allowLeft - used];
}

/** @type {TimeMode} */
export const SIMPLE_DELAY = Object.freeze({
  name: "simple_delay",
  delayFirst: true,
  // A forfeited simple delay keeps its arithmetic: the player waits the delay
  // out before rolling (usbgf-2013 4.1, biba-2014 4.6).
  periodAllowance: (delayMs, _forfeited) => delayMs,
  idleDelay: (delayMs, _pending) => delayMs,
  credit: (_a, _l) => 0,
  spend: (reserve, allowLeft, dt) =>
    dt <= allowLeft ? [reserve, allowLeft - dt] : [reserve - (dt - allowLeft), 0],
  timeToExpiry: (reserve, allowLeft) => allowLeft + reserve,
});

/** @type {TimeMode} */
export const BRONSTEIN = Object.freeze({
  name: "bronstein",
  delayFirst: false,
  periodAllowance: (delayMs, forfeited) => (forfeited ? 0 : delayMs),
  idleDelay: (delayMs, pending) => (pending ? 0 : delayMs),
  credit: (allowance, allowLeft) => allowance - allowLeft,
  spend: spendFromReserve,
  timeToExpiry: (reserve, _l) => reserve,
});

/** @type {TimeMode} */
export const STANDARD = Object.freeze({
  name: "standard",
  delayFirst: false,
  periodAllowance: (_d, _f) => 0,
  idleDelay: (_d, _p) => 0,
  credit: (_a, _l) => 0,
  spend: spendFromReserve,
  timeToExpiry: (reserve, _l) => reserve,
});

/** Fischer increment: in no preset, available as an override. @type {TimeMode} */
export const INCREMENT = Object.freeze({
  name: "increment",
  delayFirst: false,
  periodAllowance: (delayMs, forfeited) => (forfeited ? 0 : delayMs),
  idleDelay: (delayMs, pending) => (pending ? 0 : delayMs),
  credit: (allowance, _l) => allowance,
  spend: spendFromReserve,
  timeToExpiry: (reserve, _l) => reserve,
});

/** @type {Readonly<Record<string, TimeMode>>} */
export const MODES = Object.freeze({
  simple_delay: SIMPLE_DELAY,
  bronstein: BRONSTEIN,
  standard: STANDARD,
  increment: INCREMENT,
});
