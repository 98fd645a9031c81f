// @ts-check
/* What the dashboard's tournament screens share (tourney/, contests/,
 * register/): the tournament picker and the screen's toggle, over the kit
 * (kit/dom.js, kit/api.js). */

import { api } from "./api.js";
import { h } from "./dom.js";

/** The tournaments as last listed, so that a screen built again shows its
 * picker whole at once (no row that grows under the director's pointer while
 * the list is read again).
 * @type {{id: number, name: string}[]} */
let listed = [];

/**
 * @param {HTMLElement} picker
 * @param {{id: number, name: string}[]} tournaments
 * @param {number|null} chosen
 */
function fillPicker(picker, tournaments, chosen) {
  picker.replaceChildren(...tournaments.map((tn) => {
    const opt = h("option", { value: String(tn.id) }, tn.name);
    if (tn.id === chosen) opt.setAttribute("selected", "");
    return opt;
  }));
}

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
  fillPicker(picker, listed, screen.tournament);
  api("GET", "/api/tournaments").then((list) => {
    /** @type {{id: number, name: string}[]} */
    const now = list.tournaments.map((/** @type {{id: number, name: string}} */ tn) => ({ id: tn.id, name: tn.name }));
    if (JSON.stringify(now) !== JSON.stringify(listed)) {
      listed = now;
      fillPicker(picker, listed, screen.tournament);
    }
    if (screen.tournament == null && listed.length) {
      screen.tournament = listed[listed.length - 1].id;
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
 * A screen's background refreshes: `refresh(background)` is asked before a
 * load reads, and the function it returns says, once the answer is in,
 * whether to show it.  A load the director asked for is always shown.  A
 * background one only when what the screen shows (`shown`, as JSON)
 * changed, and only when nothing in the screen has focus as the answer
 * comes (the director may have started typing, or clicking, since the
 * refresh was asked: building the screen again then would take the field,
 * or the button, from under them).  What a refresh read but could not show
 * is shown by the next one that finds the director out of the screen, even
 * if it reads nothing new.
 * @param {function(): HTMLElement} root the screen
 * @param {function(): string} shown what the screen shows of what a load reads
 * @returns {function(boolean=): function(): boolean}
 */
export function refreshJudge(root, shown) {
  let unseen = false;
  return (background) => {
    if (!background) return () => true;
    const before = shown();
    return () => {
      if (shown() !== before) unseen = true;
      if (!unseen || root().contains(document.activeElement)) return false;
      unseen = false;
      return true;
    };
  };
}

/**
 * A screen opened and closed by its header button: while open it re-reads
 * its state every `refreshMs` (never under the director's typing: only when
 * nothing in the screen has focus), a background load that builds the
 * screen again only when what it read changed (refreshJudge); the button
 * follows the language.
 * @param {{root: function(): HTMLElement, opener: string, openText: function(): string,
 *   refreshMs: number, load: function(boolean=): void, render: function(): void,
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
        if (!node.contains(document.activeElement)) s.load(true);
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
