// @ts-check
/* bgclock dashboard, the Swing and couples screen: its actions, through
 * /api/tournaments/{id}/... with the director's key; the outcome on the
 * message line, the table links an action gives kept. */
import { api } from "../kit/api.js";
import { refusalText } from "../tourney/strings.js";
import { refreshJudge } from "../kit/screen.js";
import { base, root, screen, ui } from "./state.js";
import { i18n } from "./strings.js";

const t = i18n().t;

/** What the screen shows of what a load reads, as JSON: a background load
 * is shown only when it changed (kit/screen.js). */
const refresh = refreshJudge(root,
  () => JSON.stringify([screen.state, screen.message, screen.error]));

/**
 * Read the tournament's state again, and show it.
 * @param {boolean} [background] the screen's periodic refresh: shown only
 *   when something changed and the director is not in the screen
 */
export async function load(background) {
  if (screen.tournament == null) return;
  const read = refresh(background);
  if (!read) return;
  /** @type {any} */ let state = null;
  /** @type {Error|null} */ let failed = null;
  try {
    state = await api("GET", base() + "/state");
  } catch (e) {
    failed = /** @type {Error} */ (e);
  }
  if (!read.fresh()) return;  // a later read or action was asked meanwhile (kit/screen.js)
  if (failed) {
    screen.message = refusalText(failed);
    screen.error = true;
  } else {
    screen.state = state;
  }
  if (read.show()) ui.render();
}

/**
 * Run one action; show its outcome; keep the table links it gives.
 * @param {string} path
 * @param {any} body
 */
export async function act(path, body) {
  // the action's answer is what the screen shows next, unless the director
  // asks for something else (another tournament) before it comes
  const read = /** @type {import("../kit/screen.js").Read} */ (refresh());
  try {
    const out = await api("POST", base() + path, body);
    if (read.fresh() && out && out.state) screen.state = out.state;
    for (const tb of (out && out.tables) || []) if (tb.table_id && tb.url) screen.links[String(tb.table_id)] = tb.url;
    screen.message = t("con.done");
    screen.error = false;
    // a table a command reached meanwhile did not take its match: the director renews it
    screen.notReady = (out && out.not_ready) || [];
    if (screen.notReady.length) screen.error = true;
  } catch (e) {
    read.fresh();
    screen.message = refusalText(/** @type {Error} */ (e));
    screen.error = true;
  }
  ui.render();
}

