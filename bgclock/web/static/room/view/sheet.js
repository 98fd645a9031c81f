// @ts-check
/* bgclock room display: an event's draw sheet, a block of 8 first-round
 * matches with the rounds they lead to. */
import { h } from "../../kit/dom.js";
import { SHEET_BLOCK } from "../state.js";
import { i18n } from "../strings.js";

const t = i18n().t;

/**
 * @typedef {import("../state.js").Room} Room
 * @typedef {import("../state.js").Bracket} Bracket
 */

/**
 * A block of a bracket: 8 first-round matches and the rounds they lead to.
 * @param {Bracket|null} bracket
 * @param {string} id
 * @param {number} page
 */
export function sheet(bracket, id, page) {
  const node = document.getElementById(id);
  if (!node) return;
  if (!bracket) { node.replaceChildren(); return; }
  const first = bracket.rounds.length ? bracket.rounds[0].length : 0;
  const from = page * SHEET_BLOCK, to = Math.min(first, from + SHEET_BLOCK);
  const cols = bracket.rounds.map((matches, r) => {
    const title = r === bracket.rounds.length - 1 && matches.length === 1 ? t("room.final") : t("room.round", { n: r + 1 });
    const list = h("ol", { class: "sheet-round" });
    const lo = Math.floor(from / 2 ** r), hi = Math.max(lo + 1, Math.ceil(to / 2 ** r));
    matches.slice(lo, hi).forEach((m, k) => {
      const at = 2 * (lo + k);
      const open = (/** @type {number} */ pos) => r === 0 && !!bracket.late_open && (bracket.late_slots || []).includes(pos);
      const name = (/** @type {string|null} */ x, /** @type {number} */ pos) => x
        || (open(pos) ? t("st.late_slot") : r === 0 ? t("trn.bye") : "\u00a0");
      const side = (/** @type {string|null} */ x, /** @type {number} */ pos) => h("span", {
        class: (m.winner && m.winner === x ? "won" : "") + (!x && open(pos) ? " late-slot" : "") }, name(x, pos));
      list.append(h("li", {}, side(m.a, at), side(m.b, at + 1)));
    });
    return h("div", { class: "sheet-col" }, h("h3", {}, title), list);
  });
  node.replaceChildren(...cols);
}

