// @ts-check
/* bgclock dashboard, the tournament screen: its state (the tournament shown,
 * its state and log as the server last sent them, the message line, the
 * actions on their way) and the hook through which the modules below the
 * views ask for a render (set by main.js, so no module imports main.js). */

/**
 * @typedef {{a: (string|null), b: (string|null), winner: (string|null)}} BracketMatch
 * @typedef {{size: number, rounds: BracketMatch[][], late_slots?: number[], late_open?: boolean,
 *   arrivals?: string[]}} Bracket
 * @typedef {{id: number, name: string, federation_id: (string|null), checked_in: boolean,
 *   withdrawn: boolean}} Player
 * @typedef {{event: string, round: number, match: number, table: number,
 *   table_id: (number|null), a: (string|null), b: (string|null), winner: (string|null),
 *   clock: string, result: (Object<string, any>|null)}} TableMatch
 * @typedef {{settings: {rounds: {length: number, rules: string, clock: string}[],
 *   late_slots: number, seed: number, seed_given?: boolean, last_chance?: boolean,
 *   seeds?: number[], groups?: number[][]}, players: Player[], drawn: boolean,
 *   main: (Bracket|null), consolation: (Bracket|null), last_chance?: (Bracket|null),
 *   matches: TableMatch[], results?: MatchResult[],
 *   room_url: string}} TourneyState
 * @typedef {{event: string, round: number, match: number, source: string,
 *   corrected?: Object<string, any>, corrections?: number}} MatchResult
 */

export const screen = {
  /** @type {number|null} */ tournament: null,
  /** @type {TourneyState|null} */ state: null,
  message: "",
  error: false,
  /** @type {number|null} */ timer: null,
  /** The tournament's log, oldest first (the history).
   * @type {{n: number, at_ms: number, source: string, action: Object<string, any>}[]} */
  history: [],
  /** The room's events when this one shares a room (GET .../flight).
   * @type {import("./strings.js").Flight|null} */ flight: null,
  /** The matches being played and their breaks, timed by the server (GET
   * .../breaks, once drawn). @type {import("./view/breaks.js").Breaks|null} */ breaks: null,
  /** The actions on their way ("POST /draw"): a second click waits for the first.
   * @type {Set<string>} */ pending: new Set()
};

/** What the lower modules call to show the screen again (main.js sets it). */
export const ui = {
  /** @type {function(): void} */ render: () => {}
};

/** @returns {HTMLElement} */
export function root() {
  return /** @type {HTMLElement} */ (document.getElementById("tourney"));
}

/** @returns {string} */
export function base() {
  return "/api/tournaments/" + screen.tournament;
}

/**
 * @param {string} id
 * @returns {string}
 */
export function value(id) {
  const node = /** @type {HTMLInputElement|HTMLTextAreaElement|null} */ (document.getElementById(id));
  return node ? node.value : "";
}

