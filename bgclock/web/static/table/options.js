// @ts-check
/* bgclock table page: what a side may press now (the server has the last
 * word, and the engine's reason when it refuses). */

/** @typedef {{hit: boolean, double: boolean, take: boolean, pass: boolean, accept: boolean,
 *   reject: boolean, concede: boolean, claim: boolean, game_over: boolean, break: boolean,
 *   stop: boolean}} Options */

/** The commands a table device can offer now to `side`.
 * @param {import("../kit/types.js").WireState} state @param {import("../kit/types.js").Side} side
 * @returns {Options} */
export function playerOptions(state, side) {
  const other = side === "A" ? "B" : "A";
  const ph = state.phase, me = state[side];
  const gameOn = state.game > 0 && (ph === "playing" || ph === "stopped");
  const o = { hit: false, double: false, take: false, pass: false, accept: false, reject: false,
              concede: false, claim: false, game_over: false, break: false, stop: false };
  if (ph === "playing") {
    o.stop = true;
    if (state.double_offered_by === other) { o.take = true; o.pass = true; }
    else if (me.running && !state.double_offered_by) {
      o.hit = true;
      o.double = state.game > 0 && !state.crawford && !state.cube_frozen &&
        (state.cube.owner === null || state.cube.owner === side);
    }
  }
  if (ph === "stopped" && state.double_offered_by === other) o.pass = true;
  if (gameOn && !state.double_offered_by) { o.concede = true; o.claim = true; o.game_over = true; }
  if (ph === "offer" && state.offer && state.offer.side === other) { o.accept = true; o.reject = true; }
  if (ph === "setup" || ph === "between_games") o.break = true;
  return o;
}
