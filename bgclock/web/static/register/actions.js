// @ts-check
/* bgclock dashboard, the players' register: its requests (the search, an
 * action said in words then the search again, a player's history), through
 * /api/register... with the director's key. */
import { api } from "../kit/api.js";
import { once } from "../kit/once.js";
import { refreshJudge } from "../kit/screen.js";
import { PAGE, root, say, screen, ui } from "./state.js";
import { refusalText } from "./strings.js";

/** @typedef {import("./state.js").Entry} Entry */

/** What the screen shows of what a load reads, as JSON: a background load
 * is shown only when it changed (kit/screen.js). */
const refresh = refreshJudge(root,
  () => JSON.stringify([screen.entries, screen.total, screen.message, screen.error]));

/**
 * Search the register again, and show what is found.
 * @param {boolean} [background] the screen's periodic refresh: shown only
 *   when something changed and the director is not in the screen
 */
export async function load(background) {
  const read = refresh(background);
  if (!read) return;
  const query = "?q=" + encodeURIComponent(screen.q) + "&order=" + screen.order
    + "&limit=" + PAGE + "&offset=" + screen.offset;
  const path = screen.tournament == null ? "/api/register" + query
    : "/api/tournaments/" + screen.tournament + "/register-search" + query;
  /** @type {any} */ let found = null;
  /** @type {string|null} */ let failed = null;
  try {
    found = await api("GET", path);
  } catch (e) {
    failed = refusalText(/** @type {Error} */ (e));
  }
  // a later search (another name typed, another page) was asked meanwhile:
  // its answer is the one to show (kit/screen.js)
  if (!read.fresh()) return;
  if (failed != null) {
    say(failed, true);
  } else {
    screen.entries = found.entries;
    screen.total = found.total;
  }
  if (read.show()) ui.render();
}

/**
 * Run one request; say how it went; search again.  As the action `name`, it
 * is sent once while it is on its way (kit/once.js): a second click on its
 * button (`onceAttrs(name)`, disabled meanwhile) does nothing until the
 * screen shows how the first one went.  A refused request leaves what was
 * typed in the screen's boxes, for the director to correct and try again.
 * @param {string} name
 * @param {function(): Promise<string>} fn what it did, in words
 * @returns {Promise<void>}
 */
export function act(name, fn) {
  return once(name, async () => {
    /** @type {Map<string, string>|null} */ let typed = null;
    try {
      say(await fn());
    } catch (e) {
      // the refusal in the page's language, by its code (strings.js)
      say(refusalText(/** @type {Error} */ (e)), true);
      typed = typedIn(root());
    }
    await load();
    if (typed) giveBack(typed);
  });
}

/**
 * What is typed in the screen's boxes, by their ids.
 * @param {HTMLElement} node
 * @returns {Map<string, string>}
 */
function typedIn(node) {
  /** @type {Map<string, string>} */
  const typed = new Map();
  node.querySelectorAll("input[id], textarea[id]").forEach((box) => {
    typed.set(box.id, /** @type {HTMLInputElement|HTMLTextAreaElement} */ (box).value);
  });
  return typed;
}

/**
 * Put what was typed back in the boxes of the same ids (the screen was built
 * again with the answer).
 * @param {Map<string, string>} typed
 */
function giveBack(typed) {
  for (const [id, text] of typed) {
    const box = document.getElementById(id);
    if (box instanceof HTMLInputElement || box instanceof HTMLTextAreaElement) box.value = text;
  }
}

/** @param {Entry} e */
export async function showHistory(e) {
  try {
    screen.history = await api("GET", "/api/register/" + e.id);
  } catch (err) {
    say(refusalText(/** @type {Error} */ (err)), true);
  }
  ui.render();
}

