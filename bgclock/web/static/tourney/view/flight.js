// @ts-check
/* bgclock dashboard: the event's room (flights, issue 23 §1), a section of
 * the tournament screen (tourney/main.js).
 *
 * The room's name, this event's precedence and the room's table count (the
 * ``flight`` action); every event of the room by name with the tables it
 * holds and its matches waiting for a table (GET .../flight); the room's
 * printable wall pairings and its exports. */
import { button, h } from "../../kit/dom.js";
import { i18n } from "../strings.js";

const I18N = i18n();
const t = I18N.t;

/**
 * @typedef {import("../strings.js").Flight} Flight
 * @typedef {{tournament_id: number, flight?: ({room: string, precedence: number, tables: number}|null)}} FlightState
 * @typedef {function(string, string, any=, string=): Promise<void>} Act
 */

/** @param {string} id @returns {string} */
function value(id) {
  const node = /** @type {HTMLInputElement|null} */ (document.getElementById(id));
  return node ? node.value : "";
}

/**
 * The section.
 * @param {FlightState} st
 * @param {Flight|null} flight the room's events (null: none, or not read yet)
 * @param {Act} act
 * @returns {HTMLElement}
 */
export function flightSection(st, flight, act) {
  const mine = st.flight || null;
  const input = (/** @type {string} */ id, /** @type {string} */ label, /** @type {Object<string, string>} */ attrs) =>
    [h("label", { for: id }, label), h("input", Object.assign({ id: id }, attrs))];
  const form = h("div", { class: "form" },
    ...input("fl-room", t("fl.room"), { maxlength: "60", value: mine ? mine.room : "" }),
    ...input("fl-precedence", t("fl.precedence"), { type: "number", min: "1", max: "99", value: String(mine ? mine.precedence : 1) }),
    ...input("fl-tables", t("fl.tables"), { type: "number", min: "0", max: "9999", value: String(mine ? mine.tables : 0) }),
    button(t("fl.save"), () => act("POST", "/flight", { room: value("fl-room").trim(),
      precedence: Number(value("fl-precedence")), tables: Number(value("fl-tables")) })));
  if (mine) form.append(button(t("fl.leave"), () => act("POST", "/flight", { room: null })));
  const out = h("section", { id: "fl-section", "aria-labelledby": "fl-h" }, h("h3", { id: "fl-h" }, t("fl.title")),
    h("p", {}, t("fl.help")), form);
  if (!mine || !flight) { out.append(h("p", {}, t("fl.none"))); return out; }
  const rows = flight.events.map((e) => h("tr", { "data-event": e.name },
    h("td", {}, e.name + (e.this ? " " + t("fl.this") : "")), h("td", {}, String(e.precedence)),
    h("td", {}, e.matches.length ? t("fl.tables_of", { list: e.matches.map((m) => m.table).join(", ") }) : "–"),
    h("td", {}, String(e.waiting.length))));
  const base = "/api/tournaments/" + st.tournament_id;
  // no key in these addresses: the director's session cookie opens them
  const link = (/** @type {string} */ href, /** @type {string} */ text, /** @type {string} */ extra) =>
    h("a", { href: base + href + extra, target: "_blank", rel: "noopener" }, text);
  out.append(h("div", { class: "scroll-x" }, h("table", { class: "trn-history", id: "fl-events" },
    h("caption", {}, t("fl.room_title", { room: flight.room })),
    h("thead", {}, h("tr", {}, ...[t("fl.event"), t("fl.precedence"), t("fl.at_tables"), t("fl.waiting")]
      .map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, ...rows))),
  h("p", {}, link("/flight/pairings.html", t("fl.wall"), "?lang=" + (I18N.lang === "it" ? "it" : "en")), " · ",
    link("/flight.csv", t("fl.csv"), ""), " · ", link("/flight/standings.csv", t("fl.standings_csv"), "")));
  return out;
}
