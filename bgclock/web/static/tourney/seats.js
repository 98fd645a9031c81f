// @ts-check
/* bgclock: who sits where and how a match was won, read off the tournament's
 * matches (pure: no DOM, no words of its own): "where do I play?", a
 * result's text for the room's results, the consolation's entrants.  Shared
 * by the tournament screen's standings section and the room display. */
import { bySurname } from "../kit/names.js";

/**
 * @typedef {{event: string, round: number, match?: number, table: (number|null),
 *   a: (string|null), b: (string|null), winner: (string|null)}} SeatedMatch
 * @typedef {{name: string, table: number, vs: string, event: string, round: number}} Seat
 */

/**
 * "Where do I play?": the undecided matches at a table whose players' names
 * hold ``query`` (any case), one row per player found, by name.
 * @param {SeatedMatch[]} matches
 * @param {string} query
 * @returns {Seat[]}
 */
export function findSeats(matches, query) {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [];
  /** @type {Seat[]} */
  const out = [];
  for (const m of matches) {
    if (m.winner || m.table == null || !m.a || !m.b) continue;
    for (const [me, vs] of [[m.a, m.b], [m.b, m.a]]) {
      if (me.toLocaleLowerCase().includes(q)) {
        out.push({ name: me, table: m.table, vs: vs, event: m.event, round: m.round });
      }
    }
  }
  return out.sort((x, y) => bySurname(x.name, y.name));
}

/**
 * How a match was won, for the room's results: the score (the winner's
 * points first), "on time" for a flag (a clock result with the winner short
 * of the match's length), or why (disqualified, withdrawn).
 * @param {{a: (string|null), b: (string|null), winner: (string|null), length?: number}} m
 * @param {Object<string, any>} r the match's result: source, score
 * @param {function(string): string} t
 * @returns {string}
 */
export function resultText(m, r, t) {
  if (r.source === "disqualified") return t("roomx.dq");
  if (r.source === "withdrawn") return t("st.withdrawn");
  if (!Array.isArray(r.score)) return "";
  const mine = m.winner === m.b ? r.score.slice().reverse() : r.score.slice();
  if (r.source === "clock" && m.length && mine[0] < m.length) return t("st.on_time");
  return mine.join(" – ");
}

/**
 * The Main's players whose first played match (both players there) is
 * lost: the consolation's entrants, who are not "out" before it is drawn.
 * @param {{rounds: {a: (string|null), b: (string|null), winner: (string|null)}[][]}|null} main
 * @returns {Set<string>}
 */
export function firstMatchLosers(main) {
  /** @type {Set<string>} */
  const seen = new Set(), out = new Set();
  if (!main) return out;
  for (const round of main.rounds) {
    for (const m of round) {
      if (!m.a || !m.b) continue;
      for (const p of [m.a, m.b]) {
        if (seen.has(p)) continue;
        seen.add(p);
        if (m.winner && m.winner !== p) out.add(p);
      }
    }
  }
  return out;
}

