// @ts-check
/* bgclock dashboard: the Players & draw screen's search of the players'
 * register (issue 23 §4).  A found player is registered in the tournament
 * linked to the register entry (register_id), so closing the tournament rates
 * their matches.  The results are kept here, so the screen's refresh (every
 * few seconds) does not lose them. */
import { api, newestOnly } from "../../kit/api.js";
import { button, h } from "../../kit/dom.js";
import { i18n } from "../strings.js";

const t = i18n().t;

const found = {
  /** @type {number|null} */ tournament: null,
  q: "",
  /** @type {{id: number, name: string, federation_id: (string|null), rating_points: string,
   *   player: (number|null)}[]} */ entries: [],
  total: 0
};
/** The searches: only the newest one's answer is shown. */
const searches = newestOnly();

/**
 * Search the register for the tournament; then `done()`, unless a later
 * search was asked before this one's answer came.
 * @param {number} tournament
 * @param {string} q
 * @param {function(): void} done
 */
async function search(tournament, q, done) {
  const newest = searches();
  const out = await api("GET", "/api/tournaments/" + tournament + "/register-search?limit=10&q="
    + encodeURIComponent(q));
  // a later search was asked meanwhile: its answer is the one to show (an
  // older one, come last, would put its words back in the box)
  if (!newest()) return;
  found.tournament = tournament; found.q = q; found.entries = out.entries; found.total = out.total;
  done();
}

/**
 * The search box and its results, each with a button that registers it.
 * @param {number} tournament
 * @param {function(string, string, any=): Promise<void>} act the screen's action runner
 * @param {function(): void} rerender
 * @returns {HTMLElement}
 */
export function registerPick(tournament, act, rerender) {
  if (found.tournament !== tournament) { found.entries = []; found.q = ""; found.total = 0; }
  const input = h("input", { id: "trn-reg-q", maxlength: "100", value: found.q });
  const go = () => {
    const q = /** @type {HTMLInputElement} */ (input).value;
    search(tournament, q, rerender).catch(() => { /* the message line says why on the next action */ });
  };
  input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
  const list = h("ul", { id: "trn-reg-found" });
  for (const e of found.entries) {
    const item = h("li", {}, e.name + (e.federation_id ? " (" + e.federation_id + ")" : "") + " · " + e.rating_points);
    if (e.player != null) item.append(" · " + t("reg.entered", { n: e.player }));
    else item.append(" ", button(t("reg.enter"), () => {
      /** @type {Object<string, any>} */
      const body = { name: e.name, register_id: e.id };
      if (e.federation_id) body.federation_id = e.federation_id;
      act("POST", "/players", body).then(go);
    }, { "data-entry": String(e.id) }));
    list.append(item);
  }
  return h("div", { class: "form" }, h("label", { for: "trn-reg-q" }, t("reg.search_in")),
    h("div", { class: "row" }, input, button(t("reg.find"), go, { id: "trn-reg-find" })),
    h("span", {}), list);
}
