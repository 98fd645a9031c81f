// @ts-check
/* bgclock dashboard, the players' register: its state (the tournament
 * chosen, the page of entries found, the search, the entry edited, the
 * history shown, the message line) and the render hook main.js sets. */

/** Entries per page of the search. */
export const PAGE = 20;

/**
 * @typedef {{id: number, name: string, federation_id: (string|null), club: (string|null),
 *   rating: number, rating_points: string, experience: number, player?: (number|null)}} Entry
 * @typedef {{tournament_name: string, opponent_name: string, length: number, won: boolean,
 *   before_points: string, after_points: string, event: string, round: number}} Line
 */

export const screen = {
  /** @type {number|null} */ tournament: null,
  /** @type {any} */ state: null,
  /** @type {Entry[]} */ entries: [],
  total: 0,
  offset: 0,
  q: "",
  order: "name",
  /** @type {Entry|null} */ editing: null,
  /** @type {(Entry & {history: Line[]})|null} */ history: null,
  message: "",
  error: false,
  /** @type {number|null} */ timer: null
};

/** What the lower modules call to show the screen again (main.js sets it). */
export const ui = {
  /** @type {function(): void} */ render: () => {}
};

/** @returns {HTMLElement} */
export function root() {
  return /** @type {HTMLElement} */ (document.getElementById("register"));
}

/** @param {string} id @returns {string} */
export function value(id) {
  const node = /** @type {HTMLInputElement|HTMLTextAreaElement|HTMLSelectElement|null} */ (document.getElementById(id));
  return node ? node.value : "";
}

/** @param {string} text @param {boolean} [error] */
export function say(text, error) {
  screen.message = text;
  screen.error = !!error;
}

