// @ts-check
/* bgclock engine: the clock rules for the browser (and Node), a faithful
 * port of the Python core `bgclock.core`, held to it by the clock scripts
 * (tests/test_engine_js.py) and a differential test (tests/test_engine_diff.py).
 *
 * Pure: no DOM, no timers, no Date.now.  Every command carries its instant
 * (integer ms of the match's own time line); `state(atMs)` reads the clocks.
 *
 *   import { Match } from "./engine/index.js";
 *   const m = Match.create("usbgf-2007-bronstein", { length: 5 });
 *   m.apply({ do: "opening_roll", at_ms: 0, dice: [6, 2] });
 *   m.apply({ do: "hit", at_ms: 5000, side: "A" });
 *   m.state(5000).A.reserve_ms;  // 600000: 5 s used, 5 s credited back
 */

export { REFUSALS, ClockError, InvalidCommand, IllegalCommand } from "./errors.js";
export { MODES } from "./modes.js";
export { PRESETS, OVERRIDE_KEYS, resolveSettings } from "./presets.js";
export {
  SIDES, RESULTS, STOP_REASONS, SERVER_STOP_REASONS, DECISIONS, EVENT_TYPES, EVENT_FIELDS,
  MAX_CUBE, isWord, parseEvent,
} from "./events.js";
export { Match, replay, PHASES, PHASE_RULES, ABA_RESET_MS } from "./match.js";
export { modeOf, allowanceOf, sideAt, viewAt, afterPress, breakUsed } from "./countdown.js";
