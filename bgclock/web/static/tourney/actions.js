// @ts-check
/* bgclock dashboard, the tournament screen: its actions.  Each goes through
 * /api/tournaments/{id}/... with the director's key (kit/api.js); the
 * outcome goes to the message line and the state is read again.  An action
 * that changes the draw, a result or a player's status is confirmed first
 * (kit/confirm.js). */
import { api } from "../kit/api.js";
import { openConfirm } from "../kit/confirm.js";
import { refreshJudge } from "../kit/screen.js";
import { base, root, screen, ui } from "./state.js";
import { i18n, refusalText } from "./strings.js";

const t = i18n().t;

/** The refusals that answer an action already done (a repeated click). */
const ALREADY = new Set(["already_drawn", "round_not_ready"]);

/** What the screen shows of what a load reads, as JSON: a background load
 * is shown only when it changed (kit/screen.js). */
const refresh = refreshJudge(root,
  // the breaks' answer names the server's time now: only the breaks count
  () => JSON.stringify([screen.state, screen.history, screen.flight,
    screen.breaks ? /** @type {any} */ (screen.breaks).breaks : null, screen.message, screen.error]));

/**
 * Read the tournament's state, log and room again, and show them: all
 * three, or none when a later read or action was asked meanwhile (another
 * tournament chosen, say: kit/screen.js).
 * @param {boolean} [background] the screen's periodic refresh: none while an
 *   action is on its way; shown only when something changed and the
 *   director is not in the screen
 */
export async function load(background) {
  if (screen.tournament == null) return;
  const read = refresh(background);
  if (!read) return;
  const path = base();
  /** @type {any} */ let state = null;
  /** @type {any[]} */ let history = [];
  /** @type {any} */ let flight = null;
  /** @type {any} */ let breaks = null;
  /** @type {string|null} */ let failed = null;
  try {
    state = await api("GET", path + "/state");
    history = (await api("GET", path + "/actions")).actions;
    flight = await readFlight(path, state);
    breaks = await readBreaks(path, state);
  } catch (e) {
    failed = String(/** @type {Error} */ (e).message);
  }
  if (!read.fresh()) return;
  if (failed != null) {
    screen.message = failed;
    screen.error = true;
  } else {
    screen.state = state;
    screen.history = history;
    screen.flight = flight;
    screen.breaks = breaks;
  }
  if (read.show()) ui.render();
}

/**
 * The room's events, when this event shares a room.
 * @param {string} path the tournament's
 * @param {any} state its state
 */
async function readFlight(path, state) {
  return state && state.flight ? (await api("GET", path + "/flight")).flight : null;
}

/**
 * The matches being played and their breaks, timed by the server, once drawn.
 * @param {string} path the tournament's
 * @param {any} state its state
 */
async function readBreaks(path, state) {
  return state && state.drawn ? await api("GET", path + "/breaks") : null;
}

/**
 * Run one action; show its outcome; read the state again.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {string} [type]
 * @param {function(any): (string|null)} [said] the message the answer gives
 *   (null: the usual one)
 */
export async function act(method, path, body, type, said) {
  const what = method + " " + path;
  if (screen.pending.has(what)) return;  // a double click: the action is on its way
  screen.pending.add(what);
  // the action's answer is what the screen shows next, unless the director
  // asks for something else (another tournament) before it comes
  const read = /** @type {import("../kit/screen.js").Read} */ (refresh());
  const at = base();
  try {
    const out = await api(method, at + path, body, type);
    screen.message = (said && said(out)) || (out && out.waiting && out.waiting.length ? t("fl.waiting_n", { n: out.waiting.length }) : t("trn.done"));
    screen.error = false;
    const history = (await api("GET", at + "/actions")).actions;
    const state = out && out.state ? out.state : screen.state;
    const flight = await readFlight(at, state);
    const breaks = await readBreaks(at, state);
    if (read.fresh()) {
      screen.state = state;
      screen.history = history;
      screen.flight = flight;
      screen.breaks = breaks;
    }
  } catch (e) {
    read.fresh();
    const err = /** @type {Error & {code?: string, params?: Object<string, (string|number)>}} */ (e);
    if (err.code === "clock_running" && body && typeof body === "object" && !body.stop_clock) {
      // the match's clock runs: ask again, then stop it and enter the result
      screen.message = refusalText(err);
      screen.error = true;
      const again = confirmed(t("cf.stop_clock", { table: String((err.params || {}).table) }), method, path,
        Object.assign({}, body, { stop_clock: true }));
      setTimeout(again, 0);  // once the first dialog has closed
    } else if (err.code && ALREADY.has(err.code)) {
      // the second answer to a repeated Draw or Start round: it was done once
      screen.message = t("trn.already_done");
      screen.error = false;
      await load();
    } else {
      screen.message = refusalText(err);
      screen.error = true;
    }
  } finally {
    screen.pending.delete(what);
  }
  ui.render();
}

/**
 * An action that changes the draw, a result or a player's status: the
 * director confirms it first, the dialog naming its effect (confirm.js).
 * @param {string} text
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @returns {function(): void}
 */
export function confirmed(text, method, path, body) {
  return () => {
    // the opener: the button just clicked (the dialog keeps its Confirm away from it)
    openConfirm({ text: text, confirmLabel: t("act.confirm"), cancelLabel: t("act.cancel"),
      busyLabel: t("dir.sending"), opener: document.activeElement,
      onConfirm: () => act(method, path, body) });
  };
}


/**
 * Several actions of one form, one after the other (a form saved whole,
 * issue 32 §5); the first refusal stops the rest and is shown.  When all
 * are done, `done` runs and the message line says `said` (what was saved,
 * never a bare "Done.").
 * @param {{method: string, path: string, body?: any}[]} steps
 * @param {string} said
 * @param {function(): void} [done]
 */
export async function actSteps(steps, said, done) {
  for (const s of steps) {
    await act(s.method, s.path, s.body);
    if (screen.error) return;
  }
  if (done) done();
  sayFlow(said, false);
}

/**
 * A line in the message line, without a request (what a form found before
 * sending anything).
 * @param {string} text @param {boolean} error
 */
export function sayFlow(text, error) {
  screen.message = text;
  screen.error = error;
  ui.render();
}
