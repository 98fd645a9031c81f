// @ts-check
/* bgclock room display: the players by name (their table and opponent),
 * "where do I play?", the welcome before round 1 and the champion view. */
import { h } from "../../kit/dom.js";
import { findSeats } from "../../tourney/seats.js";
import { NAMES_PER_PAGE, byName, pageOf } from "../state.js";
import { i18n } from "../strings.js";

const t = i18n().t;

/**
 * @typedef {import("../state.js").Room} Room
 * @typedef {import("../state.js").Bracket} Bracket
 */

/**
 * @param {Room} room
 * @param {number} page
 */
export function renderNames(room, page) {
  const list = document.getElementById("room-names");
  if (!list) return;
  list.replaceChildren(...pageOf(byName(room), page, NAMES_PER_PAGE).map((p) => {
    if (p.status === "playing") {
      return h("li", {}, h("span", { class: "tn" }, String(p.table)), p.name + " ",
        h("span", { class: "vs" }, t("roomx.vs") + " " + p.vs));
    }
    const status = p.status === "champion" ? "★ " + t("roomx.champion")
      : p.status === "waiting_cons" ? t("st.waiting_cons") : t("roomx." + p.status);
    return h("li", {}, h("span", { class: "tn" }, "–"), p.name + " ", h("span", { class: "vs" }, "(" + status + ")"));
  }));
}

/**
 * The champion view: each event's champion, then the Main's places.
 * @param {Room} room
 */
export function renderChampion(room) {
  const node = document.getElementById("room-champion");
  if (!node) return;
  const items = [];
  const main = room.standings.find((s) => s.event === "main");
  if (room.champions.main) items.push(h("p", { class: "room-champ" }, "★ " + room.champions.main));
  for (const s of room.standings) {
    if (s.event === "main" || !s.champion) continue;
    items.push(h("p", { class: "room-champ-other" }, t("st.event." + s.event) + ": ★ " + s.champion));
  }
  if (main) {
    const list = h("ol", { class: "room-places" });
    for (const p of main.placings.slice(1, 4)) list.append(h("li", {}, h("span", { class: "tn" }, p.label), p.names.join(", ")));
    items.push(list);
  }
  node.replaceChildren(...items);
}

/**
 * Before round 1: the registered players, by name.
 * @param {Room} room
 * @param {number} page
 */
export function renderWelcome(room, page) {
  const count = document.getElementById("room-welcome-count");
  if (count) count.textContent = t("st.registered", { n: room.registered.length });
  const list = document.getElementById("room-registered");
  if (list) list.replaceChildren(...pageOf(room.registered, page, NAMES_PER_PAGE).map((n) => h("li", {}, n)));
}

/**
 * "Where do I play?": the players found, above the view.
 * @param {Room} room
 */
export function renderSearch(room) {
  const box = /** @type {HTMLInputElement|null} */ (document.getElementById("room-search"));
  const node = document.getElementById("v-search");
  const list = document.getElementById("room-found");
  if (!box || !node || !list) return;
  const query = box.value.trim();
  node.hidden = !query;
  if (!query) return;
  const found = findSeats(room.seats || room.matches, query);
  const eventName = (/** @type {string} */ e) => t("st.event." + e);
  list.replaceChildren(...(found.length ? found.map((s) => h("li", {}, h("span", { class: "tn" }, String(s.table)),
    t("st.search_row", { name: s.name, table: s.table, vs: s.vs, event: eventName(s.event), n: s.round + 1 })))
    : [h("li", {}, t("st.search_none"))]));
}

