// @ts-check
/* bgclock room display: its state.  The room as the server last sent it
 * (room.json, read or pushed), when it came, the view and page shown; the
 * page's address (tournament, credential, a pinned view); and what the room
 * holds to show: the matches at tables, the results newest first, every
 * player by name, the late arrivals, the views with something in them. */
import { firstMatchLosers } from "../tourney/seats.js";
import { bySurname } from "../kit/names.js";

export const POLL_MS = 2000;
export const ROTATE_MS = 12000;
export const TABLE_ROWS = 13;
export const NAMES_PER_PAGE = 30;
export const LATE_ROWS = 7;
export const SHEET_BLOCK = 8;

/**
 * @typedef {{a: (string|null), b: (string|null), winner: (string|null)}} BracketMatch
 * @typedef {{size: number, rounds: BracketMatch[][], late_slots?: number[],
 *   late_open?: boolean}} Bracket
 * @typedef {{phase: string, score: number[], on_turn: (string|null), reserve_ms: number[],
 *   length: number, at_ms: number, provisional?: boolean}} LiveClock
 * @typedef {{event: string, round: number, match: number, table: number, a: (string|null),
 *   b: (string|null), winner: (string|null), clock: string, live: (LiveClock|null),
 *   result: (Object<string, any>|null), length?: number}} RoomMatch
 * @typedef {{label: string, names: string[], first: number}} RoomPlacing
 * @typedef {{event: string, complete: boolean, champion: (string|null),
 *   placings: RoomPlacing[], in_play: string[]}} RoomStanding
 * @typedef {{points: number, score: number[], over: boolean, arrived: boolean,
 *   next_point_ms: (number|null), out_ms: (number|null), at_ms: number}} LateCount
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   absent: string[], from_ms: number, clock: boolean, winner: (string|null),
 *   arrived_ms: Object<string, number>, count?: LateCount}} Late
 * @typedef {{appeal: number, event: string, round: number, match: number, ruling: string,
 *   panel: number[], decision: (string|null)}} Appeal
 * @typedef {{tournament: {id: number, name: string}, main: (Bracket|null),
 *   consolation: (Bracket|null), matches: RoomMatch[], server_ms: number, late: Late[],
 *   committee: {id: number, name: string}[], appeals: Appeal[],
 *   champions: Object<string, (string|null)>, standings: RoomStanding[], registered: string[],
 *   result_order: Array<[string, number, number]>,
 *   seats?: import("../tourney/seats.js").SeatedMatch[], forecast?: (RoomForecast|null)}} Room
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   end_ms?: number}} ForecastMatch
 * @typedef {{end_ms: (number|null), holding: (ForecastMatch|null), matches: ForecastMatch[],
 *   unclocked: number}} RoomForecast
 * @typedef {{id: string, pages: number}} View
 */

const parts = location.pathname.split("/");
export const tournamentId = parts[parts.length - 1];
const search = new URLSearchParams(location.search);
export const token = search.get("token");
export const pinned = search.get("view");
export const rotate = search.get("rotate") !== "0" && !pinned;

/** @type {{room: (Room|null), at: number, failed: boolean, view: number, page: number, shown: number}} */
export const view = { room: null, at: 0, failed: false, view: 0, page: Number(search.get("page") || 1) - 1, shown: 0 };

/** The room token, as a query (none: the director's session cookie opens the room). */
export const credential = () => (token ? "token=" + encodeURIComponent(token) : "");

/** What the link calls to show the room again (main.js sets it). */
export const ui = {
  /** @type {function(): void} */ render: () => {}
};

/** A room.json body arrived (read or pushed). @param {any} data */
export function received(data) {
  view.room = normalise(data);
  view.at = performance.now();
  view.failed = false;
  // the room's other events (view/flight.js) read the same body
  document.dispatchEvent(new CustomEvent("bg-room", { detail: data }));
}

/**
 * The server's room.json: a match's ``clock`` is its live clock (or null).
 * @param {any} data
 * @returns {Room}
 */
export function normalise(data) {
  data.matches = data.matches.map((/** @type {any} */ m) => {
    const live = m.clock && typeof m.clock === "object" ? m.clock : null;
    return Object.assign({}, m, { live: live, clock: live ? "required" : "none" });
  });
  data.late = data.late || [];
  data.committee = data.committee || [];
  data.appeals = data.appeals || [];
  data.champions = data.champions || {};
  data.standings = data.standings || [];
  data.registered = data.registered || [];
  data.result_order = data.result_order || [];
  return data;
}

/** @returns {number} the server's now, counted on since the last poll */
export function serverNow() {
  const room = view.room;
  return room ? room.server_ms + (performance.now() - view.at) : Date.now();
}

/**
 * @param {Room} room
 * @returns {RoomMatch[]}
 */
export function liveMatches(room) {
  return room.matches.filter((m) => !m.winner).sort((x, y) => x.table - y.table);
}

/**
 * The decided matches by event (the Main first), newest first in each (the
 * order the results came in; a result without one by round).
 * @param {Room} room
 * @returns {RoomMatch[]}
 */
export function results(room) {
  /** @type {Map<string, number>} */
  const order = new Map(room.result_order.map((k, n) => [k.join(":"), n]));
  const when = (/** @type {RoomMatch} */ m) => order.get(m.event + ":" + m.round + ":" + m.match) ?? m.round;
  return room.matches.filter((m) => m.winner)
    .sort((x, y) => (Number(x.event !== "main") - Number(y.event !== "main")) || (when(y) - when(x)) || (x.table - y.table));
}

/**
 * Every player of the draw, by name: where they play now, or waiting, or out.
 * @param {Room} room
 * @returns {{name: string, table: (number|null), vs: string, status: string}[]}
 */
export function byName(room) {
  /** @type {Map<string, {name: string, table: (number|null), vs: string, status: string}>} */
  const out = new Map();
  /** @type {Set<string>} */
  const lost = new Set();
  /** @type {Set<string>} */
  const inCons = new Set();
  for (const [event, b] of /** @type {[string, Bracket|null][]} */ ([["main", room.main], ["consolation", room.consolation]])) {
    if (!b) continue;
    for (const round of b.rounds) {
      for (const m of round) {
        for (const p of [m.a, m.b]) {
          if (!p) continue;
          if (!out.has(p)) out.set(p, { name: p, table: null, vs: "", status: "waiting" });
          if (event === "consolation") inCons.add(p);
          if (m.winner && m.winner !== p && m.a && m.b) lost.add(event + ":" + p);
        }
      }
    }
    const last = b.rounds[b.rounds.length - 1];
    if (last && last.length === 1 && last[0].winner) {
      const champ = out.get(last[0].winner);
      if (champ) champ.status = event === "main" ? "champion" : champ.status;
    }
  }
  const first = firstMatchLosers(room.main);
  for (const p of out.values()) {
    if (p.status === "champion") continue;
    const outMain = lost.has("main:" + p.name);
    if (!outMain) continue;
    // a first-match loser goes on to the consolation: not out before it is drawn
    if (!room.consolation && first.has(p.name)) p.status = "waiting_cons";
    else if (!inCons.has(p.name) || lost.has("consolation:" + p.name)) p.status = "out";
  }
  for (const m of liveMatches(room)) {
    for (const [p, o] of [[m.a, m.b], [m.b, m.a]]) {
      const row = p ? out.get(p) : null;
      if (row) { row.table = m.table; row.vs = o || ""; row.status = "playing"; }
    }
  }
  return [...out.values()].sort((x, y) => bySurname(x.name, y.name));
}

/**
 * @param {Room} room
 * @returns {Late[]}
 */
export function lates(room) {
  return room.late.filter((l) => !l.winner || (l.count && l.count.over));
}

/**
 * @param {Bracket|null} b
 * @returns {number}
 */
export function sheetPages(b) {
  if (!b || !b.rounds.length) return 0;
  return Math.max(1, Math.ceil(b.rounds[0].length / SHEET_BLOCK));
}

/**
 * The views with something to show, and how many pages each takes.
 * @param {Room} room
 * @returns {View[]}
 */
export function views(room) {
  const pages = (/** @type {number} */ n, /** @type {number} */ per) => Math.ceil(n / per);
  const started = room.matches.length > 0;
  /** @type {View[]} */
  const all = [
    { id: "champion", pages: room.champions.main ? 1 : 0 },
    { id: "welcome", pages: started ? 0 : Math.max(1, pages(room.registered.length, NAMES_PER_PAGE)) },
    { id: "tables", pages: pages(liveMatches(room).length, TABLE_ROWS) },
    { id: "names", pages: pages(byName(room).length, NAMES_PER_PAGE) },
    { id: "results", pages: pages(results(room).length, TABLE_ROWS) },
    { id: "late", pages: pages(lates(room).length, LATE_ROWS) },
    { id: "committee", pages: room.committee.length || room.appeals.length ? 1 : 0 },
    { id: "main", pages: sheetPages(room.main) },
    { id: "consolation", pages: sheetPages(room.consolation) }
  ];
  if (pinned) return all.filter((v) => v.id === pinned).map((v) => ({ id: v.id, pages: Math.max(v.pages, 1) }));
  return all.filter((v) => v.pages > 0);
}

/**
 * @template T
 * @param {T[]} list
 * @param {number} page
 * @param {number} per
 * @returns {T[]}
 */
export function pageOf(list, page, per) {
  return list.slice(page * per, page * per + per);
}

