// @ts-check
/* bgclock dashboard, the tournament screen: the tournament's log, newest first: who,
 * what, when, and an undo where it applies. */
import { timeOfDay } from "../../kit/format.js";
import { button, h } from "../../kit/dom.js";
import { confirmed } from "../actions.js";
import { revertBody, undoable } from "./draw.js";
import { screen } from "../state.js";
import { i18n } from "../strings.js";

/**
 * @typedef {import("../state.js").TourneyState} TourneyState
 * @typedef {import("../state.js").Bracket} Bracket
 * @typedef {import("../state.js").BracketMatch} BracketMatch
 */

const I18N = i18n();
const t = I18N.t;

/**
 * What each logged undo undid, as the server folds it (tournament/_running.py,
 * ``_revert``): a match's last correction while it has one, else its result.
 * Walked over the whole log in order, so an undo is named even when the
 * director who sent it did not say how many corrections the match had.
 * @param {{n: number, action: Object<string, any>}[]} log
 * @returns {Map<number, string>} the log number of each undo: "correction" or "result"
 */
export function undoneBy(log) {
  /** @type {Map<string, number>} */
  const corrections = new Map();
  /** @type {Map<number, string>} */
  const out = new Map();
  for (const x of log) {
    const a = x.action;
    const key = [a.event || "main", a.round, a.match].join(":");
    if (a.do === "correct") corrections.set(key, (corrections.get(key) || 0) + 1);
    else if (a.do === "result" || a.do === "presume") corrections.delete(key);
    else if (a.do === "revert") {
      const k = corrections.get(key) || 0;
      out.set(x.n, k > 0 ? "correction" : "result");
      if (k > 1) corrections.set(key, k - 1); else corrections.delete(key);
    }
  }
  return out;
}

/**
 * One logged action in words (the director's language).
 * @param {Object<string, any>} a
 * @param {number} n its number in the log
 * @param {Map<number, string>} undid what each undo undid (``undoneBy``)
 * @returns {string}
 */
function describe(a, n, undid) {
  const st = /** @type {TourneyState} */ (screen.state);
  const player = (/** @type {any} */ id) => {
    const p = st.players.find((x) => x.id === id);
    return p ? p.name : "#" + id;
  };
  /** @type {Object<string, (string|number)>} */
  const params = { name: a.player != null ? player(a.player) : (a.name || ""), winner: a.winner || "",
    seed: a.seed != null ? a.seed : "", n: a.round != null ? a.round + 1 : "", m: a.match != null ? a.match + 1 : "",
    event: t(a.event === "consolation" ? "room.consolation" : "room.main"), reason: a.reason || "",
    pool: a.pool || "" };
  const key = "hist." + (a.do === "revert" && undid.get(n) === "correction" ? "revert_correction" : a.do);
  const known = I18N.STRINGS[I18N.lang] && I18N.STRINGS[I18N.lang][key] !== undefined;
  return known ? t(key, params) : t("hist.other", { what: String(a.do) });
}

/**
 * The undo of a logged action, while it applies: [label, confirmation, path, body].
 * @param {Object<string, any>} a
 * @returns {[string, string, string, any]|null}
 */
function undoOf(a) {
  const st = /** @type {TourneyState} */ (screen.state);
  if (a.do === "withdraw") {
    const p = st.players.find((x) => x.id === a.player);
    if (!p || !p.withdrawn) return null;
    return [t("trn.reinstate"), t("cf.reinstate", { name: p.name }), "/players/" + p.id + "/reinstate", undefined];
  }
  if (a.do === "result" || a.do === "correct" || a.do === "presume") {
    const event = a.event || "main";
    const bracket = event === "main" ? st.main : st.consolation;
    const m = bracket && bracket.rounds[a.round] && bracket.rounds[a.round][a.match];
    // a presumption logs no winner: it is the one its kept sheet gave
    const winner = a.do === "presume" ? (m && m.winner) : a.winner;
    if (!m || !winner || m.winner !== winner) return null;
    // offered only where the server will do it: never on a clock's result
    const result = (st.results || []).find((x) => x.event === event && x.round === a.round && x.match === a.match);
    if (!undoable(result || null)) return null;
    const pair = m.a + " – " + m.b;
    return [t("trn.undo"), t(a.do === "correct" ? "cf.revert_correction" : "cf.revert", { name: String(m.winner), match: pair }),
      "/results/revert", revertBody(event, a.round, a.match, m.winner)];
  }
  return null;
}

/** The tournament's action history, newest first: who, what, when; undo where it applies.
 * @returns {HTMLElement} */
export function historySection() {
  const offered = new Set();  // one undo per match or player: its latest action's
  const undid = undoneBy(screen.history);
  const rows = screen.history.slice(-40).reverse().map((x) => {
    const when = timeOfDay(x.at_ms, I18N.lang, true);
    const a = x.action;
    const what = a.do === "withdraw" || a.do === "reinstate" ? "p" + a.player
      : ["result", "correct", "revert", "presume"].includes(a.do) ? [a.event || "main", a.round, a.match].join(":") : null;
    const undo = what != null && !offered.has(what) ? undoOf(a) : null;
    if (what != null) offered.add(what);
    const cell = h("td", {});
    if (undo) cell.append(button(undo[0], confirmed(undo[1], "POST", undo[2], undo[3]), { "data-undo": String(x.n) }));
    return h("tr", { "data-n": String(x.n) }, h("td", {}, String(x.n)), h("td", {}, when),
      h("td", {}, t(x.source === "director" ? "hist.by_director" : "hist.by_table")),
      h("td", {}, describe(x.action, x.n, undid)), cell);
  });
  // on a phone each row is drawn in lines (who and when, what, the undo: style.css);
  // the table scrolls in its own box if it is still wider than the screen
  return h("section", { id: "trn-history" }, h("h3", {}, t("hist.title")),
    h("div", { class: "scroll-x" }, h("table", { class: "trn-history trn-log" },
      h("thead", {}, h("tr", {}, ...["#", t("hist.when"), t("hist.who"), t("hist.what"), ""].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, ...rows))));
}

