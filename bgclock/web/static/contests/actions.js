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
  const show = refresh(background);
  try {
    screen.state = await api("GET", base() + "/state");
  } catch (e) {
    screen.message = refusalText(/** @type {Error} */ (e));
    screen.error = true;
  }
  if (show()) ui.render();
}

/**
 * Run one action; show its outcome; keep the table links it gives.
 * @param {string} path
 * @param {any} body
 */
export async function act(path, body) {
  try {
    const out = await api("POST", base() + path, body);
    if (out && out.state) screen.state = out.state;
    for (const tb of (out && out.tables) || []) if (tb.table_id && tb.url) screen.links[String(tb.table_id)] = tb.url;
    screen.message = t("con.done");
    screen.error = false;
    // a table a command reached meanwhile did not take its match: the director renews it
    screen.notReady = (out && out.not_ready) || [];
    if (screen.notReady.length) screen.error = true;
  } catch (e) {
    screen.message = refusalText(/** @type {Error} */ (e));
    screen.error = true;
  }
  ui.render();
}

