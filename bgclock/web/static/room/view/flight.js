// @ts-check
/* bgclock: the room's events (flights, issue 23 §1) on the room display.
 *
 * state.js hands every room.json body it receives on (a "bg-room" event on
 * the document); when the tournament shares its room with other events,
 * this section lists every table of the room with its event's name and
 * players, then the matches waiting for a table, event by event in
 * precedence order.  Hidden while the event shares no room. */
import { h } from "../../kit/dom.js";
import { i18n } from "../strings.js";

const I18N = i18n();
const t = I18N.t;

/** @typedef {import("../../tourney/strings.js").Flight} Flight */

/** @type {Flight|null} */
let flight = null;

function render() {
  const section = document.getElementById("room-flight");
  if (!section) return;
  section.hidden = !flight;
  if (!flight) return;
  const heading = /** @type {HTMLElement} */ (section.querySelector("h2"));
  heading.textContent = t("fl.room_title", { room: flight.room });
  const bracket = (/** @type {string} */ e) => t("room." + e);
  /** @type {{table: number, name: string, what: string, players: string}[]} */
  const at = [];
  /** @type {HTMLElement[]} */
  const waiting = [];
  for (const e of flight.events) {
    for (const m of e.matches) {
      at.push({ table: Number(m.table), name: e.name, what: bracket(m.event) + " · " + t("fl.round", { n: m.round + 1 }),
        players: (m.a || "") + " – " + (m.b || "") });
    }
    for (const m of e.waiting) {
      waiting.push(h("li", { "data-event": e.name }, e.name + " · " + bracket(m.event) + " · " + t("fl.round", { n: m.round + 1 })
        + ": " + (m.a || "") + " – " + (m.b || "")));
    }
  }
  at.sort((x, y) => x.table - y.table);
  const body = /** @type {HTMLElement} */ (section.querySelector(".body"));
  body.replaceChildren(
    h("table", { class: "room-tables", id: "room-flight-tables" },
      h("caption", {}, t("fl.room_tables")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("room.table")), h("th", { scope: "col" }, t("fl.event")),
        h("th", { scope: "col" }, t("fl.round_col")), h("th", { scope: "col" }, t("room.players")))),
      h("tbody", {}, ...at.map((x) => h("tr", { "data-event": x.name }, h("td", {}, String(x.table)), h("td", {}, x.name),
        h("td", {}, x.what), h("td", {}, x.players))))),
    ...(waiting.length ? [h("h3", {}, t("fl.room_waiting")), h("ul", { class: "room-late", id: "room-flight-waiting" }, ...waiting)] : []));
}

document.addEventListener("bg-room", (e) => {
  const data = /** @type {CustomEvent<{flight?: (Flight|null)}>} */ (e).detail;
  flight = data && data.flight ? data.flight : null;
  render();
});
const lang = document.getElementById("btn-lang");
if (lang) lang.addEventListener("click", () => setTimeout(render, 0));
