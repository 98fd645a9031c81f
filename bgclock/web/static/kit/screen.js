// @ts-check
/* What the dashboard's tournament screens share (tourney/, contests/,
 * register/): the tournament picker and the screen's toggle, over the kit
 * (kit/dom.js, kit/api.js). */

import { api, newestOnly } from "./api.js";
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
 * The pickers drawn, by their ids: the screen whose tournament each one
 * picks, and the screen's load.
 * @type {Map<string, {screen: {tournament: number|null, state: any}, load: function(): void}>}
 */
const heads = new Map();
/** What each picker was last filled with (the list, as JSON). */
const filled = new WeakMap();
/** The lists asked: only the newest one's answer is written. */
const lists = newestOnly();

/** The desk's tournament: one choice for every screen (issue 32 §3).  A
 * tournament picked in any screen's picker is the one every other screen
 * shows, and the one its actions (an entry from the register, say) go to.
 * @type {{chosen: number|null}} */
export const desk = { chosen: null };

/**
 * The desk's choice made: every screen follows it; the open ones load it.
 * @param {number} id
 * @param {string} [from] the picker it was made in (its screen loads itself)
 */
function choose(id, from) {
  desk.chosen = id;
  for (const [pid, head] of heads) {
    if (head.screen.tournament === id) continue;
    head.screen.tournament = id;
    head.screen.state = null;
    const picker = document.getElementById(pid);
    if (pid !== from && picker && !picker.closest("[hidden]")) head.load();
  }
}

/**
 * Fill a picker with the tournaments as last listed, its screen's choice
 * kept, unless it holds them already.
 * @param {HTMLElement} picker
 * @param {number|null} chosen
 */
function showListed(picker, chosen) {
  const now = JSON.stringify(listed);
  if (filled.get(picker) === now) return;
  fillPicker(picker, listed, chosen);
  filled.set(picker, now);
}

/**
 * List the tournaments again, and show the list in every open screen's
 * picker, its choice kept (not in a picker the director is in: the next
 * list does it); a screen with none chosen gets the last one, and loads it.
 * Each screen's heading does it as it is drawn, and each open screen with
 * its background refresh (`mountScreen`): a tournament made on another
 * dashboard is in the picker within a refresh, not only once the screen
 * is drawn again.
 * @returns {Promise<void>}
 */
export function relist() {
  const newest = lists();
  return api("GET", "/api/tournaments").then((list) => {
    if (!newest()) return;  // a later list was asked: its answer writes
    listed = list.tournaments.map((/** @type {{id: number, name: string}} */ tn) => ({ id: tn.id, name: tn.name }));
    for (const [id, head] of heads) {
      const picker = document.getElementById(id);
      if (!picker || picker.closest("[hidden]")) continue;
      if (picker !== document.activeElement) showListed(picker, head.screen.tournament);
      if (head.screen.tournament == null && listed.length) {
        // the desk's choice, else the last one made
        head.screen.tournament = desk.chosen != null ? desk.chosen : listed[listed.length - 1].id;
        if (desk.chosen == null) desk.chosen = head.screen.tournament;
        head.load();
      }
    }
  }).catch(() => { /* the message line says why on the next action */ });
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
  heads.set(what.id, { screen: screen, load: load });
  showListed(picker, screen.tournament);
  relist();
  picker.addEventListener("change", () => {
    screen.tournament = Number(/** @type {HTMLSelectElement} */ (picker).value);
    screen.state = null;
    choose(screen.tournament, what.id);
    load();
  });
  return h("div", { class: "row" }, h("h2", {}, what.title), picker);
}

/**
 * A read of the screen's state, as `refreshJudge` hands it out: `fresh()`
 * says whether it is still the newest read or action asked (the answer of
 * an older one, come last, is dropped whole: it would show an earlier
 * state, or another tournament's, or another search's, under what the
 * director has asked since); `show()`, once its answer is written, whether
 * to build the screen again.
 * @typedef {{fresh: function(): boolean, show: function(): boolean}} Read
 */

/** How long a read may be away before a background refresh is asked all
 * the same (an answer lost with the Wi-Fi may never come; the refresh then
 * makes it stale, so it is dropped if it comes after all). */
const STUCK_MS = 20000;

/**
 * A screen's reads.  `refresh(background)` is asked as a load or an action
 * begins, and gives a `Read`, or `null` for a background refresh while
 * another read is on its way (refreshes do not pile up behind a slow
 * answer, each one making the one before it stale), unless that read was
 * asked more than `STUCK_MS` ago.  Only the newest read
 * or action asked writes what it got: a read answered after a later one was
 * asked is dropped.  A load the director asked for is always shown.  A
 * background one only when what the screen shows (`shown`, as JSON)
 * changed, and only when nothing in the screen has focus as the answer
 * comes (the director may have started typing, or clicking, since the
 * refresh was asked: building the screen again then would take the field,
 * or the button, from under them).  What a refresh read but could not show
 * is shown by the next one that finds the director out of the screen, even
 * if it reads nothing new.
 * @param {function(): HTMLElement} root the screen
 * @param {function(): string} shown what the screen shows of what a load reads
 * @returns {function(boolean=): (Read|null)}
 */
export function refreshJudge(root, shown) {
  let unseen = false;
  const ask = newestOnly();
  let away = 0;
  let askedAt = 0;
  return (background) => {
    if (background && away > 0 && performance.now() - askedAt < STUCK_MS) return null;
    const newest = ask();
    away += 1;
    askedAt = performance.now();
    let answered = false;
    const before = background ? shown() : "";
    const fresh = () => {
      if (!answered) { answered = true; away -= 1; }
      return newest();
    };
    return {
      fresh: fresh,
      show: () => {
        if (!fresh()) return false;
        if (!background) return true;
        if (shown() !== before) unseen = true;
        if (!unseen || root().contains(document.activeElement)) return false;
        unseen = false;
        return true;
      },
    };
  };
}

/**
 * A screen opened and closed by its header button: while open it re-reads
 * its state every `refreshMs` (never under the director's typing: only when
 * nothing in the screen has focus), a background load that builds the
 * screen again only when what it read changed (refreshJudge), and the list
 * of tournaments for its picker (`relist`); the button and the screen's
 * name for screen readers (`label`, its `aria-label`) follow the language.
 * @param {{root: function(): HTMLElement, opener: string, openText: function(): string,
 *   label?: function(): string,
 *   refreshMs: number, load: function(boolean=): void, render: function(): void,
 *   screen: {timer: number|null, tournament: number|null, state: any}}} s
 * @returns {function(): void} the toggle
 */
export function mountScreen(s) {
  const toggle = () => {
    const node = s.root();
    node.hidden = !node.hidden;
    if (s.screen.timer != null) { clearInterval(s.screen.timer); s.screen.timer = null; }
    if (!node.hidden) {
      if (desk.chosen != null && s.screen.tournament !== desk.chosen) {
        s.screen.tournament = desk.chosen;  // the desk's choice, made in another screen
        s.screen.state = null;
      }
      s.screen.timer = window.setInterval(() => {
        if (node.contains(document.activeElement)) return;
        s.load(true);
        relist();
      }, s.refreshMs);
      s.render();
      s.load();
    }
  };
  const opener = document.getElementById(s.opener);
  const named = () => {
    if (opener) opener.textContent = s.openText();
    const node = s.root();
    if (node && s.label) node.setAttribute("aria-label", s.label());
  };
  named();
  if (opener) opener.addEventListener("click", toggle);
  const lang = document.getElementById("btn-lang");
  if (lang) lang.addEventListener("click", () => setTimeout(() => {
    named();
    s.render();
  }, 0));
  return toggle;
}
