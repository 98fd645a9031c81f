// @ts-check
/* bgclock dashboard: a ruling named by its outcome, computed from the table's state.
 *
 *   gin: Alice keeps the match, 7–5          accept: Bob wins a gammon, 4–3
 *   invalid: play on, Bob's clock runs       lost: Alice loses the match
 *
 * Mirrors bgclock.core's ruling (core/_match.py `_ruling`): on a BIBA time
 * expiration the side on turn is the one whose time expired; `gin` adds the
 * result × cube to it (the match is kept when that reaches the length, else it
 * is lost); `accept` settles the offer (a concession scores for the other side,
 * a claim for the claimant); `invalid` runs again the clock that ran before. */

/** Points of a result, before the cube. */
/** @type {Object<string, number>} */
export const RESULT_POINTS = { single: 1, gammon: 2, backgammon: 3 };

/**
 * @typedef {{score: number[], length: number, cube: {value: number}, on_turn: string|null,
 *            offer: {kind: string, side: string, result: string}|null}} TableState
 * @typedef {(key: string, params?: Object<string, string|number>) => string} Translate
 */

/** @param {string} side @returns {string} */
const other = (side) => (side === "A" ? "B" : "A");

/**
 * The score after `side` scores `points`: "7–5" (A first).
 * @param {number[]} score @param {string} side @param {number} points @returns {number[]}
 */
export function scoreAfter(score, side, points) {
  const out = score.slice();
  out[side === "A" ? 0 : 1] += points;
  return out;
}

/**
 * The outcome of a ruling, in words.
 * @param {TableState} s the table's state (in dispute)
 * @param {Object<string, string>} names the players' names by side (A, B)
 * @param {string} decision gin | lost | accept | invalid
 * @param {string|null|undefined} result single | gammon | backgammon (gin)
 * @param {Translate} t
 * @returns {string}
 */
export function rulingName(s, names, decision, result, t) {
  /** @param {number[]} x */
  const sc = (x) => x[0] + "–" + x[1];
  /** @param {string} res */
  const r = (res) => t("rul.result." + res);
  if (decision === "lost") return t("rul.lost", { name: names[s.on_turn || "A"] });
  if (decision === "gin") {
    const side = s.on_turn || "A";
    const res = result || "single";
    const after = scoreAfter(s.score, side, RESULT_POINTS[res] * s.cube.value);
    const keeps = after[side === "A" ? 0 : 1] >= s.length;
    return t(keeps ? "rul.gin_keeps" : "rul.gin_loses", { name: names[side], r: r(res), score: sc(after) });
  }
  if (decision === "invalid") return t("rul.invalid", { name: names[s.on_turn || "A"] });
  if (decision === "accept" && s.offer) {
    const o = s.offer;
    const winner = o.kind === "concede" ? other(o.side) : o.side;
    const after = scoreAfter(s.score, winner, RESULT_POINTS[o.result] * s.cube.value);
    const match = after[winner === "A" ? 0 : 1] >= s.length;
    return t(match ? "rul.accept_match" : "rul.accept", { name: names[winner], r: r(o.result), score: sc(after) });
  }
  return t("det.ruling." + decision);
}
