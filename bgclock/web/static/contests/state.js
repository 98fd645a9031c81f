// @ts-check
/* bgclock dashboard, the Swing and couples screen: its state (the
 * tournament shown, its state as last read, the tables' links, the message
 * line, the tables that did not take their match) and the render hook
 * main.js sets. */

/**
 * @typedef {import("./view/parts.js").SwingState} SwingState
 * @typedef {import("./view/parts.js").CouplesState} CouplesState
 * @typedef {import("./view/parts.js").CouplesMatch} CouplesMatch
 * @typedef {{players: {id: number, name: string, withdrawn: boolean}[],
 *   tables: Object<string, number>, swing: (SwingState|null),
 *   couples: (CouplesState|null)}} ContestState
 */

export const screen = {
  /** @type {number|null} */ tournament: null,
  /** @type {ContestState|null} */ state: null,
  /** @type {Object<string, string>} table id -> its link */ links: {},
  message: "",
  error: false,
  /** @type {{table: number, table_id: number, message: string, spec: any}[]} tables that did not take their match */
  notReady: [],
  /** @type {number|null} */ timer: null
};

/** What the lower modules call to show the screen again (main.js sets it). */
export const ui = {
  /** @type {function(): void} */ render: () => {}
};

/** @returns {HTMLElement} */
export function root() {
  return /** @type {HTMLElement} */ (document.getElementById("contests"));
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
  const node = /** @type {HTMLInputElement|HTMLTextAreaElement|HTMLSelectElement|null} */ (document.getElementById(id));
  return node ? node.value : "";
}

