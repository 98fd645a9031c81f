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
import { button, h } from "../../kit/dom.js";
import { findSeats } from "../seats.js";
import { i18n } from "../strings.js";
import { poolsSection } from "./pools.js";

const I18N = i18n();
const t = I18N.t;
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
  const prizes = h("div", { class: "st-prizes" });
  for (const e of prizeEvents(st)) {
    const id = "st-prizes-" + e;
    const area = /** @type {HTMLTextAreaElement} */ (h("textarea", { id: id, rows: "4" }));
    area.value = ((st.prizes || {})[e] || []).join("\n");
    prizes.append(h("label", { for: id }, t("st.event." + e)), area,
      button(t("st.save_prizes", { event: t("st.event." + e) }), () => {
        const lines = area.value.split("\n").map((x) => x.trim());
        while (lines.length && !lines[lines.length - 1]) lines.pop();
        act("POST", "/prizes", { event: e, prizes: lines });
      }));
  }
  return h("section", { id: "st-section" }, h("h3", {}, t("st.title")),
    h("div", { class: "form", role: "search" }, h("label", { for: "st-search" }, t("st.search")), box), list,
    h("p", {}, link("/standings.html", t("st.print"), lang), " · ",
      link("/pairings.html", t("st.pairings"), lang), " · ",
      link("/standings.csv", t("st.csv"), ""), " · ", link("/standings.json", t("st.json"), ""), " · ",
      link("/results.csv", t("st.results_csv"), ""), " · ", link("/results.json", t("st.results_json"), "")),
    h("h4", {}, t("st.prizes")), h("p", {}, t("st.prizes_help")), prizes,
    poolsSection(/** @type {any} */ (st), prizeEvents(st)));
}
