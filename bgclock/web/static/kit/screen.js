// @ts-check
/* What the dashboard's tournament screens share (tourney/, contests/,
 * register/): the tournament picker and the screen's toggle, over the kit
 * (kit/dom.js, kit/api.js). */

import { api } from "./api.js";
import { h } from "./dom.js";

/**
 * A screen's heading with its tournament picker: the tournaments are listed
 * (the last one chosen when none was), and choosing one loads it.
 * @param {{tournament: number|null, state: any}} screen
 * @param {{id: string, title: string, label: string}} what
 * @param {function(): void} load
 * @returns {HTMLElement}
 */
export function tournamentHead(screen, what, load) {
  const picker = h("select", { id: what.id, "aria-label": what.label });
  api("GET", "/api/tournaments").then((list) => {
    for (const tn of list.tournaments) {
      const opt = h("option", { value: String(tn.id) }, tn.name);
      if (tn.id === screen.tournament) opt.setAttribute("selected", "");
      picker.append(opt);
    }
    if (screen.tournament == null && list.tournaments.length) {
      screen.tournament = list.tournaments[list.tournaments.length - 1].id;
      load();
    }
  }).catch(() => { /* the message line says why on the next action */ });
  picker.addEventListener("change", () => {
    screen.tournament = Number(/** @type {HTMLSelectElement} */ (picker).value);
    screen.state = null;
    load();
  });
  return h("div", { class: "row" }, h("h2", {}, what.title), picker);
}

/**
 * A screen opened and closed by its header button: while open it re-reads
 * its state every `refreshMs` (never under the director's typing: only when
 * nothing in the screen has focus); the button follows the language.
 * @param {{root: function(): HTMLElement, opener: string, openText: function(): string,
 *   refreshMs: number, load: function(): void, render: function(): void,
 *   screen: {timer: number|null}}} s
 * @returns {function(): void} the toggle
 */
export function mountScreen(s) {
  const toggle = () => {
    const node = s.root();
    node.hidden = !node.hidden;
    if (s.screen.timer != null) { clearInterval(s.screen.timer); s.screen.timer = null; }
    if (!node.hidden) {
      s.screen.timer = window.setInterval(() => {
        if (!node.contains(document.activeElement)) s.load();
      }, s.refreshMs);
      s.render();
      s.load();
    }
  };
  const opener = document.getElementById(s.opener);
  if (opener) {
    opener.textContent = s.openText();
    opener.addEventListener("click", toggle);
  }
  const lang = document.getElementById("btn-lang");
  if (lang) lang.addEventListener("click", () => setTimeout(() => {
    if (opener) opener.textContent = s.openText();
    s.render();
  }, 0));
  return toggle;
}
