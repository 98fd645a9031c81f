// @ts-check
/* bgclock engine: a server state counted down between two messages (the
 * dashboard, the room, and the table page until its own match is folded).
 *
 * Only a running side moves (docs/protocol.md, "Showing a running clock"):
 * simple delay spends the allowance first, then the reserve; the other modes
 * spend the reserve from the first ms while the unused allowance (Bronstein:
 * the credit not yet earned) falls alongside.  Pure: `elapsed` is given. */

/** @typedef {import("../kit/types.js").WireState} WireState */
/** @typedef {import("../kit/types.js").WireSide} WireSide */
/** @typedef {import("../kit/types.js").TableInfo} TableInfo */
/** @typedef {import("../kit/types.js").Presets} Presets */
/** @typedef {{reserve_ms: number, delay_ms: number, running: boolean}} SideView */

/**
 * The time mode of a table: the director's override, else the preset's.
 * @param {WireState|null} state @param {TableInfo|null|undefined} info @param {Presets|null|undefined} presets
 * @returns {string}
 */
export function modeOf(state, info, presets) {
  const clock = (info && info.clock) || {};
  if (clock.mode) return clock.mode;
  const p = presets && state && state.rules ? presets[state.rules] : null;
  if (p) return p.mode;
  // No preset table: read it from the state (simple delay spends the
  // allowance before the reserve, so the expiry is further away).
  const s = state && (state.A.running ? state.A : state.B.running ? state.B : null);
  if (state && s && state.expires_at_ms != null && s.delay_ms > 0 &&
      state.expires_at_ms - state.at_ms >= s.reserve_ms + s.delay_ms) return "simple_delay";
  return "bronstein";
}

/**
 * The per-move allowance D of a table (for "credit +x / D").
 * @param {WireState|null} state @param {TableInfo|null|undefined} info @param {Presets|null|undefined} presets
 * @returns {number}
 */
export function allowanceOf(state, info, presets) {
  const clock = (info && info.clock) || {};
  if (modeOf(state, info, presets) === "standard") return 0;
  if (clock.delay_ms != null) return clock.delay_ms;
  const p = presets && state && state.rules ? presets[state.rules] : null;
  if (!p || !state) return 0;
  return state.teams ? p.team_delay_ms : p.delay_ms;
}

/**
 * One side's clock `elapsed` ms after the state it comes from.
 * @param {WireSide|SideView} side @param {string} mode @param {number} elapsed @returns {SideView}
 */
export function sideAt(side, mode, elapsed) {
  if (!side.running || !(elapsed > 0)) {
    return { reserve_ms: side.reserve_ms, delay_ms: side.delay_ms, running: side.running };
  }
  if (mode === "simple_delay") {
    const beyond = Math.max(0, elapsed - side.delay_ms);
    return { reserve_ms: Math.max(0, side.reserve_ms - beyond),
             delay_ms: Math.max(0, side.delay_ms - elapsed), running: true };
  }
  return { reserve_ms: Math.max(0, side.reserve_ms - elapsed),
           delay_ms: Math.max(0, side.delay_ms - elapsed), running: true };
}

/**
 * Both sides `elapsed` ms after `state`.  Never counts past the expiry
 * instant: the page shows 0 there and waits for the server's `expiry`.
 * @param {WireState} state @param {string} mode @param {number} elapsed
 * @returns {{A: SideView, B: SideView, at_ms: number}}
 */
export function viewAt(state, mode, elapsed) {
  let e = Math.max(0, elapsed);
  if (state.expires_at_ms != null) e = Math.min(e, Math.max(0, state.expires_at_ms - state.at_ms));
  if (state.phase !== "playing") e = 0;
  return { A: sideAt(state.A, mode, e), B: sideAt(state.B, mode, e), at_ms: state.at_ms + e };
}

/**
 * `state` after `side` hits the clock `elapsed` ms after it (a press the
 * server has not confirmed yet, shown as it will be): the presser's clock
 * stops with its allowance credited as the mode says (Bronstein: the
 * allowance used, up to D; increment: D; unless forfeited), the other side
 * runs with a fresh allowance D, and the expiry moves with it.
 * @param {WireState} state @param {import("../kit/types.js").Side} side @param {number} elapsed
 * @param {string} mode @param {number} allowance D, the per-move allowance
 * @returns {WireState}
 */
export function afterPress(state, side, elapsed, mode, allowance) {
  const opp = side === "A" ? "B" : "A";
  const s = state[side];
  const v = viewAt(state, mode, elapsed);
  const me = Object.assign({}, s, v[side], { running: false });
  if (mode === "bronstein" && !s.forfeit_delay) me.reserve_ms += Math.max(0, allowance - v[side].delay_ms);
  if (mode === "increment" && !s.forfeit_delay) me.reserve_ms += allowance;
  me.delay_ms = mode === "standard" ? 0 : allowance;
  const op = Object.assign({}, state[opp], { running: true });
  /** @type {WireState} */
  const next = Object.assign({}, state, { at_ms: v.at_ms, on_turn: opp });
  next[side] = me; next[opp] = op;
  next.expires_at_ms = v.at_ms + op.reserve_ms + (mode === "simple_delay" ? op.delay_ms : 0);
  return next;
}

/**
 * How long the break in `state` has lasted `elapsed` ms after it (0 when no
 * break is on): the break's clock runs on the table's line from its start.
 * @param {WireState} state @param {number} elapsed @returns {number}
 */
export function breakUsed(state, elapsed) {
  if (!state.break) return 0;
  return state.at_ms + Math.max(0, elapsed) - state.break.started_ms;
}
