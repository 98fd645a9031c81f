// @ts-check
/* bgclock dashboard: the tournament's end and the wall (issue 19 §4), a
 * section of the tournament screen (tourney/main.js).
 *
 * "Where do I play?" (part of a name -> table, opponent, event, round; every
 * event's tables: the state's ``seats``), the
 * printable standings and wall pairings in the director's language, the
 * exports of the standings and of every player's results, and the prize list
 * per event (one prize per line, 1st place first), saved as the tournament's
 * ``prizes`` action; the side pools (view/pools.js). */
import { h } from "../../kit/dom.js";
import { findSeats } from "../seats.js";
import { actSteps, sayFlow } from "../actions.js";
import { flowI18n } from "../flow-strings.js";
import { i18n } from "../strings.js";
import { poolsSection } from "./pools.js";

const I18N = i18n();
const t = I18N.t;
const fl = flowI18n().t;
const EVENTS = ["main", "consolation", "last_chance", "swing", "couples"];

/**
 * @typedef {import("../seats.js").SeatedMatch} SeatedMatch
 * @typedef {{tournament_id: number, matches: SeatedMatch[], seats?: SeatedMatch[],
 *   prizes?: Object<string, string[]>,
 *   consolation: (object|null), last_chance?: (object|null), swing?: (object|null),
 *   couples?: (object|null)}} StandingsState
 * @typedef {function(string, string, any=, string=): Promise<void>} Act
 */

/** The search typed so far (kept across the screen's re-renders). */
let query = "";

/** The prize lists typed and not saved yet, per event, of one tournament:
 * kept across the screen's re-renders (an action's, the periodic read's),
 * so saving never empties a box still being written. */
/** @type {{tournament: number, text: Object<string, string>}} */
const drafts = { tournament: -1, text: {} };

/**
 * A prize list's lines as saved: trimmed, no empty lines at the end.
 * @param {string} text
 * @returns {string[]}
 */
export function prizeLines(text) {
  const lines = text.split("\n").map((x) => x.trim());
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  return lines;
}

/**
 * The prize list as one form: a box per event, one Save for all of them.
 * Only the lists that differ from the saved ones are sent; the message says
 * which were saved (and how many places), or that nothing had changed.
 * @param {StandingsState} st
 * @param {string[]} events
 * @returns {HTMLElement}
 */
function prizeForm(st, events) {
  if (drafts.tournament !== st.tournament_id) { drafts.tournament = st.tournament_id; drafts.text = {}; }
  const saved = (/** @type {string} */ e) => (st.prizes || {})[e] || [];
  const form = h("form", { class: "st-prizes", id: "st-prizes-form" });
  for (const e of events) {
    const id = "st-prizes-" + e;
    const area = /** @type {HTMLTextAreaElement} */ (h("textarea", { id: id, rows: "4", "data-event": e }));
    area.value = drafts.text[e] !== undefined ? drafts.text[e] : saved(e).join("\n");
    area.addEventListener("input", () => { drafts.text[e] = area.value; });
    form.append(h("label", { for: id }, t("st.event." + e)), area);
  }
  form.append(h("button", { type: "submit", id: "st-prizes-save" }, fl("fl.save_prizes")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    /** @type {{event: string, prizes: string[]}[]} */
    const changed = [];
    for (const e of events) {
      const text = drafts.text[e];
      if (text === undefined) continue;
      const lines = prizeLines(text);
      if (JSON.stringify(lines) !== JSON.stringify(saved(e))) changed.push({ event: e, prizes: lines });
    }
    if (!changed.length) {
      sayFlow(fl("fl.prizes_unchanged"), false);
      return;
    }
    const said = fl("fl.prizes_saved", { list: changed.map((c) => c.prizes.filter((x) => x).length
      ? fl("fl.prizes_places", { event: t("st.event." + c.event), n: c.prizes.filter((x) => x).length })
      : fl("fl.prizes_none", { event: t("st.event." + c.event) })).join("; ") });
    actSteps(changed.map((c) => ({ method: "POST", path: "/prizes", body: c })), said, () => {
      for (const c of changed) delete drafts.text[c.event];
    });
  });
  return form;
}

/**
 * @param {SeatedMatch[]} matches
 * @param {HTMLElement} list
 */
function showSeats(matches, list) {
  const found = findSeats(matches, query);
  const eventName = (/** @type {string} */ e) => t("st.event." + e);
  list.replaceChildren(...(query.trim() && !found.length ? [h("li", {}, t("st.search_none"))]
    : found.map((s) => h("li", {}, t("st.search_row", { name: s.name, table: s.table, vs: s.vs,
      event: eventName(s.event), n: s.round + 1 })))));
}

/**
 * The events a prize list can be written for now.
 * @param {StandingsState} st
 * @returns {string[]}
 */
function prizeEvents(st) {
  return EVENTS.filter((e) => e === "main" || (e === "consolation" && st.consolation)
    || (e === "swing" && st.swing) || (e === "couples" && st.couples)
    || (e === "last_chance" && (st.last_chance || (st.prizes && st.prizes.last_chance))));
}

/**
 * The section: search, print-outs, exports, prize list.
 * @param {StandingsState} st
 * @param {Act} act
 * @returns {HTMLElement}
 */
export function standingsSection(st, act) {
  const base = "/api/tournaments/" + st.tournament_id;
  // no key in these addresses: the director's session cookie opens them
  const lang = "lang=" + (I18N.lang === "it" ? "it" : "en");
  const link = (/** @type {string} */ href, /** @type {string} */ text, /** @type {string} */ extra) =>
    h("a", { href: base + href + (extra ? "?" + extra : ""), target: "_blank", rel: "noopener" }, text);
  const list = h("ul", { class: "st-found", id: "st-found", "aria-live": "polite" });
  const box = /** @type {HTMLInputElement} */ (h("input", { id: "st-search", type: "search", maxlength: "100",
    autocomplete: "off", placeholder: t("st.search_help") }));
  box.value = query;
  const where = st.seats || st.matches;
  box.addEventListener("input", () => { query = box.value; showSeats(where, list); });
  showSeats(where, list);
  const prizes = prizeForm(st, prizeEvents(st));
  return h("section", { id: "st-section" }, h("h3", {}, t("st.title")),
    h("div", { class: "form", role: "search" }, h("label", { for: "st-search" }, t("st.search")), box), list,
    h("p", {}, link("/standings.html", t("st.print"), lang), " · ",
      link("/pairings.html", t("st.pairings"), lang), " · ",
      link("/standings.csv", t("st.csv"), ""), " · ", link("/standings.json", t("st.json"), ""), " · ",
      link("/results.csv", t("st.results_csv"), ""), " · ", link("/results.json", t("st.results_json"), "")),
    h("h4", {}, t("st.prizes")), h("p", {}, t("st.prizes_help")), prizes,
    poolsSection(/** @type {any} */ (st), prizeEvents(st)));
}
