// @ts-check
/* bgclock dashboard: the players' register (issue 23 §4).
 *
 * Search the register (a name's part or a federation id, paged, by name or
 * by rating), add and edit players, import and export it as CSV, open the
 * rating list (printable A4 in the director's language, or CSV) and a
 * player's history.  A found player is registered in the chosen tournament
 * linked to the entry (register_id); closing the tournament (with a
 * confirmation) rates its matches once.  Everything goes through
 * /api/register... with the director's key.  The screen is a section of
 * director.html, opened by its header's button. */
import { api, directorKey } from "../kit/api.js";
import { button, h } from "../kit/dom.js";
import { mountScreen, tournamentHead } from "../kit/screen.js";
import { i18n } from "./strings.js";
import { openConfirm } from "../kit/confirm.js";

const I18N = i18n();
const t = I18N.t;
const PAGE = 20;
const REFRESH_MS = 15000;

/**
 * @typedef {{id: number, name: string, federation_id: (string|null), club: (string|null),
 *   rating: number, rating_points: string, experience: number, player?: (number|null)}} Entry
 * @typedef {{tournament_name: string, opponent_name: string, length: number, won: boolean,
 *   before_points: string, after_points: string, event: string, round: number}} Line
 */

const screen = {
  /** @type {number|null} */ tournament: null,
  /** @type {any} */ state: null,
  /** @type {Entry[]} */ entries: [],
  total: 0,
  offset: 0,
  q: "",
  order: "name",
  /** @type {Entry|null} */ editing: null,
  /** @type {(Entry & {history: Line[]})|null} */ history: null,
  message: "",
  error: false,
  /** @type {number|null} */ timer: null
};

/** @returns {HTMLElement} */
function root() {
  return /** @type {HTMLElement} */ (document.getElementById("register"));
}

/** @param {string} id @returns {string} */
function value(id) {
  const node = /** @type {HTMLInputElement|HTMLTextAreaElement|HTMLSelectElement|null} */ (document.getElementById(id));
  return node ? node.value : "";
}

/** @param {string} text @param {boolean} [error] */
function say(text, error) {
  screen.message = text;
  screen.error = !!error;
}

async function load() {
  const query = "?q=" + encodeURIComponent(screen.q) + "&order=" + screen.order
    + "&limit=" + PAGE + "&offset=" + screen.offset;
  const path = screen.tournament == null ? "/api/register" + query
    : "/api/tournaments/" + screen.tournament + "/register-search" + query;
  try {
    const found = await api("GET", path);
    screen.entries = found.entries;
    screen.total = found.total;
  } catch (e) {
    say(String(/** @type {Error} */ (e).message), true);
  }
  render();
}

/**
 * Run one request; say how it went; search again.
 * @param {function(): Promise<string>} fn what it did, in words
 */
async function act(fn) {
  try {
    say(await fn());
  } catch (e) {
    say(String(/** @type {Error} */ (e).message), true);
  }
  await load();
}

/** @param {Entry} e */
async function showHistory(e) {
  try {
    screen.history = await api("GET", "/api/register/" + e.id);
  } catch (err) {
    say(String(/** @type {Error} */ (err).message), true);
  }
  render();
}

/** @returns {HTMLElement} */
function searchSection() {
  const order = h("select", { id: "reg-order", "aria-label": t("reg.order") },
    h("option", { value: "name" }, t("reg.order.name")),
    h("option", { value: "rating" }, t("reg.order.rating")));
  /** @type {HTMLSelectElement} */ (order).value = screen.order;
  const go = () => {
    screen.q = value("reg-q"); screen.order = value("reg-order"); screen.offset = 0;
    load();
  };
  const input = h("input", { id: "reg-q", maxlength: "100", value: screen.q, "aria-label": t("reg.search"),
    placeholder: t("reg.search") });
  input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
  const rows = screen.entries.map((e) => {
    const actions = h("td", {}, button(t("reg.history"), () => showHistory(e)),
      button(t("reg.edit"), () => { screen.editing = e; render(); }));
    if (screen.tournament != null) {
      if (e.player != null) actions.append(" " + t("reg.entered", { n: e.player }));
      else actions.append(button(t("reg.enter"), () => act(async () => {
        /** @type {Object<string, any>} */
        const body = { name: e.name, register_id: e.id };
        if (e.federation_id) body.federation_id = e.federation_id;
        await api("POST", "/api/tournaments/" + screen.tournament + "/players", body);
        return t("reg.done");
      }), { "data-entry": String(e.id) }));
    }
    return h("tr", {}, h("td", {}, e.name), h("td", {}, e.federation_id || ""), h("td", {}, e.club || ""),
      h("td", { class: "num" }, e.rating_points), h("td", { class: "num" }, String(e.experience)), actions);
  });
  const head = h("tr", {}, ...["reg.name", "reg.fed", "reg.club", "reg.rating", "reg.experience", ""]
    .map((k) => h("th", {}, k ? t(k) : "")));
  const pager = h("div", { class: "row" }, t("reg.found", { n: screen.total }));
  if (screen.offset > 0) pager.append(button(t("reg.prev"), () => { screen.offset = Math.max(0, screen.offset - PAGE); load(); }));
  if (screen.offset + PAGE < screen.total) pager.append(button(t("reg.next"), () => { screen.offset += PAGE; load(); }));
  return h("section", {}, h("div", { class: "row" }, input, order, button(t("reg.find"), go, { id: "reg-find" })),
    h("table", { class: "reg-list" }, h("thead", {}, head), h("tbody", {}, ...rows)), pager);
}

/** @returns {HTMLElement} */
function editSection() {
  const e = screen.editing;
  const form = h("div", { class: "form" },
    h("label", { for: "reg-name" }, t("reg.name")), h("input", { id: "reg-name", maxlength: "100", value: e ? e.name : "" }),
    h("label", { for: "reg-fed" }, t("reg.fed")), h("input", { id: "reg-fed", maxlength: "40", value: e && e.federation_id || "" }),
    h("label", { for: "reg-club" }, t("reg.club")), h("input", { id: "reg-club", maxlength: "100", value: e && e.club || "" }),
    h("label", { for: "reg-rating" }, t("reg.rating_hint")),
    h("input", { id: "reg-rating", inputmode: "decimal", value: e ? e.rating_points : "" }),
    h("span", {}),
    h("div", { class: "row" }, button(t("reg.save"), () => act(async () => {
      const fed = value("reg-fed").trim(), club = value("reg-club").trim(), rating = value("reg-rating").trim();
      /** @type {Object<string, any>} */
      const body = { name: value("reg-name"), federation_id: fed || null, club: club || null };
      if (rating && (!e || rating !== e.rating_points)) body.rating = Math.round(Number(rating.replace(",", ".")) * 100);
      if (e) await api("PATCH", "/api/register/" + e.id, body);
      else await api("POST", "/api/register", body);
      screen.editing = null;
      return t("reg.done");
    }), { id: "reg-save" }), e ? button(t("reg.cancel"), () => { screen.editing = null; render(); }) : null));
  return h("section", {}, h("h3", {}, e ? t("reg.edit_title", { name: e.name }) : t("reg.add_title")), form);
}

/** @returns {HTMLElement} */
function filesSection() {
  const q = "?key=" + encodeURIComponent(directorKey);
  const lang = I18N.lang === "it" ? "it" : "en";
  return h("section", {}, h("h3", {}, t("reg.import_title")),
    h("div", { class: "form" }, h("label", { for: "reg-csv" }, t("reg.csv")), h("textarea", { id: "reg-csv", rows: "3" }),
      h("span", {}), button(t("reg.import"), () => act(async () => {
        const done = await api("POST", "/api/register.csv", value("reg-csv"), "text/csv");
        return t("reg.imported", { a: done.added, u: done.updated });
      }), { id: "reg-import" })),
    h("p", { class: "row" }, h("a", { href: "/api/register.csv" + q, download: "register.csv" }, t("reg.export"))),
    h("h3", {}, t("reg.list_title")),
    h("p", { class: "row" },
      h("a", { id: "reg-print", href: "/api/register/ratings.html" + q + "&lang=" + lang, target: "_blank", rel: "noopener" }, t("reg.print")),
      h("a", { href: "/api/register/ratings.csv" + q, download: "ratings.csv" }, t("reg.list_csv"))));
}

/** @returns {HTMLElement|null} */
function historySection() {
  const e = screen.history;
  if (!e) return null;
  const head = h("tr", {}, ...["reg.h.tournament", "reg.h.opponent", "reg.h.length", "reg.h.result", "reg.h.before", "reg.h.after"]
    .map((k) => h("th", {}, t(k))));
  const rows = e.history.map((x) => h("tr", {}, h("td", {}, x.tournament_name), h("td", {}, x.opponent_name),
    h("td", { class: "num" }, String(x.length)), h("td", {}, t(x.won ? "reg.won" : "reg.lost")),
    h("td", { class: "num" }, x.before_points), h("td", { class: "num" }, x.after_points)));
  return h("section", { id: "reg-history" }, h("h3", {}, t("reg.history_of", { name: e.name }) + " · " + e.rating_points),
    rows.length ? h("table", { class: "reg-list" }, h("thead", {}, head), h("tbody", {}, ...rows)) : h("p", {}, t("reg.no_history")),
    button(t("reg.cancel"), () => { screen.history = null; render(); }));
}

/** @returns {HTMLElement|null} */
function closeSection() {
  if (screen.tournament == null) return null;
  const pick = /** @type {HTMLSelectElement|null} */ (document.getElementById("reg-pick"));
  const b = button(t("reg.close"), () => {
    const name = pick && pick.selectedOptions[0] ? pick.selectedOptions[0].textContent || "" : String(screen.tournament);
    openConfirm({ text: t("reg.close_confirm", { name: name }), confirmLabel: t("reg.confirm"),
      cancelLabel: t("reg.cancel"), busyLabel: t("reg.closing"), opener: b,
      onConfirm: () => act(async () => {
        const out = await api("POST", "/api/tournaments/" + screen.tournament + "/close");
        if (out.rated.error) throw new Error(out.rated.error);
        return t(out.rated.now ? "reg.closed" : "reg.closed_before", { n: out.rated.matches });
      }) });
  }, { id: "reg-close" });
  return h("p", { class: "row" }, b);
}

function render() {
  const node = root();
  if (!node || node.hidden) return;
  const head = tournamentHead(screen, { id: "reg-pick", title: t("reg.title"), label: t("reg.tournament") }, load);
  const msg = h("p", { class: "msg" + (screen.error ? " err" : ""), role: "status", id: "reg-msg" }, screen.message);
  node.replaceChildren(head, msg, searchSection());
  const hist = historySection();
  if (hist) node.append(hist);
  node.append(editSection(), filesSection());
  const close = closeSection();
  if (close) node.append(close);
}

/** Open or close the screen (the header's button). */
const toggle = mountScreen({ root: root, opener: "btn-register", openText: () => t("reg.open"),
  refreshMs: REFRESH_MS, load: load, render: render, screen: screen });

export { load, render, screen, toggle };
