// @ts-check
/* What the dashboard's tournament screens share (tourney.js, contests.js):
 * elements, buttons, the director's API and the tournament picker. */

const params = new URLSearchParams(location.search);
const key = params.get("key") || "";
/** The director's key (from the dashboard's URL): the exports' links carry it. */
export const directorKey = key;

/**
 * An element with attributes and children.
 * @param {string} tag
 * @param {Object<string, string>} [attrs]
 * @param {...(Node|string|null)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) if (c !== null) node.append(c);
  return node;
}

/**
 * A button that runs ``fn`` when clicked.
 * @param {string} text
 * @param {function(): void} fn
 * @param {Object<string, string>} [attrs]
 * @returns {HTMLElement}
 */
export function button(text, fn, attrs) {
  const b = h("button", Object.assign({ type: "button" }, attrs || {}), text);
  b.addEventListener("click", fn);
  return b;
}

/**
 * The director's API: JSON in and out (a CSV body with its content type).
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {string} [type]
 * @returns {Promise<any>}
 */
export async function api(method, path, body, type) {
  /** @type {Object<string, string>} */
  const headers = { Authorization: "Bearer " + key };
  if (body !== undefined) headers["Content-Type"] = type || "application/json";
  const r = await fetch(path, {
    method: method, headers: headers,
    body: body === undefined ? undefined : (type ? String(body) : JSON.stringify(body))
  });
  const data = await r.json();
  if (!r.ok) {
    // the refusal's stable code and params go with it (the screens translate them)
    const err = /** @type {Error & {code?: string, params?: Object<string, (string|number)>}} */ (
      new Error((data && data.message) || String(r.status)));
    err.code = data && data.error;
    err.params = (data && data.params) || {};
    throw err;
  }
  return data;
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
